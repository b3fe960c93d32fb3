"""Narration says who did what, in the game's words (issue 17, part 3).

Every shipped ruleset and variant is played by its bots on a few seeds (and at a large table,
where the rules change with the number of players), and every line of its narration is read
for what only the engine knows: a snake_case name (a decision, option, state variable,
procedure or phase id), an item's or a zone's id (`white[0]`, `Player 1.hand`), a Python
value (`[1, 2]`, `True`, `None`, `{...}`), and the same line twice in a row. Targeted tests
then pin the promises one by one on the seed games and on small neutral rulesets: a roll is
said by whoever rolled it (the rules' `by`, the owner of the dice's zone, the player whose turn
it is, the table at setup), a roll of several players' dice names each, a choice is said by its
label, and a decision nobody took is not narrated.
"""

from __future__ import annotations

import re

import pytest

from interpreter.engine.chance import ScriptedChance, SeededChance
from interpreter.engine.setup import load, new_game
from interpreter.table.narrate import PUBLIC, describe
from tests.conftest import ROOT, shipped_setups
from tests.scenarios.play import play

# What a person at the table must never read.
LEAKS = {
    "a snake_case id": re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b"),
    "an item's id": re.compile(r"\b\w+\[\d+\]"),
    "a zone's id": re.compile(r"\b[A-Za-z0-9]+\.[a-z_]+\b"),
    "a list or a bracketed name": re.compile(r"\[[^\]]*\]"),
    "a Python value": re.compile(r"\b(True|False|None)\b|[{}]"),
}


SEAT_1 = "the player in seat 1"  # a viewer known once the game has its players


def narrated(program, seed: int, players: int | None = None, viewer=None) -> list[str]:
    """The lines of one bot game's narration, as `viewer` reads them (SEAT_1: as the person
    in the first seat reads them, their own private lines included)."""
    lines: list[str] = []

    def narrator(game, rec):
        line = describe(game, rec, game.players[0] if viewer is SEAT_1 else viewer)
        if line is not None:
            lines.extend(line.split("\n"))
    game = new_game(program, players, None, SeededChance(seed), seed, narrator=narrator)
    game.run()
    return lines


def problems(lines: list[str]) -> list[str]:
    found = []
    for before, line in zip(["", *lines], lines, strict=False):
        for what, pattern in LEAKS.items():
            m = pattern.search(line)
            if m:
                found.append(f"{what} ({m.group()!r}): {line.strip()}")
        if line.strip() and line == before:
            found.append(f"said twice: {line.strip()}")
    return found


@pytest.mark.parametrize(("name", "variant"), shipped_setups())
def test_no_narrated_line_shows_an_id_a_python_value_or_the_same_announcement_twice(
        name, variant):
    program = load(str(ROOT / "rulesets" / f"{name}.yaml"), variant).program
    most = min(program.data["players"]["max"], 6)
    runs = [(seed, None, viewer) for seed in range(2) for viewer in (None, PUBLIC, SEAT_1)]
    runs.append((2, most, None))  # a large table: Dice Survivor's Finals, more hands
    for seed, players, viewer in runs:
        found = problems(narrated(program, seed, players, viewer))
        assert found == [], f"{name} {variant} seed {seed}: {found[:5]}"


def test_the_walk_finds_ids_reprs_and_repeated_lines():
    lines = ["  moves white[0] to Player 1.hand", "  Player 1 chooses extra_point",
             "  Health [3, 4]", "  sharks: True", "  Player 1 holds", "  Player 1 holds"]
    found = problems(lines)
    assert [f.split(" (")[0] for f in found] == [
        "an item's id", "a zone's id", "a list or a bracketed name", "a snake_case id",
        "a list or a bracketed name", "a Python value", "said twice: Player 1 holds"]


# -- who rolled ------------------------------------------------------------------------------------

def rolls(game, viewer=None) -> list[str]:
    return [describe(game, r, viewer) for r in game.log if r["t"] == "roll"]


def test_dice_survivor_roll_off_is_rolled_by_each_contender_and_names_the_first_player_as_a_role():
    game = play("dice_survivor", dice=[9, 17, 4], players=3, until_script_ends=True)
    setup = [r for r in game.log if r["t"] == "roll"]
    assert [r["by"] for r in setup] == [["Player 1"], ["Player 2"], ["Player 3"]]
    assert rolls(game) == ["  Player 1 rolls player die (d20) 9",
                           "  Player 2 rolls player die (d20) 17",
                           "  Player 3 rolls player die (d20) 4"]
    said = [describe(game, r) for r in game.log if r["t"] == "say"]
    assert said == ["  Player 2 rolled highest and goes first"]  # not "is Player 1"


