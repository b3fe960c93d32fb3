"""`meeple simulate`: balance statistics over many seeded games.

The known figures are reproduced within 4 standard errors (a correct engine fails such a check
with probability about 6e-5; the sample sizes and the wrong rules each tolerance excludes are
worked out beside each test). The rest checks the promises of docs/simulate.md: the same
results for any number of workers or a Dask cluster, the JSON shape, comparisons on the same
seeds, sweeps, CSV, charts, usage errors without tracebacks, and Ctrl-C.

Runtime: about 20 to 30 s on two cores (Pig's 10,000 games and the Dask cluster dominate).
"""

from __future__ import annotations

import csv
import dataclasses
import itertools
import json
import math
import os
import pty
import random
import select
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.cli.main import main
from interpreter.compile.base import Stop
from interpreter.simulate import stats
from tests.conftest import ROOT

PIG = str(ROOT / "rulesets" / "pig.yaml")
WRECKDIVERS = str(ROOT / "rulesets" / "wreckdivers.yaml")
MEEPLE = [sys.executable, "-m", "interpreter.cli"]  # the command, whatever installed it
Z = 4
TIMING = ("seconds", "games_per_s", "workers")  # how fast and where, not what


def simulate(*args: str):
    return CliRunner().invoke(main, ["simulate", *args])


def simulate_json(*args: str) -> dict:
    out = simulate(*args, "--json")
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)  # warnings (a slower engine) go to stderr


def without_timing(result: dict) -> dict:
    return {k: v for k, v in result.items() if k not in TIMING}


# -- known figures -------------------------------------------------------------------------------

PIG_FIRST_WINS = 0.534698  # Neller & Presser (2004), hold at 20 on both seats
PIG_GAMES = 10_000
# SE = sqrt(p(1-p)/N) = 0.00499 at N = 10,000; 4 SE = 0.0200: [0.5147, 0.5547]. That excludes
# "no first-player advantage" (0.5) and the wrong rules of tests/test_pig_figures.py ("a 1 keeps
# the turn total": 0.572; "the other player gets a last turn": 0.492).
PIG_TOL = Z * math.sqrt(PIG_FIRST_WINS * (1 - PIG_FIRST_WINS) / PIG_GAMES)


def test_pig_tolerance_separates_the_figure_from_no_advantage_and_wrong_rules():
    assert PIG_FIRST_WINS - PIG_TOL > 0.5
    assert PIG_FIRST_WINS + PIG_TOL < 0.572 and PIG_FIRST_WINS - PIG_TOL > 0.492


def test_pig_first_player_wins_0_5347_with_hold_at_20_on_both_seats():
    r = simulate_json(PIG, "--games", str(PIG_GAMES), "--workers", "2",
                      "--seat", "1=policy:hold_at_20", "--seat", "2=policy:hold_at_20")
    assert r["games"] == PIG_GAMES and r["seats"][0]["policy"] == "policy:hold_at_20"
    first = r["first_player"]
    assert first["first_seat"] == {"1": PIG_GAMES}
    assert abs(first["win_rate"] - PIG_FIRST_WINS) <= PIG_TOL, first
    assert first["win_rate"] == r["seats"][0]["win_rate"]
    # Pig has no draws and no shared wins: the two seats' wins add up to the games.
    assert r["seats"][0]["wins"] + r["seats"][1]["wins"] == PIG_GAMES
    # The reported interval is the Wilson interval of the count: about 2 x 1.96 SE wide.
    lo, hi = r["seats"][0]["win_rate_ci95"]
    assert (lo, hi) == stats.wilson(r["seats"][0]["wins"], PIG_GAMES)
    assert lo < first["win_rate"] < hi and abs((hi - lo) - 2 * 1.96 * 0.00499) < 0.0005


# Wreckdivers: a roll is two white and two red d6. Double reds are a shark (1/6 of rolls); with
# no sharks at all, white above red finds the difference, doubled on double whites:
# 1075/648 = 1.659 gold per roll. The engine exposes both: the shark trigger's count, and, with
# score_source=as_recorded, the `recorded_gain` decision the policy answers with each find.
# Dive rolls are all rolls but the one dive-time roll of each turn. threshold=1000 keeps the
# bots diving until the timer is nearly out, so a game has about 70 dive rolls.
SHARK = Fraction(1, 6)
GOLD_BEFORE_SHARKS = Fraction(1075, 648)
WRECK_GAMES = 600  # about 42,000 dive rolls
NO_SHARKS = """
  no_sharks:
    doc: No sharks at all (the test's own variant).
    merge:
      triggers:
        shark:
          if: "false"
"""


def _roll_gold(shark: bool) -> list[tuple[Fraction, int]]:
    """Each of the 1296 rolls' gold, by the rule text (a shark roll finds none)."""
    out = []
    for w1, w2, r1, r2 in itertools.product(range(1, 7), repeat=4):
        diff = w1 + w2 - r1 - r2
        gold = 0 if diff <= 0 or (shark and r1 == r2) else (2 * diff if w1 == w2 else diff)
        out.append(gold)
    return out


