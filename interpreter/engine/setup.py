"""Phases 1-5 for running: a ruleset file, a variant and `--set` values to a `Program`, and a
`Program` with seat choices to a ready `Game`.

Input: a path, a variant name, parameter overrides as text, the number of players and seat
specs (`human`, `random`, `policy:NAME`). Output: a `Program` (or `SetupError` holding located
diagnostics: a ruleset that does not validate never runs) and a `Game`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dsl.diagnostics import Diagnostic, Span
from dsl.pipeline import apply_variant, validate_path, validate_text
from dsl.safe_text import shown, text_problem
from dsl.sections import check_document, parameter_problem
from dsl.source import SourceFile
from interpreter.engine.chance import ChanceSource, SeededChance
from interpreter.engine.clock import ModelledClock
from interpreter.engine.decisions import Controller, PolicyController, RandomController
from interpreter.engine.game import Game
from interpreter.engine.program import Program, compile_program
from interpreter.engine.signals import RuleError


class SetupError(Exception):
    def __init__(self, diagnostics: list[Diagnostic], source: SourceFile | None):
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics
        self.source = source


@dataclass
class Loaded:
    program: Program
    source: SourceFile
    positions: Any
    path: str
    variant: str | None
    sets: dict[str, Any]


def _usage(message: str, hint: str | None = None, source: SourceFile | None = None):
    return SetupError([Diagnostic("bad-input", message, None, (), hint)], source)


MAX_SET_NUMBER = 10**15  # the largest number `--set` takes: exact in every JSON reader


def set_problem(text: str, value: Any) -> str | None:
    """Why a `--set` value (as typed, and as read by its parameter's type) is refused before
    its type and bounds are checked: a control character, a value longer than 1,000
    characters, a number that is not finite (1e400, nan) or larger than 10^15. None when
    none of these."""
    problem = text_problem(text)
    if problem is None and isinstance(value, float) and not math.isfinite(value):
        problem = "is not a finite number"
    elif problem is None and isinstance(value, (int, float)) and not isinstance(
            value, bool) and abs(value) > MAX_SET_NUMBER:
        problem = "is larger than 10^15 (1,000,000,000,000,000)"
    return f"'{shown(text)}' {problem}" if problem else None


def parse_value(spec: dict, text: str) -> Any:
    """A `--set` value read by the parameter's type."""
    kind = spec.get("type") or {bool: "bool", int: "int", float: "number"}.get(
        type(spec.get("default")), "string")
    if kind == "choice":
        choices = spec.get("choices") or []
        for c in choices:
            if str(c) == text:
                return c
        return text
    if kind == "bool":
        return {"true": True, "false": False}.get(text.lower(), text)
    if kind == "int":
        try:
            return int(text)
        except ValueError:
            return text
    if kind == "number":
        try:
            return float(text) if "." in text or "e" in text.lower() else int(text)
        except ValueError:
            return text
    return text


def load(path: str, variant: str | None = None, sets: dict[str, str] | None = None,
         text: str | None = None, limits: dict[str, int] | None = None) -> Loaded:
    """Validates, applies a variant and parameter values, and compiles the ruleset: the file at
    `path`, or `text` when given (then `path` only names it in diagnostics). `limits` are the
    budgets a person raised with --limit (beyond the ruleset's ceiling)."""
    v = validate_path(path) if text is None else validate_text(text, path)
    if not v.ok or v.document is None:
        raise SetupError(v.diagnostics, v.source)
    doc = v.document
    symbols = v.symbols
    if variant is not None:
        variants = doc.data.get("variants") or {}
        if variant not in variants:
            names = ", ".join(variants) or "none"
            raise _usage(f"unknown variant '{variant}'", f"variants: {names}", doc.source)
        doc = apply_variant(doc, variant)
        symbols, diags = check_document(doc)
        if diags:  # validate_path checked every variant already; kept for safety
            raise SetupError(diags, doc.source)
    params_spec = doc.data.get("parameters") or {}
    values = {name: spec.get("default") for name, spec in params_spec.items()}
    parsed: dict[str, Any] = {}
    for name, text in (sets or {}).items():
        if name not in params_spec:
            from dsl.diagnostics import suggestion
            raise _usage(f"unknown parameter '{name}'{suggestion(name, list(params_spec))}",
                         "parameters: " + (", ".join(params_spec) or "none"), doc.source)
        value = parse_value(params_spec[name], text)
        problem = set_problem(text, value) or parameter_problem(params_spec[name], value)
        if problem:
            raise _usage(f"--set {name}={shown(text)}: {problem}",
                         params_spec[name].get("doc"), doc.source)
        values[name] = parsed[name] = value
    program = compile_program(doc.data, symbols, values, limits)
    program.source, program.positions = doc.source, doc.positions
    return Loaded(program, doc.source, doc.positions, str(path), variant, parsed)


def player_count(program: Program, players: int | None) -> int:
    spec = program.data["players"]
    n = players if players is not None else spec.get("default", spec["min"])
    if not spec["min"] <= n <= spec["max"]:
        raise _usage(f"this game takes {spec['min']} to {spec['max']} players, not {n}")
    return n


def controller_for(program: Program, spec: str | None,
                   human: Callable[[], Controller] | None = None) -> Controller:
    """A seat's controller from its spec: human, random, policy:NAME (or NAME). A ruleset's
    own policy named `random` is what `random` means for it (its author knows which choices
    must not be drawn from everything legal, such as a number with no upper bound). `human`
    makes the controller of a person's seat: the command that has a person at hand gives it."""
    if spec is None:
        if program.default_policy is None:
            return RandomController()
        return PolicyController(program.policies[program.default_policy])
    if spec == "random" and "random" not in program.policies:
        return RandomController()
    if spec == "human":
        if human is None:
            raise _usage("a seat played by a person needs a terminal: use `meeple run`")
        return human()
    name = spec.split(":", 1)[1] if spec.startswith("policy:") else spec
    if name not in program.policies:
        raise _usage(f"unknown seat controller '{spec}'", "use human, random or policy:NAME; "
                     "policies: " + (", ".join(program.policies) or "none"))
    return PolicyController(program.policies[name])


def new_game(program: Program, players: int | None = None, seats: dict[int, str] | None = None,
             chance: ChanceSource | None = None, seed: Any = 0, clock: Any = None,
             decisions: list | None = None, narrator: Any = None,
             controllers: dict[int, Controller] | None = None,
             human: Callable[[], Controller] | None = None) -> Game:
    n = player_count(program, players)
    seats = seats or {}
    for k in seats:
        if not 1 <= k <= n:
            raise _usage(f"seat {k} does not exist in a game of {n} players")
    ctrls = [(controllers or {}).get(i + 1) or controller_for(program, seats.get(i + 1), human)
             for i in range(n)]
    try:
        return Game(program, n, ctrls, chance if chance is not None else SeededChance(seed),
                    clock if clock is not None else ModelledClock(), list(decisions or []), seed,
                    narrator)
    except RuleError as err:  # at setup: a component count, a state's initial value
        raise SetupError([located(err, program.source, program.positions)],
                         program.source) from None


def located(err, source: SourceFile | None, positions) -> Diagnostic:
    """A runtime RuleError as a diagnostic located in the ruleset."""
    span: Span | None = None
    if positions is not None and err.path:
        if err.pos is not None:
            span = positions.in_scalar(err.path, err.pos[0], max(1, err.pos[1] - err.pos[0]))
        else:
            span = positions.value(err.path)
    from dsl.diagnostics import Diagnostic as D
    return D(err.code, err.message, span, tuple(err.path), err.hint)
