"""Phase 5, compile (expressions): our AST to nested Python closures.

Input: a checked expression node (dsl/nodes.py) or a narration `Template`. Output: a function
`f(env) -> value`, where `env` maps names to runtime values (`env[name]`; a dict, or an `Env`
with comprehension locals layered on top). The closures are built once per expression, so the
hot path of a simulation touches no parse tree and dispatches on no node type; user text is
never passed to eval or exec. Runtime errors raise `ExprEvalError` with the failing node's
`pos` (unknown name, no field, index out of range, division by zero, a value of the wrong kind).

Semantics: `and`/`or`/`not`, conditions of `if` and comprehension filters need true/false
(no truthiness); `and`/`or` short-circuit. `/` is true division, `//` floor division (a whole
number), `%` takes the sign of the divisor. `+` adds numbers, joins texts or joins lists; other
arithmetic wants numbers (true/false are not numbers). `<`... compare two numbers or two texts.
`==` never equates true with 1. Lists are indexed from 0; a negative index is out of range.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from dsl import nodes as n
from dsl.builtins import BUILTINS, MAX_INT, PAST_LIMIT, EvalError, get, sized, whole_quotient

Compiled = Callable[[Mapping[str, Any]], Any]

_NUM = (int, float)
_LISTS = (list, tuple)


# The work meter of the game being set up or played (interpreter/engine/game.py sets it, with
# `metered`): comprehensions and built-ins over lists charge their items to it, so their work
# counts in the game's step budget. None (a lone expression, a test): nothing is charged. One
# slot for the process, read without walking environments: games run one at a time.
METER: list = [None]


@contextmanager
def metered(charge: Callable[[int, Any], None]) -> Iterator[None]:
    """Charges the work of expressions evaluated inside to `charge` (nested: restored after)."""
    previous, METER[0] = METER[0], charge
    try:
        yield
    finally:
        METER[0] = previous


UNCHARGED_ITEMS = 64


def flat_over_few(node: n.Comprehension) -> bool:
    """Whether a comprehension goes over the players, the teams or a list written out in the
    rules, and its element and condition go through no list of their own: then, over at most
    UNCHARGED_ITEMS items, it is not charged, as a built-in's call over a few items is not (its
    work is bounded by the ruleset's text, and how often it runs is counted: by the steps, and
    by the comprehensions around it). The generated code decides it the same way
    (interpreter/compile/meter.py), so both meters agree item for item."""
    it = node.iterable
    if not (isinstance(it, n.ListExpr) or (isinstance(it, n.Name)
                                            and it.id in ("players", "teams"))):
        return False
    return not any(isinstance(x, n.Comprehension) for part in (node.element, node.cond)
                   if part is not None for x in n.walk(part))


class ExprEvalError(EvalError):
    """A runtime error of one expression, located by the (start, end) offsets of its node."""

    code = "runtime-error"

    def __init__(self, message: str, pos: n.Pos):
        super().__init__(message)
        self.message = message
        self.pos = pos


class OverBudget(ExprEvalError):
    """The work of comprehensions and built-ins went past the game's step budget."""

    code = "budget-exceeded"


class Env(dict):
    """Names for evaluation, with a parent mapping consulted for names not found here.

    Comprehensions layer their variable on top of the caller's env this way. Expressions
    only read an Env; the interpreter builds it.
    """

    __slots__ = ("parent",)

    def __init__(self, names: Mapping[str, Any] = (), parent: Mapping[str, Any] | None = None):
        super().__init__(names)
        self.parent = parent

    def __missing__(self, name: str) -> Any:
        if self.parent is None:
            raise KeyError(name)
        return self.parent[name]

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or (self.parent is not None and name in self.parent)

    def get(self, name: str, default: Any = None) -> Any:
        try:
            return self[name]
        except KeyError:
            return default


def kind(value: Any) -> str:
    """The kind of a runtime value, in the words of the language's messages."""
    if value is True or value is False:
        return "a condition (true/false)"
    if value is None:
        return "none"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, _LISTS):
        return "a list"
    if isinstance(value, dict):
        return "a map"
    return "a " + type(value).__name__.lower()


def spelled(value: Any) -> str:
    """A key or index in a message, as the language writes it: none, true and false in its
    words, a text in quotes, a number as it is."""
    if value is None or value is True or value is False:
        return {None: "none", True: "true", False: "false"}[value]
    return repr(value)


def compile_expression(node: n.Node) -> Compiled:
    """Returns a function that evaluates `node` against an env of names."""
    return _COMPILERS[type(node)](node)


