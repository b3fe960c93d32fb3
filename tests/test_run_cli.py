"""`meeple run` and `meeple replay`: whole games from the command line, their logs and replays."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
GAMES = ["pig", "wreckdivers", "dice_survivor", "shipwrecked", "dice_bag_dungeon",
         "dark_water_salvage"]


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input)


@pytest.mark.parametrize("game", GAMES)
def test_run_plays_a_whole_game_and_names_the_winner(game):
    out = run("run", str(ROOT / "rulesets" / f"{game}.yaml"), "--seed", "1")
    assert out.exit_code == 0, out.output
    assert "Game over:" in out.output
    assert "Winner" in out.output


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_gives_the_same_log_byte_for_byte(game, tmp_path):
    logs = []
    for i in range(2):
        log = tmp_path / f"{i}.jsonl"
        out = run("run", str(ROOT / "rulesets" / f"{game}.yaml"), "--seed", "5", "--log",
                  str(log), "--json")
        assert out.exit_code == 0, out.output
        logs.append(log.read_bytes())
    assert logs[0] == logs[1]
    other = tmp_path / "other.jsonl"
    run("run", str(ROOT / "rulesets" / f"{game}.yaml"), "--seed", "6", "--log", str(other),
        "--json")
    assert other.read_bytes() != logs[0]


@pytest.mark.parametrize("game", GAMES)
def test_a_log_replays_to_the_same_result(game, tmp_path):
    log = tmp_path / "g.jsonl"
    played = run("run", str(ROOT / "rulesets" / f"{game}.yaml"), "--seed", "3", "--log",
                 str(log), "--json")
    replayed = run("replay", str(log), "--json")
    assert replayed.exit_code == 0, replayed.output
    assert json.loads(replayed.output)["winners"] == json.loads(played.output)["winners"]
    assert json.loads(replayed.output)["seats"] == json.loads(played.output)["seats"]


def test_an_edited_log_does_not_replay(tmp_path):
    log = tmp_path / "g.jsonl"
    run("run", str(ROOT / "rulesets" / "pig.yaml"), "--seed", "3", "--log", str(log), "--json")
    lines = log.read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if '"t": "roll"' in line and "[1]" not in line)
    rec = json.loads(lines[i])
    rec["faces"] = [1]
    lines[i] = json.dumps(rec)
    log.write_text("\n".join(lines) + "\n")
    out = run("replay", str(log), "--quiet")
    assert out.exit_code == 1
    assert "differs from the log" in out.output


def test_json_result_has_seats_placements_winners_and_counts():
    out = run("run", str(ROOT / "rulesets" / "pig.yaml"), "--seed", "2", "--json")
    data = json.loads(out.output)
    assert {"winners", "seats", "rounds", "turns", "steps", "rolls"} <= set(data)
    assert sorted(s["placement"] for s in data["seats"]) == [1, 2]
    winner = next(s for s in data["seats"] if s["placement"] == 1)
    assert data["winners"] == [winner["name"]]
    assert winner["score"] >= 100


def test_set_changes_a_parameter_and_a_bad_value_is_a_usage_error():
    out = run("run", str(ROOT / "rulesets" / "pig.yaml"), "--seed", "2", "--json",
              "--set", "goal=20")
    assert out.exit_code == 0
    assert max(s["score"] for s in json.loads(out.output)["seats"]) < 20 + 20 + 6
    bad = run("run", str(ROOT / "rulesets" / "pig.yaml"), "--set", "goal=lots")
    assert bad.exit_code == 2
    assert "not a whole number" in bad.output


def test_unknown_variant_policy_and_player_count_are_usage_errors():
    pig = str(ROOT / "rulesets" / "pig.yaml")
    assert run("run", pig, "--variant", "nope").exit_code == 2
    assert run("run", pig, "--seat", "1=policy:nope").exit_code == 2
    assert run("run", pig, "--players", "5").exit_code == 2


def test_a_variant_changes_the_game():
    out = run("run", str(ROOT / "rulesets" / "wreckdivers.yaml"), "--variant", "long_game",
              "--json", "--seed", "1")
    assert json.loads(out.output)["rounds"] == 5


def test_an_invalid_ruleset_does_not_run(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("meeple: 1\nmetadata: {name: X}\nplayers: {min: 1, max: 1}\n"
                   "flow: {phases: {a: {do: [set: {x: 1}]}}}\n")
    out = run("run", str(bad))
    assert out.exit_code == 1
    assert "bad.yaml:4:" in out.output


@pytest.mark.parametrize("game", ["shipwrecked", "dice_bag_dungeon", "dark_water_salvage"])
def test_a_person_plays_each_of_the_newer_seed_games_to_the_end_seeing_only_their_own_lines(
        game, tmp_path):
    # The person always answers "1": the first option, the first item listed in a race, one
    # dollar; refused answers would be asked again, and the game must still end.
    log = tmp_path / "g.jsonl"
    out = run("run", str(ROOT / "rulesets" / f"{game}.yaml"), "--seat", "1=human", "--seed", "2",
              "--log", str(log), input="1\n" * 3000)
    assert out.exit_code == 0, out.output[-2000:]
    assert "Game over" in out.output and "Traceback" not in out.output
    records = [json.loads(x) for x in log.read_text().splitlines()[1:]]
    others = {r["text"] for r in records if r["t"] == "say" and r.get("to") is not None
              and "Player 1" not in r["to"]}
    mine = {r["text"] for r in records if r["t"] == "say" and "Player 1" in (r.get("to") or [])}
    shown = out.output
    assert not [t for t in others - mine if t in shown]  # nobody else's private lines
    assert all(t in shown for t in mine)


def test_a_team_game_names_the_winning_team_and_each_seats_team():
    out = run("run", str(ROOT / "rulesets" / "shipwrecked.yaml"), "--seed", "3", "--players", "4")
    assert out.exit_code == 0, out.output
    data = json.loads(run("run", str(ROOT / "rulesets" / "shipwrecked.yaml"), "--seed", "3",
                          "--players", "4", "--json").output)
    # teams are assigned alternately: seats 1 and 3 are white, 2 and 4 black
    assert [s["team"] for s in data["seats"]] == ["white", "black", "white", "black"]
    teams = {s["team"] for s in data["seats"] if s["name"] in data["winners"]}
    assert len(teams) == 1
    assert f"(team {teams.pop()})" in out.output
    assert "  place  player    team " in out.output


def test_a_game_without_teams_has_no_team_in_its_result():
    data = json.loads(run("run", str(ROOT / "rulesets" / "pig.yaml"), "--seed", "2",
                          "--json").output)
    assert all("team" not in s for s in data["seats"])


def test_a_roll_of_many_dice_is_narrated_as_counts_of_each_face():
    out = run("run", str(ROOT / "rulesets" / "shipwrecked.yaml"), "--seed", "3")
    assert out.exit_code == 0, out.output
    first = next(line for line in out.output.splitlines()
                 if line.startswith("  The table rolls 30 white sailors ("))
    counts = [int(k) for k in re.findall(r"×(\d+)", first)]
    assert len(counts) <= 12 and sum(counts) == 60  # 30 white and 30 black, every die counted
    assert "white_sailors[0]" not in first


def test_a_log_in_a_missing_folder_is_a_usage_error_not_a_traceback(tmp_path):
    out = run("run", str(ROOT / "rulesets" / "pig.yaml"), "--log",
              str(tmp_path / "no" / "such" / "folder" / "game.jsonl"))
    assert out.exit_code == 2
    assert "cannot write the log" in out.output and "Traceback" not in out.output


def test_random_means_the_rulesets_own_random_policy_when_it_has_one():
    # Dark Water Salvage's `random` policy applies for a fair share (a number with no upper
    # bound is no choice to draw from everything legal); Wreckdivers has no such policy.
    out = run("run", str(ROOT / "rulesets" / "dark_water_salvage.yaml"), "--seed", "1",
              "--seat", "3=random")
    assert out.exit_code == 0, out.output
    bids = re.search(r"Revealed together, application: (.*)", out.output).group(1)
    assert all(int(x) < 100 for x in re.findall(r": (\d+)", bids)), bids
    assert "3: policy:random" in out.output
    plain = run("run", str(ROOT / "rulesets" / "wreckdivers.yaml"), "--seat", "2=random")
    assert "2: random" in plain.output


def test_the_seat_lines_say_each_seats_team_and_one_player_is_singular():
    out = run("run", str(ROOT / "rulesets" / "shipwrecked.yaml"), "--players", "3")
    assert "  seat 2: Player 2 (policy:crew, team black)" in out.output
    assert "  seat 3: Player 3 (policy:crew, team white)" in out.output
    solo = run("run", str(ROOT / "rulesets" / "dice_bag_dungeon.yaml"))
    assert solo.output.startswith("Dice-Bag Dungeon: 1 player, seed 0")


def test_with_json_stdout_holds_only_the_result_even_with_people_and_a_table(tmp_path):
    import subprocess
    import sys
    meeple = str(Path(sys.executable).with_name("meeple"))
    done = subprocess.run(
        [meeple, "run", str(ROOT / "rulesets" / "dice_bag_dungeon.yaml"), "--dice", "table",
         "--seat", "1=human", "--json"],
        input="purple\n2\nkeep\nno_bonus\nred\nsoak\n", capture_output=True, text=True,
        timeout=60)
    result = json.loads(done.stdout)  # nothing but the result
    assert result["winners"] == [] and "dies" in result["reason"]
    assert "Draw 1 blind from the bag" in done.stderr and "2. take_the_hit" in done.stderr
    assert "Player 1 rolls purple ⚁ 2" in done.stderr  # the person follows the narration


def test_the_whole_tables_narration_says_whose_private_lines_they_are():
    out = run("run", str(ROOT / "rulesets" / "dark_water_salvage.yaml"), "--seed", "1")
    assert out.exit_code == 0, out.output
    private = [line for line in out.output.splitlines() if "Sonar from" in line]
    assert private and all(re.match(r"  \(to Player \d\) Sonar from ", line) for line in private)
    assert "(private)" not in out.output


def test_a_bug_of_meeples_own_is_said_in_one_line_not_a_traceback(monkeypatch, capsys):
    # The installed command's last net: an exception nothing handled (a bug) is one clear
    # line on stderr and exit 1; MEEPLE_TRACEBACK=1 lets it through for meeple's developers.
    import interpreter.cli as cli_module

    def broken() -> None:
        raise IndexError("list index out of range\x1b[2J")

    monkeypatch.setattr(cli_module, "main", broken)
    monkeypatch.delenv("MEEPLE_TRACEBACK", raising=False)
    with pytest.raises(SystemExit) as stop:
        cli_module.cli()
    assert stop.value.code == 1
    err = capsys.readouterr().err
    assert err.startswith("error: meeple failed inside (IndexError: list index out of range")
    assert "[internal-error]" in err and "Traceback" not in err and "\x1b" not in err
    monkeypatch.setenv("MEEPLE_TRACEBACK", "1")
    with pytest.raises(IndexError):
        cli_module.cli()
