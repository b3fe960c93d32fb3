"""Phase 5b, compile for play at the table: events people raise, written as code.

Input: the ruleset's events that people may raise (`raised_by` anyone but the rules), and the
generator of interpreter/compile/specialize.py. Output: Python lines of a logged game's
function that raise such an event where the interpreter does (GameAsking.raise_event): logged
as `raised` (with who raised it, and `at_roll` when the table raised it while asked for a
roll's faces), then its triggers fired. Three places call for it, as in the interpreter:

- a decision, whose scripted answers (a decisions file, a log being resumed or replayed) hold
  the event first (`raise_scripted`: an event people may not raise, or a raiser who does not
  play, is the interpreter's bad-input error: `Stop`), or whose person answers with `!NAME`;
- a roll, before which a scripted event raised at its prompt is raised again
  (step_runtime.raised_at_roll);
- a roll at the referee's table, whose prompt took `!NAME`: the table's chance source calls
  the mirrored game's `raise_event`, which leaves the chance door as `Called`
  (interpreter/compile/played.py); the event is raised, and the faces asked again;
- a race's report (races.py), where a person or the table called the event instead.

Each event is written once, as a function inside the game's function (`raiser`), called
from every place with the depth where the rules stand, so an event raised inside its own
triggers calls it again one deeper and the chain's limit is tested at run time; the names it
assigns that the game also uses are declared the game's (`shared_names`). Where an event's
triggers the generator does not write, it refuses the logged game's code (`Unsupported`,
located: `meeple validate --compile` says `people-not-generated`), never a hand-over at run
time.
"""

from __future__ import annotations

import ast
from typing import Any

from interpreter.compile.base import Unsupported, _Ctx
from interpreter.compile.scripted import refused
from interpreter.engine.script_errors import not_a_raiser, not_raisable


def raise_entry(queue: Any, events: tuple, names: tuple, site: tuple | None
                ) -> tuple[str, Any, bool]:
    """The event a scripted entry raises (left in the queue), as GameAsking.raise_scripted
    checks it: one people may raise, by a player of this game or the table (else the
    interpreter's bad-input error, at `site`: the step that takes it)."""
    entry = queue[0]
    name, by = entry["raise"], entry.get("by")
    if name not in events:
        raise refused(site, lambda path: not_raisable(name, events, path))
    if by is not None and by != "table" and by not in names:
        raise refused(site, lambda path: not_a_raiser(name, by, path))
    return name, by, bool(entry.get("at_roll"))


class RaisedWriter:
    """Events people raise (a mixin of _Gen)."""

    def raisable(self) -> tuple[str, ...]:
        """The events people may raise (asking.raise_scripted's list)."""
        return tuple(n for n, spec in (self.data.get("events") or {}).items()
                     if isinstance(spec, dict) and spec.get("raised_by", "rules") != "rules")

    def raises_here(self) -> bool:
        """Whether raised events are written where they may be raised: in every logged game
        (a person's or the table's call, a decisions file's or a log's entry). Each event's
        triggers are written once, as a function of the game's (`raiser`), which every place
        calls: a raise inside an event's own triggers calls it again, one deeper."""
        return bool(self.raisable()) and self.logged

    def raised(self, d: int, ctx: _Ctx, event: str, by: str, at_roll: str,
               taken: str | None = None) -> None:
        """`event` (source of its name) raised by `by`, `at_roll` (sources): logged, its
        triggers fired (`raiser`); `taken`, a statement run first (taking a scripted entry)."""
        for j, name in enumerate(self.raisable()):
            self.emit(d, f"{'if' if j == 0 else 'elif'} {event} == {name!r}:")
            fn = self.raiser(name, ctx)
            if taken:
                self.emit(d + 1, taken)
            self.emit(d + 1, f"{fn}({by}, {at_roll}, {ctx.depth_src()})")

    def raiser(self, name: str, ctx: _Ctx) -> str:
        """The name of the function that raises `name` (GameAsking.raise_event: logged as
        `raised`, with who raised it, `at_roll` when the table raised it at a roll's prompt
        and its moment on real time; then its triggers fired, outside any loop, so an
        `end_turn` there raises), called with the depth where the rules stand (the chain's
        limits are tested against it at run time: a raise inside its own triggers calls it
        again, one deeper). Triggers the generator does not write refuse the game's code
        (`Unsupported`: a logged game's is all generated or not at all). Written once per
        event (and inside the checks or not); its lines go before the game's `try:`
        (`raiser_lines`), and which of the game's names it assigns is worked out once the
        whole game is written (`shared_names`)."""
        key = (name, ctx.checks)
        if key in self.raisers:
            return self.raisers[key]
        fn = self.raisers[key] = f"_rz{len(self.raisers)}"
        outer, path = self.lines, self.step_path
        self.lines = []
        try:
            self.emit(1, f"def {fn}(_by, _ar, _dp):")
            self.emit(2, f"__NONLOCAL_{fn}__")
            moment = ((("", "**({} if _by is None else {'at': _LV.now()})"),)
                      if self.live else ())  # on real time, when it was raised
            self.rec(2, "raised", ("event", repr(name)),
                     ("", "**({} if _by is None else {'by': _by})"),
                     ("", "**({'at_roll': True} if _ar else {})"), *moment)
            self.fire(name, 2, _Ctx({}, checks=ctx.checks, base="_dp"))
            self.raiser_lines += self.lines
        except Unsupported:
            del self.raisers[key]  # never named as written
            raise
        finally:
            self.lines, self.step_path = outer, path
        return self.raisers[key]

    def scripted_raise(self, d: int, ctx: _Ctx) -> None:
        """The scripted event at the queue's head raised (checked, then taken)."""
        ev = self.temp("ev")
        self.emit(d, f"{ev} = _raise_entry(FQ, {self.raisable()!r}, {self.names_of()}, "
                     f"{self.input_at()})")
        # Taken; in a live game its logged moment set on the clock (raise_scripted).
        self.raised(d, ctx, f"{ev}[0]", f"{ev}[1]", f"{ev}[2]",
                    "_LV.raised(FQ)" if self.live else "FQ.popleft()")

    def raised_at_roll(self, d: int, ctx: _Ctx) -> None:
        """Before a logged game's roll: the events the table raised at its prompt, from the
        scripted answers (step_runtime.raised_at_roll)."""
        if not self.logged:
            return
        test = ("FQ and type(FQ[0]) is dict and FQ[0].get('at_roll') and 'raise' in FQ[0] "
                "and FQ[0].get('rolls', rolls) == rolls")
        self.emit(d, f"while {test}:")
        if not self.raises_here():  # none can be raised: the interpreter's bad-input error
            self.emit(d + 1, f"_raise_entry(FQ, (), {self.names_of()}, {self.input_at()})")
            return
        self.scripted_raise(d + 1, ctx)

    def table_roll(self, call: str, d: int, ctx: _Ctx) -> None:
        """`call` (a statement asking the chance door for a roll's faces); at the referee's
        table, where an event may be raised at the prompt: raised, then asked again."""
        if not (self.table and self.raises_here()):
            self.emit(d, call)  # none may be raised there
            return
        cl = self.temp("cl")
        self.emit(d, "while True:")
        self.emit(d + 1, "try:")
        self.emit(d + 2, call)
        self.emit(d + 2, "break")
        self.emit(d + 1, f"except _Called as {cl}:")
        self.raised(d + 2, ctx, f"{cl}.entry['raise']", f"{cl}.entry.get('by')", "True")


