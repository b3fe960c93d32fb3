"""Phase 6, run (engine decisions): a decision asked of whoever answers it.

Input: a `Request` from a `choose`, `actions` or race step. Output: the chosen `Option` (or
number), taken first from the scripted answers (a `--decisions` file, a log being replayed
or resumed), else from the seat's controller; counted, logged, with the moments of a live
decision and the timers that ran out while people thought; and the events people raise
(`raisable`, `raise_scripted`, `raise_event`). A mixin of `Game`
(interpreter/engine/game.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dsl.builtins import EvalError
from dsl.compiler import Env, metered
from interpreter.engine.compile_expr import cond
from interpreter.engine.decisions import Option, Request, answer_key
from interpreter.engine.script_errors import (
    illegal_answer,
    legal_keys,
    legal_range,
    not_a_raiser,
    not_raisable,
    unexpected_decision,
)
from interpreter.engine.signals import RuleError, no_legal_option
from interpreter.engine.values import plain

TIMEOUT = object()  # a controller's answer when a timer ran out before a person answered


@dataclass
class Raised:
    """A controller's answer when a person raised an event instead of deciding."""

    event: str
    by: str | None = None


class ScriptEnded(Exception):  # noqa: N818 - a signal to the caller, not a failure
    """Scripted decisions ran out where the caller asked them to be the only source."""


