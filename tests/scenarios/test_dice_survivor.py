"""Dice Survivor, rule by rule (rulesets/dice_survivor.yaml), with scripted dice and decisions.

Rule ids DSV-Rn (rules) and DSV-An (resolved gaps) are those of research/seeds-analysis.md,
section 5. Every expected outcome below is worked out by hand from the rule text and then
checked against the real state of the game: Play Points, eliminations, counters, the
environment and the log.

Dice order: the setup roll-off rolls the d20 once per contender, in seat order; a Challenge,
Rematch, KO or Finals roll rolls the d20 (the player), then the d12 and the d8 (the opponents);
an Extra Play Point rolls the d20 alone.
A decision with a single legal option is taken without the script (logged with `only`).
"""

from __future__ import annotations

import json
import re

import pytest

from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import SetupError, new_game
from interpreter.table.journal import script
from interpreter.table.narrate import describe
from tests.scenarios.play import play, program, said


def narration(game) -> list[str]:
    """Every line of the game's narration, as the table reads it."""
    return [line for line in (describe(game, r) for r in game.log) if line is not None]

# The roll-off faces for up to 8 seats: seat 1 rolls 20, so Player 1 is the first seat.
ROLL_OFF = [20, 11, 7, 4, 9, 6, 2, 13]
P1, P2, P3, P4, P5, P6 = (f"Player {i}" for i in range(1, 7))


def go(dice=(), decisions=(), players=4, sets=None, variant=None, roll_off=None):
    """A game whose first seat wins the roll-off (unless `roll_off` is given), then these dice
    and decisions; it stops cleanly where the script ends. Every scripted die must have been
    rolled (a face a die cannot show, or a roll the game never made, is a mistake in the test)."""
    faces = [*(ROLL_OFF[:players] if roll_off is None else roll_off), *dice]
    game = play("dice_survivor", dice=faces, decisions=list(decisions), players=players,
                sets={k: str(v).lower() if isinstance(v, bool) else str(v)
                      for k, v in (sets or {}).items()},
                variant=variant, until_script_ends=True)
    assert game.chance.used == len(faces), f"only {game.chance.used} of {len(faces)} faces rolled"
    return game


def legal_at(dice=(), decisions=(), **kw) -> tuple[str, str, list[str]]:
    """(decision id, who decides, legal options) where the script ends: the game is asked an
    answer that no decision accepts, and the error names what was legal."""
    with pytest.raises(AssertionError) as err:
        go(dice, [*decisions, "?"], **kw)
    m = re.search(r"answers '\?' to '(\w+)' \((.+?)\), which is not legal now; legal: (.*) at \(",
                  str(err.value))
    assert m, str(err.value)
    return m.group(1), m.group(2), m.group(3).split(", ")


def pp(game) -> list[int]:
    return [p.pp for p in game.players]


def out(game) -> list[bool]:
    return [p.eliminated for p in game.players]


def turns(game) -> list[str]:
    return [r["player"] for r in game.log if r["t"] == "turn"]


def phases(game) -> list[str]:
    return [r["phase"] for r in game.log if r["t"] == "phase"]


def asked(game, did: str | None = None) -> list[tuple[str, str, object]]:
    return [(r["id"], r["by"], r["choice"]) for r in game.log
            if r["t"] == "decision" and (did is None or r["id"] == did)]


def rolls(game, skip: int = 0) -> list[list[int]]:
    """The faces of every throw, after the first `skip` (the roll-off): a throw is the d20's
    roll with the d12 and d8 the opponents roll after it."""
    throws: list[list[int]] = []
    for r in game.log:
        if r["t"] == "roll":
            if r["dice"][0] == "player_die" or not throws:
                throws.append(list(r["faces"]))
            else:
                throws[-1].extend(r["faces"])
    return throws[skip:]


def transfers(game) -> list[tuple[object, object, int]]:
    return [(r["source"], r["to"], r["amount"]) for r in game.log if r["t"] == "transfer"]


# -- setup and turns ------------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(3, 9))
def test_dsv_r1_three_to_eight_participants_start_with_5_play_points(n):
    game = go(players=n)
    assert pp(game) == [5] * n
    assert out(game) == [False] * n
    assert all(p.rematches_used == 0 and p.ko_used is False for p in game.players)
    assert game.env["started_with"] == n


def test_dsv_r1_fewer_than_3_or_more_than_8_are_refused():
    for n in (2, 9):
        with pytest.raises(SetupError, match="3 to 8 players"):
            go(players=n, roll_off=[20] * n)


def test_dsv_r1_starting_play_points_is_a_parameter():
    assert pp(go(sets={"starting_pp": 7})) == [7, 7, 7, 7]


def test_dsv_r2_highest_roll_is_player_1_and_only_the_tied_reroll():
    # Seats roll 7 15 3 15 9: seats 2 and 4 tie on top; only they roll again: 12 12 (tied
    # again), then 4 18: Player 4 is Player 1 and plays the first turn.
    game = go(players=5, roll_off=[7, 15, 3, 15, 9, 12, 12, 4, 18])
    assert rolls(game) == [[7], [15], [3], [15], [9], [12], [12], [4], [18]]
    assert game.env["first_player"] is game.players[3]
    assert "Player 4 rolled highest and goes first" in said(game)
    assert turns(game) == [P4]


def test_dsv_a17_ties_below_the_top_roll_do_not_matter():
    game = go(players=4, roll_off=[3, 3, 19, 3])
    assert rolls(game) == [[3], [3], [19], [3]]
    assert game.env["first_player"] is game.players[2]
    assert turns(game) == [P3]


