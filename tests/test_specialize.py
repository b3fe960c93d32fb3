"""The specializer (interpreter/compile/specialize.py) gives exactly the interpreter's results.

For each ruleset it accepts, seeded games played by the generated function and by the
interpreter (`new_game(...).run()` without a log) must give the same result (winners, scores,
placements, rounds, turns, steps, rolls, modelled seconds) and the same trigger, decision and
unruled counts; `meeple simulate`'s records (lead changes, first player) must not change; a
ruleset using something it does not specialize gives None.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.compile.played import GeneratorFault
from interpreter.compile.specialize import Stop, specialize
from interpreter.engine.setup import load, new_game
from interpreter.simulate import runner as sim
from interpreter.simulate.tally import Slots

ROOT = Path(__file__).resolve().parents[1]
PIG = str(ROOT / "rulesets" / "pig.yaml")
WRECK = str(ROOT / "rulesets" / "wreckdivers.yaml")
LIARS = str(ROOT / "rulesets" / "liars_dice.yaml")


def _interpreted(program, players, seats, seed):
    """The reference interpreter's game on `seed`: its result, trigger counts, decision
    counts, unruled decisions and the items its work meter counted."""
    return _interpreted_with(program, players, seats, seed)[0]


def _interpreted_with(program, players, seats, seed):
    """`_interpreted`, and the game's `Result` (a test of its error reads it: the game is
    not played twice)."""
    game = new_game(program, players, seats, seed=seed)
    game.logging = game.narrating = False
    result = game.run()
    return (result.to_json(), game.fired, game.chosen, game.unruled, game.work), result


def _outcome(played):
    """What `_interpreted` gives, for a game `Specialized.play` played."""
    return (played.result.to_json(), played.fired, played.chosen, played.unruled,
            played.work)


def _same(path: str, seeds: range, variant=None, sets=None, players=None, seats=None) -> int:
    """Each seed's game by the generated code is the interpreter's, and the generated code
    played every one (those that stop at an error it locates too). Returns how many games
    stopped."""
    program = load(path, variant, sets).program
    special = specialize(program, players, seats)
    assert special is not None, "the specializer refused this setup"
    errors = 0
    for seed in seeds:
        played = special.play(seed)
        got = _outcome(played)
        assert got == _interpreted(program, players, seats, seed), f"seed {seed}"
        errors += played.result.error is not None
    return errors


@pytest.mark.parametrize("seats", [None, {1: "random"}, {1: "policy:random", 2: "random"}])
def test_pig_equals_interpreter(seats):
    _same(PIG, range(300), seats=seats)


def test_pig_parameters_equal_interpreter():
    _same(PIG, range(200), sets={"goal": "30", "hold_at": "5"}, seats={2: "random"})


def test_wreckdivers_equals_interpreter():
    _same(WRECK, range(300))


@pytest.mark.parametrize("seats", [{1: "counting", 2: "reckless", 3: "random_tens"},
                                   {2: "random"}])
def test_wreckdivers_policies_equal_interpreter(seats):
    _same(WRECK, range(150), seats=seats)


@pytest.mark.parametrize("variant,sets,players", [
    ("hidden_timer", None, None),
    ("long_game", None, 2),
    (None, {"tie": "sudden_death"}, 2),   # the sudden-death phase and its trigger
    (None, {"tie": "draw"}, None),
    (None, {"double_double": "gold", "shark_roll_gold": "keep"}, 4),
    (None, {"double_double": "cancel", "laugh_hazard": "0.2"}, None),  # many hazards
])
def test_wreckdivers_variants_equal_interpreter(variant, sets, players):
    _same(WRECK, range(100), variant, sets, players)



def test_a_stop_where_the_interpreters_game_goes_on_is_raised_as_a_generator_fault():
    # The generated code's `Stop` says the rules cannot go on; a replay that ends normally
    # proves it wrong, and that is raised, never taken as the game's result.
    special = specialize(load(PIG).program)

    def stops(seed):
        raise Stop()

    special.play_raw = stops
    with pytest.raises(GeneratorFault, match="game went on"):
        special.play(0)

@pytest.mark.parametrize("ruleset,limit,value", [
    ("pig", "max_steps", 30), ("dice_survivor", "max_turns", 3),
    ("dice_bag_dungeon", "max_turns", 3)])
def test_a_budget_stops_the_game_as_the_interpreter_does(ruleset, limit, value):
    # With a tight budget many games stop with the interpreter's error, to the same result
    # and counts, and none goes back to the interpreter: past max_turns the generated code
    # stops the game itself, where the interpreter does (interpreter/compile/stops.py); past
    # max_steps, which the fast version tests at loop heads only, its checked version plays
    # the seed again, testing every step, to the interpreter's stop.
    program = load(str(ROOT / "rulesets" / f"{ruleset}.yaml")).program
    program.limits = {**program.limits, limit: value}
    special = specialize(program)
    assert special is not None
    stopped = 0
    for seed in range(20):
        played = special.play(seed)
        assert _outcome(played) == \
            _interpreted(program, None, None, seed)
        stopped += played.result.error is not None
    assert stopped > 0 and special.checked == 0


@pytest.mark.parametrize("seats,players", [(None, None), ({1: "random", 2: "counting"}, 3)])
def test_number_choice_equals_interpreter(seats, players):
    # mental_arithmetic asks each roll's gold as a number from 0 to 24: a policy's pick, or
    # a random whole number for a random seat.
    _same(WRECK, range(120), "mental_arithmetic", None, players, seats)


@pytest.mark.parametrize("seats,players", [
    (None, None), (None, 2), ({1: "random", 3: "policy:random"}, 4)])
def test_liars_dice_equals_interpreter(seats, players):
    # Dice drawn into cups, bids offered as a list of numbers (about 150 of them), a `best`
    # whose `let` names read `option`, a policy's pick given as a number, cups revealed.
    _same(LIARS, range(80), None, None, players, seats)


def test_human_seat_gives_none():
    assert specialize(load(PIG).program, None, {1: "human"}) is None


def same_records(name: str, text: str, setup, seed: int, games: int, monkeypatch) -> list:
    """`meeple simulate`'s records and counters of `games` seeded games of one setup, played
    by the generated code (which must accept the setup), equal to the interpreter's."""
    job = sim.Job(name, text, (setup,), seed)
    program = sim.program_for(job, setup)
    assert sim.specialized_for(program, setup) is not None
    fast = [sim.play_game(program, setup, sim.game_seed(seed, i), i) for i in range(games)]
    with monkeypatch.context() as m:
        m.setattr(sim, "specialized_for", lambda program, setup: None)
        slow = [sim.play_game(program, setup, sim.game_seed(seed, i), i) for i in range(games)]
    assert fast == slow
    return fast


