"""Phase 5, compile (decision steps): `choose`, `actions` and `race` as closures.

Input: a decision step's checked fields (options given by names, a mapping or an expression,
`min`/`max`, `by`, `sealed`, `points`, `cost`, `limit`, `pass`; a race's racers, items,
model and the counts a referee's table reports). Output: step closures `f(game, env)` that
build the `Request`, ask `Game.decide` (or run the race), store the answer under the decision
id, fire `decided` and run the chosen option's steps. A mixin of `StepCompiler`
(interpreter/engine/steps.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dsl.compiler import Env
from interpreter.engine import compile_expr as cx
from interpreter.engine.counted import CountKind
from interpreter.engine.decisions import Option, Request, option_for_value
from interpreter.engine.race import RaceSpec, run_race
from interpreter.engine.signals import Break, asked_twice, no_decider
from interpreter.engine.step_runtime import count_use, label_later, within_limit
from interpreter.engine.values import Player, Zone, show

Step = Callable[[Any, Any], None]
Block = Callable[[Any, Any], None]
PASS_LABEL = "Pass (end the turn's actions)"  # how people see `actions`' pass, in logs too


def _deciders(who: Any, path: tuple, many: bool = True) -> Any:
    """Who a decision's `by` names: a player, or (`many`) a list of players each named once;
    anything else (none, a player listed twice) is the rules' error, located at `by`."""
    if type(who) is Player:
        return who
    if many and isinstance(who, (list, tuple)) and all(type(p) is Player for p in who):
        twice = [p.name for i, p in enumerate(who) if any(p is q for q in who[:i])]
        if not twice:
            return who
        raise asked_twice(twice[0], path + ("by",))
    raise no_decider(show(who), path + ("by",))


