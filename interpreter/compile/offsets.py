"""Phase 5b, compile (faces kept as indexes): arithmetic and comparisons of whole numbers held
as a source plus a constant.

Input: two written operands (`Ex`), one or both of them a die's face that the generated code
keeps as its index (interpreter/compile/base.py `_Die.off`: faces 1 to 6 held as 0 to 5), or
a sum, difference or multiple of such faces (`Ex.raw`). Output: the Python source of the
operator, with the constants folded: `a.face + b.face > c.face + d.face` compares the indexes
(`(F_a + F_b) > (F_c + F_d)`), `10 * a.face + b.face` is `((10 * F_a) + F_b) + 11`. None where
the operator gains nothing so, and the caller writes it on the faces. Also `total` and
`doubles` of dice known now, which read the indexes, and a zone's count compared with 0 or 1
where that asks whether the zone is empty: a test of its list (`not ZP_hand[cur]`), which
costs a third of `len(ZP_hand[cur]) == 0`, a call and a comparison.

Why: adding the first face to every die rolled costs as much as a quarter of a roll's work in
the generated code of a game that rolls several dice and compares their sums, where a
hand-written game simply draws 0 to 5 and compares those.

What stays exact: a face that is none (the die not rolled yet) is none in the index too, so
`==` and `!=` give what they gave on the faces where both sides keep the same constant (or the
other side is a literal: `none == 2` is false as `none == 3` was), and every other operator
raises Python's `TypeError` on it as it did on the face (the caller's rule error). Where a
result would be the bare index of a die that may be none, it is written `(F + 0)`, so it
raises still. Only operators the caller writes plain come here: the checked version's and a
located expression's (`_plus`, `_times`, `_ordered`) take the faces themselves, for the words
of their errors.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable

from interpreter.compile.base import _NO, Ex, Unsupported, _Die, _lit, face_src
from interpreter.compile.trees import expression_tree

_ATOM = re.compile(r"-?\d+(\.\d+)?|[A-Za-z_]\w*")  # a name or a number: read twice, no cost


def _parts(e: Ex) -> tuple[str | None, int] | None:
    """`e` as (source, constant): its raw parts, a literal's (none, value), or (source, 0) of
    any other whole number."""
    if e.raw is not None:
        return e.raw
    if type(e.const) is int:
        return None, e.const
    return (e.src, 0) if e.kind == "int" else None


def number(e: Ex) -> str:
    """`e`'s source where a none would raise anyway (an ordering, a sum): a face kept as its
    index is the index plus its constant, with no test for none."""
    return e.src if e.raw is None else _plus(*e.raw)


def _plus(src: str, k: int) -> str:
    if k == 0:
        # A bare index (`F_a`, a set of one die's `(F_one_0)`) may be none: it must raise.
        return f"({src} + 0)" if src.strip("()").isidentifier() else src
    return f"({src} + {k})" if k > 0 else f"({src} - {-k})"


def compared(op: str, a: Ex, b: Ex) -> str | None:
    """`a op b` (`==`, `!=`, `<`, `<=`, `>`, `>=`) on the indexes, where one side keeps a
    constant and the other keeps the same (or is a literal, which takes the difference); a
    zone's count against 0 or 1 where that asks whether it is empty (`emptiness`)."""
    emptied = emptiness(op, a, b)
    if emptied is not None:
        return emptied
    pa, pb = _parts(a), _parts(b)
    if (a.raw is None and b.raw is None) or pa is None or pb is None:
        return None
    (sa, ka), (sb, kb) = pa, pb
    if sa is None:
        return f"({ka - kb} {op} {sb})" if sb is not None else None
    if sb is None:
        return f"({sa} {op} {kb - ka})"
    if ka == kb:
        return f"({sa} {op} {sb})"
    if op in ("==", "!="):  # a constant added to an index that is none would raise
        return None
    return f"({_plus(sa, ka - kb)} {op} {sb})"


def least_of(op: str, a: Ex, b: Ex) -> int | None:
    """The least value of `a + b` or `a - b` of whole numbers, where known: from each side's
    least (`Ex.least`: an option of `range(1, n)`) or value known now; of `a - b` only where
    `b` is known now (its most is its value)."""
    la = a.const if type(a.const) is int else a.least
    lb = b.const if type(b.const) is int else b.least
    if la is None or lb is None or (op == "-" and type(b.const) is not int):
        return None
    return la + lb if op == "+" else la - lb


# `count(zone) OP k` that holds exactly where the zone is empty (True) or is not (False).
_EMPTY = {("==", 0): True, ("<=", 0): True, ("<", 1): True,
          ("!=", 0): False, (">", 0): False, (">=", 1): False}
_MIRRORED = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


def emptiness(op: str, a: Ex, b: Ex) -> str | None:
    """`count(zone) op k` (either side) where that asks whether the zone is empty: a test of
    its list itself (`not xs`, `not not xs`: true or false), no call of `len`. A zone's list is
    always a list, so the test is the count's; reading it fails where the count's would.
    None for any other comparison."""
    if not a.zone and b.zone:
        a, b, op = b, a, _MIRRORED[op]
    if not (a.zone and a.kind == "int" and a.src.startswith("len(")) or type(b.const) is not int:
        return None
    empty = _EMPTY.get((op, b.const))
    if empty is None:
        return None
    return f"(not {a.src[4:-1]})" if empty else f"(not not {a.src[4:-1]})"


