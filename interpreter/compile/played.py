"""Phase 5b, compile for simulation (specializer): a specialized game as the caller sees it.

Input: the generated function of interpreter/compile/specialize.py and what it was written for
(program, seats, scoring order and ties). Output: `Specialized.play` (a seed to the
interpreter's `Result` and counters), `try_raw` (the generated code's own tuple, for bulk
runs) and `standings` (winners and places ranked as `Game._result` ranks them).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress
from typing import Any

from interpreter.compile.base import RULE_ERRORS, Fallback, Stop
from interpreter.compile.stops import stop_error
from interpreter.engine.program import Program
from interpreter.engine.results import Result, SeatResult
from interpreter.engine.signals import RuleError
from interpreter.engine.values import pieces, plain


class GeneratorFault(Exception):
    """The generated code cannot finish a game as the language plays it: a bug of the code
    generator, reported, never hidden (nothing else plays the game instead)."""

    @classmethod
    def unlocated(cls, err: Exception) -> GeneratorFault:
        """The fault where the checked version meets a rule error it does not locate (met as
        Python's own, or a stop without a place): every rule error is located where it is
        met (interpreter/compile/stops.py), so any other is the generator's."""
        met = "a stop at a place it does not know" if isinstance(err, Stop) else \
            f"{type(err).__name__}: {err}"
        return cls(f"the generated code met a rule error it does not locate ({met})")


class ChanceDoor:
    """A game's chance source (interpreter/engine/chance.py), as a logged generated game asks
    it: dice and cards by their numbers and the table of their ids, answered with the game's
    own pieces, so a seeded source draws exactly what the interpreter's game draws and a
    dice file gives its faces, shuffles and blind draws. `sync`, when set, first brings the
    pieces' faces and zones up to date (a dice file names pieces by face and zone)."""

    def __init__(self, chance: Any, game: Any, sync: Callable[[], Any] | None = None):
        self.chance, self.sync = chance, sync
        self.items = pieces(game.env)

    def roll(self, ids: list) -> list:
        if self.sync is not None:  # a table reads who sees the dice, and what may be raised
            self.sync()
        return self.chance.roll([self.items[i] for i in ids])

    def pick(self, held: list, count: int, ids: tuple) -> list:
        return self._back(held, ids, lambda xs: self.chance.pick(xs, count))

    def order(self, held: list, ids: tuple) -> list:
        return self._back(held, ids, self.chance.order)

    def hazard(self, name: str, per_second: float, seconds: float) -> float | None:
        return self.chance.hazard(name, per_second, seconds)

    def uniform(self) -> float:
        return self.chance.uniform()

    def _back(self, held: list, ids: tuple, ask: Callable[[list], list]) -> list:
        """The numbers of the pieces the source chose among `held`."""
        if self.sync is not None:
            self.sync()
        pieces = [self.items[ids[i]] for i in held]
        number = {id(x): i for x, i in zip(pieces, held, strict=True)}
        return [number[id(x)] for x in ask(pieces)]


class Called(Exception):  # noqa: N818 - a signal, as Fallback
    """An event the table called at its dice prompt, which leaves the chance door for the
    generated code around the roll to raise (interpreter/compile/raised.py `table_roll`):
    `entry` is it as a decisions script has it ({"raise": ..., "by": ..., "at_roll": ...})."""

    def __init__(self, entry: dict):
        super().__init__(entry)
        self.entry = entry


class TimedQueue(deque):
    """A live game's scripted answers (a resumed or undone game's, a decisions file's) and
    its clock: an answer logged with the moments it was asked and answered sets the clock
    to them, as GameAsking._decide does (interpreter/compile/scripted.py `_forced_answer`)."""

    def __init__(self, entries: Any, clock: Any):
        super().__init__(entries)
        self.clock = clock


# -- the result -----------------------------------------------------------------------------------

@dataclass
class Played:
    """One specialized game: the interpreter's `Result` and counters; `first` and
    `lead_changes` when standings were tracked."""

    result: Result
    fired: dict
    chosen: dict
    unruled: dict
    first: int | None = None
    lead_changes: int | None = None
    work: int | None = None  # the items the work meter counted (Game.work)


@dataclass
class Specialized:
    """A ruleset specialized for one seat configuration."""

    program: Program
    players: int
    seats: dict[int, str]
    source: str
    play_raw: Callable[[Any], tuple] | None  # None when made `tracked_only`
    play_tracked: Callable[[Any], tuple] | None
    seat_names: list[str]
    controller_names: list[str]
    order: str
    ties: str
    has_score: bool
    seat_teams: list[str | None] = field(default_factory=list)  # each seat's team, if any
    # Per function (play_raw, play_tracked): the names of its counters, in their order in
    # the tuple it returns: triggers, (decision, answer) pairs, (policy, decision) pairs.
    counted: tuple = ((), ())
    wide: bool = False  # the checked version (interpreter/compile/numbers.py)
    widen: Callable[[], Specialized | None] | None = None  # makes it, for the fast version
    checked: int = 0  # games the checked version played on, from their seed
    _widened: Any = None

    def widened(self) -> Specialized:
        """The checked version of this code, made once: a game whose numbers pass ±SAFE_INT
        plays again there from its seed (never on the interpreter)."""
        if self._widened is None:
            made = self.widen() if self.widen is not None else None
            if made is None or (made.counted, made.seat_names) != (self.counted,
                                                                   self.seat_names):
                # The same generator on the same rules: never refused, the same counters.
                raise GeneratorFault("the checked version of the generated code was refused "
                                     "or counts other things")
            self._widened = made
        return self._widened

    def counters(self, raw: tuple, track: bool = False) -> tuple[dict, dict, dict]:
        """The trigger, decision and unruled counts of one game, as the interpreter keeps
        them (game.fired, game.chosen, game.unruled), from the generated code's counters."""
        fn, ck, uk = self.counted[track]
        fired = {fn[i]: k for i, k in enumerate(raw[10]) if k}
        ch = raw[11]
        # A decision over many items keeps a counter per option, nearly all 0: the counted
        # ones are found by `compress` at C speed, in order, not one test per counter.
        chosen = {ck[i]: ch[i] for i in compress(range(len(ch)), ch)}
        if raw[16]:
            chosen.update(raw[16])
        # One counter per place a decision is asked; the same (policy, decision) asked in two
        # places adds up, as the interpreter counts it.
        unruled: dict = {}
        un = raw[12]
        for i in compress(range(len(un)), un):
            unruled[uk[i]] = unruled.get(uk[i], 0) + un[i]
        return fired, chosen, unruled

    def play(self, seed: Any, track: bool = False) -> Played:
        """One game on `seed`: exactly what the interpreter's game on that seed gives (see
        `try_raw` for when it raises)."""
        raw = self.try_raw(seed, track)
        return Played(self._result(raw), *self.counters(raw, track), raw[13], raw[14],
                      work=raw[-1])

    def try_raw(self, seed: Any, track: bool = False) -> tuple:
        """The generated code's own tuple for one game (what a bulk run reads without a
        `Result`; `standings` ranks it), by the checked version where the game's numbers
        pass ±SAFE_INT (`Fallback`: played again from its seed, counted in `checked`), its
        steps the budget (`PastSteps`) or the rules stop it at an error the fast version
        does not locate (a `Stop` without a site, a rule error met as Python's own): played
        again to the interpreter's stop, which the checked version locates
        (interpreter/compile/stops.py). Where it does not, or where the checked version's
        game goes on where the fast one stopped, `GeneratorFault`: a fault of the code
        generator is raised, never hidden (any other exception too)."""
        stop = None
        try:
            return (self.play_tracked if track else self.play_raw)(seed)
        except Fallback:  # past ±SAFE_INT: the checked version plays the seed
            self.checked += 1
        except (Stop, *RULE_ERRORS) as err:
            # Past the step budget at an operation the fast version does not test, or a rule
            # error it does not locate (met as Python's own): the checked version, which
            # tests every step and locates the errors met inside expressions, plays the seed.
            if self.wide:
                raise GeneratorFault.unlocated(err) from err
            stop = err
        wide = self.widened()
        try:
            raw = (wide.play_tracked if track else wide.play_raw)(seed)
        except (Stop, *RULE_ERRORS) as err:
            raise GeneratorFault.unlocated(err) from err
        if stop is not None and raw[-2] is None:  # never hidden: the fast version's fault
            if isinstance(stop, Stop):
                raise GeneratorFault("the generated code stopped the game as a rule error or "
                                     "a budget would, but its checked version's game went "
                                     "on") from stop
            raise stop
        return raw

    def play_logged(self, seed: Any) -> tuple[Played, list[dict]]:
        """One game on `seed` with its log, record for record as the interpreter's game
        logs it (a `Specialized` made with `logged=True`); `GeneratorFault` as `try_raw`."""
        log: list[dict] = []
        played = self.try_logged(seed, log.append)
        if played is None:  # past ±SAFE_INT: the checked version plays it, from its seed
            self.checked += 1
            return self.widened().play_logged(seed)
        return played, log

    def try_logged(self, seed: Any, record: Callable[[dict], Any],
                   look: Callable[[Callable], Any] | None = None,
                   forced: list | None = None, chance: ChanceDoor | None = None,
                   door: Any = None, position: Any = None) -> Played | None:
        """One logged game on `seed` by the generated code alone: each record goes to
        `record` as it is made, the end's last; `look`, if given, first receives the function
        that tells the game's state as it stands (interpreter/table/mirror.py); `forced`: the
        answers of a decisions file, taken first (Game.forced; a deque is taken from as they
        are used, so what is left shows what was not); `chance`: where its chance comes from
        (default: seeded by `seed`, as the interpreter's game); `door`: a live game's
        (`specialize(live=True)`): its clock, and people's decisions
        (interpreter/table/live_door.py); `position`: where a game from a position begins
        (`specialize(positioned=True)`: interpreter/table/mirror.py `Placed`). None where the
        game's numbers pass ±SAFE_INT (the checked version, `widened`, plays it),
        `GeneratorFault` as `try_raw` (a logged game locates every rule error it meets: one
        it does not is the generator's fault): the records made so far are then not the
        whole game."""
        if chance is None:
            from interpreter.engine.setup import new_game
            game = new_game(self.program, self.players, dict(self.seats), seed=seed)
            chance = ChanceDoor(game.chance, game)
        try:
            queue = forced if isinstance(forced, deque) else deque(forced or ())
            raw = self.play_raw(seed, record, look, queue, chance, door, position)
        except Fallback:
            return None
        except (Stop, *RULE_ERRORS) as err:
            raise GeneratorFault.unlocated(err) from err
        result = self._result(raw)
        record({"t": "end", "reason": result.reason, "winners": result.winners,
                "scores": {s.name: plain(s.score) for s in result.seats},
                "hazard_queries": raw[17]})
        return Played(result, *self.counters(raw), work=raw[-1])

    def ranks(self, raw: tuple) -> tuple[tuple, tuple]:
        """The winners (seat numbers, from 1) and each seat's place, as `standings` ranks
        them, in the form a bulk run keeps. Two seats ranked by whole-number scores alone
        (most games of most rulesets) are ranked by one comparison."""
        scores, tbs, eligible, winners = raw[6:10]
        if (self.players == 2 and winners is None and eligible is None and self.has_score
                and type(scores[0]) is int and type(scores[1]) is int and not any(tbs)):
            a, b = scores
            if self.order == "lowest":
                a, b = b, a
            if a > b:
                return (1,), (1, 2)
            if b > a:
                return (2,), (2, 1)
            return ((), (1, 1)) if self.ties == "draw" else ((1, 2), (1, 1))
        won, placed, _ = self.standings(raw)
        return tuple(i + 1 for i in won), tuple(placed[i] for i in range(self.players))

    def standings(self, raw: tuple) -> tuple[list[int], dict[int, int], set[int]]:
        """As Game._result: the winners (seat indexes), each seat's place, and the seats that
        could win, ranked by (winner, eligible, score, tie-breaks)."""
        scores, tbs, eligible, winners = raw[6:10]
        n = self.players
        sign = -1 if self.order == "lowest" else 1
        if (winners is None and eligible is None and self.has_score and not any(tbs)
                and all(type(s) is int for s in scores)):
            # The common case, by score alone: the same ranking, without building keys.
            signed = [sign * s for s in scores] if sign < 0 else scores
            best = max(signed)
            won = [i for i in range(n) if signed[i] == best]
            if len(won) > 1 and self.ties == "draw":
                won = []
            # Place: 1 + the seats ranked before (a winner before all; then by score).
            placed = {i: 1 + sum(1 for j in range(n) if (j in won, signed[j])
                                 > (i in won, signed[i])) for i in range(n)}
            return won, placed, set(range(n))
        pool = [i for i in range(n) if eligible is None or eligible[i]] or list(range(n))
        if winners is None:
            if not self.has_score:
                winners = []
            else:

                def wkey(i: int) -> tuple:
                    return (sign * scores[i], *[sign * x for x in tbs[i]])
                best = max(wkey(i) for i in pool)
                winners = [i for i in pool if wkey(i) == best]
                if len(winners) > 1 and self.ties == "draw":
                    winners = []
        win, can_win = set(winners), set(pool)

        def key(i: int) -> tuple:
            s = scores[i]
            return (i in win, i in can_win, sign * s if isinstance(s, (int, float)) else 0,
                    [sign * x if isinstance(x, (int, float)) else 0 for x in tbs[i]])
        keys = [key(i) for i in range(n)]
        ranked = sorted(range(n), key=keys.__getitem__, reverse=True)
        place, last = 0, None
        placed = {}
        for j, i in enumerate(ranked):
            if keys[i] != last:
                place, last = j + 1, keys[i]
            placed[i] = place
        return winners, placed, can_win

    def error_of(self, raw: tuple) -> RuleError | None:
        """The rule error a raw game stopped with where the generated code locates it
        (interpreter/compile/stops.py); None for a game that ended by the rules."""
        if raw[-2] is None:
            return None
        error = stop_error(raw[-2], self.seat_names)
        if error is None:
            raise GeneratorFault(f"the generated code stopped a game at {raw[-2][0]!r} "
                                 "within its limits")
        return error

    def _result(self, raw: tuple) -> Result:
        """The interpreter's `Result` of a raw game (the tuple the generated code returns)."""
        reason, rounds, turns, steps, rolls, now, scores, _, eligible = raw[:9]
        error = self.error_of(raw)
        if error is not None and reason is None:  # stopped in play; scoring keeps the reason
            reason = f"stopped: {error.message}"
        winners, placed, can_win = self.standings(raw)
        out = raw[15]  # who was eliminated (None: nobody can be)
        n = self.players
        seats = [SeatResult(i + 1, self.seat_names[i], self.controller_names[i], scores[i],
                            placed[i], bool(out and out[i]),
                            self.seat_teams[i] if self.seat_teams else None,
                            i in can_win if eligible is not None and error is None else None)
                 for i in range(n)]
        return Result([self.seat_names[i] for i in winners], seats, reason, rounds, turns,
                      steps, rolls, now, error)


