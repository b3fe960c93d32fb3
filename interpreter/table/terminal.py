"""Output to the terminal: everything meeple prints passes through one cleaning stream.

Input: the text every command writes to stdout and stderr (narration, views, prompts,
diagnostics, reports), much of it from a ruleset or a person. Output: the same text with
control characters escaped (dsl/safe_text.py), so no ruleset can steer the terminal. Only
meeple's own control sequences (clearing the screen at a hot-seat hand-over, redrawing a
countdown or the progress line) go through `control`, which writes them as they are.

The command line installs the streams once (`install`), so no output path can forget them.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO

from dsl.safe_text import escape_controls


class CleanStream:
    """A text stream that escapes control characters in what it is given, then writes it to
    the stream it wraps; every other attribute (isatty, fileno, encoding...) is the wrapped
    stream's."""

    def __init__(self, raw: TextIO):
        self.raw = raw

    def write(self, text: str) -> int:
        self.raw.write(escape_controls(text))
        return len(text)

    def writelines(self, lines: Any) -> None:
        for line in lines:
            self.write(line)

    def control(self, sequence: str) -> None:
        """Writes meeple's own terminal sequence unchanged (never text from a ruleset)."""
        self.raw.write(sequence)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def install() -> None:
    """Puts cleaning streams in front of stdout and stderr (once; installing twice keeps one)."""
    if not isinstance(sys.stdout, CleanStream):
        sys.stdout = CleanStream(sys.stdout)  # type: ignore[assignment]
    if not isinstance(sys.stderr, CleanStream):
        sys.stderr = CleanStream(sys.stderr)  # type: ignore[assignment]


def control(sequence: str, err: bool = False) -> None:
    """Writes one of meeple's own control sequences to stdout (or stderr) as it is."""
    stream = sys.stderr if err else sys.stdout
    getattr(stream, "control", stream.write)(sequence)


def ask(prompt: str) -> str:
    """`input()` with its prompt cleaned: at a terminal, Python writes an input prompt straight
    to the terminal, past sys.stdout."""
    return input(escape_controls(prompt))
