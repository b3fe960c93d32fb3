"""Narration speaks the game's words (issue 17, part 3): no engine internals in what the table
reads, and an elimination announced once.

Every shipped ruleset is played by its bots on a few seeds and its whole narration read: no line
names a rule or a check by its id (`[rule ...]`, `[check ...]`: the rule's own steps say what
happens), a raised event says who called it (or that it happened, by chance), and no player
is announced out twice.
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from tests.conftest import ROOT

RULESETS = sorted((ROOT / "rulesets").glob("*.yaml"))


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda p: p.stem)
@pytest.mark.parametrize("seed", ["1", "7"])
def test_the_narration_of_a_shipped_ruleset_holds_no_engine_internals(ruleset, seed):
    done = CliRunner().invoke(main, ["run", str(ruleset), "--seed", seed])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert not [line for line in lines if re.match(r"\s*\[(rule|check) ", line)]
    assert all(" calls " in line or line.endswith(" happens")
               for line in lines if line.startswith("  ! "))
    outs = [line for line in lines if re.fullmatch(r"  \S.* is out(: .*)?", line)]
    assert len(outs) == len(set(outs)), outs