@pytest.mark.parametrize("path,setup", [
    (PIG, sim.Setup("base")),
    (WRECK, sim.Setup("base", players=4, seats=((2, "reckless"),))),
    (WRECK, sim.Setup("tie", sets=(("tie", "sudden_death"),), players=2)),
])
def test_simulation_records_unchanged(path, setup, monkeypatch):
    same_records(Path(path).name, Path(path).read_text(encoding="utf-8"), setup, 7, 150,
                 monkeypatch)


# A small neutral game with what Dice Survivor does not exercise: `actions` without `pass`,
# limits per game, round and turn (also on a `choose`), a decision over players taken by
# another player, a check for the whole game whose steps loop over players, counterclockwise
# turns from a player that may be none, and a policy with no rule for some decisions.
TOKEN_DUEL = """\
meeple: 1
metadata: {name: Token Duel}
players: {min: 2, max: 6, default: 4}
components:
  dice:
    d6: {sides: 6}
state:
  global:
    rounds_left: {type: int, initial: 30}
    previous: {type: player}
  player:
    chips: {type: int, initial: 6}
flow:
  start: play
  phases:
    play:
      turns:
        order: counterclockwise
        first: "if previous == none then first(players) else next_player(previous)"
      repeat: {until: "count(p for p in players if not p.eliminated) <= 1", max: 200}
      do:
        - set: {previous: current}
        - actions: act
          points: 3
          pass: false
          options:
            bet:
              cost: 1
              do:
                - choose: victim
                  options: "opponents(current)"
                - roll: d6
                - choose: answer
                  by: victim
                  options:
                    fold: {}
                    fight:
                      limit: {times: 1, per: turn}
                      do:
                        - roll: d6
                - if: "d6.face >= 4"
                  then:
                    - transfer: "d6.face - 3"
                      of: chips
                      from: victim
                      to: current
                  else:
                    - transfer: 1
                      of: chips
                      from: current
                      to: "'bank'"
            bonus:
              cost: 2
              limit: {times: 2, per: game}
              do:
                - transfer: 2
                  of: chips
                  from: "'bank'"
                  to: current
            gift:
              cost: 1
              limit: {times: 1, per: round}
              do:
                - choose: gift_to
                  options: "opponents(current)"
                  by: "next_player(current)"
                - transfer: 1
                  of: chips
                  from: current
                  to: gift_to
checks:
  broke:
    for_each: player
    when: "player.chips <= 0"
    do:
      - eliminate: player
      - if: "player == current"
        then: [end_turn]
  rich:
    when: "any(p.chips >= 15 for p in players)"
    do:
      - for_each: p
        in: "[q for q in players if q.chips >= 15]"
        do:
          - transfer: 5
            of: chips
            from: p
            to: "'bank'"
end:
  when: "count(p for p in players if not p.eliminated) <= 1"
scoring:
  score: player.chips
policies:
  greedy:
    default: true
    decide:
      act:
        - when: "'bonus' in options and me.chips < 4"
          choose: bonus
        - when: "'gift' in options and me.chips > 10"
          choose: gift
        - choose: bet
      victim:
        - best: "option.chips"
      gift_to:
        - best: "0 - option.chips"
      answer:
        - when: "me.chips > 3"
          choose: fight
        - choose: fold
  chaotic:
    decide:
      act: [{random: true}]
      victim: [{random: true}]
"""


