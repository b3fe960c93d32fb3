"""Phase 5b, compile for simulation (specializer): expressions over cells, cards, maps and lists
of lists, and the built-ins that order and thin lists.

Input: an expression node and a scope, as interpreter/compile/exprs.py takes them. Output: an
`Ex` for the nodes whose values are of the kinds of interpreter/compile/grids.py (cells,
grids), interpreter/compile/cards.py (cards, decks) and interpreter/compile/maps.py (maps,
list and map state), lists of lists (`[[a, b], [c, d]]`, a list's item at an index), and the
built-ins `sort_by`, `sort`, `unique`, `text`, `first` and `last` of those lists, `get` and
`keys`; every other node is written by exprs.py (this mixin comes before it in the writer's
classes and hands the rest on with `super()`). Also the kind of a list's items, written out
(`same_kind`) or joined from two lists (`joined_kind`), which exprs.py reads.

How each mirrors the interpreter (dsl/compiler.py, dsl/builtins.py): a list's item at an index
is the item for a whole number from 0 to its length less one, else a failure (a negative index
is made a failing one: Python would count it from the end); a zone's item at an index is the
zone's own (Zone.__getitem__, negative indexes included). `sort_by` sorts by each field from
the last to the first, each a stable sort (reversed for a '-' field), on the same field
values; `unique` keeps the first of equal items (a dict's keys, for items of kinds whose
Python equality and hashing are the language's); `text` of a number, text, true/false, none
or cell is the built-in itself.

What it saves: a lookup in the tables of cells and cards (or a test made of them) inside a
comprehension's element or condition, or in a `best` rule's score, that depends on no item
(no option) is worked out once before the items (`for _h in (SRC,)`, or a line before the
options' loop), at the outermost level it does not depend on; `count(unique(...))` of a
comprehension is a set comprehension's size.
"""

from __future__ import annotations

import ast
import re
from functools import lru_cache
from typing import Any

from dsl import nodes as n
from dsl.builtins import BUILTINS
from dsl.compiler import no_field
from interpreter.compile.base import _NO, LOCATES, Ex, Unsupported, zone_item
from interpreter.compile.cuts import end_of, whole_listcomp

_LIFTED = ("int", "num", "str", "bool", "cell", "card")  # scalars worth working out once
# The constant tables of grids, cards and maps (interpreter/compile/grids.py, cards.py):
# lookups in them are what `_lift` moves before a comprehension's items.
_TABLES = re.compile(r"\b_(G[A-Z]+\w*|CF\d+|CDK\d+)\[")
_SUBSCRIPT = re.compile(r"[A-Za-z_]\w*\[")  # how a lookup in a table begins
_OPTION = re.compile(r"\b_o\d+\b")  # the option a `best` rule weighs (policies._best)
# Kinds whose Python values hash and compare as the language compares them: unique by dict
# keys, and a list of them searched as a set (races.py).
HASHED = ("int", "num", "str", "player", "team", "card", "cell")
_OWN_CALLS = frozenset({"neighbours", "direction", "distance", "adjacent", "row", "column",
                        "get", "keys", "sort_by", "sort", "unique", "text"})
_NEW_ITEMS = ("cell", "card", "list:")


@lru_cache(maxsize=1024)  # asked of the same sources again and again while generating
def _lookup(src: str) -> tuple[str, str] | None:
    """(table, key) of `src` when it is one lookup `_TABLE[key]`, else None."""
    if not (_SUBSCRIPT.match(src) and src.endswith("]")):
        return None  # not even the shape of one (no parse)
    node = ast.parse(src, mode="eval").body
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        return node.value.id, ast.get_source_segment(src, node.slice)
    return None


def sort_by(items: list, keys: tuple) -> list:
    """dsl/builtins._sort_by on tables: for each (table, descending) from the last field to
    the first, a stable sort of the items by their value in the table."""
    xs = list(items)
    for table, descending in reversed(keys):
        xs = sorted(xs, key=table.__getitem__, reverse=descending)
    return xs


def sort_by_named(items: list, *named: Any) -> list:
    """`sort_by` as a located call writes it: the fields' names (the built-in's arguments,
    which its words tell), then the tables of `sort_by`."""
    return sort_by(items, named[-1])


