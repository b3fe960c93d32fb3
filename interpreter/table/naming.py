"""Phase 6, run (names of things): how files written in the game's words name its pieces.

Input: a built `Game` (its players, teams, decks, dice, maps and zones). Output: `Names`, the
lookups a position file (interpreter/table/position.py) and a `--dice` file's shuffles and
draws use: a player by name or seat number, a team by name, a card by its `name` field (when
no other card has that name) or by its id (`chips[3]`), a die by its id (`red`, `white[2]`),
a map's cell by its id (`B4`), a zone by its id (`bag`, `Player 1.hand`), and the same things
back (`card_name`: the name a position writes for a card). A card or die may also be named
as people at the table name it, `COMPONENT=WORD`: a die of that component showing WORD
(`white=4`), a card of that deck people call WORD (its `known_by` fields joined by '-',
`chips=10`); such names pick among interchangeable pieces, so `Names.kind` gives every piece
the name fits, in id order, and the caller takes the first one not placed otherwise.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.values import Card, Cell, Die, Player, Team, Zone


class Names:
    """The words a file may use for the pieces of one game."""

    def __init__(self, game):
        self.game = game
        comps = game.program.data.get("components") or {}
        self.players: dict[str, Player] = {p.name: p for p in game.players}
        self.teams: dict[str, Team] = {t.name: t for t in game.teams}
        self.cards: list[Card] = [c for deck in comps.get("decks") or {} for c in game.env[deck]]
        self.dice: dict[str, list[Die]] = {}
        for name in comps.get("dice") or {}:
            v = game.env[name]
            self.dice[name] = list(v) if isinstance(v, list) else [v]
        self.items: dict[str, Card | Die] = {c.id: c for c in self.cards}
        self.items.update({d.id: d for ds in self.dice.values() for d in ds})
        # A card is named by its `name` field when that names no other card and is no id.
        counts: dict[str, int] = {}
        for c in self.cards:
            n = _name_field(c)
            if n is not None:
                counts[n] = counts.get(n, 0) + 1
        self.by_name: dict[str, Card] = {}
        for c in self.cards:
            n = _name_field(c)
            if n is not None and counts[n] == 1 and n not in self.items:
                self.by_name[n] = c
        self.decks: dict[str, list[Card]] = {}
        for c in self.cards:
            self.decks.setdefault(c.deck, []).append(c)
        self.cells: dict[str, list[Cell]] = {}
        for grid in comps.get("grids") or {}:
            for cell in game.env[grid].cells:
                self.cells.setdefault(cell.id, []).append(cell)
        self.zones: dict[str, Zone] = dict(game.zones)
        owned = [z for z, spec in (comps.get("zones") or {}).items()
                 if spec.get("owner", "none") != "none"]
        for obj in [*game.players, *game.teams]:
            for z in owned:
                zone = getattr(obj, z, None)
                if isinstance(zone, Zone):
                    self.zones[zone.id] = zone

    # -- words to things -------------------------------------------------------------------------
    def player(self, word: Any) -> Player | None:
        """A player by name, or by seat number (1 is the first seat; a mapping's key `3`
        reads as the text '3')."""
        if isinstance(word, str) and word not in self.players and word.isdigit() and len(
                word) < 6:
            word = int(word)
        if isinstance(word, int) and not isinstance(word, bool):
            return self.game.players[word - 1] if 1 <= word <= len(self.game.players) else None
        return self.players.get(word) if isinstance(word, str) else None

    def item(self, word: Any) -> Card | Die | None:
        """A card or die named exactly: by id, or a card by its unique `name`."""
        if not isinstance(word, str):
            return None
        return self.items.get(word) or self.by_name.get(word)

    def kind(self, word: Any) -> list[Card | Die] | None:
        """The pieces a `COMPONENT=WORD` name fits, in id order (a die of that component whose
        face is WORD: any die of it, the caller setting the face, checked by `face`); None
        when `word` is no such name."""
        if not isinstance(word, str) or "=" not in word:
            return None
        comp, _, said = word.partition("=")
        if comp in self.dice:
            return list(self.dice[comp])
        if comp in self.decks:
            return [c for c in self.decks[comp] if c._spoken == said]
        return None

    def face(self, die: Die, word: Any) -> Any:
        """The face of `die` that `word` names (a number or a text as the faces are
        written), or None when the die has no such face."""
        if isinstance(word, bool):
            return None
        return next((f for f in die.faces if str(f) == str(word)), None)

    def cell(self, word: Any, grid: Any = None) -> Cell | None:
        """A cell by its id (with `grid`, of that map; without, when one map has it)."""
        found = self.cells.get(word) if isinstance(word, str) else None
        if not found:
            return None
        if grid is not None:
            found = [c for c in found if getattr(self.game.env.get(grid), "cells", None)
                     and c in self.game.env[grid].cells]
        return found[0] if len(found) == 1 else None

    # -- things to words -------------------------------------------------------------------------
    def card_name(self, card: Card) -> str:
        """The name a position writes for a card: its `name` when that is unique, else its id."""
        n = _name_field(card)
        return n if n is not None and self.by_name.get(n) is card else card.id

    def cell_word(self, cell: Cell) -> Any:
        """A cell's id, with its map's name when another map has a cell of that id."""
        if len(self.cells.get(cell.id, [])) == 1:
            return cell.id
        grid = next(g for g in (self.game.program.data.get("components") or {}).get("grids")
                    if cell in self.game.env[g].cells)
        return {"cell": cell.id, "grid": grid}

    def known_words(self) -> list[str]:
        """Every exact name of a card or die, for suggestions."""
        return [*self.items, *self.by_name]


def _name_field(card: Card) -> str | None:
    n = getattr(card, "name", None) if "name" in card._readable else None
    return n if isinstance(n, str) and n else None
