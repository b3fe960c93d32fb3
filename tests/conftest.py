"""Shared test helpers: the repository's paths and every shipped ruleset with its variants."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))


@pytest.fixture
def root() -> Path:
    return ROOT


def shipped_setups() -> list[tuple[str, str | None]]:
    """Every shipped ruleset (by file stem) with each of its variants, the ruleset alone first
    (variant None): what a test that covers "every shipped ruleset and variant" walks."""
    import yaml  # the variants' names only: no need to load and check whole rulesets here
    out: list[tuple[str, str | None]] = []
    for path in RULESETS:
        variants = yaml.safe_load(path.read_text(encoding="utf-8")).get("variants") or {}
        out += [(path.stem, v) for v in [None, *variants]]
    return out


