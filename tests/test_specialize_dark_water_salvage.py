"""The specializer plays Dark Water Salvage exactly as the interpreter does.

Dark Water Salvage (rulesets/dark_water_salvage.yaml) brings what no other shipped ruleset
does: a grid whose cells are read by id, attribute, neighbours, direction and distance
(interpreter/compile/grids.py); decks of cards with data fields, shuffled, dealt and drawn
into zones of every kind (interpreter/compile/cards.py); maps set at a key and read with
`get`, per-player lists of lists, and state whose items only a procedure far from where a
policy reads it tells (interpreter/compile/maps.py, learned before the game is written);
`sort_by`, `unique`, `text`, `first` of cells and cards (interpreter/compile/kinds.py); a
sealed number chosen by every player and turns in the order an expression gives
(interpreter/compile/deciders.py); options given by a list of cells and decisions nested in
an option's steps. For the ruleset, each variant, 2 to 5 players and mixed seats, seeded games
played by the generated function must give the interpreter's result (winners, scores,
placements, reason, rounds, turns, steps) and the same trigger, decision and unruled counts,
with no seed handed back; three small neutral games cover each feature on its own.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from interpreter.simulate import runner as sim
from tests.test_specialize import _same, same_records

ROOT = Path(__file__).resolve().parents[1]
DWS = str(ROOT / "rulesets" / "dark_water_salvage.yaml")
SEATS = ["sonar_hunter", "bold_bidder", "policy:random", "random"]


def _mixed_seats(players: int, seed: int) -> dict[int, str]:
    """A seat configuration drawn once from the ruleset's policies and random seats."""
    rng = random.Random(seed)
    return {i + 1: rng.choice(SEATS) for i in range(players)}


def test_the_default_game_gives_the_interpreters_games():
    _same(DWS, range(40))


@pytest.mark.parametrize("variant", ["extra_round", "shared_win", "double_research"])
def test_variants_give_the_interpreters_games(variant):
    _same(DWS, range(20), variant)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_mixed_seats_at_every_table_size_give_the_interpreters_games(players):
    # sonar_hunter and bold_bidder (a policy that extends it), the ruleset's random policy
    # (every decision at random, its Application a number) and random seats (a random
    # whole number up to 10**9 as an Application: such a player takes the whole pool).
    _same(DWS, range(20), players=players, seats=_mixed_seats(players, players))


def test_parameters_give_the_interpreters_games():
    _same(DWS, range(20), sets={"bot_reserve": "2", "research_cost": "2", "locate_cost": "1",
                                "final_round_rule": "extra_round_after_last_chip"},
          players=3, seats={2: "bold_bidder"})


def test_the_generated_game_is_written_once_and_reads_no_interpreter_object():
    special = specialize(load(DWS).program)
    assert special is not None
    # Cells are their ids, cards numbers: no Cell, Card or Zone object reaches the code.
    for word in ("Cell", "Card", "Zone", "Grid", "getattr"):
        assert word not in special.source


