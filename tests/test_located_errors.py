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
        errors = 0
        for seed in SEEDS:
            played = special.play(seed)
            assert _outcome(played) == _interpreted(program, None, None, seed), (path, seed)
            game = new_game(program, None, {}, seed=seed)
            game.logging = game.narrating = False
            want = _error(game.run().error)
            assert _error(played.result.error) == want, (path, seed)
            errors += want is not None
        if errors:
            stopped.append(path)
            if special.fallbacks:
                replayed.append(path)
    assert len(stopped) >= 4  # the variants reach the third turn, and stop there
    assert replayed == []
