"""Phase 5b, compile for simulation (specializer): what follows every operation, as code.

Input: the checked ruleset's `checks`, `end.when` and the names they read (`Program.watched`),
and the generator of interpreter/compile/specialize.py. Output: the Python lines written after each
operation (as Game.after_op: count the step; when the operation wrote a name the checks or the
end condition read, run the checks until none holds, a check for each player in a loop over
the seats, then the end condition, at the seats a write made where it may be: `_end_at`,
then the interrupt a check's steps raised), and the
effects that change who is still in and what they hold: `eliminate` and `transfer` (as
interpreter/engine/steps.py), and `end_game` with its reason (narration text whose holes are
numbers, texts, true/false or players). Anything else raises `Unsupported`.

`CheckWriter` is a mixin of the generator (`_Gen`): it uses its `emit`, `expr`, `cond`,
`block` and `temp`.
"""

from __future__ import annotations

from typing import Any

from dsl import nodes as n
from dsl.builtins import BUILTINS
from dsl.compiler import no_field
from dsl.parser import parse_expression, parse_template
from interpreter.compile.base import _NO, _NUMS, _UNROLL, COUNTS_WORK, Ex, Unsupported, _Ctx
from interpreter.compile.offsets import chosen
from interpreter.compile.stops import (
    checks_site,
    raise_at,
    steps_site,
    transfer_site,
    uneliminable_site,
    winners_site,
)
from interpreter.compile.written_seats import settle


