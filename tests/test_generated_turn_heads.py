"""The step budget at a turn's head (interpreter/compile/flow.py `turn`): the generated code
tests it at the head of each round, not again at each turn's, since a round holds at most one
turn a seat. A game that passes the budget during any turn of a round still stops with the
interpreter's error, counts and result: the fast version finds it past the budget at the
next round's head (or at the end) and its checked version, which tests every step, plays the
seed again to the interpreter's stop."""

from __future__ import annotations

import re

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.conftest import ROOT
from tests.generated_agreement import stops_as_the_interpreter


def test_a_turns_head_tests_its_count_and_the_rounds_head_the_step_budget():
    source = specialize(load(str(ROOT / "rulesets" / "wreckdivers.yaml")).program).source
    heads = re.findall(r"^\s+if turn_n > \d+(.*):$", source, re.M)
    assert heads and all(rest == "" for rest in heads)
    # Wreckdivers' three rounds: the head of each tests its count and the budget.
    assert re.search(r"^\s+if passes > \d+ or steps > \d+:$", source, re.M)


@pytest.mark.parametrize("ruleset, budgets", [
    ("wreckdivers", range(40, 400, 37)),  # three divers a round
    ("dice_survivor", range(30, 300, 29)),  # four players, eliminations on the way
])
def test_a_game_past_its_step_budget_in_any_turn_of_a_round_stops_as_the_interpreters(
        ruleset, budgets):
    program = load(str(ROOT / "rulesets" / f"{ruleset}.yaml")).program
    assert stops_as_the_interpreter(program, budgets, range(4)) >= 20
