"""Phase 3, parse: expression text to our AST (dsl/nodes.py), with friendly syntax errors.

Input: the text of one expression (or a narration template). Output: a `Node`, or an
`ExprSyntaxError` carrying a stable code, a message that names what could come next in the
user's spelling, and the character offset of the problem. Grammar in dsl/expressions.lark; the
parser is dsl/expressions_parser.py, Lark's stand-alone parser generated from it
(dsl/grammar_build.py), so parsing imports neither Lark nor a cache. This is the only module
that uses it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from dsl import nodes as n
from dsl.expressions_parser import (
    Lark,
    Lark_StandAlone,
    Token,
    Transformer,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    VisitError,
    v_args,
)

MAX_EXPRESSION_CHARS = 2_000
MAX_NESTING = 40  # brackets
MAX_DEPTH = 64    # operations inside operations (`not not ...`, `a + b + ... + z`, if-then-else)

KEYWORDS = frozenset({"and", "or", "not", "in", "if", "then", "else", "for", "true", "false",
                      "none"})
# Words kept free for later versions of the language: rejected as declared names.
RESERVED = frozenset({"let", "fn", "def", "lambda", "while", "import", "return", "null", "is",
                      "as", "with", "yield", "class", "self"})


class ExprSyntaxError(Exception):
    """A syntax error in one expression, located by character offset."""

    def __init__(self, message: str, offset: int, length: int = 1, code: str = "syntax",
                 hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset
        self.length = length
        self.code = code
        self.hint = hint


@lru_cache(maxsize=1)
def _parser() -> Lark:
    return Lark_StandAlone()


def _pos(meta) -> n.Pos:
    return (meta.start_pos, meta.end_pos)


def _tpos(tok: Token) -> n.Pos:
    return (tok.start_pos, tok.end_pos)


_BINARY = {"add": "+", "sub": "-", "mul": "*", "div": "/", "floordiv": "//", "mod": "%",
           "and_": "and", "or_": "or", "in_": "in", "not_in": "not in"}

_BAD_OPS = {
    "&&": ("'&&' is not an operator here", "write `and`"),
    "||": ("'||' is not an operator here", "write `or`"),
    "!": ("'!' is not an operator here", "write `not`"),
    "=": ("'=' is not a comparison", "write `==` to compare (values are changed by `set:` steps)"),
    "===": ("'===' is not an operator here", "write `==`"),
    "!==": ("'!==' is not an operator here", "write `!=`"),
    "<>": ("'<>' is not an operator here", "write `!=`"),
    "**": ("'**' is not an operator here", "there is no power operator; multiply instead"),
    "?": ("'?' is not an operator here", "write `if CONDITION then A else B`"),
}


def _ident(tok: Token) -> Token:
    """Rejects a keyword lexed as a name (Lark's contextual lexer does so where no keyword fits),
    and a name that starts with `_`: those are the engine's own, never a ruleset's (the
    language is closed: an expression reaches only what the ruleset declares)."""
    if str(tok) in KEYWORDS:
        raise ExprSyntaxError(f"'{tok}' is a keyword, not a name", tok.start_pos, len(tok))
    if str(tok).startswith("_"):
        raise ExprSyntaxError(f"'{tok}' starts with '_': names and fields that start with '_' "
                              "are kept for the engine", tok.start_pos, len(tok),
                              "private-name", "rename it without the leading '_'")
    return tok


@v_args(meta=True)
class _ToNodes(Transformer):
    """Turns Lark's tree into our nodes; one method per grammar alias."""

    def number(self, meta, children):
        tok = children[0]
        text = str(tok)
        return n.Literal(_tpos(tok), float(text) if "." in text else int(text))

    def string(self, meta, children):
        tok = children[0]
        return n.Literal(_tpos(tok), str(tok)[1:-1])

    def true(self, meta, children):
        return n.Literal(_pos(meta), True)

    def false(self, meta, children):
        return n.Literal(_pos(meta), False)

    def none(self, meta, children):
        return n.Literal(_pos(meta), None)

    def name(self, meta, children):
        tok = _ident(children[0])
        return n.Name(_tpos(tok), str(tok))

    def list_(self, meta, children):
        pos = _pos(meta) if not meta.empty else (0, 0)
        return n.ListExpr(pos, tuple(children))

    def list_comp(self, meta, children):
        element, comp = children
        return n.Comprehension(_pos(meta), element, *comp)

    def comp_for(self, meta, children):
        var, iterable, *cond = children
        return (str(_ident(var)), _tpos(var), iterable, cond[0] if cond else None)

    def field(self, meta, children):
        obj, name = children
        _ident(name)
        return n.Field(_pos(meta), obj, str(name), _tpos(name))

    def index(self, meta, children):
        obj, key = children
        return n.Index(_pos(meta), obj, key)

    def arguments(self, meta, children):
        return children

    def keyword(self, meta, children):
        name, value = children
        _ident(name)
        return ("kw", str(name), value)

    def call(self, meta, children):
        func = _ident(children[0])
        items = children[1] if len(children) > 1 else []
        args, kwargs, seen_kw = [], [], False
        for item in items:
            if isinstance(item, tuple) and item and item[0] == "kw":
                kwargs.append((item[1], item[2]))
                seen_kw = True
            else:
                if seen_kw:
                    raise ExprSyntaxError("a positional argument cannot follow a named one",
                                          item.pos[0], max(1, item.pos[1] - item.pos[0]))
                args.append(item)
        return n.Call(_pos(meta), str(func), tuple(args), tuple(kwargs), _tpos(func))

    def gen_call(self, meta, children):
        func, element, comp = children
        _ident(func)
        gen = n.Comprehension((element.pos[0], meta.end_pos - 1), element, *comp)
        return n.Call(_pos(meta), str(func), (gen,), (), _tpos(func))

    def neg(self, meta, children):
        return n.Unary(_pos(meta), "-", children[0])

    def not_(self, meta, children):
        return n.Unary(_pos(meta), "not", children[0])

    def compare(self, meta, children):
        left, op, right = children
        return n.Binary(_pos(meta), str(op), left, right)

    def conditional(self, meta, children):
        cond, then, other = children
        return n.Conditional(_pos(meta), cond, then, other)

    def __default__(self, data, children, meta):
        if data in _BINARY:
            left, right = children
            return n.Binary(_pos(meta), _BINARY[data], left, right)
        raise AssertionError(f"unhandled grammar rule {data}")  # pragma: no cover


_transformer = _ToNodes()

_SPELLING = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "COMP_OP": "a comparison",
    "$END": "the end of the expression",
}