@pytest.mark.parametrize("players,seats", [(None, None), (5, {1: "chaotic", 3: "random"}),
                                           (2, {2: "random"})])
def test_checks_actions_and_choices_of_players_equal_interpreter(tmp_path, players, seats):
    path = tmp_path / "token_duel.yaml"
    path.write_text(TOKEN_DUEL, encoding="utf-8")
    _same(str(path), range(300), players=players, seats=seats)


TWO_PLACES = """\
meeple: 1
metadata: {name: One decision asked in two places}
players: {min: 2, max: 2}
state:
  player:
    score: 0
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {times: 3}
      do:
        - choose: step
          options: [one, two]
        - add: {current.score: "if step == 'one' then 1 else 2"}
        - choose: step
          options: [one, two]
        - add: {current.score: "if step == 'one' then 1 else 2"}
      next: end
scoring:
  score: player.score
policies:
  silent:
    default: true
    doc: Has no rule for `step`, so every one of its picks is unruled.
    decide:
      step: []
"""


def test_a_decision_unruled_in_two_places_counts_both_as_the_interpreter_does(tmp_path):
    path = tmp_path / "two_places.yaml"
    path.write_text(TWO_PLACES, encoding="utf-8")
    _same(str(path), range(50))
    played = specialize(load(str(path)).program).play(0)
    assert played.unruled == {("silent", "step"): 12}  # 2 players x 3 rounds x 2 places


# `end_turn` from every kind of place the generated code writes it as a flag and a `break`:
# a procedure called in a `repeat` inside a `for_each`, a `rolled` trigger in a loop, a
# `timer_expired` trigger while time passes in a loop, an option of `actions`.
TURN_EXITS = """\
meeple: 1
metadata: {name: Turn exits}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    d6: {sides: 6}
    pair: {sides: 6, count: 2}
  timers:
    fuse: {visibility: public}
state:
  player:
    score: {type: int, initial: 0}
  turn:
    pot: {type: int, initial: 0}
    tries: {type: int, initial: 0}
procedures:
  bust:
    do:
      - if: "d6.face == 6"
        then:
          - set: {pot: 0}
          - end_turn
triggers:
  snake_eyes:
    on: rolled
    if: "pair[0].face == 1 and pair[1].face == 1"
    do:
      - set: {pot: 0}
      - end_turn
  fuse_out:
    on: timer_expired
    do:
      - add: {current.score: 1}
      - end_turn
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {times: 6}
      do:
        - start_timer: fuse
          seconds: 7
        - for_each: p
          in: players
          do:
            - repeat:
                - roll: d6
                - call: bust
                - add: {pot: d6.face}
                - if: "pot > 12"
                  then: [break]
              times: 3
            - add: {tries: 1}
        - repeat:
            - roll: pair
            - add: {pot: "pair[0].face + pair[1].face"}
            - wait: 2
          until: "pot > 30"
        - actions: spend
          points: 2
          options:
            push:
              cost: 1
              do:
                - roll: d6
                - if: "d6.face == 1"
                  then:
                    - set: {pot: 0}
                    - end_turn
            rest:
              cost: 1
        - add: {current.score: pot}
        - stop_timer: fuse
      next: end
scoring:
  score: player.score
policies:
  plain:
    default: true
    decide:
      spend: [{random: true}]
"""


