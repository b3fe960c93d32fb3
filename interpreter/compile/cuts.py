"""Phase 5b, compile for simulation (specializer): the generators the writer marks for the
loops pass.

Input: the source of a list comprehension the expression writer made
(interpreter/compile/exprs.py, kinds.py, numbers.py, zones.py). Output: the source of a
built-in of it written so that interpreter/compile/loops.py knows what it may do with it: a
generator under `any`, `all` or `next` stops at the first item that decides it (`short_cut`,
and `found_in` for a value among the faces of dice), one under `sum` holds whole numbers,
added as they come (`running_sum`). Anything else is written
with the list, which the loops pass builds whole.
"""

from __future__ import annotations

import ast
import functools
import re

from interpreter.compile.base import FACES_BY
from interpreter.compile.trees import expression_tree

# A list read plainly, which cannot fail: a name, a player's zone or state at a seat.
_PLAIN = re.compile(r"[A-Za-z_]\w*|Z?P_\w+\[(?:\d+|cur)\]")
_END = re.compile(rf"\(({_PLAIN.pattern})\[(0|-1)\] if ({_PLAIN.pattern}) else None\)")
# The faces of the dice a list read plainly holds (zones.py `faces`: FACES_BY reads `F`, the
# faces' table).
_FACES = re.compile(rf"list\(map\({FACES_BY}, ([A-Za-z_]\w*(?:\[\w+\])?)\)\)")


def short_cut(f: str, src: str, safe: bool) -> str | None:
    """`any`, `all` or `first` (f) of the list comprehension `src`, written to stop at the
    first item that decides it (a generator, which the loops pass writes as a loop with a
    `break`), or None: for another built-in (`last`), a list that is not one comprehension
    whole, or one whose items may fail (not `safe`): the interpreter works out every item, and
    an item it would fail on after the deciding one must not be passed over. The work meter
    is not told otherwise: a comprehension counts its items before the first."""
    if not safe or f not in ("any", "all", "first") or not whole_listcomp(src):
        return None
    inner = src[1:-1]
    return f"next(({inner}), None)" if f == "first" else f"{f}({inner})"


def end_of(f: str, src: str, safe: bool, t: str) -> str:
    """`first` or `last` (f) of the list `src`: the item, or none for an empty list (`t`
    holds the list; a list read plainly, which cannot fail, is read twice instead, so that
    no name is bound and the item may be worked out before a comprehension's items:
    `plain_end`), or the generator that stops at the first item (`short_cut`)."""
    at = 0 if f == "first" else -1
    if _PLAIN.fullmatch(src):
        return short_cut(f, src, safe) or f"({src}[{at}] if {src} else None)"
    return short_cut(f, src, safe) or f"({t}[{at}] if ({t} := {src}) else None)"


def plain_end(src: str) -> bool:
    """Whether `src` is `end_of` a list read plainly: it cannot fail and binds no name."""
    m = _END.fullmatch(src)
    return m is not None and m[1] == m[3]


@functools.lru_cache(maxsize=1024)
def whole_listcomp(src: str) -> bool:
    """Whether `src` is one list comprehension, whole (its brackets open and close it)."""
    tree = expression_tree(src)
    return tree is not None and isinstance(tree.body, ast.ListComp)


def running_sum(src: str) -> str | None:
    """`sum` of the list comprehension `src` of whole numbers, as a generator (no addition of
    whole numbers fails or rounds, so adding each item as it comes gives the built-in's sum
    and meets an item's failure at the same item); None for a list that is not one
    comprehension whole."""
    return f"sum({src[1:-1]})" if whole_listcomp(src) else None


def found_in(x: str, listed: str, t: str, c: str) -> str | None:
    """`x in listed` where `listed` is the faces of the dice of a list read plainly (`drawn.face
    in faces(current.hand)`): `any` of a generator comparing each face with `x` (held in `t`,
    worked out first, as the operand of `in` is), which the loops pass writes as a loop
    that stops at the first equal face, with no list made. A face is a whole number or none,
    on which Python's `in` is `==`, and reading one cannot fail. None for another list."""
    m = _FACES.fullmatch(listed)
    if m is None:
        return None
    return f"any(F[{c}] == {t} for {t} in ({x},) for {c} in {m[1]})"
