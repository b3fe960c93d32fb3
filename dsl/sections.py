"""Phase 4c, check (sections): each top-level section of a ruleset, and the flow's shape.

Input: a `Checker` holding the document and its symbols. Output: diagnostics added to the
checker: parameters within their bounds, components and state well-formed, every phase
reachable and the game able to end, triggers on known events, policies deciding known
decisions with known options, variants setting known parameters.
"""

from __future__ import annotations

from typing import Any

from dsl import nodes as n
from dsl import types as t
from dsl.checker import Checker, Context
from dsl.diagnostics import Diagnostic, suggestion
from dsl.fairness import Secrets, check_policy_reads, restricted
from dsl.inherit import own, resolve_policies
from dsl.loader import Document
from dsl.parser import ExprSyntaxError, parse_expression
from dsl.symbols import BUILTIN_EVENTS, END, Symbols, collect_symbols
from dsl.view_layout import check_view


def check_sections(c: Checker) -> None:
    data = c.doc.data
    _players(c, data.get("players") or {})
    _parameters(c, data.get("parameters") or {})
    _components(c, data.get("components") or {})
    _state(c, data.get("state") or {})
    for name, spec in (data.get("events") or {}).items():
        if "hazard" in spec:
            c.expr(("events", name, "hazard"), spec["hazard"], {}, t.NUMBER, "'hazard'")
        if "during" in spec:
            c.cond(("events", name, "during"), spec["during"], {})
    for name, spec in (data.get("procedures") or {}).items():
        scope = {p: t.ANY for p in spec.get("params") or {}}
        c.steps(("procedures", name, "do"), spec.get("do"), scope, Context("procedure"))
    _flow(c, data.get("flow") or {})
    for name, spec in (data.get("triggers") or {}).items():
        _trigger(c, name, spec)
    for name, spec in (data.get("checks") or {}).items():
        scope = {"player": t.PLAYER} if spec.get("for_each") == "player" else (
            {"team": t.TEAM} if spec.get("for_each") == "team" else {})
        c.cond(("checks", name, "when"), spec.get("when"), scope)
        c.steps(("checks", name, "do"), spec.get("do"), scope, Context("check"))
    end = data.get("end") or {}
    if "when" in end:
        c.cond(("end", "when"), end["when"], {})
    _scoring(c, data.get("scoring") or {})
    _policies(c, data.get("policies") or {})
    _variants(c, data.get("variants") or {})
    check_view(c)
    _ending(c, data)


def _players(c: Checker, players: dict) -> None:
    lo, hi = players.get("min"), players.get("max")
    default = players.get("default", lo)
    if isinstance(lo, int) and isinstance(hi, int):
        if lo > hi:
            c.report("bad-players", f"players: min ({lo}) is more than max ({hi})",
                     ("players", "min"))
        elif isinstance(default, int) and not lo <= default <= hi:
            c.report("bad-players", f"players: default ({default}) is not between min and "
                     f"max ({lo}..{hi})", ("players", "default"))
    _seat_names(c, players.get("seat_names"), hi if isinstance(hi, int) else 0)


MAX_SEAT_NAME = 40


def _seat_names(c: Checker, names: Any, most: int) -> None:
    """Seat names are shown to people and name players in logs and scripts: each is a short
    printable text, and no two seats (nor a seat left to its default `Player N`) share one."""
    if not isinstance(names, list):
        return
    taken = {f"Player {i + 1}" for i in range(len(names), most)}
    for i, name in enumerate(names):
        if not isinstance(name, str):
            continue
        path = ("players", "seat_names", i)
        bad = next((ch for ch in name if not ch.isprintable()), None)
        if not name.strip():
            c.report("bad-players", f"seat name {i + 1} is empty", path)
        elif bad is not None:
            c.report("bad-players", f"seat name {i + 1} holds a control character "
                     f"(U+{ord(bad):04X})", path, "seat names are shown at the terminal; "
                     "write them as plain text")
        elif len(name) > MAX_SEAT_NAME:
            c.report("bad-players", f"seat name {i + 1} is longer than {MAX_SEAT_NAME} "
                     "characters", path)
        elif name in taken:
            c.report("bad-players", f"two seats are named '{name}'", path,
                     "each seat needs its own name: logs and scripts name players by it")
        taken.add(name)


