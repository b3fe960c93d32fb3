"""`meeple rules`: every shipped ruleset as a rulebook, in Markdown and HTML, with what a new
player needs (phases, triggers, checks, parameters, assumptions), the values in play, the
usage errors, and escaping."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from click.testing import CliRunner

from dsl import effects as fx
from dsl import validate_path, validate_text
from interpreter.cli.main import main
from interpreter.rulebook import book as rulebook

ROOT = Path(__file__).resolve().parents[1]
RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))
VARIANTS = [(p, v) for p in RULESETS
            for v in (validate_path(p).document.data.get("variants") or {})]


def rules(*args: str):
    return CliRunner().invoke(main, ["rules", *args])


def names_a_player_needs(data: dict) -> list[str]:
    """Every phase, procedure, trigger, check, event, parameter and assumption id."""
    out = list(data["flow"]["phases"])
    for section in ("procedures", "triggers", "checks", "events", "parameters"):
        out += list(data.get(section) or {})
    out += [a["id"] for a in data.get("assumptions") or [] if "id" in a]
    return out


def unescaped(page: str) -> str:
    """The text of an HTML page, entities read back (names may hold no markup, only text)."""
    import html
    return html.unescape(re.sub(r"<[^>]+>", "", page))


@pytest.mark.parametrize("fmt", ["markdown", "html"])
@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_every_shipped_ruleset_renders_with_its_phases_triggers_parameters_and_assumptions(
        path, fmt):
    out = rules(str(path), "--format", fmt)
    assert out.exit_code == 0, out.output
    data = validate_path(path).document.data
    body = unescaped(out.output) if fmt == "html" else out.output
    assert data["metadata"]["name"] in body
    missing = [n for n in names_a_player_needs(data) if n not in body]
    assert not missing, missing
    for heading in ("## How the game goes", "## Setup", "## The end"):
        assert fmt == "html" or heading in out.output


@pytest.mark.parametrize("path,variant", VARIANTS, ids=lambda x: getattr(x, "stem", x))
def test_every_variant_renders_and_says_it_is_the_one_described(path, variant):
    for fmt in ("markdown", "html"):
        out = rules(str(path), "--variant", variant, "--format", fmt)
        assert out.exit_code == 0, out.output
        body = unescaped(out.output) if fmt == "html" else out.output
        assert f"This rulebook describes the variant {variant}".replace(" ", "") in \
            re.sub(r"[*\s]", "", body)
        data = validate_path(path).document.data
        assert all(n in body for n in names_a_player_needs(data))
        for other in data["variants"]:  # the other variants are still listed
            assert other in body


def test_a_parameter_changed_with_set_shows_its_new_value_and_its_default():
    out = rules(str(ROOT / "rulesets" / "pig.yaml"), "--set", "goal=50")
    assert out.exit_code == 0, out.output
    assert "**goal** = `50` (changed with `--set`; default `100`)" in out.output
    assert "**hold_at** = `20` (the default)" in out.output
    # Expressions that read it show the value in play too.
    assert "`any(p.score >= goal for p in players)` (goal = 50;" in out.output
    assert "Parameters set for this game: `goal` = `50`" in out.output


def test_an_assumption_names_the_parameter_that_changes_it_not_a_neighbouring_one():
    # Wreckdivers' strict deadline (WD-A6) is not what signal_seconds sets; the time a signal
    # takes (WD-A13) is. The rulebook says a table may change only the latter with it.
    out = rules(str(ROOT / "rulesets" / "wreckdivers.yaml"))
    assert out.exit_code == 0, out.output
    lines = {m.group(1): line for line in out.output.splitlines()
             if (m := re.match(r"- \*\*(WD-A\d+)\*\*", line))}
    assert "parameter" not in lines["WD-A6"]
    assert "with the parameter `signal_seconds`" in lines["WD-A13"]


def test_a_variant_marks_the_parameters_it_sets_and_keeps_the_base_default():
    out = rules(str(ROOT / "rulesets" / "wreckdivers.yaml"), "--variant", "long_game",
                "--set", "threshold=12")
    assert out.exit_code == 0, out.output
    assert "**rounds** = `5` (set by the variant **long_game**; default `3`)" in out.output
    assert "**threshold** = `12` (changed with `--set`; default `10`)" in out.output
    assert "**long_game** (this rulebook describes it)" in out.output


def test_turn_steps_are_numbered_with_nested_steps_indented():
    out = rules(str(ROOT / "rulesets" / "pig.yaml")).output
    assert ("1. Repeat until `roll_or_hold == 'hold'` (checked after each pass):\n"
            "   1. Roll die.\n"
            "   2. If `die.face == 1`:\n"
            "      1. Announce: “{current.name} rolls a 1 and loses {turn_total} points”\n") in out
    assert "The current player chooses roll or hold (`roll_or_hold`" in out


def test_a_deck_says_how_a_card_drawn_blind_is_named_at_the_table():
    out = rules(str(ROOT / "rulesets" / "dark_water_salvage.yaml")).output
    assert "Drawn blind at a refereed table, a card is named by its `value`." in out
    assert out.count("Drawn blind at a refereed table") == 1  # only the chips say known_by


def test_a_bot_that_extends_another_says_so():
    out = rules(str(ROOT / "rulesets" / "dark_water_salvage.yaml")).output
    assert ("It starts from **sonar_hunter** and replaces what it decides itself. It decides "
            "`application`, `city_choice`") in out


def test_triggers_are_put_in_words_with_their_event_condition_and_group():
    out = rules(str(ROOT / "rulesets" / "wreckdivers.yaml")).output
    assert "When dice are rolled, if `diving and remaining(dive) > 0 and doubles(red)" in out
    assert "In the group `dive_roll`, priority 3." in out
    assert "When a timer runs out, if `diving`:" in out
    assert "When [breathed](#event-breathed) happens" in out


def test_an_invalid_ruleset_exits_1_with_located_errors_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text((ROOT / "rulesets" / "pig.yaml").read_text().replace(
        '"any(p.score >= goal for p in players)"', '"any(p.score >= gaol for p in players)"'))
    out = rules(str(bad))
    assert out.exit_code == 1
    assert "[unknown-name]" in out.output and "did you mean 'goal'" in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)
    assert "Traceback" not in out.output
    missing = rules(str(tmp_path / "nowhere.yaml"))
    assert missing.exit_code == 1 and "Traceback" not in missing.output


@pytest.mark.parametrize("args,message", [
    (["--set", "gaol=50"], "unknown parameter 'gaol' (did you mean 'goal'?)"),
    (["--set", "goal=lots"], "--set goal=lots"),
    (["--set", "goal"], "'goal' is not NAME=VALUE"),
    (["--variant", "nope"], "unknown variant 'nope'"),
    (["--format", "pdf"], "'pdf' is not one of"),
])
def test_a_bad_set_variant_or_format_is_a_usage_error_exiting_2(args, message):
    out = rules(str(ROOT / "rulesets" / "pig.yaml"), *args)
    assert out.exit_code == 2, out.output
    assert message in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)


def test_output_writes_the_rulebook_to_a_file(tmp_path):
    target = tmp_path / "pig.html"
    out = rules(str(ROOT / "rulesets" / "pig.yaml"), "--format", "html", "--output", str(target))
    assert out.exit_code == 0, out.output
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    unwritable = rules(str(ROOT / "rulesets" / "pig.yaml"), "--output",
                       str(tmp_path / "no" / "such" / "dir" / "x.md"))
    assert unwritable.exit_code == 2 and "cannot write" in unwritable.output


def test_html_escapes_the_rulesets_text(tmp_path):
    hostile = tmp_path / "hostile.yaml"
    text = (ROOT / "rulesets" / "pig.yaml").read_text()
    text = text.replace("doc: Points a player needs to win.",
                        'doc: "Points <script>alert(1)</script> & more"')
    text = text.replace("name: Pig", 'name: "Pig <b>bold</b>"')
    hostile.write_text(text)
    page = rules(str(hostile), "--format", "html")
    assert page.exit_code == 0, page.output
    assert "<script>" not in page.output and "<b>" not in page.output
    assert "Points &lt;script&gt;alert(1)&lt;/script&gt; &amp; more" in page.output
    assert "<title>Pig &lt;b&gt;bold&lt;/b&gt;: rulebook</title>" in page.output
    # Markdown keeps the text readable but never lets it open an HTML tag.
    md = rules(str(hostile)).output
    assert re.search(r"(?<!\\)<script>", md) is None and "\\<script>" in md


class _Tags(HTMLParser):
    VOID = {"meta", "br", "hr", "img", "link", "input"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.errors.append(tag)


@pytest.mark.parametrize("path", RULESETS, ids=lambda p: p.stem)
def test_the_html_page_is_well_formed_and_its_links_have_targets(path):
    page = rules(str(path), "--format", "html").output
    tags = _Tags()
    tags.feed(page)
    assert not tags.errors and not tags.stack
    ids = set(re.findall(r' id="([^"]+)"', page))
    targets = set(re.findall(r'href="#([^"]+)"', page))
    assert targets <= ids, targets - ids
    assert len(ids) == len(re.findall(r' id="', page))  # anchors are unique


def _book(data: dict, params: dict | None = None) -> str:
    program = SimpleNamespace(data=data, parameters=params or {})
    return rulebook.to_markdown(rulebook.build(program))  # type: ignore[arg-type]


def _game(steps: list) -> dict:
    return {"meeple": 1, "metadata": {"name": "Neutral"}, "players": {"min": 2, "max": 2},
            "flow": {"phases": {"play": {"turns": {"order": "clockwise"}, "do": steps}}}}


def test_every_effect_in_the_registry_renders_from_its_example():
    for effect in fx.EFFECTS_LIST:
        steps = yaml.safe_load(effect.example)
        out = _book(_game(steps))
        section = out.split("On each turn:")[1]
        assert re.search(r"^1\. \S", section.strip(), re.M), (effect.name, section)


def test_an_effect_without_a_sentence_still_renders_from_its_fields(monkeypatch):
    bell = fx.Effect("ring_bell", "Rings a bell.", "times", {
        "times": fx.FieldSpec(fx.EXPR, "How often.", True),
        "loud": fx.FieldSpec(fx.BOOL, "Loudly."),
        "after": fx.FieldSpec(fx.STEPS, "Then."),
    }, "- ring_bell: 2", "time")
    monkeypatch.setitem(fx.EFFECTS, "ring_bell", bell)
    out = _book(_game([{"ring_bell": "rings + 1", "loud": True, "after": ["end_turn"]}]))
    assert "1. **Ring bell** `rings + 1` (loud `true`):" in out
    assert "   After:" in out and "   1. The turn ends at once." in out
    # A field added later to an effect that has a sentence is still shown.
    monkeypatch.setitem(fx.EFFECTS, "roll", fx.Effect(
        "roll", "", "dice", {**fx.EFFECTS["roll"].fields,
                             "colour": fx.FieldSpec(fx.TEXT, "")}, "", "chance"))
    out = _book(_game([{"roll": "die", "colour": "red"}]))
    assert "1. Roll `die` (colour `red`)." in out


def test_every_complete_ruleset_in_the_language_guide_renders():
    guide = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    blocks = [b for b in re.findall(r"```yaml\n(.*?)```", guide, re.S) if b.startswith("meeple: 1")]
    assert blocks
    for block in blocks:
        checked = validate_text(block, "guide.yaml")
        assert checked.ok, [d.message for d in checked.diagnostics]
        data = checked.document.data
        params = {k: v["default"] for k, v in (data.get("parameters") or {}).items()}
        out = _book(data, params)
        assert all(n in out for n in names_a_player_needs(data))


def test_an_option_limit_of_one_written_as_text_reads_once(tmp_path):
    steps = [{"choose": "act", "options": {
        "a": {"label": "Act", "limit": {"times": "1", "per": "turn"}, "do": ["end_turn"]},
        "b": {"label": "Rest", "limit": {"times": 2, "per": "turn"}, "do": ["end_turn"]}}}]
    out = _book(_game(steps))
    assert "“Act” (once per turn)" in out
    assert "“Rest” (at most `2` times per turn)" in out


def test_a_phase_the_flow_comes_back_to_is_not_said_to_be_played_once():
    steps = {"meeple": 1, "metadata": {"name": "Loop"}, "players": {"min": 2, "max": 2},
             "flow": {"phases": {
                 "setup": {"do": ["end_turn"], "next": "bid"},
                 "bid": {"do": ["end_turn"], "next": "act"},
                 "act": {"do": ["end_turn"], "next": [{"if": "true", "to": "tally"},
                                                     {"to": "bid"}]},
                 "tally": {"do": ["end_turn"], "next": "end"}}}}
    out = _book(steps)
    sections = {part.split("\n", 1)[0]: part for part in out.split("### Phase: ")[1:]}
    for phase in ("bid", "act"):  # act goes back to bid: a round of phases
        assert "Each time the game comes to this phase, it is played once." in sections[phase]
    for phase in ("setup", "tally"):
        assert "This phase is played once." in sections[phase]
