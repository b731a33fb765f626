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

from dataclasses import dataclass

import numpy as np

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
    median: np.ndarray  # (pieces, offsets) median of the ink across each piece


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


def _stats(win: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    n = win.shape[2]
    lo, mid = n * PERCENTILE // 100, n // 2
    part = np.partition(win, sorted({lo, mid}), axis=2)
    return part[:, :, lo], part[:, :, mid]


def rule_profiles(ink: np.ndarray, rule: Rule, search: int, piece: float) -> Profiles:
    """Profiles across one ``rule`` (horizontal in ``ink``), ``search`` px each side, by
    pieces of about ``piece`` px along it."""
    lo, hi = max(int(round(rule.start)), 0), min(int(round(rule.end)), ink.shape[1])
    hi = max(hi, lo + 1)
    n = hi - lo
    count = max(1, round(n / max(piece, 1)))
    length = max(n // count, 1)
    los = lo + np.arange(count) * length
    base = int(round(rule.across)) - search
    win = _gather(ink, np.full(count, base), los, length, 2 * search + 1)
    p, med = _stats(win)
    return Profiles(lo, hi, los + length / 2, base, p, med)


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
    p, med = _stats(win)
    mids = los + length / 2
    return [
        Profiles(lo, hi, mids, int(b), p[i * pieces : (i + 1) * pieces],
                 med[i * pieces : (i + 1) * pieces])
        for i, b in enumerate(bases)
    ]


def _smooth_along(p: np.ndarray, k: int) -> np.ndarray:
    """Each row summed with its ``k`` neighbours each side (all rows when k < 0)."""
    if k < 0:
        return np.broadcast_to(p.sum(0, keepdims=True), p.shape)
    if k == 0 or len(p) == 1:
        return p
    c = np.cumsum(np.pad(p, ((k + 1, k), (0, 0)), mode="edge"), axis=0)
    return c[2 * k + 1 :] - c[: -(2 * k + 1)]


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


def _half_width(prof: np.ndarray, at: int) -> float:
    """Half the width of the peak at ``at`` where it stays above a quarter of its height
    (a blurred rule is wide: all of it must go)."""
    at = min(max(at, 0), len(prof) - 1)
    level = 0.25 * prof[at]
    a = b = at
    while a > 0 and prof[a - 1] >= level:
        a -= 1
    while b < len(prof) - 1 and prof[b + 1] >= level:
        b += 1
    return 0.5 * (b - a + 1)


def locate(family: list[Profiles], together: int, floor: float) -> list[FoundRule]:
    """Centres of a family of rules whose places vary smoothly: one rule in pieces (each
    piece votes with ``together`` neighbours each side), or parallel rules in as many
    pieces each (each rule's piece votes with the same piece of ``together`` neighbouring
    rules; -1: all, one shift for the family)."""
    if not family:
        return []
    stack = np.stack([prof.p for prof in family])  # (rules, pieces, offsets)
    med = np.stack([prof.median for prof in family])
    n_rules, n_pieces, n_off = stack.shape
    if n_rules == 1:
        smooth = _smooth_along(stack[0], together)[None]
    else:
        smooth = np.stack(
            [_smooth_along(stack[:, k], together) for k in range(n_pieces)], axis=1
        )
    flat, flat_med = stack.reshape(-1, n_off), med.reshape(-1, n_off)
    at = np.argmax(smooth.reshape(-1, n_off), axis=1)
    pos, height = _peaks(flat, at, 2)
    seen = height >= floor
    place = np.where(seen, pos, at)
    r = np.arange(len(flat))
    k0 = np.floor(place).astype(int)
    # the rule's own ink: the darkest median within a pixel of its centre
    dark_all = np.max(
        [flat_med[r, np.clip(k0 + d, 0, n_off - 1)] for d in (-1, 0, 1, 2)], axis=0
    )
    half_all = np.array([_half_width(flat[i], int(round(place[i]))) for i in range(len(flat))])
    family_half = float(np.median(half_all[seen])) if seen.any() else 1.2
    out = []
    for i, prof in enumerate(family):
        sl = slice(i * n_pieces, (i + 1) * n_pieces)
        centre_pieces = prof.base + place[sl]
        dark_pieces = dark_all[sl]
        own = half_all[sl][seen[sl]]
        half = float(np.median(own)) if len(own) else family_half
        along = np.arange(prof.lo, prof.hi)
        if n_pieces > 1:  # a piece covered by a stroke along the rule must not raise its ink
            dark_pieces = np.minimum(dark_pieces, np.median(dark_pieces) + 0.1)
            centre = np.interp(along, prof.mids, centre_pieces)
            dark = np.interp(along, prof.mids, dark_pieces)
        else:
            centre = np.full(len(along), float(centre_pieces[0]))
            dark = np.full(len(along), float(dark_pieces[0]))
        out.append(
            FoundRule(prof.lo, centre, dark, float(np.clip(half, 0.8, 5.0)), float(seen[sl].mean()))
        )
    return out


def _band(found: FoundRule, h: int, extra: float):
    n = len(found.centre)
    xs = np.arange(found.lo, found.lo + n)
    reach = int(np.ceil(found.half + extra)) + 1
    offs = np.arange(-reach, reach + 1)
    ys = np.round(found.centre)[None, :].astype(int) + offs[:, None]
    dist = np.abs(ys - found.centre[None, :])
    inside = (ys >= 0) & (ys < h)
    return np.clip(ys, 0, h - 1), np.broadcast_to(xs[None, :], ys.shape), dist, inside


def erase_rule(
    ink: np.ndarray, found: FoundRule, margin: float, out: np.ndarray, band: np.ndarray
) -> None:
    """Mark in ``out`` the pixels of the rule itself: within its width and no darker than
    the rule by more than ``margin`` (a pen on the rule is darker), and its faint fringe;
    mark in ``band`` all pixels within its width."""
    if len(found.centre) == 0:
        return
    yc, xx, dist, inside = _band(found, ink.shape[0], 2.5)
    val = ink[yc, xx]
    dark = found.dark[None, :]
    near = (dist <= found.half + 1.0) & inside
    core = (dist <= found.half + 1.5) & (val <= dark + margin) & inside
    fringe = (dist <= found.half + 2.5) & (val <= 0.75 * dark + 0.02) & inside
    gone = core | fringe
    out[yc[gone], xx[gone]] = True
    band[yc[near], xx[near]] = True


def bridge_rule(
    clean: np.ndarray, found: FoundRule, reach: int, out: np.ndarray, longest: float
) -> None:
    """Mark in ``out`` the erased gap where a stroke crosses the rule: pen ink (in ``clean``,
    the rules already erased) just beyond the rule on both sides, within ``reach`` px along
    it of each other (a slanted stroke). A crossing longer than ``longest`` px along the
    rule is two strokes lying along it on either side (two letters touching the rule), not
    one crossing it: it is left open."""
    h = clean.shape[0]
    n = len(found.centre)
    if n == 0:
        return
    xs = np.arange(found.lo, found.lo + n)
    top = np.clip(np.floor(found.centre - found.half).astype(int) - 2, 0, h - 1)
    bot = np.clip(np.ceil(found.centre + found.half).astype(int) + 2, 0, h - 1)
    above = clean[top, xs] > 0
    below = clean[bot, xs] > 0
    k = np.ones(2 * reach + 1)
    cross = (above & (np.convolve(below, k, "same") > 0)) | (
        below & (np.convolve(above, k, "same") > 0)
    )
    if not cross.any():
        return
    d = np.diff(np.concatenate([[0], cross.astype(np.int8), [0]]))
    for a, b in zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1), strict=True):
        if b - a > longest:
            cross[a:b] = False
    yc, xx, dist, inside = _band(found, h, 1.0)
    rows = (dist <= found.half + 2.0) & inside & cross[None, :]
    out[yc[rows], xx[rows]] = True
