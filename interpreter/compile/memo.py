"""Phase 5b, compile for simulation (remembered values): a comprehension that reads only its
list, a few plain values and tables that never change is worked out once per distinct input
and remembered.

Input: a `count`/`unique`/`sum`/`min`/`max`/`any`/`all` of an innermost comprehension, or the
comprehension itself (dsl/nodes.py), and the scope. Output: an `Ex` that looks the value up
by its inputs (the plain values the items' test and element read, and the list's items) and
works it out only the first time, or None when the expression reads anything else (the
game's state: then it is written as before, by interpreter/compile/exprs.py).

Why: a policy weighs every option with the same sums over the same lists, decision after
decision and game after game (for each target and each cell it might move to, say, how many
different answers a clue would give over the target's candidate cells). The value depends only
on its inputs, so it is the same each time they are; a hand-written game keeps such answers
too. What stays exact: the value (a pure function of the key), a failure (a value that fails
is never remembered, so it fails again where the interpreter's does), and the work meter
`wk` (the work the first evaluation counted is remembered with the value and counted again at
each look-up; a look-up whose work would pass the step budget works the value out again, so
the budget is met where the interpreter meets it, at the same node). The key's plain
values are evaluated only when the list has items, once, before the first item: a key that
may fail only where the comprehension works it out at its first item anyway, and none that
counts work at each item.
Each site remembers at most MEMO_CAP values per process, then starts again. A mixin of the
specializer's writer."""

from __future__ import annotations

import dataclasses
import keyword
import re
from typing import Any

from dsl import nodes as n
from interpreter.compile.base import _NO, COUNTS_WORK, LOCATES, Ex, Unsupported

MEMO_CAP = 4096  # values remembered per site before it is emptied (memory stays bounded)
_REDUCERS = ("count", "unique", "sum", "min", "max", "any", "all")
_KEY_KINDS = ("int", "num", "str", "bool", "player", "team", "cell")
# (A value that may stop at a located site stops at its first evaluation, where the
# interpreter's does: its inputs are the key, so a value remembered never would.)
_BUILTINS = frozenset({"len", "sum", "min", "max", "any", "all", "abs", "list", "map", "set",
                       "sorted", "int", "tuple", "range", "_halt", "_HF", "_U", "_over", "wk", "steps",
                       "_times", "_within", "_over_at", "_item_at", "_map_value", "_plus",
                       "_minus", "_ordered", "_added", "_divided", "_negated", "_joined", "_called",
                       "_looked", "_some", "_most", "_least", "_clamped", "_listed"})
_IDENT = re.compile(r"(?<![\w.'])[A-Za-z_]\w*")
_BOUND = re.compile(r"\bfor (\w+) in\b|\b(\w+) :=")
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
# A `let` worked out once, when first read: (_L1 if _L1 is not _U else (_L1 := ...)).
_LAZY = re.compile(r"^\((_L\d+) if \1 is not _U else \(\1 := .*\)\)$")


def remember(memo: dict, key: tuple, before: int, value: Any, after: int) -> Any:
    """A value worked out for the first time, kept with the work it counted."""
    if len(memo) >= MEMO_CAP:
        memo.clear()
    memo[key] = (value, after - before)
    return value


class MemoWriter:
    """Writes remembered values; `self` is the specializer's writer."""

    def _memoized(self, node: n.Node, scope: dict) -> Ex | None:
        comp = _spine(node)
        # Nodes written as the look-up's parts, kept (so no other node takes their id).
        busy = self.__dict__.setdefault("_memo_busy", {})
        if comp is None or id(node) in busy:
            return None
        parts = [comp.element] + ([comp.cond] if comp.cond is not None else [])
        if any(isinstance(x, n.Comprehension) for p in parts for x in n.walk(p)) or not any(
                isinstance(x, (n.Conditional, n.Call)) for p in parts for x in n.walk(p)):
            return None  # innermost comprehensions that do more than read a table only
        levels = getattr(self, "hoists", None) or []
        marks = [len(moved) for _, moved in levels]
        try:
            written = self._memo_parts(node, comp, scope, busy)
        except Unsupported:
            written = None  # written as before, which says what is not handled
        if written is None:  # what writing the keys moved out of enclosing comprehensions
            for (_, moved), mark in zip(levels, marks, strict=True):
                del moved[mark:]
        return written

    def _memo_parts(self, node: n.Node, comp: n.Comprehension, scope: dict,
                    busy: dict) -> Ex | None:
        it = self._as_list(self.expr(comp.iterable, scope))
        if not it.kind.startswith("list:") or it.kind[5:] not in _KEY_KINDS or \
                it.items is not None:
            return None  # items that are not plain values; a list known now is unrolled
        keys: list[tuple[str, Ex]] = []
        # Without a test, the element is worked out at the first item; with one, only at
        # the items it keeps.
        element = _abstract(comp.element, comp.var, scope, self, keys, comp.cond is None)
        cond = None if comp.cond is None else _abstract(comp.cond, comp.var, scope, self, keys,
                                                        True)
        if not keys:
            return None
        lst, k, mv = self.temp("ml"), self.temp("mkey"), self.temp("mv")
        names = [self.temp("mk") for _ in keys]
        inner = {**scope, "·L": Ex(lst, it.kind, it.safe)}
        inner.update({name: Ex(t, e.kind, True) for (name, e), t in zip(keys, names,
                                                                          strict=True)})
        keyed = _replace(node, comp, dataclasses.replace(
            comp, element=element, cond=cond, iterable=n.Name(comp.iterable.pos, "·L")))
        plain = _replace(node, comp, dataclasses.replace(
            comp, iterable=n.Name(comp.iterable.pos, "·L")))
        _busy(keyed, busy)
        _busy(plain, busy)
        value = self._probe(keyed, inner)
        if not _pure(value.src, {lst, *names}, self.consts):
            return None
        empty = self._probe(plain, {**scope, "·L": inner["·L"]})
        if value.kind != empty.kind:
            return None
        memo = self.const({}, "ME")
        key = "".join(f"({t} := {e.src}), " for t, (_, e) in zip(names, keys, strict=True))
        # Counted again as remembered; where that would pass the step budget, the count is
        # taken back (whole numbers: exact) and the value worked out again instead, to stop
        # at the very node where the interpreter's count passes it. (Counted first and taken
        # back on the rare miss: one addition on a hit, not two.)
        found = (f"({mv}[0] if (wk := wk + {mv}[1]) + steps <= {self.max_steps} or "
                 f"(wk := wk - {mv}[1]) is _U else {value.src})")
        src = (f"({empty.src} if not ({lst} := {it.src}) else {found} if ({mv} := "
               f"{memo}.get({k} := ({key}tuple({lst})))) is not None else "
               f"_remember({memo}, {k}, wk, {value.src}, wk))")
        return Ex(src, value.kind, it.safe and value.safe and empty.safe, bound=value.bound)


