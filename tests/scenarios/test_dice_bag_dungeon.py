"""The untitled solo dice-bag dungeon, rule by rule (rulesets/dice_bag_dungeon.yaml).

Rule ids DB-Rn (rules) and DB-An (resolved gaps) are those of research/seeds-analysis.md,
section 3. Every expected outcome below is worked out by hand from the rule text, then checked
against the game: the rows of the tableau, the bag, the log and the narration.

Scripting. The game starts with Health [3] (green_dice[0]) and Travel [3] (blue_dice[0]); the
other 58 dice are in the bag. A scripted turn names the die drawn blind from the bag (a
`picks` entry), the faces it rolls, and the decisions asked, each checked by id
("reroll_or_keep=keep"). `Delve.gain(colour, face)` is a whole quiet turn that puts a die in
the tableau (drawn, rolled, kept, placed, no bonus action), to build the tableau a rule needs.
A decision with a single legal option is taken without the script. Where the script ends the
game stops cleanly (an unscripted draw after it takes red_dice[0], which no test uses).
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli.main import main
from interpreter.engine.asking import ScriptEnded
from interpreter.engine.chance import ChanceError, ScriptedChance, SeededChance, TableChance
from interpreter.engine.setup import new_game
from interpreter.engine.values import Die
from tests.scenarios.play import play, program, said

GAME = "dice_bag_dungeon"
RULESET = str(Path(__file__).resolve().parents[2] / "rulesets" / f"{GAME}.yaml")
COLOURS = ("red", "green", "blue", "yellow", "purple", "black")
ROWS = ("health", "travel", "treasure", "potion", "curse")


class Delve:
    """The script of one game: the dice drawn, the faces rolled and the decisions taken."""

    def __init__(self, sets: dict | None = None, variant: str | None = None, start: int = 3):
        self.sets = {k: str(v).lower() if isinstance(v, bool) else str(v)
                     for k, v in (sets or {}).items()}
        self.variant = variant
        self.picks: list[list[str]] = []
        self.dice: list[int] = []
        self.decisions: list = []
        self.used = dict.fromkeys(COLOURS, 0)  # index 0 of green and blue start in the tableau
        # the tableau as the quiet turns of `gain` leave it (faces only)
        self.rows: dict[str, list[int]] = {"health": [start], "travel": [start], "treasure": [],
                                           "potion": [], "curse": []}

    def die(self, colour: str) -> str:
        """A die of this colour that the script has not drawn yet (so it is in the bag)."""
        self.used[colour] += 1
        assert self.used[colour] <= 9, f"the script draws more than nine {colour} dice"
        return f"{colour}_dice[{self.used[colour]}]"

    def draw(self, what: str) -> Delve:
        """The next blind draw: a colour (a fresh die of it) or a die id."""
        self.picks.append([what if "[" in what else self.die(what)])
        return self

    def roll(self, *faces: int) -> Delve:
        self.dice += faces
        return self

    def decide(self, *entries: str) -> Delve:
        for entry in entries:
            did, choice = entry.split("=", 1)
            self.decisions.append({"id": did, "choice": choice})
        return self

    def gain(self, colour: str, face: int, bonus: str | None = "no_bonus") -> Delve:
        """A quiet turn: draw a die of `colour`, roll `face`, keep it, place it. When a bonus
        action is then legal, `bonus` is chosen (None: left to the test's next decisions)."""
        rows = self.rows
        self.draw(colour).roll(face)
        if face not in rows["curse"]:
            self.decide("reroll_or_keep=keep")
        if colour == "green":
            rows["health"].append(face)
        elif colour == "blue":
            assert abs(face - rows["travel"][-1]) <= 1, "gain only places a Travel die"
            rows["travel"].append(face)
        elif colour == "yellow":
            assert len(rows["treasure"]) <= len(rows["travel"]), "gain only places treasure"
            assert face not in rows["treasure"] or (
                max(rows["health"]) <= 3 and self.sets.get("trap_when_unable") != "flip_any"), \
                "gain springs no trap that asks a question"
            rows["treasure"].append(face)
        elif colour == "purple":
            rows["potion"].append(face)
        elif colour == "black":
            rows["curse"].append(face)
        else:
            raise AssertionError("a red die is never placed")
        lighten = rows["treasure"] and rows["travel"] and (
            self.sets.get("lighten_can_escape") != "false" or len(rows["travel"]) > 1)
        if bonus is not None and (rows["potion"] or lighten):
            self.decide(f"bonus={bonus}")
        return self

    def play(self, to_the_end: bool = False):
        """Plays the script: to the end of the game, or (default) until the script ends."""
        game = play(GAME, dice=self.dice, decisions=self.decisions, picks=self.picks,
                    sets=self.sets, variant=self.variant, until_script_ends=not to_the_end)
        drawn = [r["items"] for r in game.log if r["t"] == "draw"]
        assert drawn[:len(self.picks)] == self.picks, "the game drew other dice than scripted"
        assert game.chance.faces == [], "some scripted faces were never rolled"
        assert not game.forced, "some scripted decisions were never asked"
        return game

    def legal(self) -> tuple[str, list[str]]:
        """(decision id, legal options) of the decision asked where the script ends."""
        with pytest.raises(AssertionError) as err:
            play(GAME, dice=self.dice, decisions=[*self.decisions, "?"], picks=self.picks,
                 sets=self.sets, variant=self.variant, until_script_ends=True)
        m = re.search(r"answers '\?' to '(\w+)' \(Player 1\), which is not legal now; legal: (.*)"
                      r" at \(", str(err.value))
        assert m, str(err.value)
        return m.group(1), m.group(2).split(", ")


def rows(game) -> dict[str, list[int]]:
    """The faces in each row of the tableau (the Travel row left to right)."""
    me = game.players[0]
    return {r: [d.face for d in getattr(me, r).items] for r in ROWS}


def ids(game, row: str) -> list[str]:
    return [d.id for d in getattr(game.players[0], row).items]


def in_bag(game, die_id: str) -> bool:
    return any(d.id == die_id for d in game.env["bag"].items)


def records(game, kind: str, **match) -> list[dict]:
    return [r for r in game.log if r["t"] == kind and all(r.get(k) == v for k, v in match.items())]


def asked(game, did: str | None = None) -> list[tuple[str, object]]:
    return [(r["id"], r["choice"]) for r in records(game, "decision")
            if did is None or r["id"] == did]


def rolled(game, die_id: str) -> list[int]:
    return [r["faces"][0] for r in records(game, "roll") if r["dice"] == [die_id]]


def turn_log(game, n: int) -> list[dict]:
    """The records of turn n (from its `turn` record to the next, or the end)."""
    starts = [i for i, r in enumerate(game.log) if r["t"] == "turn"]
    i = starts[n - 1]
    j = starts[n] if n < len(starts) else len(game.log)
    return game.log[i:j]


def ended(game) -> tuple[str, int, list[str]]:
    """(outcome, score, winners) of a finished game."""
    assert game.result is not None and game.result.error is None
    return game.env["outcome"], game.result.seats[0].score, game.result.winners


# -- the rule text as plain Python, to check seeded games ------------------------------------------

class Referee:
    """Replays a logged game by the rule text alone, taking from the log only what came from
    outside the rules (the dice drawn, the faces rolled, the player's decisions), and checks
    that every decision was legal. `params` are the game's parameter values."""

    def __init__(self, log: list[dict], params: dict):
        self.p = params
        self.recs = [r for r in log if r["t"] in ("turn", "draw", "roll", "decision", "end")]
        self.i = 0
        n = params["dice_per_colour"]
        self.bag = [f"{c}_dice[{k}]" for c in COLOURS for k in range(n)]
        self.face: dict[str, int] = {}
        self.rows: dict[str, list[str]] = {r: [] for r in ROWS}
        for row, die in (("health", "green_dice[0]"), ("travel", "blue_dice[0]")):
            self.bag.remove(die)
            self.rows[row].append(die)
            self.face[die] = params["start_value"]
        self.last_paid = ""
        self.paid_last_turn = False
        self.premonition = False
        self.outcome = "playing"
        self.turns = 0
        self.last_health_paid_needlessly = 0

    # reading the log
    def next(self, kind: str) -> dict:
        rec = self.recs[self.i]
        assert rec["t"] == kind, f"record {self.i}: expected {kind}, the log has {rec}"
        self.i += 1
        return rec

    def decision(self, did: str, legal: list | None = None):
        rec = self.next("decision")
        assert rec["id"] == did, f"expected decision {did}, the log has {rec}"
        if legal is not None:
            assert rec["choice"] in legal, f"{did}: {rec['choice']} is not legal ({legal})"
            if rec.get("only"):
                assert len(legal) == 1, f"{did} was taken as the only option of {legal}"
        return rec["choice"]

    def roll(self, die: str) -> None:
        rec = self.next("roll")
        assert rec["dice"] == [die]
        self.face[die] = rec["faces"][0]

    def draw(self) -> str:
        rec = self.next("draw")
        assert rec["source"] == "bag" and rec["blind"] and len(rec["items"]) == 1
        die = rec["items"][0]
        self.bag.remove(die)  # fails if the die was not in the bag
        return die

    # the rules
    def faces(self, row: str) -> list[int]:
        return [self.face[d] for d in self.rows[row]]

    def to_bag(self, die: str, row: str | None = None) -> None:
        if row is not None:
            self.rows[row].remove(die)
        self.bag.append(die)

    def checks(self, resolving: bool) -> bool:
        """DB-R11, DB-R16, DB-A2: death, then escape; True when the game is over."""
        if not self.rows["health"]:
            self.outcome = "dead"
        elif not self.rows["travel"] and (self.p["escape_timing"] == "immediate"
                                          or not resolving):
            self.outcome = "escaped"
        return self.outcome != "playing"

    def payable(self, paid_this_turn: bool, last_this_turn: str) -> list[str]:
        rule = self.p["travel_payment_rule"]
        allowed = {"consecutive_payments_global": self.last_paid != "blue",
                   "consecutive_payments_within_turn": last_this_turn != "blue",
                   "consecutive_turns": not self.paid_last_turn,
                   "both": self.last_paid != "blue" and not self.paid_last_turn}[rule]
        travel = self.rows["travel"] if self.p["travel_removal"] == "any" else self.rows["travel"][-1:]
        return (self.rows["health"] + self.rows["treasure"] + self.rows["potion"]
                + (travel if allowed else []))

    def soak(self, die: str) -> bool:
        if self.decision("soak", ["soak", "take_the_hit"]) != "soak":
            return False
        top = max(self.rows["health"], key=lambda d: self.face[d])
        self.to_bag(die)
        self.to_bag(top, "health")
        return True

    def lose(self, lost: list[str]) -> None:
        for d in lost:
            self.rows["health"].remove(d)
            if self.p["removed_health_to"] == "bag":
                self.bag.append(d)

    def resolve(self, die: str) -> bool:
        """DB-R10..R20; True when the die went into the tableau."""
        colour, f = die.split("_")[0], self.face[die]
        if colour == "red":
            hit = [h for h in self.rows["health"] if self.face[h] == f][:1]
            self.lose(hit or [h for h in self.rows["health"] if self.face[h] < f])
            if self.checks(True):
                return False
            self.bag.append(die)
            return False
        row = {"green": "health", "purple": "potion", "black": "curse"}.get(colour)
        if colour == "blue":
            travel = self.rows["travel"]
            if travel and abs(f - self.face[travel[-1]]) <= 1:
                row = "travel"
        elif colour == "yellow":
            if len(self.rows["treasure"]) <= len(self.rows["travel"]):
                row = "treasure"
                if f in self.faces("treasure"):
                    self.trap()
        if row is None:
            self.bag.append(die)
            return False
        self.rows[row].append(die)
        return True

    def trap(self) -> None:
        lower = [h for h in self.rows["health"] if self.face[h] >= 4]
        if not lower and self.p["trap_when_unable"] == "flip_any":
            lower = list(self.rows["health"])
        if lower:
            flip = self.decision("trap_flip", lower)
            self.face[flip] = 7 - self.face[flip]

    def bonus(self) -> None:
        rows, face = self.rows, self.face
        potions = rows["potion"]
        pairs = [q for q in potions if face[q] < 6 and self.faces("potion").count(face[q]) >= 2]
        legal = {
            "lighten": bool(rows["treasure"] and rows["travel"]
                            and (self.p["lighten_can_escape"] or len(rows["travel"]) > 1)),
            "premonition": bool(potions),
            "healing": bool(potions and any(face[h] < 6 for h in rows["health"])),
            "dispel": any(face[c] in self.faces("potion") for c in rows["curse"]),
            "phase": bool(potions and rows["travel"]),
            "improve": bool(pairs),
            "no_bonus": True}
        choice = self.decision("bonus", [k for k, ok in legal.items() if ok])
        if choice == "lighten":
            self.to_bag(self.decision("lighten_treasure", rows["treasure"]), "treasure")
            if self.p["travel_removal"] == "rightmost":
                self.to_bag(rows["travel"][-1], "travel")
            else:
                self.to_bag(self.decision("lighten_travel", rows["travel"]), "travel")
            self.checks(False)
        elif choice == "premonition":
            self.to_bag(self.decision("premonition_potion", potions), "potion")
            self.premonition = True
        elif choice == "healing":
            self.to_bag(self.decision("heal_potion", potions), "potion")
            target = self.decision("heal_target", [h for h in rows["health"] if face[h] < 6])
            face[target] = min(6, face[target] + 1)
        elif choice == "dispel":
            curse = self.decision("dispel_curse", [c for c in rows["curse"]
                                                   if face[c] in self.faces("potion")])
            potion = next(q for q in potions if face[q] == face[curse])
            self.to_bag(curse, "curse")
            self.to_bag(potion, "potion")
        elif choice == "phase":
            potion = self.decision("phase_potion", potions)
            face[rows["travel"][-1]] = face[potion]
            self.to_bag(potion, "potion")
        elif choice == "improve":
            keep = self.decision("improve_keep", pairs)
            other = next(q for q in potions if face[q] == face[keep] and q != keep)
            self.to_bag(other, "potion")
            face[keep] = min(6, face[keep] + 1)

    def turn(self) -> None:
        self.next("turn")
        self.turns += 1
        paid_this_turn, last_this_turn = False, ""
        die = self.draw()
        if self.premonition:  # DB-R23, DB-A12
            self.premonition = False
            if self.decision("premonition_redraw", ["keep", "redraw"]) == "redraw":
                self.bag.append(die)
                die = self.draw()
        red = die.startswith("red")
        soaked = red and self.p["soak_timing"] == "before_roll" and self.soak(die)
        if soaked and self.checks(True):
            return
        placed = False
        if not soaked:
            self.roll(die)  # DB-R3
            while self.rows["travel"] and self.face[die] not in self.faces("curse"):
                payable = self.payable(paid_this_turn, last_this_turn)
                if self.decision("reroll_or_keep", ["reroll", "keep"]) == "keep":
                    break
                pay = self.decision("payment", payable)  # DB-R4..R7
                if pay == self.rows["health"][0] and len(self.rows["health"]) == 1 and len(payable) > 1:
                    self.last_health_paid_needlessly += 1
                row = next(r for r in ROWS if pay in self.rows[r])
                self.last_paid = last_this_turn = pay.split("_")[0]
                paid_this_turn = paid_this_turn or row == "travel"
                self.to_bag(pay, row)
                if self.checks(True):
                    return
                self.roll(die)
            if red and self.p["soak_timing"] == "before_resolution":
                soaked = self.soak(die)
                if soaked and self.checks(True):
                    return
            if not soaked:
                placed = self.resolve(die)
                if self.outcome != "playing":
                    return
        if self.checks(False):
            return
        if self.p["bonus_window"] == "after_resolution" or placed:
            self.bonus()
            if self.outcome != "playing":
                return
        self.paid_last_turn = paid_this_turn

    def run(self) -> Referee:
        while self.outcome == "playing":
            self.turn()
        end = self.next("end")
        assert self.i == len(self.recs), "the log goes on after the end"
        score = sum(self.faces("treasure")) if self.outcome == "escaped" else 0
        assert end["scores"] == {"Player 1": score}
        return self


def params(game) -> dict:
    return {name: game.env[name] for name in program(GAME).data["parameters"]}


def refereed(game) -> Referee:
    """The Referee's replay of a finished game, checked against the game's own state."""
    ref = Referee(game.log, params(game)).run()
    assert ref.outcome == game.env["outcome"]
    me = game.players[0]
    for row in ROWS:
        assert [d.id for d in getattr(me, row).items] == ref.rows[row], row
        assert [d.face for d in getattr(me, row).items] == ref.faces(row), row
    assert sorted(d.id for d in game.env["bag"].items) == sorted(ref.bag)
    return ref


# -- setup and the turn: DB-R1..R3 -------------------------------------------------------------

def test_db_r1_setup_places_one_health_and_one_travel_die_at_3():
    """DB-R1, DB-P2: one Health (green) and one Travel (blue) die are taken from the bag (chosen,
    not drawn), set to 3 and placed; the other 58 dice stay in the bag."""
    game = Delve().draw("green").roll(4).play()  # stops at the first reroll question
    assert rows(game) == {"health": [3], "travel": [3], "treasure": [], "potion": [], "curse": []}
    assert ids(game, "health") == ["green_dice[0]"] and ids(game, "travel") == ["blue_dice[0]"]
    setup = game.log[:game.log.index({"t": "phase", "phase": "delve"})]
    assert not records(game, "draw") or game.log.index(records(game, "draw")[0]) > len(setup)
    assert [r["items"] for r in setup if r["t"] == "move"] == [["green_dice[0]"], ["blue_dice[0]"]]
    assert ("Player 1 enters the dungeon with a Health die and a Travel die at 3; 58 dice wait "
            "in the bag.") in said(game)
    # After the first draw (a green die): 57 in the bag, ten of each colour but green and blue.
    bag = Counter(d.colour for d in game.env["bag"].items)
    assert bag == {"red": 10, "green": 8, "blue": 9, "yellow": 10, "purple": 10, "black": 10}


def test_db_r1_the_starting_value_and_the_dice_per_colour_are_parameters():
    """DB-R1: the starting face (3) and the ten dice of each colour are parameters."""
    game = Delve(sets={"start_value": 5, "dice_per_colour": 4}).draw("green").roll(4).play()
    assert rows(game)["health"] == [5] and rows(game)["travel"] == [5]
    assert len(game.env["bag"].items) == 6 * 4 - 3


def test_db_r2_each_turn_draws_one_die_blind_from_the_bag():
    """DB-R2, DB-P1: each turn the player draws one die at random from the bag; it leaves the
    bag."""
    s = Delve().draw("purple").roll(2).decide("reroll_or_keep=keep", "bonus=no_bonus")
    game = s.draw("black").roll(3).decide("reroll_or_keep=keep").play()  # stops at the bonus
    assert [r["items"] for r in records(game, "draw")] == [["purple_dice[1]"], ["black_dice[1]"]]
    assert records(game, "draw")[0] == {"t": "draw", "source": "bag", "items": ["purple_dice[1]"],
                                        "blind": True}
    assert not in_bag(game, "purple_dice[1]") and not in_bag(game, "black_dice[1]")
    assert len(game.env["bag"].items) == 56
    assert said(game)[1:3] == ["You draw a purple die.", "The purple die joins your Potion row at 2."]
    assert len(records(game, "turn")) == 2  # one draw per turn


def test_db_r2_seeded_draws_are_uniform_over_the_dice_in_the_bag():
    """DB-P1: a blind draw is uniform over the dice in the bag (58 at the first draw: 10 red,
    9 green, 9 blue, 10 yellow, 10 purple, 10 black)."""
    prog = program(GAME)
    n = 1500
    first = Counter()
    for seed in range(n):
        game = new_game(prog, None, None, SeededChance(seed), seed)
        game.script_only = True  # stop at the first decision
        try:
            game.run()
        except ScriptEnded:
            pass
        first[records(game, "draw")[0]["items"][0].split("_")[0]] += 1
    for colour in COLOURS:
        p = (9 if colour in ("green", "blue") else 10) / 58
        sd = (n * p * (1 - p)) ** 0.5
        assert abs(first[colour] - n * p) < 4 * sd, (colour, first)


def test_db_r3_a_drawn_die_is_rolled_at_once_before_any_decision():
    """DB-R3: a drawn die is always rolled at least once; keeping that first roll is allowed."""
    game = Delve().draw("black").roll(5).decide("reroll_or_keep=keep").play()
    turn = turn_log(game, 1)
    kinds = [r["t"] for r in turn if r["t"] in ("draw", "roll", "decision")]
    assert kinds[:3] == ["draw", "roll", "decision"]
    assert rolled(game, "black_dice[1]") == [5]
    assert rows(game)["curse"] == [5]


# -- rerolls: DB-R4..R9, DB-A1, DB-A3, DB-A10 ----------------------------------------------------

def test_db_r4_each_reroll_costs_one_other_tableau_die_returned_to_the_bag():
    """DB-R4: the drawn die may be rerolled as often as the player likes; each reroll costs one
    other die of the tableau, which goes back to the bag."""
    s = Delve().gain("purple", 2).gain("green", 5)           # Health [3, 5], Potion [2]
    s.draw("yellow").roll(1).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]", "purple_dice[1]",
                                     "blue_dice[0]"])  # never the drawn die itself
    s.decide("payment=purple_dice[1]").roll(4)
    s.decide("reroll_or_keep=reroll", "payment=green_dice[0]").roll(6)
    s.decide("reroll_or_keep=keep")
    game = s.play()
    assert rolled(game, "yellow_dice[1]") == [1, 4, 6]
    assert rows(game) == {"health": [5], "travel": [3], "treasure": [6], "potion": [], "curse": []}
    assert in_bag(game, "purple_dice[1]") and in_bag(game, "green_dice[0]")
    assert "You pay your purple potion die showing 2 for a reroll." in said(game)
    assert "You pay your green health die showing 3 for a reroll." in said(game)


