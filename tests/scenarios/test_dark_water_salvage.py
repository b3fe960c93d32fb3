"""Dark Water Salvage, rule by rule (rulesets/dark_water_salvage.yaml), with scripted draws,
shuffles and decisions.

Rule ids DWS-Rn (rules) and DWS-An (resolved gaps) are those of research/seeds-analysis.md,
section 4. Every expected outcome below is worked out by hand from the rule text (and, for the
content the text leaves out, from the placeholder map, costs and cards the ruleset declares as
invented), then checked against the real state of the game: money, loans, Prestige, positions,
notes, the log and the narration.

The placeholder map P-9x5 (DWS-A1): columns A..I west to east, rows 1..5 north to south.
Cities Westport A1 (boat hire $2), Missaukee D1 ($3), Northport G1 ($2), Eastport I2 ($3),
Southport D5 ($4); Features The Shoal F2, The Drop-off H3, The Ravine E4; depth by row
(1-2 Shallow, 3 Medium, 4-5 Deep), salvage cost by depth ($2, $4, $6).

Scripting. Setup shuffles four piles, in order: the Ship cards (left as they are, so the
Shipwrecks are the ships in deck order, Amber Gull first), the Location cards (the first twelve
go to the twelve ships in that order), the Value cards (likewise) and the Turn Order cards
(dealt to the seats in order); `wrecks=`, `values=` and `turn_order=` below script them. Each
round's loan draw takes chips from the bag: unscripted, the first ones put in, so the $5 chips
before the $10 chips (2 players: $20, $20, $20, $20, $35, $40, $40, then the last two chips,
$20). A decision with a single legal option is taken without the script.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from interpreter.cli.main import main
from interpreter.engine.asking import ScriptEnded
from interpreter.engine.chance import ChanceError, SeededChance, TableChance
from interpreter.engine.setup import SetupError, new_game
from interpreter.table.journal import script
from interpreter.table.narrate import describe
from interpreter.table.views import state_of
from tests.scenarios.play import ROOT, play, program, said

NAME = "dark_water_salvage"
PROG = program(NAME)
DECKS = PROG.data["components"]["decks"]
SHIPS = [c["name"] for c in DECKS["ships"]["cards"]]
LOCATIONS = [c["region"] for c in DECKS["locations"]["cards"]]
VALUES = {c["name"]: c for c in DECKS["values"]["cards"]}
P1, P2, P3, P4, P5 = (f"Player {i}" for i in range(1, 6))

# The map, written out again from the rule text and the invented placeholder (DWS-A1..A3).
COLUMNS = "ABCDEFGHI"
CITIES = {"A1": ("Westport", 2), "D1": ("Missaukee", 3), "G1": ("Northport", 2),
          "I2": ("Eastport", 3), "D5": ("Southport", 4)}
FEATURES = {"F2": "The Shoal", "H3": "The Drop-off", "E4": "The Ravine"}
DEPTH = {1: "Shallow", 2: "Shallow", 3: "Medium", 4: "Deep", 5: "Deep"}
WATER = [f"{c}{r}" for r in range(1, 6) for c in COLUMNS
         if f"{c}{r}" not in CITIES and f"{c}{r}" not in FEATURES]


def compass(origin: str, target: str) -> str:
    """DWS-R21 as the text says it: N/S/E/W when the wreck is in the same column or row, else
    the diagonal quadrant (rows grow southward, columns eastward)."""
    r1, c1 = int(origin[1:]), COLUMNS.index(origin[0])
    r2, c2 = int(target[1:]), COLUMNS.index(target[0])
    return ("N" if r2 < r1 else "S" if r2 > r1 else "") + ("W" if c2 < c1 else "E" if c2 > c1 else "")


def consistent(finding: list, cell: str) -> bool:
    """Whether a wreck in `cell` agrees with one finding [ship, what, region, answer]."""
    _, what, region, answer = finding
    if what == "direction":
        return compass(region, cell) == answer
    if what == "depth":
        return (DEPTH[int(cell[1:])] == DEPTH[int(region[1:])]) == (answer == "Y")
    if what == "here":
        return cell == region
    if what == "not_here":
        return cell != region
    return what == "rumored_value"  # a value range says nothing about where it lies


def candidates(findings: list, ship: str) -> list[str]:
    return [c for c in WATER if all(consistent(f, c) for f in findings if f[0] == ship)]


def dws(decisions=(), players=2, wrecks=None, values=None, turn_order=None, picks=(),
        sets=None, variant=None, until_script_ends=True):
    """A game with these Shipwrecks ({ship: region}; the other ships lie in the first unused
    regions of the Location deck), Value cards ({ship: 'V03'}; default V01.. in ship order) and
    first Turn Order cards (one per seat; default 1..N). It stops cleanly where the decisions
    run out unless `until_script_ends` is False."""
    wrecks = dict(wrecks or {})
    spare = iter(r for r in LOCATIONS if r not in wrecks.values())
    regions = [wrecks.get(s) or next(spare) for s in SHIPS]
    values = dict(values or {})
    spare_v = iter(v for v in VALUES if v not in values.values())
    cards = [values.get(s) or next(spare_v) for s in SHIPS]
    n = players
    orders = [[], [f"locations[{LOCATIONS.index(r)}]" for r in regions],
              [f"values[{list(VALUES).index(v)}]" for v in cards]]
    # The Turn Order cards are dealt as blind draws, one per seat, before any chip is drawn.
    dealt = [[f"turn_order_cards[{k - 1}]"] for k in (turn_order or range(1, n + 1))]
    return play(NAME, decisions=list(decisions), players=players, orders=orders,
                picks=[*dealt, *picks],
                sets={k: str(v) for k, v in (sets or {}).items()}, variant=variant,
                until_script_ends=until_script_ends)


def legal_at(decisions=(), **kw) -> tuple[str, str, list[str]]:
    """(decision id, who decides, legal options) where the script ends: the game is given an
    answer that nothing accepts, and the error names what was legal."""
    with pytest.raises(AssertionError) as err:
        dws([*decisions, "?"], **kw)
    m = re.search(r"answers '\?' to '(\w+)' \((.+?)\), which is not legal now; legal: (.*) at \(",
                  str(err.value))
    assert m, str(err.value)
    return m.group(1), m.group(2), m.group(3).split(", ")


# -- decision scripts ---------------------------------------------------------------------------

def d(did: str, choice) -> dict:
    return {"id": did, "choice": choice}


def apply(*amounts) -> list:
    return [d("application", a) for a in amounts]


def start(*cities) -> list:
    return [d("city_choice", c) for c in cities]


def research(ship: str, sonar: str | None = None) -> list:
    """One Research; `sonar` only where there is a choice of card (in a City)."""
    return [d("research_action", "research"), d("research_ship", ship)] + (
        [d("sonar", sonar)] if sonar else [])


def steps(*regions) -> list:
    out = []
    for r in regions:
        out += [d("move_action", "step"), d("move_to", r)]
    return out


def locate(ship: str) -> list:
    return [d("locate_action", "locate"), d("locate_ship", ship)]


def salvage(ship: str) -> list:
    return [d("salvage_action", "salvage"), d("salvage_ship", ship)]


def passes(station: str) -> dict:
    return d(f"{station}_action", "pass")


def done(station: str = "research") -> dict:
    return d(f"{station}_action", "done")


def quiet_rounds(rounds: int, players: int = 2, amount: int = 10, cities=("Westport", "Missaukee")):
    """Rounds in which everyone applies for `amount`, starts in `cities` and is done at once."""
    out = []
    for _ in range(rounds):
        out += apply(*[amount] * players) + start(*cities[:players]) + [done()] * players
    return out


def player(game, name: str):
    return next(p for p in game.players if p.name == name)


def records(game, kind: str, **match) -> list[dict]:
    return [r for r in game.log if r["t"] == kind and all(r.get(k) == v for k, v in match.items())]


def decisions_of(game, did: str) -> list[tuple[str, object]]:
    return [(r["by"], r["choice"]) for r in records(game, "decision", id=did)]


def stations(game) -> list[str]:
    return [t.removeprefix("The Action token stands on ") for t in said(game)
            if t.startswith("The Action token stands on ")]


def private(game) -> list[tuple[str, list]]:
    return [(r["text"], r["to"]) for r in records(game, "say") if "to" in r]


# -- setup: DWS-R1..R5 --------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_dws_r1_two_to_five_players(n):
    """DWS-R1: the game is for 2 to 5 players (Turn Order cards 1-5, a bag for each count)."""
    game = dws(players=n)
    assert [p.name for p in game.players] == [f"Player {i}" for i in range(1, n + 1)]


@pytest.mark.parametrize("n", [1, 6])
def test_dws_r1_fewer_than_two_or_more_than_five_are_refused(n):
    """DWS-R1: one player, or six, is not a game of Dark Water Salvage."""
    with pytest.raises(SetupError, match="2 to 5 players"):
        new_game(PROG, n, None, SeededChance(0), 0)


def test_dws_r2_twelve_shipwrecks_each_of_a_ship_a_location_and_a_value_card():
    """DWS-R2: twelve Shipwrecks are built from the shuffled Location, Value and Ship decks: a
    Location card face down, a Value card face down and a Ship card face up on each."""
    game = dws(wrecks={"Kestrel": "F4", "Amber Gull": "B3"}, values={"Kestrel": "V12"})
    assert [s.name for s in game.zones["wrecks"].items] == SHIPS
    region, value = game.env["wreck_region"], game.env["wreck_value"]
    assert region["Kestrel"] == "F4" and region["Amber Gull"] == "B3"
    assert value["Kestrel"].name == "V12"
    # Twelve different regions, all in open water, and twelve different Value cards.
    assert sorted(region) == sorted(SHIPS) and len(set(region.values())) == 12
    assert set(region.values()) <= set(WATER)
    assert len({v.name for v in value.values()}) == 12
    # Face down: nobody's view shows a Location or Value card; the Ship cards are face up.
    for viewer in game.players:
        view = state_of(game, viewer)
        assert view["state"]["wreck_region"] == "hidden"
        assert view["state"]["wreck_value"] == "hidden"
        assert view["zones"]["location_pile"]["items"] == "hidden"
        assert view["zones"]["value_pile"]["items"] == "hidden"
        assert len(view["zones"]["wrecks"]) == 12
    # The Location deck has one card for each of the 37 open-water regions (DWS-A4).
    assert sorted(LOCATIONS) == sorted(WATER) and len(WATER) == 37


@pytest.mark.parametrize(("n", "fives", "tens"), [(2, 17, 13), (3, 20, 20), (4, 23, 27), (5, 26, 34)])
def test_dws_r3_the_draw_bag_holds_the_chips_for_the_player_count(n, fives, tens):
    """DWS-R3: the draw bag holds 17/13, 20/20, 23/27 or 26/34 $5/$10 chips for 2..5 players."""
    game = dws(players=n)
    assert f"The draw bag holds {fives} $5 chips and {tens} $10 chips" in said(game)
    # Round 1 has drawn 2N chips: the $5 chips first when unscripted.
    bag = game.zones["bag"].items
    assert len(bag) == fives + tens - 2 * n
    assert sum(c.value == 5 for c in bag) == fives - 2 * n
    assert game.env["pool"] == 5 * 2 * n


def test_dws_r4_chips_make_change_so_any_whole_dollar_can_be_collected():
    """DWS-R4: chips may be changed for equal value at any time: an Application of $7 from a
    pool of four $5 chips collects $7, and the other player the $13 left."""
    game = dws(apply(7, 20))
    assert [p.money for p in game.players] == [7, 13]
    assert [p.loans for p in game.players] == [7, 13]


def test_dws_r5_turn_order_cards_1_to_n_are_dealt_at_random():
    """DWS-R5: the Turn Order cards 1..N (only those) are dealt at random, one to each: each
    player's card is a blind draw from the face-down pile."""
    game = dws(players=3, turn_order=[3, 1, 2])
    assert [p.turn_order for p in game.players] == [3, 1, 2]
    assert said(game)[1:4] == ["Player 1 holds Turn Order card 3", "Player 2 holds Turn Order card 1",
                               "Player 3 holds Turn Order card 2"]
    deals = records(game, "draw", source="turn_order_pile")
    assert [(d["items"], d["blind"]) for d in deals] == [
        (["turn_order_cards[2]"], True), (["turn_order_cards[0]"], True),
        (["turn_order_cards[1]"], True)]
    with pytest.raises(ChanceError, match="not there to draw"):
        dws(players=3, turn_order=[4, 1, 2], until_script_ends=False)  # 4 is unused with three


