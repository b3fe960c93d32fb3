"""Phase 5b, compile (whole numbers): the checked version of a generated function.

Input: nothing (definitions the specializer binds into a function's names). Output: the
arithmetic of the *checked* version of a ruleset's generated function, which tests every
`+`, `-`, `*`, `add`, `sum`, `floor`, `ceil` and `round` of whole numbers against the
language's limit (dsl/builtins.py MAX_INT) exactly where the interpreter tests them
(dsl/compiler.py `_add`, `_times`, steps.py `add`, the built-ins' `sized`), and stops the game
there (`Stop`, the interpreter's error); `checked_numbers`, the context in which the
specializer writes it; and `NumberWriter.sized`, the test of a value a write stores, in
either version.

The fast version keeps whole numbers within ±SAFE_INT (interpreter/compile/base.py): far below
the limit, so a `+` needs no test. A game that leaves that range (`Fallback`) is played again,
from its seed, by the checked version of the same code (`Specialized.play`,
`meeple run`'s hand-over): written by the same generator, only its arithmetic differs. A
ruleset whose own numbers (a parameter, an initial value) lie past ±SAFE_INT is written checked
from the start.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from dsl import nodes as n
from dsl.builtins import MAX_INT, MAX_ITEMS, MAX_TEXT, PAST_LIMIT, EvalError, half_away
from dsl.compiler import builtin_said, cannot_work
from interpreter.compile.base import (
    _NO,
    _NUMS,
    COUNTS_WORK,
    INT_RANGE,
    SAFE_INT,
    Ex,
    Stop,
    Unsupported,
    made_new,
    past_longest,
    refused,
    stored,
)
from interpreter.compile.cuts import running_sum
from interpreter.compile.trees import expression_tree

_BITS = MAX_INT.bit_length() + 1


def never_none(src: str) -> bool:
    """Whether the source of a whole number is an arithmetic operation (`a + b`, `-a`): its
    value is a number, or the operation fails on a none (a die not rolled) before any test
    reads it, as the interpreter's does."""
    tree = expression_tree(src)
    if tree is None:
        return False
    node = tree.body
    return isinstance(node, ast.BinOp) or isinstance(node, ast.UnaryOp) and isinstance(
        node.op, ast.USub)


@contextmanager
def checked_numbers(on: bool) -> Iterator[None]:
    """While the checked version is written (`on`), literals go up to MAX_INT."""
    INT_RANGE[0] = MAX_INT if on else SAFE_INT
    try:
        yield
    finally:
        INT_RANGE[0] = SAFE_INT


def _past(site: tuple | None) -> Stop:
    """The stop of a whole number past the limit: at `site` where the operator's place is
    known (interpreter/compile/stops.py `site_arg`), else one the interpreter locates."""
    return Stop(site, PAST_LIMIT) if site is not None else Stop()


def plus(a: Any, b: Any, site: tuple | None = None) -> Any:
    """`+` of numbers, as dsl/compiler.py `_add`: a whole number past the limit stops, as
    does none (`refused`)."""
    try:
        r = a + b
    except TypeError:
        raise refused("+", a, b, site) from None
    if type(r) is int and not -MAX_INT <= r <= MAX_INT:
        raise _past(site)
    return r


def minus(a: Any, b: Any, site: tuple | None = None) -> Any:
    """`-` of numbers, as the interpreter's: a whole number past the limit stops, as does
    none (`refused`)."""
    try:
        r = a - b
    except TypeError:
        raise refused("-", a, b, site) from None
    if type(r) is int and not -MAX_INT <= r <= MAX_INT:
        raise _past(site)
    return r


def times_checked(a: Any, b: Any, site: tuple | None = None) -> Any:
    """`*`, as dsl/compiler.py `_times`: refused before a huge product is made (and on
    none: `refused`)."""
    if type(a) is int and type(b) is int and a and b and (
            a.bit_length() + b.bit_length() > _BITS):
        raise _past(site)
    try:
        r = a * b
    except TypeError:
        raise refused("*", a, b, site) from None
    if type(r) is int and not -MAX_INT <= r <= MAX_INT:
        raise _past(site)
    return r


def whole_checked(value: int, site: tuple | None = None) -> int:
    """A whole number `floor`, `ceil` or `round` made, within the limit (dsl/builtins.py
    `sized`), else `Stop` (at `site`, the call's, where it is known)."""
    if not -MAX_INT <= value <= MAX_INT:
        raise Stop() if site is None else Stop(site)
    return value


def sum_checked(items: Any, site: tuple | None = None) -> Any:
    """`sum` of a list, as dsl/builtins.py `_sum`: past the limit, `Stop` (at `site`, the
    call's, where it is known)."""
    r = sum(items)
    if type(r) is int and not -MAX_INT <= r <= MAX_INT:
        raise Stop() if site is None else Stop(site)
    return r


