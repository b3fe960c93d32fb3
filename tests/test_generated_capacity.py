"""A zone's `capacity` in the generated code: items put into a zone past the most it holds
stop the game at the step's `to` (Game.put: after they left their zones), in the
interpreter's words, telling the zone by its id (a player's zone by the player's name), in
the fast, checked and logged versions, game for game."""

from __future__ import annotations

from collections import Counter

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

TRAYS = """\
meeple: 1
metadata: {name: Trays}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6, count: 8, in: bag}
  zones:
    bag: {kind: bag}
    tray: {kind: row, capacity: 5}
    hand: {kind: row, owner: player, capacity: 2}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 4"}
      do:
        - draw: bag
          as: got
          to: current.hand
        - roll: current.hand
        - if: "count(current.hand) == 2 and total(current.hand) > 6"
          then:
            - move: current.hand
              to: tray
        - if: "count(current.hand) == 2 and total(current.hand) < 4"
          then:
            - move: "first(current.hand)"
              to: bag
        - add: {current.score: "count(tray)"}
      next: end
scoring: {score: "player.score", order: highest}
"""


def test_a_zone_filled_past_its_capacity_stops_the_game_where_the_interpreter_does():
    played = plays_as_the_interpreter(program_of(TRAYS, "trays.yaml"), range(120))
    assert {r.error.path[-1] for r, _ in played if r.error is not None} == {"to"}
    reasons = Counter(r.reason for r, _ in played)
    # A draw past a player's zone's capacity, a move past the tray's, and games that end.
    assert reasons["stopped: zone Player 1.hand holds at most 2"]
    assert reasons["stopped: zone tray holds at most 5"]
    assert reasons["the flow reached its end"]


DEAL = """\
meeple: 1
metadata: {name: Deal}
players: {min: 2, max: 2}
components:
  decks:
    cards: {cards: [{v: 1}, {v: 2}, {v: 3}, {v: 4}, {v: 5}, {v: 6}, {v: 7}, {v: 8}], in: pile}
  zones:
    pile: {kind: deck}
    hand: {kind: row, owner: player, capacity: 3}
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
          count: "if round == 1 then 2 else 1"
        - add: {current.score: 1}
      next: end
scoring: {score: "player.score", order: highest}
"""


def test_cards_dealt_past_a_hands_capacity_stop_the_game_where_the_interpreter_does():
    # Two cards, then one: the first player's third deal is one past the three a hand holds.
    played = plays_as_the_interpreter(program_of(DEAL, "deal.yaml"), range(20))
    assert {r.reason for r, _ in played} == {"stopped: zone Player 1.hand holds at most 3"}


def test_a_capacity_not_known_before_the_game_keeps_its_games_on_the_interpreter():
    # Worked out when the game is set up (`first` of a list is not folded now): the code
    # generator says so, located at the zone by `meeple validate --compile`, and does not guess.
    text = TRAYS.replace("capacity: 5}", "capacity: 'first([5, 6])'}")
    refused: list = []
    assert specialize(program_of(text, "trays.yaml"), refused=refused) is None
    assert str(refused[0]) == "a zone's capacity that is not a number known now"