def test_end_turn_from_loops_triggers_procedures_and_actions_equals_interpreter(tmp_path):
    path = tmp_path / "turn_exits.yaml"
    path.write_text(TURN_EXITS, encoding="utf-8")
    _same(str(path), range(300))
    source = specialize(load(str(path)).program).source
    # Every exit leaves by flag (no exception is raised to end a turn).
    assert source.count("_et = True") == 6 and "raise _EndTurn" not in source


@settings(max_examples=300, deadline=None)
@given(scores=st.lists(st.integers(-5, 5), min_size=1, max_size=6),
       ties=st.sampled_from(["shared", "draw"]), order=st.sampled_from(["highest", "lowest"]))
def test_standings_by_score_alone_rank_as_the_general_ranking(scores, ties, order):
    """The shortcut for games ranked by whole-number scores alone (no tie-breaks, no
    eligibility) gives the winners and places of the general ranking."""
    special = specialize(load(PIG).program)
    special.players, special.ties, special.order = len(scores), ties, order
    raw = [None] * 16
    raw[6] = scores
    raw[7] = [[] for _ in scores]
    fast, ranks = special.standings(tuple(raw)), special.ranks(tuple(raw))
    raw[7] = [[0] for _ in scores]  # an equal tie-break for all: the general path, same order
    assert fast == special.standings(tuple(raw))
    # What a bulk run keeps (two seats: by one comparison) says the same winners and places.
    won, placed, _ = fast
    assert ranks == (tuple(i + 1 for i in won), tuple(placed[i] for i in range(len(scores))))
    assert ranks == special.ranks(tuple(raw))


# Draws of several items (blind from a bag, in order from a row, with `replace`, `to` a zone or
# out of play), a timed roll of a zone's dice, `reveal`, number choices whose policy picks may
# fall outside the bounds (the next rule then applies), options given by a list of texts and of
# numbers picked by value.
DRAWS = """\
meeple: 1
metadata: {name: Draws}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    d6: {sides: 6, count: 12, in: bag}
  zones:
    bag: {kind: bag}
    line: {kind: row}
    hand: {kind: hand, owner: player}
state:
  global:
    turns_left: {type: int, initial: 15}
  player:
    points: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "turns_left <= 0", max: 100}
      do:
        - add: {turns_left: -1}
        - draw: bag
          count: "1 + current.points % 3"
          as: got
          to: current.hand
        - roll: current.hand
          duration: 1.5
        - reveal: current.hand
        - draw: bag
          count: 2
          as: peek
          replace: true
        - choose: wager
          min: 0
          max: "count(current.hand)"
        - add: {current.points: wager}
        - choose: colour
          options: "['red', 'blue'] + (if count(current.hand) > 2 then ['green'] else [])"
        - if: "colour == 'green'"
          then:
            - move: current.hand
              to: line
        - choose: taken
          options: "range(0, count(line) + 1)"
        - draw: line
          count: taken
          as: back
          to: bag
        - if: "count(bag) == 0"
          then:
            - move: line
              to: bag
end:
  when: "turns_left <= 0"
scoring:
  score: "player.points"
policies:
  greedy:
    default: true
    decide:
      wager:
        - when: "count(d for d in me.hand if d.face >= 5) > 1"
          choose: "count(me.hand) + 5"
        - choose: "count(d for d in me.hand if d.face > 2)"
      colour:
        - when: "me.points > 4"
          choose: "'green'"
        - best: "if option == 'blue' then 1 else 0"
      taken:
        - choose: 1
        - random: true
"""


@pytest.mark.parametrize("seats", [None, {2: "random"}])
def test_draws_of_several_items_and_choices_of_values_equal_interpreter(tmp_path, seats):
    path = tmp_path / "draws.yaml"
    path.write_text(DRAWS)
    _same(str(path), range(150), seats=seats)


SUMS = """\
meeple: 1
metadata: {name: Sums}
players: {min: 1, max: 2, default: 1}
components:
  dice:
    d6: {sides: 6}
state:
  global:
    big: {type: list, initial: []}
    acc: {type: int, initial: 0}
flow:
  phases:
    play:
      do:
        - roll: d6
        - set: {big: "range(0, 400 + d6.face)"}
        - repeat:
            - set: {acc: "sum(big) + max(big) + count(big)"}
          times: "if d6.face > 3 then 2000 else 10"
      next: end
scoring:
  score: acc
"""