def combined(op: str, a: Ex, b: Ex) -> tuple[str, tuple[str, int] | None] | None:
    """`a op b` (`+`, `-`, or `*` by a literal) with the constants folded: its source and its
    raw parts (none where the constant is 0)."""
    pa, pb = _parts(a), _parts(b)
    if (a.raw is None and b.raw is None) or pa is None or pb is None:
        return None
    (sa, ka), (sb, kb) = pa, pb
    if op == "*":
        if sa is None and a.const is not _NO:
            (sa, ka), (sb, kb) = (sb, kb), (sa, ka)  # the literal on the right
        if sa is None or sb is not None:
            return None
        src, k = f"({kb} * {sa})", kb * ka
    elif sa is not None and sb is not None:
        src, k = f"({sa} {op} {sb})", ka + kb if op == "+" else ka - kb
    elif sa is not None:
        src, k = sa, ka + kb if op == "+" else ka - kb
    elif op == "+":
        src, k = sb, ka + kb
    else:  # a literal less a face: the literal less the constant, less the index
        src, k = f"({ka - kb} - {sb})", 0
    return _plus(src, k), ((src, k) if k else None)


def extreme(f: str, args: list[Ex]) -> tuple[str, tuple[str, int] | None]:
    """`max` or `min` of numbers (which raises on none, as the built-in's comparisons do):
    of indexes that keep the same constant, the constant added once to the result."""
    ks = {a.raw[1] if a.raw is not None else None for a in args}
    if len(ks) == 1 and None not in ks:
        src = chosen(f, [a.raw[0] for a in args])
        k = ks.pop()
        return _plus(src, k), (src, k)
    return chosen(f, [number(a) for a in args]), None


def chosen(f: str, srcs: list[str]) -> str:
    """`min` or `max` of the sources; of two names or numbers, a conditional: a call of the
    built-in costs several times their comparison. As the built-in, the first unless the
    second is less (more), and a comparison with none raises Python's `TypeError`."""
    if len(srcs) == 2 and all(_ATOM.fullmatch(x) for x in srcs):
        x, y = srcs
        return f"({y} if {y} {'<' if f == 'min' else '>'} {x} else {x})"
    return f"{f}({', '.join(srcs)})"


def listed_extreme(f: str, src: str, temp: Callable[[], str]) -> str | None:
    """`max` or `min` of a list display written item by item, each kept or left out by its
    own test (`[*((x,) if c else ()), y]`: the writer's unrolled filter, such as the values
    of the other teams), as a running value: no list made and no call, each test and item
    worked out once, in the display's order (two items: nested conditionals). As the
    built-in: the first of equal values, its own comparison of each item with the value so
    far (`item > best`), and 0 for no item. None for any other source."""
    parts = _listed(src)
    if parts is None:
        return None
    m, x = temp(), temp()
    better = ">" if f == "max" else "<"
    if len(parts) == 2:  # nested conditionals: no tuple of steps, no test of none so far
        (c0, x0), (c1, x1) = parts
        both = f"({x} if ({x} := {x1}) {better} {m} else {m})"
        second = both if c1 is None else f"({both} if {c1} else {m})"
        alone = x1 if c1 is None else f"({x1} if {c1} else 0)"
        first = f"(({m} := {x0}),)" if c0 is None else f"{c0} and (({m} := {x0}),)"
        return f"({second} if {first} else {alone})"
    steps = []
    for i, (test, item) in enumerate(parts):
        step = item if i == 0 else \
            f"({item} if {m} is _U else ({x} if ({x} := {item}) {better} {m} else {m}))"
        if test is None:
            steps.append(f"({m} := {step})")
        else:
            steps.append(f"(({m} := {step}) if {test} else {'_U' if i == 0 else m})")
    if parts[0][0] is not None:  # the first left out: the value so far is none yet
        steps[0] = f"({m} := {steps[0]})"
    return f"({', '.join(steps)}, (0 if {m} is _U else {m}))[-1]"


@functools.lru_cache(maxsize=256)
def _listed(src: str) -> tuple[tuple[str | None, str], ...] | None:
    """The (test or None, item) of each item of a list display `listed_extreme` takes."""
    if not src.startswith("[") or "*((" not in src:
        return None
    tree = expression_tree(src)
    if tree is None:
        return None
    node = tree.body
    if not isinstance(node, ast.List) or not node.elts:
        return None
    parts: list[tuple[str | None, str]] = []
    for elt in node.elts:
        if not isinstance(elt, ast.Starred):
            parts.append((None, ast.unparse(elt)))
            continue
        kept = elt.value
        if not (isinstance(kept, ast.IfExp) and isinstance(kept.body, ast.Tuple)
                and len(kept.body.elts) == 1 and isinstance(kept.orelse, ast.Tuple)
                and not kept.orelse.elts):
            return None
        parts.append((ast.unparse(kept.test), ast.unparse(kept.body.elts[0])))
    return tuple(parts)


def dice_total(ds: tuple[_Die, ...]) -> Ex:
    """`total` of dice known now: the sum of their indexes and of their first faces."""
    if type(ds[0].faces[0]) is not int:
        raise Unsupported("total of text faces")
    raw = "(" + " + ".join(d.var for d in ds) + ")" if ds else "0"
    off = sum(d.off for d in ds)
    return Ex(_plus(raw, off) if off else raw, "int",
              bound=sum(max(abs(x) for x in d.faces) for d in ds),
              raw=(raw, off) if off else None)


def dice_doubles(ds: tuple[_Die, ...]) -> Ex:
    """`doubles` of dice known now: all faces equal (two unrolled dice never raise, even
    before a roll); dice whose indexes count from the same first face compare the indexes."""
    if len(ds) < 2:
        return _lit(False)
    same = len({d.off for d in ds}) == 1
    return Ex("(" + " == ".join(d.var if same else face_src(d) for d in ds) + ")", "bool", True)
