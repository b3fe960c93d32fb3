"""Phase 6, run (log check): a log file, read and checked line by line before anything uses it.

Input: the bytes of a log (`meeple replay LOG`, `meeple run --resume LOG`). Output: the header
and the records as plain data, or `LogError` naming the file, the line and, for a record, the
field that cannot be used. A log may come from anyone (a bug report, a game sent by a friend),
so nothing in it is trusted: every line is JSON within the limits below, numbers are finite,
and every field that the replay takes from it (faces, decisions, race reports and counts,
hazards, the header's players, seats and parameters) has the type it must have. Fields that a replay
only compares with the events it makes again need no check: a wrong one is a difference.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from dsl.loader import MAX_DEPTH
from dsl.safe_text import shown, text_problem
from interpreter.table.data_files import MAX_COUNT, MAX_TEXT, MAX_UNIFORMS
from interpreter.table.options import MAX_SPEC, seat_problem

MAX_LOG_BYTES = 200_000_000
MAX_HAZARD_QUERIES = 10_000_000  # chances of hazard events asked in one game
MAX_PLAYERS = 10_000
DICE_SOURCES = ("seeded", "table", "table:faces", "file")
MAX_POSITION = 2_000_000  # characters of the position a game started from (as a data file)


class LogError(Exception):
    pass


# -- the checks of one value: each says what the value must be, or None when it is fine --------

Check = Callable[[Any], str | None]


def _kind(v: Any) -> str:
    return {bool: "true or false", int: "a number", float: "a number", str: "a text",
            list: "a list", dict: "a mapping", type(None): "null"}.get(type(v), "a value")


def _text(v: Any) -> str | None:
    if not isinstance(v, str) or not v:
        return f"must be a name, not {_kind(v)}"
    return text_problem(v, MAX_TEXT)


def _path(v: Any) -> str | None:
    if not isinstance(v, str) or not v:
        return f"must be a file's path, not {_kind(v)}"
    return text_problem(v, 4096)


def _number(v: Any) -> str | None:
    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0
    return None if ok else f"must be a number of seconds (0 or more), not {_kind(v)}"


def _count(limit: int, least: int = 0) -> Check:
    def check(v: Any) -> str | None:
        if isinstance(v, int) and not isinstance(v, bool) and least <= v <= limit:
            return None
        return f"must be a whole number from {least} to {limit:,}"
    return check


def _flag(v: Any) -> str | None:
    return None if isinstance(v, bool) else f"must be true or false, not {_kind(v)}"


def _scalar(v: Any) -> str | None:
    if isinstance(v, str):
        return text_problem(v, MAX_TEXT)
    if v is None or isinstance(v, (bool, int, float)):
        return None
    return f"must be a number, a text or true or false, not {_kind(v)}"


def _face(v: Any) -> str | None:
    if v is None:
        return None  # a face the table did not track (a die in a counted zone)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return None
    if isinstance(v, str) and v:
        return text_problem(v, MAX_TEXT)
    return f"must be a face (a number or a text), not {_kind(v)}"


def _list(each: Check) -> Check:
    def check(v: Any) -> str | None:
        if not isinstance(v, list):
            return f"must be a list, not {_kind(v)}"
        for i, item in enumerate(v):
            problem = each(item)
            if problem:
                return f"item {i + 1} {problem}"
        return None
    return check


def _claims(v: Any) -> str | None:
    if not isinstance(v, dict):
        return f"must be a mapping of players to lists, not {_kind(v)}"
    for name, items in v.items():
        problem = _text(name) or _list(_scalar)(items)
        if problem:
            return f"for '{shown(name)}' {problem}"
    return None


def _counts(v: Any) -> str | None:
    if not isinstance(v, dict):
        return f"must be a mapping of reporters to counts, not {_kind(v)}"
    for name, per in v.items():
        problem = _text(name)
        if problem is None and not isinstance(per, dict):
            problem = f"must be a mapping of kinds to numbers, not {_kind(per)}"
        for kind, n in (per.items() if problem is None else ()):
            problem = _text(kind) or _count(MAX_COUNT)(n)
            if problem:
                break
        if problem:
            return f"for '{shown(name)}' {problem}"
    return None


def _optional(check: Check) -> Check:
    return lambda v: None if v is None else check(v)


def _seed(v: Any) -> str | None:
    if isinstance(v, int) and not isinstance(v, bool):
        return None
    if isinstance(v, str):
        return text_problem(v, MAX_SPEC)
    return f"must be a number or a text, not {_kind(v)}"


def _seats(v: Any) -> str | None:
    if not isinstance(v, list):
        return f"must be a list of seats, not {_kind(v)}"
    for i, who in enumerate(v):
        problem = seat_problem(who) if isinstance(who, str) else f"is {_kind(who)}"
        if problem:
            return f"seat {i + 1} {problem}"
    return None


def _sets(v: Any) -> str | None:
    if not isinstance(v, dict):
        return f"must be a mapping of parameters to values, not {_kind(v)}"
    for name, value in v.items():
        problem = _text(name) or (_scalar(value) if value is not None else "must not be null")
        if problem:
            return f"'{shown(name)}' {problem}"
    return None


def _position(v: Any) -> str | None:
    """The position a game started from (`run --from`): its file's name and text."""
    if not isinstance(v, dict) or set(v) != {"path", "text"}:
        return "must be a mapping of 'path' and 'text' (the position file it started from)"
    if not isinstance(v["text"], str) or len(v["text"]) > MAX_POSITION:
        return f"must hold the position's text, at most {MAX_POSITION:,} characters"
    return _path(v["path"])


