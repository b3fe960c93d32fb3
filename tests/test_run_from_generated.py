"""`meeple run --from POSITION` plays on the generated code (issue 15), as the reference
interpreter plays it.

The generated code takes the game as the interpreter's `Game` stands once the position is
applied (every state value, zone, die, who is out, the round, turn and whose turn) and begins
where Game._play begins: at the position's phase without `game_start`, or as usual without a
phase, and with `current` inside a phase with turns at the start of that player's turn (the
phase's beginning and the round's start behind it, the players before them passed over, that
turn not counted again, the round and turn state the position gives kept). Both paths say
and log the same game; a log of it replays and resumes from its position on the generated
code too.
"""

from __future__ import annotations

import json
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.engine.setup import load, new_game
from interpreter.table.position import position_of
from tests.conftest import ROOT
from tests.test_position import _example
from tests.test_run_generated import _replay, _run

RULESET = """\
meeple: 1
metadata: {name: Test}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    die: {sides: 6}
    white: {count: 3, sides: 6, in: pool}
  zones:
    pool: {kind: pool}
    table: {kind: row}
    hand: {kind: pool, owner: player}
state:
  global:
    pot: 0
    leader: {type: player, initial: none}
  player:
    score: 0
  round:
    lap: 0
  turn:
    turn_total: 0
triggers:
  hello:
    on: game_start
    do: [say: "game starts"]
  new_round:
    on: round_start
    do: [say: "round {round} starts"]
flow:
  phases:
    setup:
      do: [say: "setup"]
      next: play
    play:
      on_begin: [say: "play begins"]
      turns: {order: clockwise}
      repeat: {times: 2}
      do:
        - roll: die
        - say: "{current.name}: turn {turn} round {round} lap {lap} total {turn_total} pot {pot}"
        - say: "table {count(table)}"
        - add: {turn_total: die.face, lap: 1, pot: 1}
        - add: {current.score: turn_total}
        - if: "count(pool) > 0"
          then: [{move: "first(pool)", to: current.hand}]
        - set: {leader: current}
      next: tally
    tally:
      do: [say: "tally {pot}, leader {if leader == none then 'none' else leader.name}"]
      next: end
scoring: {score: player.score, order: highest}
"""

# Positions of the small ruleset above: inside a phase at a player's turn (state kept, a
# player out, zones and faces set), at a phase's start, the end, and no phase at all.
POSITIONS = {
    "inside a turn": """\
        phase: play
        round: 3
        turn: 8
        current: Player 2
        state: {turn_total: 5, lap: 4, pot: 9, leader: Player 3}
        players:
          Player 1: {score: 40, hand: ["white[0]"]}
          3: {score: 7, eliminated: true}
        zones:
          table: [{die: "white[1]", face: 6}]
        dice: {die: 3, white: [2, 6, 5]}
        """,
    "the last seat's turn": "phase: play\nround: 1\nturn: 3\ncurrent: 3\n",
    "a phase's start": "phase: play\nround: 4\nturn: 10\nstate: {pot: 2}\n",
    "a phase without turns": "phase: tally\nstate: {pot: 30, leader: 2}\n",
    "the end": "phase: end\nplayers: {1: {score: 3}, 2: {score: 8}}\n",
    "no phase": "players: {Player 2: {score: 9}}\nstate: {pot: 4}\n",
}

# Each shipped ruleset from a position: inside a round where the rules allow a game to stand
# there without its setup, else with its setup played (and Dark Water Salvage from
# docs/running.md's worked example).
SHIPPED = {
    "pig": """\
        phase: play
        round: 3
        turn: 5
        current: Player 2
        state: {turn_total: 7}
        players: {Player 1: {score: 40}, Player 2: {score: 55}}
        """,
    "wreckdivers": """\
        phase: dives
        round: 2
        turn: 5
        current: Player 2
        players: {Player 1: {gold: 12}, Player 3: {gold: 4}}
        """,
    "dice_survivor": """\
        phase: main
        round: 2
        turn: 6
        current: Player 3
        """,
    "liars_dice": "players: {Player 1: {lasted: 2}}\n",  # no phase: set up as usual
    "dice_bag_dungeon": "state: {travel_paid_last_turn: true}\n",
    "shipwrecked": """\
        phase: play
        round: 2
        turn: 3
        current: Player 2
        state: {sharks_fed: 1, starting_team: white}
        teams: {black: {eaten: 2}}
        """,
}


