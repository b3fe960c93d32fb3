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
  (interpreter/compile/played.py); the event is raised, and the faces asked again.

Where an event's triggers are not generated, the code hands the game over there instead
(`Fallback` before a scripted entry is taken; `Called` with the event otherwise).
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.base import Stop, Unsupported, _Ctx


def raise_entry(queue: Any, events: tuple, names: tuple) -> tuple[str, Any, bool]:
    """The event a scripted entry raises (left in the queue), as GameAsking.raise_scripted
    checks it: one people may raise, by a player of this game or the table."""
    entry = queue[0]
    name, by = entry["raise"], entry.get("by")
    if name not in events or (by is not None and by != "table" and by not in names):
        raise Stop()  # the interpreter's bad-input error, located
    return name, by, bool(entry.get("at_roll"))


class RaisedWriter:
    """Events people raise (a mixin of _Gen)."""

    def raisable(self) -> tuple[str, ...]:
        """The events people may raise (asking.raise_scripted's list)."""
        return tuple(n for n, spec in (self.data.get("events") or {}).items()
                     if isinstance(spec, dict) and spec.get("raised_by", "rules") != "rules")

    def raises_here(self) -> bool:
        """Whether raised events are written where they are raised: where people or the table
        may raise them (a live game, a referee's table, a replay of either), never inside the
        triggers of an event being raised (each site would write the triggers again: the code
        would grow with every level of the chain), nor in a `lean` writer (their code nested
        too deep for Python). Elsewhere a raise is handed over to the interpreter."""
        return bool(self.raisable()) and not self.lean and not self.raising and bool(
            self.live or self.table or self.script_only)

    def raised(self, d: int, ctx: _Ctx, event: str, by: str, at_roll: str,
               taken: str | None = None, leave: str = "raise _Fallback()") -> None:
        """`event` (source of its name) raised by `by`, `at_roll` (sources): logged, its
        triggers fired (outside any loop: an `end_turn` there raises); `taken`, a statement
        run first (taking a scripted entry). An event whose triggers are not generated runs
        `leave` instead, before anything is taken or logged."""
        inner = ctx.inside(in_loop=False)
        inner.flag_exit = False
        outer, self.raising = self.raising, True
        try:
            self._dispatch(d, inner, event, by, at_roll, taken, leave)
        finally:
            self.raising = outer

    def _dispatch(self, d: int, inner: _Ctx, event: str, by: str, at_roll: str,
                  taken: str | None, leave: str) -> None:
        for j, name in enumerate(self.raisable()):
            self.emit(d, f"{'if' if j == 0 else 'elif'} {event} == {name!r}:")
            mark = len(self.lines)
            try:
                if taken:
                    self.emit(d + 1, taken)
                moment = ((("", f"**({{}} if {by} is None else {{'at': _LV.now()}})"),)
                          if self.live else ())  # on real time, when it was raised
                self.rec(d + 1, "raised", ("event", repr(name)),
                         ("", f"**({{}} if {by} is None else {{'by': {by}}})"),
                         ("", f"**({{'at_roll': True}} if {at_roll} else {{}})"), *moment)
                self.fire(name, d + 1, inner)
            except Unsupported:
                del self.lines[mark:]
                self.emit(d + 1, leave)
            if len(self.lines) == mark:
                self.emit(d + 1, "pass")

    def scripted_raise(self, d: int, ctx: _Ctx) -> None:
        """The scripted event at the queue's head raised (checked, then taken)."""
        ev = self.temp("ev")
        self.emit(d, f"{ev} = _raise_entry(FQ, {self.raisable()!r}, {self.names_of()})")
        # Taken; in a live game its logged moment set on the clock (raise_scripted).
        self.raised(d, ctx, f"{ev}[0]", f"{ev}[1]", f"{ev}[2]",
                    "_LV.raised(FQ)" if self.live else "FQ.popleft()")

    def raised_at_roll(self, d: int, ctx: _Ctx) -> None:
        """Before a logged game's roll: the events the table raised at its prompt, from the
        scripted answers (step_runtime.raised_at_roll)."""
        if not self.logged:
            return
        test = "FQ and type(FQ[0]) is dict and FQ[0].get('at_roll') and 'raise' in FQ[0]"
        self.emit(d, f"if {test}:")
        if not self.raises_here():  # none can be raised (the interpreter's bad-input error),
            self.emit(d + 1, "raise _Stop()" if not self.raisable() else "raise _Fallback()")
            return  # or handed over
        self.scripted_raise(d + 1, ctx)
        self.emit(d + 1, f"if {test}:")  # two at one roll (rare): handed over, which keeps
        self.emit(d + 2, "raise _Fallback()")  # the code no deeper than one

    def table_roll(self, call: str, d: int, ctx: _Ctx) -> None:
        """`call` (a statement asking the chance door for a roll's faces); at the referee's
        table, where an event may be raised at the prompt: raised, then asked again."""
        if not (self.table and self.raises_here()):
            self.emit(d, call)  # an event raised at the prompt is handed over (`Called`)
            return
        cl = self.temp("cl")
        self.emit(d, "while True:")
        self.emit(d + 1, "try:")
        self.emit(d + 2, call)
        self.emit(d + 2, "break")
        self.emit(d + 1, f"except _Called as {cl}:")
        self.raised(d + 2, ctx, f"{cl}.entry['raise']", f"{cl}.entry.get('by')", "True",
                    leave="raise")
