"""The espeak-ng command line: the fallback synthesiser, the duration reference, phonemes.

pyttsx3 drives the same library, so the command line gives the exact length a
correct rendering of a text must have at a given rate.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

BINARY = "espeak-ng"
TIMEOUT = 10.0


def available() -> bool:
    return shutil.which(BINARY) is not None


def _voice_arg(voice: str) -> str:
    # pyttsx3 names voices by identifier ("roa/fr"); the command line wants "fr".
    return voice.rsplit("/", 1)[-1] or "fr"


def render(text: str, path: str | Path, voice: str = "fr", rate: int = 150) -> Path:
    """Write ``text`` to a 22 050 Hz mono WAV with the command line; raise on failure."""
    path = Path(path)
    tmp = path.with_name(path.name + ".cli.tmp")
    result = subprocess.run(
        [BINARY, "-v", _voice_arg(voice), "-s", str(int(rate)), "-w", str(tmp), "--", text],
        capture_output=True, timeout=TIMEOUT, check=False,
    )
    if result.returncode != 0 or not tmp.exists():
        tmp.unlink(missing_ok=True)
        raise RuntimeError(f"espeak-ng a échoué ({result.returncode}) : "
                           f"{result.stderr.decode(errors='replace').strip()[:200]}")
    tmp.replace(path)
    return path


def reference_span(text: str, voice: str = "fr", rate: int = 150) -> float:
    """Seconds of voice espeak-ng produces for ``text`` (rendered in memory, padding excluded)."""
    result = subprocess.run(
        [BINARY, "-v", _voice_arg(voice), "-s", str(int(rate)), "--stdout", "--", text],
        capture_output=True, timeout=TIMEOUT, check=True,
    )
    import numpy as np

    from .wavcheck import voiced_span

    data = result.stdout[44:]  # 44-byte RIFF header, then 16-bit mono samples at 22 050 Hz
    return voiced_span(np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2"), 22050)


def phonemes(text: str, voice: str = "fr") -> str:
    """espeak-ng's phoneme mnemonics for ``text`` (``-q -x``), lines joined by spaces."""
    result = subprocess.run(
        [BINARY, "-q", "-x", "-v", _voice_arg(voice), "--", text],
        capture_output=True, timeout=TIMEOUT, check=True,
    )
    return " ".join(result.stdout.decode("utf-8", errors="replace").split())
