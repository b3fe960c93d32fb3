"""The docs stay true: the generated pages are current, every complete ruleset and every
tutorial step in the guide validates, the precedence table follows the grammar, every error
code is documented, the architecture lists the real modules, the committed schema is the
generated one, and the guide's complete rulesets play to their end."""

from __future__ import annotations

import re

import yaml

from dsl import validate_text
from dsl.diagnostics import CODES
from dsl.docgen import errors, generated, reference
from dsl.loader import load_text
from dsl.pipeline import merge
from dsl.schema import schema_json
from tests.conftest import ROOT

DOCS = ROOT / "docs"


def _yaml_blocks() -> list[str]:
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    return re.findall(r"```yaml\n(.*?)```", text, re.S)


def _data(text: str):
    """A block's data as meeple reads it (YAML 1.2: `on:` is text, not true)."""
    doc, diags = load_text(text, "block.yaml")
    assert doc is not None, [d.message for d in diags]
    return doc.data


def test_generated_reference_and_error_pages_are_up_to_date():
    for path, text in generated().items():
        assert path.read_text(encoding="utf-8") == text, f"run python -m dsl.docgen ({path.name})"


def test_generation_is_deterministic():
    assert reference() == reference()
    assert errors() == errors()


def test_every_complete_ruleset_in_the_guide_validates_clean():
    blocks = [b for b in _yaml_blocks() if b.startswith("meeple: 1")]
    assert len(blocks) >= 3, "the tutorial's first step, the whole game, the trigger example"
    for block in blocks:
        result = validate_text(block, "guide.yaml")
        assert result.ok, [f"{d.span.line}: {d.message}" for d in result.diagnostics]


def test_every_complete_ruleset_in_the_guide_plays_to_its_end(tmp_path):
    from interpreter.engine.setup import load, new_game

    for i, block in enumerate(b for b in _yaml_blocks() if b.startswith("meeple: 1")):
        path = tmp_path / f"guide{i}.yaml"
        path.write_text(block, encoding="utf-8")
        for seed in range(3):
            result = new_game(load(str(path)).program, seed=seed).run()
            assert result.error is None, result.error.message
            assert result.reason


def test_every_complete_ruleset_in_the_guide_runs_on_the_generated_code_logged_as_the_interpreter(
        tmp_path):
    # What a designer following the guide runs (`meeple run`, narrated) and simulates is the
    # generated code, not the reference interpreter: its log and result are the interpreter's.
    from interpreter.compile.specialize import specialize
    from interpreter.engine.setup import load, new_game

    for i, block in enumerate(b for b in _yaml_blocks() if b.startswith("meeple: 1")):
        path = tmp_path / f"guide{i}.yaml"
        path.write_text(block, encoding="utf-8")
        program = load(str(path)).program
        refused: list = []
        logged = specialize(program, refused=refused, logged=True)
        assert logged is not None and specialize(program) is not None, (i, refused)
        for seed in range(3):
            played, log = logged.play_logged(seed)
            game = new_game(program, seed=seed)
            assert played.result.to_json() == game.run().to_json() and log == game.log, (i, seed)


def test_each_tutorial_step_validates_and_the_steps_add_up_to_the_whole_game():
    blocks = _yaml_blocks()
    first = next(i for i, b in enumerate(blocks) if b.startswith("meeple: 1"))
    steps = [b for b in blocks[first + 1:] if b.startswith("# step")]
    assert len(steps) >= 4
    game = _data(blocks[first])
    for step in steps:
        game = merge(game, _data(step))
        result = validate_text(yaml.safe_dump(game, sort_keys=False), "step.yaml")
        assert result.ok, (step.splitlines()[0], [d.message for d in result.diagnostics])
    whole = next(b for b in blocks[first + 1:] if b.startswith("meeple: 1"))
    assert _data(whole) == game


def test_the_tutorial_error_example_is_what_the_validator_prints():
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    whole = [b for b in _yaml_blocks() if b.startswith("meeple: 1") and "name: Thirty" in b][-1]
    broken = whole.replace('when: "any(p.score >= goal', 'when: "any(p.score >= gaol')
    (diag,) = validate_text(broken, "thirty.yaml").diagnostics
    assert f"thirty.yaml:{diag.span.line}:{diag.span.column}: error: {diag.message}" in text


def _grammar_levels() -> list[set[str]]:
    """The operators of each precedence level of dsl/expressions.lark, loosest first."""
    grammar = (ROOT / "dsl" / "expressions.lark").read_text(encoding="utf-8")
    rules = ["expr", "or_test", "and_test", "not_test", "comparison", "sum", "product", "unary",
             "postfix"]
    levels = []
    for rule in rules:
        body = re.search(rf"^\?{rule}:(.*?)(?=^\S)", grammar, re.S | re.M).group(1)
        ops = set(re.findall(r'"([^"\w]+|\w+)"', body))
        if "COMP_OP" in body:
            ops |= set(re.search(r'^COMP_OP:(.*)$', grammar, re.M).group(1).replace(
                '"', "").replace("|", " ").split())
        levels.append(ops)
    return levels


def test_the_precedence_table_follows_the_grammar():
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    table = text.split("### Operators and precedence", 1)[1].split("\n\n")[2]
    rows = [r for r in table.splitlines() if re.match(r"\| \d+ \|", r)]
    levels = _grammar_levels()
    assert len(rows) == len(levels)
    for row, ops in zip(rows, levels, strict=True):
        syntax = row.split("|")[2]
        for op in ops - {"(", ")", "[", "]", ",", "for"}:
            shown = {".": "A.field", "if": "if C", "then": "then A", "else": "else B"}.get(op, op)
            assert shown in syntax, f"{op!r} belongs in row {row!r}"


def test_every_error_code_is_documented():
    text = (DOCS / "errors.md").read_text(encoding="utf-8")
    for code in CODES:
        assert f"### `{code}`" in text


def test_the_architecture_lists_every_module():
    text = (DOCS / "architecture.md").read_text(encoding="utf-8")
    for package in ("dsl", "interpreter"):
        for path in sorted((ROOT / package).iterdir()):
            if path.suffix in (".py", ".lark"):
                assert f"`{package}/{path.name}`" in text, f"{package}/{path.name}"


def test_committed_schema_is_the_generated_schema():
    assert (ROOT / "schema" / "ruleset.schema.json").read_text(encoding="utf-8") == schema_json()