def compile_template(node: n.Template) -> Callable[[Mapping[str, Any]], str]:
    """Returns a function that renders narration text, filling each `{expression}` hole."""
    show = BUILTINS["text"].impl
    parts = [(p, None) if isinstance(p, str) else (None, compile_expression(p))
             for p in node.parts]

    def template(env):
        try:
            return sized("".join(s if f is None else show(f(env)) for s, f in parts))
        except EvalError as err:
            if isinstance(err, ExprEvalError):
                raise
            raise ExprEvalError(str(err), node.pos) from None
    return template


# -- leaves --------------------------------------------------------------------------------------

def _literal(node: n.Literal) -> Compiled:
    value = node.value
    return lambda env: value


def _name(node: n.Name) -> Compiled:
    name, pos = node.id, node.pos

    def lookup(env):
        try:
            return env[name]
        except KeyError:
            raise ExprEvalError(f"unknown name '{name}'", pos) from None
    return lookup


def _list(node: n.ListExpr) -> Compiled:
    items = tuple(compile_expression(x) for x in node.items)
    return lambda env: [f(env) for f in items]


# -- access ----------------------------------------------------------------------------------------

def _field(node: n.Field) -> Compiled:
    obj, name, pos = compile_expression(node.obj), node.name, node.name_pos

    def field(env):
        value = obj(env)
        try:
            return get(value, name)
        except EvalError:
            raise ExprEvalError(no_field(value, name), pos) from None
    return field


def no_field(value: Any, name: str, shown: str | None = None) -> str:
    """The words of a field read on a value that has no such field (the generated code's
    too: an event's `old` where a `set` fired it, a cell's or a die's attribute; `shown`:
    the value's kind in words, where the generated code holds it otherwise)."""
    return f"{shown or kind(value)} has no field '{name}'"


def no_item(k: Any, shown: str) -> str:
    """The words of a read at `k` of a container the interpreter provides that has no such
    item (`shown`: its kind, `a grid`; the generated code's too)."""
    return f"no item {spelled(k)} in {shown}"


def not_rolled(value: Any) -> str:
    """The words of a `roll` of something that is not dice (none: a die not found), the
    generated code's too."""
    return f"only dice can be rolled, not {kind(value)}"


def out_of_range(k: int, items: int) -> str:
    """The words of a list read at an index past its ends (the generated code's too)."""
    return f"index {k} is out of range for a list of {items} item{'' if items == 1 else 's'}"


def not_an_index(k: Any) -> str:
    """The words of a list read at something not a whole number (the generated code's too)."""
    return f"a list is indexed by a whole number, not {kind(k)}"


def no_key(k: Any) -> str:
    """The words of a map read at a key it does not have (the generated code's too)."""
    return f"the map has no key {spelled(k)}"


def _index(node: n.Index) -> Compiled:
    obj, key, pos = compile_expression(node.obj), compile_expression(node.key), node.pos

    def index(env):
        value, k = obj(env), key(env)
        if isinstance(value, _LISTS):
            if type(k) is not int:
                raise ExprEvalError(not_an_index(k), pos)
            if not 0 <= k < len(value):
                raise ExprEvalError(out_of_range(k, len(value)), pos)
            return value[k]
        if isinstance(value, dict):
            try:
                return value[k]
            except (KeyError, TypeError):
                raise ExprEvalError(no_key(k), pos) from None
        if value is None or isinstance(value, (str, *_NUM)):
            raise ExprEvalError(f"{kind(value)} cannot be indexed with [...]", pos)
        try:
            return value[k]  # a grid or another container the interpreter provides
        except (KeyError, IndexError, TypeError):
            raise ExprEvalError(no_item(k, kind(value)), pos) from None
    return index


# -- operators ---------------------------------------------------------------------------------------

def _unary(node: n.Unary) -> Compiled:
    operand, pos = compile_expression(node.operand), node.pos
    if node.op == "not":
        def not_(env):
            x = operand(env)
            if x is True or x is False:
                return not x
            raise ExprEvalError(f"'not' needs a condition (true/false), not {kind(x)}", pos)
        return not_

    def neg(env):
        x = operand(env)
        if type(x) in _NUM:
            return -x
        raise ExprEvalError(not_negated(x), pos)
    return neg


def not_negated(x: Any) -> str:
    """The words of `-x` of a value that is not a number."""
    return f"'-' needs a number, not {kind(x)}"


