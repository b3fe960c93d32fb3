"""A whole number stored only to be compared keeps no size test in the fast version
(interpreter/compile/compared.py): such a name never takes part in arithmetic, so a value past
the fast range (±2**40) held there cannot grow past the language's limit unseen; the fast
version plays on, to the interpreter's results, where it used to hand the game to the checked
version. A name that is added to, or a value that is not made of the game's stored values,
keeps its test."""

from __future__ import annotations

import pytest

from interpreter.compile.base import SAFE_INT
from interpreter.compile.compared import untested
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of
from tests.test_specialize import _interpreted, _outcome

S = SAFE_INT
TESTED = f"""\
def play(seed):
    _t1 = ((F_die + P_score[cur]) + 1)
    if not -{S} <= _t1 <= {S}:
        steps += 2
        raise _Fallback()
    V_mine = _t1
    if (V_mine > V_theirs):
        P_wins[cur] += 1
"""

GAME = f"""\
meeple: 1
metadata: {{name: Outbid}}
players: {{min: 2, max: 2}}
components:
  dice:
    d: {{sides: 6}}
state:
  player:
    score: {{type: int, initial: {S - 3}}}
    wins: {{type: int, initial: 0}}
  global:
    mine: {{type: int, initial: 0}}
    theirs: {{type: int, initial: 0}}
flow:
  phases:
    play:
      turns: {{order: clockwise}}
      repeat: {{until: "round >= 10"}}
      do:
        - roll: d
        - set: {{mine: "current.score + d.face"}}
        - roll: d
        - set: {{theirs: "d.face + {S - 4}"}}
        - if: "mine > theirs"
          then:
            - add: {{current.wins: 1}}
      next: end
scoring: {{score: player.wins, order: highest}}
"""


def test_a_value_stored_only_to_be_compared_keeps_no_size_test():
    out = untested(TESTED)
    assert "_Fallback" not in out and "steps += 2" not in out
    assert "_t1 = ((F_die + P_score[cur]) + 1)\n    V_mine = _t1\n" in out


@pytest.mark.parametrize("later", [
    "    P_wins[cur] += V_mine\n",  # added to another value
    "    V_mine += 1\n",  # added to itself
    "    V_other = V_mine\n",  # copied: the copy may be added to
    "    _t1 = _t1\n",  # the temporary read otherwise than stored
])
def test_a_name_read_otherwise_than_compared_keeps_its_test(later):
    assert "raise _Fallback()" in untested(TESTED + later)


def test_a_value_made_of_a_temporary_keeps_its_test():
    # A temporary may hold the sum of a long list: far past a few values within the range.
    assert "raise _Fallback()" in untested(TESTED.replace("P_score[cur]", "_lw3"))
    assert "raise _Fallback()" in untested(TESTED.replace("+ 1)", "* 2)"))


def test_games_whose_compared_values_pass_the_fast_range_play_fast_as_the_interpreter():
    program = program_of(GAME, "outbid.yaml")
    special = specialize(program)
    assert "_Fallback" not in special.source.split("scores =")[0]
    for seed in range(20):
        assert _outcome(special.play(seed)) == _interpreted(program, None, None, seed), seed
    assert special.checked == 0  # no game handed to the checked version
    plays_as_the_interpreter(program, range(10))


def test_a_compared_value_also_added_to_goes_to_the_checked_version_past_the_range():
    program = program_of(GAME.replace("- add: {current.wins: 1}",
                                      '- add: {current.wins: "1 + mine - mine"}'), "outbid.yaml")
    special = specialize(program)
    for seed in range(10):
        assert _outcome(special.play(seed)) == _interpreted(program, None, None, seed), seed
    assert special.checked == 10
