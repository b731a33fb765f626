"""Stage 2: find the bulletin in the photo and rectify it to the layout's canonical frame.

With ArUco markers the marker ids say which corner is which, so perspective
and rotation (upside down included) are fixed in one homography. Without
markers (the federation's printed bulletins) the page is the quadrilateral whose
rectification looks most like the blank layout (orientation included); where no outline
does (other sheets touching the page, a patterned table), the page's printed matter is
matched to the blank layout's (SIFT keypoints, a RANSAC homography). A page pinned by fewer
than four markers is then aligned on the form's printed matter (:mod:`vision.refit`): two
markers fix the sheet only near themselves.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from .layout import Layout, to_px
from .refit import form_offset
from .status import COUPE, NON_TROUVE, PLUSIEURS, VisionError
from .template import aruco_dictionary, render_page

CANON_PX_PER_MM = 8.0
DETECT_MAX_SIDE = 1600
DETECT_MULTI_SIDE = 2600


@dataclass
class Page:
    """The rectified bulletin and how it was found."""

    image: np.ndarray | None  # BGR, canonical size
    homography: np.ndarray  # photo → canonical
    method: str  # "marqueurs", "contour" (its outline) or "motifs" (its printed matter)
    markers: int  # markers used (0 without markers)
    corners: np.ndarray  # page corners in the photo (TL, TR, BR, BL)
    #: the ids of the markers it was rectified by
    seen: tuple[int, ...] = ()


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


def _similarity(src: np.ndarray, dst: np.ndarray) -> tuple[complex, complex]:
    """Least-squares similarity ``z = a·w + b`` (points as complex numbers) taking ``src`` to
    ``dst``: one marker's own corners say where its sheet lies, scale and turn included."""
    w = src[:, 0] + 1j * src[:, 1]
    z = dst[:, 0] + 1j * dst[:, 1]
    wm, zm = w.mean(), z.mean()
    a = complex(np.vdot(w - wm, z - zm) / max(float(np.vdot(w - wm, w - wm).real), 1e-9))
    return a, complex(zm - a * wm)


@dataclass
class _Mark:
    """One marker detection and the sheet it predicts (canonical → photo similarity)."""

    id: int
    corners: np.ndarray
    a: complex
    b: complex

    def predict(self, canon_xy: np.ndarray) -> np.ndarray:
        z = self.a * (canon_xy[..., 0] + 1j * canon_xy[..., 1]) + self.b
        return np.stack([z.real, z.imag], -1)


#: two markers belong to one sheet when each predicts the other's place within this share of
#: the page's diagonal (tilt and perspective move it by ≤ 0.25; the neighbour sheet's marker
#: of that corner is ≥ 0.55 away)
SAME_SHEET = 0.3
#: page quadrilaterals of two sheets may share this share of the smaller one (a margin laid
#: over the other's margin); beyond, one hides the other: the photo cannot be split
OVERLAP = 0.12
#: a sheet this much under another that shows every marker, its own missing ones hidden by
#: it, is the next bulletin of a stack photographed on its top one: not read, not refused
#: (less covered, two sheets laid over each other are refused: which one was meant?)
BENEATH = 0.5
#: a sheet whose page reaches this share of its size beyond the photo is cut at the edge
OUTSIDE = 0.04
#: more bulletins than this on one photo are refused (the grouping's work grows with the
#: square of the markers: a sheet printed full of markers must not hold up the reader)
MAX_SHEETS = 8


