"""The rulebook's phrases: a ruleset's values, expressions and references as inline text.

Phase: docs. Input: a compiled `Program` (its checked data, with the variant applied, and the
parameter values in play), the base ruleset's data, the variant's name and the `--set` values.
Output: `Phrases`, what every section and sentence writes with: the ruleset, the values in
play, the blocks written so far (`h`, `p`), and the inline pieces they share (an expression as
code followed by the values of the parameters it reads, components as words, players, the
bank, quotations, links to the headings of phases, procedures and events, limits,
durations). Also `plain` (a YAML value as the ruleset would write it), words for types and
sources, and a step read through the effect registry (dsl/effects.py) as its effect and fields
(`parse_step`, `walk_steps`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from dsl import effects as fx
from interpreter.engine.program import Program
from interpreter.rulebook.document import Block, Heading, Inlines, Para, code, joined, link, slug, text

# -- plain values and words --------------------------------------------------------------------

def plain(value: Any) -> str:
    """A YAML value as the ruleset would write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {plain(v)}" for k, v in value.items()) + "}"
    return " ".join(str(value).split())


TYPE_WORDS = {"int": "a whole number", "number": "a number", "bool": "true or false",
              "string": "text", "list": "a list", "map": "a table of values",
              "player": "a player", "team": "a team", "die": "a die", "card": "a card",
              "cell": "a cell", "any": "any value", "choice": "a choice"}

SOURCE_WORDS = {"text": "the rule text says so", "analysis": "a reading of the rule text",
                "invented": "invented for this ruleset"}

_PERIODS = {"turn": "per turn", "round": "per round", "phase": "per phase", "game": "per game"}


def type_of(spec: Any) -> str:
    if isinstance(spec, dict) and spec.get("type"):
        return spec["type"]
    value = spec.get("initial", spec.get("default")) if isinstance(spec, dict) else spec
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "map"
    return "any"


# -- steps as the registry reads them ----------------------------------------------------------

def parse_step(step: Any) -> tuple[str | None, dict[str, Any]]:
    """A step's effect name and its fields by their registry names (the first key that names
    an effect is the effect, as the checker reads it)."""
    if isinstance(step, str):
        return (step if step in fx.EFFECTS else None), {}
    if not isinstance(step, dict) or not step:
        return None, {}
    name = next((k for k in step if k in fx.EFFECTS), None)
    if name is None:
        return None, {}
    effect = fx.EFFECTS[name]
    fields: dict[str, Any] = {}
    for key, value in step.items():
        if key == name:
            if effect.primary:
                fields[effect.primary] = value
        else:
            fields[key] = value
    return name, fields


