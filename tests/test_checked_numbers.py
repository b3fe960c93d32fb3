"""Whole numbers past the fast generated code's range (±2**40): the same generator's checked
version, which tests every +, - and * against the language's limit as the interpreter does,
plays those games (interpreter/compile/numbers.py), to the interpreter's results, never the
interpreter itself."""

from __future__ import annotations

import pytest

from interpreter.compile.base import SAFE_INT
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.conftest import ROOT, RULESETS
from tests.test_specialize import _interpreted, _outcome

PIG = ROOT / "rulesets" / "pig.yaml"


def _pig(tmp_path, old: str, new: str):
    text = PIG.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path = tmp_path / "pig.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return load(str(path)).program


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_the_checked_version_plays_every_shipped_ruleset_as_the_interpreter(path):
    program = load(str(path)).program
    special = specialize(program, wide=True)
    assert special is not None and special.wide
    assert "_plus(" in special.source or "_added(" in special.source  # sums tested
    for seed in range(25):
        assert _outcome(special.play(seed)) == _interpreted(program, None, None, seed), seed


def test_games_past_the_fast_range_are_played_by_the_checked_version_as_the_interpreter(
        tmp_path):
    program = _pig(tmp_path, "- add: {current.score: turn_total}",
                   "- add: {current.score: turn_total * 1099511627776}")
    special = specialize(program)
    assert not special.wide
    for seed in range(20):
        played = special.play(seed)
        assert max(played.result.to_json()["seats"],
                                          key=lambda s: s["score"])["score"] > SAFE_INT
        assert _outcome(played) == _interpreted(program, None, None, seed), seed
    assert special.checked == 20


@pytest.mark.parametrize("amount", [
    "turn_total * 1537228672809129301",  # a sum past 2**63 - 1 after a few holds
    "turn_total * 3074457345618258602",  # a product past it on a big enough turn
    "4611686018427387904 + 4611686018427387904",  # known now, past it: stops when worked out
])
def test_a_number_past_the_languages_limit_stops_the_checked_version_where_it_stops_the_interpreter(
        tmp_path, amount):
    program = _pig(tmp_path, "- add: {current.score: turn_total}",
                   f'- add: {{current.score: "{amount}"}}')
    special = specialize(program)
    assert special is not None
    stopped = 0
    for seed in range(12):
        want = _interpreted(program, None, None, seed)
        assert _outcome(special.play(seed)) == want, seed
        stopped += want[0]["reason"].startswith("stopped: ")
    # Each stop located by the checked version itself (the interpreter replayed each before).
    assert stopped > 0


def test_a_ruleset_whose_own_numbers_pass_the_fast_range_is_written_checked_from_the_start(
        tmp_path):
    program = _pig(tmp_path, "default: 100", "default: 2000000000000")
    refused: list = []
    special = specialize(program, refused=refused)
    assert special is not None and special.wide, refused
    # A goal nobody reaches: the game stops on its turn budget, in both.
    program.limits = {**program.limits, "max_turns": 40}
    special = specialize(program)
    for seed in range(5):
        assert _outcome(special.play(seed)) == _interpreted(program, None, None, seed), seed


@pytest.mark.parametrize("total,stops", [
    ("sum(xs)", False),  # past 2**40: the checked version plays on
    ("sum(xs) * 4000000 + sum(xs) * 1000000", True),  # past 2**63 - 1: the game stops
])
def test_a_sum_past_the_fast_range_is_followed_by_the_checked_version(tmp_path, total, stops):
    # Each item within ±2**40, their sum not: the checked version's `sum` (and `*`, and
    # `add`) as the interpreter's.
    text = PIG.read_text(encoding="utf-8")
    text = text.replace("- add: {current.score: turn_total}",
                        f'- add: {{current.score: "{total} + turn_total"}}', 1)
    text = text.replace("state:\n", "state:\n  global:\n    xs: {type: list, initial: "
                        "\"[1000000000000, 1000000000000]\"}\n", 1)
    path = tmp_path / "pig.yaml"
    path.write_text(text, encoding="utf-8")
    program = load(str(path)).program
    special = specialize(program)
    for seed in range(4):
        want = _interpreted(program, None, None, seed)
        assert _outcome(special.play(seed)) == want, seed
        assert want[0]["reason"].startswith("stopped: ") == stops
    assert special.checked == 4  # a stop located there too



def test_a_set_past_the_fast_range_is_followed_by_the_checked_version(tmp_path):
    # A `set` of a whole number the generator cannot bound (a sum of state) is tested where it
    # is stored, nowhere else: past ±2**40 (the second roll of a game) the checked version
    # plays the game, to the interpreter's results.
    text = PIG.read_text(encoding="utf-8")
    text = text.replace("            - roll: die\n", "            - roll: die\n"
                        '            - set: {far: "far + 1000000000000"}\n', 1)
    text = text.replace("state:\n", "state:\n  global:\n    far: {type: int, initial: 0}\n", 1)
    path = tmp_path / "pig.yaml"
    path.write_text(text, encoding="utf-8")
    program = load(str(path)).program
    special = specialize(program)
    assert not special.wide
    for seed in range(6):
        assert _outcome(special.play(seed)) == _interpreted(program, None, None, seed), seed
    assert special.checked == 6


def test_the_fast_versions_product_is_tested_in_line_not_by_a_call(tmp_path):
    # A product whose sides have no known bound: the fast version tests it where it is made
    # (a call of `_times` costs several times as much), the checked version by `_times`.
    program = _pig(tmp_path, "- add: {current.score: turn_total}",
                   "- add: {current.score: turn_total * 1099511627776}")
    fast = specialize(program)
    assert "_times(" not in fast.source and "turn_total * 1099511627776" in fast.source
    assert "_times(" in specialize(program, wide=True).source


def test_a_product_with_a_die_not_rolled_stops_where_the_interpreter_stops(tmp_path):
    # `spare` is never rolled: its face is none, which `*` refuses. The fast version meets
    # Python's own error and plays the seed again in the checked version, which locates it.
    text = PIG.read_text(encoding="utf-8").replace(
        "    die: {sides: 6, doc: The one die both players roll.}",
        "    die: {sides: 6, doc: The one die both players roll.}\n    spare: {sides: 6}").replace(
        "- add: {current.score: turn_total}",
        '- add: {current.score: "turn_total * spare.face"}')
    path = tmp_path / "pig.yaml"
    path.write_text(text, encoding="utf-8")
    program = load(str(path)).program
    fast = specialize(program)
    assert "_times(" not in fast.source
    for seed in range(5):
        want = _interpreted(program, None, None, seed)
        assert want[0]["reason"].startswith("stopped: ")
        assert _outcome(fast.play(seed)) == want, seed


@pytest.mark.parametrize("by", ["player.score * player.score", "[3, 1, 2][player.seat - 1]"])
def test_turns_ordered_by_a_key_that_names_a_value_in_its_code_are_generated(tmp_path, by):
    # A product tested in line, or an index tested for being negative, names its value
    # (`:=`), which Python refuses in a comprehension's list: the keys are worked out first.
    program = _pig(tmp_path, "turns: {order: clockwise}", f'turns: {{order: by, by: "{by}"}}')
    refused: list = []
    fast = specialize(program, refused=refused)
    assert fast is not None, refused
    for seed in range(10):
        assert _outcome(fast.play(seed)) == _interpreted(program, None, None, seed), seed
