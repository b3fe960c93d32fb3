"""Phase 5c, compile for simulation (specializer): a flag known at a test, read as what it holds.

Input: the source of a generated game function, finished (after every other pass). Output:
the same source, line for line, in which a test reads a flag's value where the flag holds that
same value on every path of the function that reaches the test: `if (V_running) and (X):`
becomes `if (X):`, `if V_running:` becomes `if True:` (Python's compiler drops the test, and
the body of an `if False:`), `not T_on or X` becomes `X`.

A flag is a local name that every binding in the function gives `True`, `False` or the value
of another flag (`_t5 = False`, `V_running = _t5`): a state value, a timer's running flag, a
loop's `_et`. Nothing else can change it: not a `+=`, not a loop's target, not a `:=`, not a
function inside.

Why: a rule's effects are written one after another, each testing what the rules say it
tests. A loop that a flag's write has just entered often runs with the flag set at every
pass, because every write that clears it leaves the loop too; the rule's tests read it at
every pass all the same. Shown on a game whose turn loops while a state flag is set and a
timer runs: the loop's tests of both cost about 2 to 3% of its games' time.

How: the function is read as a tree and run abstractly, statement by statement, with the set
of flag values each path can hold (a few paths are kept apart, so that "the flag is cleared
here, and then the loop is left" is seen as one path; past `_PATHS` paths they are merged,
keeping only what all agree on). A test that a path decides sends it down one branch only; a
loop is run until the values at its head stop changing; a `try`'s handlers (and its finally,
for an exception) start from what held at the `try`, less every flag it writes (an exception
can come from anywhere in it). Every reading of a flag records what each path holds there.
A flag whose every mention lies in the statements of one block from a plain store of it on
(a temporary, a loop's "found" flag set at each pass) is forgotten after the last of them, so
it does not multiply the paths: forgetting is always exact, only less precise.
Only flags some test reads are followed (with the flags whose values they are given), and
only the lines where a name given True or False is written are read closely: a statement
without one passes its paths on as they came.

Cost: reading the function as a tree is most of it (about 2 ms for a short dice game's
function, 20 to 45 ms for the longest shipped rulesets'), and a source where no test reads
such a name is not read at all. The specializer passes the fast versions alone through it,
whose games are played by the thousand (interpreter/compile/specialize.py); the tree it gives
back is compiled as it is, not read again from the text, and the text is kept for the same
function written again (a setup played again, the same ruleset and seats in another test).

What stays exact: a flag is replaced only where every path reaching it agrees on one value,
and only in a test's truth (an `if`'s, a `while`'s, a conditional's, and the `and`, `or` and
`not` inside them), where `True and X` is `X`. A statement the pass does not know how to
follow (a `with`, a function or class inside, a `match`...) that holds a flag leaves the whole
source as it was, as does more work than `_BUDGET` statements read: it only ever makes code
faster. tests/test_compile_known.py runs random functions both ways.
"""

from __future__ import annotations

import ast
import gc
import re
from bisect import bisect_left
from dataclasses import dataclass, field

from interpreter.compile.trees import expression_tree, statements_tree

_PATHS = 8          # paths kept apart at one point before they are merged
_LOOP_ROUNDS = 50   # rounds of a loop's head before the pass gives up
_BUDGET = 100_000   # statements read before the pass gives up (some 0.3 s)
_UNKNOWN = "?"
_KEPT = 32          # sources whose rewriting is kept, for the same function written again
_DONE: dict[str, str] = {}
_FLAG_STORE = re.compile(r"^ *([A-Za-z_]\w*) = (?:True|False)$", re.M)

Env = frozenset  # of (flag, bool): what one path knows


class _GiveUp(Exception):
    """A statement or an amount of work the pass does not follow: the source stays."""


