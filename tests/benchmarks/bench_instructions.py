"""Benchmark: machine instructions per game of the generated code beside the hand-written
version of the same game and policy, counted by Valgrind, so the ratio is the same from one
run to the next (a developer's tool for the speed targets; not part of the test run).

    .venv/bin/python tests/benchmarks/bench_instructions.py [--only NAME] [--seconds S|--games N]
    .venv/bin/python tests/benchmarks/bench_instructions.py --only pig --edited EDITED.py

Why: on this 2-core machine a ratio of times (bench_run.py) moves by up to a tenth from one run
to the next, so a change of the generator worth a few percent cannot be told from the machine's
neighbours. Counting instructions (`valgrind --tool=cachegrind --cache-sim=no`, Debian's
`valgrind` package), in processes with a fixed hash seed, gives a count that repeats to a few
in a million within minutes and to about 1% over hours (objects still land at other addresses,
and sets of them iterate in another order): compare a change with its base in the same minutes.
It is a proxy, not the target: an instruction that misses the cache costs more than one that
does not, and the targets are times (bench_run.py prints those). Each side's figure is the
difference between a process that plays the games and one that plays none, divided by the
games: start-up, the code generator and the first game's warm-up fall out. Both sides play the
same games (seeds 0 to N - 1), N sized so that the generated side plays them in about S seconds
natively (at least 20) or given by `--games` (the same games give the same count: the table
prints N so that a run can be repeated game for game). `--edited` counts a hand-edited copy of
the generated source (as printed by `profile_generated.py source`) beside them, after checking
it plays the same games. Where the code lies moves the count: the code the generator writes in
the process and the same text given with `--edited` counted up to 3% apart, either way, and two
edited copies that differ in one line the games seldom run 1.8% apart. A change of a few
percent is weighed in bytecodes a game too (the generated function's opcodes, traced).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
MIN_GAMES = 20


def _player(side: str, ruleset: str, edited: str | None):
    """The function that plays game `seed` for `side` ("hand-written" or "generated")."""
    if side == "hand-written":
        from bench_run import BASELINES
        return BASELINES[Path(ruleset).name]
    import profile_generated
    text = Path(edited).read_text(encoding="utf-8") if edited else None
    return profile_generated.generated(ruleset, text).play_raw


def _play(side: str, ruleset: str, games: int, edited: str | None) -> None:
    """What the counted process runs: game 0 once (so the first call's warm-up is in both
    runs), then games 0 to `games` - 1."""
    play = _player(side, ruleset, edited)
    play(0)
    for seed in range(games):
        play(seed)


def _instructions(side: str, ruleset: str, games: int, edited: str | None) -> int:
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, __file__, "--play", side, ruleset, str(games)]
    if edited:
        cmd.append(edited)
    # A fixed hash seed: with Python's random one, the same games cost up to 4% more or
    # fewer instructions from process to process (sets and dicts of texts lay out anew).
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=env)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"valgrind failed on {side} {ruleset}:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def per_game(side: str, ruleset: str, games: int, edited: str | None = None) -> float:
    """Instructions per game: (N games - 0 games) / N, the two processes run side by side."""
    with ThreadPoolExecutor(2) as pool:
        none, some = pool.map(lambda n: _instructions(side, ruleset, n, edited), (0, games))
    return (some - none) / games


def _games(ruleset: str, seconds: float) -> int:
    play = _player("generated", ruleset, None)
    played, start = 0, time.process_time()
    while time.process_time() - start < min(seconds, 0.5):
        play(played)
        played += 1
    rate = played / (time.process_time() - start)
    return max(MIN_GAMES, round(rate * seconds))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one ruleset, by file name without .yaml")
    parser.add_argument("--seconds", type=float, default=0.2,
                        help="native seconds of the generated side's games (default 0.2)")
    parser.add_argument("--games", type=int,
                        help="games per ruleset (default: sized by --seconds; printed)")
    parser.add_argument("--edited", help="a hand-edited generated source (needs --only)")
    parser.add_argument("--play", nargs="+", help=argparse.SUPPRESS)  # the counted process
    args = parser.parse_args()
    if args.play:
        side, ruleset, games, *edited = args.play
        _play(side, ruleset, int(games), edited[0] if edited else None)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    if args.edited and not args.only:
        parser.error("--edited needs --only")
    from bench_run import BASELINES
    paths = [ROOT / "rulesets" / name for name in sorted(BASELINES)]
    if args.only:
        paths = [p for p in paths if p.stem == args.only]
        if not paths:
            parser.error(f"--only {args.only}: no shipped ruleset of that name has a "
                         f"hand-written version ({', '.join(Path(b).stem for b in sorted(BASELINES))})")
    if args.edited:
        import profile_generated
        profile_generated.same_games(str(paths[0]), args.edited)
    print(f"{'game':<22} {'games':>6} {'hand-written':>13} {'generated':>13} {'ratio':>7}"
          + (f" {'edited':>13} {'ratio':>7}" if args.edited else ""))
    for path in paths:
        games = args.games or _games(str(path), args.seconds)
        hand = per_game("hand-written", str(path), games)
        ours = per_game("generated", str(path), games)
        line = f"{path.stem:<22} {games:>6} {hand:>13,.0f} {ours:>13,.0f} {hand / ours:>7.3f}"
        if args.edited:
            edit = per_game("generated", str(path), games, args.edited)
            line += f" {edit:>13,.0f} {hand / edit:>7.3f}"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
