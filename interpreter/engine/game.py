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
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from dsl.compiler import Env, OverBudget, metered
from dsl.limits import MAX_PIECES
from interpreter.engine.chance import ChanceSource
from interpreter.engine.clock import ModelledClock
from interpreter.engine.compile_expr import cond, expr
from interpreter.engine.decisions import Controller, Option, Request, answer_key
from interpreter.engine.program import Program
from interpreter.engine.signals import Break, EndGame, EndPhase, EndTurn, Goto, RuleError
from interpreter.engine.values import (
    Card,
    Cell,
    Die,
    Grid,
    Player,
    Team,
    Timer,
    Zone,
    declare_fields,
    plain,
    ref,
    show,
)


@dataclass
class SeatResult:
    seat: int
    name: str
    controller: str
    score: Any
    placement: int
    eliminated: bool
    team: str | None = None  # the seat's team, in a team game
    eligible: bool | None = None  # whether `scoring.eligible` let it win (None: no such rule)


@dataclass
class Result:
    winners: list[str]
    seats: list[SeatResult]
    reason: str
    rounds: int
    turns: int
    steps: int
    rolls: int
    seconds: float  # modelled (or real) time the game took
    error: RuleError | None = None

    def to_json(self) -> dict:
        return {
            "winners": self.winners,
            "seats": [{k: v for k, v in s.__dict__.items()
                       if k not in ("team", "eligible") or v is not None} for s in self.seats],
            "reason": self.reason, "rounds": self.rounds, "turns": self.turns,
            "steps": self.steps, "rolls": self.rolls, "seconds": round(self.seconds, 3),
        }


TIMEOUT = object()  # a controller's answer when a timer ran out before a person answered


@dataclass
class Raised:
    """A controller's answer when a person raised an event instead of deciding."""

    event: str
    by: str | None = None


class ScriptEnded(Exception):  # noqa: N818 - a signal to the caller, not a failure
    """Scripted decisions ran out where the caller asked them to be the only source."""


# An interrupt that nothing around it takes (a procedure's `break` called outside any loop,
# an `end_turn` called where there are no turns), told in the language's words.
_NOTHING_TAKES = {
    Break: "'break' ran outside any repeat or for_each",
    EndTurn: "'end_turn' ran outside a turn",
    EndPhase: "'end_phase' ran outside a phase",
    Goto: "'goto' ran outside a phase",
}
_NOTHING_TAKES_HINT = {
    Break: "a procedure's break leaves the loop around its call: call it inside a repeat or "
           "for_each, or end the procedure another way",
    EndTurn: "call this where players take turns (a phase with `turns`)",
    EndPhase: "use it in a phase's steps or in a procedure called from them",
    Goto: "use it in a phase's steps or in a procedure called from them",
}


