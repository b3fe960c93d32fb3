"""The specializer plays Shipwrecked! and teams exactly as the interpreter does.

Shipwrecked! (rulesets/shipwrecked.yaml) runs through the generated code: timed rolls of dice
known at run time, `draw` with `replace`, the modelled `race` (misgrabs, a hand's modelled
capacity, each hand's policy picking among the sailors it wants), hazard events during a race
with the claimed sailors in hands, `reveal`, list state grown by `add`; its games are compared
with the interpreter's under parameters that exercise each. Teams are checked on a small
neutral ruleset (a team relay):
`teams` with `assign: alternate` and `blocks`, team state (numbers, true/false) read and
written through `current.team`, `me.team` and loop variables, team-valued global state that may
be none, `teams`, `tm.name`, `tm.leader`, `tm.members`, `first` over teams, a decision taken by a
team's leader, `turns.by_team` with `first` (a team without members has no leader: the first
seat starts) and scoring by `player.team`. Seeded games played by the generated function must
give the interpreter's result, trigger, decision and unruled counts, with no seed handed back.
Zones owned by a team and list state per team are checked on a second one (a team harbour):
dice moved to and drawn from `current.team.dock`, `count` and `in` on team zones, a team's list
read whole, in comprehensions and at an index (`tm.berths[k]`, in policies too), `set` and
`add` at an index (a negative `set` index takes from the end, as Python and the interpreter do;
a negative `add` index is the interpreter's error: that seed is handed back), `set` of the
whole list.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.test_specialize import _interpreted, _outcome, _same

ROOT = Path(__file__).resolve().parents[1]
SHIPWRECKED = str(ROOT / "rulesets" / "shipwrecked.yaml")

TEAM_RELAY = """\
meeple: 1
metadata: {name: Team relay}
players: {min: 2, max: 7, default: 4}
teams:
  names: [red, blue, green]
  assign: alternate
  leader: first
parameters:
  goal: {type: int, default: 25, min: 1, doc: Points a team needs.}
state:
  global:
    starting: {type: team, initial: none}
    leading: {type: team, initial: none}
  team:
    points: {type: int, initial: 0}
    busts: {type: int, initial: 0}
    bonus: {type: bool, initial: false}
  turn:
    run: {type: int, initial: 0}
components:
  dice:
    d: {sides: 6}
    coin: {sides: 3}
flow:
  phases:
    setup:
      do:
        - roll: coin
        - set:
            starting: >-
              first([tm for tm in teams if tm.name == (if coin.face == 1 then 'red'
              else if coin.face == 2 then 'blue' else 'green')])
      next: play
    play:
      turns:
        by_team: true
        first: starting.leader
      repeat:
        until: "any(tm.points >= goal for tm in teams)"
      do:
        - repeat:
            - choose: go
              by: current.team.leader
              options: [roll, stop]
            - if: "go == 'stop'"
              then: [break]
            - roll: d
            - if: "d.face == 1"
              then:
                - set: {run: 0}
                - add: {current.team.busts: 1}
                - break
              else:
                - add: {run: d.face}
          max: 20
        - add: {current.team.points: run}
        - for_each: tm
          in: "[x for x in teams if x != current.team]"
          do:
            - if: "tm.points < current.team.points"
              then:
                - set: {tm.bonus: true}
        - set: {leading: "first([tm for tm in teams if tm.points == max(x.points for x in teams)])"}
      next: end
scoring:
  score: player.team.points
  tie_break: ["0 - player.team.busts"]
policies:
  steady:
    default: true
    decide:
      go:
        - when: "run >= 12 or (leading != none and leading != me.team and run >= 18)"
          choose: stop
        - when: "me.team.name == 'green' and run >= 10"
          choose: stop
        - when: "me.team.bonus and run >= 8"
          choose: stop
        - choose: roll
  coward:
    decide:
      go:
        - when: "run >= 6 and count(me.team.members) > 1"
          choose: stop
        - when: "run >= 15"
          choose: stop
        - choose: roll
