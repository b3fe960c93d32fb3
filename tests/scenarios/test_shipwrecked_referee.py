"""Shipwrecked! refereed by counts (SH-A14): the table never types the ocean's sixty faces; after
each grab it says, per team, how many called sailors of its own colour (`own`) and of the other's
(`other`) it grabbed. meeple checks the counts against the sailors of each colour left in the
ocean and plays the rest of the turn from them: islands, sharks, the reckoning.

The game below is scripted as a real table would play it: the islands are named by the team
leaders (a `--decisions` file, as people at the table would answer), the captains and the
counts are typed at the referee's prompt (`--dice table`). Every figure was worked out by hand:

    turn  team   islands (W, B)  captains   white counts     black counts     after
    1     white  2, 3            1 4        5 own, 2 other   4 own, 3 other   W 25, B 26 in the ocean
    2     black  2, 3            3 3 shark  1 own, 4 other   2 own, 3 other   4 B and 3 W eaten: W 22, B 22
    3     white  4, 4            6 2        3 own            2 own, 1 other   W 19, B 20
    4     black  1, 5            2 2 shark  nothing          5 other          5 W eaten: W 14
    5     white  1, 1            5 5 shark  6 other          1 own            6 B eaten: B 14; third attack

White holds island 2 (5 to 0) and island 4 (3 to 2), Black island 3 (4 to 0): White wins, 2
islands to 1.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from interpreter.cli.main import main
from tests.scenarios.play import ROOT

RULESET = str(ROOT / "rulesets" / "shipwrecked.yaml")

# The islands, in the order they are asked: the active team's leader first.
ISLANDS = [2, 3, 3, 2, 4, 4, 5, 1, 1, 1]
TYPED = ["1 4", "5 2", "4 3",
         "3 3", "1 4", "2 3",
         "6 2", "3 0", "30 0", "2 1",
         "2 2", "", "0 5",
         "5 5", "0 6", "own=1"]


def referee(tmp_path, typed: list[str], *options: str, islands=ISLANDS):
    """`meeple run --dice table` with the islands in a decisions file and `typed` at the
    table's prompts: the run and its log's records."""
    decisions, log = tmp_path / "islands.yaml", tmp_path / "game.jsonl"
    decisions.write_text(json.dumps([{"id": "island", "choice": i} for i in islands]))
    out = CliRunner().invoke(main, ["run", RULESET, "--dice", "table", "--set",
                                    "first_team=white", "--decisions", str(decisions), "--log",
                                    str(log), *options], input="\n".join(typed) + "\n")
    records = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
    return out, records


def result(out) -> dict:
    return json.loads(out.output[out.output.index("{\n"):])


def test_sh_a14_a_whole_game_refereed_by_counts_alone(tmp_path):
    out, records = referee(tmp_path, TYPED, "--json")
    assert out.exit_code == 0, out.output
    res = result(out)
    assert res["winners"] == ["Player 1"]
    assert res["reason"] == "the sharks have fed 3 times"
    assert [s["score"] for s in res["seats"]] == [2, 1]
    assert res["turns"] == 5
    # The table typed only captains and counts: ten captain dice, no sailor's face.
    typed_rolls = [r for r in records if r["t"] == "roll" and None not in r["faces"]]
    assert [r["dice"] for r in typed_rolls] == [["white_captain", "black_captain"]] * 5
    ocean_rolls = [r for r in records if r["t"] == "roll" and None in r["faces"]]
    assert ocean_rolls[0]["faces"] == [None] * 60  # the setup: the ocean is counted
    # The counts, as the log keeps them, one report per team.
    assert [r["counts"] for r in records if r["t"] == "race"] == [
        {"white": {"own": 5, "other": 2}, "black": {"own": 4, "other": 3}},
        {"white": {"own": 1, "other": 4}, "black": {"own": 2, "other": 3}},
        {"white": {"own": 3, "other": 0}, "black": {"own": 2, "other": 1}},
        {"white": {"own": 0, "other": 0}, "black": {"own": 0, "other": 5}},
        {"white": {"own": 0, "other": 6}, "black": {"own": 1, "other": 0}}]
    said = [r["text"] for r in records if r["t"] == "say"]
    assert "Player 1 brings 5 white sailor(s) to island 2." in said
    assert "Player 2 brings 4 black sailor(s) to island 3." in said
    assert "The sharks eat 4 sailor(s) grabbed by Player 1." in said
    assert "The sharks ate 7 sailor(s) this time (1 of 3 attacks)." in said
    assert "The sharks ate 5 sailor(s) this time (2 of 3 attacks)." in said
    assert said[-2:] == [
        "Team white controls 2 of 5 islands: 2, 4; sailors on islands 1 to 5: 0, 5, "
        "0, 3, 0; 8 sailors ashore, 14 in the ocean, 8 eaten.",
        "Team black controls 1 of 5 islands: 3; sailors on islands 1 to 5: 0, 0, 4, "
        "2, 0; 6 sailors ashore, 14 in the ocean, 10 eaten."]
    # The log replays, event for event.
    replayed = CliRunner().invoke(main, ["replay", str(tmp_path / "game.jsonl")])
    assert replayed.exit_code == 0, replayed.output
    assert "the replay matches the log" in replayed.output


def test_sh_a14_counts_that_are_not_possible_are_refused_and_asked_again(tmp_path):
    # Turn 3: Black says 30 of its own; 22 black sailors are left in the ocean.
    out, _ = referee(tmp_path, TYPED)
    assert out.exit_code == 0, out.output
    assert ("refused: team black cannot have claimed 30 called sailors of the team's own "
            "colour: only 22 can still be claimed; enter them again") in out.output
    # Turn 1: White took 5 white sailors, so Black cannot have 26 of the 25 left; and a word
    # or a wrong number of counts is refused too.
    typed = TYPED[:2] + ["4 26", "four 3", "4", *TYPED[2:]]
    out, records = referee(tmp_path, typed, "--force")
    assert out.exit_code == 0, out.output
    for why in ("team black cannot have claimed 26 called sailors of the other colour: only 25 "
                "can still be claimed", "'four' is not a count (a whole number from 0 to 1,000,000)",
                "expected 2 numbers (own, other), got 1"):
        assert f"refused: {why}; enter them again" in out.output, why
    assert [r["counts"] for r in records if r["t"] == "race"][0] == {
        "white": {"own": 5, "other": 2}, "black": {"own": 4, "other": 3}}


def test_sh_a14_the_counts_may_come_from_a_decisions_file(tmp_path):
    # The first turn's counts in the decisions file, after the islands: the table types only
    # the captains for it.
    decisions = tmp_path / "turn.yaml"
    decisions.write_text("- {id: island, choice: 2}\n- {id: island, choice: 3}\n"
                         "- {race: grab, counts: {white: {own: 5, other: 2}, black: {own: 4}}}\n")
    out = CliRunner().invoke(main, ["run", RULESET, "--dice", "table", "--set",
                                    "first_team=white", "--set", "shark_limit=1", "--decisions",
                                    str(decisions)], input="1 4\n3 3\n\n\n")
    assert out.exit_code == 0, out.output
    assert "Grab: team white takes 5 own, 2 other; team black takes 4 own" in out.output
    assert "Player 1 brings 5 white sailor(s) to island 2." in out.output


def test_sh_a14_a_game_refereed_by_counts_resumes_and_undoes_a_count(tmp_path):
    # The input ends in turn 3 while Black's counts are asked: White's (typed, not yet
    # logged: the race is logged whole) are asked again when the game resumes from its log.
    # Black then says 2 and 2, and the table takes it back at the next prompt (undo): both
    # teams' counts are asked again. (The resumed game has no decisions file: the islands of
    # turns 4 and 5 are the crew bots'.)
    log = tmp_path / "game.jsonl"
    out, _ = referee(tmp_path, TYPED[:8])
    assert out.exit_code == 1 and "continue it with `meeple run --resume" in out.output
    rest = ["3 0", "2 2", "undo", "3 0", "2 1", *TYPED[10:]]
    resumed = CliRunner().invoke(main, ["run", "--resume", str(log), "--json"],
                                 input="\n".join(rest) + "\n")
    assert resumed.exit_code == 0, resumed.output
    assert "(undone: the counts of the grab)" in resumed.output
    assert result(resumed)["reason"] == "the sharks have fed 3 times"
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert [r["counts"] for r in records if r["t"] == "race"][2] == {
        "white": {"own": 3, "other": 0}, "black": {"own": 2, "other": 1}}
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output


def test_sh_a14_a_table_that_tracks_every_face_is_asked_for_the_ocean():
    out = CliRunner().invoke(main, ["run", RULESET, "--dice", "table:faces", "--set",
                                    "sailors_per_colour=2", "--set", "first_team=white"],
                             input="\n")
    assert ("Roll white sailors (2 × d6), then black sailors (2 × d6) and enter the 4 faces in "
            "that order") in out.output


def test_sh_a14_a_view_says_the_counted_sailors_faces_are_not_tracked_not_unrolled(tmp_path):
    # The ocean's faces are the table's to count: a person's view (here the final one in
    # --json) says they are not tracked, never that the sailors were not rolled.
    out, _ = referee(tmp_path, TYPED, "--json")
    assert out.exit_code == 0, out.output
    dice = [d for section in result(out)["view"]["table"] for row in section["rows"]
            if row["value"]["kind"] == "dice" for d in row["value"]["dice"]]
    unknown = [d for d in dice if d["face"] is None]
    assert unknown and all(d.get("untracked") for d in unknown)
