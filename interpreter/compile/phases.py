"""Phase 5b, compile for simulation (specializer): the phases the flow is written for, and the
steps that leave a phase.

Input: the ruleset's `flow.phases` (their `next`), its `goto` steps and the generator of
interpreter/compile/specialize.py. Output (as a mixin of its `_Gen`): the list of phases the
game's function is written for (the phases' loop numbers them in its order: `ph`), each
phase's `next` as conditions, and the code of `end_phase` and `goto`: both raise `_EndPhase`,
a `goto` with the name of the phase it goes to, which the phase's handler keeps (`_gt`) and
follows instead of the phase's `next` once its `on_end` has run (interpreter/compile/flow.py
`phase`), as Game._run_phase does.
"""

from __future__ import annotations

from interpreter.compile.base import Ex, _Ctx


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
            self._gotos, todo = set(), [self.data]
            while todo:
                x = todo.pop()
                if isinstance(x, dict):
                    if isinstance(x.get("goto"), str):
                        self._gotos.add(x["goto"])
                    todo.extend(x.values())
                elif isinstance(x, list):
                    todo.extend(x)
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
        self.emit(d, "raise _EndPhase()")

    def _s_goto(self, spec: dict, d: int, ctx: _Ctx) -> None:
        # Ends the phase as `end_phase` does, naming the next (flow.py `phase` goes there).
        self._only(spec, "goto")
        self.emit(d, f"raise _EndPhase({str(spec['goto'])!r})")