"""


def _relay(tmp_path, assign: str = "alternate") -> str:
    path = tmp_path / f"team_relay_{assign}.yaml"
    path.write_text(TEAM_RELAY.replace("assign: alternate", f"assign: {assign}"),
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("players,seats", [
    (None, None),
    (2, None),                                  # a team without members, hence no leader
    (3, {2: "coward"}),
    (5, {1: "random", 3: "coward"}),
    (7, None),
])
@pytest.mark.parametrize("assign", ["alternate", "blocks"])
def test_team_games_give_the_interpreters_games(tmp_path, assign, players, seats):
    _same(_relay(tmp_path, assign), range(300), players=players, seats=seats)


def test_turns_by_team_go_once_a_round_to_each_team(tmp_path):
    # 4 seats in 3 teams: 3 turns a round, as the interpreter counts them.
    special = specialize(load(_relay(tmp_path)).program)
    result = special.play(1).result
    assert 3 * (result.rounds - 1) < result.turns <= 3 * result.rounds


HARBOUR = """\
meeple: 1
metadata: {name: Team harbour}
players: {min: 2, max: 6, default: 4}
teams:
  names: [red, blue]
  assign: alternate
  leader: first
parameters:
  berth_count: {type: int, default: 3, min: 3, doc: Berths each team keeps a tally of.}
  rounds: {type: int, default: 10, min: 1, doc: Rounds played at most.}
state:
  global:
    starting: {type: team, initial: none}
  team:
    target: {type: int, initial: 0}
    berths:
      type: list
      initial: "[0 for i in range(0, berth_count)]"
    held: {type: int, initial: 0}
  turn:
    got: {type: list, initial: []}
components:
  dice:
    boats: {count: 30, sides: 6, in: sea}
    coin: {sides: 2}
  zones:
    sea: {kind: pool}
    dock: {kind: pool, owner: team}
flow:
  phases:
    setup:
      do:
        - roll: sea
        - roll: coin
        - set:
            starting: >-
              first([tm for tm in teams if tm.name == (if coin.face == 1 then 'red' else 'blue')])
      next: play
    play:
      turns:
        by_team: true
        first: starting.leader
      repeat:
        until: "count(sea) == 0 or round >= rounds"
      do:
        - choose: berth
          by: current.team.leader
          options: [one, two, three]
        - set:
            current.team.target: "if berth == 'one' then 1 else if berth == 'two' then 2 else 3"
        - roll: sea
        - set: {got: "[d for d in sea if d.face >= 5]"}
        - if: "count(got) > 0"
          then:
            - move: got
              to: current.team.dock
            - add: {"current.team.berths[current.team.target - 1]": "count(got)"}
          else:
            # an empty haul clears the berth before (the last one for berth one)
            - set: {"current.team.berths[current.team.target - 2]": 0}
        - if: "count(d for d in sea if d.face == 1) >= 3 and count(current.team.dock) > 0"
          then:
            - draw: current.team.dock
              as: lost
            - move: lost
              to: sea
            - set:
                "current.team.berths[0]": "max(0, current.team.berths[0] - 1)"
                current.team.target: 1
        - if: "count(d for d in got if d.face == 6) >= 3"
          then:
            - for_each: tm
              in: teams
              do:
                - set: {tm.berths: "[max(0, b - 1) for b in tm.berths]"}
      next: reckoning
    reckoning:
      do:
        - for_each: side
          in: teams
          do:
            - set:
                side.held: >-
                  count(k for k in range(0, berth_count)
                  if side.berths[k] > max(tm.berths[k] for tm in teams if tm != side))
      next: end
scoring:
  score: player.team.held
  tie_break:
    - "count(player.team.dock)"
    - "count([d for d in boats if d in player.team.dock and d.face == 6])"
    - "sum(player.team.berths)"
policies:
  steady:
    default: true
    decide:
      berth:
        - best: >-
            0 - abs(me.team.berths[if option == 'one' then 0 else if option == 'two' then 1 else 2]
            - max(tm.berths[if option == 'one' then 0 else if option == 'two' then 1 else 2]
            for tm in teams if tm != me.team))
  greedy:
    decide:
      berth:
        - when: "count(me.team.dock) > 4 and me.team.berths[2] < 3"
          choose: three
        - random: true
