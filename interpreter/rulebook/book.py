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

This module puts the sections in order, with a list of contents; the work is in modules named
for what they hold: the document and its renderings (rulebook_document), values and
expressions as inline text (rulebook_phrases), step lists (rulebook_steps) with one sentence
per effect (rulebook_sentences), and the sections (rulebook_pieces, rulebook_play,
rulebook_options).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from interpreter.engine.program import Program
from interpreter.rulebook.document import (
    Book,
    Item,
    ListBlock,
    Para,
    link,
    slug,
    strong,
    to_html,
    to_markdown,
)
from interpreter.rulebook.options import OptionSections
from interpreter.rulebook.pieces import PieceSections
from interpreter.rulebook.play import PlaySections

__all__ = ["Book", "build", "render", "to_html", "to_markdown"]


class _Builder(PieceSections, PlaySections, OptionSections):
    """Every section, in the order a new player reads them."""

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


def build(program: Program, *, base: Mapping[str, Any] | None = None, variant: str | None = None,
          sets: Mapping[str, Any] | None = None) -> Book:
    """The rulebook of a compiled ruleset. `base` is the ruleset's data before the variant was
    applied (its defaults and its list of variants); `sets` the parameters set with `--set`."""
    return _Builder(program, base, variant, sets).build()


def render(program: Program, fmt: str = "markdown", **kw: Any) -> str:
    book = build(program, **kw)
    return to_html(book) if fmt == "html" else to_markdown(book)
