"""Phase 6, run in bulk: many seeded all-bot games of one or more setups of a ruleset, on this
process, on this machine's cores, or on a Dask cluster.

Input: a `Job` (the ruleset's text, the `Setup`s to play: variant, parameter values, seats,
players; the master seed) and a number of games. Output: an `Outcome`: for each setup, one
compact `GameRecord` per game (scores, winners, placements, length, lead changes, who moved
first, the error if the rules could not go on) and a `Tally` of counters summed over the games
(triggers fired, decisions taken), plus, when setups are compared, the sums of the per-game
differences of those counters against the first setup.

Game i of every setup is played with the seed `SEED:i` (`meeple run --seed SEED:i` plays it
again, narrated), so a record never depends on which process or machine played it, and setups
compared are compared on the same seeds. Chunks of games are merged in game order and every
counter is an integer, so the statistics are identical for any number of workers.
"""

from __future__ import annotations

import hashlib
import math
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from dsl.compiler import Env, metered
from interpreter.compile.played import Specialized
from interpreter.compile.refusals import specialized_or_refusal
from interpreter.engine.program import Program
from interpreter.engine.setup import load, new_game
from interpreter.engine.signals import RuleError
from interpreter.simulate.tally import RawCounts, Slots, Tally, by_component, counter_keys

CALIBRATION_S = 0.3   # games played here first, to size the chunks sent to workers
CHUNK_S = 0.25        # a chunk's target duration: short, so Ctrl-C and progress stay prompt
CONNECT_S = 10.0      # how long to try reaching a Dask scheduler


class SimulationError(Exception):
    """The simulation could not run (a worker failed, the cluster is unreachable)."""

    def __init__(self, message: str, hint: str | None = None, usage: bool = False):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.usage = usage  # True: a usage error (exit 2), else a failure (exit 1)


@dataclass(frozen=True)
class Setup:
    """One way to play the ruleset: what `--variant`, `--set`, `--seat` and `--players` say."""

    label: str
    variant: str | None = None
    sets: tuple[tuple[str, str], ...] = ()
    seats: tuple[tuple[int, str], ...] = ()
    players: int | None = None
    limits: tuple[tuple[str, int], ...] = ()  # budgets a person raised with --limit


@dataclass(frozen=True)
class Job:
    """Everything a worker needs, as plain data: the ruleset travels as text, so a worker on
    another machine needs no copy of the file (only meeple itself)."""

    name: str                     # the ruleset's file name, for messages
    text: str
    setups: tuple[Setup, ...]
    seed: Any
    paired: bool = False          # also sum per-game counter differences against setups[0]


def game_seed(seed: Any, index: int) -> str:
    """The seed of game `index`: the master seed and the index, as `meeple run --seed` reads
    it (`0:17` is game 17 of `--seed 0`)."""
    return f"{seed}:{index}"


class GameRecord(NamedTuple):
    """One game, compactly (a simulation keeps one per game and setup)."""

    index: int
    scores: tuple           # per seat: a number, or None when the score is not a number
    winners: tuple          # seats
    placements: tuple       # per seat
    rounds: int
    turns: int
    rolls: int
    steps: int
    seconds: float          # modelled time
    lead_changes: int | None  # None: scores were not numbers throughout
    first: int | None       # the seat that took the game's first turn
    error: tuple | None     # (code, message, path, pos, hint) when the rules could not go on
    # Played by the generated code's checked version: its numbers passed ±SAFE_INT
    # (interpreter/compile/numbers.py), where each +, - and * is tested, more slowly.
    checked: bool = False


@dataclass
class Chunk:
    """Games [start, stop) played in every setup."""

    start: int
    stop: int
    records: list[list[GameRecord]]
    tallies: list[Tally]


# -- playing -------------------------------------------------------------------------------------

_PROGRAMS: dict[tuple, Program] = {}


def program_for(job: Job, setup: Setup) -> Program:
    """The compiled program of a setup, compiled once per process (workers keep it between
    chunks)."""
    key = _program_key(job, setup)
    program = _PROGRAMS.get(key)
    if program is None:
        # A worker compiles exactly the text the command read, whatever the file holds now.
        program = load(job.name, setup.variant, dict(setup.sets), text=job.text,
                       limits=dict(setup.limits)).program
        keep_program(job, setup, program)
    return program


