"""Pig, rule by rule (rulesets/pig.yaml), with scripted dice and decisions.

Every expected score below is worked out by hand from the rule text, then checked against the
real state of the game (players' scores, the turn total, the result and the log).
"""

from __future__ import annotations

import pytest

from interpreter.engine.chance import ChanceError, ScriptedChance
from interpreter.engine.setup import SetupError, new_game
from tests.scenarios.play import play, program, said

BOTS = {1: "policy:hold_at_20", 2: "policy:hold_at_20"}


def turns(game) -> list[str]:
    """Who played each turn, in order (one 'turn' record starts each turn)."""
    return [r["player"] for r in game.log if r["t"] == "turn"]


def decisions(game) -> list[tuple[str, str]]:
    return [(r["by"], r["choice"]) for r in game.log if r["t"] == "decision"]


def rolls(game) -> list[int]:
    return [r["faces"][0] for r in game.log if r["t"] == "roll"]


def scores(game) -> list[int]:
    return [p.score for p in game.players]


def test_two_players_alternate_seat_1_first():
    # P1: 3, hold (3). P2: 4, hold (4). P1: 1 (nothing). P2: 2, hold (6). P1: 5, then the
    # decision script ends.
    game = play("pig", dice=[3, 4, 1, 2, 5], decisions=["hold", "hold", "hold"],
                until_script_ends=True)
    assert game.result is None
    assert turns(game) == ["Player 1", "Player 2", "Player 1", "Player 2", "Player 1"]
    assert [(r["turn"], r["round"]) for r in game.log if r["t"] == "turn"] == [
        (1, 1), (2, 1), (3, 2), (4, 2), (5, 3)]
    assert decisions(game) == [("Player 1", "hold"), ("Player 2", "hold"), ("Player 2", "hold")]
    assert scores(game) == [3, 6]
    assert game.current is game.players[0]
    assert game.env["turn_total"] == 5


def test_two_players_only():
    assert len(play("pig", dice=[1], until_script_ends=True).players) == 2
    for n in (1, 3):
        with pytest.raises(SetupError, match="2 to 2 players"):
            play("pig", players=n, dice=[1], until_script_ends=True)


@pytest.mark.parametrize("faces, total", [([3], 3), ([3, 5], 8), ([3, 5, 6], 14),
                                          ([3, 5, 6, 2], 16), ([3, 5, 6, 2, 4], 20)])
def test_each_roll_adds_the_face_to_the_turn_total(faces, total):
    # Player 1 rolls these faces, choosing to roll again after each but the last; the game then
    # waits for the next decision.
    game = play("pig", dice=faces, decisions=["roll"] * (len(faces) - 1), until_script_ends=True)
    assert rolls(game) == faces
    assert game.env["turn_total"] == total
    assert scores(game) == [0, 0]  # not banked until a hold
    assert turns(game) == ["Player 1"]


def test_a_1_loses_the_turn_total_and_ends_the_turn():
    # P1: 4, hold (banks 4). P2: 1. P1: 6, roll, 5, roll (turn total 11), 1: the 11 are lost,
    # the banked 4 stay, and P2's turn starts at once (no decision after the 1). The dice
    # script then ends as P2 rolls.
    game = play("pig", dice=[4, 1, 6, 5, 1], decisions=["hold", "roll", "roll"],
                until_script_ends=True)
    assert scores(game) == [4, 0]
    assert turns(game) == ["Player 1", "Player 2", "Player 1", "Player 2"]
    assert decisions(game) == [("Player 1", "hold"), ("Player 1", "roll"), ("Player 1", "roll")]
    assert "Player 1 rolls a 1 and loses 11 points" in said(game)
    assert "Player 2 rolls a 1 and loses 0 points" in said(game)
    last_one = max(i for i, r in enumerate(game.log) if r["t"] == "roll" and r["faces"] == [1])
    assert [r["t"] for r in game.log[last_one:]] == ["roll", "say", "turn"]
    assert game.current is game.players[1]
    assert game.env["turn_total"] == 0


def test_a_1_on_a_later_turn_keeps_the_banked_score():
    # P1 banks 6+6 = 12, P2 banks 5, P1 rolls 2, 3 (turn total 5) then a 1: still 12.
    game = play("pig", dice=[6, 6, 5, 2, 3, 1, 4],
                decisions=["roll", "hold", "hold", "roll", "roll"], until_script_ends=True)
    assert scores(game) == [12, 5]
    assert "Player 1 rolls a 1 and loses 5 points" in said(game)
    assert game.current is game.players[1]
    assert game.env["turn_total"] == 4  # P2's new turn starts from 0


