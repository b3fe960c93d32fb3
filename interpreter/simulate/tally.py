"""Phase 6, run (simulation): the counters of many games summed, per setup.

Input: each game's trigger, decision and unruled counts: dicts from the interpreter, or the
generated code's counters as they are (`RawCounts`). Output: a `Tally` (totals, sums of
squares, games where each happened; and differences against the base setup on paired games),
summed from dicts (`Tally.add_game`) or slot by slot over a chunk (`Slots`, named once at its
end); decision counts merged by component (`by_component`) and the keys a paired comparison
reads (`counter_keys`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import compress
from operator import mul
from typing import Any, NamedTuple


@dataclass
class Tally:
    """Counters of one setup, summed over games that ended by the rules. Per key: the total,
    the sum of squares (for the per-game spread) and the number of games where it happened."""

    fired: dict[str, list[int]] = field(default_factory=dict)
    chosen: dict[tuple, list[int]] = field(default_factory=dict)
    unruled: dict[tuple, int] = field(default_factory=dict)
    # Against setups[0], on the games both ended by the rules: ("trigger", name) or
    # ("decision", id, answer) -> [base total, other total, sum of differences, sum of squares].
    diffs: dict[tuple, list[int]] = field(default_factory=dict)
    paired_games: int = 0

    def add_game(self, fired: dict, chosen: dict, unruled: dict) -> None:
        for mine, theirs in ((self.fired, fired), (self.chosen, chosen)):
            for k, v in theirs.items():
                acc = mine.get(k)
                if acc is None:
                    mine[k] = [v, v * v, 1 if v else 0]
                else:
                    acc[0] += v
                    acc[1] += v * v
                    acc[2] += 1 if v else 0
        for k, v in unruled.items():
            self.unruled[k] = self.unruled.get(k, 0) + v

    def add_pair(self, base: dict, other: dict) -> None:
        self.paired_games += 1
        for k in base.keys() | other.keys():
            b, o = base.get(k, 0), other.get(k, 0)
            acc = self.diffs.get(k)
            if acc is None:
                self.diffs[k] = [b, o, o - b, (o - b) ** 2]
            else:
                acc[0] += b
                acc[1] += o
                acc[2] += o - b
                acc[3] += (o - b) ** 2

    def merge(self, other: Tally) -> None:
        # Integer sums: the order chunks arrive in cannot change them.
        for mine, theirs in ((self.fired, other.fired), (self.chosen, other.chosen),
                             (self.diffs, other.diffs)):
            for k, v in theirs.items():
                acc = mine.get(k)
                if acc is None:
                    mine[k] = list(v)
                else:
                    for i, x in enumerate(v):
                        acc[i] += x
        for k, v in other.unruled.items():
            self.unruled[k] = self.unruled.get(k, 0) + v
        self.paired_games += other.paired_games


_ITEM = re.compile(r"([A-Za-z_]\w*)\[\d+\]")


def by_component(chosen: dict[tuple, int]) -> dict[tuple, int]:
    """Decision counts with a die or card chosen counted by its component (`payment =
    red`, not one row per red die): which of interchangeable items was taken says
    nothing about the game's balance."""
    out: dict[tuple, int] = {}
    for pair, k in chosen.items():
        key = _COMPONENT.get(pair)
        if key is None:
            decision, answer = pair
            m = _ITEM.fullmatch(answer) if isinstance(answer, str) else None
            key = (decision, m.group(1)) if m else pair
            if len(_COMPONENT) < 10_000:  # a game's few answers, worked out once a process
                _COMPONENT[pair] = key
        out[key] = out.get(key, 0) + k
    return out


_COMPONENT: dict[tuple, tuple] = {}


def counter_keys(counts: Any) -> dict[tuple, int]:
    """One game's (fired, chosen, unruled) as the keys a paired comparison sums."""
    fired, chosen, _ = counts
    out: dict[tuple, int] = {("trigger", k): v for k, v in fired.items()}
    out.update({("decision", *k): v for k, v in chosen.items()})
    return out


class RawCounts(NamedTuple):
    """One game's counters as the generated code returned them (`raw` is its tuple), not yet
    named: a bulk run sums them slot by slot (`Slots`) instead of building dicts per game."""

    special: Any  # the Specialized whose tracked function played the game
    raw: tuple

    def as_dicts(self) -> tuple[dict, dict, dict]:
        """(fired, chosen by component, unruled), as the interpreter's game gives them."""
        fired, chosen, unruled = self.special.counters(self.raw, track=True)
        return fired, by_component(chosen), unruled


class Slots:
    """The counters of one generated function summed slot by slot over a chunk's games;
    `settle` adds them to a `Tally` under their names, exactly as `add_game` would have. The
    decision counters go by name (`add_game`) in a game with keyed counts, and in every game
    when two of them count one component (its sums of squares need the per-game total).

    A game's counters are kept as the game returned them and summed a batch of games at a
    time, slot by slot at C speed: summed one game at a time in Python, they cost a short
    game a fiftieth of its run."""

    BATCH = 1024

    def __init__(self, special: Any):
        fn, ck, uk = special.counted[True]
        self.special = special
        self.names = (fn, [by_component({k: 1}).popitem()[0] for k in ck], uk)
        self.by_name = len(set(self.names[1])) < len(ck)
        # Per kind (fired, chosen): per slot, the total, the sum of squares and the games.
        self.sums = tuple(([0] * len(names), [0] * len(names), [0] * len(names))
                          for names in (fn, ck))
        self.rows: tuple[list, list] = ([], [])  # per kind: games not yet summed
        self.pending = 0
        self.unruled = [0] * len(uk)

    def add(self, raw: tuple, tally: Tally) -> None:
        fired = raw[10]
        if fired:
            self.rows[0].append(fired)
        if self.by_name or raw[16]:
            tally.add_game({}, RawCounts(self.special, raw).as_dicts()[1], {})
        else:
            self.rows[1].append(raw[11])
        un = raw[12]
        if un:
            us = self.unruled
            for i in compress(range(len(un)), un):
                us[i] += un[i]
        self.pending += 1
        if self.pending == self.BATCH:
            self._sum()

    def _sum(self) -> None:
        for rows, (total, squares, games) in zip(self.rows, self.sums, strict=True):
            if rows:
                for i, counts in enumerate(zip(*rows, strict=True)):
                    if any(counts):
                        total[i] += sum(counts)
                        squares[i] += sum(map(mul, counts, counts))
                        games[i] += len(counts) - counts.count(0)
                rows.clear()
        self.pending = 0

    def settle(self, tally: Tally) -> None:
        self._sum()
        fn, ck, uk = self.names
        for names, (total, squares, games), into in zip((fn, ck), self.sums,
                                                        (tally.fired, tally.chosen),
                                                        strict=True):
            for i in compress(range(len(games)), games):
                acc = into.get(names[i])
                if acc is None:
                    into[names[i]] = [total[i], squares[i], games[i]]
                else:
                    acc[0] += total[i]
                    acc[1] += squares[i]
                    acc[2] += games[i]
        for i in compress(range(len(uk)), self.unruled):
            tally.unruled[uk[i]] = tally.unruled.get(uk[i], 0) + self.unruled[i]
