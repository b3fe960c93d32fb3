"""A check for each player in the generated code: its steps are written once, in a loop over
the seats, and play as the reference interpreter's checks do (interpreter/compile/checks.py).

The rules run after every operation, so the unrolled steps were written once per seat after
every operation that could make a check hold: most of Dice Survivor's generated function. The
games here make each kind of exit from those steps happen: a player busts (their steps go on
to the next seat), the current player busts and their turn ends (`end_turn`, held until the
round of checks is over), a player is knocked out, and a check's steps end the game
(`end_game`, which must leave the seats' loop and the rounds at once).
"""

from __future__ import annotations

import re

import pytest

from interpreter.compile.base import Unsupported
from interpreter.compile.checks import CheckWriter
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Busting}
players: {min: 2, max: 6, default: SEATS}
components:
  dice:
    d: {sides: 6}
state:
  player:
    score: {type: int, initial: 0}
    busts: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 12"
      do:
        - roll: d
        - add: {current.score: d.face}
        - if: "d.face == 1"
          then:
            - for_each: p
              in: players
              do:
                - add: {p.score: 2}
        - add: {current.score: 1}
      next: end
checks:
  bust:
    for_each: player
    when: "player.score >= 8 and player.score % 2 == 0"
    do:
      - add: {player.score: -5, player.busts: 1}
      - if: "player == current"
        then: [end_turn]
  out:
    for_each: player
    when: "player.busts >= 3"
    do:
      - eliminate: player
  winner:
    for_each: player
    when: "player.score >= 17"
    do:
      - end_game:
        reason: "{player.name} reaches 17"
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("seats", [2, 4])
def test_checks_for_each_player_play_as_the_interpreter(seats):
    program = program_of(GAME.replace("SEATS", str(seats)), "busting.yaml")
    results = plays_as_the_interpreter(program, range(40))
    # The seeds reach every exit from a check's steps: a bust, a knock-out, the game's end.
    records = [r for _, log in results for r in log]
    assert any(r["t"] == "check" and r["check"] == "bust" for r in records)
    assert any(r["t"] == "eliminated" for r in records)
    assert any(r.error is None and "reaches 17" in (r.reason or "") for r, _ in results)


def test_a_check_for_each_player_is_written_once_whatever_the_seats():
    """Its steps do not grow with the seats: the bust's `add` to `busts` is written as often
    for six players as for two."""
    written = {}
    for seats in (2, 6):
        source = specialize(program_of(GAME.replace("SEATS", str(seats)), "busting.yaml")).source
        written[seats] = len(re.findall(r"P_busts\[\w+\] \+=", source))
    assert written[2] > 0 and written[6] == written[2]


# The same game, ended when one player is left or two are out (a count of the players out
# kept after every turn): the two counts by `eliminated` that the language's games use most.
COUNTED = GAME.replace("state:\n", "state:\n  global:\n    outs: {type: int, initial: 0}\n", 1) \
    .replace("        - add: {current.score: 1}\n",
             "        - add: {current.score: 1}\n"
             "        - set: {outs: \"count(p for p in players if p.eliminated)\"}\n", 1) \
    .replace("scoring:", "end:\n  when: \"count(p for p in players if not p.eliminated) <= 1"
                         " or outs >= 2\"\nscoring:", 1)


@pytest.mark.parametrize("seats", [2, 4])
def test_counting_the_players_out_and_in_plays_as_the_interpreter(seats):
    program = program_of(COUNTED.replace("SEATS", str(seats)), "counted.yaml")
    results = plays_as_the_interpreter(program, range(40))
    # The seeds end games by the count: one player left, or two out of four.
    assert any(r.error is None and r.reason == "the end condition holds" for r, _ in results)


def test_counting_the_players_out_or_in_is_one_call_not_a_test_per_seat():
    """`count(p for p in players if [not] p.eliminated)` reads the list of who is out once
    (`E.count`), not one conditional per seat, in each of the many places it is tested."""
    source = specialize(program_of(COUNTED.replace("SEATS", "4"), "counted.yaml")).source
    assert "E.count(False)" in source and "E.count(True)" in source
    assert "(1 if (not E[" not in source and "(1 if E[" not in source


def test_a_check_whose_steps_need_their_seat_known_is_written_per_seat(monkeypatch):
    """Where a check's steps cannot be written in the seats' loop (a step that needs its seat
    known when generating: none of the shipped rulesets has one), the loop's lines, written
    up to that step, are taken back and the steps are written per seat, as before the loop
    existed. Here every loop is refused once its steps are written, `end_turn` included."""
    real = CheckWriter._seat_loop

    def refused_after_the_steps(self, name, spec, seats, d, run):
        def run_then_refuse(*args):
            run(*args)
            raise Unsupported("a step that needs its seat known")
        return real(self, name, spec, seats, d, run_then_refuse)

    monkeypatch.setattr(CheckWriter, "_seat_loop", refused_after_the_steps)
    program = program_of(GAME.replace("SEATS", "4"), "busting.yaml")
    source = specialize(program).source
    assert not re.search(r"for _s\d+ in ", source)
    assert {int(s) for s in re.findall(r"P_busts\[(\d)\] \+=", source)} == {0, 1, 2, 3}
    plays_as_the_interpreter(program, range(40))
