"""`first` and `last` of a list read plainly (a name, a player's zone at a seat) bind no name
in the generated code (interpreter/compile/cuts.py `end_of`): the list is read twice, which
cannot fail, so inside a comprehension's condition `last(current.hand)`, the same for every
item, is worked out once before the items (`plain_end`), not once an item. The games play as
the reference interpreter's."""

from __future__ import annotations

from interpreter.compile.cuts import end_of, plain_end
from interpreter.compile.specialize import specialize
from tests.generated_agreement import dice_in_hands, drawn_and_rolled, plays_as_the_interpreter, program_of

ENDS = dice_in_hands("Ends", 6, 12) + drawn_and_rolled(5) + """\
        - add:
            current.score: >-
              count([d for d in current.hand if d != last(current.hand)
                     and d.face >= first(current.hand).face])
      next: end
scoring: {score: "player.score", order: highest}
"""


def test_first_and_last_of_a_plain_read_bind_no_name():
    assert end_of("last", "ZP_hand[cur]", False, "_t1") == (
        "(ZP_hand[cur][-1] if ZP_hand[cur] else None)")
    assert end_of("first", "V_xs", False, "_t1") == "(V_xs[0] if V_xs else None)"
    # Another list is worked out once, into a name, as before.
    assert end_of("last", "ZP_hand[_by3]", False, "_t1") == (
        "(_t1[-1] if (_t1 := ZP_hand[_by3]) else None)")
    assert plain_end("(ZP_hand[cur][-1] if ZP_hand[cur] else None)")
    assert not plain_end("(ZP_hand[cur][-1] if ZP_bag[cur] else None)")
    assert not plain_end("(_t1[-1] if (_t1 := ZP_hand[_by3]) else None)")


def test_the_ends_of_a_zone_are_worked_out_once_before_a_comprehensions_items():
    lines = specialize(program_of(ENDS, "ends.yaml")).source.splitlines()
    loop = next(i for i, ln in enumerate(lines) if ln.strip().startswith("for _c"))
    before = "\n".join(lines[loop - 3:loop])
    assert "ZP_hand[cur][-1] if ZP_hand[cur] else None" in before
    assert "ZP_hand[cur][0] if ZP_hand[cur] else None" in before
    assert " if ZP_hand[cur] else None" not in lines[loop + 1]


def test_games_reading_the_ends_of_a_zone_play_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(ENDS, "ends.yaml"), range(40))
    assert all(r.error is None for r, _ in results)
    assert len({r.to_json()["seats"][0]["score"] for r, _ in results}) > 3
