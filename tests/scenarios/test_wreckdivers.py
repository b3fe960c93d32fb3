"""Scenario tests for rulesets/wreckdivers.yaml, one per rule of the rule text.

Rule ids (WD-Rn, WD-An) are those of research/seeds-analysis.md, section 1. Every expected
figure below was worked out by hand from the rule text, never read back from the engine.

Scripting: a dive is the tens choice, the dive-time roll [white[0], red[0]], then a roll or an
ascend decision at a time; each dive roll takes four faces [white[0], white[1], red[0], red[1]].
Time is modelled: a roll takes `seconds_per_roll` (4 s), the ascent signal `signal_seconds`
(0.5 s), and the dive timer starts when the diver goes under (clock 0 for the first diver).
Hazard scripts answer the `breathed` hazard once per timed step of a dive: None (no breath)
or the offset in seconds into that step at which the diver breathes.
"""

from __future__ import annotations

import json

import pytest

from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import new_game
from interpreter.table.views import state_of
from tests.scenarios.play import fired, play, program, said

ROLL = {"id": "dive_action", "choice": "roll"}
ASCEND = {"id": "dive_action", "choice": "ascend"}


def dive(time=(1, 1), tens="white", rolls=(), end="ascend"):
    """The dice and decisions of one dive: the dive-time faces (white, red), the tens colour,
    the dive rolls (four faces each) and how the dive ends: "ascend", "cut" (one more roll is
    asked for but never finishes: time or breath runs out during it, so it takes no dice) or
    None (the script stops mid-dive, at the next roll-or-ascend decision)."""
    dice = list(time)
    decisions: list = [{"id": "tens_colour", "choice": tens}]
    for faces in rolls:
        assert len(faces) == 4
        dice += list(faces)
        decisions.append(ROLL)
    if end == "ascend":
        decisions.append(ASCEND)
    elif end == "cut":
        decisions.append(ROLL)
    else:
        assert end is None
    return dice, decisions


def wd(*dives, players=2, **kw):
    """Plays Wreckdivers with these dives, one after the other in turn order."""
    dice, decisions = [], []
    for d, c in dives:
        dice += d
        decisions += c
    return play("wreckdivers", dice=dice, decisions=decisions, players=players, **kw)


def turns(game) -> list[tuple[str, int]]:
    return [(r["player"], r["round"]) for r in game.log if r["t"] == "turn"]


def records(game, kind: str, **match) -> list[dict]:
    return [r for r in game.log if r["t"] == kind and all(r.get(k) == v for k, v in match.items())]


def dive_rolls(game) -> list[list[int]]:
    return [r["faces"] for r in records(game, "roll") if len(r["dice"]) == 4]


def timer_left(game) -> list[float]:
    return [r["left"] for r in records(game, "timer", action="stop")]


# -- the dive time: WD-R1..R4 -------------------------------------------------------------------

def test_wd_r1_each_turn_begins_with_a_dive_time_roll_of_two_dice():
    game = wd(dive((3, 4), rolls=[(4, 3, 1, 2)]), dive((2, 5)), sets={"rounds": "1"})
    assert game.result is not None and game.result.turns == 2
    # Each turn: the dive-time roll (one white, one red die) comes before the timer starts and
    # before any roll of the four dice.
    for who, faces in (("Player 1", [3, 4]), ("Player 2", [2, 5])):
        start = game.log.index(records(game, "turn", player=who)[0])
        rest = game.log[start + 1:]
        rolls = [r for r in rest if r["t"] == "roll"]
        assert rolls[0]["dice"] == ["white[0]", "red[0]"]
        assert rolls[0]["faces"] == faces
        first_timer = next(i for i, r in enumerate(rest) if r["t"] == "timer")
        assert rest.index(rolls[0]) < first_timer
    assert dive_rolls(game) == [[4, 3, 1, 2]]


def test_wd_r2_the_tens_die_is_chosen_before_the_dive_time_roll_and_only_once():
    game = wd(dive((6, 2), tens="red", rolls=[(4, 3, 1, 2), (1, 2, 5, 6)]), dive((1, 1)),
              sets={"rounds": "1"})
    log = game.log
    for who in ("Player 1", "Player 2"):
        i = log.index(records(game, "turn", player=who)[0])
        end = next((j for j in range(i + 1, len(log)) if log[j]["t"] in ("turn", "end")), len(log))
        turn = log[i + 1:end]
        choices = [r for r in turn if r["t"] == "decision" and r["id"] == "tens_colour"]
        assert len(choices) == 1, "the tens die is chosen once per dive, never again"
        first_roll = next(r for r in turn if r["t"] == "roll")
        assert turn.index(choices[0]) < turn.index(first_roll)
    # Player 1 chose red before rolling white 6, red 2: the red die gives the tens.
    assert "Player 1 dives for 26 seconds. Deep breath!" in said(game)


