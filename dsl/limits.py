"""The language's budgets (phases 5 and 6: compile and run): what a game may spend, what a
ruleset may ask for, and what only a person may allow.

Input: nothing (constants), and `--limit NAME=N` texts from the command line. Output: the
default budgets, their ceilings, and the checked values a person gives. A ruleset's `limits:`
may lower a budget, or raise it up to its ceiling (the schema says so, located); past the
ceiling only the person running the game may go, with `--limit`. The ceilings are set so that
a runaway game stops within seconds (docs/security.md has the figures).
"""

from __future__ import annotations

DEFAULT_LIMITS = {"max_steps": 1_000_000, "max_turns": 10_000, "max_loop": 10_000,
                  "max_chain_depth": 50}
# The most a ruleset may ask for. max_chain_depth is bounded by Python's own recursion, which
# nested triggers use: past about 150 levels the process would stop with no clear error.
LIMIT_CEILINGS = {"max_steps": 5_000_000, "max_turns": 100_000, "max_loop": 1_000_000,
                  "max_chain_depth": 100}
# The most a person may give with --limit.
PERSON_CEILINGS = {"max_steps": 10**12, "max_turns": 10**9, "max_loop": 10**12,
                   "max_chain_depth": 150}
MAX_PIECES = 10_000    # dice in one set, sides of one die, cells of one map
MAX_VARIANTS = 256     # variants of one ruleset (each is checked as a whole ruleset)


def parse_limit(text: str) -> tuple[str, int]:
    """`NAME=N` from the command line. Raises ValueError with a message for a person."""
    name, sep, value = text.partition("=")
    name = name.strip()
    if not sep or name not in DEFAULT_LIMITS:
        raise ValueError(f"'{text}' is not NAME=N with NAME one of "
                         + ", ".join(DEFAULT_LIMITS))
    try:
        n = int(value.strip())
    except ValueError:
        raise ValueError(f"'{value}' is not a whole number") from None
    if not 1 <= n <= PERSON_CEILINGS[name]:
        raise ValueError(f"{name} must be from 1 to {PERSON_CEILINGS[name]:,}")
    return name, n
