"""The game's end reached by a flag (interpreter/compile/ending.py) keeps what the code does.

Shown on small functions in the generated code's shape (the phases' loop, turns, a counted
loop's `finally`, a trigger's handler of the turn's and phase's ends): the same results, on
every input tried, as the lines with their raises; then on rulesets that end the game from
deep inside their loops, which play as the interpreter plays them.
"""

from __future__ import annotations

import random

import pytest

from interpreter.compile.ending import end_by_flag
from tests.test_generated_builtins import plays_as_the_interpreter


class _EndGame(Exception):  # noqa: N818 - the generated code's name
    pass


class _EndTurn(Exception):  # noqa: N818
    pass


class _EndPhase(Exception):  # noqa: N818
    pass


def _run(lines: list[str], seed: int) -> tuple:
    src = "def play(rnd):\n" + "\n".join("    " + ln for ln in lines)
    names: dict = {"_EndGame": _EndGame, "_EndTurn": _EndTurn, "_EndPhase": _EndPhase}
    exec(src, names)  # noqa: S102 - the test's own constant text
    return names["play"](random.Random(seed).random)


# Two phases of turns; a turn rolls until it banks or busts (a counted loop's `finally`), a
# trigger's fixpoint loop may end the game with a reason, and so may the bank or the phase.
GAME = """\
steps = rolls = after = 0
score = [0, 0]
stopped = None
try:
    ph = 0
    while ph >= 0:
        if ph == 0:
            try:
                for passes in range(100):
                    for pc in [0, 1]:
                        try:
                            while True:
                                total = 0
                                try:
                                    for _p in range(1, 50):
                                        face = int(rnd() * 6) + 1
                                        if face == 1:
                                            total = 0
                                            break
                                        total += face
                                        if total >= 15:
                                            break
                                finally:
                                    rolls += _p
                                score[pc] += total
                                for _r in range(3):
                                    try:
                                        if score[pc] >= 60 and rnd() < 0.5:
                                            raise _EndGame('shouted ' + str(score[pc]))
                                        if rnd() < 0.05:
                                            raise _EndTurn()
                                    except (_EndTurn, _EndPhase) as _sig:
                                        after += 1
                                        break
                                else:
                                    after += 100
                                if score[pc] >= 80:
                                    steps += 1
                                    raise _EndGame()
                                after += 1
                                break
                        except _EndTurn:
                            pass
                        after += 1
                    if passes > 5 and rnd() < 0.1:
                        raise _EndPhase()
            except _EndPhase:
                pass
            ph = 1
        elif ph == 1:
            if rnd() < 0.5:
                raise _EndGame('coin')
            ph = -1
    reason = 'the flow reached its end'
except _EndGame as _eg:
    reason = _eg.args[0] if _eg.args else 'the end condition holds'
return (reason, steps, rolls, after, score)"""


def test_every_end_inside_the_phases_loop_is_a_flag_and_the_games_are_the_same():
    lines = GAME.splitlines()
    out = end_by_flag(lines)
    assert not any("raise _EndGame" in line for line in out)
    reasons = set()
    for seed in range(400):
        want = _run(lines, seed)
        assert _run(out, seed) == want, seed
        reasons.add(want[0].split()[0])
    # The games end every way: the bank, a trigger's reason, the second phase, the flow.
    assert reasons == {"the", "shouted", "coin"} and any(
        _run(lines, s)[0] == "the end condition holds" for s in range(400))


@pytest.mark.parametrize("old,new,left", [
    # A handler that could catch the end; a `finally` body.
    ("except (_EndTurn, _EndPhase) as _sig:", "except Exception as _sig:", "shouted"),
    ("                                finally:\n                                    rolls += _p",
     "                                finally:\n                                    rolls += _p\n"
     "                                    if rolls > 10 ** 6:\n"
     "                                        raise _EndGame('far')", "far"),
])
def test_an_end_something_could_see_on_its_way_out_is_raised_still(old, new, left):
    assert old in GAME
    lines = GAME.replace(old, new).splitlines()
    out = end_by_flag(lines)
    assert [line for line in out if "raise _EndGame" in line] == [
        line for line in lines if "raise _EndGame" in line and left in line]
    for seed in range(200):
        assert _run(out, seed) == _run(lines, seed), seed


def test_an_end_outside_the_phases_loop_or_without_the_plain_handler_is_left():
    before = GAME.replace("    ph = 0\n", "    if rnd() < 0.01:\n        raise _EndGame('early')\n"
                                          "    ph = 0\n")
    out = end_by_flag(before.splitlines())
    assert sum("raise _EndGame" in line for line in out) == 1  # the early one only
    handled = GAME.replace("    reason = _eg.args[0] if _eg.args else 'the end condition holds'",
                           "    reason = 'ended'")
    assert end_by_flag(handled.splitlines()) == handled.splitlines()


DEEP = """\
meeple: 1
metadata: {name: Deep ends}
players: {min: 3, max: 3}
components:
  dice:
    d: {sides: 6}
state:
  player:
    score: {type: int, initial: 0}
end:
  when: "any(p.score >= 40 for p in players)"
  doc: A player reached 40.
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 30"
      do:
        - for_each: p
          in: players
          do:
            - repeat:
                - roll: d
                - add: {p.score: d.face}
                - if: "p.score == 33 and current.seat == 2"
                  then:
                    - end_game:
                      reason: "{p.name} hit 33 on turn {turn}"
              until: "d.face < 3"
      next: end
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("option", [{}, {"wide": True}, {"logged": True}])
def test_a_game_ended_inside_nested_loops_plays_as_the_interpreter(tmp_path, option):
    special, _ = plays_as_the_interpreter(tmp_path, DEEP, seeds=60, **option)
    assert "raise _EndGame" not in special.source


def test_the_games_end_every_way_the_rules_end_them(tmp_path):
    special, _ = plays_as_the_interpreter(tmp_path, DEEP, seeds=2)
    reasons = {special.play(seed).result.to_json()["reason"].split()[0] for seed in range(60)}
    assert len(reasons) >= 2, reasons
