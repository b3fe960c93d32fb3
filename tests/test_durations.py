"""Durations (a roll's, a draw's, a decision's or an option's `duration`, `wait`) are numbers of
seconds: anything else (a die's face before its first roll is none) stops the game at the
duration's place, in the same words on the reference interpreter and on every version of the
generated code, never as a failure of meeple's."""

from __future__ import annotations

import pytest

from tests.generated_agreement import plays_as_the_interpreter, program_of

TIMED = """\
meeple: 1
metadata: {name: Timed}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
    e: {sides: 6}
  zones:
    bag: {kind: bag}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - roll: d
        - STEP
        - add: {current.score: d.face}
scoring: {score: player.score, order: highest}
"""

STEPS = {
    # e's face is none until e is first rolled (by the roll step itself).
    "roll": "roll: e\n          duration: \"if d.face > 2 then 1 else e.face\"",
    "wait": "wait: \"if d.face > 2 then 1.5 else e.face\"",
    "choose": ("choose: go\n          duration: \"if d.face > 2 then 1 else e.face\"\n"
               "          options: [a, b]"),
    "option": ("choose: go\n          options:\n"
               "            a: {duration: \"if d.face > 3 then 1 else e.face\"}\n"
               "            b: {duration: 2}"),
}


@pytest.mark.parametrize("step", sorted(STEPS))
def test_a_duration_that_is_none_stops_the_game_at_its_place_on_every_engine(step):
    program = program_of(TIMED.replace("STEP", STEPS[step]), "timed.yaml")
    played = plays_as_the_interpreter(program, range(30))
    stops = [r.error for r, _ in played if r.error is not None]
    assert stops and all(
        err.message == "a duration must be a number of seconds, not none" for err in stops)
    assert all(err.path[-1] in ("duration", "wait") for err in stops)
    assert len(stops) < len(played)  # others found a number and played on
