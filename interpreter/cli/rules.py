"""The `meeple rules` command: a ruleset as a readable rulebook.

Input: a ruleset path, an optional variant and `--set` values, the format (markdown or html)
and an optional output file. Output: the rulebook on stdout (or in the file), and the exit
code: 0 written, 1 the ruleset is invalid (the same diagnostics as `meeple validate`), 2 a
usage error (an unknown variant or parameter, a bad value, a file that cannot be written).
"""

from __future__ import annotations

import click

from dsl import validate_path
from dsl.safe_text import escape_controls
from interpreter.cli.failed import fail
from interpreter.engine.setup import SetupError, load
from interpreter.rulebook import book as rulebook
from interpreter.table import output_files
from interpreter.table.options import pairs as _pairs


@click.command()
@click.argument("ruleset", type=click.Path(dir_okay=False))
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="Set a parameter (repeatable); the rulebook shows the value in play.")
@click.option("--variant", help="Describe a variant of the ruleset.")
@click.option("--format", "fmt", type=click.Choice(["markdown", "html"]), default="markdown",
              show_default=True, help="Markdown, or a standalone HTML page.")
@click.option("--output", "-o", "output", type=click.Path(dir_okay=False), metavar="FILE",
              help="Write the rulebook to FILE instead of standard output.")
@click.option("--force", is_flag=True,
              help="Replace the --output file if it exists (without it, meeple refuses to "
                   "write over a file).")
def rules(ruleset: str, sets: tuple[str, ...], variant: str | None, fmt: str,
          output: str | None, force: bool) -> None:
    """Print RULESET as a rulebook a new player can learn from.

    Components, setup, every phase and turn as numbered steps, every trigger and check in
    words, the end and scoring, parameters with their values and defaults, variants, bots and
    the documented assumptions. Exit 0 when written, 1 when the ruleset is invalid, 2 on a
    usage error.
    """
    if output is not None:
        _free(output, force)
    try:
        loaded = load(ruleset, variant, _pairs(sets, "--set"))
    except SetupError as e:
        fail(e.diagnostics, e.source)
    base = None
    if variant is not None:
        # The variant's program has the variant's defaults and no list of variants; the base
        # ruleset (valid, since load() validated it) gives the defaults and the other variants.
        checked = validate_path(ruleset)
        base = checked.document.data if checked.document is not None else None
    book = rulebook.build(loaded.program, base=base, variant=variant, sets=loaded.sets)
    out = rulebook.to_html(book) if fmt == "html" else rulebook.to_markdown(book)
    if output is None:
        click.echo(out, nl=False)
        return
    try:
        # The file is read in a browser or a terminal: no control character from the ruleset.
        output_files.write_text(output, escape_controls(out), force=force)
    except output_files.OutputError as e:
        raise click.BadParameter(str(e), param_hint="--output") from None
    click.echo(f"wrote the rulebook of {loaded.program.data['metadata']['name']} to {output}",
               err=True)


def _free(output: str, force: bool) -> None:
    """Refuses at once an --output file that exists (without --force)."""
    try:
        output_files.check_free(output, force)
    except output_files.OutputError as e:
        raise click.BadParameter(str(e), param_hint="--output") from None
