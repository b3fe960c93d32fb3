"""Phase 6, run: the small run-time helpers the step closures call.

Input: a game, an environment and the values a step works on. Output: the step's name, the
dice a `roll` names, its record (who rolled each die) and the events raised at its prompt,
an option's label made when shown,
and the bookkeeping of option limits (`limit: {times, per}`), shared by the step closures
(interpreter/engine/steps.py) and the decision steps (decision_steps.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dsl.builtins import EvalError
from dsl.compiler import metered, not_rolled
from dsl.effects import EFFECTS
from interpreter.engine.decisions import Option
from interpreter.engine.signals import RuleError
from interpreter.engine.values import Die, Player, Team, Zone


def step_name(step: Any) -> str:
    if isinstance(step, str):
        return step
    return next(k for k in step if k in EFFECTS)


def label_later(template: Callable | None, env: Any) -> Callable | None:
    return (lambda: template(env)) if template is not None else None


def period_of(g, per: str) -> int:
    return {"turn": g.turn, "round": g.round, "phase": g.phase_count, "game": 0}[per]


def within_limit(g, did: str, opt: Option, player) -> bool:
    spec = opt.spec
    if spec is None or getattr(spec, "limit", None) is None:
        return True
    times, per = spec.limit
    used = g.uses.get((did, opt.key, player.seat if player is not None else 0, per,
                       period_of(g, per)), 0)
    return used < times(g.env)


def count_use(g, did: str, opt: Option, player) -> None:
    if opt.spec is None or opt.spec.limit is None:
        return
    per = opt.spec.limit[1]
    key = (did, opt.key, player.seat if player is not None else 0, per, period_of(g, per))
    g.uses[key] = g.uses.get(key, 0) + 1


def raised_at_roll(g, path: tuple) -> None:
    """Events the table raised while it was asked for a roll's faces (`at_roll` in a log or a
    decisions file): raised again just before that roll, where they happened. A log's entry
    knows how many rolls came before it (`rolls`, journal.script): rolls the rules make
    before that one (a trigger's, a bot's turn) go by without it."""
    forced = g.forced
    while forced and type(forced[0]) is dict and forced[0].get("at_roll") and (
            "raise" in forced[0]) and forced[0].get("rolls", g.rolls) == g.rolls:
        g.raise_scripted(forced.popleft(), path)


def dice_in(value: Any, path: tuple) -> list[Die]:
    if type(value) is Die:
        return [value]
    if type(value) is list and all(type(d) is Die for d in value):
        return list(value)  # the common case: a list of dice
    out: list[Die] = []

    def walk(v):
        if isinstance(v, Die):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            for x in v:
                walk(x)
        elif isinstance(v, Zone):
            walk(v.items)
        else:
            raise RuleError("runtime-error", not_rolled(v),
                            path + ("roll",))
    walk(value)
    return out


def named_doer(by: Callable, env: Any) -> str | None:
    """The player or team a step's `by` names (None: the table, or a value that names
    nobody). It only names who did something, for the log: worked out outside the work
    budget, so a game played without a log goes exactly the same way."""
    try:
        with metered(None):
            doer = by(env)
    except (RuleError, EvalError):
        return None
    return doer.name if isinstance(doer, (Player, Team)) else None


def record_roll(g, dice: list[Die], faces: list, by: Callable | None, env: Any) -> None:
    """Logs a roll with who rolled each die (`by`: the step's `by`, compiled, or None): the
    one the rules name; else a die's zone's owner; else the player whose turn it is; else
    (setup, a phase's `on_begin`) the table, written None. `by` only names the roller, so it
    is worked out only for the log, outside the work budget, and a value it cannot give is
    the table: a game played without a log goes exactly the same way."""
    if by is not None:
        rollers = [named_doer(by, env)] * len(dice)
    else:
        default = g.current.name if g.in_turn else None
        rollers = []
        for d in dice:
            z = g.zone_of(d)
            rollers.append(z.owner.name if z is not None and z.owner is not None else default)
    g.record_items("roll", dice, dice=[d.id for d in dice], faces=faces, by=rollers)
