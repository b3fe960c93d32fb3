"""Comprehensions written as loops (interpreter/compile/loops.py): the rewritten function
evaluates what the generated one did, in the same order, and meets the same errors.

Each expression here logs every part it evaluates (`_t(k, v)` appends `k`, returns `v`, and
raises for the parts a test marks), so a loop that evaluated one item more, one less or in
another order, or ran a later part of an `and` that Python would not have, fails."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.compile.cuts import running_sum, short_cut
from interpreter.compile.loops import loops
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load

_U = object()


def _run(source: str, bombs: frozenset = frozenset()):
    """The function's result, the log of what it evaluated and the error it met (or None)."""
    log: list = []

    def t(k, v):
        log.append(k)
        if k in bombs:
            raise ValueError(k)
        return v

    def fb():
        raise OverflowError("meter")

    names = {"_t": t, "_U": _U, "_fb": fb, "xs": [1, 2, 3], "ys": [0, 5], "zs": []}
    exec(compile(source, "<test>", "exec"), names)  # noqa: S102 - the test's own source
    try:
        return names["play"](), log, None
    except (ValueError, OverflowError) as err:
        return None, log, repr(err)


def _same(source: str, bombs: frozenset = frozenset()) -> str:
    lowered = loops(source)
    assert _run(lowered, bombs) == _run(source, bombs), lowered
    return lowered


def _function(*body: str) -> str:
    lines = ["def play():", "    wk = 0", "    _L1 = _L2 = _U", "    r = 0"]
    lines += ["    " + b for b in body]
    lines += ["    return (r, wk, _L1, _L2)"]
    return "\n".join(lines) + "\n"


def test_any_all_and_len_of_a_comprehension_become_loops_with_the_same_values():
    src = _function(
        "r = (any([_t(1, x > 2) for x in xs]), all([_t(2, x > 0) for x in ys]),"
        " len([x for x in xs if _t(3, x != 2)]), sum([_t(4, x) for x in xs]))")
    lowered = _same(src)
    assert "[" not in lowered.split("r = ", 2)[-1].split("return")[0].replace("[]", "")


def test_every_item_of_any_is_evaluated_as_the_list_was():
    """`any` of a list evaluates every item before it looks: the loop does too, so an error
    in an item after the first true one is still met."""
    src = _function("r = any([_t(('x', x), x > 0) for x in xs])")
    for bomb in [frozenset(), frozenset({("x", 3)})]:
        _same(src, bomb)
    assert _run(loops(src), frozenset({("x", 3)}))[2] == "ValueError(('x', 3))"


def test_a_generator_the_writer_made_stops_at_the_item_that_decides_it():
    """`any(x for ...)`, `all(x for ...)` and `next((x for ...), None)`, which the writer
    makes only where stopping early is exact (cuts.short_cut), are loops with a `break`:
    no generator is made, and the items after the deciding one are not evaluated, as with
    Python's own short cut; an item that fails before it still fails."""
    src = _function("r = (any(_t(('a', x), x > 1) for x in xs),"
                    " all(_t(('b', x), x < 2) for x in xs),"
                    " next((_t(('c', x), x) for x in xs if _t(('d', x), x > 1)), None),"
                    " next((x for x in zs), None), any(x for x in zs), all(x for x in zs))")
    lowered = _same(src)
    assert not {"any(", "all(", "next("} & set(re.findall(r"\w+\(", lowered))
    assert lowered.count("break") == 6
    assert _run(lowered)[1] == [("a", 1), ("a", 2), ("b", 1), ("b", 2),
                                ("d", 1), ("d", 2), ("c", 2)]
    assert _run(lowered, frozenset({("a", 1)}))[2] == "ValueError(('a', 1))"


def test_a_generator_over_two_loops_is_left_to_python():
    """A `break` leaves only the inner loop: a generator of two loops keeps Python's."""
    src = _function("r = any(_t(x, x > y) for x in xs for y in ys)")
    assert _same(src) == src


def test_a_sum_of_whole_numbers_adds_each_item_as_it_comes():
    """`sum(x for ...)`, which the writer makes only of whole numbers (cuts.running_sum), is a loop
    that adds each item to a name: no list and no call, the same items evaluated in the same
    order, an item's error met at that item. `sum` of a list (numbers that may have a
    fraction, whose sum Python may round otherwise) keeps its call."""
    src = _function("r = sum(_t(('s', x), x * 10) for x in xs if _t(('c', x), x != 2))")
    lowered = _same(src)
    assert "sum(" not in lowered and "+= " in lowered
    assert _run(lowered)[0][0] == 40
    assert _run(lowered)[1] == [("c", 1), ("s", 1), ("c", 2), ("c", 3), ("s", 3)]
    assert _run(lowered, frozenset({("s", 3)}))[2] == "ValueError(('s', 3))"
    listed = _same(_function("r = sum([_t(x, x) for x in xs])"))
    assert "sum(_lw" in listed and "+= " not in listed


