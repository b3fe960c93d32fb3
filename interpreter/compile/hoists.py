"""Phase 5b, compile for simulation (expressions): a value that counts work, split so that it
is worked out once before a comprehension's items while its work is still counted at each.

Input: the generated source of an expression inside a comprehension's element or condition
that does not read the comprehension's item (interpreter/compile/exprs.py `_hoisted`), such
as the `max` of another list in `[p for p in xs if p.total == max(q.total for q in xs)]`.
Output: None, or two sources: the value's, to work out once before the items, without its
count; and the count alone, a test that is true unless the work meter passes the step
budget, to evaluate where the value was, at each item.

Why: the interpreter works the value out again at each item, and counts its work each
time; the generated code gave the same result by doing the same. Worked out once, the list
is built once instead of once per item (a roll-off of n players builds n lists of n). The
count stays where the interpreter counts it, so a game past its budget stops at the same
item as the interpreter's.

What stays exact, and what is refused (None):
- exactly one count (a test `... or _over()` whose first part binds `wk`) in the source,
  at a place every evaluation of the source reaches (the test of a conditional, the first
  part of an `and` or `or`, a comprehension's iterable, the first test of one that goes
  through a single item...): the count then runs at every item, as before;
- the list it counts is bound to a fresh `_itN` by the count itself (the count alone then
  reads `len(_itN)`, bound by the value's source before the items), or the count reads
  such a list already bound (a value split before, inside this one);
- no other name is bound than the writer's fresh temporaries (`_itN`, `_tN`) and `wk`:
  no memo, no flag, whose place matters;
- the caller moves only a value that cannot fail and reads nothing the items change: a
  generated expression changes nothing but its own temporaries and the meter, so the list
  counted is the same at every item, of the same length.
"""

from __future__ import annotations

import ast
import copy
import functools
import re

from interpreter.compile.trees import expression_tree

_TEMP = re.compile(r"_(it|t)\d+")


def _is_count(node: ast.AST) -> bool:
    """`((wk := ...) + steps <= MAX or _over())`, as meter.py `charge` writes it."""
    return isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and any(
        isinstance(x, ast.NamedExpr) and x.target.id == "wk" for x in ast.walk(node.values[0]))


def _reached(node: ast.AST) -> list[ast.AST]:
    """The parts of `node` that every evaluation of it evaluates."""
    if isinstance(node, ast.IfExp):
        return [node.test]
    if isinstance(node, ast.BoolOp):
        return [node.values[0]]
    if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        first = node.generators[0]  # a list is built now: its one item's first test runs
        one = isinstance(first.iter, ast.Tuple) and len(first.iter.elts) == 1 and not \
            isinstance(node, ast.GeneratorExp)
        return [first.iter, *first.ifs[:1]] if one else [first.iter]
    if isinstance(node, ast.Compare):
        return [node.left, node.comparators[0]]
    if isinstance(node, (ast.Lambda, ast.DictComp)):
        return []
    return list(ast.iter_child_nodes(node))


def _count_reached(root: ast.AST) -> ast.BoolOp | None:
    """The count in `root`, if every evaluation of `root` reaches it."""
    todo = [root]
    while todo:
        x = todo.pop()
        if _is_count(x):
            return x
        todo += _reached(x)
    return None


@functools.lru_cache(maxsize=1024)
def split_count(src: str) -> tuple[str, str] | None:
    """(the value's source without its count, the count alone), or None (see the module)."""
    tree = expression_tree(src)
    if tree is None:
        return None
    counts = [x for x in ast.walk(tree) if _is_count(x)]
    if len(counts) != 1 or _count_reached(tree.body) is not counts[0]:
        return None
    bound = [x for x in ast.walk(tree) if isinstance(x, ast.NamedExpr)]
    if any(x.target.id != "wk" and not _TEMP.fullmatch(x.target.id) for x in bound):
        return None
    count = counts[0]
    lists = [x for x in ast.walk(count) if isinstance(x, ast.NamedExpr) and x.target.id != "wk"]
    if len(lists) > 1 or (lists and not lists[0].target.id.startswith("_it")):
        return None
    alone = _Read().visit(copy.deepcopy(count))  # reads the list the value's source binds
    # In the value's source the count becomes a test that only binds its list (a one-item
    # tuple is true), or, already bound, is dropped with the conditional it guarded.
    once = _Dropped(count, lists[0] if lists else None).visit(tree)
    return ast.unparse(once.body), ast.unparse(alone)


class _Read(ast.NodeTransformer):
    def visit_NamedExpr(self, node: ast.NamedExpr) -> ast.AST:
        if node.target.id == "wk":
            return self.generic_visit(node)
        return ast.Name(node.target.id, ast.Load())


class _Dropped(ast.NodeTransformer):
    def __init__(self, count: ast.BoolOp, binding: ast.NamedExpr | None):
        self.count, self.binding = count, binding

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        if node.test is self.count and self.binding is None:
            return self.visit(node.body)  # `(x if COUNT else None)`: x
        return self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        if node is not self.count:
            return self.generic_visit(node)
        if self.binding is None:
            return ast.Constant(True)
        return ast.Tuple([self.binding], ast.Load())
