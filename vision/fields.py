"""Stage 3: cut the fields of a rectified bulletin into per-cell glyphs.

Ink is measured against a local paper estimate (shadows and uneven light
cancel out), printed box lines are removed by morphology (long thin runs),
then pen strokes are grouped into connected components and each component
goes to the cell holding its centre — so a letter written across a cell line
stays whole and does not leak into its neighbour.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .layout import Box, Layout, to_px

INK_THRESHOLD = 0.28
#: hysteresis for faint strokes (thin ballpoint, light or blurred writing): a stroke whose
#: pixels are mostly under ``INK_THRESHOLD`` is kept whole down to ``LOW_INK`` when it
#: holds a few pixels above ``SEED_INK``
LOW_INK = 0.13
SEED_INK = 0.2
HYSTERESIS = True
#: weight of the most contrasted colour channel in the ink map (0: grey only)
COLOUR_INK = 1.0
#: a trace this strong (3×3 average over its 15×15 surroundings) and as tall as a letter
#: makes an empty cell doubtful
FAINT_INK = 0.06
#: a piece of pen stroke lying on a printed rule (the bar of a 7 on the top edge of its box)
#: is given back to the glyph it touches instead of being dropped with the rule
SPARE_STROKES = True
REACH = 0.2
MIN_FILL = 0.012  # share of a cell's area that must be ink for the cell to count as written


@dataclass
class Glyph:
    """What was written in one cell: a float ink crop (1 = ink) and where it came from."""

    field: str  # "grid", "table", "ref", "score"
    row: int
    col: int
    image: np.ndarray  # ink crop, tight bounding box of the assigned strokes
    window: np.ndarray  # ink in a fixed window around the cell (for circle detection)
    fill: float  # ink area / cell area
    cell_px: float
    #: the glyph reaches the printed top edge of its box, where a stroke lying on the edge
    #: (the bar of a 7) may have been erased with it
    touches_top: bool = False

    @property
    def key(self) -> str:
        return f"grid:{self.row}:{self.col}" if self.field == "grid" else f"{self.field}:{self.col}"


@dataclass
class Fields:
    """All glyphs of a bulletin, by field."""

    grid: dict[tuple[int, int], Glyph]
    combs: dict[str, dict[int, Glyph]]
    ink: np.ndarray
    darkness: float  # median paper brightness, 0–255
    sharpness: float  # variance of the Laplacian on the written area
    doubtful: set[str] = field(
        default_factory=set
    )  # cells with some ink but not enough for a glyph

    @property
    def empty(self) -> bool:
        return not self.grid and not any(self.combs.values())

    def all(self) -> list[Glyph]:
        return list(self.grid.values()) + [g for comb in self.combs.values() for g in comb.values()]


def _relative_ink(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    paper = cv2.morphologyEx(
        gray, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (21, 21))
    )
    paper = cv2.GaussianBlur(paper, (0, 0), 6)
    return np.clip(1.0 - gray / np.maximum(paper, 1.0), 0, 1), paper


def ink_map(bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """Ink strength in [0, 1] per pixel, relative to the local paper brightness.

    Measured on the grey image and, for coloured pens, on the colour channel where the
    pen stands out most (a blue ballpoint under warm light is pale in grey)."""
    gray = (
        cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
        if bgr.ndim == 3
        else bgr.astype(np.float32)
    )
    ink, paper = _relative_ink(gray)
    if COLOUR_INK and bgr.ndim == 3:
        for ch in cv2.split(bgr.astype(np.float32)):
            ink = np.maximum(ink, COLOUR_INK * _relative_ink(ch)[0])
    return ink, float(np.median(paper))


def remove_lines(mask: np.ndarray, cell: float, vertical: float | None = None) -> np.ndarray:
    """Mask of printed rules: horizontal or vertical runs longer than any pen stroke.

    ``vertical`` is the length of the shortest printed vertical rule (a combed
    box's separators are only one cell high)."""
    length = max(9, int(cell * 1.3))
    vlen = max(9, int(min(cell * 1.3, 0.9 * vertical) if vertical else length))
    horiz = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (length, 1))
    )
    vert = cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, vlen))
    )
    lines = cv2.bitwise_or(horiz, vert)
    return cv2.dilate(lines, np.ones((3, 3), np.uint8))


