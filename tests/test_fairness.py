"""`policy-peeks`: a warning when a bot policy reads state its player cannot see."""

from __future__ import annotations

from dsl import validate_text
from dsl.diagnostics import Severity

RULESET = """\
meeple: 1
metadata: {name: Fairness test}
players: {min: 2, max: 2}
state:
  global:
    secret: {type: int, initial: 3, visibility: hidden}
    open: {type: int, initial: 1}
  player:
    notes: {type: int, initial: 0, visibility: owner}
    bluff: {type: int, initial: 0, visibility: others}
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      do:
        - choose: pick
          options: [a, b]
        - say: "{pick}"
policies:
  bot:
    default: true
    decide:
      pick:
        - when: WHEN
          choose: a
        - choose: b
"""


def warnings(when: str) -> list[tuple[str, int, int, str]]:
    result = validate_text(RULESET.replace("WHEN", f'"{when}"'), "t.yaml")
    assert all(d.severity is Severity.WARNING for d in result.diagnostics)
    assert result.ok  # a warning does not make the ruleset invalid
    return [(d.code, d.span.line, d.span.column, d.message) for d in result.diagnostics]


def test_a_policy_may_read_public_state_and_its_own_fields():
    assert warnings("open > 0 and me.notes > 0 and me.score >= current.score") == []
    assert warnings("any(p.score > me.score for p in players)") == []


def test_reading_a_hidden_variable_is_a_warning_at_its_place():
    assert warnings("open > 0 and secret > 2") == [
        ("policy-peeks", 24, 31, "policy 'bot' reads `secret`, which is hidden from every "
                                 "player: the bot would decide on what its player cannot know")]


def test_reading_another_players_owner_field_is_a_warning():
    found = warnings("any(p.notes > 0 for p in players)")
    assert [(code, msg.split(",")[0]) for code, _, _, msg in found] == [
        ("policy-peeks", "policy 'bot' reads `.notes`")]
    assert "read your own as `me.notes`" in found[0][3]


def test_reading_ones_own_others_field_is_a_warning_but_not_another_players():
    assert [code for code, *_ in warnings("me.bluff > 0")] == ["policy-peeks"]
    assert warnings("any(p.bluff > 0 for p in opponents(me))") == []
