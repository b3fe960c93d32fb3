"""Hand-written Shipwrecked!, a baseline for benchmarks (not the product).

Plain Python for the game, the grab-race model and the default "crew" policy of
rulesets/shipwrecked.yaml with its default parameters (2 players: seat 1 white, seat 2 black,
each its team's leader and one grabbing hand; sailors_per_colour=30, island_count=5,
shark_limit=3, shark_counts_if_nothing_eaten=true, first_team=random, misgrab_return=reroll,
final_tie=draw, grab_rate=1.5, grab_latency=1.0, misgrab_rate=0.03, hand_capacity=8,
knock_hazard=0, roll_seconds=2), so a benchmark can compare the interpreter's games/second with
this file's. The ocean is kept as counts of sailors by colour and face (sailors of one colour
showing one face are interchangeable). Per the ruleset:

- setup: every sailor is rolled into the ocean; a roll-off of the captains (doubles rolled again)
  gives the first turn to the higher captain's colour; then the teams alternate turns;
- a turn: the active team's leader names an island, then the other's. The crew policy scores
  island k by (1 if the team's sailors there <= the other team's else 0) - 2 * |the gap| and takes
  the best, the lowest number among equals. Then the captains are rolled; doubles are sharks;
- the grab race (interpreter/engine/race.py's model): every hand starts after `grab_latency` seconds,
  then claims one sailor at a time with exponential gaps of mean 1 / `grab_rate` (competing
  clocks); each claim is, with chance `misgrab_rate`, a sailor not called (uniform among the
  uncalled ones left in the ocean, if any), else a called one of the colour the policy ranks
  first: its own colour, or the enemy's when the sharks are out (the other colour when none of
  that is left). A hand stops at `hand_capacity` sailors or when no called sailor is left;
- the reveal: on a normal turn a team's called sailors of its colour land on its island and the
  enemy colour goes back; on a shark turn the enemy colour is eaten and its own goes back;
  misgrabs always go back. Sailors going back are rerolled after the grab; on a shark turn the
  whole ocean is rerolled and the attack is counted;
- the game ends after the turn of the third attack (or once the ocean is empty). An island is
  held by a strict majority; most islands wins, then most sailors ashore, then fewest sailors in
  the ocean, else a draw.

Modelled seconds are counted as the ruleset spends them (each roll 2 s, each island choice 2 s,
a race the time of its last claim).

    python3 tests/benchmarks/baseline_shipwrecked.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time

SAILORS = 30
ISLANDS = 5
SHARK_LIMIT = 3
GRAB_RATE = 1.5
GRAB_LATENCY = 1.0
MISGRAB_RATE = 0.03
CAPACITY = 8
ROLL_SECONDS = 2.0
CHOOSE_SECONDS = 2.0  # the `duration` of the island choice, once per team


def _island(mine: list, theirs: list) -> int:
    """The crew policy's island (0-based): the best score, the lowest island among equals."""
    best = 0
    best_score = None
    for k in range(ISLANDS):
        a = mine[k]
        b = theirs[k]
        score = (1 if a <= b else 0) - 2 * (a - b if a > b else b - a)
        if best_score is None or score > best_score:
            best, best_score = k, score
    return best