def test_wreckdivers_figures_follow_from_the_rule_text():
    golds = _roll_gold(shark=False)
    assert Fraction(sum(golds), len(golds)) == GOLD_BEFORE_SHARKS
    assert Fraction(sum(1 for w1, w2, r1, r2 in itertools.product(range(1, 7), repeat=4)
                        if r1 == r2), 1296) == SHARK


def test_wreckdivers_sharks_come_on_one_roll_in_six_and_a_roll_finds_1075_648_gold(tmp_path):
    text = Path(WRECKDIVERS).read_text(encoding="utf-8")
    assert text.count("\nvariants:\n") == 1
    ruleset = tmp_path / "wreckdivers.yaml"
    ruleset.write_text(text.replace("\nvariants:\n", "\nvariants:\n" + NO_SHARKS.lstrip("\n")),
                       encoding="utf-8")
    r = simulate_json(str(ruleset), "--games", str(WRECK_GAMES), "--set",
                      "score_source=as_recorded", "--set", "threshold=1000",
                      "--vs", "variant=no_sharks")
    base, no_sharks = r, r["vs"][0]
    assert base["errors"]["games"] == 0 and no_sharks["errors"]["games"] == 0

    def dive_rolls(s: dict) -> int:
        return s["length"]["rolls"]["total"] - s["length"]["turns"]["total"]

    def gold(s: dict) -> int:
        return sum(int(k) * a["total"] for k, a in s["decisions"]["recorded_gain"].items())

    rolls = dive_rolls(base)
    assert rolls > 35_000
    # Sharks: one Bernoulli trial per roll (each roll is independent of the decisions before
    # it): SE = sqrt(5/36 / 42,000) = 0.0018, 4 SE = 0.0073, which excludes "doubles of either
    # colour" (11/36) and "double reds but not with double whites" (5/36 = 0.139).
    sharks = base["triggers"]["shark"]["total"] / rolls
    tol = Z * math.sqrt(float(SHARK * (1 - SHARK)) / rolls)
    assert abs(sharks - float(SHARK)) <= tol, (sharks, tol)
    assert float(SHARK) + tol < 11 / 36 and float(SHARK) - tol > 5 / 36
    # Gold: the per-roll standard deviation of the exact distribution (2.93) over the rolls:
    # SE = 0.014, 4 SE = 0.057, which excludes 854/648 = 1.318 (sharks taking their own roll's
    # gold) and "double whites do not double" (1.34).
    golds = _roll_gold(shark=False)
    mean = sum(golds) / len(golds)
    sd = math.sqrt(sum((g - mean) ** 2 for g in golds) / len(golds))
    assert no_sharks["triggers"]["shark"]["total"] == 0
    no_shark_rolls = dive_rolls(no_sharks)
    found = gold(no_sharks) / no_shark_rolls
    gold_tol = Z * sd / math.sqrt(no_shark_rolls)
    assert abs(found - float(GOLD_BEFORE_SHARKS)) <= gold_tol, (found, gold_tol)
    assert float(GOLD_BEFORE_SHARKS) - gold_tol > 854 / 648 + 0.02
    # With sharks, a shark roll finds nothing: 854/648 per roll.
    shark_golds = _roll_gold(shark=True)
    m2 = sum(shark_golds) / 1296
    sd2 = math.sqrt(sum((g - m2) ** 2 for g in shark_golds) / 1296)
    assert abs(gold(base) / rolls - 854 / 648) <= Z * sd2 / math.sqrt(rolls)
    # The comparison sees the same thing: sharks gone, more gold found, significantly.
    diff = no_sharks["differences"]
    assert diff["triggers"]["shark"]["diff"] < 0 and diff["triggers"]["shark"]["significant"]
    assert diff["score_all_seats"]["diff"] > 0 and diff["score_all_seats"]["significant"]


# -- the same results anywhere -------------------------------------------------------------------

def test_one_and_two_workers_give_the_identical_json_apart_from_timing():
    args = (WRECKDIVERS, "--games", "500", "--seed", "7", "--vs", "set:threshold=15")
    one = simulate_json(*args, "--workers", "1")
    two = simulate_json(*args, "--workers", "2")
    assert one["workers"] == 1 and two["workers"] == 2
    assert without_timing(one) == without_timing(two)


