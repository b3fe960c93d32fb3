"""A policy's `best` takes the first option with the highest score. Where the score is a whole
number known to be at most some value, cannot fail and counts no work, the generated code stops
weighing at the first option that scores that value: no later option weighs more, and weighing
them could not be seen (interpreter/compile/policies.py `_best`). A score that may fail is
weighed for every option, as the interpreter weighs it. The games play as the reference
interpreter's."""

from __future__ import annotations

import re

from interpreter.compile.specialize import specialize
from tests.generated_agreement import dice_in_hands, drawn_and_rolled, plays_as_the_interpreter, program_of

BEST = dice_in_hands("Best", 6, 12) + drawn_and_rolled(6) + """\
        - choose: target
          options: "range(1, 13)"
        - add: {current.score: "target"}
        - choose: bonus
          options: "range(1, 13)"
        - if: "bonus % 5 == 0"
          then:
            - add: {current.score: "bonus"}
      next: end
scoring: {score: "player.score", order: highest}
policies:
  aimer:
    default: true
    decide:
      target:
        - best: "if option == (current.score + count(current.hand)) % 12 + 1 then 1 else 0"
      bonus:
        - best: "if option % 5 == 0 then 12 // (option - 6) else 0"
"""


def _loops(source: str) -> dict[str, list[str]]:
    """Each `best` loop's lines (from its `for` to the line before the next statement at its
    indent), by the score's name."""
    lines = source.splitlines()
    out = {}
    for i, line in enumerate(lines):
        m = re.match(r"(\s*)for _o\d+ in ", line)
        if m:
            body = []
            for later in lines[i + 1:]:
                if not later.startswith(m.group(1) + " "):
                    break
                body.append(later.strip())
            score = re.match(r"(_s\d+) = ", body[0])
            if score:
                out[score.group(1)] = body
    return out


def test_a_score_at_its_most_ends_the_weighing():
    loops = _loops(specialize(program_of(BEST, "best.yaml")).source)
    assert len(loops) == 2
    stops = [s for s, body in loops.items() if f"if {s} == 1:" in body]
    assert len(stops) == 1  # `target`'s 0-or-1 score
    body = loops[stops[0]]
    assert body[body.index(f"if {stops[0]} == 1:") + 1] == "break"


def test_a_score_that_may_fail_is_weighed_for_every_option():
    loops = _loops(specialize(program_of(BEST, "best.yaml")).source)
    bonus = next(body for body in loops.values() if "12 //" in body[0])
    # The writer cannot tell that 12 // (option - 6) is never worked out at option 6.
    assert "break" not in bonus


def test_games_whose_weighing_ends_early_play_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(BEST, "best.yaml"), range(40))
    assert all(result.error is None for result, _ in results)
    targets = {rec["choice"] for _, log in results for rec in log
               if rec.get("t") == "decision" and rec.get("id") == "target"}
    assert len(targets) > 3  # the target moves with the score and the hand
