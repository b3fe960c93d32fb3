"""Phase 6, run (view model): one player's view of the table, as data in the game's words.

Input: a running `Game`, a viewer (a player, or None for what everyone sees) and the values a
skill decision being answered hides. Output: a JSON-able dict, the one structure every
renderer draws (the terminal's text in interpreter/table/view_text.py, `--json`, later a
browser table):

    {"viewer": "Player 1", "round": 2, "current": "Player 2",
     "table":   [{"title": "The pool", "rows": [ROW, ...]}, ...],
     "teams":   [{"name": "white", "yours": true, "members": ["Player 1"], "rows": [...]}],
     "players": [{"name": "Player 1", "you": true, "team": "white", "out": false,
                  "rows": [...]}]}

A ROW is {"name": the declared name (absent for a designed text), "label": how people call
it, "value": VALUE}, and a VALUE one of: {"kind": "number", "value": 3}, {"kind": "flag",
"value": true}, {"kind": "text", "value": "Player 2"}, {"kind": "none"}, {"kind": "hidden"}
(with "count" for a zone: how many items lie there unseen), {"kind": "dice", "dice": [{"of":
"Red dice", "face": 5}, ...]} (a die out of the viewer's sight has "face": null and
"hidden": true; one whose face a referee's table counts rather than types, "face": null and
"untracked": true; with "row": true the row is that kind of dice), {"kind": "list", "items":
[VALUE, ...]}, {"kind": "map", "entries": [[KEY, VALUE], ...]} and {"kind": "timer",
"running": true, "seconds": 12.5} ("seconds" null when hidden). Which rows appear, in which
order and under which labels is the ruleset's layout (dsl/view_layout.py): bookkeeping is
left out, and so is `eliminated` in a game that eliminates nobody. Visibility is applied as
in interpreter/table/views.py.
"""

from __future__ import annotations

from typing import Any

from dsl.view_layout import Layout, Row, layout, skill_of, template_holes, viewable
from interpreter.engine.values import Card, Die, Player, Team, Timer, Zone, ref, visible_to
from interpreter.engine.words import card_name
from interpreter.table.view_text import value_text

HIDDEN: dict = {"kind": "hidden"}
_LAYOUTS: dict[int, tuple[Any, Layout, dict]] = {}  # per program: its layout, worked out once


def _layout(game) -> tuple[Layout, dict]:
    data = game.program.data
    got = _LAYOUTS.get(id(game.program))
    if got is None or got[0] is not data:
        got = (data, layout(data), viewable(data))
        _LAYOUTS.clear()  # one program at a time is played; keep no stale ones alive
        _LAYOUTS[id(game.program)] = got
    return got[1], got[2]


def view_of(game, viewer: Player | None, hides: frozenset[str] = frozenset()) -> dict:
    """The view `viewer` has of the game now; `hides` names values a skill decision being
    answered leaves out (the player finds the answer at the table, not in the view)."""
    lay, names = _layout(game)
    sight = _Sight(game, viewer)
    table_values = {name: sight.table_value(name, v.what, v.spec)
                    for name, v in names["table"].items()}
    params = {k: _value(v, sight) for k, v in game.program.parameters.items()}

    def rows(row_specs, values: dict) -> list[dict]:
        out = []
        for row in row_specs:
            if row.name in hides:
                continue
            if row.name is not None:
                value = values[row.name]
                if value is None:
                    continue  # loose dice: none of them lies loose on the table now
                out.append({"name": row.name, "label": row.label, "value": value})
            elif row.count is not None:
                out.append({"label": row.label, "value": _count(values[row.count])
                            if row.count not in hides else HIDDEN})
            else:
                out.append({"label": row.label,
                            "value": {"kind": "text",
                                      "value": _filled(row, values, table_values, params,
                                                       hides)}})
        return out

    view: dict[str, Any] = {"viewer": viewer.name if viewer is not None else None,
                            "round": game.round, "current": game.current.name}
    view["table"] = [{"title": s.title, "rows": rows(s.rows, table_values)} for s in lay.table]
    if game.teams:
        view["teams"] = [{
            "name": tm.name, "members": [p.name for p in tm.members],
            "yours": viewer is not None and viewer.team is tm,
            "rows": rows(lay.team, {n: sight.owned_value(tm, n, v.what, v.spec)
                                    for n, v in names["team"].items()})}
            for tm in game.teams]
    view["players"] = [{
        "name": p.name, "you": p is viewer,
        "team": p.team.name if p.team is not None else None,
        "out": lay.eliminates and p.eliminated,
        "rows": rows(lay.player, {n: sight.owned_value(p, n, v.what, v.spec)
                                  for n, v in names["player"].items()})}
        for p in game.players]
    return view


