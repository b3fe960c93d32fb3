"""A flag known at a test, read as what it holds (interpreter/compile/known.py): a name only
ever given True or False is replaced in a test's truth where every path of the function that
reaches the test agrees on its value, and nowhere else; the code does what it did."""

from __future__ import annotations

import re
import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from interpreter.compile.known import known_flags
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.generated_agreement import plays_as_the_interpreter


def _known(body: str) -> str:
    return known_flags(textwrap.dedent(body))[0]


# A loop entered with two flags set, whose only writes of False are followed by leaving it:
# the shape of a dive that runs while a state flag is set and its timer runs.
RUNNING = """\
def play(X):
    T = []
    on = False
    ticking = False
    done = False
    if not on:
        T.append(0)
    on = True
    ticking = True
    for k in range(5):
        for j in range(2):
            if ticking and X[k] > j:
                ticking = False
                if on:
                    _t = False
                    on = _t
                    done = True
                    break
        if done:
            break
        if on:
            T.append(k)
    return T
"""


def test_a_flag_every_path_into_a_loop_agrees_on_is_read_as_its_value():
    out = _known(RUNNING)
    assert "            if (X[k] > j):\n" in out
    assert "                if True:\n" in out  # on, cleared only on the way out
    assert "        if True:\n            T.append(k)" in out
    assert "    if True:\n        T.append(0)" in out  # `not on`, with on just set False
    assert "        if done:\n" in out  # True on one path, False on the other


def test_a_flag_cleared_on_a_path_that_goes_on_round_the_loop_stays_read():
    going_on = RUNNING.replace("                    break\n", "").replace(
        "        if done:\n            break\n", "")
    assert going_on.count("break") == 0
    out = _known(going_on)
    assert "if ticking and X[k] > j:" in out and "        if on:\n            T.append(k)" in out
    # Within the loop, `on` is still known wherever `ticking` is: they are cleared together.
    assert "                if True:\n" in out


# How most of the sources below end: the flag read after what the case tests.
ON_AT_THE_END = """\
        if on:
            return 1
        return 2
    """
LOOPS = {
    # back to the loop's head by `continue`, the flag cleared
    "continue": ("""\
    def play(X, T):
        on = True
        for k in range(3):
            if not on:
                T.append(k)
            if X[k]:
                on = False
                continue
            on = True
        return 0
    """, [1, 0, 0], (0, [1])),
    # out of the loop by a `break` inside a `try`, the flag cleared
    "break in a try": ("""\
    def play(X, T):
        on = True
        for k in range(3):
            try:
                if X[k]:
                    on = False
                    break
            except IndexError:
                pass
""" + ON_AT_THE_END, [0, 1, 0], (2, [])),
    # out of a `for` when its items run out, after a pass that cleared the flag
    "items run out": ("""\
    def play(X, T):
        on = True
        for k in X:
            on = False
""" + ON_AT_THE_END, [0], (2, [])),
    # out of a `while` when its test fails, the flag cleared in a pass
    "test fails": ("""\
    def play(X, T):
        on = True
        k = 0
        while k < len(X) and on:
            if X[k]:
                on = False
            k += 1
""" + ON_AT_THE_END, [0, 1, 0], (2, [])),
}


def test_each_way_round_a_loop_and_out_of_it_is_followed():
    for way, (src, x, want) in LOOPS.items():
        out = _known(src)
        assert _outcome(out, x) == want, way
        assert "if on:" in out or "if not on:" in out, way


def test_a_flag_written_in_a_try_is_not_known_in_its_handlers_nor_after_them():
    src = """\
    def play(X):
        on = True
        try:
            on = False
            T = X[5]
        except IndexError:
            if on:
                return 1
        if on:
            return 2
        return 3
    """
    out = _known(src)
    assert "    except IndexError:\n        if on:\n" in out
    assert "    if False:\n        return 2\n" in out  # a handler that goes on, on cleared
    ns: dict = {}
    exec(out, ns)
    assert ns["play"]([0]) == 3 and ns["play"]([0] * 6) == 3


