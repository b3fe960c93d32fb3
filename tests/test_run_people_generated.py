"""`meeple run` with people at the terminal, and at the referee's table, plays on the generated
code (issue 15).

A person's decisions go through the same door as a bot's (the seat's controller, asked with
the interpreter's Request: the prompt, the options and their labels, the person's view), the
answer is matched as a decisions file's answer is, and the game says and logs exactly what
the reference interpreter's game does: the same narration, prompts and views line for line,
the same records (a live game's records carry real moments, `asked` and `at`, which differ
between any two runs), the same result. Undo, `?` and resuming a game cut off rebuild it on
the generated code too. Where the generated code cannot follow (a person raises an event),
the interpreter takes the game on, replaying what was played without showing it again.

At the referee's table (`--dice table`) the dice faces and blind draws typed in come through
the game's chance source, asked with the game as it stands (who may see a roll, what may be
raised); an event raised at the dice prompt hands the game to the interpreter the same way.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from interpreter.cli import run as run_module
from interpreter.engine import clock as clock_module
from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load
from tests.conftest import ROOT
from tests.test_run_generated import _replay, _run

# The shipped rulesets whose games with people are generated on any clock (Wreckdivers' timer
# and Shipwrecked's races are tested on a clock that moves as people think too).
LIVE = ["pig", "liars_dice", "dice_survivor", "dice_bag_dungeon", "dark_water_salvage", "shipwrecked"]


def _answers(seed: int, lines: int = 3000) -> str:
    """What a person types: option numbers, now and then `?` (the whole view) or `undo`."""
    r = random.Random(seed)
    out = []
    for _ in range(lines):
        x = r.random()
        out.append("undo" if x < 0.03 else "?" if x < 0.05 else str(r.randint(1, 3)))
    return "\n".join(out) + "\n"


def _records(path) -> list[dict]:
    """A log's records without the moments of live decisions (real time differs per run)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        rec.pop("asked", None)
        rec.pop("at", None)
        rec.pop("ruleset_abs", None)
        out.append(rec)
    return out


def _said(output: str, *logs) -> str:
    """Narration without what real time changes: the seconds a game took, and a log's name."""
    for log in logs:
        output = output.replace(str(log), "LOG")
    return re.sub(r", [0-9.]+ s of play$", "", output, flags=re.M)


def _both(args: list[str], monkeypatch, tmp_path, typed: str, name: str = "g"):
    logs = [tmp_path / f"{name}-generated.jsonl", tmp_path / f"{name}-interpreted.jsonl"]
    got = _run([*args, "--log", str(logs[0]), "--force"], monkeypatch, True, typed)
    want = _run([*args, "--log", str(logs[1]), "--force"], monkeypatch, False, typed)
    return got, want, logs


@pytest.mark.parametrize("game", LIVE)
def test_a_persons_game_on_the_generated_code_is_the_interpreters_game(game, tmp_path,
                                                                      monkeypatch):
    path = str(ROOT / "rulesets" / f"{game}.yaml")
    players = load(path).program.data["players"]
    last = players.get("default", players["min"])  # the last seat of a default game
    for seed, seat in ((1, 1), (2, last)):
        got, want, logs = _both([path, "--seed", str(seed), "--seat", f"{seat}=human"],
                                monkeypatch, tmp_path, _answers(seed))
        assert (got[1], got[2], want[2]) == (0, 1, 0)  # each path played where it was meant to
        assert _said(got[0]) == _said(want[0])  # narration, prompts, options, views, result
        assert _records(logs[0]) == _records(logs[1])
        asked = [json.loads(line) for line in logs[0].read_text().splitlines()[1:]]
        asked = [r for r in asked if r["t"] == "decision" and not r.get("only")]
        assert asked and all(0 <= r["asked"] <= r["at"] for r in asked)  # real moments


