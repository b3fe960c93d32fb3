"""A race the referee's table reports by counts (`counts:`, `counts_per:`) and a zone it counts
instead of typing its faces (`counted: true`), on a small neutral ruleset: the faces of counted
dice are unknown, the counts are checked against what is left and asked again when impossible,
the counted dice then show the face their kind says, and a script or a log gives the same
claims again."""

from __future__ import annotations

import json
from collections import deque

from click.testing import CliRunner

from dsl import validate_text
from interpreter.cli.main import main
from interpreter.engine.chance import ScriptedChance, TableChance
from interpreter.engine.setup import load, new_game

# Four red and four blue dice lie in a counted pool; a caller die names a number; every player
# grabs the dice showing it. The table counts, per racer (or per team with counts_per), the
# called dice of its team's colour (`mine`) and of the other colour (`theirs`).
RULESET = """\
meeple: 1
metadata: {name: Counted grab}
players: {min: 2, max: 4, default: 2}
teams: {names: [red, blue], assign: alternate, leader: first}
components:
  dice:
    red: {count: 4, in: pool, attributes: {colour: red}}
    blue: {count: 4, in: pool, attributes: {colour: blue}}
    caller: {sides: 6}
  zones:
    pool: {kind: pool, counted: true}
    kept: {kind: pool, owner: player}
flow:
  phases:
    play:
      do:
        - roll: pool
        - roll: caller
        - race: grab
          items: pool
          by: players
          wanted: "item.face == caller.face"
          counts:
            mine:
              label: dice of its team's colour showing the called number
              where: "item.colour == racer.team.name"
              face: caller.face
            theirs:
              label: dice of the other colour showing the called number
              where: "item.colour != racer.team.name"
              face: caller.face
        - for_each: p
          in: players
          do:
            - if: "count(grab[p]) > 0"
              then:
                - move: "grab[p]"
                  to: p.kept
        - say: "{[count(p.kept) for p in players]} | {[d.face for d in players[0].kept]} | {count(pool)}"
      next: end
"""


def ruleset(tmp_path, text: str = RULESET) -> str:
    path = tmp_path / "counted.yaml"
    path.write_text(text)
    return str(path)


def referee(tmp_path, typed: list[str], players: int = 2, counting: bool = True,
            text: str = RULESET):
    """The game refereed by a table typing `typed`, line by line: the game, the questions it
    was asked and what it said back."""
    lines, asked, said = deque(typed), [], []

    def ask(question: str) -> str:
        asked.append(question)
        return lines.popleft()
    chance = TableChance(ask, said.append, seed=0, counting=counting)
    g = new_game(load(ruleset(tmp_path, text)).program, players, None, chance, 0)
    g.result = g.run()
    assert g.result.error is None, g.result.error
    assert not lines, f"not asked: {list(lines)}"
    return g, asked, said


def says(g) -> list[str]:
    return [r["text"] for r in g.log if r["t"] == "say"]


def race(g) -> dict:
    return next(r for r in g.log if r["t"] == "race")


def test_a_counted_zone_is_rolled_without_asking_and_its_faces_are_unknown(tmp_path):
    g, asked, _ = referee(tmp_path, ["3", "", ""])
    # Only the caller is asked for: the eight dice in the counted pool are not.
    assert [q for q in asked if q.startswith("Roll")] == [
        "Roll caller (d6) and enter its face (or undo): "]
    roll = next(r for r in g.log if r["t"] == "roll")
    assert roll["faces"] == [None] * 8
    assert says(g) == ["0, 0 | none | 8"]
    assert all(d.face is None for d in g.zones["pool"].items)


