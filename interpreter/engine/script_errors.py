"""Phase 6, run (scripted answers): the errors of a decisions file's or a log's entries.

Input: what an entry says and what the game asks at that moment (a decision, a race, an event
raised, the turn a position gives). Output: the located `RuleError` (code `bad-input`) that
stops the game, in one set of words for both engines: the interpreter raises them where it
takes the entries (asking.py, race.py, counted.py, game.py), and the generated code where it
takes them (interpreter/compile/scripted.py, counts.py, raised.py), so a bad script stops both
at the same place with the same message.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from interpreter.engine.signals import RuleError


def _bad(message: str, path: tuple) -> RuleError:
    return RuleError("bad-input", message, path)


def unexpected_decision(expected: Any, did: str, player: str, path: tuple) -> RuleError:
    """An answer given for the decision `expected` where the game asks `did` of `player`."""
    return _bad(f"the decision script expected '{expected}' but the game asks '{did}' of "
                f"{player}", path)


def illegal_answer(answer: Any, did: str, player: str, legal: str, path: tuple) -> RuleError:
    """An answer to `did` that names no legal option (`legal`: the legal ones, as words); an
    entry with no choice at all (null, or none given) is said to give none."""
    if answer is None:
        return _bad(f"the decision script gives no choice for '{did}' ({player}); legal: "
                    f"{legal}", path)
    return _bad(f"the decision script answers {_as_written(answer)} to '{did}' ({player}), "
                f"which is not legal now; legal: {legal}", path)


def _as_written(answer: Any) -> str:
    """An answer as a decisions file writes it (YAML or JSON: true, null, [1, 2]), a text in
    quotes, not in Python's words (True, None)."""
    if isinstance(answer, str):
        return f"'{answer}'"
    return json.dumps(answer, ensure_ascii=False, default=str)


def legal_keys(keys: Iterable[Any]) -> str:
    """The legal options of a decision, as `illegal_answer` tells them: their keys."""
    return ", ".join(str(k) for k in keys)


def legal_range(low: Any, high: Any) -> str:
    """The legal numbers of a number choice, as `illegal_answer` tells them."""
    return f"{low}..{high}"


def not_raisable(name: str, events: Iterable[str], path: tuple) -> RuleError:
    """An event raised by a script that people cannot raise (`events`: those they can)."""
    events = list(events)
    return _bad(f"the decision script raises '{name}', which people cannot raise; "
                + (f"events they can: {', '.join(events)}" if events
                   else "this game has no such event"), path)


def not_a_raiser(name: str, by: Any, path: tuple) -> RuleError:
    """An event a script has raised by someone who does not play the game."""
    return _bad(f"the decision script has '{name}' raised by '{by}', who does not play this "
                "game", path)


def other_race(given: Any, rid: str, path: tuple) -> RuleError:
    """A script's entry for the race `given` where the game runs the race `rid`."""
    return _bad(f"the script has the race '{given}' where the game runs the race '{rid}'", path)


def impossible_claims(racer: str, rid: str, why: str, path: tuple) -> RuleError:
    """A script's claims for `racer` that cannot be taken (`why`)."""
    return _bad(f"the script's claims for {racer} in race '{rid}' are not possible: {why}",
                path)


def no_such_item(token: str) -> str:
    """Why a claim cannot be taken: the pool has no item by that name."""
    return f"there is no item '{token}' to claim"


def named_twice(token: str) -> str:
    """Why a claim cannot be taken: the report names the item twice."""
    return f"'{token}' is named twice"


def claimed_before(item: str, other: str) -> str:
    """Why a claim cannot be taken: an earlier racer claimed the item."""
    return f"{item} was already claimed by {other}"


def beyond_capacity(racer: str, capacity: int) -> str:
    """Why claims cannot be taken: more than the racer holds."""
    return f"{racer} can hold at most {capacity}"


def counts_undeclared(rid: str, path: tuple) -> RuleError:
    """Counts given for a race that declares no `counts`."""
    return _bad(f"the script gives counts for race '{rid}', which declares no `counts`", path)


def counts_not_a_map(rid: str, path: tuple) -> RuleError:
    """Counts that do not map reporters to counts."""
    return _bad(f"the script's counts for race '{rid}' must map reporters to counts", path)


def unknown_reporter(name: str, rid: str, names: Iterable[str], path: tuple) -> RuleError:
    """Counts for someone who does not report in the race."""
    return _bad(f"the script's counts name '{name}', who does not report in race '{rid}' "
                f"(reporters: {', '.join(names)})", path)


def counts_of_unknown_kinds(name: str, rid: str, kinds: Iterable[str],
                            path: tuple) -> RuleError:
    """A reporter's counts that do not map the race's kinds to numbers."""
    return _bad(f"the script's counts for {name} in race '{rid}' must map kinds "
                f"({', '.join(kinds)}) to numbers", path)


def impossible_counts(rid: str, why: str, path: tuple) -> RuleError:
    """Counts that cannot all be taken (`why`)."""
    return _bad(f"the script's counts in race '{rid}' are not possible: {why}", path)


def no_turn_here(player: str, phase: str) -> RuleError:
    """A position that gives the turn to a player who has no turn in its phase."""
    return _bad(f"the position gives the turn to {player}, who has no turn in phase "
                f"'{phase}'", ())
