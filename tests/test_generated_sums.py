"""`sum` in the generated code: of whole numbers, a comprehension's items are added as they
come, with no list (interpreter/compile/cuts.py `running_sum`, loops.py); of numbers that may have
a fraction, Python's `sum` of the list, as the interpreter's (a newer Python rounds a sum of
fractions otherwise than adding them one by one). Either way the games play as the
reference interpreter's."""

from __future__ import annotations

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

PILES = """\
meeple: 1
metadata: {name: Piles}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6, count: 12, in: bag}
  zones:
    bag: {kind: bag}
    pile: {kind: row, owner: player}
state:
  player:
    score: {type: int, initial: 0}
    weight: {type: number, initial: 0.0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 5"}
      do:
        - draw: bag
          as: got
          to: current.pile
        - roll: got
        - add: {current.score: "sum(d.face * 3 for d in current.pile if d.face > 2)"}
        - set: {current.weight: "sum(d.face * 0.1 for d in current.pile)"}
      next: end
scoring: {score: "player.score + round(player.weight)", order: highest}
"""


def test_a_sum_of_whole_numbers_adds_each_item_and_a_sum_of_numbers_keeps_pythons():
    lines = specialize(program_of(PILES, "piles.yaml")).source.splitlines()
    whole = next(i for i, ln in enumerate(lines) if "* 3" in ln)
    fractions = next(i for i, ln in enumerate(lines) if "0.1" in ln)
    # Each face (times 3) is added to the running sum; no list is made, no `sum` called.
    assert " += " in lines[whole] and ".append(" not in lines[whole]
    assert "sum(" not in "\n".join(lines[whole - 5:whole + 3])
    # The fractions are listed, then summed by Python's `sum`.
    assert ".append(" in lines[fractions] and "sum(_lw" in lines[fractions + 1]


def test_sums_of_whole_numbers_and_of_fractions_play_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(PILES, "piles.yaml"), range(40))
    assert all(r.error is None for r, _ in results)
    assert len({r.to_json()["seats"][0]["score"] for r, _ in results}) > 5
