"""The loader's limits and safety: size, nesting, aliases, tags, duplicate keys, positions.

Each limit is a located diagnostic with a stable code, never an exception, a hang or a blown
memory budget; and positions inside quoted and block scalars point at the right characters.
"""

from __future__ import annotations

import time

import pytest

from dsl import validate_path, validate_text
from dsl.loader import MAX_ALIASES, MAX_BYTES, MAX_DEPTH, MAX_NODES, load_text


def codes(text: str) -> list[str]:
    return [d.code for d in validate_text(text, "t.yaml").diagnostics]


def load_diags(text: str):
    doc, diags = load_text(text, "t.yaml")
    return doc, diags


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    lines = ["meeple: 1", "l0: &l0 [" + ", ".join(["lol"] * width) + "]"]
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]")
    return "\n".join(lines) + "\n"


# -- size ---------------------------------------------------------------------------------------

def test_text_over_the_size_limit_is_too_large_and_not_parsed():
    text = "meeple: 1\nx: '" + "a" * MAX_BYTES + "'\n"
    start = time.perf_counter()
    doc, diags = load_diags(text)
    assert doc is None
    assert [d.code for d in diags] == ["too-large"]
    assert diags[0].span.line == 1
    assert time.perf_counter() - start < 1.0


def test_a_file_over_the_size_limit_is_too_large(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("# " + "x" * (MAX_BYTES + 10) + "\nmeeple: 1\n")
    result = validate_path(path)
    assert [d.code for d in result.diagnostics] == ["too-large"]
    assert result.source is None  # the text of an oversized file is not kept for snippets


def test_a_file_just_under_the_size_limit_is_read():
    text = "meeple: 1\n# " + "x" * (MAX_BYTES - 100) + "\n"
    assert "too-large" not in codes(text)


# -- nesting ------------------------------------------------------------------------------------

@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 500, 5000])
def test_nesting_deeper_than_the_limit_is_too_deep(depth):
    text = "meeple: 1\nx: " + "[" * depth + "]" * depth + "\n"
    doc, diags = load_diags(text)
    assert doc is None
    assert [d.code for d in diags] == ["too-deep"]


def test_a_yaml_library_that_stops_at_its_own_depth_limit_still_reports_too_deep(monkeypatch):
    """Newer libyaml builds refuse deep flow nesting while reading ahead, before the event at
    MAX_DEPTH reaches the loader; the error is the same problem and gets the same code."""
    import yaml

    import dsl.loader as loader

    def libyaml_refuses(text, source):
        mark = yaml.Mark("t.yaml", 1002, 1, 1002, None, None)
        raise yaml.parser.ParserError(None, None, "exceeded maximum nesting depth", mark)

    monkeypatch.setattr(loader, "_stream_problem", libyaml_refuses)
    doc, diags = load_diags("meeple: 1\nx: " + "[" * 2000 + "]" * 2000 + "\n")
    assert doc is None
    assert [(d.code, d.span.line, d.span.column) for d in diags] == [("too-deep", 2, 1003)]


def test_nesting_of_block_mappings_deeper_than_the_limit_is_too_deep():
    text = "meeple: 1\n" + "".join("  " * i + f"k{i}:\n" for i in range(MAX_DEPTH + 5)) + \
        "  " * (MAX_DEPTH + 5) + "v\n"
    doc, diags = load_diags(text)
    assert doc is None and [d.code for d in diags] == ["too-deep"]
    assert diags[0].span.line > MAX_DEPTH  # at the first value past the limit


def test_nesting_within_the_limit_loads():
    depth = MAX_DEPTH - 2
    doc, diags = load_diags("x: " + "[" * depth + "]" * depth + "\n")
    assert doc is not None and diags == []


# -- aliases ------------------------------------------------------------------------------------

def test_alias_bomb_is_refused_quickly_at_the_alias_that_crosses_the_limit():
    text = billion_laughs()  # 9**9 values if expanded
    start = time.perf_counter()
    doc, diags = load_diags(text)
    elapsed = time.perf_counter() - start
    assert doc is None
    assert [d.code for d in diags] == ["alias-limit"]
    assert elapsed < 0.25, f"refusing the bomb took {elapsed:.2f} s"
    d = diags[0]
    line = text.splitlines()[d.span.line - 1]
    assert line[d.span.column - 1] == "*"
    assert f"{MAX_NODES:,}" in d.message


