"""No control character from a ruleset or a person reaches the terminal, a log or the rulebook.

A `say` line, a label, a prompt or a name may hold ESC, BEL, a carriage return, a C1 control
or a bidirectional override (written raw, or as a YAML escape such as "\\e"). Shown raw, they
could retitle the terminal, move the cursor, erase what was printed or make a line read
backwards. Every sink shows them escaped: the narration and prompts of `run`, `replay`, the
diagnostics of `validate`, the log file, and the rulebook in Markdown and HTML.
"""

from __future__ import annotations

import io
import json

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from dsl.safe_text import UNSAFE, escape_controls
from interpreter.cli.main import main
from interpreter.table.terminal import CleanStream, control

# Every kind of character the cleaning must catch, as a YAML double-quoted escape.
HOSTILE = r"\e]0;pwned\a\e[2J\r\x9b\u202Eevil\u2066"

RULESET = f"""\
meeple: 1
metadata: {{name: "Escapes {HOSTILE}"}}
players: {{min: 1, max: 1}}
state:
  global:
    rolls: {{type: int, initial: 0}}
flow:
  phases:
    play:
      do:
        - say: "hello {HOSTILE} world"
        - choose: pick
          prompt: "Pick one {HOSTILE}"
          options:
            left: {{label: "Left {HOSTILE}"}}
            right: {{label: "Right"}}
        - say: "{{current.name}} picked {{pick}}"
      next: end
end: {{when: "true"}}
scoring: {{score: 0, order: highest}}
"""


def unsafe_in(text: str) -> list[str]:
    return sorted({f"U+{ord(c):04X}" for c in UNSAFE.findall(text)})


def write_ruleset(tmp_path) -> str:
    path = tmp_path / "escapes.yaml"
    path.write_text(RULESET, encoding="utf-8")
    return str(path)


# -- the cleaning function --------------------------------------------------------------------

def test_every_class_of_control_character_is_escaped_visibly():
    raw = "a\x1b[2Jb\x07c\rd\x00e\x7ff\x9bg\u202eh\u2066i\u200fj"
    assert escape_controls(raw) == (
        "a\\x1b[2Jb\\x07c\\x0dd\\x00e\\x7ff\\x9bg\\u202eh\\u2066i\\u200fj")


def test_newlines_tabs_and_printable_text_in_any_script_are_kept():
    text = "Joueur 1 lance 🎲 5\n\tété, 東京, ñ"
    assert escape_controls(text) == text


@given(st.text())
def test_cleaned_text_holds_no_control_character_and_cleaning_twice_changes_nothing(text):
    once = escape_controls(text)
    assert not UNSAFE.search(once)
    assert escape_controls(once) == once


def test_the_terminal_stream_escapes_text_but_passes_meeples_own_sequences():
    raw = io.StringIO()
    stream = CleanStream(raw)
    stream.write("say \x1b]0;x\x07\n")
    stream.control("\r\x1b[K")
    assert raw.getvalue() == "say \\x1b]0;x\\x07\n\r\x1b[K"


def test_control_writes_to_a_plain_stream_when_no_cleaning_stream_is_installed(monkeypatch):
    raw = io.StringIO()
    monkeypatch.setattr("sys.stdout", raw)
    control("\r")
    assert raw.getvalue() == "\r"


# -- every sink -------------------------------------------------------------------------------

def test_a_bot_game_narrates_a_rulesets_control_characters_escaped(tmp_path):
    # color=True: as at a terminal, where click passes escape sequences on untouched
    result = CliRunner().invoke(main, ["run", write_ruleset(tmp_path), "--seed", "1"],
                                color=True)
    assert result.exit_code == 0, result.output
    assert unsafe_in(result.output) == []
    assert "hello \\x1b]0;pwned\\x07\\x1b[2J\\x0d\\x9b\\u202eevil\\u2066 world" in result.output


def test_a_person_sees_prompts_labels_and_narration_escaped(tmp_path):
    result = CliRunner().invoke(main, ["run", write_ruleset(tmp_path), "--seed", "1",
                                       "--seat", "1=human"], input="1\n", color=True)
    assert result.exit_code == 0, result.output
    assert unsafe_in(result.output) == []
    assert "Left \\x1b]0;pwned" in result.output  # the option's label, escaped
    assert "Pick one \\x1b]0;pwned" in result.output  # the prompt, escaped


def test_the_log_holds_no_raw_control_character_and_replays_escaped(tmp_path):
    log = tmp_path / "game.jsonl"
    ruleset = write_ruleset(tmp_path)
    ran = CliRunner().invoke(main, ["run", ruleset, "--seed", "1", "--log", str(log)])
    assert ran.exit_code == 0, ran.output
    text = log.read_text(encoding="utf-8")
    assert unsafe_in(text) == []
    says = [json.loads(line) for line in text.splitlines()]
    assert any("\x1b]0;pwned" in str(r.get("text", "")) for r in says)  # the value is intact
    replayed = CliRunner().invoke(main, ["replay", str(log)])
    assert replayed.exit_code == 0, replayed.output
    assert unsafe_in(replayed.output) == []
    assert "hello \\x1b]0;pwned" in replayed.output


def test_the_rulebook_in_markdown_and_html_holds_no_control_character(tmp_path):
    ruleset = write_ruleset(tmp_path)
    for fmt in ("markdown", "html"):
        out = tmp_path / f"rules.{fmt}"
        done = CliRunner().invoke(main, ["rules", ruleset, "--format", fmt, "-o", str(out)])
        assert done.exit_code == 0, done.output
        book = out.read_text(encoding="utf-8")
        assert unsafe_in(book) == [], fmt
        assert "\\x1b" in book and "\\u202eevil" in book, fmt
        shown = CliRunner().invoke(main, ["rules", ruleset, "--format", fmt])
        assert unsafe_in(shown.output) == [], fmt


def test_a_diagnostic_quotes_a_line_with_control_characters_escaped_and_points_right(tmp_path):
    path = tmp_path / "bad.yaml"
    # A raw ESC is not allowed in YAML: the error quotes the line that holds it.
    path.write_text("meeple: 1\nmetadata: {name: \"a\x1b]0;t\x07b\"}\n", encoding="utf-8")
    done = CliRunner().invoke(main, ["validate", str(path)])
    assert done.exit_code == 1
    assert unsafe_in(done.output) == []
    lines = done.output.splitlines()
    assert lines[0].startswith(f"{path}:2:20: error:") and "U+001B" in lines[0]
    quoted = next(i for i, line in enumerate(lines) if "| metadata:" in line)
    caret = lines[quoted + 1].index("^")
    assert lines[quoted][caret:caret + 4] == "\\x1b"  # the caret is under the escaped ESC


def test_a_file_that_is_not_utf8_is_refused_at_the_first_bad_byte(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("meeple: 1\nmetadata: {name: \"Caf\u00e9\"}\n".encode("latin-1"))
    done = CliRunner().invoke(main, ["validate", str(path)])
    assert done.exit_code == 1
    assert f"{path}:2:22: error:" in done.output and "[bad-encoding]" in done.output


def test_an_unknown_name_with_a_bidi_override_is_quoted_escaped(tmp_path):
    path = tmp_path / "bidi.yaml"
    path.write_text(RULESET.replace("{current.name} picked", "{cur\u202erent} picked"),
                    encoding="utf-8")
    done = CliRunner().invoke(main, ["validate", str(path)])
    assert done.exit_code == 1
    assert unsafe_in(done.output) == []
    assert "\\u202e" in done.output
