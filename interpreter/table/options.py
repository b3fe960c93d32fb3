"""The command line's small values, read and checked: `--set NAME=VALUE` pairs, `--seat K=WHO`
and `--seed`.

Input: the text a person typed (or pasted from somewhere). Output: the values, or a
`click.BadParameter` (exit 2) that names the option and what is wrong, without echoing a
control character or a screenful of text back to the terminal.
"""

from __future__ import annotations

from typing import Any

import click

from dsl.safe_text import shown, text_problem

MAX_SPEC = 100  # characters in a seat's controller (human, random, policy:NAME) or a seed
MAX_SEAT_DIGITS = 6  # no game has a million seats


def pairs(values: tuple[str, ...], what: str) -> dict[str, str]:
    """NAME=VALUE pairs, in order; a name given twice is refused, not silently replaced."""
    out: dict[str, str] = {}
    for v in values:
        name, sep, value = v.partition("=")
        name, value = name.strip(), value.strip()
        if not sep or not name:
            raise click.BadParameter(f"'{shown(v)}' is not NAME=VALUE", param_hint=what)
        problem = text_problem(name, MAX_SPEC) or text_problem(value)
        if problem:
            raise click.BadParameter(f"'{shown(v)}' {problem}", param_hint=what)
        if name in out:
            raise click.BadParameter(f"{name} is given twice ({name}={shown(out[name])} and "
                                     f"{name}={shown(value)})", param_hint=what)
        out[name] = value
    return out


def seat_problem(who: str) -> str | None:
    """Why a seat's controller as typed cannot be used: empty, too long, control characters
    (whether it names a policy of the ruleset is checked once the ruleset is loaded)."""
    if not who:
        return "says nobody: give human, random or policy:NAME"
    return text_problem(who, MAX_SPEC)


def seats(values: tuple[str, ...], what: str = "--seat") -> dict[int, str]:
    """`K=WHO` seat specs, by seat number."""
    out: dict[int, str] = {}
    for v in values:
        k, sep, who = v.partition("=")
        k, who = k.strip(), who.strip()
        if not sep or not k:
            raise click.BadParameter(f"'{shown(v)}' is not K=WHO (e.g. 2=human)",
                                     param_hint=what)
        if not (k.isascii() and k.isdigit()):
            raise click.BadParameter(f"seat '{shown(k)}' is not a seat number",
                                     param_hint=what)
        if len(k.lstrip("0")) > MAX_SEAT_DIGITS:
            raise click.BadParameter(f"there is no seat {shown(k, 12)}", param_hint=what)
        problem = seat_problem(who)
        if problem:
            raise click.BadParameter(f"seat {int(k)} {problem}", param_hint=what)
        if int(k) in out:
            raise click.BadParameter(f"seat {int(k)} is given twice", param_hint=what)
        out[int(k)] = who
    return out


def seed(text: str) -> Any:
    """A seed: a whole number, or else any short text (`3:17`, `tuesday`)."""
    problem = text_problem(text, MAX_SPEC)
    if problem:
        raise click.BadParameter(f"the seed {problem}", param_hint="--seed")
    digits = text[1:] if text.startswith("-") else text
    return int(text) if digits.isascii() and digits.isdigit() else text