# A walk over a grid: cell attributes from `default`, `row_attributes`, `column_attributes`
# and `cells`, ids in a format of their own, cell state that starts none, `GRID[id]`,
# `GRID.cells`, `neighbours`, `direction`, `distance`, `adjacent`, `row`, `column`, options
# given by a list of cells weighed by `best`, `options` read as a list, turns in the order of
# an expression, a list of texts grown by `add`, `unique` in the scoring.
GRID_WALK = """\
meeple: 1
metadata: {name: Lantern Walk}
players: {min: 2, max: 5, default: 3}
components:
  dice:
    d: {sides: 6}
  grids:
    field:
      columns: [a, b, c, d, e, f]
      rows: [1, 2, 3, 4]
      id: "{column}-{row}"
      default: {kind: grass, light: 0}
      row_attributes:
        1: {height: 1}
        2: {height: 2}
        3: {height: 2}
        4: {height: 3}
      column_attributes:
        f: {kind: shore}
      cells:
        a-1: {kind: camp, light: 2}
        f-4: {kind: camp, light: 3}
        c-2: {kind: lamp, light: 5}
        d-3: {kind: lamp, light: 4}
state:
  global:
    lit: {type: list, initial: "[]"}
    goal: {type: cell, initial: none}
  player:
    at: {type: cell, initial: none}
    lamps: {type: int, initial: 0}
    steps_taken: {type: int, initial: 0}
    trail: {type: list, initial: []}
flow:
  phases:
    start:
      do:
        - set: {goal: "first([c for c in field.cells if c.kind == 'lamp'])"}
        - for_each: p
          in: players
          do:
            - set: {p.at: "if p.seat % 2 == 1 then field['a-1'] else field['f-4']"}
      next: walk
    walk:
      turns: {order: by, by: "-player.lamps * 10 + player.seat"}
      repeat: {times: 6}
      do:
        - roll: d
        - repeat:
            - if: "not any(not any(q.at == n for q in players) for n in neighbours(current.at))"
              then: [break]
            - choose: step
              options: "[n for n in neighbours(current.at) if not any(q.at == n for q in players)]"
            - set: {current.at: step, current.trail: "current.trail + [current.at.id]"}
            - add: {current.steps_taken: 1}
            - if: "current.at.kind == 'lamp' and current.at.id not in lit"
              then:
                - add: {current.lamps: 1}
                - add: {lit: "current.at.id"}
          times: "min(d.face, 3)"
        - if: "distance(current.at, goal) <= 1 and direction(current.at, goal) in ['N', 'S', 'E', 'W', '']"
          then:
            - add: {current.lamps: "field[goal.id].light"}
      next: end
scoring:
  score: "player.lamps * 100 - player.steps_taken + count(unique(player.trail))"
  tie_break: ["-distance(player.at, field['c-2'])", "if adjacent(player.at, field['d-3']) then 1 else 0"]
policies:
  seeker:
    default: true
    decide:
      step:
        - when: "any(c.kind == 'lamp' and c.id not in lit for c in options)"
          best: "if option.kind == 'lamp' and option.id not in lit then 100 else 0"
        - best: >-
            -min(distance(option, c) for c in field.cells if c.kind == 'lamp' and c.id not in lit)
            * 10 + option.height + (if row(option) == row(me.at) then 1 else 0)
            + (if column(option) == 'f' then 2 else 0) + count(neighbours(option))
  wanderer:
    decide:
      step:
        - random: true
"""

