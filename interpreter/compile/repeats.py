"""Phase 5b, compile for simulation (repeated parts): the same part of a `best` score, written
twice, worked out once an option.

Input: a `best` rule's score (dsl/nodes.py) and the names that change from option to option
(`option`, the `let` names that read it). Output: `repeated`, the parts worth naming: each
written at least twice, reading the option, outside any comprehension, and its first
occurrence met whenever the score is (not in a branch of `if`, nor on the right of `and`/`or`);
and `replaced`, the score with every occurrence of a part read through a name instead; then,
in the score's code, `bound_first`: a part (or a `let` of the option) that the code first reads
where it is read whenever the score is worked out binds its name there and is read plainly after
it, with no test of a first reading and nothing to unset before the next option.

Why: a designer weighs an option as a formula and writes a part of it again where it is needed
(`(if mine <= theirs then 1 else 0) - 2 * abs(mine - theirs)`, each side a lookup or a `max`
over the teams). interpreter/compile/policies.py `_best` gives each part a name that is worked
out when first read and kept for the rest of the option, as it does a `let` that reads
`option`. The value is the same: a score reads the game and changes nothing, and the option is
the same at both places. The first occurrence is where the interpreter first works the part
out, so a part that fails fails there, at the same place; the writer names no part whose code
counts work, which the interpreter counts again at each occurrence.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import fields
from typing import Any

from dsl import nodes as n
from dsl.nodes import mentions
from interpreter.compile.loops import memo_name
from interpreter.compile.trees import expression_tree

_PLACES = frozenset({"pos", "name_pos", "func_pos", "var_pos"})  # where, not what


def shape(node: Any) -> Any:
    """What a node computes, without where it is written: equal for the same part written
    twice (`1` and `1.0`, or `1` and `true`, stay apart: the value's type is kept)."""
    if isinstance(node, tuple):
        return tuple(shape(x) for x in node)
    if isinstance(node, n.Node):
        return (type(node).__name__,
                *(shape(getattr(node, f.name)) for f in fields(node) if f.name not in _PLACES))
    return (type(node).__name__, node)


def _size(node: n.Node) -> int:
    return sum(1 for _ in n.walk(node))


def _met(node: n.Node, always: bool) -> Iterator[tuple[n.Node, bool]]:
    """The parts of `node` in the order the interpreter works them out (dsl/compiler.py: each
    node's fields in order), each with whether it is worked out whenever `node` is; not into
    a comprehension, whose parts are worked out once an item."""
    yield node, always
    if isinstance(node, n.Comprehension):
        return
    for f in fields(node):
        if f.name not in _PLACES:
            for part in _parts(getattr(node, f.name)):
                yield from _met(part, always and n.always_worked_out(node, f.name))


def _parts(value: Any) -> Iterator[n.Node]:
    """The nodes a field holds: a node, or those in a tuple (a call's named arguments are
    (name, node) pairs)."""
    if isinstance(value, n.Node):
        yield value
    elif isinstance(value, tuple):
        for v in value:
            yield from _parts(v)


def _worth(node: n.Node) -> bool:
    """A part whose reading through a name costs less than working it out again: a call, a
    comprehension, or a few steps of lookups and arithmetic (`option.face` is one table
    lookup, as cheap as the name)."""
    return isinstance(node, (n.Call, n.Comprehension)) or _size(node) >= 5


def repeated(score: n.Node, per_option: set[str]) -> list[n.Node]:
    """The parts of `score` to name, largest first, each as its first occurrence (whose places
    an error inside it is located at): see the module's docstring."""
    seen: dict[Any, list[tuple[n.Node, bool]]] = {}
    for part, always in _met(score, True):
        if part is not score:
            seen.setdefault(shape(part), []).append((part, always))
    found = [(_size(met[0][0]), i, met[0][0]) for i, met in enumerate(seen.values())
             if len(met) > 1 and met[0][1] and _worth(met[0][0])
             and mentions(met[0][0], per_option)]
    return [part for _, _, part in sorted(found, key=lambda f: (-f[0], f[1]))]


def replaced(score: n.Node, part: n.Node, name: str) -> n.Node:
    """`score` with each occurrence of `part` (outside comprehensions) read as `name`."""
    want = shape(part)

    def swap(node: Any) -> Any:
        if isinstance(node, tuple):
            return tuple(swap(x) for x in node)
        if not isinstance(node, n.Node):
            return node
        if shape(node) == want:
            return n.Name(node.pos, name)
        if isinstance(node, n.Comprehension):
            return node
        changed = {f.name: swap(getattr(node, f.name)) for f in fields(node)
                   if f.name not in _PLACES}
        return type(node)(**{f.name: getattr(node, f.name) for f in fields(node)
                             if f.name in _PLACES}, **changed)
    return swap(score)


def bound_first(src: str, names: set[str]) -> tuple[str, set[str]]:
    """`src`, one line of generated expression, in which each of `names` read through a
    first-reading test whose first reading in Python's order is worked out whenever `src` is
    (not in a branch of a conditional, the right of `and`/`or`, a chained comparison's later
    part, a comprehension or a lambda) binds the name there, `(N := value)`, and its later
    readings are `N`; with the names so bound (the others are left as they were). The value
    is worked out at the same place as before, once; the later readings read what the test
    would have found."""
    tree = expression_tree(src)
    if tree is None:
        return src, set()
    if any(getattr(x, "end_lineno", 1) != 1 for x in ast.walk(tree)):
        return src, set()
    bound: set[str] = set()
    unsure: set[str] = set()
    edits: list[tuple[int, int, str]] = []  # byte offsets (as ast counts), the text there

    def visit(node: ast.AST, sure: bool) -> None:
        name = memo_name(node) if isinstance(node, ast.IfExp) else None
        if name is not None and name in names:
            if name in bound:
                edits.append((node.col_offset, node.end_col_offset, name))
                return
            value = node.orelse.value  # type: ignore[attr-defined]
            if sure and name not in unsure:
                bound.add(name)
                edits.append((node.col_offset, value.col_offset, f"({name} := "))
                edits.append((value.end_col_offset, node.end_col_offset, ")"))
            else:
                unsure.add(name)
            visit(value, sure and name in bound)
            return
        if isinstance(node, ast.IfExp):
            parts = [(node.test, sure), (node.body, False), (node.orelse, False)]
        elif isinstance(node, ast.BoolOp):
            parts = [(v, sure and i == 0) for i, v in enumerate(node.values)]
        elif isinstance(node, ast.Compare):
            parts = [(node.left, sure),
                     *((c, sure and i == 0) for i, c in enumerate(node.comparators))]
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp,
                               ast.Lambda, ast.Dict)):
            parts = [(x, False) for x in ast.iter_child_nodes(node)]  # no `:=` may go there
        else:
            parts = [(x, sure) for x in ast.iter_child_nodes(node)]
        for part, s in parts:
            visit(part, s)

    visit(tree.body, True)
    if not bound:
        return src, set()
    out = src.encode()
    for start, end, text in sorted(edits, reverse=True):
        out = out[:start] + text.encode() + out[end:]
    return out.decode(), bound
