"""A game at a decision point is written to JSON, read back to the same state, and cloned:
clones go on independently from the same point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load, new_game
from interpreter.table.snapshot import SnapshotError, restore, save

ROOT = Path(__file__).resolve().parents[1]


class Stop(Exception):
    pass


def snapshot_at(program, seed: int, nth: int, players=None) -> tuple[dict, list]:
    """Plays a seeded game and saves it at its nth decision; also returns the full log."""
    full = new_game(program, players, None, SeededChance(seed), seed)
    full.run()
    game = new_game(program, players, None, SeededChance(seed), seed)
    seen = []

    def hook(g, req):
        seen.append(req.id)
        if len(seen) == nth:
            raise Stop(save(g, req))
    game.on_decision = hook
    try:
        game.run()
    except Stop as s:
        return s.args[0], full.log
    raise AssertionError("the game had fewer decisions")


@pytest.mark.parametrize("name,nth", [("pig", 7), ("wreckdivers", 12), ("dice_survivor", 9)])
def test_a_restored_game_goes_on_exactly_as_the_original(name, nth):
    program = load(str(ROOT / "rulesets" / f"{name}.yaml")).program
    saved, full_log = snapshot_at(program, 11, nth)
    text = json.dumps(saved)  # plain data: it survives JSON
    clone = restore(program, json.loads(text))
    clone.run()
    assert clone.log == full_log  # replayed to the decision, then on with the saved generators
    assert saved["position"]["deciding"]["id"]


def test_clones_go_on_independently_from_the_same_point():
    program = load(str(ROOT / "rulesets" / "pig.yaml")).program
    saved, _ = snapshot_at(program, 3, 4)
    cautious = restore(program, saved, controllers={})
    bold = restore(program, saved, controllers={})
    cautious.forced.append("hold")
    bold.forced.append("roll")
    a, b = cautious.run(), bold.run()
    n = len(saved["log"])
    assert cautious.log[:n] == bold.log[:n] == saved["log"]
    assert cautious.log[n]["choice"] == "hold" and bold.log[n]["choice"] == "roll"
    assert a.turns > 0 and b.turns > 0


def test_a_snapshot_of_other_parameters_is_refused():
    program = load(str(ROOT / "rulesets" / "pig.yaml")).program
    saved, _ = snapshot_at(program, 3, 2)
    other = load(str(ROOT / "rulesets" / "pig.yaml"), None, {"goal": "50"}).program
    with pytest.raises(SnapshotError):
        restore(other, saved)


def test_a_tampered_snapshot_is_detected_when_replayed():
    program = load(str(ROOT / "rulesets" / "pig.yaml")).program
    saved, _ = snapshot_at(program, 3, 5)
    saved["state"]["players"][0]["score"] += 1
    with pytest.raises(SnapshotError, match="differs"):
        restore(program, saved).run()