def called(site: tuple, name: str | tuple, fn: Callable, values: tuple, *more: Any) -> Any:
    """The built-in `name` called where the expression is located (interpreter/compile/
    stops.py `call_at`): `fn` of its arguments `values` (and of `more`, a helper's own site),
    and on values it cannot work with (met as Python's own error, as dsl/compiler.py's `_call`
    meets it: none where it takes numbers, infinity rounded), the interpreter's stop at
    `site`, in dsl/compiler.py's words (`name` may be a tuple: the name, then the words
    that tell each argument, None for the value's own)."""
    try:
        return fn(*values, *more)
    except (EvalError, TypeError, ValueError, ArithmeticError) as err:
        said, *shown = name if type(name) is tuple else (name,)
        if isinstance(err, EvalError):  # the built-in's own error (`text` past the longest)
            raise Stop(site, builtin_said(said, str(err))) from None
        raise Stop(site, cannot_work(said, values, shown)) from None


def most(values: list, default: Any = 0) -> Any:
    """`max` of a list, as the built-in: its `default` (0) for an empty one."""
    return max(values) if values else default


def least(values: list, default: Any = 0) -> Any:
    """`min` of a list, as the built-in: its `default` (0) for an empty one."""
    return min(values) if values else default


def extreme_die(dice: list, faces: list, highest: bool) -> Any:
    """`highest` (or `lowest`) of dice known at run time, a list not empty: the first die of
    the highest (lowest) face, as the built-in (a die not rolled yet: Python's TypeError,
    which `called` tells in the interpreter's words)."""
    return (max if highest else min)(dice, key=faces.__getitem__)


def clamped(x: Any, low: Any, high: Any) -> Any:
    """`clamp`, as the built-in."""
    return max(low, min(high, x))


def within_checked(value: Any, site: tuple | None = None) -> Any:
    """A value a state write stores, within the size limits (texts, lists: else `Stop`, at
    `site` where it is known); its numbers were tested where they were made."""
    kind = type(value)
    if kind in (str, list) and len(value) > (MAX_TEXT if kind is str else MAX_ITEMS):
        raise past_longest(value, site)
    return value


# The names the checked version binds in place of the fast version's.
CHECKED_NAMES = {"_within": within_checked, "_times": times_checked, "_plus": plus,
                 "_minus": minus, "_whole": whole_checked, "_sum": sum_checked}