def test_undo_and_the_whole_view_at_a_persons_decision_on_the_generated_code(tmp_path,
                                                                            monkeypatch):
    pig = str(ROOT / "rulesets" / "pig.yaml")
    typed = "roll\n?\nroll\nundo\nhold\n" + "roll\nhold\n" * 200
    got, want, logs = _both([pig, "--seed", "3", "--seat", "1=human"], monkeypatch, tmp_path,
                            typed)
    assert got[2] == 1 and _said(got[0]) == _said(want[0])
    assert "(undone: Player 1's choice for roll or hold: Roll)" in got[0]
    assert _records(logs[0]) == _records(logs[1])


@pytest.mark.parametrize("game", ["pig", "dark_water_salvage"])
def test_a_game_cut_off_resumes_on_the_generated_code_as_on_the_interpreter(
        game, tmp_path, monkeypatch):
    path = str(ROOT / "rulesets" / f"{game}.yaml")
    first = "\n".join(_answers(4).splitlines()[:6]) + "\n"
    got, want, logs = _both([path, "--seed", "4", "--seat", "1=human"], monkeypatch, tmp_path,
                            first)
    assert got[1] == want[1] == 1 and "the input ended" in got[0]
    assert got[2] == 0  # cut off: not played to its end
    resumed = [_run(["--resume", str(log)], monkeypatch, generated, _answers(5))
               for log, generated in zip(logs, (True, False), strict=True)]
    assert resumed[0][2] == 1 and resumed[1][2] == 0
    assert resumed[0][1] == resumed[1][1] == 0
    assert _said(resumed[0][0], logs[0]) == _said(resumed[1][0], logs[1])
    assert "logged events replayed; the game goes on" in resumed[0][0]
    assert _records(logs[0]) == _records(logs[1])


EVENT = """
events:
  tip_over:
    doc: Someone knocks the table; the turn total is lost.
    raised_by: any
"""

TIP = """
  tipped:
    doc: A knocked table loses the turn total.
    on: tip_over
    do:
      - say: "The table tips over: {turn_total} points lost"
      - set: {turn_total: 0}
"""


def _tipping(tmp_path) -> str:
    """Pig with an event anyone may raise (the table tips over: the turn total is lost), and
    keeping the turn total in mind left to the person (`skill`: their view hides it)."""
    text = (ROOT / "rulesets" / "pig.yaml").read_text(encoding="utf-8")
    assert "\ntriggers:" not in text
    choose = "            - choose: roll_or_hold\n"
    assert choose in text
    text = text.replace(choose, choose + "              skill: memory\n"
                        "              hides: [turn_total]\n")
    text = text.replace("\nflow:\n", EVENT + "\nflow:\n", 1) + "\ntriggers:" + TIP
    path = tmp_path / "tipping.yaml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_an_event_a_person_raises_is_raised_on_the_generated_code(tmp_path, monkeypatch):
    # `!NAME` at a person's decision: the event is logged and its triggers run, then the same
    # question is asked again, as the interpreter does.
    path = _tipping(tmp_path)
    typed = "roll\nroll\n!tip_over\nroll\nhold\n" + "roll\nhold\n" * 200
    got, want, logs = _both([path, "--seed", "3", "--seat", "1=human"], monkeypatch,
                            tmp_path, typed)
    assert (got[2], got[3]) == (1, 0) and got[1] == want[1] == 0
    assert _said(got[0]) == _said(want[0]) and got[0].count("Pig: 2 players") == 1
    assert got[0].count("The table tips over") == 1
    assert _records(logs[0]) == _records(logs[1])


