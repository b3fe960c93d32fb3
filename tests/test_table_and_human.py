"""Referee mode (typed-in dice) and human seats at a real terminal (a pseudo-terminal)."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import main
from interpreter.engine.chance import TableChance, parse_faces
from interpreter.engine.values import Card, Die

ROOT = Path(__file__).resolve().parents[1]
MEEPLE = str(Path(sys.executable).with_name("meeple"))


def test_typed_faces_are_read_in_several_forms_and_impossible_ones_refused():
    d6 = [Die("a", "a", list(range(1, 7)), {}), Die("b", "b", list(range(1, 7)), {})]
    assert parse_faces("3 5", d6) == ([3, 5], None)
    assert parse_faces("3,5", d6) == ([3, 5], None)
    assert parse_faces("35", d6) == ([3, 5], None)
    faces, why = parse_faces("3 7", d6)
    assert faces is None and "b cannot show 7 (faces 1..6)" in why
    assert parse_faces("3", d6)[1] == "expected 2 faces, got 1"


def test_many_dice_are_entered_as_counts_of_each_face_component_by_component():
    dice = ([Die(f"white[{i}]", "white", list(range(1, 7)), {}) for i in range(5)]
            + [Die(f"black[{i}]", "black", list(range(1, 7)), {}) for i in range(4)])
    assert parse_faces("2x1 3x6 4x2", dice) == ([1, 1, 6, 6, 6, 2, 2, 2, 2], None)
    assert parse_faces("2×1 6 6 6 4x2", dice)[0] == [1, 1, 6, 6, 6, 2, 2, 2, 2]
    assert parse_faces("3x1", dice)[1] == "expected 9 faces, got 3"
    coins = [Die("c", "c", ["x", "2x3"], {})]  # a face that reads like a count stays a face
    assert parse_faces("2x3", coins) == (["2x3"], None)
    asked = []
    table = TableChance(lambda prompt: asked.append(prompt) or "5x3 4x4", lambda _: None)
    assert table.roll(dice) == [3] * 5 + [4] * 4
    assert ("white (5 × d6), then black (4 × d6) and enter the 9 faces in that order (7x1 "
            "stands for seven 1s)") in asked[0]


def test_the_table_is_asked_again_after_an_impossible_entry():
    lines = iter(["7", "x", "4"])
    shown = []
    table = TableChance(lambda prompt: next(lines), shown.append)
    die = Die("die", "die", list(range(1, 7)), {})
    assert table.roll([die]) == [4]
    assert [s for s in shown if "refused" in s] == [
        "  refused: die cannot show 7 (faces 1..6); enter them again",
        "  refused: die cannot show x (faces 1..6); enter them again"]


def test_a_blind_draw_of_cards_is_typed_in_by_the_fields_people_read():
    """A card is named by its deck's `known_by` values joined by '-'; cards that agree on
    them are interchangeable, and an id names one card exactly."""
    spec = [{"colour": "red", "n": 3, "art": "a"}, {"colour": "red", "n": 3, "art": "b"},
            {"colour": "blue", "n": 1, "art": "c"}]
    cards = [Card(f"deck[{i}]", "deck", c, ["colour", "n"]) for i, c in enumerate(spec)]
    for c in cards:
        c.zone = "pile"
    asked, shown = [], []
    lines = iter(["red-3 green-2", "blue-1 deck[1]", "red-3 red-3"])
    table = TableChance(lambda prompt: asked.append(prompt) or next(lines), shown.append)
    assert table.pick(cards, 2) == [cards[2], cards[1]]
    assert asked == ["Draw 2 blind from pile and enter what came out (red-3 (2), blue-1 (1); "
                     "or undo): "] * 2
    assert shown == ["  refused: no 'green-2' is left to draw; enter them again",
                     "  drawn: blue-1, red-3"]
    assert table.pick([cards[0]], 1) == [cards[0]]  # nothing to tell apart: not asked
    assert len(asked) == 2 and shown[-1] == "  drawn: red-3"
    assert table.pick(cards, 2) == [cards[0], cards[1]]  # alike cards are interchangeable


def test_a_blind_draw_that_takes_everything_left_is_not_asked():
    # Dark Water Salvage's last loan draw takes every chip left in the bag: the table has
    # nothing to tell meeple, whatever the chips are.
    chips = [Card(f"chips[{i}]", "chips", {"value": v}, ["value"]) for i, v in
             enumerate([5, 10, 10])]
    for c in chips:
        c.zone = "bag"
    asked, shown = [], []
    table = TableChance(lambda prompt: asked.append(prompt) or "", shown.append)
    assert table.pick(chips, 6) == chips and table.pick(chips, 3) == chips
    assert asked == [] and shown == ["  drawn: 5, 10, 10"] * 2


def test_a_die_drawn_at_the_table_is_named_by_its_kind_and_the_face_it_shows():
    dice = [Die(f"white[{i}]", "white", list(range(1, 7)), {}) for i in range(3)] + [
        Die("black[0]", "black", list(range(1, 7)), {})]
    for d, face in zip(dice, [1, 3, 3, 2], strict=True):
        d.face, d.zone = face, "ocean"
    asked, shown = [], []
    lines = iter(["white=5", "white=3"])
    table = TableChance(lambda prompt: asked.append(prompt) or next(lines), shown.append)
    assert table.pick(dice, 1) == [dice[1]]  # the first white showing 3, not white[0]
    assert "KIND=FACE names a die by the face it shows" in asked[0]
    assert shown[0] == "  refused: no white showing 5 is left to draw; enter them again"


def test_wreckdivers_is_refereed_from_typed_in_dice():
    # Every dive: tens from white; dive time 6,5 = 65 s; the threshold bot rolls until its
    # tally reaches 10: whites 6 6 against reds 1 2 pay 2 * (12 - 3) = 18 on the first roll,
    # then it ascends: 18 gold a dive, 3 dives each.
    dives = "6 5\n6 6 1 2\n" * 9
    out = CliRunner().invoke(main, ["run", str(ROOT / "rulesets" / "wreckdivers.yaml"),
                                    "--dice", "table", "--json", "--set", "laugh_hazard=0"],
                             input="9 9\n" + dives)  # the first entry is refused
    assert out.exit_code == 0, out.output
    result = json.loads(out.output[out.output.index("{"):])
    assert [s["score"] for s in result["seats"]] == [54, 54, 54]
    assert "refused" in out.output


def test_the_table_stopping_mid_game_is_a_clean_stop_not_a_traceback():
    out = CliRunner().invoke(main, ["run", str(ROOT / "rulesets" / "pig.yaml"), "--dice",
                                    "table"], input="3\n")
    assert out.exit_code == 1
    assert "The game stopped" in out.output
    assert "Traceback" not in out.output


class Terminal:
    """A program on a pseudo-terminal: read what it shows, type answers."""

    def __init__(self, args: list[str]):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: become the program
            os.execv(args[0], args)
        self.screen = ""

    def expect(self, text: str, timeout: float = 15) -> str:
        end = time.monotonic() + timeout
        while text not in self.screen:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"never saw {text!r}; screen:\n{self.screen[-2000:]}")
            ready, _, _ = select.select([self.fd], [], [], left)
            if ready:
                try:
                    self.screen += os.read(self.fd, 65536).decode(errors="replace")
                except OSError:  # the program ended
                    break
        if text not in self.screen:
            raise AssertionError(f"never saw {text!r}; screen:\n{self.screen[-2000:]}")
        return self.screen

    def expect_more(self, text: str, count: int, or_text: str, timeout: float = 15) -> None:
        """Waits until `text` has been shown `count` times, or `or_text` once."""
        end = time.monotonic() + timeout
        while self.screen.count(text) < count and or_text not in self.screen:
            ready, _, _ = select.select([self.fd], [], [], max(0, end - time.monotonic()))
            if not ready:
                raise AssertionError(f"timed out; screen:\n{self.screen[-2000:]}")
            try:
                self.screen += os.read(self.fd, 65536).decode(errors="replace")
            except OSError:
                return

    def type(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def type_keys(self, keys: str) -> None:
        """Keys without Enter (a key that answers alone)."""
        os.write(self.fd, keys.encode())

    def wait(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        return os.waitstatus_to_exitcode(status)


def test_a_human_plays_pig_at_a_terminal_seeing_the_options_and_refused_answers():
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "pig.yaml"), "--seat",
                     "1=human", "--seed", "4", "--set", "goal=10"])
    term.expect("1. roll")
    term.type("maybe")
    term.expect("not a legal answer")
    prompts = term.screen.count("> ")
    for _ in range(200):  # hold at every prompt until the game ends (goal 10)
        if "Game over" in term.screen:
            break
        term.type("h")  # a unique first letter: hold
        term.expect_more("> ", prompts + 1, "Game over")
        prompts = term.screen.count("> ")
    assert term.wait() == 0
    assert "Player 1 chooses roll or hold: Hold" in term.screen


def test_a_person_sees_their_whole_view_first_then_only_what_changed_and_all_again_on_ask():
    # Pig to 10, the person at seat 1: "?" at the first prompt, then hold at every prompt.
    out = CliRunner().invoke(main, ["run", str(ROOT / "rulesets" / "pig.yaml"), "--seat",
                                    "1=human", "--seed", "4", "--set", "goal=10"],
                             input="?\n" + "hold\n" * 50)
    assert out.exit_code == 0, out.output
    text = out.output
    whole = "  Player 1 (you): Score: 0"
    assert text.count(whole) == 2  # the first look, and again on "?"
    changes = [line for line in text.splitlines() if "since you last looked" in line]
    assert changes, text
    # Only what changed: the person's banked score after a hold, never a whole row again.
    assert any("Player 1 (you): Score 0 -> " in line for line in changes)
    assert all("eliminated" not in line for line in changes)


TIMED = textwrap.dedent("""\
    meeple: 1
    metadata: {name: Timed}
    players: {min: 1, max: 1}
    components:
      timers:
        clock: {visibility: public}
    state:
      global:
        fate: {type: string, initial: "'waiting'"}
    flow:
      phases:
        play:
          turns: {order: clockwise}
          do:
            - start_timer: clock
              seconds: 1
            - choose: go
              options: [now, later]
            - set: {fate: "'answered'"}
            - say: "answered in time"
    triggers:
      late:
        on: timer_expired
        do:
          - say: "too late"
          - end_turn
    """)


def test_a_real_timer_running_out_interrupts_a_human_who_has_not_answered(tmp_path):
    path = tmp_path / "timed.yaml"
    path.write_text(TIMED)
    log = tmp_path / "live.jsonl"
    term = Terminal([MEEPLE, "run", str(path), "--seat", "1=human", "--log", str(log)])
    term.expect("1. now")
    screen = term.expect("Game over", timeout=10)  # nobody types: the second runs out
    assert term.wait() == 0
    assert "too late" in screen and "answered in time" not in screen
    replay = subprocess.run([MEEPLE, "replay", str(log), "--quiet"], capture_output=True,
                            text=True)
    assert replay.returncode == 0, replay.stderr


def test_a_human_dives_in_wreckdivers_against_the_real_timer_and_can_raise_breathed():
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "wreckdivers.yaml"), "--seat",
                     "1=human", "--seed", "2", "--players", "2", "--set", "rounds=2"])
    term.expect("1. white")
    term.type("white")
    screen = term.expect("1. roll")
    assert "s left" in screen  # the real dive timer, counting down, in the diver's view
    term.type("!breathed")  # any player may call it: the diver bails out
    term.expect("bails out (took a breath)")
    term.expect("1. white")  # the second round: dive again and ascend at once
    term.type("red")
    term.expect("1. roll")
    term.type("ascend")
    screen = term.expect("Game over")
    assert term.wait() == 0
    assert "Player 1 surfaces with 0 gold" in screen


def test_a_human_plays_dice_survivor_at_a_terminal_to_the_end():
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "dice_survivor.yaml"), "--seat",
                     "1=human", "--seed", "3", "--players", "3"])
    prompts = 0
    for _ in range(500):  # always the first option: challenge, rematch, the first target...
        term.expect_more("> ", prompts + 1, "Game over")
        if "Game over" in term.screen:
            break
        prompts = term.screen.count("> ")
        term.type("1")
    term.expect("Winner: ")
    assert term.wait() == 0


HOT_SEAT = """\
meeple: 1
metadata: {name: Hot seat}
players: {min: 2, max: 2}
flow:
  phases:
    play:
      turns: {order: clockwise}
      do:
        - say: "a secret for {current.name}"
          to: "[current]"
        - choose: pick
          options: [a, b]
        - say: "{current.name} picked {pick}"
