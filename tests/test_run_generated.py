"""`meeple run` plays a game of bots on seeded dice on the generated code.

Issue 15's promise: `meeple run` gets the one fast path too, and says and writes exactly what
the reference interpreter's game says and writes: the same narration line for line, the same
log byte for byte, the same result and exit code. A game the generated code hands back is
taken on by the interpreter, which replays what was played silently: the output shows the
game once.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from interpreter.cli import run as run_module
from interpreter.cli.main import main
from interpreter.cli.run_generated import HANDED_NOTE, play_generated
from interpreter.engine.game import Game
from interpreter.engine.results import Result
from tests.conftest import ROOT, RULESETS

run_game = Game.run  # the interpreter's own, kept before a test counts its games


def _run(args: list[str], monkeypatch, generated: bool, typed: str | None = None
         ) -> tuple[str, int, int, int]:
    """The output and exit code of `meeple run ARGS` (`typed`: what people type), how many
    games the generated code played to their end (with `generated` False it is kept out, so
    the interpreter plays) and how many the interpreter played (from the start or taking a
    game on)."""
    played, interpreted = [], []

    def spy(special, game, *more):
        result = play_generated(special, game, *more)  # HandBack: the interpreter takes it on
        played.append(isinstance(result, Result))
        return result

    def counted(game):
        interpreted.append(game)
        return run_game(game)

    with monkeypatch.context() as patch:
        patch.setattr(run_module, "play_generated", spy)
        patch.setattr(Game, "run", counted)
        if not generated:
            patch.setattr(run_module._Session, "generated", lambda self: None)
        out = CliRunner().invoke(main, ["run", *args], input=typed)
    return out.output, out.exit_code, sum(played), len(interpreted)


def _logged_both(args: list[str], tmp_path, monkeypatch) -> tuple[tuple, tuple, list]:
    """`meeple run ARGS` on the generated code and on the interpreter, each logged: both
    `_run` results and the two logs."""
    logs = [tmp_path / "g.jsonl", tmp_path / "i.jsonl"]
    got, want = (_run([*args, "--log", str(log)], monkeypatch, generated)
                 for log, generated in zip(logs, (True, False), strict=True))
    return got, want, logs


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_bot_game_runs_on_the_generated_code_as_the_interpreter_plays_it(path, tmp_path,
                                                                          monkeypatch):
    for seed in ("1", "7"):
        logs = [tmp_path / f"g{seed}.jsonl", tmp_path / f"i{seed}.jsonl"]
        got = _run([str(path), "--seed", seed, "--log", str(logs[0])], monkeypatch, True)
        want = _run([str(path), "--seed", seed, "--log", str(logs[1])], monkeypatch, False)
        assert got[2] == 1 and want[2] == 0  # each path played where it was meant to
        assert got[:2] == want[:2], seed  # narration, result and exit code
        assert logs[0].read_bytes() == logs[1].read_bytes()


def _short_pig(tmp_path, old: str, new: str) -> str:
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "short.yaml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return str(path)


def test_a_set_of_a_field_of_none_stops_the_generated_game_itself_where_the_interpreter_does(
        tmp_path, monkeypatch):
    # After each hold the current player's score is set again through a comprehension that,
    # from the ninth round, finds nobody: the generated code stops the game there with the
    # interpreter's located error, and the interpreter plays nothing.
    old = '        - say: "{current.name} holds: {current.score} points"\n'
    path = _short_pig(tmp_path, old, old + '        - set: {"first([p for p in players if p == '
                                           'current and round < 9]).score": current.score}\n')
    got, want, logs = _logged_both([path, "--seed", "1"], tmp_path, monkeypatch)
    assert (got[2], got[3]) == (1, 0) and got[1] == want[1] == 1
    assert got[0] == want[0] and "'score' of none cannot be set" in got[0]
    assert logs[0].read_bytes() == logs[1].read_bytes()


def test_a_fault_of_the_code_generator_stops_the_game_said_and_nothing_plays_it_on(
        tmp_path, monkeypatch):
    # A helper of the generated code that fails as no rule would (a bug of meeple's own,
    # made here by hand, at Pig's first bank): `meeple run` says so and stops (exit 1);
    # nothing plays the game on, and the log keeps it up to there.
    from interpreter.compile import specialize as generator

    def broken(*args):
        raise ZeroDivisionError("a generator bug")
    monkeypatch.setattr(generator, "added", broken)
    log = tmp_path / "g.jsonl"
    out, code, played, interpreted = _run([str(ROOT / "rulesets" / "pig.yaml"), "--seed", "1",
                                           "--log", str(log)], monkeypatch, True)
    assert (code, played, interpreted) == (1, 0, 0)
    assert ("error: meeple's code generator failed on this game (the generated code met a "
            "rule error it does not locate (ZeroDivisionError: a generator bug)). This is a "
            "bug in meeple, not in your ruleset") in out and "[internal-error]" in out
    records = [json.loads(line) for line in log.read_text().splitlines()[1:]]
    assert records and records[-1]["t"] != "end" and any(r["t"] == "roll" for r in records)


def test_a_division_by_zero_stops_the_generated_game_itself_where_the_interpreter_does(
        tmp_path, monkeypatch):
    # A remainder by zero in the fourth round: the generated code stops the game there with
    # the interpreter's located error (the expression's place, the node's offsets), and
    # the interpreter plays nothing.
    path = _short_pig(tmp_path, "add: {current.score: turn_total}",
                      'add: {current.score: "turn_total + 12 % (round - 4)"}')
    got, want, logs = _logged_both([path, "--seed", "3"], tmp_path, monkeypatch)
    assert (got[2], got[3]) == (1, 0) and got[1] == want[1] == 1
    assert got[0] == want[0] and "modulo by zero" in got[0]
    assert logs[0].read_bytes() == logs[1].read_bytes()


@pytest.mark.parametrize("limit", ["max_turns: 5", "max_steps: 100"])
def test_a_budget_stops_the_generated_game_itself_where_the_interpreter_does(
        tmp_path, monkeypatch, limit):
    # Five turns or 100 steps at most: the generated code stops the game where the
    # interpreter does, with its located error, and the interpreter plays nothing (it
    # replayed the game before; past 100 steps the generated code had shown moves the
    # interpreter's game never made, and said the two disagree).
    path = _short_pig(tmp_path, "max_turns: 10000", limit)
    got, want, logs = _logged_both([path, "--seed", "3"], tmp_path, monkeypatch)
    assert (got[2], got[3]) == (1, 0) and got[1] == want[1] == 1
    assert got[0] == want[0] and f"limits.{limit.split(':')[0]}" in got[0]
    assert logs[0].read_bytes() == logs[1].read_bytes()


@pytest.mark.parametrize("game,extra", [
    ("pig", ["--seat", "2=random"]), ("wreckdivers", ["--players", "4"]),
    ("pig", ["--set", "goal=30"]), ("wreckdivers", ["--variant", "hidden_timer"])])
def test_seats_players_settings_and_variants_take_the_generated_code_too(game, extra,
                                                                          monkeypatch):
    path = str(ROOT / "rulesets" / f"{game}.yaml")
    got = _run([path, "--seed", "4", *extra], monkeypatch, True)
    want = _run([path, "--seed", "4", *extra], monkeypatch, False)
    assert got[2] == 1 and got[:2] == want[:2]


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_json_gives_the_interpreters_result_final_table_and_position(path, monkeypatch):
    # --json's "view" and "position" read the whole state at the end: the Game is shown all
    # of it (players, teams, decisions, races, timers, who is out, what left play).
    for seed in ("2", "9"):
        got = _run([str(path), "--seed", seed, "--json"], monkeypatch, True)
        want = _run([str(path), "--seed", seed, "--json"], monkeypatch, False)
        assert got[2] == 1 and want[2] == 0
        assert json.loads(got[0]) == json.loads(want[0]), seed


def test_a_stop_the_generated_code_does_not_locate_is_reported_not_hidden(monkeypatch):
    # The generated code stops a game at a place it does not know: that is meeple's fault,
    # said (exit 1), and no other engine plays the game on in its place.
    from interpreter.compile.base import Stop

    real = run_module.specialize

    def stopping(*a, **k):
        special = real(*a, **k)

        def stops(*args):
            raise Stop()
        special.play_raw = stops
        return special

    monkeypatch.setattr(run_module, "specialize", stopping)
    out = CliRunner().invoke(main, ["run", str(ROOT / "rulesets" / "pig.yaml"), "--seed", "2"])
    assert out.exit_code == 1 and "Winner" not in out.output
    assert ("error: meeple's code generator failed on this game (the generated code met a "
            "rule error it does not locate (a stop at a place it does not know))") in out.output


def _decisions_file(tmp_path, entries: list) -> str:
    path = tmp_path / "decisions.json"
    path.write_text(json.dumps(entries), encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_a_decisions_file_is_taken_first_on_the_generated_code_as_by_the_interpreter(
        path, tmp_path, monkeypatch):
    # The bots' own answers of another game, by id: every kind of decision (names, players,
    # dice, cells, numbers, actions, several deciders) matched by its key, until the file
    # runs out or no longer fits (a located bad-input error, on both paths alike).
    log = tmp_path / "first.jsonl"
    _run([str(path), "--seed", "3", "--log", str(log)], monkeypatch, True)
    answers = [{"id": r["id"], "choice": r["choice"]}
               for r in map(json.loads, log.read_text().splitlines()[1:])
               if r["t"] == "decision" and not r.get("only")][:40]
    script = _decisions_file(tmp_path, answers)
    got = _run([str(path), "--seed", "8", "--decisions", script], monkeypatch, True)
    want = _run([str(path), "--seed", "8", "--decisions", script], monkeypatch, False)
    assert got[:2] == want[:2]
    # played to its end on the generated code (or stopped by the script there, the
    # interpreter's located error): the interpreter plays nothing
    assert (got[2], got[3]) == (1, 0)


@pytest.mark.parametrize("game,entries", [
    ("pig", ["hold", "hold", "roll", {"id": "roll_or_hold", "choice": "hold"}, "hold"]),
    ("wreckdivers", [{"id": "tens_colour", "choice": "red"}, "roll", "roll", "ascend",
                     "white", "ascend"]),
])
def test_scripted_answers_change_the_game_alike_on_both_paths(game, entries, tmp_path,
                                                               monkeypatch):
    path = str(ROOT / "rulesets" / f"{game}.yaml")
    script = _decisions_file(tmp_path, entries)
    plain = _run([path, "--seed", "5"], monkeypatch, True)
    got = _run([path, "--seed", "5", "--decisions", script], monkeypatch, True)
    want = _run([path, "--seed", "5", "--decisions", script], monkeypatch, False)
    assert got[2] == 1 and got[:2] == want[:2]
    assert got[0] != plain[0]  # the script took decisions the bots would not have


@pytest.mark.parametrize("game,entries", [
    # The moments a live game's log gives its answers (asked, at) and its timeouts, in a
    # game of bots on the modelled clock: the clock stands at each, the timers polled after
    # a timeout, as GameAsking._decide does (a dive's timer runs out, or not, by them).
    ("pig", [{"id": "roll_or_hold", "choice": "roll", "asked": 2, "at": 3}, {"timeout": 9},
             {"choice": "hold", "at": 12.5}, {"choice": "roll", "asked": 20}]),
    ("wreckdivers", [{"id": "tens_colour", "choice": "red", "asked": 1, "at": 2},
                     {"timeout": 5}, {"choice": "roll", "asked": 6, "at": 7}, "roll",
                     {"timeout": 70}, {"choice": "white", "asked": 71, "at": 72}]),
])
def test_a_decisions_files_moments_set_the_modelled_clock_alike_on_both_paths(
        game, entries, tmp_path, monkeypatch):
    path = str(ROOT / "rulesets" / f"{game}.yaml")
    script = _decisions_file(tmp_path, entries)
    got, want, logs = _logged_both([path, "--seed", "5", "--decisions", script], tmp_path,
                                   monkeypatch)
    assert (got[2], got[3]) == (1, 0) and got[:2] == want[:2]
    assert logs[0].read_bytes() == logs[1].read_bytes()
    assert '"t": "timeout"' in logs[0].read_text()
    if game == "wreckdivers":  # the dive's timer ran out at the timeout, not by the dice
        assert "Time is up: Dive time left!" in got[0]
    else:  # the game took the time its last answer was asked at
        assert ", 20 s of play" in got[0]


@pytest.mark.parametrize("game,entries,said", [
    ("pig", ["roll", "sideways"],                                  # not legal: an error
     "the decision script answers 'sideways' to 'roll_or_hold' (Player 1), which is not "
     "legal now; legal: roll, hold"),
    ("pig", ["roll", {"raise": "cheer"}],                          # no event people raise
     "the decision script raises 'cheer', which people cannot raise; this game has no such "
     "event"),
    ("pig", [{"race": "grab", "claims": {}}],                      # no race here
     "the decision script gives no choice for 'roll_or_hold' (Player 1); legal: roll, hold"),
    ("pig", [{"id": "roll_or_hold", "choice": True}],              # as the file writes it
     "the decision script answers true to 'roll_or_hold' (Player 1), which is not legal "
     "now; legal: roll, hold"),
    ("pig", [{"id": "bid", "choice": 3}],                          # another decision
     "the decision script expected 'bid' but the game asks 'roll_or_hold' of Player 1"),
    ("wreckdivers", [{"id": "tens_colour", "choice": "green"}],    # not one of the colours
     "the decision script answers 'green' to 'tens_colour' (Player 1), which is not legal "
     "now; legal: white, red"),
])
def test_a_script_the_rules_cannot_take_stops_the_generated_game_where_the_interpreter_does(
        game, entries, said, tmp_path, monkeypatch):
    # The interpreter's located bad-input error, in its words, by the generated code itself:
    # the interpreter plays nothing.
    path = str(ROOT / "rulesets" / f"{game}.yaml")
    script = _decisions_file(tmp_path, entries)
    got, want, logs = _logged_both([path, "--seed", "5", "--decisions", script], tmp_path,
                                   monkeypatch)
    assert (got[2], got[3]) == (1, 0) and got[:2] == want[:2] and got[1] == 1
    assert f"{said} [bad-input]" in got[0]
    assert logs[0].read_bytes() == logs[1].read_bytes()


def _first_race(entries: list) -> dict:
    return next(e for e in entries if "race" in e)


def _fewer(entries: list) -> None:
    race = _first_race(entries)  # each hand keeps its first sailor only, sooner
    race["claims"] = {who: got[:1] for who, got in race["claims"].items()}
    race["seconds"], race["uniforms"] = 1.5, 0


def _missed(entries: list) -> None:
    race = _first_race(entries)  # a hand reached for a sailor another hand took first
    race["missed"] = {"Player 2": [race["claims"]["Player 1"][0]]}


def _unknown(entries: list) -> None:
    _first_race(entries)["claims"]["Player 1"].append("white_sailors[99]")


def _twice(entries: list) -> None:
    claims = _first_race(entries)["claims"]
    claims["Player 2"].append(claims["Player 1"][0])  # claimed by an earlier hand


def _named_twice(entries: list) -> None:
    claims = _first_race(entries)["claims"]
    claims["Player 1"].append(claims["Player 1"][0])  # the same sailor twice in one report


def _raised_by_a_stranger(entries: list) -> None:  # someone who does not play this game
    entries.insert(entries.index(_first_race(entries)), {"raise": "dice_knocked",
                                                         "by": "Player 9"})


def _another_race(entries: list) -> None:
    _first_race(entries)["race"] = "scramble"


def _raised_first(entries: list) -> None:  # the referee's event during the race
    entries.insert(entries.index(_first_race(entries)), {"raise": "dice_knocked",
                                                         "by": "table"})


@pytest.mark.parametrize("edit,taken", [
    (None, True), (_fewer, True), (_missed, True), (_unknown, False), (_twice, False),
    (_named_twice, False), (_another_race, False), (_raised_first, True),
    (_raised_by_a_stranger, False)], ids=lambda x: getattr(x, "__name__", str(x)))
def test_a_scripted_race_is_taken_on_the_generated_code_as_by_the_interpreter(
        edit, taken, tmp_path, monkeypatch):
    # A decisions file with races (a log's claims, seconds and model draws; what a hand
    # missed): the generated code takes each race as race._scripted does, and where the
    # claims are not possible the interpreter's located error stops the game on both paths.
    path = str(ROOT / "rulesets" / "shipwrecked.yaml")
    log = tmp_path / "first.jsonl"
    _run([path, "--seed", "3", "--log", str(log)], monkeypatch, True)
    entries = [{"id": r["id"], "choice": r["choice"]} if r["t"] == "decision" else
               {k: r[k] for k in ("claims", "seconds", "uniforms") if k in r} | {"race": r["id"]}
               for r in map(json.loads, log.read_text().splitlines()[1:])
               if r["t"] == "race" or (r["t"] == "decision" and not r.get("only"))]
    if edit is not None:
        edit(entries)
    script = _decisions_file(tmp_path, entries)
    got, want, logs = _logged_both([path, "--seed", "3", "--decisions", script], tmp_path,
                                   monkeypatch)
    assert (got[2], got[3]) == (1, 0) and got[:2] == want[:2]  # the interpreter plays nothing
    assert logs[0].read_bytes() == logs[1].read_bytes()
    if edit is None:  # the game of the log again
        assert [json.loads(x) for x in logs[0].read_text().splitlines()[1:]] == [
            json.loads(x) for x in log.read_text().splitlines()[1:]]
    assert ("[bad-input]" in got[0]) == (not taken)
    if edit is _raised_first:
        assert '"t": "raised", "event": "dice_knocked", "by": "table"' in logs[0].read_text()
    if edit is _missed:
        assert '"missed": {"Player 2"' in logs[0].read_text()


@pytest.mark.parametrize("counts,works", [
    ({"white": {"own": 0, "other": 0}, "black": {}}, True),  # nobody grabbed anything
    ({"white": {"own": 1}, "black": {"other": 1}}, None),    # as the dice allow, or not
    ({"white": {"own": 40}}, False),                         # more than there are
    ({"red": {"own": 1}}, False),                            # no such reporter
    ({"white": {"all": 1}}, False),                          # no such kind
])
def test_a_races_scripted_counts_are_taken_on_the_generated_code(counts, works, tmp_path,
                                                                 monkeypatch):
    # A decisions file (or a counting table's log) may give a race by counts per reporter
    # (counted.scripted): the sailors each count takes, by the kinds' rules, on both paths
    # alike; counts that are not possible are the located bad-input error.
    path = str(ROOT / "rulesets" / "shipwrecked.yaml")
    first = tmp_path / "first.jsonl"
    _run([path, "--seed", "4", "--log", str(first)], monkeypatch, True)
    records = [json.loads(line) for line in first.read_text().splitlines()[1:]]
    upto = next(i for i, r in enumerate(records) if r["t"] == "race")
    entries = [{"id": r["id"], "choice": r["choice"]} for r in records[:upto]
               if r["t"] == "decision" and not r.get("only")]  # the same game to its grab
    script = _decisions_file(tmp_path, [*entries, {"race": "grab", "counts": counts,
                                                   "seconds": 2.5}])
    got, want, logs = _logged_both([path, "--seed", "4", "--decisions", script], tmp_path,
                                   monkeypatch)
    assert got[:2] == want[:2] and logs[0].read_bytes() == logs[1].read_bytes()
    assert (got[2], got[3]) == (1, 0)  # stopped or not, the interpreter plays nothing
    if works is not None:
        assert (got[1] == 0) == works
    if got[1] == 0:
        assert '"counts": {"white": ' in logs[0].read_text()
    else:
        assert "[bad-input]" in got[0] and "counts" in got[0]


def test_a_races_counts_per_that_gives_nobody_stops_the_game_on_the_generated_code(
        tmp_path, monkeypatch):
    # Shipwrecked! whose grab is counted per racer's partner of a lower seat (nobody, for the
    # first seat), given by a decisions file's counts: the reporters are worked out there and
    # the first has none, the interpreter's located error, by the generated code itself.
    text = (ROOT / "rulesets" / "shipwrecked.yaml").read_text(encoding="utf-8")
    old = "          counts_per: racer.team\n"
    assert old in text
    path = tmp_path / "shipwrecked.yaml"
    path.write_text(text.replace(old, '          counts_per: "first([p for p in players if '
                                      'p.seat < racer.seat])"\n'), encoding="utf-8")
    first = tmp_path / "first.jsonl"
    _run([str(path), "--seed", "4", "--log", str(first)], monkeypatch, True)
    records = [json.loads(line) for line in first.read_text().splitlines()[1:]]
    upto = next(i for i, r in enumerate(records) if r["t"] == "race")
    entries = [{"id": r["id"], "choice": r["choice"]} for r in records[:upto]
               if r["t"] == "decision" and not r.get("only")]
    script = _decisions_file(tmp_path, [*entries, {"race": "grab", "counts": {}}])
    got, want, logs = _logged_both([str(path), "--seed", "4", "--decisions", script],
                                   tmp_path, monkeypatch)
    assert got[:2] == want[:2] and logs[0].read_bytes() == logs[1].read_bytes()
    assert "a race's counts_per must give a player or a team, not none" in got[0]
    assert (got[2], got[3]) == (1, 0)  # no game went to the interpreter


SALVAGE_DICE = """\
shuffles:
  - [Kestrel, Amber Gull]
  - {zone: location_pile, order: ["locations[20]", "locations[3]"]}
  - {zone: value_pile, order: [V12]}
