"""Golden tests: each broken ruleset in tests/errors/ renders exactly its .expected output.

The expected files hold what `meeple validate FILE` prints (paths relative to the repository),
checked by hand when frozen: every diagnostic at the right line and column. To refresh one
after an intended change of wording: `meeple validate tests/errors/NN_x.yaml > tests/errors/NN_x.expected`.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from dsl import render, validate_path
from dsl.diagnostics import CODES
from tests.conftest import ROOT

CASES = sorted((ROOT / "tests" / "errors").glob("*.yaml"))
# Codes that no single ruleset file can produce, tested elsewhere (tests/test_cli_validate.py,
# tests/test_loader_limits.py): a missing file, a file over the size limit, an overlong expression.
NOT_FROM_A_FILE = {"file-not-found", "too-large", "limit-exceeded"}


def rendered(path) -> str:
    result = validate_path(path.relative_to(ROOT))
    return "".join(render(d, result.source) + "\n" for d in result.diagnostics)


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_broken_ruleset_renders_its_expected_diagnostics(case, monkeypatch):
    monkeypatch.chdir(ROOT)
    expected = case.with_suffix(".expected").read_text()
    assert expected, f"{case.name} must produce at least one error"
    assert rendered(case) == expected


def test_there_are_at_least_thirty_distinct_broken_rulesets():
    assert len(CASES) >= 30
    assert len({c.read_text() for c in CASES}) == len(CASES)


def test_every_diagnostic_code_a_file_can_produce_has_a_golden_case():
    seen = set()
    for case in CASES:
        for line in case.with_suffix(".expected").read_text().splitlines():
            if line.endswith("]") and ": error: " in line:
                seen.add(line.rsplit("[", 1)[1][:-1])
    assert set(CODES) - NOT_FROM_A_FILE - seen == set()


def test_cli_prints_exactly_the_golden_text_and_exits_1():
    case = CASES[0]
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate",
                           str(case.relative_to(ROOT))], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stdout == case.with_suffix(".expected").read_text()
