"""Phase 6, run (races): a real-time race to claim items, modelled or reported by the table.

Input: the game, a compiled `RaceSpec` (racers, items, and per racer what it wants, its speed,
start latency, error rate, capacity and modelled capacity) and the env of the step. Output: the
race id holds a map from each racer to the items it claimed (the ruleset then moves them where
it wants), one `race` log record (the claims by racer and the seconds the race took), and those
seconds passed on the modelled clock (timers and hazard events within them happen as with any
duration).

Where the claims come from, first that applies:

1. A script (tests, replays, resumes): the next scripted entry
   `{"race": ID, "claims": {racer: [item refs]}, "seconds": S}`, or with counts
   `{"race": ID, "counts": {reporter: {kind: N}}}` (counted.py).
2. The table. In referee play (typed-in chance) the table reports every racer's claims; in
   live play each racer a person controls reports its own. A report is one line of item numbers
   (from the list shown) or item ids; it is refused, with the reason, and asked again when an
   item does not exist, is already claimed by another racer, or the racer would hold more than
   its capacity. A race with `counts` at a counting table (`--dice table`) is reported as how
   many items of each kind each racer (or `counts_per` group) claimed instead (counted.py).
   When some racers nobody reports for (bots in live play) race too, everyone races on the
   model's clocks: a reported racer reaches for what it reported, in order, at its
   own modelled speed, and loses an item another racer reached first (`missed` in the record).
3. The model (simulation). Competing exponential clocks: each racer starts after its `latency`,
   then claims one item at a time at `rate` claims per second (exponential gaps). At each claim
   it takes, with chance `error_rate`, an item it does not want (a misgrab), and otherwise the
   item its seat's policy ranks best for the decision named by the race id (`best:` rules with
   `option` the item and `me` the racer; with no rule, one at random, counted as an unruled
   decision). A racer stops when it holds `capacity` (or `model_capacity`, a physical limit
   only the model keeps) items or nothing it wants is left; the race ends when every racer has
   stopped. Every random number comes through the chance door.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from dsl.compiler import Env
from interpreter.engine import counted
from interpreter.engine.chance import raise_request, raised_later
from interpreter.engine.counted import CountKind
from interpreter.engine.decisions import Request, option_for_value
from interpreter.engine.script_errors import (
    beyond_capacity,
    claimed_before,
    impossible_claims,
    named_twice,
    no_such_item,
    other_race,
)
from interpreter.engine.signals import Undo, bad_race_number, not_a_racer
from interpreter.engine.values import Card, Die, Player, Team, Zone, ref, show, told
from interpreter.engine.words import items_words, label, lower_first, readable


@dataclass
class RaceSpec:
    id: str
    path: tuple
    racers: Any           # f(env) -> list of players or teams
    items: Any            # f(env) -> a zone or a list
    wanted: Any = None    # f(env with racer, item) -> bool; None: every item
    rate: Any = None      # f(env with racer) -> claims per second (default 1)
    latency: Any = None   # f(env with racer) -> seconds before the first claim (default 0)
    error_rate: Any = None
    capacity: Any = None  # None: no limit
    model_capacity: Any = None  # a limit of the model only; reports are not held to it
    counts: list[CountKind] | None = None  # what a counting table reports (counted.py)
    counts_per: Any = None  # f(env with racer) -> who reports together; None: each racer


@dataclass
class Racer:
    """One racer of a race under way: its numbers, what it claimed, what it missed."""

    who: Any
    index: int
    rate: float
    latency: float
    error: float
    capacity: int | None
    model_capacity: int | None  # the lower of the two limits, for the model
    claims: list
    reported: bool = False
    missed: list = field(default_factory=list)  # reported, but another racer was quicker


def run_race(g, spec: RaceSpec, env) -> None:
    racers_v = spec.racers(env)
    racers_v = list(racers_v) if isinstance(racers_v, (list, tuple)) else [racers_v]
    source = spec.items(env)
    pool = list(source.items if isinstance(source, Zone) else source)
    racers = [_racer(g, spec, env, who, i) for i, who in enumerate(racers_v)]
    seconds, uniforms, counts = _scripted(g, spec, env, racers, pool)
    if seconds is None and spec.counts is not None and getattr(g.chance, "counting", False):
        seconds, counts = _counted(g, spec, env, racers, pool)
    if seconds is None:
        seconds = _reported(g, spec, racers, pool)
        if any(not r.reported for r in racers):
            # People race the bots at their seats' modelled speed: what they reported is what
            # they reach for, in order, on the same clocks (an item a bot reaches first is lost).
            modelled, uniforms = _model(g, spec, env, racers, pool)
            seconds = max(seconds, modelled)
    # The race takes its time: timers and hazards within it happen, with the claimed items
    # out of reach (in hands): an event during the race cannot touch them.
    if isinstance(source, Zone):
        _in_hand(g, source, [x for r in racers for x in r.claims], seconds)
    else:
        g.advance(seconds)
    result = {r.who: list(r.claims) for r in racers}
    g.env[spec.id] = result
    missed = {_name(r.who): [str(ref(x)) for x in r.missed] for r in racers if r.missed}
    # `uniforms`: how many random numbers the model drew, so that a resumed seeded game that
    # takes this race from its log draws as many and its later dice stay the same.
    g.record("race", id=spec.id, claims={_name(r.who): [ref(x) for x in r.claims]
                                         for r in racers}, seconds=round(seconds, 3),
             **({"uniforms": uniforms} if uniforms else {}),
             **({"missed": missed} if missed else {}),
             **({"counts": counts} if counts is not None else {}))
    g.fire("decided", {"id": spec.id, "choice": result})
    # Counts tell the faces of the dice they took (counted.py): a face was written.
    g.after_op(frozenset({spec.id, "face"}) if counts is not None else frozenset({spec.id}))


def _in_hand(g, zone: Zone, claimed: list, seconds: float) -> None:
    """Passes the race's time with the claimed items taken out of `zone`, then puts them back
    where they were (the race itself moves nothing: the steps after it do). An item that an
    effect moved meanwhile (naming it: nothing drawing from the zone can reach it) left the
    hand: it stays where it went, and the zone does not get it back."""
    if not claimed or seconds <= 0:
        g.advance(seconds)
        return
    before = list(zone.items)
    held = {id(x) for x in claimed}
    zone.items[:] = [x for x in before if id(x) not in held]
    try:
        g.advance(seconds)
    finally:
        now = {id(x) for x in zone.items}
        kept = {id(x) for x in before}
        # A held item still says it lies in the zone (`put` rewrites `zone` where it goes).
        back = {id(x) for x in claimed if x.zone == zone.id}
        zone.items[:] = [x for x in before if id(x) in back or id(x) in now] + [
            x for x in zone.items if id(x) not in kept]


def _racer(g, spec: RaceSpec, env, who: Any, i: int) -> Racer:
    if not isinstance(who, (Player, Team)):
        raise not_a_racer(who, spec.path)
    scope = Env({"racer": who}, env)

    def number(f, default, field):
        if f is None:
            return default
        v = f(scope)
        if type(v) not in (int, float) or v < 0:
            raise bad_race_number(field, told(v), spec.path)
        return v
    cap = number(spec.capacity, None, "capacity")
    cap = int(cap) if cap is not None else None
    held = number(spec.model_capacity, None, "model_capacity")
    held = cap if held is None else int(held) if cap is None else min(cap, int(held))
    return Racer(who, i, number(spec.rate, 1.0, "rate"), number(spec.latency, 0.0, "latency"),
                  min(1.0, number(spec.error_rate, 0.0, "error_rate")), cap, held, [])


def _name(who: Any) -> str:
    return who.name


# -- 1. a script --------------------------------------------------------------------------------

def _scripted(g, spec: RaceSpec, env, racers: list[Racer],
              pool: list) -> tuple[float | None, int, dict | None]:
    """(seconds, random numbers the logged model drew, the counts when the entry gives
    counts), or (None, 0, None) without a script."""
    while g.forced and isinstance(g.forced[0], dict) and "raise" in g.forced[0]:
        # An event raised while the claims were reported (an event `during` the race): it came
        # before the race's record, and happens again at the same point.
        g.raise_scripted(g.forced.popleft(), spec.path)
    entry = g.forced[0] if g.forced else None
    if not (isinstance(entry, dict) and "race" in entry):
        return None, 0, None
    g.forced.popleft()
    if entry["race"] != spec.id:
        raise other_race(entry["race"], spec.id, spec.path)
    if "counts" in entry:
        return float(entry.get("seconds", 0.0)), 0, counted.scripted(spec, env, racers, pool,
                                                                     entry)
    claims = entry.get("claims") or {}
    for r in racers:
        refs = claims.get(_name(r.who), [])
        items, why = _check(refs, pool, racers, r)
        if items is None:
            raise impossible_claims(_name(r.who), spec.id, why, spec.path)
        r.claims = items
        r.reported = True
        r.missed = list((entry.get("missed") or {}).get(_name(r.who), []))
    uniforms = int(entry.get("uniforms", 0))
    for _ in range(uniforms):
        g.chance.uniform()  # drawn again, unused: the seeded stream stays where it was
    return float(entry.get("seconds", 0.0)), uniforms, None


def _check(refs: list, pool: list, racers: list[Racer], racer: Racer,
           numbered: list | None = None) -> tuple[list | None, str | None]:
    """The items a report names, or (None, why it is refused)."""
    by_ref = {str(ref(x)): x for x in pool}
    out: list = []
    for token in refs:
        t = str(token).strip()
        item = None
        if numbered is not None and t.isdigit() and 1 <= int(t) <= len(numbered):
            item = numbered[int(t) - 1]
        elif t in by_ref:
            item = by_ref[t]
        if item is None:
            return None, no_such_item(t)
        if any(x is item for x in out):
            return None, named_twice(t)
        other = next((r for r in racers if r is not racer and any(x is item for x in r.claims)),
                     None)
        if other is not None:
            return None, claimed_before(str(ref(item)), _name(other.who))
        out.append(item)
    if racer.capacity is not None and len(out) > racer.capacity:
        return None, beyond_capacity(_name(racer.who), racer.capacity)
    return out, None


# -- 2. the table -----------------------------------------------------------------------------------

def reporter(g, racer: Any, path: tuple) -> tuple[Any, str] | None:
    """Who reports this racer's claims (a person at the terminal, the referee's table, or
    nobody: the model claims for it), with the name an event they raise is raised by. A
    person is told the race's `path` (a skill it leaves to them shapes their view)."""
    player = racer.who if isinstance(racer.who, Player) else racer.who.leader
    ctrl = g.controllers[player.seat - 1] if player is not None else None
    if ctrl is not None and hasattr(ctrl, "report"):
        return (lambda game, prompt, parse: ctrl.report(game, prompt, parse, player, path),
                player.name)
    if getattr(g.chance, "live", False) and hasattr(g.chance, "report"):
        return (lambda game, prompt, parse: g.chance.report(prompt, parse)), "table"
    return None