def test_wd_r3_dive_time_is_ten_times_the_tens_die_plus_the_ones_die():
    seen = set()
    for w in range(1, 7):
        for r in range(1, 7):
            for tens, expected in (("white", 10 * w + r), ("red", 10 * r + w)):
                game = wd(dive((w, r), tens=tens, end=None), until_script_ends=True)
                assert game.env["dive_time"] == expected, (w, r, tens)
                assert records(game, "timer", action="start")[0]["seconds"] == expected
                assert f"Player 1 dives for {expected} seconds. Deep breath!" in said(game)
                seen.add(expected)
    assert seen == {10 * a + b for a in range(1, 7) for b in range(1, 7)}


def test_wd_r3_the_tens_choice_white_4_red_3_gives_43_or_34():
    white = wd(dive((4, 3), tens="white", end=None), until_script_ends=True)
    red = wd(dive((4, 3), tens="red", end=None), until_script_ends=True)
    assert white.env["dive_time"] == 43
    assert red.env["dive_time"] == 34


def test_wd_r4_the_timer_is_set_to_the_dive_time_and_runs_from_the_start_of_the_dive():
    # Before the dive nothing takes time (WD-A7): the timer starts at clock 0 with 23 s.
    game = wd(dive((2, 3), end=None), until_script_ends=True)
    assert records(game, "timer", action="start") == [
        {"t": "timer", "timer": "dive", "action": "start", "seconds": 23}]
    assert game.clock.now() == 0
    assert state_of(game, None)["timers"]["dive"] == {"running": True, "remaining": 23}
    # One roll later (4 s), 19 s are left.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2)], end=None), until_script_ends=True)
    assert state_of(game, None)["timers"]["dive"] == {"running": True, "remaining": 19}


def test_wd_r4_the_breath_is_held_for_the_whole_dive_and_only_the_dive():
    # Two rolls and an ascent are three stretches of dive, each exposed to the breathed hazard;
    # the tens choice and dive-time rolls of both divers are not.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (4, 3, 1, 2)]), dive((1, 1), end=None),
              until_script_ends=True)
    assert game.hazard_queries == 3
    assert game.players[0].gold == 8


# -- rolling for gold: WD-R5..R13 ---------------------------------------------------------------

def test_wd_r5_the_diver_rolls_as_often_as_time_allows():
    # 66 s and 4 s a roll: 16 rolls end at 64 s, the ascent at 64.5 s, in time. Each roll
    # finds 4 - 3 = 1 gold.
    game = wd(dive((6, 6), rolls=[(3, 1, 1, 2)] * 16), dive((1, 1), end=None),
              until_script_ends=True)
    assert len(dive_rolls(game)) == 16
    assert game.players[0].gold == 16
    assert timer_left(game) == [1.5]


def test_wd_r6_a_roll_compares_the_sum_of_the_whites_with_the_sum_of_the_reds():
    # Whites 6+1 = 7 against reds 2+4 = 6: 1 gold (the highest die, 6 against 4, would say 2).
    game = wd(dive((2, 3), rolls=[(6, 1, 2, 4)], end=None), until_script_ends=True)
    assert game.env["tally"] == 1
    # Whites 1+5 = 6 against reds 4+3 = 7: nothing, though the 5 beats both reds.
    game = wd(dive((2, 3), rolls=[(6, 1, 2, 4), (1, 5, 4, 3)], end=None), until_script_ends=True)
    assert game.env["tally"] == 1
    assert fired(game) == ["gold", "nothing_found"]


def test_wd_r7_white_above_red_finds_the_difference_red_above_white_finds_nothing():
    game = wd(dive((2, 3), rolls=[(5, 4, 1, 2)], end=None), until_script_ends=True)
    assert game.env["tally"] == 9 - 3
    game = wd(dive((2, 3), rolls=[(5, 4, 1, 2), (1, 2, 5, 6)], end=None), until_script_ends=True)
    assert game.env["tally"] == 6
    assert game.env["last_gain"] == 6
    assert fired(game) == ["gold", "nothing_found"]
    assert said(game)[-2:] == ["Player 1 finds 6 gold (tally 6)",
                               "Player 1 finds nothing on this roll (tally 6)"]


def test_wd_r8_equal_totals_find_nothing():
    game = wd(dive((2, 3), rolls=[(3, 4, 2, 5), (6, 1, 3, 4)], end=None), until_script_ends=True)
    assert game.env["tally"] == 0
    assert fired(game) == ["nothing_found", "nothing_found"]


def test_wd_r9_double_whites_pay_twice_the_difference_only_when_white_wins():
    # 5+5 = 10 against 1+2 = 3: 2 x 7 = 14. Then double whites that lose (1+1 against 3+4) or
    # tie (3+3 against 2+4) find nothing.
    game = wd(dive((2, 3), rolls=[(5, 5, 1, 2), (1, 1, 3, 4), (3, 3, 2, 4)], end=None),
              until_script_ends=True)
    assert game.env["tally"] == 14
    assert fired(game) == ["double_whites", "nothing_found", "nothing_found"]
    assert said(game)[1:3] == ["Double whites: the gold counts twice",
                              "Player 1 finds 14 gold (tally 14)"]


