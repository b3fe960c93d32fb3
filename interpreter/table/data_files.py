"""Phase 6, run (data files): the files `meeple run` takes besides the ruleset.

Input: the path of a `--decisions` file (answers taken first, in order), or of any data file
(`DataFile`: a `--dice` file is read by interpreter/table/dice_file.py, a position by
interpreter/table/position.py). Output: the decisions, checked; or `DataFileError` holding
one diagnostic located in the file. These files come from anyone (a
forum post, a bug report), so they are read like a ruleset, with its limits on size, nesting
and aliases (dsl.loader.load_data_file), and every entry is checked before the game uses it:
the first bad one is reported with its line and column, never met later as a crash.
"""

from __future__ import annotations

import math
from typing import Any

from dsl.diagnostics import Diagnostic, suggestion
from dsl.loader import Document, load_data_file
from dsl.safe_text import shown
from dsl.source import SourceFile
from interpreter.engine.counted import MAX_COUNT

MAX_TEXT = 1_000  # characters in one text of a data file (a face, an option, a name)
MAX_UNIFORMS = 1_000_000  # random numbers one scripted race may say its model drew

DECISION_FORM = ("an option's name, a player's name, a number, or {id: DECISION, choice: "
                 "ANSWER}")


class DataFileError(Exception):
    """A data file that cannot be used: its diagnostic, and the source to show its line."""

    def __init__(self, diagnostic: Diagnostic, source: SourceFile | None):
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
        self.source = source


class DataFile:
    def __init__(self, path: str, what: str):
        doc, diags = load_data_file(path)
        if doc is None:
            d = diags[0]
            raise DataFileError(Diagnostic("bad-input", f"{what}: {d.message}", d.span,
                                           hint=d.hint), None)
        self.doc: Document = doc
        self.what = what
        self.path = path

    def refuse(self, where: tuple, message: str, hint: str | None = None, key: bool = False):
        """Stops at the value at `where` (with `key`, at the key that names it)."""
        pos = self.doc.positions
        raise DataFileError(Diagnostic("bad-input", f"{self.what}: {message}",
                                       pos.key(where) if key else pos.value(where), where,
                                       hint), self.doc.source)


def kind_of(value: Any) -> str:
    if value is None:
        return "nothing (an empty value)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (true or false)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{value} (not a finite number)"
    return "a number" if isinstance(value, (int, float)) else "a text"


def is_scalar(value: Any) -> bool:
    """A number (finite, not true or false) or a text of a sensible length."""
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, int):
        return True
    return isinstance(value, str) and 0 < len(value) <= MAX_TEXT


def _answer(value: Any) -> bool:
    """What a decision may be answered with: a face-like scalar, or true or false (an
    option taken from a list of truth values)."""
    return isinstance(value, bool) or is_scalar(value)


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(
        value) and value >= 0


_ENTRY_KEYS = {
    "choice": {"choice", "id", "asked", "at"},
    "timeout": {"timeout"},
    "raise": {"raise", "by", "at_roll", "at"},
    "race": {"race", "claims", "counts", "seconds", "uniforms", "missed"},
}


def read_decisions(path: str) -> list:
    """The entries of a `--decisions` file, each checked (see `check_decision`)."""
    f = DataFile(path, "--decisions")
    data = f.doc.data
    if not isinstance(data, list):
        f.refuse((), f"holds {kind_of(data)}, not a list of decisions",
                 f"a decisions file is a list; each entry is {DECISION_FORM}")
    for i, entry in enumerate(data):
        problem = check_decision(entry)
        if problem is not None:
            where, message = problem
            f.refuse((i,) + where, f"decision {i + 1}: {message}",
                     f"an entry is {DECISION_FORM}", key=message.startswith(_KEY_PROBLEMS))
    return list(data)


_KEY_PROBLEMS = ("unknown key", "a key ")


