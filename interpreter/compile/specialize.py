"""Phase 5b, compile for simulation (specializer): a whole all-bot game as one Python function.

Input: a compiled `Program` (its checked `data`, `symbols`, parameter values and policies) and
a seat configuration (players, and which controller each seat plays). Output: a `Specialized`
whose `play(seed)` plays one seeded game with no log and returns the interpreter's `Result`,
trigger counts (`fired`), decision counts (`chosen`) and policy gaps (`unruled`); with
`logged=True`, one that also writes the game's log as the interpreter writes it
(`play_logged`, interpreter/compile/records.py); or None when the ruleset uses something this
module does not specialize (callers keep the interpreter).

How (DESIGN §9, "compile further"): the generic state model of interpreter/engine/game.py (env
dicts, `Player` objects, `Request`s, exceptions per step) is replaced by Python locals. Each
state variable becomes a local (global, turn and round scope) or a list indexed by seat (player
scope); each die's face a local; players are seat indexes; parameters are constants, so
conditions on them are folded when generating (a branch no setting reaches is not generated).
Phases, rounds, turns, steps, procedures and triggers are written out inline where the
interpreter would run them, policies as if/elif chains at each decision, the modelled clock,
timers and hazards inline where time advances. The source is built from checked expression
nodes (dsl/parser.parse_expression) and effect fields, never from user text: names become
identifiers chosen here, strings become `repr` constants.

Supported: phases with turns (clockwise, counterclockwise, `first`, `skip`; the eliminated
have none), repeat `times`/`while`/`until`/`max`, `next` with conditions, `on_begin`/`on_end`;
the effects `set`, `add` (numbers, items to a list), `roll` (dice fixed at compile time),
`if`, `repeat`, `for_each`, `call`, `emit` (no fields), `break`, `end_turn`, `end_phase`, `goto`,
`start_timer`, `stop_timer`, `wait`, `say` (silent), `eliminate`, `transfer` (a number per
player, the bank), `end_game`; the modelled `race` of players (interpreter/compile/races.py);
zones and the dice that move between them, `move`, `draw`, `let`
(interpreter/compile/zones.py); `choose` and `actions` (interpreter/compile/decisions.py: one
decider, `by`, named options with `if`, `do`, `duration`, `limit`, `cost`, `pass`, options
given by a list of players, dice, numbers or texts, number choices with `min` and `max`);
checks for each player or once (interpreter/compile/checks.py); triggers with priorities and
consecutive groups; `end.when`; hazards; scoring by `score`, `tie_break`, `eligible`,
`winners`; policies (interpreter/compile/policies.py: `when`, `choose` of a name or a value,
`best`, `random`, `options`, `me`, `let`, also names that read `option`) and random seats.
Expressions: numbers, texts, booleans, players (possibly none in player state), dice, timers,
zones, lists of those; the built-ins any, all, count, sum, max, min, abs, total, doubles,
remaining, first, last, opponents, next_player, highest, lowest, faces, range. Teams
(interpreter/compile/teams.py): team state (lists too, read and set at an index), zones per
team, `teams`, `p.team`, a team's name, leader and members, `turns.by_team`. Grids
(interpreter/compile/grids.py: cells as their ids, `GRID[id]`, `GRID.cells`, attributes,
neighbours, direction, distance, adjacent, row, column, cell state that may be none), decks
and cards (interpreter/compile/cards.py: cards as numbers with tables of their fields, a map
field too, in zones of every kind, `shuffle`, `deal`, draws and moves of several), maps and
lists of lists (interpreter/compile/maps.py: map state set at a key, `get`, `in`, `keys`;
what a list, map or decision holds learned from the writes to it, before writing the game),
`sort_by`, `sort`, `unique`, `text`, `first`/`last` of cells and cards, a policy's `options`
read as a list (interpreter/compile/kinds.py), a number chosen by every player, `sealed`, and
`turns: {order: by}` (interpreter/compile/deciders.py); `changed` triggers and the fields of
an event emitted `with` them (interpreter/compile/effects.py `fire`). Anything else (races of
teams, options chosen by several players, a capacity that is not a number known now, a
trigger that fires itself too deep to write out...) returns None.

Why the results equal the interpreter's: the generated code performs the same chance calls in
the same order (`faces[int(rnd() * sides)]` per die, one `_randbelow(len(items))` per blind
draw as SeededChance.pick's `random.sample`, several as its `sample`, a shuffle as
SeededChance.order's `shuffle`, the hazard formula of SeededChance on the same
generator, the decision generator `Random(f"{seed}:decisions")` used as random_pick
uses it), counts steps, turns, rounds and rolls where the interpreter does, and fires triggers
in the same order under the same conditions. Where the language and Python could differ, the
generator refuses: every expression has a kind known when generating (int, number, bool,
text, player, dice...) and only operations whose Python meaning equals the language's for
those kinds are emitted. What can still go wrong at run time (a die read before it was
rolled, a division by zero, a budget: steps and the work meter, turns, loop passes, chain
depth, a scripted entry the game cannot take) stops the generated code where the interpreter
stops, with its located error (interpreter/compile/stops.py); where the fast version does not
test it there, it plays the seed again in the checked version, which does. A whole number
past SAFE_INT, which the fast code does not follow, hands the seed to the checked version too
(`Fallback`; interpreter/compile/numbers.py). An error the checked version meets without
locating it is a fault of the generator, reported, never played by the interpreter instead
(interpreter/compile/played.py `GeneratorFault`). The
tests/test_specialize*.py files compare both on many seeds.

The writer is one class made of mixins, one module each: expressions (exprs.py), steps and
triggers (effects.py), timers and the modelled clock (clock.py), the game's frame, phases,
rounds, turns and scoring (flow.py), decisions (decisions.py), the seats' controllers at a
decision (policies.py), races (races.py), zones (zones.py), checks (checks.py), teams
(teams.py), grids (grids.py), cards (cards.py), maps and learned kinds (maps.py), the
expressions of those kinds (kinds.py), decisions by several players (deciders.py) and the
records of a logged game (records.py); this module holds the names it works out first
(state, dice, seats) and `specialize`. The vocabulary the writers
share (`Ex`, `_Ctx`, the signals) is interpreter/compile/base.py.
"""