def test_dsv_r3_play_goes_clockwise_from_player_1():
    # Seat 3 wins the roll-off; everyone passes: 3, 4, 1, 2, 3, then seat 4's turn begins.
    game = go(roll_off=[2, 5, 19, 8], decisions=["pass"] * 5)
    assert turns(game) == [P3, P4, P1, P2, P3, P4]
    assert pp(game) == [5, 5, 5, 5]


def test_dsv_r3_turns_skip_the_eliminated():
    # 1 PP each. Player 1 challenges Player 2 (stake 1): d20 15 + 1 = 16 against
    # min(3, 4) + 1 = 4; Player 2 accepts and pays 1: out. Player 1 passes; then 3, 4, 1, 3.
    game = go([15, 3, 4], ["challenge_1", P2, "accept", "pass", "pass", "pass", "pass", "pass"],
              sets={"starting_pp": 1})
    assert out(game) == [False, True, False, False]
    assert turns(game) == [P1, P3, P4, P1, P3, P4]
    # The eliminated are no longer targets.
    assert legal_at([15, 3, 4], ["challenge_1", P2, "accept", "challenge_1"],
                    sets={"starting_pp": 1}) == ("challenge_target", P1, [P3, P4])


def test_dsv_r4_losing_the_last_play_point_eliminates_at_once():
    game = go([15, 3, 4], ["challenge_1", P2, "accept"], sets={"starting_pp": 1})
    assert pp(game) == [1, 0, 1, 1]
    assert out(game) == [False, True, False, False]
    i = next(k for k, r in enumerate(game.log) if r["t"] == "transfer")
    assert game.log[i] == {"t": "transfer", "amount": 1, "of": "pp", "source": P2, "to": "bank"}
    # The check fires right after the payment, before anything else happens.
    assert game.log[i + 1] == {"t": "check", "check": "elimination", "player": P2}
    assert game.log[i + 2] == {"t": "eliminated", "player": P2, "because": "no Play Points left"}
    # Announced once, with its reason (the engine's line; the ruleset says no more).
    lines = narration(game)
    assert lines.count("  Player 2 is out: no Play Points left") == 1
    assert not any("Player 2 has no Play Points" in line for line in lines)
    # Player 1's turn goes on: their second action is asked for.
    assert legal_at([15, 3, 4], ["challenge_1", P2, "accept"],
                    sets={"starting_pp": 1}) == ("turn_action", P1, ["challenge_1", "extra_point",
                                                                     "pass"])


def test_dsv_r5_two_actions_per_turn():
    # Player 1: two 1-action Challenges, both lost (d20 2 against min(8, 8)): 5 -> 4 -> 3.
    # The turn then ends without a third action; Player 2 passes; Player 3's turn begins.
    game = go([2, 8, 8, 2, 8, 8], ["challenge_1", P2, "challenge_1", P3, "pass"])
    assert asked(game, "turn_action") == [
        ("turn_action", P1, "challenge_1"), ("turn_action", P1, "challenge_1"),
        ("turn_action", P2, "pass")]
    assert turns(game) == [P1, P2, P3]
    assert pp(game) == [3, 5, 5, 5]


def test_dsv_r5_actions_per_turn_is_a_parameter():
    game = go([2, 8, 8] * 3, ["challenge_1", P2] * 3 + ["pass"], sets={"actions_per_turn": 3})
    assert pp(game) == [2, 5, 5, 5]
    assert turns(game) == [P1, P2, P3]


# -- Challenge ------------------------------------------------------------------------------------

def test_dsv_r6_a_challenge_stakes_one_or_two_actions_against_any_opponent():
    assert legal_at() == ("turn_action", P1, ["challenge_1", "challenge_2", "extra_point", "ko",
                                              "pass"])
    assert legal_at(decisions=["challenge_2"]) == ("challenge_target", P1, [P2, P3, P4])
    # Stake 2 against Player 3: 15 + 5 = 20 against min(8, 2) + 5 = 7; Player 3 accepts and
    # pays 2. The Challenge used both actions: Player 2's turn begins.
    game = go([15, 8, 2], ["challenge_2", P3, "accept"])
    assert pp(game) == [5, 5, 3, 5]
    assert game.env["challenge_stake"] == 2
    assert turns(game) == [P1, P2]


def test_dsv_r7_opponent_uses_the_lower_challenge_die_and_both_add_play_points():
    # Extra Play Point first: 5 + 5 = 10, Player 1 has 6. Then a Challenge: d20 3 + 6 = 9
    # against min(12, 5) + 5 = 10: Player 1 is lower and pays 1.
    game = go([5, 3, 12, 5], ["extra_point", "challenge_1", P2])
    assert (game.env["challenger_total"], game.env["defender_total"]) == (9, 10)
    assert pp(game) == [5, 5, 5, 5]
    # d12 2, d8 7: the opponent counts the 2 (2 + 5 = 7 < 6 + 5 = 11); with the 7 they would
    # have won. Player 2 accepts and pays 1.
    game = go([6, 2, 7], ["challenge_1", P2, "accept"])
    assert (game.env["challenger_total"], game.env["defender_total"]) == (11, 7)
    assert pp(game) == [5, 4, 5, 5]


