"""Generated code (interpreter/engine/codegen.py, codegen_steps.py) gives exactly the interpreter's
closures' results: the same log, event for event, on the same seeds for every shipped ruleset
and variant; and the same value (or the same located error) for random expressions."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl import nodes as n
from dsl.compiler import compile_expression
from interpreter.engine import codegen
from interpreter.engine import compile_expr as cx
from interpreter.engine.setup import load, new_game
from interpreter.engine.signals import RuleError
from interpreter.engine.values import Die, Player
from tests.conftest import ROOT, shipped_setups


def _play(name: str, variant: str | None, seed: int, generate: bool, seats: dict) -> str:
    with cx.generation(generate):
        program = load(str(ROOT / "rulesets" / f"{name}.yaml"), variant).program
    players = program.data["players"]["max"] if seats else None
    game = new_game(program, players, {k: v for k, v in seats.items()
                                       if k <= (players or 0)} or None, seed=seed)
    result = game.run()
    return json.dumps({"log": game.log, "result": result.to_json(),
                       "error": result.error and result.error.message}, default=str)


@pytest.mark.parametrize(("name", "variant"), shipped_setups())
def test_generated_code_plays_every_ruleset_as_the_closures_do(name, variant):
    for seed in range(4):
        for seats in ({}, {1: "random", 2: "random"}):
            fast = _play(name, variant, seed, True, seats)
            slow = _play(name, variant, seed, False, seats)
            assert fast == slow, f"{name} {variant} seed {seed} seats {seats}"


def test_generated_steps_are_really_in_use():
    program = load(str(ROOT / "rulesets" / "pig.yaml")).program
    source = program.phases["play"].do.source
    assert "g.chance.roll" in source and "g.decide(" in source


# -- expressions ------------------------------------------------------------------------------

_P = Player(1, "Ann", [])
_P.score = 7
_DIE = Die("d", "d", [1, 2, 3, 4, 5, 6], {})
_DIE.face = 4
ENV = {"a": 3, "b": 0, "x": 2.5, "t": True, "f": False, "s": "ab", "none": None,
       "xs": [1, 2, 3], "bs": [True, 1], "m": {"k": 1, "score": 2}, "p": _P, "die": _DIE,
       "ps": [_P], "empty": []}

_leaves = st.one_of(
    st.sampled_from(sorted(ENV)).map(lambda k: n.Name((0, 1), k)),
    st.sampled_from(["zz"]).map(lambda k: n.Name((0, 1), k)),  # unknown
    st.sampled_from([0, 1, 2, -1, 1.5, True, False, None, "ab", "b", 0.0, 1.0])
    .map(lambda v: n.Literal((0, 1), v)),
)


def _extend(children):
    return st.one_of(
        st.tuples(st.sampled_from(["+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">",
                                   ">=", "and", "or", "in", "not in"]), children, children)
        .map(lambda t: n.Binary((0, 1), t[0], t[1], t[2])),
        st.tuples(st.sampled_from(["not", "-"]), children)
        .map(lambda t: n.Unary((0, 1), t[0], t[1])),
        st.tuples(children, children, children)
        .map(lambda t: n.Conditional((0, 1), t[0], t[1], t[2])),
        st.lists(children, max_size=3).map(lambda xs: n.ListExpr((0, 1), tuple(xs))),
        st.tuples(children, children).map(lambda t: n.Index((0, 1), t[0], t[1])),
        st.tuples(children, st.sampled_from(["score", "face", "k", "name", "items", "nope"]))
        .map(lambda t: n.Field((0, 1), t[0], t[1])),
        st.tuples(children, children, st.one_of(st.none(), children))
        .map(lambda t: n.Comprehension((0, 1), t[0], "v", (0, 1), t[1], t[2])),
        st.tuples(children, st.one_of(st.none(), children))
        .map(lambda t: n.Comprehension((0, 1), n.Binary((0, 1), "+", n.Name((0, 1), "v"), t[0]),
                                       "v", (0, 1), n.Name((0, 1), "xs"), t[1])),
        st.tuples(st.sampled_from(["count", "sum", "max", "min", "abs", "any", "all", "len"]),
                  st.lists(children, min_size=1, max_size=2))
        .map(lambda t: n.Call((0, 1), t[0], tuple(t[1]), ())),
    )


EXPRESSIONS = st.recursive(_leaves, _extend, max_leaves=12)


def _outcome(f):
    try:
        v = f(dict(ENV))
    except RuleError as err:
        return ("error", err.message)
    return ("value", type(v).__name__, repr(v))


@settings(max_examples=600, deadline=None)
@given(EXPRESSIONS)
def test_a_generated_expression_gives_the_closures_value_or_error(node):
    try:
        slow = cx.located(compile_expression(node), ("x",))
    except Exception:  # an unknown function: the checker refuses it before compiling
        return
    fast = codegen.generate(node, slow)
    assert _outcome(fast) == _outcome(slow)


@settings(max_examples=300, deadline=None)
@given(EXPRESSIONS)
def test_a_generated_condition_refuses_what_the_closure_refuses(node):
    try:
        closure = cx.located(compile_expression(node), ("x",))
    except Exception:
        return

    def check(env):
        v = closure(env)
        if v is True or v is False:
            return v
        raise RuleError("runtime-error", "not a condition", ("x",))
    fast = codegen.generate(node, check, condition=True)
    assert _outcome(fast) == _outcome(check)


_OPERATORS = ["+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "and", "or",
              "in", "not in"]
_LEAVES = ([n.Name((0, 1), k) for k in sorted(ENV)] + [n.Name((0, 1), "zz")]
           + [n.Literal((0, 1), v) for v in (0, 1, 2, -1, 1.5, True, False, None, "ab", 0.0)])


@pytest.mark.parametrize("op", _OPERATORS)
def test_every_operator_on_every_pair_of_values_gives_the_closures_result(op):
    # Exhaustive where Python and the language differ most: True == 1, True + 1, "a" * 2...
    for left in _LEAVES:
        for right in _LEAVES:
            node = n.Binary((0, 1), op, left, right)
            slow = cx.located(compile_expression(node), ("x",))
            assert _outcome(codegen.generate(node, slow)) == _outcome(slow), (left, op, right)


def test_python_equality_of_true_and_one_is_not_the_languages():
    node = n.Binary((0, 1), "==", n.Name((0, 1), "t"), n.Literal((0, 1), 1))
    slow = cx.located(compile_expression(node), ("x",))
    assert codegen.generate(node, slow)(ENV) is False
