"""Phase 5, compile (dependencies): which names an expression reads, and which an effect writes.

Input: expression values from the ruleset; set/add targets. Output: sets of names (bare names,
field names, and the fields built-in functions read for you, such as a die's `face` for
`total`). The engine re-examines checks and the end condition after an operation only when the
operation wrote something they read; `None` stands for "anything may have changed" (zones,
time), which always re-examines. Conservative by construction: a name that might be read is in
the set.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from dsl import nodes as n
from interpreter.engine.compile_expr import node_of

# A timer's fields that time changes (dsl/symbols.py TIMER_FIELDS): reading one reads the
# clock. (Read conservatively by name: a ruleset's own field of that name counts too.)
CLOCK_FIELDS = frozenset({"running", "remaining", "elapsed"})

# Fields that built-in functions read from their arguments.
IMPLICIT = {
    "faces": {"face"}, "total": {"face"}, "doubles": {"face"}, "of_a_kind": {"face"},
    "highest": {"face"}, "lowest": {"face"}, "opponents": {"eliminated"},
    "next_player": {"eliminated"}, "remaining": None, "elapsed": None,
}


def names_read(value: Any) -> frozenset | None:
    """The names an expression value reads, or None when it reads the clock."""
    found = _reads(value, bind=False)
    return None if found is None else found[0] | found[1]


def target_writes(text: str) -> str | None:
    """The name a set/add target writes: `x` -> x, `p.score` -> score, `m[k]` -> m's name."""
    node = node_of(text)
    while isinstance(node, n.Index):
        node = node.obj
    if isinstance(node, n.Name):
        return node.id
    if isinstance(node, n.Field):
        return node.name
    return None


def union(sets) -> frozenset | None:
    out: set[str] = set()
    for s in sets:
        if s is None:
            return None
        out |= s
    return frozenset(out)


def free_reads(value: Any) -> tuple[frozenset, frozenset] | None:
    """The bare names an expression value reads that no comprehension in it binds, and the
    fields it reads (those built-in functions read for you included); None when it reads the
    clock. Unlike `names_read`, a comprehension's own name is not counted: `p` in
    `any(p.score >= goal for p in players)` reads nothing outside the expression."""
    return _reads(value, bind=True)


def _reads(value: Any, bind: bool) -> tuple[frozenset, frozenset] | None:
    """The bare names and the fields an expression value reads; a comprehension's own name
    counted only when `bind` is false; None when it reads the clock."""
    names: set[str] = set()
    fields_read: set[str] = set()

    def walk(node: Any, bound: frozenset) -> bool:
        if isinstance(node, tuple):
            return all(walk(x[1] if isinstance(x, tuple) and len(x) == 2 and isinstance(
                x[1], n.Node) else x, bound) for x in node)  # a keyword argument's value
        if not isinstance(node, n.Node):
            return True
        if isinstance(node, n.Name):
            if node.id not in bound:
                names.add(node.id)
            return True
        if isinstance(node, n.Comprehension):
            inner = bound | {node.var} if bind else bound
            return walk(node.iterable, bound) and walk(node.element, inner) and walk(
                node.cond, inner)
        if isinstance(node, n.Field):
            if node.name in CLOCK_FIELDS:
                return False  # may change as time passes, with no operation writing it
            fields_read.add(node.name)
        elif isinstance(node, n.Call):
            extra = IMPLICIT.get(node.func, set())
            if extra is None:
                return False
            fields_read.update(extra)
        return all(walk(getattr(node, f.name), bound) for f in fields(node) if f.name != "pos")

    if not walk(node_of(value), frozenset()):
        return None
    return frozenset(names), frozenset(fields_read)
