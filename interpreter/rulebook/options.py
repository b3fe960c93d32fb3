"""The rulebook's front matter and its sections on what a table may choose or should know.

Phase: docs. Input: the checked ruleset's metadata, parameters, policies, assumptions and
limits; the base ruleset's variants and defaults; the variant's name and the `--set` values.
Output: `OptionSections`, which writes the front matter (summary, version, authors..., the
variant and the `--set` values this rulebook describes) and the sections Parameters (the value
in play, how it was set, the default, what is allowed), Variants, Bots, Assumptions and Limits.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from interpreter.rulebook.document import (
    Inlines,
    Item,
    ListBlock,
    code,
    em,
    joined,
    link,
    prose,
    slug,
    strong,
    text,
)
from interpreter.rulebook.phrases import SOURCE_WORDS, TYPE_WORDS, plain, type_of
from interpreter.rulebook.steps import StepWriter


class OptionSections(StepWriter):
    """The front matter, Parameters, Variants, Bots, Assumptions, Limits."""

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
                   + joined([[code(k), text(" = ")] + [code(plain(self.params.get(k, v)))]
                             for k, v in self.sets.items()])
                   + [text(" (see "), link("Parameters", slug("Parameters")), text(").")])

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
                inl += [text(" (")] + joined(how, "and") + [text("; default "), code(plain(default)),
                                                            text(")")]
            else:
                inl.append(text(" (the default)"))
            inl.append(text(": "))
            inl += prose(spec.get("doc", ""))
            allowed = self.allowed(spec)
            if allowed:
                inl += [text(" " + allowed + ".")]
            if spec.get("source"):
                inl.append(text(f" Source: {SOURCE_WORDS.get(spec['source'], spec['source'])}."))
            items.append(Item(inl))
        self.blocks.append(ListBlock(items))
        return True

    def allowed(self, spec: Mapping[str, Any]) -> str:
        kind = type_of(spec)
        if kind == "choice":
            return "One of " + ", ".join(plain(c) for c in spec.get("choices") or [])
        words = TYPE_WORDS.get(kind, kind).capitalize()
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
                inl += [text(" It sets ")] + joined(
                    [[code(str(k)), text(" = "), code(plain(v))] for k, v in sets.items()]
                ) + [text(".")]
            changes = list(_flatten(spec["merge"])) if spec.get("merge") else []
            if changes:
                inl += [text(" It changes ")] + joined(
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
            if spec.get("extends"):
                inl += [text(" It starts from "), strong(str(spec["extends"])),
                        text(" and replaces what it decides itself.")]
            decides = list((spec.get("decide") or {}).keys())
            if decides:
                inl += [text(" It decides ")] + joined([[code(d)] for d in decides]) + [text(".")]
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
                inl.append(text(f" ({SOURCE_WORDS.get(a['source'], a['source'])})"))
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
               + joined([[text(f"{plain(v)} {words.get(k, k)}")] for k, v in limits.items()])
               + [text(".")])
        return True


def _flatten(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """A variant's overlay as dotted paths and the values they get."""
    if isinstance(value, dict) and value:
        for k, v in value.items():
            yield from _flatten(v, f"{prefix}.{k}" if prefix else str(k))
    else:
        yield prefix, value
