"""Dice whose faces are whole numbers in a row (1 to 6, 3 to 7, -2 to 2) are kept by the
generated code as the index drawn (interpreter/compile/base.py `_Die.off`), and the faces'
arithmetic and comparisons fold the first face into their literals
(interpreter/compile/offsets.py). The promise: every game plays as the interpreter plays it,
including a face read before its die's first roll (none: equal to nothing, stored as none)
and faces of dice that start from different numbers compared and added together; and the
game loop draws the index alone, as a hand-written game does."""

from __future__ import annotations

import re

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from tests.test_generated_builtins import _write, plays_as_the_interpreter

FACES = """\
meeple: 1
metadata: {name: Faces in a row}
players: {min: 2, max: 2}
components:
  dice:
    a: {sides: 6}
    c: {faces: [3, 4, 5, 6, 7]}
    n: {faces: [-2, -1, 0, 1, 2]}
    z: {faces: [0, 1, 2]}
    w: {sides: 6, count: 2}
state:
  global:
    early: {type: int, initial: 0}
    unrolled: {type: int, initial: 0}
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 8"
      do:
        - if: "c.face == 3 or c.face != 4 and c.face != a.face"
          then: [{add: {unrolled: 1, current.score: 1}}]
        - set: {early: c.face}
        - roll: a
        - roll: c
        - roll: n
        - roll: z
        - roll: w
        - add: {current.score: "a.face + c.face - n.face * 2 + total(w) - 3 * z.face"}
        - if: "a.face + c.face > n.face + z.face + 5 and 3 - a.face < c.face - 4"
          then: [{add: {current.score: "max(a.face, c.face) - min(n.face, z.face)"}}]
        - if: "a.face == c.face or a.face == c.face - 2 or n.face == z.face"
          then: [{add: {current.score: "a.face - 1"}}]
        - if: "doubles(w) and total(w) >= 8 or w[0].face - w[1].face == a.face - 6"
          then: [{add: {current.score: "max(w[0].face, w[1].face) * 2 - min(c.face, 5)"}}]
        - if: "5 <= c.face and 1 != z.face"
          then: [{add: {current.score: 3}}]
        - if: "early == c.face"
          then: [{add: {current.score: 2}}]
      next: end
scoring: {score: player.score, order: highest}
"""


def test_faces_in_a_row_play_as_the_interpreter_before_and_after_their_first_roll(tmp_path):
    _, want = plays_as_the_interpreter(tmp_path, FACES, seeds=60)
    assert want[0]["reason"] == "the flow reached its end"  # played through, not stopped


@pytest.mark.parametrize("option", [{"wide": True}, {"logged": True}])
def test_the_checked_and_the_logged_versions_read_the_faces_too(tmp_path, option):
    plays_as_the_interpreter(tmp_path, FACES, seeds=20, **option)


def test_the_game_loop_draws_the_index_and_compares_indexes(tmp_path):
    program = load(_write(tmp_path, FACES)).program
    source = specialize(program).source
    draws = dict(re.findall(r"(F_\w+) = (int\(rnd\(\) \* \d+\)[^\n]*)", source))
    assert draws == {"F_a": "int(rnd() * 6)", "F_c": "int(rnd() * 5)",
                     "F_n": "int(rnd() * 5)", "F_z": "int(rnd() * 3)",
                     "F_w_0": "int(rnd() * 6)", "F_w_1": "int(rnd() * 6)"}
    assert "(F_w_0 == F_w_1)" in source  # doubles: the indexes, from the same first face
    assert "(F_w_0 - F_w_1)" in source  # their difference: the first faces cancel





def test_a_total_read_before_its_dice_are_rolled_is_a_rule_error_not_a_fault(tmp_path):
    # `total(one) - 1`: the first face and the 1 cancel, and the index of a die not rolled
    # yet (none) must not pass for a number. The fast version meets none and hands the game
    # to its checked version, which keeps the faces and stops at `total`'s call, in the
    # interpreter's words.
    text = FACES.replace("    w: {sides: 6, count: 2}\n",
                         "    w: {sides: 6, count: 2}\n    one: {sides: 6, count: 1}\n")
    text = text.replace("        - set: {early: c.face}\n",
                        "        - set: {early: c.face}\n"
                        "        - set: {unrolled: \"total(one) - 1\"}\n")
    assert "total(one)" in text and "one: {sides" in text
    special = specialize(load(_write(tmp_path, text)).program)
    played = special.play(0)
    assert special.checked == 0 and played.result.error is not None
    assert played.result.to_json()["reason"] == "stopped: total() cannot work with a list"


STORED = """\
meeple: 1
metadata: {name: A face stored before its roll}
players: {min: 2, max: 2}
components:
  dice:
    a: {sides: 6}
    loose: {sides: 6, count: 2, in: box}
  zones:
    box: {kind: row}
state:
  global:
    seen: {type: int, initial: 0}
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 3"
      do:
        - set: {seen: a.face}
        - say: "seen {seen}"
        - roll: a
        - roll: box
        - add: {current.score: "a.face + total(box)"}
      next: end
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("option", [{}, {"wide": True}, {"logged": True}])
def test_a_face_stored_before_its_roll_is_none_in_every_version(tmp_path, option):
    # With a zone's dice, a face is read at run time (`F[0]`) and its range is not known: the
    # stored number's range test passes none (the die not rolled yet), which the interpreter
    # stores as it is. Before, the test compared none with a number: a fault.
    special, want = plays_as_the_interpreter(tmp_path, STORED, seeds=10, **option)
    assert want[0]["reason"] == "the flow reached its end"
