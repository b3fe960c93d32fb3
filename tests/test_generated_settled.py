"""A policy's `let` worked out when first read (set back to `_U` at each decision, each reading an
`if _L is _U:` block after the loops pass) whose first reading is met whenever its decision is
made is worked out there without the test; its later blocks are never entered and go, and it is
no longer set back (interpreter/compile/settled.py). The games play as the reference
interpreter's."""

from __future__ import annotations

import re

from interpreter.compile.settled import settled
from interpreter.compile.specialize import specialize
from tests.generated_agreement import aiming, plays_as_the_interpreter, program_of

# The part of the source that settles nothing (`_L3` is first read in a branch): kept as it is.
_BRANCH = """\
    if b:
        if _L3 is _U:
            _L3 = len(xs)
        c = _L3
    x = (_L3 if _L3 is not _U else (_L3 := len(xs)))"""

SOURCE = """\
    _L1 = _L2 = _L3 = _U
    if _L2 is _U:
        if _L1 is _U:
            _L1 = sum(xs)
        _L2 = _L1 > 3
    if _L2:
        if _L1 is _U:
            _L1 = sum(xs)
        a = _L1
""" + _BRANCH


def test_a_name_first_read_at_its_resets_level_is_worked_out_there():
    assert settled(SOURCE) == """\
    _L3 = _U
    _L1 = sum(xs)
    _L2 = _L1 > 3
    if _L2:
        a = _L1
""" + _BRANCH


def test_a_block_that_is_not_a_names_filling_is_left_as_it_is():
    chained = SOURCE.replace("        _L2 = _L1 > 3\n", "        _L2 = _L1 > 3\n    else:\n        pass\n")
    assert "if _L2 is _U:" in settled(chained)
    other = "    _L1 = _U\n    if _L1 is _U:\n        y = 1\n    z = _L1"
    assert settled(other) == other  # the block does not end by setting the name


LETS = aiming("Settled", 6) + """\
policies:
  holder:
    default: true
    let:
      held: "sum([d.face for d in me.hand])"
      spare: "count([d for d in me.hand if d.face > 3])"
    decide:
      target:
        - when: "held > 20"
          choose: "12"
        - when: "held > 10 and spare > 1"
          best: "if option == (held + spare) % 12 + 1 then 1 else 0"
        - best: "if option == held % 12 + 1 then 1 else 0"
"""


def test_a_let_read_in_the_first_rules_condition_is_worked_out_once_untested():
    source = specialize(program_of(LETS, "settled.yaml")).source
    # `held` (a sum over a zone: it counts work, so it is not worked out at once) is read in
    # the first rule's condition: settled. `spare`, first read on the right of `and`, is not.
    resets = re.findall(r"^\s*((?:_L\d+ = )+)_U$", source, re.M)
    assert len(resets) == 1 and resets[0].count("_L") == 1, resets
    spare = resets[0].split(" = ")[0]
    tested = set(re.findall(r"if (_L\d+) is _U:", source))
    assert tested == {spare}, tested


def test_games_with_settled_lets_play_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(LETS, "settled.yaml"), range(40))
    assert all(result.error is None for result, _ in results)
    picks = {rec["choice"] for _, log in results for rec in log if rec.get("t") == "decision"}
    assert 12 in picks and len(picks) > 4
