"""Lists in the generated code (interpreter/compile/maps.py, teams.py, base.set_in) give the
interpreter's results: a list is never changed in place, so no other name holding it sees a
change (`set: {x: tm.L}` then `tm.L[0]`, a `let` of a list, a `for_each` over one), a list
state started from another is a copy of it, and what would be seen through a name bound in
the steps (a `for_each` row, a local that hides state) is refused rather than guessed. Also:
a lookup worked out before a comprehension's items that cannot be made is not a fault, and a
score that cannot be read mid-game stops the counting of lead changes, as in simulate.
"""

from __future__ import annotations

import pytest

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load
from interpreter.simulate import runner as sim
from tests.test_specialize import _same, same_records

TEAM_LISTS = """\
meeple: 1
metadata: {name: Team lists}
players: {min: 2, max: 2, default: 2}
teams:
  names: [red, blue]
  assign: alternate
  leader: first
components:
  dice:
    d: {sides: 6}
state:
  global:
    x: {type: list, initial: [0, 0]}
    s: {type: int, initial: 0}
  team:
    tl: {type: list, initial: "[1, 2, 3]"}
flow:
  phases:
    play:
      do:
        - roll: d
%s
      next: end
end: {when: "true"}
scoring: {score: "s + sum(x) + 100 * sum(teams[0].tl)", order: highest}
"""

TEAM_STEPS = {
    "a list stored from it": """\
        - set: {x: "teams[0].tl"}
        - set: {"teams[0].tl[0]": "d.face * 10"}
        - add: {"teams[0].tl[1]": "d.face"}
""",
    "a for_each over it": """\
        - for_each: v
          in: "teams[0].tl"
          do:
            - set: {"teams[0].tl[2]": "d.face * 10"}
            - set: {s: "s + v"}
""",
    "a let of it": """\
        - let: y
          be: "teams[0].tl"
        - set: {"teams[0].tl[0]": "d.face * 10"}
        - set: {s: "s + y[0]"}
""",
}


@pytest.mark.parametrize("case", list(TEAM_STEPS))
def test_a_teams_list_set_or_added_at_an_item_is_a_new_list(case, tmp_path):
    path = tmp_path / "team_lists.yaml"
    path.write_text(TEAM_LISTS % TEAM_STEPS[case], encoding="utf-8")
    _same(str(path), range(12))


INITIAL_FROM_ANOTHER = """\
meeple: 1
metadata: {name: Started from another}
players: {min: 2, max: 2}
components:
  dice:
    d: {sides: 6}
state:
  global:
    a: {type: list, initial: [1, 2, 3]}
    b: {type: list, initial: "a"}
  player:
    pl: {type: list, initial: "a"}
flow:
  phases:
    play:
      turns: {}
      repeat: {times: 1}
      do:
        - roll: d
        - set: {"current.pl[0]": "current.pl[0] + d.face"}
        - set: {"b[1]": "d.face * 10"}
      next: end
scoring: {score: "player.pl[0] * 10000 + a[0] * 1000 + a[1] * 100 + b[1]", order: highest}
"""


def test_a_list_state_started_from_another_is_a_copy_of_it(tmp_path):
    path = tmp_path / "initial.yaml"
    path.write_text(INITIAL_FROM_ANOTHER, encoding="utf-8")
    program = load(str(path)).program
    special = specialize(program)
    result = special.play(4).result
    # `a` is untouched by the writes to `b` and to each player's `pl` (value semantics).
    assert all(s.score % 1000 // 100 == 2 and s.score % 10000 // 1000 == 1
               for s in result.seats), [s.score for s in result.seats]
    _same(str(path), range(20))


SEEN_THROUGH_A_NAME = """\
meeple: 1
metadata: {name: Seen through a name}
players: {min: 1, max: 1}
components:
  dice:
    d: {sides: 6}
state:
  global:
    a: {type: list, initial: [0, 0, 0]}
    c: {type: list, initial: [[5, 5], [6, 6]]}
    s: {type: int, initial: 0}
flow:
  phases:
    play:
      do:
        - roll: d
%s
      next: end
end: {when: "true"}
scoring: {score: "s * 1000 + sum(a)", order: highest}
"""

SEEN = {
    # The interpreter's for_each holds the rows themselves: `row` shows the change.
    "a row of a for_each": ("""\
        - for_each: row
          in: c
          do:
            - set: {"c[0][0]": "d.face"}
            - set: {s: "s + row[0]"}
""", "a set of an item of a list in a list"),
    # A local `a` hides the state `a`: the interpreter changes the local list.
    "a local hiding state": ("""\
        - let: a
          be: "[d.face, 1]"
        - set: {"a[0]": 50}
        - set: {s: "a[0]"}
""", "a set of an item of a name bound in the steps"),
}


@pytest.mark.parametrize("case", list(SEEN))
def test_a_set_whose_change_a_name_bound_in_the_steps_would_show_is_refused(case, tmp_path):
    steps, reason = SEEN[case]
    path = tmp_path / "seen.yaml"
    path.write_text(SEEN_THROUGH_A_NAME % steps, encoding="utf-8")
    refused: list = []
    assert specialize(load(str(path)).program, refused=refused) is None
    assert reason in str(refused[0])


LOOKUP_AHEAD = """\
meeple: 1
metadata: {name: Lookup ahead}
players: {min: 1, max: 1}
components:
  dice:
    d: {sides: 6}
  grids:
    sea:
      columns: [A, B]
      rows: [1, 2]
      default: {kind: water}
      row_attributes:
        1: {depth: 1}
        2: {depth: 2}
state:
  global:
    pos: {type: cell, initial: none}
    s: {type: int, initial: 0}
flow:
  phases:
    play:
      do:
        - roll: d
        - if: "d.face == 6"
          then:
            - set: {pos: "sea['A2']"}
        - set: {s: "count([c for c in sea.cells if pos != none and pos.depth == c.depth])"}
      next: end
end: {when: "true"}
scoring: {score: "s", order: highest}
"""


def test_a_lookup_worked_out_before_the_items_that_cannot_be_made_is_not_a_fault(tmp_path):
    """`pos.depth` depends on no cell, so it is worked out once before the cells; with `pos`
    none it cannot be made, but the rules test `pos != none` first: no error, no replay."""
    path = tmp_path / "ahead.yaml"
    path.write_text(LOOKUP_AHEAD, encoding="utf-8")
    _same(str(path), range(30))


UNREADABLE_SCORE = """\
meeple: 1
metadata: {name: Unreadable score}
players: {min: 2, max: 3, default: 2}
components:
  dice:
    d: {sides: 6}
state:
  player:
    x: {type: int, initial: 0}
    pts: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {}
      repeat: {times: 3}
      do:
        - roll: d
        - add: {current.x: 1, current.pts: "d.face"}
      next: end
scoring:
  score: "player.pts * 6 // player.x"
"""


@pytest.mark.parametrize("players", [2, 3])
def test_a_score_that_cannot_be_read_mid_game_stops_the_lead_count_not_the_game(players,
                                                                              monkeypatch):
    fast = same_records("unreadable.yaml", UNREADABLE_SCORE, sim.Setup("base", players=players),
                        5, 20, monkeypatch)
    assert all(r.error is None and r.lead_changes is None for r, _ in fast)