def test_dsv_r8_natural_1_gives_the_opponent_a_point_whatever_the_totals():
    # Extra Play Point: 9 + 5 = 14, Player 1 has 6. Challenge: a natural 1, 1 + 6 = 7 against
    # min(1, 3) + 5 = 6 would win, but a natural 1 gives Player 2 a Play Point; no Rematch.
    game = go([9, 1, 1, 3], ["extra_point", "challenge_1", P2])
    assert (game.env["challenger_total"], game.env["defender_total"]) == (7, 6)
    assert pp(game) == [5, 6, 5, 5]
    assert transfers(game)[-1] == (P1, P2, 1)
    assert asked(game, "rematch") == []
    assert turns(game) == [P1, P2]


def test_dsv_r8_natural_1_ends_the_challenge_even_on_tied_totals():
    # 1 + 5 = 6 against min(1, 2) + 5 = 6: equal totals, but a natural is not rolled again
    # (DSV-A12); Player 1 gives 1 and there is no Rematch (DSV-A13), even for a stake of 2.
    game = go([1, 1, 2], ["challenge_2", P2])
    assert rolls(game, 4) == [[1, 1, 2]]
    assert pp(game) == [4, 6, 5, 5]
    assert asked(game, "rematch") == []


def test_dsv_r9_natural_20_takes_a_point_whatever_the_totals():
    # 3 players, 20 PP each. Three rounds: Player 1 makes two 1-action Challenges on Player 2
    # with a natural 1 each (-2 / +2), Player 2 earns an Extra Play Point (+1) and passes,
    # Player 3 passes. Player 1 has 14, Player 2 29. Then Player 1 stakes 2 on Player 2:
    # natural 20, 20 + 14 = 34 against min(8, 8) + 29 = 37. Player 2's total is higher, yet
    # Player 2 gives Player 1 a Play Point (1, not the stake) and cannot ask for a Rematch.
    one_round_dice = [1, 8, 8, 1, 8, 8, 20]
    one_round = ["challenge_1", P2, "challenge_1", P2, "extra_point", "pass", "pass"]
    game = go(one_round_dice * 3 + [20, 8, 8], one_round * 3 + ["challenge_2", P2], players=3,
              sets={"starting_pp": 20})
    assert (game.env["challenger_total"], game.env["defender_total"]) == (34, 37)
    assert pp(game) == [15, 28, 20]
    assert transfers(game)[-1] == (P2, P1, 1)
    assert asked(game, "rematch") == []
    assert game.players[1].rematches_used == 0
    assert turns(game) == [P1, P2, P3] * 3 + [P1, P2]


def test_dsv_r9_natural_20_voids_the_rematch_for_any_stake():
    game = go([20, 1, 1], ["challenge_2", P2])
    assert pp(game) == [6, 4, 5, 5]
    assert asked(game, "rematch") == []


def test_dsv_r10_tied_totals_are_rolled_again_until_they_differ():
    # 4 + 5 = min(4, 8) + 5; 3 + 5 = min(3, 3) + 5; then 12 + 5 = 17 against 6 + 5 = 11.
    game = go([4, 4, 8, 3, 3, 3, 12, 6, 7], ["challenge_1", P2, "accept"])
    assert rolls(game, 4) == [[4, 4, 8], [3, 3, 3], [12, 6, 7]]
    assert (game.env["challenger_total"], game.env["defender_total"]) == (17, 11)
    assert pp(game) == [5, 4, 5, 5]


def test_dsv_r10_tied_totals_in_a_rematch_are_rolled_again():
    # 15 + 5 against 1 + 5: Player 2 calls a Rematch; 5 + 5 = min(5, 6) + 5 is rolled again;
    # 2 + 5 = 7 against 8 + 5 = 13: Player 2 wins the Rematch, Player 1 pays the stake 1.
    game = go([15, 1, 1, 5, 5, 6, 2, 8, 8], ["challenge_1", P2, "rematch"])
    assert rolls(game, 4) == [[15, 1, 1], [5, 5, 6], [2, 8, 8]]
    assert pp(game) == [4, 5, 5, 5]
    assert game.players[1].rematches_used == 1


@pytest.mark.parametrize("reroll, expected", [([20, 8, 8], [6, 4, 5, 5]), ([1, 1, 1], [4, 6, 5, 5])])
def test_dsv_a12_naturals_on_the_reroll_of_a_tie_apply(reroll, expected):
    # 6 + 5 = min(6, 6) + 5: rolled again; the re-roll's natural decides, with no Rematch.
    game = go([6, 6, 6, *reroll], ["challenge_1", P2])
    assert rolls(game, 4) == [[6, 6, 6], reroll]
    assert pp(game) == expected
    assert asked(game, "rematch") == []


def test_dsv_a12_naturals_on_the_reroll_of_a_tied_rematch_apply():
    # Rematch rolled 6 6 6 (tie), then a natural 1: Player 1 gives 1 (not the stake).
    game = go([15, 1, 1, 6, 6, 6, 1, 2, 2], ["challenge_2", P2, "rematch"])
    assert pp(game) == [4, 6, 5, 5]
    assert transfers(game) == [(P1, P2, 1)]


def test_dsv_r11_the_lower_player_pays_the_stake_to_the_bank():
    # 2 + 5 = 7 against 8 + 5 = 13, stake 1: Player 1 pays 1 to the bank, nobody gains.
    game = go([2, 8, 8], ["challenge_1", P2])
    assert pp(game) == [4, 5, 5, 5]
    assert transfers(game) == [(P1, "bank", 1)]
    # Stake 2: Player 1 pays 2. The player is never offered a Rematch (DSV-R14).
    game = go([2, 8, 8], ["challenge_2", P3])
    assert pp(game) == [3, 5, 5, 5]
    assert transfers(game) == [(P1, "bank", 2)]
    assert asked(game, "rematch") == []


