"""Phase 5b, compile for simulation (specializer): the seats' controllers at a decision, as code.

Input: a decision's legal answers as the generated code holds them, the seat configuration's
controllers (policies, random seats) and the generator of interpreter/compile/specialize.py.
Output: Python lines that set the choice variable as interpreter/engine/decisions.py would:
policies as if/elif chains (`when`, `choose`, `best`, `random`; `let` names worked out when
first read, once a decision or, when they read `option`, once an option), a rule whose pick is
not legal does not apply, no rule: counted as unruled, then a random pick from the game's
decision generator.

The legal answers (`legal`) come in four forms:

- ("static", indexes): named options, the legal ones known now;
- ("dynamic", name): named options, the name of a run-time list of legal indexes;
- ("values", name): options given by an expression, the name of the run-time list of the
  values (players and dice as numbers, numbers, texts); the choice holds the value;
- ("number", low, high): a number choice between two bounds (sources).

`PolicyWriter` is a mixin of the generator (`_Gen`): it uses its `emit`, `expr`, `cond`,
`temp` and `const`.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from dsl.nodes import mentions
from interpreter.compile.base import (
    _NO,
    _NUMS,
    COUNTS_WORK,
    LOCATES,
    Ex,
    Unsupported,
    _lit,
    _node,
)
from interpreter.compile.people import Person, Shown
from interpreter.compile.repeats import bound_first, repeated, replaced, shape
from interpreter.compile.stops import expr_site, raise_at
from interpreter.compile.trees import expression_tree
from interpreter.engine.decisions import PolicyController

# Kinds whose Python `==` is the language's match of a pick with an option (a pick of another
# kind could match an option's key rather than its value: not specialized).
_SAME_MATCH = {"player": ("player",), "dref": ("dref",), "str": ("str",), "cell": ("cell",),
               "card": ("card",),
               "int": ("int", "num"), "num": ("int", "num")}
_SHARED = ("int", "num", "bool", "str")  # the kinds of a part of a score named once an option
# What a value worked out at once (`cheap`) may hold: reads, and arithmetic and comparisons
# that are a Python operation each (no call, no name bound, no loop, no search of a list).
_CHEAP = (ast.Expression, ast.Name, ast.Constant, ast.Load, ast.BinOp, ast.UnaryOp,
          ast.Compare, ast.BoolOp, ast.IfExp, ast.Subscript, ast.operator, ast.unaryop,
          ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Is, ast.IsNot, ast.boolop)
_CHEAP_SIZE = 12  # its reads, values and operations, at most: about as many as a few first readings


def cheap(src: str) -> bool:
    """Whether generated source is a few reads and operations, which count no work: where it
    cannot fail, working it out whether or not it is read is not seen, and costs little."""
    tree = expression_tree(src)
    if tree is None:
        return False
    nodes = list(ast.walk(tree))
    return (sum(isinstance(x, ast.expr) for x in nodes) <= _CHEAP_SIZE
            and all(isinstance(x, _CHEAP) for x in nodes))


class PolicyWriter:
    """The controllers of the seats at one decision (a mixin of _Gen)."""

    def _controllers(self, did: str, values: Any, legal: tuple, c: str, d: int,
                     who: Ex, shown: Shown | None = None) -> None:
        """The decider's controller as code; seats with the same controller share it.
        `values`: the option names (named options), or the kind of the values (`values`
        mode), or None (a number choice)."""
        if self.logged and did not in self.races:
            self.scripted_interruptions(d, shown)  # interpreter/compile/people.py
            # A logged game's scripted answers come first (a decisions file: Game._decide),
            # a race's picks never (the interpreter asks the racers' controllers directly).
            self.emit(d, "if FQ:")
            if not self.live:  # a modelled clock stands at the moment a scripted answer says
                self.emit(d + 1, "if type(FQ[0]) is dict and 'at' in FQ[0]:")
                self.emit(d + 2, "now = FQ[0]['at']")
            self.emit(d + 1, f"{c} = {self.forced_src(did, values, legal, who)}")
            self.emit(d, "else:")
            d += 1
            if self.script_only:  # a replay: nobody decides (Game.script_only)
                self.emit(d, f"raise _ScriptEnded({did!r})")
                return
        # Group by what the code would be: the policy's name, or random.
        keyed: dict[str, list[int]] = {}
        for seat, ctrl in enumerate(self.controllers):
            keyed.setdefault(ctrl.name, []).append(seat)
        items = list(keyed.items())
        for j, (_, seats) in enumerate(items):
            dd = d
            if len(items) > 1:
                test = (f"{who.src} in {tuple(seats)!r}" if len(seats) > 1
                        else f"{who.src} == {seats[0]}")
                self.emit(d, ("if " if j == 0 else "elif ") + test + ":" if j < len(items) - 1
                          else "else:")
                dd = d + 1
            ctrl = self.controllers[seats[0]]
            if isinstance(ctrl, PolicyController):
                self._policy(ctrl.policy, did, values, legal, c, dd, who)
            elif isinstance(ctrl, Person) and did in self.races:
                self.emit(dd, "raise _Stop()")  # never run: a person reports their claims
            elif isinstance(ctrl, Person):
                self._ask_person(did, values, legal, c, dd, who, shown)
            else:
                self._random(legal, c, dd)

    def legal_test(self, legal: tuple, i: int) -> str:
        """The test that option `i` of a ("dynamic", list) decision is legal: its flag in
        bulk code (interpreter/compile/decisions.py `_legal_flags`), else a look in the list."""
        flags = self.flags.get(legal[1])
        return flags[i] if flags is not None else f"{i} in {legal[1]}"

    def _random(self, legal: tuple, c: str, d: int) -> None:
        """As random_pick on the game's decision generator (made when first needed)."""
        self.emit(d, "if drnd is None:")
        self.emit(d + 1, "DR = _Random(f'{seed}:decisions')")
        self.emit(d + 1, "drnd = DR.random")
        if legal[0] == "static":
            lg = legal[1]
            self.emit(d, f"{c} = {self.const(lg, 'LG')}[int(drnd() * {len(lg)})]")
        elif legal[0] == "number":
            self.emit(d, f"{c} = DR.randint(int({legal[1]}), int({legal[2]}))")
        else:
            self.emit(d, f"{c} = {legal[1]}[int(drnd() * len({legal[1]}))]")

    def _policy(self, policy: Any, did: str, values: Any, legal: tuple, c: str, d: int,
                who: Ex) -> None:
        """As Policy.decide and PolicyController: rules in order; a rule whose pick is not
        legal does not apply; no rule: counted as unruled, then a random pick."""
        spec = (self.data.get("policies") or {}).get(policy.name, {})
        rules = (spec.get("decide") or {}).get(did)
        if rules is not None and not isinstance(rules, list):
            rules = [{"choose": rules}]
        mode = legal[0]
        # A policy reads the game's names, `me` (the decider), `options` (the legal values;
        # a number choice has none) and its `let` names (worked out when first read, once in
        # this decision; those that read `option`, once an option of a `best`).
        scope = {"me": who}
        if mode != "number":
            scope["options"] = Ex("", "options", True, opts=legal[:2] + (values,))
        mark, lazy = len(self.lines), []
        each: dict[str, Any] = {}
        top = ("policies", policy.name)
        scope = self._lets(spec.get("let"), scope, lazy, top, each)
        named = self.p.symbols.decision_options.get(did) or []
        lines = []  # (condition Ex, action): ("pick", i), ("best", text, scope), ...
        listed = isinstance((spec.get("decide") or {}).get(did), list)
        for j, rule in enumerate(rules or []):
            rpath = (*top, "decide", did, *((j,) if listed else ()))
            r_each = dict(each)
            rscope = self._lets(rule.get("let"), scope, lazy, rpath, r_each) if "let" in rule \
                else scope
            when = self.cond_at(rule["when"], rscope, path=(*rpath, "when")) if "when" in rule \
                else _lit(True)
            if when.const is False:
                continue
            if "choose" in rule:
                action = self._pick(rule["choose"], mode, values, named, legal, rscope,
                                    (*rpath, "choose") if listed else rpath)
                if action is None:
                    # Never legal here: the rule never applies, but its condition is still
                    # evaluated (it may stop the game with an error).
                    if not when.safe:
                        lines.append((when, ("never",)))
                    continue
            elif "best" in rule:
                action = ("best", rule["best"], rscope, r_each, (*rpath, "best"))
            elif rule.get("random"):
                action = ("random",)
            else:
                raise Unsupported("a policy rule")
            lines.append((when, action))
            if when.const is True and self._always(action, mode):
                break  # always applies: later rules are never reached
        if not (lines and lines[-1][0].const is True and self._always(lines[-1][1], mode)):
            k = len(self.unruled)
            self.unruled.append((policy.name, did))
            lines.append((_lit(True), ("unruled", k)))
        if all(self._always(a, mode) or a[0] == "never" for _, a in lines):
            for j, (when, action) in enumerate(lines):
                last = when.const is True
                if j == 0 and last:
                    self._action(action, legal, c, d, scope)
                    break
                if last:
                    self.emit(d, "else:")
                elif action[0] == "never":
                    self.emit(d, f"{'if' if j == 0 else 'elif'} {when.src} and False:")
                else:
                    self.emit(d, f"{'if' if j == 0 else 'elif'} {when.src}:")
                self._action(action, legal, c, d + 1, scope)
                if last:
                    break
            self._reset_lets(mark, lazy, d)
            return
        # Rules in turn until one gives a legal answer: an option index or a seat is never
        # negative; a value or a number may be anything, so they start unset (`_U`). From the
        # first rule, while each answers whenever its test holds, the next is an `elif` of it
        # (no test of the answer: it is still unset there).
        unset = f"{c} < 0" if mode in ("static", "dynamic") else f"{c} is _U"
        at = len(self.lines)
        self.emit(d, f"{c} = -1" if mode in ("static", "dynamic") else f"{c} = _U")
        chained = False  # the rule written last answers whenever its test holds
        for j, (when, action) in enumerate(lines):
            tests = [] if when.const is True else [when.src]
            answers = self._always(action, mode)
            if action[0] == "pick":
                legal_now = self.legal_test(legal, action[1])
                if when.src != legal_now and not when.src.startswith(f"({legal_now} and "):
                    tests.append(legal_now)  # (unless the rule tests it first itself)
                answers = True  # its test holds only where its pick is legal
            elif action[0] == "never":
                tests.append("False")
            if chained:
                self.emit(d, f"elif {' and '.join(tests)}:" if tests else "else:")
            else:
                self.emit(d, f"if {' and '.join(([] if j == 0 else [unset]) + tests) or 'True'}:")
            self._action(action, legal, c, d + 1, scope)
            if answers and not tests:
                # It always answers: the rules after it (an unruled pick) never run. Where it
                # ends a chain from the first rule, every way through the rules answers: the
                # answer is never read unset, so it is not set first (and the decision's
                # count is written where each answer is: decisions.py `_count_where_picked`).
                if (chained or j == 0) and self.lines[at] == "    " * d + f"{c} = -1":
                    del self.lines[at]
                break
            # An `elif` only in the first chain, whose head needs no test of the answer: after
            # `if unset and ...` the branches that follow would run once it is answered too.
            chained = answers and (chained or j == 0)
        self._reset_lets(mark, lazy, d)

    def _pick(self, pick: Any, mode: str, values: Any, named: list, legal: tuple,
              scope: dict, path: tuple) -> tuple | None:
        """A rule's `choose` as an action: ("pick", index) of a named option, ("pickname", Ex,
        table of indexes by name) of an expression giving an option's name, ("pickv", Ex) of
        a value to find among the options, ("pickn", Ex) of a number; None when it is never
        legal here."""
        if mode in ("static", "dynamic"):
            if pick not in named:
                # An expression giving an option's name (Policy._choose, _match_value): the
                # option of that name, when it is legal; anything else matches none.
                x = self.value_at(pick, scope, path=path)
                if x.kind != "str":
                    raise Unsupported("a policy pick given by an expression of another kind")
                return ("pickname", x, self.const({v: i for i, v in enumerate(values)}, "NI"))
            if pick not in values:
                raise Unsupported("a policy pick of an option not offered here")
            i = values.index(pick)
            if mode == "static" and i not in legal[1]:
                return None
            return ("pick", i)
        # As Policy._choose: an option name written bare, else an expression (these
        # decisions have no option names).
        x = self.value_at(pick, scope, path=path)
        if mode == "number":
            if x.kind not in _NUMS:
                raise Unsupported("a number choice's pick that is not a number")
            return ("pickn", x)
        if x.kind not in _SAME_MATCH.get(values, ()):
            raise Unsupported("a policy pick of another kind than the options")
        return ("pickv", x)

    def _lets(self, lets: dict | None, scope: dict, lazy: list, path: tuple,
              each: dict | None = None) -> dict:
        """A policy's (or rule's) `let` names added to the scope, as LazyEnv reads them: each
        worked out when first read, then kept for the rest of the decision (a local reset to
        `_U` before the rules). A name that reads `option` (or such a name) goes to `each`,
        worked out once an option where a `best` weighs them. A name read before it is given
        is not specialized."""
        if not lets:
            return scope
        scope = dict(scope)
        names = list(lets)
        per_option = {"option", *(each or {})}
        for i, (name, value) in enumerate(lets.items()):
            node = _node(value)
            if name in ("me", "options", "option") or mentions(node, set(names[i:])):
                raise Unsupported("a `let` that reads a later name")
            if name in scope or name in per_option:
                raise Unsupported("a `let` name given again")  # LazyEnv's lookups differ
            if mentions(node, per_option):
                if each is None:
                    raise Unsupported("a `let` that reads `option`")
                each[name] = (node, (*path, "let", name) if isinstance(value, str) else None)
                per_option.add(name)
                continue
            with self.located((*path, "let", name) if isinstance(value, str) else None):
                x = self.expr(node, scope)
            if x.const is not _NO:
                scope[name] = x
                continue
            scope[name] = self._once(x, lazy)
        return scope

    def _once(self, x: Ex, lazy: list, **kw: Any) -> Ex:
        """`x` worked out when first read, then kept (until `_reset_lets`); a number or a
        truth that cannot fail, counts no work and costs a few operations (`cheap`) is worked
        out there instead, and read as a name: working it out where nothing reads it is not seen, and
        costs less than the test of the first reading at every reading."""
        v = self.temp("L")
        if x.safe and x.kind in _NUMS + ("bool",) and cheap(x.src):
            lazy.append((v, x.src))
            return Ex(v, x.kind, True, zone=x.zone, **kw)
        lazy.append(v)
        return Ex(f"({v} if {v} is not _U else ({v} := {x.src}))", x.kind, x.safe, zone=x.zone,
                  **kw)

    def _shared(self, score: Any, per_option: set, oscope: dict, lazy: list,
                path: tuple) -> Ex:
        """A `best` score whose parts written twice are each named and worked out once an
        option (interpreter/compile/repeats.py): a number, a truth or a text whose code
        counts no work (the interpreter counts it at each occurrence)."""
        tried: set = set()
        with self.located(path):
            while True:
                part = next((p for p in repeated(score, per_option)
                             if shape(p) not in tried), None)
                if part is None:
                    return self.expr(score, oscope)
                tried.add(shape(part))
                mark = len(self.lines)
                x = self.expr(part, oscope)
                if len(self.lines) != mark:  # statements of its own: left where they are
                    del self.lines[mark:]
                    continue
                if x.kind not in _SHARED or x.const is not _NO or COUNTS_WORK.search(x.src):
                    continue
                name = f"${len(tried)}"  # no name a ruleset can write
                oscope[name] = self._once(x, lazy, bound=x.bound)
                score = replaced(score, part, name)

    def _reset_lets(self, mark: int, lazy: list, d: int) -> None:
        """Before the rules: the `let` names they read are not worked out yet, those worked
        out at once are (in the order they were given: one may read an earlier one)."""
        read = "\n".join(self.lines[mark:])
        used = []
        for v in reversed(lazy):  # a name worked out at once is read where it is worked out
            if re.search(rf"\b{v if isinstance(v, str) else v[0]}\b", read):
                used.append(v)
                read += "\n" + ("" if isinstance(v, str) else v[1])
        used.reverse()
        unset = [v for v in used if isinstance(v, str)]
        lines = [f"{v} = {src}" for v, src in (v for v in used if not isinstance(v, str))]
        self.lines[mark:mark] = ["    " * d + line for line in (
            [" = ".join(unset) + " = _U"] if unset else []) + lines]

    @staticmethod
    def _always(action: tuple, mode: str) -> bool:
        """Whether the action gives an answer whenever its condition holds (a pick only when
        its option is known to be legal; `best` of a number choice is an error)."""
        if action[0] == "best":
            return mode != "number"
        return action[0] not in ("never", "pickv", "pickn", "pickname") and (
            action[0] != "pick" or mode == "static")

    def _action(self, action: tuple, legal: tuple, c: str, d: int, scope: dict) -> None:
        kind = action[0]
        if kind == "pick":
            self.emit(d, f"{c} = {action[1]}")
        elif kind == "never":
            self.emit(d, "pass")
        elif kind == "pickv":
            # As _match_value: the first option equal to the pick (the option's own value).
            p, lg = self.temp("pk"), legal[1]
            self.emit(d, f"{p} = {action[1].src}")
            self.emit(d, f"if {p} in {lg}:")
            self.emit(d + 1, f"{c} = {lg}[{lg}.index({p})]")
        elif kind == "pickname":
            p, ix = self.temp("pk"), self.temp("ix")
            lg = self.const(tuple(legal[1]), "LG") if legal[0] == "static" else legal[1]
            self.emit(d, f"{p} = {action[1].src}")
            self.emit(d, f"{ix} = {action[2]}.get({p}, -1)")
            self.emit(d, f"if {ix} in {lg}:")
            self.emit(d + 1, f"{c} = {ix}")
        elif kind == "pickn":
            # As Request.match: a number within the bounds (a whole number or not).
            p = self.temp("pk")
            self.emit(d, f"{p} = {action[1].src}")
            self.emit(d, f"if {legal[1]} <= {p} <= {legal[2]}:")
            self.emit(d + 1, f"{c} = {p}")
        elif kind == "best":
            if legal[0] == "number":  # the policy's error, at its rules for the decision
                self.emit(d, raise_at(self.const, expr_site(
                    action[4][:4], None, "`best` cannot weigh a number choice")))
            else:
                self._best(action[1], legal, c, d, action[2], action[3], action[4])
        else:
            if kind == "unruled":
                self.emit(d, f"UN[{action[1]}] += 1")
            self._random(legal, c, d)

    def _best(self, text: str, legal: tuple, c: str, d: int, scope: dict,
              each: dict, path: tuple) -> None:
        """As a `best` rule: the first option with the highest score; `let` names that read
        `option` worked out when first read, once an option; where the score is known to be
        at most `top` and cannot fail, the first option weighing `top` ends the weighing."""
        mode, lg, values = legal[0], legal[1], scope["options"].opts[2]
        o, s, bs = self.temp("o"), self.temp("s"), self.temp("bs")
        if mode == "values":
            option = Ex(o, values, True, least=legal[2] if len(legal) > 2 else None)
            over = lg
        else:
            option = Ex(f"{self.const(tuple(values), 'VA')}[{o}]",
                        "int" if all(type(v) is int for v in values) else "str", True)
            over = self.const(lg, "LG") if mode == "static" else lg
        oscope, lazy = {**scope, "option": option}, []
        for name, (node, at) in each.items():
            with self.located(at):
                x = self.expr(node, oscope)
            if x.const is not _NO:
                oscope[name] = x
                continue
            oscope[name] = self._once(x, lazy)
        if isinstance(text, str):  # a part written twice, worked out once an option
            score = self._shared(_node(text), {"option", *each}, oscope, lazy, path)
        else:
            score = self.value_at(text, oscope, path=path)
        if score.kind not in _NUMS:
            raise Unsupported("`best` of something not a number")
        self.emit(d, f"{bs} = None")
        self.emit(d, f"for {o} in {over}:")
        mark = len(self.lines)
        # A name first read where the score always reads it binds there: nothing to unset.
        src, bound = bound_first(score.src, {v for v in lazy if isinstance(v, str)})
        self.emit(d + 1, f"{s} = {src}")
        self._reset_lets(mark, [v for v in lazy if v not in bound], d + 1)
        self.emit(d + 1, f"if {bs} is None or {s} > {bs}:")
        self.emit(d + 2, f"{c}, {bs} = {o}, {s}")
        top = score.bound if score.kind == "int" and score.safe and not (
            COUNTS_WORK.search(src) or LOCATES.search(src) or "_halt" in src) else None
        if top is not None:
            # A score that cannot fail and counts no work, at the most it can be: no later
            # option weighs more (the first of the highest is taken), and weighing the rest
            # could not be seen.
            self.emit(d + 2, f"if {s} == {top}:")
            self.emit(d + 3, "break")
