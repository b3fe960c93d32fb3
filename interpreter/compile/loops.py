"""Phase 5c, compile for simulation (specializer): comprehensions written as loops.

Input: the source of a generated game function, finished (interpreter/compile/flow.py, after
the peephole passes and the late names). Output: the same source in which every list or set
comprehension a statement evaluates is a loop of statements before it: `any`, `all` and
`len` of one count into a name as the loop goes, any other is a list (or set) built by
`append` (`add`); the statement then reads the result. Everything else is byte for byte the
text it was.

Why: Python 3.11 makes a function and a frame for every comprehension it evaluates, about
as much work as a loop of three or four items; the policies of the richer rulesets evaluate
thousands of small comprehensions a game (a legality test, a count of dice, a sum of faces).

What stays exact: the loop evaluates what the comprehension evaluated, in the same order,
item by item, and nothing more (no short cut: `any` of a list evaluates every item, and a
rule's error in a later item is met as before). An `and`/`or`, a conditional or a memo
(`_L if _L is not _U else (_L := ...)`) whose later part holds a comprehension runs that part
only when Python would have; a part evaluated before a loop that could change it is kept in
a temporary first. What the writer cannot be sure of (a chained comparison, a `while` test,
a comprehension inside a lambda or a generator) is left as written.
"""

from __future__ import annotations

import ast

_COUNTED = ("any", "all", "len")   # a built-in of a comprehension that counts as the loop goes
_SCOPES = (ast.Lambda, ast.GeneratorExp, ast.DictComp, ast.FunctionDef, ast.ClassDef)


def _has(node: ast.AST) -> bool:
    """Whether `node` evaluates a list or set comprehension in its own scope."""
    if isinstance(node, (ast.ListComp, ast.SetComp)):
        return True
    if isinstance(node, _SCOPES):
        return False
    return any(_has(c) for c in ast.iter_child_nodes(node))


def _load(name: str) -> ast.Name:
    return ast.Name(name, ast.Load())


def _store(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign([ast.Name(name, ast.Store())], value)


def _stored(stmts: list[ast.stmt]) -> set[str]:
    """The names the statements assign (loop targets, walrus and memos included)."""
    return {x.id for s in stmts for x in ast.walk(s)
            if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Store)}


def _loaded(node: ast.AST) -> set[str]:
    return {x.id for x in ast.walk(node) if isinstance(x, ast.Name)}


Lowered = tuple[list[ast.stmt], ast.expr]


