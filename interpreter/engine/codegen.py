"""Phase 5, compile (source): a checked expression node to Python source, compiled once.

Input: an expression node (dsl/nodes.py) that the checker accepted, and the closure that
dsl/compiler.py builds for the same node. Output: a function `f(env) -> value` whose body is
one generated Python expression, so evaluating it makes no call per node (DESIGN §9: "compile
further, generate Python from our own checked nodes, never from user text"). The source is
built from node types and values only; names become string constants (`env['score']`), no
text the user wrote is ever executed.

The generated code is a fast path, and the closure stays the reference. The fast path checks
every place where Python and the language differ (`True == 1`, truthiness, `+` on true/false,
negative list indexes) and raises when it meets one; any exception at all then hands the
evaluation to the closure, which returns the right value or raises the located error. Since
expressions are pure, evaluating twice changes nothing. So the generated function returns
exactly what the closure returns, only faster; tests/test_codegen.py checks it on every
expression of every shipped ruleset and on random expressions.

Nodes the generator does not handle (none today) make the whole expression use the closure.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable, Mapping
from typing import Any

from dsl import nodes as n
from dsl.builtins import BUILTINS, MAX_INT, get, sized
from dsl.compiler import _OPS, METER, _add, _eq, _member, charged
from interpreter.engine.values import Grid

Fn = Callable[[Mapping[str, Any]], Any]

_NUM = (int, float)


class Unsupported(Exception):  # noqa: N818 - a signal inside the generator
    """The node cannot be generated; the caller keeps the closure."""


# -- helpers the generated code calls: each returns the language's value or raises ----------------

def _fail(*_: Any) -> Any:
    raise ValueError("not the fast path")


def _bool(x: Any) -> bool:
    if x is True or x is False:
        return x
    raise TypeError("not a condition")


def _index(value: Any, k: Any) -> Any:
    t = type(value)  # exact type checks first: this is among the hottest helpers
    if t is dict or t is Grid:
        return value[k]  # their own lookups raise on a missing key
    if t is list or t is tuple or isinstance(value, list | tuple):
        if type(k) is int and 0 <= k < len(value):
            return value[k]
        raise IndexError(k)
    if value is None or isinstance(value, str | int | float):
        raise TypeError("cannot be indexed")
    return value[k]  # a map, a grid: their own lookups raise on a missing key


def _iter(items: Any) -> Any:
    if isinstance(items, list | tuple):
        pass
    elif isinstance(items, dict):
        items = list(items)
    else:
        items = getattr(items, "items", None)
        if not isinstance(items, list):
            raise TypeError("not a list")
    meter = METER[0]  # the work counts in the step budget, as in the closures
    if meter is not None:
        meter(len(items), None)
    return items


def _neg(x: Any) -> Any:
    if type(x) in _NUM:
        return -x
    raise TypeError("not a number")


HELPERS: dict[str, Any] = {
    "_fail": _fail, "_neg": _neg, "_get": get, "_bool": _bool, "_index": _index, "_iter": _iter, "_add": _add,
    "_charged": charged, "_sized": sized,
    "_eq": _eq, "_member": _member, "_NUM": _NUM,
    # numbers or texts; anything else raises (then the closure reports it)
    "_lt": _OPS["<"], "_le": _OPS["<="], "_gt": _OPS[">"], "_ge": _OPS[">="],
}
_ORDER_HELPER = {"<": "_lt", "<=": "_le", ">": "_gt", ">=": "_ge"}


class _Source:
    """Builds the source of one expression: constants, temporaries, comprehension variables."""

    def __init__(self) -> None:
        self.consts: dict[str, Any] = {}
        self.temps = 0
        self.scopes: list[dict[str, str]] = []
        self.plain = 0  # > 0 inside a comprehension's iterable, where Python forbids `:=`

    def const(self, value: Any) -> str:
        name = f"_k{len(self.consts)}"
        self.consts[name] = value
        return name

    def temp(self) -> str:
        self.temps += 1
        return f"_t{self.temps}"

    # Each method returns (source, is_bool): is_bool when the value is surely true or false.
    def gen(self, node: n.Node) -> tuple[str, bool]:
        method = getattr(self, "_" + type(node).__name__.lower(), None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node)

    def _literal(self, node: n.Literal) -> tuple[str, bool]:
        v = node.value
        if v is None or isinstance(v, bool | str) or (type(v) is int):
            return repr(v), isinstance(v, bool)
        return self.const(v), False  # floats (inf, nan) and anything else: the same object

    def _name(self, node: n.Name) -> tuple[str, bool]:
        for scope in reversed(self.scopes):
            if node.id in scope:
                return scope[node.id], False
        return f"env[{node.id!r}]", False

    def _listexpr(self, node: n.ListExpr) -> tuple[str, bool]:
        return "[" + ", ".join(self.gen(x)[0] for x in node.items) + "]", False

    def _field(self, node: n.Field) -> tuple[str, bool]:
        # As builtins.get: a map's key, or a field the object opens to the language (its
        # `_readable` list), read only once found there; never a Python attribute by a name
        # the object did not list. Anything else raises, and the closure reports it.
        obj, _ = self.gen(node.obj)
        name = node.name
        if self.plain or not name.isidentifier() or keyword.iskeyword(name) or name[0] == "_":
            return f"_get({obj}, {name!r})", False
        t = self.temp()
        return (f"({t}[{name!r}] if type({t} := {obj}) is dict else {t}.{name} "
                f"if {name!r} in {t}._readable else _get({t}, {name!r}))"), False

    def _index(self, node: n.Index) -> tuple[str, bool]:
        obj, key = self.gen(node.obj)[0], self.gen(node.key)[0]
        if self.plain:
            return f"_index({obj}, {key})", False
        # A list by a number in range inline (the common case); anything else by the helper.
        t, k = self.temp(), self.temp()
        return (f"({t}[{k}] if (type({t} := {obj}) is list) & (type({k} := {key}) is int) "
                f"and 0 <= {k} < len({t}) else _index({t}, {k}))"), False

    def _unary(self, node: n.Unary) -> tuple[str, bool]:
        src, is_bool = self.gen(node.operand)
        if node.op == "not":
            return (f"(not {src})" if is_bool else f"(not _bool({src}))"), True
        if self.plain:
            return f"_neg({src})", False
        t = self.temp()
        return f"(-{t} if type({t} := {src}) in _NUM else _fail())", False

    def _binary(self, node: n.Binary) -> tuple[str, bool]:
        op = node.op
        a, a_bool = self.gen(node.left)
        b, b_bool = self.gen(node.right)
        if op in ("and", "or"):
            a = a if a_bool else f"_bool({a})"
            b = b if b_bool else f"_bool({b})"
            return f"({a} {op} {b})", True
        if op in ("==", "!="):
            src = self._equal(node, a, b)
            return (src if op == "==" else f"(not {src})"), True
        if op in ("in", "not in"):
            src = f"_member({a}, {b})"
            return (src if op == "in" else f"(not {src})"), True
        if self.plain:
            return f"{self.const(_OPS[op])}({a}, {b})", op in _ORDER_HELPER
        ta, tb = self.temp(), self.temp()
        both = f"(type({ta} := {a}) in _NUM) & (type({tb} := {b}) in _NUM)"
        if op in _ORDER_HELPER:
            return f"({ta} {op} {tb} if {both} else {_ORDER_HELPER[op]}({ta}, {tb}))", True
        if op == "+":  # within the size limits (dsl/builtins.py sized)
            r = self.temp()  # within the size limit (dsl/builtins.py sized), inline
            return (f"(({r} if -{MAX_INT} <= ({r} := {ta} + {tb}) <= {MAX_INT} else _sized({r}))"
                    f" if {both} else _add({ta}, {tb}))"), False
        if op == "//":
            return f"(int({ta} // {tb}) if {both} else _fail())", False
        if op in ("-", "*"):
            return f"{self.const(_OPS[op])}({a}, {b})", False
        return f"({ta} {op} {tb} if {both} else _fail())", False  # / %

    def _equal(self, node: n.Binary, a: str, b: str) -> str:
        """`==` never equates true/false with a number; Python's does (True == 1)."""
        for lit, other, other_node in ((node.right, a, node.left), (node.left, b, node.right)):
            if not isinstance(lit, n.Literal) or isinstance(other_node, n.Literal):
                continue
            v = lit.value
            if v is True or v is False:
                return f"({other} is {v!r})"
            if v is None or isinstance(v, str) or (type(v) is int and v not in (0, 1)):
                return f"({other} == {v!r})"
            if type(v) is int and not self.plain:  # 0 or 1: true/false must not equal them
                t = self.temp()
                return f"(({t} := {other}) == {v!r} and type({t}) is not bool)"
        if self.plain:
            return f"_eq({a}, {b})"
        ta, tb = self.temp(), self.temp()  # _eq inline: true/false equal only themselves
        return (f"({ta} is {tb} if (type({ta} := {a}) is bool) | (type({tb} := {b}) is bool) "
                f"else {ta} == {tb})")

    def _conditional(self, node: n.Conditional) -> tuple[str, bool]:
        c, c_bool = self.gen(node.cond)
        then, then_bool = self.gen(node.then)
        other, other_bool = self.gen(node.other)
        c = c if c_bool else f"_bool({c})"
        return f"({then} if {c} else {other})", then_bool and other_bool

    def _comprehension(self, node: n.Comprehension) -> tuple[str, bool]:
        self.plain += 1
        try:
            items, _ = self.gen(node.iterable)
        finally:
            self.plain -= 1
        var = f"_c{len(self.scopes)}_{self.temp()}"
        self.scopes.append({node.var: var})
        try:
            element, _ = self.gen(node.element)
            test = ""
            if node.cond is not None:
                c, c_bool = self.gen(node.cond)
                test = f" if {c if c_bool else f'_bool({c})'}"
        finally:
            self.scopes.pop()
        return f"[{element} for {var} in _iter({items}){test}]", False

    def _call(self, node: n.Call) -> tuple[str, bool]:
        fn = BUILTINS.get(node.func)
        if fn is None:
            raise Unsupported(node.func)
        args = [self.gen(a)[0] for a in node.args]
        args += [f"{k}={self.gen(v)[0]}" for k, v in node.kwargs]
        if any(not k.isidentifier() or keyword.iskeyword(k) for k, _ in node.kwargs):
            raise Unsupported("keyword")
        # Its items count in the step budget, unless a comprehension counted them already.
        if fn.counted and not all(isinstance(a, n.Comprehension) for a in node.args):
            kw = "{" + ", ".join(f"{k!r}: {self.gen(v)[0]}" for k, v in node.kwargs) + "}"
            pos = [self.gen(a)[0] for a in node.args]
            return (f"_charged(env, {self.const(fn.impl)}, [{', '.join(pos)}], "
                    f"{kw if node.kwargs else None}, None)"), False
        return f"{self.const(fn.impl)}({', '.join(args)})", False


def generate(node: n.Node, slow: Fn, condition: bool = False, where: tuple = ()) -> Fn:
    """The fast function for `node`, falling back to `slow` (the closure) on any exception.

    With `condition`, a value other than true/false also goes to `slow` (whose caller reports
    it). Returns `slow` itself when the node cannot be generated."""
    src = _Source()
    try:
        body, is_bool = src.gen(node)
    except (Unsupported, RecursionError):
        return slow
    lines = ["def fast(env):", "    try:"]
    if condition and not is_bool:
        lines += [f"        v = {body}", "        if v is True or v is False:",
                  "            return v"]
    else:
        lines += [f"        return {body}"]
    lines += ["    except Exception:", "        pass", "    return slow(env)"]
    names = {**HELPERS, **src.consts, "slow": slow}
    try:
        code = compile("\n".join(lines), f"<meeple {_dotted(where)}>", "exec")
    except (SyntaxError, RecursionError, MemoryError):
        return slow  # too deeply nested for Python's own compiler: the closure still works
    exec(code, names)  # noqa: S102 - source built from node types, never from user text
    fast = names["fast"]
    fast.source = "\n".join(lines)
    return fast


def _dotted(path: tuple) -> str:
    return ".".join(str(p) for p in path) or "expression"
