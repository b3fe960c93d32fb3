"""Bounded work (issue 14): deep nesting, huge values and runaway loops end in located errors
within the documented limits, in validate, run and simulate; a ruleset may raise its budgets
only up to a ceiling, and a person past it with --limit."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest
from click.testing import CliRunner

from dsl.builtins import MAX_INT, MAX_ITEMS, MAX_TEXT
from dsl.limits import LIMIT_CEILINGS, MAX_PIECES, MAX_VARIANTS
from dsl.loader import load_text
from dsl.parser import MAX_DEPTH, ExprSyntaxError, parse_expression
from interpreter.cli.main import main
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load, new_game

HEAD = """\
meeple: 1
metadata: {name: Runaway}
players: {min: 1, max: 1}
"""


def _ruleset(tmp_path, body: str, name: str = "r.yaml") -> str:
    path = tmp_path / name
    path.write_text(HEAD + textwrap.dedent(body))
    return str(path)


def test_yaml_nested_thirty_thousand_deep_is_refused_located_without_a_crash(tmp_path):
    """The YAML parser recursed before any depth check, and the process died of a signal."""
    path = tmp_path / "deep.yaml"
    path.write_text("a: " + "[" * 30_000 + "]" * 30_000 + "\n")
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "validate", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr
    assert "deep.yaml:1:" in done.stdout and "[too-deep]" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_yaml_nesting_is_measured_on_the_event_stream_at_the_level_that_crosses_it():
    doc, diags = load_text("a: " + "[" * 80 + "]" * 80)
    assert doc is None and diags[0].code == "too-deep"
    # Inside the top-level mapping, 64 levels of brackets: the 65th (column 3 + 65) is refused.
    assert diags[0].span.column == 3 + 65


@pytest.mark.parametrize("text", [
    "not " * 300 + "true",
    "1" + " + 1" * 400,
    "if true then " * 80 + "1" + " else 2" * 80,
    "- " * 500 + "1",
])
def test_expressions_nested_deeper_than_the_limit_are_refused_located(text):
    with pytest.raises(ExprSyntaxError) as err:
        parse_expression(text)
    assert err.value.code == "limit-exceeded" and str(MAX_DEPTH) in err.value.message


def test_an_expression_at_the_depth_limit_still_checks_compiles_and_runs(tmp_path):
    deep = "1" + " + 1" * (MAX_DEPTH - 2)
    path = _ruleset(tmp_path, f"""\
        state:
          global:
            x: 0
        flow:
          phases:
            play:
              do:
                - set: {{x: "{deep}"}}
              next: end
        scoring: {{score: x, order: highest}}
        """)
    program = load(path).program
    result = new_game(program, 1).run()
    assert result.error is None and result.seats[0].score == MAX_DEPTH - 1
    special = specialize(program)  # and the generated code
    assert special is not None
    assert special.play(0).result.seats[0].score == MAX_DEPTH - 1


RUNAWAYS = {
    "integer squared in a loop": ('x: 2', '- repeat: [{set: {x: "x * x + 2"}}]\n'
                                          '  until: "false"', f"{MAX_INT:,}"),
    "integer doubled in a loop": ('x: 2', '- repeat: [{set: {x: "x + x"}}]\n  until: "false"',
                                  f"{MAX_INT:,}"),
    "integer added to itself in a loop": ('x: 1', '- repeat: [{add: {x: x}}]\n  until: "false"',
                                          f"{MAX_INT:,}"),
    "list added to itself in a loop": ('x: [1]', '- repeat: [{add: {x: x}}]\n  until: "false"',
                                       f"{MAX_ITEMS:,} items"),
    "text doubled in a loop": ('x: "ab"', '- repeat: [{set: {x: "x + x"}}]\n  until: "false"',
                               f"{MAX_TEXT:,} characters"),
    "list doubled in a loop": ('x: [1]', '- repeat: [{set: {x: "x + x"}}]\n  until: "false"',
                               f"{MAX_ITEMS:,} items"),
    "nested comprehensions": ('x: 0', '- set: {x: "count([[y for y in range(0, 10000)] '
                                      'for z in range(0, 10000)])"}', "limits.max_steps"),
    "a list of big texts written out": (
        'x: "abcdefghij"', '- repeat: [{set: {x: "x + x"}}]\n  times: 13\n'
                           '- set: {x: "text([x for i in range(0, 10000)])"}',
        f"{MAX_TEXT:,} characters"),
    "a built-in over a list in a comprehension": (
        'x: 0', '- set: {x: "sum([count(range(0, 10000)) for z in range(0, 10000)])"}',
        "limits.max_steps"),
}


def _runaway(tmp_path, state: str, steps: str) -> str:
    body = (f"state:\n  global:\n    {state}\nflow:\n  phases:\n    play:\n      do:\n"
            + textwrap.indent(steps, " " * 8) + "\n      next: end\n"
            "scoring: {score: 0, order: highest}\n")
    path = tmp_path / "runaway.yaml"
    path.write_text(HEAD + body)
    return str(path)


@pytest.mark.parametrize("name", list(RUNAWAYS))
def test_a_runaway_game_stops_with_a_located_error_in_run(name, tmp_path):
    state, steps, says = RUNAWAYS[name]
    result = CliRunner().invoke(main, ["run", _runaway(tmp_path, state, steps)])
    assert result.exit_code == 1, result.output
    assert "runaway.yaml:" in result.output and says in result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", list(RUNAWAYS))
def test_a_runaway_game_stops_with_the_error_in_simulate_not_a_hang(name, tmp_path):
    """The specializer plays these; it hands the seed to the interpreter, which reports."""
    state, steps, says = RUNAWAYS[name]
    path = _runaway(tmp_path, state, steps)
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "simulate", path,
                           "--games", "2", "--json"], capture_output=True, text=True,
                          timeout=120)
    assert "Traceback" not in done.stdout + done.stderr
    assert done.returncode == 1 and says in done.stdout + done.stderr


def test_a_set_of_a_billion_dice_is_refused_located_before_the_game_begins(tmp_path):
    path = _ruleset(tmp_path, """\
        components:
          dice:
            d: {sides: 6, count: 1000000000}
        flow: {phases: {play: {do: [roll: d], next: end}}}
        """)
    result = CliRunner().invoke(main, ["run", path])
    assert result.exit_code == 1
    assert "r.yaml:6:26:" in result.output and f"{MAX_PIECES:,}" in result.output


@pytest.mark.parametrize("dice", ["{sides: 6, count: 1000000}", "{sides: 1000000}"])
def test_the_code_generator_refuses_a_million_dice_at_once_not_after_filling_memory(
        tmp_path, dice):
    # specialize() is called directly too (tests, bots): it refuses what setup would stop,
    # before writing a local per die, and the interpreter gives the located error.
    path = _ruleset(tmp_path, f"""\
        components:
          dice:
            d: {dice}
        flow: {{phases: {{play: {{do: [roll: d], next: end}}}}}}
        """)
    refused: list = []
    assert specialize(load(path).program, refused=refused) is None
    assert f"past {MAX_PIECES:,}" in str(refused[0])


def test_a_ruleset_may_raise_its_budget_only_up_to_the_ceiling(tmp_path):
    over = LIMIT_CEILINGS["max_steps"] + 1
    path = _ruleset(tmp_path, f"""\
        flow: {{phases: {{play: {{do: [say: hi], next: end}}}}}}
        limits: {{max_steps: {over}}}
        """)
    result = CliRunner().invoke(main, ["validate", path])
    assert result.exit_code == 1 and "max_steps" in result.output and "r.yaml:5:" in result.output


def test_a_person_raises_a_budget_with_limit_and_the_log_keeps_it_for_replay(tmp_path):
    path = _ruleset(tmp_path, """\
        state:
          global:
            x: 0
        flow:
          phases:
            play:
              do:
                - repeat: [{add: {x: 1}}]
                  times: 50
              next: end
        limits: {max_steps: 20}
        scoring: {score: x, order: highest}
        """)
    stopped = CliRunner().invoke(main, ["run", path, "--json"])
    assert stopped.exit_code == 1 and "limits.max_steps" in stopped.output
    log = tmp_path / "game.jsonl"
    raised = CliRunner().invoke(main, ["run", path, "--json", "--limit", "max_steps=100",
                                       "--log", str(log)])
    assert raised.exit_code == 0, raised.output
    assert json.loads(raised.output)["seats"][0]["score"] == 50
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


@pytest.mark.parametrize("given", ["max_steps=0", "max_steps=ten", "steps=5", "max_steps"])
def test_a_bad_limit_is_a_usage_error(given, tmp_path):
    path = _ruleset(tmp_path, "flow: {phases: {play: {do: [say: hi], next: end}}}\n")
    result = CliRunner().invoke(main, ["run", path, "--limit", given])
    assert result.exit_code == 2 and "--limit" in result.output


def test_more_variants_than_the_limit_are_refused_quickly(tmp_path):
    variants = "".join(f"  v{i}: {{doc: v}}\n" for i in range(MAX_VARIANTS + 1))
    path = _ruleset(tmp_path, "flow: {phases: {play: {do: [say: hi], next: end}}}\n"
                              "variants:\n" + variants)
    result = CliRunner().invoke(main, ["validate", path])
    assert result.exit_code == 1 and "variants" in result.output
