"""Phase 5c, compile for simulation (specializer): `let` names whose first reading is sure.

Input: the source of a generated game function after the loops pass (interpreter/compile/
loops.py), in which a policy's `let` worked out when first read is set back to `_U` at the
start of its decision or option (`_L1 = _L2 = _U`, policies.py `_reset_lets`) and each reading
that the loops pass wrote as statements is a block `if _L1 is _U:` that works it out and ends
`_L1 = value`. Output: the same source in which a name whose first reading after its reset is
such a block at the reset's own level (met whenever the reset is) has that block's body in its
place, without the test; every later block of the name is gone (the name is set there, so none
is ever entered) and the name is no longer set back to `_U` (nothing reads it before the body
sets it again). Readings the loops pass left as expressions
(`(_L1 if _L1 is not _U else (_L1 := value))`) stay, and read the name as it was set.

Why: a policy with several `let` names sets them all back to `_U` at each decision and tests
each reading, though a name its first rule's condition reads is worked out at every decision
anyway.
"""

from __future__ import annotations

import re

from interpreter.compile.peephole import block_end, line_indent

_RESET = re.compile(r"^( *)((?:_L\d+ = )+)_U$")


def _fill(lines: list[str], j: int, name: str) -> int | None:
    """The end of the block at `j` if it is `if NAME is _U:` filling the name (its last line
    `NAME = ...` one level in) with nothing chained to it; else None."""
    if lines[j].strip() != f"if {name} is _U:":
        return None
    k = block_end(lines, j)
    last = lines[k - 1]
    if not (last.startswith(" " * (line_indent(lines[j]) + 4) + f"{name} = ")
            and line_indent(last) == line_indent(lines[j]) + 4):
        return None
    if k < len(lines) and line_indent(lines[k]) == line_indent(lines[j]) and lines[k].lstrip().startswith(
            ("elif ", "else:")):
        return None
    return k


def _settle(lines: list[str], r: int) -> list[str]:
    """The lines with the names of the reset at `r` settled where their first reading is."""
    m = _RESET.match(lines[r])
    at, names = len(m.group(1)), m.group(2).split(" = ")[:-1]
    kept, settling = list(names), True
    while settling:  # a name's body, once in place, may hold another's first reading
        settling = False
        for name in list(kept):
            end = r + 1
            while end < len(lines) and (not lines[end].strip() or line_indent(lines[end]) >= at):
                end += 1
            word = re.compile(rf"\b{name}\b")
            j = next((i for i in range(r + 1, end) if word.search(lines[i])), None)
            k = None if j is None or line_indent(lines[j]) != at else _fill(lines, j, name)
            if k is None:
                continue
            body = [ln[4:] for ln in lines[j + 1:k]]
            rest = lines[k:end]
            i, out = 0, []
            while i < len(rest):  # later fills of the name are never entered
                done = _fill(rest, i, name)
                if done is not None:
                    i = done
                    continue
                out.append(rest[i])
                i += 1
            lines = lines[:j] + body + out + lines[end:]
            kept.remove(name)
            settling = True
    if kept == names:
        return lines
    head = " " * at + " = ".join(kept) + " = _U" if kept else None
    return lines[:r] + ([head] if head else []) + lines[r + 1:]


def settled(source: str) -> str:
    """The source with each `let` name settled where its first reading is sure (the module's
    docstring)."""
    lines = source.split("\n")
    for r in reversed([i for i, ln in enumerate(lines) if _RESET.match(ln)]):
        lines = _settle(lines, r)
    return "\n".join(lines)