def test_dsv_r12_the_lower_opponent_chooses_rematch_or_pays_the_stake():
    assert legal_at([15, 1, 1], ["challenge_2", P2]) == ("rematch", P2, ["rematch", "accept"])
    game = go([15, 1, 1], ["challenge_2", P2, "accept"])
    assert asked(game, "rematch") == [("rematch", P2, "accept")]
    assert pp(game) == [5, 3, 5, 5]
    assert transfers(game) == [(P2, "bank", 2)]
    assert game.players[1].rematches_used == 0


@pytest.mark.parametrize("stake, left", [(1, 3), (2, 1)])
def test_dsv_r13_an_opponent_beaten_again_in_the_rematch_pays_double(stake, left):
    # 15 + 5 against 1 + 5, Rematch, 15 + 5 against 1 + 5 again: Player 2 pays 2 * stake.
    game = go([15, 1, 1, 15, 1, 1], [f"challenge_{stake}", P2, "rematch"])
    assert pp(game) == [5, left, 5, 5]
    assert transfers(game) == [(P2, "bank", 2 * stake)]
    assert game.players[1].rematches_used == 1
    # DSV-R14: no second Rematch in the same Challenge.
    assert asked(game, "rematch") == [("rematch", P2, "rematch")]


@pytest.mark.parametrize("stake", [1, 2])
def test_dsv_r13_the_player_pays_the_stake_when_the_opponent_wins_the_rematch(stake):
    # Rematch: 2 + 5 = 7 against 8 + 5 = 13: Player 1 pays the stake, Player 2 pays nothing.
    game = go([15, 1, 1, 2, 8, 8], [f"challenge_{stake}", P2, "rematch"])
    assert pp(game) == [5 - stake, 5, 5, 5]
    assert transfers(game) == [(P1, "bank", stake)]


@pytest.mark.parametrize("natural, expected, moved", [
    (1, [4, 6, 5, 5], (P1, P2, 1)), (20, [6, 4, 5, 5], (P2, P1, 1))])
def test_dsv_r13_naturals_in_a_rematch_move_one_point(natural, expected, moved):
    game = go([15, 1, 1, natural, 8, 8], ["challenge_2", P2, "rematch"])
    assert pp(game) == expected
    assert transfers(game) == [moved]


def test_dsv_r14_at_most_three_rematches_per_participant_per_game():
    # Each time: Player 1 15 + PP beats Player 2's 1 + 5 (or 4); Player 2 calls a Rematch and
    # wins it (2 + PP against 8 + 5), so Player 1 pays 1: 5 -> 4 -> 3 -> 2.
    won_rematch = ["challenge_1", P2, "rematch"]
    dice = [15, 1, 1, 2, 8, 8] * 3 + [15, 1, 1]
    script_ = won_rematch * 2 + ["pass"] * 3 + won_rematch + ["challenge_1", P2]
    game = go(dice, script_)
    # The fourth time Player 2 may only accept: the lone option is taken, nobody is asked.
    assert game.players[1].rematches_used == 3
    last = [r for r in game.log if r["t"] == "decision" and r["id"] == "rematch"][-1]
    assert last == {"t": "decision", "id": "rematch", "by": P2, "choice": "accept", "only": True}
    assert pp(game) == [2, 4, 5, 5]
    # The counter is per participant (DSV-A18): Player 3 still has all three.
    after = ["pass"] * 3 + ["challenge_1", P3]
    assert legal_at(dice + [15, 1, 1], script_ + after) == ("rematch", P3, ["rematch", "accept"])


def test_dsv_r14_max_rematches_is_a_parameter():
    game = go([15, 1, 1], ["challenge_1", P2], sets={"max_rematches": 0})
    assert asked(game, "rematch") == [("rematch", P2, "accept")]
    assert pp(game) == [5, 4, 5, 5]


# -- Extra Play Point, KO, Pass ---------------------------------------------------------------

def test_dsv_r15_extra_point_at_10_or_more_once_per_turn():
    # Turn 1: 4 + 5 = 9, no point (still one action); then a lost Challenge (2 + 5 against
    # 8 + 5): 4 PP. Turn 2: 6 + 4 = 10, a point: 5 PP; no second try this turn.
    dice = [4, 2, 8, 8, 6]
    script_ = ["extra_point", "challenge_1", P2, "pass", "pass", "pass", "extra_point"]
    game = go(dice, script_)
    assert pp(game) == [5, 5, 5, 5]
    assert transfers(game) == [(P1, "bank", 1), ("bank", P1, 1)]
    assert legal_at(dice, script_) == ("turn_action", P1, ["challenge_1", "pass"])


def test_dsv_r15_extra_point_target_is_a_parameter():
    assert pp(go([7], ["extra_point"], sets={"extra_point_target": 12})) == [6, 5, 5, 5]
    assert pp(go([6], ["extra_point"], sets={"extra_point_target": 12})) == [5, 5, 5, 5]


def test_dsv_a4_naturals_are_ordinary_faces_on_the_extra_point_roll():
    # 9 PP: a natural 1 makes 10, a point; with naturals_outside_challenges it fails.
    assert pp(go([1], ["extra_point"], sets={"starting_pp": 9})) == [10, 9, 9, 9]
    assert pp(go([1], ["extra_point"], sets={"starting_pp": 9,
                                             "naturals_outside_challenges": True})) == [9, 9, 9, 9]


