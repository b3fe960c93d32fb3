"""The `meeple replay` command: a logged game played again from its log, checked event by event.

Input: a log written by `meeple run --log`. Output: the narration (unless --json or --quiet)
and the result, as `run` prints it, with each seat named as the log says who played it; exit 1
at the first event that differs from the log (the ruleset changed since, or the log was
edited), or when the log cannot be read.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import click

from interpreter.cli.failed import fail
from interpreter.cli.run import (
    ResumeMismatch,
    _announce,
    _logged_sets,
    _Narrator,
    _report,
    _start,
    logged_position,
    logged_ruleset,
    someone_out,
)
from interpreter.cli.run_generated import HANDED_NOTE, HandBack, fault_said, play_generated
from interpreter.compile.played import GeneratorFault
from interpreter.compile.specialize import specialize
from interpreter.engine.asking import ScriptEnded
from interpreter.engine.chance import ChanceError
from interpreter.engine.clock import ModelledClock, ReplayClock
from interpreter.engine.setup import SetupError, load, new_game
from interpreter.table import journal
from interpreter.table.limit_option import logged_limits
from interpreter.table.narrate import printer


@click.command()
@click.argument("log", type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print only the result, as JSON.")
@click.option("--quiet", is_flag=True, help="Do not narrate; print the result only.")
def replay(log, as_json, quiet):
    """Replay a logged game (from `meeple run --log`) to the same result.

    Every die and decision is taken from the log; the replay checks that each event comes out
    the same and exits 1 where it does not (the ruleset changed since, or the log was edited).
    """
    try:
        head, records = journal.read(log)
    except journal.JournalError as e:
        click.echo(f"error: {e} [bad-input]", err=True)
        sys.exit(1)
    try:
        loaded = load(logged_ruleset(head, log), head.get("variant"), _logged_sets(head),
                      limits=logged_limits(head))
    except SetupError as e:
        fail(e.diagnostics, e.source)
    live = any(r["t"] == "decision" and "at" in r for r in records)
    narrator = None if (as_json or quiet) else printer(click.echo)

    def set_up(narrator: Any) -> Any:
        """The game again, every die and decision taken from the log. The seats' controllers
        only follow it (script_only): they never decide, so the defaults do; the result names
        the controllers that played, as the header logs them."""
        chance, decisions = journal.script(records)
        try:
            made = new_game(loaded.program, head["players"], None, chance, head.get("seed", 0),
                            ReplayClock() if live else ModelledClock(), decisions, narrator)
        except SetupError as e:  # the log's players do not fit the ruleset
            fail(e.diagnostics, loaded.source)
        made.script_only = True
        _start(made, logged_position(head))  # a game played --from a position starts there
        return made

    game = set_up(narrator)
    seats = journal.logged_seats(head, game.players_n)
    if narrator is not None:
        _announce(game, loaded, head.get("seed"), head.get("variant"), seats)
    try:
        result, game = _replayed(game, loaded, head, live, set_up)
    except (ChanceError, ScriptEnded) as e:
        # An edited log strays from the game long before its script runs dry (an edited die
        # changes what is drawn later): name the first event that differs when there is one.
        n = min(len(game.log), len(records))
        _differs(game.log[:n], records[:n])
        if n < len(records):  # the log goes on, but the replay cannot make its next event
            click.echo(f"error: the replay differs from the log at event {n + 1}: logged "
                       f"{json.dumps(records[n], default=str)}, which the replay cannot make "
                       f"({e}) [bad-input]", err=True)
        else:
            click.echo(f"error: the log ends before the game does ({e}) [bad-input]",
                       err=True)
        sys.exit(1)
    _differs(game.log, records)
    if not as_json and not quiet:
        click.echo("(the replay matches the log, event for event)")
    if seats:
        result.seats = [replace(s, controller=seats[s.seat - 1]) for s in result.seats]
    _report(result, loaded, as_json, head.get("seed"), game)


def _replayed(game: Any, loaded: Any, head: dict, live: bool,
              set_up: Callable[[Any], Any]) -> tuple[Any, Any]:
    """The game played from its log, and the `Game` that played it: on the generated code
    (`script_only`: it asks nobody; from the log's position, when it has one); where the
    numbers pass the fast code's range, its checked version replays what it made (checked,
    not narrated again) and plays on. A fault of the code generator stops the command,
    said (exit 1)."""
    positioned = logged_position(head) is not None
    special = specialize(loaded.program, head["players"], None, logged=True, live=live,
                         script_only=True, positioned=positioned,
                         out=someone_out(game))
    if special is None:
        return game.run(), game
    while True:
        try:
            return play_generated(special, game, positioned), game
        except HandBack:
            made = json.loads(json.dumps(game.log, ensure_ascii=False, default=str))
            click.echo(HANDED_NOTE, err=True)  # the rules go on: said, as by `meeple run`
            special = special.widened()
            game = set_up(_Narrator(None, game.narrator, made, None))
        except ResumeMismatch as e:  # the checked version differs from what the fast one made
            click.echo(HandBack.disagreement(e), err=True)
            sys.exit(1)
        except GeneratorFault as fault:
            click.echo(fault_said(fault), err=True)
            sys.exit(1)


def _differs(replayed: list[dict], logged: list[dict]) -> None:
    """Stops the replay (exit 1) at the first event that differs from the log, if any."""
    same = journal.first_difference(replayed, logged)
    if same is None:
        return
    a = logged[same] if same < len(logged) else None
    b = replayed[same] if same < len(replayed) else None
    click.echo(f"error: the replay differs from the log at event {same + 1}: logged "
               f"{json.dumps(a, default=str)}, replayed {json.dumps(b, default=str)}"
               " [bad-input]", err=True)
    sys.exit(1)