def test_dws_a10_players_start_with_no_money():
    """DWS-A10: the text names no starting money; all money comes from loans."""
    game = dws()
    assert [(p.money, p.loans, p.prestige, p.salvaged) for p in game.players] == [(0, 0, 0, 0)] * 2


# -- loans: DWS-R6..R13 -------------------------------------------------------------------------

def test_dws_r6_each_round_2n_chips_are_drawn_into_the_loan_pool():
    """DWS-R6: each round 2 x players chips are drawn at random from the bag: the loan pool."""
    # Three players: six chips, scripted as two $10 and four $5: $40.
    drawn = ["chips[26]", "chips[40]", "chips[0]", "chips[5]", "chips[17]", "chips[19]"]
    game = dws(players=3, picks=[drawn])
    draw = records(game, "draw", source="bag")[0]
    assert sorted(draw["items"]) == sorted(drawn)
    assert game.env["pool"] == 40
    assert ("Round 1: Player 1 draws chips; the GLNS offers $40 in loans, 34 chips remain in "
            "the bag (16 x $5, 18 x $10)") in said(game)
    assert game.env["last_round"] is False


def test_dws_r6_a_different_player_draws_the_chips_each_round():
    """DWS-R6: each round a different player should draw the chips (narrated only: who draws
    changes nothing)."""
    game = dws(quiet_rounds(2) + apply(10, 10))
    drawers = [t.split(": ")[1].split(" draws")[0] for t in said(game) if t.startswith("Round ")]
    assert drawers == [P1, P2, P1]


def test_dws_r7_a_short_draw_takes_what_is_left_and_is_the_last_round():
    """DWS-R7, DWS-A5 (short_draw_is_last): with fewer than 2N chips left, all are drawn and
    that round is the last. Two players: 30 chips, 4 a round: round 8 draws the last 2."""
    game = dws(quiet_rounds(8), until_script_ends=False)
    pools = [int(t.split("offers $")[1].split(" ")[0]) for t in said(game) if t.startswith("Round ")]
    assert pools == [20, 20, 20, 20, 35, 40, 40, 20]  # $5 chips first, then $10 chips: $215
    assert [len(r["items"]) for r in records(game, "draw", source="bag")] == [4] * 7 + [2]
    assert game.env["loan_round"] == 8 and game.env["last_round"] is True
    assert len(game.zones["bag"].items) == 0
    assert "(last round)" in [t for t in said(game) if t.startswith("Round 8:")][0]
    assert not any("(last round)" in t for t in said(game) if t.startswith("Round 7:"))
    assert game.result is not None and game.result.reason == "the flow reached its end"
    assert [p.loans for p in game.players] == [80, 80]


@pytest.mark.parametrize(("n", "rule", "rounds"), [
    (2, "short_draw_is_last", 8), (3, "short_draw_is_last", 7), (4, "short_draw_is_last", 7),
    (5, "short_draw_is_last", 7), (2, "extra_round_after_last_chip", 9),
    (3, "extra_round_after_last_chip", 8), (4, "extra_round_after_last_chip", 8),
    (5, "extra_round_after_last_chip", 7)])
def test_dws_a5_the_number_of_rounds_by_player_count_and_last_round_rule(n, rule, rounds):
    """DWS-A5, DWS-R37: a short draw is the last round (2p 8 rounds, 3-5p 7), or one more round
    is played after the last chip is pulled (2p 9, 3p 8, 4p 8, 5p 7: 60 chips empty the bag
    on a full draw in round 6, so round 7 is the extra one either way)."""
    cities = ("Westport", "Missaukee", "Northport", "Eastport", "Southport")
    # With five players the fifth has one City left, taken without asking.
    per_round = apply(*[1] * n) + start(*cities[:min(n, 4)]) + [done()] * n
    game = dws(per_round * rounds, players=n, sets={"final_round_rule": rule},
               until_script_ends=False)
    assert game.result is not None and game.result.error is None
    assert game.env["loan_round"] == rounds
    bag_total = {2: 215, 3: 300, 4: 385, 5: 470}[n]
    pools = [int(t.split("offers $")[1].split(" ")[0]) for t in said(game) if t.startswith("Round ")]
    assert sum(pools) == bag_total
    if rule == "extra_round_after_last_chip" and n < 5:
        assert pools[-1] == 0 and pools[-2] > 0  # the extra round offers nothing


def test_dws_a5_the_extra_round_variant_plays_one_round_after_the_last_chip():
    """DWS-A5: the variant extra_round is final_round_rule=extra_round_after_last_chip: two
    players pull the last chip in round 8 and play round 9 with an empty pool."""
    game = dws(quiet_rounds(9), variant="extra_round", until_script_ends=False)
    assert game.env["loan_round"] == 9
    assert "Round 9: Player 1 draws chips; the GLNS offers $0 in loans, 0 chips remain in the bag " \
           "(0 x $5, 0 x $10) (last round)" in said(game)


def test_dws_r8_applications_are_sealed_and_revealed_together():
    """DWS-R8: everyone writes an Application in secret; all are revealed together."""
    game = dws(apply(15, 5))
    revealed = records(game, "revealed", id="application")
    assert revealed == [{"t": "revealed", "id": "application", "choices": {P1: 15, P2: 5}}]
    # Both decided before the reveal, and nobody's amount was applied before it.
    log = game.log
    at = log.index(revealed[0])
    assert [r["by"] for r in log[:at] if r["t"] == "decision"] == [P1, P2]
    assert not any(r["t"] == "say" and "applies for" in r["text"] for r in log[:at])
    assert [t for t in said(game) if "applies for" in t] == ["Player 1 applies for $15",
                                                             "Player 2 applies for $5"]