class RaiseNow(Exception):  # noqa: N818 - a request, not an error
    """`!NAME` typed while claims are reported: the event happens now, then they are asked
    again (what it changed, such as a die's new face, shows in the new listing)."""

    def __init__(self, event: str, by: str | None = None):
        super().__init__(event)
        self.event = event
        self.by = by


def raise_reader(g, by: str) -> Callable[[str], tuple[None, str]]:
    """What a `!NAME` line does at a report: raises `RaiseNow` for an event people may raise
    now, else says why not. The table may name who raised it (`!NAME by Player 2`)."""
    def read(word: str) -> tuple[None, str]:
        who = [p.name for p in g.players] if by == "table" else []
        name, raiser, why = raise_request(word, g.raisable(), who, raised_later(g))
        if why is not None:
            return None, why
        raise RaiseNow(name, raiser or by)
    return read


def events_hint(g, counting: bool = False) -> str:
    events = g.raisable()
    if not events:
        return ""
    return (f"; !{' or !'.join(events)} raises an event" if counting
            else f" (!{' or !'.join(events)} raises an event)")


def _counted(g, spec: RaceSpec, env, racers: list[Racer],
             pool: list) -> tuple[float, dict[str, dict[str, int]]]:
    """The table (or a person, for a reporter whose first racer they play) says how many of
    each kind each reporter claimed; each line is checked against what is left and asked
    again until it is possible."""
    start = g.clock.now()
    reps = counted.reporters(spec, env, racers)
    taken: set[int] = set()
    seen: list[list] = []  # per reporter given, the dice whose faces its counts told
    head = counted.heading(spec, pool)
    i = 0
    while i < len(reps):
        rep = reps[i]
        while True:
            try:
                chosen, rep.counts = report_counts(
                    g, spec, rep, head, lambda counts, rep=rep: counted.take(
                        spec, env, rep, counts, pool, taken))
                break
            except RaiseNow as e:
                g.raise_event(e.event, e.by)
            except Undo:
                if i == 0:
                    raise  # nothing of this race is given yet: the last input is undone
                chosen = None  # the report before this one is asked again
                break
        head = ""
        if chosen is None:
            i -= 1
            counted.take_back(reps[i], seen.pop(), taken)
            continue
        seen.append(counted.give(rep, chosen, taken))
        i += 1
    seconds = max(0.0, g.clock.now() - start) if g.clock.real else 0.0
    return seconds, {rep.name: rep.counts for rep in reps}


