"""Dark Water Salvage end games started from a position (`meeple run --from`): every player's
Prestige, money, loans and salvage set in the game's words, played to the end and scored.

The expected outcome is computed here from the rule text's own words (seed 003, "TO WIN THE
GAME"), not from the ruleset: each player's net is money plus TOTAL SALVAGED VALUE minus the
loans taken; a negative net is In Debt; the winner is the player with the most Prestige who is
not In Debt, and if every player is In Debt, the player with the most Prestige.
"""

from __future__ import annotations

import json
import textwrap

from click.testing import CliRunner

from interpreter.cli.main import main
from tests.scenarios.play import ROOT, program

RULESET = str(ROOT / "rulesets" / "dark_water_salvage.yaml")
DECKS = program("dark_water_salvage").data["components"]["decks"]
VALUES = {c["name"]: c for c in DECKS["values"]["cards"]}
SHIPS = {c["name"]: c for c in DECKS["ships"]["cards"]}


def play_from(tmp_path, text: str, *args: str) -> dict:
    path = tmp_path / "position.yaml"
    path.write_text(textwrap.dedent(text))
    out = CliRunner().invoke(main, ["run", RULESET, "--from", str(path), "--json", *args])
    assert out.exit_code == 0, out.output
    return json.loads(out.output)


def by_the_rules(players: dict) -> tuple[list[str], dict[str, int]]:
    """The winner by the rule text and each player's net, from their Prestige, money,
    salvaged value and loans."""
    net = {name: p["money"] + p["salvaged"] - p["loans"] for name, p in players.items()}
    solvent = [name for name in players if net[name] >= 0] or list(players)
    best = max(players[name]["prestige"] for name in solvent)
    return [name for name in solvent if players[name]["prestige"] == best], net


FINAL_TALLY = """\
    # The last round is over: the table adds up Prestige and net worth.
    phase: final_tally
    round: 7
    state: {loan_round: 7, last_round: true}
    players:
      Player 1: {prestige: 14, money: 3, loans: 80, salvaged: 95}
      Player 2: {prestige: 19, money: 0, loans: 95, salvaged: 60}
      Player 3: {prestige: 11, money: 12, loans: 70, salvaged: 61}
      Player 4: {prestige: 16, money: 5, loans: 90, salvaged: 84}
    zones:
      salvaged_ships: [Kestrel, Lake Sovereign, Amber Gull, Cold Current, Gray Heron]
    """


def test_the_most_prestige_not_in_debt_wins_an_end_game_set_from_a_position(tmp_path):
    result = play_from(tmp_path, FINAL_TALLY)
    given = result["position"]["players"]
    winners, net = by_the_rules(given)
    # Player 2 has the most Prestige but owes more than they hold (net -35): In Debt.
    assert net == {"Player 1": 18, "Player 2": -35, "Player 3": 3, "Player 4": -1}
    assert winners == ["Player 1"] and result["winners"] == winners
    seats = {s["name"]: s for s in result["seats"]}
    assert {n: s["score"] for n, s in seats.items()} == {n: p["prestige"]
                                                         for n, p in given.items()}
    assert {n: s["eligible"] for n, s in seats.items()} == {n: net[n] >= 0 for n in net}
    assert seats["Player 1"]["placement"] == 1 and seats["Player 3"]["placement"] == 2
    assert result["position"]["zones"]["salvaged_ships"] == [
        "Kestrel", "Lake Sovereign", "Amber Gull", "Cold Current", "Gray Heron"]


def test_when_every_player_is_in_debt_the_most_prestige_wins(tmp_path):
    result = play_from(tmp_path, FINAL_TALLY.replace("money: 12, loans: 70", "money: 2, loans: 70")
                       .replace("money: 3, loans: 80", "money: 3, loans: 99"))
    winners, net = by_the_rules(result["position"]["players"])
    assert all(n < 0 for n in net.values())
    assert winners == ["Player 2"] and result["winners"] == ["Player 2"]


LAST_ROUND = """\
    # The last round is about to begin; three Shipwrecks are left. Player 1's notes pin
    # Kestrel down to B1; nobody else knows where it lies.
    phase: start_cities
    round: 7
    state:
      loan_round: 7
      last_round: true
      located: [Amber Gull]
      wreck_region: {Kestrel: B1, Iron Duchess: H5, Amber Gull: F3}
      wreck_value: {Kestrel: {card: V10}, Iron Duchess: {card: V02}, Amber Gull: {card: V05}}
      public_region: {Amber Gull: F3}
    zones:
      wrecks: [Kestrel, Iron Duchess, Amber Gull]
      salvaged_ships: [Lake Sovereign, Juniper Queen]
    players:
      Player 1: {prestige: 10, money: 12, loans: 90, salvaged: 70, turn_order: 1,
                 notes: {Kestrel: [B1]}}
      Player 2: {prestige: 16, money: 4, loans: 80, salvaged: 60, turn_order: 2}
      Player 3: {prestige: 9, money: 0, loans: 75, salvaged: 90, turn_order: 3}
      Player 4: {prestige: 12, money: 2, loans: 40, salvaged: 20, turn_order: 4}
    """


def test_the_last_round_played_on_from_a_position_ends_scored_by_the_rules(tmp_path):
    result = play_from(tmp_path, LAST_ROUND, "--seed", "2")
    final = result["position"]
    players = final["players"]
    # Player 1 salvaged Kestrel at B1 (DWS-R32..R35): the Value card V10's value for B1, the
    # SALVAGED Prestige, and the LOCATED Prestige too, as nobody had located it.
    kestrel = SHIPS["Kestrel"]
    assert final["zones"]["salvaged_ships"] == ["Lake Sovereign", "Juniper Queen", "Kestrel"]
    assert players["Player 1"]["salvaged"] == 70 + VALUES["V10"]["salvaged_value"]["B1"]
    assert players["Player 1"]["prestige"] == (10 + kestrel["located_prestige"]
                                               + kestrel["salvaged_prestige"])
    assert final["state"]["located"] == ["Amber Gull", "Kestrel"]
    # Money only goes down in the last round (no loans), and never below zero.
    start = {"Player 1": 12, "Player 2": 4, "Player 3": 0, "Player 4": 2}
    assert all(0 <= players[n]["money"] <= start[n] for n in start)
    assert final["phase"] == "end" and final["state"]["loan_round"] == 7
    winners, net = by_the_rules(players)
    assert result["winners"] == winners == ["Player 1"]
    assert {s["name"]: s["score"] for s in result["seats"]} == {
        n: p["prestige"] for n, p in players.items()}
    assert {s["name"]: s["eligible"] for s in result["seats"]} == {n: v >= 0
                                                                   for n, v in net.items()}
