"""Phase 5c, compile for simulation (specializer): a whole number stored only to be compared,
kept untested in the fast version.

Input: the source of a generated game function's fast version, finished (after loops.py).
Output: the same source without the size tests (`if not -SAFE <= _t <= SAFE: raise
_Fallback()`) of the values that are only stored into names read nowhere but as a side of a
comparison.

Why: the fast version keeps every whole number it stores within ±SAFE_INT
(interpreter/compile/numbers.py `sized`), so that its `+` and `-` need no test against the
language's limit (MAX_INT, 2**63 - 1): a value made of values within ±SAFE_INT is far below
it, but one stored and added to again (`t = t + t` in a loop) could grow past it unseen.
A name that is only compared (`attack_total != defence_total`) never takes part in any
arithmetic, so it cannot feed such growth: what it holds need only be what the interpreter
holds, and a sum of a few values within ±SAFE_INT is, with no error (far below MAX_INT).

What stays exact, and what is refused (the test kept):
- the tested value is a temporary (`_tN = EXPR`), read nowhere but by its test and by plain
  stores of it into names (`V_total = _tN`);
- EXPR is made of the game's stored values (global and per-player values, dice faces), whole
  constants within ±SAFE_INT, `+`, `-`, `min` and `max` of several and conditionals (whose
  tests may compare anything): at most a few thousand values each within ±SAFE_INT added
  up, well below MAX_INT (a temporary, which may hold a sum of a long list, is refused; a
  name only compared is never a part, being no part of any arithmetic);
- each of those names is read only as a side of a comparison (`==`, `<`, `is`...) and
  written only by plain assignments (no `+=`), anywhere in the function: a line the pass
  cannot read as a statement keeps every test.
The checked and logged versions are not passed through it: the checked one tests every
operation where the interpreter does, and the logged one shows the values it stores.
"""

from __future__ import annotations

import ast
import re

from interpreter.compile.base import SAFE_INT
from interpreter.compile.loops import parsed_line
from interpreter.compile.peephole import block_end, line_indent
from interpreter.compile.trees import expression_tree

_TESTED = re.compile(rf"(?:(_t\d+) is not None and )?not -{SAFE_INT} <= (_t\d+) <= {SAFE_INT}")
_MOST_TERMS = 4096  # values within ±SAFE_INT (2**40) added up stay far below 2**63
_STORED = re.compile(r"\s*([A-Za-z_]\w*) = (_t\d+)")
# The game's stored whole numbers, each within ±SAFE_INT (numbers.py `sized`) or a die's
# face: global values and dice faces; per-player values and faces of dice in zones.
_STATE = re.compile(r"(V|F)_\w+")
_LISTS = re.compile(r"P_\w+|F")


def _only_compared(name: str, lines: list[str]) -> bool:
    """Whether every reading of `name` in the lines is a side of a comparison, and every
    writing a plain assignment (a line not read as a statement: not sure, False)."""
    pattern = re.compile(rf"\b{re.escape(name)}\b")
    for line in lines:
        if not pattern.search(line):
            continue
        stmt = parsed_line(line)[0]
        if stmt is None:
            return False
        sides = {id(side) for node in ast.walk(stmt) if isinstance(node, ast.Compare)
                 for side in (node.left, *node.comparators)}
        for node in ast.walk(stmt):
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and \
                    node.target.id == name:
                return False
            if isinstance(node, ast.Name) and node.id == name and isinstance(
                    node.ctx, ast.Load) and id(node) not in sides:
                return False
    return True


def _small(src: str) -> bool:
    """Whether EXPR is made of what the module allows, with few enough values."""
    tree = expression_tree(src)
    if tree is None:
        return False
    terms = _terms(tree.body)
    return terms is not None and terms <= _MOST_TERMS


def _terms(node: ast.expr) -> int | None:
    """How many values within ±SAFE_INT `node` adds up at most (None: not one the module
    allows). Only the game's stored values are such: a temporary may hold a sum of many."""
    if isinstance(node, ast.Constant):
        return 1 if node.value is None or type(node.value) is int and \
            abs(node.value) <= SAFE_INT else None
    if isinstance(node, ast.Name):
        return 1 if _STATE.fullmatch(node.id) else None
    if isinstance(node, ast.Subscript):  # an item of a per-player list or of the faces
        return 1 if isinstance(node.value, ast.Name) and _LISTS.fullmatch(node.value.id) \
            else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Sub)):
        parts = [_terms(node.left), _terms(node.right)]
        return None if None in parts else sum(parts)  # type: ignore[arg-type]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _terms(node.operand)
    if isinstance(node, ast.IfExp):  # its test may compare anything
        parts = [_terms(node.body), _terms(node.orelse)]
        return None if None in parts else max(parts)  # type: ignore[type-var]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id in ("min", "max") and len(node.args) > 1 and not node.keywords:
        parts = [_terms(x) for x in node.args]
        return None if None in parts else max(parts)  # type: ignore[type-var]
    return None


def untested(src: str) -> str:
    """`src` without the size tests the module lets go."""
    if "raise _Fallback()" not in src:
        return src
    lines = src.split("\n")
    drop: list[tuple[int, int]] = []  # (first, past last) line of each test to drop
    compared: dict[str, bool] = {}
    for i, line in enumerate(lines):
        text = line.strip()
        if not (text.startswith("if ") and text.endswith(":")):
            continue
        m = _TESTED.fullmatch(text[3:-1])
        if m is None or (m.group(1) and m.group(1) != m.group(2)) or i == 0:
            continue
        temp, ind = m.group(2), line_indent(line)
        made = lines[i - 1].strip()
        if line_indent(lines[i - 1]) != ind or not made.startswith(f"{temp} = ") or \
                not _small(made[len(temp) + 3:]):
            continue
        end = block_end(lines, i)
        if lines[end - 1].strip() != "raise _Fallback()":
            continue
        use = re.compile(rf"\b{temp}\b")
        stores = []
        for j, other in enumerate(lines):
            if j in (i - 1, i) or not use.search(other):
                continue
            s = _STORED.fullmatch(other)
            if s is None or s.group(2) != temp:
                break
            stores.append(s.group(1))
        else:
            if stores and all(compared.setdefault(x, _only_compared(x, lines)) for x in stores):
                drop.append((i, end))
    for first, past in reversed(drop):
        del lines[first:past]
    return "\n".join(lines)
