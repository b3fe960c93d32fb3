"""Property tests: no input, however broken, makes the validator raise.

Arbitrary text, arbitrary YAML documents, and mutations of every shipped ruleset (deleted,
duplicated and swapped lines, changed characters) all give a Validation: ok, or diagnostics.
"""

from __future__ import annotations

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl import validate_text
from tests.conftest import RULESETS

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
SHIPPED = [p.read_text() for p in RULESETS]

scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**6, 10**6),
                    st.floats(allow_nan=False), st.text(max_size=30),
                    st.sampled_from(["die.face == 1", "a && b", "sum(", "current.score + 1",
                                     "roll", "end_turn", "players", "{x}", "if a then b"]))
keys = st.one_of(st.text(min_size=1, max_size=12),
                 st.sampled_from(["meeple", "metadata", "players", "flow", "phases", "do",
                                  "roll", "set", "choose", "options", "next", "state",
                                  "parameters", "policies", "decide", "triggers", "on",
                                  "if", "then", "repeat", "until", "name", "min", "max"]))
documents = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=5), st.dictionaries(keys, inner, max_size=6)), max_leaves=40)


def assert_handled(text: str) -> None:
    result = validate_text(text, "prop.yaml")  # must not raise
    assert result.ok or result.diagnostics
    for d in result.diagnostics:
        assert d.code and d.message


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
                                        "parameters", "policies", "scoring", "triggers"]),
                       documents, max_size=6))
def test_documents_shaped_like_rulesets_give_diagnostics_not_exceptions(doc):
    assert_handled(yaml.safe_dump(doc, sort_keys=False))


@st.composite
def mutated_ruleset(draw):
    lines = draw(st.sampled_from(SHIPPED)).splitlines()
    kind = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "insert"]))
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
        ch = draw(st.sampled_from(list("xz:{}[]'\"-#&*!|>=()., 0\t")))
        end = k + 1 if kind == "replace" else k
        lines[i] = line[:k] + ch + line[end:]
    return "\n".join(lines) + "\n"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_ruleset())
def test_mutated_shipped_rulesets_give_diagnostics_not_exceptions(text):
    assert_handled(text)
