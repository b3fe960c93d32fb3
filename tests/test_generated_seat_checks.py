"""The checks after an operation tested at the seats it wrote (interpreter/compile/
written_seats.py): where each player's check reads only that player's values, cannot fail and
holds for nobody when the game begins, the generated code tests it after a write at the seats
written, not at every seat; and every game plays as the reference interpreter's. Where one of
those conditions fails (a check that reads another player, a player whose check holds from the
start, a `changed` trigger between a write and its checks) every seat is tested, as before,
and a narrowed test would have missed a player the interpreter puts out."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from interpreter.compile.written_seats import own_seat, seats_written, settle
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Chips}
players: {min: 2, max: 6, default: 4}
components:
  dice:
    d: {sides: 6}
state:
  player:
    chips: {type: int, initial: START}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 12 or count(p for p in players if not p.eliminated) <= 1"}
      do:
        - roll: d
        - if: "d.face <= 2"
          then:
            - add: {current.chips: -1}
        - if: "d.face == 3"
          then:
            - for_each: p
              in: opponents(current)
              do:
                - transfer: 1
                  of: chips
                  from: p
                  to: current
        - if: "d.face == 6"
          then:
            - add: {current.chips: 1}
      next: end
checks:
  broke:
    for_each: player
    when: "WHEN"
    do:
      - eliminate: player
      - if: "player == current"
        then: [end_turn]
end: {when: "count(p for p in players if not p.eliminated) <= 1"}
scoring: {score: player.chips, order: highest}
TRIGGERS"""

OWN = "player.chips <= 0"
FULL = ("(not E[0] and (P_chips[0] <= 0)) or (not E[1] and (P_chips[1] <= 0)) or "
        "(not E[2] and (P_chips[2] <= 0)) or (not E[3] and (P_chips[3] <= 0))")


def _game(start: str = "3", when: str = OWN, triggers: str = "") -> str:
    return GAME.replace("START", start).replace("WHEN", when).replace("TRIGGERS", triggers)


def _eliminations(results) -> int:
    return sum(r["t"] == "eliminated" for _, log in results for r in log)


def test_a_write_at_one_seat_tests_the_check_there_and_games_are_the_interpreters():
    program = program_of(_game(), "chips.yaml")
    source = specialize(program).source
    # After `add: {current.chips: -1}`: the current seat alone; after the transfer, its two.
    assert "if (not E[cur] and (P_chips[cur] <= 0)):" in source
    assert "(not E[_fe" in source and "or (not E[cur] and (P_chips[cur] <= 0)):" in source
    assert FULL not in source
    results = plays_as_the_interpreter(program, range(40))
    assert _eliminations(results) > 20  # players go out, current and not, all through


@pytest.mark.parametrize("case, game", [
    # Seat 0 starts with nothing: the first write anywhere puts it out (in the interpreter,
    # whose check after that write tests every seat).
    ("a check that holds from the start",
     _game(start='"(if player == first(players) then 0 else 3)"')),
    ("a check that reads another player",
     _game(when="player.chips <= 0 or player.chips + 4 < current.chips")),
    ("a changed trigger runs between a write and its checks",
     _game(triggers="""triggers:
  shared:
    on: changed
    if: "event.name == 'current.chips' and event.value < event.old"
    do:
      - for_each: p
        in: opponents(current)
        do:
          - add: {p.chips: -1}
""")),
])
def test_every_seat_is_tested_where_a_narrowed_test_could_miss_one(case, game):
    program = program_of(game, "chips.yaml")
    source = specialize(program).source
    assert "(not E[3] and" in source and "(not E[cur] and" not in source, case
    results = plays_as_the_interpreter(program, range(30))
    assert _eliminations(results) > 0


def test_only_a_seats_own_values_and_plain_operations_make_its_test():
    mine = {"P_chips", "P_score"}
    assert own_seat("not E[2] and (P_chips[2] <= 0)", 2, mine)
    assert own_seat("(P_chips[1] + P_score[1] > 3) or not E[1]", 1, mine)
    assert not own_seat("not E[2] and (P_chips[1] <= 0)", 2, mine)  # another seat
    assert not own_seat("P_chips[2] <= V_limit", 2, mine)  # a global the write may not touch
    assert not own_seat("P_chips[cur] <= 0", 2, mine)  # who plays changes without a write
    assert not own_seat("P_chips[2] * 2 <= 0", 2, mine)
    assert not own_seat("len(P_chips) <= 2", 2, mine)
    assert not own_seat("P_other[2] <= 0", 2, mine)  # not a player's value
    assert seats_written(["P_chips[cur]", "P_score[_a3]", "P_chips[cur]"]) == ("cur", "_a3")
    assert seats_written(["P_chips[cur]", "V_pot"]) is None
    assert seats_written(["P_chips[_OLS[cur][0]]"]) is None


def test_a_check_holding_when_the_game_begins_is_not_narrowed():
    tests = [("not E[0] and (P_chips[0] <= 0)", 0), ("not E[1] and (P_chips[1] <= 0)", 1)]
    lines = ["def play(seed):", "    E = [False] * 2", "    P_chips = [3, 3]"]
    assert settle(tests, {"P_chips"}, lines)
    assert not settle(tests, {"P_chips"}, [*lines[:2], "    P_chips = [3, 0]"])
    assert not settle(tests, {"P_chips"}, [*lines[:2], "    P_chips = [_x, 3]"])  # not known
    assert not settle(tests, {"P_chips"}, lines[:2])  # never made
