"""Phase 5, compile (steps): every effect of a step list to a Python closure.

Input: a step list from the checked document, with its data path. Output: `Block`, a function
`run(game, env)`. Each effect becomes one closure built once; running a game calls closures and
touches no YAML and no parse tree. Simple steps end with `game.after_op()` (budgets, checks, the
end condition). Interrupts (`end_turn`, `break`...) are the exceptions of interpreter/engine/signals.py.

`let` and `draw ... as` bind names for the rest of their step list: such a list runs in a fresh
scope layered over the caller's. The decision steps (`choose`, `actions`, `race`) are compiled
by the mixin in interpreter/engine/decision_steps.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dsl import nodes as n
from dsl.builtins import EvalError, get, put, sized
from dsl.compiler import Env
from interpreter.engine import compile_expr as cx
from interpreter.engine.decision_steps import DecisionSteps
from interpreter.engine.reads import target_writes
from interpreter.engine.signals import (
    Break,
    EndGame,
    EndPhase,
    EndTurn,
    Goto,
    RuleError,
    bad_count,
    bad_transfer,
    bad_winners,
    cannot_add,
    counted_passes,
    moved_twice,
    not_eliminable,
    not_movable,
    past_passes,
)
from interpreter.engine.step_runtime import (
    dice_in,
    named_doer,
    raised_at_roll,
    record_roll,
    step_name,
)
from interpreter.engine.values import (
    CONTAINERS,
    Card,
    Die,
    Player,
    Zone,
    copied,
    show,
    told,
    unset_item,
)
from interpreter.engine.words import revealed

Step = Callable[[Any, Any], None]
Block = Callable[[Any, Any], None]


def _noop(g, env) -> None:
    return None


class StepCompiler(DecisionSteps):
    """Compiles step lists. `procedures` is filled by the program compiler (calls resolve late,
    so procedures may call each other in any order)."""

    def __init__(self, symbols, procedures: dict[str, Any]):
        self.sym = symbols
        self.procedures = procedures

    # -- lists ---------------------------------------------------------------------------------
    def block(self, steps: list | None, path: tuple) -> Block:
        if not steps:
            return _noop
        compiled = [self.step(s, path + (i,)) for i, s in enumerate(steps)]
        scoped = any(isinstance(s, dict) and ("let" in s or "draw" in s) for s in steps)
        fns = tuple(compiled)
        if len(fns) == 1 and not scoped:
            return fns[0]
        if scoped:
            def run_scoped(g, env):
                local = Env((), env)
                for f in fns:
                    f(g, local)
            return run_scoped

        def run(g, env):
            for f in fns:
                f(g, env)
        return run

    def step(self, step: Any, path: tuple) -> Step:
        name = step_name(step)
        spec = {} if isinstance(step, str) else step
        return getattr(self, f"_{name}")(spec, path, name)

    # -- state ---------------------------------------------------------------------------------
    def assignable(self, name: str, path: tuple) -> str:
        """The name, when `set` and `add` may write it (declared global, round or turn state);
        the checker says so first, this holds even when a check is bypassed."""
        if name not in self.sym.assignable:
            raise RuleError("not-assignable", f"'{name}' is not declared state and cannot be "
                            "set", path)
        return name

    def _setter(self, text: str, path: tuple) -> tuple[Callable, Callable]:
        """(read, write) for a set/add target."""
        node = cx.target_node(text)
        read = cx.located(cx.compile_expression(node), path)
        if isinstance(node, n.Name):
            name = self.assignable(node.id, path)

            def write_name(g, env, v):
                g.env[name] = v
            return read, write_name
        if isinstance(node, n.Field):
            obj = cx.located(cx.compile_expression(node.obj), path)
            attr = node.name

            def write_field(g, env, v):
                cx.put_field(obj(env), attr, v, path)
            return read, write_field
        if isinstance(node, n.Index):
            obj = cx.located(cx.compile_expression(node.obj), path)
            key = cx.located(cx.compile_expression(node.key), path)

            def write_index(g, env, v):
                container = obj(env)
                k = key(env)
                try:
                    if type(container) is list and type(k) is int:
                        container[k] = v
                    elif type(container) is dict:
                        container[k] = v
                    else:
                        raise TypeError
                except (TypeError, IndexError):
                    raise RuleError("runtime-error", unset_item(k, container), path) from None
            return read, write_index
        raise RuleError("runtime-error", f"'{text}' cannot be set", path)  # the checker refuses

    def _set(self, spec, path, name) -> Step:
        values = spec["set"]
        writes = _writes(values)
        pairs = [(text, *self._setter(text, path + ("set", text)),
                  cx.expr(v, path + ("set", text))) for text, v in values.items()]
        if len(pairs) == 1:
            text, _, write, value = pairs[0]
            where = path + ("set", text)

            def set_one(g, env):
                v = value(env)
                if type(v) in CONTAINERS:
                    v = copied(v, where)  # a value, never shared with where it was read
                write(g, env, v)
                if g.watch_changes:
                    g.fire("changed", {"name": text, "value": v})
                g.after_op(writes)
            return set_one

        stored = [(path + ("set", text), value) for text, _, _, value in pairs]

        def set_many(g, env):
            # All read (and copied) before any is written.
            new = [copied(value(env), where) for where, value in stored]
            for (text, _, write, _), v in zip(pairs, new, strict=True):
                write(g, env, v)
                if g.watch_changes:
                    g.fire("changed", {"name": text, "value": v})
            g.after_op(writes)
        return set_many

    def _add(self, spec, path, name) -> Step:
        pairs = [(text, *self._setter(text, path + ("add", text)),
                  cx.expr(v, path + ("add", text))) for text, v in spec["add"].items()]
        writes = _writes(spec["add"])
        low = cx.expr(spec["min"], path + ("min",)) if "min" in spec else None
        high = cx.expr(spec["max"], path + ("max",)) if "max" in spec else None

        def add(g, env):
            amounts = [amount(env) for _, _, _, amount in pairs]
            for (text, read, write, _), amount in zip(pairs, amounts, strict=True):
                old = read(env)
                try:
                    if isinstance(old, list):  # adding to a list appends (a list its items)
                        write(g, env, sized(old + copied(list(amount) if isinstance(
                            amount, (list, tuple)) else [amount], path + ("add", text))))
                        continue
                    if type(old) not in (int, float) or type(amount) not in (int, float):
                        raise cannot_add(told(amount), told(old), path + ("add", text))
                    v = sized(old + amount)
                except EvalError as err:  # past a size limit (`add: {x: x}` in a loop)
                    raise RuleError("runtime-error", str(err), path + ("add", text)) from None
                if low is not None:
                    v = max(low(env), v)
                if high is not None:
                    v = min(high(env), v)
                write(g, env, v)
                if g.watch_changes:
                    g.fire("changed", {"name": text, "value": v, "old": old})
            g.after_op(writes)
        return add

    def _let(self, spec, path, name) -> Step:
        binder = spec["let"]
        where = path + ("be",)
        value = cx.expr(spec.get("be"), where)

        def let(g, env):
            env[binder] = copied(value(env), where)
        return let

    def _transfer(self, spec, path, name) -> Step:
        amount = cx.expr(spec["transfer"], path + ("transfer",))
        of = spec["of"]
        writes = frozenset({of})
        giver = cx.expr(spec["from"], path + ("from",))
        taker = cx.expr(spec["to"], path + ("to",))

        def transfer(g, env):
            want, src, dst = amount(env), giver(env), taker(env)
            if type(want) not in (int, float) or want < 0:
                raise bad_transfer(told(want), path + ("transfer",))
            moved = want
            try:
                if src != "bank":
                    have = get(src, of)
                    moved = min(want, max(0, have))
                    put(src, of, have - moved)
                if dst != "bank":
                    put(dst, of, get(dst, of) + moved)
            except EvalError as err:
                raise RuleError("runtime-error", str(err), path + ("of",)) from None
            g.record("transfer", amount=moved, of=of, source=_who(src), to=_who(dst))
            g.after_op(writes)
        return transfer

    def _eliminate(self, spec, path, name) -> Step:
        who = cx.expr(spec["eliminate"], path + ("eliminate",))
        because = cx.template(spec["because"], path + ("because",)) if "because" in spec \
            else None

        def eliminate(g, env):
            p = who(env)
            if not isinstance(p, Player):
                raise not_eliminable(show(p), path)
            if not p.eliminated:
                p.eliminated = True
                if because is not None and g.logging:  # the log says why, for replays too
                    g.record("eliminated", player=p.name, because=because(env))
                else:
                    g.record("eliminated", player=p.name)
            g.after_op(_ELIMINATED)
        return eliminate

    # -- chance and components -------------------------------------------------------------------
    def _duration(self, spec, path) -> Callable | None:
        return cx.seconds(spec["duration"], path + ("duration",)) if "duration" in spec else None

    def _roll(self, spec, path, name) -> Step:
        dice = cx.expr(spec["roll"], path + ("roll",))
        duration = self._duration(spec, path)
        by = cx.expr(spec["by"], path + ("by",)) if "by" in spec else None

        def roll(g, env):
            ds = dice_in(dice(env), path)
            if duration is not None:
                g.advance(duration(env))
            if g.forced:
                raised_at_roll(g, path)
            faces = g.chance.roll(ds)
            for d, f in zip(ds, faces, strict=True):
                d.face = f
            g.rolls += 1
            if g.logging:
                record_roll(g, ds, faces, by, env)
            g.fire("rolled", {"dice": ds})
            g.after_op(_FACE)
        return roll

    def _draw(self, spec, path, name) -> Step:
        source = cx.expr(spec["draw"], path + ("draw",))
        binder = spec["as"]
        count = cx.expr(spec["count"], path + ("count",)) if "count" in spec else None
        dest = cx.expr(spec["to"], path + ("to",)) if "to" in spec else None
        replace = bool(spec.get("replace"))
        duration = self._duration(spec, path)
        by = cx.expr(spec["by"], path + ("by",)) if "by" in spec else None

        def draw(g, env):
            zone = _zone(source(env), path + ("draw",))
            k = _how_many(count(env), path) if count is not None else 1
            if duration is not None:
                g.advance(duration(env))
            blind = zone.kind not in ("deck", "row")
            items = g.chance.pick(zone.items, k) if blind else zone.items[:k]
            unseen = g.unseen(items) if g.logging else set()  # from a face-down deck, a bag
            if not replace:
                for it in items:
                    zone.items.remove(it)
                    it.zone = ""
                if dest is not None:
                    g.put(items, dest(env), path + ("to",))
            env[binder] = items if count is not None else (items[0] if items else None)
            if g.logging:
                # Who drew, when the rules name them (else the narration works it out).
                named = {"by": named_doer(by, env)} if by is not None else {}
                g.record_items("draw", items, unseen, source=zone.id,
                               items=[x.id for x in items], blind=blind, **named)
            g.fire("drawn", {"items": items, "zone": zone})
            g.after_op()
        return draw

    def _move(self, spec, path, name) -> Step:
        items = cx.expr(spec["move"], path + ("move",))
        dest = cx.expr(spec["to"], path + ("to",))
        at_start = spec.get("at") == "start"

        def move(g, env):
            what = items(env)
            if isinstance(what, Zone):
                what = list(what.items)  # a zone moves by its items, in order: never itself
            else:
                what = list(what) if isinstance(what, (list, tuple)) else [what]
                for it in what:
                    if type(it) is not Die and type(it) is not Card:  # never a zone
                        shown = f"the zone {it.id}" if type(it) is Zone else show(it)
                        raise not_movable(shown, path + ("move",))
                if len({id(it) for it in what}) != len(what):
                    # One die cannot lie in a zone twice: a list naming it twice is a rule's slip.
                    twice = next(it for i, it in enumerate(what) if any(it is x for x in what[:i]))
                    raise moved_twice(twice.id, path + ("move",))
            target = dest(env)
            unseen = g.unseen(what) if g.logging else set()
            g.put(what, target, path + ("to",), at_start)
            g.record_items("move", what, unseen, items=[x.id for x in what],
                           to=getattr(target, "id", target))
            g.fire("moved", {"items": what, "to": target})
            g.after_op()
        return move

    def _shuffle(self, spec, path, name) -> Step:
        source = cx.expr(spec["shuffle"], path + ("shuffle",))

        def shuffle(g, env):
            zone = _zone(source(env), path + ("shuffle",))
            zone.items[:] = g.chance.order(zone.items)
            g.record("shuffle", zone=zone.id, order=[x.id for x in zone.items])
            g.after_op()
        return shuffle

    def _deal(self, spec, path, name) -> Step:
        source = cx.expr(spec["deal"], path + ("deal",))
        dest = cx.expr(spec["to"], path + ("to",))
        count = cx.expr(spec["count"], path + ("count",)) if "count" in spec else None

        def deal(g, env):
            zone = _zone(source(env), path + ("deal",))
            k = _how_many(count(env), path) if count is not None else 1
            items = zone.items[:k]
            unseen = g.unseen(items) if g.logging else set()  # dealt face down
            del zone.items[:k]
            g.put(items, dest(env), path + ("to",))
            g.record_items("deal", items, unseen, source=zone.id, items=[x.id for x in items])
            g.after_op()
        return deal

    def _reveal(self, spec, path, name) -> Step:
        items = cx.expr(spec["reveal"], path + ("reveal",))
        to = cx.expr(spec["to"], path + ("to",)) if "to" in spec else None

        def reveal(g, env):
            value = items(env)
            # Without `to`, everyone sees it: public narration.
            who = to(env) if to is not None else None
            if g.logging:  # its words are for people: a game without a log needs none
                g.narrate(revealed(g, value), who)
            g.after_op()
        return reveal

    # -- flow ----------------------------------------------------------------------------------
    def _if(self, spec, path, name) -> Step:
        test = cx.cond(spec["if"], path + ("if",))
        then = self.block(spec.get("then"), path + ("then",))
        other = self.block(spec.get("else"), path + ("else",))

        def if_(g, env):
            if test(env):
                then(g, env)
            else:
                other(g, env)
        return if_

    def _repeat(self, spec, path, name) -> Step:
        body = self.block(spec["repeat"], path + ("repeat",))
        times = cx.expr(spec["times"], path + ("times",)) if "times" in spec else None
        while_ = cx.cond(spec["while"], path + ("while",)) if "while" in spec else None
        until = cx.cond(spec["until"], path + ("until",)) if "until" in spec else None
        most = cx.expr(spec["max"], path + ("max",)) if "max" in spec else None
        where = path + ("repeat",)

        def repeat(g, env):
            n_times = counted_passes(times(env), "times", path + ("times",)) \
                if times is not None else None
            cap = counted_passes(most(env), "max", path + ("max",)) if most is not None else None
            passes = 0
            try:
                while True:
                    if n_times is not None and passes >= n_times:
                        return
                    if while_ is not None and not while_(env):
                        return
                    passes += 1
                    past = past_passes(passes, cap, g.limits["max_loop"], "this repeat", where,
                                       where)
                    if past is not None:
                        raise past
                    body(g, env)
                    if until is not None and until(env):
                        return
            except Break:
                return
        return repeat

    def _for_each(self, spec, path, name) -> Step:
        binder = spec["for_each"]
        items = cx.expr(spec["in"], path + ("in",))
        body = self.block(spec.get("do"), path + ("do",))

        def for_each(g, env):
            xs = items(env)
            if isinstance(xs, Zone):
                xs = xs.items
            scope = Env((), env)
            try:
                for x in list(xs):
                    scope[binder] = x
                    body(g, scope)
            except Break:
                return
        return for_each

    def _call(self, spec, path, name) -> Step:
        proc = spec["call"]
        args = [(k, cx.expr(v, path + ("with", k)), path + ("with", k))
                for k, v in (spec.get("with") or {}).items()]
        procedures = self.procedures

        def call(g, env):
            scope = Env({k: copied(f(env), where) for k, f, where in args}, g.env)
            g.enter_call(proc, path)
            try:
                procedures[proc](g, scope)
            finally:
                g.depth -= 1
        return call

    def _emit(self, spec, path, name) -> Step:
        event = spec["emit"]
        fields = [(k, cx.expr(v, path + ("with", k))) for k, v in (spec.get("with") or {}).items()]

        def emit(g, env):
            g.fire(event, {k: f(env) for k, f in fields})
        return emit

    def _break(self, spec, path, name) -> Step:
        def break_(g, env):
            raise Break().at(path)
        return break_

    def _end_turn(self, spec, path, name) -> Step:
        def end_turn(g, env):
            raise EndTurn().at(path)
        return end_turn

    def _end_phase(self, spec, path, name) -> Step:
        def end_phase(g, env):
            raise EndPhase().at(path)
        return end_phase

    def _goto(self, spec, path, name) -> Step:
        phase = spec["goto"]

        def goto(g, env):
            raise Goto(phase).at(path)
        return goto

    def _end_game(self, spec, path, name) -> Step:
        body = spec.get("end_game") if isinstance(spec.get("end_game"), dict) else spec
        winners = cx.expr(body["winners"], path + ("winners",)) if "winners" in body else None
        reason = cx.template(body["reason"], path + ("reason",)) if "reason" in body else None

        def end_game(g, env):
            said = reason(env) if reason else "the rules ended the game"
            won = winners(env) if winners is not None else None
            if won is not None and (not isinstance(won, list)
                                    or any(type(p) is not Player for p in won)):
                # A list of players only (none among them, say, stops the game here).
                bad = next(p for p in won if type(p) is not Player) \
                    if isinstance(won, list) else won
                raise bad_winners(told(bad), path)
            raise EndGame(said, won)
        return end_game

    # -- time and narration --------------------------------------------------------------------
    def _start_timer(self, spec, path, name) -> Step:
        timer = spec["start_timer"]
        seconds = cx.expr(spec["seconds"], path + ("seconds",))

        def start_timer(g, env):
            g.start_timer(timer, seconds(env))
            g.after_op()
        return start_timer

    def _stop_timer(self, spec, path, name) -> Step:
        timer = spec["stop_timer"]

        def stop_timer(g, env):
            g.stop_timer(timer)
            g.after_op()
        return stop_timer

    def _wait(self, spec, path, name) -> Step:
        seconds = cx.seconds(spec["wait"], path + ("wait",))

        def wait(g, env):
            g.advance(seconds(env))
            g.after_op()
        return wait

    def _say(self, spec, path, name) -> Step:
        text = cx.template(spec["say"], path + ("say",))
        to = cx.expr(spec["to"], path + ("to",)) if "to" in spec else None

        def say(g, env):
            if g.narrating:
                g.narrate(text(env), to(env) if to is not None else None)
        return say


def _how_many(k: Any, path: tuple) -> int:
    """A draw's or a deal's count: a whole number of 0 or more (a slice would read -1 as
    "all but the last")."""
    if type(k) is not int or k < 0:
        raise bad_count(show(k), path + ("count",))
    return k


_FACE = frozenset({"face"})
_ELIMINATED = frozenset({"eliminated"})


def _writes(targets: dict) -> frozenset | None:
    """What a set/add writes (None: cannot tell, so checks are always re-examined)."""
    names = [target_writes(t) for t in targets]
    return None if None in names else frozenset(names)


def _zone(value: Any, path: tuple) -> Zone:
    if isinstance(value, Zone):
        return value
    raise RuleError("runtime-error", f"expected a zone, not {value!r}", path)


def _who(x: Any) -> Any:
    return x.name if isinstance(x, Player) else x