def _both(ruleset: str, text: str, tmp_path, monkeypatch, name: str = "g"):
    """`meeple run RULESET --from` the position `text` on both paths, logged."""
    pos = tmp_path / f"{name}.pos.yaml"
    pos.write_text(textwrap.dedent(text), encoding="utf-8")
    logs = [tmp_path / f"{name}-generated.jsonl", tmp_path / f"{name}-interpreted.jsonl"]
    runs = [_run([ruleset, "--seed", "3", "--from", str(pos), "--log", str(log), "--force"],
                 monkeypatch, generated) for log, generated in zip(logs, (True, False),
                                                                  strict=True)]
    return runs[0], runs[1], logs


def _same(got, want, logs) -> None:
    assert (got[2], got[3], want[2]) == (1, 0, 0)  # played to its end where it was meant to
    assert got[1] == want[1] == 0
    assert got[0].replace(str(logs[0]), "LOG") == want[0].replace(str(logs[1]), "LOG")
    records = [[json.loads(line) for line in log.read_text().splitlines()[1:]] for log in logs]
    assert records[0] == records[1]


@pytest.mark.parametrize("where", POSITIONS)
def test_a_game_from_a_position_runs_on_the_generated_code_as_the_interpreter_plays_it(
        where, tmp_path, monkeypatch):
    ruleset = tmp_path / "game.yaml"
    ruleset.write_text(RULESET, encoding="utf-8")
    got, want, logs = _both(str(ruleset), POSITIONS[where], tmp_path, monkeypatch)
    _same(got, want, logs)
    if where == "inside a turn":  # the turn the position stands at, then the next round
        lines = got[0].splitlines()
        turn = lines.index("  Player 2: turn 8 round 3 lap 4 total 5 pot 9")
        assert lines[turn + 1] == "  table 1"  # white[1], placed on the table
        assert "play begins" not in got[0] and "round 3 starts" not in got[0]
        assert lines[turn + 3] == "  round 4 starts" and "Player 3: turn" not in got[0]


def test_a_position_that_gives_the_turn_to_a_player_without_one_stops_alike(tmp_path,
                                                                            monkeypatch):
    # Shipwrecked!'s turns go to each team's leader: a position whose current is another
    # member (Player 3, white's second of four players) stops the game where it would go
    # on, in the same words on both paths, the generated code's own.
    pos = tmp_path / "p.yaml"
    pos.write_text("phase: play\nround: 2\nturn: 3\ncurrent: Player 3\n"
                   "state: {starting_team: white}\n", encoding="utf-8")
    args = [str(ROOT / "rulesets" / "shipwrecked.yaml"), "--players", "4", "--seed", "3",
            "--from", str(pos)]
    got, want = _run(args, monkeypatch, True), _run(args, monkeypatch, False)
    assert ("error: the position gives the turn to Player 3, who has no turn in phase 'play' "
            "[bad-input]") in got[0]
    assert got[0] == want[0] and got[1] == want[1] == 1
    assert (got[2], got[3], want[2], want[3]) == (1, 0, 0, 1)  # each path played it


@pytest.mark.parametrize("game", SHIPPED)
def test_a_shipped_game_from_a_position_runs_on_the_generated_code(game, tmp_path,
                                                                   monkeypatch):
    got, want, logs = _both(str(ROOT / "rulesets" / f"{game}.yaml"), SHIPPED[game], tmp_path,
                            monkeypatch)
    _same(got, want, logs)


class _Taken(Exception):
    """Stops an interpreted game once its position is taken."""