def _group(marks: list[_Mark], targets: dict[int, np.ndarray],
           diag: float) -> list[list[_Mark]]:
    """Detections grouped into sheets: complete linkage on the mutual prediction error, each
    id at most once per sheet; closest pairs first. ``diag``: the canonical page's diagonal."""
    n = len(marks)
    ids = np.array([m.id for m in marks])
    a = np.array([m.a for m in marks])
    b = np.array([m.b for m in marks])
    seen = np.array([complex(*m.corners.mean(0)) for m in marks])
    where = np.array([complex(*targets[m.id].mean(0)) for m in marks])  # canonical centres
    # err[i, j]: how far marker i's sheet puts marker j from where j is, in page diagonals
    err = np.abs(a[:, None] * where[None, :] + b[:, None] - seen[None, :]) / (
        np.abs(a)[:, None] * diag)
    dist = np.maximum(err, err.T)
    dist[ids[:, None] == ids[None, :]] = np.inf
    groups = [{i} for i in range(n)]
    pairs = sorted((dist[p, q], p, q) for p in range(n) for q in range(p + 1, n))
    for d, i, j in pairs:
        if d > SAME_SHEET:
            break
        gi = next(g for g in groups if i in g)
        gj = next(g for g in groups if j in g)
        if gi is gj or max(dist[p, q] for p in gi for q in gj) > SAME_SHEET:
            continue
        gi |= gj
        groups.remove(gj)
    return [[marks[i] for i in sorted(g)] for g in groups]


def _homography(group: list[_Mark], targets: dict[int, np.ndarray]) -> np.ndarray | None:
    ordered = sorted(group, key=lambda m: m.id)
    src = np.vstack([m.corners for m in ordered]).astype(np.float32)
    dst = np.vstack([targets[m.id] for m in ordered])
    h, _ = cv2.findHomography(src, dst, 0)
    return h


#: markers of one sheet fit one homography within this (canonical pixels: 1.5 mm; measured:
#: ≤ 5 px for one sheet, tilted 50°, curled or blurred; ≥ 21 px for markers of two sheets)
FIT_PX = 1.5 * CANON_PX_PER_MM


class _Fits:
    """Each group's homography (photo → canonical) and how far its markers are from it
    (canonical pixels; 0 below three markers: two always fit), computed once per group."""

    def __init__(self, targets: dict[int, np.ndarray]) -> None:
        self.targets = targets
        self.known: dict[tuple[int, ...], tuple[np.ndarray | None, float]] = {}

    def __call__(self, group: list[_Mark]) -> tuple[np.ndarray | None, float]:
        key = tuple(sorted(id(m) for m in group))
        if key not in self.known:
            h = _homography(group, self.targets)
            err = 0.0 if h is not None else np.inf
            if h is not None and len(group) >= 3:
                src = np.vstack([m.corners for m in group]).astype(np.float32).reshape(-1, 1, 2)
                dst = np.vstack([self.targets[m.id] for m in group])
                err = float(np.abs(cv2.perspectiveTransform(src, h).reshape(-1, 2) - dst).max())
            self.known[key] = (h, err)
        return self.known[key]

    def misfit(self, group: list[_Mark]) -> float:
        return self(group)[1]


def _settle(groups: list[list[_Mark]], fits: _Fits) -> list[list[_Mark]]:
    """Groups checked against the sheet's geometry: a group that fits no homography loses its
    worst marker (alone then); groups whose union fits one (strong perspective parts what
    the markers' own predictions join) are merged, the best fit first."""
    out: list[list[_Mark]] = []
    for group in groups:
        while len(group) >= 3 and fits.misfit(group) > FIT_PX:
            worst = min(group, key=lambda m: fits.misfit([g for g in group if g is not m]))
            group = [g for g in group if g is not worst]
            out.append([worst])
        out.append(group)
    while True:
        best = None
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                union = out[i] + out[j]
                if len(union) < 3 or len({m.id for m in union}) < len(union):
                    continue
                err = fits.misfit(union)
                if err <= FIT_PX and (best is None or err < best[0]):
                    best = (err, i, j)
        if best is None:
            return out
        _, i, j = best
        out[i] = out[i] + out[j]
        del out[j]


def _plausible(quad: np.ndarray, layout: Layout, area: float) -> bool:
    """A page quadrilateral that can be a sheet: convex, not tiny, sides in the layout's ratio."""
    if not cv2.isContourConvex(quad.astype(np.float32).reshape(-1, 1, 2)):
        return False
    if cv2.contourArea(quad.astype(np.float32)) < 0.005 * area:
        return False
    top, right, bottom, left = (float(np.linalg.norm(quad[(k + 1) % 4] - quad[k])) for k in range(4))
    ratio = (top + bottom) / max(left + right, 1e-6)
    return 0.45 < ratio / layout.aspect < 2.2