def test_a_dask_cluster_gives_the_results_of_a_local_run():
    distributed = pytest.importorskip("distributed")  # in the test extra: never skipped in CI
    args = (PIG, "--games", "2000", "--seed", "3")
    local = simulate_json(*args)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", protocol="tcp", dashboard_address=":0",
                                  silence_logs=50) as cluster:
        remote = simulate_json(*args, "--scheduler", cluster.scheduler_address)
    assert remote["workers"] == 2
    assert without_timing(remote) == without_timing(local)


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("interpreter.simulate.runner.CONNECT_S", 1.0)
    out = simulate(PIG, "--games", "10", "--scheduler", "tcp://127.0.0.1:9")
    assert out.exit_code == 2, out.output
    assert "cannot reach the Dask scheduler" in out.output and "Traceback" not in out.output


def test_game_i_is_the_game_meeple_run_plays_with_seed_s_colon_i(tmp_path):
    path = tmp_path / "games.csv"
    simulate_json(PIG, "--games", "5", "--seed", "11", "--csv", str(path))
    rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
    assert rows[4]["game"] == "4" and rows[4]["seed"] == "11:4"
    played = CliRunner().invoke(main, ["run", PIG, "--seed", "11:4", "--json"])
    assert played.exit_code == 0, played.output
    game = json.loads(played.output)
    assert [int(rows[4]["score_1"]), int(rows[4]["score_2"])] == [s["score"] for s in
                                                                  game["seats"]]
    assert int(rows[4]["turns"]) == game["turns"] and int(rows[4]["rolls"]) == game["rolls"]


# -- what the report holds -----------------------------------------------------------------------

def test_the_json_holds_the_promised_fields():
    r = simulate_json(WRECKDIVERS, "--games", "200")
    for key in ("games", "seed", "seconds", "games_per_s", "seats", "draws", "shared_wins",
                "first_player", "length", "lead_changes", "triggers", "decisions", "errors"):
        assert key in r, key
    assert r["games"] == 200 and r["seed"] == 0 and r["games_per_s"] > 0
    assert [s["seat"] for s in r["seats"]] == [1, 2, 3]
    for s in r["seats"]:
        assert s["policy"] == "policy:threshold"
        assert s["win_rate"] == s["wins"] / 200
        lo, hi = s["win_rate_ci95"]
        assert 0 <= lo < s["win_rate"] < hi <= 1
        lo, hi = s["score_mean_ci95"]
        assert lo < s["score_mean"] < hi
        q = s["score_quantiles"]
        assert q["min"] <= q["p5"] <= q["p50"] <= q["p95"] <= q["max"]
    # Every game has a sole winner, a shared win or no winner.
    sole = sum(s["sole_wins"] for s in r["seats"])
    assert sole + r["shared_wins"]["games"] + r["draws"]["games"] == 200
    assert set(r["length"]) == {"rounds", "turns", "rolls", "minutes"}  # the dive clock
    assert r["length"]["turns"]["mean"] == 9  # three rounds of three divers
    assert set(r["triggers"]) >= {"shark", "gold", "double_whites", "out_of_time"}
    assert r["triggers"]["shark"]["per_game"] > 0
    dive = r["decisions"]["dive_action"]
    assert set(dive) == {"roll", "ascend"}
    assert abs(dive["roll"]["share"] + dive["ascend"]["share"] - 1) < 1e-12
    assert r["decisions"]["tens_colour"]["white"]["per_game"] == 9


def test_the_text_report_is_a_table_with_intervals():
    out = simulate(PIG, "--games", "300")
    assert out.exit_code == 0, out.output
    text = out.output
    assert "Pig: 300 games of 2 players, seed 0" in text and "games/s" in text
    assert "win rate" in text and "95% CI" in text
    assert "first player: seat 1 moved first in every game" in text
    assert "roll_or_hold = hold" in text
    assert "\r" not in text  # no progress without a terminal


LADDER = """\
meeple: 1
metadata:
  name: Ladder
  summary: Each turn the player gains as many points as turns have been played.
players: {min: 2, max: 2}
state:
  player:
    score: {type: int, initial: 0, doc: Points.}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {times: 3}
      do:
        - add: {current.score: turn}
scoring:
  score: player.score
variants:
  second_starts:
    doc: The second seat starts every round.
    merge:
      flow:
        phases:
          play:
            turns: {first: "players[1]"}
"""


def test_lead_changes_and_the_first_player_follow_the_turns(tmp_path):
    # Turn t scores t points: the lead passes at every turn after the first (1-0, 1-2, 4-2,
    # 4-6, 9-6, 9-12): five lead changes, and the second to move wins 12 to 9.
    path = tmp_path / "ladder.yaml"
    path.write_text(LADDER, encoding="utf-8")
    r = simulate_json(str(path), "--games", "3", "--vs", "variant=second_starts")
    assert r["lead_changes"]["mean"] == 5 and r["lead_changes"]["sd"] == 0
    assert r["first_player"]["first_seat"] == {"1": 3} and r["first_player"]["win_rate"] == 0
    assert [s["score_mean"] for s in r["seats"]] == [9, 12]
    other = r["vs"][0]
    assert other["first_player"]["first_seat"] == {"2": 3}
    assert [s["score_mean"] for s in other["seats"]] == [12, 9]
    d = other["differences"]["seats"][0]
    assert d["win_rate"]["diff"] == 1 and d["score_mean"]["diff"] == 3


