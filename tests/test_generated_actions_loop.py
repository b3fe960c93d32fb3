"""An `actions` step's loop and its limits in the generated code (interpreter/compile/
decisions.py `_s_actions`, `_within`, `_count_use`).

- Every pass spends a whole cost of at least 1 or leaves, so with the points known when
  generating (and within `limits.max_loop`) the fast version counts no passes and tests no
  budget at each: a game past the budget finds it at the round's head or its end, and the
  checked version plays the seed again to the interpreter's stop.
- An option allowed once a period (`limit: {times: 1}`) is legal while the period of its
  last use is not this one: no count of uses is kept.
The games stay the interpreter's, those that stop included."""

from __future__ import annotations

import re

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import (
    plays_as_the_interpreter,
    program_of,
    stops_as_the_interpreter,
)
from tests.test_generated_answer_counts import GAME
from tests.test_specialize import _interpreted, _outcome

PASS_TEST = re.compile(r"^\s+if _p\d+ > \d+ or steps > \d+:$", re.M)


def _game(points: int = 2, nap_cost: int = 1, rest_limit: str = "{per: turn, times: 1}",
          limits: str = "") -> str:
    text = GAME.replace("points: 2", f"points: {points}").replace(
        "limit: {per: turn, times: 1}", f"limit: {rest_limit}").replace("""            shop:
              cost: 2""", f"""            nap:
              cost: {nap_cost}
              limit: {{per: round, times: 1}}
              do:
                - add: {{current.rests: 2}}
            shop:
              cost: 2""").replace("""        - when: "'work' in options"
""", """        - when: "'nap' in options and current.rests > 3"
          choose: nap
        - when: "'work' in options"
""")
    return text + limits


def test_an_actions_loop_with_points_known_and_costs_of_one_or_more_counts_no_passes():
    source = specialize(program_of(_game(), "naps.yaml")).source
    assert not PASS_TEST.search(source)
    assert not re.search(r"^\s+_p\d+ = 0$", source, re.M)


@pytest.mark.parametrize("text", [_game(nap_cost=0), _game(points=5, limits="limits: {max_loop: 3}\n")])
def test_an_actions_loop_that_may_pass_max_loop_counts_its_passes(text):
    program = program_of(text, "naps.yaml")
    assert PASS_TEST.search(specialize(program).source)
    plays_as_the_interpreter(program, range(20))


def test_actions_loops_past_max_loop_stop_as_the_interpreters():
    program = program_of(_game(points=5, limits="limits: {max_loop: 3}\n"), "naps.yaml")
    results = plays_as_the_interpreter(program, range(10))
    assert all(result.error is not None for result, _ in results)


def test_games_past_their_step_budget_in_an_uncounted_actions_loop_stop_as_the_interpreters():
    program = program_of(_game(points=6), "naps.yaml")
    assert not PASS_TEST.search(specialize(program).source)
    assert stops_as_the_interpreter(program, range(20, 200, 9), range(3)) >= 40


def test_an_option_once_a_period_is_legal_while_its_last_use_is_of_another_period():
    source = specialize(program_of(_game(), "naps.yaml")).source
    assert re.search(r"UP\d+\[cur\] != turn_n", source)
    assert re.search(r"UP\d+\[cur\] != round_n", source)
    assert not re.search(r"UC\d+\[cur\]", source)


@pytest.mark.parametrize("rest_limit", ["{per: turn, times: 1}", "{per: game, times: 1}",
                                        "{per: turn, times: 2}", "{per: phase, times: 3}"])
def test_games_with_options_limited_per_period_play_as_the_interpreter(rest_limit):
    program = program_of(_game(rest_limit=rest_limit), "naps.yaml")
    source = specialize(program).source
    assert bool(re.search(r"UC\d+\[cur\]", source)) == ("times: 1" not in rest_limit)
    plays_as_the_interpreter(program, range(30))
    special = specialize(program)
    for seed in range(30):  # the counts of every answer too
        assert _outcome(special.play(seed)) == _interpreted(program, None, None, seed), seed