def _outside(quad: np.ndarray, shape: tuple[int, ...]) -> bool:
    """The page reaches beyond the photo's edge by more than :data:`OUTSIDE` of its size."""
    h, w = shape[:2]
    span = max(float(np.ptp(quad[:, 0])), float(np.ptp(quad[:, 1])), 1.0)
    margin = OUTSIDE * span
    return bool(quad[:, 0].min() < -margin or quad[:, 1].min() < -margin
                or quad[:, 0].max() > w + margin or quad[:, 1].max() > h + margin)


def _covers(top: Page, other: Page, seen: set[int], targets: dict[int, np.ndarray]) -> bool:
    """Whether ``other`` lies beneath ``top`` (the next bulletin of a stack photographed on
    it): ``top`` shows every marker, and each marker ``other`` lacks would stand, at least
    in part, inside ``top``'s outline, hidden by it. Such a sheet is not read: its fields
    may be covered."""
    if top is other or top.markers < len(targets) or len(seen) >= len(targets):
        return False
    to_photo = np.linalg.inv(other.homography)
    outline = top.corners.astype(np.float32).reshape(-1, 1, 2)
    for i, square in targets.items():
        if i in seen:
            continue
        where = cv2.perspectiveTransform(square.reshape(-1, 1, 2).astype(np.float64), to_photo)
        if not any(cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0
                   for x, y in where.reshape(-1, 2)):
            return False
    return True


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Shared area of two convex quadrilaterals, as a share of the smaller."""
    inter, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    small = min(cv2.contourArea(a.astype(np.float32)), cv2.contourArea(b.astype(np.float32)))
    return float(inter) / max(small, 1e-6)


def reading_order(centres: list[np.ndarray], heights: list[float]) -> list[int]:
    """Indices in reading order: rows top to bottom (a sheet joins a row when its centre is
    within half a page height of the row's first), each row left to right."""
    order = sorted(range(len(centres)), key=lambda k: centres[k][1])
    rows: list[list[int]] = []
    for k in order:
        if rows and abs(centres[k][1] - centres[rows[-1][0]][1]) < 0.5 * heights[rows[-1][0]]:
            rows[-1].append(k)
        else:
            rows.append([k])
    return [k for row in rows for k in sorted(row, key=lambda k: centres[k][0])]


def _sheets(img: np.ndarray, found: dict[int, list[np.ndarray]],
            layout: Layout) -> list[Page | VisionError]:
    """The sheets the marker detections make, in reading order: pages, and sheets cut at the
    photo's edge."""
    targets = _marker_targets(layout)
    if sum(map(len, found.values())) > MAX_SHEETS * len(targets):
        raise VisionError(PLUSIEURS, f"plus de {MAX_SHEETS} bulletins : photographiez-en moins "
                                     "à la fois")
    marks = [_Mark(i, c, *_similarity(targets[i], c)) for i, cs in found.items() for c in cs]
    w, hh = canonical_size(layout)
    canon = np.array([[0, 0], [w, 0], [w, hh], [0, hh]], np.float64)
    area = float(img.shape[0] * img.shape[1])
    entries: list[tuple[np.ndarray, Page | VisionError]] = []
    pages: list[Page] = []
    shown: dict[int, set[int]] = {}  # each page's markers seen
    fits = _Fits(targets)
    for group in _settle(_group(marks, targets, float(np.hypot(w, hh))), fits):
        if len(group) >= 2:
            h = fits(group)[0]
            if h is not None:
                quad = _page_corners(h, layout)
                if _plausible(quad, layout, area):
                    if len(group) < 4 and _outside(quad, img.shape):
                        entries.append((quad, VisionError(COUPE, f"{len(group)} repères sur 4")))
                        continue
                    page = Page(None, h, "marqueurs", len(group), quad,  # warped once chosen
                                tuple(sorted(m.id for m in group)))
                    entries.append((quad, page))
                    pages.append(page)
                    shown[id(page)] = {m.id for m in group}
                    continue
        quad = group[0].predict(canon)  # one marker (or an implausible group): where its sheet is
        if _outside(quad, img.shape):
            entries.append((quad, VisionError(COUPE, f"{len(group)} repère(s) sur 4")))
    beneath = [q for q in pages if any(
        _overlap(p.corners, q.corners) > BENEATH and _covers(p, q, shown[id(q)], targets) for p in pages)]
    entries = [(quad, e) for quad, e in entries if not any(e is q for q in beneath)]
    pages = [p for p in pages if not any(p is q for q in beneath)]
    for k, p in enumerate(pages):
        for q in pages[k + 1:]:
            if _overlap(p.corners, q.corners) > OVERLAP:
                raise VisionError(PLUSIEURS, "ils se chevauchent : posez-les côte à côte sans "
                                                 "cacher leurs coins, ou un seul par photo")
    # a cut sheet's predicted outline under a found page is that page's own marker misread
    entries = [(quad, e) for quad, e in entries if isinstance(e, Page) or not any(
        _overlap(quad, p.corners) > 0.5 for p in pages)]
    heights = [float(np.ptp(quad[:, 1])) for quad, _ in entries]
    order = reading_order([quad.mean(0) for quad, _ in entries], heights)
    return [entries[k][1] for k in order]


def from_markers(img: np.ndarray, gray: np.ndarray, layout: Layout) -> list[Page | VisionError]:
    """The sheets found by their corner markers (see :func:`find_pages`).

    A quick pass on a reduced photo first; a thorough one at higher resolution only when a
    sheet lacks a marker; a third, up to :data:`DETECT_MULTI_SIDE`, for a large photo where
    none or several sheets are seen (their markers are smaller in it). Each page is warped
    once, after the last pass."""
    found = _detect(gray, layout, 1000, False)
    sheets = _sheets(img, found, layout) if found else []
    for side in (DETECT_MAX_SIDE, min(max(gray.shape), DETECT_MULTI_SIDE)):
        pages = sum(isinstance(s, Page) for s in sheets)
        if sheets and all(isinstance(s, Page) and s.markers == len(layout.marker_ids)
                          for s in sheets):
            break
        if side > DETECT_MAX_SIDE and pages == 1 and len(sheets) == 1:
            break  # one bulletin, a marker hidden (a finger): as good as it gets
        more = _detect(gray, layout, side, True)
        if sum(map(len, more.values())) > sum(map(len, found.values())):
            found, sheets = more, _sheets(img, more, layout)
    size = canonical_size(layout)
    pages = [p for p in sheets if isinstance(p, Page)]
    for page in pages:
        page.image = cv2.warpPerspective(img, page.homography, size, flags=cv2.INTER_LINEAR,
                                         borderValue=(255, 255, 255))
    for page in pages:
        if page.markers < len(layout.marker_ids):  # the far side of the sheet left free
            others = [p.corners for p in pages if p is not page]
            _refit(img, page, layout, size, _own_matter(page, others, size))
    return sheets


#: how far (canonical pixels) beyond another sheet's outline its printed matter is kept out
#: of a page's alignment (the outline is the markers' estimate of it)
OTHER_SHEET_MARGIN = 24


def _own_matter(page: Page, others: list[np.ndarray], size: tuple[int, int]) -> np.ndarray | None:
    """Where ``page``'s canonical frame shows its own sheet: not the other sheets of the photo
    found beside or over it (the same form, printed alike: the alignment would pull the page
    onto their grid). None where no other sheet reaches it."""
    mask = np.full((size[1], size[0]), 255, np.uint8)
    for corners in others:
        quad = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64), page.homography)
        cv2.fillPoly(mask, [np.round(quad.reshape(-1, 2)).astype(np.int32)], 0)
    if mask.all():
        return None
    return cv2.erode(mask, np.ones((2 * OTHER_SHEET_MARGIN + 1,) * 2, np.uint8))


