"""Every input is refused cleanly (issue 14, part 3): a `--dice` or `--decisions` file, a log
for `replay` or `--resume`, a `--set` value, a seat or a seed that cannot be used gets one
clear error naming the file and the place in it (or the option), the documented exit code,
and never a traceback, a signal or a hang. These files come from strangers (DESIGN.md,
principle 12)."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.test_resume import PIG, ROOT, run

WRECK = str(ROOT / "rulesets" / "wreckdivers.yaml")


def refused(result, code: int, *words: str) -> str:
    """The command stopped with `code` (a clean exit, not an exception) and said `words`."""
    out = result.output
    assert result.exit_code == code, out
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in out
    for w in words:
        assert w in out, out
    return out


def alias_bomb(levels: int = 12) -> str:
    lines = ["- &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    lines += [f"- &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, levels)]
    return "\n".join(lines) + "\n"


# -- --dice and --decisions files -----------------------------------------------------------------

BAD_DATA = {
    "not_utf8": (b"\xff\xfe[1, 2]\n", "the file is not UTF-8 text"),
    "deeply_nested": (("[" * 5000 + "]" * 5000 + "\n").encode(), ":1:"),
    "alias_bomb": (alias_bomb().encode(), "alias bomb"),
    "a_number_of_5000_digits": (("[" + "9" * 5000 + "]\n").encode(), "too many digits"),
    "not_yaml": (b"[1, 2\n", "YAML syntax"),
    "empty": (b"", "empty"),
    "a_python_tag": (b"- !!python/object/apply:os.system [echo hi]\n", "not allowed"),
    "a_mapping": (b"{rolls: [1, 2]}\n", ":1:"),
}


@pytest.mark.parametrize("option", ["--dice", "--decisions"])
@pytest.mark.parametrize("case", sorted(BAD_DATA))
def test_a_bad_data_file_is_refused_naming_the_file_with_exit_2(tmp_path, option, case):
    data, words = BAD_DATA[case]
    path = tmp_path / f"{case}.yaml"
    path.write_bytes(data)
    started = time.monotonic()
    out = refused(run("run", PIG, option, str(path)), 2, option, f"{case}.yaml", words)
    assert time.monotonic() - started < 10
    assert "bad-input" in out


def test_an_alias_bomb_is_refused_at_once_by_the_real_command(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "interpreter.cli", "run", PIG, "--decisions",
                           str(path)], capture_output=True, text=True, timeout=30, cwd=ROOT)
    assert done.returncode == 2, done.stderr
    assert "bomb.yaml:" in done.stderr and "alias bomb" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("text, where, words", [
    ("[1, [2], 3]\n", ":1:5:", "face 2 is a list"),
    ("- 1\n- {x: 3}\n", ":2:3:", "face 2 is a mapping"),
    ("[1, true]\n", ":1:5:", "face 2 is true"),
    ("[1, .nan]\n", ":1:5:", "not a finite number"),
    ("[1, .inf]\n", ":1:5:", "not a finite number"),
    ("[1, null]\n", ":1:5:", "face 2 is nothing"),
    ("{faces: 3}\n", ":1:9:", "not a list of faces"),
    ("{faces: [1], extra: 2}\n", ":1:14:", "unknown key 'extra'"),
    ("{rolls: [1]}\n", ":1:2:", "unknown key 'rolls'"),
    ("7\n", ":1:1:", "not a list of faces"),
])
def test_a_dice_file_reports_its_first_bad_face_with_line_and_column(tmp_path, text, where,
                                                                     words):
    path = tmp_path / "dice.yaml"
    path.write_text(text, encoding="utf-8")
    refused(run("run", PIG, "--dice", str(path)), 2, f"dice.yaml{where}", words)


def test_a_good_dice_file_still_plays(tmp_path):
    path = tmp_path / "dice.json"
    path.write_text('{"faces": [2, 3, 4, 5, 6, 1]}', encoding="utf-8")
    played = run("run", PIG, "--dice", str(path))
    assert played.exit_code == 1 and "dice script ran out" in played.output  # as before
    assert "Traceback" not in played.output


@pytest.mark.parametrize("text, where, words", [
    ("- roll\n- [hold]\n", ":2:3:", "decision 2: a list is not an answer"),
    ("- roll\n- {id: roll_or_hold, choice: [1]}\n", ":2:30:", "'choice' is a list"),
    ("- {id: roll_or_hold, chioce: hold}\n", ":1:22:", "did you mean 'choice'"),
    ("- {id: roll_or_hold}\n", ":1:3:", "without 'choice'"),
    ("- {id: [x], choice: roll}\n", ":1:8:", "'id' is a list, not a name"),
    ("- {timeout: .inf}\n", ":1:13:", "not a finite number"),
    ("- {timeout: -3}\n", ":1:13:", "not a number of seconds"),
    ("- {choice: roll, at: x}\n", ":1:22:", "'at' is a text"),
    ("- {raise: go, by: 3}\n", ":1:19:", "'by' is a number"),
    ("- {race: grab, claims: [1]}\n", ":1:24:", "'claims' is a list"),
    ("- {race: grab, claims: {P: 3}}\n", ":1:28:", "'claims' of P is a number, not a list"),
    ("- {race: grab, uniforms: 1000000000000}\n", ":1:26:", "'uniforms' must be"),
    ("- {race: grab, counts: [1]}\n", ":1:24:", "'counts' is a list, not a mapping"),
    ("- {race: grab, counts: {red: 3}}\n", ":1:30:", "'counts' of red is a number"),
    ("- {race: grab, counts: {red: {own: -1}}}\n", ":1:36:",
     "the count of own for red is -1, not a whole number from 0 to 1,000,000"),
    ("- {race: grab, counts: {red: {own: yes}}}\n", ":1:36:", "the count of own for red is a"),
    ("- {race: grab, claims: {}, counts: {}}\n", ":1:36:", "'claims' or 'counts', not both"),
    ("- {raise: go, by: table, at_roll: 1}\n", ":1:35:", "'at_roll' is a number, not true"),
    ("- {raise: go, by: Ann, at: soon}\n", ":1:28:", "'at' is a text, not a number of seconds"),
    ("- {choice: roll, at_roll: true}\n", ":1:18:", "a key 'at_roll' does not go with"),
    ("- {timeout: 3, choice: roll}\n", ":1:16:", "a key 'choice' does not go with 'timeout'"),
    ("- " + "x" * 2000 + "\n", ":1:3:", "a text is not an answer"),
    ("{decisions: [roll]}\n", ":1:1:", "not a list of decisions"),
])
def test_a_decisions_file_reports_its_first_bad_entry_with_line_and_column(tmp_path, text,
                                                                           where, words):
    path = tmp_path / "d.yaml"
    path.write_text(text, encoding="utf-8")
    refused(run("run", PIG, "--decisions", str(path)), 2, f"d.yaml{where}", words)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
@pytest.mark.parametrize("args, code", [
    (["run", PIG, "--dice", "/dev/zero"], 2), (["run", PIG, "--decisions", "/dev/zero"], 2),
    (["replay", "/dev/zero"], 1), (["run", "--resume", "/dev/zero"], 1),
    (["validate", "/dev/zero"], 1), (["run", "/dev/zero"], 1)])
def test_a_file_that_never_ends_is_too_large_not_read_forever(args, code):
    refused(run(*args), code, "/dev/zero", "larger than")


def test_a_bad_key_is_named_with_its_escapes_not_sent_to_the_terminal(tmp_path):
    path = tmp_path / "d.json"
    path.write_text('[{"choice": "roll", "\\u001b]0;owned\\u0007": 1}]', encoding="utf-8")
    out = refused(run("run", PIG, "--decisions", str(path)), 2, "unknown key '\\x1b]0;owned")
    assert "\x1b" not in out.splitlines()[0]


def test_a_good_decisions_file_still_plays(tmp_path):
    path = tmp_path / "d.json"
    path.write_text('["roll", {"id": "roll_or_hold", "choice": "hold"}]', encoding="utf-8")
    played = run("run", PIG, "--decisions", str(path), "--json")
    assert played.exit_code == 0, played.output


@pytest.mark.parametrize("entry, words", [
    ('{"raise": "nosuch"}', "raises 'nosuch', which people cannot raise; events they can: "
                            "breathed"),
    ('{"raise": "breathed", "by": "Player 7"}', "raised by 'Player 7', who does not play"),
])
def test_a_scripted_event_is_raised_only_if_people_may_raise_it(tmp_path, entry, words):
    """A script's `raise` was narrated and fired whatever it named."""
    path = tmp_path / "d.json"
    path.write_text(f"[{entry}]", encoding="utf-8")
    done = run("run", WRECK, "--seed", "1", "--decisions", str(path))
    assert done.exit_code == 1, done.output
    assert words in done.output and "wreckdivers.yaml:" in done.output
    assert "! nosuch" not in done.output