# A market of cards: a deck placed in a zone, shuffled and dealt into a row, chips moved by a
# comprehension into a bag and drawn blind (one and several), cards drawn from a deck to a
# row, options given by a list of cards, `move` of one card to a player's zone, `first` of
# `sort_by` (a descending field), `count` of zones, card fields only some decks have.
CARD_GAME = """\
meeple: 1
metadata: {name: Harbour Market}
players: {min: 2, max: 4, default: 3}
components:
  zones:
    supply: {kind: deck, visibility: hidden}
    market: {kind: row, visibility: public}
    sack: {kind: bag, visibility: hidden}
    coins: {kind: pool}
    discard: {kind: pool}
    hand: {owner: player, kind: pool, visibility: owner}
  decks:
    goods:
      in: supply
      cards:
        - {name: fish, price: 2, worth: 3, colour: blue}
        - {name: salt, price: 1, worth: 1, colour: white}
        - {name: silk, price: 4, worth: 6, colour: red}
        - {name: tea, price: 3, worth: 4, colour: green}
        - {name: rope, price: 1, worth: 2, colour: brown}
        - {name: wine, price: 3, worth: 5, colour: red}
        - {name: wool, price: 2, worth: 2, colour: white}
        - {name: spice, price: 5, worth: 8, colour: red}
        - {name: amber, price: 4, worth: 5, colour: brown}
        - {name: pearl, price: 5, worth: 7, colour: white}
    tokens:
      in: coins
      cards: [{value: 1}, {value: 1}, {value: 1}, {value: 2}, {value: 2}, {value: 3},
              {value: 1}, {value: 2}, {value: 1}, {value: 3}, {value: 1}, {value: 2}]
state:
  player:
    purse: {type: int, initial: 4}
    bought: {type: list, initial: []}
flow:
  phases:
    setup:
      do:
        - shuffle: supply
        - deal: supply
          to: market
          count: 3
        - move: "[t for t in coins if t.value <= 2]"
          to: sack
        - for_each: p
          in: players
          do:
            - draw: sack
              as: coin
              count: 2
            - add: {p.purse: "sum(c.value for c in coin)"}
      next: trade
    trade:
      turns: {}
      repeat: {until: "count(market) == 0 or round >= 6"}
      do:
        - if: "any(c.price <= current.purse for c in market)"
          then:
            - choose: buy
              options: "[c for c in market if c.price <= current.purse]"
            - add: {current.purse: "-buy.price"}
            - add: {current.bought: "buy.name"}
            - move: buy
              to: current.hand
            - draw: supply
              as: fresh
              to: market
        - if: "count(sack) > 0"
          then:
            - draw: sack
              as: tip
            - if: "tip != none"
              then:
                - add: {current.purse: "tip.value"}
        - if: "count(market) > 2"
          then:
            - move: "first(sort_by(market, 'price', '-worth'))"
              to: discard
            - deal: supply
              to: market
              count: 1
      next: end
scoring:
  score: "sum(c.worth for c in player.hand) + player.purse + count(unique([c.colour for c in player.hand]))"
  tie_break: ["count(player.bought)"]
policies:
  trader:
    default: true
    decide:
      buy:
        - best: "option.worth * 10 - option.price"
  thrifty:
    decide:
      buy:
        - when: "count(options) > 1"
          best: "-option.price"
        - random: true
"""

# An auction with a ledger: map state set at a key (globally and per player), `get` with a
# default, `in` and `keys` of a map, a list of lists grown by `set` and read at an index,
# `text`, a sealed number chosen by every player (each seat sees only the map of the last
# lot while it decides) and an open one (each sees the answers given so far), `sort_by` of
# players by a descending field then the seat.
LEDGER = """\
meeple: 1
metadata: {name: Ledger Auction}
players: {min: 2, max: 5, default: 4}
components:
  dice:
    lot: {sides: 6}
state:
  global:
    prices: {type: map, initial: {}}
    history: {type: list, initial: []}
    pot: {type: int, initial: 0}
  player:
    coins: {type: int, initial: 20}
    seen: {type: map, initial: {}}
    won: {type: list, initial: []}
    bid_made: {type: int, initial: 0}
flow:
  phases:
    auction:
      repeat: {times: 8}
      do:
        - roll: lot
        - let: item
          be: "'lot' + text(lot.face)"
        - choose: bids
          by: players
          sealed: true
          min: 0
          max: 20
        - choose: guesses
          by: players
          min: 1
          max: "lot.face + 1"
        - for_each: p
          in: players
          do:
            - set:
                p.bid_made: >-
                  min(bids[p], p.coins)
                  + (if p in keys(guesses) and guesses[p] == lot.face then 1 else 0)
        - let: winner
          be: "first(sort_by(players, '-bid_made', 'seat'))"
        - set:
            "prices[item]": "winner.bid_made"
            "winner.seen[item]": "get(winner.seen, item, 0) + 1"
        - add: {winner.coins: "-min(winner.bid_made, winner.coins)", pot: 1}
        - set: {history: "history + [[item, winner.name, text(winner.bid_made)]]"}
        - add: {winner.won: item}
        - for_each: q
          in: players
          do:
            - if: "q != winner and item in prices"
              then:
                - set: {"q.seen[item]": "get(q.seen, item, 0)"}
      next: end
scoring:
  score: "count(player.won) * 5 + player.coins + count(keys(player.seen))"
  tie_break:
    - "count(h for h in history if h[1] == player.name)"
    - "sum(get(player.seen, k, 0) for k in keys(player.seen))"
policies:
  steady:
    default: true
    decide:
      bids:
        - when: "pot > 0 and 'lot6' in prices"
          choose: "min(me.coins, get(bids, me, 0) + get(prices, 'lot6', 0) % 3)"
        - when: "pot > 0"
          choose: "min(me.coins, get(bids, me, 0) + 1)"
        - choose: 2
      guesses:
        - when: "pot > 0"
          choose: "1 + count(keys(guesses)) % 6"
  bold:
    decide:
      bids:
        - choose: "me.coins"
      guesses:
        - random: true
"""