def test_built_ins_over_a_long_list_count_in_the_budget_as_the_interpreter_counts_them(
        tmp_path):
    # A list of 400-odd numbers built once, then read by sum, max and count again and again:
    # each call is charged by the interpreter (1,200-odd items), so 2,000 passes pass the
    # step budget of a million, while 10 do not. The generated code counts them too: a long
    # game stops with the interpreter's error, located at the call that counted past the
    # budget (its checked version plays it again to that stop); a short one plays on.
    path = tmp_path / "sums.yaml"
    path.write_text(SUMS, encoding="utf-8")
    assert "(wk := wk + len(" in specialize(load(str(path)).program).source
    # Long and short games both played; none went back to the interpreter.
    assert 0 < _same(str(path), range(12)) < 12


@pytest.mark.parametrize("fault", [NameError("name '_x' is not defined"),
                                   ZeroDivisionError("division by zero")])
def test_a_fault_of_the_generated_code_is_raised_not_hidden_by_a_replay(fault):
    # A NameError is never a rule's error; a division by zero is one only where the
    # interpreter's game stops with an error too, which Pig's seed 7 does not.
    special = specialize(load(PIG).program)

    def faulty(seed):
        raise fault

    special.play_raw = faulty
    with pytest.raises(type(fault)):
        special.play(7)


@pytest.mark.parametrize("name,games,setups", [
    ("pig.yaml", 200, (sim.Setup("base"), sim.Setup("hold 25", sets=(("hold_at", "25"),)))),
    ("wreckdivers.yaml", 120, (sim.Setup("base"), sim.Setup("reckless", seats=((1, "reckless"),)))),
    ("dice_bag_dungeon.yaml", 80, (sim.Setup("base"),)),
    ("dice_survivor.yaml", 60, (sim.Setup("base"),)),
    ("shipwrecked.yaml", 25, (sim.Setup("base"),)),
    ("liars_dice.yaml", 20, (sim.Setup("base"),)),
])
def test_a_chunks_counters_summed_slot_by_slot_are_the_interpreters(name, games, setups,
                                                                     monkeypatch):
    """simulate sums the generated code's counters slot by slot (tally.Slots), never building
    a dict per game, a batch of games at a time (7 here, so that batches end inside the
    chunk and at its end): the totals, squares, games and paired differences must be those
    the interpreter's counters give, decisions merged by component."""
    monkeypatch.setattr(Slots, "BATCH", 7)
    job = sim.Job(name, (ROOT / "rulesets" / name).read_text(encoding="utf-8"), setups, 3,
                  paired=len(setups) > 1)
    for setup in setups:
        assert sim.specialized_for(sim.program_for(job, setup), setup) is not None
    fast = sim.play_chunk(job, 0, games)
    monkeypatch.setattr(sim, "specialized_for", lambda program, setup: None)
    slow = sim.play_chunk(job, 0, games)
    assert fast.records == slow.records
    assert fast.tallies == slow.tallies
    assert any(t.chosen for t in fast.tallies)


NO_SCORE = """\
meeple: 1
metadata: {name: First to six}
players: {min: 2, max: 3, default: 3}
components:
  dice:
    d: {sides: 6}
state:
  player:
    sixes: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {}
      repeat: {until: "any(p.sixes >= 2 for p in players)"}
      do:
        - roll: d
        - if: "d.face == 6"
          then: [{add: {current.sixes: 1}}]
      next: end
scoring:
  winners: "[p for p in players if p.sixes >= 2]"
"""


def test_a_ruleset_without_a_score_is_generated_and_counts_no_lead_changes(tmp_path,
                                                                           monkeypatch):
    path = tmp_path / "no_score.yaml"
    path.write_text(NO_SCORE, encoding="utf-8")
    _same(str(path), range(100))
    fast = same_records(path.name, NO_SCORE, sim.Setup("base"), 5, 100, monkeypatch)
    assert all(record.lead_changes is None and record.first for record, _ in fast)