def test_games_stopped_by_a_rule_error_are_counted_located_and_replayable(tmp_path):
    path = tmp_path / "brittle.yaml"
    path.write_text(LADDER.replace("- add: {current.score: turn}",
                                   "- add: {current.score: '12 // (turn - 3)'}"),
                    encoding="utf-8")
    out = simulate(str(path), "--games", "4")
    assert out.exit_code == 1, out.output
    assert "4 of 4 games stopped with an error" in out.output
    assert "division by zero" in out.output and "brittle.yaml:15:" in out.output
    assert f"meeple run {path} --seed 0:0" in out.output
    assert "Traceback" not in out.output


def test_a_fault_of_the_interpreter_in_one_game_is_reported_not_raised(monkeypatch):
    from interpreter.engine.game import Game

    run = Game.run

    def faulty(game):
        if game.seed == "0:2":
            raise ValueError("a bug")
        return run(game)

    monkeypatch.setattr(Game, "run", faulty)
    # Only games the interpreter plays reach Game.run: keep the specializer out of this one.
    monkeypatch.setattr("interpreter.simulate.runner.specialized_for", lambda program, setup: None)
    out = simulate(PIG, "--games", "5")
    assert out.exit_code == 1, out.output
    assert "1 of 5 games stopped with an error; the first, game 2:" in out.output
    assert "the interpreter failed: ValueError: a bug" in out.output
    assert "--seed 0:2" in out.output and "Traceback" not in out.output


@pytest.mark.parametrize("fault,checked_too,said", [
    (TypeError("a generator bug"), False, "TypeError: a generator bug"),
    (Stop(), False, "GeneratorFault: the generated code stopped the game as a rule error or a "
                    "budget would, but its checked version's game went on"),
    (ZeroDivisionError("division by zero"), True,
     "GeneratorFault: the generated code met a rule error it does not locate "
     "(ZeroDivisionError: division by zero)"),
    (Stop(), True, "GeneratorFault: the generated code met a rule error it does not locate (a "
                   "stop at a place it does not know)")])
def test_a_fault_of_the_generated_code_is_reported_and_nothing_plays_the_game_instead(
        monkeypatch, fault, checked_too, said):
    # A Python error that is no rule's, a stop where the checked version's game goes on, or
    # (in the checked version too) a rule's error met where the generated code does not
    # locate it: the game is reported as meeple's fault, with its seed; nothing else plays
    # it (no other engine's result could stand in for it unseen).
    from interpreter.simulate import runner

    real = runner.specialized_for

    def broken(special):
        tracked = special.play_tracked

        def play(seed):
            if seed == "0:2":
                raise fault
            return tracked(seed)
        return dataclasses.replace(special, play_tracked=play)

    def faulty_for(program, setup):
        special = real(program, setup)
        if checked_too:
            wide = broken(special.widened())
            return broken(dataclasses.replace(special, widen=lambda: wide, _widened=None))
        return broken(special)

    monkeypatch.setattr(runner, "specialized_for", faulty_for)
    out = simulate(PIG, "--games", "5")
    assert out.exit_code == 1, out.output
    assert "1 of 5 games stopped with an error; the first, game 2:" in out.output
    assert f"the generated code failed: {said}" in out.output and "[internal-error]" in out.output
    assert "Traceback" not in out.output
    r = json.loads(simulate(PIG, "--games", "5", "--json").stdout)
    assert r["engine"] == "generated" and r["errors"]["games"] == 1


# -- comparisons and sweeps ----------------------------------------------------------------------

def test_vs_compares_a_variant_on_the_same_seeds_with_intervals():
    r = simulate_json(WRECKDIVERS, "--games", "300", "--vs", "variant=long_game")
    plain = simulate_json(WRECKDIVERS, "--games", "300")
    # The base is exactly the plain run: the same seeds, the same games.
    assert r["seats"] == plain["seats"] and r["length"] == plain["length"]
    other = r["vs"][0]
    assert other["label"] == "variant=long_game" and other["variant"] == "long_game"
    d = other["differences"]
    assert d["games"] == 300
    # Five rounds instead of three: exactly two more rounds and six more turns in every game.
    assert d["length"]["rounds"] == {"base": 3, "other": 5, "diff": 2, "ci95": [2, 2],
                                     "significant": True}
    assert d["length"]["turns"]["diff"] == 6
    for s in d["seats"]:
        lo, hi = s["score_mean"]["ci95"]
        assert 0 < lo <= s["score_mean"]["diff"] <= hi and s["score_mean"]["significant"]
        lo, hi = s["win_rate"]["ci95"]
        assert lo <= s["win_rate"]["diff"] <= hi
    text = simulate(WRECKDIVERS, "--games", "300", "--vs", "variant=long_game").output
    assert "variant=long_game against the base, on the same 300 seeds" in text
    assert "rounds per game" in text and "* the interval excludes 0" in text


