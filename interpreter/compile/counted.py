"""Phase 5b, compile for simulation (specializer): loops that count their passes, as `for`.

Input: the lines of a generated game function after the peephole passes
(interpreter/compile/peephole.py), and a way to name a constant of the function. Output: the
same code in which a `repeat` (or a phase's pass loop, `passes`) whose guard stops it past
`limits.max_loop` passes,

    _p3 = 0
    while True:
        _p3 += 1
        if _p3 > 10000:                     (or `... or steps > 1000000:`)
            raise _Stop(_SE3, _p3, None)
        BODY

is a `for` over a range made once for the whole run, the stop past the last pass its `else`:

    for _p3 in _R0:                         (_R0 = range(1, 10001))
        BODY                                (with `if steps > 1000000:` and the stop first)
    else:
        raise _Stop(_SE3, 10001, None)

and where each pass begins with draws of dice and their counts (`F_die = int(rnd() * 6)`, then
`rolls += 1`), or ends with counts (`steps += 3`, and an `else:` of counts alone after
branches that all leave, such as a pick that goes on: `ch0 += 1`), the counts are added once
when the loop is left, however it is left:

    try:
        for _p3 in _R0:
            F_die = int(rnd() * 6)
            ...
        else:
            ch0 += 1                        (the last pass reached its end too)
            steps += 3
            raise _Stop(_SE3, 10001, None)
    finally:
        rolls += _p3
        ch0 += _p3 - 1
        steps += 3 * (_p3 - 1)

Why: a push-your-luck loop (roll, test, choose, again) is the inner loop of many dice games;
its counter, its test against the limit and its counts cost about a twentieth of the
instructions of a game made of little else (tests/benchmarks/bench_instructions.py).

What stays exact: the `for` passes through the same pass numbers, leaves by the same `break`s,
and where the counter passed the limit the `else` raises the same stop with the same number;
the steps budget is still tested on each pass where it was. A count that opens a pass moves
only when every line before it in the pass is a draw (which cannot raise nor leave) and
nothing else in the loop names it: every pass begun has made its draws and counted them. A
count that closes a pass moves only when the loop has no `continue` and names it nowhere else
but in other additions to it: every pass but the one that leaves reached its end, and the
limit's stop comes after a last pass that did. So when the loop is left (by a `break`, a stop,
the end of the game or any other exception) each count is what it was. `range` is only
iterated (the names of a game function are its own: interpreter/compile/specialize.py).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from interpreter.compile.peephole import line_indent

_GUARD = re.compile(r"^if (_p\d+|passes) > (\d+)(?: or (steps > \d+))?:$")
_DRAW = re.compile(r"^F_\w+ = (?:int\(rnd\(\) \* \d+\)(?: \+ -?\d+)?"
                   r"|_FA\d+\[int\(rnd\(\) \* \d+\)\])$")
_COUNT = "rolls += 1"
_ROLLS = re.compile(r"\brolls\b")  # the game's count of rolls (not a ruleset's `V_x_rolls`)
_TALLY = re.compile(r"^(steps|ch\d+|fi\d+) \+= (\d+)$")  # counts of steps, choices, triggers


def counted_loops(lines: list[str], const: Callable[[object, str], str]) -> list[str]:
    """Every counted `repeat` of `lines` as a `for` (the module's docstring); `const` names a
    value the game function reads (its range)."""
    out = list(lines)
    ranges: dict[int, str] = {}
    i = 0
    while i < len(out):
        found = _loop(out, i)
        if found is None:
            i += 1
            continue
        start, end, new, most = found
        if most not in ranges:
            ranges[most] = const(range(1, most + 1), "R")
        new = [ln.replace("\0R", ranges[most]) for ln in new]
        out[start:end] = new
        i = start + 1
    return out


def _loop(out: list[str], i: int) -> tuple[int, int, list[str], int] | None:
    """The counted loop whose `while True:` is at `i`: where its lines begin (its counter's
    `= 0`) and end, the lines it becomes (its range named `\\0R`) and its most passes; None
    when it is not one."""
    if out[i].strip() != "while True:" or i + 4 > len(out):
        return None
    ind = line_indent(out[i])
    step = " " * (ind + 4)
    m = _GUARD.match(out[i + 2].strip())
    if m is None or line_indent(out[i + 2]) != ind + 4:
        return None
    passes, most, steps = m.group(1), int(m.group(2)), m.group(3)
    named = re.compile(rf"\b{passes}\b")
    stop = out[i + 3]
    if out[i + 1] != f"{step}{passes} += 1" or line_indent(stop) != ind + 8 \
            or not stop.lstrip().startswith("raise _Stop("):
        return None
    end = i + 4
    while end < len(out) and line_indent(out[end]) > ind:
        end += 1
    body = out[i + 4:end]
    if not body or line_indent(body[0]) != ind + 4 or any(named.search(ln) for ln in body) or (
            end < len(out) and line_indent(out[end]) == ind and out[end].strip() == "else:"):
        return None
    start = i - 1  # the counter's `= 0`, before the loop with nothing between that names it
    while start >= 0 and line_indent(out[start]) >= ind and not named.search(out[start]):
        start -= 1
    if start < 0 or out[start] != f"{' ' * ind}{passes} = 0":
        return None
    if steps:  # a loop with a loop inside tests the budget on each pass, as before
        body = [f"{step}if {steps}:", stop, *body]
    body, rolls = _moved_counts(body, ind + 4) if not _ROLLS.search(stop) else (body, 0)
    body, closing = _closing_counts(body, ind + 4, stop)
    last = named.sub(str(most + 1), stop.lstrip())
    loop = [f"for {passes} in \0R:", *(ln[ind:] for ln in body), "else:",
            *(f"    {name} += {k}" for name, k in closing.items()), f"    {last}"]
    if rolls or closing:
        done = f"({passes} - 1)"  # the passes that reached their end, unless the last did
        loop = ["try:", *("    " + ln for ln in loop), "finally:",
                *([f"    rolls += {_times(rolls, passes)}"] if rolls else []),
                *(f"    {name} += {_times(k, done)}" for name, k in closing.items())]
    between = out[start + 1:i]  # lines that do not name the counter keep their place
    return start, end, between + [" " * ind + ln for ln in loop], most


def _moved_counts(body: list[str], ind: int) -> tuple[list[str], int]:
    """The body without the counts of rolls that open each pass, and how many there were;
    the body as it was, and 0, when none may move (the module's docstring)."""
    k, rolls = 0, 0
    while k < len(body) and line_indent(body[k]) == ind:
        line = body[k].strip()
        if line == _COUNT:
            rolls += 1
        elif not _DRAW.match(line):
            break
        k += 1
    if not rolls or any(_ROLLS.search(ln) for ln in body[k:]):
        return body, 0
    return [ln for ln in body[:k] if ln.strip() != _COUNT] + body[k:], rolls


def _times(k: int, n: str) -> str:
    return n.strip("()") if k == 1 else f"{k} * {n}"


def _closing_counts(body: list[str], ind: int, stop: str) -> tuple[list[str], dict[str, int]]:
    """The body without the counts that close each pass (the last statements of the pass, and
    an `else:` of counts alone after branches that all leave), and what they add a pass; the
    body as it was, and none, when the loop reads one of them (other than adding to it) or a
    `continue` could skip them (the module's docstring)."""
    if any(ln.strip() == "continue" for ln in body):
        return body, {}
    k = len(body)
    while k > 0 and line_indent(body[k - 1]) == ind and _TALLY.match(body[k - 1].strip()):
        k -= 1
    cut = k
    j = k - 1  # an `else:` of counts alone just before them
    while j >= 0 and line_indent(body[j]) > ind:
        j -= 1
    if j >= 0 and body[j].strip() == "else:" and all(
            line_indent(ln) == ind + 4 and _TALLY.match(ln.strip()) for ln in body[j + 1:k]) \
            and _branches_leave(body, j, ind):
        cut = j
    counts: dict[str, int] = {}
    for ln in body[cut:]:
        if ln.strip() != "else:":
            name, n = _TALLY.match(ln.strip()).groups()
            counts[name] = counts.get(name, 0) + int(n)
    rest = body[:cut]
    if not counts or not any(line_indent(ln) == ind for ln in rest):
        return body, {}
    for name in counts:
        named = re.compile(rf"\b{name}\b")
        if named.search(stop) or any(named.search(ln) and not re.fullmatch(
                rf"\s*{name} \+= \d+", ln) for ln in rest):
            return body, {}
    return rest, counts


def _branches_leave(body: list[str], j: int, ind: int) -> bool:
    """Whether each branch of the `if` chain whose `else:` is at `j` ends by leaving the loop
    (its last statement a `break`, `raise` or `return`)."""
    heads = [j]
    k = j - 1
    while k >= 0:
        if line_indent(body[k]) == ind:
            if not body[k].lstrip().startswith(("if ", "elif ")):
                return False
            heads.append(k)
            if body[k].lstrip().startswith("if "):
                break
        k -= 1
    else:
        return False
    for head, nxt in zip(heads[1:], heads, strict=False):
        top = [ln for ln in body[head + 1:nxt] if line_indent(ln) == ind + 4]
        if not top or not top[-1].lstrip().startswith(("break", "raise", "return")):
            return False
    return True
