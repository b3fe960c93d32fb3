"""Golden tests: each broken ruleset in tests/errors/ renders exactly its .expected output.

The expected files hold what `meeple validate FILE` prints on stdout (paths relative to the
repository), checked by hand when frozen: every diagnostic at the line and column of the real
mistake (the misspelt name's first letter, the bad operator, the offending key). To refresh one
after an intended change of wording, and then check it again by eye:
`meeple validate tests/errors/NN_x.yaml > tests/errors/NN_x.expected`.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from dsl import render, validate_path
from dsl.diagnostics import CODES
from interpreter.cli.main import main
from tests.conftest import ROOT

CASES = sorted((ROOT / "tests" / "errors").glob("*.yaml"))
# Codes that no small ruleset file can produce, tested elsewhere: a missing file
# (tests/test_cli_validate.py) and a file over the size limit (tests/test_loader_limits.py).
NOT_FROM_A_FILE = {"file-not-found", "too-large"}
# Codes of the run phase come from running a game, not from validating a file; their tests
# are in tests/test_engine_errors.py.
NOT_FROM_A_FILE |= {c.name for c in CODES.values() if c.phase == "run"}
HEADLINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (error|warning): .* "
                      r"\[(?P<code>[a-z-]+)\]$")


def rendered(path) -> str:
    result = validate_path(path.relative_to(ROOT))
    return "".join(render(d, result.source) + "\n" for d in result.diagnostics)


def headlines(case) -> list[re.Match]:
    lines = case.with_suffix(".expected").read_text().splitlines()
    return [m for m in map(HEADLINE.match, lines) if m]


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_broken_ruleset_renders_exactly_its_expected_diagnostics(case, monkeypatch):
    monkeypatch.chdir(ROOT)
    expected = case.with_suffix(".expected").read_text()
    assert expected, f"{case.name} must produce at least one error"
    assert rendered(case) == expected


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_validate_command_prints_the_golden_text_on_stdout_and_exits_1_on_errors(
        case, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(main, ["validate", str(case.relative_to(ROOT))])
    expected = case.with_suffix(".expected").read_text()
    errors = ": error: " in expected
    assert result.exit_code == (1 if errors else 0)  # warnings alone leave a ruleset valid
    assert result.stdout == expected
    # The summary goes to stderr, never into the golden text.
    assert ("error" if errors else "valid, 1 warning") in result.stderr


@pytest.mark.parametrize("case", CASES, ids=lambda p: p.stem)
def test_every_golden_diagnostic_points_at_a_real_place_in_its_file(case):
    lines = case.read_text(errors="replace").splitlines()
    found = headlines(case)
    assert found
    for m in found:
        assert m["file"] == f"tests/errors/{case.name}"
        line, col = int(m["line"]), int(m["col"])
        assert 1 <= line <= len(lines)
        assert 1 <= col <= len(lines[line - 1]) + 1


def test_there_are_at_least_thirty_four_distinct_broken_rulesets():
    assert len(CASES) >= 34
    assert len({c.read_text(errors="replace") for c in CASES}) == len(CASES)
    for case in CASES:
        assert re.fullmatch(r"\d\d_[a-z0-9_]+\.yaml", case.name), case.name
        assert case.with_suffix(".expected").exists(), f"{case.name} has no .expected"


def test_every_diagnostic_code_a_file_can_produce_has_a_golden_case():
    seen = {m["code"] for case in CASES for m in headlines(case)}
    assert set(CODES) - NOT_FROM_A_FILE - seen == set()


def test_several_errors_in_one_file_are_all_reported_sorted_by_position():
    case = ROOT / "tests" / "errors" / "37_several_errors_sorted.yaml"
    positions = [(int(m["line"]), int(m["col"])) for m in headlines(case)]
    assert len(positions) >= 3
    assert positions == sorted(positions)


def test_misspelt_names_come_with_a_did_you_mean():
    for stem in ("01_unknown_name", "02_unknown_field", "07_unknown_effect", "08_unknown_key",
                 "11_unknown_phase_in_next", "13_policy_unknown_decision",
                 "14_policy_unknown_option", "30_variant_unknown_parameter"):
        text = (ROOT / "tests" / "errors" / f"{stem}.expected").read_text()
        assert "(did you mean '" in text, stem


def test_expressions_in_block_and_quoted_scalars_are_located_at_the_mistake():
    # (case, the text that must start at the diagnostic's line and column)
    for stem, word in (("34_block_scalar_expression", "plyers"),
                       ("35_single_quoted_expression", "dei"),
                       ("44_literal_block_expression", "turn_totl"),
                       ("53_double_quoted_two_lines", "turn_totl"),
                       ("03_and_and_operator", "&&"),
                       ("04_equals_for_comparison", "= 1"),
                       ("02_unknown_field", "scroe")):
        case = ROOT / "tests" / "errors" / f"{stem}.yaml"
        (m,) = headlines(case)
        line = case.read_text(errors="replace").splitlines()[int(m["line"]) - 1]
        assert line[int(m["col"]) - 1:].startswith(word), (stem, line)


def test_cli_subprocess_prints_exactly_the_golden_text_and_exits_1():
    case = CASES[0]
    proc = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate",
                           str(case.relative_to(ROOT))], capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 1
    assert proc.stdout == case.with_suffix(".expected").read_text()
