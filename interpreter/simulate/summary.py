"""Simulation statistics (phase: after the run): the records of many games as statistics.

Input: for each setup of a simulation, its `SetupInfo` (who sits where, the ruleset's triggers
and decisions), its `GameRecord`s and its `Tally` (from interpreter/simulate/runner.py). Output:

- `summarize`: one setup's statistics as JSON-able data: per seat wins, win rate with a 95%
  interval, score mean, spread and quantiles; draws and shared wins; first-player advantage;
  game length; lead changes; triggers fired and decisions taken per game; the games the rules
  could not finish;
- `compare`: another setup against the base on the same seeds: each difference with its
  interval (interpreter/simulate/stats.py);
- `text_report`, `text_comparison`, `text_sweep`: the same as readable tables;
- `write_csv`: one row per game.

Statistics are over the games that ended by the rules; games stopped by a rule error are
counted and reported apart.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from operator import itemgetter, truediv
from typing import Any

from dsl.diagnostics import Diagnostic
from interpreter.compile.base import SAFE_INT
from interpreter.engine.setup import Loaded, located
from interpreter.engine.signals import RuleError
from interpreter.simulate.runner import GameRecord, Setup, game_seed
from interpreter.simulate.stats import (
    describe,
    moments,
    paired_mean_diff,
    paired_moments,
    paired_rate_diff,
    wilson,
)
from interpreter.simulate.tally import Tally


@dataclass
class SetupInfo:
    """What the report needs to know about one setup besides its games."""

    setup: Setup
    loaded: Loaded
    seats: list[tuple[int, str, str]]   # seat, player name, who plays it (policy:NAME, random)
    triggers: list[str]                 # the ruleset's triggers, in the order written
    decisions: list[str]                # its decision ids, in the order declared
    not_generated: Diagnostic | None = None  # why the interpreter plays it (None: generated)

    @property
    def label(self) -> str:
        return self.setup.label


def _answer_order(key: Any) -> tuple:
    # Numbers in numeric order, then text; never compares a number with a string.
    if isinstance(key, (int, float)) and not isinstance(key, bool):
        return (0, key, "")
    return (1, 0, str(key))


class _Columns:
    """Games' records field by field: `cols.scores` is each game's scores, in game order. Each
    field is read once, when first asked for, at C speed: a run keeps 100,000s of records,
    and a pass in Python per statistic cost a twentieth of a short game's run."""

    def __init__(self, records: Sequence[GameRecord]):
        self.records = records
        self.n = len(records)

    def __getattr__(self, name: str) -> list:
        if name not in GameRecord._fields:
            raise AttributeError(name)
        column = list(map(itemgetter(GameRecord._fields.index(name)), self.records))
        setattr(self, name, column)
        return column


def _finished(games: _Columns) -> _Columns:
    """The games that ended by the rules, by field."""
    if games.error.count(None) == games.n:
        return games
    return _Columns([r for r in games.records if r.error is None])


def _known(values: Sequence[Any]) -> Sequence[Any]:
    """The values that are not None (scores that are not numbers, games without standings)."""
    return values if None not in values else [v for v in values if v is not None]


def _all_seats_mean(scores: tuple) -> float | None:
    known = _known(scores)
    return sum(known) / len(known) if known else None


def _describe_json(values: Sequence[float]) -> dict | None:
    d = describe(values)
    return None if d is None else d.to_json()


