"""The fast generated code tests a whole number it stores against ±SAFE_INT (past it, the checked
version plays the seed). A value that may be none (a die's face before it is rolled) passes as it
is, so the test of a value read as it is stored asks that first; the value of an arithmetic
operation (`a + b`, `-a`) is a number whenever the operation gives one, so its test does not
ask (interpreter/compile/numbers.py `never_none`). A list the write made is tested for its
length in line, and handed to `_within` only past the language's longest (`kept_list`). The
games play as the reference interpreter's."""

from __future__ import annotations

import re

from interpreter.compile.numbers import never_none
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

STORES = """\
meeple: 1
metadata: {name: Stores}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
state:
  global:
    seen: {type: int}
  player:
    tally: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 6"}
      do:
        - set: {seen: "current.tally"}
        - roll: d
        - set: {current.tally: "current.tally + d.face + 1"}
        - if: "d.face == 6"
          then:
            - set: {current.tally: "-current.tally"}
      next: end
scoring: {score: "player.tally", order: highest}
"""


def test_an_arithmetic_operation_is_never_none():
    assert never_none("((F_d + P_tally[cur]) + 1)")
    assert never_none("-P_tally[cur]")
    assert not never_none("F_d")  # a die's face: none before it is rolled
    assert not never_none("(F_d if V_x else None)")
    assert not never_none("not V_x")
    assert not never_none("F_d +")


def test_a_stored_sum_is_tested_without_asking_whether_it_is_none():
    source = specialize(program_of(STORES, "stores.yaml")).source
    tests = re.findall(r"if (.*)-1099511627776 <= (_t\d+) <= 1099511627776:", source)
    asks = {name: test for test, name in tests}
    assert len(asks) == 3, asks
    lines = source.splitlines()
    stored = {re.match(r"\s*(_t\d+) = (.*)", ln).group(1): re.match(r"\s*_t\d+ = (.*)", ln)
              .group(1) for ln in lines if re.match(r"\s*_t\d+ = ", ln)}
    for name, test in asks.items():
        if stored[name] == "P_tally[cur]":  # `seen`: a value read as it is stored, maybe none
            assert test == f"{name} is not None and not ", stored[name]
        else:
            assert test == "not ", stored[name]


def test_games_storing_sums_and_faces_play_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(STORES, "stores.yaml"), range(40))
    assert all(result.error is None for result, _ in results)
    assert {result.seats[0].score < 0 for result, _ in results} == {True, False}


DOUBLED = STORES.replace("    seen: {type: int}\n", "    seen: {type: int}\n"
                         "    xs: {type: list, initial: '[1, 2]'}\n").replace(
    "        - set: {seen: \"current.tally\"}\n",
    "        - set: {seen: \"current.tally\"}\n        - set: {xs: \"xs + xs\"}\n").replace(
    'repeat: {until: "round >= 6"}', 'repeat: {until: "round >= 12"}')


def test_a_list_made_is_kept_without_a_call_until_it_passes_the_longest():
    # `xs + xs` doubles a list every turn: 131,072 items at the 16th, the first past the
    # language's longest (100,000). The fast version tests each list's length where it is
    # made and calls `_within` (which stops the game) for that one alone; the checked version
    # then plays the game, to the interpreter's stop.
    program = program_of(DOUBLED)
    for result, _ in plays_as_the_interpreter(program, range(2)):
        assert result.error is not None and "100,000 items" in result.error.message
    fast = specialize(program)
    names = fast.play_raw.__globals__
    real, seen = names["_within"], []

    def within(value, *site):
        seen.append(len(value))
        return real(value, *site)

    names["_within"] = within
    try:
        for seed in range(2):
            fast.play(seed)
    finally:
        names["_within"] = real
    assert seen == [131_072, 131_072]