def test_wd_r10_double_reds_are_a_shark_and_the_dive_goes_on():
    # 6 gold, then a shark (reds 3, 3) takes it, then 10 - 3 = 7 more, banked at the ascent.
    game = wd(dive((2, 3), rolls=[(5, 4, 1, 2), (2, 1, 3, 3), (6, 4, 1, 2)]),
              dive((1, 1), end=None), until_script_ends=True)
    assert fired(game) == ["gold", "shark", "gold"]
    assert "Shark! Player 1's tally drops to 0" in said(game)
    assert game.players[0].gold == 7
    assert "Player 1 surfaces with 7 gold (7 in all)" in said(game)


def test_wd_r10_a_shark_mid_dive_leaves_the_tally_at_zero():
    game = wd(dive((2, 3), rolls=[(5, 4, 1, 2), (2, 1, 3, 3)], end=None), until_script_ends=True)
    assert game.env["tally"] == 0


def test_wd_r11_double_reds_are_a_shark_even_double_ones():
    # 10 - 3 = 7 gold, then whites 6+5 = 11 against reds 1+1 = 2: a shark, not 9 more gold.
    game = wd(dive((2, 3), rolls=[(6, 4, 1, 2), (6, 5, 1, 1)], end=None), until_script_ends=True)
    assert game.env["tally"] == 0
    assert fired(game) == ["gold", "shark"]
    # Banked at the ascent: nothing.
    game = wd(dive((2, 3), rolls=[(6, 4, 1, 2), (6, 5, 1, 1)]), dive((1, 1), end=None),
              until_script_ends=True)
    assert game.players[0].gold == 0


def test_wd_r12_double_reds_with_double_whites_are_a_shark_by_default():
    # 4 gold, then whites 6, 6 against reds 2, 2: a shark, not 2 x 8 = 16 gold.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (6, 6, 2, 2)]), dive((1, 1), end=None),
              until_script_ends=True)
    assert fired(game) == ["gold", "shark"]
    assert game.players[0].gold == 0


@pytest.mark.parametrize(("setting", "tally", "trigger"), [
    ("shark", 0, "shark"),           # the text's answer: the shark takes the 4 gold
    ("gold", 4 + 2 * (12 - 4), "double_whites"),
    ("cancel", 4 + (12 - 4), "gold"),
])
def test_wd_a5_double_reds_with_double_whites_follow_the_double_double_setting(setting, tally,
                                                                              trigger):
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (6, 6, 2, 2)], end=None),
              sets={"double_double": setting}, until_script_ends=True)
    assert game.env["tally"] == tally
    assert fired(game) == ["gold", trigger]
    # Double reds without double whites are a shark whatever the setting.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (6, 5, 3, 3)], end=None),
              sets={"double_double": setting}, until_script_ends=True)
    assert game.env["tally"] == 0
    assert fired(game) == ["gold", "shark"]


@pytest.mark.parametrize(("setting", "expected"), [("discard", 0), ("keep", 11 - 2)])
def test_wd_a4_a_shark_roll_whose_whites_beat_its_reds(setting, expected):
    # 4 gold, then whites 6+5 = 11 beat reds 1+1 = 2 on a shark roll: discard leaves 0, keep
    # leaves that roll's own 9 (not 4 + 9).
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (6, 5, 1, 1)], end=None),
              sets={"shark_roll_gold": setting}, until_script_ends=True)
    assert game.env["tally"] == expected
    assert fired(game) == ["gold", "shark"]


def test_wd_a4_a_kept_shark_roll_pays_plain_gold_and_never_less_than_nothing():
    keep = {"shark_roll_gold": "keep"}
    # Double whites 6, 6 against 2, 2 (a shark by default): the plain 8, not the doubled 16.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (6, 6, 2, 2)], end=None), sets=keep,
              until_script_ends=True)
    assert game.env["tally"] == 8
    # Reds 4+4 beat whites 1+2: the tally is 0, not -5.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (1, 2, 4, 4)], end=None), sets=keep,
              until_script_ends=True)
    assert game.env["tally"] == 0


def test_wd_r13_each_rolls_gold_is_recorded_and_added_to_the_tally():
    # 7 - 3 = 4, then nothing (3 against 11), then 11 - 3 = 8: a tally of 12.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (1, 2, 5, 6), (6, 5, 2, 1)], end=None),
              until_script_ends=True)
    assert game.env["tally"] == 12
    assert game.env["last_gain"] == 8
    # Every roll is said, the one that finds nothing too: the sheet's per-roll record.
    assert [t for t in said(game) if "finds" in t] == [
        "Player 1 finds 4 gold (tally 4)", "Player 1 finds nothing on this roll (tally 4)",
        "Player 1 finds 8 gold (tally 12)"]


# -- ending a dive: WD-R14..R17 -----------------------------------------------------------------