@dataclass
class _Out:
    """The paths that leave a block: falling through, by `break`, by `continue`."""
    normal: set = field(default_factory=set)
    breaks: set = field(default_factory=set)
    continues: set = field(default_factory=set)

    def add(self, other: _Out) -> None:
        self.normal |= other.normal
        self.breaks |= other.breaks
        self.continues |= other.continues


def _merged(states: set) -> set:
    """`states`, merged into one path knowing what all agree on when there are too many."""
    if len(states) <= _PATHS:
        return states
    return {frozenset.intersection(*states)}


def _value(env: Env, name: str):
    for item in ((name, True), (name, False)):
        if item in env:
            return item[1]
    return None


def _set(env: Env, name: str, value) -> Env:
    kept = env - {(name, True), (name, False)}
    return kept if value is None else kept | {(name, value)}


_SCOPES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Tree:
    """One walk of a function over what holds a line in `hot` (the lines where a name that
    may be a flag is written: nothing else can hold one), each node with whether a lambda
    or comprehension holds it; their parents, and each statement's place in its block."""

    def __init__(self, fn: ast.FunctionDef, hot: list[int]):
        self.parent: dict[int, ast.AST] = {}
        self.nodes: list[tuple[ast.AST, bool]] = []
        self.place: dict[int, tuple[int, str, int]] = {}  # id of a statement -> its block, index
        self.at: dict[tuple[int, str, int], ast.stmt] = {}
        todo: list[tuple[ast.AST, bool]] = [(fn, False)]
        while todo:
            node, inside = todo.pop()
            self.nodes.append((node, inside))
            inner = inside or isinstance(node, _SCOPES)
            for field_name in node._fields:
                value = getattr(node, field_name, None)
                for i, child in enumerate(value) if isinstance(value, list) else ((0, value),):
                    if not isinstance(child, ast.AST):
                        continue
                    if hasattr(child, "lineno"):
                        k = bisect_left(hot, child.lineno)
                        if k == len(hot) or hot[k] > child.end_lineno:
                            continue  # no flag's name on its lines
                    if isinstance(child, ast.stmt):
                        where = (id(node), field_name, i)
                        self.place[id(child)] = where
                        self.at[where] = child
                    self.parent[id(child)] = node
                    todo.append((child, inner))

    def ups(self, node: ast.AST):
        """The nodes holding `node`, innermost first, each with the one it came up from."""
        child, up = node, self.parent.get(id(node))
        while up is not None:
            yield child, up
            child, up = up, self.parent.get(id(up))


def _flags(tree: _Tree, fn: ast.FunctionDef, candidates: set[str]) -> set[str]:
    """The function's flags (see the module) a test reads, among `candidates` (the names
    given True or False somewhere), and those whose values they are given."""
    plain: dict[int, ast.AST] = {}  # id of a Name a flag assignment stores -> the value
    for node, _ in tree.nodes:
        if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
            v = node.value
            if (isinstance(v, ast.Constant) and isinstance(v.value, bool)) or isinstance(v, ast.Name):
                plain.update((id(t), v) for t in node.targets)
    names: set[str] = set()
    bad: set[str] = set()
    copies: list[tuple[str, str]] = []
    for node, _ in tree.nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            (names if id(node) in plain else bad).add(node.id)
            if isinstance(plain.get(id(node)), ast.Name):
                copies.append((node.id, plain[id(node)].id))
        elif isinstance(node, ast.arg):
            bad.add(node.arg)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bad.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bad.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            bad.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) \
                and node is not fn:
            bad.add(node.name)
    flags = (names & candidates) - bad
    tested: set[str] = set()
    for node, inside in tree.nodes:
        if isinstance(node, (ast.If, ast.While, ast.IfExp)) and not inside:
            _tested_in(node.test, tested)
    while True:  # a flag given another name's value: that name must be a flag too
        dropped = {name for name, source in copies if name in flags and source not in flags}
        if not dropped:
            break
        flags -= dropped
    # Only a flag a test reads is worth following, with those whose values it is given.
    kept = flags & tested
    while True:
        more = {source for name, source in copies if name in kept and source not in kept}
        if not more:
            return kept
        kept |= more


