"""Phase 5b, compile for simulation (specializer): a number or a named option chosen by each of
several players, and turns in the order an expression gives.

Input: a `choose` step whose `by` is a list of players (a number choice: `min`, `max`,
`sealed`; or named options), a phase's `turns: {order: by, by: EXPR}`, and the generator of
interpreter/compile/specialize.py. Output: Python lines of the game's function.

A decision by several players, as decision_steps._choose: each decider in the list's order is
asked in turn (bounds worked out for each, the decider's controller as
interpreter/compile/policies.py writes it, each answer counted as Game._took counts it); the
decision's name holds a map from each decider to their number (`map:player=int`, read as
interpreter/compile/maps.py reads maps), updated after each answer unless the decision is
`sealed` (then the deciders see only the map of an earlier time until all have answered);
then `decided` fires once and the operation ends. A list naming a player twice stops the game
at `by`, as the interpreter does. Named options chosen by several players the same way, each
decider offered the options legal for them then, each answer's `do` run after `decided`
(`_options_by_many`); options given by an expression are not specialized.

Turns by an expression, as Game._run_round: every player's key worked out with `player` bound
to them, in seat order; turns in the order of a stable sort by key (ties keep seat order).
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.base import _NO, _NUMS, _UNROLL, Ex, Unsupported, _Ctx, _lit, _node
from interpreter.compile.people import Shown
from interpreter.compile.stops import twice_site


class DeciderWriter:
    """Decisions by several players and turns ordered by an expression (a mixin of _Gen)."""

    def _decider_kinds(self, steps: list[Any]) -> None:
        """A number decided by a list of players holds a map from each to their number."""
        for s in steps:
            if not (isinstance(s, dict) and isinstance(s.get("choose"), str) and "by" in s):
                continue
            try:
                who = self.expr(_node(s["by"]), {})
            except Unsupported:
                continue
            did = s["choose"]
            kind = self.decisions.get(did, "?")
            if who.kind == "list:player" and kind in ("str", "int") and isinstance(
                    s.get("options"), (list, dict)):
                self.decisions[did] = f"map:player={kind}"  # each decider's option
            elif who.kind == "list:player" and "options" not in s and kind in _NUMS:
                # Whole numbers when every pick is one, given that the map holds whole
                # numbers (a policy may read the map of an earlier time): by induction.
                self.decisions[did] = "map:player=int"
                if self._number_kind(did) != "int":
                    self.decisions[did] = "map:player=num"

    def _choose_by_many(self, spec: dict, d: int, ctx: _Ctx) -> bool:
        """A `choose` whose `by` is a list of players, written; False for one decider."""
        if "by" not in spec:
            return False
        who = self.value_at(spec["by"], ctx.scope, "by")
        if who.kind == "player":
            return False
        did = spec["choose"]
        kind = self.decisions.get(did, "?")
        if who.kind == "list:player" and "options" in spec and kind in ("map:player=str",
                                                                         "map:player=int"):
            self._options_by_many(spec, who, d, ctx)
            return True
        if who.kind != "list:player" or "options" in spec or not kind.startswith("map:player="):
            raise Unsupported("a decision by several players other than a number choice")
        sealed = spec.get("sealed", False)
        if type(sealed) is not bool:
            raise Unsupported("sealed")
        if "duration" in spec:
            self.advance_by(spec["duration"], d, ctx, "duration")
        e = self.emit
        dl, picks, w, c = self.temp("dl"), self.temp("pk"), self.temp("w"), self.temp("ch")
        e(d, f"{dl} = list({who.src})")
        e(d, f"if len(set({dl})) != len({dl}):")
        e(d + 1, self.stop_at(lambda step: twice_site((*step, "by")), dl))  # asked twice
        e(d, f"{picks} = {{}}")
        e(d, f"for {w} in {dl}:")
        bounds = []
        for key, default in (("min", 0), ("max", 10 ** 9)):
            x = self.value_at(spec[key], ctx.scope, key) if key in spec else _lit(default)
            if x.kind not in _NUMS:
                raise Unsupported("a number choice's bound that is not a number")
            if x.const is _NO:  # worked out for each decider, as each one's request
                t = self.temp("nb")
                e(d + 1, f"{t} = {x.src}")
                x = Ex(t, x.kind, True)
            bounds.append(x.src)
        self.decision_start(d + 1, ctx)
        self._controllers(did, None, ("number", *bounds), c, d + 1, Ex(w, "player", True),
                          Shown(spec, ctx))
        self._count_by_key(did, c, d + 1)
        if self.logged:  # each answer as GameAsking._took logs it, sealed ones marked so
            self.rec(d + 1, "decision", ("id", repr(did)),
                     ("by", self.who_src(Ex(w, "player", True))), ("choice", c),
                     *self.decision_times(), *((("sealed", "True"),) if sealed else ()))
        self._held(did, picks, w, c, sealed, "{}", d, ctx)
        return True

    def _options_by_many(self, spec: dict, who: Ex, d: int, ctx: _Ctx) -> None:
        """Named options chosen by each of several players, as decision_steps._choose: each
        decider in turn gets the options whose `if` holds then and whose `limit` they have not
        reached (every `if` worked out again for each: an earlier answer may change it), and
        picks one (the one legal option without being asked); the map of answers by name
        after each (`sealed`: only when all have answered); `decided`; then each answer's
        `do` in the deciders' order, its use counted for its decider."""
        did = spec["choose"]
        named = self._named(spec["options"], ("if", "do", "duration", "limit", "label"))
        values = [k for k, _ in named]
        sealed = spec.get("sealed", False)
        if type(sealed) is not bool:
            raise Unsupported("sealed")
        if "duration" in spec:
            self.advance_by(spec["duration"], d, ctx, "duration")
        base = self._chosen_base(did, values)
        vals = self.const(tuple(values), "VA")
        limits = [self._limit(did, k, o) for k, o in named]
        e = self.emit
        dl, picks, w = self.temp("dl"), self.temp("pk"), self.temp("w")
        c, lg = self.temp("ch"), self.temp("lg")
        e(d, f"{dl} = list({who.src})")
        e(d, f"if len(set({dl})) != len({dl}):")
        e(d + 1, self.stop_at(lambda step: twice_site((*step, "by")), dl))  # asked twice
        e(d, f"{picks} = {{}}")
        e(d, f"for {w} in {dl}:")
        one = Ex(w, "player", True)
        conds = [self.cond_at(o["if"], ctx.scope, "options", k, "if") if "if" in o else _lit(True)
                 for k, o in named]
        tests = self._guards(conds, d + 1)  # as _options, then _within_limit, per decider
        tests = [t + [self._within(limits[i], one)] if t is not None and limits[i] is not None
                 else t for i, t in enumerate(tests)]
        self._legal_list(lg, tests, d + 1)
        e(d + 1, f"if not {lg}:")
        e(d + 2, self.no_option(did, one))
        self.decision_start(d + 1, ctx)
        e(d + 1, f"if len({lg}) == 1:")
        e(d + 2, f"{c} = {lg}[0]")
        e(d + 1, "else:")
        self._controllers(did, values, ("dynamic", lg), c, d + 2, one, Shown(spec, ctx, named))
        e(d + 1, f"CH[{base} + {c}] += 1" if base else f"CH[{c}] += 1")
        self.rec_decision(d + 1, did, one, f"{vals}[{c}]", f"len({lg}) == 1",
                          self._labels(named, c, d + 1, ctx), sealed)
        self._held(did, picks, w, c, sealed, vals + "[{}]", d, ctx)
        branches = [(i, o) for i, (_, o) in enumerate(named)
                    if o.get("do") or "duration" in o or limits[i] is not None]
        if not branches:
            return
        # Written once per place in the list of deciders (at most one per seat), not as a
        # loop: an `end_turn`, `end_phase` or `break` in an option's steps then leaves what it
        # leaves in the interpreter, the later deciders' steps with it.
        if self.n > _UNROLL:
            raise Unsupported("options with steps chosen by more than 8 players")
        for k in range(self.n):
            e(d, f"if len({dl}) > {k}:")
            e(d + 1, f"{w} = {dl}[{k}]")
            e(d + 1, f"{c} = {picks}[{w}]")
            for j, (i, o) in enumerate(branches):
                e(d + 1, f"{'if' if j == 0 else 'elif'} {c} == {i}:")
                if limits[i] is not None:
                    self._count_use(limits[i], one, d + 2)
                if "duration" in o:
                    self.advance_by(o["duration"], d + 2, ctx, "options", named[i][0],
                                    "duration")
                self.block(o.get("do"), d + 2, ctx)

    def _held(self, did: str, picks: str, w: str, c: str, sealed: bool, shown: str, d: int,
              ctx: _Ctx) -> None:
        """After each decider's answer `c` (in the loop over deciders `w`): its place in
        `picks` and, unless `sealed`, the map of the answers so far in the decision's name;
        after all: the map, the sealed answers revealed together (decision_steps:
        `revealed`), `decided` and the end of the operation. `shown` makes an answer what
        the map holds (`{}`: itself; `VA[{}]`: the option's name)."""
        e = self.emit
        e(d + 1, f"{picks}[{w}] = {c}")
        held = f"{{_p: {shown.format('_a')} for _p, _a in {picks}.items()}}"
        if not sealed:  # (a copy: the picks go on growing)
            e(d + 1, f"D_{did} = {f'dict({picks})' if shown == '{}' else held}")
        e(d, f"D_{did} = {picks if shown == '{}' else held}")
        if sealed:
            names = self.names_of()
            self.rec(d, "revealed", ("id", repr(did)), ("choices", f"{{{names}[_p]: "
                                                                   f"{shown.format('_a')} "
                                                                   f"for _p, _a in {picks}.items()}}"))
        self.decided(did, d, ctx, None)
        self.after_op(d, frozenset({did}), ctx)

    def _turns_by(self, by: Any, d: int) -> str:
        """`order = ...`: the seats in the order of their keys (a stable sort)."""
        where = ("flow", "phases", self.phase_name, "turns", "by")  # its errors located there
        keys = [self.value_at(by, {"player": Ex(str(i), "player", True)}, path=where)
                for i in range(self.n)]
        if any(k.kind not in ("int", "num", "str") for k in keys) or (
                len({k.kind for k in keys}) > 1 and not all(k.kind in _NUMS for k in keys)):
            raise Unsupported("turns ordered by something not a number or a text")
        # (key, seat) pairs sorted: equal keys keep seat order, as the stable sort does. The
        # keys first, in seat order: a `:=` of theirs may not stand in a comprehension's list.
        ks = self.temp("ks")
        self.emit(d, f"{ks} = ({''.join(k.src + ', ' for k in keys)})")
        self.emit(d, f"order = [pc for _, pc in sorted(zip({ks}, _PL))]")
        return "order"
