"""Phase 5b, compile for simulation (time): timers, waits and the modelled clock.

Input: the ruleset's timers and hazard events, and the steps `start_timer`, `stop_timer` and
`wait` (or any duration). Output: lines appended to the writer's source: a timer as four locals
(`TS_` seconds, `TA_` start, `TE_` end, `TR_` running; `TP_` when it stopped, where a log or
`elapsed` reads it), its fields as expressions (`timer_read`), and the modelled clock's advance, in
which the timers that run out and the hazard events that happen within the stretch fire in
time order, each at its moment, with the chance draws SeededChance makes. A mixin of the
specializer's writer (interpreter/compile/specialize.py)."""

from __future__ import annotations

import math
from typing import Any

from dsl import nodes as n
from interpreter.compile.base import (
    _NO,
    _NUMS,
    COUNTS_WORK,
    Ex,
    Unsupported,
    _Ctx,
    data_values,
)
from interpreter.compile.offsets import chosen
from interpreter.compile.stops import seconds_site


class ClockWriter:
    """Writes timers and the modelled clock; `self` is the specializer's writer."""

    @property
    def keeps_stops(self) -> bool:
        """Whether the code keeps when each timer stopped (`TP_`, Timer.stopped_at): for a
        log, and where the rules may read a timer's `elapsed` (named anywhere in them)."""
        if not hasattr(self, "_keeps_stops"):
            self._keeps_stops = self.logged or any(
                isinstance(x, str) and "elapsed" in x for x in data_values(self.data))
        return self._keeps_stops

    def timer_read(self, t: str, f: str) -> Ex:
        """A field of timer `t` (dsl/symbols.py TIMER_FIELDS) as Timer reads it, without a
        call: `remaining` (0 unless running, never below 0), `elapsed` (0 before it started;
        to now while it runs, else to when it stopped), `seconds`, `running`."""
        now = self.now_read  # the clock read once, in the first test that reads it
        if f == "remaining":
            return Ex(f"((TE_{t} - now) if TR_{t} and TE_{t} - {now} > 0 else 0)", "num", True)
        if f == "elapsed" and self.keeps_stops:
            return Ex(f"(0 if TA_{t} is None else (({now} if TR_{t} else (TP_{t} or TA_{t})) - "
                      f"TA_{t}))", "num", True)
        if f == "seconds":
            return Ex(f"TS_{t}", "num", True)
        if f == "running":
            return Ex(f"TR_{t}", "bool", True)
        raise Unsupported(f"timer field {f}")

    def _s_start_timer(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "start_timer", "seconds")
        t = spec["start_timer"]
        s = self.value_at(spec["seconds"], ctx.scope, "seconds")
        if s.kind not in _NUMS:
            raise Unsupported("timer seconds")
        self.emit(d, f"TS_{t} = {s.src}")
        if self.live:
            self.emit(d, "now = _LV.now()")
        self.emit(d, f"TA_{t} = now")
        # Its end, added once here, read by every test of the clock (the same float as
        # Timer.remaining's start + seconds at each reading).
        self.emit(d, f"TE_{t} = TA_{t} + TS_{t}")
        self.emit(d, f"TR_{t} = True")
        if self.logged:  # who started it, for a logged game's final table (Game.start_timer)
            self.emit(d, f"TO_{t} = cur")
        self.rec(d, "timer", ("timer", repr(t)), ("action", "'start'"), ("seconds", f"TS_{t}"))
        self.after_op(d, None, ctx)

    def _s_stop_timer(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "stop_timer")
        t = spec["stop_timer"]
        if self.logged:  # as Game.stop_timer: a running timer's stop, with the time left
            if self.live:
                self.emit(d, "now = _LV.now()")
            self.emit(d, f"if TR_{t}:")
            self.rec(d + 1, "timer", ("timer", repr(t)), ("action", "'stop'"),
                     ("left", f"round(max(0, TE_{t} - now), 3)"))
            self.emit(d + 1, f"TP_{t} = now")  # when it stopped (Timer.stopped_at)
        elif self.keeps_stops:  # as Game.stop_timer: a running timer stops now
            self.emit(d, f"if TR_{t}:")
            self.emit(d + 1, f"TP_{t} = now")
        self.emit(d, f"TR_{t} = False")
        self.after_op(d, None, ctx)

    def _s_wait(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self._only(spec, "wait")
        self.advance_by(spec["wait"], d, ctx, "wait")
        self.after_op(d, None, ctx)

    @property
    def now_read(self) -> str:
        """The clock, read where an expression reads a timer: the modelled clock's `now`, or
        in a live game real time (kept in `now` for what follows)."""
        return "(now := _LV.now())" if self.live else "now"

    def expire(self, t: str, d: int, ctx: _Ctx) -> None:
        """A running timer that ran out (Game._expire): stopped at its deadline, logged,
        `timer_expired` fired."""
        self.emit(d, f"TR_{t} = False")
        if self.keeps_stops:
            self.emit(d, f"TP_{t} = TE_{t}")
        self.rec(d, "timer", ("timer", repr(t)), ("action", "'expired'"))
        self.fire("timer_expired", d, ctx, {"timer": Ex("", "timer", True, const=t)})

    def poll_timers(self, d: int, ctx: _Ctx) -> None:
        """The timers that ran out by now, each in turn (Game.poll_timers: in a live game at
        every decision, and after any timeout): their triggers run as there, outside any
        loop."""
        if not self.timers:
            return
        if self.live:
            self.emit(d, "now = _LV.now()")
        inner = ctx.inside(in_loop=False)
        inner.flag_exit = False  # an `end_turn` here raises: no Python loop to leave by flag
        for t in self.timers:
            self.emit(d, f"if TR_{t} and TE_{t} <= now:")
            self.expire(t, d + 1, inner)

    # -- time ------------------------------------------------------------------------------------
    def hazards(self) -> list[tuple[str, Ex, Ex | None, bool]]:
        """The hazard events a stretch of the modelled clock asks about: (event, rate, the
        `during` test or None when always, never: a rate known to be 0 or less). One that
        never happens is asked only in a logged game, which counts the queries; one whose
        `during` is known false, never."""
        asked = []
        for event, spec in (self.data.get("events") or {}).items():
            if "hazard" not in spec:
                continue
            rate = self.value_at(spec["hazard"], {}, path=("events", event, "hazard"))
            if rate.kind not in _NUMS:
                raise Unsupported("hazard rate")
            never = rate.const is not _NO and rate.const <= 0
            during = None
            if "during" in spec:
                during = self.cond_at(spec["during"], {}, path=("events", event, "during"))
                if during.const is False:
                    continue
                if during.const is True:
                    during = None
            if never and not self.logged and (during is None or (
                    during.safe and not COUNTS_WORK.search(during.src))):
                continue  # never happens, draws nothing, and its test can neither fail nor
                # count work (Game.advance tests it all the same)
            asked.append((event, rate, during, never))
        return asked

    def quiet(self, hazards: list | None = None) -> bool:
        """True when nothing can happen while the modelled clock moves (no timer, no hazard
        that may happen; `hazards` as `self.hazards()` gives them): a stretch is then the
        clock's move alone."""
        if hazards is None:
            hazards = self.hazards()
        return not self.timers and all(never for *_, never in hazards)

    def clock_test(self, op: str, node: n.Binary, scope: dict) -> Ex | None:
        """`remaining(t) OP c`, c a number known now, as one test of the timer's end: the
        time left is `TE_t - now` while the timer runs and that is above 0, else 0, so past
        a c at or above 0 (`>`, `<=`; above 0 for `>=`, `<`) only a running timer's
        `TE_t - now` decides (the same subtraction as the interpreter's). None otherwise."""
        if not isinstance(node.right, (n.Literal, n.Name)):
            return None  # not a number known now (and not written twice when it is not)
        timer = self.expr(node.left.args[0], scope)
        if timer.kind != "timer" or timer.const is _NO:
            return None
        c = self.expr(node.right, scope)
        if type(c.const) not in (int, float) or not math.isfinite(c.const) or not (
                c.const >= 0 if op in (">", "<=") else c.const > 0):
            return None
        t, now = timer.const, self.now_read
        if op in (">", ">="):
            return Ex(f"(TR_{t} and TE_{t} - {now} {op} {c.const!r})", "bool", True)
        return Ex(f"(not TR_{t} or TE_{t} - {now} {op} {c.const!r})", "bool", True)

    def advance_by(self, value: Any, d: int, ctx: _Ctx, *keys: Any) -> None:
        """`advance` by the duration `value` at `keys` in the step being written (a step's
        `duration`, `wait`, an option's `duration`): a number of seconds, which the located
        versions test as compile_expr.seconds does (the fast one meets anything else as
        Python's own error, and the checked version plays the game)."""
        self.advance(self.value_at(value, ctx.scope, *keys), d, ctx, keys)

    def advance(self, secs: Ex, d: int, ctx: _Ctx, keys: tuple = ()) -> None:
        """As Game.advance on a modelled clock: timers that run out and hazard events within
        the stretch happen in time order, each at its moment. `keys`: where a duration the
        located versions test is (`advance_by`)."""
        if secs.kind not in _NUMS:
            raise Unsupported("duration")
        s = None
        if secs.const is _NO or not math.isfinite(secs.const):
            s = self.temp("s")
            self.emit(d, f"{s} = {secs.src}")
            if keys and (self.logged or self.wide):
                self.emit(d, f"if type({s}) is not int and type({s}) is not float:")
                self.emit(d + 1, self.stop_at(lambda step: seconds_site((*step, *keys)), s))
        if self.live:  # real time passes by itself (Game.advance): only the duration is read
            return
        end, pend = self.temp("en"), self.temp("pd")
        if secs.const is not _NO and secs.const <= 0:
            return  # no time passes
        if s is None:
            s = repr(secs.const)  # a number known now is written where it is read
        # The stretch starts at `now`, which nothing changes before its events are handled.
        start = "now"
        if secs.const is _NO:
            self.emit(d, f"if {s} > 0:")
            d1 = d + 1
        else:
            d1 = d
        hazards = self.hazards()
        if self.quiet(hazards):
            for _, _, during, _ in hazards:  # a logged game counts the queries all the same
                if during is not None:
                    self.emit(d1, f"if {during.src}:")
                self.emit(d1 + (during is not None), "hq += 1" if self.logged else "pass")
            self.emit(d1, f"now = now + {s}")  # the same float as Game.advance's
            return
        self.emit(d1, f"{end} = {start} + {s}")
        self.emit(d1, f"{pend} = None")  # most stretches see no event: no list made
        for t in self.timers:
            self.emit(d1, f"if TR_{t} and TE_{t} <= {end}:")
            item = f"(TE_{t}, 0, 'timer', {t!r})"
            self.emit(d1 + 1, f"{pend} = [{item}] if {pend} is None else [*{pend}, {item}]")
        for event, rate, during, never in hazards:
            dd = d1
            if during is not None:
                self.emit(d1, f"if {during.src}:")
                dd = d1 + 1
            if self.logged or never:  # Game.advance counts every query, even at rate 0
                self.emit(dd, "hq += 1" if self.logged else "pass")
                if never:
                    continue
            # As SeededChance.hazard: no draw for a rate <= 0; else one draw, 0.0 at rate 1.
            at = self.temp("at")
            item = f"({start} + {at}, 1, 'event', {event!r})"
            add = f"{pend} = [{item}] if {pend} is None else [*{pend}, {item}]"
            if self.logged:  # the query that happens is logged with its number and offset
                add += (f"; _rec({{'t': 'hazard', 'event': {event!r}, 'query': hq, "
                        f"'at': {at}}})")
                # Asked of the game's chance source (seeded: the same draw as below).
                self.emit(dd, f"{at} = _CS.hazard({event!r}, {rate.src}, {s})")
                self.emit(dd, f"if {at} is not None:")
                self.emit(dd + 1, add)
                continue
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
            elif rate.const > 0 and secs.const is not _NO:
                # A stretch known now: the draw u gives a moment within it only below
                # 1 - (1 - rate) ** seconds; far from that bound (a billionth) the moment is
                # not worked out, near it and below it is, exactly as the interpreter does.
                log_rate = math.log1p(-rate.const)
                bound = -math.expm1(secs.const * log_rate) * (1 + 1e-9) + 1e-300
                u = self.temp("u")
                self.emit(dd, f"{u} = rnd()")
                self.emit(dd, f"if {u} < {bound!r}:")
                self.emit(dd + 1, f"{at} = _log1p(-{u}) / {log_rate!r}")
                self.emit(dd + 1, f"if {at} < {s}:")
                self.emit(dd + 2, add)
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
        self.few.add(self.lines[-1])  # at most one item per timer and hazard
        d3 = d2 + 1
        self.emit(d3, f"now = {chosen('max', ['now', at])}")
        # A `break` in a trigger here would leave this loop, not the language's; an
        # `end_turn` by flag leaves it, and the loop around it, below.
        inner = ctx.inside(in_loop=False)
        exits = self.flag_exits
        for t in self.timers:
            self.emit(d3, f"if {kind} == 'timer' and {name} == {t!r}:")
            self.emit(d3 + 1, f"if TR_{t} and TE_{t} <= now:")
            self.expire(t, d3 + 2, inner)
        for event, spec in (self.data.get("events") or {}).items():
            if "hazard" in spec:
                self.emit(d3, f"if {kind} == 'event' and {name} == {event!r}:")
                self.emit(d3 + 1, "pass")
                self.rec(d3 + 1, "raised", ("event", repr(event)))  # Game.raise_event
                self.fire(event, d3 + 1, inner)
        if self.flag_exits != exits:
            self.emit(d2, "if _et:")
            self.emit(d2 + 1, "break")
        self.emit(d1, f"now = {end}")

