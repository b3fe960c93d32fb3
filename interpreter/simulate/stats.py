"""Simulation statistics (phase: after the run): the arithmetic behind `meeple simulate`.

Input: plain numbers from many games (a count of successes, a list of per-game values, or the
sums of per-game values). Output: estimates with 95% confidence intervals, as plain floats:

- rates: the Wilson score interval (`wilson`), good down to a handful of games and never
  outside [0, 1], unlike the textbook "p +- 1.96 SE";
- means: Student's t interval (`describe`, `moments`);
- differences between two setups played on the same seeds (`paired_rate_diff`,
  `paired_mean_diff`, `paired_moments`): the games are paired by seed, so the interval is that
  of the per-game differences (for rates, Newcombe's score interval for paired proportions).

Nothing here knows about games; `interpreter/simulate/summary.py` applies it to results.
"""

from __future__ import annotations

import math
import operator
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate, repeat

Z95 = 1.959963984540054  # the standard normal's 97.5% quantile

# Student's t 97.5% quantiles for 1..30 degrees of freedom; beyond 30 a Cornish-Fisher
# expansion around Z95 is accurate to 1e-4, which is all a printed interval needs.
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
        2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
        2.060, 2.056, 2.052, 2.048, 2.045, 2.042)

QUANTILES = (("min", 0.0), ("p5", 0.05), ("p25", 0.25), ("p50", 0.5), ("p75", 0.75),
             ("p95", 0.95), ("max", 1.0))


def t95(df: int) -> float:
    """The two-sided 95% critical value of Student's t with `df` degrees of freedom."""
    if df < 1:
        raise ValueError("a t interval needs at least one degree of freedom")
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2)


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion; (0, 1) when there are no trials."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # Clamp rounding noise: at p = 0 or 1 the bound is exactly 0 or 1.
    return (max(0.0, centre - half) if successes else 0.0,
            min(1.0, centre + half) if successes < n else 1.0)


@dataclass(frozen=True)
class Estimate:
    """A mean (or rate) with its 95% interval; `lo`/`hi` are None with too few games."""

    value: float
    lo: float | None
    hi: float | None

    def to_json(self) -> list[float] | None:
        return None if self.lo is None else [self.lo, self.hi]


def _mean_interval(n: int, mean: float, var: float) -> Estimate:
    if n < 2:
        return Estimate(mean, None, None)
    half = t95(n - 1) * math.sqrt(max(var, 0.0) / n)
    return Estimate(mean, mean - half, mean + half)


def _quantile(at: Callable[[int], float], n: int, q: float) -> float:
    """The q-quantile of n sorted values (n > 0), `at(i)` the value of rank i, interpolating
    linearly between order statistics (the usual "type 7" definition, as in numpy and
    spreadsheets)."""
    pos = q * (n - 1)
    i = int(math.floor(pos))
    if i + 1 >= n:
        return float(at(n - 1))
    low = at(i)
    return low + (at(i + 1) - low) * (pos - i)


@dataclass(frozen=True)
class Description:
    """A list of per-game values summed up: n, mean with interval, sd, quantiles, total."""

    n: int
    mean: Estimate
    sd: float
    quantiles: dict[str, float]
    total: float

    def to_json(self) -> dict:
        return {"mean": self.mean.value, "ci95": self.mean.to_json(), "sd": self.sd,
                **self.quantiles, "total": self.total}


def describe(values: Sequence[float]) -> Description | None:
    """Mean, 95% interval, standard deviation and quantiles of values; None when empty."""
    n = len(values)
    if n == 0:
        return None
    # Whole numbers keep a whole total (a count of rolls reads 35699, not 35699.0), and their
    # variance is worked out exactly in whole numbers (a run keeps 100,000s). A float among
    # them makes the sum a float.
    total: float = sum(values)
    if type(total) is int:
        counts = Counter(values)
        if len(counts) * 8 <= n:
            return _described_counts(n, total, counts)
        squares = sum(map(operator.mul, values, values))
        var = (n * squares - total * total) / (n * (n - 1)) if n > 1 else 0.0
    else:
        total = math.fsum(values)
        mean = total / n
        var = (math.fsum(map(pow, map(operator.sub, values, repeat(mean)), repeat(2))) / (n - 1)
               if n > 1 else 0.0)
    ordered = sorted(values)
    return _description(n, total, var, ordered.__getitem__)


