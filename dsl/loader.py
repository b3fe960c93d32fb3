"""Phase 1, load: YAML text to plain data with a position for every value.

Input: a path or text. Output: `Document` (plain dicts/lists/scalars, a `SourceFile`, and a
`Positions` map from data paths to spans) or diagnostics. YAML is composed with the safe loader
into nodes (no object construction), then converted by our own walk, which enforces the limits on
document size, nesting depth and alias expansion: an alias bomb is refused, never expanded.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from dsl.diagnostics import Diagnostic
from dsl.source import SourceFile, Span

Path_ = tuple[str | int, ...]

MAX_BYTES = 2_000_000
MAX_DEPTH = 64
MAX_NODES = 200_000  # values after alias expansion
MAX_ALIASES = 1_000

# libyaml's C parser composes the same nodes with the same marks, several times faster.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_SAFE_TAGS = {
    "tag:yaml.org,2002:str", "tag:yaml.org,2002:int", "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null", "tag:yaml.org,2002:seq",
    "tag:yaml.org,2002:map",
}


@dataclass
class Positions:
    """Where each value (and each mapping key) of a document stands in its file."""

    source: SourceFile
    values: dict[Path_, tuple[int, int]] = field(default_factory=dict)  # path -> (start, end) index
    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def _span(self, start: int, end: int) -> Span:
        line, col = self._line_col(start)
        eline, ecol = self._line_col(end)
        return Span(self.source.name, line, col, eline, ecol)

    def _line_col(self, index: int) -> tuple[int, int]:
        text = self.source.text
        index = max(0, min(index, len(text)))
        line = text.count("\n", 0, index) + 1
        col = index - (text.rfind("\n", 0, index) + 1) + 1
        return line, col

    def value(self, path: Path_) -> Span:
        """Returns the span of the value at `path`, or of its nearest located ancestor."""
        p = tuple(path)
        while p not in self.values and p:
            p = p[:-1]
        start, end = self.values.get(p, (0, 0))
        return self._span(start, end)

    def key(self, path: Path_) -> Span:
        """Returns the span of the mapping key that names `path` (else the value's span)."""
        if tuple(path) in self.keys:
            return self._span(*self.keys[tuple(path)])
        return self.value(path)

    def in_scalar(self, path: Path_, offset: int, length: int = 1, key: bool = False) -> Span:
        """Returns the span of characters `offset`.. of the scalar at `path`, in file terms
        (with `key`, of the mapping key naming `path`, e.g. the target of a `set`).

        Quoted, folded and block scalars do not start their text at the node's mark, so the
        value's characters are aligned greedily with the raw source between the node's marks.
        """
        table = self.keys if key else self.values
        if tuple(path) not in table:
            return self.key(path) if key else self.value(path)
        start, end = table[tuple(path)]
        raw = self.source.text[start:end]
        value = _scalar_text(raw)
        pos = _align(value, raw)
        def at(i: int) -> int:
            if not pos:
                return start
            return start + (pos[i] if i < len(pos) else pos[-1] + 1)
        a = at(offset)
        b = at(offset + max(length, 1) - 1) + 1
        line, col = self._line_col(a)
        eline, ecol = self._line_col(b)
        return Span(self.source.name, line, col, eline, ecol)


def _scalar_text(raw: str) -> str:
    """Re-reads a raw scalar's text with YAML to get its value (used only for alignment)."""
    try:
        v = yaml.safe_load("x: " + raw if "\n" not in raw else "x:\n  " + raw.replace("\n", "\n  "))
        if isinstance(v, dict):
            return str(v.get("x", raw))
    except yaml.YAMLError:
        pass
    return raw


def _align(value: str, raw: str) -> list[int]:
    """Maps each character of a scalar's value to an index in its raw source text."""
    out: list[int] = []
    j = 0
    for ch in value:
        k = j
        while k < len(raw) and raw[k] != ch:
            k += 1
        if k >= len(raw):  # not found (an escape sequence): stay where we are
            out.append(min(j, len(raw) - 1) if raw else 0)
            continue
        out.append(k)
        j = k + 1
    return out


@dataclass
class Document:
    """A loaded YAML file: its data, its source and where every value stands."""

    data: Any
    source: SourceFile
    positions: Positions


class _LoadError(Exception):
    def __init__(self, diag: Diagnostic):
        self.diag = diag


class _Converter:
    """Walks composed YAML nodes into plain data, recording positions and enforcing limits."""

    def __init__(self, source: SourceFile):
        self.source = source
        self.positions = Positions(source)
        self.nodes = 0
        self.diags: list[Diagnostic] = []

    def span(self, node: yaml.Node) -> Span:
        m = node.start_mark
        e = node.end_mark
        return Span(self.source.name, m.line + 1, m.column + 1, e.line + 1, e.column + 1)

    def convert(self, node: yaml.Node, path: Path_, depth: int, stack: tuple[int, ...]) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _LoadError(Diagnostic(
                "alias-limit",
                f"the document expands to more than {MAX_NODES:,} values; aliases are not "
                "expanded past this limit", self.span(node)))
        if depth > MAX_DEPTH:
            raise _LoadError(Diagnostic(
                "too-deep", f"the document nests deeper than {MAX_DEPTH} levels", self.span(node)))
        if id(node) in stack:
            raise _LoadError(Diagnostic(
                "alias-limit", "an alias refers to a value that contains itself", self.span(node)))
        if node.tag not in _SAFE_TAGS:
            raise _LoadError(Diagnostic(
                "unsafe-yaml", f"the tag '{node.tag}' is not allowed: rulesets hold plain data only",
                self.span(node), hint="remove the tag"))
        if path not in self.positions.values:
            self.positions.values[path] = (node.start_mark.index, node.end_mark.index)
        if isinstance(node, yaml.ScalarNode):
            try:
                value = _scalar_value(node)
                if isinstance(value, float) and not math.isfinite(value):
                    # .inf and .nan would reach arithmetic, logs and replays; numbers given
                    # on the command line are refused the same way (--set).
                    self.diags.append(Diagnostic(
                        "schema", f"'{node.value}' is not a finite number", self.span(node),
                        path, hint="write a number such as 1000000"))
                return value
            except ValueError:  # a number too long for Python to read (over 4,300 digits)
                raise _LoadError(Diagnostic(
                    "too-large", "this number has too many digits to read",
                    self.span(node))) from None
        stack = stack + (id(node),)
        if isinstance(node, yaml.SequenceNode):
            return [self.convert(n, path + (i,), depth + 1, stack) for i, n in enumerate(node.value)]
        out: dict[str, Any] = {}
        for knode, vnode in node.value:
            if not isinstance(knode, yaml.ScalarNode) or knode.tag == "tag:yaml.org,2002:merge":
                raise _LoadError(Diagnostic(
                    "schema", "mapping keys must be plain names", self.span(knode),
                    hint="write the key as a plain word"))
            key = str(knode.value)  # keys are names: always text, never 1.1 booleans
            if key in out:
                self.diags.append(Diagnostic(
                    "duplicate-key", f"duplicate key '{key}' (YAML would keep only the last)",
                    self.span(knode), path + (key,)))
                continue
            self.positions.keys[path + (key,)] = (knode.start_mark.index, knode.end_mark.index)
            out[key] = self.convert(vnode, path + (key,), depth + 1, stack)
        return out


_CONSTRUCTOR = yaml.SafeLoader("")


_BOOL_TAG = "tag:yaml.org,2002:bool"


def _scalar_value(node: yaml.ScalarNode) -> Any:
    """Constructs one scalar with the safe constructor (str, int, float, bool, null only).

    As in YAML 1.2, only true and false are booleans: YAML 1.1's yes/no/on/off stay text, so
    a trigger's `on:` key or an option named `no` mean what they say.
    """
    if node.tag == _BOOL_TAG and node.value.lower() not in ("true", "false"):
        return node.value
    return _CONSTRUCTOR.yaml_constructors[node.tag](_CONSTRUCTOR, node)


def _mark_span(source: SourceFile, mark: Any) -> Span:
    if mark is None:
        return Span(source.name, 1, 1)
    return Span(source.name, mark.line + 1, mark.column + 1)


def _stream_problem(text: str, source: SourceFile) -> Diagnostic | None:
    """Reads the event stream before anything is composed (composing recurses, and would crash
    the process on a document nested thousands deep): refuses nesting past MAX_DEPTH, and
    counts aliases and the values they expand to, so that an alias bomb is refused at the
    alias that crosses a limit, in milliseconds."""
    sizes: dict[str, int] = {}  # anchor -> values it expands to
    open_anchors: dict[str, bool] = {}  # anchor -> its latest value is still being read
    frames: list[list] = [[None, 0, False, 0]]  # open collections: anchor, values, mapping?, items
    total = aliases = 0
    for event in yaml.parse(text, _Loader):
        if isinstance(event, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            anchor, n, _, _ = frames.pop()
            if anchor:
                sizes[anchor] = n
                open_anchors[anchor] = False
            frames[-1][1] += n
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        frame = frames[-1]
        frame[3] += 1
        is_key = frame[2] and frame[3] % 2 == 1  # keys are not values (as in the converter)
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            n = 0 if is_key else sizes.get(event.anchor or "", 1)
            if open_anchors.get(event.anchor or ""):
                s = event.start_mark
                return Diagnostic("alias-limit", f"the alias '*{event.anchor}' refers to a value "
                                  "that contains it, which would never end",
                                  Span(source.name, s.line + 1, s.column + 1, s.line + 1,
                                       s.column + 2 + len(event.anchor or "")),
                                  hint="write the values out")
        else:
            n = 0 if is_key else 1
        total += n
        if isinstance(event, yaml.AliasEvent) and (aliases > MAX_ALIASES or total > MAX_NODES):
            what = (f"more than {MAX_ALIASES:,} aliases" if aliases > MAX_ALIASES else
                    f"more than {MAX_NODES:,} values once aliases are expanded (an alias bomb)")
            s, e = event.start_mark, event.end_mark
            return Diagnostic("alias-limit", f"with this alias the document uses {what}",
                              Span(source.name, s.line + 1, s.column + 1, e.line + 1,
                                   e.column + 1), hint="write the values out, or use fewer aliases")
        if isinstance(event, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
            if len(frames) > MAX_DEPTH + 1:  # the top level, then MAX_DEPTH levels in it
                s = event.start_mark
                return Diagnostic("too-deep", f"the document nests deeper than {MAX_DEPTH} "
                                  "levels", Span(source.name, s.line + 1, s.column + 1,
                                                 s.line + 1, s.column + 2),
                                  hint="flatten the structure")
            frames.append([event.anchor, n, isinstance(event, yaml.MappingStartEvent), 0])
            if event.anchor:
                open_anchors[event.anchor] = True
        else:
            frame[1] += n
            if isinstance(event, yaml.ScalarEvent) and event.anchor:
                sizes[event.anchor] = n
                open_anchors[event.anchor] = False
    return None


def _reader_problem(exc: yaml.reader.ReaderError, source: SourceFile) -> Diagnostic:
    """A character YAML does not allow in a file (a control character, most often), located
    at the character, with the way to write it."""
    text, at = source.text, max(0, min(exc.position, len(source.text)))
    line = text.count("\n", 0, at) + 1
    column = at - (text.rfind("\n", 0, at) + 1) + 1
    char = exc.character if isinstance(exc.character, str) else chr(exc.character or 0)
    return Diagnostic("yaml-syntax", f"the file holds the control character U+{ord(char):04X}, "
                      "which YAML does not allow", Span(source.name, line, column, line,
                                                        column + 1),
                      hint='write it as an escape inside a double-quoted text ("\\x1b")')


def load_text(text: str, name: str = "<text>", *,
              mapping: bool = True) -> tuple[Document | None, list[Diagnostic]]:
    """Loads YAML text. Returns the document (None on a fatal error) and the diagnostics.
    With `mapping` (a ruleset), the top level must be a mapping; without, any value."""
    source = SourceFile(name, text)
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        return None, [Diagnostic("too-large",
                                 f"the file is larger than {MAX_BYTES:,} bytes", Span(name, 1, 1))]
    try:
        problem = _stream_problem(text, source)
        if problem is not None:
            return None, [problem]
        root = yaml.compose(text, Loader=_Loader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or "malformed YAML"
        if "nesting depth" in problem:
            # Some builds of libyaml stop at their own depth limit while reading ahead, before
            # the event at MAX_DEPTH reaches us: the same problem, told the same way.
            return None, [Diagnostic("too-deep", f"the document nests deeper than {MAX_DEPTH} "
                                     "levels", _mark_span(source, mark),
                                     hint="flatten the structure")]
        message = f"YAML syntax: {problem}"
        if exc.context and exc.context_mark and exc.context_mark is not mark:
            message += f" ({exc.context} at line {exc.context_mark.line + 1})"
        return None, [Diagnostic("yaml-syntax", message, _mark_span(source, mark))]
    except yaml.reader.ReaderError as exc:
        return None, [_reader_problem(exc, source)]
    except yaml.YAMLError as exc:
        return None, [Diagnostic("yaml-syntax", f"YAML error: {exc}", Span(name, 1, 1))]
    except RecursionError:
        return None, [Diagnostic("too-deep", f"the document nests deeper than {MAX_DEPTH} levels",
                                 Span(name, 1, 1))]
    if root is None:
        return None, [Diagnostic("not-a-mapping", "the file is empty", Span(name, 1, 1))]
    conv = _Converter(source)
    try:
        data = conv.convert(root, (), 0, ())
    except _LoadError as err:
        return None, [err.diag]
    except RecursionError:
        return None, [Diagnostic("too-deep", f"the document nests deeper than {MAX_DEPTH} levels",
                                 Span(name, 1, 1))]
    if mapping and not isinstance(data, dict):
        return None, conv.diags + [Diagnostic(
            "not-a-mapping", "the top level of a ruleset must be a mapping of sections",
            conv.span(root), hint="start with `meeple: 1` and `metadata:`")]
    return Document(data, source, conv.positions), conv.diags


def load_file(path: str | Path, *,
              mapping: bool = True) -> tuple[Document | None, list[Diagnostic]]:
    """Loads a YAML file from disk; an unreadable file is a diagnostic, not an exception."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_BYTES:
            return None, [Diagnostic("too-large", f"the file is larger than {MAX_BYTES:,} bytes",
                                     Span(str(path), 1, 1))]
        with p.open("rb") as f:  # at most one byte past the limit: a device or a pipe
            raw = f.read(MAX_BYTES + 1)  # that never ends is too large
        if len(raw) > MAX_BYTES:
            return None, [Diagnostic("too-large", f"the file is larger than {MAX_BYTES:,} bytes",
                                     Span(str(path), 1, 1))]
    except OSError as exc:
        return None, [Diagnostic("file-not-found",
                                 f"cannot read '{path}': {exc.strerror or exc}")]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return None, [_not_utf8(raw, exc, str(path))]
    return load_text(text, str(path), mapping=mapping)


def _not_utf8(raw: bytes, exc: UnicodeDecodeError, name: str) -> Diagnostic:
    """The first byte that is not UTF-8, located by line and column (in characters)."""
    line = raw.count(b"\n", 0, exc.start) + 1
    start = raw.rfind(b"\n", 0, exc.start) + 1
    column = len(raw[start:exc.start].decode("utf-8", "replace")) + 1
    return Diagnostic("bad-encoding", f"the file is not UTF-8 text: the byte 0x{raw[exc.start]:02X} "
                      "here is not UTF-8", Span(name, line, column, line, column + 1),
                      hint="save the file as UTF-8")


def load_data_file(path: str | Path) -> tuple[Document | None, list[Diagnostic]]:
    """Loads an untrusted YAML or JSON data file that is not a ruleset (a `--dice` or
    `--decisions` file) under a ruleset's limits: size, nesting, aliases, plain tags only.
    Its top level may be any value; the caller checks its shape against `positions`."""
    return load_file(path, mapping=False)