def test_dws_r8_the_second_applicant_cannot_see_the_first_application():
    """DWS-R8, DWS-P3: while Player 2 writes their Application, their view of the game shows
    nothing of Player 1's."""
    seen = {}

    def look(game, req):
        if req.id == "application" and req.player.name == P2:
            seen["view"] = state_of(game, req.player)
            seen["env"] = game.env["application"]
    game = new_game(PROG, 2, None, SeededChance(3), 3, decisions=apply(17, 4))
    game.on_decision = look
    game.script_only = True
    with pytest.raises(ScriptEnded):  # the script ends at the first City
        game.run()
    assert seen["env"] is None  # the sealed choice is not in the state before the reveal
    assert [p["applied"] for p in seen["view"]["players"]] == [0, 0]
    assert "17" not in json.dumps(seen["view"]["players"])


def test_dws_r8_narration_does_not_tell_the_second_applicant_the_first_application():
    """DWS-R8: until all are revealed, no line shown to Player 2 may say what Player 1
    applied for."""
    game = dws(apply(17, 4))
    log = game.log
    second = next(i for i, r in enumerate(log) if r["t"] == "decision" and r["by"] == P2)
    lines = [describe(game, r, player(game, P2)) for r in log[:second]]
    assert not any(line and "Player 1 chooses" in line for line in lines)
    assert f"  {P1} decides (sealed)" in lines
    assert describe(game, log[second - 1], player(game, P1)) == f"  {P1} chooses application: 17"


def test_dws_r9_loans_are_collected_lowest_application_first_ties_by_turn_order():
    """DWS-R9: players collect from the lowest Application to the highest; equal Applications
    collect in Turn Order (the lower card first)."""
    # Cards: Player 1 holds 3, Player 2 holds 1, Player 3 holds 2. Applications 10, 20, 10:
    # Player 3 (10, card 2), then Player 1 (10, card 3), then Player 2 (20).
    game = dws(apply(10, 20, 10), players=3, turn_order=[3, 1, 2])
    assert [t for t in said(game) if " collects " in t] == [
        "Player 3 collects $10 (loans $10) and takes Turn Order card 1",
        "Player 1 collects $10 (loans $10) and takes Turn Order card 2",
        "Player 2 collects $10 (loans $10) and takes Turn Order card 3"]


def test_dws_r10_each_collects_what_is_left_up_to_the_application():
    """DWS-R10: each takes their Application, or what is left of the pool: the highest
    applicant may get part of it, or nothing."""
    # Pool $30 (six $5 chips). Applications 30, 30, 5: Player 3 takes 5, Player 1 (card 1)
    # the 25 left of its 30, Player 2 nothing.
    game = dws(apply(30, 30, 5), players=3)
    assert [p.collected for p in game.players] == [25, 0, 5]
    assert [p.money for p in game.players] == [25, 0, 5]
    assert "Player 2 collects $0 (loans $0) and takes Turn Order card 3" in said(game)


def test_dws_r11_the_loan_total_grows_by_what_was_collected_not_what_was_applied_for():
    """DWS-R11: the amount collected, not the Application, is added to the running loans."""
    game = dws(quiet_rounds(1, amount=10) + apply(40, 5))
    # Round 1: 10 each. Round 2 ($20): Player 2 takes 5, Player 1 the 15 left of its 40.
    assert [p.applied for p in game.players] == [40, 5]
    assert [p.loans for p in game.players] == [25, 15]


def test_dws_r12_what_is_left_of_the_pool_goes_to_the_stock():
    """DWS-R12: money nobody collected goes to the stock, not to the next round's pool."""
    game = dws(quiet_rounds(1, amount=5) + apply(5, 5))
    # Round 1: $20 offered, $10 collected; round 2 offers a fresh $20, not $30.
    pools = [int(t.split("offers $")[1].split(" ")[0]) for t in said(game) if t.startswith("Round ")]
    assert pools == [20, 20]
    assert game.env["pool"] == 0
    assert [p.loans for p in game.players] == [10, 10]


def test_dws_r13_turn_order_cards_are_redealt_in_collection_order():
    """DWS-R13, DWS-A12: the first to collect takes card 1, and so on; a player who collected
    nothing still takes the card of their place in the collection order."""
    game = dws(apply(25, 20, 0), players=3)
    # Collection order: Player 3 (0), Player 2 (20), Player 1 (25; gets the 10 left).
    assert [p.turn_order for p in game.players] == [3, 2, 1]
    assert [p.collected for p in game.players] == [10, 20, 0]
    # Start Cities are then chosen in the new order: Player 3 first.
    assert legal_at(apply(25, 20, 0), players=3)[:2] == ("city_choice", P3)


def test_dws_a11_an_application_above_the_pool_sorts_last_and_takes_the_rest():
    """DWS-A11: Applications are whole dollars from 0, with no upper bound."""
    game = dws(apply(1000, 0))
    assert [p.collected for p in game.players] == [20, 0]
    assert [p.turn_order for p in game.players] == [2, 1]
    with pytest.raises(AssertionError, match="legal: 0..1000000000"):
        dws(apply(-1))


# -- start cities and the action loop: DWS-R14..R18 ---------------------------------------------

# Two players apply for $10 each (round 1 offers $20): Player 1 keeps card 1.
OPEN = apply(10, 10) + start("Westport", "Missaukee")


def test_dws_r14_pawns_start_on_a_free_city_in_turn_order():
    """DWS-R14: in Turn Order each player puts their pawn on a City; one pawn per City."""
    assert legal_at(apply(10, 10)) == ("city_choice", P1, ["Westport", "Missaukee", "Northport",
                                                            "Eastport", "Southport"])
    assert legal_at(apply(10, 10) + start("Westport")) == (
        "city_choice", P2, ["Missaukee", "Northport", "Eastport", "Southport"])
    game = dws(OPEN)
    assert [(p.position.id, p.start_city.id) for p in game.players] == [("A1", "A1"), ("D1", "D1")]
    assert "Player 1 starts at Westport (A1)" in said(game)


def test_dws_r14_with_five_players_the_last_takes_the_last_free_city():
    """DWS-R14, DWS-A28: five Cities for at most five players; the last player takes the one
    left."""
    game = dws(apply(1, 2, 3, 4, 5) + start("Southport", "Eastport", "Northport", "Missaukee"),
               players=5)
    assert player(game, P5).position.name == "Westport"
    assert decisions_of(game, "city_choice")[-1] == (P5, "Westport")
    assert records(game, "decision", id="city_choice", by=P5)[0]["only"] is True


def test_dws_r15_the_action_token_starts_on_research_and_goes_round_the_loop():
    """DWS-R15, DWS-A6: the token starts on RESEARCH and moves clockwise (RESEARCH, MOVE,
    LOCATE, SALVAGE) once everyone has acted or passed; DWS-A8: a whole trip in which nobody
    acts ends the phase."""
    round1 = OPEN + [passes("research"), passes("research"),
                     *steps("B1"), passes("move"), passes("move"),
                     passes("locate"), passes("locate"),
                     passes("salvage"),  # Player 2 is in a City: no Salvage, not asked
                     passes("research"), passes("research"),
                     passes("move"), passes("move")]
    game = dws(round1 + apply(10, 10) + start("Westport", "Missaukee"))
    # Round 1: someone acted at MOVE, so the token goes round once more and stops after four
    # idle stations (LOCATE, SALVAGE, RESEARCH, MOVE). Round 2 starts on RESEARCH again.
    assert stations(game) == ["RESEARCH", "MOVE", "LOCATE", "SALVAGE", "RESEARCH", "MOVE", "RESEARCH"]
    assert game.env["loan_round"] == 2


def test_dws_r16_passing_an_action_does_not_drop_a_player_out():
    """DWS-R16: a player who passes at one station may still act at a later one."""
    game = dws(OPEN + [passes("research"), passes("research"), *steps("B1"), passes("move")])
    assert player(game, P1).position.id == "B1"
    assert decisions_of(game, "research_action") == [(P1, "pass"), (P2, "pass")]


def test_dws_a8_a_player_who_is_done_is_not_asked_again_this_round():
    """DWS-A8: "done" is irrevocable for the round; the phase ends when everyone is done."""
    # Player 1 is done at once; Player 2 passes everywhere (a City has no Salvage), so after
    # one idle trip the round is over.
    game = dws(OPEN + [done(), passes("research"), passes("move"), passes("locate")] + apply(10, 10))
    assert decisions_of(game, "research_action") == [(P1, "done"), (P2, "pass")]
    assert decisions_of(game, "move_action") == [(P2, "pass")]
    assert decisions_of(game, "locate_action") == [(P2, "pass")]
    assert game.env["loan_round"] == 2
    # Everyone done at once: the token never leaves RESEARCH.
    quiet = dws(quiet_rounds(1) + apply(10, 10))
    assert stations(quiet) == ["RESEARCH"]