def summarize(info: SetupInfo, records: Sequence[GameRecord], tally: Tally, seed: Any) -> dict:
    """One setup's statistics, as JSON-able data."""
    games = _Columns(records)
    done = _finished(games)
    n = done.n
    n_players = len(info.seats)
    # Games by who won: a few distinct tuples, however many games.
    won = Counter(done.winners)
    by_seat = [list(map(itemgetter(i), done.scores)) for i in range(n_players)]
    placed = [list(map(itemgetter(i), done.placements)) for i in range(n_players)]
    seats = []
    for i, (seat, name, who) in enumerate(info.seats):
        wins = sum(k for w, k in won.items() if seat in w)
        d = describe(_known(by_seat[i]))
        places = describe(placed[i])
        seats.append({
            "seat": seat, "name": name, "policy": who,
            "wins": wins,
            "sole_wins": won[(seat,)],
            "win_rate": wins / n if n else None,
            "win_rate_ci95": list(wilson(wins, n)) if n else None,
            "score_mean": d.mean.value if d else None,
            "score_mean_ci95": d.mean.to_json() if d else None,
            "score_sd": d.sd if d else None,
            "score_quantiles": d.quantiles if d else None,
            "placement_mean": places.mean.value if places else None,
        })
    if all(None not in s for s in by_seat):  # every score a number: each game's mean at C speed
        means: Sequence[Any] = list(map(truediv, map(sum, done.scores), map(len, done.scores)))
    else:
        means = _known(list(map(_all_seats_mean, done.scores)))
    out: dict[str, Any] = {
        "label": info.label,
        "variant": info.setup.variant,
        "set": dict(info.setup.sets),
        "players": n_players,
        "games": len(records),
        "finished": n,
        "seats": seats,
        "score_all_seats": _describe_json(means),
        "draws": _rate(won[()], n),
        "shared_wins": _rate(sum(k for w, k in won.items() if len(w) > 1), n),
        "first_player": _first_player(done, n_players),
        "length": _length(done),
        "lead_changes": _describe_json(_known(done.lead_changes)),
        "triggers": _triggers(info, tally, n),
        "decisions": _decisions(info, tally, n),
        "unruled": [{"policy": p, "decision": d, "times": k}
                    for (p, d), k in sorted(tally.unruled.items())],
        "errors": _errors(info, games, seed),
        "engine": "generated" if info.not_generated is None else "interpreter",
        "checked": _checked(games, seed),
    }
    if info.not_generated is not None:
        out["not_generated"] = info.not_generated.to_json()
    return out


def _rate(k: int, n: int) -> dict:
    return {"games": k, "rate": k / n if n else None, "ci95": list(wilson(k, n)) if n else None}


def _first_player(done: _Columns, n_players: int) -> dict | None:
    """How the player who took the first turn fares against a fair share: the share of wins a
    player gets on average (1/players without ties; more with shared wins)."""
    # Games by (first player, winners): a few distinct pairs, however many games.
    by_first = Counter(zip(done.first, done.winners, strict=True))
    games = [(first, winners, k) for (first, winners), k in by_first.items() if first is not None]
    if n_players < 2 or not games:
        return None
    n = sum(k for _, _, k in games)
    wins = sum(k for first, winners, k in games if first in winners)
    fair = sum(len(winners) * k for _, winners, k in games) / (n * n_players)
    lo, hi = wilson(wins, n)
    by_seat: dict[str, int] = {}
    for first, _, k in games:
        by_seat[str(first)] = by_seat.get(str(first), 0) + k
    return {"games": n, "wins": wins, "win_rate": wins / n, "ci95": [lo, hi],
            "fair_share": fair, "advantage": wins / n - fair,
            "advantage_ci95": [lo - fair, hi - fair],
            "first_seat": dict(sorted(by_seat.items(), key=lambda kv: int(kv[0])))}


def _length(done: _Columns) -> dict:
    out = {"rounds": _describe_json(done.rounds),
           "turns": _describe_json(done.turns),
           "rolls": _describe_json(done.rolls)}
    if any(done.seconds):
        out["minutes"] = _describe_json([s / 60 for s in done.seconds])
    return out


def _per_game(acc: list[int] | None, n: int) -> dict:
    total, squares, games_with = acc or (0, 0, 0)
    est, sd = moments(n, total, squares)
    return {"per_game": est.value, "ci95": est.to_json(), "sd": sd,
            "games_with": games_with / n if n else None, "total": total}


def _triggers(info: SetupInfo, tally: Tally, n: int) -> dict:
    names = list(info.triggers) + sorted(k for k in tally.fired if k not in info.triggers)
    return {name: _per_game(tally.fired.get(name), n) for name in names}


def _decisions(info: SetupInfo, tally: Tally, n: int) -> dict:
    ids = list(info.decisions) + sorted({d for d, _ in tally.chosen} - set(info.decisions))
    out = {}
    for did in ids:
        answers = sorted(((key, acc) for (d, key), acc in tally.chosen.items() if d == did),
                         key=lambda ka: _answer_order(ka[0]))
        taken = sum(acc[0] for _, acc in answers)
        out[did] = {str(key): {**_per_game(acc, n), "share": acc[0] / taken if taken else None}
                    for key, acc in answers}
    return out


def _errors(info: SetupInfo, games: _Columns, seed: Any) -> dict:
    out: dict[str, Any] = {"games": games.n - games.error.count(None)}
    if out["games"]:
        first = next(r for r in games.records if r.error is not None)
        out["first"] = {"game": first.index, "seed": game_seed(seed, first.index),
                        **located_error(info, first).to_json()}
    return out


