"""A player's `others` on the generated code: the other players in turn order from that one,
those who are out included (what `opponents` leaves out), as the reference interpreter's
Player.others gives them; on every version."""

from __future__ import annotations

from tests.generated_agreement import plays_as_the_interpreter, program_of

OTHERS = """\
meeple: 1
metadata: {name: Others}
players: {min: 3, max: 3}
components:
  dice:
    d: {sides: 6}
state:
  global:
    out_counted: 0
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - roll: d
        - if: "d.face == 1 and count(opponents(current)) > 1"
          then: [eliminate: current]
        - for_each: p
          in: current.others
          do: [add: {p.score: "d.face + count(p.others)"}]
        - add: {current.score: "first(current.others).seat * 10"}
        - add: {out_counted: "count(current.others) - count(opponents(current))"}
scoring: {score: "player.score + out_counted", order: highest}
"""


def test_a_players_others_are_everyone_else_in_turn_order_out_or_not_as_the_interpreter():
    played = plays_as_the_interpreter(program_of(OTHERS, "others.yaml"), range(30))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 10
    # Some games put a player out: `others` still counts them where `opponents` does not.
    assert any(any(s.eliminated for s in r.seats) for r, _ in played)
