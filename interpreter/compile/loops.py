"""Phase 5c, compile for simulation (specializer): comprehensions written as loops.

Input: the source of a generated game function, finished (interpreter/compile/flow.py, after
the peephole passes and the late names). Output: the same source in which every list or set
comprehension a statement evaluates is a loop of statements before it: `any`, `all` and
`len` of one count into a name as the loop goes (`sum` of a generator, which the writer makes
of whole numbers, adds into one), any other is a list (or set) built by `append` (`add`); the
statement then reads the result. Everything else is byte for byte the
text it was.

Why: Python 3.11 makes a function and a frame for every comprehension it evaluates, about
as much work as a loop of three or four items; the policies of the richer rulesets evaluate
thousands of small comprehensions a game (a legality test, a count of dice, a sum of faces).

What stays exact: the loop evaluates what the comprehension evaluated, in the same order,
item by item, and nothing more (no short cut: `any` of a list evaluates every item, and a
rule's error in a later item is met as before). `any`, `all` or `next` of a generator, which
the writer makes only where no item can fail (interpreter/compile/cuts.py), stops at the deciding item as
Python's own would. An `and`/`or`, a conditional or a memo
(`_L if _L is not _U else (_L := ...)`) whose later part holds a comprehension runs that part
only when Python would have; a part evaluated before a loop that could change it is kept in
a temporary first. What the writer cannot be sure of (a chained comparison, a `while` test,
a comprehension inside a lambda, a generator or a raiser's function, one whose loop would
bind a name the function uses elsewhere) is left as written.

How: each line that may hold a comprehension is parsed alone (every line the generator writes
is a whole statement or the header of one: parsing the whole function would cost as much as
the `compile` that follows; a line is parsed once for all the functions that have it),
lowered as an expression tree, and written back at its indent, each part left as it was by
its own text; an `elif` whose test is lowered becomes `else:` and an `if`, the rest of its
chain one level in.
"""

from __future__ import annotations

import ast
import collections
import functools
import re
from collections.abc import Callable

_COUNTED = ("any", "all", "len")   # a built-in of a comprehension that counts as the loop goes
_CUTS = ("any!", "all!", "next!")  # ... that stops at the first item deciding it (cuts.py)
_ADDED = "sum!"  # `sum` of a generator of whole numbers (cuts.py): added as they come
_SCOPES = (ast.Lambda, ast.GeneratorExp, ast.DictComp, ast.FunctionDef, ast.ClassDef)


def _load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _store(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(name, ast.Store())], value)


def _stored(stmts: list[ast.stmt]) -> set[str]:
    """The names the statements assign (loop targets, walrus and memos included)."""
    out: set[str] = set()
    for s in stmts:
        out |= _binds(s)
    return out


def _binds(node: ast.AST) -> frozenset[str]:
    """The names `node` assigns, kept on it (the statements a loop is written of are asked
    again by each part around them)."""
    known = node.__dict__.get("_lw_binds")
    if known is None:
        if isinstance(node, ast.Name):
            known = frozenset([node.id]) if isinstance(node.ctx, ast.Store) else frozenset()
        else:
            known = frozenset().union(*map(_binds, ast.iter_child_nodes(node)))
        node._lw_binds = known  # type: ignore[attr-defined]
    return known


def _loaded(node: ast.AST) -> set[str]:
    """Every name `node` mentions."""
    return {x.id for x in ast.walk(node) if isinstance(x, ast.Name)}


Lowered = tuple[list[ast.stmt], ast.expr]


