"""Phase 5b, compile for simulation (specializer): the vocabulary its writers share.

Input: nothing (definitions). Output: the generated expression `Ex` (Python source, kind,
safety, value known now), the writing context `_Ctx`, the dice record `_Die`, the signals of
generation (`Unsupported`) and of the generated code (`Stop`, `Fallback`, `_EndTurn`, `_EndPhase`,
`_EndGame`), literals as `Ex` (`_lit`) and ruleset values as expression nodes (`_node`).
interpreter/compile/specialize.py, interpreter/compile/checks.py and
interpreter/compile/decisions.py import them; see interpreter/compile/specialize.py for the whole.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dsl import nodes as n
from dsl.builtins import BUILTINS, MAX_INT, MAX_ITEMS, MAX_RANGE, MAX_TEXT, EvalError, sized, whole_quotient
from dsl.compiler import (
    by_zero,
    no_item,
    not_an_index,
    not_negated,
    operator_error,
    out_of_range,
)
from dsl.parser import parse_expression
from interpreter.compile.trees import expression_tree
from interpreter.engine.values import unset_item


class Unsupported(Exception):  # noqa: N818 - a signal inside the generator
    """The ruleset uses something not specialized: the caller keeps the interpreter. `path`
    is the data path of the rule that uses it, when known (set where it is raised, or by the
    step list around it)."""

    def __init__(self, message: str, path: tuple | None = None):
        super().__init__(message)
        self.path = path


class Stop(Exception):  # noqa: N818 - a signal of the generated code
    """The rules cannot go on (a budget, a rule error the generated code tests for). Raised
    with a site (interpreter/compile/stops.py), the game function itself ends the game with
    the interpreter's located error. Without one, the interpreter's game on this seed stops
    with an error too, and the caller plays it there for that error, located, and its exact
    counts; a game that then ends normally is the code generator's fault, reported, never
    taken as the result (interpreter/compile/played.py)."""


class PastSteps(Stop):
    """The fast version found the step budget passed (it tests it at loop heads and at the
    end, not after every operation): the interpreter's game stopped earlier, at an operation
    the fast code went past. The checked version, which tests every step as the interpreter
    does, plays the seed again to that stop (interpreter/compile/played.py `try_raw`)."""


class Fallback(Exception):  # noqa: N818 - a signal of the generated code
    """The game goes where the fast generated code cannot follow it exactly though the rules
    go on: a whole number past ±SAFE_INT. The checked version of the same code plays the seed
    (interpreter/compile/numbers.py), and simulate reports how many games it played so."""


# The fast generated code keeps whole numbers within ±SAFE_INT, and hands the seed to its
# checked version (which tests every +, - and * against dsl/builtins.py MAX_INT, as the
# interpreter does: numbers.py) as soon as one leaves that range: far enough below MAX_INT that
# no expression of the language (at most MAX_DEPTH terms) can pass MAX_INT from values within
# it, so the fast code need not test each + and -, yet never plays on where the interpreter
# would have stopped.
SAFE_INT = 2**40
SMALL_STEP = 2**16  # an `add` of at most this much per step cannot leave the range unseen
# The largest whole number a literal of the function being written may hold: SAFE_INT, or
# the language's own MAX_INT while the checked version is written (interpreter/compile/
# numbers.py `checked_numbers`: its +, - and * test each result, as the interpreter does).
INT_RANGE = [SAFE_INT]


class Wider(Unsupported):
    """A whole number known when generating lies past ±SAFE_INT: the function that keeps
    numbers within it cannot hold it, and the checked version is written instead."""


# The indexing of a list or tuple the generated code holds, as a function (`map(g, items)`
# reads items at C speed): given to the generated code by name (`_getter(F)`, a table's
# getter as a constant), so that its text names no dunder attribute (hardening: a test holds
# every generated source to that).
item_getter = operator.attrgetter("__getitem__")

# The faces' getter of a game with dice (`F`'s), made with F where it is read (zones.py).
FACES_BY = "_fg0"


def within(value: Any, site: tuple | None = None) -> Any:
    """A value a state write stores, within the range the fast code keeps (numbers: else
    `Fallback`) and the size limits (texts, lists: else `Stop`, the interpreter's error, at
    `site` where the step's place is known: `past_longest`)."""
    kind = type(value)
    if kind is int and not -SAFE_INT <= value <= SAFE_INT:
        raise Fallback()
    if kind in (str, list) and len(value) > (MAX_TEXT if kind is str else MAX_ITEMS):
        raise past_longest(value, site)
    return value


def past_longest(value: Any, site: tuple | None) -> Stop:
    """The stop of a text or list past the language's longest: at `site`, in dsl.builtins.
    sized's words; elsewhere a stop without a site."""
    try:
        sized(value)
    except EvalError as err:
        return Stop() if site is None else Stop(site, str(err))
    return Stop()


def whole(value: int, site: tuple | None = None) -> int:
    """A whole number a built-in made from a number (`floor`, `ceil`, `round`), within the
    range the fast code keeps, else `Fallback` (the checked version's stops at `site`)."""
    if not -SAFE_INT <= value <= SAFE_INT:
        raise Fallback()
    return value


def refused(op: str, a: Any, b: Any, site: tuple | None) -> Stop:
    """The stop of the operator `op` on values it does not take (none, met as Python's
    `TypeError`): at `site`, the operator's (interpreter/compile/stops.py `expr_site`, its
    words left to the values), in dsl/compiler.py's words; elsewhere a stop without a site."""
    said = operator_error(op, a, b) if site is not None else None
    return Stop() if said is None else Stop(site, said)


def ordered(a: Any, b: Any, op: str, site: tuple) -> bool:
    """`<`, `<=`, `>` or `>=` where the expression is located: on values it does not take,
    the interpreter's stop there (`refused`)."""
    try:
        return _ORDER[op](a, b)
    except TypeError:
        raise refused(op, a, b, site) from None


_ORDER = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def added(old: Any, amount: Any, site: tuple | None = None) -> Any:
    """The sum an `add` step makes of its target, where the step's place is known (the
    checked version, a logged game): as steps.py's `add`, one of them not a number stops
    the game at `site` (stops.py `add_site`, raised with both), as does a whole number past
    the language's limit; elsewhere a stop the interpreter locates."""
    if type(old) not in (int, float) or type(amount) not in (int, float):
        raise Stop() if site is None else Stop(site, amount, old)
    r = old + amount
    if type(r) is int and not -MAX_INT <= r <= MAX_INT:
        raise Stop() if site is None else Stop(site)
    return r


def times(a: Any, b: Any, site: tuple | None = None) -> Any:
    """`*` in the fast code: a product of whole numbers within ±SAFE_INT, else the checked
    version plays the seed (which stops at `site` past the language's limit)."""
    try:
        r = a * b
    except TypeError:
        raise refused("*", a, b, site) from None
    if type(r) is int and not -SAFE_INT <= r <= SAFE_INT:
        raise Fallback()
    return r


def span(start: int, stop: int, site: tuple | None = None) -> list:
    """`range(start, stop)` in generated code, as the built-in: a list of at most MAX_RANGE
    numbers, else `Stop` (the built-in's error, at `site` where the call's place is known:
    interpreter/compile/stops.py `builtin_site`). The generated code counts a long one in its
    work meter, as the interpreter charges it."""
    if stop - start > MAX_RANGE:
        raise Stop() if site is None else Stop(site)
    return list(range(start, stop))



# What a rule error the generated code does not test for is met as: the interpreter tests for
# it and stops with a located error (`12 // (turn - 3)`, `g[...]` of no such cell, a die read
# before its first roll). NameError, AttributeError and the like are not among them: never a
# rule's error, always the generator's.
RULE_ERRORS = (ArithmeticError, LookupError, TypeError, ValueError, EvalError)

# `_within_text` (dsl/builtins.py) counts a number as 24 characters and a comma as 2: no
# shorter list of numbers has a text it refuses.
_FEW_NUMBERS = (MAX_TEXT - 2) // 26
_TEXT = BUILTINS["text"].impl


def listed(numbers: list) -> str:
    """`text` of a list of numbers, as dsl/builtins.py's `_text` writes it: its items by
    commas, none as `none`, an empty list `none`; a list long enough that the built-in may
    refuse it goes to the built-in itself (`EvalError`, in its words, past the longest)."""
    if len(numbers) > _FEW_NUMBERS:
        return _TEXT(numbers)
    return ", ".join(["none" if x is None else str(x) for x in numbers]) or "none"

def data_values(data: Any):
    """Every value in the ruleset's data: a mapping's keys and values, a list's items, at any
    depth (`any(test(x) for x in ...)`: whether some value passes a test)."""
    todo = [data]
    while todo:
        x = todo.pop()
        yield x
        if isinstance(x, dict):
            todo += x.keys()
            todo += x.values()
        elif isinstance(x, list):
            todo += x


COUNTS_WORK = re.compile(r"\bwk\b")  # generated source that counts work where it runs
# Generated source that may stop the game at a located site (interpreter/compile/stops.py): it
# must run where the interpreter would meet that error, never earlier.
LOCATES = re.compile(r"\b_SE\d")

HOIST_FAILED = object()  # `_HF`: a lookup worked out ahead of its items could not be made


def tried(lookup: Any) -> Any:
    """A lookup worked out before a comprehension's items (interpreter/compile/kinds.py
    `_lifted`), or HOIST_FAILED where it fails as a rule's error would: the items may never
    read it (the rules test first), and where one does, the lookup is worked out again
    there, to stop at its own place (a located version), or `_halt` sends the seed to the
    checked version (the fast one). A lookup that counts work is never moved (`_lift` moves
    no `:=`), so no budget is counted ahead of where the interpreter counts it."""
    try:
        return lookup()
    except (Stop, *RULE_ERRORS):
        return HOIST_FAILED


def unseen(items: Any, where: list, hidden: dict) -> set[int]:
    """A logged game's Game.unseen: the places of the items lying in a zone that not every
    player sees (`where`: each item's zone list; `hidden`: such zones by id())."""
    return {i for i, it in enumerate(items)
            if (z := where[it]) is not None and id(z) in hidden}


def with_private(rec: dict, items: Any, where: list, hidden: dict,
                 before: set[int] | None = None) -> dict:
    """A logged game's Game.record_items: the record, with `private` when some of the items
    now lie in a zone not every player sees (each such zone's id, owner, who sees it and the
    items' places); for a move or a draw (`before`) only those out of sight before it."""
    groups: dict[str, dict] = {}
    for i, it in enumerate(items):
        z = where[it]
        info = hidden.get(id(z)) if z is not None else None
        if info is None:
            continue
        g = groups.get(info[0])
        if g is None:
            g = groups[info[0]] = {"zone": info[0], "owner": info[1], "to": list(info[2]),
                                   "items": []}
        g["items"].append(i)
    private = list(groups.values())
    if private and before is not None:
        for g in private:
            g["items"] = [i for i in g["items"] if i in before]
        private = [g for g in private if g["items"]]
    if private:
        rec["private"] = private
    return rec


def halt(site: tuple | None = None) -> bool:
    """A rule error met inside an expression (a lookup worked out ahead of its items that could
    not be made, read where the rules read it; an event's field it was not fired with): the
    interpreter's game stops there, at `site` where the expression is located."""
    raise Stop() if site is None else Stop(site)


def joined(a: Any, b: Any, site: tuple) -> Any:
    """`+` of two texts or two lists where the expression is located: past the longest (in
    dsl.builtins.sized's words), or of none (`refused`), the interpreter's stop at `site`."""
    try:
        r = a + b
    except TypeError:
        raise refused("+", a, b, site) from None
    if len(r) > (MAX_TEXT if type(r) is str else MAX_ITEMS):
        raise past_longest(r, site)
    return r


def negated(x: Any, site: tuple) -> Any:
    """`-x` where the expression is located: of none, the interpreter's stop at `site`."""
    if type(x) in (int, float):
        return -x
    raise Stop(site, not_negated(x))


def divided(a: Any, b: Any, op: str, site: tuple) -> Any:
    """`/`, `//` or `%` where the expression is located: as dsl/compiler.py's, by zero or on
    a value that is not a number (none), the interpreter's stop at `site` (its words left to
    the values: `by_zero`, `refused`)."""
    if type(a) in (int, float) and type(b) in (int, float):
        if b == 0:
            raise Stop(site, by_zero(op))
        if op != "//":
            return a / b if op == "/" else a % b
        try:
            return whole_quotient(a, b)
        except EvalError as err:  # past the limit, or past any whole number
            raise Stop(site, str(err)) from None
    raise refused(op, a, b, site)


def item_at(items: Any, k: int, site: tuple) -> Any:
    """`items[k]` in the versions that locate their rule errors: past the list's ends (a
    negative index too), or at something not a whole number (none, true), the game stops
    at `site`, with the interpreter's words."""
    if type(k) is not int:
        raise Stop(site, not_an_index(k))
    if 0 <= k < len(items):
        return items[k]
    raise Stop(site, out_of_range(k, len(items)))


def zone_item(items: list, k: Any, site: tuple) -> Any:
    """A zone's item (`items`: what it holds) at `k`, indexed as the interpreter's zone is
    (Python's indexing, negative indexes too), in the versions that locate their rule errors:
    where it has no such item, the game stops at `site` with the interpreter's words."""
    try:
        return items[k]
    except (IndexError, TypeError):
        raise Stop(site, no_item(k, "a zone")) from None


def some(value: Any, site: tuple) -> Any:
    """A value that cannot be none where it is read and located (a player, team or die whose
    field is read, a repeat's count): none is the interpreter's stop at `site`."""
    if value is None:
        raise Stop(site)
    return value


def looked(table: Any, k: Any, site: tuple, said: Any) -> Any:
    """`table[k]` of a table the generated code keeps (a grid's cells by id, a cell's
    attribute), located: a key it does not have (none too) stops the game at `site`, in the
    words `said(k)` makes (dsl.compiler's; None: the site's own)."""
    try:
        return table[k]
    except (KeyError, TypeError):
        raise (Stop(site) if said is None else Stop(site, said(k))) from None


def over_at(site: tuple) -> bool:
    """`over`, located at `site` (the node that counted the items: stops.py `expr_site`)."""
    raise Stop(site)


def over() -> bool:
    """The work meter passed the step budget: the game stops there, as the interpreter's."""
    raise Stop()


class _EndTurn(Exception):  # noqa: N818
    pass


class _EndPhase(Exception):  # noqa: N818
    pass


class _EndGame(Exception):  # noqa: N818
    pass


_NO = object()       # an expression without a value known when generating
_NUMS = ("int", "num")
_NONEABLE = ("player", "dref", "team", "cell", "card")  # kinds whose values may be none
_UNROLL = 8          # comprehensions over `players` are unrolled up to this many seats
_MAX_INLINE = 12     # procedure and trigger nesting written out; deeper rulesets are refused
# Keys that shape what people read (documentation, prompts, labels, what a skill decision's
# view leaves out), never what the game does: generated code, played by bots, has no use for them.
_DOC_KEYS = frozenset({"doc", "description", "prompt", "option_label", "before", "label",
                       "id", "skill", "hides", "counts", "counts_per"})


# What a list may hold (the kinds a list's items take in generated code).
ITEM_KINDS = frozenset({"int", "num", "bool", "str", "player", "dref", "team"})


@dataclass
class Ex:
    """A generated expression: Python source, its kind, whether it can never raise (`safe`),
    its value when known now (`const`), the dice it denotes, or its items when unrolled.

    A `safe` expression of kind player or dref (a die known at run time) is also never none,
    as is one marked `some` (of kind cell or card, which may still raise).
    `opts` describes the legal
    options of a decision when the expression is a policy's `options`: ("static", values,
    legal indexes), ("dynamic", values, name of the runtime list of legal indexes) or
    ("values", name of the runtime list of legal values)."""

    src: str
    kind: str
    safe: bool = False
    const: Any = _NO
    dice: tuple = ()
    items: list | None = None
    bound: int | None = None  # the largest magnitude a whole number can have, when known
    opts: tuple | None = None
    zone: str = ""       # kind zone: the zone's declared name; int: `count` of that zone
    some: bool = False   # never none, though it may raise (a grid's cell looked up by id)
    # A whole number as (source, k), its value the source's plus k: a die's face kept as its
    # index (`_Die.off`), and sums, differences and multiples of them, where the k cancel or
    # fold into a literal (interpreter/compile/offsets.py). The source is none
    # where the face is (a die not rolled); `src` says none then too, and arithmetic on
    # either raises as Python's does on none.
    raw: tuple[str, int] | None = None
    least: int | None = None  # the least a whole number (a list's item) can be, when known
    # `highest`/`lowest` of dice where not located: (max or min, the temporary, the list's
    # source), so that its face is read as the most (least) face (zones.py `_die_field`).
    extreme: tuple[str, str, str] | None = None
    # A list whose items all differ: a zone's items, a race's claims, and what a comprehension
    # keeps of such a list's items (`[d for d in hand if ...]`), bound by `let` or not. A
    # `move` of it need not look for an item listed twice (zones.py `_s_move`).
    distinct: bool = False
    # A list of its own, which no zone is (a comprehension's, a race's claims, bound by `let`
    # or not): a `move` of it, which changes zones as it goes, need not copy it first.
    fresh: bool = False


@dataclass
class _Die:
    var: str
    faces: tuple
    id: str
    attrs: dict
    # Faces that are whole numbers in a row from `off` (1 to 6) are kept as their index
    # (`var` holds the face minus `off`) in the fast version that writes no log: a roll is
    # `int(rnd() * 6)`, and `a.face + b.face > c.face + d.face` compares the indexes.
    off: int = 0


def face_src(die: _Die) -> str:
    """The source of a die's face as a value that may be none (not rolled yet)."""
    if not die.off:
        return die.var
    return f"(None if {die.var} is None else {die.var} + {die.off})"


def faces_src(dice: tuple[_Die, ...]) -> str:
    """The source of a tuple of the dice's faces, each of which may be none."""
    return "(" + "".join(face_src(d) + ", " for d in dice) + ")"


@dataclass
class _Ctx:
    """Where steps are written: names bound here, the interpreter's nesting depth (calls and
    firings), whether a Python `break` leaves the language's innermost loop, whether the steps
    run inside the checks (where an operation examines neither the checks nor the end), and
    whether `end_turn` may be written as `_et = True; break` (`flag_exit`: every Python loop
    between here and the turn's one-pass loop tests `_et` when it ends; elsewhere `end_turn`
    raises, which costs far more where turns end often)."""

    scope: dict[str, Ex]
    depth: int = 0
    in_loop: bool = False
    inline: int = 0
    checks: bool = False
    flag_exit: bool = False
    base: str = ""  # the source of a depth known at run time that `depth` adds to (raised.py)

    def inside(self, scope: dict[str, Ex] | None = None, *, depth: int | None = None,
               in_loop: bool | None = None, inline: int | None = None) -> _Ctx:
        """This context with some fields changed (the rest, `flag_exit` included, kept)."""
        return _Ctx(self.scope if scope is None else scope,
                    self.depth if depth is None else depth,
                    self.in_loop if in_loop is None else in_loop,
                    self.inline if inline is None else inline, self.checks, self.flag_exit,
                    self.base)

    def deeper_than(self, depth: int, most: int) -> str | None:
        """Where the rules stand `depth` deep (counted from this context's base): None if it
        is within `most`, else the test (source) that it is past it ("True": always)."""
        if depth > most:
            return "True"
        return f"{self.base} + {depth} > {most}" if self.base else None

    def depth_src(self) -> str:
        """This context's depth, as source."""
        return f"{self.base} + {self.depth}" if self.base else str(self.depth)


@dataclass(frozen=True)
class ItemSet:
    """A `set` or `add` target that is an item of list state (`L[i]`, `p.L[i]`, `tm.L[i]`):
    the state `at` gets a new list with the item changed (`set_in`), never the old list
    changed in place, so no other name holding that list sees the change."""

    at: str
    key: str
    read: str = ""  # the item read as the language reads it (an `add` reads it first)
    site: str | None = None  # where located: the target's site, for a key it cannot set

    def assign(self, value: str) -> str:
        site = "" if self.site is None else f", {self.site}"
        return f"{self.at} = _set_in({self.at}, {self.key}, {value}{site})"


def set_in(container: list, key: int, value: Any, site: tuple | None = None) -> list:
    """`set: {"L[i]": v}` in generated code: a copy of `container` with the item changed, as
    steps._setter writes it (Python's meaning: a negative key counts from the end); a key out
    of range stops the game at `site` in the interpreter's words, where it is located (the
    fast version meets it as Python's own error, and its checked version plays the game)."""
    new = list(container)
    try:
        new[key] = value
    except (IndexError, TypeError):
        if site is None:
            raise
        raise Stop(site, unset_item(key, container)) from None
    return new


def stored(e: Ex, src: str | None = None) -> str:
    """The source of `e` as a value to store (`set`, `let`, a procedure's argument), as
    steps' `copied` stores a value: never shared with where it was read, where sharing could
    show. The generated code never changes a list in place (an item set writes a new list:
    `ItemSet`); it changes a map in place when it is set at a key. So a map is copied, unless
    the expression has just made it (`made_new`), and a list never is. One level is enough:
    what a map holds is never changed in place."""
    src = e.src if src is None else src
    if e.zone or not e.kind.startswith("map:") or made_new(src):
        return src
    return f"dict({src})"


@lru_cache(maxsize=1024)  # asked of the same sources again and again while generating
def made_new(src: str) -> bool:
    """Whether the Python expression `src` makes a new list or map each time it runs."""
    tree = expression_tree(src)
    if tree is None:
        return False
    node = tree.body

    def fresh(x: ast.AST) -> bool:
        if isinstance(x, (ast.List, ast.ListComp, ast.Dict, ast.DictComp)):
            return True
        if isinstance(x, ast.BinOp) and isinstance(x.op, ast.Add):
            return True  # lists joined: a new list
        if isinstance(x, ast.IfExp):
            return fresh(x.body) and fresh(x.orelse)
        if isinstance(x, ast.Call) and isinstance(x.func, ast.Name):
            if x.func.id in ("list", "sorted", "dict", "_span"):
                return True
            if x.func.id == "_within" and len(x.args) == 1:
                return fresh(x.args[0])
        return False
    return fresh(node)


def _lit(v: Any) -> Ex:
    if v is True or v is False:
        return Ex(repr(v), "bool", True, v)
    if type(v) is int:
        if not -INT_RANGE[0] <= v <= INT_RANGE[0]:
            raise (Wider if INT_RANGE[0] == SAFE_INT else Unsupported)(
                "a whole number beyond the generated code's range")
        return Ex(repr(v), "int", True, v, bound=abs(v))
    if type(v) is float and math.isfinite(v):
        return Ex(repr(v), "num", True, v)
    if type(v) is str:
        return Ex(repr(v), "str", True, v)
    if v is None:
        return Ex("None", "none", True, None)
    raise Unsupported(f"value {v!r}")


def _node(value: Any) -> n.Node:
    if isinstance(value, str):
        return parse_expression(value)
    if isinstance(value, list):
        return n.ListExpr((0, 0), tuple(_node(v) for v in value))
    return n.Literal((0, 0), value)
