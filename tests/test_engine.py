"""The engine's semantics on small neutral rulesets: turn order, triggers, checks, decisions,
limits, time, budgets and located runtime errors."""

from __future__ import annotations

import textwrap

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.asking import ScriptEnded
from interpreter.engine.chance import ScriptedChance, SeededChance
from interpreter.engine.setup import load, new_game
from interpreter.table.narrate import result_lines

HEAD = """\
meeple: 1
metadata: {name: Test}
players: {min: 1, max: 4, default: 3}
"""


def game(tmp_path, body: str, dice=(), decisions=(), players=None, hazards=(), seed=0,
         script_only=False, sets=None):
    path = tmp_path / "t.yaml"
    path.write_text(HEAD + textwrap.dedent(body))
    program = load(str(path), None, sets).program
    g = new_game(program, players, None, ScriptedChance(list(dice), hazards=list(hazards))
                 if dice is not None else SeededChance(seed), seed, decisions=list(decisions))
    g.script_only = script_only
    try:
        g.result = g.run()
    except ScriptEnded:
        g.result = None
    return g


def said(g) -> list[str]:
    return [r["text"] for r in g.log if r["t"] == "say"]


def test_turns_go_clockwise_from_the_first_seat_and_skip_the_eliminated(tmp_path):
    g = game(tmp_path, """\
    flow:
      phases:
        setup:
          do: [eliminate: "players[1]"]
          next: play
        play:
          turns: {order: clockwise}
          repeat: {times: 2}
          do: [say: "{current.name}"]
    """)
    assert said(g) == ["Player 1", "Player 3", "Player 1", "Player 3"]


def test_counterclockwise_and_first_player(tmp_path):
    g = game(tmp_path, """\
    flow:
      phases:
        play:
          turns: {order: counterclockwise, first: "players[1]"}
          do: [say: "{current.name}"]
    """)
    assert said(g) == ["Player 2", "Player 1", "Player 3"]


def test_order_by_a_key_lowest_first(tmp_path):
    g = game(tmp_path, """\
    state:
      player:
        bid: {type: int, initial: "10 - player.seat"}
    flow:
      phases:
        play:
          turns: {order: by, by: player.bid}
          do: [say: "{current.name}"]
    """)
    assert said(g) == ["Player 3", "Player 2", "Player 1"]


def test_turn_state_resets_every_turn_and_round_counts_passes(tmp_path):
    g = game(tmp_path, """\
    state:
      turn:
        n: 0
    flow:
      phases:
        play:
          turns: {order: clockwise}
          repeat: {times: 2}
          do:
            - add: {n: 1}
            - say: "{round}:{turn}:{n}"
    """, players=2)
    assert said(g) == ["1:1:1", "1:2:1", "2:3:1", "2:4:1"]


TRIGGERS = """\
components:
  dice:
    gold: {count: 2}
    black: {count: 2}
state:
  global:
    purse: 0
flow:
  phases:
    play:
      do: [roll: [gold, black]]
triggers:
  bust:
    on: rolled
    if: doubles(black)
    group: outcome
    priority: 2
    do: [set: {purse: -1}]
  jackpot:
    on: rolled
    if: doubles(gold)
    group: outcome
    priority: 1
    do: [set: {purse: 5}]
  always:
    on: rolled
    do: [say: "rolled"]
"""


def test_a_group_fires_only_its_highest_priority_trigger_that_holds(tmp_path):
    both = game(tmp_path, TRIGGERS, dice=[3, 3, 2, 2], players=1)
    assert both.env["purse"] == -1
    gold_only = game(tmp_path, TRIGGERS, dice=[3, 3, 2, 4], players=1)
    assert gold_only.env["purse"] == 5
    assert said(gold_only) == ["rolled"]  # triggers outside the group still fire


def test_checks_run_after_every_operation_and_end_turn_interrupts(tmp_path):
    g = game(tmp_path, """\
    state:
      player:
        points: 2
    flow:
      phases:
        play:
          turns: {order: clockwise}
          repeat: {times: 2}
          do:
            - add: {current.points: -1}
            - say: "{current.name} still here"
    checks:
      broke:
        for_each: player
        when: "player.points <= 0"
        do:
          - eliminate: player
          - if: "player == current"
            then: [end_turn]
    scoring:
      winners: "[p for p in players if not p.eliminated]"
    """, players=2)
    assert said(g) == ["Player 1 still here", "Player 2 still here"]
    assert all(p.eliminated for p in g.players)
    assert g.result.winners == []


