"""The passes over generated lines (interpreter/compile/peephole.py) keep what the code does.

Each pass is shown on a small function in the generated code's shape: the text it writes, and
the same results (return value and step count) as the lines it was given, on every input
tried. A pass that does not apply leaves the lines as they were.
"""

from __future__ import annotations

import random

import pytest

from interpreter.compile.peephole import tidy


def _run(lines: list[str], seed: int) -> tuple:
    src = "def play(rnd):\n" + "\n".join("    " + ln for ln in lines)
    names: dict = {}
    exec(src, names)  # noqa: S102 - the test's own constant text
    return names["play"](random.Random(seed).random)


def _same_results(lines: list[str]) -> list[str]:
    out = tidy(lines)
    for seed in range(300):
        assert _run(out, seed) == _run(lines, seed), seed
    return out


# A Pig turn: roll until a 1 or the policy holds, counting steps as the interpreter does.
TURN = """\
steps = total = 0
D_x = None
while True:
    steps += 1
    face = int(rnd() * 6) + 1
    if (face == 1):
        total = 0
        steps += 1
        break
    _t4 = face
    total += _t4
    if total >= 20:
        _ch5 = 1
        D_x = 'hold'
    else:
        _ch5 = 0
        D_x = 'roll'
    steps += 2
    if (D_x == 'hold'):
        break
return steps, total, D_x""".split("\n")


def test_a_pig_turn_counts_once_per_way_through_and_tests_its_pick_where_it_is_made():
    out = _same_results(TURN)
    assert out == """\
steps = total = 0
D_x = None
while True:
    face = int(rnd() * 6) + 1
    if (face == 1):
        total = 0
        steps += 2
        break
    total += face
    if total >= 20:
        D_x = 'hold'
        steps += 3
        break
    else:
        D_x = 'roll'
    steps += 3
return steps, total, D_x""".split("\n")


def test_a_temporary_alone_in_its_block_stays():
    lines = ["x = 0", "if rnd() < 0.5:", "    _t1 = 3", "return x"]
    assert _same_results(lines) == lines


def test_a_copy_read_twice_is_kept():
    lines = ["a = rnd()", "_t1 = a", "b = _t1 + 1", "return b + _t1"]
    assert _same_results(lines) == lines


def test_a_chain_without_else_is_not_threaded():
    lines = ["D = 'no'", "if rnd() < 0.5:", "    D = 'yes'", "if (D == 'yes'):",
             "    return 1", "return 0"]
    assert _same_results(lines) == lines


def test_a_long_test_body_is_not_copied():
    # Two branches pick 'a': its body would be written twice.
    lines = ["if rnd() < 0.3:", "    D = 'a'", "elif rnd() < 0.5:", "    D = 'a'", "else:",
             "    D = 'b'", "if (D == 'a'):", "    x = 1", "    y = 2", "    z = 3",
             "    return x + y + z", "return 0"]
    assert _same_results(lines) == lines


# A policy's pick, then the steps of the option it picked (a decision in a `repeat`, as
# Wreckdivers' dive): each branch takes its option's steps and the count between.
DISPATCH = """\
steps = tally = 0
for _ in range(12):
    if tally >= 10 or rnd() < 0.1:
        _ch7 = 1
        D_a = 'ascend'
    else:
        _ch7 = 0
        D_a = 'roll'
    steps += 1
    if _ch7 == 0:
        roll = int(rnd() * 6)
        tally += roll
        if roll == 0:
            tally = 0
        steps += 2
    elif _ch7 == 1:
        steps += 1
    if (D_a == 'ascend'):
        break
return steps, tally""".split("\n")


def test_a_picks_option_steps_move_into_the_branch_that_picks_it():
    out = _same_results(DISPATCH)
    assert out == """\
steps = tally = 0
for _ in range(12):
    if tally >= 10 or rnd() < 0.1:
        steps += 2
        break
    else:
        roll = int(rnd() * 6)
        tally += roll
        if roll == 0:
            tally = 0
        steps += 3
return steps, tally""".split("\n")


def test_a_pick_written_again_in_its_branch_or_a_long_body_for_two_stays():
    again = [ln.replace("        D_a = 'roll'", "        D_a = 'roll'\n        if rnd() < 0.5:"
                        "\n            _ch7 = 1") for ln in DISPATCH]
    again = "\n".join(again).split("\n")
    assert _same_results(again) == again
    twice = "\n".join(DISPATCH).replace("    if tally >= 10 or rnd() < 0.1:",
                                        "    if tally >= 10:\n        _ch7 = 0\n"
                                        "        D_a = 'roll'\n    elif rnd() < 0.1:")
    twice = twice.split("\n")
    out = _same_results(twice)
    assert any(ln.strip() == "if _ch7 == 0:" for ln in out)  # its long body stays one


def test_a_branch_that_leaves_takes_no_steps_after_the_chain():
    lines = ["x = 0", "if rnd() < 0.3:", "    return -1", "elif rnd() < 0.5:",
             "    _ch1 = 0", "else:", "    _ch1 = 1", "if _ch1 == 0:", "    x += 1",
             "    x += 2", "    x += 3", "    x += 4", "elif _ch1 == 1:", "    x = 10",
             "return x"]
    out = _same_results(lines)
    assert not any("_ch1 ==" in ln for ln in out)