def test_dsv_r16_a_won_ko_eliminates_the_opponent():
    # 15 + 5 = 20 against min(10, 3) + 5 = 8: Player 2 loses all 5 PP and is out. The KO
    # used both actions; Player 3 plays next.
    game = go([15, 10, 3], ["ko", P2])
    assert pp(game) == [5, 0, 5, 5]
    assert out(game) == [False, True, False, False]
    assert transfers(game) == [(P2, "bank", 5)]
    assert game.players[0].ko_used is True
    assert turns(game) == [P1, P3]


@pytest.mark.parametrize("sets, given", [({}, 2), ({"ko_half_rounding": "up"}, 3)])
def test_dsv_r16_a_lost_ko_gives_half_the_play_points_to_the_opponent(sets, given):
    # 2 + 5 = 7 against min(12, 8) + 5 = 13: Player 1 gives half of 5, rounded down (DSV-A3).
    game = go([2, 12, 8], ["ko", P2], sets=sets)
    assert pp(game) == [5 - given, 5 + given, 5, 5]
    assert transfers(game) == [(P1, P2, given)]
    assert out(game) == [False] * 4


def test_dsv_a3_a_lost_ko_with_1_play_point_gives_nothing():
    game = go([1, 12, 8], ["ko", P2], sets={"starting_pp": 1})
    assert pp(game) == [1, 1, 1, 1]
    assert out(game) == [False] * 4


def test_dsv_r16_a_tied_ko_changes_nothing():
    # 5 + 5 = 10 against min(12, 5) + 5 = 10: no Play Points lost, and no re-roll.
    game = go([5, 12, 5], ["ko", P2])
    assert rolls(game, 4) == [[5, 12, 5]]
    assert pp(game) == [5, 5, 5, 5]
    assert transfers(game) == []
    assert game.players[0].ko_used is True
    assert turns(game) == [P1, P2]


def test_dsv_r16_ko_once_per_game():
    script_ = ["ko", P2, "pass", "pass", "pass"]
    # The KO is Player 1's for the game; the others still have theirs.
    assert legal_at([5, 12, 5], ["ko", P2]) == (
        "turn_action", P2, ["challenge_1", "challenge_2", "extra_point", "ko", "pass"])
    assert legal_at([5, 12, 5], script_) == (
        "turn_action", P1, ["challenge_1", "challenge_2", "extra_point", "pass"])


def test_dsv_a16_the_ko_needs_both_actions():
    assert legal_at([15], ["extra_point"]) == ("turn_action", P1, ["challenge_1", "pass"])


@pytest.mark.parametrize("die, won", [("lower", True), ("sum", False), ("higher", False)])
def test_dsv_a2_the_ko_defender_die_is_a_parameter(die, won):
    # 10 + 5 = 15 against d12 12, d8 4: lower 4 + 5 = 9 (KO wins); sum 16 + 5 = 21 or higher
    # 12 + 5 = 17 (KO fails: Player 1 gives 2).
    game = go([10, 12, 4], ["ko", P2], sets={"ko_defender_die": die})
    assert pp(game) == ([5, 0, 5, 5] if won else [3, 7, 5, 5])
    assert game.players[1].eliminated is won


def test_dsv_a4_house_ko_variant_natural_20_always_knocks_out():
    # Sum of the challenge dice: 20 + 5 = 25 against 12 + 8 + 5 = 25, a tie; the house_ko
    # variant also makes the natural 20 win.
    assert pp(go([20, 12, 8], ["ko", P2], sets={"ko_defender_die": "sum"})) == [5, 5, 5, 5]
    game = go([20, 12, 8], ["ko", P2], variant="house_ko")
    assert pp(game) == [5, 0, 5, 5]
    assert game.players[1].eliminated


def test_dsv_r17_pass_ends_the_turn_with_actions_left():
    game = go([15], ["pass", "extra_point", "pass"])
    assert turns(game) == [P1, P2, P3]
    assert asked(game) == [("turn_action", P1, "pass"), ("turn_action", P2, "extra_point"),
                           ("turn_action", P2, "pass")]
    assert pp(game) == [5, 6, 5, 5]


def test_dsv_a14_extra_point_combines_with_a_one_action_challenge():
    # 9 PP: the Extra Play Point always succeeds (1 + 9 = 10); then a Challenge the same turn.
    game = go([1, 15, 1, 1], ["extra_point", "challenge_1", P2, "accept"],
              sets={"starting_pp": 9})
    assert pp(game) == [10, 8, 9, 9]


def test_dsv_a15_two_one_action_challenges_against_the_same_opponent():
    # 15 + 5 against 1 + 5, accepted (5 -> 4); 15 + 5 against 1 + 4, accepted (4 -> 3).
    game = go([15, 1, 1, 15, 1, 1], ["challenge_1", P2, "accept", "challenge_1", P2, "accept"])
    assert pp(game) == [5, 3, 5, 5]
    assert turns(game) == [P1, P2]


# -- elimination ------------------------------------------------------------------------------

def test_dsv_a10_paying_more_than_you_hold_eliminates_never_below_zero():
    # 1 PP, stake 2, lost (2 + 1 against 8 + 1): pays the 1 it has.
    game = go([2, 8, 8], ["challenge_2", P2], sets={"starting_pp": 1})
    assert pp(game) == [0, 1, 1, 1]
    assert out(game) == [True, False, False, False]
    assert transfers(game) == [(P1, "bank", 1)]
    # 3 PP, a Rematch lost again at stake 2 (owes 4): pays 3 and is out.
    game = go([15, 1, 1, 15, 1, 1], ["challenge_2", P2, "rematch"], sets={"starting_pp": 3})
    assert pp(game) == [3, 0, 3, 3]
    assert out(game) == [False, True, False, False]
    assert transfers(game) == [(P2, "bank", 3)]


