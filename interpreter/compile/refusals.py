"""Phase 5b, compile for simulation (what the generator refuses, said as a diagnostic).

Input: a ruleset (its path and text, or a program with the positions of its document) and a
setup. Output: `not-generated` warnings, located at the rule the code generator does not
handle: bot games of that setup are then played by the reference interpreter, many times
slower (`people-not-generated`: games people play, at the terminal or refereeing at the
table). `meeple simulate` says it before its games start; `meeple validate --compile` says it
for the ruleset and each of its variants, so a designer learns it before any game is played.
"""

from __future__ import annotations

from typing import Any

from dsl.diagnostics import Diagnostic, Severity
from interpreter.compile.played import Specialized
from interpreter.compile.specialize import specialize
from interpreter.engine.program import Program
from interpreter.engine.setup import load

HINT = "the results are the same; docs/simulate.md says what the generator handles"
PEOPLE_HINT = "the game is the same; docs/running.md says which games the generator plays"


def specialized_or_refusal(program: Program, players: int | None = None,
                           seats: dict[int, str] | None = None, live: bool = False,
                           table: str | None = None
                           ) -> tuple[Specialized | None, tuple[str, tuple] | None]:
    """The setup's games as generated code, or None and what the generator does not handle
    in it with the data path of the rule that uses it: bot games as a bulk run plays them
    (`play_tracked` alone); `live`: games people play at the terminal (logged, on real
    time); `table`: games a referee's table plays ("counting" or "faces", logged)."""
    refused: list = []
    logged = live or table is not None
    special = specialize(program, players, dict(seats or {}), refused, logged=logged,
                         live=live, table=table, tracked_only=not logged)
    if special is not None:
        return special, None
    return None, (str(refused[0]), refused[0].path or ())


def not_generated_warning(what: str, path: tuple, positions: Any,
                          whose: str = "these games are", code: str = "not-generated"
                          ) -> Diagnostic:
    """The warning for a refusal, located at the rule's value in the document."""
    span = positions.value(path) if positions is not None and path else None
    slower = ", many times slower" if code == "not-generated" else ""
    return Diagnostic(
        code, f"{whose} played by the reference interpreter{slower}: the code generator does "
        f"not handle {what} yet", span, path, HINT if code == "not-generated" else PEOPLE_HINT,
        Severity.WARNING)


def ruleset_refusals(path: str, text: str, variants: list[str]) -> list[Diagnostic]:
    """A warning for each rule that keeps the generator from writing the bot games (default
    players and policies) of the ruleset or of its variants, or (`people-not-generated`) the
    games with a person in the first seat or those a referee's table that counts plays,
    saying whose games it is."""
    found: dict[tuple[str, str, tuple, str], tuple[list[str | None], Any]] = {}
    for variant in [None, *variants]:
        loaded = load(path, variant, text=text)
        why = specialized_or_refusal(loaded.program)[1]
        code, who = "not-generated", "bot games"
        if why is None:  # people: the same code, asked of a person and on real time,
            why = specialized_or_refusal(loaded.program, seats={1: "human"}, live=True)[1]
            code, who = "people-not-generated", "games with people"
            if why is None:  # or of a referee's table that counts (`--dice table`)
                why = specialized_or_refusal(loaded.program, table="counting")[1]
                who = "games at a referee's table that counts"
        if why is not None:  # one warning per rule where it stands (a variant's own rule
            where = (loaded.positions.value(why[1])  # is in its merge)
                     if why[1] and loaded.positions is not None else None)
            found.setdefault((code, who, *why, repr(where)), ([], loaded.positions))[0].append(
                variant)
    out = []
    for (code, games, what, at, _), (whose, positions) in found.items():
        named = [f"'{v}'" for v in whose if v is not None]
        with_ = f" with variant{'s' if len(named) > 1 else ''} {', '.join(named)}" if named \
            else ""
        subject = (games + (" of the ruleset and" if None in whose and named else "")
                   + with_ + " are")
        out.append(not_generated_warning(what, at, positions, subject, code))
    return out
