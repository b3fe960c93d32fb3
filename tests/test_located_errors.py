"""Rule errors met inside an expression, stopped by the generated code where the interpreter
stops: each expression of a shipped ruleset, in turn, made to divide by zero in the third
turn (`0 // (turn - 3) + (E)` for a number, `0 // (turn - 3) == 0 and (E)` for a
condition). Every such variant's games are the interpreter's: result, counts, work, and the
error's code, message, data path and offsets in the expression. Where the code generator
knows the expression's place (interpreter/compile/stops.py `value_at`, `cond_at`), the
checked version plays the game again and stops it there itself: no game goes back to the
interpreter. Those of these three rulesets are all located so."""

from __future__ import annotations

import copy
import json

import pytest

from dsl.builtins import PAST_LIMIT
from dsl.loader import load_file
from dsl.parser import ExprSyntaxError, parse_expression
from interpreter.compile.specialize import specialize
from interpreter.engine.setup import SetupError, load, new_game
from tests.conftest import ROOT
from tests.test_race import RULESET as RACE
from tests.test_specialize import _interpreted_with, _outcome

SEEDS = range(4)


def _texts(data, path=()):
    """Each text in the ruleset's data with its data path."""
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _texts(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _texts(v, (*path, i))
    elif isinstance(data, str):
        yield path, data


def _put(data, path, value):
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


def _error(error):
    return None if error is None else (error.code, error.message, error.path, error.pos)


def _stop_of(special, program, seed, where=None):
    """The game on `seed` by the generated code (the function `meeple simulate` plays, which
    also tracks the standings) is the interpreter's: result, counts, work and error (code,
    message, data path, offsets). Returns that error, None if the game ended."""
    played = special.play(seed, True)
    outcome, result = _interpreted_with(program, None, None, seed)
    assert _outcome(played) == outcome, (where, seed)
    want = _error(result.error)
    assert _error(played.result.error) == want, (where, seed)
    return want


def _variants(name: str, tmp_path):
    """(data path, program) of each variant of the ruleset that loads: one expression made to
    fail in the third turn."""
    data = load_file(ROOT / "rulesets" / f"{name}.yaml")[0].data
    for path, text in _texts(data):
        try:
            parse_expression(text)
        except ExprSyntaxError:
            continue
        for form in (f"0 // (turn - 3) + ({text})", f"0 // (turn - 3) == 0 and ({text})"):
            changed = copy.deepcopy(data)
            _put(changed, path, form)
            file = tmp_path / "variant.json"
            file.write_text(json.dumps(changed), encoding="utf-8")
            try:
                program = load(str(file)).program
            except SetupError:
                continue  # not an expression there, or not of that kind
            yield path, program
            break


@pytest.mark.parametrize("name", ["pig", "liars_dice", "wreckdivers"])
def test_a_division_by_zero_in_any_expression_stops_the_game_where_the_interpreter_does(
        tmp_path, name):
    stopped = []
    for path, program in _variants(name, tmp_path):
        special = specialize(program, tracked_only=True)
        if special is None:
            continue  # a variant the generator refuses (said by validate), not played
        if any([_stop_of(special, program, seed, path) for seed in SEEDS]):
            stopped.append(path)
    assert len(stopped) >= 4  # the variants reach the third turn, and stop there


def _stops_in_pig(tmp_path, banked: str, said: str, turns: str = "{order: clockwise}") -> None:
    """Pig whose banked score is `banked` and whose phase's `turns` are `turns` (the map
    `seen` holds each turn's key, set when the turn begins) plays as the interpreter plays it,
    its games stopped by the generated code itself (none goes back to the interpreter), some
    with the error `said`."""
    stops, _ = _pig_stops(tmp_path, [
        ("state:\n", "state:\n  global:\n    seen: {type: map, initial: {}}\n"),
        ("      do:\n        - repeat:\n",
         '      do:\n        - set: {"seen[text(turn)]": 1}\n        - repeat:\n'),
        ("add: {current.score: turn_total}", f'add: {{current.score: "{banked}"}}'),
        ("turns: {order: clockwise}", f"turns: {turns}")])
    assert any(stop is not None and stop[1] == said for stop in stops)


def _pig_stops(tmp_path, edits: list, seeds=SEEDS, name: str = "pig") -> tuple[list, object]:
    """Pig (or the shipped ruleset `name`) with `edits` (each an old text and the new one)
    plays as the interpreter plays it, its games stopped by the generated code itself (none
    goes back to the interpreter): the error of each seed's game (None where it ended), and
    the program."""
    text = (ROOT / "rulesets" / f"{name}.yaml").read_text(encoding="utf-8")
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    path = tmp_path / f"{name}.yaml"
    path.write_text(text, encoding="utf-8")
    program = load(str(path)).program
    special = specialize(program)
    stops = [_stop_of(special, program, seed) for seed in seeds]
    return stops, program


@pytest.mark.parametrize("banked,said", [
    ("turn_total + [0, 0, 0][round - 1]", "index 3 is out of range for a list of 3 items"),
    ("turn_total + [0, 0, 0][3 - round]", "index -1 is out of range for a list of 3 items"),
    ("turn_total + seen[text(if round > 3 then 99 else turn)]", "the map has no key '99'"),
])
def test_a_list_or_map_read_where_it_has_nothing_stops_the_game_where_the_interpreter_does(
        tmp_path, banked, said):
    # A list read past its ends, a map at a key it does not have: the checked version stops
    # the game there itself.
    _stops_in_pig(tmp_path, banked, said)


@pytest.mark.parametrize("banked", [
    "turn_total * (if round > 3 then 4611686018427387904 else 1)",
    "turn_total + (if round > 3 then 9223372036854775807 else 0)",
    "turn_total - (if round > 3 then 9223372036854775807 else 0) - 2",
])
def test_a_number_past_the_languages_limit_stops_the_game_where_the_interpreter_does(
        tmp_path, banked):
    # The checked version (here from the start: the ruleset's own numbers lie past ±2**40)
    # tests each `*`, `+` and `-` and stops the game at the operator that went past.
    _stops_in_pig(tmp_path, banked, PAST_LIMIT)


@pytest.mark.parametrize("banked,said", [
    ("turn_total + count(range(0, if round > 3 then 20000 else 1))",
     "range(): range of more than 10,000 numbers"),
    ("turn_total + (if round > 3 then sum([4611686018427387904, 4611686018427387904]) else 0)",
     f"sum(): {PAST_LIMIT}"),
    ("turn_total + floor(if round > 3 then 9223372036854775807 * 2.5 else 0.5)",
     f"floor(): {PAST_LIMIT}"),
    ("turn_total + round(if round > 3 then 0.5 - 9223372036854775807 * 2.5 else 0.5)",
     f"round(): {PAST_LIMIT}"),
])
def test_a_built_ins_own_error_stops_the_game_where_the_interpreter_does(tmp_path, banked,
                                                                         said):
    # A range too long, a sum, floor or round past the language's limit: the checked
    # version stops the game at the call, in the built-in's words.
    _stops_in_pig(tmp_path, banked, said)


def test_a_division_by_zero_in_whom_a_phase_skips_stops_the_game_where_the_interpreter_does(
        tmp_path):
    _stops_in_pig(tmp_path, "turn_total", "division by zero",
                  '{order: clockwise, skip: "player.score // (turn - 5) < 0"}')


@pytest.mark.parametrize("name,limit", [("liars_dice", 1000), ("dice_bag_dungeon", 400),
                                        ("shipwrecked", 100)])
def test_a_budget_the_items_of_an_expression_pass_stops_the_game_where_the_interpreter_does(
        name, limit):
    # A small `max_steps`: games stop where a comprehension or a built-in counts the items
    # that pass it (a policy's rule, a `let` step's value, a `set`...), located there by the
    # checked version; none goes back to the interpreter.
    program = load(str(ROOT / "rulesets" / f"{name}.yaml")).program
    program.limits = {**program.limits, "max_steps": limit}
    special = specialize(program)
    stops = [_stop_of(special, program, seed) for seed in range(6)]
    assert any(stop is not None and "counting the items" in stop[1] for stop in stops)


def _scoring_variants(name: str, tmp_path):
    """(field, program) for each expression of the ruleset's scoring made to fail at the
    last seat when the game is scored: a score or tie-break divides by zero there, whom
    `eligible` lets win too, and `winners` divides by zero first."""
    data = load_file(ROOT / "rulesets" / f"{name}.yaml")[0].data
    last = "0 // (player.seat - count(players))"
    scoring = data["scoring"]
    fields = [("score",), *(("tie_break", i) for i in range(len(scoring.get("tie_break") or [])))]
    fields += [(k,) for k in ("eligible", "winners") if k in scoring]
    for field in fields:
        text = scoring[field[0]] if len(field) == 1 else scoring[field[0]][field[1]]
        failing = {"eligible": f"{last} == 0 and ({text})",
                   "winners": f"if 0 // (count(players) - count(players)) == 0 then ({text}) "
                              f"else ({text})"}.get(field[0], f"{last} + ({text})")
        changed = copy.deepcopy(data)
        _put(changed, ("scoring", *field), failing)
        file = tmp_path / f"{name}_{'_'.join(map(str, field))}.json"
        file.write_text(json.dumps(changed), encoding="utf-8")
        yield field, load(str(file)).program


@pytest.mark.parametrize("name,seeds", [("pig", 3), ("liars_dice", 2), ("wreckdivers", 3),
                                        ("dice_bag_dungeon", 3), ("dark_water_salvage", 1)])
def test_a_rule_error_in_scoring_is_the_games_error_located_by_the_generated_code(
        tmp_path, name, seeds):
    # As the interpreter scores a game (Game._result): a seat whose score stops scores none
    # and the others are scored; a tie-break, eligible or winners that stops leaves no
    # winners; the game keeps the reason it ended for. The generated code's games and logs
    # are the interpreter's, none played again by it.
    for field, program in _scoring_variants(name, tmp_path):
        special = specialize(program, tracked_only=True)
        assert special is not None, field
        assert all(_stop_of(special, program, seed, field) is not None for seed in range(seeds))
        logged = specialize(program, logged=True)
        for seed in range(seeds):
            played, log = logged.play_logged(seed)
            game = new_game(program, None, {}, seed=seed)
            assert game.run().to_json() == played.result.to_json(), (field, seed)
            assert log[-1] == game.log[-1] and len(log) == len(game.log), (field, seed)


@pytest.mark.parametrize("read,said", [
    ("die.face + 1", "cannot add none and a whole number"),
    ("1 - die.face", "'-' works on numbers, not none"),
    ("die.face * 2", "'*' works on numbers, not none"),
    ("6 // die.face", "'//' works on numbers, not none"),
    ("die.face % 4", "'%' works on numbers, not none"),
    ("floor(die.face / 2)", "'/' works on numbers, not none"),
    ("0 - -die.face", "'-' needs a number, not none"),
    ("if die.face > 2 then 1 else 0", "'>' compares two numbers or two texts, not none and a "
                                      "whole number"),
    ("if 3 <= die.face then 1 else 0", "'<=' compares two numbers or two texts, not a whole "
                                       "number and none"),
])
def test_none_where_an_operator_takes_numbers_stops_the_game_where_the_interpreter_does(
        tmp_path, read, said):
    # The die read before its first roll (its face is none): the operator stops the game at
    # its place in the expression, in the interpreter's words, on the generated code (its
    # checked version; a logged game by itself), none played again by the interpreter.
    stops = _turn_begins_with(tmp_path, f"set: {{turn_total: '{read}'}}")
    assert {stop[1] for stop in stops} == {said}


@pytest.mark.parametrize("read,said", [
    ("total(pair)", "total() cannot work with a list"),
    ("total(single) - 1", "total() cannot work with a list"),
    ("total(cup) + 1", "total() cannot work with a zone"),
    ("highest(cup).face", "highest() cannot work with a zone"),
    ("lowest(cup).face - 1", "lowest() cannot work with a zone"),
])
def test_a_built_in_on_dice_not_rolled_yet_stops_the_game_where_the_interpreter_does(
        tmp_path, read, said):
    # Dice known now (a pair, a set of one: no zone in the ruleset) and dice known at run time
    # (a zone's), read before their first roll: the built-in stops the game at its call, in
    # the interpreter's words (which tell a zone as a zone), on the generated code itself.
    # Before, the checked version met Python's TypeError there, which it could not locate: a
    # generator fault.
    dice = "    pair: {sides: 6, count: 2}\n    single: {sides: 6, count: 1}\n"
    if "cup" in read:
        dice += "    loose: {sides: 6, count: 3, in: cup}\n  zones:\n    cup: {kind: row}\n"
    stops = _turn_begins_with(tmp_path, f"set: {{turn_total: '{read}'}}", dice)
    assert {stop[1] for stop in stops} == {said}
    assert {stop[2][-1] for stop in stops} == {"turn_total"}


@pytest.mark.parametrize("rolled", ["first(empty)", "[first(cup), first(empty)]"])
def test_a_roll_of_a_die_not_found_stops_the_game_at_the_roll_where_the_interpreter_does(
        tmp_path, rolled):
    # The first die of an empty zone is none: rolling it (alone or in a list) stops the game
    # at the step's `roll`, in the language's words, on the generated code itself. Before,
    # the generated code met Python's TypeError (a generator fault) and the interpreter said
    # "not None".
    stops = _turn_begins_with(tmp_path, f"roll: '{rolled}'", _CUPS)
    assert {stop[1] for stop in stops} == {"only dice can be rolled, not none"}
    assert {stop[2][-1] for stop in stops} == {"roll"}


@pytest.mark.parametrize("rolled", ["[die, die]", "cup + [loose[0]]"])
def test_a_die_rolled_twice_in_one_roll_is_logged_with_each_draw_as_the_interpreter_logs_it(
        tmp_path, rolled):
    # The die keeps its last draw; the log tells both (step_runtime.record_roll). Before, the
    # generated log told the last face twice: `_logged_stops` compares the logs.
    assert _turn_begins_with(tmp_path, f"roll: '{rolled}'", _CUPS) == [None] * len(SEEDS)


@pytest.mark.parametrize("key,counts", [
    ("times", "times: 'first(faces(empty))'"),
    ("max", "until: 'turn_total == 0'\n          max: 'first(faces(empty))'"),
])
def test_a_repeat_counted_by_none_stops_the_game_at_its_count_where_the_interpreter_does(
        tmp_path, key, counts):
    # `times` or `max` of none (the face of a die not found) is no number of passes: the
    # game stops there, on the generated code itself. Before, the interpreter read none as no
    # count (a `times` ran to limits.max_loop, a `max` was ignored) and the generated code
    # met Python's TypeError, a generator fault.
    step = f"repeat:\n            - set: {{turn_total: 0}}\n          {counts}"
    stops = _turn_begins_with(tmp_path, step, _CUPS)
    assert {stop[1] for stop in stops} == {f"a repeat's {key} must be a whole number, not none"}
    assert {stop[2][-1] for stop in stops} == {key}


def test_a_phase_repeated_at_most_none_times_stops_the_game_at_its_max_where_the_interpreter_does(
        tmp_path):
    # A phase's `max` is worked out when the phase begins (Game._run_phase): none stops the
    # game there, before its first pass.
    until = '        until: "any(p.score >= goal for p in players)"\n'
    stops = _logged_stops(tmp_path, [(_DIE, _DIE + _CUPS),
                                     (until, until + "        max: 'first(faces(empty))'\n")])
    assert {stop[1:3] for stop in stops} == {(
        "a repeat's max must be a whole number, not none",
        ("flow", "phases", "play", "repeat", "max"))}


_TEXT_NONE = "set: {called: \"first(['x' for d in empty])\"}\n        - "


@pytest.mark.parametrize("then,said", [
    ("set: {called: \"called + 'y'\"}", "cannot add none and a text"),
    ("say: 'called {called}'", None),
])
def test_a_text_set_to_none_is_read_as_the_interpreter_reads_it(tmp_path, then, said):
    # A text state set to none (the first of an empty list of texts): `+` stops the game at
    # the operator in the interpreter's words, and a template writes it `none`, logged as the
    # interpreter logs it. Before, both met Python's TypeError in the generated code (a
    # generator fault), and a logged `say` told Python's None.
    text = "    called: {type: string, initial: \"''\"}\n"
    turn = "  turn:\n"
    stops = _logged_stops(tmp_path, [(_DIE, _DIE + _CUPS), (turn, turn + text),
                                     (_ROLL, f"        - {_TEXT_NONE}{then}\n{_ROLL}")])
    assert {stop and stop[1] for stop in stops} == {said}


_BIG = "1" + "0" * 200 + ".0"  # 1e200, written out: the grammar has no exponent


@pytest.mark.parametrize("quotient", [f"round * {_BIG} // 1", f"round * {_BIG} * {_BIG} // 2"])
def test_a_whole_quotient_past_any_whole_number_stops_the_game_where_the_interpreter_does(
        tmp_path, quotient):
    # `//` of numbers that are not whole makes a whole number: of 1e200, one past the limit;
    # of infinity (1e200 * 1e200), none at all (Python's infinity // 2 is nan). Both are the
    # limit's error at the operator, on the generated code itself. Before, the first went on
    # with a whole number past the limit, and the second crashed the interpreter.
    stops = _turn_begins_with(tmp_path, f"set: {{turn_total: '{quotient}'}}")
    assert {stop[1] for stop in stops} == {PAST_LIMIT}
    assert {stop[2][-1] for stop in stops} == {"turn_total"}


@pytest.mark.parametrize("read,said", [
    ("cup[3].face", "no item 3 in a zone"),
    ("cup[first(faces(empty))].face", "no item none in a zone"),
    ("cup[3].sides", "no item 3 in a zone"),  # every die has 6 sides: the read still fails
    ("cup[-4].face", "no item -4 in a zone"),
    ("cup[round + 2].face + 1", "no item 3 in a zone"),
])
def test_a_zone_read_where_it_has_no_item_stops_the_game_where_the_interpreter_does(
        tmp_path, read, said):
    # A zone is indexed as the interpreter's zone is (negative indexes count from its end):
    # where it has no such item, the game stops at the read, in the interpreter's words, on
    # the generated code itself. Before, Python's IndexError was a generator fault.
    stops = _turn_begins_with(tmp_path, f"set: {{turn_total: '{read}'}}", _CUPS)
    assert {stop[1] for stop in stops} == {said}


@pytest.mark.parametrize("step,said", [
    ("set: {turn_total: 'sum(d.face for d in [first(bag)])'}", "none has no field 'face'"),
    ("set: {turn_total: 'count(d for d in [last(bag), first(cup)] if d.face > 0)'}",
     "none has no field 'face'"),
    ("for_each: d\n          in: '[loose[0], first(bag)]'\n          do: [set: {turn_total: d.face}]",
     "none has no field 'face'"),
])
def test_a_die_of_a_list_that_may_hold_none_stops_the_game_where_the_interpreter_does(
        tmp_path, step, said):
    # `first` of an empty zone is none: a comprehension's or a `for_each`'s name bound to it
    # reads no field of it, in the interpreter's words, on the generated code itself. Before,
    # the name was taken for a die that is never none: Python's TypeError, a generator fault.
    stops = _turn_begins_with(tmp_path, step, "    loose: {sides: 6, count: 3, in: cup}\n"
                              "  zones:\n    cup: {kind: row}\n    bag: {kind: row}\n")
    assert {stop[1] for stop in stops} == {said}


def test_an_add_to_none_stops_the_game_at_the_add_step_where_the_interpreter_does(tmp_path):
    # The turn total set to the face of a die not yet rolled (none): the first roll's add
    # stops the game, unless that roll is a 1 (the turn ends first).
    stops = _turn_begins_with(tmp_path, "set: {turn_total: die.face}")
    assert any(stop is not None for stop in stops)
    for stop in filter(None, stops):
        assert stop[1].startswith("cannot add ") and stop[1].endswith(" to none")
        assert stop[2][-2:] == ("add", "turn_total") and stop[3] is None


_DIE = "    die: {sides: 6, doc: The one die both players roll.}\n"
_ROLL = "        - repeat:\n            - roll: die\n"  # the turn's loop begins
# Dice in a zone beside the die, and an empty zone (whose first die is none).
_CUPS = ("    loose: {sides: 6, count: 3, in: cup}\n  zones:\n    cup: {kind: row}\n"
         "    empty: {kind: row}\n")


def _turn_begins_with(tmp_path, step: str, dice: str = "") -> list:
    """Pig whose turn begins with `step` (and which has the components `dice` besides its
    die) plays as the interpreter plays it, logged too, its games stopped by the generated
    code itself; the error of each seed's game."""
    return _logged_stops(tmp_path, [(_DIE, _DIE + dice), (_ROLL, f"        - {step}\n{_ROLL}")])


def _logged_stops(tmp_path, edits: list, name: str = "pig") -> list:
    """`_pig_stops` (of the shipped ruleset `name`), and each seed's logged game (narrated) is
    the interpreter's too, log and result, played by the generated code itself: the error of
    each seed's logged game (narration's own errors stop only a narrated game)."""
    _, program = _pig_stops(tmp_path, edits, name=name)
    logged = specialize(program, logged=True)
    stops = []
    for seed in SEEDS:
        played, log = logged.play_logged(seed)
        game = new_game(program, None, {}, seed=seed)
        assert game.run().to_json() == played.result.to_json() and log == game.log, seed
        stops.append(_error(played.result.error))
    return stops


@pytest.mark.parametrize("amount,said", [("round - 5", "-4"), ("die.face", "none")])
def test_a_transfer_of_less_than_nothing_stops_the_game_at_its_step_where_the_interpreter_does(
        tmp_path, amount, said):
    # A negative amount, or none (the face of a die not yet rolled), at the first turn.
    step = (f"transfer: '{amount}'\n          of: score\n          from: current\n"
            "          to: \"'bank'\"")
    stops = _turn_begins_with(tmp_path, step)
    assert {stop[1] for stop in stops} == {f"a transfer needs an amount of 0 or more, not {said}"}
    assert {stop[2][-1] for stop in stops} == {"transfer"}


@pytest.mark.parametrize("declared,said", [
    ("{type: string, initial: \"'ab'\"}", "a text longer than 100,000 characters"),
    ("{type: list, initial: '[1, 2]'}", "a list of more than 100,000 items"),
])
def test_a_text_or_list_past_the_longest_stops_the_game_where_the_interpreter_does(
        tmp_path, declared, said):
    # A text or a list doubled at every turn: past the language's longest at its `+`.
    stops, _ = _pig_stops(tmp_path, [
        ("state:\n", f"state:\n  global:\n    t: {declared}\n"),
        ("      do:\n        - repeat:\n", "      do:\n        - set: {t: 't + t'}\n        - repeat:\n")],
        range(6))
    assert any(stop is not None for stop in stops)
    assert all(stop[1].startswith(said) and stop[3] == (0, 5) for stop in filter(None, stops))


@pytest.mark.parametrize("read,said", [
    ("round(die.face)", "round() cannot work with none"),
    ("floor(die.face)", "floor() cannot work with none"),
    ("ceil(die.face)", "ceil() cannot work with none"),
    ("abs(die.face)", "abs() cannot work with none"),
    ("max(die.face, 2)", "max() cannot work with none, a whole number"),
    ("min([3, die.face])", "min() cannot work with a list"),
    ("sum([die.face])", "sum() cannot work with a list"),
    ("clamp(die.face, 1, 3)", "clamp() cannot work with none, a whole number, a whole number"),
    ("count(range(1, die.face))", "range() cannot work with a whole number, none"),
    ("max([die.face, 1], default: 2)", "max() cannot work with a list"),
    ("if of_a_kind([die], die.face) then 1 else 0", "of_a_kind() cannot work with a list, none"),
    ("count(sort([die.face, 1]))", "sort() cannot work with a list"),
])
def test_a_built_in_given_none_stops_the_game_at_its_call_where_the_interpreter_does(
        tmp_path, read, said):
    # The die read before its first roll (its face is none) given to a built-in that takes
    # numbers: the call stops the game, in the interpreter's words, on the generated code
    # (its checked version; a logged game by itself), none played again by the interpreter.
    stops = _turn_begins_with(tmp_path, f"set: {{turn_total: '{read}'}}")
    assert {stop[1] for stop in stops} == {said}
    start = read.index(said[:said.index("(")])  # the call's place: to its closing bracket
    end = start + read[start:].index(")") + 1
    assert {stop[3] for stop in stops} == {(start, end)}


def test_sort_by_a_field_that_is_none_stops_the_game_at_its_call_where_the_interpreter_does(
        tmp_path):
    # Each turn begins with the player's mark set to the die's face, none before the first
    # roll: the players cannot be ordered by it, in the interpreter's words, at the call.
    read = "count(sort_by(players, \"mark\", \"-score\"))"
    stops = _logged_stops(tmp_path, [
        ("    score: {type: int, initial: 0, doc: Banked points.}\n",
         "    score: {type: int, initial: 0, doc: Banked points.}\n"
         "    mark: {type: int, initial: 0}\n"),
        ("        - repeat:\n            - roll: die\n",
         f"        - set: {{current.mark: die.face, turn_total: '{read}'}}\n"
         "        - repeat:\n            - roll: die\n")])
    assert set(stops) == {("runtime-error", "sort_by() cannot work with a list, a text, a text",
                           ("flow", "phases", "play", "do", 0, "set", "turn_total"), (6, 40))}


def test_a_rule_error_in_the_key_turns_are_ordered_by_stops_the_game_where_the_interpreter_does(
        tmp_path):
    # `turns: {order: by}`: each player's key worked out as the round begins; from the fifth
    # round it divides by zero, located in the phase's turns `by`.
    stops, _ = _pig_stops(tmp_path, [("turns: {order: clockwise}",
                                      'turns: {order: by, by: "player.seat + 0 // (5 - round)"}')])
    assert {stop[1:] for stop in stops} == {
        ("division by zero", ("flow", "phases", "play", "turns", "by"), (14, 30))}


@pytest.mark.parametrize("step,key,pos", [
    ('say: "round {1 // (5 - round)}"', "say", (7, 23)),
    ('{if: "round > 4", then: [{end_game: true, reason: "over {1 // (5 - round)}"}]}', "reason",
     (6, 22)),
    ('{if: "round > 4", then: [{eliminate: current, because: "out {1 // (5 - round)}"}]}',
     "because", (5, 21)),
])
def test_a_rule_error_in_a_templates_hole_stops_a_logged_game_where_the_interpreter_does(
        tmp_path, step, key, pos):
    # Narration (`say`), the reason a game ends for and the reason a player is out: a hole
    # that divides by zero in the fifth round stops the logged game there, located at the
    # hole's offsets in the template, by the generated code itself.
    stops = _turn_begins_with(tmp_path, step)
    assert {stop[1] for stop in stops} == {"division by zero"}
    assert {(stop[2][-1], stop[3]) for stop in stops} == {(key, pos)}


def test_a_rule_error_in_an_options_limit_stops_the_game_where_the_interpreter_does(tmp_path):
    # How many times an option may be chosen (`limit: {times}`), worked out as the decision is
    # asked: from the fifth round it divides by zero, located in the option's limit.
    stops, _ = _pig_stops(tmp_path, [(
        "options: [roll, hold]",
        'options: {roll: {limit: {times: "99 + 1 // (5 - round)", per: turn}}, hold: {}}')])
    path = ("flow", "phases", "play", "do", 0, "repeat", 3, "options", "roll", "limit", "times")
    assert {stop[1:] for stop in stops} == {("division by zero", path, (5, 21))}


def test_an_events_field_it_was_not_fired_with_stops_the_game_where_the_interpreter_does(
        tmp_path):
    # A `changed` trigger reads `event.old`, which a `set` does not give (an `add` does): from
    # the ninth round, the first `set: {turn_total: 0}` (a 1 rolled) stops the game there.
    stops = _logged_stops(tmp_path, [("flow:\n", (
        "triggers:\n  late:\n    on: changed\n    if: \"round > 8 and event.name == "
        "'turn_total' and event.old > 1000\"\n    do: []\nflow:\n"))])
    assert any(stop is not None for stop in stops)
    assert {stop[1:] for stop in filter(None, stops)} == {
        ("a map has no field 'old'", ("triggers", "late", "if"), (51, 54))}


@pytest.mark.parametrize("step,said,at", [
    ("set: {t: 'text([t, t])'}", "text(): a text longer than 100,000 characters (the language's "
                                 "limit)", ("set", "t", (0, 12))),
    ("add: {xs: xs}", "a list of more than 100,000 items (the language's limit)",
     ("add", "xs", None)),
])
def test_a_text_or_list_a_built_in_or_an_add_makes_past_the_longest_stops_the_game_there(
        tmp_path, step, said, at):
    # A text doubled by the `text` built-in, a list by an `add` of itself, at every turn: the
    # built-in's call stops the game in its words, the `add` at its target.
    stops = _logged_stops(tmp_path, [
        ("state:\n", "state:\n  global:\n    t: {type: string, initial: \"'ab'\"}\n"
                     "    xs: {type: list, initial: '[1, 2]'}\n"),
        ("      do:\n        - repeat:\n", f"      do:\n        - {step}\n        - repeat:\n")])
    assert any(stop is not None for stop in stops)
    assert {stop[1:] for stop in filter(None, stops)} == {
        (said, ("flow", "phases", "play", "do", 0, *at[:2]), at[2])}


@pytest.mark.parametrize("count,said", [("0 - 1", "-1"), ("first([6 for x in players if false])",
                                                            "none")])
def test_a_draws_count_that_is_not_a_whole_number_of_0_or_more_stops_the_game_at_its_step(
        tmp_path, count, said):
    # Liar's Dice: the second player draws `count` dice into their cup.
    stops, _ = _pig_stops(tmp_path, [("              count: dice_each\n",
                                      f"              count: \"if p.seat == 2 then {count} else "
                                      f"dice_each\"\n")], range(2), "liars_dice")
    path = ("flow", "phases", "setup", "do", 0, "do", 0, "count")
    assert set(stops) == {("runtime-error", "a count of items must be a whole number of 0 or "
                                            f"more, not {said}", path, None)}


GRID = ("components:\n", "components:\n  grids:\n    sea: {columns: [A, B], rows: [1, 2], "
                         "row_attributes: {1: {depth: 1}, 2: {depth: 2}}}\n")


@pytest.mark.parametrize("grid,where,banked,said,pos", [
    (GRID[1], "none", "turn_total + pos.depth", "none has no field 'depth'", (17, 22)),
    (GRID[1], "sea['A1']", "turn_total + (if round > 4 then sea['B7'].depth else 0)",
     "no item 'B7' in a grid", (32, 41)),
    (GRID[1].replace(", 2: {depth: 2}", ""), "sea['A2']", "turn_total + pos.depth",
     "a cell has no field 'depth'", (17, 22)),
    (GRID[1], "none", "turn_total + count([c for c in sea.cells if c.depth == pos.depth])",
     "none has no field 'depth'", (59, 64)),
])
def test_a_grids_cell_not_there_stops_the_game_where_the_interpreter_does(
        tmp_path, grid, where, banked, said, pos):
    # From the fifth round the cell read is `where` (none, or one without a depth), or no
    # such cell at all: the read stops the game at its place, in the interpreter's words (a
    # read worked out ahead of a comprehension's items too, where the items read it).
    stops = _logged_stops(tmp_path, [
        GRID[:1] + (grid,), ("state:\n", "state:\n  global:\n    pos: {type: cell, initial: none}\n"),
        ("      do:\n        - repeat:\n", f"      do:\n        - set: {{pos: \"if round > 4 then "
                                         f"{where} else sea['A1']\"}}\n        - repeat:\n"),
        ("add: {current.score: turn_total}", f'add: {{current.score: "{banked}"}}')])
    assert any(stop is not None for stop in stops)
    assert {stop[1:] for stop in filter(None, stops)} == {
        (said, ("flow", "phases", "play", "do", 2, "add", "current.score"), pos)}


@pytest.mark.parametrize("moved,said", [
    ("first([d for d in loser.cup if d.face > 9])", "only dice and cards can be moved, not none"),
    ("[first([d for d in loser.cup if d.face > 9])]", "only dice and cards can be moved, not none"),
    ("[first(loser.cup), first(loser.cup)]", "is listed twice in one move"),
])
def test_a_move_of_none_or_of_a_die_twice_stops_the_game_at_the_move_where_the_interpreter_does(
        tmp_path, moved, said):
    # Liar's Dice: the loser of a challenge puts back `moved` instead of a die of their cup.
    stops, _ = _pig_stops(tmp_path, [('      - move: "first(loser.cup)"', f'      - move: "{moved}"')],
                          range(2), "liars_dice")
    assert {(stop[1].removeprefix("die[0] "), stop[2]) for stop in stops} == {
        (said, ("procedures", "lose_a_die", "do", 0, "move"))}


NOBODY = "first([p for p in players if p.score > 999])"


@pytest.mark.parametrize("banked,said,pos", [
    (f"turn_total + (if round > 4 then {NOBODY}.score else 0)", "none has no field 'score'",
     (77, 82)),
    (f"turn_total + (if round > 4 then {NOBODY}.seat else 0)", "none has no field 'seat'",
     (77, 81)),
    ("turn_total + [1, 2][first([x for x in [1] if round > 4])]",
     "a list is indexed by a whole number, not none", (13, 57)),
])
def test_a_field_of_none_or_a_list_read_at_none_stops_the_game_where_the_interpreter_does(
        tmp_path, banked, said, pos):
    # From the fifth round the player read is none (nobody has 1,000 points), or the index.
    stops = _logged_stops(tmp_path, [("add: {current.score: turn_total}",
                                      f'add: {{current.score: "{banked}"}}')])
    assert any(stop is not None for stop in stops)
    assert {stop[1:] for stop in filter(None, stops)} == {
        (said, ("flow", "phases", "play", "do", 1, "add", "current.score"), pos)}


def test_a_field_of_a_die_that_is_none_stops_the_game_where_the_interpreter_does(tmp_path):
    # Liar's Dice: the loser of a challenge first reads the face of a die of theirs past 9.
    old = '      - move: "first(loser.cup)"\n'
    stops, _ = _pig_stops(tmp_path, [(old, '      - set: {starter: "if first([d for d in loser.cup '
                                           'if d.face > 9]).face > 0 then loser else loser"}\n'
                                      + old)], range(2), "liars_dice")
    assert set(stops) == {("runtime-error", "none has no field 'face'",
                           ("procedures", "lose_a_die", "do", 0, "set", "starter"), (47, 51))}


@pytest.mark.parametrize("old,new,said,key", [
    ('rate: "if racer == players[0] then fast else 1"', 'rate: "1 // (racer.seat - 1)"',
     "division by zero", "rate"),
    ('rate: "if racer == players[0] then fast else 1"', 'rate: "racer.seat - 2"',
     "a race's rate must be a number of 0 or more, not -1", "rate"),
    ('rate: "if racer == players[0] then fast else 1"',
     'rate: "first([p.seat for p in players if p.seat > 99])"',
     "a race's rate must be a number of 0 or more, not none", "rate"),
])
def test_a_racers_rate_that_cannot_be_worked_out_stops_the_race_where_the_interpreter_does(
        tmp_path, old, new, said, key):
    # tests/test_race.py's race with the first racer's rate worked out by zero, the
    # second's less than nothing, or none (the first of no seat): the race stops the game as
    # it begins, logged too, by the generated code itself.
    stops = _race_stops(tmp_path, old, new)
    assert {(stop[1], stop[2][-1]) for stop in stops} == {(said, key)}


def _race_stops(tmp_path, old: str, new: str, sets: dict | None = None) -> set:
    """tests/test_race.py's race with `old` made `new` (and the parameters `sets`) plays as
    the interpreter plays it, logged too, each game by the generated code itself: the error
    of each seed's game (None where it ended)."""
    assert old in RACE
    path = tmp_path / "race.yaml"
    path.write_text(RACE.replace(old, new, 1), encoding="utf-8")
    program = load(str(path), None, sets).program
    special, logged = specialize(program), specialize(program, logged=True)
    stops = {_stop_of(special, program, seed) for seed in range(3)}
    for seed in range(3):
        played, log = logged.play_logged(seed)
        game = new_game(program, None, {}, seed=seed)
        assert game.run().to_json() == played.result.to_json() and log == game.log, seed
    return stops


@pytest.mark.parametrize("step,key,text,said,pos", [
    ("add", "'[current][0 // (5 - round)].score'", "0", "division by zero", (10, 26)),
    ("set", "'[current][0 // (5 - round)].score'", "current.score", "division by zero", (10, 26)),
    ("add", "'first([p for p in players if p.score > 999 or round < 5]).score'", "0",
     "none has no field 'score'", (58, 63)),
    ("set", "'first([p for p in players if p.score > 999 or round < 5]).score'", "0",
     "'score' of none cannot be set", None),
])
def test_a_rule_error_in_a_set_or_add_target_stops_the_game_where_the_interpreter_does(
        tmp_path, step, key, text, said, pos):
    # Whom a step writes to, worked out in the fifth round: by zero, or nobody (an `add`
    # reads its target first: none has no fields; a `set` cannot write a field of none).
    # Located at the step's target.
    stops = _logged_stops(tmp_path, [(
        "add: {current.score: turn_total}",
        f"{step}: {{current.score: 'current.score + turn_total', {key}: '{text}'}}"
        if step == "set" else f"add: {{current.score: turn_total, {key}: '{text}'}}")])
    assert (said, ("flow", "phases", "play", "do", 1, step, key.strip("'")), pos) in {
        stop[1:] for stop in filter(None, stops)}


NOBODY = "first([p for p in players if p.score > 999 or round < 5])"


@pytest.mark.parametrize("key,text,said,pos", [
    ("current.marks[round - 1]", "1", "cannot set item ", None),
    (f"{NOBODY}.marks[0]", "1", "none has no field 'marks'", (58, 63)),
    (f"{NOBODY}.marks", "[1]", "'marks' of none cannot be set", None),
    (f'{NOBODY}.notes["a"]', "1", "none has no field 'notes'", (58, 63)),
])
def test_a_rule_error_writing_a_list_or_map_target_stops_the_game_where_the_interpreter_does(
        tmp_path, key, text, said, pos):
    # Each player has a list of three marks and a map of notes. From the fifth round a set
    # writes past the marks' ends (from the fourth), or to nobody's list or map.
    stops = _logged_stops(tmp_path, [
        ("    score: {type: int, initial: 0, doc: Banked points.}\n",
         "    score: {type: int, initial: 0, doc: Banked points.}\n"
         "    marks: {type: list, initial: [0, 0, 0]}\n    notes: {type: map, initial: {}}\n"),
        ("add: {current.score: turn_total}",
         f"set: {{current.score: 'current.score + turn_total', '{key}': '{text}'}}")])
    stopped = {stop[1:] for stop in stops if stop is not None}
    assert stopped
    for message, path, at in stopped:
        assert message.startswith(said) and at == pos
        assert path == ("flow", "phases", "play", "do", 1, "set", key)


@pytest.mark.parametrize("sets,seat,said", [
    (None, 2, "division by zero"),  # the second racer's first claim tests it
    ({"fast": "0"}, 1, None),       # the first racer never claims: never tested
])
def test_a_races_wanted_test_that_fails_stops_the_race_where_the_interpreter_tests_it(
        tmp_path, sets, seat, said):
    # tests/test_race.py's race whose `wanted` divides by zero for one racer's red items: the
    # race stops at the first claim where that racer tests one, as the interpreter's does
    # (the test is never worked out ahead for items the interpreter would not test), logged
    # too, by the generated code itself.
    stops = _race_stops(tmp_path, "wanted: \"item.colour == 'red'\"",
                        "wanted: \"item.colour == 'red' and "
                        f"1 // (racer.seat - {seat}) >= 0\"", sets)
    assert {stop and (stop[1], stop[2][-1]) for stop in stops} == {
        (said, "wanted") if said else None}


def test_a_set_of_the_face_of_no_die_stops_the_game_where_the_interpreter_does(tmp_path):
    # The dungeon's bag without green dice: the health die the setup takes from it is none,
    # and the setup's `set` of its face stops the game at that target.
    stops, _ = _pig_stops(tmp_path, [("attributes: {colour: green, role: health}",
                                      "attributes: {colour: teal, role: health}")],
                          range(2), "dice_bag_dungeon")
    assert {stop[1:] for stop in stops} == {(
        "'face' of none cannot be set",
        ("flow", "phases", "setup", "do", 0, "do", 1, "set", "first_health.face"), None)}


def test_a_narrated_text_past_the_longest_stops_a_logged_game_where_the_interpreter_does(
        tmp_path):
    # A text that doubles every turn, said twice over: the narration's whole text passes
    # the longest (100,000 characters) a turn before the text itself does. Located at the
    # whole template, as compile_template locates it, by the generated code itself.
    old = "        - repeat:\n            - roll: die\n"
    stops = _logged_stops(tmp_path, [
        ("  turn:\n", "  global:\n    msg: {type: string, initial: \"'ab'\"}\n  turn:\n"),
        (old, "        - set: {msg: \"msg + msg\"}\n        - say: \"{msg}{msg}\"\n" + old)])
    stopped = {stop[1:] for stop in stops if stop is not None}
    assert stopped == {("a text longer than 100,000 characters (the language's limit)",
                        ("flow", "phases", "play", "do", 1, "say"), (0, 10))}


def test_an_attribute_a_die_lacks_stops_the_game_where_the_interpreter_does(tmp_path):
    # tests/test_race.py's race with a plain white die in the pool: the racers' `wanted`
    # reads its colour, which it has not, in the interpreter's words, at the field.
    old = "    blue: {count: 3, in: pool, attributes: {colour: blue}}\n"
    stops = _race_stops(tmp_path, old, old + "    white: {count: 1, in: pool}\n")
    assert {stop[1:] for stop in stops} == {("a die has no field 'colour'",
                                             ("flow", "phases", "play", "do", 1, "wanted"),
                                             (5, 11))}


def test_an_elimination_of_nobody_stops_the_game_where_the_interpreter_does(tmp_path):
    # From the fifth round each turn eliminates whoever has 1,000 points: nobody. The
    # interpreter stops there with a located error (it failed inside, before), and so does
    # the generated code, logged too.
    stops = _turn_begins_with(tmp_path, '{if: "round > 4", then: [{eliminate: '
                                        '"first([p for p in players if p.score > 999])"}]}')
    assert {stop[1:] for stop in stops if stop is not None} == {(
        "only a player can be eliminated, not none",
        ("flow", "phases", "play", "do", 0, "then", 0, "eliminate"), None)}


LATE = "first([p for p in players if p == current and turn < 3])"  # none from the third turn


@pytest.mark.parametrize("old,new,said,where,pos", [
    # An extra Play Point given to nobody: the taker has no Play Points.
    ("\n            from: \"'bank'\"\n            to: current\n",
     f"\n            from: \"'bank'\"\n            to: \"{LATE}\"\n", "none has no field 'pp'",
     ("procedures", "extra_point", "do", 1, "then", 1, "of"), None),
    # A knock-out aimed among nobody's opponents: the built-in's own error, at its call.
    ('options: "opponents(current)"\n                  prompt: "Whom does {current.name} try',
     f'options: "opponents({LATE})"\n                  prompt: "Whom does {{current.name}} try',
     "opponents(): none has no field 'others'",
     ("flow", "phases", "main", "do", 1, "options", "ko", "do", 0, "options"), (0, 67)),
])
def test_a_transfer_or_a_built_in_given_nobody_stops_the_game_where_the_interpreter_does(
        tmp_path, old, new, said, where, pos):
    # Dice Survivor, where a rule reads nobody from the third turn: the interpreter's located
    # error (a field of none at the transfer's `of`; opponents() of none at its call), by
    # the generated code itself, logged too.
    stops = _logged_stops(tmp_path, [(old, new)], "dice_survivor")
    assert {stop[1:] for stop in stops if stop is not None} == {(said, where, pos)}


def test_a_budget_a_remembered_value_passes_stops_the_game_where_the_interpreter_does():
    # Dark Water Salvage with 20,000 steps at most: the budget runs out inside a policy's
    # value the generated code remembers (interpreter/compile/memo.py), which it then works
    # out again to stop at the node where the interpreter's count passes the budget.
    program = load(str(ROOT / "rulesets" / "dark_water_salvage.yaml")).program
    program.limits = {**program.limits, "max_steps": 20000}
    stop = _stop_of(specialize(program), program, 0)
    assert stop[0] == "budget-exceeded" and "counting the items" in stop[1]
    assert stop[2:] == (("policies", "sonar_hunter", "decide", "research_ship", 0, "best"),
                        (186, 196))
