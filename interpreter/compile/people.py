"""Phase 5b, compile for play at the table: the decisions of people's seats, written as code.

Input: a decision step of the checked ruleset whose decider may be a person (`meeple run
--seat K=human`), what a person is shown of it (`Shown`: its prompt, its options' labels,
the points and costs of `actions`), and the generator of interpreter/compile/specialize.py.
Output: Python lines of a live game's function (`live=True`) that hand the decision to the
`_LV` door of the game's caller (interpreter/table/live_door.py): the legal options as keys
and labels, the prompt, the bounds of a number; the door asks the seat's controller and the
answer it gives is taken as a decisions file's answer is (base.forced_*), so a person's pick
and a scripted one are matched by one rule, as the interpreter's Request.match does.

A live game runs on real time, as the interpreter's live game does: a duration passes by
itself (nothing is modelled, so no hazard event happens), a timer reads the door's clock and
runs out when a decision is asked (the timers are polled then, as Game.poll_timers does) or
while a person thinks (the door's answer is then a timeout: logged, the timers polled, the
same request asked again), and each decision someone was asked is logged with the moments it
was asked and answered (`asked`, `at`). A replayed game's timeouts, and the events people
raised (`!NAME` at their decision, or scripted: interpreter/compile/raised.py), are taken
where the interpreter takes them, and the same request asked again. A race people report is
asked through the same door (races.py, `_LV.report`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from interpreter.compile.base import Ex, _Ctx


class Person:
    """The controller of a person's seat in a live generated game: the door asks them."""

    name = "human"


@dataclass
class Shown:
    """What a person is shown of a decision: the step (`prompt`, `option_label`, `sealed`),
    where it is written (the names in scope there), the named options (their `label`s) and
    the labels of options after them (`actions`' pass); for `actions`, the source of the
    points left and each named option's cost."""

    spec: dict
    ctx: _Ctx
    named: list = field(default_factory=list)
    more: tuple = ()
    points: str | None = None
    costs: dict | None = None


