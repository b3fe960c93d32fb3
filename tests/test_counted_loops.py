"""A `repeat` that counts its passes is a `for` (interpreter/compile/counted.py), and a phase's
`until` that is the end condition is tested until it is first false (interpreter/compile/
flow.py `_until_flag`): the same games as before, with less work a pass.

The pass is shown on loops in the generated code's shape, run before and after on many
seeds, left by each way out (the `until`, a `break`, an exception, the limit); then on
rulesets, whose generated games must be the interpreter's.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from interpreter.compile.counted import counted_loops
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.test_generated_builtins import plays_as_the_interpreter

ROOT = Path(__file__).resolve().parents[1]


class _Stop(Exception):
    pass


class _Out(Exception):
    pass


def _consts() -> tuple[dict, callable]:
    names: dict = {}

    def const(value, hint):
        name = f"_{hint}{len(names)}"
        names[name] = value
        return name
    return names, const


def _run(lines: list[str], seed: int, names: dict) -> tuple:
    src = "def play(rnd):\n" + "\n".join("    " + ln for ln in lines)
    space = {"_Stop": _Stop, "_Out": _Out, "_FA9": (1, 2, 3, 4, 5, 6), **names}
    exec(src, space)  # noqa: S102 - the test's own constant text
    return space["play"](random.Random(seed).random)


def _same_results(lines: list[str], seeds: int = 400) -> list[str]:
    names, const = _consts()
    out = counted_loops(lines, const)
    for seed in range(seeds):
        assert _run(out, seed, names) == _run(lines, seed, {}), seed
    return out


# Roll two dice a pass until a double; a six-six leaves by an exception, the ninth pass by the
# limit's stop: the count of rolls, the pass number at the stop and the steps are what the
# game reports, however the loop is left.
LOOP = """\
steps = rolls = total = 0
try:
    _p3 = 0
    steps += 1
    while True:
        _p3 += 1
        if _p3 > 8:
            raise _Stop('past', _p3)
        F_a = int(rnd() * 6) + 1
        rolls += 1
        F_b = _FA9[int(rnd() * 6)]
        rolls += 1
        if F_a + F_b == 12:
            raise _Out(total)
        total += F_a
        if F_a == F_b:
            steps += 2
            break
        steps += 3
except _Out as e:
    return ('out', rolls, steps, *e.args)
except _Stop as e:
    return ('stopped', rolls, steps, *e.args)
return 'ended', rolls, steps, total""".split("\n")


def test_a_counted_repeat_is_a_for_that_counts_its_rolls_however_it_is_left():
    out = _same_results(LOOP)
    text = "\n".join(out)
    assert "for _p3 in _R0:" in text and "while True:" not in text
    assert "raise _Stop('past', 9)" in text  # the pass past the limit
    assert "finally:" in text and "rolls += 2 * _p3" in text
    assert text.count("rolls += 1") == 0
    # The count that closes each pass: once at the end for the passes that reached it.
    assert "steps += 3 * (_p3 - 1)" in text and text.count("steps += 3\n") == 1
    outcomes = {_run(out, seed, {"_R0": range(1, 9)})[0] for seed in range(400)}
    assert outcomes == {"ended", "stopped", "out"}  # each way out was taken


def test_a_count_after_a_line_that_may_raise_stays_in_its_pass():
    lines = [ln.replace("F_b = _FA9[int(rnd() * 6)]", "F_b = _FA9[int(rnd() * 6) % 7]")
             for ln in LOOP]
    out = _same_results(lines)
    text = "\n".join(out)
    assert "for _p3 in _R0:" in text and "rolls += 2" not in text
    assert text.count("rolls += 1") == 2  # a later one stays, so the first does too


def test_a_loop_that_reads_its_count_keeps_it():
    lines = [ln.replace("total += F_a", "total += F_a + rolls") for ln in LOOP]
    text = "\n".join(_same_results(lines))
    assert "for _p3 in" in text and text.count("rolls += 1") == 2
    assert not re.search(r"rolls \+= .*_p3", text)


# A pass that rolls until a double or the total passes 20, choosing (`ch0`, `ch1`) whether
# to go on: the counts of the branch that goes on and those after it close each pass.
CHOICE = """\
steps = rolls = total = ch0 = ch1 = 0
try:
    _p3 = 0
    while True:
        _p3 += 1
        if _p3 > 5:
            raise _Stop('past', _p3)
        F_a = int(rnd() * 6) + 1
        rolls += 1
        total += F_a
        if F_a == 1:
            steps += 2
            break
        elif total > 20:
            ch1 += 1
            steps += 3
            break
        else:
            ch0 += 1
        steps += 3
