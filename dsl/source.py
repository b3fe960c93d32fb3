"""Source text and positions shared by every phase.

Input: the text of a ruleset file. Output: `SourceFile` (the text, split into lines) and `Span`
(a located range, 1-based line and column) used by diagnostics to point at the user's text.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Span:
    """A range in a source file; lines and columns are 1-based, as editors show them."""

    file: str
    line: int
    column: int
    end_line: int | None = None
    end_column: int | None = None

    def shifted(self, line: int, column: int, end_line: int | None = None,
                end_column: int | None = None) -> Span:
        """Returns a span in the same file at another position."""
        return Span(self.file, line, column, end_line, end_column)


@dataclass(frozen=True)
class SourceFile:
    """One file's name and text, with its lines for snippets."""

    name: str
    text: str

    @property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    def line_text(self, line: int) -> str:
        """Returns the text of a 1-based line, or '' past the end."""
        lines = self.lines
        return lines[line - 1] if 1 <= line <= len(lines) else ""