def report_counts(g, spec: Any, rep: counted.Reporter, heading: str,
                  take: Callable[[dict], tuple]) -> tuple[list, dict]:
    """What a reporter (the table, or a person for a reporter whose first racer they play)
    says it claimed in a race reported by counts: a line of counts per kind, each checked by
    `take` (the items it takes, or why not) and asked again until possible, `heading` said
    first. Returns (the items taken, the counts); `RaiseNow` when they raise an event."""
    ask, by = reporter(g, rep.racers[0], spec.path) or (
        lambda game, prompt, parse: g.chance.report(prompt, parse), "table")
    raising = raise_reader(g, by)
    told: list[dict] = []

    def parse(text: str):
        if text.strip().startswith("!"):
            return raising(text)
        counts, why = counted.parse(text, spec.counts)
        if counts is None:
            return None, why
        chosen, why = take(counts)
        if chosen is None:
            return None, why
        told[:] = [counts]
        return chosen, None
    prompt = (heading + "\n" if heading else "") + counted.question(
        spec, rep, events_hint(g, counting=True))
    return ask(g, prompt, parse), told[0]


def _reported(g, spec: RaceSpec, racers: list[Racer], pool: list) -> float:
    reporters = [(r, reporter(g, r, spec.path)) for r in racers]
    if not any(rep for _, rep in reporters):
        return 0.0
    start = g.clock.now()
    numbered = list(pool)
    for r, rep in reporters:
        if rep is None:
            continue
        while True:
            try:
                r.claims = report_claims(g, spec.id, racers, r, pool, numbered, rep)
                break
            except RaiseNow as e:
                g.raise_event(e.event, e.by)
        r.reported = True
    return max(0.0, g.clock.now() - start) if g.clock.real else 0.0


