"""Phase 6, run (time): the game's clock, modelled or real.

Input: nothing. Output: `ModelledClock`, which moves only when the engine advances it by the
durations a ruleset declares (simulation, tests), and `RealClock`, which reads the wall clock
(live play: a real dive timer). Timers (interpreter/values.py) read whichever clock the game has.
"""

from __future__ import annotations

import time


class ModelledClock:
    real = False

    def __init__(self) -> None:
        self.t = 0.0

    def now(self) -> float:
        return self.t

    def set(self, t: float) -> None:
        self.t = t


class RealClock:
    real = True

    def __init__(self) -> None:
        self.start = time.monotonic()

    def now(self) -> float:
        return time.monotonic() - self.start

    def set(self, t: float) -> None:
        """Real time cannot be set; durations pass by themselves."""


class ReplayClock(ModelledClock):
    """Replays a live game: time stands where the log says it stood at each decision, and
    declared durations are not added (live time passed by itself)."""

    real = True