def test_db_r5_curse_dice_never_pay_for_a_reroll():
    """DB-R5: Curse dice cannot be removed to pay for rerolls."""
    s = Delve().gain("black", 2).gain("yellow", 6)
    s.draw("purple").roll(5).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "yellow_dice[1]", "blue_dice[0]"])


def test_db_r6_no_travel_die_pays_right_after_a_travel_die():
    """DB-R6, DB-A3: a Travel die (the rightmost) cannot pay for a reroll if the last die paid
    was a Travel die; after another payment it can again."""
    s = Delve().gain("green", 5).gain("blue", 4).gain("blue", 5)   # Travel [3, 4, 5]
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]", "blue_dice[2]"])
    s.decide("payment=blue_dice[2]").roll(2).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]"])
    s.decide("payment=green_dice[0]").roll(3).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[1]", "blue_dice[1]"])  # now the 4 is rightmost
    s.decide("payment=blue_dice[1]").roll(6).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["travel"] == [3] and rows(game)["health"] == [5]
    assert rows(game)["potion"] == [6]
    assert game.env["last_paid_colour"] == "blue"


def test_db_a1_the_last_payment_is_remembered_into_the_next_turn():
    """DB-A1 (default consecutive_payments_global): the memory of the last die paid carries over
    to the next turn, so a turn ending with a Travel payment forbids one to start the next."""
    s = Delve().gain("green", 5).gain("blue", 4)
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll", "payment=blue_dice[1]").roll(3)
    s.decide("reroll_or_keep=keep", "bonus=no_bonus")
    s.draw("black").roll(2).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]", "purple_dice[1]"])