@pytest.mark.parametrize("name,text", [("grid_walk", GRID_WALK), ("card_game", CARD_GAME),
                                       ("ledger", LEDGER)])
@pytest.mark.parametrize("players,seats", [(None, None), (2, {1: "random"}),
                                           (4, {2: "random", 3: "policy:random"})])
def test_neutral_games_of_each_feature_give_the_interpreters_games(tmp_path, name, text,
                                                                   players, seats):
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    program = load(str(path)).program
    policies = list(program.data.get("policies") or {})
    seats = {k: (v if v != "policy:random" else policies[-1]) for k, v in (seats or {}).items()}
    max_players = program.data["players"]["max"]
    _same(str(path), range(60), players=min(players, max_players) if players else None,
          seats=seats)


# Edges of each feature: a grid whose ids put the row first, a cell state that is none until
# set, a zone's item at -1, `deal` of a count that may be 0 or negative (Python's slice, as the
# interpreter's) and to 'out', blind draws from an empty bag (none), a map keyed by numbers,
# `keys` and `in` of it, lists of lists read at an index, `sort_by` with a descending field and
# a field only some cards have (the interpreter's error: those games go back to it).
EDGES = """\
meeple: 1
metadata: {name: Edge cases}
players: {min: 2, max: 3, default: 2}
components:
  grids:
    g:
      columns: [1, 2, 3]
      rows: [a, b]
      id: "{row}{column}"
      default: {w: 1}
      cells:
        a2: {w: 5}
        b3: {w: 2}
  zones:
    deck: {kind: deck}
    line: {kind: row}
    bag: {kind: bag}
    mine: {owner: player, kind: pool}
  decks:
    cards:
      in: deck
      cards:
        - {n: 1, tag: x}
        - {n: 2}
        - {n: 3, tag: y}
        - {n: 4}
        - {n: 5, tag: x}
        - {n: 6}
state:
  global:
    m: {type: map, initial: {}}
    ll: {type: list, initial: []}
    where: {type: cell, initial: none}
    tally: {type: int, initial: 0}
  player:
    seen: {type: list, initial: []}
flow:
  phases:
    play:
      turns: {}
      repeat: {times: 3}
      do:
        - shuffle: deck
        - let: face
          be: "if count(deck) > 0 then first(deck).n else 4"
        - deal: deck
          to: line
          count: "face - 2"
        - if: "face == 6"
          then:
            - deal: line
              to: "'out'"
              count: 2
        - draw: line
          as: c
        - if: "c != none"
          then:
            - set: {"m[c.n]": "text(c.n) + '!'"}
            - move: c
              to: current.mine
        - draw: bag
          as: b
        - set: {where: "if face > 3 then g['b' + text(face - 3)] else where"}
        - set: {ll: "ll + [[text(face), text(where)]]"}
        - add: {tally: "count(unique([x.w for x in g.cells])) + count(keys(m)) + (if 3 in m then 1 else 0)"}
        - if: "face == 1 and round == 3"
          then:
            - add: {tally: "first(sort_by(cards, 'tag')).n"}
        - if: "face == 2 and where != none"
          then:
            - add: {tally: "distance(where, g['a1'])"}
        - if: "face == 3 and count(ll) > 1"
          then:
            - add: {tally: "count(ll[count(ll) - 2]) + count(ll[0])"}
        - if: "count(line) > 0"
          then:
            - add: {tally: "line[-1].n + first(sort_by(line, '-n')).n"}
            - set:
                current.seen: "current.seen + [direction(g['a1'], g[sort_by(g.cells, '-w', 'id')[0].id])]"
        - move: "[x for x in line if x.n > face]"
          to: deck
      next: end
scoring:
  score: "tally + count(player.mine) + count(unique(player.seen))"
"""


