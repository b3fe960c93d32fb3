"""The docs stay true: generated pages are current, the tutorial's ruleset validates, every
error code is documented, and the committed schema is the generated one."""

from __future__ import annotations

import re

from dsl import validate_text
from dsl.diagnostics import CODES
from dsl.docgen import generated
from dsl.schema import schema_json
from tests.conftest import ROOT


def test_generated_reference_and_error_pages_are_up_to_date():
    for path, text in generated().items():
        assert path.read_text(encoding="utf-8") == text, f"run python -m dsl.docgen ({path.name})"


def test_every_complete_ruleset_in_the_tutorial_validates_clean():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if b.startswith("meeple: 1")]
    assert blocks, "the tutorial shows a complete ruleset"
    for block in blocks:
        result = validate_text(block, "tutorial.yaml")
        assert result.ok, [d.message for d in result.diagnostics]


def test_the_tutorial_error_example_is_what_the_validator_prints():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    (block,) = [b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if b.startswith("meeple: 1")]
    broken = block.replace('when: "any(p.score >= goal', 'when: "any(p.score >= gaol')
    (diag,) = validate_text(broken, "thirty.yaml").diagnostics
    assert f"thirty.yaml:{diag.span.line}:{diag.span.column}: error: {diag.message}" in text


def test_every_error_code_is_documented():
    errors = (ROOT / "docs" / "errors.md").read_text(encoding="utf-8")
    for code in CODES:
        assert f"### `{code}`" in errors


def test_committed_schema_is_the_generated_schema():
    assert (ROOT / "schema" / "ruleset.schema.json").read_text() == schema_json()