def walk_steps(steps: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every step inside `steps`, nested ones included (found through the registry's STEPS and
    OPTIONS fields), as (effect name, fields)."""
    if not isinstance(steps, list):
        return
    for step in steps:
        name, fields = parse_step(step)
        if name is None:
            continue
        yield name, fields
        for fname, spec in fx.EFFECTS[name].fields.items():
            value = fields.get(fname)
            if spec.kind == fx.STEPS:
                yield from walk_steps(value)
            elif spec.kind == fx.OPTIONS and isinstance(value, dict):
                for opt in value.values():
                    if isinstance(opt, dict):
                        yield from walk_steps(opt.get("do"))


# -- the writer's state and the inline pieces --------------------------------------------------

class Phrases:
    """The ruleset being described and the blocks written so far, with the inline pieces every
    section and sentence uses."""

    def __init__(self, program: Program, base: Mapping[str, Any] | None, variant: str | None,
                 sets: Mapping[str, Any] | None):
        self.data: dict[str, Any] = program.data
        self.params: dict[str, Any] = dict(program.parameters)
        self.base: Mapping[str, Any] = base if base is not None else program.data
        self.variant = variant
        self.sets = dict(sets or {})
        comps = self.data.get("components") or {}
        self.zones: dict[str, Any] = comps.get("zones") or {}
        self.components = {n for kind in ("dice", "zones", "decks", "grids", "timers")
                           for n in (comps.get(kind) or {})}
        self.phases: dict[str, Any] = (self.data.get("flow") or {}).get("phases") or {}
        self.procedures: dict[str, Any] = self.data.get("procedures") or {}
        self.events: dict[str, Any] = self.data.get("events") or {}
        self.blocks: list[Block] = []
        self.seen: dict[str, int] = {}

    # -- inline pieces ---------------------------------------------------------------------
    def x(self, value: Any, note: str | None = None) -> Inlines:
        """An expression as code. The parameters it reads follow with their values in play, so
        a reader sees the numbers (`goal` (100)) without looking them up; `note` joins them in
        the same parentheses."""
        notes = [note] if note else []
        if not isinstance(value, str):
            shown = plain(value)
        elif value.strip() in self.params:
            shown = value.strip()
            notes.insert(0, plain(self.params[shown]))
        else:
            shown = plain(value)
            used = self.params_in(shown)
            if used and len(used) <= 3:  # past a few, the list would drown the expression
                notes.insert(0, ", ".join(f"{u} = {plain(self.params[u])}" for u in used))
        return [code(shown)] + ([text(" (" + "; ".join(notes) + ")")] if notes else [])

    def params_in(self, expr: str) -> list[str]:
        """The parameter names an expression reads (not field names, not inside text)."""
        bare = re.sub(r"'[^']*'|\"[^\"]*\"", "''", expr)
        names = re.findall(r"(?<![\w.])[A-Za-z_]\w*", bare)
        return list(dict.fromkeys(n for n in names if n in self.params))

    def thing(self, value: Any) -> Inlines:
        """A component named by itself reads as a word; anything else is an expression."""
        if isinstance(value, str) and value.strip() in self.components:
            return [text(value.strip())]
        return self.x(value)

    def things(self, value: Any) -> Inlines:
        if isinstance(value, list):
            return joined([self.thing(v) for v in value])
        return self.thing(value)

    def who(self, value: Any) -> Inlines:
        if value is None or value == "current":
            return [text("the current player")]
        if value == "players":
            return [text("every player")]
        return self.x(value)

    def place(self, value: Any) -> Inlines:
        if isinstance(value, str) and value.strip().strip("'\"") == "out" and value.strip() != "out":
            return [text("out of the game")]
        return self.thing(value)

    def party(self, value: Any) -> Inlines:
        """A side of a transfer: a player, or the bank."""
        if isinstance(value, str) and value.strip() in ("'bank'", '"bank"'):
            return [text("the bank")]
        return self.x(value)

    def quote(self, value: Any) -> Inlines:
        return [text("“" + " ".join(str(value).split()) + "”")]

    def ref(self, kind: str, name: Any) -> Inlines:
        """A link to a phase, procedure or event heading (a plain name otherwise)."""
        heads = {"phase": ("Phase", self.phases), "procedure": ("Procedure", self.procedures),
                 "event": ("Event", self.events)}
        if kind in heads and isinstance(name, str) and name in heads[kind][1]:
            return [link(name, slug(f"{heads[kind][0]}: {name}"))]
        return [code(plain(name))]

    def duration(self, value: Any) -> Inlines:
        return [text(" (it takes ")] + self.x(value) + [text(" seconds of modelled time)")]

    def limit(self, value: Mapping[str, Any]) -> Inlines:
        times = value.get("times", 1)
        per = _PERIODS.get(str(value.get("per")), f"per {value.get('per')}")
        if str(times).strip() == "1":  # `times: 1` or the expression "1"
            return [text(f"once {per}")]
        return [text("at most ")] + self.x(times) + [text(f" times {per}")]

    # -- blocks ------------------------------------------------------------------------------
    def h(self, level: int, title: str) -> None:
        # Repeated headings get -1, -2... as on GitHub, so every anchor is unique.
        anchor = slug(title)
        n = self.seen.get(anchor, 0)
        self.seen[anchor] = n + 1
        self.blocks.append(Heading(level, title, f"{anchor}-{n}" if n else anchor))

    def p(self, inl: Inlines) -> None:
        if inl:
            self.blocks.append(Para(inl))
