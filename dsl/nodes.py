"""Expression AST: our own node types, produced by the parser from Lark's tree.

Input: nothing (type definitions). Output: frozen dataclasses. Every node carries `pos`, the
(start, end) character offsets in the expression text; the checker maps them to file positions.
Nothing outside dsl/parser.py sees a Lark tree.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

Pos = tuple[int, int]


@dataclass(frozen=True)
class Node:
    pos: Pos


@dataclass(frozen=True)
class Literal(Node):  # number, string, true, false, none
    value: Any


@dataclass(frozen=True)
class Name(Node):  # name
    id: str


@dataclass(frozen=True)
class ListExpr(Node):  # list_
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Field(Node):  # field: obj.name
    obj: Node
    name: str
    name_pos: Pos = (0, 0)


@dataclass(frozen=True)
class Index(Node):  # index: obj[key]
    obj: Node
    key: Node


@dataclass(frozen=True)
class Comprehension(Node):  # list_comp, gen_call: element for var in iterable if cond
    element: Node
    var: str
    var_pos: Pos
    iterable: Node
    cond: Node | None


@dataclass(frozen=True)
class Call(Node):  # call, gen_call
    func: str
    args: tuple[Node, ...]
    kwargs: tuple[tuple[str, Node], ...] = field(default=())
    func_pos: Pos = (0, 0)


@dataclass(frozen=True)
class Unary(Node):  # not_, neg
    op: str
    operand: Node


@dataclass(frozen=True)
class Binary(Node):  # add sub mul div floordiv mod compare in_ not_in and_ or_
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Conditional(Node):  # conditional: if cond then a else b
    cond: Node
    then: Node
    other: Node


@dataclass(frozen=True)
class Template(Node):
    """Narration text with `{expression}` holes, e.g. "rolled {die.face}"."""

    parts: tuple[str | Node, ...]


def walk(node: Node):
    """Yields a node and all nodes below it, parents first."""
    yield node
    if isinstance(node, ListExpr):
        for n in node.items:
            yield from walk(n)
    elif isinstance(node, Field):
        yield from walk(node.obj)
    elif isinstance(node, Index):
        yield from walk(node.obj)
        yield from walk(node.key)
    elif isinstance(node, Comprehension):
        yield from walk(node.iterable)
        yield from walk(node.element)
        if node.cond is not None:
            yield from walk(node.cond)
    elif isinstance(node, Call):
        for n in node.args:
            yield from walk(n)
        for _, n in node.kwargs:
            yield from walk(n)
    elif isinstance(node, Unary):
        yield from walk(node.operand)
    elif isinstance(node, Binary):
        yield from walk(node.left)
        yield from walk(node.right)
    elif isinstance(node, Conditional):
        yield from walk(node.cond)
        yield from walk(node.then)
        yield from walk(node.other)
    elif isinstance(node, Template):
        for p in node.parts:
            if isinstance(p, Node):
                yield from walk(p)


def always_worked_out(node: Node, field: str) -> bool:
    """Whether the part in `node`'s field `field` is worked out whenever `node` is
    (dsl/compiler.py): not a conditional's branches, nor the right of `and`/`or`, which
    short-circuit. (A comprehension's element and test are worked out once an item.)"""
    return not (isinstance(node, Conditional) and field in ("then", "other")
                or isinstance(node, Binary) and node.op in ("and", "or") and field == "right")


def mentions(node: Any, names: set | frozenset) -> bool:
    """Whether an expression reads any of these bare names (a comprehension's own name
    counts too: conservative)."""
    if isinstance(node, Name):
        return node.id in names
    if isinstance(node, tuple):
        return any(mentions(x, names) for x in node)
    if isinstance(node, Node):
        return any(mentions(getattr(node, f.name), names) for f in fields(node)
                   if f.name != "pos")
    return False
