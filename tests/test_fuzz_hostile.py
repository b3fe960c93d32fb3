"""Fuzzing that stays: hypothesis writes hostile rulesets and logs, meeple answers each cleanly.

A stranger's ruleset may hold names that reach for the host (`__class__`, `_x`, names the
engine keeps), expressions nested hundreds deep, numbers of hundreds of digits, runaway loops,
control characters, and values of the wrong type anywhere; a stranger's log may be cut, have
lines dropped, doubled or swapped, or hold bytes that are not text. For each, the promises of
docs/security.md are checked: no traceback (a result or a located diagnostic, exit 0, 1 or 2),
no hang (every example within a bound), and no file written but the ones asked for (each
command runs in an empty folder, which holds afterwards only what the test put there and the
log it named). Examples are derandomized, so the suite gives the same answer on every machine;
tests/test_no_crash.py and tests/test_cli_inputs.py fuzz mutated shipped rulesets, data files
and single log fields beside these.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl import validate_text
from dsl.diagnostics import CODES
from dsl.safe_text import UNSAFE
from interpreter.cli.main import main
from tests.conftest import ROOT

BOUND = 20.0  # seconds any one command may take here (a runaway game stops in about 3)
FUZZ = settings(max_examples=100, deadline=None, derandomize=True,
                suppress_health_check=list(HealthCheck))

# -- what a hostile author writes ------------------------------------------------------------

HOSTILE_NAMES = ["__class__", "__init__", "__globals__", "__dict__", "__builtins__", "_x",
                 "_", "others", "team", "faces", "id", "name", "seat", "eliminated", "format",
                 "mro", "gi_frame", "count", "items", "keys", "get", "put", "exec", "open"]

CONTROL = ["\x1b]0;pwned\x07", "\x1b[2J", "\r", "\x9b", "\u202e", "\x00", "\x7f"]

names = st.sampled_from(HOSTILE_NAMES) | st.from_regex(r"[a-z_][a-z0-9_]{0,8}", fullmatch=True)

atoms = st.sampled_from([
    "1", "0", "x", "current", "players", "die.face", "'a'", "true", "none",
    "99999999999999999999999999999999999999", "1e400", "10 ** 400", "2 ** 64", "-1",
    "range(1, 10000)", "[1, 2, 3]", "'ab' * 1000", "{'k': 1}", "current.score",
    "(if true then current else 0)", "faces(die)", "count(players)",
]) | names

expressions = st.recursive(atoms, lambda inner: st.one_of(
    st.tuples(inner, inner).map(lambda t: f"({t[0]} + {t[1]})"),
    st.tuples(inner, inner).map(lambda t: f"{t[0]} * {t[1]}"),
    inner.map(lambda a: f"not {a}"),
    inner.map(lambda a: f"[{a} for q in range(1, 1000)]"),
    inner.map(lambda a: f"sum({a})"),
    inner.map(lambda a: f"text({a})"),
    st.tuples(inner, names).map(lambda t: f"{t[0]}.{t[1]}"),
    st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
    st.tuples(inner, inner).map(lambda t: f"if {t[0]} then {t[1]} else 0"),
), max_leaves=8)

deep_expressions = st.builds(
    lambda n, kind: {"paren": "(" * n + "1" + ")" * n, "not": "not " * n + "true",
                     "plus": "1" + " + 1" * n, "list": "[" * n + "]" * n}[kind],
    st.integers(min_value=1, max_value=400), st.sampled_from(["paren", "not", "plus", "list"]))

texts = st.lists(st.sampled_from(CONTROL) | st.text(max_size=8)
                 | st.sampled_from(["{x}", "{current.name}", "{current.__class__}", "{", "}",
                                    "{text(range(1, 10000))}", "{x * x}"]),
                 max_size=5).map("".join)

wrong_types = st.sampled_from([None, True, [], [1, 2], {}, {"a": 1}, 1.5, -7, "", "x" * 300])

deep_yaml = st.builds(lambda n: "[" * n + "]" * n, st.sampled_from([10, 65, 500, 20_000]))


def scalar(value) -> str:
    """A YAML value for `value`; a text double-quoted, every character but printable ASCII
    written as a YAML escape (so the control characters reach the ruleset's texts)."""
    if not isinstance(value, str):
        return json.dumps(value)
    out = []
    for ch in value:
        code = ord(ch)
        if 32 <= code < 127 and ch not in '"\\':
            out.append(ch)
        else:
            out.append(f"\\x{code:02x}" if code < 0x100 else
                       f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
    return '"' + "".join(out) + '"'


TEMPLATE = """\
meeple: 1
metadata: {{name: {title}}}
players: {{min: 1, max: 2}}
components:
  dice:
    die: {{sides: 6}}
state:
  global:
    x: {{type: int, initial: 0}}
    {field}: {{type: int, initial: {initial}}}
  player:
    score: {{type: int, initial: 0}}
flow:
  phases:
    play:
      do:
        - roll: die
        - set: {{x: {first}}}
        - say: {text}
        - repeat: [{{set: {{x: {second}}}}}]
          times: {times}
      next: end
end: {{when: "true"}}
scoring: {{score: x, order: highest}}
"""


@st.composite
def hostile_rulesets(draw) -> str:
    """The template with each slot filled by something a hostile author might write there."""
    def value(strategy) -> str:
        return draw(st.one_of(strategy.map(scalar), wrong_types.map(scalar), deep_yaml)
                    if draw(st.integers(0, 9)) == 0 else strategy.map(scalar))
    return TEMPLATE.format(
        title=value(texts), field=scalar(draw(names)), initial=value(st.integers(-5, 5)),
        first=value(expressions | deep_expressions), text=value(texts),
        second=value(expressions), times=value(st.sampled_from([1, 3, 10**6, 10**30, -1])))


# Well-typed, so they validate, and runaway when they run: numbers squared in a loop, texts
# and lists made from huge ranges, comprehensions inside comprehensions.
sizes = st.sampled_from([3, 1000, 9000, 100_000, 10**9])
whole_numbers = st.recursive(
    st.sampled_from(["x", "1", "die.face", "12345678901234567890", "count(players)",
                     "current.score"]),
    lambda inner: st.one_of(
        st.tuples(inner, inner).map(lambda t: f"({t[0]} + {t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"({t[0]} * {t[1]})"),
        st.tuples(inner, inner).map(lambda t: f"max({t[0]}, {t[1]})"),
        st.tuples(inner, sizes).map(lambda t: f"sum([{t[0]} for q in range(1, {t[1]})])"),
        sizes.map(lambda n: f"count(range(1, {n}))"),
        sizes.map(lambda n: f"sum([count(range(1, {n})) for r in range(1, {n})])"),
    ), max_leaves=6)


@st.composite
def runaway_rulesets(draw) -> str:
    return TEMPLATE.format(
        title=scalar(draw(texts)), field=scalar(draw(st.sampled_from(["y"] * 8 + ["count", "_y"]))),
        initial="0", first=scalar(draw(whole_numbers)), text=scalar(draw(texts)),
        second=scalar(draw(whole_numbers)), times=draw(st.sampled_from([1, 10, 1000, 100_000])))


# -- running a command as a stranger would ---------------------------------------------------

def invoke(folder: Path, *args: str):
    """Runs `meeple ARGS` with the folder as working and home directory; returns the result
    after checking it finished cleanly and within the bound."""
    old, home = os.getcwd(), os.environ.get("HOME")
    os.chdir(folder)
    os.environ["HOME"] = str(folder)
    try:
        start = time.monotonic()
        result = CliRunner().invoke(main, list(args), color=True)  # as at a terminal
        took = time.monotonic() - start
    finally:
        os.chdir(old)
        if home is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = home
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception), result.output[-2000:])
    assert result.exit_code in (0, 1, 2), result.output[-2000:]
    assert "Traceback" not in result.output
    assert not UNSAFE.search(result.output), "a control character reached the terminal"
    assert took < BOUND, f"meeple {' '.join(args)} took {took:.1f} s"
    return result


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# -- hostile rulesets ------------------------------------------------------------------------

@FUZZ
@given(hostile_rulesets())
def test_a_hostile_ruleset_gets_diagnostics_from_validate_never_an_exception(text):
    start = time.monotonic()
    result = validate_text(text, "hostile.yaml")
    for d in result.diagnostics:
        assert d.code in CODES, d.code
        assert d.span is None or d.span.line >= 1
    assert time.monotonic() - start < BOUND


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(text=runaway_rulesets() | hostile_rulesets(),
       command=st.sampled_from(["run", "simulate"]))
def test_a_hostile_ruleset_run_or_simulated_ends_cleanly_and_writes_nothing(
        tmp_path_factory, text, command):
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "r.yaml").write_text(text, encoding="utf-8")
    args = (["run", "r.yaml", "--seed", "1"] if command == "run" else
            ["simulate", "r.yaml", "--games", "3", "--workers", "1", "--seed", "1"])
    invoke(folder, *args)
    assert files_in(folder) == ["r.yaml"]


