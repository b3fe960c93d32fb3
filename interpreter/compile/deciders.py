"""Phase 5b, compile for simulation (specializer): a number chosen by each of several players,
and turns in the order an expression gives.

Input: a `choose` step whose `by` is a list of players (a number choice: `min`, `max`,
`sealed`), a phase's `turns: {order: by, by: EXPR}`, and the generator of
interpreter/compile/specialize.py. Output: Python lines of the game's function.

A decision by several players, as decision_steps._choose: each decider in the list's order is
asked in turn (bounds worked out for each, the decider's controller as
interpreter/compile/policies.py writes it, each answer counted as Game._took counts it); the
decision's name holds a map from each decider to their number (`map:player=int`, read as
interpreter/compile/maps.py reads maps), updated after each answer unless the decision is
`sealed` (then the deciders see only the map of an earlier time until all have answered);
then `decided` fires once and the operation ends. A list naming a player twice hands the seed
back (the interpreter's map would keep one answer). Decisions by several players with options
are not specialized.

Turns by an expression, as Game._run_round: every player's key worked out with `player` bound
to them, in seat order; turns in the order of a stable sort by key (ties keep seat order).
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.base import _NO, _NUMS, Ex, Unsupported, _Ctx, _lit, _node
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
            if who.kind == "list:player" and "options" not in s and kind in _NUMS:
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
        e(d + 1, f"{picks}[{w}] = {c}")
        if not sealed:
            e(d + 1, f"D_{did} = dict({picks})")
        e(d, f"D_{did} = {picks}")
        if sealed:  # the answers shown together (decision_steps: `revealed`)
            self.rec(d, "revealed", ("id", repr(did)),
                     ("choices", f"{{{self.names_of()}[_p]: _a for _p, _a in {picks}.items()}}"))
        self.fire("decided", d, ctx)
        self.after_op(d, frozenset({did}), ctx)
        return True

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