PROCEDURE_BREAK = """\
meeple: 1
metadata: {name: Break in a procedure}
players: {min: 1, max: 1}
components:
  dice:
    d: {sides: 6}
state:
  global:
    x: {type: int, initial: 0}
procedures:
  stop_at_six:
    do:
      - roll: d
      - add: {x: "d.face"}
      - if: "d.face == 6"
        then: [break]
      - add: {x: 100}
flow:
  phases:
    play:
      do:
        - repeat: [{call: stop_at_six}]
          times: 5
        %s
      next: end
end: {when: "true"}
scoring: {score: x, order: highest}
"""


def test_a_procedures_break_leaves_the_loop_around_its_call_in_generated_code(tmp_path):
    path = tmp_path / "break.yaml"
    path.write_text(PROCEDURE_BREAK % "", encoding="utf-8")
    _same(str(path), range(60))
    # Run loose (a call outside any loop), it is the interpreter's located error, which the
    # generated code gives itself (interpreter/compile/stops.py): no seed goes back.
    path.write_text(PROCEDURE_BREAK % "- call: stop_at_six", encoding="utf-8")
    assert 0 < _same(str(path), range(60)) < 60


NAMED_BY_AN_EXPRESSION = """\
meeple: 1
metadata: {name: Named by an expression}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
state:
  player:
    pts: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {}
      repeat: {times: 4}
      do:
        - roll: d
        - choose: move
          options:
            low:
              do: [{add: {current.pts: 1}}]
            high:
              if: "d.face >= 3"
              do: [{add: {current.pts: "d.face"}}]
            odd:
              if: "d.face % 2 == 1"
              do: [{add: {current.pts: 2}}]
      next: end
scoring: {score: player.pts}
policies:
  namer:
    default: true
    decide:
      move:
        - let: {wanted: "if d.face == 1 then 'nothing' else if d.face == 2 then 'high' else 'odd'"}
          choose: wanted
        - when: "d.face == 2"
          choose: "'low'"
"""


def test_a_policy_pick_given_by_an_expression_is_the_option_of_that_name_if_legal(tmp_path):
    # A face of 1 names no option, a 2 names `high`, not legal then: the next rule, or none
    # (counted as unruled, then a random pick); 3 and 5 name `odd`, 4 and 6 `odd`, not legal.
    path = tmp_path / "named.yaml"
    path.write_text(NAMED_BY_AN_EXPRESSION, encoding="utf-8")
    _same(str(path), range(80))


OPTIONS_READ = """\
meeple: 1
metadata: {name: Options read as flags and as a list}
players: {min: 2, max: 2}
components:
  dice:
    d6: {sides: 6}
state:
  player:
    score: 0
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {times: 8}
      do:
        - roll: d6
        - choose: move
          options:
            low: {if: "d6.face <= 3"}
            high: {if: "d6.face >= 3"}
            odd: {if: "d6.face % 2 == 1", limit: {times: 2, per: game}}
            rest: {if: "d6.face != 6"}
        - if: "move == 'high'"
          then: [{add: {current.score: "d6.face"}}]
        - if: "move == 'odd'"
          then: [{add: {current.score: 1}}]
        - actions: spend
          points: 2
          options:
            save: {cost: 1, limit: {times: 1, per: turn}}
            splurge: {cost: 2, if: "current.score > 4"}
scoring:
  score: player.score
policies:
  counting:
    default: true
    decide:
      move:
        - when: "count(options) == 4"
          choose: odd
        - when: "count(options) == 3 and me.score > 5"
          best: "if option == 'high' then 2 else if option == 'low' then 1 else 0"
        - when: "me.score > 10 and 'rest' not in options"
          choose: "if d6.face > 4 then 'high' else 'low'"
        - when: "me.score < 3"
          choose: rest
      spend:
        - when: "'splurge' in options"
          choose: splurge
"""


@pytest.mark.parametrize("seats", [None, {2: "random"}])
def test_legal_options_as_flags_and_as_lists_give_the_interpreters_games(tmp_path, seats):
    # Bulk code keeps a decision's legal options as one flag each and makes their list only
    # where a rule reads it (`count(options)`, a `best`, a pick given by an expression, a
    # random pick): every reading gives the interpreter's games, with one legal option
    # too (a 6 leaves `high` alone: nobody asked).
    path = tmp_path / "options_read.yaml"
    path.write_text(OPTIONS_READ, encoding="utf-8")
    _same(str(path), range(300), seats=seats)


