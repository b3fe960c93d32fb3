"""Drives a shipped ruleset with scripted dice and decisions, for scenario tests.

`play("pig", dice=[3, 1, ...], decisions=["roll", "hold", ...])` runs a whole game (or until
the script ends, with `until_script_ends=True`) and returns the game, whose `log`, `players`,
`env` and `result` the test then checks against the rule text.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from interpreter.engine.asking import ScriptEnded
from interpreter.engine.chance import ChanceError, ScriptedChance
from interpreter.engine.setup import load, new_game

ROOT = Path(__file__).resolve().parents[2]


@lru_cache(maxsize=64)
def program(name: str, variant: str | None = None, sets: tuple = ()):
    return load(str(ROOT / "rulesets" / f"{name}.yaml"), variant, dict(sets)).program


def play(name: str, dice=(), decisions=(), players: int | None = None, variant=None,
         sets: dict | None = None, hazards=(), until_script_ends: bool = False,
         seats: dict | None = None, seed=0, picks=(), orders=()):
    """Plays `name` with these dice faces (in roll order, one per die) and decisions (each an
    option name, a player's name, a number, or {id, choice}). `picks` scripts blind draws from
    bags: one list of item ids per draw, in order, and `orders` shuffles: one list of item ids
    per shuffle, those first (see ScriptedChance). With `until_script_ends`, the game stops
    cleanly where the decisions or the dice run out (game.result is then None)."""
    prog = program(name, variant, tuple(sorted((sets or {}).items())))
    chance = ScriptedChance(list(dice), orders=[list(o) for o in orders],
                            picks=[list(p) for p in picks], hazards=list(hazards))
    game = new_game(prog, players, seats, chance, seed, decisions=list(decisions))
    game.script_only = until_script_ends
    game.result = None
    try:
        game.result = game.run()
    except (ScriptEnded, ChanceError):
        if not until_script_ends:
            raise
    if game.result is not None and game.result.error is not None:
        raise AssertionError(f"the game stopped on a rule error: {game.result.error.message} "
                             f"at {game.result.error.path}")
    return game


def said(game) -> list[str]:
    """The narration lines of a game, in order."""
    return [r["text"] for r in game.log if r["t"] == "say"]


def fired(game) -> list[str]:
    """The triggers that fired, in order."""
    return [r["trigger"] for r in game.log if r["t"] == "trigger"]
