"""A person's view at the terminal (interpreter/table/human.py): teams, bookkeeping left out, many
dice counted by face, long changes cut short, number questions and the race prompt. The view
itself (labels, layouts, skills, no engine internals) is tested in tests/test_view_model.py."""

from __future__ import annotations

from collections import deque
from pathlib import Path

from interpreter.engine.chance import SeededChance
from interpreter.engine.decisions import option_for_value
from interpreter.engine.setup import load, new_game
from interpreter.engine.values import Die
from interpreter.table.human import HumanController, _change

ROOT = Path(__file__).resolve().parents[1]


class Stop(Exception):
    """The scripted person has no more answers: the test has seen what it wanted."""


def person_plays(ruleset: str, answers: list[str], players: int | None = None,
                 seed: int = 1) -> list[str]:
    """Plays seat 1 as a person answering `answers` in turn; returns what they were shown."""
    lines = deque(answers)
    shown: list[str] = []

    def read(prompt: str, timeout: float | None) -> str:
        shown.append(prompt)
        if not lines:
            raise Stop
        return lines.popleft()
    human = HumanController(read=read, echo=shown.append)
    program = load(str(ROOT / "rulesets" / f"{ruleset}.yaml")).program
    game = new_game(program, players, None, SeededChance(seed), seed, controllers={1: human})
    try:
        game.run()
    except Stop:
        pass
    return shown


def test_a_team_game_shows_each_team_and_marks_the_persons_own():
    shown = person_plays("shipwrecked", [], players=4)
    text = "\n".join(shown)
    assert "Team white (yours: Player 1, Player 3): Swims for island: 0" in text
    assert "Team black (Player 2, Player 4): " in text
    assert "Sailors on islands 1, 2, 3...: 0, 0, 0, 0, 0" in text
    assert "Player 1 (you): Grabbed sailors: none" in text
    assert "eliminated" not in text and "(out)" not in text  # nobody is ever out here


def test_state_and_zones_marked_bookkeeping_are_left_out_of_a_persons_view():
    text = "\n".join(person_plays("dark_water_salvage", []))
    assert "Round: 1" in text and "Chip bag: 42 hidden" in text  # what a player looks at
    for name in ("station_index", "stations_run", "collect_rank", "wreck_cells", "chip_box",
                 "turn_order_box", "Station index", "Wreck cells", "Notes"):
        assert name not in text, name
    ship = "\n".join(person_plays("shipwrecked", []))
    assert "rabbing" not in ship and "hrown back" not in ship and "Shark attacks: 0" in ship


def test_many_dice_in_a_view_are_counted_by_face_and_a_hidden_zone_by_its_size():
    text = "\n".join(person_plays("shipwrecked", [], players=4))
    ocean = next(line for line in text.splitlines() if "Ocean: " in line)
    assert "Ocean: 30 white sailors (1 ×" in ocean and "white_sailors" not in ocean
    cups = "\n".join(person_plays("liars_dice", []))
    assert "Player 2: Cup: 5 hidden" in cups  # another player's cup: how many, not which


def test_a_long_value_that_changed_is_shown_as_it_is_now_cut_short():
    assert _change("pool", "30", "0") == "pool 30 -> 0"
    long_new = "[" + ", ".join(f"finding {i}" for i in range(40)) + "]"
    line = _change("findings", "[]", long_new)
    assert line.startswith("findings now [finding 0") and line.endswith("... (? shows it all)")
    assert len(line) < 170


def test_a_word_given_to_a_number_question_is_refused_saying_what_it_takes():
    shown = person_plays("dark_water_salvage", ["abc", "-5", "0"])
    refusals = [s for s in shown if "not a legal answer" in s]
    assert len(refusals) == 2  # "0" was taken
    assert all("enter a whole number, 0 or more" in s for s in refusals)


def test_the_race_lists_many_items_by_face_and_question_mark_shows_the_view_again():
    # Seed 1: Player 2 names an island, Player 1 answers "1", then the captains call and the
    # grab begins; Player 1 asks for the view, then grabs nothing.
    shown = person_plays("shipwrecked", ["1", "?", ""])
    text = "\n".join(shown)
    assert "60 items, by number:" in text
    assert "  white sailors showing 5: " in text
    assert any("Player 1 (team white): which did you claim" in s for s in shown)
    asked = [i for i, s in enumerate(shown) if "which did you claim" in s]
    assert len(asked) == 2  # asked, `?`, asked again
    between = shown[asked[0] + 1:asked[1]]
    assert any("Player 1 (you):" in s for s in between)  # the whole view, again


def test_a_choice_among_dice_shows_each_dies_face_beside_its_id():
    die = Die("green_dice[1]", "green_dice", [1, 2, 3, 4, 5, 6], {"colour": "green"})
    die.face = 5
    option = option_for_value(die)
    assert option.key == "green_dice[1]" and option.shown() == "showing 5"
    assert option_for_value("north").shown() == "north"  # a plain value is its own label


def test_the_dungeon_warns_before_a_reroll_that_would_pay_a_last_health_or_travel_die():
    # Turn 1: a blue 4 kept in Travel beside the 3. Turn 2: a blue 6, rerolled paying the
    # Travel 4; it shows 1. Now the Travel 3 may not pay (two Travel payments in a row), so
    # only the last Health die can. Each reroll question says what paying would cost.
    from click.testing import CliRunner

    from interpreter.cli.main import main
    out = CliRunner().invoke(main, [
        "run", str(ROOT / "rulesets" / "dice_bag_dungeon.yaml"), "--dice", "table", "--seat",
        "1=human"], input="blue\n4\nkeep\nblue\n6\nreroll\n2\n1\nkeep\n")
    prompts = [line for line in out.output.splitlines() if "Reroll it (paying a die)" in line]
    assert len(prompts) == 3
    # Turn 1: one Health and one Travel die, both may pay, both are the last of their row.
    assert prompts[0].endswith("it? Paying your last Health die kills you. Paying your last "
                               "Travel die ends your delve.")
    # Turn 2: two Travel dice, and the Travel 4 may pay: only the Health warning.
    assert prompts[1].endswith("it? Paying your last Health die kills you.")
    # Then only the Health die can pay (no two Travel payments in a row).
    assert prompts[2].endswith("it? Only one die can pay. Paying your last Health die kills you.")


def test_a_choice_given_by_an_expression_is_shown_as_its_option_label_says():
    # The dungeon's payment: each die that may pay, named by its row and face.
    from click.testing import CliRunner

    from interpreter.cli.main import main
    out = CliRunner().invoke(main, [
        "run", str(ROOT / "rulesets" / "dice_bag_dungeon.yaml"), "--dice", "table", "--seat",
        "1=human"], input="blue\n4\nkeep\nblue\n6\nreroll\n2\n1\nkeep\n")
    assert "  1. your Health 3 (green)" in out.output
    assert "  2. your Travel 4 (blue)" in out.output
    assert "_dice[" not in out.output  # no die is named by its id