NEVER_LEGAL = """\
meeple: 1
metadata: {name: No option ever legal}
players: {min: 2, max: 2}
state:
  player:
    score: 0
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {times: 2}
      do:
        - choose: move
          options:
            a: {if: "1 > 2", limit: {times: 1, per: game}}
            b: {if: "2 > 3"}
scoring:
  score: player.score
"""


def test_a_decision_whose_options_are_never_legal_stops_as_the_interpreters(tmp_path):
    # Known when generating: no flag can hold (the limit keeps the decision's legality
    # for run time); the game stops at the first decision with the interpreter's error,
    # which the generated code gives itself (interpreter/compile/stops.py).
    path = tmp_path / "never_legal.yaml"
    path.write_text(NEVER_LEGAL, encoding="utf-8")
    assert _same(str(path), range(5)) == 5


ALWAYS_ONE = """\
meeple: 1
metadata: {name: One option always legal}
players: {min: 2, max: 2}
components:
  dice:
    d6: {sides: 6}
state:
  player:
    score: 0
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 6"}
      do:
        - roll: d6
        - choose: move
          options:
            push: {if: "d6.face >= 4"}
            stay: {}
            rush: {if: "d6.face == 6"}
        - if: "move == 'push'"
          then: [{add: {current.score: "d6.face"}}]
        - if: "move == 'rush'"
          then: [{add: {current.score: 10}}]
scoring:
  score: player.score
policies:
  pushing:
    default: true
    decide:
      move:
        - when: "'rush' in options and me.score < 20"
          choose: rush
        - choose: push
"""


@pytest.mark.parametrize("seats", [None, {2: "random"}])
def test_an_option_always_legal_is_taken_unasked_where_no_other_is(tmp_path, seats):
    # `stay` is always legal: the generated code has no stop for a decision with no legal
    # option, and takes `stay` without asking where no other option is legal (a 1 to 3),
    # counting the decisions and picks as the interpreter does.
    path = tmp_path / "always_one.yaml"
    path.write_text(ALWAYS_ONE, encoding="utf-8")
    source = specialize(load(str(path)).program).source
    assert "or True)" not in source and ") == 1:" not in source
    assert _same(str(path), range(200), seats=seats) == 0


def test_a_settings_choice_compared_with_a_text_is_decided_when_the_code_is_written(tmp_path):
    # `mode` is a setting: `mode == 'double'` is true or false for the whole game, and the
    # generated code holds the answer, not a comparison of two texts (`'single' == 'double'`).
    text = ALWAYS_ONE.replace("state:", "parameters:\n  mode: {type: choice, choices: [single, "
                              "double], default: single, doc: Rush value.}\nstate:", 1).replace(
        'then: [{add: {current.score: 10}}]',
        """then: [{add: {current.score: "if d6.face > 0 and mode == 'double' then 77 else 10"}}]""")
    path = tmp_path / "modes.yaml"
    path.write_text(text, encoding="utf-8")
    for mode in ("single", "double"):
        source = specialize(load(str(path), sets={"mode": mode}).program).source
        assert "'double'" not in source
        assert _same(str(path), range(60), sets={"mode": mode}) == 0


def test_a_game_is_the_same_whatever_games_were_played_before_it():
    """A game's generator is one an earlier game left, seeded afresh (random.Random(seed)'s
    state): nothing of the games played before reaches the next."""
    program = load(str(ROOT / "rulesets" / "wreckdivers.yaml")).program
    alone = specialize(program).play_raw("7:3")
    special = specialize(program)
    for seed in ("1", "2", "3"):
        special.play_raw(seed)
    assert special.play_raw("7:3") == alone
    assert special.play_raw("1") != alone


def test_a_bulk_run_writes_only_the_game_function_it_plays(monkeypatch):
    """simulate plays the tracked function (standings too): the code generator writes that
    one alone before the first game, not also the one without standings."""
    import builtins

    import interpreter.compile.specialize as specialize_module
    from interpreter.compile.refusals import specialized_or_refusal

    written = []

    def counting(source, filename, mode):
        written.append(filename)
        return builtins.compile(source, filename, mode)

    monkeypatch.setattr(specialize_module, "compile", counting, raising=False)
    program = load(str(ROOT / "rulesets" / "wreckdivers.yaml")).program
    special, why = specialized_or_refusal(program)
    assert why is None and written == ["<meeple specialized tracked>"]
    assert special.play_raw is None
    assert special.try_raw("0:1", True) == specialize(program).play_tracked("0:1")