def test_alias_bomb_through_the_whole_pipeline_is_refused_well_under_a_second():
    start = time.perf_counter()
    assert codes(billion_laughs(levels=12)) == ["alias-limit"]
    assert time.perf_counter() - start < 0.5


def test_alias_bomb_of_mappings_is_refused():
    text = "meeple: 1\na: &a {x: 1, y: 2, z: 3, w: 4, v: 5, u: 6, t: 7, s: 8}\n"
    prev = "a"
    for name in "bcdefgh":
        text += f"{name}: &{name} {{" + ", ".join(f"k{i}: *{prev}" for i in range(8)) + "}\n"
        prev = name
    assert codes(text) == ["alias-limit"]


def test_too_many_aliases_are_refused_at_the_first_one_over_the_limit():
    text = "meeple: 1\na: &a 1\nb:\n" + "".join("  - *a\n" for _ in range(MAX_ALIASES + 5))
    doc, diags = load_diags(text)
    assert doc is None and [d.code for d in diags] == ["alias-limit"]
    assert diags[0].span.line == 3 + MAX_ALIASES + 1  # the (limit + 1)th alias
    assert diags[0].span.column == 5


def test_a_few_ordinary_aliases_are_expanded():
    doc, diags = load_diags("a: &a {x: 1}\nb: *a\nc: [*a, *a]\n")
    assert diags == []
    assert doc.data == {"a": {"x": 1}, "b": {"x": 1}, "c": [{"x": 1}, {"x": 1}]}


def test_a_recursive_alias_is_refused_at_the_alias():
    text = "meeple: 1\nplayers: &p {min: 1, max: 2, again: *p}\n"
    doc, diags = load_diags(text)
    assert doc is None and [d.code for d in diags] == ["alias-limit"]
    assert (diags[0].span.line, diags[0].span.column) == (2, 37)
    assert "contains it" in diags[0].message


def test_a_recursive_alias_in_a_sequence_is_refused():
    assert codes("meeple: 1\nx: &x [1, [2, *x]]\n") == ["alias-limit"]


# -- tags ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("tagged", [
    "!!python/object/apply:os.system [echo hi]",
    "!!python/name:os.system",
    "!!python/object:collections.OrderedDict {}",
    "!!binary aGk=",
    "!!set {a, b}",
    "!!timestamp 2001-12-14",
    "!custom value",
])
def test_tags_that_construct_objects_are_unsafe_yaml(tagged):
    doc, diags = load_diags(f"meeple: 1\nx: {tagged}\n")
    assert doc is None
    assert [d.code for d in diags] == ["unsafe-yaml"]
    assert (diags[0].span.line, diags[0].span.column) == (2, 4)


def test_plain_standard_tags_are_allowed():
    doc, diags = load_diags("a: !!str 12\nb: !!int '3'\nc: !!float 1\nd: !!bool true\n")
    assert diags == []
    assert doc.data == {"a": "12", "b": 3, "c": 1.0, "d": True}


def test_yaml_1_1_yes_no_on_off_stay_text():
    doc, _ = load_diags("a: yes\nb: no\non: rolled\nc: off\nd: true\n")
    assert doc.data == {"a": "yes", "b": "no", "on": "rolled", "c": "off", "d": True}


# -- duplicate keys -----------------------------------------------------------------------------

def test_every_duplicate_key_is_reported_at_the_second_key():
    text = "meeple: 1\nmetadata:\n  name: A\n  name: B\nplayers: {min: 1, max: 1, min: 2}\n"
    doc, diags = load_diags(text)
    assert doc is not None  # the first value is kept and loading goes on
    assert [(d.code, d.span.line, d.span.column) for d in diags] == [
        ("duplicate-key", 4, 3), ("duplicate-key", 5, 27)]
    assert doc.data["metadata"]["name"] == "A"


def test_a_duplicate_top_level_section_is_reported():
    assert "duplicate-key" in codes("meeple: 1\nmeeple: 1\n")


