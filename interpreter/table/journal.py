"""Phase 6, run (journal): a game's log as JSON lines, and its replay.

Input: a finished (or interrupted) game's header and records; or a log file. Output: the
log file (`--log FILE.jsonl`: a header line, then one line per record), and from a log file a
replay: the same ruleset, variant and parameters, with every chance result and decision taken
from the log, giving the same records again. Whatever a game took from outside (dice, draws,
shuffles, hazards, decisions) is in its log, so a log replays whichever sources played it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dsl.safe_text import UNSAFE
from interpreter.engine.chance import ScriptedChance
from interpreter.table import log_check, output_files

FORMAT = "meeple-log/1"


class JournalError(Exception):
    pass


def header(path: str, players: int, seed: Any, seats: list[str], variant: str | None,
           sets: dict[str, Any], dice: str) -> dict:
    return {"t": "game", "format": FORMAT, "ruleset": path,
            "ruleset_abs": str(Path(path).resolve()), "players": players, "seed": seed,
            "seats": seats, "variant": variant, "set": sets, "dice": dice}


class Writer:
    """Writes records as they happen, flushed line by line, so a killed game loses nothing.

    A new log never replaces an existing file unless `force` (`--force`); `rewrite` is for a
    game's own log (a resumed game, an undo at the table): its records so far replace it
    whole, in one step, so an interruption leaves the old log or the new one, never a part.
    Either way the header and records are written to a temporary file that takes the log's
    place, then the log is opened to append what follows."""

    def __init__(self, path: str, head: dict, records: list[dict] = (), force: bool = False,
                 rewrite: bool = False):
        text = "".join(_line(rec) for rec in (head, *records))
        try:
            output_files.write_text(path, text, force=force or rewrite, what="the log")
            self.file = open(path, "a", encoding="utf-8", newline="")  # noqa: SIM115 - closed by close()
        except output_files.OutputError as e:
            raise JournalError(str(e)) from None
        except OSError as e:  # a missing folder, no permission: the caller reports it
            raise JournalError(f"cannot write the log {path}: {e.strerror or e}") from None

    def write(self, rec: dict) -> None:
        self.file.write(_line(rec))
        self.file.flush()

    def close(self) -> None:
        self.file.close()


def _line(rec: dict) -> str:
    # JSON escapes C0 controls itself; DEL, C1 controls and bidirectional overrides are
    # escaped too, so a log read with `cat` or `less` cannot steer the terminal either.
    text = json.dumps(rec, ensure_ascii=False, default=str)
    if UNSAFE.search(text):
        text = UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
    return text + "\n"


def read(path: str, cut_short: bool = False) -> tuple[dict, list[dict]]:
    """The header and records of a log, every line checked (interpreter/table/log_check.py): a
    log that cannot be used is a `JournalError` naming the file, the line and the field.
    With `cut_short`, a last line cut off in the middle (the process was killed while
    writing it) is dropped instead of refused."""
    limit = log_check.MAX_LOG_BYTES
    try:
        with open(path, "rb") as f:  # at most one byte past the limit: /dev/zero ends here
            raw = f.read(limit + 1)
    except OSError as e:
        raise JournalError(f"{path}: cannot read the log ({e.strerror or e})") from None
    if len(raw) > limit:
        raise JournalError(f"{path}: the log is larger than {limit:,} bytes")
    try:
        return log_check.parse(path, raw, FORMAT, cut_short)
    except log_check.LogError as e:
        raise JournalError(str(e)) from None


def script(records: list[dict]) -> tuple[ScriptedChance, list[dict]]:
    """The chance results and decisions a logged game took, ready to play it again."""
    faces: list = []
    orders, picks = [], []
    fired: dict[int, float] = {}
    queries = 0
    decisions = []
    rolls = 0  # the rolls made so far: an event raised at a roll's prompt came before the next
    for rec in records:
        t = rec["t"]
        if t == "roll":
            faces.extend(rec["faces"])
            rolls += 1
        elif t == "shuffle":
            orders.append(rec["order"])
        elif t == "draw" and rec.get("blind"):
            picks.append(rec["items"])
        elif t == "hazard":
            fired[rec["query"]] = rec["at"]
        elif t == "decision" and not rec.get("only"):
            entry = {"id": rec["id"], "choice": rec["choice"]}
            if "at" in rec:  # live play: the moments it was asked and answered
                entry.update(asked=rec["asked"], at=rec["at"])
            decisions.append(entry)
        elif t == "race" and "counts" in rec:  # the table's counts: the same items again
            decisions.append({"race": rec["id"], "counts": rec["counts"],
                              "seconds": rec["seconds"]})
        elif t == "race":  # what each racer claimed, and how long the race took
            decisions.append({"race": rec["id"], "claims": rec["claims"],
                              "seconds": rec["seconds"], "uniforms": rec.get("uniforms", 0),
                              "missed": rec.get("missed") or {}})
        elif t == "timeout":
            decisions.append({"timeout": rec["at"]})
        elif t == "raised" and "by" in rec:
            decisions.append({"raise": rec["event"], "by": rec["by"],
                              **({"at_roll": True, "rolls": rolls} if rec.get("at_roll")
                                 else {}),
                              **({"at": rec["at"]} if "at" in rec else {})})
        elif t == "end":
            queries = rec.get("hazard_queries", 0)
    queries = max([queries, *fired])
    hazards = [fired.get(i) for i in range(1, queries + 1)]
    return ScriptedChance(faces, orders, picks, hazards), decisions


def logged_seats(head: dict, players: int) -> list[str] | None:
    """Who played each seat (human, random, policy:NAME), as the header says; None for a
    header that does not say it for every seat."""
    seats = head.get("seats")
    if isinstance(seats, list) and len(seats) == players and all(
            isinstance(s, str) for s in seats):
        return seats
    return None


# Fields that only say who did something, or how a choice reads, for the narration: a log
# written before a field was added lacks it and still replays.
WORDS_ONLY = {"roll": ("by",), "draw": ("by",), "decision": ("label",)}


def same_record(replayed: dict, logged: dict) -> bool:
    """Whether a replayed record (as JSON data) is the logged one: equal, or equal but for
    the narration's fields (WORDS_ONLY) that the log does not hold."""
    if replayed == logged:
        return True
    extra = [k for k in WORDS_ONLY.get(replayed.get("t"), ()) if k not in logged]
    return bool(extra) and {k: v for k, v in replayed.items() if k not in extra} == logged


def first_difference(replayed: list[dict], logged: list[dict]) -> int | None:
    """The index of the first record that differs, or None when the two are the same."""
    a = json.loads(json.dumps(replayed, default=str))
    for i in range(max(len(a), len(logged))):
        if i >= len(a) or i >= len(logged) or not same_record(a[i], logged[i]):
            return i
    return None
