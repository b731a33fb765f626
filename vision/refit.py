"""A page rectified from too few markers, refit on its own printed form.

Two markers (two fingers on the others) fix the page only near themselves: their eight
corners lie along one edge of the sheet and leave the far side free to tilt and stretch.
Seed 516's two bottom markers put the grid 20 pixels (0.4 cell) below its place at the top
and 14 at the bottom, beyond where the fields seek their rules: the middle row's F was cut
across, its top read in the word row and its foot as a raccord « I », sure.

The printed matter (grid, boxes, labels, texts) is the rest of the sheet's geometry: the
rectified page is aligned on the blank form by enhanced correlation (OpenCV's
``findTransformECC``, a homography, on an eighth-size then a quarter-size copy, where the
error is a few pixels), and warped once more from the photo. A fit that does not improve
the correlation, or moves the page further than a rectification from markers can be off,
is not used."""

from __future__ import annotations

import cv2
import numpy as np

from .layout import Layout

#: the scales the alignment works at, coarse to fine (canonical 8 px/mm → 1 then 2 px/mm):
#: at the coarser one the grid's rules blur into one another and the labels, boxes and texts
#: pull the page the whole way (a cell off, the rules alone would hold it there); the finer
#: one places the rules themselves
SCALES = (0.125, 0.25)
#: ECC's iterations at each scale and the change of the warp at which it stops (1e-4 and 30
#: iterations gave the same warps to 0.01 px, in 24 ms instead of 13)
ITERATIONS, EPSILON = 20, 1e-3
#: a refit moving a corner of the sheet further than this (canonical pixels: 12 mm) is not a
#: refinement of a marker rectification but another alignment: refused
FARTHEST = 96.0
#: the correlation must rise by at least this much for the refit to be used
GAIN = 0.005

_SMALL_BLANKS: dict[tuple[str, float], np.ndarray] = {}


def _small_blank(layout: Layout, scale: float) -> np.ndarray:
    """The blank form at ``scale``, blurred as the page is (computed once per form)."""
    from .page import _blank_form, _form_key

    key = (_form_key(layout), scale)
    if key not in _SMALL_BLANKS:
        if len(_SMALL_BLANKS) > 8:
            _SMALL_BLANKS.clear()
        _SMALL_BLANKS[key] = _small(_blank_form(layout), scale)
    return _SMALL_BLANKS[key]


def _small(gray: np.ndarray, scale: float) -> np.ndarray:
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small.astype(np.float32), (3, 3), 0)


def _correlation(a: np.ndarray, b: np.ndarray, where: np.ndarray | None = None) -> float:
    """Normalised correlation of ``a`` and ``b`` (on ``where`` only, when given)."""
    if where is not None:
        a, b = a[where], b[where]
    a, b = a - a.mean(), b - b.mean()
    return float((a * b).sum() / (np.sqrt((a * a).sum() * (b * b).sum()) + 1e-9))


def _at(warp: np.ndarray, sx: float, sy: float) -> np.ndarray:
    """A homography between full-size images expressed between images resized by (sx, sy)
    (and back with their inverses)."""
    s = np.diag([sx, sy, 1.0])
    out = s @ warp @ np.linalg.inv(s)
    return out / out[2, 2]


def form_offset(page_image: np.ndarray, layout: Layout, own: np.ndarray | None = None) -> np.ndarray | None:
    """The homography W taking the blank form's canonical coordinates to where the same
    printed matter lies in ``page_image`` (canonical size, BGR or grey): identity for a page
    rectified exactly; None where no better alignment was found. ``own``: where the page
    shows its own sheet (non-zero), the rest left out (another bulletin lying over it)."""
    gray = page_image if page_image.ndim == 2 else cv2.cvtColor(page_image, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape
    if h < 16 or w < 16:
        return None
    full = np.eye(3)
    for scale in SCALES:
        blank, seen = _small_blank(layout, scale), _small(gray, scale)
        if blank.shape != seen.shape:
            return None
        sx, sy = seen.shape[1] / w, seen.shape[0] / h
        mask = (None if own is None else
                cv2.resize(own, (seen.shape[1], seen.shape[0]), interpolation=cv2.INTER_NEAREST))
        try:
            _, warp = cv2.findTransformECC(
                blank, seen, _at(full, sx, sy).astype(np.float32), cv2.MOTION_HOMOGRAPHY,
                (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, ITERATIONS, EPSILON), mask, 3,
            )
        except cv2.error:  # no convergence (a blank photo, a sheet hidden)
            return None
        if not np.isfinite(warp).all():
            return None
        full = _at(warp.astype(np.float64), 1 / sx, 1 / sy)
    # the finest scale judges: the form's printed matter must match better than before
    size = (blank.shape[1], blank.shape[0])
    aligned = cv2.warpPerspective(seen, warp, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_REPLICATE)
    before = after = None
    if mask is not None:
        before = mask > 0
        after = cv2.warpPerspective(mask, warp, size, flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP) > 0
        if after.mean() < 0.5:  # too little of the page its own to judge by
            return None
    if _correlation(blank, aligned, after) < _correlation(blank, seen, before) + GAIN:
        return None
    corners = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], np.float32)
    moved = cv2.perspectiveTransform(corners, full).reshape(-1, 2) - corners.reshape(-1, 2)
    if float(np.abs(moved).max()) > FARTHEST:
        return None
    return full
