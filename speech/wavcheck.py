"""Is a WAV file a usable rendering of a text? Header, samples, loudness, length.

pyttsx3 sometimes leaves an empty file, a file not yet written, or a
rendering at the wrong rate; every file is checked before anyone plays it.
"""

from __future__ import annotations

import re
import wave
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: Below this RMS (16-bit full scale = 32767) a rendering counts as silent.
MIN_RMS = 300.0
#: A sample louder than this is voice; before the first and after the last is padding.
VOICE_LEVEL = 200


def voiced_span(samples: np.ndarray, rate: int) -> float:
    """Seconds from the first to the last loud sample: the length of what is said.

    pyttsx3 and the command line pad the end differently (up to 0.1 s), so
    lengths are compared on this span rather than on the whole file.
    """
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > VOICE_LEVEL)
    return float(loud[-1] - loud[0]) / rate if loud.size else 0.0


@dataclass(frozen=True)
class WavInfo:
    frames: int
    rate: int
    channels: int
    sample_width: int
    rms: float
    voiced: float  # seconds between the first and last loud samples

    @property
    def duration(self) -> float:
        return self.frames / self.rate if self.rate else 0.0


def read_info(path: str | Path) -> WavInfo:
    """Parse the header and measure RMS; raise ``ValueError`` (French) if unreadable."""
    try:
        with wave.open(str(path), "rb") as w:
            frames, rate = w.getnframes(), w.getframerate()
            channels, width = w.getnchannels(), w.getsampwidth()
            data = w.readframes(frames)
    except (OSError, EOFError, wave.Error) as exc:
        raise ValueError(f"fichier WAV illisible : {exc}") from exc
    rms, voiced = 0.0, 0.0
    if width == 2 and data:
        samples = np.frombuffer(data[: len(data) - len(data) % 2], dtype="<i2")
        if samples.size:
            rms = float(np.sqrt(np.mean(samples.astype(np.float64) ** 2)))
            voiced = voiced_span(samples, rate)
    return WavInfo(frames, rate, channels, width, rms, voiced)


def estimated_range(text: str, rate: int) -> tuple[float, float]:
    """A generous (min, max) duration in seconds for ``text`` spoken at ``rate`` words/minute.

    Measured on espeak-ng's French voice: about 11 characters a second at 150
    words a minute, plus a pause at each punctuation mark.
    """
    chars = len(re.sub(r"\s+", " ", text.strip()))
    pauses = len(re.findall(r"[,.;:!?]", text))
    chars_per_second = 11.0 * rate / 150.0
    expected = chars / chars_per_second + 0.25 * pauses + 0.2
    return 0.35 * expected, 2.5 * expected + 0.5


def problem(path: str | Path, text: str, rate: int,
            reference: float | None = None) -> str | None:
    """Why the file at ``path`` is not a good rendering of ``text``, or ``None`` if it is.

    ``reference`` is the voiced span the command line gives for the same
    text and rate; with it, a lost rate setting or a cut rendering is caught.
    """
    path = Path(path)
    if not path.exists():
        return "fichier absent"
    if path.stat().st_size <= 44:
        return "fichier vide"
    try:
        info = read_info(path)
    except ValueError as exc:
        return str(exc)
    if info.channels != 1 or info.sample_width != 2 or info.rate < 8000:
        return (f"format inattendu ({info.channels} canaux, {info.sample_width * 8} bits, "
                f"{info.rate} Hz)")
    if info.frames == 0:
        return "aucun échantillon"
    if info.rms < MIN_RMS:
        return f"enregistrement silencieux (RMS {info.rms:.0f})"
    low, high = estimated_range(text, rate)
    if not low <= info.duration <= high:
        return f"durée invraisemblable : {info.duration:.2f} s (attendu {low:.2f} à {high:.2f} s)"
    if reference is not None and reference > 0:
        tolerance = max(0.05, 0.05 * reference)
        if abs(info.voiced - reference) > tolerance:
            return (f"parole de {info.voiced:.2f} s au lieu de {reference:.2f} s "
                    "(débit perdu ou rendu tronqué)")
    return None


def trim_leading_silence(path: str | Path, keep: float = 0.01) -> float:
    """Cut the silence espeak-ng puts before the voice (45–55 ms), keeping ``keep`` seconds.

    A call must be heard within 100 ms of the key press; that silence was half
    of it. Returns the seconds removed.
    """
    path = Path(path)
    with wave.open(str(path), "rb") as w:
        params = w.getparams()
        data = w.readframes(w.getnframes())
    if params.sampwidth != 2 or params.nchannels != 1:
        return 0.0
    samples = np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2")
    loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > VOICE_LEVEL)
    cut = int(loud[0]) - int(keep * params.framerate) if loud.size else 0
    if cut <= 0:
        return 0.0
    tmp = path.with_name(path.name + ".trim.tmp")
    with wave.open(str(tmp), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(params.framerate)
        w.writeframes(samples[cut:].tobytes())
    tmp.replace(path)
    return cut / params.framerate