class _Thinking:
    """Real time that moves only while a person thinks, `seconds` per answer (or until the
    next deadline, when that comes first: a timeout, the line kept for the next question),
    and while dice are rolled, `rolling` per roll (a timer then runs out between decisions),
    so that both paths see the same moments."""

    def __init__(self, monkeypatch, seconds: float, rolling: float = 0.0):
        self.now, self.seconds, self.typed = 0.0, seconds, []
        monkeypatch.setattr(clock_module, "time", SimpleNamespace(monotonic=lambda: self.now))
        thinking, roll = self, SeededChance.roll

        def rolled(chance, dice):
            thinking.now += rolling
            return roll(chance, dice)
        monkeypatch.setattr(SeededChance, "roll", rolled)

        class Person(run_module.HumanController):
            def __init__(self, *args, **kwargs):
                super().__init__(thinking.read, *args[1:], **kwargs)
        monkeypatch.setattr(run_module, "HumanController", Person)

    def both(self, args: list[str], monkeypatch, tmp_path, typed: str, name: str = "g"):
        """`_both`, each path from the same moment 0 with nothing typed ahead."""
        logs = [tmp_path / f"{name}-generated.jsonl", tmp_path / f"{name}-interpreted.jsonl"]
        runs = []
        for log, generated in zip(logs, (True, False), strict=True):
            self.now, self.typed = 0.0, []
            runs.append(_run([*args, "--log", str(log), "--force"], monkeypatch, generated,
                             typed))
        return runs[0], runs[1], logs

    def read(self, prompt: str, timeout: float | None) -> str | None:
        if not self.typed:
            self.typed.append(input())
        if timeout is not None and self.seconds >= timeout:
            self.now += max(timeout, 0)
            return None
        self.now += self.seconds
        return self.typed.pop()


def _raw(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]


def test_timers_run_on_real_time_in_a_persons_generated_game(tmp_path, monkeypatch):
    # A dive timer people race against: polled at each decision, run out while a person
    # thinks (a timeout, then asked again), stopped with the time left; a call (`!breathed`)
    # raised at a decision; the same moments, records and narration as the interpreter's.
    thinking = _Thinking(monkeypatch, 7.0, rolling=2.0)
    path = str(ROOT / "rulesets" / "wreckdivers.yaml")
    ran_out = expired = called = 0
    for seed in (1, 3):
        typed = "".join(line + "\n" if i % 15 else "!breathed\n"  # a call now and then
                        for i, line in enumerate(_answers(seed + 10).splitlines(), 1))
        got, want, logs = thinking.both([path, "--seed", str(seed), "--seat", "1=human"],
                                        monkeypatch, tmp_path, typed, f"g{seed}")
        assert (got[1], got[2], got[3]) == (0, 1, 0) and want[3] >= 1  # undo: a new game
        assert got[0] == want[0]
        assert _raw(logs[0]) == _raw(logs[1])  # every moment too: time moved alike
        ran_out += sum(r["t"] == "timeout" for r in _raw(logs[0]))
        expired += sum(r.get("action") == "expired" for r in _raw(logs[0]))
        called += sum(r["t"] == "raised" for r in _raw(logs[0]))
    assert ran_out and expired > ran_out  # a person too slow, and the clock run out between
    assert called  # `!breathed` raised on the generated code


def test_a_timed_game_cut_off_resumes_with_its_timeouts_on_the_generated_code(
        tmp_path, monkeypatch):
    thinking = _Thinking(monkeypatch, 12.0)
    path = str(ROOT / "rulesets" / "wreckdivers.yaml")
    typed = _answers(13).splitlines()
    first = "\n".join([*typed[:4], "!breathed", typed[4]]) + "\n"  # a call in a dive
    got, want, logs = thinking.both([path, "--seed", "3", "--seat", "1=human"], monkeypatch,
                                    tmp_path, first)
    assert got[1] == want[1] == 1 and "the input ended" in got[0]
    assert any(r["t"] == "timeout" for r in _raw(logs[0]))  # replayed from the log below,
    assert any(r["t"] == "raised" for r in _raw(logs[0]))  # with the event raised
    resumed = []
    for log, generated in zip(logs, (True, False), strict=True):
        thinking.now, thinking.typed = 0.0, []
        resumed.append(_run(["--resume", str(log)], monkeypatch, generated, _answers(5)))
    assert (resumed[0][2], resumed[0][3]) == (1, 0) and resumed[1][3] >= 1
    assert _said(resumed[0][0], logs[0]) == _said(resumed[1][0], logs[1])
    assert _raw(logs[0]) == _raw(logs[1])
    # The whole game replayed from its log (moments, timeouts and all), on the generated code.
    replays = [_replay(logs[0], monkeypatch, generated) for generated in (True, False)]
    assert replays[0][:2] == replays[1][:2] and replays[0][1] == 0
    assert (replays[0][2], replays[1][2]) == (0, 1)


