"""Phase 6, run (view text): the view model drawn as lines of text for the terminal.

Input: a view built by interpreter/table/view_model.py (plain data). Output: the lines a
person reads: the turn, the table's sections, each team and each player, each as
"Label: value" parts, values as a player says them (yes/no, "none", dice as their faces, many
dice counted by face, a hidden zone as how many items lie there). `entries` gives the same
view as (whose, label) -> text, which the terminal compares to say what changed.
"""

from __future__ import annotations

from typing import Any

MANY_DICE = 6  # more dice than this in one value are counted by face, not listed


def number_text(n: Any) -> str:
    if isinstance(n, float):
        return str(int(n)) if n == int(n) else f"{n:.1f}"
    return str(n)


def value_text(v: dict) -> str:
    kind = v.get("kind")
    if kind == "number":
        return number_text(v["value"])
    if kind == "flag":
        return "yes" if v["value"] else "no"
    if kind == "text":
        return str(v["value"])
    if kind == "hidden":
        if "count" in v:  # a zone out of sight: how many items lie there
            return f"{v['count']} hidden" if v["count"] else "none"
        return "hidden"
    if kind == "dice":
        return _dice_text(v["dice"], bool(v.get("row")))
    if kind == "list":
        return ", ".join(f"({value_text(x)})" if x.get("kind") in ("list", "map") else
                         value_text(x) for x in v["items"]) or "none"
    if kind == "map":
        return ", ".join(f"{k}: {value_text(x)}" for k, x in v["entries"]) or "none"
    if kind == "timer":
        if not v["running"]:
            return "not running"
        return "running (time hidden)" if v["seconds"] is None else \
            f"{number_text(v['seconds'])} s left"
    return "none"


def _face(d: dict) -> str:
    if d.get("hidden"):
        return "hidden"
    if d.get("untracked"):
        return "not tracked"  # the table counts these dice; nobody typed their faces
    return "not rolled" if d["face"] is None else number_text(d["face"])


def _dice_text(dice: list[dict], own_row: bool = False) -> str:
    """Dice as their faces: "3, 5" for dice of one kind; "Red die 3, Blue die 5"
    for several; many dice of a kind as how many show each face."""
    if not dice:
        return "none"
    kinds: dict[str, list[dict]] = {}
    for d in dice:
        kinds.setdefault(d["of"], []).append(d)
    parts = []
    for of, group in kinds.items():
        if len(group) > MANY_DICE:
            counts: dict[str, int] = {}
            for d in group:
                counts[_face(d)] = counts.get(_face(d), 0) + 1
            shown = ", ".join(f"{face} ×{k}" for face, k in sorted(counts.items(),
                                                                   key=_face_order))
            parts.append(f"{len(group)} {of[:1].lower() + of[1:]} ({shown})")
        else:
            faces = ", ".join(_face(d) for d in group)
            # A die on its own (held in a variable) or dice of several kinds say which
            # dice they are; a row of one kind of dice has that name as its label already.
            named = not own_row and (len(kinds) > 1 or len(dice) == 1)
            parts.append((f"{of}, {faces}" if faces in ("not rolled", "hidden", "not tracked") else
                          f"{of} {faces}") if named else faces)
    return "; ".join(parts)


def _face_order(item: tuple[str, int]) -> tuple:
    face = item[0]
    return (0, int(face), "") if face.isdigit() else (1, 0, face)


def _rows_text(rows: list[dict]) -> list[str]:
    return [f"{r['label']}: {value_text(r['value'])}" if r["label"] else
            value_text(r["value"]) for r in rows]


def whose(view: dict) -> list[tuple[str, list[dict]]]:
    """Each part of the view with its heading: the table's sections, then each team, then
    each player."""
    parts = [(s["title"], s["rows"]) for s in view["table"]]
    for tm in view.get("teams") or ():
        mark = "yours: " if tm["yours"] else ""
        parts.append((f"Team {tm['name']} ({mark}{', '.join(tm['members'])})", tm["rows"]))
    for p in view["players"]:
        # A player's team is said by the team's heading, which names its members.
        notes = [n for n, on in (("you", p["you"]), ("out", p["out"])) if on]
        parts.append((p["name"] + "".join(f" ({n})" for n in notes), p["rows"]))
    return parts


def lines(view: dict) -> list[str]:
    """The whole view, a line per part; a part with nothing to show says so only for a
    player or team heading (the table's empty sections are left out)."""
    out = []
    if view.get("round"):
        out.append(f"Round {view['round']}, {view['current']}'s turn.")
    players = {p["name"] for p in view["players"]}
    for heading, rows in whose(view):
        shown = _rows_text(rows)
        if not shown:
            if heading and heading.split(" (")[0] in players:
                out.append(heading)
            continue
        out.append((f"{heading}: " if heading else "") + "; ".join(shown))
    return out


def entries(view: dict) -> dict[tuple[str, str], str]:
    """The view as (whose, label) -> text, to tell what changed since it was last shown."""
    out = {}
    for heading, rows in whose(view):
        for r in rows:
            out[(heading, r["label"])] = value_text(r["value"])
    return out
