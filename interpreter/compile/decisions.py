"""Phase 5b, compile for simulation (specializer): decisions written as code.

Input: a `choose` or `actions` step of the checked ruleset, the seat configuration's
controllers, and the generator of interpreter/compile/specialize.py (expressions, steps, counters).
Output: Python lines of the game's function that compute the legal options as
interpreter/engine/steps.py does (`if`, `cost`, `limit`, the `pass` of `actions`, options given by a
list of players), ask the decider's controller as interpreter/engine/decisions.py would (policies as
if/elif chains: `when`, `choose`, `best`, `random`, a rule whose pick is not legal does not
apply, no rule: counted as unruled, then a random pick), count the choice, fire `decided` and
run the chosen option's steps. Anything else raises `Unsupported`.

`DecisionWriter` is a mixin of the generator (`_Gen`): it uses its `emit`, `expr`, `cond`,
`block`, `fire`, `advance`, `after_op` and counters.
"""

from __future__ import annotations

import re
from typing import Any

from interpreter.compile.base import _NO, _NONEABLE, _NUMS, Ex, Unsupported, _Ctx, _lit, _node
from interpreter.compile.people import Shown
from interpreter.compile.stops import no_option_site, nobody_site
from interpreter.engine.decision_steps import PASS_LABEL
from interpreter.engine.decisions import PolicyController

# The period a `limit` counts in, as interpreter/engine/steps.py's _period reads it.
_PERIOD = {"turn": "turn_n", "round": "round_n", "phase": "phases_n", "game": "0"}


def _counted(base: int, c: str) -> str:
    """The count of the answer `c` (an index) of the decision whose counters start at `base`."""
    return f"CH[{base} + {c}] += 1" if base else f"CH[{c}] += 1"


def _heads(c: str, branches: list[int], picked: frozenset[int] | None) -> list[str]:
    """The heads of the branches on the answer `c`, one per index of `branches`: those no pick
    can give are left out (their heads are None), and where every answer that reaches them
    (`picked`, the picks written as constants) has a branch, the last is `else:`."""
    kept = [i for i in branches if picked is None or i in picked]
    heads: dict[int, str] = {i: f"{'if' if j == 0 else 'elif'} {c} == {i}:"
                             for j, i in enumerate(kept)}
    if picked is not None and len(kept) > 1 and picked <= set(kept):
        heads[kept[-1]] = "else:"
    return [heads.get(i) for i in branches]


