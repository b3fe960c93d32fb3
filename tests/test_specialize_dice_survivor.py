"""The specializer plays Dice Survivor exactly as the interpreter does.

Dice Survivor (rulesets/dice_survivor.yaml) brings what Pig and Wreckdivers do not: checks
(elimination for each player, the Finals once few are left) whose `end_turn` waits until the
checks and the end condition have been examined, `eliminate` and turns that skip the
eliminated, `transfer` with the bank, `for_each`, `actions` with costs, a per-turn `limit` and
`pass`, decisions over a list of players, a decision taken by another player (`by`), policies
with `best` rules and `options`, player state that may be none, and `first`, `opponents`,
`next_player`. For each setup, seeded games played by the generated function must give the
interpreter's result (winners, scores, placements, eliminated seats, rounds, turns, steps,
rolls) and the same trigger, decision and unruled counts, with no seed handed back.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from interpreter.simulate import runner as sim
from tests.test_specialize import _same, same_records

ROOT = Path(__file__).resolve().parents[1]
SURVIVOR = str(ROOT / "rulesets" / "dice_survivor.yaml")


def test_default_seats_give_the_interpreters_games():
    _same(SURVIVOR, range(400))


@pytest.mark.parametrize("players", [3, 6, 8])
def test_other_table_sizes_give_the_interpreters_games(players):
    # 6 and 8 participants reach the Finals (a check ends the turn; another phase).
    _same(SURVIVOR, range(300), players=players)


@pytest.mark.parametrize("variant,players", [
    ("no_finals", 6), ("house_ko", None), ("house_ko", 7),
])
def test_variants_give_the_interpreters_games(variant, players):
    _same(SURVIVOR, range(300), variant, players=players)


@pytest.mark.parametrize("sets,players", [
    ({"finals_top_tie": "reroll", "finals_start": "finish_turn"}, 6),
    ({"finals_add_pp": "false", "ko_half_rounding": "up", "ko_defender_die": "higher"}, 7),
    ({"max_rematches": "0", "finals_size": "2", "finals_from": "4"}, 5),
    ({"starting_pp": "2", "actions_per_turn": "3", "extra_point_target": "15"}, 4),
])
def test_parameters_give_the_interpreters_games(sets, players):
    _same(SURVIVOR, range(300), sets=sets, players=players)


@pytest.mark.parametrize("seats,players", [
    # The beaten opponent decides a Rematch (`by`): their policy, not the player's, answers.
    ({1: "aggressive", 2: "random"}, 4),
    ({1: "aggressive", 3: "policy:random", 4: "random"}, 6),
    ({i: "random" for i in range(1, 9)}, 8),
])
def test_mixed_seats_give_the_interpreters_games(seats, players):
    _same(SURVIVOR, range(300), players=players, seats=seats)


def test_eliminated_seats_are_reported():
    program = load(SURVIVOR).program
    special = specialize(program, 5)
    out = [s.eliminated for seed in range(50) for s in special.play(seed).result.seats]
    assert any(out) and not all(out)


@pytest.mark.parametrize("setup", [
    sim.Setup("base"),
    sim.Setup("finals", players=7, seats=((2, "aggressive"), (5, "random"))),
])
def test_simulation_records_are_unchanged(setup, monkeypatch):
    same_records("dice_survivor.yaml", Path(SURVIVOR).read_text(encoding="utf-8"), setup, 3, 200,
                 monkeypatch)
