"""Hand-written Dice-Bag Dungeon, a baseline for benchmarks (not the product).

Plain Python for the solo game and the default policy (`delve_then_flee`) of
rulesets/dice_bag_dungeon.yaml with its default parameters, so a benchmark can compare the
interpreter's games/second with this file's. Rules as the ruleset runs them by default
(dice_per_colour=10, start_value=3, travel_payment_rule=consecutive_payments_global,
escape_timing=immediate, travel_removal=rightmost, soak_timing=before_roll,
removed_health_to=bag, trap_when_unable=no_effect, bonus_window=after_resolution,
lighten_can_escape=true; limits.max_turns=500):

- a bag of 60 dice, 10 of each colour; setup takes out one green (Health) and one blue (Travel)
  die, both set to 3. Each turn draws one die uniformly from the bag and rolls it (d6);
- the drawn die may be rerolled, each reroll paid by returning one tableau die (Health,
  Treasure, Potion, or the rightmost Travel die, never a Curse die) to the bag; no Travel die
  if the last die paid for a reroll - in any turn - was a Travel die; no reroll once the face
  matches a Curse die; paying the last Health die dies, paying the last Travel die escapes at
  once (the drawn die is then never resolved);
- red: may be soaked before rolling (it and the highest Health die go back to the bag); else a
  Health die showing the face is removed, or with none every lower one; red goes back. Green,
  purple, black join their rows; blue joins the Travel row if within 1 of its rightmost die,
  else back; yellow joins the Treasure row if it holds no more dice than the Travel row (a face
  already there springs the trap: the lowest Health die showing 4+ is flipped to 7 - face),
  else back;
- then one bonus action: Lighten the Load (lowest Treasure and rightmost Travel die back),
  Premonition (a Potion back; the next draw may be returned and redrawn once), Healing (a Potion
  back, +1 to a Health die), Dispel Curse (a Potion and a Curse of the same face back);
- no Health dice: dead, score 0. No Travel dice: escaped, score the Treasure faces.

The policy, rule by rule as written in the ruleset (see its comments for the names): it is
"fleeing" once the treasure totals 20, after turn 100, or with 12 in treasure and a red die
that kills on 3+ faces, 5+ cursed faces, or a full Treasure row. Fleeing, it rerolls to pay
Travel dice (spacing them with Potions or spare Health); delving, it rerolls harmful red dice,
unplaceable blue dice and poor or trapped yellow dice when it can pay. Payments, soaks, heals,
dispels, lightening and premonitions follow the ruleset's scores and conditions; where the
ruleset takes the `best` of equal scores, the options are dice of the same colour and face, so
which one is taken does not matter.

    python3 tests/benchmarks/baseline_dice_bag_dungeon.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time

RED, GREEN, BLUE, YELLOW, PURPLE, BLACK = range(6)


def play(rng: random.Random, dice_per_colour: int = 10, start_value: int = 3,
         escape_treasure: int = 20, flee_loot: int = 12, flee_danger: int = 3,
         soak_danger: int = 3, flee_curses: int = 5, delve_depth: int = 3,
         patience: int = 100, max_turns: int = 500) -> dict:
    """Play one game; return the outcome ('escaped', 'dead', or 'stopped' past max_turns), the
    score (the Treasure faces on escape, else 0), counts of turns, draws, rolls and the policy's
    choices, and the longest Travel row at the end of a turn (`depth`)."""
    rand = rng.random
    bag = [colour for colour in range(6) for _ in range(dice_per_colour)]
    bag.remove(GREEN)
    bag.remove(BLUE)
    health = [start_value]
    travel = [start_value]
    treasure: list[int] = []
    potion: list[int] = []
    curse: list[int] = []
    last_paid_blue = False      # the last die paid for a reroll (any turn) was a Travel die
    premonition = False
    turn = draws = rolls = rerolls = soaks = redraws = 0
    paid_blue = paid_other = heals = dispels = lightens = premonitions = 0
    depth = 1                   # the longest Travel row at the end of a turn
    outcome = ""

    while not outcome:
        if len(travel) > depth:
            depth = len(travel)
        turn += 1
        if turn > max_turns:
            outcome = "stopped"
            break
        # Draw blind (swap-remove keeps it O(1); the bag's order does not matter).
        i = int(rand() * len(bag))
        colour = bag[i]
        bag[i] = bag[-1]
        bag.pop()
        draws += 1
        if premonition:
            premonition = False
            redraw = colour == RED or colour == BLACK or (
                colour == YELLOW and len(treasure) > len(travel))
            if not redraw and colour == BLUE:
                loot = sum(treasure)
                redraw = loot >= escape_treasure or turn > patience or (loot >= flee_loot and (
                    6 - max(health) + (len(health) == 1) >= flee_danger
                    or len(set(curse)) >= flee_curses or len(treasure) > len(travel)))
            if redraw:
                bag.append(colour)
                i = int(rand() * len(bag))
                colour = bag[i]
                bag[i] = bag[-1]
                bag.pop()
                draws += 1
                redraws += 1

        soaked = False
        if colour == RED and len(health) >= 2 and 6 - max(health) >= soak_danger:
            health.remove(max(health))
            bag.append(GREEN)
            bag.append(RED)
            soaked = True
            soaks += 1

        if not soaked:
            face = int(rand() * 6) + 1
            rolls += 1
            # The reroll loop: the policy's reroll_or_keep, then its payment.
            while face not in curse:
                nh = len(health)
                nt = len(travel)
                npot = len(potion)
                blue_ok = not last_paid_blue
                loss = 0
                if colour == RED:
                    if face in health:
                        loss = 1
                    else:
                        for h in health:
                            if h < face:
                                loss += 1
                loot = sum(treasure)
                fleeing = loot >= escape_treasure or turn > patience or (loot >= flee_loot and (
                    6 - max(health) + (nh == 1) >= flee_danger
                    or len(set(curse)) >= flee_curses or len(treasure) > nt))
                reroll = False
                if fleeing:
                    spacers = npot + nh - 1
                    way_out = (blue_ok and spacers >= nt - 1) or spacers >= nt
                    reroll = (colour != RED or loss >= 1 or way_out) and (
                        blue_ok or npot > 0 or nh >= 3 or way_out)
                if not reroll:
                    if colour == RED:
                        if loss >= nh and (nh >= 2 or treasure or potion or blue_ok):
                            reroll = True
                        elif loss >= 2:
                            reroll = True
                        elif loss == 1 and npot >= 2:
                            reroll = True
                    elif colour == BLUE:
                        reroll = nt < delve_depth and abs(face - travel[-1]) > 1 and npot >= 2
                    elif colour == YELLOW:
                        reroll = len(treasure) <= nt and npot > 0 and (
                            (face in treasure and max(health) >= 4)
                            or (face <= 2 and npot >= 2))
                if not reroll:
                    break
                # Payment: the option with the best score (no two colours ever tie).
                pay = -1
                best = -10_000
                if blue_ok:
                    pay = BLUE
                    if fleeing:
                        best = 1000
                    elif nt >= 2:
                        best = 100
                    elif colour == RED and loss >= nh:
                        best = 600
                    else:
                        best = -1000
                if potion and 500 - min(potion) > best:
                    pay = PURPLE
                    best = 500 - min(potion)
                score = 200 - min(health) if nh > 1 else -2000
                if score > best:
                    pay = GREEN
                    best = score
                if treasure and 50 - 5 * min(treasure) > best:
                    pay = YELLOW
                if pay == BLUE:
                    travel.pop()
                    bag.append(BLUE)
                    last_paid_blue = True
                    paid_blue += 1
                    if not travel:
                        outcome = "escaped"     # at once: the drawn die is never resolved
                        break
                else:
                    if pay == PURPLE:
                        potion.remove(min(potion))
                    elif pay == GREEN:
                        health.remove(min(health))
                    else:
                        treasure.remove(min(treasure))
                    bag.append(pay)
                    last_paid_blue = False
                    paid_other += 1
                    if not health:
                        outcome = "dead"
                        break
                face = int(rand() * 6) + 1
                rolls += 1
                rerolls += 1
            if outcome:
                break

            # Resolve the drawn die.
            if colour == RED:
                if face in health:
                    health.remove(face)
                    bag.append(GREEN)
                else:
                    kept = [h for h in health if h >= face]
                    for _ in range(len(health) - len(kept)):
                        bag.append(GREEN)
                    health = kept
                bag.append(RED)
                if not health:
                    outcome = "dead"
                    break
            elif colour == GREEN:
                health.append(face)
            elif colour == BLUE:
                if -1 <= face - travel[-1] <= 1:
                    travel.append(face)
                else:
                    bag.append(BLUE)
            elif colour == YELLOW:
                if len(treasure) <= len(travel):
                    if face in treasure:
                        high = [h for h in health if h >= 4]
                        if high:
                            low = min(high)
                            health[health.index(low)] = 7 - low
                    treasure.append(face)
                else:
                    bag.append(YELLOW)
            elif colour == PURPLE:
                potion.append(face)
            else:
                curse.append(face)

        # One bonus action, after every turn (bonus_window: after_resolution).
        if potion and max(health) < 6:
            # Healing. Its rule (a Healing option: a Potion and a Health die below 6; and a red
            # die that could kill: 6 - best + (1 if one die) >= 1) holds when the best is below 6.
            potion.remove(min(potion))
            bag.append(PURPLE)
            target = max(health)
            health[health.index(target)] = target + 1
            heals += 1
            continue
        if potion and curse:
            cursed = [c for c in curse if c in potion]
            if cursed:
                f = max(cursed)
                curse.remove(f)
                potion.remove(f)
                bag.append(BLACK)
                bag.append(PURPLE)
                dispels += 1
                continue
        if treasure:
            nt = len(travel)
            loot = sum(treasure)
            fleeing = loot >= escape_treasure or turn > patience or (loot >= flee_loot and (
                6 - max(health) + (len(health) == 1) >= flee_danger
                or len(set(curse)) >= flee_curses or len(treasure) > nt))
            if fleeing and ((nt >= 2 and min(treasure) <= 2) or (nt == 1 and turn > patience)):
                treasure.remove(min(treasure))
                travel.pop()
                bag.append(YELLOW)
                bag.append(BLUE)
                lightens += 1
                if not travel:
                    outcome = "escaped"
                continue
        if len(potion) >= 3:
            potion.remove(min(potion))
            bag.append(PURPLE)
            premonition = True
            premonitions += 1

    return {"outcome": outcome, "score": sum(treasure) if outcome == "escaped" else 0,
            "turns": turn if outcome != "stopped" else max_turns, "draws": draws,
            "rolls": rolls, "rerolls": rerolls, "soaks": soaks, "redraws": redraws,
            "paid_blue": paid_blue, "paid_other": paid_other, "heals": heals,
            "dispels": dispels, "lightens": lightens, "premonitions": premonitions,
            "depth": depth}


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 20000
    rng = random.Random(1)
    escaped = dead = score = turns = draws = rolls = 0
    start = time.perf_counter()
    for _ in range(games):
        result = play(rng)
        escaped += result["outcome"] == "escaped"
        dead += result["outcome"] == "dead"
        score += result["score"]
        turns += result["turns"]
        draws += result["draws"]
        rolls += result["rolls"]
    elapsed = time.perf_counter() - start
    print(f"dice-bag dungeon baseline: {games} games in {elapsed:.3f} s = "
          f"{games / elapsed:,.0f} games/s")
    print(f"escape rate {escaped / games:.4f}, death rate {dead / games:.4f}, "
          f"mean score {score / games:.3f} (0 on death)")
    print(f"mean turns per game {turns / games:.2f}, mean draws {draws / games:.2f}, "
          f"mean rolls {rolls / games:.2f}")


if __name__ == "__main__":
    main(sys.argv)