def keep_program(job: Job, setup: Setup, program: Program) -> None:
    """A program its caller compiled from exactly `job.text` for `setup` (as `meeple
    simulate` does to check the setup first): `program_for` gives it, not compiling the
    ruleset twice in one process."""
    key = _program_key(job, setup)
    if _PROGRAMS and next(iter(_PROGRAMS))[0] != key[0]:
        _PROGRAMS.clear()  # another ruleset (or an edited one): drop the old programs
    _PROGRAMS[key] = program


def _program_key(job: Job, setup: Setup) -> tuple:
    return (hashlib.sha256(job.text.encode("utf-8")).hexdigest(), setup.variant, setup.sets,
            setup.limits)


class _Standings:
    """Watches the standings after every turn: who moved first, and how often the lead passed
    from one player to another. The leader is the one player strictly ahead by the ruleset's
    `scoring.score` (in its order); while players are tied for the lead nobody holds it, and
    the lead changes when a player other than the last leader gets ahead."""

    def __init__(self, program: Program):
        self.score = program.scoring.get("score")
        self.sign = -1 if program.scoring.get("order") == "lowest" else 1
        self.first: int | None = None
        self.leader: int | None = None
        self.changes = 0
        self.ok = self.score is not None

    def turn_end(self, game, player) -> None:
        if self.first is None:
            self.first = player.seat
        if self.ok:
            self.look(game)

    def look(self, game) -> None:
        with metered(None):  # looking on counts no work: the game's budget is the game's
            self._look(game)

    def _look(self, game) -> None:
        best = None
        who = None
        for p in game.players:
            try:
                s = self.score(Env({"player": p}, game.env))
            except RuleError:
                self.ok = False  # the score cannot be read mid-game: no lead changes counted
                return
            if isinstance(s, bool) or not isinstance(s, (int, float)):
                self.ok = False
                return
            s = self.sign * s
            if best is None or s > best:
                best, who = s, p.seat
            elif s == best:
                who = None
        if who is not None:
            if self.leader is not None and who != self.leader:
                self.changes += 1
            self.leader = who


_SPECIALIZED: dict[tuple, tuple[Program, Specialized | None, Any]] = {}


def specialized_for(program: Program, setup: Setup) -> Specialized | None:
    """The setup as one generated function (interpreter/compile/specialize.py), made once per
    process; None when the ruleset uses something the specializer does not handle."""
    return _specialized(program, setup)[1]


def not_generated(program: Program, setup: Setup) -> tuple[str, tuple] | None:
    """Why the setup's games are played by the interpreter, not generated code: what the
    generator does not handle and the data path of the rule that uses it; None when they
    are generated."""
    return _specialized(program, setup)[2]


def _specialized(program: Program, setup: Setup) -> tuple:
    key = (id(program), setup.players, setup.seats)
    entry = _SPECIALIZED.get(key)
    if entry is None or entry[0] is not program:
        if len(_SPECIALIZED) > 64:
            _SPECIALIZED.clear()
        entry = (program, *specialized_or_refusal(program, setup.players, dict(setup.seats)))
        _SPECIALIZED[key] = entry
    return entry


def play_game(program: Program, setup: Setup, seed: str, index: int,
              raw_counts: bool = False) -> tuple[GameRecord, Any]:
    """One game without a log: its record, and (fired, chosen, unruled) counters (with
    `raw_counts`, the generated code's own as `RawCounts`, where it played); see
    `game_player`."""
    record, counts = game_player(program, setup)(seed, index)
    return record, counts if raw_counts or type(counts) is not RawCounts else counts.as_dicts()


