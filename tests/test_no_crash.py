"""Property tests: no input, however broken, makes the validator raise.

Arbitrary text, arbitrary YAML documents, and mutations of every shipped ruleset (deleted,
duplicated and swapped lines, changed and stray characters) all give a Validation: ok, or
diagnostics. Targeted mutations of valid shipped rulesets (a misspelt name in an expression, a
word where a number belongs) are reported on the very line that was changed.

The rulesets are read when the tests run, so rulesets added meanwhile are covered; a ruleset
that does not validate yet is skipped by the targeted tests (they need a clean starting point).
"""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dsl import validate_text
from tests.conftest import ROOT

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))


def shipped() -> list[tuple[str, str]]:
    """(name, text) of every ruleset in rulesets/ now; files being written may be anything."""
    out = []
    for p in sorted((ROOT / "rulesets").glob("*.yaml")):
        try:
            out.append((p.name, p.read_text(encoding="utf-8")))
        except (OSError, UnicodeDecodeError):
            continue
    return [(n, t) for n, t in out if t.strip()] or [("empty.yaml", "meeple: 1\n")]


SHIPPED = shipped()
_VALID: dict[str, bool] = {}


def valid_shipped() -> list[tuple[str, str]]:
    """The shipped rulesets that validate clean (computed once per text)."""
    out = []
    for name, text in SHIPPED:
        if text not in _VALID:
            _VALID[text] = validate_text(text, name).ok
        if _VALID[text]:
            out.append((name, text))
    return out


scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False), st.text(max_size=30),
                    st.sampled_from(["die.face == 1", "a && b", "sum(", "current.score + 1",
                                     "roll", "end_turn", "players", "{x}", "if a then b",
                                     "x = 1", "!done", "[1, 2", "'open", "p.x for p in"]))
keys = st.one_of(st.text(min_size=1, max_size=12),
                 st.sampled_from(["meeple", "metadata", "players", "flow", "phases", "do",
                                  "roll", "set", "add", "choose", "options", "next", "state",
                                  "parameters", "policies", "decide", "triggers", "on",
                                  "if", "then", "repeat", "until", "name", "min", "max",
                                  "variants", "merge", "scoring", "score", "turns", "for_each"]))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=6)), max_leaves=40)


def assert_handled(text: str):
    result = validate_text(text, "prop.yaml")  # must not raise
    assert result.ok or result.diagnostics
    for d in result.diagnostics:
        assert d.code and d.message
        if d.span is not None:
            assert d.span.line >= 1 and d.span.column >= 1
    return result


@SETTINGS
@given(st.text(max_size=300))
def test_arbitrary_text_gives_diagnostics_not_exceptions(text):
    assert_handled(text)


@SETTINGS
@given(documents)
def test_arbitrary_yaml_documents_give_diagnostics_not_exceptions(doc):
    assert_handled(yaml.safe_dump(doc, sort_keys=False))


@SETTINGS
@given(st.dictionaries(st.sampled_from(["meeple", "metadata", "players", "flow", "state",
                                        "parameters", "policies", "scoring", "triggers",
                                        "variants", "components", "procedures"]),
                       documents, max_size=6))
def test_documents_shaped_like_rulesets_give_diagnostics_not_exceptions(doc):
    assert_handled(yaml.safe_dump(doc, sort_keys=False))


MUTATIONS = ["delete", "duplicate", "swap", "replace", "insert"]


@st.composite
def mutated_ruleset(draw) -> str:
    _, text = draw(st.sampled_from(SHIPPED))
    lines = text.splitlines()
    kind = draw(st.sampled_from(MUTATIONS))
    i = draw(st.integers(0, len(lines) - 1))
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[i])
    elif kind == "swap":
        j = draw(st.integers(0, len(lines) - 1))
        lines[i], lines[j] = lines[j], lines[i]
    else:
        line = lines[i]
        k = draw(st.integers(0, len(line)))
        ch = draw(st.sampled_from(list("xz:{}[]'\"-#&*!|>=()., 0\t%@`")))
        end = k + 1 if kind == "replace" else k
        lines[i] = line[:k] + ch + line[end:]
    return "\n".join(lines) + "\n"


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_ruleset())
def test_mutated_shipped_rulesets_give_diagnostics_not_exceptions(text):
    assert_handled(text)


def test_validate_command_exits_0_or_1_on_mutated_rulesets(tmp_path):
    """A few real CLI runs (a subprocess each): no traceback, exit code 0 or 1."""
    for n, (name, text) in enumerate(SHIPPED[:3]):
        lines = text.splitlines()
        mid = len(lines) // 2
        variants = [lines[:mid] + lines[mid + 1:], lines[:mid] + ["  ]{"] + lines[mid:]]
        for k, mutated in enumerate(variants):
            path = tmp_path / f"m{n}_{k}_{name}"
            path.write_text("\n".join(mutated) + "\n")
            proc = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate",
                                   str(path)], capture_output=True, text=True, cwd=ROOT)
            assert proc.returncode in (0, 1), proc.stderr
            assert "Traceback" not in proc.stderr


