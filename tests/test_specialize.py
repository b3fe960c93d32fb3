"""The specializer (interpreter/specialize.py) gives exactly the interpreter's results.

For each ruleset it accepts, seeded games played by the generated function and by the
interpreter (`new_game(...).run()` without a log) must give the same result (winners, scores,
placements, rounds, turns, steps, rolls, modelled seconds) and the same trigger, decision and
unruled counts; `meeple simulate`'s records (lead changes, first player) must not change; a
ruleset using something it does not specialize gives None.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import simulate as sim
from interpreter.setup import load, new_game
from interpreter.specialize import specialize

ROOT = Path(__file__).resolve().parents[1]
PIG = str(ROOT / "rulesets" / "pig.yaml")
WRECK = str(ROOT / "rulesets" / "wreckdivers.yaml")


def _interpreted(program, players, seats, seed):
    game = new_game(program, players, seats, seed=seed)
    game.logging = game.narrating = False
    result = game.run()
    return result.to_json(), game.fired, game.chosen, game.unruled


def _same(path: str, seeds: range, variant=None, sets=None, players=None, seats=None) -> None:
    program = load(path, variant, sets).program
    special = specialize(program, players, seats)
    assert special is not None, "the specializer refused this setup"
    for seed in seeds:
        played = special.play(seed)
        got = (played.result.to_json(), played.fired, played.chosen, played.unruled)
        assert got == _interpreted(program, players, seats, seed), f"seed {seed}"
    assert special.fallbacks == 0  # every game was played by the generated code


@pytest.mark.parametrize("seats", [None, {1: "random"}, {1: "policy:random", 2: "random"}])
def test_pig_equals_interpreter(seats):
    _same(PIG, range(300), seats=seats)


def test_pig_parameters_equal_interpreter():
    _same(PIG, range(200), sets={"goal": "30", "hold_at": "5"}, seats={2: "random"})


def test_wreckdivers_equals_interpreter():
    _same(WRECK, range(300))


@pytest.mark.parametrize("seats", [{1: "counting", 2: "reckless", 3: "random_tens"},
                                   {2: "random"}])
def test_wreckdivers_policies_equal_interpreter(seats):
    _same(WRECK, range(150), seats=seats)


@pytest.mark.parametrize("variant,sets,players", [
    ("hidden_timer", None, None),
    ("long_game", None, 2),
    (None, {"tie": "sudden_death"}, 2),   # the sudden-death phase and its trigger
    (None, {"tie": "draw"}, None),
    (None, {"double_double": "gold", "shark_roll_gold": "keep"}, 4),
    (None, {"double_double": "cancel", "laugh_hazard": "0.2"}, None),  # many hazards
])
def test_wreckdivers_variants_equal_interpreter(variant, sets, players):
    _same(WRECK, range(100), variant, sets, players)


def test_budget_hands_the_seed_to_the_interpreter():
    # With a tiny step budget every game stops with the interpreter's error: the generated
    # code notices the budget and the interpreter replays the seed.
    program = load(PIG).program
    program.limits = {**program.limits, "max_steps": 30}
    special = specialize(program)
    assert special is not None
    for seed in range(5):
        played = special.play(seed)
        assert not played.specialized
        assert played.result.error is not None
        assert played.result.to_json() == _interpreted(program, None, None, seed)[0]


@pytest.mark.parametrize("name", ["dice_survivor", "dark_water_salvage", "shipwrecked"])
def test_unsupported_rulesets_give_none(name):
    assert specialize(load(str(ROOT / "rulesets" / f"{name}.yaml")).program) is None


def test_numeric_choice_gives_none():
    assert specialize(load(WRECK, "mental_arithmetic").program) is None


def test_human_seat_gives_none():
    assert specialize(load(PIG).program, None, {1: "human"}) is None


@pytest.mark.parametrize("path,setup", [
    (PIG, sim.Setup("base")),
    (WRECK, sim.Setup("base", players=4, seats=((2, "reckless"),))),
    (WRECK, sim.Setup("tie", sets=(("tie", "sudden_death"),), players=2)),
])
def test_simulation_records_unchanged(path, setup, monkeypatch):
    job = sim.Job(Path(path).name, Path(path).read_text(encoding="utf-8"), (setup,), 7)
    program = sim.program_for(job, setup)
    assert sim.specialized_for(program, setup) is not None
    fast = [sim.play_game(program, setup, sim.game_seed(7, i), i) for i in range(150)]
    monkeypatch.setattr(sim, "specialized_for", lambda program, setup: None)
    slow = [sim.play_game(program, setup, sim.game_seed(7, i), i) for i in range(150)]
    assert fast == slow
