"""The designed view (interpreter/table/view_model.py, drawn by view_text.py): at every
decision of seeded bot games of every shipped ruleset and variant, every seat's view reads in
the game's words, with no engine internal in it; labels, bookkeeping and the `view:` section
shape it; a skill decision's `hides` keeps the answer out of the view while it is asked."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from dsl.view_layout import derived_label, layout
from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load, new_game
from interpreter.table.view_model import skill_hides, view_of
from interpreter.table.view_text import lines, value_text
from tests.test_human_view import person_plays

ROOT = Path(__file__).resolve().parents[1]
RULESETS = sorted(p.stem for p in (ROOT / "rulesets").glob("*.yaml"))
INTERNALS = [
    (re.compile(r"\b(True|False|None)\b"), "a Python constant"),
    (re.compile(r"[\[\]{}]"), "a bracket of a Python list or map"),
    (re.compile(r"<[a-z_.]+|0x[0-9a-f]{4,}"), "a Python repr"),
    (re.compile(r"\b[a-z]+_[a-z_]+\[\d+\]"), "a die's or card's id"),
]


def _declared(data: dict) -> tuple[set[str], set[str]]:
    """Every declared name of state, zones, dice and timers; and those marked bookkeeping."""
    names, kept = set(), set()
    comps = data.get("components") or {}
    for group in [*(comps.get(k) or {} for k in ("zones", "dice", "timers")),
                  *((data.get("state") or {}).values())]:
        for name, spec in (group or {}).items():
            names.add(name)
            if isinstance(spec, dict) and spec.get("bookkeeping"):
                kept.add(name)
    return names, kept


_NAMES: dict[int, tuple] = {}


def _name_patterns(data: dict) -> tuple[re.Pattern | None, re.Pattern | None]:
    """One pattern for the declared names with an underscore (ids: a label says them in
    words), one for the long bookkeeping names; made once per ruleset (a view is read at
    every decision of every game)."""
    got = _NAMES.get(id(data))
    if got is None or got[0] is not data:
        names, kept = _declared(data)
        ids = sorted((x for x in names if "_" in x), key=len, reverse=True)
        books = sorted((x for x in kept if len(x) > 6), key=len, reverse=True)
        got = (data,
               re.compile(r"\b(" + "|".join(map(re.escape, ids)) + r")\b") if ids else None,
               re.compile(r"\b(" + "|".join(map(re.escape, books)) + r")\b", re.IGNORECASE)
               if books else None)
        _NAMES[id(data)] = got
    return got[1], got[2]


def leaks_in(text: str, data: dict, eliminates: bool) -> list[str]:
    """What in a rendered view is an engine internal rather than the game's words."""
    found = [f"{why}: {m.group(0)!r}" for rx, why in INTERNALS for m in [rx.search(text)] if m]
    ids, books = _name_patterns(data)
    found += [f"the id {m!r}" for m in sorted(set(ids.findall(text)))] if ids else []
    found += [f"the bookkeeping name {m!r}" for m in sorted(set(books.findall(text)))] \
        if books else []
    if not eliminates and re.search(r"\beliminated\b|\(out\)|, out\)", text):
        found.append("elimination, in a game that eliminates nobody")
    return found


def _variants(name: str) -> list[str | None]:
    data = load(str(ROOT / "rulesets" / f"{name}.yaml")).program.data
    return [None, *(data.get("variants") or {})]


@pytest.mark.parametrize("name", RULESETS)
def test_no_engine_internal_leaks_into_any_view_of_any_decision(name):
    checked = 0
    for variant in _variants(name):
        program = load(str(ROOT / "rulesets" / f"{name}.yaml"), variant).program
        eliminates = layout(program.data).eliminates
        # Two games of each ruleset, one of each variant: the views of a variant differ from
        # its ruleset's only where the variant changes something.
        for seed in range(2 if variant is None else 1):
            problems: list[str] = []

            def look(game, request, problems=problems, data=program.data, out=eliminates):
                nonlocal checked
                for viewer in game.players:
                    hides = skill_hides(game, request.path) if viewer is request.player \
                        else frozenset()
                    view = view_of(game, viewer, hides)
                    json.dumps(view)  # the view is plain data: the same for every renderer
                    text = "\n".join(lines(view))
                    problems += [f"{viewer.name} at {request.id}: {x}\n{text}"
                                 for x in leaks_in(text, data, out)]
                    checked += 1
            game = new_game(program, None, None, SeededChance(seed), seed)
            game.on_decision = look
            game.run()
            assert problems == [], f"{name} {variant} seed {seed}: {problems[0]}"
    assert checked, "no decision was reached, so no view was checked"


