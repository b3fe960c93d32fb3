"""Phase 5, compile (specializer): what the generated code of a logged game takes from
scripted answers.

Input: the queue of a decisions file's or a log's entries (interpreter/table/journal.py
reads them) at the head of which the generated code looks for a decision's answer or a
race's report. Output: the answer found legal (taken from the queue), or `Stop` at the
step that takes it (a site `input_site` makes, stops.py), raised with the interpreter's own
bad-input error (interpreter/engine/script_errors.py): the same entries read, and refused,
as Game._scripted and race._scripted read and refuse them.
"""

from __future__ import annotations

from typing import Any

from interpreter.compile.base import Stop
from interpreter.engine.script_errors import (
    beyond_capacity,
    claimed_before,
    counts_undeclared,
    illegal_answer,
    impossible_claims,
    legal_keys,
    legal_range,
    named_twice,
    no_such_item,
    not_raisable,
    other_race,
    unexpected_decision,
)


def refused(site: tuple | None, error: Any) -> Stop:
    """The stop of a bad entry: at `site` (the step that takes it), the interpreter's own
    error; where the step's place is not known, a stop without it."""
    return Stop() if site is None else Stop(site, error(site[1]))


def _forced_answer(queue: Any, did: str, site: tuple | None, who: str) -> Any:
    """The next answer of a decisions file (Game._scripted), left in the queue until it is
    found legal (`_answered`): a plain answer, or `{id, choice}` whose id, when given, must be
    the decision's, asked of `who` (else the interpreter's bad-input error), with the moments
    it was asked and answered if it says them. An event raised in a game where people raise
    none (which the generated code's decisions take first where they may) is the
    interpreter's bad-input error too; another entry in its place (a race's report) answers
    nothing, as the interpreter reads it."""
    entry = queue[0]
    if isinstance(entry, dict):
        if "raise" in entry:
            raise refused(site, lambda path: not_raisable(entry["raise"], (), path))
        if entry.get("id") not in (None, did):
            raise refused(site, lambda path: unexpected_decision(entry.get("id"), did, who,
                                                                  path))
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


def forced_pick(queue: Any, did: str, legal: Any, keys: tuple, site: tuple | None,
                who: str) -> int:
    """A scripted answer among named options: the index of the legal one it names (else the
    interpreter's bad-input error at `site`, the decision's step, asked of `who`)."""
    answer = _forced_answer(queue, did, site, who)
    for i in legal:
        if _names(answer, keys[i]):
            return _answered(queue, i)
    raise refused(site, lambda path: illegal_answer(
        answer, did, who, legal_keys(keys[i] for i in legal), path))


def forced_value(queue: Any, did: str, legal: list, keys: Any, site: tuple | None,
                 who: str) -> Any:
    """A scripted answer among options given by values (`keys`: each value's key by the
    value, or None where the value is its own key)."""
    answer = _forced_answer(queue, did, site, who)
    for v in legal:
        if _names(answer, keys[v] if keys is not None else v):
            return _answered(queue, v)
    raise refused(site, lambda path: illegal_answer(
        answer, did, who, legal_keys(keys[v] if keys is not None else v for v in legal), path))


def forced_number(queue: Any, did: str, low: Any, high: Any, site: tuple | None,
                  who: str) -> Any:
    """A scripted number within the bounds (a text of digits read as a number)."""
    answer = _forced_answer(queue, did, site, who)
    if isinstance(answer, str) and answer.strip().lstrip("-").isdigit():
        answer = int(answer)
    if isinstance(answer, (int, float)) and not isinstance(answer, bool) and (
            low <= answer <= high):
        return _answered(queue, answer)
    raise refused(site, lambda path: illegal_answer(answer, did, who, legal_range(low, high),
                                                     path))


def _unclaimable(token: str, x: Any, got: list, out: list, ids: tuple,
                 racers: list[str]) -> str | None:
    """Why race._check refuses the claim `token` (the item `x`, None where the pool has none
    by that name) after the racer's own `got` and the earlier racers' claims `out` (the
    racers' names: `racers`), or None."""
    if x is None:
        return no_such_item(token)
    if x in got:
        return named_twice(token)
    for j, claimed in enumerate(out):
        if x in claimed:
            return claimed_before(ids[x], racers[j])
    return None


def race_script(queue: Any, rid: str, racers: list, pool: list, caps: list, names: tuple,
                ids: tuple, uniform: Any, site: tuple | None) -> tuple[list, float, int, dict]:
    """A race's scripted entry at the queue's head (a decisions file's, a log's), as
    race._scripted takes it: each racer's claims as item numbers, checked as race._check
    checks them (an item not in the pool, named twice, claimed by an earlier racer, or more
    than the racer's capacity is the interpreter's bad-input error: `Stop`, the entry left
    in the queue for it); the seconds the race took; the model's random numbers, drawn again
    unused so the seeded stream stays where the log's did; and what each racer missed (a
    race with `counts` takes scripted counts in interpreter/compile/counts.py)."""
    entry = queue[0]
    if entry["race"] != rid:
        raise refused(site, lambda path: other_race(entry["race"], rid, path))
    if "counts" in entry:  # counts for a race without `counts`
        raise refused(site, lambda path: counts_undeclared(rid, path))
    claims = entry.get("claims") or {}
    by_ref = {ids[x]: x for x in pool}
    out: list[list] = []
    for r, cap in zip(racers, caps, strict=True):
        got: list = []
        why = None
        for token in claims.get(names[r], []):
            t = str(token).strip()
            x = by_ref.get(t)
            why = _unclaimable(t, x, got, out, ids, [names[q] for q in racers])
            if why is not None:
                break
            got.append(x)
        if why is None and cap is not None and len(got) > cap:
            why = beyond_capacity(names[r], cap)
        if why is not None:
            raise refused(site, lambda path, r=r, why=why: impossible_claims(names[r], rid, why,
                                                                             path))
        out.append(got)
    queue.popleft()
    missed = entry.get("missed") or {}
    lost = {names[r]: [str(x) for x in missed[names[r]]] for r in racers
            if missed.get(names[r])}
    drawn = int(entry.get("uniforms", 0))
    for _ in range(drawn):
        uniform()
    return out, float(entry.get("seconds", 0.0)), drawn, lost
