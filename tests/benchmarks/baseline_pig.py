"""Hand-written Pig, a baseline for benchmarks (not the product).

Plain Python for the same game and policy that the generic interpreter plays from a ruleset, so a
benchmark can compare the interpreter's games/second with this file's. Rules: 2 players, one d6,
seat 0 first. A turn rolls repeatedly: a 1 loses the turn total and ends the turn, any other face
is added to it. Both players "hold at 20": after each non-1 roll, hold (bank the turn total) once
the turn total reaches `hold_at` or the banked score plus the turn total reaches `goal`. The game
ends as soon as a banked score reaches `goal`.

    python3 tests/benchmarks/baseline_pig.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time


def play(rng: random.Random, goal: int = 100, hold_at: int = 20) -> dict:
    """Play one game; return the winner's seat, the banked scores and the turn and roll counts."""
    rand = rng.random  # int(rand() * 6): the fastest fair d6 in plain Python
    scores = [0, 0]
    seat = 0
    turns = 0
    rolls = 0
    while True:
        turns += 1
        score = scores[seat]
        turn_total = 0
        while True:
            face = int(rand() * 6) + 1
            rolls += 1
            if face == 1:
                turn_total = 0
                break
            turn_total += face
            if turn_total >= hold_at or score + turn_total >= goal:
                break
        score += turn_total
        scores[seat] = score
        if score >= goal:
            return {"winner": seat, "scores": scores, "turns": turns, "rolls": rolls}
        seat = 1 - seat


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 20000
    rng = random.Random(1)
    first_wins = 0
    turns = 0
    rolls = 0
    start = time.perf_counter()
    for _ in range(games):
        result = play(rng)
        first_wins += result["winner"] == 0
        turns += result["turns"]
        rolls += result["rolls"]
    elapsed = time.perf_counter() - start
    print(f"pig baseline: {games} games in {elapsed:.3f} s = {games / elapsed:,.0f} games/s")
    print(f"seat 0 win rate {first_wins / games:.4f} (expected about 0.5347)")
    print(f"mean turns per game {turns / games:.2f}, mean rolls per game {rolls / games:.2f}")


if __name__ == "__main__":
    main(sys.argv)