def test_dws_a8_the_loop_is_capped_at_max_loop_cycles_trips():
    """DWS-A8 batch cap: at most max_loop_cycles trips of the token in one round."""
    acting = OPEN + [*research("Kestrel", "direction"), passes("research"), done(),
                     *steps("B1"), passes("move"), passes("locate"), passes("salvage")]
    game = dws(acting + apply(10, 10), sets={"max_loop_cycles": 1})
    assert stations(game) == ["RESEARCH", "MOVE", "LOCATE", "SALVAGE"]
    assert game.env["loan_round"] == 2
    # By default the token would have gone on to RESEARCH, where Player 1 is asked again.
    assert legal_at(acting)[:2] == ("research_action", P1)


def test_dws_r36_the_round_ends_when_all_are_done_and_pawns_leave_the_board():
    """DWS-R36: once nobody wants to act, the pawns are collected and a new round begins."""
    game = dws(quiet_rounds(1) + apply(10, 10))
    assert game.env["loan_round"] == 2
    assert [p.position for p in game.players] == [None, None]
    assert [p.start_city for p in game.players] == [None, None]


def test_dws_r17_what_is_researched_is_public_and_the_result_private():
    """DWS-R17: which sonar card a player uses on which ship is known to all; the result only
    to that player."""
    game = dws(apply(10, 10) + start("Missaukee", "Westport") + research("Kestrel", "direction"),
               wrecks={"Kestrel": "B3"})
    public = [r["text"] for r in records(game, "say") if "to" not in r]
    assert "Player 1 researches Kestrel with the Missaukee sonar card at D1" in public
    assert private(game) == [("Sonar from Missaukee: Kestrel lies SW", [P1])]
    assert not any("SW" in t for t in public)
    assert describe(game, records(game, "say", text="Sonar from Missaukee: Kestrel lies SW")[0],
                    player(game, P2)) is None
    assert decisions_of(game, "research_ship") == [(P1, "Kestrel")]  # public, as the rule says


def test_dws_r17_move_is_taken_strictly_in_turn_order():
    """DWS-R17, DWS-A9: MOVE is done in Turn Order (the other stations resolve in Turn Order
    too: two pawns never share a region, so the order changes nothing there)."""
    # Player 2 applies less, collects first and holds card 1.
    game = dws(apply(15, 5) + start("Northport", "Westport") + [passes("research")] * 2 +
               [*steps("H1"), passes("move"), *steps("B1"), passes("move")])
    assert decisions_of(game, "research_action") == [(P2, "pass"), (P1, "pass")]
    assert [who for who, _ in decisions_of(game, "move_to")] == [P2, P1]


def test_dws_r18_every_action_is_paid_from_the_players_chips_to_the_stock():
    """DWS-R18: each action's cost leaves the player's chips for the stock; nobody gets it."""
    game = dws(OPEN + research("Kestrel", "direction") + [passes("research"), passes("research"),
                                                          *steps("B1")])
    # Research $1; boat hire at Westport $2 and one step $1.
    assert [p.money for p in game.players] == [10 - 1 - 2 - 1, 10]
    assert [p.loans for p in game.players] == [10, 10]
    assert game.env["pool"] == 0


# -- research: DWS-R19..R24 ---------------------------------------------------------------------

AT_MISSAUKEE = apply(10, 10) + start("Missaukee", "Westport")


def test_dws_r19_one_research_is_one_sonar_card_on_one_ship_for_one_dollar():
    """DWS-R19: a Research costs $1 and applies one sonar card to one chosen Shipwreck; the
    player records the result secretly."""
    game = dws(AT_MISSAUKEE + research("Kestrel", "direction"), wrecks={"Kestrel": "B3"})
    p1 = player(game, P1)
    assert p1.money == 9
    assert p1.findings == [["Kestrel", "direction", "D1", "SW"]]
    assert list(p1.notes) == ["Kestrel"]
    assert player(game, P2).findings == [] and player(game, P2).notes == {}


def test_dws_r20_the_sonar_cards_allowed_depend_on_the_region():
    """DWS-R20, DWS-R24: in a City, that City's card or the Rumored Value card; on a Feature,
    that Feature's card; in open water, the card of the region's depth. Row and Column cards
    are never offered for Research."""
    city = legal_at(AT_MISSAUKEE + [d("research_action", "research"), d("research_ship", "Kestrel")])
    assert city == ("sonar", P1, ["direction", "rumored_value"])
    # On a Feature (The Ravine) and in open water (B1) there is one card: taken without asking.
    game = dws(RAVINE + research("Kestrel"))
    assert records(game, "decision", id="sonar") == [
        {"t": "decision", "id": "sonar", "by": P1, "choice": "direction", "only": True}]
    game = dws(AT_B1 + research("Kestrel"))
    assert records(game, "decision", id="sonar") == [
        {"t": "decision", "id": "sonar", "by": P1, "choice": "depth", "only": True}]
    sonar = PROG.data["procedures"]["research"]["do"][2]["options"]
    assert set(sonar) == {"direction", "depth", "rumored_value"}


def test_dws_r21_the_rulebook_example_missaukee_southwest_leaves_twelve_regions():
    """DWS-R21, DWS-A17: researched from the starting City at the first station, "SW" from
    Missaukee leaves the 12 regions west of column D and south of row 1."""
    game = dws(AT_MISSAUKEE + research("Kestrel", "direction"), wrecks={"Kestrel": "B3"})
    assert sorted(player(game, P1).notes["Kestrel"]) == sorted(
        ["A2", "B2", "C2", "A3", "B3", "C3", "A4", "B4", "C4", "A5", "B5", "C5"])


# Player 2 applies for nothing (and is never asked to act); Player 1 ($20) starts at Southport,
# hires a boat ($4) and moves to E5 and The Ravine E4 ($2): $14 left.
RAVINE = (apply(20, 0) + start("Westport", "Southport") + [passes("research"), *steps("E5", "E4"),
                                                            passes("move"), passes("locate")])


def test_dws_r21_the_rulebook_examples_at_the_ravine_east_and_southeast():
    """DWS-R21: from The Ravine, "E" leaves the four regions east in its row, F4-I4; "SE" the
    four regions south-east excluding its row and column, F5-I5."""
    game = dws(RAVINE + research("Kestrel") + research("Lake Sovereign") + research("Amber Gull"),
               wrecks={"Kestrel": "G4", "Lake Sovereign": "I5", "Amber Gull": "E1"})
    p1 = player(game, P1)
    assert p1.position.name == "The Ravine" and p1.money == 14 - 3
    assert sorted(p1.notes["Kestrel"]) == ["F4", "G4", "H4", "I4"]
    assert sorted(p1.notes["Lake Sovereign"]) == ["F5", "G5", "H5", "I5"]
    # "N": the same column, north: E1, E2, E3 (E4 is the Ravine itself).
    assert sorted(p1.notes["Amber Gull"]) == ["E1", "E2", "E3"]
    assert [t for t, _ in private(game)] == ["Sonar from The Ravine: Kestrel lies E",
                                            "Sonar from The Ravine: Lake Sovereign lies SE",
                                            "Sonar from The Ravine: Amber Gull lies N"]


@pytest.mark.parametrize("wreck", ["B1", "C2", "A5", "E5", "F1", "I5", "C3", "D4", "H4"])
def test_dws_r21_a_direction_keeps_exactly_the_regions_in_that_direction(wreck):
    """DWS-R21, DWS-A19: the direction is from the researched region to the wreck's region;
    the player's notes keep every open-water region with the same answer, and the wreck's
    own region is always among them."""
    game = dws(AT_MISSAUKEE + research("Kestrel", "direction"), wrecks={"Kestrel": wreck})
    answer = compass("D1", wreck)
    assert private(game) == [(f"Sonar from Missaukee: Kestrel lies {answer}", [P1])]
    notes = player(game, P1).notes["Kestrel"]
    assert sorted(notes) == sorted(c for c in WATER if compass("D1", c) == answer)
    assert wreck in notes


# Player 1 ($10) starts at Westport and moves to B1 (Shallow open water): boat $2 + $1.
AT_B1 = OPEN + [passes("research"), passes("research"), *steps("B1"), passes("move"),
                passes("move"), passes("locate"), passes("locate"), passes("salvage")]


def test_dws_r22_a_depth_card_answers_yes_or_no_for_the_wrecks_depth():
    """DWS-R22, DWS-A18: the depth card says Y when the wreck lies at that depth, anywhere on
    the map, else N (so an N in Shallow water means Medium or Deep)."""
    game = dws(AT_B1 + research("Amber Gull") + research("Bright Harbor"),
               wrecks={"Amber Gull": "H2", "Bright Harbor": "D4"})
    p1 = player(game, P1)
    assert [t for t, _ in private(game)] == ["Shallow water sonar on Amber Gull: Y",
                                            "Shallow water sonar on Bright Harbor: N"]
    shallow = [c for c in WATER if int(c[1]) <= 2]
    assert len(shallow) == 13 and sorted(p1.notes["Amber Gull"]) == sorted(shallow)
    assert sorted(p1.notes["Bright Harbor"]) == sorted(c for c in WATER if int(c[1]) >= 3)
    assert p1.money == 7 - 2


