"""The rulebook: a checked ruleset put into words a new player can learn from.

Phase: docs (after compile; nothing is run). Input: a compiled `Program`, whose `data` is the
checked ruleset with the variant applied and whose `parameters` hold the values in play; and,
optionally, the base ruleset's data (for the defaults and the list of variants), the variant's
name and the `--set` values. Output: a `Book` (headings, paragraphs, lists and tables of inline
text), rendered by `to_markdown` as Markdown or by `to_html` as a standalone HTML page. Both
renderings walk the same structure, so neither is parsed back from the other and every piece
of text is escaped exactly once, at the end.

Steps are put into words from the effect registry (dsl/effects.py): an effect with a sentence
of its own gets it, any field that sentence does not use is still listed after it, and an
effect without a sentence (one added later) is rendered from its fields by their kinds. Nothing
here knows any game: every word about a game comes from its ruleset (names, `doc` and
`description` texts, expressions shown as code).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from dsl import effects as fx
from interpreter.program import Program

# -- the document structure ------------------------------------------------------------------


@dataclass(frozen=True)
class Span:
    """A run of inline text: text, code, strong, em, or a link to an anchor (`target`)."""
    kind: str
    text: str
    target: str = ""


Inlines = list[Span]


@dataclass
class Heading:
    level: int
    text: str
    anchor: str = ""


@dataclass
class Para:
    inlines: Inlines


@dataclass
class Item:
    inlines: Inlines
    children: list[Block] = field(default_factory=list)


@dataclass
class ListBlock:
    items: list[Item]
    ordered: bool = False


@dataclass
class Table:
    header: list[Inlines]
    rows: list[list[Inlines]]


Block = Heading | Para | ListBlock | Table


@dataclass
class Book:
    title: str
    blocks: list[Block]


def text(s: str) -> Span:
    return Span("text", s)


def code(s: str) -> Span:
    return Span("code", s)


def strong(s: str) -> Span:
    return Span("strong", s)


def em(s: str) -> Span:
    return Span("em", s)


def link(s: str, target: str) -> Span:
    return Span("link", s, target)


def prose(s: Any) -> Inlines:
    """Text written for people (a `doc`, a description): `backticks` mark code, as in the
    rulesets' own docs; whitespace (folded YAML) is collapsed."""
    s = " ".join(str(s).split())
    parts = s.split("`")
    if len(parts) % 2 == 0:  # an unmatched backtick stays text
        parts[-2:] = [parts[-2] + "`" + parts[-1]]
    return [code(p) if i % 2 else text(p) for i, p in enumerate(parts) if p]


def slug(s: str) -> str:
    """An anchor as GitHub derives it from a heading, so Markdown links work there too."""
    s = re.sub(r"[^\w\- ]", "", s.strip().lower())
    return s.replace(" ", "-")


# -- plain values and expressions --------------------------------------------------------------

def plain(value: Any) -> str:
    """A YAML value as the ruleset would write it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, float) and value.is_integer():
        return str(int(value)) if abs(value) < 1e15 else repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(plain(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {plain(v)}" for k, v in value.items()) + "}"
    return " ".join(str(value).split())


def _joined(parts: list[Inlines], last: str = "and") -> Inlines:
    out: Inlines = []
    for i, p in enumerate(parts):
        if i:
            if i < len(parts) - 1:
                out.append(text(", "))
            else:
                out.append(text(f"{last} " if last in (",", ";") else f" {last} "))
        out += p
    return out


def _capital(inl: Inlines) -> Inlines:
    if inl and inl[0].kind == "text" and inl[0].text:
        return [text(inl[0].text[0].upper() + inl[0].text[1:])] + inl[1:]
    return inl


def _lower(inl: Inlines) -> Inlines:
    if inl and inl[0].kind == "text" and inl[0].text[:1].isupper() and inl[0].text[1:2] != " ":
        return [text(inl[0].text[0].lower() + inl[0].text[1:])] + inl[1:]
    return inl


_TYPE_WORDS = {"int": "a whole number", "number": "a number", "bool": "true or false",
               "string": "text", "list": "a list", "map": "a table of values",
               "player": "a player", "team": "a team", "die": "a die", "card": "a card",
               "cell": "a cell", "any": "any value", "choice": "a choice"}

_SOURCE_WORDS = {"text": "the rule text says so", "analysis": "a reading of the rule text",
                 "invented": "invented for this ruleset"}

_VISIBILITY = {"public": "everyone sees it", "owner": "only its owner sees it",
               "hidden": "nobody sees it until it is revealed",
               "others": "everyone but its owner sees it"}

_ZONE_KINDS = {"bag": "a bag (drawn from at random)", "deck": "a deck (ordered, drawn from the top)",
               "row": "a row (left to right; the last is the rightmost)",
               "pool": "an open area", "hand": "a hand"}

_EVENTS = {"rolled": "When dice are rolled", "drawn": "When something is drawn",
           "moved": "When something is moved", "changed": "When a value changes",
           "decided": "When a decision is taken", "turn_start": "At the start of every turn",
           "turn_end": "At the end of every turn", "round_start": "At the start of every round",
           "round_end": "At the end of every round", "phase_start": "When a phase begins",
           "phase_end": "When a phase ends", "game_start": "When the game starts",
           "timer_expired": "When a timer runs out"}

_RAISED_BY = {"any": "any player", "table": "the table (the referee)",
              "current": "the player whose turn it is", "others": "any player but the current one"}

_PERIODS = {"turn": "per turn", "round": "per round", "phase": "per phase", "game": "per game"}


def _type_of(spec: Any) -> str:
    if isinstance(spec, dict) and spec.get("type"):
        return spec["type"]
    value = spec.get("initial", spec.get("default")) if isinstance(spec, dict) else spec
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "number"
    if isinstance(value, list):
        return "list"
    if isinstance(value, dict):
        return "map"
    return "any"


def _parse_step(step: Any) -> tuple[str | None, dict[str, Any]]:
    """A step's effect name and its fields by their registry names (the first key that names
    an effect is the effect, as the checker reads it)."""
    if isinstance(step, str):
        return (step if step in fx.EFFECTS else None), {}
    if not isinstance(step, dict) or not step:
        return None, {}
    name = next((k for k in step if k in fx.EFFECTS), None)
    if name is None:
        return None, {}
    effect = fx.EFFECTS[name]
    fields: dict[str, Any] = {}
    for key, value in step.items():
        if key == name:
            if effect.primary:
                fields[effect.primary] = value
        else:
            fields[key] = value
    return name, fields


def walk_steps(steps: Any) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every step inside `steps`, nested ones included (found through the registry's STEPS and
    OPTIONS fields), as (effect name, fields)."""
    if not isinstance(steps, list):
        return
    for step in steps:
        name, fields = _parse_step(step)
        if name is None:
            continue
        yield name, fields
        for fname, spec in fx.EFFECTS[name].fields.items():
            value = fields.get(fname)
            if spec.kind == fx.STEPS:
                yield from walk_steps(value)
            elif spec.kind == fx.OPTIONS and isinstance(value, dict):
                for opt in value.values():
                    if isinstance(opt, dict):
                        yield from walk_steps(opt.get("do"))


