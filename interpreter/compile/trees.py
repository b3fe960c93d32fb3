"""Phase 5b/5c, compile for simulation (specializer): generated source read back as a tree.

Input: the source of one Python expression the writer made (or of statements: a whole
generated function). Output: its tree (`ast.Expression`, `ast.Module`), or None where the text
is not what Python's parser takes (a part of a statement, a fragment, or nesting deeper than
the parser goes). Every pass that reads the code it wrote back as a tree asks here, and leaves
as written what comes back None: reading is only ever for making the code faster, never needed
for it to run.
"""

from __future__ import annotations

import ast


def expression_tree(src: str) -> ast.Expression | None:
    """`src` as a tree, or None (see the module)."""
    return _tree(src, "eval")


def statements_tree(src: str) -> ast.Module | None:
    """`src`, statements such as a whole generated function, as a tree, or None."""
    return _tree(src, "exec")


def _tree(src: str, mode: str):
    try:
        return ast.parse(src, mode=mode)
    # ValueError: a NUL character; MemoryError and RecursionError: nesting deeper than the
    # parser goes (Python 3.11's parser says so with a MemoryError: `- - ... - 1`).
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