def shared_names(src: str) -> str:
    """A logged game's source with each raiser's `nonlocal` line written: the names it
    assigns that the game's function or another raiser also reads or assigns (the game's
    state, counters, clock) are the game's; the rest stay its own. A shared name the game's
    function never assigns is first bound there (to None), before the raisers."""
    if "__NONLOCAL_" not in src:
        return src
    play = ast.parse(src).body[0]
    inner = [f for f in ast.walk(play) if isinstance(f, ast.FunctionDef)
             and f.name.startswith(("_rz", "_ct"))]  # raisers, a counted race's `take`
    names = {f.name: _Names(f) for f in inner}
    game = _Names(play, skip=set(names))
    game.stored |= {a.arg for a in play.args.args}
    unbound: set[str] = set()
    for f in inner:
        others = game.used.union(*(n.used for k, n in names.items() if k != f.name))
        shared = sorted(names[f.name].stored & others)
        unbound |= set(shared) - game.stored
        src = src.replace(f"__NONLOCAL_{f.name}__",
                          f"nonlocal {', '.join(shared)}" if shared else "pass", 1)
    if unbound:  # bound first, at the top of the game's function
        head, _, body = src.partition("\n")
        src = f"{head}\n    {' = '.join(sorted(unbound))} = None\n{body}"
    return src


class _Names(ast.NodeVisitor):
    """The names a function assigns (`stored`: not a comprehension's own, nor an `except`
    clause's) and those it uses at all (`used`), in its own body and the lambdas and
    comprehensions in it; functions named in `skip` are left out."""

    def __init__(self, fn: ast.FunctionDef, skip: set[str] = frozenset()):
        self.stored: set[str] = set()
        self.used: set[str] = set()
        self.skip = skip
        self.local: list[set[str]] = []  # the comprehensions' own names, innermost last
        for stmt in fn.body:
            self.visit(stmt)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.name not in self.skip:
            self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if any(node.id in own for own in self.local):
            return
        self.used.add(node.id)
        if isinstance(node.ctx, ast.Store):
            self.stored.add(node.id)

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.used.add(node.target.id)  # binds in the function, even in a comprehension
        self.stored.add(node.target.id)
        self.visit(node.value)

    def _comprehension(self, node: Any) -> None:
        own = {n.id for g in node.generators for n in ast.walk(g.target)
               if isinstance(n, ast.Name)}
        self.visit(node.generators[0].iter)  # the first iterable is the function's
        self.local.append(own)
        for g in node.generators:
            if g is not node.generators[0]:
                self.visit(g.iter)
            for test in g.ifs:
                self.visit(test)
        for part in ("elt", "key", "value"):
            if hasattr(node, part):
                self.visit(getattr(node, part))
        self.local.pop()

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

