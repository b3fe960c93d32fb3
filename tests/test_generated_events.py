"""Events with fields in the generated code: `changed` triggers (after each `set` and `add`,
`event.name`, `event.value` and an `add`'s `event.old`), a custom event `emit`ted `with`
fields, and the built-in events' own (a phase's name, a round's number, a turn's player, the
timer that ran out, the dice rolled), read in trigger conditions and bodies as `event.NAME`,
as the interpreter fires them: results, counts, work and logs the same; and checks for each
team, examined after every operation as the interpreter examines them."""

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


BUILT_IN = """\
meeple: 1
metadata: {name: Built-in events}
players: {min: 2, max: 2}
components:
  dice:
    trio: {sides: 6, count: 3}
    loose: {sides: 6, count: 4, in: box}
  zones:
    box: {kind: row}
    cup: {kind: hand, owner: player}
  timers:
    clock: {label: Clock}
state:
  global:
    tally: 0
  player:
    score: {type: int, initial: 0}
triggers:
  phased:
    on: phase_start
    if: "event.phase == 'play'"
    do: [add: {tally: 100}]
  ended:
    on: phase_end
    do: [add: {tally: "if event.phase == 'deal' then 1 else 2"}]
  rounds:
    on: round_start
    do: [add: {tally: "event.round * 3"}]
  round_over:
    on: round_end
    if: "event.round % 2 == 0"
    do: [add: {tally: 5}]
  turned:
    on: turn_start
    do: [add: {event.player.score: "event.player.seat"}]
  turned_out:
    on: turn_end
    if: "event.player.score > 20"
    do: [add: {tally: 7}]
  rang:
    on: timer_expired
    do: [add: {tally: "floor(event.timer.seconds)"}]
  trio_rolled:
    on: rolled
    if: "count(event.dice) == 3 and total(event.dice) > 10"
    do: [add: {current.score: "total(event.dice) + (if doubles(event.dice) then 10 else 0)"}]
  cup_rolled:
    on: rolled
    if: "count(event.dice) == 2"
    do:
      - add: {current.score: "sum(d.face for d in event.dice if d.face > 3)"}
      - add: {current.score: "(if doubles(event.dice) then 10 else 0) + total(event.dice)"}
flow:
  phases:
    deal:
      do:
        - for_each: p
          in: players
          do:
            - draw: box
              count: 2
              as: taken
              to: p.cup
        - start_timer: clock
          seconds: 7.5
      next: play
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 6"
      do:
        - roll: trio
          duration: 1
        - roll: current.cup
      next: end
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("version", ["fast", "logged"])
def test_built_in_events_give_their_fields_to_generated_triggers(tmp_path, version):
    # phase_start/end's phase, round_start/end's round, turn_start/end's player,
    # timer_expired's timer, rolled's dice (a group, a player's cup).
    _, want = plays_as_the_interpreter(tmp_path, BUILT_IN, 30, logged=version == "logged")
    assert {"phased", "ended", "rounds", "turned", "rang", "trio_rolled",
            "cup_rolled"} <= set(want[1])


TEAM_CHECKS = """\
meeple: 1
metadata: {name: Team checks}
players: {min: 4, max: 4}
teams:
  names: [red, blue]
  assign: alternate
  leader: first
components:
  dice:
    die: {sides: 6}
state:
  team:
    pot: {type: int, initial: 0}
    banked: {type: int, initial: 0}
  player:
    score: {type: int, initial: 0}
checks:
  full_pot:
    for_each: team
    when: "team.pot >= 10"
    do:
      - add: {team.banked: "team.pot"}
      - set: {team.pot: 0}
      - add: {team.leader.score: 1}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 8"
      do:
        - roll: die
        - add: {current.team.pot: "die.face"}
      next: end
scoring: {score: "player.score + player.team.banked", order: highest}
"""


@pytest.mark.parametrize("version", ["fast", "logged"])
def test_checks_for_each_team_run_in_the_generated_code_as_the_interpreter(tmp_path, version):
    # Every team examined in order after each operation, `team` bound (logged: its name).
    plays_as_the_interpreter(tmp_path, TEAM_CHECKS, 30, logged=version == "logged")


TWO_TIMERS = """\
meeple: 1
metadata: {name: Two timers}
players: {min: 2, max: 2}
components:
  dice:
    die: {sides: 6}
  timers:
    clock: {}
    bell: {}
state:
  global:
    tally: 0
triggers:
  which:
    on: timer_expired
    if: "event.timer == clock or event.timer != bell"
    do: [add: {tally: 1}]
  other:
    on: timer_expired
    if: "event.timer == bell"
    do: [add: {tally: 10}]
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - roll: die
        - start_timer: clock
          seconds: "die.face"
        - start_timer: bell
          seconds: 3.5
        - wait: 4
        - say: "{tally}"
      next: end
scoring: {score: tally, order: highest}
"""


@pytest.mark.parametrize("version", ["fast", "logged"])
def test_the_timer_that_ran_out_is_compared_with_a_timer_by_name(tmp_path, version):
    # The clock rings within the wait on a face up to 3 (tally +1), the bell always (+10).
    _, want = plays_as_the_interpreter(tmp_path, TWO_TIMERS, 30, logged=version == "logged")
    assert {"which", "other"} <= set(want[1])


MOVES = """\
meeple: 1
metadata: {name: Moves}
players: {min: 2, max: 2}
components:
  dice:
    red: {count: 6, in: bag}
  zones:
    bag: {kind: bag}
    box: {kind: pool}
    hand: {kind: hand, owner: player}
state:
  global:
    tally: 0
triggers:
  drew:
    on: drawn
    if: "event.zone == bag and count(event.items) > 0"
    do: [add: {tally: "count(event.items) + count(event.zone)"}]
  went:
    on: moved
    if: "event.to != box"
    do: [add: {tally: "10 * count(event.items)"}]
  boxed:
    on: moved
    if: "event.to == box"
    do: [add: {tally: "100 * count(event.items)"}]
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - draw: bag
          as: one
          to: current.hand
        - roll: current.hand
        - if: "total(current.hand) > 6"
          then:
            - move: "[d for d in current.hand if d.face > 3]"
              to: box
          else:
            - move: box
              to: bag
        - say: "{tally}"
      next: end
scoring: {score: tally, order: highest}
"""


@pytest.mark.parametrize("version", ["fast", "logged"])
def test_drawn_and_moved_give_their_items_and_zones_and_zones_compare_as_things(tmp_path,
                                                                                version):
    _, want = plays_as_the_interpreter(tmp_path, MOVES, 30, logged=version == "logged")
    assert {"drew", "went", "boxed"} <= set(want[1])
