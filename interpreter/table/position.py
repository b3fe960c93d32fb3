"""Phase 6, run (positions): a game set up from a position written in the game's words.

Input: a position file (`meeple run --from FILE`), YAML or JSON read with the ruleset loader's
limits, and the game built for it (players seated, components and state at their setup
values). Output: a `Plan` of what the position sets, every key and value checked against the
ruleset's declarations, or `PositionError` holding every problem of the file, each located
(`pos.yaml:3:14: error: --from: ... [bad-input]`); `apply` then puts the game at that position.
`position_of` writes a game's position in the same form (`meeple run --json`, key
"position"), which `--from` reads back to the same state.

A position names state as the ruleset declares it (`state:` global, round and turn state;
`players:` each player's state and own zones, keyed by seat name or number; `teams:`), what
each zone holds in order (the top of a deck first), the dice's faces (`dice:`), what is out
of play (`out:`), and where the flow stands: `phase` (the game begins it instead of its first
phase; `end` scores at once), `round`, `turn` and `current`. Anything it leaves out keeps its
setup value. Values are read by interpreter/table/position_values.py, pieces named as
interpreter/table/naming.py says.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dsl.diagnostics import Diagnostic, did_you_mean, sort_diagnostics, suggestion
from dsl.loader import Document, load_data_file, load_text
from dsl.safe_text import shown
from dsl.source import SourceFile
from dsl.symbols import state_type
from interpreter.engine.values import Card, Die, Player, Zone
from interpreter.table.naming import Names
from interpreter.table.position_values import Bad, Reader, kind_of, written

KEYS = ("phase", "round", "turn", "current", "state", "players", "teams", "zones", "dice", "out")
MAX_COUNT = 10 ** 9  # rounds or turns
FORM = ("a mapping of phase, round, turn, current, state, players, teams, zones, dice and "
        "out (docs/running.md, 'Starting from a position')")


# What a position does not set, and why: said when a file tries.
_ASIDE = {
    "parameters": "a position does not set parameters: give them with --set NAME=VALUE",
    "timers": "a position does not set timers: they stand stopped until the rules start them",
    "clock": "a position does not set the clock: modelled time starts at 0",
}


class PositionError(Exception):
    """A position that cannot be used: its diagnostics, and the source to show their lines."""

    def __init__(self, diagnostics: list[Diagnostic], source: SourceFile | None):
        super().__init__(diagnostics[0].message)
        self.diagnostics = diagnostics
        self.source = source


@dataclass
class Plan:
    """What a checked position sets, ready to apply to its game."""

    phase: str | None = None
    round: int | None = None
    turn: int | None = None
    current: Player | None = None
    values: list[tuple[Any, str, Any]] = field(default_factory=list)  # (owner or None, name, value)
    kept: dict[str, Any] = field(default_factory=dict)                 # round and turn state
    eliminated: list[tuple[Player, bool]] = field(default_factory=list)
    zones: list[tuple[Zone, list]] = field(default_factory=list)
    out: list = field(default_factory=list)
    faces: dict[Die, Any] = field(default_factory=dict)
    source: SourceFile | None = None  # the file it was read from (a snapshot keeps it)


def load_position(path: str) -> Document:
    """A position file, read with the ruleset loader's limits; PositionError when it cannot
    be read as data at all."""
    return _loaded(*load_data_file(path))


def position_text(text: str, name: str) -> Document:
    """A position kept as text (a log's header keeps the file it was played from)."""
    return _loaded(*load_text(text, name, mapping=False))


def _loaded(doc: Document | None, diags: list[Diagnostic]) -> Document:
    if doc is None:
        d = diags[0]
        raise PositionError([Diagnostic("bad-input", f"--from: {d.message}", d.span,
                                        hint=d.hint)], None)
    return doc


def check(doc: Document, game) -> Plan:
    """The position in `doc`, checked against `game`'s ruleset; PositionError otherwise."""
    return _Checker(doc, game).check()


def apply(game, plan: Plan) -> None:
    """Puts `game` (just built, not yet run) at the position `plan` describes."""
    env = game.env
    if plan.source is not None:  # interpreter/table/snapshot.py saves and restores it
        game.started_from = {"path": plan.source.name, "text": plan.source.text}
    if plan.round is not None:
        game.round = env["round"] = plan.round
    if plan.turn is not None:
        game.turn = env["turn"] = plan.turn
    if plan.current is not None:
        game.current = env["current"] = plan.current
    for owner, name, value in plan.values:
        if owner is None:
            env[name] = value
        else:
            setattr(owner, name, value)
    for player, flag in plan.eliminated:
        player.eliminated = flag
    for die, face in plan.faces.items():
        die.face = face
    # A zone the position lists holds exactly that: what it held is out of play unless the
    # position places it elsewhere (Game.put takes each piece from wherever it lies).
    for zone, _ in plan.zones:
        for item in zone.items:
            item.zone = ""
        zone.items.clear()
    game.put(plan.out, "out", ())
    for zone, items in plan.zones:
        game.put(items, zone, ())
    if plan.phase is not None:
        game.begin = game.phase = plan.phase
        ph = game.program.phases.get(plan.phase)
        if ph is not None and ph.turns is not None and plan.current is not None:
            # Inside the phase, at the start of current's turn: this round and this turn
            # keep the position's round and turn state.
            game.resume, game.kept = plan.current, dict(plan.kept)
            game.round = env["round"] = max(game.round, 1)
            game.turn = env["turn"] = max(game.turn, 1)


def position_of(game, ended: bool = False) -> dict:
    """The game's position, in the form `check` reads (`ended`: the phase is `end`)."""
    names = Names(game)
    data = game.program.data
    state = data.get("state") or {}
    out: dict[str, Any] = {}
    if ended or game.phase is not None:
        out["phase"] = "end" if ended else game.phase
    out.update(round=game.round, turn=game.turn, current=game.current.name)
    out["state"] = {name: written(game.env[name], state_type(spec), names)
                    for scope in ("global", "round", "turn")
                    for name, spec in (state.get(scope) or {}).items()}
    zone_specs = (data.get("components") or {}).get("zones") or {}
    out["players"] = {p.name: _owned(p, "player", state, zone_specs, names)
                      for p in game.players}
    for p in game.players:
        if p.eliminated:
            out["players"][p.name]["eliminated"] = True
    if game.teams:
        out["teams"] = {tm.name: _owned(tm, "team", state, zone_specs, names)
                        for tm in game.teams}
    if game.zones:
        out["zones"] = {name: _pieces(z, names) for name, z in game.zones.items()}
    dice = {}
    for name, ds in names.dice.items():
        faces = [d.face for d in ds]
        dice[name] = faces if isinstance(game.env[name], list) else faces[0]
    if dice:
        out["dice"] = dice
    starts = {n for kind in ("decks", "dice")
              for n, spec in ((data.get("components") or {}).get(kind) or {}).items()
              if "in" in spec}
    # What is out of play of what starts in a zone, so that reading it back takes it out.
    gone = [x for x in [*names.cards, *(d for ds in names.dice.values() for d in ds)]
            if not x.zone and (x.deck if isinstance(x, Card) else x.kind) in starts]
    if gone:
        out["out"] = [_piece(x, names) for x in gone]
    return out


def _owned(owner: Any, scope: str, state: dict, zone_specs: dict, names: Names) -> dict:
    row = {name: written(getattr(owner, name), state_type(spec), names)
           for name, spec in (state.get(scope) or {}).items()}
    for name, spec in zone_specs.items():
        if spec.get("owner") == scope:
            row[name] = _pieces(getattr(owner, name), names)
    return row


def _pieces(zone: Zone, names: Names) -> list:
    return [_piece(x, names) for x in zone.items]


def _piece(x: Any, names: Names) -> Any:
    return names.card_name(x) if isinstance(x, Card) else x.id


class _Checker:
    """Checks a position document against a game, reporting every problem it finds."""

    def __init__(self, doc, game):
        self.doc, self.game = doc, game
        self.names = Names(game)
        self.reader = Reader(self.names)
        self.diags: list[Diagnostic] = []
        self.plan = Plan(source=doc.source)
        data = game.program.data
        self.state = data.get("state") or {}
        self.zone_specs = (data.get("components") or {}).get("zones") or {}
        self.placed: dict[Any, tuple] = {}     # piece -> where the position places it
        self.by_kind: list[tuple[tuple, str, list]] = []  # COMPONENT=WORD names, placed last
        self.lists: list[tuple[tuple, Zone | None, list]] = []  # where, zone (None: out), items
        self.given_faces: dict[Die, tuple[Any, tuple]] = {}

    def refuse(self, where: tuple, message: str, hint: str | None = None,
               key: bool = False) -> None:
        pos = self.doc.positions
        self.diags.append(Diagnostic("bad-input", f"--from: {message}",
                                     pos.key(where) if key else pos.value(where), where, hint))

    def check(self) -> Plan:
        data = self.doc.data
        if not isinstance(data, dict):
            self.refuse((), f"the position is {kind_of(data)}, not a mapping", FORM)
        else:
            for key, value in data.items():
                if key not in KEYS:
                    self.refuse((key,), f"unknown key '{shown(str(key), 40)}'"
                                f"{suggestion(str(key), KEYS)}", _ASIDE.get(key, FORM), key=True)
                    continue
                getattr(self, f"_{key}")(value, (key,))
            self._place()
            self._last_checks()
        if self.diags:
            raise PositionError(sort_diagnostics(self.diags), self.doc.source)
        return self.plan

    # -- where the flow stands -------------------------------------------------------------------
    def _phase(self, v: Any, where: tuple) -> None:
        phases = list(self.game.program.phases)
        if v == "end" or (isinstance(v, str) and v in phases):
            self.plan.phase = v
        else:
            said = f"'{shown(v, 40)}'" if isinstance(v, str) else kind_of(v)
            self.refuse(where, f"no phase is called {said}"
                        f"{suggestion(v, phases) if isinstance(v, str) else ''}",
                        "phases: " + ", ".join(phases) + ", or end (the game is scored)")

    def _count(self, v: Any, where: tuple) -> int | None:
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= MAX_COUNT:
            return v
        self.refuse(where, f"'{where[-1]}' is {kind_of(v)}, not a whole number from 0 to "
                    f"{MAX_COUNT:,}")
        return None

    def _round(self, v: Any, where: tuple) -> None:
        self.plan.round = self._count(v, where)

    def _turn(self, v: Any, where: tuple) -> None:
        self.plan.turn = self._count(v, where)

    def _current(self, v: Any, where: tuple) -> None:
        self.plan.current = self._player(v, where)

    def _player(self, v: Any, where: tuple, key: bool = False) -> Player | None:
        p = self.names.player(v)
        if p is None:
            said = f"'{shown(str(v), 40)}'" if isinstance(v, (str, int)) else kind_of(v)
            hint = (f"players: {', '.join(self.names.players)}, or their seat numbers 1 to "
                    f"{len(self.game.players)}")
            self.refuse(where, f"no player is called {said} in a game of "
                        f"{len(self.game.players)}"
                        f"{suggestion(v, list(self.names.players)) if isinstance(v, str) else ''}",
                        hint, key=key)
        return p

    # -- state -----------------------------------------------------------------------------------
    def _mapping(self, v: Any, where: tuple, what: str) -> dict:
        if isinstance(v, dict):
            return v
        self.refuse(where, f"'{where[-1]}' is {kind_of(v)}, not a mapping of {what}")
        return {}

    def _value(self, owner: Any, name: str, spec: Any, v: Any, where: tuple,
               keep: bool = False) -> None:
        try:
            value = self.reader.value(v, state_type(spec), where)
        except Bad as e:
            self.refuse(e.where, f"{name}: {e.message}", e.hint)
            return
        self.plan.values.append((owner, name, value))
        if keep:
            self.plan.kept[name] = value

    def _state(self, v: Any, where: tuple) -> None:
        scopes = {scope: self.state.get(scope) or {} for scope in ("global", "round", "turn")}
        known = [n for names in scopes.values() for n in names]
        for name, x in self._mapping(v, where, "state names to values").items():
            scope = next((s for s, names in scopes.items() if name in names), None)
            if scope is None:
                self._unknown(name, where + (name,), known, "table")
                continue
            self._value(None, name, scopes[scope][name], x, where + (name,),
                        keep=scope != "global")

    def _unknown(self, name: Any, where: tuple, known: list, section: str) -> None:
        """A key that names nothing in `section` (the table's state, a player's or a team's,
        the zones): where it goes if it (or the name it is closest to) belongs elsewhere."""
        hint = ("zones: " if section == "zones" else "state: ") + (", ".join(known) or "none")
        said = str(name)
        near = did_you_mean(said, known)
        meant = said if near is not None else did_you_mean(said, self._everywhere()) or said
        owner = self.zone_specs.get(meant, {}).get("owner", "none")
        if meant in (self.state.get("player") or {}) or owner == "player":
            hint = f"'{meant}' is each player's: give it under players: NAME: {{{meant}: ...}}"
        elif meant in (self.state.get("team") or {}) or owner == "team":
            hint = f"'{meant}' is each team's: give it under teams: NAME: {{{meant}: ...}}"
        elif meant in self.zone_specs and section != "zones":
            hint = f"'{meant}' is a zone: give what it holds under zones:"
        elif meant in self._table() and section != "table":
            hint = f"'{meant}' is the table's: give it under state:"
        what = {"table": "no table state is called", "zones": "no zone is called"}.get(
            section, f"{section} has no state or zone called")
        self.refuse(where, f"{what} '{shown(said, 40)}'{suggestion(said, known)}", hint,
                    key=True)

    def _table(self) -> list[str]:
        return [n for scope in ("global", "round", "turn") for n in self.state.get(scope) or {}]

    def _everywhere(self) -> list[str]:
        """Every name a position may set, in any section."""
        return [*self._table(), *(self.state.get("player") or {}),
                *(self.state.get("team") or {}), *self.zone_specs]

    def _players(self, v: Any, where: tuple) -> None:
        seen: dict[Player, tuple] = {}
        for k, row in self._mapping(v, where, "players to their state").items():
            p = self._player(k, where + (k,), key=True)
            if p is None:
                continue
            if p in seen:
                self.refuse(where + (k,), f"{p.name} is given twice (also at line "
                            f"{self.doc.positions.key(seen[p]).line})", key=True)
                continue
            seen[p] = where + (k,)
            self._owned(p, "player", row, where + (k,))

    def _teams(self, v: Any, where: tuple) -> None:
        for k, row in self._mapping(v, where, "teams to their state").items():
            tm = self.names.teams.get(k) if isinstance(k, str) else None
            if tm is None:
                self.refuse(where + (k,), f"no team is called '{shown(str(k), 40)}'"
                            f"{suggestion(str(k), list(self.names.teams))}",
                            "teams: " + (", ".join(self.names.teams) or "none in this game"),
                            key=True)
                continue
            self._owned(tm, "team", row, where + (k,))

    def _owned(self, owner: Any, scope: str, row: Any, where: tuple) -> None:
        specs = self.state.get(scope) or {}
        zones = [z for z, spec in self.zone_specs.items() if spec.get("owner") == scope]
        known = [*specs, *zones] + (["eliminated"] if scope == "player" else [])
        for name, x in self._mapping(row, where, "state names to values").items():
            at = where + (name,)
            if name in specs:
                self._value(owner, name, specs[name], x, at)
            elif name in zones:
                self._list(x, at, getattr(owner, name))
            elif name == "eliminated" and scope == "player":
                if isinstance(x, bool):
                    self.plan.eliminated.append((owner, x))
                else:
                    self.refuse(at, f"'eliminated' is {kind_of(x)}, not true or false")
            else:
                self._unknown(name, at, known, owner.name)

    # -- pieces ----------------------------------------------------------------------------------
    def _zones(self, v: Any, where: tuple) -> None:
        known = [z for z, spec in self.zone_specs.items() if spec.get("owner", "none") == "none"]
        for name, x in self._mapping(v, where, "zones to what they hold").items():
            if name in known:
                self._list(x, where + (name,), self.game.zones[name])
            else:
                self._unknown(name, where + (name,), known, "zones")

    def _out(self, v: Any, where: tuple) -> None:
        self._list(v, where, None)

    def _list(self, v: Any, where: tuple, zone: Zone | None) -> None:
        """What a zone holds (None: what is out of play), in order; exact names are placed
        now, COMPONENT=WORD names once every exact name is known (`_place`)."""
        if not isinstance(v, list):
            self.refuse(where, f"{kind_of(v)}, not a list of cards and dice (top first)")
            return
        items: list = []
        for i, x in enumerate(v):
            at = where + (i,)
            kinds = self.names.kind(x)
            if kinds is not None:
                items.append(None)  # filled in by _place
                self.by_kind.append((at, x, kinds))
                continue
            item = self._exact(x, at)
            if item is not None:
                self._put(item, at)
            items.append(item)
        self.lists.append((where, zone, items))

    def _exact(self, x: Any, at: tuple) -> Card | Die | None:
        tag = next((k for k in ("card", "die") if isinstance(x, dict) and k in x), None)
        if tag is not None:
            try:
                return self.reader.value(x, state_type({"type": tag}), at)
            except Bad as e:
                self.refuse(e.where, e.message, e.hint)
                return None
        item = self.names.item(x)
        if item is None:
            said = f"'{shown(str(x), 40)}'" if isinstance(x, (str, int)) else kind_of(x)
            self.refuse(at, f"no card or die is called {said}"
                        f"{suggestion(x, self.names.known_words()) if isinstance(x, str) else ''}",
                        "a card by its name or id (chips[3]), a die by its id (white[2]), or "
                        "COMPONENT=WORD: a die of that component showing WORD (white=4), a "
                        "card of that deck people call WORD (chips=10)")
        return item

    def _put(self, item: Any, at: tuple) -> None:
        if item in self.placed:
            line = self.doc.positions.value(self.placed[item]).line
            said = self.names.card_name(item) if isinstance(item, Card) else item.id
            self.refuse(at, f"{shown(said, 40)} is already placed at line {line}: a card or "
                        "die is in one place")
        else:
            self.placed[item] = at

    def _place(self) -> None:
        """COMPONENT=WORD names: each takes the first piece it fits that nothing else
        places."""
        filled: dict[tuple, Any] = {}
        for at, word, kinds in self.by_kind:
            comp, _, said = word.partition("=")
            free = [x for x in kinds if x not in self.placed]
            if isinstance(kinds[0] if kinds else None, Die):
                face = self.names.face(kinds[0], said)
                if face is None:
                    self.refuse(at, f"a {comp} die has no face '{shown(said, 40)}'",
                                "its faces: " + ", ".join(map(str, kinds[0].faces)))
                    continue
                if free:
                    self.reader.faces.setdefault(free[0], (face, at))
            if not free:
                self.refuse(at, f"no {comp} piece that people call '{shown(said, 40)}' is left "
                            f"to place ({len(kinds)} in the game)")
                continue
            self._put(free[0], at)
            filled[at] = free[0]
        for where, zone, items in self.lists:
            done = [x if x is not None else filled.get(where + (i,)) for i, x in
                    enumerate(items)]
            done = [x for x in done if x is not None]
            if zone is None:
                self.plan.out.extend(done)
            elif zone.capacity is not None and len(done) > zone.capacity:
                self.refuse(where, f"zone {zone.id} holds at most {zone.capacity}, not "
                            f"{len(done)}")
            else:
                self.plan.zones.append((zone, done))

    def _dice(self, v: Any, where: tuple) -> None:
        for name, x in self._mapping(v, where, "dice to their faces").items():
            at = where + (name,)
            if name in self.names.dice:
                dice = self.names.dice[name]
                single = not isinstance(self.game.env[name], list)
                faces = [x] if single else x
                if not single and not (isinstance(x, list) and len(x) == len(dice)):
                    self.refuse(at, f"{name} is {len(dice)} dice: give a list of "
                                f"{len(dice)} faces, not {kind_of(x)}")
                    continue
                for i, (die, f) in enumerate(zip(dice, faces, strict=True)):
                    self._face(die, f, at if single else at + (i,))
            elif isinstance(self.names.items.get(name), Die):
                self._face(self.names.items[name], x, at)
            else:
                self._unknown_die(name, at)

    def _unknown_die(self, name: Any, at: tuple) -> None:
        known = list(self.names.dice)
        self.refuse(at, f"no dice are called '{shown(str(name), 40)}'"
                    f"{suggestion(str(name), known)}",
                    "dice: " + (", ".join(known) or "none in this game"), key=True)

    def _face(self, die: Die, f: Any, at: tuple) -> None:
        face = None if f is None else self.names.face(die, f)
        if f is not None and face is None:
            self.refuse(at, f"{die.id} has no face {shown(str(f), 40)}",
                        "its faces: " + ", ".join(map(str, die.faces)))
            return
        self.given_faces[die] = (face, at)

    def _last_checks(self) -> None:
        for die, (face, at) in self.reader.faces.items():
            if die in self.given_faces and self.given_faces[die][0] != face:
                self.refuse(at, f"{die.id} is given two faces ({self.given_faces[die][0]} at "
                            f"line {self.doc.positions.value(self.given_faces[die][1]).line} "
                            f"and {face})")
        self.plan.faces = {d: f for d, (f, _) in {**self.reader.faces,
                                                  **self.given_faces}.items()}
        cur = self.plan.current
        out = {p for p, flag in self.plan.eliminated if flag}
        if cur is not None and (cur in out or (cur.eliminated and cur not in
                                               {p for p, _ in self.plan.eliminated})):
            self.refuse(("current",), f"{cur.name} is eliminated and cannot have the turn")