def test_running_sum_is_written_only_for_one_comprehension_whole():
    assert running_sum("[x * 2 for x in xs if x]") == "sum(x * 2 for x in xs if x)"
    assert running_sum("[a for a in xs] + [b for b in ys]") is None
    assert running_sum("(list(_it) if c else None)") is None


def test_short_cut_is_written_only_for_one_comprehension_whole():
    assert short_cut("any", "[x for x in xs]", True) == "any(x for x in xs)"
    assert short_cut("first", "[x for x in xs if x]", True) == "next((x for x in xs if x), None)"
    assert short_cut("any", "[a for a in xs] + [b for b in ys]", True) is None
    assert short_cut("all", "(list(_it) if c else None)", True) is None
    # Items that may fail are all worked out; `last` has no first deciding item.
    assert short_cut("any", "[x for x in xs]", False) is None
    assert short_cut("last", "[x for x in xs]", True) is None


def test_the_later_part_of_an_and_runs_only_when_python_would_run_it():
    src = _function("r = _t(1, False) and any([_t(2, x) for x in xs])",
                    "if _t(3, True) or len([_t(4, x) for x in xs]) > 1:",
                    "    r = 5")
    lowered = _same(src)
    assert _run(lowered)[1] == [1, 3]


def test_a_memo_is_filled_once_and_read_after():
    memo = "(_L1 if _L1 is not _U else (_L1 := sum([_t(('m', x), x) for x in xs])))"
    src = _function(f"r = {memo} + {memo}", f"if {memo} > 5:", "    r += 100")
    _same(src)
    assert _run(loops(src))[1] == [("m", 1), ("m", 2), ("m", 3)]


def test_the_meter_counts_the_items_as_it_did_and_its_limit_stops_the_same_way():
    meter = "for _ in (0,) if ((wk := wk + len(_it := xs)) <= {lim} or _fb())"
    for lim in (100, 2):
        _same(_function(f"r = any([_t(x, x > 1) {meter.format(lim=lim)} for x in _it])"))


def test_an_elif_test_with_a_comprehension_becomes_an_else_block():
    src = _function("if _t(1, r > 0):",
                    "    r = 1",
                    "elif any([_t(2, x > 4) for x in ys]):",
                    "    r = 2",
                    "    if len([x for x in xs if _t(3, x)]) == 3:",
                    "        r = 22",
                    "elif _t(4, True):",
                    "    r = 3",
                    "else:",
                    "    r = 4")
    lowered = _same(src)
    assert "elif any(" not in lowered


def test_a_part_evaluated_before_a_loop_keeps_its_value():
    """`_L1 + len(...)` where the loop fills the memo it reads: Python read it first."""
    src = _function("r = _t(0, 7) + len([x for x in xs if (_L1 := _t(x, x))])",
                    "r = (r, _L1)")
    _same(src)


def test_names_of_the_function_are_not_overwritten_by_a_loop():
    src = _function("x = 10", "r = len([x for x in xs]) + x")
    assert _same(src) == src  # left as written: its `x` is the function's


def test_a_count_left_as_written_inside_a_loop_keeps_its_call():
    """The inner `any` binds the function's `x`, so it stays a comprehension: inside the
    outer one, now a loop, it is still `any` of its list."""
    src = _function("x = 10",
                    "r = len([v for v in xs if any([_t(x, x > v) for x in ys])]) + x")
    lowered = _same(src)
    assert "any([" in lowered and lowered != src


def test_a_raisers_own_function_is_left_as_written():
    """A raiser (a function inside the game's, sharing its names by `nonlocal`) keeps its
    comprehensions; the game's own statements around it are rewritten."""
    src = "\n".join([
        "def play():",
        "    wk = 0",
        "    _L1 = _L2 = _U",
        "    r = 0",
        "    def _rz1():",
        "        nonlocal r",
        "        r = len([x for x in xs if _t(x, x > 1)])",
        "    _rz1()",
        "    r = r + len([y for y in ys if _t(y, y > 1)])",
        "    return (r, wk, _L1, _L2)", ""])
    lowered = _same(src)
    assert "        r = len([x for x in xs" in lowered and "len([y" not in lowered


def test_comprehensions_inside_a_lambda_or_a_generator_are_left_as_written():
    src = _function("r = (lambda: len([x for x in xs]))() + min(len([y]) for y in xs)")
    assert _same(src) == src