def parameter_problem(spec: dict, value: Any) -> str | None:
    """Why `value` is not allowed for a parameter (None when it is)."""
    kind = spec.get("type")
    if kind is None:
        kind = {bool: "bool", int: "int", float: "number", str: "string"}.get(
            type(spec.get("default")), "string")
    if kind == "bool" and not isinstance(value, bool):
        return f"{value!r} is not true or false"
    if kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
        return f"{value!r} is not a whole number"
    if kind == "number" and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return f"{value!r} is not a number"
    if kind == "string" and not isinstance(value, str):
        return f"{value!r} is not text"
    if kind == "choice":
        choices = spec.get("choices") or []
        if value not in choices:
            return f"{value!r} is not one of {', '.join(map(str, choices))}" + suggestion(
                str(value), [str(x) for x in choices])
    if kind in ("int", "number"):
        if "min" in spec and value < spec["min"]:
            return f"{value} is below the minimum {spec['min']}"
        if "max" in spec and value > spec["max"]:
            return f"{value} is above the maximum {spec['max']}"
    return None


def _parameters(c: Checker, params: dict) -> None:
    for name, spec in params.items():
        if spec.get("type") == "choice" and not spec.get("choices"):
            c.report("bad-parameter-value", f"parameter '{name}' is a choice but lists no "
                     "choices", ("parameters", name), key=True)
            continue
        problem = parameter_problem(spec, spec.get("default"))
        if problem:
            c.report("bad-parameter-value", f"the default of '{name}': {problem}",
                     ("parameters", name, "default"))


def _starts_in(c: Checker, spec: dict, path: tuple, what: str) -> None:
    """`in`, the zone a set of dice or a deck starts in: one zone of the whole table. A zone
    each player (team) has is as many zones: which one would the pieces be in?"""
    if "in" not in spec:
        return
    zone, zones = spec["in"], c.sym.zones
    if zone not in zones:
        c.report("unknown-reference", f"unknown zone '{zone}'{suggestion(zone, set(zones))}",
                 path + ("in",))
    elif zones[zone] in ("player", "team"):
        c.report("unknown-reference", f"'{zone}' is a zone of each {zones[zone]}, not one zone: "
                 f"{what} start in a zone of the whole table", path + ("in",),
                 hint=f"start them in a shared zone and move or deal them to each "
                      f"{zones[zone]}'s {zone} in the first steps")


def _components(c: Checker, comps: dict) -> None:
    for name, spec in (comps.get("dice") or {}).items():
        path = ("components", "dice", name)
        for key in ("sides", "count"):
            if key in spec:
                c.expr(path + (key,), spec[key], {}, t.INT, f"'{key}'")
        if "sides" in spec and "faces" in spec:
            c.report("schema", "give `sides` or `faces`, not both", path + ("faces",), key=True)
        _starts_in(c, spec, path, "dice")
    for name, spec in (comps.get("decks") or {}).items():
        _starts_in(c, spec, ("components", "decks", name), "cards")
    for name, spec in (comps.get("zones") or {}).items():
        if "capacity" in spec:
            c.expr(("components", "zones", name, "capacity"), spec["capacity"], {}, t.INT,
                   "'capacity'")
    for name, spec in (comps.get("grids") or {}).items():
        path = ("components", "grids", name)
        ids = set()
        fmt = spec.get("id", "{column}{row}")
        for col in spec.get("columns") or []:
            for row in spec.get("rows") or []:
                ids.add(fmt.replace("{column}", str(col)).replace("{row}", str(row)))
        for cell in spec.get("cells") or {}:
            if cell not in ids:
                c.report("unknown-reference", f"grid '{name}' has no cell '{cell}'"
                         f"{suggestion(cell, ids)}", path + ("cells", cell), key=True)


