"""Expression conformance: the cases in tests/conformance/*.yaml, run through every phase.

Each file holds `sections` of `tests`, in the shape of cel-spec's conformance data:
`{name, expr, bindings?, types?, value | error}`. A case is parsed, type-checked against
symbols built from its bindings, compiled and evaluated; `value` is the expected result,
`error` the expected diagnostic code (the first one reported) or `eval` for a runtime error.
A file's top-level `bindings` apply to each of its cases (a case's own bindings win); `types`
names the static type of a binding (`die`, `cell`, `list of die`...) where the default,
inferred from the value (mappings are typed `any`), is not what the case is about.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings

from dsl import nodes as n
from dsl import types as t
from dsl.builtins import BUILTINS, EvalError
from dsl.compiler import Env, ExprEvalError, compile_expression, compile_template
from dsl.diagnostics import CODES
from dsl.parser import ExprSyntaxError, parse_expression, parse_template
from dsl.symbols import Decl, Symbols
from dsl.typecheck import TypeChecker
from tests.test_grammar import expressions, trees

CONFORMANCE = Path(__file__).with_name("conformance")
FILES = sorted(CONFORMANCE.glob("*.yaml"))


def _load_cases() -> list[Any]:
    cases = []
    for path in FILES:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        shared = data.get("bindings") or {}
        for section in data["sections"]:
            for case in section["tests"]:
                case = dict(case, bindings={**shared, **(case.get("bindings") or {})})
                cases.append(pytest.param(case, id=f"{path.stem}/{case['name']}"))
    return cases


CASES = _load_cases()


def binding_type(value: Any) -> t.Type:
    """The static type of a binding: as a YAML literal, except that mappings are `any`."""
    if isinstance(value, dict):
        return t.ANY
    if isinstance(value, list):
        item = t.ANY
        for i, v in enumerate(value):
            item = binding_type(v) if i == 0 else t.join(item, binding_type(v))
        return t.list_of(item)
    return t.type_of_value(value)


def named_type(text: str) -> t.Type:
    if text.startswith("list of "):
        return t.list_of(named_type(text[len("list of "):]))
    return t.NAMED[text]


def symbols_for(bindings: dict[str, Any], types: dict[str, str] | None = None) -> Symbols:
    sym = Symbols()
    for name, value in bindings.items():
        ty = named_type(types[name]) if types and name in types else binding_type(value)
        sym.globals[name] = Decl(name, "binding", ty, ())
    for name in types or {}:
        if name not in bindings:
            sym.globals[name] = Decl(name, "binding", named_type(types[name]), ())
    return sym


def run(expr: str, bindings: dict[str, Any], types: dict[str, str] | None = None
        ) -> tuple[str, Any]:
    """Runs one expression through every phase. Returns ("value", v) or ("error", code)."""
    try:
        node = parse_expression(expr)
    except ExprSyntaxError as err:
        assert 0 <= err.offset <= max(0, len(expr) - 1)
        return "error", err.code
    found: list[str] = []

    def report(code, message, pos, hint):
        assert code in CODES, code
        assert 0 <= pos[0] <= pos[1] <= len(expr), (pos, message)
        found.append(code)

    TypeChecker(symbols_for(bindings, types), report).infer(node, {})
    if found:
        return "error", found[0]
    try:
        return "value", compile_expression(node)(Env(bindings))
    except ExprEvalError as err:
        assert 0 <= err.pos[0] <= err.pos[1] <= len(expr), err.pos
        return "error", "eval"


def same(a: Any, b: Any) -> bool:
    """Equality that tells true from 1 and 2 from 2.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


@pytest.mark.parametrize("case", CASES)
def test_conformance(case):
    assert ("value" in case) != ("error" in case), "a case wants exactly one of value, error"
    kind, got = run(case["expr"], case["bindings"], case.get("types"))
    if "error" in case:
        assert case["error"] == "eval" or case["error"] in CODES
        assert (kind, got) == ("error", case["error"])
    else:
        assert kind == "value", f"expected {case['value']!r}, got the error {got}"
        assert same(got, case["value"]), f"expected {case['value']!r}, got {got!r}"


def test_case_names_are_unique_per_file():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert len(ids) >= 150


def _nodes():
    for c in CASES:
        try:
            yield from n.walk(parse_expression(c.values[0]["expr"]))
        except ExprSyntaxError:
            pass


