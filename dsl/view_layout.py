"""Phase 4d, check (views): what a person's view of the table may show, and its layout.

Input: a ruleset's data (and, for `check_view`, the `Checker` holding it). Output:
`viewable(data)`, the values a view can show by scope (`table`: global, round and turn state,
shared zones, dice and timers; `player`: per-player state and zones; `team`: per-team state and
zones), each with its label; `layout(data)`, the rows the view shows in order (from the
ruleset's `view:` section, or derived from the declarations, leaving out what is marked
`bookkeeping`); and diagnostics for a `view:` section or a decision's `hides` that names
something a view cannot show. The interpreter's view model (interpreter/table/view_model.py)
builds every view from `layout`, so the checker and the table agree on every name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Protocol

from dsl.diagnostics import suggestion


class Checker(Protocol):
    """What checking a view needs of dsl/checker.py's `Checker` (which calls in here)."""

    doc: Any

    def report(self, code: str, message: str, path: tuple, hint: str | None = None,
               key: bool = False) -> None: ...

SCOPES = ("table", "player", "team")
HOLE = re.compile(r"\{([^{}]*)\}")
NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def derived_label(name: str) -> str:
    """A declared name as people read it: `turn_total` -> "Turn total"."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:] if words else name


def label_of(name: str, spec: Any) -> str:
    label = spec.get("label") if isinstance(spec, dict) else None
    return label if isinstance(label, str) and label.strip() else derived_label(name)


def is_bookkeeping(spec: Any) -> bool:
    return isinstance(spec, dict) and spec.get("bookkeeping") is True


@dataclass(frozen=True)
class Viewable:
    """One value a view can show: what it is (state, zone, dice, timer) and its label."""

    name: str
    what: str
    label: str
    spec: Any


@dataclass(frozen=True)
class Row:
    """One row of a view's layout: a declared value, a designed text (`text` with `{name}`
    holes filled from the shown values of its scope, the table's and parameters), or how
    many items a value of its scope holds (`count`)."""

    label: str
    name: str | None = None
    text: str | None = None
    count: str | None = None


@dataclass(frozen=True)
class Section:
    title: str
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Layout:
    table: tuple[Section, ...]
    player: tuple[Row, ...]
    team: tuple[Row, ...]
    eliminates: bool  # the ruleset can eliminate a player: the view says who is out


def _mapping(value: Any) -> dict:
    return value if isinstance(value, dict) else {}


def viewable(data: dict) -> dict[str, dict[str, Viewable]]:
    """Every value a view can show, by scope, in declaration order (components first: what
    lies on the table, then the state)."""
    comps = _mapping(data.get("components"))
    state = _mapping(data.get("state"))
    out: dict[str, dict[str, Viewable]] = {s: {} for s in SCOPES}

    def add(scope: str, name: str, what: str, spec: Any) -> None:
        out[scope][name] = Viewable(name, what, label_of(name, spec), spec)
    for name, spec in _mapping(comps.get("zones")).items():
        owner = _mapping(spec).get("owner", "none")
        add({"player": "player", "team": "team"}.get(owner, "table"), name, "zone", spec)
    for name, spec in _mapping(comps.get("dice")).items():
        add("table", name, "dice", spec)
    for name, spec in _mapping(comps.get("timers")).items():
        add("table", name, "timer", spec)
    for scope, key in (("table", "global"), ("table", "round"), ("table", "turn"),
                       ("player", "player"), ("team", "team")):
        for name, spec in _mapping(state.get(key)).items():
            add(scope, name, "state", spec)
    return out


def eliminates(data: Any) -> bool:
    """Whether the ruleset has an `eliminate` step anywhere (else `eliminated` is an engine
    built-in the game never uses, and a view does not mention it)."""
    if isinstance(data, dict):
        return "eliminate" in data or any(eliminates(v) for v in data.values())
    if isinstance(data, list):
        return any(eliminates(v) for v in data)
    return False


def _rows(entries: Any, names: dict[str, Viewable]) -> tuple[Row, ...]:
    rows = []
    for entry in entries if isinstance(entries, list) else []:
        if isinstance(entry, str) and entry in names:
            rows.append(Row(names[entry].label, name=entry))
        elif isinstance(entry, dict) and isinstance(entry.get("text"), str):
            rows.append(Row(str(entry.get("label", "")), text=entry["text"]))
        elif isinstance(entry, dict) and entry.get("count") in names:
            rows.append(Row(str(entry.get("label", "")), count=entry["count"]))
    return tuple(rows)


def _default(names: dict[str, Viewable]) -> tuple[Row, ...]:
    return tuple(Row(v.label, name=v.name) for v in names.values()
                 if not is_bookkeeping(v.spec))


def layout(data: dict) -> Layout:
    """The rows a person's view shows: the `view:` section's, or by default every value
    that is not bookkeeping, in declaration order."""
    names = viewable(data)
    view = _mapping(data.get("view"))
    if "sections" in view:
        table = tuple(Section(str(_mapping(s).get("title", "")),
                              _rows(_mapping(s).get("show"), names["table"]))
                      for s in view["sections"] if isinstance(s, dict))
    else:
        table = (Section("", _default(names["table"])),)
    player = _rows(view["player"], names["player"]) if "player" in view else \
        _default(names["player"])
    team = _rows(view["team"], names["team"]) if "team" in view else _default(names["team"])
    return Layout(table, player, team, eliminates(data.get("flow")) or eliminates(
        data.get("procedures")) or eliminates(data.get("triggers")) or eliminates(
        data.get("checks")))


def template_holes(text: str) -> list[str]:
    return [m.group(1).strip() for m in HOLE.finditer(text)]


def hole_names(data: dict, scope: str) -> set[str]:
    """The names a designed text of `scope` may fill a hole with: the scope's own values,
    the table's and the parameters."""
    names = viewable(data)
    return set(names[scope]) | set(names["table"]) | set(_mapping(data.get("parameters")))