def _state(c: Checker, state: dict) -> None:
    for scope_name, vars_ in state.items():
        for name, spec in (vars_ or {}).items():
            if isinstance(spec, dict) and isinstance(spec.get("initial"), str):
                scope = {"player": t.PLAYER} if scope_name == "player" else {}
                got = c.expr(("state", scope_name, name, "initial"), spec["initial"], scope)
                want = t.NAMED.get(spec.get("type", "any"), t.ANY)
                if not t.compatible(want, got) and not (t.is_numeric(want) and
                                                        t.is_numeric(got)) and (
                        got.kind != "none"):  # none: no value yet, as `set` allows
                    c.report("type-mismatch", f"'{name}' is {want}, but its initial value "
                             f"is {got}", ("state", scope_name, name, "initial"))


def _flow(c: Checker, flow: dict) -> None:
    phases = flow.get("phases") or {}
    names = c.sym.phases
    start = flow.get("start", names[0] if names else None)
    if "start" in flow and start not in names:
        c.report("unknown-phase", f"unknown phase '{start}'{suggestion(str(start), names)}",
                 ("flow", "start"))
    edges: dict[str, list[str]] = {}
    for name, spec in phases.items():
        if name == END:
            continue
        path = ("flow", "phases", name)
        c._current_phase = name
        turns = spec.get("turns")
        section = "turns" if turns is not None else "setup"
        player_scope = {"player": t.PLAYER}
        if turns:
            if "by" in turns:
                c.expr(path + ("turns", "by"), turns["by"], player_scope)
            elif turns.get("order") == "by":
                c.report("missing-key", "turns with order: by need a `by` key",
                         path + ("turns", "order"))
            if "first" in turns:
                c.expr(path + ("turns", "first"), turns["first"], {}, t.PLAYER, "'first'")
            if "skip" in turns:
                c.cond(path + ("turns", "skip"), turns["skip"], player_scope)
        repeat = spec.get("repeat")
        if repeat is not None:
            if not any(k in repeat for k in ("times", "until", "while")):
                c.report("no-end", "this phase repeats forever: give its repeat times, until "
                         "or while", path + ("repeat",), key=True)
            if "times" in repeat:
                c.expr(path + ("repeat", "times"), repeat["times"], {}, t.INT, "'times'")
            for key in ("until", "while"):
                if key in repeat:
                    c.cond(path + ("repeat", key), repeat[key], {})
            if "max" in repeat:
                c.expr(path + ("repeat", "max"), repeat["max"], {}, t.INT, "'max'")
        for key in ("on_begin", "on_end"):
            if key in spec:
                c.steps(path + (key,), spec[key], {}, Context("setup"))
        c.steps(path + ("do",), spec.get("do"), {}, Context(section))
        c._current_phase = None
        nxt = spec.get("next", END)
        targets: list[str] = []
        if isinstance(nxt, str):
            targets.append(nxt)
            _phase_ref(c, path + ("next",), nxt)
        elif isinstance(nxt, list):
            for i, rule in enumerate(nxt):
                if "if" in rule:
                    c.cond(path + ("next", i, "if"), rule["if"], {})
                targets.append(rule.get("to"))
                _phase_ref(c, path + ("next", i, "to"), rule.get("to"))
            if nxt and all("if" in r for r in nxt):
                targets.append(END)  # no rule matched: the game ends (documented)
        edges[name] = targets + c.goto_targets.get(name, [])
    _reachability(c, start, edges)
    c._flow_edges = edges  # type: ignore[attr-defined]
    c._flow_start = start  # type: ignore[attr-defined]


def _phase_ref(c: Checker, path: tuple, target: Any) -> None:
    if target != END and target not in c.sym.phases:
        c.report("unknown-phase", f"unknown phase '{target}'"
                 f"{suggestion(str(target), c.sym.phases + [END])}", path,
                 "name a phase under flow.phases, or `end`")


def _reachability(c: Checker, start: str | None, edges: dict[str, list[str]]) -> None:
    if start not in edges:
        return
    anywhere = c.goto_targets.get("*", [])
    seen = {start, *anywhere}
    todo = [start, *anywhere]
    while todo:
        for nxt in edges.get(todo.pop(), []):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    for name in edges:
        if name not in seen:
            c.report("unreachable-phase", f"phase '{name}' can never be reached from "
                     f"'{start}'", ("flow", "phases", name), key=True,
                     hint="name it in another phase's `next`, or remove it")
    c._reaches_end = END in seen  # type: ignore[attr-defined]


