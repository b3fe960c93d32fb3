"""`in` between texts (`'ay' in current.name`: whether one text lies within the other) on the
generated code, as the interpreter's `in` on a text; every version."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

NAMES = """\
meeple: 1
metadata: {name: Names}
players: {min: 3, max: 3}
components:
  dice:
    d: {sides: 6}
state:
  global:
    word: {type: string, initial: "'layer'"}
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - roll: d
        - if: "TEST"
          then: [add: {current.score: "d.face"}]
          else: [add: {current.score: 1}]
        - if: "d.face > 4"
          then: [set: {word: "word + text(d.face)"}]
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("test", [
    "'ayer 2' in current.name",  # Player 2 only
    "'6' not in word",
    "word in current.name + ' player'",  # never: no name holds the word
])
def test_a_text_within_a_text_plays_as_the_interpreter(test):
    program = program_of(NAMES.replace("TEST", test.replace('"', '\\"')), "names.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(20))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > (0 if "word in" in test
                                                                         else 3)
