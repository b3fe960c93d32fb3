"""The structure phase's quick answer (dsl/schema_check.py) agrees with jsonschema's validator on
every document: the shipped rulesets, each variant's sections, every ruleset file of the test
suite, altered copies of them (hypothesis) and any JSON value against each schema definition.
A valid ruleset is validated without importing jsonschema (the start-up target of `validate`).
"""

from __future__ import annotations

import copy
import subprocess
import sys
from functools import lru_cache

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsl import schema_check
from dsl.loader import load_file
from dsl.pipeline import apply_variant
from dsl.schema import ruleset_schema
from dsl.schema_check import conforms, equal
from tests.conftest import ROOT

SCHEMA = ruleset_schema()
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
FILES = sorted(p for p in [*(ROOT / "rulesets").glob("*.yaml"), *(ROOT / "tests").rglob("*.yaml")])


@lru_cache(maxsize=1)
def _documents() -> list:
    docs = []
    for path in FILES:
        doc, _ = load_file(path)
        if doc is not None:
            docs.append(doc)
    return docs


def test_every_ruleset_file_conforms_exactly_when_jsonschema_finds_no_error():
    answers = []
    for doc in _documents():
        expected = VALIDATOR.is_valid(doc.data)
        assert conforms(doc.data) is expected, doc.source.name
        answers.append(expected)
    # Both answers are met: the files of tests/errors break the structure on purpose.
    assert answers.count(True) > 20 and answers.count(False) > 5


def test_each_variant_section_conforms_as_jsonschema_finds_it():
    props = SCHEMA["properties"]
    checked = 0
    for doc in _documents():
        variants = doc.data.get("variants")
        if not isinstance(variants, dict) or not VALIDATOR.is_valid(doc.data):
            continue
        for name, spec in variants.items():
            merged = apply_variant(doc, name)
            for key in (spec.get("merge") or {}):
                if key in props and key in merged.data:
                    expected = VALIDATOR.evolve(schema=props[key]).is_valid(merged.data[key])
                    assert conforms(merged.data[key], props[key]) is expected, (name, key)
                    checked += 1
    assert checked > 0


def _paths(data, path=()):
    yield path
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _paths(value, path + (i,))


def _at(data, path):
    for key in path:
        data = data[key]
    return data


def _words() -> list:
    """Texts the schema knows (its keys and enum values) and a few it cannot take."""
    found: set = {"", "1abc", "ok_name", "ok_name\n", "_private", "x y", "a", "b"}
    for path in _paths(SCHEMA):
        node = _at(SCHEMA, path)
        if path and isinstance(path[-1], str):
            found.add(path[-1])
        if isinstance(node, dict) and isinstance(node.get("enum"), list):
            found.update(v for v in node["enum"] if isinstance(v, str))
    return sorted(found)


WORDS = _words()
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 400) | st.sampled_from([0.0, 1.0, 2.5, -1.5])
    | st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(WORDS) | st.sampled_from([1, True]), inner, max_size=3),
    max_leaves=8)