@pytest.mark.parametrize("dice, moved", [([1, 1, 1], (P1, P2, 1)), ([2, 8, 8], (P1, "bank", 1))])
def test_dsv_a11_elimination_during_your_own_turn_ends_it(dice, moved):
    # 1 PP: a natural 1 (gives Player 2 its point) or a lost Challenge (pays the bank): out,
    # and the second action is never asked for; Player 2's turn begins.
    game = go(dice, ["challenge_1", P2], sets={"starting_pp": 1})
    assert out(game) == [True, False, False, False]
    assert transfers(game) == [moved]
    assert asked(game, "turn_action") == [("turn_action", P1, "challenge_1")]
    assert turns(game) == [P1, P2]


# -- end and Finals -----------------------------------------------------------------------------

def test_dsv_r18_three_to_five_play_to_the_last_survivor():
    # 5 players, 1 PP each. Player 1 KOs Player 2 (20 + 1 against 1 + 1). Player 3 beats
    # Player 4 and then Player 5 (15 + 1 against 1 + 1, accepted). Player 1 is next (4 and 5
    # are out) and beats Player 3, the only target. No Finals with 3 left: Player 1 wins.
    game = go([20, 1, 1, 15, 1, 1, 15, 1, 1, 15, 1, 1],
              ["ko", P2, "challenge_1", P4, "accept", "challenge_1", P5, "accept",
               "challenge_1", "accept"], players=5, sets={"starting_pp": 1})
    assert game.result is not None and game.result.error is None
    assert game.result.winners == [P1]
    assert out(game) == [False, True, True, True, True]
    assert turns(game) == [P1, P3, P1]
    assert ("challenge_target", P1, P3) in asked(game)
    assert "finals" not in phases(game)
    assert game.env["in_finals"] is False


def six_to_finals(**sets):
    """6 players, 1 PP: Player 1 beats 2 and 3; Player 4 beats 5, leaving 1, 4 and 6."""
    dice = [15, 1, 1] * 3
    script_ = ["challenge_1", P2, "accept", "challenge_1", P3, "accept",
               "challenge_1", P5, "accept"]
    return dice, script_, {"starting_pp": 1, **sets}


def test_dsv_r19_six_or_more_go_to_the_finals_when_three_remain():
    dice, script_, sets = six_to_finals()
    game = go(dice, script_, players=6, sets=sets)
    assert out(game) == [False, True, True, False, True, False]
    assert phases(game) == ["setup", "main", "finals"]
    assert game.env["in_finals"] is True
    assert "Only 3 participants remain: on to the Finals" in said(game)
    # DSV-A7: Player 4's turn ends at once (its second action is never asked for); Player 6,
    # on its left, opens the Finals.
    assert [d for d in asked(game, "turn_action") if d[1] == P4] == [("turn_action", P4,
                                                                       "challenge_1")]
    assert turns(game) == [P1, P4, P6]
    assert legal_at(dice, script_, players=6, sets=sets) == ("finals_action", P6,
                                                             ["challenge", "ko"])


@pytest.mark.parametrize("n, script_, first", [
    # 7: Player 1 beats 2 and 3, Player 4 beats 5 and 6; Player 7 opens the Finals.
    (7, ["challenge_1", P2, "accept", "challenge_1", P3, "accept",
         "challenge_1", P5, "accept", "challenge_1", P6, "accept"], "Player 7"),
    # 8: the same, then Player 7 beats 8; Player 1 (8 is out) opens the Finals.
    (8, ["challenge_1", P2, "accept", "challenge_1", P3, "accept",
         "challenge_1", P5, "accept", "challenge_1", P6, "accept",
         "challenge_1", "Player 8", "accept"], P1)])
def test_dsv_r19_seven_and_eight_players_also_end_with_three_finalists(n, script_, first):
    game = go([15, 1, 1] * (n - 3), script_, players=n, sets={"starting_pp": 1})
    assert [p.name for p in game.players if not p.eliminated] == [P1, P4, "Player 7"]
    assert phases(game) == ["setup", "main", "finals"]
    assert turns(game)[-1] == first
    assert ("finals_action", first, "challenge") not in asked(game)


def test_dsv_a11_a_player_who_knocks_themself_out_hands_the_finals_to_their_left():
    # 6 players, 1 PP: Player 1 beats 2 and 3. Player 4 loses a Challenge to Player 5
    # (2 + 1 against 8 + 1) and is out: 1, 5 and 6 are left, and Player 5 opens the Finals.
    game = go([15, 1, 1, 15, 1, 1, 2, 8, 8],
              ["challenge_1", P2, "accept", "challenge_1", P3, "accept", "challenge_1", P5],
              players=6, sets={"starting_pp": 1})
    assert out(game) == [False, True, True, True, False, False]
    assert phases(game) == ["setup", "main", "finals"]
    assert game.env["in_finals"] is True
    assert turns(game) == [P1, P4, P5]
    assert asked(game, "turn_action")[-1] == ("turn_action", P4, "challenge_1")


def test_dsv_a7_finish_turn_lets_the_player_end_the_turn_first():
    dice, script_, sets = six_to_finals(finals_start="finish_turn")
    assert legal_at(dice, script_, players=6, sets=sets) == (
        "turn_action", P4, ["challenge_1", "extra_point", "pass"])
    game = go(dice, [*script_, "pass"], players=6, sets=sets)
    assert turns(game) == [P1, P4, P6]
    assert phases(game) == ["setup", "main", "finals"]