def test_a_finally_knows_only_what_every_way_into_it_agrees_on():
    src = """\
    def play(X):
        T = []
        for k in range(3):
            on = True
            try:
                if X[k]:
                    on = False
                    break
            finally:
                if on:
                    T.append(k)
        return T
    """
    out = _known(src)
    assert "if on:" in out
    ns: dict = {}
    exec(out, ns)
    assert ns["play"]([0, 1, 0]) == [0]


def test_a_finally_passes_on_each_way_out_with_what_that_way_knows():
    # Left by `break` with the flag cleared: read after the loop, it is not known.
    broken = """\
    def play(X, T):
        on = True
        for k in range(3):
            try:
                if X[k]:
                    on = False
                    break
            finally:
                T.append(k)
""" + ON_AT_THE_END
    # Reached by an exception raised where the flag is cleared: in the finally, not known.
    raised = """\
    def play(X, T):
        on = True
        try:
            on = False
            T.append(X[5])
            on = True
        finally:
            if on:
                T.append("on")
        return 3
    """
    for src, x, want in ((broken, [1, 0, 0], (2, [0])), (raised, [0], ("raised", []))):
        out = _known(src)
        assert "if on:" in out
        assert _outcome(out, x) == want


def test_a_name_bound_any_other_way_is_no_flag():
    for binding in ("on += 1", "on = X[0]", "for on in X: pass", "(on := X[0])",
                    "with X as on: pass", "on, k = X", "del on"):
        src = f"""\
        def play(X):
            on = True
            if X:
                {binding}
            if on:
                return 1
            return 2
        """
        assert "if on:" in _known(src), binding


def test_a_test_inside_a_comprehension_or_a_lambda_is_left_as_it_is():
    src = """\
    def play(X):
        on = True
        f = lambda: 1 if on else 2
        return [x for x in X if on], f()
    """
    out = _known(src)
    assert "if on]" in out and "1 if on else 2" in out


def test_a_dead_branch_does_not_clear_a_flag():
    src = """\
    def play(X):
        on = True
        if X[0] > 0 and False:
            on = False
""" + ON_AT_THE_END
    assert "    if True:\n" in _known(src)


def test_a_statement_the_pass_does_not_follow_leaves_the_whole_source():
    src = """\
    def play(X):
        on = True
        with X:
            on = False
""" + ON_AT_THE_END
    assert _known(src) == textwrap.dedent(src)


def test_the_tree_given_back_is_the_text_given_back():
    source = RUNNING + "# a source no other test passes\n"
    text, tree = known_flags(source)
    assert text != source and tree is not None
    by_text: dict = {}
    by_tree: dict = {}
    exec(compile(text, "<text>", "exec"), by_text)
    exec(compile(tree, "<tree>", "exec"), by_tree)
    assert [by_tree["play"](x) for x in ([0] * 5, [0, 0, 1, 0, 0])] == \
        [by_text["play"](x) for x in ([0] * 5, [0, 0, 1, 0, 0])] == [[0, 0, 1, 2, 3, 4], [0, 0, 1]]


# -- random functions: the rewritten code does what the written code does ---------------------
FLAGS = ("a", "b", "c")


@st.composite
def _test(draw, depth: int = 0) -> str:
    kind = draw(st.integers(0, 4 if depth < 2 else 1))
    if kind == 0:
        return draw(st.sampled_from(FLAGS))
    if kind == 1:
        return f"X[n % 4] > {draw(st.integers(-1, 1))}"
    if kind == 2:
        return f"not ({draw(_test(depth + 1))})"
    op = " and " if kind == 3 else " or "
    return op.join(f"({draw(_test(depth + 1))})" for _ in range(draw(st.integers(2, 3))))


