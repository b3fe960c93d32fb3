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
