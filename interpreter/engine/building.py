"""Phase 6, run (engine setup): a game's players, teams, state and components, built from the
program.

Input: the `Program` and the seat count (a `Game` being made). Output: the game's players and
teams with their state, the global, round and turn state in its env, and its dice, decks,
cards, zones, grids and timers, each placed where the ruleset says; which dice lie in a zone a
referee's table counts. A mixin of `Game`
(interpreter/engine/game.py)."""

from __future__ import annotations

from typing import Any

from dsl.compiler import Env
from dsl.limits import MAX_PIECES
from interpreter.engine.compile_expr import expr
from interpreter.engine.signals import RuleError
from interpreter.engine.values import (
    Card,
    Cell,
    Die,
    Grid,
    Player,
    Team,
    Timer,
    Zone,
    declare_fields,
    show,
)


class GameBuilding:
    """Builds a game's table (a mixin of Game)."""

    # -- setup -----------------------------------------------------------------------------------
    def _build_state(self) -> None:
        p, data = self.program, self.program.data
        env: dict[str, Any] = dict(p.parameters)
        self.env = env
        names = (data["players"].get("seat_names") or [])
        self.players: list[Player] = []
        for i in range(self.players_n):
            self.players.append(Player(i + 1, names[i] if i < len(names) else f"Player {i + 1}",
                                       self.players))
        env["players"] = self.players
        self.current = self.players[0]
        env["current"] = self.current
        env["round"] = env["turn"] = 0
        teams = data.get("teams")
        if teams:
            self.teams = [Team(t) for t in teams["names"]]
            k = len(self.teams)
            for i, pl in enumerate(self.players):
                idx = i % k if teams.get("assign", "alternate") == "alternate" else min(
                    k - 1, i * k // self.players_n)
                pl.team = self.teams[idx]
                self.teams[idx].members.append(pl)
            env["teams"] = self.teams
        else:
            self.teams = []
        for did in p.symbols.decisions:
            env[did] = None
        self._build_components(data.get("components") or {})
        # State: global first (its initial values may read parameters and components), then
        # per player (may read `player`), per team; turn and round state are set when they begin.
        for name, init in p.state.get("global", {}).items():
            env[name] = init(env)
        zones = (data.get("components") or {}).get("zones") or {}
        for owner, objs in (("player", self.players), ("team", self.teams)):
            owned = [z for z, spec in zones.items() if spec.get("owner", "none") == owner]
            for obj in objs:
                # Expressions may read (and set and add write) only the declared fields.
                declare_fields(obj, owned, p.state.get(owner, {}))
                scope = Env({owner: obj}, env)
                for name, init in p.state.get(owner, {}).items():
                    setattr(obj, name, init(scope))
        self._reset("turn")
        self._reset("round")

    def _build_components(self, comps: dict) -> None:
        env = self.env
        self.zones: dict[str, Zone] = {}
        for name, spec in (comps.get("zones") or {}).items():
            cap = spec.get("capacity")
            owner = spec.get("owner", "none")
            vis = spec.get("visibility", "public")
            kind = spec.get("kind", "pool")
            made: list[Zone] = []
            if owner == "player":
                for pl in self.players:
                    z = Zone(f"{pl.name}.{name}", kind, None, pl, vis)
                    z.capacity = _int(cap, Env({"player": pl}, env)) if cap is not None else None
                    setattr(pl, name, z)
                    made.append(z)
            elif owner == "team":
                for tm in self.teams:
                    made.append(Zone(f"{tm.name}.{name}", kind, None, tm, vis))
                    setattr(tm, name, made[-1])
            else:
                z = Zone(name, kind, _int(cap, env) if cap is not None else None, None, vis)
                self.zones[name] = z
                env[name] = z
                made.append(z)
            if spec.get("counted"):
                for z in made:
                    z.counted = True
        for name, spec in (comps.get("dice") or {}).items():
            where = ("components", "dice", name)
            faces = list(spec["faces"]) if "faces" in spec else list(
                range(1, _pieces(spec.get("sides", 6), env, where + ("sides",)) + 1))
            attrs = spec.get("attributes") or {}
            if "count" in spec:
                dice = [Die(f"{name}[{i}]", name, faces, attrs)
                        for i in range(_pieces(spec["count"], env, where + ("count",)))]
                env[name] = dice
            else:
                dice = [Die(name, name, faces, attrs)]
                env[name] = dice[0]
            if "in" in spec:
                self.put(dice, self.zones[spec["in"]], ("components", "dice", name, "in"))
        for name, spec in (comps.get("decks") or {}).items():
            cards = [Card(f"{name}[{i}]", name, c, spec.get("known_by"))
                     for i, c in enumerate(spec["cards"])]
            env[name] = cards
            if "in" in spec:
                self.put(cards, self.zones[spec["in"]], ("components", "decks", name, "in"))
        for name, spec in (comps.get("grids") or {}).items():
            env[name] = _grid(name, spec)
        self.timers: dict[str, Timer] = {}
        for name, spec in (comps.get("timers") or {}).items():
            t = Timer(name, self.clock, spec.get("visibility", "public"))
            self.timers[name] = t
            env[name] = t

    def counted_dice(self, dice: list) -> list[bool]:
        """For each die, whether it lies in a zone a referee's table counts (`counted`)
        instead of typing its face."""
        return [(z := self.zone_of(d)) is not None and z.counted for d in dice]

    def _reset(self, scope: str) -> None:
        for name, init in self.program.state.get(scope, {}).items():
            self.env[name] = init(self.env)



def _int(value: Any, env) -> int:
    return expr(value, ())(env)


def _pieces(value: Any, env, path: tuple) -> int:
    """A number of dice or sides: a whole number up to MAX_PIECES, else a located error (a
    set of a billion dice would fill the memory before the game began)."""
    n = expr(value, path)(env)
    if type(n) is not int or not 0 <= n <= MAX_PIECES:
        raise RuleError("limit-exceeded", f"{show(n)} is not a whole number from 0 to "
                        f"{MAX_PIECES:,} (the most dice in a set, or sides of a die)", path)
    return n


def _grid(name: str, spec: dict) -> Grid:
    rows, cols = list(spec["rows"]), list(spec["columns"])
    if len(rows) * len(cols) > MAX_PIECES:
        raise RuleError("limit-exceeded", f"a map of {len(rows) * len(cols):,} cells (the most "
                        f"is {MAX_PIECES:,})", ("components", "grids", name))
    fmt = spec.get("id", "{column}{row}")
    cells = []
    by_rc = {}
    for ri, r in enumerate(rows):
        for ci, c in enumerate(cols):
            cid = fmt.format(column=c, row=r)
            attrs = dict(spec.get("default") or {})
            attrs.update((spec.get("row_attributes") or {}).get(str(r), {}) or {})
            attrs.update((spec.get("row_attributes") or {}).get(r, {}) or {})
            attrs.update((spec.get("column_attributes") or {}).get(str(c), {}) or {})
            attrs.update((spec.get("column_attributes") or {}).get(c, {}) or {})
            attrs.update((spec.get("cells") or {}).get(cid, {}) or {})
            cell = Cell(cid, r, c, ri, ci, attrs)
            cells.append(cell)
            by_rc[(ri, ci)] = cell
    for (ri, ci), cell in by_rc.items():
        cell.neighbours = [by_rc[x] for x in ((ri - 1, ci), (ri, ci + 1), (ri + 1, ci),
                                               (ri, ci - 1)) if x in by_rc]
    return Grid(name, rows, cols, cells)