def test_dsv_r19_no_finals_variant_plays_to_the_last_survivor():
    dice, script_, sets = six_to_finals()
    assert legal_at(dice, script_, players=6, sets=sets, variant="no_finals") == (
        "turn_action", P4, ["challenge_1", "extra_point", "pass"])
    game = go(dice, script_, players=6, sets=sets, variant="no_finals")
    assert "finals" not in phases(game)


def finals_by_ko():
    """6 players at 5 PP: 1 KOs 2, 3 KOs 4, 5 KOs 6 (20 + 5 against 1 + 5). The Finals: 1, 3
    and 5 with 5 PP each, all KOs used; Player 1 opens them."""
    dice = [20, 1, 1] * 3
    script_ = ["ko", P2, "ko", P4, "ko", P6]
    return dice, script_


def finals_by_challenges():
    """6 players at 2 PP: 1 beats 2, 3 beats 4, 5 beats 6 at stake 2. The Finals: 1, 3 and 5
    with 2 PP each, no KO used; Player 1 opens them."""
    dice = [15, 1, 1] * 3
    script_ = ["challenge_2", P2, "accept", "challenge_2", P4, "accept", "challenge_2", P6,
               "accept"]
    return dice, script_, {"starting_pp": 2}


def finals(dice=(), decisions=()):
    base_dice, base = finals_by_ko()
    return go([*base_dice, *dice], [*base, *decisions], players=6)


def test_dsv_r20_in_the_finals_challenge_all_or_ko_one():
    dice, script_, sets = finals_by_challenges()
    game = go(dice, script_, players=6, sets=sets)
    assert pp(game) == [2, 0, 2, 0, 2, 0]
    assert turns(game)[-1] == P1 and phases(game)[-1] == "finals"
    # No Pass in the Finals (DSV-X1).
    assert legal_at(dice, script_, players=6, sets=sets) == ("finals_action", P1,
                                                             ["challenge", "ko"])
    # With the KO used, the Challenge is the lone option: taken without asking.
    game = finals([10, 7, 3], [P3])
    first = next(r for r in game.log if r["t"] == "decision" and r["id"] == "finals_action")
    assert first == {"t": "decision", "id": "finals_action", "by": P1, "choice": "challenge",
                     "only": True}


@pytest.mark.parametrize("major, totals", [(P5, {P1: 15, P3: 8, P5: 14}),
                                           (P3, {P1: 15, P3: 14, P5: 8})])
def test_dsv_r21_the_player_chooses_who_rolls_the_d12(major, totals):
    # d20 10 + 5; the chosen opponent d12 9 + 5 = 14, the other d8 3 + 5 = 8.
    game = finals([10, 9, 3], [major])
    assert legal_at([*finals_by_ko()[0]], finals_by_ko()[1], players=6) == (
        "major_holder", P1, [P3, P5])
    assert game.env["finals_major"].name == major
    assert {p.name: p.roll_total for p in game.players if not p.eliminated} == totals
    # DSV-R22: the top roller keeps their PP, the others lose 1.
    assert pp(game) == [5, 0, 4, 0, 4, 0]


def test_dsv_r22_the_highest_roller_keeps_and_everyone_else_loses_1():
    # 2 + 5 = 7; Player 3 (d12) 12 + 5 = 17; Player 5 (d8) 3 + 5 = 8: 1 and 5 lose 1.
    game = finals([2, 12, 3], [P3])
    assert pp(game) == [4, 0, 5, 0, 4, 0]
    assert transfers(game)[-2:] == [(P5, "bank", 1), (P1, "bank", 1)]


def test_dsv_r23_when_everyone_ties_the_finals_roll_again():
    # 5 + 5 = 5 + 5 = 5 + 5: all tie, rolled again: 10 + 5, 7 + 5 (d12), 3 + 5 (d8).
    game = finals([5, 5, 5, 10, 7, 3], [P3])
    assert rolls(game, 6 + 3) == [[5, 5, 5], [10, 7, 3]]
    assert pp(game) == [5, 0, 4, 0, 4, 0]


def test_dsv_r24_player_and_one_opponent_tie_on_top_only_the_lower_loses():
    # 8 + 5 = 13, Player 3 8 + 5 = 13, Player 5 2 + 5 = 7: only Player 5 loses 1; no re-roll.
    game = finals([8, 8, 2], [P3])
    assert rolls(game, 6 + 3) == [[8, 8, 2]]
    assert pp(game) == [5, 0, 5, 0, 4, 0]


def test_dsv_a6_two_opponents_tied_above_the_player_both_keep():
    # 3 + 5 = 8 against 8 + 5 = 13 and 8 + 5 = 13: only the player loses 1.
    game = finals([3, 8, 8], [P3])
    assert pp(game) == [4, 0, 5, 0, 5, 0]
    # finals_top_tie: reroll rolls again: 10 + 5, 7 + 5, 3 + 5.
    base_dice, base = finals_by_ko()
    game = go([*base_dice, 3, 8, 8, 10, 7, 3], [*base, P3], players=6,
              sets={"finals_top_tie": "reroll"})
    assert rolls(game, 6 + 3) == [[3, 8, 8], [10, 7, 3]]
    assert pp(game) == [5, 0, 4, 0, 4, 0]


