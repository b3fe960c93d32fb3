"""Phase 5b, compile for simulation (effects): steps and triggers as Python statements.

Input: a ruleset's steps (checked effect dicts), the depth to write them at and a `_Ctx`
(scope, loop nesting, whether `end_turn` may be a flag). Output: lines appended to the writer's
source: `set`, `add`, `say`, `if`, `repeat`, `for_each`, `call`, `emit`, `roll`, and the
triggers an event fires (timers, waits and the modelled clock are interpreter/compile/clock.py).
A mixin of the specializer's writer (interpreter/compile/specialize.py)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from dsl import nodes as n
from dsl.parser import parse_expression
from interpreter.compile.base import (
    _DOC_KEYS,
    _MAX_INLINE,
    _NO,
    _NONEABLE,
    _NUMS,
    ITEM_KINDS,
    SMALL_STEP,
    Ex,
    ItemSet,
    Unsupported,
    _Ctx,
    _lit,
    _node,
    made_new,
    stored,
)
from interpreter.compile.offsets import number
from interpreter.compile.stops import calls_site, loose_break_site, raise_at, triggers_site
from interpreter.compile.written_seats import seats_written
from interpreter.engine.step_runtime import step_name

_PLAIN = re.compile(r"[A-Za-z_]\w*(?:\[\w+\])?")  # a list read plainly: the same dice again

class EffectWriter:
    """Writes steps; `self` is the specializer's writer."""

    # -- steps -----------------------------------------------------------------------------------
    def block(self, steps: list | None, d: int, ctx: _Ctx) -> None:
        start = len(self.lines)
        if any(isinstance(s, dict) and ("let" in s or "draw" in s) for s in steps or []):
            # As a scoped block: `let` and `draw ... as` bind for the rest of this list only.
            ctx = ctx.inside(dict(ctx.scope))
        base = self.paths.get(id(steps))
        outer = self.step_path  # the step around this list, once its steps are written
        for i, step in enumerate(steps or []):
            self.step_path = (*base, i) if base is not None else None
            try:
                self.step(step, d, ctx)
            except Unsupported as u:
                if u.path is None and base is not None:
                    u.path = (*base, i)  # the innermost step list that holds it
                raise
        self.step_path = outer
        if len(self.lines) == start:
            self.emit(d, "pass")

    def step(self, step: Any, d: int, ctx: _Ctx) -> None:
        name = step_name(step)
        spec = {} if isinstance(step, str) else step
        method = getattr(self, "_s_" + name, None)
        if method is None:
            raise Unsupported(f"effect {name}")
        method(spec, d, ctx)

    def _target(self, text: str, ctx: _Ctx, read: bool = False) -> tuple[str, str, str]:
        """(python target, kind, name written) of a set/add target (`read`: `add` reads it)."""
        node = parse_expression(text)
        at = self.target_at(text, read)
        if isinstance(node, n.Index):
            return self._team_index_target(node, ctx.scope, read, at)
        if isinstance(node, n.Name):
            var = self.vars.get(node.id)
            if var is None or var[0] == "player":
                raise Unsupported("target")
            kind = var[2] if var[2] != "list" else self.list_kinds.get(node.id) or "?"
            return var[1], kind, node.id
        if isinstance(node, n.Field):
            face = self._face_target(node, ctx, read, at)
            if face is not None:
                return face
            obj = self.target_owner(node, ctx, read, at)
            if obj.kind == "team":
                return self._team_target(obj, node.name)
            var = self.vars.get(node.name)
            if obj.kind != "player" or var is None or var[0] != "player" or var[2] == "list":
                raise Unsupported("target")
            return f"{var[1]}[{obj.src}]", var[2], node.name
        raise Unsupported("target")

    @staticmethod
    def _fits(var_kind: str, value_kind: str) -> bool:
        return var_kind == value_kind or (var_kind == "num" and value_kind == "int") or (
            var_kind in _NONEABLE and value_kind == "none") or (
            var_kind.startswith("list:") and value_kind == "list:?")

    def _only(self, spec: dict, *keys: str) -> None:
        extra = set(spec) - set(keys) - _DOC_KEYS
        if extra:
            raise Unsupported(f"fields {sorted(extra)}")

    def _s_set(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "set")
        pairs, texts = [], list(spec["set"])
        for text, value in spec["set"].items():
            target, kind, name = self._target(text, ctx)
            v = self.value_at(value, ctx.scope, "set", text)
            if not self._fits(kind, v.kind):
                raise Unsupported(f"set {text}: {v.kind} into {kind}")
            pairs.append((target, v, name))
        if len(pairs) == 1 and not (isinstance(pairs[0][0], ItemSet) and pairs[0][0].site
                                    and pairs[0][1].const is _NO):
            self.emit(d, _assigned(pairs[0][0], self.sized(pairs[0][1], d)))
            self.changed(texts[0], pairs[0][0], pairs[0][1].kind, None, d, ctx)
        else:  # every value is read before any is written (an item's key: after its value)
            temps = [self.sized(v, d, self.temp()) for _, v, _ in pairs]
            for t, text, (target, v, _) in zip(temps, texts, pairs, strict=True):
                self.emit(d, _assigned(target, t))
                self.changed(text, target, v.kind, None, d, ctx)
        self.after_op(d, frozenset(name for _, _, name in pairs), ctx,
                      seats_written([t for t, _, _ in pairs]))

    def changed(self, text: str, target: str | ItemSet, kind: str, old: str | None, d: int,
                ctx: _Ctx) -> None:
        """After a write of `set` or `add` (not to a list), as steps.py fires it when the
        rules have `changed` triggers: `event.name` the target as written, `event.value` what
        it now holds, `event.old` (an `add`'s; `old`: a local keeping it) what it held."""
        if "changed" not in self.p.triggers:
            return
        value = self.temp("cv")
        self.emit(d, f"{value} = {target.read if isinstance(target, ItemSet) else target}")
        fields = {"name": _lit(text), "value": Ex(value, kind, kind not in _NONEABLE),
                  # a `set` has no `old`: reading it is the interpreter's error ("no field")
                  "old": Ex(old, kind, True) if old is not None else Ex("_halt()", kind)}
        self.fire("changed", d, ctx, fields)

    def _s_add(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "add", "min", "max")
        pairs: list = []
        lists: list = []
        sums: list[str] = []
        for text, value in spec["add"].items():
            target, kind, name = self._target(text, ctx, read=True)
            v = self.value_at(value, ctx.scope, "add", text)
            if kind == "?" and self.list_kinds.get(name, "") is None and v.kind != "list:?" \
                    and v.kind.split(":")[-1] in ITEM_KINDS:
                # A list whose items nothing earlier told: what is added to it tells (no code
                # written so far read it, or generating would have stopped there).
                kind = v.kind if v.kind.startswith("list:") else "list:" + v.kind
                self.list_kinds[name] = kind
            if kind.startswith("list:") and v.kind in (kind, kind[5:]) and not (
                    "min" in spec or "max" in spec):
                lists.append(v.kind == kind)  # a list adds its items, anything else itself
            elif kind not in _NUMS or not self._fits(kind, v.kind):
                raise Unsupported(f"add {text}")
            pairs.append((target, v, name))
            sums.append("num" if "num" in (kind, v.kind) else kind)  # what the sum holds
        if lists:
            self._add_to_lists(pairs, lists, d, ctx, list(spec["add"]))
            return
        low = self.value_at(spec["min"], ctx.scope, "min") if "min" in spec else None
        high = self.value_at(spec["max"], ctx.scope, "max") if "max" in spec else None
        for b in (low, high):
            if b is not None and not all(self._fits(self._target(t, ctx, True)[1], b.kind)
                                         for t in spec["add"]):
                raise Unsupported("add bounds")
        # Where the step is located (the checked version, a logged game), the sum is
        # tested before it is bounded, as steps._add tests it.
        tested = self.wide or (self.logged and self.step_path is not None)
        one = pairs[0][1] if len(pairs) == 1 else None
        if one is not None and one.safe:
            temps = [one.src]  # one amount that cannot fail: read where it is added
        elif one is not None and one.raw is not None and not tested and ":=" not in one.src:
            temps = [number(one)]  # faces as indexes, read where added (raises untested)
        else:
            temps = [self.temp() for _ in pairs]
            for t, (_, v, _) in zip(temps, pairs, strict=True):  # amounts first, as the closure
                # (a none added raises untested too: a face kept as its index is not tested)
                self.emit(d, f"{t} = {v.src if tested else number(v)}")
        for t, text, (target, v, _), held in zip(temps, list(spec["add"]), pairs, sums,
                                                 strict=True):
            now = target.read if isinstance(target, ItemSet) else target
            old = None
            if "changed" in self.p.triggers:  # what it held, for `event.old`
                old = self.temp("co")
                self.emit(d, f"{old} = {now}")
            if low is None and high is None and not isinstance(target, ItemSet) and \
                    not tested:
                self.emit(d, f"{target} += {t}")
            else:
                expr = f"_added({now}, {t}{self.sum_site(text)})" if tested else f"{now} + {t}"
                if low is not None:
                    expr = f"max({low.src}, {expr})"
                if high is not None:
                    expr = f"min({high.src}, {expr})"
                self.emit(d, _assigned(target, expr))
            # A small amount (a die's face, a constant) moves the sum by little per step:
            # the checks at the writes that can jump (sets, large adds) keep it in range.
            if not self.wide and (low is None or high is None) and (
                    v.bound is None or v.bound > SMALL_STEP):
                self.past_safe(now, d)
            self.changed(text, target, held, old, d, ctx)
        self.after_op(d, frozenset(name for _, _, name in pairs), ctx,
                      seats_written([t for t, _, _ in pairs]))

    def _add_to_lists(self, pairs: list, lists: list, d: int, ctx: _Ctx, texts: list) -> None:
        """`add` to list state, as steps._add: every amount first, then each list a new list
        with the items at its end, within the size limit (past it, a stop at `texts`)."""
        if len(lists) != len(pairs):
            raise Unsupported("add to lists and numbers at once")
        temps = [self.temp() for _ in pairs]
        for t, (_, v, _) in zip(temps, pairs, strict=True):
            self.emit(d, f"{t} = {v.src}")
        for t, (target, v, _), whole, text in zip(temps, pairs, lists, texts, strict=True):
            added = (t if made_new(v.src) else f"list({t})") if whole else f"[{t}]"
            self.emit(d, f"{target} = " + self.kept_list(f"{target} + {added}", self.step_site("add", text)))
        self.after_op(d, frozenset(name for _, _, name in pairs), ctx)

    def _s_say(self, spec: dict, d: int, ctx: _Ctx) -> None:
        # Narration is off in simulation: nothing is evaluated. A logged game says it (steps
        # ._say: no step counted).
        if not self.logged:
            return
        self._only(spec, "say", "to")
        self.rec(d, "say", ("text", self.text_of(spec["say"], ctx.scope, "say")),
                 *self.to_whom(spec, ctx))

    def _s_if(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "if", "then", "else")
        c = self.cond_at(spec["if"], ctx.scope, "if")
        if c.const is True:
            self.block(spec.get("then"), d, ctx)
        elif c.const is False:
            self.block(spec.get("else"), d, ctx)
        else:
            self.emit(d, f"if {c.src}:")
            self.block(spec.get("then"), d + 1, ctx)
            if spec.get("else"):
                self.emit(d, "else:")
                self.block(spec["else"], d + 1, ctx)

    def _s_repeat(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "repeat", "times", "while", "until", "max")
        sc = ctx.scope
        times = self.value_at(spec["times"], sc, "times") if "times" in spec else None
        while_ = self.cond_at(spec["while"], sc, "while") if "while" in spec else None
        until = self.cond_at(spec["until"], sc, "until") if "until" in spec else None
        most = self.value_at(spec["max"], sc, "max") if "max" in spec else None
        step = self.step_path
        if step is not None:  # none stops the game at `times` or `max` (stops.py)
            times, most = (self.passes_of(times, (*step, "times"), "times"),
                           self.passes_of(most, (*step, "max"), "max"))
        for x in (times, most):
            if x is not None and x.kind != "int":
                raise Unsupported("repeat count")
        exits = self.flag_exits
        nt, cap, passes = self.temp("n"), self.temp("cap"), self.temp("p")
        d2 = _loop_head(self.emit, d, (nt, cap, passes), times and times.src,
                       most and most.src, while_ and while_.src)
        # Past `max`, `limits.max_loop` or the step budget the interpreter stops with an
        # error, located at the loop (`loop_stop`). (A counter, not `for _ in range(...)`:
        # a loop of a few passes, entered often, pays more for making the range; where the
        # guard is the limit alone, interpreter/compile/counted.py makes it a `for` over a
        # range made once.)
        limit = f"{passes} > {self.max_loop}" + (f" or {passes} > {cap}" if most else "")
        guard = len(self.lines)
        self.emit(d2, f"if {limit} or steps > {self.max_steps}:")
        self.emit(d2 + 1, self.loop_stop("this repeat", "repeat", passes, cap if most else None))
        self.block(spec["repeat"], d2, ctx.inside(in_loop=True))
        if until:
            self.emit(d2, f"if {until.src}:")
            self.emit(d2 + 1, "break")
        self.after_loop(guard, d, limit, exits, ctx.flag_exit)

    def after_loop(self, guard: int, d: int, limit: str, exits: int, in_turn: bool) -> None:
        """What follows a loop written at depth `d` whose guard (`if LIMIT or steps > ...:`
        and its `raise`) is at `self.lines[guard]`; `in_turn` when it is in a turn's steps.

        A loop with no loop inside it adds at most `max_loop` passes of its body to the step
        count, so it tests the step budget once when it ends, not on every pass (where it
        passed, the fast version sends the seed to its checked version, which tests every
        step and stops at the exact one); in a turn's steps not even then: the next turn's
        head tests it, or the next pass of the phase, or the game's end, and what runs
        before them is bounded as the loop is. (A loop over a stretch's events, at most one
        a timer or hazard, is no loop here: its events' triggers are bounded as the rest of
        the body is.) A loop whose body ended the turn by flag passes the flag on."""
        if not any(line.lstrip().startswith(("while ", "for ")) and line not in self.few
                   for line in self.lines[guard + 2:]):
            head = self.lines[guard]
            self.lines[guard] = head[:len(head) - len(head.lstrip())] + f"if {limit}:"
            if not in_turn:
                self.emit(d, f"if steps > {self.max_steps}:")
                self.emit(d + 1, "raise _Stop()")
        if self.flag_exits != exits:
            self.emit(d, "if _et:")
            self.emit(d + 1, "break")

    def _s_break(self, spec: dict, d: int, ctx: _Ctx) -> None:
        if not ctx.in_loop:
            if ctx.depth == 0 and not ctx.base:
                raise Unsupported("break outside a loop written here")
            # Only a procedure's `break` can run loose (the checker refuses the rest), where
            # the interpreter stops with its located error.
            self.emit(d, self.stop_at(loose_break_site))
            return
        self.emit(d, "break")

    def _s_end_turn(self, spec: dict, d: int, ctx: _Ctx) -> None:
        if ctx.flag_exit:
            self.flag_exits += 1
            self.emit(d, "_et = True")
            self.emit(d, "break")
        else:
            self.emit(d, self.leaving("_EndTurn", "end_turn"))

    def _s_call(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "call", "with")
        depth = ctx.depth + 1
        past = ctx.deeper_than(depth, self.max_chain * 4)
        if ctx.inline >= _MAX_INLINE and past != "True":
            raise Unsupported("procedures nest too deeply to write out")
        scope = {}
        for k, v in (spec.get("with") or {}).items():
            e = self.value_at(v, ctx.scope, "with", k)
            if e.src and e.const is _NO and e.kind not in ("die", "dice", "timer"):
                t = self.temp("a")
                self.emit(d, f"{t} = {stored(e)}")  # a value, as in set
                # Held in a local: reading it cannot raise, but a player may be none.
                e = Ex(t, e.kind, e.safe or e.some or e.kind not in _NONEABLE, items=None,
                       bound=e.bound, zone=e.zone)
            scope[k] = e
        # Past the nesting limit, the interpreter's error, once the arguments are worked out.
        if past:
            stop = self.stop_at(lambda step: calls_site(self.max_chain, spec["call"], step))
            if past == "True":
                self.emit(d, stop)
                return
            self.emit(d, f"if {past}:")
            self.emit(d + 1, stop)
        # A procedure sees the game's names and its arguments, not the caller's bindings.
        # Its `break` leaves the loop around the call, as the interpreter's Break signal does
        # (written out here, the call's loop is the innermost Python loop).
        self.block(self.p.data["procedures"][spec["call"]].get("do"), d,
                   ctx.inside(scope, depth=depth, in_loop=ctx.in_loop, inline=ctx.inline + 1))

    def _s_for_each(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._for_each: the body once per item of the list as it was at the start
        (lists are never changed in place here, so the list itself is that snapshot)."""
        self._only(spec, "for_each", "in", "do")
        items = self.value_at(spec["in"], ctx.scope, "in")
        snapshot = items.kind == "zone"  # a zone changes in place: its items at the start
        items = self._as_list(items)
        if not items.kind.startswith("list:") or items.kind == "list:?":
            raise Unsupported("for_each over something not a list")
        v = self.temp("fe")
        self.emit(d, f"for {v} in {'list(' + items.src + ')' if snapshot else items.src}:")
        item = items.kind[5:]  # a die of a list that may hold none may be none
        scope = {**ctx.scope, spec["for_each"]: Ex(v, item, items.safe or item != "dref")}
        exits = self.flag_exits
        self.block(spec.get("do"), d + 1, ctx.inside(scope, in_loop=True))
        if self.flag_exits != exits:
            self.emit(d, "if _et:")
            self.emit(d + 1, "break")

    def _in_options(self, a: Ex, b: Ex, negate: bool) -> Ex:
        """`x in options` in a policy: whether x is the value of a legal option."""
        mode, legal, values = b.opts
        if mode == "values":
            if a.kind != values:
                raise Unsupported("in options")
            return Ex(f"({a.src} {'not in' if negate else 'in'} {legal})", "bool", a.safe)
        if a.kind != "str" or a.const is _NO:
            raise Unsupported("in options")
        if a.const not in values:
            return _lit(negate)
        i = values.index(a.const)
        if mode == "static":
            return _lit((i in legal) != negate)
        flag = self.flags.get(legal)
        if flag is not None and flag[i] in ("True", "False"):
            return _lit((flag[i] == "True") != negate)
        if flag is not None:
            return Ex(f"(not {flag[i]})" if negate else flag[i], "bool", True)
        return Ex(f"({i} {'not in' if negate else 'in'} {legal})", "bool", True)

    def _s_emit(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._emit: the fields given `with` worked out in their order, then the
        event's triggers, which read them as `event.NAME`."""
        self._only(spec, "emit", "with")
        fields = {}
        for k, v in (spec.get("with") or {}).items():
            x = self.value_at(v, ctx.scope, "with", k)
            if x.kind in ("die", "dice", "timer", "zone", "event"):
                raise Unsupported("an event field of this kind")
            if x.const is _NO:
                t = self.temp("ef")
                self.emit(d, f"{t} = {x.src}")
                x = Ex(t, x.kind, x.safe or x.kind not in _NONEABLE, bound=x.bound)
            fields[k] = x
        self.fire(spec["emit"], d, ctx, fields)

    def _s_roll(self, spec: dict, d: int, ctx: _Ctx) -> None:
        # `by` names the roller in the log and the narration only: bots' games keep no log.
        self._only(spec, "roll", "duration", "by")
        dice = self.rolled(spec["roll"], ctx)
        if dice.kind in ("dref", "list:dref"):
            dice = self.dice_rolled(dice, d)  # none stops the game (stops.py)
            if "duration" in spec or self.logged or (
                    self.reads_event("rolled") and not _PLAIN.fullmatch(dice.src)):
                # As steps._roll: the dice named before the time passes, worked out once
                # (`rolled` gets them: a list that reads faces would read the new ones).
                t = self.temp("rd")
                self.emit(d, f"{t} = {dice.src}" if dice.kind == "dref"
                          else f"{t} = list({dice.src})")
                dice = Ex(t, dice.kind, dice.safe)
                if "duration" in spec:
                    self.advance_by(spec["duration"], d, ctx, "duration")
            self.raised_at_roll(d, ctx)  # interpreter/compile/raised.py
            drawn = self._roll_dyn(dice, d, ctx)
            if self.logged:  # as step_runtime.record_roll: a die's roller is its zone's owner
                listed = f"[{dice.src}]" if dice.kind == "dref" else dice.src
                mine = f"({self.names_of()}[cur] if itn else None)"
                rollers = (f"[{self.named_doer(spec['by'], d, ctx)}] * len({listed})"
                           if "by" in spec else
                           f"[ZO.get(id(W[_i]), {mine}) for _i in {listed}]")
                self.rec_items(d, "roll", listed, None,
                               ("dice", f"[{self.item_ids()}[_i] for _i in {listed}]"),
                               ("faces", drawn), ("by", rollers))
            self.emit(d, "rolls += 1")
            fields = None
            if self.reads_event("rolled"):  # the dice as rolled, whatever moves them after
                t = self.temp("rl")
                self.emit(d, f"{t} = {f'[{dice.src}]' if dice.kind == 'dref' else f'list({dice.src})'}")
                fields = {"dice": Ex(t, "list:dref", True)}
            self.fire("rolled", d, ctx, fields)
            self.after_op(d, frozenset({"face"}), ctx)
            return
        if dice.kind not in ("die", "dice"):
            raise Unsupported("roll of something not dice known now")
        if "duration" in spec:
            self.advance_by(spec["duration"], d, ctx, "duration")
        # As SeededChance.roll: one draw per die, in order (a logged game asks its chance
        # source: seeded, or a dice file's faces).
        drawn = None  # a logged game's faces as drawn: a die rolled twice keeps the last
        if self.logged:
            self.raised_at_roll(d, ctx)
            drawn = self.temp("fd")
            self.table_roll(f"{drawn} = _CS.roll({[die.id for die in dice.dice]!r})", d, ctx)
            self.emit(d, f"{', '.join(die.var for die in dice.dice)}, = {drawn}")
        for die in dice.dice if not self.logged else ():
            sides = len(die.faces)
            first = die.faces[0]
            if type(first) is int and die.faces == tuple(range(first, first + sides)):
                # The face, or its index where the die keeps it (base.py `_Die.off`).
                self.emit(d, f"{die.var} = int(rnd() * {sides})"
                             + (f" + {first - die.off}" if first != die.off else ""))
            else:
                self.emit(d, f"{die.var} = {self.const(die.faces, 'FA')}[int(rnd() * {sides})]")
        if self.logged:  # as step_runtime.record_roll, for dice in no zone
            roller = (self.named_doer(spec["by"], d, ctx) if "by" in spec
                      else f"({self.names_of()}[cur] if itn else None)")
            self.rec(d, "roll", ("dice", repr([die.id for die in dice.dice])), ("faces", drawn),
                     ("by", f"[{roller}] * {len(dice.dice)}"))
        self.emit(d, "rolls += 1")
        self.fire("rolled", d, ctx, {"dice": Ex("", "dice", True, dice=dice.dice)})
        self.after_op(d, frozenset({"face"}), ctx)

    # -- triggers --------------------------------------------------------------------------------
    def reads_event(self, event: str) -> bool:
        """Whether a trigger on `event` names `event` (its fields are worked out only then)."""
        return any("event" in str(self.data["triggers"][t.name])
                   for t in self.p.triggers.get(event) or ())

    def fire(self, event: str, d: int, ctx: _Ctx, fields: dict[str, Ex] | None = None) -> None:
        """As Game.fire: triggers in priority order, one per group; each body inline. Its
        conditions and bodies read `fields` as `event.NAME` (an event without: none)."""
        trigs = self.p.triggers.get(event)
        if not trigs:
            return
        scope = {"event": Ex("", "event", True, const=dict(fields or {}))}
        depth = ctx.depth + 1
        past = ctx.deeper_than(depth, self.max_chain)
        if past:  # the interpreter's chain-depth error
            stop = raise_at(self.const, triggers_site(self.max_chain, event, trigs[0].name))
            if past == "True":
                self.emit(d, stop)
                return
            self.emit(d, f"if {past}:")
            self.emit(d + 1, stop)
        if ctx.inline >= _MAX_INLINE:
            raise Unsupported("triggers nest too deeply to write out")
        seen: set[str] = set()
        runs: list[list] = []  # consecutive triggers of one group (alone: a run of one)
        for trig in trigs:
            g = trig.group
            if g is not None and runs and runs[-1][0].group == g:
                runs[-1].append(trig)
                continue
            if g is not None and g in seen:
                raise Unsupported("a group whose triggers are not consecutive")
            if g is not None:
                seen.add(g)
            runs.append([trig])
        for run in runs:
            members = []
            for trig in run:
                spec = self.data["triggers"][trig.name]
                at = ("triggers", trig.name, "if") if isinstance(spec.get("if"), str) else None
                with self.located(at):
                    parts = self._conjuncts(spec["if"], scope) if "if" in spec else []
                    if parts is None or any(p.const is False for p in parts):
                        c = self.cond(spec["if"], scope)
                        if c.const is False:
                            continue  # never fires with these parameters
                        parts = [c]
                members.append((trig, spec, [p for p in parts if p.const is not True]))
            # Within a group the first whose condition holds fires: an if/elif chain. The
            # conditions' common first terms (`diving and remaining(dive) > 0 and ...` in
            # each) are tested once, around the chain: conditions are pure, so this is the
            # same test in the same order.
            shared = _shared_prefix([parts for _, _, parts in members]) if len(members) > 1 else 0
            at = d
            if shared:
                self.emit(d, f"if {_joined(members[0][2][:shared])}:")
                at = d + 1
            for m, (trig, spec, parts) in enumerate(members):
                k = self.trig_index.setdefault(trig.order, len(self.fired))
                if k == len(self.fired):
                    self.fired.append(trig.name)
                rest = parts[shared:]
                self.emit(at, "else:" if m and not rest and m == len(members) - 1 else
                          f"{'elif' if m else 'if'} {_joined(rest)}:")
                self.emit(at + 1, f"fi{k} += 1")
                self.rec(at + 1, "trigger", ("trigger", repr(trig.name)), ("event", repr(event)))
                self.block(spec.get("do"), at + 1,
                           ctx.inside(dict(scope), depth=depth, in_loop=False,
                                      inline=ctx.inline + 1))

    def _conjuncts(self, value: Any, scope: dict[str, Ex]) -> list[Ex] | None:
        """A condition's terms joined by `and`, each written on its own (None when one is
        not a test of true or false: the whole condition is then written as one)."""
        terms: list[n.Node] = []

        def flat(x: n.Node) -> None:
            if isinstance(x, n.Binary) and x.op == "and":
                flat(x.left)
                flat(x.right)
            else:
                terms.append(x)
        flat(_node(value))
        parts = []
        for t in terms:
            parts.append(self.expr(t, scope))
            if parts[-1].const is False:
                break  # the terms after it are never tested (nor written)
        return parts if all(p.kind == "bool" for p in parts) else None


def _assigned(target: str | ItemSet, value: str) -> str:
    """The statement that stores `value` at a `set` target."""
    return target.assign(value) if isinstance(target, ItemSet) else f"{target} = {value}"


def _joined(parts: list[Ex]) -> str:
    """Terms tested one after another, as `and` tests them ("True" for none)."""
    return " and ".join(f"({p.src})" for p in parts) if parts else "True"


def _shared_prefix(lists: list[list[Ex]]) -> int:
    """How many first terms every condition of a chain has in common (as written)."""
    k = 0
    while all(len(x) > k for x in lists) and len({x[k].src for x in lists}) == 1:
        k += 1
    return k


def _loop_head(emit: Callable[[int, str], None], d: int, names: tuple[str, str, str],
              times: str | None, most: str | None, while_: str | None) -> int:
    """The head of a generated `repeat`: the count and the cap evaluated once, then each pass
    stops at `times` or when `while` no longer holds, and counts itself; the body's depth."""
    nt, cap, passes = names
    if times:
        emit(d, f"{nt} = {times}")
    if most:
        emit(d, f"{cap} = {most}")
    emit(d, f"{passes} = 0")
    emit(d, "while True:")
    if times:
        emit(d + 1, f"if {passes} >= {nt}:")
        emit(d + 2, "break")
    if while_:
        emit(d + 1, f"if not {while_}:")
        emit(d + 2, "break")
    emit(d + 1, f"{passes} += 1")
    return d + 1
