"""Pen strokes lying on the printed rules.

Erasing a rule may take with it the part of a stroke that lay on it: the bar of a 7 on
its box's top edge, a 1 drawn along the table's first edge or along a separator. Here
such ink is found (a rule thicker, darker or of another colour than its neighbours
along a character's run) and either given back to the glyph it touches or reported as
a stroke the cut may have lost, for the reader to doubt the field.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import cv2
import numpy as np

from .comb import ONE_WIDTH
from .ink import robust
from .rules import FoundRule, RuleSet

if TYPE_CHECKING:
    from .fields import Glyph


#: a number's glyph whose top lies this many tenths of a cell under its box's thickened top
#: edge may have lost what it drew on the rule (a slanted 8's upper loop, erased with the
#: rule's width: its top left 6 pixels under the edge, the rest read 0)
EDGE_ERASED = 2


def glyph_with_edge(crop: np.ndarray, xs: np.ndarray, ys: np.ndarray, edge: EdgeInk) -> np.ndarray:
    """The glyph's crop with the thickened edge's ink over it given back, at the strength of
    its strokes: what the character looked like before the rule was erased under it."""
    ey, ex = edge.ys, edge.xs
    gx0, gy0 = int(xs.min()), int(ys.min())
    x0, y0 = min(gx0, int(ex.min())), min(gy0, int(ey.min()))
    x1 = max(gx0 + crop.shape[1], int(ex.max()) + 1)
    y1 = max(gy0 + crop.shape[0], int(ey.max()) + 1)
    whole = np.zeros((y1 - y0, x1 - x0), np.float32)
    whole[gy0 - y0 : gy0 - y0 + crop.shape[0], gx0 - x0 : gx0 - x0 + crop.shape[1]] = crop
    strength = float(np.median(crop[crop > 0])) if np.any(crop > 0) else 1.0
    whole[ey - y0, ex - x0] = np.maximum(whole[ey - y0, ex - x0], strength)
    return whole


class EdgeInk(NamedTuple):
    """A box's top edge thickened over a glyph (see :func:`thick_edge_above`)."""

    ys: np.ndarray  # the edge's ink in the thickened columns over the glyph
    xs: np.ndarray
    reaches: bool  # the glyph's top within a tenth of a cell of the edge
    across: bool  # the thickening rises above the edge's usual top too: a stroke across it


def _edge_strip(
    mask: np.ndarray, top: tuple[int, int, int], ys: np.ndarray, cell: float,
    row: tuple[int, int] | None, below: int,
) -> tuple[np.ndarray, int, int] | None:
    """The ink of a box's top edge where a glyph nears it: a strip a tenth of a cell (3 px at
    least, ``reach``) each side of the edge's row, along the whole row of boxes (``row``) or
    the glyph's own span; with its first column and ``reach``. None where the glyph's top lies
    more than ``below`` reaches under the edge, or the strip leaves the crop."""
    x0, y0, x1 = top
    reach = max(3, int(round(cell * 0.1)))
    if ys.min() > y0 + below * reach or y0 - reach < 0:
        return None
    a, z = (min(row[0], x0), max(row[1], x1)) if row else (x0, x1)
    a = max(a, 0)
    strip = mask[y0 - reach : y0 + reach + 1, a:z] > 0
    return None if strip.size == 0 else (strip, a, reach)


