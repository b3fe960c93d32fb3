"""Phase 5b, compile for simulation (what the generator refuses, said as a diagnostic).

Input: a ruleset (its path and text, or a program with the positions of its document) and a
setup. Output: `not-generated` warnings, located at the rule the code generator does not
handle: bot games of that setup are then played by the reference interpreter, many times
slower. `meeple simulate` says it before its games start; `meeple validate --compile` says it
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


def specialized_or_refusal(program: Program, players: int | None = None,
                           seats: dict[int, str] | None = None
                           ) -> tuple[Specialized | None, tuple[str, tuple] | None]:
    """The setup's games as generated code, or None and what the generator does not handle
    in it with the data path of the rule that uses it."""
    refused: list = []
    special = specialize(program, players, dict(seats or {}), refused)
    if special is not None:
        return special, None
    return None, (str(refused[0]), refused[0].path or ())


def not_generated_warning(what: str, path: tuple, positions: Any,
                          whose: str = "these games are") -> Diagnostic:
    """The warning for a refusal, located at the rule's value in the document."""
    span = positions.value(path) if positions is not None and path else None
    return Diagnostic(
        "not-generated", f"{whose} played by the reference interpreter, many times slower: "
        f"the code generator does not handle {what} yet", span, path, HINT, Severity.WARNING)


def ruleset_refusals(path: str, text: str, variants: list[str]) -> list[Diagnostic]:
    """A warning for each rule that keeps the generator from writing the bot games (default
    players and policies) of the ruleset or of its variants, saying whose games it is."""
    found: dict[tuple[str, tuple, str], tuple[list[str | None], Any]] = {}
    for variant in [None, *variants]:
        loaded = load(path, variant, text=text)
        why = specialized_or_refusal(loaded.program)[1]
        if why is not None:  # one warning per rule where it stands (a variant's own rule
            where = (loaded.positions.value(why[1])  # is in its merge)
                     if why[1] and loaded.positions is not None else None)
            found.setdefault((*why, repr(where)), ([], loaded.positions))[0].append(variant)
    out = []
    for (what, at, _), (whose, positions) in found.items():
        named = [f"'{v}'" for v in whose if v is not None]
        with_ = f" with variant{'s' if len(named) > 1 else ''} {', '.join(named)}" if named \
            else ""
        subject = ("bot games" + (" of the ruleset and" if None in whose and named else "")
                   + with_ + " are")
        out.append(not_generated_warning(what, at, positions, subject))
    return out