# -- other load failures ------------------------------------------------------------------------

@pytest.mark.parametrize("text,code", [
    ("", "not-a-mapping"),
    ("# only a comment\n", "not-a-mapping"),
    ("- a\n- b\n", "not-a-mapping"),
    ("just words\n", "not-a-mapping"),
    ("a: [1, 2\n", "yaml-syntax"),
    ("a: 'open\n", "yaml-syntax"),
    ("a: b: c\n", "yaml-syntax"),
    ("a:\n\tb: 1\n", "yaml-syntax"),
    ("? [a, b]\n: 1\n", "schema"),
    ("a: 1\n---\nb: 2\n", "yaml-syntax"),
])
def test_malformed_documents_are_located_load_diagnostics(text, code):
    result = validate_text(text, "t.yaml")
    assert not result.ok
    assert result.diagnostics[0].code == code
    assert result.diagnostics[0].span is not None


# -- positions inside scalars -------------------------------------------------------------------

def position_of(text: str, path: tuple, offset: int, length: int = 1) -> tuple[int, int]:
    doc, _ = load_diags(text)
    span = doc.positions.in_scalar(path, offset, length)
    return span.line, span.column


@pytest.mark.parametrize("text,offset,where", [
    ("x: abc def\n", 4, (1, 8)),                          # plain
    ("x: \"abc def\"\n", 4, (1, 9)),                      # double-quoted
    ("x: 'abc def'\n", 4, (1, 9)),                        # single-quoted
    ("x: 'it''s def'\n", 5, (1, 11)),                     # single-quoted with '' escape
    ("x: \"a \\\"b\\\" def\"\n", 6, (1, 13)),             # double-quoted with \" escapes
    ("x: |\n  abc\n  def\n", 4, (3, 3)),                  # literal block
    ("x: >\n  abc\n  def\n", 4, (3, 3)),                  # folded block
    ("x: >-\n  abc\n\n  def\n", 4, (4, 3)),               # folded with a blank line
    ("x: \"abc\n  def\"\n", 4, (2, 3)),                   # double-quoted over two lines
    ("x: abc\n  def\n", 4, (2, 3)),                       # plain over two lines
    ("a:\n  - x: [1, \"p + q\"]\n", 4, (2, 17)),          # inside a flow sequence
])
def test_positions_inside_quoted_and_block_scalars_point_at_the_character(text, offset, where):
    path = ("a", 0, "x", 1) if text.startswith("a:") else ("x",)
    assert position_of(text, path, offset) == where


def test_expression_errors_in_block_scalars_point_into_the_block():
    head = ("meeple: 1\nmetadata: {name: T}\nplayers: {min: 1, max: 2}\n"
            "state: {global: {stash: 0}}\nflow:\n  phases:\n    play:\n      do:\n")
    for style in ("|", ">", "|-", ">-"):
        text = head + f"        - if: {style}\n            stash > 0\n              and stsh < 3\n" \
                      "          then: [end_game]\n"
        (d,) = validate_text(text, "t.yaml").diagnostics
        assert (d.code, d.span.line, d.span.column) == ("unknown-name", 11, 19), style


def test_crlf_line_endings_keep_lines_and_columns():
    text = "meeple: 1\r\nmetadata: {name: T}\r\nplayers: {min: 1, max: 2}\r\n" \
           "flow:\r\n  phases:\r\n    play:\r\n      do:\r\n        - if: \"totl > 0\"\r\n" \
           "          then: [end_game]\r\n"
    (d,) = validate_text(text, "t.yaml").diagnostics
    assert (d.code, d.span.line, d.span.column) == ("unknown-name", 8, 16)


@pytest.mark.parametrize("number", [".inf", "-.inf", ".nan", "1.0e+400"])
def test_a_number_that_is_not_finite_is_refused_where_it_is_written(number):
    """Numbers on the command line must be finite (--set); so must a ruleset's own."""
    text = f"meeple: 1\nparameters:\n  goal: {{type: number, default: {number}, doc: g}}\n"
    found = [(d.code, d.span.line, d.span.column) for d in load_diags(text)[1]]
    assert found == [("schema", 3, 33)]
    assert "not a finite number" in load_diags(text)[1][0].message
