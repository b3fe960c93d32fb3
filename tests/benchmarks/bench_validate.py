"""Benchmark: wall time of `meeple validate` on each shipped ruleset, start-up included.

Not part of the default test run (pytest ignores tests/benchmarks). Run it with

    .venv/bin/python tests/benchmarks/bench_validate.py [--runs N]

It starts a fresh `meeple validate FILE` process per run (so interpreter start-up, imports and
the parser cache are all counted), prints the median and worst wall time per ruleset, and exits
1 if any median exceeds the 0.5 s budget. Python's bytecode cache is on for it (whatever
PYTHONDONTWRITEBYTECODE says here), as for an installed program on a user's machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUDGET_S = 0.5


def time_validate(path: Path, runs: int) -> list[float]:
    cmd = [str(Path(sys.executable).with_name("meeple")), "validate", str(path)]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # warm the parser cache, the bytecode cache and the disk
    subprocess.run(cmd, capture_output=True, check=False, env=env)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, check=False, env=env)
        times.append(time.perf_counter() - start)
        if proc.returncode != 0:
            raise SystemExit(f"{path} does not validate:\n{proc.stdout.decode()}")
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    worst_median = 0.0
    print(f"{'ruleset':<28} {'median s':>9} {'max s':>7}  (budget {BUDGET_S} s)")
    for path in sorted((ROOT / "rulesets").glob("*.yaml")):
        times = time_validate(path, args.runs)
        med = statistics.median(times)
        worst_median = max(worst_median, med)
        print(f"{path.name:<28} {med:>9.3f} {max(times):>7.3f}")
    ok = worst_median < BUDGET_S
    print(f"slowest median {worst_median:.3f} s: {'within' if ok else 'OVER'} the budget")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