def test_vs_a_seat_policy_shows_a_real_difference():
    # A random player in seat 2 loses far more often than hold-at-20.
    r = simulate_json(PIG, "--games", "400", "--vs", "seat:2=random")
    other = r["vs"][0]
    assert other["seats"][1]["policy"] == "policy:random"  # Pig's own random policy
    d = other["differences"]["seats"][0]["win_rate"]
    assert d["diff"] > 0.2 and d["significant"]


def test_vs_a_parameter_changes_only_that_parameter():
    r = simulate_json(PIG, "--games", "200", "--set", "goal=50", "--vs", "set:hold_at=25")
    assert r["set"] == {"goal": "50"}
    assert r["vs"][0]["set"] == {"goal": "50", "hold_at": "25"}


def test_sweep_reports_each_value_as_a_run_with_that_value():
    r = simulate_json(WRECKDIVERS, "--games", "150", "--sweep", "threshold=5..25:10")
    sweep = r["sweep"]
    assert sweep["parameter"] == "threshold"
    assert [p["value"] for p in sweep["values"]] == [5, 15, 25]
    single = simulate_json(WRECKDIVERS, "--games", "150", "--set", "threshold=15")
    point = sweep["values"][1]
    assert point["seats"] == single["seats"] and point["length"] == single["length"]
    # Ascending later means more rolls per game.
    rolls = [p["length"]["rolls"]["mean"] for p in sweep["values"]]
    assert rolls[0] < rolls[1] < rolls[2]
    text = simulate(WRECKDIVERS, "--games", "150", "--sweep", "threshold=5..25:10").output
    header = text.splitlines()[3]
    assert header.split()[:4] == ["threshold", "games", "score/player", "95%"]
    assert [line.split()[0] for line in text.splitlines()[4:7]] == ["5", "15", "25"]


def test_sweep_takes_a_list_of_values_for_a_choice_parameter():
    r = simulate_json(WRECKDIVERS, "--games", "50", "--sweep", "double_double=shark,gold")
    assert [p["value"] for p in r["sweep"]["values"]] == ["shark", "gold"]


def test_sweep_of_a_number_parameter_takes_fractional_steps():
    r = simulate_json(WRECKDIVERS, "--games", "20", "--sweep", "margin=0.5..1.5:0.5")
    assert [p["value"] for p in r["sweep"]["values"]] == [0.5, 1, 1.5]


# -- files ---------------------------------------------------------------------------------------

def test_csv_has_one_row_per_game_and_setup_matching_the_statistics(tmp_path):
    path = tmp_path / "games.csv"
    r = simulate_json(WRECKDIVERS, "--games", "120", "--vs", "variant=long_game",
                      "--csv", str(path))
    rows = list(csv.DictReader(path.read_text(encoding="utf-8").splitlines()))
    assert len(rows) == 240
    assert [row["setup"] for row in rows] == ["base"] * 120 + ["variant=long_game"] * 120
    base = rows[:120]
    assert [row["seed"] for row in base] == [f"0:{i}" for i in range(120)]
    for k, seat in enumerate(r["seats"], start=1):
        wins = sum(1 for row in base if str(k) in row["winners"].split())
        assert wins == seat["wins"]
        mean = sum(int(row[f"score_{k}"]) for row in base) / 120
        assert abs(mean - seat["score_mean"]) < 1e-9
    assert sum(int(row["rolls"]) for row in base) == r["length"]["rolls"]["total"]
    assert {row["rounds"] for row in rows[120:]} == {"5"}
    assert all(float(row["minutes"]) > 0 for row in rows)


def _is_png(path: Path) -> bool:
    data = path.read_bytes()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


@pytest.mark.parametrize("extra", [[], ["--vs", "variant=long_game"],
                                   ["--sweep", "threshold=5..15:5"]],
                         ids=["run", "vs", "sweep"])
def test_plot_writes_a_real_png(tmp_path, extra):
    pytest.importorskip("matplotlib")  # in the test extra: never skipped in CI
    path = tmp_path / "chart.png"
    out = simulate(WRECKDIVERS, "--games", "60", "--plot", str(path), *extra)
    assert out.exit_code == 0, out.output
    assert _is_png(path)
    assert f"wrote {path}" in out.output