def play(rng: random.Random, players: int = 2) -> dict:
    """Play one game. Seats alternate white, black; every seat is a hand, the first of a team its
    leader. Returns the winning team ("white", "black" or None for a draw), the starting team,
    each team's islands held, sailors on each island, ashore, eaten and left in the ocean, and
    the turn, round, shark, same-island, claim, misgrab, full-hand and modelled-second counts."""
    rand = rng.random
    expo = rng.expovariate
    team_of = [seat % 2 for seat in range(players)]
    # ocean[c][f]: sailors of colour c (0 white, 1 black) showing face f (0..5).
    ocean = [[0] * 6, [0] * 6]
    for c in (0, 1):
        oc = ocean[c]
        for _ in range(SAILORS):
            oc[int(rand() * 6)] += 1
    in_ocean = [SAILORS, SAILORS]
    on_island = [[0] * ISLANDS, [0] * ISLANDS]
    eaten = [0, 0]
    seconds = ROLL_SECONDS
    rolls = 1
    while True:  # roll-off: the higher captain's colour starts, doubles rolled again
        seconds += ROLL_SECONDS
        rolls += 1
        w = int(rand() * 6)
        b = int(rand() * 6)
        if w != b:
            break
    active = starter = 0 if w > b else 1
    sharks_fed = 0
    turns = 0
    claims = 0
    misgrabs = 0
    race_seconds = 0.0
    grabbed = 0  # races with a claim (the others take no time)
    same = 0  # turns both teams swim for the same island
    longest = 0  # the largest hand of each race, summed
    full = 0  # hands that reached their capacity
    while True:
        turns += 1
        target = [0, 0]
        target[active] = _island(on_island[active], on_island[1 - active])
        target[1 - active] = _island(on_island[1 - active], on_island[active])
        same += target[0] == target[1]
        seconds += 2 * CHOOSE_SECONDS + ROLL_SECONDS
        rolls += 1
        wf = int(rand() * 6)
        bf = int(rand() * 6)
        sharks = wf == bf
        # The race. called[c]: called sailors of colour c still in the ocean; uncalled: the rest.
        called = [ocean[0][wf], ocean[1][bf]]
        left = called[0] + called[1]
        uncalled = in_ocean[0] + in_ocean[1] - left
        got = [[0, 0] for _ in range(players)]  # called sailors by colour, per hand
        held = [0] * players
        wrong: list = []  # the colours of the sailors misgrabbed
        last = 0.0
        if left:
            nxt = [GRAB_LATENCY + expo(GRAB_RATE) for _ in range(players)]
            going = list(range(players))
            while going:
                h = going[0]
                at = nxt[h]
                for o in going:
                    if nxt[o] < at:
                        h, at = o, nxt[o]
                if held[h] >= CAPACITY or not left:
                    going.remove(h)
                    continue
                if uncalled and rand() < MISGRAB_RATE:
                    # a sailor not called, uniform among those left in the ocean
                    i = int(rand() * uncalled)
                    for c, called_face in ((0, wf), (1, bf)):
                        oc = ocean[c]
                        for f in range(6):
                            n = oc[f] if f != called_face else 0
                            if i < n:
                                oc[f] -= 1
                                wrong.append(c)
                                break
                            i -= n
                        else:
                            continue
                        break
                    uncalled -= 1
                else:
                    first = team_of[h] if not sharks else 1 - team_of[h]
                    c = first if called[first] else 1 - first
                    called[c] -= 1
                    got[h][c] += 1
                    left -= 1
                held[h] += 1
                last = at
                nxt[h] = at + expo(GRAB_RATE)
            claims += sum(held)
            misgrabs += len(wrong)
            grabbed += 1
            longest += max(held)
            full += held.count(CAPACITY)
        seconds += last
        race_seconds += last
        # The reveal: the called sailors grabbed leave the ocean counts; some come back below.
        ocean[0][wf] = called[0]
        ocean[1][bf] = called[1]
        back = [0, 0]  # called sailors going back, by colour
        for h in range(players):
            t = team_of[h]
            own, enemy = got[h][t], got[h][1 - t]
            if sharks:
                eaten[1 - t] += enemy
                in_ocean[1 - t] -= enemy
                back[t] += own
            else:
                on_island[t][target[t]] += own
                in_ocean[t] -= own
                back[1 - t] += enemy
        if sharks:
            # Everything goes back and the whole ocean is rerolled.
            rolls += 1 if in_ocean[0] + in_ocean[1] else 0
            seconds += ROLL_SECONDS if in_ocean[0] + in_ocean[1] else 0.0
            for c in (0, 1):
                oc = ocean[c] = [0] * 6
                for _ in range(in_ocean[c]):
                    oc[int(rand() * 6)] += 1
            sharks_fed += 1
        elif back[0] or back[1] or wrong:
            rolls += 1
            seconds += ROLL_SECONDS
            for c in (0, 1):
                oc = ocean[c]
                for _ in range(back[c]):
                    oc[int(rand() * 6)] += 1
            for c in wrong:
                ocean[c][int(rand() * 6)] += 1
        if sharks_fed >= SHARK_LIMIT or in_ocean[0] + in_ocean[1] == 0:
            break
        active = 1 - active
    # The reckoning.
    white, black = on_island
    islands = [sum(1 for k in range(ISLANDS) if white[k] > black[k]),
               sum(1 for k in range(ISLANDS) if black[k] > white[k])]
    ashore = [sum(white), sum(black)]
    if islands[0] != islands[1]:
        winner = 0 if islands[0] > islands[1] else 1
    elif ashore[0] != ashore[1]:
        winner = 0 if ashore[0] > ashore[1] else 1
    elif in_ocean[0] != in_ocean[1]:
        winner = 0 if in_ocean[0] < in_ocean[1] else 1
    else:
        winner = None
    return {
        "winner": ("white", "black")[winner] if winner is not None else None,
        "starter": ("white", "black")[starter],
        "islands": islands, "ashore": ashore, "eaten": eaten, "ocean": in_ocean,
        "turns": turns, "rounds": (turns + 1) // 2, "sharks": sharks_fed, "same_island": same,
        "on_island": on_island, "claims": claims, "misgrabs": misgrabs, "full_hands": full,
        "largest_hands": longest, "races_grabbed": grabbed, "race_seconds": race_seconds,
        "seconds": seconds, "rolls": rolls,
    }


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 20000
    rng = random.Random(1)
    wins = {"white": 0, "black": 0, None: 0}
    islands = [0, 0]
    ashore = [0, 0]
    turns = sharks = claims = misgrabs = 0
    start = time.perf_counter()
    for _ in range(games):
        result = play(rng)
        wins[result["winner"]] += 1
        for c in (0, 1):
            islands[c] += result["islands"][c]
            ashore[c] += result["ashore"][c]
        turns += result["turns"]
        sharks += result["sharks"]
        claims += result["claims"]
        misgrabs += result["misgrabs"]
    elapsed = time.perf_counter() - start
    print(f"shipwrecked baseline: {games} games in {elapsed:.3f} s = {games / elapsed:,.0f} games/s")
    print(f"wins white {wins['white'] / games:.4f}, black {wins['black'] / games:.4f}, "
          f"draws {wins[None] / games:.4f}")
    print(f"mean islands held white {islands[0] / games:.3f}, black {islands[1] / games:.3f}; "
          f"mean sailors ashore white {ashore[0] / games:.2f}, black {ashore[1] / games:.2f}")
    print(f"mean turns {turns / games:.2f}, shark attacks {sharks / games:.3f}, "
          f"sailors grabbed {claims / games:.2f} ({misgrabs / max(1, claims):.4f} misgrabbed)")


if __name__ == "__main__":
    main(sys.argv)
