"""An item's `zone` (a die's, a card's) on the generated code: the id of the
zone it lies in (`Player 1.hand` for a player's), '' in none, as the reference interpreter
reads them, on every version (fast, checked, logged), in a race's time too; and no table of
zone ids is built where no rule reads one."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

DICE = """\
meeple: 1
metadata: {name: Where the dice lie}
players: {min: 2, max: 2}
components:
  dice:
    red: {count: 2, in: pool}
    blue: {count: 1}
  zones:
    pool: {kind: pool}
    box: {kind: pool}
    hand: {kind: hand, owner: player}
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
        - if: "red[0].face > 3"
          then:
            - move: red[0]
              to: box
        - if: "red[1].face > 4"
          then:
            - move: red[1]
              to: current.hand
        - if: "red[1].face == 1"
          then:
            - move: red[1]
              to: "'out'"
        - if: "TEST"
          then:
            - add: {current.score: 1}
        - say: "{red[0].zone}|{red[1].zone}|{blue[0].zone}"
        - move: box
          to: pool
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("test", [
    "red[0].zone == 'box' or red[1].zone == current.name + '.hand'",
    "red[1].zone == ''",  # out of the game, or never placed (blue)
    "count([d for d in pool if d.zone == 'pool']) > 1",
    "first(box).zone == 'box'",  # none when the box is empty: the interpreter's stop
])
def test_a_dies_zone_is_the_id_of_the_zone_it_lies_in_as_the_interpreter_reads_it(test):
    program = program_of(DICE.replace("TEST", test.replace('"', '\\"')), "dice.yaml")
    played = plays_as_the_interpreter(program, range(30))
    said = {r["text"] for _, log in played for r in log if r["t"] == "say"}
    # Every place a die can be is read somewhere: a zone, a player's zone, none.
    assert {"box", "pool", "Player 1.hand", "Player 2.hand", ""} <= {
        w for text in said for w in text.split("|")}
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 1


def test_a_zone_read_of_none_stops_the_game_where_the_interpreter_does():
    program = program_of(DICE.replace("TEST", "first(box).zone == 'box'"), "dice.yaml")
    played = plays_as_the_interpreter(program, range(30))
    assert "none has no field 'zone'" in {r.error.message for r, _ in played if r.error}


CARDS = """\
meeple: 1
metadata: {name: Where the cards lie}
players: {min: 2, max: 2}
components:
  decks:
    cards: {cards: [{v: 1}, {v: 2}, {v: 3}, {v: 4}, {v: 5}, {v: 6}], in: pile}
  zones:
    pile: {kind: deck}
    discard: {kind: pool}
    hand: {kind: row, owner: player}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      on_begin: [shuffle: pile]
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - deal: pile
          to: current.hand
        - if: "last(current.hand).v > 3"
          then:
            - move: last(current.hand)
              to: discard
        - add: {current.score: "count([c for c in cards if c.zone == current.name + '.hand'])"}
        - say: "{[c.zone for c in cards]} {count([c for c in cards if c.zone == 'discard'])}"
scoring: {score: player.score, order: highest}
"""


def test_a_cards_zone_is_read_as_the_interpreter_reads_it():
    played = plays_as_the_interpreter(program_of(CARDS, "cards.yaml"), range(30))
    said = [r["text"] for _, log in played for r in log if r["t"] == "say"]
    assert any("Player 2.hand" in text for text in said) and any("discard" in text for text in said)
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 1


RACE = """\
meeple: 1
metadata: {name: Where a claimed die lies}
players: {min: 2, max: 2}
components:
  dice:
    red: {count: 3, in: pool}
  zones:
    pool: {kind: pool}
    box: {kind: pool}
state:
  global:
    racing: false
    seen: {type: int, initial: 0}
events:
  knock:
    hazard: 0.5
    during: racing
triggers:
  look:
    on: knock
    do:
      - add: {seen: "count([d for d in red if d.zone == 'pool']) * 10 + count(pool)"}
      - if: "red[2].zone == 'pool'"
        then:
          - move: red[2]
            to: box
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 2"}
      do:
        - roll: pool
        - set: {racing: true}
        - race: grab
          items: pool
          by: players
        - set: {racing: false}
        - say: "{seen} {red[0].zone} {red[1].zone} {red[2].zone}"
        - move: box
          to: pool
"""


def test_a_claimed_die_still_lies_in_its_zone_during_the_race_as_the_interpreter_has_it():
    # During the race's time a claimed die is in a racer's hand, out of reach of a draw, yet
    # its `zone` is still its zone's: a knock counts it there, and moves it by name.
    played = plays_as_the_interpreter(program_of(RACE, "race.yaml"), range(40))
    said = [r["text"] for _, log in played for r in log if r["t"] == "say"]
    assert any(text.split(" ")[0] not in ("0", "") for text in said)  # knocks happened
    assert any(text.endswith("box") for text in said)  # a claimed die moved by name


def test_no_table_of_zone_ids_is_built_where_no_rule_reads_an_items_zone():
    plain = program_of(DICE.replace("TEST", "red[0].face > 2").replace(
        '        - say: "{red[0].zone}|{red[1].zone}|{blue[0].zone}"\n', ""), "dice.yaml")
    assert "ZID" not in specialize(plain).source
    read = program_of(DICE.replace("TEST", "red[0].zone == 'box'"), "dice.yaml")
    assert "ZID" in specialize(read).source


def test_a_die_of_a_game_without_zones_lies_in_none():
    program = program_of("""\
meeple: 1
metadata: {name: No zones}
players: {min: 1, max: 1}
components:
  dice:
    d: {sides: 6}
state:
  global:
    sum_kept: {type: int, initial: 0}
flow:
  phases:
    play:
      do:
        - roll: d
        - if: "d.zone == '' and d.face > 2"
          then: [add: {sum_kept: d.face}]
        - say: "[{d.zone}] {sum_kept}"
      next: end
scoring: {score: sum_kept, order: highest}
""", "plain.yaml")
    played = plays_as_the_interpreter(program, range(20))
    said = {r["text"] for _, log in played for r in log if r["t"] == "say"}
    assert {text.split(" ")[0] for text in said} == {"[]"} and len(said) > 2


@pytest.mark.parametrize("read", ["red[0]. zone == 'box'", "red[0].\\tzone == 'box'"])
def test_a_zone_read_written_with_a_space_after_the_dot_builds_the_table(read):
    # `red[0]. zone` is the same field (the grammar allows space, a tab too, around the dot).
    text = DICE.replace("TEST", read).replace(
        '        - say: "{red[0].zone}|{red[1].zone}|{blue[0].zone}"\n', "")
    played = plays_as_the_interpreter(program_of(text, "dice.yaml"), range(20))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 2
