"""Scenario tests for rulesets/shipwrecked.yaml, one per rule of the rule text.

Rule ids (SH-Rn, SH-An) are those of research/seeds-analysis.md, section 2. Every expected
figure below was worked out by hand from the rule text, never read back from the engine.

Scripting. The setup rolls the whole ocean, white_sailors[0..n-1] then black_sailors[0..n-1]
(`ocean=`, n faces each); with `first_team` set there is no roll-off. A turn is then: the
island of the active team, the island of the other team (decisions), the two captains (white,
black), the grab (a scripted race entry: the sailors each hand picked up), then the faces of the
sailors thrown back into the ocean (in the order they were grabbed, hand by hand in seat order;
only on a turn without sharks) and, on a shark turn, the faces of the whole ocean rerolled (in
the ocean's order: the sailors never picked up in setup order, then those put back, in the order
they went back). Most scenarios play with 4 sailors a side; the rules do not depend on it.
"""

from __future__ import annotations

import json
import math
import re
import textwrap

import pytest
from click.testing import CliRunner

from interpreter.cli.main import main
from interpreter.engine.asking import ScriptEnded
from interpreter.engine.chance import ChanceError, ScriptedChance, SeededChance
from interpreter.engine.setup import load, new_game
from tests.scenarios.play import ROOT, fired, play, program, said

P1, P2, P3, P4 = (f"Player {i}" for i in range(1, 5))
LN2 = math.log(2)


def W(i: int) -> str:
    return f"white_sailors[{i}]"


def B(i: int) -> str:
    return f"black_sailors[{i}]"


# The ocean of most scenarios: whites show 2 2 5 6, blacks 2 3 3 6.
OCEAN = [2, 2, 5, 6, 2, 3, 3, 6]


def turn(islands=(1, 1), captains=(1, 4), claims=None, back=(), ocean=(), seconds=2):
    """The dice and decisions of one turn (see the module docstring)."""
    decisions = [{"id": "island", "choice": islands[0]}, {"id": "island", "choice": islands[1]},
                 {"race": "grab", "claims": claims or {}, "seconds": seconds}]
    return [*captains, *back, *ocean], decisions


