"""The rulebook's sections on what the game is played with.

Phase: docs. Input: the checked ruleset's players, teams, components and state. Output:
`PieceSections`, which writes the sections Players (seats and teams), Components (dice, zones,
cards as counted tables, maps with their layers, timers), What players keep track of (the
state by scope, with first values and visibility) and Setup (what is done before the first
phase).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from interpreter.rulebook.document import (
    Inlines,
    Item,
    ListBlock,
    Table,
    code,
    joined,
    link,
    prose,
    slug,
    strong,
    text,
)
from interpreter.rulebook.phrases import SOURCE_WORDS, TYPE_WORDS, plain, type_of
from interpreter.rulebook.steps import StepWriter

_VISIBILITY = {"public": "everyone sees it", "owner": "only its owner sees it",
               "hidden": "nobody sees it until it is revealed",
               "others": "everyone but its owner sees it"}

_ZONE_KINDS = {"bag": "a bag (drawn from at random)", "deck": "a deck (ordered, drawn from the top)",
               "row": "a row (left to right; the last is the rightmost)",
               "pool": "an open area", "hand": "a hand"}


class PieceSections(StepWriter):
    """Players, Components, What players keep track of, Setup."""

    def players(self) -> bool:
        spec = self.data.get("players") or {}
        lo, hi = spec.get("min"), spec.get("max")
        if lo == hi:
            inl = [text(f"{lo} player{'s' if lo != 1 else ''}")]
        else:
            inl = [text(f"{lo} to {hi} players")]
        if spec.get("default") is not None and spec.get("default") != lo:
            inl.append(text(f" ({spec['default']} unless told otherwise)"))
        self.p(inl + [text(".")])
        if spec.get("seat_names"):
            self.p([text("Seats, in order: " + ", ".join(str(s) for s in spec["seat_names"])
                         + ".")])
        teams = self.data.get("teams")
        if teams:
            names = [str(n) for n in teams.get("names") or []]
            inl = [text("The players form teams: ")] + joined([[strong(n)] for n in names])
            inl.append(text(". Seats join them "))
            inl.append(text("in blocks" if teams.get("assign") == "blocks" else
                            "alternately (the first seat to the first team, the second seat to "
                            "the second team, and so on)"))
            inl.append(text(". A team's first seat, its leader, decides for the team."))
            self.p(inl)
        return True

    def components_section(self) -> bool:
        comps = self.data.get("components") or {}
        if not any(comps.get(k) for k in ("dice", "zones", "decks", "grids", "timers")):
            return False
        if comps.get("dice"):
            self.h(3, "Dice")
            self.blocks.append(ListBlock([self.die(n, s) for n, s in comps["dice"].items()]))
        if comps.get("zones"):
            self.h(3, "Zones")
            self.p([text("Places that hold dice or cards.")])
            self.blocks.append(ListBlock([self.zone(n, s) for n, s in comps["zones"].items()]))
        for name, spec in (comps.get("decks") or {}).items():
            self.h(3, f"Cards: {name}")
            self.deck(spec)
        for name, spec in (comps.get("grids") or {}).items():
            self.h(3, f"Map: {name}")
            self.grid(spec)
        if comps.get("timers"):
            self.h(3, "Timers")
            items = []
            for name, spec in comps["timers"].items():
                spec = spec or {}
                inl: Inlines = [strong(name)]
                vis = spec.get("visibility", "public")
                inl.append(text(" (" + {"public": "everyone sees the time left",
                                        "others": "everyone but the player who started it "
                                                  "sees the time left"}.get(
                    vis, _VISIBILITY.get(vis, vis)) + ")"))
                if spec.get("doc"):
                    inl += [text(": ")] + prose(spec["doc"])
                items.append(Item(inl))
            self.blocks.append(ListBlock(items))
        return True

    def die(self, name: str, spec: Mapping[str, Any]) -> Item:
        spec = spec or {}
        count = spec.get("count")
        inl: Inlines = [strong(name), text(": ")]
        if count is None:
            inl.append(text("one die"))
        elif isinstance(count, int):
            inl.append(text(f"{count} dice"))
        else:
            inl += self.x(count) + [text(" dice")]
        if spec.get("faces") is not None:
            inl.append(text(" with the faces " + ", ".join(plain(f) for f in spec["faces"])))
        else:
            sides = spec.get("sides", 6)
            if isinstance(sides, int):
                inl.append(text(f" with {sides} sides (1 to {sides})"))
            else:
                inl += [text(" with ")] + self.x(sides) + [text(" sides")]
        attrs = spec.get("attributes") or {}
        if attrs:
            inl.append(text("; " + ", ".join(f"{k} {plain(v)}" for k, v in attrs.items())))
        if spec.get("in"):
            inl += [text("; they start in ")] + self.thing(spec["in"])
        inl.append(text("."))
        if spec.get("doc"):
            inl += [text(" ")] + prose(spec["doc"])
        return Item(inl)

    def zone(self, name: str, spec: Mapping[str, Any]) -> Item:
        spec = spec or {}
        kind = spec.get("kind")
        inl: Inlines = [strong(name), text(": ")]
        inl.append(text(_ZONE_KINDS.get(kind, f"a {kind}") if kind else "a zone"))
        owner = spec.get("owner")
        if owner in ("player", "team"):
            inl.append(text(f", one for each {owner} (read as {owner}.{name})"))
        vis = spec.get("visibility", "public")
        inl.append(text(f"; {_VISIBILITY.get(vis, vis)}"))
        if spec.get("capacity") is not None:
            inl += [text("; it holds at most ")] + self.x(spec["capacity"])
        if spec.get("counted"):
            inl.append(text("; a referee's table counts the dice in it instead of typing "
                            "their faces"))
        inl.append(text("."))
        if spec.get("doc"):
            inl += [text(" ")] + prose(spec["doc"])
        return Item(inl)

    def deck(self, spec: Mapping[str, Any]) -> None:
        cards = [c for c in spec.get("cards") or [] if isinstance(c, dict)]
        inl: Inlines = [text(f"{len(cards)} card{'s' if len(cards) != 1 else ''}")]
        if spec.get("in"):
            inl += [text(", starting in ")] + self.thing(spec["in"])
        if spec.get("source"):
            inl.append(text(f" ({SOURCE_WORDS.get(spec['source'], spec['source'])})"))
        inl.append(text("."))
        if spec.get("doc"):
            inl += [text(" ")] + prose(spec["doc"])
        known = [k for k in spec.get("known_by") or [] if isinstance(k, str)]
        if known:
            inl += [text(" Drawn blind at a refereed table, a card is named by its ")] + joined(
                [[code(k)] for k in known]) + [text(".")]
        self.p(inl)
        keys: list[str] = []
        for c in cards:
            keys += [k for k in c if k not in keys]
        if not cards:
            return
        if len(keys) == 1:
            self.p([text(f"Their {keys[0]}: ")]
                   + [text(", ".join(plain(c.get(keys[0])) for c in cards) + ".")])
            return
        # Identical cards are counted on one row, as a card list in a rulebook would.
        rows: list[tuple[int, dict]] = []
        for c in cards:
            if rows and rows[-1][1] == c:
                rows[-1] = (rows[-1][0] + 1, c)
            else:
                rows.append((1, c))
        counted = any(n > 1 for n, _ in rows)
        header = ([[text("how many")]] if counted else []) + [[text(k)] for k in keys]
        body = []
        for n, c in rows:
            cells = [self.cell(c.get(k)) for k in keys]
            body.append(([[text(str(n))]] if counted else []) + cells)
        self.blocks.append(Table(header, body))

    def cell(self, value: Any) -> Inlines:
        if isinstance(value, dict) and len(value) > 4:
            head = ", ".join(f"{k}: {plain(v)}" for k, v in list(value.items())[:3])
            return [text(f"{head}, … ({len(value)} in all)")]
        if isinstance(value, list) and len(value) > 6:
            return [text(", ".join(plain(v) for v in value[:5]) + f", … ({len(value)} in all)")]
        return [text(plain(value))] if value is not None else []

    def grid(self, spec: Mapping[str, Any]) -> None:
        cols = [plain(c) for c in spec.get("columns") or []]
        rows = [plain(r) for r in spec.get("rows") or []]
        idfmt = spec.get("id", "{column}{row}")
        example = idfmt.replace("{column}", cols[0] if cols else "").replace(
            "{row}", rows[0] if rows else "")
        inl: Inlines = [text(f"A map of {len(cols)} columns ({', '.join(cols)}, west to east) "
                             f"by {len(rows)} rows ({', '.join(rows)}, north to south); a cell "
                             f"is named like {example}")]
        if spec.get("source"):
            inl.append(text(f" ({SOURCE_WORDS.get(spec['source'], spec['source'])})"))
        inl.append(text("."))
        if spec.get("doc"):
            inl += [text(" ")] + prose(spec["doc"])
        self.p(inl)

        def attrs(a: Any) -> str:
            return ", ".join(f"{k} {plain(v)}" for k, v in a.items()) if isinstance(a, dict) \
                else plain(a)
        items = []
        if spec.get("default"):
            items.append(Item([text("Every cell: " + attrs(spec["default"]) + ".")]))
        for key, label in (("row_attributes", "row"), ("column_attributes", "column")):
            for k, a in (spec.get(key) or {}).items():
                items.append(Item([text(f"Every cell of {label} {plain(k)}: {attrs(a)}.")]))
        for k, a in (spec.get("cells") or {}).items():
            items.append(Item([strong(str(k)), text(": " + attrs(a) + ".")]))
        if items:
            self.p([text("Each layer overrides the one before:")])
            self.blocks.append(ListBlock(items))

    def state(self) -> bool:
        state = self.data.get("state") or {}
        titles = {"global": "For the whole game", "player": "For each player",
                  "team": "For each team", "turn": "For each turn (reset at its start)",
                  "round": "For each round (reset at its start)"}
        shown = False
        for scope, title in titles.items():
            entries = state.get(scope) or {}
            if not entries:
                continue
            shown = True
            self.h(3, title)
            items = []
            for name, spec in entries.items():
                full = spec if isinstance(spec, dict) else {"initial": spec}
                inl: Inlines = [strong(name), text(" (" + TYPE_WORDS.get(
                    type_of(spec), type_of(spec)))]
                if "initial" in full and full["initial"] is not None:
                    inl += [text(", at first ")] + self.x(full["initial"])
                vis = full.get("visibility")
                if vis and vis != "public":
                    inl.append(text("; " + _VISIBILITY.get(vis, vis)))
                inl.append(text(")"))
                if full.get("doc"):
                    inl += [text(": ")] + prose(full["doc"])
                items.append(Item(inl))
            self.blocks.append(ListBlock(items))
        return shown

    def setup(self) -> bool:
        """What is done before the first phase: seats, pieces in their zones, first values."""
        spec = self.data.get("players") or {}
        names = spec.get("seat_names")
        steps: list[Inlines] = [[text("Seat the players in order: " + (
            ", ".join(str(n) for n in names) if names else "Player 1, Player 2 and so on")
            + (", then form the teams (see " if self.data.get("teams") else "")
        )] + ([link("Players", slug("Players")), text(")")] if self.data.get("teams") else [])
            + [text(".")]]
        comps = self.data.get("components") or {}
        placed: dict[str, list[Inlines]] = {}
        for kind in ("dice", "decks"):
            for name, c in (comps.get(kind) or {}).items():
                if isinstance(c, dict) and c.get("in"):
                    placed.setdefault(str(c["in"]), []).append([text(name)])
        for zone, what in placed.items():
            steps.append([text("Put ")] + joined(what) + [text(" in ")] + self.thing(zone)
                         + [text(".")])
        if comps.get("dice") and any("in" not in (c or {}) for c in comps["dice"].values()):
            steps.append([text(("The other dice" if any(k for k in placed) else "The dice")
                               + " are held by the game; a die shows no face until it is first "
                               "rolled.")])
        if self.data.get("state"):
            steps.append([text("Every value in "), link("What players keep track of",
                                                        slug("What players keep track of")),
                          text(" takes its first value.")])
        start = (self.data.get("flow") or {}).get("start") or next(iter(self.phases), None)
        steps.append([text("Play begins with the phase ")] + self.ref("phase", start)
                     + [text(".")])
        self.blocks.append(ListBlock([Item(s_) for s_ in steps], ordered=True))
        return True
