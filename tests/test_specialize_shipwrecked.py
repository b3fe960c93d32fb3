"""The specializer on the way to Shipwrecked!: teams played exactly as the interpreter does.

Shipwrecked! (rulesets/shipwrecked.yaml) is not specialized yet: after teams it meets zones
owned by a team, then the `race` step, hazard events during a race, `reveal`. The first of its
features, teams, is specialized and checked here on a small neutral ruleset (a team relay):
`teams` with `assign: alternate` and `blocks`, team state (numbers, true/false) read and
written through `current.team`, `me.team` and loop variables, team-valued global state that may
be none, `teams`, `tm.name`, `tm.leader`, `tm.members`, `first` over teams, a decision taken by a
team's leader, `turns.by_team` with `first` (a team without members has no leader: the first
seat starts) and scoring by `player.team`. Seeded games played by the generated function must
give the interpreter's result, trigger, decision and unruled counts, with no seed handed back.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter.setup import load
from interpreter.specialize import _Gen, specialize
from interpreter.specialize_base import Unsupported
from tests.test_specialize import _same

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
    assert special.fallbacks == 0


def test_shipwrecked_still_declines_at_its_first_unspecialized_feature():
    # Teams are specialized now; the next feature Shipwrecked! needs is a zone per team.
    program = load(SHIPWRECKED).program
    assert specialize(program) is None
    with pytest.raises(Unsupported, match="a zone per team"):
        _Gen(program, 2, [None, None], False)
