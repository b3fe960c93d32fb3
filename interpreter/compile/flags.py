"""Phase 5c, compile for simulation (specializer): an option's legality flag read once, worked
out where it is read.

Input: the source of a generated game function after the loops pass (interpreter/compile/
loops.py), in which each option of a decision has its legality flag stored first, `_lq7 =
...` (decisions.py `_legal_flags`: tests of guards already evaluated, of costs and of limits,
which cannot fail nor count work: peephole.py `_PURE_SET`). Output: the same source in which a
flag read in one place only, later in the same block or a block inside it, with nothing in
between that could change what it reads and no loop around the reading that is not around
the flag, is that reading, its value written in its place (`elif (UC0[cur] if UP0[cur] ==
turn_n else 0) < 1:`).

Why: a policy's rules read the flags of the options they pick, one after another, and the
first rule that answers ends them; a flag stored first is worked out at every decision, read
or not, and stored and loaded where it is. Worked out where read, a flag whose rule is not
reached costs nothing, and the others cost no store. It cannot fail nor count work, and what
it reads is the same there, so nothing can see the move.
"""

from __future__ import annotations

import keyword
import re

from interpreter.compile.base import FACES_BY
from interpreter.compile.peephole import enclosing, line_indent

_FLAG = re.compile(r"^( *)(_lq\d+) = (.+)$")
_NAME = re.compile(r"(?<![\w.'])[A-Za-z_]\w*")
# Headers of blocks that may run what they hold more than once, or later: a loop, a function.
_AGAIN = ("for ", "while ", "def ", "async ")



def _writes(line: str, name: str, listed: bool) -> bool:
    """Whether `line` may change `name`: a local stored, or (`listed`: the flag reads an item
    of it) a list changed or handed on whole, where a call could change it."""
    body = line.lstrip()
    n = re.escape(name)
    return bool(
        re.match(rf"{n}\b\s*(\[.*\])?\s*(//|[-+*/%@&|^]|\*\*|<<|>>)?=(?!=)", body)
        or re.search(rf"\b{n}\s*:=", body)
        or re.match(rf"(for|del)\b[^:]*\b{n}\b", body)
        or listed and re.search(rf"\b{n}\b(?!\s*\[)", body))


def _movable(lines: list[str], i: int, j: int, value: str) -> bool:
    """Whether the flag stored at line `i` may be worked out at its reading on line `j`."""
    at, there = line_indent(lines[i]), lines[j]
    if line_indent(there) < at or there.lstrip().startswith("while ") or " for " in there \
            or "lambda" in there or ":=" in there:
        return False
    plain = re.sub(r"'[^']*'", "", value)
    reads = {x for x in _NAME.findall(plain) if not keyword.iskeyword(x)}
    listed = set(re.findall(r"([A-Za-z_]\w*)\s*\[", plain))
    if FACES_BY in reads:  # the faces' getter reads the items of F, which a roll writes
        reads.add("F")
        listed.add("F")
    for k in range(i + 1, j):
        line = lines[k]
        if not line.strip():
            continue
        if line_indent(line) < at:
            return False  # the block of the flag ends before its reading
        if any(_writes(line, x, x in listed) for x in reads):
            return False
    # No loop or function holds the reading that does not hold the flag.
    return not any(lines[h].lstrip().startswith(_AGAIN) for h in enclosing(lines, j, i + 1))


def sunk(source: str) -> str:
    """The source with each flag read in one place worked out there (see the module)."""
    lines = source.split("\n")
    i = 0
    while i < len(lines):
        m = _FLAG.match(lines[i])
        if m is not None:
            name, value = m.group(2), m.group(3)
            word = re.compile(rf"\b{name}\b")
            found = [k for k in range(i + 1, len(lines)) if word.search(lines[k])]
            if len(found) == 1 and len(word.findall(lines[found[0]])) == 1 and \
                    _movable(lines, i, found[0], value):
                j = found[0]
                at = word.search(lines[j])
                lines[j] = f"{lines[j][:at.start()]}({value}){lines[j][at.end():]}"
                del lines[i]
                continue
        i += 1
    return "\n".join(lines)