def test_db_a1_within_turn_memory_starts_afresh_each_turn():
    """DB-A1, consecutive_payments_within_turn: the same limit, forgotten at the turn's end."""
    s = Delve(sets={"travel_payment_rule": "consecutive_payments_within_turn"})
    s.gain("green", 5).gain("blue", 4)
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll", "payment=blue_dice[1]")
    s.roll(3).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]"])
    s.decide("payment=green_dice[1]").roll(4).decide("reroll_or_keep=keep", "bonus=no_bonus")
    s.draw("black").roll(2).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "purple_dice[1]", "blue_dice[0]"])


def test_db_r7_consecutive_turns_reading_bars_travel_payments_the_turn_after():
    """DB-R7, DB-A1 consecutive_turns: no Travel die pays in a turn right after a turn in which
    one did; within a turn two Travel payments in a row are allowed; the turn after next, Travel
    dice pay again."""
    s = Delve(sets={"travel_payment_rule": "consecutive_turns"})
    s.gain("green", 5).gain("blue", 4).gain("blue", 5)              # turns 1-3
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll", "payment=blue_dice[2]").roll(2)
    s.decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]", "blue_dice[1]"])
    s.decide("payment=blue_dice[1]").roll(3).decide("reroll_or_keep=keep", "bonus=no_bonus")
    # turn 5, after a turn with Travel payments: none at all, even after a Health payment
    s.draw("black").roll(1).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]", "purple_dice[1]"])
    s.decide("payment=purple_dice[1]").roll(2).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]"])
    s.decide("payment=green_dice[0]").roll(4).decide("reroll_or_keep=keep")
    # turn 6: the Travel die pays again
    s.draw("black").roll(6).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[1]", "blue_dice[0]"])


@pytest.mark.parametrize("setup", [{"sets": {"travel_payment_rule": "both"}}, {"variant": "literal"}],
                         ids=["both", "literal_variant"])
def test_db_a1_both_readings_together(setup):
    """DB-A1 both (also the literal variant): the consecutive-payment limit and the
    consecutive-turn limit at once."""
    s = Delve(**setup).gain("green", 5).gain("blue", 4)
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll", "payment=blue_dice[1]").roll(2)
    s.decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]"])
    s.decide("payment=green_dice[1]").roll(3).decide("reroll_or_keep=keep", "bonus=no_bonus")
    s.draw("black").roll(2).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "purple_dice[1]"])


def test_db_a3_any_travel_die_may_pay_when_the_table_says_so():
    """DB-A3: by default only the rightmost Travel die pays (retracing your steps); with
    travel_removal any, the player picks any of them."""
    s = Delve(sets={"travel_removal": "any"}).gain("blue", 4).gain("blue", 5)
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "blue_dice[0]", "blue_dice[1]",
                                     "blue_dice[2]"])
    s.decide("payment=blue_dice[0]").roll(2).decide("reroll_or_keep=keep")
    game = s.play()
    assert ids(game, "travel") == ["blue_dice[1]", "blue_dice[2]"]


