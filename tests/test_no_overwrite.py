"""Nothing is overwritten (issue 14, part 4): `run --log`, `rules -o` and `simulate --csv` and
`--plot` refuse an existing file unless the person passes `--force`; `--resume` goes on in its
own log without ever cutting it short; every whole-file write goes to a temporary file that
takes the file's place in one step, so a write that fails leaves the old file or none, never
half of one (interpreter/table/output_files.py)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from interpreter.table import journal, output_files
from tests.test_cli_inputs import refused
from tests.test_resume import PIG, run

OLD = "an old file nobody asked to lose\n"


def leftovers(folder) -> list[str]:
    """Temporary files a write left behind."""
    return [p.name for p in folder.iterdir() if ".part" in p.name]


# -- refused without --force, replaced with it -------------------------------------------------

def test_run_log_refuses_an_existing_file_and_leaves_it_untouched(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(OLD, encoding="utf-8")
    refused(run("run", PIG, "--log", str(log)), 2, "--log", str(log), "already exists",
            "--force")
    assert log.read_text(encoding="utf-8") == OLD


def test_run_log_with_force_replaces_the_file_with_the_new_log(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(OLD, encoding="utf-8")
    assert run("run", PIG, "--log", str(log), "--force", "--json").exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["t"] == "game" and json.loads(lines[-1])["t"] == "end"
    assert run("replay", str(log), "--quiet").exit_code == 0
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("command, option", [("run", "--log"), ("rules", "--output")])
def test_a_command_never_writes_over_the_ruleset_it_reads(tmp_path, command, option):
    ruleset = tmp_path / "pig.yaml"
    shutil.copy(PIG, ruleset)
    before = ruleset.read_bytes()
    refused(run(command, str(ruleset), option, str(ruleset)), 2, "already exists")
    assert ruleset.read_bytes() == before


def test_rules_output_refuses_an_existing_file_and_force_replaces_it(tmp_path):
    book = tmp_path / "pig.md"
    book.write_text(OLD, encoding="utf-8")
    refused(run("rules", PIG, "-o", str(book)), 2, "--output", str(book), "already exists",
            "--force")
    assert book.read_text(encoding="utf-8") == OLD
    assert run("rules", PIG, "-o", str(book), "--force").exit_code == 0
    assert book.read_text(encoding="utf-8").startswith("# Pig")
    assert leftovers(tmp_path) == []


def test_simulate_refuses_an_existing_csv_before_playing_and_force_replaces_it(tmp_path):
    csv = tmp_path / "games.csv"
    csv.write_text(OLD, encoding="utf-8")
    out = refused(run("simulate", PIG, "--games", "5", "--csv", str(csv)), 2, "--csv",
                  str(csv), "already exists", "--force")
    assert "games/s" not in out  # refused before the games, not after
    assert csv.read_text(encoding="utf-8") == OLD
    assert run("simulate", PIG, "--games", "5", "--csv", str(csv), "--force").exit_code == 0
    assert csv.read_text(encoding="utf-8").startswith("setup,game,seed")
    assert leftovers(tmp_path) == []


def test_simulate_refuses_an_existing_plot(tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "chart.png"
    png.write_text(OLD, encoding="utf-8")
    refused(run("simulate", PIG, "--games", "5", "--plot", str(png)), 2, "--plot",
            "already exists")
    assert png.read_text(encoding="utf-8") == OLD
    assert run("simulate", PIG, "--games", "5", "--plot", str(png), "--force").exit_code == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert leftovers(tmp_path) == []


def test_an_output_that_is_a_folder_is_refused_even_with_force(tmp_path):
    refused(run("rules", PIG, "-o", str(tmp_path), "--force"), 2)
    refused(run("run", PIG, "--log", str(tmp_path), "--force"), 2)


# -- the streamed log ----------------------------------------------------------------------------

def test_a_new_log_is_created_exclusively(tmp_path):
    log = tmp_path / "game.jsonl"
    log.write_text(OLD, encoding="utf-8")
    with pytest.raises(journal.JournalError, match="already exists"):
        journal.Writer(str(log), {"t": "game"})
    assert log.read_text(encoding="utf-8") == OLD


def test_the_log_is_flushed_record_by_record(tmp_path):
    log = tmp_path / "game.jsonl"
    writer = journal.Writer(str(log), {"t": "game"})
    writer.write({"t": "roll", "dice": ["d"], "faces": [3]})
    assert log.read_text(encoding="utf-8").splitlines()[-1] == (
        '{"t": "roll", "dice": ["d"], "faces": [3]}')  # before close
    writer.close()


def test_resume_goes_on_in_its_own_log_keeping_every_logged_line(tmp_path):
    log = tmp_path / "g.jsonl"
    run("run", PIG, "--seat", "1=human", "--seed", "3", "--log", str(log), input="r\nh\nr\n")
    before = log.read_text(encoding="utf-8")
    resumed = run("run", "--resume", str(log), input="h\n" * 200)
    assert resumed.exit_code == 0, resumed.output
    after = log.read_text(encoding="utf-8")
    assert after.startswith(before) and len(after) > len(before)
    assert run("replay", str(log), "--quiet").exit_code == 0
    assert leftovers(tmp_path) == []


def test_a_resume_that_cannot_write_its_log_leaves_the_log_as_it_was(tmp_path, monkeypatch):
    log = tmp_path / "g.jsonl"
    run("run", PIG, "--seat", "1=human", "--seed", "3", "--log", str(log), input="r\nh\nr\n")
    with log.open("a", encoding="utf-8") as f:
        f.write('{"t": "decision", "id": "roll_or_ho')  # cut off by the interruption
    before = log.read_bytes()

    def full_disk(src, dst):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(output_files.os, "replace", full_disk)
    refused(run("run", "--resume", str(log), input="h\n" * 200), 2, "No space left")
    assert log.read_bytes() == before
    assert leftovers(tmp_path) == []


# -- a failed write leaves no part of a file -----------------------------------------------------

def half_then(error: BaseException):
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("half of a fi")
        raise error
    return write


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_write_leaves_no_new_file(tmp_path, error):
    target = tmp_path / "out.csv"
    with pytest.raises((output_files.OutputError, KeyboardInterrupt)):
        output_files.write_file(target, half_then(error))
    assert not target.exists()
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("error", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_write_with_force_leaves_the_old_file_whole(tmp_path, error):
    target = tmp_path / "out.csv"
    target.write_text(OLD, encoding="utf-8")
    with pytest.raises((output_files.OutputError, KeyboardInterrupt)):
        output_files.write_file(target, half_then(error), force=True)
    assert target.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


def test_a_plot_that_fails_half_way_leaves_no_file(tmp_path, monkeypatch):
    from interpreter.simulate import plots
    monkeypatch.setattr(plots, "available", lambda: True)

    def broken(path, *args):
        with open(path, "wb") as f:
            f.write(b"\x89PNG half")
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(plots, "plot_run", broken)
    png = tmp_path / "chart.png"
    refused(run("simulate", PIG, "--games", "3", "--plot", str(png)), 2, "cannot write",
            "No space left")
    assert not png.exists()
    assert leftovers(tmp_path) == []


def test_a_file_that_appears_while_meeple_writes_is_not_overwritten(tmp_path):
    target = tmp_path / "out.md"

    def write(tmp: str) -> None:
        target.write_text(OLD, encoding="utf-8")  # another program got there first
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("new")
    with pytest.raises(output_files.OutputError, match="already exists"):
        output_files.write_file(target, write)
    assert target.read_text(encoding="utf-8") == OLD
    assert leftovers(tmp_path) == []


def test_a_written_file_has_the_usual_permissions(tmp_path):
    target = tmp_path / "out.md"
    output_files.write_text(target, "text")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
