"""The `meeple run` command: one game, narrated, with its result (`meeple replay` is in
interpreter/cli/replay.py).

Input: a ruleset path and the run options (players, seed, seats, dice source, scripted
decisions, parameters, variant, log file). Output: the narration and the result on stdout (or
the result as one JSON object with `--json`, the final table under "view" as the view model
of interpreter/table/view_model.py has it), the log as JSON lines with `--log`, and the exit
code: 0 the game ended, 1 the ruleset is invalid, the rules could not go on or the game
stopped before its end (its input ended, Ctrl-C), 2 usage.
"""

from __future__ import annotations

import contextlib
import json
import shlex
import sys
from pathlib import Path
from typing import Any

import click

from dsl import render
from dsl.fairness import keeps_secrets
from dsl.loader import Document
from interpreter.cli.failed import fail
from interpreter.cli.run_generated import HANDED_NOTE, HandBack, fault_said, play_generated
from interpreter.compile.played import GeneratorFault
from interpreter.compile.specialize import specialize
from interpreter.engine.chance import (
    ChanceError,
    ChanceSource,
    SeededChance,
    TableChance,
    ThenChance,
    asks_for,
)
from interpreter.engine.clock import ModelledClock, RealClock, ResumeClock
from interpreter.engine.results import Result
from interpreter.engine.setup import Loaded, SetupError, load, located, new_game
from interpreter.engine.signals import Undo
from interpreter.table import data_files, journal, position
from interpreter.table.dice_file import FileChance, read_dice
from interpreter.table.human import HumanController, hand_over
from interpreter.table.limit_option import limit_option, logged_limits
from interpreter.table.narrate import Screen, input_words, printer, result_lines
from interpreter.table.options import pairs as _pairs
from interpreter.table.options import seats as _seats
from interpreter.table.options import seed as _seed
from interpreter.table.terminal import ask, control
from interpreter.table.view_model import view_of

_UNSET = object()
TABLES = ("table", "table:faces")  # referee mode: counting where the ruleset says, or not


def _dice_source(spec: str, seed: Any, echo) -> Any:
    if spec == "seeded":
        return SeededChance(seed)
    if spec in TABLES:
        return _NotedDraws(_table(seed, echo, spec))
    return FileChance(_read(read_dice, spec))


def _read(reader, path: str) -> list:
    """A data file's entries, or its first problem, located, and exit 2."""
    try:
        return reader(path)
    except data_files.DataFileError as e:
        click.echo(render(e.diagnostic, e.source), err=True)
        sys.exit(2)


def _table(seed: Any, echo, spec: str) -> TableChance:
    """The referee's table: `table` counts what the ruleset says a table counts (`counted`
    zones, a race's `counts`); `table:faces` types every face and names every item."""
    return TableChance(ask, echo, seed, counting=spec == "table")


class _NotedDraws:
    """A table's chance source that notes, blind draw by blind draw, whether people said what
    came out. A draw of items all alike is taken without asking (TableChance.pick); undo must
    pass over it, or it would take it back, the game would take it again at once, and the
    draw people typed before it could never be reached."""

    def __init__(self, inner: ChanceSource):
        self.inner = inner
        self.asked: list[bool] = []  # one per blind draw made, in order

    def pick(self, items: list, count: int) -> list:
        asked = asks_for(items, count)
        chosen = self.inner.pick(items, count)
        self.asked.append(asked)
        return chosen

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)  # rolls, reports, `live`: the table's own


@click.command()
@click.argument("ruleset", type=click.Path(dir_okay=False), required=False)
@click.option("--players", type=int, help="Number of players (default: the ruleset's).")
@click.option("--seed", default="0", show_default=True,
              help="Seed of the dice and the bots: the same seed gives the same game.")
@click.option("--seat", "seats", multiple=True, metavar="K=WHO",
              help="Who plays seat K: human, random or policy:NAME (repeatable; default: "
                   "the ruleset's default policy).")
@click.option("--dice", default="seeded", show_default=True,
              metavar="seeded|table|table:faces|FILE",
              help="Where dice come from: a seeded generator, typed in at the table "
                   "(referee mode: what the ruleset says the table counts is counted; "
                   "table:faces types every face and names every item), or a file listing "
                   "the faces.")