def test_dice_survivor_challenge_dice_are_rolled_by_the_challenger_and_the_opponent():
    # Player 1 wins the roll-off, challenges Player 2: d20 14 for Player 1, d12 3 and d8 6
    # for Player 2.
    game = play("dice_survivor", dice=[20, 5, 3, 14, 3, 6], players=3,
                decisions=["challenge_1", "Player 2"], until_script_ends=True)
    challenge = [r for r in game.log if r["t"] == "roll"][3:]
    assert [r["by"] for r in challenge] == [["Player 1"], ["Player 2", "Player 2"]]
    assert rolls(game)[3:] == ["  Player 1 rolls player die (d20) 14",
                               "  Player 2 rolls major die (d12) 3; minor die (d8) 6"]


def test_shipwrecked_setup_is_rolled_by_the_table_and_the_captains_by_the_turn_s_player():
    program = load(str(ROOT / "rulesets" / "shipwrecked.yaml")).program
    game = new_game(program, 2, None, SeededChance(1), 1)
    game.run()
    first, captains = [r for r in game.log if r["t"] == "roll"][:2]
    assert set(first["by"]) == {None} and len(first["dice"]) == 60
    lines = rolls(game)
    assert lines[0].startswith("  The table rolls 30 white sailors (")
    assert lines[1].startswith("  The table rolls white captain ")  # the roll-off, at setup
    turn = next(r for r in game.log if r["t"] == "turn")
    in_turn = [r for r in game.log[game.log.index(turn):] if r["t"] == "roll"][0]
    assert in_turn["by"] == [turn["player"]] * 2


NEUTRAL = """\
meeple: 1
metadata: {name: Cups}
players: {min: 2, max: 4, default: 2}
components:
  zones:
    cup: {kind: pool, owner: player, visibility: public, label: "Cup"}
  dice:
    shaker: {count: 4, sides: 6, label: "Shaker dice"}
    spare: {sides: 6, label: "Spare die"}
flow:
  phases:
    setup:
      do:
        - move: "[shaker[0], shaker[1]]"
          to: "players[0].cup"
        - move: "[shaker[2], shaker[3]]"
          to: "players[1].cup"
        - roll: shaker
        - roll: spare
      next: play
    play:
      turns: {order: clockwise}
      repeat: {times: 1}
      do:
        - roll: spare
        - roll: spare
          by: "next_player(current)"
        - roll: shaker
          by: none
        - choose: pick
          options:
            keep_going: {label: "Keep going, whatever it costs"}
            stop_here: {}
        - choose: whom
          options: players
        - choose: only_one
          options: [sure]
"""


def neutral(tmp_path, decisions=()):
    path = tmp_path / "cups.yaml"
    path.write_text(NEUTRAL)
    program = load(str(path)).program
    game = new_game(program, 2, None, ScriptedChance([1, 2, 3, 4, 5] * 5), 0,
                    decisions=list(decisions))
    game.script_only = True
    game.run()
    return game


def test_a_roll_of_several_players_dice_names_each_owner_and_nobody_s_dice_are_the_table_s(
        tmp_path):
    game = neutral(tmp_path, ["keep_going", "Player 2", "stop_here", "Player 1"])
    lines = rolls(game)
    assert lines[0] == ("  Player 1 rolls shaker dice ⚀ 1, ⚁ 2\n"
                        "  Player 2 rolls shaker dice ⚂ 3, ⚃ 4")
    assert lines[1] == "  The table rolls spare die ⚄ 5"  # setup: nobody's turn yet
    # In a turn: the player whose turn it is, then the one the rules name, then `by: none`.
    assert lines[2:5] == ["  Player 1 rolls spare die ⚀ 1", "  Player 2 rolls spare die ⚁ 2",
                          "  The table rolls shaker dice ⚂ 3, ⚃ 4, ⚄ 5, ⚀ 1"]


def test_a_choice_is_said_by_its_label_or_its_readable_name_and_a_lone_option_not_at_all(
        tmp_path):
    game = neutral(tmp_path, ["keep_going", "Player 2", "stop_here", "Player 1"])
    chose = [describe(game, r) for r in game.log if r["t"] == "decision"]
    assert chose == ["  Player 1 chooses pick: Keep going, whatever it costs",
                     "  Player 1 chooses whom: Player 2", None,
                     "  Player 2 chooses pick: Stop here", "  Player 2 chooses whom: Player 1",
                     None]
    first = next(r for r in game.log if r["t"] == "decision")
    assert first["label"] == "Keep going, whatever it costs"  # the log says it too