class _Writer:
    """Lowers expressions: each as statements to run first and an expression that then has
    its value."""

    def __init__(self, taken: set[str], own: set[str]):
        self.taken = taken      # every name of the source (a temporary takes none of them)
        self.own = own          # the names a loop must not bind (`_own_names`)
        self.active: set[str] = set()  # the targets of the loops being written around this one
        self.n = 0

    def has(self, node: ast.AST) -> bool:
        """Whether `node` evaluates a list or set comprehension in its own scope (kept on
        the node: the parts of a deep expression are asked again at each level, and a line
        parsed once serves every function that has it)."""
        known = node.__dict__.get("_lw_has")
        if known is None:
            known = isinstance(node, (ast.ListComp, ast.SetComp)) or _cut(node) is not None or (
                not isinstance(node, _SCOPES)
                and any([self.has(c) for c in ast.iter_child_nodes(node)]))
            node._lw_has = known  # type: ignore[attr-defined]
        return known

    def temp(self) -> str:
        while True:
            self.n += 1
            name = f"_lw{self.n}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def expr(self, node: ast.expr) -> Lowered:
        if not self.has(node):
            return [], node
        method = getattr(self, "_" + type(node).__name__, None)
        return method(node) if method is not None else ([], node)

    # -- the comprehensions ---------------------------------------------------------------------

    def _ListComp(self, node: ast.ListComp) -> Lowered:
        return self.loop(node, "list")

    def _SetComp(self, node: ast.SetComp) -> Lowered:
        return self.loop(node, "set")

    def loop(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp, how: str) -> Lowered:
        """The comprehension as nested loops and tests, each generator's iterable and
        conditions evaluated where the comprehension evaluates them; a one-item tuple
        (`for _h in (x,)`, the meter's `for _ in (0,) if ...`) is an assignment, not a loop."""
        targets = {x.id for g in node.generators for x in ast.walk(g.target)
                    if isinstance(x, ast.Name)} - ({"_"} - self.own)  # `_` binds nothing read
        if targets & (self.own | self.active):  # its names would overwrite the function's
            return [], node
        self.active |= targets
        try:
            return self._loop(node, how)
        finally:
            self.active -= targets

    def _loop(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp, how: str) -> Lowered:
        r = self.temp()
        gens = list(node.generators)
        if how in _CUTS and sum(not _one(g) for g in gens) != 1:
            return [], node  # a `break` would leave another loop than the items'
        start = {"list": ast.List([], ast.Load()), "set": ast.Call(_load("set"), [], []),
                 "any": ast.Constant(False), "all": ast.Constant(True),
                 "len": ast.Constant(0), "next": ast.Constant(None),
                 "sum": ast.Constant(0)}[how.rstrip("!")]
        body = self._each(node.elt, r, how)
        for gen in reversed(gens):
            if gen.is_async:
                return [], node
            for cond in reversed(gen.ifs):
                s_c, c = self.expr(cond)
                body = [*s_c, *_bound(c, body)]
            if _one(gen):
                s_i, one = self.expr(gen.iter.elts[0])  # type: ignore[attr-defined]
                bind = [] if isinstance(one, ast.Constant) and isinstance(gen.target, ast.Name) \
                    and gen.target.id == "_" else [ast.Assign([gen.target], one)]
                body = [*s_i, *bind, *body]
            else:
                s_i, each = self.expr(gen.iter)
                body = [*s_i, ast.For(gen.target, each, body, [])]
        return [_store(r, start), *body], _load(r)

    def _each(self, elt: ast.expr, r: str, how: str) -> list[ast.stmt]:
        """What the loop does with each item's element."""
        s_el, el = self.expr(elt)
        if how in ("list", "set"):
            call = ast.Call(ast.Attribute(_load(r), "append" if how == "list" else "add",
                                          ast.Load()), [el], [])
            return [*s_el, ast.Expr(call)]
        stop = [ast.Break()] if how in _CUTS else []  # the first deciding item decides
        if how == "next!":
            return [*s_el, _store(r, el), *stop]
        if how == _ADDED:
            return [*s_el, ast.AugAssign(ast.Name(r, ast.Store()), ast.Add(), el)]
        if how.startswith("any"):
            return [*s_el, ast.If(el, [_store(r, ast.Constant(True)), *stop], [])]
        if how.startswith("all"):
            return [*s_el, ast.If(ast.UnaryOp(ast.Not(), el),
                                  [_store(r, ast.Constant(False)), *stop], [])]
        # len: the element is evaluated (unless a plain name or constant), then counted
        kept = [] if isinstance(el, (ast.Name, ast.Constant)) else [ast.Expr(el)]
        return [*s_el, *kept, ast.AugAssign(ast.Name(r, ast.Store()), ast.Add(), ast.Constant(1))]

    def _Call(self, node: ast.Call) -> Lowered:
        if (isinstance(node.func, ast.Name) and node.func.id in _COUNTED and len(node.args) == 1
                and not node.keywords and isinstance(node.args[0], ast.ListComp)):
            counted = self.loop(node.args[0], node.func.id)
            if counted[0]:
                return counted
            return [], node  # left as written (its names are the function's)
        cut = _cut(node)
        if cut is not None:
            counted = self.loop(node.args[0], cut)  # type: ignore[arg-type]
            return counted if counted[0] else ([], node)
        parts = [node.func, *node.args, *(k.value for k in node.keywords)]
        stmts, done = self.ordered(parts)
        if not stmts:
            return [], node
        n_args = len(node.args)
        keywords = [ast.keyword(k.arg, v) for k, v in zip(node.keywords, done[1 + n_args:],
                                                           strict=True)]
        return stmts, ast.Call(done[0], done[1:1 + n_args], keywords)

    # -- order and short cuts -------------------------------------------------------------------

    def ordered(self, parts: list[ast.expr]) -> tuple[list[ast.stmt], list[ast.expr]]:
        """Parts Python evaluates left to right: each part's statements in turn; a part
        before the last one with statements is kept in a temporary when those statements
        could change what it reads (a constant never is)."""
        lowered = [self.expr(p) if p is not None else ([], p) for p in parts]
        last = max((i for i, (s, _) in enumerate(lowered) if s), default=-1)
        if last < 0:
            return [], list(parts)
        later: set[str] | None = None  # what the statements bind, worked out if asked
        stmts: list[ast.stmt] = []
        out: list[ast.expr] = []
        for i, (s, e) in enumerate(lowered):
            stmts += s
            if i < last and e is not None and not isinstance(e, ast.Constant) and (
                    _has_effect(e) or _loaded(e) & (later := later if later is not None else
                                                    _stored([x for ss, _ in lowered for x in ss]))):
                t = self.temp()
                stmts.append(_store(t, e))
                e = _load(t)
            out.append(e)
        return stmts, out

    def _BoolOp(self, node: ast.BoolOp) -> Lowered:
        node = ast.BoolOp(node.op, _flat(node))  # `a and (b and c)` is `a and b and c`
        parts = [self.expr(v) for v in node.values]
        k = next((i for i in range(1, len(parts)) if parts[i][0]), None)
        s0, e0 = parts[0]
        if k is None:
            return s0, ast.BoolOp(node.op, [e0, *node.values[1:]]) if s0 else node
        r = self.temp()
        head = e0 if k == 1 else ast.BoolOp(node.op, [e0, *node.values[1:k]])
        stmts: list[ast.stmt] = [*s0, _store(r, head)]
        here = stmts
        i = k
        while i < len(parts):
            j = i + 1  # a run of parts without statements joins the one before it
            while j < len(parts) and not parts[j][0]:
                j += 1
            value = parts[i][1] if j == i + 1 else ast.BoolOp(
                node.op, [parts[i][1], *node.values[i + 1:j]])
            test = _load(r) if isinstance(node.op, ast.And) else ast.UnaryOp(ast.Not(), _load(r))
            inner = [*parts[i][0], _store(r, value)]
            here.append(ast.If(test, inner, []))
            here = inner
            i = j
        return stmts, _load(r)

    def _IfExp(self, node: ast.IfExp) -> Lowered:
        s_t, test = self.expr(node.test)
        s_b, body = self.expr(node.body)
        s_o, orelse = self.expr(node.orelse)
        if not s_b and not s_o:
            return (s_t, ast.IfExp(test, node.body, node.orelse)) if s_t else ([], node)
        memo = memo_name(node)
        if memo is not None and not s_b:  # `_L if _L is not _U else (_L := value)`
            s_v, value = self.expr(node.orelse.value)  # type: ignore[attr-defined]
            fill = ast.If(ast.Compare(_load(memo), [ast.Is()], [_load("_U")]),
                          [*s_v, _store(memo, value)], [])
            return [*s_t, fill], _load(memo)
        r = self.temp()
        return [*s_t, ast.If(test, [*s_b, _store(r, body)], [*s_o, _store(r, orelse)])], _load(r)

    def _NamedExpr(self, node: ast.NamedExpr) -> Lowered:
        s, value = self.expr(node.value)
        if not s:
            return [], node
        return [*s, _store(node.target.id, value)], _load(node.target.id)

    # -- the rest: parts in order ---------------------------------------------------------------

    def _rebuilt(self, node: ast.expr, fields: list[str]) -> Lowered:
        parts = [getattr(node, f) for f in fields]
        stmts, done = self.ordered(parts)
        if not stmts:
            return [], node
        copy = type(node)(**{f: getattr(node, f) for f in node._fields})
        for f, v in zip(fields, done, strict=True):
            setattr(copy, f, v)
        return stmts, copy

    def _BinOp(self, node: ast.BinOp) -> Lowered:
        return self._rebuilt(node, ["left", "right"])

    def _UnaryOp(self, node: ast.UnaryOp) -> Lowered:
        return self._rebuilt(node, ["operand"])

    def _Subscript(self, node: ast.Subscript) -> Lowered:
        return self._rebuilt(node, ["value", "slice"])

    def _Attribute(self, node: ast.Attribute) -> Lowered:
        return self._rebuilt(node, ["value"])

    def _Starred(self, node: ast.Starred) -> Lowered:
        return self._rebuilt(node, ["value"])

    def _Compare(self, node: ast.Compare) -> Lowered:
        if len(node.ops) == 1:
            stmts, (left, right) = self.ordered([node.left, node.comparators[0]])
            return (stmts, ast.Compare(left, node.ops, [right])) if stmts else ([], node)
        if any(self.has(c) for c in node.comparators):  # a chain: its later parts may not run
            return [], node
        s, left = self.expr(node.left)
        return s, ast.Compare(left, node.ops, node.comparators)

    def _Tuple(self, node: ast.Tuple) -> Lowered:
        stmts, elts = self.ordered(list(node.elts))
        return (stmts, ast.Tuple(elts, ast.Load())) if stmts else ([], node)

    def _List(self, node: ast.List) -> Lowered:
        stmts, elts = self.ordered(list(node.elts))
        return (stmts, ast.List(elts, ast.Load())) if stmts else ([], node)