from __future__ import annotations

import math
import random
from typing import Any

from dsl.limits import MAX_PIECES
from interpreter.compile.base import (
    _NO,
    HOIST_FAILED,
    ITEM_KINDS,
    RULE_ERRORS,
    SAFE_INT,
    Ex,
    Fallback,
    PastSteps,
    Stop,
    Unsupported,
    Wider,
    _Die,
    _EndGame,
    _EndPhase,
    _EndTurn,
    _lit,
    _node,
    added,
    data_values,
    divided,
    halt,
    item_at,
    item_getter,
    joined,
    listed,
    looked,
    negated,
    ordered,
    over,
    over_at,
    set_in,
    some,
    span,
    times,
    tried,
    unseen,
    whole,
    with_private,
    within,
)
from interpreter.compile.cards import CardWriter
from interpreter.compile.checks import CheckWriter
from interpreter.compile.clock import ClockWriter
from interpreter.compile.counts import CountsWriter, counts_script, give, take_back
from interpreter.compile.deciders import DeciderWriter
from interpreter.compile.decisions import DecisionWriter
from interpreter.compile.effects import EffectWriter
from interpreter.compile.exprs import ExprWriter
from interpreter.compile.flow import FlowWriter
from interpreter.compile.grids import GridWriter
from interpreter.compile.kinds import KindWriter
from interpreter.compile.known import known_flags
from interpreter.compile.maps import MapWriter, a_map, map_value
from interpreter.compile.memo import MemoWriter, remember
from interpreter.compile.meter import MeterWriter
from interpreter.compile.numbers import (
    CHECKED_NAMES,
    NumberWriter,
    called,
    checked_numbers,
    clamped,
    least,
    minus,
    most,
    plus,
)
from interpreter.compile.people import PeopleWriter, Person
from interpreter.compile.phases import PhaseWriter
from interpreter.compile.played import Called, Played, Specialized
from interpreter.compile.policies import PolicyWriter
from interpreter.compile.positions import PositionWriter
from interpreter.compile.races import RaceWriter
from interpreter.compile.raised import RaisedWriter, raise_entry
from interpreter.compile.records import RecordWriter, name_or_none, revealed_zone
from interpreter.compile.rule_data import all_step_lists, list_paths, walk_steps
from interpreter.compile.scripted import forced_number, forced_pick, forced_value, race_script
from interpreter.compile.stops import StopWriter
from interpreter.compile.teams import TeamWriter
from interpreter.compile.zones import ZoneWriter
from interpreter.engine.asking import TIMEOUT, Raised, ScriptEnded
from interpreter.engine.counted import bad_count, over_capacity, too_many
from interpreter.engine.decisions import PolicyController, RandomController
from interpreter.engine.program import Program
from interpreter.engine.reads import target_writes
from interpreter.engine.script_errors import no_turn_here
from interpreter.engine.words import items_words

