"""Remembered values in the generated code (interpreter/compile/memo.py): a comprehension that
reads only its list, plain values and tables that never change is worked out once per input
and looked up after, and every game stays the interpreter's: values, step counts, and the
games a tight step budget stops. One that reads the game's state is written as before."""

from __future__ import annotations

import re

import pytest

from interpreter.compile import memo
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.conftest import ROOT
from tests.test_specialize import _interpreted, _outcome, _same

MEMO = """\
meeple: 1
metadata: {name: Remembered}
players: {min: 2, max: 3, default: 3}
components:
  dice:
    d: {sides: 6}
state:
  global:
    marks: {type: list, initial: "MARKS"}
    seen: {type: int, initial: 0}
  player:
    pos: {type: int, initial: 0}
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "seen > 60", max: 200}
      do:
        - roll: d
        - set: {current.pos: "d.face"}
CHANGES
        - add: {current.score: "READ"}
        - add: {seen: 1}
end: {when: "seen > 60"}
scoring: {score: "current.score", order: highest}
"""

# Steps that change the list now and then: looked-up values must follow it.
CHANGES = """\
        - if: "d.face == 6"
          then:
            - set: {marks: "marks + [current.pos + seen % 5]"}
        - if: "d.face == 1 and count(marks) > 0"
          then:
            - set: {marks: "[m for m in marks if m != first(marks)]"}"""

# Comprehensions over `marks` that read the player's position (a key) and nothing else.
REMEMBERED = {
    "a count of distinct answers": "count(unique([(if current.pos > m then 'up' else 'down')"
                                   " for m in marks]))",
    "a sum of a conditional": "sum([(if m > current.pos then m - current.pos else 0)"
                              " for m in marks])",
    "a test of each item": "count([m for m in marks if abs(m - current.pos) <= 1])",
    # Worked out only in a branch no item takes: it would fail, so it is no key read
    # before the items (its parts are).
    "a branch that would fail, never taken": "sum([(if m > 1000 then 1 // (current.pos - "
                                             "current.pos) else m) for m in marks])",
    # Read at the first item whatever happens, so a key though a division may fail.
    "a value read at every item": "count([m for m in marks if max(m, 0) > current.pos // "
                                  "(seen + 1)])",
}


def _program(tmp_path, read: str, marks: str = "[1, 2, 3]", changes: str = CHANGES):
    path = tmp_path / "memo.yaml"
    path.write_text(MEMO.replace("READ", read).replace("MARKS", marks)
                    .replace("CHANGES\n", changes + "\n" if changes else ""), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", list(REMEMBERED))
def test_a_value_read_from_plain_inputs_is_remembered_and_games_are_the_interpreters(
        case, tmp_path):
    path = _program(tmp_path, REMEMBERED[case])
    special = specialize(load(str(path)).program)
    assert special is not None and "_remember(" in special.source
    _same(str(path), range(80))  # the same games, lists empty and not, before and after


# A long list that never changes, read each turn from one of six positions: after the first
# few turns every read is a look-up, and the work the reads count is most of the game's.
LONG = ("count(unique([(if current.pos * 10 > m then 'up' else 'down') for m in marks]))",
        "range(1, 61)", "")


def test_a_key_that_fails_fails_where_the_first_item_would(tmp_path):
    # The division fails when `seen` is 20: read as a key before the items, it fails exactly
    # when the comprehension would at its first item (never for an empty list); the checked
    # version, which plays such a seed again, reads it at each item, where it stops the game
    # with the interpreter's located error and counts (none goes back to the interpreter).
    path = _program(tmp_path, "count([m for m in marks if max(m, 0) > current.pos // "
                              "(seen - 20)])")
    special = specialize(load(str(path)).program)
    assert special is not None and "_remember(" in special.source
    assert _same(str(path), range(40)) > 0


# A first item read whatever happens, but a built-in over a long list counts work at every
# item: not read once (tests/test_bounded_work.py stops such a game on its budget).
def test_work_counted_at_every_item_is_no_key(tmp_path):
    base = specialize(load(str(_program(tmp_path, "0"))).program).source.count("_remember(")
    path = _program(tmp_path, "sum([count(range(0, current.pos * 30)) + m for m in marks])")
    assert specialize(load(str(path)).program).source.count("_remember(") == base


@pytest.mark.parametrize("limit", [2000, 3000, 5000])
def test_remembered_work_counts_again_so_a_budget_stops_the_games_it_would(tmp_path, limit):
    # The work the first evaluation counted is counted again at each look-up: without it,
    # a game the interpreter stops past its step budget would play on in the generated code.
    path = _program(tmp_path, *LONG)
    program = load(str(path)).program
    program.limits = {**program.limits, "max_steps": limit}
    special = specialize(program)
    assert special is not None and "_remember(" in special.source
    stopped = 0
    for seed in range(12):
        played = special.play(seed)
        assert _outcome(played) == \
            _interpreted(program, None, None, seed), seed
        stopped += played.result.error is not None
    assert 0 < stopped if limit < 5000 else stopped == 0


def test_a_look_up_counts_its_remembered_work_with_one_addition(tmp_path):
    # A hit adds the remembered work to the meter once and tests the sum against the budget;
    # only where that would pass it is the work taken back (the test above: the games stop
    # where the interpreter's do), not a test of the sum and then an addition to store it.
    source = specialize(load(str(_program(tmp_path, *LONG))).program).source
    hits = re.findall(r"\(wk := wk \+ (_mv\d+)\[1\]\) \+ steps <= \d+ or "
                      r"\(wk := wk - (_mv\d+)\[1\]\) is _U", source)
    assert hits and all(a == b for a, b in hits)
    assert not re.search(r"wk \+ _mv\d+\[1\] \+ steps", source)


def test_a_value_that_reads_the_games_state_is_not_remembered(tmp_path):
    # The players' scores change during the game: not an input of a key, so not remembered.
    others = specialize(load(str(_program(tmp_path, "0"))).program).source.count("_remember(")
    path = _program(tmp_path, "count([p for p in opponents(current) if (if p.score > "
                              "current.pos then true else false)])")
    special = specialize(load(str(path)).program)
    assert special is not None and special.source.count("_remember(") == others
    _same(str(path), range(20))


def test_dark_water_salvage_remembers_its_sonar_answers():
    # What the policies weigh each option by: the distinct sonar answers over a wreck's
    # candidate cells, from a cell. Its games equal the interpreter's elsewhere
    # (test_specialize_dark_water_salvage.py, test_specialize_logs.py).
    special = specialize(load(str(ROOT / "rulesets" / "dark_water_salvage.yaml")).program)
    assert special is not None and special.source.count("_remember(") >= 5


def test_a_site_remembers_a_bounded_number_of_values():
    kept: dict = {}
    for i in range(memo.MEMO_CAP + 10):
        assert memo.remember(kept, (i,), 5, i * 2, 8) == i * 2
    assert len(kept) <= memo.MEMO_CAP
    assert kept[(memo.MEMO_CAP + 9,)] == ((memo.MEMO_CAP + 9) * 2, 3)
