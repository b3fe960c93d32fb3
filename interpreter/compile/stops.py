"""Phase 5, compile (specializer): the rule errors the generated code locates itself.

Input: the places where the generated code meets a rule error exactly where the interpreter
meets it: a turn that begins past `limits.max_turns`, a pass of a phase, a `repeat` or a
decision's actions past its `max` or `limits.max_loop`, in a logged game and the checked
version every operation's step against `limits.max_steps`, triggers, procedure calls and checks
past `limits.max_chain_depth`, a decision with no legal option, by nobody or asking a player
twice, a procedure's `break` outside any loop; and, in a logged game and the checked version,
the rule errors met inside an expression whose data path the writer knows (`StopWriter.
value_at`, `cond_at`, `located`): a division or remainder by zero, a list read past its ends, a
map at a key it lacks, a whole number past the language's limit, a text or list a `+` makes
past the longest (base.py `joined`), none where an arithmetic operator or an ordering takes
numbers (base.py `refused`, `divided`), the work meter past the step budget (`expr_site`: the
expression's path, the node's offsets, dsl's words), a built-in's own error (`builtin_site`: a
range too long, a `sum`, `floor`, `ceil` or `round` past the limit), a built-in given a value
it cannot work with (`call_at`, numbers.py `called`: none where it takes numbers), an event's
field it was not fired with (base.py `halt`), an `add` step's sum (`add_site`: none, or past
the limit) or list past the longest (`step_site`), a draw's or deal's count (`count_site`), a
cell or card read where it is not there (grids.py `_looked`), a field of a player, team or die
that is none (base.py `some`), a `move` of none or of an item twice (`unmovable_site`,
`twice_moved_site`), a racer that is none or a racer's number that is not 0 or more
(`racer_site`, `race_number_site`), a `transfer` of less than nothing (`transfer_site`), the
scoring's too (interpreter/compile/flow.py `scoring`, where the game keeps its reason). Output:
for each, a site (a constant of the game function, written into its `raise _Stop(SITE,
values...)` or passed to the helper that tests it, interpreter/compile/base.py `divided`...),
and `stop_error`, which turns a site and the values it was raised with into the interpreter's
own `RuleError`, built by the same functions (interpreter/engine/signals.py) or words
(dsl/compiler.py, dsl/builtins.py), so both engines word and locate it alike.

The game function catches such a `_Stop` where it ends (interpreter/compile/flow.py) and scores
the game as the interpreter scores a stopped one, returning the site in its tuple; the counts
it returns are exact there, as they are at every loop's head (code that may stop at a site is
never moved earlier: base.LOCATES). In the fast version, which tests the step budget at loop
heads only and nothing inside expressions, a stop found past that budget (`PastSteps`) or a
rule error met as Python's own sends the seed to the checked version, which plays it again to
the exact stop. A stop or rule error the checked version meets without locating it is a fault
of the code generator (interpreter/compile/played.py `GeneratorFault`): reported, and nothing
else plays the game instead. A scripted entry the game cannot take (a decisions file's, a
log's) stops it at the step that takes it (`input_site`), raised with the interpreter's own
error (interpreter/engine/script_errors.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from dsl import nodes as n
from dsl.builtins import PAST_LIMIT, cannot_set
from dsl.compiler import builtin_said, kind, no_field, not_rolled
from interpreter.compile.base import _NO, Ex, _Ctx, _node
from interpreter.compile.offsets import compared, number
from interpreter.engine.signals import (
    Break,
    EndPhase,
    EndTurn,
    Goto,
    RuleError,
    asked_twice,
    bad_count,
    bad_race_number,
    bad_seconds,
    bad_transfer,
    bad_winners,
    calls_too_deep,
    cannot_add,
    checks_hold,
    items_past_steps,
    moved_twice,
    no_count,
    no_decider,
    no_legal_option,
    not_a_racer,
    not_a_reporter,
    not_eliminable,
    not_movable,
    past_passes,
    past_steps,
    past_turns,
    triggers_too_deep,
    unheld,
    zone_full,
)
from interpreter.engine.values import show, told


def checks_site(max_chain: int) -> tuple:
    """Checks that still hold after `limits.max_chain_depth` rounds (no values)."""
    return ("checks", max_chain)


def calls_site(max_chain: int, proc: str, path: tuple) -> tuple:
    """A call of `proc`, the step at `path`, past the calls' nesting limit (no values)."""
    return ("calls", max_chain, proc, path)