except _Stop as e:
    return ('stopped', rolls, steps, total, ch0, ch1, *e.args)
return rolls, steps, total, ch0, ch1""".split("\n")


def _choice(old: str, new: str) -> list[str]:
    text = "\n".join(CHOICE)
    assert old in text
    return text.replace(old, new).split("\n")


def test_the_counts_of_the_way_on_are_added_once_when_the_loop_is_left():
    out = _same_results(CHOICE)
    text = "\n".join(out)
    ends = {_run(out, seed, {"_R0": range(1, 6)})[0] for seed in range(400)}
    assert "stopped" in ends  # at the sixth pass: the five before it all counted
    assert "ch0 += _p3 - 1" in text and "steps += 3 * (_p3 - 1)" in text
    assert "else:\n                ch0 += 1" not in text


@pytest.mark.parametrize("old,new", [
    ("        else:\n            ch0 += 1", "        else:\n            ch0 += 1\n            total += 1"),
    ("            steps += 2\n            break", "            steps += 2"),  # goes on
    ("        if F_a == 1:", "        if F_a == 1 and steps > 9:"),       # the count is read
    ("        if F_a == 1:", "        if F_a == 6:\n            continue\n        if F_a == 1:"),
])
def test_counts_that_not_every_pass_reaching_its_end_makes_stay(old, new):
    text = "\n".join(_same_results(_choice(old, new)))
    assert "for _p3 in" in text and "ch0 += _p3" not in text


def test_a_loop_that_reads_its_pass_number_stays_a_while():
    lines = [ln.replace("total += F_a", "total += F_a + _p3") for ln in LOOP]
    names, const = _consts()
    assert counted_loops(lines, const) == lines


def test_a_loop_with_a_loop_inside_still_tests_the_budget_each_pass():
    lines = [ln.replace("if _p3 > 8:", "if _p3 > 8 or steps > 20:") for ln in LOOP]
    out = _same_results(lines)
    text = "\n".join(out)
    assert re.search(r"for _p3 in _R0:\n +if steps > 20:\n +raise _Stop\('past', _p3\)", text)
    games = [_run(out, s, {"_R0": range(1, 9)}) for s in range(400)]
    at = {g[4] for g in games if g[0] == "stopped"}  # the pass each stop came at
    assert any(p < 9 for p in at)  # the budget stopped some before the limit


# A push-your-luck turn left each way the language has: the `until`, `end_turn`, `end_game`
# (inside the loop) and the limit on its passes.
PUSH = """\
meeple: 1
metadata: {name: Push}
players: {min: 2, max: 2}
components:
  dice:
    die: {sides: 6}
    other: {sides: 4}
state:
  player:
    score: {type: int, initial: 0}
  turn:
    run: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - repeat:
            - roll: die
            - roll: other
            - if: "die.face == 1"
              then: [{set: {run: 0}}, end_turn]
            - if: "die.face + other.face == 10 and current.score > 6"
              then: [{end_game: null, reason: "a lucky ten"}]
            - add: {run: die.face}
          until: "run >= 12"
        - add: {current.score: run}
      next: end
scoring: {score: player.score, order: highest}
limits: {max_loop: 4}
"""


def test_a_turns_roll_loop_left_every_way_plays_as_the_interpreter(tmp_path):
    special, _ = plays_as_the_interpreter(tmp_path, PUSH, seeds=120)
    assert re.search(r"for _p\d+ in _R\d+:", special.source)
    assert re.search(r"finally:\n\s+rolls \+= 2 \* _p\d+", special.source)
    results = [special.play(seed).result for seed in range(120)]
    assert any(r.reason == "a lucky ten" for r in results)  # the end_game in the loop
    assert any(r.error is not None and "4 passes" in r.error.message for r in results)


def test_a_logged_game_of_the_roll_loop_plays_as_the_interpreter(tmp_path):
    plays_as_the_interpreter(tmp_path, PUSH, seeds=20, logged=True)


# The end condition as the phase's `until`, as Pig writes it, from a state that may already
# meet it: `x` starts at the parameter `start`, and only the first player's 6 raises it; a
# turn that rolls under 4 writes nothing the condition reads.
UNTIL = """\
meeple: 1
metadata: {name: Race to the end}
players: {min: 2, max: 2}
parameters:
  start: {type: int, default: 0, doc: Where x starts.}
components:
  dice:
    die: {sides: 6}
state:
  global:
    x: {type: int, initial: "start"}
  player:
    score: {type: int, initial: 0}
  turn:
    got: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "UNTIL"}
      do:
        - roll: die
        - set: {got: die.face}
        - if: "die.face >= 4"
          then: [{add: {current.score: die.face}}]
        - if: "die.face == 6 and current == players[0]"
          then: [{add: {x: 1}}]
      next: end
