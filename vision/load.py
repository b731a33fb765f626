"""Stage 1: photo bytes or path → upright BGR array, EXIF orientation honoured, ≤ 20 MP.

A phone's JPEG (RGB or grey, complete) is decoded by OpenCV's libjpeg straight to BGR, at
1/2 of its size for a 12 MP photo and 1/8 for a 100 MP one (at the reduction Pillow's draft
mode would make: a side of odd length keeps it whole), then turned upright by its EXIF
orientation; Pillow reads the header and decodes everything else (its draft mode gives the
same pixels, but slower). OpenCV is also the fallback for what Pillow refuses.
Every failure becomes a ``VisionError`` with a status, never a raw exception.
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


#: OpenCV's reduced JPEG decoding per scale; the same libjpeg DCT scaling as Pillow's draft
#: mode, byte for byte (tests/test_vision_load.py): ``load_image`` takes 35 ms instead of 47
#: for a 12 MP photo on one core, without Pillow's copy and its RGB→BGR conversion
_CV_JPEG_SCALE = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
                  4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}

#: EXIF orientation → how the stored pixels are turned upright (Pillow's ``exif_transpose``)
_UPRIGHT = {
    2: lambda a: a[:, ::-1],
    3: lambda a: a[::-1, ::-1],
    4: lambda a: a[::-1],
    5: lambda a: a.transpose(1, 0, 2),
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    7: lambda a: a.transpose(1, 0, 2)[::-1, ::-1],
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
}


def _opencv_jpeg(data: bytes, scale: int, orientation: int) -> np.ndarray | None:
    """A complete JPEG decoded by OpenCV at 1/``scale`` and turned upright; None when OpenCV
    cannot (Pillow then decodes it, and says why it is unreadable)."""
    if not data[-4096:].rstrip(b"\0").endswith(b"\xff\xd9"):  # truncated, or data after
        return None  # the image (a motion photo's video): Pillow's way, as before
    flags = _CV_JPEG_SCALE[scale] | cv2.IMREAD_IGNORE_ORIENTATION
    try:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    except cv2.error:
        return None
    if img is None:
        return None
    return _UPRIGHT.get(orientation, lambda a: a)(img)


def _draft_reduction(w: int, h: int, k: int) -> int:
    """The reduction Pillow's draft mode makes of a request for 1/``k`` of a ``w``×``h`` JPEG:
    the largest of 8, 4, 2, 1 within both sides' whole ratio to the size asked (a side of
    odd length stays whole at 1/2: 4035 px is not twice 2018). OpenCV decodes at the same,
    so that a photo reads the same whichever decodes it."""
    ratio = min(w // math.ceil(w / k), h // math.ceil(h / k))
    return next(s for s in (8, 4, 2, 1) if ratio >= s)


def _decode(data: bytes) -> np.ndarray:
    """The photo as a BGR array: OpenCV for a phone's JPEG, Pillow otherwise."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        old = Image.MAX_IMAGE_PIXELS
        Image.MAX_IMAGE_PIXELS = HARD_LIMIT
        try:
            img = Image.open(io.BytesIO(data))
            w, h = img.size
            if w * h > HARD_LIMIT:
                raise VisionError(ILLISIBLE, f"image démesurée ({w}×{h})")
            orientation = img.getexif().get(EXIF_ORIENTATION, 1)
            if img.format == "JPEG":
                k = _draft_scale(w, h)
                if img.mode in ("RGB", "L"):
                    fast = _opencv_jpeg(data, _draft_reduction(w, h, k), orientation)
                    if fast is not None:
                        return np.ascontiguousarray(fast)
                if k > 1:  # decoded at 1/k straight from the JPEG: 4× faster per halving
                    img.draft("RGB", (math.ceil(w / k), math.ceil(h / k)))
            if orientation != 1:
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
        img = _decode(data)
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