class DecisionWriter:
    """The `choose` and `actions` steps and the controllers of the seats (a mixin of _Gen)."""

    # -- choose ----------------------------------------------------------------------------------
    def no_option(self, did: str, who: Ex) -> str:
        """The stop where a decision of `who` has no legal option (its step's error)."""
        return self.stop_at(lambda step: no_option_site(did, step), who.src)

    def _s_choose(self, spec: dict, d: int, ctx: _Ctx) -> None:
        # A prompt and labels are people's, worked out only when someone reads them.
        self._only(spec, "choose", "options", "duration", "by", "prompt", "option_label",
                   "min", "max", "sealed")
        if self._choose_by_many(spec, d, ctx):  # interpreter/compile/deciders.py
            return
        did = spec["choose"]
        opts = spec.get("options")
        if opts is None:
            self._choose_number(spec, d, ctx)
            return
        if isinstance(opts, str):
            self._choose_values(spec, d, ctx)
            return
        named = self._named(opts, ("if", "do", "duration", "limit", "label"))
        values = [k for k, _ in named]
        if "duration" in spec:
            self.advance_by(spec["duration"], d, ctx, "duration")
        who = self._decider(spec, d, ctx)
        base = self._chosen_base(did, values)
        conds = [self.cond_at(o["if"], ctx.scope, "options", k, "if") if "if" in o else _lit(True)
                 for k, o in named]
        limits = [self._limit(did, k, o) for k, o in named]
        static = [i for i, c in enumerate(conds) if c.const is True and limits[i] is None]
        dynamic = any(lim is not None for lim in limits) or (
            len(static) != len(values) and any(c.const is _NO for c in conds))
        c = self.temp("ch")
        vals = self.const(tuple(values), "VA")
        mark = len(self.lines)
        if dynamic:
            lg = self.temp("lg")
            # As _options then _within_limit: every `if` first, in order, then the limits.
            tests = self._guards(conds, d)
            tests = [t + [self._within(limits[i], who)] if t is not None and limits[i] is not None
                     else t for i, t in enumerate(tests)]
            if self.logged:
                self._legal_list(lg, tests, d)
                self.emit(d, f"if not {lg}:")
                self.emit(d + 1, self.no_option(did, who))
                self.decision_start(d, ctx)
                self.emit(d, f"if len({lg}) == 1:")
                self.emit(d + 1, f"{c} = {lg}[0]")
            else:
                flags = self._legal_flags(lg, tests, d)
                if "True" not in flags:  # else an option is always legal
                    self.emit(d, f"if not ({' or '.join(flags)}):")
                    self.emit(d + 1, self.no_option(did, who))
                self._only_legal(flags, c, d)
            self.emit(d, "else:")
            at = len(self.lines)
            self._controllers(did, values, ("dynamic", lg), c, d + 1, who,
                              Shown(spec, ctx, named))
            if not self.logged:
                self._list_where_read(lg, at, d + 1)
        else:
            if not static:
                self.emit(d, self.no_option(did, who))
                return
            self.decision_start(d, ctx)
            if len(static) == 1:  # nobody is asked: the one legal option
                self.emit(d, f"{c} = {static[0]}")
            else:
                self._controllers(did, values, ("static", tuple(static)), c, d, who,
                                  Shown(spec, ctx, named))
        picked = self._count_where_picked(mark, c, base, did, values)
        if picked is None:
            self.emit(d, _counted(base, c))
            self.emit(d, f"D_{did} = {vals}[{c}]")
        if self.logged:
            only = f"len({lg}) == 1" if dynamic else str(len(static) == 1)
            self.rec_decision(d, did, who, f"{vals}[{c}]", only,
                              self._labels(named, c, d, ctx), bool(spec.get("sealed")))
        self.decided(did, d, ctx, who)
        self.after_op(d, frozenset({did}), ctx)
        branches = [(i, o) for i, (_, o) in enumerate(named)
                    if o.get("do") or "duration" in o or limits[i] is not None]
        for (i, o), head in zip(branches, _heads(c, [i for i, _ in branches], picked),
                                strict=True):
            if head is None:  # no pick gives it
                continue
            self.emit(d, head)
            if limits[i] is not None:
                self._count_use(limits[i], who, d + 1)
            if "duration" in o:
                self.advance_by(o["duration"], d + 1, ctx, "options", named[i][0], "duration")
            self.block(o.get("do"), d + 1, ctx)

    def _labels(self, named: list[tuple[str, dict]], c: str, d: int, ctx: _Ctx,
                more: tuple = ()) -> str | None:
        """The source of the chosen option's own label for the log: None where the option
        has none that says more than its name; a label with holes worked out for the chosen
        option only, as asking._label does (no work counted, None when it cannot be made)."""
        labels, made = [], []
        for i, (key, o) in enumerate(named):
            text = o.get("label")
            if isinstance(text, str) and "{" in text:
                labels.append(None)
                made.append((i, key, text))
            else:
                labels.append(None if text is None or str(text) in ("", key) else str(text))
        labels += more  # options after the named ones (`actions`' pass)
        if not made and not any(x is not None for x in labels):
            return None
        lb = self.temp("lb")
        self.emit(d, f"{lb} = {self.const(tuple(labels), 'LB')}[{c}]")
        for j, (i, key, text) in enumerate(made):
            self.emit(d, f"{'if' if j == 0 else 'elif'} {c} == {i}:")
            self.emit(d + 1, f"{lb} = {self.label_of(text, ctx.scope, repr(key), d + 1)}")
        return lb

    def _count_where_picked(self, mark: int, c: str, base: int, did: str,
                            values: list) -> frozenset[int] | None:
        """When every pick written since `mark` is an option known now (`c = 2`: a policy's
        `choose`, the one legal option), the count and the decision's value are written
        where each pick is, as constants, and the answers picked are returned; else None
        (they follow the picks, indexed)."""
        pick = re.compile(rf"( *){re.escape(c)} = (\d+)$")
        # Every line that picks: `c = ...`, and a `best` rule's `c, best = o, s` (not known).
        found = [(i, pick.fullmatch(line)) for i, line in enumerate(self.lines[mark:], mark)
                 if line.lstrip().startswith((f"{c} = ", f"{c}, "))]
        if not found or any(m is None for _, m in found):
            return None
        for i, m in reversed(found):
            k = int(m.group(2))
            self.ch_locals.add(base + k)  # a local: cheaper than an item of CH
            self.lines[i + 1:i + 1] = [f"{m.group(1)}ch{base + k} += 1",
                                       f"{m.group(1)}D_{did} = {values[k]!r}"]
        return frozenset(int(m.group(2)) for _, m in found)

    def _named(self, opts: Any, fields: tuple) -> list[tuple[str, dict]]:
        """The options of a step written as a list of names or a mapping."""
        if isinstance(opts, list):
            named = [(_lit(v).const, {}) for v in opts]
        elif isinstance(opts, dict):
            named = [(k, v if isinstance(v, dict) else {}) for k, v in opts.items()]
            for _, o in named:
                self._only(o, *fields)
        else:
            raise Unsupported("options given by a number")
        values = [k for k, _ in named]
        if not (all(type(v) is str for v in values) or all(type(v) is int for v in values)):
            raise Unsupported("options that are not names nor whole numbers")
        if len(set(values)) != len(values):
            raise Unsupported("an option named twice")
        return named

    def decided(self, did: str, d: int, ctx: _Ctx, who: Ex | None, kind: str = "") -> None:
        """`decided` fired as decision_steps fires it: `event.id`, `event.choice` (what the
        decision's name holds now, of `kind`, else the decision's) and, for one decider,
        `event.by` (the event of several deciders has none: reading it is the interpreter's
        error, as reading a field an event lacks is)."""
        kind = kind or self.decisions.get(did, "?")
        if kind == "?":
            kind = self._number_kind(did)
        fields = {"id": _lit(did), "choice": Ex(f"D_{did}", kind, kind not in _NONEABLE),
                  "by": who if who is not None else Ex("_halt()", "player")}
        self.fire("decided", d, ctx, fields)

    def _chosen_base(self, did: str, keys: list) -> int:
        """The index of the decision's first counter in CH (one counter per answer key)."""
        base = self.chosen_base.get(did)
        if base is None:
            base = self.chosen_base[did] = len(self.chosen)
            self.chosen += [(did, v) for v in keys]
        elif [k for _, k in self.chosen[base:base + len(keys)]] != keys:
            raise Unsupported("one decision id with different options")
        return base

    def _decider(self, spec: dict, d: int, ctx: _Ctx) -> Ex:
        """Who decides (`by`, default the current player), as a local holding a seat."""
        if "by" not in spec:
            return Ex("cur", "player", True)
        who = self.value_at(spec["by"], ctx.scope, "by")
        if who.kind != "player":
            raise Unsupported("`by` that is not one player")
        t = self.temp("by")
        self.emit(d, f"{t} = {who.src}")
        if not who.safe:  # nobody (none) decides: the interpreter's error
            self.emit(d, f"if {t} is None:")
            self.emit(d + 1, self.stop_at(lambda step: nobody_site((*step, "by"))))
        return Ex(t, "player", True)

    def _choose_values(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """Options given by an expression: each item of the list (players, dice, numbers,
        texts) is one option, its key the item's reference (a player's name, a die's id, the
        number or text itself), its value the item, as steps.py's `computed` and
        option_for_value; a zone gives what it holds."""
        did = spec["choose"]
        if "duration" in spec:
            self.advance_by(spec["duration"], d, ctx, "duration")
        who = self._decider(spec, d, ctx)
        opts = self._as_list(self.value_at(spec["options"], ctx.scope, "options"))
        kind = opts.kind[5:] if opts.kind.startswith("list:") else ""
        if kind not in ("player", "dref", "card", "cell", "int", "num", "str"):
            raise Unsupported("options given by an expression of other items")
        o, c = self.temp("op"), self.temp("ch")
        self.emit(d, f"{o} = {opts.src}")  # the game stands still while it is decided
        self.emit(d, f"if not {o}:")
        self.emit(d + 1, self.no_option(did, who))
        self.decision_start(d, ctx)
        self.emit(d, f"if len({o}) == 1:")
        self.emit(d + 1, f"{c} = {o}[0]")
        self.emit(d, "else:")
        # The options' least value, where known (`range(1, n)`), tells a policy's `best` that
        # `option - 1` is no negative index (kinds.py).
        self._controllers(did, kind, ("values", o, opts.least), c, d + 1, who, Shown(spec, ctx))
        if kind in ("player", "dref", "card"):  # keys known now: one counter each
            keys = list(self.seat_names) if kind == "player" else list(
                self.die_ids if kind == "dref" else self.card_ids)
            if len(set(keys)) != len(keys):
                raise Unsupported("two seats with one name")
            base = self._chosen_base(did, keys)
            self.emit(d, _counted(base, c))
        else:  # keys known when chosen: counted by key
            self._count_by_key(did, c, d)
        self.emit(d, f"D_{did} = {c}")
        if self.logged:  # the answer's key: a player's name, a die's id, the value itself
            key = {"player": self.who_src(Ex(c, "player", True)),
                   "dref": f"{self.const(tuple(self.die_ids), 'DI')}[{c}]" if kind == "dref"
                   else "",
                   "card": f"{self.const(tuple(self.card_ids), 'CI')}[{c}]" if kind == "card"
                   else ""}.get(kind) or (c if kind in ("int", "num", "str", "cell") else None)
            if key is None:
                raise Unsupported(f"options of {kind} in a game that writes its log")
            label = None
            if "option_label" in spec:
                label = self.label_of(spec["option_label"], {**ctx.scope, "option": Ex(
                    c, kind, True)}, f"str({key})", d)
            self.rec_decision(d, did, who, key, f"len({o}) == 1", label,
                              bool(spec.get("sealed")))
        self.decided(did, d, ctx, who, kind)
        self.after_op(d, frozenset({did}), ctx)

    def _choose_number(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """A number choice, as steps._choose and Request.match: a whole number from `min`
        (default 0) to `max` (default 10**9), both worked out when asked."""
        did = spec["choose"]
        if "duration" in spec:
            self.advance_by(spec["duration"], d, ctx, "duration")
        who = self._decider(spec, d, ctx)
        bounds = []
        for key, default in (("min", 0), ("max", 10 ** 9)):
            x = self.value_at(spec[key], ctx.scope, key) if key in spec else _lit(default)
            if x.kind not in _NUMS:
                raise Unsupported("a number choice's bound that is not a number")
            if x.const is _NO:
                t = self.temp("nb")
                self.emit(d, f"{t} = {x.src}")
                x = Ex(t, x.kind, True)
            bounds.append(x.src)
        c = self.temp("ch")
        self.decision_start(d, ctx)
        self._controllers(did, None, ("number", *bounds), c, d, who, Shown(spec, ctx))
        self._count_by_key(did, c, d)
        self.emit(d, f"D_{did} = {c}")
        self.rec_decision(d, did, who, c, sealed=bool(spec.get("sealed")))
        self.decided(did, d, ctx, who)
        self.after_op(d, frozenset({did}), ctx)

    def _count_by_key(self, did: str, c: str, d: int) -> None:
        """A decision whose answers are known only when chosen (numbers, texts), counted by
        (decision id, answer) as Game._took counts it."""
        self.keyed_counts = True
        self.emit(d, f"CD[{did!r}, {c}] = CD.get(({did!r}, {c}), 0) + 1")

    def _number_kind(self, did: str) -> str:
        """What a number choice holds: a whole number when every seat's answer is one (a
        random pick, or a policy's pick that is a whole number), else a number."""
        for ctrl in self.controllers:
            if not isinstance(ctrl, PolicyController):
                continue
            spec = (self.data.get("policies") or {}).get(ctrl.policy.name, {})
            rules = (spec.get("decide") or {}).get(did)
            for rule in rules if isinstance(rules, list) else [] if rules is None else [
                    {"choose": rules}]:
                if "choose" not in rule:
                    continue
                try:
                    kind = self.expr(_node(rule["choose"]),
                                     {"me": Ex("cur", "player", True)}).kind
                except Unsupported:
                    return "num"
                if kind != "int":
                    return "num"
        return "int"

    # -- legal options ---------------------------------------------------------------------------
    def _legal_list(self, lg: str, tests: list, d: int) -> None:
        """`lg` = the legal options' indexes, in order (`tests` as `_guards` gives them, with
        the costs and limits added): what a logged game's records and people's prompts read."""
        self.emit(d, f"{lg} = []")
        for i, test in enumerate(tests):
            if test is None:
                continue
            if test:
                self.emit(d, f"if {' and '.join(test)}:")
                self.emit(d + 1, f"{lg}.append({i})")
            else:
                self.emit(d, f"{lg}.append({i})")

    def _legal_flags(self, lg: str, tests: list, d: int) -> list[str]:
        """Bulk code: per option, the source of whether it is legal now (a name, or True or
        False), in the game's order; a policy's picks and `x in options` read them
        (`self.flags[lg]`), and the list of legal indexes is made only where something reads
        it (`_list_where_read`): most decisions are taken by a rule, no list made."""
        flags = []
        for test in tests:
            if test is None or not test:
                flags.append("False" if test is None else "True")
            elif len(test) == 1 and test[0].isidentifier():
                flags.append(test[0])
            else:
                q = self.temp("lq")  # pure: dropped where nobody reads it (peephole.py)
                self.emit(d, f"{q} = {' and '.join(test)}")
                flags.append(q)
        self.flags[lg] = flags
        return flags

    def _only_legal(self, flags: list[str], c: str, d: int, never: bool = False) -> None:
        """`if` exactly one option is legal: `c` = it (nobody is asked); the controllers go
        in the `else:` that follows. `never`: two at least are (`actions`' pass after one)."""
        legal = [(i, f) for i, f in enumerate(flags) if f != "False"]
        if never or not legal:  # (none legal: the test before has left already)
            self.emit(d, "if False:")
            self.emit(d + 1, "pass")
            return
        known = [f for f in flags if f not in ("True", "False")]
        always = flags.count("True")
        if always == 1 and known:  # the one always legal, where no other is
            self.emit(d, f"if not ({' or '.join(known)}):")
            self.emit(d + 1, f"{c} = {flags.index('True')}")
            return
        count = " + ".join(known + ["1"] * always)
        self.emit(d, f"if ({count}) == 1:" if known and always < 2 else f"if {always == 1}:")
        pick = str(legal[-1][0])
        for i, f in reversed(legal[:-1]):
            pick = str(i) if f == "True" else f"{i} if {f} else {pick}"
        self.emit(d + 1, f"{c} = {pick}")

    def _list_where_read(self, lg: str, at: int, d: int) -> None:
        """The list of legal indexes, made from the flags just before the controllers'
        first line that reads it (at that line's depth, when every later reader is inside
        the same block), else at the start of the controllers (`at`, depth `d`); nowhere
        when none reads it."""
        name = re.compile(rf"\b{re.escape(lg)}\b")
        readers = [i for i in range(at, len(self.lines)) if name.search(self.lines[i])]
        if not readers:
            return
        first = readers[0]
        line = self.lines[first]
        depth = len(line) - len(line.lstrip(" "))
        inside = all(len(x) - len(x.lstrip(" ")) >= depth or not x.strip()
                     for x in self.lines[first:readers[-1] + 1])
        if not inside or line.lstrip().startswith(("elif ", "else:", "except", "finally:")):
            first, depth = at, 4 * d
        flags = ", ".join(self.flags[lg])
        self.lines.insert(first, " " * depth + f"{lg} = [_i for _i, _q in "
                                               f"enumerate(({flags},)) if _q]")

    # -- limits ----------------------------------------------------------------------------------
    def _guards(self, conds: list, d: int) -> list[list[str] | None]:
        """Per option, the tests its `if` leaves to run time, each evaluated once into a temp
        at depth `d`, in order: [] when it always holds, None when it never does."""
        tests: list[list[str] | None] = []
        for cnd in conds:
            if cnd.const is _NO:
                t = self.temp("ok")
                self.emit(d, f"{t} = {cnd.src}")
                tests.append([t])
            else:
                tests.append([] if cnd.const is True else None)
        return tests

    def _limit(self, did: str, key: str, o: dict) -> tuple | None:
        """(counter index, period, times) of an option's `limit`, or None."""
        spec = o.get("limit")
        if not spec:
            return None
        if not isinstance(spec, dict) or set(spec) - {"times", "per"}:
            raise Unsupported("limit")
        per = spec.get("per", "game")
        if per not in _PERIOD:
            raise Unsupported("limit period")
        # Read in the game's names; its errors located where the interpreter locates them.
        times = self.value_at(spec.get("times", 1), {}, "options", key, "limit", "times")
        if times.kind not in _NUMS:
            raise Unsupported("limit times")
        k = self.uses.setdefault((did, key, per), len(self.uses))
        return k, per, times

    @staticmethod
    def _within(limit: tuple, who: Ex) -> str:
        """As _within_limit: the uses in this period, per decider, below `times`. Once a
        period: the period of the last use is not this one (`UP` holds it: periods only
        grow, and -1 is none)."""
        k, per, times = limit
        if times.const == 1:
            return f"UP{k}[{who.src}] != {_PERIOD[per]}"
        return f"(UC{k}[{who.src}] if UP{k}[{who.src}] == {_PERIOD[per]} else 0) < {times.src}"

    def _count_use(self, limit: tuple, who: Ex, d: int) -> None:
        """As _count_use: one more use in this period (periods only grow)."""
        k, per, times = limit
        if times.const == 1:  # none counted: `_within` reads the period
            self.emit(d, f"UP{k}[{who.src}] = {_PERIOD[per]}")
            return
        self.emit(d, f"if UP{k}[{who.src}] == {_PERIOD[per]}:")
        self.emit(d + 1, f"UC{k}[{who.src}] += 1")
        self.emit(d, "else:")
        self.emit(d + 1, f"UP{k}[{who.src}] = {_PERIOD[per]}")
        self.emit(d + 1, f"UC{k}[{who.src}] = 1")

    # -- actions ---------------------------------------------------------------------------------
    def _s_actions(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._actions: while points are left, the legal options (their `if`, a cost
        within the points, `limit`) and `pass`; the choice; its cost; its steps."""
        self._only(spec, "actions", "points", "options", "pass", "by", "prompt")
        did = spec["actions"]
        if not isinstance(spec.get("options"), dict):
            raise Unsupported("actions without named options")
        named = self._named(spec["options"], ("if", "do", "cost", "limit", "duration"))
        allow_pass = spec.get("pass", True)
        if allow_pass is not True and allow_pass is not False:
            raise Unsupported("pass")
        values = [k for k, _ in named] + (["pass"] if allow_pass else [])
        if len(set(values)) != len(values):
            raise Unsupported("an option named pass")
        who = self._decider(spec, d, ctx)
        points = self.value_at(spec["points"], ctx.scope, "points")
        if points.kind not in _NUMS:
            raise Unsupported("points")
        costs = []
        for _, o in named:
            cost = self.expr(_node(o["cost"]), ctx.scope) if "cost" in o else _lit(1)
            if cost.const is _NO or cost.kind not in _NUMS:
                raise Unsupported("a cost known only at run time")
            costs.append(cost.const)
        base = self._chosen_base(did, values)
        limits = [self._limit(did, k, o) for k, o in named]
        vals = self.const(tuple(values), "VA")
        left, passes = self.temp("left"), self.temp("p")
        lg, c = self.temp("lg"), self.temp("ch")
        e = self.emit
        e(d, f"{left} = {points.src}")
        exits = self.flag_exits
        # Every pass spends a whole cost of at least 1 or leaves: with points known now, the
        # passes are at most that many. Within max_loop, the fast version counts none, nor
        # tests the budget at each: a game past it finds it at the round's head or its end,
        # and the checked version, which tests every step, plays the seed again.
        counted = self.logged or self.wide or not (
            type(points.const) is int and points.const <= self.max_loop and all(
                k >= 1 for k in costs))
        if counted:
            e(d, f"{passes} = 0")
        e(d, f"while {left} > 0:")
        d1 = d + 1
        if counted:
            e(d1, f"{passes} += 1")
            e(d1, f"if {passes} > {self.max_loop} or steps > {self.max_steps}:")
            e(d1 + 1, self.loop_stop("", "actions", passes, None))
        mark = len(self.lines)  # the picks of this pass are written from here
        # As _options, then the loop of _actions: every `if` first, then cost and limit.
        tests = self._guards([self.cond_at(o["if"], ctx.scope, "options", k, "if") if "if" in o
                              else _lit(True) for k, o in named], d1)
        # Points and costs are whole (the checker's rule), so inside `while left > 0` at
        # least 1 is left: a cost of at most 1 always fits, untested.
        tests = [None if t is None else t + (
            [] if costs[i] <= 1 else [f"{costs[i]!r} <= {left}"]) + (
            [self._within(limits[i], who)] if limits[i] is not None else [])
            for i, t in enumerate(tests)]
        if self.logged:
            self._legal_list(lg, tests, d1)
            e(d1, f"if not {lg}:")
            e(d1 + 1, "break")
            if allow_pass:
                e(d1, f"{lg}.append({len(named)})")
            self.decision_start(d1, ctx)
            e(d1, f"if len({lg}) == 1:")
            e(d1 + 1, f"{c} = {lg}[0]")
        else:
            flags = self._legal_flags(lg, tests, d1)
            if "True" not in flags:
                e(d1, f"if not ({' or '.join(flags)}):")
                e(d1 + 1, "break")
            if allow_pass:
                flags.append("True")
            self._only_legal(flags, c, d1, never=allow_pass)
        e(d1, "else:")
        at = len(self.lines)
        self._controllers(did, values, ("dynamic", lg), c, d1 + 1, who, Shown(
            spec, ctx, named, (PASS_LABEL,) if allow_pass else (), left,
            {k: costs[i] for i, (k, _) in enumerate(named)}))
        if not self.logged:
            self._list_where_read(lg, at, d1 + 1)
        picked = self._count_where_picked(mark, c, base, did, values)
        if picked is None:
            e(d1, _counted(base, c))
            e(d1, f"D_{did} = {vals}[{c}]")
        if self.logged:  # the options' labels, and `pass` with its own (steps._actions)
            self.rec_decision(d1, did, who, f"{vals}[{c}]", f"len({lg}) == 1",
                              self._labels(named, c, d1, ctx,
                                           (PASS_LABEL,) if allow_pass else ()))
        self.decided(did, d1, ctx, who)
        self.after_op(d1, frozenset({did}), ctx)
        if allow_pass and (picked is None or len(named) in picked):
            e(d1, f"if {c} == {len(named)}:")
            e(d1 + 1, "break")
        # A `break` in an option's steps leaves the actions (steps._actions catches Break).
        inner = ctx.inside(in_loop=True)
        reached = None if picked is None else picked - {len(named)}
        for (i, (k, o)), head in zip(enumerate(named), _heads(c, list(range(len(named))),
                                                              reached), strict=True):
            if head is None:  # no pick gives it
                continue
            e(d1, head)
            e(d1 + 1, f"{left} -= {costs[i]!r}")
            if limits[i] is not None:
                self._count_use(limits[i], who, d1 + 1)
            if "duration" in o:
                self.advance_by(o["duration"], d1 + 1, ctx, "options", k, "duration")
            if o.get("do"):
                self.block(o["do"], d1 + 1, inner)
        if self.flag_exits != exits:  # an `end_turn` in the loop left it by flag
            e(d, "if _et:")
            e(d + 1, "break")
