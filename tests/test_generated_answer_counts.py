"""A decision's answers counted where each is picked (interpreter/compile/decisions.py
`_count_where_picked`, policies.py): where a policy's rules form one chain from the first,
each answering whenever its test holds, and the last always answers, every way through them
answers, so the answer is not set to "none yet" first and each pick counts its own answer (a
local `chK += 1`), for a `choose` and for an `actions` step alike. Where a rule may give no
answer (a pick by an expression that may name no legal option), the rules keep their test of
the answer and the count reads it. Either way the counts of every answer are the
interpreter's."""

from __future__ import annotations

import re

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.test_specialize import _same

GAME = """\
meeple: 1
metadata: {name: Errands}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    d: {sides: 6}
state:
  player:
    coins: {type: int, initial: 2}
    rests: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 8"}
      do:
        - roll: d
        - actions: errand
          points: 2
          options:
            work:
              cost: 1
              do:
                - add: {current.coins: d.face}
            rest:
              cost: 1
              limit: {per: turn, times: 1}
              do:
                - add: {current.rests: 1}
            shop:
              cost: 2
              if: "current.coins >= 6"
              do:
                - add: {current.coins: -6}
        - choose: tip
          options: [none, small, large]
      next: end
scoring: {score: player.coins, order: highest}
policies:
  busy:
    default: true
    decide:
      errand:
        - when: "'shop' in options"
          choose: shop
        - when: "'rest' in options and d.face <= 2"
          choose: rest
        - when: "'work' in options"
          choose: work
        - choose: pass
      tip:
        - when: "me.coins >= 10"
          choose: large
        - when: "me.coins >= 4"
          choose: small
        - choose: none
"""

# The first rule names its answer by an expression: when that names no legal option it gives
# none, and the next rule is tried.
NAMED = """\
      tip:
        - choose: "if me.coins >= 10 then 'large' else 'nothing'"
        - when: "me.coins >= 4"
          choose: small
        - choose: none
"""


def _write(tmp_path, text: str):
    path = tmp_path / "errands.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_answers_of_a_chain_that_always_answers_are_counted_where_picked(tmp_path):
    path = _write(tmp_path, GAME)
    source = specialize(load(path).program).source
    assert not re.search(r"_ch\d+ = -1$", source, re.M)  # never read unset: not set first
    assert not re.search(r"CH\[(\d+ \+ )?_ch\d+\] \+= 1", source)  # no count by the index
    # One per pick: shop, rest, work (always legal: the unruled pass after it is not
    # written); large, small, none.
    assert len(re.findall(r"^\s+ch\d+ \+= 1$", source, re.M)) == 6
    _same(path, range(60))  # the same games and counts of every answer


@pytest.mark.parametrize("seats", [None, {2: "random"}])
def test_a_rule_that_may_give_no_answer_keeps_the_test_and_the_count_by_index(tmp_path, seats):
    text = GAME[:GAME.index("      tip:\n")] + NAMED
    path = _write(tmp_path, text)
    source = specialize(load(path).program).source
    assert re.search(r"_ch\d+ = -1$", source, re.M)
    assert re.search(r"CH\[\d+ \+ _ch\d+\] \+= 1", source)
    _same(path, range(60), seats=seats)
