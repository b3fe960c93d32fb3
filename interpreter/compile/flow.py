"""Phase 5b, compile for simulation (flow): the game function's frame, phases, rounds, turns,
the end and the scoring.

Input: the writer's names (state, dice, zones, teams) and the ruleset's `flow`, `end` and
`scoring`. Output: the whole source of `play(seed)`: the locals' set-up, each reachable phase
as a loop of rounds and turns, the standings and the result tuple; counters whose size is
known only at the end are written late (`_Late`). A mixin of the specializer's writer
(interpreter/compile/specialize.py)."""

from __future__ import annotations

import re

from dsl.parser import parse_expression
from interpreter.compile.base import (
    _NUMS,
    COUNTS_WORK,
    Ex,
    Unsupported,
    _Ctx,
    _lit,
    _node,
)
from interpreter.compile.compared import untested
from interpreter.compile.counted import counted_loops
from interpreter.compile.ending import end_by_flag
from interpreter.compile.flags import sunk
from interpreter.compile.loops import loops
from interpreter.compile.peephole import tidy
from interpreter.compile.phases import UNHELD, unheld
from interpreter.compile.raised import shared_names
from interpreter.compile.rule_data import ends_naming_winners
from interpreter.compile.settled import settled
from interpreter.compile.stops import input_site, passes_site, raise_at, turns_site
from interpreter.engine.reads import free_reads


