"""Shared test helpers: the repository's paths and a validator for inline rulesets."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))


@pytest.fixture
def root() -> Path:
    return ROOT
