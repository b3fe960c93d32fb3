"""A policy's `let` that cannot fail, counts no work and is a few operations (`cheap`) is
worked out where the others are set to be worked out when first read (once a decision, or once
an option of a `best`), and read as a plain name: no test of a first reading at each reading,
inside a comprehension once an item (interpreter/compile/policies.py `_once`). Any other `let`
is still worked out when first read, so one that would fail where nothing reads it does not
stop the game. The games play as the reference interpreter's."""

from __future__ import annotations

import re

from interpreter.compile.policies import cheap
from interpreter.compile.specialize import specialize
from tests.generated_agreement import aiming, plays_as_the_interpreter, program_of

LETS = aiming("Lets", 5) + """\
policies:
  weigher:
    default: true
    let:
      top: "count(me.hand) % 6 + 1"
    decide:
      target:
        - let:
            face: "(option - 1) % 6 + 1"
            share: "12 // (option - 6)"
          best: >-
            (if option == 6 then 0 else share)
            + 10 * count([d for d in me.hand if d.face == face])
            + (if face == top then 1 else 0)
"""


def test_cheap_is_a_few_reads_and_operations():
    assert cheap("(((_o8 - 1) % 6) + 1)")
    assert cheap("V_bid > 0 and P_pp[cur] <= 2")
    assert not cheap("(len(ZP_hand[cur]) % 6) + 1")  # a call
    assert not cheap("(_t1 := V_x) + 1")  # a name bound
    assert not cheap("[d for d in ZP_hand[cur]]")
    assert not cheap(" + ".join(["V_x"] * 9))  # too many operations
    assert not cheap("V_x +")  # not an expression
    assert not cheap("P_pp[cur] in V_targets")  # a search of a list: as long as the list


def test_a_cheap_let_that_cannot_fail_is_worked_out_once_an_option_and_read_as_a_name():
    source = specialize(program_of(LETS, "lets.yaml")).source
    face = re.search(r"^\s+(_L\d+) = \(\(\((_o\d+) - 1\) % 6\) \+ 1\)$", source, re.M)
    assert face is not None, "the let `face` is worked out at the start of each option"
    name, option = face.groups()
    lines = source.splitlines()
    loop = next(i for i, ln in enumerate(lines) if ln.strip() == f"for {option} in _op4:"
                or ln.strip().startswith(f"for {option} in "))
    assert lines[loop + 2].strip() == face.group(0).strip()  # after the lazy names' reset
    assert f"{name} is not _U" not in source
    # Read inside the comprehension's loop as a plain name, once an item.
    assert re.search(rf"if \(F\[_c\d+\] == {name}\):", source)


def test_a_let_that_may_fail_or_calls_is_still_worked_out_when_first_read():
    source = specialize(program_of(LETS, "lets.yaml")).source
    share = re.search(r"\((_L\d+) if \1 is not _U else \(\1 := \(12 // \(_o\d+ - 6\)\)\)\)",
                      source)
    assert share is not None  # 12 // 0 for option 6, where nothing reads it
    top = re.search(r"\((_L\d+) if \1 is not _U else \(\1 := \(\(len\(ZP_hand\[cur\]\) % 6\)",
                    source)
    assert top is not None  # a call: worked out when first read, once a decision


def test_games_with_lets_worked_out_at_once_play_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(LETS, "lets.yaml"), range(40))
    # The policy's picks vary with the dice: the option it weighs best is not always the same.
    scores = {tuple(s.score for s in result.seats) for result, _ in results}
    assert len(scores) > 5
    assert all(result.error is None for result, _ in results)
