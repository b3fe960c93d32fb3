"""Phase 4, check: names, types, references between sections, and the flow.

Input: a structurally valid `Document`. Output: diagnostics (and the `Symbols`). Every
expression is parsed (phase 3) and typed here; every reference (phases, procedures, events,
timers, decisions, parameters) must resolve; the flow must be able to reach its end and every
phase must be reachable. The checker only rejects: it never changes what a ruleset means.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dsl import effects as fx
from dsl import nodes as n
from dsl import types as t
from dsl.diagnostics import WARNINGS, Diagnostic, Severity, suggestion
from dsl.loader import Document
from dsl.parser import ExprSyntaxError, parse_expression, parse_template
from dsl.symbols import CARD_FIELDS, CELL_FIELDS, CONTEXT_NAMES, END, Symbols
from dsl.typecheck import TypeChecker
from dsl.view_layout import check_hides

Scope = dict[str, t.Type]
_EXITS = ("break", "end_turn", "end_phase", "end_game", "goto")


@dataclass(frozen=True)
class Context:
    """Where a step list stands: inside a loop, which section."""

    section: str            # phase, procedure, trigger, check, option
    in_loop: bool = False


class Checker:
    def __init__(self, doc: Document, symbols: Symbols):
        self.doc = doc
        self.sym = symbols
        self.diags: list[Diagnostic] = []
        self.goto_targets: dict[str, list[str]] = {}   # phase -> phases it can goto
        self.ends_by_step = False
        self._current_phase: str | None = None
        # For `break` in procedures: the breaks outside any loop of their procedure, and
        # every call (callee, inside a loop or actions?, the calling procedure or None).
        self.loose_breaks: dict[str, list[tuple]] = {}
        self.calls: list[tuple[str, bool, str | None]] = []

    # -- reporting -----------------------------------------------------------------------------
    def report(self, code: str, message: str, path: tuple, hint: str | None = None,
               key: bool = False) -> None:
        span = self.doc.positions.key(path) if key else self.doc.positions.value(path)
        self.diags.append(Diagnostic(code, message, span, path, hint))

    def _reporter(self, path: tuple, key: bool = False):
        def report(code: str, message: str, pos: n.Pos, hint: str | None) -> None:
            span = self.doc.positions.in_scalar(path, pos[0], max(1, pos[1] - pos[0]), key=key)
            severity = Severity.WARNING if code in WARNINGS else Severity.ERROR
            self.diags.append(Diagnostic(code, message, span, path, hint, severity))
        return report

    # -- expressions ---------------------------------------------------------------------------
    def parse(self, path: tuple, value: Any) -> n.Node | None:
        """Parses the expression at `path` (a string, number, boolean or list of them)."""
        if isinstance(value, bool) or isinstance(value, (int, float)) or value is None:
            return n.Literal((0, 0), value)
        if isinstance(value, list):
            items = [self.parse(path + (i,), v) for i, v in enumerate(value)]
            if any(x is None for x in items):
                return None
            return n.ListExpr((0, 0), tuple(items))  # type: ignore[arg-type]
        if not isinstance(value, str):
            self.report("type-mismatch", "expected an expression", path)
            return None
        try:
            return parse_expression(value)
        except ExprSyntaxError as err:
            span = self.doc.positions.in_scalar(path, err.offset, err.length)
            self.diags.append(Diagnostic(err.code, err.message, span, path, err.hint))
            return None

    def expr(self, path: tuple, value: Any, scope: Scope, want: t.Type | None = None,
             what: str = "this value") -> t.Type:
        """Parses and types one expression; reports a mismatch with `want`."""
        if isinstance(value, list):  # each item is its own scalar, located separately
            item = t.ANY
            for i, v in enumerate(value):
                vt = self.expr(path + (i,), v, scope)
                item = vt if i == 0 else t.join(item, vt)
            got = t.list_of(item)
            if want is not None and not t.compatible(want, got):
                self.report("type-mismatch", f"{what} must be {want}, not a list", path)
            return got
        node = self.parse(path, value)
        if node is None:
            return t.ANY
        tc = TypeChecker(self.sym, self._reporter(path))
        if want is None:
            return tc.infer(node, scope)
        return tc.expect(node, scope, want, what)

    def cond(self, path: tuple, value: Any, scope: Scope, what: str = "a condition") -> None:
        self.expr(path, value, scope, t.BOOL, what)

    def template(self, path: tuple, value: Any, scope: Scope) -> None:
        if not isinstance(value, str):
            return
        try:
            node = parse_template(value)
        except ExprSyntaxError as err:
            span = self.doc.positions.in_scalar(path, err.offset, err.length)
            self.diags.append(Diagnostic(err.code, err.message, span, path, err.hint))
            return
        TypeChecker(self.sym, self._reporter(path)).infer(node, scope)

    def target(self, path: tuple, text: str, value_path: tuple, value: Any, scope: Scope,
               adding: bool) -> None:
        """Checks one `set`/`add` entry: an assignable target and a fitting value."""
        key_span = self.doc.positions.key(path)
        try:
            node = parse_expression(text)
        except ExprSyntaxError as err:
            span = self.doc.positions.in_scalar(path, err.offset, err.length, key=True)
            self.diags.append(Diagnostic(err.code, f"{err.message} (in the target '{text}')",
                                         span, path, err.hint))
            self.expr(value_path, value, scope)
            return

        refused = []  # only the target's own refusal (not its inner errors) skips the value

        def bad(msg: str, hint: str | None = None) -> None:
            refused.append(msg)
            self.diags.append(Diagnostic("not-assignable", msg, key_span, path, hint))

        # Errors inside the target point at the name inside the key, as in values.
        tc = TypeChecker(self.sym, self._reporter(path, key=True))
        target_type = tc.infer(node, scope)
        self._assignable(node, scope, tc, bad)
        value_type = self.expr(value_path, value, scope)
        if refused:
            return  # the value's type against a target that cannot be set would only repeat it
        if adding:
            if not (t.is_numeric(target_type) or target_type.kind == "list"):
                bad(f"'add' needs a number to add to; '{text}' is {target_type}")
            elif target_type.kind != "list" and not t.is_numeric(value_type):
                self.report("type-mismatch", f"'add' adds a number, not {value_type}",
                            value_path)
        elif not t.compatible(target_type, value_type) and not (
                t.is_numeric(target_type) and t.is_numeric(value_type)) and (
                value_type.kind != "none"):
            self.report("type-mismatch", f"'{text}' holds {target_type}, not {value_type}",
                        value_path)

    def _assignable(self, node: n.Node, scope: Scope, tc: TypeChecker, bad) -> None:
        if isinstance(node, n.Name):
            if node.id in self.sym.assignable:
                return
            decl = self.sym.globals.get(node.id)
            if node.id in scope:
                bad(f"'{node.id}' is a local name and cannot be changed",
                    "declare it under `state:` to change it")
            elif decl is not None and decl.namespace == "parameter":
                bad(f"'{node.id}' is a parameter: parameters are fixed during a game",
                    "declare a state variable for a value that changes")
            elif decl is not None:
                bad(f"'{node.id}' is a {decl.namespace} and cannot be set")
            elif node.id in self.sym.player_state:
                bad(f"'{node.id}' is per player", f"write current.{node.id} or p.{node.id}")
            elif node.id in CONTEXT_NAMES:
                bad(f"'{node.id}' is kept by the game itself and cannot be set",
                    "declare a state variable for a value that changes")
            # unknown names were reported by the type checker
            return
        if isinstance(node, n.Field):
            base = tc.infer(node.obj, scope)
            fields = self.sym.fields_of(base)
            if fields is not None and node.name not in fields:
                return  # an unknown field, already reported by the type checker
            ok = (base.kind == "any" or (base.kind == "player" and node.name in
                                         self.sym.player_state)
                  or (base.kind == "team" and node.name in self.sym.team_state)
                  or (base.kind == "die" and node.name == "face")
                  or (base.kind == "card" and node.name not in CARD_FIELDS)
                  or (base.kind == "cell" and (node.name not in CELL_FIELDS
                                               or node.name == "occupant")))
            if not ok:
                bad(f"'{node.name}' of {base} cannot be set", "set state variables, a die's "
                    "face, or card and cell fields")
            return
        if isinstance(node, n.Index):
            self._assignable(node.obj, scope, tc, bad)
            return
        bad("only a state variable, a field or an element can be set")

    # -- steps ---------------------------------------------------------------------------------
    def steps(self, path: tuple, steps: Any, scope: Scope, ctx: Context) -> None:
        if not isinstance(steps, list):
            return
        scope = dict(scope)
        for i, step in enumerate(steps):
            self.step(path + (i,), step, scope, ctx)

    def step(self, path: tuple, step: Any, scope: Scope, ctx: Context) -> None:
        """Checks one step; `let` and `draw` add their names to `scope` for later steps."""
        if isinstance(step, str):
            effect = fx.EFFECTS.get(step)
            if effect is None:
                self.report("unknown-effect", f"unknown effect '{step}'"
                            f"{suggestion(step, fx.EFFECTS)}", path)
                return
            missing = [f for f, s in effect.fields.items() if s.required]
            if missing:
                self.report("missing-key", f"'{step}' needs {', '.join(missing)}; write it as "
                            f"a mapping", path)
                return
            self._placement(path, step, ctx)
            return
        if not isinstance(step, dict) or not step:
            return
        name = next((k for k in step if k in fx.EFFECTS), None)
        if name is None:
            first = next(iter(step))
            self.report("unknown-effect", f"unknown effect '{first}'"
                        f"{suggestion(first, fx.EFFECTS)}", path + (first,), key=True,
                        hint="a step starts with the name of its effect (docs/language.md)")
            return
        effect = fx.EFFECTS[name]
        self._placement(path, name, ctx)
        if name == "for_each":
            self._for_each(path, step, scope, ctx)
            return
        for fname, spec in effect.fields.items():
            key = name if fname == effect.primary else fname
            if key not in step:
                continue
            fscope = {**scope, **{b: t.ANY for b in spec.binds}} if spec.binds else scope
            self.field(path + (key,), spec, step[key], fscope, ctx, effect)
        getattr(self, f"_effect_{name}", lambda *a: None)(path, step, scope, ctx)

    def check_procedure_breaks(self) -> None:
        """A procedure's `break` outside its own loops leaves the loop around its call; it is
        refused where no call (directly, or through the procedures calling it) stands inside
        a repeat, for_each or actions."""
        def in_a_loop(proc: str, seen: frozenset) -> bool:
            return any(inside or (caller is not None and caller not in seen
                                  and in_a_loop(caller, seen | {caller}))
                       for callee, inside, caller in self.calls if callee == proc)
        for proc, paths in self.loose_breaks.items():
            if not any(callee == proc for callee, _, _ in self.calls):
                continue  # never called: nothing runs it
            if in_a_loop(proc, frozenset({proc})):
                continue
            for path in paths:
                self.report("misplaced-effect", f"this 'break' is never inside a loop: no call "
                            f"of '{proc}' stands inside a repeat, for_each or actions", path,
                            f"call '{proc}' inside a repeat or for_each, or end the procedure "
                            "another way")

    def _placement(self, path: tuple, name: str, ctx: Context) -> None:
        if name == "break" and not ctx.in_loop and ctx.section not in ("procedure", "option"):
            self.report("misplaced-effect", "'break' must be inside a repeat, for_each or "
                        "actions loop", path)
        if name == "break" and not ctx.in_loop and ctx.section == "procedure":
            self.loose_breaks.setdefault(path[1], []).append(path)  # ("procedures", NAME...)
        if name in _EXITS and name != "break":
            if name == "end_game":
                self.ends_by_step = True
        if name == "end_turn" and ctx.section == "setup":
            self.report("misplaced-effect", "'end_turn' is used in a phase without turns",
                        path, "add `turns:` to the phase, or use end_phase")

    def field(self, path: tuple, spec: fx.FieldSpec, value: Any, scope: Scope, ctx: Context,
              effect: fx.Effect | None) -> None:
        kind = spec.kind
        what = f"'{path[-1]}'"
        if kind == fx.EXPR:
            want = t.NAMED.get(spec.type) if spec.type else None
            self.expr(path, value, scope, want, what)
        elif kind == fx.COND:
            self.cond(path, value, scope, what)
        elif kind == fx.TEMPLATE:
            self.template(path, value, scope)
        elif kind == fx.STEPS:
            loop = ctx.in_loop or bool(effect and effect.loop)
            self.steps(path, value, scope, Context(ctx.section, loop))
        elif kind == fx.ASSIGN and isinstance(value, dict):
            for target, v in value.items():
                self.target(path + (target,), target, path + (target,), v, scope,
                            effect is not None and effect.name == "add")
        elif kind == fx.ARGS and isinstance(value, dict):
            for k, v in value.items():
                self.expr(path + (k,), v, scope)
        elif kind == fx.REF:
            self.reference(path, spec.ref or "", value)
        elif kind == fx.OPTIONS:
            self.options(path, value, scope, ctx)
        elif kind == fx.NAMES:
            check_hides(self, path, value)
        elif kind == fx.COUNTS and isinstance(value, dict):
            for name, spec in value.items():
                for fname, fspec in fx.COUNT_FIELDS.items():
                    if isinstance(spec, dict) and fname in spec:
                        self.field(path + (name, fname), fspec, spec[fname],
                                   {**scope, **{b: t.ANY for b in fspec.binds}}, ctx, None)
        elif kind == fx.LIMIT and isinstance(value, dict):
            self.expr(path + ("times",), value.get("times"), scope, t.INT, "'times'")

    def reference(self, path: tuple, ref: str, value: Any) -> None:
        names: list[str]
        if ref == "phase":
            names = self.sym.phases + [END]
            if self._current_phase is not None and value in names:
                self.goto_targets.setdefault(self._current_phase, []).append(value)
            elif value in names:
                self.goto_targets.setdefault("*", []).append(value)
        elif ref == "procedure":
            names = list(self.sym.procedures)
        elif ref == "event":
            names = list(self.sym.events)
        elif ref == "timer":
            names = sorted(self.sym.timers)
        elif ref == "player_state":
            names = sorted(self.sym.player_state)
        else:  # pragma: no cover
            names = []
        if value not in names:
            what = {"player_state": "per-player state variable"}.get(ref, ref)
            self.report("unknown-phase" if ref == "phase" else "unknown-reference",
                        f"unknown {what} '{value}'{suggestion(str(value), names)}", path,
                        None if names else f"declare a {what} first")

    def options(self, path: tuple, value: Any, scope: Scope, ctx: Context) -> None:
        if isinstance(value, list):
            if not value:
                self.report("empty-choice", "a decision needs at least one option", path)
            seen = set()
            for i, opt in enumerate(value):
                if opt in seen:
                    self.report("duplicate-name", f"the option '{opt}' is listed twice",
                                path + (i,))
                seen.add(opt)
        elif isinstance(value, dict):
            if not value:
                self.report("empty-choice", "a decision needs at least one option", path)
            for name, spec in value.items():
                if not isinstance(spec, dict):
                    continue
                for fname, fspec in fx.OPTION_FIELDS.items():
                    if fname in spec:
                        self.field(path + (name, fname), fspec, spec[fname], scope,
                                   Context("option", ctx.in_loop), None)
        elif isinstance(value, str):
            got = self.expr(path, value, scope, t.ANY_LIST, "the options")
            del got

    # -- effect-specific checks ----------------------------------------------------------------
    def _effect_let(self, path, step, scope, ctx) -> None:
        scope[step["let"]] = self.expr(path + ("be",), step.get("be"), scope) if "be" in step \
            else t.ANY

    def _effect_draw(self, path, step, scope, ctx) -> None:
        binder = step.get("as")
        if isinstance(binder, str):
            scope[binder] = t.ANY_LIST if "count" in step else t.ANY

    def _for_each(self, path, step, scope, ctx) -> None:
        """Checks a for_each: its list, then its body with the item's name bound."""
        it = self.expr(path + ("in",), step.get("in"), scope, t.ANY_LIST, "'in'")
        inner = dict(scope)
        binder = step.get("for_each")
        if isinstance(binder, str):
            inner[binder] = (it.item or t.ANY) if it.kind == "list" else t.ANY
        self.steps(path + ("do",), step.get("do"), inner, Context(ctx.section, True))

    def _effect_repeat(self, path, step, scope, ctx) -> None:
        if not any(k in step for k in ("times", "while", "until")) and not _has_exit(
                step.get("repeat")):
            self.report("no-end", "this repeat never stops: give it times, while or until, "
                        "or a break inside", path + ("repeat",), key=True)

    def _effect_call(self, path, step, scope, ctx) -> None:
        proc = step.get("call")
        if proc not in self.sym.procedures:
            return
        caller = path[1] if path[0] == "procedures" and ctx.section == "procedure" else None
        self.calls.append((proc, ctx.in_loop or ctx.section == "option", caller))
        params = self.sym.procedures[proc]
        given = step.get("with") or {}
        for k in given:
            if k not in params:
                self.report("unknown-reference", f"procedure '{proc}' has no parameter '{k}'"
                            f"{suggestion(k, params)}", path + ("with", k), key=True)
        missing = [p for p in params if p not in given]
        if missing:
            self.report("arity", f"procedure '{proc}' needs {', '.join(missing)}",
                        path + ("call",))

    def _effect_emit(self, path, step, scope, ctx) -> None:
        event = step.get("emit")
        fields = self.sym.events.get(event)
        if fields is None:
            return
        for k in step.get("with") or {}:
            if k not in fields:
                self.report("unknown-reference", f"event '{event}' has no field '{k}'"
                            f"{suggestion(k, fields)}", path + ("with", k), key=True,
                            hint="declare it in the event's `fields`")

    def _effect_choose(self, path, step, scope, ctx) -> None:
        if "options" not in step and "min" not in step and "max" not in step:
            self.report("missing-key", "a choice needs `options`, or `min`/`max` for a number",
                        path + ("choose",))


def _has_exit(steps: Any) -> bool:
    """Whether a step list contains a way out of a loop (not counting nested loops' breaks)."""
    if not isinstance(steps, list):
        return False
    for step in steps:
        name = step if isinstance(step, str) else next(iter(step), None) if isinstance(
            step, dict) else None
        if name in _EXITS:
            return True
        if isinstance(step, dict):
            for key, value in step.items():
                if name in ("repeat", "for_each") and key in ("repeat", "do"):
                    if any(_exits_beyond_loop(s) for s in value or []):
                        return True
                    continue
                if isinstance(value, list) and _has_exit(value):
                    return True
                if key == "options" and isinstance(value, dict):
                    if any(isinstance(o, dict) and _has_exit(o.get("do")) for o in
                           value.values()):
                        return True
    return False


def _exits_beyond_loop(step: Any) -> bool:
    name = step if isinstance(step, str) else next(iter(step), None) if isinstance(
        step, dict) else None
    return name in ("end_turn", "end_phase", "end_game", "goto")
