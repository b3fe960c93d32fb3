"""`roll` of a list of dice, sets of dice and zones (`roll: [gold, black]`) in a game with
zones, on the generated code: one roll of every die they hold, in order, as the reference
interpreter flattens the list (logs alike), and a die that is none stops the game at the
roll, where the interpreter stops it."""

from __future__ import annotations

import pytest

from tests.generated_agreement import plays_as_the_interpreter, program_of

GOLD_AND_BLACK = """\
meeple: 1
metadata: {name: Gold and black}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
    gold: {count: 2, attributes: {colour: gold}}
    black: {count: 2, attributes: {colour: black}}
    spare: {count: 2, in: tray}
  zones:
    tray: {kind: pool}
    box: {kind: pool}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - roll: ROLLED
        - add: {current.score: "count(tray) + sum(x.face for x in black if x.face != none)"}
        - if: "count(tray) > 0 and round >= 2"
          then:
            - move: first(tray)
              to: box
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("rolled", [
    "[gold, black]",  # two sets of dice
    "[d, gold, tray]",  # a die, a set and a zone
    '[black, "first(tray)"]',  # a die that is none once the tray is empty
])
def test_a_roll_of_a_list_of_dice_sets_and_zones_rolls_them_all_as_the_interpreter(rolled):
    program = program_of(GOLD_AND_BLACK.replace("ROLLED", rolled), "gold.yaml")
    played = plays_as_the_interpreter(program, range(30))  # the logs' roll records too
    rolls = [r for _, log in played for r in log if r["t"] == "roll"]
    assert rolls and all(len(r["dice"]) >= 2 for r in rolls)
    if "first(tray)" in rolled:
        assert any(r.error is not None for r, _ in played)
    else:
        assert all(r.error is None for r, _ in played)


ONCE = """\
meeple: 1
metadata: {name: A roll list read once}
players: {min: 2, max: 2}
components:
  dice:
    gold: {count: 2}
    spare: {count: 3, in: tray}
  zones:
    tray: {kind: pool}
state:
  global:
    heard: 0
  player:
    score: {type: int, initial: 0}
triggers:
  counted:
    on: rolled
    do: [add: {heard: "count(event.dice)"}]
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - roll: ROLLED
        - add: {current.score: "heard"}
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("rolled", [
    '["[x for x in tray if x.face == none or x.face > 3]", gold]',
    '"[x for x in tray if x.face == none or x.face > 3]"',
])
def test_the_dice_a_roll_names_are_worked_out_once_and_rolled_gets_them(rolled):
    # A list that reads the faces would name other dice after the roll: `rolled` gets the
    # dice rolled, as the interpreter works the list out once (its work counted once).
    played = plays_as_the_interpreter(program_of(ONCE.replace("ROLLED", rolled), "once.yaml"),
                                      range(30))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 5
