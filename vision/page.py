"""Stage 2: find the bulletin in the photo and rectify it to the layout's canonical frame.

With ArUco markers the marker ids say which corner is which, so perspective
and rotation (upside down included) are fixed in one homography. Without
markers (the federation's printed bulletins) the page is the largest
quadrilateral; its orientation is chosen by comparing with the blank layout.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .layout import Layout, to_px
from .status import NON_TROUVE, PLUSIEURS, VisionError
from .template import aruco_dictionary, render_page

CANON_PX_PER_MM = 8.0
DETECT_MAX_SIDE = 1600


@dataclass
class Page:
    """The rectified bulletin and how it was found."""

    image: np.ndarray  # BGR, canonical size
    homography: np.ndarray  # photo → canonical
    method: str  # "marqueurs" or "contour"
    markers: int  # markers used (0 with the contour method)
    corners: np.ndarray  # page corners in the photo (TL, TR, BR, BL)


def canonical_size(layout: Layout) -> tuple[int, int]:
    return layout.canonical_size(CANON_PX_PER_MM)


@lru_cache(maxsize=8)
def _detector(dictionary: str, thorough: bool) -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    if thorough:  # more thresholding windows: shadows, low contrast
        params.adaptiveThreshWinSizeMax = 53
    return cv2.aruco.ArucoDetector(aruco_dictionary(dictionary), params)


def _detect(
    gray: np.ndarray, layout: Layout, max_side: int, thorough: bool
) -> dict[int, list[np.ndarray]]:
    scale = min(1.0, max_side / max(gray.shape))
    small = (
        cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        if scale < 1
        else gray
    )
    corners, ids, _ = _detector(layout.data["markers"]["dictionary"], thorough).detectMarkers(small)
    found: dict[int, list[np.ndarray]] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=True):
        if int(i) in layout.marker_ids:
            pts = (c.reshape(4, 2) / scale).astype(np.float32)
            if scale < 1:  # refine on the full-resolution photo
                win = max(2, int(round(1.5 / scale)))
                crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
                pts = cv2.cornerSubPix(
                    gray, pts.reshape(-1, 1, 2), (win, win), (-1, -1), crit
                ).reshape(4, 2)
            found.setdefault(int(i), []).append(pts)
    return found


def detect_markers(gray: np.ndarray, layout: Layout) -> dict[int, list[np.ndarray]]:
    """Marker id → list of detections (4×2 corners, photo pixels).

    A quick pass on a reduced photo first; a thorough one at higher resolution
    only when it finds fewer than the four markers."""
    found = _detect(gray, layout, 1000, False)
    if len(found) < len(layout.marker_ids):
        more = _detect(gray, layout, DETECT_MAX_SIDE, True)
        if len(more) > len(found):
            found = more
    return found


def _marker_targets(layout: Layout) -> dict[int, np.ndarray]:
    size = canonical_size(layout)
    out = {}
    for m in layout.markers:
        x0, y0, x1, y1 = to_px(m["box"], size)
        side = min(x1 - x0, y1 - y0)
        out[int(m["id"])] = np.array(
            [[x0, y0], [x0 + side, y0], [x0 + side, y0 + side], [x0, y0 + side]], np.float32
        )
    return out


def _page_corners(h: np.ndarray, layout: Layout) -> np.ndarray:
    w, hh = canonical_size(layout)
    canon = np.array([[[0, 0]], [[w, 0]], [[w, hh]], [[0, hh]]], np.float32)
    return cv2.perspectiveTransform(canon, np.linalg.inv(h)).reshape(4, 2)


def from_markers(img: np.ndarray, gray: np.ndarray, layout: Layout) -> Page | None:
    found = detect_markers(gray, layout)
    duplicated = sum(len(v) > 1 for v in found.values())
    if duplicated >= 2:
        raise VisionError(PLUSIEURS, f"{duplicated} marqueurs en double")
    if len(found) < 2:
        return None
    targets = _marker_targets(layout)
    src = np.vstack([found[i][0] for i in sorted(found)]).astype(np.float32)
    dst = np.vstack([targets[i] for i in sorted(found)])
    h, _ = cv2.findHomography(src, dst, 0)
    if h is None:
        return None
    size = canonical_size(layout)
    warped = cv2.warpPerspective(img, h, size, flags=cv2.INTER_LINEAR, borderValue=(255, 255, 255))
    return Page(warped, h, "marqueurs", len(found), _page_corners(h, layout))


def _order(quad: np.ndarray) -> np.ndarray:
    """Corners clockwise from the top-left-most, in image coordinates."""
    c = quad.mean(0)
    ang = np.arctan2(quad[:, 1] - c[1], quad[:, 0] - c[0])
    q = quad[np.argsort(ang)]  # clockwise in image coordinates (y down)
    start = int(np.argmin(q.sum(1)))
    return np.roll(q, -start, 0)


def quadrilaterals(gray: np.ndarray, limit: int = 8) -> list[np.ndarray]:
    """Convex 4-gons covering ≥ 8 % of the photo (light page on a darker ground), largest first.

    Several binarisations (a pen or another sheet touching the page merges with it in one,
    not in another) and several simplifications of each outline, so that the page itself
    is usually among the candidates; the caller picks the one that looks like the layout."""
    scale = min(1.0, 800 / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    min_area = 0.08 * small.size
    _, otsu = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    closed = cv2.morphologyEx(otsu, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    binaries = [
        closed,
        cv2.dilate(cv2.Canny(small, 30, 90), np.ones((3, 3), np.uint8)),
        cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((25, 25), np.uint8)),  # cut pens off
    ]
    found: list[tuple[float, np.ndarray]] = []
    for k, binary in enumerate(binaries):
        # the edge map also gives inner outlines: the page's own edge inside a merged blob
        mode = cv2.RETR_LIST if k == 1 else cv2.RETR_EXTERNAL
        contours, _ = cv2.findContours(binary, mode, cv2.CHAIN_APPROX_SIMPLE)
        for cnt in contours:
            hull = cv2.convexHull(cnt)
            area = cv2.contourArea(hull)
            if area <= min_area:
                continue
            quads = []
            for eps in (0.02, 0.03, 0.05):
                approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True)
                if len(approx) == 4:
                    quads.append(approx.reshape(4, 2))
            if not quads and hasattr(cv2, "approxPolyN"):
                quads.append(cv2.approxPolyN(hull, 4).reshape(4, 2))
            for q in quads:
                q = q.astype(np.float32)
                qa = abs(cv2.contourArea(q))
                if qa <= min_area or any(
                    np.abs(q - other * scale).max() < 4 for _, other in found
                ):
                    continue
                found.append((qa, _order(q) / scale))
    found.sort(key=lambda t: -t[0])
    return [q for _, q in found[:limit]]


def largest_quadrilateral(gray: np.ndarray) -> np.ndarray | None:
    """The largest convex 4-gon covering ≥ 8 % of the photo (light page on a darker ground)."""
    quads = quadrilaterals(gray, 1)
    return quads[0] if quads else None


_BLANK_EDGES: dict[str, np.ndarray] = {}


def _blank_edges(layout: Layout) -> np.ndarray:
    key = json.dumps(layout.data, sort_keys=True)
    if key not in _BLANK_EDGES:
        _BLANK_EDGES[key] = _edge_signature(render_page(layout, CANON_PX_PER_MM))
    return _BLANK_EDGES[key]


def _edge_signature(gray: np.ndarray) -> np.ndarray:
    small = cv2.resize(gray, (148, 105), interpolation=cv2.INTER_AREA).astype(np.float32)
    sig = small - cv2.GaussianBlur(small, (0, 0), 4)
    return (sig - sig.mean()) / (sig.std() + 1e-6)


def layout_similarity(gray_canonical: np.ndarray, layout: Layout) -> float:
    """Correlation between a rectified page and the blank layout (≈ 0.3+ when it is one)."""
    return float((_edge_signature(gray_canonical) * _blank_edges(layout)).mean())


def _contour_page(img: np.ndarray, quad: np.ndarray, layout: Layout) -> tuple | None:
    w, h = canonical_size(layout)
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    side_a = np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])
    side_b = np.linalg.norm(quad[2] - quad[1]) + np.linalg.norm(quad[3] - quad[0])
    if side_b > side_a:  # the page's long side runs between corners 1-2: start one corner later
        quad = np.roll(quad, -1, 0)
    best = None
    for turn in (0, 2):
        q = np.roll(quad, -turn, 0)
        hom = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
        warped = cv2.warpPerspective(img, hom, (w, h), borderValue=(255, 255, 255))
        sim = layout_similarity(cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY), layout)
        if best is None or sim > best[0]:
            best = (sim, warped, hom, q)
    return best


def from_contour(img: np.ndarray, gray: np.ndarray, layout: Layout) -> Page | None:
    """The candidate quadrilateral whose rectification looks most like the blank layout."""
    best = None
    for quad in quadrilaterals(gray):
        got = _contour_page(img, quad, layout)
        if got is not None and (best is None or got[0] > best[0]):
            best = got
        if best is not None and best[0] >= 0.7:  # clearly the page: stop looking
            break
    if best is None:
        return None
    sim, warped, hom, q = best
    if sim < 0.15:
        return None
    return Page(warped, hom, "contour", 0, q)


def find_page(img: np.ndarray, layout: Layout | None = None) -> Page:
    """Locate and rectify; raise ``VisionError`` when no (or more than one) bulletin is seen."""
    layout = layout or Layout.load()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    page = from_markers(img, gray, layout) if layout.markers else None
    if page is None:
        page = from_contour(img, gray, layout)
    if page is None:
        raise VisionError(NON_TROUVE)
    return page
