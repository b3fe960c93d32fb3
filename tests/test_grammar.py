"""The expression grammar: conflict-free, every documented example parses, and properties.

The strategies below mirror dsl/expressions.lark (as avrae/d20's custom_strategies mirror its
grammar): they build random ASTs, print them with the fewest parentheses the precedence table
allows, and check that parsing the text gives the same tree back. Random text, and random
sequences of the grammar's tokens, must only ever raise ExprSyntaxError, located in the text.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import subprocess
import sys
import types

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dsl import expressions_parser, grammar_build
from dsl import nodes as n
from dsl.builtins import BUILTINS
from dsl.grammar_build import build_parser, grammar_sha256
from dsl.parser import KEYWORDS, ExprSyntaxError, parse_expression, parse_template
from tests.conftest import ROOT


def test_grammar_builds_strict_without_conflicts():
    parser = build_parser(strict=True)
    assert parser.parse("1 + 2 * 3") is not None


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_every_builtin_example_parses(name):
    node = parse_expression(BUILTINS[name].example)
    assert any(isinstance(x, n.Call) and x.func == name for x in n.walk(node))


def test_a_long_flat_expression_is_a_limit_not_a_crash():
    with pytest.raises(ExprSyntaxError) as err:
        parse_expression("+".join(["1"] * 999))
    assert err.value.code == "limit-exceeded"


def test_a_positional_argument_after_a_named_one_is_a_syntax_error():
    with pytest.raises(ExprSyntaxError) as err:
        parse_expression("max(xs, default: 1, 2)")
    assert err.value.code == "syntax" and err.value.offset == 20


# -- a printer with the precedence table of dsl/expressions.lark ----------------------------------
# Levels, loosest first: if-then-else 0, or 1, and 2, not 3, comparison/in 4, + - 5,
# * / // % 6, unary - 7, postfix and atoms 8.

_LEVEL = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4, "in": 4,
          "not in": 4, "+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6}


def show(node: n.Node, level: int = 0) -> str:
    """Prints a node as expression text, parenthesised only where the grammar needs it."""
    own, text = _show(node)
    return f"({text})" if own < level else text


def _show(node: n.Node) -> tuple[int, str]:
    if isinstance(node, n.Literal):
        v = node.value
        if v is True or v is False or v is None:
            return 8, {True: "true", False: "false", None: "none"}[v]
        if isinstance(v, str):
            return 8, f"'{v}'" if "'" not in v else f'"{v}"'
        return 8, repr(v)
    if isinstance(node, n.Name):
        return 8, node.id
    if isinstance(node, n.ListExpr):
        return 8, "[" + ", ".join(show(x) for x in node.items) + "]"
    if isinstance(node, n.Comprehension):
        return 8, f"[{_comp(node)}]"
    if isinstance(node, n.Field):
        return 8, f"{show(node.obj, 8)}.{node.name}"
    if isinstance(node, n.Index):
        return 8, f"{show(node.obj, 8)}[{show(node.key)}]"
    if isinstance(node, n.Call):
        if len(node.args) == 1 and not node.kwargs and isinstance(node.args[0], n.Comprehension):
            return 8, f"{node.func}({_comp(node.args[0])})"
        args = [show(a) for a in node.args] + [f"{k}: {show(v)}" for k, v in node.kwargs]
        return 8, f"{node.func}({', '.join(args)})"
    if isinstance(node, n.Unary):
        if node.op == "not":
            return 3, f"not {show(node.operand, 3)}"
        return 7, f"-{show(node.operand, 7)}"
    if isinstance(node, n.Binary):
        level = _LEVEL[node.op]
        if level == 4:  # comparisons do not chain
            return 4, f"{show(node.left, 5)} {node.op} {show(node.right, 5)}"
        return level, f"{show(node.left, level)} {node.op} {show(node.right, level + 1)}"
    if isinstance(node, n.Conditional):
        return 0, f"if {show(node.cond)} then {show(node.then)} else {show(node.other)}"
    raise AssertionError(node)  # pragma: no cover


def _comp(c: n.Comprehension) -> str:
    cond = f" if {show(c.cond, 1)}" if c.cond is not None else ""
    return f"{show(c.element)} for {c.var} in {show(c.iterable, 1)}{cond}"


def shape(node):
    """A node without its positions, for comparing trees."""
    if isinstance(node, n.Node):
        return (type(node).__name__,) + tuple(
            shape(getattr(node, f.name)) for f in dataclasses.fields(node)
            if f.name not in ("pos", "name_pos", "var_pos", "func_pos"))
    if isinstance(node, tuple):
        return tuple(shape(x) for x in node)
    return node


# -- strategies mirroring the grammar ---------------------------------------------------------------

P = (0, 0)
NAMES = st.sampled_from(["x", "y", "s", "xs", "m", "b", "d", "none_", "face", "item", "k"])
FUNCS = st.sampled_from(sorted(BUILTINS))
_ops = st.sampled_from(sorted(_LEVEL))

_numbers = st.integers(0, 9) | st.builds(lambda a, b: float(f"{a}.{b}"), st.integers(0, 99),
                                          st.integers(0, 99))
_strings = st.text(alphabet="ab XY_{}+'", max_size=4).filter(lambda s: not ("'" in s and '"' in s))
_leaves = st.one_of(
    st.builds(lambda v: n.Literal(P, v), _numbers | _strings | st.sampled_from([True, False, None])),
    st.builds(lambda name: n.Name(P, name), NAMES),
)


def _extend(kids):
    comp = st.builds(lambda e, v, it, c: n.Comprehension(P, e, v, P, it, c), kids, NAMES, kids,
                     st.none() | kids)
    return st.one_of(
        st.builds(lambda op, a, b: n.Binary(P, op, a, b), _ops, kids, kids),
        st.builds(lambda a: n.Unary(P, "not", a), kids),
        st.builds(lambda a: n.Unary(P, "-", a), kids),
        st.builds(lambda c, a, b: n.Conditional(P, c, a, b), kids, kids, kids),
        st.builds(lambda o, name: n.Field(P, o, name), kids, NAMES),
        st.builds(lambda o, k: n.Index(P, o, k), kids, kids),
        st.builds(lambda f, a, kw: n.Call(P, f, tuple(a), tuple(kw)), FUNCS,
                  st.lists(kids, max_size=3), st.lists(st.tuples(NAMES, kids), max_size=1)),
        st.builds(lambda f, c: n.Call(P, f, (c,)), FUNCS, comp),
        st.builds(lambda xs: n.ListExpr(P, tuple(xs)), st.lists(kids, max_size=3)),
        comp,
    )


trees = st.recursive(_leaves, _extend, max_leaves=12)
expressions = trees.map(show)

# The grammar's vocabulary, for token soup.
_TOKENS = ["if", "then", "else", "and", "or", "not", "in", "for", "true", "false", "none", "x",
           "xs", "count", "(", ")", "[", "]", ",", ".", ":", "+", "-", "*", "/", "//", "%",
           "==", "!=", "<", "<=", ">", ">=", "1", "2.5", "'a'", '"b"', "'", "=", "&&", "!",
           "?", "**", "{", "}", "#", "\n", ""]


# -- properties -------------------------------------------------------------------------------------

@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_printed_trees_parse_back_to_the_same_tree(tree):
    text = show(tree)
    try:
        parsed = parse_expression(text)
    except ExprSyntaxError as err:
        assume(err.code == "limit-exceeded")  # deep brackets: a language limit, not a bug
        return
    assert shape(parsed) == shape(tree), text
    assert show(parsed) == text


def _check_error(text: str, err: ExprSyntaxError) -> None:
    assert err.code in ("syntax", "syntax-operator", "limit-exceeded", "private-name")
    assert err.message
    assert err.length >= 1
    assert 0 <= err.offset <= max(0, len(text) - 1), (text, err.offset)


@settings(max_examples=500, deadline=None)
@given(st.text(max_size=60))
def test_arbitrary_text_raises_only_syntax_errors_within_the_text(text):
    try:
        parse_expression(text)
    except ExprSyntaxError as err:
        _check_error(text, err)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=14).map(" ".join))
def test_token_soup_raises_only_syntax_errors_within_the_text(text):
    try:
        node = parse_expression(text)
    except ExprSyntaxError as err:
        _check_error(text, err)
        return
    for x in n.walk(node):
        assert 0 <= x.pos[0] <= x.pos[1] <= len(text)


# -- the stand-alone parser (dsl/expressions_parser.py) is the grammar's ------------------------------

def test_the_stand_alone_parser_was_generated_from_the_grammar_as_it_is():
    # Editing dsl/expressions.lark without `python -m dsl.grammar_build` fails here.
    assert expressions_parser.GRAMMAR_SHA256 == grammar_sha256()


def test_parsing_an_expression_does_not_import_lark():
    # The stand-alone parser carries Lark's run-time code: no import of Lark, no cache file.
    code = ("import sys\n"
            "from dsl.parser import parse_expression\n"
            "parse_expression('count(x for x in xs if x > 1) + 2')\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'interegular')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "[]", out.stderr


def test_the_written_parser_keeps_lark_quiet_without_logging_and_loads_pickle_on_first_use():
    # dsl/grammar_build.py `quiet`: Lark's logger (kept at CRITICAL) drops every message, and
    # its cache's pickle is imported when first used; a Lark whose output no longer reads as
    # the edit expects stops the build instead of writing a parser that imports them.
    assert "logging" not in vars(expressions_parser)
    assert type(expressions_parser.logger).__name__ == "_QuietLogger"
    assert expressions_parser.logger.warning("%s", "x") is None
    assert not isinstance(expressions_parser.pickle, types.ModuleType)  # not imported yet
    assert expressions_parser.pickle.loads(expressions_parser.pickle.dumps([1])) == [1]
    with pytest.raises(SystemExit, match="stand-alone output changed"):
        grammar_build.quiet("import logging\n")


def _plain(tree) -> object:
    """A parse tree (Lark's or the stand-alone parser's) as tuples: rule, position, children;
    a token as its type, text and position."""
    if hasattr(tree, "children"):
        meta = tree.meta
        where = None if meta.empty else (meta.start_pos, meta.end_pos)
        return (tree.data, where, tuple(_plain(c) for c in tree.children))
    return (tree.type, str(tree), tree.start_pos, tree.end_pos)


def _outcome(parser, text: str) -> object:
    try:
        return _plain(parser.parse(text))
    except Exception as err:  # the two parsers' exception classes differ: compare their data
        return (type(err).__name__, getattr(err, "pos_in_stream", None),
                sorted(getattr(err, "expected", None) or ()),
                getattr(getattr(err, "token", None), "type", None))


_LARK = build_parser()
_STAND_ALONE = expressions_parser.Lark_StandAlone()


def test_the_grammar_build_writes_a_parser_that_parses_as_lark_does(tmp_path, monkeypatch):
    # What `python -m dsl.grammar_build` writes, with the Lark installed here: a module that
    # records the grammar's hash and parses as Lark's own parser.
    monkeypatch.setattr(grammar_build, "STANDALONE_PATH", tmp_path / "written.py")
    assert grammar_build.main() == 0
    spec = importlib.util.spec_from_file_location("written", tmp_path / "written.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "written", module)  # its dataclasses look themselves up
    spec.loader.exec_module(module)
    assert module.GRAMMAR_SHA256 == grammar_sha256()
    parser = module.Lark_StandAlone()
    for text in ["count(x for x in xs if x > 1) + 2", "a.b[0] if c then d else -e",
                 "[1, 'two', none]", "x not in y and not z", "1 +", "f(a=1, 2)"]:
        assert _outcome(parser, text) == _outcome(_LARK, text), text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(expressions, st.lists(st.sampled_from(_TOKENS), max_size=14).map(" ".join),
                 st.text(max_size=40)))
def test_the_stand_alone_parser_gives_lark_s_trees_and_errors(text):
    assert _outcome(_STAND_ALONE, text) == _outcome(_LARK, text), text


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS + ["{", "}", "{{", "}}", "text "]), max_size=14)
       .map("".join))
def test_templates_raise_only_syntax_errors_within_the_text(text):
    try:
        node = parse_template(text)
    except ExprSyntaxError as err:
        _check_error(text, err)
        return
    for x in n.walk(node):
        assert 0 <= x.pos[0] <= x.pos[1] <= len(text)


@settings(max_examples=200, deadline=None)
@given(expressions, st.sampled_from(["", " ", "  "]))
def test_whitespace_around_an_expression_does_not_matter(text, pad):
    try:
        a = parse_expression(text)
    except ExprSyntaxError:
        return
    assert shape(parse_expression(pad + text + pad)) == shape(a)


def test_keywords_are_not_names():
    for word in KEYWORDS - {"true", "false", "none"}:
        with pytest.raises(ExprSyntaxError):
            parse_expression(f"{word} + 1")