class GameAsking:
    """Asks decisions (a mixin of Game)."""

    # -- decisions -------------------------------------------------------------------------------
    def decide(self, req: Request) -> Option | int:
        if not req.numeric and not req.options:
            raise no_legal_option(req.id, req.player.name, req.path)
        if not (self.forced or self.on_decision or self.script_only or self.clock.real
                or self.expected_state is not None):
            # The common case of a simulation, in short: nothing scripted, nobody watching.
            if len(req.options) == 1 and not req.numeric:
                chosen = req.options[0]
                self._took(req, chosen, only=True)
                return chosen
            chosen = self.controllers[req.player.seat - 1].decide(self, req)
            if chosen is not TIMEOUT and not isinstance(chosen, Raised):
                self._took(req, chosen)
                return chosen
            return self._decide_again(req, chosen)
        return self._decide(req)

    def _decide_again(self, req: Request, answer: Any) -> Option | int:
        """A controller timed out or raised an event in the fast lane: handle it as `_decide`
        would, then ask again."""
        if answer is TIMEOUT:
            self.record("timeout", at=self.clock.now())
            self.poll_timers()
        else:
            self.raise_event(answer.event, answer.by)
        return self._decide(req)

    def _decide(self, req: Request) -> Option | int:
        if not self.forced and getattr(self.clock, "replaying", False):
            self.clock.go_live()  # a resumed live game: the logged part is replayed
        if self.check_restored is not None and len(self.log) >= self.replay_until:
            self.check_restored(self)  # a restored game has replayed to its saved decision
        if self.on_decision is not None:
            self.on_decision(self, req)
        real = self.clock.real
        only = False
        while True:
            asked = self.clock.now() if real else None
            entry = self.forced[0] if self.forced else None
            if isinstance(entry, dict) and "asked" in entry:
                self.clock.set(entry["asked"])  # a replay of live play: the same moments
                asked = entry["asked"]
            if real:
                self.poll_timers()  # a timer that ran out while people thought
            if len(req.options) == 1 and not req.numeric:
                chosen = req.options[0]  # nothing to decide: nobody is asked, no script used
                only = True
                break
            if self.forced:
                entry = self.forced.popleft()
                if isinstance(entry, dict) and "timeout" in entry:
                    self.clock.set(entry["timeout"])
                    self.record("timeout", at=entry["timeout"])
                    self.poll_timers()
                    continue
                if isinstance(entry, dict) and "raise" in entry:
                    self.raise_scripted(entry, req.path)
                    continue
                if isinstance(entry, dict) and "at" in entry:
                    self.clock.set(entry["at"])
                chosen = self._scripted(req, entry)
            elif self.script_only:
                raise ScriptEnded(req.id)
            else:
                chosen = self.controllers[req.player.seat - 1].decide(self, req)
                if chosen is TIMEOUT:
                    self.record("timeout", at=self.clock.now())
                    self.poll_timers()
                    continue
                if isinstance(chosen, Raised):
                    self.raise_event(chosen.event, chosen.by)
                    continue
            break
        if real and not only:
            self._took(req, chosen, asked=asked, at=self.clock.now())
        else:
            self._took(req, chosen, only=only)
        return chosen

    def _took(self, req: Request, chosen: Option | int, only: bool = False, **when) -> None:
        """Counts a decision and logs it. `only`: the one legal option, which a replay does
        not script; `when`: the moments of a live decision (asked, at)."""
        key = answer_key(chosen)
        k = (req.id, key if isinstance(key, (str, int, float, bool)) or key is None
             else str(key))
        self.chosen[k] = self.chosen.get(k, 0) + 1
        if not self.logging:
            return
        if req.sealed:
            when["sealed"] = True  # narrated to its decider only, until the reveal
        label = None if only else _label(chosen)  # nobody chose a lone option: not narrated
        if label is not None:
            when["label"] = label  # the narration says the choice as people read it
        if only:
            self.record("decision", id=req.id, by=req.player.name, choice=plain(key),
                        only=True, **when)
        else:
            self.record("decision", id=req.id, by=req.player.name, choice=plain(key), **when)

    def _scripted(self, req: Request, entry: Any) -> Option | int:
        answer = entry
        if isinstance(entry, dict):
            if entry.get("id") not in (None, req.id):
                raise unexpected_decision(entry.get("id"), req.id, req.player.name, req.path)
            answer = entry.get("choice")
        chosen = req.match(answer)
        if chosen is None:
            legal = (legal_range(req.low, req.high) if req.numeric
                     else legal_keys(o.key for o in req.options))
            raise illegal_answer(answer, req.id, req.player.name, legal, req.path)
        return chosen

    # -- events people raise ----------------------------------------------------------------------
    def raisable(self) -> list[str]:
        """The events people may raise now: declared `raised_by` someone other than the rules,
        and their `during` holds."""
        out = []
        for name, spec in (self.program.data.get("events") or {}).items():
            if spec.get("raised_by", "rules") == "rules":
                continue
            during = spec.get("during")
            if during is not None:
                try:
                    if not cond(during, ("events", name, "during"))(Env({}, self.env)):
                        continue
                except Exception:  # noqa: BLE001 - asking what may be raised never stops a game
                    continue
            out.append(name)
        return out

    def raise_scripted(self, entry: dict, path: tuple = ()) -> None:
        """An event a decision script or a log raises: only one people may raise, by a player
        of this game or the table; anything else is a bad script, located."""
        name, by = entry["raise"], entry.get("by")
        # Outside its `during` an event may be raised, and changes nothing (as a call at the
        # table before it counts); one the rules alone raise, or no event, is a bad script.
        events = [n for n, spec in (self.program.data.get("events") or {}).items()
                  if spec.get("raised_by", "rules") != "rules"]
        if name not in events:
            raise not_raisable(name, events, path)
        if by is not None and by != "table" and by not in {p.name for p in self.players}:
            raise not_a_raiser(name, by, path)
        if "at" in entry and self.clock.real:  # a replay of live play: the same moment
            self.clock.set(entry["at"])
        self.raise_event(name, by, at_roll=bool(entry.get("at_roll")))

    def raise_event(self, name: str, by: str | None = None, at_roll: bool = False) -> None:
        """An event raised from outside the rules: by a player at the table (`by`), or by a
        modelled hazard. `at_roll`: raised while the table was asked for a roll's faces (a
        replay raises it again before that roll: step_runtime.raised_at_roll). On a real clock
        it is logged with its moment (`at`), which a replay or resume sets the clock to: what
        it starts (a timer stopped by its rules) then happens at the same moment."""
        where = {"at_roll": True} if at_roll else {}
        if self.clock.real and by is not None:
            where["at"] = self.clock.now()
        if by is None:
            self.record("raised", event=name, **where)
        else:
            self.record("raised", event=name, by=by, **where)
        self.fire(name, {"by": by})


def _label(chosen: Option | int) -> str | None:
    """The chosen option's own label (its `label`, or the decision's `option_label` made for
    it), when it has one that says more than its key; None otherwise. Made for the log only,
    outside the work budget, and a label that cannot be made is left out: a game played
    without a log goes the same way."""
    if not isinstance(chosen, Option) or (chosen.render is None and (
            not chosen.label or chosen.label == str(chosen.key))):
        return None
    try:
        with metered(None):
            text = chosen.shown()
    except (RuleError, EvalError):
        return None
    return text if isinstance(text, str) and text and text != str(chosen.key) else None
