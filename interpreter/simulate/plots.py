"""Simulation charts (phase: after the run): `meeple simulate --plot FILE.png`.

Input: the statistics of a simulation (interpreter/simulate/summary.py) and the per-seat scores of its
games. Output: one image file (PNG; SVG or PDF by the file's extension):

- a run: each seat's score distribution, and each seat's win rate with its 95% interval;
- a comparison: the same for every setup, side by side;
- a sweep: mean score and win rate per seat against the swept parameter, with 95% bands.

matplotlib is an optional extra (`pip install 'meeple[plot]'`); `available` says whether it
is installed, so the command can refuse `--plot` before playing any game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

EXTRA = "pip install 'meeple[plot]'"
FORMATS = (".png", ".svg", ".pdf")


def available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _figure(rows: int, cols: int, width: float = 11.0, height: float = 4.2) -> Any:
    # A bare Figure with the Agg canvas: no pyplot, no GUI backend, no global state, so it is
    # safe in a terminal without a display and in tests.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height * rows), layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(rows, cols, squeeze=False)
    return fig, axes


def _scores_panel(ax, scores: Sequence[Sequence[float]], names: Sequence[str], title: str) -> None:
    values = [v for seat in scores for v in seat]
    if not values:
        ax.set_axis_off()
        ax.set_title(f"{title}: no numeric scores")
        return
    lo, hi = min(values), max(values)
    bins: Any
    if all(float(v).is_integer() for v in values) and hi - lo <= 80:
        # Whole-number scores: one bin per score, centred on it, so no bin holds two scores
        # and none is empty by the binning's accident.
        bins = [lo - 0.5 + i for i in range(int(hi - lo) + 2)]
    else:
        bins = 40 if hi > lo else 1
    for seat_scores, name in zip(scores, names, strict=True):
        if seat_scores:
            ax.hist(seat_scores, bins=bins, histtype="step", linewidth=1.5, label=name)
    ax.set_title(title)
    ax.set_xlabel("score")
    ax.set_ylabel("games")
    ax.legend(fontsize="small")


def _win_panel(ax, groups: Sequence[tuple[str, dict]], title: str) -> None:
    """Win rate per seat with 95% intervals; one bar per setup in each seat's group."""
    seats = [s["seat"] for s in groups[0][1]["seats"]]
    width = 0.8 / len(groups)
    top = 0.0
    for g, (label, stats) in enumerate(groups):
        xs = [i + (g - (len(groups) - 1) / 2) * width for i in range(len(seats))]
        rates = [s["win_rate"] or 0.0 for s in stats["seats"]]
        cis = [s["win_rate_ci95"] or [r, r] for s, r in zip(stats["seats"], rates, strict=True)]
        err = [[r - c[0] for r, c in zip(rates, cis, strict=True)],
               [c[1] - r for r, c in zip(rates, cis, strict=True)]]
        ax.bar(xs, rates, width, yerr=err, capsize=4, label=label)
        top = max([top] + [c[1] for c in cis])
    fp = groups[0][1].get("first_player")
    if fp is not None:
        ax.axhline(fp["fair_share"], color="grey", linestyle=":", linewidth=1,
                   label="fair share")
    ax.set_xticks(range(len(seats)), [f"seat {s}" for s in seats])
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, min(1.0, top * 1.3) or 1.0)  # room above the bars for the legend
    ax.set_title(title)
    ax.legend(fontsize="small", loc="upper right", ncol=len(groups) + 1)


def plot_run(path: str, title: str, stats: dict, scores: Sequence[Sequence[float]]) -> None:
    fig, axes = _figure(1, 2)
    names = [f"seat {s['seat']} ({s['policy']})" for s in stats["seats"]]
    _scores_panel(axes[0][0], scores, names, "score distribution")
    _win_panel(axes[0][1], [("win rate", stats)], "win rate")
    fig.suptitle(title)
    fig.savefig(path)


def plot_comparison(path: str, title: str, runs: Sequence[tuple[str, dict]],
                    scores: Sequence[Sequence[Sequence[float]]]) -> None:
    """runs: (label, statistics) per setup, the base first; scores: per setup, per seat."""
    fig, axes = _figure(1 + len(runs), 1, width=9.0, height=3.6)
    _win_panel(axes[0][0], runs, "win rate per seat")
    for k, ((label, stats), setup_scores) in enumerate(zip(runs, scores, strict=True)):
        names = [f"seat {s['seat']}" for s in stats["seats"]]
        _scores_panel(axes[k + 1][0], setup_scores, names, f"score distribution: {label}")
    fig.suptitle(title)
    fig.savefig(path)


def plot_sweep(path: str, title: str, name: str, points: Sequence[dict]) -> None:
    fig, axes = _figure(1, 2)
    xs = [p["value"] for p in points]
    numeric = all(isinstance(x, (int, float)) for x in xs)
    pos = xs if numeric else list(range(len(xs)))
    score_ax, win_ax = axes[0][0], axes[0][1]
    for i, seat in enumerate(points[0]["seats"]):
        label = f"seat {seat['seat']}"
        means = [p["seats"][i]["score_mean"] for p in points]
        cis = [p["seats"][i]["score_mean_ci95"] for p in points]
        if all(m is not None for m in means):
            score_ax.plot(pos, means, marker="o", markersize=3, label=label)
            if all(cis):
                score_ax.fill_between(pos, [c[0] for c in cis], [c[1] for c in cis], alpha=0.2)
        rates = [p["seats"][i]["win_rate"] or 0.0 for p in points]
        wcis = [p["seats"][i]["win_rate_ci95"] or [r, r] for p, r in zip(points, rates,
                                                                        strict=True)]
        win_ax.plot(pos, rates, marker="o", markersize=3, label=label)
        win_ax.fill_between(pos, [c[0] for c in wcis], [c[1] for c in wcis], alpha=0.2)
    if all(p["score_all_seats"] for p in points):
        score_ax.plot(pos, [p["score_all_seats"]["mean"] for p in points], color="black",
                      linestyle="--", label="all seats")
        if all(p["score_all_seats"]["ci95"] for p in points):
            score_ax.fill_between(pos, [p["score_all_seats"]["ci95"][0] for p in points],
                                  [p["score_all_seats"]["ci95"][1] for p in points],
                                  color="black", alpha=0.12)
    for ax, what in ((score_ax, "mean score (95% band)"), (win_ax, "win rate (95% band)")):
        ax.set_xlabel(name)
        ax.set_ylabel(what)
        ax.legend(fontsize="small")
        if not numeric:
            ax.set_xticks(pos, [str(x) for x in xs])
        elif all(isinstance(x, int) for x in xs):
            from matplotlib.ticker import MaxNLocator
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    score_ax.set_title(f"score against {name}")
    win_ax.set_title(f"win rate against {name}")
    fig.suptitle(title)
    fig.savefig(path)