def _ending(c: Checker, data: dict) -> None:
    reaches = getattr(c, "_reaches_end", True)
    if reaches or c.ends_by_step or "when" in (data.get("end") or {}):
        return
    c.report("no-end", "the game can never end: no phase leads to `end`, no step ends the "
             "game and there is no `end.when`", ("flow", "phases"), key=True,
             hint="add `next: end` to the last phase")


def _trigger(c: Checker, name: str, spec: dict) -> None:
    path = ("triggers", name)
    on = spec.get("on")
    events = list(BUILTIN_EVENTS) + list(c.sym.events)
    if on not in events:
        c.report("unknown-reference", f"unknown event '{on}'{suggestion(str(on), events)}",
                 path + ("on",), "built-in events: " + ", ".join(BUILTIN_EVENTS))
    scope = {"event": t.ANY}
    if "if" in spec:
        c.cond(path + ("if",), spec["if"], scope)
    c.steps(path + ("do",), spec.get("do"), scope, Context("trigger"))


def _scoring(c: Checker, scoring: dict) -> None:
    scope = {"player": t.PLAYER}
    if "score" in scoring:
        c.expr(("scoring", "score"), scoring["score"], scope, t.NUMBER, "a score")
    for i, expr in enumerate(scoring.get("tie_break") or []):
        c.expr(("scoring", "tie_break", i), expr, scope)
    if "eligible" in scoring:
        c.cond(("scoring", "eligible"), scoring["eligible"], scope)
    if "winners" in scoring:
        c.expr(("scoring", "winners"), scoring["winners"], {}, t.PLAYERS, "the winners")


def _policies(c: Checker, policies: dict) -> None:
    defaults = [name for name, spec in policies.items() if spec.get("default")]
    if len(defaults) > 1:
        c.report("duplicate-name", f"more than one default policy: {', '.join(defaults)}",
                 ("policies", defaults[1], "default"))
    decisions = c.sym.decisions
    secrets = restricted(c.doc.data)
    resolved, problems = resolve_policies(policies)
    for pname, message in problems:
        c.report("unknown-reference", f"policy '{pname}' extends {message}",
                 ("policies", pname, "extends"))
    for pname in policies:
        spec = resolved[pname]
        start = len(c.diags)
        _policy(c, pname, spec, decisions, secrets)
        if isinstance(policies[pname], dict) and "extends" in policies[pname]:
            # What it inherits was checked in the policy it comes from: report it there only.
            decide, lets = own(policies, pname)
            c.diags[start:] = [d for d in c.diags[start:] if not _inherited(d.path, pname,
                                                                             decide, lets)]


def _inherited(path: tuple, pname: str, decide: set, lets: set) -> bool:
    if path[:2] != ("policies", pname) or len(path) < 4:
        return False
    return (path[2] == "decide" and path[3] not in decide) or (
        path[2] == "let" and path[3] not in lets)


def _policy(c: Checker, pname: str, spec: dict, decisions: Any, secrets: Secrets) -> None:
    """Checks one policy (with what it inherits): what it reads (unless it says it sees
    everything), its `let` names, then each decision's rules."""
    if spec.get("sees") != "everything":
        for path, value in _policy_expressions(pname, spec):
            check_policy_reads(c, path, value, pname, secrets)
    # The policy's own `let` names: `everything` is the scope of a `best` (with `option`),
    # `scope` that of `when` and `choose` (without the names that use `option`).
    scope = {"me": t.PLAYER, "options": t.ANY_LIST}
    everything, per_option = {**scope, "option": t.ANY}, {"option"}
    _lets(c, ("policies", pname), spec, everything, scope, per_option, True)
    for dname, rules in (spec.get("decide") or {}).items():
        path = ("policies", pname, "decide", dname)
        if dname not in decisions:
            c.report("unknown-decision", f"no step decides '{dname}'"
                     f"{suggestion(dname, decisions)}", path, key=True,
                     hint="policies decide the ids of choose, actions and race steps")
            continue
        options = c.sym.decision_options.get(dname)
        if not isinstance(rules, list):
            _policy_choice(c, path, rules, options, scope)
            continue
        for i, rule in enumerate(rules):
            if not isinstance(rule, dict):
                continue
            inner = {**everything} if "best" in rule else {**scope}
            before, uses_option = {**scope}, set(per_option)
            _lets(c, path + (i,), rule, inner, before, uses_option, "best" in rule,
                  everything)
            if "when" in rule:
                c.cond(path + (i, "when"), rule["when"], before)
            if "choose" in rule:
                _policy_choice(c, path + (i, "choose"), rule["choose"], options, inner)
            if "best" in rule:
                c.expr(path + (i, "best"), rule["best"], inner)
            if sum(k in rule for k in ("choose", "best", "random")) != 1:
                c.report("schema", "a policy rule needs exactly one of choose, best or "
                         "random", path + (i,))