def test_a_persons_game_took_real_time_and_says_so_in_its_result(monkeypatch):
    # Live play runs on real time (nothing is modelled): the result's seconds are the
    # clock's, as the interpreter's live game gives them; people's views go to stderr.
    pig = str(ROOT / "rulesets" / "pig.yaml")
    got = _run([pig, "--seed", "3", "--seat", "1=human", "--json"], monkeypatch, True,
               "roll\nhold\n" * 200)
    assert got[2] == 1
    result = json.loads(got[0][got[0].index("{\n"):])
    assert result["seconds"] > 0 and result["winners"]


def _chained(tmp_path) -> str:
    """`_tipping` whose trigger rolls the die again (where the table may call the event once
    more, inside its own rules), with a chain of at most 3 firings."""
    text = Path(_tipping(tmp_path)).read_text(encoding="utf-8")
    assert text.endswith(TIP) and "max_turns: 10000\n" in text
    text += "      - roll: die\n"  # the trigger's last step
    path = tmp_path / "chained.yaml"
    path.write_text(text.replace("max_turns: 10000\n", "max_turns: 10000\n  max_chain_depth: 3\n"),
                    encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("calls", [2, 5])
def test_an_event_called_inside_its_own_rules_is_raised_there_to_the_chain_limit(
        calls, tmp_path, monkeypatch):
    # The table calls the event at the roll its own trigger makes, again and again: each call
    # is raised where it is made (the event's one function, a level deeper), and a chain past
    # limits.max_chain_depth stops the game with the interpreter's located error, which the
    # generated code gives itself (the interpreter took the game on for it before).
    typed = "3\n" + "!tip_over\n" * calls + "4\n" * 600
    got, want, logs = _both([_chained(tmp_path), "--seed", "3", "--dice", "table:faces"],
                            monkeypatch, tmp_path, typed)
    assert (got[2], got[3]) == (1, 0)
    assert _said(got[0], logs[0]) == _said(want[0], logs[1])
    assert _records(logs[0]) == _records(logs[1])
    assert got[0].count("The table tips over") == min(calls, 3)
    assert got[1] == want[1] == (1 if calls > 3 else 0)
    if calls > 3:  # stopped by the rules, the error located
        assert "triggers fired each other more than 3 deep (on 'tip_over')" in got[0]
        assert "[budget-exceeded]" in got[0]


def test_an_event_scripted_at_a_roll_is_raised_before_that_roll(tmp_path, monkeypatch):
    # A decisions file (or a log) holding an event the table raised at a roll's prompt: it is
    # raised there, before the roll, as the interpreter raises it; not at the next decision.
    # In a game of bots too: the generated code raises them as people's.
    script = tmp_path / "tip.json"
    script.write_text(json.dumps([{"raise": "tip_over", "by": "Player 2", "at_roll": True},
                                  "roll", {"raise": "tip_over", "by": "table"}, "hold"]))
    args = [_tipping(tmp_path), "--seed", "3", "--decisions", str(script)]
    got, want = _run(args, monkeypatch, True), _run(args, monkeypatch, False)
    assert (got[2], got[3]) == (1, 0) and got[:2] == want[:2]
    assert got[0].count("calls tip over") == 2
    narrated = got[0].splitlines()
    assert narrated.index("  ! Player 2 calls tip over") < min(
        i for i, line in enumerate(narrated) if " rolls " in line)


def _typed_at_the_table(seed: int, lines: int = 3000) -> str:
    """What a table types: a face or several, a colour drawn, a chip, now and then `undo` or
    a call (`!tip_over`)."""
    r = random.Random(seed)
    colours = ["red", "green", "blue", "yellow", "purple", "black", "5", "10"]
    out = []
    for _ in range(lines):
        x = r.random()
        out.append("undo" if x < 0.02 else "!tip_over" if x < 0.03 else
                   r.choice(colours) if x < 0.3 else
                   " ".join(str(r.randint(1, 6)) for _ in range(r.choice((1, 1, 2, 4, 5)))))
    return "\n".join(out) + "\n"


TABLE = ["pig", "liars_dice", "dice_survivor", "dice_bag_dungeon", "dark_water_salvage",
         "wreckdivers"]


@pytest.mark.parametrize("game", TABLE)
def test_a_referees_table_on_the_generated_code_is_the_interpreters_game(game, tmp_path,
                                                                        monkeypatch):
    path = str(ROOT / "rulesets" / f"{game}.yaml")
    for mode in ("table", "table:faces"):
        got, want, logs = _both([path, "--seed", "3", "--dice", mode], monkeypatch, tmp_path,
                                _typed_at_the_table(3))
        assert got[3] == 0 and want[3] >= 1  # the interpreter never played the first
        assert _said(got[0], logs[0]) == _said(want[0], logs[1])
        assert _records(logs[0]) == _records(logs[1]) and len(_records(logs[0])) > 5


def test_an_event_raised_at_the_tables_dice_prompt_is_raised_before_the_faces(
        tmp_path, monkeypatch):
    path = _tipping(tmp_path)
    typed = "3\n4\n!tip_over\n5\n" + "4\n" * 400
    got, want, logs = _both([path, "--seed", "3", "--dice", "table"], monkeypatch, tmp_path,
                            typed)
    assert (got[2], got[3]) == (1, 0)  # raised on the generated code, faces asked again
    assert _said(got[0], logs[0]) == _said(want[0], logs[1])
    assert got[0].count("The table tips over: 7 points lost") == 1
    assert _records(logs[0]) == _records(logs[1])


def _counted(seed: int, lines: int = 3000) -> str:
    """What a referee's table that counts types: the captains' faces (the ocean's sailors are
    counted, never typed), each team's counts of called sailors grabbed (`own other`, some
    impossible: refused, asked again), the colour of a sailor drawn blind, a call
    (`!dice_knocked`) or `undo` (inside a race too: the report before is taken back)."""
    r = random.Random(seed)
    out = []
    for _ in range(lines):
        x = r.random()
        out.append("undo" if x < 0.03 else "!dice_knocked" if x < 0.1 else
                   r.choice(["white", "black"]) if x < 0.2 else
                   f"{r.randint(0, 4)} {r.randint(0, 4)}" if x < 0.6 else
                   " ".join(str(r.randint(1, 6)) for _ in range(r.choice((1, 2)))))
    return "\n".join(out) + "\n"


def test_a_race_a_counting_table_reports_is_played_on_the_generated_code(tmp_path,
                                                                         monkeypatch):
    # `--dice table` counts the ocean's sailors rather than typing their faces: a grab is
    # reported by counts per team (counted.take, written for the race: the sailors whose
    # colour the kind wants, showing the captain's face or unknown), and the sailors taken
    # show that face from then on. Undo, calls, refusals, resumed games and replays alike.
    path = str(ROOT / "rulesets" / "shipwrecked.yaml")
    counted = undone = 0
    for seed in (1, 2):
        got, want, logs = _both([path, "--seed", str(seed), "--dice", "table"], monkeypatch,
                                tmp_path, _counted(seed), f"c{seed}")
        assert got[3] == 0 and want[3] >= 1  # the interpreter never played the first
        assert _said(got[0], logs[0]) == _said(want[0], logs[1])
        assert _records(logs[0]) == _records(logs[1])
        races = [r for r in _records(logs[0]) if r["t"] == "race"]
        assert races and all("counts" in r for r in races)
        counted += sum(any(any(c.values()) for c in r["counts"].values()) for r in races)
        undone += got[0].count("(undone: ")
        if got[1] == 1:  # the input ended: resumed on both paths, then replayed
            resumed = [_run(["--resume", str(log)], monkeypatch, generated, _counted(seed + 9))
                       for log, generated in zip(logs, (True, False), strict=True)]
            assert resumed[0][3] == 0
            assert _said(resumed[0][0], logs[0]) == _said(resumed[1][0], logs[1])
            assert _records(logs[0]) == _records(logs[1])
        replays = [_replay(logs[0], monkeypatch, generated) for generated in (True, False)]
        assert replays[0][:2] == replays[1][:2] and (replays[0][2], replays[1][2]) == (0, 1)
    assert counted and undone


def _reports(seed: int, lines: int = 3000) -> str:
    """What people at a race type: one item or several (some another hand takes first), none,
    items that cannot be claimed (refused, asked again), and at other questions what those
    take; now and then `?`, `undo` or a call (`!dice_knocked`)."""
    r = random.Random(seed)
    said = ["1", "2", "3", "1 2 3", "2 4 6 8 10 12", "", "99", "1 1", "?", "undo",
            "!dice_knocked", "4", "5", "6", "3 5"]
    return "\n".join(r.choice(said) for _ in range(lines)) + "\n"


def test_a_race_people_report_is_played_on_the_generated_code(tmp_path, monkeypatch):
    # A person reports what their hand grabbed (race.report_claims, through the door); the bot
    # races them on the model's clocks, a reported hand reaching for what it reported in
    # order and missing what the bot took first; the race takes the real time the reports
    # took when that is longer. Both paths alike, to every moment.
    thinking = _Thinking(monkeypatch, 3.0)
    path = str(ROOT / "rulesets" / "shipwrecked.yaml")
    seen = {"race": 0, "missed": 0, "refused": 0}
    for seed, seat in ((1, 1), (2, 2), (3, 1)):
        got, want, logs = thinking.both([path, "--seed", str(seed), "--seat", f"{seat}=human"],
                                        monkeypatch, tmp_path, _reports(seed), f"g{seed}")
        assert (got[1], got[2], got[3]) == (0, 1, 0) and want[2] == 0
        assert got[0] == want[0]  # narration, prompts, listings, views, refusals, result
        assert _raw(logs[0]) == _raw(logs[1])
        races = [r for r in _raw(logs[0]) if r["t"] == "race"]
        seen["race"] += len(races)
        seen["missed"] += sum("missed" in r for r in races)
        seen["refused"] += got[0].count("there is no item '99'")
    assert all(seen.values()), seen


def _faces_and_reports(seed: int, lines: int = 3000) -> str:
    """What a referee's table types: faces for the rolls, and what each hand grabbed (item
    numbers), the colour of a sailor drawn blind, a call (`!dice_knocked`) or `undo`."""
    r = random.Random(seed)
    out = []
    for _ in range(lines):
        x = r.random()
        out.append("undo" if x < 0.02 else "!dice_knocked" if x < 0.1 else
                   r.choice(["white", "black"]) if x < 0.25 else  # a sailor drawn blind
                   " ".join(str(r.randint(1, 6)) for _ in range(r.choice((1, 2, 2, 3, 60)))))
    return "\n".join(out) + "\n"


def test_a_race_the_referees_table_reports_is_played_on_the_generated_code(
        tmp_path, monkeypatch):
    # The table types the faces and reports every hand's claims; an event it raises while
    # reporting happens there (its triggers on the generated code), and the same hand is
    # asked again; a call at the roll the event's own rules make (a knocked sailor rolled
    # again) is raised there too. An `undo` replays the game from its records: a call made
    # at a roll's prompt is raised again before that roll, not before a roll the rules made
    # earlier (which once made the game differ from its own log, on both paths).
    path = str(ROOT / "rulesets" / "shipwrecked.yaml")
    raised = nested = 0
    for seed in (2, 4):
        got, want, logs = _both([path, "--seed", str(seed), "--dice", "table:faces"],
                                monkeypatch, tmp_path, _faces_and_reports(seed), f"t{seed}")
        assert got[3] == 0 and want[3] >= 1  # the interpreter never played the first
        assert _said(got[0], logs[0]) == _said(want[0], logs[1])
        assert _records(logs[0]) == _records(logs[1])
        assert any(r["t"] == "race" and r["claims"] for r in _records(logs[0]))
        assert "(undone: " in got[0] and "differs from its log" not in got[0]
        raised += sum(r["t"] == "raised" and not r.get("at_roll") for r in _records(logs[0]))
        nested += sum(r["t"] == "raised" and "at_roll" in r for r in _records(logs[0]))
    assert raised and nested
