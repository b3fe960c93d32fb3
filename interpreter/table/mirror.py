"""Phase 6, run (narration of generated games): a game set up by the interpreter, shown the
state of a game the generated code plays.

Input: a `Game` made by interpreter/engine/setup.py `new_game` and never run, and the `look`
function a logged generated game hands over (interpreter/compile/records.py `look`): whose
turn it is, whether a turn is under way, the turn and round, every die's face, what each zone
holds, and the players' and the game's state of plain kinds. Output: `sync()` writes that into
the `Game`, so narration (interpreter/table/narrate.py), which reads a few things of the game
besides each record (a die's face, the zone an item lies in, who is playing, a player's
quantity after a transfer), says exactly what it says of the interpreter's own game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from interpreter.engine.values import Zone, pieces


class Mirror:
    """The interpreter's `Game` object, kept in step with a generated game for narration."""

    def __init__(self, game: Any, look: Callable[[], tuple]):
        self.game = game
        self.look = look
        env = game.env
        self.items = pieces(env)  # die and card ids -> the game's objects
        self.zones: dict[str, Zone] = {z.id: z for z in game.zones.values()}
        self.cells: dict[str, Any] = {c.id: c for value in env.values()
                                      for c in getattr(value, "cells", None) or ()
                                      if hasattr(c, "id")}
        self.ids: tuple = ()
        for owner in [*game.players, *game.teams]:
            for value in vars(owner).values():
                if isinstance(value, Zone):
                    self.zones[value.id] = value

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
                g.players[i]: [self.items[self.ids[x]] for x in c]
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
        if v is None or kind in ("int", "num", "str", "bool", "?"):
            return v
        g = self.game
        if kind.startswith("list:"):
            return [self.value(x, kind[5:]) for x in v]
        if kind.startswith("map:"):
            key, _, item = kind[4:].partition("=")
            return {self.value(k, key): self.value(x, item) for k, x in v.items()}
        if kind == "player":
            return g.players[v]
        if kind == "team":
            return g.teams[v]
        if kind in ("dref", "card"):
            return self.items[self.ids[v]]
        if kind == "cell":
            return self.cells[v]
        return v