def _bound(test: ast.expr, body: list[ast.stmt]) -> list[ast.stmt]:
    """`if test: body`; a test that is a tuple display of names and `name := value` (true:
    how exprs.py binds a value worked out before a comprehension's items) is assignments."""
    if not (isinstance(test, ast.Tuple) and test.elts and all(
            isinstance(x, ast.Name) or (isinstance(x, ast.NamedExpr)
                                        and isinstance(x.target, ast.Name))
            for x in test.elts)):
        return [ast.If(test, body, [])]
    return [*(_store(x.target.id, x.value) for x in test.elts
              if isinstance(x, ast.NamedExpr)), *body]


def _has_effect(node: ast.expr) -> bool:
    """Whether evaluating `node` could do more than read names (call, assign, or fail: a
    lookup, an operator): such a part before a loop is evaluated, into a temporary, before
    the loop, so what it does happens in Python's order."""
    return any(isinstance(x, (ast.Call, ast.NamedExpr, ast.Subscript, ast.BinOp, ast.Compare,
                              ast.Attribute)) for x in ast.walk(node))


def _flat(node: ast.BoolOp) -> list[ast.expr]:
    """The operands of `node`, those of a nested `and` in an `and` (an `or` in an `or`) in
    its place: the same values, evaluated in the same order."""
    out: list[ast.expr] = []
    for v in node.values:
        out += _flat(v) if isinstance(v, ast.BoolOp) and type(v.op) is type(node.op) else [v]
    return out


