"""Phase 4, check (policy inheritance): a policy that `extends` another, resolved.

Input: the `policies` section of a ruleset. Output: each policy's resolved spec (the parent's
`let` names and decisions, then the policy's own, which replace the parent's by name; `doc`
and `default` are never inherited), and the problems met on the way (a parent that does not
exist, a chain of `extends` that comes back to itself). Both the checker and the compiler
read policies through this, so a policy variant is one small edit: "like that bot, but it
bids boldly".
"""

from __future__ import annotations

from typing import Any

Problem = tuple[str, str]  # (policy name, message)


def resolve_policies(policies: dict) -> tuple[dict[str, dict], list[Problem]]:
    out: dict[str, dict] = {}
    problems: list[Problem] = []

    def resolve(name: str, chain: tuple[str, ...]) -> dict:
        if name in out:
            return out[name]
        spec = policies.get(name)
        spec = spec if isinstance(spec, dict) else {}
        parent = spec.get("extends")
        if not isinstance(parent, str):
            out[name] = spec
            return spec
        if parent not in policies:
            problems.append((name, f"'{parent}' is not a policy of this ruleset"))
            out[name] = spec
            return spec
        if parent in chain or parent == name:
            problems.append((name, "its `extends` chain comes back to itself: "
                                   + " -> ".join((*chain, name, parent))))
            out[name] = spec
            return spec
        base = resolve(parent, (*chain, name))
        merged: dict[str, Any] = dict(spec)  # `extends` stays, for the rulebook to say
        merged["let"] = {**(base.get("let") or {}), **(spec.get("let") or {})}
        merged["decide"] = {**(base.get("decide") or {}), **(spec.get("decide") or {})}
        if "sees" in base and "sees" not in spec:  # it runs what reads everything
            merged["sees"] = base["sees"]
        if not merged["let"]:
            del merged["let"]
        out[name] = merged
        return merged

    for name in policies:
        resolve(name, ())
    return out, problems


def own(policies: dict, name: str) -> tuple[set[str], set[str]]:
    """The decisions and `let` names a policy writes itself (not inherited)."""
    spec = policies.get(name)
    spec = spec if isinstance(spec, dict) else {}
    return set(spec.get("decide") or {}), set(spec.get("let") or {})
