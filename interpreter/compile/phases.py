"""Phase 5b, compile for simulation (specializer): the phases the flow is written for, and the
steps that leave a phase.

Input: the ruleset's `flow.phases` (their `next`), its `goto` steps and the generator of
interpreter/compile/specialize.py. Output (as a mixin of its `_Gen`): the list of phases the
game's function is written for (the phases' loop numbers them in its order: `ph`), each
phase's `next` as conditions, and the code of `end_phase` and `goto`: both raise `_EndPhase`,
a `goto` with the name of the phase it goes to, which the phase's handler keeps (`_gt`) and
follows instead of the phase's `next` once its `on_end` has run (interpreter/compile/flow.py
`phase`), as Game._run_phase does. And a pass over the game's lines (`unheld`): an
`end_turn`, `end_phase` or `goto` no turn or phase takes (in a phase's `on_end`, say) stops
the game at its step, as Game.run does; one a turn or phase takes carries nothing more.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from interpreter.compile.base import Ex, _Ctx, data_values
from interpreter.compile.peephole import enclosing, line_indent, try_handlers

UNHELD = "#unheld"  # where the game's function takes what no turn or phase takes
_LEAVING = re.compile(r"raise (_EndTurn|_EndPhase)\((.*?)(?:, )?__UNHELD_(\d+)__\)$")
_TAKEN = {"_EndTurn": ("except _EndTurn:",),
          "_EndPhase": ("except _EndPhase:", "except _EndPhase as _ep:")}


def unheld(lines: list[str], sites: list[tuple], const: Callable[[Any, str], str]) -> list[str]:
    """The game's lines with each `end_turn`, `end_phase` and `goto` raise's site marker
    (StopWriter.leaving) dropped where a turn's or a phase's handler lies on its way out,
    else made the site's constant; and, where one is kept, the game's own handler at
    `UNHELD`: it stops the game at that step, as Game.run stops one no turn or phase takes
    (`unheld`: raised in a phase's `on_end`, a `game_start` trigger...). A raise in a
    function of its own (a raiser) keeps its site."""
    out, kept = [], False
    for i, line in enumerate(lines):
        m = _LEAVING.match(line.strip())
        if m is not None:
            signal, values, k = m.groups()
            if _taken(lines, i, _TAKEN[signal]):
                values = "" if values == "None" else values
                line = " " * line_indent(line) + f"raise {signal}({values})"
            else:
                kept = True
                site = const(sites[int(k)], "SE")
                line = " " * line_indent(line) + \
                    f"raise {signal}({values + ', ' if values else ''}{site})"
        out.append(line)
    at = next(i for i, line in enumerate(out) if line.strip() == UNHELD)
    pad = " " * line_indent(out[at])
    out[at:at + 1] = [pad + "except (_EndTurn, _EndPhase) as _sg:",
                      pad + "    if not _sg.args or type(_sg.args[-1]) is not tuple:",
                      pad + "        raise",  # a step whose place is not known: a fault
                      pad + "    stopped = (_sg.args[-1],)",
                      pad + "    reason = None"] if kept else []
    return out


def _taken(lines: list[str], i: int, handlers: tuple[str, ...]) -> bool:
    """Whether a `try` whose handlers include one of `handlers` holds the raise at `i` in its
    body, no function lying between them."""
    for h in enclosing(lines, i):
        head = lines[h].lstrip()
        if head.startswith("def "):
            return False
        if head.startswith("try:") and any(x in handlers for x in try_handlers(lines, h)):
            return True
    return False


class PhaseWriter:
    """The phases and the steps that leave them (a mixin of _Gen)."""

    def reachable(self) -> list[str]:
        """Phases some parameter setting reaches, the first phase's first (a `next` whose
        condition is false for these parameter values is not followed; a phase a `goto`
        names is reached)."""
        phases = self.data["flow"]["phases"]
        out, todo = [], [self.p.start, *sorted(t for t in self.gotos if t in phases)]
        while todo:
            name = todo.pop()
            if name == "end" or name in out:
                continue
            out.append(name)
            for test, to in self._next(name):
                if test is None or test.const is not False:
                    todo.append(to)
        return out

    @property
    def gotos(self) -> set[str]:
        """The phases `goto` steps name anywhere in the ruleset (each is reached)."""
        if not hasattr(self, "_gotos"):
            self._gotos = {x["goto"] for x in data_values(self.data)
                           if isinstance(x, dict) and isinstance(x.get("goto"), str)}
        return self._gotos

    def _next(self, name: str) -> list[tuple[Ex | None, str]]:
        nxt = self.data["flow"]["phases"][name].get("next", "end")
        if isinstance(nxt, str):
            return [(None, nxt)]
        return [(self.cond_at(x["if"], {}, path=("flow", "phases", name, "next", i, "if"))
                 if "if" in x else None, x["to"]) for i, x in enumerate(nxt)]

    def phase_list(self, reachable: list[str]) -> list[str]:
        """The phases the flow is written for: those reached from the first, and in a game
        from a position every phase it may begin at."""
        if not self.positioned:
            return reachable
        return [*reachable, *(p for p in self.data["flow"]["phases"] if p not in reachable)]

    def _s_end_phase(self, spec: dict, d: int, ctx: _Ctx) -> None:
        self.emit(d, self.leaving("_EndPhase", "end_phase", "None"))

    def _s_goto(self, spec: dict, d: int, ctx: _Ctx) -> None:
        # Ends the phase as `end_phase` does, naming the next (flow.py `phase` goes there).
        self._only(spec, "goto")
        self.emit(d, self.leaving("_EndPhase", "goto", repr(str(spec["goto"]))))
