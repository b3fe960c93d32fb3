"""`decided` triggers reading the event's fields on the generated code, as decision_steps
fires them: `event.id`, `event.choice` (what the decision's name holds: an option's name, a
number, a player; a map of each decider's answer for several) and `event.by` (one decider;
the event of several has none, and reading it stops the game in the interpreter's words);
on every version against the reference interpreter."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

HEAD = """\
meeple: 1
metadata: {name: Decided}
players: {min: 3, max: 3}
components:
  dice:
    d: {sides: 6}
state:
  global:
    heard: 0
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - roll: d
        - STEP
        - add: {current.score: "d.face"}
scoring: {score: player.score, order: highest}
triggers:
  heard:
    on: decided
    TEST
"""

CASES = {
    "named": ("choose: go\n          options: [low, high]",
              "if: \"event.id == 'go' and event.choice == 'high'\"\n"
              "    do: [add: {event.by.score: 3}]"),
    "number": ("choose: bid\n          min: 0\n          max: \"d.face\"",
               "do: [add: {heard: \"event.choice\", event.by.score: 1}]"),
    "player": ("choose: target\n          options: opponents(current)",
               "do: [add: {event.choice.score: \"event.by.seat\"}]"),
    "several": ("choose: vote\n          by: players\n          options: [aye, nay]",
                "if: \"count([p for p in players if event.choice[p] == 'aye']) >= 2\"\n"
                "    do: [add: {heard: 1}]"),
    "several, by": ("choose: vote\n          by: players\n          options: [aye, nay]",
                    "if: \"event.by == current\"\n    do: [add: {heard: 1}]"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_decided_triggers_read_the_events_fields_as_the_interpreter_fires_them(case):
    step, test = CASES[case]
    program = program_of(HEAD.replace("STEP", step).replace("TEST", test), "decided.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(30))
    stops = {r.error.message for r, _ in played if r.error is not None}
    if case == "several, by":  # the event of several deciders has no `by`
        assert stops == {"a map has no field 'by'"}
    else:
        assert not stops
        assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 3
