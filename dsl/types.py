"""Types of the expression language, for the checker.

Input: nothing (definitions). Output: `Type` values and helpers. Types are light: the checker
reports a mismatch only when both sides are known; `ANY` stands for what it cannot know
statically (event fields, map values), so a check never rejects a correct ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Type:
    kind: str                    # any int number bool string none list map player team die
    item: Type | None = None     # card cell zone timer grid record
    name: str | None = None      # the component, deck or grid a die/card/cell comes from

    def __str__(self) -> str:
        if self.kind == "list":
            return f"list of {self.item}" if self.item and self.item.kind != "any" else "list"
        if self.kind == "map":
            return "map"
        return {"int": "whole number", "number": "number", "bool": "condition (true/false)",
                "string": "text"}.get(self.kind, self.kind)


ANY = Type("any")
INT = Type("int")
NUMBER = Type("number")
BOOL = Type("bool")
STRING = Type("string")
NONE = Type("none")
PLAYER = Type("player")
TEAM = Type("team")
DIE = Type("die")
CARD = Type("card")
CELL = Type("cell")
TIMER = Type("timer")
GRID = Type("grid")
MAP = Type("map", ANY)


def list_of(t: Type) -> Type:
    return Type("list", t)


ANY_LIST = list_of(ANY)
NUMBERS = list_of(NUMBER)
DICE = list_of(DIE)
PLAYERS = list_of(PLAYER)
CELLS = list_of(CELL)

NAMED = {"any": ANY, "int": INT, "number": NUMBER, "bool": BOOL, "string": STRING,
         "player": PLAYER, "team": TEAM, "die": DIE, "card": CARD, "cell": CELL,
         "list": ANY_LIST, "map": MAP, "timer": TIMER}


def is_numeric(t: Type) -> bool:
    return t.kind in ("int", "number", "any")


def compatible(expected: Type, actual: Type) -> bool:
    """Whether a value of type `actual` may stand where `expected` is wanted."""
    if expected.kind == "any" or actual.kind == "any":
        return True
    if expected.kind == "number" and actual.kind == "int":
        return True
    if expected.kind == "zone":  # a zone is read as the list of what it holds
        return actual.kind in ("zone", "list")
    if expected.kind == "list" and actual.kind == "zone":
        return True
    if expected.kind != actual.kind:
        return False
    if expected.kind == "list" and expected.item and actual.item:
        return compatible(expected.item, actual.item)
    return True


def join(a: Type, b: Type) -> Type:
    """The type of a value that is either `a` or `b` (for if-then-else and list items)."""
    if a == b:
        return a
    if a.kind == "none":
        return b
    if b.kind == "none":
        return a
    if {a.kind, b.kind} == {"int", "number"}:
        return NUMBER
    if a.kind == b.kind == "list":
        return list_of(join(a.item or ANY, b.item or ANY))
    if a.kind == b.kind:
        return Type(a.kind, a.item)
    return ANY


def type_of_value(value) -> Type:
    """The type of a literal YAML value."""
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    if isinstance(value, float):
        return NUMBER
    if isinstance(value, str):
        return STRING
    if value is None:
        return NONE
    if isinstance(value, list):
        item = ANY
        for i, v in enumerate(value):
            item = type_of_value(v) if i == 0 else join(item, type_of_value(v))
        return list_of(item)
    if isinstance(value, dict):
        return MAP
    return ANY
