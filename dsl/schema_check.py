"""Phase 2, structure, the quick answer: does a document conform to the ruleset schema?

Input: the ruleset schema (dsl/schema.py) and a loaded document's data. Output: True when it
conforms, False when it does not. dsl/structure.py asks this first and imports jsonschema only
to explain a False: importing jsonschema and building its validator took about a third of
`meeple validate`'s time on a valid ruleset, and most documents a designer checks are valid.

Only the keywords of JSON Schema 2020-12 that the ruleset schema uses are understood, each with
jsonschema's own meaning (true/false is not a number, 1.0 is a whole number, `pattern` is
searched with `re.search`, `enum` tells true from 1). A keyword outside them stops the schema's
compilation, so the schema cannot grow past what this check knows without every test failing;
tests/test_schema_check.py holds the answers equal to jsonschema's on shipped and altered
documents.
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from dsl.schema import ruleset_schema

Check = Callable[[Any], bool]

# Keywords that say nothing about validity.
_NOTES = frozenset({"description", "title", "$schema", "$id", "$defs", "$comment", "examples",
                    "default"})


def _integer(v: Any) -> bool:
    return not isinstance(v, bool) and (isinstance(v, int)
                                        or isinstance(v, float) and v.is_integer())


def _number(v: Any) -> bool:
    return not isinstance(v, bool) and isinstance(v, numbers.Number)


_TYPES: dict[str, Check] = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "integer": _integer,
    "number": _number,
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
}


def _yes(_v: Any) -> bool:
    return True


def _no(_v: Any) -> bool:
    return False


def equal(one: Any, two: Any) -> bool:
    """JSON equality as jsonschema's `enum` and `const` take it: true is not 1, lists and
    mappings compared item by item the same way."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, Sequence) and isinstance(two, Sequence):
        return len(one) == len(two) and all(equal(a, b) for a, b in zip(one, two, strict=True))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(k in two and equal(v, two[k]) for k, v in one.items())
    if isinstance(one, bool) or isinstance(two, bool):
        return isinstance(one, bool) and isinstance(two, bool) and one == two
    return one == two


class _Compiler:
    """Turns schema nodes into checks, each node once (by identity), `$ref`s when first met."""

    def __init__(self, root: dict) -> None:
        self.root = root
        self.done: dict[int, tuple[Any, Check]] = {}  # the node kept alive beside its check

    def node(self, schema: Any) -> Check:
        if schema is True:
            return _yes
        if schema is False:
            return _no
        known = self.done.get(id(schema))
        if known is not None:
            return known[1]
        checks = [self._keyword(key, value) for key, value in schema.items()
                  if key not in _NOTES and key not in ("properties", "additionalProperties")]
        if "properties" in schema or "additionalProperties" in schema:
            checks.append(self._properties(schema.get("properties", {}),
                                           schema.get("additionalProperties", True)))
        checks = [c for c in checks if c is not _yes]
        if not checks:
            check = _yes
        elif len(checks) == 1:
            check = checks[0]
        else:
            def check(v: Any, checks: list[Check] = checks) -> bool:
                for c in checks:
                    if not c(v):
                        return False
                return True
        self.done[id(schema)] = (schema, check)
        return check

    def _ref(self, ref: str) -> Check:
        if not ref.startswith("#/$defs/") or ref[8:] not in self.root.get("$defs", {}):
            raise ValueError(f"the ruleset schema's $ref {ref!r} is not one of its own $defs")
        target = self.root["$defs"][ref[8:]]
        found: list[Check] = []

        def check(v: Any) -> bool:
            # Compiled when first used: the definitions refer to one another in circles.
            if not found:
                found.append(self.node(target))
            return found[0](v)
        return check

    def _properties(self, properties: dict, additional: Any) -> Check:
        known = {key: self.node(sub) for key, sub in properties.items()}
        rest = self.node(additional)

        def check(v: Any) -> bool:
            if isinstance(v, dict):
                for key, value in v.items():
                    if not (known.get(key) or rest)(value):
                        return False
            return True
        return check

    def _keyword(self, key: str, value: Any) -> Check:
        if key == "$ref":
            return self._ref(value)
        if key == "type":
            tests = [_TYPES[t] for t in ([value] if isinstance(value, str) else value)]
            if len(tests) == 1:
                return tests[0]
            return lambda v: any(t(v) for t in tests)
        if key == "required":
            return lambda v: not isinstance(v, dict) or all(k in v for k in value)
        if key == "pattern":
            search = re.compile(value).search
            return lambda v: not isinstance(v, str) or search(v) is not None
        if key == "propertyNames":
            names = self.node(value)
            return lambda v: not isinstance(v, dict) or all(names(k) for k in v)
        if key == "items":
            item = self.node(value)
            return lambda v: not isinstance(v, list) or all(item(i) for i in v)
        if key == "enum":
            return lambda v: any(equal(e, v) for e in value)
        if key == "const":
            return lambda v: equal(value, v)
        if key == "anyOf":
            subs = [self.node(s) for s in value]
            return lambda v: any(s(v) for s in subs)
        if key == "oneOf":
            subs = [self.node(s) for s in value]
            return lambda v: sum(1 for s in subs if s(v)) == 1
        if key == "minimum":
            return lambda v: not _number(v) or not v < value
        if key == "maximum":
            return lambda v: not _number(v) or not v > value
        if key == "minItems":
            return lambda v: not isinstance(v, list) or len(v) >= value
        if key == "minProperties":
            return lambda v: not isinstance(v, dict) or len(v) >= value
        if key == "maxProperties":
            return lambda v: not isinstance(v, dict) or len(v) <= value
        if key == "dependentSchemas":
            deps = [(name, self.node(sub)) for name, sub in value.items()]
            return lambda v: not isinstance(v, dict) or all(
                check(v) for name, check in deps if name in v)
        raise ValueError(f"the ruleset schema uses the keyword {key!r}, which "
                         f"dsl/schema_check.py does not check")


@lru_cache(maxsize=1)
def _compiler() -> _Compiler:
    return _Compiler(ruleset_schema())


def conforms(data: Any, schema: Any = None) -> bool:
    """True when `data` conforms to `schema`, a node of the ruleset schema (the whole schema
    when None), as jsonschema's Draft 2020-12 validator would find it."""
    compiler = _compiler()
    return compiler.node(compiler.root if schema is None else schema)(data)