def test_grids_cards_and_maps_play_as_in_the_interpreter_to_a_deals_bad_count(tmp_path):
    path = tmp_path / "edges.yaml"
    path.write_text(EDGES, encoding="utf-8")
    # A deal of `face - 2` cards stops the game when the face is 1, with the interpreter's
    # located error, at the deal: by the generated code itself (none goes back to it).
    assert 0 < _same(str(path), range(150)) < 150


UNKNOWN_MAP = """\
meeple: 1
metadata: {name: Unwritten notes}
players: {min: 1, max: 2}
state:
  global:
    notes: {type: map, initial: {}}
    sum_x: {type: int, initial: 0}
flow:
  phases:
    play:
      do:
        - if: "'x' in notes"
          then:
            - add: {sum_x: "get(notes, 'x', 0)"}
      next: end
scoring:
  score: sum_x
"""

CHANGED = """\
meeple: 1
metadata: {name: Watched}
players: {min: 1, max: 2}
state:
  global:
    n: {type: int, initial: 0}
triggers:
  noticed:
    on: changed
    do:
      - add: {n: 0}
flow:
  phases:
    play:
      do:
        - set: {n: 1}
      next: end
scoring:
  score: n
"""


@pytest.mark.parametrize("text,why", [(UNKNOWN_MAP, "the items of map notes"),
                                      (CHANGED, "triggers nest too deeply to write out")])
def test_what_is_not_specialized_gives_none_and_says_why(tmp_path, text, why):
    # A map nothing ever writes has values of no known kind; a `changed` trigger that
    # changes what it watches fires itself to the chain's limit, too deep to write out: the
    # interpreter plays both (`validate --compile` says so, located).
    path = tmp_path / "r.yaml"
    path.write_text(text, encoding="utf-8")
    refused: list = []
    assert specialize(load(str(path)).program, refused=refused) is None
    assert str(refused[0]) == why


def test_simulation_records_are_the_interpreters(monkeypatch):
    # What `meeple simulate` keeps per game (the tracked generated game: first player, lead
    # changes, decisions), against the interpreter's records of the same seeds.
    setup = sim.Setup("mixed", players=3, seats=((2, "bold_bidder"), (3, "random")))
    same_records(Path(DWS).name, Path(DWS).read_text(encoding="utf-8"), setup, 11, 12,
                 monkeypatch)


@pytest.mark.parametrize("read,said", [
    ("c.n", "none has no field 'n'"),
    ("if c != none and c.tag == 'x' then 1 else 0", "a card has no field 'tag'"),
])
def test_a_cards_field_read_on_none_or_lacking_stops_the_game_where_the_interpreter_does(
        tmp_path, read, said):
    # The card drawn from the line (none where it is empty) read at once: the read stops the
    # game at the field, in the interpreter's words, by the generated code itself.
    old = "        - draw: line\n          as: c\n"
    assert old in EDGES
    path = tmp_path / "edges.yaml"
    path.write_text(EDGES.replace(old, f'{old}        - add: {{tally: "{read}"}}\n'),
                    encoding="utf-8")
    _same(str(path), range(60))
    program = load(str(path)).program
    special = specialize(program)
    errors = {special.play(seed).result.error for seed in range(60)} - {None}
    assert said in {e.message for e in errors}
    assert {e.path[-2:] for e in errors if e.message == said} == {("add", "tally")}
