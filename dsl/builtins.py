"""The built-in functions of the expression language, declared once.

Input: nothing (a registry). Output: `BUILTINS`, name -> `Builtin` with its signature (read by
the checker), its documentation and example (docs/reference.md is generated from them, and a
test checks every example), and its pure implementation (used by the compiler). Built-ins never
change state and never roll dice; iteration is over finite lists only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dsl import types as t

MAX_RANGE = 10_000
RANGE_TOO_LONG = f"range of more than {MAX_RANGE:,} numbers"  # range()'s own error
# Sizes a value may reach (docs/security.md): past them a game stops with a located error
# instead of filling the memory or the processor (`x * x` in a loop, a text doubled in a loop).
MAX_INT = 2**63 - 1     # whole numbers, as a 64-bit integer holds them
MAX_TEXT = 100_000      # characters in one text
MAX_ITEMS = 100_000     # items in one list


class EvalError(Exception):
    """A built-in received a value it cannot work with (reported with the expression's span)."""


@dataclass(frozen=True)
class Param:
    name: str
    type: t.Type
    optional: bool = False


@dataclass(frozen=True)
class Builtin:
    name: str
    params: tuple[Param, ...]
    returns: t.Type | Callable[[list[t.Type]], t.Type]
    doc: str
    example: str
    impl: Callable[..., Any]
    category: str
    variadic: bool = False        # the last parameter may repeat
    keywords: tuple[Param, ...] = ()

    def result_type(self, args: list[t.Type]) -> t.Type:
        return self.returns(args) if callable(self.returns) else self.returns

    @property
    def counted(self) -> bool:
        """Whether it works over lists: its items are charged to the game's step budget."""
        return self.name == "range" or any(p.type.kind == "list" for p in self.params)

    @property
    def signature(self) -> str:
        ps = [f"{p.name}{'?' if p.optional else ''}: {p.type}" for p in self.params]
        if self.variadic:
            ps[-1] += ", ..."
        ps += [f"{k.name}: {k.type}" for k in self.keywords]
        ret = "depends on the arguments" if callable(self.returns) else str(self.returns)
        return f"{self.name}({', '.join(ps)}) -> {ret}"


BUILTINS: dict[str, Builtin] = {}


def builtin(name: str, params: list[Param], returns, doc: str, example: str, category: str,
            variadic: bool = False, keywords: list[Param] | None = None):
    def register(fn):
        BUILTINS[name] = Builtin(name, tuple(params), returns, doc, example, fn, category,
                                 variadic, tuple(keywords or ()))
        return fn
    return register


# The words of a whole number past the limit (the generated code's too).
PAST_LIMIT = f"a whole number beyond ±{MAX_INT:,} (the language's limit)"


def sized(value: Any) -> Any:
    """The value, when it is within the size limits; else an EvalError saying which."""
    kind = type(value)
    if kind is int:
        if -MAX_INT <= value <= MAX_INT:
            return value
        raise EvalError(PAST_LIMIT)
    if kind is str and len(value) > MAX_TEXT:
        raise EvalError(f"a text longer than {MAX_TEXT:,} characters (the language's limit)")
    if kind is list and len(value) > MAX_ITEMS:
        raise EvalError(f"a list of more than {MAX_ITEMS:,} items (the language's limit)")
    return value


def whole_quotient(a: Any, b: Any) -> int:
    """`a // b` of two numbers (b not zero): a whole number within the limit. Of numbers that
    are not whole, the quotient may be past any whole number (`1e300 // 1`, or infinity,
    which `1e300 * 1e300` makes): the same error as a whole number past the limit."""
    q = a // b
    if type(q) is float:
        if not math.isfinite(q):  # infinity, or what infinity // 2 makes (nan)
            raise EvalError(PAST_LIMIT)
        q = int(q)
    return sized(q)


def get(value: Any, name: str) -> Any:
    """Reads a field of a runtime value: a mapping's key, or one of the fields the object opens
    to expressions (`_readable`: built-in and declared fields). Nothing else: the language is
    closed, so no field access reaches an attribute of a host object."""
    if isinstance(value, dict):
        if name in value:
            return value[name]
        raise EvalError(f"no field '{name}'")
    if name in getattr(value, "_readable", ()):
        try:
            return getattr(value, name)
        except AttributeError:  # declared, not yet set (state set up in order)
            pass
    raise EvalError(f"{_what(value)} has no field '{name}'")


def put(value: Any, name: str, new: Any) -> None:
    """Writes a field for `set` and `add`: a mapping's key, or a field the object lets the
    ruleset change (`_settable`: declared state, a die's face, card and cell fields)."""
    if isinstance(value, dict):
        value[name] = new
    elif name in getattr(value, "_settable", ()):
        setattr(value, name, new)
    else:
        raise EvalError(cannot_set(value, name))


def cannot_set(value: Any, name: str) -> str:
    """The words of a `set` or `add` of a field `value` does not let the ruleset change (the
    generated code's too: a field of none)."""
    return f"'{name}' of {_what(value)} cannot be set"


def _what(value: Any) -> str:
    """A value's kind in the language's words, for messages."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, (list, tuple)):
        return "a list"
    return f"a {type(value).__name__.lower()}"


def face(die: Any) -> int:
    try:
        return die.face  # a die (the common case, first because it is the hot path)
    except AttributeError:
        return die if isinstance(die, int) else get(die, "face")


def _faces_of(dice: Any) -> list:
    return [face(d) for d in _items(dice)]


def _items(x: Any) -> list:
    if isinstance(x, (list, tuple)):
        return list(x)
    items = getattr(x, "items", None)
    if isinstance(items, list):
        return items
    raise EvalError("expected a list")


def _first_item(args: list[t.Type]) -> t.Type:
    a = args[0] if args else t.ANY
    return a.item or t.ANY if a.kind == "list" else t.ANY


def _numbers_or_item(args: list[t.Type]) -> t.Type:
    if len(args) <= 1:  # max() with no argument is reported as an arity error
        return _first_item(args)
    out = args[0]
    for a in args[1:]:
        out = t.join(out, a)
    return out


# -- collections -------------------------------------------------------------------------------

@builtin("count", [Param("items", t.ANY_LIST)], t.INT,
         "The number of items in a list (with `for ... if`, the number that pass the test).",
         "count(d for d in health if d.face < 3)", "collections")
def _count(items):
    return len(_items(items))


@builtin("sum", [Param("numbers", t.NUMBERS)], lambda a: t.INT if _first_item(a).kind == "int"
         else t.NUMBER, "The sum of a list of numbers (0 for an empty list).",
         "sum(d.face for d in current.hand)", "collections")
def _sum(numbers):
    return sized(sum(_items(numbers)))


@builtin("max", [Param("values", t.ANY)], _numbers_or_item,
         "The largest of a list, or of several values: max(list) or max(a, b, ...). An empty "
         "list gives the `default` (0 unless given).",
         "max(p.gold for p in players)", "collections", variadic=True,
         keywords=[Param("default", t.ANY)])
def _max(*values, default=0):
    vals = _items(values[0]) if len(values) == 1 else list(values)
    return max(vals) if vals else default


@builtin("min", [Param("values", t.ANY)], _numbers_or_item,
         "The smallest of a list, or of several values. An empty list gives the `default`.",
         "min(major.face, minor.face)", "collections", variadic=True,
         keywords=[Param("default", t.ANY)])
def _min(*values, default=0):
    vals = _items(values[0]) if len(values) == 1 else list(values)
    return min(vals) if vals else default


@builtin("any", [Param("conditions", t.list_of(t.BOOL))], t.BOOL,
         "Whether at least one item is true (false for an empty list).",
         "any(p.score >= goal for p in players)", "collections")
def _any(conditions):
    return any(_items(conditions))


@builtin("all", [Param("conditions", t.list_of(t.BOOL))], t.BOOL,
         "Whether every item is true (true for an empty list).",
         "all(p.passed for p in players)", "collections")
def _all(conditions):
    return all(_items(conditions))


@builtin("first", [Param("items", t.ANY_LIST)], _first_item,
         "The first item of a list (none when empty).", "first(travel)", "collections")
def _first(items):
    xs = _items(items)
    return xs[0] if xs else None


@builtin("last", [Param("items", t.ANY_LIST)], _first_item,
         "The last item of a list (none when empty): the rightmost die of a row.",
         "last(current.travel).face", "collections")
def _last(items):
    xs = _items(items)
    return xs[-1] if xs else None


@builtin("sort", [Param("items", t.ANY_LIST)], lambda a: a[0] if a else t.ANY_LIST,
         "The list in ascending order (numbers or text).", "sort(faces(white))", "collections")
def _sort(items):
    return sorted(_items(items))


@builtin("sort_by", [Param("items", t.ANY_LIST), Param("field", t.STRING)],
         lambda a: a[0] if a else t.ANY_LIST,
         "The list ordered by one or more fields, ascending; later fields break ties. Prefix "
         "a field with '-' for descending order.",
         "sort_by(players, 'application', 'turn_order')", "collections", variadic=True)
def _sort_by(items, *fields):
    xs = _items(items)
    for spec in reversed(fields):
        name = spec.lstrip("-")
        xs = sorted(xs, key=lambda x, name=name: get(x, name), reverse=spec.startswith("-"))
    return xs


@builtin("unique", [Param("items", t.ANY_LIST)], lambda a: a[0] if a else t.ANY_LIST,
         "The list without repeats, in first-seen order.", "unique(faces(ocean))",
         "collections")
def _unique(items):
    out = []
    for x in _items(items):
        if x not in out:
            out.append(x)
    return out


@builtin("range", [Param("start", t.INT), Param("stop", t.INT)], t.list_of(t.INT),
         f"The whole numbers from start up to, not including, stop (at most {MAX_RANGE:,}).",
         "range(0, pool + 1)", "collections")
def _range(start, stop):
    if stop - start > MAX_RANGE:
        raise EvalError(RANGE_TOO_LONG)
    return list(range(start, stop))


@builtin("keys", [Param("map", t.MAP)], t.ANY_LIST, "The keys of a map.", "keys(notes)",
         "collections")
def _keys(m):
    return list(_map(m).keys())


@builtin("get", [Param("map", t.MAP), Param("key", t.ANY), Param("default", t.ANY)], t.ANY,
         "The value of a map at a key, or the default when the key is absent.",
         "get(notes, key, [])", "collections")
def _get(m, key, default):
    return _map(m).get(key, default)


def _map(m: Any) -> dict:
    if not isinstance(m, dict):
        raise EvalError(f"expected a map, got {_what(m)}")
    return m


# -- numbers -------------------------------------------------------------------------------------

@builtin("abs", [Param("x", t.NUMBER)], lambda a: a[0] if a else t.NUMBER,
         "The absolute value.", "abs(die.face - last(travel).face) <= 1", "numbers")
def _abs(x):
    return abs(x)


@builtin("floor", [Param("x", t.NUMBER)], t.INT, "Rounds down to a whole number.",
         "floor(current.points / 2)", "numbers")
def _floor(x):
    return sized(math.floor(x))


@builtin("ceil", [Param("x", t.NUMBER)], t.INT, "Rounds up to a whole number.",
         "ceil(current.points / 2)", "numbers")
def _ceil(x):
    return sized(math.ceil(x))


@builtin("round", [Param("x", t.NUMBER)], t.INT,
         "Rounds to the nearest whole number (halves away from zero).", "round(value * 0.45)",
         "numbers")
def _round(x):
    return sized(half_away(x))


def half_away(x):
    """`round` before the limit: the nearest whole number, halves away from zero."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


@builtin("clamp", [Param("x", t.NUMBER), Param("low", t.NUMBER), Param("high", t.NUMBER)],
         lambda a: a[0] if a else t.NUMBER, "x limited to the range low..high.",
         "clamp(die.face + 1, 1, 6)", "numbers")
def _clamp(x, low, high):
    return max(low, min(high, x))


@builtin("text", [Param("value", t.ANY)], t.STRING,
         "A value as text, as narration writes it (a template's `{...}` hole is the same): a "
         "list as its items separated by commas (a list inside a list in parentheses), a map "
         "as `key: value` pairs, an empty list or map as `none`; true, false and none as the "
         "language spells them.", "text(current.gold)", "numbers")
def _text(value):
    if value is True or value is False or value is None:  # the language's spelling
        return {True: "true", False: "false", None: "none"}[value]
    if isinstance(value, (list, tuple, dict)):
        _within_text(value)  # before writing it out: a list of big texts is bigger still
        return sized(_written(value))
    return sized(str(value))


def _written(value: Any) -> str:
    """A value inside a list or map as text: people read "1, 3, 4", not "[1, 3, 4]"."""
    if isinstance(value, (list, tuple)):
        return ", ".join(f"({_written(v)})" if isinstance(v, (list, tuple, dict)) and v
                         else _written(v) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{_written(k)}: {_written(v)}" for k, v in value.items()) or "none"
    if value is True or value is False or value is None:
        return {True: "true", False: "false", None: "none"}[value]
    return str(value)


def _within_text(value: Any) -> None:
    """Refuses a list or map whose text would pass MAX_TEXT, measured without making it."""
    size, stack = 0, [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (list, tuple)):
            stack.extend(v)
            size += 2 + 2 * len(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
            size += 2 + 4 * len(v)
        else:
            size += len(v) + 2 if isinstance(v, str) else 24
        if size > MAX_TEXT:
            raise EvalError(f"a text longer than {MAX_TEXT:,} characters (the language's "
                            "limit)")


# -- dice ------------------------------------------------------------------------------------------

@builtin("faces", [Param("dice", t.DICE)], t.list_of(t.INT),
         "The faces the dice show, in order.", "faces(white)", "dice")
def _faces(dice):
    return _faces_of(dice)


@builtin("total", [Param("dice", t.DICE)], t.INT, "The sum of the faces the dice show.",
         "total(white) - total(red)", "dice")
def _total(dice):
    return sum(_faces_of(dice))


@builtin("doubles", [Param("dice", t.DICE)], t.BOOL,
         "Whether two or more dice all show the same face.", "doubles(red)", "dice")
def _doubles(dice):
    fs = _faces_of(dice)
    return len(fs) >= 2 and len(set(fs)) == 1


@builtin("of_a_kind", [Param("dice", t.DICE), Param("n", t.INT)], t.BOOL,
         "Whether at least n of the dice show the same face.", "of_a_kind(hand, 3)", "dice")
def _of_a_kind(dice, n):
    return faces_of_a_kind(_faces_of(dice), n)


def faces_of_a_kind(fs: list, n: Any) -> bool:
    """`of_a_kind` on the faces: whether some face shows at least n times."""
    return any(fs.count(f) >= n for f in set(fs))


@builtin("highest", [Param("dice", t.DICE)], t.DIE,
         "The die showing the highest face (the first of equals; none when empty).",
         "highest(current.health)", "dice")
def _highest(dice):
    xs = _items(dice)
    return max(xs, key=face) if xs else None


@builtin("lowest", [Param("dice", t.DICE)], t.DIE,
         "The die showing the lowest face (the first of equals; none when empty).",
         "lowest(current.health)", "dice")
def _lowest(dice):
    xs = _items(dice)
    return min(xs, key=face) if xs else None


# -- players -------------------------------------------------------------------------------------

@builtin("opponents", [Param("player", t.PLAYER)], t.PLAYERS,
         "The other players still in the game, in turn order from this player.",
         "opponents(current)", "players")
def _opponents(player):
    return [p for p in get(player, "others") if not get(p, "eliminated")]


@builtin("next_player", [Param("player", t.PLAYER)], t.PLAYER,
         "The next player still in the game, clockwise (to the left).", "next_player(current)",
         "players")
def _next_player(player):
    others = _opponents(player)
    return others[0] if others else player


# -- grid ------------------------------------------------------------------------------------------

def _rc(cell) -> tuple[int, int]:
    try:
        return cell.row_index, cell.column_index  # a grid cell: the hot path
    except AttributeError:
        return get(cell, "row_index"), get(cell, "column_index")


@builtin("adjacent", [Param("a", t.CELL), Param("b", t.CELL)], t.BOOL,
         "Whether two cells touch orthogonally (north, south, east or west).",
         "adjacent(current.position, target)", "grid")
def _adjacent(a, b):
    (r1, c1), (r2, c2) = _rc(a), _rc(b)
    return abs(r1 - r2) + abs(c1 - c2) == 1


@builtin("distance", [Param("a", t.CELL), Param("b", t.CELL)], t.INT,
         "Orthogonal steps between two cells, ignoring blocking.", "distance(here, there)",
         "grid")
def _distance(a, b):
    (r1, c1), (r2, c2) = _rc(a), _rc(b)
    return abs(r1 - r2) + abs(c1 - c2)


@builtin("direction", [Param("from", t.CELL), Param("to", t.CELL)], t.STRING,
         "The compass direction from one cell to another: 'N', 'S', 'E' or 'W' when they share "
         "a column or row, else 'NE', 'NW', 'SE' or 'SW'; '' for the same cell. Rows grow "
         "southward, columns eastward.", "direction(start, goal) == 'SE'", "grid")
def _direction(a, b):
    # Two cells of a map: a's own memo of directions, keyed by the other cell.
    known = getattr(a, "_directions", None)
    if known is not None and getattr(b, "_directions", None) is not None:
        d = known.get(b)
        if d is None:
            d = known[b] = _compass(a, b)
        return d
    return _compass(a, b)


def _compass(a, b) -> str:
    (r1, c1), (r2, c2) = _rc(a), _rc(b)
    ns = "N" if r2 < r1 else "S" if r2 > r1 else ""
    ew = "W" if c2 < c1 else "E" if c2 > c1 else ""
    return ns + ew


@builtin("neighbours", [Param("cell", t.CELL)], t.CELLS,
         "The cells orthogonally next to a cell.", "neighbours(current.position)", "grid")
def _neighbours(cell):
    return list(get(cell, "neighbours"))


@builtin("row", [Param("cell", t.CELL)], t.ANY, "The row label of a cell.", "row(cell)", "grid")
def _row(cell):
    return get(cell, "row")


@builtin("column", [Param("cell", t.CELL)], t.ANY, "The column label of a cell.",
         "column(cell)", "grid")
def _column(cell):
    return get(cell, "column")


# -- time ------------------------------------------------------------------------------------------

@builtin("remaining", [Param("timer", t.TIMER)], t.NUMBER,
         "Seconds left on a timer (0 when stopped or expired).", "remaining(countdown) < 5", "time")
def _remaining(timer):
    try:
        return timer.remaining  # a timer (the hot path of a timed game)
    except AttributeError:
        return get(timer, "remaining")


@builtin("elapsed", [Param("timer", t.TIMER)], t.NUMBER,
         "Seconds since a timer started.", "elapsed(countdown)", "time")
def _elapsed(timer):
    return get(timer, "elapsed")
