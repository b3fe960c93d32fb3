"""Hand-written Dark Water Salvage, a baseline for benchmarks (not the product).

Plain Python for the game and the default policy of rulesets/dark_water_salvage.yaml with its
default parameters (final_round_rule=short_draw_is_last, research_cost=1, step_cost=1,
locate_cost=3, starting_money=0, max_loop_cycles=20, final_tie_break=net_then_turn_order,
bot_reserve=0), its default 4 players and the policy `sonar_hunter` on every seat, so a
benchmark can compare the interpreter's games/second with this file's. Per the ruleset:

- the map P-9x5 (columns A..I, rows 1..5; rows 1-2 Shallow with salvage cost $2, row 3 Medium
  $4, rows 4-5 Deep $6), five Cities with their boat hire, three Features, 37 open-water
  regions; twelve Shipwrecks: a shuffled Ship card (Prestige for LOCATED and SALVAGED), one of
  the 37 Location cards and one of the twelve Value cards (a salvaged value per region);
- the draw bag holds 17 + 3(N-2) $5 and 13 + 7(N-2) $10 chips, Turn Order cards 1..N are dealt
  at random. Each round the GLNS offers 2N chips, or what is left (then it is the last round);
  every bot applies for pool // N, so all collect it, in Turn Order, and keep their cards;
- in Turn Order each player picks a free City: the one nearest (boat hire + steps) to a wreck
  its notes pin down, else the one whose sonar card splits its candidates into most answers;
- the Action token goes RESEARCH, MOVE, LOCATE, SALVAGE, ... while a station sees an action
  within the last four, for at most 20 trips; at each station every player, in Turn Order,
  acts as often as the policy wants, then passes:
  RESEARCH ($1) while some wreck's candidates would be split by the sonar card where the pawn
  stands (the depth card in open water, else the compass from the City or Feature), on the
  wreck with the fewest candidates among those (the first in the layout among equals); the
  notes keep the candidates with the same answer as the wreck's true region;
  MOVE ($1 a step, plus the City's boat hire on the round's first step) towards the nearest
  pinned-down wreck in a free region while a Locate stays affordable, or, with nothing pinned
  down and nothing to research here, towards a region whose sonar card would split something;
  LOCATE ($3) a pinned-down, not yet located wreck the pawn stands on when the salvage cost
  there is not affordable; SALVAGE (the region's cost) a pinned-down wreck the pawn stands on.
  A correct Locate or Salvage shows the region to everyone (every player's notes pin it); the
  first to find a wreck scores its LOCATED Prestige, a salvage adds SALVAGED Prestige and the
  Value card's value for that region, and the wreck leaves play. The bot is never wrong (its
  notes always hold the true region), so nobody is ever barred;
- at the end the most Prestige among players whose money + salvaged - loans is not negative
  wins (everyone is eligible when nobody is), then the higher net, then the lower Turn Order.

Once the wrecks, the chips and the Turn Order cards are drawn, the game has no more chance:
`play(rng, setup=...)` replays a given setup (e.g. one read off an interpreter game's log) and
`trace=[]` collects every decision as (decision id, seat, answer), in the interpreter's order.

    python3 tests/benchmarks/baseline_dark_water_salvage.py [GAMES]
"""

from __future__ import annotations

import random
import sys
import time

# Default parameters of the ruleset.
RESEARCH_COST = 1
STEP_COST = 1
LOCATE_COST = 3
STARTING_MONEY = 0
MAX_LOOP_CYCLES = 20
BOT_RESERVE = 0
LOOP = 4  # RESEARCH, MOVE, LOCATE, SALVAGE

