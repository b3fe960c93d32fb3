"""The hand-written Shipwrecked! baseline (tests/benchmarks/baseline_shipwrecked.py) plays the
same game as the interpreter running rulesets/shipwrecked.yaml with its defaults, so the
benchmark's games/s ratio compares like with like.

Both draw their own random numbers in their own order, so agreement is statistical: N_INTERP
seeded interpreter games and N_BASE baseline games, and every figure below must agree within
Z = 4 combined standard errors (sqrt(se_a^2 + se_b^2)). Per-game figures use the SE of a mean;
per-race and per-turn figures are ratios over the games (sum of x / sum of races), with the
SE of a ratio estimator (races within one game share an ocean, so they are not independent).

Sensitivity, measured while writing this file by breaking one thing in the baseline at a time
(z: how many combined SEs apart the most affected figure lands; the test fails above 4, and the
correct baseline's worst figure is at 2.3 with these seeds):

- misgrab_rate 0.04 instead of 0.03: z = 12 (misgrabs per sailor grabbed); 0.05: z = 27;
- hand_capacity 7 or 9 instead of 8: z = 26 or 16 (hands of 8 per race);
- grab_latency 1.2 or 0.9 instead of 1.0: z = 24 or 12; grab_rate 1.4 instead of 1.5: z = 15
  (race seconds after the latency per claim of the largest hand);
- the grab preference reversed under sharks (own colour first): z = 27 (eaten per attack); on
  normal turns (enemy colour first): z = 51 (grabbed per race);
- the island tie-break (highest island among equals): z = 47 (sailors on island 5); the island
  score without its tied-or-trailing bonus: z = 30, and the second team copying the first
  team's island: z = 30 (turns both teams swim for the same island);
- a shark limit of 4, or only attacks that eat counting: z = 75 or 41 (shark attacks);
- a criterion of the final ranking reversed (fewer islands, fewer sailors ashore, more sailors
  in the ocean): z = 70, 11, 6 (games won at that stage; the win rates cannot see it, both
  colours gain and lose alike). The last one decides 3 to 4 games in 100, so it is the least
  certain to be caught;
- not detected (z <= 2.4, no figure moves): a misgrab put back with its face kept
  (misgrab_return keep_face; about two sailors a game keep a face they would have rerolled),
  and white always starting (the starting team wins about half the games either way).

Runtime: the interpreter plays about 150 games of Shipwrecked! per second and the baseline
about 8,000, so 1,000 + 10,000 games take about 9 s of CPU.
"""

from __future__ import annotations

import importlib.util
import math
import random

from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load, new_game, player_count
from tests.agreement import compare, mean_se
from tests.conftest import ROOT

RULESET = ROOT / "rulesets" / "shipwrecked.yaml"
BASELINE = ROOT / "tests" / "benchmarks" / "baseline_shipwrecked.py"
N_INTERP = 1000
N_BASE = 10000
Z = 4
# The ruleset's defaults that the race figures below are measured against.
HAND_CAPACITY = 8
GRAB_LATENCY = 1.0