def _runs_through_rule(strip: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """A horizontal rule's row in a strip of ink around it (the row with most ink), and per
    column the unbroken ink from that row upwards and downwards (the row counted in both):
    the rule's own thickness there, and whatever stroke lies on it."""
    c = int(np.argmax(strip.sum(1)))
    down = np.cumprod(strip[c:], axis=0).sum(0)
    up = np.cumprod(strip[c::-1], axis=0).sum(0)
    return c, up, down


def _long_run(columns: np.ndarray, run: int) -> bool:
    """Whether ``columns`` holds ``run`` true values in a row."""
    counts = np.convolve(columns.astype(np.float32), np.ones(run), "valid")
    return bool(counts.size and counts.max() >= run)


def thick_edge_above(
    mask: np.ndarray, top: tuple[int, int, int], xs: np.ndarray, ys: np.ndarray, cell: float,
    row: tuple[int, int] | None = None, below: int = 1, bar: bool = False, underside: bool = False,
) -> EdgeInk | None:
    """Where the glyph nears its box's top edge and the printed edge is thicker than
    along the rest of its row of boxes (``row``: their extent; the cell's own edge without
    it): a stroke (the bar of a 7) merged into the rule. Not the cell's edge alone: a bar
    lying along more than half of it is its usual thickness there (71 in colour ink, the 7's
    bar on the edge over 28 of the cell's 50 pixels: 11, sure). The edge's ink in the
    thickened columns over the glyph is what the rule's erasing may have taken from it.
    None where the glyph's top lies more than ``below`` tenths of a cell under the edge
    (two for a loop drawn on the rule, whose erasing took the rule's width with it), or the
    edge is not so thickened. ``across``: along as long a run, the ink also rises above the
    edge's usual top, a stroke drawn across the rule (a glyph's top merely touching the edge
    from below thickens it downwards only). ``bar`` (a number's glyph): where nothing is so
    thickened, a row more along the rule's top over as long a run, a thin bar lying on it,
    is found too, as an edge the glyph reaches and no stroke across it; with ``underside``
    (the table's glyphs), a row more along its underside too."""
    found = _edge_strip(mask, top, ys, cell, row, below)
    if found is None:
        return None
    strip, a, reach = found
    y0 = top[1]
    # per column, the length of the unbroken ink run through the rule's row: a stroke just
    # under the rule leaves a paper gap, a stroke lying on it makes the rule thicker
    c, up, down = _runs_through_rule(strip)
    thick = np.where(strip[c], down + up - 1, 0).astype(np.float32)
    printed = thick[thick > 0]
    if printed.size == 0:
        return None
    usual = float(np.median(printed))
    lo, hi = max(int(xs.min()) - a, 0), int(xs.max()) - a + 1
    above = thick[lo:hi]
    run = int(0.15 * cell)
    if above.size < run or run < 1:
        return None
    high = up[lo:hi] >= float(np.median(up[strip[c]])) + 1
    thicker = above >= usual + 2
    thin = bar and not _long_run(thicker, run)
    if thin:
        # a thin bar lying along the rule adds a single row to it (176 in pencil, the 7's
        # bar on the edge: its stem alone read 1, 116 at 0.975): enough to say the glyph
        # reaches the edge, too little to give back as a stroke across it. Along the
        # underside, the row may as well be a digit's top touching the rule (a score's 1,
        # on the benches): only the table, which no move checks, takes it (79 in ink, the
        # 7's bar one row under the edge, the stem slanting from its end: 19 at 0.974)
        thicker = (above >= usual + 1) & (high | underside)
    if not _long_run(thicker, run):
        return None
    rises = thicker & high
    across = not thin and _long_run(rises, run)
    ey, ex = [], []
    for j in np.flatnonzero(thicker) + lo:  # each thickened column's run through the rule
        rows_ = np.arange(c - up[j] + 1, c + down[j])
        ey.append(rows_ + y0 - reach)
        ex.append(np.full(rows_.size, j + a))
    reaches = ys.min() <= y0 + reach or _ink_down_to(mask, np.flatnonzero(thicker) + lo + a,
                                                     y0 + reach, int(ys.min()))
    return EdgeInk(np.concatenate(ey), np.concatenate(ex), bool(reaches), bool(across))


def thick_edge_below(
    mask: np.ndarray, bottom: tuple[int, int, int], xs: np.ndarray, ys: np.ndarray, cell: float,
    row: tuple[int, int] | None = None,
) -> EdgeInk | None:
    """:func:`thick_edge_above` for the box's bottom edge (the ink map upside down): a
    stroke lying on it went with it when it was erased (143 written low in light violet,
    the 4's bar on the bottom edge: its two strokes alone read 1, 113 at 0.98). ``bottom``:
    the edge's row and the glyph's column range, as ``top``; ``reaches``: the glyph's
    bottom within a tenth of a cell of the edge."""
    last = mask.shape[0] - 1
    x0, y1, x1 = bottom
    edge = thick_edge_above(mask[::-1], (x0, last - y1, x1), xs, last - ys, cell, row)
    return None if edge is None else edge._replace(ys=last - edge.ys)


def tinted_edge_above(
    tint: np.ndarray, mask: np.ndarray, top: tuple[int, int, int], xs: np.ndarray, ys: np.ndarray,
    cell: float, row: tuple[int, int] | None = None, below: int = 1,
) -> EdgeInk | None:
    """Where a coloured stroke lies exactly on the box's top edge over the glyph (a violet
    7's bar drawn along the edge, as thin as it: no thicker, only tinted; erased with it, the
    upright alone read 1, 107 read 101), the edge's ink in the tinted columns, as
    :func:`thick_edge_above` gives it for a thickened edge. ``tint``: the colour (max − min
    of the channels) of the crop ``mask`` is the ink of; a column is tinted where the rule's
    own pixels there are more coloured than along the rest of its row of boxes by ``TINT``,
    and than just under the rule (not a digit's top touching it from below, its colour
    bleeding into the rule), over 0.15 of a cell under the glyph."""
    found = _edge_strip(mask, top, ys, cell, row, below)
    if found is None:
        return None
    strip, a, reach = found
    y0, z = top[1], a + strip.shape[1]
    c, up, down = _runs_through_rule(strip)
    along = strip[c]
    run = int(0.15 * cell)
    if along.sum() < 4 or run < 1:
        return None
    # the rule's inner rows, as along the rest of the row: not a digit's stroke touching it
    # from below (its colour runs into the rule's edge, and its ink joins the rule's run)
    first = c - int(np.median(up[along])) + 2
    last = c + int(np.median(down[along])) - 2
    if last < first:
        first = last = c
    colour = tint[y0 - reach + first : y0 - reach + last + 1, a:z].max(axis=0).astype(np.float32)
    # … and under the rule: a stroke lying on it is more coloured there than under it; a
    # digit's top under the rule is the other way round, its colour fading into the rule
    under = tint[y0 - reach + last + 2 : y0 - reach + last + 4, a:z]
    under = under.max(axis=0).astype(np.float32) if under.shape[0] else np.zeros_like(colour)
    printed = colour[along]
    usual, spread = robust(printed)
    lo, hi = max(int(xs.min()) - a, 0), int(xs.max()) - a + 1
    tinted = along[lo:hi] & (colour[lo:hi] > usual + max(TINT, 4 * spread)) & (colour[lo:hi] >= under[lo:hi])
    if not _long_run(tinted, run):
        return None
    ey, ex = [], []
    for j in np.flatnonzero(tinted) + lo:
        r_ = np.arange(first - 1, last + 2)
        ey.append(r_ + y0 - reach)
        ex.append(np.full(r_.size, j + a))
    return EdgeInk(np.concatenate(ey), np.concatenate(ex), True, True)


def _ink_down_to(mask: np.ndarray, columns: np.ndarray, y: int, top: int) -> bool:
    """Whether one of ``columns`` holds unbroken ink from row ``y`` down to row ``top``: a
    glyph whose top the rule's erasing cut a little further down than the edge's reach is
    still joined to the thickened edge (170 in pencil, the 7's faint bar erased with the
    edge and the upright's top one pixel further: 110, sure)."""
    if top <= y or len(columns) == 0:
        return False
    return bool(np.any(np.all(mask[y : top + 1, columns] > 0, axis=0)))


#: a stroke counts as lying on a printed rule when the rule is thicker than usual along at
#: least this share of a cell (a digit's upright), or a thin piece that long was taken for it
HIDDEN_RUN = 0.3
#: … or starting this close (share of a cell) with an upright on its left side over this
#: share of its height, within this share of its width: a 1 just inside the edge, glued to
#: the next digit (143 read 43, the 1 and the 4 an H, 3.5 px inside the edge, the 4 at 0.99;
#: 191 read 91, the 1 glued to the 9, over 0.71 of its height; the benches' first digits
#: that close to the edge have 0.53 at most)
UPRIGHT_GAP = 0.1
UPRIGHT_SPAN = 0.65
UPRIGHT_STRIP = 0.15
#: … or darker than the box's other outer edge by this much ink along as long a run (a
#: pencil 1 drawn on the edge: 0.5 against 0.38; a 1 on a darker edge: 0.62-0.69 against
#: 0.54, the other edge within 0.04 of it)
DARKER_EDGE = 0.08
#: the first character starting closer than this (share of a cell) to the box's left edge
#: touches it: a 1 on the edge may have been erased with it or merged into that character
EDGE_GAP = 0.04
#: a rule whose colour (max − min of its channels, 0–255) exceeds the box's right edge's by
#: this much carries a coloured pen stroke
TINT = 25


def _run_width(raw: np.ndarray, rule: FoundRule) -> np.ndarray:
    """Per pixel along a vertical rule, the width of the ink run through its centre."""
    return _widths(run_sides(raw, rule))


def _widths(sides: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The run widths of a rule from its :func:`run_sides` (the centre counted once)."""
    left, right = sides
    return np.maximum(left + right - 1, 0)


def _left_upright(image: np.ndarray) -> bool:
    """Whether a glyph wider than a 1 has an upright on its left side over ``UPRIGHT_SPAN``
    of its height: a 1 glued to the digit after it (14 drawn as an H, read 4)."""
    h, w = image.shape
    if w < ONE_WIDTH * h:
        return False  # a 1 itself
    strip = image[:, : max(2, int(round(UPRIGHT_STRIP * w)))] > 0.5
    return bool(strip.any(1).mean() >= UPRIGHT_SPAN)


def _rule_darkness(ink: np.ndarray, rule: FoundRule) -> np.ndarray:
    """Per pixel along a vertical rule, the darkest ink across its width: a pencil stroke on
    the rule darkens it without widening it."""
    h, w = ink.shape
    reach = int(np.ceil(rule.half)) + 1
    out = np.zeros(len(rule.centre), np.float32)
    for k, c in enumerate(rule.centre):
        y, x = rule.lo + k, int(round(float(c)))
        if 0 <= y < h:
            span = ink[y, max(0, x - reach):min(w, x + reach + 1)]
            out[k] = float(span.max()) if span.size else 0.0
    return out


def stroke_on_rule_before(
    out: dict, pieces: dict, stats: np.ndarray, raw: np.ndarray, ink: np.ndarray,
    on_rule: np.ndarray, rules: RuleSet, cell: float, min_area: int,
) -> bool:
    """Whether a vertical rule left of the field's first character carries a pen stroke: the
    rule thicker than the box's other outer edge over a digit's length, or a thin piece along
    it taken for what was left of the rule. A leading 1 lying on the box's edge is lost there;
    with neither, no digit can hide before the first one read."""
    if len(rules.cols) < 2:
        return True  # the rules were not found: nothing tells
    used = [lab for rc in out for lab, _ in pieces.get(rc, ())]
    first = min(int(stats[lab, cv2.CC_STAT_LEFT]) for lab in used)
    usual_edge = float(np.median(_run_width(raw, rules.cols[-1])))
    run = max(2, int(HIDDEN_RUN * cell))
    edge = rules.cols[0]
    if len(edge.centre) and first <= float(np.median(edge.centre)) + edge.half + EDGE_GAP * cell:
        return True  # the number starts on the box's edge or outside it: a 1 may be merged
    if len(edge.centre) and first <= float(np.median(edge.centre)) + edge.half + UPRIGHT_GAP * cell:
        lead = out[min(out, key=lambda rc: rc[1])]
        if _left_upright(lead.image):
            return True  # a 1 written just inside the edge, touching the digit after it
    for i, rule in enumerate(rules.cols[:-1]):
        x = float(np.median(rule.centre)) if len(rule.centre) else 0.0
        if x >= first:
            break
        widths = _run_width(raw, rule)
        # a separator's own width, not its median: a 1 drawn along it over most of its length
        # makes the median the stroke's (175 written off the boxes, the 1 on the separator
        # before the 7: 5 px along it, the printed separator 3)
        usual = usual_edge if i == 0 else min(float(np.median(widths)), 2 * rule.half)
        if _long_run(widths >= usual + max(2.0, 0.5 * usual), run):
            return True
        if i == 0:  # a pencil 1 on the outer edge darkens it without widening it (159 read 59)
            usual_dark = float(np.median(_rule_darkness(ink, rules.cols[-1])))
            if _long_run(_rule_darkness(ink, rule) >= usual_dark + DARKER_EDGE, run):
                return True
        along = 0  # pieces dropped as the rule's remains: one a digit's length, or on the
        for lab in range(1, len(stats)):  # solid outer edge, a 1 broken along it (150 → 50)
            sx, _, sw, sh, area = (int(v) for v in stats[lab, :5])
            if (area >= min_area and on_rule[lab] > 0.8 * area and area < 2.5 * max(sw, sh)
                    and sx <= x + 3 and sx + sw >= x - 3):
                if sh >= HIDDEN_RUN * cell:
                    return True
                along += sh if i == 0 else 0
        if along >= HIDDEN_RUN * cell:
            return True
    return False


#: a digit this close (share of a cell) to a separator that carries a stroke may be the one
#: that lost it
SEPARATOR_NEAR = 0.25
#: a separator carries a stroke where its ink runs at least this wide (share of a cell) and
#: at most this wide across it: a dashed separator's own ink comes and goes under a tenth of
#: a cell, a digit written across it spans a cell's half or more
SEPARATOR_STROKE = (0.08, 0.4)


def beside_stroked_separator(
    out: dict, pieces: dict, stats: np.ndarray, rules: RuleSet, sides: list, cell: float,
) -> set[tuple[int, int]]:
    """The cells whose digit comes near a separator of the box inked a pen stroke's width
    across (``SEPARATOR_STROKE``, and wider than the box's thinnest separator) over a
    digit's length: a stroke drawn along it went with it when it was erased (136 in light
    violet, the 6's stem along the dashed separator: its loop alone read 0, 130 at 0.98).
    Either neighbour may have lost it: both are doubtful. A digit merely touching the
    separator thickens it over a few pixels, not a digit's length. So for the box's right
    edge, 2 pixels thicker than its left edge (199 written freely, the last 9's stem along
    the edge: 190 at 0.97); the left edge is the leading 1's (``stroke_on_rule_before``).
    ``sides``: :func:`run_sides` of each of ``rules.cols``."""
    if len(rules.cols) < 3 or not out:
        return set()

    def usual(widths: np.ndarray) -> float | None:
        inside = widths[widths < cell]
        return float(np.median(inside)) if inside.size else None

    checks = []  # (rule, its ink's width row by row, the least and most a stroke adds)
    seps = rules.cols[1:-1]
    widths = [_widths(side) for side in sides[1:-1]]
    medians = [m for m in map(usual, widths) if m is not None]
    if medians:
        low = max(min(medians) + 2.0, SEPARATOR_STROKE[0] * cell)
        checks += [(rule, w, low, SEPARATOR_STROKE[1] * cell)
                   for rule, w in zip(seps, widths, strict=True)]
    edge = usual(_widths(sides[0]))
    if edge is not None:
        checks.append((rules.cols[-1], _widths(sides[-1]), edge + 2.0,
                       edge + SEPARATOR_STROKE[1] * cell))
    run = max(2, int(HIDDEN_RUN * cell))
    spans = {}
    for rc in out:
        labs = [lab for lab, _ in pieces.get(rc, [])]
        if labs:
            lefts = stats[labs, cv2.CC_STAT_LEFT].astype(int)
            spans[rc] = (int(lefts.min()), int((lefts + stats[labs, cv2.CC_STAT_WIDTH]).max()))
    found = set()
    for rule, w, low, high in checks:
        if not _long_run((w >= low) & (w <= high), run):
            continue
        x = float(np.median(rule.centre))
        found |= {rc for rc, (a, b) in spans.items()
                  if a - SEPARATOR_NEAR * cell <= x <= b + SEPARATOR_NEAR * cell}
    return found


#: a separator carries a stroke along a digit where its ink runs this many pixels wider than
#: its usual width over this share of a cell, unbroken
SEPARATOR_WIDER = 2
SEPARATOR_ALONG = 0.15


def strokes_on_separators(
    out: dict, rules: RuleSet, sides: list, cell: float, offset: tuple[int, int],
) -> dict[tuple[int, int], np.ndarray]:
    """Each table digit beside a separator widened over a stretch of the digit's height, seen
    with that ink given back: a stroke drawn along the rule went with it when it was erased
    (166 in pencil, the last 6's stem along the separator: its loop and lead-in read 5 at
    0.97, 165). Shorter than ``HIDDEN_RUN``, which :func:`beside_stroked_separator` doubts
    outright; the reader reads the digit again. Either neighbour may have drawn it (the
    side the run reaches further tells nothing: the stem straddles the rule). Not the box's
    outer edges: a digit touching the right edge (a 0's side) would lose its sureness there.
    ``sides``: :func:`run_sides` of each of ``rules.cols``."""
    found: dict[tuple[int, int], np.ndarray] = {}
    if len(rules.cols) < 3 or not out:
        return found
    run = max(2, int(round(SEPARATOR_ALONG * cell)))
    for rule, (left, right) in zip(rules.cols[1:-1], sides[1:-1], strict=True):
        if not len(rule.centre):
            continue
        widths = _widths((left, right))
        inside = widths[widths < cell]
        if not inside.size:
            continue
        usual = float(np.median(inside))
        wide = (widths >= usual + SEPARATOR_WIDER) & (widths <= SEPARATOR_STROKE[1] * cell)
        x = float(np.median(rule.centre))
        for rc, g in out.items():
            if g.with_edge is not None or rc in found:
                continue
            gx0, gy0 = g.origin[0] - offset[0], g.origin[1] - offset[1]
            gh, gw = g.image.shape
            if not gx0 - SEPARATOR_NEAR * cell <= x <= gx0 + gw + SEPARATOR_NEAR * cell:
                continue
            lo, hi = max(gy0 - rule.lo, 0), min(gy0 + gh - rule.lo, len(widths))
            rows = np.flatnonzero(wide[lo:hi]) + lo if hi > lo else np.array([], int)
            if rows.size < run or _longest_run(rows) < run:
                continue
            ys, xs = _run_pixels(rule, rows, left, right)
            if ys.size:
                found[rc] = glyph_with_edge(g.image, np.array([gx0]), np.array([gy0]),
                                       EdgeInk(ys, xs, True, True))
    return found


def run_sides(raw: np.ndarray, rule: FoundRule) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel along a vertical rule, how far the ink run through its centre reaches
    left and right of it (the centre pixel counted on both sides: 0 where it is paper)."""
    h, w = raw.shape
    left = np.zeros(len(rule.centre), np.int32)
    right = np.zeros(len(rule.centre), np.int32)
    for k, c in enumerate(rule.centre):
        y, x = rule.lo + k, int(round(float(c)))
        if 0 <= y < h and 0 <= x < w and raw[y, x]:
            back, ahead = raw[y, x::-1], raw[y, x:]
            left[k] = len(back) if back.all() else int(np.argmin(back))
            right[k] = len(ahead) if ahead.all() else int(np.argmin(ahead))
    return left, right


def _longest_run(rows: np.ndarray) -> int:
    """The longest stretch of consecutive values in sorted ``rows``."""
    breaks = np.flatnonzero(np.diff(rows) != 1)
    edges = np.concatenate(([0], breaks + 1, [rows.size]))
    return int(np.diff(edges).max())


def _run_pixels(
    rule: FoundRule, rows: np.ndarray, left: np.ndarray, right: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """The ink pixels of the run through a vertical rule's centre at each of ``rows``
    (indices along the rule), as (ys, xs)."""
    ys, xs = [], []
    for k in rows:
        if left[k] == 0:
            continue
        y, x = rule.lo + int(k), int(round(float(rule.centre[k])))
        xs += range(x - int(left[k]) + 1, x + int(right[k]))
        ys += [y] * (int(left[k]) + int(right[k]) - 1)
    return np.asarray(ys, int), np.asarray(xs, int)


#: a number's glyph with this share of its ink within a rule's reach lies along the rule
ALONG_RULE = 0.9


def along_rules(out: dict, pieces: dict, stats: np.ndarray, on_rule: np.ndarray) -> set[tuple[int, int]]:
    """The cells whose glyph lies along a printed rule, nearly all its ink within the rule's
    reach: what the erasing left of the rule (a reflection on the page widened the box's left
    edge: a line of its remains, 3 pixels wide and the box's height, read 1, 73 read 173 at
    0.98), or a 1 written on it. Either way the arbiter looks."""
    found = set()
    for rc in out:
        labs = [lab for lab, _ in pieces.get(rc, [])]
        area = float(stats[labs, cv2.CC_STAT_AREA].sum()) if labs else 0.0
        if area and float(on_rule[labs].sum()) >= ALONG_RULE * area:
            found.add(rc)
    return found


def coloured_rule_before(bgr: np.ndarray, comb: dict[int, Glyph], cells: list, cell: float) -> bool:
    """Whether a vertical rule of a numbered box, left of its first character, is coloured
    over a digit's length: a violet or blue 1 lying exactly on the box's black edge neither
    thickens it nor shows in the ink map, but it tints it (135 read 35, sure). The box's
    right edge, which no digit precedes, is the measure of a rule's own colour."""
    if not comb:
        return False
    first = min(g.origin[0] for g in comb.values())
    boxes = [b for _, _, b in cells]
    y0, y1 = boxes[0][1], boxes[0][3]
    reach = max(2, int(round(0.08 * cell)))  # the rule's width and the rectification's slack

    def chroma_along(x: int) -> np.ndarray:
        strip = bgr[y0:y1, max(x - reach, 0) : x + reach + 1].astype(np.int16)
        if strip.size == 0:
            return np.zeros(0)
        return (strip.max(axis=2) - strip.min(axis=2)).max(axis=1).astype(np.float32)

    usual = chroma_along(boxes[-1][2])
    if usual.size < 4:
        return False
    level, spread = robust(usual)
    run = max(2, int(HIDDEN_RUN * cell))
    for x in (b[0] for b in boxes):  # the left edge, then the separators
        if x >= first:
            break
        if _long_run(chroma_along(x) > level + max(TINT, 4 * spread), run):
            return True
    return False
