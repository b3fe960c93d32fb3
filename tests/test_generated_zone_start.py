"""The dice in their zones when a game begins, in generated code (interpreter/compile/zones.py
`_zone_init`): each zone holds its components' dice in the order they are declared, each die's
place is its zone, and every player's (team's) zone is a list of its own. Components that sit
next to each other in one zone are written as one run; components of another zone between them
keep theirs apart."""

from __future__ import annotations

import re

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Three bags}
players: {min: 2, max: 3, default: 3}
components:
  dice:
    red: {sides: 6, count: 2, in: left, attributes: {colour: red}}
    white: {sides: 6, count: 3, in: left, attributes: {colour: white}}
    blue: {sides: 6, count: 2, in: right, attributes: {colour: blue}}
    green: {sides: 6, count: 3, in: left, attributes: {colour: green}}
    black: {sides: 6, count: 1, in: right, attributes: {colour: black}}
  zones:
    left: {kind: bag}
    right: {kind: bag}
    hand: {kind: hand, owner: player}
state:
  player:
    points: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - draw: left
          count: 1
          as: a
          to: current.hand
        - draw: right
          count: 1
          as: b
          to: current.hand
        - if: "round == 2 and current == players[0]"
          then:  # dice moved by name leave the zone they are in, wherever that is
            - move: white
              to: current.hand
            - move: black
              to: current.hand
        - roll: current.hand
        - add: {current.points: "sum(d.face for d in current.hand if d.colour != 'green')"}
        - add: {current.points: "10 * count(d for d in current.hand if d.colour == 'blue')"}
        - if: "count(current.hand) > 3"
          then:
            - move: current.hand
              to: right
      next: end
scoring: {score: player.points, order: highest}
"""


def test_each_die_starts_in_its_components_zone_and_plays_as_the_interpreter():
    program = program_of(GAME, "bags.yaml")
    source = specialize(program).source
    # red and white are one run of the left bag; blue, then green, then black each their own.
    runs = re.findall(r"Z_(\w+) \+= range\((\d+), (\d+)\)", source)
    assert runs == [("left", "0", "5"), ("right", "5", "7"), ("left", "7", "10"),
                    ("right", "10", "11")]
    for zone, a, b in runs:
        assert f"W[{a}:{b}] = [Z_{zone}] * {int(b) - int(a)}" in source
    assert "ZP_hand = [[], [], []]" in source  # three lists, one per player
    results = plays_as_the_interpreter(program, range(40))
    assert len({tuple(s.score for s in r.seats) for r, _ in results}) > 10


def test_the_faces_getter_is_made_only_where_the_code_reads_it():
    # `map(_fg0, dice)` reads faces at C speed; a game that never reads faces that way does
    # not make the getter (peephole.py drops the store nothing reads).
    plain = specialize(program_of(GAME, "bags.yaml")).source
    assert "_fg0" not in plain
    text = GAME.replace("sum(d.face for d in current.hand if d.colour != 'green')",
                        "total(current.hand)")
    assert text != GAME
    program = program_of(text, "bags.yaml")
    source = specialize(program).source
    assert source.count("_fg0 = _getter(F)") == 1 and "map(_fg0, " in source
    assert "__getitem__" not in source
    plays_as_the_interpreter(program, range(20))
