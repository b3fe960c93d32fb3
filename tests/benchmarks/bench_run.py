"""Benchmark: games per second of the generated code (interpreter/compile/, what `meeple simulate`
plays) on every shipped ruleset that plays to its end, beside a plain hand-written Python
version of the same game and policy where one exists (baseline_*.py), in the same run, reported
as a ratio (generated / hand-written); the reference interpreter beside them; then `meeple
simulate` with 1 and 2 worker processes, and whole processes as a user waits for them.

Not part of the default test run (pytest ignores tests/benchmarks). Run it with

    .venv/bin/python tests/benchmarks/bench_run.py [--seconds S] [--only NAME] [--games N]

Part 1, games/s: every side plays the same seeded games (game i on seed i), as many as the
slower of the hand-written and generated sides plays in about S / ROUNDS seconds (at least
MIN_GAMES; the interpreter plays the first of them that fit in that time, in a quarter of the
rounds), once in each of ROUNDS rounds, the sides taking turns (in the opposite order every
other round), with the ruleset's default players and policies. Each side's figure is games per
second of CPU time (time.process_time) in its fastest round: a busy machine only ever slows a
round down, so the fastest round is the least disturbed measure of each side. On this 2-core
machine a ratio still moves by up to a tenth from one run to the next (the machine's neighbours
change the speed of the two sides unevenly): run the bench more than once before reading a
change of a few percent, or count instructions (bench_instructions.py). A ruleset whose seeded
games stop with a rule error is listed as skipped, with the reason.
Columns: `generated` plays each game with `Specialized.play` (the generated function and the
interpreter's `Result` built from its tuple: what a caller gets); `game loop` calls the
generated function alone (its tuple, nothing built: the game loop the issue's targets speak
of); `interpreter` is the reference interpreter (closures, no log). `-` where the generator
refuses the ruleset (the interpreter then plays it). The hand-written games seed a
random.Random per game too. Baselines: Pig (hold at 20, 2 players), Wreckdivers (threshold
policy, 3 players, 3 rounds), the dice-bag dungeon (delve_then_flee, solo), Shipwrecked! (crew
policy, 2 players, the grab race's model), Dark Water Salvage (sonar_hunter, 4 players),
Liar's Dice (cautious, 2 players: a decision of about 150 bids, each weighed by the policy's
expression, which the baseline evaluates per bid as written) and Dice Survivor (steady, 4
players). tests/test_baseline_*.py check that the last five play the ruleset's game:
statistically, and for Dark Water Salvage decision by decision from the interpreter's setups.

Part 2, workers: `interpreter.simulate.runner.simulate` (what `meeple simulate` runs: no log, lead
changes tracked) plays the same games with 1 and with 2 worker processes; the figure is games
per second of wall time (the workers' CPU time is not this process's), and the speed-up is 2
workers against 1. It is near 2 only on an otherwise idle machine with two free cores.

Part 3, whole processes (wall clock, start-up included, best of 3): `meeple simulate
rulesets/pig.yaml --games N --workers 1` against the hand-written Pig loop run as its own
process (`baseline_pig.py N`), and `meeple validate rulesets/pig.yaml`. Each command runs once
untimed first, and all with Python's bytecode cache on (whatever PYTHONDONTWRITEBYTECODE says
here), as an installed program runs on a user's machine: a process that compiled meeple's
modules from source every time (about 0.2 s of each start) is not what users wait for.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_dark_water_salvage  # noqa: E402
import baseline_dice_bag_dungeon  # noqa: E402
import baseline_dice_survivor  # noqa: E402
import baseline_liars_dice  # noqa: E402
import baseline_pig  # noqa: E402
import baseline_shipwrecked  # noqa: E402
import baseline_wreckdivers  # noqa: E402

from interpreter.compile.specialize import specialize  # noqa: E402
from interpreter.engine.chance import SeededChance  # noqa: E402
from interpreter.engine.setup import load, new_game, player_count  # noqa: E402
from interpreter.simulate.runner import Job, Setup, simulate  # noqa: E402

# Hand-written versions, by ruleset file, with the games they play (same players and policy as
# the ruleset's defaults).
BASELINES: dict[str, Callable[[int], object]] = {
    "dark_water_salvage.yaml": lambda i: baseline_dark_water_salvage.play(random.Random(i)),
    "dice_bag_dungeon.yaml": lambda i: baseline_dice_bag_dungeon.play(random.Random(i)),
    "dice_survivor.yaml": lambda i: baseline_dice_survivor.play(random.Random(i)),
    "shipwrecked.yaml": lambda i: baseline_shipwrecked.play(random.Random(i)),
    "liars_dice.yaml": lambda i: baseline_liars_dice.play(random.Random(i)),
    "pig.yaml": lambda i: baseline_pig.play(random.Random(i)),
    "wreckdivers.yaml": lambda i: baseline_wreckdivers.play(random.Random(i)),
}
PROBE_GAMES = 5  # seeded games that must end by the rules for a ruleset to be benchmarked


ROUNDS = 20  # each side plays the same games once a round, the sides taking turns (see `rates`)
MIN_GAMES = 20  # games a round plays at the least, so a slow game is not judged on one seed
LATER_EVERY = 4  # the interpreter plays in one round of this many


def rates(sides: list[Callable[[int], object] | None], seconds: float,
          compared: int) -> list[float | None]:
    """Games per second of CPU time of each side (None: none). The first `compared` sides
    (the ones the targets' ratios compare) all play the same games, seeds 0 to B - 1, B
    sized so that the slowest of them plays a round in about seconds / ROUNDS (at least
    MIN_GAMES); a later side (the reference interpreter, many times slower) plays the first
    of those games that fit in that time (at least one), in every LATER_EVERY-th round. In
    each of ROUNDS rounds the sides take turns, in the opposite order every other round,
    and each side's figure is its fastest round: a busy machine only ever slows a round
    down, so the fastest round is the least disturbed measure of each side (as `timeit`
    takes the least of its repeats)."""
    order = [i for i, side in enumerate(sides) if side is not None]
    speed = {}
    for i in order:  # a first look at each side's speed (also warms it up)
        played, start = 0, time.process_time()
        while time.process_time() - start < min(0.05, seconds / ROUNDS):
            sides[i](played)
            played += 1
        speed[i] = played / (time.process_time() - start)
    slowest = min((speed[i] for i in order if i < compared), default=None)
    batch = {i: max(MIN_GAMES, round(slowest * seconds / ROUNDS)) if i < compared
             else max(1, round(min(slowest or speed[i], speed[i]) * seconds / ROUNDS))
             for i in order}
    best = [float("inf")] * len(sides)
    for r in range(ROUNDS):
        for i in (order if r % 2 == 0 else order[::-1]):
            if i >= compared and r % LATER_EVERY:
                continue  # a later side plays in fewer rounds: it is many times slower
            play_one = sides[i]
            start = time.process_time()
            for seed in range(batch[i]):
                play_one(seed)
            best[i] = min(best[i], time.process_time() - start)
    return [batch[i] / best[i] if sides[i] is not None else None for i in range(len(sides))]


def interpreter_player(path: Path) -> tuple[Callable[[int], None], int]:
    program = load(str(path)).program
    players = player_count(program, None)

    def play_one(i: int) -> None:
        game = new_game(program, players, None, SeededChance(i), i)
        game.narrating = False
        result = game.run()
        if result.error is not None:
            raise SystemExit(f"{path.name}: {result.error.message}")
    return play_one, players


def generated_players(path: Path) -> tuple[Callable[[int], None], Callable[[int], None]] | None:
    """The same games played by the generated code: (`Specialized.play`, the generated function
    alone), or None when the generator refuses the ruleset."""
    special = specialize(load(str(path)).program)
    if special is None:
        return None

    def play_one(i: int) -> None:
        played = special.play(i)
        if played.result.error is not None:
            raise SystemExit(f"{path.name}: {played.result.error.message}")

    def loop_one(i: int, fn=special.play_raw) -> None:
        fn(i)
    return play_one, loop_one


def plays_to_its_end(path: Path) -> str | None:
    """None when seeded games of the ruleset end by its rules; else why not."""
    try:
        program = load(str(path)).program
    except Exception as e:  # a ruleset that does not load is reported, not benchmarked
        return f"does not load: {e}"
    for i in range(PROBE_GAMES):
        game = new_game(program, None, None, SeededChance(i), i)
        game.logging = game.narrating = False
        result = game.run()
        if result.error is not None:
            return f"game {i} stops: {result.error.message}"
    return None


def games_per_s(path: Path, workers: int, games: int) -> float:
    job = Job(path.name, path.read_text(encoding="utf-8"), (Setup("base"),), 0)
    outcome = simulate(job, games, workers=workers)
    return outcome.completed / outcome.seconds


def wall(argv: list[str]) -> float:
    """Seconds of wall time a whole process takes (best of 3: the least disturbed), after one
    untimed run, with the bytecode cache on (see the module's docstring)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    best = float("inf")
    for i in range(4):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       env=env)
        if i:
            best = min(best, time.perf_counter() - start)
    return best


def ratio(a: float | None, b: float | None) -> str:
    return f"{a / b:>7.3f}" if a is not None and b else f"{'-':>7}"


def per_s(x: float | None) -> str:
    return f"{x:>9.0f}/s" if x is not None else f"{'-':>11}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--only", help="one ruleset, by file name without .yaml")
    parser.add_argument("--games", type=int, default=100_000,
                        help="games of Pig in part 3 (0: skip parts 2 and 3)")
    args = parser.parse_args()
    paths = sorted((ROOT / "rulesets").glob("*.yaml"))
    if args.only:
        paths = [p for p in paths if p.stem == args.only]
    runnable = []
    print(f"{'game':<34} {'hand-written':>13} {'generated':>11} {'ratio':>7} "
          f"{'game loop':>11} {'ratio':>7} {'interpreter':>11} {'ratio':>7}")
    for path in paths:
        why = plays_to_its_end(path)
        if why is not None:
            print(f"{path.stem:<34} skipped: {why}")
            continue
        interp, players = interpreter_player(path)
        name = f"{path.stem} ({players} player{'s' if players != 1 else ''})"
        generated = generated_players(path)
        h, g, raw, m = rates([BASELINES.get(path.name), *(generated or (None, None)), interp],
                             args.seconds, compared=3)
        runnable.append((path, g or m))
        print(f"{name:<34} {per_s(h) if h else f'{chr(45):>13}':>13} {per_s(g)} {ratio(g, h)} "
              f"{per_s(raw)} {ratio(raw, h)} {per_s(m)} {ratio(m, h)}")
    if not args.games:
        return 0
    print()
    print(f"meeple simulate, wall clock, {os.cpu_count()} CPUs")
    print(f"{'game':<34} {'1 worker':>12} {'2 workers':>12} {'speed-up':>9}")
    for path, speed in runnable:
        # Enough games for about `seconds` on one worker, so the pool's start-up and the
        # calibration games are a small part of the run.
        games = max(20, int(speed * args.seconds))
        one = games_per_s(path, 1, games)
        two = games_per_s(path, 2, games)
        print(f"{path.stem:<34} {one:>10.0f}/s {two:>10.0f}/s {two / one:>9.2f}")
    print()
    print("whole processes, wall clock, best of 3")
    meeple = [sys.executable, "-m", "interpreter.cli"]
    pig = str(ROOT / "rulesets" / "pig.yaml")
    ours = wall([*meeple, "simulate", pig, "--games", str(args.games), "--workers", "1"])
    theirs = wall([sys.executable, str(Path(__file__).parent / "baseline_pig.py"),
                   str(args.games)])
    print(f"{'meeple simulate pig.yaml --games ' + str(args.games) + ' --workers 1':<58} "
          f"{ours:>7.2f} s  {ours / theirs:>5.2f} x the hand-written loop ({theirs:.2f} s)")
    print(f"{'meeple validate pig.yaml':<58} {wall([*meeple, 'validate', pig]):>7.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
