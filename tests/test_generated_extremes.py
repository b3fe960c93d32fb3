"""`min` and `max` of two names or numbers written as a conditional (interpreter/compile/
offsets.py `chosen`), and a transfer's amount taken with two comparisons (checks.py): a call
of the built-in costs several times a comparison. As the built-in: the first value unless the
second is less (more), and a comparison with none (a die not rolled yet) raises as the
built-in's own comparison does. The games, and the rule errors they stop at, stay the
interpreter's."""

from __future__ import annotations

import re

from interpreter.compile.offsets import chosen
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Lows and highs}
players: {min: 2, max: 3, default: 3}
components:
  dice:
    a: {sides: 6}
    b: {sides: 6}
state:
  player:
    chips: {type: int, initial: 3}
    low: {type: int, initial: 0}
  global:
    high: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 12"}
      do:
        - roll: a
        - if: "a.face >= 3 or round > 1"
          then: [{roll: b}]
        - set: {current.low: "min(a.face, b.face)"}
        - set: {high: "max(high, a.face + b.face)"}
        - transfer: "a.face - 1"
          of: chips
          from: current
          to: "next_player(current)"
      next: end
scoring: {score: player.chips, order: highest}
"""


def test_min_and_max_of_two_names_or_numbers_are_conditionals():
    assert chosen("min", ["F_a", "F_b"]) == "(F_b if F_b < F_a else F_a)"
    assert chosen("max", ["now", "_at3"]) == "(_at3 if _at3 > now else now)"
    assert chosen("max", ["0", "-2"]) == "(-2 if -2 > 0 else 0)"
    # Three values, or a value that is worked out: the built-in, which reads each once.
    assert chosen("min", ["F_a", "F_b", "F_c"]) == "min(F_a, F_b, F_c)"
    assert chosen("max", ["V_x", "(F_a + F_b)"]) == "max(V_x, (F_a + F_b))"


def test_games_with_min_max_and_transfers_play_as_the_interpreter():
    program = program_of(GAME, "lows.yaml")
    source = specialize(program).source
    assert not re.search(r"\b(min|max)\(F_a, F_b\)", source)  # the faces' indexes
    assert not re.search(r"= min\(", source)  # the transfer's amount
    results = plays_as_the_interpreter(program, range(40))
    # Some games stop where b is not rolled yet (its face is none), and transfers meet
    # givers short of the amount and amounts below 0.
    assert any(result.error is not None for result, _ in results)
    assert any(result.error is None for result, _ in results)
