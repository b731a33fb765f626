"""The printed rules of a field, found where they really are, and erased without the pen.

After rectification a rule may lie a few pixels (a page not flat: several millimetres)
off where the layout puts it, and may bend. Each rule is therefore looked for near its
expected place, piece by piece along its length. Across a piece, a low percentile of the
ink picks the rule (it runs the whole piece) and ignores handwriting (a stroke crossing
it, a letter's bar beside it); parallel neighbours vote together (the rules of a combed
box move as one, the columns of the grid almost so), so that a "1" standing along a
separator is not taken for it. Then only the rule is erased: the pixels of its own
width whose ink the rule alone explains. A pen stroke lying on the rule is darker than
the rule and stays; where a stroke crosses the rule, the erased gap is bridged so that
the stroke stays whole.

Everything works on one field's ink-strength crop (1 = ink); rules are described as
horizontal, vertical ones by transposing the crop.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from .layout import Box4

#: the ink level of a rule across a piece: a low percentile, so that strokes covering
#: less than three quarters of the piece do not count
PERCENTILE = 25


@dataclass(frozen=True)
class Rule:
    """A printed rule of the layout, in crop pixels: ``across`` is the y of a horizontal rule."""

    across: float
    start: float
    end: float


@dataclass
class Profiles:
    """The ink across a rule, near its expected place, piece by piece along it."""

    lo: int  # first pixel along the rule (in the crop)
    hi: int
    mids: np.ndarray  # piece centres along, crop pixels
    base: int  # crop row of offset 0 of ``p``
    p: np.ndarray  # (pieces, offsets) low percentile of the ink across each piece


@dataclass
class FoundRule:
    """A rule as seen: its centre and its own ink at every pixel along it."""

    lo: int
    centre: np.ndarray  # float centre across, per pixel from ``lo``
    dark: np.ndarray  # the rule's own ink, per pixel
    half: float  # half-width of the rule
    seen: float  # share of the rule's pieces where it was found


def _gather(ink: np.ndarray, bases: np.ndarray, los: np.ndarray, length: int, span: int):
    """Windows of ``ink``: rows ``base .. base + span - 1`` × columns ``lo .. lo + length - 1``
    for each (base, lo); what lies outside the crop reads as paper. Shape (k, span, length)."""
    h, w = ink.shape
    out = np.zeros((len(bases), span, length), ink.dtype)
    for i, (b, lo) in enumerate(zip(bases.tolist(), los.tolist(), strict=True)):
        r0, r1 = max(b, 0), min(b + span, h)
        c0, c1 = max(lo, 0), min(lo + length, w)
        if r1 > r0 and c1 > c0:
            out[i, r0 - b : r1 - b, c0 - lo : c1 - lo] = ink[r0:r1, c0:c1]
    return out


def _stats(win: np.ndarray) -> np.ndarray:
    """The low percentile of each window row (along the rule)."""
    if win.shape[2] >= 24:  # every other pixel along the piece is plenty
        win = win[:, :, ::2]
    k = win.shape[2] * PERCENTILE // 100
    return np.partition(win, k, axis=2)[:, :, k]


def family_profiles(
    ink: np.ndarray, rules: list[Rule], search: int, pieces: int = 1
) -> list[Profiles]:
    """Profiles of parallel rules spanning the same length (a grid's or a comb's vertical
    rules, horizontal in the transposed ``ink``), in ``pieces`` pieces each (a rule may
    lean), gathered at once."""
    if not rules:
        return []
    lo = max(int(round(rules[0].start)), 0)
    hi = max(min(int(round(rules[0].end)), ink.shape[1]), lo + 1)
    length = max((hi - lo) // pieces, 1)
    los = lo + np.arange(pieces) * length
    bases = np.array([int(round(r.across)) - search for r in rules])
    win = _gather(ink, np.repeat(bases, pieces), np.tile(los, len(rules)), length, 2 * search + 1)
    p = _stats(win)
    mids = los + length / 2
    return [
        Profiles(lo, hi, mids, int(b), p[i * pieces : (i + 1) * pieces])
        for i, b in enumerate(bases)
    ]


def _smooth_along(p: np.ndarray, k: int, axis: int = 0) -> np.ndarray:
    """Each element summed with its ``k`` neighbours each side along ``axis`` (all of them
    when k < 0)."""
    if k < 0:
        return np.broadcast_to(p.sum(axis, keepdims=True), p.shape)
    if k == 0 or p.shape[axis] == 1:
        return p
    pad = [(0, 0)] * p.ndim
    pad[axis] = (k + 1, k)
    c = np.cumsum(np.pad(p, pad, mode="edge"), axis=axis)
    n = p.shape[axis]
    return np.take(c, np.arange(2 * k + 1, 2 * k + 1 + n), axis) - np.take(c, np.arange(n), axis)


def _peaks(p: np.ndarray, at: np.ndarray, reach: int) -> tuple[np.ndarray, np.ndarray]:
    """Sub-pixel peak of each row of ``p`` within ``reach`` of ``at``: (positions, heights)."""
    m = p.shape[1]
    r = np.arange(len(p))
    idx = np.clip(at[:, None] + np.arange(-reach, reach + 1)[None, :], 0, m - 1)
    k = idx[r, np.argmax(p[r[:, None], idx], axis=1)]
    left, right = p[r, np.clip(k - 1, 0, m - 1)], p[r, np.clip(k + 1, 0, m - 1)]
    top = p[r, k]
    den = left - 2 * top + right
    safe = np.where(den < 0, den, -1.0)
    off = np.where(den < 0, 0.5 * (left - right) / safe, 0.0)
    off = np.where((k > 0) & (k < m - 1), np.clip(off, -0.5, 0.5), 0.0)
    return k + off, top


def _half_widths(p: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Half the width of each row's peak at ``at`` where it stays above a quarter of its
    height (a blurred rule is wide: all of it must go)."""
    n = p.shape[1]
    r = np.arange(len(p))
    at = np.clip(at, 0, n - 1)
    below = p < 0.25 * p[r, at][:, None]
    idx = np.arange(n)[None, :]
    left = np.where(below & (idx < at[:, None]), idx, -1).max(axis=1)
    right = np.where(below & (idx > at[:, None]), idx, n).min(axis=1)
    return 0.5 * (right - left - 1)