def triggers_site(max_chain: int, event: str, trigger: str) -> tuple:
    """`event` raised past `limits.max_chain_depth` (no values); `trigger` its first."""
    return ("triggers", max_chain, event, trigger)


def loose_break_site(path: tuple) -> tuple:
    """A `break` at `path` (a procedure's) run outside any loop (no values)."""
    return ("break", path)


def twice_site(path: tuple) -> tuple:
    """A decision whose `by`, at `path`, lists a player twice (raised with the list of seat
    indexes)."""
    return ("twice", path)


def nobody_site(path: tuple) -> tuple:
    """A decision whose `by`, at `path`, is none (no values)."""
    return ("nobody", path)


def no_option_site(decision: str, path: tuple) -> tuple:
    """A decision with no legal option, at the step at `path` (raised with the decider's
    seat index)."""
    return ("no_option", decision, path)


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


def expr_site(path: tuple, pos: tuple, message: str | None,
              code: str = "runtime-error") -> tuple:
    """A rule error met inside the expression at `path` (its data path), by its node at `pos`
    (the node's offsets in the expression's text), worded `message` as dsl/compiler.py words
    it (no values), or, with None, raised with its words (the values they tell)."""
    return ("expr", path, pos, message, code)


def add_site(path: tuple) -> tuple:
    """The sum of an `add` step's target at `path` (raised with the amount and what the
    target held, one of them not a number; with no values, past the language's limit)."""
    return ("add", path)


def winners_site(path: tuple) -> tuple:
    """The `end_game` at `path` whose `winners` holds none."""
    return ("winners", path)


def seconds_site(path: tuple) -> tuple:
    """The duration at `path` (a step's `duration`, `wait`) that is not a number of seconds
    (raised with it)."""
    return ("seconds", path)


def transfer_site(path: tuple) -> tuple:
    """The `transfer` step at `path` whose amount is not a number of 0 or more (raised with
    the amount)."""
    return ("transfer", path)


def uneliminable_site(path: tuple) -> tuple:
    """An `eliminate` at `path` of none (no values)."""
    return ("uneliminable", path)


def unmovable_site(path: tuple) -> tuple:
    """A `move` at `path` of none (no values)."""
    return ("unmovable", path)


def twice_moved_site(path: tuple) -> tuple:
    """A `move` at `path` whose list names an item twice (raised with that item's id)."""
    return ("moved_twice", path)


def full_site(path: tuple) -> tuple:
    """The step at `path` that puts items into a zone past its capacity (raised with the
    zone's id and the capacity)."""
    return ("full", path)


def unheld_site(step: str, path: tuple) -> tuple:
    """The `end_turn`, `end_phase` or `goto` (`step`) at `path`, raised where no turn or phase
    takes it (no values)."""
    return ("unheld", step, path)


def racer_site(path: tuple) -> tuple:
    """The race at `path` with a racer that is not a player (raised with it: none)."""
    return ("racer", path)


def race_number_site(path: tuple, field: str) -> tuple:
    """The race at `path` whose `field` for a racer is not a number of 0 or more (raised
    with it)."""
    return ("race_number", path, field)


def reporter_site(path: tuple) -> tuple:
    """The race at `path` whose `counts_per` gives a racer no reporter (raised with it:
    none)."""
    return ("reporter", path)


def input_site(path: tuple) -> tuple:
    """The step at `path` that takes a scripted entry it refuses (a decisions file's, a log's,
    a position's: raised with the interpreter's located error, interpreter/engine/
    script_errors.py)."""
    return ("input", path)


def count_site(path: tuple) -> tuple:
    """The count of the draw or deal at `path` that is not a whole number of 0 or more
    (raised with the count)."""
    return ("count", path)