def _described_counts(n: int, total: int, counts: Counter) -> Description:
    """`describe` of whole numbers that repeat (a score, a count of turns): from how often each
    value occurs, without sorting them all."""
    distinct = sorted(counts)
    squares = sum(v * v * counts[v] for v in distinct)
    var = (n * squares - total * total) / (n * (n - 1)) if n > 1 else 0.0
    below = list(accumulate(counts[v] for v in distinct))  # values of rank < below[j]: j or less
    return _description(n, total, var, lambda i: distinct[bisect_right(below, i)])


def _description(n: int, total: float, var: float, at: Callable[[int], float]) -> Description:
    return Description(n, _mean_interval(n, total / n, var), math.sqrt(var),
                       {name: _quantile(at, n, q) for name, q in QUANTILES}, total)


def moments(n: int, total: float, squares: float) -> tuple[Estimate, float]:
    """The mean with its interval and the standard deviation of n values known only by their
    sum and sum of squares (counters summed over many games)."""
    if n <= 0:
        return Estimate(0.0, None, None), 0.0
    mean = total / n
    var = (squares - total * total / n) / (n - 1) if n > 1 else 0.0
    return _mean_interval(n, mean, var), math.sqrt(max(var, 0.0))


@dataclass(frozen=True)
class Difference:
    """Other minus base, with a 95% interval; `significant` when the interval excludes 0."""

    base: float
    other: float
    diff: float
    lo: float | None
    hi: float | None

    @property
    def significant(self) -> bool:
        return self.lo is not None and (self.lo > 0 or self.hi < 0)

    def to_json(self) -> dict:
        return {"base": self.base, "other": self.other, "diff": self.diff,
                "ci95": None if self.lo is None else [self.lo, self.hi],
                "significant": self.significant}


def paired_mean_diff(base: Sequence[float], other: Sequence[float]) -> Difference:
    """The difference of two means measured on the same games (seeds): the t interval of the
    per-game differences, which removes the luck both setups share."""
    n = len(base)
    if n != len(other):
        raise ValueError("paired samples must have the same length")
    if n == 0:
        return Difference(0.0, 0.0, 0.0, None, None)
    diffs = [o - b for b, o in zip(base, other, strict=True)]
    est, _ = moments(n, math.fsum(diffs), math.fsum(d * d for d in diffs))
    return Difference(math.fsum(base) / n, math.fsum(other) / n, est.value, est.lo, est.hi)


def paired_moments(n: int, base_total: float, other_total: float, diff_total: float,
                   diff_squares: float) -> Difference:
    """As `paired_mean_diff`, from sums: the base's and the other's totals, and the sum and
    sum of squares of the per-game differences."""
    if n <= 0:
        return Difference(0.0, 0.0, 0.0, None, None)
    est, _ = moments(n, diff_total, diff_squares)
    return Difference(base_total / n, other_total / n, est.value, est.lo, est.hi)


def paired_rate_diff(base: Sequence[bool], other: Sequence[bool]) -> Difference:
    """The difference of two rates measured on the same games: Newcombe's hybrid score
    interval for paired proportions (his method 10, 1998), built from the two Wilson
    intervals and the (continuity-corrected) correlation of the pairs. Good for small counts
    and rates near 0 or 1, where "difference +- 1.96 SE" is not."""
    n = len(base)
    if n != len(other):
        raise ValueError("paired samples must have the same length")
    if n == 0:
        return Difference(0.0, 0.0, 0.0, None, None)
    a = b = c = 0
    for x, y in zip(base, other, strict=True):
        if x and y:
            a += 1
        elif x:
            b += 1
        elif y:
            c += 1
    d = n - a - b - c
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n)
    l2, u2 = wilson(a + c, n)
    denom = (a + b) * (c + d) * (a + c) * (b + d)
    # The correlation of the pairs, shrunk by Newcombe's continuity correction when positive:
    # uncorrected, games that all agree (b = c = 0) would give an interval of width 0.
    cross = a * d - b * c
    if cross > 0:
        cross = max(cross - n / 2, 0)
    phi = cross / math.sqrt(denom) if denom else 0.0
    delta = p2 - p1
    lower = math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    upper = math.sqrt(max(0.0, (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2))
    return Difference(p1, p2, delta, max(-1.0, delta - lower), min(1.0, delta + upper))
