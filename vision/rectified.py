"""The rectified bulletin as the arbiter sees it: the page stage's image and where each box is.

The correction station shows the photo beside what was read; it needs the
page straightened (stage 2, :func:`vision.page.find_page`) and the rectangle
of every box, named as the reader names its cells (``grid:1:4``, ``ref:0``),
to outline the doubtful ones. Nothing is read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .layout import Box, Layout
from .load import load_image
from .page import find_page, find_pages
from .status import NON_TROUVE, VisionError


@dataclass
class Rectified:
    """The straightened page (BGR) and every box as ``(x, y, w, h)`` fractions of it."""

    image: np.ndarray
    method: str  # "marqueurs", "contour" or "motifs" (found by its printed matter)
    boxes: dict[str, Box]


def layout_boxes(layout: Layout) -> dict[str, Box]:
    """Cell keys as the reader writes them, plus ``field:NAME``, ``field:grid``, ``row:N``."""
    boxes: dict[str, Box] = {"field:grid": layout.grid_box}
    for r, row in enumerate(layout.grid_cells()):
        for c, box in enumerate(row):
            boxes[f"grid:{r}:{c}"] = box
        x, _, w, _ = layout.grid_box
        boxes[f"row:{r}"] = (x, row[0][1], w, row[0][3])
    for name in layout.data["fields"]:
        boxes[f"field:{name}"] = layout.field_box(name)
        for i, box in enumerate(layout.comb_cells(name)):
            boxes[f"{name}:{i}"] = box
    return boxes


def rectify(source: str | Path | bytes | np.ndarray, layout: Layout | None = None,
            sheet: int | None = None) -> Rectified:
    """Straighten one photo (``sheet``: bulletin number ``sheet``, from 1 in reading order, of
    a photo of several); raises :class:`vision.status.VisionError` (French) when it cannot."""
    layout = layout or Layout.load()
    img = source if isinstance(source, np.ndarray) else load_image(source)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    if sheet is None:
        page = find_page(img, layout)
    else:
        found = find_pages(img, layout)
        if not 1 <= sheet <= len(found):
            raise VisionError(NON_TROUVE, f"bulletin n° {sheet} absent de la photo")
        page = found[sheet - 1]
        if isinstance(page, VisionError):
            raise page
    return Rectified(page.image, page.method, layout_boxes(layout))
