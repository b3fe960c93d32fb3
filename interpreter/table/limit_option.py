"""The command line's `--limit NAME=N` (for run and simulate): a person raising a budget past
the ceiling a ruleset may ask for (dsl/limits.py). Input: the option's texts, or a log's
recorded limits. Output: a checked {name: n} mapping; a bad value is a usage error (exit 2).
"""

from __future__ import annotations

from typing import Any

import click

from dsl.limits import DEFAULT_LIMITS, parse_limit


def _parse(ctx: click.Context, param: click.Parameter, values: tuple[str, ...]) -> dict:
    out = {}
    for text in values:
        try:
            name, n = parse_limit(text)
        except ValueError as err:
            raise click.BadParameter(str(err), ctx, param) from None
        out[name] = n
    return out


limit_option = click.option(
    "--limit", "limits", multiple=True, metavar="NAME=N", callback=_parse,
    help="Raise (or lower) a budget for this run, past what a ruleset may ask for: "
         + ", ".join(f"{k} (default {v:,})" for k, v in DEFAULT_LIMITS.items())
         + ". Repeatable; see docs/security.md.")


def logged_limits(head: dict) -> dict[str, int]:
    """The limits a logged game was played with, checked (a log is written by a stranger)."""
    given: Any = head.get("limits") or {}
    if not isinstance(given, dict):
        raise click.UsageError("the log's 'limits' is not a mapping of NAME: N")
    out = {}
    for name, n in given.items():
        try:
            out.update([parse_limit(f"{name}={n}")])
        except ValueError as err:
            raise click.UsageError(f"the log's limits: {err}") from None
    return out
