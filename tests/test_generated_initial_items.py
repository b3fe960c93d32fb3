"""List and map state with items written out from the start (`initial: {low: 1, mid: 3}`,
`initial: [ace, deuce]`) on the generated code: a fresh list or map each game and each
player, as the interpreter's deep copy, read and changed as the interpreter does; on every
version."""

from __future__ import annotations

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

PRICES = """\
meeple: 1
metadata: {name: Prices}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
state:
  global:
    prices: {type: map, initial: {low: 1, mid: 3, high: 6}}
    rank: {type: map, initial: {1: 10, 2: 20}}
    words: {type: list, initial: [ace, deuce]}
    weights: {type: list, initial: [1.5, 2.5]}
  player:
    score: {type: int, initial: 0}
    owned: {type: map, initial: {gold: 0}}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - roll: d
        - set: {"prices['mid']": "prices['mid'] + d.face"}
        - add: {"current.owned['gold']": "d.face"}
        - add: {current.score: "prices['mid'] + get(rank, text(d.face), 0) + count(words)"}
        - add: {current.score: "current.owned['gold'] + floor(sum(weights))"}
        - if: "d.face == 6"
          then: [add: {words: "'six'"}]
        - say: "{count(words)} {current.owned['gold']}"
scoring: {score: player.score, order: highest}
"""


def test_list_and_map_state_written_out_from_the_start_plays_as_the_interpreter():
    program = program_of(PRICES, "prices.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(30))
    assert all(r.error is None for r, _ in played)
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 10
    # Each player's map is their own: the two players' gold differs in some games.
    said = [r["text"] for _, log in played for r in log if r["t"] == "say"]
    assert len({text.split(" ", 1)[1] for text in said}) > 3
