"""Built-ins and fields the generated code writes as the interpreter works them out:
`floor`, `ceil`, `round`, `clamp`, `max`/`min` with a `default` and `of_a_kind` (the
built-ins' own values, their whole numbers within the language's limit: past ±2**40 the
checked version plays on, past ±(2**63 - 1) the game stops, as the interpreter's; rounding
infinity a located error, never meeple's own failure), and a timer's `elapsed`, `remaining`,
`seconds` and `running`."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import main
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load, new_game
from tests.test_specialize import _interpreted, _outcome

ROUNDING = """\
meeple: 1
metadata: {name: Rounding}
players: {min: 2, max: 2}
components:
  dice:
    die: {sides: 6}
state:
  global:
    x: {type: number, initial: 0.0}
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 6"
      do:
        - roll: die
        - set: {x: "(die.face - 3.5) * 1.25"}
        - add: {current.score: "floor(x) + ceil(x) + round(x) + round(die.face) + floor(die.face)"}
        - add: {current.score: "clamp(die.face * 2, 3, 9) + round(clamp(x, -2.5, 1.5) * 2)"}
        - add: {current.score: "max([d for d in [die.face, 7 - die.face] if d > 4], default: -1)"}
        - add: {current.score: "round(min([y for y in [x] if y > 0], default: die.face / 4))"}
      next: end
scoring: {score: player.score, order: highest}
"""

GROWING = """\
meeple: 1
metadata: {name: Growing}
players: {min: 1, max: 1}
state:
  global:
    x: {type: number, initial: 1.5}
    n: 0
flow:
  phases:
    play:
      do:
        - repeat: [{set: {x: "x * GROWTH"}}]
          times: TIMES
        - set: {n: "ROUNDING(x)"}
      next: end