@st.composite
def _block(draw, depth: int, looped: bool) -> list[str]:
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 3))):
        kinds = ["set", "copy", "note", "if"] + (["for", "while", "try"] if depth < 3 else []) \
            + (["break", "continue"] if looped else []) + ["raise"]
        kind = draw(st.sampled_from(kinds))
        if kind == "set":
            lines.append(f"{draw(st.sampled_from(FLAGS))} = {draw(st.booleans())}")
        elif kind == "copy":
            lines.append(f"{draw(st.sampled_from(FLAGS))} = {draw(st.sampled_from(FLAGS))}")
        elif kind == "note":
            lines.append("T.append((n, a, b, c))")
        elif kind in ("break", "continue"):
            lines.append(f"if X[n % 4] > 0: {kind}")
        elif kind == "raise":
            lines.append(f"if {draw(_test())}: raise _E")
        elif kind == "if":
            lines.append(f"if {draw(_test())}:")
            lines += ["    " + x for x in draw(_block(depth + 1, looped))]
            if draw(st.booleans()):
                lines.append("else:")
                lines += ["    " + x for x in draw(_block(depth + 1, looped))]
        elif kind in ("for", "while"):
            lines.append("for _k in range(3):" if kind == "for" else f"while {draw(_test())}:")
            lines += ["    n += 1", "    if n > 40: break"]
            lines += ["    " + x for x in draw(_block(depth + 1, True))]
            if draw(st.booleans()):
                lines.append("else:")
                lines += ["    " + x for x in draw(_block(depth + 1, looped))]
        else:
            lines.append("try:")
            lines += ["    " + x for x in draw(_block(depth + 1, looped))]
            lines.append("except _E:")
            lines += ["    " + x for x in draw(_block(depth + 1, looped))]
            if draw(st.booleans()):
                lines.append("finally:")
                lines.append("    T.append('finally')")
                lines += ["    " + x for x in draw(_block(depth + 1, False))]
    return lines


def _outcome(code, x: list[int]):
    ns: dict = {"_E": type("_E", (Exception,), {})}
    exec(code, ns)
    trace: list = []
    try:
        return ns["play"](x, trace), trace
    except (ns["_E"], IndexError):
        return "raised", trace


@settings(max_examples=300, deadline=None)
@given(_block(0, False), st.lists(st.lists(st.integers(-1, 1), min_size=4, max_size=4),
                                  min_size=3, max_size=3))
def test_random_functions_do_what_they_did_with_their_known_flags_read_as_values(body, xs):
    source = "def play(X, T):\n    n = 0\n    a = b = c = False\n    a = False\n" \
        + "".join(f"    {line}\n" for line in body) + "    return n\n"
    text, tree = known_flags(source)
    compiled = compile(tree, "<tree>", "exec") if tree is not None else text
    for x in xs:
        want = _outcome(source, x)
        assert _outcome(text, x) == want, text
        assert _outcome(compiled, x) == want, text


# -- a shipped ruleset ----------------------------------------------------------------------------
def test_a_dive_loop_tests_no_flag_it_is_known_to_hold_and_plays_as_the_interpreter():
    program = load("rulesets/wreckdivers.yaml").program
    fast = specialize(program).source
    logged = specialize(program, logged=True).source  # the pass is for the fast versions
    assert "if V_diving:" in logged and "if V_diving:" not in fast
    assert not re.search(r"TR_\w+ and TE_\w+ <= ", fast)
    plays_as_the_interpreter(program, range(30))


def test_the_same_function_written_again_is_not_read_again():
    source = RUNNING.replace("range(5)", "range(6)")  # a source no other test passes
    text, tree = known_flags(source)
    assert tree is not None and text != source
    again, no_tree = known_flags(source)
    assert again == text and no_tree is None  # the text kept; compiled from it


def test_a_function_past_the_work_the_pass_allows_itself_is_left_as_it_is(monkeypatch):
    import interpreter.compile.known as known

    source = RUNNING + "# past the budget\n"
    monkeypatch.setattr(known, "_BUDGET", 10)
    assert known_flags(source)[0] == source
    monkeypatch.setattr(known, "_BUDGET", 1000)
    assert known_flags(source + "# within it\n")[0] != source + "# within it\n"


def test_a_flag_tested_alone_is_known_on_each_side_of_its_test():
    # After the handler the flag is not known (the exception may come before or after its
    # write): only its own test tells.
    src = """\
    def play(X, T):
        on = False
        try:
            T.append(X[1])
            on = True
        except IndexError:
            pass
        if on:
            if on:
                T.append(1)
        else:
            if not on:
                T.append(2)
        return 0
    """
    out = _known(src)
    assert "    if on:\n        if True:\n" in out and "    else:\n        if True:\n" in out
    for x in ([0], [1], [1, 0]):
        assert _outcome(out, x) == _outcome(textwrap.dedent(src), x)
