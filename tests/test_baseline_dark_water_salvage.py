"""The hand-written Dark Water Salvage (tests/benchmarks/baseline_dark_water_salvage.py) plays
the game of rulesets/dark_water_salvage.yaml with its default parameters, 4 players and the
policy `sonar_hunter` on every seat, so the benchmark's games/s ratio compares like with like.

Two checks, on the same N_GAMES seeded games of the ruleset, played as `meeple run` plays them,
on the generated code (tests/test_specialize_dark_water_salvage.py holds its games, logs and
counts equal to the reference interpreter's):

- replay: once the wrecks, the chips and the Turn Order cards are drawn, the game has no more
  chance (the policy never falls back to a random pick). Each game's setup is read
  off its log (the dealt Ship cards, the Location and Value cards drawn, the Turn Order cards
  drawn seat by seat, the chips drawn from the bag) and the baseline plays it: it must take
  every decision the ruleset's game took, in the same order, with the same answer, and end with
  the same money, loans, salvaged value, Prestige and winners. This sees any change to the
  rules or the policy that changes one decision in these games;
- statistics: N_BASELINE baseline games drawn from their own random numbers against the
  ruleset's games, figure by figure, within Z = 4 combined standard errors
  (sqrt(se_ruleset^2 + se_baseline^2)); this checks the baseline's own setup (the bag, the
  card draws, the Turn Order deal), which the replay takes from the log.

Sensitivity, measured while writing this file by breaking the baseline one way at a time
(replay: the first game that differs; statistics: the worst |z|, against 2.1 for the faithful
baseline with these seeds, on the winner's net worth):

- research on the wreck with the most candidates instead of the fewest: replay fails at game 0
  (decision 169 of 814); the statistics do not see it (no figure moves past 2.1);
- no depreciation (salvaged value = the Value card's base): replay game 0 (salvaged value; the
  decisions do not change); z 26 (salvaged value), 22 (winner's net worth), 5.8 (in debt);
- no LOCATED Prestige for salvaging a wreck nobody had located: replay game 0; z 17 (Prestige
  of all players), 14 (winning Prestige);
- Locate whenever a pinned-down wreck lies here, not only when its salvage is unaffordable:
  replay game 0; z 77 (locates);
- the round ending after 3 idle stations instead of 4, or the start City chosen without its
  boat hire: replay game 0; the statistics do not see either (worst z 2.1 and 1.7);
- a bag with one $10 chip fewer: the replay cannot see it (its chips come from the log);
  z 31 (loans).

With N_GAMES = 1,000 and 40,000 baseline games every figure agrees within 1.6 SE.

Runtime (one core): about 15 logged games/s on the generated code (7 s; the interpreter plays
about 1.3 a second) and 500 to 1,300 baseline games/s (3 to 8 s).
"""

from __future__ import annotations

import random

import pytest

from interpreter.cli.run_generated import play_generated
from interpreter.compile.specialize import specialize
from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load, new_game, player_count
from tests.agreement import compare, mean_se
from tests.benchmarks import baseline_dark_water_salvage as baseline
from tests.conftest import ROOT

RULESET = str(ROOT / "rulesets" / "dark_water_salvage.yaml")
N_GAMES = 100
N_BASELINE = 4_000
Z = 4  # standard errors; the module docstring says what this can and cannot detect

WATER_IDS = [baseline.CELL_ID[c] for c in baseline.WATER]  # the Location cards, in deck order
FIVE_DOLLAR_CHIPS = 26  # chips[0..25] are the $5 chips of the deck, chips[26..59] the $10


def _index(item: str) -> int:
    """The card's index in its deck, from a log reference like 'ships[7]'."""
    return int(item[item.index("[") + 1:-1])


def setup_and_decisions(log: list[dict]) -> tuple[dict, list[tuple]]:
    """The chance of one game, in the baseline's setup format, and its decisions as
    (decision id, seat from 0, answer)."""
    setup: dict = {"turn_order": [], "chips": []}
    decisions = []
    for rec in log:
        if rec["t"] == "deal" and rec["source"] == "ship_box":
            setup["ships"] = [_index(i) for i in rec["items"]]
        elif rec["t"] == "draw":
            items = [_index(i) for i in rec["items"]]
            if rec["source"] == "location_pile":
                setup["regions"] = [WATER_IDS[i] for i in items]
            elif rec["source"] == "value_pile":
                setup["values"] = items
            elif rec["source"] == "turn_order_pile":
                setup["turn_order"] += [i + 1 for i in items]
            elif rec["source"] == "bag":
                setup["chips"] += [5 if i < FIVE_DOLLAR_CHIPS else 10 for i in items]
        elif rec["t"] == "decision":
            decisions.append((rec["id"], int(rec["by"].rsplit(" ", 1)[1]) - 1, rec["choice"]))
    return setup, decisions


