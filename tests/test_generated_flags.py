"""An option's legality flag read once, worked out where it is read (interpreter/compile/
flags.py): the flag cannot fail nor count work, so where what it reads cannot change before
its reading, and no loop holds the reading that does not hold the flag, its value takes the
reading's place; the games stay the interpreter's."""

from __future__ import annotations

import re

from interpreter.compile.flags import sunk
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of
from tests.test_generated_answer_counts import GAME

HEAD = """\
def play(seed):
    while _left1 > 0:
        _lq6 = (UC0[cur] if UP0[cur] == turn_n else 0) < 1
        _lq7 = _ok5 and 2 <= _left1
"""
RULES = """\
        if _lq7:
            _ch4 = 2
        elif (_lq6 and (F_d <= 1)):
            _ch4 = 1
        else:
            _ch4 = 0
"""


def test_a_flag_read_once_is_worked_out_where_it_is_read():
    out = sunk(HEAD + RULES)
    assert "_lq6" not in out and "_lq7" not in out
    assert "        if (_ok5 and 2 <= _left1):\n" in out
    assert "elif (((UC0[cur] if UP0[cur] == turn_n else 0) < 1) and (F_d <= 1)):" in out


def test_a_flag_stays_where_what_it_reads_may_change_before_its_reading():
    # A limit's count written, the points spent, a list handed to a call that may change
    # it: each flag reads what the line between changes.
    for between, kept in (("        UC0[cur] += 1\n", "_lq6"), ("        _left1 -= 1\n", "_lq7"),
                          ("        _note(UP0)\n", "_lq6"), ("        cur = 2\n", "_lq6")):
        assert f"{kept} = " in sunk(HEAD + between + RULES), between


def test_a_flag_that_reads_faces_through_the_getter_stays_where_a_roll_comes_between():
    # `_fg0` reads the items of `F` (zones.py): a face written between is a change.
    head = HEAD.replace("_ok5 and 2 <= _left1", "max(map(_fg0, ZP_hand[cur])) > 3")
    assert "_lq7" not in sunk(head + RULES)
    assert "_lq7 = " in sunk(head + "        F[2] = int(rnd() * 6) + 1\n" + RULES)


def test_a_flag_stays_where_its_reading_is_in_a_loop_or_read_twice_or_in_another_block():
    looped = HEAD + "        for _o in _ops:\n" + re.sub("(?m)^", "    ", RULES)
    assert "_lq7 = " in sunk(looped) and "_lq6 = " in sunk(looped)
    twice = HEAD + RULES + "        x = _lq7\n"
    assert "_lq7 = " in sunk(twice) and "_lq6 = " not in sunk(twice)
    after = HEAD + "    y = _lq7\n"  # past the end of the flag's block
    assert "_lq7 = " in sunk(after)


def test_games_whose_rules_read_the_flags_play_as_the_interpreter():
    program = program_of(GAME, "errands.yaml")
    source = specialize(program).source
    assert not re.search(r"_lq\d+ = ", source)  # both flags read by one rule each
    plays_as_the_interpreter(program, range(40))