def test_the_table_counts_each_kind_and_the_counted_dice_show_the_called_face(tmp_path):
    # Caller 3. Player 1 (team red) counts 2 of its colour and 1 blue; Player 2 (team blue)
    # 3 blue and nothing red.
    g, asked, said = referee(tmp_path, ["3", "2 1", "mine=3"])
    assert says(g) == ["3, 3 | 3, 3, 3 | 2"]
    assert race(g)["claims"] == {"Player 1": ["red[0]", "red[1]", "blue[0]"],
                                 "Player 2": ["blue[1]", "blue[2]", "blue[3]"]}
    assert race(g)["counts"] == {"Player 1": {"mine": 2, "theirs": 1},
                                 "Player 2": {"mine": 3, "theirs": 0}}
    assert said[1:4] == ["Grab! count what each claimed (8 items were up for grabs):",
                         "  mine: dice of its team's colour showing the called number",
                         "  theirs: dice of the other colour showing the called number"]
    assert asked[1] == ("Player 1 (team red): how many mine, theirs? (2 numbers, or mine=N "
                        "theirs=N; nothing for none): ")
    # The dice left in the pool are still unknown.
    assert [d.face for d in g.zones["pool"].items] == [None, None]


def test_counts_that_are_not_possible_are_refused_with_the_reason_and_asked_again(tmp_path):
    # Player 1 says 5 red (there are 4), then a word, then too few numbers, then 2 red and
    # 1 blue; Player 2 then says 4 blue, but only 3 are left after Player 1's.
    g, _, said = referee(tmp_path, ["3", "5 0", "two 1", "1", "none=1", "2 1", "4 0", "3 0"])
    refusals = [s for s in said if "refused" in s]
    assert refusals == [
        "  refused: Player 1 (team red) cannot have claimed 5 dice of its team's colour showing"
        " the called number: only 4 can still be claimed; enter them again",
        "  refused: 'two' is not a count (a whole number from 0 to 1,000,000); enter them again",
        "  refused: expected 2 numbers (mine, theirs), got 1; enter them again",
        "  refused: there is no kind 'none' to count; kinds: mine, theirs; enter them again",
        "  refused: Player 2 (team blue) cannot have claimed 4 dice of its team's colour "
        "showing the called number: only 3 can still be claimed; enter them again"]
    assert says(g) == ["3, 3 | 3, 3, 3 | 2"]


def test_a_count_that_is_not_a_small_whole_number_is_refused_not_read(tmp_path):
    # A thousand digits, a superscript two, a negative number: refused with the reason.
    g, _, said = referee(tmp_path, ["3", "9" * 1000 + " 0", "\u00b2 0", "-1 0", "mine=1e3",
                                    "1 0", ""])
    refusals = [s.split(": ", 1)[1] for s in said if "refused" in s]
    assert len(refusals) == 4
    assert all("is not a count (a whole number from 0 to 1,000,000)" in r for r in refusals)
    assert race(g)["counts"]["Player 1"] == {"mine": 1, "theirs": 0}


def test_undo_at_a_later_report_asks_the_report_before_it_again(tmp_path):
    # Player 1 counts 4 red; at Player 2's question the table types undo: Player 1 is asked
    # again (the reds it took are free again), says 2 red, and Player 2 may then take 2 red.
    g, asked, _ = referee(tmp_path, ["3", "4 0", "undo", "2 0", "0 2"])
    assert [q.split(":")[0] for q in asked[1:]] == ["Player 1 (team red)", "Player 2 (team blue)",
                                                    "Player 1 (team red)", "Player 2 (team blue)"]
    assert race(g)["claims"] == {"Player 1": ["red[0]", "red[1]"],
                                 "Player 2": ["red[2]", "red[3]"]}
    assert [d.face for d in g.zones["pool"].items] == [None] * 4


def test_a_die_whose_face_is_known_counts_only_for_the_face_it_shows(tmp_path):
    # Without `counted`, the pool's faces are typed: red shows 3 3 1 1, blue 3 1 1 1. Player 1
    # may claim only the two reds showing 3, known dice of the called face.
    text = RULESET.replace("pool: {kind: pool, counted: true}", "pool: {kind: pool}")
    g, _, said = referee(tmp_path, ["3 3 1 1 3 1 1 1", "3", "3 0", "2 1", ""], text=text)
    assert any("only 2 can still be claimed" in s for s in said)
    assert race(g)["claims"]["Player 1"] == ["red[0]", "red[1]", "blue[0]"]


