"""`end_game` naming the winners (`winners: "[current]"`) on the generated code, as the
reference interpreter's Game._result takes them: they win whatever the scores, first in the
standings, in the order named; a game that ends otherwise is ranked by the scoring; on every
version."""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

SIX = """\
meeple: 1
metadata: {name: Sudden one}
players: {min: 3, max: 3}
components:
  dice:
    d: {sides: 6}
state:
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "round >= 3"}
      do:
        - roll: d
        - add: {current.score: d.face}
        - if: "d.face == 1 and round >= 2"
          then:
            ENDING
scoring: {score: player.score, order: highest}
"""


@pytest.mark.parametrize("ending", [
    '- end_game:\n              winners: "[current]"\n              reason: "a one"',
    '- end_game:\n              winners: "opponents(current)"',  # the others, in turn order
    '- end_game:\n              winners: "[]"\n              reason: nobody',  # nobody wins
])
def test_the_winners_an_end_game_names_win_as_the_interpreter_has_it(ending):
    program = program_of(SIX.replace("ENDING", ending), "six.yaml")
    refused: list = []
    assert specialize(program, refused=refused) is not None, refused
    played = plays_as_the_interpreter(program, range(40))
    ended = [r for r, _ in played if r.reason != "the flow reached its end"]
    assert ended and len(ended) < len(played)
    # The named winners need not have the best score.
    best = [r for r in ended if r.winners and max(s.score for s in r.seats) not in
            {s.score for s in r.seats if s.name in r.winners}]
    assert best or "[]" in ending


def test_winners_that_hold_none_stop_the_game_at_the_step_on_every_engine():
    # Nobody has scored 99: the list names none, which the interpreter stops at, located.
    ending = ('- end_game:\n              winners: "[first([p for p in players if p.score > '
              '99])]"')
    played = plays_as_the_interpreter(program_of(SIX.replace("ENDING", ending), "six.yaml"),
                                      range(40))
    stops = [r.error for r, _ in played if r.error is not None]
    assert stops and all(e.message == "the winners of end_game must be players, not none"
                         and e.path[-1] == "winners" for e in stops)