def test_end_when_ends_the_game_the_moment_it_holds(tmp_path):
    g = game(tmp_path, """\
    state:
      global:
        n: 0
    flow:
      phases:
        play:
          turns: {order: clockwise}
          repeat: {until: "n >= 100"}
          do:
            - add: {n: 1}
            - say: "after {n}"
    end:
      when: "n >= 2"
    """, players=3)
    assert said(g) == ["after 1"]
    assert g.env["n"] == 2


def test_actions_spend_points_respect_limits_and_allow_pass(tmp_path):
    body = """\
    state:
      global:
        log: {type: list, initial: []}
    flow:
      phases:
        play:
          turns: {order: clockwise}
          do:
            - actions: act
              points: 3
              options:
                small: {cost: 1, limit: {times: 1, per: turn}, do: [add: {log: ["'s'"]}]}
                big: {cost: 2, do: [add: {log: ["'b'"]}]}
    """
    g = game(tmp_path, body, decisions=["small", "big"], players=1, script_only=True)
    assert g.env["log"] == ["s", "b"]
    g = game(tmp_path, body, decisions=["small", "small"], players=1, script_only=True)
    # 'small' twice breaks its limit: the script's answer is refused, with the legal options
    assert g.result.error.code == "bad-input"
    assert "legal: big, pass" in g.result.error.message
    assert g.env["log"] == ["s"]


def test_a_sealed_choice_maps_each_player_to_their_choice(tmp_path):
    g = game(tmp_path, """\
    flow:
      phases:
        play:
          do:
            - choose: bid
              by: players
              sealed: true
              min: 0
              max: 9
            - say: "{bid[players[0]]} {bid[players[1]]}"
    """, decisions=[4, 7], players=2)
    assert said(g) == ["4 7"]
    assert any(r["t"] == "revealed" for r in g.log)


def test_a_decision_with_one_legal_option_is_taken_without_asking(tmp_path):
    g = game(tmp_path, """\
    state:
      global:
        open: false
    flow:
      phases:
        play:
          do:
            - choose: pick
              options:
                a: {if: open}
                b: {}
            - say: "{pick}"
    """, decisions=[], players=1, script_only=True)
    assert said(g) == ["b"]


def test_a_timer_running_out_interrupts_a_timed_step_at_its_moment(tmp_path):
    g = game(tmp_path, """\
    components:
      dice:
        die: {}
      timers:
        t: {}
    state:
      global:
        rolls: 0
    flow:
      phases:
        play:
          turns: {order: clockwise}
          do:
            - start_timer: t
              seconds: 10
            - repeat:
                - roll: die
                  duration: 4
                - add: {rolls: 1}
              times: 5
    triggers:
      out:
        on: timer_expired
        do: [end_turn]
    """, dice=[1] * 10, players=1)
    assert g.env["rolls"] == 2  # rolls end at 4 s and 8 s; the third would end at 12 s
    assert g.clock.now() == 10


def test_a_hazard_event_happens_at_its_moment_and_only_during_its_condition(tmp_path):
    body = """\
    state:
      global:
        under: false
        hit: 0
    events:
      slip: {raised_by: any, during: under, hazard: 0.1}
    flow:
      phases:
        play:
          do:
            - wait: 5
            - set: {under: true}
            - wait: 5
    triggers:
      slipped:
        on: slip
        do: [add: {hit: 1}]
    """
    g = game(tmp_path, body, dice=[], players=1, hazards=[2.5])
    assert g.env["hit"] == 1
    assert [r["query"] for r in g.log if r["t"] == "hazard"] == [1]  # asked once: while under


def test_a_repeat_past_its_budget_stops_with_a_located_error(tmp_path):
    g = game(tmp_path, """\
    state:
      global:
        n: 0
    flow:
      phases:
        play:
          do:
            - repeat:
                - add: {n: 1}
              until: "n < 0"
    limits:
      max_loop: 50
    """, players=1)
    err = g.result.error
    assert err.code == "budget-exceeded"
    assert "50 passes" in err.message
    assert err.path == ("flow", "phases", "play", "do", 0, "repeat")


def test_triggers_that_fire_each_other_forever_stop_at_the_chain_depth(tmp_path):
    g = game(tmp_path, """\
    events:
      ping: {}
    flow:
      phases:
        play:
          do: [emit: ping]
    triggers:
      echo:
        on: ping
        do: [emit: ping]
    """, players=1)
    assert g.result.error.code == "budget-exceeded"
    assert "echo" in str(g.result.error.path)


def test_a_runtime_error_points_into_the_expression(tmp_path):
    g = game(tmp_path, """\
    state:
      global:
        xs: {type: list, initial: []}
    flow:
      phases:
        play:
          do: [say: "{xs[3]}"]
    """, players=1)
    err = g.result.error
    assert err.code == "runtime-error"
    assert "out of range" in err.message
    assert err.path == ("flow", "phases", "play", "do", 0, "say")


