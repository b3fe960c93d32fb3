"""Phase 5b, compile for simulation (specializer): passes over the generated lines.

Input: the lines of a generated game function (`_Gen.lines`). Output: the same code with
state variables and temporaries nobody reads dropped (`_drop_unread_state`), temporaries
read in place (`_drop_temps`), step counts moved into
branches that leave (`_sink_steps`) and merged (`_merge_steps`), so a loop's pass adds to
`steps` once where it can. interpreter/compile/flow.py runs `tidy` on every function the
specializer writes.
"""

from __future__ import annotations

import re

from interpreter.compile.base import LOCATES  # a line that may stop there leaves

_HEADS = ("if ", "elif ", "else", "for ", "while ", "try", "except", "with ", "def ")
_EXITS = ("raise", "break", "continue", "return", "yield")


def _passable(lines: list[str], j: int, indent: int) -> int:
    """How many lines the statement at `j` (at `indent`) spans when a step count may move
    past it: it neither reads the count nor leaves the straight line of code (no raise,
    break, return, loop); 0 when it may not. An `if` chain passes as a whole."""
    def plain(line: str) -> bool:
        body = line.lstrip()
        return "steps" not in body and not body.startswith(_EXITS + ("for ", "while ", "try")) \
            and not LOCATES.search(body)

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


def line_indent(line: str) -> int:
    """The indent of a generated line (the passes over the lines read blocks by it)."""
    return len(line) - len(line.lstrip())


def block_end(lines: list[str], j: int) -> int:
    """The index after the body of the block whose header is the generated line at `j` (not
    its `elif`/`else` clauses: `statement_end`)."""
    k, at = j + 1, line_indent(lines[j])
    while k < len(lines) and (not lines[k].strip() or line_indent(lines[k]) > at):
        k += 1
    return k


def enclosing(lines: list[str], i: int, stop: int = 0):
    """The heads of the blocks around the generated line at `i`, innermost first, down to
    the line at `stop`."""
    indent = line_indent(lines[i])
    for h in range(i - 1, stop - 1, -1):
        level = line_indent(lines[h])
        if level < indent and lines[h].strip():
            indent = level
            yield h


def try_handlers(lines: list[str], h: int) -> list[str]:
    """The `except` clauses (stripped) of the `try` headed at `h`."""
    indent = line_indent(lines[h])
    return [lines[k].strip() for k in range(h + 1, statement_end(lines, h))
            if line_indent(lines[k]) == indent and lines[k].lstrip().startswith("except")]


def statement_end(lines: list[str], j: int) -> int:
    """The index after the compound statement of generated lines headed at `j`: its body and
    the clauses at its indent that belong to it (`elif`, `else`, `except`, `finally`)."""
    indent = line_indent(lines[j])
    k = j + 1
    while k < len(lines):
        body = lines[k].lstrip()
        level = len(lines[k]) - len(body)
        if level < indent or (level == indent and not body.startswith(
                ("elif ", "else:", "except", "finally:"))):
            break
        k += 1
    return k


def _sink_steps(lines: list[str]) -> list[str]:
    """A step count just before an `if` (no `elif`/`else`) whose body always leaves (its last
    statement a `break`, `continue`, `raise` or `return`) moves into the body and after it:
    each way through adds the count once, and the counts then meet the ones beside them
    (`_merge_steps`), so a loop's pass adds once per way it takes, not twice. Before an `if`
    whose body may leave or flow on (the events of a stretch of time, which may end the
    turn), it moves after the `if` and before each statement by which the body leaves
    (`_exits`)."""
    out = list(lines)
    i = 0
    while i + 1 < len(out):
        body = out[i].lstrip()
        head = out[i + 1].lstrip()
        indent = len(out[i]) - len(body)
        if not (body.startswith("steps += ") and head.startswith("if ") and head.endswith(":")
                and "steps" not in head and not LOCATES.search(head)
                and line_indent(out[i + 1]) == indent):
            i += 1
            continue
        end = statement_end(out, i + 1)
        inner = [ln for ln in out[i + 2:end] if line_indent(ln) > indent]
        if (end < len(out) and out[end].lstrip().startswith(("elif ", "else:"))) or not inner:
            i += 1
            continue
        level = line_indent(inner[0])
        last = [ln for ln in inner if line_indent(ln) == level][-1].lstrip()
        if any(ln.lstrip().startswith(("elif ", "else:")) and line_indent(ln) == indent
               for ln in out[i + 2:end]):
            i += 1
            continue
        count = out[i]
        if last.startswith(_EXITS):
            out.insert(end, count)                      # the way past the `if`
            out.insert(i + 2, " " * level + body)       # the way into it
            del out[i]
            i += 1
            continue
        exits = _exits(out, i + 2, end)
        if exits is None or len(exits) > _SMALL:
            i += 1
            continue
        out.insert(end, count)  # the way past the `if`, and each way out of its body
        for k in reversed(exits):
            out.insert(k, out[k][:line_indent(out[k])] + body)
        del out[i]
        i += 1
    return out