draws:
  - [turn_order_cards=2]
  - [turn_order_cards=1]
  - {zone: bag, items: [chips=10, chips=10, chips=10]}
"""


@pytest.mark.parametrize("game,extra,dice,generated", [
    # Faces for a whole game, then faces that run out mid-game, then a face the die does not
    # have: the game stops there, saying so.
    ("pig", [], json.dumps([(i * 7) % 6 + 1 for i in range(3000)]), 1),
    ("pig", [], json.dumps([6, 5, 4, 3]), 0),
    ("pig", [], json.dumps([6, 5, 4, 7]), 0),
    # Shuffles and blind draws named by piece, face and zone (docs/running.md's example).
    ("dark_water_salvage", ["--players", "2"], SALVAGE_DICE, 1),
    # Races: with a dice file the model's random numbers are the script's (none: 0.5).
    ("shipwrecked", [], json.dumps([
        r.randint(1, 6) for r in [random.Random(7)] for _ in range(20000)]), 1),
])
def test_a_dice_file_is_asked_by_the_generated_code_as_by_the_interpreter(
        game, extra, dice, generated, tmp_path, monkeypatch):
    path = tmp_path / "game.dice.yaml"
    path.write_text(dice, encoding="utf-8")
    ruleset = str(ROOT / "rulesets" / f"{game}.yaml")
    got, want, logs = _logged_both([ruleset, "--seed", "2", "--dice", str(path), *extra],
                                   tmp_path, monkeypatch)
    assert got[2] == generated and got[:2] == want[:2]
    assert got[3] == 0  # a file that runs out or does not fit stops the game there, as it is
    assert logs[0].read_bytes() == logs[1].read_bytes()


def _replay(log, monkeypatch, generated: bool) -> tuple[str, int, int]:
    """The output and exit code of `meeple replay LOG`, and how many games the interpreter
    played (with `generated` False the generated code is kept out)."""
    from interpreter.cli import replay as replay_module
    interpreted = []

    def counted(game):
        interpreted.append(game)
        return run_game(game)

    with monkeypatch.context() as patch:
        patch.setattr(Game, "run", counted)
        if not generated:
            patch.setattr(replay_module, "specialize", lambda *a, **k: None)
        out = CliRunner().invoke(main, ["replay", str(log)])
    return out.output, out.exit_code, len(interpreted)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_replay_plays_the_log_on_the_generated_code_as_the_interpreter_does(path, tmp_path,
                                                                            monkeypatch):
    # Every die and decision from the log, nobody asked: the same narration and result, the
    # log matched event for event, races included.
    log = tmp_path / "game.jsonl"
    _run([str(path), "--seed", "6", "--log", str(log)], monkeypatch, True)
    got, want = _replay(log, monkeypatch, True), _replay(log, monkeypatch, False)
    assert got[:2] == want[:2] and got[1] == 0
    assert "(the replay matches the log, event for event)" in got[0]
    assert (got[2], want[2]) == (0, 1)


def test_replay_of_a_log_cut_short_or_edited_says_where_on_the_generated_code(tmp_path,
                                                                             monkeypatch):
    log = tmp_path / "game.jsonl"
    _run([str(ROOT / "rulesets" / "pig.yaml"), "--seed", "6", "--log", str(log)], monkeypatch,
         True)
    lines = log.read_text().splitlines()
    cut, edited = tmp_path / "cut.jsonl", tmp_path / "edited.jsonl"
    cut.write_text("\n".join(lines[:40]) + "\n")
    records = [json.loads(line) for line in lines]
    roll = [r for r in records if r["t"] == "roll"][3]
    roll["faces"] = [roll["faces"][0] % 6 + 1]  # another face: the game goes another way
    edited.write_text("".join(json.dumps(r) + "\n" for r in records))
    for bad, says in ((cut, "the log ends before the game does"),
                      (edited, "the replay differs from the log at event")):
        got, want = _replay(bad, monkeypatch, True), _replay(bad, monkeypatch, False)
        assert got[:2] == want[:2] and got[1] == 1 and says in got[0]


def test_a_game_past_the_fast_codes_range_goes_on_in_its_checked_version_said_once(
        tmp_path, monkeypatch):
    # Turn totals past ±2**40 after a roll or two: the generated code's checked version plays
    # the game on from where the fast version left it (never the interpreter), the same game,
    # and the player is told once (stderr).
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    add = "- add: {turn_total: die.face}"
    assert text.count(add) == 1
    path = tmp_path / "huge.yaml"
    path.write_text(text.replace(add, '- add: {turn_total: "die.face * 1000000000000"}'),
                    encoding="utf-8")
    got, want, logs = _logged_both([str(path), "--seed", "3"], tmp_path, monkeypatch)
    assert got[1] == want[1] == 0 and got[2] == 1 and got[3] == 0
    note = "its checked version (every +, - and * tested) plays it on from here"
    assert got[0].count(note) == 1 and note not in want[0]
    assert got[0].replace(HANDED_NOTE + "\n", "") == want[0]
    assert logs[0].read_bytes() == logs[1].read_bytes()
    # Its replay goes the same way, said the same.
    again, kept = _replay(logs[0], monkeypatch, True), _replay(logs[0], monkeypatch, False)
    assert again[1] == kept[1] == 0 and again[2] == 0
    assert again[0].count(note) == 1 and again[0].replace(HANDED_NOTE + "\n", "") == kept[0]
