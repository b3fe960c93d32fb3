"""Docs: generates docs/reference.md and docs/errors.md from the language's registries.

Phase: none of the pipeline's; a tool beside it (run by hand, checked by tests/test_docs.py).
Input: the schema (dsl/schema.py `ruleset_schema()`), the effect registry (dsl/effects.py
`EFFECTS_LIST`, `OPTION_FIELDS`), the built-ins (dsl/builtins.py `BUILTINS`), the names in scope
(dsl/symbols.py), the diagnostic codes (dsl/diagnostics.py `CODES`) and the limits of
dsl/loader.py, dsl/parser.py and dsl/builtins.py. Output: Markdown text, the same for the same
registries (no dates, no set ordering); `python -m dsl.docgen` rewrites the two files, and
tests/test_docs.py fails when they are out of date.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dsl import builtins, limits, loader, parser, symbols
from dsl import effects as fx
from dsl.builtins import BUILTINS
from dsl.diagnostics import CODES, render
from dsl.schema import ruleset_schema

DOCS = Path(__file__).resolve().parent.parent / "docs"

_KIND_WORDS = {
    fx.EXPR: "expression", fx.COND: "condition", fx.STEPS: "steps",
    fx.TEMPLATE: "text with {holes}", fx.ASSIGN: "mapping of target: expression",
    fx.BINDER: "new name", fx.DECISION: "decision id", fx.OPTIONS: "options",
    fx.ARGS: "mapping of name: expression", fx.INT: "whole number", fx.BOOL: "true/false",
    fx.TEXT: "text", fx.LIMIT: "{times, per}", fx.REF: "name", fx.NAMES: "list of names",
    fx.COUNTS: "mapping of kind: {label, where, face}",
}

# Schema definitions that are leaves for a reader (described by a word, not expanded).
_LEAF_REFS = {"expression": "expression", "condition": "condition", "steps": "steps",
              "step": "step", "template": "text with {holes}", "options": "options"}
_JSON_TYPES = {"string": "text", "integer": "whole number", "number": "number",
               "boolean": "true/false", "array": "list", "object": "mapping", "null": "nothing"}

# Words for the registries' names that carry no documentation of their own; a name missing
# here is still listed, with its type only.
_CONTEXT_DOCS = {
    "players": "every player, in seat order",
    "current": "the player whose turn it is",
    "round": "the number of the current round",
    "turn": "the number of the current turn",
}
_EVENT_DOCS = {
    "rolled": "after a `roll` step",
    "drawn": "after a `draw` step",
    "moved": "after items move to a zone (`move`)",
    "changed": "after a state value changes",
    "decided": "after a decision (`choose`, `actions`, `race`) is made",
    "turn_start": "when a player's turn begins",
    "turn_end": "when a player's turn ends",
    "round_start": "when a round (one pass over the players) begins",
    "round_end": "when a round ends",
    "phase_start": "when a phase begins",
    "phase_end": "when a phase ends",
    "game_start": "once, before the first phase",
    "timer_expired": "when a timer reaches zero",
}


def _field_kind(spec: fx.FieldSpec) -> str:
    if spec.kind == fx.REF:
        return f"name of a {spec.ref.replace('_', ' ')}" if spec.ref else "name"
    word = _KIND_WORDS[spec.kind]
    if spec.type:
        word += f" ({spec.type})"
    if spec.choices:
        word += ": " + " or ".join(f"`{c}`" for c in spec.choices)
    if spec.binds:
        word += "; binds " + ", ".join(f"`{b}`" for b in spec.binds)
    return word


# -- sections: a walk over the JSON Schema --------------------------------------------------------

def _ref_name(node: dict) -> str | None:
    ref = node.get("$ref")
    return ref.rsplit("/", 1)[1] if isinstance(ref, str) else None


def _resolve(schema: dict, node: Any) -> dict:
    """Follows a $ref to a structural definition; leaves (expressions, steps...) stay as they
    are."""
    if not isinstance(node, dict):
        return {}
    name = _ref_name(node)
    if name and name not in _LEAF_REFS:
        return schema["$defs"][name]
    return node


def _kind_of(schema: dict, node: Any) -> str:
    if not isinstance(node, dict):
        return ""
    name = _ref_name(node)
    if name in _LEAF_REFS:
        return _LEAF_REFS[name]
    if name:
        return _kind_of(schema, schema["$defs"][name]) or name.replace("_", " ")
    if "const" in node:
        return f"always `{node['const']}`"
    if "enum" in node:
        return "one of " + ", ".join(f"`{v}`" for v in node["enum"])
    types = node.get("type")
    if types is None and "anyOf" in node:
        kinds = [_kind_of(schema, alt) for alt in node["anyOf"]]
        return " or ".join(dict.fromkeys(k for k in kinds if k))
    if types is None:
        return ""
    types = [types] if isinstance(types, str) else types
    words = []
    for ty in types:
        word = _JSON_TYPES.get(ty, ty)
        if ty == "array" and isinstance(node.get("items"), dict):
            inner = _kind_of(schema, node["items"])
            if inner and not _structural(schema, node["items"]):
                word = f"list of {inner}"
        if ty == "object" and (isinstance(node.get("additionalProperties"), dict)
                               or "propertyNames" in node):
            word = "mapping of names"
        words.append(word)
    return " or ".join(words)


def _structural(schema: dict, node: Any, seen: frozenset = frozenset()) -> bool:
    """Whether a node has named parts worth listing (properties somewhere inside)."""
    name = _ref_name(node) if isinstance(node, dict) else None
    if name in seen:
        return False
    node = _resolve(schema, node)
    seen = seen | ({name} if name else set())
    if not node or _ref_name(node) in _LEAF_REFS:
        return False
    if node.get("properties"):
        return True
    parts = [node.get("additionalProperties"), node.get("items"), *node.get("anyOf", [])]
    return any(isinstance(p, dict) and _structural(schema, p, seen) for p in parts)


def _children(schema: dict, node: Any, depth: int, seen: frozenset,
              shown: dict[str, str], trail: str = "") -> list[str]:
    """The named parts of a node, one list line each. A definition used in several places
    (a state variable, a phase) is spelt out where it first appears."""
    name = _ref_name(node) if isinstance(node, dict) else None
    if name in seen:
        return []
    pad = "  " * depth
    if name and name not in _LEAF_REFS and _structural(schema, node):
        if name in shown:
            return [f"{pad}- *the same keys as under `{shown[name]}` above*"]
        shown[name] = trail
    seen = seen | ({name} if name else set())
    node = _resolve(schema, node)
    lines: list[str] = []
    required = set(node.get("required", []))
    for key, sub in (node.get("properties") or {}).items():
        lines += _entry(schema, f"`{key}`", sub, depth, seen, key in required, shown,
                        f"{trail}.{key}" if trail else key)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict) and _structural(schema, extra, seen):
        lines += _entry(schema, "*each entry, by name*", extra, depth, seen, False, shown,
                        f"{trail}.NAME")
    items = node.get("items")
    if isinstance(items, dict) and _structural(schema, items, seen):
        lines += _entry(schema, "*each item of the list*", items, depth, seen, False, shown,
                        f"{trail}[]")
    for alt in node.get("anyOf", []):
        if not _structural(schema, alt, seen):
            continue
        if _resolve(schema, alt).get("properties"):
            desc = _resolve(schema, alt).get("description", "")
            lines.append(f"{pad}- *or, written in full*: {desc}")
            lines += _children(schema, alt, depth + 1, seen, shown, trail)
        else:
            lines += _children(schema, alt, depth, seen, shown, trail)
    return lines


def _entry(schema: dict, label: str, node: Any, depth: int, seen: frozenset,
           required: bool, shown: dict[str, str], trail: str) -> list[str]:
    resolved = _resolve(schema, node)
    desc = (node.get("description") if isinstance(node, dict) else None) or resolved.get(
        "description", "")
    kind = _kind_of(schema, node)
    notes = "; ".join(x for x in (kind, "required" if required else "") if x)
    line = f"{'  ' * depth}- {label}" + (f" ({notes})" if notes else "") + (
        f": {desc}" if desc else "")
    return [line] + _children(schema, node, depth + 1, seen, shown, trail)


def _sections(schema: dict) -> list[str]:
    out = ["## Sections", "",
           "A ruleset is a YAML mapping of these sections; " + ", ".join(
               f"`{r}`" for r in schema["required"]) + " are required. Under each, its keys "
           "with what they take (*each entry, by name* is one entry of a mapping whose keys "
           "you choose).", ""]
    shown: dict[str, str] = {}
    for name, node in schema["properties"].items():
        out += [f"### `{name}`", ""]
        out += _entry(schema, f"`{name}`", node, 0, frozenset(), name in schema["required"],
                      shown, name)
        out.append("")
    return out


# -- effects -----------------------------------------------------------------------------------

def _effects() -> list[str]:
    out = ["## Effects", "",
           "A step is a mapping whose first key names the effect; that key's value is the "
           "effect's *main field*, and the other keys are its other fields. An effect with no "
           "main field is written as a bare word (`- end_turn`), or as `- name:` followed by "
           "its fields.", ""]
    categories: dict[str, list[fx.Effect]] = {}
    for e in fx.EFFECTS_LIST:
        categories.setdefault(e.category, []).append(e)
    out += ["| category | effects |", "|---|---|"]
    for cat, effects in categories.items():
        out.append(f"| {cat} | " + ", ".join(f"[`{e.name}`](#{e.name})" for e in effects)
                   + " |")
    out.append("")
    for cat, effects in categories.items():
        out += [f"### {cat.capitalize()}", ""]
        for e in effects:
            out += [f"#### {e.name}", "", e.doc, ""]
            if e.primary:
                out += [f"Main field: `{e.primary}` (the value of the `{e.name}` key)."
                        + (" A `break` inside it leaves it." if e.loop else ""), ""]
            else:
                out += ["No main field: write `- " + e.name + "`" + (
                    ", or `- " + e.name + ":` with its fields below it." if e.fields else ".")
                        + (" A `break` inside it leaves it." if e.loop else ""), ""]
            if e.fields:
                out += ["| field | kind | required | meaning |", "|---|---|---|---|"]
                for fname, spec in e.fields.items():
                    shown = (f"`{e.name}` (main: {fname})" if fname == e.primary
                             else f"`{fname}`")
                    req = "required" if spec.required else "optional"
                    out.append(f"| {shown} | {_field_kind(spec)} | {req} | {spec.doc} |")
                out.append("")
            out += ["```yaml", e.example, "```", ""]
    out += ["### Options of a decision", "",
            "`options:` of `choose` and `actions` may map each option name to these fields "
            "(all optional):", "", "| field | kind | meaning |", "|---|---|---|"]
    for fname, spec in fx.OPTION_FIELDS.items():
        out.append(f"| `{fname}` | {_field_kind(spec)} | {spec.doc} |")
    out += ["", "A `limit` counts per " + ", ".join(f"`{p}`" for p in fx.LIMIT_PERIODS) + ".",
            ""]
    out += ["### Kinds a race's table counts", "",
            "`counts:` of `race` maps each kind name to these fields (all optional); the "
            "kinds are asked in the order written:", "", "| field | kind | meaning |",
            "|---|---|---|"]
    for fname, spec in fx.COUNT_FIELDS.items():
        out.append(f"| `{fname}` | {_field_kind(spec)} | {spec.doc} |")
    out.append("")
    return out


# -- built-ins, names, events ---------------------------------------------------------------------

def _builtins() -> list[str]:
    out = ["## Built-in functions", "",
           "Built-ins are pure: they read values and never change state or roll dice. A list "
           "argument may be written as a comprehension, `sum(d.face for d in dice)`; a "
           "parameter marked `?` may be left out; `...` means the last parameter may repeat; "
           "parameters after those are named: `max(xs, default: 0)`.", ""]
    cats: dict[str, list[builtins.Builtin]] = {}
    for b in BUILTINS.values():
        cats.setdefault(b.category, []).append(b)
    out += ["| category | functions |", "|---|---|"]
    for cat, items in cats.items():
        out.append(f"| {cat} | " + ", ".join(f"[`{b.name}`](#{b.name})" for b in items) + " |")
    out.append("")
    for cat, items in cats.items():
        out += [f"### {cat.capitalize()}", ""]
        for b in items:
            out += [f"#### {b.name}", "", f"`{b.signature}`", "", b.doc, "",
                    f"Example: `{b.example}`", ""]
    return out


def _names() -> list[str]:
    out = ["## Names in scope", "",
           "Readable everywhere by their bare name: the parameters, the `global`, `turn` and "
           "`round` state, the components (dice, zones without an owner, decks, grids, "
           "timers), the decision ids (the latest decision), and these:", "",
           "| name | type | meaning |", "|---|---|---|"]
    for name, ty in symbols.CONTEXT_NAMES.items():
        out.append(f"| `{name}` | {ty} | {_CONTEXT_DOCS.get(name, '')} |")
    out += ["| `teams` | list of team | every team (only when the ruleset has `teams`) |", "",
            "Bound only in some places:", "",
            "| name | where |", "|---|---|",
            "| `player` | `scoring` (score, tie_break, eligible), `checks` with `for_each: player`,"
            " `turns.by` and `turns.skip`, a per-player state's `initial` |",
            "| `team` | `checks` with `for_each: team` |",
            "| `event` | a trigger's `if` and `do`: the event's fields |",
            "| `me`, `options` | a policy's rules: the deciding player, the legal options |",
            "| `option` | a policy's `best`: the option being weighed |",
            "| locals | `for_each`, `draw ... as`, `let`, procedure `params`, comprehension "
            "variables, and the names an effect field binds (e.g. `racer`, `item` in `race`) |",
            "", "### Fields of values", "",
            "Read as `value.field`. The built-in fields are below; a ruleset adds its own.", "",
            "| value | built-in fields | also |", "|---|---|---|"]
    extra = {"player": "every `state.player` variable and player-owned zone",
             "team": "every `state.team` variable and team-owned zone",
             "die": "the `attributes` of its dice component",
             "card": "the keys of its card mapping", "cell": "the grid's attributes",
             "timer": "", "grid": "`g['E4']`: a cell by id"}
    for what, fields in (("player", symbols.PLAYER_FIELDS), ("team", symbols.TEAM_FIELDS),
                         ("die", symbols.DIE_FIELDS), ("card", symbols.CARD_FIELDS),
                         ("cell", symbols.CELL_FIELDS), ("timer", symbols.TIMER_FIELDS),
                         ("grid", symbols.GRID_FIELDS)):
        shown = ", ".join(f"`{k}` ({v})" for k, v in fields.items())
        out.append(f"| {what} | {shown} | {extra.get(what, '')} |")
    out += ["", "## Built-in events", "",
            "Triggers name them in `on:`; custom events are declared under `events:` and fired "
            "with `emit`.", "", "| event | fires |", "|---|---|"]
    for ev in symbols.BUILTIN_EVENTS:
        out.append(f"| `{ev}` | {_EVENT_DOCS.get(ev, '')} |")
    out += ["", "## Words you cannot use as names", "",
            "- Keywords: " + ", ".join(f"`{k}`" for k in sorted(parser.KEYWORDS)) + ".",
            "- Reserved for later versions: " + ", ".join(
                f"`{k}`" for k in sorted(parser.RESERVED)) + ".",
            "- The built-in function names, the names in scope above, `player`, `event`, "
            "`me`, `option`, `bank` and `" + symbols.END + "` (the end of the game).", ""]
    return out


def reference() -> str:
    """The text of docs/reference.md."""
    schema = ruleset_schema()
    out = ["# meeple language reference", "",
           "Generated by `python -m dsl.docgen` from the language's registries "
           "(dsl/schema.py, dsl/effects.py, dsl/builtins.py, dsl/symbols.py); do not edit by "
           "hand. The tutorial and guide is [language.md](language.md); error codes are in "
           "[errors.md](errors.md).", "",
           "- [Sections](#sections)", "- [Effects](#effects)",
           "- [Built-in functions](#built-in-functions)", "- [Names in scope](#names-in-scope)",
           "- [Built-in events](#built-in-events)",
           "- [Words you cannot use as names](#words-you-cannot-use-as-names)", ""]
    out += _sections(schema) + _effects() + _builtins() + _names()
    return "\n".join(out).rstrip("\n") + "\n"


# -- errors --------------------------------------------------------------------------------------

_SAMPLE = """meeple: 1
metadata: {name: Sample}
players: {min: 2, max: 2}
parameters:
  bonus: {default: 1, doc: Points added at the end.}