end:
  when: "UNTIL"
scoring: {score: player.score, order: highest}
"""


def _until(text: str, start: int = 0) -> str:
    return UNTIL.replace("UNTIL", text).replace("default: 0", f"default: {start}")


@pytest.mark.parametrize("start", [0, 3])
def test_an_until_that_is_the_end_condition_is_tested_until_first_false(tmp_path, start):
    # From 3 the condition holds from the start: the game ends in the first turn, at the
    # operation that writes a score or, after a turn that writes none, at the phase's
    # `until`, as the interpreter's does.
    special, _ = plays_as_the_interpreter(
        tmp_path, _until("x >= 3 or any(p.score >= 30 for p in players)", start), seeds=60)
    assert re.search(r"if (_u\d+):\n(\s+)if .*\n(?:\2 .*\n)+\2\1 = False", special.source)
    turns = {special.play(seed).result.turns for seed in range(60)}
    assert (turns == {1}) == (start == 3)


@pytest.mark.parametrize("until", [
    "got == 6 and x >= 1",           # turn state: set again when a turn begins
    "turn >= 7",                     # the turn's number: no operation writes it
    "current.score >= 20",           # who `current` is changes with no operation
])
def test_an_until_that_reads_what_turns_change_is_tested_every_time(tmp_path, until):
    special, _ = plays_as_the_interpreter(tmp_path, _until(until), seeds=60)
    assert not re.search(r"_u\d+ = True", special.source)


def test_an_until_that_counts_work_is_tested_every_time(tmp_path):
    # Each test of it counts the list's items in the work budget, as the interpreter's does.
    text = _until("count([s for s in sixes if s == 6]) >= 2").replace(
        "    x: {type: int, initial: \"start\"}",
        "    x: {type: int, initial: \"start\"}\n    sixes: {type: list, initial: []}").replace(
        "          then: [{add: {x: 1}}]", "          then: [{add: {sixes: 6}}]")
    special, _ = plays_as_the_interpreter(tmp_path, text, seeds=60)
    assert "wk" in special.source and not re.search(r"_u\d+ = True", special.source)


def test_pig_tests_its_until_until_first_false_and_counts_rolls_once_a_turn():
    special = specialize(load(str(ROOT / "rulesets" / "pig.yaml")).program)
    assert re.search(r"_u\d+ = True", special.source)
    assert re.search(r"finally:\n\s+rolls \+= _p\d+", special.source)


def test_a_roll_loop_in_a_turn_leaves_the_step_budget_to_the_turns_head(tmp_path):
    # The budget passed inside the loop: the fast version finds it at the next turn (or the
    # end), and its checked version stops the game at the exact step, as the interpreter.
    text = PUSH.replace("limits: {max_loop: 4}", "limits: {max_loop: 4, max_steps: 45}")
    special, _ = plays_as_the_interpreter(tmp_path, text, seeds=60)
    assert not re.search(r"raise _Stop\(\)$", special.source, re.M)
    errors = [special.play(seed).result.error for seed in range(60)]
    assert any(e is not None and "past 45 steps" in e.message for e in errors)


@pytest.mark.parametrize("start", [0, 3])
def test_an_until_written_as_the_end_conditions_source_is_tested_until_first_false(
        tmp_path, start):
    # The `until` says more than the end condition, but what it adds is known false when
    # generating (the parameter is below 100): written, it is the end condition's source.
    end = "x >= 3 or any(p.score >= 30 for p in players)"
    text = _until(end, start).replace(f'repeat: {{until: "{end}"}}',
                                      f'repeat: {{until: "{end} or (start > 100 and x >= 0)"}}')
    assert text.count(end) == 2 and "start > 100" in text
    special, _ = plays_as_the_interpreter(tmp_path, text, seeds=60)
    assert re.search(r"if (_u\d+):\n(\s+)if .*\n(?:\2 .*\n)+\2\1 = False", special.source)
    turns = {special.play(seed).result.turns for seed in range(60)}
    assert (turns == {1}) == (start == 3)


def test_an_until_that_adds_to_the_end_condition_is_tested_every_time(tmp_path):
    end = "x >= 3 or any(p.score >= 30 for p in players)"
    text = _until(end).replace(f'repeat: {{until: "{end}"}}',
                               f'repeat: {{until: "{end} or (start < 100 and got == 6)"}}')
    special, _ = plays_as_the_interpreter(tmp_path, text, seeds=60)
    assert not re.search(r"_u\d+ = True", special.source)
