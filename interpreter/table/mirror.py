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

from interpreter.engine.values import Card, Die, Zone


class Mirror:
    """The interpreter's `Game` object, kept in step with a generated game for narration."""

    def __init__(self, game: Any, look: Callable[[], tuple]):
        self.game = game
        self.look = look
        env = game.env
        self.items: dict[str, Any] = {}  # die and card ids -> the game's objects
        for value in env.values():
            for x in value if isinstance(value, list) else [value]:
                if isinstance(x, (Die, Card)):
                    self.items[x.id] = x
        self.zones: dict[str, Zone] = {z.id: z for z in game.zones.values()}
        for owner in [*game.players, *game.teams]:
            for value in vars(owner).values():
                if isinstance(value, Zone):
                    self.zones[value.id] = value

    def sync(self) -> None:
        """The generated game's state as it stands now, written into the `Game`."""
        (cur, in_turn, turn, round_, now, faces, players, state, ids, dice_faces,
         zones) = self.look()
        g = self.game
        g.current = g.players[cur]
        g.env["current"] = g.current
        g.in_turn, g.turn, g.round = in_turn, turn, round_
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
