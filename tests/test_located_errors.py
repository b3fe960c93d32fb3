"""Rule errors met inside an expression, stopped by the generated code where the interpreter
stops: each expression of a shipped ruleset, in turn, made to divide by zero in the third
turn (`0 // (turn - 3) + (E)` for a number, `0 // (turn - 3) == 0 and (E)` for a
condition). Every such variant's games are the interpreter's: result, counts, work, and the
error's code, message, data path and offsets in the expression. Where the code generator
knows the expression's place (interpreter/compile/stops.py `value_at`, `cond_at`), the
checked version plays the game again and stops it there itself: no game goes back to the
interpreter. Those of these three rulesets are all located so."""

from __future__ import annotations

import copy
import json

import pytest

from dsl.builtins import PAST_LIMIT
from dsl.loader import load_file
from dsl.parser import ExprSyntaxError, parse_expression
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import SetupError, load, new_game
from tests.conftest import ROOT
from tests.test_specialize import _interpreted, _outcome

SEEDS = range(4)


def _texts(data, path=()):
    """Each text in the ruleset's data with its data path."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _texts(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _texts(v, (*path, i))
    elif isinstance(data, str):
        yield path, data


def _put(data, path, value):
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


def _error(error):
    return None if error is None else (error.code, error.message, error.path, error.pos)


def _stop_of(special, program, seed, where=None):
    """The game on `seed` by the generated code is the interpreter's: result, counts, work and
    error (code, message, data path, offsets). Returns that error, None if the game ended."""
    played = special.play(seed)
    assert _outcome(played) == _interpreted(program, None, None, seed), (where, seed)
    game = new_game(program, None, {}, seed=seed)
    game.logging = game.narrating = False
    want = _error(game.run().error)
    assert _error(played.result.error) == want, (where, seed)
    return want


def _variants(name: str, tmp_path):
    """(data path, program) of each variant of the ruleset that loads: one expression made to
    fail in the third turn."""
    data = load_file(ROOT / "rulesets" / f"{name}.yaml")[0].data
    for path, text in _texts(data):
        try:
            parse_expression(text)
        except ExprSyntaxError:
            continue
        for form in (f"0 // (turn - 3) + ({text})", f"0 // (turn - 3) == 0 and ({text})"):
            changed = copy.deepcopy(data)
            _put(changed, path, form)
            file = tmp_path / "variant.json"
            file.write_text(json.dumps(changed), encoding="utf-8")
            try:
                program = load(str(file)).program
            except SetupError:
                continue  # not an expression there, or not of that kind
            yield path, program
            break


@pytest.mark.parametrize("name", ["pig", "liars_dice", "wreckdivers"])
def test_a_division_by_zero_in_any_expression_stops_the_game_where_the_interpreter_does(
        tmp_path, name):
    stopped, replayed = [], []
    for path, program in _variants(name, tmp_path):
        special = specialize(program)
        if special is None:
            continue  # a variant the generator refuses (said by validate), not played
        if any([_stop_of(special, program, seed, path) for seed in SEEDS]):
            stopped.append(path)
            if special.fallbacks:
                replayed.append(path)
    assert len(stopped) >= 4  # the variants reach the third turn, and stop there
    assert replayed == []


def _stops_in_pig(tmp_path, banked: str, said: str, turns: str = "{order: clockwise}") -> None:
    """Pig whose banked score is `banked` and whose phase's `turns` are `turns` (the map
    `seen` holds each turn's key, set when the turn begins) plays as the interpreter plays it,
    its games stopped by the generated code itself (none goes back to the interpreter), some
    with the error `said`."""
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    for old, new in (
            ("state:\n", "state:\n  global:\n    seen: {type: map, initial: {}}\n"),
            ("      do:\n        - repeat:\n",
             '      do:\n        - set: {"seen[text(turn)]": 1}\n        - repeat:\n'),
            ("add: {current.score: turn_total}", f'add: {{current.score: "{banked}"}}'),
            ("turns: {order: clockwise}", f"turns: {turns}")):
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / "pig.yaml"
    path.write_text(text, encoding="utf-8")
    program = load(str(path)).program
    special = specialize(program)
    stops = [_stop_of(special, program, seed) for seed in SEEDS]
    assert any(stop is not None and stop[1] == said for stop in stops)
    assert special.fallbacks == 0


@pytest.mark.parametrize("banked,said", [
    ("turn_total + [0, 0, 0][round - 1]", "index 3 is out of range for a list of 3 items"),
    ("turn_total + [0, 0, 0][3 - round]", "index -1 is out of range for a list of 3 items"),
    ("turn_total + seen[text(if round > 3 then 99 else turn)]", "the map has no key '99'"),
])
def test_a_list_or_map_read_where_it_has_nothing_stops_the_game_where_the_interpreter_does(
        tmp_path, banked, said):
    # A list read past its ends, a map at a key it does not have: the checked version stops
    # the game there itself.
    _stops_in_pig(tmp_path, banked, said)


@pytest.mark.parametrize("banked", [
    "turn_total * (if round > 3 then 4611686018427387904 else 1)",
    "turn_total + (if round > 3 then 9223372036854775807 else 0)",
    "turn_total - (if round > 3 then 9223372036854775807 else 0) - 2",
])
def test_a_number_past_the_languages_limit_stops_the_game_where_the_interpreter_does(
        tmp_path, banked):
    # The checked version (here from the start: the ruleset's own numbers lie past ±2**40)
    # tests each `*`, `+` and `-` and stops the game at the operator that went past.
    _stops_in_pig(tmp_path, banked, PAST_LIMIT)


def test_a_division_by_zero_in_whom_a_phase_skips_stops_the_game_where_the_interpreter_does(
        tmp_path):
    _stops_in_pig(tmp_path, "turn_total", "division by zero",
                  '{order: clockwise, skip: "player.score // (turn - 5) < 0"}')


@pytest.mark.parametrize("name,limit", [("liars_dice", 1000), ("dice_bag_dungeon", 400),
                                        ("shipwrecked", 100)])
def test_a_budget_the_items_of_an_expression_pass_stops_the_game_where_the_interpreter_does(
        name, limit):
    # A small `max_steps`: games stop where a comprehension or a built-in counts the items
    # that pass it (a policy's rule, a `let` step's value, a `set`...), located there by the
    # checked version; none goes back to the interpreter.
    program = load(str(ROOT / "rulesets" / f"{name}.yaml")).program
    program.limits = {**program.limits, "max_steps": limit}
    special = specialize(program)
    stops = [_stop_of(special, program, seed) for seed in range(6)]
    assert any(stop is not None and "counting the items" in stop[1] for stop in stops)
    assert special.fallbacks == 0