def _cut(node: ast.AST) -> str | None:
    """`any!`, `all!` or `next!` for `any(x for ...)`, `all(x for ...)` or `next((x for ...),
    None)`: a generator the writer made only where stopping at the first deciding item is
    exact (cuts.py short_cut), written as a loop that stops there; `sum!` for `sum(x for ...)`, a
    sum of whole numbers (cuts.py running_sum); else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords
            and node.args and isinstance(node.args[0], ast.GeneratorExp)):
        return None
    f, rest = node.func.id, node.args[1:]
    if f == "sum" and not rest:
        return _ADDED
    if f in ("any", "all") and not rest or f == "next" and len(rest) == 1 and isinstance(
            rest[0], ast.Constant) and rest[0].value is None:
        return f + "!"
    return None


def _one(gen: ast.comprehension) -> bool:
    """A generator over a one-item tuple (`for _h in (x,)`): an assignment, not a loop."""
    it = gen.iter
    return isinstance(it, ast.Tuple) and len(it.elts) == 1 and not isinstance(
        it.elts[0], ast.Starred)


def memo_name(node: ast.IfExp) -> str | None:
    """`N` of a memo read `N if N is not _U else (N := value)`, else None."""
    t, b, o = node.test, node.body, node.orelse
    if (isinstance(b, ast.Name) and isinstance(o, ast.NamedExpr) and o.target.id == b.id
            and isinstance(t, ast.Compare) and isinstance(t.left, ast.Name)
            and t.left.id == b.id and len(t.ops) == 1 and isinstance(t.ops[0], ast.IsNot)
            and isinstance(t.comparators[0], ast.Name) and t.comparators[0].id == "_U"):
        return b.id
    return None


class _Edits:
    """The source's lines and what replaces them: a line rewritten at its own indent (every
    statement the pass rewrites is one line), `elif` branches turned into `else:` blocks
    (their lines indented one level more)."""

    def __init__(self, source: str):
        self.lines = source.split("\n")
        self.new: dict[int, list[str]] = {}    # 0-based line -> its replacement
        self.shifts: list[tuple[int, int]] = []  # [first, last] lines indented 4 more

    def replace(self, i: int, text: list[str]) -> None:
        self.new[i] = text

    def text(self) -> str:
        out: list[str] = []
        for i, line in enumerate(self.lines):
            shift = " " * (4 * sum(1 for a, b in self.shifts if a <= i <= b))
            out += [shift + x if x else x for x in self.new.get(i, [line])]
        return "\n".join(out)


def _numbered(stmts: list[ast.stmt]) -> None:
    """A line number on each statement written here: ast.unparse reads one (for type
    comments), and none is written out."""
    for s in stmts:
        if not hasattr(s, "lineno"):
            s.lineno = 0
        for block in ("body", "orelse"):
            _numbered(getattr(s, block, []))


_PRIMARY = (ast.Name, ast.Constant, ast.Attribute, ast.Subscript, ast.Call, ast.List, ast.Dict,
            ast.Set, ast.ListComp, ast.SetComp, ast.DictComp, ast.JoinedStr)  # atoms, primaries


class _Writeback(getattr(ast, "_Unparser", object)):  # type: ignore[misc]
    """ast.unparse that writes each expression left as it was by its text on the line it
    was parsed from (in parentheses unless a primary): a line's untouched parts are not
    written out again node by node, which cost as much as all the rest of the pass."""

    def __init__(self, line: str):
        super().__init__()
        self.line = line.split("\n", 1)[0].encode("utf-8")  # offsets count its bytes

    def traverse(self, node):  # noqa: ANN001 - ast._Unparser's
        if (isinstance(node, ast.expr) and getattr(node, "end_lineno", None) == 1
                and node.lineno == 1 and not isinstance(node, (ast.Starred, ast.Slice))):
            text = self.line[node.col_offset:node.end_col_offset].decode("utf-8")
            self.write(text if isinstance(node, _PRIMARY) else f"({text})")
            return
        super().traverse(node)


def _code(stmts: list[ast.stmt], indent: int, line: str) -> list[str]:
    """The statements as lines at `indent`; `line` the text their original parts were
    parsed from."""
    pad = " " * indent
    _numbered(stmts)
    write = _writer(line)
    return [pad + x for s in stmts for x in write(s).split("\n")]


def _writer(line: str) -> Callable[[ast.AST], str]:
    """What writes nodes parsed from `line` back as text (ast.unparse where this Python's
    unparser cannot be extended)."""
    return _Writeback(line).visit if hasattr(ast, "_Unparser") else ast.unparse


_COMPREHENSION = re.compile(r"[\[{(][^\n]* for ")
_NAME = re.compile(r"[A-Za-z_]\w*")
_SIMPLE = (ast.Assign, ast.Expr, ast.Return, ast.AugAssign)


def _candidates(lines: list[str]) -> list[tuple[int, ast.stmt, str]]:
    """The lines that may evaluate a comprehension, each parsed alone (every line the
    generator writes is a whole statement, or the header of one): simple statements, and the
    headers of `if`, `elif` (parsed as an `if`) and `for`; none inside a raiser's function."""
    out, inside = [], None  # the indent of the raiser's `def` the lines are in
    for i, line in enumerate(lines):
        body = line.lstrip()
        indent = len(line) - len(body)
        if inside is not None and body and indent <= inside:
            inside = None
        if body.startswith("def ") and indent > 0:
            inside = indent
        if inside is not None or not _COMPREHENSION.search(line):
            continue
        stmt, text = parsed_line(body)
        if stmt is not None:
            out.append((i, stmt, text))
    return out


