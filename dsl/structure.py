"""Phase 2, structure: the loaded document against the ruleset JSON Schema.

Input: a loaded `Document`. Output: diagnostics located at the offending key or value, with
friendlier messages than jsonschema's (the expected type in words, the nearest known key for a
misspelt one). Schema in dsl/schema.py; the copy for editors is schema/ruleset.schema.json.
A document is first asked whether it conforms at all (dsl/schema_check.py): jsonschema, which
finds and explains each error, is imported only for a document that does not.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from dsl.diagnostics import Diagnostic, suggestion
from dsl.effects import EFFECTS
from dsl.loader import Document
from dsl.schema import ruleset_schema
from dsl.schema_check import conforms

if TYPE_CHECKING:
    import jsonschema
    from jsonschema.exceptions import ValidationError

_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number",
               "boolean": "true or false", "array": "a list", "object": "a mapping",
               "null": "nothing"}


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    import jsonschema  # here, not at the top: only a document that does not conform needs it
    return jsonschema.Draft202012Validator(ruleset_schema())


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int):
        return "a whole number"
    if isinstance(value, float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return "nothing"


def _types(t: Any) -> str:
    ts = t if isinstance(t, list) else [t]
    words = [_TYPE_WORDS.get(x, x) for x in ts]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _leaf(error: ValidationError) -> ValidationError:
    """Descends anyOf/oneOf failures to the most relevant branch's error."""
    from jsonschema.exceptions import best_match
    while error.validator in ("anyOf", "oneOf") and error.context:
        # Prefer a branch whose type matched: its errors say more than "expected a list".
        typed = [e for e in error.context if e.validator != "type"]
        error = best_match(typed or error.context)
    return error


def _where(path: tuple, instance: Any = None) -> str:
    """Names the place of an error in words: "in 'metadata'", "in this 'roll' step"."""
    if isinstance(instance, dict) and path and isinstance(path[-1], int):
        effect = next((k for k in instance if k in EFFECTS), None)
        if effect:
            return f" in this '{effect}' step"
    named = [p for p in path if isinstance(p, str)]
    return f" in '{named[-1]}'" if named else ""


def _diagnose(error: ValidationError, doc: Document) -> list[Diagnostic]:
    error = _leaf(error)
    path = tuple(error.absolute_path)
    pos = doc.positions
    v = error.validator
    if v == "additionalProperties" and isinstance(error.instance, dict):
        allowed = list(error.schema.get("properties", {}))
        out = []
        for key in error.instance:
            if key in allowed:
                continue
            where = _where(path, error.instance)
            out.append(Diagnostic(
                "unknown-key", f"unknown key '{key}'{where}{suggestion(key, allowed)}",
                pos.key(path + (key,)), path + (key,),
                hint="allowed here: " + ", ".join(allowed) if len(allowed) <= 12 else None))
        return out
    if v == "required":
        missing = error.message.split("'")[1] if "'" in error.message else "?"
        span = pos.key(path) if path else pos.value(())
        where = _where(path, error.instance).removeprefix(" in ") or "the ruleset"
        return [Diagnostic("missing-key", f"missing required key '{missing}' in {where}",
                           span, path)]
    span = pos.value(path)
    if v == "type":
        msg = f"expected {_types(error.validator_value)}, not {_kind(error.instance)}"
    elif v == "enum":
        choices = ", ".join(str(c) for c in error.validator_value)
        hint = suggestion(str(error.instance), [str(c) for c in error.validator_value])
        named = [p for p in path if isinstance(p, str)]
        what = f"'{named[-1]}'" if named else "this value"
        return [Diagnostic("schema", f"{what} cannot be '{error.instance}'{hint}; use one of: "
                                     f"{choices}", span, path)]
    elif v == "const":
        msg = f"must be {error.validator_value!r}, not {error.instance!r}"
    elif v == "pattern":
        msg = f"'{error.instance}' is not a valid name (letters, digits and _, not first a digit)"
    elif v in ("minimum", "maximum"):
        side = "below the minimum" if v == "minimum" else "above the maximum"
        msg = f"{error.instance} is {side} {error.validator_value}"
    elif v in ("minItems", "minProperties"):
        msg = "must not be empty" if error.validator_value == 1 else error.message
    elif v == "maxProperties":
        msg = f"at most {error.validator_value} entries"
    else:
        msg = error.message
    hint = None
    if v == "maximum" and path[:1] == ("limits",):
        hint = (f"that is the most a ruleset may ask for; the person running the game can go "
                f"further: meeple run ... --limit {path[-1]}=N (docs/security.md)")
    return [Diagnostic("schema", msg + _where(path), span, path, hint=hint)]


def check_structure(doc: Document, sections: list[str] | None = None) -> list[Diagnostic]:
    """Validates a document against the schema. Returns every finding, located.

    With `sections`, only those top-level sections are validated (a variant's overlay touches
    a few sections of an otherwise valid ruleset).
    """
    out: list[Diagnostic] = []
    if sections is None:
        if not conforms(doc.data):
            out.extend(d for e in _validator().iter_errors(doc.data) for d in _diagnose(e, doc))
    else:
        props = ruleset_schema()["properties"]
        parts = [key for key in sections if key in props and key in doc.data]
        if not all(conforms(doc.data[key], props[key]) for key in parts):
            validator = _validator()
            out.extend(d for key in parts for e in validator.descend(doc.data[key], props[key],
                                                                     path=key)
                       for d in _diagnose(e, doc))
    roots = [((), doc.data)] if sections is None else [
        ((key,), doc.data[key]) for key in sections if key in doc.data]
    out.extend(_private_keys(doc, roots))
    return out


def _private_keys(doc: Document, roots: list[tuple[tuple, Any]]) -> list[Diagnostic]:
    """Refuses every mapping key that starts with `_`, anywhere: such names are the engine's
    own (the language is closed). Walked without recursion; the loader bounds the depth."""
    out: list[Diagnostic] = []
    stack = list(roots)
    while stack:
        path, node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if isinstance(key, str) and key.startswith("_"):
                    out.append(Diagnostic(
                        "private-name", f"'{key}' starts with '_': names that start with '_' "
                        "are kept for the engine", doc.positions.key(path + (key,)),
                        path + (key,), hint="rename it without the leading '_'"))
                stack.append((path + (key,), value))
        elif isinstance(node, list):
            stack.extend((path + (i,), v) for i, v in enumerate(node))
    return out