def test_db_r8_a_face_matching_a_curse_cannot_be_rerolled():
    """DB-R8, DB-A10: a die showing the face of any Curse die cannot be rerolled; this holds
    for the first roll, and the drawn die is kept and resolved at once."""
    s = Delve().gain("black", 4)
    s.draw("green").roll(4)  # no reroll question
    s.draw("yellow").roll(2).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [3, 4] and rows(game)["treasure"] == [2]
    assert "The green die shows a cursed 4: it cannot be rerolled." in said(game)
    assert asked(game, "reroll_or_keep") == [("reroll_or_keep", "keep")] * 2


def test_db_a10_the_curse_lock_applies_after_a_reroll_too_and_to_a_drawn_black_die():
    """DB-A10: once a reroll shows a cursed face, no more rerolls; a drawn black die is checked
    against the Curse dice already placed."""
    s = Delve().gain("black", 6).gain("green", 5)
    s.draw("yellow").roll(2).decide("reroll_or_keep=reroll", "payment=green_dice[0]").roll(6)
    s.decide("bonus=no_bonus")
    s.draw("black").roll(6)
    game = s.play()
    assert rows(game)["treasure"] == [6]
    assert rows(game)["curse"] == [6, 6]
    assert said(game).count("The yellow die shows a cursed 6: it cannot be rerolled.") == 1
    assert "The black die shows a cursed 6: it cannot be rerolled." in said(game)
    assert len(asked(game, "reroll_or_keep")) == 3  # the two gains and the yellow's first roll


def test_db_r9_r10_the_die_is_resolved_only_once_the_player_keeps_it():
    """DB-R9, DB-R10: rerolled faces are not resolved; the final one is. A green die goes into
    the Health row at its final face."""
    s = Delve().gain("purple", 6)
    s.draw("green").roll(2).decide("reroll_or_keep=reroll", "payment=purple_dice[1]").roll(5)
    s.decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [3, 5]
    assert "The green die joins your Health row at 5." in said(game)
    assert not any("at 2" in t for t in said(game))


# -- death and damage: DB-R11..R14, DB-A4, DB-A5, DB-A9, DB-A14 -----------------------------------

def test_db_r11_no_health_dice_is_death_with_score_0():
    """DB-R11, DB-R28: with no Health dice left you die, and your treasure is lost: score 0."""
    s = Delve().gain("yellow", 6)
    s.draw("red").decide("soak=take_the_hit").roll(5).decide("reroll_or_keep=keep")
    game = s.play(to_the_end=True)
    # A 5 matches no Health die; the 3 is lower, so it is lost: no Health dice remain.
    assert ended(game) == ("dead", 0, [])
    assert rows(game)["health"] == [] and rows(game)["treasure"] == [6]
    assert "The red die shows 5: no Health die matches, so you lose every Health die below it: 3." \
        in said(game)
    assert game.result.reason == "Player 1 has no Health dice left and dies in the dungeon"
    assert records(game, "check")[-1] == {"t": "check", "check": "death", "player": "Player 1"}


def test_db_a9_paying_the_last_health_die_for_a_reroll_kills_at_once():
    """DB-A9: paying your last Health die for a reroll is legal, and you die at once: the
    reroll never happens and the drawn die is never resolved."""
    s = Delve().gain("yellow", 4)
    s.draw("yellow").roll(1).decide("reroll_or_keep=reroll", "payment=green_dice[0]")
    game = s.play(to_the_end=True)
    assert ended(game) == ("dead", 0, [])
    assert rolled(game, "yellow_dice[2]") == [1]
    assert rows(game)["treasure"] == [4]
    assert game.log[-3:-1] == [{"t": "move", "items": ["green_dice[0]"], "to": "bag"},
                               {"t": "check", "check": "death", "player": "Player 1"}]


def test_db_r12_a_matching_damage_roll_removes_exactly_one_health_die():
    """DB-R12, DB-A14: the red die removes one Health die showing its face, even when several
    do; then it goes back to the bag."""
    s = Delve().gain("green", 4).gain("green", 4)          # Health [3, 4, 4]
    s.draw("red").decide("soak=take_the_hit").roll(4).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [3, 4]
    assert ids(game, "health") == ["green_dice[0]", "green_dice[2]"]
    assert in_bag(game, "green_dice[1]") and in_bag(game, "red_dice[1]")
    assert "The red die shows 4: you lose a Health die showing 4." in said(game)


def test_db_r12_without_a_match_every_lower_health_die_is_removed():
    """DB-R12: with no Health die showing the red face, every Health die lower than it goes."""
    s = Delve().gain("green", 1).gain("green", 6)          # Health [3, 1, 6]
    s.draw("red").decide("soak=take_the_hit").roll(5).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [6]
    assert in_bag(game, "green_dice[0]") and in_bag(game, "green_dice[1]")
    assert "The red die shows 5: no Health die matches, so you lose every Health die below it: " \
           "3, 1." in said(game)


def test_db_r12_without_a_match_or_a_lower_die_there_is_no_damage():
    """DB-R12: no match and nothing lower: no damage."""
    s = Delve().gain("green", 5)
    s.draw("red").decide("soak=take_the_hit").roll(2).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [3, 5]
    assert "The red die shows 2: no Health die matches or is lower - no damage." in said(game)
    assert records(game, "move")[-1] == {"t": "move", "items": ["red_dice[1]"], "to": "bag"}


def test_db_r12_damage_is_read_from_the_final_face_after_rerolls():
    """DB-R12 with DB-R4: rerolling a red die changes the damage: only the kept face counts."""
    s = Delve().gain("green", 2).gain("purple", 1)         # Health [3, 2], Potion [1]
    s.draw("red").decide("soak=take_the_hit").roll(6)      # a 6 would take both Health dice
    s.decide("reroll_or_keep=reroll", "payment=purple_dice[1]").roll(2)
    s.decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [3]
    assert rows(game)["potion"] == []


def test_db_r13_a_red_die_is_never_placed():
    """DB-R13: damage dice always go back to the bag, never into the tableau."""
    s = Delve()
    s.draw("red").decide("soak=take_the_hit").roll(1).decide("reroll_or_keep=keep")
    s.draw("red").decide("soak=take_the_hit").roll(3).decide("reroll_or_keep=reroll",
                                                             "payment=blue_dice[0]")
    game = s.play(to_the_end=True)
    assert all(r["to"] == "bag" for r in records(game, "move") if r["items"][0].startswith("red"))
    assert in_bag(game, "red_dice[1]")
    assert ended(game) == ("escaped", 0, ["Player 1"])  # the 3 would have killed: paid Travel


def test_db_r14_soak_returns_the_red_die_and_the_highest_health_die_instead_of_rolling():
    """DB-R14, DB-A4: instead of rolling a red die, return it and your highest Health die to
    the bag; it is never rolled."""
    s = Delve().gain("green", 5).gain("green", 2)
    s.draw("red").decide("soak=soak")
    game = s.play()
    assert rows(game)["health"] == [3, 2]
    assert in_bag(game, "green_dice[1]") and in_bag(game, "red_dice[1]")
    assert rolled(game, "red_dice[1]") == []
    assert "You soak the hit: the red die and your highest Health die (5) go back to the bag." \
        in said(game)
    assert records(game, "move")[-1] == {"t": "move", "items": ["red_dice[1]", "green_dice[1]"],
                                         "to": "bag"}


def test_db_r14_soaking_with_a_single_health_die_kills():
    """DB-R14 with DB-R11: soaking gives up the highest Health die, the last one here."""
    game = Delve().draw("red").decide("soak=soak").play(to_the_end=True)
    assert ended(game) == ("dead", 0, [])


def test_db_a4_soak_is_offered_only_before_the_roll_by_default():
    """DB-A4 before_roll: no soak question once the red die is rolled."""
    s = Delve().gain("green", 5)
    s.draw("red").decide("soak=take_the_hit").roll(4).decide("reroll_or_keep=keep")
    game = s.play()
    assert asked(game, "soak") == [("soak", "take_the_hit")]
    assert rows(game)["health"] == [5]


def test_db_a4_soak_after_the_rolls_when_the_table_allows_it():
    """DB-A4 before_resolution (the gentle variant): the soak comes after seeing the rolls,
    before the damage is resolved."""
    for setup in ({"sets": {"soak_timing": "before_resolution"}}, {"variant": "gentle"}):
        s = Delve(**setup).gain("green", 5)
        s.draw("red").roll(6).decide("reroll_or_keep=keep", "soak=soak")
        game = s.play()
        assert rows(game)["health"] == [3]
        assert rolled(game, "red_dice[1]") == [6]
        assert asked(game, "soak") == [("soak", "soak")]
        # taking the hit instead: the 6 takes both Health dice
        s = Delve(**setup).gain("green", 5)
        s.draw("red").roll(6).decide("reroll_or_keep=keep", "soak=take_the_hit")
        assert ended(s.play(to_the_end=True)) == ("dead", 0, [])


