"""`min` and `max` of two names or numbers written as a conditional (interpreter/compile/
offsets.py `chosen`), of a list display of items each kept by its own test as a running value
(`listed_extreme`), and a transfer's amount taken with two comparisons (checks.py): a call
of the built-in costs several times a comparison; the face of the highest (lowest) die of a
list as the most (least) face, with no die picked by a key per die (zones.py). As the
built-in: the first value unless the
second is less (more), and a comparison with none (a die not rolled yet) raises as the
built-in's own comparison does. The games, and the rule errors they stop at, stay the
interpreter's."""

from __future__ import annotations

import itertools
import re

import pytest

from interpreter.compile.offsets import chosen, listed_extreme
from interpreter.compile.specialize import specialize
from tests.generated_agreement import (
    dice_in_hands,
    drawn_and_rolled,
    plays_as_the_interpreter,
    program_of,
)

GAME = """\
meeple: 1
metadata: {name: Lows and highs}
players: {min: 2, max: 3, default: 3}
components:
  dice:
    a: {sides: 6}
    b: {sides: 6}
state:
  player:
    chips: {type: int, initial: 3}
    low: {type: int, initial: 0}
    rival: {type: int, initial: 0}
  global:
    high: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 12"}
      do:
        - roll: a
        - if: "a.face >= 3 or round > 1"
          then: [{roll: b}]
        - set: {current.low: "min(a.face, b.face)"}
        - set: {high: "max(high, a.face + b.face)"}
        - set: {current.rival: "max(p.chips for p in players if p != current and p.chips > 2)"}
        - transfer: "a.face - 1"
          of: chips
          from: current
          to: "next_player(current)"
      next: end
scoring: {score: player.chips, order: highest}
"""


def test_min_and_max_of_two_names_or_numbers_are_conditionals():
    assert chosen("min", ["F_a", "F_b"]) == "(F_b if F_b < F_a else F_a)"
    assert chosen("max", ["now", "_at3"]) == "(_at3 if _at3 > now else now)"
    assert chosen("max", ["0", "-2"]) == "(-2 if -2 > 0 else 0)"
    # Three values, or a value that is worked out: the built-in, which reads each once.
    assert chosen("min", ["F_a", "F_b", "F_c"]) == "min(F_a, F_b, F_c)"
    assert chosen("max", ["V_x", "(F_a + F_b)"]) == "max(V_x, (F_a + F_b))"


def test_games_with_min_max_and_transfers_play_as_the_interpreter():
    program = program_of(GAME, "lows.yaml")
    source = specialize(program).source
    assert not re.search(r"\b(min|max)\(F_a, F_b\)", source)  # the faces' indexes
    assert not re.search(r"= min\(", source)  # the transfer's amount
    assert re.search(r"P_rival\[cur\] = _t\d+", source) and " is _U else " in source
    results = plays_as_the_interpreter(program, range(40))
    # Some games stop where b is not rolled yet (its face is none), and transfers meet
    # givers short of the amount and amounts below 0.
    assert any(result.error is not None for result, _ in results)
    assert any(result.error is None for result, _ in results)


def _temps():
    names = iter(f"_t{i}" for i in range(100))
    return lambda: next(names)


@pytest.mark.parametrize("f", ["max", "min"])
@pytest.mark.parametrize("listed", [
    "[*((a,) if c0 else ()), *((b,) if c1 else ())]",
    "[a, *((b,) if c1 else ())]",
    "[*((a,) if c0 else ()), b]",
    "[a, *((b,) if c1 else ()), *((c,) if c2 else ())]",
    "[*((a,) if c0 else ()), b, *((c,) if c2 else ())]",
])
def test_an_extreme_of_items_kept_by_their_tests_is_the_built_ins(f, listed):
    src = listed_extreme(f, listed, _temps())
    assert src is not None and f"{f}(" not in src
    # Every way the tests fall, with ties (which of equal values: the first) and a none.
    values = [1, 2, 2.0, None]
    for a, b, c in itertools.product(values, repeat=3):
        for c0, c1, c2 in itertools.product([True, False], repeat=3):
            names = {"a": a, "b": b, "c": c, "c0": c0, "c1": c1, "c2": c2, "_U": object()}
            try:
                items = eval(listed, {}, names)  # noqa: S307 (a test's own source)
                want = {"max": max, "min": min}[f](items) if items else 0
                want = ("value", want, type(want))
            except TypeError:
                want = ("raises",)
            try:
                got = eval(src, {}, dict(names))  # noqa: S307
                got = ("value", got, type(got))
            except TypeError:
                got = ("raises",)
            assert got == want, (a, b, c, c0, c1, c2)


def test_other_lists_keep_the_built_in():
    for listed in ["[a, b]", "[*xs]", "[*((a, b) if c else ())]", "_lw3", "[x for x in xs]"]:
        assert listed_extreme("max", listed, _temps()) is None


@pytest.mark.parametrize("f", ["max", "min"])
@pytest.mark.parametrize("listed", [
    "[*((g('a'),) if g('c0') else ()), *((g('b'),) if g('c1') else ())]",
    "[g('a'), *((g('b'),) if g('c1') else ())]",
    "[*((g('a'),) if g('c0') else ()), g('b'), *((g('c'),) if g('c2') else ())]",
])
def test_an_extreme_works_out_each_test_and_item_once_in_the_displays_order(f, listed):
    src = listed_extreme(f, listed, _temps())
    for kept in itertools.product([True, False], repeat=3):
        values = {"a": 3, "b": 1, "c": 2, "c0": kept[0], "c1": kept[1], "c2": kept[2]}
        orders = []
        for text in (listed, src):
            seen: list[str] = []

            def g(name, seen=seen, values=values):
                seen.append(name)
                return values[name]
            eval(text, {"g": g, "_U": object()}, {})  # noqa: S307 (a test's own source)
            orders.append(seen)
        assert orders[0] == orders[1], kept


def _hands(score: str, rounds: int) -> str:
    return dice_in_hands("Highs", 6, 12) + drawn_and_rolled(rounds) + f"""\
        - add: {{current.score: "{score}"}}
scoring: {{score: "player.score", order: highest}}
"""


def test_the_face_of_the_highest_or_lowest_die_is_the_most_or_least_face():
    # `highest(hand).face` is the most face of the hand, worked out without a die picked by a
    # key per die (`max(map(_fg0, hand))`), to the interpreter's games.
    score = "highest(current.hand).face * 10 + lowest(current.hand).face"
    program = program_of(_hands(score, 5))
    source = specialize(program).source
    assert "max(map(_fg0, " in source and "min(map(_fg0, " in source
    assert "key=_fg0" not in source
    plays_as_the_interpreter(program, range(30))


@pytest.mark.parametrize("score", [
    "highest(current.hand).face + highest(next_player(current).hand).face",
    "if lowest(next_player(current).hand).face == 6 then 1 else 0",  # none compared: no error
])
def test_the_face_of_the_highest_die_of_an_empty_list_stops_as_the_interpreter_does(score):
    # The other player's hand is empty on the first turn: `highest` gives none, and its face
    # stops the game where the interpreter stops it.
    results = plays_as_the_interpreter(program_of(_hands(score, 3)), range(3))
    assert all(result.error is not None for result, _ in results)