def game_player(program: Program, setup: Setup) -> Callable[[str, int], tuple[GameRecord, Any]]:
    """The setup's games as one function of (seed, index), which a chunk calls per game: its
    generated code looked up once (per game, that lookup cost as much as a short game's
    result). A game gives its record and its counters: the generated code's own as
    `RawCounts`, or (fired, chosen, unruled) dicts where the interpreter played it. The
    specialized function plays it when the setup has one (it gives the interpreter's results
    on the same seed; its checked version where the numbers pass ±SAFE_INT: the record says
    `checked`, which the report counts; a budget or rule error it locates itself is the
    record's error, as the interpreter's; a fault of the code generator, a game that could
    not be played, with its seed, never played by anything else instead); otherwise (a
    ruleset the generator does not take, said before the games) the interpreter."""
    special = specialized_for(program, setup)
    if special is None:
        return lambda seed, index: _interpreted(program, setup, seed, index)
    tracked, try_raw, ranks, error_of = special.play_tracked, special.try_raw, special.ranks, \
        special.error_of
    new = tuple.__new__  # a record and its counts made in C: NamedTuple's __new__ is Python

    def play(seed: str, index: int) -> tuple[GameRecord, Any]:
        checked = False
        try:
            raw = tracked(seed)
        except Exception:
            # Past ±SAFE_INT, the step budget or a rule error the fast version does not
            # locate: `try_raw` plays the seed again, to the checked version's game.
            before = special.checked
            try:
                raw = try_raw(seed, True)
            except Exception as e:  # a fault of the code generator, not of the rules
                return _faulty(index, special.players, "generated code", e), ({}, {}, {})
            checked = special.checked != before
        err = raw[-2]
        if err is not None:  # a rule error the generated code locates
            err = _error(error_of(raw))
        # Read straight from the generated code's tuple: no `Result`.
        winners, placed = ranks(raw)
        return new(GameRecord, (index, _numbers(raw[6]), winners, placed, raw[1], raw[2],
                                raw[4], raw[3], float(raw[5]),
                                raw[14] if err is None else None, raw[13], err, checked)), \
            new(RawCounts, (special, raw))
    return play


def _numbers(scores: Any) -> tuple:
    """Each seat's score as a record keeps it: a number, or None for any other value."""
    for s in scores:
        if type(s) is not int and type(s) is not float:
            return tuple(s if isinstance(s, (int, float)) and not isinstance(s, bool) else None
                         for s in scores)
    return tuple(scores)


def _interpreted(program: Program, setup: Setup, seed: str, index: int
                 ) -> tuple[GameRecord, Any]:
    """One game played by the reference interpreter."""
    game = new_game(program, setup.players, dict(setup.seats), seed=seed)
    game.logging = False
    game.narrating = False
    standings = _Standings(program)
    game.on_turn_end = standings.turn_end
    try:
        result = game.run()
    except Exception as e:  # a fault of the interpreter itself, not of the rules
        return _faulty(index, game.players_n, "interpreter", e)._replace(
            rounds=game.round, turns=game.turn, rolls=game.rolls, steps=game.steps,
            seconds=float(game.clock.now()), first=standings.first), ({}, {}, {})
    if result.error is None and standings.ok:
        standings.look(game)  # the last turn, which the end of the game cut short
    first = standings.first
    if first is None and game.turn >= 1:
        first = game.current.seat  # the game ended during its first turn
    changes = standings.changes if standings.ok and result.error is None else None
    return _record(index, result, first, changes), (game.fired, by_component(game.chosen),
                                                    game.unruled)


def _faulty(index: int, players: int, who: str, e: Exception) -> GameRecord:
    """A game that `who` (the interpreter, the generated code) failed to play. One faulty
    game must not lose a long run, nor end it in a traceback: it is counted like a game the
    rules could not finish, with its seed to play it again."""
    error = ("internal-error", f"the {who} failed: {type(e).__name__}: {e}", (), None,
             "a bug in meeple, not in the ruleset: please report it, with the seed of the game")
    return GameRecord(index, (None,) * players, (), (0,) * players, 0, 0, 0, 0, 0.0, None,
                      None, error)


def _error(err: Any) -> tuple:
    """A rule error as a record keeps it: code, message, path, offsets, hint."""
    return (err.code, err.message, tuple(err.path), getattr(err, "pos", None), err.hint)


def _record(index: int, result: Any, first: int | None, changes: int | None) -> GameRecord:
    seat_of = {s.name: s.seat for s in result.seats}
    scores = tuple(s.score if isinstance(s.score, (int, float)) and not isinstance(s.score, bool)
                   else None for s in result.seats)
    error = None if result.error is None else _error(result.error)
    record = GameRecord(index, scores, tuple(seat_of[w] for w in result.winners if w in seat_of),
                        tuple(s.placement for s in result.seats), result.rounds, result.turns,
                        result.rolls, result.steps, float(result.seconds), changes,
                        first, error)
    return record