@pytest.fixture(scope="module")
def ruleset_games() -> list[dict]:
    """N_GAMES seeded games: the baseline's result figures, the setup and decisions."""
    program = load(RULESET).program
    players = player_count(program, None)
    assert players == 4
    special = specialize(program, players, logged=True)
    assert special is not None
    games = []
    for i in range(N_GAMES):
        game = new_game(program, players, None, SeededChance(i), i)
        game.narrating = False
        result = play_generated(special, game)
        assert result.error is None, f"game {i}: {result.error.message}"
        assert not game.unruled, f"game {i}: decisions taken at random: {game.unruled}"
        ps = game.players
        chosen = game.chosen
        setup, decisions = setup_and_decisions(game.log)
        games.append({
            "winners": [int(name.rsplit(" ", 1)[1]) - 1 for name in result.winners],
            "money": [p.money for p in ps], "loans": [p.loans for p in ps],
            "salvaged": [p.salvaged for p in ps], "prestige": [p.prestige for p in ps],
            "net": [p.money + p.salvaged - p.loans for p in ps],
            "turn_order": [p.turn_order for p in ps],
            "rounds": game.env["loan_round"],
            "researches": chosen.get(("research_action", "research"), 0),
            "steps": chosen.get(("move_action", "step"), 0),
            "locates": chosen.get(("locate_action", "locate"), 0),
            "salvages": chosen.get(("salvage_action", "salvage"), 0),
            "setup": setup, "decisions": decisions,
        })
    return games


def test_replayed_setups_get_the_rulesets_decisions_and_final_scores(ruleset_games):
    for i, game in enumerate(ruleset_games):
        trace: list = []
        ours = baseline.play(random.Random(i), 4, setup=game["setup"], trace=trace)
        theirs = game["decisions"]
        if trace != theirs:
            k = next((k for k, (a, b) in enumerate(zip(trace, theirs, strict=False)) if a != b),
                     min(len(trace), len(theirs)))
            pytest.fail(f"game {i}: decision {k} of {len(theirs)} differs: ruleset "
                        f"{theirs[k] if k < len(theirs) else 'none'}, baseline "
                        f"{trace[k] if k < len(trace) else 'none'} (after {theirs[max(0, k - 3):k]})")
        for key in ("winners", "money", "loans", "salvaged", "prestige", "turn_order", "rounds",
                    "researches", "steps", "locates", "salvages"):
            assert ours[key] == game[key], f"game {i}: {key} ruleset {game[key]}, baseline {ours[key]}"


def figures(games: list[dict]) -> dict[str, list[float]]:
    """Per-game figures: the outcome, the money and how often each action is taken."""
    def winner(g):
        return g["winners"][0]

    return {
        "winning Prestige": [g["prestige"][winner(g)] for g in games],
        "winner's net worth": [g["net"][winner(g)] for g in games],
        "seat 1 wins": [0 in g["winners"] for g in games],
        "Turn Order card 1 wins": [g["turn_order"][winner(g)] == 1 for g in games],
        "Prestige, all players": [sum(g["prestige"]) for g in games],
        "salvaged value, all players": [sum(g["salvaged"]) for g in games],
        "loans, all players": [sum(g["loans"]) for g in games],
        "final money, all players": [sum(g["money"]) for g in games],
        "players in debt": [sum(x < 0 for x in g["net"]) for g in games],
        "debt (negative net worth), all players": [-sum(x for x in g["net"] if x < 0) for g in games],
        "rounds": [g["rounds"] for g in games],
        "researches": [g["researches"] for g in games],
        "steps": [g["steps"] for g in games],
        "locates": [g["locates"] for g in games],
        "salvages": [g["salvages"] for g in games],
    }


def test_baseline_games_agree_with_the_rulesets_games_within_four_standard_errors(ruleset_games):
    rng = random.Random(2025)
    ours = figures(ruleset_games)
    theirs = figures([baseline.play(rng) for _ in range(N_BASELINE)])
    off, report = compare({k: mean_se([float(x) for x in xs]) for k, xs in ours.items()},
                          {k: mean_se([float(x) for x in xs]) for k, xs in theirs.items()}, Z)
    assert not off, "the baseline and the ruleset disagree:\n" + "\n".join(off + ["", *report])
