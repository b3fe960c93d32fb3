"""Policies that `extends` another: the parent's `let` names and decisions, with the child's
own replacing them by name; checked once, where they are written; compiled, specialized and
written up whole."""

from __future__ import annotations

from dsl import validate_text
from interpreter.compile.specialize import specialize
from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load, new_game

RULESET = """\
meeple: 1
metadata: {name: Extends test}
players: {min: 1, max: 1}
parameters:
  bar: {default: 2, doc: The value at which the base bot is content.}
flow:
  phases:
    play:
      do:
        - choose: opening
          options: [low, high]
        - choose: reply
          options: [low, high]
        - say: "{opening} {reply}"
      next: end
policies:
  base:
    default: true
    let:
      content: "bar > 1"
    decide:
      opening:
        - when: content
          choose: low
        - choose: high
      reply: [{choose: high}]
  child:
    extends: base
    let:
      content: "bar > 5"
    decide:
      reply: [{choose: low}]
"""


def said(tmp_path, text: str, policy: str) -> str:
    path = tmp_path / "extends.yaml"
    path.write_text(text)
    g = new_game(load(str(path)).program, 1, {1: policy}, SeededChance(0), 0)
    g.run()
    return [r["text"] for r in g.log if r["t"] == "say"][-1]


def test_a_child_policy_keeps_the_parents_decisions_and_replaces_its_own(tmp_path):
    assert validate_text(RULESET, "t.yaml").diagnostics == []
    assert said(tmp_path, RULESET, "base") == "low high"
    # The child's `content` (bar > 5) replaces the parent's, also in the inherited rule for
    # `opening`; its own rule for `reply` replaces the parent's.
    assert said(tmp_path, RULESET, "child") == "high low"


def test_an_unknown_parent_or_a_cycle_is_reported_on_the_extends():
    unknown = validate_text(RULESET.replace("extends: base", "extends: bsae"), "t.yaml")
    assert [(d.code, d.span.line) for d in unknown.diagnostics] == [("unknown-reference", 28)]
    assert "'bsae' is not a policy" in unknown.diagnostics[0].message
    cycle = validate_text(RULESET.replace("    default: true\n",
                                          "    default: true\n    extends: child\n"), "t.yaml")
    assert [d.code for d in cycle.diagnostics] == ["unknown-reference"]
    assert "comes back to itself" in cycle.diagnostics[0].message


def test_a_mistake_in_an_inherited_rule_is_reported_once_where_it_is_written():
    broken = RULESET.replace("      reply: [{choose: high}]", "      reply: [{choose: hihg}]")
    found = validate_text(broken, "t.yaml").diagnostics
    assert [(d.code, d.path[:2]) for d in found] == [("unknown-option", ("policies", "base"))]


def test_a_child_policy_is_specialized_whole(tmp_path):
    path = tmp_path / "extends.yaml"
    path.write_text(RULESET)
    program = load(str(path)).program
    special = specialize(program, 1, {1: "child"})
    assert special is not None
    played = special.play(0)
    assert played.chosen == {("opening", "high"): 1, ("reply", "low"): 1}
