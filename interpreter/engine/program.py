"""Phase 5, compile (program): a checked ruleset to a `Program` that games run.

Input: a validated `Document` (variant applied, parameters set) and its `Symbols`. Output:
`Program`: compiled phases, procedures, triggers (sorted by priority, with their groups),
checks, the end condition, scoring and policies. Compiled once; every game of a simulation
shares it and only builds its own state (interpreter/engine/game.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dsl.inherit import resolve_policies
from dsl.limits import DEFAULT_LIMITS
from dsl.symbols import Symbols
from interpreter.engine import compile_expr as cx
from interpreter.engine.decisions import Policy
from interpreter.engine.reads import names_read, union
from interpreter.engine.steps import StepCompiler
from interpreter.engine.values import copied


@dataclass
class Trigger:
    name: str
    event: str
    cond: Any
    run: Any
    priority: int
    group: str | None
    order: int


@dataclass
class Check:
    name: str
    for_each: str | None
    when: Any
    run: Any


@dataclass
class Phase:
    name: str
    spec: dict
    do: Any
    on_begin: Any
    on_end: Any
    turns: dict | None
    first: Any = None
    skip: Any = None
    by: Any = None
    times: Any = None
    until: Any = None
    while_: Any = None
    most: Any = None
    next: list = field(default_factory=list)  # [(cond or None, phase)]


@dataclass
class Program:
    data: dict
    symbols: Symbols
    parameters: dict[str, Any]
    phases: dict[str, Phase]
    start: str
    procedures: dict[str, Any]
    triggers: dict[str, list[Trigger]]
    checks: list[Check]
    end_when: Any
    scoring: dict[str, Any]
    policies: dict[str, Policy]
    default_policy: str | None
    limits: dict[str, int]
    hazards: list[tuple[str, Any, Any]]   # (event, per-second chance, during or None)
    state: dict[str, dict[str, Any]]     # scope -> name -> compiled initial value
    watched: frozenset | None             # names checks and end.when read (None: anything)
    source: Any = None                    # the ruleset's text and positions, set by setup.load,
    positions: Any = None                 # so that an error at setup is located


def compile_program(data: dict, symbols: Symbols, parameters: dict[str, Any],
                    raised: dict[str, int] | None = None) -> Program:
    # Policies that extend others are compiled (and specialized, and written up) whole.
    if data.get("policies"):
        data = {**data, "policies": resolve_policies(data["policies"])[0]}
    # After an operation, checks and the end condition are examined again only when it wrote
    # a name they read (interpreter/engine/reads.py).
    end = data.get("end") or {}
    reads = [names_read(spec["when"]) for spec in (data.get("checks") or {}).values()]
    if "when" in end:
        reads.append(names_read(end["when"]))
    watched = union(reads)
    if watched is not None and data.get("checks"):
        watched |= {"eliminated"}  # checks for each player skip the eliminated

    # The ruleset's own (the schema keeps them under the ceilings), then the person's --limit.
    limits = {**DEFAULT_LIMITS, **(data.get("limits") or {}), **(raised or {})}
    procedures: dict[str, Any] = {}
    sc = StepCompiler(symbols, procedures)
    for name, spec in (data.get("procedures") or {}).items():
        procedures[name] = sc.block(spec.get("do"), ("procedures", name, "do"))

    phases = {}
    for name, spec in data["flow"]["phases"].items():
        path = ("flow", "phases", name)
        turns = spec.get("turns")
        rep = spec.get("repeat") or {}
        ph = Phase(name, spec, sc.block(spec.get("do"), path + ("do",)),
                   sc.block(spec.get("on_begin"), path + ("on_begin",)),
                   sc.block(spec.get("on_end"), path + ("on_end",)), turns)
        if turns:
            tp = path + ("turns",)
            ph.first = cx.expr(turns["first"], tp + ("first",)) if "first" in turns else None
            ph.skip = cx.cond(turns["skip"], tp + ("skip",)) if "skip" in turns else None
            ph.by = cx.expr(turns["by"], tp + ("by",)) if "by" in turns else None
        rp = path + ("repeat",)
        ph.times = cx.expr(rep["times"], rp + ("times",)) if "times" in rep else None
        ph.until = cx.cond(rep["until"], rp + ("until",)) if "until" in rep else None
        ph.while_ = cx.cond(rep["while"], rp + ("while",)) if "while" in rep else None
        ph.most = cx.expr(rep["max"], rp + ("max",)) if "max" in rep else None
        nxt = spec.get("next", "end")
        if isinstance(nxt, str):
            ph.next = [(None, nxt)]
        else:
            ph.next = [(cx.cond(e["if"], path + ("next", i, "if")) if "if" in e else None,
                        e["to"]) for i, e in enumerate(nxt)]
        phases[name] = ph

    triggers: dict[str, list[Trigger]] = {}
    for i, (name, spec) in enumerate((data.get("triggers") or {}).items()):
        path = ("triggers", name)
        trig = Trigger(name, spec["on"], cx.cond(spec["if"], path + ("if",)) if "if" in spec
                       else None, sc.block(spec.get("do"), path + ("do",)),
                       spec.get("priority", 0), spec.get("group"), i)
        triggers.setdefault(trig.event, []).append(trig)
    for lst in triggers.values():
        lst.sort(key=lambda t: (-t.priority, t.order))

    checks = [Check(name, spec.get("for_each"), cx.cond(spec["when"], ("checks", name, "when")),
                    sc.block(spec.get("do"), ("checks", name, "do")))
              for name, spec in (data.get("checks") or {}).items()]

    end_when = cx.cond(end["when"], ("end", "when")) if "when" in end else None

    scoring_spec = data.get("scoring") or {}
    scoring: dict[str, Any] = {"order": scoring_spec.get("order", "highest"),
                               "ties": scoring_spec.get("ties", "shared")}
    if "score" in scoring_spec:
        scoring["score"] = cx.expr(scoring_spec["score"], ("scoring", "score"))
    scoring["tie_break"] = [cx.expr(e, ("scoring", "tie_break", i))
                            for i, e in enumerate(scoring_spec.get("tie_break") or [])]
    if "eligible" in scoring_spec:
        scoring["eligible"] = cx.cond(scoring_spec["eligible"], ("scoring", "eligible"))
    if "winners" in scoring_spec:
        scoring["winners"] = cx.expr(scoring_spec["winners"], ("scoring", "winners"))

    policies = {name: Policy(name, spec, symbols.decision_options)
                for name, spec in (data.get("policies") or {}).items()}
    default_policy = next((n for n, s in (data.get("policies") or {}).items()
                           if s.get("default")), next(iter(policies), None))

    hazards = [(name, cx.expr(spec["hazard"], ("events", name, "hazard")),
                cx.cond(spec["during"], ("events", name, "during")) if "during" in spec else None)
               for name, spec in (data.get("events") or {}).items() if "hazard" in spec]

    state = {}
    for scope, vars_ in (data.get("state") or {}).items():
        state[scope] = {name: _initial(spec, ("state", scope, name))
                        for name, spec in (vars_ or {}).items()}

    phase_names = list(phases)
    return Program(data, symbols, parameters, phases, data["flow"].get("start", phase_names[0]),
                   procedures, triggers, checks, end_when, scoring, policies, default_policy,
                   limits, hazards, state, watched)


_DEFAULTS = {"int": 0, "number": 0, "bool": False, "string": "", "list": [], "map": {}}


def _initial(spec: Any, path: tuple):
    """A state variable's initial value as a function of the env (fresh lists per game)."""
    if not isinstance(spec, dict):
        value = spec  # the short form is a literal value, never an expression
    elif "initial" in spec:
        value = spec["initial"]
        if isinstance(value, str):
            # A value, never shared with where it was read (`b: {initial: "a"}`), as `set`
            # stores one (values.copied).
            read = cx.expr(value, path + ("initial",))
            where = path + ("initial",)
            return lambda env: copied(read(env), where)
    else:
        value = _DEFAULTS.get(spec.get("type", "int"))
    if isinstance(value, (list, dict)):
        import copy
        return lambda env: copy.deepcopy(value)
    return lambda env: value
