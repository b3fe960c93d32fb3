"""`policy-peeks`: a bot policy that reads what its player cannot see is refused, unless it
says it is an all-seeing yardstick (`sees: everything`)."""

from __future__ import annotations

from pathlib import Path

from dsl import validate_text
from dsl.diagnostics import Severity
from interpreter.engine.chance import SeededChance
from interpreter.engine.decisions import Controller, PolicyController
from interpreter.engine.setup import load, new_game

ROOT = Path(__file__).resolve().parent.parent

RULESET = """\
meeple: 1
metadata: {name: Fairness test}
players: {min: 2, max: 2}
components:
  dice:
    die: {sides: 6, count: 4, in: box}
  zones:
    box: {kind: row}
    deck: {kind: deck, visibility: hidden}
    cup: {kind: hand, owner: player, visibility: owner}
  timers:
    clock: {visibility: others}
state:
  global:
    secret: {type: int, initial: 3, visibility: hidden}
    open: {type: int, initial: 1}
    held: {type: die, initial: none}
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
    SEES
    decide:
      pick:
        - when: WHEN
          choose: a
        - choose: b
"""


def peeks(when: str, sees: str = "") -> list[tuple[str, int, int, str]]:
    text = RULESET.replace("WHEN", f'"{when}"').replace("SEES", sees or "doc: a bot")
    result = validate_text(text, "t.yaml")
    assert all(d.code == "policy-peeks" and d.severity is Severity.ERROR
               for d in result.diagnostics), result.diagnostics
    assert result.ok is (not result.diagnostics)  # a peeking policy makes the ruleset invalid
    return [(d.code, d.span.line, d.span.column, d.message) for d in result.diagnostics]


def test_a_policy_may_read_public_state_and_its_own_fields_and_zones():
    assert peeks("open > 0 and me.notes > 0 and me.score >= current.score") == []
    assert peeks("any(p.score > me.score for p in players)") == []
    assert peeks("count(d for d in me.cup if d.face == 6) > 1") == []


def test_how_many_items_any_zone_holds_is_public():
    assert peeks("sum(count(p.cup) for p in players) > count(deck) + count(die)") == []


def test_reading_a_hidden_variable_is_an_error_at_its_place():
    assert peeks("open > 0 and secret > 2") == [
        ("policy-peeks", 35, 31, "policy 'bot' reads `secret`, which is hidden from every "
                                 "player: the bot would decide on what its player cannot know")]


def test_reading_another_players_owner_field_is_an_error():
    found = peeks("any(p.notes > 0 for p in players)")
    assert [(code, msg.split(",")[0]) for code, _, _, msg in found] == [
        ("policy-peeks", "policy 'bot' reads `.notes`")]
    assert "read your own as `me.notes`" in found[0][3]


def test_reading_ones_own_others_field_is_an_error_but_not_another_players():
    assert [code for code, *_ in peeks("me.bluff > 0")] == ["policy-peeks"]
    assert peeks("any(p.bluff > 0 for p in opponents(me))") == []


def test_looking_into_another_players_cup_is_an_error():
    found = peeks("any(d.face == 6 for d in current.cup)")
    assert [msg.split(",")[0] for *_, msg in found] == ["policy 'bot' reads `.cup`"]


def test_looking_into_a_face_down_deck_is_an_error_but_counting_it_is_not():
    found = peeks("first(deck) == none")
    assert [msg.split(",")[0] for *_, msg in found] == ["policy 'bot' reads the zone `deck`"]


def test_a_timer_some_player_cannot_see_is_an_error():
    found = peeks("remaining(clock) < 3")
    assert [msg.split(",")[0] for *_, msg in found] == ["policy 'bot' reads the timer `clock`"]


def test_dice_read_by_name_where_dice_may_lie_in_a_cup_are_an_error():
    found = peeks("any(d.face == 6 for d in die) or held.face == 6")
    assert [msg.split(",")[0] for *_, msg in found] == ["policy 'bot' reads `die`",
                                                         "policy 'bot' reads `held`"]


def test_a_policy_that_says_it_sees_everything_may_read_anything():
    assert peeks("secret > 2 and remaining(clock) < 3 and first(deck) == none",
                 sees="sees: everything") == []


def test_sees_everything_is_inherited_and_marks_the_seat(tmp_path):
    text = RULESET.replace("WHEN", '"secret > 2"').replace("SEES", "sees: everything") + """\
  child:
    extends: bot
    decide:
      pick: [{choose: b}]
"""
    assert validate_text(text, "t.yaml").diagnostics == []
    path = tmp_path / "t.yaml"
    path.write_text(text)
    program = load(str(path)).program
    names = {n: PolicyController(p).name for n, p in program.policies.items()}
    assert names == {"bot": "policy:bot (sees everything)",
                     "child": "policy:child (sees everything)"}


def test_no_shipped_policy_reads_hidden_information():
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        base = load(str(path)).program  # loading refuses a peeking policy
        for variant in [None, *(base.data.get("variants") or {})]:
            program = load(str(path), variant).program
            for name, policy in program.policies.items():
                assert not policy.sees_everything, (path.name, variant, name)


class ClockBlind(Controller):
    """Asks the seat's policy twice at each dive decision: as the game stands, and with the
    dive timer moved a minute on. A bot that cannot see the clock answers the same."""

    def __init__(self, inner: PolicyController, differences: list):
        self.inner, self.differences, self.name = inner, differences, inner.name

    def decide(self, game, request):
        chosen = self.inner.decide(game, request)
        timer = game.timers["dive"]
        if request.id == "dive_action" and timer.running:
            timer.started_at -= 60
            again = self.inner.decide(game, request)
            timer.started_at += 60
            if again.key != chosen.key:
                self.differences.append(chosen.key)
        return chosen


def _clock_readings(variant: str | None) -> list:
    program = load(str(ROOT / "rulesets" / "wreckdivers.yaml"), variant).program
    differences: list = []
    for seed in range(5):
        ctrls = {i: ClockBlind(PolicyController(program.policies["threshold"]), differences)
                 for i in (1, 2, 3)}
        assert new_game(program, 3, None, SeededChance(seed), seed,
                        controllers=ctrls).run().error is None
    return differences


def test_under_the_hidden_timer_the_divers_bots_play_without_the_clock():
    assert _clock_readings(None) != []  # in the base game the clock decides some ascents
    assert _clock_readings("hidden_timer") == []