# The grid: cell index = 9 * row + column (grid order), bit i of a mask = cell i.
COLUMNS = "ABCDEFGHI"
CELL_ID = [f"{c}{r}" for r in range(1, 6) for c in COLUMNS]
CITY_HIRE = {"A1": 2, "D1": 3, "G1": 2, "I2": 3, "D5": 4}
CITY_NAME = {"A1": "Westport", "D1": "Missaukee", "G1": "Northport", "I2": "Eastport", "D5": "Southport"}
FEATURES = ("F2", "H3", "E4")
DEPTH = [(0, 0, 1, 2, 2)[i // 9] for i in range(45)]           # Shallow, Medium, Deep
SALVAGE_COST = [(2, 2, 4, 6, 6)[i // 9] for i in range(45)]
BOAT_HIRE = [CITY_HIRE.get(CELL_ID[i], 0) for i in range(45)]
WATER = [i for i in range(45) if CELL_ID[i] not in CITY_HIRE and CELL_ID[i] not in FEATURES]
IS_WATER = [i in WATER for i in range(45)]
CITIES = [i for i in range(45) if CELL_ID[i] in CITY_HIRE]       # grid order
SITES = [i for i in range(45) if not IS_WATER[i]]                 # Cities and Features
ALL_WATER = sum(1 << i for i in WATER)
NEIGHBOURS = [[9 * r + c for r, c in ((i // 9 - 1, i % 9), (i // 9, i % 9 + 1), (i // 9 + 1, i % 9),
                                      (i // 9, i % 9 - 1)) if 0 <= r < 5 and 0 <= c < 9]
              for i in range(45)]                                 # N, E, S, W
DIST = [[abs(a // 9 - b // 9) + abs(a % 9 - b % 9) for b in range(45)] for a in range(45)]


def _answer(x: int, c: int):
    """The sonar answer from region x about a wreck in c: the depth card (Y/N) in open water,
    else the compass direction (same row or column: N/S/E/W, else a diagonal)."""
    if IS_WATER[x]:
        return DEPTH[c] == DEPTH[x]
    rx, cx, rc, cc = x // 9, x % 9, c // 9, c % 9
    return ((rc > rx) - (rc < rx), (cc > cx) - (cc < cx))


# PART_OF[x][c]: the open-water regions that answer like c from x; PARTS[x]: all those sets.
PART_OF = [[0] * 45 for _ in range(45)]
PARTS = []
for _x in range(45):
    _groups: dict = {}
    for _c in WATER:
        _groups[_answer(_x, _c)] = _groups.get(_answer(_x, _c), 0) | 1 << _c
    for _c in WATER:
        PART_OF[_x][_c] = _groups[_answer(_x, _c)]
    PARTS.append(list(_groups.values()))

# Ship cards: name, LOCATED and SALVAGED Prestige.
SHIPS = [("Amber Gull", 1, 3), ("Bright Harbor", 1, 4), ("Cold Current", 2, 4),
         ("Driftwood Belle", 2, 5), ("Evening Lantern", 2, 6), ("Frost Maiden", 3, 5),
         ("Gray Heron", 3, 6), ("Hollow Pine", 3, 7), ("Iron Duchess", 4, 6),
         ("Juniper Queen", 4, 7), ("Kestrel", 5, 8), ("Lake Sovereign", 5, 9)]
# Value cards V01..V12: the salvaged value in each open-water region, in grid order.
_VALUES = [
    (29, 27, 27, 27, 26, 30, 28, 28, 29, 25, 24, 28, 28, 36, 37, 36, 40, 39, 42, 39, 41, 51, 52, 50, 54,
     54, 48, 53, 51, 50, 55, 55, 53, 53, 51, 52, 52),
    (32, 34, 34, 32, 31, 30, 32, 33, 33, 32, 29, 34, 30, 45, 49, 45, 44, 44, 48, 42, 48, 55, 64, 57, 56,
     63, 59, 54, 64, 64, 54, 63, 57, 54, 62, 54, 61),
    (38, 33, 33, 38, 37, 35, 33, 35, 39, 37, 33, 34, 35, 55, 55, 56, 54, 52, 57, 55, 52, 64, 67, 68, 70,
     68, 74, 70, 63, 68, 66, 68, 69, 65, 66, 71, 61),
    (39, 44, 38, 43, 39, 43, 42, 40, 37, 42, 40, 37, 40, 56, 63, 57, 54, 57, 60, 63, 60, 75, 78, 79, 71,
     80, 70, 72, 75, 82, 75, 80, 84, 74, 74, 72, 79),
    (44, 43, 42, 41, 49, 41, 49, 49, 47, 47, 48, 44, 49, 59, 59, 60, 71, 65, 68, 61, 67, 87, 89, 88, 93,
     85, 84, 90, 82, 80, 87, 81, 77, 93, 92, 90, 82),
    (45, 45, 50, 49, 52, 53, 53, 50, 51, 54, 51, 54, 45, 74, 74, 76, 65, 69, 68, 67, 78, 90, 95, 92, 94,
     96, 102, 90, 102, 94, 87, 86, 100, 94, 92, 94, 102),
    (59, 50, 52, 49, 53, 55, 56, 56, 56, 50, 54, 56, 55, 71, 77, 81, 75, 72, 79, 85, 72, 101, 104, 94,
     108, 110, 104, 97, 92, 95, 101, 99, 95, 109, 110, 94, 110),
    (54, 62, 55, 57, 61, 60, 60, 53, 56, 54, 61, 59, 60, 90, 89, 82, 86, 78, 77, 89, 83, 107, 100, 109,
     115, 111, 117, 111, 104, 118, 120, 116, 103, 109, 116, 111, 100),
    (62, 66, 64, 66, 65, 68, 65, 63, 68, 64, 66, 64, 58, 91, 87, 99, 93, 99, 94, 85, 84, 122, 128, 120,
     124, 129, 119, 127, 123, 115, 122, 122, 125, 119, 130, 124, 129),
    (63, 70, 66, 62, 64, 63, 66, 70, 69, 73, 70, 62, 64, 104, 101, 100, 96, 105, 102, 88, 101, 136, 121,
     136, 134, 131, 123, 126, 136, 132, 120, 126, 133, 123, 131, 140, 138),
    (75, 68, 72, 68, 69, 72, 73, 79, 72, 74, 73, 71, 72, 99, 109, 103, 105, 110, 112, 96, 105, 147, 133,
     145, 147, 148, 129, 127, 129, 136, 143, 149, 133, 144, 137, 146, 135),
    (70, 78, 81, 83, 79, 69, 80, 74, 73, 72, 69, 79, 82, 118, 109, 103, 107, 118, 120, 103, 118, 137, 151,
     153, 148, 154, 131, 134, 134, 151, 147, 141, 141, 155, 134, 145, 153),
]
VALUE_AT = []  # VALUE_AT[card][cell]
for _row in _VALUES:
    _at = [0] * 45
    for _c, _v in zip(WATER, _row, strict=True):
        _at[_c] = _v
    VALUE_AT.append(_at)


# ANSWERS[x][cands]: how many different answers the sonar card of x can give about a wreck
# whose candidate regions are `cands` (a cache, filled as games meet candidate sets).
ANSWERS: list[dict] = [{} for _ in range(45)]


# SPLITTERS[cands]: the regions (a mask) whose sonar card would split the candidate regions
# `cands` of a wreck into more than one answer (a cache, filled as games meet candidate sets).
SPLITTERS: dict[int, int] = {}


def _splitters(cands: int) -> int:
    low = (cands & -cands).bit_length() - 1
    mask = 0
    for y in range(45):
        if cands & PART_OF[y][low] != cands:
            mask |= 1 << y
    SPLITTERS[cands] = mask
    return mask


def new_setup(rng: random.Random, players: int = 4) -> dict:
    """The chance of one game: the Ship, Location and Value card of each of the twelve wrecks
    (in the layout's order), each seat's Turn Order card and the chips in the order drawn."""
    chips = [5] * (17 + 3 * (players - 2)) + [10] * (13 + 7 * (players - 2))
    rng.shuffle(chips)
    return {"ships": rng.sample(range(12), 12),
            "regions": [CELL_ID[c] for c in rng.sample(WATER, 12)],
            "values": rng.sample(range(12), 12),
            "turn_order": rng.sample(range(1, players + 1), players),
            "chips": chips}


def play(rng: random.Random, players: int = 4, setup: dict | None = None,
         trace: list | None = None) -> dict:
    """Play one game (a given `setup`, see new_setup, else one drawn from rng). Returns the
    winning seats (0-based) and per seat the money, loans, salvaged value, net, Prestige and
    Turn Order card, with the rounds and the counts of researches, steps, locates and salvages;
    `trace`, if given, receives every decision as (decision id, seat, answer)."""
    if setup is None:
        setup = new_setup(rng, players)
    n = players
    ship = setup["ships"]
    region = [CELL_ID.index(r) for r in setup["regions"]]
    value_at = [VALUE_AT[v] for v in setup["values"]]
    card = list(setup["turn_order"])
    chips = setup["chips"]
    log = trace.append if trace is not None else None

    money = [STARTING_MONEY] * n
    loans = [0] * n
    prestige = [0] * n
    salvaged = [0] * n
    notes = [[ALL_WATER] * 12 for _ in range(n)]  # per seat, per wreck: the candidate regions
    alive = list(range(12))                          # the wrecks in play, in layout order
    located = [False] * 12
    # Every bot applies for pool // n, so all collect it in Turn Order: the cards never change.
    order = sorted(range(n), key=card.__getitem__)
    researches = steps = locates = salvages = 0
    drawn = 0
    rounds = 0
    last = False
    while not last:
        rounds += 1
        wanted = 2 * n
        left = len(chips) - drawn
        if left < wanted:
            last = True
            wanted = left
        pool = sum(chips[drawn:drawn + wanted])
        drawn += wanted
        share = pool // n
        for s in range(n):
            money[s] += share
            loans[s] += share
            if log:
                log(("application", s, share))

        # Start Cities, in Turn Order.
        pos = [-1] * n
        occ = set()
        for s in order:
            nt = notes[s]
            pinned = [c.bit_length() - 1 for w in alive if not (c := nt[w]) & (c - 1)]
            best = -1
            best_score = None
            for city in CITIES:
                if city in occ:
                    continue
                if pinned:
                    d = DIST[city]
                    score = -(BOAT_HIRE[city] + min(d[w] for w in pinned))
                else:
                    known = ANSWERS[city]
                    score = 0
                    for w in alive:
                        c = nt[w]
                        k = known.get(c)
                        if k is None:
                            k = known[c] = sum(1 for m in PARTS[city] if c & m)
                        score += k
                if best_score is None or score > best_score:
                    best, best_score = city, score
            pos[s] = best
            occ.add(best)
            if log:
                log(("city_choice", s, CITY_NAME[CELL_ID[best]]))

        # Research and Recovery: the Action token round the loop.
        hired = [False] * n
        station = 0
        runs = 0
        idle = 0
        while True:
            acted = False
            for s in order:
                x = pos[s]
                nt = notes[s]
                if station == 0:  # RESEARCH
                    po = PART_OF[x]
                    while money[s] >= RESEARCH_COST and alive:
                        pick = -1
                        fewest = 99
                        if money[s] >= RESEARCH_COST + BOT_RESERVE:
                            for w in alive:
                                c = nt[w]
                                u = SPLITTERS.get(c)
                                if u is None:
                                    u = _splitters(c)
                                if u >> x & 1:
                                    k = c.bit_count()
                                    if k < fewest:
                                        pick, fewest = w, k
                        if pick < 0:
                            if log:
                                log(("research_action", s, "pass"))
                            break
                        money[s] -= RESEARCH_COST
                        acted = True
                        researches += 1
                        nt[pick] &= po[region[pick]]
                        if log:
                            log(("research_action", s, "research"))
                            log(("research_ship", s, SHIPS[ship[pick]][0]))
                            log(("sonar", s, "depth" if IS_WATER[x] else "direction"))
                elif station == 1:  # MOVE
                    while True:
                        hire = 0 if hired[s] else BOAT_HIRE[x]
                        m = money[s]
                        if m < STEP_COST + hire:
                            break
                        free = [y for y in NEIGHBOURS[x] if y not in occ]
                        if not free:
                            break
                        pinned = [c.bit_length() - 1 for w in alive if not (c := nt[w]) & (c - 1)]
                        dx = DIST[x]
                        toward_wreck = False
                        if x not in pinned and m >= STEP_COST + hire + LOCATE_COST:
                            for w in pinned:
                                if w not in occ:
                                    dw = dx[w]
                                    for y in free:
                                        if DIST[y][w] < dw:
                                            toward_wreck = True
                                            break
                                    if toward_wreck:
                                        break
                        explore = False
                        if (not toward_wreck and not pinned
                                and m >= STEP_COST + hire + RESEARCH_COST + BOT_RESERVE):
                            # Per wreck, the regions whose sonar card would split its candidates.
                            splitters = []
                            useful = 0
                            for w in alive:
                                u = SPLITTERS.get(nt[w])
                                if u is None:
                                    u = _splitters(nt[w])
                                splitters.append(u)
                                useful |= u
                            if not useful >> x & 1:
                                for y in free:
                                    if useful >> y & 1:
                                        explore = True
                                        break
                                else:
                                    for site in SITES:
                                        if (useful >> site & 1 and site not in occ
                                                and any(DIST[y][site] < dx[site] for y in free)):
                                            explore = True
                                            break
                        if not (toward_wreck or explore):
                            if log:
                                log(("move_action", s, "pass"))
                            break
                        best = -1
                        best_score = None
                        if toward_wreck:
                            targets = [w for w in pinned if w not in occ]
                            for y in free:
                                dy = DIST[y]
                                score = -min(dy[w] for w in targets)
                                if best_score is None or score > best_score:
                                    best, best_score = y, score
                        else:
                            sites = [site for site in SITES if useful >> site & 1 and site not in occ]
                            for y in free:
                                dy = DIST[y]
                                score = 10 * sum(u >> y & 1 for u in splitters) - min(
                                    (dy[site] for site in sites), default=0)
                                if best_score is None or score > best_score:
                                    best, best_score = y, score
                        if not hired[s]:
                            money[s] -= BOAT_HIRE[x]
                            hired[s] = True
                        money[s] -= STEP_COST
                        occ.discard(x)
                        occ.add(best)
                        pos[s] = x = best
                        acted = True
                        steps += 1
                        if log:
                            log(("move_action", s, "step"))
                            log(("move_to", s, CELL_ID[best]))
                elif station == 2:  # LOCATE
                    here = 1 << x
                    while money[s] >= LOCATE_COST and alive:
                        pick = -1
                        if money[s] < SALVAGE_COST[x]:
                            for w in alive:
                                if nt[w] == here and not located[w]:
                                    pick = w
                                    break
                        if pick < 0:
                            if log:
                                log(("locate_action", s, "pass"))
                            break
                        money[s] -= LOCATE_COST
                        acted = True
                        locates += 1
                        if log:
                            log(("locate_action", s, "locate"))
                            log(("locate_ship", s, SHIPS[ship[pick]][0]))
                        # Correct (the notes hold the true region): shown to everyone.
                        for q in range(n):
                            notes[q][pick] = here
                        located[pick] = True
                        prestige[s] += SHIPS[ship[pick]][1]
                else:  # SALVAGE
                    here = 1 << x
                    cost = SALVAGE_COST[x]
                    while IS_WATER[x] and money[s] >= cost and alive:
                        pick = -1
                        for w in alive:
                            if nt[w] == here:
                                pick = w
                                break
                        if pick < 0:
                            if log:
                                log(("salvage_action", s, "pass"))
                            break
                        money[s] -= cost
                        acted = True
                        salvages += 1
                        if log:
                            log(("salvage_action", s, "salvage"))
                            log(("salvage_ship", s, SHIPS[ship[pick]][0]))
                        for q in range(n):
                            notes[q][pick] = here
                        if not located[pick]:
                            located[pick] = True
                            prestige[s] += SHIPS[ship[pick]][1]
                        salvaged[s] += value_at[pick][x]
                        prestige[s] += SHIPS[ship[pick]][2]
                        alive.remove(pick)
            idle = 0 if acted else idle + 1
            station = (station + 1) % LOOP
            runs += 1
            if idle >= LOOP or runs >= MAX_LOOP_CYCLES * LOOP:
                break

    net = [money[s] + salvaged[s] - loans[s] for s in range(n)]
    eligible = [s for s in range(n) if net[s] >= 0] or list(range(n))
    top = max((prestige[s], net[s], -card[s]) for s in eligible)
    winners = [s for s in eligible if (prestige[s], net[s], -card[s]) == top]
    return {"winners": winners, "money": money, "loans": loans, "salvaged": salvaged, "net": net,
            "prestige": prestige, "turn_order": card, "rounds": rounds, "researches": researches,
            "steps": steps, "locates": locates, "salvages": salvages}


def main(argv: list[str]) -> None:
    games = int(argv[1]) if len(argv) > 1 else 2000
    rng = random.Random(1)
    players = 4
    wins = [0] * players
    win_prestige = salvages = locates = in_debt = debt = 0
    start = time.perf_counter()
    for _ in range(games):
        result = play(rng, players)
        for s in result["winners"]:
            wins[s] += 1
        win_prestige += result["prestige"][result["winners"][0]]
        salvages += result["salvages"]
        locates += result["locates"]
        in_debt += sum(x < 0 for x in result["net"])
        debt -= sum(x for x in result["net"] if x < 0)
    elapsed = time.perf_counter() - start
    rates = ", ".join(f"{w / games:.3f}" for w in wins)
    print(f"dark water salvage baseline: {games} games in {elapsed:.3f} s = "
          f"{games / elapsed:,.0f} games/s")
    print(f"win rate by seat [{rates}], mean winning Prestige {win_prestige / games:.2f}")
    print(f"mean salvages per game {salvages / games:.2f}, locates {locates / games:.2f}, "
          f"players in debt {in_debt / games:.2f}, total debt ${debt / games:.1f}")


if __name__ == "__main__":
    main(sys.argv)
