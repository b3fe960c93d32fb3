"""The generated code at the language's corners plays as the reference interpreter: issue 15's
promise that the one code generator has no silent disagreement with the oracle, held on the
cases where a rule cannot go on or a value is none.

Each case puts an expression (in a `set`, a `let`, an `if`, a text) or a few steps into a small
game's turn, before its dice are first rolled (faces none) or after: dice known now, a pair,
dice in a zone (`box`) and an empty zone, list, map, text and number state. The fast, checked
and logged versions must each be generated (no refusal: the interpreter would play instead)
and give the interpreter's result, error (code, words, data path, offsets) and, logged, its
log, record for record. Most cases stop the game, each with another message; those that do not
check what the generated code does in place of a stop (a die rolled twice, a text set to
none). Each case was once a disagreement, or guards a class of them: a probe of 1,512 such
cases against the interpreter found the faults these tests keep fixed.
"""

from __future__ import annotations

import pytest

from tests.generated_agreement import plays_as_the_interpreter, program_of

GAME = """\
meeple: 1
metadata: {name: Corners}
players: {min: 2, max: 2}
teams: {names: [red, blue], assign: alternate}
components:
  dice:
    a: {sides: 6}
    c: {faces: [3, 4, 5, 6, 7]}
    w: {sides: 6, count: 2}
    loose: {sides: 6, count: 4, in: box}
  zones:
    box: {kind: row}
    empty: {kind: row}
state:
  global:
    seen: {type: int, initial: 0}
    xs: {type: list, initial: "[1, 2]"}
    m: {type: map, initial: {}}
    t: {type: string, initial: "''"}
    f: {type: number, initial: 0}
  player:
    score: {type: int, initial: 0}
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat:
        until: "round >= 3"
      do:
STEPS
        - say: "seen={seen} f={f} t={t}"
        - add: {current.score: "total(box)"}
      next: end
scoring: {score: player.score, order: highest}
"""
ROLLS = "        - roll: a\n        - roll: c\n        - roll: w\n        - roll: box\n"
TEACH = "        - set: {'m[\"k\"]': 1}\n        - set: {xs: '[seen]'}\n"  # maps and lists


def _quoted(expr: str) -> str:
    return f'"{expr}"' if '"' not in expr else "'" + expr.replace("'", "''") + "'"


def _steps(where: str, expr: str) -> str:
    """The turn's steps: the case where `where` puts it, before or after the dice's rolls."""
    at, _, when = where.partition("-")
    step = {
        "set": f"        - set: {{seen: {_quoted(expr)}}}\n",
        "num": f"        - set: {{f: {_quoted(expr)}}}\n",
        "str": f"        - set: {{t: {_quoted(expr)}}}\n",
        "let": f"        - let: v\n          be: {_quoted(expr)}\n        - set: {{seen: 1}}\n",
        "if": (f"        - if: {_quoted(expr)}\n          then: [add: {{seen: 1}}]\n"
               "          else: [add: {seen: 2}]\n"),
        "steps": expr,
    }[at]
    return TEACH + (step + ROLLS if when == "before" else ROLLS + step)


