"""The hand-written Liar's Dice (tests/benchmarks/baseline_liars_dice.py) against the ruleset it
stands for (rulesets/liars_dice.yaml, default parameters and players, policy `cautious`).

The benchmark's ratio for a decision of about 150 options only means something if both play the
same game with the same decisions. They draw their random numbers differently, so the check is
statistical: N_OURS seeded games played by the generated code (tests/test_specialize.py shows it
gives the interpreter's games exactly) and N_BASELINE seeded games of the baseline, and for each
figure the two means must lie within Z = 4 combined standard errors.

Figures: the first seat's win rate, the hands of a game and the bids of a game (which the
policy's call rule and its `best` over the bids decide). The faithful baseline's figures lie
0.1 to 0.4 standard errors apart. Sensitivity, measured by playing the baseline with
`doubt_margin` changed from 1: at 0.5 the hands move 34 standard errors and the bids 21; at 1.5
the bids move 92 (the first seat's win rate hardly moves: the game is symmetric).
"""

from __future__ import annotations

import random

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.agreement import compare, mean_se
from tests.benchmarks import baseline_liars_dice as baseline
from tests.conftest import ROOT

RULESET = str(ROOT / "rulesets" / "liars_dice.yaml")
N_OURS = 3_000
N_BASELINE = 6_000
Z = 4
FIGURES = ("first_wins", "hands", "bids")


def our_games(n: int) -> list[dict]:
    special = specialize(load(RULESET).program)
    assert special is not None
    rows = []
    for i in range(n):
        played = special.play(i)
        assert played.result.error is None
        moves = {k: v for (did, k), v in played.chosen.items() if did == "move"}
        rows.append({"first_wins": played.result.winners == [played.result.seats[0].name],
                     "hands": moves.get(0, 0),
                     "bids": sum(v for k, v in moves.items() if k != 0)})
    return rows


def baseline_games(n: int) -> list[dict]:
    rows = []
    for i in range(n):
        r = baseline.play(random.Random(i))
        rows.append({"first_wins": r["winner"] == 0, "hands": r["hands"], "bids": r["bids"]})
    return rows


def test_the_hand_written_liars_dice_plays_the_rulesets_game_and_policy():
    ours, theirs = our_games(N_OURS), baseline_games(N_BASELINE)
    off, report = compare({k: mean_se([float(r[k]) for r in ours]) for k in FIGURES},
                          {k: mean_se([float(r[k]) for r in theirs]) for k in FIGURES}, Z)
    assert not off, "the baseline and the ruleset disagree:\n" + "\n".join(off + ["", *report])