class NumberWriter:
    """The numeric built-ins in generated expressions: `floor`, `ceil`, `round`, `clamp`,
    and `max`/`min` with a `default`; the range test of a value a write stores (a mixin of
    the specializer's writer)."""

    def past_safe(self, value: str, d: int, none: bool = False) -> None:
        """The fast version's test of a whole number it keeps (`value`: a name or an item):
        past ±SAFE_INT, the checked version plays the seed (`_Fallback`). `none`: the value
        may be none (a die not rolled yet, stored as it is), which passes."""
        test = f"{value} is not None and not" if none else "not"
        self.emit(d, f"if {test} -{SAFE_INT} <= {value} <= {SAFE_INT}:")
        self.emit(d + 1, "raise _Fallback()")

    def sized(self, v: Ex, d: int, into: str | None = None) -> str:
        """The source of a value a write stores (in the temporary `into`, if given), never
        shared with where it was read, within the size limits: what could grow in a loop
        (`x * x`, `t + t`) is tested. A whole number is tested in line (a call of `_within`
        costs ten times as much); the checked version tests them where they are made."""
        src = v.src
        if v.const is _NO and v.kind == "int" and not self.wide and (
                v.bound is None or v.bound > SAFE_INT):
            t = into or self.temp()
            self.emit(d, f"{t} = {src}")
            self.past_safe(t, d, not never_none(src))
            return t
        if v.const is _NO and v.kind.startswith("list:") and made_new(src):
            src = self.kept_list(src)
        elif v.const is _NO and (v.kind in ("num", "str") or v.kind.startswith("list:")):
            src = f"_within({src})"
        if into is None:
            return stored(v, src)
        self.emit(d, f"{into} = {stored(v, src)}")
        return into

    def kept_list(self, made: str, site: str = "") -> str:
        """A list just made (`made`: never none) as a write keeps it: its length tested in
        line (a call of `_within` costs several times as much), `_within` called only past
        the longest, where it stops the game as it would have (`site`: `, SITE` or ""); the
        checked version calls `_within` every time."""
        if self.wide:
            return f"_within({made}{site})"
        t = self.temp()
        return f"({t} if len({t} := {made}) <= {MAX_ITEMS} else _within({t}{site}))"

    def _with_default(self, node: n.Call, scope: dict) -> Ex:
        """`max(xs, default=d)` or `min`, as the built-in: the list, then the default worked
        out (always), the default given for an empty list."""
        if node.func not in ("max", "min") or len(node.args) != 1 or [
                k for k, _ in node.kwargs] != ["default"]:
            raise Unsupported("keyword arguments")
        xs = self._as_list(self.expr(node.args[0], scope))
        d = self.expr(node.kwargs[0][1], scope)
        if xs.kind not in ("list:int", "list:num") or d.kind not in _NUMS:
            raise Unsupported("keyword arguments")
        kind = "int" if xs.kind == "list:int" and d.kind == "int" else "num"
        tested = self.call_at(node.pos, node.func, "_most" if node.func == "max" else "_least",
                              [xs], f", {d.src}")
        if tested:
            return Ex(tested, kind)
        t = self.temp()
        if d.safe and not COUNTS_WORK.search(d.src):  # read only where it is given
            return Ex(f"({node.func}({t}) if ({t} := {xs.src}) else {d.src})", kind,
                      xs.safe)
        u = self.temp()
        return Ex(f"({node.func}({t}) if (({t} := {xs.src}), ({u} := {d.src}))[0] else {u})",
                  kind, xs.safe and d.safe)

    def product(self, a: Ex, b: Ex, pos: tuple, both_int: bool) -> Ex:
        """`a * b` of numbers whose product may pass the range the fast code keeps: a call of
        `_times` (base.py `times`; numbers.py `times_checked` in the checked version, at the
        operator where located). Of whole numbers in the fast version not located, the same
        test in line (a call costs several times as much): past ±SAFE_INT, `_whole` hands
        the seed to the checked version; a side none raises Python's own error, which plays
        the seed again in the checked version, as `times` would."""
        if not both_int or self.wide or self.kinds_tested(a, b):
            return Ex(f"_times({a.src}, {b.src}{self.site_arg(pos)})",
                      "int" if both_int else "num")
        t = self.temp("p")  # (not a chained comparison: loops.py lowers a comprehension in it)
        return Ex(f"({t} if ({t} := {a.src} * {b.src}) <= {SAFE_INT} and {t} >= -{SAFE_INT} "
                  f"else _whole({t}))", "int")

    def quotient(self, op: str, a: Ex, b: Ex, pos: tuple, both_int: bool) -> Ex:
        """`a / b`, `a // b` or `a % b` of numbers: where the expression is located, tested as
        dsl/compiler.py tests it after both sides are worked out (`_divided`: by zero, or a
        side none, stops at the operator); elsewhere plain (an error met as Python's own)."""
        kind = "num" if op == "/" or (op == "%" and not both_int) else "int"
        site = self.site(pos)
        if site is not None:
            return Ex(f"_divided({a.src}, {b.src}, {op!r}, {site})", kind)
        # By a number known now and not zero, `//` and `%` of whole numbers cannot fail.
        divides = a.safe and b.safe and both_int and b.const is not _NO and b.const != 0
        if op == "//" and not both_int:  # whole numbers floor-divide to a whole number already
            return Ex(f"int({a.src} // {b.src})", kind, divides)
        return Ex(f"({a.src} {op} {b.src})", kind, divides and op != "/")

    def summed(self, xs: Ex, pos: tuple, name: str = "sum", shown: tuple = ()) -> str:
        """`sum` of a list of numbers (or the built-in `name` that sums them: `total` of
        the faces of dice, `shown` telling its argument as `call_at` does): the checked
        version's tests the limit (`_sum`), at the call where it is located."""
        if not self.wide:
            at = self.call_at(pos, name, "sum", [xs], shown=shown)
            return at or (xs.kind == "list:int" and running_sum(xs.src)) or f"sum({xs.src})"
        limit = self.builtin_site(pos, name, PAST_LIMIT)  # ", SITE" where located
        return (self.call_at(pos, name, "_sum", [xs], limit, shown)
                or f"_sum({xs.src}{limit})")

    def rounded(self, f: str, args: list[Ex], pos: tuple) -> Ex:
        """The built-in `f` of `args`: its own rounding (`round` of a whole number goes
        through a float too), the whole number it makes within the range the code keeps
        (`_whole`: the fast version's, or the checked version's limit); rounding infinity
        fails, as the built-in's. `clamp` as max(low, min(high, x)), its arguments worked out
        in their order."""
        if f != "clamp" and len(args) == 1 and args[0].kind in _NUMS:
            a = args[0]
            if a.kind == "int" and f != "round" and a.const is not _NO:
                return a  # a whole number is its own floor
            fn = self.const({"floor": math.floor, "ceil": math.ceil, "round": half_away}[f],
                            "RN")
            made = self.call_at(pos, f, fn, [a]) or f"{fn}({a.src})"
            if a.kind == "int" and f != "round":  # its own floor, but none (a die not rolled
                return Ex(made, "int")  # yet) is the built-in's error, met by `floor` too
            return Ex(f"_whole({made}{self.builtin_site(pos, f, PAST_LIMIT)})", "int")
        if f == "clamp" and len(args) == 3 and all(a.kind in _NUMS for a in args):
            x, low, high = args
            kind = "int" if all(a.kind == "int" for a in args) else "num"
            tested = self.call_at(pos, f, "_clamped", args)
            if tested:
                return Ex(tested, kind)
            if all(a.safe and not COUNTS_WORK.search(a.src) for a in args):
                return Ex(f"max({low.src}, min({high.src}, {x.src}))", kind, True)
            tx, tl, th = self.temp(), self.temp(), self.temp()
            return Ex(f"(max({tl}, min({th}, {tx})) if (({tx} := {x.src}), ({tl} := "
                      f"{low.src}), ({th} := {high.src})) else None)", kind,
                      all(a.safe for a in args))
        raise Unsupported(f"built-in {f}")
