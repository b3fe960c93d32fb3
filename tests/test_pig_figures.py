"""Pig against its published figures (Neller & Presser, "Optimal Play of the Dice Game Pig", 2004).

With "hold at 20" (hold once the turn total is 20 or more, or as soon as holding reaches the
goal) on both seats and a goal of 100:

- the first player wins 53.47% of games (exact 0.534698);
- one turn, far from the goal, scores 492303203/60466176 = 8.1418 points on average.

Both are measured on seeded games of the shipped ruleset, within a tolerance of Z = 4 standard
errors: the win rate on the games `meeple simulate` plays (the generated code), the points per
turn on the interpreter's logs. A correct engine then fails with probability about 6e-5
(two-sided normal tail), while a wrong rule lands far outside:

- "a 1 keeps the turn total": the first player wins about 0.572 and a turn scores 12.49;
- "the other player gets a last turn": the first player wins (alone) about 0.492.

Runtime (one core): the generated code plays N_GAMES = 10,000 in under a second (the
interpreter took 14 to 44 s); the interpreter's logged games take about 17 s for N_TURNS =
60,000 turns.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise
from pathlib import Path

from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load, new_game
from interpreter.simulate.runner import Job, Setup, game_seed, play_chunk, program_for, specialized_for
from tests.conftest import ROOT

PIG = str(ROOT / "rulesets" / "pig.yaml")
Z = 4

# -- the first player's win rate -----------------------------------------------------------------
WIN_RATE = 0.534698
N_GAMES = 10_000
# One game is a Bernoulli trial: SE = sqrt(p(1-p)/N) = 0.4988 / 100 = 0.00499 at N = 10,000,
# so the tolerance is 4 SE = 0.01995: [0.5147, 0.5547]. It excludes 0.5 (no advantage; it would
# need N >= 3,310 to do so at all) and the wrong rules above (0.572, 0.492).
WIN_TOL = Z * math.sqrt(WIN_RATE * (1 - WIN_RATE) / N_GAMES)

# -- points per turn -----------------------------------------------------------------------------
TURN_MEAN = Fraction(492303203, 60466176)
N_TURNS = 60_000
# A hold-at-20 turn far from the goal scores 0 (probability 0.6245) or 20..25; its standard
# deviation, from that exact distribution, is 10.539. SE = 10.539 / sqrt(60,000) = 0.0430, so the
# tolerance is 4 SE = 0.172: [7.97, 8.31], far from 12.49 ("a 1 keeps the turn total").
TURN_SD = 10.539
TURN_TOL = Z * TURN_SD / math.sqrt(N_TURNS)


def test_tolerances_separate_the_figures_from_wrong_rules():
    assert abs(WIN_TOL - 0.01995) < 1e-4
    assert WIN_RATE - WIN_TOL > 0.5, "the tolerance must exclude 'no first-player advantage'"
    assert WIN_RATE + WIN_TOL < 0.572 and WIN_RATE - WIN_TOL > 0.492
    assert abs(float(TURN_MEAN) - 8.1418) < 5e-5
    assert float(TURN_MEAN) + TURN_TOL < 12.49


def test_first_player_wins_53_47_percent_with_hold_at_20_on_both_seats():
    # Played as `meeple simulate` plays them, by the generated code (which
    # tests/test_specialize.py holds to the interpreter's games, seed for seed).
    assert load(PIG).program.parameters["goal"] == 100
    setup = Setup("base", seats=((1, "policy:hold_at_20"), (2, "policy:hold_at_20")))
    job = Job("pig.yaml", Path(PIG).read_text(encoding="utf-8"), (setup,), 0)
    assert specialized_for(program_for(job, setup), setup) is not None
    first = 0
    for r in play_chunk(job, 0, N_GAMES).records[0]:
        seed = game_seed(0, r.index)
        assert r.error is None, f"seed {seed}: {r.error}"
        assert len(r.winners) == 1 and r.first == 1, f"seed {seed}: {r}"
        winner = r.winners[0]
        # The winner is the one who reached the goal; the other never did.
        assert r.scores[winner - 1] >= 100 and min(r.scores) < 100, f"seed {seed}: {r.scores}"
        first += winner == 1
    rate = first / N_GAMES
    print(f"\nfirst player wins {rate:.4f} of {N_GAMES} games "
          f"(expected {WIN_RATE} +- {WIN_TOL:.4f})")
    assert abs(rate - WIN_RATE) <= WIN_TOL, (
        f"first player won {rate:.4f} of {N_GAMES} games; expected {WIN_RATE} +- {WIN_TOL:.4f}")


def test_one_hold_at_20_turn_scores_8_1418_points_on_average():
    # A goal of a million is never reached, so every turn is played far from the goal (where the
    # turn's distribution does not depend on the score) until the ruleset's turn budget
    # (limits.max_turns) stops the game. Each 'turn' record starts a turn; the banked scores
    # read at each 'turn' record and at the 'end' record give each turn's gain.
    program = load(PIG, None, {"goal": "1000000"}).program
    assert program.parameters["goal"] == 1_000_000
    gains: list[int] = []
    seed = 0
    while len(gains) < N_TURNS:
        marks: list[int] = []

        def mark(game, rec, marks=marks):
            if rec["t"] in ("turn", "end"):
                marks.append(sum(p.score for p in game.players))

        game = new_game(program, 2, {1: "policy:hold_at_20", 2: "policy:hold_at_20"},
                        SeededChance(seed), seed, narrator=mark)
        result = game.run()
        assert result.error is not None and result.error.code == "budget-exceeded", result.reason
        assert max(p.score for p in game.players) < 1_000_000
        turn_records = sum(1 for r in game.log if r["t"] == "turn")
        assert len(marks) == turn_records + 1 > 1
        gains.extend(b - a for a, b in pairwise(marks))
        seed += 1
    gains = gains[:N_TURNS]
    # A hold-at-20 turn banks nothing (a 1) or 20 to 25 (it holds at 20 or more; the last roll
    # adds at most 6 to 19).
    assert set(gains) <= {0, 20, 21, 22, 23, 24, 25}, sorted(set(gains))
    mean = sum(gains) / N_TURNS
    print(f"\nmean points per turn {mean:.4f} over {N_TURNS} turns ({seed} games; "
          f"expected {float(TURN_MEAN):.4f} +- {TURN_TOL:.4f})")
    assert abs(mean - float(TURN_MEAN)) <= TURN_TOL, (
        f"a turn scored {mean:.4f} on average over {N_TURNS} turns; "
        f"expected {float(TURN_MEAN):.4f} +- {TURN_TOL:.4f}")
