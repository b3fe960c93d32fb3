"""The rulebook's sections on how the game is played.

Phase: docs. Input: the checked ruleset's events, flow, procedures, triggers, checks, end and
scoring. Output: `PlaySections`, which writes the sections Events, How the game goes (each
phase: its turns, how long it lasts, its steps, what comes next), Procedures, Triggers, Checks,
The end (every way the game can end, found in the step lists too) and Scoring.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from interpreter.rulebook.document import Inlines, Item, ListBlock, capital, code, joined, prose, text
from interpreter.rulebook.phrases import plain, walk_steps
from interpreter.rulebook.steps import StepWriter

_EVENTS = {"rolled": "When dice are rolled", "drawn": "When something is drawn",
           "moved": "When something is moved", "changed": "When a value changes",
           "decided": "When a decision is taken", "turn_start": "At the start of every turn",
           "turn_end": "At the end of every turn", "round_start": "At the start of every round",
           "round_end": "At the end of every round", "phase_start": "When a phase begins",
           "phase_end": "When a phase ends", "game_start": "When the game starts",
           "timer_expired": "When a timer runs out"}

_RAISED_BY = {"any": "any player", "table": "the table (the referee)",
              "current": "the player whose turn it is", "others": "any player but the current one"}


class PlaySections(StepWriter):
    """Events, How the game goes, Procedures, Triggers, Checks, The end, Scoring."""

    def events_section(self) -> bool:
        if not self.events:
            return False
        self.p([text("Things that happen besides the built-in events, which rules can watch "
                     "(see the triggers).")])
        for name, spec in self.events.items():
            spec = spec or {}
            self.h(3, f"Event: {name}")
            if spec.get("doc"):
                self.p(prose(spec["doc"]))
            notes = []
            raised = spec.get("raised_by")
            if raised and raised != "rules":
                inl = [text(f"Raised by {_RAISED_BY.get(raised, raised)} at any time")]
                if spec.get("during") is not None:
                    inl += [text(" while ")] + self.x(spec["during"]) + [text(" holds")]
                notes.append(inl + [text(".")])
            else:
                notes.append([text("Raised only by the rules.")])
            if spec.get("fields"):
                notes.append([text("It carries ")]
                             + joined([[code(f"event.{f}")] for f in spec["fields"]]) + [text(".")])
            if spec.get("hazard") is not None:
                notes.append([text("In simulation it happens with chance ")]
                             + self.x(spec["hazard"]) + [text(" per second.")])
            self.blocks.append(ListBlock([Item(n) for n in notes]))
        return True

    def flow(self) -> bool:
        flow = self.data.get("flow") or {}
        start = flow.get("start") or next(iter(self.phases), None)
        self.p([text("The game is played in phases, starting with ")] + self.ref("phase", start)
               + [text(". In a phase with turns, “the current player” is the player whose turn "
                       "it is.")])
        for name, spec in self.phases.items():
            self.phase(name, spec or {})
        return True

    def phase(self, name: str, spec: Mapping[str, Any]) -> None:
        self.h(3, f"Phase: {name}")
        if spec.get("description"):
            self.p(prose(spec["description"]))
        turns = spec.get("turns")
        rep = spec.get("repeat") or {}
        if turns is not None:
            turns = turns or {}
            if turns.get("by_team"):
                inl = [text("Turns go to the teams in turn; the team's leader plays it (the "
                            "current player)")]
            else:
                inl = [text("Each player takes a turn")]
            order = turns.get("order", "clockwise")
            if order == "by":
                inl += [text(", in order of ")] + self.x(turns.get("by")) + [text(" (lowest first)")]
            elif order == "counterclockwise":
                inl.append(text(", counterclockwise (against seat order)"))
            else:
                inl.append(text(", clockwise (in seat order)"))
            if turns.get("first") is not None:
                inl += [text(", starting with ")] + self.x(turns["first"])
            if turns.get("skip") is not None:
                inl += [text(", skipping a player when ")] + self.x(turns["skip"])
            inl.append(text(". Eliminated players are skipped. One pass of turns is a round."))
            self.p(inl)
        unit = "rounds" if turns is not None else "passes"
        if rep:
            if "times" in rep:
                inl = [text("The phase lasts ")] + self.x(rep["times"]) + [text(f" {unit}")]
            elif "until" in rep:
                inl = [text(f"{unit.capitalize()} go on until ")] + self.x(
                    rep["until"], "checked after every turn and every round" if turns is not None
                    else "checked after each pass")
            elif "while" in rep:
                inl = [text(f"{unit.capitalize()} go on while ")] + self.x(
                    rep["while"], "checked before each one")
            else:
                inl = [text(f"The phase repeats its {unit}")]
            if "max" in rep:
                inl += [text(", at most ")] + self.x(rep["max"])
            self.p(inl + [text(".")])
        elif turns is None:
            self.p([text("Each time the game comes to this phase, it is played once."
                         if self._comes_back(name) else "This phase is played once.")])
        if spec.get("on_begin"):
            self.p([text("When the phase begins:")])
            self.blocks.append(self.steps(spec["on_begin"]))
        if spec.get("do"):
            self.p([text("On each turn:" if turns is not None else "Steps:")])
            self.blocks.append(self.steps(spec["do"]))
        if spec.get("on_end"):
            self.p([text("When the phase ends:")])
            self.blocks.append(self.steps(spec["on_end"]))
        self.p(self.next(spec.get("next", "end")))

    def next(self, nxt: Any) -> Inlines:
        def to(target: Any) -> Inlines:
            if target == "end":
                return [text("the game ends")]
            return [text("go to ")] + self.ref("phase", target)
        if not isinstance(nxt, list):
            return [text("Then ")] + to(nxt) + [text(".")]
        parts: list[Inlines] = []
        for entry in nxt:
            entry = entry if isinstance(entry, dict) else {}
            if "if" in entry:
                parts.append([text("if ")] + self.x(entry["if"]) + [text(", ")] + to(entry.get("to")))
            else:
                parts.append([text("otherwise ")] + to(entry.get("to")))
                break
        else:
            parts.append([text("otherwise the game ends")])
        return [text("Then: ")] + joined(parts, ";") + [text(".")]

    def procedures_section(self) -> bool:
        if not self.procedures:
            return False
        self.p([text("Step lists the rules carry out by name (“carry out …”).")])
        for name, spec in self.procedures.items():
            spec = spec or {}
            self.h(3, f"Procedure: {name}")
            if spec.get("doc"):
                self.p(prose(spec["doc"]))
            params = spec.get("params") or {}
            if params:
                self.p([text("It is given: ")]
                       + joined([[code(str(k))] + ([text(" (")] + prose(v) + [text(")")]
                                                   if v else []) for k, v in params.items()])
                       + [text(".")])
            self.blocks.append(self.steps(spec.get("do")))
        return True

    def triggers(self) -> bool:
        triggers = self.data.get("triggers") or {}
        if not triggers:
            return False
        self.p([text("These rules apply on their own whenever their event happens and their "
                     "condition holds. Of the triggers watching one event, the higher priority "
                     "goes first (equal ones in the order below); of the triggers that share a "
                     "group, only the first whose condition holds fires.")])
        for name, spec in triggers.items():
            spec = spec or {}
            self.h(3, f"Trigger: {name}")
            if spec.get("doc"):
                self.p(prose(spec["doc"]))
            order: list[Inlines] = []
            if spec.get("group") is not None:
                order.append([text("In the group "), code(str(spec["group"]))])
            if spec.get("priority") is not None or spec.get("group") is not None:
                order.append([text(f"priority {plain(spec.get('priority', 0))}")])
            if order:
                self.p(capital(joined(order, ",")) + [text(".")])
            on = spec.get("on")
            inl = ([text(_EVENTS[on])] if on in _EVENTS else
                   [text("When ")] + self.ref("event", on) + [text(" happens")])
            if spec.get("if") is not None:
                inl += [text(", if ")] + self.x(spec["if"])
            self.p(inl + [text(":")])
            self.blocks.append(self.steps(spec.get("do")))
        return True

    def checks(self) -> bool:
        checks = self.data.get("checks") or {}
        if not checks:
            return False
        self.p([text("These conditions are looked at after everything that happens; whenever "
                     "one holds, its steps are carried out at once.")])
        for name, spec in checks.items():
            spec = spec or {}
            self.h(3, f"Check: {name}")
            if spec.get("doc"):
                self.p(prose(spec["doc"]))
            each = spec.get("for_each")
            inl = ([text(f"For each {each} still in the game, whenever ")] if each
                   else [text("Whenever ")])
            self.p(inl + self.x(spec.get("when")) + [text(":")])
            self.blocks.append(self.steps(spec.get("do")))
        return True

    def end(self) -> bool:
        end = self.data.get("end") or {}
        ways: list[Inlines] = []
        if end.get("doc"):
            self.p(prose(end["doc"]))
        if end.get("when") is not None:
            ways.append([text("as soon as ")]
                        + self.x(end["when"], "looked at after everything that happens"))
        last = [n for n, s in self.phases.items() if self._ends_after(s or {})]
        if last:
            ways.append([text("when the flow ends after the phase ")]
                        + joined([self.ref("phase", n) for n in last], "or"))
        at_once = [where for where, steps in self._all_step_lists()
                   if any(n in ("end_game",) or (n == "goto" and f.get("phase") == "end")
                          for n, f in walk_steps(steps))]
        if at_once:
            ways.append([text("when a rule ends it at once (in ")]
                        + joined([[text(w)] for w in dict.fromkeys(at_once)]) + [text(")")])
        self.p([text("The game ends:")])
        self.blocks.append(ListBlock([Item(w + [text(".")]) for w in ways]))
        return True

    def _comes_back(self, name: str) -> bool:
        """Whether the flow can come back to this phase (a round of phases): through the
        phases' `next` and `goto` steps."""
        seen: set[str] = set()
        todo = list(self._targets(name))
        while todo:
            here = todo.pop()
            if here == name:
                return True
            if here in seen or here not in self.phases:
                continue
            seen.add(here)
            todo.extend(self._targets(here))
        return False

    def _targets(self, name: str) -> list[str]:
        spec = self.phases.get(name) or {}
        nxt = spec.get("next", "end")
        out = [e.get("to") for e in nxt if isinstance(e, dict)] if isinstance(nxt, list) \
            else [nxt]
        for key in ("on_begin", "do", "on_end"):
            out += [f.get("phase") for n, f in walk_steps(spec.get(key)) if n == "goto"]
        return [t for t in out if isinstance(t, str)]

    def _ends_after(self, spec: Mapping[str, Any]) -> bool:
        nxt = spec.get("next", "end")
        if not isinstance(nxt, list):
            return nxt == "end"
        return any(isinstance(e, dict) and e.get("to") == "end" for e in nxt) or all(
            isinstance(e, dict) and "if" in e for e in nxt)

    def _all_step_lists(self) -> Iterator[tuple[str, Any]]:
        for name, spec in self.phases.items():
            for key in ("on_begin", "do", "on_end"):
                yield f"the phase {name}", (spec or {}).get(key)
        for kind, section in (("procedure", self.procedures),
                              ("trigger", self.data.get("triggers") or {}),
                              ("check", self.data.get("checks") or {})):
            for name, spec in section.items():
                yield f"the {kind} {name}", (spec or {}).get("do")

    def scoring(self) -> bool:
        sc = self.data.get("scoring") or {}
        if not sc:
            return False
        if sc.get("doc"):
            self.p(prose(sc["doc"]))
        items: list[Inlines] = []
        if sc.get("winners") is not None:
            items.append([text("The winners are ")] + self.x(sc["winners"])
                         + [text("; the score below only ranks the players." if "score" in sc
                                 else ".")])
        if sc.get("score") is not None:
            order = sc.get("order", "highest")
            verdict = "wins" if "winners" not in sc else "ranks first"
            items.append([text("A player's score is ")] + self.x(sc["score"])
                         + [text(f"; the {order} score {verdict}.")])
        if sc.get("eligible") is not None:
            items.append([text("Only a player for whom ")] + self.x(sc["eligible"])
                         + [text(" holds can win (if nobody does, everyone can).")])
        listed = [Item(i) for i in items]
        if sc.get("tie_break"):
            better = "lower" if sc.get("order") == "lowest" else "higher"
            listed.append(Item([text(f"Ties are broken by these, in turn ({better} is better):")],
                               [ListBlock([Item(self.x(e)) for e in sc["tie_break"]], True)]))
        ties = sc.get("ties", "shared")
        if "winners" not in sc:
            listed.append(Item([text("Players still tied share the win." if ties == "shared"
                                     else "Players still tied: nobody wins (a draw).")]))
        self.blocks.append(ListBlock(listed))
        return True