def test_a_count_before_an_if_that_does_not_always_leave_stays():
    lines = ["steps = 0", "steps += 1", "if rnd() < 0.5:", "    if rnd() < 0.5:",
             "        return steps", "    steps += 1", "return steps"]
    assert _same_results(lines) == lines


def test_a_count_before_an_if_that_may_leave_moves_past_it_and_to_each_way_out():
    # Events of a stretch of time: the body may end the dive (a flag set in its own loop,
    # whose `break` leaves only that loop) or the game (`return`), or flow on to the roll.
    lines = ["steps = n = 0", "while True:", "    n += 1", "    steps += 1",
             "    if rnd() < 0.7:", "        hit = False", "        for _ in range(3):",
             "            if rnd() < 0.2:", "                hit = True", "                break",
             "        if hit:", "            break", "        if rnd() < 0.01:",
             "            return n", "    steps += 2", "    if n > 20:", "        break",
             "return (n, steps)"]
    out = _same_results(lines)
    assert [ln.strip() for ln in out if "steps" in ln] == [
        "steps = n = 0", "steps += 1", "steps += 1", "steps += 3", "steps += 3",
        "return (n, steps)"]  # the pass's last `if` takes its merged count in (and after)
    assert out[out.index("            break") - 1] == "            steps += 1"  # `if hit:`
    assert out[out.index("                break") - 1] == "                hit = True"


def test_a_decisions_value_that_no_test_reads_once_threaded_is_not_stored():
    # The Pig turn again, its pick not returned: once the test of the pick is threaded into
    # the branches that made it, nothing reads `D_x`, and only a store alone in its block
    # (an `else:` must keep a statement) is left.
    lines = TURN[:-1] + ["return steps, total, ch"]
    lines = [ln.replace("_ch5 = 1", "ch = 1").replace("_ch5 = 0", "ch = 0") for ln in lines]
    lines.insert(0, "ch = 0")
    out = _same_results(lines)
    assert [ln.strip() for ln in out if "D_x" in ln] == []


def test_a_legality_flag_or_an_answer_that_nobody_reads_is_not_stored():
    # An option's legality flag (`_lq`) and a decision's answer read from its options by the
    # pick (`D_act = _VA5[_ch4]`) cannot raise nor count work: unread, they are not stored.
    # A flag that is read stays, and so does one alone in its block.
    lines = ["_VA5 = ('a', 'b')", "left = 2", "_ok1 = rnd() < 0.5",
             "_lq2 = _ok1 and 2 <= left", "_lq3 = _ok1 or 1 <= left",
             "if _lq3:", "    _lq6 = 3 <= left", "    _ch4 = 0", "else:", "    _lq7 = 1 <= left",
             "    _ch4 = 1", "D_act = _VA5[_ch4]", "return _ch4, _ok1"]
    out = _same_results(lines)
    assert [ln.strip() for ln in out if "_lq" in ln or "D_act" in ln] == [
        "_lq3 = _ok1 or 1 <= left", "if _lq3:"]
    alone = ["x = 0", "if rnd() < 0.5:", "    _lq1 = 1 <= x", "return x"]
    assert _same_results(alone) == alone


def test_a_state_variable_that_nobody_reads_is_not_written():
    # `V_rolls` is only ever written: its writes go (one alone in its block is `pass`).
    # `V_total` is read, so kept; a write of a call (`V_last = rnd()`) draws a number and is
    # kept; a variable added to by more than a name (`V_sum += (f + 1)`) keeps the write it
    # adds to.
    lines = ["V_rolls = 0", "V_total = 0", "V_last = 0", "V_sum = 0", "for _ in range(3):",
             "    V_rolls += 1", "    f = int(rnd() * 6)", "    V_total += f",
             "    V_last = rnd()", "    V_sum += (f + 1)", "    if f == 5:",
             "        V_rolls = 0", "return V_total"]
    out = _same_results(lines)
    assert [ln.strip() for ln in out if "V_" in ln] == [
        "V_total = 0", "V_sum = 0", "V_total += f", "V_last = rnd()", "V_sum += (f + 1)",
        "return V_total"]
    assert "        pass" in out


def test_an_addition_to_a_variable_that_may_not_hold_a_number_is_made():
    # Nobody reads `V_f`, but it is set from an expression that may give none (a die not
    # rolled, the first of an empty list): the interpreter's `add` stops the game there, so
    # the addition stays, as does every write of it. `V_n`, only ever numbers written out,
    # still goes.
    lines = ["V_f = 0", "V_n = 0", "for _ in range(3):", "    V_n += 1",
             "    V_f = (None if rnd() < 0.2 else 1.5)", "    V_f += 1", "return 0"]
    out = tidy(lines)
    assert [ln.strip() for ln in out if "V_" in ln] == [
        "V_f = 0", "V_f = (None if rnd() < 0.2 else 1.5)", "V_f += 1"]
    for seed in range(50):
        try:
            want = _run(lines, seed)
        except TypeError:
            with pytest.raises(TypeError):
                _run(out, seed)
        else:
            assert _run(out, seed) == want
