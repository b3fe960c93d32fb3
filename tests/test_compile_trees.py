"""interpreter/compile/trees.py: a generated expression read back as a tree, and None for what
is not one expression Python's parser takes, so the pass that asks leaves the code as written
(never a traceback from the generator)."""

from __future__ import annotations

import ast

import pytest

from interpreter.compile.trees import expression_tree, statements_tree


def test_an_expression_is_read_back_as_its_tree():
    tree = expression_tree("(a if a is not _U else (a := b + 1))")
    assert isinstance(tree, ast.Expression) and isinstance(tree.body, ast.IfExp)


@pytest.mark.parametrize("src", [
    "x = 1",                      # a statement, not an expression
    "if a:",                      # the header of one
    "a +",                        # a fragment
    "a\0b",                       # a NUL character (ValueError)
    "(" * 300 + "1" + ")" * 300,  # too many parentheses (SyntaxError)
    "-" * 100_000 + "1",          # deeper than the parser goes (MemoryError in Python 3.11)
])
def test_what_is_not_one_expression_python_takes_reads_as_none(src):
    assert expression_tree(src) is None


def test_a_function_is_read_back_as_its_statements_and_a_broken_one_as_none():
    tree = statements_tree("def play(seed):\n    x = 1\n    return x\n")
    assert isinstance(tree, ast.Module) and isinstance(tree.body[0], ast.FunctionDef)
    for broken in ("def play(seed):\nreturn 1\n", "x = 1\0", "x = " + "-" * 100_000 + "1"):
        assert statements_tree(broken) is None
