"""Phase 4d, check (fairness): whether a bot policy reads only what its player may know.

Input: the checker, the ruleset's `state` and `components` sections and one policy expression
(a `let` value, `when`, `choose` or `best`). Output: a `policy-peeks` error for each read of
something its player cannot see:

- a global, round or turn variable declared `visibility: hidden`;
- a player's (or team's) field or zone read through anything but `me` when only its owner
  sees it (or through `me` when its owner may not: `hidden`, `others`);
- a shared zone whose contents nobody sees (a face-down deck, a bag): its order is the
  future draws;
- a timer some player may not see (`remaining(TIMER)` when the player who started it may
  not see it);
- in a ruleset where dice can lie in a zone only some players see (a cup, a hand), a die read
  by its component's name or through a die variable: it may be under another player's cup.
  Dice are read through the zones their player sees (`me.ZONE`).

How many items a zone holds is public: `count(p.ZONE)` and `count(ZONE)` are never peeks.
An error, not a warning: bots play by the rules people play by, so a balance figure is
honest. A designer who wants an all-seeing yardstick bot says so with `sees: everything` on
the policy (inherited by the policies that extend it); `meeple simulate` marks its seats. The
check is by name and shape, so it is conservative in one direction only: `current.notes` is
refused even when the current player is the decider (write `me.notes`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from dataclasses import fields as node_fields
from typing import Any

from dsl import nodes as n
from dsl.checker import Checker
from dsl.diagnostics import Diagnostic
from dsl.parser import ExprSyntaxError, parse_expression

HINT = ("decide on what the player can see: public state, their own fields and zones, read as "
        "`me.NAME`, and how many items any zone holds (`count(p.NAME)`); a yardstick bot that "
        "sees everything says so with `sees: everything`")


@dataclass
class Secrets:
    """What a policy must not read, from the ruleset's declarations."""

    shared: set[str] = field(default_factory=set)        # hidden global/round/turn variables
    fields: dict[str, str] = field(default_factory=dict)  # player/team fields and zones: vis
    zones: set[str] = field(default_factory=set)          # shared zones nobody sees into
    timers: set[str] = field(default_factory=set)         # timers not everyone sees
    dice: set[str] = field(default_factory=set)           # dice that may lie in a private zone
    zone_names: set[str] = field(default_factory=set)     # every zone: count() of one is public

    def __bool__(self) -> bool:
        return bool(self.shared or self.fields or self.zones or self.timers or self.dice)


def _vis(spec: Any) -> str:
    return spec.get("visibility", "public") if isinstance(spec, dict) else "public"


def restricted(data: dict) -> Secrets:
    """What policies must not read, from the `state` and `components` sections."""
    state = data.get("state") or {}
    comps = data.get("components") or {}
    comps = comps if isinstance(comps, dict) else {}
    out = Secrets()
    out.shared = {name for scope in ("global", "round", "turn")
                  for name, spec in (state.get(scope) or {}).items() if _vis(spec) == "hidden"}
    out.fields = {name: _vis(spec) for scope in ("player", "team")
                  for name, spec in (state.get(scope) or {}).items() if _vis(spec) != "public"}
    private_zone = False
    for name, spec in (comps.get("zones") or {}).items():
        if not isinstance(spec, dict):
            continue
        out.zone_names.add(name)
        vis, owner = _vis(spec), spec.get("owner", "none")
        if owner in ("player", "team") and vis != "public":
            out.fields[name] = vis
            private_zone = True
        elif owner not in ("player", "team") and vis in ("hidden", "owner"):
            out.zones.add(name)  # a shared zone with no owner to see it: nobody does
    out.timers = {name for name, spec in (comps.get("timers") or {}).items()
                  if _vis(spec) != "public"}
    if private_zone:
        out.dice = set(comps.get("dice") or {}) | {
            name for scope in ("global", "round", "turn", "player", "team")
            for name, spec in (state.get(scope) or {}).items()
            if isinstance(spec, dict) and spec.get("type") == "die"}
    return out