def _logic(node: n.Binary) -> Compiled:
    left, right, op = compile_expression(node.left), compile_expression(node.right), node.op
    lpos, rpos = node.left.pos, node.right.pos
    stop = op == "or"  # the left value that decides the result alone

    def logic(env):
        a = left(env)
        if a is stop:
            return stop
        if a is not (not stop):
            raise ExprEvalError(f"each side of '{op}' must be a condition (true/false), "
                                f"not {kind(a)}", lpos)
        b = right(env)
        if b is True or b is False:
            return b
        raise ExprEvalError(f"each side of '{op}' must be a condition (true/false), "
                            f"not {kind(b)}", rpos)
    return logic


def _zone_items(x):
    """A zone (anything with an `items` list) is read as the list of what it holds."""
    items = getattr(x, "items", None)
    return items if isinstance(items, list) else x


def _add(a, b):
    if type(a) in _NUM and type(b) in _NUM:
        return sized(a + b)
    if type(a) is str and type(b) is str:
        return sized(a + b)
    a, b = _zone_items(a), _zone_items(b)
    if isinstance(a, _LISTS) and isinstance(b, _LISTS):
        return sized([*a, *b])
    raise EvalError(f"cannot add {kind(a)} and {kind(b)}")


def _times(a, b):
    """`*` within the size limit, refused before a huge product is computed."""
    if type(a) is int and type(b) is int and a and b and (
            a.bit_length() + b.bit_length() > MAX_INT.bit_length() + 1):
        raise EvalError(PAST_LIMIT)
    return sized(a * b)


def by_zero(op: str) -> str:
    """The words of `/`, `//` or `%` by zero."""
    return "modulo by zero" if op == "%" else "division by zero"


def _numeric(op: str, fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def apply(a, b):
        if type(a) in _NUM and type(b) in _NUM:
            try:
                return fn(a, b)
            except ZeroDivisionError:
                raise EvalError(by_zero(op)) from None
        bad = a if type(a) not in _NUM else b
        raise EvalError(f"'{op}' works on numbers, not {kind(bad)}")
    return apply


def _eq(a, b) -> bool:
    if a is True or a is False or b is True or b is False:
        return a is b
    return a == b


def _ordered(op: str, fn: Callable[[Any, Any], bool]) -> Callable[[Any, Any], bool]:
    def apply(a, b):
        if (type(a) in _NUM and type(b) in _NUM) or (type(a) is str and type(b) is str):
            return fn(a, b)
        raise EvalError(f"'{op}' compares two numbers or two texts, not {kind(a)} and {kind(b)}")
    return apply


def _member(a, b) -> bool:
    if isinstance(b, _LISTS):
        return a in b
    if isinstance(b, dict):
        try:
            return a in b
        except TypeError:  # a list is never a map's key
            return False
    if isinstance(b, str):
        if type(a) is str:
            return a in b
        raise EvalError(f"'in' on a text needs a text on its left, not {kind(a)}")
    items = getattr(b, "items", None)  # a zone is read as the list of what it holds
    if isinstance(items, list):
        return a in items
    raise EvalError(f"'in' needs a list, map or text on its right, not {kind(b)}")


_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "+": _add,
    "-": _numeric("-", lambda a, b: sized(a - b)),
    "*": _numeric("*", lambda a, b: _times(a, b)),
    "/": _numeric("/", lambda a, b: a / b),
    "//": _numeric("//", whole_quotient),
    "%": _numeric("%", lambda a, b: a % b),
    "==": _eq,
    "!=": lambda a, b: not _eq(a, b),
    "<": _ordered("<", lambda a, b: a < b),
    "<=": _ordered("<=", lambda a, b: a <= b),
    ">": _ordered(">", lambda a, b: a > b),
    ">=": _ordered(">=", lambda a, b: a >= b),
    "in": _member,
    "not in": lambda a, b: not _member(a, b),
}


def operator_error(op: str, a: Any, b: Any) -> str | None:
    """What the operator `op` says of `a` and `b` when it does not take them (its error's
    words), None when it takes them: the generated code meets the same refusal as Python's
    `TypeError` and words it so (interpreter/compile/base.py `refused`)."""
    try:
        _OPS[op](a, b)
    except EvalError as err:
        return str(err)
    return None


def _binary(node: n.Binary) -> Compiled:
    if node.op in ("and", "or"):
        return _logic(node)
    left, right, pos = compile_expression(node.left), compile_expression(node.right), node.pos
    op = _OPS[node.op]

    def binary(env):
        a, b = left(env), right(env)
        try:
            return op(a, b)
        except EvalError as err:
            raise ExprEvalError(str(err), pos) from None
    return binary