def test_dws_r23_the_rumored_value_card_gives_the_value_cards_range():
    """DWS-R23: in a City, the Rumored Value card shows the range printed on the wreck's Value
    card (an estimate of its value before it sank), privately; it says nothing about where."""
    game = dws(AT_MISSAUKEE + research("Kestrel", "rumored_value"), values={"Kestrel": "V03"})
    p1 = player(game, P1)
    assert p1.rumors == {"Kestrel": [70, 100]}  # the rulebook's "70-100"
    assert p1.findings == [["Kestrel", "rumored_value", "D1", "70-100"]]
    assert len(p1.notes["Kestrel"]) == 37
    assert private(game) == [("Rumored value of Kestrel: 70-100", [P1])]
    assert "Player 1 researches Kestrel with the Rumored Value sonar card at D1" in said(game)


def test_dws_r23_salvaged_values_are_below_the_initial_value_and_shallow_wrecks_lose_most():
    """DWS-R23 (the invented Value cards, DWS-A4): the true value is below the value the ship
    sailed with; shallow wrecks depreciate more than medium ones, medium more than deep."""
    for card in VALUES.values():
        base = card["base"]
        assert (card["rumored_low"], card["rumored_high"]) == (base - 10, base + 20)
        by_depth = {"Shallow": [], "Medium": [], "Deep": []}
        for region, value in card["salvaged_value"].items():
            assert value < base
            by_depth[DEPTH[int(region[1])]].append(value)
        assert max(by_depth["Shallow"]) < min(by_depth["Medium"])
        assert max(by_depth["Medium"]) < min(by_depth["Deep"])
        assert sorted(card["salvaged_value"]) == sorted(WATER)


def test_dws_a26_any_shipwreck_in_play_may_be_researched_from_anywhere():
    """DWS-A26: the player names any Shipwreck still in play; only the kind of card depends on
    where the pawn stands."""
    assert legal_at(AT_B1 + [d("research_action", "research")]) == ("research_ship", P1, SHIPS)


def test_dws_a7_a_player_may_research_many_times_at_one_station():
    """DWS-A7: at a station a player may act any number of times, paying each time."""
    game = dws(AT_MISSAUKEE + research("Kestrel", "direction") + research("Amber Gull", "direction")
               + research("Kestrel", "rumored_value") + [passes("research")])
    assert player(game, P1).money == 10 - 3
    assert [f[:2] for f in player(game, P1).findings] == [
        ["Kestrel", "direction"], ["Amber Gull", "direction"], ["Kestrel", "rumored_value"]]
    assert decisions_of(game, "research_action")[-1] == (P1, "pass")


def test_dws_a20_an_action_that_cannot_be_paid_is_not_offered():
    """DWS-A20: money never goes negative; a player who cannot pay for the action of the
    station is passed over without being asked."""
    # Player 2 collects nothing (card 1, Westport); Player 1 collects $1 (Missaukee) and
    # researches once. Then nobody can pay for anything: the token goes round idle and the
    # next question is round 2's Application.
    script_ = apply(1, 0) + start("Westport", "Missaukee") + research("Kestrel", "direction")
    game = dws(script_)
    assert decisions_of(game, "research_action") == [(P1, "research")]
    assert [p.money for p in game.players] == [0, 0]
    assert legal_at(script_) == ("application", P1, ["0..1000000000"])


# -- move: DWS-R25..R27 -------------------------------------------------------------------------

def test_dws_r25_leaving_the_starting_city_first_costs_its_boat_hire_once_a_round():
    """DWS-R25, DWS-A16: the first step away from the starting City costs that City's boat
    hire plus $1; later steps that round cost $1 only; next round the hire is paid again."""
    # Player 1 ($20) starts at Southport ($4): D5 -> E5 -> E4 costs 4 + 1 + 1.
    game = dws(RAVINE)
    assert player(game, P1).money == 20 - 6
    assert player(game, P1).boat_hired is True
    assert [t for t in said(game) if "hires a boat" in t] == ["Player 1 hires a boat at Southport for $4"]
    # At the next MOVE station the same round, one more step costs $1.
    game = dws(RAVINE + [passes("research"), *steps("F4")])
    assert player(game, P1).money == 14 - 1
    assert len([t for t in said(game) if "hires a boat" in t]) == 1


def test_dws_r25_the_boat_is_hired_again_in_a_new_round():
    """DWS-R25: the hire is per round: next round the pawn starts in a City again and pays
    that City's hire to leave it."""
    round1 = OPEN + [passes("research"), passes("research"), *steps("B1"), passes("move"),
                     passes("move"), done("locate"), done("locate")]
    game = dws(round1 + apply(10, 10) + start("Northport", "Westport") + [passes("research")] * 2
               + steps("F1"))
    assert player(game, P1).money == (10 - 3) + 10 - (2 + 1)
    assert [t for t in said(game) if "hires a boat" in t] == [
        "Player 1 hires a boat at Westport for $2", "Player 1 hires a boat at Northport for $2"]


def test_dws_a16_moving_onto_another_city_needs_no_new_hire_and_staying_costs_nothing():
    """DWS-A16: the hire is paid to leave the round's starting City only; a player who never
    moves pays nothing."""
    game = dws(apply(20, 10) + start("Northport", "Westport") + [passes("research")] * 2
               + [passes("move"), *steps("B1", "C1", "D1", "D2")])
    # Player 2 (card 1) stays at Northport; Player 1 passes Missaukee without hiring there.
    assert player(game, P2).money == 10
    assert player(game, P1).money == 10 - 2 - 4
    assert "Player 1 moves to D1 (Missaukee)" in said(game)  # a City: no depth told
    assert [t for t in said(game) if "hires a boat" in t] == ["Player 1 hires a boat at Westport for $2"]


def test_dws_r26_moves_go_one_region_north_south_east_or_west():
    """DWS-R26: each step goes to an orthogonally adjacent region; never diagonally."""
    assert legal_at(AT_MISSAUKEE + [passes("research"), passes("research"),
                                    d("move_action", "step")]) == ("move_to", P1, ["E1", "D2", "C1"])
    assert legal_at(RAVINE + [passes("research"), d("move_action", "step")]) == (
        "move_to", P1, ["E3", "F4", "E5", "D4"])


def test_dws_r27_a_pawn_may_not_enter_an_occupied_region():
    """DWS-R27: players block each other: a region with another pawn cannot be entered."""
    # Player 2 (card 1) goes from Missaukee to B1; Player 1, at Westport, can then only go to
    # A2: one option, taken without asking.
    game = dws(apply(20, 10) + start("Missaukee", "Westport") + [passes("research")] * 2
               + [*steps("C1", "B1"), passes("move"), d("move_action", "step")])
    assert player(game, P1).position.id == "A2"
    assert records(game, "decision", id="move_to", by=P1) == [
        {"t": "decision", "id": "move_to", "by": P1, "choice": "A2", "only": True}]


def test_dws_r27_a_boxed_in_pawn_is_not_asked_to_move():
    """DWS-R27, DWS-A20: a pawn whose every neighbouring region is occupied cannot move."""
    # Pool $30; Applications 30, 10, 15: Player 2 (card 1) collects 10, Player 3 (card 2) 15,
    # Player 1 (card 3) the last 5. Player 2 moves Missaukee -> C1 -> B1, Player 3 Southport ->
    # C5 -> B5 -> A5 -> A4 -> A3 -> A2: Player 1 at Westport A1 is boxed in.
    script_ = (apply(30, 10, 15) + start("Missaukee", "Southport", "Westport")
               + [passes("research")] * 3 + steps("C1", "B1") + [passes("move")]
               + steps("C5", "B5", "A5", "A4", "A3", "A2") + [passes("move")])
    game = dws(script_, players=3)
    assert [p.money for p in game.players] == [5, 10 - 3 - 2, 15 - 4 - 6]
    assert [who for who, _ in decisions_of(game, "move_action")].count(P1) == 0
    # The next question is the LOCATE station's, to Player 2: Player 1 was passed over.
    assert legal_at(script_, players=3)[:2] == ("locate_action", P2)


# -- locate: DWS-R28..R31 -----------------------------------------------------------------------

def test_dws_r28_r30_a_correct_locate_shows_the_region_and_scores_ship_located():
    """DWS-R28: Locate costs $3 and names a ship said to lie in the pawn's region. DWS-R30: if
    right, the region is shown to everyone and the first locator scores SHIP LOCATED."""
    game = dws(AT_B1[:-3] + locate("Amber Gull"), wrecks={"Amber Gull": "B1"})
    p1, p2 = game.players
    assert p1.money == 7 - 3
    assert p1.prestige == 1  # Amber Gull: SHIP LOCATED 1
    assert game.env["located"] == ["Amber Gull"]
    assert game.env["public_region"] == {"Amber Gull": "B1"}
    assert p2.notes["Amber Gull"] == ["B1"] and p1.notes["Amber Gull"] == ["B1"]
    public = [r["text"] for r in records(game, "say") if "to" not in r]
    assert "Player 1 tries to locate Amber Gull in B1" in public
    assert "Player 1 located Amber Gull in B1: 1 Prestige" in public
    assert len(game.zones["wrecks"].items) == 12  # a located wreck stays in play


