"""The specializer plays the Dice-Bag Dungeon exactly as the interpreter does.

The dungeon (rulesets/dice_bag_dungeon.yaml) brings what the other accepted rulesets do not:
zones (a bag, rows and pools per player) holding dice that move between them
(interpreter/compile/zones.py), dice drawn blind from the bag on the game's generator, a
state variable and decisions holding one die, options given by a zone or a list of dice,
`let` steps, `end_game` with a rendered reason, the built-ins first, last, highest, lowest,
faces and range, and a policy whose `let` names are worked out when first read, once per
decision (interpreter/compile/decisions.py). For each setup, seeded games played by the
generated function must give the interpreter's result (winners, scores, placements, reason,
rounds, turns, steps, rolls) and the same trigger, decision and unruled counts, with no seed
handed back. A small neutral game covers what the dungeon does not.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from interpreter.simulate import runner as sim
from tests.test_specialize import _interpreted, _outcome, _same, same_records

ROOT = Path(__file__).resolve().parents[1]
DUNGEON = str(ROOT / "rulesets" / "dice_bag_dungeon.yaml")


def test_the_default_seat_gives_the_interpreters_games():
    _same(DUNGEON, range(600))


@pytest.mark.parametrize("variant", ["literal", "gentle"])
def test_variants_give_the_interpreters_games(variant):
    _same(DUNGEON, range(200), variant)


@pytest.mark.parametrize("sets", [
    {"removed_health_to": "out"},                     # a move out of play
    {"trap_when_unable": "flip_any"},
    {"travel_removal": "any"},                        # a decision over a zone
    {"escape_timing": "after_resolution", "lighten_can_escape": "false"},
    {"patience": "4", "escape_treasure": "40"},       # lightening the last Travel die
])
def test_parameters_give_the_interpreters_games(sets):
    _same(DUNGEON, range(150), sets=sets)


@pytest.mark.parametrize("seats", [{1: "random"}, {1: "policy:random"}])
def test_random_seats_give_the_interpreters_games(seats):
    _same(DUNGEON, range(200), seats=seats)


def test_simulation_records_are_unchanged(monkeypatch):
    setup = sim.Setup("base")
    same_records("dice_bag_dungeon.yaml", Path(DUNGEON).read_text(encoding="utf-8"), setup, 5, 200,
                 monkeypatch)


# A small neutral game with what the dungeon does not exercise: several players with a zone
# each, dice with different faces (a d4, dice with faces of their own) and an attribute only
# some dice have, a die that is no zone's at the start, a roll of a whole zone, a first draw
# from a row (not blind), moves to the start of a row, of a list, and out of play, `for_each`
# over a zone that changes meanwhile, a `let` that may be none, a face set from another die,
# `kind` and `sides`, a check's `end_game` with numbers and names in its reason, `last` of the
# players, and a policy with `let` on a rule, `random` and `best` over dice.
BAG_DRAFT = """\
meeple: 1
metadata: {name: Bag Draft}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    plain: {count: 5, in: bag, attributes: {worth: 1}}
    lucky: {count: 3, in: bag, faces: [2, 4, 6, 8]}
    odd: {sides: 4}
  zones:
    bag: {kind: bag}
    line: {kind: row}
    spent: {kind: pool}
    keep: {kind: pool, owner: player}
state:
  global:
    held: {type: die, initial: none}
    rounds_done: {type: int, initial: 0}
  player:
    points: {type: int, initial: 0}
checks:
  rich:
    for_each: player
    when: "player.points >= 40"
    do:
      - end_game:
        reason: "{player.name} reaches {player.points} with {count(player.keep)} dice kept"
flow:
  phases:
    setup:
      do:
        - roll: bag
        - roll: odd
        - move: odd
          to: line
        - for_each: d
          in: bag
          do:
            - if: "d.face >= 4"
              then:
                - move: d
                  to: line
                  at: start
      next: play
    play:
      turns: {order: clockwise}
      repeat: {until: "rounds_done >= 12"}
      do:
        - if: "current == last(players)"
          then:
            - add: {rounds_done: 1}
        - if: "count(line) > 0"
          then:
            - draw: line
              as: front
            - set: {held: front}
          else:
            - draw: bag
              as: blind
            - set: {held: blind}
        - if: "held == none"
          then:
            - move: "[d for d in spent]"
              to: bag
            - end_turn
        - roll: held
        - let: best_kept
          be: "highest(current.keep)"
        - choose: keep_it
          options: [keep, spend]
        - if: "keep_it == 'keep'"
          then:
            - move: held
              to: current.keep
            - add: {current.points: "held.face + held.sides"}
          else:
            - move: "[held]"
              to: spent
        - if: "count(current.keep) > 3"
          then:
            - choose: give_back
              options: current.keep
            - if: "give_back.kind == 'odd'"
              then:
                - move: give_back
                  to: "'out'"
              else:
                - set: {give_back.face: "lowest(current.keep).face"}
                - move: give_back
                  to: bag
        - if: "best_kept != none and first(faces(current.keep)) == best_kept.face"
          then:
            - add: {current.points: 1}
      next: end
