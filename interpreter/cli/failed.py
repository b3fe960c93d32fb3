"""The command line (run, replay, simulate, rules): a ruleset or an input file that cannot be
played, said.

Input: the diagnostics of a load and the source they locate. Output: each rendered on stderr,
then the exit code: 2 where every one is bad input (a usage error), else 1. A module of its
own so that a command that only needs this does not import another command's modules.
"""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

from dsl import render


def fail(diags: Any, source: Any) -> NoReturn:
    """Says each diagnostic, located in `source`, and exits."""
    for d in diags:
        click.echo(render(d, source), err=True)
    sys.exit(1 if any(d.code != "bad-input" for d in diags) else 2)
