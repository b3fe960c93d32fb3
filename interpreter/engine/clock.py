"""Phase 6, run (time): the game's clock, modelled or real.

Input: nothing. Output: `ModelledClock`, which moves only when the engine advances it by the
durations a ruleset declares (simulation, tests), and `RealClock`, which reads the wall clock
(live play: a real countdown). Timers (interpreter/engine/values.py) read whichever clock the game has.
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


class ResumeClock(ReplayClock):
    """A resumed live game: replays the logged part like `ReplayClock`, then runs on real time
    from where the log left off (`go_live`, when the replayed inputs are used up)."""

    def __init__(self) -> None:
        super().__init__()
        self.replaying = True
        self.start = 0.0

    def go_live(self) -> None:
        self.replaying = False
        self.start = time.monotonic() - self.t

    def now(self) -> float:
        return self.t if self.replaying else time.monotonic() - self.start

    def set(self, t: float) -> None:
        if self.replaying:
            self.t = t