def test_a_while_test_and_a_chained_comparison_are_left_as_written():
    src = _function("while len([x for x in xs]) < r:",
                    "    r -= 1",
                    "r = 0 < len([x for x in xs]) < 5")
    assert _same(src) == src


# -- random expressions ------------------------------------------------------------------------

@st.composite
def _expr(draw, kind: str, depth: int, loop_vars: tuple[str, ...], counter: list[int]) -> str:
    """A random expression of `kind` ('int', 'bool', 'list') from the shapes the generator
    writes, every leaf logged."""
    counter[0] += 1
    k = counter[0]
    leaf = depth <= 0 or draw(st.integers(0, 3)) == 0
    if kind == "list":  # a comprehension's iterable (Python allows no `:=` in one)
        return draw(st.sampled_from(["xs", "ys", "zs"]))
    if kind == "int":
        if leaf:
            value = draw(st.sampled_from([*loop_vars, "0", "1", "2", "7"]))
            return f"_t({k}, {value})"
        shape = draw(st.sampled_from(["len", "sum", "add", "ifexp", "memo"]))
        if shape in ("len", "sum"):
            return draw(_comp(shape, depth, loop_vars, counter))
        a = draw(_expr("int", depth - 1, loop_vars, counter))
        b = draw(_expr("int", depth - 1, loop_vars, counter))
        if shape == "add":
            return f"({a} + {b})"
        if shape == "ifexp":
            c = draw(_expr("bool", depth - 1, loop_vars, counter))
            return f"({a} if {c} else {b})"
        memo = draw(st.sampled_from(["_L1", "_L2"]))
        return f"({memo} if {memo} is not _U else ({memo} := {a}))"
    if leaf:
        a = draw(_expr("int", 0, loop_vars, counter))
        return f"({a} > 1)"
    shape = draw(st.sampled_from(["any", "all", "and", "or", "not", "cmp"]))
    if shape in ("any", "all"):
        return draw(_comp(shape, depth, loop_vars, counter))
    if shape == "not":
        return f"(not {draw(_expr('bool', depth - 1, loop_vars, counter))})"
    if shape == "cmp":
        a = draw(_expr("int", depth - 1, loop_vars, counter))
        b = draw(_expr("int", depth - 1, loop_vars, counter))
        return f"({a} < {b})"
    parts = [draw(_expr("bool", depth - 1, loop_vars, counter))
             for _ in range(draw(st.integers(2, 3)))]
    return "(" + f" {shape} ".join(parts) + ")"


@st.composite
def _comp(draw, how: str, depth: int, loop_vars: tuple[str, ...], counter: list[int]) -> str:
    var = f"v{counter[0]}"
    counter[0] += 1
    inner = (*loop_vars, var)
    source = draw(_expr("list", depth - 1, loop_vars, counter))
    meter = draw(st.booleans())
    head = (f"for _ in (0,) if ((wk := wk + len(_it{var} := {source})) <= 40 or _fb()) "
            f"for {var} in _it{var}") if meter else f"for {var} in {source}"
    cond = draw(st.none() | _expr("bool", depth - 1, inner, counter))
    tail = f" if {cond}" if cond else ""
    el = draw(_expr("bool" if how in ("any", "all") else "int", depth - 1, inner, counter))
    body = f"[{el} {head}{tail}]"
    if how in ("any", "all", "sum") and draw(st.booleans()):  # the writer's short cuts
        return (f"(next(({body[1:-1]}), None) or 0)" if how == "sum"
                else f"{how}({body[1:-1]})")
    return body if how == "list" else f"{how}({body})"


@st.composite
def _program(draw) -> tuple[str, frozenset]:
    counter = [0]
    a = draw(_expr("int", 3, (), counter))
    b = draw(_expr("bool", 3, (), counter))
    c = draw(_expr("bool", 2, (), counter))
    src = _function(f"r = {a}",
                    f"if {b}:",
                    "    r += 1",
                    f"elif {c}:",
                    "    r += 2")
    bombs = frozenset(draw(st.sets(st.integers(1, counter[0]), max_size=2)))
    return src, bombs


@settings(max_examples=300, deadline=None)
@given(_program())
def test_random_expressions_evaluate_the_same_parts_in_the_same_order(case):
    src, bombs = case
    _same(src, bombs)


def test_the_dungeons_legality_flags_are_loops_in_its_generated_code():
    """The dice-bag dungeon's bonus-action legality (`any` of a row's dice) is a loop."""
    source = specialize(load("rulesets/dice_bag_dungeon.yaml").program).source
    flags = [ln for ln in source.splitlines() if re.match(r"\s*_ok\d+ = ", ln)]
    assert flags and not [ln for ln in flags if "any([" in ln or "len([" in ln]
