"""Every ruleset shipped in rulesets/ validates clean, through the library and the CLI."""

from __future__ import annotations

import subprocess
import sys

import pytest

from dsl import render, validate_path
from tests.conftest import ROOT, RULESETS


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_shipped_ruleset_validates_clean(path):
    result = validate_path(path)
    assert result.ok, "\n".join(render(d, result.document and result.document.source)
                                for d in result.diagnostics)


def test_validate_command_exits_zero_on_all_shipped_rulesets():
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate",
                           *map(str, RULESETS)], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"{len(RULESETS)} ruleset" in proc.stderr and "valid" in proc.stderr
