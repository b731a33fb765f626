"""Render one text to a checked WAV: pyttsx3, validated and retried, else espeak-ng.

Runs in the process that owns pyttsx3 (the worker, or the command line).
pyttsx3 2.99 queues property changes until ``runAndWait()``, may return from
``runAndWait()`` before the WAV is written, keeps only the last of two
``save_to_file`` calls, and now and then writes an empty file or forgets the
rate. So: one ``save_to_file`` per ``runAndWait()``, properties set in the
same batch, then poll the file until it passes :func:`speech.wavcheck.problem`.

The rate is also pinned inside the text with espeak's embedded command
``\x01<rate>S``: in about one fresh process in four, pyttsx3's rate property
never reached espeak (the voice spoke at the driver's initial 200 words a
minute on every retry); the embedded command applies to that utterance whatever
state the property queue is in.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from . import espeak, quiet, wavcheck

PYTTSX3 = "pyttsx3"
#: espeak-ng embedded command (ctrl-A, value, S): speaking rate for this utterance
EMBEDDED_RATE = "\x01{}S "
ESPEAK_CLI = "espeak-ng"


@dataclass
class RenderResult:
    path: str
    engine: str  # PYTTSX3 or ESPEAK_CLI
    attempts: int  # pyttsx3 attempts made (0 when it was not tried)
    seconds: float  # wall time of the rendering
    duration: float  # audio length
    error: str | None = None  # why pyttsx3 was not used for this text, in French


class Renderer:
    """Owns one pyttsx3 engine; falls back to the espeak-ng command line."""

    def __init__(self, use_pyttsx3: bool = True, attempts: int = 3,
                 give_up_after: int = 3) -> None:
        self.attempts = attempts
        self.give_up_after = give_up_after  # failed texts in a row before dropping pyttsx3
        self.failures_in_row = 0
        self.engine = None
        self.disabled_reason: str | None = None
        if use_pyttsx3:
            try:
                import pyttsx3

                with quiet.stdout_silenced():
                    self.engine = pyttsx3.init("espeak")
                quiet.mute_driver_prints()  # « Audio saved to … », from espeak's callback
            except Exception as exc:  # no libespeak, broken install…
                self.disabled_reason = f"pyttsx3 indisponible : {exc}"
        else:
            self.disabled_reason = "pyttsx3 désactivé"

    @property
    def engine_name(self) -> str:
        return PYTTSX3 if self.engine is not None else ESPEAK_CLI

    def _pyttsx3_once(self, text: str, tmp: Path, voice: str, rate: int,
                      reference: float | None) -> str | None:
        tmp.unlink(missing_ok=True)
        engine = self.engine
        engine.setProperty("voice", voice)
        engine.setProperty("rate", int(rate))
        engine.setProperty("volume", 1.0)  # volume is applied at playback
        with quiet.stdout_silenced():  # anything the C library writes while it renders
            engine.save_to_file(f"{EMBEDDED_RATE.format(int(rate))}{text}", str(tmp))
            engine.runAndWait()
        # runAndWait may return before the file is written: wait for it (espeak renders
        # ~100 times faster than real time). The driver writes the file in one go, so a
        # file that is there but bad (empty: ~1 in 150 back to back) stays bad.
        deadline = time.monotonic() + 0.3 + 0.05 * (reference or 3.0)
        while not tmp.exists() and time.monotonic() < deadline:
            time.sleep(0.003)
        problem = wavcheck.problem(tmp, text, rate, reference)
        if problem is not None and tmp.exists():
            time.sleep(0.03)  # caught between the header and the samples: one more look
            problem = wavcheck.problem(tmp, text, rate, reference)
        return problem

    def render(self, text: str, path: str | Path, voice: str = "roa/fr",
               rate: int = 150) -> RenderResult:
        """Write ``text`` to ``path`` (atomically) and say which engine made it."""
        start = time.perf_counter()
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        reference = None
        if espeak.available():
            try:
                reference = espeak.reference_span(text, voice, rate)
            except Exception:
                reference = None
        error = self.disabled_reason
        attempts = 0
        if self.engine is not None:
            tmp = path.with_name(path.name + ".pyttsx3.tmp")
            problems = []
            for attempts in range(1, self.attempts + 1):
                try:
                    problem = self._pyttsx3_once(text, tmp, voice, rate, reference)
                except Exception as exc:
                    problem = f"erreur pyttsx3 : {exc}"
                if problem is None:
                    wavcheck.trim_leading_silence(tmp)
                    tmp.replace(path)
                    self.failures_in_row = 0
                    return RenderResult(str(path), PYTTSX3, attempts,
                                        time.perf_counter() - start,
                                        wavcheck.read_info(path).duration)
                problems.append(problem)
            tmp.unlink(missing_ok=True)
            self.failures_in_row += 1
            error = f"pyttsx3 a échoué {attempts} fois ({'; '.join(problems)})"
            if self.failures_in_row >= self.give_up_after:
                self.engine = None
                self.disabled_reason = (f"pyttsx3 abandonné après {self.failures_in_row} "
                                        "échecs de suite : espeak-ng en ligne de commande")
                error = self.disabled_reason
        espeak.render(text, path, voice, rate)
        problem = wavcheck.problem(path, text, rate, reference)
        if problem is not None:
            raise RuntimeError(f"synthèse impossible : {problem}")
        wavcheck.trim_leading_silence(path)
        return RenderResult(str(path), ESPEAK_CLI, attempts, time.perf_counter() - start,
                            wavcheck.read_info(path).duration, error)