scoring: {score: n, order: highest}
"""


def _write(tmp_path, text: str) -> str:
    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return str(path)


def plays_as_the_interpreter(tmp_path, text: str, seeds: int = 40, **options):
    """The generated code of ruleset `text` (`specialize`'s options), which must not be
    refused, plays `seeds` games as the interpreter does: results, counts, work, and a logged
    game's log. Returns it, and the interpreter's last outcome."""
    program = load(_write(tmp_path, text)).program
    refused: list = []
    special = specialize(program, refused=refused, **options)
    assert special is not None, refused
    for seed in range(seeds):
        want = _interpreted(program, None, None, seed)
        if options.get("logged"):
            played, log = special.play_logged(seed)
            game = new_game(program, None, {}, seed=seed)
            game.logging = game.narrating = True
            game.run()
            assert log == game.log, seed
        else:
            played = special.play(seed)
        assert _outcome(played) == want, seed
    return special, want


@pytest.mark.parametrize("wide", [False, True])
def test_rounding_and_clamping_play_in_the_generated_code_as_the_interpreter(tmp_path, wide):
    # Refused before: the interpreter played it.
    special, _ = plays_as_the_interpreter(tmp_path, ROUNDING, wide=wide)


@pytest.mark.parametrize("rounding", ["floor", "ceil", "round"])
@pytest.mark.parametrize("growth,times,outcome", [
    ("1000.5", 5, "checked"),   # about 1.5 * 10**15: past 2**40, within the limit
    ("1000.5", 7, "stopped"),   # about 1.5 * 10**21: past 2**63 - 1, located at the call
    ("x", 12, "infinity"),      # the built-in's error: the checked version stops at the call
])
def test_a_rounded_number_past_the_fast_range_or_the_limit_goes_as_in_the_interpreter(
        tmp_path, rounding, growth, times, outcome):
    text = GROWING.replace("GROWTH", growth).replace("TIMES", str(times))
    program = load(_write(tmp_path, text.replace("ROUNDING", rounding))).program
    special = specialize(program)
    assert special is not None
    want = _interpreted(program, None, None, 0)
    assert _outcome(special.play(0)) == want
    if outcome == "checked":
        assert special.checked == 1
    assert want[0]["reason"].startswith("stopped: ") == (outcome != "checked")


def test_rounding_infinity_is_a_located_error_not_meeples_own_failure(tmp_path):
    text = GROWING.replace("GROWTH", "x").replace("TIMES", "12").replace("ROUNDING", "floor")
    done = CliRunner().invoke(main, ["run", _write(tmp_path, text), "--seed", "1"])
    assert "r.yaml:14:" in done.output and "floor() cannot work with a number" in done.output
    assert "internal-error" not in done.output and "[runtime-error]" in done.output


OF_A_KIND = """\
meeple: 1
metadata: {name: Kinds}
players: {min: 2, max: 2}
components:
  dice:
    pool: {sides: 6, count: 5}
    loose: {sides: 6, count: 6, in: box}
  zones:
    box: {kind: row}
    cup: {kind: hand, owner: player}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    deal:
      do:
        - for_each: p
          in: players
          do:
            - draw: box
              count: 3
              as: taken
              to: p.cup
      next: play
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 8"
      do:
        - if: "of_a_kind(pool, 2)"
          then:
            - add: {current.score: 1}
        - roll: pool
        - roll: current.cup
        - if: "of_a_kind(pool, 3)"
          then:
            - add: {current.score: 3}
        - if: "of_a_kind(current.cup, 2)"
          then:
            - add: {current.score: 2}
      next: end
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("wide", [False, True])
def test_of_a_kind_plays_in_the_generated_code_as_the_interpreter(tmp_path, wide):
    # A group of five dice (read once before its first roll too) and a cup of three.
    plays_as_the_interpreter(tmp_path, OF_A_KIND, wide=wide)


TIMED = """\
meeple: 1
metadata: {name: Timed}
players: {min: 2, max: 2}
components:
  dice:
    die: {sides: 6}
  timers:
    clock: {label: Clock}
state:
  global:
    log: {type: number, initial: 0}
    stops: 0
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 6"
      do:
        - set: {log: "log + elapsed(clock) + clock.elapsed + clock.remaining + clock.seconds"}
        - if: "not clock.running"
          then:
            - start_timer: clock
              seconds: "if round > 1 then die.face + 0.5 else 3"
        - roll: die
        - wait: "die.face * 0.75"
        - set: {log: "log + clock.elapsed * 2 + remaining(clock)"}
        - if: "die.face == 6 and clock.running"
          then:
            - stop_timer: clock
            - add: {stops: 1}
        - add: {current.score: "floor(clock.elapsed) + (if clock.running then 1 else 0)"}
      next: end
triggers:
  out_of_time:
    on: timer_expired
    do:
      - add: {stops: 10}
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("logged", [False, True])
def test_a_timers_fields_read_in_the_generated_code_as_the_interpreter(tmp_path, logged):
    # elapsed (running, stopped, run out, never started), remaining, seconds, running.
    special, _ = plays_as_the_interpreter(tmp_path, TIMED, logged=logged)


@pytest.mark.parametrize("test,fast", [
    ("remaining(clock) < 2", True), ("remaining(clock) <= 0", True),
    ("remaining(clock) <= 1", True), ("remaining(clock) >= 1.5", True),
    ("remaining(clock) > 2", True), ("remaining(clock) > 0", True),
    ("remaining(clock) < 0", False), ("remaining(clock) >= 0", False),  # always false, true
])
def test_the_time_left_against_a_number_is_one_test_of_the_timers_end(tmp_path, test, fast):
    # A timer not yet started, running, run out and stopped, read against each number.
    text = TIMED.replace('floor(clock.elapsed) + (if clock.running then 1 else 0)',
                         f'if {test} then 3 else 1')
    special, _ = plays_as_the_interpreter(tmp_path, text)
    assert bool(re.search(r"\(\(?(?:not )?TR_clock (?:and|or) TE_clock - now [<>]=? [\d.]+\)",
                          special.source)) == fast


def test_a_stretch_of_known_seconds_ends_at_now_plus_them_with_no_copies():
    # Wreckdivers' roll takes 4 seconds: its end is worked out from `now` and the number
    # (a breath within it too), not from copies of both made for every roll.
    special = specialize(load(str(Path(__file__).resolve().parents[1] / "rulesets"
                                  / "wreckdivers.yaml")).program)
    assert re.search(r"_en\d+ = now \+ 4\n", special.source)
    assert not re.search(r"_st\d+ = now|_s\d+ = 4\n", special.source)
    assert re.search(r"\(now \+ _at\d+, 1, 'event', 'breathed'\)", special.source)


def test_a_loop_with_a_stretch_of_time_in_a_turn_leaves_the_step_budget_to_the_turns_head():
    # Wreckdivers' dive: each roll passes time, whose events are handled in a loop over at
    # most one event a timer or hazard; that loop does not make the dive test the budget on
    # every pass. With a budget the dives pass, every game still stops at the interpreter's
    # step (the checked version finds it).
    program = load(str(Path(__file__).resolve().parents[1] / "rulesets" / "wreckdivers.yaml"),
                   limits={"max_steps": 150}).program
    special = specialize(program)
    dive = special.source[special.source.index("for _p"):]
    assert not dive.split("\n")[1].strip().startswith("if steps >")
    stopped = 0
    for seed in range(30):
        played = special.play(seed)
        assert _outcome(played) == _interpreted(program, None, None, seed), seed
        stopped += played.result.error is not None
    assert stopped > 0