class FlowWriter:
    """Writes the game's frame and flow; `self` is the specializer's writer."""

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
        e(0, "def play(seed, _rec, _look, FQ, _CS, _LV=None, _POS=None):" if self.logged
          else "def play(seed):")
        d = 1
        if self.logged:
            e(d, "itn = False")  # within a turn: a roll is the current player's
            e(d, "hq = 0")       # hazard queries, numbered in the log as Game.advance does
        # The game's generator, seeded as random.Random(seed) would be. One made per game
        # cost a fifth of a short game's seeding: a game takes a spare one (a game under way
        # in another thread has taken its own) and leaves it for the next when it ends.
        e(d, "R = _SPARE.pop() if _SPARE else _Random()")
        e(d, "R.seed(seed)")
        e(d, "rnd = R.random")
        if self.dyn:
            e(d, "rbelow = R._randbelow")  # as random.Random.sample draws one item
        e(d, "drnd = None")
        e(d, "steps = turn_n = round_n = rolls = phases_n = 0")
        e(d, "wk = 0")  # items comprehensions and built-ins went through (ExprWriter.charge)
        e(d, "now = 0.0")
        e(d, str(_Late("fired")))
        e(d, f"CH = [0] * {_Late('chosen')}")
        e(d, str(_Late("ch_locals")))
        e(d, f"UN = [0] * {_Late('unruled')}")
        e(d, str(_Late("keyed")))
        e(d, "cur = 0")
        e(d, f"_PL = {list(range(self.n))!r}")
        if self.elim:
            e(d, f"E = [False] * {self.n}")
        e(d, str(_Late("uses")))
        for did in self.decisions:
            e(d, f"D_{did} = None")
        for rid in self.races:
            e(d, f"R_{rid} = None")
        for ds in self.dice.values():
            for die in ds:
                e(d, f"{die.var} = None")
        self._zone_init(d)
        for t in self.timers:
            e(d, f"TS_{t} = 0")
            e(d, f"TA_{t} = TE_{t} = None")
            e(d, f"TR_{t} = False")
            if self.logged:
                e(d, f"TP_{t} = TO_{t} = None")
            elif self.keeps_stops:
                e(d, f"TP_{t} = None")
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
            # No score, no standings: simulate counts no lead changes (its _Standings.ok).
            e(d, f"changes = {0 if 'score' in (self.data.get('scoring') or {}) else None}")
        self.load_position(d)  # a game from a position (positions.py)
        self.look(d)
        e(d, "stopped = None")
        if ends_naming_winners(self.data):
            e(d, "ew = None")  # the winners an `end_game` step names
        e(d, str(_Late("raisers")))  # raised events' functions (raised.py), once all are known
        e(d, "try:")
        ctx = _Ctx({})
        # A position's phase begins without `game_start`.
        self.unless_placed("_POS is None or _POS.begin is None", d + 1,
                           lambda dd: self.fire("game_start", dd, ctx))
        phases = self.phase_list(self.reachable())
        e(d + 1, f"ph = {self.start_phase(phases)}")
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
        if ends_naming_winners(self.data):
            e(d + 1, "ew = _eg.args[1] if len(_eg.args) > 1 else None")
        # A budget the code locates itself (interpreter/compile/stops.py), unless the step
        # budget passed first: the interpreter stopped then, at a step the fast version does
        # not test, where the checked version, which tests every step (as a logged game
        # does), stops it.
        e(d, "except _Stop as _st:")
        if not (self.logged or self.wide):
            e(d + 1, f"if steps > {self.max_steps}:")
            e(d + 2, "raise _PastSteps() from None")
        e(d + 1, "if not _st.args:")
        e(d + 2, "raise")
        e(d + 1, "stopped = _st.args")
        e(d + 1, "reason = None")
        e(d, UNHELD)  # the handler of an end_turn or end_phase that leaves the game (phases.py)
        self.scoring(d)
        at = self.lines.index("    " + str(_Late("raisers")))
        self.lines[at:at + 1] = self.raiser_lines
        lines = unheld(self.lines, getattr(self, "unheld_sites", []), self.const)
        src = "\n".join(end_by_flag(counted_loops(tidy(lines), self.const)))
        uses = "".join(f"\n    UP{k} = [-1] * {self.n}\n    UC{k} = [0] * {self.n}"
                       for k in self.uses.values())  # per seat: the period, the uses in it
        # Trigger counts are locals (`fi3 += 1` costs far less than an item of a list).
        fis = [f"fi{k}" for k in range(len(self.fired))]
        chs = [f"ch{k}" for k in sorted(self.ch_locals)]
        sums = "; ".join(f"CH[{k}] += ch{k}" for k in sorted(self.ch_locals))
        done = sunk(settled(loops(shared_names(src.replace(f"\n    {_Late('uses')}", uses)
                .replace(str(_Late("ch_locals")), " = ".join([*chs, "0"]) if chs else "pass")
                .replace(str(_Late("ch_sums")), sums or "pass")
                .replace(str(_Late("keyed")), "CD = {}" if self.keyed_counts else "pass")
                .replace(str(_Late("keyed_sums")), "CD" if self.keyed_counts else "None")
                .replace(str(_Late("fired_list")), "".join(f"{f}, " for f in fis))
                .replace(str(_Late("fired")), " = ".join([*fis, "0"]) if fis else "pass")
                .replace(str(_Late("chosen")), str(len(self.chosen)))
                .replace(str(_Late("unruled")), str(len(self.unruled)))))))
        return done if self.logged else untested(done)  # compared.py: the fast version's

    def phase(self, name: str, phases: list[str], d: int) -> None:
        e = self.emit
        spec = self.data["flow"]["phases"][name]
        self._only(spec, "do", "on_begin", "on_end", "turns", "repeat", "next")
        self.phase_name = name
        ctx = _Ctx({})
        e(d, "phases_n += 1")
        self.rec(d, "phase", ("phase", repr(name)))
        def begin(dd: int) -> None:  # behind a position inside the phase
            self.block(spec.get("on_begin"), dd, ctx)
            self.fire("phase_start", dd, ctx, {"phase": _lit(name)})
        if self.gotos:
            e(d, "_gt = None")  # the phase a `goto` names
        # As Game._run_phase: an `end_phase` or `goto` of its beginning ends it too.
        e(d, "try:")
        d1 = d + 1
        self.unless_placed("rs is None", d1, begin)
        rep = spec.get("repeat") or {}
        self._only(rep, "times", "until", "while", "max")
        at = ("flow", "phases", name, "repeat")
        times = self.value_at(rep["times"], {}, path=(*at, "times")) if "times" in rep else None
        until = self.cond_at(rep["until"], {}, path=(*at, "until")) if "until" in rep else None
        while_ = self.cond_at(rep["while"], {}, path=(*at, "while")) if "while" in rep else None
        most = self.value_at(rep["max"], {}, path=(*at, "max")) if "max" in rep else None
        for x in (times, most):
            if x is not None and x.kind != "int":
                raise Unsupported("phase repeat count")
        times, most = self.passes_of(times, (*at, "times"), "times"), self.passes_of(
            most, (*at, "max"), "max")  # none stops the game there (stops.py)
        once = times is None and until is None and while_ is None
        flag = self._until_flag(rep.get("until"), until, d1) if until is not None else None
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
        where = ("flow", "phases", name, "repeat")
        e(d2 + 1, raise_at(self.const, passes_site(self.max_loop, f"phase '{name}'",
                                                   (*where, "max"), where),
                           "passes", "cap" if most is not None else "None"))
        if spec.get("turns") is not None:
            self.round(spec, until, d2, flag)
            e(d2, "if stop:")
            e(d2 + 1, "break")
        else:
            self.block(spec.get("do"), d2, ctx)
        if until is not None:
            self.until_test(until, flag, d2, ["break"])
        if self.gotos:  # a `goto` ends the phase naming the next (phases.py)
            e(d, "except _EndPhase as _ep:")
            e(d1, "_gt = _ep.args[0] if _ep.args else None")
        else:
            e(d, "except _EndPhase:")
            e(d1, "pass")
        self.block(spec.get("on_end"), d, ctx)
        self.fire("phase_end", d, ctx, {"phase": _lit(name)})
        if self.gotos:
            index = {t: phases.index(t) if t != "end" else -1 for t in self.gotos
                     if t == "end" or t in phases}
            e(d, "if _gt is not None:")
            e(d1, f"ph = {self.const(index, 'GT')}[_gt]")
            e(d, "else:")
            d += 1
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

    def _until_flag(self, text: str, until: Ex, d: int) -> str | None:
        """When a phase's `until` is the end condition (the same text, or written as the
        same source: a part known false when generating folded away), which reads only what
        changes by operations (parameters, global, player and team state, who is out; not
        `current`, `turn`, `round`, turn or round state, the clock) and counts no work (a
        test skipped would count less), a name that says whether it may still hold, set true
        here; else None.

        Why: every operation that writes what the end condition reads is followed by its
        test (`after_op`), which ends the game when it holds. So once the `until` has been
        found false, it stays false wherever it is tested again (after a turn, a round): the
        game would have ended first. Until then it is tested as written, so a game whose
        end condition holds from the start, before any operation, plays as before."""
        end = self.data.get("end") or {}
        if not isinstance(text, str) or not isinstance(end.get("when"), str):
            return None
        if text.split() != end["when"].split() and until.src != self.cond_at(
                end["when"], {}, path=("end", "when")).src:  # not written the same either
            return None
        reads = free_reads(end["when"])
        if reads is None or re.search(r"\bwk\b|_over\(|_remember", until.src):
            return None
        kept = {name for name, (sc, _, _) in self.vars.items()
                if sc in ("global", "player", "team")}
        names, fields = reads
        if not names <= kept | set(self.params) | {"players", "teams"} or \
                not fields <= kept | {"eliminated", "seat", "name"}:
            return None
        flag = self.temp("u")
        self.emit(d, f"{flag} = True")
        return flag

    def until_test(self, until: Ex, flag: str | None, d: int, then: list[str]) -> None:
        """The test of a phase's `until`, `then` its lines when it holds; behind `flag` (from
        `_until_flag`), which the first time it does not hold turns false."""
        if flag is not None:
            self.emit(d, f"if {flag}:")
            d += 1
        self.emit(d, f"if {until.src}:")
        for line in then:
            self.emit(d + 1, line)
        if flag is not None:
            self.emit(d, f"{flag} = False")

    def round(self, spec: dict, until: Ex | None, d: int, flag: str | None = None) -> None:
        e = self.emit
        turns = spec["turns"]
        self._only(turns, "order", "first", "skip", "by_team", "by")
        by_team = bool(turns.get("by_team")) and bool(self.team_names)
        if turns.get("order", "clockwise") not in ("clockwise", "counterclockwise", "by"):
            raise Unsupported("turn order")
        ctx = _Ctx({})
        if self.positioned:  # the round a position resumes in (Game._run_round)
            e(d, "rr, rs = rs, None")
        self.unless_placed("rr is None", d, lambda dd: e(dd, "round_n += 1"))
        self.reset("round", d)
        self.kept("rr is not None", ("round", "turn"), d)
        self.unless_placed("rr is None", d, lambda dd: self.fire(
            "round_start", dd, ctx, {"round": Ex("round_n", "int", True)}))
        ccw = turns.get("order") == "counterclockwise"
        if "by" in turns:  # as Game._run_round, whatever the order says
            src = self._turns_by(turns["by"], d)  # interpreter/compile/deciders.py
        elif "first" in turns:
            first = self.value_at(turns["first"], {},
                                  path=("flow", "phases", self.phase_name, "turns", "first"))
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
        if self.positioned:  # the players before it in this round have had their turn
            e(d, f"order = list({src})")
            e(d, "if rr is not None:")
            e(d + 1, "if rr not in order:")
            e(d + 2, f"raise _Stop({self.const(input_site(()), 'SE')}, _no_turn_here("
                     f"{self.names_of()}[rr], {self.phase_name!r}))")  # the interpreter's bad-input error
            e(d + 1, "order = order[order.index(rr):]")
            src = "order"
        e(d, "stop = False")
        e(d, f"for pc in {src}:")
        d1 = d + 1
        if self.elim:
            e(d1, "if E[pc]:")  # the eliminated have no turns
            e(d1 + 1, "continue")
        if "skip" in turns:
            skip = self.cond_at(turns["skip"], {"player": Ex("pc", "player", True)},
                                path=("flow", "phases", self.phase_name, "turns", "skip"))
            e(d1, f"if {skip.src}:")
            e(d1 + 1, "continue")
        e(d1, "cur = pc")  # `current` changes only when a turn begins
        self.turn(spec, d1)
        if until is not None:
            self.until_test(until, flag, d1, ["stop = True", "break"])
        self.fire("round_end", d, ctx, {"round": Ex("round_n", "int", True)})

    def turn(self, spec: dict, d: int) -> None:
        e = self.emit
        # The turn a position resumes at is not counted again.
        self.unless_placed("rr is None or pc != rr", d, lambda dd: e(dd, "turn_n += 1"))
        most = self.p.limits["max_turns"]
        # The step budget is not tested here: the round's head tests it, and a round holds
        # at most one turn a seat, so a game past it stops at most a round's turns later,
        # where its checked version plays the seed again to the interpreter's stop.
        e(d, f"if turn_n > {most}:")
        e(d + 1, raise_at(self.const, turns_site(most, self.phase_name)))
        self.reset("turn", d)
        self.kept("rr is not None and pc == rr", ("round", "turn"), d)
        self.rec(d, "turn", ("player", self.who_src(Ex("cur", "player", True))),
                 ("turn", "turn_n"), ("round", "round_n"))
        if self.logged:
            e(d, "itn = True")
        ctx = _Ctx({})
        # The turn is a loop of one pass, so that an `end_turn` written in it (not in a
        # check, a decision's actions or the advance of time) leaves it by `break`.
        start, exits = len(self.lines), self.flag_exits
        e(d, "try:")
        e(d + 1, "while True:")
        self.fire("turn_start", d + 2, ctx, {"player": Ex("cur", "player", True)})
        self.block(spec.get("do"), d + 2, _Ctx({}, flag_exit=True))
        e(d + 2, "break")
        e(d, "except _EndTurn:")
        e(d + 1, "pass")
        if self.flag_exits != exits:
            self.lines.insert(start, " " * (4 * d) + "_et = False")
        if self.p.triggers.get("turn_end"):
            e(d, "try:")
            self.fire("turn_end", d + 1, ctx, {"player": Ex("cur", "player", True)})
            e(d, "except _EndTurn:")
            e(d + 1, "pass")
        if self.logged:
            e(d, "itn = False")
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
        if scores is None:
            return  # nobody leads by a score the ruleset does not have
        if any(s.kind not in _NUMS for s in scores):
            raise Unsupported("standings of scores that are not numbers")
        lowest = (self.data.get("scoring") or {}).get("order") == "lowest"
        e = self.emit
        d0 = d
        # Looking on counts no work (simulate's _Standings reads the scores outside the
        # meter): a score that counts some counts it apart, and the game's count comes back.
        apart = any(COUNTS_WORK.search(s.src) for s in scores)
        if apart:
            e(d, "_sw = wk")
            e(d, "wk = 0")
        unsafe = not all(s.safe for s in scores)
        if unsafe:
            # A score that cannot be read mid-game (a division by zero...) stops the counting
            # for the rest of the game, as _Standings.look does: no lead changes then.
            e(d, "if changes is not None:")
            e(d + 1, "try:")
            d += 2
        if len(scores) == 2:
            # Two seats, compared without building a tuple (this runs after every turn):
            # both scores read in seat order, then whoever is strictly ahead.
            e(d, f"s1 = {scores[0].src}")
            e(d, f"s2 = {scores[1].src}")
            e(d, "if s1 != s2:")
            e(d + 1, f"who = 1 if s1 {'<' if lowest else '>'} s2 else 2")
        else:
            # Every score read in seat order, then the best of them, held by exactly one
            # seat or by nobody.
            e(d, f"sv = ({''.join(s.src + ', ' for s in scores)})")
            e(d, f"best = {'min' if lowest else 'max'}(sv)")
            e(d, "if sv.count(best) == 1:")
            e(d + 1, "who = sv.index(best) + 1")
        e(d + 1, "if who != leader:")
        e(d + 2, "if leader is not None:")
        e(d + 3, "changes += 1")
        e(d + 2, "leader = who")
        if unsafe:
            e(d0 + 1, "except _RULE_ERRORS:")
            e(d0 + 2, "changes = None")
        if apart:
            e(d0, "wk = _sw")

    def scoring(self, d: int) -> None:
        e = self.emit
        sc = self.data.get("scoring") or {}
        self._only(sc, "score", "order", "ties", "tie_break", "eligible", "winners")
        at = self.value_at if self.logged or self.wide else None  # rule errors located
        per = [{"player": Ex(str(i), "player", True)} for i in range(self.n)]
        scores = ([at(sc["score"], s, path=("scoring", "score")) for s in per]
                  if at is not None and "score" in sc else self._scores())
        if at is not None and scores is not None and not all(s.safe for s in scores):
            # As Game._result: a seat whose score stops the game scores none, the others
            # are still scored, and the first such error is the game's (unless it stopped).
            e(d, f"scores = {[None] * self.n!r}")
            for i, s in enumerate(scores):
                self._scored(d, f"scores[{i}] = {s.src}", "if stopped is None:",
                             "stopped = _st.args")
        else:
            e(d, "scores = [" + (", ".join(s.src for s in scores) if scores
                                 else ", ".join(["None"] * self.n)) + "]")
        # A stopped game is scored, nothing more (Game._result): no tie-breaks, no winners.
        e(d, "if stopped is not None:")
        e(d + 1, f"tbs, eligible, winners = {[[]] * self.n!r}, None, []")
        e(d, "else:")
        d += 1
        tbs = []
        for i in range(self.n):
            tb = [at(x, per[i], path=("scoring", "tie_break", k)) if at is not None
                  else self.expr(_node(x), per[i]) for k, x in enumerate(sc.get("tie_break") or [])]
            if any(x.kind not in _NUMS for x in tb):
                raise Unsupported("tie_break")
            tbs.append(tb)
        if "eligible" in sc:
            el = [self.cond_at(sc["eligible"], per[i], path=("scoring", "eligible"))
                  if at is not None else self.cond(sc["eligible"], per[i]) for i in range(self.n)]
        if "winners" in sc:
            w = (at(sc["winners"], {}, path=("scoring", "winners")) if at is not None
                 else self.expr(_node(sc["winners"]), {}))
            if w.kind != "list:player":
                raise Unsupported("winners")
        # Then, as Game._result, the tie-breaks and who may win; then the winners. A rule
        # error among them is the game's: no winners, no tie-breaks (the players who may win
        # are still ranked first when only the winners' rule stopped).
        ranked = [f"tbs = [{', '.join('[' + ', '.join(x.src for x in tb) + ']' for tb in tbs)}]",
                  f"eligible = [{', '.join(x.src for x in el)}]" if "eligible" in sc
                  else "eligible = None"]
        stop = f"tbs, winners = {[[]] * self.n!r}, []"
        wrapped = at is not None and not all(x.safe for x in [*(x for tb in tbs for x in tb),
                                                              *(el if "eligible" in sc else [])])
        if wrapped:
            if "winners" not in sc:
                e(d, "winners = None")  # before: a stop leaves none
            self._scored(d, ranked, "eligible = None", "stopped = _st.args", stop)
        else:
            for line in ranked:
                e(d, line)
            if "winners" not in sc:
                e(d, "winners = None")
        if "winners" in sc and at is not None and not w.safe:
            e(d, "if stopped is None:")
            self._scored(d + 1, f"winners = {w.src}", "stopped = _st.args", stop)
        elif "winners" in sc:
            e(d, f"winners = {w.src}")
        # Past the step budget the interpreter stopped, at an operation after the last test
        # of it here (the items counted with the steps are tested where they are counted:
        # interpreter/compile/meter.py).
        e(d, f"if steps > {self.max_steps}:")
        e(d + 1, "raise _PastSteps()")
        d -= 1
        if ends_naming_winners(self.data):  # as Game._result: an `end_game`'s winners, stopped or not
            if "winners" in sc:
                raise Unsupported("winners named by end_game and by the scoring")
            e(d, "if ew is not None:")
            e(d + 1, "winners = ew")
        if self.track:
            e(d, "if first is None and turn_n >= 1:")
            e(d + 1, "first = cur + 1")
            if scores is not None:
                self.standings(d)
            tracked = "first, changes"
        else:
            tracked = "None, None"
        e(d, str(_Late("ch_sums")))
        e(d, "_SPARE.append(R)")
        # The counters as they are, one per trigger, decision answer and place a decision is
        # asked: named only by whoever reads them (Specialized.counters, simulate's Slots),
        # so a game builds no dict it does not need.
        e(d, f"return (reason, round_n, turn_n, steps, rolls, now, scores, tbs, eligible, "
             f"winners, ({_Late('fired_list')}), CH, UN, {tracked}, "
             f"{'E' if self.elim else 'None'}, {_Late('keyed_sums')}"
             f"{', hq' if self.logged else ''}, stopped, wk)")

    def _scored(self, d: int, lines: str | list[str], *then: str) -> None:
        """`lines`, where a rule error the code locates (a `_Stop` with a site) runs `then`
        (each a line, `if ...:` opening the rest)."""
        e = self.emit
        e(d, "try:")
        for line in [lines] if isinstance(lines, str) else lines:
            e(d + 1, line)
        e(d, "except _Stop as _st:")
        e(d + 1, "if not _st.args:")
        e(d + 2, "raise")
        k = d + 1
        for line in then:
            e(k, line)
            if line.endswith(":"):
                k += 1


class _Late:
    """A number written into the source once generation knows it."""

    def __init__(self, what: str):
        self.what = what

    def __str__(self) -> str:
        return f"__LATE_{self.what}__"


