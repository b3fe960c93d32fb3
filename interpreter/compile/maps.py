"""Phase 5b, compile for simulation (specializer): maps, lists whose items are learned, and the
state that holds them, as code.

Input: the checked ruleset's state of `type: map` and `type: list` (global and per player),
cell and card state, and the generator of interpreter/compile/specialize.py. Output (as a
mixin of its `_Gen`): a map is a Python dict (kind `map:K=V`: keys of kind K, values of kind
V), set at a key (`M[k]`, `p.M[k]` as `set`/`add` targets, as steps._setter's write_index on a
map), read at a key (`M[k]`: a missing key stops the game, as dsl/compiler._index, located where
the expression is), by `get(M, k, default)` (the default worked out first, as the built-in's argument),
`k in M` and `keys(M)` (insertion order, as the interpreter's dicts); per-player list, map and
cell state (`P_name[seat]`); `set` and `let` store a copy of a map (steps' `copied`: values
are never shared), `{}` is the only initial map.

Learning kinds. What a map or a list holds is often told only by an assignment far from
where it is read (a policy reads a player's notes before the procedure that writes them is
written out). So when the ruleset has lists or maps whose items no initial value tells, the
game is first written in learning passes: a list or map of unknown kind reads as one of
unknown items, each step that cannot be written is passed over, and every `set` and `add`
whose value has a kind known through and through teaches its target's kind; passes repeat
until they teach nothing new. The game is then written once more as usual, in which a read of
a kind still unknown, a write of another kind than the one learned, or anything else not
specialized refuses the setup. That last pass checks every write against the learned kinds,
so every value such state holds has its kind, as every read assumes. A learning pass that
passed nothing over and read no unknown kind (each kind was taught at a write before any
read) is that last pass already, and ends the learning; the tracked game of the same setup
starts from the kinds the first one learned.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

from dsl import nodes as n
from dsl.compiler import builtin_said, no_key
from dsl.parser import parse_expression
from interpreter.compile.base import _NONEABLE, _NUMS, Ex, ItemSet, Stop, Unsupported, _Ctx, _node

# Kinds a map may be keyed by: values whose Python equality and hashing are the language's.
_KEYS = ("int", "num", "str", "bool", "player", "team", "card", "cell")
_PASSES = 8  # learning passes at most (each teaches at least one kind, or they stop)


class Named(str):
    """A seat's or team's name as a message shows the player or team (`repr` of a Player or
    Team is its name)."""

    __repr__ = str.__str__


def a_map(m: Any, site: tuple | None) -> Any:
    """A map `get` or `keys` reads that may be none: none stops the game at `site` (where
    located; else without one: the checked version plays the game and locates it)."""
    if m is None:
        raise Stop(site) if site is not None else Stop()
    return m


def map_value(table: Any, k: Any, site: tuple, names: tuple | None = None) -> Any:
    """`table[k]` of a map in the versions that locate their rule errors: a key it does not
    have stops the game at `site`, told as the interpreter tells it (a text, a number; a seat
    or team by its name from `names`); a map that is none cannot be indexed."""
    if table is None:
        raise Stop(site, "none cannot be indexed with [...]")  # dsl/compiler.py's words
    try:
        return table[k]
    except (KeyError, TypeError):
        shown = Named(names[k]) if names is not None and type(k) is int else k
        raise Stop(site, no_key(shown)) from None


def map_parts(kind: str) -> tuple[str, str]:
    """(key kind, value kind) of `map:K=V`."""
    key, _, value = kind[4:].partition("=")
    return key, value


def known(kind: str) -> bool:
    """Whether a kind is known through and through (no unknown items anywhere in it)."""
    return "?" not in kind and kind != "none"


class MapWriter:
    """Maps, learned list and map kinds, and the state holding them (a mixin of _Gen)."""

    # -- learning --------------------------------------------------------------------------------
    def _needs_learning(self) -> bool:
        return any(kind == "map" or (kind == "list" and self.list_kinds.get(name) is None)
                   for name, (_, _, kind) in self.vars.items()) or "?" in self.decisions.values()

    def generate(self) -> str:
        """The game's source; learning passes first when some state's kind is not known. A
        pass that never had to pass anything over nor read an unknown kind wrote exactly what
        the usual pass would (it taught each kind at a write before any read of it): its
        source is the game's."""
        if not hasattr(self, "learned"):
            self.learned: dict[str, str] = {}
        self.learning = False
        if self._needs_learning():
            for _ in range(_PASSES):
                before = dict(self.learned)
                self.learning, self.lenient = True, False
                try:
                    source = super().generate()
                except Unsupported:
                    self.lenient = True  # refused outside any step: what was learned counts
                if not self.lenient:
                    self.learning = False
                    return source
                self._restart()
                if self.learned == before:
                    break
            self.learning = False
        return super().generate()

    def _lenient(self) -> bool:
        """Whether this is a learning pass (and, if so, that it passed over something)."""
        if getattr(self, "learning", False):
            self.lenient = True
            return True
        return False

    def _restart(self) -> None:
        """A fresh writer for another pass, keeping what was learned."""
        learned = self.learned
        self.learning = False
        self.__init__(self.p, self.n, self.controllers, self.track, self.logged, self.live,
                      self.table, self.script_only, self.positioned, self.out, self.wide,
                      self.loose)
        self.learned = learned
        self.learning = False

    def step(self, step: Any, d: int, ctx: _Ctx) -> None:
        if not getattr(self, "learning", False):
            return super().step(step, d, ctx)
        try:
            super().step(step, d, ctx)
        except Unsupported:
            self.lenient = True
            self.emit(d, "pass")  # passed over while learning: this pass's code is not kept

    def _controllers(self, did: str, values: Any, legal: tuple, c: str, d: int,
                     who: Ex, shown: Any = None) -> None:
        """While learning, a controller that cannot be written yet (its policy reads state of
        unknown items) still lets the decision's options be written, which may teach."""
        if not getattr(self, "learning", False):
            return super()._controllers(did, values, legal, c, d, who, shown)
        try:
            super()._controllers(did, values, legal, c, d, who, shown)
        except Unsupported:
            self.lenient = True
            self.emit(d, f"{c} = None")

    def _choose_values(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """A decision whose options are given by a list holds one of its items: what this
        site offers teaches the decision's kind (options that read a procedure's parameters
        could not be worked out before), and must agree with it."""
        did = spec["choose"]
        try:
            opts = self._as_list(self.expr(_node(spec["options"]), ctx.scope))
        except Unsupported:
            opts = None
        if opts is not None and opts.kind.startswith("list:") and opts.kind != "list:?":
            item = opts.kind[5:]
            if self.decisions.get(did) == "?":
                self._teach(f"?{did}", item)
                self.decisions[did] = self.learned.get(f"?{did}", "?")
            if self.decisions.get(did) != item:
                raise Unsupported("one decision holding items of different kinds")
        super()._choose_values(spec, d, ctx)

    def _learned_decisions(self) -> None:
        """Decisions whose kinds earlier passes learned (see `_choose_values`)."""
        for did, kind in self.decisions.items():
            if kind == "?" and f"?{did}" in getattr(self, "learned", {}):
                self.decisions[did] = self.learned[f"?{did}"]

    def _teach(self, name: str, kind: str) -> None:
        """`name`'s kind, told by a write (the first kind known through and through)."""
        if known(kind) and name not in self.learned:
            self.learned[name] = kind

    def _state_kind(self, name: str) -> str:
        """The full kind of list, map or other state `name`; an unknown list or map reads as
        one of unknown items while learning, and is refused otherwise."""
        _, _, kind = self.vars[name]
        if kind not in ("list", "map"):
            return kind
        full = (self.list_kinds.get(name) if kind == "list" else None) or \
            getattr(self, "learned", {}).get(name)
        if full is None:
            if self._lenient():
                return "list:?" if kind == "list" else "map:?=?"
            raise Unsupported(f"the items of {kind} {name}")
        return full

    # -- state -----------------------------------------------------------------------------------
    def _state_read(self, name: str, obj: Ex | None) -> Ex | None:
        """Global (obj None) or per-player list, map or cell state this module reads, else
        None (other state is read by interpreter/compile/exprs.py)."""
        var = self.vars.get(name)
        if var is None or (var[0] == "player") != (obj is not None) or var[0] not in (
                "global", "player", "turn", "round"):
            return None
        if var[2] not in ("list", "map", "cell", "card"):
            return None
        if obj is None and (name in self.fixed or var[2] in ("cell", "card") or (
                var[2] == "list" and self.list_kinds.get(name) is not None)):
            return None  # global cells and lists of known items: exprs.py reads them
        kind = self._state_kind(name)
        src = var[1] if obj is None else f"{var[1]}[{obj.src}]"
        safe = (obj is None or obj.safe) and kind not in _NONEABLE
        return Ex(src, kind, safe)

    def _initial(self, name: str, kind: str, scope: dict) -> str:
        """As program._initial: lists and maps fresh per game (`[]`, `{}`), or an expression
        of the state's kind."""
        if kind not in ("list", "map"):
            return super()._initial(name, kind, scope)
        init, is_expr = self.inits[name]
        numbers = not is_expr and kind == "list" and init and _numbers_only(init)
        if not is_expr and not numbers:
            if init in ([], {}) and (init == {}) == (kind == "map"):
                return "{}" if kind == "map" else "[]"
            written = _written_kind(init, kind)
            if written is None:
                raise Unsupported(f"a {kind} state with items from the start")
            self._teach(name, written)  # a display: a fresh list or map each game
            if self._state_kind(name) != written and not self._lenient():
                raise Unsupported(f"initial value of {name}")
            return repr(init)
        # An expression, or a written list of numbers (nested or not): a list display, so a
        # fresh list each game, as the interpreter's deep copy.
        e = self.expr(_node(init) if numbers else parse_expression(init), scope)
        if kind == "list" and self.list_kinds.get(name) is None:
            self._teach(name, e.kind)
        want = self._state_kind(name)
        if not self._fits(want, e.kind) and not self._lenient():
            raise Unsupported(f"initial value of {name}")
        return e.src

    # -- writes ----------------------------------------------------------------------------------
    def _learnable(self, text: str, ctx: _Ctx) -> tuple[str, Ex | None, n.Node] | None:
        """(state name, the key of `M[k]` or None, the target's node) of a target writing list
        or map state, else None."""
        node = parse_expression(text)
        key = None
        if isinstance(node, n.Index):
            key, node = node.key, node.obj
        if isinstance(node, n.Name):
            name = node.id
            var = self.vars.get(name)
            if var is None or var[0] == "player":
                return None
        elif isinstance(node, n.Field):
            name = node.name
            var = self.vars.get(name)
            if var is None or var[0] != "player":
                return None
        else:
            return None
        if var[2] not in ("list", "map") or (key is not None) != (var[2] == "map"):
            return None
        return name, (self.expr(key, ctx.scope) if key is not None else None), node

    def _teach_from(self, pairs: dict, ctx: _Ctx, adding: bool) -> None:
        """The kinds `set` (or `add`) teaches its list and map targets."""
        for text, value in pairs.items():
            try:
                found = self._learnable(text, ctx)
                if found is None or found[0] in self.learned:
                    continue
                name, key, _ = found
                v = self.expr(_node(value), ctx.scope)
            except Unsupported:
                continue
            kind = v.kind
            if key is not None:  # a map at a key
                if key.kind not in _KEYS:
                    continue
                if adding:
                    continue  # adding to a value at a key says nothing of the map's values
                self._teach(name, f"map:{key.kind}={kind}")
            elif adding:
                self._teach(name, kind if kind.startswith("list:") else "list:" + kind)
            else:
                self._teach(name, kind)

    def _s_set(self, spec: dict, d: int, ctx: _Ctx) -> None:
        if isinstance(spec.get("set"), dict):
            self._teach_from(spec["set"], ctx, False)
        super()._s_set(spec, d, ctx)

    def _s_add(self, spec: dict, d: int, ctx: _Ctx) -> None:
        if isinstance(spec.get("add"), dict):
            self._teach_from(spec["add"], ctx, True)
        super()._s_add(spec, d, ctx)

    def _target(self, text: str, ctx: _Ctx, read: bool = False) -> tuple[str, str, str]:
        """Targets writing a map at a key, or per-player list, map or cell state; the rest as
        interpreter/compile/effects.py writes them."""
        node = parse_expression(text)
        if isinstance(node, n.Index):
            obj = node.obj
            if isinstance(obj, n.Name) and obj.id in ctx.scope:
                # A name bound here (`let`, a parameter, `for_each`) hides the state of that
                # name: the interpreter changes the list or map the name holds.
                raise Unsupported("a set of an item of a name bound in the steps")
            name = obj.id if isinstance(obj, n.Name) else obj.name \
                if isinstance(obj, n.Field) else None
            var = self.vars.get(name) if name else None
            at = self.target_at(text, read)
            if var is not None and var[2] == "map":
                with self.located(at):  # read as an expression reads them, located there
                    m = self.expr(obj, ctx.scope)
                    if not m.kind.startswith("map:"):
                        raise Unsupported("target")
                    key = self.expr(node.key, ctx.scope)
                kk, vk = map_parts(m.kind)
                if key.kind != kk or (key.kind in _NONEABLE and not (key.safe or key.some)):
                    raise Unsupported("a map set at a key of another kind")
                return f"{m.src}[{key.src}]", vk, name
            item = self._list_item_target(node, ctx, at, read)
            if item is not None:
                return item
            return super()._target(text, ctx, read)
        if isinstance(node, n.Field):
            var = self.vars.get(node.name)
            if var is not None and var[0] == "player" and var[2] in ("list", "map", "cell",
                                                                    "card"):
                obj = self.target_owner(node, ctx, read, self.target_at(text, read))
                if obj.kind != "player":
                    raise Unsupported("target")
                return f"{var[1]}[{obj.src}]", self._state_kind(node.name), node.name
        if isinstance(node, n.Name):
            var = self.vars.get(node.id)
            if var is not None and var[0] != "player" and var[2] in ("list", "map"):
                return var[1], self._state_kind(node.id), node.id
        return super()._target(text, ctx, read)

    def _list_item_target(self, node: n.Index, ctx: _Ctx, at: tuple | None,
                          read: bool = False) -> tuple[ItemSet, str, str] | None:
        """`L[k]` or `p.L[k]` of global, turn, round or per-player list state as a `set`
        target (base.set_in: a new list, the item changed), with the kind of the item; None
        for other targets. Located at the target `at` where the version locates it, as
        steps._setter's write_index: `p.L` read (none has no fields), then the key, then the
        item set (`set_in`'s site: a key past the ends). An `add` (`read`) reads the item
        first, as an expression reads it (a negative key is the interpreter's error there),
        and adds to a number: an item that is a list is not added to here."""
        root = node.obj
        if isinstance(root, n.Index):
            # `c[i][j]`: a `for_each` over `c` holds its rows themselves (steps.py), and the
            # interpreter changes the row in place, which its name then shows; a new row here
            # would not be seen through that name.
            raise Unsupported("a set of an item of a list in a list")
        name = root.id if isinstance(root, n.Name) else root.name \
            if isinstance(root, n.Field) else None
        var = self.vars.get(name) if name else None
        if var is None or var[2] != "list" or var[0] not in ("global", "player", "turn",
                                                             "round"):
            return None
        if var[0] == "player" and isinstance(root, n.Field):
            obj = self.target_owner(root, ctx, True, at)
            if obj.kind != "player":
                raise Unsupported("target")
            held = f"{var[1]}[{obj.src}]"
        elif var[0] != "player" and isinstance(root, n.Name):
            held = var[1]
        else:
            return None
        lst = self._state_kind(name)
        with self.located(at):
            key = self.expr(node.key, ctx.scope)
        if not lst.startswith("list:") or key.kind != "int":
            raise Unsupported("an item set of another kind")
        item = lst[len("list:"):]
        got = ""
        if read:
            if item not in _NUMS:
                raise Unsupported("add to an item of a list that is not a number")
            with self.located(at):
                got = self.expr(node, ctx.scope).src
        return ItemSet(held, key.src, got, self.target_site(at, None)), item, name

    # -- reads -----------------------------------------------------------------------------------
    def _map_index(self, m: Ex, key: Ex, pos: tuple) -> Ex:
        """`M[k]`: the value at the key; a missing key fails (the interpreter's error, located,
        in its words: a text or a number, a player or team by name)."""
        kk, vk = map_parts(m.kind)
        if key.kind != kk and not (kk == "?" and self._lenient()):
            raise Unsupported("a map read at a key of another kind")
        site = self.site(pos) if key.kind in ("str", "int", "num", "player", "team") else None
        if site is not None:
            names = (f", {self.const(tuple(self.seat_names), 'N')}" if key.kind == "player" else
                     f", {self.const(tuple(self.team_names), 'TN')}" if key.kind == "team" else "")
            return Ex(f"_map_value({m.src}, {key.src}, {site}{names})", vk, False)
        return Ex(f"{m.src}[{key.src}]", vk, False)

    def _map_call(self, f: str, args: list[Ex], pos: tuple | None = None) -> Ex | None:
        """`get` and `keys` on maps, as dsl/builtins.py (a map that may be none, a decision
        by several players before its first answer, read through `_a_map`: none stops the
        game in the built-in's words); None for other calls."""
        if f in ("get", "keys") and args and args[0].kind.startswith("map:") and \
                not args[0].safe:
            site = self.site(pos, builtin_said(f, "expected a map, got none"))
            args = [replace(args[0], src=f"_a_map({args[0].src}, {site})", safe=True),
                    *args[1:]]
        if f == "get" and len(args) == 3 and args[0].kind.startswith("map:"):
            m, key, default = args
            kk, vk = map_parts(m.kind)
            if key.kind != kk and not (kk == "?" and self._lenient()):
                raise Unsupported("get at a key of another kind")
            kind = vk
            if vk == "?" and self._lenient():
                kind = default.kind
            elif not self._fits(vk, default.kind):
                raise Unsupported("get with a default of another kind than the map's values")
            safe = m.safe and key.safe and default.safe
            if vk in _NONEABLE:  # a value or a default that is none
                safe = False
            return Ex(f"{m.src}.get({key.src}, {default.src})", kind, safe)
        if f == "keys" and len(args) == 1 and args[0].kind.startswith("map:"):
            kk, _ = map_parts(args[0].kind)
            return Ex(f"list({args[0].src})", "list:" + kk, args[0].safe)
        return None

    def _map_member(self, a: Ex, m: Ex, negate: bool) -> Ex:
        """`k in M`: whether the map has the key (dsl/compiler._member)."""
        kk, _ = map_parts(m.kind)
        if a.kind != kk:
            raise Unsupported("in a map, a key of another kind")
        return Ex(f"({a.src} {'not in' if negate else 'in'} {m.src})", "bool", a.safe and m.safe)


def _written_kind(value: Any, kind: str) -> str | None:
    """The kind of a list or map written out in the rules (`initial: {a: 1, b: 2}`, a list of
    texts): `list:K` or `map:K=V` of texts, whole numbers, numbers or truth values (keys texts
    or whole numbers), whose Python display is the value; None for any other."""
    def one(xs: list) -> str | None:
        kinds = {bool: "bool", int: "int", float: "num", str: "str"}
        got = {kinds.get(type(x)) for x in xs}
        if None in got or any(type(x) is float and not math.isfinite(x) for x in xs):
            return None
        return got.pop() if len(got) == 1 else "num" if got == {"int", "num"} else None
    if kind == "list" and isinstance(value, list) and value:
        item = one(value)
        return None if item is None else f"list:{item}"
    if kind == "map" and isinstance(value, dict) and value:
        keys, values = one(list(value)), one(list(value.values()))
        return None if keys not in ("str", "int") or values is None else f"map:{keys}={values}"
    return None


def _numbers_only(value: Any) -> bool:
    """A written list of numbers and truth values, or of such lists (no texts: `_node` would
    read a text as an expression)."""
    if isinstance(value, list):
        return all(_numbers_only(v) for v in value)
    return isinstance(value, (int, float, bool))