scoring:
  score: "player.points"
policies:
  steady:
    default: true
    let:
      spare: "count(me.keep)"
    decide:
      keep_it:
        - let: {top: "if held.kind == 'odd' then 0 else held.face"}
          when: "top >= 4 or spare < 2"
          choose: keep
        - choose: spend
      give_back:
        - when: "spare > 5"
          random: true
        - best: "0 - option.face + (if option.kind == 'odd' then 10 else 0)"
"""


@pytest.mark.parametrize("players,seats", [(None, None), (2, {2: "random"}),
                                           (4, {1: "random", 3: "random"})])
def test_zones_draws_and_moves_of_a_neutral_game_equal_interpreter(tmp_path, players, seats):
    path = tmp_path / "bag_draft.yaml"
    path.write_text(BAG_DRAFT, encoding="utf-8")
    _same(str(path), range(300), players=players, seats=seats)


def _variant(tmp_path, old: str, new: str):
    assert old in BAG_DRAFT
    path = tmp_path / "variant.yaml"
    path.write_text(BAG_DRAFT.replace(old, new), encoding="utf-8")
    return load(str(path)).program


def test_the_same_die_moved_twice_stops_both_at_the_same_rule_error(tmp_path):
    # A die listed twice in one move is the rules' error; the generated code stops there
    # itself, with the interpreter's located error and exact counts (none played again).
    program = _variant(tmp_path, 'move: "[held]"', 'move: "[held, held]"')
    special = specialize(program)
    assert special is not None
    stopped = 0
    for seed in range(30):
        played = special.play(seed)
        assert _outcome(played) == \
            _interpreted(program, None, None, seed)
        error = played.result.error
        stopped += error is not None and error.message.endswith("is listed twice in one move")
    assert stopped > 0


def test_a_policy_name_that_reads_option_equals_interpreter(tmp_path):
    # A policy's `let` name that reads `option` is worked out once an option of a `best`.
    text = BAG_DRAFT.replace("spare: \"count(me.keep)\"",
                             "spare: \"count(me.keep)\"\n      low: option.face")
    assert "0 - option.face" in text
    path = tmp_path / "low.yaml"
    path.write_text(text.replace("0 - option.face", "0 - low"), encoding="utf-8")
    program = load(str(path)).program
    special = specialize(program)
    assert special is not None
    for seed in range(60):
        played = special.play(seed)
        assert _outcome(played) == \
            _interpreted(program, None, None, seed)


@pytest.mark.parametrize("old,new", [
    # More dice placed in a zone than its capacity: the interpreter's setup stops.
    ("bag: {kind: bag}", "bag: {kind: bag, capacity: 5}"),
])
def test_what_is_not_specialized_gives_none(tmp_path, old, new):
    assert specialize(_variant(tmp_path, old, new)) is None


def test_a_shuffled_bag_of_dice_gives_the_interpreters_games(tmp_path):
    # `shuffle` reorders the zone with the game's generator (interpreter/compile/cards.py),
    # the same calls as SeededChance.order, for dice as for cards.
    program = _variant(tmp_path, "- roll: bag\n", "- shuffle: bag\n        - roll: bag\n")
    special = specialize(program)
    assert special is not None and "R.shuffle(" in special.source
    for seed in range(100):
        played = special.play(seed)
        assert _outcome(played) == \
            _interpreted(program, None, None, seed), seed


def test_a_list_not_depending_on_the_item_is_built_once_and_games_are_unchanged(tmp_path):
    # `faces(current.keep)` inside a comprehension over the bag does not depend on the bag's
    # die: the generated code builds it once per comprehension, not once per die, and plays
    # the interpreter's games.
    program = _variant(tmp_path, 'when: "spare > 5"',
                       'when: "spare > 5 or any(d.face in faces(current.keep) for d in bag)"')
    special = specialize(program)
    assert special is not None
    # The list moved before the items: bound once (`_h = ...`, a comprehension's `for _h in
    # (...,)` written as a loop by interpreter/compile/loops.py), then the loop over the bag.
    lines = special.source.splitlines()
    built = [i for i, ln in enumerate(lines) if re.match(r"\s*_h\d+ = .*ZP_keep", ln)]
    assert built and all(lines[i + 1].lstrip().startswith("for _c") for i in built)
    for seed in range(200):
        played = special.play(seed)
        assert _outcome(played) == \
            _interpreted(program, None, None, seed), seed