def test_wd_r14_ascending_banks_the_tally_into_the_game_total():
    # Player 1 banks 9 - 3 = 6, Player 2 ascends at once, Player 1 banks 7 - 3 = 4 more.
    game = wd(dive((2, 3), rolls=[(5, 4, 1, 2)]), dive((1, 1)),
              dive((2, 3), rolls=[(4, 3, 1, 2)]), dive((1, 1), end=None), until_script_ends=True)
    assert [p.gold for p in game.players] == [10, 0]
    assert "Player 1 surfaces with 6 gold (6 in all)" in said(game)
    assert "Player 1 surfaces with 4 gold (10 in all)" in said(game)
    assert "Player 2 surfaces with 0 gold (0 in all)" in said(game)


def test_wd_r15_the_ascent_signal_takes_signal_seconds():
    # 23 s, one roll (4 s), then the signal (0.5 s by default): 18.5 s left when it counts.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2)]), dive((1, 1), end=None), until_script_ends=True)
    assert timer_left(game) == [18.5]
    assert game.players[0].gold == 4
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2)]), dive((1, 1), end=None),
              sets={"signal_seconds": "2"}, until_script_ends=True)
    assert timer_left(game) == [17]


def test_wd_r16_time_running_out_bails_out_with_no_gold():
    # 11 s: two rolls (12 gold) end at 8 s; a third would end at 12 s, but the timer runs out
    # at 11 s: Player 1 bails out and the 12 gold are lost.
    game = wd(dive((1, 1), rolls=[(5, 4, 1, 2)] * 2, end="cut"), dive((2, 3), end=None),
              until_script_ends=True)
    assert game.players[0].gold == 0
    assert "out_of_time" in fired(game)
    assert "Player 1 bails out (out of time) and leaves the gold behind" in said(game)
    assert not any(t.startswith("Player 1 surfaces") for t in said(game))
    expired = records(game, "timer", action="expired")
    assert len(expired) == 1
    # The next dive starts at 11 s (the expiry), not at 12 s (the end of the lost roll).
    assert state_of(game, None)["clock"] == 11


def test_wd_a8_a_roll_under_way_when_time_runs_out_is_lost():
    game = wd(dive((1, 1), rolls=[(5, 4, 1, 2)] * 2, end="cut"), dive((2, 3), end=None),
              until_script_ends=True)
    # The lost roll took no dice: the next faces (2, 3) are Player 2's dive time.
    assert len(dive_rolls(game)) == 2
    assert game.current.name == "Player 2"
    assert game.env["dive_time"] == 23
    # A roll that ends before the deadline counts: two rolls end at 8 s, the ascent at 8.5 s.
    game = wd(dive((1, 1), rolls=[(5, 4, 1, 2)] * 2), dive((2, 3), end=None), until_script_ends=True)
    assert game.players[0].gold == 12
    assert timer_left(game) == [2.5]


def test_wd_a6_an_ascent_signalled_at_the_deadline_is_too_late():
    # 11 s, rolls of 5.25 s: two end at 10.5 s, the signal at exactly 11 s: too late.
    game = wd(dive((1, 1), rolls=[(5, 4, 1, 2)] * 2), dive((2, 3), end=None),
              sets={"seconds_per_roll": "5.25"}, until_script_ends=True)
    assert game.players[0].gold == 0
    assert "out_of_time" in fired(game)
    # Rolls of 5.2 s: the signal lands at 10.9 s, in time, and 6 + 6 gold are banked.
    game = wd(dive((1, 1), rolls=[(5, 4, 1, 2)] * 2), dive((2, 3), end=None),
              sets={"seconds_per_roll": "5.2"}, until_script_ends=True)
    assert game.players[0].gold == 12
    assert "out_of_time" not in fired(game)


def test_wd_r17_breathing_during_the_dive_bails_out():
    # The first roll (no breath) finds 6 gold; 1.5 s into the second roll the diver breathes.
    game = wd(dive((2, 3), rolls=[(5, 4, 1, 2)], end="cut"), dive((1, 2), end=None),
              hazards=[None, 1.5], until_script_ends=True)
    assert game.players[0].gold == 0
    assert records(game, "raised") == [{"t": "raised", "event": "breathed"}]
    assert "breathed" in fired(game)
    assert "Player 1 bails out (took a breath) and leaves the gold behind" in said(game)
    # The dive ended at 4 + 1.5 s; the interrupted roll took no dice (1, 2 are the next dive's).
    assert state_of(game, None)["clock"] == 5.5
    assert timer_left(game) == [17.5]
    assert len(dive_rolls(game)) == 1
    assert game.env["dive_time"] == 12


def test_wd_r17_breathing_while_signalling_the_ascent_bails_out():
    # The breath comes 0.2 s into the 0.5 s signal: the ascent never counts.
    game = wd(dive((2, 3), rolls=[(5, 4, 1, 2)]), dive((1, 2), end=None),
              hazards=[None, 0.2], until_script_ends=True)
    assert game.players[0].gold == 0
    assert "breathed" in fired(game)
    assert not any(t.startswith("Player 1 surfaces") for t in said(game))