@click.option("--decisions", type=click.Path(dir_okay=False),
              help="A file (YAML or JSON list) of decisions taken first, in order.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="Set a parameter (repeatable).")
@click.option("--variant", help="Play a variant of the ruleset.")
@click.option("--from", "from_path", type=click.Path(dir_okay=False), metavar="POSITION",
              help="Start from a position written in the game's words (YAML or JSON: state, "
                   "zones, dice, whose turn, round and phase), checked against the ruleset; "
                   "--json gives the final position in the same form.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write every event as JSON lines, as it happens (replay it with `meeple "
                   "replay`, continue an interrupted game with `--resume`).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False), metavar="LOG",
              help="Continue an interrupted game from its log (written with --log), exactly "
                   "where it stood; the log goes on growing.")
@limit_option
@click.option("--force", is_flag=True,
              help="Replace the --log file if it exists (without it, meeple refuses to write "
                   "over a file).")
@click.option("--json", "as_json", is_flag=True, help="Print only the result, as JSON.")
def run(ruleset, players, seed, seats, dice, decisions, sets, variant, from_path, log_path,
        resume_path, limits, force, as_json):
    """Play one game of RULESET, narrated, and print the result.

    Seats are bots unless told otherwise: `--seat 2=human` gives seat 2 to a person at this
    terminal. `--resume LOG` continues a game that was interrupted (the terminal closed, the
    process killed) from its log. Exit 0 when the game ends, 1 when the ruleset is invalid, its
    rules cannot go on or the game stopped before its end, 2 on a usage error.
    """
    if resume_path:
        ctx = click.get_current_context()
        typed = {name for name in ("seed", "dice")
                 if ctx.get_parameter_source(name) != click.core.ParameterSource.DEFAULT}
        given = [o for o, v in (("RULESET", ruleset), ("--players", players),
                                ("--seat", seats), ("--decisions", decisions), ("--set", sets),
                                ("--variant", variant), ("--from", from_path),
                                ("--log", log_path),
                                ("--limit", limits), ("--force", force),
                                ("--seed", "seed" in typed), ("--dice", "dice" in typed)) if v]
        if given:
            raise click.UsageError(f"--resume takes everything from the log; drop "
                                   f"{', '.join(given)}")
        _resume(resume_path, as_json)
        return
    if not ruleset:
        raise click.UsageError("give a RULESET to play (or --resume LOG)")
    seed_value = _seed(seed)
    seat_specs = _seats(seats)
    echo = click.echo
    try:
        loaded = load(ruleset, variant, _pairs(sets, "--set"), limits=limits)
    except SetupError as e:
        fail(e.diagnostics, e.source)
    scripted = _read(data_files.read_decisions, decisions) if decisions else []
    live = any(v == "human" for v in seat_specs.values())

    def set_up() -> Any:
        """The game as the options say, its dice file bound (a fresh one for each game)."""
        try:
            made = new_game(loaded.program, players, seat_specs,
                            _dice_source(dice, seed_value, echo), seed_value,
                            RealClock() if live else ModelledClock(), scripted,
                            human=HumanController)
        except SetupError as e:
            fail(e.diagnostics, loaded.source)
        _start(made, where)
        return made

    where = _position(position.load_position, from_path) if from_path else None
    game = set_up()
    head = journal.header(ruleset, game.players_n, seed_value,
                          [c.name for c in game.controllers], variant, loaded.sets,
                          dice if dice in TABLES or dice == "seeded" else "file")
    if limits:
        head["limits"] = limits  # replay and --resume play with the same budgets
    if where is not None:  # replay and --resume start from the same position
        head["from"] = {"path": from_path, "text": where.source.text}
    session = _Session(loaded, head, as_json, log_path, dice, where)
    writer = _writer(log_path, head, force=force)
    _seat_and_narrate(game, live or dice in TABLES, as_json, writer)
    if not as_json:
        _announce(game, loaded, seed_value, variant)
        if where is not None:
            click.echo(f"  from the position in {from_path}"
                       + (f", at phase {game.begin}" if game.begin else ""))
    session.finish(session.play(game, writer))


def _position(reader, *args) -> Document:
    """A position document, or its problem, located, and exit 2."""
    try:
        return reader(*args)
    except position.PositionError as e:
        fail(e.diagnostics, e.source)


def _start(game, where: Document | None) -> None:
    """Binds a --dice file's names to the game's pieces and puts the game at the position
    (--from); a name or a value that does not fit the ruleset is located, and exit 2."""
    if isinstance(game.chance, FileChance):
        try:
            game.chance.bind(game)
        except data_files.DataFileError as e:
            click.echo(render(e.diagnostic, e.source), err=True)
            sys.exit(2)
    if where is not None:
        position.apply(game, _position(position.check, where, game))


def logged_position(head: dict) -> Document | None:
    """The position a logged game started from (the header keeps its file's text)."""
    kept = head.get("from")
    return None if kept is None else _position(position.position_text, kept["text"],
                                               kept["path"])


def logged_ruleset(head: dict, log_path: str) -> str:
    """The ruleset a log was played with: its path as typed when that still leads to a file,
    else the absolute path the log also keeps, else the path taken from the log's folder (a
    log read from another folder than the one the game was played in)."""
    typed = str(head.get("ruleset", ""))
    for candidate in (typed, str(head.get("ruleset_abs") or ""),
                      str(Path(log_path).parent / typed)):
        if candidate and Path(candidate).is_file():
            return candidate
    return typed  # not found: loading it says so


def _writer(path: str | None, head: dict, records: list = (), force: bool = False,
            rewrite: bool = False) -> journal.Writer | None:
    """The log writer, or None without --log; a log that cannot be written (or that exists,
    without --force) is a usage error (exit 2) before the game starts. `rewrite`: the game's
    own log, replaced whole by its records so far (a resume, an undo)."""
    if not path:
        return None
    try:
        return journal.Writer(path, head, records, force=force, rewrite=rewrite)
    except journal.JournalError as e:
        raise click.BadParameter(str(e), param_hint="--log") from None


def _seat_and_narrate(game, live: bool, as_json: bool, writer, replayed: list | None = None,
                      why: str | None = "resumed"):
    """Wires narration, the shared screen of live play and the log writer into `game`.

    With `replayed` (a resumed game's logged records), the first records the game makes must
    be those: they are checked, neither written again nor narrated."""
    narrate = None if as_json else printer(click.echo)
    if live:
        # People share this terminal: each sees only their own private lines, and with two
        # or more the screen is handed over between them (narrate.Screen).
        people = [p for p, c in zip(game.players, game.controllers, strict=True)
                  if isinstance(c, HumanController)]
        # Clearing means clearing, scrollback too, where there is a terminal to clear.
        clear = (lambda: control("\x1b[2J\x1b[3J\x1b[H")) if sys.stdout.isatty() else None
        screen = Screen(click.echo, people, confirm=hand_over if len(people) > 1 else None,
                        clear=clear, secrets=keeps_secrets(game.program.data))
        for c in game.controllers:
            if isinstance(c, HumanController):
                c.screen = screen
        # People follow the game by its narration even with --json (play() sends it, with
        # their prompts, to stderr: stdout keeps the result alone).
        narrate = screen.narrate
    game.narrator = _Narrator(writer, narrate, replayed or [], None if as_json else why)


class _Narrator:
    """A game's voice: each record is written to the log and narrated; a rebuilt game's
    first records must be the logged ones it replays (`expected`), checked, neither written
    again nor narrated, and `why` (if any) then says the game goes on."""

    def __init__(self, writer: Any, narrate: Any, expected: list, why: str | None):
        self.writer, self.narrate, self.expected, self.why = writer, narrate, expected, why
        self.seen = 0

    @property
    def replaying(self) -> bool:
        return self.seen < len(self.expected)

    def __call__(self, g: Any, rec: dict) -> None:
        if self.replaying:
            got = json.loads(json.dumps(rec, ensure_ascii=False, default=str))
            if not journal.same_record(got, self.expected[self.seen]):
                raise ResumeMismatch(self.seen + 1, self.expected[self.seen], got)
            self.seen += 1
            if not self.replaying and self.why:
                click.echo(f"({self.why}: {self.seen} logged events replayed; the game goes on)")
            return
        if self.writer is not None:
            self.writer.write(rec)
        if self.narrate is not None:
            self.narrate(g, rec)


def _announce(game, loaded: Loaded, seed: Any, variant: str | None,
              controllers: list[str] | None = None) -> None:
    """The game and who plays each seat; `controllers` names them when the game's own
    controllers are not the ones that played (a replay's, which only follow the log)."""
    meta = loaded.program.data["metadata"]
    n = game.players_n
    click.echo(f"{meta['name']}: {n} player{'s' if n != 1 else ''}, seed {seed}"
               + (f", variant {variant}" if variant else ""))
    names = controllers or [c.name for c in game.controllers]
    for name, p in zip(names, game.players, strict=True):
        team = f", team {p.team.name}" if p.team is not None else ""
        click.echo(f"  seat {p.seat}: {p.name} ({name}{team})")


class ResumeMismatch(Exception):  # noqa: N818 - reported to the user, not a crash
    def __init__(self, index: int, logged: dict, replayed: dict):
        super().__init__(f"the game differs from its log at event {index}: logged "
                         f"{json.dumps(logged, default=str)}, now "
                         f"{json.dumps(replayed, default=str)} (was the ruleset changed?)")


def _resume(path: str, as_json: bool) -> None:
    """Continues an interrupted game: the log's inputs are replayed (checked event by event),
    then the game goes on with the same seats, dice source and log."""
    try:
        head, records = journal.read(path, cut_short=True)
    except journal.JournalError as e:
        click.echo(f"error: {e} [bad-input]", err=True)
        sys.exit(1)
    if records and records[-1]["t"] == "end":
        click.echo(f"The game in {path} has ended; `meeple replay {path}` shows it.")
        sys.exit(0)
    if head.get("dice") == "file":
        click.echo("error: a game whose dice came from a file cannot be resumed here; play it "
                   "again with the same --dice file and --decisions [bad-input]", err=True)
        sys.exit(2)
    try:
        loaded = load(logged_ruleset(head, path), head.get("variant"), _logged_sets(head),
                      limits=logged_limits(head))
    except SetupError as e:
        fail(e.diagnostics, e.source)
    session = _Session(loaded, head, as_json, path, head.get("dice", "seeded"),
                       logged_position(head))
    if not as_json:
        click.echo(f"Resuming from {path}:")
    game, writer = session.rebuild(records, "resumed")
    if not as_json:
        _announce(game, loaded, session.seed, head.get("variant"))
    session.finish(session.play(game, writer))


class _Session:
    """One game at the terminal, as its settings and what it took from outside (its records),
    so that it can be rebuilt from any prefix of them: to resume an interrupted game, and to
    undo the last thing the table entered."""

    def __init__(self, loaded: Loaded, head: dict, as_json: bool, log_path: str | None,
                 dice: str, where: Document | None = None):
        self.loaded, self.head, self.as_json, self.where = loaded, head, as_json, where
        self.log_path, self.dice = log_path, dice
        self.seed = head.get("seed", 0)
        self.seats = {i + 1: name for i, name in enumerate(head.get("seats") or [])}
        self.live = "human" in self.seats.values()
        self.game = None
        self.special: Any = _UNSET  # the generated code of these seats, once made
        # Handed to the checked version (numbers past the fast code's range) while not
        # replaying a resumed log: a replayed record that differs is then meeple's fault.
        self.handed_on = False

    def generated(self) -> Any:
        """The generated code that plays this session's game (interpreter/cli/run_generated.py),
        or None where the interpreter plays it: seats or rules the generator does not take
        (`meeple validate --compile` says which rules). A game from a position has code that
        begins where the position puts it."""
        if self.special is _UNSET:
            table = {"table": "counting", "table:faces": "faces"}.get(self.head.get("dice"))
            self.special = specialize(self.loaded.program, self.head["players"], self.seats,
                                      logged=True, live=self.live, table=table,
                                      positioned=self.where is not None, out=someone_out(self.game))
        return self.special

    def chance(self, records: list[dict]):
        if self.head.get("dice") in TABLES:
            # The dice typed in so far come from the records, the next from the table.
            scripted, _ = journal.script(records)
            return _NotedDraws(ThenChance(scripted, _table(self.seed, click.echo,
                                                           self.head["dice"]),
                                          len(scripted.hazards)))
        if self.head.get("dice") == "file":
            return _dice_source(self.dice, self.seed, click.echo)  # the same file again
        return SeededChance(self.seed)  # the same seed gives the same dice again

    def rebuild(self, records: list[dict], why: str | None, more: list = ()):
        """A new game that replays `records` (checked event by event), then goes on (taking
        the answers `more` first); and the log rewritten to hold exactly those records."""
        _, decisions = journal.script(records)
        decisions += more
        try:
            game = new_game(self.loaded.program, self.head["players"], self.seats,
                            self.chance(records), self.seed,
                            ResumeClock() if self.live else ModelledClock(), decisions,
                            human=HumanController)
        except SetupError as e:
            fail(e.diagnostics, self.loaded.source)
        _start(game, self.where)
        writer = _writer(self.log_path, self.head, records, rewrite=True)
        _seat_and_narrate(game, self.live or self.head.get("dice") in TABLES, self.as_json,
                          writer, records, why)
        return game, writer

    def play(self, game, writer) -> Result:
        """Plays to the end; an undo rebuilds the game without the last input and goes on.
        With --json, stdout holds the result alone: people's views and prompts go to stderr."""
        aside = contextlib.redirect_stdout(sys.stderr) if self.as_json else contextlib.nullcontext()
        with aside:
            return self._play_to_end(game, writer)

    def _play_to_end(self, game, writer) -> Result:
        while True:
            self.game = game
            try:
                result = _play(game, self)
            except HandBack as back:
                # Numbers past the fast code's range: its checked version takes the game on,
                # replaying what was played (the log as it stands), silently, then goes on;
                # said once (stderr), as the fast path never gives way to a slower one unseen.
                self.special = self.special.widened()
                click.echo(HANDED_NOTE, err=True)
                if writer is not None:
                    writer.close()
                said, old = game.narrator, game
                self.handed_on = not said.replaying
                if said.replaying:  # still replaying a resumed game's log: all of it
                    game, writer = self.rebuild(said.expected, said.why)
                else:
                    records = json.loads(json.dumps(game.log, ensure_ascii=False, default=str))
                    game, writer = self.rebuild(records, None, back.script)
                _carry_over(old, game)
                continue
            except ResumeMismatch as e:
                if self.handed_on:
                    click.echo(HandBack.disagreement(e), err=True)  # not the log's fault
                else:
                    click.echo(f"error: {e} [bad-input]", err=True)
                sys.exit(1)
            except GeneratorFault as fault:  # the game stops, said; nothing plays it on
                if writer is not None:
                    writer.close()
                click.echo(fault_said(fault), err=True)
                sys.exit(1)
            except Undo:
                records = json.loads(json.dumps(game.log, ensure_ascii=False, default=str))
                if writer is not None:
                    writer.close()
                cut = _last_input(records, self)
                if cut is None:
                    click.echo("  (nothing to undo)")
                    cut = len(records)
                else:
                    click.echo(f"  (undone: {input_words(game, records[cut])})")
                game, writer = self.rebuild(records[:cut], None)
                continue
            if writer is not None:
                writer.close()
            return result

    def finish(self, result: Result) -> None:
        _report(result, self.loaded, self.as_json, self.seed, self.game)


def _carry_over(old: Any, new: Any) -> None:
    """People go on at the same terminal when the interpreter takes their game on: what each
    has seen (their view is shown by what changed since) and who holds the shared screen,
    with the private lines kept for the others."""
    screens = []
    for was, now in zip(old.controllers, new.controllers, strict=True):
        if isinstance(was, HumanController) and isinstance(now, HumanController):
            now.seen = was.seen
            if was.screen is not None and now.screen is not None:
                screens = [was.screen, now.screen]
    if screens:
        was, now = screens
        now.pending = was.pending
        by_name = {p.name: p for p in now.people}
        now.holder = by_name.get(was.holder.name) if was.holder is not None else None


def _last_input(records: list[dict], session: _Session) -> int | None:
    """The index of the last thing people entered: a typed die or blind draw, a person's
    decision or race report, an event a person raised. Bots' decisions and seeded chance are
    never undone; a deal takes the top of a deck, so it is never typed in."""
    people = {p.name for p in session.game.players if session.seats.get(p.seat) == "human"}
    table = session.head.get("dice") in TABLES
    asked = getattr(session.game.chance, "asked", []) if table else []
    draws = [i for i, r in enumerate(records) if r["t"] == "draw" and r.get("blind")]
    typed_draws = {i for i, was_asked in zip(draws, asked, strict=False) if was_asked}
    for i in range(len(records) - 1, -1, -1):
        r = records[i]
        t = r["t"]
        # A roll of dice the table counts asked nothing (all its faces unknown); an event
        # raised at the table's dice prompt was the table's, whoever it names.
        if (t == "roll" and table and any(f is not None for f in r["faces"])) or (
                i in typed_draws) or (
                t == "decision" and not r.get("only") and r.get("by") in people) or (
                t == "race" and (table or people & set(r["claims"]))) or (
                t == "raised" and (r.get("by") in people or (table and (
                    r.get("by") == "table" or r.get("at_roll"))))):
            return i
    return None


def someone_out(game: Any) -> bool:
    """Whether someone is out in a game about to begin (a position can say so)."""
    return game is not None and any(p.eliminated for p in game.players)


def _logged_sets(head: dict) -> dict[str, str]:
    return {k: str(v) if not isinstance(v, bool) else str(v).lower()
            for k, v in (head.get("set") or {}).items()}


def _play(game, session: _Session) -> Result:
    """The game played to its end: on the generated code, or by the interpreter where the
    session says so (`_Session.generated`); `HandBack` when the generated code hands it on."""
    try:
        special = session.generated()
        if special is not None:
            return play_generated(special, game, session.where is not None)
        return game.run()
    except (ChanceError, EOFError, KeyboardInterrupt) as e:
        click.echo(f"\nThe game stopped: {_stopped(e, session)}", err=True)
        sys.exit(1)


def _stopped(e: BaseException, session: _Session) -> str:
    """Why the game stopped before its end, and how to go on with it when that is possible:
    the people (or the table) left it, and a logged game continues from its log."""
    if isinstance(e, KeyboardInterrupt):
        why = "interrupted (Ctrl-C)"
    elif isinstance(e, EOFError) or isinstance(e.__context__, EOFError):
        # The table's chance source turns the end of its input into a ChanceError.
        why = "the input ended" + (f" ({e})" if isinstance(e, ChanceError) else "")
    else:
        return f"{e}."  # a dice file ran out: playing on needs another file, not a resume
    if session.log_path and session.head.get("dice") != "file":
        return (f"{why}. It is logged: continue it with "
                f"`meeple run --resume {shlex.quote(session.log_path)}`.")
    return f"{why}. It was not logged (--log FILE), so it cannot be resumed."


def _report(result: Result, loaded: Loaded, as_json: bool, seed, game) -> None:
    if as_json:
        out = {"ruleset": loaded.path, "seed": seed, "variant": loaded.variant,
               "players": game.players_n, **result.to_json(),
               "view": view_of(game, None),  # the table at the end, as a person's view
               # ... and as a position, which --from reads back (interpreter/table/position.py)
               "position": position.position_of(game, ended=result.error is None)}
        if result.error is not None:
            out["error"] = located(result.error, loaded.source, loaded.positions).to_json()
        click.echo(json.dumps(out, indent=2, default=str))
    else:
        for line in result_lines(result):
            click.echo(line)
        if game.unruled:
            for (policy, did), n in sorted(game.unruled.items()):
                click.echo(f"  note: policy {policy} has no rule for '{did}'; "
                           f"{n} such decision{'s were' if n != 1 else ' was'} taken at random")
    if result.error is not None:
        click.echo(render(located(result.error, loaded.source, loaded.positions),
                          loaded.source), err=True)
        sys.exit(1)
    sys.exit(0)