@FUZZ
@given(expressions | deep_expressions)
def test_a_hostile_expression_in_any_place_is_checked_never_raised(expression):
    for where in ("set: {x: %s}", "if: %s\n          then: [end_turn]", "say: %s"):
        step = where % scalar(expression if "say" not in where else "{" + expression + "}")
        text = TEMPLATE.format(title='"t"', field='"y"', initial="0", first="1",
                               text='"hi"', second="1", times="1").replace(
            "- roll: die", "- roll: die\n        - " + step)
        validate_text(text, "expr.yaml")


# -- logs cut, shuffled and spoilt -----------------------------------------------------------

@pytest.fixture(scope="module")
def wreck_log(tmp_path_factory) -> bytes:
    """The bytes of a short logged game of Wreckdivers (dice, decisions, timers, events)."""
    folder = tmp_path_factory.mktemp("log")
    ruleset = str(ROOT / "rulesets" / "wreckdivers.yaml")
    invoke(folder, "run", ruleset, "--seed", "5", "--log", "game.jsonl", "--json")
    return (folder / "game.jsonl").read_bytes()


@st.composite
def spoilt(draw, raw: bytes) -> bytes:
    """The log with one damage done to it: lines dropped, doubled or swapped, cut at any
    byte, or bytes that are not UTF-8 put anywhere."""
    lines = raw.splitlines(keepends=True)
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines) - 1))
    how = draw(st.sampled_from(["drop", "double", "swap", "cut", "bytes", "control"]))
    if how == "drop":
        del lines[i]
    elif how == "double":
        lines.insert(i, lines[i])
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif how == "cut":
        return raw[:draw(st.integers(0, len(raw)))]
    elif how == "bytes":
        at = draw(st.integers(0, len(lines[i])))
        lines[i] = lines[i][:at] + draw(st.sampled_from([b"\xff", b"\xc3", b"\x00", b"\xed\xa0\x80"])) \
            + lines[i][at:]
    else:
        lines[i] = lines[i].replace(b'"Player 1"', json.dumps(
            "Player \x1b]0;pwned\x07 1").encode(), 1)
    return b"".join(lines)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(data=st.data(), command=st.sampled_from(["replay", "resume"]))
def test_a_spoilt_log_is_replayed_or_resumed_cleanly_and_nothing_else_is_written(
        tmp_path_factory, wreck_log, data, command):
    folder = tmp_path_factory.mktemp("spoilt")
    raw = data.draw(spoilt(wreck_log))
    (folder / "game.jsonl").write_bytes(raw)
    args = (["replay", "game.jsonl"] if command == "replay" else
            ["run", "--resume", "game.jsonl", "--json"])
    result = invoke(folder, *args)  # which checks that no control character is shown
    assert files_in(folder) == ["game.jsonl"]
    if raw == wreck_log and command == "replay":
        assert result.exit_code == 0  # a damage that changed nothing (a swap of a line with itself)