def test_db_a5_removed_health_dice_go_back_to_the_bag_or_out_of_the_game():
    """DB-A5: damage returns Health dice to the bag by default ("damage returns"); the table may
    put them out of the game instead. A soaked Health die always goes to the bag."""
    for where, back in (("bag", True), ("out", False)):
        s = Delve(sets={"removed_health_to": where}).gain("green", 4).gain("green", 6)
        s.draw("red").decide("soak=take_the_hit").roll(4).decide("reroll_or_keep=keep")
        s.draw("red").decide("soak=soak")
        game = s.play()
        assert rows(game)["health"] == [3]
        assert in_bag(game, "green_dice[1]") is back
        assert in_bag(game, "green_dice[2]")  # soaked
        assert len(game.env["bag"].items) == 58 - 2 + (1 if back else 0)


# -- the other colours: DB-R15..R20, DB-A6, DB-A13 ------------------------------------------------

def test_db_r15_a_travel_die_is_placed_when_next_to_the_rightmost():
    """DB-R15: a blue die goes at the right end of the Travel row if its face equals, or is one
    above or below, the rightmost Travel die's; otherwise back to the bag."""
    s = Delve()
    s.draw("blue").roll(4).decide("reroll_or_keep=keep")   # 4 next to 3: [3, 4]
    s.draw("blue").roll(2).decide("reroll_or_keep=keep")   # 2 is next to the 3, not the 4: back
    s.draw("blue").roll(4).decide("reroll_or_keep=keep")   # equal: [3, 4, 4]
    s.draw("blue").roll(3).decide("reroll_or_keep=keep")   # one below: [3, 4, 4, 3]
    s.draw("blue").roll(5).decide("reroll_or_keep=keep")   # two above: back
    game = s.play()
    assert rows(game)["travel"] == [3, 4, 4, 3]
    assert ids(game, "travel") == ["blue_dice[0]", "blue_dice[1]", "blue_dice[3]", "blue_dice[4]"]
    assert in_bag(game, "blue_dice[2]") and in_bag(game, "blue_dice[5]")
    assert "The blue 4 is next to your rightmost Travel die (3): you delve deeper." in said(game)
    assert "The blue 2 does not fit your Travel row: back to the bag." in said(game)
    assert "The blue 5 does not fit your Travel row: back to the bag." in said(game)


def test_db_r15_the_ends_of_the_die_have_one_neighbour():
    """DB-R15: next to a 6 only 5 and 6 fit; a 1 does not wrap around."""
    s = Delve(sets={"start_value": 6})
    s.draw("blue").roll(1).decide("reroll_or_keep=keep")
    s.draw("blue").roll(5).decide("reroll_or_keep=keep")
    assert rows(s.play())["travel"] == [6, 5]


def test_db_r16_paying_the_last_travel_die_escapes_at_once_with_the_treasure():
    """DB-R16, DB-A2 immediate, DB-R28: when the last Travel die is paid you have escaped; the
    game ends at that moment, the drawn die is never rerolled nor resolved, and the score is
    the total of the Treasure dice."""
    s = Delve().gain("yellow", 6).gain("yellow", 4)       # Treasure [6, 4]: 1 <= 1 Travel die
    s.draw("green").roll(2).decide("reroll_or_keep=reroll", "payment=blue_dice[0]")
    game = s.play(to_the_end=True)
    assert ended(game) == ("escaped", 10, ["Player 1"])
    assert game.result.reason == "Player 1 escapes with 10 in treasure"
    assert rolled(game, "green_dice[1]") == [2]
    assert rows(game)["health"] == [3] and rows(game)["travel"] == []
    assert records(game, "check")[-1] == {"t": "check", "check": "escape", "player": "Player 1"}


def test_db_a2_after_resolution_the_die_is_resolved_before_the_escape():
    """DB-A2 after_resolution: paying the last Travel die finishes that reroll, resolves the die
    (no more rerolls: you are out), then you escape; no bonus action follows."""
    s = Delve(sets={"escape_timing": "after_resolution"}).gain("yellow", 6).gain("yellow", 4)
    s.draw("green").roll(2).decide("reroll_or_keep=reroll", "payment=blue_dice[0]").roll(6)
    game = s.play(to_the_end=True)
    assert ended(game) == ("escaped", 10, ["Player 1"])
    assert rows(game)["health"] == [3, 6]
    assert asked(game)[-2:] == [("reroll_or_keep", "reroll"), ("payment", "blue_dice[0]")]


def test_db_a2_after_resolution_a_red_die_can_still_kill_on_the_way_out():
    """DB-A2 after_resolution: the escape needs you to survive the drawn die; with immediate
    escape the same payment saves the treasure."""
    script = [("soak=take_the_hit",), (5,), ("reroll_or_keep=reroll", "payment=blue_dice[0]")]
    for timing, faces, outcome in (("after_resolution", (5, 4), ("dead", 0, [])),
                                   ("immediate", (5,), ("escaped", 6, ["Player 1"]))):
        s = Delve(sets={"escape_timing": timing}).gain("yellow", 6)
        s.draw("red").decide(*script[0]).roll(*faces).decide(*script[2])
        game = s.play(to_the_end=True)
        assert ended(game) == outcome, timing


def test_db_r17_treasure_is_placed_only_while_it_does_not_outnumber_the_travel_dice():
    """DB-R17: a yellow die is placed if the Treasure dice number at most the Travel dice;
    otherwise it goes back to the bag."""
    s = Delve()
    s.draw("yellow").roll(2).decide("reroll_or_keep=keep", "bonus=no_bonus")   # 0 <= 1
    s.draw("yellow").roll(5).decide("reroll_or_keep=keep", "bonus=no_bonus")   # 1 <= 1
    s.draw("yellow").roll(6).decide("reroll_or_keep=keep")                     # 2 > 1: back
    game = s.play()
    assert rows(game)["treasure"] == [2, 5]
    assert in_bag(game, "yellow_dice[3]")
    assert ("No room for more treasure (2 Treasure dice against 1 Travel): the yellow die goes "
            "back to the bag.") in said(game)


def test_db_a13_the_treasure_limit_counts_the_travel_dice_after_this_turns_payments():
    """DB-A13: the counts are compared when the die is placed, after the rerolls paid this
    turn: paying a Travel die can leave no room for the treasure being rerolled."""
    s = Delve().gain("blue", 4).gain("yellow", 2).gain("yellow", 5)   # 2 Travel, 2 Treasure
    s.draw("yellow").roll(1).decide("reroll_or_keep=reroll", "payment=blue_dice[1]").roll(6)
    s.decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["treasure"] == [2, 5] and rows(game)["travel"] == [3]
    assert in_bag(game, "yellow_dice[3]")
    # Without that payment, the third treasure fits beside two Travel dice.
    s = Delve().gain("blue", 4).gain("yellow", 2).gain("yellow", 5)
    s.draw("yellow").roll(6).decide("reroll_or_keep=keep")
    assert rows(s.play())["treasure"] == [2, 5, 6]


def test_db_r18_a_matching_treasure_springs_the_trap():
    """DB-R18, DB-A6: a Treasure die matching one already in the row makes you flip a Health die
    upside down (v becomes 7 - v) so that it gets lower; you choose which."""
    s = Delve().gain("green", 5).gain("green", 4).gain("yellow", 2)   # Health [3, 5, 4]
    s.draw("yellow").roll(2).decide("reroll_or_keep=keep")
    assert s.legal() == ("trap_flip", ["green_dice[1]", "green_dice[2]"])  # not the 3
    s.decide("trap_flip=green_dice[1]")
    game = s.play()
    assert rows(game)["health"] == [3, 2, 4]
    assert rows(game)["treasure"] == [2, 2]
    assert "Trap! Your Health die showing 5 is flipped to 2." in said(game)


def test_db_r18_the_only_die_that_can_go_lower_is_flipped_without_asking():
    """DB-R18: with one Health die above 3, that one is flipped (6 becomes 1), unasked."""
    s = Delve().gain("green", 6).gain("yellow", 3)
    s.draw("yellow").roll(3).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [3, 1]
    assert records(game, "decision", id="trap_flip") == [
        {"t": "decision", "id": "trap_flip", "by": "Player 1", "choice": "green_dice[1]",
         "only": True}]


def test_db_r18_no_trap_without_a_matching_treasure():
    """DB-R18: only a face already in the Treasure row springs the trap; the first Treasure die
    never does."""
    s = Delve().gain("green", 6).gain("yellow", 3)
    s.draw("yellow").roll(4).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [3, 6] and rows(game)["treasure"] == [3, 4]
    assert not any(t.startswith("Trap!") for t in said(game))


