"""Stage 1: photo bytes or path → upright BGR array, EXIF orientation honoured, ≤ 20 MP.

Pillow decodes (EXIF; JPEG draft mode decodes a 12 MP photo at half size, a 100 MP one
at an eighth, for a fraction of the cost);
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
#: a phone photo is decoded at 1/2, 1/4 or 1/8 of its size as long as its long side keeps
#: this many pixels: a bulletin filling half of it still has more pixels than the reader's
#: canonical page (1184 px wide), and a 12-megapixel photo is read 4× faster
DECODE_SIDE = 2000
EXIF_ORIENTATION = 0x0112
MIN_SIDE = 200
HARD_LIMIT = 400_000_000  # refuse to even try above this (decompression bombs)


#: above this many pixels only a JPEG is decoded (in draft mode, at a fraction of its size)
FULL_DECODE_LIMIT = 60_000_000


def _read_bytes(source: str | Path | bytes) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    from engine.files import LIMITS, FileRefused, read_bytes

    try:
        return read_bytes(source, "photo", LIMITS["photo"])
    except FileRefused as exc:
        raise VisionError(ILLISIBLE, str(exc)) from exc


def _header(data: bytes) -> tuple[int, int, str]:
    """(width, height, format) from the image's header alone, before any decoding.

    A 1 MB PNG can declare 30000×30000 pixels (2.7 GB once decoded): the size is
    checked here, so that neither Pillow nor OpenCV ever decodes such a file.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = Image.MAX_IMAGE_PIXELS
        Image.MAX_IMAGE_PIXELS = None  # only the header is read here
        try:
            with Image.open(io.BytesIO(data)) as img:
                w, h = img.size
                fmt = img.format or ""
        except Exception as exc:  # noqa: BLE001 - Pillow raises many types for bad files
            raise VisionError(ILLISIBLE, "ce fichier n'est pas une photo lisible "
                                         "(format d'image non reconnu)") from exc
        finally:
            Image.MAX_IMAGE_PIXELS = old
    limit = HARD_LIMIT if fmt == "JPEG" else FULL_DECODE_LIMIT
    if w <= 0 or h <= 0 or w * h > limit:
        raise VisionError(ILLISIBLE, f"image démesurée ({w}×{h} pixels) : refusée sans être "
                                     "décodée")
    return w, h, fmt


def _draft_scale(w: int, h: int) -> int:
    """The JPEG reduction (1, 2, 4 or 8) keeping ``DECODE_SIDE`` pixels on the long side,
    and at least enough to bring the photo under ``MAX_PIXELS``."""
    k = 1
    while k < 8 and max(w, h) / (2 * k) >= DECODE_SIDE:
        k *= 2
    while k < 8 and w * h / (k * k) > MAX_PIXELS:
        k *= 2
    return k


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
            if img.format == "JPEG":
                k = _draft_scale(w, h)
                if k > 1:  # decoded at 1/k straight from the JPEG: 4× faster per halving
                    img.draft("RGB", (math.ceil(w / k), math.ceil(h / k)))
            if img.getexif().get(EXIF_ORIENTATION, 1) != 1:
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
    _header(data)  # the declared size, before Pillow or OpenCV decode anything
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
