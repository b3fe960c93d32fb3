"""Phase 4d, check (fairness): whether a bot policy reads only what its player may know.

Input: the checker, the ruleset's `state` section and one policy expression (a `let` value,
`when`, `choose` or `best`). Output: a `policy-peeks` warning for each read of state its
player cannot see: a global, round or turn variable declared `visibility: hidden`, or a
player's (or team's) field read through anything but `me` when only its owner sees it (or
through `me` when its owner may not: `hidden`, `others`).

A warning, not an error: a designer may want an all-seeing bot as a yardstick. The check is
by name and shape, so it is conservative in one direction only: `current.notes` is reported
even when the current player is the decider (write `me.notes`). Zones are not checked: how
many items a hidden bag or deck holds is public, and their order is not readable anyway.
"""

from __future__ import annotations

from dataclasses import fields as node_fields
from typing import Any

from dsl import nodes as n
from dsl.checker import Checker
from dsl.diagnostics import Diagnostic, Severity
from dsl.parser import ExprSyntaxError, parse_expression

HINT = "decide on what the player can see: public state and their own fields, read as `me.NAME`"


def restricted(state: dict) -> tuple[dict[str, str], dict[str, str]]:
    """(hidden shared variables, player and team fields by visibility): what policies must
    not read, from the `state` section."""
    def vis(spec: Any) -> str:
        return spec.get("visibility", "public") if isinstance(spec, dict) else "public"
    shared = {name: vis(spec) for scope in ("global", "round", "turn")
              for name, spec in (state.get(scope) or {}).items() if vis(spec) == "hidden"}
    fields = {name: vis(spec) for scope in ("player", "team")
              for name, spec in (state.get(scope) or {}).items() if vis(spec) != "public"}
    return shared, fields


def check_policy_reads(c: Checker, path: tuple, value: Any, policy: str, shared: dict,
                       fields: dict) -> None:
    if not isinstance(value, str) or not (shared or fields):
        return
    try:
        node = parse_expression(value)
    except ExprSyntaxError:
        return  # reported where it was checked
    for pos, name, why in _peeks(node, shared, fields):
        span = c.doc.positions.in_scalar(path, pos[0], max(1, pos[1] - pos[0]))
        c.diags.append(Diagnostic(
            "policy-peeks", f"policy '{policy}' reads {name}, which {why}: the bot would "
            "decide on what its player cannot know", span, path, HINT, Severity.WARNING))


def _peeks(node: Any, shared: dict, fields: dict) -> list[tuple[n.Pos, str, str]]:
    out: list[tuple[n.Pos, str, str]] = []

    def walk(x: Any) -> None:
        if isinstance(x, tuple):
            for item in x:
                walk(item)
            return
        if not isinstance(x, n.Node):
            return
        if isinstance(x, n.Name) and x.id in shared:
            out.append((x.pos, f"`{x.id}`", "is hidden from every player"))
        if isinstance(x, n.Field) and x.name in fields:
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


def _is_me(x: Any) -> bool:
    """`me`, or `me.team` (a team field's owner is the decider's team)."""
    if isinstance(x, n.Field) and x.name == "team":
        x = x.obj
    return isinstance(x, n.Name) and x.id == "me"
