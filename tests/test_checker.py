"""The checker's scoping, references and variants, on small neutral rulesets."""

from __future__ import annotations

import textwrap

from dsl import validate_text

HEAD = """\
meeple: 1
metadata: {name: Test}
players: {min: 2, max: 2}
parameters:
  goal: {default: 10, min: 1, doc: Points to win.}
components:
  dice:
    die: {sides: 6}
    pair: {sides: 6, count: 2}
  zones:
    bag: {kind: bag}
    hand: {kind: hand, owner: player}
state:
  global:
    pot: 0
  player:
    score: 0
"""


def check(flow: str, extra: str = "") -> list[tuple[str, int, str]]:
    text = HEAD + textwrap.dedent(flow) + textwrap.dedent(extra)
    result = validate_text(text, "t.yaml")
    return [(d.code, d.span.line if d.span else 0, d.message) for d in result.diagnostics]


def codes(flow: str, extra: str = "") -> list[str]:
    return [c for c, _, _ in check(flow, extra)]


def test_names_bound_by_for_each_are_visible_only_inside_its_body():
    found = check("""\
    flow:
      phases:
        play:
          do:
            - for_each: p
              in: players
              do: [add: {p.score: 1}]
            - add: {p.score: 1}
    """)
    assert [(c, line) for c, line, _ in found] == [("unknown-name", 25)]


def test_let_binds_a_name_for_the_following_steps_only():
    found = codes("""\
    flow:
      phases:
        play:
          do:
            - say: "{bonus}"
            - let: bonus
              be: total(pair) * 2
            - add: {pot: bonus}
    """)
    assert found == ["unknown-name"]


def test_a_drawn_item_is_named_by_as_for_later_steps():
    assert codes("""\
    flow:
      phases:
        play:
          do:
            - draw: bag
              as: item
            - move: item
              to: current.hand
    """) == []


def test_per_player_state_read_bare_is_an_unknown_name_with_a_hint():
    result = validate_text(HEAD + textwrap.dedent("""\
    flow:
      phases:
        play:
          do: [add: {pot: score}]
    """), "t.yaml")
    (diag,) = result.diagnostics
    assert diag.code == "unknown-name" and "current.score" in diag.hint


def test_setting_a_parameter_is_not_assignable():
    assert codes("""\
    flow:
      phases:
        play:
          do: [set: {goal: 3}]
    """) == ["not-assignable"]


def test_a_dice_group_is_a_list_and_a_single_die_has_a_face():
    assert codes("""\
    flow:
      phases:
        play:
          do:
            - roll: [die, pair]
            - add: {pot: "die.face + total(pair)"}
    """) == []
    assert codes("""\
    flow:
      phases:
        play:
          do: [add: {pot: pair.face}]
    """) == ["unknown-field"]


def test_policy_may_name_an_option_bare_but_not_an_unknown_one():
    flow = """\
    flow:
      phases:
        play:
          turns: {order: clockwise}
          do:
            - choose: go
              options: [roll, stop]
    """
    ok = """\
    policies:
      bot:
        default: true
        decide:
          go: [{when: "pot > 3", choose: stop}, {choose: roll}]
    """
    assert codes(flow, ok) == []
    bad = ok.replace("choose: stop}", "choose: stpo}")
    found = check(flow, bad)
    assert [c for c, _, _ in found] == ["unknown-option"]
    assert "did you mean 'stop'" in found[0][2]


def test_variant_overlay_is_checked_and_located_in_the_variant():
    found = check("""\
    flow:
      phases:
        play:
          do: [add: {pot: 1}]
    variants:
      broken:
        doc: an overlay with a misspelt name
        merge:
          end:
            when: "pot >= gaol"
    """)
    assert [(c, line) for c, line, _ in found] == [("unknown-name", 27)]
    assert "with variant 'broken'" in found[0][2]


def test_variant_setting_a_parameter_out_of_range_is_reported():
    assert codes("""\
    flow:
      phases:
        play:
          do: [add: {pot: 1}]
    variants:
      quick:
        doc: a short game
        set: {goal: 0}
    """) == ["bad-parameter-value"]


def test_conditional_next_must_name_declared_phases():
    found = check("""\
    flow:
      phases:
        play:
          do: [add: {pot: 1}]
          next:
            - {if: "pot > goal", to: end}
            - {to: plya}
    """)
    assert [c for c, _, _ in found] == ["unknown-phase"]
    assert "did you mean 'play'" in found[0][2]


def test_variant_overlay_with_a_wrong_type_is_a_located_schema_error():
    found = check("""\
    flow:
      phases:
        play:
          do: [add: {pot: 1}]
    variants:
      crowded:
        doc: more players, misspelt
        merge:
          players: {max: many}
    """)
    assert [(c, line) for c, line, _ in found] == [("schema", 26)]
    assert "with variant 'crowded'" in found[0][2]


