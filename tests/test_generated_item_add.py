"""`add` to an item of list state (`add: {"xs[1]": 2}`, `current.marks[k]`) on the generated
code, as the reference interpreter's `add`: the item read first (a negative key or one past
the ends stops the game there), the sum bounded by `min`/`max`, written as a new list (no
other name holding the list sees it change), `changed` fired with the old and new values; on
every version alike."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

MARKS = """\
meeple: 1
metadata: {name: Marks}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
state:
  global:
    xs: {type: list, initial: '[0, 0, 0]'}
    kept: {type: list, initial: '[]'}
    seen: 0
  player:
    marks: {type: list, initial: '[0, 0, 0, 0, 0, 0]'}
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - roll: d
        - set: {kept: xs}
        - add: {"KEY": d.face}
          BOUNDS
        - add: {"current.marks[d.face - 1]": 1}
        - add: {current.score: "xs[1] + current.marks[d.face - 1] + count(kept)"}
scoring: {score: player.score, order: highest}
triggers:
  watch:
    on: changed
    if: "event.name == 'KEY'"
    do: [add: {seen: "event.value - event.old"}]
"""


@pytest.mark.parametrize("key, bounds", [
    ("xs[1]", ""),
    ("xs[1]", "max: 10"),
    ("xs[d.face % 3]", "min: 2"),
    ("xs[d.face - 4]", ""),  # a negative key: the read stops the game
    ("xs[d.face]", ""),  # past the ends on 3 and more
])
def test_an_add_to_an_item_of_list_state_plays_as_the_interpreter(key, bounds):
    text = MARKS.replace("KEY", key).replace("          BOUNDS\n",
                                              f"          {bounds}\n" if bounds else "")
    program = program_of(text, "marks.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(30))
    stops = {r.error.message for r, _ in played if r.error is not None}
    if "- 4" in key or key == "xs[d.face]":
        assert stops  # the interpreter's stop, met at the same place by every version
    else:
        assert not stops
        assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 3