def _tested_in(test: ast.AST, names: set[str]) -> None:
    """The names a test's truth reads directly (through `and`, `or`, `not`)."""
    if isinstance(test, ast.Name):
        names.add(test.id)
    elif isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        _tested_in(test.operand, names)
    elif isinstance(test, ast.BoolOp):
        for v in test.values:
            _tested_in(v, names)


class _Reader:
    """Runs one function's body abstractly, recording what each flag reading holds."""

    def __init__(self, tree: _Tree, flags: set[str]):
        self.flags = flags
        self.seen: dict[int, set] = {}   # id of a Name read -> the values paths held there
        self.work = 0
        self.owned: dict[int, list[ast.Name]] = {}  # id of a statement -> the flags it reads
        self.touches: set[int] = set()   # ids of the statements that read or write a flag
        self.leaves: dict[int, tuple[bool, bool]] = {}  # id -> _escapes
        self.written: dict[int, set[str]] = {}  # id of a try -> the flags it may write
        self.expire: dict[int, list[str]] = {}  # id of a statement -> flags dead after it (_local)
        self.done: dict[tuple, _Out] = {}  # (id of a loop, paths coming in) -> paths out
        mentions: dict[str, list[ast.Name]] = {}
        for node, inside in tree.nodes:
            if isinstance(node, ast.Name) and node.id in flags:
                loaded = isinstance(node.ctx, ast.Load)
                mentions.setdefault(node.id, []).append(node)
                owner = None
                for child, up in tree.ups(node):
                    if isinstance(up, ast.stmt):
                        owner = owner or up
                        self.touches.add(id(up))
                    if isinstance(up, ast.Try) and not loaded and child not in up.finalbody:
                        self.written.setdefault(id(up), set()).add(node.id)
                if loaded and not inside and owner is not None:
                    self.owned.setdefault(id(owner), []).append(node)
        for name, named in mentions.items():
            self._local(tree, name, named)

    def _escapes(self, s: ast.stmt) -> tuple[bool, bool]:
        """Whether a `break`, a `continue` in `s` gets out of it (to the loop around it)."""
        got = self.leaves.get(id(s))
        if got is None:
            brk = cont = False
            todo = [s]
            while todo:
                n = todo.pop()
                if isinstance(n, ast.Break):
                    brk = True
                elif isinstance(n, ast.Continue):
                    cont = True
                elif isinstance(n, (ast.For, ast.While, ast.AsyncFor)):
                    todo.extend(n.orelse)  # its body's jumps are its own
                elif not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    todo.extend(c for c in ast.iter_child_nodes(n)
                                if isinstance(c, (ast.stmt, ast.excepthandler, ast.match_case)))
            got = self.leaves[id(s)] = (brk, cont)
        return got

    def _local(self, tree: _Tree, name: str, nodes: list[ast.Name]) -> None:
        """A flag whose first mention is a plain store, a statement of a block, and every
        other mention (read or store) within the statements of that block that follow it, is
        dead after the last of them: every reading comes after that store in the same pass
        through the block (straight-line code is entered only from its top), so no path needs
        it kept apart past there (a temporary, a loop's "found" flag set at each pass)."""
        first = min(nodes, key=lambda x: (x.lineno, x.col_offset))
        assign = tree.parent.get(id(first))
        if not (isinstance(assign, ast.Assign) and assign.targets == [first]) or len(nodes) < 2:
            return
        block, field_name, i = tree.place[id(assign)]
        last = i
        for node in nodes:
            if node is first:
                continue
            j = next((tree.place[id(up)][2] for _, up in tree.ups(node)
                      if tree.place.get(id(up), (None, None))[:2] == (block, field_name)), None)
            if j is None or j <= i:  # outside the block, or before the store or within it
                return
            last = max(last, j)
        self.expire.setdefault(id(tree.at[(block, field_name, last)]), []).append(name)

    def record(self, s: ast.stmt, states: set) -> None:
        """Every flag the statement reads itself (outside lambdas and comprehensions), under
        `states`."""
        for n in self.owned.get(id(s), ()):
            got = self.seen.setdefault(id(n), set())
            for env in states:
                v = _value(env, n.id)
                got.add(_UNKNOWN if v is None else v)

    # -- expressions ------------------------------------------------------------------------------
    def truth(self, node: ast.AST, env: Env):
        """The test's truth on this path: True, False, or None when it is not known."""
        if isinstance(node, ast.Constant):
            return bool(node.value)
        if isinstance(node, ast.Name):
            return _value(env, node.id) if node.id in self.flags else None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            v = self.truth(node.operand, env)
            return None if v is None else not v
        if isinstance(node, ast.BoolOp):
            vs = [self.truth(v, env) for v in node.values]
            stop = isinstance(node.op, ast.Or)  # the value that decides the whole
            if stop in vs:
                return stop
            return (not stop) if all(v is not None for v in vs) else None
        return None

    def split(self, test: ast.AST, states: set) -> tuple[set, set]:
        """The paths on which `test` may be true, and those on which it may be false; a flag
        tested alone is known on each side."""
        yes, no = set(), set()
        alone, negated = test, False
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            alone, negated = test.operand, True
        flag = alone.id if isinstance(alone, ast.Name) and alone.id in self.flags else None
        for env in states:
            v = self.truth(test, env)
            if v is not False:
                yes.add(_set(env, flag, not negated) if v is None and flag else env)
            if v is not True:
                no.add(_set(env, flag, negated) if v is None and flag else env)
        return yes, no

    # -- statements -------------------------------------------------------------------------------
    def block(self, body: list[ast.stmt], states: set) -> _Out:
        out = _Out()
        for s in body:
            if not states:
                break
            got = self.stmt(s, states)
            dead = self.expire.get(id(s))
            if dead:
                got = _Out(*({frozenset(x for x in env if x[0] not in dead) for env in part}
                             for part in (got.normal, got.breaks, got.continues)))
            out.breaks |= got.breaks
            out.continues |= got.continues
            states = _merged(got.normal)
        out.normal = states
        return out

    def stmt(self, s: ast.stmt, states: set) -> _Out:
        self.work += 1
        if self.work > _BUDGET:
            raise _GiveUp
        if isinstance(s, ast.Break):
            return _Out(breaks=set(states))
        if isinstance(s, ast.Continue):
            return _Out(continues=set(states))
        if isinstance(s, (ast.Return, ast.Raise)):
            self.record(s, states)
            return _Out()
        if id(s) not in self.touches:  # no flag in it: every path leaves it as it came
            brk, cont = self._escapes(s)
            return _Out(normal=set(states), breaks=set(states) if brk else set(),
                        continues=set(states) if cont else set())
        self.record(s, states)  # (a loop's test is recorded at each round of its head)
        if isinstance(s, ast.Assign):
            names = [t.id for t in s.targets if isinstance(t, ast.Name) and t.id in self.flags]
            if not names:
                return _Out(normal=set(states))
            now = set()
            for env in states:
                v = self.truth(s.value, env) if isinstance(
                    s.value, (ast.Constant, ast.Name)) else None
                for name in names:
                    env = _set(env, name, v)
                now.add(env)
            return _Out(normal=now)
        if isinstance(s, (ast.AugAssign, ast.AnnAssign, ast.Expr, ast.Pass, ast.Delete,
                          ast.Assert)):
            return _Out(normal=set(states))  # none of these binds a flag (see _flags)
        if isinstance(s, ast.If):
            yes, no = self.split(s.test, states)
            out = self.block(s.body, yes)
            out.add(self.block(s.orelse, no))
            return out
        if isinstance(s, ast.While):
            return self.loop(s, states)
        if isinstance(s, ast.For):
            return self.loop(s, states)
        if isinstance(s, ast.Try):
            return self.attempt(s, states)
        raise _GiveUp  # with, match, def, class, async, global...: not followed

    def loop(self, s: ast.While | ast.For, states: set) -> _Out:
        # A loop inside another is read again at each round of the outer one, mostly with
        # the same paths coming in: what it gave then (and recorded) it gives again.
        key = (id(s), frozenset(states))
        done = self.done.get(key)
        if done is None:
            done = self.done[key] = self._loop(s, states)
        return _Out(set(done.normal), set(done.breaks), set(done.continues))

    def _loop(self, s: ast.While | ast.For, states: set) -> _Out:
        head = set(states)
        for _ in range(_LOOP_ROUNDS):
            if isinstance(s, ast.While):
                self.record(s, head)
                run, done = self.split(s.test, head)
            else:
                run, done = head, head  # the items may run out at any pass
            body = self.block(s.body, run)
            again = _merged(head | body.normal | body.continues)
            if again == head:
                break
            head = again
        else:
            raise _GiveUp
        out = self.block(s.orelse, done)
        out.normal |= body.breaks
        return out

    def attempt(self, s: ast.Try, states: set) -> _Out:
        written = self.written.get(id(s), set())
        # An exception may come from any point of the body: what the `try` knew, less what
        # the body (or a handler, or the else part, for the finally) may have written.
        raised = {frozenset(x for x in env if x[0] not in written) for env in states}
        body = self.block(s.body, states)
        out = self.block(s.orelse, body.normal)
        out.breaks |= body.breaks
        out.continues |= body.continues
        self.record(s, raised)  # the handlers' exception types
        for h in s.handlers:
            out.add(self.block(h.body, raised))
        if not s.finalbody:
            return out
        # The finally runs on each way out, and each goes on its way after it (an exception
        # is raised again), unless the finally itself leaves by `break` or `continue`.
        n, b, c, r = (self.block(s.finalbody, way)
                      for way in (out.normal, out.breaks, out.continues, raised))
        return _Out(normal=n.normal,
                    breaks=n.breaks | b.normal | b.breaks | c.breaks | r.breaks,
                    continues=n.continues | b.continues | c.normal | c.continues | r.continues)


