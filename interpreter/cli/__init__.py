"""The `meeple` command line; `python -m interpreter.cli` runs it."""

from interpreter.cli.main import main

__all__ = ["main"]