def sw(*turns, ocean=OCEAN, players=2, first="white", roll_off=(), sets=None, hazards=()):
    """Shipwrecked with this ocean and these turns; it stops cleanly where the script ends (or
    plays to the end when the game ends first). Every scripted die must have been rolled."""
    s = {"sailors_per_colour": str(len(ocean) // 2), "first_team": first}
    s.update({k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in (sets or {}).items()})
    dice, decisions = [*ocean, *roll_off], []
    for d, c in turns:
        dice += d
        decisions += c
    game = play("shipwrecked", dice=dice, decisions=decisions, players=players, sets=s,
                hazards=hazards, until_script_ends=True)
    assert game.chance.used == len(dice), f"only {game.chance.used} of {len(dice)} faces rolled"
    return game


def team(game, name: str):
    return next(t for t in game.teams if t.name == name)


def die(game, ref: str):
    if "[" not in ref:
        return game.env[ref]
    kind, index = ref.rstrip("]").split("[")
    return game.env[kind][int(index)]


def ocean_of(game) -> dict[str, int]:
    return {d.id: d.face for d in game.zones["ocean"].items}


def islands(game) -> dict[str, list[int]]:
    return {t.name: list(t.on_island) for t in game.teams}


def records(game, kind: str, **match) -> list[dict]:
    return [r for r in game.log if r["t"] == kind and all(r.get(k) == v for k, v in match.items())]


def rolls(game) -> list[tuple[list[str], list[int]]]:
    return [(r["dice"], r["faces"]) for r in records(game, "roll")]


def turns(game) -> list[str]:
    return [r["player"] for r in records(game, "turn")]


def decisions(game, did: str = "island") -> list[tuple[str, object]]:
    return [(r["by"], r["choice"]) for r in records(game, "decision", id=did)]


def since_last_race(game) -> list[dict]:
    i = max(i for i, r in enumerate(game.log) if r["t"] == "race")
    return game.log[i + 1:]


# -- teams and setup: SH-R1, SH-R2, SH-A1 ---------------------------------------------------------

def test_sh_r1_two_teams_white_and_black_whose_leaders_decide():
    """Any number of players split into two teams, White and Black; each team's leader makes
    the team's decisions (the island)."""
    game = sw(turn((2, 3), (1, 4)), turn((4, 5), (1, 4)), players=4)
    assert [(t.name, [p.name for p in t.members], t.leader.name) for t in game.teams] == [
        ("white", [P1, P3], P1), ("black", [P2, P4], P2)]
    # Two turns, four island decisions, every one by a leader: White's turn first.
    assert decisions(game) == [(P1, 2), (P2, 3), (P2, 4), (P1, 5)]
    assert [team(game, "white").target, team(game, "black").target] == [5, 4]
    game = sw(turn((2, 3), (1, 4)), players=2)
    assert [(t.name, [p.name for p in t.members]) for t in game.teams] == [
        ("white", [P1]), ("black", [P2])]


def test_sh_r2_setup_rolls_every_sailor_into_the_ocean_and_places_five_islands():
    """Setup: all the sailor dice (30 of each colour) are rolled into the ocean; five desert
    islands are placed around them."""
    faces = [1, 2, 3, 4, 5, 6] * 10
    game = play("shipwrecked", dice=faces, decisions=[], sets={"first_team": "white"},
                until_script_ends=True)
    assert game.chance.used == 60
    first = records(game, "roll")[0]
    assert first["dice"] == [W(i) for i in range(30)] + [B(i) for i in range(30)]
    assert first["faces"] == faces
    assert ocean_of(game) == {d: f for d, f in zip(first["dice"], faces, strict=True)}
    assert islands(game) == {"white": [0] * 5, "black": [0] * 5}
    assert [count for t in game.teams for count in (len(t.ashore.items), t.eaten)] == [0, 0, 0, 0]
    # The islands a team may name are 1 to 5.
    with pytest.raises(AssertionError, match=r"answers 6 to 'island' \(Player 1\).*legal: 1, 2, 3, "
                                             r"4, 5 at"):
        sw(turn((6, 1)), ocean=faces)


def test_sh_r2_more_sailors_and_other_island_counts_are_parameters():
    game = sw(ocean=[1] * 24, sets={"island_count": 3})
    assert len(ocean_of(game)) == 24
    assert sum(1 for d in ocean_of(game) if d.startswith("white")) == 12
    assert islands(game) == {"white": [0] * 3, "black": [0] * 3}
    with pytest.raises(AssertionError, match=r"legal: 1, 2, 3 at"):
        sw(turn((4, 1)), ocean=[1] * 24, sets={"island_count": 3})


def test_sh_a1_a_roll_off_of_the_captains_decides_who_starts():
    """The text does not say who starts; by default the captains are rolled and the higher
    captain's colour starts, doubles rolled again."""
    # White 2, black 5: Black starts, so its leader (Player 2) names an island first.
    game = sw(turn((1, 2), (1, 4)), first="random", roll_off=[2, 5])
    assert "Team black holds the captain dice first." in said(game)
    assert turns(game) == [P2, P1]  # the script stops in White's turn, which follows
    assert decisions(game) == [(P2, 1), (P1, 2)]
    # 3, 3 is rolled again; then white 6 beats black 1.
    game = sw(first="random", roll_off=[3, 3, 6, 1])
    assert [f for d, f in rolls(game) if d == ["white_captain", "black_captain"]] == [[3, 3], [6, 1]]
    assert "Team white holds the captain dice first." in said(game)
    # Named by the table: no roll-off at all.
    game = sw(turn(), first="black")
    assert len(rolls(game)) == 2 and turns(game) == [P2, P1]


# -- the turn: SH-R3..SH-R8 -----------------------------------------------------------------------

def test_sh_r3_turns_alternate_between_the_teams_passing_the_captains():
    """The captain dice pass to the other side after every turn."""
    game = sw(turn(captains=(1, 4)), turn(captains=(3, 4)), turn(captains=(5, 6)),
              turn(captains=(1, 3)), first="black")
    assert turns(game) == [P2, P1, P2, P1, P2]  # the script stops in the fifth turn
    assert [f for d, f in rolls(game) if d == ["white_captain", "black_captain"]] == [
        [1, 4], [3, 4], [5, 6], [1, 3]]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_sh_r3_with_more_players_turns_still_alternate_between_the_teams(players):
    # Teams alternate seats: White 1, 3, 5; Black 2, 4. The turn is the team's, played by its
    # leader, so it goes White, Black, White, Black whatever the number of seats.
    game = sw(*[turn(captains=(1, 4))] * 4, players=players)
    assert turns(game) == [P1, P2, P1, P2, P1]
    assert [p.team.name for p in game.players] == ["white", "black", "white", "black",
                                                   "white"][:players]


def test_sh_r4_the_active_team_names_its_island_first_and_both_may_name_the_same():
    """At the start of a turn the active side indicates an island, then the other side, which
    sees it; both may choose the same island."""
    game = sw(turn((4, 4), (2, 3), {P1: [W(0)], P2: [B(1), B(2)]}),
              turn((2, 5), (5, 6), {P1: [W(2)], P2: [B(3)]}))
    assert decisions(game) == [(P1, 4), (P2, 4), (P2, 2), (P1, 5)]
    lines = said(game)
    # The other team hears the active team's island before it names its own.
    start, end = (game.log.index(t) for t in records(game, "turn")[:2])
    first_turn = [r for r in game.log[start:end] if r["t"] in ("decision", "say")]
    assert [r.get("text") or r["by"] for r in first_turn[:4]] == [
        P1, "Team white swims for island 4.", P2, "Team black swims for island 4."]
    assert "Team black swims for island 2." in lines and "Team white swims for island 5." in lines
    # Both teams' sailors landed on island 4, each on its own count.
    assert islands(game) == {"white": [0, 0, 0, 1, 1], "black": [0, 1, 0, 2, 0]}


def test_sh_r5_the_active_team_rolls_both_captains_kept_apart_from_the_sailors():
    game = sw(turn((1, 2), (6, 1)), turn((3, 4), (2, 2), ocean=[1] * 8))
    log = game.log
    for t in records(game, "turn")[:2]:
        i = log.index(t)
        after = log[i + 1:]
        first_roll = next(r for r in after if r["t"] == "roll")
        assert first_roll["dice"] == ["white_captain", "black_captain"]
        picks = [r for r in after[:after.index(first_roll)] if r["t"] == "decision"]
        assert len(picks) == 2  # both islands are named before the captains are rolled
    # The captains are in no zone: never in the ocean, never rolled with it, never grabbed.
    assert die(game, "white_captain").zone == "" and die(game, "black_captain").zone == ""
    assert len(ocean_of(game)) == 8
    assert all("captain" not in d for dice, _ in rolls(game)[2:] for d in dice
               if dice != ["white_captain", "black_captain"])
    with pytest.raises(AssertionError, match=r"no item 'black_captain' to claim"):
        sw(turn(captains=(6, 1), claims={P2: ["black_captain"]}))


def test_sh_r6_the_captains_call_whites_showing_the_white_captain_and_blacks_the_black():
    """Matching sailors: white ones showing the white captain's number, black ones showing the
    black captain's. A white 2 is not called by a black captain's 2."""
    game = sw(turn((1, 1), (4, 2), {P1: [W(2), W(0)], P2: [B(0), B(1)]}, back=[3, 5]),
              ocean=[4, 4, 2, 1, 4, 2, 2, 1])
    # Called: W(0), W(1) (white 4s), B(1), B(2) (black 2s). W(2) (a white 2) and B(0) (a black
    # 4) were grabbed but not called: they go back.
    assert islands(game) == {"white": [1, 0, 0, 0, 0], "black": [1, 0, 0, 0, 0]}
    assert [d.id for d in team(game, "white").ashore.items] == [W(0)]
    assert [d.id for d in team(game, "black").ashore.items] == [B(1)]
    assert rolls(game)[-1] == ([W(2), B(0)], [3, 5])
    assert ocean_of(game)[W(2)] == 3 and ocean_of(game)[B(0)] == 5


def test_sh_r6_only_sailors_in_the_ocean_can_be_picked_never_those_on_islands():
    first = turn((1, 1), (2, 3), {P1: [W(0)]})
    # Next turn the white captain shows 2 again; W(0) is on island 1, out of reach.
    with pytest.raises(AssertionError, match=r"no item 'white_sailors\[0\]' to claim"):
        sw(first, turn((1, 1), (2, 5), {P1: [W(0)]}))
    game = sw(first, turn((1, 1), (2, 5), {P1: [W(1)]}))
    assert islands(game)["white"] == [2, 0, 0, 0, 0]


def test_sh_r7_both_sides_grab_at_once_and_a_sailor_ends_in_one_hand_only():
    """Both sides pick up matching sailors simultaneously, as many as they can, one at a
    time: the side not holding the captains grabs too, and one die is in one hand."""
    # White's turn, but Black grabs as well: two blacks showing 3.
    game = sw(turn((1, 2), (2, 3), {P1: [W(0), W(1)], P2: [B(1), B(2)]}))
    assert islands(game) == {"white": [2, 0, 0, 0, 0], "black": [0, 2, 0, 0, 0]}
    with pytest.raises(AssertionError, match=r"white_sailors\[0\] was already claimed by Player 1"):
        sw(turn((1, 2), (2, 3), {P1: [W(0)], P2: [W(0)]}))


def test_sh_r8_the_grab_ends_then_every_hand_is_revealed_before_anything_happens():
    game = sw(turn((1, 2), (2, 3), {P1: [W(0), B(1)], P2: [B(2)]}, back=[4]))
    after = since_last_race(game)
    kinds = [(r["t"], r.get("to") or r.get("text", "")) for r in after]
    assert kinds[:4] == [
        ("move", "Player 1.hand"), ("move", "Player 2.hand"),
        ("say", "Player 1 reveals their grabbed sailors: white sailors ⚁ 2; black sailors ⚂ 3"),
        ("say", "Player 2 reveals their grabbed sailors: black sailors ⚂ 3")]
    assert [r["to"] for r in after if r["t"] == "move"][2:] == ["white.ashore", "black.ashore", "ocean"]
    # After the reveal and the resolution nothing is left in any hand.
    assert [len(p.hand.items) for p in game.players] == [0, 0]


# -- no sharks: SH-R9..SH-R11, SH-A10, SH-A12 -----------------------------------------------------

def test_sh_r9_own_sailors_picked_land_on_the_island_the_side_named():
    game = sw(turn((3, 5), (2, 6), {P1: [W(1), W(0)], P2: [B(3)]}))
    white, black = team(game, "white"), team(game, "black")
    assert white.on_island == [0, 0, 2, 0, 0] and black.on_island == [0, 0, 0, 0, 1]
    assert [d.id for d in white.ashore.items] == [W(1), W(0)]
    assert die(game, W(0)).zone == "white.ashore"
    assert "Player 1 brings 2 white sailor(s) to island 3." in said(game)
    assert "Player 2 brings 1 black sailor(s) to island 5." in said(game)
    assert len(rolls(game)) == 2  # nothing was thrown back: no sailor rolled


def test_sh_r10_opposing_sailors_picked_are_rerolled_back_into_the_ocean():
    # Black captain 3: White grabs both black 3s; they are rolled (6, 1) back into the ocean.
    game = sw(turn((1, 2), (5, 3), {P1: [B(2), B(1)]}, back=[6, 1]))
    assert rolls(game)[-1] == ([B(2), B(1)], [6, 1])
    assert ocean_of(game)[B(2)] == 6 and ocean_of(game)[B(1)] == 1
    assert islands(game) == {"white": [0] * 5, "black": [0] * 5}
    assert [t.eaten for t in game.teams] == [0, 0]
    assert "2 sailor(s) go back into the ocean." in said(game)


def test_sh_a10_grabbing_the_enemys_sailors_only_denies_them():
    """Opposing sailors may be grabbed on a turn without sharks: they do not reach the enemy's
    island, and they are not lost either: back in the ocean, they can be grabbed again."""
    game = sw(turn((1, 2), (5, 3), {P1: [B(1)], P2: [B(2)]}, back=[3]),
              turn((2, 1), (1, 3), {P2: [B(1)]}))
    # Turn 1: Black placed B(2) only; B(1), denied, came back showing 3. Turn 2 (black 3
    # again): Black grabs it and brings it to island 2.
    assert islands(game)["black"] == [0, 2, 0, 0, 0]
    assert [d.id for d in team(game, "black").ashore.items] == [B(2), B(1)]


def test_sh_r11_without_sharks_the_rest_of_the_ocean_is_not_rerolled():
    game = sw(turn((1, 2), (2, 3), {P1: [W(0), B(1)]}, back=[1]))
    left = ocean_of(game)
    assert {d: f for d, f in left.items() if d != B(1)} == {
        W(1): 2, W(2): 5, W(3): 6, B(0): 2, B(2): 3, B(3): 6}
    # The only roll after the grab is the thrown-back black sailor, by the player whose turn
    # it is.
    assert [r for r in since_last_race(game) if r["t"] == "roll"] == [
        {"t": "roll", "dice": [B(1)], "faces": [1], "by": [P1]}]


def test_sh_a12_a_sailor_thrown_back_cannot_be_grabbed_again_in_the_same_grab():
    """Sailors go back into the ocean only after the reveal: one that lands showing a called
    number stays in the ocean until the next grab."""
    game = sw(turn((1, 2), (2, 3), {P1: [B(1)]}, back=[3]))
    log = game.log
    assert log.index(records(game, "race")[0]) < log.index(records(game, "roll")[-1])
    # B(1) landed showing 3, the black captain's number: it stays in the ocean.
    assert ocean_of(game)[B(1)] == 3 and islands(game)["black"] == [0] * 5
    game = sw(turn((1, 2), (2, 3), {P1: [B(1)]}, back=[3]), turn((2, 1), (6, 3), {P2: [B(1)]}))
    assert islands(game)["black"] == [0, 1, 0, 0, 0]


# -- sharks: SH-R12..SH-R16, SH-A8 -----------------------------------------------------------------

@pytest.mark.parametrize("face", range(1, 7))
def test_sh_r12_captain_doubles_are_sharks(face):
    """When the captains roll doubles, the players shout "Sharks!" and grab as usual."""
    game = sw(turn(captains=(face, face), ocean=[1] * 8))
    assert f"Sharks! Both captains show {face}." in said(game)
    assert game.env["sharks_fed"] == 1
    other = face % 6 + 1
    game = sw(turn(captains=(face, other)))
    assert f"White {face}, black {other}!" in said(game)
    assert game.env["sharks_fed"] == 0 and not any("Sharks" in t for t in said(game))


def test_sh_r13_sharks_eat_opposing_sailors_a_side_picked():
    """On a shark turn, the opposing sailors a side picked are eaten: removed from the game."""
    # Both captains 2: the called sailors are W(0), W(1) and B(0). White grabs B(0), Black
    # grabs both whites: all three are eaten. The five left in the ocean are rerolled.
    game = sw(turn((1, 2), (2, 2), {P1: [B(0)], P2: [W(0), W(1)]}, ocean=[1, 2, 3, 4, 5]))
    assert [die(game, d).zone for d in (B(0), W(0), W(1))] == ["", "", ""]
    assert {t.name: t.eaten for t in game.teams} == {"white": 2, "black": 1}
    assert sorted(ocean_of(game)) == sorted([W(2), W(3), B(1), B(2), B(3)])
    assert islands(game) == {"white": [0] * 5, "black": [0] * 5}
    assert "The sharks eat 1 sailor(s) grabbed by Player 1." in said(game)
    assert "The sharks eat 2 sailor(s) grabbed by Player 2." in said(game)
    assert "The sharks ate 3 sailor(s) this time (1 of 3 attacks)." in said(game)


def test_sh_r14_on_a_shark_turn_own_sailors_picked_go_back_into_the_ocean():
    # Captains 2, 2: each side grabs one of its own called sailors: they are saved, not placed.
    game = sw(turn((1, 2), (2, 2), {P1: [W(0)], P2: [B(0)]}, ocean=[1, 2, 3, 4, 5, 6, 1, 2]))
    assert islands(game) == {"white": [0] * 5, "black": [0] * 5}
    assert [t.eaten for t in game.teams] == [0, 0]
    # They went back at the end of the ocean, and were rerolled with it.
    assert list(ocean_of(game).items())[-2:] == [(W(0), 1), (B(0), 2)]


def test_sh_r15_after_the_sharks_the_whole_ocean_is_rerolled():
    # Captains 2, 2. White grabs B(0) (eaten), its own W(1) (saved) and W(2) (a 5, by
    # mistake); Black grabs W(0) (eaten). The ocean - W(3), B(1), B(2), B(3), then W(1) and
    # W(2) put back - is rerolled in one roll.
    game = sw(turn((1, 2), (2, 2), {P1: [B(0), W(1), W(2)], P2: [W(0)]},
                   ocean=[1, 2, 3, 4, 5, 6]))
    after = [r for r in since_last_race(game) if r["t"] == "roll"]
    assert after == [{"t": "roll", "dice": [W(3), B(1), B(2), B(3), W(1), W(2)],
                      "faces": [1, 2, 3, 4, 5, 6], "by": [P1] * 6}]
    assert ocean_of(game) == {W(3): 1, B(1): 2, B(2): 3, B(3): 4, W(1): 5, W(2): 6}


def test_sh_r16_sailors_on_islands_stay_there_for_the_rest_of_the_game():
    game = sw(turn((1, 3), (2, 3), {P1: [W(0), W(1)], P2: [B(1)]}),
              turn((4, 5), (3, 3), {P1: [B(2)]}, ocean=[6, 6, 6, 6]),
              turn((2, 2), (6, 6), {P2: [W(3)]}, ocean=[1, 1, 1]))
    # Two shark turns later the three sailors ashore are still there, showing their faces,
    # never rerolled with the ocean.
    assert [die(game, d).zone for d in (W(0), W(1), B(1))] == ["white.ashore"] * 2 + ["black.ashore"]
    assert [die(game, d).face for d in (W(0), W(1), B(1))] == [2, 2, 3]
    ocean_rolls = [dice for dice, _ in rolls(game)[1:] if len(dice) > 2]
    assert len(ocean_rolls) == 2
    assert all(d not in dice for dice in ocean_rolls for d in (W(0), W(1), B(1)))
    assert islands(game) == {"white": [2, 0, 0, 0, 0], "black": [0, 0, 1, 0, 0]}


def test_sh_a8_islands_are_still_named_on_a_turn_that_brings_the_sharks():
    game = sw(turn((1, 3), (2, 3), {P1: [W(0)]}), turn((4, 5), (2, 2), {P2: [B(0)]},
                                                        ocean=[1] * 7))
    assert decisions(game) == [(P1, 1), (P2, 3), (P2, 4), (P1, 5)]
    assert [team(game, "white").target, team(game, "black").target] == [5, 4]
    # Nothing reached islands 4 or 5: own sailors picked on a shark turn go back.
    assert islands(game) == {"white": [1, 0, 0, 0, 0], "black": [0] * 5}


# -- the end: SH-R17, SH-A5, SH-A6 -----------------------------------------------------------------

def test_sh_r17_the_game_ends_after_the_third_shark_attack():
    game = sw(turn(captains=(1, 1), ocean=[1] * 8), turn(captains=(1, 2)),
              turn(captains=(3, 3), ocean=[2] * 8), turn(captains=(2, 3)),
              turn(captains=(6, 6), ocean=[3] * 8))
    assert game.result is not None and game.result.error is None
    assert game.result.turns == 5
    assert game.env["sharks_fed"] == 3
    assert [t for t in said(game) if t.startswith("The sharks ate")] == [
        f"The sharks ate 0 sailor(s) this time ({k} of 3 attacks)." for k in (1, 2, 3)]
    # Two attacks are not enough: the script runs out at the sixth turn's island.
    game = sw(turn(captains=(1, 1), ocean=[1] * 8), turn(captains=(1, 2)),
              turn(captains=(3, 3), ocean=[2] * 8), turn(captains=(2, 3)))
    assert game.result is None and game.env["sharks_fed"] == 2


def test_sh_r17_shark_limit_sets_the_number_of_attacks():
    game = sw(turn(captains=(4, 4), ocean=[1] * 8), sets={"shark_limit": 1})
    assert game.result is not None and game.result.turns == 1


def test_sh_a6_the_game_ends_right_after_the_last_attack_ocean_reroll_included():
    game = sw(turn((1, 2), (2, 2), {P2: [W(0)]}, ocean=[1] * 7), sets={"shark_limit": 1})
    after = since_last_race(game)
    tail = [(r["t"], r.get("phase")) for r in after if r["t"] in ("roll", "turn", "phase")]
    assert tail == [("roll", None), ("phase", "reckoning")]
    assert records(game, "roll")[-1]["faces"] == [1] * 7
    assert game.result.turns == 1


def test_sh_a5_every_captain_doubles_counts_even_when_nothing_is_eaten():
    game = sw(turn(captains=(5, 5), ocean=[1] * 8), sets={"shark_limit": 1})
    assert game.env["sharks_fed"] == 1
    assert "The sharks ate 0 sailor(s) this time (1 of 1 attacks)." in said(game)
    assert game.result is not None


def test_sh_a5_when_only_feeding_sharks_count_an_empty_attack_does_not():
    sets = {"shark_limit": 1, "shark_counts_if_nothing_eaten": False}
    # Turn 1: doubles, nothing eaten, not counted: the game goes on. Turn 2: doubles 2, Black
    # grabs W(0) (a 2): eaten, counted, and the game ends.
    game = sw(turn(captains=(5, 5), ocean=[2, 2, 5, 6, 2, 3, 3, 6]), turn((1, 1), (2, 2), {P2: [W(0)]},
                                                                         ocean=[1] * 7), sets=sets)
    assert game.result is not None and game.result.turns == 2
    assert game.env["sharks_fed"] == 1
    assert "The sharks ate 0 sailor(s) this time (0 of 1 attacks)." in said(game)
    assert "The sharks ate 1 sailor(s) this time (1 of 1 attacks)." in said(game)


def test_sh_a6b_the_game_ends_once_no_sailor_is_left_in_the_ocean():
    # Two sailors a side, whites showing 1, blacks 2: both sides grab all of theirs.
    game = sw(turn((1, 2), (1, 2), {P1: [W(0), W(1)], P2: [B(0), B(1)]}), ocean=[1, 1, 2, 2],
              sets={"shark_counts_if_nothing_eaten": False})
    assert game.result is not None and game.result.turns == 1
    assert game.env["sharks_fed"] == 0 and ocean_of(game) == {}
    # Islands 1 and 2 are one each, 2 sailors ashore each, none in the ocean: a draw.
    assert game.result.winners == []
    assert game.result.reason == "no sailor is left in the ocean"


# -- scoring: SH-R18..SH-R21, SH-A7, SH-A13 --------------------------------------------------------

def islands_game(*steps, n=8, sets=None, players=2):
    """A game whose whites all show 1 and blacks 2, White first, made of these turns:
    ("place", white island, black island, whites placed, blacks placed): captains 1, 2, each
    side grabs that many of its own; ("eat", whites eaten, blacks eaten): captains 1, 1 (Black
    grabs whites) or 2, 2 (White grabs blacks), the ocean rerolled to the same faces. A last
    shark turn (captains 3, 3, nothing called) ends the game."""
    whites, blacks = list(range(n)), list(range(n))
    script = []
    for k, step in enumerate(steps + (("end",),)):
        white_active = k % 2 == 0
        if step[0] == "place":
            _, wi, bi, wn, bn = step
            claims = {P1: [W(i) for i in whites[:wn]], P2: [B(i) for i in blacks[:bn]]}
            whites, blacks = whites[wn:], blacks[bn:]
            script.append(turn((wi, bi) if white_active else (bi, wi), (1, 2), claims))
            continue
        if step[0] == "eat":
            _, wn, bn = step
            assert not (wn and bn)
            claims = {P2: [W(i) for i in whites[:wn]]} if wn else {P1: [B(i) for i in blacks[:bn]]}
            captains = (1, 1) if wn else (2, 2)
            whites, blacks = whites[wn:], blacks[bn:]
        else:
            claims, captains = {}, (3, 3)
        script.append(turn((1, 1), captains, claims, ocean=[1] * len(whites) + [2] * len(blacks)))
    sharks = sum(1 for s in steps if s[0] == "eat") + 1
    return sw(*script, ocean=[1] * n + [2] * n, players=players,
              sets={"shark_limit": sharks, **(sets or {})})


def held(game) -> dict[str, int]:
    return {t.name: t.held for t in game.teams}


def test_sh_r18_a_side_controls_an_island_where_it_has_strictly_more_sailors():
    """An island belongs to the side with more sailors there; equal numbers: nobody's."""
    # Island 1: 3 white, 2 black (White). Island 2: 2 and 2 (nobody). Island 4: 1 black
    # alone (Black). Islands 3 and 5: empty (nobody).
    game = islands_game(("place", 1, 1, 3, 2), ("place", 2, 2, 2, 2), ("place", 3, 4, 0, 1))
    assert islands(game) == {"white": [3, 2, 0, 0, 0], "black": [2, 2, 0, 1, 0]}
    assert held(game) == {"white": 1, "black": 1}
    assert ("Team white controls 1 of 5 islands: 1; sailors on islands 1 to 5: 3, 2, "
            "0, 0, 0; 5 sailors ashore, 3 in the ocean, 0 eaten.") in said(game)
    assert ("Team black controls 1 of 5 islands: 4; sailors on islands 1 to 5: 2, 2, "
            "0, 1, 0; 5 sailors ashore, 3 in the ocean, 0 eaten.") in said(game)


def test_sh_a13_an_island_with_no_sailors_is_nobodys():
    game = islands_game()
    assert islands(game) == {"white": [0] * 5, "black": [0] * 5}
    assert held(game) == {"white": 0, "black": 0}


def test_sh_r19_the_side_controlling_the_most_islands_wins():
    # White holds islands 1 and 3 with one sailor each; Black holds island 2 with five.
    # White wins on islands, with fewer sailors ashore.
    game = islands_game(("place", 1, 2, 1, 5), ("place", 3, 2, 1, 0))
    assert held(game) == {"white": 2, "black": 1}
    assert game.result.winners == [P1]
    assert [(s.name, s.score, s.placement) for s in game.result.seats] == [(P1, 2, 1), (P2, 1, 2)]


def test_sh_r19_with_four_players_the_whole_team_wins():
    game = islands_game(("place", 1, 2, 1, 5), ("place", 3, 2, 1, 0), players=4)
    assert game.result.winners == [P1, P3]


def test_sh_r20_equal_islands_go_to_the_most_sailors_on_islands():
    # Black's sharks eat three whites first; then White holds island 1 with
    # one sailor and Black island 2 with two. One island each; Black has more ashore (2 to 1)
    # and wins, though White has fewer left in the ocean (4 to 6): this tie-break comes first.
    game = islands_game(("eat", 3, 0), ("place", 1, 2, 1, 2))
    assert held(game) == {"white": 1, "black": 1}
    assert [len(t.ashore.items) for t in game.teams] == [1, 2]
    assert sum(1 for d in ocean_of(game) if d.startswith("white")) == 4
    assert sum(1 for d in ocean_of(game) if d.startswith("black")) == 6
    assert game.result.winners == [P2]
    assert "Tied on islands: the most sailors ashore wins." in said(game)
    assert "Tied on sailors ashore too" not in " ".join(said(game))


def test_sh_r21_then_to_the_fewest_sailors_left_in_the_ocean():
    # White's sharks eat two blacks; then one island each with one sailor: tied on islands and
    # on sailors ashore. Black has 8 - 2 - 1 = 5 in the ocean, White 7: Black wins.
    game = islands_game(("eat", 0, 2), ("place", 1, 2, 1, 1))
    assert held(game) == {"white": 1, "black": 1}
    assert [len(t.ashore.items) for t in game.teams] == [1, 1]
    assert game.result.winners == [P2]
    assert [(s.name, s.placement) for s in game.result.seats] == [(P1, 2), (P2, 1)]
    assert ("Tied on sailors ashore too: the fewest sailors left in the ocean wins."
            in said(game))


def test_sh_a7_a_tie_after_every_tie_break_is_a_draw_by_default():
    game = islands_game(("place", 1, 2, 1, 1))
    assert held(game) == {"white": 1, "black": 1}
    assert game.result.winners == []
    assert "Still tied after every tie-break: a draw." in said(game)
    game = islands_game(("place", 1, 2, 1, 1), sets={"final_tie": "shared"})
    assert game.result.winners == [P1, P2]


# -- misgrabs, hands and knocks: SH-A2, SH-A3, SH-A4, SH-A9, SH-A11 ----------------------------------

def test_sh_a2_a_misgrabbed_sailor_is_never_placed_and_goes_back_rerolled():
    # White captain 6: W(2) shows 5, a mistake. It goes back rolled (to 6), not to island 1.
    game = sw(turn((1, 2), (6, 3), {P1: [W(2), W(3)]}, back=[6]))
    assert islands(game)["white"] == [1, 0, 0, 0, 0]
    assert ocean_of(game)[W(2)] == 6
    assert "Player 1 grabbed 1 sailor(s) by mistake; back into the ocean." in said(game)


def test_sh_a2_keep_face_puts_a_misgrab_back_unrolled():
    game = sw(turn((1, 2), (6, 3), {P1: [W(2), W(3), B(1)]}, back=[4]),
              sets={"misgrab_return": "keep_face"})
    # W(2) goes back showing its 5; the denied black B(1) is still rerolled (to 4).
    assert ocean_of(game)[W(2)] == 5 and ocean_of(game)[B(1)] == 4
    assert [r for r in since_last_race(game) if r["t"] == "roll"] == [
        {"t": "roll", "dice": [B(1)], "faces": [4], "by": [P1]}]


def test_sh_a2_a_misgrabbed_enemy_sailor_is_not_eaten_by_the_sharks():
    # Captains 2, 2: B(1) shows 3, not called. White grabbed it by mistake: it is not eaten.
    game = sw(turn((1, 2), (2, 2), {P1: [B(1)]}, ocean=[1] * 8))
    assert [t.eaten for t in game.teams] == [0, 0]
    assert die(game, B(1)).zone == "ocean" and len(ocean_of(game)) == 8


def test_sh_a4_the_rules_set_no_limit_on_what_a_hand_picks_up_at_the_table():
    """SH-A4: hand_capacity (8 by default) limits only the modelled hands; a reported grab of
    nine sailors in one hand stands."""
    game = sw(turn((1, 2), (1, 2), {P1: [W(i) for i in range(9)]}), ocean=[1] * 10 + [2] * 10)
    assert islands(game)["white"] == [9, 0, 0, 0, 0]
    game = sw(turn((1, 2), (1, 2), {P1: [W(i) for i in range(9)]}), ocean=[1] * 10 + [2] * 10,
              sets={"hand_capacity": 2})
    assert islands(game)["white"] == [9, 0, 0, 0, 0]


def test_sh_a9_with_four_players_every_hand_grabs_and_a_teams_picks_are_pooled():
    """All hands of a team grab; the team's picks are pooled; the leader names the island;
    turns alternate between teams."""
    ocean = [4, 4, 4, 1, 1, 1, 6, 6, 6, 1, 1, 1]
    t1 = turn((2, 5), (4, 6), {P1: [W(0)], P3: [W(1), B(0)], P2: [B(1)], P4: [B(2), W(2)]},
              back=[2, 3])
    # Turn 2 (Black's): sharks on 1. Player 3 (White) grabs B(3), Player 4 (Black) W(3) and
    # W(4): eaten. Player 1 saves W(5). The ocean - B(4), B(5), B(0), W(2), then W(5) - is
    # rerolled.
    t2 = turn((1, 1), (1, 1), {P3: [B(3)], P4: [W(3), W(4)], P1: [W(5)]}, ocean=[5, 5, 5, 5, 5])
    game = sw(t1, t2, ocean=ocean, players=4)
    assert turns(game) == [P1, P2, P1]
    assert decisions(game) == [(P1, 2), (P2, 5), (P2, 1), (P1, 1)]
    assert islands(game) == {"white": [0, 2, 0, 0, 0], "black": [0, 0, 0, 0, 2]}
    assert [d.id for d in team(game, "white").ashore.items] == [W(0), W(1)]
    assert [d.id for d in team(game, "black").ashore.items] == [B(1), B(2)]
    # The denied sailors go back in seat order: Player 3's B(0), then Player 4's W(2).
    assert rolls(game)[2] == ([B(0), W(2)], [2, 3])
    assert {t.name: t.eaten for t in game.teams} == {"white": 2, "black": 1}
    assert ocean_of(game) == {B(4): 5, B(5): 5, B(0): 5, W(2): 5, W(5): 5}


def test_sh_a9_the_sailors_per_colour_parameter_scales_the_ocean():
    game = sw(ocean=[1] * 45 * 2, players=4)
    assert len(ocean_of(game)) == 90


def test_sh_a11_a_knocked_sailor_shows_a_new_face_and_stays_in_the_ocean():
    # During the grab a hand knocks the first sailor of the ocean, W(0), over to 4.
    game = sw(turn((1, 2), (5, 3), {P1: [W(2)]}, back=[4]), hazards=[0.5],
              sets={"knock_hazard": 0.5})
    assert records(game, "raised") == [{"t": "raised", "event": "dice_knocked"}]
    assert fired(game) == ["knocked_sailor_changes_face"]
    assert die(game, W(0)).zone == "ocean" and die(game, W(0)).face == 4
    assert islands(game)["white"] == [1, 0, 0, 0, 0]
    # Knocks can only happen during the grab: two turns, two chances (none taken here).
    game = sw(turn((1, 2), (5, 3), {P1: [W(2)]}), turn((2, 1), (1, 1), ocean=[1] * 7),
              sets={"knock_hazard": 0.5})
    assert game.hazard_queries == 2 and fired(game) == []


def test_sh_a11_a_sailor_knocked_off_its_captains_number_is_no_longer_called():
    # The captains call white 2s: W(0) and W(1). The table knocks W(0) (the first in reach)
    # over to 4 while the grab is on; Player 1 then reports grabbing W(0): now a misgrab,
    # back into the ocean (rerolled: 3), not onto the island.
    dice, script = turn((1, 2), (2, 4), {P1: [W(0)]}, back=[4, 3])
    script.insert(2, {"raise": "dice_knocked", "by": "table"})
    game = sw((dice, script))
    assert fired(game) == ["knocked_sailor_changes_face"]
    assert islands(game)["white"] == [0, 0, 0, 0, 0]
    assert "Player 1 grabbed 1 sailor(s) by mistake; back into the ocean." in said(game)
    assert die(game, W(0)).zone == "ocean" and die(game, W(0)).face == 3


# -- the grab modelled for bots: SH-P1, SH-P2, SH-A3, the crew policy --------------------------------

def modelled(ocean, captains, uniforms, islands_named=(1, 2), players=2, sets=None, back=()):
    """One turn whose grab is modelled (no scripted claims): the island choices are scripted,
    the race's random numbers are `uniforms` (for each racer in seat order, the wait before its
    first claim; then, claim by claim, a misgrab draw when misgrab_rate > 0 and the wait before
    the racer's next claim). A wait is -ln(1 - u) / grab_rate seconds; grab_rate is 1 here and
    every hand starts after grab_latency (1 s)."""
    s = {"sailors_per_colour": str(len(ocean) // 2), "first_team": "white", "grab_rate": "1",
         "misgrab_rate": "0", **(sets or {})}
    prog = program("shipwrecked", None, tuple(sorted(s.items())))
    chance = ScriptedChance([*ocean, *captains, *back], uniforms=list(uniforms))
    game = new_game(prog, players, None, chance, 0,
                    decisions=[{"id": "island", "choice": i} for i in islands_named])
    game.script_only = True
    try:
        game.run()
    except (ScriptEnded, ChanceError):
        pass
    assert chance.used == len(ocean) + 2 + len(back) and not chance.uniforms
    return game


def race_record(game) -> dict:
    return records(game, "race")[0]


def test_crew_bots_grab_their_own_colour_first_then_deny_the_enemys():
    # Called: W(0), W(1), W(2) (white 3s), B(0), B(1) (black 5s). Player 2 is quick: it starts
    # at 1 + 0.105 s and claims every 0.105 s; Player 1 starts at 1.693 s, then every 0.693 s.
    # Player 2 takes B(0), B(1) (its own), then W(0) (denying White); Player 1 takes W(1), W(2);
    # then nothing called is left and both stop.
    game = modelled([3, 3, 3, 1, 5, 5, 1, 1], (3, 5), [0.5, 0.1, 0.1, 0.1, 0.9, 0.5, 0.5],
                    back=[2])
    assert race_record(game)["claims"] == {P1: [W(1), W(2)], P2: [B(0), B(1), W(0)]}
    assert race_record(game)["seconds"] == round(1 + 2 * LN2, 3)
    assert islands(game) == {"white": [2, 0, 0, 0, 0], "black": [0, 2, 0, 0, 0]}
    assert ocean_of(game)[W(0)] == 2


def test_crew_bots_grab_the_enemys_colour_first_when_the_sharks_are_out():
    # Sharks on 3: W(0), W(1), B(0), B(1) are called. Player 1 (every 0.693 s from 1.693 s)
    # eats B(0) and B(1), then saves its own W(0); Player 2 (from 3.303 s) gets W(1) to eat.
    game = modelled([3, 3, 1, 1, 3, 3, 1, 1], (3, 3), [0.5, 0.9, 0.5, 0.5, 0.5, 0.5],
                    back=[1, 2, 3, 4, 5])
    assert race_record(game)["claims"] == {P1: [B(0), B(1), W(0)], P2: [W(1)]}
    assert race_record(game)["seconds"] == round(1 - math.log(0.1), 3)
    assert {t.name: t.eaten for t in game.teams} == {"white": 1, "black": 2}
    assert die(game, W(0)).zone == "ocean"


def test_sh_a3_the_modelled_grab_ends_when_no_called_sailor_is_left():
    # Nothing shows a called number (white 6, black 6 are not in the ocean): nobody grabs.
    game = modelled([1, 2, 3, 4, 1, 2, 3, 4], (6, 5), [0.5, 0.5])
    assert race_record(game)["claims"] == {P1: [], P2: []}
    assert race_record(game)["seconds"] == 0
    # Two called sailors: the race stops after them, three sailors left untouched.
    game = modelled([3, 1, 1, 1, 1, 1, 1, 3], (3, 3), [0.5, 0.5, 0.5, 0.5],
                    back=[1, 1, 1, 1, 1, 1])
    assert race_record(game)["claims"] == {P1: [B(3)], P2: [W(0)]}


def test_sh_a4_a_modelled_hand_stops_when_it_is_full():
    # hand_capacity 2, both hands equally quick (Player 1 first on a tie). Player 1 takes W(0),
    # W(1) and is full; Player 2 takes its B(0), then W(2) (to deny it) and is full too. W(3),
    # called, stays in the ocean.
    game = modelled([3, 3, 3, 3, 5, 1, 1, 1], (3, 5), [], sets={"hand_capacity": "2"}, back=[1])
    assert race_record(game)["claims"] == {P1: [W(0), W(1)], P2: [B(0), W(2)]}
    assert race_record(game)["seconds"] == round(1 + 2 * LN2, 3)
    assert ocean_of(game)[W(3)] == 3


def test_sh_p2_a_modelled_hand_sometimes_grabs_a_sailor_by_mistake():
    # misgrab_rate 0.5. Player 1's first claim draws 0.2 (< 0.5: a mistake) and takes the
    # first sailor not called, W(1); its second draws 0.9 and takes the one called, W(0).
    # Player 2 starts too late (at 1 + 4.6 s): nothing called is left.
    game = modelled([3, 1, 1, 1, 1, 1, 1, 1], (3, 5), [0.5, 0.99, 0.2, 0.0, 0.5, 0.9, 0.5],
                    sets={"misgrab_rate": "0.5"}, back=[6])
    assert race_record(game)["claims"] == {P1: [W(1), W(0)], P2: []}
    assert islands(game)["white"] == [1, 0, 0, 0, 0]
    assert ocean_of(game)[W(1)] == 6


def test_crew_bots_in_a_four_player_game_race_with_every_hand():
    game = modelled([3, 3, 3, 3, 5, 5, 5, 5], (3, 5), [], players=4)
    claims = race_record(game)["claims"]
    # Equal speeds: seats claim in turn, each its own colour first: P1 W(0), P2 B(0), P3 W(1),
    # P4 B(1), P1 W(2), P2 B(2), P3 W(3), P4 B(3).
    assert claims == {P1: [W(0), W(2)], P2: [B(0), B(2)], P3: [W(1), W(3)], P4: [B(1), B(3)]}
    assert islands(game) == {"white": [4, 0, 0, 0, 0], "black": [0, 4, 0, 0, 0]}


def bots_choose_islands(*script, n=12):
    """Plays scripted turns, then lets the crew bots name the islands of the next turn."""
    s = {"sailors_per_colour": str(n), "first_team": "white"}
    dice, decs = [], []
    for d, c in script:
        dice += d
        decs += c
    whites = [1, 1, 2, 2, 2, 2, 3, 3, 6, 6, 6, 6]
    blacks = [4, 4, 4, 5, 5, 5, 5, 5, 6, 6, 1, 1]
    game = new_game(program("shipwrecked", None, tuple(sorted(s.items()))), 2, None,
                    ScriptedChance([*whites, *blacks, *dice]), 0, decisions=decs)
    with pytest.raises(ChanceError):  # the captains of the bots' turn are not scripted
        game.run()
    return game, decisions(game)


def test_crew_bots_swim_for_the_closest_island_a_tied_one_first():
    # Turn 1 (White's): White 2 on island 1, Black 3 on island 2. Turn 2 (Black's): Black 5 on
    # island 4, White 4 on island 3. Turn 3: White 2 on island 5, Black 1 on island 1.
    place = [turn((1, 2), (1, 4), {P1: [W(0), W(1)], P2: [B(0), B(1), B(2)]}),
             turn((4, 3), (2, 5), {P1: [W(2), W(3), W(4), W(5)], P2: [B(i) for i in range(3, 8)]}),
             turn((5, 1), (3, 6), {P1: [W(6), W(7)], P2: [B(8)]})]
    game, chosen = bots_choose_islands(*place)
    assert islands(game) == {"white": [2, 0, 4, 0, 2], "black": [1, 3, 0, 5, 0]}
    # White leads island 1 by 1, trails 2 by 3, leads 3 by 4, trails 4 by 5, leads 5 by 2:
    # the closest is island 1 (a lead of 1, not the deficit of 3). For Black, island 1 is the
    # closest too (behind by 1).
    assert chosen[-2:] == [(P2, 1), (P1, 1)]
    # Turn 3 again, but Black brings two sailors to island 5 (2 to 2): both swim for that tie.
    place[2] = turn((5, 5), (3, 6), {P1: [W(6), W(7)], P2: [B(8), B(9)]})
    game, chosen = bots_choose_islands(*place)
    assert islands(game) == {"white": [2, 0, 4, 0, 2], "black": [0, 3, 0, 5, 2]}
    assert chosen[-2:] == [(P2, 5), (P1, 5)]


# -- seeded playouts and determinism ------------------------------------------------------------------

def seeded_game(seed, players=2, sets=(), seats=None):
    prog = program("shipwrecked", None, tuple(sorted(dict(sets).items())))
    game = new_game(prog, players, seats, SeededChance(seed), seed)
    return game, game.run()


def by_hand(game, misgrab_return="reroll", counts_if_nothing_eaten=True, shark_limit=3,
            final_tie="draw") -> dict:
    """The whole game worked out from its logged dice, islands and grabs, by the rule text
    alone: what each sailor grabbed does, where it ends, when the game ends and who wins.
    Also checks on the way that turns alternate between teams, that the leaders name the
    islands (the active team first), that nothing out of the ocean is ever grabbed, and which
    sailors each roll after a grab rerolls."""
    colour_of = {p.name: p.team.name for p in game.players}
    leaders = {t.name: t.leader.name for t in game.teams}
    face: dict[str, int] = {}
    where: dict[str, str] = {}
    isl = {t.name: [0] * len(t.on_island) for t in game.teams}
    eaten = {t.name: 0 for t in game.teams}
    target: dict[str, int] = {}
    fed, active, last_active, called, expect, ended_at = 0, None, None, None, None, None
    n_turns = 0
    for rec in game.log:
        t = rec["t"]
        if t in ("turn", "phase"):
            assert expect in (None, "done"), "the sailors thrown back were not rolled"
            expect = None
        if t == "turn":
            assert ended_at is None, "a turn after the end"
            n_turns += 1
            active = colour_of[rec["player"]]
            assert rec["player"] == leaders[active]
            assert active != last_active, "the teams alternate"
            last_active, picks = active, []
        elif t == "decision" and rec["id"] == "island":
            picks.append(rec["by"])
            target[colour_of[rec["by"]]] = rec["choice"]
            if len(picks) == 2:
                assert picks == [leaders[active], leaders[({"white", "black"} - {active}).pop()]]
        elif t == "roll" and rec["dice"] == ["white_captain", "black_captain"]:
            cw, cb = rec["faces"]
            called = {d for d, f in face.items() if where[d] == "ocean"
                      and f == (cw if d.startswith("white") else cb)}
        elif t == "roll":
            if expect not in (None, "done"):
                assert set(rec["dice"]) == expect and len(rec["dice"]) == len(expect)
                expect = "done"
            for d, f in zip(rec["dice"], rec["faces"], strict=True):
                face[d] = f
                where.setdefault(d, "ocean")
        elif t == "race":
            sharks = cw == cb
            rolled, eaten_now = set(), 0
            for player, claims in rec["claims"].items():
                side = colour_of[player]
                for d in claims:
                    assert where[d] == "ocean", f"{d} was grabbed out of the {where[d]}"
                    own = d.startswith(side)
                    if d not in called:
                        if misgrab_return == "reroll" or sharks:
                            rolled.add(d)
                    elif sharks and not own:
                        where[d] = "out"
                        eaten[d.split("_")[0]] += 1
                        eaten_now += 1
                    elif not sharks and own:
                        where[d] = "ashore"
                        isl[side][target[side] - 1] += 1
                    else:
                        rolled.add(d)
            if sharks:
                rolled = {d for d, w in where.items() if w == "ocean"}
                fed += counts_if_nothing_eaten or eaten_now > 0
            expect = rolled or None
            if fed >= shark_limit or not any(w == "ocean" for w in where.values()):
                ended_at = n_turns
    assert ended_at == n_turns, "the game ended when the rules say"
    held = {c: sum(1 for k, v in enumerate(isl[c]) if v > max(isl[o][k] for o in isl if o != c))
            for c in isl}
    ashore = {c: sum(isl[c]) for c in isl}
    sea = {c: sum(1 for d, w in where.items() if w == "ocean" and d.startswith(c)) for c in isl}
    best = [c for c in isl if held[c] == max(held.values())]
    best = [c for c in best if ashore[c] == max(ashore[x] for x in best)]
    best = [c for c in best if sea[c] == min(sea[x] for x in best)]
    if len(best) > 1 and final_tie == "draw":
        best = []
    return {"islands": isl, "eaten": eaten, "sharks_fed": fed, "turns": n_turns,
            "winners": [p.name for p in game.players if p.team.name in best],
            "ocean": sorted(d for d, w in where.items() if w == "ocean")}


def as_played(game, result) -> dict:
    return {"islands": islands(game), "eaten": {t.name: t.eaten for t in game.teams},
            "sharks_fed": game.env["sharks_fed"], "turns": result.turns,
            "winners": result.winners, "ocean": sorted(ocean_of(game))}


def test_shipwrecked_seeded_playouts_end_within_limits_and_follow_the_rules():
    eaten = misgrabs = 0
    for seed in range(80):
        game, result = seeded_game(seed)
        assert result.error is None, (seed, result.reason)
        assert result.turns <= game.limits["max_turns"] and result.steps <= game.limits["max_steps"]
        assert by_hand(game) == as_played(game, result), seed
        assert not game.unruled, "the default policy answers every decision"
        eaten += sum(t.eaten for t in game.teams)
        misgrabs += sum("by mistake" in t for t in said(game))
    assert eaten > 0 and misgrabs > 0  # the playouts reached those rules


@pytest.mark.parametrize(("players", "sets", "seats"), [
    (3, {}, None),
    (4, {}, None),
    (6, {"sailors_per_colour": "60"}, None),
    (2, {"misgrab_return": "keep_face", "misgrab_rate": "0.2"}, None),
    (2, {"final_tie": "shared", "sailors_per_colour": "6"}, None),
    (2, {"shark_counts_if_nothing_eaten": "false"}, None),
    (2, {"shark_limit": "5", "first_team": "black", "island_count": "3"}, None),
    (4, {"hand_capacity": "2", "knock_hazard": "0.05"}, None),
    (2, {}, {1: "policy:random_islands", 2: "policy:crew"}),
    (2, {}, {1: "random", 2: "random"}),
])
def test_shipwrecked_seeded_playouts_under_each_setting(players, sets, seats):
    for seed in range(25):
        game, result = seeded_game(seed, players, sets, seats)
        assert result.error is None, (seed, result.reason)
        if sets.get("knock_hazard"):
            # A knocked sailor changes face: the log replay cannot follow it; only the end.
            assert result.turns <= game.limits["max_turns"]
            continue
        expected = by_hand(game, sets.get("misgrab_return", "reroll"),
                           sets.get("shark_counts_if_nothing_eaten") != "false",
                           int(sets.get("shark_limit", 3)), sets.get("final_tie", "draw"))
        assert expected == as_played(game, result), (seed, sets)


def test_shipwrecked_same_seed_same_log():
    a, ra = seeded_game(2024, players=4)
    b, rb = seeded_game(2024, players=4)
    assert json.dumps(a.log) == json.dumps(b.log)
    assert ra.to_json() == rb.to_json()
    c, _ = seeded_game(2025, players=4)
    assert json.dumps(a.log) != json.dumps(c.log)


# -- from the command line: a readable game, and the referee -----------------------------------------

RULESET = str(ROOT / "rulesets" / "shipwrecked.yaml")


@pytest.mark.parametrize("seed", ["1", "2", "7"])
def test_meeple_run_plays_a_whole_game_readably(seed):
    out = CliRunner().invoke(main, ["run", RULESET, "--seed", seed])
    assert out.exit_code == 0, out.output
    text = out.output
    for line in ("== Setup ==", "holds the captain dice first.", "swims for island", "Grab (",
                 "Sharks! Both captains show", "(3 of 3 attacks).", "== Reckoning ==",
                 "Team white controls ", "Team black controls ",
                 "Game over: the sharks have fed 3 times"):
        assert line in text, line
    assert "Winner" in text or "No winner." in text
    assert not re.search(r"Moved to .*: nothing", text)  # no empty moves narrated


def test_meeple_run_referees_a_table_game_from_typed_in_results():
    # `--dice table:faces`: the table types every face and names every grabbed sailor (the
    # counting table, SH-A14, is below). Two sailors a side: whites show 1 2, blacks 3 4;
    # White starts. Turn 1: the bots both
    # swim for island 1; captains 1 and 3. Player 1 reports two sailors, one of which does not
    # exist (refused), then W(0); Player 2 reports item 1 (W(0), already Player 1's: refused),
    # then B(0). One sailor each on island 1. Turn 2 (Black): captains 4, 4, sharks. Player 1
    # grabbed B(1): eaten. The ocean (W(1)) is rerolled: 5. Island 1 is tied (nobody), one
    # sailor ashore each, White has one in the ocean, Black none: Black wins.
    typed = ["1 2 3 4", "1 3", "white_sailors[0] white_sailors[7]", "white_sailors[0]", "1",
             "black_sailors[0]", "4 4", "black_sailors[1]", "", "5"]
    out = CliRunner().invoke(main, ["run", RULESET, "--dice", "table:faces", "--json",
                                    "--set", "sailors_per_colour=2", "--set", "shark_limit=1",
                                    "--set", "first_team=white"],
                             input="\n".join(typed) + "\n")
    assert out.exit_code == 0, out.output
    assert "refused: there is no item 'white_sailors[7]' to claim" in out.output
    assert "refused: white_sailors[0] was already claimed by Player 1" in out.output
    result = json.loads(out.output[out.output.index("{\n"):])
    assert result["winners"] == ["Player 2"]
    assert result["turns"] == 2
    assert [s["score"] for s in result["seats"]] == [0, 0]


# -- what the engine cannot do yet ----------------------------------------------------------------

TEAMS_BY_TURN = """
meeple: 1
metadata: {name: Two teams}
players: {min: 3, max: 3}
teams: {names: [red, blue], assign: alternate, leader: first}
flow:
  phases:
    play:
      turns: {by_team: true}
      repeat: {times: 2}
      do:
        - say: "{current.team.name}"
"""


def test_by_team_turns_alternate_between_teams_with_an_odd_number_of_players(tmp_path):
    path = tmp_path / "teams.yaml"
    path.write_text(textwrap.dedent(TEAMS_BY_TURN))
    game = new_game(load(str(path)).program, 3, None, SeededChance(0), 0)
    assert game.run().error is None
    assert turns(game) == [P1, P2, P1, P2]