__all__ = ["Ex", "Fallback", "Played", "Stop", "Specialized", "Unsupported", "specialize"]


def _kind_of_decl(spec: Any) -> tuple[str, Any, bool]:
    """A state variable's kind, its initial value, and whether that value is expression text
    (as program._initial reads it: the short form is always a literal)."""
    if not isinstance(spec, dict):
        t = {bool: "bool", int: "int", float: "num", str: "str", list: "list"}.get(type(spec))
        if t is None:
            raise Unsupported("state")
        return t, spec, False
    t = {"int": "int", "number": "num", "bool": "bool", "string": "str",
         "list": "list", "player": "player", "die": "dref", "team": "team", "cell": "cell",
         "card": "card", "map": "map"}.get(spec.get("type", "int"))
    if t is None:
        raise Unsupported("state type")
    default = {"int": 0, "num": 0, "bool": False, "str": "", "list": [], "player": None,
               "dref": None, "team": None, "cell": None, "card": None, "map": {}}[t]
    init = spec.get("initial", default)
    return t, init, isinstance(init, str)


class _Gen(MemoWriter, MapWriter, KindWriter, GridWriter, CardWriter, DeciderWriter, ExprWriter,
           MeterWriter, NumberWriter,
           EffectWriter, FlowWriter, CheckWriter, DecisionWriter, PolicyWriter, RaceWriter,
           ZoneWriter, TeamWriter, RecordWriter, ClockWriter, PeopleWriter, RaisedWriter,
           PositionWriter, PhaseWriter, CountsWriter, StopWriter):
    """Writes the source of one game's function for one seat configuration."""

    def __init__(self, program: Program, players: int, controllers: list[Any], track: bool,
                 logged: bool = False, live: bool = False, table: str | None = None,
                 script_only: bool = False, positioned: bool = False, out: bool = False,
                 wide: bool = False, loose: bool = False):
        self.p = program
        self.loose = loose  # dice as numbers, though no zone holds them (zones.py)
        self.wide = wide  # the checked version: each +, - and * tested (numbers.py)
        self.data = program.data
        self.n = players
        self.controllers = controllers
        self.track = track
        self.logged = logged  # the game writes its log (interpreter/compile/records.py)
        # People play it at the table, on real time (interpreter/compile/people.py).
        self.live = live
        self.table = table  # a referee's table types the chance in (people.py)
        self.script_only = script_only  # decisions come from the log alone (a replay)
        self.positioned = positioned  # the game may begin at a position (positions.py)
        self.out = out  # ... where someone is out
        # Per raised event and depth, the function that raises it (raised.py), and their lines.
        self.raisers: dict[tuple, str | None] = {}
        self.raiser_lines: list[str] = []
        self.step_path: tuple | None = None  # the data path of the step being written
        self.phase_name = ""  # the phase being written (its turns' budget names it)
        self.lines: list[str] = []
        self.paths = list_paths(program.data)  # id of a step list -> its data path
        self.consts: dict[str, Any] = {}
        self.temps = 0
        self.fired: list[str] = []                 # counter index -> trigger name
        self.chosen: list[tuple] = []              # counter index -> (decision id, key)
        self.chosen_base: dict[str, int] = {}
        self.unruled: list[tuple] = []             # counter index -> (policy, decision id)
        self.trig_index: dict[int, int] = {}
        self.max_steps = program.limits["max_steps"]
        self.max_loop = program.limits["max_loop"]
        self.max_chain = program.limits["max_chain_depth"]
        self.watched = program.watched
        self.uses: dict[tuple, int] = {}           # (decision id, option, period) -> counter
        self.keyed_counts = False                  # decisions counted by answer in `CD`
        self.flag_exits = 0                        # `end_turn`s written as a flag and break
        self.few: set[str] = set()  # loops over a stretch's events (EffectWriter.after_loop)
        self.ch_locals: set[int] = set()           # decision counters kept in locals `chK`
        self._names()

    # -- names -----------------------------------------------------------------------------------
    def _names(self) -> None:
        data = self.data
        self._team_setup()
        self.checks = self._check_specs()
        steps = [s for steps in all_step_lists(data) for s in walk_steps(steps)]
        # Whether anyone can be eliminated (or is out at the position the game begins at):
        # if not, `eliminated` is false throughout.
        self.elim = self.out or any(isinstance(s, dict) and "eliminate" in s for s in steps)
        written = set()
        for s in steps:
            if isinstance(s, dict):
                for key in ("set", "add"):
                    if isinstance(s.get(key), dict):
                        written |= {target_writes(t) for t in s[key]}
                if "transfer" in s:
                    written.add(s.get("of"))
        comps = data.get("components") or {}
        for key in comps:
            if key not in ("dice", "timers", "zones", "grids", "decks"):
                raise Unsupported(key, ("components", key))
        self.params = dict(self.p.parameters)
        self.vars: dict[str, tuple[str, str, str]] = {}   # name -> (scope, python name, kind)
        self.inits: dict[str, Any] = {}
        for scope, decls in (data.get("state") or {}).items():
            if scope not in ("global", "player", "turn", "round") and not (
                    scope == "team" and self.team_names):
                raise Unsupported(f"{scope} state")
            for name, spec in (decls or {}).items():
                kind, init, is_expr = _kind_of_decl(spec)
                self.vars[name] = (scope, f"{'P' if scope == 'player' else 'V'}_{name}", kind)
                self.inits[name] = (init, is_expr)
        self.list_kinds: dict[str, str | None] = {k: None for k, v in self.vars.items()
                                                   if v[2] == "list"}
        self.fixed: dict[str, Ex] = {}  # global state no step writes: its initial value
        # A race's id holds each racer's claims (interpreter/compile/races.py).
        self.races = {s["race"] for s in steps if isinstance(s, dict) and "race" in s}
        # Bulk code: a decision's legal options as one flag each, by its list's name
        # (interpreter/compile/decisions.py `_legal_flags`).
        self.flags: dict[str, list[str]] = {}
        self.decisions: dict[str, str] = {}
        for did, opts in self.p.symbols.decision_options.items():
            # Options named by texts, or by whole numbers (`options: [1, 2, 3]`).
            self.decisions[did] = ("int" if all(type(v) is int for v in opts) else "str") \
                if opts else "?"
        self.dice: dict[str, tuple[_Die, ...]] = {}
        self.single: set[str] = set()
        self._zone_setup(comps)  # with zones, every die is a number known at run time
        self._card_setup(comps)  # cards as numbers (interpreter/compile/cards.py)
        self._grid_setup(comps)  # cells as their ids (interpreter/compile/grids.py)
        for name, spec in ({} if self.dyn else comps.get("dice") or {}).items():
            if "in" in spec:
                raise Unsupported("dice in zones")
            faces = tuple(spec["faces"]) if "faces" in spec else tuple(
                range(1, self._const(spec.get("sides", 6)) + 1))
            if not faces or not (all(type(f) is int for f in faces)
                                 or all(type(f) is str for f in faces)):
                raise Unsupported("faces")
            attrs = spec.get("attributes") or {}
            # Faces in a row kept as their index in the fast version where no log nor position
            # reads them (base.py); the checked version, which locates errors, keeps the faces.
            off = faces[0] if (type(faces[0]) is int
                               and not (self.logged or self.positioned or self.wide)
                               and faces == tuple(range(faces[0], faces[0] + len(faces)))) else 0
            if "count" in spec:
                k = self._const(spec["count"])
                self.dice[name] = tuple(_Die(f"F_{name}_{i}", faces, f"{name}[{i}]", attrs, off)
                                        for i in range(k))
            else:
                self.dice[name] = (_Die(f"F_{name}", faces, name, attrs, off),)
                self.single.add(name)
        self.timers = list(comps.get("timers") or {})
        names = data["players"].get("seat_names") or []
        self.seat_names = [names[i] if i < len(names) else f"Player {i + 1}"
                           for i in range(self.n)]
        self._infer_lists()
        for name, (scope, _, kind) in self.vars.items():
            init, is_expr = self.inits[name]
            if scope == "global" and name not in written and kind != "list":
                try:
                    e = self.expr(_node(init), {}) if is_expr else _lit(init)
                except Unsupported:
                    continue
                if e.const is not _NO and (self._fits(kind, e.kind) or e.kind == "none"):
                    self.fixed[name] = e
        # Decisions whose options are a list (of players, dice, numbers...) hold one of its
        # items, and a number choice a number (at every site).
        sites: dict[str, set] = {}
        for s in steps:
            did = s.get("choose", s.get("actions")) if isinstance(s, dict) else None
            if not isinstance(did, str):
                continue
            kind = "?"
            if isinstance(s.get("options"), str):
                try:
                    kind = self.expr(_node(s["options"]), {}).kind
                except Unsupported:
                    pass
            if "choose" in s and "options" not in s:
                item = self._number_kind(did)
            else:
                item = {"list:player": "player", "list:dref": "dref", "zone": self.item_kind,
                        "list:card": "card", "list:cell": "cell",
                        "list:int": "int", "list:num": "num", "list:str": "str"}.get(kind, "?")
            sites.setdefault(did, set()).add(item)
        for did, kinds in sites.items():
            if self.decisions.get(did) == "?" and len(kinds) == 1 and kinds != {"?"}:
                self.decisions[did] = kinds.pop()
        self._decider_kinds(steps)  # interpreter/compile/deciders.py
        self._learned_decisions()  # interpreter/compile/maps.py

    def _const(self, value: Any) -> Any:
        """A number of dice or sides, known now: up to MAX_PIECES, else refused (the
        interpreter's setup stops with its located error; a million dice never get a local
        each here)."""
        v = self.expr(_node(value), {}).const
        if type(v) is not int:
            raise Unsupported("a count known only at run time")
        if not 0 <= v <= MAX_PIECES:
            raise Unsupported(f"a number of dice or sides past {MAX_PIECES:,}")
        return v

    def _infer_lists(self) -> None:
        """The item kind of each list variable, from what is assigned to it (to a fixed
        point: an assignment may read the list itself)."""
        sets, adds = [], []
        for steps in all_step_lists(self.data):
            for step in walk_steps(steps):
                if isinstance(step, dict) and "set" in step and isinstance(step["set"], dict):
                    sets += [(t, v) for t, v in step["set"].items() if t in self.list_kinds]
                if isinstance(step, dict) and "add" in step and isinstance(step["add"], dict):
                    adds += [(t, v) for t, v in step["add"].items() if t in self.list_kinds]
        for name in self.list_kinds:
            init, is_expr = self.inits[name]
            if is_expr:
                sets.append((name, init))
        for _ in range(len(sets) + 1):
            progress = False
            for target, value in sets:
                if self.list_kinds[target] is not None:
                    continue
                try:
                    kind = self.expr(_node(value), {}).kind
                except Unsupported:
                    continue
                if kind.startswith("list:") and kind != "list:?":
                    self.list_kinds[target] = kind
                    progress = True
            for target, value in adds:  # adding an item (or a list of them) to the list
                if self.list_kinds[target] is not None:
                    continue
                try:
                    kind = self.expr(_node(value), {}).kind
                except Unsupported:
                    continue
                if kind != "list:?" and kind.split(":")[-1] in ITEM_KINDS:
                    self.list_kinds[target] = kind if kind.startswith("list:") else "list:" + kind
                    progress = True
            if not progress:
                break

    def _seats(self, hint: str, value: Any) -> str:
        """A constant about seats (a table or a function), made once per generator."""
        name = f"_{hint}S"
        self.consts.setdefault(name, value)
        return name

    def temp(self, hint: str = "t") -> str:
        self.temps += 1
        return f"_{hint}{self.temps}"

    def const(self, value: Any, hint: str = "K") -> str:
        name = f"_{hint}{len(self.consts)}"
        self.consts[name] = value
        return name

    def emit(self, depth: int, line: str) -> None:
        self.lines.append("    " * depth + line)



