"""Phase 4a, check (declarations): the names a ruleset declares, with their types.

Input: a structurally valid document. Output: `Symbols`, the ruleset's namespaces (parameters,
state, components, decisions, procedures, events, phases, timers) and the fields that player,
team, die, card and cell values carry, plus `duplicate-name` and `reserved-name` diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from dsl import nodes as n
from dsl import types as t
from dsl.builtins import BUILTINS
from dsl.diagnostics import Diagnostic
from dsl.effects import EFFECTS
from dsl.loader import Document
from dsl.parser import KEYWORDS, RESERVED, ExprSyntaxError, parse_expression

# Names every ruleset can read; `player` and `event` only where they are bound.
CONTEXT_NAMES: dict[str, t.Type] = {
    "players": t.PLAYERS, "current": t.PLAYER, "round": t.INT, "turn": t.INT,
}
PLAYER_FIELDS = {"seat": t.INT, "name": t.STRING, "team": t.TEAM, "eliminated": t.BOOL,
                 "others": t.PLAYERS}
TEAM_FIELDS = {"name": t.STRING, "members": t.PLAYERS, "leader": t.PLAYER}
DIE_FIELDS = {"face": t.INT, "sides": t.INT, "kind": t.STRING, "zone": t.STRING}
CARD_FIELDS = {"deck": t.STRING, "zone": t.STRING}
CELL_FIELDS = {"id": t.STRING, "row": t.ANY, "column": t.ANY, "neighbours": t.CELLS,
               "occupant": t.ANY}
TIMER_FIELDS = {"remaining": t.NUMBER, "elapsed": t.NUMBER, "seconds": t.NUMBER,
                "running": t.BOOL}
GRID_FIELDS = {"cells": t.CELLS, "rows": t.ANY_LIST, "columns": t.ANY_LIST}
# Names the engine keeps on each kind of object besides its fields: a ruleset's own field may
# not take them either (a die attribute `faces` would replace the die's faces).
ENGINE_ATTRIBUTES = {"die": {"id", "faces"}, "card": {"id"},
                     "cell": {"row_index", "column_index"}}
BUILTIN_EVENTS = ("rolled", "drawn", "moved", "changed", "decided", "turn_start", "turn_end",
                  "round_start", "round_end", "phase_start", "phase_end", "game_start",
                  "timer_expired")
END = "end"  # the phase name that ends the game
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")


@dataclass
class Decl:
    """One declared name: its namespace, its type and where it was declared."""

    name: str
    namespace: str
    type: t.Type
    path: tuple


@dataclass
class Symbols:
    globals: dict[str, Decl] = field(default_factory=dict)        # readable by bare name
    player_fields: dict[str, t.Type] = field(default_factory=lambda: dict(PLAYER_FIELDS))
    team_fields: dict[str, t.Type] = field(default_factory=lambda: dict(TEAM_FIELDS))
    die_fields: dict[str, t.Type] = field(default_factory=lambda: dict(DIE_FIELDS))
    card_fields: dict[str, t.Type] = field(default_factory=lambda: dict(CARD_FIELDS))
    cell_fields: dict[str, t.Type] = field(default_factory=lambda: dict(CELL_FIELDS))
    player_state: set[str] = field(default_factory=set)            # assignable player fields
    team_state: set[str] = field(default_factory=set)
    assignable: set[str] = field(default_factory=set)              # assignable bare names
    parameters: dict[str, dict] = field(default_factory=dict)
    phases: list[str] = field(default_factory=list)
    procedures: dict[str, list[str]] = field(default_factory=dict)
    events: dict[str, list[str]] = field(default_factory=dict)
    timers: set[str] = field(default_factory=set)
    zones: dict[str, str] = field(default_factory=dict)           # name -> owner
    decisions: dict[str, Decl] = field(default_factory=dict)
    decision_options: dict[str, list[Any] | None] = field(default_factory=dict)
    teams: bool = False

    def fields_of(self, ty: t.Type) -> dict[str, t.Type] | None:
        """The fields a value of this type has, or None when any field may exist."""
        return {
            "player": self.player_fields, "team": self.team_fields, "die": self.die_fields,
            "card": self.card_fields, "cell": self.cell_fields, "timer": TIMER_FIELDS,
            "grid": GRID_FIELDS,
        }.get(ty.kind)


def state_type(spec: Any) -> t.Type:
    """The type of a state variable from its definition (short or long form)."""
    if isinstance(spec, dict):
        if "type" in spec:
            return t.NAMED.get(spec["type"], t.ANY)
        init = spec.get("initial")
        if isinstance(init, str):  # an expression: its type is found by the checker
            return t.ANY
        return t.type_of_value(init) if "initial" in spec else t.INT
    return t.type_of_value(spec) if spec is not None else t.ANY


def parameter_type(spec: dict) -> t.Type:
    kind = spec.get("type")
    if kind == "choice":
        choices = spec.get("choices") or []
        return t.type_of_value(choices[0]) if choices else t.ANY
    if kind:
        return t.NAMED.get(kind, t.ANY)
    return t.type_of_value(spec.get("default"))


class _Collector:
    def __init__(self, doc: Document):
        self.doc = doc
        self.sym = Symbols()
        self.diags: list[Diagnostic] = []
        self.seen: dict[str, Decl] = {}

    def declare(self, name: str, namespace: str, ty: t.Type, path: tuple,
                bare: bool = True) -> None:
        span = self.doc.positions.key(path)
        if not isinstance(name, str) or not _NAME.fullmatch(name) or name.startswith("_"):
            # The schema says so first; held here too, because code generators make Python
            # names of declared names.
            self.diags.append(Diagnostic(
                "reserved-name", f"'{name}' cannot name a {namespace}", span, path,
                hint="use letters, digits and '_', starting with a letter"))
            return
        if name in KEYWORDS or name in RESERVED or name in CONTEXT_NAMES or name in (
                "player", "event", "me", "option", "bank", END):
            self.diags.append(Diagnostic(
                "reserved-name", f"'{name}' is a reserved word and cannot name a {namespace}",
                span, path, hint="choose another name"))
            return
        if name in BUILTINS:
            self.diags.append(Diagnostic(
                "reserved-name", f"'{name}' is a built-in function and cannot name a "
                                 f"{namespace}", span, path, hint="choose another name"))
            return
        prev = self.seen.get(name)
        if prev is not None:
            self.diags.append(Diagnostic(
                "duplicate-name", f"'{name}' is declared as a {namespace} and already as a "
                                  f"{prev.namespace}", span, path,
                related=(("first declared here", self.doc.positions.key(prev.path)),)))
            return
        decl = Decl(name, namespace, ty, path)
        self.seen[name] = decl
        if bare:
            self.sym.globals[name] = decl

    def own_field(self, name: Any, kind: str, builtins: dict, path: tuple) -> bool:
        """False (and a diagnostic) when a ruleset's field of a player, team, die, card or cell
        would take the name of one the engine keeps, such as a player's `others`."""
        taken = set(builtins) | ENGINE_ATTRIBUTES.get(kind, set())
        if name not in taken:
            return True
        self.diags.append(Diagnostic(
            "reserved-name", f"'{name}' is a built-in field of every {kind} and cannot be "
            "declared again", self.doc.positions.key(path), path,
            hint=f"choose another name; a {kind} already has "
                 + ", ".join(f"`{x}`" for x in sorted(taken))))
        return False

    def collect(self) -> Symbols:
        data = self.doc.data
        sym = self.sym
        for name, spec in (data.get("parameters") or {}).items():
            self.declare(name, "parameter", parameter_type(spec), ("parameters", name))
            sym.parameters[name] = spec
        state = data.get("state") or {}
        for scope in ("global", "turn", "round"):
            for name, spec in (state.get(scope) or {}).items():
                self.declare(name, f"{scope} state variable", state_type(spec),
                             ("state", scope, name))
                sym.assignable.add(name)
        for name, spec in (state.get("player") or {}).items():
            if not self.own_field(name, "player", PLAYER_FIELDS, ("state", "player", name)):
                continue
            self.declare(name, "per-player state variable", state_type(spec),
                         ("state", "player", name), bare=False)
            sym.player_fields[name] = state_type(spec)
            sym.player_state.add(name)
        for name, spec in (state.get("team") or {}).items():
            if not self.own_field(name, "team", TEAM_FIELDS, ("state", "team", name)):
                continue
            self.declare(name, "per-team state variable", state_type(spec),
                         ("state", "team", name), bare=False)
            sym.team_fields[name] = state_type(spec)
            sym.team_state.add(name)
        comps = data.get("components") or {}
        for name, spec in (comps.get("zones") or {}).items():
            owner = spec.get("owner", "none")
            sym.zones[name] = owner
            ztype = t.ANY_LIST
            where = ("components", "zones", name)
            if owner in ("player", "team") and not self.own_field(
                    name, owner, PLAYER_FIELDS if owner == "player" else TEAM_FIELDS, where):
                continue
            if owner == "player":
                self.declare(name, "per-player zone", ztype, ("components", "zones", name),
                             bare=False)
                sym.player_fields[name] = ztype
            elif owner == "team":
                self.declare(name, "per-team zone", ztype, ("components", "zones", name),
                             bare=False)
                sym.team_fields[name] = ztype
            else:
                self.declare(name, "zone", ztype, ("components", "zones", name))
        for name, spec in (comps.get("dice") or {}).items():
            ty = t.Type("list", t.Type("die", name=name)) if "count" in spec else t.Type(
                "die", name=name)
            self.declare(name, "die", ty, ("components", "dice", name))
            for attr, value in (spec.get("attributes") or {}).items():
                if self.own_field(attr, "die", DIE_FIELDS,
                                  ("components", "dice", name, "attributes", attr)):
                    sym.die_fields.setdefault(attr, t.type_of_value(value))
        for name, spec in (comps.get("decks") or {}).items():
            self.declare(name, "deck", t.list_of(t.Type("card", name=name)),
                         ("components", "decks", name))
            cards = [c for c in spec.get("cards") or [] if isinstance(c, dict)]
            refused: set = set()  # one finding per field name, not one per card
            for i, card in enumerate(spec.get("cards") or []):
                for key, value in (card.items() if isinstance(card, dict) else ()):
                    if key in refused:
                        continue
                    if not self.own_field(key, "card", CARD_FIELDS,
                                          ("components", "decks", name, "cards", i, key)):
                        refused.add(key)
                        continue
                    prev = sym.card_fields.get(key)
                    vt = t.type_of_value(value)
                    sym.card_fields[key] = vt if prev is None else t.join(prev, vt)
            for i, known in enumerate(spec.get("known_by") or []):
                lacking = sum(1 for c in cards if known not in c)
                if lacking:
                    where = ("components", "decks", name, "known_by", i)
                    self.diags.append(Diagnostic(
                        "unknown-field", f"'{known}' is not a field of "
                        f"{'any' if lacking == len(cards) else f'{lacking} of the'} "
                        f"'{name}' cards, so it cannot tell them apart",
                        self.doc.positions.value(where), where))
        for name, spec in (comps.get("grids") or {}).items():
            self.declare(name, "grid", t.GRID, ("components", "grids", name))
            attrs = {key: (value, ("components", "grids", name, "default", key))
                     for key, value in (spec.get("default") or {}).items()}
            for table in ("row_attributes", "column_attributes", "cells"):
                for where, cell in (spec.get(table) or {}).items():
                    attrs.update({key: (value, ("components", "grids", name, table, where, key))
                                  for key, value in (cell or {}).items()})
            for key, (value, where) in attrs.items():
                if self.own_field(key, "cell", CELL_FIELDS, where):
                    sym.cell_fields.setdefault(key, t.type_of_value(value))
        for name in comps.get("timers") or {}:
            self.declare(name, "timer", t.TIMER, ("components", "timers", name))
            sym.timers.add(name)
        if data.get("teams"):
            sym.teams = True
            sym.globals["teams"] = Decl("teams", "context", t.list_of(t.TEAM), ("teams",))
        for name, spec in (data.get("procedures") or {}).items():
            self.declare(name, "procedure", t.ANY, ("procedures", name), bare=False)
            sym.procedures[name] = list((spec.get("params") or {}).keys())
        for name, spec in (data.get("events") or {}).items():
            if name in BUILTIN_EVENTS:
                self.diags.append(Diagnostic(
                    "reserved-name", f"'{name}' is a built-in event", self.doc.positions.key(
                        ("events", name)), ("events", name)))
                continue
            self.declare(name, "event", t.ANY, ("events", name), bare=False)
            sym.events[name] = list(spec.get("fields") or [])
        for name in (data.get("flow") or {}).get("phases") or {}:
            if name == END:
                self.diags.append(Diagnostic(
                    "reserved-name", "'end' is the name of the game's end and cannot name a "
                                     "phase", self.doc.positions.key(("flow", "phases", name))))
                continue
            sym.phases.append(name)
        self._collect_decisions(data, ())
        return sym

    def _collect_decisions(self, node: Any, path: tuple) -> None:
        """Finds every choose/actions/race step anywhere and declares its decision id."""
        if isinstance(node, dict):
            effect = next(iter(node), None)
            if effect in ("choose", "actions", "race") and isinstance(node[effect], str):
                name = node[effect]
                if name in self.sym.decisions:
                    self.sym.decision_options[name] = _merge_options(
                        self.sym.decision_options.get(name), _option_names(node.get("options")))
                else:
                    self.declare(name, "decision", _decision_type(node), path + (effect,))
                    if name in self.seen and self.seen[name].namespace == "decision":
                        self.sym.decisions[name] = self.seen[name]
                        opts = _option_names(node.get("options"))
                        if effect == "actions" and node.get("pass", True) and opts is not None:
                            opts = opts + ["pass"]
                        self.sym.decision_options[name] = opts
            for key, value in node.items():
                if key in ("policies", "variants") and not path:
                    continue
                self._collect_decisions(value, path + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                self._collect_decisions(value, path + (i,))


def _option_names(options: Any) -> list[Any] | None:
    """The option names of a decision, when they are literal (None: computed)."""
    if isinstance(options, list):
        return list(options)
    if isinstance(options, dict):
        return list(options)
    return None


def _merge_options(a: list | None, b: list | None) -> list | None:
    if a is None or b is None:
        return None
    return a + [x for x in b if x not in a]


def _many(by: str) -> bool:
    """Whether a decision's `by` is written as a list of players, who each decide (the
    decision then maps each to their choice): `players`, a list written out or built
    (`[players[2], players[0]]`, `[p for p in players if ...]`), `opponents(...)` or a
    player's `others`, as the expression parses (`[current][0]` is one player)."""
    try:
        node = parse_expression(by)
    except ExprSyntaxError:  # the checker reports it where `by` is checked
        return False
    return _players_listed(node)


def _players_listed(node: n.Node) -> bool:
    """Whether an expression gives a list of players, by its form: `players`, a list written
    out or built, `opponents(...)`, a player's `others` or a team's `members`, lists joined
    by `+`, or a choice (`if ... then ... else ...`) between such lists."""
    if isinstance(node, n.Name):
        return node.id == "players"
    if isinstance(node, (n.ListExpr, n.Comprehension)):
        return True
    if isinstance(node, n.Call):
        return node.func in ("opponents", "sort_by")
    if isinstance(node, n.Field):
        return node.name in ("others", "members")
    if isinstance(node, n.Binary):
        return node.op == "+" and (_players_listed(node.left) or _players_listed(node.right))
    if isinstance(node, n.Conditional):
        return _players_listed(node.then) and _players_listed(node.other)
    return False


def _decision_type(step: dict) -> t.Type:
    effect = next(iter(step))
    if effect == "race":
        return t.MAP
    by = step.get("by")
    if step.get("sealed") or (isinstance(by, str) and _many(by.strip())):
        return t.MAP
    options = step.get("options")
    if "min" in step or "max" in step:
        return t.INT
    if isinstance(options, (list, dict)) or effect == "actions":
        names = options if isinstance(options, list) else list(options or {})
        if names and all(isinstance(x, bool) for x in names):
            return t.BOOL
        if names and all(isinstance(x, int) and not isinstance(x, bool) for x in names):
            return t.INT
        return t.STRING
    return t.ANY


def collect_symbols(doc: Document) -> tuple[Symbols, list[Diagnostic]]:
    """Collects every declaration of a ruleset. Returns the symbols and the diagnostics."""
    c = _Collector(doc)
    sym = c.collect()
    return sym, c.diags


__all__ = ["Symbols", "Decl", "collect_symbols", "CONTEXT_NAMES", "BUILTIN_EVENTS", "END",
           "EFFECTS"]
