"""Phase 6, run (snapshots): a game at a decision point as JSON, read back, and cloned.

Input: a `Game` paused in a decision (a controller, or the `on_decision` hook, calls `save`).
Output: a plain-data snapshot: the game's setup (players, seed, parameters), everything it took
from outside so far (its log: dice, draws, shuffles, hazards, decisions), the state of its
random generators, the flow position (phase, round, turn, current player, the decision asked)
and the whole state (interpreter/table/views.py); for a game started from a position (`run
--from`), that position's file. `restore` builds a new game that replays the log to
exactly that decision and then goes on with its own controllers and the saved generators, so
any number of clones continue from the same point independently.

The engine is deterministic (same program, same inputs, same records), so replaying the inputs
is how a position is rebuilt: the state is never copied object by object, and a restored game is
checked against the saved state before it goes on.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from interpreter.engine.chance import SeededChance, ThenChance
from interpreter.engine.decisions import Request
from interpreter.table.journal import script
from interpreter.table.position import PositionError, apply, check, position_text
from interpreter.table.views import state_of

FORMAT = "meeple-state/1"


class SnapshotError(Exception):
    pass


def save(game, request: Request | None = None) -> dict:
    """The game as plain data, at the decision `request` (not yet answered)."""
    chance = game.chance
    rng = chance.rng.getstate() if isinstance(chance, SeededChance) else None
    return json.loads(json.dumps({
        "format": FORMAT,
        "players": game.players_n,
        "seed": game.seed,
        "parameters": game.program.parameters,
        "position": {"phase": game.phase, "round": game.round, "turn": game.turn,
                     "current": game.current.name,
                     "deciding": None if request is None else
                     {"id": request.id, "player": request.player.name}},
        "log": game.log,
        "hazard_queries": game.hazard_queries,
        "rng": {"chance": _state(rng), "decisions": _state(game.decision_rng.getstate())},
        "state": state_of(game, None),
        # A game started from a position (run --from) is rebuilt from it (its file's text).
        **({"from": game.started_from} if getattr(game, "started_from", None) else {}),
    }, default=str))


def _state(st: Any) -> Any:
    return None if st is None else [st[0], list(st[1]), st[2]]


def _unstate(st: Any) -> Any:
    return None if st is None else (st[0], tuple(st[1]), st[2])


def restore(program, saved: dict, controllers: dict | None = None, narrator=None):
    """A new game that replays `saved` to its decision, then goes on by itself."""
    from interpreter.engine.setup import new_game

    if not isinstance(saved, dict) or saved.get("format") != FORMAT:
        raise SnapshotError(f"not a meeple state (format {FORMAT})")
    if saved["parameters"] != json.loads(json.dumps(program.parameters, default=str)):
        raise SnapshotError("the snapshot was taken with other parameter values")
    records = saved["log"]
    scripted, decisions = script(records)
    # Every hazard query so far is answered as it was (most said "not now"); later ones come
    # from the saved generator.
    queries = saved.get("hazard_queries", 0)
    scripted.hazards = (scripted.hazards + [None] * queries)[:queries]
    after = SeededChance(0)
    if saved["rng"]["chance"] is not None:
        after.rng.setstate(_unstate(saved["rng"]["chance"]))
    chance = ThenChance(scripted, after, queries)
    game = new_game(program, saved["players"], None, chance, saved["seed"],
                    decisions=decisions, narrator=narrator, controllers=controllers)
    if saved.get("from"):
        try:
            doc = position_text(saved["from"]["text"], saved["from"]["path"])
            apply(game, check(doc, game))
        except (PositionError, KeyError, TypeError) as e:
            raise SnapshotError(f"the snapshot's position cannot be used: {e}") from None
    game.decision_rng.setstate(_unstate(saved["rng"]["decisions"]))
    game.expected_state = copy.deepcopy(saved["state"])  # checked when the replay gets there
    game.replay_until = len(records)
    game.check_restored = check_restored
    return game


def check_restored(game) -> None:
    """Called when a restored game reaches the saved decision: the state must be the same."""
    want = getattr(game, "expected_state", None)
    game.check_restored = None
    if want is None:
        return
    got = json.loads(json.dumps(state_of(game, None), default=str))
    game.expected_state = None
    if got != want:
        diff = [k for k in want if got.get(k) != want[k]]
        raise SnapshotError(f"the restored game differs from the snapshot in {', '.join(diff)}")