@pytest.mark.parametrize("seed,turns", [(2, 3), (4, 1)])
@pytest.mark.parametrize("game", sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml")))
def test_a_position_taken_from_a_game_under_way_plays_on_alike(game, seed, turns, tmp_path,
                                                               monkeypatch):
    # The position of a bot game of each shipped ruleset after a few turns (position_of, as
    # `--json` writes it: every state value, zone, die and card), played on from there on
    # other dice: the same game on both paths.
    path = str(ROOT / "rulesets" / f"{game}.yaml")
    under_way = new_game(load(path).program, None, {}, seed=seed)
    under_way.logging = under_way.narrating = False
    taken: list[dict] = []

    def take(g, player) -> None:
        if g.turn >= turns:
            taken.append(position_of(g))
            raise _Taken()
    under_way.on_turn_end = take
    with pytest.raises(_Taken):
        under_way.run()
    got, want, logs = _both(path, json.dumps(taken[0]), tmp_path, monkeypatch)
    _same(got, want, logs)


def test_running_mds_end_game_position_runs_on_the_generated_code(tmp_path, monkeypatch):
    got, want, logs = _both(str(ROOT / "rulesets" / "dark_water_salvage.yaml"),
                            _example("# end_game.yaml"), tmp_path, monkeypatch)
    _same(got, want, logs)
    assert "Player 1 hires a boat at Westport" in got[0]


def test_a_position_sets_a_list_no_rule_writes_and_json_gives_it_back(tmp_path, monkeypatch):
    # A list whose items no rule writes (the generated code never reads it) keeps the value
    # the position gives, players included, to the final position of `--json`.
    text = RULESET.replace("    pot: 0\n", "    pot: 0\n    notes: {type: list, initial: []}\n")
    ruleset = tmp_path / "notes.yaml"
    ruleset.write_text(text, encoding="utf-8")
    pos = tmp_path / "pos.yaml"
    pos.write_text("phase: play\nstate: {notes: [a, {player: Player 2}, 3]}\n",
                   encoding="utf-8")
    got, want = (_run([str(ruleset), "--seed", "2", "--from", str(pos), "--json"], monkeypatch,
                      generated) for generated in (True, False))
    assert got[:2] == want[:2] and (got[2], got[3]) == (1, 0)
    result = json.loads(got[0][got[0].index("{"):])
    assert result["position"]["state"]["notes"] == ["a", {"player": "Player 2"}, 3]


def test_a_log_from_a_position_replays_and_resumes_on_the_generated_code(tmp_path,
                                                                         monkeypatch):
    # The log's header keeps the position: replayed from it, and resumed from it when cut.
    got, want, logs = _both(str(ROOT / "rulesets" / "pig.yaml"), SHIPPED["pig"], tmp_path,
                            monkeypatch)
    _same(got, want, logs)
    replays = [_replay(logs[0], monkeypatch, generated) for generated in (True, False)]
    assert replays[0][:2] == replays[1][:2] and replays[0][1] == 0
    assert (replays[0][2], replays[1][2]) == (0, 1)
    assert "(the replay matches the log, event for event)" in replays[0][0]
    lines = logs[0].read_text().splitlines()
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(lines[:12]) + "\n", encoding="utf-8")
    resumed = _run(["--resume", str(cut)], monkeypatch, True)
    assert (resumed[1], resumed[2], resumed[3]) == (0, 1, 0)
    assert cut.read_text().splitlines()[1:] == lines[1:]  # the same game to its end


# Valid positions of the small ruleset: any phase (or none, or the end), round and turn
# counters, whose turn, its state, scores, who is out, where the white dice lie and their
# faces.
SEATS = ["Player 1", "Player 2", "Player 3"]
positions = st.fixed_dictionaries({}, optional={
    "phase": st.sampled_from(["setup", "play", "tally", "end"]),
    "round": st.integers(0, 5),
    "turn": st.integers(0, 12),
    "current": st.sampled_from(SEATS),
    "state": st.fixed_dictionaries({}, optional={
        "pot": st.integers(0, 50), "leader": st.sampled_from([None, *SEATS]),
        "lap": st.integers(0, 9), "turn_total": st.integers(0, 30)}),
    "players": st.dictionaries(st.sampled_from(SEATS), st.fixed_dictionaries(
        {"score": st.integers(0, 60)}, optional={"eliminated": st.booleans()}), max_size=3),
    "zones": st.permutations(["white[0]", "white[1]", "white[2]"]).flatmap(
        lambda dice: st.integers(0, 3).map(lambda k: {"table": dice[:k], "pool": dice[k:]})),
    "dice": st.fixed_dictionaries({}, optional={
        "die": st.integers(1, 6), "white": st.lists(st.integers(1, 6), min_size=3,
                                                     max_size=3)}),
})


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(where=positions, seed=st.integers(0, 50))
def test_any_position_plays_alike_on_both_paths(tmp_path_factory, monkeypatch, where, seed):
    folder = tmp_path_factory.mktemp("from")
    ruleset = folder / "game.yaml"
    ruleset.write_text(RULESET, encoding="utf-8")
    pos = folder / "pos.json"
    pos.write_text(json.dumps(where), encoding="utf-8")
    logs = [folder / "g.jsonl", folder / "i.jsonl"]
    got, want = (_run([str(ruleset), "--seed", str(seed), "--from", str(pos), "--log",
                       str(log)], monkeypatch, generated)
                 for log, generated in zip(logs, (True, False), strict=True))
    assert got[1] == want[1]
    assert got[0].replace(str(logs[0]), "LOG") == want[0].replace(str(logs[1]), "LOG")
    if got[1] == 0:  # played (a refused position is refused alike, before any game)
        assert (got[2], got[3]) == (1, 0)
        assert logs[0].read_text().splitlines()[1:] == logs[1].read_text().splitlines()[1:]
