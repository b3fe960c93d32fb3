"""`meeple run --resume LOG`: a game interrupted at any point (input closed, process killed,
a log line cut off mid-write) continues exactly where it stood, nothing lost, and the finished
log replays to the same result. `undo` at the table takes back the last typed die, decision
or race report, never a seeded die."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from click.testing import CliRunner

from interpreter.cli.main import main
from tests.test_table_and_human import MEEPLE, Terminal

ROOT = Path(__file__).resolve().parents[1]
PIG = str(ROOT / "rulesets" / "pig.yaml")


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


def result(output: str) -> dict:
    """The JSON result printed last (people's prompts come before it on the same stream)."""
    return json.loads(output[output.rindex('{\n  "ruleset"'):])


def inputs(log: Path) -> list:
    """What the game took from outside, without the moments people answered."""
    out = []
    for line in log.read_text().splitlines()[1:]:
        rec = json.loads(line)
        rec.pop("asked", None)
        rec.pop("at", None)
        out.append(rec)
    return out


def test_a_game_cut_off_when_its_input_closed_resumes_to_the_same_game(tmp_path):
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    answers = "r\nh\n" * 150
    played = run("run", PIG, "--seat", "1=human", "--seed", "3", "--log", str(whole),
                 "--json", input=answers)
    assert played.exit_code == 0, played.output
    stopped = run("run", PIG, "--seat", "1=human", "--seed", "3", "--log", str(cut),
                  input=answers[:12])  # six answers, then the terminal goes away
    assert stopped.exit_code == 1 and "The game stopped" in stopped.output
    resumed = run("run", "--resume", str(cut), "--json", input=answers[12:])
    assert resumed.exit_code == 0, resumed.output
    assert result(resumed.output)["seats"] == result(played.output)["seats"]
    assert inputs(cut) == inputs(whole)  # nothing lost, nothing played twice
    replayed = run("replay", str(cut), "--json")
    assert replayed.exit_code == 0, replayed.output
    assert result(replayed.output)["winners"] == result(played.output)["winners"]


def test_a_line_cut_off_by_the_interruption_is_dropped_and_the_game_goes_on(tmp_path):
    log = tmp_path / "g.jsonl"
    run("run", PIG, "--seat", "1=human", "--seed", "3", "--log", str(log), input="r\nh\nr\n")
    with log.open("a") as f:
        f.write('{"t": "decision", "id": "roll_or_ho')  # killed in the middle of a write
    resumed = run("run", "--resume", str(log), input="h\n" * 200)
    assert resumed.exit_code == 0, resumed.output
    assert "resumed: " in resumed.output
    assert all(json.loads(line) for line in log.read_text().splitlines())
    assert run("replay", str(log), "--quiet").exit_code == 0


def test_resume_refuses_a_log_that_the_ruleset_no_longer_plays(tmp_path):
    log = tmp_path / "g.jsonl"
    run("run", PIG, "--seat", "1=human", "--seed", "3", "--log", str(log), input="r\nh\n")
    lines = log.read_text().splitlines()
    rolls = [i for i, line in enumerate(lines) if json.loads(line)["t"] == "roll"]
    rec = json.loads(lines[rolls[0]])
    rec["faces"] = [7 - rec["faces"][0]]  # an edited die
    lines[rolls[0]] = json.dumps(rec)
    log.write_text("\n".join(lines) + "\n")
    resumed = run("run", "--resume", str(log), input="h\n" * 200)
    assert resumed.exit_code == 1
    assert "differs from its log at event" in resumed.output


def test_resume_of_a_finished_game_points_to_replay_and_other_options_are_refused(tmp_path):
    log = tmp_path / "g.jsonl"
    assert run("run", PIG, "--seed", "1", "--log", str(log), "--json").exit_code == 0
    done = run("run", "--resume", str(log))
    assert done.exit_code == 0 and "has ended" in done.output
    both = run("run", PIG, "--resume", str(log))
    assert both.exit_code == 2 and "drop RULESET" in both.output
    assert run("run").exit_code == 2


def test_a_referee_game_resumes_with_the_dice_typed_in_so_far(tmp_path):
    log = tmp_path / "ref.jsonl"
    # Pig refereed from typed dice: 4, 6, 5 then the input ends.
    stopped = run("run", PIG, "--dice", "table", "--seed", "1", "--log", str(log),
                  input="4\n6\n5\n")
    assert stopped.exit_code == 1
    typed = [json.loads(x)["faces"] for x in log.read_text().splitlines()[1:]
             if json.loads(x)["t"] == "roll"]
    assert typed == [[4], [6], [5]]
    resumed = run("run", "--resume", str(log), input="1\n" + "2\n" * 400)
    assert resumed.exit_code == 0, resumed.output
    assert "Roll die" in resumed.output  # the table is asked again, after the logged dice
    faces = [json.loads(x)["faces"] for x in log.read_text().splitlines()[1:]
             if json.loads(x)["t"] == "roll"]
    assert faces[:4] == [[4], [6], [5], [1]]


def test_killing_the_process_mid_game_at_a_terminal_loses_nothing(tmp_path):
    log = tmp_path / "killed.jsonl"
    term = Terminal([MEEPLE, "run", PIG, "--seat", "1=human", "--seed", "8", "--log", str(log)])
    for _ in range(3):
        term.expect_more("> ", term.screen.count("> ") + 1, "Game over")
        term.type("r")
    term.expect_more("> ", term.screen.count("> ") + 1, "Game over")
    time.sleep(0.2)
    os.kill(term.pid, signal.SIGKILL)
    term.wait()
    before = inputs(log)
    assert sum(r["t"] == "decision" and r["by"] == "Player 1" for r in before) >= 3
    term = Terminal([MEEPLE, "run", "--resume", str(log)])
    for _ in range(300):
        term.expect_more("> ", term.screen.count("> ") + 1, "Game over")
        if "Game over" in term.screen:
            break
        term.type("h")
    assert term.wait() == 0
    assert "resumed: " in term.screen
    assert inputs(log)[:len(before)] == before
    replay = subprocess.run([sys.executable, "-m", "interpreter.cli", "replay", str(log),
                             "--quiet"], capture_output=True, text=True, cwd=ROOT)
    assert replay.returncode == 0, replay.stderr


def rolls(log: Path) -> list:
    return [r["faces"] for r in inputs(log) if r["t"] == "roll"]


def test_undo_at_the_table_takes_back_a_mistyped_die(tmp_path):
    log = tmp_path / "ref.jsonl"
    out = run("run", PIG, "--dice", "table", "--seed", "1", "--log", str(log), "--set",
              "goal=12", input="4\n6\nundo\n3\n" + "2\n" * 100)
    assert out.exit_code == 0, out.output
    assert "(undone: the roll of die ⚅ 6)" in out.output
    assert rolls(log)[:2] == [[4], [3]]
    assert run("replay", str(log), "--quiet").exit_code == 0


def test_undo_takes_back_a_persons_decision_but_never_rerolls_seeded_dice(tmp_path):
    straight, undone = tmp_path / "straight.jsonl", tmp_path / "undone.jsonl"
    run("run", PIG, "--seat", "1=human", "--seed", "5", "--log", str(straight),
        input="h\n" * 200)
    out = run("run", PIG, "--seat", "1=human", "--seed", "5", "--log", str(undone),
              input="r\nundo\n" + "h\n" * 200)
    assert out.exit_code == 0, out.output
    assert "(undone: Player 1's choice for roll or hold: Roll)" in out.output
    # The same decisions once the roll is taken back, so the same seeded dice: no re-roll.
    assert inputs(undone) == inputs(straight)


def test_undo_with_nothing_entered_yet_says_so_and_asks_again(tmp_path):
    out = run("run", PIG, "--dice", "table", "--seed", "1", "--set", "goal=5",
              input="undo\n" + "3\n" * 50)
    assert out.exit_code == 0, out.output
    assert "(nothing to undo)" in out.output


def test_a_seeded_game_with_a_modelled_race_resumes_to_the_same_game(tmp_path, monkeypatch):
    # The bots' grab is modelled with random numbers from the dice's own stream: a resume
    # takes the race from the log and must draw as many, or every later die would differ.
    # Real time stands still here: a race lasts as long as the person took, when that is
    # longer than the model, and a busy machine must not make the two games differ.
    import types

    import interpreter.engine.clock
    monkeypatch.setattr(interpreter.engine.clock, "time", types.SimpleNamespace(monotonic=lambda: 0.0))
    ship = str(ROOT / "rulesets" / "shipwrecked.yaml")
    whole, cut = tmp_path / "whole.jsonl", tmp_path / "cut.jsonl"
    answers = "1\n\n" * 200  # island 1, and a grab of nothing, every turn
    played = run("run", ship, "--seat", "1=human", "--seed", "1", "--log", str(whole),
                 "--json", input=answers)
    assert played.exit_code == 0, played.output
    assert any(json.loads(line).get("uniforms") for line in whole.read_text().splitlines())
    stopped = run("run", ship, "--seat", "1=human", "--seed", "1", "--log", str(cut),
                  input=answers[:6])  # past the first grab, then the terminal goes away
    assert stopped.exit_code == 1 and "The game stopped" in stopped.output
    resumed = run("run", "--resume", str(cut), "--json", input=answers[6:])
    assert resumed.exit_code == 0, resumed.output
    assert inputs(cut) == inputs(whole)


def test_a_log_written_before_the_narration_said_who_rolled_still_replays_and_resumes(tmp_path):
    # Logs written before rolls and draws recorded who made them (`by`) and decisions their
    # label: the replay and the resume take them as they are, event for event.
    log = tmp_path / "new.jsonl"
    assert run("run", PIG, "--seed", "2", "--seat", "1=human", "--log", str(log),
               input="roll\nroll\nhold\n").exit_code == 1  # the input ends mid-game
    old = tmp_path / "old.jsonl"
    stripped = []
    for line in log.read_text().splitlines():
        rec = json.loads(line)
        had = rec.pop("by", None) if rec.get("t") == "roll" else None
        assert rec.get("t") != "roll" or had is not None  # the new log names the roller
        rec.pop("label", None)
        stripped.append(json.dumps(rec))
    old.write_text("\n".join(stripped) + "\n")
    resumed = run("run", "--resume", str(old), input="hold\n" * 200)
    assert resumed.exit_code == 0, resumed.output
    assert "the game differs from its log" not in resumed.output
    replayed = run("replay", str(old))
    assert "differs from the log" not in replayed.output
    assert "(the replay matches the log, event for event)" in replayed.output