def test_dsv_a6_player_alone_on_top_takes_one_from_both_tied_opponents():
    # 10 + 5 = 15 against 4 + 5 = 9 and 4 + 5 = 9.
    game = finals([10, 4, 4], [P3])
    assert pp(game) == [5, 0, 4, 0, 4, 0]


@pytest.mark.parametrize("faces, expected", [
    ([1, 12, 8], [3, 0, 6, 0, 6, 0]), ([20, 12, 8], [7, 0, 4, 0, 4, 0]),
    ([1, 1, 1], [3, 0, 6, 0, 6, 0])])
def test_dsv_r25_finals_naturals_move_one_point_per_opponent(faces, expected):
    # A natural 1 gives each opponent 1; a natural 20 takes 1 from each, whatever the totals;
    # all tied at 6 with a natural 1: not rolled again.
    game = finals(faces, [P3])
    assert rolls(game, 6 + 3) == [faces]
    assert pp(game) == expected


def test_dsv_r26_no_rematches_in_the_finals():
    # Both opponents beaten (10 + 5 against 7 + 5 and 3 + 5), each with 3 Rematches unused:
    # nobody is asked, each pays exactly 1.
    game = finals([10, 7, 3], [P3])
    assert asked(game, "rematch") == []
    assert game.players[2].rematches_used == 0
    assert transfers(game)[-2:] == [(P3, "bank", 1), (P5, "bank", 1)]


def test_dsv_r27_after_each_finals_challenge_the_turn_passes_left():
    # Player 1: 10 + 5, Player 3 (d12) 7 + 5, Player 5 (d8) 3 + 5: 3 and 5 drop to 4.
    # Player 3: 10 + 4, Player 1 (d12) 7 + 5, Player 5 (d8) 3 + 4: 1 -> 4, 5 -> 3.
    # Player 5: 10 + 3, Player 1 (d12) 7 + 4, Player 3 (d8) 3 + 4: 1 -> 3, 3 -> 3.
    game = finals([10, 7, 3] * 3, [P3, P1, P1])
    assert turns(game) == [P1, P3, P5, P1, P3, P5, P1]
    # One action each (the fourth is Player 1's again, taken as its lone option).
    assert [d[1] for d in asked(game, "finals_action")] == [P1, P3, P5, P1]
    assert pp(game) == [3, 0, 3, 0, 3, 0]


def test_dsv_a8_a9_ko_in_the_finals_then_one_on_one_with_the_d12():
    dice, script_, sets = finals_by_challenges()
    # Player 1 KOs Player 3 in the Finals (20 + 2 against 1 + 2). Player 5 challenges the
    # one opponent left, who rolls the d12 without anyone choosing: 10 + 2 = 10 + 2 is a tie
    # of everyone, rolled again (DSV-R23); 10 + 2 = 12 against 12 + 2 = 14 (with the d8 it
    # would be 1 + 2 = 3): Player 5 loses 1. Player 1 (KO used:
    # the Challenge is its lone option) beats Player 5, who rolls the d12: 10 + 2 = 12
    # against 1 + 1 = 2. Player 5 is out and Player 1 wins.
    game = go([*dice, 20, 1, 1, 10, 10, 1, 10, 12, 1, 10, 1, 8], [*script_, "ko", P3, "challenge"],
              players=6, sets=sets)
    assert rolls(game, 6 + 3) == [[20, 1, 1], [10, 10, 1], [10, 12, 1], [10, 1, 8]]
    assert game.result is not None and game.result.winners == [P1]
    assert out(game) == [False, True, True, True, True, True]
    assert asked(game, "major_holder") == []
    assert "Finals: Player 5 12; Player 1 (d12) 14\n" in said(game)
    assert turns(game)[-3:] == [P1, P5, P1]
    assert pp(game)[0] == 2


# -- whole games --------------------------------------------------------------------------------

def test_determinism_same_seed_same_log():
    prog = program("dice_survivor")
    for n in (4, 7):
        logs = []
        for _ in range(2):
            game = new_game(prog, n, None, SeededChance(11), 11)
            game.run()
            logs.append(json.dumps(game.log, sort_keys=True, default=str))
        assert logs[0] == logs[1]
        # And the log replays: its dice and decisions give the same log again.
        records = json.loads(logs[0])
        chance, decisions = script(records)
        again = new_game(prog, n, None, chance, 11, decisions=decisions)
        again.script_only = True
        again.run()
        assert json.dumps(again.log, sort_keys=True, default=str) == logs[0]


@pytest.mark.parametrize("seats", [None, "policy:aggressive", "random"])
def test_seeded_playouts_end_with_one_survivor(seats):
    prog = program("dice_survivor")
    seeds = range(100) if seats is None else range(30)
    for n in range(3, 9):
        for seed in seeds:
            game = new_game(prog, n, {i: seats for i in range(1, n + 1)} if seats else None,
                            SeededChance(seed), seed)
            result = game.run()
            where = f"{n} players, seed {seed}, {seats or 'default policy'}"
            assert result.error is None, f"{where}: {result.error.message}"
            alive = [p for p in game.players if not p.eliminated]
            assert len(alive) == 1, where
            assert result.winners == [alive[0].name], where
            assert alive[0].pp > 0, where
            assert all(p.pp == 0 for p in game.players if p.eliminated), where
            assert all(p.rematches_used <= 3 for p in game.players), where
            # Games of 6 or more always pass through the Finals; smaller ones never do.
            assert game.env["in_finals"] is (n >= 6), where
            assert result.turns <= prog.limits["max_turns"], where
