"""Phase 5b, compile for simulation (specializer): passes over the generated lines.

Input: the lines of a generated game function (`_Gen.lines`). Output: the same code with the
step counts moved and merged (`_merge_steps`), so a loop's pass adds to `steps` once where it
can. interpreter/compile/specialize.py runs it on every function it writes.
"""

from __future__ import annotations

_HEADS = ("if ", "elif ", "else", "for ", "while ", "try", "except", "with ", "def ")
_EXITS = ("raise", "break", "continue", "return", "yield")


def _passable(lines: list[str], j: int, indent: int) -> int:
    """How many lines the statement at `j` (at `indent`) spans when a step count may move
    past it: it neither reads the count nor leaves the straight line of code (no raise,
    break, return, loop); 0 when it may not. An `if` chain passes as a whole."""
    def plain(line: str) -> bool:
        body = line.lstrip()
        return "steps" not in body and not body.startswith(_EXITS + ("for ", "while ", "try"))

    first = lines[j].lstrip()
    if not (first.startswith(_HEADS) and first.endswith(":")):
        return 1 if plain(lines[j]) else 0
    if not first.startswith("if ") or not plain(lines[j]):
        return 0
    k = j + 1
    while k < len(lines):
        body = lines[k].lstrip()
        level = len(lines[k]) - len(body)
        if level < indent or (level == indent and not body.startswith(("elif ", "else:"))):
            break
        if not plain(lines[k]):
            return 0
        k += 1
    return k - j


def _merge_steps(lines: list[str]) -> list[str]:
    """Step counts moved down past code that does not read them nor leave (assignments,
    `if` chains without exits), and counts that meet as one addition: fewer additions per
    pass of a loop, the same count wherever it is read or the code can leave."""
    out = list(lines)
    i = 0
    while i < len(out):
        body = out[i].lstrip()
        if not body.startswith("steps += "):
            i += 1
            continue
        indent = len(out[i]) - len(body)
        j = i + 1
        while j < len(out):
            nxt = out[j].lstrip()
            if len(out[j]) - len(nxt) != indent:
                break
            if nxt.startswith("steps += "):  # meets another count: one addition
                out[j] = out[i][:indent] + f"steps += {int(body[9:]) + int(nxt[9:])}"
                del out[i]
                j = -1
                break
            span = _passable(out, j, indent)
            if not span:
                break
            j += span
        if j == -1:
            continue  # the merged count at i - 1 + ... is looked at again from i
        if j > i + 1:
            out.insert(j, out[i])
            del out[i]
            continue  # the line now at i is the next one to look at
        i += 1
    return out
