"""The `meeple` command line: validate, schema, run, replay, simulate and rules.

Input: command-line arguments. Output: text or JSON on stdout, and the exit code: 0 valid (or
a game played to its end), 1 invalid (or a game the rules could not finish), 2 usage. No input
file, however broken, produces a traceback.
"""

from __future__ import annotations

import importlib
import json
import sys

import click

from dsl import render, validate_path
from dsl.diagnostics import Severity, sort_diagnostics
from dsl.schema import schema_json
from interpreter.table import terminal

# Commands imported when they are used: `meeple validate` does not wait for the engine, the
# simulator and the rulebook to load (start-up is most of a validation's time).
LAZY_COMMANDS = {
    "run": "interpreter.cli.run:run",
    "replay": "interpreter.cli.replay:replay",
    "simulate": "interpreter.cli.simulate:simulate",
    "rules": "interpreter.cli.rules:rules",
}


class LazyGroup(click.Group):
    """A group whose commands in LAZY_COMMANDS are imported only when asked for (click's
    documented pattern for lazily loaded subcommands)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *LAZY_COMMANDS])

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in LAZY_COMMANDS:
            module, attr = LAZY_COMMANDS[name].split(":")
            return getattr(importlib.import_module(module), attr)
        return super().get_command(ctx, name)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="meeple")
def main() -> None:
    """meeple: tabletop games written as data.

    Write a game as a YAML ruleset, check it with `meeple validate`, and see
    docs/language.md for the language.
    """
    terminal.install()  # from here on, no control character from a ruleset reaches the terminal


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="Output format.")
@click.option("--compile", "compiled", is_flag=True,
              help="Also write each valid ruleset and variant as generated code for bot games, "
                   "and warn, located, at a rule the code generator does not handle (its "
                   "games are then played by the reference interpreter, many times slower).")
def validate(paths: tuple[str, ...], fmt: str, compiled: bool) -> None:
    """Check rulesets like a compiler: every error and warning, located, with a hint.

    Exits 0 when every file is valid (warnings allowed), 1 when any is not.
    """
    results = [validate_path(p) for p in paths]
    if compiled:  # imported only here: the generator is most of the time this takes
        from interpreter.compile.refusals import ruleset_refusals
        for p, r in zip(paths, results, strict=True):
            if r.ok and r.document is not None:
                variants = list(r.document.data.get("variants") or {})
                r.diagnostics = sort_diagnostics(
                    r.diagnostics + ruleset_refusals(p, r.document.source.text, variants))
    slow = [r.ok and any(d.code == "not-generated" for d in r.diagnostics) for r in results]
    errors = sum(d.severity is Severity.ERROR for r in results for d in r.diagnostics)
    warnings = sum(d.severity is Severity.WARNING for r in results for d in r.diagnostics)
    if fmt == "json":
        out = {
            "valid": all(r.ok for r in results),
            "errors": errors,
            "warnings": warnings,
            "files": [{"file": r.name, "valid": r.ok,
                       **({"generated": r.ok and not s} if compiled else {}),
                       "diagnostics": [d.to_json() for d in r.diagnostics]}
                      for r, s in zip(results, slow, strict=True)],
        }
        click.echo(json.dumps(out, indent=2))
    else:
        for r in results:
            for d in r.diagnostics:
                click.echo(render(d, r.source))
        bad = [r for r in results if not r.ok]
        also = f", {warnings} warning{'s' if warnings != 1 else ''}" if warnings else ""
        if bad:
            click.echo(f"{errors} error{'s' if errors != 1 else ''}{also} in {len(bad)} of "
                       f"{len(results)} file{'s' if len(results) != 1 else ''}", err=True)
        else:
            click.echo(f"{len(results)} ruleset{'s' if len(results) != 1 else ''} valid{also}",
                       err=True)
            if compiled:
                click.echo(f"bot games of {sum(slow)} of them are played by the reference "
                           "interpreter, many times slower (see the warnings)" if any(slow) else
                           "bot games of every ruleset and variant run on the generated code",
                           err=True)
    sys.exit(0 if all(r.ok for r in results) else 1)


@main.command()
def schema() -> None:
    """Print the ruleset JSON Schema (for editors' autocompletion)."""
    click.echo(schema_json(), nl=False)



if __name__ == "__main__":  # pragma: no cover
    main()
