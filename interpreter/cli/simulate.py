"""The `meeple simulate` command: balance statistics over many seeded all-bot games.

Input: a ruleset path and the options (games, players, seed, seats, parameters, variant,
workers or a Dask scheduler, `--vs` setups to compare, a `--sweep` of a parameter, output
files). Output: a readable report on stdout (or one JSON object with `--json`), optionally a
CSV of every game and a chart, progress on a terminal's stderr, and the exit code: 0 done,
1 the ruleset is invalid or some games stopped with a rule error, 2 usage, 130 stopped by
Ctrl-C (after reporting the games completed).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, NoReturn

import click

from dsl import render
from dsl.diagnostics import Diagnostic
from dsl.safe_text import shown, text_problem
from interpreter.cli.failed import fail
from interpreter.compile.refusals import not_generated_warning
from interpreter.engine.setup import SetupError, load, new_game
from interpreter.simulate import plots
from interpreter.simulate.runner import (
    Guard,
    Job,
    Outcome,
    Setup,
    SimulationError,
    game_seed,
    keep_program,
    not_generated,
    program_for,
)
from interpreter.simulate.runner import simulate as run_simulation
from interpreter.simulate.summary import (
    SetupInfo,
    compare,
    located_error,
    summarize,
    text_comparison,
    text_report,
    text_sweep,
    write_csv,
)
from interpreter.table import output_files
from interpreter.table.limit_option import limit_option
from interpreter.table.options import MAX_SEAT_DIGITS, seat_problem
from interpreter.table.options import pairs as _pairs
from interpreter.table.options import seats as _seats
from interpreter.table.options import seed as _seed
from interpreter.table.terminal import control

MAX_SWEEP = 200  # values in one sweep: each is a full simulation


def _usage(message: str, hint: str | None = None) -> NoReturn:
    click.echo(render(Diagnostic("bad-input", message, None, (), hint), None), err=True)
    sys.exit(2)


# -- reading the options -------------------------------------------------------------------------

def _number(text: str, what: str) -> Decimal:
    try:
        value = Decimal(text.strip())
    except InvalidOperation:
        _usage(f"--sweep {what}: '{text}' is not a number", "write NAME=LO..HI[:STEP], e.g. "
               "threshold=5..25 or margin=0.5..3:0.5")
    if not value.is_finite():
        _usage(f"--sweep {what}: '{text}' is not a finite number")
    return value


def _shown(d: Decimal) -> str:
    # 5, 2.5, 0.25: no exponent, no trailing zeros, so an int parameter reads an int.
    text = format(d.normalize(), "f")
    return text if "." not in text else text.rstrip("0").rstrip(".")


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """`NAME=LO..HI[:STEP]` (numbers, step 1 by default) or `NAME=A,B,C` (any values, for
    instance the choices of a choice parameter): the parameter and its values as `--set`
    text."""
    hint = "write NAME=LO..HI[:STEP] (e.g. threshold=5..25 or margin=0.5..3:0.5) or NAME=A,B,C"
    if problem := text_problem(text):
        _usage(f"--sweep '{shown(text)}' {problem}", hint)
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not name or not spec:
        _usage(f"--sweep '{text}' is not NAME=LO..HI[:STEP] or NAME=A,B,C", hint)
    if ".." not in spec:
        values = [v.strip() for v in spec.split(",")]
        if any(not v for v in values):
            _usage(f"--sweep '{text}' has an empty value", hint)
        if len(values) > MAX_SWEEP:
            _usage(f"--sweep '{text}' has {len(values)} values; at most {MAX_SWEEP}")
        return name, values
    lo_text, _, rest = spec.partition("..")
    hi_text, colon, step_text = rest.partition(":")
    lo, hi = _number(lo_text, "LO"), _number(hi_text, "HI")
    step = _number(step_text, "STEP") if colon else Decimal(1)
    if step <= 0:
        _usage(f"--sweep '{text}': the step must be above 0", hint)
    if hi < lo:
        _usage(f"--sweep '{text}': {_shown(hi)} is below {_shown(lo)}", "write LO..HI, low first")
    count = int((hi - lo) / step) + 1
    if count > MAX_SWEEP:
        _usage(f"--sweep '{text}' has {count} values; at most {MAX_SWEEP}",
               "use a larger step (NAME=LO..HI:STEP)")
    return name, [_shown(lo + i * step) for i in range(count)]


def parse_vs(text: str, base: Setup) -> Setup:
    """`--vs` OTHER: the base setup with some changes, comma-separated: `variant=NAME`,
    `set:NAME=VALUE`, `seat:K=POLICY`."""
    hint = ("--vs takes variant=NAME, set:NAME=VALUE or seat:K=POLICY, several joined by "
            "commas (e.g. --vs variant=long_game or --vs set:threshold=15,seat:2=random)")
    if problem := text_problem(text):
        _usage(f"--vs '{shown(text)}' {problem}", hint)
    variant = base.variant
    sets = dict(base.sets)
    seats = dict(base.seats)
    items = [i.strip() for i in text.split(",")]
    if not text.strip() or any(not i for i in items):
        _usage(f"--vs '{text}' names no change", hint)
    for item in items:
        if item.startswith("variant="):
            variant = item[len("variant="):].strip() or None
        elif item.startswith("set:"):
            name, sep, value = item[len("set:"):].partition("=")
            if not sep or not name.strip():
                _usage(f"--vs '{item}' is not set:NAME=VALUE", hint)
            sets[name.strip()] = value.strip()
        elif item.startswith("seat:"):
            k, sep, who = item[len("seat:"):].partition("=")
            k, who = k.strip(), who.strip()
            if not sep or not (k.isascii() and k.isdigit()) or seat_problem(who):
                _usage(f"--vs '{item}' is not seat:K=POLICY", hint)
            if len(k.lstrip("0")) > MAX_SEAT_DIGITS:
                _usage(f"--vs '{item}': there is no seat {shown(k, 12)}", hint)
            seats[int(k)] = who
        else:
            _usage(f"--vs '{item}' is not a change meeple knows", hint)
    other = Setup(text, variant, tuple(sorted(sets.items())), tuple(sorted(seats.items())),
                  base.players)
    if (other.variant, other.sets, other.seats) == (base.variant, base.sets, base.seats):
        _usage(f"--vs '{text}' is the base setup itself: there is nothing to compare", hint)
    return other


def _info(ruleset: str, setup: Setup) -> SetupInfo:
    """Loads and checks one setup (as `meeple run` would), or exits with its errors."""
    for seat, who in setup.seats:
        if who == "human":
            _usage(f"seat {seat} cannot be human: simulate plays bots only",
                   "use random or policy:NAME (meeple run plays with people)")
    try:
        loaded = load(ruleset, setup.variant, dict(setup.sets), limits=dict(setup.limits))
    except SetupError as e:
        fail(e.diagnostics, e.source)
    try:
        game = new_game(loaded.program, setup.players, dict(setup.seats), seed=0)
    except SetupError as e:
        fail(e.diagnostics, loaded.source)
    seats = [(p.seat, p.name, c.name) for p, c in zip(game.players, game.controllers,
                                                      strict=True)]
    program = loaded.program
    return SetupInfo(setup, loaded, seats, list(program.data.get("triggers") or {}),
                     list(program.symbols.decisions))


def _say_which_engine(job: Job, infos: list[SetupInfo]) -> None:
    """A setup the code generator does not handle is played by the reference interpreter, many
    times slower: never silently. Says so, located, before the games start (and the report
    says it again). The generated function is made here once and kept for the run."""
    said = set()
    for info in infos:
        if info.loaded.source.text == job.text:  # compiled from the text the games play
            keep_program(job, info.setup, info.loaded.program)
        refusal = not_generated(program_for(job, info.setup), info.setup)
        if refusal is None:
            continue
        info.not_generated = not_generated_warning(*refusal, info.loaded.positions)
        if refusal not in said:
            said.add(refusal)
            click.echo(render(info.not_generated, info.loaded.source), err=True)


# -- progress ------------------------------------------------------------------------------------

class _Progress:
    """Games done, games per second and time left, on one line of a terminal's stderr."""

    def __init__(self, games_per_index: int) -> None:
        self.per_index = games_per_index
        self.last = 0.0
        self.width = 0

    def __call__(self, done: int, total: int, elapsed: float) -> None:
        now = time.monotonic()
        if now - self.last < 0.2 and done < total:
            return
        self.last = now
        rate = done / elapsed if elapsed > 0 else 0.0
        left = (total - done) / rate if rate > 0 else 0.0
        text = (f"{done:,}/{total:,} games  {rate * self.per_index:,.0f} games/s  "
                f"{_duration(left)} left  (Ctrl-C stops and reports)")
        self.width = max(self.width, len(text))
        control("\r", err=True)  # the progress line redrawn in place
        sys.stderr.write(text.ljust(self.width))
        sys.stderr.flush()

    def clear(self) -> None:
        if self.width:
            control("\r", err=True)
            sys.stderr.write(" " * self.width)
            control("\r", err=True)
            sys.stderr.flush()


