"""Glyph normalisation and features: size-normalised 32×32 ink image → HOG + coarse pixels.

Normalising the size before any recogniser matters more than the recogniser
(issue 6 measured it for Tesseract); the same function feeds training and
reading so both see identical inputs.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SIDE = 32
BOX = 24


@lru_cache(maxsize=1)
def _hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((SIDE, SIDE), (16, 16), (8, 8), (8, 8), 9)


def normalise(ink: np.ndarray) -> np.ndarray:
    """Ink crop (float, 1 = ink) → 32×32 uint8, longest side 24 px, centred, contrast stretched."""
    h, w = ink.shape[:2]
    out = np.zeros((SIDE, SIDE), np.float32)
    if h == 0 or w == 0:
        return out.astype(np.uint8)
    scale = BOX / max(h, w)
    nh, nw = max(1, round(h * scale)), max(1, round(w * scale))
    small = cv2.resize(ink.astype(np.float32), (nw, nh), interpolation=cv2.INTER_AREA)
    y, x = (SIDE - nh) // 2, (SIDE - nw) // 2
    out[y : y + nh, x : x + nw] = small
    peak = float(np.percentile(out[out > 0], 95)) if np.any(out > 0) else 1.0
    return np.clip(out / max(peak, 1e-3) * 255, 0, 255).astype(np.uint8)


def glyph_features(ink: np.ndarray) -> np.ndarray:
    """Feature vector of one glyph crop for the character classifier."""
    img = normalise(ink)
    hog = _hog().compute(img).ravel()
    coarse = cv2.resize(img, (8, 8), interpolation=cv2.INTER_AREA).ravel().astype(np.float32) / 255
    h, w = ink.shape[:2]
    aspect = np.array([np.log((w + 1) / (h + 1))], np.float32)
    return np.concatenate([hog, coarse, aspect]).astype(np.float32)


def window_features(window: np.ndarray) -> np.ndarray:
    """Features of the fixed window around a cell, for the circled/not-circled decision."""
    img = cv2.resize(window.astype(np.float32), (SIDE, SIDE), interpolation=cv2.INTER_AREA)
    img = np.clip(img / max(float(img.max()), 1e-3) * 255, 0, 255).astype(np.uint8)
    hog = _hog().compute(img).ravel()
    # ink in the outer ring vs the centre: a circle puts ink all round the edge
    yy, xx = np.mgrid[0:SIDE, 0:SIDE]
    r = np.hypot(yy - SIDE / 2 + 0.5, xx - SIDE / 2 + 0.5) / (SIDE / 2)
    f = img.astype(np.float32) / 255
    rings = [
        float(f[(r >= a) & (r < b)].mean())
        for a, b in ((0, 0.3), (0.3, 0.5), (0.5, 0.7), (0.7, 0.9), (0.9, 1.2))
    ]
    ang = np.arctan2(yy - SIDE / 2, xx - SIDE / 2)
    sectors = [
        float(f[(r > 0.55) & (r < 1.1) & (ang >= a) & (ang < a + np.pi / 4)].mean())
        for a in np.linspace(-np.pi, np.pi, 9)[:-1]
    ]
    return np.concatenate([hog, rings, sectors, [min(sectors)]]).astype(np.float32)