def test_dws_r29_the_locator_privately_sees_the_rumored_value_window():
    """DWS-R29, DWS-R30: the locator looks at the region name and the value range in the
    window; the region is shown to all with the value window covered."""
    game = dws(AT_B1[:-3] + locate("Amber Gull"), wrecks={"Amber Gull": "B1"},
               values={"Amber Gull": "V05"})
    assert player(game, P1).rumors == {"Amber Gull": [90, 120]}
    assert player(game, P2).rumors == {}
    assert private(game) == [("You see the rumored value of Amber Gull in the window: 90-120", [P1])]
    assert not any("90-120" in r["text"] for r in records(game, "say") if "to" not in r)


def test_dws_a15_locating_an_already_located_ship_earns_nothing():
    """DWS-R30, DWS-A15: only the first to locate a ship scores; a later Locate of it is
    allowed, costs $3 and earns nothing."""
    game = dws(AT_B1[:-3] + locate("Amber Gull") + locate("Amber Gull"), wrecks={"Amber Gull": "B1"})
    assert player(game, P1).prestige == 1
    assert player(game, P1).money == 7 - 6
    assert "Amber Gull lies in B1, as already known" in said(game)


def test_dws_r31_a_wrong_locate_bars_the_player_from_that_ship():
    """DWS-R31, DWS-A14: if wrong, the player may never again Locate or Salvage that ship. He
    saw its true region (and value range) on the card; everyone learns it is not in his."""
    wrecks = {"Bright Harbor": "C1"}
    wrong = AT_B1[:-3] + locate("Bright Harbor")
    game = dws(wrong, wrecks=wrecks, values={"Bright Harbor": "V02"})
    p1, p2 = game.players
    assert p1.money == 7 - 3 and p1.prestige == 0
    assert p1.barred == ["Bright Harbor"]
    assert game.env["located"] == [] and game.env["public_region"] == {}
    assert p1.notes["Bright Harbor"] == ["C1"]
    assert p1.rumors == {"Bright Harbor": [60, 90]}
    assert sorted(p2.notes["Bright Harbor"]) == sorted(c for c in WATER if c != "B1")
    assert "Player 1 is wrong: Bright Harbor is not in B1; Player 1 may not try it again" in said(game)
    assert private(game) == [("You saw that Bright Harbor lies in C1 (rumored 60-90)", [P1])]
    # Neither Locate nor Salvage offers Bright Harbor to Player 1 again.
    _, _, ships = legal_at(wrong + [d("locate_action", "locate")], wrecks=wrecks)
    assert ships == [s for s in SHIPS if s != "Bright Harbor"]
    _, _, ships = legal_at(wrong + [passes("locate"), passes("locate"), d("salvage_action", "salvage")],
                           wrecks=wrecks)
    assert ships == [s for s in SHIPS if s != "Bright Harbor"]


def test_dws_r28_a_locate_is_checked_against_the_pawns_region_only():
    """DWS-R28: the check is against where the pawn stands: a ship one region away is wrong,
    even when the player's notes are right."""
    game = dws(AT_B1[:-3] + locate("Amber Gull"), wrecks={"Amber Gull": "B2"})
    assert player(game, P1).barred == ["Amber Gull"] and player(game, P1).prestige == 0


# -- salvage: DWS-R32..R35 ----------------------------------------------------------------------

def test_dws_r32_r33_r34_a_correct_salvage_pays_its_value_and_both_prestiges():
    """DWS-R32: Salvage costs the salvage icon of the region ($2 in Shallow water). DWS-R33:
    done right, the true salvaged value is shown to all and added to TOTAL SALVAGED VALUE.
    DWS-R34: SHIP SALVAGED Prestige, plus SHIP LOCATED as nobody had located it."""
    game = dws(AT_B1[:-1] + salvage("Amber Gull"), wrecks={"Amber Gull": "B1"},
               values={"Amber Gull": "V01"})
    p1 = player(game, P1)
    assert p1.money == 7 - 2
    assert p1.salvaged == VALUES["V01"]["salvaged_value"]["B1"] == 29
    assert p1.prestige == 1 + 3
    assert game.env["located"] == ["Amber Gull"]
    public = [r["text"] for r in records(game, "say") if "to" not in r]
    assert ("Amber Gull is salvaged: worth $29; Player 1 gains 3 Prestige (total salvaged $29, "
            "Prestige 4)") in public


@pytest.mark.parametrize(("route", "region", "cost"), [
    (("Westport", ["A2", "A3"]), "A3", 4),       # Medium
    (("Southport", ["D4"]), "D4", 6),             # Deep
])
def test_dws_r32_the_salvage_cost_is_the_icon_of_the_region(route, region, cost):
    """DWS-R32, DWS-A3: the salvage icon is $4 in Medium water and $6 in Deep water."""
    city, path = route
    hire = {"Westport": 2, "Southport": 4}[city]
    script_ = (apply(20, 0) + start("Missaukee", city) + [passes("research"), *steps(*path),
                                                           passes("move"), passes("locate")]
               + salvage("Kestrel"))
    game = dws(script_, wrecks={"Kestrel": region}, values={"Kestrel": "V12"})
    p1 = player(game, P1)
    assert p1.money == 20 - hire - len(path) - cost
    assert p1.salvaged == VALUES["V12"]["salvaged_value"][region]
    assert p1.prestige == 5 + 8  # Kestrel: LOCATED 5, SALVAGED 8


def test_dws_r32_no_salvage_in_a_city_or_on_a_feature():
    """DWS-A3: no wreck lies in a City or a Feature: Salvage is not offered there."""
    # At The Ravine with $14, after passing LOCATE the token goes to SALVAGE (nobody asked)
    # and on to RESEARCH.
    assert legal_at(RAVINE)[:2] == ("research_action", P1)
    game = dws(AT_MISSAUKEE + [passes("research")] * 2 + [passes("move")] * 2 + [passes("locate")] * 2)
    assert decisions_of(game, "salvage_action") == []


def test_dws_r34_salvaging_a_ship_someone_else_located_pays_only_ship_salvaged():
    """DWS-R34: SHIP LOCATED goes only to the first locator; the salvager gets SHIP SALVAGED."""
    round1 = AT_B1[:-3] + locate("Amber Gull") + [done("locate"), done("locate")]
    round2 = (apply(10, 10) + start("Northport", "Westport") + [passes("research")] * 2
              + [passes("move"), *steps("B1"), passes("move"), passes("locate"), passes("locate")]
              + salvage("Amber Gull"))
    game = dws(round1 + round2, wrecks={"Amber Gull": "B1"}, values={"Amber Gull": "V01"})
    p1, p2 = game.players
    assert p1.prestige == 1 and p2.prestige == 3
    assert p2.salvaged == 29 and p1.salvaged == 0


def test_dws_r35_a_salvaged_shipwreck_leaves_play():
    """DWS-R35: the salvaged Shipwreck is discarded: it can no longer be researched, located or
    salvaged."""
    script_ = AT_B1[:-1] + salvage("Amber Gull")
    game = dws(script_, wrecks={"Amber Gull": "B1"})
    assert [s.name for s in game.zones["salvaged_ships"].items] == ["Amber Gull"]
    assert [s.name for s in game.zones["wrecks"].items] == SHIPS[1:]
    _, _, ships = legal_at(script_ + [passes("salvage"), d("research_action", "research")],
                           wrecks={"Amber Gull": "B1"})
    assert ships == SHIPS[1:]


def test_dws_a13_a_wrong_salvage_is_paid_and_bars_the_player():
    """DWS-A13: a Salvage follows the sequence of a Locate: wrong, it still costs the icon and
    bars the player from that ship."""
    game = dws(AT_B1[:-1] + salvage("Bright Harbor"), wrecks={"Bright Harbor": "C1"})
    p1 = player(game, P1)
    assert p1.money == 7 - 2 and p1.salvaged == 0 and p1.prestige == 0
    assert p1.barred == ["Bright Harbor"]
    assert len(game.zones["wrecks"].items) == 12
    assert "Player 1 is wrong: Bright Harbor is not in B1; Player 1 may not try it again" in said(game)


# -- the end: DWS-R37..R39 ----------------------------------------------------------------------

def final(game) -> list[str]:
    return [t for t in said(game) if "Prestige; money $" in t]


def test_dws_r38_r39_the_most_prestige_not_in_debt_wins():
    """DWS-R38: net = money + TOTAL SALVAGED VALUE - loans; below zero is In Debt. DWS-R39: the
    player with the most Prestige who is not In Debt wins."""
    # Round 1: Player 1 goes to B1 ($3) and locates Amber Gull ($3): 1 Prestige, $6 spent and
    # nothing salvaged. Then seven quiet rounds of $10 loans each.
    round1 = OPEN + [passes("research"), done(), *steps("B1"), passes("move"),
                     *locate("Amber Gull"), done("locate")]
    game = dws(round1 + quiet_rounds(7), wrecks={"Amber Gull": "B1"}, until_script_ends=False)
    assert final(game) == ["Player 1: 1 Prestige; money $74 + salvaged $0 - loans $80 = -6 (IN DEBT)",
                           "Player 2: 0 Prestige; money $80 + salvaged $0 - loans $80 = 0"]
    assert game.result.winners == [P2]
    assert [s.placement for s in game.result.seats] == [2, 1]


