"""Dice that lie in no zone (a ruleset without `zones`, as most dice games are) on the generated
code. The fastest form names each die in the code, its face a local; where the rules treat
dice in ways written only for dice as numbers (a loop or a comprehension over a set of dice,
`count`, `highest`, a die chosen, set or sent with an event, a race for dice, a die picked by
a condition), the generator writes the game again with the dice as numbers, as zones hold
them. Either way the games are the reference interpreter's, on every version; a ruleset that
needs neither keeps the fastest form."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.conftest import ROOT
from tests.generated_agreement import plays_as_the_interpreter, program_of

HEAD = """\
meeple: 1
metadata: {name: Loose dice}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
    pair: {count: 2}
    five: {count: 5}
state:
  global:
    sixes: 0
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - roll: five
        - roll: pair
STEPS
scoring: {score: player.score, order: highest}
"""

STEPS = {
    "for_each": """\
        - for_each: x
          in: pair
          do:
            - add: {current.score: x.face}""",
    "comprehension": """\
        - add: {current.score: "sum(x.face for x in five if x.face >= 4)"}
        - if: "any(x.face == 1 for x in five)"
          then: [add: {current.score: -1}]""",
    "count and highest": """\
        - add: {current.score: "count(five) + highest(five).face - lowest(pair).face"}""",
    "a die chosen": """\
        - choose: keep
          options: pair
        - add: {current.score: keep.face}""",
    "a face set": """\
        - if: "pair[0].face < pair[1].face"
          then:
            - set: {"pair[0].face": 6}
        - let: best
          be: highest(five)
        - add: {best.face: -1}
          max: 6
          min: 1
        - add: {current.score: "pair[0].face + best.face"}""",
    "a conditional die": """\
        - roll: "if round % 2 == 0 then d else pair[0]"
        - add: {current.score: "if d.face != none then d.face else 0"}""",
    "the dice of an event": """\
        - add: {current.score: sixes}""",
}

EVENT = """\
triggers:
  counted:
    on: rolled
    if: "count([x for x in event.dice if x.face == 6]) > 0 and not (d in event.dice)"
    do: [add: {sixes: 1}]
"""


@pytest.mark.parametrize("name", sorted(STEPS))
def test_loose_dice_the_fastest_form_cannot_hold_play_as_the_interpreter(name):
    text = HEAD.replace("STEPS", STEPS[name])
    if name == "the dice of an event":
        text += EVENT
    program = program_of(text, "loose.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    assert "F = [None] * 8" in specialize(program).source  # the dice as numbers
    played = plays_as_the_interpreter(program, range(30))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 3


def test_a_ruleset_the_fastest_form_holds_keeps_it():
    # Pig's die is a name of the code's own, its face a local: no table of faces.
    source = specialize(load(str(ROOT / "rulesets" / "pig.yaml")).program).source
    assert "F = [None]" not in source


def test_where_neither_form_holds_the_rules_the_first_refusal_is_told():
    # A loop over a set of dice (the fastest form refuses it) and a die with faces that are
    # not numbers beside dice with numbers (the numbers' form refuses it): the first is told.
    text = HEAD.replace("STEPS", STEPS["for_each"]).replace(
        "    five: {count: 5}\n", "    five: {count: 5}\n    sign: {faces: [star, moon]}\n")
    refused: list = []
    assert specialize(program_of(text, "both.yaml"), refused=refused) is None
    assert [str(u) for u in refused] == ["for_each over something not a list"]


def test_loose_dice_stay_numbers_through_the_passes_that_learn_what_lists_hold():
    # A list whose items nothing tells makes the generator learn in passes: each pass keeps
    # the dice as numbers.
    text = HEAD.replace("STEPS", STEPS["comprehension"]).replace(
        "    sixes: 0\n", "    sixes: 0\n    kept: {type: list, initial: []}\n")
    program = program_of(text, "learning.yaml")
    for options in ({}, {"logged": True}, {"wide": True}):
        refused: list = []
        assert specialize(program, refused=refused, **options) is not None, refused
    plays_as_the_interpreter(program, range(20))