"""


def test_hot_seat_hands_the_screen_over_and_shows_private_lines_only_to_their_player(tmp_path):
    path = tmp_path / "hot.yaml"
    path.write_text(HOT_SEAT)
    # Enter to take the screen, then the answer; twice.
    out = CliRunner().invoke(main, ["run", str(path), "--seat", "1=human", "--seat", "2=human"],
                             input="\na\n\nb\n")
    assert out.exit_code == 0, out.output
    text = out.output
    first_pass = text.index("Pass the screen to Player 1")
    second_pass = text.index("Pass the screen to Player 2")
    secret1 = text.index("a secret for Player 1")
    secret2 = text.index("a secret for Player 2")
    # Each secret is shown only after its player took the screen, and only once.
    assert first_pass < secret1 < second_pass < secret2
    assert text.count("a secret for Player 1") == 1 and text.count("a secret for Player 2") == 1
    assert "Player 1 picked a" in text and "Player 2 picked b" in text


def test_one_person_against_bots_never_sees_the_bots_private_lines(tmp_path):
    path = tmp_path / "hot.yaml"
    path.write_text(HOT_SEAT)
    out = CliRunner().invoke(main, ["run", str(path), "--seat", "1=human"], input="a\n")
    assert out.exit_code == 0, out.output
    assert "a secret for Player 1" in out.output
    assert "a secret for Player 2" not in out.output
    assert "Pass the screen" not in out.output


def test_the_dive_is_a_visible_countdown_and_a_single_key_ascends():
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "wreckdivers.yaml"), "--seat",
                     "1=human", "--seed", "2", "--players", "2", "--set", "rounds=1"])
    term.expect("1. white")
    term.type_keys("w")  # one key, no Enter: white
    term.expect("1. roll")
    screen = term.expect("[dive ")  # the countdown, before the prompt
    assert " s] > " in screen
    term.type_keys("a")  # one key: ascend
    screen = term.expect("Game over")
    assert term.wait() == 0
    assert "Player 1 chooses dive action: Ascend" in screen


def test_under_the_hidden_timer_the_diver_sees_no_countdown():
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "wreckdivers.yaml"), "--seat",
                     "1=human", "--seed", "2", "--players", "2", "--set", "rounds=1",
                     "--variant", "hidden_timer"])
    term.expect("1. white")
    term.type_keys("w")
    term.expect("1. roll")
    time.sleep(1.5)  # a countdown would have been drawn by now
    term.type_keys("a")
    screen = term.expect("Game over")
    assert term.wait() == 0
    own = screen[:screen.index("Player 1 chooses dive action: Ascend")]  # the diver's own dive
    assert "[dive " not in own and "s left" not in own
    assert "[dive hidden" not in screen


def test_two_people_dive_in_wreckdivers_at_one_terminal_passing_the_screen_without_looking_away():
    # Wreckdivers hides nothing from anyone: the screen passes on without a cleared screen,
    # a "look away" or an Enter to take it.
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "wreckdivers.yaml"), "--seat",
                     "1=human", "--seat", "2=human", "--seed", "2", "--players", "2", "--set",
                     "rounds=1"])
    for who in ("Player 1", "Player 2"):
        term.expect(f"== {who}, your move ==")
        term.expect(f"{who}, which die gives the tens")
        term.type_keys("r")
        term.expect_more("1. roll", 1 if who == "Player 1" else 2, "Game over")
        term.type_keys("a")  # ascend at once
    screen = term.expect("Game over")
    assert term.wait() == 0
    assert screen.count("chooses dive action: Ascend") == 2
    first, second = screen.index("== Player 1, your move"), screen.index(
        "== Player 2, your move")
    assert first < screen.index("Player 1 chooses tens colour: Red die for the tens") < second
    assert "look away" not in screen and "press Enter" not in screen


def test_a_table_referees_dice_survivor_from_typed_dice_correcting_mistakes():
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "dice_survivor.yaml"), "--dice",
                     "table", "--seed", "3", "--players", "3"])
    asked = 0
    faces = [6, 2, 5, 1, 4, 3, 6, 6, 2, 3]
    for n in range(2000):
        term.expect_more("(or undo): ", asked + 1, "Game over", timeout=20)
        if "Game over" in term.screen:
            break
        asked = term.screen.count("(or undo): ")
        prompt = term.screen[term.screen.rindex("Roll "):]
        many = re.search(r"enter the (\d+) faces", prompt)
        dice = int(many.group(1)) if many else 1  # "enter its face": one die
        if n == 0:
            term.type("21" + " 21" * (dice - 1))  # impossible on its die: refused, asked again
            term.expect_more("(or undo): ", asked + 1, "Game over")
            assert "cannot show 21" in term.screen
            asked = term.screen.count("(or undo): ")
        if n == 1:
            term.type(" ".join(["1"] * dice))  # a mistyped entry...
            term.expect_more("(or undo): ", asked + 1, "Game over")
            asked = term.screen.count("(or undo): ")
            term.type("undo")  # ...taken back when the table agrees, and asked again
            term.expect_more("(or undo): ", asked + 1, "Game over")
            assert "(undone: the roll of" in term.screen
            asked = term.screen.count("(or undo): ")
        term.type(" ".join(str(faces[(n + i) % len(faces)]) for i in range(dice)))
    screen = term.expect("seat controller")  # the result table, to its last line
    assert term.wait() == 0
    assert "Winner" in screen


def test_the_enter_typed_after_a_key_that_answered_alone_does_not_answer_the_next_question():
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "shipwrecked.yaml"), "--seat",
                     "1=human", "--seed", "1"])
    term.expect("island")
    term.expect("> ")
    term.type_keys("2")  # the key answers alone
    term.expect("which did you claim")
    term.type("")  # the Enter typed after the key, by habit: not an answer to the grab
    with pytest.raises(AssertionError, match="never saw"):
        term.expect("Player 1 takes", timeout=1.5)  # the grab still waits for Player 1
    assert term.screen.count("which did you claim") == 1  # swallowed, not asked again
    term.type("")  # now an Enter on purpose: nothing
    screen = term.expect("Player 1 takes nothing")
    os.kill(term.pid, 9)
    term.wait()
    assert "Player 1 chooses island: 2" in screen


def test_the_enter_after_a_key_that_answered_alone_never_passes_the_hand_over():
    # Hot seat: Player 2 names an island with one key and presses Enter by habit; that Enter
    # must not hand the screen to Player 1, whose view only Player 1 may see.
    term = Terminal([MEEPLE, "run", str(ROOT / "rulesets" / "shipwrecked.yaml"), "--seat",
                     "1=human", "--seat", "2=human", "--seed", "1"])
    term.expect("Player 2, press Enter when only you can see the screen")
    time.sleep(0.8)  # Player 2 sits down (an Enter within half a second is thrown away)
    term.type("")
    term.expect("to which island")
    term.expect("> ")
    term.type_keys("1")
    term.type("")  # the habit Enter, right after the key
    term.expect("Player 1, press Enter when only you can see the screen")
    with pytest.raises(AssertionError, match="never saw"):
        term.expect("Player 1 (you)", timeout=1.5)  # still handed over to nobody
    term.type("")  # Player 1, now at the screen
    term.expect("Player 1 (you)")
    assert "Player 2 (you)" in term.screen  # Player 2 did see their own view
    os.kill(term.pid, 9)
    term.wait()
