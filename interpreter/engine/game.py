"""Phase 6, run (engine): one game of a compiled `Program`, from setup to the result.

Input: a `Program`, the number of players, one controller per seat, a chance source, a clock
and optional scripted decisions. Output: a `Result` (scores, placements, winners, counts) and
the game's log: every roll, draw, decision, trigger and line of narration as plain records.

The flow: `game_start`, then phases from `flow.start`. A phase runs `on_begin`, then passes of
its `do` (with `turns`, one turn per player in turn order, a pass being a round), then `on_end`
and goes to its `next`. After every operation `after_op` counts the step against the budget,
runs the checks until none holds and ends the game when `end.when` holds. Triggers fire in
priority order, at most one per group. Time advances only through `advance` (modelled clock) or
by itself (real clock); timers and hazard events are resolved in time order as it passes.

`Game` is made of mixins, one module each: the table built at setup (building.py), decisions
asked (asking.py) and the standings at the end (results.py).
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from dsl.compiler import Env, OverBudget, metered
from interpreter.engine.asking import GameAsking
from interpreter.engine.building import GameBuilding
from interpreter.engine.chance import ChanceSource
from interpreter.engine.clock import ModelledClock
from interpreter.engine.decisions import Controller
from interpreter.engine.program import Program
from interpreter.engine.results import GameResults, Result
from interpreter.engine.script_errors import no_turn_here
from interpreter.engine.signals import (
    Break,
    EndGame,
    EndPhase,
    EndTurn,
    Goto,
    RuleError,
    calls_too_deep,
    checks_hold,
    counted_passes,
    items_past_steps,
    past_passes,
    past_steps,
    past_turns,
    triggers_too_deep,
    unheld,
    zone_full,
)
from interpreter.engine.values import (
    Player,
    Timer,
    Zone,
    plain,
    ref,
)


@dataclass
class Game(GameBuilding, GameAsking, GameResults):
    program: Program
    players_n: int
    controllers: list[Controller]
    chance: ChanceSource
    clock: Any = field(default_factory=ModelledClock)
    decisions: list = field(default_factory=list)   # scripted answers, taken first
    seed: Any = 0
    narrator: Any = None                              # a callable(record) for live output
    script_only: bool = False                         # no controller once the script ends

    def __post_init__(self) -> None:
        p = self.program
        self.limits = p.limits
        self.log: list[dict] = []
        self.narrating = True
        self.decision_rng = random.Random(f"{self.seed}:decisions")
        watch = getattr(self.chance, "watch", None)
        if watch is not None:  # the table asks a hidden roll of whoever may see it, and so on
            watch(self)
        self.forced = deque(self.decisions)
        self.unruled: dict = {}
        self.uses: dict = {}
        self.steps = self.turn = self.round = self.rolls = self.phase_count = 0
        self.depth = 0           # nested trigger firings and procedure calls
        self.in_checks = False
        self.hazard_queries = 0
        self.phase: str | None = None
        self.in_turn = False     # a turn's steps are running (else setup, a phase's on_begin...)
        self._where: dict[int, Zone] = {}  # item id -> the zone it was last put in
        self.watch_changes = "changed" in p.triggers
        self.on_decision = None      # called with (game, request) before each decision
        # Called with (game, player) after each turn that runs to its end; not after the turn
        # in which the game ends (a watcher looks at the final state itself, as simulate does).
        self.on_turn_end = None
        self.logging = True          # False: keep no log (bulk simulation needs none)
        self.fired: dict[str, int] = {}     # trigger name -> times it fired
        self.chosen: dict[tuple, int] = {}  # (decision id, answer key) -> times taken
        self.expected_state = None   # a restored snapshot's state (interpreter/table/snapshot.py)
        self.check_restored = None   # (game) -> None, called when the replay reaches it
        self.work = 0                # items expressions went through (charge), in the budget
        self.replay_until = 0
        # Where a game from a position goes on (interpreter/table/position.py): the phase it
        # begins at instead of game_start and flow.start; the player whose turn the first
        # round goes on at (inside that phase); the round and turn state that turn keeps.
        self.begin: str | None = None
        self.resume: Player | None = None
        self.kept: dict[str, Any] = {}
        self.triggers = p.triggers
        with metered(self.charge):  # initial values are expressions too
            self._build_state()

    # -- running ---------------------------------------------------------------------------------
    def run(self) -> Result:
        """Plays the game to its end. A `RuleError` ends it early, reported in the result."""
        with metered(self.charge):  # comprehensions' work counts in the step budget
            return self._play()

    def _play(self) -> Result:
        reason = ""
        winners = None
        error = None
        try:
            try:
                if self.begin is None:
                    self.fire("game_start", {})
                name = self.program.start if self.begin is None else self.begin
                while name != "end":
                    name = self._run_phase(name)
                reason = "the flow reached its end"
            except EndGame as e:
                reason, winners = e.reason, e.winners
            except (EndTurn, EndPhase, Break, Goto) as e:
                raise unheld(type(e), e.path) from None
        except RuleError as e:
            error = e
            reason = f"stopped: {e.message}"
        except RecursionError:
            error = RuleError("budget-exceeded", "procedures and triggers nest too deeply")
            reason = f"stopped: {error.message}"
        result = self._result(reason, winners, error)
        self.record("end", reason=reason, winners=result.winners,
                    scores={s.name: plain(s.score) for s in result.seats},
                    hazard_queries=self.hazard_queries)
        return result

    def _run_phase(self, name: str) -> str:
        ph = self.program.phases[name]
        self.phase = name
        self.phase_count += 1
        self.record("phase", phase=name)
        target = None
        env = self.env
        try:
            if self.resume is None:  # a position inside the phase has its beginning behind it
                ph.on_begin(self, env)
                self.fire("phase_start", {"phase": name})
            where = ("flow", "phases", name, "repeat")
            n_times = counted_passes(ph.times(env), "times", where + ("times",)) \
                if ph.times is not None else (
                    None if (ph.until is not None or ph.while_ is not None) else 1)
            cap = counted_passes(ph.most(env), "max", where + ("max",)) \
                if ph.most is not None else None
            passes = 0
            while n_times is None or passes < n_times:
                if ph.while_ is not None and not ph.while_(env):
                    break
                passes += 1
                past = past_passes(passes, cap, self.limits["max_loop"], f"phase '{name}'",
                                   where + ("max",), where)
                if past is not None:
                    raise past
                if ph.turns is not None:
                    stop = self._run_round(ph)
                else:
                    ph.do(self, env)
                    stop = False
                if stop or (ph.until is not None and ph.until(env)):
                    break
        except EndPhase:
            pass
        except Goto as g:
            target = g.phase
        ph.on_end(self, env)
        self.fire("phase_end", {"phase": name})
        if target is not None:
            return target
        for test, to in ph.next:
            if test is None or test(env):
                return to
        return "end"

    def _run_round(self, ph) -> bool:
        """One pass over the players. Returns True when the phase's `until` stopped it."""
        env = self.env
        resume, self.resume = self.resume, None
        if resume is None:
            self.round += 1
        env["round"] = self.round
        self._reset("round")
        if resume is None:
            self.fire("round_start", {"round": self.round})
        else:
            env.update(self.kept)
        players = self.players
        if ph.by is not None:
            order = sorted(players, key=lambda p: ph.by(Env({"player": p}, env)))
        else:
            first = ph.first(env) if ph.first is not None else players[0]
            if first is None:
                first = players[0]
            i = players.index(first)
            order = players[i:] + players[:i]
            if ph.turns.get("order") == "counterclockwise":
                order = [order[0]] + order[:0:-1]
        if ph.turns.get("by_team") and self.teams:
            # Turns go to teams in the order of their first seat: `current` is the leader (or
            # the first member still in), so a team plays once a round however many seats.
            seen: list = []
            for p in order:
                if p.team is not None and p.team not in seen:
                    seen.append(p.team)
            order = [next((m for m in t.members if not m.eliminated), t.members[0])
                     for t in seen]
        if resume is not None:  # the players before it in this round have had their turn
            if resume not in order:
                raise no_turn_here(resume.name, ph.name)
            order = order[order.index(resume):]
        stop = False
        for p in order:
            if p.eliminated:
                continue
            if ph.skip is not None and ph.skip(Env({"player": p}, env)):
                continue
            self._run_turn(ph, p, p is resume)
            if ph.until is not None and ph.until(env):
                stop = True
                break
        self.fire("round_end", {"round": self.round})
        return stop

    def _run_turn(self, ph, player: Player, resumed: bool = False) -> None:
        env = self.env
        if not resumed:
            self.turn += 1
        if self.turn > self.limits["max_turns"]:
            raise past_turns(self.limits["max_turns"], ph.name)
        self.current = player
        env["current"] = player
        env["turn"] = self.turn
        self._reset("turn")
        if resumed:
            env.update(self.kept)
        self.record("turn", player=player.name, turn=self.turn, round=self.round)
        self.in_turn = True
        try:
            self.fire("turn_start", {"player": player})
            ph.do(self, env)
        except EndTurn:
            pass
        try:
            self.fire("turn_end", {"player": player})
        except EndTurn:
            pass
        self.in_turn = False
        if self.on_turn_end is not None:
            self.on_turn_end(self, player)

    # -- after every operation -------------------------------------------------------------------
    def charge(self, items: int, pos: Any) -> None:
        """The work meter of expressions (dsl/compiler.py METER): items that comprehensions and
        built-ins over lists go through count in the step budget like steps."""
        self.work += items
        if self.work + self.steps > self.limits["max_steps"]:
            raise OverBudget(items_past_steps(self.limits["max_steps"]), pos)

    def after_op(self, writes: frozenset | None = None) -> None:
        """After an operation that wrote `writes` (None: anything): the step budget, then the
        checks and the end condition, when they read something that was written."""
        self.steps += 1
        if self.steps > self.limits["max_steps"]:
            raise past_steps(self.limits["max_steps"])
        if self.in_checks:
            return
        watched = self.program.watched
        if writes is not None and watched is not None and watched.isdisjoint(writes):
            return
        pending = self._run_checks() if self.program.checks else None
        if self.program.end_when is not None and self.program.end_when(self.env):
            raise EndGame(self.program.data["end"].get("doc") or "the end condition holds")
        if pending is not None:
            raise pending

    def _check_bindings(self, check) -> list[tuple[Any, dict, Player | None]]:
        """Where a check is examined: for each player still in, each team, or once."""
        if check.for_each == "player":
            return [(Env({"player": p}, self.env), {"player": p.name}, p)
                    for p in self.players if not p.eliminated]
        if check.for_each == "team":
            return [(Env({"team": tm}, self.env), {"team": tm.name}, None) for tm in self.teams]
        return [(self.env, {}, None)]

    def _run_checks(self) -> Exception | None:
        """Runs the checks until none holds. An interrupt raised by a check's steps (an
        `end_turn` when the current player is eliminated) waits until every check has run and
        the end condition has been examined; it is returned, to be raised then."""
        self.in_checks = True
        pending = None
        try:
            for _ in range(self.limits["max_chain_depth"]):
                fired = False
                for check in self.program.checks:
                    for scope, who, player in self._check_bindings(check):
                        if player is not None and player.eliminated:
                            continue  # eliminated by an earlier binding's steps
                        if not check.when(scope):
                            continue
                        self.record("check", check=check.name, **who)
                        fired = True
                        try:
                            check.run(self, scope)
                        except (EndTurn, EndPhase, Goto) as signal:
                            pending = pending or signal
                if not fired:
                    return pending
            raise checks_hold(self.limits["max_chain_depth"])
        finally:
            self.in_checks = False

    def loop_budget(self, passes: int, path: tuple) -> None:
        past = past_passes(passes, None, self.limits["max_loop"], "", (), path)
        if past is not None:
            raise past

    def enter_call(self, proc: str, path: tuple) -> None:
        self.depth += 1
        if self.depth > self.limits["max_chain_depth"] * 4:
            self.depth -= 1
            raise calls_too_deep(self.limits["max_chain_depth"], proc, path)

    # -- events ----------------------------------------------------------------------------------
    def fire(self, event: str, fields: dict) -> None:
        triggers = self.triggers.get(event)
        if not triggers:
            return
        self.depth += 1
        try:
            if self.depth > self.limits["max_chain_depth"]:
                raise triggers_too_deep(self.limits["max_chain_depth"], event, triggers[0].name)
            scope = Env({"event": fields}, self.env)
            done_groups = set()
            for trig in triggers:
                if trig.group is not None and trig.group in done_groups:
                    continue
                if trig.cond is not None and not trig.cond(scope):
                    continue
                if trig.group is not None:
                    done_groups.add(trig.group)
                self.fired[trig.name] = self.fired.get(trig.name, 0) + 1
                if self.narrating:
                    self.record("trigger", trigger=trig.name, event=event)
                trig.run(self, scope)
        finally:
            self.depth -= 1

    # -- time -----------------------------------------------------------------------------------
    def start_timer(self, name: str, seconds: float) -> None:
        t = self.timers[name]
        t.seconds, t.started_at, t.running, t.owner = seconds, self.clock.now(), True, self.current
        self.record("timer", timer=name, action="start", seconds=seconds)

    def stop_timer(self, name: str) -> None:
        t = self.timers[name]
        if t.running:
            t.running = False
            t.stopped_at = self.clock.now()
            self.record("timer", timer=name, action="stop", left=round(
                max(0, t.deadline - t.stopped_at), 3))

    def advance(self, seconds: float) -> None:
        """Modelled time passes: timers that run out and hazard events that happen within it
        fire in time order, each at its moment (a step interrupted by one never completes)."""
        if self.clock.real:
            return  # real time passes by itself; timers are polled at each decision
        if seconds <= 0:
            return
        start = self.clock.now()
        end = start + seconds
        pending: list[tuple[float, int, str, str]] = []
        for t in self.timers.values():
            if t.running and t.deadline <= end:
                pending.append((t.deadline, 0, "timer", t.name))
        for event, rate, during in self.program.hazards:
            if during is not None and not during(self.env):
                continue
            self.hazard_queries += 1
            at = self.chance.hazard(event, rate(self.env), seconds)
            if at is not None:
                # Logged with its query number, so a replay answers every query the same.
                self.record("hazard", event=event, query=self.hazard_queries, at=at)
                pending.append((start + at, 1, "event", event))
        pending.sort()
        for at, _, kind, name in pending:
            self.clock.set(max(self.clock.now(), at))
            if kind == "timer":
                t = self.timers[name]
                if t.running and t.deadline <= self.clock.now():
                    self._expire(t)
            else:
                self.raise_event(name)
        self.clock.set(end)

    def poll_timers(self) -> None:
        now = self.clock.now()
        for t in self.timers.values():
            if t.running and t.deadline <= now:
                self._expire(t)

    def next_deadline(self) -> float | None:
        ds = [t.deadline for t in self.timers.values() if t.running]
        return min(ds) if ds else None

    def _expire(self, t: Timer) -> None:
        t.running = False
        t.stopped_at = t.deadline
        self.record("timer", timer=t.name, action="expired")
        self.fire("timer_expired", {"timer": t})

    # -- zones ----------------------------------------------------------------------------------
    def put(self, items: list, target: Any, path: tuple, at_start: bool = False) -> None:
        for it in items:
            old = self.zone_of(it)
            if old is not None:
                old.items.remove(it)
        if target == "out":
            for it in items:
                it.zone = ""
            return
        if not isinstance(target, Zone):
            raise RuleError("runtime-error", f"items can only go to a zone or 'out', not "
                            f"{target!r}", path)
        if target.capacity is not None and len(target.items) + len(items) > target.capacity:
            raise zone_full(target.id, target.capacity, path)
        for it in items:
            it.zone = target.id
        if at_start:
            target.items[:0] = items
        else:
            target.items.extend(items)
        self._where.update({id(it): target for it in items})

    def private(self, items: list) -> list[dict] | None:
        """The items lying in a zone that not every player sees, by zone: its id, its owner,
        who sees it (`to`) and the items' places in `items`; None when all lie in the open.
        Rolls, draws and moves record it, so narration shows each viewer only what they may
        see (a roll in a player's cup is theirs alone)."""
        groups: dict[str, dict] = {}
        for i, it in enumerate(items):
            z = self.zone_of(it)
            to = z.seen_by(self.players) if z is not None else None
            if to is None:
                continue
            if z.id not in groups:
                groups[z.id] = {"zone": z.id, "owner": getattr(z.owner, "name", None), "to": to,
                                "items": []}
            groups[z.id]["items"].append(i)
        return list(groups.values()) or None

    def record_items(self, kind: str, moved: list, unseen: set[int] | None = None,
                     **data: Any) -> None:
        """A record of items that moved or were rolled, with `private` when some lie hidden.
        `unseen`, for a move: the places of the items that were out of sight before it (an
        item people saw go into a bag or a cup is no secret); None for a roll."""
        if self.logging:
            private = self.private(moved)
            if private and unseen is not None:
                for g in private:
                    g["items"] = [i for i in g["items"] if i in unseen]
                private = [g for g in private if g["items"]]
            self.record(kind, **data, **({"private": private} if private else {}))

    def unseen(self, items: list) -> set[int]:
        """The places of the items lying in a zone that not every player sees."""
        return {i for i, it in enumerate(items)
                if (z := self.zone_of(it)) is not None and z.seen_by(self.players) is not None}

    def zone_of(self, item: Any) -> Zone | None:
        z = self._where.get(id(item))
        if z is not None and item in z.items:
            return z
        return None

    # -- output ----------------------------------------------------------------------------------
    def record(self, kind: str, **data: Any) -> None:
        if not self.logging:
            return
        rec = {"t": kind, **data}
        self.log.append(rec)
        if self.narrator is not None:
            self.narrator(self, rec)

    def narrate(self, text: str, to: Any = None) -> None:
        if to is None:
            self.record("say", text=text)
        else:
            to = to if isinstance(to, (list, tuple)) else [to]
            self.record("say", text=text, to=[ref(p) for p in to])
