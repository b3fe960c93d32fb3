"""Statistics for tests that compare two ways of playing one game (the interpreter and a
hand-written baseline): means with their standard errors, and the figures whose means lie
further apart than a given number of combined standard errors."""

from __future__ import annotations

import math

Figure = tuple[float, float]  # (mean, standard error of the mean)


def mean_se(xs: list[float]) -> Figure:
    """The mean of xs and its standard error (sample variance, n - 1)."""
    n = len(xs)
    m = sum(xs) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def compare(ours: dict[str, Figure], theirs: dict[str, Figure], z: float) -> tuple[list, list]:
    """(the figures more than z combined standard errors apart, a line for every figure),
    each line naming the figure, both means with their errors and how far apart they are."""
    off, report = [], []
    for name, (m_i, se_i) in ours.items():
        m_b, se_b = theirs[name]
        se = math.hypot(se_i, se_b)
        apart = abs(m_i - m_b) / se if se else (0.0 if m_i == m_b else math.inf)
        line = (f"{name}: interpreter {m_i:.4f} +- {se_i:.4f}, baseline {m_b:.4f} +- "
                f"{se_b:.4f} ({apart:.1f} SE apart)")
        report.append(line)
        if apart > z:
            off.append(line)
    return off, report
