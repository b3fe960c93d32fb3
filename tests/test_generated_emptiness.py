"""A zone's count compared with 0 or 1 where that asks whether the zone is empty is a test of
the zone's list in the generated code (interpreter/compile/offsets.py `emptiness`): `not xs`
or `not not xs`, true or false, with no call of `len`. Any other count comparison is written
as it was, and the games play as the reference interpreter's."""

from __future__ import annotations

import pytest

from interpreter.compile.base import Ex
from interpreter.compile.offsets import emptiness
from interpreter.compile.specialize import specialize
from tests.generated_agreement import dice_in_hands, plays_as_the_interpreter, program_of

HANDS = dice_in_hands("Hands", 6, 6) + """\
      repeat: {until: "round >= 6 or count(bag) == 0"}
      do:
        - if: "count(current.hand) < 1 or 2 > count(current.hand)"
          then:
            - draw: bag
              as: got
              to: current.hand
            - roll: got
        - if: "0 != count(current.hand) and first(current.hand).face > 3"
          then:
            - move: "first(current.hand)"
              to: bag
        - set:
            current.score: >-
              current.score + (if count(current.hand) >= 1 then 1 else 0)
              + (if count(current.hand) == 2 then 10 else 0)
              + (if count(current.hand) <= 0 then 100 else 0)
      next: end
scoring: {score: "player.score", order: highest}
"""


def _count(src: str = "len(ZP_hand[cur])") -> Ex:
    return Ex(src, "int", True, zone="hand")


def _lit(k: int) -> Ex:
    return Ex(repr(k), "int", True, k)


@pytest.mark.parametrize("op,k,left,test", [
    ("==", 0, False, "(not ZP_hand[cur])"), ("<=", 0, False, "(not ZP_hand[cur])"),
    ("<", 1, False, "(not ZP_hand[cur])"), ("!=", 0, False, "(not not ZP_hand[cur])"),
    (">", 0, False, "(not not ZP_hand[cur])"), (">=", 1, False, "(not not ZP_hand[cur])"),
    ("==", 0, True, "(not ZP_hand[cur])"), (">", 1, True, "(not ZP_hand[cur])"),
    ("<", 0, True, "(not not ZP_hand[cur])"), ("<=", 1, True, "(not not ZP_hand[cur])"),
])
def test_a_count_against_0_or_1_that_asks_for_emptiness_tests_the_list(op, k, left, test):
    a, b = (_lit(k), _count()) if left else (_count(), _lit(k))
    assert emptiness(op, a, b) == test


@pytest.mark.parametrize("op,k", [("==", 1), ("<", 2), (">", 1), ("!=", 2), (">=", 0)])
def test_any_other_count_comparison_is_not_a_test_of_emptiness(op, k):
    assert emptiness(op, _count(), _lit(k)) is None
    # Nor a count of a list that is not a zone's (it may be none, which len refuses).
    assert emptiness("==", Ex("len(V_xs)", "int", True), _lit(0)) is None


def test_counts_of_a_zone_are_tests_of_its_list_in_the_generated_code():
    source = specialize(program_of(HANDS, "hands.yaml")).source
    assert "(not ZP_hand[cur])" in source and "(not not ZP_hand[cur])" in source
    assert "(not Z_bag)" in source
    assert "len(ZP_hand[cur]) == 2" in source  # not a test of emptiness: as written


def test_games_with_counts_of_zones_play_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(HANDS, "hands.yaml"), range(40))
    assert all(r.error is None for r, _ in results)
    assert len({r.to_json()["seats"][0]["score"] for r, _ in results}) > 3