@dataclass
class Game:
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
        if watch is not None:  # the table asks a hidden roll of whoever may see it
            watch(self.private)
        self.forced = deque(self.decisions)
        self.unruled: dict = {}
        self.uses: dict = {}
        self.steps = self.turn = self.round = self.rolls = self.phase_count = 0
        self.depth = 0           # nested trigger firings and procedure calls
        self.in_checks = False
        self.hazard_queries = 0
        self.phase: str | None = None
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
        self.triggers = p.triggers
        with metered(self.charge):  # initial values are expressions too
            self._build_state()

    # -- setup -----------------------------------------------------------------------------------
    def _build_state(self) -> None:
        p, data = self.program, self.program.data
        env: dict[str, Any] = dict(p.parameters)
        self.env = env
        names = (data["players"].get("seat_names") or [])
        self.players: list[Player] = []
        for i in range(self.players_n):
            self.players.append(Player(i + 1, names[i] if i < len(names) else f"Player {i + 1}",
                                       self.players))
        env["players"] = self.players
        self.current = self.players[0]
        env["current"] = self.current
        env["round"] = env["turn"] = 0
        teams = data.get("teams")
        if teams:
            self.teams = [Team(t) for t in teams["names"]]
            k = len(self.teams)
            for i, pl in enumerate(self.players):
                idx = i % k if teams.get("assign", "alternate") == "alternate" else min(
                    k - 1, i * k // self.players_n)
                pl.team = self.teams[idx]
                self.teams[idx].members.append(pl)
            env["teams"] = self.teams
        else:
            self.teams = []
        for did in p.symbols.decisions:
            env[did] = None
        self._build_components(data.get("components") or {})
        # State: global first (its initial values may read parameters and components), then
        # per player (may read `player`), per team; turn and round state are set when they begin.
        for name, init in p.state.get("global", {}).items():
            env[name] = init(env)
        zones = (data.get("components") or {}).get("zones") or {}
        for owner, objs in (("player", self.players), ("team", self.teams)):
            owned = [z for z, spec in zones.items() if spec.get("owner", "none") == owner]
            for obj in objs:
                # Expressions may read (and set and add write) only the declared fields.
                declare_fields(obj, owned, p.state.get(owner, {}))
                scope = Env({owner: obj}, env)
                for name, init in p.state.get(owner, {}).items():
                    setattr(obj, name, init(scope))
        self._reset("turn")
        self._reset("round")

    def _build_components(self, comps: dict) -> None:
        env = self.env
        self.zones: dict[str, Zone] = {}
        for name, spec in (comps.get("zones") or {}).items():
            cap = spec.get("capacity")
            owner = spec.get("owner", "none")
            vis = spec.get("visibility", "public")
            kind = spec.get("kind", "pool")
            if owner == "player":
                for pl in self.players:
                    z = Zone(f"{pl.name}.{name}", kind, None, pl, vis)
                    z.capacity = _int(cap, Env({"player": pl}, env)) if cap is not None else None
                    setattr(pl, name, z)
            elif owner == "team":
                for tm in self.teams:
                    setattr(tm, name, Zone(f"{tm.name}.{name}", kind, None, tm, vis))
            else:
                z = Zone(name, kind, _int(cap, env) if cap is not None else None, None, vis)
                self.zones[name] = z
                env[name] = z
        for name, spec in (comps.get("dice") or {}).items():
            where = ("components", "dice", name)
            faces = list(spec["faces"]) if "faces" in spec else list(
                range(1, _pieces(spec.get("sides", 6), env, where + ("sides",)) + 1))
            attrs = spec.get("attributes") or {}
            if "count" in spec:
                dice = [Die(f"{name}[{i}]", name, faces, attrs)
                        for i in range(_pieces(spec["count"], env, where + ("count",)))]
                env[name] = dice
            else:
                dice = [Die(name, name, faces, attrs)]
                env[name] = dice[0]
            if "in" in spec:
                self.put(dice, self.zones[spec["in"]], ("components", "dice", name, "in"))
        for name, spec in (comps.get("decks") or {}).items():
            cards = [Card(f"{name}[{i}]", name, c, spec.get("known_by"))
                     for i, c in enumerate(spec["cards"])]
            env[name] = cards
            if "in" in spec:
                self.put(cards, self.zones[spec["in"]], ("components", "decks", name, "in"))
        for name, spec in (comps.get("grids") or {}).items():
            env[name] = _grid(name, spec)
        self.timers: dict[str, Timer] = {}
        for name, spec in (comps.get("timers") or {}).items():
            t = Timer(name, self.clock, spec.get("visibility", "public"))
            self.timers[name] = t
            env[name] = t

    def _reset(self, scope: str) -> None:
        for name, init in self.program.state.get(scope, {}).items():
            self.env[name] = init(self.env)

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
                self.fire("game_start", {})
                name = self.program.start
                while name != "end":
                    name = self._run_phase(name)
                reason = "the flow reached its end"
            except EndGame as e:
                reason, winners = e.reason, e.winners
            except (EndTurn, EndPhase, Break, Goto) as e:
                raise RuleError("runtime-error", _NOTHING_TAKES[type(e)], e.path,
                                hint=_NOTHING_TAKES_HINT[type(e)]) from None
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
            ph.on_begin(self, env)
            self.fire("phase_start", {"phase": name})
            n_times = ph.times(env) if ph.times is not None else (
                None if (ph.until is not None or ph.while_ is not None) else 1)
            cap = ph.most(env) if ph.most is not None else None
            passes = 0
            while n_times is None or passes < n_times:
                if ph.while_ is not None and not ph.while_(env):
                    break
                passes += 1
                if cap is not None and passes > cap:
                    raise RuleError("budget-exceeded", f"phase '{name}' ran more than its max "
                                    f"of {cap} passes", ("flow", "phases", name, "repeat", "max"))
                self.loop_budget(passes, ("flow", "phases", name, "repeat"))
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
        self.round += 1
        env["round"] = self.round
        self._reset("round")
        self.fire("round_start", {"round": self.round})
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
        stop = False
        for p in order:
            if p.eliminated:
                continue
            if ph.skip is not None and ph.skip(Env({"player": p}, env)):
                continue
            self._run_turn(ph, p)
            if ph.until is not None and ph.until(env):
                stop = True
                break
        self.fire("round_end", {"round": self.round})
        return stop

    def _run_turn(self, ph, player: Player) -> None:
        env = self.env
        self.turn += 1
        if self.turn > self.limits["max_turns"]:
            raise RuleError("budget-exceeded", f"the game went past {self.limits['max_turns']} "
                            f"turns (limits.max_turns)", ("flow", "phases", ph.name),
                            hint="a phase's repeat may never end")
        self.current = player
        env["current"] = player
        env["turn"] = self.turn
        self._reset("turn")
        self.record("turn", player=player.name, turn=self.turn, round=self.round)
        try:
            self.fire("turn_start", {"player": player})
            ph.do(self, env)
        except EndTurn:
            pass
        try:
            self.fire("turn_end", {"player": player})
        except EndTurn:
            pass
        if self.on_turn_end is not None:
            self.on_turn_end(self, player)

    # -- after every operation -------------------------------------------------------------------
    def charge(self, items: int, pos: Any) -> None:
        """The work meter of expressions (dsl/compiler.py METER): items that comprehensions and
        built-ins over lists go through count in the step budget like steps."""
        self.work += items
        if self.work + self.steps > self.limits["max_steps"]:
            raise OverBudget(f"the game went past {self.limits['max_steps']} steps "
                             "(limits.max_steps), counting the items its expressions went "
                             "through", pos)

    def after_op(self, writes: frozenset | None = None) -> None:
        """After an operation that wrote `writes` (None: anything): the step budget, then the
        checks and the end condition, when they read something that was written."""
        self.steps += 1
        if self.steps > self.limits["max_steps"]:
            raise RuleError("budget-exceeded", f"the game went past {self.limits['max_steps']} "
                            "steps (limits.max_steps)")
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
            raise RuleError("budget-exceeded", f"checks still hold after "
                            f"{self.limits['max_chain_depth']} rounds of firing (their steps "
                            "never make their condition false)", ("checks",))
        finally:
            self.in_checks = False

    def loop_budget(self, passes: int, path: tuple) -> None:
        if passes > self.limits["max_loop"]:
            raise RuleError("budget-exceeded", f"a loop ran more than "
                            f"{self.limits['max_loop']} passes (limits.max_loop)", path)

    def enter_call(self, proc: str, path: tuple) -> None:
        self.depth += 1
        if self.depth > self.limits["max_chain_depth"] * 4:
            self.depth -= 1
            raise RuleError("budget-exceeded", f"procedure calls nest deeper than "
                            f"{self.limits['max_chain_depth'] * 4} (calling '{proc}')", path)

    # -- events ----------------------------------------------------------------------------------
    def fire(self, event: str, fields: dict) -> None:
        triggers = self.triggers.get(event)
        if not triggers:
            return
        self.depth += 1
        try:
            if self.depth > self.limits["max_chain_depth"]:
                raise RuleError("budget-exceeded", f"triggers fired each other more than "
                                f"{self.limits['max_chain_depth']} deep (on '{event}')",
                                ("triggers", triggers[0].name))
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

    def raisable(self) -> list[str]:
        """The events people may raise now: declared `raised_by` someone other than the rules,
        and their `during` holds."""
        out = []
        for name, spec in (self.program.data.get("events") or {}).items():
            if spec.get("raised_by", "rules") == "rules":
                continue
            during = spec.get("during")
            if during is not None:
                try:
                    if not cond(during, ("events", name, "during"))(Env({}, self.env)):
                        continue
                except Exception:  # noqa: BLE001 - asking what may be raised never stops a game
                    continue
            out.append(name)
        return out

    def raise_scripted(self, entry: dict, path: tuple = ()) -> None:
        """An event a decision script or a log raises: only one people may raise, by a player
        of this game or the table; anything else is a bad script, located."""
        name, by = entry["raise"], entry.get("by")
        # Outside its `during` an event may be raised, and changes nothing (as a call at the
        # table before it counts); one the rules alone raise, or no event, is a bad script.
        events = [n for n, spec in (self.program.data.get("events") or {}).items()
                  if spec.get("raised_by", "rules") != "rules"]
        if name not in events:
            raise RuleError("bad-input", f"the decision script raises '{name}', which people "
                            "cannot raise; " + (f"events they can: {', '.join(events)}" if events
                                                else "this game has no such event"), path)
        if by is not None and by != "table" and by not in {p.name for p in self.players}:
            raise RuleError("bad-input", f"the decision script has '{name}' raised by '{by}', "
                            "who does not play this game", path)
        self.raise_event(name, by)

    def raise_event(self, name: str, by: str | None = None) -> None:
        """An event raised from outside the rules: by a player at the table (`by`), or by a
        modelled hazard."""
        if by is None:
            self.record("raised", event=name)
        else:
            self.record("raised", event=name, by=by)
        self.fire(name, {"by": by})

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
            raise RuleError("runtime-error", f"zone {target.id} holds at most "
                            f"{target.capacity}", path)
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

    # -- decisions -------------------------------------------------------------------------------
    def decide(self, req: Request) -> Option | int:
        if not req.numeric and not req.options:
            raise RuleError("no-legal-option", f"decision '{req.id}' has no legal option for "
                            f"{req.player.name}", req.path)
        if not (self.forced or self.on_decision or self.script_only or self.clock.real
                or self.expected_state is not None):
            # The common case of a simulation, in short: nothing scripted, nobody watching.
            if len(req.options) == 1 and not req.numeric:
                chosen = req.options[0]
                self._took(req, chosen, only=True)
                return chosen
            chosen = self.controllers[req.player.seat - 1].decide(self, req)
            if chosen is not TIMEOUT and not isinstance(chosen, Raised):
                self._took(req, chosen)
                return chosen
            return self._decide_again(req, chosen)
        return self._decide(req)

    def _decide_again(self, req: Request, answer: Any) -> Option | int:
        """A controller timed out or raised an event in the fast lane: handle it as `_decide`
        would, then ask again."""
        if answer is TIMEOUT:
            self.record("timeout", at=self.clock.now())
            self.poll_timers()
        else:
            self.raise_event(answer.event, answer.by)
        return self._decide(req)

    def _decide(self, req: Request) -> Option | int:
        if not self.forced and getattr(self.clock, "replaying", False):
            self.clock.go_live()  # a resumed live game: the logged part is replayed
        if self.check_restored is not None and len(self.log) >= self.replay_until:
            self.check_restored(self)  # a restored game has replayed to its saved decision
        if self.on_decision is not None:
            self.on_decision(self, req)
        real = self.clock.real
        only = False
        while True:
            asked = self.clock.now() if real else None
            entry = self.forced[0] if self.forced else None
            if isinstance(entry, dict) and "asked" in entry:
                self.clock.set(entry["asked"])  # a replay of live play: the same moments
                asked = entry["asked"]
            if real:
                self.poll_timers()  # a timer that ran out while people thought
            if len(req.options) == 1 and not req.numeric:
                chosen = req.options[0]  # nothing to decide: nobody is asked, no script used
                only = True
                break
            if self.forced:
                entry = self.forced.popleft()
                if isinstance(entry, dict) and "timeout" in entry:
                    self.clock.set(entry["timeout"])
                    self.record("timeout", at=entry["timeout"])
                    self.poll_timers()
                    continue
                if isinstance(entry, dict) and "raise" in entry:
                    self.raise_scripted(entry, req.path)
                    continue
                if isinstance(entry, dict) and "at" in entry:
                    self.clock.set(entry["at"])
                chosen = self._scripted(req, entry)
            elif self.script_only:
                raise ScriptEnded(req.id)
            else:
                chosen = self.controllers[req.player.seat - 1].decide(self, req)
                if chosen is TIMEOUT:
                    self.record("timeout", at=self.clock.now())
                    self.poll_timers()
                    continue
                if isinstance(chosen, Raised):
                    self.raise_event(chosen.event, chosen.by)
                    continue
            break
        if real and not only:
            self._took(req, chosen, asked=asked, at=self.clock.now())
        else:
            self._took(req, chosen, only=only)
        return chosen

    def _took(self, req: Request, chosen: Option | int, only: bool = False, **when) -> None:
        """Counts a decision and logs it. `only`: the one legal option, which a replay does
        not script; `when`: the moments of a live decision (asked, at)."""
        key = answer_key(chosen)
        k = (req.id, key if isinstance(key, (str, int, float, bool)) or key is None
             else str(key))
        self.chosen[k] = self.chosen.get(k, 0) + 1
        if not self.logging:
            return
        if req.sealed:
            when["sealed"] = True  # narrated to its decider only, until the reveal
        if only:
            self.record("decision", id=req.id, by=req.player.name, choice=plain(key),
                        only=True, **when)
        else:
            self.record("decision", id=req.id, by=req.player.name, choice=plain(key), **when)

    def _scripted(self, req: Request, entry: Any) -> Option | int:
        answer = entry
        if isinstance(entry, dict):
            if entry.get("id") not in (None, req.id):
                raise RuleError("bad-input", f"the decision script expected '{entry.get('id')}' "
                                f"but the game asks '{req.id}' of {req.player.name}", req.path)
            answer = entry.get("choice")
        chosen = req.match(answer)
        if chosen is None:
            legal = (f"{req.low}..{req.high}" if req.numeric
                     else ", ".join(str(o.key) for o in req.options))
            raise RuleError("bad-input", f"the decision script answers {answer!r} to "
                            f"'{req.id}' ({req.player.name}), which is not legal now; legal: "
                            f"{legal}", req.path)
        return chosen

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

    # -- result ----------------------------------------------------------------------------------
    def _result(self, reason: str, winners: list | None, error: RuleError | None) -> Result:
        sc = self.program.scoring
        env = self.env
        scores = {}
        for p in self.players:
            scope = Env({"player": p}, env)
            try:
                scores[p.seat] = sc["score"](scope) if "score" in sc else None
            except RuleError as e:
                error = error or e
                scores[p.seat] = None
        pool: list[Player] = []
        if error is None:
            try:
                pool = self._eligible()
                if winners is None:
                    winners = self._winners(scores, pool)
            except RuleError as e:
                error, winners = e, []
        winners = winners or []
        win_seats = {p.seat for p in winners}
        eligible = {p.seat for p in pool}
        sign = -1 if sc["order"] == "lowest" else 1

        def key(p: Player):
            # Winners first, then the eligible (a player who cannot win places below every player
            # who is not, whatever their score), then by score and tie-breaks.
            s = scores[p.seat]
            tb = [f(Env({"player": p}, env)) for f in sc["tie_break"]] if error is None else []
            return (p.seat in win_seats, p.seat in eligible,
                    sign * s if isinstance(s, (int, float)) else 0,
                    [sign * x if isinstance(x, (int, float)) else 0 for x in tb])
        ranked = sorted(self.players, key=key, reverse=True)
        seats = []
        place = 0
        last = None
        for i, p in enumerate(ranked):
            k = key(p)
            if k != last:
                place = i + 1
                last = k
            seats.append(SeatResult(p.seat, p.name, self.controllers[p.seat - 1].name,
                                    plain(scores[p.seat]), place, p.eliminated,
                                    p.team.name if p.team is not None else None,
                                    p.seat in eligible if "eligible" in sc and error is None
                                    else None))
        seats.sort(key=lambda s: s.seat)
        return Result([p.name for p in winners], seats, reason, self.round, self.turn,
                      self.steps, self.rolls, self.clock.now(), error)

    def _eligible(self) -> list[Player]:
        """The players `scoring.eligible` lets win; everyone when nobody (or no rule) is."""
        sc = self.program.scoring
        pool = [p for p in self.players
                if "eligible" not in sc or sc["eligible"](Env({"player": p}, self.env))]
        return pool or list(self.players)

    def _winners(self, scores: dict, pool: list[Player]) -> list[Player]:
        """By `scoring.winners`, else the best score (and tie-breaks) among `pool`, the
        eligible players."""
        sc = self.program.scoring
        env = self.env
        if "winners" in sc:
            return list(sc["winners"](env))
        if "score" not in sc:
            return []
        sign = -1 if sc["order"] == "lowest" else 1

        def key(p):
            scope = Env({"player": p}, env)
            return (sign * scores[p.seat], *[sign * f(scope) for f in sc["tie_break"]])
        best = max(key(p) for p in pool)
        top = [p for p in pool if key(p) == best]
        if len(top) > 1 and sc["ties"] == "draw":
            return []
        return top

    # -- views ----------------------------------------------------------------------------------


def _int(value: Any, env) -> int:
    return expr(value, ())(env)


def _pieces(value: Any, env, path: tuple) -> int:
    """A number of dice or sides: a whole number up to MAX_PIECES, else a located error (a
    set of a billion dice would fill the memory before the game began)."""
    n = expr(value, path)(env)
    if type(n) is not int or not 0 <= n <= MAX_PIECES:
        raise RuleError("limit-exceeded", f"{show(n)} is not a whole number from 0 to "
                        f"{MAX_PIECES:,} (the most dice in a set, or sides of a die)", path)
    return n


def _grid(name: str, spec: dict) -> Grid:
    rows, cols = list(spec["rows"]), list(spec["columns"])
    if len(rows) * len(cols) > MAX_PIECES:
        raise RuleError("limit-exceeded", f"a map of {len(rows) * len(cols):,} cells (the most "
                        f"is {MAX_PIECES:,})", ("components", "grids", name))
    fmt = spec.get("id", "{column}{row}")
    cells = []
    by_rc = {}
    for ri, r in enumerate(rows):
        for ci, c in enumerate(cols):
            cid = fmt.format(column=c, row=r)
            attrs = dict(spec.get("default") or {})
            attrs.update((spec.get("row_attributes") or {}).get(str(r), {}) or {})
            attrs.update((spec.get("row_attributes") or {}).get(r, {}) or {})
            attrs.update((spec.get("column_attributes") or {}).get(str(c), {}) or {})
            attrs.update((spec.get("column_attributes") or {}).get(c, {}) or {})
            attrs.update((spec.get("cells") or {}).get(cid, {}) or {})
            cell = Cell(cid, r, c, ri, ci, attrs)
            cells.append(cell)
            by_rc[(ri, ci)] = cell
    for (ri, ci), cell in by_rc.items():
        cell.neighbours = [by_rc[x] for x in ((ri - 1, ci), (ri, ci + 1), (ri + 1, ci),
                                               (ri, ci - 1)) if x in by_rc]
    return Grid(name, rows, cols, cells)