def check_decision(entry: Any) -> tuple[tuple, str] | None:
    """Why a scripted decision cannot be used, as (the key within it, the reason); None
    when it can. An entry is an answer (an option's name, a player's name, a number), or a
    mapping: {id?, choice, asked?, at?}, {timeout: AT}, {raise: EVENT, by?: NAME, at_roll?, at?},
    or a race's report {race: ID, claims: {NAME: [ITEM...]}, seconds?, uniforms?, missed?} or
    counted {race: ID, counts: {NAME: {KIND: N}}, seconds?}."""
    if not isinstance(entry, dict):
        return None if _answer(entry) else ((), f"{kind_of(entry)} is not an answer")
    known = set().union(*_ENTRY_KEYS.values())
    unknown = [k for k in entry if k not in known]
    if unknown:
        return (unknown[0],), f"unknown key '{shown(unknown[0])}'{suggestion(unknown[0], sorted(known))}"
    form = next((k for k in ("timeout", "raise", "race", "choice") if k in entry), None)
    if form is None:
        return (), "a mapping without 'choice' (nor 'timeout', 'raise' or 'race')"
    extra = [k for k in entry if k not in _ENTRY_KEYS[form]]
    if extra:
        return (extra[0],), f"a key '{extra[0]}' does not go with '{form}'"
    for key in ("asked", "at", "timeout", "seconds"):
        if key in entry and not _number(entry[key]):
            return (key,), f"'{key}' is {kind_of(entry[key])}, not a number of seconds"
    for key in ("id", "raise", "by", "race"):
        if key in entry and not (isinstance(entry[key], str) and is_scalar(entry[key])):
            return (key,), f"'{key}' is {kind_of(entry[key])}, not a name"
    if "at_roll" in entry and not isinstance(entry["at_roll"], bool):
        return ("at_roll",), f"'at_roll' is {kind_of(entry['at_roll'])}, not true or false"
    if "claims" in entry and "counts" in entry:
        return ("counts",), "a race's report gives 'claims' or 'counts', not both"
    if "counts" in entry:
        problem = _counts(entry["counts"])
        if problem is not None:
            return problem
    if "choice" in entry and not _answer(entry["choice"]):
        return ("choice",), f"'choice' is {kind_of(entry['choice'])}, not an answer"
    if "uniforms" in entry and not (isinstance(entry["uniforms"], int)
                                    and not isinstance(entry["uniforms"], bool)
                                    and 0 <= entry["uniforms"] <= MAX_UNIFORMS):
        return ("uniforms",), f"'uniforms' must be a whole number from 0 to {MAX_UNIFORMS:,}"
    for key in ("claims", "missed"):
        if key not in entry:
            continue
        value = entry[key]
        if not isinstance(value, dict):
            return (key,), f"'{key}' is {kind_of(value)}, not a mapping of names to lists"
        for name, items in value.items():
            if not isinstance(items, list):
                return (key, name), f"'{key}' of {shown(name)} is {kind_of(items)}, not a list"
            for j, item in enumerate(items):
                if not is_scalar(item):
                    return (key, name, j), f"an item of '{key}' is {kind_of(item)}"
    return None


def _counts(value: Any) -> tuple[tuple, str] | None:
    """Why a race's counts {NAME: {KIND: N}} cannot be used (the key within it), or None."""
    if not isinstance(value, dict):
        return ("counts",), f"'counts' is {kind_of(value)}, not a mapping of names to counts"
    for name, per in value.items():
        if not isinstance(per, dict):
            return ("counts", name), (f"'counts' of {shown(name)} is {kind_of(per)}, not a "
                                      "mapping of kinds to numbers")
        for kind, n in per.items():
            if not (isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= MAX_COUNT):
                what = n if isinstance(n, int) and not isinstance(n, bool) else kind_of(n)
                return ("counts", name, kind), (f"the count of {shown(kind)} for {shown(name)} "
                                                f"is {what}, not a whole number from 0 to "
                                                f"{MAX_COUNT:,}")
    return None