def parsed_line(line: str) -> tuple[ast.stmt | None, str]:
    """A generated line parsed alone, and the text parsed: a simple statement, or the header
    of an `if`, `elif` (parsed as an `if`) or `for` with a `pass` body; None for any other
    line. The node is shared (`_parsed`): not to be changed."""
    body = line.lstrip()
    head = body.endswith(":") and body.startswith(("if ", "elif ", "for "))
    text = ("if " + body[5:] if body.startswith("elif ") else body) + (
        "\n    pass" if head else "")
    return _parsed(text, head), text


def _own_vars(stmt: ast.stmt) -> collections.Counter:
    """How often each name appears in the statement as the variable of a comprehension that
    binds it (kept on the statement)."""
    known = stmt.__dict__.get("_lw_vars")
    if known is not None:
        return known
    known = collections.Counter()

    def count(node: ast.AST, bound: frozenset) -> None:
        if isinstance(node, ast.Name):
            known[node.id] += node.id in bound
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            count(node.generators[0].iter, bound)  # evaluated outside, before it binds
            inner = bound | {t.id for g in node.generators for t in ast.walk(g.target)
                             if isinstance(t, ast.Name)}
            for g in node.generators:
                for part in ([g.target, *g.ifs] if g is node.generators[0] else
                             [g.target, g.iter, *g.ifs]):
                    count(part, inner)
            for part in ([node.key, node.value] if isinstance(node, ast.DictComp)
                         else [node.elt]):
                count(part, inner)
        else:
            for c in ast.iter_child_nodes(node):
                count(c, bound)

    count(stmt, frozenset())
    stmt._lw_vars = known  # type: ignore[attr-defined]
    return known