class DecisionSteps:
    """The decision steps (a mixin of StepCompiler)."""

    # -- decisions -----------------------------------------------------------------------------
    def _options(self, value: Any, path: tuple, label: Any = None) -> Callable:
        """Returns options(g, env) -> list of legal Options (without limits and costs);
        `label`, for options given by an expression, is how a person sees each."""
        if isinstance(value, list):
            opts = [Option(v, v, str(v)) for v in value]
            return lambda g, env: opts
        if isinstance(value, dict):
            compiled = []
            for oname, ospec in value.items():
                ospec = ospec if isinstance(ospec, dict) else {}
                opath = path + (oname,)
                compiled.append(_NamedOption(
                    oname,
                    cx.template(ospec["label"], opath + ("label",)) if "label" in ospec else None,
                    cx.cond(ospec["if"], opath + ("if",)) if "if" in ospec else None,
                    cx.expr(ospec["cost"], opath + ("cost",)) if "cost" in ospec else None,
                    _limit(ospec.get("limit"), opath + ("limit",)),
                    self.block(ospec.get("do"), opath + ("do",)),
                    cx.seconds(ospec["duration"], opath + ("duration",))
                    if "duration" in ospec else None))

            def named(g, env):
                out = []
                for o in compiled:
                    if o.cond is not None and o.cond(env) is not True:
                        continue
                    out.append(Option(o.name, o.name, o.name, o, label_later(o.label, env)))
                return out
            return named
        values = cx.expr(value, path)
        shown = cx.template(label, path[:-1] + ("option_label",)) if label is not None else None

        def computed(g, env):
            vs = values(env)
            if isinstance(vs, Zone):
                vs = vs.items
            if shown is None:
                return [option_for_value(v) for v in vs]
            # Labels are people's: rendered when read (as a prompt is), never for a bot.
            return [option_for_value(v, lambda v=v: shown(Env({"option": v}, env))) for v in vs]
        return computed

    def _choose(self, spec, path, name) -> Step:
        did = spec["choose"]
        options = self._options(spec["options"], path + ("options",),
                                spec.get("option_label")) if "options" in spec \
            else None
        low = cx.expr(spec["min"], path + ("min",)) if "min" in spec else None
        high = cx.expr(spec["max"], path + ("max",)) if "max" in spec else None
        by = cx.expr(spec["by"], path + ("by",)) if "by" in spec else None
        prompt = cx.template(spec["prompt"], path + ("prompt",)) if "prompt" in spec else None
        sealed = bool(spec.get("sealed"))
        duration = self._duration(spec, path)
        writes = frozenset({did})

        def ask(g, env, player):
            req = Request(did, player, path=path,
                          render=(lambda: prompt(env)) if prompt else None, sealed=sealed)
            if options is not None:
                req.options = [o for o in options(g, env) if within_limit(g, did, o, player)]
            else:
                req.low = low(env) if low is not None else 0
                req.high = high(env) if high is not None else 10 ** 9
            chosen = g.decide(req)
            return chosen

        def choose(g, env):
            if duration is not None:
                g.advance(duration(env))
            deciders = _deciders(by(env), path) if by is not None else g.current
            if isinstance(deciders, (list, tuple)):
                picks = {}
                for p in deciders:
                    picks[p] = ask(g, env, p)
                    if not sealed:
                        g.env[did] = {q: _value(c) for q, c in picks.items()}
                g.env[did] = {q: _value(c) for q, c in picks.items()}
                if sealed:
                    g.record("revealed", id=did,
                             choices={q.name: _key(c) for q, c in picks.items()})
                g.fire("decided", {"id": did, "choice": g.env[did]})
                g.after_op(writes)
                for p, c in picks.items():
                    if isinstance(c, Option) and c.spec is not None:
                        count_use(g, did, c, p)
                        c.spec.run(g, env)
                return
            chosen = ask(g, env, deciders)
            g.env[did] = _value(chosen)
            g.fire("decided", {"id": did, "choice": g.env[did], "by": deciders})
            g.after_op(writes)
            if isinstance(chosen, Option) and chosen.spec is not None:
                count_use(g, did, chosen, deciders)
                chosen.spec.run(g, env)
        return choose

    def _actions(self, spec, path, name) -> Step:
        did = spec["actions"]
        points = cx.expr(spec["points"], path + ("points",))
        by = cx.expr(spec["by"], path + ("by",)) if "by" in spec else None
        options = self._options(spec["options"], path + ("options",))
        allow_pass = spec.get("pass", True)
        prompt = cx.template(spec["prompt"], path + ("prompt",)) if "prompt" in spec else None
        pass_option = Option("pass", "pass", PASS_LABEL)
        writes = frozenset({did})
        max_loop_path = path + ("actions",)

        def actions(g, env):
            player = _deciders(by(env), path, many=False) if by is not None else g.current
            left = points(env)
            passes = 0
            try:
                while left > 0:
                    passes += 1
                    g.loop_budget(passes, max_loop_path)
                    legal = []
                    for o in options(g, env):
                        cost = o.spec.cost(env) if o.spec.cost is not None else 1
                        if cost <= left and within_limit(g, did, o, player):
                            legal.append(o)
                    if not legal:
                        break
                    if allow_pass:
                        legal.append(pass_option)
                    req = Request(did, player, legal, path=path, points=left,
                                  render=(lambda: prompt(env)) if prompt else None)
                    chosen = g.decide(req)
                    g.env[did] = chosen.value
                    g.fire("decided", {"id": did, "choice": chosen.value, "by": player})
                    g.after_op(writes)
                    if chosen is pass_option:
                        break
                    left -= chosen.spec.cost(env) if chosen.spec.cost is not None else 1
                    count_use(g, did, chosen, player)
                    chosen.spec.run(g, env)
            except Break:
                pass
        return actions

    def _race(self, spec, path, name) -> Step:
        def opt(field: str, cond: bool = False):
            if field not in spec:
                return None
            return (cx.cond if cond else cx.expr)(spec[field], path + (field,))
        race = RaceSpec(spec["race"], path, cx.expr(spec["by"], path + ("by",)),
                        cx.expr(spec["items"], path + ("items",)), opt("wanted", True),
                        opt("rate"), opt("latency"), opt("error_rate"), opt("capacity"),
                        opt("model_capacity"), _counts(spec.get("counts"), path + ("counts",)),
                        opt("counts_per"))

        def race_(g, env):
            run_race(g, race, env)
        return race_



class _NamedOption:
    """An option written as a mapping: its legality, cost, limit and steps."""

    __slots__ = ("name", "label", "cond", "cost", "limit", "run", "duration")

    def __init__(self, name, label, cond, cost, limit, run, duration):
        self.name = name
        self.label = label
        self.cond = cond
        self.cost = cost
        self.limit = limit
        self.duration = duration
        body = run
        if duration is not None:
            def run_timed(g, env):
                g.advance(duration(env))
                body(g, env)
            self.run = run_timed
        else:
            self.run = body


def _counts(spec: dict | None, path: tuple) -> list[CountKind] | None:
    """A race's `counts`: its kinds, in the order the table is asked for them."""
    if not spec:
        return None
    out = []
    for name, kind in spec.items():
        kind = kind or {}
        out.append(CountKind(
            name, str(kind.get("label", "")),
            cx.cond(kind["where"], path + (name, "where")) if "where" in kind else None,
            cx.expr(kind["face"], path + (name, "face")) if "face" in kind else None))
    return out


def _limit(spec: dict | None, path: tuple):
    if not spec:
        return None
    return cx.expr(spec.get("times", 1), path + ("times",)), spec.get("per", "game")


def _value(chosen):
    return chosen.value if isinstance(chosen, Option) else chosen


def _key(chosen):
    return chosen.key if isinstance(chosen, Option) else chosen
