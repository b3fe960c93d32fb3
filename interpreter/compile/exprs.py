"""Phase 5b, compile for simulation (expressions): checked expression nodes as Python source.

Input: an expression node (dsl/nodes.py) and a scope of names already bound to generated
source. Output: an `Ex`: the Python source, the kind of its value (int, num, bool, text,
player, dice, list of...), whether it is known now (folded) and its bounds. Only operations
whose Python meaning equals the language's for those kinds are written; anything else raises
`Unsupported`. A mixin of the specializer's writer (interpreter/compile/specialize.py)."""

from __future__ import annotations

import math
import operator
import re
from typing import Any

from dsl import nodes as n
from dsl.builtins import MAX_INT, RANGE_TOO_LONG, EvalError, faces_of_a_kind, whole_quotient
from dsl.compiler import UNCHARGED_ITEMS, builtin_said, no_field
from interpreter.compile.base import (
    _NO,
    _NONEABLE,
    _NUMS,
    _UNROLL,
    COUNTS_WORK,
    FACES_BY,
    INT_RANGE,
    LOCATES,
    Ex,
    Unsupported,
    _lit,
    _node,
    face_src,
    faces_src,
)
from interpreter.compile.cuts import end_of, found_in, plain_end, short_cut
from interpreter.compile.hoists import split_count
from interpreter.compile.kinds import joined_kind, same_kind
from interpreter.compile.offsets import (
    combined,
    compared,
    dice_doubles,
    extreme,
    least_of,
    listed_extreme,
    number,
)
from interpreter.compile.seats import next_player_of, opponents_of, seats_after


