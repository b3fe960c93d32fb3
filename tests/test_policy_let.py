"""Policy rules that name values with `let`: worked out once before `when`, or for each option
when they use `option`; the checker keeps option-dependent names out of `when`."""

from __future__ import annotations

from dsl import validate_text
from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load, new_game

RULESET = """\
meeple: 1
metadata: {name: Let test}
players: {min: 1, max: 1}
parameters:
  gate: {default: 5, doc: The least bonus at which the first rule applies.}
state:
  player:
    score: 3
flow:
  phases:
    play:
      do:
        - choose: pick
          options: [low, mid, high]
        - say: "{current.name} picks {pick}"
policies:
  weigher:
    default: true
    decide:
      pick:
        - let:
            bonus: "me.score + 4"
            weight: "if option == 'high' then 1 else if option == 'mid' then 3 else 2"
            value: "weight * bonus"
          when: "bonus > gate"
          best: "value"
        - choose: high
"""


def picked(tmp_path, text: str) -> str:
    path = tmp_path / "let.yaml"
    path.write_text(text)
    program = load(str(path)).program
    g = new_game(program, 1, None, SeededChance(0), 0)
    g.run()
    return [r["text"] for r in g.log if r["t"] == "say"][-1]


def test_let_names_are_worked_out_before_when_and_for_each_option_in_best(tmp_path):
    # bonus = 7 > 5: the first rule applies; weight (per option) makes mid the best.
    assert picked(tmp_path, RULESET) == "Player 1 picks mid"
    # bonus = 7 is not above 9: the rule does not apply and the next one picks high.
    assert picked(tmp_path, RULESET.replace("default: 5", "default: 9")) == "Player 1 picks high"


def test_when_cannot_use_a_name_that_depends_on_option():
    found = validate_text(RULESET.replace('when: "bonus > gate"', 'when: "value > gate"'),
                          "t.yaml").diagnostics
    assert [(d.code, d.span.line) for d in found] == [("unknown-name", 25)]
    assert "value" in found[0].message


def test_a_let_name_must_be_new():
    for taken in ("gate", "me", "score_of_nothing"):
        text = RULESET.replace('            bonus: "me.score + 4"\n',
                               f'            {taken}: "1"\n            bonus: "me.score + 4"\n')
        found = [(d.code, d.span.line) for d in validate_text(text, "t.yaml").diagnostics]
        if taken == "score_of_nothing":
            assert found == []  # a new name is fine
        else:
            assert found == [("duplicate-name", 22)], taken


CHOOSE = """\
meeple: 1
metadata: {name: Let in a choose rule}
players: {min: 1, max: 1}
flow:
  phases:
    play:
      do:
        - choose: pick
          options: [low, high]
        - say: "{current.name} picks {pick}"
policies:
  namer:
    default: true
    decide:
      pick:
        - let:
            far: "count(players) + 1"
            name: "if far > 1 then 'low' else 'high'"
          when: "far == 2"
          choose: name
"""


def test_a_let_in_a_choose_rule_is_visible_to_its_when_and_pick(tmp_path):
    assert validate_text(CHOOSE, "t.yaml").diagnostics == []
    assert picked(tmp_path, CHOOSE) == "Player 1 picks low"
    # With `option` out of reach (no `best`), a name using it is unknown.
    bad = CHOOSE.replace("count(players) + 1", "count(players) + option")
    assert [d.code for d in validate_text(bad, "t.yaml").diagnostics] == ["unknown-name"]


SHARED = """\
meeple: 1
metadata: {name: Policy-wide names}
players: {min: 1, max: 1}
parameters:
  gate: {default: 5, doc: The least bonus at which the first rule applies.}
state:
  player:
    score: 3
flow:
  phases:
    play:
      do:
        - choose: opening
          options: [low, mid, high]
        - choose: reply
          options: [low, mid, high]
        - say: "{opening} {reply}"
policies:
  shared:
    default: true
    let:
      bonus: "me.score + 4"
      never: "1 // 0"
      weight: "if option == 'high' then 1 else if option == 'mid' then 3 else 2"
    decide:
      opening:
        - when: "bonus > gate"
          best: "weight * bonus"
        - choose: high
      reply:
        - let:
            flip: "0 - weight"
          best: "flip"
"""


def test_a_policys_own_let_names_serve_every_decision_and_are_worked_out_only_when_read(
        tmp_path):
    # `never` would divide by zero: no rule reads it, so it is never worked out.
    assert validate_text(SHARED, "t.yaml").diagnostics == []
    assert picked(tmp_path, SHARED) == "mid high"
    assert picked(tmp_path, SHARED.replace("default: 5", "default: 9")) == "high high"


def test_a_policy_name_that_uses_option_is_out_of_reach_of_when_and_choose():
    found = validate_text(SHARED.replace('when: "bonus > gate"', 'when: "weight > 1"'),
                          "t.yaml").diagnostics
    assert [(d.code, d.span.line) for d in found] == [("unknown-name", 27)]
    shadow = SHARED.replace('flip: "0 - weight"', 'bonus: "0 - weight"').replace(
        'best: "flip"', 'best: "bonus"')
    assert [d.code for d in validate_text(shadow, "t.yaml").diagnostics] == ["duplicate-name"]
