"""`python -m interpreter.cli`: the `meeple` command."""

from interpreter.cli import cli

cli()
