"""Every input is refused cleanly (issue 14, part 3): a `--dice` or `--decisions` file, a log
for `replay` or `--resume`, a `--set` value, a seat or a seed that cannot be used gets one
clear error naming the file and the place in it (or the option), the documented exit code,
and never a traceback, a signal or a hang. These files come from strangers (DESIGN.md,
principle 12)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

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
    "not_utf8": (b"\xff\xfe[1, 2]\n", "utf-8"),
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
    ("- {timeout: 3, choice: roll}\n", ":1:16:", "a key 'choice' does not go with 'timeout'"),
    ("- " + "x" * 2000 + "\n", ":1:3:", "a text is not an answer"),
    ("{decisions: [roll]}\n", ":1:1:", "not a list of decisions"),
])
def test_a_decisions_file_reports_its_first_bad_entry_with_line_and_column(tmp_path, text,
                                                                           where, words):
    path = tmp_path / "d.yaml"
    path.write_text(text, encoding="utf-8")
    refused(run("run", PIG, "--decisions", str(path)), 2, f"d.yaml{where}", words)


def test_a_good_decisions_file_still_plays(tmp_path):
    path = tmp_path / "d.json"
    path.write_text('["roll", {"id": "roll_or_hold", "choice": "hold"}]', encoding="utf-8")
    played = run("run", PIG, "--decisions", str(path), "--json")
    assert played.exit_code == 0, played.output


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