def keeps_secrets(data: dict) -> bool:
    """Whether anything in the game is ever hidden from a player: a state, zone or timer not
    everyone sees (`restricted`), a sealed decision, or a line or reveal addressed to some
    players only (`to:`). Without secrets, people sharing one screen need not look away."""
    if restricted(data):
        return True

    def walk(x: Any) -> bool:
        if isinstance(x, dict):
            if x.get("sealed") is True or ("to" in x and ("say" in x or "reveal" in x)):
                return True
            return any(walk(v) for v in x.values())
        return isinstance(x, list) and any(walk(v) for v in x)
    return walk(data.get("flow")) or walk(data.get("procedures")) or walk(data.get("triggers"))


def check_policy_reads(c: Checker, path: tuple, value: Any, policy: str,
                       secrets: Secrets) -> None:
    if not isinstance(value, str) or not secrets:
        return
    try:
        node = parse_expression(value)
    except ExprSyntaxError:
        return  # reported where it was checked
    for pos, name, why in _peeks(node, secrets):
        span = c.doc.positions.in_scalar(path, pos[0], max(1, pos[1] - pos[0]))
        c.diags.append(Diagnostic(
            "policy-peeks", f"policy '{policy}' reads {name}, which {why}: the bot would "
            "decide on what its player cannot know", span, path, HINT))


def _peeks(node: Any, secrets: Secrets) -> list[tuple[n.Pos, str, str]]:
    out: list[tuple[n.Pos, str, str]] = []
    fields = secrets.fields

    def walk(x: Any, counted: bool = False) -> None:
        if isinstance(x, tuple):
            for item in x:
                walk(item)
            return
        if not isinstance(x, n.Node):
            return
        if isinstance(x, n.Call) and x.func == "count" and len(x.args) == 1 and _zone_read(
                x.args[0], secrets):
            walk(x.args[0], counted=True)  # how many items a zone holds is public
            return
        if isinstance(x, n.Name):
            if x.id in secrets.shared:
                out.append((x.pos, f"`{x.id}`", "is hidden from every player"))
            elif x.id in secrets.zones and not counted:
                out.append((x.pos, f"the zone `{x.id}`", "no player sees into (its count, "
                                                         f"`count({x.id})`, is public)"))
            elif x.id in secrets.timers:
                out.append((x.pos, f"the timer `{x.id}`", "some player may not see"))
            elif x.id in secrets.dice and not counted:
                out.append((x.pos, f"`{x.id}`", "may be a die under another player's cover "
                                                "(read dice through a zone the player sees, as "
                                                "`me.NAME`)"))
        if isinstance(x, n.Field) and x.name in fields and not (
                counted and x.name in secrets.zone_names):
            mine = _is_me(x.obj)
            vis = fields[x.name]
            if vis == "hidden" or (vis == "others" and mine):
                out.append((x.pos, f"`.{x.name}`", "its owner may not see"))
            elif vis == "owner" and not mine:
                out.append((x.pos, f"`.{x.name}`", "only its owner sees (read your own as "
                                                   f"`me.{x.name}`)"))
        for f in node_fields(x):
            if f.name != "pos":
                walk(getattr(x, f.name))
    walk(node)
    return out


def _zone_read(x: Any, secrets: Secrets) -> bool:
    """A zone read by its name or as a player's or team's field (or a list of dice)."""
    return (isinstance(x, n.Name) and (x.id in secrets.zone_names or x.id in secrets.dice)) or (
        isinstance(x, n.Field) and x.name in secrets.zone_names)


def _is_me(x: Any) -> bool:
    """`me`, or `me.team` (a team field's owner is the decider's team)."""
    if isinstance(x, n.Field) and x.name == "team":
        x = x.obj
    return isinstance(x, n.Name) and x.id == "me"
