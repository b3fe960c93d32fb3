"""Which names expressions read and effects write: checks and the end condition are examined
again only when an operation wrote something they read, so these sets must never miss one."""

from __future__ import annotations

from interpreter.engine.reads import free_reads, names_read, target_writes, union


def test_names_fields_and_builtin_implicit_fields_are_read():
    assert names_read("any(p.score >= goal for p in players)") >= {"score", "goal", "players"}
    assert "face" in names_read("total(pair) > 7")
    assert "eliminated" in names_read("count(opponents(current)) == 0")
    assert {"m", "k"} <= names_read("m[k] > 0")
    assert names_read(3) == frozenset()
    assert {"a", "b"} <= names_read(["a", "b + 1"])


def test_free_reads_leave_out_a_comprehensions_own_name_but_not_a_name_it_shadows_outside():
    assert free_reads("any(p.score >= goal for p in players)") == (
        frozenset({"goal", "players"}), frozenset({"score"}))
    # `turn` is the comprehension's own inside it, the game's turn outside it.
    names, fields = free_reads("turn > 3 or any(turn.x > 0 for turn in players)")
    assert names == {"turn", "players"} and fields == {"x"}
    assert free_reads("count(opponents(current)) == 0")[1] == {"eliminated"}
    assert free_reads("elapsed(t) > 5") is None


def test_an_expression_reading_the_clock_reads_anything():
    assert names_read("remaining(t) < 5") is None
    assert union([frozenset({"a"}), None]) is None
    assert union([frozenset({"a"}), frozenset({"b"})]) == {"a", "b"}


def test_a_target_writes_its_name_its_field_or_its_containers_name():
    assert target_writes("turn_total") == "turn_total"
    assert target_writes("current.score") == "score"
    assert target_writes("notes[p][k]") == "notes"
    assert target_writes("p.notes[k]") == "notes"


def test_an_end_condition_still_ends_the_game_after_the_write_it_reads(tmp_path):
    from interpreter.engine.chance import ScriptedChance
    from interpreter.engine.setup import load, new_game

    path = tmp_path / "t.yaml"
    path.write_text("""\
meeple: 1
metadata: {name: T}
players: {min: 1, max: 1}
components:
  dice:
    die: {}
state:
  global:
    tally: 0
flow:
  phases:
    play:
      do:
        - repeat:
            - roll: die
            - add: {tally: die.face}
          times: 10
end:
  when: "tally >= 7"
""")
    game = new_game(load(str(path)).program, chance=ScriptedChance([6, 1, 6, 6]))
    game.run()
    assert game.env["tally"] == 7
    assert game.rolls == 2


def test_a_timers_running_remaining_and_elapsed_read_the_clock():
    # They change as time passes, with no operation writing them.
    for text in ("not clock.running", "clock.remaining < 2", "clock.elapsed > 1 and x"):
        assert names_read(text) is None and free_reads(text) is None, text
    assert names_read("clock.seconds > 2") == {"clock", "seconds"}


BELL = """\
meeple: 1
metadata: {name: Bell}
players: {min: 1, max: 1, default: 1}
components:
  dice:
    d: {sides: 6}
  timers:
    clock: {}
state:
  global:
    rang: {type: bool, initial: false}
    missed: {type: int, initial: 0}
checks:
  bell:
    when: "not clock.running and not rang"
    do:
      - set: {rang: true}
flow:
  phases:
    play:
      do:
        - start_timer: clock
          seconds: 3
        - repeat:
            - roll: d
              duration: 2
            - if: "not clock.running and not rang"
              then:
                - add: {missed: 1}
          times: 3
      next: end
scoring: {score: missed, order: highest}
"""


def test_a_check_that_reads_a_timer_is_examined_after_an_operation_that_lets_time_pass():
    # The roll that takes the clock past the timer's end writes only faces; the check that
    # reads the timer is examined after it all the same, before the next step looks.
    from tests.generated_agreement import plays_as_the_interpreter, program_of

    results = plays_as_the_interpreter(program_of(BELL, "bell.yaml"), range(3))
    assert all(r.error is None and r.seats[0].score == 0 for r, _ in results)
