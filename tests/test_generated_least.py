"""The least value of a whole number, where the generated code knows it (`Ex.least`: the
options of `range(a, b)` are at least `a`, and `option - 1` one less): a list read at
`option - 1` for options from 1 needs no test for a negative index (kinds.py), which the
interpreter refuses and Python would count from the end. Where the least is not known, or
is below 0, the test stays, and the game stops where the interpreter's does."""

from __future__ import annotations

from interpreter.compile.base import Ex
from interpreter.compile.offsets import least_of
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of
from tests.test_generated_repeats import GAME

NEGATIVE_TEST = ">= 0 else None"


def _game(first: int) -> str:
    return GAME.replace("range(1, HEAPS)", f"range({first}, 5)")


def test_an_index_option_less_1_of_options_from_1_is_not_tested_for_being_negative():
    source = specialize(program_of(_game(1), "heaps.yaml")).source
    assert "- 1)]" in source and NEGATIVE_TEST not in source
    results = plays_as_the_interpreter(program_of(_game(1), "heaps.yaml"), range(20))
    assert all(r.error is None for r, _ in results)


def test_options_from_0_keep_the_test_and_stop_where_the_interpreter_does():
    # Option 0 reads the stock at -1: the interpreter's error, not the last heap's stock.
    source = specialize(program_of(_game(0), "heaps.yaml")).source
    assert NEGATIVE_TEST in source
    results = plays_as_the_interpreter(program_of(_game(0), "heaps.yaml"), range(10))
    assert {r.error.path[-1] for r, _ in results} == {"best"}


def _int(least=None, const=None) -> Ex:
    return Ex("x" if const is None else repr(const), "int", True,
              **({"const": const} if const is not None else {}), least=least)


def test_least_of_a_sum_or_difference():
    assert least_of("-", _int(least=1), _int(const=1)) == 0
    assert least_of("+", _int(least=1), _int(least=2)) == 3
    assert least_of("+", _int(const=-4), _int(least=2)) == -2
    # A difference needs the most of what is taken away: known only of a value known now.
    assert least_of("-", _int(least=1), _int(least=0)) is None
    assert least_of("+", _int(least=1), _int()) is None