#: a refit that moves a marker the page was rectified by further than this (canonical pixels)
#: is not kept: those markers placed the page where they are
MARKER_MOVES = 4.0


def _refit(img: np.ndarray, page: Page, layout: Layout, size: tuple[int, int],
           own: np.ndarray | None = None) -> None:
    """``page`` warped again from the photo, aligned on its printed form
    (:func:`vision.refit.form_offset`, on ``own`` only: where no other sheet lies), where
    that alignment is better and leaves the markers it was found by in place."""
    offset = form_offset(page.image, layout, own)
    if offset is None:
        return
    targets = _marker_targets(layout)
    seen = [targets[i] for i in page.seen if i in targets]
    if seen:
        corners = np.concatenate(seen).reshape(-1, 1, 2).astype(np.float64)
        if float(np.abs(cv2.perspectiveTransform(corners, offset) - corners).max()) > MARKER_MOVES:
            return
    page.homography = np.linalg.inv(offset) @ page.homography
    page.image = cv2.warpPerspective(img, page.homography, size, flags=cv2.INTER_LINEAR,
                                     borderValue=(255, 255, 255))
    page.corners = _page_corners(page.homography, layout)


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


def _blank_form(layout: Layout) -> np.ndarray:
    """The blank form at canonical size (grey): the photo of it a calibrated layout was
    measured on (all its printed matter, ``Layout.blank_image``), else the layout's own
    rendering (the project's forms are printed from it)."""
    source = layout.blank_image
    if source is not None:
        from engine.files import LIMITS, FileRefused, read_bytes

        try:
            raw = read_bytes(source, "image du bulletin vierge", LIMITS["photo"])
            blank = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_GRAYSCALE)
        except FileRefused:
            blank = None  # unreadable: the layout's rendering still serves
        if blank is not None:
            return cv2.resize(blank, canonical_size(layout), interpolation=cv2.INTER_AREA)
    return render_page(layout, CANON_PX_PER_MM)