class PeopleWriter:
    """People's decisions and the live game's clock (a mixin of _Gen)."""

    def decision_start(self, d: int, ctx: _Ctx) -> None:
        """Where a logged game's decision is asked, its legal options known (GameAsking._decide):
        on a real clock the moment it is asked, and the timers that ran out meanwhile; on a
        modelled one, the moment a scripted answer says it was asked, if it says one (a
        decisions file written from a live game's log)."""
        if self.live:
            self.emit(d, "_ak = _LV.asked(FQ)")
            self.poll_timers(d, ctx)
        elif self.logged:
            self.emit(d, "if FQ and type(FQ[0]) is dict and 'asked' in FQ[0]:")
            self.emit(d + 1, "now = FQ[0]['asked']")

    def _timed_out(self, d: int, ctx: _Ctx, at: str) -> None:
        """A timeout at a live decision (a person's, or a replayed one): logged at its moment,
        the timers polled, and the decision asked again (GameAsking._decide's loop)."""
        self.rec(d, "timeout", ("at", at))
        self.poll_timers(d, ctx)
        self.decision_start(d, ctx)

    def scripted_interruptions(self, d: int, shown: Shown) -> None:
        """What a logged game's scripted answers hold before this decision's answer, taken
        first, in order, as GameAsking._decide takes them: timeouts (a replayed live game's,
        or a decisions file's: the clock set to them, the timers polled) and events people
        raised (interpreter/compile/raised.py). Anything else in their place is the answer
        (scripted.py `_forced_answer`), or the interpreter's bad-input error."""
        raisable = self.raises_here()
        kinds = "'timeout' in FQ[0] or 'raise' in FQ[0]" if raisable else "'timeout' in FQ[0]"
        self.emit(d, f"while FQ and type(FQ[0]) is dict and ({kinds}):")
        d1 = d + 1
        if raisable:
            self.emit(d1, "if 'timeout' in FQ[0]:")
            d1 += 1
        if self.live:
            self._timed_out(d1, shown.ctx, "_LV.timeout(FQ)")
        else:  # a modelled clock stands at the timeout's moment
            self.emit(d1, "now = FQ.popleft()['timeout']")
            self._timed_out(d1, shown.ctx, "now")
        if raisable:
            self.emit(d1 - 1, "else:")
            self.scripted_raise(d1, shown.ctx)
            self.decision_start(d1, shown.ctx)  # asked again

    def decision_times(self, only: str = "False") -> list[tuple[str, str]]:
        """The moments a live game logs with a decision someone was asked (Game._took with a
        real clock): none for the one legal option (`only`, source of a truth value)."""
        if not self.live:
            return [("", f"**({{'only': True}} if {only} else {{}})")] if only != "False" \
                else []
        if only == "False":
            return [("asked", "_ak"), ("at", "_LV.now()")]
        return [("", f"**({{'only': True}} if {only} else {{'asked': _ak, 'at': _LV.now()}})")]

    def _ask_person(self, did: str, values: Any, legal: tuple, c: str, d: int, who: Ex,
                    shown: Shown) -> None:
        """`c` = the person's answer: the door asks them; the answer is matched as a
        decisions file's answer is. Asked again after a timeout or an event they raised, with
        the prompt and labels worked out again (the interpreter renders them when shown)."""
        e = self.emit
        an = self.temp("an")
        timed, raisable = self.live and bool(self.timers), bool(self.raisable())
        if not (timed or raisable):
            e(d, f"{an} = {self._request(did, values, legal, d, who, shown)}")
        else:
            e(d, "while True:")
            e(d + 1, f"{an} = {self._request(did, values, legal, d + 1, who, shown)}")
            if timed:
                e(d + 1, f"if {an} is _TIMEOUT:")
                self._timed_out(d + 2, shown.ctx, "_LV.now()")
                e(d + 2, "continue")
            if raisable:  # (raised here: raises_here holds in every logged game)
                e(d + 1, f"if type({an}) is _Raised:")
                self.raised(d + 2, shown.ctx, f"{an}.event", f"{an}.by", "False")
                self.decision_start(d + 2, shown.ctx)
                e(d + 2, "continue")
            e(d + 1, "break")
        e(d, f"FQ.append({an})")
        e(d, f"{c} = {self.forced_src(did, values, legal, who)}")

    def _request(self, did: str, values: Any, legal: tuple, d: int, who: Ex,
                 shown: Shown) -> str:
        """The door's question (source of the call), its prompt and option labels worked out
        first (outside the work meter)."""
        e = self.emit
        prompt = "None"
        if "prompt" in shown.spec:
            prompt = self._for_log("pq", self.text_of(shown.spec["prompt"], shown.ctx.scope), d)
        head = (f"{did!r}, {who.src}, {self.step_path!r}, {bool(shown.spec.get('sealed'))}, "
                f"prompt={prompt}")
        mode = legal[0]
        if mode == "number":
            return f"_LV.ask({head}, low={legal[1]}, high={legal[2]})"
        os, i = self.temp("os"), self.temp("i")
        items = self.const(legal[1], "LG") if mode == "static" else legal[1]
        e(d, f"{os} = []")
        e(d, f"for {i} in {items}:")
        if mode == "values":  # a seat, a die's or card's number, a cell's id, a value
            label = "None"
            if "option_label" in shown.spec:
                label = self._for_log("lb", self.text_of(
                    shown.spec["option_label"],
                    {**shown.ctx.scope, "option": Ex(i, values, True)}), d + 1)
            e(d + 1, f"{os}.append(({i}, {label}))")
            kind = values
        else:  # named options, by their names
            # Each option's own label as the log has it (None: people see its name).
            label = self._labels(shown.named, i, d + 1, shown.ctx, shown.more) or "None"
            e(d + 1, f"{os}.append(({self.const(tuple(values), 'VA')}[{i}], {label}))")
            kind = "name"
        costs = "" if shown.points is None else \
            f", points={shown.points}, costs={self.const(shown.costs, 'CO')}"
        return f"_LV.ask({head}, kind={kind!r}, options={os}{costs})"