def _duration(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


# -- the command ---------------------------------------------------------------------------------

@click.command()
@click.argument("ruleset", type=click.Path(dir_okay=False))
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Games to play (per setup compared or value swept).")
@click.option("--players", type=int, help="Number of players (default: the ruleset's).")
@click.option("--seed", default="0", show_default=True,
              help="Master seed: game i plays with seed SEED:i (`meeple run --seed SEED:i` "
                   "plays it again, narrated).")
@click.option("--seat", "seats", multiple=True, metavar="K=POLICY",
              help="Who plays seat K: random or policy:NAME (repeatable; default: the "
                   "ruleset's default policy).")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="Set a parameter (repeatable).")
@click.option("--variant", help="Play a variant of the ruleset.")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes to play in; the results are the same for any number.")
@click.option("--scheduler", metavar="tcp://HOST:PORT",
              help="Play on a Dask cluster (needs meeple[cluster]); the results are the same "
                   "as here.")
@click.option("--vs", "versus", multiple=True, metavar="OTHER",
              help="Compare with another setup on the same seeds: variant=NAME, "
                   "set:NAME=VALUE, seat:K=POLICY, comma-separated (repeatable).")
@click.option("--sweep", metavar="NAME=LO..HI[:STEP]",
              help="Run a parameter over a range (or NAME=A,B,C) and report each value.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False),
              help="Write one row per game to this CSV file.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), metavar="FILE.png",
              help="Draw the charts to this image (needs meeple[plot]).")
