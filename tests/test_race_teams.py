"""A race of teams (`race: grab`, `by: teams`) on the generated code, as race.py runs it: each
team a racer with its own numbers (`racer` the team), claiming with its leader's policy; the
race id maps each team to its claims (`grab[tm]`); on every version against the reference
interpreter, and a logged game replays."""

from __future__ import annotations

from click.testing import CliRunner

from interpreter.cli.main import main
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

TEAMS = """\
meeple: 1
metadata: {name: Team grab}
players: {min: 4, max: 4}
teams:
  names: [red, blue]
  assign: alternate
components:
  dice:
    red: {count: 4, in: pool, attributes: {colour: red}}
    blue: {count: 4, in: pool, attributes: {colour: blue}}
  zones:
    pool: {kind: pool}
    box: {kind: pool}
state:
  team:
    pts: {type: int, initial: 0}
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - roll: pool
        - race: grab
          items: pool
          by: teams
          wanted: "item.colour == racer.name or item.face >= 5"
          rate: "if racer.name == 'red' then 2 else 1.5"
          error_rate: 0.1
          model_capacity: 3
        - for_each: tm
          in: teams
          do:
            - add: {tm.pts: "total(grab[tm])"}
            - move: grab[tm]
              to: box
        - add: {current.score: "count(box)"}
        - move: box
          to: pool
scoring: {score: "player.score + player.team.pts", order: highest}
policies:
  high:
    default: true
    decide:
      grab:
        - best: "option.face"
"""


def test_a_race_of_teams_plays_as_the_interpreter():
    program = program_of(TEAMS, "teams.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(40))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 10
    races = [r for _, log in played for r in log if r["t"] == "race"]
    assert races and all(set(r["claims"]) == {"red", "blue"} for r in races)


def test_a_logged_race_of_teams_replays(tmp_path):
    path, log = tmp_path / "teams.yaml", tmp_path / "game.jsonl"
    path.write_text(TEAMS)
    ran = CliRunner().invoke(main, ["run", str(path), "--seed", "3", "--log", str(log)])
    assert ran.exit_code == 0, ran.output
    replayed = CliRunner().invoke(main, ["replay", str(log), "--quiet"])
    assert replayed.exit_code == 0, replayed.output


def test_a_race_of_teams_read_at_a_player_is_the_interpreters_stop():
    # The map of claims has teams for keys: reading it at a player stops the game.
    text = TEAMS.replace('add: {current.score: "count(box)"}',
                         'add: {current.score: "count(grab[current])"}')
    refused: list = []
    assert specialize(program_of(text, "teams.yaml"), refused=refused) is None
    assert "another kind" in str(refused[0])


def test_a_team_races_with_its_leaders_policy():
    # Teams in blocks: red is seats 1 and 2, blue seats 3 and 4. Each team claims as its
    # leader's policy ranks the dice (seat 1's, seat 3's); the others are never asked.
    from interpreter.engine.chance import SeededChance
    from interpreter.engine.setup import new_game
    from tests.generated_agreement import outcome
    text = TEAMS.replace("policies:\n", "policies:\n  low:\n    decide:\n      grab:\n"
                                        "        - best: \"0 - option.face\"\n")
    program = program_of(text.replace("assign: alternate", "assign: blocks"), "teams.yaml")
    for seats in ({1: "high", 2: "high", 3: "low", 4: "high"},
                  {1: "low", 2: "low", 3: "high", 4: "low"}):
        fast = specialize(program, seats=seats)
        assert fast is not None
        for seed in range(15):
            game = new_game(program, None, dict(seats), SeededChance(seed), seed)
            game.narrating = False
            assert outcome(fast.play(seed).result) == outcome(game.run()), (seats, seed)


def test_claims_read_before_any_race_has_run_stop_in_the_interpreters_words():
    # The race id holds none until its first race: reading it is the interpreter's stop.
    text = TEAMS.replace("        - roll: pool\n",
                         "        - roll: pool\n        - add: {current.score: "
                         "\"count(grab[current.team])\"}\n", 1)
    played = plays_as_the_interpreter(program_of(text, "teams.yaml"), range(5))
    assert {r.error.message for r, _ in played} == {"none cannot be indexed with [...]"}


def test_racers_named_by_the_races_own_claims_play_as_the_interpreter():
    # `by` reads the race's own claims (none at first): the generator knows the racers are
    # players without reading the claims first.
    text = TEAMS.replace("          by: teams\n",
                         "          by: \"[p for p in players if grab == none or "
                         "count(grab[p]) < 3]\"\n").replace(
        "          wanted: \"item.colour == racer.name or item.face >= 5\"\n",
        "          wanted: \"item.face >= 3\"\n").replace(
        "          rate: \"if racer.name == 'red' then 2 else 1.5\"\n", "").replace(
        "        - for_each: tm\n          in: teams\n          do:\n"
        "            - add: {tm.pts: \"total(grab[tm])\"}\n            - move: grab[tm]\n"
        "              to: box\n",
        "        - add: {current.team.pts: \"count(grab[current])\"}\n")
    plays_as_the_interpreter(program_of(text, "own.yaml"), range(20))
