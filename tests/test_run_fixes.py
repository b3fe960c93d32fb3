"""Fixes to `meeple run` and `meeple replay` found by users: a replay names the controllers
that played each seat, `undo` at the table takes back a blind draw typed in, a game stopped at
a prompt says why and how to go on, and an edited log is reported at the event where the
replay strays from it."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_resume import PIG, ROOT, inputs, result, run
from tests.test_table_and_human import MEEPLE, Terminal

DUNGEON = str(ROOT / "rulesets" / "dice_bag_dungeon.yaml")
SALVAGE = str(ROOT / "rulesets" / "dark_water_salvage.yaml")


def draws(log: Path, source: str | None = None) -> list[list[str]]:
    return [r["items"] for r in inputs(log) if r["t"] == "draw" and r.get("blind")
            and source in (None, r["source"])]


# -- 1. a replay names the seats' controllers as logged ---------------------------------------

def test_a_replay_names_each_seats_controller_as_logged_and_shows_the_seats(tmp_path):
    log = tmp_path / "h.jsonl"
    played = run("run", PIG, "--seat", "1=human", "--seat", "2=random", "--seed", "3",
                 "--log", str(log), "--json", input="h\n" * 200)
    assert played.exit_code == 0, played.output
    seats = [s["controller"] for s in result(played.output)["seats"]]
    assert seats[0] == "human" and "random" in seats[1]
    as_json = run("replay", str(log), "--json")
    assert as_json.exit_code == 0, as_json.output
    assert result(as_json.output)["seats"] == result(played.output)["seats"]
    told = run("replay", str(log))
    assert told.exit_code == 0, told.output
    assert told.output.startswith(f"Pig: 2 players, seed 3\n  seat 1: Player 1 (human)\n"
                                  f"  seat 2: Player 2 ({seats[1]})\n")
    assert "1: human" in told.output and f"2: {seats[1]}" in told.output  # the result table
    quiet = run("replay", str(log), "--quiet")
    assert "seat 1:" not in quiet.output and "1: human" in quiet.output


# -- 2. undo takes back a blind draw typed in --------------------------------------------------

def test_undo_takes_back_a_blind_draw_typed_at_the_table_never_a_seeded_one(tmp_path):
    log = tmp_path / "bag.jsonl"
    out = run("run", DUNGEON, "--dice", "table", "--log", str(log), input="blue\nundo\nred\n")
    assert out.exit_code == 1  # the input ends at the next question
    assert "(undone: the draw of blue from the bag)" in out.output
    assert out.output.count("Draw 1 blind from the bag") == 2  # asked again after the undo
    first = draws(log)[0]
    assert len(first) == 1 and first[0].startswith("red_dice[")  # the blue draw is gone
    assert run("run", "--resume", str(log), input="").exit_code == 1  # the log still plays
    # With seeded chance the bag is meeple's: before a person's first decision there is
    # nothing they entered, although the seeded generator drew a die.
    seeded = tmp_path / "seeded.jsonl"
    out = run("run", DUNGEON, "--seat", "1=human", "--seed", "1", "--log", str(seeded),
              input="undo\n")
    assert "(nothing to undo)" in out.output
    assert draws(seeded)  # the seeded draw is still there


def test_undo_passes_over_a_draw_taken_without_asking(tmp_path):
    # Four turn-order cards, drawn one per player: the table says the first three, meeple
    # takes the last one (nothing left to tell apart). Undo at the next question takes back
    # the third card typed in, not the one nobody typed.
    log = tmp_path / "order.jsonl"
    out = run("run", SALVAGE, "--dice", "table", "--log", str(log),
              input="2\n3\n4\nundo\n1\n")
    assert out.exit_code == 1  # the input ends at the next question
    assert "(undone: the draw of turn order cards 4 from the turn order pile)" in out.output
    assert draws(log, "turn_order_pile") == [["turn_order_cards[1]"], ["turn_order_cards[2]"],
                                             ["turn_order_cards[0]"], ["turn_order_cards[3]"]]


# -- 3. a game stopped at a prompt says why and how to go on ----------------------------------

def test_input_ending_at_the_table_says_so_and_how_to_resume_a_logged_game(tmp_path):
    log = tmp_path / "ref.jsonl"
    out = run("run", PIG, "--dice", "table", "--log", str(log), input="3\n")
    assert out.exit_code == 1
    assert "The game stopped: the input ended" in out.output
    assert f"meeple run --resume {log}" in out.output
    unlogged = run("run", PIG, "--seat", "1=human", input="r\n")
    assert unlogged.exit_code == 1
    assert "The game stopped: the input ended" in unlogged.output
    assert "--resume" not in unlogged.output and "cannot be resumed" in unlogged.output


def test_ctrl_c_at_a_persons_prompt_says_it_was_interrupted_and_how_to_resume(tmp_path):
    log = tmp_path / "int.jsonl"
    term = Terminal([MEEPLE, "run", PIG, "--seat", "1=human", "--seed", "8", "--log", str(log)])
    term.expect("> ")
    term.type_keys("\x03")
    term.expect("meeple run --resume")
    assert term.wait() == 1
    assert "The game stopped: interrupted (Ctrl-C)" in term.screen
    assert "Traceback" not in term.screen


# -- 4. an edited log names the event that differs --------------------------------------------

def test_a_replay_of_an_edited_die_names_the_event_that_differs(tmp_path):
    log = tmp_path / "g.jsonl"
    run("run", PIG, "--seed", "1", "--log", str(log), "--json")
    lines = log.read_text().splitlines()
    rolls = [i for i, line in enumerate(lines) if json.loads(line)["t"] == "roll"]
    i = next(i for i in rolls[1:] if json.loads(lines[i])["faces"] != [1])
    edited = tmp_path / "edited.jsonl"
    rec = json.loads(lines[i])
    rec["faces"] = [1]  # the turn ends early: the game runs out of logged dice before its end
    edited.write_text("\n".join(lines[:i] + [json.dumps(rec)] + lines[i + 1:]) + "\n")
    out = run("replay", str(edited), "--quiet")
    assert out.exit_code == 1
    assert "the replay differs from the log at event" in out.output
    assert "log ends" not in out.output
    cut = tmp_path / "cut.jsonl"  # a log that truly ends early still says so
    cut.write_text("\n".join(lines[:len(lines) // 2]) + "\n")
    short = run("replay", str(cut), "--quiet")
    assert short.exit_code == 1 and "the log ends before the game does" in short.output


def test_a_replay_that_cannot_make_the_next_logged_draw_names_it(tmp_path):
    log = tmp_path / "g.jsonl"
    run("run", DUNGEON, "--seed", "1", "--log", str(log), "--json")
    lines = log.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if json.loads(line)["t"] == "draw"
             and json.loads(line).get("blind"))
    rec = json.loads(lines[i])
    rec["items"] = ["no_such_die[0]"]
    lines[i] = json.dumps(rec)
    log.write_text("\n".join(lines) + "\n")
    out = run("replay", str(log), "--quiet")
    assert out.exit_code == 1
    assert f"the replay differs from the log at event {i}: logged {json.dumps(rec)}" \
        in out.output
    assert "no_such_die[0], which is not there to draw" in out.output


# -- 5. found by checking docs/running.md against what runs ----------------------------------

def test_a_log_replays_and_resumes_from_another_folder_than_the_one_it_was_played_in(
        tmp_path, monkeypatch):
    monkeypatch.chdir(ROOT)
    log = tmp_path / "moved.jsonl"
    played = run("run", "rulesets/pig.yaml", "--seat", "1=human", "--seed", "3", "--log",
                 str(log), input="r\nh\n")  # stopped after two answers
    assert played.exit_code == 1
    monkeypatch.chdir(tmp_path)  # "rulesets/pig.yaml" no longer leads anywhere from here
    assert json.loads(log.read_text().splitlines()[0])["ruleset"] == "rulesets/pig.yaml"
    resumed = run("run", "--resume", str(log), "--json", input="h\n" * 200)
    assert resumed.exit_code == 0, resumed.output
    assert run("replay", str(log), "--quiet").exit_code == 0


def test_resume_refuses_a_seed_or_dice_source_it_would_not_use(tmp_path):
    log = tmp_path / "g.jsonl"
    run("run", PIG, "--seat", "1=human", "--log", str(log), input="r\n")
    for option in (["--seed", "3"], ["--dice", "table"]):
        out = run("run", "--resume", str(log), *option, input="h\n" * 200)
        assert out.exit_code == 2
        assert f"--resume takes everything from the log; drop {option[0]}" in out.output


def test_a_refereed_game_of_bots_keeps_the_bots_private_lines_from_the_table():
    # The table deals the turn order (card 1, then the last is taken) and draws the chips.
    typed = "1\n" + "5 5 10 10\n" * 8
    out = run("run", SALVAGE, "--dice", "table", "--players", "2", "--seed", "1", input=typed)
    assert "Player 1 researches " in out.output  # the bots research in front of the table
    assert "Sonar from" not in out.output  # but what their sonar said is theirs alone
    assert "(to Player" not in out.output
    bots = run("run", SALVAGE, "--players", "2", "--seed", "1")  # no table: all is shown
    assert "(to Player 1) Sonar from" in bots.output or "(to Player 2) Sonar from" in bots.output
