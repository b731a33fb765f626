"""Personalised bulletins: the table number (and optionally the coup) printed in clear and
in a machine-readable code the reader decodes exactly.

The code is a row of ArUco markers from another dictionary than the page's corner
markers (5×5 bits against 4×4, so neither is taken for the other), drawn with
``cv2.aruco`` — no new dependency: the first marker's id is the table, the last one's
(when printed) the coup, and the middle one a check of both. A misread marker gives a
check that does not match, and the code is then ignored (the handwritten table box is
read as on the generic form); a code whose check matches is exact.

The layout file says where everything goes (``personal`` in ``layouts/fd1.json``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .layout import Layout, to_px

MAX_NUMBER = 999  # ids of the 5×5 dictionary: 0–999


@dataclass(frozen=True)
class PrintedCode:
    """What the code of a personalised bulletin says."""

    table: int
    coup: int | None = None


def check(table: int, coup: int | None) -> int:
    """The check marker's id for (table, coup): changing either changes it."""
    return (table * 389 + (coup or 0) * 151 + 17) % 1000


def marker_ids(table: int, coup: int | None = None) -> dict[str, int]:
    """Role → marker id (``table``, ``check`` and, with a coup, ``coup``)."""
    if not 1 <= table <= MAX_NUMBER:
        raise ValueError(f"numéro de table hors limites (1 à {MAX_NUMBER}) : {table}")
    if coup is not None and not 1 <= coup <= MAX_NUMBER:
        raise ValueError(f"numéro de coup hors limites (1 à {MAX_NUMBER}) : {coup}")
    ids = {"table": table, "check": check(table, coup)}
    if coup is not None:
        ids["coup"] = coup
    return ids


def _spec(layout: Layout) -> dict | None:
    return layout.data.get("personal")


@lru_cache(maxsize=4)
def _dictionary(name: str) -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def draw_code(
    img: np.ndarray, layout: Layout, px_per_mm: float, table: int, coup: int | None = None
) -> list[tuple[str, tuple[float, float], float, bool]]:
    """Draw the code's markers on the page ``img`` (grey, white paper) in place.

    Returns the texts to print (text, top-left px, height px, bold) — drawn by the
    template renderer with its fonts."""
    spec = _spec(layout)
    if spec is None:
        raise ValueError(f"le modèle {layout.name} n'a pas de bulletins personnalisés")
    size = (img.shape[1], img.shape[0])
    dictionary = _dictionary(spec["dictionary"])
    for role, marker_id in marker_ids(table, coup).items():
        x0, y0, x1, y1 = to_px(spec["markers"][role], size)
        side = min(x1 - x0, y1 - y0)
        img[y0 : y0 + side, x0 : x0 + side] = cv2.aruco.generateImageMarker(
            dictionary, marker_id, side
        )
    texts = []
    x0, y0, _, y1 = to_px(spec["number_box"], size)
    texts.append((f"TABLE {table}", (x0, y0), (y1 - y0) * 0.8, True))
    if coup is not None:
        x0, y0, _, y1 = to_px(spec["coup_box"], size)
        texts.append((f"coup {coup}", (x0, y0), (y1 - y0) * 0.8, False))
    return texts


#: the share of each bit's cell left out at its edges when the bits are read: OpenCV's
#: default, then, for a code the first reading misses, only each cell's middle (a tilted,
#: blurred photo smears the bits into their neighbours: seed 516, `cumul`, the table's
#: marker rejected, read at 0.3). The check marker still has to agree with what is read.
BIT_MARGINS = (0.13, 0.3)


@lru_cache(maxsize=8)
def _detector(name: str, margin: float) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.adaptiveThreshWinSizeMax = 33
    params.perspectiveRemoveIgnoredMarginPerCell = margin
    return cv2.aruco.ArucoDetector(_dictionary(name), params)


def read_code(page: np.ndarray, layout: Layout) -> PrintedCode | None:
    """The code of a rectified bulletin (canonical frame), or ``None``: not a personalised
    bulletin, or a code that cannot be read with certainty."""
    spec = _spec(layout)
    if spec is None:
        return None
    band = _Band.of(page, spec)
    for margin in BIT_MARGINS:
        found = _markers_found(_detector(spec["dictionary"], margin), band)
        if any(len(ids) > 1 for ids in found.values()):
            return None  # two different markers where one is printed: no second try
        code = _code_of(found)
        if code is not None:
            return code
    return None


@dataclass(frozen=True)
class _Band:
    """The strip of a rectified page that holds the code's markers (grey), where each
    marker is printed in it, and the markers' side (pixels)."""

    gray: np.ndarray
    boxes: dict[str, tuple[int, int, int, int]]
    side: int
    origin: tuple[int, int]

    @classmethod
    def of(cls, page: np.ndarray, spec: dict) -> _Band:
        size = (page.shape[1], page.shape[0])
        boxes = {role: to_px(box, size) for role, box in spec["markers"].items()}
        side = max(b[2] - b[0] for b in boxes.values())
        x0 = max(min(b[0] for b in boxes.values()) - side, 0)
        y0 = max(min(b[1] for b in boxes.values()) - side // 2, 0)
        x1 = min(max(b[2] for b in boxes.values()) + side, size[0])
        y1 = min(max(b[3] for b in boxes.values()) + side // 2, size[1])
        crop = page[y0:y1, x0:x1]
        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
        return cls(gray, boxes, side, (x0, y0))


def _markers_found(detector: cv2.aruco.ArucoDetector, band: _Band) -> dict[str, set[int]]:
    """The marker ids ``detector`` reads in ``band``, by the printed place (role) each lies at."""
    (x0, y0), boxes, side = band.origin, band.boxes, band.side
    corners, ids, _ = detector.detectMarkers(band.gray)
    found: dict[str, set[int]] = {}
    if ids is None:
        return found
    for c, marker_id in zip(corners, ids.ravel(), strict=True):
        cx, cy = c.reshape(4, 2).mean(0) + (x0, y0)
        role = min(
            boxes,
            key=lambda r: (cx - (boxes[r][0] + boxes[r][2]) / 2) ** 2
            + (cy - (boxes[r][1] + boxes[r][3]) / 2) ** 2,
        )
        bx0, by0, bx1, by1 = boxes[role]
        if bx0 - side / 2 <= cx <= bx1 + side / 2 and by0 - side / 2 <= cy <= by1 + side / 2:
            found.setdefault(role, set()).add(int(marker_id))
    return found


def _code_of(found: dict[str, set[int]]) -> PrintedCode | None:
    """The code one marker per place gives, where the check marker agrees with it."""
    table, mark, coup = (next(iter(found.get(role, ())), None) for role in ("table", "check", "coup"))
    if table is None or mark is None or not 1 <= table <= MAX_NUMBER:
        return None
    if coup is not None and not 1 <= coup <= MAX_NUMBER:
        coup = None
    return PrintedCode(table, coup) if mark == check(table, coup) else None
