"""Phase 6, run (a position's values): state values written in the game's words, and back.

Input: a value read from a position file, the type its state variable declares
(`dsl.symbols.state_type`) and the game's `Names` (interpreter/table/naming.py). Output: the
runtime value (a number, a text, true or false, a list, a map, or one of the game's players,
teams, cards, dice, cells, zones or timers), or `Bad` saying why not and where inside the
value; and the reverse, `written`, which the position of `meeple run --json` is made of.

Where the declaration says what a value is (`type: player`, `type: cell`...), the thing is
written by its name: `position: B4`, `leader: Player 2`. Inside a list or a map, whose items
the language does not type, a thing is written as a one-key mapping, `{card: Kestrel}`,
`{player: Player 1}`, `{cell: B4}`, `{die: red}`, `{team: Red}`, `{zone: bag}`, `{timer:
clock}`, so that it is never mistaken for a text (`B4` in a list of region ids stays a text).
A map of one entry whose key is one of these words is therefore read as such a thing.
"""

from __future__ import annotations

import math
from typing import Any

from dsl import types as t
from dsl.diagnostics import suggestion
from dsl.safe_text import shown, text_problem
from interpreter.engine.values import Card, Cell, Die, Player, Team, Timer, Zone, ref
from interpreter.table.naming import Names

MAX_NUMBER = 10 ** 15  # as --set: a number past it is a typo or an attack, not a score
MAX_TEXT = 1_000
TAGS = {"player": (), "team": (), "card": (), "die": ("face",), "cell": ("grid",),
        "zone": (), "timer": ()}
THINGS = frozenset(TAGS)


class Bad(Exception):
    """A value that cannot be used: where inside it (keys and indexes), and why."""

    def __init__(self, where: tuple, message: str, hint: str | None = None):
        super().__init__(message)
        self.where = where
        self.message = message
        self.hint = hint


def kind_of(v: Any) -> str:
    """What a value is, in words, for messages."""
    if v is None:
        return "nothing (none)"
    if isinstance(v, bool):
        return f"{str(v).lower()} (true or false)"
    if isinstance(v, dict):
        return "a mapping"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, (int, float)):
        return f"the number {v}" if math.isfinite(v) else f"{v} (not a finite number)"
    return f"the text '{shown(str(v), 40)}'"


def _tag(v: Any) -> str | None:
    """The thing a one-key mapping names (`{card: X}`; a die may add `face`, a cell `grid`)."""
    if not isinstance(v, dict):
        return None
    tags = [k for k in v if k in TAGS]
    if len(tags) != 1 or any(k != tags[0] and k not in TAGS[tags[0]] for k in v):
        return None
    return tags[0]