def test_a_data_file_that_cannot_be_read_is_named(tmp_path):
    out = refused(run("run", PIG, "--dice", str(tmp_path / "nope.yaml")), 2, "--dice",
                  "nope.yaml", "No such file")
    assert "Traceback" not in out


# -- --set, --seat, --seed ------------------------------------------------------------------------

@pytest.mark.parametrize("value, words", [
    ("1e400", "'1e400' is not a finite number"),
    ("-1e400", "'-1e400' is not a finite number"),
    ("nan", "'nan' is not a number"),
    ("inf", "'inf' is not a number"),
    ("1e16", "larger than 10^15"),
    ("9" * 5000, "longer than 1,000 characters"),
])
def test_set_takes_finite_numbers_only(value, words):
    out = refused(run("run", WRECK, "--set", f"margin={value}"), 2, "--set", "margin=", words)
    assert len(out) < 1000  # a huge value is not echoed back whole


@pytest.mark.parametrize("command", [["run", WRECK], ["rules", WRECK], ["simulate", WRECK,
                                                                       "--games", "1"]])
def test_set_refuses_a_control_character_without_echoing_it(command):
    out = refused(run(*command, "--set", "margin=1\x1b[2J"), 2, "U+001B")
    assert "\x1b" not in out


def test_set_refuses_the_same_parameter_twice():
    refused(run("run", WRECK, "--set", "margin=1", "--set", "margin=2"), 2, "given twice")