def _form_key(layout: Layout) -> str:
    """What the blank form depends on: the layout, and the photo of it a calibrated one has."""
    return json.dumps(layout.data, sort_keys=True) + str(layout.blank_image)


def _blank_edges(layout: Layout) -> np.ndarray:
    key = _form_key(layout)
    if key not in _BLANK_EDGES:
        _BLANK_EDGES[key] = _edge_signature(_blank_form(layout))
    return _BLANK_EDGES[key]


def _edge_signature(gray: np.ndarray) -> np.ndarray:
    small = cv2.resize(gray, (148, 105), interpolation=cv2.INTER_AREA).astype(np.float32)
    sig = small - cv2.GaussianBlur(small, (0, 0), 4)
    return (sig - sig.mean()) / (sig.std() + 1e-6)


def layout_similarity(gray_canonical: np.ndarray, layout: Layout) -> float:
    """Correlation between a rectified page and the blank form (≈ 0.3+ when it is one; the
    blank photo of a calibrated layout, else the layout's rendering)."""
    return float((_edge_signature(gray_canonical) * _blank_edges(layout)).mean())


def _contour_page(gray: np.ndarray, quad: np.ndarray, layout: Layout) -> tuple | None:
    """(similarity, None, homography, corners) of the outline ``quad``'s better reading
    way round, scored on the grey photo: the colour page is warped only for the outline
    retained (:func:`_in_colour`), not twice for each one tried."""
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
        warped = cv2.warpPerspective(gray, hom, (w, h), borderValue=255)
        sim = layout_similarity(warped, layout)
        if best is None or sim > best[0]:
            best = (sim, None, hom, q)
    return best


def _in_colour(img: np.ndarray, found: tuple, layout: Layout) -> tuple:
    """An outline's (similarity, None, homography, corners) with its colour page warped."""
    sim, warped, hom, q = found
    if warped is None:
        warped = cv2.warpPerspective(img, hom, canonical_size(layout), borderValue=(255, 255, 255))
    return sim, warped, hom, q


