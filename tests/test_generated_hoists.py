"""A value inside a comprehension that does not read its item and counts work
(interpreter/compile/hoists.py, exprs.py `_hoisted`): `max(q.rolled for q in players)` in
`[p for p in players if p.rolled == max(...)]` is worked out once, before the items, and its
work is still counted at each item, where the interpreter counts it; the games, and the
games that pass their step budget inside it, stay the interpreter's."""

from __future__ import annotations

import re

from interpreter.compile.hoists import split_count
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of
from tests.test_specialize import _interpreted, _outcome

COUNT = "((wk := len(_it8 := V_xs) + wk) + steps <= 100 or _over())"
LISTED = f"[P_t[_c7] for _ in (0,) if {COUNT} for _c7 in _it8]"

GAME = """\
meeple: 1
metadata: {name: Roll-off}
players: {min: 2, max: 8, default: 6}
components:
  dice:
    d: {sides: 6}
state:
  player:
    rolled: {type: int, initial: 0}
    wins: {type: int, initial: 0}
  global:
    pool: {type: list, initial: []}
    best: {type: list, initial: []}
    low: {type: list, initial: []}
flow:
  phases:
    play:
      repeat: {until: "round >= 6"}
      do:
        - set: {pool: players}
        - for_each: p
          in: pool
          do:
            - roll: d
              by: p
            - set: {p.rolled: d.face}
        - set:
            best: "[p for p in pool if p.rolled == max(q.rolled for q in pool)]"
            low: "[p for p in pool if p.rolled > min(q.rolled for q in pool) + count(best)]"
        - for_each: p
          in: best
          do:
            - add: {p.wins: 1}
      next: end
scoring: {score: player.wins, order: highest}
"""


def test_a_counted_value_is_split_into_the_value_without_its_count_and_the_count_alone():
    once, alone = split_count(f"(max(_t9) if (_t9 := {LISTED}) else 0)")
    assert once == ("max(_t9) if (_t9 := [P_t[_c7] for _ in (0,) if ((_it8 := V_xs),) "
                    "for _c7 in _it8]) else 0")
    assert alone == "(wk := (len(_it8) + wk)) + steps <= 100 or _over()"
    # A value whose list was split before reads it; its count reads the list bound then.
    once, alone = split_count(f"(max(_t9) if (_t9 := (_h3 if {alone} else None)) else 0)")
    assert once == "max(_t9) if (_t9 := _h3) else 0"
    assert alone == "(wk := (len(_it8) + wk)) + steps <= 100 or _over()"


def test_a_value_is_not_split_where_its_count_may_not_run_or_is_not_its_only_one():
    assert split_count(f"(0 if F_x else {LISTED})") is None  # only one branch counts
    assert split_count(f"(F_x and {LISTED})") is None
    assert split_count(f"({LISTED} + {LISTED.replace('_it8', '_it9')})") is None  # two
    # A remembered value (`_L`) or a flag binds a name whose place matters.
    assert split_count(f"(_L2 if _L2 is not _U else (_L2 := {LISTED}))") is None
    assert split_count("P_t[0] + 1") is None  # counts nothing


def test_a_value_that_does_not_read_the_item_is_worked_out_before_the_items():
    source = specialize(program_of(GAME, "roll-off.yaml")).source
    assert re.search(r"^\s+_h\d+ = \(max\(", source, re.M)
    assert re.search(r"^\s+_h\d+ = \(min\(", source, re.M)
    # Each item counts the work of the list the value was worked out of.
    assert len(re.findall(r"\(_h\d+ if \(wk := \(len\(_it\d+\) \+ wk\)\)", source)) == 2


def test_games_with_a_value_worked_out_before_the_items_play_as_the_interpreter():
    program = program_of(GAME, "roll-off.yaml")
    plays_as_the_interpreter(program, range(30))
    special = specialize(program)
    for seed in range(30):  # the work each game counted too: the items each count the list
        assert _outcome(special.play(seed)) == _interpreted(program, None, None, seed), seed


def test_a_game_past_its_budget_inside_such_a_comprehension_stops_as_the_interpreters():
    program = program_of(GAME, "roll-off.yaml")
    stopped = 0
    for limit in range(60, 400, 7):
        program.limits = {**program.limits, "max_steps": limit}
        stopped += sum(result.error is not None
                       for result, _ in plays_as_the_interpreter(program, range(2)))
    assert stopped >= 40