def report_claims(g, race_id: str, racers: list[Racer], r: Racer, pool: list,
                  numbered: list, rep: tuple[Any, str]) -> list:
    """What `rep` (the racer's reporter and the name an event they raise is raised by) says
    racer `r` claimed, asked until it is possible; `RaiseNow` when they raise an event."""
    ask, by = rep
    cap = f" (at most {r.capacity})" if r.capacity is not None else ""
    raising = raise_reader(g, by)

    def parse(text: str):
        if text.strip().startswith("!"):
            return raising(text)
        return _check(text.replace(",", " ").split(), pool, racers, r, numbered)
    prompt = (f"{readable(race_id)}! {_listing(g, numbered)}\n{_name(r.who)}"
              f"{_side(r.who)}: which did you claim{cap}{events_hint(g)}? numbers "
              f"separated by spaces, nothing for none: ")
    return ask(g, prompt, parse)


def _listing(g, numbered: list, most: int = 8) -> str:
    """The items up for grabs, numbered and named by their labels: each with its number while
    there are few; else a line per component and face, so that a player finds "the red 5s" at
    a glance."""
    if len(numbered) <= most:
        return "  ".join(f"{i}: {_words(g, x)}" for i, x in enumerate(numbered, 1))
    groups: dict[tuple[str, str], list[int]] = {}
    for i, x in enumerate(numbered, 1):
        kind = getattr(x, "kind", None) or getattr(x, "deck", None)
        name = lower_first(label(g, kind)) if kind else _words(g, x)
        face = getattr(x, "face", None)
        groups.setdefault((name, "" if face is None else str(face)), []).append(i)
    lines = [f"  {name}{' showing ' + face if face else ''}: {' '.join(map(str, nums))}"
             for (name, face), nums in sorted(groups.items())]
    return f"{len(numbered)} items, by number:\n" + "\n".join(lines)


