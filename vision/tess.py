"""Tesseract as a second opinion on single glyphs (psm 10, whitelist), never the main reader.

Issue 6 measured it: on hand-printed capitals Tesseract is right ~75–87 % of
the time once glyphs are size-normalised and box lines removed, and poor on
digits, at ~100 ms a call. So it is only asked about the few cells our
classifier is unsure of, and its answer only raises that alternative's weight.
"""

from __future__ import annotations

import shutil

import cv2
import numpy as np

from .features import normalise
from .recognise import ALLOWED, CharReading

BOOST = 3.0


def available() -> bool:
    return shutil.which("tesseract") is not None


def tesseract_char(ink: np.ndarray, whitelist: str) -> tuple[str | None, float]:
    """Read one glyph: black on white, 28 px high, white margin. Returns (char, confidence 0–1)."""
    import pytesseract

    img = 255 - normalise(ink)
    img = cv2.resize(img, (64, 64), interpolation=cv2.INTER_CUBIC)
    img = cv2.copyMakeBorder(img, 24, 24, 24, 24, cv2.BORDER_CONSTANT, value=255)
    config = f"--psm 10 --oem 1 -c tessedit_char_whitelist={whitelist}"
    try:
        data = pytesseract.image_to_data(
            img, config=config, output_type=pytesseract.Output.DICT, timeout=5
        )
    except (RuntimeError, pytesseract.TesseractError, OSError):
        return None, 0.0
    best, conf = None, 0.0
    for text, c in zip(data.get("text", []), data.get("conf", []), strict=False):
        text = (text or "").strip()
        if text and float(c) > conf:
            best, conf = text[0], float(c) / 100
    return best, conf


def second_opinion(
    readings: list[CharReading], crops: dict, below: float = 0.8, budget: int = 4
) -> int:
    """Ask Tesseract about the least sure cells (at most ``budget``); returns the calls made."""
    unsure = sorted((r for r in readings if r.confidence < below), key=lambda r: r.confidence)[
        :budget
    ]
    calls = 0
    for r in unsure:
        glyph = crops.get(r.key)
        if glyph is None:
            continue
        allowed = ALLOWED[glyph.field].replace("#", "")
        ch, conf = tesseract_char(glyph.image, allowed)
        calls += 1
        if ch and ch in r.probs and conf > 0.5:
            r.probs[ch] *= BOOST
            total = sum(r.probs.values())
            for k in r.probs:
                r.probs[k] /= total
    return calls