def ink_mask(sub: np.ndarray) -> np.ndarray:
    """Binary ink (255) of an ink-strength crop: clear strokes above ``INK_THRESHOLD``, plus
    whole faint strokes (mostly under it) traced down to ``LOW_INK`` from clearer seeds."""
    strong = sub > INK_THRESHOLD
    low = (sub > LOW_INK).astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(low, connectivity=8)
    seeds = np.bincount(labels.ravel(), weights=(sub > SEED_INK).ravel(), minlength=n)
    strong_n = np.bincount(labels.ravel(), weights=strong.ravel(), minlength=n)
    area = stats[:, cv2.CC_STAT_AREA]
    faint = (seeds >= 4) & (strong_n < 0.3 * area)
    faint[0] = False
    return ((strong | faint[labels]) * 255).astype(np.uint8)


Segment = tuple[tuple[int, int], tuple[int, int]]


def _grid_lines(cells: list[tuple[int, int, tuple[int, int, int, int]]]) -> list[Segment]:
    segs: list[Segment] = []
    for _, _, (x0, y0, x1, y1) in cells:
        segs += [
            ((x0, y0), (x1, y0)),
            ((x0, y1), (x1, y1)),
            ((x0, y0), (x0, y1)),
            ((x1, y0), (x1, y1)),
        ]
    return segs


def _give_back(
    fragments: list[tuple[int, tuple[int, int] | None]],
    owner: dict[int, tuple[int, int]],
    labels: np.ndarray,
    stats: np.ndarray,
    mask: np.ndarray,
    lines: np.ndarray,
    cell: float,
) -> dict[tuple[int, int], np.ndarray]:
    """Stroke pieces left on a printed rule rejoin the one glyph they touch (``owner`` grows).

    Returns, per cell, the erased rule pixels bridging such a piece and its glyph. A piece
    touching glyphs of two cells, or none, stays out (and may make its cell doubtful)."""
    extra: dict[tuple[int, int], np.ndarray] = {}
    if not fragments or not owner:
        return extra
    reach = max(3, int(round(cell * REACH)))
    ker = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    h, w = labels.shape
    found = []
    lonely = 0
    for lab, _ in fragments:
        x, y, bw, bh = (int(v) for v in stats[lab, :4])
        ys0, ys1 = max(y - reach - 1, 0), min(y + bh + reach + 1, h)
        xs0, xs1 = max(x - reach - 1, 0), min(x + bw + reach + 1, w)
        win = labels[ys0:ys1, xs0:xs1]
        piece = win == lab
        grown = cv2.dilate(piece.astype(np.uint8), ker) > 0
        touched = {int(v) for v in np.unique(win[grown]) if int(v) in owner}
        lonely += not touched
        # a pen stroke lying along a rule: pen-thick, elongated, running along the erased
        # rule; rule leftovers are thin, the dashes of a separator are not beside an erased rule
        area = float(stats[lab, cv2.CC_STAT_AREA])
        off = cv2.distanceTransform((lines[ys0:ys1, xs0:xs1] == 0).astype(np.uint8), cv2.DIST_L2, 3)
        stroke = (
            area / max(bw, bh) >= 1.8
            and max(bw, bh) >= 1.5 * min(bw, bh)
            and float(np.mean(off[piece] <= 1.5)) >= 0.3
        )
        if not stroke:
            continue
        found.append((lab, touched, grown, (ys0, ys1, xs0, xs1)))
    if lonely >= 2:  # the rules are not cleanly removed here: pieces are rule leftovers
        return extra
    for lab, touched, grown, (ys0, ys1, xs0, xs1) in found:
        if len({owner[v] for v in touched}) != 1:
            continue
        win = labels[ys0:ys1, xs0:xs1]
        rc = owner[next(iter(touched))]
        owner[lab] = rc
        glyph = cv2.dilate(np.isin(win, list(touched)).astype(np.uint8), ker) > 0
        erased = (mask[ys0:ys1, xs0:xs1] > 0) & (lines[ys0:ys1, xs0:xs1] > 0)
        full = extra.setdefault(rc, np.zeros(labels.shape, bool))
        full[ys0:ys1, xs0:xs1] |= grown & glyph & erased
    return extra