@limit_option
@click.option("--force", is_flag=True,
              help="Replace the --csv and --plot files if they exist (without it, meeple "
                   "refuses to write over a file).")
def simulate(ruleset: str, games: int, players: int | None, seed: str, seats: tuple[str, ...],
             sets: tuple[str, ...], variant: str | None, workers: int, scheduler: str | None,
             versus: tuple[str, ...], sweep: str | None, as_json: bool, csv_path: str | None,
             plot_path: str | None, limits: dict[str, int], force: bool) -> None:
    """Play many seeded games of RULESET with bots and report balance statistics.

    Win rates with 95% intervals, score distributions, draws and shared wins, first-player
    advantage, game length, lead changes, triggers and decisions per game. `--vs` compares
    another setup on the same seeds; `--sweep` runs a parameter over a range. See
    docs/simulate.md.
    """
    seed_value = _seed(seed)
    if sweep and versus:
        _usage("--sweep and --vs cannot be combined", "sweep first, then compare two values "
               "with --set NAME=A --vs set:NAME=B")
    if scheduler and workers != 1:
        _usage("--workers and --scheduler cannot be combined",
               "with --scheduler, the cluster's workers play the games")
    if plot_path:
        if Path(plot_path).suffix.lower() not in plots.FORMATS:
            _usage(f"--plot {plot_path}: the file must end in " + ", ".join(plots.FORMATS))
        if not plots.available():
            _usage("--plot needs matplotlib, which is not installed",
                   f"install the plot extra: {plots.EXTRA}")
    if csv_path and plot_path and Path(csv_path).resolve() == Path(plot_path).resolve():
        _usage(f"--csv and --plot both write {csv_path}")
    for path, what in ((csv_path, "--csv"), (plot_path, "--plot")):
        if path:
            try:  # before the games are played, not after
                output_files.check_free(path, force)
            except output_files.OutputError as e:
                _usage(f"{what} {e}")
    base_sets = _pairs(sets, "--set")
    base = Setup("base", variant, tuple(sorted(base_sets.items())),
                 tuple(sorted(_seats(seats).items())), players)
    sweep_name = None
    if sweep:
        sweep_name, values = parse_sweep(sweep)
        if sweep_name in base_sets:
            _usage(f"--sweep {sweep_name} and --set {sweep_name} both set it",
                   "leave the --set out")
        setups = [Setup(f"{sweep_name}={v}", variant,
                        tuple(sorted({**base_sets, sweep_name: v}.items())), base.seats, players)
                  for v in values]
    else:
        setups = [base] + [parse_vs(v, base) for v in versus]
    setups = [replace(s, limits=tuple(sorted(limits.items()))) for s in setups]
    infos = [_info(ruleset, s) for s in setups]
    if len({len(i.seats) for i in infos}) > 1:
        _usage("the setups compared have different numbers of players",
               "compare setups with the same players")
    loaded = infos[0].loaded
    job = Job(Path(ruleset).name, loaded.source.text, tuple(setups), seed_value,
              paired=bool(versus))
    _say_which_engine(job, infos)
    progress = _Progress(len(setups)) if sys.stderr.isatty() else None
    try:
        with Guard() as guard:
            outcome = run_simulation(job, games, workers, scheduler, progress, guard)
    except SimulationError as e:
        if progress is not None:
            progress.clear()
        click.echo(render(Diagnostic("bad-input", e.message, None, (), e.hint), None), err=True)
        sys.exit(2 if e.usage else 1)
    if progress is not None:
        progress.clear()
    _report(ruleset, infos, outcome, seed_value, sweep_name, as_json, csv_path, plot_path,
            force)