_UNSET = object()  # a policy's `let` name not worked out yet in this decision


def specialize(program: Program, players: int | None = None,
               seats: dict[int, str] | None = None,
               refused: list | None = None, logged: bool = False,
               live: bool = False, table: str | None = None,
               script_only: bool = False, positioned: bool = False,
               out: bool = False, tracked_only: bool = False,
               wide: bool = False) -> Specialized | None:
    """The ruleset and seats as one generated function, or None when something in them is not
    specialized (the interpreter then plays); `refused` then gets the `Unsupported` that says
    what and where. `logged`: the function also writes the game's log, record for record as
    the interpreter's game writes it (`Specialized.play_logged`; no tracked function).
    `live` (with `logged`): people play some seats (`human`), on real time; their decisions
    go to the caller's door (interpreter/compile/people.py). `table` (with `logged`): a
    referee's table types the dice and blind draws in ("faces"; "counting": the dice of zones
    it counts are counted, not typed). `script_only` (with `logged`): every decision is
    taken from the scripted answers, nobody asked (a replay: `ScriptEnded` where they end).
    `positioned` (with `logged`): the game may begin at a position (`meeple run --from`):
    the function takes the caller's positioned game (interpreter/compile/positions.py);
    `out`: a player is out there (so the code keeps who is out, as when rules eliminate).
    `tracked_only` (without `logged`): only the function a bulk run plays, which also tracks
    the standings (`play_tracked`; `play_raw` is None): writing the other too doubled the
    code generator's work before the first game.
    `wide`: the checked version (interpreter/compile/numbers.py), which a game past ±SAFE_INT
    goes on with (`Specialized.widened`); written from the start for a ruleset whose own
    numbers lie past it."""
    from interpreter.engine.setup import controller_for, player_count
    try:
        n = player_count(program, players)
    except Exception:
        return None
    seats = dict(seats or {})
    controllers = []
    for i in range(n):
        if live and logged and seats.get(i + 1) == "human":
            controllers.append(Person())
            continue
        try:
            ctrl = controller_for(program, seats.get(i + 1))
        except Exception:
            return None
        if not isinstance(ctrl, (PolicyController, RandomController)):
            return None
        controllers.append(ctrl)
    wide = wide or _past_safe(program.data)
    options = (logged, live, table, script_only, positioned, out, tracked_only)
    try:
        with checked_numbers(wide):
            special = _dice_either_way(program, n, seats, controllers, options, wide)
        if not wide:  # the checked version, made when a game first needs it
            special.widen = lambda: specialize(program, players, seats, None, *options,
                                               wide=True)
        return special
    except Wider as u:  # a number known when generating lies past ±SAFE_INT
        if not wide:
            return specialize(program, players, seats, refused, *options, wide=True)
        if refused is not None:
            refused.append(u)
        return None
    except Unsupported as u:
        if refused is not None:
            refused.append(u)
        return None
    except (RecursionError, SyntaxError, KeyError) as err:  # the generator's own failure
        if refused is not None:
            refused.append(Unsupported(f"something the code generator failed on ({err!r})"))
        return None