class Reader:
    """Reads values against their declared types. Faces a die is given (`{die: X, face: F}`)
    are collected in `faces`, where the position checks that no die is given two."""

    def __init__(self, names: Names):
        self.names = names
        self.faces: dict[Die, tuple[Any, tuple]] = {}

    def value(self, v: Any, ty: t.Type, where: tuple = ()) -> Any:
        k = ty.kind
        tag = _tag(v)
        if tag is not None and k in THINGS | {"any"}:
            if k != "any" and tag != k:
                raise Bad(where, f"a {tag} where a {k} is wanted")
            return self.thing(tag, v[tag], where + (tag,), v)
        if k in THINGS:
            return None if v is None else self.thing(k, v, where)
        if k == "int":
            if not (isinstance(v, int) and not isinstance(v, bool)):
                raise Bad(where, f"{kind_of(v)} where a whole number is wanted")
            return _bounded(v, where)
        if k == "number":
            if not isinstance(v, (int, float)) or isinstance(v, bool) or not math.isfinite(v):
                raise Bad(where, f"{kind_of(v)} where a number is wanted")
            return _bounded(v, where)
        if k == "bool":
            if not isinstance(v, bool):
                raise Bad(where, f"{kind_of(v)} where true or false is wanted")
            return v
        if k == "string":
            if not isinstance(v, str):
                raise Bad(where, f"{kind_of(v)} where a text is wanted")
            return _text(v, where)
        if k == "list":
            if not isinstance(v, list):
                raise Bad(where, f"{kind_of(v)} where a list is wanted")
            item = ty.item or t.ANY
            return [self.value(x, item, where + (i,)) for i, x in enumerate(v)]
        if k == "map":
            if not isinstance(v, dict):
                raise Bad(where, f"{kind_of(v)} where a map is wanted")
            return self._map(v, where)
        return self._any(v, where)

    def _any(self, v: Any, where: tuple) -> Any:
        """A value the declaration does not type: as it is written, things tagged."""
        if v is None or isinstance(v, bool):
            return v
        if isinstance(v, (int, float)):
            if not math.isfinite(v):
                raise Bad(where, f"{kind_of(v)} is not a value")
            return _bounded(v, where)
        if isinstance(v, str):
            return _text(v, where)
        if isinstance(v, list):
            return [self._any(x, where + (i,)) for i, x in enumerate(v)]
        tag = _tag(v)
        if tag is not None:
            return self.thing(tag, v[tag], where + (tag,), v)
        return self._map(v, where)

    def _map(self, v: dict, where: tuple) -> dict:
        out = {}
        for key, x in v.items():
            if isinstance(key, bool) or not isinstance(key, (int, str)):
                raise Bad(where + (key,), f"a map's key must be a text or a whole number, not "
                          f"{kind_of(key)}")
            out[_text(key, where) if isinstance(key, str) else key] = self._any(x, where + (key,))
        return out

    def thing(self, kind: str, word: Any, where: tuple, tagged: dict | None = None) -> Any:
        """The player, team, card, die, cell, zone or timer `word` names."""
        n = self.names
        found: Any = None
        if kind == "player":
            found = n.player(word)
            known = list(n.players)
        elif kind == "team":
            found = n.teams.get(word) if isinstance(word, str) else None
            known = list(n.teams)
        elif kind == "card":
            found = n.item(word)
            found = found if isinstance(found, Card) else None
            known = [n.card_name(c) for c in n.cards]
        elif kind == "die":
            found = n.item(word)
            found = found if isinstance(found, Die) else None
            known = [d.id for ds in n.dice.values() for d in ds]
        elif kind == "cell":
            found = n.cell(word, (tagged or {}).get("grid"))
            known = list(n.cells)
        elif kind == "zone":
            found = n.zones.get(word) if isinstance(word, str) else None
            known = list(n.zones)
        else:
            found = n.game.timers.get(word) if isinstance(word, str) else None
            known = list(n.game.timers)
        if found is None:
            said = (f"no {kind} is called '{shown(str(word), 40)}'"
                    if isinstance(word, (str, int)) and not isinstance(word, bool)
                    else f"{kind_of(word)} does not name a {kind}")
            raise Bad(where, said + _suggest(word, known), _some(kind, known))
        if isinstance(found, Die) and tagged is not None and "face" in tagged:
            face = n.face(found, tagged["face"])
            if face is None and tagged["face"] is not None:
                raise Bad(where[:-1] + ("face",), f"{found.id} has no face "
                          f"{shown(str(tagged['face']), 40)}", f"its faces: {_faces(found)}")
            self.faces.setdefault(found, (face, where[:-1] + ("face",)))
        return found


def _suggest(word: Any, known: list) -> str:
    return suggestion(word, [str(k) for k in known]) if isinstance(word, str) else ""


def _some(kind: str, known: list) -> str:
    if not known:
        return f"this game has no {kind}s"
    more = f" and {len(known) - 8} more" if len(known) > 8 else ""
    return f"{kind}s: " + ", ".join(shown(str(k), 40) for k in known[:8]) + more


def _faces(die: Die) -> str:
    return ", ".join(str(f) for f in die.faces)


def _bounded(v: int | float, where: tuple) -> int | float:
    if abs(v) > MAX_NUMBER:
        raise Bad(where, f"{v} is larger than a game's numbers go ({MAX_NUMBER:.0e})")
    return v


def _text(v: str, where: tuple) -> str:
    problem = text_problem(v.replace("\n", "").replace("\t", ""), MAX_TEXT)
    if problem is not None:
        raise Bad(where, f"the text {problem}")
    return v


def written(v: Any, ty: t.Type, names: Names) -> Any:
    """A runtime value as a position writes it (the reverse of `Reader.value`)."""
    k = ty.kind
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [written(x, t.ANY, names) for x in v]
    if isinstance(v, dict):
        return {(key if isinstance(key, (str, int)) and not isinstance(key, bool)
                 else str(ref(key))): written(x, t.ANY, names) for key, x in v.items()}
    word: Any
    if isinstance(v, Player):
        tag, word = "player", v.name
    elif isinstance(v, Team):
        tag, word = "team", v.name
    elif isinstance(v, Card):
        tag, word = "card", names.card_name(v)
    elif isinstance(v, Die):
        tag, word = "die", v.id
    elif isinstance(v, Cell):
        tag, word = "cell", names.cell_word(v)
        if isinstance(word, dict):
            return word
    elif isinstance(v, Zone):
        tag, word = "zone", v.id
    elif isinstance(v, Timer):
        tag, word = "timer", v.name
    else:
        return str(ref(v))
    return word if k == tag else {tag: word}
