"""A leak test for narration (issue 16, part 6): no line of narration, and no view, shown to a
player changes when something hidden from that player changes.

Every shipped ruleset and variant (Liar's Dice among them: dice rolled in hidden cups) is
played by its bots; at every record the game makes, each player's line of narration is
written twice: as the game recorded it, and with everything hidden from that player altered
(the faces of dice in a zone they may not see, the ids of items that went into such a zone).
The two lines must be equal: the line carries nothing the player may not know. The same is
checked for the player's view (hidden dice turned to another face, hidden zones reordered).
Which zone hides what is worked out here from the zones' declarations, not by the code under
test, and the walker is shown to catch a leak when private rolls are turned off.
"""

from __future__ import annotations

import copy

import pytest

from interpreter.engine.chance import SeededChance
from interpreter.engine.game import Game
from interpreter.engine.setup import load, new_game
from interpreter.engine.values import Die, Zone
from interpreter.table.narrate import PUBLIC, Screen, describe
from interpreter.table.views import state_of
from tests.conftest import ROOT, shipped_setups


def hides(zone: Zone | None, viewer) -> bool:
    """Whether `viewer` may not see into `zone`, from its declared visibility and owner."""
    if zone is None:
        return False
    owner, vis = zone.owner, zone.visibility
    mine = owner is not None and (owner is viewer or getattr(viewer, "team", None) is owner)
    return vis == "hidden" or (vis == "owner" and not mine) or (vis == "others" and mine)


def _dice_by_id(game) -> dict[str, Die]:
    out = {}
    for name in (game.program.data.get("components") or {}).get("dice") or {}:
        v = game.env[name]
        for d in v if isinstance(v, list) else [v]:
            out[d.id] = d
    return out


def _other_face(die: Die, face):
    i = die.faces.index(face) if face in die.faces else 0
    return die.faces[(i + 1) % len(die.faces)]


def _items_by_id(game) -> dict:
    cards = {c.id: c for name in (game.program.data.get("components") or {}).get("decks") or {}
             for c in game.env[name]}
    return {**_dice_by_id(game), **cards}


def altered(game, rec: dict, viewer, items: dict, before: dict) -> dict:
    """The record with everything hidden from `viewer` changed: the faces rolled in a zone
    they may not see, and which items moved when the viewer could see them neither where they
    were (`before`: each item's zone at the previous record) nor where they went."""
    out = copy.deepcopy(rec)
    if rec["t"] == "roll":
        out["faces"] = [_other_face(items[i], f) if hides(game.zone_of(items[i]), viewer) else f
                        for i, f in zip(rec["dice"], rec["faces"], strict=True)]
    if rec["t"] in ("move", "deal", "draw"):
        out["items"] = [f"unknown[{k}]" if x in items and hides(before.get(x), viewer)
                        and hides(game.zone_of(items[x]), viewer) else x
                        for k, x in enumerate(rec["items"])]
    return out


def view_altered(game, viewer) -> dict:
    """The viewer's view with hidden dice turned and hidden zones' contents reversed."""
    turned = [(d, d.face) for d in _dice_by_id(game).values()
              if d.face is not None and hides(game.zone_of(d), viewer)]
    zones = [z for p in [*game.players, *game.teams] for z in vars(p).values()
             if isinstance(z, Zone) and hides(z, viewer)]
    zones += [z for z in game.zones.values() if hides(z, viewer)]
    try:
        for d, f in turned:
            d.face = _other_face(d, f)
        for z in zones:
            z.items.reverse()
        return state_of(game, viewer)
    finally:
        for d, f in turned:
            d.face = f
        for z in zones:
            z.items.reverse()


def walk(program, seed: int, players: int | None = None) -> tuple[list[str], int]:
    """Plays one bot game; returns the leaks found and how many hidden things were altered."""
    problems: list[str] = []
    altered_count = 0
    items: dict = {}
    before: dict = {}

    def narrator(game, rec):
        nonlocal altered_count
        if not items:
            items.update(_items_by_id(game))
            before.update((x, game.zone_of(it)) for x, it in items.items())
        for viewer in [*game.players, PUBLIC]:
            other = altered(game, rec, viewer, items, before)
            if other != rec:
                altered_count += 1
            if describe(game, rec, viewer) != describe(game, other, viewer):
                problems.append(f"{viewer.name}: {describe(game, rec, viewer)!r}")
            if rec["t"] in ("roll", "move", "decision") and viewer is not PUBLIC and (
                    state_of(game, viewer) != view_altered(game, viewer)):
                problems.append(f"{viewer.name}'s view after {rec['t']}")
        if rec["t"] in ("move", "deal", "draw"):
            before.update((x, game.zone_of(items[x])) for x in rec["items"] if x in items)

    game = new_game(program, players, None, SeededChance(seed), seed, narrator=narrator)
    game.run()
    return problems, altered_count


@pytest.mark.parametrize(("name", "variant"), shipped_setups())
def test_no_line_of_narration_shows_a_player_what_is_hidden_from_them(name, variant):
    program = load(str(ROOT / "rulesets" / f"{name}.yaml"), variant).program
    for seed in range(2):
        problems, _ = walk(program, seed)
        assert problems == [], f"{name} {variant} seed {seed}: {problems[:3]}"


def test_liars_dice_narration_hides_every_cup_but_ones_own():
    program = load(str(ROOT / "rulesets" / "liars_dice.yaml")).program
    problems, hidden = walk(program, 3, players=4)
    assert problems == []
    assert hidden > 100  # the cups did hide dice: the walk altered them


def test_the_walker_finds_a_leak_when_private_rolls_are_turned_off(monkeypatch):
    monkeypatch.setattr(Game, "private", lambda self, items: None)
    program = load(str(ROOT / "rulesets" / "liars_dice.yaml")).program
    problems, _ = walk(program, 3, players=3)
    assert any("rolls" in p for p in problems)


def test_a_hidden_roll_reads_as_out_of_sight_to_others_and_in_full_to_its_owner():
    program = load(str(ROOT / "rulesets" / "liars_dice.yaml")).program
    seen: list = []

    def narrator(game, rec):
        if rec["t"] == "roll" and not seen:
            seen.append({p.name: describe(game, rec, p) for p in game.players})
            seen.append(rec)

    game = new_game(program, 2, None, SeededChance(5), 5, narrator=narrator)
    game.run()
    lines, rec = seen
    owner = rec["private"][0]["owner"]
    other = next(name for name in lines if name != owner)
    assert lines[other] == f"  {owner} rolls 5 dice in their cup, out of sight"
    assert lines[owner].startswith(f"  {owner} rolls die ") and lines[owner].endswith(
        "in their cup (private)")


def test_in_hot_seat_the_screen_shows_a_hidden_roll_to_its_owner_when_they_take_it():
    program = load(str(ROOT / "rulesets" / "liars_dice.yaml")).program
    shown: list[str] = []
    game = new_game(program, 2, None, SeededChance(5), 5)
    screen = Screen(shown.append, list(game.players))  # two people, nobody holds it yet
    game.narrator = screen.narrate
    first_roll = []

    def narrator(g, rec):
        screen.narrate(g, rec)
        if rec["t"] == "roll" and not first_roll:
            first_roll.append(rec)
            owner = next(p for p in g.players if p.name == rec["private"][0]["owner"])
            assert shown[-1] == describe(g, rec, PUBLIC)  # out of sight on the shared screen
            screen.take(owner)
            assert shown[-1] == describe(g, rec, owner)   # theirs once they hold the screen
    game.narrator = narrator
    game.run()
    assert first_roll
