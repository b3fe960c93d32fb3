"""Hand-written Liar's Dice, a baseline for benchmarks (not the product).

Plain Python for the game of rulesets/liars_dice.yaml with its default players (2) and its
`cautious` policy at every seat. Rules: each player starts with `dice_each` dice; every hand,
each player still in rolls their dice, then from the starter round the table each player
raises the bid (a number: (quantity - 1) * 6 + face) or calls the standing bid a lie. On a call,
if at least `quantity` dice on the table show `face`, the caller loses a die, else the bidder
does; a player left with no dice is out and the next player still in opens the next hand,
otherwise the loser opens it. The last player holding dice wins.

The policy, as the ruleset writes it: call when the bid's quantity is more than `doubt_margin`
above (own dice showing the bid's face + unseen dice / 6); else the bid with the best score,
first of equals, over every legal bid (about 150 with 10 dice on the table): a bid its
expectation supports scores 100 + own dice showing its face - bid / 1000, another -bid. Each
option's score is evaluated as the policy's expression says (its own dice showing the face,
counted for that option), so the benchmark compares meeple's cost per option with the cost of
evaluating the policy's expression on that option in plain Python, the issue's measure for a
decision with many options.

    python3 tests/benchmarks/baseline_liars_dice.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time


def play(rng: random.Random, players: int = 2, dice_each: int = 5,
         doubt_margin: float = 1) -> dict:
    """Play one game; return the winner's seat, the dice each player holds, the hands played
    and the bids made."""
    rand = rng.random
    cups = [[0] * dice_each for _ in range(players)]
    out = [False] * players
    starter, hands, bids, left = 0, 0, 0, players
    while left > 1:
        hands += 1
        for p in range(players):
            if not out[p]:
                cup = cups[p]
                for i in range(len(cup)):
                    cup[i] = int(rand() * 6) + 1
        total = sum(len(c) for c in cups)
        bid, bidder = 0, -1
        seat = starter
        while True:
            if out[seat]:
                seat = (seat + 1) % players
                continue
            cup = cups[seat]
            unseen = total - len(cup)
            move = -1
            if bid > 0:
                face, quantity = (bid - 1) % 6 + 1, (bid - 1) // 6 + 1
                if quantity > sum(1 for f in cup if f == face) + unseen / 6 + doubt_margin:
                    move = 0
            if move < 0:
                best = None
                for option in range(bid + 1, 6 * total + 1):
                    face, quantity = (option - 1) % 6 + 1, (option - 1) // 6 + 1
                    mine = sum(1 for f in cup if f == face)
                    score = (100 + mine - option / 1000 if quantity <= mine + unseen / 6
                             else -option)
                    if best is None or score > best:
                        move, best = option, score
                if best is None or best < -1000:  # the call scores -1000 and comes first
                    move = 0
            if move != 0:
                bids += 1
                bid, bidder = move, seat
                seat = (seat + 1) % players
                continue
            face, quantity = (bid - 1) % 6 + 1, (bid - 1) // 6 + 1
            shown = sum(1 for c in cups for f in c if f == face)
            loser = seat if shown >= quantity else bidder
            cups[loser].pop(0)
            if cups[loser]:
                starter = loser
            else:
                out[loser] = True
                left -= 1
                starter = next(q % players for q in range(loser + 1, loser + players)
                               if not out[q % players])
            break
    winner = next(p for p in range(players) if not out[p])
    return {"winner": winner, "dice": [len(c) for c in cups], "hands": hands, "bids": bids}


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 2000
    rng = random.Random(1)
    first_wins = hands = 0
    start = time.perf_counter()
    for _ in range(games):
        result = play(rng)
        first_wins += result["winner"] == 0
        hands += result["hands"]
    elapsed = time.perf_counter() - start
    print(f"liar's dice baseline: {games} games in {elapsed:.3f} s = "
          f"{games / elapsed:,.0f} games/s")
    print(f"seat 0 win rate {first_wins / games:.4f}, mean hands per game {hands / games:.2f}")


if __name__ == "__main__":
    main(sys.argv)
