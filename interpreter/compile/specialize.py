"""Phase 5b, compile for simulation (specializer): a whole all-bot game as one Python function.

Input: a compiled `Program` (its checked `data`, `symbols`, parameter values and policies) and
a seat configuration (players, and which controller each seat plays). Output: a `Specialized`
whose `play(seed)` plays one seeded game with no log and returns the interpreter's `Result`,
trigger counts (`fired`), decision counts (`chosen`) and policy gaps (`unruled`); or None when
the ruleset uses something this module does not specialize (callers keep the interpreter).

How (DESIGN §9, "compile further"): the generic state model of interpreter/engine/game.py (env
dicts, `Player` objects, `Request`s, exceptions per step) is replaced by Python locals. Each
state variable becomes a local (global, turn and round scope) or a list indexed by seat (player
scope); each die's face a local; players are seat indexes; parameters are constants, so
conditions on them are folded when generating (a branch no setting reaches is not generated).
Phases, rounds, turns, steps, procedures and triggers are written out inline where the
interpreter would run them, policies as if/elif chains at each decision, the modelled clock,
timers and hazards inline where time advances. The source is built from checked expression
nodes (dsl/parser.parse_expression) and effect fields, never from user text: names become
identifiers chosen here, strings become `repr` constants.

Supported: phases with turns (clockwise, counterclockwise, `first`, `skip`; the eliminated
have none), repeat `times`/`while`/`until`/`max`, `next` with conditions, `on_begin`/`on_end`;
the effects `set`, `add` (numbers), `roll` (dice fixed at compile time), `if`, `repeat`,
`for_each`, `call`, `emit` (no fields), `break`, `end_turn`, `end_phase`, `start_timer`,
`stop_timer`, `wait`, `say` (silent), `eliminate`, `transfer` (a number per player, the bank),
`end_game`; zones and the dice that move between them, `move`, `draw`, `let`
(interpreter/compile/zones.py);
`choose` and `actions` (interpreter/compile/decisions.py: one decider, `by`, named options
with `if`, `do`, `duration`, `limit`, `cost`, `pass`, or options given by a list of players);
checks for each player or once (interpreter/compile/checks.py); triggers with priorities and
consecutive groups; `end.when`; hazards; scoring by `score`, `tie_break`, `eligible`,
`winners`; policies (`when`, `choose`, `best`, `random`, `options`, `me`, `let`) and random
seats. Expressions: numbers, texts, booleans, players (possibly none in player state), dice,
timers, zones, lists of those; the built-ins any, all, count, sum, max, min, abs, total,
doubles, remaining, first, last, opponents, next_player, highest, lowest, faces, range.
Teams (interpreter/compile/teams.py): team state (lists too, read and set at an index),
zones per team, `teams`, `p.team`, a team's name, leader and members, `turns.by_team`. Anything
else (cards, grids, `race`, `changed` triggers, `by` a list, numeric choices, `let` names
reading `option`, timed rolls of dice known at run time, event fields...) returns None.

Why the results equal the interpreter's: the generated code performs the same chance calls in
the same order (`faces[int(rnd() * sides)]` per die, one `_randbelow(len(items))` per blind
draw as SeededChance.pick's `random.sample`, the hazard formula of SeededChance on the same
generator, the decision generator `Random(f"{seed}:decisions")` used as random_pick
uses it), counts steps, turns, rounds and rolls where the interpreter does, and fires triggers
in the same order under the same conditions. Where the language and Python could differ, the
generator refuses: every expression has a kind known when generating (int, number, bool,
text, player, dice...) and only operations whose Python meaning equals the language's for
those kinds are emitted. What can still go wrong at run time (a die read before it was
rolled, a division by zero, a budget: steps, turns, loop passes, chain depth) raises an
exception in the generated code, and that seed is then played again by the interpreter, which
gives its own result or located error. The tests/test_specialize*.py files compare both on
many seeds. The vocabulary the writers
share (`Ex`, `_Ctx`, the signals) is interpreter/compile/base.py.
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Callable
from typing import Any

from dsl import nodes as n
from dsl.parser import parse_expression
from interpreter.compile.base import (
    _DOC_KEYS,
    _MAX_INLINE,
    _NO,
    _NONEABLE,
    _NUMS,
    _UNROLL,
    SAFE_INT,
    SMALL_STEP,
    Ex,
    Fallback,
    Unsupported,
    _Ctx,
    _Die,
    _EndGame,
    _EndPhase,
    _EndTurn,
    _lit,
    _node,
    times,
    within,
    work,
)
from interpreter.compile.checks import CheckWriter
from interpreter.compile.decisions import DecisionWriter
from interpreter.compile.peephole import _merge_steps
from interpreter.compile.played import Played, Specialized
from interpreter.compile.teams import TeamWriter
from interpreter.compile.zones import ZoneWriter
from interpreter.engine.codegen_steps import loop_head
from interpreter.engine.decisions import PolicyController, RandomController
from interpreter.engine.program import Program
from interpreter.engine.reads import target_writes
from interpreter.engine.step_runtime import step_name

__all__ = ["Ex", "Fallback", "Played", "Specialized", "Unsupported", "specialize"]


def _kind_of_decl(spec: Any) -> tuple[str, Any, bool]:
    """A state variable's kind, its initial value, and whether that value is expression text
    (as program._initial reads it: the short form is always a literal)."""
    if not isinstance(spec, dict):
        t = {bool: "bool", int: "int", float: "num", str: "str", list: "list"}.get(type(spec))
        if t is None:
            raise Unsupported("state")
        return t, spec, False
    t = {"int": "int", "number": "num", "bool": "bool", "string": "str",
         "list": "list", "player": "player", "die": "dref", "team": "team"}.get(spec.get("type", "int"))
    if t is None:
        raise Unsupported("state type")
    default = {"int": 0, "num": 0, "bool": False, "str": "", "list": [], "player": None,
               "dref": None, "team": None}[t]
    init = spec.get("initial", default)
    return t, init, isinstance(init, str)


class _Gen(CheckWriter, DecisionWriter, ZoneWriter, TeamWriter):
    """Writes the source of one game's function for one seat configuration."""

    def __init__(self, program: Program, players: int, controllers: list[Any], track: bool):
        self.p = program
        self.data = program.data
        self.n = players
        self.controllers = controllers
        self.track = track
        self.lines: list[str] = []
        self.consts: dict[str, Any] = {}
        self.temps = 0
        self.fired: list[str] = []                 # counter index -> trigger name
        self.chosen: list[tuple] = []              # counter index -> (decision id, key)
        self.chosen_base: dict[str, int] = {}
        self.unruled: list[tuple] = []             # counter index -> (policy, decision id)
        self.trig_index: dict[int, int] = {}
        self.max_steps = program.limits["max_steps"]
        self.max_loop = program.limits["max_loop"]
        self.max_chain = program.limits["max_chain_depth"]
        self.watched = program.watched
        self.uses: dict[tuple, int] = {}           # (decision id, option, period) -> counter
        self.flag_exits = 0                        # `end_turn`s written as a flag and break
        self.ch_locals: set[int] = set()           # decision counters kept in locals `chK`
        self._names()

    # -- names -----------------------------------------------------------------------------------
    def _names(self) -> None:
        data = self.data
        if "changed" in self.p.triggers:
            raise Unsupported("`changed` triggers")
        self._team_setup()
        self.checks = self._check_specs()
        steps = [s for steps in _all_step_lists(data) for s in _walk(steps)]
        # Whether anyone can be eliminated: if not, `eliminated` is false throughout.
        self.elim = any(isinstance(s, dict) and "eliminate" in s for s in steps)
        written = set()
        for s in steps:
            if isinstance(s, dict):
                for key in ("set", "add"):
                    if isinstance(s.get(key), dict):
                        written |= {target_writes(t) for t in s[key]}
                if "transfer" in s:
                    written.add(s.get("of"))
        comps = data.get("components") or {}
        if set(comps) - {"dice", "timers", "zones"}:
            raise Unsupported("decks or grids")
        self.params = dict(self.p.parameters)
        self.vars: dict[str, tuple[str, str, str]] = {}   # name -> (scope, python name, kind)
        self.inits: dict[str, Any] = {}
        for scope, decls in (data.get("state") or {}).items():
            if scope not in ("global", "player", "turn", "round") and not (
                    scope == "team" and self.team_names):
                raise Unsupported(f"{scope} state")
            for name, spec in (decls or {}).items():
                kind, init, is_expr = _kind_of_decl(spec)
                self.vars[name] = (scope, f"{'P' if scope == 'player' else 'V'}_{name}", kind)
                self.inits[name] = (init, is_expr)
        self.list_kinds: dict[str, str | None] = {k: None for k, v in self.vars.items()
                                                   if v[2] == "list"}
        self.fixed: dict[str, Ex] = {}  # global state no step writes: its initial value
        self.decisions: dict[str, str] = {}
        for did, opts in self.p.symbols.decision_options.items():
            self.decisions[did] = "str" if opts else "?"
        self.dice: dict[str, tuple[_Die, ...]] = {}
        self.single: set[str] = set()
        self._zone_setup(comps)  # with zones, every die is a number known at run time
        for name, spec in ({} if self.dyn else comps.get("dice") or {}).items():
            if "in" in spec:
                raise Unsupported("dice in zones")
            faces = tuple(spec["faces"]) if "faces" in spec else tuple(
                range(1, self._const(spec.get("sides", 6)) + 1))
            if not faces or not (all(type(f) is int for f in faces)
                                 or all(type(f) is str for f in faces)):
                raise Unsupported("faces")
            attrs = spec.get("attributes") or {}
            if "count" in spec:
                k = self._const(spec["count"])
                self.dice[name] = tuple(_Die(f"F_{name}_{i}", faces, f"{name}[{i}]", attrs)
                                        for i in range(k))
            else:
                self.dice[name] = (_Die(f"F_{name}", faces, name, attrs),)
                self.single.add(name)
        self.timers = list(comps.get("timers") or {})
        names = data["players"].get("seat_names") or []
        self.seat_names = [names[i] if i < len(names) else f"Player {i + 1}"
                           for i in range(self.n)]
        self._infer_lists()
        for name, (scope, _, kind) in self.vars.items():
            init, is_expr = self.inits[name]
            if scope == "global" and name not in written and kind != "list":
                try:
                    e = self.expr(_node(init), {}) if is_expr else _lit(init)
                except Unsupported:
                    continue
                if e.const is not _NO and (self._fits(kind, e.kind) or e.kind == "none"):
                    self.fixed[name] = e
        # Decisions whose options are a list of players hold a player (at every site).
        sites: dict[str, set] = {}
        for s in steps:
            did = s.get("choose", s.get("actions")) if isinstance(s, dict) else None
            if not isinstance(did, str):
                continue
            kind = "?"
            if isinstance(s.get("options"), str):
                try:
                    kind = self.expr(_node(s["options"]), {}).kind
                except Unsupported:
                    pass
            item = {"list:player": "player", "list:dref": "dref", "zone": "dref"}.get(kind, "?")
            sites.setdefault(did, set()).add(item)
        for did, kinds in sites.items():
            if self.decisions.get(did) == "?" and len(kinds) == 1 and kinds != {"?"}:
                self.decisions[did] = kinds.pop()

    def _const(self, value: Any) -> Any:
        v = self.expr(_node(value), {}).const
        if type(v) is not int:
            raise Unsupported("a count known only at run time")
        return v

    def _infer_lists(self) -> None:
        """The item kind of each list variable, from what is assigned to it (to a fixed
        point: an assignment may read the list itself)."""
        sets = []
        for steps in _all_step_lists(self.data):
            for step in _walk(steps):
                if isinstance(step, dict) and "set" in step and isinstance(step["set"], dict):
                    sets += [(t, v) for t, v in step["set"].items() if t in self.list_kinds]
        for name in self.list_kinds:
            init, is_expr = self.inits[name]
            if is_expr:
                sets.append((name, init))
        for _ in range(len(sets) + 1):
            progress = False
            for target, value in sets:
                if self.list_kinds[target] is not None:
                    continue
                try:
                    kind = self.expr(_node(value), {}).kind
                except Unsupported:
                    continue
                if kind.startswith("list:") and kind != "list:?":
                    self.list_kinds[target] = kind
                    progress = True
            if not progress:
                break

    def _seats(self, hint: str, value: Any) -> str:
        """A constant about seats (a table or a function), made once per generator."""
        name = f"_{hint}S"
        self.consts.setdefault(name, value)
        return name

    def temp(self, hint: str = "t") -> str:
        self.temps += 1
        return f"_{hint}{self.temps}"

    def const(self, value: Any, hint: str = "K") -> str:
        name = f"_{hint}{len(self.consts)}"
        self.consts[name] = value
        return name

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)

    # -- expressions -----------------------------------------------------------------------------
    def expr(self, node: n.Node, scope: dict[str, Ex]) -> Ex:
        method = getattr(self, "_x_" + type(node).__name__.lower(), None)
        if method is None:
            raise Unsupported(type(node).__name__)
        return method(node, scope)

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

    def _x_field(self, node: n.Field, scope: dict) -> Ex:
        obj = self.expr(node.obj, scope)
        f = node.name
        if obj.kind == "player":
            if f == "name":
                return Ex(f"{self.const(self.seat_names, 'N')}[{obj.src}]", "str", obj.safe)
            if f == "seat":
                return Ex(f"({obj.src} + 1)", "int", obj.safe)
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
            return self._die_field(obj, f)
        if obj.kind == "die":
            d = obj.dice[0]
            if f == "face":
                ints = all(type(x) is int for x in d.faces)
                return Ex(d.var, "int" if type(d.faces[0]) is int else "str",
                          bound=max(abs(x) for x in d.faces) if ints else None)
            if f == "sides":
                return _lit(len(d.faces))
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
        item = self._team_index(node, scope)  # an item of a team's list state
        if item is not None:
            return item
        raise Unsupported("index")

    def _x_listexpr(self, node: n.ListExpr, scope: dict) -> Ex:
        items = [self.expr(x, scope) for x in node.items]
        if not items:
            return Ex("[]", "list:?", True)  # items of any kind: see _join
        if all(x.kind in ("die", "dice") for x in items):
            return Ex("", "dice", True, dice=tuple(d for x in items for d in x.dice))
        kinds = {x.kind for x in items}
        if len(kinds) != 1 or next(iter(kinds)).startswith(("list", "timer", "die", "zone")):
            raise Unsupported("a mixed list")
        if kinds & {"player", "team"} and not all(x.safe for x in items):
            raise Unsupported("a list that may hold none")
        return Ex("[" + ", ".join(x.src for x in items) + "]", "list:" + items[0].kind,
                  all(x.safe for x in items))

    def _x_unary(self, node: n.Unary, scope: dict) -> Ex:
        x = self.expr(node.operand, scope)
        if node.op == "not" and x.kind == "bool":
            return Ex(f"(not {x.src})", "bool", x.safe,
                      (not x.const) if x.const is not _NO else _NO)
        if node.op == "-" and x.kind in _NUMS:
            return Ex(f"(-{x.src})", x.kind, x.safe,
                      -x.const if x.const is not _NO else _NO)
        raise Unsupported("unary")

    def _x_binary(self, node: n.Binary, scope: dict) -> Ex:
        op = node.op
        if (op == ">" and isinstance(node.left, n.Call) and node.left.func == "remaining"
                and not node.left.kwargs and isinstance(node.right, n.Literal)
                and type(node.right.value) in (int, float) and node.right.value == 0):
            timer = self.expr(node.left.args[0], scope) if len(node.left.args) == 1 else None
            if timer is not None and timer.kind == "timer":  # the common test of a clock
                t = timer.const
                return Ex(f"(TR_{t} and TA_{t} + TS_{t} - now > 0)", "bool", True)
        a, b = self.expr(node.left, scope), self.expr(node.right, scope)
        if op in ("+", "in", "not in"):  # a zone is read as the list of what it holds
            a, b = (self._as_list(a) if op == "+" else a), self._as_list(b)
        if "zone" in (a.kind, b.kind):
            raise Unsupported(f"{op} on a zone")
        safe = a.safe and b.safe
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
            if b.const is stop and a.safe:
                return _lit(stop)
            return Ex(f"({a.src} {op} {b.src})", "bool", safe)
        if op in ("==", "!="):
            ok = (a.kind == b.kind or (a.kind in _NUMS and b.kind in _NUMS)
                  or "none" in (a.kind, b.kind))
            if not ok or a.kind in ("die", "dice", "timer") or "options" in (a.kind, b.kind) or (
                    "bool" in (a.kind, b.kind) and a.kind != b.kind):
                raise Unsupported("== on different kinds")
            const = _NO
            if a.const is not _NO and b.const is not _NO:
                const = (a.const == b.const) == (op == "==")
            return Ex(f"({a.src} {op} {b.src})", "bool", safe, const)
        if op in ("<", "<=", ">", ">="):
            if not ((a.kind in _NUMS and b.kind in _NUMS) or (a.kind == b.kind == "str")):
                raise Unsupported("ordering")
            if a.const is not _NO and b.const is not _NO:
                return _lit(_FOLD[op](a.const, b.const))
            return Ex(f"({a.src} {op} {b.src})", "bool", safe)
        if op in ("in", "not in") and b.kind == "options":
            return self._in_options(a, b, op == "not in")
        if op in ("in", "not in"):
            if b.kind != "list:" + a.kind:
                raise Unsupported("in")
            return Ex(f"({a.src} {op} {b.src})", "bool", safe)
        if op == "+" and a.kind == b.kind == "str":
            return Ex(f"({a.src} + {b.src})", "str", safe)
        if op == "+" and a.kind.startswith("list:") and b.kind.startswith("list:"):
            return Ex(f"({a.src} + {b.src})", _join(a.kind, b.kind), safe)
        if a.kind not in _NUMS or b.kind not in _NUMS:
            raise Unsupported(f"{op} on values that are not numbers")
        both_int = a.kind == b.kind == "int"
        if a.const is not _NO and b.const is not _NO and op in _FOLD and not (
                op in ("/", "//", "%") and b.const == 0):
            try:
                v = _FOLD[op](a.const, b.const)  # as dsl/compiler.py's operators
            except (ArithmeticError, ValueError):
                v = None  # left to run time (and to the interpreter)
            if type(v) is int or (type(v) is float and math.isfinite(v)):
                return _lit(v)
        # The largest magnitude of the result, when both sides have one (faces, constants).
        known = both_int and a.bound is not None and b.bound is not None
        if op == "*":
            if known and a.bound * b.bound <= SAFE_INT:  # stays in range: a plain product
                return Ex(f"({a.src} * {b.src})", "int", safe, bound=a.bound * b.bound)
            # A product may jump out of the range the generated code keeps.
            return Ex(f"_times({a.src}, {b.src})", "int" if both_int else "num")
        if op in ("+", "-"):
            return Ex(f"({a.src} {op} {b.src})", "int" if both_int else "num", safe,
                      bound=a.bound + b.bound if known else None)
        if op == "/":
            return Ex(f"({a.src} / {b.src})", "num")
        if op == "//":
            return Ex(f"int({a.src} // {b.src})", "int")
        if op == "%":
            return Ex(f"({a.src} % {b.src})", "int" if both_int else "num")
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
            kind = _join(t.kind, o.kind)
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
            kind = _same_kind(items)
            if kind in ("player", "team") and not all(x.safe for x in items):
                raise Unsupported("a list that may hold none")
            return Ex("[" + ", ".join(x.src for x in items) + "]", "list:" + kind,
                      all(x.safe for x in items), items=items)
        var = self.temp("c")
        inner = {**scope, node.var: Ex(var, item_kind, True)}
        el = self.expr(node.element, inner)
        if el.kind.startswith(("die", "dice", "timer")):
            raise Unsupported("a comprehension of dice")
        if el.kind in ("player", "team") and not el.safe:
            raise Unsupported("a list that may hold none")
        test, safe = "", it.safe and el.safe
        if node.cond is not None:
            c = self.expr(node.cond, inner)
            if c.kind != "bool":
                raise Unsupported("condition")
            test, safe = f" if {c.src}", safe and c.safe
        counted = f"_work(_W, {it.src}, steps, {self.max_steps})"  # in the step budget
        return Ex(f"[{el.src} for {var} in {counted}{test}]", "list:" + el.kind, safe)

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
        if all(p == "1" for p in parts) and safe:
            return _lit(len(parts))
        return Ex("(" + " + ".join(parts) + ")" if parts else "0", "int", safe)

    def _x_call(self, node: n.Call, scope: dict) -> Ex:
        f = node.func
        if node.kwargs:
            raise Unsupported("keyword arguments")
        if f == "count" and len(node.args) == 1 and isinstance(node.args[0], n.Comprehension):
            counted = self._count_filtered(node.args[0], scope)
            if counted is not None:
                return counted
        args = [self.expr(a, scope) for a in node.args]
        dice = self._dice_call(f, args)
        if dice is not None:
            return dice
        if f == "count" and len(args) == 1:
            args = [self._as_list(args[0])]
        if f in ("any", "all") and len(args) == 1 and args[0].kind == "list:bool":
            a = args[0]
            if a.items is not None and a.safe:  # nothing can raise: short-circuit is exact
                if not a.items:
                    return _lit(f == "all")
                joined = (" or " if f == "any" else " and ").join(x.src for x in a.items)
                return Ex(f"({joined})", "bool", True)
            return Ex(f"{f}({a.src})", "bool", a.safe)  # a list: every item is evaluated
        if f == "count" and len(args) == 1 and args[0].kind.startswith("list:"):
            a = args[0]
            if a.items is not None:
                return _lit(len(a.items)) if a.safe else Ex(f"len({a.src})", "int", False)
            return Ex(f"len({a.src})", "int", a.safe)
        if f == "opponents" and len(args) == 1 and args[0].kind == "player":
            # The other players still in, in turn order from this one (builtins._opponents).
            a = args[0]
            if not self.elim:
                return Ex(f"list({self._seats('OT', _others(self.n))}[{a.src}])",
                          "list:player", a.safe)
            return Ex(f"{self._seats('OP', _opponents(self.n))}({a.src}, E)", "list:player",
                      a.safe)
        if f == "next_player" and len(args) == 1 and args[0].kind == "player":
            # The first opponent, else the player (builtins._next_player).
            a = args[0]
            if not self.elim:
                nxt = tuple((i + 1) % self.n for i in range(self.n))
                return Ex(f"{self._seats('NX', nxt)}[{a.src}]", "player", a.safe)
            return Ex(f"{self._seats('NP', _next_player(self.n))}({a.src}, E)", "player",
                      a.safe)
        if f in ("first", "last") and len(args) == 1 and args[0].kind in (
                "list:player", "list:int", "list:num", "list:str", "list:team"):
            a, k = args[0], (0 if f == "first" else -1)
            if a.items:
                return a.items[k]
            t = self.temp()
            return Ex(f"({t}[{k}] if ({t} := {a.src}) else None)", a.kind[5:], False)
        if f in ("max", "min", "sum") and len(args) == 1 and args[0].kind in (
                "list:int", "list:num"):
            a = args[0]
            kind = a.kind[5:]
            if f == "sum":
                return Ex(f"sum({a.src})", kind, a.safe)
            if a.items:  # never empty
                if len(a.items) == 1:
                    return a.items[0]
                return Ex(f"{f}({', '.join(x.src for x in a.items)})", kind, a.safe)
            # As the built-in: an empty list gives 0.
            t = self.temp()
            return Ex(f"({f}({t}) if ({t} := {a.src}) else 0)", kind, a.safe)
        if f in ("max", "min") and len(args) > 1 and all(a.kind in _NUMS for a in args):
            kind = "int" if all(a.kind == "int" for a in args) else "num"
            return Ex(f"{f}({', '.join(a.src for a in args)})", kind,
                      all(a.safe for a in args))
        if f == "abs" and len(args) == 1 and args[0].kind in _NUMS:
            return Ex(f"abs({args[0].src})", args[0].kind, args[0].safe)
        if f in ("total", "doubles") and len(args) == 1 and args[0].kind in ("die", "dice"):
            ds = args[0].dice
            if f == "total":
                if type(ds[0].faces[0]) is not int:
                    raise Unsupported("total of text faces")
                return Ex("(" + " + ".join(d.var for d in ds) + ")" if ds else "0", "int",
                          bound=sum(max(abs(x) for x in d.faces) for d in ds))
            if len(ds) < 2:
                return _lit(False)
            # All faces equal (two unrolled dice never raise, even before a roll).
            return Ex("(" + " == ".join(d.var for d in ds) + ")", "bool", True)
        if f == "remaining" and len(args) == 1 and args[0].kind == "timer":
            t = args[0].const
            # As Timer.remaining, max(0, left), without a call: the same value and type.
            left = f"TA_{t} + TS_{t} - now"
            return Ex(f"(({left}) if TR_{t} and {left} > 0 else 0)", "num", True)
        raise Unsupported(f"built-in {f}")

    # -- steps -----------------------------------------------------------------------------------
    def block(self, steps: list | None, d: int, ctx: _Ctx) -> None:
        start = len(self.lines)
        if any(isinstance(s, dict) and ("let" in s or "draw" in s) for s in steps or []):
            # As a scoped block: `let` and `draw ... as` bind for the rest of this list only.
            ctx = ctx.inside(dict(ctx.scope))
        for step in steps or []:
            self.step(step, d, ctx)
        if len(self.lines) == start:
            self.emit(d, "pass")

    def step(self, step: Any, d: int, ctx: _Ctx) -> None:
        name = step_name(step)
        spec = {} if isinstance(step, str) else step
        method = getattr(self, "_s_" + name, None)
        if method is None:
            raise Unsupported(f"effect {name}")
        method(spec, d, ctx)

    def _target(self, text: str, ctx: _Ctx, read: bool = False) -> tuple[str, str, str]:
        """(python target, kind, name written) of a set/add target (`read`: `add` reads it)."""
        node = parse_expression(text)
        if isinstance(node, n.Index):
            return self._team_index_target(node, ctx.scope, read)
        if isinstance(node, n.Name):
            var = self.vars.get(node.id)
            if var is None or var[0] == "player":
                raise Unsupported("target")
            kind = var[2] if var[2] != "list" else self.list_kinds.get(node.id) or "?"
            return var[1], kind, node.id
        if isinstance(node, n.Field):
            face = self._face_target(node, ctx)
            if face is not None:
                return face
            obj = self.expr(node.obj, ctx.scope)
            if obj.kind == "team":
                return self._team_target(obj, node.name)
            var = self.vars.get(node.name)
            if obj.kind != "player" or var is None or var[0] != "player" or var[2] == "list":
                raise Unsupported("target")
            return f"{var[1]}[{obj.src}]", var[2], node.name
        raise Unsupported("target")

    @staticmethod
    def _fits(var_kind: str, value_kind: str) -> bool:
        return var_kind == value_kind or (var_kind == "num" and value_kind == "int") or (
            var_kind in _NONEABLE and value_kind == "none") or (
            var_kind.startswith("list:") and value_kind == "list:?")

    def _only(self, spec: dict, *keys: str) -> None:
        extra = set(spec) - set(keys) - _DOC_KEYS
        if extra:
            raise Unsupported(f"fields {sorted(extra)}")

    def _s_set(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "set")
        pairs = []
        for text, value in spec["set"].items():
            target, kind, name = self._target(text, ctx)
            v = self.expr(_node(value), ctx.scope)
            if not self._fits(kind, v.kind):
                raise Unsupported(f"set {text}: {v.kind} into {kind}")
            pairs.append((target, v, name))
        # What a write stores stays within the size limits (numbers, texts and lists that
        # could grow in a loop: `x * x`, `t + t`); a value of another kind cannot grow.
        sized = [f"_within({v.src})" if v.const is _NO and (v.kind in ("int", "num", "str")
                                                            or v.kind.startswith("list:"))
                 and not (v.kind == "int" and v.bound is not None and v.bound <= SAFE_INT)
                 else v.src for _, v, _ in pairs]
        # A list is stored as a value, never shared with where it was read (lists here hold
        # no lists, so one level of copy is all of it).
        sized = [f"list({src})" if v.kind.startswith("list:") and v.zone is None else src
                 for src, (_, v, _) in zip(sized, pairs, strict=True)]
        if len(pairs) == 1:
            self.emit(d, f"{pairs[0][0]} = {sized[0]}")
        else:  # every value is read before any is written
            temps = [self.temp() for _ in pairs]
            for t, src in zip(temps, sized, strict=True):
                self.emit(d, f"{t} = {src}")
            for t, (target, _, _) in zip(temps, pairs, strict=True):
                self.emit(d, f"{target} = {t}")
        self.after_op(d, frozenset(name for _, _, name in pairs), ctx)

    def _s_add(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "add", "min", "max")
        pairs = []
        for text, value in spec["add"].items():
            target, kind, name = self._target(text, ctx, read=True)
            v = self.expr(_node(value), ctx.scope)
            if kind not in _NUMS or not self._fits(kind, v.kind):
                raise Unsupported(f"add {text}")
            pairs.append((target, v, name))
        low = self.expr(_node(spec["min"]), ctx.scope) if "min" in spec else None
        high = self.expr(_node(spec["max"]), ctx.scope) if "max" in spec else None
        for b in (low, high):
            if b is not None and not all(self._fits(self._target(t, ctx, True)[1], b.kind)
                                         for t in spec["add"]):
                raise Unsupported("add bounds")
        if len(pairs) == 1 and pairs[0][1].safe:
            temps = [pairs[0][1].src]  # one amount that cannot fail: read where it is added
        else:
            temps = [self.temp() for _ in pairs]
            for t, (_, v, _) in zip(temps, pairs, strict=True):  # amounts first, as the closure
                self.emit(d, f"{t} = {v.src}")
        for t, (target, v, _) in zip(temps, pairs, strict=True):
            if low is None and high is None:
                self.emit(d, f"{target} += {t}")
            else:
                expr = f"{target} + {t}"
                if low is not None:
                    expr = f"max({low.src}, {expr})"
                if high is not None:
                    expr = f"min({high.src}, {expr})"
                self.emit(d, f"{target} = {expr}")
            # A small amount (a die's face, a constant) moves the sum by little per step:
            # the checks at the writes that can jump (sets, large adds) keep it in range.
            if (low is None or high is None) and (v.bound is None or v.bound > SMALL_STEP):
                self.emit(d, f"if not -{SAFE_INT} <= {target} <= {SAFE_INT}:")
                self.emit(d + 1, "raise _Fallback()")
        self.after_op(d, frozenset(name for _, _, name in pairs), ctx)

    def _s_say(self, spec: dict, d: int, ctx: _Ctx) -> None:
        return None  # narration is off in simulation: nothing is evaluated

    def _s_if(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "if", "then", "else")
        c = self.cond(spec["if"], ctx.scope)
        if c.const is True:
            self.block(spec.get("then"), d, ctx)
        elif c.const is False:
            self.block(spec.get("else"), d, ctx)
        else:
            self.emit(d, f"if {c.src}:")
            self.block(spec.get("then"), d + 1, ctx)
            if spec.get("else"):
                self.emit(d, "else:")
                self.block(spec["else"], d + 1, ctx)

    def _s_repeat(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "repeat", "times", "while", "until", "max")
        sc = ctx.scope
        times = self.expr(_node(spec["times"]), sc) if "times" in spec else None
        while_ = self.cond(spec["while"], sc) if "while" in spec else None
        until = self.cond(spec["until"], sc) if "until" in spec else None
        most = self.expr(_node(spec["max"]), sc) if "max" in spec else None
        for x in (times, most):
            if x is not None and x.kind != "int":
                raise Unsupported("repeat count")
        exits = self.flag_exits
        nt, cap, passes = self.temp("n"), self.temp("cap"), self.temp("p")
        d2 = loop_head(self.emit, d, (nt, cap, passes), times and times.src,
                       most and most.src, while_ and while_.src)
        # Past `max`, `limits.max_loop` or the step budget the interpreter stops with an
        # error: the interpreter replays this seed. (A counter, not `for _ in range(...)`:
        # a loop of a few passes, entered often, pays more for making the range.)
        limit = f"{passes} > {self.max_loop}" + (f" or {passes} > {cap}" if most else "")
        guard = len(self.lines)
        self.emit(d2, f"if {limit} or steps > {self.max_steps}:")
        self.emit(d2 + 1, "raise _Fallback()")
        self.block(spec["repeat"], d2, ctx.inside(in_loop=True))
        if until:
            self.emit(d2, f"if {until.src}:")
            self.emit(d2 + 1, "break")
        self.after_loop(guard, d, limit, exits)

    def after_loop(self, guard: int, d: int, limit: str, exits: int) -> None:
        """What follows a loop written at depth `d` whose guard (`if LIMIT or steps > ...:`
        and its `raise`) is at `self.lines[guard]`.

        A loop with no loop inside it adds at most `max_loop` passes of its body to the step
        count, so it tests the step budget once when it ends, not on every pass (the seed is
        handed back either way, and the interpreter then stops at the exact step). A loop
        whose body ended the turn by flag passes the flag on."""
        if not any(line.lstrip().startswith(("while ", "for "))
                   for line in self.lines[guard + 2:]):
            head = self.lines[guard]
            self.lines[guard] = head[:len(head) - len(head.lstrip())] + f"if {limit}:"
            self.emit(d, f"if steps > {self.max_steps}:")
            self.emit(d + 1, "raise _Fallback()")
        if self.flag_exits != exits:
            self.emit(d, "if _et:")
            self.emit(d + 1, "break")

    def _s_break(self, spec: dict, d: int, ctx: _Ctx) -> None:
        if not ctx.in_loop:
            raise Unsupported("break outside a loop written here")
        self.emit(d, "break")

    def _s_end_turn(self, spec: dict, d: int, ctx: _Ctx) -> None:
        if ctx.flag_exit:
            self.flag_exits += 1
            self.emit(d, "_et = True")
            self.emit(d, "break")
        else:
            self.emit(d, "raise _EndTurn()")

    def _s_end_phase(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self.emit(d, "raise _EndPhase()")

    def _s_call(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "call", "with")
        depth = ctx.depth + 1
        if depth > self.max_chain * 4:
            self.emit(d, "raise _Fallback()")  # the interpreter's nesting error
            return
        if ctx.inline >= _MAX_INLINE:
            raise Unsupported("procedures nest too deeply to write out")
        scope = {}
        for k, v in (spec.get("with") or {}).items():
            e = self.expr(_node(v), ctx.scope)
            if e.src and e.const is _NO and e.kind not in ("die", "dice", "timer"):
                t = self.temp("a")
                copy = e.kind.startswith("list:") and e.zone is None  # a value, as in set
                self.emit(d, f"{t} = list({e.src})" if copy else f"{t} = {e.src}")
                # Held in a local: reading it cannot raise, but a player may be none.
                e = Ex(t, e.kind, e.safe or e.kind not in _NONEABLE, items=None,
                       bound=e.bound, zone=e.zone)
            scope[k] = e
        # A procedure sees the game's names and its arguments, not the caller's bindings.
        self.block(self.p.data["procedures"][spec["call"]].get("do"), d,
                   ctx.inside(scope, depth=depth, in_loop=False, inline=ctx.inline + 1))

    def _s_for_each(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._for_each: the body once per item of the list as it was at the start
        (lists are never changed in place here, so the list itself is that snapshot)."""
        self._only(spec, "for_each", "in", "do")
        items = self.expr(_node(spec["in"]), ctx.scope)
        snapshot = items.kind == "zone"  # a zone changes in place: its items at the start
        items = self._as_list(items)
        if not items.kind.startswith("list:") or items.kind == "list:?":
            raise Unsupported("for_each over something not a list")
        v = self.temp("fe")
        self.emit(d, f"for {v} in {'list(' + items.src + ')' if snapshot else items.src}:")
        scope = {**ctx.scope, spec["for_each"]: Ex(v, items.kind[5:], True)}
        exits = self.flag_exits
        self.block(spec.get("do"), d + 1, ctx.inside(scope, in_loop=True))
        if self.flag_exits != exits:
            self.emit(d, "if _et:")
            self.emit(d + 1, "break")

    def _in_options(self, a: Ex, b: Ex, negate: bool) -> Ex:
        """`x in options` in a policy: whether x is the value of a legal option."""
        mode, legal, values = b.opts
        if mode == "values":
            if a.kind != values:
                raise Unsupported("in options")
            return Ex(f"({a.src} {'not in' if negate else 'in'} {legal})", "bool", a.safe)
        if a.kind != "str" or a.const is _NO:
            raise Unsupported("in options")
        if a.const not in values:
            return _lit(negate)
        i = values.index(a.const)
        if mode == "static":
            return _lit((i in legal) != negate)
        return Ex(f"({i} {'not in' if negate else 'in'} {legal})", "bool", True)

    def _s_emit(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "emit")
        self.fire(spec["emit"], d, ctx)

    def _s_roll(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "roll", "duration")
        dice = self._as_list(self.expr(_node(spec["roll"]), ctx.scope))
        if dice.kind in ("dref", "list:dref"):
            if "duration" in spec:
                raise Unsupported("a timed roll of dice known at run time")
            self._roll_dyn(dice, d)
            self.emit(d, "rolls += 1")
            self.fire("rolled", d, ctx)
            self.after_op(d, frozenset({"face"}), ctx)
            return
        if dice.kind not in ("die", "dice"):
            raise Unsupported("roll of something not dice known now")
        if "duration" in spec:
            self.advance(self.expr(_node(spec["duration"]), ctx.scope), d, ctx)
        # As SeededChance.roll: one draw per die, in order.
        for die in dice.dice:
            sides = len(die.faces)
            if die.faces == tuple(range(1, sides + 1)):
                self.emit(d, f"{die.var} = int(rnd() * {sides}) + 1")
            else:
                self.emit(d, f"{die.var} = {self.const(die.faces, 'FA')}[int(rnd() * {sides})]")
        self.emit(d, "rolls += 1")
        self.fire("rolled", d, ctx)
        self.after_op(d, frozenset({"face"}), ctx)

    def _s_start_timer(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "start_timer", "seconds")
        t = spec["start_timer"]
        s = self.expr(_node(spec["seconds"]), ctx.scope)
        if s.kind not in _NUMS:
            raise Unsupported("timer seconds")
        self.emit(d, f"TS_{t} = {s.src}")
        self.emit(d, f"TA_{t} = now")
        self.emit(d, f"TR_{t} = True")
        self.after_op(d, None, ctx)

    def _s_stop_timer(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "stop_timer")
        self.emit(d, f"TR_{spec['stop_timer']} = False")
        self.after_op(d, None, ctx)

    def _s_wait(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "wait")
        self.advance(self.expr(_node(spec["wait"]), ctx.scope), d, ctx)
        self.after_op(d, None, ctx)

    # -- time ------------------------------------------------------------------------------------
    def advance(self, secs: Ex, d: int, ctx: _Ctx) -> None:
        """As Game.advance on a modelled clock: timers that run out and hazard events within
        the stretch happen in time order, each at its moment."""
        if secs.kind not in _NUMS:
            raise Unsupported("duration")
        s, start, end, pend = self.temp("s"), self.temp("st"), self.temp("en"), self.temp("pd")
        if secs.const is not _NO and secs.const <= 0:
            return  # no time passes
        self.emit(d, f"{s} = {secs.src}")
        if secs.const is _NO:
            self.emit(d, f"if {s} > 0:")
            d1 = d + 1
        else:
            d1 = d
        self.emit(d1, f"{start} = now")
        self.emit(d1, f"{end} = {start} + {s}")
        self.emit(d1, f"{pend} = None")  # most stretches see no event: no list made
        for t in self.timers:
            self.emit(d1, f"if TR_{t} and TA_{t} + TS_{t} <= {end}:")
            item = f"(TA_{t} + TS_{t}, 0, 'timer', {t!r})"
            self.emit(d1 + 1, f"{pend} = [{item}] if {pend} is None else [*{pend}, {item}]")
        for event, spec in (self.data.get("events") or {}).items():
            if "hazard" not in spec:
                continue
            dd = d1
            if "during" in spec:
                c = self.cond(spec["during"], {})
                if c.const is False:
                    continue
                if c.const is not True:
                    self.emit(d1, f"if {c.src}:")
                    dd = d1 + 1
            rate = self.expr(_node(spec["hazard"]), {})
            if rate.kind not in _NUMS:
                raise Unsupported("hazard rate")
            # As SeededChance.hazard: no draw for a rate <= 0; else one draw, 0.0 at rate 1.
            at = self.temp("at")
            item = f"({start} + {at}, 1, 'event', {event!r})"
            add = f"{pend} = [{item}] if {pend} is None else [*{pend}, {item}]"
            if rate.const is _NO:
                r = self.temp("r")
                self.emit(dd, f"{r} = {rate.src}")
                self.emit(dd, f"if {r} > 0:")
                self.emit(dd + 1, f"{at} = rnd()")
                self.emit(dd + 1, f"{at} = 0.0 if {r} >= 1 else _log1p(-{at}) / _log1p(-{r})")
                self.emit(dd + 1, f"if {at} < {s}:")
                self.emit(dd + 2, add)
            elif rate.const >= 1:
                self.emit(dd, "rnd()")
                self.emit(dd, f"{at} = 0.0")
                self.emit(dd, add)
            elif rate.const > 0:
                # log1p(-rate) is the same number computed now or at each query.
                self.emit(dd, f"{at} = _log1p(-rnd()) / {math.log1p(-rate.const)!r}")
                self.emit(dd, f"if {at} < {s}:")
                self.emit(dd + 1, add)
        self.emit(d1, f"if {pend} is not None:")
        d2 = d1 + 1
        self.emit(d2, f"{pend}.sort()")
        at, kind, name = self.temp("at"), self.temp("k"), self.temp("nm")
        self.emit(d2, f"for {at}, _, {kind}, {name} in {pend}:")
        d3 = d2 + 1
        self.emit(d3, f"now = max(now, {at})")
        # A `break` in a trigger here would leave this loop, not the language's; an
        # `end_turn` by flag leaves it, and the loop around it, below.
        inner = ctx.inside(in_loop=False)
        exits = self.flag_exits
        for t in self.timers:
            self.emit(d3, f"if {kind} == 'timer' and {name} == {t!r}:")
            self.emit(d3 + 1, f"if TR_{t} and TA_{t} + TS_{t} <= now:")
            self.emit(d3 + 2, f"TR_{t} = False")
            self.fire("timer_expired", d3 + 2, inner)
        for event, spec in (self.data.get("events") or {}).items():
            if "hazard" in spec:
                self.emit(d3, f"if {kind} == 'event' and {name} == {event!r}:")
                self.emit(d3 + 1, "pass")
                self.fire(event, d3 + 1, inner)
        if self.flag_exits != exits:
            self.emit(d2, "if _et:")
            self.emit(d2 + 1, "break")
        self.emit(d1, f"now = {end}")

    # -- triggers --------------------------------------------------------------------------------
    def fire(self, event: str, d: int, ctx: _Ctx) -> None:
        """As Game.fire: triggers in priority order, one per group; each body inline."""
        trigs = self.p.triggers.get(event)
        if not trigs:
            return
        depth = ctx.depth + 1
        if depth > self.max_chain:
            self.emit(d, "raise _Fallback()")  # the interpreter's chain-depth error
            return
        if ctx.inline >= _MAX_INLINE:
            raise Unsupported("triggers nest too deeply to write out")
        seen: set[str] = set()
        prev = None  # the group of the trigger written just before, if any
        for trig in trigs:
            g = trig.group
            chained = g is not None and g == prev
            if g is not None and g in seen and not chained:
                raise Unsupported("a group whose triggers are not consecutive")
            if g is not None:
                seen.add(g)
            spec = self.data["triggers"][trig.name]
            c = self.cond(spec["if"], {}) if "if" in spec else _lit(True)
            if c.const is False:
                continue  # never fires with these parameters
            k = self.trig_index.setdefault(trig.order, len(self.fired))
            if k == len(self.fired):
                self.fired.append(trig.name)
            # Within a group the first whose condition holds fires: an if/elif chain.
            self.emit(d, f"{'elif' if chained else 'if'} {c.src}:")
            self.emit(d + 1, f"fi{k} += 1")
            self.block(spec.get("do"), d + 1,
                       ctx.inside({}, depth=depth, in_loop=False, inline=ctx.inline + 1))
            prev = g

    # -- the flow --------------------------------------------------------------------------------
    def reset(self, scope: str, d: int) -> None:
        for name, (sc, py, kind) in self.vars.items():
            if sc != scope:
                continue
            self.emit(d, f"{py} = {self._initial(name, kind, {})}")

    def _initial(self, name: str, kind: str, scope: dict) -> str:
        init, is_expr = self.inits[name]
        if not is_expr:
            if kind == "list":
                if init:
                    raise Unsupported("a list state with items from the start")
                return "[]"  # a fresh list each time, as the deep copy
            e = _lit(init)
        else:
            e = self.expr(parse_expression(init), scope)
        want = self.list_kinds.get(name) if kind == "list" else kind
        if want is None or not self._fits(want, e.kind):
            raise Unsupported(f"initial value of {name}")
        return e.src

    def generate(self) -> str:
        e = self.emit
        e(0, "def play(seed):")
        d = 1
        if self.dyn:
            e(d, "R = _Random(seed)")
            e(d, "rnd = R.random")
            e(d, "rbelow = R._randbelow")  # as random.Random.sample draws one item
        else:
            e(d, "rnd = _Random(seed).random")
        e(d, "drnd = None")
        e(d, "steps = turn_n = round_n = rolls = phases_n = 0")
        e(d, "_W = [0]")  # items comprehensions went through (specialize_base.work)
        e(d, "now = 0.0")
        e(d, str(_Late("fired")))
        e(d, f"CH = [0] * {_Late('chosen')}")
        e(d, str(_Late("ch_locals")))
        e(d, f"UN = [0] * {_Late('unruled')}")
        e(d, "cur = 0")
        e(d, f"_PL = {list(range(self.n))!r}")
        if self.elim:
            e(d, f"E = [False] * {self.n}")
        e(d, str(_Late("uses")))
        for did in self.decisions:
            e(d, f"D_{did} = None")
        for ds in self.dice.values():
            for die in ds:
                e(d, f"{die.var} = None")
        self._zone_init(d)
        for t in self.timers:
            e(d, f"TS_{t} = 0")
            e(d, f"TA_{t} = None")
            e(d, f"TR_{t} = False")
        self.reset("global", d)
        for name, (sc, py, kind) in self.vars.items():
            if sc == "player":
                per = [self._initial(name, kind, {"player": Ex(str(i), "player", True)})
                       for i in range(self.n)]
                e(d, f"{py} = [{', '.join(per)}]")
        self._team_state_init(d)
        self.reset("turn", d)
        self.reset("round", d)
        if self.track:
            e(d, "first = leader = None")
            e(d, "changes = 0")
        e(d, "try:")
        ctx = _Ctx({})
        self.fire("game_start", d + 1, ctx)
        phases = self._reachable()
        e(d + 1, f"ph = {phases.index(self.p.start)}")
        e(d + 1, "while ph >= 0:")
        for i, name in enumerate(phases):
            e(d + 2, f"{'if' if i == 0 else 'elif'} ph == {i}:")
            self.phase(name, phases, d + 3)
        e(d + 1, "reason = 'the flow reached its end'")
        e(d, "except _EndGame as _eg:")
        end = self.data.get("end") or {}
        # An `end_game` step gives its reason; the end condition its doc.
        e(d + 1, f"reason = _eg.args[0] if _eg.args else "
                 f"{(end.get('doc') or 'the end condition holds')!r}")
        e(d, f"if steps > {self.max_steps}:")
        e(d + 1, "raise _Fallback()")
        self.scoring(d)
        src = "\n".join(_merge_steps(self.lines))
        uses = "".join(f"\n    UP{k} = [-1] * {self.n}\n    UC{k} = [0] * {self.n}"
                       for k in self.uses.values())  # per seat: the period, the uses in it
        # Trigger counts are locals (`fi3 += 1` costs far less than an item of a list).
        fis = [f"fi{k}" for k in range(len(self.fired))]
        chs = [f"ch{k}" for k in sorted(self.ch_locals)]
        sums = "; ".join(f"CH[{k}] += ch{k}" for k in sorted(self.ch_locals))
        return (src.replace(f"\n    {_Late('uses')}", uses)
                .replace(str(_Late("ch_locals")), " = ".join([*chs, "0"]) if chs else "pass")
                .replace(str(_Late("ch_sums")), sums or "pass")
                .replace(str(_Late("fired_list")), ", ".join(fis))
                .replace(str(_Late("fired")), " = ".join([*fis, "0"]) if fis else "pass")
                .replace(str(_Late("chosen")), str(len(self.chosen)))
                .replace(str(_Late("unruled")), str(len(self.unruled))))

    def _reachable(self) -> list[str]:
        """Phases some parameter setting reaches (a `next` whose condition is false for these
        parameter values is not followed)."""
        out, todo = [], [self.p.start]
        while todo:
            name = todo.pop()
            if name == "end" or name in out:
                continue
            out.append(name)
            for test, to in self._next(name):
                if test is None or test.const is not False:
                    todo.append(to)
        return out

    def _next(self, name: str) -> list[tuple[Ex | None, str]]:
        nxt = self.data["flow"]["phases"][name].get("next", "end")
        if isinstance(nxt, str):
            return [(None, nxt)]
        return [(self.cond(x["if"], {}) if "if" in x else None, x["to"]) for x in nxt]

    def phase(self, name: str, phases: list[str], d: int) -> None:
        e = self.emit
        spec = self.data["flow"]["phases"][name]
        self._only(spec, "do", "on_begin", "on_end", "turns", "repeat", "next")
        ctx = _Ctx({})
        e(d, "phases_n += 1")
        self.block(spec.get("on_begin"), d, ctx)
        self.fire("phase_start", d, ctx)
        rep = spec.get("repeat") or {}
        self._only(rep, "times", "until", "while", "max")
        times = self.expr(_node(rep["times"]), {}) if "times" in rep else None
        until = self.cond(rep["until"], {}) if "until" in rep else None
        while_ = self.cond(rep["while"], {}) if "while" in rep else None
        most = self.expr(_node(rep["max"]), {}) if "max" in rep else None
        for x in (times, most):
            if x is not None and x.kind != "int":
                raise Unsupported("phase repeat count")
        once = times is None and until is None and while_ is None
        e(d, "try:")
        d1 = d + 1
        if times is not None:
            e(d1, f"ntimes = {times.src}")
        if most is not None:
            e(d1, f"cap = {most.src}")
        e(d1, "passes = 0")
        e(d1, "while True:")
        d2 = d1 + 1
        if times is not None:
            e(d2, "if passes >= ntimes:")
            e(d2 + 1, "break")
        elif once:
            e(d2, "if passes >= 1:")
            e(d2 + 1, "break")
        if while_ is not None:
            e(d2, f"if not {while_.src}:")
            e(d2 + 1, "break")
        e(d2, "passes += 1")
        limit = " or passes > cap" if most is not None else ""
        e(d2, f"if passes > {self.max_loop} or steps > {self.max_steps}{limit}:")
        e(d2 + 1, "raise _Fallback()")
        if spec.get("turns") is not None:
            self.round(spec, until, d2)
            e(d2, "if stop:")
            e(d2 + 1, "break")
        else:
            self.block(spec.get("do"), d2, ctx)
        if until is not None:
            e(d2, f"if {until.src}:")
            e(d2 + 1, "break")
        e(d, "except _EndPhase:")
        e(d1, "pass")
        self.block(spec.get("on_end"), d, ctx)
        self.fire("phase_end", d, ctx)
        nexts = self._next(name)
        opened = False
        for test, to in nexts:
            if test is not None and test.const is False:
                continue
            target = phases.index(to) if to != "end" else -1
            if test is None or test.const is True:
                self.emit(d, "else:" if opened else "if True:")
                self.emit(d + 1, f"ph = {target}")
                break
            self.emit(d, f"{'elif' if opened else 'if'} {test.src}:")
            self.emit(d + 1, f"ph = {target}")
            opened = True
        else:
            self.emit(d, "else:" if opened else "if True:")
            self.emit(d + 1, "ph = -1")

    def round(self, spec: dict, until: Ex | None, d: int) -> None:
        e = self.emit
        turns = spec["turns"]
        self._only(turns, "order", "first", "skip", "by_team")
        by_team = bool(turns.get("by_team")) and bool(self.team_names)
        if turns.get("order", "clockwise") not in ("clockwise", "counterclockwise"):
            raise Unsupported("turn order")
        e(d, "round_n += 1")
        self.reset("round", d)
        ctx = _Ctx({})
        self.fire("round_start", d, ctx)
        ccw = turns.get("order") == "counterclockwise"
        if "first" in turns:
            first = self.expr(_node(turns["first"]), {})
            if first.kind != "player":
                raise Unsupported("first")
            e(d, f"fp = {first.src}")
            if not first.safe:
                e(d, "if fp is None:")  # as Game._run_round: none is the first seat
                e(d + 1, "fp = 0")
            e(d, "order = _PL[fp:] + _PL[:fp]")
            if ccw:
                e(d, "order = [order[0]] + order[:0:-1]")
            src = "order"
        else:
            order = list(range(self.n))
            if ccw:
                order = [order[0]] + order[:0:-1]
            src = repr(order)
            if by_team:
                e(d, f"order = {src}")
                src = "order"
        if by_team:
            self._team_order(d)
        e(d, "stop = False")
        e(d, f"for pc in {src}:")
        d1 = d + 1
        if self.elim:
            e(d1, "if E[pc]:")  # the eliminated have no turns
            e(d1 + 1, "continue")
        if "skip" in turns:
            skip = self.cond(turns["skip"], {"player": Ex("pc", "player", True)})
            e(d1, f"if {skip.src}:")
            e(d1 + 1, "continue")
        e(d1, "cur = pc")  # `current` changes only when a turn begins
        self.turn(spec, d1)
        if until is not None:
            e(d1, f"if {until.src}:")
            e(d1 + 1, "stop = True")
            e(d1 + 1, "break")
        self.fire("round_end", d, ctx)

    def turn(self, spec: dict, d: int) -> None:
        e = self.emit
        e(d, "turn_n += 1")
        e(d, f"if turn_n > {self.p.limits['max_turns']} or steps > {self.max_steps}:")
        e(d + 1, "raise _Fallback()")
        self.reset("turn", d)
        ctx = _Ctx({})
        # The turn is a loop of one pass, so that an `end_turn` written in it (not in a
        # check, a decision's actions or the advance of time) leaves it by `break`.
        start, exits = len(self.lines), self.flag_exits
        e(d, "try:")
        e(d + 1, "while True:")
        self.fire("turn_start", d + 2, ctx)
        self.block(spec.get("do"), d + 2, _Ctx({}, flag_exit=True))
        e(d + 2, "break")
        e(d, "except _EndTurn:")
        e(d + 1, "pass")
        if self.flag_exits != exits:
            self.lines.insert(start, " " * (4 * d) + "_et = False")
        if self.p.triggers.get("turn_end"):
            e(d, "try:")
            self.fire("turn_end", d + 1, ctx)
            e(d, "except _EndTurn:")
            e(d + 1, "pass")
        if self.track:
            e(d, "if first is None:")
            e(d + 1, "first = cur + 1")
            self.standings(d)

    def _scores(self) -> list[Ex] | None:
        sc = (self.data.get("scoring") or {})
        if "score" not in sc:
            return None
        return [self.expr(_node(sc["score"]), {"player": Ex(str(i), "player", True)})
                for i in range(self.n)]

    def standings(self, d: int) -> None:
        """As simulate's standings after a turn: the one player strictly ahead leads."""
        scores = self._scores()
        if scores is None or any(s.kind not in _NUMS for s in scores):
            raise Unsupported("standings of scores that are not numbers")
        lowest = (self.data.get("scoring") or {}).get("order") == "lowest"
        e = self.emit
        # Every score read in seat order (one may stop the game with an error), then the
        # best of them, held by exactly one seat or by nobody.
        e(d, f"sv = ({''.join(s.src + ', ' for s in scores)})")
        e(d, f"best = {'min' if lowest else 'max'}(sv)")
        e(d, "if sv.count(best) == 1:")
        e(d + 1, "who = sv.index(best) + 1")
        e(d + 1, "if who != leader:")
        e(d + 2, "if leader is not None:")
        e(d + 3, "changes += 1")
        e(d + 2, "leader = who")

    def scoring(self, d: int) -> None:
        e = self.emit
        sc = self.data.get("scoring") or {}
        self._only(sc, "score", "order", "ties", "tie_break", "eligible", "winners")
        scores = self._scores()
        e(d, "scores = [" + (", ".join(s.src for s in scores) if scores
                             else ", ".join(["None"] * self.n)) + "]")
        tbs = []
        for i in range(self.n):
            scope = {"player": Ex(str(i), "player", True)}
            tb = [self.expr(_node(x), scope) for x in sc.get("tie_break") or []]
            if any(x.kind not in _NUMS for x in tb):
                raise Unsupported("tie_break")
            tbs.append("[" + ", ".join(x.src for x in tb) + "]")
        e(d, "tbs = [" + ", ".join(tbs) + "]")
        if "eligible" in sc:
            el = [self.cond(sc["eligible"], {"player": Ex(str(i), "player", True)}).src
                  for i in range(self.n)]
            e(d, "eligible = [" + ", ".join(el) + "]")
        else:
            e(d, "eligible = None")
        if "winners" in sc:
            w = self.expr(_node(sc["winners"]), {})
            if w.kind != "list:player":
                raise Unsupported("winners")
            e(d, f"winners = {w.src}")
        else:
            e(d, "winners = None")
        if self.track:
            e(d, "if first is None and turn_n >= 1:")
            e(d + 1, "first = cur + 1")
            if scores is not None:
                self.standings(d)
            tracked = "first, changes"
        else:
            tracked = "None, None"
        e(d, f"FI = [{_Late('fired_list')}]")
        e(d, "fired = {FN[i]: k for i, k in enumerate(FI) if k}")
        e(d, str(_Late("ch_sums")))
        e(d, "chosen = {}")
        e(d, "for i, k in enumerate(CH):")
        e(d + 1, "if k:")
        e(d + 2, "chosen[CK[i]] = k")
        # One counter per place a decision is asked; the same (policy, decision) asked in two
        # places adds up, as the interpreter counts it.
        e(d, "unruled = {}")
        e(d, "for i, k in enumerate(UN):")
        e(d + 1, "if k:")
        e(d + 2, "unruled[UK[i]] = unruled.get(UK[i], 0) + k")
        e(d, "return (reason, round_n, turn_n, steps, rolls, now, scores, tbs, eligible, "
             f"winners, fired, chosen, unruled, {tracked}, {'E' if self.elim else 'None'})")


_UNSET = object()  # a policy's `let` name not worked out yet in this decision


class _Late:
    """A number written into the source once generation knows it."""

    def __init__(self, what: str):
        self.what = what

    def __str__(self) -> str:
        return f"__LATE_{self.what}__"


def _same_kind(items: list[Ex]) -> str:
    kinds = {x.kind for x in items}
    if kinds <= {"int", "num"} and kinds:
        return "num" if "num" in kinds else "int"
    if len(kinds) != 1:
        raise Unsupported("a list of mixed kinds")
    k = next(iter(kinds))
    if k.startswith(("list", "die", "dice", "timer")):
        raise Unsupported("a list of lists")
    return k


# Operators folded when both sides are known now: the language's meaning on numbers (and
# texts, for ordering), as dsl/compiler.py's _OPS.
_FOLD = {"<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
         "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
         "//": lambda a, b: int(a // b), "%": operator.mod}


def _join(a: str, b: str) -> str:
    """The kind of a list made of two lists (an empty list `[]` takes the other's kind)."""
    if a == "list:?" or a == b:
        return b
    if b == "list:?":
        return a
    raise Unsupported("a list of mixed kinds")


def _others(n: int) -> tuple:
    """For each seat, the other seats in turn order from it (Player.others)."""
    return tuple(tuple(list(range(i + 1, n)) + list(range(i))) for i in range(n))


def _opponents(n: int) -> Callable:
    """builtins._opponents on seats: the others still in, in turn order."""
    others = _others(n)

    def opponents(seat: int, eliminated: list) -> list:
        return [q for q in others[seat] if not eliminated[q]]
    return opponents


def _next_player(n: int) -> Callable:
    """builtins._next_player on seats: the first opponent still in, else the seat itself."""
    others = _others(n)

    def next_player(seat: int, eliminated: list) -> int:
        for q in others[seat]:
            if not eliminated[q]:
                return q
        return seat
    return next_player


def _walk(steps: Any):
    for step in steps or []:
        yield step
        if not isinstance(step, dict):
            continue
        for key in ("then", "else", "repeat", "do"):
            if isinstance(step.get(key), list):
                yield from _walk(step[key])
        opts = step.get("options")
        if isinstance(opts, dict):
            for o in opts.values():
                if isinstance(o, dict):
                    yield from _walk(o.get("do"))


def _all_step_lists(data: dict):
    for spec in data["flow"]["phases"].values():
        for key in ("do", "on_begin", "on_end"):
            yield spec.get(key)
    for section in ("procedures", "triggers", "checks"):
        for spec in (data.get(section) or {}).values():
            yield spec.get("do")


def specialize(program: Program, players: int | None = None,
               seats: dict[int, str] | None = None) -> Specialized | None:
    """The ruleset and seats as one generated function, or None when something in them is not
    specialized (the interpreter then plays)."""
    from interpreter.engine.setup import controller_for, player_count
    try:
        n = player_count(program, players)
    except Exception:
        return None
    seats = dict(seats or {})
    controllers = []
    for i in range(n):
        try:
            ctrl = controller_for(program, seats.get(i + 1))
        except Exception:
            return None
        if not isinstance(ctrl, (PolicyController, RandomController)):
            return None
        controllers.append(ctrl)
    try:
        fns = []
        sources = []
        gen = None
        for track in (False, True):
            gen = _Gen(program, n, controllers, track)
            source = gen.generate()
            names = {"_Random": random.Random, "_log1p": math.log1p, "_Fallback": Fallback,
                     "_within": within, "_work": work, "_times": times,
                     "_EndTurn": _EndTurn, "_EndPhase": _EndPhase, "_EndGame": _EndGame,
                     "_U": _UNSET,
                     "FN": gen.fired, "CK": gen.chosen, "UK": gen.unruled, **gen.consts}
            code = compile(source, f"<meeple specialized {'tracked' if track else 'game'}>",
                           "exec")
            exec(code, names)  # noqa: S102 - built from checked nodes, never from user text
            fns.append(names["play"])
            sources.append(source)
    except (Unsupported, RecursionError, SyntaxError, KeyError):
        return None
    sc = program.data.get("scoring") or {}
    return Specialized(program, n, seats, sources[0], fns[0], fns[1], gen.seat_names,
                       [c.name for c in controllers], sc.get("order", "highest"),
                       sc.get("ties", "shared"), "score" in sc,
                       seat_teams=[gen.team_names[t] for t in gen.seat_team])
