"""Phase 6, run (values): the runtime objects that expressions read and effects change.

Input: nothing (classes). Output: `Player`, `Team`, `Die`, `Zone`, `Card`, `Timer`, `Cell` and
`Grid`, whose attributes are the built-in fields the checker knows (dsl/symbols.py) plus the
ruleset's own (per-player state, die attributes, card fields). The language is closed: each
object names the fields an expression may read (`_readable`) and the ones `set` and `add` may
write (`_settable`), and dsl/builtins.py's `get` and `put` go through those lists only, so no
expression reaches an attribute the ruleset did not declare. `ref` gives each object a short,
stable id for logs and decision scripts; `plain` turns any runtime value into JSON-able data.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from dsl.symbols import (
    CARD_FIELDS,
    CELL_FIELDS,
    DIE_FIELDS,
    GRID_FIELDS,
    PLAYER_FIELDS,
    TEAM_FIELDS,
    TIMER_FIELDS,
)
from interpreter.engine.signals import RuleError


@cache
def fieldset(builtin: frozenset, declared: frozenset) -> frozenset:
    """The built-in fields plus the ruleset's, one shared set per kind of object."""
    return builtin | declared


def declare_fields(obj: Any, readable: Any = (), settable: Any = ()) -> None:
    """Opens a ruleset's declared fields of one object to expressions (set up once)."""
    cls = type(obj)
    obj._readable = fieldset(cls._readable, frozenset(readable) | frozenset(settable))
    obj._settable = fieldset(cls._settable, frozenset(settable))


class Player:
    """One seat. Per-player state variables and player-owned zones are plain attributes."""

    _readable = frozenset(PLAYER_FIELDS)
    _settable: frozenset = frozenset()

    def __init__(self, seat: int, name: str, game_players: list[Player]):
        self.seat = seat
        self.name = name
        self.team = None
        self.eliminated = False
        self._all = game_players  # the game's list, shared: `others` follows eliminations

    @property
    def others(self) -> list[Player]:
        """The other players in turn order from this one (clockwise)."""
        i = self._all.index(self)
        return self._all[i + 1:] + self._all[:i]

    def __repr__(self) -> str:
        return self.name


class Team:
    _readable = frozenset(TEAM_FIELDS)
    _settable: frozenset = frozenset()

    def __init__(self, name: str):
        self.name = name
        self.members: list[Player] = []

    @property
    def leader(self) -> Player | None:
        return self.members[0] if self.members else None

    def __repr__(self) -> str:
        return self.name


class Die:
    """A die: its faces (1..sides, or custom), the face it shows, and its fixed attributes."""

    _readable = frozenset(DIE_FIELDS)
    _settable = frozenset({"face"})

    def __init__(self, id: str, kind: str, faces: list, attributes: dict[str, Any]):
        self.id = id
        self.kind = kind
        self.faces = faces
        self.sides = len(faces)
        self.face: Any = None  # none until first rolled
        self.zone = ""
        for key, value in attributes.items():
            setattr(self, key, value)
        if attributes:
            declare_fields(self, attributes)

    def __repr__(self) -> str:
        return f"{self.id}={self.face}"


class Card:
    """A card (or chip, tile...) with data fields. `_spoken` is how people name it at a table:
    the values of its set's `known_by` fields (default all), joined by '-'."""

    _readable = frozenset(CARD_FIELDS)
    _settable: frozenset = frozenset()

    def __init__(self, id: str, deck: str, fields: dict[str, Any],
                 known_by: list[str] | None = None):
        self.id = id
        self.deck = deck
        self.zone = ""
        # Underscored: kept out of the namespace of the card's own fields.
        self._spoken = "-".join(str(fields.get(f)) for f in (known_by or fields))
        for key, value in fields.items():
            setattr(self, key, value)
        declare_fields(self, settable=fields)

    def __repr__(self) -> str:
        return self.id


def visible_to(visibility: str, owner: Any, viewer: Any) -> bool:
    """Whether `viewer` (a player; None: the whole record, which sees everything) sees a value
    of this visibility belonging to `owner` (a player, a team, or None): `public` for all,
    `owner` for its player (or the owning team's members), `others` for everyone but them,
    `hidden` for nobody. A viewer with no seat (`name` None) is the public at large."""
    if viewer is None or visibility == "public":
        return True
    owns = owner is not None and (owner is viewer or getattr(viewer, "team", None) is owner)
    if visibility == "owner":
        return owns
    if visibility == "others":
        return owner is None or (not owns and getattr(viewer, "name", None) is not None)
    return False  # hidden


class Zone:
    """A place holding dice or cards; `items` is in order (the top of a deck is items[0]).
    An expression reads a zone as the list of what it holds: it has no fields."""

    _readable: frozenset = frozenset()
    _settable: frozenset = frozenset()
    counted = False  # a referee's table counts its dice instead of typing their faces

    def __init__(self, id: str, kind: str, capacity: int | None = None,
                 owner: Player | Team | None = None, visibility: str = "public"):
        self.id = id
        self.kind = kind
        self.capacity = capacity
        self.owner = owner
        self.visibility = visibility
        self.items: list = []

    def seen_by(self, players: list) -> list[str] | None:
        """The names of the players who see what it holds, or None when everyone does."""
        if self.visibility == "public" or (self.visibility == "others" and self.owner is None):
            return None
        return [p.name for p in players if visible_to(self.visibility, self.owner, p)]

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self):
        return iter(self.items)

    def __getitem__(self, i):
        return self.items[i]

    def __repr__(self) -> str:
        return f"{self.id}{self.items!r}"


