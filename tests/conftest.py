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


def unlocated_pig(tmp_path: Path) -> Path:
    """Pig with a rule error the generated code does not locate yet, so its games go back to
    the reference interpreter for it: after each hold the current player's score is set
    again through a comprehension that, from the ninth round, finds nobody (a `set` of a
    field of none); shorter games end first. What the hand-back tests play (a rule error the
    generated code locates is no hand-back)."""
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    old = '        - say: "{current.name} holds: {current.score} points"\n'
    assert old in text
    path = tmp_path / "unlocated.yaml"
    path.write_text(text.replace(old, old + '        - set: {"first([p for p in players if p == '
                                           'current and round < 9]).score": current.score}\n', 1),
                    encoding="utf-8")
    return path
