"""The generated code writes the game's log as the reference interpreter writes it.

A `specialize(..., logged=True)` game's log must equal, record for record (every roll,
draw, move, decision, race, trigger, timer, hazard, line of narration and the end), the log of
the interpreter's game on the same seed and seats: on every shipped ruleset and variant, on
rulesets hypothesis writes, and on small rulesets for what the shipped ones leave out.
"""

from __future__ import annotations

import json

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from interpreter.compile.specialize import specialize
from interpreter.engine.setup import load, new_game
from tests.conftest import ROOT, RULESETS
from tests.test_specialize_hypothesis import rulesets

PIG = str(ROOT / "rulesets" / "pig.yaml")
WRECK = str(ROOT / "rulesets" / "wreckdivers.yaml")


def _json(log: list[dict]) -> list[dict]:
    """A log as its file holds it (JSON lines): tuples become lists, as a reader sees them."""
    return json.loads(json.dumps(log, ensure_ascii=False, default=str))


def _same_logs(path: str, seeds: range, variant=None, sets=None, players=None,
               seats=None) -> int:
    """Asserts equal logs and results on every seed, each played by the generated code
    itself (a rule error it does not locate would raise); returns how many stopped with an
    error."""
    program = load(path, variant, sets).program
    special = specialize(program, players, seats, logged=True)
    assert special is not None
    stopped = 0
    for seed in seeds:
        played, log = special.play_logged(seed)
        game = new_game(program, players, dict(seats or {}), seed=seed)
        result = game.run()
        assert _json(log) == _json(game.log), f"seed {seed}"
        assert played.result.to_json() == result.to_json(), f"seed {seed}"
        assert (played.fired, played.chosen) == (game.fired, game.chosen), f"seed {seed}"
        stopped += result.error is not None
    return stopped


def _shipped() -> list:
    """Every shipped ruleset and each of its variants."""
    out = []
    for path in RULESETS:
        variants = load(str(path)).program.data.get("variants") or {}
        out += [(path.stem, v) for v in [None, *variants]]
    return out


@pytest.mark.parametrize("name,variant", _shipped())
def test_every_shipped_ruleset_and_variant_logs_as_the_interpreter(name, variant):
    # Rolls (in the open and in hidden cups), blind draws, moves, deals and shuffles with
    # their private groups, decisions with labels and lone options, races, sealed bids and
    # their reveal, timers, hazards, transfers, eliminations, checks and narration.
    seeds = range(5) if name == "dark_water_salvage" else range(40)  # its interpreter is slow
    _same_logs(str(ROOT / "rulesets" / f"{name}.yaml"), seeds, variant)


def test_pig_logs_with_a_random_seat_and_parameters_equal_the_interpreters():
    _same_logs(PIG, range(100), sets={"goal": "30", "hold_at": "5"}, seats={2: "random"})


@pytest.mark.parametrize("sets,players,seats", [
    (None, None, {1: "counting", 2: "reckless", 3: "random_tens"}),
    ({"tie": "sudden_death"}, 2, None),
    ({"double_double": "cancel", "laugh_hazard": "0.2"}, None, None),  # many hazards
])
def test_wreckdivers_logs_with_other_seats_and_settings_equal_the_interpreters(sets, players,
                                                                               seats):
    _same_logs(WRECK, range(120), None, sets, players, seats)


def _changed_pig(tmp_path, old: str, new: str, path=ROOT / "rulesets" / "pig.yaml") -> str:
    """Pig (or the ruleset at `path`) with `old` replaced by `new`."""
    text = path.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "short.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def test_a_set_of_a_field_of_none_is_logged_by_the_generated_code_to_its_error(tmp_path):
    # After each hold the current player's score is set again through a comprehension that,
    # from the ninth round, finds nobody; shorter games end first.
    old = '        - say: "{current.name} holds: {current.score} points"\n'
    path = _changed_pig(tmp_path, old, old + '        - set: {"first([p for p in players if p == '
                                             'current and round < 9]).score": current.score}\n')
    assert 0 < _same_logs(path, range(20)) < 20