def test_wd_r17_a_breath_called_by_another_player_ends_the_dive():
    dice, decisions = dive((2, 3), rolls=[(5, 4, 1, 2)], end=None)
    decisions.append({"raise": "breathed", "by": "Player 2"})
    game = wd((dice, decisions), dive((1, 2), end=None), until_script_ends=True)
    assert game.players[0].gold == 0
    assert records(game, "raised") == [{"t": "raised", "event": "breathed", "by": "Player 2"}]
    assert "Player 1 bails out (took a breath) and leaves the gold behind" in said(game)
    assert game.current.name == "Player 2"


def test_wd_r17_a_breath_outside_the_dive_changes_nothing():
    # Called before the tens choice, the diver is not under yet: the dive goes on as usual.
    dice, decisions = dive((2, 3), rolls=[(5, 4, 1, 2)])
    game = wd((dice, [{"raise": "breathed", "by": "Player 2"}] + decisions), dive((1, 2), end=None),
              until_script_ends=True)
    assert "breathed" not in fired(game)
    assert game.players[0].gold == 6


def test_wd_a11_ascending_before_any_roll_banks_nothing_and_is_no_bail_out():
    game = wd(dive((2, 3)), dive((1, 2), end=None), until_script_ends=True)
    assert game.players[0].gold == 0
    assert dive_rolls(game) == []
    assert "Player 1 surfaces with 0 gold (0 in all)" in said(game)
    assert not any("bails out" in t for t in said(game))
    assert fired(game) == []
    assert timer_left(game) == [22.5]


# -- rounds, winner and ties: WD-R19, WD-A10 ----------------------------------------------------

def test_wd_r19_three_rounds_every_player_dives_once_per_round_most_gold_wins():
    game = wd(
        # Round 1. P1, 34 s: 8, shark, 4 -> banks 4. P2, 22 s: double whites 2 x 9 -> 18.
        # P3, 11 s: 6 + 6, then out of time during the third roll -> 0.
        dive((3, 4), rolls=[(6, 5, 1, 2), (2, 2, 1, 1), (4, 3, 1, 2)]),
        dive((2, 2), rolls=[(6, 6, 1, 2)]),
        dive((1, 1), tens="red", rolls=[(5, 4, 1, 2)] * 2, end="cut"),
        # Round 2. P1, 51 s: 7 -> 11. P2, 16 s: ascends at once -> 18. P3, 66 s: 18 + 18 -> 36.
        dive((5, 1), rolls=[(6, 4, 2, 1)]),
        dive((1, 6)),
        dive((6, 6), rolls=[(6, 6, 1, 2)] * 2),
        # Round 3. P1, 44 s: nothing -> 11. P2, 23 s: double whites 2 x 3 -> 24. P3 -> 36.
        dive((4, 4), rolls=[(1, 2, 6, 5)]),
        dive((2, 3), rolls=[(3, 3, 1, 2)]),
        dive((1, 1)),
        players=3)
    assert turns(game) == [(f"Player {p}", r) for r in (1, 2, 3) for p in (1, 2, 3)]
    assert [p.gold for p in game.players] == [11, 24, 36]
    assert game.result.winners == ["Player 3"]
    assert game.result.rounds == 3 and game.result.turns == 9
    assert [s.score for s in game.result.seats] == [11, 24, 36]
    assert [s.placement for s in game.result.seats] == [3, 2, 1]
    assert game.chance.faces == [] and not game.forced  # the script was played to the end


def test_wd_r19_the_rounds_parameter_sets_the_number_of_rounds():
    game = wd(dive(), dive(), sets={"rounds": "1"})
    assert turns(game) == [("Player 1", 1), ("Player 2", 1)]
    game = wd(*[dive()] * 10, variant="long_game")
    assert game.result.rounds == 5 and game.result.turns == 10
    assert turns(game)[-1] == ("Player 2", 5)


def test_wd_a10_tied_players_share_the_win_by_default():
    # P1 and P2 bank 4 each, P3 banks 1: P1 and P2 share the win.
    game = wd(dive(rolls=[(4, 3, 1, 2)]), dive(rolls=[(4, 3, 1, 2)]), dive(rolls=[(3, 1, 1, 2)]),
              players=3, sets={"rounds": "1"})
    assert [p.gold for p in game.players] == [4, 4, 1]
    assert game.result.winners == ["Player 1", "Player 2"]
    assert game.result.turns == 3


def test_wd_a10_tie_draw_gives_no_winner():
    game = wd(dive(rolls=[(4, 3, 1, 2)]), dive(rolls=[(4, 3, 1, 2)]), dive(rolls=[(3, 1, 1, 2)]),
              players=3, sets={"rounds": "1", "tie": "draw"})
    assert game.result.winners == []
    # Without a tie, the draw setting changes nothing: P2 banks 5 and wins alone.
    game = wd(dive(rolls=[(4, 3, 1, 2)]), dive(rolls=[(5, 3, 1, 2)]), dive(rolls=[(3, 1, 1, 2)]),
              players=3, sets={"rounds": "1", "tie": "draw"})
    assert game.result.winners == ["Player 2"]


