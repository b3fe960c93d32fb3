"""The end condition after an operation tested at the seats it wrote (interpreter/compile/
checks.py `_end_at`): where the game ends when `any(TEST for p in players)` and each player's
TEST reads only that player's values, cannot fail and holds for nobody when the game begins,
the generated code tests it after a write at the seats written, not at every seat, and every
game plays as the reference interpreter's. Where one of those conditions fails, every seat is
tested as before, and a narrowed test would have missed an end the interpreter finds."""

from __future__ import annotations

import re

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Race to six}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    d: {sides: 6}
state:
  player:
    points: {type: int, initial: START}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 30"}
      do:
        - roll: d
        - if: "d.face >= 4"
          then:
            - add: {current.points: 1}
        - if: "d.face == 1"
          then:
            - transfer: 1
              of: points
              from: current
              to: next_player(current)
      next: end
end: {when: "WHEN"}
scoring: {score: player.points, order: highest}
EXTRA"""
ANY = "any(p.points >= 6 for p in players)"
FULL = "((P_points[0] >= 6) or (P_points[1] >= 6) or (P_points[2] >= 6))"


# A check whose steps write another player's points: no end test follows its operations.
GIFT = """\
checks:
  gift:
    for_each: player
    when: "player.points == 3"
    do:
      - add: {next_player(player).points: 2}
      - add: {player.points: 1}
"""


def _program(start: str = "0", when: str = ANY, extra: str = ""):
    text = GAME.replace("START", start).replace("WHEN", when).replace("EXTRA", extra)
    return program_of(text, "race.yaml")


def test_a_write_at_one_seat_tests_the_end_there_and_games_are_the_interpreters():
    program = _program()
    source = specialize(program).source
    assert "if ((P_points[cur] >= 6)):" in source  # after `add` to the current player
    # After the transfer, at its two seats: the current player and the next.
    assert re.search(r"if \(\(P_points\[cur\] >= 6\)\) or \(\(P_points\[_w\d+\] >= 6\)\):",
                     source)
    assert FULL not in source
    results = plays_as_the_interpreter(program, range(60))
    ends = sum(r.reason == "the end condition holds" for r, _ in results)
    assert ends > 10  # games that end at six, not at the last round


@pytest.mark.parametrize("case, start, when, extra", [
    # Seats 2 and 3 start at 8 and 12, at the goal already: the first write by seat 1 ends
    # the game in the interpreter, which a test of seat 1 alone would miss.
    ("holds when the game begins", "player.seat * 4", ANY, ""),
    # Each player's test reads the current player's points too.
    ("reads another player", "0", "any(p.points >= current.points + 3 for p in players)", ""),
    # Over some players, not every player.
    ("not every player", "0", "any(p.points >= 6 for p in opponents(current))", ""),
    ("one player", "0", "any(p.points >= 6 for p in [next_player(current)])", ""),
    # Not `any` over the players: tested as written.
    ("another shape", "0", "count(p for p in players if p.points >= 6) >= 1", ""),
    # A check's steps write another seat, and no end test follows them.
    ("a check writes", "0", ANY, GIFT),
])
def test_every_seat_is_tested_where_a_narrowed_test_could_miss_an_end(case, start, when,
                                                                      extra):
    program = _program(start, when, extra)
    source = specialize(program).source
    assert "if ((P_points[cur] >= 6)):" not in source, case
    assert not re.search(r"if \(\(P_points\[cur\] >= \S+\)\):", source), case
    plays_as_the_interpreter(program, range(30))