@functools.lru_cache(maxsize=8192)
def _parsed(text: str, head: bool) -> ast.stmt | None:
    """The statement on a line, or None when the line is not one whole statement (or is
    `if x: y`, a statement on one line). Kept: a ruleset's setups and its bulk, tracked and
    logged functions share most lines, and nothing here changes a parsed node."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    if len(tree.body) == 1 and head == isinstance(tree.body[0], (ast.If, ast.For)):
        return tree.body[0]
    return None


def _own_names(seen: collections.Counter, source: str, parsed: list) -> set[str]:
    """The names of the function a loop must not bind: every name of the source but those
    whose every appearance is in a comprehension that binds it (its own variable), and `_`
    where only loop targets ever bind it (it binds what nobody reads)."""
    own_vars: collections.Counter = collections.Counter()
    for _, stmt, _ in parsed:
        own_vars.update(_own_vars(stmt))
    targets = " ".join(m.group(1) for m in re.finditer(r"\bfor ([\w, ]+?) in\b", source))
    dummy = seen["_"] == len(re.findall(r"(?<!\w)_(?!\w)", targets))
    return {n for n in seen if seen[n] != own_vars[n] and not (n == "_" and dummy)}


def _chain_end(lines: list[str], i: int) -> int:
    """The index after the `if`/`elif` chain whose branch is headed at line `i`."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    k = i + 1
    while k < len(lines):
        body = lines[k].lstrip()
        level = len(lines[k]) - len(body)
        if body and (level < indent or (level == indent and not body.startswith(
                ("elif ", "else:")))):
            break
        k += 1
    return k


def loops(source: str) -> str:
    """`source` (a module of one generated function, raisers inside it) with the
    comprehensions its statements evaluate written as loops. Only the lines that may hold a
    comprehension are parsed (each alone: a whole function is parsed again by `compile`)."""
    edits = _Edits(source)
    lines = edits.lines
    parsed = _candidates(lines)
    if not parsed:
        return source
    seen = collections.Counter(_NAME.findall(source))  # every name, each time it is written
    w = _Writer(set(seen), _own_names(seen, source, parsed))
    for i, s, text in parsed:
        indent = len(lines[i]) - len(lines[i].lstrip())
        if isinstance(s, _SIMPLE) and s.value is not None:
            stmts, value = w.expr(s.value)
            if stmts and not (isinstance(s, ast.AugAssign) and _loaded(s.target) & _stored(stmts)):
                kept = type(s)(**{f: getattr(s, f) for f in s._fields})
                kept.value = value
                edits.replace(i, _code([*stmts, kept], indent, text))
        elif isinstance(s, (ast.If, ast.For)) and len(s.body) == 1:
            stmts, value = w.expr(s.test if isinstance(s, ast.If) else s.iter)
            if not stmts:
                continue
            write = _writer(text)
            head = (f"if {write(value)}:" if isinstance(s, ast.If) else
                    f"for {write(s.target)} in {write(value)}:")
            if lines[i].lstrip().startswith("elif "):
                new = [" " * indent + "else:", *_code(stmts, indent + 4, text),
                       " " * (indent + 4) + head]
                edits.shifts.append((i + 1, _chain_end(lines, i) - 1))  # the rest, one level in
            else:
                new = [*_code(stmts, indent, text), " " * indent + head]
            edits.replace(i, new)
    return edits.text()