class ExprWriter:
    """Writes expressions; `self` is the specializer's writer."""

    # -- expressions -----------------------------------------------------------------------------
    def expr(self, node: n.Node, scope: dict[str, Ex]) -> Ex:
        method = getattr(self, "_x_" + type(node).__name__.lower(), None)
        if method is None:
            raise Unsupported(type(node).__name__)
        e = isinstance(node, (n.Call, n.Comprehension)) and self._memoized(node, scope)
        e = e or method(node, scope)
        hoists = getattr(self, "hoists", None)
        if hoists and isinstance(node, (n.Call, n.Comprehension)):
            return self._hoisted(e, hoists[-1])
        return e

    def _hoisted(self, e: Ex, level: tuple[re.Pattern, list]) -> Ex:
        """A list built inside a comprehension's element that does not depend on its item
        (`c.face in faces(current.kept) for c in current.rolled`) is built once, before the
        items, instead of once per item; one that counts work, its count left at each item
        (hoists.py). Built before the first item, even when there is none: a list of values
        cannot raise, and if it did, the seed would only go to the interpreter."""
        (var, moved), src = level, e.src
        if var.search(src) or LOCATES.search(src):
            return e
        if COUNTS_WORK.search(src):  # built once, its work counted at each item (hoists.py)
            split = split_count(src) if e.safe else None
            if split is None:
                return e
            moved.append((name := self.temp("h"), split[0]))
            return Ex(f"({name} if {split[1]} else None)", e.kind, True, bound=e.bound)
        built = (src.startswith("[") and " for " in src) or src.startswith("list(map(") or (
            plain_end(src))  # `last(current.hand)`: it cannot fail
        if not built or ":=" in src:
            return e
        moved.append((name := self.temp("h"), src))
        return Ex(name, e.kind, e.safe, bound=e.bound)

    def cond(self, value: Any, scope: dict[str, Ex]) -> Ex:
        e = self.expr(_node(value), scope)
        if e.kind != "bool":
            raise Unsupported("a condition that may not be true or false")
        return e

    def _x_literal(self, node: n.Literal, scope: dict) -> Ex:
        return _lit(node.value)

    def _x_name(self, node: n.Name, scope: dict) -> Ex:
        name = node.id
        if name in scope:
            return scope[name]
        if name == "players":
            return Ex("_PL", "list:player", True,
                      items=[Ex(str(i), "player", True) for i in range(self.n)]
                      if self.n <= _UNROLL else None)
        if name == "current":
            return Ex("cur", "player", True)
        if name == "teams" and self.team_names:
            return self._teams_list()
        if name in ("round", "turn"):
            return Ex(f"{name}_n", "int", True)
        if name in self.params:
            return _lit(self.params[name])
        zone = self._zone_name(name)
        if zone is not None:
            return zone
        if name in self.fixed:
            return self.fixed[name]
        if name in self.vars:
            sc, py, kind = self.vars[name]
            if sc in ("player", "team"):
                raise Unsupported(f"a {sc} variable read without its {sc}")
            if kind == "list":
                lk = self.list_kinds.get(name)
                if lk is None:
                    raise Unsupported(f"the items of list {name}")
                return Ex(py, lk, True)
            return Ex(py, kind, kind not in _NONEABLE)  # a player, die or team may be none
        if name in self.races:  # none before the race has run: not `safe`
            return Ex(f"R_{name}", "race")
        if name in self.decisions:
            kind = self.decisions[name]
            if kind == "?":
                raise Unsupported("a numeric decision")
            return Ex(f"D_{name}", kind)  # none until decided: not `safe`
        if name in self.dice:
            ds = self.dice[name]
            return Ex("", "die" if name in self.single else "dice", True, dice=ds)
        if name in self.timers:
            return Ex("", "timer", True, const=name)
        raise Unsupported(f"name {name}")

    def _x_field(self, node: n.Field, scope: dict, obj: Ex | None = None) -> Ex:
        obj = obj if obj is not None else self.expr(node.obj, scope)  # or its object, written
        f = node.name
        if obj.kind == "player":
            if f == "name":
                return Ex(f"{self.const(self.seat_names, 'N')}[{obj.src}]", "str", obj.safe)
            if f == "seat":
                return Ex(f"({obj.src} + 1)", "int", obj.safe)
            if f == "others":  # the other players, out or not, in turn order from this one
                listed = tuple(list(o) for o in seats_after(self.n))
                return Ex(f"{self._seats('OL', listed)}[{obj.src}]", "list:player", obj.safe)
            if f == "eliminated":
                # Nobody is ever eliminated when no step eliminates.
                return Ex(f"E[{obj.src}]", "bool", obj.safe) if self.elim else _lit(False)
            if f == "team":
                return self._player_team(obj)
            zone = self._player_zone(obj, f)
            if zone is not None:
                return zone
            var = self.vars.get(f)
            if var is None or var[0] != "player" or var[2] == "list":
                raise Unsupported(f"player field {f}")
            return Ex(f"{var[1]}[{obj.src}]", var[2], obj.safe)
        if obj.kind == "team":
            return self._team_field(obj, f)
        if obj.kind == "dref":
            return self._die_field(obj, f, node.name_pos)
        if obj.kind == "timer":
            return self.timer_read(obj.const, f)
        if obj.kind == "event":  # a field the event was fired with (effects.py `fire`)
            if f not in obj.const:
                raise Unsupported(f"event field {f}")
            got = obj.const[f]
            if got.src == "_halt()":  # one it was not fired with (a `set` has no `old`)
                site = self.site(node.name_pos, no_field({}, f))  # the event: a map
                return got if site is None else Ex(f"_halt({site})", got.kind)
            return got
        if obj.kind == "die":
            d = obj.dice[0]
            if f == "face":
                ints = all(type(x) is int for x in d.faces)
                return Ex(face_src(d), "int" if type(d.faces[0]) is int else "str",
                          bound=max(abs(x) for x in d.faces) if ints else None,
                          raw=(d.var, d.off) if d.off else None)
            if f == "sides":
                return _lit(len(d.faces))
            if f == "zone":  # a game without zones: the die lies in none
                return _lit("")
            if f == "id":
                return _lit(d.id)
            if f in d.attrs:
                return _lit(d.attrs[f])
        raise Unsupported(f"field {f}")

    def _x_index(self, node: n.Index, scope: dict) -> Ex:
        obj = self.expr(node.obj, scope)
        key = self.expr(node.key, scope)
        if obj.kind == "dice" and type(key.const) is int and 0 <= key.const < len(obj.dice):
            return Ex("", "die", True, dice=(obj.dice[key.const],))
        if obj.kind == "race" and key.kind in ("player", "team"):
            return self.race_claims(obj, key, node.pos)
        raise Unsupported("index")  # a list's items: kinds.py

    def _x_listexpr(self, node: n.ListExpr, scope: dict) -> Ex:
        items = [self.expr(x, scope) for x in node.items]
        if not items:
            return Ex("[]", "list:?", True)  # items of any kind: see joined_kind
        if all(x.kind in ("die", "dice") for x in items):
            return Ex("", "dice", True, dice=tuple(d for x in items for d in x.dice))
        kinds = {x.kind for x in items}
        if len(kinds) != 1 or next(iter(kinds)).startswith(("list", "timer", "die", "zone")):
            raise Unsupported("a mixed list")
        if kinds & {"player", "team"} and not all(x.safe for x in items) and not getattr(
                self, "loose", False):  # (a log's `by`, where anything else is no one)
            raise Unsupported("a list that may hold none")
        return Ex("[" + ", ".join(x.src for x in items) + "]", "list:" + items[0].kind,
                  all(x.safe for x in items))

    def _x_unary(self, node: n.Unary, scope: dict) -> Ex:
        x = self.expr(node.operand, scope)
        if node.op == "not" and x.kind == "bool":
            return Ex(f"(not {x.src})", "bool", x.safe,
                      (not x.const) if x.const is not _NO else _NO)
        if node.op == "-" and x.kind in _NUMS:  # none stops where located (`negated`)
            site = self.site(node.pos) if x.const is _NO else None
            return Ex(f"(-{x.src})" if site is None else f"_negated({x.src}, {site})", x.kind,
                      x.safe, -x.const if x.const is not _NO else _NO)
        raise Unsupported("unary")

    def _x_binary(self, node: n.Binary, scope: dict) -> Ex:
        op = node.op
        if (op in (">", ">=", "<", "<=") and isinstance(node.left, n.Call)
                and node.left.func == "remaining" and not node.left.kwargs
                and len(node.left.args) == 1):
            clock = self.clock_test(op, node, scope)
            if clock is not None:
                return clock
        a = self.expr(node.left, scope)
        if op in ("and", "or") and a.kind == "bool" and a.const is (op == "or"):
            return a  # decided now: the right side is never worked out (nor written)
        b = self.expr(node.right, scope)
        if op in ("+", "in", "not in"):  # a zone is read as the list of what it holds
            a, b = (self._as_list(a) if op == "+" else a), self._as_list(b)
        safe = a.safe and b.safe
        if a.kind == b.kind == "zone" and op in ("==", "!="):  # a thing: the same zone or not
            return Ex(f"({a.src} {'is' if op == '==' else 'is not'} {b.src})", "bool", safe)
        if "zone" in (a.kind, b.kind):
            raise Unsupported(f"{op} on a zone")
        if op in ("and", "or"):
            if a.kind != "bool" or b.kind != "bool":
                raise Unsupported("and/or on values that are not true or false")
            stop = op == "or"  # the value that decides without the right side
            if a.const is stop:
                return _lit(stop)
            if a.const is (not stop):
                return b
            if b.const is (not stop):
                return a  # `a and true`, `a or false`: a, evaluated either way
            if b.const is stop and a.safe and not COUNTS_WORK.search(a.src):
                return _lit(stop)  # `a and false`: a, that can neither fail nor count work
            return Ex(f"({a.src} {op} {b.src})", "bool", safe)
        if op in ("==", "!="):
            ok = (a.kind == b.kind or (a.kind in _NUMS and b.kind in _NUMS)
                  or "none" in (a.kind, b.kind))
            known = a.const is not _NO and b.const is not _NO  # a setting's choice; timers
            if not ok or a.kind in ("die", "dice") or (a.kind == "timer" and not known) or (
                    "options" in (a.kind, b.kind)) or ("bool" in (a.kind, b.kind) and a.kind != b.kind):
                raise Unsupported("== on different kinds")
            if known:  # (a timer by its name: `event.timer == clock`)
                return _lit((a.const == b.const) == (op == "=="))
            # Equality fails on no value: only working out a side can (a plain read cannot).
            safe = all(x.safe or _READ.fullmatch(x.src) for x in (a, b))
            return Ex(compared(op, a, b) or f"({a.src} {op} {b.src})", "bool", safe)
        if op in ("<", "<=", ">", ">="):
            if not ((a.kind in _NUMS and b.kind in _NUMS) or (a.kind == b.kind == "str")):
                raise Unsupported("ordering")
            if a.const is not _NO and b.const is not _NO:
                return _lit(_FOLD[op](a.const, b.const))
            return Ex(self.ordered(op, a, b, node.pos), "bool", safe)
        if op in ("in", "not in") and b.kind == "options":
            return self._in_options(a, b, op == "not in")
        if op in ("in", "not in") and a.kind == b.kind == "str" and a.safe and b.safe:
            return Ex(f"({a.src} {op} {b.src})", "bool", True)  # a text within a text
        if op in ("in", "not in"):
            if b.kind != "list:" + a.kind:
                raise Unsupported("in")
            found = found_in(a.src, b.src, self.temp("x"), self.temp("c"))
            if found:  # among the faces of a zone's dice: a loop stopping at the first
                return Ex(f"(not {found})" if op == "not in" else found, "bool", safe)
            return Ex(f"({a.src} {op} {b.src})", "bool", safe)
        if op == "+" and a.kind == b.kind == "str":
            return Ex(self.joined(a, b, node.pos), "str", safe)
        if op == "+" and a.kind.startswith("list:") and b.kind.startswith("list:"):
            return Ex(self.joined(a, b, node.pos), joined_kind(a.kind, b.kind), safe)
        if a.kind not in _NUMS or b.kind not in _NUMS:
            raise Unsupported(f"{op} on values that are not numbers")
        both_int = a.kind == b.kind == "int"
        if a.const is not _NO and b.const is not _NO and op in _FOLD and not (
                op in ("/", "//", "%") and b.const == 0):
            try:
                v = _FOLD[op](a.const, b.const)  # as dsl/compiler.py's operators
            except (ArithmeticError, ValueError, EvalError):
                v = None  # left to run time (and to the interpreter)
            past = type(v) is int and not -INT_RANGE[0] <= v <= INT_RANGE[0]
            if (type(v) is int and not (past and self.wide)) or (
                    type(v) is float and math.isfinite(v)):
                return _lit(v)  # past ±SAFE_INT: the checked version is written instead
            # (which leaves a whole number past the language's limit to stop at run time)
        # The largest magnitude of the result, when both sides have one (faces, constants).
        known = both_int and a.bound is not None and b.bound is not None
        if op == "*":
            if known and a.bound * b.bound <= INT_RANGE[0] and not self.kinds_tested(a, b):
                src, raw = combined(op, a, b) or (f"({number(a)} * {number(b)})", None)
                return Ex(src, "int", safe, bound=a.bound * b.bound, raw=raw)
            # A product may jump out of the range the generated code keeps.
            return self.product(a, b, node.pos, both_int)  # interpreter/compile/numbers.py
        if op in ("+", "-") and (self.wide and not (known and a.bound + b.bound <= MAX_INT)
                                 or self.kinds_tested(a, b)):  # each sum, as the interpreter
            return Ex(f"{'_plus' if op == '+' else '_minus'}({a.src}, {b.src}"
                      f"{self.site_arg(node.pos)})", "int" if both_int else "num")
        if op in ("+", "-"):  # faces kept as indexes: their constants folded (offsets.py)
            src, raw = combined(op, a, b) or (f"({number(a)} {op} {number(b)})", None)
            return Ex(src, "int" if both_int else "num", safe, bound=a.bound + b.bound if known
                      else None, raw=raw, least=least_of(op, a, b) if both_int else None)
        if op in ("/", "//", "%"):
            return self.quotient(op, a, b, node.pos, both_int)  # interpreter/compile/numbers.py
        raise Unsupported(op)

    def _x_conditional(self, node: n.Conditional, scope: dict) -> Ex:
        c = self.expr(node.cond, scope)
        if c.kind != "bool":
            raise Unsupported("condition")
        t, o = self.expr(node.then, scope), self.expr(node.other, scope)
        if c.const is True:
            return t
        if c.const is False:
            return o
        if t.kind == o.kind:
            kind = t.kind
        elif t.kind in _NUMS and o.kind in _NUMS:
            kind = "num"
        elif t.kind.startswith("list:") and o.kind.startswith("list:"):
            kind = joined_kind(t.kind, o.kind)
        elif "none" in (t.kind, o.kind) and (set(_NONEABLE) & {t.kind, o.kind}):
            kind = (set(_NONEABLE) & {t.kind, o.kind}).pop()
            return Ex(f"({t.src} if {c.src} else {o.src})", kind, False)
        else:
            raise Unsupported("branches of different kinds")
        if kind in ("die", "dice", "timer", "zone"):
            raise Unsupported("conditional dice")
        bound = max(t.bound, o.bound) if t.bound is not None and o.bound is not None else None
        return Ex(f"({t.src} if {c.src} else {o.src})", kind, c.safe and t.safe and o.safe,
                  bound=bound)

    def _x_comprehension(self, node: n.Comprehension, scope: dict) -> Ex:
        it = self._as_list(self.expr(node.iterable, scope))
        if not it.kind.startswith("list:"):
            raise Unsupported("a comprehension over something not a list")
        item_kind = it.kind[5:]
        if it.items is not None and node.cond is None:
            items = [self.expr(node.element, {**scope, node.var: x}) for x in it.items]
            kind = same_kind(items)
            if kind in ("player", "team", "cell", "card") and not all(x.safe or x.some
                                                                      for x in items):
                raise Unsupported("a list that may hold none")
            listed = "[" + ", ".join(x.src for x in items) + "]"
            counted = self.unrolled(node, len(items), listed)
            if counted is not None:  # what reads it must read the source that counts
                return Ex(counted, "list:" + kind, all(x.safe for x in items))
            return Ex(listed, "list:" + kind, all(x.safe for x in items), items=items)
        if it.items is not None and 0 < len(it.items) <= _UNROLL:
            filtered = self._unrolled_filter(node, scope, it)
            if filtered is not None:
                return filtered
        var = self.temp("c")  # a die of a list that may hold none may be none
        inner = {**scope, node.var: Ex(var, item_kind, it.safe or item_kind != "dref",
                                       least=it.least)}
        if not hasattr(self, "hoists"):
            self.hoists = []
        moved: list[tuple[str, str]] = []
        self.hoists.append((re.compile(rf"\b{var}\b"), moved))
        try:
            el, c = self._element(node, inner)
        finally:
            self.hoists.pop()
        if el.kind.startswith(("die", "dice", "timer")):
            raise Unsupported("a comprehension of dice")
        if el.kind in ("player", "team", "cell", "card") and not (el.safe or el.some):
            raise Unsupported("a list that may hold none")
        test, safe = "", it.safe and el.safe
        if c is not None:
            test, safe = f" if {c.src}", safe and c.safe
        # The items go into the work meter as they are gone through (`wk`, counted inline:
        # no call per comprehension). Python takes no `:=` in a comprehension's iterable, so
        # the list is bound and counted in the test of a first, one-pass `for`; so is a value
        # moved before the items that binds a name (in a test: a one-item tuple is true).
        h = self.temp("it")
        counted = self.charge(h, it.src, self.comprehension_least(node), pos=node.iterable.pos)
        own = {"distinct": el.src == var and it.distinct, "fresh": True}  # a list of its own
        if el.src == var and c is None:  # `[x for x in xs]`: a copy, made at C speed
            return Ex(f"(list({h}) if {counted} else None)", "list:" + el.kind, safe, **own)
        once = "".join(f"if (({x} := {src}),) " if ":=" in src else f"for {x} in ({src},) "
                       for x, src in moved)
        return Ex(f"[{el.src} for _ in (0,) if {counted} {once}for {var} in {h}{test}]",
                  "list:" + el.kind, safe, **own)

    def _unrolled_filter(self, node: n.Comprehension, scope: dict, it: Ex) -> Ex | None:
        """`[e for x in xs if c]` over a few items known now (the teams, the players, a list
        written in the rules) as one list display, each item's condition and element in the
        comprehension's order: no function call, which costs more than the items do. Counted
        as the comprehension is. None when every item is left out now (the general form)."""
        parts, kept, safe = [], [], it.safe
        for x in it.items:
            el, c = self._element(node, {**scope, node.var: x})
            if c.const is False:
                continue
            if el.kind.startswith(("die", "dice", "timer")):
                raise Unsupported("a comprehension of dice")
            if el.kind in ("player", "team", "cell", "card") and not (el.safe or el.some):
                raise Unsupported("a list that may hold none")
            kept.append(el)
            safe = safe and el.safe and c.safe
            parts.append(el.src if c.const is True else f"*(({el.src},) if {c.src} else ())")
        if not kept:
            return None
        listed = f"[{', '.join(parts)}]"
        counted = self.unrolled(node, len(it.items), listed)
        return Ex(listed if counted is None else counted, "list:" + same_kind(kept), safe)

    def _element(self, node: n.Comprehension, inner: dict) -> tuple[Ex, Ex | None]:
        """A comprehension's element and condition (None without one)."""
        el = self.expr(node.element, inner)
        if node.cond is None:
            return el, None
        c = self.expr(node.cond, inner)
        if c.kind != "bool":
            raise Unsupported("condition")
        return el, c

    def _count_filtered(self, node: n.Comprehension, scope: dict) -> Ex | None:
        """`count(x for x in players if ...)` as a sum of 0s and 1s, without a list: each
        condition evaluated in order, as the comprehension does; only when no element can
        raise (the comprehension evaluates each element it keeps)."""
        if node.cond is None:
            return None
        it = self.expr(node.iterable, scope)
        if it.items is None or not it.safe:
            return None
        parts, safe = [], True
        for x in it.items:
            inner = {**scope, node.var: x}
            if not self.expr(node.element, inner).safe:
                return None
            c = self.expr(node.cond, inner)
            if c.kind != "bool":
                raise Unsupported("condition")
            if c.const is True:
                parts.append("1")
            elif c.const is not False:
                parts.append(f"(1 if {c.src} else 0)")
                safe = safe and c.safe
        counted = len(it.items) > self.comprehension_least(node)
        if all(p == "1" for p in parts) and safe and not counted:
            return _lit(len(parts))
        total = "(" + " + ".join(parts) + ")" if parts else "0"
        for flag, test in (("True", "E[{}]"), ("False", "(not E[{}])")):
            if parts == [f"(1 if {test.format(i)} else 0)" for i in range(self.n)]:
                total = f"E.count({flag})"  # the players (not) out: one call, no branches
        if counted:  # counted before the items, as the comprehension counts them
            total = self.charged_now(len(it.items), total, node.iterable.pos)
        return Ex(total, "int", safe)

    def _x_call(self, node: n.Call, scope: dict) -> Ex:
        f = node.func
        if node.kwargs:
            return self._with_default(node, scope)
        if f == "count" and len(node.args) == 1 and isinstance(node.args[0], n.Comprehension):
            counted = self._count_filtered(node.args[0], scope)
            if counted is not None:
                return counted
        args = self._charged_args(node, [self.expr(a, scope) for a in node.args])
        dice = self._dice_call(f, args, node.pos)
        if dice is not None:
            return dice
        if f == "count" and len(args) == 1:  # of a zone: marked, for offsets.py `compared`
            zone, args = args[0].zone, [self._as_list(args[0])]
        if f in ("any", "all") and len(args) == 1 and args[0].kind == "list:bool":
            a = args[0]
            if a.items is not None and a.safe:  # nothing can raise: short-circuit is exact
                if not a.items:
                    return _lit(f == "all")
                joined = (" or " if f == "any" else " and ").join(x.src for x in a.items)
                return Ex(f"({joined})", "bool", True)
            cut = short_cut(f, a.src, a.safe)  # else a list: every item is evaluated
            return Ex(cut or f"{f}({a.src})", "bool", a.safe)
        if f == "count" and len(args) == 1 and args[0].kind.startswith("list:"):
            a = args[0]
            if a.items is not None:
                return _lit(len(a.items)) if a.safe else Ex(f"len({a.src})", "int", False)
            return Ex(f"len({a.src})", "int", a.safe, zone=zone)
        if f in ("opponents", "next_player") and len(args) == 1 and args[0].kind == "player":
            # Of none: the built-in's own error (none has no others), at the call.
            args = [self.someone(args[0], node.pos, builtin_said(f, no_field(None, "others")))]
        if f == "opponents" and len(args) == 1 and args[0].kind == "player":
            # The other players still in, in turn order from this one (builtins._opponents).
            # While nobody is out (all of a game without eliminations, most of most others)
            # the others in turn order, one list per seat made now and shared: the generated
            # code changes no list in place (docs/architecture.md, "Lists").
            a = args[0]
            everyone = self._seats("OL", tuple(list(o) for o in seats_after(self.n)))
            if not self.elim:
                return Ex(f"{everyone}[{a.src}]", "list:player", a.safe)
            return Ex(f"({everyone}[{a.src}] if True not in E else "
                      f"{self._seats('OP', opponents_of(self.n))}({a.src}, E))", "list:player",
                      a.safe)
        if f == "next_player" and len(args) == 1 and args[0].kind == "player":
            # The first opponent, else the player (builtins._next_player).
            a = args[0]
            if not self.elim:
                nxt = tuple((i + 1) % self.n for i in range(self.n))
                return Ex(f"{self._seats('NX', nxt)}[{a.src}]", "player", a.safe)
            return Ex(f"{self._seats('NP', next_player_of(self.n))}({a.src}, E)", "player",
                      a.safe)
        if f in ("first", "last") and len(args) == 1 and args[0].kind in (
                "list:player", "list:int", "list:num", "list:str", "list:team"):
            a = args[0]
            if a.items:
                return a.items[0 if f == "first" else -1]
            return Ex(end_of(f, a.src, a.safe, self.temp()), a.kind[5:], False)
        if f in ("max", "min", "sum") and len(args) == 1 and args[0].kind in (
                "list:int", "list:num"):
            a = args[0]
            kind = a.kind[5:]
            if f == "sum":  # the checked version's `sum` tests the limit
                return Ex(self.summed(a, node.pos), kind, a.safe and not self.wide)
            tested = self.call_at(node.pos, f, "_most" if f == "max" else "_least", [a])
            if tested:
                return Ex(tested, kind)
            if a.items:  # never empty
                if len(a.items) == 1:
                    return a.items[0]
                return Ex(f"{f}({', '.join(x.src for x in a.items)})", kind, a.safe)
            # As the built-in: an empty list gives 0 (an unrolled filter's: no list, offsets.py).
            src = listed_extreme(f, a.src, self.temp)
            if src is None:
                t = self.temp()
                src = f"({f}({t}) if ({t} := {a.src}) else 0)"
            return Ex(src, kind, a.safe)
        if f in ("max", "min") and len(args) > 1 and all(a.kind in _NUMS for a in args):
            kind = "int" if all(a.kind == "int" for a in args) else "num"
            src, raw = (None, None) if (at := self.call_at(node.pos, f, f, args)) else extreme(f, args)
            return Ex(at or src, kind, all(a.safe for a in args), raw=raw)
        if f == "abs" and len(args) == 1 and args[0].kind in _NUMS:
            return Ex(self.call_at(node.pos, f, f, args) or f"abs({args[0].src})", args[0].kind,
                      args[0].safe)
        if f in ("floor", "ceil", "round", "clamp"):
            return self.rounded(f, args, node.pos)  # interpreter/compile/numbers.py
        if f in ("total", "doubles", "faces") and len(args) == 1 and args[0].kind in ("die", "dice"):
            ds = args[0].dice  # interpreter/compile/zones.py
            return self.known_total(ds, node.pos) if f == "total" else dice_doubles(ds) \
                if f == "doubles" else self.known_faces(args[0])
        if f == "of_a_kind" and len(args) == 2 and args[1].kind in _NUMS and (
                args[0].kind == "dice" or self._as_list(args[0]).kind == "list:dref"):
            # The built-in's own test, on the faces (a die not rolled yet shows none there too).
            fs = (faces_src(args[0].dice) if args[0].kind == "dice" else
                  f"list(map({FACES_BY}, {self._as_list(args[0]).src}))")
            fn = self.const(faces_of_a_kind, "OK")
            # Told as the interpreter tells its arguments: a zone, else a list.
            tested = self.call_at(node.pos, f, fn, [Ex(fs, "list:int"), args[1]],
                                  shown=("a zone" if args[0].kind == "zone" else None,))
            return Ex(tested or f"{fn}({fs}, {args[1].src})", "bool", args[1].safe)
        if f in ("remaining", "elapsed") and len(args) == 1 and args[0].kind == "timer":
            return self.timer_read(args[0].const, f)
        if f == "range" and len(args) == 2 and all(a.kind == "int" for a in args):
            # May be too long (stops at the call); a long one counts in the step budget.
            t, at = self.temp(), self.builtin_site(node.pos, f, RANGE_TOO_LONG)
            span = (self.call_at(node.pos, f, "_span", args, at) or
                    f"_span({args[0].src}, {args[1].src}{at})")
            return Ex(f"({t} if {self.charge(t, span, UNCHARGED_ITEMS, pos=node.pos)} else None)",
                      "list:int", least=args[0].const if type(args[0].const) is int else None)
        raise Unsupported(f"built-in {f}")


# A name, or a player's state at a seat (a list of one value per seat): reading it cannot fail.
_READ = re.compile(r"[A-Za-z_]\w*|P_\w+\[(?:\d+|cur)\]")
# Operators folded when both sides are known now: the language's meaning on numbers (and
# texts, for ordering), as dsl/compiler.py's _OPS.
_FOLD = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
         "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
         "//": whole_quotient, "%": operator.mod}