# -- checking ---------------------------------------------------------------------------------------

def check_view(c: Checker) -> None:
    """A `view:` section names only values its scope can show, and a designed text's holes
    only names it can fill."""
    data = c.doc.data
    view = data.get("view")
    if not isinstance(view, dict):
        return
    names = viewable(data)
    for i, section in enumerate(view.get("sections") or []):
        if isinstance(section, dict):
            _check_entries(c, ("view", "sections", i, "show"), section.get("show"), "table",
                           names, data)
    for scope in ("player", "team"):
        if scope in view:
            _check_entries(c, ("view", scope), view[scope], scope, names, data)


def _check_entries(c: Checker, path: tuple, entries: Any, scope: str,
                   names: dict[str, dict[str, Viewable]], data: dict) -> None:
    where = {"table": "on the table (global, round or turn state, a shared zone, dice or a "
                      "timer)", "player": "of each player (per-player state or zone)",
             "team": "of each team (per-team state or zone)"}[scope]
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        if isinstance(entry, str) and entry not in names[scope]:
            other = next((s for s in SCOPES if entry in names[s]), None)
            hint = (f"'{entry}' is shown in the view's {other if other != 'table' else 'sections'}"
                    if other else None)
            c.report("unknown-reference", f"the view cannot show '{entry}' here: it is no value "
                     f"{where}{suggestion(entry, names[scope])}", path + (i,), hint)
        elif isinstance(entry, dict) and "count" in entry and entry["count"] not in names[scope]:
            c.report("unknown-reference", f"the view cannot count '{entry['count']}' here: it "
                     f"is no value {where}{suggestion(str(entry['count']), names[scope])}",
                     path + (i, "count"))
        elif isinstance(entry, dict) and isinstance(entry.get("text"), str):
            allowed = hole_names(data, scope)
            for hole in template_holes(entry["text"]):
                if not NAME.match(hole):
                    c.report("schema", f"a view text's hole names one value, as "
                             f"{{money}}; '{{{hole}}}' is not a name", path + (i, "text"))
                elif hole not in allowed:
                    c.report("unknown-reference", f"a view text cannot show '{hole}': it is "
                             f"no value {where}, of the table or a parameter"
                             f"{suggestion(hole, allowed)}", path + (i, "text"))


def check_hides(c: Checker, path: tuple, value: Any) -> None:
    """A skill decision's `hides` names values a view can show."""
    names = viewable(c.doc.data)
    every = {n for scope in names.values() for n in scope}
    for i, name in enumerate(value if isinstance(value, list) else []):
        if name not in every:
            c.report("unknown-reference", f"'hides' names '{name}', which no view shows"
                     f"{suggestion(str(name), every)}", path + (i,),
                     "name state variables or zones the answer could be read from")


def skill_of(data: dict, path: tuple) -> tuple[str | None, frozenset[str]]:
    """The skill a decision step (at `path` in the ruleset) leaves to the player, and the
    values the view leaves out while it is answered."""
    node: Any = data
    for key in path:
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, list) and isinstance(key, int) and 0 <= key < len(node):
            node = node[key]
        else:
            return None, frozenset()
    if not isinstance(node, dict):
        return None, frozenset()
    hides = node.get("hides")
    return (node.get("skill") if isinstance(node.get("skill"), str) else None,
            frozenset(h for h in hides if isinstance(h, str)) if isinstance(hides, list)
            else frozenset())