def test_a_condition_that_is_none_stops_the_game_in_the_languages_words(tmp_path):
    # The first of an empty list of true/false is none: no condition. The error spells it as
    # the language does (it said Python's None).
    g = game(tmp_path, """\
    flow:
      phases:
        play:
          do:
            - if: "first([n > 0 for n in []])"
              then: [say: Never]
    """, players=1)
    err = g.result.error
    assert (err.code, err.message) == ("runtime-error", "a condition must be true or false, not none")
    assert err.path == ("flow", "phases", "play", "do", 0, "if")


@pytest.mark.parametrize("seed", range(5))
def test_the_same_seed_gives_the_same_log(tmp_path, seed):
    body = """\
    components:
      dice:
        die: {}
    state:
      player:
        score: 0
    flow:
      phases:
        play:
          turns: {order: clockwise}
          repeat: {times: 3}
          do:
            - roll: die
            - choose: keep
              options: [yes, no]
            - if: "keep == 'yes'"
              then: [add: {current.score: die.face}]
    scoring:
      score: player.score
    """
    a = game(tmp_path, body, dice=None, seed=seed)
    b = game(tmp_path, body, dice=None, seed=seed)
    assert a.log == b.log


def test_an_end_turn_raised_by_a_check_lets_the_other_checks_run_first(tmp_path):
    g = game(tmp_path, """\
    state:
      global:
        noted: ""
      player:
        points: 1
    flow:
      phases:
        play:
          turns: {order: clockwise}
          repeat: {times: 2}
          do:
            - add: {current.points: -1}
            - say: "{current.name} goes on"
    checks:
      broke:
        for_each: player
        when: "player.points <= 0"
        do:
          - eliminate: player
          - if: "player == current"
            then: [end_turn]
      few_left:
        when: "noted == '' and count(p for p in players if not p.eliminated) <= 2"
        do: [set: {noted: current.name}]
    """, players=3)
    assert g.env["noted"] == "Player 1"  # examined in the same turn, although 'broke' ended it
    assert said(g) == []
    assert [p.eliminated for p in g.players] == [True, True, True]


def test_a_ruleset_loads_from_text_and_its_errors_name_the_given_file(tmp_path):
    from interpreter.engine.setup import SetupError
    text = HEAD + textwrap.dedent("""\
    flow:
      phases:
        play:
          do: [say: "hello"]
    """)
    loaded = load("from_memory.yaml", text=text)  # no such file: the text is what counts
    g = new_game(loaded.program, 1, None, SeededChance(0), 0)
    g.run()
    assert said(g) == ["hello"]
    with pytest.raises(SetupError) as err:
        load("from_memory.yaml", text=text.replace('"hello"', '"{helo}"'))
    assert err.value.diagnostics[0].span.file == "from_memory.yaml"


def test_a_player_who_cannot_win_places_below_every_player_who_can(tmp_path):
    # Three players score 3, 9 and 7; the 9 is not eligible (in debt, say).
    text = """\
meeple: 1
metadata: {name: Debts}
players: {min: 3, max: 3}
state:
  player:
    points: {type: int, initial: "if player.seat == 2 then 9 else player.seat * 2 + 1"}
    debt: {type: bool, initial: "player.seat == 2"}
flow:
  phases:
    play:
      do: [end_game]
scoring:
  score: player.points
  eligible: not player.debt
"""
    path = tmp_path / "debts.yaml"
    path.write_text(text)
    program = load(str(path)).program
    result = new_game(program).run()
    assert result.winners == ["Player 3"]
    assert {s.name: s.placement for s in result.seats} == {
        "Player 3": 1, "Player 1": 2, "Player 2": 3}
    assert [s.eligible for s in result.seats] == [True, False, True]
    assert "(cannot win)" in "\n".join(result_lines(result)).split("Player 2")[1]
    specialized = specialize(program)  # the generated code places them the same way
    assert specialized is not None
    assert specialized.play(0).result.seats == result.seats


PROCEDURE_BREAK = """\
state:
  global:
    x: {type: int, initial: 0}
procedures:
  stop_now:
    do:
      - add: {x: 1}
      - break
      - add: {x: 100}
flow:
  phases:
    play:
      do:
        - repeat: [{call: stop_now}]
          times: 5
        %s
      next: end
end: {when: "true"}
scoring: {score: x, order: highest}
"""


def test_a_procedures_break_leaves_the_loop_around_its_call(tmp_path):
    g = game(tmp_path, PROCEDURE_BREAK % "", players=1)
    assert g.result.error is None
    assert g.env["x"] == 1  # one pass, cut at the break


