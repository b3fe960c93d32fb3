"""Decisions whose policy picks an option known now in one rule (`when: ..., choose: X`) and
the best option in another (`best:`), and options named by whole numbers (`options: [1, 2,
3]`), alone or chosen by several players, on the generated code: the pick counted and the
decision's value held whichever rule made it, as the reference interpreter; every version."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Picks}
players: {min: 3, max: 3}
components:
  dice:
    d: {sides: 6}
state:
  global:
    pot: 0
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - roll: d
        - choose: n
          options: OPTIONS
        - add: {current.score: "VALUE * d.face"}
        - choose: bet
          by: players
          options: [0, 5, 10]
        - for_each: p
          in: players
          do: [add: {p.score: "bet[p]", pot: "bet[p]"}]
scoring: {score: player.score, order: highest}
policies:
  greedy:
    default: true
    decide:
      n:
        - when: "d.face > 4"
          choose: TOP
        - best: BEST
      bet:
        - when: "d.face == 1"
          choose: 0
        - best: "option * (if d.face > 3 then 1 else -1)"
"""

CASES = {
    "names": ("[one, two, three]", "(if n == 'three' then 3 else 1)", "three",
              "\"if option == 'two' then 1 else 0\""),
    "whole numbers": ("[1, 2, 3]", "n", "3", "\"option * (if d.face > 2 then 1 else -1)\""),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_pick_known_now_beside_a_best_rule_is_counted_and_held_as_the_interpreter(case):
    options, value, top, best = CASES[case]
    text = (GAME.replace("OPTIONS", options).replace("VALUE", value).replace("TOP", top)
            .replace("BEST", best))
    program = program_of(text, "picks.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(30))
    assert all(r.error is None for r, _ in played)
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 20