@pytest.mark.parametrize("seat, words", [
    ("1=", "seat 1 says nobody"),
    ("1=\x1b]0;owned\x07", "U+001B"),
    ("1=" + "x" * 500, "longer than 100"),
    ("\u00b2=human", "is not a seat number"),
    ("\u0661=human", "is not a seat number"),
    ("9" * 40 + "=human", "there is no seat"),
    ("=human", "is not K=WHO"),
    ("human", "is not K=WHO"),
])
def test_a_seat_that_says_nobody_or_holds_control_characters_is_refused(seat, words):
    out = refused(run("run", PIG, "--seat", seat), 2, "--seat", words)
    assert "\x1b" not in out


def test_a_seat_given_twice_is_refused():
    refused(run("run", PIG, "--seat", "1=random", "--seat", "1=human"), 2, "given twice")


def test_simulate_vs_refuses_a_bad_seat_cleanly():
    refused(run("simulate", PIG, "--games", "1", "--vs", "seat:\u00b2=random"), 2,
            "is not seat:K=POLICY")
    out = refused(run("simulate", PIG, "--games", "1", "--vs", "seat:1=\x1b[2J"), 2, "U+001B")
    assert "\x1b" not in out


@pytest.mark.parametrize("seed, words", [("\u00b2", None), ("a\x07", "U+0007"),
                                         ("x" * 200, "longer than 100")])
def test_a_seed_is_a_number_or_a_short_text(seed, words):
    if words is None:  # a digit that is not 0-9 is text, not a crash
        played = run("run", PIG, "--seed", seed, "--json")
        assert played.exit_code == 0, played.output
        return
    refused(run("run", PIG, "--seed", seed), 2, "--seed", words)


# -- logs for replay and --resume -----------------------------------------------------------------

@pytest.fixture(scope="module")
def pig_log(tmp_path_factory) -> list[dict]:
    """The records of a short logged game of Pig (header first)."""
    path = tmp_path_factory.mktemp("log") / "pig.jsonl"
    assert run("run", PIG, "--seed", "3", "--log", str(path), "--json").exit_code == 0
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def write_log(path, records: list[dict], end: bool = True) -> str:
    if not end:
        records = [r for r in records if r["t"] != "end"]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return str(path)


