"""`goto` in the generated code: it ends the phase at once, as `end_phase` does (the phase's
`on_end` and `phase_end` still run), and the flow goes on at the phase it names, or ends at
`end`, instead of the phase's `next`: game for game what the interpreter plays, in the fast,
checked and logged versions."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.generated_agreement import plays_as_the_interpreter, program_of

JUMPING = """\
meeple: 1
metadata: {name: Jumping}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
state:
  global:
    n: {type: int, initial: 0}
    m: {type: int, initial: 0}
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    a:
      turns: {order: clockwise}
      repeat: {until: "n >= 12"}
      do:
        - roll: d
        - add: {n: 1, current.score: d.face}
        - if: "d.face == 6"
          then:
            - say: "six: to b"
            - goto: b
        - if: "d.face == 1"
          then:
            - goto: end
      on_end:
        - add: {m: 1}
      next: c
    b:
      do:
        - add: {m: 10}
        - if: "m > 35"
          then: [goto: c]
        - goto: a
      next: end
    c:
      do:
        - say: "in c"
      next: end
scoring: {score: "current.score", order: highest}
"""


def test_a_goto_leaves_the_phase_for_the_one_it_names_as_the_interpreter_does():
    played = plays_as_the_interpreter(program_of(JUMPING, "jumping.yaml"), range(120))
    paths = Counter(">".join(r["phase"] for r in log if r["t"] == "phase") for _, log in played)
    # Every way out was taken: `goto: end` in a, `goto: b` (and back to a), `goto: c` from b,
    # and a's `next` (c) once its `until` holds.
    assert paths["a"] and any(p.endswith("b>c") for p in paths)
    assert any(p.endswith("a>c") for p in paths) and any("a>b>a" in p for p in paths)


BEGIN = """\
meeple: 1
metadata: {name: Begin}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
state:
  global:
    n: {type: int, initial: 0}
flow:
  phases:
    a:
      on_begin:
        - roll: d
        - if: "d.face > 3"
          then: [goto: b]
        - if: "d.face == 1"
          then: [end_phase]
      do:
        - add: {n: 1}
      on_end:
        - add: {n: 10}
      next: end
    b:
      do:
        - add: {n: 100}
      next: end
scoring: {score: "n", order: highest}
"""


def test_a_goto_or_end_phase_in_a_phases_beginning_ends_the_phase_as_the_interpreter_does():
    # Game._run_phase runs `on_begin` inside the phase's handler: `end_phase` there skips
    # the phase's steps (its `on_end` still runs), `goto` goes on to its phase. Before, both
    # escaped the generated game (its `_EndPhase` raised out of it).
    played = plays_as_the_interpreter(program_of(BEGIN, "begin.yaml"), range(30))
    paths = {">".join(r["phase"] for r in log if r["t"] == "phase") for _, log in played}
    assert paths == {"a", "a>b"}


@pytest.mark.parametrize("step,said", [
    ("goto: b", "'goto' ran outside a phase"),
    ("end_phase", "'end_phase' ran outside a phase"),
])
def test_a_phase_ended_from_its_end_stops_the_game_at_that_step_as_the_interpreter_does(step, said):
    # `on_end` runs after the phase's handler (Game._run_phase): an `end_phase` or `goto`
    # there leaves the game, which the interpreter stops at that step (Game.run). Before, the
    # generated game let its `_EndPhase` escape. (`end_turn` in a phase without turns is
    # refused when the ruleset is checked.)
    text = BEGIN.replace("      on_end:\n        - add: {n: 10}\n",
                         f"      on_end:\n        - add: {{n: 10}}\n        - if: \"n > 10\"\n"
                         f"          then: [{step}]\n")
    played = plays_as_the_interpreter(program_of(text, "ending.yaml"), range(30))
    stops = {(r.error.message, r.error.path) for r, _ in played if r.error is not None}
    assert stops == {(said, ("flow", "phases", "a", "on_end", 1, "then", 0))}
