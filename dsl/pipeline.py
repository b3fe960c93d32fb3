"""The pipeline up to check: load -> structure -> parse and check (with every variant).

Input: a ruleset path or text. Output: `Validation` (the document, its symbols and every
diagnostic, sorted by position). Each phase reports all of its findings; the pipeline stops
after a phase that found errors, so one mistake does not cascade into many. `meeple validate`
is this function; `meeple run` goes on to compile and run.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dsl.diagnostics import Diagnostic, Severity, sort_diagnostics
from dsl.loader import MAX_BYTES, Document, Positions, load_file, load_text
from dsl.sections import check_document
from dsl.source import SourceFile
from dsl.structure import check_structure
from dsl.symbols import Symbols


@dataclass
class Validation:
    """The outcome of validating one file."""

    name: str
    document: Document | None
    symbols: Symbols | None
    diagnostics: list[Diagnostic] = field(default_factory=list)
    text: str | None = None  # the file's text, kept for snippets even when it did not load

    @property
    def source(self) -> SourceFile | None:
        if self.document is not None:
            return self.document.source
        return SourceFile(self.name, self.text) if self.text is not None else None

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


def merge(base: Any, overlay: Any) -> Any:
    """Merges a variant's overlay onto base data: mappings key by key, the rest replaces."""
    if isinstance(base, dict) and isinstance(overlay, dict):
        out = dict(base)
        for key, value in overlay.items():
            out[key] = merge(base.get(key), value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(overlay)


def apply_variant(doc: Document, name: str) -> Document:
    """Returns the document with a variant applied: its overlay merged, its parameter
    defaults set. Positions of overlaid values point into the variant's own text."""
    spec = doc.data["variants"][name]
    data = merge(doc.data, spec.get("merge") or {})
    # `merge` copies only what the overlay touches: copy the parameters before setting
    # defaults, or validating a variant would change the base ruleset's parameters.
    params = dict(data.get("parameters") or {})
    for pname, value in (spec.get("set") or {}).items():
        if pname in params:
            params[pname] = {**params[pname], "default": value}
    if params:
        data["parameters"] = params
    data.pop("variants", None)
    prefix = ("variants", name, "merge")
    pos = Positions(doc.source, dict(doc.positions.values), dict(doc.positions.keys))
    for table, source in ((pos.values, doc.positions.values), (pos.keys, doc.positions.keys)):
        for path, span in source.items():
            if path[:3] == prefix and len(path) > 3:
                table[path[3:]] = span
    return Document(data, doc.source, pos)


def _check(doc: Document, sections: list[str] | None = None
           ) -> tuple[Symbols | None, list[Diagnostic]]:
    diags = check_structure(doc, sections)
    if diags:
        return None, diags
    return check_document(doc)


def validate_document(doc: Document, load_diags: list[Diagnostic] | None = None) -> Validation:
    """Validates a loaded document and each of its variants."""
    diags = list(load_diags or [])
    symbols, found = _check(doc)
    diags += found
    if not diags:
        for vname, vspec in (doc.data.get("variants") or {}).items():
            # Only the sections the overlay touches can break the structure; the names,
            # types and flow of the whole ruleset are checked again.
            overlay = list((vspec.get("merge") or {}).keys())
            _, vdiags = _check(apply_variant(doc, vname), overlay)
            diags += [Diagnostic(d.code, f"with variant '{vname}': {d.message}", d.span,
                                 d.path, d.hint, d.severity) for d in vdiags]
    return Validation(doc.source.name, doc, symbols, sort_diagnostics(diags))


def validate_text(text: str, name: str = "<text>") -> Validation:
    doc, diags = load_text(text, name)
    if doc is None:
        return Validation(name, None, None, sort_diagnostics(diags),
                          text if len(text) <= MAX_BYTES else None)
    return validate_document(doc, diags)


def validate_path(path: str | Path) -> Validation:
    """Validates one ruleset file: every diagnostic of the first phase that found errors."""
    doc, diags = load_file(path)
    if doc is None:
        text = None
        try:
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read(MAX_BYTES + 1)  # bounded: /dev/zero never ends
            text = text if len(text) <= MAX_BYTES else None
        except OSError:
            pass
        return Validation(str(path), None, None, sort_diagnostics(diags), text)
    return validate_document(doc, diags)