def test_validating_a_variant_leaves_the_base_parameters_unchanged():
    result = validate_text(HEAD + textwrap.dedent("""\
    flow:
      phases:
        play:
          do: [add: {pot: 1}]
    variants:
      quick:
        doc: a short game
        set: {goal: 5}
    """), "t.yaml")
    assert result.ok
    assert result.document.data["parameters"]["goal"]["default"] == 10


def test_an_error_inside_a_target_does_not_hide_the_values_type_error():
    found = codes("""\
    flow:
      phases:
        play:
          do:
            - set: {"players[len(true)].score": "'x'"}
    """)
    assert len(found) == 2  # the unknown function inside the target, and the value's type
    assert "type-mismatch" in found


def test_a_fraction_in_arithmetic_with_an_unknown_side_is_still_a_fraction():
    found = codes("""\
    flow:
      phases:
        play:
          do:
            - set: {pot: "sum(players[x * 1.5].seat for x in [])"}
    """)
    assert "type-mismatch" in found


def test_known_by_names_fields_every_card_of_its_deck_has():
    text = textwrap.dedent("""\
    meeple: 1
    metadata: {name: Test}
    players: {min: 1, max: 1}
    components:
      zones:
        bag: {kind: bag}
      decks:
        chips:
          in: bag
          known_by: [value, colour]
          cards: [{value: 5, tier: 2}, {value: 10, tier: 2, colour: red}]
    flow:
      phases:
        play:
          do: [{draw: bag, as: chip}]
    """)
    found = [(d.code, d.span.line, d.message) for d in validate_text(text, "t.yaml").diagnostics]
    assert found == [("unknown-field", 10, "'colour' is not a field of 1 of the 'chips' cards, "
                                           "so it cannot tell them apart")]
    assert validate_text(text.replace("value, colour", "value"), "t.yaml").diagnostics == []


def test_an_option_label_names_the_option_as_option_and_nothing_else_new():
    found = check("""\
    flow:
      phases:
        play:
          turns: {order: clockwise}
          do:
            - choose: pick
              options: pair
              option_label: "a die showing {option.face}"
            - choose: other
              options: pair
              option_label: "a die showing {choice.face}"
            - end_game
    """)
    assert [(c, line) for c, line, _ in found] == [("unknown-name", 28)]  # the second label
    assert "choice" in found[0][2]


def test_dice_and_cards_start_in_one_zone_of_the_table_not_a_zone_each_player_has():
    # `hand` is a zone of each player: which player's would the pieces start in?
    text = HEAD.replace("    pair: {sides: 6, count: 2}\n",
                        "    pair: {sides: 6, count: 2, in: hand}\n"
                        "  decks:\n    deck: {cards: [{v: 1}], in: hand}\n"
                        "    spare: {cards: [{v: 2}], in: bag}\n") + textwrap.dedent("""\
    flow:
      phases:
        play:
          do: [roll: die]
          next: end
    """)
    found = [(d.code, d.span.line, d.message, d.hint)
             for d in validate_text(text, "t.yaml").diagnostics]
    assert [(code, line) for code, line, _, _ in found] == [("unknown-reference", 9),
                                                            ("unknown-reference", 11)]
    assert "'hand' is a zone of each player, not one zone: dice start" in found[0][2]
    assert "cards start in a zone of the whole table" in found[1][2]
    assert "each player's hand" in found[0][3]


def test_a_decision_by_a_list_of_players_maps_each_to_their_choice_as_written_or_built():
    # The decision id maps each decider to their choice where `by` is a list of players;
    # where it is one player (`[current][0]`), it holds that player's choice alone.
    def found(by: str) -> list[str]:
        return codes("""\
        flow:
          phases:
            play:
              do:
                - choose: vote
                  by: BY
                  options: [aye, nay]
                - if: "vote[players[0]] == 'aye'"
                  then: [add: {pot: 1}]
              next: end
        """.replace("BY", by))
    for many in ("players", '"current.others"', '"(opponents(current))"',
                 '"[p for p in players if p != current]"', '"[players[1], players[0]]"',
                 '"current.others + []"', '"if pot > 1 then players else [current]"'):
        assert found(many) == [], many
    assert found('"[current][0]"') == ["type-mismatch"]
    # A team's members, in a ruleset with teams.
    with_teams = HEAD.replace("players: {min: 2, max: 2}\n",
                              "players: {min: 2, max: 2}\nteams: {names: [red, blue]}\n")
    text = with_teams + textwrap.dedent("""\
        flow:
          phases:
            play:
              do:
                - choose: vote
                  by: current.team.members
                  options: [aye, nay]
                - if: "vote[current] == 'aye'"
                  then: [add: {pot: 1}]
              next: end
        """)
    assert [d.code for d in validate_text(text, "t.yaml").diagnostics] == []
