"""The hand-written Dice-Bag Dungeon (tests/benchmarks/baseline_dice_bag_dungeon.py) against the
ruleset it stands for (rulesets/dice_bag_dungeon.yaml, default parameters, policy
`delve_then_flee`).

The benchmark reports meeple's speed as a ratio of the baseline's, which only means something
if both play the same game with the same decisions. They draw their random numbers differently,
so the check is statistical: N_GAMES seeded games of the ruleset, played by the generated code
with its log (tests/test_specialize_dungeon.py and tests/test_specialize_logs.py hold its games
equal to the reference interpreter's; the rows below were the interpreter's own on all N_GAMES
seeds when this file moved to the generated code), and N_BASELINE seeded games of the baseline,
and for each figure below the two means must lie within Z = 4 combined standard errors,
sqrt(se_ruleset^2 + se_baseline^2).

Figures: the escape rate, the score (Treasure faces on escape, 0 on death), escapes with 20+
and with 12 to 19 in treasure, games past turn 100, turns, draws, rolls, the deepest Travel row,
reroll payments (all, and Travel dice), soaks, Premonition redraws and the bonus actions taken
(Healing, Dispel, Lighten, Premonition): the outcome, the length of a game and how often each
of the policy's rules fires. A faithful baseline fails one of these 17 figures with probability
about 17 * 6e-5 = 1e-3 (two-sided normal tails; the games are seeded, so a run is repeatable).

Sensitivity, at N_GAMES = 2,500 and N_BASELINE = 25,000, measured by playing the baseline
with one of the policy's parameters changed (worst |z| in brackets; the faithful baseline's is
1.2): it fails with escape_treasure 15 instead of 20 (7.8, escapes with 20+), flee_loot 10 or 14
instead of 12 (8.0, 6.3), soak_danger 2 or 4 instead of 3 (22, 14), patience 80 instead of 100
(6.5, games past turn 100), start_value 4 instead of 3 (8.6), and with Healing whenever any
Health die is below 6 rather than only when the best one is (55). It does NOT see small
changes: escape_treasure 18 or 22 (3.2, 1.5), flee_danger 2 or 4, flee_curses 4, delve_depth 2
or 4 (all under 1.6; under this policy those parameters hardly change the game). The tolerance
is about 0.036 on the escape rate (0.76), 0.63 on the mean score (6.5), 2.3 turns (26) and 0.35
payments (3.6).

Runtime (one core): about 300 logged games/s on the generated code (8 s; the interpreter plays
about 80 a second with its log) and 20,000 baseline games/s (1.5 s).
"""

from __future__ import annotations

import random

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.agreement import compare, mean_se
from tests.benchmarks import baseline_dice_bag_dungeon as baseline
from tests.conftest import ROOT

RULESET = str(ROOT / "rulesets" / "dice_bag_dungeon.yaml")
N_GAMES = 2_500
N_BASELINE = 25_000
Z = 4  # standard errors; the module docstring says what this can and cannot detect

FIGURES = ("escaped", "score", "rich", "middling", "long", "turns", "draws", "rolls", "depth",
           "payments", "paid_blue", "soaks", "redraws", "heals", "dispels", "lightens",
           "premonitions")


def outcome_figures(row: dict) -> dict:
    """Figures read off the score and length of a game: escapes with 20 or more in treasure
    (the policy's escape_treasure), with 12 to 19 (flee_loot), and games that go past turn 100
    (its patience)."""
    return {"rich": row["score"] >= 20, "middling": 12 <= row["score"] < 20,
            "long": row["turns"] > 100}


def ruleset_games(n: int) -> list[dict]:
    """n seeded games of the ruleset, in the rows the figures read."""
    program = load(RULESET).program
    special = specialize(program, 1, logged=True)
    assert special is not None
    travel = f"{special.seat_names[0]}.travel"
    rows = []
    for i in range(n):
        state: list = []              # the function that tells the game's state as it stands
        depth = [1]                   # the longest Travel row at the end of a turn

        def turn_ended(rec: dict, state=state, depth=depth) -> None:
            # A turn ends where the next begins, or where the game does after a whole turn
            # (not inside one: the interpreter's end of a turn is not reached then).
            if rec["t"] in ("turn", "end"):
                _, in_turn, turn, *_, zones, _ = state[0]()
                if (turn > 1 if rec["t"] == "turn" else not in_turn):
                    depth[0] = max(depth[0], len(zones[travel]))
        played = special.try_logged(i, turn_ended, state.append)
        assert played is not None, f"game {i}: numbers past the fast code's range"
        result = played.result
        assert result.error is None, f"game {i}: {result.error.message}"
        chosen = played.chosen        # (decision id, answer key) -> times taken
        redraws = chosen.get(("premonition_redraw", "redraw"), 0)
        paid = [(str(key), times) for (did, key), times in chosen.items() if did == "payment"]
        row = {
            "escaped": result.winners == [result.seats[0].name],
            "score": result.seats[0].score,
            "turns": result.turns,
            "draws": result.turns + redraws,
            "rolls": result.rolls,
            "depth": depth[0],
            "payments": sum(times for _, times in paid),
            "paid_blue": sum(times for key, times in paid if key.startswith("blue_dice")),
            "soaks": chosen.get(("soak", "soak"), 0),
            "redraws": redraws,
            "heals": chosen.get(("bonus", "healing"), 0),
            "dispels": chosen.get(("bonus", "dispel"), 0),
            "lightens": chosen.get(("bonus", "lighten"), 0),
            "premonitions": chosen.get(("bonus", "premonition"), 0),
        }
        rows.append({**row, **outcome_figures(row)})
    return rows


def baseline_games(n: int) -> list[dict]:
    rows = []
    for i in range(n):
        r = baseline.play(random.Random(i))
        assert r["outcome"] in ("escaped", "dead"), f"baseline game {i}: {r['outcome']}"
        rows.append({**r, **outcome_figures(r), "escaped": r["outcome"] == "escaped",
                     "payments": r["paid_blue"] + r["paid_other"]})
    return rows


def test_the_hand_written_dungeon_plays_the_rulesets_game_and_policy():
    ours = ruleset_games(N_GAMES)
    theirs = baseline_games(N_BASELINE)
    off, report = compare({name: mean_se([float(r[name]) for r in ours]) for name in FIGURES},
                          {name: mean_se([float(r[name]) for r in theirs]) for name in FIGURES},
                          Z)
    assert not off, "the baseline and the ruleset disagree:\n" + "\n".join(off + ["", *report])