#: an outline whose rectification resembles the blank layout less than this is doubted:
#: the page is also sought by its printed matter (a neighbouring sheet merged with its
#: outline, a patterned table: the outline found is not the page's, or none is)
FEATURE_TRY = 0.6
#: the photo's longer side for keypoints, tried in turn: the form's title, labels and box
#: corners match at 800 px where the page fills a good part of the photo (16 photos on a
#: wooden table: every page found, 143 ms median CPU, against 308 ms at 1200 px); a page a
#: quarter of the photo wide needs more (its labels a few pixels tall)
FEATURE_SIDES = (800, 1600)
#: Lowe's ratio: a match this much closer than the next candidate (the grid's cells repeat)
FEATURE_RATIO = 0.75
#: matches that must agree on one homography: fewer is chance among the repeated cells
FEATURE_INLIERS = 25
#: agreement of a match with the homography, in canonical pixels (CANON_PX_PER_MM per mm)
FEATURE_REPROJECT = 4.0

_TEMPLATE_FEATURES: dict[str, tuple] = {}


def _sift() -> cv2.SIFT:
    return cv2.SIFT_create(nfeatures=1500)


def _template_features(layout: Layout) -> tuple:
    """The blank form's keypoints and descriptors, at canonical scale (computed once)."""
    key = _form_key(layout)
    if key not in _TEMPLATE_FEATURES:
        _TEMPLATE_FEATURES[key] = _sift().detectAndCompute(_blank_form(layout), None)
    return _TEMPLATE_FEATURES[key]


def from_features(
    img: np.ndarray, gray: np.ndarray, layout: Layout, memo: dict | None = None,
) -> tuple | None:
    """The page located by its printed matter: keypoints of the photo matched to the blank
    layout's, one homography agreed by at least ``FEATURE_INLIERS`` of them, the page's
    corners a plausible sheet; the photo's keypoints sought at each of ``FEATURE_SIDES``
    until the page clearly looks like the layout. (similarity, rectified page, homography,
    corners) or None. ``memo``: the sheets found at each size, kept for the same photo."""
    best = None
    for side in FEATURE_SIDES:
        whole = [s for s in _printed_sheets(img, gray, layout, side, memo) if isinstance(s, tuple)]
        got = max(whole, key=lambda s: s[0]) if whole else None
        if got is not None and (best is None or got[0] > best[0]):
            best = got
        if best is not None and best[0] >= FEATURE_TRY or side >= max(gray.shape):
            break
    return best


def _printed_sheets(img: np.ndarray, gray: np.ndarray, layout: Layout, side: int,
                    memo: dict | None) -> list[tuple | VisionError]:
    """:func:`sheets_by_features` once per size for one photo (``memo``: the caller's)."""
    if memo is None:
        return sheets_by_features(img, gray, layout, side)
    if side not in memo:
        memo[side] = sheets_by_features(img, gray, layout, side)
    return memo[side]