def _checked(games: _Columns, seed: Any) -> dict:
    """The games the generated code's checked version played (their numbers passed
    ±SAFE_INT): how many, and the first."""
    out: dict[str, Any] = {"games": games.checked.count(True)}
    if out["games"]:
        first = next(r for r in games.records if r.checked)
        out["first"] = {"game": first.index, "seed": game_seed(seed, first.index)}
    return out


def located_error(info: SetupInfo, record: GameRecord):
    """A record's error as a diagnostic located in the ruleset."""
    code, message, path, pos, hint = record.error
    return located(RuleError(code, message, path, pos, hint), info.loaded.source,
                   info.loaded.positions)


# -- comparison ----------------------------------------------------------------------------------

def compare(base: SetupInfo, base_records: Sequence[GameRecord], other: SetupInfo,
            other_records: Sequence[GameRecord], other_tally: Tally) -> dict:
    """The other setup against the base, on the games (seeds) both finished: each difference
    (other - base) with its 95% interval."""
    pairs = [(b, o) for b, o in zip(base_records, other_records, strict=True)
             if b.error is None and o.error is None]
    seats = []
    for i, (seat, _, _) in enumerate(base.seats):
        scored = [(b.scores[i], o.scores[i]) for b, o in pairs
                  if b.scores[i] is not None and o.scores[i] is not None]
        seats.append({
            "seat": seat,
            "win_rate": paired_rate_diff([seat in b.winners for b, _ in pairs],
                                         [seat in o.winners for _, o in pairs]).to_json(),
            "score_mean": paired_mean_diff([b for b, _ in scored],
                                           [o for _, o in scored]).to_json(),
        })
    firsts = [(b, o) for b, o in pairs if b.first is not None and o.first is not None]
    means = [(_all_seats_mean(b.scores), _all_seats_mean(o.scores)) for b, o in pairs]
    means = [(b, o) for b, o in means if b is not None and o is not None]
    length = {what: _mean_diff(pairs, lambda r, w=what: getattr(r, w))
              for what in ("rounds", "turns", "rolls")}
    if any(b.seconds or o.seconds for b, o in pairs):
        length["minutes"] = _mean_diff(pairs, lambda r: r.seconds / 60)
    leads = [(b.lead_changes, o.lead_changes) for b, o in pairs
             if b.lead_changes is not None and o.lead_changes is not None]
    n = other_tally.paired_games

    def counter(key: tuple) -> dict:
        acc = other_tally.diffs.get(key, (0, 0, 0, 0))
        return paired_moments(n, *acc).to_json()

    trigger_names = list(base.triggers) + [t for t in other.triggers if t not in base.triggers]
    trigger_names += sorted({k[1] for k in other_tally.diffs if k[0] == "trigger"}
                            - set(trigger_names))
    decisions: dict[str, dict] = {}
    keys = sorted((k for k in other_tally.diffs if k[0] == "decision"),
                  key=lambda k: (str(k[1]), _answer_order(k[2])))
    for _, did, answer in keys:
        decisions.setdefault(did, {})[str(answer)] = counter(("decision", did, answer))
    return {
        "games": len(pairs),
        "seats": seats,
        "score_all_seats": paired_mean_diff([b for b, _ in means], [o for _, o in means]).to_json(),
        "draw_rate": paired_rate_diff([not b.winners for b, _ in pairs],
                                      [not o.winners for _, o in pairs]).to_json(),
        "shared_win_rate": paired_rate_diff([len(b.winners) > 1 for b, _ in pairs],
                                            [len(o.winners) > 1 for _, o in pairs]).to_json(),
        "first_player_win_rate": paired_rate_diff([b.first in b.winners for b, _ in firsts],
                                                  [o.first in o.winners for _, o in firsts]
                                                  ).to_json() if firsts else None,
        "length": length,
        "lead_changes": paired_mean_diff([b for b, _ in leads], [o for _, o in leads]).to_json()
        if leads else None,
        "triggers": {name: counter(("trigger", name)) for name in trigger_names},
        "decisions": decisions,
    }


def _mean_diff(pairs, get) -> dict:
    return paired_mean_diff([get(b) for b, _ in pairs], [get(o) for _, o in pairs]).to_json()


# -- text ----------------------------------------------------------------------------------------

def num(x: float | None) -> str:
    """A number for a table: few digits, but enough to tell close values apart."""
    if x is None:
        return "-"
    if float(x).is_integer() and abs(x) < 1e15:
        return f"{int(x):,}"
    ax = abs(x)
    if ax >= 100:
        return f"{x:,.1f}"
    if ax >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def pct(x: float | None) -> str:
    """A rate as a percentage."""
    return "-" if x is None else f"{100 * x:.2f}%"


