"""``python -m vision calibrer PHOTO_VIERGE``: measure another bulletin model from a blank one.

The page is found as the largest quadrilateral and rectified; the printed
boxes are the closed regions of the line drawing. The squared area is the
largest family of equal cells aligned in rows; the other boxes on the right,
top to bottom, are table, reference and score (a combed box counts its
cells); the grey arbiter strip is the large mid-grey band. The result is a
layout file (relative coordinates, no markers) that the reader then uses.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from .layout import LAYOUT_DIR
from .load import load_image
from .page import _order, largest_quadrilateral
from .status import NON_TROUVE, VisionError

WIDTH = 1200


def rectify_blank(img: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    quad = largest_quadrilateral(gray)
    if quad is None:
        raise VisionError(NON_TROUVE, "aucun contour de page")
    quad = _order(quad)
    wa = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])
    hb = np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])
    if hb > wa:  # portrait as seen: turn so the long side is horizontal
        quad = np.roll(quad, -1, 0)
        wa, hb = hb, wa
    h = round(WIDTH * hb / wa)
    dst = np.array([[0, 0], [WIDTH, 0], [WIDTH, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
    return cv2.warpPerspective(gray, m, (WIDTH, h), borderValue=255)


def _boxes(gray: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Closed rectangular regions bounded by printed lines (x, y, w, h)."""
    binary = cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 25, 12
    )
    hl = cv2.morphologyEx(
        binary, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (25, 1))
    )
    vl = cv2.morphologyEx(
        binary, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, 25))
    )
    lines = cv2.dilate(cv2.bitwise_or(hl, vl), np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(cv2.bitwise_not(lines), connectivity=4)
    out = []
    H, W = gray.shape
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if w < W * 0.015 or h < H * 0.02 or w > W * 0.5 or h > H * 0.3:
            continue
        if area < 0.8 * w * h or x == 0 or y == 0 or x + w >= W or y + h >= H:
            continue
        out.append((int(x), int(y), int(w), int(h)))
    return out


def _clusters(values: list[int], gap: float) -> int:
    """How many groups of nearby values (cell rows or columns)."""
    ordered = sorted(values)
    return 1 + int(sum(b - a > gap for a, b in zip(ordered, ordered[1:], strict=False)))


def _grid(boxes):
    """The largest set of same-size cells: squared area box, rows, cols, and the leftover boxes."""
    best: list = []
    for b in boxes:
        same = [c for c in boxes if abs(c[2] - b[2]) < 0.2 * b[2] and abs(c[3] - b[3]) < 0.2 * b[3]]
        rows = {}
        for c in same:
            rows.setdefault(round(c[1] / max(b[3] * 0.5, 1)), []).append(c)
        aligned = []
        for row in rows.values():
            row.sort(key=lambda c: c[0])
            run = [row[0]]
            for c in row[1:]:
                if c[0] - (run[-1][0] + run[-1][2]) < 0.5 * b[2]:
                    run.append(c)
                else:
                    if len(run) >= 8:
                        aligned += run
                    run = [c]
            if len(run) >= 8:
                aligned += run
        if len(aligned) > len(best):
            best = aligned
    if not best:
        raise VisionError(NON_TROUVE, "aucun quadrillage trouvé")
    xs = [c[0] for c in best]
    ys = [c[1] for c in best]
    x0, y0 = min(xs), min(ys)
    x1 = max(c[0] + c[2] for c in best)
    y1 = max(c[1] + c[3] for c in best)
    cw = np.median([c[2] for c in best])
    ch = np.median([c[3] for c in best])
    cols = _clusters(xs, cw * 0.5)
    rows_n = _clusters(ys, ch * 0.5)
    rest = [b for b in boxes if not (x0 - 2 <= b[0] <= x1 and y0 - 2 <= b[1] <= y1)]
    return (x0, y0, x1 - x0, y1 - y0), rows_n, cols, rest


def _combs(rest, grid_right: int):
    """Boxes right of the grid, merged into combed fields (same row, touching), top to bottom."""
    right = sorted((b for b in rest if b[0] > grid_right), key=lambda b: (b[1], b[0]))
    fields: list[list] = []
    for b in right:
        for f in fields:
            last = f[-1]
            if abs(last[1] - b[1]) < 0.3 * b[3] and 0 <= b[0] - (last[0] + last[2]) < 0.5 * b[2]:
                f.append(b)
                break
        else:
            fields.append([b])
    fields = [f for f in fields if f[0][3] > 8]
    fields.sort(key=lambda f: f[0][1])
    return fields


def calibrate_image(img: np.ndarray, name: str = "calibre") -> dict:
    gray = rectify_blank(img)
    H, W = gray.shape
    boxes = _boxes(gray)
    (gx, gy, gw, gh), rows, cols, rest = _grid(boxes)
    combs = _combs(rest, gx + gw)
    if len(combs) < 3:
        raise VisionError(NON_TROUVE, f"{len(combs)} cases à droite du quadrillage (3 attendues)")
    combs = combs[:3]

    def rel(x, y, w, h):
        return [round(float(v) / d, 5) for v, d in ((x, W), (y, H), (w, W), (h, H))]

    fields = {}
    for key, label, f in zip(
        ("table", "ref", "score"), ("TABLE", "RÉFÉRENCE", "POINTS"), combs, strict=True
    ):
        x0, y0 = f[0][0], min(b[1] for b in f)
        x1 = f[-1][0] + f[-1][2]
        y1 = max(b[1] + b[3] for b in f)
        cells = len(f) if len(f) > 1 else max(1, int(round((x1 - x0) / (gw / cols))))
        fields[key] = {
            "box": rel(x0, y0, x1 - x0, y1 - y0),
            "cells": cells,
            "label": label,
            "label_box": rel(x0, max(0, y0 - 40), x1 - x0, 30),
        }
    paper = float(np.percentile(gray, 90))
    smooth = cv2.GaussianBlur(gray, (0, 0), 3).astype(np.float32) / max(paper, 1)
    grey = (smooth > 0.6) & (smooth < 0.93)
    rows_grey = grey.mean(1)
    runs, start = [], None
    for y, v in enumerate(list(rows_grey > 0.6) + [False]):
        if v and start is None:
            start = y
        elif not v and start is not None:
            runs.append((y - start, start))
            start = None
    runs = [r for r in runs if r[1] > gy + gh]
    if runs:
        length, top = max(runs)
        arbiter = rel(0, top, W, length)
    else:
        arbiter = rel(0, 0.8 * H, W, 0.15 * H)
    height_mm = 105.0
    return {
        "name": name,
        "description": "modèle mesuré par « python -m vision calibrer »",
        "page_mm": [round(height_mm * W / H, 1), height_mm],
        "markers": {"dictionary": "DICT_4X4_50", "items": []},
        "grid": {"box": rel(gx, gy, gw, gh), "rows": rows, "cols": cols, "word_row": rows // 2},
        "fields": fields,
        "arbiter": {"box": arbiter, "label": "Réservé à l'arbitre"},
        "texts": [],
        "code": {"text": name.upper()[:6], "box": rel(0, 0, 10, 10), "size_mm": 2.0},
    }


def calibrate(photo: str | Path, name: str = "calibre", out: Path | None = None) -> Path:
    """Write the layout measured on ``photo``: ``out``, else ``vision/layouts/NAME.json``.

    ``name`` becomes a file name inside ``vision/layouts/``: a name with a folder
    or dots in it (« ../../x ») is refused before anything is read or written.
    """
    from engine.files import FileRefused, write_atomic

    from .layout import valid_name

    if not valid_name(name):
        raise ValueError(f"nom de modèle non valable : « {name} » (lettres, chiffres, - et _ "
                         "seulement, 40 au plus)")
    img = load_image(photo)
    layout = calibrate_image(img, name)
    path = out or LAYOUT_DIR / f"{name}.json"
    # the blank form beside its layout: its printed matter finds a page whose outline is lost
    # (another sheet touching it, a patterned table): ``page.from_features``
    blank_name = f"{path.stem}.png" if valid_name(path.stem) else f"{name}.png"
    layout["vierge"] = blank_name
    ok, png = cv2.imencode(".png", rectify_blank(img))
    text = json.dumps(layout, indent=1, ensure_ascii=False, default=lambda o: o.item())
    try:
        write_atomic(path.parent / blank_name, png.tobytes(), "image du bulletin vierge")
        return write_atomic(path, text.encode("utf-8"), "modèle de bulletin")
    except FileRefused as exc:
        raise ValueError(str(exc)) from exc
