"""Phase 5, compile (specializer): what the generated code of a logged game takes from
scripted answers.

Input: the queue of a decisions file's or a log's entries (interpreter/table/journal.py
reads them) at the head of which the generated code looks for a decision's answer or a
race's report. Output: the answer found legal (taken from the queue), or `Stop`, the
interpreter's bad-input error, which hands the game to the interpreter for its located
message (interpreter/compile/played.py `MustStop`): the same entries read as Game._scripted
and race._scripted read them.
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.base import Stop


def _forced_answer(queue: Any, did: str) -> Any:
    """The next answer of a decisions file (Game._scripted), left in the queue until it is
    found legal (`_answered`): a plain answer, or `{id, choice}` whose id, when given, must be
    the decision's (else the interpreter's bad-input error: `Stop`), with the moments it was
    asked and answered if it says them. Another entry in its place (a race's report; an
    event raised in a game where people raise none, which the generated code's decisions
    take first where they may) is the interpreter's bad-input error too: `Stop`."""
    entry = queue[0]
    if isinstance(entry, dict):
        if set(entry) - {"id", "choice", "asked", "at"}:
            raise Stop()
        if entry.get("id") not in (None, did):
            raise Stop()
        return entry.get("choice")
    return entry


def _answered(queue: Any, answer: Any) -> Any:
    """Takes the answer found legal out of the queue; a live game's clock then stands at the
    moment it was answered (a replay of live play; a modelled clock is set by the generated
    code itself, before the answer is taken)."""
    entry = queue.popleft()
    clock = getattr(queue, "clock", None)  # a live game's (TimedQueue)
    if clock is not None and isinstance(entry, dict) and "at" in entry:
        clock.set(entry["at"])
    return answer


def _names(answer: Any, key: Any) -> bool:
    """Request.match: an answer names an option by its key, or by the key's text."""
    return answer == key or (isinstance(answer, str) and answer == str(key))


def forced_pick(queue: Any, did: str, legal: Any, keys: tuple) -> int:
    """A scripted answer among named options: the index of the legal one it names."""
    answer = _forced_answer(queue, did)
    for i in legal:
        if _names(answer, keys[i]):
            return _answered(queue, i)
    raise Stop()  # not legal now: the interpreter's bad-input error


def forced_value(queue: Any, did: str, legal: list, keys: Any) -> Any:
    """A scripted answer among options given by values (`keys`: each value's key by the
    value, or None where the value is its own key)."""
    answer = _forced_answer(queue, did)
    for v in legal:
        if _names(answer, keys[v] if keys is not None else v):
            return _answered(queue, v)
    raise Stop()


def forced_number(queue: Any, did: str, low: Any, high: Any) -> Any:
    """A scripted number within the bounds (a text of digits read as a number)."""
    answer = _forced_answer(queue, did)
    if isinstance(answer, str) and answer.strip().lstrip("-").isdigit():
        answer = int(answer)
    if isinstance(answer, (int, float)) and not isinstance(answer, bool) and (
            low <= answer <= high):
        return _answered(queue, answer)
    raise Stop()


def race_script(queue: Any, rid: str, racers: list, pool: list, caps: list, names: tuple,
                ids: tuple, uniform: Any) -> tuple[list, float, int, dict]:
    """A race's scripted entry at the queue's head (a decisions file's, a log's), as
    race._scripted takes it: each racer's claims as item numbers, checked as race._check
    checks them (an item not in the pool, named twice, claimed by an earlier racer, or more
    than the racer's capacity is the interpreter's bad-input error: `Stop`, the entry left
    in the queue for it); the seconds the race took; the model's random numbers, drawn again
    unused so the seeded stream stays where the log's did; and what each racer missed (a
    race with `counts` takes scripted counts in interpreter/compile/counts.py)."""
    entry = queue[0]
    if entry["race"] != rid or "counts" in entry:  # (counts for a race without `counts`)
        raise Stop()
    claims = entry.get("claims") or {}
    by_ref = {ids[x]: x for x in pool}
    out: list[list] = []
    for r, cap in zip(racers, caps, strict=True):
        got: list = []
        for token in claims.get(names[r], []):
            x = by_ref.get(str(token).strip())
            if x is None or x in got or any(x in c for c in out):
                raise Stop()
            got.append(x)
        if cap is not None and len(got) > cap:
            raise Stop()
        out.append(got)
    queue.popleft()
    missed = entry.get("missed") or {}
    lost = {names[r]: [str(x) for x in missed[names[r]]] for r in racers
            if missed.get(names[r])}
    drawn = int(entry.get("uniforms", 0))
    for _ in range(drawn):
        uniform()
    return out, float(entry.get("seconds", 0.0)), drawn, lost
