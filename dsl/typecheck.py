"""Phase 4b, check (expressions): name resolution and types of one parsed expression.

Input: an expression node, the ruleset's `Symbols` and the local names in scope. Output: the
expression's type, and diagnostics (unknown-name with "did you mean", unknown-field, arity,
type-mismatch, not-callable) reported through a callback with the node's position.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from dsl import nodes as n
from dsl import types as t
from dsl.builtins import BUILTINS
from dsl.diagnostics import suggestion
from dsl.symbols import CONTEXT_NAMES, Symbols

Report = Callable[[str, str, n.Pos, str | None], None]

_ARITH = {"+", "-", "*", "/", "//", "%"}
_ORDER = {"<", "<=", ">", ">="}


class TypeChecker:
    """Infers the type of expressions, reporting what does not resolve or fit."""

    def __init__(self, symbols: Symbols, report: Report):
        self.sym = symbols
        self.report = report

    def visible_names(self, scope: Mapping[str, t.Type]) -> list[str]:
        return [*scope, *self.sym.globals, *CONTEXT_NAMES]

    def infer(self, node: n.Node, scope: Mapping[str, t.Type]) -> t.Type:
        method = getattr(self, "_" + type(node).__name__.lower())
        return method(node, scope)

    def expect(self, node: n.Node, scope: Mapping[str, t.Type], want: t.Type,
               what: str) -> t.Type:
        """Infers a type and reports a mismatch with `want`."""
        got = self.infer(node, scope)
        if not t.compatible(want, got):
            self.report("type-mismatch", f"{what} must be {_a(want)}, but this is {_a(got)}",
                        node.pos, _hint(want, got))
        return got

    # -- leaves ------------------------------------------------------------------------------
    def _literal(self, node: n.Literal, scope) -> t.Type:
        return t.type_of_value(node.value)

    def _template(self, node: n.Template, scope) -> t.Type:
        for part in node.parts:
            if isinstance(part, n.Node):
                self.infer(part, scope)
        return t.STRING

    def _name(self, node: n.Name, scope) -> t.Type:
        if node.id in scope:
            return scope[node.id]
        decl = self.sym.globals.get(node.id)
        if decl is not None:
            return decl.type
        if node.id in CONTEXT_NAMES:
            return CONTEXT_NAMES[node.id]
        if node.id in BUILTINS:
            self.report("type-mismatch", f"'{node.id}' is a function: call it as "
                        f"{node.id}(...)", node.pos, None)
            return t.ANY
        hint = None
        if node.id in self.sym.player_state or node.id in self.sym.player_fields:
            hint = f"'{node.id}' is per player: write current.{node.id} or player.{node.id}"
        elif node.id in self.sym.team_state:
            hint = f"'{node.id}' is per team: write current.team.{node.id}"
        elif node.id in self.sym.procedures:
            hint = f"'{node.id}' is a procedure: run it with a `call:` step"
        elif node.id in ("player", "event", "me", "option"):
            hint = f"'{node.id}' is only defined where the ruleset binds it (docs/language.md)"
        self.report("unknown-name",
                    f"unknown name '{node.id}'{suggestion(node.id, self.visible_names(scope))}",
                    node.pos, hint)
        return t.ANY

    def _listexpr(self, node: n.ListExpr, scope) -> t.Type:
        item = t.ANY
        for i, x in enumerate(node.items):
            xt = self.infer(x, scope)
            item = xt if i == 0 else t.join(item, xt)
        return t.list_of(item)

    # -- access ------------------------------------------------------------------------------
    def _field(self, node: n.Field, scope) -> t.Type:
        base = self.infer(node.obj, scope)
        if base.kind == "any":
            return t.ANY
        fields = self.sym.fields_of(base)
        if fields is None:
            self.report("unknown-field", f"{_a(base)} has no fields ('.{node.name}')",
                        node.name_pos, "fields belong to players, teams, dice, cards, cells "
                        "and timers")
            return t.ANY
        if node.name in fields:
            return fields[node.name]
        self.report("unknown-field", f"{_a(base)} has no field '{node.name}'"
                    f"{suggestion(node.name, fields)}", node.name_pos, None)
        return t.ANY

    def _index(self, node: n.Index, scope) -> t.Type:
        base = self.infer(node.obj, scope)
        key = self.infer(node.key, scope)
        if base.kind == "list":
            if not t.compatible(t.INT, key):
                self.report("type-mismatch", f"a list is indexed by a whole number, not by "
                            f"{_a(key)}", node.key.pos, None)
            return base.item or t.ANY
        if base.kind == "grid":
            return t.CELL
        if base.kind in ("map", "any"):
            return t.ANY
        self.report("type-mismatch", f"{_a(base)} cannot be indexed with [...]", node.pos, None)
        return t.ANY

    # -- operators -----------------------------------------------------------------------------
    def _unary(self, node: n.Unary, scope) -> t.Type:
        if node.op == "not":
            self.expect(node.operand, scope, t.BOOL, "the operand of 'not'")
            return t.BOOL
        return self.expect(node.operand, scope, t.NUMBER, "the operand of '-'")

    def _binary(self, node: n.Binary, scope) -> t.Type:
        op = node.op
        if op in ("and", "or"):
            self.expect(node.left, scope, t.BOOL, f"each side of '{op}'")
            self.expect(node.right, scope, t.BOOL, f"each side of '{op}'")
            return t.BOOL
        left = self.infer(node.left, scope)
        right = self.infer(node.right, scope)
        if op in ("in", "not in"):
            if right.kind not in ("list", "map", "string", "any", "zone"):
                self.report("type-mismatch", f"'{op}' needs a list, map or text on its right, "
                            f"not {_a(right)}", node.right.pos, None)
            return t.BOOL
        if op in ("==", "!="):
            if not (t.compatible(left, right) or t.compatible(right, left)) and not (
                    t.is_numeric(left) and t.is_numeric(right)) and "none" not in (
                    left.kind, right.kind):
                self.report("type-mismatch", f"comparing {_a(left)} with {_a(right)} is "
                            "always false", node.pos, None)
            return t.BOOL
        if op in _ORDER:
            ok = (t.is_numeric(left) and t.is_numeric(right)) or (
                left.kind in ("string", "any") and right.kind in ("string", "any"))
            if not ok:
                bad = node.left if not t.is_numeric(left) else node.right
                self.report("type-mismatch", f"'{op}' compares numbers (or texts), not "
                            f"{_a(left)} and {_a(right)}", bad.pos,
                            _hint(t.NUMBER, left if bad is node.left else right))
            return t.BOOL
        if op == "+" and (left.kind in ("string", "list") or right.kind in ("string", "list")):
            if not (t.compatible(left, right) or t.compatible(right, left)):
                self.report("type-mismatch", f"cannot add {_a(left)} and {_a(right)}",
                            node.pos, None)
            return t.join(left, right)
        for side, ty in ((node.left, left), (node.right, right)):
            if not t.is_numeric(ty):
                self.report("type-mismatch", f"'{op}' works on numbers, not {_a(ty)}",
                            side.pos, _hint(t.NUMBER, ty))
        if op == "/":
            return t.NUMBER
        if op == "//":
            return t.INT
        if "number" in (left.kind, right.kind):
            return t.NUMBER  # a fraction on either side makes a fraction, whatever the other
        if "any" in (left.kind, right.kind):
            return t.ANY  # unknown statically (e.g. `option - 1`): may well be a whole number
        return t.INT if left.kind == right.kind == "int" else t.NUMBER

    def _conditional(self, node: n.Conditional, scope) -> t.Type:
        self.expect(node.cond, scope, t.BOOL, "the condition after 'if'")
        return t.join(self.infer(node.then, scope), self.infer(node.other, scope))

    def _comprehension(self, node: n.Comprehension, scope) -> t.Type:
        it = self.infer(node.iterable, scope)
        if it.kind not in ("list", "any", "zone", "map"):
            self.report("type-mismatch", f"'for {node.var} in ...' needs a list, not {_a(it)}",
                        node.iterable.pos, None)
        if node.var in scope:
            self.report("shadowed-name", f"'{node.var}' already names something here; inside "
                        "this comprehension it means the new item, and the outer one is out "
                        "of reach", node.var_pos, "choose another name for the item")
        inner = dict(scope)
        inner[node.var] = (it.item or t.ANY) if it.kind == "list" else t.ANY
        if node.cond is not None:
            self.expect(node.cond, inner, t.BOOL, "the condition after 'if'")
        return t.list_of(self.infer(node.element, inner))

    def _call(self, node: n.Call, scope) -> t.Type:
        fn = BUILTINS.get(node.func)
        if fn is None:
            args = [self.infer(a, scope) for a in node.args]
            if node.func in scope or node.func in self.sym.globals:
                self.report("not-callable", f"'{node.func}' is not a function",
                            node.func_pos, "remove the parentheses")
            else:
                self.report("unknown-name", f"unknown function '{node.func}'"
                            f"{suggestion(node.func, BUILTINS)}", node.func_pos,
                            "built-in functions are listed in docs/reference.md")
            del args
            return t.ANY
        args = [self.infer(a, scope) for a in node.args]
        required = sum(1 for p in fn.params if not p.optional)
        most = None if fn.variadic else len(fn.params)
        if len(args) < required or (most is not None and len(args) > most):
            want = (f"at least {required}" if most is None else
                    f"{required}" if required == most else f"{required} to {most}")
            self.report("arity", f"{fn.name}() takes {want} argument"
                        f"{'' if want == '1' else 's'}, not {len(args)}", node.pos,
                        f"signature: {fn.signature}")
        else:
            for i, (arg, ty) in enumerate(zip(node.args, args, strict=True)):
                param = fn.params[min(i, len(fn.params) - 1)]
                if fn.variadic and len(args) > 1 and param.type.kind == "any":
                    continue
                if not t.compatible(param.type, ty):
                    self.report("type-mismatch", f"{fn.name}() wants {_a(param.type)} for "
                                f"'{param.name}', not {_a(ty)}", arg.pos, _hint(param.type, ty))
        allowed = {k.name for k in fn.keywords}
        for key, value in node.kwargs:
            self.infer(value, scope)
            if key not in allowed:
                self.report("arity", f"{fn.name}() has no argument named '{key}'"
                            f"{suggestion(key, allowed)}", value.pos, None)
        return fn.result_type(args)


def _a(ty: t.Type) -> str:
    word = str(ty)
    if ty.kind == "any":
        return "a value"
    if word[0] in "aeiou":
        return "an " + word
    return "a " + word


def _hint(want: t.Type, got: t.Type) -> str | None:
    if got.kind == "die" and want.kind in ("int", "number"):
        return "use the die's face: DIE.face"
    if got.kind == "list" and got.item and got.item.kind == "die" and want.kind in (
            "int", "number"):
        return "use total(DICE) for the sum of their faces"
    if want.kind == "bool" and got.kind in ("int", "number"):
        return "compare it, e.g. '> 0'"
    if want.kind == "list" and got.kind == "die":
        return "put the die in a list: [DIE]"
    return None
