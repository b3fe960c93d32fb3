"""Phase 5b, compile for simulation (specializer): the game's end reached without raising.

Input: the lines of a generated game function, tidied and its loops counted
(interpreter/compile/peephole.py, counted.py). Output: the same lines, in which a
`raise _EndGame(...)` inside the phases' loop (`while ph >= 0:`) keeps the game's reason in
`_egv` and leaves its loop by `break`; every loop around it is followed by `if _egv: break`,
and where the phases' loop ends, the reason is taken as the `except _EndGame` handler takes
it. The handler stays, for the raises this pass leaves as they are.

Why: a game ends once, but raising and catching the exception that ends it costs about 4,000
machine instructions, near 2% of a short dice game's generated code, where a hand-written
game simply returns.

What stays exact: what Python ran between the raise and the handler runs as before (`break`
runs a `finally` as a raise does; a loop's `else` is skipped by both), and nothing else runs:
each loop the end leaves is followed at once by the test that leaves the next one. A raise is
left as it is where something between it and the phases' loop could see the exception or
change what leaving means: a `try` with a handler other than the turn's and the phase's end
signals, a `finally` body, a `with`, a function.
"""

from __future__ import annotations

import re

from interpreter.compile.peephole import enclosing, line_indent, statement_end, try_handlers

_TOP = "while ph >= 0:"
_FLOWED = "reason = 'the flow reached its end'"
_HANDLER = "except _EndGame as _eg:"
_REASON = re.compile(r"reason = _eg\.args\[0\] if _eg\.args else (.+)$")
_RAISE = re.compile(r"raise _EndGame\((.*)\)$")
# The handlers that cannot catch `_EndGame` (base.py: the signals are unrelated classes).
_PASSED = ("except _EndTurn:", "except _EndPhase:", "except _EndPhase as _ep:",
           "except (_EndTurn, _EndPhase) as _sig:")


def _loops_out(lines: list[str], i: int, top: int) -> list[int] | None:
    """The loops the raise at `i` leaves on its way out of the phases' loop (headed at `top`),
    innermost first; None where something on the way could see the exception (a `try` with
    a handler that could catch `_EndGame`)."""
    loops: list[int] = []
    for h in enclosing(lines, i, top):
        head = lines[h].lstrip()
        if h == top:
            return loops
        if head.startswith(("for ", "while ")):
            loops.append(h)
        elif head.startswith("try:"):
            if any(x not in _PASSED for x in try_handlers(lines, h)):
                return None
        elif not head.startswith(("if ", "elif ", "else:", "except")):
            return None  # `finally`, `with`, a function: left as it is
    return None  # not inside the phases' loop


def end_by_flag(lines: list[str]) -> list[str]:
    """The lines with every end of the game that can be so written ended by a flag."""
    top = next((i for i, line in enumerate(lines) if line.lstrip() == _TOP), None)
    if top is None or any("_egv" in line for line in lines):
        return lines
    after = statement_end(lines, top)
    handler = after + 1
    if handler + 2 >= len(lines) or lines[after].strip() != _FLOWED or \
            lines[handler].strip() != _HANDLER:
        return lines
    reason = _REASON.match(lines[handler + 1].strip())
    if reason is None or line_indent(lines[handler + 2]) > line_indent(lines[handler]):
        return lines  # the handler does more than take the reason
    start = max((i for i in range(top) if lines[i].strip() == "try:"
                 and line_indent(lines[i]) == line_indent(lines[handler])), default=None)
    if start is None:
        return lines
    ends: dict[int, str] = {}
    tests: dict[int, list[int]] = {}  # where a loop left ends: the indents of the tests there
    for i in range(top + 1, after):
        raised = _RAISE.match(lines[i].strip())
        loops = None if raised is None else _loops_out(lines, i, top)
        if loops is None:
            continue
        ends[i] = f"_egv = ({raised.group(1)},)" if raised.group(1) else "_egv = True"
        for h in loops:
            at = tests.setdefault(statement_end(lines, h), [])
            if line_indent(lines[h]) not in at:
                at.append(line_indent(lines[h]))
    if not ends:
        return lines
    out: list[str] = []
    for i, line in enumerate(lines):
        pad = " " * line_indent(line)
        for indent in sorted(tests.get(i, ()), reverse=True):  # the inner loop's test first
            out += [" " * indent + "if _egv:", " " * indent + "    break"]
        if i == start:
            out.append(pad + "_egv = False")
        if i in ends:
            out += [pad + ends[i], pad + "break"]
        elif i == after:
            out += [pad + "if _egv:",
                    pad + f"    reason = _egv[0] if _egv is not True else {reason.group(1)}",
                    pad + "else:", pad + "    " + _FLOWED]
        else:
            out.append(line)
    return out