def pts(x: float | None) -> str:
    """A difference of two rates, in percentage points (53% - 50% = +3 pts)."""
    return "-" if x is None else f"{100 * x:+.2f} pts"


def signed(x: float) -> str:
    """A difference of two means, signed."""
    if x == 0:
        return "0"
    return f"{x:+.3g}" if abs(x) < 1 else f"{x:+,.2f}"


def interval(ci: Sequence[float] | None, fmt=num) -> str:
    return "" if not ci else f"[{fmt(ci[0])}, {fmt(ci[1])}]"


def table(headers: list[str], rows: list[list[str]], right: set[int] | None = None) -> list[str]:
    """Rows under headers, in aligned columns (numbers right-aligned)."""
    right = right if right is not None else set(range(1, len(headers)))
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(str(c).rjust(w) if i in right else str(c).ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()
    return [line(headers)] + [line(r) for r in rows]


def text_report(stats: dict) -> list[str]:
    """One setup's statistics as readable text."""
    if stats["finished"] == 0:
        return ["no game ended by the rules: there are no statistics"]
    lines = []
    rows = []
    for s in stats["seats"]:
        q = s["score_quantiles"] or {}
        rows.append([str(s["seat"]), s["name"], s["policy"], f"{s['wins']:,}",
                     pct(s["win_rate"]), interval(s["win_rate_ci95"], pct),
                     num(s["score_mean"]), interval(s["score_mean_ci95"]), num(s["score_sd"]),
                     num(q.get("p5")), num(q.get("p50")), num(q.get("p95"))])
    lines += table(["seat", "player", "plays", "wins", "win rate", "95% CI", "score mean",
                    "95% CI", "sd", "p5", "median", "p95"], rows, right={0, 3, 4, 6, 8, 9, 10, 11})
    lines.append("")
    fp = stats["first_player"]
    if fp is not None:
        seats = fp["first_seat"]
        who = (f"seat {next(iter(seats))} moved first in every game" if len(seats) == 1
               else "the first move went to seats " + ", ".join(
                   f"{k} ({v:,})" for k, v in seats.items()))
        lines.append(f"first player: {who}; the first player wins {pct(fp['win_rate'])} "
                     f"{interval(fp['ci95'], pct)} against a fair share of "
                     f"{pct(fp['fair_share'])}: advantage {pts(fp['advantage'])} "
                     f"{interval(fp['advantage_ci95'], pts)}")
    draws, shared = stats["draws"], stats["shared_wins"]
    if stats["players"] == 1:  # a solo game nobody wins is a loss
        lines.append(f"losses (nobody wins): {draws['games']:,} ({pct(draws['rate'])})")
    else:
        lines.append(f"draws (nobody wins): {draws['games']:,} ({pct(draws['rate'])}); "
                     f"shared wins: {shared['games']:,} ({pct(shared['rate'])})")
    if stats["score_all_seats"] is not None:
        a = stats["score_all_seats"]
        lines.append(f"score per player, all seats: mean {num(a['mean'])} {interval(a['ci95'])}")
    lines.append("")
    rows = []
    for what, d in list(stats["length"].items()) + [("lead changes", stats["lead_changes"])]:
        if d is not None:
            rows.append([what, num(d["mean"]), interval(d["ci95"]), num(d["sd"]), num(d["min"]),
                         num(d["p50"]), num(d["max"])])
    lines += table(["per game", "mean", "95% CI", "sd", "min", "median", "max"], rows)
    if stats["triggers"]:
        lines.append("")
        rows = [[name, num(t["per_game"]), num(t["sd"]), pct(t["games_with"]), f"{t['total']:,}"]
                for name, t in stats["triggers"].items()]
        lines += table(["trigger", "fired per game", "sd", "in games", "total"], rows)
    if any(stats["decisions"].values()):
        lines.append("")
        rows = []
        for did, answers in stats["decisions"].items():
            for key, a in answers.items():
                rows.append([f"{did} = {key}", num(a["per_game"]), pct(a["share"]),
                             pct(a["games_with"]), f"{a['total']:,}"])
        lines += table(["decision = answer", "taken per game", "share", "in games", "total"], rows)
    wide = stats.get("checked") or {"games": 0}
    if wide["games"]:
        lines.append(f"note: {wide['games']:,} game(s) went past ±{SAFE_INT:,}, where the "
                     f"generated code's fast version stops: its checked version (every +, - "
                     f"and * tested) played them, more slowly; the first is seed "
                     f"{wide['first']['seed']}")
    for u in stats["unruled"]:
        lines.append(f"note: policy {u['policy']} has no rule for '{u['decision']}'; "
                     f"{u['times']:,} such decisions were taken at random")
    return lines


def _diff_row(what: str, d: dict | None, fmt) -> list[str] | None:
    """A row of the comparison; None for what happened in neither setup."""
    if d is None or (d["base"] == 0 and d["other"] == 0):
        return None
    shown = pts if fmt is pct else signed
    return [what, fmt(d["base"]), fmt(d["other"]), shown(d["diff"]), interval(d["ci95"], shown),
            "*" if d["significant"] else ""]


def text_comparison(label: str, diff: dict) -> list[str]:
    """A comparison as a table of differences (other - base)."""
    rows = []
    for s in diff["seats"]:
        rows.append(_diff_row(f"seat {s['seat']} win rate", s["win_rate"], pct))
        rows.append(_diff_row(f"seat {s['seat']} score mean", s["score_mean"], num))
    rows.append(_diff_row("score per player, all seats", diff["score_all_seats"], num))
    rows.append(_diff_row("first player's win rate", diff["first_player_win_rate"], pct))
    rows.append(_diff_row("draws", diff["draw_rate"], pct))
    rows.append(_diff_row("shared wins", diff["shared_win_rate"], pct))
    for what, d in diff["length"].items():
        rows.append(_diff_row(f"{what} per game", d, num))
    rows.append(_diff_row("lead changes per game", diff["lead_changes"], num))
    for name, d in diff["triggers"].items():
        rows.append(_diff_row(f"trigger {name} per game", d, num))
    for did, answers in diff["decisions"].items():
        for key, d in answers.items():
            rows.append(_diff_row(f"{did} = {key} per game", d, num))
    lines = [f"{label} against the base, on the same {diff['games']:,} seeds "
             "(difference: other - base, with its 95% interval):"]
    lines += table(["", "base", "other", "difference", "95% CI", ""],
                   [r for r in rows if r is not None])
    lines.append("* the interval excludes 0: a real difference, not luck (at the 95% level)")
    return lines


def text_sweep(name: str, points: list[dict]) -> list[str]:
    """A sweep as one row per value: mean scores, win rates, game length."""
    seats = points[0]["seats"] if points else []
    headers = [name, "games", "score/player", "95% CI"]
    headers += [f"seat {s['seat']} score" for s in seats]
    headers += [f"seat {s['seat']} wins" for s in seats]
    headers += ["rounds", "turns", "rolls"]
    clock = any("minutes" in p["length"] for p in points)
    if clock:
        headers.append("minutes")
    rows = []
    for p in points:
        a = p["score_all_seats"] or {}
        row = [str(p["value"]), f"{p['finished']:,}", num(a.get("mean")), interval(a.get("ci95"))]
        row += [num(s["score_mean"]) for s in p["seats"]]
        row += [pct(s["win_rate"]) for s in p["seats"]]
        row += [num((p["length"][w] or {}).get("mean")) for w in ("rounds", "turns", "rolls")]
        if clock:
            row.append(num((p["length"].get("minutes") or {}).get("mean")))
        rows.append(row)
    return table(headers, rows)


# -- csv -----------------------------------------------------------------------------------------

def write_csv(path: str, runs: list[tuple[str, Sequence[GameRecord]]], players: int, seed: Any,
              clock: bool) -> None:
    """One row per game and setup: the setup, the game and its seed, the winners, each seat's
    score and placement, the length, the lead changes, who moved first, the error if any."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        header = ["setup", "game", "seed", "winners"]
        header += [f"score_{k}" for k in range(1, players + 1)]
        header += [f"place_{k}" for k in range(1, players + 1)]
        header += ["rounds", "turns", "rolls", "steps"] + (["minutes"] if clock else [])
        header += ["lead_changes", "first_seat", "error"]
        w.writerow(header)
        for label, records in runs:
            for r in records:
                row: list[Any] = [label, r.index, game_seed(seed, r.index),
                                  " ".join(str(s) for s in r.winners)]
                row += ["" if s is None else s for s in r.scores]
                row += list(r.placements)
                row += [r.rounds, r.turns, r.rolls, r.steps]
                if clock:
                    row.append(round(r.seconds / 60, 6))
                row += ["" if r.lead_changes is None else r.lead_changes,
                        "" if r.first is None else r.first,
                        "" if r.error is None else f"{r.error[0]}: {r.error[1]}"]
                w.writerow(row)