def _report(ruleset: str, infos: list[SetupInfo], outcome: Outcome, seed: Any,
            sweep_name: str | None, as_json: bool, csv_path: str | None,
            plot_path: str | None, force: bool) -> NoReturn:
    base = infos[0]
    program = base.loaded.program
    meta = program.data["metadata"]
    all_stats = [summarize(info, outcome.records[k], outcome.tallies[k], seed)
                 for k, info in enumerate(infos)]
    played = outcome.completed * len(infos)
    out: dict[str, Any] = {
        "ruleset": ruleset, "name": meta.get("name"), "seed": seed,
        "players": len(base.seats), "games": outcome.completed, "requested": outcome.requested,
        "interrupted": outcome.interrupted,
        "seconds": outcome.seconds,
        "games_per_s": played / outcome.seconds if outcome.seconds > 0 else None,
        "workers": outcome.workers,
    }
    diffs = []
    if sweep_name is not None:
        points = [{"value": info.loaded.program.parameters[sweep_name], **stats}
                  for info, stats in zip(infos, all_stats, strict=True)]
        out["sweep"] = {"parameter": sweep_name, "values": points}
    else:
        out.update({k: v for k, v in all_stats[0].items() if k not in out})
        diffs = [compare(base, outcome.records[0], info, outcome.records[k],
                         outcome.tallies[k]) for k, info in enumerate(infos) if k > 0]
        if diffs:
            out["vs"] = [{**all_stats[k + 1], "differences": d} for k, d in enumerate(diffs)]
    if as_json:
        click.echo(json.dumps(out, indent=2, default=str))
    else:
        _text(out, infos, all_stats, diffs, sweep_name)
    if outcome.interrupted:
        click.echo(f"interrupted: {outcome.completed:,} of {outcome.requested:,} games were "
                   "completed; the statistics cover those", err=True)
    written = _files(infos, outcome, all_stats, out, seed, csv_path, plot_path, sweep_name,
                     force)
    if not as_json:
        for line in written:
            click.echo(line)
    failed = _errors(ruleset, infos, outcome, seed)
    sys.exit(130 if outcome.interrupted else 1 if failed else 0)


