"""Phase 5, compile (source, steps): a step list to one generated Python function.

Input: a step list from the checked document, its data path, and the `StepCompiler` that
builds the reference closures (interpreter/engine/steps.py). Output: `run(g, env)`, a function whose
body holds the common effects inline (set, add, if, repeat, roll, say, end_turn, break ...),
so a simulation pays one call per step list instead of one per step and per node.

What is inline does exactly what the closure does, in the same order: the same chance calls,
the same log records, the same triggers, the same budget counts; tests/test_codegen.py plays
every shipped ruleset both ways and compares the logs. Effects written here only in their
common form (a `set` of an indexed item, an `add` of several targets, `choose`, zones, time)
call their closure, so any step list can be generated. Where an inline `add` meets values it
does not handle, it hands the whole step to the closure before anything is written.

Two facts known when compiling make the generated code shorter than the closures' checks:
which events have triggers (an event nobody listens to is not fired at all) and which names
the checks and the end condition read (a write they do not read only counts a step).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dsl import nodes as n
from dsl.builtins import MAX_INT
from dsl.compiler import Env
from interpreter.engine import compile_expr as cx
from interpreter.engine.codegen import _dotted
from interpreter.engine.reads import target_writes
from interpreter.engine.signals import Break, EndPhase, EndTurn, RuleError
from interpreter.engine.step_runtime import (
    count_use,
    dice_in,
    label_later,
    raised_at_roll,
    record_roll,
    step_name,
    within_limit,
)
from interpreter.engine.values import CONTAINERS, copied

_NUM = (int, float)


class _Emitter:
    """Lines of one function body, and the objects the lines refer to by name."""

    def __init__(self, sc: Any):
        self.sc = sc
        self.lines: list[str] = []
        self.consts: dict[str, Any] = {}
        self.temps = 0

    def const(self, value: Any, hint: str = "k") -> str:
        name = f"_{hint}{len(self.consts)}"
        self.consts[name] = value
        return name

    def temp(self, hint: str = "v") -> str:
        self.temps += 1
        return f"{hint}{self.temps}"

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    # -- pieces ----------------------------------------------------------------------------------
    def after_op(self, depth: int, writes: frozenset | None) -> None:
        """As Game.after_op: count the step; examine checks and the end only when they read
        what was written."""
        watched = self.sc.watched
        w = self.const(writes, "w")
        if writes is not None and watched is not None and watched.isdisjoint(writes):
            self.emit(depth, f"if g.steps >= {self.sc.max_steps}:")
            self.emit(depth + 1, f"g.after_op({w})")  # raises the budget error
            self.emit(depth, "g.steps += 1")
        else:
            self.emit(depth, f"g.after_op({w})")

    def fire(self, depth: int, event: str, fields: str) -> None:
        if event in self.sc.events:
            self.emit(depth, f"g.fire({event!r}, {fields})")

    def block(self, steps: list | None, path: tuple, depth: int) -> None:
        """Steps inline at `depth`; a list with its own scope (`let`, `draw ... as`) is called."""
        if not steps:
            self.emit(depth, "pass")
            return
        if _scoped(steps):
            f = self.const(self.sc.block(steps, path), "b")
            self.emit(depth, f"{f}(g, env)")
            return
        for i, step in enumerate(steps):
            self.step(step, path + (i,), depth)

    def step(self, step: Any, path: tuple, depth: int) -> None:
        name = step_name(step)
        spec = {} if isinstance(step, str) else step
        method = getattr(self, "_" + name, None)
        if method is None or method(spec, path, depth) is False:
            f = self.const(self.sc.step(step, path), "s")
            self.emit(depth, f"{f}(g, env)")

    # -- effects ---------------------------------------------------------------------------------
    def _set(self, spec: dict, path: tuple, depth: int) -> bool | None:
        values = spec["set"]
        if len(values) != 1:
            return False
        (text, value), = values.items()
        node = cx.target_node(text)
        if not isinstance(node, (n.Name, n.Field)):
            return False
        p = path + ("set", text)
        v = self.temp()
        self.emit(depth, f"{v} = {self.const(cx.expr(value, p), 'e')}(env)")
        self.emit(depth, f"if type({v}) in _CONTAINERS:")  # a value, never shared
        self.emit(depth + 1, f"{v} = _copied({v}, {self.const(p, 'path')})")
        self._write(depth, node, p, v)
        if "changed" in self.sc.events:
            self.emit(depth, f"g.fire('changed', {{'name': {text!r}, 'value': {v}}})")
        self.after_op(depth, _writes([text]))
        return None

    def _write(self, depth: int, node: n.Node, path: tuple, v: str) -> None:
        if isinstance(node, n.Name):
            self.emit(depth, f"g.env[{self.sc.assignable(node.id, path)!r}] = {v}")
            return
        # Names reach the generated source only as quoted constants (repr), never as code.
        obj = self.const(cx.located(cx.compile_expression(node.obj), path), "e")
        self.consts["_put"] = cx.put_field
        self.emit(depth, f"_put({obj}(env), {node.name!r}, {v}, {self.const(path)})")

    def _add(self, spec: dict, path: tuple, depth: int) -> bool | None:
        pairs = spec["add"]
        if len(pairs) != 1:
            return False
        (text, value), = pairs.items()
        node = cx.target_node(text)
        if not isinstance(node, (n.Name, n.Field)):
            return False
        p = path + ("add", text)
        amount = self.const(cx.expr(value, p), "e")
        read = self.const(cx.located(cx.compile_expression(node), p), "e")
        a, old, v = self.temp("a"), self.temp("o"), self.temp()
        self.emit(depth, f"{a} = {amount}(env)")
        self.emit(depth, f"{old} = {read}(env)")
        # Within the size limit, else the closure (which reports it; nothing written yet).
        self.emit(depth, f"if type({old}) in _NUM and type({a}) in _NUM and "
                         f"-{MAX_INT} <= ({v} := {old} + {a}) <= {MAX_INT}:")
        d = depth + 1
        if "min" in spec:
            self.emit(d, f"{v} = max({self.const(cx.expr(spec['min'], path + ('min',)), 'e')}"
                         f"(env), {v})")
        if "max" in spec:
            self.emit(d, f"{v} = min({self.const(cx.expr(spec['max'], path + ('max',)), 'e')}"
                         f"(env), {v})")
        self._write(d, node, p, v)
        if "changed" in self.sc.events:
            self.emit(d, f"g.fire('changed', {{'name': {text!r}, 'value': {v}, 'old': {old}}})")
        self.after_op(d, _writes([text]))
        self.emit(depth, "else:")  # a list, or an error: the closure (nothing written yet)
        self.emit(d, f"{self.const(self.sc.step(spec, path), 's')}(g, env)")
        return None

    def _roll(self, spec: dict, path: tuple, depth: int) -> bool | None:
        dice = self.const(cx.expr(spec["roll"], path + ("roll",)), "e")
        self.consts["_dice"] = dice_in
        self.consts["_raised_at_roll"] = raised_at_roll
        where = self.const(path)
        ds, faces = self.temp("ds"), self.temp("f")
        self.emit(depth, f"{ds} = _dice({dice}(env), {where})")
        if "duration" in spec:
            dur = self.const(cx.expr(spec["duration"], path + ("duration",)), "e")
            self.emit(depth, f"g.advance({dur}(env))")
        self.emit(depth, "if g.forced:")
        self.emit(depth + 1, f"_raised_at_roll(g, {where})")
        self.emit(depth, f"{faces} = g.chance.roll({ds})")
        self.emit(depth, f"for d_, f_ in zip({ds}, {faces}, strict=True):")
        self.emit(depth + 1, "d_.face = f_")
        self.emit(depth, "g.rolls += 1")
        self.consts["_record_roll"] = record_roll
        by = self.const(cx.expr(spec["by"], path + ("by",)), "e") if "by" in spec else "None"
        self.emit(depth, "if g.logging:")
        self.emit(depth + 1, f"_record_roll(g, {ds}, {faces}, {by}, env)")
        self.fire(depth, "rolled", f"{{'dice': {ds}}}")
        self.after_op(depth, frozenset({"face"}))
        return None

    def _if(self, spec: dict, path: tuple, depth: int) -> bool | None:
        test = self.const(cx.cond(spec["if"], path + ("if",)), "e")
        self.emit(depth, f"if {test}(env):")
        self.block(spec.get("then"), path + ("then",), depth + 1)
        if spec.get("else"):
            self.emit(depth, "else:")
            self.block(spec["else"], path + ("else",), depth + 1)
        return None

    def _repeat(self, spec: dict, path: tuple, depth: int) -> bool | None:
        where = self.const(path + ("repeat",))
        times = self.const(cx.expr(spec["times"], path + ("times",)), "e") \
            if "times" in spec else None
        while_ = self.const(cx.cond(spec["while"], path + ("while",)), "e") \
            if "while" in spec else None
        until = self.const(cx.cond(spec["until"], path + ("until",)), "e") \
            if "until" in spec else None
        most = self.const(cx.expr(spec["max"], path + ("max",)), "e") if "max" in spec else None
        nt, cap, passes = self.temp("n"), self.temp("cap"), self.temp("p")
        self.emit(depth, "try:")
        d = depth + 1
        d2 = loop_head(self.emit, d, (nt, cap, passes), times and f"{times}(env)",
                       most and f"{most}(env)", while_ and f"{while_}(env)")
        if most:
            self.emit(d2, f"if {passes} > {cap}:")
            self.emit(d2 + 1, f"_over_max({cap}, {where})")
        self.emit(d2, f"if {passes} > {self.sc.max_loop}:")
        self.emit(d2 + 1, f"g.loop_budget({passes}, {where})")
        self.block(spec["repeat"], path + ("repeat",), d2)
        if until:
            self.emit(d2, f"if {until}(env):")
            self.emit(d2 + 1, "break")
        self.emit(depth, "except _Break:")
        self.emit(d, "pass")
        return None

    def _say(self, spec: dict, path: tuple, depth: int) -> bool | None:
        text = self.const(cx.template(spec["say"], path + ("say",)), "e")
        self.emit(depth, "if g.narrating:")
        if "to" in spec:
            to = self.const(cx.expr(spec["to"], path + ("to",)), "e")
            self.emit(depth + 1, f"g.narrate({text}(env), {to}(env))")
        else:
            self.emit(depth + 1, f"g.narrate({text}(env), None)")
        return None

    def _choose(self, spec: dict, path: tuple, depth: int) -> bool | None:
        """One player picks among options (the common form; `by` a list, sealed picks and
        number ranges use the closure)."""
        from interpreter.engine.decisions import Request
        if "options" not in spec or "by" in spec or spec.get("sealed"):
            return False
        did = spec["choose"]
        opts = spec["options"]
        limited = isinstance(opts, dict) and any(
            isinstance(o, dict) and "limit" in o for o in opts.values())
        options = self.const(self.sc._options(opts, path + ("options",),
                                              spec.get("option_label")), "o")
        self.consts.update(_Request=Request, _within_limit=within_limit,
                           _count_use=count_use, _label=label_later)
        if "duration" in spec:
            dur = self.const(cx.expr(spec["duration"], path + ("duration",)), "e")
            self.emit(depth, f"g.advance({dur}(env))")
        pl, legal, chosen = self.temp("pl"), self.temp("legal"), self.temp("c")
        did_k = repr(did)
        self.emit(depth, f"{pl} = g.current")
        self.emit(depth, f"{legal} = {options}(g, env)")
        if limited:
            self.emit(depth, f"{legal} = [o_ for o_ in {legal} "
                             f"if _within_limit(g, {did_k}, o_, {pl})]")
        prompt = self.const(cx.template(spec["prompt"], path + ("prompt",)), "e") \
            if "prompt" in spec else None
        render = f"_label({prompt}, env)" if prompt else "None"
        self.emit(depth, f"{chosen} = g.decide(_Request({did_k}, {pl}, {legal}, "
                         f"path={self.const(path)}, render={render}))")
        self.emit(depth, f"g.env[{did_k}] = {chosen}.value")
        self.fire(depth, "decided", f"{{'id': {did_k}, 'choice': g.env[{did_k}], 'by': {pl}}}")
        self.after_op(depth, frozenset({did}))
        if isinstance(opts, dict):  # named options may carry steps
            self.emit(depth, f"if {chosen}.spec is not None:")
            if limited:
                self.emit(depth + 1, f"_count_use(g, {did_k}, {chosen}, {pl})")
            self.emit(depth + 1, f"{chosen}.spec.run(g, env)")
        return None

    def _end_turn(self, spec: dict, path: tuple, depth: int) -> bool | None:
        self.emit(depth, f"raise _EndTurn().at({self.const(path, 'path')})")
        return None

    def _end_phase(self, spec: dict, path: tuple, depth: int) -> bool | None:
        self.emit(depth, f"raise _EndPhase().at({self.const(path, 'path')})")
        return None

    def _break(self, spec: dict, path: tuple, depth: int) -> bool | None:
        self.emit(depth, f"raise _Break().at({self.const(path, 'path')})")
        return None


def loop_head(emit: Callable[[int, str], None], d: int, names: tuple[str, str, str],
              times: str | None, most: str | None, while_: str | None) -> int:
    """The head of a generated `repeat` (shared with interpreter/compile/specialize.py): the count and
    the cap evaluated once, then each pass stops at `times` or when `while` no longer holds,
    and counts itself. Returns the depth of the loop's body."""
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


