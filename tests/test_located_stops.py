"""Budgets the generated code stops at itself, located as the interpreter locates them: a
turn past `limits.max_turns`, a pass of a phase, a `repeat` or a decision's actions past
its `max` or `limits.max_loop`, an operation past `limits.max_steps` (the fast version
finds that one late; its checked version plays the seed again to the exact stop:
interpreter/compile/stops.py). The game is the interpreter's to the stop (result, error,
counts, work, log), and no game goes back to the interpreter for it (they all did before: a
replay of the whole game on the interpreter). So does a decision with no legal option."""

from __future__ import annotations

import pytest

from interpreter.compile.played import GeneratorFault
from interpreter.compile.specialize import specialize
from interpreter.compile.stops import passes_site, twice_site
from interpreter.engine.setup import load, new_game
from interpreter.simulate.runner import Setup, _interpreted, play_game
from tests.test_generated_builtins import _write
from tests.test_specialize import _interpreted_with as interpreted_with
from tests.test_specialize import _outcome

HEAD = """\
meeple: 1
metadata: {name: Endless}
players: {min: 2, max: 2}
components:
  dice:
    die: {sides: 6}
state:
  global:
    x: 0
  player:
    score: {type: int, initial: 0}
triggers:
  sixes:
    on: rolled
    if: "die.face == 6"
    do: [{add: {x: 1}}]
"""

TAIL = """\
scoring: {score: player.score, order: highest}
"""
POLICY = """\
policies:
  steady:
    default: true
    decide:
"""
HOLD = """\
      hold:
        - when: "die.face > 3"
          choose: keep
        - choose: spend
"""

TURNS = """\
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "x < 0"PHASE_MAX}
      do:
        - roll: die
        - choose: hold
          options: [keep, spend]
        - if: "hold == 'keep'"
          then: [{add: {current.score: "die.face"}}]
      next: end
limits: {max_turns: 23}
"""

NO_TURNS = """\
flow:
  phases:
    play:
      repeat: {until: "x < 0"PHASE_MAX}
      do:
        - roll: die
        - add: {"players[0].score": "die.face"}
      next: end
limits: {max_loop: 37}
"""

REPEAT = """\
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - repeat:
            - roll: die
            - choose: hold
              options: [keep, spend]
            - add: {current.score: "count([p for p in players if p.score > die.face])"}
          until: "x < 0"REPEAT_MAX
      next: end
limits: {max_loop: 41}
"""

ACTIONS = """\
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - actions: act
          points: 2
          pass: false
          options:
            look:
              cost: 0
              do: [{roll: die}, {add: {current.score: "die.face"}}]
      next: end
limits: {max_loop: 29}
"""

STEPS = TURNS.replace("limits: {max_turns: 23}", "limits: {max_steps: 77}")

NO_OPTION = """\
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 30"}
      do:
        - roll: die
        - choose: hold
          options:
            keep: {if: "die.face < 6"}
            spend: {if: "die.face < 5 and x >= 0"}
        - if: "hold == 'keep'"
          then: [{add: {current.score: "die.face"}}]
        - choose: whom
          options: "[p for p in players if p.score < 40 + die.face]"
      next: end
"""

CHAINS = """\
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 40"}
      do:
        - roll: die
        - add: {current.score: "die.face"}
        - if: "current.score > 30"
          then: [ACTION]
      next: end
limits: {max_chain_depth: 3}
"""
ECHO = "  echo:\n    on: ping\n    do: [{add: {x: 1}}, {emit: ping}]\n"
AGAIN = "procedures:\n  again:\n    do: [{add: {x: 1}}, {call: again}]\n"
FOREVER = "checks:\n  forever:\n    when: \"x > 0\"\n    do: [{add: {x: 1}}]\n"

