"""The benches' view of the kiosk's loop (:func:`kiosk.runner.run_window`): each frame's
work, split by phase, so that a frame rate below 30 says where the time went.

A frame starts when the loop asks the room window for its events and ends when the
console has been drawn (or skipped); the phases are the journal read (``sync``), the
juge-arbitre's keys (``touches``), the room window (``salle``), the console (``console``)
and the rest (``autre``: chrono, voice, effects).
"""

from __future__ import annotations

import statistics
import time

PHASES = ("sync", "touches", "salle", "console")
FPS = 30


class FrameTimer:
    def __init__(self, machine, room, console) -> None:
        self.machine = machine
        self.frames: list[tuple[float, dict[str, float], str]] = []  # work, phases, step
        self.marks: list[float] = []  # when each frame began
        self._now: dict[str, float] = {}
        pump = room.pump_events

        def begin(*args):
            self._now = {"debut": time.perf_counter()}
            self.marks.append(time.monotonic())
            return pump(*args)

        room.pump_events = begin
        machine.session.sync = self._timed("sync", machine.session.sync)
        machine.key = self._timed("touches", machine.key)
        room.show = self._timed("salle", room.show)
        console.show = self._timed("console", console.show, last=True)

    def _timed(self, phase: str, fn, last: bool = False):
        def wrapper(*args, **kwargs):
            t0 = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                end = time.perf_counter()
                now = self._now
                now[phase] = now.get(phase, 0.0) + end - t0
                if last and "debut" in now:
                    self.frames.append((end - now["debut"], dict(now), self.machine.step))
        return wrapper

    def fps(self) -> float:
        span = self.marks[-1] - self.marks[0] if len(self.marks) > 1 else 0.0
        return (len(self.marks) - 1) / span if span else 0.0

    def lines(self, name: str) -> list[str]:
        """The frame rate, the slow frames and where their time went, in French."""
        work = sorted(f[0] for f in self.frames)
        slow = [f for f in self.frames if f[0] > 1 / FPS]
        span = self.marks[-1] - self.marks[0] if len(self.marks) > 1 else 0.0
        windows = [sum(1 for m in self.marks if s <= m < s + 1.0)
                   for s in [self.marks[0] + k for k in range(int(span))]] if span else []
        p99 = work[min(len(work) - 1, int(len(work) * 0.99))] if work else 0.0
        out = [f"{name} : {self.fps():.1f} images/s ({len(self.marks)} images en {span:.0f} s, "
               f"pire seconde {min(windows or [0])} images), travail par image médiane "
               f"{statistics.median(work or [0]) * 1000:.1f} ms, 99e centile {p99 * 1000:.0f} ms, "
               f"plus longue {max(work or [0]) * 1000:.0f} ms ; {len(slow)} image(s) de plus "
               "de 33 ms"]
        if slow:
            causes: dict[str, list[float]] = {}
            for total, phases, step in slow:
                phases = {p: phases.get(p, 0.0) for p in PHASES}
                phases["autre"] = total - sum(phases.values())
                phase = max(phases, key=phases.get)
                causes.setdefault(f"{phase} ({step})", []).append(phases[phase])
            out.append("    images lentes : " + ", ".join(
                f"{cause} ×{len(v)} (max {max(v) * 1000:.0f} ms)"
                for cause, v in sorted(causes.items(), key=lambda kv: -len(kv[1]))[:6]))
        return out


class SilentVoice:
    """The voice, muted: the benches measure frames and throughput, not speech."""

    busy = False
    error = None

    def say(self, text: str, coup: int = 0) -> None:
        pass

    call = say