def test_wd_a10_sudden_death_dives_among_the_tied_until_one_is_ahead():
    game = wd(
        # Three rounds of nothing: 0 to 0.
        *[dive()] * 6,
        # Sudden death, pass 1: both ascend at once, still tied. Pass 2: P1 finds 4, P2 nothing.
        dive(), dive(),
        dive(rolls=[(4, 3, 1, 2)]), dive(rolls=[(1, 2, 5, 6)]),
        sets={"tie": "sudden_death"})
    assert "Tie for the most gold: sudden-death dives" in said(game)
    assert game.result.turns == 10
    assert turns(game)[6:] == [("Player 1", 4), ("Player 2", 4), ("Player 1", 5), ("Player 2", 5)]
    assert [p.gold for p in game.players] == [4, 0]
    assert game.result.winners == ["Player 1"]
    # The same three rounds without sudden death: a shared win after six dives.
    game = wd(*[dive()] * 6)
    assert game.result.winners == ["Player 1", "Player 2"] and game.result.turns == 6


def test_wd_a10_players_still_tied_after_the_last_sudden_death_pass_share_the_win():
    # Three rounds and two sudden-death passes of nothing: still 0 to 0, a shared win.
    game = wd(*[dive()] * 10, sets={"tie": "sudden_death", "sudden_death_passes": "2"})
    assert game.result.error is None
    assert game.result.turns == 10
    assert game.result.winners == ["Player 1", "Player 2"]


def test_wd_a10_sudden_death_leaves_out_the_players_not_tied():
    game = wd(
        # One round: P1 3 (6 - 3), P2 3, P3 1.
        dive(rolls=[(4, 2, 1, 2)]), dive(rolls=[(4, 2, 1, 2)]), dive(rolls=[(3, 1, 1, 2)]),
        # Sudden death between P1 and P2 only: P1 nothing, P2 2 (5 - 3).
        dive(rolls=[(1, 2, 5, 6)]), dive(rolls=[(3, 2, 1, 2)]),
        players=3, sets={"rounds": "1", "tie": "sudden_death"})
    assert turns(game) == [("Player 1", 1), ("Player 2", 1), ("Player 3", 1),
                           ("Player 1", 2), ("Player 2", 2)]
    assert [p.gold for p in game.players] == [3, 5, 1]
    assert game.result.winners == ["Player 2"]


# -- variants: WD-R20 (hidden timer), WD-A9 (mental arithmetic) ----------------------------------

def test_wd_r20_hidden_timer_hides_the_timer_from_the_diver_only():
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2)], end=None), variant="hidden_timer",
              until_script_ends=True)
    diver, other = game.players
    assert state_of(game, diver)["timers"]["dive"]["remaining"] == "hidden"
    assert state_of(game, other)["timers"]["dive"]["remaining"] == 19
    assert state_of(game, diver)["state"]["tally"] == 4  # only the timer is hidden
    # Next turn Player 2 dives: now Player 2 is the one who cannot see it.
    game = wd(dive((2, 3)), dive((3, 1), end=None), variant="hidden_timer", until_script_ends=True)
    assert state_of(game, game.players[1])["timers"]["dive"]["remaining"] == "hidden"
    assert state_of(game, game.players[0])["timers"]["dive"]["remaining"] == 31
    # Without the variant the diver sees the timer.
    game = wd(dive((2, 3), end=None), until_script_ends=True)
    assert state_of(game, game.players[0])["timers"]["dive"]["remaining"] == 23


def test_wd_r20_a_hidden_timer_still_ends_the_dive():
    game = wd(dive((1, 1), rolls=[(5, 4, 1, 2)] * 2, end="cut"), dive((2, 3), end=None),
              variant="hidden_timer", until_script_ends=True)
    assert game.players[0].gold == 0
    assert "out_of_time" in fired(game)


def test_wd_a9_mental_arithmetic_banks_the_divers_own_sums():
    # Rolls: 7 - 3 = 4 (the diver writes 5), nothing (no question), 2 x 7 = 14 (writes 12).
    decisions = [{"id": "tens_colour", "choice": "white"},
                 ROLL, {"id": "recorded_gain", "choice": 5},
                 ROLL,
                 ROLL, {"id": "recorded_gain", "choice": 12},
                 ASCEND,
                 {"id": "tens_colour", "choice": "white"}]
    dice = [2, 3, 4, 3, 1, 2, 1, 2, 5, 6, 5, 5, 1, 2, 1, 1]
    game = play("wreckdivers", dice=dice, decisions=decisions, players=2,
                variant="mental_arithmetic", until_script_ends=True)
    assert game.players[0].gold == 17
    assert [r["choice"] for r in records(game, "decision", id="recorded_gain")] == [5, 12]
    # The computed mode asks nothing and banks the true 18.
    game = wd(dive((2, 3), rolls=[(4, 3, 1, 2), (1, 2, 5, 6), (5, 5, 1, 2)]),
              dive((1, 1), end=None), until_script_ends=True)
    assert game.players[0].gold == 18
    assert records(game, "decision", id="recorded_gain") == []


