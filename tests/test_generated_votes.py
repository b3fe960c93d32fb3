"""A decision with named options taken by several players (`choose: vote`, `by: players`),
on the generated code, as decision_steps._choose takes it: each decider in turn, the options
whose `if` holds then and whose `limit` the decider has not reached, the one legal option
taken without asking, the map of answers by name after each answer (`sealed`: at the end,
with the reveal), `decided`, then each answer's `do` in the deciders' order; on every
version against the reference interpreter, logs included."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

VOTE = """\
meeple: 1
metadata: {name: Vote}
players: {min: 3, max: 3}
components:
  dice:
    d: {sides: 6}
state:
  global:
    ayes: 0
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - roll: d
        - choose: vote
          by: BY
          SEALED
          options:
            aye:
              do: [add: {ayes: 1}]
            nay:
              if: "d.face > 2"
              limit: {times: 2, per: game}
              do: [add: {current.score: 1}]
            six:
              if: "d.face == 6"
              label: "six on {d.face}"
              do: [add: {current.score: "d.face"}]
        - for_each: p
          in: players
          do:
            - if: "p in keys(vote) and vote[p] == 'aye'"
              then: [add: {p.score: 2}]
scoring: {score: player.score, order: highest}
POLICIES"""

EAGER = """\
policies:
  eager:
    default: true
    decide:
      vote:
        - when: "d.face >= 5"
          choose: six
        - best: "if option == 'nay' then 2 else 1"
"""


@pytest.mark.parametrize("by, sealed, policies", [
    ("players", "", ""),  # every seat at random
    ("players", "sealed: true", ""),
    ("players", "", EAGER),  # a policy: its rules, the `when` that picks an illegal option
    ("\"[players[2], players[0]]\"", "", EAGER),  # some players, in the list's order
    ("\"opponents(current)\"", "", ""),
    ("\"current.others\"", "sealed: true", EAGER),
])
def test_named_options_chosen_by_several_players_play_as_the_interpreter(by, sealed, policies):
    text = VOTE.replace("BY", by).replace("          SEALED\n",
                                          f"          {sealed}\n" if sealed else "")
    program = program_of(text.replace("POLICIES", policies), "vote.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(30))
    logs = [r for _, log in played for r in log]
    assert {r["choice"] for r in logs if r["t"] == "decision"} >= {"aye", "nay"}
    assert any(r.get("only") for r in logs if r["t"] == "decision") or policies
    if sealed:
        assert any(r["t"] == "revealed" for r in logs)
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 3


def test_the_choice_of_a_player_who_did_not_decide_stops_the_game_in_the_interpreters_words():
    # Players 3 and 1 decide; reading Player 2's choice is the map's missing key, located.
    text = VOTE.replace("BY", '"[players[2], players[0]]"').replace("          SEALED\n", "")
    text = text.replace("p in keys(vote) and vote[p] == 'aye'", "vote[p] == 'aye'")
    played = plays_as_the_interpreter(program_of(text.replace("POLICIES", ""), "vote.yaml"),
                                      range(10))
    assert {r.error.message for r, _ in played} == {"the map has no key Player 2"}
    assert all(r.error.path[-1] == "if" for r, _ in played)


LEAVING = """\
meeple: 1
metadata: {name: Votes that leave}
players: {min: 3, max: 3}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - for_each: k
          in: "range(0, 3)"
          do:
            - choose: vote
              by: players
              options:
                stop:
                  do: [add: {current.score: 100}, LEAVE]
                go:
                  do: [add: {current.score: 1}]
            - add: {current.score: 10}
        - add: {current.score: 1000}
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("leave", ["end_turn: true", "break: true", "end_phase: true"])
def test_an_options_steps_that_leave_skip_the_later_deciders_steps_as_the_interpreter(leave):
    # The first decider who says stop leaves the loop, the turn or the phase: the later
    # deciders' steps and the steps after the decision do not run.
    program = program_of(LEAVING.replace("LEAVE", leave), "leaving.yaml")
    played = plays_as_the_interpreter(program, range(30))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 3


EARLY = """\
meeple: 1
metadata: {name: A vote read before it is taken}
players: {min: 2, max: 2}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 2"}
      do:
        - CHOOSE
        - add: {current.score: 1}
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("read, said", [
    ("count(keys(vote)) < 1", "keys(): expected a map, got none"),
    ("get(vote, players[0], 'x') == 'aye'", "get(): expected a map, got none"),
    ("vote[players[0]] == 'aye'", "none cannot be indexed with [...]"),
])
@pytest.mark.parametrize("choose", [
    "choose: vote\n          by: players\n          options:\n            aye: {if: \"READ\"}\n"
    "            nay: {}",
    # a number chosen by each: the map read by a guard of the bounds
    "choose: vote\n          by: players\n          min: 0\n          max: \"if READ then 1 else 2\"",
])
def test_a_decisions_map_read_before_any_answer_stops_the_game_in_the_interpreters_words(
        read, said, choose):
    text = EARLY.replace("CHOOSE", choose.replace("READ", read.replace('"', '\\"')))
    if "min:" in choose:  # a number's map holds numbers
        text = text.replace("== 'aye'", "== 1").replace("'x'", "0")
    played = plays_as_the_interpreter(program_of(text, "early.yaml"), range(5))
    assert {r.error.message for r, _ in played} == {said}
