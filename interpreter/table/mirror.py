"""Phase 6, run (narration of generated games): a game set up by the interpreter, shown the
state of a game the generated code plays.

Input: a `Game` made by interpreter/engine/setup.py `new_game` and never run, and the `look`
function a logged generated game hands over (interpreter/compile/records.py `look`): whose
turn it is, whether a turn is under way, the turn and round, every die's face, what each zone
holds, and the players' and the game's state of plain kinds. Output: `sync()` writes that into
the `Game`, so narration (interpreter/table/narrate.py), which reads a few things of the game
besides each record (a die's face, the zone an item lies in, who is playing, a player's
quantity after a transfer), says exactly what it says of the interpreter's own game.
`Placed` goes the other way: a game put at a position, as the generated code of a game from
a position reads it (interpreter/compile/positions.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.values import Zone, pieces

_THINGS = frozenset({"player", "team", "dref", "card", "cell"})


def by_kind(v: Any, kind: str, thing: Callable[[Any, str], Any]) -> Any:
    """`v`, of `kind` (a generated game's kinds: `list:K`, `map:K=V`, ...), with each player,
    team, die, card or cell in it given to `thing` (the value and its kind) for its other
    form: the generated game's numbers and ids one way, the interpreter's objects the
    other."""
    if v is None:
        return v
    if kind.startswith("list:"):
        return [by_kind(x, kind[5:], thing) for x in v]
    if kind.startswith("map:"):
        key, _, item = kind[4:].partition("=")
        return {by_kind(k, key, thing): by_kind(x, item, thing) for k, x in v.items()}
    return thing(v, kind) if kind in _THINGS else v


def zones_of(game: Any) -> dict[str, Zone]:
    """Every zone of a game by its id: the game's, and each player's and team's own."""
    out: dict[str, Zone] = {z.id: z for z in game.zones.values()}
    for owner in [*game.players, *game.teams]:
        for value in vars(owner).values():
            if isinstance(value, Zone):
                out[value.id] = value
    return out


class Mirror:
    """The interpreter's `Game` object, kept in step with a generated game for narration."""

    def __init__(self, game: Any, look: Callable[[], tuple]):
        self.game = game
        self.look = look
        env = game.env
        self.items = pieces(env)  # die and card ids -> the game's objects
        self.zones = zones_of(game)
        self.cells: dict[str, Any] = {c.id: c for value in env.values()
                                      for c in getattr(value, "cells", None) or ()
                                      if hasattr(c, "id")}
        self.ids: tuple = ()

    def sync(self) -> None:
        """The generated game's state as it stands now, written into the `Game`."""
        (cur, in_turn, turn, round_, now, faces, players, state, ids, dice_faces,
         zones, _) = self.look()
        g = self.game
        g.current = g.players[cur]
        g.env["current"] = g.current
        g.in_turn, g.turn, g.round = in_turn, turn, round_
        if not g.clock.real:  # a live game's clock is real time (and its replays' moments)
            g.clock.set(now)
        items = self.items
        for die_id, face in faces.items():
            items[die_id].face = face
        if dice_faces is not None:
            for die_id, face in zip(ids, dice_faces, strict=True):
                items[die_id].face = face
        for zone_id, held in zones.items():
            zone = self.zones[zone_id]
            zone.items = [items[ids[i]] for i in held]
            for x in zone.items:
                g._where[id(x)] = zone
                x.zone = zone_id
        for name, values in players.items():
            for p, v in zip(g.players, values, strict=True):
                setattr(p, name, v)
        g.env.update(state)
        self.ids = ids

    def sync_all(self) -> None:
        """`sync`, and the whole state besides, as the game's final table and position read
        it (interpreter/table/view_model.py, position.py): every state variable, decision
        and race in the interpreter's values (seat numbers as players, die and card numbers
        as dice and cards, a cell's id as the cell), who is out, the timers, and what left
        play."""
        self.sync()
        kinds, whole = self.look()[-1]
        g = self.game
        value = self.value
        for scope, values in whole.items():
            if scope in ("global", "turn", "round"):
                for name, v in values.items():
                    g.env[name] = value(v, kinds[name])
            elif scope in ("player", "team"):
                owners = g.players if scope == "player" else g.teams
                for name, vs in values.items():
                    for owner, v in zip(owners, vs, strict=True):
                        setattr(owner, name, value(v, kinds[name]))
        for did, v in whole["decisions"].items():
            g.env[did] = value(v, kinds.get(did, "?"))
        for rid, claims in whole["races"].items():
            g.env[rid] = None if claims is None else {
                g.players[i]: self.pieces(c)
                for i, c in enumerate(claims) if c is not None}
        if whole["out"] is not None:
            for p, out in zip(g.players, whole["out"], strict=True):
                p.eliminated = out
        for name, (seconds, started, running, stopped, owner) in whole["timers"].items():
            t = g.timers[name]
            t.seconds, t.started_at, t.running, t.stopped_at = seconds, started, running, stopped
            t.owner = g.players[owner] if owner is not None else None
        placed = {id(x) for z in self.zones.values() for x in z.items}
        for x in self.items.values():
            if id(x) not in placed:
                x.zone = ""

    def value(self, v: Any, kind: str) -> Any:
        """A generated game's value as the interpreter holds it, by its kind."""
        return by_kind(v, kind, self._thing)

    def pieces(self, numbers: list) -> list:
        """The game's dice or cards the generated game holds as these numbers."""
        return [self.items[self.ids[x]] for x in numbers]

    def _thing(self, v: Any, kind: str) -> Any:
        g = self.game
        if kind == "player":
            return g.players[v]
        if kind == "team":
            return g.teams[v]
        if kind == "cell":
            return self.cells[v]
        return self.items[self.ids[v]]  # a die or a card, by its number


class Placed:
    """A game the interpreter set up and put at a position (interpreter/table/position.py
    `apply`; never run), as the generated code of a game from a position reads it
    (interpreter/compile/positions.py, `_POS`): the phase it begins at, the seat whose turn
    it resumes at, the round, turn and whose turn, every state value, what each zone holds,
    each die's face and who is out, each value turned into the generated code's own by its
    kind (the inverse of `Mirror.value`)."""

    def __init__(self, game: Any):
        self.game = game
        self.begin = game.begin
        self.resume = game.resume.seat - 1 if game.resume is not None else None
        self.round, self.turn = game.round, game.turn
        self.cur = game.current.seat - 1 if game.current is not None else 0
        self.kept = dict(game.kept)
        self.out = [p.eliminated for p in game.players]
        self.items = pieces(game.env)  # die and card ids -> the game's objects
        self.zones = zones_of(game)
        self.number: dict[str, int] = {}
        self.ids: tuple = ()

    def bind(self, ids: tuple) -> None:
        """The generated code's numbers of the dice and cards, by their ids."""
        self.number = {item_id: i for i, item_id in enumerate(ids)}
        self.ids = ids

    def state(self, name: str) -> Any:
        return self.game.env.get(name)

    def players(self, name: str) -> list:
        return [getattr(p, name) for p in self.game.players]

    def teams(self, name: str) -> list:
        return [getattr(t, name) for t in self.game.teams]

    def face(self, die_id: str) -> Any:
        return self.items[die_id].face

    def faces(self, count: int) -> list:
        """The faces of the dice, by their numbers (the first `count` items)."""
        return [self.items[self.ids[i]].face for i in range(count)]

    def zone(self, zone_id: str) -> list[int]:
        return [self.number[x.id] for x in self.zones[zone_id].items]

    def value(self, v: Any, kind: str) -> Any:
        """The game's value as the generated code holds it, by its kind."""
        return by_kind(v, kind, self._number)

    def _number(self, v: Any, kind: str) -> Any:
        if kind == "player":
            return v.seat - 1
        if kind == "team":
            return next(i for i, t in enumerate(self.game.teams) if t is v)
        if kind == "cell":
            return v.id
        return self.number[v.id]  # a die or a card
