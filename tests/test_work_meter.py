"""The work meter (limits.max_steps counts steps and the items expressions go through): the
generated code counts exactly the items the reference interpreter counts, so a game stops on
its budget in both or in neither, at any budget (interpreter/compile/meter.py)."""

from __future__ import annotations

import textwrap

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load, new_game
from interpreter.simulate.runner import Setup, play_game
from interpreter.simulate.runner import _interpreted as simulated
from tests.conftest import ROOT
from tests.test_specialize import _interpreted, _outcome

HEAD = """\
meeple: 1
metadata: {name: Meter, summary: a loop whose test goes through a list}
players: {min: 8, max: 8}
state:
  global:
    n: 0
    xs: {type: list, initial: "[1, 2, 3, 4, 5, 6, 7, 8]"}
  player:
    score: {type: int, initial: 0}
limits: {max_loop: 1000000}
scoring: {score: player.score, order: highest}
"""


def _program(tmp_path, until: str, limit: int):
    path = tmp_path / "meter.yaml"
    path.write_text(HEAD + textwrap.dedent(f"""\
        flow:
          phases:
            play:
              do:
                - repeat: [{{add: {{n: 1}}}}]
                  until: "{until}"
              next: end
        """))
    program = load(str(path)).program
    program.limits = {**program.limits, "max_steps": limit}
    return program


@pytest.mark.parametrize("until", [
    "n >= 300 or any(x > n + 10 for x in xs)",  # a list of the game's: 8 items a test
    "n >= 40 or sum(sort(xs + xs + xs + xs + xs)) < 0",  # a built-in over 40: 80 counted
])
@pytest.mark.parametrize("limit", [2500, 2700, 2900, 3100, 3300, 3500])
def test_a_game_stops_on_its_budget_in_the_generated_code_exactly_where_the_interpreter_does(
        tmp_path, until, limit):
    # Each pass counts a step and the test's items; the budgets straddle the game's total.
    program = _program(tmp_path, until, limit)
    special = specialize(program)
    assert special is not None
    assert _outcome(special.play(0)) == _interpreted(program, None, None, 0)


@pytest.mark.parametrize("until", [
    "n >= 300 or any(x > n + 10 for x in xs)", "n >= 40 or sum(sort(xs + xs + xs + xs + xs)) < 0"])
def test_the_budgets_above_straddle_the_game_so_both_outcomes_are_met(tmp_path, until):
    stopped = [_interpreted(_program(tmp_path, until, limit), None, None, 0)[0]["reason"]
               .startswith("stopped: the game went past") for limit in (2500, 3500)]
    assert stopped == [True, False]


def test_a_comprehension_over_the_players_counts_no_work(tmp_path):
    # Over the players (8 here), with nothing inside that goes through a list: its work is
    # bounded by the ruleset's text and counted by the step (dsl/compiler.py flat_over_few).
    program = _program(tmp_path, "n >= 300 or any(p.score > n for p in players)", 1000)
    special = specialize(program)
    played = special.play(0)
    assert played.result.error is None and played.work == 0
    assert _outcome(played) == _interpreted(program, None, None, 0)


def test_a_comprehension_over_the_players_that_goes_through_a_list_counts(tmp_path):
    until = "n >= 300 or any(any(x > n + 400 + p.score for x in xs) for p in players)"
    program = _program(tmp_path, until, 10_000_000)
    played = specialize(program).play(0)
    # The test runs at 299 passes (not at the last: `n >= 300` holds): the players, and the
    # list for each of them.
    assert played.work == 299 * (8 + 8 * 8)
    assert _outcome(played) == _interpreted(program, None, None, 0)


def test_simulates_lead_tracking_counts_no_work_in_either_engine():
    # The dungeon's score goes through a list (the treasure dice): simulate reads it after
    # every turn to count lead changes, an onlooker whose reading must not move the game
    # nearer its budget, in the interpreter (runner._Standings) as in the tracked code.
    from interpreter.engine.setup import new_game
    from interpreter.simulate.runner import _Standings

    program = load(str(ROOT / "rulesets" / "dice_bag_dungeon.yaml")).program
    special = specialize(program)
    for seed in range(6):
        game = new_game(program, None, {}, seed=seed)
        game.logging = game.narrating = False
        looked = _Standings(program)
        game.on_turn_end = looked.turn_end
        game.run()
        assert special.play_tracked(seed)[-1] == special.play_raw(seed)[-1] == game.work, seed
        assert game.work == _interpreted(program, None, None, seed)[4], seed


LATE = """\
meeple: 1
metadata: {name: Late, summary: "items counted first, steps after"}
players: {min: 1, max: 1}
state:
  global:
    x: 0
flow:
  phases:
    play:
      do:
        - set: {x: "count([i for i in range(1, 61)])"}
        - repeat: [{add: {x: 1}}]
          times: 50
      next: end
scoring: {score: x, order: highest}
"""


@pytest.mark.parametrize("limit,ends", [(50, False), (55, False), (60, True), (100, True),
                                        (111, True)])
def test_items_counted_before_the_last_steps_stop_a_game_only_where_the_interpreter_does(
        tmp_path, limit, ends):
    # 60 items at step 0, then 51 steps: 111 in all, yet the interpreter tests the items
    # and steps together only where it counts items (the generated code stopped every game
    # above 111 - 51 = 60 before, and said the generator failed). A stop at the items is
    # the generated code's own, located at the expression that counted them (the
    # interpreter replayed it before).
    path = tmp_path / "late.yaml"
    path.write_text(LATE + f"limits: {{max_steps: {limit}}}\n", encoding="utf-8")
    program = load(str(path)).program
    want = _interpreted(program, None, None, 0)
    assert (want[0]["reason"] == "the flow reached its end") == ends
    game = new_game(program, None, {}, seed=0)
    error = game.run().error
    for logged in (False, True):
        special = specialize(program, logged=logged)
        played = special.play_logged(0)[0] if logged else special.play(0)
        assert _outcome(played) == want
        got = played.result.error
        assert (got is None) == ends and (ends or (got.code, got.message, got.path, got.pos) == (
            error.code, error.message, error.path, error.pos))
    record, counts = play_game(program, Setup(1, ()), "0", 0)
    assert (record, counts) == simulated(program, Setup(1, ()), "0", 0)
    assert record.error is None if ends else record.error[0] == "budget-exceeded"