def stop_error(stopped: tuple, names: list[str]) -> RuleError | None:
    """The interpreter's error for `stopped` (a site and the values raised with it; `names`
    the players' names by seat index); None when the values are within the site's limits (the
    generated code's fault)."""
    site, *values = stopped
    if site[0] == "break":
        return unheld(Break, site[1])
    if site[0] == "twice":
        seats = values[0]
        again = [names[p] for i, p in enumerate(seats) if p in seats[:i]]
        return asked_twice(again[0], site[1]) if again else None
    if site[0] == "nobody":
        return no_decider(show(None), site[1])
    if site[0] == "no_option":
        return no_legal_option(site[1], names[values[0]], site[2])
    if site[0] == "passes":
        return past_passes(*values, *site[1:])
    if site[0] == "uneliminable":
        return not_eliminable(show(None), site[1])
    if site[0] == "unmovable":
        return not_movable(show(None), (*site[1], "move"))
    if site[0] == "moved_twice":
        return moved_twice(values[0], (*site[1], "move"))
    if site[0] == "unheld":
        return unheld(_SIGNALS[site[1]], site[2])
    if site[0] == "full":
        return zone_full(values[0], values[1], (*site[1], "to"))
    if site[0] == "racer":
        return not_a_racer(values[0], site[1])
    if site[0] == "input":
        return values[0]
    if site[0] == "reporter":
        return not_a_reporter(values[0], site[1])
    if site[0] == "race_number":
        return bad_race_number(site[2], told(values[0]), site[1])
    if site[0] == "count":
        return bad_count(show(values[0]), (*site[1], "count"))
    if site[0] == "winners":
        return bad_winners("none", site[1])
    if site[0] == "seconds":
        return bad_seconds(kind(values[0]), site[1])
    if site[0] == "transfer":
        return bad_transfer(told(values[0]), (*site[1], "transfer"))
    if site[0] == "add":
        if values:
            return cannot_add(told(values[0]), told(values[1]), site[1])
        return RuleError("runtime-error", PAST_LIMIT, site[1])
    if site[0] == "expr":
        return RuleError(site[4], site[3] or values[0], site[1], site[2])
    return _BUILT[site[0]](*site[1:])


_SIGNALS = {"end_turn": EndTurn, "end_phase": EndPhase, "goto": Goto}
_BUILT = {"steps": past_steps, "turns": past_turns, "checks": checks_hold,
          "calls": calls_too_deep, "triggers": triggers_too_deep}


def _some_at(x: Ex, site: str | None) -> Ex:
    """`x`, a player, team or die that may be none, read through `_some` where `site` is
    given (none stops the game there), so never none after it."""
    return x if site is None else replace(x, src=f"_some({x.src}, {site})", safe=True)


def raise_at(const: Callable[[Any, str], str], site: tuple, *values: str) -> str:
    """The statement that stops the game at `site`, raising the values (their sources)
    `stop_error` reads; `const` is the writer's, which makes the site a constant."""
    return "raise _Stop(" + ", ".join((const(site, "SE"), *values)) + ")"


