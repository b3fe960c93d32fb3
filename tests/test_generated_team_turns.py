"""Turns by team (`turns: {by_team: true}`) in a game where players go out, on the generated
code, as Game._run_round takes them: each team once a round, played by its first member
still in (else its first member); on every version against the reference interpreter."""

from __future__ import annotations

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

TEAM_TURNS = """\
meeple: 1
metadata: {name: Team turns}
players: {min: 6, max: 6}
teams:
  names: [red, blue]
  assign: blocks
components:
  dice:
    d: {sides: 6}
state:
  team:
    pts: {type: int, initial: 0}
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {by_team: true}
      repeat: {until: "round >= 6"}
      do:
        - roll: d
        - add: {current.team.pts: d.face, current.score: "d.face * current.seat"}
        - if: "d.face <= 2 and count([p for p in players if not p.eliminated]) > 2"
          then: [eliminate: current]
scoring: {score: "player.score + player.team.pts", order: highest}
"""


def test_a_team_plays_by_its_first_member_still_in_as_the_interpreter():
    program = program_of(TEAM_TURNS, "teams.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(40))
    assert len({tuple(s.score for s in r.seats) for r, _ in played}) > 20
    # Some games put a team's first member out: the next member plays its turns.
    assert any(r.seats[0].eliminated and r.seats[1].score > 0 for r, _ in played)
