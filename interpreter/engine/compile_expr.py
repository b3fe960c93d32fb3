"""Phase 5, compile (values): a ruleset value (an expression string, a number, a list) to a
function of the environment, located for runtime errors.

Input: a value from the checked document and its data path. Output: `f(env) -> value`. A
failing expression raises `RuleError` with the rule's path and the offset inside the
expression, so runtime errors render like compile errors (file:line:column).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dsl import nodes as n
from dsl.builtins import EvalError, put
from dsl.compiler import ExprEvalError, compile_expression, compile_template, kind
from dsl.parser import parse_expression, parse_template
from interpreter.engine.signals import RuleError, bad_seconds

Fn = Callable[[Mapping[str, Any]], Any]

def node_of(value: Any) -> n.Node:
    """The expression node of a ruleset value, read the way the checker reads it."""
    if isinstance(value, str):
        return parse_expression(value)
    if isinstance(value, list):
        return n.ListExpr((0, 0), tuple(node_of(v) for v in value))
    return n.Literal((0, 0), value)


def located(f: Fn, path: tuple) -> Fn:
    def run(env):
        try:
            return f(env)
        except ExprEvalError as err:
            raise RuleError(err.code, err.message, path, err.pos) from None
        except RecursionError:
            raise RuleError("budget-exceeded", "the expression nests too deeply to evaluate",
                            path) from None
    return run


def expr(value: Any, path: tuple) -> Fn:
    """Compiles one expression value. Constants become constant functions."""
    if value is None or isinstance(value, (bool, int, float)):
        return lambda env: value
    if isinstance(value, list):
        # Each item of a YAML list is its own scalar, located at its own path.
        items = [expr(v, path + (i,)) for i, v in enumerate(value)]
        return lambda env: [f(env) for f in items]
    return _compiled(parse_expression(value), path)


def _compiled(node: n.Node, path: tuple) -> Fn:
    return located(compile_expression(node), path)


def cond(value: Any, path: tuple) -> Fn:
    """Compiles a condition: like `expr`, but a result other than true/false is an error."""
    f = _compiled(parse_expression(value), path) if isinstance(value, str) else expr(value, path)

    def check(env):
        v = f(env)
        if v is True or v is False:
            return v
        raise RuleError("runtime-error", f"a condition must be true or false, not {kind(v)}", path)
    return check


def seconds(value: Any, path: tuple) -> Fn:
    """Compiles a duration (a step's `duration`, `wait`): a number of seconds (0 or less: no
    time passes); anything else is an error at its place, as a condition's is."""
    f = expr(value, path)

    def check(env):
        v = f(env)
        if type(v) is int or type(v) is float:
            return v
        raise bad_seconds(kind(v), path)
    return check


def template(value: Any, path: tuple) -> Callable[[Mapping[str, Any]], str]:
    if not isinstance(value, str):
        text = str(value)
        return lambda env: text
    return located(compile_template(parse_template(value)), path)


def target_node(text: str) -> n.Node:
    return parse_expression(text)


def put_field(obj: Any, name: str, value: Any, path: tuple) -> None:
    """Writes a field for `set` and `add`, only where the object allows it (declared state, a
    die's face, card and cell fields): checked as the game runs, whatever the checker said."""
    try:
        put(obj, name, value)
    except EvalError as err:
        raise RuleError("runtime-error", str(err), path) from None