def test_holding_banks_the_turn_total_and_ends_the_turn():
    # P1: 5, roll, 6, hold -> 11. P2: 3, hold -> 3. P1: 4, hold -> 15. P2: 2, then the
    # decision script ends.
    game = play("pig", dice=[5, 6, 3, 4, 2], decisions=["roll", "hold", "hold", "hold"],
                until_script_ends=True)
    assert scores(game) == [15, 3]
    assert turns(game) == ["Player 1", "Player 2", "Player 1", "Player 2"]
    assert said(game) == ["Player 1 holds: 11 points", "Player 2 holds: 3 points",
                          "Player 1 holds: 15 points"]
    # Each hold is the last decision of its turn: the next record is the next player's turn.
    for i, r in enumerate(game.log):
        if r["t"] == "decision" and r["choice"] == "hold":
            assert [x["t"] for x in game.log[i + 1:i + 3]] == ["say", "turn"]
    assert game.current is game.players[1]
    assert game.env["turn_total"] == 2


def test_the_game_ends_the_moment_a_banked_score_reaches_the_goal():
    # Goal 100. P1 banks 24 (6, 6, 6, 6) four times while P2 rolls a 1 each time: 96. P1 then
    # rolls 4 and holds: exactly 100, and the game ends there; P2 gets no last turn and never
    # rolls the two 6s left in the dice script.
    p1_turn = [6, 6, 6, 6]
    dice = (p1_turn + [1]) * 4 + [4] + [6, 6]
    decisions_ = (["roll", "roll", "roll", "hold"]) * 4 + ["hold"]
    game = play("pig", dice=dice, decisions=decisions_, until_script_ends=True)
    assert game.result is not None, "the game did not end when Player 1 reached 100"
    assert scores(game) == [100, 0]
    assert turns(game) == ["Player 1", "Player 2"] * 4 + ["Player 1"]
    assert game.chance.faces == [6, 6]
    # The end comes right after the banking step: the last records are P1's hold and the end.
    assert [r["t"] for r in game.log[-2:]] == ["decision", "end"]
    assert game.log[-1]["scores"] == {"Player 1": 100, "Player 2": 0}
    assert game.result.turns == 9
    assert game.result.rounds == 5


def test_the_game_does_not_end_below_the_goal():
    # The same game one point short: 96 + 3 = 99, so Player 2 plays on.
    dice = ([6, 6, 6, 6] + [1]) * 4 + [3] + [6]
    decisions_ = (["roll", "roll", "roll", "hold"]) * 4 + ["hold"]
    game = play("pig", dice=dice, decisions=decisions_, until_script_ends=True)
    assert game.result is None
    assert scores(game) == [99, 0]
    assert turns(game)[-1] == "Player 2"
    assert game.env["turn_total"] == 6


def test_the_winner_is_the_one_who_reached_the_goal():
    # P1 banks 20 (5, 5, 5, 5) and P2 24 (6, 6, 6, 6) for four rounds: 80 and 96. P1 rolls
    # 2 and holds (82); P2 rolls 5 and holds: 101, past the goal. Player 2 wins.
    dice = ([5, 5, 5, 5] + [6, 6, 6, 6]) * 4 + [2, 5]
    decisions_ = ["roll", "roll", "roll", "hold"] * 8 + ["hold", "hold"]
    game = play("pig", dice=dice, decisions=decisions_)
    assert game.result is not None
    assert scores(game) == [82, 101]
    assert game.result.winners == ["Player 2"]
    assert [(s.name, s.score, s.placement) for s in game.result.seats] == [
        ("Player 1", 82, 2), ("Player 2", 101, 1)]
    assert game.log[-1]["winners"] == ["Player 2"]


def test_the_winner_is_the_one_who_reached_the_goal_seat_1():
    # Seat 1 reaches the goal first and wins, even though seat 2 could still catch up.
    dice = ([6, 6, 6, 6] + [5, 5, 5, 5]) * 4 + [6]
    decisions_ = ["roll", "roll", "roll", "hold"] * 8 + ["hold"]
    game = play("pig", dice=dice, decisions=decisions_)
    assert scores(game) == [102, 80]
    assert game.result.winners == ["Player 1"]


