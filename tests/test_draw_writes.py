"""What a `draw` writes (interpreter/engine/reads.py `draw_writes`): the zone it draws from,
the zone it draws to and the name it binds. Checks and the end condition are examined again
after a draw only when they read one of those, in the interpreter and in generated code
alike; a draw that writes none of what they read is not followed by them."""

from __future__ import annotations

import pytest

import interpreter.compile.zones as zones_module
from interpreter.compile.specialize import specialize
from interpreter.engine import steps as steps_module
from interpreter.engine.game import Game
from interpreter.engine.reads import draw_writes
from interpreter.engine.setup import new_game
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Full hands}
players: {min: 2, max: 2, default: 2}
components:
  dice:
    d: {sides: 6, count: 20, in: bag}
  zones:
    bag: {kind: bag}
    pile: {kind: pool}
    hand: {kind: hand, owner: player}
state:
  player:
    most: {type: int, initial: 0}
checks:
  full_hand:
    for_each: player
    when: "count(player.hand) >= 3"
    do:
      - move: player.hand
        to: pile
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 9"}
      do:
        - draw: bag
          as: one
          to: current.hand
        - set: {current.most: "max(current.most, count(current.hand))"}
        - draw: bag
          as: gone
      next: end
end: {when: "count(bag) < 5"}
scoring: {score: "player.most * 100 + count(bag)", order: highest}
"""


def test_a_draw_writes_the_zones_it_names_and_the_name_it_binds():
    assert draw_writes({"draw": "bag", "as": "x"}) == {"bag", "x"}
    assert draw_writes({"draw": "bag", "as": "x", "to": "current.hand"}) == {"bag", "hand", "x"}
    assert draw_writes({"draw": "players[0].hand", "as": "x", "count": 2}) == {"hand", "x"}
    # A zone not named plainly: anything may have changed.
    assert draw_writes({"draw": "(if round > 1 then bag else pile)", "as": "x"}) is None
    assert draw_writes({"draw": "bag", "as": "x", "to": "(if true then pile else bag)"}) is None


def test_checks_and_the_end_follow_a_draw_into_or_out_of_a_zone_they_read():
    # The check empties a hand as it reaches three dice, before the next step reads it; the
    # end condition stops the game as the bag falls below five: at four, after a draw.
    program = program_of(GAME, "hands.yaml")
    results = plays_as_the_interpreter(program, range(30))
    for result, _ in results:
        assert result.error is None and result.reason == "the end condition holds"
        assert all(s.score % 100 == 4 and s.score // 100 == 2 for s in result.seats)


def _check_tests(source: str) -> int:
    return source.count(">= 3")


@pytest.mark.parametrize("mode", ["interpreter", "generated"])
def test_a_draw_that_writes_nothing_they_read_is_not_followed_by_the_checks(monkeypatch, mode):
    # The second draw writes the bag, which the end condition reads, and `gone`, which
    # nothing reads: the hand's check is not examined after it. Where a draw's writes are
    # not known (None), it is: one examination more a turn (no other step writes the hand).
    text = GAME.replace('end: {when: "count(bag) < 5"}\n', "")
    program = program_of(text, "hands.yaml")
    if mode == "generated":
        precise = _check_tests(specialize(program).source)
        monkeypatch.setattr(zones_module, "draw_writes", lambda spec: None)
        assert _check_tests(specialize(program).source) > precise
        return
    examined = []
    real = Game._run_checks

    def counted(self):
        examined.append(1)
        return real(self)

    monkeypatch.setattr(Game, "_run_checks", counted)
    new_game(program, 2, None, seed=1).run()
    precise = len(examined)
    examined.clear()
    monkeypatch.setattr(steps_module, "draw_writes", lambda spec: None)
    new_game(program_of(text, "hands.yaml"), 2, None, seed=1).run()  # its steps built again
    # Examined after each turn's first draw (into the hand) alone, then after both.
    assert precise > 10 and len(examined) == 2 * precise