class _Writer:
    """Lowers expressions: each as statements to run first and an expression that then has
    its value."""

    def __init__(self, taken: set[str], own: set[str], read: set[str]):
        self.taken = taken
        self.own = own          # the function's names outside its comprehensions
        self.active: set[str] = set()  # the targets of the loops being written around this one
        self.dummy = set() if "_" in read else {"_"}  # `_` binds what nobody reads
        self.n = 0

    def temp(self) -> str:
        while True:
            self.n += 1
            name = f"_lw{self.n}"
            if name not in self.taken:
                self.taken.add(name)
                return name

    def expr(self, node: ast.expr) -> Lowered:
        if not _has(node):
            return [], node
        method = getattr(self, "_" + type(node).__name__, None)
        return method(node) if method is not None else ([], node)

    # -- the comprehensions ---------------------------------------------------------------------

    def _ListComp(self, node: ast.ListComp) -> Lowered:
        return self.loop(node, "list")

    def _SetComp(self, node: ast.SetComp) -> Lowered:
        return self.loop(node, "set")

    def loop(self, node: ast.ListComp | ast.SetComp, how: str) -> Lowered:
        """The comprehension as nested loops and tests, each generator's iterable and
        conditions evaluated where the comprehension evaluates them; a one-item tuple
        (`for _h in (x,)`, the meter's `for _ in (0,) if ...`) is an assignment, not a loop."""
        targets = {x.id for g in node.generators for x in ast.walk(g.target)
                    if isinstance(x, ast.Name)} - self.dummy
        if targets & (self.own | self.active):  # its names would overwrite the function's
            return [], node
        self.active |= targets
        try:
            return self._loop(node, how)
        finally:
            self.active -= targets

    def _loop(self, node: ast.ListComp | ast.SetComp, how: str) -> Lowered:
        r = self.temp()
        gens = list(node.generators)
        start = {"list": ast.List([], ast.Load()), "set": ast.Call(_load("set"), [], []),
                 "any": ast.Constant(False), "all": ast.Constant(True),
                 "len": ast.Constant(0)}[how]
        body = self._each(node.elt, r, how)
        for gen in reversed(gens):
            if gen.is_async:
                return [], node
            for cond in reversed(gen.ifs):
                s_c, c = self.expr(cond)
                body = [*s_c, ast.If(c, body, [])]
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
        if how == "any":
            return [*s_el, ast.If(el, [_store(r, ast.Constant(True))], [])]
        if how == "all":
            return [*s_el, ast.If(ast.UnaryOp(ast.Not(), el), [_store(r, ast.Constant(False))],
                                  [])]
        # len: the element is evaluated (unless a plain name or constant), then counted
        kept = [] if isinstance(el, (ast.Name, ast.Constant)) else [ast.Expr(el)]
        return [*s_el, *kept, ast.AugAssign(ast.Name(r, ast.Store()), ast.Add(), ast.Constant(1))]

    def _Call(self, node: ast.Call) -> Lowered:
        if (isinstance(node.func, ast.Name) and node.func.id in _COUNTED and len(node.args) == 1
                and not node.keywords and isinstance(node.args[0], ast.ListComp)):
            return self.loop(node.args[0], node.func.id)
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
        later = _stored([s for ss, _ in lowered[:last + 1] for s in ss])
        stmts: list[ast.stmt] = []
        out: list[ast.expr] = []
        for i, (s, e) in enumerate(lowered):
            stmts += s
            if i < last and e is not None and not isinstance(e, ast.Constant) and (
                    _has_effect(e) or _loaded(e) & later):
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
        memo = _memo_name(node)
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
        if any(_has(c) for c in node.comparators):  # a chain: its later parts may not run
            return [], node
        s, left = self.expr(node.left)
        return s, ast.Compare(left, node.ops, node.comparators)

    def _Tuple(self, node: ast.Tuple) -> Lowered:
        stmts, elts = self.ordered(list(node.elts))
        return (stmts, ast.Tuple(elts, ast.Load())) if stmts else ([], node)

    def _List(self, node: ast.List) -> Lowered:
        stmts, elts = self.ordered(list(node.elts))
        return (stmts, ast.List(elts, ast.Load())) if stmts else ([], node)


def _has_effect(node: ast.expr) -> bool:
    """Whether evaluating `node` could do anything but read (a call, an assignment): such a
    part before a loop is evaluated, into a temporary, before the loop."""
    return any(isinstance(x, (ast.Call, ast.NamedExpr, ast.Subscript, ast.BinOp, ast.Compare,
                              ast.Attribute)) for x in ast.walk(node))


def _flat(node: ast.BoolOp) -> list[ast.expr]:
    """The operands of `node`, those of a nested `and` in an `and` (an `or` in an `or`) in
    its place: the same values, evaluated in the same order."""
    out: list[ast.expr] = []
    for v in node.values:
        out += _flat(v) if isinstance(v, ast.BoolOp) and type(v.op) is type(node.op) else [v]
    return out


def _one(gen: ast.comprehension) -> bool:
    """A generator over a one-item tuple (`for _h in (x,)`): an assignment, not a loop."""
    it = gen.iter
    return isinstance(it, ast.Tuple) and len(it.elts) == 1 and not isinstance(
        it.elts[0], ast.Starred)


def _memo_name(node: ast.IfExp) -> str | None:
    """`N` of a memo read `N if N is not _U else (N := value)`, else None."""
    t, b, o = node.test, node.body, node.orelse
    if (isinstance(b, ast.Name) and isinstance(o, ast.NamedExpr) and o.target.id == b.id
            and isinstance(t, ast.Compare) and isinstance(t.left, ast.Name)
            and t.left.id == b.id and len(t.ops) == 1 and isinstance(t.ops[0], ast.IsNot)
            and isinstance(t.comparators[0], ast.Name) and t.comparators[0].id == "_U"):
        return b.id
    return None


class _Edits:
    """The source's lines and what replaces them: statements rewritten at their own indent,
    `elif` branches turned into `else:` blocks (their lines indented one level more)."""

    def __init__(self, source: str):
        self.lines = source.split("\n")
        self.new: dict[int, list[str]] = {}    # 0-based first line -> its replacement
        self.gone: set[int] = set()            # lines a replacement covers
        self.shifts: list[tuple[int, int]] = []  # [first, last] lines indented 4 more

    def replace(self, first: int, last: int, text: list[str]) -> None:
        self.new[first] = text
        self.gone.update(range(first + 1, last + 1))

    def text(self) -> str:
        out: list[str] = []
        for i, line in enumerate(self.lines):
            if i in self.gone:
                continue
            shift = " " * (4 * sum(1 for a, b in self.shifts if a <= i <= b))
            out += [shift + x if x else x for x in self.new.get(i, [line])]
        return "\n".join(out)