def _exits(lines: list[str], start: int, end: int) -> list[int] | None:
    """The statements of the body `lines[start:end]` that leave the code around it (a
    `raise` or `return` anywhere, a `break` or `continue` outside the body's own loops),
    where a count moved past the body's `if` goes too (`_sink_steps`); None when the body
    reads the count, may stop where located (base.LOCATES) or catches what it raises."""
    exits: list[int] = []
    loops: list[int] = []  # the indents of the loops the body opens, around the line
    for k in range(start, end):
        body = lines[k].lstrip()
        indent = line_indent(lines[k])
        while loops and indent <= loops[-1]:
            loops.pop()
        if body.startswith(("try", "def ", "with ")) or LOCATES.search(body) or (
                "steps" in body and not body.startswith("steps += ")):
            return None
        if body.startswith(("for ", "while ")):
            loops.append(indent)
        elif re.match(r"(raise|return)\b", body) or (body in ("break", "continue") and not loops):
            exits.append(k)
    return exits


# A temporary (`_ch5`) or a decision's value (`D_keep_or_pass`): stored where nothing reads it.
_TEMP = r"(?:_[a-z]+\d+|D_\w+)"
_TEMP_SET = re.compile(rf"^(\s*)({_TEMP}) = (-?\d+|'[^'\\]*'|True|False|None|[A-Za-z_]\w*)$")
# Stores whose value cannot raise nor count work, though not a literal or a name: an option's
# legality flag (decisions.py `_legal_flags`: tests of guards already evaluated, of costs and
# of limits), a decision's answer read from its options by the pick's index.
_PURE_SET = re.compile(r"^(\s*)(?:(_lq\d+) = .+|(D_\w+) = _VA\d+\[_ch\d+\]|(_fg0) = _getter\(F\))$")


def _alone(out: list[str], lines: list[str], i: int, indent: int) -> bool:
    """Whether line `i` (at `indent`) is the only statement of its block: it stays."""
    return bool(out) and out[-1].rstrip().endswith(":") and (
        i + 1 >= len(lines) or line_indent(lines[i + 1]) < indent)


def _reads(lines: list[str], name: str, store: str) -> dict[str, int]:
    """How often each name matching `name` is read: named, less the lines that open by
    storing it (`store`: the assignment's operator, as a pattern)."""
    found: dict[str, int] = {}
    for x in re.findall(rf"\b{name}\b", "\n".join(lines)):
        found[x] = found.get(x, 0) + 1
    for line in lines:
        m = re.match(rf"^\s*({name}) {store} ", line)
        if m is not None:
            found[m.group(1)] -= 1
    return found


def _drop_temps(lines: list[str]) -> list[str]:
    """Temporaries the code never reads are not stored (`_ch5 = 1`, a decision's pick kept
    for nothing, `D_keep_or_pass = 'keep'` once no test reads the decision's value), and one
    copied from a name and read once, on the next line, is that name there (`_t4 = F_die`
    then `V_round_score += _t4`). Only literals, plain names and values that cannot raise
    nor count work (`_PURE_SET`): nothing whose evaluation could matter is removed."""
    uses = _reads(lines, _TEMP, "=")
    out: list[str] = []
    i = 0
    while i < len(lines):
        m = _TEMP_SET.match(lines[i])
        if m is None:
            p = _PURE_SET.match(lines[i])
            if p is None or uses.get(p.group(2) or p.group(3) or p.group(4)) != 0 or \
                    _alone(out, lines, i, len(p.group(1))):
                out.append(lines[i])
            i += 1  # else stored, never read
            continue
        name, value = m.group(2), m.group(3)
        alone = _alone(out, lines, i, len(m.group(1)))
        if uses.get(name) == 0 and not alone:
            i += 1  # stored, never read
            continue
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if (uses.get(name) == 1 and value.isidentifier() and line_indent(nxt) == len(m.group(1))
                and ":=" not in nxt and len(re.findall(rf"\b{name}\b", nxt)) == 1
                and not alone and value not in ("True", "False", "None")):
            lines = lines[:i + 1] + [re.sub(rf"\b{name}\b", value, nxt)] + lines[i + 2:]
            i += 1  # the copy is read where it was made
            continue
        out.append(lines[i])
        i += 1
    return out


