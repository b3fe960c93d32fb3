"""Text made safe to show: control characters escaped before they reach a terminal or a page.

Used by every output phase (diagnostics, narration, views, prompts, the rulebook, logs), and
by the checks of values typed or read from files (`text_problem`), which quote them `shown`. Input:
any text, often from a ruleset or a person. Output: the same text with every character that
could steer a terminal or reorder what is shown written as a visible escape (`\\x1b`,
`\\u202e`): a ruleset's `say` line cannot retitle the player's terminal, move the cursor or
hide part of a line (DESIGN.md principle 12, docs/security.md).
"""

from __future__ import annotations

import re

# C0 controls but newline and tab, DEL, C1 controls (U+0080-U+009F: in some terminals as
# strong as ESC), and the bidirectional marks, embeddings, overrides and isolates that can
# make a line read differently from what it holds ("Trojan Source").
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """`text` with every unsafe character written as its escape; newlines and tabs kept."""
    return UNSAFE.sub(_escape, text) if UNSAFE.search(text) else text


def has_controls(text: str) -> bool:
    """Whether `text` holds a character `escape_controls` would escape."""
    return UNSAFE.search(text) is not None


MAX_VALUE = 1_000  # characters in one value typed on the command line


def shown(text: str, limit: int = 40) -> str:
    """A typed value as it can be echoed in a message: control characters as escapes, and
    cut short."""
    out = text.encode("unicode_escape").decode("ascii") if not text.isprintable() else text
    return out if len(out) <= limit else out[:limit] + "..."


def text_problem(text: str, limit: int = MAX_VALUE) -> str | None:
    """Why a typed value cannot be used (None when it can): a control character (a terminal
    escape pasted in, say) or more characters than `limit`."""
    bad = next((ch for ch in text if not ch.isprintable()), None)
    if bad is not None:
        return f"holds a control character (U+{ord(bad):04X})"
    if len(text) > limit:
        return f"is longer than {limit:,} characters"
    return None