def first(records: list[dict], kind: str) -> dict:
    return next(r for r in records if r["t"] == kind)


EDITS = {
    "header players is text": (lambda r: r[0].update(players="2"), ":1:", "'players'"),
    "header players is huge": (lambda r: r[0].update(players=10**30), ":1:", "'players'"),
    "header seats is a number": (lambda r: r[0].update(seats=5), ":1:", "'seats'"),
    "header seat is empty": (lambda r: r[0].update(seats=["", "random"]), ":1:", "seat 1"),
    "header seat holds an escape": (lambda r: r[0].update(seats=["\x1b[2J", "random"]), ":1:",
                                    "U+001B"),
    "header set is a list": (lambda r: r[0].update(set=[1]), ":1:", "'set'"),
    "header set value is a mapping": (lambda r: r[0].update(set={"goal": {}}), ":1:", "'goal'"),
    "header variant is a number": (lambda r: r[0].update(variant=3), ":1:", "'variant'"),
    "header ruleset is a number": (lambda r: r[0].update(ruleset=3), ":1:", "'ruleset'"),
    "header ruleset holds a NUL": (lambda r: r[0].update(ruleset="pig\x00.yaml"), ":1:",
                                   "U+0000"),
    "header seed is a list": (lambda r: r[0].update(seed=[1]), ":1:", "'seed'"),
    "header dice is unknown": (lambda r: r[0].update(dice="loaded"), ":1:", "'dice'"),
    "roll faces is a number": (lambda r: first(r, "roll").update(faces=5), ":4:",
                               "event 3 ('roll') 'faces'"),
    "roll has no faces": (lambda r: first(r, "roll").pop("faces"), ":4:", "has no 'faces'"),
    "roll has more dice than faces": (lambda r: first(r, "roll").update(faces=[1, 2]), ":4:",
                                      "1 dice but 2 faces"),
    "decision choice is a mapping": (lambda r: first(r, "decision").update(choice={"a": 1}),
                                     ":5:", "'choice'"),
    "decision at is text": (lambda r: first(r, "decision").update(asked=1, at="x"), ":5:",
                            "'at'"),
    "kind is a number": (lambda r: first(r, "roll").update(t=3), ":4:", "not a meeple log record"),
    "a hazard query is text": (lambda r: r.insert(3, {"t": "hazard", "query": "a", "at": 1}),
                               ":4:", "'query'"),
    "a race claims a number": (lambda r: r.insert(3, {"t": "race", "id": "g", "claims": 3,
                                                      "seconds": 1}), ":4:", "'claims'"),
    "a race draws 10^12 numbers": (lambda r: r.insert(3, {"t": "race", "id": "g", "claims": {},
                                                          "seconds": 1, "uniforms": 10**12}),
                                   ":4:", "'uniforms'"),
    "the end asks 10^12 hazards": (lambda r: r[-1].update(hazard_queries=10**12), ":",
                                   "'hazard_queries'"),
    "a timeout at text": (lambda r: r.insert(4, {"t": "timeout", "at": "x"}), ":5:", "'at'"),
    "a raised event is a list": (lambda r: r.insert(4, {"t": "raised", "event": [1]}), ":5:",
                                 "'event'"),
    "a raised event's at_roll is text": (lambda r: r.insert(4, {"t": "raised", "event": "e",
                                                                "at_roll": "yes"}), ":5:",
                                         "'at_roll' must be true or false"),
    "a raised event's moment is text": (lambda r: r.insert(4, {"t": "raised", "event": "e",
                                                               "at": "soon"}), ":5:", "'at'"),
    "a race counts a list": (lambda r: r.insert(3, {"t": "race", "id": "g", "claims": {},
                                                    "seconds": 1, "counts": [1]}), ":4:",
                             "'counts' must be a mapping of reporters to counts"),
    "a race counts a negative number": (
        lambda r: r.insert(3, {"t": "race", "id": "g", "claims": {}, "seconds": 1,
                               "counts": {"red": {"own": -2}}}), ":4:",
        "'counts' for 'red' must be a whole number from 0 to 1,000,000"),
    "header dice is table:counts": (lambda r: r[0].update(dice="table:counts"), ":1:",
                                    "'dice' must be one of seeded, table, table:faces, file"),
}