def _code(stmts: list[ast.stmt], indent: int) -> list[str]:
    pad = " " * indent
    for s in stmts:
        for x in ast.walk(s):
            if isinstance(x, ast.stmt) and not hasattr(x, "lineno"):
                x.lineno = 0  # read by ast.unparse (type comments), never written out
    return [pad + line for s in stmts for line in ast.unparse(s).split("\n")]


def _walk(body: list[ast.stmt], w: _Writer, edits: _Edits) -> None:
    for s in body:
        if isinstance(s, (ast.FunctionDef, ast.ClassDef)):
            continue  # a raiser's own function: left as written
        indent = s.col_offset
        if isinstance(s, (ast.Assign, ast.Expr, ast.Return, ast.AugAssign)) and s.value is not None \
                and _has(s.value):
            stmts, value = w.expr(s.value)
            if stmts and not (isinstance(s, ast.AugAssign) and _loaded(s.target) & _stored(stmts)):
                kept = type(s)(**{f: getattr(s, f) for f in s._fields})
                kept.value = value
                edits.replace(s.lineno - 1, s.end_lineno - 1, _code([*stmts, kept], indent))
        elif isinstance(s, ast.If):
            _header(s, s.test, "if", w, edits)
            _walk(s.body, w, edits)
            _walk(s.orelse, w, edits)
        elif isinstance(s, ast.For):
            _header(s, s.iter, "for", w, edits)
            _walk(s.body, w, edits)
            _walk(s.orelse, w, edits)
        elif isinstance(s, (ast.While, ast.With)):
            _walk(s.body, w, edits)
            _walk(getattr(s, "orelse", []), w, edits)
        elif isinstance(s, ast.Try):
            _walk(s.body, w, edits)
            for h in s.handlers:
                _walk(h.body, w, edits)
            _walk(s.orelse, w, edits)
            _walk(s.finalbody, w, edits)


def _header(s: ast.If | ast.For, part: ast.expr, word: str, w: _Writer, edits: _Edits) -> None:
    """An `if`/`elif` test or a `for`'s iterable, on one line, lowered: its statements before
    the header; an `elif`'s go in an `else:` block, the rest of the chain one level in."""
    line = edits.lines[s.lineno - 1]
    if not _has(part) or part.end_lineno != s.lineno or s.body[0].lineno == s.lineno:
        return
    stmts, value = w.expr(part)
    if not stmts:
        return
    indent = s.col_offset
    if word == "for":
        head = f"for {ast.unparse(s.target)} in {ast.unparse(value)}:"
    else:
        head = f"if {ast.unparse(value)}:"
    if line.lstrip().startswith("elif "):
        text = [" " * indent + "else:", *_code(stmts, indent + 4), " " * (indent + 4) + head]
        edits.shifts.append((s.lineno, s.end_lineno - 1))  # the branch and the rest of the chain
    else:
        text = [*_code(stmts, indent), " " * indent + head]
    edits.replace(s.lineno - 1, s.lineno - 1, text)


def _own(node: ast.AST, out: set[str]) -> set[str]:
    """The names `node` binds outside comprehensions (and the comprehensions' walrus
    targets, which bind in the function)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
        out.add(node.id)
    if isinstance(node, ast.comprehension):
        node = ast.Tuple([node.iter, *node.ifs], ast.Load())  # its target is its own
    for c in ast.iter_child_nodes(node):
        _own(c, out)
    return out


def loops(source: str) -> str:
    """`source` (a module of one generated function, raisers inside it) with the
    comprehensions its statements evaluate written as loops. A source that is not Python (a
    learning pass's, interpreter/compile/maps.py, thrown away) is given back as it is."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    taken = {x.id for x in ast.walk(tree) if isinstance(x, ast.Name)}
    read = {x.id for x in ast.walk(tree) if isinstance(x, ast.Name) and isinstance(x.ctx, ast.Load)}
    edits = _Edits(source)
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            _walk(fn.body, _Writer(taken, _own(fn, set()), read), edits)
    return edits.text()