class KindWriter:
    """Expressions of the newer kinds (a mixin of _Gen, before ExprWriter)."""

    # -- work done once per comprehension ----------------------------------------------------------
    def expr(self, node: n.Node, scope: dict) -> Ex:
        e = super().expr(node, scope)
        if isinstance(node, (n.Binary, n.Unary, n.Conditional)) and e.kind in _LIFTED and \
                e.const is _NO and _TABLES.search(e.src):
            return self._lifted(e.src, e.kind, e.safe, bound=e.bound, some=e.some)
        return e

    def _lifted(self, src: str, kind: str, safe: bool, **kw) -> Ex:
        """`src` as an Ex, moved before the items where `_lift` moves it, though a cell or
        card read so may still be none unless it never was. A lookup that can fail is worked
        out before the items without failing (`_HF` when it cannot be made: a dict's `get`,
        else `base.tried`); where it is read (only where the rules read it: `pos != none and
        pos.depth == ...`), `_HF` stops the game: a located lookup worked out again there
        stops at its own place, another (`_halt`) hands the seed to the checked version."""
        if safe:
            moved = self._lift(src)
            return Ex(moved, kind, safe or (moved != src and (
                kind not in ("cell", "card") or kw.get("some", False))), **kw)
        if not getattr(self, "hoists", None):
            return Ex(src, kind, safe, **kw)  # not inside items: nothing to move before them
        lookup = _lookup(src)
        table = self.consts.get(lookup[0]) if lookup else None
        careful = (f"{lookup[0]}.get({lookup[1]}, _HF)" if isinstance(table, dict)
                   else f"_tried(lambda: {src})")
        moved = self._lift(careful)
        if moved == careful:
            return Ex(src, kind, safe, **kw)
        # Read where the rules read it, a lookup that could not be made stops the game: a
        # located one worked out again there, to stop at its own place (LOCATES).
        fails = src if LOCATES.search(src) else "_halt()"
        return Ex(f"({moved} if {moved} is not _HF else {fails})", kind,
                  kind not in ("cell", "card") or kw.get("some", False), **kw)

    def _lift(self, src: str) -> str:
        """A lookup in the tables of cells, cards or maps inside a comprehension's element or
        condition that depends on none of the items it sits in (`me.position.depth` in
        `[... for c in cells]`) is worked out once, before the items of the outermost
        comprehension it does not depend on (`for _h in (SRC,)`), not once per item. It is
        then worked out even when there are no items, or none passes the test: a lookup that
        could not be made stops the game only where it is read (`_lifted`)."""
        hoists = getattr(self, "hoists", None)
        if not hoists or ":=" in src or src.isidentifier():
            return src
        level = None
        for var, moved in reversed(hoists):
            # Not past the comprehension whose item it reads, or a name moved into it.
            if var.search(src) or any(re.search(rf"\b{h}\b", src) for h, _ in moved):
                break
            level = moved
        if level is None:
            return src
        for h, moved_src in level:
            if moved_src == src:  # already worked out there
                return h
        name = self.temp("h")
        level.append((name, src))
        return name

    def _probe(self, node: n.Node, scope: dict) -> Ex:
        """`node` written without moving anything before a comprehension's items: to see its
        kind before handing the node on to exprs.py, which writes it again (moving a list
        twice would build it twice)."""
        had = "hoists" in self.__dict__
        saved = self.__dict__.get("hoists")
        self.hoists = []
        try:
            return self.expr(node, scope)
        finally:
            if had:
                self.hoists = saved
            else:
                del self.hoists

    def _best(self, text: str, legal: tuple, c: str, d: int, scope: dict, each: dict,
              path: tuple) -> None:
        """A `best` rule, its options' loop treated as a comprehension's items: what the score
        reads that depends on no option (`me.position.depth`, a list of the player's) is worked
        out once before the loop, not once an option."""
        if not hasattr(self, "hoists"):
            self.hoists = []
        moved: list[tuple[str, str]] = []
        mark = len(self.lines)
        self.hoists.append((_OPTION, moved))  # the option is policies.py's `_oN` name
        try:
            super()._best(text, legal, c, d, scope, each, path)
        finally:
            self.hoists.pop()
        self.lines[mark:mark] = ["    " * d + f"{name} = {src}" for name, src in moved]

    # -- names and fields ------------------------------------------------------------------------
    def _x_name(self, node: n.Name, scope: dict) -> Ex:
        name = node.id
        if name not in scope:
            found = self._grid_name(name) or self._deck_name(name)
            if found is not None:
                return found
            if name in self.vars:
                state = self._state_read(name, None)
                if state is not None:
                    return state
        return super()._x_name(node, scope)

    def _x_field(self, node: n.Field, scope: dict) -> Ex:
        obj = self._probe(node.obj, scope)
        if obj.kind in ("player", "team", "dref") and not obj.safe:
            # None has no fields: where located, the interpreter's error at the field.
            some = self.someone(obj, node.name_pos, no_field(None, node.name))
            if some is not obj:
                return self._x_field_of(some, node, scope)
        if obj.kind == "cell":
            return self._cell_field(obj, node.name, node.name_pos)
        if obj.kind == "card":
            return self._card_field(obj, node.name, node.name_pos)
        if obj.kind == "grid":
            return self._grid_field(obj, node.name)
        return self._x_field_of(obj, node, scope, True)

    def _x_field_of(self, obj: Ex, node: n.Field, scope: dict, probed: bool = False) -> Ex:
        """A field of `obj`, a player's state or exprs.py's fields; `probed`: `obj` is only
        the probe of the node's object, which exprs.py writes again."""
        if obj.kind == "player":
            state = self._state_read(node.name, obj)
            if state is not None:
                return state
        return super()._x_field(node, scope, None if probed else obj)

    # -- indexes ---------------------------------------------------------------------------------
    def _x_index(self, node: n.Index, scope: dict) -> Ex:
        obj = self._probe(node.obj, scope)
        kind = obj.kind
        if kind not in ("grid", "zone") and not kind.startswith(("map:", "list:")):
            return super()._x_index(node, scope)
        key = self.expr(node.key, scope)
        if kind == "grid":
            return self._grid_index(obj, key, node.pos)
        if kind.startswith("map:"):
            return self._map_index(obj, key, node.pos)
        if key.kind != "int":
            raise Unsupported("a list indexed by something not a whole number")
        if kind == "zone":  # the zone's own indexing: Python's, negative indexes included
            site = self.site(node.pos)  # where it has no such item: the interpreter's stop
            src = (f"{obj.src}[{key.src}]" if site is None else
                   f"{self.const(zone_item, 'ZI')}({obj.src}, {key.src}, {site})")
            return Ex(src, self.item_kind, False, some=True)
        if (key.const if type(key.const) is int else key.least if key.least is not None
                else -1) >= 0:  # no negative index: `option - 1` of options from 1
            k = key.src
        else:  # a negative index fails, as the interpreter's does
            t = self.temp("k")
            k = f"({t} if ({t} := {key.src}) >= 0 else None)"
        item = kind[5:]
        if item == "?":
            raise Unsupported("an item of a list of unknown items")
        site = self.site(node.pos)
        if site is not None:  # past the list's ends: the interpreter's located error
            return Ex(f"_item_at({obj.src}, {key.src}, {site})", item, False,
                      some=item in ("cell", "card"))
        return Ex(f"{obj.src}[{k}]", item, False, some=item in ("cell", "card"))

    # -- lists -----------------------------------------------------------------------------------
    def _as_list(self, e: Ex) -> Ex:
        """A policy's `options` read as the list of the legal options' values (Policy.decide:
        names, or the values of options given by a list); a zone as what it holds."""
        if e.kind != "options":
            return super()._as_list(e)
        mode, legal, values = e.opts
        if mode == "values":
            return Ex(legal, "list:" + values, True)
        if mode == "static":
            return Ex(repr([values[i] for i in legal]), "list:str", True)
        if mode == "dynamic":
            c = self.temp("c")
            return Ex(f"[{self.const(tuple(values), 'VA')}[{c}] for {c} in {legal}]", "list:str",
                      True)
        raise Unsupported("the options of a number choice")

    def _x_listexpr(self, node: n.ListExpr, scope: dict) -> Ex:
        items = [self._probe(x, scope) for x in node.items]
        kinds = {x.kind for x in items}
        if not items or not all(k.startswith(_NEW_ITEMS) for k in kinds):
            return super()._x_listexpr(node, scope)
        if all(k.startswith("list:") for k in kinds):
            inner = {k for k in kinds if k != "list:?"}
            if len(inner) > 1:
                raise Unsupported("a list of lists of mixed kinds")
            kind = inner.pop() if inner else "list:?"
        elif len(kinds) == 1:
            kind = kinds.pop()
            if not all(x.safe or x.some for x in items):
                raise Unsupported("a list that may hold none")
        else:
            raise Unsupported("a mixed list")
        return Ex("[" + ", ".join(x.src for x in items) + "]", "list:" + kind,
                  all(x.safe for x in items))

    def _x_binary(self, node: n.Binary, scope: dict) -> Ex:
        if node.op in ("in", "not in"):
            b = self._probe(node.right, scope)
            if b.kind == "options":  # a legal option, by index (before `options` as a list)
                return self._in_options(self.expr(node.left, scope), b, node.op == "not in")
            if b.kind.startswith("map:"):
                return self._map_member(self.expr(node.left, scope), b, node.op == "not in")
            if b.kind == "list:?" and self._lenient():
                return Ex("False", "bool")  # items not known yet: this pass is not kept
        return super()._x_binary(node, scope)

    # -- built-ins -------------------------------------------------------------------------------
    def _x_call(self, node: n.Call, scope: dict) -> Ex:
        f = node.func
        if node.kwargs or (f not in _OWN_CALLS and f not in ("first", "last", "count")):
            return super()._x_call(node, scope)
        if f == "count" and len(node.args) == 1 and isinstance(node.args[0], n.Call) and \
                node.args[0].func == "unique" and len(node.args[0].args) == 1:
            # The number of different items: a set's size (no list of them is made).
            xs = self._as_list(self._probe(node.args[0].args[0], scope))
            if xs.kind.startswith("list:") and xs.kind[5:] in HASHED:
                read = node.args[0].args[0]
                raw = self.expr(read, scope)
                xs, k = self._as_list(raw), self.temp("k")
                # Counted as the two calls count: `count` the different items; `unique`
                # those and the list it reads, unless a comprehension made that list (a
                # zone is not a list: its items are not counted).
                if isinstance(read, n.Comprehension) or not raw.kind.startswith("list:"):
                    made = (f"len({{{xs.src[1:-1]}}})" if whole_listcomp(xs.src)  # no list first
                            else f"len(set({xs.src}))")
                    test = self.past_few(k, made)
                    if not isinstance(read, n.Comprehension):
                        test += f" and {self.past_few(k)}"
                else:
                    t = self.temp()
                    test = (f"{self.past_few(k, f'len(set(({t} := {xs.src})))')} and "
                            f"{self.past_few(f'(len({t}) + {k})')}")
                return Ex(f"({k} if {test} else None)", "int", xs.safe)
            return super()._x_call(node, scope)
        if f == "count":
            return super()._x_call(node, scope)
        if f in ("first", "last"):
            if len(node.args) != 1:
                raise Unsupported(f"built-in {f}")
            a = self._as_list(self._probe(node.args[0], scope))
            if not a.kind.startswith("list:") or not a.kind[5:].startswith(_NEW_ITEMS):
                return super()._x_call(node, scope)
            a = self._charged_args(node, [self._as_list(self.expr(node.args[0], scope))])[0]
            return Ex(end_of(f, a.src, a.safe, self.temp()), a.kind[5:], False)
        args = self._charged_args(node, [self.expr(a, scope) for a in node.args])
        found = self._grid_call(f, args) if f in ("neighbours", "direction", "distance",
                                                   "adjacent", "row", "column") else None
        if found is None and f in ("get", "keys"):
            found = self._map_call(f, args, node.pos)
        if found is None and f in ("sort_by", "sort", "unique"):
            found = self._ordering(f, args, not isinstance(node.args[0], n.Comprehension)
                                   if node.args else False, node.pos)
        if found is None and f == "text" and len(args) == 1:
            found = self._text(args[0], node.pos)
        if found is None:
            raise Unsupported(f"built-in {f}")
        return found

    def _text(self, x: Ex, pos: tuple | None = None) -> Ex | None:
        """`text(x)` of a number, text, true/false, cell or a list of numbers or texts: the
        built-in's own text."""
        if x.kind == "str" and (x.const is not _NO or x.some):
            return x
        if x.kind == "int" and x.const is not _NO:  # a whole number (never true/false here)
            return Ex(f"str({x.src})", "str", x.safe, some=True)
        if x.kind in ("int", "num", "bool", "cell", "none", "str"):  # an int may be none: a
            # die's face before its first roll, or a state set to it; a text too
            return Ex(f"{self.const(BUILTINS['text'].impl, 'TX')}({x.src})", "str", x.safe,
                      some=True)
        if x.kind in ("list:int", "list:num", "list:str"):
            # builtins._written: the items by commas (none as `none`), an empty list `none`;
            # past the longest text, the built-in's error (`EvalError`, a rule error; where
            # located, stopped at the call). Numbers written here, texts by the built-in.
            fn = "_listed" if x.kind != "list:str" else self.const(BUILTINS["text"].impl, "TX")
            return Ex(self.call_at(pos, "text", fn, [x]) or f"{fn}({x.src})", "str", x.safe)
        return None

    def _ordering(self, f: str, args: list[Ex], counted: bool,
                  pos: tuple | None = None) -> Ex | None:
        """`sort_by`, `sort` and `unique` of a list (or a zone, read as its list); `counted`:
        the list is no comprehension's, so the call counts it (`unique` counts here); `pos`:
        the call's place, where `sort` or `sort_by` of a list it cannot order (holding none)
        stops."""
        if not args:
            return None
        xs = self._as_list(args[0])
        if not xs.kind.startswith("list:") or xs.kind == "list:?":
            return None
        item = xs.kind[5:]
        if f == "unique":
            if len(args) != 1 or item not in HASHED:
                return None
            if not counted or not args[0].kind.startswith("list:"):  # a zone: not a list
                return Ex(f"list(dict.fromkeys({xs.src}))", xs.kind, xs.safe)
            t = self.temp()
            return Ex(self.made_list(t, f"list(dict.fromkeys(({t} := {xs.src})))"), xs.kind,
                      xs.safe)
        if f == "sort":
            if len(args) != 1 or item not in ("int", "num", "str"):
                return None
            tested = self.call_at(pos, f, "sorted", [xs],
                                  shown=("a zone" if args[0].kind == "zone" else None,))
            return Ex(tested or f"sorted({xs.src})", xs.kind, False)  # none fails
        keys = []
        for spec in args[1:]:
            if type(spec.const) is not str:
                raise Unsupported("sort_by a field not known when generating")
            keys.append(f"({self._field_table(item, spec.const.lstrip('-'))}, "
                        f"{spec.const.startswith('-')})")
        if not keys:
            return None
        self.consts.setdefault("_SORT_BY", sort_by)
        tables = f"({', '.join(keys)},)"
        # Where located, a list it cannot order (a field that is none in some) stops at the
        # call, worded from the interpreter's arguments: the list, then the fields' names.
        self.consts.setdefault("_SORT_BY_NAMED", sort_by_named)
        tested = self.call_at(pos, f, "_SORT_BY_NAMED", [xs, *args[1:]], f", {tables}",
                              shown=("a zone" if args[0].kind == "zone" else None,))
        return Ex(tested or f"_SORT_BY({xs.src}, {tables})", xs.kind, False)

    def _field_table(self, item: str, f: str) -> str:
        """The table of a field by item (a seat, a card number, a cell id), as `get` reads
        it, for `sort_by`."""
        probe = Ex("0", item, True) if item != "cell" else Ex("''", "cell", True)
        if item == "player":
            if f == "name":
                return self.const(tuple(self.seat_names), "N")
            if f == "seat":
                return self.const(tuple(range(1, self.n + 1)), "ST")
            var = self.vars.get(f)
            if var is None or var[0] != "player" or var[2] in ("list", "map"):
                raise Unsupported(f"sort_by player field {f}")
            return var[1]
        if item == "cell" and f == "id":
            return self._table("ID", {c.id: c.id for c in self.cells_all})
        if item == "card":
            src = self._card_field(probe, f).src
        elif item == "dref":  # a die's face (the faces' table), kind or attribute
            src = self._die_field(probe, f).src
        elif item == "cell":
            src = self._cell_field(probe, f).src
        else:
            raise Unsupported(f"sort_by of a list of {item}")
        if not src.endswith("]") or "[" not in src:
            raise Unsupported(f"sort_by field {f}")
        return src[:src.rindex("[")]


def same_kind(items: list[Ex]) -> str:
    """The one kind of a list's items (whole numbers with numbers are numbers), or refused."""
    kinds = {x.kind for x in items}
    if kinds <= {"int", "num"} and kinds:
        return "num" if "num" in kinds else "int"
    if len(kinds) != 1:
        raise Unsupported("a list of mixed kinds")
    k = next(iter(kinds))
    if k.startswith(("list", "die", "dice", "timer")):
        raise Unsupported("a list of lists")
    return k


def joined_kind(a: str, b: str) -> str:
    """The kind of a list made of two lists (an empty list `[]` takes the other's kind)."""
    if a == "list:?" or a == b:
        return b
    if b == "list:?":
        return a
    raise Unsupported("a list of mixed kinds")
