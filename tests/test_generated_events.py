"""Events with fields in the generated code: `changed` triggers (after each `set` and `add`,
`event.name`, `event.value` and an `add`'s `event.old`) and a custom event `emit`ted `with`
fields, read in trigger conditions and bodies as `event.NAME`, as the interpreter fires them:
results, counts, work and logs the same."""

from __future__ import annotations

import pytest

from tests.test_generated_builtins import plays_as_the_interpreter

WATCHED = """\
meeple: 1
metadata: {name: Watched}
players: {min: 2, max: 2}
components:
  dice:
    die: {sides: 6}
events:
  scored:
    fields: [points, who]
state:
  global:
    log: 0
    biggest: 0
    latest: {type: string, initial: "'none'"}
  player:
    score: {type: int, initial: 0}
    streak: {type: int, initial: 0}
triggers:
  noticed:
    on: changed
    if: "event.name == 'current.score' and event.value - event.old >= 5"
    do:
      - add: {current.streak: 1}
      - emit: scored
        with: {points: "event.value - event.old", who: current}
  named:
    on: changed
    if: "event.name != 'latest' and event.name != 'log'"
    do:
      - set: {latest: "event.name"}
  big:
    on: scored
    if: "event.points > biggest"
    do:
      - set: {biggest: "event.points"}
      - add: {log: "event.points * 10 + event.who.seat"}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 10"
      do:
        - roll: die
        - add: {current.score: "die.face"}
        - if: "die.face == 6"
          then:
            - set: {current.streak: 0, log: "log + 1"}
      next: end
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("version", ["fast", "logged", "checked"])
def test_changed_triggers_and_event_fields_play_as_the_interpreter_fires_them(tmp_path,
                                                                            version):
    # Refused before: the interpreter played them.
    _, want = plays_as_the_interpreter(tmp_path, WATCHED, 30, logged=version == "logged",
                                       wide=version == "checked")
    assert set(want[1]) == {"noticed", "named", "big"}  # each fired (counted alike)
