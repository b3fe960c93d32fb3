"""A `draw` with `replace: true` and a `to` on the generated code: the items drawn stay in
their zone (drawing with replacement), so `to` is not read, as the interpreter's draw does;
every version."""

from __future__ import annotations

from tests.generated_agreement import plays_as_the_interpreter, program_of

PEEK = """\
meeple: 1
metadata: {name: Peek}
players: {min: 2, max: 2}
components:
  dice:
    red: {count: 4, in: bag}
  zones:
    bag: {kind: bag}
    tray: {kind: pool}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - draw: bag
          as: seen
          count: 2
          replace: true
          to: tray
        - roll: seen
        - add: {current.score: "total(seen) + 10 * count(tray) + count(bag)"}
scoring: {score: player.score, order: highest}
"""


def test_a_draw_with_replacement_leaves_the_items_where_they_are_whatever_its_to():
    played = plays_as_the_interpreter(program_of(PEEK, "peek.yaml"), range(20))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 5
    # Nothing ever reaches the tray, nor leaves the bag: two or three turns of two faces and
    # the bag's 4 dice score from 12 to 48.
    assert all(12 <= s.score <= 48 for r, _ in played for s in r.seats)