_STORE = re.compile(r"^\s*([A-Za-z_]\w*) = (-?\d+|'[^'\\]*'|True|False|None)$")
_CONST = re.compile(r"^([A-Za-z_]\w*) == (-?\d+|'[^'\\]*'|True|False|None)$")
_SMALL = 3  # a test's body copied into more than one branch at most this long


def _tested(line: str, word: str) -> tuple[str, str] | None:
    """The name and constant of a test `if (NAME == CONST):` or `if NAME == CONST:` (a
    decision's choice of its option's steps), with `word` `if` or `elif`; else None."""
    body = line.strip()
    if not (body.startswith(word + " ") and body.endswith(":")):
        return None
    test = body[len(word) + 1:-1]
    if test.startswith("(") and test.endswith(")"):
        test = test[1:-1]
    m = _CONST.match(test)
    return (m.group(1), m.group(2)) if m else None


def _arms(out: list[str], j: int, indent: int) -> tuple[str, list, int] | None:
    """The tested name, the arms (constant or None for `else`, body) and the end of a chain of
    tests of one name against constants headed at `j`; None when it is not one."""
    first = _tested(out[j], "if") if j < len(out) and line_indent(out[j]) == indent else None
    if first is None:
        return None
    name, arms, k = first[0], [], j
    t_end = statement_end(out, j)
    while k < t_end:
        b = k + 1
        while b < t_end and line_indent(out[b]) > indent:
            b += 1
        arm = first if k == j else _tested(out[k], "elif")
        if out[k].strip() == "else:":
            arms.append((None, out[k + 1:b]))
        elif arm is not None and arm[0] == name:
            arms.append((arm[1], out[k + 1:b]))
        else:
            return None
        k = b
    return name, arms, t_end


def _thread_tests(lines: list[str]) -> list[str]:
    """An `if` chain whose every branch stores a constant in one name (a policy's pick,
    `D_x = 'hold'`, `_ch7 = 1`) and does not write it again, or leaves, followed by tests of
    that name against constants (a `repeat`'s `until: keep_or_pass == 'pass'`, the choice of
    the option's steps): each branch knows the answers, so the body of the arm that holds
    goes to the end of each branch that flows on, with the step counts between, and the
    tests go. A body copied into more than one branch must be short (`_SMALL`); a pick's own
    steps, made by one branch, move whole (no test per pass of a loop)."""
    out = list(lines)
    i = 0
    while i < len(out):
        head = out[i].lstrip()
        if not (head.startswith("if ") and head.endswith(":")):
            i += 1
            continue
        indent = line_indent(out[i])
        end = statement_end(out, i)
        j = end  # step counts between the chain and the tests
        while j < len(out) and line_indent(out[j]) == indent and \
                out[j].lstrip().startswith("steps += "):
            j += 1
        found = _arms(out, j, indent)
        heads = [k for k in range(i, end) if line_indent(out[k]) == indent]
        if found is None or not out[heads[-1]].lstrip().startswith("else:"):
            i += 1
            continue
        name, arms, t_end = found
        if j > end and len(arms) == 1:  # the count sinks into the one test's body first
            i += 1  # (`_sink_steps`), where it meets the counts beside it
            continue
        moves = _branch_moves(out, heads, end, indent, name, arms)
        if moves is None:
            i += 1
            continue
        counts = out[end:j]
        for stop, level, body in reversed(moves):  # indented as the branch's own lines
            out[stop:stop] = [" " * (level - indent) + ln for ln in counts] + \
                [" " * (level - indent - 4) + ln for ln in body]
        shift = sum(len(counts) + len(body) for *_, body in moves)
        del out[end + shift:t_end + shift]
        continue  # the same chain may now be followed by another test
    return out


