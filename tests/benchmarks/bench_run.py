"""Benchmark: games per second of the interpreter beside a plain hand-written Python version of
the same game and policy, in the same run, reported as a ratio (interpreter / hand-written).

Not part of the default test run (pytest ignores tests/benchmarks). Run it with

    .venv/bin/python tests/benchmarks/bench_run.py [--seconds S]

Games: Pig (hold at 20, 2 players) and Wreckdivers (threshold policy, 3 players, 3 rounds).
Each side plays seeded games for about S seconds; the figure is games per second of CPU time
(time.process_time), so a busy machine disturbs the ratio less than the absolute numbers.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import baseline_pig  # noqa: E402
import baseline_wreckdivers  # noqa: E402

from interpreter.chance import SeededChance  # noqa: E402
from interpreter.setup import load, new_game  # noqa: E402


def rate(play_one, seconds: float) -> tuple[float, int]:
    start = time.process_time()
    n = 0
    while time.process_time() - start < seconds:
        play_one(n)
        n += 1
    return n / (time.process_time() - start), n


def interpreter_player(ruleset: str, players: int):
    program = load(str(ROOT / "rulesets" / ruleset)).program

    def play_one(i: int) -> None:
        game = new_game(program, players, None, SeededChance(i), i)
        game.narrating = False
        result = game.run()
        if result.error is not None:
            raise SystemExit(f"{ruleset}: {result.error.message}")
    return play_one


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    cases = [
        ("pig (hold at 20, 2 players)",
         lambda i: baseline_pig.play(random.Random(i)),
         interpreter_player("pig.yaml", 2)),
        ("wreckdivers (threshold, 3 players, 3 rounds)",
         lambda i: baseline_wreckdivers.play(random.Random(i)),
         interpreter_player("wreckdivers.yaml", 3)),
    ]
    print(f"{'game':<46} {'hand-written':>13} {'interpreter':>12} {'ratio':>7}")
    for name, hand, interp in cases:
        h, _ = rate(hand, args.seconds)
        m, _ = rate(interp, args.seconds)
        print(f"{name:<46} {h:>10.0f}/s {m:>9.0f}/s {m / h:>7.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