@pytest.mark.parametrize("command", ["replay", "resume"])
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_log_field_of_the_wrong_type_is_refused_naming_the_line_and_field(
        tmp_path, pig_log, command, edit):
    change, where, words = EDITS[edit]
    if command == "resume" and edit == "the end asks 10^12 hazards":
        return  # a finished game is not resumed
    records = copy.deepcopy(pig_log)
    change(records)
    log = write_log(tmp_path / "g.jsonl", records, end=command == "replay")
    args = ["replay", log] if command == "replay" else ["run", "--resume", log]
    out = refused(run(*args), 1, f"g.jsonl{where}", words, "[bad-input]")
    assert "\x1b" not in out


BAD_LINES = {
    "not UTF-8": (b"\xff\xfe\n", ":2: not UTF-8 text"),
    "not JSON": (b"{roll}\n", ":2:2: not a JSON line"),
    "NaN": (b'{"t": "roll", "dice": ["die"], "faces": [NaN]}\n', ":2: NaN"),
    "Infinity": (b'{"t": "timeout", "at": Infinity}\n', ":2: Infinity"),
    "a number too large for a float": (b'{"t": "timeout", "at": 1e400}\n', ":2: the number"),
    "a number of 5000 digits": (b'{"t": "x", "n": ' + b"9" * 5000 + b"}\n", ":2:"),
    "nesting 100 deep": (b'{"t": "x", "v": ' + b"[" * 100 + b"]" * 100 + b"}\n",
                         ":2: the line nests deeper"),
    "nesting 100000 deep": (b'{"t": "x", "v": ' + b"[" * 100000 + b"]" * 100000 + b"}\n",
                            ":2: the line nests deeper"),
    "a list, not a record": (b"[1, 2]\n", ":2: not a meeple log record"),
}


@pytest.mark.parametrize("command", ["replay", "resume"])
@pytest.mark.parametrize("case", sorted(BAD_LINES))
def test_a_broken_line_in_a_log_is_refused_naming_the_line(tmp_path, pig_log, command, case):
    line, words = BAD_LINES[case]
    path = tmp_path / "g.jsonl"
    write_log(path, pig_log[:1])
    path.write_bytes(path.read_bytes() + line)
    args = ["replay", str(path)] if command == "replay" else ["run", "--resume", str(path)]
    refused(run(*args), 1, f"g.jsonl{words}")


def test_a_log_that_is_not_a_log_is_refused(tmp_path):
    for text, words in (("", "the file is empty"), ('{"t": "game"}\n', "not a meeple log"),
                        ("[]\n", "not a meeple log")):
        path = tmp_path / "x.jsonl"
        path.write_text(text, encoding="utf-8")
        refused(run("replay", str(path)), 1, "x.jsonl:1:", words)
    refused(run("replay", str(tmp_path / "missing.jsonl")), 1, "missing.jsonl", "cannot read")


def test_a_log_larger_than_the_limit_is_refused_before_it_is_read(tmp_path, pig_log,
                                                                  monkeypatch):
    from interpreter.table import log_check
    monkeypatch.setattr(log_check, "MAX_LOG_BYTES", 100)
    log = write_log(tmp_path / "g.jsonl", pig_log)
    refused(run("replay", log), 1, "g.jsonl", "larger than 100 bytes")


def test_a_cut_off_last_line_stops_a_replay_and_points_to_resume(tmp_path, pig_log):
    path = tmp_path / "g.jsonl"
    write_log(path, pig_log, end=False)
    path.write_bytes(path.read_bytes() + b'{"t": "decision", "id": "roll_or')
    out = refused(run("replay", str(path)), 1, "the last line is cut off", "--resume")
    assert f"g.jsonl:{len(pig_log)}:" in out


def test_a_broken_line_that_is_not_the_last_is_never_taken_for_a_cut_off_one(tmp_path,
                                                                             pig_log):
    path = tmp_path / "g.jsonl"
    lines = [json.dumps(r) for r in pig_log[:-1]]
    lines[4] = lines[4][:10]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    refused(run("run", "--resume", str(path)), 1, "g.jsonl:5:", "not a JSON line")