def _conditional(node: n.Conditional) -> Compiled:
    cond, pos = compile_expression(node.cond), node.cond.pos
    then, other = compile_expression(node.then), compile_expression(node.other)

    def conditional(env):
        c = cond(env)
        if c is True:
            return then(env)
        if c is False:
            return other(env)
        raise ExprEvalError(f"the condition after 'if' must be true or false, not {kind(c)}",
                            pos)
    return conditional


def _comprehension(node: n.Comprehension) -> Compiled:
    iterable, var, ipos = compile_expression(node.iterable), node.var, node.iterable.pos
    element = compile_expression(node.element)
    cond = compile_expression(node.cond) if node.cond is not None else None
    cpos = node.cond.pos if node.cond is not None else node.pos
    few = UNCHARGED_ITEMS if flat_over_few(node) else -1

    def comprehension(env):
        items = iterable(env)
        if isinstance(items, dict):
            items = list(items)
        elif not isinstance(items, _LISTS):
            inner = getattr(items, "items", None)  # a zone: the list of what it holds
            if not isinstance(inner, list):
                raise ExprEvalError(f"'for {var} in ...' needs a list, not {kind(items)}", ipos)
            items = inner
        meter = METER[0]
        if meter is not None and len(items) > few:
            meter(len(items), ipos)
        scope = Env((), env)
        out = []
        for x in items:
            scope[var] = x
            if cond is not None:
                c = cond(scope)
                if c is False:
                    continue
                if c is not True:
                    raise ExprEvalError("the condition after 'if' must be true or false, "
                                        f"not {kind(c)}", cpos)
            out.append(element(scope))
        return out
    return comprehension


def _call(node: n.Call) -> Compiled:
    fn = BUILTINS.get(node.func)
    if fn is None:
        raise ExprEvalError(f"unknown function '{node.func}'", node.func_pos)
    impl, name, pos = fn.impl, node.func, node.pos
    args = tuple(compile_expression(a) for a in node.args)
    kwargs = tuple((k, compile_expression(v)) for k, v in node.kwargs)

    # A built-in over a comprehension reads items the comprehension has already counted.
    counted = fn.counted and not all(isinstance(a, n.Comprehension) for a in node.args)

    def call(env):
        values = [a(env) for a in args]
        named = {k: v(env) for k, v in kwargs} if kwargs else None
        try:
            if counted:
                return charged(env, impl, values, named, pos)
            return impl(*values, **named) if named else impl(*values)
        except EvalError as err:
            if isinstance(err, ExprEvalError):
                raise
            raise ExprEvalError(builtin_said(name, str(err)), pos) from None
        except (TypeError, ValueError, AttributeError, ArithmeticError):  # floor(infinity)
            raise ExprEvalError(cannot_work(name, values), pos) from None
    return call


def cannot_work(name: str, values: Sequence[Any], shown: Sequence[str | None] = ()) -> str:
    """The words of the built-in `name`'s error on `values` it cannot work with (none where it
    takes numbers, infinity where it makes a whole number), as an expression's error;
    `shown`: words that tell a value in place of its own kind (None: its own)."""
    got = ", ".join(shown[i] if i < len(shown) and shown[i] else kind(v)
                    for i, v in enumerate(values)) or "no arguments"
    return f"{name}() cannot work with {got}"


def builtin_said(name: str, said: str) -> str:
    """The words of the built-in `name`'s own error `said`, as an expression's error."""
    return f"{name}(): {said}"


def charged(env: Mapping[str, Any], impl: Callable, values: list, named: dict | None,
            pos: n.Pos) -> Any:
    """Calls a built-in that works over lists, charging the items it reads and makes to the
    game's work meter. Calls over a few items are not charged (each costs at most
    UNCHARGED_ITEMS, and how often they run is already counted: by the steps, and by the
    comprehensions around them), which keeps the common case at one function call."""
    result = impl(*values, **named) if named else impl(*values)
    items = sum(len(v) for v in values if type(v) is list) + (
        len(result) if type(result) is list else 0)
    if items > UNCHARGED_ITEMS:
        meter = METER[0]
        if meter is not None:
            meter(items, pos)
    return result


_COMPILERS: dict[type, Callable[[Any], Compiled]] = {
    n.Literal: _literal, n.Name: _name, n.ListExpr: _list, n.Field: _field, n.Index: _index,
    n.Unary: _unary, n.Binary: _binary, n.Conditional: _conditional,
    n.Comprehension: _comprehension, n.Call: _call,
}