# -- the rewriting ----------------------------------------------------------------------------
def _segment(source_lines: list[bytes], node: ast.AST) -> str:
    return source_lines[node.lineno - 1][node.col_offset:node.end_col_offset].decode()


def _folded(node: ast.AST, known: dict[int, bool], lines: list[bytes]):
    """In a test's truth: a bool where `node` is known, the text to write in its place where a
    part of it is, None where nothing is."""
    if isinstance(node, ast.Name):
        return known.get(id(node))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _folded(node.operand, known, lines)
        if isinstance(inner, bool):
            return not inner
        return None if inner is None else f"not ({inner})"
    if isinstance(node, ast.BoolOp):
        stop = isinstance(node.op, ast.Or)  # the value that decides the whole
        parts: list[str] = []
        changed = False
        for v in node.values:
            f = _folded(v, known, lines)
            if f is stop:
                if not parts:
                    return stop  # decided before anything else runs
                parts.append(repr(stop))
                changed = True
                break  # nothing after it runs
            if f is (not stop):
                changed = True
                continue  # `True and X` is X's truth
            parts.append(f if isinstance(f, str) else _segment(lines, v))
            changed = changed or f is not None
        if not changed:
            return None
        if not parts:
            return not stop
        return parts[0] if len(parts) == 1 else (" and " if not stop else " or ").join(
            f"({p})" for p in parts)
    return None