class Timer:
    """A countdown read against the game's clock (modelled or real)."""

    _readable = frozenset(TIMER_FIELDS)
    _settable: frozenset = frozenset()

    def __init__(self, name: str, clock, visibility: str = "public"):
        self.name = name
        self.visibility = visibility
        self._clock = clock
        self.seconds = 0
        self.started_at: float | None = None
        self.owner: Player | None = None  # who started it (for `others` visibility)
        self.running = False
        self.stopped_at: float | None = None

    @property
    def deadline(self) -> float | None:
        return None if self.started_at is None else self.started_at + self.seconds

    @property
    def remaining(self) -> float:
        if not self.running:
            return 0
        return max(0, self.deadline - self._clock.now())

    @property
    def elapsed(self) -> float:
        if self.started_at is None:
            return 0
        end = self._clock.now() if self.running else (self.stopped_at or self.started_at)
        return end - self.started_at

    def __repr__(self) -> str:
        return f"timer {self.name}"


class Cell:
    _readable = frozenset(CELL_FIELDS)
    _settable = frozenset({"occupant"})

    def __init__(self, id: str, row: Any, column: Any, row_index: int, column_index: int,
                 attributes: dict[str, Any]):
        self.id = id
        self.row = row
        self.column = column
        self.row_index = row_index
        self.column_index = column_index
        self.neighbours: list[Cell] = []
        self.occupant = None
        # Compass directions to other cells of the map: worked out once (cells never move),
        # for rules that ask for them thousands of times (deduction over a map).
        self._directions: dict[Cell, str] = {}
        for key, value in attributes.items():
            setattr(self, key, value)
        declare_fields(self, settable=attributes)

    def __repr__(self) -> str:
        return self.id


class Grid:
    _readable = frozenset(GRID_FIELDS)
    _settable: frozenset = frozenset()

    def __init__(self, name: str, rows: list, columns: list, cells: list[Cell]):
        self.name = name
        self.rows = rows
        self.columns = columns
        self.cells = cells
        self._by_id = {c.id: c for c in cells}

    def __getitem__(self, cell_id):
        return self._by_id[cell_id]

    def __repr__(self) -> str:
        return f"grid {self.name}"


def pieces(env: Any) -> dict[str, Die | Card]:
    """Every die and card of a game by its id (components are named in `env`)."""
    out: dict[str, Die | Card] = {}
    for value in env.values():
        for x in value if isinstance(value, list) else [value]:
            if isinstance(x, (Die, Card)):
                out[x.id] = x
    return out


def ref(value: Any) -> Any:
    """A short, stable reference to a runtime object (for logs, views and scripts)."""
    if isinstance(value, Player):
        return value.name
    if isinstance(value, (Die, Card, Cell, Zone)):
        return value.id
    if isinstance(value, (Team, Timer, Grid)):
        return value.name
    return value


def plain(value: Any) -> Any:
    """A runtime value as JSON-able data: objects become their references."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {str(ref(k)): plain(v) for k, v in value.items()}
    if isinstance(value, Die):
        return {"die": value.id, "face": value.face}
    return ref(value)


def told(value: Any) -> str:
    """A value as an error message tells it: as narration shows it (`show`), but a number
    whole, to the last digit."""
    return repr(value) if type(value) in (int, float) else show(value)


def show(value: Any) -> str:
    """A runtime value as narration text."""
    if isinstance(value, Die):
        return str(value.face)
    if isinstance(value, (list, tuple)):
        return ", ".join(show(v) for v in value)
    if isinstance(value, Zone):
        return f"{value.id}: " + (", ".join(f"{ref(v)}={show(v)}" for v in value.items)
                                  or "nothing")
    if value is True or value is False or value is None:
        return {True: "true", False: "false", None: "none"}[value]
    if isinstance(value, float):
        return f"{value:.1f}"
    return str(ref(value))


CONTAINERS = (list, dict)  # the values that are copied when stored (value semantics)
MAX_COPY_DEPTH = 200  # lists in lists this deep are refused rather than copied



def unset_item(k: Any, container: Any) -> str:
    """The words of a `set` of an item of `container` at `k` it cannot set (a key past a
    list's ends; the generated code's too)."""
    return f"cannot set item {show(k)} of {show(container)}"

def copied(value: Any, path: tuple = (), depth: int = 0) -> Any:
    """`value` as a new value: lists and maps copied all the way down, so that storing it
    (set, let, a procedure's parameter) never shares it with where it came from. Players,
    teams, zones, dice and cards keep their identity: they are things, not values. `path` is
    the rule that stores it, where a value nested too deep is refused."""
    t = type(value)
    if t is not list and t is not dict:
        return value
    if depth > MAX_COPY_DEPTH:
        raise RuleError("runtime-error", f"lists nested more than {MAX_COPY_DEPTH} deep", path,
                        hint="keep lists flat: a list of lists of numbers, not lists in lists "
                             "in lists")
    if t is list:
        return [copied(x, path, depth + 1) if type(x) in CONTAINERS else x for x in value]
    return {k: copied(x, path, depth + 1) if type(x) in CONTAINERS else x
            for k, x in value.items()}
