"""Phase 6, run (counted races): what a race's claims are when the table reports counts.

Input: a race's `counts` (kinds of item, each with a condition `where` and the face `face` its
items show, compiled to closures), its racers, the items up for grabs, and how many of each
kind each reporter says it claimed: typed at the referee's table, or a scripted entry
`{race: ID, counts: {NAME: {KIND: N}}}` (a `--decisions` file, a log being replayed). Output:
each racer's claims, or why the counts are not possible.

A reporter is a racer, or with `counts_per` a group of racers (a team) whose claims all go to
its first racer. Reporters are served in racer order and kinds in the order written: for each
kind, that many items are taken from those no earlier report took, among the items the kind's
`where` accepts whose face is the kind's `face` (first) or unknown (a die in a zone the table
counts instead of tracking). A count larger than what is left is refused, so the counts are
always possible together: no more items than remain, no item claimed twice. The items taken
then show the kind's face: the table saw them. The choice among equal items is the first in
the items' order, so a replay of the same counts takes the same items.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dsl.compiler import Env
from interpreter.engine.script_errors import (
    counts_not_a_map,
    counts_of_unknown_kinds,
    counts_undeclared,
    impossible_counts,
    unknown_reporter,
)
from interpreter.engine.signals import not_a_reporter
from interpreter.engine.values import Team
from interpreter.engine.words import readable

MAX_COUNT = 1_000_000  # a typed or scripted count larger than this is refused outright
_COUNT = f"a whole number from 0 to {MAX_COUNT:,}"


@dataclass
class CountKind:
    name: str
    label: str
    where: Callable | None = None   # f(env with racer, item) -> bool; None: every item
    face: Callable | None = None    # f(env with racer, item) -> the face it shows; None: any


@dataclass
class Reporter:
    """Who reports one line of counts: a racer, or a `counts_per` group of racers."""

    name: str          # as the log and scripts name it: a player's or a team's name
    shown: str         # as the table is asked: "team white", "Player 1 (team white)"
    racers: list       # the race's racers (race.Racer) it reports for; the first holds claims
    counts: dict[str, int] = field(default_factory=dict)


def reporters(spec, env, racers: list) -> list[Reporter]:
    """The race's reporters, in the order of their first racer."""
    if spec.counts_per is None:
        return [Reporter(r.who.name, _shown(r.who), [r]) for r in racers]
    out: dict[int, tuple[Any, Reporter]] = {}
    for r in racers:
        key = spec.counts_per(Env({"racer": r.who}, env))
        name = getattr(key, "name", None)
        if not isinstance(name, str):
            raise not_a_reporter(key, spec.path)
        if id(key) not in out:
            out[id(key)] = (key, Reporter(name, _shown(key), []))
        out[id(key)][1].racers.append(r)
    return [rep for _, rep in out.values()]


def _shown(who: Any) -> str:
    """A reporter as the table is asked for it: a team by its name, a player with their
    team's (a person must know whose colour is whose)."""
    if isinstance(who, Team):
        return f"team {who.name}"
    team = getattr(who, "team", None)
    return who.name + (f" (team {team.name})" if team is not None else "")


def _count(token: str) -> int | None:
    """A typed count: ASCII digits, at most MAX_COUNT (a thousand-digit number is not read)."""
    if not (token.isascii() and token.isdigit()) or len(token) > len(str(MAX_COUNT)):
        return None
    n = int(token)
    return n if n <= MAX_COUNT else None


def parse(text: str, kinds: list[CountKind]) -> tuple[dict[str, int] | None, str | None]:
    """A typed line of counts: one number per kind in order (`3 1`), or NAME=N pairs
    (`own=3 other=1`, kinds left out are 0), or nothing for none of any."""
    tokens = text.replace(",", " ").split()
    names = [k.name for k in kinds]
    if not tokens:
        return dict.fromkeys(names, 0), None
    if all("=" in t for t in tokens):
        out = dict.fromkeys(names, 0)
        for t in tokens:
            name, _, value = t.partition("=")
            if name not in out:
                return None, f"there is no kind '{name}' to count; kinds: {', '.join(names)}"
            n = _count(value)
            if n is None:
                return None, f"'{value}' is not a count ({_COUNT})"
            out[name] = n
        return out, None
    if len(tokens) != len(kinds):
        return None, (f"expected {len(kinds)} number{'s' if len(kinds) != 1 else ''} ("
                      f"{', '.join(names)}), got {len(tokens)}")
    bad = next((t for t in tokens if _count(t) is None), None)
    if bad is not None:
        return None, f"'{bad}' is not a count ({_COUNT})"
    return {k: int(t) for k, t in zip(names, tokens, strict=True)}, None