def test_db_a6_a_trap_that_cannot_lower_any_health_die_does_nothing():
    """DB-A6 no_effect: with every Health die at 3 or less, nothing happens."""
    s = Delve().gain("green", 1).gain("yellow", 2)
    s.draw("yellow").roll(2).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["health"] == [3, 1] and rows(game)["treasure"] == [2, 2]
    assert "Trap! But no Health die can be flipped lower: nothing happens." in said(game)
    assert asked(game, "trap_flip") == []


def test_db_a6_flip_any_flips_a_low_health_die_upwards():
    """DB-A6 flip_any: the player still flips one Health die, which raises it."""
    s = Delve(sets={"trap_when_unable": "flip_any"}).gain("green", 1).gain("yellow", 2)
    s.draw("yellow").roll(2).decide("reroll_or_keep=keep", "trap_flip=green_dice[1]")
    game = s.play()
    assert rows(game)["health"] == [3, 6]
    assert "Trap! Your Health die showing 1 is flipped to 6." in said(game)


def test_db_r19_r20_potion_and_curse_dice_are_placed_at_their_final_face():
    """DB-R19, DB-R20: purple dice go into the Potion row and black dice into the Curse row, at
    their final face."""
    s = Delve().gain("green", 5)
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll", "payment=green_dice[0]").roll(4)
    s.decide("reroll_or_keep=keep", "bonus=no_bonus")
    s.draw("black").roll(2).decide("reroll_or_keep=reroll", "payment=purple_dice[1]").roll(5)
    s.decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["potion"] == [] and rows(game)["curse"] == [5]
    assert "The purple die joins your Potion row at 4." in said(game)
    assert "The black die joins your Curse row at 5." in said(game)


# -- bonus actions: DB-R21..R27, DB-A7, DB-A8, DB-A11, DB-A12, DB-A17..A19 -------------------------

def test_db_r21_at_most_one_bonus_action_per_turn_after_the_die_is_resolved():
    """DB-R21, DB-A18: after the die is resolved, one optional bonus action, then the next turn's
    draw; never a second one in the same turn."""
    s = Delve().gain("purple", 2).gain("purple", 5)
    s.draw("green").roll(1).decide("reroll_or_keep=keep", "bonus=healing",
                                   "heal_potion=purple_dice[1]", "heal_target=green_dice[1]")
    s.draw("black").roll(3).decide("reroll_or_keep=keep")
    game = s.play()
    turn = turn_log(game, 3)
    kinds = [(r["t"], r.get("id")) for r in turn if r["t"] in ("move", "decision", "draw")]
    assert kinds == [("draw", None), ("decision", "reroll_or_keep"), ("move", None),
                     ("decision", "bonus"), ("decision", "heal_potion"), ("move", None),
                     ("decision", "heal_target")]
    assert turn_log(game, 4)[1]["t"] == "draw"
    assert rows(game)["health"] == [3, 2] and rows(game)["potion"] == [5]


def test_db_a7_a_bonus_action_follows_any_resolution_by_default():
    """DB-A7 after_resolution: the bonus action is offered after a red die too (so Healing can
    follow damage); with the literal after_placement_only only after a die was placed."""
    s = Delve().gain("purple", 2)
    s.draw("red").decide("soak=take_the_hit").roll(1).decide("reroll_or_keep=keep")
    assert s.legal() == ("bonus", ["premonition", "healing", "phase", "no_bonus"])
    for setup in ({"sets": {"bonus_window": "after_placement_only"}}, {"variant": "literal"}):
        s = Delve(**setup).gain("purple", 2)
        s.draw("red").decide("soak=take_the_hit").roll(1).decide("reroll_or_keep=keep")
        s.draw("blue").roll(6).decide("reroll_or_keep=keep")    # not placed: no bonus either
        s.draw("green").roll(6).decide("reroll_or_keep=keep")   # placed: a bonus
        assert s.legal() == ("bonus", ["premonition", "healing", "phase", "no_bonus"])
        assert asked(s.decide("bonus=no_bonus").play(), "bonus") == [("bonus", "no_bonus")] * 2


def test_db_r22_lighten_the_load_returns_a_treasure_die_and_the_rightmost_travel_die():
    """DB-R22, DB-A3: Lighten the Load returns one Treasure die (your pick) and one Travel die,
    the rightmost."""
    s = Delve().gain("blue", 4).gain("yellow", 5).gain("yellow", 2)
    s.draw("purple").roll(1).decide("reroll_or_keep=keep", "bonus=lighten")
    assert s.legal() == ("lighten_treasure", ["yellow_dice[1]", "yellow_dice[2]"])
    game = s.decide("lighten_treasure=yellow_dice[2]").play()
    assert rows(game)["treasure"] == [5] and ids(game, "travel") == ["blue_dice[0]"]
    assert in_bag(game, "yellow_dice[2]") and in_bag(game, "blue_dice[1]")
    assert ("Lighten the Load: your Treasure die showing 2 and a Travel die go back to the bag."
            in said(game))
    # With travel_removal any, the player picks the Travel die.
    s = Delve(sets={"travel_removal": "any"}).gain("blue", 4).gain("yellow", 5)
    s.draw("purple").roll(1).decide("reroll_or_keep=keep", "bonus=lighten")
    s.decide("lighten_travel=blue_dice[0]")
    game = s.play()
    assert ids(game, "travel") == ["blue_dice[1]"] and rows(game)["treasure"] == []


def test_db_a8_lightening_the_last_travel_die_escapes():
    """DB-A8: the escape is state-based: Lighten the Load on the last Travel die escapes, with
    the treasure left."""
    s = Delve().gain("yellow", 5).gain("yellow", 2)
    s.draw("purple").roll(1).decide("reroll_or_keep=keep", "bonus=lighten",
                                    "lighten_treasure=yellow_dice[2]")
    game = s.play(to_the_end=True)
    assert ended(game) == ("escaped", 5, ["Player 1"])
    assert rows(game)["travel"] == []


def test_db_a8_lighten_can_be_kept_from_removing_the_last_travel_die():
    """DB-A8 lighten_can_escape false: Lighten needs two Travel dice."""
    s = Delve(sets={"lighten_can_escape": False}).gain("yellow", 5)
    s.draw("purple").roll(1).decide("reroll_or_keep=keep")
    assert s.legal() == ("bonus", ["premonition", "healing", "phase", "no_bonus"])
    s = Delve(sets={"lighten_can_escape": False}).gain("blue", 4).gain("yellow", 5)
    s.draw("purple").roll(1).decide("reroll_or_keep=keep")
    assert s.legal()[1][0] == "lighten"


def test_db_a8_lighten_is_not_a_reroll_payment():
    """DB-A8: a Travel die lightened does not count as the last die paid for a reroll: after a
    Travel payment, Lighten does not clear the limit, and after a Health payment it does not
    set it."""
    s = Delve().gain("green", 5).gain("blue", 4).gain("blue", 3).gain("yellow", 6)
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll", "payment=blue_dice[2]").roll(2)
    s.decide("reroll_or_keep=keep", "bonus=lighten")     # the only Treasure die goes
    s.draw("black").roll(5).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[0]", "green_dice[1]", "purple_dice[1]"])
    s = Delve().gain("green", 5).gain("blue", 4).gain("blue", 3).gain("yellow", 6)
    s.draw("purple").roll(1).decide("reroll_or_keep=reroll", "payment=green_dice[0]").roll(2)
    s.decide("reroll_or_keep=keep", "bonus=lighten")     # the only Treasure die goes
    s.draw("black").roll(5).decide("reroll_or_keep=reroll")
    assert s.legal() == ("payment", ["green_dice[1]", "purple_dice[1]", "blue_dice[1]"])


def test_db_r23_premonition_lets_you_return_the_next_draw_and_draw_again():
    """DB-R23, DB-A12: drink a Potion; at the next draw you may return the die and draw again,
    once; the offer is then used up."""
    s = Delve().gain("purple", 4, bonus="premonition")     # the only Potion: drunk unasked
    s.draw("red").decide("premonition_redraw=redraw").draw("green").roll(5)
    s.decide("reroll_or_keep=keep")
    s.draw("red").decide("soak=take_the_hit").roll(1).decide("reroll_or_keep=keep")
    game = s.play()
    assert rows(game)["potion"] == [] and in_bag(game, "purple_dice[1]")
    turn = turn_log(game, 2)
    assert [r["items"] for r in turn if r["t"] == "draw"] == [["red_dice[1]"], ["green_dice[1]"]]
    assert {"t": "move", "items": ["red_dice[1]"], "to": "bag"} in turn
    assert rows(game)["health"] == [3, 5]
    assert asked(game, "premonition_redraw") == [("premonition_redraw", "redraw")]  # once
    assert "Premonition: the red die goes back and you draw again." in said(game)