state:
  player:
    score: 0
flow:
  phases:
    play:
      turns: {order: clockwise}
      do:
        - add: {current.score: 1}
scoring:
  score: player.score + bouns
  eligible: score > 0
"""


def _sample_error() -> str:
    """A real rendered diagnostic, so the page shows exactly what `meeple validate` prints."""
    from dsl.pipeline import validate_text  # the pipeline, only for this sample

    result = validate_text(_SAMPLE, "rulesets/game.yaml")
    return "\n".join(render(d, result.source) for d in result.diagnostics)


def errors() -> str:
    """The text of docs/errors.md."""
    out = ["# Error codes", "",
           "Generated by `python -m dsl.docgen` from `dsl/diagnostics.py` (and the limits in "
           "dsl/loader.py, dsl/parser.py, dsl/builtins.py and dsl/limits.py); do not edit by "
           "hand. What a ruleset can and cannot do, and why: [security.md](security.md).", "",
           "Every diagnostic has a stable code, shown in brackets at the end of its first "
           "line, then the source line with a caret under the problem, and a hint when there "
           "is one:", "", "```", _sample_error(), "```", "",
           "Codes never change meaning; tools may rely on them (`meeple validate --format json`"
           " gives them as `code`). Diagnostics come phase by phase (load, structure, parse, "
           "check): every finding of a phase is reported, sorted by position, and if loading "
           "or the structure check finds errors the later phases are not run, so one mistake "
           "does not cascade. Parse and check errors are found in the same pass.", "",
           "| code | phase | meaning |", "|---|---|---|"]
    for c in CODES.values():
        out.append(f"| [`{c.name}`](#{c.name}) | {c.phase} | {c.summary} |")
    out += ["", "## Limits", "",
            "Inputs beyond these limits are refused with a located error "
            "(`too-large`, `too-deep`, `alias-limit`, `limit-exceeded`), never a crash:", "",
            f"- a ruleset file: at most {loader.MAX_BYTES:,} bytes "
            f"(`loader.MAX_BYTES`)",
            f"- nesting of the YAML document: at most {loader.MAX_DEPTH} levels "
            f"(`loader.MAX_DEPTH`)",
            f"- values after expanding aliases: at most {loader.MAX_NODES:,} "
            f"(`loader.MAX_NODES`); aliases: at most {loader.MAX_ALIASES:,} "
            f"(`loader.MAX_ALIASES`)",
            f"- one expression: at most {parser.MAX_EXPRESSION_CHARS:,} characters "
            f"(`parser.MAX_EXPRESSION_CHARS`), {parser.MAX_NESTING} levels of brackets "
            f"(`parser.MAX_NESTING`) and {parser.MAX_DEPTH} levels of operations inside "
            f"operations (`parser.MAX_DEPTH`)",
            f"- variants of one ruleset: at most {limits.MAX_VARIANTS} "
            f"(`limits.MAX_VARIANTS`)",
            f"- dice in one set, sides of one die, cells of one map: at most "
            f"{limits.MAX_PIECES:,} (`limits.MAX_PIECES`, when the game is set up)",
            f"- `range(a, b)`: at most {builtins.MAX_RANGE:,} numbers (`builtins.MAX_RANGE`, "
            f"when the game runs)",
            f"- values, when the game runs: whole numbers within ±{builtins.MAX_INT:,} "
            f"(`builtins.MAX_INT`), texts of at most {builtins.MAX_TEXT:,} characters "
            f"(`builtins.MAX_TEXT`), lists of at most {builtins.MAX_ITEMS:,} items "
            f"(`builtins.MAX_ITEMS`)",
            "- a running game: the budgets of the ruleset's `limits` section; the items that "
            "comprehensions and built-ins over lists go through count as steps. Defaults and "
            "the most a ruleset may ask for (a person may go further with `--limit NAME=N`):",
            *(f"  - `{k}`: {v:,} by default, at most {limits.LIMIT_CEILINGS[k]:,}"
              for k, v in limits.DEFAULT_LIMITS.items()), ""]
    phases: dict[str, list] = {}
    for code in CODES.values():
        phases.setdefault(code.phase, []).append(code)
    for phase, codes in phases.items():
        out += [f"## Phase: {phase}", ""]
        for c in codes:
            out += [f"### `{c.name}`", "", c.summary, "", f"- Example: `{c.example}`",
                    f"- Fix: {c.fix}", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def generated() -> dict[Path, str]:
    """Every generated file and its text."""
    return {DOCS / "reference.md": reference(), DOCS / "errors.md": errors()}


def main() -> None:
    for path, text in generated().items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