class Guard:
    """Ctrl-C as a request to stop: the first one asks the run to stop after the games under
    way and report what was completed; a second one, during a long game, abandons that game.
    Installed only in the main thread (Python delivers signals there); elsewhere Ctrl-C stays
    an ordinary KeyboardInterrupt."""

    def __init__(self) -> None:
        self.requested = False
        self.in_game = False
        self._old: Any = None
        self._installed = False

    def __enter__(self) -> Guard:
        try:
            self._old = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        except ValueError:
            pass
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, self._old)

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested and self.in_game:
            raise KeyboardInterrupt  # the second Ctrl-C: give up the game under way
        self.requested = True


def play_chunk(job: Job, start: int, stop: int, guard: Guard | None = None,
               on_game: Callable[[int], None] | None = None,
               deadline: float | None = None) -> Chunk:
    """Plays games [start, stop) in every setup (game i of every setup before game i + 1),
    stopping early when the guard asks or the deadline (perf_counter) passes; the chunk holds
    the games completed in every setup."""
    plays = [game_player(program_for(job, s), s) for s in job.setups]
    n = len(job.setups)
    chunk = Chunk(start, start, [[] for _ in range(n)], [Tally() for _ in range(n)])
    slots: list[Slots | None] = [None] * n  # per setup: its generated code's counters
    records, tallies = chunk.records, chunk.tallies
    for i in range(start, stop):
        if guard is not None and guard.requested:
            break
        seed = game_seed(job.seed, i)
        try:
            if guard is not None:
                guard.in_game = True
            played = [plays[0](seed, i)] if n == 1 else [play(seed, i) for play in plays]
        except KeyboardInterrupt:
            break  # this game index is incomplete: dropped
        finally:
            if guard is not None:
                guard.in_game = False
        for k in range(n):
            record, counts = played[k]
            records[k].append(record)
            if record.error is not None:
                continue
            if type(counts) is RawCounts:  # always of the one generated function of the setup
                sl = slots[k]
                if sl is None:
                    sl = slots[k] = Slots(counts.special)
                sl.add(counts.raw, tallies[k])
            else:
                tallies[k].add_game(*counts)
        if job.paired and played[0][0].error is None:
            base = counter_keys(_named(played[0][1]))
            for k in range(1, n):
                if played[k][0].error is None:
                    chunk.tallies[k].add_pair(base, counter_keys(_named(played[k][1])))
        chunk.stop = i + 1
        if on_game is not None:
            on_game(1)
        if deadline is not None and time.perf_counter() >= deadline:
            break
    for k, sl in enumerate(slots):
        if sl is not None:
            sl.settle(chunk.tallies[k])
    return chunk


def _named(counts: Any) -> tuple[dict, dict, dict]:
    return counts.as_dicts() if type(counts) is RawCounts else counts


def run_chunk(job: Job, start: int, stop: int) -> Chunk:
    """The task a worker process or a Dask worker runs."""
    return play_chunk(job, start, stop)


def _quiet_worker() -> None:
    # Ctrl-C at a terminal reaches every process of the group: workers leave it to the main
    # process, which stops handing out games and lets the chunks under way finish.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


# -- the outcome ---------------------------------------------------------------------------------

@dataclass
class Outcome:
    """What a simulation completed: per setup, the records in game order and the tally."""

    setups: int
    requested: int
    records: list[list[GameRecord]] = field(default_factory=list)
    tallies: list[Tally] = field(default_factory=list)
    interrupted: bool = False
    seconds: float = 0.0
    workers: int = 1
    chunks: list[Chunk] = field(default_factory=list)

    @property
    def completed(self) -> int:
        return sum(c.stop - c.start for c in self.chunks)

    def finish(self) -> Outcome:
        """Merges the chunks in game order, whatever order they arrived in."""
        self.chunks.sort(key=lambda c: c.start)
        self.records = [[r for c in self.chunks for r in c.records[k]] for k in range(self.setups)]
        self.tallies = [Tally() for _ in range(self.setups)]
        for c in self.chunks:
            for k in range(self.setups):
                self.tallies[k].merge(c.tallies[k])
        return self


Progress = Callable[[int, int, float], None]   # (games done, games asked, seconds so far)
Advance = Callable[[int], None]                 # k more games completed


def simulate(job: Job, games: int, workers: int = 1, scheduler: str | None = None,
             progress: Progress | None = None, guard: Guard | None = None) -> Outcome:
    """Plays `games` games of every setup of the job: here (workers = 1), in worker processes,
    or on the Dask cluster at `scheduler`. Stops early, keeping what was completed, when the
    guard asks (Ctrl-C)."""
    outcome = Outcome(len(job.setups), games, workers=workers)
    client = connect(scheduler) if scheduler is not None else None  # before any game
    try:
        _simulate(job, games, workers, client, progress, guard, outcome)
    finally:
        if client is not None:
            client.close()
    return outcome.finish()