def _thick_edge_above(
    mask: np.ndarray, top: tuple[int, int, int], xs: np.ndarray, ys: np.ndarray, cell: float
) -> bool:
    """Whether the glyph reaches its box's top edge where the printed edge is thicker than
    along the rest of the cell: a stroke (the bar of a 7) merged into the rule."""
    x0, y0, x1 = top
    reach = max(3, int(round(cell * 0.1)))
    if ys.min() > y0 + reach or y0 - reach < 0:
        return False
    strip = mask[y0 - reach : y0 + reach + 1, max(x0, 0) : x1] > 0
    if strip.size == 0:
        return False
    # per column, the length of the unbroken ink run through the rule's row: a stroke just
    # under the rule leaves a paper gap, a stroke lying on it makes the rule thicker
    c = int(np.argmax(strip.sum(1)))
    down = np.cumprod(strip[c:], axis=0).sum(0)
    up = np.cumprod(strip[c::-1], axis=0).sum(0)
    thick = np.where(strip[c], down + up - 1, 0).astype(np.float32)
    usual = float(np.median(thick))
    lo, hi = max(int(xs.min()) - max(x0, 0), 0), int(xs.max()) - max(x0, 0) + 1
    above = thick[lo:hi]
    run = int(0.15 * cell)
    if above.size < run or run < 1:
        return False
    excess = np.convolve((above >= usual + 2).astype(np.float32), np.ones(run), "valid")
    return bool(excess.size and excess.max() >= run)


def _faint_cells(
    sub: np.ndarray,
    lines: np.ndarray,
    cells: list[tuple[int, int, tuple[int, int, int, int]]],
    written: set[tuple[int, int]],
    origin: tuple[int, int],
    cell: float,
) -> set[tuple[int, int]]:
    """Cells with no glyph but a faint trace as tall as a letter (a hair-thin or very light
    stroke under the ink thresholds): doubtful, so the field is shown to the arbiter."""
    x0, y0 = origin
    # thin and local: a 3×3 average standing out of its 15×15 surroundings (not a shadow's edge)
    smooth = cv2.blur(sub, (3, 3)) - cv2.blur(sub, (15, 15))
    trace = (smooth > FAINT_INK).astype(np.uint8)
    trace[cv2.dilate(lines, np.ones((5, 5), np.uint8)) > 0] = 0
    m = max(2, int(cell * 0.12))
    found = set()
    for r, c, (bx0, by0, bx1, by1) in cells:
        if (r, c) in written:
            continue
        inner = trace[max(by0 - y0 + m, 0) : by1 - y0 - m, max(bx0 - x0 + m, 0) : bx1 - x0 - m]
        if inner.size == 0 or inner.sum() < 0.01 * (bx1 - bx0) * (by1 - by0):
            continue
        n, _, stats, _ = cv2.connectedComponentsWithStats(inner, connectivity=8)
        if n > 1 and stats[1:, cv2.CC_STAT_HEIGHT].max() >= 0.3 * cell:
            found.add((r, c))
    return found