def _spell(term: str) -> str | None:
    if term in _SPELLING:
        return _SPELLING[term]
    try:
        pattern = _parser().get_terminal(term).pattern
    except KeyError:
        return term.lower()
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return term.lower()


def _expected(terms) -> str:
    words = sorted({w for t in terms if (w := _spell(t))}, key=lambda w: (not w.startswith("'"), w))
    if not words:
        return ""
    if len(words) > 8:
        words = words[:8] + ["..."]
    return ", ".join(words)


def _check_limits(text: str) -> None:
    if len(text) > MAX_EXPRESSION_CHARS:
        raise ExprSyntaxError(
            f"the expression is longer than {MAX_EXPRESSION_CHARS} characters", 0, 1,
            "limit-exceeded", "split it, or compute parts in earlier `let` steps")
    depth = 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
            if depth > MAX_NESTING:
                raise ExprSyntaxError(f"brackets nest deeper than {MAX_NESTING} levels", i, 1,
                                      "limit-exceeded")
        elif ch in ")]":
            depth -= 1


def _check_depth(tree: Tree) -> None:
    """Refuses a tree nested deeper than MAX_DEPTH, walking it without recursion, so that the
    recursive phases after parsing (transform, check, compile) never meet a deep tree."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            start = getattr(node.meta, "start_pos", 0) if not node.meta.empty else 0
            raise ExprSyntaxError(f"the expression nests operations deeper than {MAX_DEPTH} "
                                  "levels", start, 1, "limit-exceeded",
                                  "split it: compute parts in earlier `let` steps")
        stack.extend((c, depth + 1) for c in node.children if isinstance(c, Tree))


@lru_cache(maxsize=4096)
def parse_expression(text: str) -> n.Node:
    """Parses one expression. Raises ExprSyntaxError with the offset of the problem.

    Results are cached by text: nodes are immutable, and rulesets (and their variants, which
    are checked as whole rulesets) repeat the same expressions.
    """
    _check_limits(text)
    if not text.strip():
        raise ExprSyntaxError("the expression is empty", 0, 1)
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as err:
        raise _translate(err, text) from None
    _check_depth(tree)
    try:
        try:
            return _transformer.transform(tree)
        except VisitError as err:  # Lark wraps what our callbacks raise
            raise err.orig_exc from None
    except RecursionError:  # e.g. `1+1+...+1` with a thousand terms nests that deep
        raise ExprSyntaxError("the expression nests too many operations", 0, 1,
                              "limit-exceeded", "split it into smaller expressions") from None


def _translate(err: UnexpectedInput, text: str) -> ExprSyntaxError:
    bad = _bad_operator(text)
    if bad is not None:
        return bad
    if isinstance(err, UnexpectedEOF) or (
            isinstance(err, UnexpectedToken) and err.token.type == "$END"):
        expected = _expected(err.expected)
        opener = _unclosed(text)
        if opener is not None:
            close = ")" if text[opener] == "(" else "]"
            return ExprSyntaxError(f"'{text[opener]}' is never closed", opener, 1,
                                   hint=f"add '{close}'")
        return ExprSyntaxError(
            "the expression ends too early" + (f"; expected {expected}" if expected else ""),
            max(0, len(text.rstrip()) - 1), 1)
    if isinstance(err, UnexpectedToken):
        tok = err.token
        expected = _expected(err.expected)
        shown = str(tok)
        hint = None
        if tok.type == "NAME" and shown in {"elif", "elseif"}:
            hint = "nest another `if ... then ... else ...`"
        return ExprSyntaxError(
            f"unexpected '{shown}'" + (f"; expected {expected}" if expected else ""),
            tok.start_pos, max(1, len(shown)), hint=hint)
    if isinstance(err, UnexpectedCharacters):
        ch = text[err.pos_in_stream] if err.pos_in_stream < len(text) else "?"
        if ch in "'\"":
            return ExprSyntaxError("the string is never closed", err.pos_in_stream, 1,
                                   hint=f"add the closing {ch}")
        return ExprSyntaxError(f"unexpected character '{ch}'", err.pos_in_stream, 1)
    return ExprSyntaxError(str(err), 0, 1)  # pragma: no cover


_BAD_OP = re.compile(r"'[^']*'|\"[^\"]*\"|(&&|\|\||===|!==|<>|\*\*|!(?!=)|(?<![=!<>])=(?!=)|\?)")


def _bad_operator(text: str) -> ExprSyntaxError | None:
    """Finds an operator from another language (outside strings), for a friendlier message."""
    for m in _BAD_OP.finditer(text):
        if m.group(1):
            message, hint = _BAD_OPS[m.group(1)]
            return ExprSyntaxError(message, m.start(1), len(m.group(1)), "syntax-operator", hint)
    return None


def _unclosed(text: str) -> int | None:
    """Returns the offset of the first bracket left open, ignoring strings."""
    stack: list[int] = []
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            stack.append(i)
        elif ch in ")]" and stack:
            stack.pop()
    return stack[0] if stack else None


_HOLE = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")


def parse_template(text: str) -> n.Template:
    """Parses narration text with `{expression}` holes; `{{` and `}}` are literal braces."""
    parts: list[str | n.Node] = []
    last = 0
    buf = ""
    for m in _HOLE.finditer(text):
        buf += text[last:m.start()]
        last = m.end()
        if m.group(0) in ("{{", "}}"):
            buf += m.group(0)[0]
            continue
        if buf:
            parts.append(buf)
            buf = ""
        inner = m.group(1)
        try:
            node = parse_expression(inner)
        except ExprSyntaxError as err:
            err.offset += m.start(1)
            raise
        parts.append(_shift(node, m.start(1)))
    buf += text[last:]
    stray = next((i for i, ch in enumerate(text) if ch in "{}"), None)
    if stray is not None and not _HOLE.search(text):
        raise ExprSyntaxError(f"unmatched '{text[stray]}' in text", stray, 1,
                              hint="write '{{' or '}}' for a literal brace")
    if buf:
        parts.append(buf)
    return n.Template((0, len(text)), tuple(parts))


def _shift(node: n.Node, by: int) -> n.Node:
    """Returns a copy of a node tree with every position moved by `by` characters."""
    import dataclasses

    changes = {}
    for f in dataclasses.fields(node):
        v = getattr(node, f.name)
        if f.name in ("pos", "name_pos", "var_pos", "func_pos"):
            changes[f.name] = (v[0] + by, v[1] + by)
        elif isinstance(v, n.Node):
            changes[f.name] = _shift(v, by)
        elif isinstance(v, tuple) and v and isinstance(v[0], n.Node):
            changes[f.name] = tuple(_shift(x, by) for x in v)
        elif isinstance(v, tuple) and v and isinstance(v[0], tuple):
            changes[f.name] = tuple((k, _shift(x, by)) for k, x in v)
    return dataclasses.replace(node, **changes)