def test_hold_at_20_policy_holds_at_20_or_more_else_rolls():
    # Both seats bots; goal 40 so that the goal clause never applies before the last turn.
    # P1: 6, 6, 5, 2 -> 19: below 20, rolls; 3 -> 22: holds (22). P2: 5, 5, 5, 5 -> 20: holds
    # at exactly 20 (20). P1: 2, 6, 6 -> 14, and 22 + 14 = 36 < 40: rolls; 4 -> 18, and
    # 22 + 18 = 40: holding reaches the goal, holds at 18 and wins.
    dice = [6, 6, 5, 2, 3] + [5, 5, 5, 5] + [2, 6, 6, 4]
    game = play("pig", dice=dice, seats=BOTS, sets={"goal": "40"})
    assert decisions(game) == (
        [("Player 1", "roll")] * 4 + [("Player 1", "hold")]
        + [("Player 2", "roll")] * 3 + [("Player 2", "hold")]
        + [("Player 1", "roll")] * 3 + [("Player 1", "hold")])
    assert scores(game) == [40, 20]
    assert game.result.winners == ["Player 1"]
    assert game.chance.faces == []


def test_hold_at_20_policy_holds_as_soon_as_holding_reaches_the_goal():
    # Goal 30. P1: 6, 6, 6, 4 -> 22: holds (22). P2: 1. P1: 2 -> 24 < 30, rolls; 3 -> 27,
    # rolls; 4 -> turn total 9 and 22 + 9 = 31 >= 30: holds at 9 and wins with 31.
    # P2's 6 is never rolled.
    dice = [6, 6, 6, 4, 1, 2, 3, 4, 6]
    game = play("pig", dice=dice, seats={1: "policy:hold_at_20"}, sets={"goal": "30"},
                until_script_ends=False)
    assert decisions(game) == [("Player 1", c) for c in
                               ["roll", "roll", "roll", "hold", "roll", "roll", "hold"]]
    assert scores(game) == [31, 0]
    assert game.result.winners == ["Player 1"]
    assert game.chance.faces == [6]


def test_hold_at_20_policy_far_from_the_goal_keeps_rolling_to_20():
    # The default goal (100), both seats bots. P1: 6, 6, 6, 6 -> 24: holds. P2: 1. P1: 2, 3,
    # 4, 6 -> 15, rolling on since 24 + 15 is far from 100; 5 -> 20: holds, 44. P2: 1. P1's
    # next roll finds the dice script empty, which ends the test.
    dice = [6, 6, 6, 6, 1, 2, 3, 4, 6, 5, 1]
    game = new_game(program("pig"), None, BOTS, ScriptedChance(dice))
    with pytest.raises(ChanceError):
        game.run()
    assert decisions(game) == [("Player 1", c) for c in ["roll", "roll", "roll", "hold"]] + [
        ("Player 1", c) for c in ["roll", "roll", "roll", "roll", "hold"]]
    assert scores(game) == [44, 0]
    assert turns(game) == ["Player 1", "Player 2", "Player 1", "Player 2", "Player 1"]


def test_goal_parameter_changes_the_goal():
    # --set goal=30: P1 banks 24, P2 rolls 1, P1 banks 3 (27: not yet), P2 rolls 1, P1 banks 3:
    # 30, the game ends.
    dice = [6, 6, 6, 6, 1, 3, 1, 3, 6]
    decisions_ = ["roll", "roll", "roll", "hold", "hold", "hold"]
    game = play("pig", dice=dice, decisions=decisions_, sets={"goal": "30"},
                until_script_ends=True)
    assert game.env["goal"] == 30
    assert game.result is not None
    assert scores(game) == [30, 0]
    assert game.result.winners == ["Player 1"]
    assert game.chance.faces == [6]
    # The same dice and choices under the default goal of 100: the game goes on.
    default = play("pig", dice=dice, decisions=decisions_, until_script_ends=True)
    assert default.env["goal"] == 100
    assert default.result is None
    assert scores(default) == [30, 0]
    assert default.env["turn_total"] == 6
    # The goal must be at least 1.
    with pytest.raises(SetupError, match="goal"):
        play("pig", dice=dice, sets={"goal": "0"}, until_script_ends=True)