def test_a_name_without_a_label_reads_as_words():
    assert derived_label("turn_total") == "Turn total"
    assert derived_label("pp") == "Pp"


def test_values_are_shown_as_a_player_says_them():
    assert value_text({"kind": "flag", "value": True}) == "yes"
    assert value_text({"kind": "flag", "value": False}) == "no"
    assert value_text({"kind": "none"}) == "none"
    assert value_text({"kind": "list", "items": []}) == "none"
    assert value_text({"kind": "hidden", "count": 5}) == "5 hidden"
    dice = [{"of": "Cup", "face": f} for f in (1, 6, 5)]
    assert value_text({"kind": "dice", "dice": dice}) == "1, 6, 5"
    many = [{"of": "White sailors", "face": 1 + i % 2} for i in range(10)]
    assert value_text({"kind": "dice", "dice": many}) == "10 white sailors (1 ×5, 2 ×5)"
    assert value_text({"kind": "dice", "dice": [{"of": "red", "face": None}]}) == \
        "red, not rolled"


def test_shipwrecked_first_view_reads_in_the_games_words():
    text = "\n".join(person_plays("shipwrecked", [], players=2))
    assert "White captain: " in text and "Ocean: 30 white sailors (" in text
    assert "Shark attacks: 0 of 3" in text
    assert "Team white (yours: Player 1): Swims for island: 0; Sailors on islands 1, 2, 3...: " \
           "0, 0, 0, 0, 0; Sailors ashore: 0; Eaten by sharks: 0" in text
    assert "Player 1 (you): Grabbed sailors: none" in text
    for internal in ("sharks_fed", "starting_team", "matching", "eliminated", "False", "[]"):
        assert internal not in text, internal


def _grab_views(drop_layout: bool) -> tuple[str, str]:
    """Seed 1, Player 1 a person: Player 2 names an island, Player 1 answers "1", the
    captains call, the grab begins. What Player 1 is shown before answering, and then as
    the grab's question is asked."""
    from collections import deque

    from interpreter.table.human import HumanController
    answers, shown = deque(["1"]), []

    class Stop(Exception):
        pass

    def read(prompt, timeout):
        shown.append(prompt)
        if not answers:
            raise Stop
        return answers.popleft()
    program = load(str(ROOT / "rulesets" / "shipwrecked.yaml")).program
    if drop_layout:
        program.data.pop("view")  # the default layout: every value not bookkeeping
    game = new_game(program, 2, None, SeededChance(1), 1,
                    controllers={1: HumanController(read=read, echo=shown.append)})
    try:
        game.run()
    except Stop:
        pass
    assert game.env["matching"], "the captains call some sailors in this game"
    race = next(i for i, s in enumerate(shown) if "Grab!" in s)
    answered = max(i for i, s in enumerate(shown[:race]) if s == "> ")
    return "\n".join(shown[:answered]), "\n".join(shown[answered + 1:race + 1])


def test_the_grab_leaves_spotting_the_called_sailors_to_the_player():
    before, grab = _grab_views(drop_layout=True)
    assert "Called sailors: none" in before  # shown while it is not the answer
    assert "Grab!" in grab and "Called sailors" not in grab
    assert "White captain" in grab  # what the table shows stays in the view


def test_a_skill_decision_hides_its_answer_also_under_a_designed_layout():
    before, grab = _grab_views(drop_layout=False)
    assert "Grab!" in grab and "Called sailors" not in before + grab


NEUTRAL = """\
meeple: 1
metadata: {name: Spot it}
players: {min: 2, max: 2}
parameters:
  goal: {default: 3, min: 1, doc: Points to win.}
components:
  dice:
    pips: {count: 4, in: pool, label: Spotting dice}
  zones:
    pool: {kind: pool, label: The pool}
    hand: {kind: hand, owner: player, visibility: owner}
state:
  global:
    answer: {type: list, initial: [], label: Sixes}
    work_list: {type: list, initial: [], bookkeeping: true}
  player:
    points: {initial: 0, label: Points won}
    ready_now: false
flow:
  phases:
    play:
      turns: {order: clockwise}
      do:
        - roll: pool
        - set: {answer: "[d for d in pool if d.face == 6]"}
        - choose: spot
          options: "[d for d in pool]"
          skill: perception
          hides: [answer]
        - end_game
"""


