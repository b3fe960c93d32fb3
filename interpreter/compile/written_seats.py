"""Phase 5b, compile for simulation (specializer): the checks after an operation tested only
at the seats it wrote.

Input: the generated tests of the checks `for_each: player` (one Python condition per seat,
as checks.py writes them: `not E[2] and (P_points[2] <= 0)`), the per-player lists' first values
(the game function's opening lines) and the Python targets an operation wrote (`P_points[cur]`).
Output: whether those tests may be narrowed (`settle`), and the seats an operation wrote
(`seats_written`).

Why: after every operation that writes what a check reads, the generated code tests the
check for every seat still in (`not E[0] and ... or not E[1] and ...`) to decide whether the
rounds of checks run at all. When each seat's test reads only that seat's values (its own
per-player state and whether it is out) and cannot fail, and no seat's test holds when the
game begins, then after each round of checks none holds (the rounds run until a round where
none does), and only an operation's writes can change a test. A test of a seat the operation
did not write is then still false, so only the written seats need testing: the answer is the
full test's. (The test of a check not for each player is kept as it is; no test may fail,
so none is met in another order.) A game that starts from a position (a logged game) is not
narrowed: its values were not the ones the game begins with.
"""

from __future__ import annotations

import ast
import re

from interpreter.compile.peephole import line_indent
from interpreter.compile.trees import expression_tree

_TARGET = re.compile(r"(P_\w+)\[(\w+)\]")
# What a seat's test may be made of besides reads of that seat's values: constants and the
# operations of numbers and truths (no call, no name bound, nothing looked up by a value).
_PLAIN = (ast.Expression, ast.BoolOp, ast.UnaryOp, ast.Compare, ast.BinOp, ast.IfExp,
          ast.Constant, ast.Load, ast.And, ast.Or, ast.Not, ast.USub, ast.Add, ast.Sub,
          ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot)
_COMPARE = {ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
            ast.Lt: lambda a, b: a < b, ast.LtE: lambda a, b: a <= b,
            ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
            ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b}


def seats_written(targets: list) -> tuple[str, ...] | None:
    """The seats (a name or a number each) the targets write, where every target is a
    per-player value at a plain seat (`P_points[cur]`); else None."""
    seats: list[str] = []
    for t in targets:
        m = _TARGET.fullmatch(t) if isinstance(t, str) else None
        if m is None:
            return None
        seats.append(m.group(2))
    return tuple(dict.fromkeys(seats)) or None


def own_seat(src: str, seat: int, per_player: set[str]) -> bool:
    """Whether the test `src` of seat `seat` reads only that seat's values: its per-player
    lists and `E` at that seat, with constants and plain operations."""
    tree = expression_tree(src)
    if tree is None:
        return False
    allowed: set[int] = set()
    for x in ast.walk(tree):
        if isinstance(x, ast.Subscript) and isinstance(x.value, ast.Name) and (
                x.value.id == "E" or x.value.id in per_player) and \
                isinstance(x.slice, ast.Constant) and x.slice.value == seat and \
                type(x.slice.value) is int:
            allowed.add(id(x.value))
            allowed.add(id(x.slice))
    for x in ast.walk(tree):
        if isinstance(x, ast.Subscript):
            if id(x.value) not in allowed:
                return False
        elif isinstance(x, ast.Name):
            if id(x) not in allowed:
                return False
        elif not isinstance(x, _PLAIN):
            return False
    return True


def first_values(lines: list[str], names: set[str]) -> dict[str, list] | None:
    """The lists `names` start the game with, read from the game function's opening lines
    (`    P_points = [5, 5, 5, 5]`, `    E = [False] * 4`); None where one is not a literal."""
    found: dict[str, list] = {}
    for line in lines:
        name, eq, value = line.strip().partition(" = ")
        if not eq or name not in names or name in found or line_indent(line) != 4:
            continue  # the function's own lines, not a block's
        m = re.fullmatch(r"\[False\] \* (\d+)", value)
        try:
            found[name] = [False] * int(m.group(1)) if m else ast.literal_eval(value)
        except (ValueError, SyntaxError):
            return None
        if not isinstance(found[name], list):
            return None
    return found if set(found) == names else None


def settle(tests: list[tuple[str, int]], per_player: set[str], lines: list[str]) -> bool:
    """Whether every seat's test (`src`, seat) reads only that seat's values and none holds
    with the values the game begins with (so after every round of checks, none holds)."""
    if not all(own_seat(src, seat, per_player) for src, seat in tests):
        return False
    names = {x.id for src, _ in tests for x in ast.walk(ast.parse(src, mode="eval"))
             if isinstance(x, ast.Name)}
    start = first_values(lines, names)
    if start is None:
        return False
    for src, _ in tests:
        try:
            if _value(ast.parse(src, mode="eval").body, start):
                return False
        except (TypeError, KeyError, IndexError):  # a value the test cannot take
            return False
    return True


def _value(x: ast.expr, lists: dict[str, list]):
    """A test made of what `own_seat` allows, worked out on the lists' values."""
    if isinstance(x, ast.Constant):
        return x.value
    if isinstance(x, ast.Subscript):
        return lists[x.value.id][x.slice.value]
    if isinstance(x, ast.BoolOp):
        v = None
        for part in x.values:
            v = _value(part, lists)
            if (not v) if isinstance(x.op, ast.And) else v:
                return v
        return v
    if isinstance(x, ast.UnaryOp):
        v = _value(x.operand, lists)
        return (not v) if isinstance(x.op, ast.Not) else -v
    if isinstance(x, ast.BinOp):
        a, b = _value(x.left, lists), _value(x.right, lists)
        return a + b if isinstance(x.op, ast.Add) else a - b
    if isinstance(x, ast.IfExp):
        return _value(x.body if _value(x.test, lists) else x.orelse, lists)
    if isinstance(x, ast.Compare):
        left = _value(x.left, lists)
        for op, right in zip(x.ops, x.comparators, strict=True):
            r = _value(right, lists)
            if not _COMPARE[type(op)](left, r):
                return False
            left = r
        return True
    raise TypeError(type(x).__name__)