def take(spec, env, rep: Reporter, counts: dict[str, int], pool: list,
         taken: set[int]) -> tuple[list | None, str | None]:
    """The items `rep` claimed by its counts, as (item, face it shows) pairs, from those not in
    `taken` (item ids); or (None, why the counts are not possible). Nothing is changed."""
    first = rep.racers[0].who
    chosen: list[tuple[Any, Any]] = []
    used = set(taken)
    for kind in spec.counts:
        n = counts.get(kind.name, 0)
        why = bad_count(kind.name, n)
        if why is not None:
            return None, why
        if n == 0:
            continue
        known, unknown = [], []
        for x in pool:
            if id(x) in used:
                continue
            scope = Env({"racer": first, "item": x}, env)
            if kind.where is not None and not kind.where(scope):
                continue
            face = kind.face(scope) if kind.face is not None else None
            has = getattr(x, "face", None)
            if face is None or has == face:
                known.append((x, face))
            elif has is None and face in (getattr(x, "faces", None) or ()):
                unknown.append((x, face))
        fits = known + unknown
        if n > len(fits):
            return None, too_many(rep.shown, n, kind.label or kind.name, len(fits))
        for x, face in fits[:n]:
            chosen.append((x, face))
            used.add(id(x))
    capacity = [r.capacity for r in rep.racers]
    if None not in capacity and len(chosen) > sum(capacity):
        return None, over_capacity(rep.shown, sum(capacity))
    return chosen, None


def bad_count(kind: str, n: Any) -> str | None:
    """Why a count of `kind` cannot be taken (not a whole number within bounds), or None."""
    if type(n) is not int or not 0 <= n <= MAX_COUNT:
        return f"the count of {kind} must be {_COUNT}"
    return None


def too_many(shown: str, n: int, what: str, fits: int) -> str:
    """Why `shown` cannot have claimed `n` of a kind (`what`) when `fits` are left."""
    return (f"{shown} cannot have claimed {n} {what}: "
            + (f"only {fits} can still be claimed" if fits else "none can still be claimed"))


def over_capacity(shown: str, most: int) -> str:
    return f"{shown} can hold at most {most}"


def give(rep: Reporter, chosen: list, taken: set[int]) -> list:
    """The claims of `rep` made so: its first racer holds them, each die showing the face the
    counts say it shows. Returns the dice whose face was unknown until now (`take_back`)."""
    seen = []
    for x, face in chosen:
        if face is not None and getattr(x, "face", face) is None:
            x.face = face  # the table saw it: a counted die's face is known from now on
            seen.append(x)
        taken.add(id(x))
    rep.racers[0].claims = [x for x, _ in chosen]
    for r in rep.racers[1:]:
        r.claims = []
    for r in rep.racers:
        r.reported = True
    return seen


def take_back(rep: Reporter, seen: list, taken: set[int]) -> None:
    """`give` undone (the table took back a report before the race was over)."""
    for x in rep.racers[0].claims:
        taken.discard(id(x))
    for x in seen:
        x.face = None
    for r in rep.racers:
        r.claims, r.reported = [], False


def scripted(spec, env, racers: list, pool: list, entry: dict) -> dict[str, dict[str, int]]:
    """A scripted entry's counts given to the racers (a bad entry is a located error); the
    counts as they are logged: every reporter with every kind."""
    counts = entry.get("counts")
    if spec.counts is None:
        raise counts_undeclared(spec.id, spec.path)
    if not isinstance(counts, dict):
        raise counts_not_a_map(spec.id, spec.path)
    reps = reporters(spec, env, racers)
    names = [rep.name for rep in reps]
    kinds = [k.name for k in spec.counts]
    for name, per in counts.items():
        if name not in names:
            raise unknown_reporter(name, spec.id, names, spec.path)
        if not isinstance(per, dict) or any(k not in kinds for k in per):
            raise counts_of_unknown_kinds(name, spec.id, kinds, spec.path)
    taken: set[int] = set()
    for rep in reps:
        rep.counts = {k: (counts.get(rep.name) or {}).get(k, 0) for k in kinds}
        chosen, why = take(spec, env, rep, rep.counts, pool, taken)
        if chosen is None:
            raise impossible_counts(spec.id, why, spec.path)
        give(rep, chosen, taken)
    return {rep.name: rep.counts for rep in reps}


def question(spec, rep: Reporter, raising: str) -> str:
    """The table's question for one reporter's counts."""
    names = [k.name for k in spec.counts]
    how = (f"{len(names)} numbers, or " + " ".join(f"{n}=N" for n in names)
           if len(names) != 1 else "a number")
    return f"{rep.shown}: how many {', '.join(names)}? ({how}; nothing for none{raising}): "


def heading(spec, pool: list) -> str:
    """What the table counts, said once before the questions."""
    lines = [f"{readable(spec.id)}! count what each claimed ({len(pool)} items were up for "
             "grabs):"]
    lines += [f"  {k.name}: {k.label}" for k in spec.counts if k.label]
    return "\n".join(lines)
