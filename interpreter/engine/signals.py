"""Phase 6, run (signals): the interrupts of the flow and the runtime error type.

Input: nothing. Output: exceptions the engine raises and catches: `Break` leaves a loop,
`EndTurn`, `EndPhase` and `Goto` leave the turn or the phase, `EndGame` ends the game, and
`RuleError` stops a game whose rules cannot go on (a budget exceeded, a value an expression
cannot work with), located by the data path of the rule (and the offset in its expression).
"""

from __future__ import annotations

from typing import Any

from dsl.compiler import kind


class Signal(Exception):  # noqa: N818 - these are interrupts of the flow, not errors
    """An interrupt of the flow (not an error). `path` is the data path of the step that
    raised it: where a game is stopped when nothing around the step can take it."""

    path: tuple = ()

    def at(self, path: tuple) -> Signal:
        self.path = path
        return self


class Break(Signal):
    pass


class EndTurn(Signal):
    pass


class EndPhase(Signal):
    pass


class Goto(Signal):
    def __init__(self, phase: str):
        super().__init__(phase)
        self.phase = phase


class EndGame(Signal):
    def __init__(self, reason: str = "", winners: list | None = None):
        super().__init__(reason)
        self.reason = reason
        self.winners = winners


class RuleError(Exception):
    """The game cannot go on. `path` is the data path of the rule in the ruleset; `pos` the
    (start, end) offsets in the rule's expression, when an expression failed."""

    def __init__(self, code: str, message: str, path: tuple = (), pos: Any = None,
                 hint: str | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.path = path
        self.pos = pos
        self.hint = hint


# -- errors both engines meet at the same places --------------------------------------------
# One text for each, built here for the interpreter (game.py, steps.py, asking.py,
# decision_steps.py) and for the generated code, which stops at the same places
# (interpreter/compile/stops.py).

# An interrupt that nothing around it takes (a procedure's `break` called outside any loop, an
# `end_turn` called where there are no turns), told in the language's words.
_UNHELD = {
    Break: ("'break' ran outside any repeat or for_each",
            "a procedure's break leaves the loop around its call: call it inside a repeat or "
            "for_each, or end the procedure another way"),
    EndTurn: ("'end_turn' ran outside a turn",
              "call this where players take turns (a phase with `turns`)"),
    EndPhase: ("'end_phase' ran outside a phase",
               "use it in a phase's steps or in a procedure called from them"),
    Goto: ("'goto' ran outside a phase", "use it in a phase's steps or in a procedure called "
           "from them"),
}


def cannot_add(amount: str, old: str, path: tuple) -> RuleError:
    """An `add` step at `path` of `amount` to a target holding `old` (each as
    values.told tells it), one of them not a number."""
    return RuleError("runtime-error", f"cannot add {amount} to {old}", path)


def bad_transfer(amount: str, path: tuple) -> RuleError:
    """A `transfer` whose amount, at `path` (as values.told tells it), is not a number of 0
    or more."""
    return RuleError("runtime-error", f"a transfer needs an amount of 0 or more, not {amount}",
                     path)


def not_a_racer(who: Any, path: tuple) -> RuleError:
    """A race at `path` whose racer `who` is not a player or team."""
    return RuleError("runtime-error", f"racers are players or teams, not {kind(who)}",
                     (*path, "by"))


def bad_winners(what: str, path: tuple) -> RuleError:
    """An `end_game` at `path` whose `winners` holds `what` (none, say), not only players."""
    return RuleError("runtime-error", f"the winners of end_game must be players, not {what}",
                     (*path, "winners"))


def bad_seconds(what: str, path: tuple) -> RuleError:
    """A `duration` or `wait` at `path` that is `what` (dsl.compiler.kind), not a number of
    seconds (a die's face before its first roll is none)."""
    return RuleError("runtime-error", f"a duration must be a number of seconds, not {what}",
                     path)


def bad_race_number(field: str, value: str, path: tuple) -> RuleError:
    """A race at `path` whose `field` (a rate, a capacity...) for a racer is `value` (as
    values.told tells it), not a number of 0 or more."""
    return RuleError("runtime-error", f"a race's {field} must be a number of 0 or more, "
                     f"not {value}", (*path, field))


def not_a_reporter(key: Any, path: tuple) -> RuleError:
    """A race at `path` whose `counts_per` gives `key` for a racer, not a player or team."""
    return RuleError("runtime-error", f"a race's counts_per must give a player or a team, "
                     f"not {kind(key)}", (*path, "counts_per"))


def not_eliminable(shown: str, path: tuple) -> RuleError:
    """An `eliminate` step at `path` of something (as values.show shows it) not a player."""
    return RuleError("runtime-error", f"only a player can be eliminated, not {shown}",
                     (*path, "eliminate"))


def not_movable(shown: str, path: tuple) -> RuleError:
    """A `move` at `path` of something (as values.show shows it) not a die or card."""
    return RuleError("runtime-error", f"only dice and cards can be moved, not {shown}", path,
                     hint="`move: ZONE` moves what the zone holds, in order")


def zone_full(zone: str, most: int, path: tuple) -> RuleError:
    """Items put into the zone `zone` (its id) past its capacity `most`, by the step at
    `path` (its `to`), or at the start (a component's `in`)."""
    return RuleError("runtime-error", f"zone {zone} holds at most {most}", path)


def moved_twice(item: str, path: tuple) -> RuleError:
    """A `move` at `path` whose list names the die or card `item` (its id) twice."""
    return RuleError("runtime-error", f"{item} is listed twice in one move", path,
                     hint="move each die or card once")


def bad_count(shown: str, path: tuple) -> RuleError:
    """A draw's or a deal's count, at `path` (as values.show shows it), that is not a whole
    number of 0 or more."""
    return RuleError("runtime-error", f"a count of items must be a whole number of 0 or more, "
                     f"not {shown}", path)


def unheld(kind: type, path: tuple) -> RuleError:
    """An interrupt of the flow (`Break`, `EndTurn`, `EndPhase`, `Goto`) raised by the step
    at `path` where nothing around it takes it."""
    said, hint = _UNHELD[kind]
    return RuleError("runtime-error", said, path, hint=hint)


def checks_hold(max_chain: int) -> RuleError:
    """The checks still fired after `limits.max_chain_depth` rounds."""
    return RuleError("budget-exceeded", f"checks still hold after {max_chain} rounds of "
                     "firing (their steps never make their condition false)", ("checks",))


def calls_too_deep(max_chain: int, proc: str, path: tuple) -> RuleError:
    """A call of `proc` (the step at `path`) deeper than four times the chain depth."""
    return RuleError("budget-exceeded", f"procedure calls nest deeper than {max_chain * 4} "
                     f"(calling '{proc}')", path)


def triggers_too_deep(max_chain: int, event: str, trigger: str) -> RuleError:
    """`event` raised deeper than `limits.max_chain_depth`; `trigger` its first trigger."""
    return RuleError("budget-exceeded", f"triggers fired each other more than {max_chain} "
                     f"deep (on '{event}')", ("triggers", trigger))


def asked_twice(player: str, path: tuple) -> RuleError:
    """A decision's `by` (at `path`) that lists `player` (a name) twice."""
    return RuleError("runtime-error", f"{player} is asked twice in one decision", path,
                     hint="list each player once in `by`")


def no_decider(shown: str, path: tuple) -> RuleError:
    """A decision whose `by` (at `path`) names no player but the value `shown`."""
    return RuleError("runtime-error", f"a decision needs a player to decide, not {shown}", path)


def no_legal_option(decision: str, player: str, path: tuple) -> RuleError:
    """A decision asked of `player` (a name) where no option is legal."""
    return RuleError("no-legal-option", f"decision '{decision}' has no legal option for "
                     f"{player}", path)


def past_steps(max_steps: int) -> RuleError:
    """An operation counted past `limits.max_steps`."""
    return RuleError("budget-exceeded", f"the game went past {max_steps} steps "
                     "(limits.max_steps)")


def items_past_steps(max_steps: int) -> str:
    """The words of the work meter past `limits.max_steps` (an expression's items counted
    with the steps: located at the expression's node that counted them)."""
    return (f"the game went past {max_steps} steps (limits.max_steps), counting the items its "
            "expressions went through")


def past_turns(max_turns: int, phase: str) -> RuleError:
    """A turn began past `limits.max_turns`, in `phase`."""
    return RuleError("budget-exceeded", f"the game went past {max_turns} turns "
                     f"(limits.max_turns)", ("flow", "phases", phase),
                     hint="a phase's repeat may never end")


def no_count(key: str) -> str:
    """The words of a repeat's `times` or `max` (`key`) that is none (a die not rolled yet):
    no number of passes (the generated code's too)."""
    return f"a repeat's {key} must be a whole number, not none"


def counted_passes(value: Any, key: str, path: tuple) -> Any:
    """A repeat's `times` or `max` (`key`, worked out at `path`) as a number of passes; none
    stops the game there (neither "no count" nor "no max")."""
    if value is None:
        raise RuleError("runtime-error", no_count(key), path)
    return value


def past_passes(passes: int, cap: Any, max_loop: int, what: str, cap_path: tuple,
                loop_path: tuple) -> RuleError | None:
    """A loop's pass number `passes` past its own `max` (`cap`, None: none; the error at
    `cap_path`, naming the loop as `what`: "this repeat", "phase 'NAME'") or past
    `limits.max_loop` (at `loop_path`). None while the pass is within both."""
    if cap is not None and passes > cap:
        return RuleError("budget-exceeded", f"{what} ran more than its max of {cap} passes",
                         cap_path)
    if passes > max_loop:
        return RuleError("budget-exceeded", f"a loop ran more than {max_loop} passes "
                         "(limits.max_loop)", loop_path)
    return None


class Undo(Exception):  # noqa: N818 - a request from the table, not a failure
    """People at the table take back the last thing they entered (a typed die, a decision, a
    race report). The command rebuilds the game without it (interpreter/cli/run.py)."""