# -- the hand-over and the game's length ------------------------------------------------------------

@pytest.mark.parametrize(("name", "variant", "secret"), [
    ("wreckdivers", None, False), ("wreckdivers", "hidden_timer", True), ("pig", None, False),
    ("dice_survivor", None, False), ("liars_dice", None, True), ("shipwrecked", None, True),
    ("dark_water_salvage", None, True)])
def test_a_game_keeps_secrets_when_something_is_hidden_from_someone(name, variant, secret):
    from dsl.fairness import keeps_secrets
    program = load(str(ROOT / "rulesets" / f"{name}.yaml"), variant).program
    assert keeps_secrets(program.data) is secret


def test_people_sharing_a_screen_look_away_only_in_a_game_with_secrets():
    from interpreter.table.narrate import Screen

    class Seat:
        def __init__(self, name):
            self.name = name
    one, two = Seat("Player 1"), Seat("Player 2")
    for secrets in (True, False):
        shown, asked = [], []
        screen = Screen(shown.append, [one, two], confirm=asked.append,
                        clear=lambda out=shown: out.append("(cleared)"), secrets=secrets)
        screen.take(one)
        screen.take(two)
        if secrets:
            assert shown == ["(cleared)", "== Pass the screen to Player 1: everyone else, "
                             "look away ==", "(cleared)", "== Pass the screen to Player 2: "
                             "everyone else, look away =="]
            assert len(asked) == 2
        else:
            assert shown == ["== Player 1, your move ==", "== Player 2, your move =="]
            assert asked == []


@pytest.mark.parametrize(("seconds", "said"), [
    (45.2, "45 s"), (59.6, "1 min"), (725, "12 min 5 s"), (4800, "1 h 20 min"), (7200, "2 h")])
def test_a_game_s_length_is_said_as_people_say_it(seconds, said):
    from interpreter.table.narrate import play_time
    assert play_time(seconds) == said


def test_a_game_over_in_a_blink_on_the_real_clock_is_given_no_length():
    from interpreter.table.narrate import result_lines
    program = load(str(ROOT / "rulesets" / "pig.yaml")).program
    game = new_game(program, 2, None, SeededChance(1), 1)
    result = game.run()
    result.seconds = 0.02  # bots on the real clock
    assert not result_lines(result)[-1].endswith("of play")
    assert "0 s" not in result_lines(result)[-1]
    result.seconds = 75
    assert result_lines(result)[-1].endswith(", 1 min 15 s of play")


def test_an_undo_says_what_it_takes_back_in_words_and_never_a_roll_made_out_of_sight():
    from interpreter.table.narrate import input_words
    program = load(str(ROOT / "rulesets" / "liars_dice.yaml")).program
    game = new_game(program, 2, None, SeededChance(4), 4)
    game.run()
    cup = next(r for r in game.log if r["t"] == "roll")
    assert input_words(game, cup) == "the roll of 5 dice, out of sight"  # in a cup
    game = play("shipwrecked", dice=[1] * 60 + [2, 4], until_script_ends=True)
    captains = [r for r in game.log if r["t"] == "roll"][1]
    assert input_words(game, captains) == "the roll of white captain ⚁ 2; black captain ⚃ 4"


def test_a_draw_is_said_by_whoever_the_rules_name_and_the_log_keeps_them():
    # Dark Water Salvage: each player draws their own Turn Order card at setup, and the loan
    # chips of a round are drawn by the player whose round it is (outside any turn).
    program = load(str(ROOT / "rulesets" / "dark_water_salvage.yaml")).program
    lines = []
    game = new_game(program, 3, None, SeededChance(2), 2,
                    narrator=lambda g, r: lines.append(describe(g, r)))
    game.run()
    draws = [r for r in game.log if r["t"] == "draw"]
    order = [r for r in draws if r["source"] == "turn_order_pile"]
    assert [r["by"] for r in order] == ["Player 1", "Player 2", "Player 3"]
    loans = [r for r in draws if r["source"] == "bag"]
    assert [r["by"] for r in loans[:3]] == ["Player 1", "Player 2", "Player 3"]
    assert "  Player 2 draws 1 from the turn order pile" in lines
    assert "  Player 1 draws 6 from the chip bag" in lines
