"""`sort_by` of dice (`sort_by(pool, '-face')`, by an attribute, by two keys) on the
generated code, as the interpreter's built-in: a stable sort by each key from the last; a die
not rolled yet (its face none) stops the game in the built-in's words; every version."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

SORTED = """\
meeple: 1
metadata: {name: Sorted dice}
players: {min: 2, max: 2}
components:
  dice:
    red: {count: 3, in: pool, attributes: {colour: red, rank: 2}}
    blue: {count: 3, in: pool, attributes: {colour: blue, rank: 1}}
    spare: {count: 1, in: shelf, attributes: {colour: grey, rank: 0}}
  zones:
    pool: {kind: pool}
    shelf: {kind: pool}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - roll: pool
        - let: top
          be: "first(SORT)"
        - add: {current.score: "top.face * 10 + (if top.colour == 'red' then 1 else 0)"}
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("sort", [
    "sort_by(pool, '-face')",
    "sort_by(pool, 'face')",
    "sort_by(pool, 'rank', '-face')",  # blue first, then its highest
    "sort_by(pool + shelf, '-face')",  # the spare die is never rolled: none stops
])
def test_dice_sorted_by_their_fields_play_as_the_interpreter(sort):
    program = program_of(SORTED.replace("SORT", sort), "sorted.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(30))
    stops = {r.error.message for r, _ in played if r.error is not None}
    if "shelf" in sort:
        assert stops
    else:
        assert not stops and len({tuple(s.score for s in r.seats) for r, _ in played}) > 5