def test_plot_without_matplotlib_is_a_usage_error_naming_the_extra(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    path = tmp_path / "chart.png"
    out = simulate(PIG, "--games", "10", "--plot", str(path))
    assert out.exit_code == 2, out.output
    assert "--plot needs matplotlib" in out.output and "pip install 'meeple[plot]'" in out.output
    assert "Traceback" not in out.output and not path.exists()


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("args, message", [
    (["--variant", "nope"], "unknown variant 'nope'"),
    (["--vs", "variant=nope"], "unknown variant 'nope'"),
    (["--games", "0"], "0 is not in the range x>=1"),
    (["--workers", "0"], "0 is not in the range x>=1"),
    (["--set", "gaol=3"], "unknown parameter 'gaol' (did you mean 'goal'?)"),
    (["--sweep", "gaol=1..3"], "unknown parameter 'gaol'"),
    (["--sweep", "goal"], "is not NAME=LO..HI[:STEP] or NAME=A,B,C"),
    (["--sweep", "goal=10..x"], "'x' is not a number"),
    (["--sweep", "goal=30..10"], "10 is below 30"),
    (["--sweep", "goal=10..30:0"], "the step must be above 0"),
    (["--sweep", "goal=1..100000"], "at most 200"),
    (["--sweep", "goal=0..10"], "below the minimum 1"),
    (["--sweep", "goal=10..20", "--set", "goal=5"], "both set it"),
    (["--sweep", "goal=10..20", "--vs", "set:goal=3"], "cannot be combined"),
    (["--vs", "colour=red"], "is not a change meeple knows"),
    (["--vs", "set:goal"], "is not set:NAME=VALUE"),
    (["--vs", "seat:x=random"], "is not seat:K=POLICY"),
    (["--set", "goal=50", "--vs", "set:goal=50"], "is the base setup itself"),
    (["--seat", "2=human"], "seat 2 cannot be human"),
    (["--seat", "3=random"], "seat 3 does not exist"),
    (["--seat", "1=policy:nope"], "unknown seat controller"),
    (["--players", "3"], "takes 2 to 2 players"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "cannot be combined"),
    (["--plot", "chart.txt"], "the file must end in .png"),
    (["--csv", "/no/such/folder/games.csv"], "does not exist"),
])
def test_bad_input_is_a_clear_usage_error_without_a_traceback(args, message):
    out = simulate(PIG, "--games", "10", *args)
    assert out.exit_code == 2, out.output
    assert message in out.output
    assert "Traceback" not in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)


def test_a_missing_ruleset_is_reported_not_raised(tmp_path):
    out = simulate(str(tmp_path / "none.yaml"), "--games", "10")
    assert out.exit_code in (1, 2) and "Traceback" not in out.output
    assert isinstance(out.exception, SystemExit)


# -- Ctrl-C --------------------------------------------------------------------------------------

