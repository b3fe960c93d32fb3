"""A `move` of a list whose items all differ, in generated code (interpreter/compile/base.py
`Ex.distinct`, zones.py `_s_move`): a zone's items, a race's claims and what a comprehension
keeps of such a list (`[d for d in hand if ...]`, bound by `let` or not) are moved without
looking for an item listed twice; any other list is looked through, and one that names a die
twice stops the game where the interpreter stops it. A list of its own (`Ex.fresh`: not a
zone's, which changes as its dice leave) is moved without a copy."""

from __future__ import annotations

import re

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Sorting}
players: {min: 2, max: 2, default: 2}
components:
  dice:
    d: {sides: 6, count: 12, in: bag}
  zones:
    bag: {kind: bag}
    hand: {kind: hand, owner: player}
    kept: {kind: row, owner: player}
state:
  player:
    points: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - draw: bag
          count: 3
          as: got
          to: current.hand
        - roll: current.hand
        - let: high
          be: "[d for d in current.hand if d.face >= 4]"
        - move: MOVED
          to: current.kept
        - add: {current.points: "count(current.kept) * 10 + total(current.kept)"}
        - move: current.hand
          to: bag
      next: end
scoring: {score: player.points, order: highest}
"""

TWICE = re.compile(r"if len\((_x\d+)\) > 1 and len\(set\(\1\)\) != len\(\1\):")
COPIED = re.compile(r"(_x\d+) = list\(\1\)")


def _game(moved: str):
    return program_of(GAME.replace("MOVED", moved), "sorting.yaml")


@pytest.mark.parametrize("moved", [
    'high',                                                 # a let of a zone's filter
    '"[d for d in high if d.face != 6]"',                   # a filter of that
    '"[d for d in current.hand if d.face <= 2]"',           # a zone's filter, in place
    '"[d for d in current.hand]"',                          # a copy of a zone
])
def test_a_list_of_different_dice_is_moved_without_looking_for_one_listed_twice(moved):
    program = _game(moved)
    source = specialize(program).source
    assert not TWICE.search(source)
    # A list of its own is moved as it is; the hand, a zone's own list that changes as its
    # dice leave, is copied first (the turn's last step).
    assert len(COPIED.findall(source)) == 1
    results = plays_as_the_interpreter(program, range(30))
    assert all(r.error is None for r, _ in results)
    assert len({tuple(s.score for s in r.seats) for r, _ in results}) > 5


@pytest.mark.parametrize("moved", [
    '"high + high"',                                        # a die twice, where any is high
    '"[first(current.hand) for d in current.hand]"',        # the element is not the item
    '"[d for d in high + [first(current.hand)]]"',          # a filter of a list with a repeat
])
def test_a_list_that_may_name_a_die_twice_is_looked_through_and_stops_as_the_interpreter(
        moved):
    program = _game(moved)
    assert TWICE.search(specialize(program).source)
    results = plays_as_the_interpreter(program, range(30))
    stopped = [r.error for r, _ in results if r.error is not None]
    assert stopped and all("twice" in e.message for e in stopped)


RACE = """\
meeple: 1
metadata: {name: Race for doubles}
players: {min: 2, max: 2, default: 2}
components:
  dice:
    red: {count: 3, in: pool, attributes: {colour: red}}
  zones:
    pool: {kind: pool}
    box: {kind: pool}
state:
  player:
    got: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 2"}
      do:
        - roll: pool
        - race: grab
          items: ITEMS
          by: players
          error_rate: 0.2
        - move: grab[current]
          to: box
        - add: {current.got: "count(box) * 10 + count(grab[players[1]])"}
        - move: box
          to: pool
      next: end
scoring: {score: player.got, order: highest}
"""


@pytest.mark.parametrize("items", ["pool", '"[d for d in pool] + [d for d in pool]"',
                                   '"[d for d in pool if d.face > 2] + [first(pool)]"'])
def test_a_racer_claims_a_die_once_though_the_race_lists_it_twice(items):
    # As race._model: a claim takes every copy of the die out of what is left, so a race's
    # claims never name a die twice and are moved unchecked.
    program = program_of(RACE.replace("ITEMS", items), "doubles.yaml")
    source = specialize(program).source
    assert not TWICE.search(source)
    assert ("_y != " in source) == (items != "pool")  # every copy taken out
    results = plays_as_the_interpreter(program, range(40))
    assert all(r.error is None for r, _ in results)


@pytest.mark.parametrize("moved", ["grab[current]", '"[d for d in grab[current] if d.face > 0]"'])
def test_the_claims_of_a_seat_that_did_not_race_stop_the_game_as_the_interpreters_map(moved):
    # The second seat does not race: its claims are none, where the interpreter's map of
    # claims has no key for it. Every version stops there in its words (the fast one through
    # its checked version), not with a fault of the code generator.
    text = RACE.replace("ITEMS", "pool").replace("by: players",
                                                  'by: "[p for p in players if p.seat == 1]"')
    text = text.replace("move: grab[current]", f"move: {moved}")
    results = plays_as_the_interpreter(program_of(text, "one_racer.yaml"), range(10))
    assert all(r.error is not None and r.error.message == "the map has no key Player 2"
               for r, _ in results)