def _simulate(job: Job, games: int, workers: int, client: Any, progress: Progress | None,
              guard: Guard | None, outcome: Outcome) -> None:
    began = time.perf_counter()
    done = 0

    def advanced(k: int) -> None:
        nonlocal done
        done += k
        if progress is not None:
            progress(done, games, time.perf_counter() - began)

    # First here: every run starts with a few games in this process, which also times a game
    # to size the chunks handed to workers.
    if client is not None:
        outcome.workers = max(1, sum(client.nthreads().values()))
    here = workers <= 1 and client is None
    first = play_chunk(job, 0, games, guard, advanced, None if here else began + CALIBRATION_S)
    outcome.chunks.append(first)
    if first.stop < games and not (guard is not None and guard.requested):
        per_game = (time.perf_counter() - began) / max(1, first.stop)
        if client is not None:
            _on_cluster(job, first.stop, games, per_game, client, outcome, guard, advanced)
        else:
            _on_processes(job, first.stop, games, per_game, workers, outcome, guard, advanced)
    outcome.interrupted = outcome.completed < games
    outcome.seconds = time.perf_counter() - began


def _ranges(start: int, stop: int, per_game: float, slots: int) -> list[tuple[int, int]]:
    size = max(1, int(CHUNK_S / max(per_game, 1e-6)))
    size = min(size, max(1, math.ceil((stop - start) / (slots * 4))))
    return [(a, min(stop, a + size)) for a in range(start, stop, size)]


def _on_processes(job: Job, start: int, stop: int, per_game: float, workers: int,
                  outcome: Outcome, guard: Guard | None, advanced: Advance) -> None:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    pool = ProcessPoolExecutor(workers, initializer=_quiet_worker)
    try:
        pending = {pool.submit(run_chunk, job, a, b) for a, b in _ranges(start, stop, per_game,
                                                                          workers)}
        while pending:
            done, pending = wait(pending, timeout=0.1, return_when=FIRST_COMPLETED)
            for f in done:
                _take(f.result(), outcome, advanced)
            if guard is not None and guard.requested and pending:
                # Games not yet handed out are dropped; chunks under way finish (they are
                # short) and count.
                for f in pending:
                    f.cancel()
                running = [f for f in pending if not f.cancelled()]
                finished, _ = wait(running)
                for f in finished:
                    _take(f.result(), outcome, advanced)
                break
    except Exception as e:  # a worker died or failed: say so, without a traceback
        raise SimulationError(f"a worker process failed: {type(e).__name__}: {e}") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def _take(chunk: Chunk, outcome: Outcome, advanced: Advance) -> None:
    outcome.chunks.append(chunk)
    advanced(chunk.stop - chunk.start)


def connect(address: str) -> Any:
    """A Dask client of the scheduler at `address`, or a usage error saying what is missing."""
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("--scheduler needs Dask, which is not installed",
                              "install the cluster extra: pip install 'meeple[cluster]'",
                              usage=True) from None
    try:
        return Client(address, timeout=CONNECT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError, TypeError) as e:
        raise SimulationError(f"cannot reach the Dask scheduler at {address}: {e}",
                              "start one with `dask scheduler` (and workers with `dask worker "
                              "ADDRESS`), and give its address as tcp://HOST:PORT",
                              usage=True) from None


def _on_cluster(job: Job, start: int, stop: int, per_game: float, client: Any,
                outcome: Outcome, guard: Guard | None, advanced: Advance) -> None:
    slots = outcome.workers
    pending = [client.submit(run_chunk, job, a, b, pure=False)
               for a, b in _ranges(start, stop, per_game, slots)]
    while pending:
        still = []
        for f in pending:
            if f.status == "finished":
                _take(f.result(), outcome, advanced)
            elif f.status in ("error", "cancelled"):
                exc = f.exception() if f.status == "error" else "cancelled"
                client.cancel(pending)
                raise SimulationError(f"a Dask task failed: {exc}",
                                      "every worker needs the same meeple installed")
            else:
                still.append(f)
        pending = still
        if guard is not None and guard.requested:
            client.cancel(pending)
            break
        if pending:
            time.sleep(0.05)
