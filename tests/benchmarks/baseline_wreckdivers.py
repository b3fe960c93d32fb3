"""Hand-written Wreckdivers, a baseline for benchmarks (not the product).

Plain Python for the game and default policy of rulesets/wreckdivers.yaml with its default
parameters (double_double=shark, shark_roll_gold=discard, score_source=computed, tie=shared,
seconds_per_roll=4, signal_seconds=0.5, laugh_hazard=0.005, margin=5), so a benchmark can compare
the interpreter's games/second with this file's. Modelled time, per the ruleset:

- each turn the diver takes the white die for the tens and rolls one white and one red d6:
  the dive lasts 10 * white + red seconds;
- the "threshold" policy ascends once the tally reaches `threshold` or fewer than `margin`
  seconds are left, and rolls otherwise;
- a roll of two white and two red d6 takes `seconds_per_roll`, ascending takes `signal_seconds`;
  if the timer runs out during either, the diver bails out and the tally is lost;
- during every stretch of d seconds under water the diver breathes or laughs with probability
  1 - (1 - laugh_hazard) ** d, which is a bail-out too;
- double reds are a shark (tally 0, even with double whites); otherwise white above red finds the
  difference in gold, twice that with double whites; an ascent banks the tally.

Most gold after the last round wins; ties are shared.

    python3 tests/benchmarks/baseline_wreckdivers.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time

SECONDS_PER_ROLL = 4.0
SIGNAL_SECONDS = 0.5
LAUGH_HAZARD = 0.005
MARGIN = 5.0


def play(rng: random.Random, players: int = 3, rounds: int = 3, threshold: int = 10) -> dict:
    """Play one game; return the winning seats, each player's gold and the turn and roll counts."""
    p_laugh_roll = 1.0 - (1.0 - LAUGH_HAZARD) ** SECONDS_PER_ROLL
    p_laugh_signal = 1.0 - (1.0 - LAUGH_HAZARD) ** SIGNAL_SECONDS
    rand = rng.random  # int(rand() * 6): the fastest fair d6 in plain Python
    gold = [0] * players
    turns = 0
    rolls = 0
    for _ in range(rounds):
        for seat in range(players):
            turns += 1
            # the white die for the tens, the red for the ones
            remaining = 10.0 * (int(rand() * 6) + 1) + (int(rand() * 6) + 1)
            tally = 0
            while True:
                if tally >= threshold or remaining < MARGIN:
                    # Ascend: the signal must be given before the timer runs out, without a breath.
                    if remaining > SIGNAL_SECONDS and rand() >= p_laugh_signal:
                        gold[seat] += tally
                    break
                # Roll: lost with the dive if the timer runs out or the diver breathes meanwhile.
                remaining -= SECONDS_PER_ROLL
                if remaining <= 0 or rand() < p_laugh_roll:
                    break
                rolls += 1
                w1 = int(rand() * 6)
                w2 = int(rand() * 6)
                r1 = int(rand() * 6)
                r2 = int(rand() * 6)
                if r1 == r2:
                    tally = 0  # shark, even with double whites
                else:
                    diff = w1 + w2 - r1 - r2
                    if diff > 0:
                        tally += 2 * diff if w1 == w2 else diff
    best = max(gold)
    winners = [seat for seat in range(players) if gold[seat] == best]
    return {"winners": winners, "gold": gold, "turns": turns, "rolls": rolls}


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 20000
    rng = random.Random(1)
    players = 3
    gold_sums = [0] * players
    rolls = 0
    shared = 0
    start = time.perf_counter()
    for _ in range(games):
        result = play(rng, players=players)
        for seat, amount in enumerate(result["gold"]):
            gold_sums[seat] += amount
        rolls += result["rolls"]
        shared += len(result["winners"]) > 1
    elapsed = time.perf_counter() - start
    means = ", ".join(f"{total / games:.2f}" for total in gold_sums)
    print(f"wreckdivers baseline: {games} games in {elapsed:.3f} s = {games / elapsed:,.0f} games/s")
    print(f"mean gold per player [{means}], mean rolls per game {rolls / games:.2f}")
    print(f"games with a shared win {shared / games:.4f}")


if __name__ == "__main__":
    main(sys.argv)