CASES = [
    # A die not rolled yet: its face is none wherever a number goes.
    ("set-before", "a.face + 1"), ("set-before", "1 + a.face"),
    ("set-before", "w[1].face + w[0].face"), ("set-before", "a.face - c.face"),
    ("set-before", "a.face * 2"), ("set-before", "a.face // 2"), ("set-before", "a.face % 2"),
    ("set-before", "-a.face"), ("num-before", "a.face / 2"),
    ("let-before", "(a.face + 0.5) // 1"), ("let-before", "a.face >= c.face"),
    ("if-before", "a.face < c.face and w[0].face < w[1].face"),
    ("set-before", "if a.face > c.face then 1 else 0"),
    ("set-before", "sum(d.face for d in box if d.face > 3)"),
    ("set-before", "floor(a.face)"), ("set-before", "round(a.face)"),
    ("set-before", "abs(a.face)"), ("set-before", "clamp(1, a.face, 6)"),
    ("set-before", "max(a.face, 1)"), ("set-before", "min(1, 2, a.face)"),
    ("set-before", "max(faces(w))"), ("set-before", "sum(faces(w))"),
    ("set-before", "total(w) - total(box)"), ("if-before", "total(box) > 10"),
    ("set-before", "lowest(w).face"), ("set-before", "highest(box).face"),
    ("set-before", "if of_a_kind(w, a.face) then 1 else 0"),
    ("set-before", "count(range(a.face, 3))"), ("set-before", "count(sort(faces(box)))"),
    ("set-before", "faces(box)[a.face]"), ("set-before", "box[a.face].face"),
    ("steps-before", "        - set: {seen: a.face}\n        - add: {seen: 1}\n"),
    ("steps-before", "        - repeat: [add: {seen: 1}]\n          times: a.face\n"),
    ("steps-before", "        - repeat: [add: {seen: 1}]\n          until: 'seen > 3'\n"
                     "          max: a.face\n"),
    ("steps-before", "        - draw: box\n          as: got\n          count: a.face\n"
                     "        - set: {seen: 'count(got)'}\n"),
    ("steps-before", "        - say: 'face {a.face // 0}'\n"),
    # Past the ends of lists and zones, and a zone's first die when it is empty.
    ("set-before", "w[2].face"), ("set-before", "loose[-1].face"),
    ("set-before", "faces(empty)[0]"), ("set-after", "[1, 2, 3][a.face]"),
    ("set-before", "faces(w)[9223372036854775807]"), ("set-before", "box[4].face"),
    ("set-before", "empty[0].face"), ("set-after", "box[a.face].face"),
    ("set-before", "box[9].sides"), ("set-before", "count([box[9]])"),
    ("set-before", "first(empty).face"), ("set-before", "sum(d.sides for d in [a, first(empty)])"),
    ("steps-before", "        - set: {'first(empty).face': 3}\n"),
    ("steps-before", "        - move: 'first(empty)'\n          to: box\n"),
    ("steps-before", "        - roll: 'first(empty)'\n"),
    ("steps-before", "        - roll: '[first(box), first(empty)]'\n"),
    ("steps-before", "        - say: 'face {first(empty).face}'\n"),
    ("set-before", "m['nope']"),
    # Division, limits and lengths.
    ("set-after", "a.face // 0"), ("set-after", "a.face % 0"),
    ("set-after", "9000000000000000000 + a.face * 1000000000000000000"),
    ("set-after", "floor(a.face * 10000000000000000000.0)"),
    ("set-after", "sum([9223372036854775807, a.face])"),
    ("set-after", "(a.face * 10000000000000000000.0) // 1"),
    ("set-before", "count(range(0, 20000))"),
    ("str-before", "text(range(0, 10000)) + text(range(0, 10000)) + text(range(0, 10000))"),
    ("steps-after", "        - repeat: [add: {seen: 1}]\n          times: 3\n"
                    "          max: 'a.face - 10'\n"),
    ("steps-after", "        - draw: box\n          as: got\n          count: 'a.face - 10'\n"
                    "        - set: {seen: 'count(got)'}\n"),
    ("steps-before", "        - move: '[a, a]'\n          to: box\n"),
    ("steps-before", "        - repeat: [add: {seen: 1}]\n          times: 20000\n"),
    # No stop: what the generated code does in place of one.
    ("steps-before", "        - roll: '[a, w[0], a]'\n"),
    ("steps-after", "        - roll: 'box + [loose[0]]'\n"),
    ("steps-before", "        - set: {t: \"first(['x' for d in empty])\"}\n"
                     "        - set: {t: \"t + 'y'\"}\n"),
    ("steps-before", "        - set: {t: \"first(['x' for d in empty])\"}\n"
                     "        - say: 'said {t}'\n"),
    ("set-after", "count([d for d in box if d.face > 3]) + total(w)"),
    # `any`, `all` and `first` of dice, the first deciding, a later one not rolled: the
    # interpreter works out every item, so the rule stops there; where no item can fail,
    # the generated code stops at the deciding one (cuts.short_cut).
    ("steps-before", "        - roll: 'loose[0]'\n"
                     "        - set: {seen: 'if any(d.face > 0 for d in box) then 1 else 0'}\n"),
    ("steps-before", "        - roll: 'loose[0]'\n"
                     "        - set: {seen: 'if all(d.face > 9 for d in box) then 1 else 0'}\n"),
    ("steps-before", "        - roll: 'loose[0]'\n"
                     "        - set: {seen: 'first([d for d in box if d.face > 0]).face'}\n"),
    ("steps-before", "        - roll: 'loose[0]'\n"
                     "        - set: {seen: 'first([d.face for d in box if d.sides == 6])'}\n"),
    ("set-before", "if any(d.sides == 6 for d in box) then "
                   "first([d for d in box if d.sides == 6]).sides else 0"),
    ("set-before", "if all(d.sides == 6 for d in box + [c]) then 1 else 2"),
    # `==` cannot fail, but working out a side can: the second player's item stops the rule.
    ("set-before", "if any(q.score == (if q.seat == 2 then xs[9] else 0) for q in players) "
                   "then 1 else 0"),
    ("set-before", "if any(q.score == seen for q in players) then 1 else 0"),
    # A roll `by` nobody: the log names the table (step_runtime.named_doer).
    ("steps-after", "        - roll: a\n          by: none\n"),
    ("steps-after", "        - roll: w\n          by: seen\n"),
    ("steps-after", "        - roll: c\n          by: current.team\n"),
]


# Each case's id: where it goes and its text, spaces collapsed (steps cases differ late).
@pytest.mark.parametrize("where,expr", CASES,
                         ids=[f"{w}:{' '.join(e.split())[:70]}" for w, e in CASES])
def test_the_generated_code_at_a_corner_of_the_language_plays_as_the_interpreter(where, expr):
    game = GAME.replace("STEPS\n", _steps(where, expr))
    plays_as_the_interpreter(program_of(game, "corners.yaml"), range(2))