def test_dws_r39_when_everyone_is_in_debt_the_most_prestige_wins():
    """DWS-R39: if every player is In Debt, the player with the most Prestige wins."""
    round1 = OPEN + [passes("research"), *research("Kestrel", "direction"), done(),
                     *steps("B1"), passes("move"), *locate("Amber Gull"), done("locate")]
    game = dws(round1 + quiet_rounds(7), wrecks={"Amber Gull": "B1"}, until_script_ends=False)
    assert final(game) == ["Player 1: 1 Prestige; money $74 + salvaged $0 - loans $80 = -6 (IN DEBT)",
                           "Player 2: 0 Prestige; money $79 + salvaged $0 - loans $80 = -1 (IN DEBT)"]
    assert game.result.winners == [P1]


def test_dws_a25_a_net_of_exactly_zero_is_not_in_debt():
    """DWS-A25: only a negative total is In Debt; DWS-A24: equal Prestige and equal net worth
    go to the lower Turn Order card."""
    game = dws(quiet_rounds(8), until_script_ends=False)
    assert final(game) == ["Player 1: 0 Prestige; money $80 + salvaged $0 - loans $80 = 0",
                           "Player 2: 0 Prestige; money $80 + salvaged $0 - loans $80 = 0"]
    assert [p.turn_order for p in game.players] == [1, 2]
    assert game.result.winners == [P1]
    shared = dws(quiet_rounds(8), variant="shared_win", until_script_ends=False)
    assert shared.result.winners == [P1, P2]


def test_dws_a24_tied_prestige_goes_to_the_higher_net_worth_before_the_turn_order():
    """DWS-A24: Prestige ties are broken by the higher net worth, then the lower Turn Order
    card; with final_tie_break=shared the tied players share the win."""
    # Player 1 (card 1): Westport -> B1 -> C1 ($4), locates Bright Harbor ($3): 1 Prestige,
    # net -7. Player 2: Northport -> F1 ($3), locates Amber Gull ($3): 1 Prestige, net -6.
    round1 = (apply(10, 10) + start("Westport", "Northport") + [passes("research")] * 2
              + [*steps("B1", "C1"), passes("move"), *steps("F1"), passes("move")]
              + [*locate("Bright Harbor"), done("locate"), *locate("Amber Gull"), done("locate")])
    wrecks = {"Bright Harbor": "C1", "Amber Gull": "F1"}
    game = dws(round1 + quiet_rounds(7, cities=("Westport", "Northport")), wrecks=wrecks,
               until_script_ends=False)
    assert [p.prestige for p in game.players] == [1, 1]
    assert [p.money + p.salvaged - p.loans for p in game.players] == [-7, -6]
    assert game.result.winners == [P2]
    game = dws(round1 + quiet_rounds(7, cities=("Westport", "Northport")), wrecks=wrecks,
               sets={"final_tie_break": "shared"}, until_script_ends=False)
    assert game.result.winners == [P1, P2]


def test_dws_a6_a_longer_action_loop_is_data():
    """DWS-A6: the Action Loop is printed on the (missing) board; a board with a second
    RESEARCH station after MOVE is a variant."""
    idle = [passes("research")] * 2 + [passes("move")] * 2 + [passes("research")] * 2 + [
        passes("locate")] * 2
    game = dws(OPEN + idle + apply(10, 10), variant="double_research")
    assert stations(game) == ["RESEARCH", "MOVE", "RESEARCH", "LOCATE", "SALVAGE"]


# -- the record sheet and deduction: DWS-P2, DWS-M1 ---------------------------------------------

def bot_game(n: int, seed: int, seats=None, variant=None):
    prog = program(NAME, variant)
    game = new_game(prog, n, seats, SeededChance(seed), seed)
    result = game.run()
    assert result.error is None, f"{n} players, seed {seed}: {result.error.message}"
    return game


@pytest.fixture(scope="module")
def bot_games():
    return {(n, seed): bot_game(n, seed) for n, seed in ((2, 1), (3, 2), (4, 3), (5, 4))}


def test_dws_m1_notes_are_exactly_the_regions_consistent_with_the_findings(bot_games):
    """DWS-P2, DWS-M1: the inside of a record sheet is the list of findings; the notes are every
    open-water region consistent with all findings about a wreck (checked here against the
    rule text's own directions and depths), and the true region is always among them."""
    checked = 0
    for game in bot_games.values():
        truth = game.env["wreck_region"]
        for p in game.players:
            assert set(p.notes) == {f[0] for f in p.findings}
            for ship, notes in p.notes.items():
                assert sorted(notes) == sorted(candidates(p.findings, ship)), (p.name, ship)
                assert truth[ship] in notes
                checked += 1
    assert checked > 100


def test_dws_m1_research_answers_follow_the_rules_from_the_true_region(bot_games):
    """DWS-R21, DWS-R22: every sonar answer in every record sheet is what the text says the card
    shows for the wreck's true region."""
    for game in bot_games.values():
        truth = game.env["wreck_region"]
        for p in game.players:
            for ship, what, region, answer in p.findings:
                if what == "direction":
                    assert answer == compass(region, truth[ship])
                elif what == "depth":
                    same = DEPTH[int(region[1])] == DEPTH[int(truth[ship][1])]
                    assert answer == ("Y" if same else "N")


# -- hidden information: DWS-R17, DWS-C4 --------------------------------------------------------

def test_dws_c4_nobody_sees_anothers_research_notes_or_the_wreck_locations(bot_games):
    """DWS-R17, DWS-C4: research results (findings, notes, rumored ranges) are private to their
    player; the Location and Value cards are hidden from everyone."""
    game = bot_games[(3, 2)]
    for viewer in game.players:
        view = state_of(game, viewer)
        assert view["state"]["wreck_region"] == "hidden"
        assert view["state"]["wreck_value"] == "hidden"
        for row in view["players"]:
            secret = ("findings", "notes", "rumors")
            if row["name"] == viewer.name:
                assert all(row[k] != "hidden" for k in secret)
                assert row["findings"] == [list(f) for f in viewer.findings]
            else:
                assert all(row[k] == "hidden" for k in secret)
    whole = state_of(game, None)
    assert whole["state"]["wreck_region"] == game.env["wreck_region"]


def test_dws_r17_research_results_are_narrated_only_to_the_researcher(bot_games):
    """DWS-R17: in whole bot games, every line that tells a sonar answer or what a player saw
    on a card is addressed to that player alone, and no other player's narration shows it."""
    answers = ("Sonar from ", "water sonar on ", "Rumored value of ", "You see the rumored value",
               "You saw that ")
    seen = 0
    for game in bot_games.values():
        public = {r["text"] for r in records(game, "say") if "to" not in r}
        for rec in records(game, "say"):
            if rec["text"].startswith(answers):
                assert len(rec.get("to", [])) == 1, rec
                seen += 1
                who = rec["to"][0]
                assert rec["text"] not in public
                for other in game.players:
                    line = describe(game, rec, other)
                    assert (line is None) == (other.name != who)
    assert seen > 100


# -- bots -----------------------------------------------------------------------------------------

def test_the_bot_never_locates_or_salvages_a_wreck_its_notes_have_not_pinned_down(bot_games):
    """The default policy acts on a wreck only when its notes leave one region, the one it
    stands on: it is never wrong, and it salvages wrecks in every game."""
    for (n, seed), game in bot_games.items():
        lines = said(game)
        tries = [t for t in lines if " tries to " in t]
        assert not any(" is wrong: " in t for t in lines), (n, seed)
        assert len(tries) == len([t for t in lines if " located " in t or "as already known" in t])
        assert len(game.zones["salvaged_ships"].items) >= 3, (n, seed)


def test_the_bot_only_researches_what_narrows_its_notes(bot_games):
    """The default policy researches a wreck only where the sonar card would split its
    candidate regions, so every research it makes removes at least one candidate."""
    researched = 0
    for game in bot_games.values():
        for p in game.players:
            for i, finding in enumerate(p.findings):
                if finding[1] not in ("direction", "depth") or finding[3] == "seen":
                    continue
                before = candidates(p.findings[:i], finding[0])
                after = candidates(p.findings[:i + 1], finding[0])
                assert len(after) < len(before), (p.name, finding)
                researched += 1
    assert researched > 100


# -- whole games ----------------------------------------------------------------------------------

ROUNDS = {None: {2: 8, 3: 7, 4: 7, 5: 7}, "extra_round": {2: 9, 3: 8, 4: 8, 5: 7},
          "shared_win": {2: 8, 3: 7, 4: 7, 5: 7}, "double_research": {2: 8, 3: 7, 4: 7, 5: 7}}