def test_every_builtin_is_covered():
    called = {x.func for x in _nodes() if isinstance(x, n.Call)}
    assert set(BUILTINS) - called == set()


def test_every_operator_is_covered():
    ops = {x.op for x in _nodes() if isinstance(x, (n.Binary, n.Unary))}
    assert ops >= {"+", "-", "*", "/", "//", "%", "==", "!=", "<", "<=", ">", ">=", "in",
                   "not in", "and", "or", "not"}


# -- direct tests of what the data format cannot express -----------------------------------------

def test_unknown_name_at_run_time_is_located():
    node = parse_expression("1 + missing")
    with pytest.raises(ExprEvalError) as err:
        compile_expression(node)({})
    assert err.value.pos == (4, 11)
    assert "unknown name 'missing'" in err.value.message
    assert isinstance(err.value, EvalError)


def test_error_positions_point_at_the_failing_node():
    with pytest.raises(ExprEvalError) as err:
        compile_expression(parse_expression("xs[0] + 10 // (a - a)"))({"xs": [1], "a": 2})
    assert err.value.pos == (8, 21) and "division by zero" in err.value.message
    with pytest.raises(ExprEvalError) as err:
        compile_expression(parse_expression("d.fase"))({"d": {"face": 2}})
    assert err.value.pos == (2, 6)


def test_envs_layer_and_plain_dicts_work():
    f = compile_expression(parse_expression("[x + y for x in xs]"))
    assert f({"xs": [1, 2], "y": 10}) == [11, 12]
    outer = Env({"y": 1})
    inner = Env({"xs": [5]}, outer)
    assert f(inner) == [6]
    assert "y" in inner and "zz" not in inner and inner.get("zz", 3) == 3


def test_fields_read_only_what_an_object_opens_to_the_language():
    class Die:
        _readable = frozenset({"face"})
        face = 4
        secret = "host"

    f = compile_expression(parse_expression("d.face + total([d, d])"))
    assert f({"d": Die()}) == 12
    with pytest.raises(ExprEvalError, match="no field 'colour'"):
        compile_expression(parse_expression("d.colour"))({"d": Die()})
    # An attribute the object does not open is out of reach, as is any attribute of a host
    # object that opens nothing (a number's `real`, a text's `upper`).
    for text, env in (("d.secret", {"d": Die()}), ("x.real", {"x": 3}), ("s.upper", {"s": "a"})):
        with pytest.raises(ExprEvalError, match="has no field"):
            compile_expression(parse_expression(text))(env)


def test_templates_fill_their_holes():
    render = compile_template(parse_template("{who} rolled {total(dice)}: {doubles(dice)} {{ok}}"))
    assert render({"who": "Ann", "dice": [{"face": 2}, {"face": 2}]}) == "Ann rolled 4: true {ok}"


def test_unknown_function_fails_at_compile_time():
    with pytest.raises(ExprEvalError) as err:
        compile_expression(parse_expression("1 + frobnicate(2)"))
    assert err.value.pos == (4, 14)


def test_a_compiled_expression_is_reusable_and_pure():
    f = compile_expression(parse_expression("[d.face for d in dice if d.face > n]"))
    dice = [{"face": 1}, {"face": 5}]
    assert f({"dice": dice, "n": 2}) == [5]
    assert f({"dice": dice, "n": 0}) == [1, 5]
    assert dice == [{"face": 1}, {"face": 5}]


_VALUES = {"x": 3, "y": 0, "s": "ab", "xs": [1, 2, 3], "m": {"a": 1}, "b": True,
           "d": {"face": 4}, "none_": None}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(expressions)
def test_random_expressions_give_a_value_or_a_located_error(text):
    """Whatever parses evaluates to a value or raises EvalError: never a raw Python error."""
    try:
        node = parse_expression(text)
    except ExprSyntaxError:
        return
    try:
        compile_expression(node)(_VALUES)
    except ExprEvalError as err:
        assert 0 <= err.pos[0] <= err.pos[1] <= len(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_the_checker_never_crashes_on_random_trees(tree):
    found = []
    TypeChecker(symbols_for(_VALUES, {"d": "die"}), lambda *a: found.append(a[0])).infer(tree, {})
    assert all(code in CODES for code in found)