def load_baseline(path=BASELINE):
    spec = importlib.util.spec_from_file_location("baseline_shipwrecked", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def interpreter_games(n: int) -> list[dict]:
    """n seeded games of the ruleset with its defaults, in the baseline's result format."""
    program = load(str(RULESET)).program
    players = player_count(program, None)
    games = []
    for i in range(n):
        game = new_game(program, players, None, SeededChance(i), i)
        game.narrating = False
        misgrabs = [0]
        same = [0]

        def turn_end(g, _player, misgrabs=misgrabs, same=same):
            same[0] += g.teams[0].target == g.teams[1].target
            called = {id(d) for d in g.env["matching"]}
            for claimed in g.env["grab"].values():
                misgrabs[0] += sum(id(d) not in called for d in claimed)
        game.on_turn_end = turn_end
        result = game.run()
        assert result.error is None, result.error.message
        env = game.env
        white, black = game.teams
        winners = env["contenders"]
        ocean = env["ocean"].items
        races = [r for r in game.log if r["t"] == "race"]
        hands = [[len(c) for c in r["claims"].values()] for r in races]
        games.append({
            "winner": winners[0].name if len(winners) == 1 else None,
            "starter": env["starting_team"].name,
            "islands": [white.held, black.held],
            "ashore": [sum(white.on_island), sum(black.on_island)],
            "eaten": [white.eaten, black.eaten],
            "ocean": [sum(d.colour == "white" for d in ocean), sum(d.colour == "black" for d in ocean)],
            "turns": result.turns, "rounds": result.rounds, "sharks": env["sharks_fed"],
            "same_island": same[0],
            "on_island": [list(white.on_island), list(black.on_island)],
            "claims": sum(map(sum, hands)), "misgrabs": misgrabs[0],
            "full_hands": sum(h.count(HAND_CAPACITY) for h in hands),
            "largest_hands": sum(max(h) for h in hands),
            "races_grabbed": sum(1 for h in hands if sum(h)),
            "race_seconds": sum(r["seconds"] for r in races),
            "seconds": result.seconds, "rolls": result.rolls,
        })
    return games


def ratio_se(xs: list[float], ns: list[float]) -> tuple[float, float]:
    """sum(xs) / sum(ns) and its SE, by linearization over the games (the clusters)."""
    g = len(xs)
    r = sum(xs) / sum(ns)
    nbar = sum(ns) / g
    var = sum((x - r * k) ** 2 for x, k in zip(xs, ns, strict=True)) / (g - 1) / g / nbar ** 2
    return r, math.sqrt(var)


def won_on(r: dict, stage: str) -> bool:
    """Whether the game was won (not drawn) at this stage of the tie-break chain, by the
    winner being ahead there: the reversed order of a criterion is seen, unlike in the win
    rates, which are the same for both colours."""
    if r["winner"] is None:
        return False
    won = 0 if r["winner"] == "white" else 1
    lost = 1 - won
    islands, ashore, ocean = r["islands"], r["ashore"], r["ocean"]
    if stage == "islands":
        return islands[won] > islands[lost]
    if stage == "ashore":
        return islands[won] == islands[lost] and ashore[won] > ashore[lost]
    return islands[won] == islands[lost] and ashore[won] == ashore[lost] and ocean[won] < ocean[lost]


def figures(games: list[dict]) -> dict[str, tuple[float, float]]:
    def per_game(f):
        return mean_se([float(f(r)) for r in games])

    def per(f, n):
        return ratio_se([float(f(r)) for r in games], [float(n(r)) for r in games])

    return {
        "white (first team) win rate": per_game(lambda r: r["winner"] == "white"),
        "draw rate": per_game(lambda r: r["winner"] is None),
        "starting team win rate": per_game(lambda r: r["winner"] == r["starter"]),
        "games won on more islands": per_game(lambda r: won_on(r, "islands")),
        "games won on more sailors ashore": per_game(lambda r: won_on(r, "ashore")),
        "games won on fewer sailors in the ocean": per_game(lambda r: won_on(r, "ocean")),
        "islands held, white - black": per_game(lambda r: r["islands"][0] - r["islands"][1]),
        "islands held by white": per_game(lambda r: r["islands"][0]),
        "islands held by nobody": per_game(lambda r: 5 - r["islands"][0] - r["islands"][1]),
        # Islands are interchangeable, so only a figure by island number sees the policy's
        # tie-break (the lowest island among equals).
        "sailors on island 1": per_game(lambda r: r["on_island"][0][0] + r["on_island"][1][0]),
        "sailors on island 5": per_game(lambda r: r["on_island"][0][4] + r["on_island"][1][4]),
        "turns both teams swim for the same island": per(lambda r: r["same_island"],
                                                         lambda r: r["turns"]),
        "sailors ashore, white": per_game(lambda r: r["ashore"][0]),
        "sailors ashore, black": per_game(lambda r: r["ashore"][1]),
        "sailors left in the ocean": per_game(lambda r: sum(r["ocean"])),
        "turns": per_game(lambda r: r["turns"]),
        "rounds": per_game(lambda r: r["rounds"]),
        "shark attacks": per_game(lambda r: r["sharks"]),
        "shark attacks per turn": per(lambda r: r["sharks"], lambda r: r["turns"]),
        "sailors eaten per shark attack": per(lambda r: sum(r["eaten"]), lambda r: r["sharks"]),
        "sailors grabbed per race": per(lambda r: r["claims"], lambda r: r["turns"]),
        "misgrabs per sailor grabbed": per(lambda r: r["misgrabs"], lambda r: r["claims"]),
        f"hands of {HAND_CAPACITY} per race": per(lambda r: r["full_hands"], lambda r: r["turns"]),
        "race seconds per race": per(lambda r: r["race_seconds"], lambda r: r["turns"]),
        # The time after the latency, per claim of the largest hand: the grab rate, with the
        # spread of the number of sailors called taken out.
        "race seconds after the latency per claim of the largest hand": per(
            lambda r: r["race_seconds"] - GRAB_LATENCY * r["races_grabbed"],
            lambda r: r["largest_hands"]),
        "modelled seconds per game": per_game(lambda r: r["seconds"]),
        "rolls per game": per_game(lambda r: r["rolls"]),
    }


def test_baseline_plays_the_same_shipwrecked_as_the_interpreter():
    baseline = load_baseline()
    rng = random.Random(2024)
    base = figures([baseline.play(rng) for _ in range(N_BASE)])
    interp = figures(interpreter_games(N_INTERP))
    off, report = compare(interp, base, Z)
    assert not off, "the baseline plays another game:\n" + "\n".join(off + ["", *report])
