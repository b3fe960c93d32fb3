"""Phase 5, compile (simulation): walks of a ruleset's data that the code generator makes
before it writes (interpreter/compile/specialize.py).

Input: a ruleset's data (the loaded, checked mapping). Output: its step lists and every step
in them, in order; the data path of every list in it by the list's identity, where a
refusal is located; whether an `end_game` step names the winners.
"""

from __future__ import annotations

from typing import Any


def walk_steps(steps: Any):
    """Every step of a step list, and of the lists inside it (`then`, `else`, `repeat`,
    `do`, and the `do` of each option of a decision), in order."""
    for step in steps or []:
        yield step
        if not isinstance(step, dict):
            continue
        for key in ("then", "else", "repeat", "do"):
            if isinstance(step.get(key), list):
                yield from walk_steps(step[key])
        opts = step.get("options")
        if isinstance(opts, dict):
            for o in opts.values():
                if isinstance(o, dict):
                    yield from walk_steps(o.get("do"))


def all_step_lists(data: dict):
    """The ruleset's top step lists: each phase's, each procedure's, trigger's and check's."""
    for spec in data["flow"]["phases"].values():
        for key in ("do", "on_begin", "on_end"):
            yield spec.get(key)
    for section in ("procedures", "triggers", "checks"):
        for spec in (data.get(section) or {}).values():
            yield spec.get("do")


def list_paths(data: Any, path: tuple = ()) -> dict[int, tuple]:
    """The data path of every list in the ruleset, by identity (where a refusal is located)."""
    out: dict[int, tuple] = {}
    todo = [(data, path)]
    while todo:
        value, at = todo.pop()
        if isinstance(value, list):
            out[id(value)] = at
            todo += [(v, (*at, i)) for i, v in enumerate(value) if isinstance(v, (list, dict))]
        elif isinstance(value, dict):
            todo += [(v, (*at, k)) for k, v in value.items() if isinstance(v, (list, dict))]
    return out


def ends_naming_winners(data: dict) -> bool:
    """Whether an `end_game` step names the winners (its own key, or its body's)."""
    return any(isinstance(s, dict) and "end_game" in s and "winners" in (
        s["end_game"] if isinstance(s["end_game"], dict) else s)
        for steps in all_step_lists(data) for s in walk_steps(steps))
