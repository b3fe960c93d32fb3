"""The branches on a decision's answer that no pick can give (interpreter/compile/
decisions.py `_heads`): where every pick of a decision is an option known when generating (a
policy's chain of rules, the one legal option), an option none of them picks gets no branch,
an `actions` step's `pass` no test unless picked, and the last branch that a pick reaches is
`else:`. Where a seat is asked at run time (a random seat), every branch is written. The games,
and their counts of every answer, stay the interpreter's."""

from __future__ import annotations

import re

import pytest

from interpreter.compile.decisions import _heads
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.test_generated_answer_counts import GAME
from tests.test_specialize import _same

# Errands with a `nap` the policy never takes and a tip whose options each do something:
# the policy never tips large.
NAPS = GAME.replace("""            shop:
              cost: 2""", """            nap:
              cost: 1
              do:
                - add: {current.rests: 2}
            shop:
              cost: 2""").replace("""        - choose: tip
          options: [none, small, large]""", """        - choose: tip
          options:
            none: {do: [{add: {current.coins: 0}}]}
            small: {do: [{add: {current.coins: -1}}]}
            large: {do: [{add: {current.coins: -3}}]}""").replace("""        - when: "me.coins >= 10"
          choose: large
""", "")


def _write(tmp_path, text: str) -> str:
    path = tmp_path / "naps.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_heads_leave_out_answers_no_pick_gives_and_end_in_else():
    assert _heads("c", [0, 1, 2, 3], frozenset({0, 2, 3})) == [
        "if c == 0:", None, "elif c == 2:", "else:"]
    assert _heads("c", [0, 1, 2], None) == ["if c == 0:", "elif c == 1:", "elif c == 2:"]
    # An answer picked with no branch of its own (an option that does nothing) keeps the
    # last branch a test.
    assert _heads("c", [0, 2], frozenset({0, 1, 2})) == ["if c == 0:", "elif c == 2:"]
    assert _heads("c", [0, 1], frozenset({1})) == [None, "if c == 1:"]


def test_options_no_rule_picks_get_no_branch(tmp_path):
    path = _write(tmp_path, NAPS)
    source = specialize(load(path).program).source
    assert "P_rests[cur] += 2" not in source  # the nap is never taken
    assert "P_coins[cur] += -3" not in source and "P_coins[cur] -= 3" not in source
    # `pass` is never picked: the actions' loop has no test of it.
    assert not re.search(r"if _ch\d+ == 4:\n\s+(steps \+= 1\n\s+)?break", source)
    assert re.search(r"^\s+else:\n\s+_left\d+ -= 2\n", source, re.M)  # the shop
    _same(path, range(60))  # the same games and counts of every answer


@pytest.mark.parametrize("seats", [{2: "random"}, {1: "random", 3: "random"}])
def test_a_seat_asked_at_run_time_keeps_every_branch(tmp_path, seats):
    path = _write(tmp_path, NAPS)
    source = specialize(load(path).program, seats=seats).source
    assert "P_rests[cur] += 2" in source
    _same(path, range(60), seats=seats)
