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

# Fields that built-in functions read from their arguments.
IMPLICIT = {
    "faces": {"face"}, "total": {"face"}, "doubles": {"face"}, "of_a_kind": {"face"},
    "highest": {"face"}, "lowest": {"face"}, "opponents": {"eliminated"},
    "next_player": {"eliminated"}, "remaining": None, "elapsed": None,
}


def names_read(value: Any) -> frozenset | None:
    """The names an expression value reads, or None when it reads the clock."""
    out: set[str] = set()

    def walk(node) -> bool:
        if isinstance(node, n.Name):
            out.add(node.id)
        elif isinstance(node, n.Field):
            out.add(node.name)
        elif isinstance(node, n.Call):
            extra = IMPLICIT.get(node.func, set())
            if extra is None:
                return False
            out.update(extra)
        for f in fields(node):
            v = getattr(node, f.name)
            items = v if isinstance(v, tuple) else (v,)
            for x in items:
                if isinstance(x, tuple) and len(x) == 2 and isinstance(x[1], n.Node):
                    x = x[1]  # a keyword argument
                if isinstance(x, n.Node) and not walk(x):
                    return False
        return True

    return frozenset(out) if walk(node_of(value)) else None


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