def _neutral(tmp_path, extra: str = "") -> str:
    path = tmp_path / "spot.yaml"
    path.write_text(NEUTRAL + extra)
    return str(path)


def test_a_default_view_uses_labels_and_leaves_bookkeeping_out(tmp_path):
    program = load(_neutral(tmp_path)).program
    game = new_game(program, 2, None, SeededChance(3), 3)
    game.run()
    text = "\n".join(lines(view_of(game, game.players[0])))
    assert "The pool: " in text and "Sixes: " in text
    assert "Player 1 (you): Hand: none; Points won: 0; Ready now: no" in text
    assert "Player 2: Hand: none" in text  # an empty hidden hand shows nothing to count
    assert "work_list" not in text and "Work list" not in text
    assert "Spotting dice" not in text  # every die lies in the pool: no loose-dice row


def test_a_skill_decision_leaves_its_hidden_values_out_of_the_view_while_it_is_asked(tmp_path):
    program = load(_neutral(tmp_path)).program
    seen = {}

    def look(game, request):
        hides = skill_hides(game, request.path)
        seen["asked"] = "\n".join(lines(view_of(game, request.player, hides)))
        seen["other"] = "\n".join(lines(view_of(game, game.players[1])))
    game = new_game(program, 2, None, SeededChance(3), 3)
    game.on_decision = look
    game.run()
    assert skill_hides(game, ()) == frozenset()
    assert "Sixes" not in seen["asked"] and "The pool" in seen["asked"]
    assert "Sixes" in seen["other"]  # only the view of the decision being answered


def test_a_designed_view_orders_sections_and_fills_texts_and_counts(tmp_path):
    layout_text = """\
view:
  sections:
    - title: Table
      show: [pool, {label: Goal, text: "{goal} points"}]
  player: [{label: In hand, count: hand}, points]
"""
    program = load(_neutral(tmp_path, layout_text)).program
    game = new_game(program, 2, None, SeededChance(3), 3)
    game.run()
    shown = lines(view_of(game, game.players[0]))
    assert shown[1].startswith("Table: The pool: ") and shown[1].endswith("; Goal: 3 points")
    assert shown[2:] == ["Player 1 (you): In hand: 0; Points won: 0",
                         "Player 2: In hand: 0; Points won: 0"]


def test_a_view_naming_what_it_cannot_show_is_refused_with_a_suggestion():
    from dsl import validate_text
    bad = NEUTRAL.replace("hides: [answer]", "hides: [answr]") + """\
view:
  sections:
    - {title: Table, show: [pol, points, {label: Goal, text: "{gaol} and {goal + 1}"}]}
  player: [pointz, {label: X, count: nothing}]
"""
    diags = validate_text(bad, "t.yaml").diagnostics
    messages = [(d.code, d.message) for d in diags]
    assert ("unknown-reference", "'hides' names 'answr', which no view shows (did you mean "
            "'answer'?)") in messages
    assert any("cannot show 'pol'" in m and "did you mean 'pool'" in m for _, m in messages)
    assert any("cannot show 'points' here" in m for _, m in messages)
    assert any("cannot show 'gaol'" in m and "did you mean 'goal'" in m for _, m in messages)
    assert any(c == "schema" and "'{goal + 1}' is not a name" in m for c, m in messages)
    assert any("cannot show 'pointz'" in m for _, m in messages)
    assert any("cannot count 'nothing'" in m for _, m in messages)
    assert all(d.span is not None and d.span.line > 0 for d in diags)


def test_the_leak_check_finds_ids_bookkeeping_names_and_python_values():
    data = {"state": {"global": {"turn_total": {"type": "int"},
                                 "contenders": {"type": "list", "bookkeeping": True}},
                      "player": {"score": {"type": "int"}}}}
    assert leaks_in("Turn total: 3; Score: 4", data, True) == []
    found = leaks_in("turn_total: 3; Contenders: Player 1; sharks: True", data, True)
    assert found == ["a Python constant: 'True'", "the id 'turn_total'",
                     "the bookkeeping name 'Contenders'"]