"""


def _harbour(tmp_path, teams: int = 2, assign: str = "alternate", text: str = HARBOUR) -> str:
    names = ["red", "blue", "green"][:teams]
    path = tmp_path / f"team_harbour_{teams}_{assign}.yaml"
    path.write_text(text.replace("names: [red, blue]", f"names: [{', '.join(names)}]")
                    .replace("assign: alternate", f"assign: {assign}"), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("teams,assign,players,seats,sets", [
    (2, "alternate", None, None, None),
    (2, "alternate", 3, {2: "greedy"}, None),
    (2, "blocks", 5, {1: "random", 4: "greedy"}, {"berth_count": "4"}),
    (3, "alternate", 2, None, None),                  # a team without members (green)
    (3, "blocks", 6, {3: "greedy", 5: "random"}, {"rounds": "6"}),
])
def test_team_zones_and_team_lists_give_the_interpreters_games(tmp_path, teams, assign,
                                                                players, seats, sets):
    _same(_harbour(tmp_path, teams, assign), range(300), sets=sets, players=players,
          seats=seats)


@pytest.mark.parametrize("new,said", [
    # The interpreter reads the item before adding: a negative index is its error.
    ('- add: {"current.team.berths[current.team.target - 2]": 1}',
     "index -1 is out of range for a list of 3 items"),
    # A write past the list's ends (berth three's, one further).
    ('- set: {"current.team.berths[current.team.target]": 0}',
     "cannot set item 3 of "),
])
def test_an_item_of_a_teams_list_past_its_ends_stops_the_game_at_the_target(tmp_path, new,
                                                                             said):
    # Located at the step's target, as the interpreter locates it, by the generated code
    # itself (its checked version): no seed goes back to the interpreter.
    text = HARBOUR.replace('- set: {"current.team.berths[current.team.target - 2]": 0}', new)
    assert text != HARBOUR
    program = load(_harbour(tmp_path, text=text)).program
    special = specialize(program)
    assert special is not None
    stopped = []
    for seed in range(60):
        played = special.play(seed)
        got = _outcome(played)
        assert got == _interpreted(program, None, None, seed), f"seed {seed}"
        error = played.result.error
        if error is not None:
            assert error.path[-2:] == (new[2:5], new[new.index('"') + 1:new.index('":')])
            stopped.append(error.message)
    assert stopped and all(message.startswith(said) for message in stopped)


@pytest.mark.parametrize("sets,seats,players", [
    (None, None, None),
    ({"knock_hazard": "0.3"}, None, None),                      # sailors knocked mid-grab
    ({"misgrab_return": "keep_face", "misgrab_rate": "0.3"}, {1: "random"}, None),
    ({"first_team": "random", "hand_capacity": "2"}, {2: "random_islands"}, 4),
])
def test_shipwrecked_gives_the_interpreters_games(sets, seats, players):
    _same(SHIPWRECKED, range(40), None, sets, players, seats)



@pytest.mark.parametrize("during", [
    "0 // (turn - 3) == 0 and grabbing",                         # fails in the third turn
    "count([d for d in range(0, 100) if d > turn]) > 0 and grabbing",  # counts work
])
def test_a_hazard_that_never_happens_still_tests_its_during(tmp_path, during):
    # At rate 0 (the default) a knock never happens, but Game.advance tests its `during` at
    # every stretch of time all the same: that test's error stops the game, its work counts.
    # The generated code dropped the hazard, test and all, and played on.
    text = Path(SHIPWRECKED).read_text(encoding="utf-8")
    assert "    during: grabbing\n" in text
    path = tmp_path / "shipwrecked_during.yaml"
    path.write_text(text.replace("    during: grabbing\n", f'    during: "{during}"\n'),
                    encoding="utf-8")
    assert _same(str(path), range(6)) == (6 if "//" in during else 0)


@pytest.mark.parametrize("wanted", [
    "item in matching",                                               # one set for all
    "item not in matching",                                           # its complement
    "item in [d for d in matching if d.colour == racer.team.name]",   # a list per racer
    "item in (if racer == first(players) then matching else [])",     # one, no work counted
    "item in [d for d in matching if d.face > 2]",                    # work counted per test
])
def test_a_races_wanted_membership_gives_the_interpreters_games(tmp_path, wanted):
    # The generated code reads `item in X` (or `not in`) with X the same for every racer as
    # a set made once; a list that depends on the racer, or whose making counts work (the
    # interpreter counts it at every test), as written. Racers whose test is the same share
    # one wanted list.
    text = Path(SHIPWRECKED).read_text(encoding="utf-8")
    assert 'wanted: "item in matching"' in text
    edited = text.replace('wanted: "item in matching"', f'wanted: "{wanted}"')
    path = tmp_path / "shipwrecked_wanted.yaml"
    path.write_text(edited, encoding="utf-8")
    program = load(str(path)).program
    special = specialize(program)
    assert special is not None, "the specializer refused this setup"
    hoisted = re.search(r"= set\(", special.source) is not None
    assert hoisted == (wanted in ("item in matching", "item not in matching"))
    # A test that does not read the racer makes one wanted list, which stands for every
    # racer's (each claim leaves all their lists alike).
    shared = re.search(r"= \[_sw\d+\] \* len\(", special.source) is not None
    assert shared == ("racer" not in wanted and "face > 2" not in wanted)
    _same(str(path), range(30))
