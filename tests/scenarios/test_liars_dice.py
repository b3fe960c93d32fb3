"""Liar's Dice, rule by rule (rulesets/liars_dice.yaml), with scripted dice and decisions, and
its bots shown to decide without looking into other players' cups.

A bid is one number, (quantity - 1) * 6 + face: 9 is "two 3s", 0 calls the standing bid a
lie. Setup takes the dice in order from the box: Player 1 holds die[0..k-1], Player 2 the next
k, and so on. Each hand rolls every cup still in play, in seat order.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.engine.chance import SeededChance, TableChance
from interpreter.engine.decisions import Controller, PolicyController
from interpreter.engine.setup import new_game
from tests.conftest import ROOT
from tests.scenarios.play import play, program, said

P1, P2, P3 = "Player 1", "Player 2", "Player 3"
RULESET = ROOT / "rulesets" / "liars_dice.yaml"


def bid(quantity: int, face: int) -> int:
    return (quantity - 1) * 6 + face


def go(dice=(), decisions=(), players=2, each=2):
    return play("liars_dice", dice=list(dice), decisions=list(decisions), players=players,
                sets={"dice_each": str(each)}, until_script_ends=True)


def cups(game) -> dict[str, int]:
    return {p.name: len(p.cup.items) for p in game.players}


def legal(dice=(), decisions=(), **kw) -> tuple[str, list[int]]:
    """Who decides where the script ends, and the legal answers."""
    with pytest.raises(AssertionError) as err:
        go(dice, [*decisions, "?"], **kw)
    m = re.search(r"\((.+?)\), which is not legal now; legal: (.*) at \(", str(err.value))
    assert m, str(err.value)
    return m.group(1), [int(x) for x in m.group(2).split(", ")]


def test_each_player_starts_with_dice_each_dice_in_their_own_cup():
    game = go(players=3, each=4)
    assert cups(game) == {P1: 4, P2: 4, P3: 4}
    assert [d.id for d in game.players[1].cup.items] == [f"die[{i}]" for i in range(4, 8)]


def test_the_opening_bid_cannot_be_a_call_and_may_go_up_to_every_die_on_the_table():
    who, options = legal([1, 2, 3, 4])
    assert who == P1
    assert options == list(range(1, 6 * 4 + 1))  # four dice in play: up to "four 6s"


def test_a_bid_must_be_higher_and_the_standing_bid_may_be_called():
    who, options = legal([1, 2, 3, 4], [bid(2, 3)])
    assert who == P2
    assert options == [0, *range(bid(2, 3) + 1, 25)]  # more dice, or as many of a higher face


def test_calling_a_true_bid_costs_the_caller_a_die():
    # Player 1 holds 3 3, Player 2 holds 3 5: three 3s, so "two 3s" was true.
    game = go([3, 3, 3, 5], [bid(2, 3), 0])
    assert cups(game) == {P1: 2, P2: 1}
    assert "The bid was true" in said(game)
    assert "Player 2 loses a die (1 left)" in said(game)


def test_calling_a_false_bid_costs_the_bidder_a_die():
    game = go([3, 3, 3, 5], [bid(4, 3), 0])
    assert cups(game) == {P1: 1, P2: 2}
    assert "The bid was a lie" in said(game)


def test_a_bid_counts_only_its_face_no_face_is_wild():
    # Two 1s and a 6: "two 6s" is a lie (LD-1: ones are not wild).
    game = go([1, 6, 1, 2], [bid(2, 6), 0])
    assert "The bid was a lie" in said(game)


def test_the_loser_opens_the_next_hand_with_every_cup_rolled_again():
    game = go([3, 3, 3, 5, 2, 2, 4], [bid(2, 3), 0])
    assert game.env["starter"].name == P2
    assert game.env["hands"] == 2
    rolls = [r for r in game.log if r["t"] == "roll"]
    assert [len(r["dice"]) for r in rolls] == [2, 2, 2, 1]  # Player 2 rolls their one die left
    who, _ = legal([3, 3, 3, 5, 2, 2, 4], [bid(2, 3), 0])
    assert who == P2


def test_a_player_with_no_dice_left_is_out_and_the_last_one_holding_dice_wins():
    game = play("liars_dice", dice=[2, 5], decisions=[bid(1, 6), 0], players=2,
                sets={"dice_each": "1"})
    assert [p.eliminated for p in game.players] == [True, False]
    assert game.result.winners == [P2]
    assert "Player 1 is out" not in said(game)  # announced once, by the elimination itself
    outs = [r for r in game.log if r["t"] == "eliminated"]
    assert [(r["player"], r["because"]) for r in outs] == [(P1, "Player 1 has no dice left")]


def test_when_the_loser_goes_out_the_next_player_opens_and_the_out_place_by_how_long_they_lasted():
    # Three players, one die each. Hand 1: Player 1 bids "one 6", Player 2 calls: nobody shows
    # a 6, Player 1 is out and Player 2 opens hand 2. There Player 2 bids "one 6" (Player 2
    # shows 4, Player 3 shows 1) and Player 3 calls: Player 2 is out; Player 3 wins.
    game = play("liars_dice", dice=[2, 5, 3, 4, 1], decisions=[bid(1, 6), 0, bid(1, 6), 0],
                players=3, sets={"dice_each": "1"})
    turns = [r["player"] for r in game.log if r["t"] == "turn"]
    assert turns == [P1, P2, P2, P3]
    assert game.result.winners == [P3]
    places = {s.name: s.placement for s in game.result.seats}
    assert places == {P3: 1, P2: 2, P1: 3}


def test_every_cup_is_rolled_out_of_sight_of_the_other_players():
    game = go([3, 3, 3, 5], [bid(2, 3), 0])
    first = [r for r in game.log if r["t"] == "roll"][:2]
    assert [(g["owner"], g["to"]) for r in first for g in r["private"]] == [
        (P1, [P1]), (P2, [P2])]


class Blindfolded(Controller):
    """Asks the seat's policy twice: as the game stands, and with every other cup rolled
    anew. A bot that reads only its own cup and the bids answers the same."""

    def __init__(self, inner: PolicyController, differences: list, asked: list):
        self.inner, self.differences, self.asked = inner, differences, asked
        self.name = inner.name

    def decide(self, game, request):
        state = game.decision_rng.getstate()
        chosen = self.inner.decide(game, request)
        others = [d for p in game.players if p is not request.player for d in p.cup.items]
        faces = [d.face for d in others]
        shuffle = random.Random(len(self.asked))
        for d in others:
            d.face = shuffle.choice(d.faces)
        after = game.decision_rng.getstate()
        game.decision_rng.setstate(state)
        again = self.inner.decide(game, request)
        game.decision_rng.setstate(after)
        for d, f in zip(others, faces, strict=True):
            d.face = f
        self.asked.append(1)
        if getattr(again, "key", again) != getattr(chosen, "key", chosen):
            self.differences.append((request.id, chosen, again))
        return chosen


def test_the_bots_decide_without_seeing_other_cups():
    prog = program("liars_dice")
    differences: list = []
    asked: list = []
    for seed in range(6):
        ctrls = {i: Blindfolded(PolicyController(prog.policies["cautious"]), differences, asked)
                 for i in (1, 2, 3, 4)}
        game = new_game(prog, 4, None, SeededChance(seed), seed, controllers=ctrls)
        assert game.run().error is None
    assert len(asked) > 300
    assert differences == []


def test_a_bot_that_peeks_into_other_cups_is_refused_unless_it_says_it_sees_everything(
        tmp_path):
    peeking = RULESET.read_text().replace(
        "  random:\n    doc: Raises or calls at random.",
        "  peeker:\n    doc: Calls whenever the bid is false.\n    decide:\n      move:\n"
        "        - when: \"bid > 0 and sum(count(d for d in p.cup if d.face == (bid - 1) % 6 + 1)"
        " for p in players) < (bid - 1) // 6 + 1\"\n          choose: 0\n        - random: true\n"
        "  random:\n    doc: Raises or calls at random.")
    path = tmp_path / "peek.yaml"
    path.write_text(peeking)
    done = CliRunner().invoke(main, ["validate", str(path)])
    assert done.exit_code == 1
    assert "policy 'peeker' reads `.cup`, which only its owner sees" in done.output
    path.write_text(path.read_text().replace("    doc: Calls whenever the bid is false.",
                                             "    doc: Calls whenever the bid is false.\n"
                                             "    sees: everything"))
    done = CliRunner().invoke(main, ["simulate", str(path), "--games", "30", "--players", "2",
                                     "--seat", "1=policy:peeker", "--seat", "2=policy:random"])
    assert done.exit_code == 0, done.output
    assert "policy:peeker (sees everything)" in done.output


def test_the_cautious_bot_beats_random_bidders():
    done = CliRunner().invoke(main, ["simulate", str(RULESET), "--games", "40", "--players",
                                     "3", "--seat", "2=policy:random", "--seat",
                                     "3=policy:random", "--json"])
    assert done.exit_code == 0, done.output
    seats = json.loads(done.output)["seats"]
    assert seats[0]["win_rate"] > 0.6, seats


def test_at_the_table_a_cup_is_rolled_and_typed_in_by_its_owner_privately():
    asked: list[str] = []
    said_: list[str] = []
    answers = iter(["4", "2", "3", "5"] * 50)

    def ask(question: str) -> str:
        asked.append(question)
        return next(answers)

    game = new_game(program("liars_dice", None, (("dice_each", "1"),)), 2, None,
                    TableChance(ask, said_.append, 0), 0)
    game.run()
    assert asked[0] == ("Player 1: privately (everyone else, look away), roll die (d6) and "
                        "enter its face (or undo): ")
    assert asked[1].startswith("Player 2: privately")
    assert said_[:2] == ["  entered: 1 face", "  entered: 1 face"]  # never the faces