class CheckWriter:
    """After-operation code, checks, `eliminate` and `transfer` (a mixin of _Gen)."""

    def _check_specs(self) -> list[tuple[str, dict]]:
        out = []
        for name, spec in (self.data.get("checks") or {}).items():
            self._only(spec, "for_each", "when", "do")
            if spec.get("for_each") not in (None, "player", "team"):
                raise Unsupported(f"checks for each {spec.get('for_each')}")
            out.append((name, spec))
        return out

    def after_op(self, d: int, writes: frozenset | None, ctx: _Ctx,
                 seats: tuple[str, ...] | None = None) -> None:
        """As Game.after_op: count the step; inside the checks nothing more; else, when the
        operation wrote a name they read, the checks, the end condition, then the interrupt
        a check raised. `seats`: the seats whose per-player values the operation wrote, where
        those are all it wrote of them (written_seats.py: the checks may be tested there
        alone). (The step budget is checked at loop heads and at the end: steps only
        grow. A logged game checks it here, as the interpreter: it shows and logs each
        operation as it goes, and must show none the interpreter's game does not make; so
        does the checked version, which plays a seed the fast one found past the budget.)"""
        self.emit(d, "steps += 1")
        if self.logged or self.wide:
            self.emit(d, f"if steps > {self.max_steps}:")
            self.emit(d + 1, raise_at(self.const, steps_site(self.max_steps)))
        if ctx.checks:
            return
        if writes is not None and self.watched is not None and self.watched.isdisjoint(writes):
            return
        pending = self._checks(d, ctx, seats or None) if self.checks else None
        end = self.p.data.get("end") or {}
        if "when" in end:
            c = self.cond_at(end["when"], {}, path=("end", "when"))
            if c.const is not False:
                self.emit(d, f"if {(seats and self._end_at(seats, c)) or c.src}:")
                self.emit(d + 1, "raise _EndGame()")
        if pending is not None:
            self.emit(d, f"if {pending} is not None:")
            self.emit(d + 1, f"raise {pending}")

    def _end_at(self, seats: tuple[str, ...], full: Ex) -> str | None:
        """The end condition after an operation that wrote per-player values at `seats`
        alone, tested at those seats alone, or None where it may not be.

        It may be where the condition is `any(TEST for p in players)` (`full` its source),
        each seat's TEST cannot fail and counts no work, the seats' TESTs are `_narrowable`,
        players are never out and no check runs (a check's own operations are not followed
        by the test).
        Then every operation that writes what the condition reads is followed by its test,
        which ends the game when it holds: before each operation it holds for nobody, and
        only the written seats' tests can have changed. Worked out once."""
        got = self.__dict__.get("_end_seated", _NO)
        if got is _NO:
            got = self._end_seated = self._seated_end(full)
        if got is None:
            return None
        var, test = got
        return " or ".join(f"({self.expr(test, {var: Ex(x, 'player', True)}).src})"
                           for x in seats)

    def _seated_end(self, full: Ex) -> tuple[str, n.Node] | None:
        """The end condition's binding name and per-player test, where `_end_at` may narrow."""
        if self.elim or self.checks or COUNTS_WORK.search(full.src):
            return None
        node = parse_expression(self.p.data["end"]["when"])
        if not (isinstance(node, n.Call) and node.func == "any" and len(node.args) == 1
                and not node.kwargs and isinstance(node.args[0], n.Comprehension)):
            return None
        comp = node.args[0]
        if comp.cond is not None or not isinstance(comp.iterable, n.Name) or \
                comp.iterable.id != "players":
            return None
        try:
            terms = [self.expr(comp.element, {comp.var: Ex(str(i), "player", True)})
                     for i in range(self.n)]
        except Unsupported:
            return None
        if not all(t.safe and not COUNTS_WORK.search(t.src) for t in terms) or \
                not self._narrowable([(t.src, i) for i, t in enumerate(terms)]):
            return None
        return comp.var, comp.element

    def _narrowable(self, seated: list[tuple[str, int]]) -> bool:
        """Whether tests made after a write (a check's, the end condition's; `seated`: each
        seat's, as (source, seat)) may be made at the written seats alone, given that none of
        them can fail: each reads only its seat's values and none holds when the game begins
        (written_seats.py `settle`), nothing runs between a write and its test (a `changed`
        trigger would), and the game begins where the rules begin it (not a logged game,
        which may start from a position)."""
        per_player = {py for sc, py, _ in self.vars.values() if sc == "player"}
        return bool(seated) and not self.logged and "changed" not in self.p.triggers and \
            settle(seated, per_player, self.lines)

    def _when(self, name: str, spec: dict, scope: dict) -> Ex:
        return self.cond_at(spec["when"], scope, path=("checks", name, "when"))

    def _checks(self, d: int, ctx: _Ctx, seats: tuple[str, ...] | None = None) -> str | None:
        """As Game._run_checks: rounds in which every check is examined (for each player
        still in, in seat order, for each team, or once) and those that hold run their steps; until a round
        where none holds, at most max_chain_depth rounds. An `end_turn` or `end_phase` of a
        check's steps ends those steps and waits: its name is returned, holding it or None.
        A first round where nothing holds changes nothing, so one test of every condition
        decides whether the rounds are written out at all."""
        bindings = []  # (check name and spec, binding scope or None, test Ex, seat or team)
        for name, spec in self._check_specs():
            if spec.get("for_each") == "player":
                if self.n > _UNROLL:
                    raise Unsupported("checks for each of many players")
                for i in range(self.n):
                    scope = {"player": Ex(str(i), "player", True)}
                    bindings.append(((name, spec), scope, self._when(name, spec, scope), i))
            elif spec.get("for_each") == "team":  # every team, in order (Game._check_bindings)
                for k in range(len(self.team_names)):
                    scope = {"team": Ex(str(k), "team", True, k)}
                    bindings.append(((name, spec), scope, self._when(name, spec, scope),
                                     ("team", k)))
            else:
                bindings.append(((name, spec), {}, self._when(name, spec, {}), None))
        live = [(spec, scope, c, i) for spec, scope, c, i in bindings if c.const is not False]
        if not live:
            return None
        pending = self.temp("pend")
        self.emit(d, f"{pending} = None")

        def test(c: Ex, i: int | str | tuple | None) -> str:
            # A player eliminated earlier in the round is skipped (Game._check_bindings).
            skip = f"not E[{i}]" if type(i) in (int, str) and self.elim else ""  # a seat
            return " and ".join(x for x in (skip, c.src if c.const is not True else "") if x) \
                or "True"
        tests = [test(c, i) for _, _, c, i in live]
        if seats is not None and self._settles(live, tests):
            # Only the written seats' tests can have changed since the last round of checks,
            # after which none held (written_seats.py); a check not for each player is tested
            # as before.
            names = list(dict.fromkeys(name for (name, _), _, _, i in live if type(i) is int))
            specs = {name: spec for (name, spec), _, _, _ in live}
            tests = [t for t, (_, _, _, i) in zip(tests, live, strict=True) if type(i) is not int
                     ] + [test(self._when(name, specs[name], {"player": Ex(x, "player", True)}), x)
                          for name in names for x in seats]
        self.emit(d, "if " + " or ".join(f"({t})" for t in tests) + ":")
        d1 = d + 1
        r, fired = self.temp("r"), self.temp("fd")
        self.emit(d1, f"for {r} in range({self.max_chain}):")
        d2 = d1 + 1
        self.emit(d2, f"{fired} = False")

        def run(name: str, spec: dict, scope: dict, c: Ex, i: Any, d3: int) -> None:
            """A check's test for one binding and, where it holds, its steps."""
            self.emit(d3, f"if {test(c, i)}:")
            who = () if i is None else (("team", repr(self.team_names[i[1]])),) if type(
                i) is tuple else (("player", self.who_src(Ex(str(i), "player", True))),)
            self.rec(d3 + 1, "check", ("check", repr(name)), *who)
            self.emit(d3 + 1, f"{fired} = True")
            self.emit(d3 + 1, "try:")
            self.block(spec.get("do"), d3 + 2, _Ctx(scope, ctx.depth, False, ctx.inline, True,
                                                                base=ctx.base))
            self.emit(d3 + 1, "except (_EndTurn, _EndPhase) as _sig:")
            self.emit(d3 + 2, f"if {pending} is None:")
            self.emit(d3 + 3, f"{pending} = _sig")

        k = 0
        while k < len(live):
            (name, spec), scope, c, i = live[k]
            seats = []  # the seats of this check's bindings, from here on
            for (other, _), _, _, seat in live[k:]:
                if other != name or type(seat) is not int:
                    break
                seats.append(seat)
            if len(seats) > 1 and self._seat_loop(name, spec, seats, d2, run):
                k += len(seats)
                continue
            run(name, spec, scope, c, i, d2)
            k += 1
        self.emit(d2, f"if not {fired}:")
        self.emit(d2 + 1, "break")
        self.emit(d1, "else:")
        self.emit(d2, raise_at(self.const, checks_site(self.max_chain)))  # checks still hold
        return pending

    def _settles(self, live: list, tests: list[str]) -> bool:
        """Whether the checks' first test may be made at the written seats alone for the
        checks for each player: no test can fail (the others', kept, then cannot be met in
        another order), and the seats' tests are `_narrowable`. Worked out once."""
        got = self.__dict__.get("_settled_checks")
        if got is None:
            seated = [(t, i) for t, (_, _, _, i) in zip(tests, live, strict=True)
                      if type(i) is int]
            got = self._settled_checks = all(c.safe for _, _, c, _ in live) and \
                self._narrowable(seated)
        return got

    def _seat_loop(self, name: str, spec: dict, seats: list[int], d: int, run) -> bool:
        """A check for each player, its steps written once in a loop over the seats, in seat
        order, each seat tested as the unrolled test before the rounds tests it (that test,
        what runs after every operation, stays written out). Written once per seat, the steps
        of such a check (a player out, say) were most of a game function, after every
        operation that could make them hold: the generator wrote, and Python compiled, code
        that rarely runs. False, and nothing written, where the steps need their seat known
        when generating."""
        s = self.temp("s")
        scope = {"player": Ex(s, "player", True)}
        mark, exits = len(self.lines), self.flag_exits
        try:
            c = self._when(name, spec, scope)
            every = f"range({self.n})" if seats == list(range(self.n)) else repr(tuple(seats))
            self.emit(d, f"for {s} in {every}:")
            run(name, spec, scope, c, s, d + 1)
        except Unsupported:  # as if not tried: the lines and the count of exits by flag
            del self.lines[mark:]
            self.flag_exits = exits
            return False
        return True

    # -- effects ---------------------------------------------------------------------------------
    def _s_eliminate(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "eliminate", "because")  # the reason is narration: off here
        who = self.value_at(spec["eliminate"], ctx.scope, "eliminate")
        if who.kind != "player":
            raise Unsupported("eliminate")
        if not who.safe:  # none: the interpreter's error, at the step
            w = self.temp("w")
            self.emit(d, f"{w} = {who.src}")
            self.emit(d, f"if {w} is None:")
            self.emit(d + 1, self.stop_at(uneliminable_site))
            who = Ex(w, "player", True)
        if self.logged and not who.src.isidentifier():  # read once: tested, then logged
            w = self.temp("w")
            self.emit(d, f"{w} = {who.src}")
            who = Ex(w, "player", True)
        if self.logged:  # as steps._eliminate: logged the first time, with its reason
            self.emit(d, f"if not E[{who.src}]:")
            self.emit(d + 1, f"E[{who.src}] = True")  # before the reason, which may read it
            because = (("because", self.text_of(spec["because"], ctx.scope, "because")),) \
                if "because" in spec else ()
            self.rec(d + 1, "eliminated", ("player", self.who_src(who)), *because)
        self.emit(d, f"E[{who.src}] = True")
        self.after_op(d, frozenset({"eliminated"}), ctx)

    def _somebody(self, who: str, site: str | None, d: int) -> None:
        """Where `site` is given: the stop there of a transfer's end `who` that is none."""
        if site is not None:
            self.emit(d, f"if {who} is None:")
            self.emit(d + 1, f"raise _Stop({site})")

    def _s_transfer(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._transfer: at most what the giver holds (and not below 0) leaves it;
        what left reaches the taker; 'bank' gives without limit and takes anything."""
        self._only(spec, "transfer", "of", "from", "to")
        of = spec["of"]
        var = self.vars.get(of)
        if var is None or var[0] != "player" or var[2] not in _NUMS:
            raise Unsupported("transfer of something not a number per player")
        amount = self.value_at(spec["transfer"], ctx.scope, "transfer")
        if amount.kind not in _NUMS or not self._fits(var[2], amount.kind):
            raise Unsupported("transfer amount")
        if amount.const is not _NO and amount.const >= 0:
            a = amount.src  # known now, and not negative
        else:
            a = self.temp("a")
            self.emit(d, f"{a} = {amount.src}")
        ends, nobody = [], []
        # A giver or taker that is none has no field `of`: the interpreter's error, at the
        # step's `of`, where located (the fast version meets it as Python's TypeError).
        none_site = None if self.step_path is None else self.target_site(
            (*self.step_path, "of"), no_field(None, of))
        for key in ("from", "to"):
            x = self.value_at(spec[key], ctx.scope, key)
            if x.const == "bank":
                ends.append(None)
            elif x.kind == "player":
                if x.src.isidentifier() or x.src.isdigit():
                    ends.append(x.src)
                else:
                    t = self.temp("w")
                    self.emit(d, f"{t} = {x.src}")
                    ends.append(t)
            else:
                raise Unsupported("transfer between something not a player or the bank")
            nobody.append(none_site if x.kind == "player" and not x.safe else None)
        src, dst = ends
        if amount.const is _NO or amount.const < 0:
            # The interpreter's error, at the step; where it is located (the checked version,
            # a logged game), none too (the fast version meets none as Python's TypeError).
            tested = self.step_path is not None and (self.logged or self.wide)
            self.emit(d, f"if {f'type({a}) not in (int, float) or ' if tested else ''}{a} < 0:")
            self.emit(d + 1, self.stop_at(transfer_site, a))
        py = var[1]
        if src is None:
            moved = a
        else:
            h, moved = self.temp("h"), self.temp("m")
            self._somebody(src, nobody[0], d)
            self.emit(d, f"{h} = {py}[{src}]")
            # min(a, max(0, h)), each as a comparison where it can be (offsets.py `chosen`)
            self.emit(d, f"{moved} = {chosen('max', ['0', h])}")
            self.emit(d, f"{moved} = {chosen('min', [a, moved])}")
            self.emit(d, f"{py}[{src}] = {h} - {moved}")
        if dst is not None:  # (after the giver gave, as the interpreter's game stands)
            self._somebody(dst, nobody[1], d)
            self.emit(d, f"{py}[{dst}] += {moved}")
        names = self.names_of()
        self.rec(d, "transfer", ("amount", moved), ("of", repr(of)),
                 *((key, "'bank'" if end is None else f"{names}[{end}]")
                   for key, end in (("source", src), ("to", dst))))
        self.after_op(d, frozenset({of}), ctx, tuple(x for x in (src, dst) if x is not None))

    def _s_end_game(self, spec: dict, d: int, ctx: _Ctx) -> None:
        """As steps._end_game: the game ends at once with the rendered reason (no step is
        counted); the scoring's winners decide."""
        body = spec.get("end_game") if isinstance(spec.get("end_game"), dict) else spec
        self._only(body, "end_game", "reason", "winners")
        reason = "'the rules ended the game'"
        if "reason" in body:
            # Its holes located at the step's "reason", as steps._end_game locates them.
            with self.located(None if self.step_path is None else (*self.step_path, "reason")):
                reason = self._template(body["reason"], ctx.scope)
        winners = ""  # the players it names win, whatever the scores (flow.py `scoring`)
        if "winners" in body:
            w = self.value_at(body["winners"], ctx.scope, "winners")
            if w.kind != "list:player" and w.src != "[]":  # (nobody: `[]`)
                raise Unsupported("winners that are not a list of players")
            rs, ew = self.temp("rs"), self.temp("ew")  # the reason first, as steps._end_game
            self.emit(d, f"{rs} = {reason}")
            self.emit(d, f"{ew} = {w.src}")
            self.emit(d, f"if None in {ew}:")  # a player that is none among them
            self.emit(d + 1, self.stop_at(winners_site))
            reason, winners = rs, f", {ew}"
        self.emit(d, f"raise _EndGame({reason}{winners})")

    def _template(self, text: object, scope: dict) -> str:
        """Narration text as a Python expression: each hole shown as the `text` built-in
        shows it (dsl/compiler.compile_template)."""
        if not isinstance(text, str):
            return repr(str(text))
        parts = []
        template = parse_template(text)
        for part in template.parts:
            if isinstance(part, str):
                parts.append(repr(part))
                continue
            x = self.expr(part, scope) if isinstance(part, n.Node) else None
            if x is None:
                raise Unsupported("a template")
            if x.kind in ("int", "num", "str", "bool"):  # or none, shown as the built-in does
                parts.append(f"{self.const(BUILTINS['text'].impl, 'TX')}({x.src})")
            elif x.kind == "player" and x.safe:
                parts.append(f"{self.const(self.seat_names, 'N')}[{x.src}]")
            else:
                raise Unsupported("a template hole of this kind")
        return self.template_text(template, parts)