# -- the builder -------------------------------------------------------------------------------

Sentence = Callable[["_Builder", dict[str, Any]], tuple[Inlines, list[Block]]]
_SENTENCES: dict[str, Sentence] = {}


def sentence(name: str) -> Callable[[Sentence], Sentence]:
    """Registers the sentence of an effect. It takes the step's fields by registry name and
    pops those it puts into words; whatever it leaves is listed after it."""
    def register(fn: Sentence) -> Sentence:
        _SENTENCES[name] = fn
        return fn
    return register


class _Builder:
    def __init__(self, program: Program, base: Mapping[str, Any] | None, variant: str | None,
                 sets: Mapping[str, Any] | None):
        self.data: dict[str, Any] = program.data
        self.params: dict[str, Any] = dict(program.parameters)
        self.base: Mapping[str, Any] = base if base is not None else program.data
        self.variant = variant
        self.sets = dict(sets or {})
        comps = self.data.get("components") or {}
        self.zones: dict[str, Any] = comps.get("zones") or {}
        self.components = {n for kind in ("dice", "zones", "decks", "grids", "timers")
                           for n in (comps.get(kind) or {})}
        self.phases: dict[str, Any] = (self.data.get("flow") or {}).get("phases") or {}
        self.procedures: dict[str, Any] = self.data.get("procedures") or {}
        self.events: dict[str, Any] = self.data.get("events") or {}
        self.blocks: list[Block] = []
        self.seen: dict[str, int] = {}

    # -- inline pieces ---------------------------------------------------------------------
    def x(self, value: Any, note: str | None = None) -> Inlines:
        """An expression as code. The parameters it reads follow with their values in play, so
        a reader sees the numbers (`goal` (100)) without looking them up; `note` joins them in
        the same parentheses."""
        notes = [note] if note else []
        if not isinstance(value, str):
            shown = plain(value)
        elif value.strip() in self.params:
            shown = value.strip()
            notes.insert(0, plain(self.params[shown]))
        else:
            shown = plain(value)
            used = self.params_in(shown)
            if used and len(used) <= 3:  # past a few, the list would drown the expression
                notes.insert(0, ", ".join(f"{u} = {plain(self.params[u])}" for u in used))
        return [code(shown)] + ([text(" (" + "; ".join(notes) + ")")] if notes else [])

    def params_in(self, expr: str) -> list[str]:
        """The parameter names an expression reads (not field names, not inside text)."""
        bare = re.sub(r"'[^']*'|\"[^\"]*\"", "''", expr)
        names = re.findall(r"(?<![\w.])[A-Za-z_]\w*", bare)
        return list(dict.fromkeys(n for n in names if n in self.params))

    def thing(self, value: Any) -> Inlines:
        """A component named by itself reads as a word; anything else is an expression."""
        if isinstance(value, str) and value.strip() in self.components:
            return [text(value.strip())]
        return self.x(value)

    def things(self, value: Any) -> Inlines:
        if isinstance(value, list):
            return _joined([self.thing(v) for v in value])
        return self.thing(value)

    def who(self, value: Any) -> Inlines:
        if value is None or value == "current":
            return [text("the current player")]
        if value == "players":
            return [text("every player")]
        return self.x(value)

    def place(self, value: Any) -> Inlines:
        if isinstance(value, str) and value.strip().strip("'\"") == "out" and value.strip() != "out":
            return [text("out of the game")]
        return self.thing(value)

    def party(self, value: Any) -> Inlines:
        """A side of a transfer: a player, or the bank."""
        if isinstance(value, str) and value.strip() in ("'bank'", '"bank"'):
            return [text("the bank")]
        return self.x(value)

    def quote(self, value: Any) -> Inlines:
        return [text("“" + " ".join(str(value).split()) + "”")]

    def ref(self, kind: str, name: Any) -> Inlines:
        """A link to a phase, procedure or event heading (a plain name otherwise)."""
        heads = {"phase": ("Phase", self.phases), "procedure": ("Procedure", self.procedures),
                 "event": ("Event", self.events)}
        if kind in heads and isinstance(name, str) and name in heads[kind][1]:
            return [link(name, slug(f"{heads[kind][0]}: {name}"))]
        return [code(plain(name))]

    def duration(self, value: Any) -> Inlines:
        return [text(" (it takes ")] + self.x(value) + [text(" seconds of modelled time)")]

    # -- steps -------------------------------------------------------------------------------
    def steps(self, steps: Any) -> ListBlock:
        items = [self.step(s) for s in (steps if isinstance(steps, list) else [])]
        return ListBlock(items, ordered=True)

    def step(self, step: Any) -> Item:
        name, fields = _parse_step(step)
        if name is None:
            return Item([text("A step: ")] + [code(plain(step))] + [text(".")])
        effect = fx.EFFECTS[name]
        fields = dict(fields)
        make = _SENTENCES.get(name)
        if make is None:
            inl, children = self.generic(effect, fields)
        else:
            inl, children = make(self, fields)
            # Fields the sentence left (a field added to the effect later) are still shown.
            extra, more = self.field_list(effect, fields)
            if extra:
                # Before the sentence's closing mark, so the sentence still ends with it.
                mark = ""
                if inl and inl[-1].kind == "text" and inl[-1].text[-1:] in (".", ":"):
                    mark = inl[-1].text[-1]
                    inl = inl[:-1] + ([text(inl[-1].text[:-1])] if inl[-1].text[:-1] else [])
                inl = inl + [text(" (")] + extra + [text(")" + mark)]
            children = children + more
        if len(inl) > 1 and inl[-1] == text(".") and inl[-2].text.endswith("”"):
            inl = inl[:-1]  # the quotation closes the sentence
        return Item(_capital(inl), children)

    def generic(self, effect: fx.Effect, fields: dict[str, Any]) -> tuple[Inlines, list[Block]]:
        """An effect without a sentence: its name and its fields, read by their kinds."""
        inl: Inlines = [strong(effect.name.replace("_", " ").capitalize())]
        primary = effect.primary
        if primary and primary in fields:
            spec = effect.fields[primary]
            if spec.kind not in (fx.STEPS, fx.OPTIONS):
                inl += [text(" ")] + self.field_value(spec, fields.pop(primary))
        rest, children = self.field_list(effect, fields)
        if rest:
            inl += [text(" (")] + rest + [text(")")]
        return inl + [text(":" if children else ".")], children

    def field_list(self, effect: fx.Effect, fields: dict[str, Any]) -> tuple[Inlines, list[Block]]:
        inl: Inlines = []
        children: list[Block] = []
        for fname, value in list(fields.items()):
            spec = effect.fields.get(fname) or fx.FieldSpec(fx.EXPR, "")
            label = fname.replace("_", " ")
            if spec.kind == fx.STEPS:
                children += [Para([text(label.capitalize() + ":")]), self.steps(value)]
            elif spec.kind == fx.OPTIONS:
                opts = self.options(value)
                if isinstance(opts, ListBlock):
                    children += [Para([text(label.capitalize() + ":")]), opts]
                else:
                    inl += ([text("; ")] if inl else []) + [text(label + " ")] + opts
            else:
                inl += ([text("; ")] if inl else []) + [text(label + " ")]
                inl += self.field_value(spec, value)
        return inl, children

    def field_value(self, spec: fx.FieldSpec, value: Any) -> Inlines:
        kind = spec.kind
        if kind == fx.TEMPLATE:
            return self.quote(value)
        if kind in (fx.ASSIGN, fx.ARGS) and isinstance(value, dict):
            return _joined([[code(str(k)), text(" = ")] + self.x(v) for k, v in value.items()])
        if kind == fx.REF:
            return self.ref(spec.ref or "", value)
        if kind == fx.LIMIT and isinstance(value, dict):
            return self.limit(value)
        if kind in (fx.BINDER, fx.DECISION, fx.INT, fx.BOOL, fx.TEXT):
            return [code(plain(value))]
        return self.x(value)

    def limit(self, value: Mapping[str, Any]) -> Inlines:
        times = value.get("times", 1)
        per = _PERIODS.get(str(value.get("per")), f"per {value.get('per')}")
        if times == 1:
            return [text(f"once {per}")]
        return [text("at most ")] + self.x(times) + [text(f" times {per}")]

    def options(self, value: Any) -> Inlines | ListBlock:
        """The options of a decision: names in words, an expression, or a list of options with
        their conditions, costs, limits and steps."""
        if isinstance(value, list):
            return _joined([[text(plain(v))] for v in value], "or")
        if not isinstance(value, dict):
            return [text("one of ")] + self.x(value)
        items = []
        for name, spec in value.items():
            spec = spec if isinstance(spec, dict) else {}
            inl: Inlines = [strong(str(name))]
            if spec.get("label") is not None:
                inl += [text(": ")] + self.quote(spec["label"])
            if spec.get("description"):
                inl += [text(" ")] + prose(spec["description"])
            notes: list[Inlines] = []
            if "if" in spec:
                notes.append([text("only when ")] + self.x(spec["if"]))
            if "cost" in spec:
                notes.append([text("costs ")] + self.x(spec["cost"])
                             + [text(" action point" + ("" if spec["cost"] == 1 else "s"))])
            if isinstance(spec.get("limit"), dict):
                notes.append(self.limit(spec["limit"]))
            if "duration" in spec:
                notes.append([text("takes ")] + self.x(spec["duration"])
                             + [text(" seconds of modelled time")])
            for k, v in spec.items():  # fields of options added to the registry later
                if k not in ("label", "description", "if", "cost", "limit", "duration", "do"):
                    notes.append([text(f"{k} ")] + self.x(v))
            if notes:
                inl += [text(" (")] + _joined(notes, ";") + [text(")")]
            do = spec.get("do")
            children: list[Block] = [self.steps(do)] if do else []
            if children:
                inl.append(text(":"))
            elif not inl[-1].text.endswith("”"):
                inl.append(text("."))
            items.append(Item(inl, children))
        return ListBlock(items)

    # -- sections ----------------------------------------------------------------------------
    def h(self, level: int, title: str) -> None:
        # Repeated headings get -1, -2... as on GitHub, so every anchor is unique.
        anchor = slug(title)
        n = self.seen.get(anchor, 0)
        self.seen[anchor] = n + 1
        self.blocks.append(Heading(level, title, f"{anchor}-{n}" if n else anchor))

    def p(self, inl: Inlines) -> None:
        if inl:
            self.blocks.append(Para(inl))

    def build(self) -> Book:
        meta = self.data.get("metadata") or {}
        title = str(meta.get("name", "A game"))
        self.h(1, title)
        self.front(meta)
        sections: list[tuple[str, Callable[[], bool]]] = [
            ("Players", self.players), ("Components", self.components_section),
            ("What players keep track of", self.state), ("Events", self.events_section),
            ("Setup", self.setup), ("How the game goes", self.flow), ("Procedures", self.procedures_section),
            ("Triggers", self.triggers), ("Checks", self.checks), ("The end", self.end),
            ("Scoring", self.scoring), ("Parameters", self.parameters),
            ("Variants", self.variants), ("Bots", self.policies),
            ("Assumptions", self.assumptions), ("Limits", self.limits),
        ]
        contents_at = len(self.blocks)
        present = []
        for title_, make in sections:
            mark = len(self.blocks)
            self.h(2, title_)
            if make():
                present.append(title_)
            else:
                del self.blocks[mark:]
        contents = ListBlock([Item([link(t, slug(t))]) for t in present])
        self.blocks[contents_at:contents_at] = [Para([strong("Contents")]), contents]
        return Book(title, self.blocks)

    def front(self, meta: Mapping[str, Any]) -> None:
        if meta.get("summary"):
            self.p(prose(meta["summary"]))
        notes: list[Inlines] = []
        if meta.get("version") is not None:
            notes.append([em("Version: "), text(plain(meta["version"]))])
        if meta.get("authors"):
            notes.append([em("By: "), text(", ".join(str(a) for a in meta["authors"]))])
        for key, label in (("source", "Source"), ("license", "License"),
                           ("encoded_by", "Encoded by")):
            if meta.get(key):
                notes.append([em(label + ": ")] + prose(meta[key]))
        if meta.get("tags"):
            notes.append([em("Tags: ")] + [text(", ".join(str(t) for t in meta["tags"]))])
        if notes:
            self.blocks.append(ListBlock([Item(n) for n in notes]))
        if self.variant is not None:
            vdoc = ((self.base.get("variants") or {}).get(self.variant) or {}).get("doc")
            self.p([text("This rulebook describes the variant "), strong(self.variant)]
                   + ([text(": ")] + prose(vdoc) if vdoc else [text(".")]))
        if self.sets:
            self.p([text("Parameters set for this game: ")]
                   + _joined([[code(k), text(" = ")] + [code(plain(self.params.get(k, v)))]
                              for k, v in self.sets.items()])
                   + [text(" (see "), link("Parameters", slug("Parameters")), text(").")])

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
            inl = [text("The players form teams: ")] + _joined([[strong(n)] for n in names])
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
            inl.append(text(f" ({_SOURCE_WORDS.get(spec['source'], spec['source'])})"))
        inl.append(text("."))
        if spec.get("doc"):
            inl += [text(" ")] + prose(spec["doc"])
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
            inl.append(text(f" ({_SOURCE_WORDS.get(spec['source'], spec['source'])})"))
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
                inl: Inlines = [strong(name), text(" (" + _TYPE_WORDS.get(
                    _type_of(spec), _type_of(spec)))]
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
            steps.append([text("Put ")] + _joined(what) + [text(" in ")] + self.thing(zone)
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

    def events_section(self) -> bool:
        if not self.events:
            return False
        self.p([text("Things that happen besides the built-in events, which rules can watch "
                     "(see the triggers).")])
        for name, spec in self.events.items():
            spec = spec or {}
            self.h(3, f"Event: {name}")
            if spec.get("doc"):
                self.p(prose(spec["doc"]))
            notes = []
            raised = spec.get("raised_by")
            if raised and raised != "rules":
                inl = [text(f"Raised by {_RAISED_BY.get(raised, raised)} at any time")]
                if spec.get("during") is not None:
                    inl += [text(" while ")] + self.x(spec["during"]) + [text(" holds")]
                notes.append(inl + [text(".")])
            else:
                notes.append([text("Raised only by the rules.")])
            if spec.get("fields"):
                notes.append([text("It carries ")]
                             + _joined([[code(f"event.{f}")] for f in spec["fields"]]) + [text(".")])
            if spec.get("hazard") is not None:
                notes.append([text("In simulation it happens with chance ")]
                             + self.x(spec["hazard"]) + [text(" per second.")])
            self.blocks.append(ListBlock([Item(n) for n in notes]))
        return True

    def flow(self) -> bool:
        flow = self.data.get("flow") or {}
        start = flow.get("start") or next(iter(self.phases), None)
        self.p([text("The game is played in phases, starting with ")] + self.ref("phase", start)
               + [text(". In a phase with turns, “the current player” is the player whose turn "
                       "it is.")])
        for name, spec in self.phases.items():
            self.phase(name, spec or {})
        return True

    def phase(self, name: str, spec: Mapping[str, Any]) -> None:
        self.h(3, f"Phase: {name}")
        if spec.get("description"):
            self.p(prose(spec["description"]))
        turns = spec.get("turns")
        rep = spec.get("repeat") or {}
        if turns is not None:
            turns = turns or {}
            if turns.get("by_team"):
                inl = [text("Turns go to the teams in turn; the team's leader plays it (the "
                            "current player)")]
            else:
                inl = [text("Each player takes a turn")]
            order = turns.get("order", "clockwise")
            if order == "by":
                inl += [text(", in order of ")] + self.x(turns.get("by")) + [text(" (lowest first)")]
            elif order == "counterclockwise":
                inl.append(text(", counterclockwise (against seat order)"))
            else:
                inl.append(text(", clockwise (in seat order)"))
            if turns.get("first") is not None:
                inl += [text(", starting with ")] + self.x(turns["first"])
            if turns.get("skip") is not None:
                inl += [text(", skipping a player when ")] + self.x(turns["skip"])
            inl.append(text(". Eliminated players are skipped. One pass of turns is a round."))
            self.p(inl)
        unit = "rounds" if turns is not None else "passes"
        if rep:
            if "times" in rep:
                inl = [text("The phase lasts ")] + self.x(rep["times"]) + [text(f" {unit}")]
            elif "until" in rep:
                inl = [text(f"{unit.capitalize()} go on until ")] + self.x(
                    rep["until"], "checked after every turn and every round" if turns is not None
                    else "checked after each pass")
            elif "while" in rep:
                inl = [text(f"{unit.capitalize()} go on while ")] + self.x(
                    rep["while"], "checked before each one")
            else:
                inl = [text(f"The phase repeats its {unit}")]
            if "max" in rep:
                inl += [text(", at most ")] + self.x(rep["max"])
            self.p(inl + [text(".")])
        elif turns is None:
            self.p([text("This phase is played once.")])
        if spec.get("on_begin"):
            self.p([text("When the phase begins:")])
            self.blocks.append(self.steps(spec["on_begin"]))
        if spec.get("do"):
            self.p([text("On each turn:" if turns is not None else "Steps:")])
            self.blocks.append(self.steps(spec["do"]))
        if spec.get("on_end"):
            self.p([text("When the phase ends:")])
            self.blocks.append(self.steps(spec["on_end"]))
        self.p(self.next(spec.get("next", "end")))

    def next(self, nxt: Any) -> Inlines:
        def to(target: Any) -> Inlines:
            if target == "end":
                return [text("the game ends")]
            return [text("go to ")] + self.ref("phase", target)
        if not isinstance(nxt, list):
            return [text("Then ")] + to(nxt) + [text(".")]
        parts: list[Inlines] = []
        for entry in nxt:
            entry = entry if isinstance(entry, dict) else {}
            if "if" in entry:
                parts.append([text("if ")] + self.x(entry["if"]) + [text(", ")] + to(entry.get("to")))
            else:
                parts.append([text("otherwise ")] + to(entry.get("to")))
                break
        else:
            parts.append([text("otherwise the game ends")])
        return [text("Then: ")] + _joined(parts, ";") + [text(".")]

    def procedures_section(self) -> bool:
        if not self.procedures:
            return False
        self.p([text("Step lists the rules carry out by name (“carry out …”).")])
        for name, spec in self.procedures.items():
            spec = spec or {}
            self.h(3, f"Procedure: {name}")
            if spec.get("doc"):
                self.p(prose(spec["doc"]))
            params = spec.get("params") or {}
            if params:
                self.p([text("It is given: ")]
                       + _joined([[code(str(k))] + ([text(" (")] + prose(v) + [text(")")]
                                                    if v else []) for k, v in params.items()])
                       + [text(".")])
            self.blocks.append(self.steps(spec.get("do")))
        return True

    def triggers(self) -> bool:
        triggers = self.data.get("triggers") or {}
        if not triggers:
            return False
        self.p([text("These rules apply on their own whenever their event happens and their "
                     "condition holds. Of the triggers watching one event, the higher priority "
                     "goes first (equal ones in the order below); of the triggers that share a "
                     "group, only the first whose condition holds fires.")])
        for name, spec in triggers.items():
            spec = spec or {}
            self.h(3, f"Trigger: {name}")
            if spec.get("doc"):
                self.p(prose(spec["doc"]))
            order: list[Inlines] = []
            if spec.get("group") is not None:
                order.append([text("In the group "), code(str(spec["group"]))])
            if spec.get("priority") is not None or spec.get("group") is not None:
                order.append([text(f"priority {plain(spec.get('priority', 0))}")])
            if order:
                self.p(_capital(_joined(order, ",")) + [text(".")])
            on = spec.get("on")
            inl = ([text(_EVENTS[on])] if on in _EVENTS else
                   [text("When ")] + self.ref("event", on) + [text(" happens")])
            if spec.get("if") is not None:
                inl += [text(", if ")] + self.x(spec["if"])
            self.p(inl + [text(":")])
            self.blocks.append(self.steps(spec.get("do")))
        return True

    def checks(self) -> bool:
        checks = self.data.get("checks") or {}
        if not checks:
            return False
        self.p([text("These conditions are looked at after everything that happens; whenever "
                     "one holds, its steps are carried out at once.")])
        for name, spec in checks.items():
            spec = spec or {}
            self.h(3, f"Check: {name}")
            if spec.get("doc"):
                self.p(prose(spec["doc"]))
            each = spec.get("for_each")
            inl = ([text(f"For each {each} still in the game, whenever ")] if each
                   else [text("Whenever ")])
            self.p(inl + self.x(spec.get("when")) + [text(":")])
            self.blocks.append(self.steps(spec.get("do")))
        return True

    def end(self) -> bool:
        end = self.data.get("end") or {}
        ways: list[Inlines] = []
        if end.get("doc"):
            self.p(prose(end["doc"]))
        if end.get("when") is not None:
            ways.append([text("as soon as ")]
                        + self.x(end["when"], "looked at after everything that happens"))
        last = [n for n, s in self.phases.items() if self._ends_after(s or {})]
        if last:
            ways.append([text("when the flow ends after the phase ")]
                        + _joined([self.ref("phase", n) for n in last], "or"))
        at_once = [where for where, steps in self._all_step_lists()
                   if any(n in ("end_game",) or (n == "goto" and f.get("phase") == "end")
                          for n, f in walk_steps(steps))]
        if at_once:
            ways.append([text("when a rule ends it at once (in ")]
                        + _joined([[text(w)] for w in dict.fromkeys(at_once)]) + [text(")")])
        self.p([text("The game ends:")])
        self.blocks.append(ListBlock([Item(w + [text(".")]) for w in ways]))
        return True

    def _ends_after(self, spec: Mapping[str, Any]) -> bool:
        nxt = spec.get("next", "end")
        if not isinstance(nxt, list):
            return nxt == "end"
        return any(isinstance(e, dict) and e.get("to") == "end" for e in nxt) or all(
            isinstance(e, dict) and "if" in e for e in nxt)

    def _all_step_lists(self) -> Iterator[tuple[str, Any]]:
        for name, spec in self.phases.items():
            for key in ("on_begin", "do", "on_end"):
                yield f"the phase {name}", (spec or {}).get(key)
        for kind, section in (("procedure", self.procedures),
                              ("trigger", self.data.get("triggers") or {}),
                              ("check", self.data.get("checks") or {})):
            for name, spec in section.items():
                yield f"the {kind} {name}", (spec or {}).get("do")

    def scoring(self) -> bool:
        sc = self.data.get("scoring") or {}
        if not sc:
            return False
        if sc.get("doc"):
            self.p(prose(sc["doc"]))
        items: list[Inlines] = []
        if sc.get("winners") is not None:
            items.append([text("The winners are ")] + self.x(sc["winners"])
                         + [text("; the score below only ranks the players." if "score" in sc
                                 else ".")])
        if sc.get("score") is not None:
            order = sc.get("order", "highest")
            verdict = "wins" if "winners" not in sc else "ranks first"
            items.append([text("A player's score is ")] + self.x(sc["score"])
                         + [text(f"; the {order} score {verdict}.")])
        if sc.get("eligible") is not None:
            items.append([text("Only a player for whom ")] + self.x(sc["eligible"])
                         + [text(" holds can win (if nobody does, everyone can).")])
        listed = [Item(i) for i in items]
        if sc.get("tie_break"):
            better = "lower" if sc.get("order") == "lowest" else "higher"
            listed.append(Item([text(f"Ties are broken by these, in turn ({better} is better):")],
                               [ListBlock([Item(self.x(e)) for e in sc["tie_break"]], True)]))
        ties = sc.get("ties", "shared")
        if "winners" not in sc:
            listed.append(Item([text("Players still tied share the win." if ties == "shared"
                                     else "Players still tied: nobody wins (a draw).")]))
        self.blocks.append(ListBlock(listed))
        return True

    def parameters(self) -> bool:
        params = self.data.get("parameters") or {}
        if not params:
            return False
        self.p([text("Numbers and choices a table may change: "), code("--set NAME=VALUE"),
                text(" on the command line, or a variant. The value in play comes first.")])
        base_params = self.base.get("parameters") or {}
        items = []
        for name, spec in params.items():
            spec = spec or {}
            value = self.params.get(name, spec.get("default"))
            default = (base_params.get(name) or spec).get("default")
            inl: Inlines = [strong(name), text(" = "), code(plain(value))]
            how: list[Inlines] = []
            if name in self.sets:
                how.append([text("changed with "), code("--set")])
            if self.variant is not None and spec.get("default") != default:
                how.append([text("set by the variant "), strong(self.variant)])
            if how:
                inl += [text(" (")] + _joined(how, "and") + [text("; default "), code(plain(default)),
                                                             text(")")]
            else:
                inl.append(text(" (the default)"))
            inl.append(text(": "))
            inl += prose(spec.get("doc", ""))
            allowed = self.allowed(spec)
            if allowed:
                inl += [text(" " + allowed + ".")]
            if spec.get("source"):
                inl.append(text(f" Source: {_SOURCE_WORDS.get(spec['source'], spec['source'])}."))
            items.append(Item(inl))
        self.blocks.append(ListBlock(items))
        return True

    def allowed(self, spec: Mapping[str, Any]) -> str:
        kind = _type_of(spec)
        if kind == "choice":
            return "One of " + ", ".join(plain(c) for c in spec.get("choices") or [])
        words = _TYPE_WORDS.get(kind, kind).capitalize()
        lo, hi = spec.get("min"), spec.get("max")
        if lo is not None and hi is not None:
            return f"{words} from {plain(lo)} to {plain(hi)}"
        if lo is not None:
            return f"{words}, at least {plain(lo)}"
        if hi is not None:
            return f"{words}, at most {plain(hi)}"
        return words

    def variants(self) -> bool:
        variants = self.base.get("variants") or {}
        if not variants:
            return False
        self.p([text("Variants of these rules; "), code("--variant NAME"), text(" plays one.")])
        items = []
        for name, spec in variants.items():
            spec = spec or {}
            inl: Inlines = [strong(name)]
            if name == self.variant:
                inl.append(text(" (this rulebook describes it)"))
            inl.append(text(": "))
            if spec.get("doc"):
                inl += prose(spec["doc"])
            sets = spec.get("set") or {}
            if sets:
                inl += [text(" It sets ")] + _joined(
                    [[code(str(k)), text(" = "), code(plain(v))] for k, v in sets.items()]
                ) + [text(".")]
            changes = list(_flatten(spec["merge"])) if spec.get("merge") else []
            if changes:
                inl += [text(" It changes ")] + _joined(
                    [[code(path), text(" to "), code(plain(v))] for path, v in changes]
                ) + [text(".")]
            items.append(Item(inl))
        self.blocks.append(ListBlock(items))
        return True

    def policies(self) -> bool:
        policies = self.data.get("policies") or {}
        if not policies:
            return False
        self.p([text("Bots that can take the empty seats (written as data in the ruleset).")])
        items = []
        for name, spec in policies.items():
            spec = spec or {}
            inl: Inlines = [strong(name)]
            if spec.get("default"):
                inl.append(text(" (the default bot)"))
            inl.append(text(": "))
            inl += prose(spec.get("doc", ""))
            decides = list((spec.get("decide") or {}).keys())
            if decides:
                inl += [text(" It decides ")] + _joined([[code(d)] for d in decides]) + [text(".")]
            items.append(Item(inl))
        self.blocks.append(ListBlock(items))
        return True

    def assumptions(self) -> bool:
        assumptions = self.data.get("assumptions") or []
        if not assumptions:
            return False
        self.p([text("Where the rule text is silent or unclear, this ruleset decides as follows.")])
        items = []
        for a in assumptions:
            a = a if isinstance(a, dict) else {"text": a}
            inl: Inlines = [strong(str(a["id"]))] if a.get("id") else []
            if a.get("source"):
                inl.append(text(f" ({_SOURCE_WORDS.get(a['source'], a['source'])})"))
            if inl:
                inl.append(text(": "))
            inl += prose(a.get("text", ""))
            if a.get("parameter"):
                inl += [text(" A table may choose otherwise with the parameter "),
                        code(str(a["parameter"])), text(".")]
            items.append(Item(inl))
        self.blocks.append(ListBlock(items))
        return True

    def limits(self) -> bool:
        limits = self.data.get("limits") or {}
        if not limits:
            return False
        words = {"max_steps": "steps in one game", "max_turns": "turns in one game",
                 "max_loop": "passes of one loop", "max_chain_depth": "triggers firing triggers"}
        self.p([text("Safety budgets: a game that goes past one stops with an error. At most ")]
               + _joined([[text(f"{plain(v)} {words.get(k, k)}")] for k, v in limits.items()])
               + [text(".")])
        return True


def _flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """A variant's overlay as dotted paths and the values they get."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            yield from _flatten(v, f"{prefix}.{k}" if prefix else str(k))
    else:
        yield prefix, value


# -- the sentences of the effects ----------------------------------------------------------------

@sentence("set")
def _set(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    values = f.pop("values", {}) or {}
    parts = [[code(str(k)), text(" to ")] + b.x(v) for k, v in values.items()]
    return [text("set ")] + _joined(parts) + [text(".")], []


@sentence("add")
def _add(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    parts = []
    for k, v in (f.pop("values", {}) or {}).items():
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v < 0:
            parts.append([text("subtract "), code(plain(-v)), text(" from "), code(str(k))])
        elif isinstance(v, str) and re.fullmatch(r"-\s*[A-Za-z_][\w.]*", v.strip()):
            parts.append([text("subtract ")] + b.x(v.strip()[1:].strip())
                         + [text(" from "), code(str(k))])
        else:
            parts.append([text("add ")] + b.x(v) + [text(" to "), code(str(k))])
    inl = _joined(parts)
    bounds = []
    if "min" in f:
        bounds.append([text("at least ")] + b.x(f.pop("min")))
    if "max" in f:
        bounds.append([text("at most ")] + b.x(f.pop("max")))
    if bounds:
        inl += [text(" (the result is ")] + _joined(bounds) + [text(")")]
    return inl + [text(".")], []


@sentence("let")
def _let(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("let "), code(plain(f.pop("name", None))), text(" be ")] + b.x(f.pop("be", None)) \
        + [text(".")], []


@sentence("transfer")
def _transfer(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("move ")] + b.x(f.pop("amount", None)) + [text(" of "), code(str(f.pop("of", "")))]
    inl += [text(" from ")] + b.party(f.pop("from", None)) + [text(" to ")] + b.party(f.pop("to", None))
    return inl + [text(" (never more than the giver has).")], []


@sentence("eliminate")
def _eliminate(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    return b.x(f.pop("player", None)) + [text(" is eliminated and takes no more turns.")], []


@sentence("roll")
def _roll(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("roll ")] + b.things(f.pop("dice", None))
    if "duration" in f:
        inl += b.duration(f.pop("duration"))
    return inl + [text(".")], []


@sentence("draw")
def _draw(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    zone = f.pop("from", None)
    kind = (b.zones.get(zone) or {}).get("kind") if isinstance(zone, str) else None
    inl: Inlines = [text("draw ")]
    if "count" in f:
        inl += b.x(f.pop("count"))
    else:
        inl.append(text("one"))
    inl.append(text(" from the top of " if kind in ("deck", "row") else " at random from "))
    inl += b.thing(zone) + [text(", called ")] + [code(plain(f.pop("as", None)))]
    if "to" in f:
        inl += [text(", into ")] + b.thing(f.pop("to"))
    if f.pop("replace", False):
        inl.append(text(" (with replacement: what is drawn stays in the zone)"))
    if "duration" in f:
        inl += b.duration(f.pop("duration"))
    return inl + [text(".")], []


@sentence("move")
def _move(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    items = b.x(f.pop("items", None))
    if b.place(f.get("to")) == [text("out of the game")]:
        f.pop("to")
        return [text("remove ")] + items + [text(" from the game.")], []
    inl = [text("move ")] + items
    at = f.pop("at", None)
    inl.append(text(" to the start of " if at == "start" else " to "))
    return inl + b.place(f.pop("to", None)) + [text(".")], []


@sentence("shuffle")
def _shuffle(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("shuffle ")] + b.thing(f.pop("zone", None)) + [text(".")], []


@sentence("deal")
def _deal(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("deal ")] + (b.x(f.pop("count")) if "count" in f else [text("one")])
    inl += [text(" from the top of ")] + b.thing(f.pop("from", None)) + [text(" to ")]
    return inl + b.thing(f.pop("to", None)) + [text(", one at a time.")], []


@sentence("reveal")
def _reveal(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("reveal ")] + b.x(f.pop("items", None))
    if "to" in f:
        return inl + [text(" to ")] + b.x(f.pop("to")) + [text(".")], []
    return inl + [text(" to everyone.")], []


@sentence("choose")
def _choose(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    did = plain(f.pop("id", None))
    by = f.pop("by", None)
    sealed = f.pop("sealed", False)
    if sealed and by not in (None, "current", "players"):
        inl = [text("each of ")] + b.x(by) + [text(" chooses")]
    else:
        inl = b.who(by) + [text(" chooses")]
    if sealed:
        inl.append(text(", in secret (the choices are revealed together),"))
    options = f.pop("options", None)
    children: list[Block] = []
    lo, hi = f.pop("min", None), f.pop("max", None)
    if options is None:
        inl.append(text(" a number"))
        if lo is not None and hi is not None:
            inl += [text(" from ")] + b.x(lo) + [text(" to ")] + b.x(hi)
        elif lo is not None:
            inl += [text(", at least ")] + b.x(lo)
        elif hi is not None:
            inl += [text(", at most ")] + b.x(hi)
    else:
        opts = b.options(options)
        if isinstance(opts, ListBlock):
            inl.append(text(" one of the options below"))
            children.append(opts)
        else:
            inl += [text(" ")] + opts
    inl += [text(" ("), code(did)]
    if "prompt" in f:
        inl += [text("; asked ")] + b.quote(f.pop("prompt"))
    inl.append(text(")"))
    if f.get("before"):
        inl += [text(", before ")] + prose(f.pop("before"))
    if "duration" in f:
        inl += b.duration(f.pop("duration"))
    return inl + [text(":" if children else ".")], children


@sentence("actions")
def _actions(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    did = plain(f.pop("id", None))
    inl = b.who(f.pop("by", None)) + [text(" spends ")] + b.x(f.pop("points", None))
    inl.append(text(" action points on the actions below, one at a time ("))
    inl += [code(did)]
    if "prompt" in f:
        inl += [text("; asked ")] + b.quote(f.pop("prompt"))
    allow_pass = f.pop("pass", True)
    inl.append(text("), until the points are spent or no action is possible"
                    + (", or they pass" if allow_pass is not False else "")))
    opts = b.options(f.pop("options", {}))
    children: list[Block] = [opts] if isinstance(opts, ListBlock) else []
    return inl + [text(":")], children


@sentence("race")
def _race(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    did = plain(f.pop("id", None))
    by = f.pop("by", None)
    racers = [text("all players")] if by == "players" else b.x(by)
    inl = [text("a race ("), code(did), text(") among ")] + racers
    inl += [text(": they grab at once from ")] + b.thing(f.pop("items", None))
    if "wanted" in f:
        inl += [text(", each going for what they want (")] + b.x(f.pop("wanted")) + [text(")")]
    if "capacity" in f:
        inl += [text(", holding at most ")] + b.x(f.pop("capacity")) + [text(" each")]
    inl += [text(". Afterwards "), code(did), text(" tells what each racer claimed")]
    model = []
    if "latency" in f:
        model.append([text("starts after ")] + b.x(f.pop("latency")) + [text(" seconds")])
    if "rate" in f:
        model.append([text("makes ")] + b.x(f.pop("rate")) + [text(" claims per second")])
    if "error_rate" in f:
        model.append([text("takes a wrong item with chance ")] + b.x(f.pop("error_rate")))
    if "model_capacity" in f:
        model.append([text("holds at most ")] + b.x(f.pop("model_capacity")) + [text(" items")])
    if model:
        inl += [text(". In simulation a racer ")] + _joined(model)
    return inl + [text(".")], []


def _if_branches(b: _Builder, f: dict) -> list[Block]:
    """The steps of `then`, and `else` as “Otherwise” (an `else` holding a single `if` reads as
    “Otherwise, if …”, so chains of conditions stay flat)."""
    blocks: list[Block] = [b.steps(f.pop("then", None))]
    rest = f.pop("else", None)
    while rest:
        name, inner = _parse_step(rest[0]) if isinstance(rest, list) and len(rest) == 1 else (None, {})
        if name == "if" and set(inner) <= {"condition", "then", "else"}:
            blocks += [Para([text("Otherwise, if ")] + b.x(inner.get("condition")) + [text(":")]),
                       b.steps(inner.get("then"))]
            rest = inner.get("else")
        else:
            blocks += [Para([text("Otherwise:")]), b.steps(rest)]
            rest = None
    return blocks


@sentence("if")
def _if(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("if ")] + b.x(f.pop("condition", None))
    then = f.get("then")
    if isinstance(then, list) and len(then) == 1 and not f.get("else"):
        one = b.step(then[0])
        if not one.children:  # a single plain step reads on one line
            f.pop("then")
            return inl + [text(": ")] + _lower(one.inlines), []
    return inl + [text(":")], _if_branches(b, f)


@sentence("repeat")
def _repeat(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    if "times" in f:
        inl = [text("repeat ")] + b.x(f.pop("times")) + [text(" times")]
    elif "while" in f:
        inl = [text("while ")] + b.x(f.pop("while")) + [text(" holds, repeat")]
    else:
        inl = [text("repeat")]
    if "until" in f:
        inl += [text(" until ")] + b.x(f.pop("until"), "checked after each pass")
    if "max" in f:
        inl += [text(", at most ")] + b.x(f.pop("max")) + [text(" times")]
    return inl + [text(":")], [b.steps(f.pop("do", None))]


@sentence("for_each")
def _for_each(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("for each "), code(plain(f.pop("name", None))), text(" in ")] + b.thing(f.pop("in", None))
    return inl + [text(":")], [b.steps(f.pop("do", None))]


@sentence("call")
def _call(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("carry out ")] + b.ref("procedure", f.pop("procedure", None))
    args = f.pop("with", None) or {}
    if args:
        inl += [text(" with ")] + _joined([[code(str(k)), text(" = ")] + b.x(v)
                                           for k, v in args.items()])
    return inl + [text(".")], []


@sentence("emit")
def _emit(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("the event ")] + b.ref("event", f.pop("event", None)) + [text(" happens")]
    args = f.pop("with", None) or {}
    if args:
        inl += [text(" with ")] + _joined([[code(str(k)), text(" = ")] + b.x(v)
                                           for k, v in args.items()])
    return inl + [text(".")], []


@sentence("break")
def _break(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("stop repeating (leave the innermost loop).")], []


@sentence("end_turn")
def _end_turn(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("the turn ends at once.")], []


@sentence("end_phase")
def _end_phase(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("the phase ends at once.")], []


@sentence("end_game")
def _end_game(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("the game ends at once")]
    if "reason" in f:
        inl += [text(": ")] + b.quote(f.pop("reason"))
    if "winners" in f:
        inl += [text("; the winners are ")] + b.x(f.pop("winners"))
    return inl + [text(".")], []


@sentence("goto")
def _goto(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    phase = f.pop("phase", None)
    if phase == "end":
        return [text("the game ends at once.")], []
    return [text("the phase ends; go to ")] + b.ref("phase", phase) + [text(".")], []


@sentence("start_timer")
def _start_timer(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    inl = [text("start the timer ")] + b.thing(f.pop("timer", None)) + [text(" at ")]
    return inl + b.x(f.pop("seconds", None)) + [text(" seconds.")], []


@sentence("stop_timer")
def _stop_timer(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("stop the timer ")] + b.thing(f.pop("timer", None)) + [text(".")], []


@sentence("wait")
def _wait(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    return [text("wait ")] + b.x(f.pop("seconds", None)) + [text(" seconds.")], []


@sentence("say")
def _say(b: _Builder, f: dict) -> tuple[Inlines, list[Block]]:
    line = b.quote(f.pop("text", ""))
    if "to" in f:
        return [text("tell ")] + b.x(f.pop("to")) + [text(" privately: ")] + line, []
    return [text("announce: ")] + line, []


# -- the public face -----------------------------------------------------------------------------

def build(program: Program, *, base: Mapping[str, Any] | None = None, variant: str | None = None,
          sets: Mapping[str, Any] | None = None) -> Book:
    """The rulebook of a compiled ruleset. `base` is the ruleset's data before the variant was
    applied (its defaults and its list of variants); `sets` the parameters set with `--set`."""
    return _Builder(program, base, variant, sets).build()


def to_markdown(book: Book) -> str:
    return "\n".join(_md_blocks(book.blocks)) + "\n"


def to_html(book: Book) -> str:
    body = "\n".join(_html_block(b) for b in book.blocks)
    return (f"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
            f"<title>{html.escape(book.title)}: rulebook</title>\n<style>\n{_CSS}</style>\n"
            f"</head>\n<body>\n<main>\n{body}\n</main>\n</body>\n</html>\n")


def render(program: Program, fmt: str = "markdown", **kw: Any) -> str:
    book = build(program, **kw)
    return to_html(book) if fmt == "html" else to_markdown(book)


# -- Markdown ----------------------------------------------------------------------------------

def _md_text(s: str) -> str:
    s = s.replace("\\", "\\\\").replace("*", "\\*").replace("`", "\\`")
    s = re.sub(r"\[|\]", lambda m: "\\" + m.group(0), s)
    s = re.sub(r"(?<!\w)_|_(?!\w)", r"\\_", s)            # intraword _ stays as it is
    s = re.sub(r"<(?=[A-Za-z/!?])", r"\\<", s)            # never the start of an HTML tag
    return re.sub(r"&(?=#|\w+;)", "&amp;", s)           # text, never an entity


def _md_code(s: str) -> str:
    s = " ".join(s.split())
    longest = max((len(m) for m in re.findall(r"`+", s)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if s.startswith("`") or s.endswith("`") or longest else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def _md_inlines(inl: Inlines) -> str:
    out = []
    for s in inl:
        if s.kind == "code":
            out.append(_md_code(s.text))
        elif s.kind == "strong":
            out.append(f"**{_md_text(s.text)}**")
        elif s.kind == "em":
            out.append(f"*{_md_text(s.text.rstrip())}*" + (" " if s.text.endswith(" ") else ""))
        elif s.kind == "link":
            out.append(f"[{_md_text(s.text)}](#{s.target})")
        else:
            out.append(_md_text(s.text))
    line = "".join(out)
    # A line must not start a block of its own (a heading, a quote, a list item).
    return re.sub(r"^(\s*)([#>+=-]|\d+[.)])", r"\1\\\2", line)


def _md_blocks(blocks: list[Block]) -> list[str]:
    out: list[str] = []
    for blk in blocks:
        if out:
            out.append("")
        out += _md_block(blk)
    return out


def _md_block(blk: Block) -> list[str]:
    if isinstance(blk, Heading):
        return ["#" * blk.level + " " + _md_text(blk.text)]
    if isinstance(blk, Para):
        return [_md_inlines(blk.inlines)]
    if isinstance(blk, Table):
        def row(cells: list[Inlines]) -> str:
            return "| " + " | ".join(_md_inlines(c).replace("|", "\\|") for c in cells) + " |"
        return [row(blk.header), "|" + "---|" * len(blk.header)] + [row(r) for r in blk.rows]
    lines: list[str] = []
    for i, item in enumerate(blk.items, 1):
        marker = f"{i}. " if blk.ordered else "- "
        pad = " " * len(marker)
        lines.append(marker + _md_inlines(item.inlines))
        prev: Block | None = None
        for child in item.children:
            # A paragraph after a nested list needs a blank line, or it would continue the
            # list's last item; lists right under the item's line keep the list tight.
            if prev is not None:
                lines.append("")
            lines += [pad + ln if ln else "" for ln in _md_block(child)]
            prev = child
    return lines


# -- HTML --------------------------------------------------------------------------------------

_CSS = """body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #222; }
main { max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
h1, h2, h3 { line-height: 1.2; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: .2rem; margin-top: 2.2rem; }
code { background: #f3f3f3; padding: 0 .2em; border-radius: 3px; font-size: .92em; }
table { border-collapse: collapse; margin: 1rem 0; }
th, td { border: 1px solid #ddd; padding: .2rem .5rem; text-align: left; vertical-align: top; }
li > p { margin: .3rem 0; }
"""


def _html_inlines(inl: Inlines) -> str:
    out = []
    for s in inl:
        t = html.escape(s.text)
        if s.kind == "code":
            out.append(f"<code>{html.escape(' '.join(s.text.split()))}</code>")
        elif s.kind == "strong":
            out.append(f"<strong>{t}</strong>")
        elif s.kind == "em":
            out.append(f"<em>{t}</em>")
        elif s.kind == "link":
            out.append(f"<a href=\"#{html.escape(s.target)}\">{t}</a>")
        else:
            out.append(t)
    return "".join(out)


def _html_block(blk: Block) -> str:
    if isinstance(blk, Heading):
        return (f"<h{blk.level} id=\"{html.escape(blk.anchor)}\">{html.escape(blk.text)}"
                f"</h{blk.level}>")
    if isinstance(blk, Para):
        return f"<p>{_html_inlines(blk.inlines)}</p>"
    if isinstance(blk, Table):
        head = "".join(f"<th>{_html_inlines(c)}</th>" for c in blk.header)
        rows = "\n".join("<tr>" + "".join(f"<td>{_html_inlines(c)}</td>" for c in r) + "</tr>"
                         for r in blk.rows)
        return f"<table>\n<thead><tr>{head}</tr></thead>\n<tbody>\n{rows}\n</tbody>\n</table>"
    tag = "ol" if blk.ordered else "ul"
    items = []
    for item in blk.items:
        inner = "\n".join(_html_block(c) for c in item.children)
        items.append(f"<li>{_html_inlines(item.inlines)}" + (f"\n{inner}\n" if inner else "")
                     + "</li>")
    return f"<{tag}>\n" + "\n".join(items) + f"\n</{tag}>"
