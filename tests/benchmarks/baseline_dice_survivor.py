"""Hand-written Dice Survivor, a baseline for benchmarks (not the product).

Plain Python for rulesets/dice_survivor.yaml with its default parameters and players (4 seats,
each played by the default policy `steady`), so a benchmark can compare the interpreter's
games/second with this file's. Rules as the ruleset runs them by default (starting_pp=5,
actions_per_turn=2, extra_point_target=10, max_rematches=3, ko_defender_die=lower,
ko_half_rounding=down, naturals_outside_challenges=false; 4 players start, fewer than
finals_from=6, so there are no Finals; limits.max_turns=5000):

- setup: everyone rolls the d20; only those tied for the highest roll again; the winner plays
  first and turns go clockwise (seat order), skipping the eliminated. A round is one pass over
  the seats from its first player; the next round begins with the next player still in after
  the last one who played;
- an opposed roll: the player's d20 plus Play Points against the lower of the opponent's d12
  and d8 plus Play Points, rolled again on equal totals unless the d20 shows 1 or 20;
- a Challenge for a stake of 1 (the only one the policy makes): a natural 1 gives the opponent
  1 Play Point, a natural 20 takes 1 from them; else the lower total pays: the player the stake
  to the bank, or the beaten opponent either the stake or, with a Rematch (at most 3 a game),
  a second opposed roll: naturals as before, the opponent beaten again pays twice the stake,
  else the player pays the stake;
- the Extra Play Point: the d20 plus Play Points reaching 10 earns 1 from the bank;
- the KO (both actions, once a game): the d20 plus Play Points against the lower of the d12 and
  d8 plus the target's Play Points; higher knocks the target out, lower gives the target half
  the player's Play Points (rounded down), equal does nothing;
- nobody pays more than they hold; whoever has no Play Points is out at once; the last one left
  wins, scoring their Play Points.

The policy `steady`, rule by rule: KO the opponent with the most Play Points (the first of
equals clockwise from the player) when one has at least 3 more than the player and the KO is
unused (only as the turn's first action: it costs both); else try the Extra Play Point, then
make a 1-action Challenge against the opponent with the fewest Play Points (the first of equals
clockwise). So a turn is a KO, or an Extra Play Point and a Challenge; the policy never passes.
A beaten opponent calls a Rematch when they may and have 1 Play Point (paying would knock them
out anyway) or more than 2 (they survive losing double); with 2 they accept.

    python3 tests/benchmarks/baseline_dice_survivor.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time


def play(rng: random.Random, players: int = 4, starting_pp: int = 5,
         extra_point_target: int = 10, max_rematches: int = 3, ko_margin: int = 3,
         max_turns: int = 5000) -> dict:
    """Play one game; return the winner's seat (0-based; None if stopped past max_turns), the
    first player's seat, the winner's Play Points (`score`), turns, rounds and roll steps (a
    roll of the d12 and d8 together is one), and counts of what the policy did and how it went.
    """
    if players >= 6:
        raise ValueError("games of 6 or more end with the Finals, which this baseline does not play")
    rand = rng.random
    n = players
    pp = [starting_pp] * n              # 0 exactly when out
    rematches_used = [0] * n
    ko_used = [False] * n
    others = [tuple(list(range(s + 1, n)) + list(range(s))) for s in range(n)]
    left = n                            # participants still in
    rolls = turns = rounds = 0
    extras = extra_hits = challenges = opposed = nat1 = nat20 = 0
    challenger_lost = rematches = accepts = rematch_lost = bank_paid = 0
    kos = ko_hits = ko_misses = ko_given = targets_next = ko_next = 0

    # The roll-off: the contenders roll the d20 in seat order; the tied highest roll again.
    contenders = list(range(n))
    while len(contenders) > 1:
        faces = [int(rand() * 20) + 1 for _ in contenders]
        rolls += len(contenders)
        top = max(faces)
        contenders = [p for p, f in zip(contenders, faces, strict=True) if f == top]
    first = start = contenders[0]
    winner = None

    while left > 1:
        rounds += 1
        last = start
        for k in range(n):
            me = (start + k) % n
            if not pp[me]:
                continue
            turns += 1
            if turns > max_turns:
                break
            last = me
            mine = pp[me]
            # turn_action, first rule: KO the strongest opponent (the first of equals).
            if not ko_used[me]:
                t = -1
                best = 0
                for q in others[me]:
                    if pp[q] > best:
                        best = pp[q]
                        t = q
                if best >= mine + ko_margin:
                    kos += 1
                    ko_next += t == others[me][0]
                    ko_used[me] = True
                    f = int(rand() * 20) + 1
                    a = int(rand() * 12) + 1
                    b = int(rand() * 8) + 1
                    rolls += 2
                    mine += f
                    theirs = (a if a < b else b) + best
                    if mine > theirs:
                        ko_hits += 1
                        bank_paid += best
                        pp[t] = 0
                        left -= 1
                        if left == 1:
                            break
                    elif mine < theirs:
                        ko_misses += 1
                        half = pp[me] // 2
                        ko_given += half
                        pp[me] -= half
                        pp[t] += half
                    continue
            # Second rule: the Extra Play Point.
            extras += 1
            rolls += 1
            if int(rand() * 20) + 1 + mine >= extra_point_target:
                extra_hits += 1
                mine += 1
                pp[me] = mine
            # Third rule: a 1-action Challenge against the weakest opponent (the first of equals).
            challenges += 1
            t = -1
            best = 1 << 30
            for q in others[me]:
                v = pp[q]
                if v and v < best:
                    best = v
                    t = q
            targets_next += t == others[me][0]
            while True:
                f = int(rand() * 20) + 1
                a = int(rand() * 12) + 1
                b = int(rand() * 8) + 1
                rolls += 2
                opposed += 1
                if f == 1 or f == 20:
                    break
                c = f + mine
                d = (a if a < b else b) + best
                if c != d:
                    break
            if f == 1:
                nat1 += 1
                pp[me] = mine - 1
                pp[t] = best + 1
            elif f == 20:
                nat20 += 1
                pp[me] = mine + 1
                pp[t] = best - 1
            elif c < d:
                challenger_lost += 1
                bank_paid += 1
                pp[me] = mine - 1
            elif rematches_used[t] < max_rematches and (best <= 1 or best > 2):
                # The beaten opponent's Rematch: the opposed roll again.
                rematches += 1
                rematches_used[t] += 1
                while True:
                    f = int(rand() * 20) + 1
                    a = int(rand() * 12) + 1
                    b = int(rand() * 8) + 1
                    rolls += 2
                    opposed += 1
                    if f == 1 or f == 20:
                        break
                    c = f + mine
                    d = (a if a < b else b) + best
                    if c != d:
                        break
                if f == 1:
                    nat1 += 1
                    pp[me] = mine - 1
                    pp[t] = best + 1
                elif f == 20:
                    nat20 += 1
                    pp[me] = mine + 1
                    pp[t] = best - 1
                elif d < c:
                    rematch_lost += 1
                    paid = 2 if best > 2 else best
                    bank_paid += paid
                    pp[t] = best - paid
                else:
                    bank_paid += 1
                    pp[me] = mine - 1
            else:
                accepts += 1
                bank_paid += 1
                pp[t] = best - 1
            # Whoever has no Play Points left is out (the player's turn is over anyway).
            if not pp[me] or not pp[t]:
                left -= 1
                if left == 1:
                    break
        else:
            # The next round begins with the next player still in after the last who played.
            for q in others[last]:
                if pp[q]:
                    start = q
                    break
            continue
        break
    if left == 1:
        for s in range(n):
            if pp[s]:
                winner = s
    return {"winner": winner, "first": first, "score": pp[winner] if winner is not None else 0,
            "turns": turns if winner is not None else max_turns, "rounds": rounds,
            "rolls": rolls, "extras": extras, "extra_hits": extra_hits,
            "challenges": challenges, "opposed": opposed, "nat1": nat1, "nat20": nat20,
            "challenger_lost": challenger_lost, "rematches": rematches, "accepts": accepts,
            "rematch_lost": rematch_lost, "kos": kos, "ko_hits": ko_hits,
            "ko_misses": ko_misses, "ko_given": ko_given, "bank_paid": bank_paid,
            "targets_next": targets_next, "ko_next": ko_next}


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 50000
    rng = random.Random(1)
    first_wins = score = turns = rolls = kos = 0
    start = time.perf_counter()
    for _ in range(games):
        result = play(rng)
        first_wins += result["winner"] == result["first"]
        score += result["score"]
        turns += result["turns"]
        rolls += result["rolls"]
        kos += result["kos"]
    elapsed = time.perf_counter() - start
    print(f"dice survivor baseline: {games} games in {elapsed:.3f} s = "
          f"{games / elapsed:,.0f} games/s")
    print(f"first player wins {first_wins / games:.4f}, mean winning Play Points "
          f"{score / games:.3f}")
    print(f"mean turns per game {turns / games:.2f}, roll steps {rolls / games:.2f}, "
          f"KOs {kos / games:.3f}")


if __name__ == "__main__":
    main(sys.argv)