def test_a_procedures_break_reached_outside_any_loop_stops_the_game_at_the_break(tmp_path):
    # One call stands in a loop, so the ruleset validates; the other runs the break loose.
    g = game(tmp_path, PROCEDURE_BREAK % "- call: stop_now", players=1)
    err = g.result.error
    assert err.code == "runtime-error"
    assert err.message == "'break' ran outside any repeat or for_each"
    assert err.path == ("procedures", "stop_now", "do", 1)
    assert "Break" not in err.message and "call it inside a repeat" in err.hint


ZONES = """\
components:
  dice:
    red: {sides: 6, count: 3, in: pool}
  zones:
    pool: {kind: row}
    cup: {kind: row}
flow:
  phases:
    play:
      do:
        - move: "red[2]"
          to: cup
        - move: pool
          to: cup
        %s
      next: end
end: {when: "count(pool) > 99"}
scoring: {score: 0, order: highest}
"""


def test_moving_a_zone_moves_its_items_in_order_never_the_zone(tmp_path):
    g = game(tmp_path, ZONES % "", players=1)
    assert g.result.error is None, g.result.error
    assert [d.id for d in g.zones["cup"].items] == ["red[2]", "red[0]", "red[1]"]
    assert g.zones["pool"].items == []


def test_a_zone_in_a_list_of_things_to_move_stops_the_game_located(tmp_path):
    g = game(tmp_path, ZONES % '- move: "[cup]"\n          to: pool', players=1)
    err = g.result.error
    assert err.message == "only dice and cards can be moved, not the zone cup"
    assert err.path == ("flow", "phases", "play", "do", 2, "move")


def test_a_die_listed_twice_in_one_move_stops_the_game_located(tmp_path):
    # One die cannot lie in a zone twice: the move names the slip instead of doubling it.
    g = game(tmp_path, ZONES % '- move: "[red[0], red[1], red[0]]"\n          to: pool',
             players=1)
    err = g.result.error
    assert err.code == "runtime-error" and err.message == "red[0] is listed twice in one move"
    assert err.path == ("flow", "phases", "play", "do", 2, "move")
    assert g.zones["pool"].items == []  # nothing moved
    _generated_code_stops_there_too(g)


@pytest.mark.parametrize("step,count", [("draw", "0 - 1"), ("deal", "0 - 2"),
                                        ("draw", "count(cup) - 4")])
def test_a_count_of_items_that_is_not_a_whole_number_of_0_or_more_stops_the_game(
        tmp_path, step, count):
    # A slice would read -1 as "all but the last": a draw or deal of -1 items is the rules' slip.
    rest = "as: got" if step == "draw" else "to: pool"
    g = game(tmp_path, ZONES % f'- {step}: cup\n          {rest}\n          count: "{count}"',
             players=1)
    err = g.result.error
    assert err is not None and err.code == "runtime-error"
    assert err.message.startswith("a count of items must be a whole number of 0 or more, not ")
    assert err.path == ("flow", "phases", "play", "do", 2, "count")
    assert len(g.zones["cup"].items) == 3  # nothing left the cup
    _generated_code_stops_there_too(g)


DECIDERS = """\
flow:
  phases:
    play:
      do:
        - choose: bid
          by: "%s"
          min: 1
          max: 3
      next: end
scoring: {score: 0, order: highest}
"""


@pytest.mark.parametrize("by,message", [
    ("players + [p for p in players if p.seat == 1]", "Player 1 is asked twice in one decision"),
    ("first([p for p in players if p.name == 'nobody'])",
     "a decision needs a player to decide, not none")])
def test_a_decision_by_nobody_or_by_a_player_twice_stops_the_game_at_by(tmp_path, by, message):
    g = game(tmp_path, DECIDERS % by, players=2, dice=None)
    err = g.result.error
    assert err is not None and err.code == "runtime-error" and err.message == message
    assert err.path == ("flow", "phases", "play", "do", 0, "by")
    _generated_code_stops_there_too(g)


def _generated_code_stops_there_too(g) -> None:
    """The generated code gives the interpreter's located error itself, none played again by
    the interpreter (interpreter/compile/stops.py)."""
    special = specialize(g.program, g.players_n)
    assert special is not None
    played = special.play(g.seed)
    mine, theirs = played.result.error, g.result.error
    assert (mine.code, mine.message, mine.path, mine.pos, mine.hint) == (
        theirs.code, theirs.message, theirs.path, theirs.pos, theirs.hint)
    assert played.result.to_json() == g.result.to_json()
