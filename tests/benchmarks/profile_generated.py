"""Where the generated code of a ruleset spends its work, and whether an edit of it is faster:
a developer's tool for the speed targets (not part of the test run; pytest ignores
tests/benchmarks).

    .venv/bin/python tests/benchmarks/profile_generated.py source RULESET > game.py
    .venv/bin/python tests/benchmarks/profile_generated.py lines RULESET [--games N] [--top K]
    .venv/bin/python tests/benchmarks/profile_generated.py calls RULESET [--games N] [--top K]
    .venv/bin/python tests/benchmarks/profile_generated.py ab RULESET EDITED.py [--games N]

`source` prints the game function the specializer writes for the ruleset's default setup.
`lines` counts, per game, how often each line of it runs (a comprehension's line once per
item): the counts say where the work is. A sampling profiler does not: on the generated
code it ranks the lines that call into C far above their share. `calls` counts, per game,
the calls the game function makes (built-ins, methods, the helpers it is given), each with
the lines that make the most of them: a call costs far more than its one bytecode, most of
all one that calls back into Python (`min(xs, key=...)`), though Python 3.11 makes some
nearly free (`len`, `isinstance`), so time an edit with `ab` before trusting a count.
`ab` plays the same seeds with the generated function and with EDITED.py (the printed
source, changed by hand), checks that every game's result is the same, and times the two
interleaved in one process, alternating which goes first, so the machine's drift falls on
both: the ratio is what an edit of the generator that writes the same code would gain.
"""

from __future__ import annotations

import argparse
import builtins
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import interpreter.compile.specialize as specialize_module  # noqa: E402
from interpreter.engine.setup import SetupError, load  # noqa: E402

GAME = "<meeple specialized game>"


def generated(path: str, replaced: str | None = None):
    """The ruleset's Specialized, its game function's source replaced by `replaced`."""
    real = builtins.compile

    def compile_source(src, filename, mode):
        return real(replaced if replaced is not None and filename == GAME else src,
                    filename, mode)

    try:
        program = load(path).program
    except SetupError as e:
        raise SystemExit(f"{path}: " + "; ".join(d.message for d in e.diagnostics)) from None
    specialize_module.compile = compile_source
    try:
        special = specialize_module.specialize(program)
    finally:
        del specialize_module.compile
    if special is None:
        raise SystemExit(f"{path}: the code generator does not handle this ruleset")
    return special


def _played(special, games: int, install, hook) -> None:
    """Seeds 0 to games - 1 played by the generated function with `hook` installed by
    `install` (sys.settrace or sys.setprofile) while they play."""
    install(hook)
    try:
        for seed in range(games):
            special.play_raw(seed)
    finally:
        install(None)


def line_counts(path: str, games: int, top: int) -> None:
    special = generated(path)
    lines = special.source.splitlines()
    hits: collections.Counter = collections.Counter()

    def trace(frame, event, arg):
        if frame.f_code.co_filename != GAME:
            return None
        if event == "line":
            hits[frame.f_lineno] += 1
        return trace

    _played(special, games, sys.settrace, trace)
    print(f"{sum(hits.values()) / games:,.0f} lines run per game, over {games} games")
    for number, count in hits.most_common(top):
        print(f"{count / games:10.1f} {number:5} {lines[number - 1].strip()[:120]}")


def same_games(path: str, edited: str, games: int = 200):
    """The generated game function and the one of EDITED.py, after checking that they play
    the first `games` seeds alike (SystemExit at the first that differs)."""
    plain = generated(path).play_raw
    changed = generated(path, Path(edited).read_text(encoding="utf-8")).play_raw
    for seed in range(games):
        if plain(seed) != changed(seed):
            raise SystemExit(f"seed {seed}: the edited code plays another game")
    return plain, changed


def compare(path: str, edited: str, games: int, rounds: int = 20) -> None:
    plain, changed = same_games(path, edited, min(games, 200))
    spent = {"generated": 0.0, "edited": 0.0}
    for r in range(rounds):
        pair = [("generated", plain), ("edited", changed)]
        for name, play in (pair if r % 2 == 0 else pair[::-1]):
            start = time.perf_counter()
            for seed in range(games):
                play(seed)
            spent[name] += time.perf_counter() - start
    print(f"generated {spent['generated']:.3f} s, edited {spent['edited']:.3f} s: the edited "
          f"code is {spent['generated'] / spent['edited']:.3f} times as fast")


def call_counts(path: str, games: int, top: int) -> None:
    special = generated(path)
    lines = special.source.splitlines()
    calls: collections.Counter = collections.Counter()
    where: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)

    def profile(frame, event, arg):
        if event == "c_call" and frame.f_code.co_filename == GAME:
            name = getattr(arg, "__qualname__", None) or repr(arg)
        elif event == "call" and frame.f_back is not None and \
                frame.f_back.f_code.co_filename == GAME and frame.f_code.co_filename != GAME:
            name, frame = "python: " + frame.f_code.co_qualname, frame.f_back
        else:
            return
        calls[name] += 1
        where[name][frame.f_lineno] += 1

    _played(special, games, sys.setprofile, profile)
    print(f"{sum(calls.values()) / games:,.1f} calls per game, over {games} games")
    for name, count in calls.most_common(top):
        at = ", ".join(f"line {n} ({c / games:,.1f})" for n, c in where[name].most_common(3))
        print(f"{count / games:10.1f} {name}: {at}")
        number = where[name].most_common(1)[0][0]
        print(f"{'':10} {lines[number - 1].strip()[:110]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["source", "lines", "calls", "ab"])
    parser.add_argument("ruleset")
    parser.add_argument("edited", nargs="?")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    if args.what == "source":
        print(generated(args.ruleset).source)
    elif args.what == "lines":
        line_counts(args.ruleset, args.games, args.top)
    elif args.what == "calls":
        call_counts(args.ruleset, args.games, args.top)
    else:
        if not args.edited:
            parser.error("ab needs the edited source file")
        compare(args.ruleset, args.edited, args.games)


if __name__ == "__main__":
    main()