# The default policy plays one player count per variant here (the `bot_games` above play the
# base game at every count); random seats play every count of every variant.
BOT_COUNT = {None: 4, "extra_round": 2, "shared_win": 3, "double_research": 5}


@pytest.mark.parametrize("variant", list(ROUNDS))
def test_seeded_bot_games_of_every_variant_end_within_the_limits(variant):
    """Seeded games of every variant, by the default policy and by random players, end with
    no rule error, within the limits, after the rounds DWS-A5 predicts, with the bag empty,
    money never negative, every Prestige point and salvaged dollar accounted for, and the
    winners chosen as DWS-R39 says."""
    prog = program(NAME, variant)
    for n in (2, 3, 4, 5):
        for seats in ((None, "random") if n == BOT_COUNT[variant] else ("random",)):
            seed = 7 * n
            game = new_game(prog, n, {i: seats for i in range(1, n + 1)} if seats else None,
                            SeededChance(seed), seed)
            result = game.run()
            where = f"{variant}, {n} players, {seats or 'default policy'}"
            assert result.error is None, f"{where}: {result.error.message}"
            assert game.env["loan_round"] == ROUNDS[variant][n], where
            assert len(game.zones["bag"].items) == 0, where
            assert result.turns <= prog.limits["max_turns"] and result.steps <= prog.limits["max_steps"]
            assert all(p.money >= 0 for p in game.players), where
            # Every Prestige point comes from a first Locate or a Salvage.
            ships = {c.name: c for c in game.zones["wrecks"].items + game.zones["salvaged_ships"].items}
            salvaged = [s.name for s in game.zones["salvaged_ships"].items]
            assert sum(p.prestige for p in game.players) == sum(
                ships[s].located_prestige for s in game.env["located"]) + sum(
                ships[s].salvaged_prestige for s in salvaged), where
            assert sum(p.salvaged for p in game.players) == sum(
                game.env["wreck_value"][s].salvaged_value[game.env["wreck_region"][s]]
                for s in salvaged), where
            eligible = [p for p in game.players if p.money + p.salvaged - p.loans >= 0] or game.players
            best = max(p.prestige for p in eligible)
            assert all(player(game, w).prestige == best for w in result.winners), where
            assert all(player(game, w) in eligible for w in result.winners), where


def test_determinism_same_seed_same_log_and_the_log_replays():
    """The same seed gives the same log, and the log's draws and decisions play it again."""
    prog = PROG
    for n in (3,):
        logs = []
        for _ in range(2):
            game = new_game(prog, n, None, SeededChance(5), 5)
            game.run()
            logs.append(json.dumps(game.log, sort_keys=True, default=str))
        assert logs[0] == logs[1]
        chance, decisions = script(json.loads(logs[0]))
        again = new_game(prog, n, None, chance, 5, decisions=decisions)
        again.script_only = True
        again.run()
        assert json.dumps(again.log, sort_keys=True, default=str) == logs[0]


# -- at the terminal and at the table -------------------------------------------------------------

RULESET = str(ROOT / "rulesets" / f"{NAME}.yaml")


@pytest.mark.parametrize(("seed", "n"), [(1, 4), (2, 2), (3, 5)])
def test_meeple_run_plays_a_whole_game_readably_to_the_end(seed, n):
    """`meeple run` narrates a whole game: the loans, the stations of the Action Loop, salvages
    and the final tally, with ships and Cities named."""
    out = CliRunner().invoke(main, ["run", RULESET, "--seed", str(seed), "--players", str(n)])
    assert out.exit_code == 0, out.output
    text = out.output
    assert "== Final tally ==" in text and "Game over: the flow reached its end" in text
    assert re.search(r"Winners?: Player \d", text)
    for station in ("RESEARCH", "MOVE", "LOCATE", "SALVAGE"):
        assert f"The Action token stands on {station}" in text
    assert " is salvaged: worth $" in text
    # Ships, Cities and sonar cards are named, never shown as internal references.
    assert not re.search(r"chooses (ships|values|locations)\[", text)
    assert not re.search(r"revealed: (values|locations)\[", text)
    assert re.search(r"Player \d chooses city choice: "
                     r"(Westport|Missaukee|Northport|Eastport|Southport)\n", text)
    assert re.search(r"researches [A-Z][a-z]+( [A-Z][a-z]+)? with the [A-Z]", text)


def test_a_table_referees_a_game_with_a_person_typing_their_decisions():
    """Referee mode: `--dice table` with a person at seat 1 who types every decision (the
    game has no dice: the table types in the Turn Order card Player 1 was dealt and the chips
    drawn each round; meeple keeps the sonar cards' answers and the state, the bot plays
    seat 2). Each round: apply for $10, start in the first free City, research the first
    ship with the City's card, then done."""
    per_round = "10\n1\nresearch\n1\n1\ndone\n"
    # The 2-player bag: 17 x $5 and 13 x $10, four chips a round; round 8 finds only two $10
    # chips, which needs no question (they are all alike).
    chips = ["5 5 5 5"] * 4 + ["5 10 10 10", "10 10 10 10", "10 10 10 10"]
    typed = "2\n" + "5 5 5 20\n" + "".join(
        f"{c}\n" + ("maybe\n" if i == 0 else "") + per_round for i, c in enumerate(chips))
    out = CliRunner().invoke(main, ["run", RULESET, "--dice", "table", "--players", "2", "--seat",
                                    "1=human", "--seed", "3"], input=typed + per_round)
    assert out.exit_code == 0, out.output
    text = out.output
    assert "Draw 1 blind from the turn order pile and enter what came out (1 (1), 2 (1)" in text
    assert "Player 1 holds Turn Order card 2" in text
    assert "Player 2 holds Turn Order card 1" in text  # the last card: not asked
    assert "Draw 4 blind from the chip bag and enter what came out (5 (17), 10 (13); or undo)" in text
    assert "refused: no '20' is left to draw" in text
    pools = re.findall(r"the GLNS offers \$(\d+) in loans", text)
    assert pools == ["20", "20", "20", "20", "35", "40", "40", "20"]
    assert "not a legal answer" in text  # "maybe" is not an amount
    assert "  a number, 0 or more" in text  # the Application has no upper bound
    assert text.count("Player 1 applies for $10") == 8
    assert text.count("Player 1 researches ") == 8
    # The person sees their own sonar answers and none of the bot's.
    private_lines = [line for line in text.splitlines() if line.startswith("  (private) ")]
    assert len(private_lines) == 8
    assert "Game over: the flow reached its end" in text and "8 rounds" in text


def test_dws_r6_at_the_table_the_chips_drawn_from_the_bag_are_typed_in():
    """DWS-R6, DWS-P4: at a real table a player draws the chips by hand and the referee types
    in their values; the loan pool is what was typed, and those chips leave the bag."""
    asked, answers = [], iter(["1", "10 10 5", "10 10 5 5"])

    def ask(prompt):
        asked.append(prompt)
        try:
            return next(answers)
        except StopIteration:
            raise EOFError from None

    game = new_game(PROG, 2, None, TableChance(ask, lambda line: None, seed=0), 0)
    with pytest.raises(ChanceError, match="the table stopped entering draws"):
        game.run()  # the bots play round 1; round 2's draw finds the table gone
    assert asked[1] == ("Draw 4 blind from the chip bag and enter what came out (5 (17), 10 (13); or "
                        "undo): ")
    assert asked[2] == asked[1]  # "10 10 5" is refused: three chips, not four
    assert asked[3].startswith("Draw 4 blind from the chip bag and enter what came out (5 (15), 10 (11)")
    first = records(game, "draw", source="bag")[0]
    assert sorted(int(ref.split("[")[1][:-1]) >= 17 for ref in first["items"]) == [
        False, False, True, True]  # chips 0..16 are the $5s, 17.. the $10s
    assert "Round 1: Player 1 draws chips; the GLNS offers $30 in loans, 26 chips remain in " \
           "the bag (15 x $5, 11 x $10)" in [r["text"] for r in game.log if r["t"] == "say"]


def test_dws_a20_a_player_passed_over_at_a_station_hears_why():
    # DWS-A20: a player who cannot take a station's action is passed over without being
    # asked, and the table is told why, with figures that bear it out.
    out = CliRunner().invoke(main, ["run", str(ROOT / "rulesets" / "dark_water_salvage.yaml"),
                                    "--seed", "2", "--players", "3"])
    assert out.exit_code == 0, out.output
    passes = re.findall(r"(Player \d) passes (RESEARCH|MOVE|LOCATE|SALVAGE): (.*)", out.output)
    assert {station for _, station, _ in passes} >= {"MOVE", "LOCATE", "SALVAGE"}
    for _, _, why in passes:
        money = re.fullmatch(r"an? \w+(?: here)? costs \$(\d+), they hold \$(\d+)", why)
        if money is not None:
            assert int(money.group(2)) < int(money.group(1)), why
        else:
            assert why in ("no Shipwreck is left", "every region next to their pawn is taken",
                           "their pawn is not in open water",
                           "no Shipwreck is left that they may locate",
                           "no Shipwreck is left that they may salvage"), why
