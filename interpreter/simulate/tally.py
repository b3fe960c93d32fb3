"""Phase 6, run (simulation): the counters of many games summed, per setup.

Input: each game's trigger, decision and unruled counts (dicts, from the generated code or the
interpreter). Output: a `Tally` (totals, sums of squares, games where each happened; and
differences against the base setup on paired games), decision counts merged by component
(`by_component`) and the keys a paired comparison reads (`counter_keys`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


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
    fired, chosen, _ = counts
    out: dict[tuple, int] = {("trigger", k): v for k, v in fired.items()}
    out.update({("decision", *k): v for k, v in chosen.items()})
    return out