def test_counts_per_team_are_one_report_whose_claims_go_to_the_teams_first_racer(tmp_path):
    text = RULESET.replace("          counts:\n", "          counts_per: racer.team\n"
                                                  "          counts:\n")
    g, asked, _ = referee(tmp_path, ["3", "2 1", "0 1"], players=4, text=text)
    assert [q.split(":")[0] for q in asked[1:]] == ["team red", "team blue"]
    assert race(g)["counts"] == {"red": {"mine": 2, "theirs": 1},
                                 "blue": {"mine": 0, "theirs": 1}}
    assert race(g)["claims"] == {"Player 1": ["red[0]", "red[1]", "blue[0]"], "Player 2":
                                 ["red[2]"], "Player 3": [], "Player 4": []}


def test_a_table_that_types_every_face_names_the_items_instead(tmp_path):
    # counting=False (`--dice table:faces`): the pool's faces are asked, and the grab is
    # reported item by item as without counts.
    g, asked, _ = referee(tmp_path, ["3 3 1 1 3 1 1 1", "3", "1 2", "5"], counting=False)
    assert asked[0].startswith("Roll red (4 × d6), then blue (4 × d6) and enter the 8 faces")
    assert "counts" not in race(g)
    assert race(g)["claims"] == {"Player 1": ["red[0]", "red[1]"], "Player 2": ["blue[0]"]}


def test_a_script_gives_counts_and_the_same_dice_are_taken(tmp_path):
    program = load(ruleset(tmp_path)).program
    chance = ScriptedChance([None] * 8 + [5])  # the pool untracked (as a log says), caller 5
    g = new_game(program, 2, None, chance, 0, decisions=[
        {"race": "grab", "counts": {"Player 1": {"mine": 1}, "Player 2": {"theirs": 2}}}])
    g.result = g.run()
    assert g.result.error is None, g.result.error
    assert race(g)["claims"] == {"Player 1": ["red[0]"], "Player 2": ["red[1]", "red[2]"]}
    assert says(g) == ["1, 2 | 5 | 5"]


def test_a_script_whose_counts_are_not_possible_stops_the_game_at_the_race(tmp_path):
    program = load(ruleset(tmp_path)).program
    for counts, why in (({"Player 1": {"mine": 5}}, "only 4 can still be claimed"),
                        ({"Player 9": {"mine": 1}}, "'Player 9', who does not report"),
                        ({"Player 1": {"most": 1}}, "must map kinds (mine, theirs)")):
        g = new_game(program, 2, None, ScriptedChance([None] * 8 + [5]), 0,
                     decisions=[{"race": "grab", "counts": counts}])
        error = g.run().error
        assert error.code == "bad-input" and why in error.message, error.message
        assert error.path == ("flow", "phases", "play", "do", 2)


def test_a_counted_game_is_logged_and_replays_event_for_event(tmp_path):
    log = tmp_path / "game.jsonl"
    out = CliRunner().invoke(main, ["run", ruleset(tmp_path), "--dice", "table", "--log",
                                    str(log)], input="4\n1 1\nmine=2\n")
    assert out.exit_code == 0, out.output
    assert "Grab: Player 1 takes 1 mine, 1 theirs; Player 2 takes 2 mine" in out.output
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["dice"] == "table"
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert "the replay matches the log" in replayed.output


def test_the_checker_reads_a_kinds_where_and_face_with_racer_and_item(tmp_path):
    bad = RULESET.replace("face: caller.face\n            theirs", "face: callr.face\n"
                          "            theirs")
    result = validate_text(bad, "counted.yaml")
    assert [(d.code, d.path[-2:]) for d in result.diagnostics] == [
        ("unknown-name", ("mine", "face"))]
    assert validate_text(RULESET, "counted.yaml").ok