CASES = {
    "triggers past max_chain_depth": (
        CHAINS.replace("ACTION", "{emit: ping}") + ECHO, "", "triggers fired each other more "
        "than 3 deep (on 'ping')", ("triggers", "echo")),
    "calls past the nesting limit": (
        CHAINS.replace("ACTION", "{call: again}") + AGAIN, "", "procedure calls nest deeper "
        "than 12 (calling 'again')", ("procedures", "again", "do", 1)),
    "checks that still hold": (
        CHAINS.replace("ACTION", "{add: {x: 1}}") + FOREVER, "", "checks still hold after 3 "
        "rounds of firing (their steps never make their condition false)", ("checks",)),
    "an operation past max_steps": (STEPS, "", "the game went past 77 steps "
                                    "(limits.max_steps)", ()),
    "a turn past max_turns": (TURNS, "", "the game went past 23 turns (limits.max_turns)",
                              ("flow", "phases", "play")),
    "a phase's round past its max": (TURNS, ", max: 4", "phase 'play' ran more than its max "
                                     "of 4 passes", ("flow", "phases", "play", "repeat", "max")),
    "a phase's pass past max_loop": (NO_TURNS, "", "a loop ran more than 37 passes "
                                     "(limits.max_loop)", ("flow", "phases", "play", "repeat")),
    "a phase's pass past its max": (NO_TURNS, ", max: 12", "phase 'play' ran more than its max "
                                    "of 12 passes", ("flow", "phases", "play", "repeat", "max")),
    "a repeat past max_loop": (REPEAT, "", "a loop ran more than 41 passes (limits.max_loop)",
                               ("flow", "phases", "play", "do", 0, "repeat")),
    "a repeat past its max": (REPEAT, "\n          max: 6", "this repeat ran more than its max "
                              "of 6 passes", ("flow", "phases", "play", "do", 0, "repeat")),
    "actions past max_loop": (ACTIONS, "", "a loop ran more than 29 passes (limits.max_loop)",
                              ("flow", "phases", "play", "do", 0, "actions")),
    # The decision of the player whose turn it is (its name in the message).
    "options given with conditions, none legal": (
        NO_OPTION, "", "decision 'hold' has no legal option for ",
        ("flow", "phases", "play", "do", 1)),
    "a procedure's break outside any loop": (
        CHAINS.replace("ACTION", "{repeat: [{call: leave}], times: 1}, {call: leave}")
        + "procedures:\n  leave:\n    do: [break]\n",
        "", "'break' ran outside any repeat or for_each", ("procedures", "leave", "do", 0)),
    "a player asked twice in one decision": (
        NO_OPTION.replace("die.face < 6", "die.face < 7").replace(
            "        - choose: whom", "        - choose: bids\n          by: \"if current.score > 20 "
            "then [current, current] else players\"\n          min: 0\n          max: 9\n"
            "        - choose: whom"), "", " is asked twice in one decision",
        ("flow", "phases", "play", "do", 3, "by")),
    "a decision by nobody": (
        NO_OPTION.replace("die.face < 6", "die.face < 7").replace(
            "        - choose: whom", "        - choose: whom\n          by: \"if current.score > 20 "
            "then none else current\""), "", "a decision needs a player to decide, not none",
        ("flow", "phases", "play", "do", 3, "by")),
    "options given by a list, none in it": (
        NO_OPTION.replace("die.face < 6", "die.face < 7"), "",
        "decision 'whom' has no legal option for ", ("flow", "phases", "play", "do", 3)),
    # A policy's `best` rule reached at a number choice (past 20 points).
    "a policy's best at a number choice": (
        NO_OPTION.replace("die.face < 6", "die.face < 7").replace(
            "        - choose: whom", "        - choose: weigh\n          min: 0\n          max: 9\n"
            "        - choose: whom"), "", "`best` cannot weigh a number choice",
        ("policies", "steady", "decide", "weigh")),
}

CODES = {  # the error code of each case that is not a budget's
    "options given with conditions, none legal": "no-legal-option",
    "options given by a list, none in it": "no-legal-option",
    "a procedure's break outside any loop": "runtime-error",
    "a player asked twice in one decision": "runtime-error",
    "a decision by nobody": "runtime-error",
    "a policy's best at a number choice": "runtime-error",
}


def _ruleset(tmp_path, case: str) -> str:
    flow, most, _, _ = CASES[case]
    decides = (HOLD if "choose: hold" in flow else "") + (
        "      act: [{choose: look}]\n" if "actions: act" in flow else "") + (
        "      whom: [{best: \"option.score\"}]\n" if "choose: whom" in flow else "") + (
        "      weigh: [{when: \"current.score > 20\", best: \"1\"}]\n"
        if "choose: weigh" in flow else "")
    head = HEAD.replace("triggers:\n", "events:\n  ping: {}\ntriggers:\n" + ECHO) \
        if ECHO in flow else HEAD
    flow = flow.replace(ECHO, "")
    text = head + flow.replace("PHASE_MAX", most).replace("REPEAT_MAX", most) + TAIL + (
        POLICY + decides if decides else "")
    return _write(tmp_path, text)


def _error(result) -> tuple:
    e = result.error
    return (e.code, e.message, tuple(e.path), e.pos, e.hint)


@pytest.mark.parametrize("how", ["fast", "logged", "checked"])
@pytest.mark.parametrize("case", list(CASES))
def test_the_generated_game_stops_where_the_interpreter_stops_it(tmp_path, case, how):
    program = load(_ruleset(tmp_path, case)).program
    special = specialize(program, logged=how == "logged", wide=how == "checked")
    assert special is not None
    message, path = CASES[case][2:]
    for seed in range(6):
        want, result = interpreted_with(program, None, None, seed)
        if how == "logged":  # the interpreter's log, to compare with the generated one's
            reference = new_game(program, None, {}, seed=seed)
            reference.logging = reference.narrating = True
            result = reference.run()
        code, said, where = _error(result)[:3]
        assert code == CODES.get(case, "budget-exceeded")
        assert message in said and where == path
        if how == "logged":
            played, log = special.play_logged(seed)
            assert log == reference.log, seed
        else:
            played = special.play(seed)
        assert _outcome(played) == want, seed
        assert _error(played.result) == _error(result), seed
    assert special.checked == 0


@pytest.mark.parametrize("case", list(CASES))
def test_simulate_records_a_located_stop_as_the_interpreter_does(tmp_path, case):
    program = load(_ruleset(tmp_path, case)).program
    setup = Setup(2, ())
    for seed in range(4):
        record, counts = play_game(program, setup, f"s:{seed}", seed)
        want, want_counts = _interpreted(program, setup, f"s:{seed}", seed)
        assert record.error is not None
        assert record == want and counts == want_counts, seed


@pytest.mark.parametrize("stopped", [
    (passes_site(41, "this repeat", ("flow",), ("flow",)), 3, None),  # pass 3 of at most 41
    (twice_site(("flow",)), [0, 1]),                                  # nobody asked twice
])
def test_a_stop_within_its_limits_is_reported_as_the_generators_fault(tmp_path, stopped):
    # The generated code said it stopped where nothing was past its limit: a bug of the code
    # generator, reported as such, never shown as the rules' error.
    special = specialize(load(_ruleset(tmp_path, "a turn past max_turns")).program)
    real = special.play_raw
    special.play_raw = lambda seed: (*real(seed)[:-2], stopped, real(seed)[-1])
    with pytest.raises(GeneratorFault, match="within its limits"):
        special.play(0)