def _retyped(value):
    """A value close to the one it replaces: the same number as a float or true, the first item
    of a list, a mapping less one key: what the schema's finer points tell apart."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return float(value) if value % 2 else True
    if isinstance(value, float):
        return int(value) if value.is_integer() else str(value)
    if isinstance(value, list):
        return value[0] if value else {}
    if isinstance(value, dict):
        return dict(list(value.items())[1:])
    return [value]


@st.composite
def altered_documents(draw):
    """A shipped or test ruleset with one thing changed: a value replaced by another (one of
    its own or any JSON value), a key taken out, a key added, or a list item repeated."""
    doc = draw(st.sampled_from(_documents()))
    data = copy.deepcopy(doc.data)
    paths = list(_paths(data))
    path = draw(st.sampled_from(paths[1:] or paths))
    how = draw(st.sampled_from(["replace", "retype", "transplant", "remove", "add", "repeat"]))
    parent, last = (_at(data, path[:-1]), path[-1]) if path else (None, None)
    if how == "replace" and parent is not None:
        parent[last] = draw(JSON)
    elif how == "retype" and parent is not None:
        parent[last] = _retyped(parent[last])
    elif how == "transplant" and parent is not None:
        parent[last] = copy.deepcopy(_at(data, draw(st.sampled_from(paths))))
    elif how == "remove" and isinstance(parent, dict):
        del parent[last]
    elif how == "add" and isinstance(_at(data, path), dict):
        _at(data, path)[draw(st.sampled_from(WORDS))] = draw(JSON)
    elif how == "repeat" and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
    return data


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(altered_documents())
def test_an_altered_ruleset_conforms_exactly_when_jsonschema_finds_no_error(data):
    assert conforms(data) is VALIDATOR.is_valid(data)


DEFINITIONS = sorted(SCHEMA["$defs"])


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(DEFINITIONS), JSON)
def test_any_value_conforms_to_a_definition_exactly_when_jsonschema_finds_no_error(name, value):
    node = SCHEMA["$defs"][name]
    assert conforms(value, node) is VALIDATOR.evolve(schema=node).is_valid(value)


# Small schemas with the keywords' finer points, for what the ruleset schema's own shape cannot
# tell apart (its oneOf branches never overlap; it has no open mapping with named properties).
SMALL = [
    {"oneOf": [{"type": "integer"}, {"type": "number"}]},
    {"oneOf": [{"minimum": 2}, {"maximum": 5}]},
    {"anyOf": [{"type": "string"}, {"type": "array", "minItems": 2}]},
    {"type": "integer"}, {"type": ["null", "boolean"]}, {"minimum": 1, "maximum": 3},
    {"properties": {"a": {"type": "string"}}},
    {"properties": {"a": {"type": "string"}}, "additionalProperties": {"type": "integer"}},
    {"properties": {"a": True}, "additionalProperties": False, "required": ["a"]},
    {"propertyNames": {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}},
    {"propertyNames": {"type": "string"}, "minProperties": 1, "maxProperties": 2},
    {"dependentSchemas": {"a": {"required": ["b"]}}},
    {"items": {"enum": [1, True, "x", [1], None]}},
    {"const": [1, {"a": 1}]}, {"pattern": "^ok_name$"}, {"enum": [1.0, "1abc"]},
]


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(range(len(SMALL))), JSON)
def test_each_keyword_means_what_jsonschema_takes_it_to_mean(which, value):
    small = SMALL[which]
    assert conforms_small(small, value) is (
        jsonschema.Draft202012Validator(small).is_valid(value))


@pytest.mark.parametrize("kind", ["null", "boolean", "integer", "number", "string", "array",
                                  "object"])
def test_each_type_takes_the_values_jsonschema_takes(kind):
    values = [None, True, False, 0, 1, 1.0, 1.5, float("inf"), "1", [], [1], {}, {"a": 1}]
    small = {"type": kind}
    assert [conforms_small(small, v) for v in values] == [
        jsonschema.Draft202012Validator(small).is_valid(v) for v in values]


def test_a_pattern_is_searched_as_jsonschema_searches_it():
    small = {"pattern": "^[A-Za-z_][A-Za-z0-9_]*$"}
    values = ["ok_name", "ok_name\n", "1abc", " ok", "", "a b", 7, None]
    assert [conforms_small(small, v) for v in values] == [
        jsonschema.Draft202012Validator(small).is_valid(v) for v in values]


def conforms_small(small: dict, value) -> bool:
    return schema_check._Compiler(small).node(small)(value)


@pytest.mark.parametrize("one, two, same", [
    (True, 1, False), (1, 1.0, True), (False, 0, False), ([True], [1], False),
    ({"a": [1]}, {"a": [1.0]}, True), ("1", 1, False), (None, None, True), ([1, 2], [1], False)])
def test_enum_equality_tells_true_from_one_as_jsonschema_does(one, two, same):
    assert equal(one, two) is same
    assert VALIDATOR.evolve(schema={"enum": [one]}).is_valid(two) is same


def test_a_keyword_the_quick_check_does_not_know_stops_the_schema_compiling():
    compiler = schema_check._Compiler({"$defs": {}})
    with pytest.raises(ValueError, match="'if'"):
        compiler.node({"if": {"type": "string"}, "then": {"minLength": 2}})


def test_every_definition_of_the_shipped_schema_compiles():
    for name in DEFINITIONS:
        conforms(None, SCHEMA["$defs"][name])
    for node in SCHEMA["properties"].values():
        conforms(None, node)


def _validated_in_a_new_process(path: str) -> list[str]:
    """The codes `validate_path` finds in a fresh interpreter, then whether it imported
    jsonschema."""
    code = ("import sys\n"
            "from dsl.pipeline import validate_path\n"
            f"v = validate_path({path!r})\n"
            "print(*[d.code for d in v.diagnostics], 'jsonschema' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return out.stdout.split()


def test_validating_a_valid_ruleset_does_not_import_jsonschema():
    assert _validated_in_a_new_process("rulesets/wreckdivers.yaml") == ["False"]


def test_an_invalid_ruleset_is_still_explained_by_jsonschema():
    assert _validated_in_a_new_process("tests/errors/08_unknown_key.yaml") == ["unknown-key",
                                                                               "True"]
