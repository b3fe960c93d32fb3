"""`meeple validate` and `meeple schema` from the outside: exit codes, text and JSON output.

Exit codes: 0 every file valid, 1 any file invalid (or missing), 2 a usage error. Diagnostics go
to stdout, the one-line summary to stderr.
"""

from __future__ import annotations

import json
import subprocess
import sys

from click.testing import CliRunner

from dsl.diagnostics import CODES
from interpreter.cli.main import main
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.conftest import ROOT

PIG = "rulesets/pig.yaml"
BROKEN = "tests/errors/01_unknown_name.yaml"
SEVERAL = "tests/errors/37_several_errors_sorted.yaml"
DIAGNOSTIC_KEYS = {"code", "severity", "message", "file", "line", "column", "path", "hint"}


def meeple(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "interpreter.cli", *args],
                          capture_output=True, text=True, cwd=ROOT)


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


def test_a_valid_ruleset_exits_0_with_nothing_on_stdout(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("validate", PIG)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert "1 ruleset valid" in result.stderr


def test_a_broken_ruleset_exits_1_and_prints_located_errors(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("validate", BROKEN)
    assert result.exit_code == 1
    assert result.stdout.startswith(f"{BROKEN}:59:19: error: unknown name 'roll_or_hld'")
    assert "1 error in 1 of 1 file" in result.stderr


def test_no_arguments_is_a_usage_error_exiting_2():
    proc = meeple("validate")
    assert proc.returncode == 2
    assert "Usage:" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_an_unknown_option_or_format_is_a_usage_error_exiting_2(monkeypatch):
    monkeypatch.chdir(ROOT)
    assert invoke("validate", "--format", "xml", PIG).exit_code == 2
    assert invoke("validate", "--colour", PIG).exit_code == 2
    assert invoke("no-such-command").exit_code == 2


def test_a_missing_file_is_a_file_not_found_error_exiting_1(tmp_path):
    missing = tmp_path / "missing.yaml"
    proc = meeple("validate", str(missing))
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert "error: cannot read" in proc.stdout and "[file-not-found]" in proc.stdout
    assert str(missing) in proc.stdout


def test_a_missing_file_in_json_has_code_file_not_found(tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("validate", "--format", "json", str(tmp_path / "nope.yaml"))
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert out["valid"] is False
    (diag,) = out["files"][0]["diagnostics"]
    assert diag["code"] == "file-not-found" and diag["severity"] == "error"


def test_json_output_has_the_documented_shape(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("validate", "--format", "json", SEVERAL)
    assert result.exit_code == 1
    out = json.loads(result.stdout)
    assert set(out) >= {"valid", "errors", "files"}
    assert out["valid"] is False and out["errors"] == 3
    (file,) = out["files"]
    assert file["file"] == SEVERAL and file["valid"] is False
    diags = file["diagnostics"]
    assert len(diags) == 3
    for d in diags:
        assert DIAGNOSTIC_KEYS <= set(d)
        assert d["code"] in CODES and d["severity"] == "error"
        assert d["file"] == SEVERAL
        assert isinstance(d["line"], int) and isinstance(d["column"], int)
        assert d["path"].startswith("$.")
        assert d["hint"] is None or isinstance(d["hint"], str)
    assert [(d["line"], d["column"]) for d in diags] == [(55, 37), (62, 13), (69, 17)]
    assert diags[1]["code"] == "unknown-phase"
    assert diags[1]["path"] == "$.flow.phases.play.next"
    assert diags[1]["hint"] == "name a phase under flow.phases, or `end`"


def test_json_output_of_a_valid_ruleset_says_valid_with_no_diagnostics(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("validate", "--format", "json", PIG)
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert out == {"valid": True, "errors": 0, "warnings": 0,
                   "files": [{"file": PIG, "valid": True, "diagnostics": []}]}


def test_warnings_are_shown_and_counted_but_leave_a_ruleset_valid(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    text = (ROOT / PIG).read_text()
    shadowing = tmp_path / "shadowing.yaml"
    old = 'when: "any(p.score >= goal for p in players)"'
    assert old in text
    shadowing.write_text(text.replace(old, 'when: "any(p.score >= goal for p in players if '
                                           'any(p.score >= 0 for p in players))"'))
    result = invoke("validate", str(shadowing))
    assert result.exit_code == 0
    assert ": warning: " in result.stdout and "[shadowed-name]" in result.stdout
    assert result.stderr.strip() == "1 ruleset valid, 1 warning"
    out = json.loads(invoke("validate", "--format", "json", str(shadowing)).stdout)
    assert (out["valid"], out["errors"], out["warnings"]) == (True, 0, 1)
    assert out["files"][0]["diagnostics"][0]["severity"] == "warning"


def test_a_peeking_policy_is_an_error(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    text = (ROOT / "tests" / "errors" / "58_bot_peeks_at_hidden_state.yaml").read_text()
    peeking = tmp_path / "peeking.yaml"
    peeking.write_text(text.replace("choose: four", "choose: 3"))
    result = invoke("validate", str(peeking))
    assert result.exit_code == 1
    assert ": error: policy 'cheat' reads `treasure_at`" in result.stdout


def test_several_files_at_once_report_each_and_exit_1_if_any_is_invalid(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("validate", PIG, BROKEN, SEVERAL)
    assert result.exit_code == 1
    expected = "".join((ROOT / p).with_suffix(".expected").read_text() for p in (BROKEN, SEVERAL))
    assert result.stdout == expected
    assert "4 errors in 2 of 3 files" in result.stderr
    out = json.loads(invoke("validate", "--format", "json", PIG, BROKEN).stdout)
    assert [f["valid"] for f in out["files"]] == [True, False]
    assert out["valid"] is False and out["errors"] == 1


def test_several_valid_files_exit_0(monkeypatch):
    monkeypatch.chdir(ROOT)
    result = invoke("validate", PIG, PIG)
    assert result.exit_code == 0
    assert "2 rulesets valid" in result.stderr


def test_schema_prints_valid_json_equal_to_the_committed_schema():
    proc = meeple("schema")
    assert proc.returncode == 0
    printed = json.loads(proc.stdout)
    committed = json.loads((ROOT / "schema" / "ruleset.schema.json").read_text())
    assert printed == committed
    assert printed["type"] == "object" and "flow" in printed["properties"]


def test_validate_exit_codes_through_a_real_process():
    assert meeple("validate", PIG).returncode == 0
    assert meeple("validate", BROKEN).returncode == 1
    assert meeple("validate").returncode == 2


def _imported(code: str) -> str:
    """The modules of meeple (and logging, pickle, difflib) a fresh process has imported once
    it has run `code`, as the printed sorted list."""
    probe = (f"import sys\n{code}"
             "print(sorted(m for m in sys.modules if m.startswith('interpreter.')"
             " or m in ('logging', 'pickle', 'difflib')))\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def test_validate_imports_only_what_checking_needs():
    """Start-up is most of a validation's time: the engine, the simulator, the specializer and
    the rulebook are imported by the commands that use them, not by `validate`."""
    loaded = _imported("from interpreter.cli.main import main\n"
                       "try:\n"
                       f"    main(['validate', '{PIG}'])\n"
                       "except SystemExit as e:\n"
                       "    assert e.code == 0, e.code\n")
    for heavy in ("interpreter.engine.game", "interpreter.simulate.runner", "interpreter.compile.specialize",
                  "interpreter.rulebook.book", "interpreter.cli.run"):
        assert f"'{heavy}'" not in loaded, loaded
    # Nor the standard library's logging and pickle (the expression parser's, dsl/grammar_build
    # .py `quiet`) or difflib (a misspelling's suggestion): a tenth of the start-up together.
    for unused in ("logging", "pickle", "difflib"):
        assert f"'{unused}'" not in loaded, loaded


def test_simulate_and_rules_import_no_other_commands_modules():
    """`meeple simulate` and `meeple rules` say a ruleset that cannot be played as `run` does
    (interpreter/cli/failed.py), without importing `run` and the table it plays at (people's
    decisions, narration, views, journals)."""
    loaded = _imported("import interpreter.cli.simulate, interpreter.cli.rules\n")
    for other in ("interpreter.cli.run", "interpreter.cli.run_generated", "interpreter.table.human",
                  "interpreter.table.narrate", "interpreter.table.view_model",
                  "interpreter.table.journal"):
        assert f"'{other}'" not in loaded, loaded


def test_every_command_is_listed_and_each_loads_when_asked_for():
    listed = invoke("--help").output
    for name in ("validate", "schema", "run", "replay", "simulate", "rules"):
        assert f"  {name} " in listed
        assert invoke(name, "--help").exit_code == 0


JUMPING = """\
meeple: 1
metadata: {name: Jumping}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
state:
  global:
    n: {type: int, initial: 0}
    rows: {type: list, initial: "[[0]]"}
flow:
  phases:
    a:
      do:
        - roll: d
        - add: {n: 1}
        - if: "n > 1000"
          then:
            - set: {"rows[0][0]": 1}
      next: end
end: {when: "n >= 3"}
scoring: {score: "n", order: highest}
variants:
  quick:
    merge:
      state:
        global:
          n: {type: int, initial: 2}
  jumpy:
    merge:
      flow:
        phases:
          a:
            do:
              - roll: d
              - add: {n: 1}
              - if: "n > 2000"
                then:
                  - set: {"rows[0][0]": 2}
            next: end
"""


def test_validate_compile_says_every_shipped_ruleset_and_variant_is_generated(monkeypatch):
    monkeypatch.chdir(ROOT)
    paths = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rulesets").glob("*.yaml"))
    result = invoke("validate", "--compile", "--format", "json", *paths)
    assert result.exit_code == 0
    out = json.loads(result.stdout)
    assert [f["generated"] for f in out["files"]] == [True] * len(paths)
    # Games people play, at the terminal and at a referee's table that counts (races they
    # report, by claims or by counts, included): all generated too.
    assert not [d for f in out["files"] for d in f["diagnostics"]
                if d["code"] in ("not-generated", "people-not-generated")]


def test_validate_compile_says_so_in_words(monkeypatch):
    # The text report of the same check, on one ruleset with variants (compiling every
    # shipped ruleset once more, for the words alone, would double the check's time).
    monkeypatch.chdir(ROOT)
    result = invoke("validate", "--compile", "rulesets/wreckdivers.yaml")
    assert result.exit_code == 0
    assert "[not-generated]" not in result.stdout and "[people-not-generated]" not in result.stdout
    assert "bot games of every ruleset and variant run on the generated code" in result.stderr


def test_validate_compile_warns_where_games_people_play_are_not_generated(tmp_path):
    # A count whose face is a text where the dice show numbers: bot games are generated (they
    # never take counts), games with people and at a counting table are not, said once, at
    # the first such face.
    text = (ROOT / "rulesets" / "shipwrecked.yaml").read_text(encoding="utf-8")
    face = ('              face: "if item.colour == \'white\' then white_captain.face '
            'else black_captain.face"\n')
    assert text.count(face) == 2
    path = tmp_path / "texts.yaml"
    path.write_text(text.replace(face, '              face: "text(white_captain.face)"\n'),
                    encoding="utf-8")
    line = text.splitlines().index(face.rstrip("\n")) + 1
    result = invoke("validate", "--compile", str(path))
    assert result.exit_code == 0 and "bot games of every ruleset and variant" in result.stderr
    assert result.stdout.count("[people-not-generated]") == 1
    assert (f"texts.yaml:{line}:21: warning: games with people are played by the reference "
            "interpreter: the code generator does not handle a count's face of another kind "
            "than the dice's faces yet [people-not-generated]") in result.stdout


def test_validate_compile_warns_at_each_rule_the_generator_does_not_handle(tmp_path):
    # The base's set of an item of a list in a list keeps the base and the variant that does
    # not touch the flow from the generated code: one warning at that rule, naming both; the
    # variant with its own flow has its own such set, warned at its line in the variant's merge.
    path = tmp_path / "jumping.yaml"
    path.write_text(JUMPING, encoding="utf-8")
    lines = JUMPING.splitlines()
    base_line = lines.index('            - set: {"rows[0][0]": 1}') + 1
    own_line = lines.index('                  - set: {"rows[0][0]": 2}') + 1
    result = invoke("validate", "--compile", str(path))
    assert result.exit_code == 0  # warnings: the ruleset is valid, and its games play
    assert result.stdout.count("[not-generated]") == 2
    assert (f"jumping.yaml:{base_line}:15: warning: bot games of the ruleset and with variant "
            "'quick' are played by the reference interpreter") in result.stdout
    assert (f"jumping.yaml:{own_line}:21: warning: bot games with variant 'jumpy' are played "
            "by the reference interpreter") in result.stdout
    assert "does not handle a set of an item of a list in a list yet" in result.stdout
    assert "bot games of 1 of them are played by the reference interpreter" in result.stderr
    out = json.loads(invoke("validate", "--compile", "--format", "json", str(path)).stdout)
    assert out["valid"] and out["warnings"] == 2 and out["files"][0]["generated"] is False
    assert sorted(d["line"] for d in out["files"][0]["diagnostics"]) == [base_line, own_line]
    # Without --compile nothing is generated: no such warning, no `generated` field.
    plain = invoke("validate", "--format", "json", str(path))
    assert "generated" not in json.loads(plain.stdout)["files"][0]
    assert "not-generated" not in plain.stdout


def test_validate_compile_warns_where_an_event_people_raise_has_rules_not_generated(tmp_path):
    # An event people may raise is raised by its own generated function in every logged game:
    # rules there the generator does not write keep those games (only they) from the
    # generated code, said at the rule, never a hand-over to the interpreter mid-game.
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    rule = '      - set: {turn_total: "count([x for x in [1, \'a\'] if x == 1])"}\n'
    events = ("events:\n  cheer:\n    doc: The table cheers.\n    raised_by: any\n"
              "triggers:\n  cheered:\n    on: cheer\n    do:\n" + rule)
    assert text.count("\nflow:\n") == 1
    path = tmp_path / "cheer.yaml"
    path.write_text(text.replace("\nflow:\n", "\n" + events + "flow:\n"), encoding="utf-8")
    line = path.read_text(encoding="utf-8").splitlines().index(rule.rstrip("\n")) + 1
    result = invoke("validate", "--compile", str(path))
    assert result.exit_code == 0 and "bot games of every ruleset and variant" in result.stderr
    assert (f"cheer.yaml:{line}:9: warning: games with people are played by the reference "
            "interpreter: the code generator does not handle a mixed list yet "
            "[people-not-generated]") in result.stdout
    program = load(str(path)).program
    assert specialize(program) is not None
    assert specialize(program, logged=True) is None