def _busy(top: n.Node, busy: dict) -> None:
    """Each reducer of a chain written as a look-up's part, and its comprehension: not
    looked up again."""
    while isinstance(top, n.Call):
        busy[id(top)] = top
        top = top.args[0]
    busy[id(top)] = top


def _spine(node: n.Node) -> n.Comprehension | None:
    """The comprehension a chain of one-argument reducers ends in, or None."""
    while isinstance(node, n.Call) and node.func in _REDUCERS and len(node.args) == 1 \
            and not node.kwargs:
        node = node.args[0]
    return node if isinstance(node, n.Comprehension) else None


def _replace(node: n.Node, old: n.Comprehension, new: n.Comprehension) -> n.Node:
    """The reducer chain `node` with its comprehension `old` replaced by `new`."""
    if node is old:
        return new
    assert isinstance(node, n.Call)
    return dataclasses.replace(node, args=(_replace(node.args[0], old, new),))


def _abstract(node: n.Node, var: str, scope: dict, gen: Any, keys: list[tuple[str, Ex]],
              sure: bool) -> n.Node:
    """`node` with each largest part that does not read the item and is a plain value of a
    kind that can be a key replaced by a key's name (its source in `keys`), when reading it
    once before the items is what the comprehension does: a part worked out at the first
    item whatever happens (`sure`: not under a conditional's branch, the right of `and`/`or`,
    or an element a test may skip) may fail, as it would there, but counts work only as a
    `let` worked out once does (the comprehension would count other work at every item);
    elsewhere a key must be one that cannot fail and counts no work. Parts read another way
    are left as they are (the purity test then decides)."""
    if not n.mentions(node, {var}) and not isinstance(node, n.Literal):
        try:
            e = gen.expr(node, scope)
        except Unsupported:
            e = None  # written in its place, if at all
        # (A key that may stop the game at a located site stays where the items read it.)
        if e is not None and e.kind in _KEY_KINDS and e.const is _NO and not LOCATES.search(
                e.src) and ((sure and (_lazy(e.src) or not COUNTS_WORK.search(e.src))) or (
                ":=" not in e.src and "_halt" not in e.src
                and (e.safe or _read_at_player(node, e, gen, scope)))):
            name = next((k for k, x in keys if x.src == e.src), f"·k{len(keys)}")
            if name == f"·k{len(keys)}":
                keys.append((name, e))
            return n.Name(node.pos, name)
    fields = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        also = sure and n.always_worked_out(node, f.name)
        if isinstance(v, n.Node):
            fields[f.name] = _abstract(v, var, scope, gen, keys, also)
        elif isinstance(v, tuple) and v and all(isinstance(x, n.Node) for x in v):
            fields[f.name] = tuple(_abstract(x, var, scope, gen, keys, also) for x in v)
    return dataclasses.replace(node, **fields) if fields else node


def _lazy(src: str) -> bool:
    """Whether the source is one `let` worked out once, when first read (its work counted
    then, as where the comprehension would first read it)."""
    src = _QUOTED.sub("''", src)  # parentheses inside texts are not the code's
    m = _LAZY.match(src)
    if m is None:
        return False
    start = src.index(f"({m.group(1)} := ")
    depth = 0
    for k in range(start, len(src) - 1):  # the binding's parentheses close at the last but one
        depth += (src[k] == "(") - (src[k] == ")")
        if depth == 0 and k < len(src) - 2:
            return False  # it closes early: more follows it
    return depth == 0


def _read_at_player(node: n.Node, e: Ex, gen: Any, scope: dict) -> bool:
    """A player's field (`me.position`), read from its table at a player that is never
    none: it cannot fail, though its value may be none (a key all the same)."""
    if not isinstance(node, n.Field):
        return False
    who = gen.expr(node.obj, scope)
    return who.kind == "player" and who.safe and re.fullmatch(
        rf"[A-Za-z_]\w*\[{re.escape(who.src)}\]", e.src) is not None


def _pure(src: str, inputs: set[str], consts: dict) -> bool:
    """Whether generated source reads nothing but its inputs, names it binds itself, tables
    that never change and built-ins."""
    bound = {a or b for a, b in _BOUND.findall(src)}
    for name in _IDENT.findall(src):
        if not (name in inputs or name in bound or name in consts or name in _BUILTINS
                or keyword.iskeyword(name)):
            return False
    return True