def _over_max(cap: Any, path: tuple) -> None:
    raise RuleError("budget-exceeded", f"this repeat ran more than its max of {cap} passes", path)


def _scoped(steps: list) -> bool:
    return any(isinstance(s, dict) and ("let" in s or "draw" in s) for s in steps)


def _writes(targets: list[str]) -> frozenset | None:
    names = [target_writes(t) for t in targets]
    return None if None in names else frozenset(names)


_GLOBALS = {"_NUM": _NUM, "_CONTAINERS": CONTAINERS, "_copied": copied, "_Break": Break,
            "_EndTurn": EndTurn, "_EndPhase": EndPhase,
            "_over_max": _over_max, "Env": Env}


def generate_block(sc: Any, steps: list, path: tuple) -> Callable[[Any, Any], None]:
    """One function running `steps` (a non-empty list) as the closures would."""
    em = _Emitter(sc)
    scoped = _scoped(steps)
    body = 2 if scoped else 1
    for i, step in enumerate(steps):
        em.step(step, path + (i,), body)
    head = ["def block(g, env):"]
    if scoped:  # `let` and `draw ... as` bind names for the rest of the list
        head += ["    env = Env((), env)", "    if True:"]
    source = "\n".join(head + em.lines)
    names = {**_GLOBALS, **em.consts}
    exec(compile(source, f"<meeple {_dotted(path)}>", "exec"), names)  # noqa: S102 - built from nodes
    fn = names["block"]
    fn.source = source
    return fn