def sheets_by_features(
    img: np.ndarray, gray: np.ndarray, layout: Layout, side: int = FEATURE_SIDES[0],
    limit: int = MAX_SHEETS,
) -> list[tuple | VisionError]:
    """Every sheet of the form the photo's printed matter shows (keypoints at ``side`` px):
    one homography after the other, each agreed by ``FEATURE_INLIERS`` matches at least, the
    matches on a sheet found set aside before the next. A plausible sheet reaching beyond
    the photo's edge is a ``VisionError(COUPE)``; the others (similarity, rectified page,
    homography, corners), in the order found (most matches first)."""
    tmpl_kp, tmpl_desc = _template_features(layout)
    if tmpl_desc is None:
        return []
    scale = min(1.0, side / max(gray.shape))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else gray
    kp, desc = _sift().detectAndCompute(small, None)
    if desc is None or len(kp) < FEATURE_INLIERS:
        return []
    pairs = cv2.BFMatcher(cv2.NORM_L2).knnMatch(desc, tmpl_desc, k=2)
    good = [p[0] for p in pairs if len(p) == 2 and p[0].distance < FEATURE_RATIO * p[1].distance]
    if len(good) < FEATURE_INLIERS:
        return []
    src = np.float32([kp[m.queryIdx].pt for m in good]) / scale
    dst = np.float32([tmpl_kp[m.trainIdx].pt for m in good])
    w, h = canonical_size(layout)
    page = np.float32([[0, 0], [w, 0], [w, h], [0, h]]).reshape(-1, 1, 2)
    left = np.ones(len(good), bool)
    out: list[tuple | VisionError] = []
    while len(out) < limit and left.sum() >= FEATURE_INLIERS:
        idx = np.flatnonzero(left)
        hom, agree = cv2.findHomography(src[idx], dst[idx], cv2.RANSAC, FEATURE_REPROJECT)
        if hom is None or int(agree.sum()) < FEATURE_INLIERS or abs(np.linalg.det(hom)) < 1e-12:
            break
        left[idx[agree.ravel() > 0]] = False  # these matches are spent, whatever they found
        corners = cv2.perspectiveTransform(page, np.linalg.inv(hom)).reshape(4, 2)
        if not _plausible(corners, layout, float(gray.size)):
            continue
        outline = corners.reshape(-1, 1, 2)
        left &= np.array([cv2.pointPolygonTest(outline, (float(x), float(y)), False) < 0
                          for x, y in src])  # the sheet's other matches: not another sheet
        if _outside(corners, gray.shape):  # a sheet cut at the photo's edge is said cut
            out.append(VisionError(COUPE, "un bulletin dépasse du bord de la photo"))
            continue
        warped = cv2.warpPerspective(img, hom, (w, h), borderValue=(255, 255, 255))
        sim = layout_similarity(cv2.cvtColor(warped, cv2.COLOR_BGR2GRAY) if warped.ndim == 3 else warped,
                                layout)
        if sim >= 0.15:  # else not the form: another printed sheet's keypoints
            out.append((sim, warped, hom, corners))
    return out


def from_contour(img: np.ndarray, gray: np.ndarray, layout: Layout, memo: dict | None = None) -> Page | None:
    """The candidate quadrilateral whose rectification looks most like the blank layout;
    where none clearly does (under ``FEATURE_TRY``), the page found by its printed matter
    if it looks more like it (:func:`from_features`)."""
    best = None
    method = "contour"
    quads = quadrilaterals(gray)
    if memo is not None:
        memo["outlines"] = quads
    for quad in quads:
        got = _contour_page(gray, quad, layout)
        if got is not None and (best is None or got[0] > best[0]):
            best = got
        if best is not None and best[0] >= 0.7:  # clearly the page: stop looking
            break
    if best is None or best[0] < FEATURE_TRY:
        printed = from_features(img, gray, layout, memo)
        if printed is not None and (best is None or printed[0] > best[0]):
            best, method = printed, "motifs"
    if best is None or best[0] < 0.15:
        return None
    _, warped, hom, q = _in_colour(img, best, layout)
    return Page(warped, hom, method, 0, q)


def find_pages(img: np.ndarray, layout: Layout | None = None) -> list[Page | VisionError]:
    """Every bulletin of the photo, in reading order (rows top to bottom, each left to right,
    in the photo as loaded: EXIF orientation applied).

    Marker detections are grouped into sheets (each id once per sheet, the markers of one
    sheet predicting each other's places); each sheet with two markers or more is rectified.
    A sheet cut at the photo's edge (too few markers, its page beyond the edge) is a
    ``VisionError(COUPE)`` in its place, so the arbiter knows one is missing. Sheets laid
    over each other (beyond a margin) cannot be split: ``VisionError(PLUSIEURS)`` is raised,
    unless one lies mostly under the other, its missing markers hidden by it (a stack
    photographed on its top bulletin): that one is left out. Without markers, a page found
    by its outline; where there is none, where it was found by its printed matter, or where
    another outline as large lies beside it, every sheet the printed matter shows
    (:func:`sheets_by_features`), when there are two or more. ``[]``: no bulletin seen."""
    layout = layout or Layout.load()
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
    sheets = from_markers(img, gray, layout) if layout.markers else []
    if any(isinstance(s, Page) for s in sheets):
        return sheets
    memo: dict = {}  # the printed matter's sheets at each size, sought once for this photo
    page = from_contour(img, gray, layout, memo)
    if page is None or page.method == "motifs" or _another_outline(gray, page, memo.get("outlines")):
        several = _pages_by_features(img, gray, layout, memo)
        if sum(isinstance(p, Page) for p in several) >= 2:
            return several
    # no sheet with two markers: the page's outline, else the cut sheets (if any) are said
    return [page] if page is not None else sheets