# -- targeted mutations ------------------------------------------------------------------------

# `key: "expression"` on one line, for keys whose value the checker reads as an expression.
EXPR_LINE = re.compile(r"^\s*(?:- )?(?:if|until|while|when|score|eligible|be|in|skip|first)"
                       r": \"(?P<expr>[^\"]*)\"\s*$")
WORD = re.compile(r"(?<![\w.'])[A-Za-z_]\w*(?![\w'(])")


def declared_globals(text: str) -> set[str]:
    """Names declared for bare use: parameters and global/turn/round state."""
    data = yaml.safe_load(text)
    names = set(data.get("parameters") or {})
    for scope in ("global", "turn", "round"):
        names |= set((data.get("state") or {}).get(scope) or {})
    return names


def misspell(name: str, text: str) -> str:
    words = set(re.findall(r"\w+", text))
    for cand in (name[:-1], name[:-1] + "q", name + "q", name + "_zq"):
        if len(cand) > 1 and cand not in words:
            return cand
    raise AssertionError(name)  # pragma: no cover


@functools.cache
def name_sites(text: str) -> list[tuple[int, int, str]]:
    """(line index, column, name) of declared bare names inside one-line expressions."""
    names = declared_globals(text)
    sites = []
    for i, line in enumerate(text.splitlines()):
        m = EXPR_LINE.match(line)
        if not m:
            continue
        expr = re.sub(r"'[^']*'", lambda s: " " * len(s.group()), m["expr"])
        for w in WORD.finditer(expr):
            if w.group() in names:
                sites.append((i, m.start("expr") + w.start(), w.group()))
    return sites


@st.composite
def misspelt_name(draw):
    rulesets = [(n, t) for n, t in valid_shipped() if name_sites(t)]
    assume(rulesets)
    name, text = draw(st.sampled_from(rulesets))
    i, col, word = draw(st.sampled_from(name_sites(text)))
    lines = text.splitlines()
    wrong = misspell(word, text)
    lines[i] = lines[i][:col] + wrong + lines[i][col + len(word):]
    return name, "\n".join(lines) + "\n", i + 1, col + 1, wrong


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(misspelt_name())
def test_a_misspelt_name_in_an_expression_is_reported_on_its_line_and_column(case):
    name, text, line, col, wrong = case
    result = assert_handled(text)
    assert not result.ok
    hits = [d for d in result.diagnostics if d.code == "unknown-name" and d.span.line == line]
    assert hits, (name, line, wrong, [(d.code, d.span, d.message) for d in result.diagnostics])
    assert hits[0].span.column == col and f"'{wrong}'" in hits[0].message


# `key: 123` where the schema or the checker needs a number (not free data such as card fields).
NUMBER_KEYS = ("meeple", "min", "max", "sides", "times", "priority", "max_turns", "max_rounds",
               "capacity", "default")
INT_LINE = re.compile(r"^(?P<lead>\s*(?:- )?(?:" + "|".join(NUMBER_KEYS) + r"): )(?P<n>\d+)\s*$")


def int_sites(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines()) if INT_LINE.match(line)]


@st.composite
def word_for_a_number(draw):
    rulesets = [(n, t) for n, t in valid_shipped() if int_sites(t)]
    assume(rulesets)
    name, text = draw(st.sampled_from(rulesets))
    i = draw(st.sampled_from(int_sites(text)))
    lines = text.splitlines()
    m = INT_LINE.match(lines[i])
    assert m
    lines[i] = m["lead"] + draw(st.sampled_from(["lots", "twenty", "many_zq"]))
    return name, "\n".join(lines) + "\n", i + 1


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(word_for_a_number())
def test_a_word_where_a_number_belongs_is_an_error_on_that_line(case):
    name, text, line = case
    result = assert_handled(text)
    assert not result.ok
    assert any(d.span and d.span.line == line for d in result.diagnostics), (
        name, line, [(d.code, d.span, d.message) for d in result.diagnostics])


def test_pig_turn_total_misspelt_in_an_expression_exits_1_with_an_error_on_that_line(tmp_path):
    text = (ROOT / "rulesets" / "pig.yaml").read_text()
    lines = text.splitlines()
    i = next(i for i, line in enumerate(lines) if EXPR_LINE.match(line) and "turn_total" in line)
    lines[i] = lines[i].replace("turn_total", "turn_totl", 1)
    path = Path(tmp_path) / "pig.yaml"
    path.write_text("\n".join(lines) + "\n")
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", str(path)],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    col = lines[i].index("turn_totl") + 1
    assert f"{path}:{i + 1}:{col}: error: unknown name 'turn_totl' (did you mean 'turn_total'?)" \
        in proc.stdout


@pytest.mark.parametrize("name", [n for n, _ in SHIPPED])
def test_each_shipped_ruleset_survives_every_single_line_deletion_near_its_top(name):
    text = dict(SHIPPED)[name]
    lines = text.splitlines()
    for i in range(min(len(lines), 25)):
        assert_handled("\n".join(lines[:i] + lines[i + 1:]) + "\n")