def _tests(tree: _Tree):
    """The tests (an `if`'s, a `while`'s, a conditional's) outside lambdas and
    comprehensions."""
    for n, inside in tree.nodes:
        if not inside and isinstance(n, (ast.If, ast.While, ast.IfExp)):
            yield n


def _candidates(source: str, lines: list[str]) -> tuple[set[str], list[int]]:
    """The names given True or False somewhere, and the lines (numbered from 1, in order)
    where they are written; none where no line that tests reads one: most sources have
    none, and are left without being read as a tree."""
    names = set(_FLAG_STORE.findall(source))
    if not names:
        return set(), []
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    hot: set[int] = set()
    tested = False
    for m in re.finditer(r"\b(?:" + "|".join(sorted(names)) + r")\b", source):
        row = bisect_left(starts, m.start() + 1)
        if row not in hot:
            hot.add(row)
            body = lines[row - 1].lstrip()
            tested = tested or body.startswith(("if ", "elif ", "while ")) or " if " in body
    return (names, sorted(hot)) if tested else (set(), [])


def _placed(text: str, row: int, start: int) -> ast.expr | None:
    """`text` as the tree of an expression standing at `start` (bytes) of line `row` + 1."""
    tree = expression_tree(text)
    if tree is None:
        return None
    for node in ast.walk(tree.body):
        if hasattr(node, "lineno"):
            node.lineno = node.end_lineno = row + 1
            node.col_offset += start
            node.end_col_offset += start
    return tree.body


