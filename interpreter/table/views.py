"""Phase 6, run (views): what one player may see of the game, as plain data.

Input: a running `Game` and a viewer (a player, or None for the whole state). Output: a dict
of the parameters, the global, round and turn state (`state`), every player's state and zones
(`players`), in a team game each team's members, state and zones (`teams`), the dice and
the timers, with each value's visibility applied: `public` for all, `owner` for its player
only, `hidden` for nobody, `others` for everyone but its player (for a timer, everyone but the
player who started it). Hidden values appear as "hidden", so a view says that something is
there without saying what.
"""

from __future__ import annotations

from typing import Any

from interpreter.engine.values import Die, Player, Zone, plain, visible_to

HIDDEN = "hidden"



def _spec_visibility(spec: Any) -> str:
    return spec.get("visibility", "public") if isinstance(spec, dict) else "public"


def state_of(game, viewer: Player | None) -> dict:
    data = game.program.data
    state = data.get("state") or {}
    env = game.env
    out: dict[str, Any] = {
        "phase": game.phase, "round": game.round, "turn": game.turn,
        "current": game.current.name,
        "parameters": {k: plain(v) for k, v in game.program.parameters.items()},
    }
    if viewer is None:  # the game's clock would tell a player the time a timer hides
        out["clock"] = round(game.clock.now(), 3)
    values = {}
    for scope in ("global", "round", "turn"):
        for name, spec in (state.get(scope) or {}).items():
            vis = _spec_visibility(spec)
            values[name] = plain(env[name]) if visible_to(vis, None, viewer) else HIDDEN
    out["state"] = values
    zone_specs = (data.get("components") or {}).get("zones") or {}
    players = []
    for p in game.players:
        row: dict[str, Any] = {"seat": p.seat, "name": p.name, "eliminated": p.eliminated}
        if game.teams:
            row["team"] = p.team.name if p.team is not None else None
        row.update(_owned(p, "player", state, zone_specs, viewer))
        players.append(row)
    out["players"] = players
    if game.teams:
        out["teams"] = [{"name": tm.name, "members": [p.name for p in tm.members],
                         **_owned(tm, "team", state, zone_specs, viewer)} for tm in game.teams]
    zones = {name: _zone(z, viewer) for name, z in game.zones.items()}
    if zones:
        out["zones"] = zones
    dice = {}
    unseen = set()  # the dice lying in a zone hidden from the viewer: their faces are not shown
    for name in (data.get("components") or {}).get("dice") or {}:
        v = env[name]
        for d in v if isinstance(v, list) else [v]:
            z = game.zone_of(d)
            if z is not None and not visible_to(z.visibility, z.owner, viewer):
                unseen.add(d.id)
        dice[name] = ([HIDDEN if d.id in unseen else d.face for d in v] if isinstance(v, list)
                      else HIDDEN if v.id in unseen else v.face)
    if dice:
        out["dice"] = dice
    timers = {}
    for name, t in game.timers.items():
        if visible_to(t.visibility, t.owner, viewer):
            timers[name] = {"running": t.running, "remaining": round(t.remaining, 3)}
        else:
            timers[name] = {"running": t.running, "remaining": HIDDEN}
    if timers:
        out["timers"] = timers
    return _masked(out, unseen) if unseen else out


def _masked(value: Any, unseen: set) -> Any:
    """The view with the face of every die in `unseen` shown as hidden, wherever a variable or
    a list holds that die (a die read through a variable is still under its cup)."""
    if isinstance(value, dict):
        if "face" in value and isinstance(value.get("die"), str) and value["die"] in unseen:
            return {**value, "face": HIDDEN}
        return {k: _masked(v, unseen) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked(v, unseen) for v in value]
    return value


def _owned(owner: Any, scope: str, state: dict, zone_specs: dict,
           viewer: Player | None) -> dict[str, Any]:
    """A player's or a team's (`scope`) state and zones, as `viewer` may see them."""
    row: dict[str, Any] = {}
    for name, spec in (state.get(scope) or {}).items():
        row[name] = plain(getattr(owner, name)) if visible_to(_spec_visibility(spec), owner,
                                                            viewer) else HIDDEN
    for name, spec in zone_specs.items():
        if spec.get("owner") == scope:
            row[name] = _zone(getattr(owner, name), viewer)
    return row


def _zone(z: Zone, viewer: Player | None) -> Any:
    if not visible_to(z.visibility, z.owner, viewer):
        return {"count": len(z.items), "items": HIDDEN}
    return [plain(x) if not isinstance(x, Die) else {"die": x.id, "face": x.face}
            for x in z.items]