def test_wd_a9_mental_arithmetic_sharks_still_take_the_recorded_tally():
    decisions = [{"id": "tens_colour", "choice": "white"},
                 ROLL, {"id": "recorded_gain", "choice": 9},
                 ROLL, ROLL]
    dice = [2, 3, 4, 3, 1, 2, 6, 5, 4, 4, 1, 1, 1, 1]
    game = play("wreckdivers", dice=dice, decisions=decisions, players=2,
                variant="mental_arithmetic", until_script_ends=True)
    assert fired(game) == ["gold", "shark", "shark"]
    assert game.env["tally"] == 0


# -- determinism and seeded playouts ------------------------------------------------------------

def seeded_game(seed, players=3, variant=None, sets=(), seats=None):
    prog = program("wreckdivers", variant, tuple(sorted(dict(sets).items())))
    game = new_game(prog, players, seats, SeededChance(seed), seed)
    return game, game.run()


def test_wreckdivers_same_seed_same_log():
    a, ra = seeded_game(12345)
    b, rb = seeded_game(12345)
    assert json.dumps(a.log) == json.dumps(b.log)
    assert ra.to_json() == rb.to_json()
    c, _ = seeded_game(54321)
    assert json.dumps(a.log) != json.dumps(c.log)


def by_hand(game, double_double="shark", shark_roll_gold="discard") -> dict[str, int]:
    """Each player's gold worked out from the logged dice and choices, by the rule text alone:
    the dive time, each roll's gold or shark, and whether the dive ended in an ascent."""
    gold = {p.name: 0 for p in game.players}
    cur = None

    def bank():
        if cur is not None and cur["ascended"] and not cur["bailed"]:
            gold[cur["who"]] += cur["tally"]

    for rec in game.log:
        t = rec["t"]
        if t == "turn":
            bank()
            cur = {"who": rec["player"], "tally": 0, "bailed": False, "ascended": False,
                    "tens": None, "time": None}
        elif cur is None:
            continue
        elif t == "decision" and rec["id"] == "tens_colour":
            cur["tens"] = rec["choice"]
        elif t == "roll" and len(rec["faces"]) == 2:
            w, r = rec["faces"]
            cur["time"] = 10 * w + r if cur["tens"] == "white" else 10 * r + w
        elif t == "timer" and rec["action"] == "start":
            assert rec["seconds"] == cur["time"]
        elif t == "roll":
            w1, w2, r1, r2 = rec["faces"]
            white, red = w1 + w2, r1 + r2
            if r1 == r2 and (w1 != w2 or double_double == "shark"):
                cur["tally"] = max(0, white - red) if shark_roll_gold == "keep" else 0
            elif w1 == w2 and white > red and not (r1 == r2 and double_double == "cancel"):
                cur["tally"] += 2 * (white - red)
            elif white > red:
                cur["tally"] += white - red
        elif t == "trigger" and rec["trigger"] in ("out_of_time", "breathed"):
            cur["bailed"] = True
        elif t == "decision" and rec["id"] == "dive_action" and rec["choice"] == "ascend":
            cur["ascended"] = True
        elif t == "timer" and rec["action"] == "stop" and not cur["bailed"]:
            assert rec["left"] > 0, "an ascent counts only before the timer runs out"
    bank()
    return gold


def test_wreckdivers_seeded_playouts_end_within_limits_and_follow_the_rules():
    breaths = sharks = 0
    for seed in range(200):
        game, result = seeded_game(seed)
        assert result.error is None, (seed, result.reason)
        assert result.rounds == 3 and result.turns == 9, seed
        assert turns(game) == [(f"Player {p}", r) for r in (1, 2, 3) for p in (1, 2, 3)]
        golds = [p.gold for p in game.players]
        assert by_hand(game) == {p.name: p.gold for p in game.players}, seed
        assert result.winners == [p.name for p in game.players if p.gold == max(golds)]
        assert not game.unruled, "the default policy answers every decision"
        assert result.steps <= game.limits["max_steps"]
        breaths += fired(game).count("breathed")
        sharks += fired(game).count("shark")
    assert breaths > 0 and sharks > 0  # the playouts did reach those rules


