"""Phase 6, run (engine result): the standings at the end of a game.

Input: the finished game (scores by the `scoring` section, eligibility, tie-breaks, `winners`).
Output: a `Result`: winners, each seat's score and place, the reason the game ended, and the
counts of rounds, turns, steps and rolls. `GameResults` is a mixin of `Game`
(interpreter/engine/game.py)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dsl.compiler import Env
from interpreter.engine.signals import RuleError
from interpreter.engine.values import Player, plain


@dataclass
class SeatResult:
    seat: int
    name: str
    controller: str
    score: Any
    placement: int
    eliminated: bool
    team: str | None = None  # the seat's team, in a team game
    eligible: bool | None = None  # whether `scoring.eligible` let it win (None: no such rule)


@dataclass
class Result:
    winners: list[str]
    seats: list[SeatResult]
    reason: str
    rounds: int
    turns: int
    steps: int
    rolls: int
    seconds: float  # modelled (or real) time the game took
    error: RuleError | None = None

    def to_json(self) -> dict:
        return {
            "winners": self.winners,
            "seats": [{k: v for k, v in s.__dict__.items()
                       if k not in ("team", "eligible") or v is not None} for s in self.seats],
            "reason": self.reason, "rounds": self.rounds, "turns": self.turns,
            "steps": self.steps, "rolls": self.rolls, "seconds": round(self.seconds, 3),
        }






class GameResults:
    """Ranks the seats at the end (a mixin of Game)."""

    # -- result ----------------------------------------------------------------------------------
    def _result(self, reason: str, winners: list | None, error: RuleError | None) -> Result:
        sc = self.program.scoring
        env = self.env
        scores = {}
        for p in self.players:
            scope = Env({"player": p}, env)
            try:
                scores[p.seat] = sc["score"](scope) if "score" in sc else None
            except RuleError as e:
                error = error or e
                scores[p.seat] = None
        pool: list[Player] = []
        tbs: dict[int, list] = {}  # each player's tie-breaks, worked out once (work counts)
        if error is None:
            try:
                for p in self.players:
                    scope = Env({"player": p}, env)
                    tbs[p.seat] = [f(scope) for f in sc["tie_break"]]
                pool = self._eligible()
                if winners is None:
                    winners = self._winners(scores, pool, tbs)
            except RuleError as e:
                error, winners = e, []
        winners = winners or []
        win_seats = {p.seat for p in winners}
        eligible = {p.seat for p in pool}
        sign = -1 if sc["order"] == "lowest" else 1

        def key(p: Player):
            # Winners first, then the eligible (a player who cannot win places below every player
            # who is not, whatever their score), then by score and tie-breaks.
            s = scores[p.seat]
            tb = tbs[p.seat] if error is None else []
            return (p.seat in win_seats, p.seat in eligible,
                    sign * s if isinstance(s, (int, float)) else 0,
                    [sign * x if isinstance(x, (int, float)) else 0 for x in tb])
        ranked = sorted(self.players, key=key, reverse=True)
        seats = []
        place = 0
        last = None
        for i, p in enumerate(ranked):
            k = key(p)
            if k != last:
                place = i + 1
                last = k
            seats.append(SeatResult(p.seat, p.name, self.controllers[p.seat - 1].name,
                                    plain(scores[p.seat]), place, p.eliminated,
                                    p.team.name if p.team is not None else None,
                                    p.seat in eligible if "eligible" in sc and error is None
                                    else None))
        seats.sort(key=lambda s: s.seat)
        return Result([p.name for p in winners], seats, reason, self.round, self.turn,
                      self.steps, self.rolls, self.clock.now(), error)

    def _eligible(self) -> list[Player]:
        """The players `scoring.eligible` lets win; everyone when nobody (or no rule) is."""
        sc = self.program.scoring
        pool = [p for p in self.players
                if "eligible" not in sc or sc["eligible"](Env({"player": p}, self.env))]
        return pool or list(self.players)

    def _winners(self, scores: dict, pool: list[Player], tbs: dict[int, list]) -> list[Player]:
        """By `scoring.winners`, else the best score (and tie-breaks, `tbs` by seat) among
        `pool`, the eligible players."""
        sc = self.program.scoring
        if "winners" in sc:
            return list(sc["winners"](self.env))
        if "score" not in sc:
            return []
        sign = -1 if sc["order"] == "lowest" else 1

        def key(p):
            return (sign * scores[p.seat], *[sign * x for x in tbs[p.seat]])
        best = max(key(p) for p in pool)
        top = [p for p in pool if key(p) == best]
        if len(top) > 1 and sc["ties"] == "draw":
            return []
        return top