def test_a_division_by_zero_is_logged_by_the_generated_code_to_its_error(tmp_path):
    # A remainder by zero in the fourth round: the logged game stops there by itself.
    path = _changed_pig(tmp_path, "add: {current.score: turn_total}",
                        'add: {current.score: "turn_total + 12 % (round - 4)"}')
    assert _same_logs(path, range(20)) > 0


@pytest.mark.parametrize("limit", ["max_turns: 5", "max_steps: 60"])
def test_a_game_stopped_on_its_budget_is_logged_by_the_generated_code_to_its_error(
        tmp_path, limit):
    # Every game stops (on its turns or steps), each logged to its error by the generated
    # code as by the interpreter, none played again.
    path = _changed_pig(tmp_path, "max_turns: 10000", limit)
    assert _same_logs(path, range(20)) == 20


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets(), st.sampled_from([None, {1: "random"}]),
       st.sampled_from(["{current.name} has {current.score} ({pot}, {doubles(b)})",
                        "{b} and {a.face}: {run * 2}"]))
def test_small_written_rulesets_log_as_the_interpreter(tmp_path_factory, data, seats, said):
    # Checks, triggers fired by `emit` and by rolls, procedures, decisions and a line of
    # narration with holes of every kind the rulesets hold, logged as the interpreter does.
    data["flow"]["phases"]["play"]["do"].append({"say": said})
    path = tmp_path_factory.mktemp("logs") / "game.yaml"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    _same_logs(str(path), range(8), seats=seats)


TRANSFERS = """\
meeple: 1
metadata: {name: Tolls}
players: {min: 2, max: 4, default: 3}
components:
  dice:
    d: {sides: 6}
state:
  global:
    last_payer: {type: player}
  player:
    coins: {type: int, initial: 5}
checks:
  broke:
    for_each: player
    when: "player.coins <= 0 and not player.eliminated"
    do:
      - eliminate: player
        because: "{player.name} has {player.coins} coins"
flow:
  phases:
    play:
      turns: {order: clockwise}
      repeat: {until: "count([p for p in players if not p.eliminated]) <= 1", max: 200}
      do:
        - roll: d
        - actions: spend
          points: 3
          options:
            toll: {cost: 2, do: [{transfer: "d.face", of: coins, from: current, to: "'bank'"}]}
            gift: {do: [{transfer: 2, of: coins, from: current, to: "next_player(current)"}]}
        - choose: guess
          options: [high, low]
          sealed: true
        - say: "{current.name} follows {last_payer}"
        - set: {last_payer: current}
        - if: "d.face == 6"
          then: [{transfer: 3, of: coins, from: "'bank'", to: current}]
      next: end
scoring: {score: player.coins}
policies:
  payer:
    default: true
    decide:
      spend:
        - when: "d.face >= 3"
          choose: toll
        - random: true
"""


def test_transfers_eliminations_checks_and_actions_log_as_the_interpreter(tmp_path):
    # A transfer with what moved, a check per player, an elimination with its reason (worked
    # out after the player is out), `actions` with its labelled pass, a sealed choice, and a
    # player that may be none in a line of narration.
    path = tmp_path / "tolls.yaml"
    path.write_text(TRANSFERS, encoding="utf-8")
    _same_logs(str(path), range(60))


@pytest.mark.parametrize("hole", ["{faces(p.cup)}", "{text(faces(p.cup))}"])
def test_a_list_holding_none_is_narrated_as_the_interpreter_narrates_it(tmp_path, hole):
    # Liar's Dice telling each cup's faces as it is filled, before any roll: every face is
    # none, which the language writes `none` (Python's repr would say None).
    old = ("            - draw: box\n              count: dice_each\n              as: taken\n"
           "              to: p.cup\n")
    path = _changed_pig(tmp_path, old, f'{old}            - say: "{hole}"\n',
                        ROOT / "rulesets" / "liars_dice.yaml")
    _same_logs(path, range(3))
