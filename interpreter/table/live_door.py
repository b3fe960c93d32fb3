"""Phase 6, run (people at the table, generated games): the door a live generated game asks
people through.

Input: the `Game` that `meeple run` set up for the table (its players, their controllers,
its clock; never run), and the `Mirror` that keeps it in step with the generated game
(interpreter/table/mirror.py). Output: `LiveDoor`, the `_LV` of a generated game played live
(interpreter/compile/people.py): `asked` and `now` give the moments a decision is logged
with, from the game's clock as GameAsking._decide takes them; `ask` builds the interpreter's
`Request` of a person's decision from what the generated code worked out (the legal
options, their labels, the prompt, the bounds of a number, the points and costs of
`actions`), shows the game as it stands and asks the seat's controller, whose answer goes
back to the generated code by its key (a timeout, or an event the person raised, as itself:
interpreter/compile/people.py goes on with it). `report` asks a race's reporter (a person, or
the referee's table) what a racer claimed, as the interpreter's race does
(interpreter/engine/race.py), and gives the generated code the items by their numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

from interpreter.engine import counted
from interpreter.engine.asking import TIMEOUT, Raised
from interpreter.engine.counted import CountKind
from interpreter.engine.decisions import Option, Request, answer_key, option_for_value
from interpreter.engine.race import Racer, RaiseNow, report_claims, report_counts, reporter
from interpreter.engine.signals import Undo


class _Cost:
    """A named option's cost as a person is shown it (an option's spec in the interpreter)."""

    def __init__(self, cost: Any):
        self.cost = lambda env: cost


class LiveDoor:
    """`_LV` of a live generated game; `mirror` holds the game's Mirror once the generated
    code has handed over how to read its state."""

    def __init__(self, game: Any, mirror: list):
        self.game, self.mirror = game, mirror
        self.clock = game.clock

    def asked(self, queue: Any) -> float:
        """The moment a decision is asked: now, or the one a replayed answer was asked at
        (a resumed game's clock goes live once its replayed answers are used up)."""
        clock = self.clock
        if not queue and getattr(clock, "replaying", False):
            clock.go_live()
        entry = queue[0] if queue else None
        if isinstance(entry, dict) and "asked" in entry:
            clock.set(entry["asked"])
            return entry["asked"]
        return clock.now()

    def now(self) -> float:
        return self.clock.now()

    def raised(self, queue: Any) -> None:
        """A replayed event people raised, taken from the answers: the clock stands at the
        moment it was raised, when the log has it."""
        entry = queue.popleft()
        if "at" in entry:
            self.clock.set(entry["at"])

    def timeout(self, queue: Any) -> float:
        """A replayed timeout, taken from the answers: the clock stands at its moment."""
        at = queue.popleft()["timeout"]
        self.clock.set(at)
        return at

    def ask(self, did: str, seat: int, path: tuple | None, sealed: bool,
            prompt: str | None = None, kind: str | None = None, options: list = (),
            low: Any = None, high: Any = None, points: Any = None,
            costs: dict | None = None) -> Any:
        """A person's answer, by its key (or TIMEOUT: a timer ran out while they thought; or
        the `Raised` event they called): the options as (value, label or None), of `kind`
        ("name" for named options, else the kind of their values), or a number from `low` to
        `high`."""
        mirror = self.mirror[0]
        mirror.sync_all()  # a person's view reads the whole game
        game = self.game
        req = Request(did, game.players[seat], path=path or (), points=points,
                      render=_said(prompt), sealed=sealed)
        if kind is None:
            req.low, req.high = low, high
        elif kind == "name":
            req.options = [Option(key, key, key, _Cost(costs[key]) if costs and key in costs
                                  else None, _said(label)) for key, label in options]
        else:
            req.options = [option_for_value(mirror.value(v, kind), _said(label))
                           for v, label in options]
        answer = game.controllers[seat].decide(game, req)
        if answer is TIMEOUT or isinstance(answer, Raised):  # the generated code goes on
            return answer  # with it (a timer ran out while they thought; `!NAME`)
        return answer_key(answer)

    def report(self, race_id: str, path: tuple, racers: list, i: int, claims: list,
               caps: list, pool: list) -> Any:
        """What racer `i` (of `racers`, seat numbers) claimed in a race, as its reporter (the
        seat's person, else the referee's table) says: the item numbers (of `pool`), checked
        against `caps` and what the racers before it claimed (`claims`, item numbers), asked
        until possible (race.report_claims); or the `Raised` event they called instead."""
        mirror = self.mirror[0]
        mirror.sync_all()  # the listing shows the faces, a person's view the whole game
        game = self.game
        item = mirror.pieces(pool)
        number = {id(x): n for x, n in zip(item, pool, strict=True)}
        held = [Racer(game.players[seat], k, 1.0, 0.0, 0.0, caps[k], None,
                      mirror.pieces(claims[k])) for k, seat in enumerate(racers)]
        rep = reporter(game, held[i], path)
        try:
            got = report_claims(game, race_id, held, held[i], item, list(item), rep)
        except RaiseNow as e:
            return Raised(e.event, e.by)
        return [number[id(x)] for x in got]

    def counts(self, race_id: str, path: tuple, rep: tuple, seat: int, first: bool,
               head: bool, kinds: tuple, pool: list, take: Callable[[dict], tuple]) -> Any:
        """What a reporter (`rep`: its name, how the table is asked for it, its racers; the
        first racer's `seat`) says it claimed in a race a counting table reports by counts
        (race._counted): a line of counts per kind (`kinds`: names and labels) read as
        counted.parse reads it, each checked by `take` (the generated code's counted.take:
        the items and faces, or why not) and asked again until possible; the race's heading
        first when `head`. Returns (the items with their faces, the counts), the `Raised`
        event called instead, or None when the table undid the report before this one (an
        undo at the `first` reporter undoes the last input before the race)."""
        mirror = self.mirror[0]
        mirror.sync_all()
        game = self.game
        spec = SimpleNamespace(id=race_id, path=path,
                               counts=[CountKind(n, label) for n, label in kinds])
        racer = Racer(game.players[seat], 0, 1.0, 0.0, 0.0, None, None, [])
        try:
            return report_counts(game, spec, counted.Reporter(rep[0], rep[1], [racer]),
                                 counted.heading(spec, mirror.pieces(pool)) if head else "",
                                 take)
        except RaiseNow as e:
            return Raised(e.event, e.by)
        except Undo:
            if first:
                raise
            return None


def _said(text: str | None) -> Callable[[], str] | None:
    return (lambda: text) if text is not None else None
