"""The `meeple run` command's fast path: a game of bots on seeded dice, played by the
generated code (interpreter/compile/specialize.py with `logged=True`).

Input: the `Game` that `meeple run` set up (never run: its players, controllers, zones and
labels are what narration names things by), its program and seats, the answers of a
decisions file, the log writer and where narration goes. Output: the game's `Result`, with
its records written to the log and narrated exactly as the interpreter's own game writes and
narrates them (the `Game` mirrors the generated game's state at each record:
interpreter/table/mirror.py); or None when the generated code does not take this game (a
ruleset it does not generate) or hands it back (a number past its range, a scripted entry
that times out, moves time or raises an event), or the `MustStop` of a game its rules
stopped, before anything was written: the caller then plays it with the interpreter from the
start, which gives the same game and its located error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.compile.played import ChanceDoor, MustStop
from interpreter.compile.specialize import specialize
from interpreter.engine.chance import ChanceError, SeededChance
from interpreter.engine.results import Result
from interpreter.table.mirror import Mirror
from interpreter.table.narrate import describe


def play_generated(game: Any, seats: dict[int, str], writer: Any,
                   echo: Callable[[str], Any] | None,
                   scripted: list | None = None) -> Result | MustStop | None:
    """Plays `game`'s seed on the generated code; see the module's docstring. Narration is
    worked out as each record is made and printed (`echo`; None: not narrated) once the game
    has ended, with the log, so that a game handed back has printed nothing. `scripted`: the
    answers of a decisions file, taken first as the interpreter takes them. A game the
    generated code stopped (a rule error) gives its `MustStop`: the interpreter's game must
    then stop with an error too, else `MustStop.fault` is a bug to report."""
    special = specialize(game.program, game.players_n, seats, logged=True)
    if special is None:
        return None
    said: list[tuple[dict, str | None]] = []
    mirror: list[Mirror] = []

    def look(state: Callable[[], tuple]) -> None:
        mirror.append(Mirror(game, state))
        if not isinstance(game.chance, SeededChance):  # a dice file reads faces and zones
            chance.sync = mirror[0].sync

    chance = ChanceDoor(game.chance, game)

    def record(rec: dict) -> None:
        mirror[0].sync()
        said.append((rec, describe(game, rec) if echo is not None else None))

    try:
        played = special.try_logged(game.seed, record, look, scripted, chance)
    except MustStop as stop:
        return stop  # the interpreter plays it again, to its located error
    except ChanceError:
        return None  # a dice file that runs out or does not fit: the interpreter says so
    if played is None:
        return None
    mirror[0].sync_all()  # the final table and position (--json) read the whole state
    game.log = [rec for rec, _ in said]
    game.fired, game.chosen, game.unruled = played.fired, played.chosen, played.unruled
    for rec, line in said:
        if writer is not None:
            writer.write(rec)
        if line is not None:
            echo(line)
    return played.result