@pytest.mark.parametrize("sets", [
    {"double_double": "gold"}, {"double_double": "cancel"}, {"shark_roll_gold": "keep"},
    # Frequent breaths make 0-0 ties, so the tie rules are reached.
    {"tie": "sudden_death", "laugh_hazard": "0.05"}, {"tie": "draw", "laugh_hazard": "0.05"},
    {"seconds_per_roll": "2", "laugh_hazard": "0.05"},
])
def test_wreckdivers_seeded_playouts_under_each_setting(sets):
    ties = 0
    for seed in range(60):
        game, result = seeded_game(seed, players=2, sets=sets)
        assert result.error is None, (seed, result.reason)
        assert by_hand(game, sets.get("double_double", "shark"),
                       sets.get("shark_roll_gold", "discard")) == {
            p.name: p.gold for p in game.players}, seed
        golds = [p.gold for p in game.players]
        leaders = [p.name for p in game.players if p.gold == max(golds)]
        if sets.get("tie") == "sudden_death":
            assert len(leaders) == 1 and result.winners == leaders
            assert result.turns >= 6 and result.turns % 2 == 0
            ties += result.turns > 6
        elif sets.get("tie") == "draw":
            assert result.winners == (leaders if len(leaders) == 1 else [])
            assert result.turns == 6
            ties += len(leaders) > 1
        else:
            assert result.winners == leaders and result.turns == 6
    if "tie" in sets:
        assert ties > 0, "no playout reached a tie"


def test_wreckdivers_seeded_playouts_with_the_reckless_policy_run_out_of_time():
    reckless = {1: "policy:reckless", 2: "policy:reckless", 3: "policy:reckless"}
    out_of_time = 0
    for seed in range(60):
        game, result = seeded_game(seed, seats=reckless)
        assert result.error is None, (seed, result.reason)
        assert result.turns == 9
        assert by_hand(game) == {p.name: p.gold for p in game.players}, seed
        out_of_time += fired(game).count("out_of_time")
    assert out_of_time > 0


def test_wreckdivers_seeded_playouts_hidden_timer_with_the_counting_policy():
    for seed in range(60):
        game, result = seeded_game(seed, variant="hidden_timer",
                                   seats={1: "policy:counting", 2: "policy:counting",
                                          3: "policy:counting"})
        assert result.error is None, (seed, result.reason)
        assert result.turns == 9
        assert by_hand(game) == {p.name: p.gold for p in game.players}, seed


# -- the referee raises the breath at the dice prompt: WD-R17, WD-A12 ----------------------------

def test_wd_a12_the_referee_raises_breathed_at_the_dice_prompt_naming_who_called_it(tmp_path):
    """At a refereed table (`--dice table`) the table is asked for the dice; `!breathed by
    Player 2` there raises the event as Player 2's call: the diver bails out at once, and the
    roll is never made. Outside the dive it is refused, saying when it may be raised."""
    from click.testing import CliRunner

    from interpreter.cli.main import main
    from tests.scenarios.play import ROOT

    log = tmp_path / "game.jsonl"
    # Player 1: the breath called before the dive is refused; dive time 3 5 (35 s); a first
    # roll finds 2 gold (3 2 against 1 2); Player 2 calls a breath as the second roll is
    # asked. Player 2: dive time 2 6; the referee calls the breath (`!breathed`, the table's).
    typed = ["!breathed", "3 5", "3 2 1 2", "!breathed by Player 2", "2 6", "!breathed"]
    out = CliRunner().invoke(main, ["run", str(ROOT / "rulesets" / "wreckdivers.yaml"),
                                    "--dice", "table", "--players", "2", "--set", "rounds=1",
                                    "--log", str(log)], input="\n".join(typed) + "\n")
    assert out.exit_code == 0, out.output
    assert ("refused: 'breathed' can be raised only while diving; enter the faces"
            in out.output)
    assert "and enter the 4 faces in that order (or undo; !breathed raises an event): " in out.output
    assert "! Player 2 calls breathed" in out.output
    assert "Player 1 bails out (took a breath) and leaves the gold behind" in out.output
    assert "! The table calls breathed" in out.output
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r for r in records if r["t"] == "raised"] == [
        {"t": "raised", "event": "breathed", "by": "Player 2", "at_roll": True},
        {"t": "raised", "event": "breathed", "by": "table", "at_roll": True}]
    # Three rolls were made (two dive times, one dive roll): the two called rolls never were.
    assert sum(1 for r in records if r["t"] == "roll") == 3
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert "the replay matches the log" in replayed.output


def test_wd_a12_a_breath_raised_at_a_roll_comes_from_a_decisions_file_before_that_roll():
    # {raise, by, at_roll: true}: raised just before the next roll (the diver's second, after
    # the decision to roll), where the table was asked for its dice.
    dice, decisions = dive((2, 3), rolls=[(5, 4, 1, 2)], end="cut")
    decisions.append({"raise": "breathed", "by": "Player 2", "at_roll": True})
    game = wd((dice, decisions), dive((1, 2), end=None), until_script_ends=True)
    kinds = [(r["t"], r.get("id")) for r in game.log if r["t"] in ("decision", "raised")]
    assert kinds[:4] == [("decision", "tens_colour"), ("decision", "dive_action"),
                         ("decision", "dive_action"), ("raised", None)]
    assert records(game, "raised") == [
        {"t": "raised", "event": "breathed", "by": "Player 2", "at_roll": True}]
    assert "Player 1 bails out (took a breath) and leaves the gold behind" in said(game)
    assert game.players[0].gold == 0
    assert len(dive_rolls(game)) == 1
