"""A value among the faces of a zone's dice (`drawn.face in faces(current.curse)`) is a loop
in the generated code that stops at the first equal face, with no list of the faces made
(interpreter/compile/cuts.py `found_in`, lowered by loops.py), and the games play as the
reference interpreter's: a die not rolled shows none, which `in` finds among faces that are
none too."""

from __future__ import annotations

from interpreter.compile.cuts import found_in
from interpreter.compile.specialize import specialize
from tests.generated_agreement import dice_in_hands, plays_as_the_interpreter, program_of

MATCHES = dice_in_hands("Matches", 4, 10) + """\
      repeat: {until: "round >= 4"}
      do:
        - draw: bag
          as: got
        - if: "count(current.hand) % 2 == 0"
          then:
            - roll: got
        - if: "got.face in faces(current.hand)"
          then:
            - add: {current.score: 10}
        - if: "got.face not in faces(current.hand)"
          then:
            - add: {current.score: 1}
        - move: got
          to: current.hand
      next: end
scoring: {score: "player.score", order: highest}
"""


def test_found_in_is_written_only_for_the_faces_of_a_list_read_plainly():
    assert found_in("a", "list(map(_fg0, ZP_hand[cur]))", "_x1", "_c2") == (
        "any(F[_c2] == _x1 for _x1 in (a,) for _c2 in ZP_hand[cur])")
    assert found_in("a", "list(map(_fg0, Z_bag))", "_x1", "_c2") is not None
    assert found_in("a", "[1, 2, 3]", "_x1", "_c2") is None
    assert found_in("a", "list(map(_fg0, (ZP_a[cur] + ZP_b[cur])))", "t", "c") is None


def test_a_face_among_faces_is_a_loop_that_stops_at_the_first_equal_face():
    source = specialize(program_of(MATCHES, "matches.yaml")).source
    assert "list(map(_fg0" not in source
    loops = [i for i, ln in enumerate(source.splitlines()) if ln.strip().startswith("for _c")
             and "ZP_hand[cur]" in ln]
    assert len(loops) == 2 and source.count("break") >= 2


def test_faces_found_and_not_found_play_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(MATCHES, "matches.yaml"), range(40))
    assert all(r.error is None for r, _ in results)
    scores = {s["score"] for r, _ in results for s in r.to_json()["seats"]}
    assert any(s >= 10 for s in scores) and any(s % 10 for s in scores)