class StopWriter:
    """The stops of the step being written; `self` is the specializer's writer."""

    # The data path of the expression being written, where the version being written
    # locates the rule errors met inside it (a logged game, the checked version); else None.
    expr_path: tuple | None = None

    def value_at(self, value: Any, scope: dict, *keys: Any, path: tuple | None = None) -> Any:
        """`value`, the ruleset's value at `keys` in the step being written (or at `path`),
        written as an expression (`Ex`) that stops the located versions where a rule error
        met inside it stops the interpreter."""
        with self.located(self._path(value, keys, path)):
            return self.expr(_node(value), scope)

    def cond_at(self, value: Any, scope: dict, *keys: Any, path: tuple | None = None) -> Any:
        """`value_at` for a condition (`cond`)."""
        with self.located(self._path(value, keys, path)):
            return self.cond(value, scope)

    def _path(self, value: Any, keys: tuple, path: tuple | None) -> tuple | None:
        if not isinstance(value, str):  # a list's items are each located at its own index
            return None
        return path if path is not None or self.step_path is None else (*self.step_path, *keys)

    @contextmanager
    def located(self, path: tuple | None) -> Iterator[None]:
        """The expression written inside is the one at `path` (None: not located)."""
        outer = self.expr_path
        self.expr_path = path if self.logged or self.wide else None
        try:
            yield
        finally:
            self.expr_path = outer

    def site(self, pos: tuple | None, message: str | None = None,
             code: str = "runtime-error") -> str | None:
        """The constant of a site for the rule error of the node at `pos` in the expression
        being written (`expr_site`), None where it is not located."""
        if self.expr_path is None or pos is None:
            return None
        return self.const(expr_site(self.expr_path, pos, message, code), "SE")

    def site_arg(self, pos: tuple | None) -> str:
        """The last argument of a helper (`, SITE`) that stops the game at the node at `pos`
        in its own words: a checked `+`, `-` or `*` making a whole number past the language's
        limit, or given a value it does not take (none: interpreter/compile/base.py
        `refused`, the site's words left to the values); a text past the longest
        (`_within`); "" where not located."""
        site = self.site(pos)
        return "" if site is None else f", {site}"

    def builtin_site(self, pos: tuple | None, name: str, said: str) -> str:
        """The last argument of a built-in's helper (`, SITE`) that stops the game where the
        built-in `name`, called at `pos`, stops with its own error `said`, in the words
        dsl/compiler.py gives it; "" where not located."""
        site = self.site(pos, builtin_said(name, said))
        return "" if site is None else f", {site}"

    def call_at(self, pos: tuple | None, name: str, fn: str, args: list, tail: str = "",
                shown: tuple = ()) -> str | None:
        """The call of the built-in `name` at `pos`, tested where the expression is located
        and an argument is not known now (`_called`: on a value the built-in cannot work
        with, none where it takes numbers, the game stops there in the interpreter's words):
        `fn` (a name in the generated code) of `args` (each an `Ex`), then of `tail` (a
        helper's own last arguments, written `, SITE` as `builtin_site` writes it); `shown`: the
        words that tell an argument whose value the generated code holds otherwise (a zone
        as its list), None for the value's own. None where it is written plain."""
        if all(a.const is not _NO for a in args):
            return None
        site = self.site(pos)
        if site is None:
            return None
        told = (name, *shown) if any(shown) else name
        values = "".join(f"{a.src}, " for a in args)
        return f"_called({site}, {told!r}, {fn}, ({values}){tail})"

    def kinds_tested(self, a: Any, b: Any) -> bool:
        """Whether an operator on `a` and `b` tests the kinds of their values (none, where a
        whole number goes: a die not rolled, a state set to one) where the interpreter does:
        in a located expression, unless both are known now."""
        return self.expr_path is not None and (a.const is _NO or b.const is _NO)

    def joined(self, a: Any, b: Any, pos: tuple | None) -> str:
        """`a + b` of two texts or two lists: tested against the longest (`_joined`) where
        the expression is located."""
        site = self.site(pos) if self.kinds_tested(a, b) else None
        return f"({a.src} + {b.src})" if site is None else f"_joined({a.src}, {b.src}, {site})"

    def ordered(self, op: str, a: Any, b: Any, pos: tuple | None) -> str:
        """`a op b` for `<`, `<=`, `>` and `>=`: tested (`_ordered`) where `kinds_tested`."""
        site = self.site(pos) if self.kinds_tested(a, b) else None
        if site is None:  # none raises here: a face kept as its index is not tested for it
            return compared(op, a, b) or f"({number(a)} {op} {number(b)})"
        return f"_ordered({a.src}, {b.src}, {op!r}, {site})"

    def sum_site(self, text: str) -> str:
        """The last argument of `_added`, the sum an `add` step makes of its target `text`
        (`, SITE`: located at the target, with no offsets, as steps.py's `add` locates it);
        "" where the step's place is not known."""
        if self.step_path is None:
            return ""
        return f", {self.const(add_site((*self.step_path, 'add', text)), 'SE')}"

    def step_site(self, *keys: Any) -> str:
        """The last argument of a helper (`, SITE`) that stops the game at `keys` of the step
        being written, with no offsets, in the words it raises (a text or list an `add`
        makes past the longest: `_within`), where the version locates it; else ""."""
        if self.step_path is None or not (self.logged or self.wide):
            return ""
        return f", {self.const(expr_site((*self.step_path, *keys), None, None), 'SE')}"

    def someone(self, x: Any, pos: tuple | None, said: str) -> Any:
        """`x` (an `Ex`: a player, team or die that may be none), where the expression is
        located: none stops the game at the node at `pos`, in the words `said` (`_some`);
        elsewhere as it is (the fast version meets none as Python's own error)."""
        return _some_at(x, None if x.safe else self.site(pos, said))

    def target_at(self, text: str, read: bool) -> tuple | None:
        """The data path of a `set` (an `add`, `read`) step's target `text`, where the
        interpreter locates its errors (steps._setter), None where not known."""
        return None if self.step_path is None else (*self.step_path, "add" if read else "set",
                                                    text)

    def target_owner(self, node: n.Field, ctx: _Ctx, read: bool, at: tuple | None) -> Ex:
        """Whose field `node` (`p.f`, `tm.f`) a target writes, located at the target `at`: a
        player or team that is none stops the game where located, as steps._setter stops:
        an `add` (`read`) reads the field first (none has no fields), a `set` writes it
        (put_field: a field of none cannot be set)."""
        with self.located(at):
            obj = self.expr(node.obj, ctx.scope)
            if obj.kind not in ("player", "team", "dref") or obj.safe:
                return obj
            if read:
                return self.someone(obj, node.name_pos, no_field(None, node.name))
        return _some_at(obj, self.target_site(at, cannot_set(None, node.name)))

    def passes_of(self, x: Ex | None, path: tuple, key: str) -> Ex | None:
        """A repeat's `times` or `max` (`key`, worked out at `path`) that may be none: where
        the version locates its stops, none stops the game there, as signals.counted_passes
        does; the fast version meets it as Python's own error."""
        if x is None or x.safe:
            return x
        return _some_at(x, self.target_site(path, no_count(key)))

    def dice_rolled(self, dice: Ex, d: int) -> Ex:
        """The dice a `roll` step rolls, known at run time (a die or a list of them): where
        one may be none (a die not found) and the version locates its stops, none stops the
        game at the step's `roll`, as step_runtime.dice_in does; the fast version meets it as
        Python's own error (its checked version then plays the game)."""
        path = None if dice.safe or self.step_path is None else (*self.step_path, "roll")
        site = self.target_site(path, not_rolled(None))
        if site is None:
            return dice
        t = self.temp("rd")
        one = dice.kind == "dref"
        self.emit(d, f"{t} = {dice.src}" if one else f"{t} = list({dice.src})")
        self.emit(d, f"if {t} is None: raise _Stop({site})" if one
                  else f"if None in {t}: raise _Stop({site})")
        return Ex(t, dice.kind, True)

    def leaving(self, signal: str, step: str, *values: str) -> str:
        """`raise SIGNAL(VALUES..., SITE)`: the `_EndTurn` or `_EndPhase` of the step being
        written, its last value the site where no turn or phase takes it (`unheld_site`), a
        marker that interpreter/compile/phases.py `unheld` makes the site's constant where
        the raise may leave the game (flow.py's top stops it there, as Game.run does), and
        drops where a turn or phase takes it."""
        site = []
        if self.step_path is not None:
            sites = self.__dict__.setdefault("unheld_sites", [])
            sites.append(unheld_site(step, self.step_path))
            site = [f"__UNHELD_{len(sites) - 1}__"]
        return f"raise {signal}({', '.join([*values, *site])})"

    def target_site(self, path: tuple | None, said: str) -> str | None:
        """The constant of a site for a rule error met writing a `set` or `add` target at
        `path`, worded `said`, with no offsets (as steps._setter locates it), where the version
        locates it; else None."""
        if path is None or not (self.logged or self.wide):
            return None
        return self.const(expr_site(path, None, said), "SE")

    def input_at(self) -> str:
        """The constant of the site of a scripted entry the step being written refuses
        (`input_site`), "None" where the step's place is not known."""
        return "None" if self.step_path is None else self.const(input_site(self.step_path),
                                                               "SE")

    def over(self, pos: tuple | None) -> str:
        """The call that stops the game where the work meter passes the step budget, counting
        at the node at `pos`: located there (`_over_at`), or where that is not known (the
        fast version), a stop without a place (`_over`): its checked version then plays the
        seed to the located stop."""
        site = self.site(pos, items_past_steps(self.max_steps), "budget-exceeded")
        return "_over()" if site is None else f"_over_at({site})"

    def stop_at(self, site_of: Callable[[tuple], tuple], *values: str) -> str:
        """The statement that stops the game at the site `site_of` makes of the data path of
        the step being written; where that path is not known, a stop without a place (a
        fault of the generator, should the checked version meet one: every step it writes
        has its path)."""
        if self.step_path is None:
            return "raise _Stop()"
        return raise_at(self.const, site_of(self.step_path), *values)

    def loop_stop(self, what: str, key: str, passes: str, cap: str | None) -> str:
        """The stop of a loop's guard: the loop at `key` in the step being written, past its
        own `max` (`cap`, named `what`) or `limits.max_loop` on pass `passes`."""
        return self.stop_at(lambda step: passes_site(self.max_loop, what, (*step, key),
                                                     (*step, key)), passes, cap or "None")