def _words(g, x: Any) -> str:
    """One item up for grabs as people name it: a die by its kind and face, a card by name."""
    return items_words(g, [x.id]) if isinstance(x, (Die, Card)) else str(show(x))


def _side(who: Any) -> str:
    """A racer's team, said with its name (a person must know whose colour is whose)."""
    team = getattr(who, "team", None)
    return f" (team {team.name})" if team is not None else ""


# -- 3. the model ----------------------------------------------------------------------------------

class _Uniforms:
    """The model's random numbers, counted (the race's log record says how many)."""

    def __init__(self, g) -> None:
        self.g, self.drawn = g, 0

    def __call__(self) -> float:
        self.drawn += 1
        return self.g.chance.uniform()

    def gap(self, rate: float) -> float:
        if rate <= 0:
            return math.inf
        return -math.log(1.0 - self()) / rate


def _model(g, spec: RaceSpec, env, racers: list[Racer], pool: list) -> tuple[float, int]:
    """(the moment of the last claim, how many random numbers it took). A racer a person
    reported for reaches for what they reported, in order, on its clock like the others."""
    uniform = _Uniforms(g)
    remaining = list(pool)
    intents = {r.index: list(r.claims) for r in racers if r.reported}
    for r in racers:
        if r.reported:
            r.claims = []
    nxt = {r.index: r.latency + uniform.gap(r.rate) for r in racers}
    active = [r for r in racers if nxt[r.index] < math.inf]
    last = 0.0
    while active:
        r = min(active, key=lambda x: (nxt[x.index], x.index))
        if r.reported:
            intent = intents[r.index]
            while intent and not any(x is intent[0] for x in remaining):
                r.missed.append(intent.pop(0))  # another racer reached it first
            if not intent:
                active.remove(r)
                continue
            item = intent.pop(0)
            r.claims.append(item)
            remaining = [x for x in remaining if x is not item]
            last = nxt[r.index]
            nxt[r.index] = last + uniform.gap(r.rate)
            continue
        if r.model_capacity is not None and len(r.claims) >= r.model_capacity:
            active.remove(r)
            continue
        wanted = [x for x in remaining if _wants(spec, env, r.who, x)]
        if not wanted:
            active.remove(r)  # nothing it wants is left: it stops
            continue
        item = None
        if r.error > 0 and uniform() < r.error:
            unwanted = [x for x in remaining if not any(x is w for w in wanted)]
            if unwanted:
                item = unwanted[min(len(unwanted) - 1, int(uniform() * len(unwanted)))]
        if item is None:
            item = _preferred(g, spec, r, wanted)
        r.claims.append(item)
        remaining = [x for x in remaining if x is not item]
        last = nxt[r.index]
        nxt[r.index] = last + uniform.gap(r.rate)
    for r in racers:
        if r.reported:
            r.missed += intents[r.index]  # a racer whose clock never ran reached nothing
    return last, uniform.drawn


def _wants(spec: RaceSpec, env, who: Any, item: Any) -> bool:
    if spec.wanted is None:
        return True
    return spec.wanted(Env({"racer": who, "item": item}, env))


def _preferred(g, spec: RaceSpec, r: Racer, wanted: list) -> Any:
    if len(wanted) == 1:
        return wanted[0]
    player = r.who if isinstance(r.who, Player) else r.who.leader
    req = Request(spec.id, player, [option_for_value(x) for x in wanted], path=spec.path)
    chosen = g.controllers[player.seat - 1].decide(g, req)
    return chosen.value
