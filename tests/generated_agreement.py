"""For tests that hold the generated code to the reference interpreter: every version of it
(fast, checked, logged) is generated for a ruleset and plays each seed as the interpreter
does, result, error and log included."""

from __future__ import annotations

from interpreter.compile.specialize import specialize
from interpreter.engine.chance import SeededChance
from interpreter.engine.setup import load, new_game
from tests.test_specialize import _interpreted, _outcome


def program_of(text: str, name: str = "game.yaml"):
    """The compiled program of a test's ruleset text (`name` only names it in messages)."""
    return load(name, text=text).program


def outcome(result) -> dict:
    """A result as compared: its JSON, with the error's code, words, data path and offsets."""
    out = result.to_json()
    e = result.error
    out["error"] = None if e is None else (e.code, e.message, e.path, e.pos)
    return out


def plays_as_the_interpreter(program, seeds) -> list:
    """Asserts that the fast, checked and logged versions of `program`'s generated code are
    written (none refused: the interpreter would play instead) and that on each seed the fast
    and checked ones give the silent interpreter's outcome, the logged one the narrating
    interpreter's outcome and log (narration's own errors stop only a narrated game).
    Returns the silent interpreter's result and the narrated game's log of each seed, for
    what a test checks of the games."""
    refused: list = []
    versions = [specialize(program, refused=refused, **options)
                for options in ({}, {"wide": True}, {"logged": True})]
    assert None not in versions, refused
    fast, checked, logged = versions
    results = []
    for seed in seeds:
        game = new_game(program, None, None, SeededChance(seed), seed)
        game.narrating = False
        result = game.run()
        want = outcome(result)
        assert outcome(fast.play(seed).result) == want, seed
        assert outcome(checked.play(seed).result) == want, seed
        narrated = new_game(program, None, None, SeededChance(seed), seed)
        told = outcome(narrated.run())
        played, log = logged.play_logged(seed)
        assert outcome(played.result) == told and log == narrated.log, seed
        results.append((result, narrated.log))
    return results


def dice_in_hands(name: str, sides: int, count: int) -> str:
    """The head of a test game's ruleset, up to its phase's turns: two players, `count` dice
    of `sides` sides in a bag, a row each (`hand`), a score each; the test writes the rest."""
    return f"""\
meeple: 1
metadata: {{name: {name}}}
players: {{min: 2, max: 2}}
components:
  dice:
    d: {{sides: {sides}, count: {count}, in: bag}}
  zones:
    bag: {{kind: bag}}
    hand: {{kind: row, owner: player}}
state:
  player:
    score: {{type: int, initial: 0}}
flow:
  phases:
    play:
      turns: {{order: clockwise}}
"""


def drawn_and_rolled(rounds: int) -> str:
    """After `dice_in_hands`: turns for `rounds` rounds, each beginning with a die drawn from
    the bag into the player's hand (`got`) and rolled; the test writes the rest of the turn."""
    return f"""\
      repeat: {{until: "round >= {rounds}"}}
      do:
        - draw: bag
          as: got
          to: current.hand
        - roll: got
"""


def aiming(name: str, rounds: int) -> str:
    """A whole test game but its policies: `dice_in_hands` (6 sides, 12 dice), `drawn_and_rolled`
    for `rounds` rounds, then a `target` from 1 to 12 chosen and added to the player's score,
    the highest score winning; the test writes `policies:` after it."""
    return dice_in_hands(name, 6, 12) + drawn_and_rolled(rounds) + """\
        - choose: target
          options: "range(1, 13)"
        - add: {current.score: "target"}
      next: end
scoring: {score: "player.score", order: highest}
"""


def stops_as_the_interpreter(program, budgets, seeds) -> int:
    """For each step budget (`limits.max_steps`), asserts that the fast version's game on each
    seed is the interpreter's (result, error, counts of triggers, answers and work); returns
    how many of them stopped at an error."""
    stopped = 0
    for limit in budgets:
        program.limits = {**program.limits, "max_steps": limit}
        special = specialize(program)
        for seed in seeds:
            played = special.play(seed)
            assert _outcome(played) == _interpreted(program, None, None, seed), (limit, seed)
            stopped += played.result.error is not None
    return stopped