def _strongest_peak(p: np.ndarray) -> np.ndarray:
    """Offset of each row's highest local maximum. Ink still rising at the search window's
    end is not a rule but whatever lies beyond it (a felt pen's 2 and 0 summed over a comb
    outweighed its true rules, and every rule was put the whole window off); among equal
    heights, the offset nearest the expected place (the window's middle)."""
    n = p.shape[1]
    if n < 3:
        return np.argmax(p, axis=1)
    peak = np.zeros(p.shape, bool)
    peak[:, 1:-1] = (p[:, 1:-1] >= p[:, :-2]) & (p[:, 1:-1] >= p[:, 2:])
    centred = p - 1e-9 * np.abs(np.arange(n) - (n - 1) / 2)[None, :]
    best = np.argmax(np.where(peak, centred, -np.inf), axis=1)
    return np.where(peak.any(axis=1), best, np.argmax(centred, axis=1))


def _seen_median(values: np.ndarray, seen: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per rule (row), the median of ``values`` over the pieces where the rule was ``seen``,
    and whether it was seen anywhere (where not, the median is meaningless)."""
    ordered = np.sort(np.where(seen, values, np.inf), axis=1)
    count = seen.sum(1)
    rows = np.arange(len(values))
    lo, hi = np.maximum((count - 1) // 2, 0), np.maximum(count // 2, 0)
    return 0.5 * (ordered[rows, lo] + ordered[rows, hi]), count > 0


def locate(
    family: list[Profiles],
    together: int,
    floor: float,
    along: bool = False,
    kinds: list[int] | None = None,
) -> list[FoundRule]:
    """Centres of a family of rules, each in as many pieces, whose places vary smoothly:
    each piece votes with the same piece of ``together`` neighbouring rules each side (-1:
    all, one shift for the family) — or, ``along``, with ``together`` neighbouring pieces of
    its own rule (a long rule bending with the page). ``kinds``: rules printed alike share
    the same kind (a comb's outer edges, its thinner separators): a rule's ink is not taken
    much darker than its kind's (a pen stroke lying along the whole of one)."""
    if not family:
        return []
    stack = np.stack([prof.p for prof in family])  # (rules, pieces, offsets)
    n_rules, n_pieces, n_off = stack.shape
    smooth = _smooth_along(stack, together, 1 if along else 0)
    flat = stack.reshape(-1, n_off)
    at = _strongest_peak(smooth.reshape(-1, n_off))
    pos, height = _peaks(flat, at, 2)
    seen = height >= floor
    place = np.where(seen, pos, at)
    r = np.arange(len(flat))
    k0 = np.floor(place).astype(int)
    # the rule's own ink: its darkest row, taken low along the piece (a pen stroke lying on
    # the rule over most of the piece must not count as the rule)
    dark_all = np.max([flat[r, np.clip(k0 + d, 0, n_off - 1)] for d in (-1, 0, 1, 2)], axis=0)
    half_all = _half_widths(flat, np.round(place).astype(int))
    family_half = float(np.median(half_all[seen])) if seen.any() else 1.2
    # per rule: pieces → every pixel along (all rules of a family span the same length)
    centres = (family[0].base + place).reshape(n_rules, n_pieces)
    centres += np.array([prof.base - family[0].base for prof in family], float)[:, None]
    darks = dark_all.reshape(n_rules, n_pieces)
    seen2 = seen.reshape(n_rules, n_pieces)
    # each rule's usual ink, where it was seen: a piece where it was not (under a thumb, in
    # its shadow) says nothing of it, and with two rules of a kind would cap the other's ink
    # (a table's bottom edge taken at 0.15 for 0.33 beside a thumb on the top one: not
    # erased, its remains joined a 7's foot, read 2)
    usual_dark, any_seen = _seen_median(darks, seen2)
    per_rule = np.where(any_seen, usual_dark, darks.min(axis=1))
    kinds_ = np.array(kinds if kinds is not None else [0] * n_rules)
    for kind in set(kinds_.tolist()):
        same = kinds_ == kind
        vals = per_rule[same]
        ref = float(np.median(vals)) if len(vals) >= 3 else float(vals.min())
        darks[same] = np.minimum(darks[same], ref + 0.1)
    # each rule's width: the median over the pieces where it was seen (else the family's)
    usual_half, _ = _seen_median(half_all.reshape(n_rules, n_pieces), seen2)  # seen where as above
    own = np.where(any_seen, usual_half, family_half)
    prof0 = family[0]
    along = np.arange(prof0.lo, prof0.hi, dtype=float)
    if n_pieces > 1:  # a piece covered by a stroke along the rule must not raise its ink
        darks = np.minimum(darks, np.median(darks, axis=1, keepdims=True) + 0.1)
        i1 = np.clip(np.searchsorted(prof0.mids, along), 1, n_pieces - 1)
        i0 = i1 - 1
        f = np.clip((along - prof0.mids[i0]) / (prof0.mids[i1] - prof0.mids[i0]), 0, 1)
        centre_px = centres[:, i0] * (1 - f) + centres[:, i1] * f
        dark_px = darks[:, i0] * (1 - f) + darks[:, i1] * f
    else:
        centre_px = np.repeat(centres, len(along), axis=1)
        dark_px = np.repeat(darks, len(along), axis=1)
    return [
        FoundRule(prof.lo, centre_px[i], dark_px[i], float(np.clip(own[i], 0.8, 5.0)),
                  float(seen2[i].mean()))
        for i, prof in enumerate(family)
    ]


def extend(family: list[FoundRule], lo: int, hi: int) -> list[FoundRule]:
    """The rules of ``family`` (same extent along) carried on to span ``lo .. hi - 1``, at
    their end's place and ink: a page rectified a few pixels off leaves a box's corners
    beyond the extent the layout gives its rules, and the rules must be erased there too
    (the top and bottom edges' ends, joined by the side edge's blurred fringe, read as a
    1 before a table's first digit: 72 read 172)."""
    if not family or len(family[0].centre) == 0:
        return family
    start, n = family[0].lo, len(family[0].centre)
    lo, hi = min(lo, start), max(hi, start + n)
    if (lo, hi) == (start, start + n):
        return family
    pad = (start - lo, hi - start - n)
    return [replace(f, lo=lo, centre=np.pad(f.centre, pad, mode="edge"),
                    dark=np.pad(f.dark, pad, mode="edge")) for f in family]


def _bands(family: list[FoundRule], h: int, extra: float):
    """Pixel rows about each rule of a family (same extent along): (rows clipped, columns,
    distance to the centre, inside the crop), each (rules, offsets, length)."""
    lo, n = family[0].lo, len(family[0].centre)
    centre = np.stack([f.centre for f in family])[:, None, :]
    half = np.array([f.half for f in family])[:, None, None]
    reach = int(np.ceil(max(f.half for f in family) + extra)) + 1
    offs = np.arange(-reach, reach + 1)[None, :, None]
    ys = np.round(centre).astype(int) + offs
    dist = np.abs(ys - centre)
    inside = (ys >= 0) & (ys < h)
    xs = np.broadcast_to(np.arange(lo, lo + n)[None, None, :], ys.shape)
    return np.clip(ys, 0, h - 1), xs, dist, inside, half


def erase_rules(
    ink: np.ndarray, family: list[FoundRule], margin: float, out: np.ndarray, band: np.ndarray
) -> None:
    """Mark in ``out`` the pixels of the rules themselves: within their width and no darker
    than the rule by more than ``margin`` (a pen on the rule is darker), and their faint
    fringe; mark in ``band`` all pixels within their width. The rules of ``family`` span
    the same extent along (they were located together)."""
    if not family or len(family[0].centre) == 0:
        return
    yc, xx, dist, inside, half = _bands(family, ink.shape[0], 2.5)
    val = ink[yc, xx]
    dark = np.stack([f.dark for f in family])[:, None, :]
    near = (dist <= half + 1.0) & inside
    core = (dist <= half + 1.5) & (val <= dark + margin) & inside
    fringe = (dist <= half + 2.5) & (val <= 0.75 * dark + 0.02) & inside
    gone = core | fringe
    out[yc[gone], xx[gone]] = True
    band[yc[near], xx[near]] = True


def bridge_rules(
    clean: np.ndarray, family: list[FoundRule], reach: int, out: np.ndarray, longest: float
) -> None:
    """Mark in ``out`` the erased gap where a stroke crosses a rule: pen ink (in ``clean``,
    the rules already erased) just beyond the rule on both sides, within ``reach`` px along
    it of each other (a slanted stroke). A crossing longer than ``longest`` px along the
    rule is two strokes lying along it on either side (two letters touching the rule), not
    one crossing it: it is left open."""
    if not family or len(family[0].centre) == 0:
        return
    h = clean.shape[0]
    lo, n = family[0].lo, len(family[0].centre)
    xs = np.arange(lo, lo + n)[None, :]
    centre = np.stack([f.centre for f in family])
    half = np.array([f.half for f in family])[:, None]
    top = np.clip(np.floor(centre - half).astype(int) - 2, 0, h - 1)
    bot = np.clip(np.ceil(centre + half).astype(int) + 2, 0, h - 1)
    above = clean[top, xs] > 0
    below = clean[bot, xs] > 0
    if not (above.any() and below.any()):
        return
    grow = np.ones((1, 2 * reach + 1), np.uint8)
    near_above = cv2.dilate(above.astype(np.uint8), grow) > 0
    near_below = cv2.dilate(below.astype(np.uint8), grow) > 0
    cross = (above & near_below) | (below & near_above)
    if not cross.any():
        return
    d = np.diff(np.pad(cross.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    for i, a in zip(*np.nonzero(d == 1), strict=True):
        b = a + int(np.argmax(d[i, a:] == -1))
        if b - a > longest:
            cross[i, a:b] = False
    yc, xx, dist, inside, hh = _bands(family, h, 1.0)
    rows = (dist <= hh + 2.0) & inside & cross[:, None, :]
    out[yc[rows], xx[rows]] = True


#: the least ink (low percentile across a piece) for a rule to count as seen there
RULE_FLOOR = 0.1
#: a stroke crossing a rule touches it over at most this length (cells, plus the pen):
#: longer, it is two letters touching the rule from either side, and they stay apart
BRIDGE_LONGEST = 0.35


def cell_edges(cells: list[tuple[int, int, Box4]]) -> tuple[list[int], list[int]]:
    xs = sorted({b[0] for _, _, b in cells} | {b[2] for _, _, b in cells})
    ys = sorted({b[1] for _, _, b in cells} | {b[3] for _, _, b in cells})
    return xs, ys


@dataclass
class RuleSet:
    """The rules of one field as found: horizontal (rows), vertical (columns), in crop pixels."""

    rows: list[FoundRule]
    cols: list[FoundRule]

    @staticmethod
    def _at(r: FoundRule, t: float) -> float:
        n = len(r.centre)
        return float(r.centre[min(max(round(t) - r.lo, 0), n - 1)]) if n else 0.0

    def row_at(self, i: int, x: float) -> float:
        return self._at(self.rows[i], x)

    def col_at(self, i: int, y: float) -> float:
        return self._at(self.cols[i], y)


def find_rules(
    sub: np.ndarray, xs: list[int], ys: list[int], cell: float, search: int, combed: bool
) -> RuleSet:
    """Where the field's printed rules really are (crop coordinates)."""
    x0, x1, y0, y1 = xs[0], xs[-1], ys[0], ys[-1]
    # horizontal rules: in pieces about a cell long, each voting with its neighbours
    along = max(1, round((x1 - x0) / cell))
    rows = locate(
        family_profiles(sub, [Rule(y, x0, x1) for y in ys], search, along), 1, RULE_FLOOR, True
    )
    # vertical rules: one piece each, voting with their neighbours (a combed box: all)
    pieces = max(1, min(3, round((y1 - y0) / (0.9 * cell))))  # a rule may lean (a page not flat)
    fam = family_profiles(sub.T, [Rule(x, y0, y1) for x in xs], search, pieces)
    # a comb's separators are printed thinner than its outer edges
    kinds = [int(combed and 0 < i < len(xs) - 1) for i in range(len(xs))]
    cols = locate(fam, -1 if combed else 2, RULE_FLOOR, kinds=kinds)
    # where the outer rules were found beyond the layout's place, the others reach them
    h, w = sub.shape
    rows = extend(rows, max(0, x0 + _shift(cols[0], x0)), min(w, x1 + _shift(cols[-1], x1)))
    cols = extend(cols, max(0, y0 + _shift(rows[0], y0)), min(h, y1 + _shift(rows[-1], y1)))
    return RuleSet(rows, cols)


def _offset(rule: FoundRule, expected: int) -> float | None:
    """How far (pixels) a rule was found from its expected place; None where it was not
    seen on most of its length."""
    if rule.seen < 0.5 or not len(rule.centre):
        return None
    return float(np.median(rule.centre)) - expected


def _shift(rule: FoundRule, expected: int) -> int:
    """:func:`_offset` in whole pixels, rounded outwards; 0 for a rule not seen."""
    d = _offset(rule, expected)
    if d is None:
        return 0
    return int(np.floor(d)) if d < 0 else int(np.ceil(d))


def bridge_crossings(
    sub: np.ndarray, clean: np.ndarray, rules: RuleSet, cell: float, low: float
) -> np.ndarray:
    """The ink without the printed rules (``clean``), strokes crossing them bridged."""
    bridged = np.zeros(clean.shape, bool)
    longest = BRIDGE_LONGEST * cell + 6
    bridge_rules(clean, rules.rows, 3, bridged, longest)
    bridge_rules(clean.T, rules.cols, 3, bridged.T, longest)
    out = clean.copy()
    out[bridged & (sub > low)] = 255
    return out


def cell_boxes(rules: RuleSet, cells: list[tuple[int, int, Box4]], xs: list[int], ys: list[int],
           origin: tuple[int, int]) -> dict[tuple[int, int], Box4]:
    """Each cell's box between the rules as found (crop coordinates)."""
    ox, oy = origin
    out = {}
    for r, c, (bx0, by0, bx1, by1) in cells:
        i0, i1 = xs.index(bx0 - ox), xs.index(bx1 - ox)
        j0, j1 = ys.index(by0 - oy), ys.index(by1 - oy)
        cy, cx = (by0 + by1) / 2 - oy, (bx0 + bx1) / 2 - ox
        out[(r, c)] = (
            round(rules.col_at(i0, cy)),
            round(rules.row_at(j0, cx)),
            round(rules.col_at(i1, cy)),
            round(rules.row_at(j1, cx)),
        )
    return out


#: an outer rule of a combed box found this close (pixels) to its search window's end
ASTRAY_END = 2


def rules_astray(rules: RuleSet, xs: list[int], ys: list[int], search: int) -> bool:
    """Whether the box's outer rules were found where a page rectified as far off as the
    search reaches leaves them (two fingers on two markers): one at its search window's
    end (it may lie beyond), one not seen, or two opposite edges moved apart by more than
    half the search (one of them is something else). The cut is then not to be trusted
    (76 read 16, the 7's bar erased with a top edge found at the crop's end, where its
    thickening could not be measured)."""
    if len(rules.rows) < 2 or len(rules.cols) < 2:
        return True
    pairs = ((rules.rows[0], ys[0], rules.rows[-1], ys[-1]), (rules.cols[0], xs[0], rules.cols[-1], xs[-1]))
    for a, at_a, b, at_b in pairs:
        da, db = _offset(a, at_a), _offset(b, at_b)
        if da is None or db is None:
            return True
        if max(abs(da), abs(db)) >= search - ASTRAY_END or abs(da - db) > search / 2:
            return True
    return False