def known_flags(source: str) -> tuple[str, ast.Module | None]:
    """`source` with every flag known at a test read as its value (see the module), and,
    where the pass read it, its tree (changed as the text is), to compile without reading the
    text again; None where it did not."""
    done = _DONE.get(source)
    if done is not None:  # the same function again (another seat's table, the checked one)
        return done, None
    # Reading a long function as a tree makes some hundred thousand objects, which would set
    # off the collector's passes over every object the process holds, again and again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        text, tree = _known_flags(source)
    finally:
        if collecting:
            gc.enable()
    if len(_DONE) >= _KEPT:
        _DONE.clear()
    _DONE[source] = text
    return text, tree


def _known_flags(source: str) -> tuple[str, ast.Module | None]:
    text_lines = source.split("\n")
    candidates, hot = _candidates(source, text_lines)
    if not candidates:
        return source, None
    tree = statements_tree(source)
    if tree is None:
        return source, None
    lines = [line.encode() for line in text_lines]
    edits: list[tuple[int, int, int, str, ast.AST]] = []
    for fn in tree.body:
        if not isinstance(fn, ast.FunctionDef):
            continue
        walked = _Tree(fn, hot)
        flags = _flags(walked, fn, candidates)
        if not flags:
            continue
        reader = _Reader(walked, flags)
        try:
            reader.block(fn.body, {frozenset()})
        except (_GiveUp, RecursionError):
            return source, tree
        known = {k: next(iter(v)) for k, v in reader.seen.items()
                 if len(v) == 1 and _UNKNOWN not in v}
        for holder in _tests(walked) if known else ():
            test = holder.test
            f = _folded(test, known, lines) if test.lineno == test.end_lineno else None
            if f is not None:
                edits.append((test.lineno - 1, test.col_offset, test.end_col_offset,
                              repr(f) if isinstance(f, bool) else f"({f})", holder))
    if not edits:
        return source, tree  # read as a tree already: compiled from it all the same
    kept: list[tuple[int, int, int, str, ast.AST]] = []
    for edit in sorted(edits, key=lambda e: (e[0], e[1], -e[2])):
        if not kept or kept[-1][0] != edit[0] or edit[1] >= kept[-1][2]:
            kept.append(edit)  # a test inside one already rewritten stays in its text
    for row, start, end, text, holder in reversed(kept):
        node = _placed(text, row, start)
        if node is None:  # not reached by what the writer makes; the source stays if it is
            return source, None
        holder.test = node
        lines[row] = lines[row][:start] + text.encode() + lines[row][end:]
    return "\n".join(line.decode() for line in lines), tree