def test_a_log_keeps_a_line_separator_inside_a_text(tmp_path, pig_log):
    from interpreter.table import journal
    records = copy.deepcopy(pig_log)
    records.insert(2, {"t": "say", "text": "one\u2028two\x85three"})
    head, read = journal.read(write_log(tmp_path / "g.jsonl", records))
    assert read[1] == {"t": "say", "text": "one\u2028two\x85three"}


def test_a_log_whose_players_the_ruleset_does_not_take_is_refused(tmp_path, pig_log):
    records = copy.deepcopy(pig_log)
    records[0]["players"] = 5
    refused(run("replay", write_log(tmp_path / "g.jsonl", records)), 2, "2 to 2 players")


# -- seat names -------------------------------------------------------------------------------------

SEATS = """meeple: 1
metadata: {{name: Seats}}
players: {{min: 2, max: 3, seat_names: {names}}}
flow: {{phases: {{play: {{do: [end_game]}}}}}}
end: {{when: "false"}}
scoring: {{score: 0}}
"""


@pytest.mark.parametrize("names, words", [
    ('["Ann", ""]', "seat name 2 is empty"),
    ('["Ann", "   "]', "seat name 2 is empty"),
    ('["Ann", "\\e[2J"]', "seat name 2 holds a control character (U+001B)"),
    ('["Ann", "' + "x" * 41 + '"]', "seat name 2 is longer than 40 characters"),
    ('["Ann", "Ann"]', "two seats are named 'Ann'"),
    ('["Player 3", "Bob"]', "two seats are named 'Player 3'"),  # seat 3 keeps its default
])
def test_a_seat_name_that_cannot_be_shown_or_told_apart_is_refused_by_validate(
        tmp_path, names, words):
    path = tmp_path / "seats.yaml"
    path.write_text(SEATS.format(names=names), encoding="utf-8")
    out = refused(run("validate", str(path)), 1, "seats.yaml:3:", words, "[bad-players]")
    assert "\x1b" not in out.split("|")[0]
    refused(run("run", str(path)), 1, words)


def test_plain_distinct_seat_names_are_fine(tmp_path):
    path = tmp_path / "seats.yaml"
    path.write_text(SEATS.format(names='["Ann", "Bob", "Player 4"]'), encoding="utf-8")
    assert run("validate", str(path)).exit_code == 0


# -- any value at all: a clean answer, never a traceback --------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-10**30, max_value=10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(st.characters(codec="utf-8"), max_size=20)
    | st.sampled_from(["roll", "hold", "Player 1", "choice", "id", "race", "timeout", "at"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["id", "choice", "faces", "timeout", "raise", "by", "race", "claims",
                         "seconds", "uniforms", "missed", "asked", "at", "x"]), inner,
        max_size=4),
    max_leaves=12)

FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))


def clean(result) -> None:
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        repr(result.exception))
    assert result.exit_code in (0, 1, 2)
    assert "Traceback" not in result.output


@FUZZ
@given(value=json_values, option=st.sampled_from(["--dice", "--decisions"]))
def test_any_data_file_gets_a_clean_answer(tmp_path_factory, value, option):
    path = tmp_path_factory.mktemp("fuzz") / "data.json"
    path.write_text(json.dumps(value), encoding="utf-8")
    clean(run("run", PIG, option, str(path)))


@FUZZ
@given(value=json_values, index=st.integers(min_value=0, max_value=40),
       field=st.sampled_from(["t", "dice", "faces", "id", "by", "choice", "players", "seats",
                              "seed", "set", "variant", "dice", "at", "asked", "only",
                              "hazard_queries", "ruleset"]),
       command=st.sampled_from(["replay", "resume"]))
def test_any_field_of_a_log_gets_a_clean_answer(tmp_path_factory, pig_log, value, index, field,
                                                 command):
    records = copy.deepcopy(pig_log)
    rec = records[min(index, len(records) - 1)] if index else records[0]
    rec[field] = value
    log = write_log(tmp_path_factory.mktemp("fuzz") / "g.jsonl", records,
                    end=command == "replay")
    clean(run("replay", log, "--quiet") if command == "replay" else
          run("run", "--resume", log, "--json"))