def _lets(c: Checker, path: tuple, spec: dict, inner: dict, before: dict,
          per_option: set, option_in_reach: bool, taken: dict | None = None) -> None:
    """Checks `let` names in order, adding each to `inner` (the scope of a `best`, where
    `option` is bound) and, unless it uses `option` (directly or through another name, noted
    in `per_option`), to `before` (the scope of `when` and `choose`). A name must be new:
    not in `inner`, `taken` (the policy's own names) or the ruleset's."""
    for name, value in (spec.get("let") or {}).items():
        where = path + ("let", name)
        if name in inner or name in (taken or ()) or name in c.sym.globals:
            c.report("duplicate-name", f"'{name}' already names something here; a `let` "
                     "name must be new", where, key=True)
            continue
        inner[name] = c.expr(where, value, inner)
        if option_in_reach and _mentions(value, per_option):
            per_option.add(name)
        else:
            before[name] = inner[name]


def _policy_expressions(pname: str, spec: dict) -> list[tuple[tuple, Any]]:
    """Every expression of a policy, with its path: lets, conditions and picks."""
    out = [(("policies", pname, "let", k), v) for k, v in (spec.get("let") or {}).items()]
    for dname, rules in (spec.get("decide") or {}).items():
        path = ("policies", pname, "decide", dname)
        if not isinstance(rules, list):
            out.append((path, rules))
            continue
        for i, rule in enumerate(rules):
            if not isinstance(rule, dict):
                continue
            out += [(path + (i, "let", k), v) for k, v in (rule.get("let") or {}).items()]
            out += [(path + (i, k), rule[k]) for k in ("when", "choose", "best") if k in rule]
    return out


def _mentions(value: Any, names: set) -> bool:
    """Whether an expression's text reads any of these bare names."""
    try:
        return isinstance(value, str) and n.mentions(parse_expression(value), names)
    except ExprSyntaxError:
        return False  # reported where it was checked


def _policy_choice(c: Checker, path: tuple, value: Any, options: list | None,
                   scope: dict) -> None:
    """A policy's pick: an option name written bare, or an expression."""
    if options == []:
        return  # the decision itself was reported as an empty choice
    if options is not None and value in options:
        return
    if options is not None and isinstance(value, str) and value.isidentifier() and (
            value not in c.sym.globals and value not in scope):
        c.report("unknown-option", f"'{value}' is not an option of this decision"
                 f"{suggestion(value, [str(o) for o in options])}", path,
                 "options: " + ", ".join(str(o) for o in options))
        return
    c.expr(path, value, scope)


def _variants(c: Checker, variants: dict) -> None:
    params = c.sym.parameters
    for vname, spec in variants.items():
        for pname, value in (spec.get("set") or {}).items():
            path = ("variants", vname, "set", pname)
            if pname not in params:
                c.report("unknown-parameter", f"unknown parameter '{pname}'"
                         f"{suggestion(pname, params)}", path, key=True)
                continue
            problem = parameter_problem(params[pname], value)
            if problem:
                c.report("bad-parameter-value", f"'{pname}': {problem}", path)


def check_document(doc: Document) -> tuple[Symbols, list[Diagnostic]]:
    """Checks a structurally valid document. Returns its symbols and every diagnostic."""
    symbols, diags = collect_symbols(doc)
    checker = Checker(doc, symbols)
    check_sections(checker)
    checker.check_procedure_breaks()
    return symbols, diags + checker.diags