def _interrupt(workers: int, group: bool) -> tuple[int, dict, str]:
    """Starts a long simulation with stderr on a terminal, waits for its progress line, sends
    SIGINT (to the whole process group, as a terminal's Ctrl-C does, when `group`), and
    returns the exit code, the JSON and stderr."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([*MEEPLE, "simulate", PIG, "--games", "10000000", "--workers",
                             str(workers), "--json"], stdout=subprocess.PIPE, stderr=slave,
                            cwd=ROOT, start_new_session=group)
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 30
    try:
        while b"games/s" not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if ready:
                seen += os.read(master, 4096)
        assert b"games/s" in seen, seen
        time.sleep(0.5)
        if group:
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        stdout, _ = proc.communicate(timeout=30)
        while True:
            ready, _, _ = select.select([master], [], [], 0.2)
            if not ready:
                break
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(master)
    return proc.returncode, json.loads(stdout), seen.decode("utf-8", "replace")


@pytest.mark.parametrize("workers, group", [(1, False), (2, True)], ids=["here", "workers"])
def test_ctrl_c_stops_cleanly_and_reports_the_games_completed(workers, group):
    code, r, err = _interrupt(workers, group)
    assert code == 130, err
    assert r["interrupted"] is True and r["requested"] == 10_000_000
    assert 0 < r["games"] < 10_000_000
    assert sum(s["wins"] for s in r["seats"]) == r["games"]
    assert f"interrupted: {r['games']:,} of 10,000,000 games were completed" in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err


# -- the statistics themselves -------------------------------------------------------------------

def test_wilson_interval_matches_published_values():
    # Newcombe (1998), table I: 81/263 -> 0.2553 to 0.3662; 0/10 -> 0 to 0.2775.
    lo, hi = stats.wilson(81, 263)
    assert round(lo, 4) == 0.2553 and round(hi, 4) == 0.3662
    assert stats.wilson(0, 10) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert stats.wilson(10, 10) == (pytest.approx(0.7225, abs=1e-4), 1.0)


def test_t_quantiles_match_the_tables():
    assert stats.t95(1) == 12.706 and stats.t95(30) == 2.042
    assert stats.t95(60) == pytest.approx(2.000, abs=1e-3)
    assert stats.t95(120) == pytest.approx(1.980, abs=1e-3)
    assert stats.t95(10**9) == pytest.approx(1.95996, abs=1e-5)


def test_the_95_percent_intervals_hold_the_truth_about_95_percent_of_the_time():
    # 2,000 seeded experiments each: the coverage of a correct 95% interval is 0.95 +- 0.005
    # (one SE), so [0.93, 0.97] is 4 SE; a 90% or 99% interval would fall outside.
    rng = random.Random(5)
    reps = 2000
    wilson_hits = mean_hits = paired_hits = 0
    for _ in range(reps):
        xs = [rng.random() < 0.3 for _ in range(60)]
        lo, hi = stats.wilson(sum(xs), len(xs))
        wilson_hits += lo <= 0.3 <= hi
        values = [rng.gauss(10, 3) for _ in range(40)]
        d = stats.describe(values)
        mean_hits += d.mean.lo <= 10 <= d.mean.hi
        # Paired rates: base wins with 0.4; the other setup keeps the base's result 70% of
        # the time, else wins with 0.6: its rate is 0.7 * 0.4 + 0.3 * 0.6 = 0.46.
        base = [rng.random() < 0.4 for _ in range(120)]
        other = [b if rng.random() < 0.7 else rng.random() < 0.6 for b in base]
        diff = stats.paired_rate_diff(base, other)
        paired_hits += diff.lo <= 0.06 <= diff.hi
    for hits in (wilson_hits, mean_hits, paired_hits):
        assert 0.93 <= hits / reps <= 0.97, (wilson_hits, mean_hits, paired_hits)


def test_paired_differences_of_identical_games_are_zero_and_of_shifted_games_exact():
    base = [1.0, 4.0, 2.0, 8.0]
    d = stats.paired_mean_diff(base, [b + 3 for b in base])
    assert (d.diff, d.lo, d.hi, d.significant) == (3, 3, 3, True)
    same = stats.paired_rate_diff([True, False] * 50, [True, False] * 50)
    assert same.diff == 0 and same.lo < 0 < same.hi and not same.significant
    m = stats.paired_moments(4, 15, 27, 12, 36)
    assert (m.base, m.other, m.diff, m.lo, m.hi) == (3.75, 6.75, 3, 3, 3)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 6) | st.booleans(), st.integers(1, 30)),
                min_size=1, max_size=12), st.randoms(use_true_random=False), st.booleans())
def test_whole_numbers_are_described_by_their_definitions(runs, rng, spread):
    # Many games repeat few values (a score, a count of turns): describe counts them rather
    # than sorting them all. Mean, variance and "type 7" quantiles must be what the
    # definitions give on the sorted list. `spread` makes every value distinct, the other way.
    values = [v for v, k in runs for _ in range(k)]
    rng.shuffle(values)
    if spread:
        values = [v * 1000 + i for i, v in enumerate(values)]
    d = stats.describe(values)
    n, ordered = len(values), sorted(values)
    total = sum(values)
    assert d.n == n and d.total == total and type(d.total) is int
    assert d.mean.value == total / n
    exact_var = (Fraction(sum(v * v for v in values)) - Fraction(total) ** 2 / n) / (n - 1) \
        if n > 1 else Fraction(0)
    assert d.sd == pytest.approx(math.sqrt(exact_var), rel=1e-12, abs=1e-12)
    for name, q in stats.QUANTILES:
        pos = q * (n - 1)
        i = math.floor(pos)
        want = float(ordered[-1]) if i + 1 >= n else \
            ordered[i] + (ordered[i + 1] - ordered[i]) * (pos - i)
        assert d.quantiles[name] == want, name


def test_a_solo_game_nobody_wins_is_a_loss_and_dice_chosen_count_by_component():
    dungeon = str(ROOT / "rulesets" / "dice_bag_dungeon.yaml")
    text = simulate(dungeon, "--games", "200").output
    assert "200 games of 1 player, " in text
    assert "losses (nobody wins): " in text and "draws (nobody wins)" not in text
    rows = [line.split()[2] for line in text.splitlines() if line.startswith("payment = ")]
    assert rows and all("[" not in r for r in rows)  # payment = blue_dice, not blue_dice[7]
    assert len(rows) == len(set(rows)) <= 6  # one row per colour that paid


def test_games_the_generator_does_not_handle_are_said_to_be_interpreted_located(tmp_path):
    # Never a silent slow path: a ruleset with a rule the code generator does not handle (a
    # set of an item of a list in a list, here, in a branch no game reaches) is played by the
    # interpreter, and the warning names that rule's line.
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    step = "            - roll: die\n"
    assert step in text and text.count("\nstate:\n") == 1
    text = text.replace(step, '            - if: "current.score > 1000"\n'
                              "              then:\n"
                              '                - set: {"rows[0][0]": 1}\n' + step, 1)
    text = text.replace("\nstate:\n", '\nstate:\n  global:\n    rows: {type: list, initial: "[[0]]"}\n')
    path = tmp_path / "jumping.yaml"
    path.write_text(text, encoding="utf-8")
    line = text.splitlines().index('                - set: {"rows[0][0]": 1}') + 1
    done = subprocess.run([*MEEPLE, "simulate", str(path), "--games", "5", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"jumping.yaml:{line}:" in done.stderr and "[not-generated]" in done.stderr
    out = json.loads(done.stdout)
    assert out["engine"] == "interpreter"
    assert out["not_generated"]["line"] == line and "list in a list" in out["not_generated"]["message"]


def test_generated_games_say_so_and_warn_of_nothing():
    done = subprocess.run([*MEEPLE, "simulate", PIG, "--games", "5", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "not-generated" not in done.stderr
    assert json.loads(done.stdout)["engine"] == "generated"


def _changed_pig(tmp_path, scored: str) -> Path:
    """Pig whose banked score is `scored` (a step) instead."""
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    assert "add: {current.score: turn_total}" in text
    path = tmp_path / "short.yaml"
    path.write_text(text.replace("add: {current.score: turn_total}", scored), encoding="utf-8")
    return path


def test_games_stopped_by_a_division_by_zero_are_not_played_again(tmp_path):
    # A remainder by zero in the seventh round: the generated code stops those games itself
    # with the interpreter's located error.
    path = _changed_pig(tmp_path, 'add: {current.score: "turn_total + 12 % (round - 7)"}')
    done = simulate(str(path), "--games", "20", "--seed", "3", "--json")
    assert done.exit_code == 1
    out = json.loads(done.stdout)
    assert out["engine"] == "generated" and 0 < out["errors"]["games"] < 20
    first = out["errors"]["first"]
    assert (first["message"], first["line"], first["column"]) == ("modulo by zero", 60, 46)


def test_games_stopped_on_a_budget_the_generated_code_locates_are_not_played_again(tmp_path):
    # Twelve turns at most: games that go past them stop with the interpreter's located
    # error, given by the generated code itself.
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    path = tmp_path / "short.yaml"
    path.write_text(text.replace("max_turns: 10000", "max_turns: 12"), encoding="utf-8")
    done = simulate(str(path), "--games", "20", "--seed", "3", "--json")
    assert done.exit_code == 1  # games stopped with an error
    out = json.loads(done.stdout)
    assert 0 < out["errors"]["games"] < 20 and out["engine"] == "generated"


def test_games_past_the_fast_codes_number_range_are_played_by_its_checked_version(tmp_path):
    # Banked scores past ±2**40: legal (the language goes to ±2**63 - 1), beyond what the
    # fast generated code follows; its checked version plays those games to their end, not
    # the interpreter, and the report says so apart from games stopped by a rule error.
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    assert text.count("- add: {current.score: turn_total}") == 1
    path = tmp_path / "huge.yaml"
    path.write_text(text.replace("- add: {current.score: turn_total}",
                                 "- add: {current.score: turn_total * 1099511627776}"),
                    encoding="utf-8")
    out = simulate_json(str(path), "--games", "10", "--seed", "3")
    assert out["engine"] == "generated" and out["errors"]["games"] == 0
    assert out["checked"] == {"games": 10, "first": {"game": 0, "seed": "3:0"}}
    assert out["score_all_seats"]["max"] > 2**40
    report = simulate(str(path), "--games", "10", "--seed", "3").output
    assert ("note: 10 game(s) went past ±1,099,511,627,776, where the generated code's fast "
            "version stops: its checked version (every +, - and * tested) played them, more "
            "slowly; the first is seed 3:0") in report
    assert simulate_json(PIG, "--games", "20")["checked"] == {"games": 0}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=60))
def test_whole_numbers_are_described_exactly_as_the_two_pass_formula_says(values):
    d = stats.describe(values)
    as_floats = stats.describe([float(v) for v in values])  # the two-pass formula
    assert d.total == sum(values) and isinstance(d.total, int)
    assert d.sd == pytest.approx(as_floats.sd, rel=1e-9, abs=1e-9)
    assert d.mean.value == pytest.approx(as_floats.mean.value)


def test_a_setups_limits_are_its_own_when_one_process_plays_the_ruleset_with_others():
    # One process (a test run, a worker kept between jobs) plays the same text with the
    # default budgets, then with --limit max_turns=12: the second job's games stop at the
    # thirteenth turn, not with the first job's program (whose key left the limits out).
    from interpreter.simulate.runner import Job, Setup, play_chunk
    text = Path(PIG).read_text(encoding="utf-8")
    free = play_chunk(Job("pig.yaml", text, (Setup("base"),), 3), 0, 10)
    short = play_chunk(Job("pig.yaml", text, (Setup("base", limits=(("max_turns", 12),)),), 3),
                       0, 10)
    assert all(r.error is None for r in free.records[0])
    assert all(r.error is not None and r.error[0] == "budget-exceeded" and r.turns == 13
               for r in short.records[0])