def _filled(row: Row, values: dict, table: dict, params: dict, hides: frozenset) -> str:
    """A designed row's text with each {name} hole filled as the view shows that value."""
    text = row.text or ""
    for hole in template_holes(text):
        value = HIDDEN if hole in hides else values.get(hole) or table.get(hole) or \
            params.get(hole) or {"kind": "none"}
        text = text.replace("{" + hole + "}", value_text(value), 1)
    return text


def _count(value: dict | None) -> dict:
    """How many items a shown value holds (a zone out of sight still shows its size)."""
    if value is None:
        return {"kind": "number", "value": 0}
    many = {"dice": "dice", "list": "items", "map": "entries"}.get(value["kind"])
    if many is not None:
        return {"kind": "number", "value": len(value[many])}
    if value["kind"] == "hidden" and "count" in value:
        return {"kind": "number", "value": value["count"]}
    return HIDDEN if value["kind"] == "hidden" else {"kind": "number", "value": 0}


class _Sight:
    """What one viewer sees of the game's values."""

    def __init__(self, game, viewer: Player | None):
        self.game, self.viewer = game, viewer
        self.unseen: set[str] = set()  # dice lying in a zone hidden from the viewer
        # Dice whose faces a referee's table does not track (in a zone it counts): a face
        # not known is not a die "not rolled".
        self.untracked: set[str] = set()
        counting = getattr(game.chance, "counting", False)
        for name in game.program.data.get("components", {}).get("dice") or {}:
            v = game.env[name]
            for d in v if isinstance(v, list) else [v]:
                z = game.zone_of(d)
                if z is not None and not visible_to(z.visibility, z.owner, viewer):
                    self.unseen.add(d.id)
                elif counting and z is not None and getattr(z, "counted", False):
                    self.untracked.add(d.id)

    def table_value(self, name: str, what: str, spec: Any) -> dict | None:
        g = self.game
        if what == "zone":
            return self.zone(g.zones[name])
        if what == "timer":
            return self.timer(g.timers[name])
        if what == "dice":
            v = g.env[name]
            loose = [d for d in (v if isinstance(v, list) else [v]) if g.zone_of(d) is None]
            return {**_value(loose, self), "row": True} if loose else None
        return self.state(g.env[name], spec, None)

    def owned_value(self, owner: Player | Team, name: str, what: str, spec: Any) -> dict:
        if what == "zone":
            return self.zone(getattr(owner, name))
        return self.state(getattr(owner, name), spec, owner)

    def state(self, value: Any, spec: Any, owner: Any) -> dict:
        vis = spec.get("visibility", "public") if isinstance(spec, dict) else "public"
        return _value(value, self) if visible_to(vis, owner, self.viewer) else HIDDEN

    def zone(self, z: Zone) -> dict:
        if not visible_to(z.visibility, z.owner, self.viewer):
            return {"kind": "hidden", "count": len(z.items)}
        return _value(list(z.items), self)

    def timer(self, t: Timer) -> dict:
        seen = visible_to(t.visibility, t.owner, self.viewer)
        return {"kind": "timer", "running": t.running,
                "seconds": round(t.remaining, 1) if seen and t.running else None}


def _dice_label(game, die: Die) -> str:
    names = _layout(game)[1]["table"]
    v = names.get(die.kind)
    return v.label if v is not None else die.kind


def _value(x: Any, sight: _Sight) -> dict:
    """A runtime value as the view model says it."""
    if x is None or x == "":
        return {"kind": "none"}
    if isinstance(x, bool):
        return {"kind": "flag", "value": x}
    if isinstance(x, (int, float)):
        return {"kind": "number", "value": x}
    if isinstance(x, str):
        return {"kind": "text", "value": x}
    if isinstance(x, Die):
        return {"kind": "dice", "dice": [_die(x, sight)]}
    if isinstance(x, Card):
        return {"kind": "text", "value": card_name(x)}
    if isinstance(x, Zone):
        return sight.zone(x)
    if isinstance(x, (list, tuple)):
        if x and all(isinstance(d, Die) for d in x):
            return {"kind": "dice", "dice": [_die(d, sight) for d in x]}
        return {"kind": "list", "items": [_value(v, sight) for v in x]}
    if isinstance(x, dict):
        return {"kind": "map", "entries": [[value_text(_value(k, sight)), _value(v, sight)]
                                           for k, v in x.items()]}
    return {"kind": "text", "value": str(ref(x))}


def _die(d: Die, sight: _Sight) -> dict:
    if d.id in sight.unseen:
        return {"of": _dice_label(sight.game, d), "face": None, "hidden": True}
    if d.face is None and d.id in sight.untracked:
        return {"of": _dice_label(sight.game, d), "face": None, "untracked": True}
    return {"of": _dice_label(sight.game, d), "face": d.face}


def skill_hides(game, path: tuple) -> frozenset[str]:
    """The values the decision step at `path` hides while it is answered (its `hides`, when
    it leaves a `skill` to the player)."""
    skill, hides = skill_of(game.program.data, path)
    return hides if skill is not None else frozenset()