#: an outline beside the page found (overlapping it less than this share), at least this
#: share of its size, may be another bulletin (the federation's, photographed together) …
BESIDE = (0.2, 0.5)
#: … as may an outline round the page this many times its size (sheets touching: one blob)
AROUND = 1.6
#: … and a sheet narrower than this (pixels, at the size its keypoints were sought) is
#: small: its neighbours are sought at the next size (3 bulletins side by side in one photo
#: at 800 px: 235 px each, one of them missed)
SMALL_SHEET = 320


def _another_outline(gray: np.ndarray, page: Page, outlines: list[np.ndarray] | None = None) -> bool:
    """Whether an outline as large as the page's lies beside it, or one much larger round
    it (other sheets, apart or touching it?). ``outlines``: the photo's, already sought."""
    own = page.corners.astype(np.float32)
    area = cv2.contourArea(own)
    for q in quadrilaterals(gray) if outlines is None else outlines:
        shared, size = _overlap(q, own), cv2.contourArea(q.astype(np.float32))
        if (shared < BESIDE[0] and size >= BESIDE[1] * area) or size >= AROUND * area:
            return True
    return False


def _pages_by_features(img: np.ndarray, gray: np.ndarray, layout: Layout,
                       memo: dict | None = None) -> list[Page | VisionError]:
    """The sheets the printed matter shows, each found once (a sheet mostly under another,
    found after it, is one beneath it: left out; sheets partly over each other are refused,
    ``VisionError(PLUSIEURS)``), in reading order, those cut at the edge after. Keypoints at
    ``FEATURE_SIDES[0]``, and at the next size where none was found or one was small at that
    size (under ``SMALL_SHEET`` pixels wide: its neighbours' labels may be too small)."""
    found: list[tuple | VisionError] = []
    for side in FEATURE_SIDES:
        found = _printed_sheets(img, gray, layout, side, memo)
        scale = min(1.0, side / max(gray.shape))
        widths = [scale * float(np.ptp(s[3][:, 0])) for s in found if isinstance(s, tuple)]
        if (widths and min(widths) >= SMALL_SHEET) or side >= max(gray.shape):
            break
    kept: list[tuple] = []
    for sheet in (s for s in found if isinstance(s, tuple)):
        shared = max((_overlap(sheet[3], other[3]) for other in kept), default=0.0)
        if shared > OVERLAP and shared <= BENEATH:  # laid over each other: which one was meant?
            raise VisionError(PLUSIEURS, "ils se chevauchent : posez-les côte à côte sans "
                                         "se recouvrir, ou un seul par photo")
        if shared <= BENEATH:
            kept.append(sheet)
    centres = [k[3].mean(0) for k in kept]
    heights = [float(np.ptp(k[3][:, 1])) for k in kept]
    pages: list[Page | VisionError] = [
        Page(kept[i][1], kept[i][2], "motifs", 0, kept[i][3]) for i in reading_order(centres, heights)
    ]
    return pages + [s for s in found if isinstance(s, VisionError)]


def find_page(img: np.ndarray, layout: Layout | None = None) -> Page:
    """Locate and rectify one bulletin; raise ``VisionError`` when no (or more than one)
    bulletin is seen, or when the only one is cut at the photo's edge."""
    found = find_pages(img, layout)
    pages = [p for p in found if isinstance(p, Page)]
    if len(pages) > 1:
        raise VisionError(PLUSIEURS, f"{len(pages)} bulletins : un seul par photo ici")
    if pages:
        return pages[0]
    if found:
        raise found[0]
    raise VisionError(NON_TROUVE)