def test_db_a12_premonition_is_used_up_even_when_the_draw_is_kept():
    """DB-A12: the offer applies to the very next draw only, kept or not; a redraw may bring
    back the same die."""
    s = Delve().gain("purple", 4, bonus="premonition")
    s.draw("yellow").decide("premonition_redraw=keep").roll(5).decide("reroll_or_keep=keep",
                                                                       "bonus=no_bonus")
    s.draw("green").roll(2).decide("reroll_or_keep=keep", "bonus=no_bonus")
    game = s.play()
    assert asked(game, "premonition_redraw") == [("premonition_redraw", "keep")]
    assert game.env["premonition_pending"] is False
    s = Delve().gain("purple", 4, bonus="premonition")
    s.draw("red_dice[1]").decide("premonition_redraw=redraw").draw("red_dice[1]")
    s.decide("soak=take_the_hit").roll(1).decide("reroll_or_keep=keep")
    game = s.play()
    assert rolled(game, "red_dice[1]") == [1]


def test_db_r24_healing_raises_one_health_die_by_one():
    """DB-R24, DB-A11: drink a Potion; one Health die you choose goes up by one, never above 6;
    a 6 is not offered."""
    s = Delve().gain("green", 5).gain("green", 6).gain("purple", 2, bonus="healing")
    assert s.legal() == ("heal_target", ["green_dice[0]", "green_dice[1]"])
    game = s.decide("heal_target=green_dice[1]").play()
    assert rows(game)["health"] == [3, 6, 6] and rows(game)["potion"] == []
    assert in_bag(game, "purple_dice[1]")
    assert "Healing: your Health die showing 5 goes up to 6." in said(game)


def test_db_a11_no_healing_when_every_health_die_shows_6():
    s = Delve(start=6, sets={"start_value": 6}).gain("purple", 2, bonus=None)
    assert s.legal() == ("bonus", ["premonition", "phase", "no_bonus"])


def test_db_r25_dispel_returns_a_potion_and_a_curse_of_the_same_value():
    """DB-R25, DB-A17: return a Potion die and a Curse die showing the same face; not offered
    when no faces match."""
    s = Delve().gain("purple", 4).gain("black", 5, bonus=None)
    assert s.legal() == ("bonus", ["premonition", "healing", "phase", "no_bonus"])
    s = Delve().gain("purple", 4).gain("black", 4, bonus="dispel")
    game = s.play()
    assert rows(game)["curse"] == [] and rows(game)["potion"] == []
    assert in_bag(game, "purple_dice[1]") and in_bag(game, "black_dice[1]")
    assert "Dispel Curse: a Potion and a Curse showing 4 go back to the bag." in said(game)


def test_db_r26_phase_sets_the_rightmost_travel_die_to_the_potions_value():
    """DB-R26, DB-A19: drink a Potion; your rightmost Travel die takes its value, however far
    from its own; the next Travel die must then fit that value."""
    s = Delve().gain("blue", 4).gain("purple", 1, bonus="phase")
    s.draw("blue").roll(2).decide("reroll_or_keep=keep")    # next to the new 1
    game = s.play()
    assert rows(game)["travel"] == [3, 1, 2] and rows(game)["potion"] == []
    assert in_bag(game, "purple_dice[1]")
    assert "Phase: your rightmost Travel die now shows 1." in said(game)


def test_db_r27_improve_returns_one_of_two_equal_potions_and_raises_the_other():
    """DB-R27: with two Potion dice of the same value, return one and raise the other by one."""
    s = Delve().gain("purple", 3).gain("purple", 3, bonus="improve")
    assert s.legal() == ("improve_keep", ["purple_dice[1]", "purple_dice[2]"])
    game = s.decide("improve_keep=purple_dice[2]").play()
    assert ids(game, "potion") == ["purple_dice[2]"] and rows(game)["potion"] == [4]
    assert in_bag(game, "purple_dice[1]")


def test_db_a11_improve_needs_a_pair_below_6():
    """DB-A11: a pair of 6s cannot be improved; with a pair of 6s and a pair of 2s only the 2s
    are offered; a single Potion is no pair."""
    s = Delve().gain("purple", 6).gain("purple", 6, bonus=None)
    assert s.legal() == ("bonus", ["premonition", "healing", "phase", "no_bonus"])
    s = Delve().gain("purple", 6).gain("purple", 6).gain("purple", 2).gain("purple", 2, "improve")
    assert s.legal() == ("improve_keep", ["purple_dice[3]", "purple_dice[4]"])


# -- the end: DB-R28 ------------------------------------------------------------------------------

def test_db_r28_a_whole_game_delve_and_escape():
    """DB-R28 with DB-R4, R6, R12, R15..R17: a whole scripted game. Health 5, Travel 4, Treasure
    6 and 5; then a red die shows 6, which would take both Health dice (3 and 5, both lower):
    reroll paying the rightmost Travel die (4), then the Health 3 (no Travel die right after a
    Travel die), then the last Travel die: escaped at once with 6 + 5 = 11."""
    s = Delve().gain("green", 5).gain("blue", 4).gain("yellow", 6).gain("yellow", 5)
    s.draw("red").decide("soak=take_the_hit").roll(6)
    s.decide("reroll_or_keep=reroll", "payment=blue_dice[1]").roll(2)
    s.decide("reroll_or_keep=reroll", "payment=green_dice[0]").roll(1)
    s.decide("reroll_or_keep=reroll", "payment=blue_dice[0]")
    game = s.play(to_the_end=True)
    assert ended(game) == ("escaped", 11, ["Player 1"])
    assert (game.result.turns, game.result.rounds, game.result.rolls) == (5, 5, 7)
    assert rows(game) == {"health": [5], "travel": [], "treasure": [6, 5], "potion": [],
                          "curse": []}
    assert said(game)[-1] == "You pay your blue travel die showing 3 for a reroll."
    assert "Health 3, 5 | Travel 3, 4 | Treasure 6, 5 = 11 | Potions none | Curses none" \
        in said(game)
    refereed(game)  # the plain-Python rules agree move by move


def test_db_r28_death_scores_0_whatever_the_treasure():
    """DB-R28: on death the score is 0 and nobody wins."""
    s = Delve().gain("yellow", 6).gain("yellow", 5)
    s.draw("red").decide("soak=take_the_hit").roll(4).decide("reroll_or_keep=keep")
    game = s.play(to_the_end=True)
    assert ended(game) == ("dead", 0, [])
    assert game.result.seats[0].placement == 1
    refereed(game)


# -- the bot: delve for treasure, flee when the risk grows ------------------------------------------

def bot_game(s: Delve, sets: dict | None = None):
    """Plays the script's prelude, then lets the default policy decide until the scripted dice
    or draws run out (the game then stops where it stands)."""
    prog = program(GAME, None, tuple(sorted((sets or {}).items())))
    chance = ScriptedChance(list(s.dice), picks=s.picks)
    game = new_game(prog, None, None, chance, 0, decisions=list(s.decisions))
    try:
        game.result = game.run()
    except ChanceError:
        game.result = None
    return game


def bot_choices(game, turn: int) -> list[tuple[str, object]]:
    """The decisions taken in that turn."""
    return [(r["id"], r["choice"]) for r in turn_log(game, turn) if r["t"] == "decision"]


def test_bot_delves_when_it_has_nothing_to_lose():
    """The default bot does not flee at once: with no treasure it keeps a good draw instead of
    paying its only Travel die (the old bot escaped with 0 on the first roll of every game)."""
    s = Delve().draw("yellow").roll(5)
    game = bot_game(s)
    assert bot_choices(game, 1) == [("reroll_or_keep", "keep"), ("bonus", "no_bonus")]
    assert rows(game)["travel"] == [3] and rows(game)["treasure"] == [5]


def test_bot_flees_with_its_treasure_when_one_red_die_could_kill_it():
    """With 12 in treasure and one Health die at 3 (4 of a red die's 6 faces would kill), the
    bot flees: it pays its Travel die at the next roll, and escapes with 12."""
    s = Delve().gain("yellow", 6).gain("yellow", 6)  # the trap finds no Health die above 3
    s.draw("green").roll(2)
    game = bot_game(s)
    assert bot_choices(game, 3) == [("reroll_or_keep", "reroll"), ("payment", "blue_dice[0]")]
    assert ended(game) == ("escaped", 12, ["Player 1"])


def test_bot_keeps_delving_with_strong_health_and_room_for_treasure():
    """The same 12 in treasure, but Health 3, 6, 6 (no face of a red die kills) and room for a
    third Treasure die beside two Travel dice: the bot delves on."""
    s = Delve().gain("green", 6).gain("green", 6).gain("blue", 4).gain("yellow", 6)
    s.gain("yellow", 5).draw("green").roll(2)
    game = bot_game(s)
    assert bot_choices(game, 6) == [("reroll_or_keep", "keep"), ("bonus", "no_bonus")]
    assert rows(game)["health"] == [3, 6, 6, 2]


def test_bot_flees_at_its_treasure_goal_whatever_its_health():
    """At escape_treasure the bot flees even when healthy."""
    s = Delve().gain("green", 6).gain("green", 6).gain("blue", 4).gain("yellow", 6)
    s.gain("yellow", 5).draw("green").roll(2)
    game = bot_game(s, {"escape_treasure": "11"})
    assert bot_choices(game, 6)[:2] == [("reroll_or_keep", "reroll"), ("payment", "blue_dice[1]")]


