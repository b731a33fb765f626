"""The coup's countdown on an injected monotonic clock, and the calls it owes.

The voice and the room screen both read this one object, so "Trente
secondes" is spoken when the screen turns to 0:30 and "Terminé" when it
shows Terminé. Time is given by the caller (``time.monotonic()`` in the
kiosk, a scripted clock in tests and in the fast demo).
"""

from __future__ import annotations

#: the calls of a coup, in the order they fall due
CALLS = ("chrono", "avertissement", "terminé")


class Countdown:
    def __init__(self, total: float, warning: float, elapsed: float = 0.0,
                 paused: bool = False, calls: set[str] | None = None) -> None:
        self.total = float(total)
        self.warning = float(warning)
        self._elapsed = float(elapsed)
        self._since: float | None = None  # clock time the countdown was last (re)started
        self.paused = paused
        self.calls = set(calls or ())

    def start(self, now: float) -> None:
        """Run from ``now`` (a resumed countdown starts where the journal left it)."""
        if not self.paused:
            self._since = now

    def elapsed(self, now: float) -> float:
        running = now - self._since if self._since is not None and not self.paused else 0.0
        return min(self.total, self._elapsed + max(0.0, running))

    def remaining(self, now: float) -> float:
        return max(0.0, self.total - self.elapsed(now))

    def pause(self, now: float) -> None:
        if not self.paused:
            self._elapsed = self.elapsed(now)
            self.paused = True
            self._since = None

    def resume(self, now: float) -> None:
        if self.paused:
            self.paused = False
            self._since = now

    @property
    def has_warning(self) -> bool:
        """No "Trente secondes" in a coup shorter than the warning itself."""
        return 0 < self.warning < self.total

    def due(self, now: float) -> list[str]:
        """Calls whose second has come and that were not made yet (not marked here)."""
        left = self.remaining(now)
        due = []
        if "chrono" not in self.calls:
            due.append("chrono")
        if self.has_warning and left <= self.warning and "avertissement" not in self.calls:
            due.append("avertissement")
        if left <= 0 and "terminé" not in self.calls:
            due.append("terminé")
        return due

    def next_deadline(self, now: float) -> float | None:
        """Seconds until the next call falls due (for a clock that jumps, as in the fast demo)."""
        if self.paused:
            return None
        left = self.remaining(now)
        if self.has_warning and "avertissement" not in self.calls and left > self.warning:
            return left - self.warning
        if "terminé" not in self.calls:
            return left
        return None