def _branch_moves(out: list[str], heads: list[int], end: int, indent: int, name: str,
                  arms: list) -> list[tuple[int, int, list[str]]] | None:
    """Where each branch of the chain ends, the indent of its lines and the arm body it
    takes (branches that leave take none), or None when a branch that flows on stores no
    constant in `name` or writes it after, or a long body would be copied."""
    moves, used = [], {}
    wrote = re.compile(rf"\b{re.escape(name)}\b\s*(?:[-+*/]?=(?!=)|:=)")
    for k, h in enumerate(heads):
        stop = heads[k + 1] if k + 1 < len(heads) else end
        inner = [j for j in range(h + 1, stop) if line_indent(out[j]) > indent]
        level = line_indent(out[inner[0]]) if inner else 0
        top = [j for j in inner if line_indent(out[j]) == level]
        if top and out[top[-1]].lstrip().startswith(_EXITS):
            continue  # it never reaches the tests
        stores = [j for j in top if (m := _STORE.match(out[j])) and m.group(1) == name]
        if not stores or any(wrote.search(out[j]) for j in inner if j > stores[-1]):
            return None
        value = _STORE.match(out[stores[-1]]).group(2)
        arm = next((a for a in arms if a[0] == value), None) or next(
            (a for a in arms if a[0] is None), (None, []))
        used[id(arm)] = used.get(id(arm), 0) + 1
        if used[id(arm)] > 1 and len(arm[1]) > _SMALL:
            return None
        moves.append((stop, level, list(arm[1])))
    return moves


# A write of a state variable, and one of a number written out.
_STATE_WRITE = re.compile(r"^\s*(V_\w+) ([+-]?=) ")
_NUMBER_WRITE = re.compile(r"^\s*(V_\w+) [+-]?= -?\d+(?:\.\d+)?$")
# A write of a state variable (global, turn or round: one name each) of a literal or a name.
_STATE_SET = re.compile(r"^\s*(V_\w+) [+-]?= (-?\d+|'[^'\\]*'|True|False|None|[A-Za-z_]\w*)$")


def _drop_unread_state(lines: list[str]) -> list[str]:
    """Writes of a state variable that the function never reads (`V_rolls_made += 1` where
    no policy or rule of this game reads `rolls_made`, and the function does not return or
    show its state) are not made, when what each of them writes is a literal or a name:
    nothing whose evaluation could matter is removed. A variable added to keeps all of its
    writes unless every one of them is a number written out: `V_total += (F_d + 1)` needs
    its `V_total = 0`, and `V_f += 1` raises where `V_f` may be none or a text (set from an
    expression, or a name), as the interpreter's `add` stops the game there. A write alone in
    its block is `pass`."""
    reads = _reads(lines, r"V_\w+", "[+-]?=")
    writes = [(m.group(1), m.group(2) != "=", line) for line in lines
              if (m := _STATE_WRITE.match(line))]
    kept = {v for v, added, _ in writes if added} & {
        v for v, _, line in writes if not _NUMBER_WRITE.match(line)}
    out: list[str] = []
    for i, line in enumerate(lines):
        m = _STATE_SET.match(line)
        if m is None or reads[m.group(1)] != 0 or m.group(1) in kept:
            out.append(line)
        elif _alone(out, lines, i, line_indent(line)):
            out.append(line[:line_indent(line)] + "pass")
    return out


def tidy(lines: list[str]) -> list[str]:
    """Every pass: state and temporaries nobody reads dropped, counts merged; then tests
    threaded into the branches that know their answer, counts sunk into branches that leave
    and merged, until nothing moves."""
    out = _merge_steps(_drop_temps(_drop_unread_state(lines)))
    for _ in range(4):  # a count sunk and merged may meet the next `if`: until none moves
        # A test threaded into the branches may leave its value stored for nobody: dropped.
        again = _merge_steps(_sink_steps(_drop_temps(_thread_tests(out))))
        if again == out:
            break
        out = again
    return out
