"""Phase 5, compile (specializer): the rule errors the generated code locates itself.

Input: the places where the generated code tests a budget exactly where the interpreter
tests it: a turn that begins past `limits.max_turns`, a pass of a phase, a `repeat` or a
decision's actions past its `max` or `limits.max_loop`. Output: for each, a site (a constant of
the game function, written into its `raise _Stop(SITE, values...)`), and `located`, which
turns a site and the values it was raised with into the interpreter's own `RuleError`, built
by the same functions (interpreter/engine/signals.py), so both engines word and locate it alike.

The game function catches such a `_Stop` where it ends (interpreter/compile/flow.py): unless
the step budget had passed first (the interpreter then stopped earlier, at a step the fast
code does not test on its own), it scores the game as the interpreter scores a stopped one
and returns the site in its tuple; the counts it returns are exact there, as they are at
every loop's head. Any other `_Stop` (a rule error the code does not locate) goes to the
interpreter, which replays the seed for its located message and counts
(interpreter/compile/played.py `MustStop`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.signals import RuleError, past_passes, past_steps, past_turns


def steps_site(max_steps: int) -> tuple:
    """An operation's step counted against `limits.max_steps` (raised with no values): a
    logged game tests it after every operation, as the interpreter, so that it makes no
    record the interpreter's game does not make."""
    return ("steps", max_steps)


def turns_site(max_turns: int, phase: str) -> tuple:
    """A turn of `phase` tested against `limits.max_turns` (raised with no values)."""
    return ("turns", max_turns, phase)


def passes_site(max_loop: int, what: str, cap_path: tuple, loop_path: tuple) -> tuple:
    """A loop's pass tested against its `max` and `limits.max_loop` (raised with the pass
    number and the `max`, None when it has none): as `signals.past_passes`."""
    return ("passes", max_loop, what, cap_path, loop_path)


def located(stopped: tuple) -> RuleError | None:
    """The interpreter's error for `stopped` (a site and the values raised with it); None
    when the values are within the site's limits (the generated code's fault)."""
    site, *values = stopped
    if site[0] == "steps":
        return past_steps(site[1])
    if site[0] == "turns":
        return past_turns(site[1], site[2])
    passes, cap = values
    return past_passes(passes, cap, *site[1:])


def raise_at(const: Callable[[Any, str], str], site: tuple, *values: str) -> str:
    """The statement that stops the game at `site`, raising the values (their sources)
    `located` reads; `const` is the writer's, which makes the site a constant."""
    return "raise _Stop(" + ", ".join((const(site, "SE"), *values)) + ")"