def _text(out: dict, infos: list[SetupInfo], all_stats: list[dict], diffs: list[dict],
          sweep_name: str | None) -> None:
    echo = click.echo
    base = infos[0].setup
    what = ", ".join([f"variant {base.variant}"] * bool(base.variant)
                     + [f"{k}={v}" for k, v in base.sets if k != sweep_name])
    each = "" if len(infos) == 1 else " per value" if sweep_name is not None else " per setup"
    echo(f"{out['name']}: {out['games']:,} games{each} of {out['players']} "
         f"player{'s' if out['players'] != 1 else ''}, "
         f"seed {out['seed']}"
         f" (game i plays with seed {out['seed']}:i)" + (f", {what}" if what else ""))
    rate = out["games_per_s"]
    echo(f"{out['seconds']:.1f} s, {rate:,.0f} games/s, {out['workers']} worker"
         f"{'s' if out['workers'] != 1 else ''}" if rate else f"{out['seconds']:.1f} s")
    echo("")
    if sweep_name is not None:
        for line in text_sweep(sweep_name, out["sweep"]["values"]):
            echo(line)
        echo("")
        echo("score/player: the mean score of a player over all seats, with its 95% interval; "
             "the seat columns: each seat's mean score and win rate")
        return
    for line in text_report(all_stats[0]):
        echo(line)
    for info, d in zip(infos[1:], diffs, strict=True):
        echo("")
        for line in text_comparison(info.label, d):
            echo(line)


def _files(infos: list[SetupInfo], outcome: Outcome, all_stats: list[dict], out: dict,
           seed: Any, csv_path: str | None, plot_path: str | None,
           sweep_name: str | None, force: bool) -> list[str]:
    """Writes the --csv and --plot files (each whole, or not at all; see output_files)."""
    lines = []
    n_players = len(infos[0].seats)
    if csv_path:
        clock = any(r.seconds for records in outcome.records for r in records)
        runs = [(i.label, outcome.records[k]) for k, i in enumerate(infos)]
        _write(csv_path, lambda tmp: write_csv(tmp, runs, n_players, seed, clock), force)
        lines.append(f"wrote {csv_path}: one row per game")
    if plot_path:
        title = f"{out['name']}: {outcome.completed:,} games per setup, seed {seed}"

        def draw(tmp: str) -> None:
            if sweep_name is not None:
                plots.plot_sweep(tmp, title, sweep_name, out["sweep"]["values"])
                return
            scores = [[[r.scores[i] for r in outcome.records[k]
                        if r.error is None and r.scores[i] is not None]
                       for i in range(n_players)] for k in range(len(infos))]
            if len(infos) == 1:
                plots.plot_run(tmp, title, all_stats[0], scores[0])
            else:
                plots.plot_comparison(tmp, title, [(i.label, s) for i, s in zip(
                    infos, all_stats, strict=True)], scores)
        _write(plot_path, draw, force)
        lines.append(f"wrote {plot_path}")
    return lines


def _write(path: str, write, force: bool) -> None:
    try:
        output_files.write_file(path, write, force)
    except output_files.OutputError as e:
        _usage(str(e))


def _errors(ruleset: str, infos: list[SetupInfo], outcome: Outcome, seed: Any) -> bool:
    """Reports the games the rules could not finish, with the first one's error located in
    the ruleset and the command that plays it again. True when there were any."""
    failed = False
    for info, records in zip(infos, outcome.records, strict=True):
        bad = [r for r in records if r.error is not None]
        if not bad:
            continue
        failed = True
        first = bad[0]
        diag = located_error(info, first)
        s = info.setup
        again = " ".join([f"meeple run {ruleset} --seed {game_seed(seed, first.index)}"]
                         + [f"--players {s.players}"] * (s.players is not None)
                         + [f"--variant {s.variant}"] * bool(s.variant)
                         + [f"--set {k}={v}" for k, v in s.sets]
                         + [f"--seat {k}={v}" for k, v in s.seats])
        where = "" if len(infos) == 1 else f" ({info.label})"
        click.echo(f"{len(bad):,} of {len(records):,} games{where} stopped with an error; "
                   f"the first, game {first.index}:", err=True)
        click.echo(render(diag, info.loaded.source), err=True)
        click.echo(f"  play it again, narrated: {again}", err=True)
    return failed