def _dice_either_way(program: Program, n: int, seats: dict, controllers: list,
                     options: tuple, wide: bool) -> Specialized:
    """`_written`; where that refuses a ruleset whose dice lie in no zone (each die a name of
    the code's own, its face a local: the fastest), written again with the dice as numbers,
    as zones hold them (a loop over a set of dice, a die in a list or an event...). Both are
    the one generator's; the first that writes the rules plays every game (where neither
    does, the first's refusal is told)."""
    try:
        return _written(program, n, seats, controllers, options, wide)
    except Wider:
        raise
    except Unsupported as first:
        comps = program.data.get("components") or {}
        if comps.get("zones") or not comps.get("dice"):
            raise
        try:
            return _written(program, n, seats, controllers, options, wide, loose=True)
        except Wider:
            raise
        except Unsupported:
            raise first from None  # what the rules need of the first, told first


def _past_safe(data: Any) -> bool:
    """Whether the ruleset's data holds a whole number past ±SAFE_INT (a parameter, a
    component's attribute, an initial value), which the fast version cannot hold."""
    return any(type(x) is int and not -SAFE_INT <= x <= SAFE_INT for x in data_values(data))


def _written(program: Program, n: int, seats: dict, controllers: list, options: tuple,
             wide: bool, loose: bool = False) -> Specialized:
    """The generated functions for these seats (`specialize`'s work, which it catches)."""
    logged, live, table, script_only, positioned, out, tracked_only = options
    fns = []
    sources = []
    counted = []  # per function: what each of its counters counts
    gen = None
    # A logged game is one function (it learns kinds as the first of the two does).
    kinds = (((False, True),) if logged else ((True, False),) if tracked_only
             else ((False, False), (True, False)))
    for track, logs in kinds:
        learned = gen.learned if gen is not None else None
        gen = _Gen(program, n, controllers, track, logs, live and logs,
                   table if logs else None, script_only and logs, positioned and logs,
                   out and logs, wide, loose)
        if learned:  # the kinds the first writer learned hold for the second (maps.py)
            gen.learned = learned
            gen._restart()
        source = gen.generate()
        # known.py, for the fast versions alone: a bulk run's games pay back its reading.
        source, tree = (source, None) if logs else known_flags(source)
        kind = "logged" if logs else "tracked" if track else "game"
        code = compile(source if tree is None else tree, f"<meeple specialized {kind}>", "exec")
        names = {"_Random": random.Random, "_SPARE": [], "_log1p": math.log1p, "_Fallback": Fallback,
                 "_Stop": Stop, "_PastSteps": PastSteps, "_within": within, "_whole": whole,
                 "_over": over, "_over_at": over_at, "_halt": halt, "_divided": divided,
                 "_negated": negated, "_joined": joined, "_called": called, "_most": most,
                 "_least": least, "_clamped": clamped, "_item_at": item_at, "_getter": item_getter,
                 "_map_value": map_value, "_a_map": a_map, "_looked": looked, "_some": some,
                 "_listed": listed, "_span": span, "_set_in": set_in, "_unseen": unseen,
                 "_private": with_private, "_revealed_zone": revealed_zone,
                 "_name_or_none": name_or_none, "_items_words": items_words,
                 "_forced_pick": forced_pick, "_forced_value": forced_value,
                 "_forced_number": forced_number, "_tried": tried, "_HF": HOIST_FAILED,
                 "_RULE_ERRORS": RULE_ERRORS, "_log": math.log, "_inf": math.inf, "_times": times,
                 "_plus": plus, "_added": added, "_minus": minus, "_ordered": ordered,
                 "_EndTurn": _EndTurn, "_EndPhase": _EndPhase, "_EndGame": _EndGame,
                 "_U": _UNSET, "_remember": remember, "_TIMEOUT": TIMEOUT,
                 "_ScriptEnded": ScriptEnded, "_Raised": Raised, "_Called": Called,
                 "_raise_entry": raise_entry, "_race_script": race_script,
                 "_counts_script": counts_script, "_give": give, "_take_back": take_back,
                 "_bad_count": bad_count, "_too_many": too_many,
                 "_over_capacity": over_capacity, "_no_turn_here": no_turn_here,
                 **(CHECKED_NAMES if wide else {}), **gen.consts}
        exec(code, names)  # noqa: S102 - built from checked nodes, never from user text
        fns.append(names["play"])
        sources.append(source)
        counted.append((tuple(gen.fired), tuple(gen.chosen), tuple(gen.unruled)))
    sc = program.data.get("scoring") or {}
    if len(fns) == 1:  # one function (logged, or tracked alone): it counts in both places
        fns, counted = [fns[0], None] if logged else [None, fns[0]], [counted[0]] * 2
    return Specialized(program, n, seats, sources[0], fns[0], fns[1], gen.seat_names,
                       [c.name for c in controllers], sc.get("order", "highest"),
                       sc.get("ties", "shared"), "score" in sc,
                       seat_teams=[gen.team_names[t] for t in gen.seat_team],
                       counted=tuple(counted), wide=wide)
