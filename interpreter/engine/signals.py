"""Phase 6, run (signals): the interrupts of the flow and the runtime error type.

Input: nothing. Output: exceptions the engine raises and catches: `Break` leaves a loop,
`EndTurn`, `EndPhase` and `Goto` leave the turn or the phase, `EndGame` ends the game, and
`RuleError` stops a game whose rules cannot go on (a budget exceeded, a value an expression
cannot work with), located by the data path of the rule (and the offset in its expression).
"""

from __future__ import annotations

from typing import Any


class Signal(Exception):  # noqa: N818 - these are interrupts of the flow, not errors
    """An interrupt of the flow (not an error). `path` is the data path of the step that
    raised it: where a game is stopped when nothing around the step can take it."""

    path: tuple = ()

    def at(self, path: tuple) -> Signal:
        self.path = path
        return self


class Break(Signal):
    pass


class EndTurn(Signal):
    pass


class EndPhase(Signal):
    pass


class Goto(Signal):
    def __init__(self, phase: str):
        super().__init__(phase)
        self.phase = phase


class EndGame(Signal):
    def __init__(self, reason: str = "", winners: list | None = None):
        super().__init__(reason)
        self.reason = reason
        self.winners = winners


class RuleError(Exception):
    """The game cannot go on. `path` is the data path of the rule in the ruleset; `pos` the
    (start, end) offsets in the rule's expression, when an expression failed."""

    def __init__(self, code: str, message: str, path: tuple = (), pos: Any = None,
                 hint: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        self.pos = pos
        self.hint = hint


class Undo(Exception):  # noqa: N818 - a request from the table, not a failure
    """People at the table take back the last thing they entered (a typed die, a decision, a
    race report). The command rebuilds the game without it (interpreter/cli/run.py)."""