def test_bot_soaks_only_when_it_can_spare_a_health_die():
    """Health 3, 3: three faces of a red die (4, 5, 6) would take both; the bot soaks, giving up
    one 3. With a single Health die, soaking would kill: it takes the hit and rerolls a deadly
    face, paying a Travel die rather than its last Health die."""
    s = Delve().gain("green", 3).draw("red")
    game = bot_game(s)
    assert bot_choices(game, 2) == [("soak", "soak"), ("bonus", "no_bonus")]
    assert rows(game)["health"] == [3]
    s = Delve().gain("blue", 4).draw("red").roll(5)
    assert bot_choices(bot_game(s), 2) == [("soak", "take_the_hit"), ("reroll_or_keep", "reroll"),
                                           ("payment", "blue_dice[1]")]


def seeded(seed, variant=None, sets=(), seats=None):
    prog = program(GAME, variant, tuple(sorted(dict(sets).items())))
    game = new_game(prog, None, seats, SeededChance(seed), seed)
    return game, game.run()


def test_bot_weighs_escape_against_greed_over_300_seeded_games():
    """Over 300 seeded games the default bot delves (games last, most escape with treasure, few
    end on the first turn: only a first red die that would kill leaves no other way out) and
    does far better than random play."""
    games = [seeded(seed) for seed in range(300)]
    outcome = Counter(g.env["outcome"] for g, _ in games)
    scores = [r.seats[0].score for _, r in games]
    turns = [r.turns for _, r in games]
    assert outcome["escaped"] + outcome["dead"] == 300
    assert outcome["escaped"] >= 0.6 * 300
    assert sum(s >= 10 for s in scores) >= 0.25 * 300
    assert statistics.mean(scores) >= 4.5
    assert sum(t == 1 for t in turns) <= 0.2 * 300
    assert statistics.mean(turns) >= 10
    rand = [seeded(seed, seats={1: "random"})[1].seats[0].score for seed in range(300)]
    assert statistics.mean(scores) >= statistics.mean(rand) + 3


# -- seeded playouts: every variant ends within the limits and follows the rules ------------------

SETUPS = [
    {}, {"variant": "literal"}, {"variant": "gentle"},
    {"sets": {"travel_payment_rule": "consecutive_payments_within_turn"}},
    {"sets": {"travel_payment_rule": "consecutive_turns"}},
    {"sets": {"escape_timing": "after_resolution"}},
    {"sets": {"travel_removal": "any"}},
    {"sets": {"removed_health_to": "out"}},
    {"sets": {"trap_when_unable": "flip_any"}},
    {"sets": {"lighten_can_escape": "false"}},
    {"sets": {"dice_per_colour": "2", "start_value": "6"}},
]


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: ",".join(
    [s.get("variant", "")] + [f"{k}={v}" for k, v in s.get("sets", {}).items()]).strip(",") or "base")
def test_seeded_bot_games_end_within_the_limits_and_follow_the_rules(setup):
    """Every variant and setting: seeded games of the default bot and of random play end by
    escape or death within limits.max_turns, with no rule error and no decision the policy has
    no rule for; replayed by the rules in plain Python (Referee), every decision was legal and
    the tableau, the bag and the score agree."""
    sets = tuple(sorted(setup.get("sets", {}).items()))
    limit = program(GAME, setup.get("variant"), sets).limits["max_turns"]
    outcomes = Counter()
    for seed in range(30):
        for seats in (None, {1: "random"}):
            game, result = seeded(seed, setup.get("variant"), sets, seats)
            assert result.error is None, (seed, result.reason)
            assert result.turns <= limit
            ref = refereed(game)
            outcomes[ref.outcome] += 1
            if seats is None:
                assert not game.unruled, game.unruled
                assert ref.last_health_paid_needlessly == 0
    assert set(outcomes) == {"escaped", "dead"}  # DB-A15, DB-A16: the bag never ran dry


def test_the_same_seed_gives_the_same_game():
    """Same ruleset, seed and decisions: the same log, event for event; another seed differs."""
    a, ra = seeded(2024)
    b, rb = seeded(2024)
    assert json.dumps(a.log) == json.dumps(b.log)
    assert ra.to_json() == rb.to_json()
    c, _ = seeded(2025)
    assert json.dumps(c.log) != json.dumps(a.log)


# -- the command line: a narrated game, and the table as referee ------------------------------------

def referee_log(path: Path) -> Referee:
    """The Referee's replay of a game logged by `meeple run --log` with default parameters."""
    log = [json.loads(x) for x in path.read_text().splitlines()][1:]  # after the header
    values = {name: spec.get("default") for name, spec in program(GAME).data["parameters"].items()}
    return Referee(log, values).run()


@pytest.mark.parametrize("seed", [1, 4, 15])
def test_meeple_run_narrates_a_whole_game_to_its_end(seed, tmp_path):
    """`meeple run --seed S` plays a whole game: every turn narrated with the die drawn, how it
    was resolved and the tableau, then the outcome, which the rules in plain Python confirm."""
    log = tmp_path / "g.jsonl"
    out = CliRunner().invoke(main, ["run", RULESET, "--seed", str(seed), "--log", str(log)])
    assert out.exit_code == 0, out.output
    text = out.output
    ref = referee_log(log)
    turns = text.count("-- round ")
    assert turns == ref.turns
    assert text.count("You draw a ") + text.count("Premonition: the ") >= turns
    # The tableau after every turn but the last.
    assert len(re.findall(r"^  Health .* \| Travel ", text, re.M)) == turns - 1
    score = sum(ref.faces("treasure"))
    if ref.outcome == "escaped":
        assert f"Game over: Player 1 escapes with {score} in treasure" in text
    else:
        assert "Game over: Player 1 has no Health dice left and dies in the dungeon" in text
    replay = CliRunner().invoke(main, ["replay", str(log)])
    assert replay.exit_code == 0, replay.output


def test_the_table_referees_a_game_from_typed_in_dice_and_draws(tmp_path):
    """`--dice table`: the table says which die it drew from the bag (by colour) and types in
    every roll; an impossible face or a colour not left in the bag is refused and asked again;
    the game runs to its end on what the table entered, by the rules."""
    typed = iter([7] + [1, 6, 2, 5, 3, 4, 4, 6, 2, 2, 5, 1, 3] * 60)
    colours = iter(["pink"] + ["green", "red", "blue", "yellow", "purple", "black"] * 100)
    said: list[str] = []
    drawn: list[str] = []

    def ask(prompt: str) -> str:
        if prompt.startswith("Draw "):
            left = re.findall(r"(\w+) \((\d+)\)", prompt)
            while True:  # a colour still in the bag (after the one refused at first)
                c = next(colours)
                if c == "pink" or any(k == c for k, _ in left):
                    drawn.append(c)
                    return c
        return str(next(typed))
    chance = TableChance(ask, said.append, seed=7)
    game = new_game(program(GAME), None, None, chance, 7)
    result = game.run()
    assert result.error is None, result.error
    assert any("cannot show 7 (faces 1..6)" in x for x in said)
    assert any("no 'pink' is left to draw" in x for x in said)
    draws = [r["items"][0] for r in game.log if r["t"] == "draw"]
    assert [d.split("_")[0] for d in draws] == [c for c in drawn if c != "pink"][:len(draws)]
    values = {name: spec.get("default") for name, spec in program(GAME).data["parameters"].items()}
    ref = Referee(game.log, values).run()
    assert result.reason.startswith("Player 1 escapes" if ref.outcome == "escaped" else
                                    "Player 1 has no Health dice left")


# -- what the engine cannot do yet ------------------------------------------------------------------

def test_engine_the_table_reports_the_die_it_drew_from_the_bag(tmp_path):
    """DB-P1: at a real table the player draws a die from the opaque bag; meeple, refereeing,
    should be told what was drawn (here: a green die) rather than draw it itself."""
    log = tmp_path / "t.jsonl"
    out = CliRunner().invoke(main, ["run", RULESET, "--dice", "table", "--seed", "1", "--log",
                                    str(log)], input="green\n4\n" * 3)
    first = next(json.loads(x) for x in log.read_text().splitlines() if '"draw"' in x)
    assert first["items"][0].startswith("green_dice"), out.output


def test_engine_a_scripted_draw_of_a_die_not_in_the_bag_is_refused():
    """A scripted blind draw naming a die that is not in the bag is a mistake in the script; it
    should stop like a face the die cannot show, not draw something else."""
    bag = [Die("red_dice[1]", "red_dice", list(range(1, 7)), {}),
           Die("green_dice[1]", "green_dice", list(range(1, 7)), {})]
    chance = ScriptedChance(picks=[["blue_dice[4]"]])
    with pytest.raises(ChanceError):
        chance.pick(bag, 1)
