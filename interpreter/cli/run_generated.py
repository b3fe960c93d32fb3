"""The `meeple run` command's one path: a game played by the generated code
(interpreter/compile/specialize.py with `logged=True`, and `live=True` when people play).

Input: the `Game` that `meeple run` set up (never run: its players, controllers, clock,
chance source, scripted answers and narrator are the game's two doors and its voice; its
zones and labels are what narration names things by) and the generated code for its seats.
Output: the game's `Result`, with each record given to the game's narrator as it is made,
exactly as the interpreter's own game gives it (which writes the log, narrates, and checks a
resumed game's replayed records), while the `Game` mirrors the generated game's state
(interpreter/table/mirror.py); people's decisions go through interpreter/table/live_door.py.

A rule error or a budget the generated code meets (interpreter/compile/stops.py) ends the game
there, its `Result` holding the interpreter's located error. Where the fast code's numbers pass
its range (±SAFE_INT), it raises `HandBack` with what it takes to go on from the records made
so far: the caller replays them, checked record by record and not narrated again, on the
code's checked version (interpreter/compile/numbers.py), and plays on there. A chance source
that fails (a dice file run out, the table's input ended) stops the game as the interpreter's.
A fault of the code generator raises `GeneratorFault` (`fault_said` words it): the game stops,
said so, and nothing else plays it on.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from interpreter.compile.base import SAFE_INT
from interpreter.compile.played import (
    Called,
    ChanceDoor,
    GeneratorFault,
    Specialized,
    TimedQueue,
)
from interpreter.engine.chance import ChanceError, SeededChance
from interpreter.engine.results import Result
from interpreter.table.live_door import LiveDoor
from interpreter.table.mirror import Mirror, Placed


def _raised_at_the_table(name: str, by: str | None = None, at_roll: bool = False) -> None:
    """The mirrored game's `raise_event`, called by the table's chance source at its dice
    prompt: the event leaves the chance door for the generated code to raise
    (interpreter/compile/raised.py), which then asks for the faces again."""
    raise Called({"raise": name, "by": by, **({"at_roll": True} if at_roll else {})})


HANDED_NOTE = (f"note: this game's whole numbers went past ±{SAFE_INT:,}, where the generated "
               "code's fast version stops: its checked version (every +, - and * tested) plays "
               "it on from here, the same game, more slowly")


def fault_said(fault: Exception) -> str:
    """The error a command says where the code generator failed on a game (exit 1)."""
    return (f"error: meeple's code generator failed on this game ({fault}). This is a bug in "
            "meeple, not in your ruleset: please report it, with the ruleset and the log or "
            "the seed. [internal-error]")


class HandBack(Exception):  # noqa: N818 - a signal to the caller, not a failure
    """The generated code hands a game under way to its checked version (the numbers passed
    the fast code's range): `script` holds the answers to take after those of the records
    made so far (an event a person raised, what is left of a decisions file)."""

    def __init__(self, script: list):
        super().__init__("handed back")
        self.script = script

    @staticmethod
    def disagreement(mismatch: Exception) -> str:
        """The error when the checked version's replay of what the fast version made
        differs."""
        return (f"error: meeple's generated code and its checked version disagree: {mismatch}. "
                "This is a bug in meeple: please report it, with the ruleset and the log. "
                "[internal-error]")


def play_generated(special: Specialized, game: Any, positioned: bool = False) -> Result:
    """Plays `game` on `special` (its program and seats), from where the game stands when
    `positioned` (a game from a position, generated for it); see the module's docstring."""
    mirror: list[Mirror] = []
    chance = ChanceDoor(game.chance, game)

    table = getattr(game.chance, "live", False)  # people type the dice in

    def look(state: Any) -> None:
        mirror.append(Mirror(game, state))
        if table:  # the table's prompt reads the game (who sees a roll, what may be raised)
            chance.sync = mirror[0].sync_all
        elif not isinstance(game.chance, SeededChance):  # a dice file reads faces and zones
            chance.sync = mirror[0].sync

    if table:  # an event raised at the table's prompt: the interpreter raises it there
        game.raise_event = _raised_at_the_table

    def record(rec: dict) -> None:
        game.log.append(rec)
        if game.narrator is not None:
            mirror[0].sync()  # narration reads the game as it stands
            game.narrator(game, rec)

    live = game.clock.real
    queue = TimedQueue(game.forced, game.clock) if live else game.forced
    try:
        played = special.try_logged(game.seed, record, look, queue, chance,
                                    LiveDoor(game, mirror) if live or table else None,
                                    Placed(game) if positioned else None)
    except ChanceError:
        raise  # the table's input ended, or a dice file ran out or does not fit: the game
        # stops here, as the interpreter's does
    except Called as called:  # never: every roll at which the table may call is written
        # to raise the call (raised.py `table_roll`); were one missed, it is a fault
        raise GeneratorFault(f"the table called '{called.entry['raise']}' at a roll the "
                             "generated code does not raise it at") from None
    if played is None:
        raise HandBack(list(queue))
    mirror[0].sync_all()  # the final table and position (--json) read the whole state
    game.fired, game.chosen, game.unruled = played.fired, played.chosen, played.unruled
    if live:  # real time passed by itself: the game took what the clock says
        return replace(played.result, seconds=game.clock.now())
    return played.result
