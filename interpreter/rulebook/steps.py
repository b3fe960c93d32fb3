"""The rulebook's steps: a step list as a numbered list, one sentence per step.

Phase: docs. Input: a step list of the checked ruleset (a phase's, a procedure's, a trigger's,
a check's, or one nested in another step). Output: `StepWriter`, whose `steps` gives a numbered
list: each step in the sentence its effect registers (interpreter/rulebook/sentences.py), with
any field that sentence does not use listed after it, and an effect without a sentence (one
added later) written from its fields by their kinds (dsl/effects.py); also a decision's
options, with their conditions, costs, limits and steps.
"""

from __future__ import annotations

from typing import Any

from dsl import effects as fx
from interpreter.rulebook.document import (
    Block,
    Inlines,
    Item,
    ListBlock,
    Para,
    capital,
    code,
    joined,
    prose,
    strong,
    text,
)
from interpreter.rulebook.phrases import Phrases, parse_step, plain
from interpreter.rulebook.sentences import SENTENCES


class StepWriter(Phrases):
    """Step lists and decisions' options in words."""

    def steps(self, steps: Any) -> ListBlock:
        items = [self.step(s) for s in (steps if isinstance(steps, list) else [])]
        return ListBlock(items, ordered=True)

    def step(self, step: Any) -> Item:
        name, fields = parse_step(step)
        if name is None:
            return Item([text("A step: ")] + [code(plain(step))] + [text(".")])
        effect = fx.EFFECTS[name]
        fields = dict(fields)
        make = SENTENCES.get(name)
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
        return Item(capital(inl), children)

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
            return joined([[code(str(k)), text(" = ")] + self.x(v) for k, v in value.items()])
        if kind == fx.REF:
            return self.ref(spec.ref or "", value)
        if kind == fx.LIMIT and isinstance(value, dict):
            return self.limit(value)
        if kind in (fx.BINDER, fx.DECISION, fx.INT, fx.BOOL, fx.TEXT):
            return [code(plain(value))]
        return self.x(value)

    def options(self, value: Any) -> Inlines | ListBlock:
        """The options of a decision: names in words, an expression, or a list of options with
        their conditions, costs, limits and steps."""
        if isinstance(value, list):
            return joined([[text(plain(v))] for v in value], "or")
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
                inl += [text(" (")] + joined(notes, ";") + [text(")")]
            do = spec.get("do")
            children: list[Block] = [self.steps(do)] if do else []
            if children:
                inl.append(text(":"))
            elif not inl[-1].text.endswith("”"):
                inl.append(text("."))
            items.append(Item(inl, children))
        return ListBlock(items)
