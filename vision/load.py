"""Stage 1: photo bytes or path → upright BGR array, EXIF orientation honoured, ≤ 20 MP.

Pillow decodes (EXIF, JPEG draft mode makes a 100 MP photo cheap to shrink);
OpenCV is the fallback for what Pillow refuses. Every failure becomes a
``VisionError`` with a status, never a raw exception.
"""

from __future__ import annotations

import io
import math
import warnings
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps

from .status import ILLISIBLE, VisionError

MAX_PIXELS = 20_000_000
MIN_SIDE = 200
HARD_LIMIT = 400_000_000  # refuse to even try above this (decompression bombs)


def _read_bytes(source: str | Path | bytes) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    try:
        return Path(source).read_bytes()
    except OSError as exc:
        raise VisionError(ILLISIBLE, f"fichier illisible : {exc.strerror or exc}") from exc


def _pillow(data: bytes) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = Image.MAX_IMAGE_PIXELS
        Image.MAX_IMAGE_PIXELS = HARD_LIMIT
        try:
            img = Image.open(io.BytesIO(data))
            w, h = img.size
            if w * h > HARD_LIMIT:
                raise VisionError(ILLISIBLE, f"image démesurée ({w}×{h})")
            if w * h > MAX_PIXELS and img.format == "JPEG":
                k = math.ceil(math.sqrt(w * h / MAX_PIXELS))
                img.draft("RGB", (w // k, h // k))
            img = ImageOps.exif_transpose(img)
            img.load()
        finally:
            Image.MAX_IMAGE_PIXELS = old
        if img.mode not in ("RGB", "L"):
            img = img.convert("RGB")
        arr = np.asarray(img)
    if arr.ndim == 2:
        return cv2.cvtColor(arr, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(arr, cv2.COLOR_RGB2BGR)


def load_image(source: str | Path | bytes) -> np.ndarray:
    """Decode a photo; raise ``VisionError(ILLISIBLE)`` for anything that is not a usable image."""
    data = _read_bytes(source)
    if not data:
        raise VisionError(ILLISIBLE, "fichier vide")
    if len(data) < 16:
        raise VisionError(ILLISIBLE, "ce fichier n'est pas une photo")
    try:
        img = _pillow(data)
    except VisionError:
        raise
    except Exception as exc:  # noqa: BLE001 - Pillow raises many types for bad files
        decoded = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if decoded is None:
            raise VisionError(ILLISIBLE, f"pas une image lisible ({type(exc).__name__})") from exc
        img = decoded
    h, w = img.shape[:2]
    if min(h, w) < MIN_SIDE:
        raise VisionError(ILLISIBLE, f"image trop petite ({w}×{h})")
    if h * w > MAX_PIXELS:
        k = math.sqrt(MAX_PIXELS / (h * w))
        img = cv2.resize(img, (int(w * k), int(h * k)), interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(img)