def _dice(v: Any) -> str | None:
    return None if v in DICE_SOURCES else f"must be one of {', '.join(DICE_SOURCES)}"


# -- what each record must hold (required fields, then optional ones) ---------------------------

HEADER: tuple[dict[str, Check], dict[str, Check]] = (
    {"ruleset": _path, "players": _count(MAX_PLAYERS, 1)},
    {"ruleset_abs": _optional(_path), "seed": _seed, "seats": _optional(_seats),
     "variant": _optional(_text), "set": _optional(_sets), "dice": _dice, "from": _position},
)

RECORDS: dict[str, tuple[dict[str, Check], dict[str, Check]]] = {
    "roll": ({"dice": _list(_text), "faces": _list(_face)}, {"by": _list(_optional(_text))}),
    "shuffle": ({"order": _list(_text)}, {"zone": _text}),
    "draw": ({"source": _text, "items": _list(_text)}, {"blind": _flag, "by": _optional(_text)}),
    "deal": ({"source": _text, "items": _list(_text)}, {}),
    "hazard": ({"query": _count(MAX_HAZARD_QUERIES, 1), "at": _number}, {"event": _text}),
    "decision": ({"id": _text, "by": _text, "choice": _scalar},
                 {"only": _flag, "sealed": _flag, "asked": _number, "at": _number,
                  "label": _text}),
    "race": ({"id": _text, "claims": _claims, "seconds": _number},
             {"uniforms": _count(MAX_UNIFORMS), "missed": _claims, "counts": _counts}),
    "timeout": ({"at": _number}, {}),
    "raised": ({"event": _text}, {"by": _text, "at_roll": _flag, "at": _number}),
    "eliminated": ({"player": _text}, {"because": _text}),
    "end": ({}, {"hazard_queries": _count(MAX_HAZARD_QUERIES)}),
}


def record_problem(rec: dict, spec: tuple[dict[str, Check], dict[str, Check]]) -> str | None:
    """The first field of `rec` that cannot be used, and why; None when all can."""
    required, optional = spec
    for name, check in required.items():
        if name not in rec:
            return f"has no '{name}'"
        problem = check(rec[name])
        if problem:
            return f"'{name}' {problem}"
    for name, check in optional.items():
        if name in rec:
            problem = check(rec[name])
            if problem:
                return f"'{name}' {problem}"
    if rec.get("t") == "decision" and ("at" in rec) != ("asked" in rec):
        return "has 'at' without 'asked' (or 'asked' without 'at')"
    if rec.get("t") == "roll" and len(rec["dice"]) != len(rec["faces"]):
        return f"has {len(rec['dice'])} dice but {len(rec['faces'])} faces"
    if rec.get("t") == "roll" and "by" in rec and len(rec["by"]) != len(rec["dice"]):
        return f"has {len(rec['dice'])} dice but {len(rec['by'])} rollers"
    return None


# -- reading ----------------------------------------------------------------------------------------

def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is too large")
    return value


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number a log holds")


def _depth(value: Any) -> int:
    """How deeply a parsed value nests (without recursion)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            if d > MAX_DEPTH:
                break
            stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def parse(path: str, raw: bytes, fmt: str, cut_short: bool = False) -> tuple[dict, list[dict]]:
    """The header (of format `fmt`) and the records of a log's bytes, every one checked.
    With `cut_short`, a last line cut off in the middle of a write (no newline after it, and
    not whole JSON) is dropped instead of refused."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw.count(b"\n", 0, e.start) + 1
        raise LogError(f"{path}:{line}: not UTF-8 text (byte {raw[e.start]:#04x})") from None
    # Lines end with \n only: U+2028 and the like may stand inside a JSON text.
    lines = text.split("\n")
    cut = not text.endswith("\n")
    last = max((i for i, line in enumerate(lines, 1) if line.strip()), default=0)
    records: list[dict] = []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line, parse_float=_finite, parse_constant=_constant)
        except RecursionError:
            raise LogError(f"{path}:{i}: the line nests deeper than {MAX_DEPTH} levels") from None
        except json.JSONDecodeError as e:
            if i == last and cut:
                if cut_short:
                    break
                raise LogError(f"{path}:{i}:{e.colno}: the last line is cut off ({e.msg}): the "
                               "game was interrupted while writing it; `meeple run --resume "
                               f"{path}` goes on from the line before") from None
            raise LogError(f"{path}:{i}:{e.colno}: not a JSON line ({e.msg})") from None
        except ValueError as e:  # a number too long to read, NaN, Infinity
            raise LogError(f"{path}:{i}: {e}") from None
        if _depth(rec) > MAX_DEPTH:
            raise LogError(f"{path}:{i}: the line nests deeper than {MAX_DEPTH} levels")
        if not records and not (isinstance(rec, dict) and rec.get("t") == "game"
                                and rec.get("format") == fmt):
            raise LogError(f"{path}:{i}:1: not a meeple log (the first line must be the game "
                           f"header of format {fmt})")
        if not isinstance(rec, dict) or not isinstance(rec.get("t"), str):
            raise LogError(f"{path}:{i}: not a meeple log record (a JSON object with a 't')")
        if not records:
            problem = record_problem(rec, HEADER)
            if problem:
                raise LogError(f"{path}:{i}: the header {problem}")
        else:
            problem = record_problem(rec, RECORDS.get(rec["t"], ({}, {})))
            if problem:
                raise LogError(f"{path}:{i}: event {len(records)} ('{shown(rec['t'])}') "
                               f"{problem}")
        records.append(rec)
    if not records:
        raise LogError(f"{path}:1:1: not a meeple log (the file is empty)")
    return records[0], records[1:]
