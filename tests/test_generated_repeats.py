"""A part of a `best` score written twice is worked out once an option in the generated code
(interpreter/compile/repeats.py, policies.py `_shared`), and the games still play as the
reference interpreter's: the same picks, the same located error where the part fails."""

from __future__ import annotations

import re

from dsl.parser import parse_expression
from interpreter.compile.repeats import bound_first, repeated, replaced, shape
from interpreter.compile.specialize import specialize
from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Heaps}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    d: {sides: 6}
state:
  global:
    heaps: {type: list, initial: "[0, 0, 0, 0]"}
  player:
    stock: {type: list, initial: "[0, 0, 0, 0]"}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 8"
      do:
        - roll: d
        - choose: heap
          options: "range(1, HEAPS)"
        - set:
            current.stock: >-
              [(if i == heap - 1 then current.stock[i] + d.face else current.stock[i])
              for i in range(0, 4)]
        - set: {heaps: "[(if i == heap - 1 then heaps[i] + 1 else heaps[i]) for i in range(0, 4)]"}
      next: end
scoring: {score: "sum(player.stock)", order: highest}
policies:
  spread:
    default: true
    decide:
      heap:
        - best: >-
            (if me.stock[option - 1] <= max(p.stock[option - 1] for p in players if p != me)
            then 1 else 0)
            - 2 * abs(me.stock[option - 1] - max(p.stock[option - 1] for p in players if p != me))
            + heaps[option - 1]
"""


def _game(heaps: int = 5) -> str:
    return GAME.replace("HEAPS", str(heaps))


def _score_line(source: str) -> str:
    return next(line for line in source.splitlines() if "abs(" in line and "_s" in line)


def test_a_part_written_twice_is_worked_out_once_an_option():
    program = program_of(_game(), "heaps.yaml")
    line = _score_line(specialize(program).source)
    # Each part (the player's own stock, the most of the others') is worked out once, where
    # the score first reads it, always (`(_L := ...)`: bound_first), then read as its name:
    # no test of a first reading, nothing unset before the next option.
    # (The most of the others is a running value over them: offsets.py `listed_extreme`.)
    assert line.count("0 != cur") == 1 and "max(" not in line
    assert line.count(":= P_stock[cur]") == line.count("P_stock[cur]") == 1
    assert not re.search(r"_L\d+ is (not )?_U", line)
    own = re.search(r"\((_L\d+) := P_stock\[cur\]", line).group(1)
    most = re.search(r"\((_L\d+) := \(\(_t\d+ := ", line).group(1)
    assert f"abs((({own}) - ({most})))" in line  # the second reading of each: its name


def test_a_score_with_parts_written_twice_plays_as_the_interpreter():
    results = plays_as_the_interpreter(program_of(_game(), "heaps.yaml"), range(30))
    assert all(r.error is None for r, _ in results)
    picks = {rec["choice"] for _, log in results for rec in log if rec.get("t") == "decision"}
    assert len(picks) > 1  # the score tells the heaps apart


def test_a_part_that_fails_stops_the_game_at_its_first_occurrence():
    # Heap 5 (options 1 to 5) is past the four heaps: `me.stock[option - 1]` fails where the
    # score first reads it (characters 4 to 24), as in the interpreter, in every version.
    results = plays_as_the_interpreter(program_of(_game(6), "heaps.yaml"), range(10))
    assert {(r.error.path, r.error.pos) for r, _ in results} == {
        (("policies", "spread", "decide", "heap", 0, "best"), (4, 24))}


def _parts(text: str, per_option=frozenset({"option"})) -> list[str]:
    node = parse_expression(text)
    return [text[p.pos[0]:p.pos[1]] for p in repeated(node, set(per_option))]


def test_parts_named_are_those_written_twice_that_read_the_option():
    assert _parts("f[option - 1] * 2 + f[option - 1]") == ["f[option - 1]"]
    # Not reading the option: the same once an option, moved before the options instead.
    assert _parts("g[me.seat + 1] * 2 + g[me.seat + 1]") == []
    # One lookup of a field is as cheap as the name: not named.
    assert _parts("option.face * 2 + option.face") == []


def test_a_part_first_met_in_a_branch_is_not_named():
    # The first occurrence may not be worked out (a branch, the right of `and`): the
    # interpreter would first work it out at the second, where an error would be located.
    assert _parts("(if x > 0 then f[option - 1] else 0) + f[option - 1]") == []
    assert _parts("(x > 0 and f[option - 1] > 2) or f[option - 1] > 3") == []
    assert _parts("(if f[option - 1] > 0 then f[option - 1] else 0)") == ["f[option - 1]"]


def test_a_part_inside_a_comprehension_is_not_named():
    # Worked out once an item there, with the item's name: never shared between items.
    assert _parts("sum(f[option - 1] + f[option - 1] for c in cells)") == []


def test_shape_ignores_where_a_part_is_written_but_not_the_type_of_its_values():
    both = parse_expression("f[option - 1] + f[option - 1]")
    assert both.left.pos != both.right.pos and shape(both.left) == shape(both.right)
    assert shape(parse_expression("1")) != shape(parse_expression("1.0"))
    assert shape(parse_expression("1")) != shape(parse_expression("true"))


def test_replaced_reads_every_occurrence_through_the_name():
    node = parse_expression("f[option - 1] * 2 + f[option - 1]")
    out = replaced(node, repeated(node, {"option"})[0], "$1")
    assert repr(shape(out)) == repr(shape(parse_expression("a * 2 + a"))).replace("'a'", "'$1'")


_A = "(_L1 if _L1 is not _U else (_L1 := V[o]))"
_B = "(_L2 if _L2 is not _U else (_L2 := max(t) if (t := W[o]) else 0))"


def test_bound_first_binds_a_name_where_it_is_always_first_read():
    src, bound = bound_first(f"(1 if ({_A} <= {_B}) else 0) - 2 * abs({_A} - {_B})",
                             {"_L1", "_L2"})
    assert bound == {"_L1", "_L2"}
    assert src == ("(1 if (((_L1 := V[o])) <= ((_L2 := max(t) if (t := W[o]) else 0))) else 0)"
                   " - 2 * abs((_L1) - (_L2))")
    # A name read inside another's value binds there, when that value is worked out.
    outer = f"(_L3 if _L3 is not _U else (_L3 := 1 + {_A}))"
    src, bound = bound_first(f"{outer} + {_A} + {outer}", {"_L1", "_L3"})
    assert (src, bound) == ("((_L3 := 1 + ((_L1 := V[o])))) + (_L1) + (_L3)", {"_L1", "_L3"})
    # Offsets are bytes to ast: a text with other letters before it moves nothing.
    assert bound_first(f"'é' + {_A} + {_A}", {"_L1"})[0] == "'é' + ((_L1 := V[o])) + (_L1)"


def test_bound_first_leaves_a_name_first_read_where_it_may_not_be_worked_out():
    for src in (f"(x if c else {_A}) + {_A}",     # a branch
                f"(c and {_A} > 0) or {_A} > 1",   # the right of `and`
                f"a < b < {_A} + {_A}",            # a chained comparison's later part
                f"[y for y in {_A}] + [{_A}]",     # a comprehension (no `:=` may go there)
                f"(lambda: {_A})() + {_A}"):
        assert bound_first(src, {"_L1"}) == (src, set()), src
    assert bound_first(f"{_A} + {_A}", {"_L2"}) == (f"{_A} + {_A}", set())  # not asked