def _cut(
    ink: np.ndarray,
    field: str,
    cells: list[tuple[int, int, tuple[int, int, int, int]]],
    region: tuple[int, int, int, int],
    cell: float,
    tolerance: float = 0.09,
) -> tuple[dict[tuple[int, int], Glyph], set[tuple[int, int]]]:
    x0, y0, x1, y1 = region
    h, w = ink.shape
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    sub = ink[y0:y1, x0:x1]
    mask = ink_mask(sub) if HYSTERESIS else (sub > INK_THRESHOLD).astype(np.uint8) * 255
    band = np.zeros_like(mask)
    half = max(2, int(cell * tolerance))
    for (ax, ay), (bx, by) in _grid_lines(cells):
        cv2.line(band, (ax - x0, ay - y0), (bx - x0, by - y0), 255, 2 * half + 1)
    heights = [b[3] - b[1] for _, _, b in cells]
    # long runs are printed rules only where the layout has a rule: a "1" or an "I"
    # touching both edges of its box is as long as a rule but lies elsewhere
    lines = cv2.bitwise_and(
        remove_lines(mask, cell, None if field == "grid" else min(heights)), band
    )
    clean = cv2.bitwise_and(mask, cv2.bitwise_not(lines))
    clean = cv2.morphologyEx(clean, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    n, labels, stats, cents = cv2.connectedComponentsWithStats(clean, connectivity=8)
    min_area = max(6, int(cell * cell * 0.004))
    in_band = np.bincount(labels.ravel(), weights=(band > 0).ravel(), minlength=n)
    owner: dict[int, tuple[int, int]] = {}
    doubtful: set[tuple[int, int]] = set()
    fragments: list[tuple[int, tuple[int, int] | None]] = []
    for lab in range(1, n):
        area = stats[lab, cv2.CC_STAT_AREA]
        if area < min_area:
            continue
        cx, cy = cents[lab][0] + x0, cents[lab][1] + y0
        rc = next(
            ((r, c) for r, c, (bx0, by0, bx1, by1) in cells if bx0 <= cx < bx1 and by0 <= cy < by1),
            None,
        )
        if in_band[lab] > 0.7 * area:  # leftovers of a printed rule, or a stroke lying on one
            fragments.append((lab, rc))
            continue
        if rc is None:
            continue
        owner[lab] = rc
    extra = _give_back(fragments, owner, labels, stats, mask, lines, cell) if SPARE_STROKES else {}
    for lab, rc in fragments:
        if lab not in owner and rc is not None and stats[lab, cv2.CC_STAT_AREA] >= 0.03 * cell * cell:
            doubtful.add(rc)
    out: dict[tuple[int, int], Glyph] = {}
    by_cell: dict[tuple[int, int], list[int]] = {}
    for lab, rc in owner.items():
        by_cell.setdefault(rc, []).append(lab)
    boxes = {(r, c): b for r, c, b in cells}
    for rc, labs in by_cell.items():
        bx0, by0, bx1, by1 = boxes[rc]
        area = (bx1 - bx0) * (by1 - by0)
        keep = np.isin(labels, labs)
        if rc in extra:
            keep |= extra[rc]
        ink_area = float(np.count_nonzero(keep))
        ys, xs = np.nonzero(keep)
        if ink_area / area < MIN_FILL or (ys.max() - ys.min()) < 0.3 * cell:
            if ink_area / area >= MIN_FILL / 3 and (ys.max() - ys.min()) >= 0.15 * cell:
                doubtful.add(rc)  # some ink, too little for a letter: a faint or broken one?
            continue
        strokes = np.where(keep, sub, 0).astype(np.float32)
        crop = strokes[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        # fixed window: the cell grown by 25 % each side, in region coordinates
        mx, my = int((bx1 - bx0) * 0.25), int((by1 - by0) * 0.25)
        wx0, wy0 = bx0 - x0 - mx, by0 - y0 - my
        wx1, wy1 = bx1 - x0 + mx, by1 - y0 + my
        window = np.zeros((wy1 - wy0, wx1 - wx0), np.float32)
        sx0, sy0 = max(wx0, 0), max(wy0, 0)
        sx1, sy1 = min(wx1, strokes.shape[1]), min(wy1, strokes.shape[0])
        window[sy0 - wy0 : sy1 - wy0, sx0 - wx0 : sx1 - wx0] = strokes[sy0:sy1, sx0:sx1]
        touches = _thick_edge_above(mask, (bx0 - x0, by0 - y0, bx1 - x0), xs, ys, cell)
        out[rc] = Glyph(field, rc[0], rc[1], crop, window, ink_area / area, cell, touches)
    doubtful |= _faint_cells(sub, lines, cells, set(out), (x0, y0), cell)
    return out, doubtful - set(out)


def cut_fields(bgr: np.ndarray, layout: Layout, tolerance: float = 0.09) -> Fields:
    """Glyphs of the squared area and of the combed boxes of a rectified bulletin.

    ``tolerance``: how far (in cells) a printed rule may be from where the layout puts it —
    small after marker rectification, larger after the contour fallback."""
    size = (bgr.shape[1], bgr.shape[0])
    ink, paper = ink_map(bgr)
    rows, cols = layout.grid_shape
    grid_cells = [
        (r, c, to_px(b, size))
        for r, row in enumerate(layout.grid_cells())
        for c, b in enumerate(row)
    ]
    gx0, gy0, gx1, gy1 = to_px(layout.grid_box, size)
    cell = (gx1 - gx0) / cols
    pad = int(cell * 0.35)
    grid, grid_doubt = _cut(
        ink, "grid", grid_cells, (gx0 - pad, gy0 - pad, gx1 + pad, gy1 + pad), cell, tolerance
    )
    combs: dict[str, dict[int, Glyph]] = {}
    doubtful = {f"grid:{r}:{c}" for r, c in grid_doubt}
    for name in layout.data["fields"]:
        cells = [(0, i, to_px(b, size)) for i, b in enumerate(layout.comb_cells(name))]
        fx0, fy0, fx1, fy1 = to_px(layout.field_box(name), size)
        fpad = int(cell * 0.3)
        got, doubt = _cut(
            ink, name, cells, (fx0 - fpad, fy0 - fpad, fx1 + fpad, fy1 + fpad), cell, tolerance
        )
        combs[name] = {c: g for (_, c), g in got.items()}
        doubtful |= {f"{name}:{c}" for _, c in doubt}
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    area = gray[gy0:gy1, gx0:gx1]
    sharp = float(cv2.Laplacian(area, cv2.CV_32F).var())
    return Fields(grid, combs, ink, paper, sharp, doubtful)


def box_px(box: Box, size: tuple[int, int]) -> tuple[int, int, int, int]:
    return to_px(box, size)
