"""Stage 3: cut the fields of a rectified bulletin into per-cell glyphs.

Ink is measured against a local paper estimate (shadows and uneven light cancel
out), with thresholds that follow the photo's noise and the pen's own contrast
(pencil). The printed rules are found where they really are and erased without
the pen strokes lying on or crossing them (``rules``). In the grid, each stroke
goes to the cell holding its centre — a letter written across a cell line stays
whole — and letters touching across a rule are cut on it. In the combed boxes
(table, reference, score) the characters are taken as written, whatever the
comb: strokes are grouped into characters and touching digits cut apart.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from itertools import groupby, pairwise
from typing import NamedTuple

import cv2
import numpy as np

from engine.board import SIZE

from .layout import Box, Layout, to_px
from .rules import FoundRule, Rule, bridge_rules, erase_rules, extend, family_profiles, locate
from .template import render_page

INK_THRESHOLD = 0.28
#: hysteresis for faint strokes (thin ballpoint, light or blurred writing): a stroke whose
#: pixels are mostly under ``INK_THRESHOLD`` is kept whole down to ``LOW_INK`` when it
#: holds a few pixels above ``SEED_INK``
LOW_INK = 0.13
SEED_INK = 0.2
HYSTERESIS = True
#: weight of the most contrasted colour channel in the ink map (0: grey only)
COLOUR_INK = 1.0
#: a trace this strong (small average over its 15×15 surroundings; lower on clean paper)
#: and as tall as a letter makes an empty cell doubtful
FAINT_INK = 0.06
#: … or this share of that strength, in one trace this share of a cell tall: a hair-thin
#: stroke of a fine ballpoint, its middle under the level (11 read 1, the first 1 a trace
#: 0.52 of a cell tall at 0.05, 0.16 at 0.06; empty cells beside it show nothing at 0.03)
FAINT_THIN = 0.8
FAINT_TALL = 0.45
#: specks of a faint trace this share of a cell apart are one stroke
TRACE_GAP = 0.1
#: an empty cell of a number's comb whose brightest 1 % of local contrast stands this many
#: paper noise spreads high holds a digit dissolved in the grain, whose specks no longer
#: join into a trace (102 read 2 in dark pencil on curled paper: its 1 and 0 at 3.0; empty
#: cells of fields read right and unflagged, 3,000 of them in bench and stress photos, stay
#: under 2.1 but one, at 4.4, beside a wide 4)
GRAIN_TRACE = 2.5
#: an empty cell of the grid whose mean ink exceeds the other cells' by this much (and by
#: far more than they differ) holds a letter too pale to trace
CELL_EXCESS = 0.004
#: on a grid where nothing was cut, a cell is lit when this share of its pixels stands three
#: noise spreads out of its surroundings (and far out of the other cells' share): a 2H pencil
#: in a grainy photo leaves broken traces no threshold joins into a letter
PALE_SHARE = 0.01
#: … and two lit cells side by side in a row are a word too pale to cut (a word fills
#: adjacent cells; noise and the residue of a rule do not light a short run)
PALE_RUN = 2
#: on a grid where nothing was cut, the word row's cells against the same columns of the
#: rows beside it: a run of columns darker by this many noise spreads (summed over the run)
#: holds a word too pale to light any one cell (700 photos of blank bulletins, normal, dim,
#: blurred, curled, stay under it, dim ones up to 7.6; the pencils lighter than 2H that were
#: still called blank in normal photos score 9 to 16)
PALE_ROW = 8.0
#: the smallest noise spread of a cell's mean ink (clean paper would make any speck count)
PALE_ROW_SPREAD = 0.0015
#: … and no one column counts for more than this many spreads (a speck is not a word)
PALE_ROW_CELL = 6.0
#: ink noise (robust spread off the rules) above which the ink is smoothed before thresholds
NOISY = 0.03
#: a pen whose strokes (90th percentile) are lighter than this is faint (pencil, light
#: ink): the thresholds come down with it, never below the paper's noise
FAINT_PEN = 0.5
#: how far (in cells) a printed rule is looked for from where the layout puts it
RULE_SEARCH = 0.3
#: the least ink (low percentile across a piece) for a rule to count as seen there
RULE_FLOOR = 0.1
#: a pixel on a rule is the rule's unless darker than the rule by this (a pen on the rule)
RULE_MARGIN = 0.12
#: a stroke crossing a rule touches it over at most this length (cells, plus the pen):
#: longer, it is two letters touching the rule from either side, and they stay apart
BRIDGE_LONGEST = 0.35
#: a stroke group of the grid reaching this far (cells) on both sides of a rule is two
#: letters touching there (a letter across the rule mostly lies on one side)
SPLIT_PART = 0.3
#: a short upright piece along a rule at most this many pixels wide on average is a dash of a
#: dashed separator thickened by a dim photo's noise (read as a 1: 84 → 184); a digit's
#: upright on a rule is longer than ``HIDDEN_RUN`` and keeps the thinner limit
DASH_WIDTH = 3.5
#: a speck this small (share of a cell, both ways) lying on a rule is one of its dashes: a
#: dashed separator the finder did not see is not erased, and its dashes, blurred into dots,
#: lined up into a 1 (29 read 291) or stuck to the digits beside them
RULE_DOT = 0.12
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
    #: where ``image``'s top-left pixel lies in the ink map the glyph was cut from (x, y)
    origin: tuple[int, int] = (0, 0)
    #: a number's glyph touching a thickened top or bottom edge, or a table digit beside a
    #: separator widened along it: its crop with the rule's ink given back (the top of a 9's
    #: loop drawn on the rule, erased with it: the 9 read 4; a 4's bar on the bottom edge: its
    #: strokes read 1; a 6's stem along a separator: its loop and lead-in read 5)
    with_edge: np.ndarray | None = None
    #: a grid letter reaching its box's left or right rule (``SIDE_REACH``), or across it:
    #: what of it lay on the rule went with it (an O written wide, its left side on the rule:
    #: read U, sure)
    on_side_rule: bool = False

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
    #: fields ("grid", "table", "ref", "score") holding any pen stroke or faint trace, read
    #: or not: a bulletin with a mark outside its table box is never blank
    marked: set[str] = field(default_factory=set)
    #: another cut of a combed number's strokes (digits touching, cut apart): the reader
    #: keeps whichever the recogniser reads with more certainty
    alternatives: dict[str, dict[int, Glyph]] = field(default_factory=dict)
    #: the table box, when a digit may hide unread in it: a pen stroke left out of every glyph, a
    #: stroke lying on a rule before the first digit, or a pale pen (whose strokes on a rule
    #: are erased with it, and whose light 1 may vanish in dim light). The score box likewise
    #: (a pale pen only where the number starts in its first cell or off the cells), flagged
    #: only where the move that would vouch for it is in doubt. Elsewhere no leading "1" can
    #: have been lost.
    hidden: set[str] = field(default_factory=set)
    #: the table's strokes with a piece joined to the character beside it (a 1's long
    #: lead-in cut off from its upright reads as a 1 of its own: 13 → 113); the reader
    #: flags the table when that cut reads as surely as the one kept
    joined: dict[str, dict[int, Glyph]] = field(default_factory=dict)
    #: table cells with ink beside their digit, off its strokes, too pale to be cut (a 7's
    #: faded bars): a digit read as a lone upright there may be another one. Each with the
    #: digit seen with that ink, read again: a thin pale 3 cut as its lower half reads 2
    pale_beside: dict[str, Glyph] = field(default_factory=dict)
    #: the grid's sharpness the same in every direction (1) or not (camera shake): see
    #: :func:`isotropy`
    isotropy: float = 1.0
    #: a number's cut with a 1 taken off a character only a little wider than the writer's
    #: others (a slanted 1 touching an 8: 187 read 87); the reader flags the number when
    #: that 1 and the rest read surely, and never reads that cut in place of the one kept
    touching_one: dict[str, dict[int, Glyph]] = field(default_factory=dict)
    #: table digits (by key) seen with the pale ink around their strokes, where that ink
    #: closes a loop their cut left open (a 6 cut as a 5 in hard pencil): read again so
    pale_loops: dict[str, Glyph] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.grid and not any(self.combs.values())

    def all(self) -> list[Glyph]:
        return list(self.grid.values()) + [g for comb in self.combs.values() for g in comb.values()]


def paper_light(image: np.ndarray) -> np.ndarray:
    """The local paper brightness (float32, per channel): the image without anything thinner
    than ~2.5 mm (pen strokes, printed rules), smoothed. Estimated at a quarter of the
    resolution — the paper's light varies slowly — which makes it cheap."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(w // 4, 1), max(h // 4, 1)), interpolation=cv2.INTER_AREA)
    small = cv2.morphologyEx(
        small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
    )
    small = cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.5)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def ink_map(bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """Ink strength in [0, 1] per pixel, relative to the local paper brightness, and the
    paper's median brightness (0–255).

    Measured on the colour channel where the pen stands out most (a blue ballpoint under
    warm light is pale in grey but dark in red); the grey image's ink is never stronger
    than the strongest channel's, so the channels suffice."""
    image = bgr if (bgr.ndim == 3 and COLOUR_INK) else (
        bgr if bgr.ndim == 2 else cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    )
    paper = paper_light(image)
    np.maximum(paper, 1.0, out=paper)
    ratio = cv2.divide(image.astype(np.float32), paper)
    if ratio.ndim == 3:
        b, g, r = cv2.split(ratio)
        ratio = cv2.min(cv2.min(b, g), r)
        grey = paper[::8, ::8] @ np.array([0.114, 0.587, 0.299], np.float32)
    else:
        grey = paper[::8, ::8]
    ink = np.subtract(np.float32(1.0), ratio, out=ratio)
    return np.clip(ink, 0.0, 1.0, out=ink), float(np.median(grey))


def ink_mask(
    sub: np.ndarray,
    threshold: float = INK_THRESHOLD,
    low_ink: float = LOW_INK,
    seed_ink: float = SEED_INK,
    exclude: np.ndarray | None = None,
) -> np.ndarray:
    """Binary ink (255) of an ink-strength crop: clear strokes above ``threshold``, plus
    whole faint strokes (mostly under it) traced down to ``low_ink`` from clearer seeds.
    ``exclude`` (the printed rules) is no ink: a faint stroke touching a rule is not
    taken for part of the rule."""
    strong = sub > threshold
    if exclude is not None:
        strong &= ~exclude
    if not HYSTERESIS:
        return (strong * 255).astype(np.uint8)
    low = sub > low_ink
    if exclude is not None:
        low &= ~exclude
    low = low.astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(low, connectivity=8)
    seeds = np.bincount(labels.ravel(), weights=(sub > seed_ink).ravel(), minlength=n)
    strong_n = np.bincount(labels.ravel(), weights=strong.ravel(), minlength=n)
    area = stats[:, cv2.CC_STAT_AREA]
    faint = (seeds >= 4) & (strong_n < 0.3 * area)
    faint[0] = False
    out = strong | faint[labels]
    out |= _faint_beyond_halo(sub, strong, low.astype(bool) & ~faint[labels], seed_ink)
    return (out * 255).astype(np.uint8)


#: how far (pixels) a clear stroke's blurred fringe reaches: fainter ink beyond it is a stroke
STROKE_HALO = 2


def _faint_beyond_halo(sub: np.ndarray, strong: np.ndarray, low: np.ndarray, seed_ink: float) -> np.ndarray:
    """The faint strokes of a partly clear one, kept like whole faint strokes: a light thin 2
    whose foot alone was pressed dark (24 in light violet beside a dark 4, read 4: the 2's
    curve, one stroke with its dark foot, was cut to the foot). Within ``STROKE_HALO`` of the
    clear strokes' core (their pixels that survive a 2×2 opening: not the odd clear pixel
    along a faint line) lies their fringe, not a stroke; faint ink beyond it holding a few
    ``seed_ink`` pixels is one, given back with the fringe that joins it to the rest."""
    core = cv2.morphologyEx(strong.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    reach = np.ones((2 * STROKE_HALO + 1, 2 * STROKE_HALO + 1), np.uint8)
    beyond = (low & ~(cv2.dilate(core, reach) > 0)).astype(np.uint8)
    if not beyond.any():
        return np.zeros(sub.shape, bool)
    n, labels = cv2.connectedComponents(beyond, connectivity=8)
    seeds = np.bincount(labels.ravel(), weights=(sub > seed_ink).ravel(), minlength=n)
    stroke = seeds >= 4
    stroke[0] = False
    if not stroke.any():
        return np.zeros(sub.shape, bool)
    return (cv2.dilate(stroke[labels].astype(np.uint8), reach) > 0) & low


#: a number's glyph whose top lies this many tenths of a cell under its box's thickened top
#: edge may have lost what it drew on the rule (a slanted 8's upper loop, erased with the
#: rule's width: its top left 6 pixels under the edge, the rest read 0)
EDGE_ERASED = 2


def _with_edge(crop: np.ndarray, xs: np.ndarray, ys: np.ndarray, edge: EdgeInk) -> np.ndarray:
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
    """A box's top edge thickened over a glyph (see :func:`_thick_edge_above`)."""

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


def _thick_edge_above(
    mask: np.ndarray, top: tuple[int, int, int], xs: np.ndarray, ys: np.ndarray, cell: float,
    row: tuple[int, int] | None = None, below: int = 1, bar: bool = False,
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
    is found too, as an edge the glyph reaches and no stroke across it."""
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
        # a pencil's thin bar lying along the rule's top adds a single row to it (176 in
        # pencil, the 7's bar on the edge: its stem alone read 1, 116 at 0.975): enough to
        # say the glyph reaches the edge, too little to give back as a stroke across it
        thicker = (above >= usual + 1) & high
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


def _thick_edge_below(
    mask: np.ndarray, bottom: tuple[int, int, int], xs: np.ndarray, ys: np.ndarray, cell: float,
    row: tuple[int, int] | None = None,
) -> EdgeInk | None:
    """:func:`_thick_edge_above` for the box's bottom edge (the ink map upside down): a
    stroke lying on it went with it when it was erased (143 written low in light violet,
    the 4's bar on the bottom edge: its two strokes alone read 1, 113 at 0.98). ``bottom``:
    the edge's row and the glyph's column range, as ``top``; ``reaches``: the glyph's
    bottom within a tenth of a cell of the edge."""
    last = mask.shape[0] - 1
    x0, y1, x1 = bottom
    edge = _thick_edge_above(mask[::-1], (x0, last - y1, x1), xs, last - ys, cell, row)
    return None if edge is None else edge._replace(ys=last - edge.ys)


def _tinted_edge_above(
    tint: np.ndarray, mask: np.ndarray, top: tuple[int, int, int], xs: np.ndarray, ys: np.ndarray,
    cell: float, row: tuple[int, int] | None = None, below: int = 1,
) -> EdgeInk | None:
    """Where a coloured stroke lies exactly on the box's top edge over the glyph (a violet
    7's bar drawn along the edge, as thin as it: no thicker, only tinted; erased with it, the
    upright alone read 1, 107 read 101), the edge's ink in the tinted columns, as
    :func:`_thick_edge_above` gives it for a thickened edge. ``tint``: the colour (max − min
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
    usual, spread = _robust(printed)
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


def _robust(values: np.ndarray) -> tuple[float, float]:
    """Median and robust spread (scaled median absolute deviation) of some values."""
    med = float(np.median(values))
    return med, 1.4826 * float(np.median(np.abs(values - med)))


def _inner(box: tuple[int, int, int, int], origin: tuple[int, int], m: int) -> tuple[slice, slice]:
    """A cell's inside, ``m`` pixels off its printed edges, in a crop starting at ``origin``."""
    (bx0, by0, bx1, by1), (x0, y0) = box, origin
    return slice(max(by0 - y0 + m, 0), by1 - y0 - m), slice(max(bx0 - x0 + m, 0), bx1 - x0 - m)


def _off_rule_means(
    values: np.ndarray, near: np.ndarray, cells: list[tuple[int, int, Box4]], origin: tuple[int, int],
    m: int,
) -> dict[tuple[int, int], float]:
    """Per cell, the mean of ``values`` over its inside (``_inner``) away from the printed rules
    (``near``); a cell with nothing off the rules has none."""
    out = {}
    for r, c, box in cells:
        inside = _inner(box, origin, m)
        keep = ~near[inside]
        if keep.any():
            out[r, c] = float(values[inside][keep].mean())
    return out


def _faint_cells(
    sub: np.ndarray,
    lines: np.ndarray,
    cells: list[tuple[int, int, tuple[int, int, int, int]]],
    written: set[tuple[int, int]],
    origin: tuple[int, int],
    cell: float,
    noise: float = 0.02,
    word_row: int | None = None,
) -> set[tuple[int, int]]:
    """Cells with no glyph but a faint trace as tall as a letter (a hair-thin or very light
    stroke under the ink thresholds): doubtful, so the field is shown to the arbiter. On
    clean paper (little noise) a fainter trace already counts. ``word_row``: the grid's row
    of the word, where a word too pale for any cell may still darken a run of columns."""
    # thin and local: a small average standing out of its 15×15 surroundings (not a
    # shadow's edge); averaging makes a stroke at the paper's noise level visible
    smooth = cv2.GaussianBlur(sub, (0, 0), 1.2) - cv2.blur(sub, (15, 15))
    near = cv2.dilate(lines, np.ones((5, 5), np.uint8)) > 0
    level = smooth[::2, ::2][~near[::2, ::2]]
    spread = _robust(level)[1] if level.size else 0.0
    strength = min(FAINT_INK, max(0.015, 4.5 * spread))
    trace = (smooth > strength).astype(np.uint8)
    trace[near] = 0
    thin = (smooth > FAINT_THIN * strength).astype(np.uint8)
    thin[near] = 0
    m = max(2, int(cell * 0.12))
    k = max(3, int(round(TRACE_GAP * cell)) | 1)
    close = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    found = set()
    inner_ink = {}
    for r, c, box in cells:
        part = sub[_inner(box, origin, m)]
        if part.size:
            inner_ink[r, c] = float(part.mean())
    if len(inner_ink) >= 12:  # many cells: a pale letter stands out of the empty ones' ink
        med, spread_c = _robust(np.array(list(inner_ink.values())))
        for rc, v in inner_ink.items():
            if rc not in written and v - med > max(CELL_EXCESS, 8 * spread_c):
                found.add(rc)
    for r, c, (bx0, by0, bx1, by1) in cells:
        if (r, c) in written:
            continue
        for marks, tall in ((trace, 0.3), (thin, FAINT_TALL)):
            inner = marks[_inner((bx0, by0, bx1, by1), origin, m)]
            if inner.size == 0 or inner.sum() < 0.01 * (bx1 - bx0) * (by1 - by0):
                continue
            # a grainy pencil stroke on noisy paper leaves a trail of specks: closed up, they
            # are one trace as tall as the letter (the 5 of 25 lost in dark pencil, beside its 2)
            joined = cv2.morphologyEx(inner, cv2.MORPH_CLOSE, close)
            n, _, stats, _ = cv2.connectedComponentsWithStats(joined, connectivity=8)
            if n > 1 and stats[1:, cv2.CC_STAT_HEIGHT].max() >= tall * cell:
                found.add((r, c))
                break
    if len(cells) < 12:  # a number's comb
        found |= _grainy_cells(smooth, near, spread, cells, written, origin, m)
    elif not written:
        found |= _pale_word(smooth, near, spread, cells, origin, m)
        if word_row is not None and not found:
            found |= _pale_row(sub, near, cells, origin, m, word_row)
    return found


def _grainy_cells(
    smooth: np.ndarray,
    near: np.ndarray,
    spread: float,
    cells: list[tuple[int, int, Box4]],
    written: set[tuple[int, int]],
    origin: tuple[int, int],
    m: int,
) -> set[tuple[int, int]]:
    """Empty cells of a number's comb (table, reference, score) whose brightest specks stand
    far above the paper's noise, beside a digit that was cut: a pencil digit lost in the
    grain, in pieces too short and too far apart to make a trace (the 1 of 102 left one
    speck a fifth of a cell tall), in a cell where blank paper leaves nothing as bright. A
    lost leading digit is exactly what would credit the wrong table. A clear stray mark
    counts too: the arbiter looks, rather than a digit being dropped unseen."""
    if not written:  # a blank comb stays blank: this looks for a digit lost beside others
        return set()
    level = max(GRAIN_TRACE * spread, 0.015)
    found = set()
    for r, c, box in cells:
        if (r, c) in written:
            continue
        inner = _inner(box, origin, m)
        values = smooth[inner][~near[inner]]
        if values.size >= 20 and float(np.percentile(values, 99)) > level:
            found.add((r, c))
    return found


def _pale_word(
    smooth: np.ndarray, near: np.ndarray, spread: float,
    cells: list[tuple[int, int, Box4]], origin: tuple[int, int], m: int,
) -> set[tuple[int, int]]:
    """Cells of a grid where nothing was cut that hold a word too pale to trace: a run of
    ``PALE_RUN`` to ``SIZE`` adjacent cells of a row whose share of pixels above three noise
    spreads is an outlier among the grid's cells. The bulletin then goes to the arbiter
    instead of being called blank (a zero for the player)."""
    share = _off_rule_means(smooth > 3 * spread, near, cells, origin, m)
    if len(share) < 12:
        return set()
    med, spread_c = _robust(np.array(list(share.values())))
    floor = max(PALE_SHARE, med + 6 * spread_c)
    found: set[tuple[int, int]] = set()
    # lit cells in reading order; a run is a row's columns that follow one another
    lit = sorted(rc for rc, v in share.items() if v >= floor)
    for _, run in groupby(enumerate(lit), key=lambda t: (t[1][0], t[1][1] - t[0])):
        cells_run = [rc for _, rc in run]
        if PALE_RUN <= len(cells_run) <= SIZE:
            found.update(cells_run)
    return found


def _pale_row(
    sub: np.ndarray, near: np.ndarray, cells: list[tuple[int, int, Box4]], origin: tuple[int, int],
    m: int, word_row: int,
) -> set[tuple[int, int]]:
    """The word row's cells of a grid where nothing was cut nor lit, when a run of them is
    darker than the same columns of the rows beside it by ``PALE_ROW`` noise spreads (each
    column's excess in spreads, capped, summed over the run, over its length's square root):
    a word too pale for any one cell still darkens its row. Column against column, so the
    light across the page cancels out; the noise is measured between the rows beside the
    word (or, with one, along the row itself, whose median is taken for paper)."""
    mean = _off_rule_means(sub, near, cells, origin, m)
    cols = sorted({c for r, c in mean if r == word_row})
    beside = [r for r in (word_row - 1, word_row + 1) if all((r, c) in mean for c in cols)]
    if len(cols) < 2 or not beside:
        return set()
    around = np.array([[mean[r, c] for c in cols] for r in beside])
    excess = np.array([mean[word_row, c] for c in cols]) - around.mean(0)
    if len(beside) == 2:  # var(excess) = 3/2 var(cell), var(difference of the two) = 2 var(cell)
        spread = _robust(around[0] - around[1])[1] * np.sqrt(0.75)
    else:  # one row beside it: the light may differ from row to row, the row's median is paper
        level, spread = _robust(excess)
        excess = excess - level
    spread = max(spread, PALE_ROW_SPREAD)
    # each column counts for at most PALE_ROW_CELL spreads: one dark speck is no word
    total = np.concatenate([[0.0], np.cumsum(np.clip(excess / spread, -PALE_ROW_CELL, PALE_ROW_CELL))])
    best, where = 0.0, (0, 0)
    for length in range(2, len(cols) + 1):
        sums = total[length:] - total[:-length]
        i = int(sums.argmax())
        score = sums[i] / np.sqrt(length)
        if score > best:
            best, where = score, (i, i + length)
    if best < PALE_ROW:
        return set()
    return {(word_row, c) for c in cols[where[0]:where[1]]}


Box4 = tuple[int, int, int, int]


def _edges(cells: list[tuple[int, int, Box4]]) -> tuple[list[int], list[int]]:
    xs = sorted({b[0] for _, _, b in cells} | {b[2] for _, _, b in cells})
    ys = sorted({b[1] for _, _, b in cells} | {b[3] for _, _, b in cells})
    return xs, ys


@dataclass
class _RuleSet:
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


def _find_rules(
    sub: np.ndarray, xs: list[int], ys: list[int], cell: float, search: int, combed: bool
) -> _RuleSet:
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
    return _RuleSet(rows, cols)


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


def _bridge(
    sub: np.ndarray, clean: np.ndarray, rules: _RuleSet, cell: float, low: float
) -> np.ndarray:
    """The ink without the printed rules (``clean``), strokes crossing them bridged."""
    bridged = np.zeros(clean.shape, bool)
    longest = BRIDGE_LONGEST * cell + 6
    bridge_rules(clean, rules.rows, 3, bridged, longest)
    bridge_rules(clean.T, rules.cols, 3, bridged.T, longest)
    out = clean.copy()
    out[bridged & (sub > low)] = 255
    return out


def _boxes(rules: _RuleSet, cells: list[tuple[int, int, Box4]], xs: list[int], ys: list[int],
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


def comb_keys(centres_x: list[float], boxes: list[Box4]) -> list[int]:
    """Cell numbers of characters written at ``centres_x`` over a combed box (``boxes`` left
    to right): the cell under each centre when they all differ, else their order (two
    digits squeezed in one cell, or more characters than cells)."""
    cells = []
    for x in centres_x:
        inside = [i for i, (x0, _, x1, _) in enumerate(boxes) if x0 <= x < x1]
        cells.append(inside[0] if inside else (0 if x < boxes[0][0] else len(boxes) - 1))
    if len(set(cells)) < len(cells) or len(cells) > len(boxes):
        return list(range(len(centres_x)))
    return cells


def _single_crossings(col: np.ndarray) -> tuple[int, int]:
    """(number of ink runs, length of the longest) down one column."""
    d = np.diff(np.concatenate([[0], col.astype(np.int8), [0]]))
    starts, ends = np.flatnonzero(d == 1), np.flatnonzero(d == -1)
    return len(starts), int((ends - starts).max()) if len(starts) else 0


def _split_touching(
    keep: np.ndarray,
    x0: int,
    x1: int,
    height: int,
    separators: list[float] = (),
    eager: bool = False,
) -> list[tuple[int, int]]:
    """Column ranges of the digits of one connected group, split where two digits touch:
    a column crossed by a single short run of ink, near where an even split would cut.
    A wide single digit (a round 0) has two runs at its middle and is not split; nor is a
    group less than one and a half digits wide (a wide 2 or 7 crossed by one stroke),
    unless the cut falls on a comb's separator (``separators``, crop columns): two boxed
    digits touching across it. ``eager``: any group wider than a narrow digit pair ("17")
    is cut where a single stroke crosses — a guess for the recogniser to confirm."""
    width = x1 - x0
    k = int(round(width / ((0.5 if eager else 0.62) * height)))
    if width < (0.9 if eager else 1.2) * height or k < 2:
        return [(x0, x1)]
    on_separator = width < 1.5 * height and not eager
    k = min(k, 3)
    cuts = []
    for j in range(1, k):
        want = x0 + width * j / k
        best = None
        reach = width / ((2.5 if eager else 4) * k)
        for x in range(int(want - reach), int(want + reach) + 1):
            if not x0 < x < x1 - 1:
                continue
            runs, longest = _single_crossings(keep[:, x])
            if on_separator and not any(abs(x - sx) <= 0.2 * height for sx in separators):
                continue
            if runs <= 1 and longest <= 0.3 * height:
                cost = abs(x - want) + 2 * longest
                if best is None or cost < best[0]:
                    best = (cost, x)
        if best is None:
            return [(x0, x1)]
        cuts.append(best[1])
    bounds = [x0] + cuts + [x1]
    return [(a, b) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def _characters(
    labels: np.ndarray,
    stats: np.ndarray,
    labs: list[int],
    height: float,
    digits_only: bool,
    cell_of=None,
    separators: list[float] = (),
    eager: bool = False,
) -> list[tuple[list[int], tuple[int, int] | None]]:
    """Group the strokes of a combed field into characters, whatever the comb: pieces one
    above the other are one character, and so are pieces touching within one cell
    (``cell_of``: x → cell), a small piece joins the character beside it, and a group as
    wide as two digits is split where they touch. Returns (labels, column range or None
    for the whole group), left to right."""
    groups: list[list] = []  # [labels, x0, x1, y0, y1]
    touch = max(2.0, 0.05 * height)
    for lab in sorted(labs, key=lambda v: stats[v, 0]):
        x, y, w, h = (int(v) for v in stats[lab, :4])
        if groups:
            g = groups[-1]
            overlap = min(x + w, g[2]) - max(x, g[1])
            same = cell_of is not None and cell_of(x + w / 2) == cell_of((g[1] + g[2]) / 2)
            if same and eager and overlap < 0 and _two_uprights(g, h):
                same = False  # two whole characters side by side in one cell, not one broken
            if overlap >= 0.4 * min(w, g[2] - g[1]) or (same and overlap >= -touch):
                g[0].append(lab)
                g[1], g[2], g[3], g[4] = min(x, g[1]), max(x + w, g[2]), min(y, g[3]), max(y + h, g[4])
                continue
        groups.append([[lab], x, x + w, y, y + h])
    small = [g for g in groups if max(g[2] - g[1], g[4] - g[3]) < 0.35 * height]
    big = [g for g in groups if g not in small]
    if cell_of is not None:
        gathered, small = _gathered(small, height, cell_of), []
        for g in gathered:
            (big if _character_sized(g, stats, height) else small).append(g)
    for g in small:  # a broken-off tip: with the nearest character if it is close
        if not big:
            break
        gap, near = min(
            (max(g[1] - b[2], b[1] - g[2], 0), i) for i, b in enumerate(big)
        )
        if gap <= 0.25 * height:
            b = big[near]
            b[0] += g[0]
            b[1], b[2], b[3], b[4] = min(g[1], b[1]), max(g[2], b[2]), min(g[3], b[3]), max(g[4], b[4])
    out: list[tuple[list[int], tuple[int, int] | None]] = []
    for labs_, a, b, _, _ in sorted(big, key=lambda g: g[1]):
        keep = np.isin(labels[:, a:b], labs_)
        rows = np.flatnonzero(keep.any(1))
        h = rows[-1] - rows[0] + 1 if len(rows) else 0
        parts = (
            _split_touching(keep, 0, b - a, h, [x - a for x in separators], eager)
            if digits_only and h >= 0.3 * height
            else [(0, b - a)]
        )
        if len(parts) == 1:
            out.append((labs_, None))
        else:
            out += [(labs_, (a + p, a + q)) for p, q in parts]
    return out


#: two pieces of one cell side by side, not overlapping, each at least this share of the
#: taller's height, are two characters for the eager cut: a slanted 1 whose foot lies on the
#: comb line, written 2 px from the 2 beside it in the same box (122 read 22 at 0.98, the
#: "12" one glyph read 2). A broken digit's pieces (a 4's bar apart from its stem, a 5's hat)
#: are not both as tall
TWO_UPRIGHTS = 0.85


def _two_uprights(group: list, h: int) -> bool:
    """Whether a group of ``_characters`` and the next piece (``h`` tall) are of nearly one
    height, the shorter at least ``TWO_UPRIGHTS`` of the taller."""
    gh = group[4] - group[3]
    return min(gh, h) >= TWO_UPRIGHTS * max(gh, h)


#: pieces of one cell this close (share of the cell's height, across or along) are one
#: broken character when nothing bigger is near enough to take them: the thin middle 6 of
#: 166 in one hand, its tail cut from its loop (16 and 10 px tall of 59, 4 px apart), or a
#: small flat 0 in light violet in two halves, were lost whole (166 read 16, 160 read 16)
GATHER = 0.25
#: … and are together at least this much ink (share of the height squared): two specks of
#: dust or grain stay specks
GATHERED_INK = 0.02


def _gathered(small: list[list], height: float, cell_of) -> list[list]:
    """The small groups of ``_characters``, those of one cell close together made one."""
    out: list[list] = []
    for g in sorted(small, key=lambda g: g[1]):
        if out:
            h = out[-1]
            gap = max(g[1] - h[2], max(g[3] - h[4], h[3] - g[4]), 0)
            if gap <= GATHER * height and cell_of((g[1] + g[2]) / 2) == cell_of((h[1] + h[2]) / 2):
                h[0] = h[0] + g[0]
                h[1], h[2], h[3], h[4] = min(g[1], h[1]), max(g[2], h[2]), min(g[3], h[3]), max(g[4], h[4])
                continue
        out.append([list(g[0]), g[1], g[2], g[3], g[4]])
    return out


def _character_sized(group: list, stats: np.ndarray, height: float) -> bool:
    """Whether pieces gathered in one cell are as big as a character, and enough ink for one."""
    labs, x0, x1, y0, y1 = group
    return (
        len(labs) > 1
        and max(x1 - x0, y1 - y0) >= 0.35 * height
        and sum(int(stats[lab, cv2.CC_STAT_AREA]) for lab in labs) >= GATHERED_INK * height * height
    )


def _at_gaps(chars: list[tuple[list[int], tuple[int, int] | None]], labels: np.ndarray) -> bool:
    """Whether every character split in ``chars`` was split between its strokes, none cut
    across: two digits written close in one cell, not one stroke cut at a narrow place."""
    split = False
    for labs, span in chars:
        if span is None:
            continue
        split = True
        for lab in labs:
            cols = np.flatnonzero((labels == lab).any(0))
            inside = (cols >= span[0]) & (cols < span[1])
            if inside.any() and not inside.all():
                return False
    return split


#: a character at least this wide for its height may be a 1 merged into a digit (was 0.85:
#: a slanted 1 joined to a 7's bar, in a hand whose 6s are as wide, is 0.75: 172 read 72) …
ONE_MERGED = 0.7
#: … cut off where a single run of ink crosses it no longer than this share of its height,
#: within a 1's width of its side (a thick pen's 16 as one blob, read 6: 160 → 60)
ONE_NECK = 0.45
#: … beside a column of the cut-off part crossed by one run this tall (share of the height):
#: the 1's upright
ONE_TALL = 0.7


def _one_off(
    chars: list[tuple[list[int], tuple[int, int] | None]], labels: np.ndarray
) -> list[tuple[list[int], tuple[int, int] | None]]:
    """The characters with a 1's width cut off the side of each wide one where a single
    short run crosses it: a 1 merged into the digit beside it by a thick pen leaves no
    column a touching split would take. A guess for the recogniser (``touching_one``)."""
    out: list[tuple[list[int], tuple[int, int] | None]] = []
    for labs, span in chars:
        keep = np.isin(labels, labs)
        cols = np.flatnonzero(keep.any(0))
        rows = np.flatnonzero(keep.any(1))
        if span is not None or not len(cols):
            out.append((labs, span))
            continue
        x0, x1 = int(cols[0]), int(cols[-1]) + 1
        h = int(rows[-1] - rows[0] + 1)
        block = keep[rows[0] : rows[-1] + 1, x0:x1]
        best = None
        if x1 - x0 >= ONE_MERGED * h:
            reach = int(ONE_WIDTH * h)
            crossings = [_single_crossings(block[:, x]) for x in range(x1 - x0)]
            upright = [longest >= ONE_TALL * h for _, longest in crossings]
            sides = [x for x in range(2, min(reach, x1 - x0 - 2)) if any(upright[:x])]
            sides += [x for x in range(max(x1 - x0 - reach, 2), x1 - x0 - 2) if any(upright[x:])]
            for x in sides:  # a neck between a 1's upright and the rest of the digit
                runs, longest = crossings[x]
                if runs == 1 and longest <= ONE_NECK * h and (best is None or longest < best[0]):
                    best = (longest, x0 + x)
        if best is None:
            out.append((labs, span))
        else:
            out += [(labs, (x0, best[1])), (labs, (best[1], x1))]
    return out


#: two characters of a number this close (share of the box height) …
JOIN_GAP = 0.2
#: … one of them at most this share of the other's height, may be one digit cut in two
JOIN_SHORT = 0.8


def _joined(
    chars: list[tuple[list[int], tuple[int, int] | None]], stats: np.ndarray, height: float
) -> list[tuple[list[int], tuple[int, int] | None]] | None:
    """The characters with each piece joined to a close, taller neighbour: a 1's lead-in
    left apart from its upright by a thin junction is shorter than its digits and nearly
    touches the next one. None when no pair is like that."""
    def extent(labs: list[int]) -> tuple[int, int, int, int]:
        xs = [int(stats[v, 0]) for v in labs] + [int(stats[v, 0] + stats[v, 2]) for v in labs]
        ys = [int(stats[v, 1]) for v in labs] + [int(stats[v, 1] + stats[v, 3]) for v in labs]
        return min(xs), min(ys), max(xs), max(ys)

    out = [list(c) for c in chars]
    changed = False
    i = 0
    while i + 1 < len(out):
        (a, sa), (b, sb) = out[i], out[i + 1]
        if sa is None and sb is None:
            ax0, ay0, ax1, ay1 = extent(a)
            bx0, by0, bx1, by1 = extent(b)
            ha, hb = ay1 - ay0, by1 - by0
            if bx0 - ax1 <= JOIN_GAP * height and min(ha, hb) <= JOIN_SHORT * max(ha, hb):
                out[i : i + 2] = [[a + b, None]]
                changed = True
                continue
        i += 1
    return [(labs, span) for labs, span in out] if changed else None


def _char_centres(chars, labels: np.ndarray) -> list[float]:
    """The column of each character's ink centre (its span's middle where it has one)."""
    return [(span[0] + span[1]) / 2 if span is not None
            else float(np.nonzero(np.isin(labels, labs_))[1].mean()) for labs_, span in chars]


def _comb_pieces(chars, centres: list[float], comb: list[Box4], row: int) -> dict:
    """Cell → strokes of each character of a combed field (``centres``: their
    ``_char_centres``), numbered by ``comb_keys``."""
    return {
        (row, k): [(lab, span) for lab in labs_]
        for (labs_, span), k in zip(chars, comb_keys(centres, comb), strict=True)
    }


def _sharing_a_cell(centres: list[float], comb: list[Box4], row: int, cell_of) -> set[tuple[int, int]]:
    """The cells given to two neighbouring characters (``centres``: their ``_char_centres``)
    centred in the same box of the comb: one digit broken in two (Yusei's open 4, its bar
    too faint to join its strokes: read 1 and 1, 48 read 118 at 0.98), or two digits
    squeezed into one box. Doubtful."""
    keys = comb_keys(centres, comb)
    boxes = [cell_of(c) for c in centres]
    found = set()
    for i in range(len(boxes) - 1):
        if boxes[i] >= 0 and boxes[i] == boxes[i + 1]:
            found |= {(row, keys[i]), (row, keys[i + 1])}
    return found


def _split_at_rules(
    stat: np.ndarray, rc: tuple[int, int], rules: _RuleSet, boxes: dict, cell: float
) -> list[tuple[tuple[int, int] | None, tuple[int, int]]]:
    """A grid stroke group lying well on both sides of a cell's rule is letters touching
    across it: cut it at the rules it crosses, each part to the cell it lies in. Returns
    (column range or None for the whole group, cell)."""
    x, y, w, h = (int(v) for v in stat[:4])
    if w < 2 * SPLIT_PART * cell or h < 0.4 * cell:
        return [(None, rc)]
    cy = y + h / 2
    cuts = sorted(
        round(rules.col_at(i, cy))
        for i in range(len(rules.cols))
        if x + 0.2 * cell < rules.col_at(i, cy) < x + w - 0.2 * cell
    )
    # a part narrower than a letter (the arc of a joker's circle beyond the rule) stays on
    kept: list[int] = []
    for c in cuts:
        if c - (kept[-1] if kept else x) >= SPLIT_PART * cell:
            kept.append(c)
    while kept and x + w - kept[-1] < SPLIT_PART * cell:
        kept.pop()
    if not kept:
        return [(None, rc)]
    bounds = [x] + kept + [x + w]
    out = []
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        mid = (a + b) / 2
        cell_rc = next(
            (k for k, (bx0, by0, bx1, by1) in boxes.items()
             if k[0] == rc[0] and bx0 <= mid < bx1),
            rc,
        )
        out.append(((a, b), cell_rc))
    return out


#: a grid stroke group reaching this far (cells) both above and below a rule between two
#: rows is two letters touching there: a raccord letter written just over the word's (A over
#: P, bridged across the rule: PESAT read EAT, its raccord AER read BRS). A letter overflowing
#: its row lies mostly in it
ROW_PART = 0.5


def _split_across_rows(
    labels: np.ndarray, lab: int, stat: np.ndarray, span: tuple[int, int] | None,
    rc: tuple[int, int], rules: _RuleSet, boxes: dict, cell: float,
) -> list[tuple[tuple[int, int] | tuple[int, int, int, int] | None, tuple[int, int]]]:
    """A grid stroke group (within ``span``, its columns as cut at the column rules, or all
    of it) lying well above and below a rule between two rows, cut at that rule, each part
    to the cell its own ink lies in. Returns (x0, x1, y0, y1 of the part, or ``span``
    unchanged; cell)."""
    x, y, w, h = (int(v) for v in stat[:4])
    if span is not None:
        x, w = span[0], span[1] - span[0]
        rows = np.flatnonzero((labels[y : y + h, x : x + w] == lab).any(1))
        if not len(rows):
            return [(span, rc)]
        y, h = y + int(rows[0]), int(rows[-1] - rows[0] + 1)
    kept: list[int] = []
    if h >= 2 * ROW_PART * cell and len(rules.rows) >= 3:
        cx = x + w / 2
        for c in sorted(round(rules.row_at(j, cx)) for j in range(1, len(rules.rows) - 1)):
            if c - (kept[-1] if kept else y) >= ROW_PART * cell and y + h - c >= ROW_PART * cell:
                kept.append(c)
    if not kept and span is None:
        return [(span, rc)]  # the group whole: its cell is already that of its centre
    bounds = [y] + kept + [y + h]
    out: list = []
    for a, b in zip(bounds[:-1], bounds[1:], strict=True):
        yy, xx = np.nonzero(labels[a:b, x : x + w] == lab)
        if not len(xx):
            return [(span, rc)]
        mx, my = x + float(xx.mean()), a + float(yy.mean())
        cell_rc = next(
            (k for k, (bx0, by0, bx1, by1) in boxes.items() if bx0 <= mx < bx1 and by0 <= my < by1),
            None,
        )
        if cell_rc is None:
            return [(span, rc)]
        out.append(((x, x + w, a, b) if kept else span, cell_rc))
    return out


@dataclass
class _Ink:
    """A field's binary ink, the paper's noise (ink units) and whether the pen is faint."""

    mask: np.ndarray  # printed rules already left out
    noise: float
    faint: bool
    low: float  # the faintest ink kept
    strokes: np.ndarray | None = None  # what glyphs are cut from (a faint pen: smoothed)


def _level(work: np.ndarray, away: np.ndarray) -> tuple[float, float, np.ndarray]:
    """Median and robust spread of the ink off the rules (every other pixel is plenty)."""
    level = work[::2, ::2][away[::2, ::2]]
    if level.size < 100:
        return 0.0, 0.02, level
    med, spread = _robust(level)
    return med, spread + 1e-3, level


#: pixels off the rules well above the paper (8 noise spreads) needed to measure the pen:
#: counted on a quarter of them first, then, when too few, on all (a lone small digit in
#: light pencil has about a hundred; on a quarter its box was taken for a dark pen's)
PEN_PIXELS = 40


def _pen(px: np.ndarray, med: float, noise: float) -> float:
    """The pen's ink level: the 90th percentile of the pixels ``px`` (off the rules) well
    above the paper, 0 when fewer than ``PEN_PIXELS`` stand out to say."""
    strong = px[px > med + 8 * noise]
    return float(np.percentile(strong, 90)) if strong.size >= PEN_PIXELS else 0.0


def _threshold(sub: np.ndarray, away: np.ndarray, rules: np.ndarray) -> _Ink:
    """Binary ink of a field's crop: clear strokes, whole faint strokes by hysteresis
    (``ink_mask``), the printed ``rules``' own pixels left out.

    The thresholds follow the photo: never within the paper's noise (measured off the
    rules, ``away``: a dim, noisy photo), and brought down to the pen's own contrast when
    the pen is faint (pencil, light ink: a light stroke on clean paper is as visible as a
    dark one). Noisy or grainy ink is lightly smoothed first (strokes are wider than the
    grain and the noise), and so is a photo where no pen stands out of the paper at all: a
    2H pencil's broken line is lost in the grain pixel by pixel, not once smoothed."""
    med, noise, _ = _level(sub, away)
    work = sub
    if noise > NOISY:
        work = cv2.GaussianBlur(sub, (0, 0), 1.0)
        med, noise, _ = _level(work, away)
    _, _, level = _level(work, away)
    pen = _pen(level, med, noise)
    smooth = None
    if pen == 0.0 and work is sub:  # a pen under the paper's grain: smoothed, its strokes show
        smooth = cv2.GaussianBlur(sub, (0, 0), 1.0)
        med_s, noise_s, level_s = _level(smooth, away)
        pen = _pen(level_s, med_s, noise_s)
        if pen > 0.0:
            work, med, noise = smooth, med_s, noise_s
    if pen == 0.0:  # too few on a quarter of the pixels: a lone small digit in light pencil
        pen = _pen(work[away], med, noise)  # (88 above the paper), counted on all of them
    if pen == 0.0 and smooth is not None:  # and a few thin 2H strokes under the grain, smoothed
        pen = _pen(smooth[away], med_s, noise_s)
        if pen > 0.0:
            work, med, noise = smooth, med_s, noise_s
    faint = 0 < pen < FAINT_PEN
    if faint and work is sub:  # a grainy pencil line is continuous once lightly smoothed
        work = cv2.GaussianBlur(sub, (0, 0), 0.8)
        med, noise, _ = _level(work, away)
    base = (0.45 * pen, 0.1 * pen, 0.25 * pen) if faint else (INK_THRESHOLD, LOW_INK, SEED_INK)
    strong = max(base[0], med + 7 * noise)
    low = max(base[1], med + 4 * noise)
    seed = max(base[2], med + 6 * noise)
    return _Ink(
        ink_mask(work, strong, low, seed, rules),
        noise,
        faint,
        low,
        work if faint else None,  # a pencil's grain smoothed; a noisy photo's ink as it is
    )


_PRINTED: dict[tuple[str, tuple[int, int]], np.ndarray] = {}


def printed_matter(layout: Layout, size: tuple[int, int]) -> np.ndarray:
    """Where the blank bulletin prints something other than a rule (labels, texts,
    markers), slightly grown: never handwriting."""
    key = (json.dumps(layout.data, sort_keys=True), size)
    if key not in _PRINTED:
        page = render_page(layout, size[0] / layout.page_mm[0])
        if (page.shape[1], page.shape[0]) != size:
            page = cv2.resize(page, size, interpolation=cv2.INTER_AREA)
        rules = np.zeros(page.shape, np.uint8)
        cells = [b for row in layout.grid_cells() for b in row]
        for name in layout.data["fields"]:
            cells += layout.comb_cells(name)
        for b in cells:
            x0, y0, x1, y1 = to_px(b, size)
            cv2.rectangle(rules, (x0, y0), (x1, y1), 255, 7)
        printed = (page < 200) & (rules == 0)
        _PRINTED[key] = cv2.dilate(printed.astype(np.uint8), np.ones((7, 7), np.uint8)) > 0
    return _PRINTED[key]


#: a grid letter whose ink comes this close (pixels) to its box's side rule, or beyond,
#: touches or crosses it: what of it lay on the rule went with it
SIDE_REACH = 2


def _glyphs(
    field: str,
    pieces: dict[tuple[int, int], list[tuple[int, tuple[int, ...] | None]]],
    boxes: dict[tuple[int, int], Box4],
    labels: np.ndarray,
    stats: np.ndarray,
    source: np.ndarray,
    raw: np.ndarray,
    cell: float,
    doubtful: set[tuple[int, int]],
    offset: tuple[int, int] = (0, 0),
    tint: np.ndarray | None = None,
) -> dict[tuple[int, int], Glyph]:
    """The glyph of each cell from its strokes (labels, column range — and row range, for a
    grid group cut between two rows — or None for all of it); a cell with some ink but too
    little for a character is added to ``doubtful``.
    ``offset``: where the field's region lies in the whole ink map (the glyphs' origins);
    ``tint``: the region's colour, where a coloured stroke on a number's top edge is sought."""
    out: dict[tuple[int, int], Glyph] = {}
    rows: dict[int, tuple[int, int]] = {}  # each row of boxes' extent: its whole top edge
    for (r, _), b in boxes.items():
        a, z = rows.get(r, (b[0], b[2]))
        rows[r] = (min(a, b[0]), max(z, b[2]))
    for rc, entries in pieces.items():
        box = boxes.get(rc) or boxes[sorted(boxes)[-1]]
        bx0, by0, bx1, by1 = box
        area = max((bx1 - bx0) * (by1 - by0), 1)
        spans = []
        for lab, span in entries:
            x, y, bw_, bh_ = (int(v) for v in stats[lab, :4])
            a, b = (x, x + bw_) if span is None else (max(span[0], x), min(span[1], x + bw_))
            ya, yb = (y, y + bh_)
            if span is not None and len(span) == 4:  # a part cut at a rule between two rows
                ya, yb = max(span[2], y), min(span[3], y + bh_)
            spans.append((lab, a, b, ya, yb))
        # work in the bounding box of the cell's strokes (crop coordinates ox, oy)
        ox, oy = min(t[1] for t in spans), min(t[3] for t in spans)
        ex, ey = max(t[2] for t in spans), max(t[4] for t in spans)
        keep = np.zeros((max(ey - oy, 1), max(ex - ox, 1)), bool)
        for lab, a, b, ya, yb in spans:
            if b > a:
                keep[ya - oy : yb - oy, a - ox : b - ox] |= labels[ya:yb, a:b] == lab
        ink_area = float(np.count_nonzero(keep))
        ys_, xs_ = np.nonzero(keep)
        ys_, xs_ = ys_ + oy, xs_ + ox
        if len(ys_) == 0:
            continue
        if ink_area / area < MIN_FILL or (ys_.max() - ys_.min()) < 0.3 * cell:
            if ink_area / area >= MIN_FILL / 3 and (ys_.max() - ys_.min()) >= 0.15 * cell:
                doubtful.add(rc)  # some ink, too little for a letter: a faint or broken one?
            continue
        strokes = np.where(keep, source[oy:ey, ox:ex], 0).astype(np.float32)
        crop = strokes[ys_.min() - oy : ys_.max() + 1 - oy, xs_.min() - ox : xs_.max() + 1 - ox]
        # fixed window: the cell grown by 25 % each side, in crop coordinates
        mx, my = int((bx1 - bx0) * 0.25), int((by1 - by0) * 0.25)
        wx0, wy0, wx1, wy1 = bx0 - mx, by0 - my, bx1 + mx, by1 + my
        window = np.zeros((max(wy1 - wy0, 1), max(wx1 - wx0, 1)), np.float32)
        sx0, sy0 = max(wx0, ox), max(wy0, oy)
        sx1, sy1 = min(wx1, ex), min(wy1, ey)
        if sx1 > sx0 and sy1 > sy0:
            window[sy0 - wy0 : sy1 - wy0, sx0 - wx0 : sx1 - wx0] = strokes[
                sy0 - oy : sy1 - oy, sx0 - ox : sx1 - ox
            ]
        # the edge over the glyph's own columns: written freely, a digit may lie in the box
        # before the cell the comb gives it
        span = (min(bx0, int(xs_.min())), by0, max(bx1, int(xs_.max()) + 1))
        number = field != "grid"
        edge = _thick_edge_above(raw, span, xs_, ys_, cell, rows.get(rc[0]), EDGE_ERASED if number else 1,
                                 bar=number)
        # what erasing the edges may have taken: a stroke drawn across the top edge, one
        # lying on the bottom edge the glyph reaches
        lost = [edge] if number and edge is not None and edge.across else []
        if number and not lost and tint is not None:
            tinted = _tinted_edge_above(tint, raw, span, xs_, ys_, cell, rows.get(rc[0]), EDGE_ERASED)
            lost += [tinted] if tinted is not None else []
        if number:
            low = _thick_edge_below(raw, (span[0], by1, span[2]), xs_, ys_, cell, rows.get(rc[0]))
            lost += [low] if low is not None and low.reaches else []
        given_back = None
        if lost:
            ink = EdgeInk(np.concatenate([e.ys for e in lost]), np.concatenate([e.xs for e in lost]),
                          True, True)
            given_back = _with_edge(crop, xs_, ys_, ink)
        gx0, gx1 = int(xs_.min()), int(xs_.max()) + 1
        on_side = not number and (gx0 <= bx0 + SIDE_REACH or gx1 >= bx1 - SIDE_REACH)
        out[rc] = Glyph(field, rc[0], rc[1], crop, window, ink_area / area, cell,
                        edge is not None and edge.reaches,
                        (gx0 + offset[0], int(ys_.min()) + offset[1]), given_back, on_side)
    return out


class _Cut(NamedTuple):
    """One field cut into glyphs, and what the cut could not settle."""

    glyphs: dict[tuple[int, int], Glyph]
    doubtful: set[tuple[int, int]]  # cells with ink but no glyph, or a doubt of their own
    marked: bool  # any pen stroke or faint trace in the field
    alternative: dict[tuple[int, int], Glyph] | None  # touching digits cut apart
    hidden: bool  # the table, where a leading digit may hide unread
    joined: dict[tuple[int, int], Glyph] | None  # the table, a close short piece joined
    pale_beside: dict[tuple[int, int], np.ndarray]  # table cells with ink too pale to cut beside
    # the digit, and the digit seen with it
    pale_loops: dict[tuple[int, int], np.ndarray]  # table, score digits whose pale ink closes a loop
    doubted: set[tuple[int, int]]  # number cells whose glyph the cut doubts (by a stroked
    # separator, along a rule, sharing a box)
    apart: bool = False  # the alternative parts strokes that do not touch, no stroke cut
    astray: bool = False  # outer rules at their search's end, unseen or apart: the page is off


def _cut(
    ink: np.ndarray,
    field: str,
    cells: list[tuple[int, int, Box4]],
    region: Box4,
    cell: float,
    tolerance: float = 0.09,
    printed: np.ndarray | None = None,
    word_row: int | None = None,
    tint: np.ndarray | None = None,
) -> _Cut:
    x0, y0, x1, y1 = region
    h, w = ink.shape
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    sub = ink[y0:y1, x0:x1]
    tint = tint[y0:y1, x0:x1] if tint is not None else None
    text = printed[y0:y1, x0:x1] if printed is not None else np.zeros(sub.shape, bool)
    xs, ys = _edges([(r, c, (a - x0, b - y0, cc - x0, d - y0)) for r, c, (a, b, cc, d) in cells])
    search = max(3, int(round(cell * max(RULE_SEARCH, 1.5 * tolerance))))
    combed = field != "grid"
    rules = _find_rules(sub, xs, ys, cell, search, combed)
    band = np.zeros(sub.shape, bool)  # within a rule's width
    erased = np.zeros(sub.shape, bool)  # the rule's own pixels
    erase_rules(sub, rules.rows, RULE_MARGIN, erased, band)
    erase_rules(sub.T, rules.cols, RULE_MARGIN, erased.T, band.T)
    near_rule = cv2.dilate(band.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    away = ~near_rule & ~text
    got = _threshold(sub, away, erased)
    mask = got.mask
    mask[text] = 0
    if not got.faint:  # specks off (a faint pen's thin, grainy strokes would go with them)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    clean = _bridge(sub, mask, rules, cell, got.low)
    raw = sub > max(got.low, LOW_INK)  # rules included, for the thickness of a box's edge
    n, labels, stats, cents = cv2.connectedComponentsWithStats(clean, connectivity=8)
    min_area = max(6, int(cell * cell * 0.004))
    on_rule = np.bincount(labels.ravel(), weights=near_rule.ravel(), minlength=n)
    boxes = _boxes(rules, cells, xs, ys, (x0, y0))
    owner: dict[int, tuple[int, int]] = {}
    doubtful: set[tuple[int, int]] = set()
    comb_labs: list[int] = []
    marked = False
    keys = list(boxes)
    bb = np.array([boxes[k] for k in keys])
    inside = (
        (bb[None, :, 0] <= cents[:, :1]) & (cents[:, :1] < bb[None, :, 2])
        & (bb[None, :, 1] <= cents[:, 1:]) & (cents[:, 1:] < bb[None, :, 3])
    )
    where = np.where(inside.any(1), inside.argmax(1), -1)
    top, bottom = int(bb[:, 1].min()), int(bb[:, 3].max())
    for lab in range(1, n):
        area = stats[lab, cv2.CC_STAT_AREA]
        if area < min_area:
            continue
        bw, bh = stats[lab, cv2.CC_STAT_WIDTH], stats[lab, cv2.CC_STAT_HEIGHT]
        rc = keys[where[lab]] if where[lab] >= 0 else None
        if on_rule[lab] > 0.8 * area and (
            area < 2.5 * max(bw, bh) or (bw < bh < HIDDEN_RUN * cell and area < DASH_WIDTH * bh)
            or max(bw, bh) <= RULE_DOT * cell
        ):
            continue  # a thin line along a rule: what is left of the rule, not a pen stroke
        big = max(bw, bh) >= 0.25 * cell  # a pen stroke in the field, whatever becomes of it
        if combed:  # any stroke mostly within the box's height belongs to the field
            sy0 = stats[lab, cv2.CC_STAT_TOP]
            overlap = min(sy0 + bh, bottom) - max(sy0, top)
            if overlap >= 0.4 * bh:
                comb_labs.append(lab)
                marked |= big
            continue
        if rc is not None:
            owner[lab] = rc
            marked |= big
    pieces: dict[tuple[int, int], list[tuple[int, tuple[int, ...] | None]]] = {}
    alt_pieces = joined_pieces = None
    shared: set[tuple[int, int]] = set()  # number cells two characters share
    apart = False
    if combed:
        order = sorted(boxes)
        comb = [boxes[k] for k in order]
        height = float(np.median([b[3] - b[1] for b in comb]))
        def cell_of(x: float) -> int:
            return next((i for i, b in enumerate(comb) if b[0] <= x < b[2]), -1)

        seps = [float(b[0]) for b in comb[1:]]
        digits = field in ("table", "score")
        chars = _characters(labels, stats, comb_labs, height, digits, cell_of, seps)
        row = order[0][0]
        centres = _char_centres(chars, labels)
        pieces = _comb_pieces(chars, centres, comb, row)
        if digits:  # digits touching as written freely: another cut, the recogniser decides
            shared = _sharing_a_cell(centres, comb, row, cell_of)
            eager = _characters(labels, stats, comb_labs, height, digits, cell_of, seps, True)
            if len(eager) == len(chars) and field == "table":  # a 1 merged into a digit's
                eager = _one_off(chars, labels)  # side? (a score has the game to check it)
            if len(eager) != len(chars):
                alt_pieces = _comb_pieces(eager, _char_centres(eager, labels), comb, row)
                apart = _at_gaps(eager, labels)
        if field == "table":
            joined = _joined(chars, stats, height)
            if joined is not None:
                joined_pieces = _comb_pieces(joined, _char_centres(joined, labels), comb, row)
    else:
        for lab, rc in owner.items():
            for span, cell_rc in _split_at_rules(stats[lab], rc, rules, boxes, cell):
                parts = _split_across_rows(labels, lab, stats[lab], span, cell_rc, rules, boxes, cell)
                for part, part_rc in parts:
                    pieces.setdefault(part_rc, []).append((lab, part))
    source = got.strokes if got.strokes is not None else sub
    out = _glyphs(field, pieces, boxes, labels, stats, source, raw, cell, doubtful, (x0, y0), tint)
    alternative = None
    if alt_pieces is not None:
        alternative = _glyphs(field, alt_pieces, boxes, labels, stats, source, raw, cell, set(), (x0, y0),
                              tint)
    joined_cut = None
    if joined_pieces is not None:
        joined_cut = _glyphs(field, joined_pieces, boxes, labels, stats, source, raw, cell, set(), (x0, y0),
                             tint)
    faint_cells = [(r, c, (b[0] + x0, b[1] + y0, b[2] + x0, b[3] + y0)) for (r, c), b in boxes.items()]
    doubtful |= _faint_cells(
        sub, (erased | band).astype(np.uint8), faint_cells, set(out), (x0, y0), cell, got.noise,
        word_row,
    )
    if combed:
        out = _bar_above(out, boxes, stats, set(comb_labs), on_rule, cell, min_area, (x0, y0))
    pale = _pale_beside(out, boxes, sub, clean, away, labels, pieces, cell) if field == "table" else {}
    doubted = set()
    if field == "table" and out:  # the score has the game to check it
        sides = [_run_sides(raw, rule) for rule in rules.cols]  # walked once for both rules
        for rc, image in _strokes_on_separators(out, rules, sides, cell, (x0, y0)).items():
            out[rc] = replace(out[rc], with_edge=image)
        doubted = _beside_stroked_separator(out, pieces, stats, rules, sides, cell)
    if field in ("table", "score"):
        doubted |= _along_rules(out, pieces, stats, on_rule) | (shared & set(out))
    loops = {}
    if field in ("table", "score"):
        loops = _pale_loops(out, sub, away, labels, pieces, wide=field == "score")
    # the table is decoded with a possibly lost leading digit; the score is flagged for one
    # where the game cannot vouch for it (the others have the game)
    start = _first_centred_cell(out, comb, x0) if field in ("table", "score") else None
    hidden = field in ("table", "score") and bool(out) and (
        # a faint 1 on a rule, unless the number is centred past cell 0; in the table, a faint
        # 1 anywhere: centred in the cell before, a light pencil 1 in dim light may leave no
        # trace to flag (127 read 27, sure), and the table has no game to check it
        (got.faint and (field == "table" or start is None or start == 0))
        or (start is None and min(c for _, c in out) == 0)  # written freely from the edge
        or _unread_strokes(out, pieces, comb_labs, stats, cell)
        or _stroke_on_rule_before(out, pieces, stats, raw, sub, on_rule, rules, cell, min_area)
    )
    return _Cut(out, doubtful - set(out), marked or bool(out) or bool(doubtful), alternative, hidden,
                joined_cut, pale, loops, doubted, apart, combed and _astray(rules, xs, ys, search))


#: an outer rule of a combed box found this close (pixels) to its search window's end
ASTRAY_END = 2


def _astray(rules: _RuleSet, xs: list[int], ys: list[int], search: int) -> bool:
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


#: a glyph whose top comes this close (share of a cell) to its box's top edge …
BAR_REACH = 0.15
#: … under a flat pen stroke left above that edge, its bottom at most this far above it (a
#: 7's bar written over the edge: 171 read 111), is taken to reach the edge (``touches_top``)
BAR_ABOVE = 0.3
#: a flat piece taken for a rule's remains is a 7's bar when it ends this close (pixels)
#: above the glyph's top
BAR_TOUCH = 2


def _bar_above(
    out: dict[tuple[int, int], Glyph], boxes: dict, stats: np.ndarray, used: set[int],
    on_rule: np.ndarray, cell: float, min_area: int, origin: tuple[int, int],
) -> dict[tuple[int, int], Glyph]:
    """The glyphs with ``touches_top`` set where a flat pen stroke, not part of any character
    of the field, lies just above the box's top edge over the glyph's top: the bar of a 7
    written across the edge, left outside the box while its upright alone reads 1. A flat
    piece taken for the edge's remains counts where it touches the glyph's top: the bar
    written just under the edge (175 read 115); where it ends above the edge's line it is no
    remains of it, and counts as a bar over the edge (178 read 118, the bar lying along the
    top of the edge, all of it in the rule's band)."""
    bars = [
        (int(x), int(y + h), int(w), bool(on_rule[lab] > 0.8 * area))
        for lab, (x, y, w, h, area) in enumerate(stats[:, :5])
        if lab and lab not in used and area >= min_area and w >= 0.25 * cell and w >= 2 * h
    ]
    if not bars:
        return out
    found = dict(out)
    for rc, g in out.items():
        box = boxes.get(rc)
        if box is None or g.touches_top:
            continue
        top = int(box[1])
        gx0, gy0 = g.origin[0] - origin[0], g.origin[1] - origin[1]
        gx1 = gx0 + g.image.shape[1]
        if gy0 > top + BAR_REACH * cell:
            continue
        for bx, bottom, bw, remains in bars:
            over = min(bx + bw, gx1) - max(bx, gx0)
            if remains and bottom >= top:  # inside the box, under the edge: the 175 case
                near = abs(gy0 - bottom) <= BAR_TOUCH
            else:  # over the edge (a remains piece ending above it is a stroke, not the edge)
                near = top - BAR_ABOVE * cell <= bottom <= top + BAR_REACH * cell
            if near and over >= 0.5 * min(bw, gx1 - gx0):
                found[rc] = replace(g, touches_top=True)
                break
    return found


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
#: a character of a numbered box shorter than this share of the median height of the
#: writer's other characters there is a piece, not a digit
SHORT_CHAR = 0.5
#: a character with at least this share of its width on each side of a separator of its
#: numbered box lost what of its stroke lay on the separator (183 in pencil, the 8's left
#: side along the separator: its right half and top tick, 0.2 of it left of the line, read
#: 3 at 0.98; the benches' table digits reach 0.15 to 0.17 on bulletins flagged otherwise)
ACROSS = 0.15
#: a rule whose colour (max − min of its channels, 0–255) exceeds the box's right edge's by
#: this much carries a coloured pen stroke
TINT = 25
#: a digit whose centre lies within this share of its cell's width from the cell's centre
#: is written in the cell, not freely over the comb
CENTRED = 0.25
#: a stroke left out of every glyph this long (share of a cell) may be what is left of a
#: faint digit: a thin pale 1 shows as a few specks
UNREAD_PART = 0.1


#: ink beside a table digit, off its strokes, this share of their own ink level …
PALE_BESIDE = 0.35
#: … in one stretch at least this share of a cell long: a stroke of the digit too pale to
#: be cut (a 7's bars faded by camera shake: the upright alone reads 1, 57 → 51)
PALE_BESIDE_RUN = 0.2
#: strokes' own blur and JPEG rims: this share of a cell around the cut strokes is theirs
PALE_RIM = 0.06


def _pale_beside(
    out: dict, boxes: dict, sub: np.ndarray, clean: np.ndarray, away: np.ndarray,
    labels: np.ndarray, pieces: dict, cell: float,
) -> dict[tuple[int, int], np.ndarray]:
    """Cells of the table whose box holds, off the cut strokes and their rims, a stretch of
    ink paler than the strokes but well above the paper: part of the digit left out. Each
    with the digit seen whole, its strokes and that pale ink (a crop like a glyph's image),
    for the reader to read again."""
    found = {}
    r = max(1, int(round(PALE_RIM * cell)))
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    for rc in out:
        box = boxes.get(rc)
        if box is None:
            continue
        labs = [lab for lab, _ in pieces.get(rc, [])]
        bx0, by0, bx1, by1 = (int(v) for v in box)
        bx0, by0 = max(bx0, 0), max(by0, 0)
        region = sub[by0:by1, bx0:bx1]
        strokes = clean[by0:by1, bx0:bx1] > 0
        mine = np.isin(labels[by0:by1, bx0:bx1], labs)
        if region.size == 0 or not mine.any():
            continue
        level = float(np.median(region[mine]))
        near = cv2.dilate(strokes.astype(np.uint8), kernel) > 0
        pale = (region > PALE_BESIDE * level) & ~near & away[by0:by1, bx0:bx1]
        n, _, st, _ = cv2.connectedComponentsWithStats(pale.astype(np.uint8), connectivity=8)
        longest = max((max(st[i, 2], st[i, 3]) for i in range(1, n)), default=0)
        if longest >= PALE_BESIDE_RUN * cell:
            found[rc] = _seen_whole(sub, away, labels, labs, (bx0, by0, bx1, by1), PALE_BESIDE * level)
    return found


def _seen_whole(
    sub: np.ndarray, away: np.ndarray, labels: np.ndarray, labs: list[int], box: Box4, pale: float,
) -> np.ndarray:
    """A digit's cut strokes (``labs``, wherever they lie) with the ink above ``pale`` off
    the rules in its ``box``, as ink on the bounding box of the two: a glyph's image."""
    ys, xs = np.nonzero(np.isin(labels, labs))
    x0, y0 = min(box[0], int(xs.min())), min(box[1], int(ys.min()))
    x1, y1 = max(box[2], int(xs.max()) + 1), max(box[3], int(ys.max()) + 1)
    whole = np.isin(labels[y0:y1, x0:x1], labs)
    bx0, by0, bx1, by1 = box[0] - x0, box[1] - y0, box[2] - x0, box[3] - y0
    whole[by0:by1, bx0:bx1] |= (sub[box[1]:box[3], box[0]:box[2]] > pale) & away[box[1]:box[3], box[0]:box[2]]
    rows, cols = np.flatnonzero(whole.any(1)), np.flatnonzero(whole.any(0))
    crop = (slice(rows[0], rows[-1] + 1), slice(cols[0], cols[-1] + 1))
    return np.where(whole, sub[y0:y1, x0:x1], 0).astype(np.float32)[crop]


#: ink above one of these shares of a table digit's stroke level, off the rules, is its pale
#: ink (tried in turn: on grainy paper a loop shows at one level only, its closing stroke
#: below the next, noise filling the hole below the one before: 128's 8 read 5, sure) …
PALE_LOOP = (0.4, 0.3, 0.5)
#: … and a hole in it this share of the digit's height across (squared: an area) is a loop
LOOP_SIZE = 0.2
#: … in a score's pale ink, sought this share of the digit's height around its cut strokes,
#: a hole this share across: the pale side of a loop may lie outside the cut strokes, round
#: a small hole (26's 6 in a light hand, its loop's left side uncut: 5, the move's score,
#: made sure by the game at 0.9997)
LOOP_PAD = 0.25
PALE_LOOP_SIZE = 0.15


def _loops(mask: np.ndarray, least: float) -> int:
    """How many holes of at least ``least`` pixels ``mask`` encloses."""
    contours, hierarchy = cv2.findContours(np.pad(mask.astype(np.uint8), 1), cv2.RETR_CCOMP,
                                           cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return 0
    return sum(1 for c, h in zip(contours, hierarchy[0], strict=True)
               if h[3] >= 0 and cv2.contourArea(c) >= least)


def _pale_loops(
    out: dict, sub: np.ndarray, away: np.ndarray, labels: np.ndarray, pieces: dict,
    wide: bool = False,
) -> dict[tuple[int, int], np.ndarray]:
    """Table and score digits which, with the pale ink around their strokes, enclose more
    loops than their cut strokes do, as that ink (a crop like a glyph's image): a stroke of
    hard pencil broken below the thresholds left a loop open (the 6 of 163 cut as a 5, read
    5 at 0.98: 153). The reader reads them again so. The score too, ``wide``: around its
    cut strokes and round a smaller hole, since where the digit left reads as the move's
    score the game makes it sure (26 read 25). The table keeps the tight search: widened
    there, it flagged two more tables read right out of 300 bench photos."""
    found = {}
    for rc in out:
        mine = np.isin(labels, [lab for lab, _ in pieces.get(rc, [])])
        ys, xs = np.nonzero(mine)
        if len(ys) == 0:
            continue
        height = ys.max() + 1 - ys.min()
        pad = int(LOOP_PAD * height) if wide else 0
        y0, y1 = max(ys.min() - pad, 0), min(ys.max() + 1 + pad, sub.shape[0])
        x0, x1 = max(xs.min() - pad, 0), min(xs.max() + 1 + pad, sub.shape[1])
        cut = mine[y0:y1, x0:x1]
        least = ((PALE_LOOP_SIZE if wide else LOOP_SIZE) * height) ** 2
        loops = _loops(cut, least)
        for level in PALE_LOOP:
            pale = (sub[y0:y1, x0:x1] > level * float(np.median(sub[mine]))) & away[y0:y1, x0:x1]
            whole = _touching(pale | cut, cut) if wide else pale | cut
            if _loops(whole, least) > loops:
                found[rc] = np.where(whole, sub[y0:y1, x0:x1], 0).astype(np.float32)
                break
    return found


def _touching(mask: np.ndarray, seed: np.ndarray) -> np.ndarray:
    """The parts of ``mask`` connected to ``seed``: a digit's own pale ink, not its
    neighbours'."""
    _, lab = cv2.connectedComponents(mask.astype(np.uint8), connectivity=8)
    keep = np.unique(lab[seed & mask])
    return np.isin(lab, keep[keep > 0])


#: a table digit's dark core: its ink above these shares of its median stroke level, tried
#: in turn (at 1.2 the core of a sound digit is too thin to read: bench 6s and 9s read 1)
CORE_LEVELS = (0.8, 1.0)


def open_core(image: np.ndarray) -> np.ndarray | None:
    """The dark core of a glyph (as a glyph's image) when it encloses fewer loops than the
    whole ink does, at the first of ``CORE_LEVELS`` where it does: a loop closed only by
    the halo of two strokes running close, in a thick pen or under blur (a 5 whose curl
    touches its stem reads 6). None when every loop holds in the core."""
    ink = image > 0
    if ink.sum() < 5:
        return None
    least = (LOOP_SIZE * image.shape[0]) ** 2
    loops = _loops(ink, least)
    if not loops:
        return None
    level = float(np.median(image[ink]))
    for share in CORE_LEVELS:
        core = image >= share * level
        if _loops(core, least) < loops:
            return np.where(core, image, 0).astype(np.float32)
    return None


def _first_centred_cell(out: dict, comb: list[Box4], x0: int) -> int | None:
    """The cell a number starts in when it is written one digit per cell, each centred in its
    cell (None when written freely over the comb). A leading 1 is lost when it lies on a
    printed rule: a writer who centres his digits would have centred that 1 in the cell
    before, away from any rule, where it is cut like the others (or left as a faint trace,
    flagged: in a pale pen, too faint even for that, which :func:`_cut` allows for in the
    table); a free writer may have put it on the box's outer edge, which a stroke does not
    visibly thicken."""
    if not comb or not out:
        return None
    cols = sorted(c for _, c in out)
    if cols != list(range(cols[0], cols[0] + len(cols))) or cols[-1] >= len(comb):
        return None  # gaps, or more characters than cells: not one digit per cell
    for (_, c), glyph in out.items():
        left, _, right, _ = comb[c]
        width = right - left
        centre = glyph.origin[0] - x0 + glyph.image.shape[1] / 2
        if glyph.image.shape[1] > width or abs(centre - (left + right) / 2) > CENTRED * width:
            return None
    return cols[0]


def _unread_strokes(out: dict, pieces: dict, labs: list[int], stats: np.ndarray, cell: float) -> bool:
    """Whether a pen stroke of a combed field, as large as a character's part, went into no
    glyph (a 1 written outside the box, a small digit too far from the others)."""
    used = {lab for rc in out for lab, _ in pieces.get(rc, ())}
    extent = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    return any(lab not in used and extent[lab] >= UNREAD_PART * cell for lab in labs)


def _run_width(raw: np.ndarray, rule: FoundRule) -> np.ndarray:
    """Per pixel along a vertical rule, the width of the ink run through its centre."""
    return _widths(_run_sides(raw, rule))


def _widths(sides: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The run widths of a rule from its :func:`_run_sides` (the centre counted once)."""
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


def _stroke_on_rule_before(
    out: dict, pieces: dict, stats: np.ndarray, raw: np.ndarray, ink: np.ndarray,
    on_rule: np.ndarray, rules: _RuleSet, cell: float, min_area: int,
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


def _beside_stroked_separator(
    out: dict, pieces: dict, stats: np.ndarray, rules: _RuleSet, sides: list, cell: float,
) -> set[tuple[int, int]]:
    """The cells whose digit comes near a separator of the box inked a pen stroke's width
    across (``SEPARATOR_STROKE``, and wider than the box's thinnest separator) over a
    digit's length: a stroke drawn along it went with it when it was erased (136 in light
    violet, the 6's stem along the dashed separator: its loop alone read 0, 130 at 0.98).
    Either neighbour may have lost it: both are doubtful. A digit merely touching the
    separator thickens it over a few pixels, not a digit's length. So for the box's right
    edge, 2 pixels thicker than its left edge (199 written freely, the last 9's stem along
    the edge: 190 at 0.97); the left edge is the leading 1's (``_stroke_on_rule_before``).
    ``sides``: :func:`_run_sides` of each of ``rules.cols``."""
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


def _strokes_on_separators(
    out: dict, rules: _RuleSet, sides: list, cell: float, offset: tuple[int, int],
) -> dict[tuple[int, int], np.ndarray]:
    """Each table digit beside a separator widened over a stretch of the digit's height, seen
    with that ink given back: a stroke drawn along the rule went with it when it was erased
    (166 in pencil, the last 6's stem along the separator: its loop and lead-in read 5 at
    0.97, 165). Shorter than ``HIDDEN_RUN``, which :func:`_beside_stroked_separator` doubts
    outright; the reader reads the digit again. Either neighbour may have drawn it (the
    side the run reaches further tells nothing: the stem straddles the rule). Not the box's
    outer edges: a digit touching the right edge (a 0's side) would lose its sureness there.
    ``sides``: :func:`_run_sides` of each of ``rules.cols``."""
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
                found[rc] = _with_edge(g.image, np.array([gx0]), np.array([gy0]),
                                       EdgeInk(ys, xs, True, True))
    return found


def _run_sides(raw: np.ndarray, rule: FoundRule) -> tuple[np.ndarray, np.ndarray]:
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


def _along_rules(out: dict, pieces: dict, stats: np.ndarray, on_rule: np.ndarray) -> set[tuple[int, int]]:
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


#: a number's second cut is kept where its widest character is this much wider than the
#: writer's other characters (median, 1s aside): two digits touching, not a wide 2 …
WIDE_PAIR = 1.45
#: … while a cut taking a 1's width off a character this much wider is offered as a count of
#: digits in doubt: a slanted 1 touching the digit beside it adds little width (187 read 87)
WIDE_WITH_ONE = 1.2
#: … or this much wider where the second cut parts strokes that do not touch (no stroke cut
#: across): two digits written close in one cell in a wide hand (127 read 17, the 2 and the 7
#: 1.31 times as wide as the writer's other digits); and so for a table read as one
#: character, which a writer makes as narrow as his others (77 off the boxes, the first 7's
#: bar across the second's: one 7, 1.33 times as wide; the bench's lone digits reach 1.29)
WIDE_APART = 1.2
#: a character narrower than this share of its height is a 1 (or an I)
ONE_WIDTH = 0.45


def pieces_not_in(cut: dict[int, Glyph], kept: Iterable[Glyph]) -> list[int]:
    """The columns of ``cut`` holding a glyph that ``kept`` has not, pixel for pixel: the
    pieces one cut made where the other kept a whole character (either way round)."""
    kept = list(kept)
    return [c for c, g in cut.items()
            if not any(k.image.shape == g.image.shape and np.array_equal(k.image, g.image) for k in kept)]


def ones_split_off(kept: Iterable[Glyph], cut: dict[int, Glyph]) -> list[int]:
    """The columns of ``cut`` holding a character the ``kept`` cut has not (a piece split
    off) as narrow as a 1."""
    return [c for c in pieces_not_in(cut, kept) if cut[c].image.shape[1] < ONE_WIDTH * cut[c].image.shape[0]]


def _plausible_cuts(
    combs: dict[str, dict[int, Glyph]], alternatives: dict, apart: set[str] = frozenset(),
) -> dict[str, dict[int, Glyph]]:
    """Keep a number's second cut only where its widest character is much wider than the
    writer's other characters in the boxes (two digits touching, not a wide 2). A cut that
    takes only a 1's width off a character a little wider than the others, or off any of
    the table's (which the game does not check), is returned apart: whether a 1 touches that
    digit is for the recogniser to say (``reader._one_beside_digit``), never to read. The
    widest character of another number offered a second cut is no measure of the writer's
    width: it may be two (55 read 5 beside a score whose 4 and 9 touch, 80 px wide)."""
    touching_one = {}
    split = {id(max(combs[name].values(), key=lambda g: g.image.shape[1]))
             for name in alternatives if combs.get(name)}
    for name in list(alternatives):
        mine = sorted(combs[name].values(), key=lambda g: g.image.shape[1])
        if not mine:
            del alternatives[name]
            continue
        widest = mine[-1]
        others = [
            g.image.shape[1]
            for comb in combs.values()
            for g in comb.values()
            if g is not widest and id(g) not in split
            and g.image.shape[1] >= ONE_WIDTH * g.image.shape[0]  # 1s aside
        ]
        wide = WIDE_APART if name in apart or (name == "table" and len(mine) == 1) else WIDE_PAIR
        if not others or widest.image.shape[1] >= wide * float(np.median(others)):
            continue
        if ((name == "table" or widest.image.shape[1] >= WIDE_WITH_ONE * float(np.median(others)))
                and ones_split_off(mine, alternatives[name])):
            touching_one[name] = alternatives[name]
        del alternatives[name]
    return touching_one


def _short_characters(combs: dict[str, dict[int, Glyph]]) -> set[str]:
    """Cells of the numbered boxes whose character is much shorter than the writer's others
    there: a piece of a digit cut off by a printed rule (the lead-in of a 1 beyond a dashed
    separator, read as another 1: 15 → 115), a speck; never a digit to trust as read."""
    heights = [(name, c, g.image.shape[0]) for name, comb in combs.items() for c, g in comb.items()]
    short = set()
    for name, c, h in heights:
        others = [o for n, k, o in heights if (n, k) != (name, c)]
        if len(others) >= 2 and h < SHORT_CHAR * float(np.median(others)):
            short.add(f"{name}:{c}")
    return short


#: … or whose width for its height is this many times the writer's other digits' (28
#: written freely in Yusei's hand, the 2 packed into the 8: one glyph 1.31 times as wide as
#: the others but 1.47 times as wide for its height, read 8 at 0.985; the benches' lone
#: digits reach 1.31)
WIDE_ASPECT = 1.4


def _lone_wide_table(combs: dict[str, dict[int, Glyph]]) -> set[str]:
    """The table's cell when the table is read as a single character much wider than the
    writer's others (``WIDE_PAIR``, 1s aside), or much wider for its height (``WIDE_ASPECT``):
    two digits written touching in one cell, with no gap to cut them at, read as one (91
    read 9, 55 read 5, 28 read 8, sure at 0.99). A table of one digit is written as narrow as
    the writer's other digits; only the table is concerned, since the game checks the
    reference and the score."""
    table = combs.get("table", {})
    if len(table) != 1:
        return set()
    (c, glyph), = table.items()
    others = [g.image.shape for name, comb in combs.items() if name != "table"
              for g in comb.values() if g.image.shape[1] >= ONE_WIDTH * g.image.shape[0]]
    if len(others) >= 2:
        h, w = glyph.image.shape
        if w >= WIDE_PAIR * float(np.median([ow for _, ow in others])):
            return {f"table:{c}"}
        if w / h >= WIDE_ASPECT * float(np.median([ow / oh for oh, ow in others])):
            return {f"table:{c}"}  # as wide for its height: a smaller hand's two digits
    return set()


def _side_by_side_in_table(combs: dict[str, dict[int, Glyph]]) -> set[str]:
    """The table's cells holding two tall strokes side by side (``_side_by_side``), however
    narrow: two digits in one cell that the cut left together, the second too narrow or too
    pale to widen the glyph much (88 off the boxes: 1.16 times the writer's width, read 8
    at 0.988), or a 1 beside a digit in the middle cell of a number written off the boxes
    (161: « 16 » in one cell, the 1 apart from the 6 by two columns, read 6 at 0.98: 61)."""
    return {f"table:{c}" for c, glyph in combs.get("table", {}).items() if _side_by_side(glyph.image)}


#: a character of a table this many times as wide as the table's other digits (1s aside)
#: and as tall as their height times ``TALL_IN_TABLE`` is two (the 6 with a 1 glued to it:
#: 2.6 times as wide as the 5 beside it and 1.5 times as tall; on the benches' 600 photos,
#: only two other characters are both, each a misread pair)
WIDE_IN_TABLE = 2.0
TALL_IN_TABLE = 1.4


def _wide_in_table(combs: dict[str, dict[int, Glyph]]) -> set[str]:
    """The cells of a table of several characters holding one much wider and taller than
    the others there, that no second cut could split: two digits touching, not one digit
    (165 written freely, the slanted 1 glued to the 6 in one cell: one character 41 px wide
    and 47 tall beside a 5 of 16 by 31, read 6 at 0.99: 65, sure). Width alone says little
    (a 0 beside a 7 is often twice as wide), nor does the writer's other boxes' width (a
    reference written wide). A lone character has its own rule (:func:`_lone_wide_table`);
    the reference and the score have the game."""
    table = combs.get("table", {})
    if len(table) < 2:
        return set()
    found = set()
    for c, glyph in table.items():
        h, w = glyph.image.shape
        others = [g.image.shape for g in table.values() if g is not glyph]
        widths = [ow for oh, ow in others if ow >= ONE_WIDTH * oh]  # 1s aside
        if (widths and w >= WIDE_IN_TABLE * float(np.median(widths))
                and h >= TALL_IN_TABLE * float(np.median([oh for oh, _ in others]))):
            found.add(f"table:{c}")
    return found


#: two strokes of one glyph, apart, each at least this share of its height, side by side
#: (their columns overlapping by less than ``SIDE_OVERLAP`` of the narrower), are two digits
SIDE_TALL = 0.5
SIDE_OVERLAP = 0.25


def _side_by_side(image: np.ndarray) -> bool:
    """Whether a glyph is two tall strokes that neither touch nor stand over each other: two
    digits in one cell, the second too narrow or too pale to widen the glyph much (88 off the
    boxes, the second 8 pale and slanted: one glyph 1.16 times the writer's width, read 8 at
    0.988). A digit's strokes cross or stand one above the other (a 4's, a 5's flag)."""
    n, _, stats, _ = cv2.connectedComponentsWithStats((image > 0).astype(np.uint8), connectivity=8)
    h = image.shape[0]
    tall = sorted((int(stats[i, 0]), int(stats[i, 0] + stats[i, 2])) for i in range(1, n)
                  if stats[i, 3] >= SIDE_TALL * h)
    for (a0, a1), (b0, b1) in pairwise(tall):
        if min(a1, b1) - max(a0, b0) < SIDE_OVERLAP * min(a1 - a0, b1 - b0):
            return True
    return False


def _across_separators(combs: dict[str, dict[int, Glyph]], layout: Layout, size) -> set[str]:
    """Cells of the table box whose digit lies well across a printed separator: the part of
    its stroke that ran along the rule may have gone with it (an 8 over the line loses its
    left side and reads 3, sure at 0.98: 181 → 131). The table only: the game checks the
    reference and the score, nothing but the set of open tables checks the table, and numbers
    written freely over the comb cross its separators at every turn."""
    seps = [to_px(b, size)[0] for b in layout.comb_cells("table")[1:]]
    return {
        f"table:{c}"
        for c, g in combs.get("table", {}).items()
        if any(min(x - g.origin[0], g.origin[0] + g.image.shape[1] - x) >= ACROSS * g.image.shape[1]
               for x in seps)
    }


def _coloured_rule_before(bgr: np.ndarray, comb: dict[int, Glyph], cells: list, cell: float) -> bool:
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
    level, spread = _robust(usual)
    run = max(2, int(HIDDEN_RUN * cell))
    for x in (b[0] for b in boxes):  # the left edge, then the separators
        if x >= first:
            break
        if _long_run(chroma_along(x) > level + max(TINT, 4 * spread), run):
            return True
    return False


def _fields_ink(bgr: np.ndarray, layout: Layout) -> tuple[np.ndarray, float]:
    """The ink map over the part of the page that holds the fields (the rest stays 0)."""
    size = (bgr.shape[1], bgr.shape[0])
    boxes = [to_px(layout.grid_box, size)] + [
        to_px(layout.field_box(name), size) for name in layout.data["fields"]
    ]
    m = int(0.06 * size[0])  # the fields' pads, and room for the paper estimate
    x0, y0 = max(min(b[0] for b in boxes) - m, 0), max(min(b[1] for b in boxes) - m, 0)
    x1, y1 = min(max(b[2] for b in boxes) + m, size[0]), min(max(b[3] for b in boxes) + m, size[1])
    part, paper = ink_map(np.ascontiguousarray(bgr[y0:y1, x0:x1]))
    ink = np.zeros(bgr.shape[:2], np.float32)
    ink[y0:y1, x0:x1] = part
    return ink, paper


def _colour(bgr: np.ndarray) -> np.ndarray | None:
    """Each pixel's colour (max − min of its channels, 0–255), where a coloured pen stroke
    lying on a printed rule shows (None for a grey image). OpenCV's per-channel max and min:
    numpy's reductions over a last axis of three take some 80 ms on a page."""
    if bgr.ndim != 3:
        return None
    b, g, r = cv2.split(bgr)
    return cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))


def cut_fields(bgr: np.ndarray, layout: Layout, tolerance: float = 0.09) -> Fields:
    """Glyphs of the squared area and of the combed boxes of a rectified bulletin.

    ``tolerance``: how far (in cells) a printed rule may be from where the layout puts it —
    small after marker rectification, larger after the contour fallback."""
    size = (bgr.shape[1], bgr.shape[0])
    ink, paper = _fields_ink(bgr, layout)
    rows, cols = layout.grid_shape
    grid_cells = [
        (r, c, to_px(b, size))
        for r, row in enumerate(layout.grid_cells())
        for c, b in enumerate(row)
    ]
    gx0, gy0, gx1, gy1 = to_px(layout.grid_box, size)
    cell = (gx1 - gx0) / cols
    pad = int(cell * 0.35)
    printed = printed_matter(layout, size)
    tint = _colour(bgr)
    grid, grid_doubt, grid_marked, *_ = _cut(
        ink, "grid", grid_cells, (gx0 - pad, gy0 - pad, gx1 + pad, gy1 + pad), cell, tolerance,
        printed, layout.word_row,
    )
    combs: dict[str, dict[int, Glyph]] = {}
    doubtful = {f"grid:{r}:{c}" for r, c in grid_doubt}
    marked = {"grid"} if grid_marked else set()
    alternatives: dict[str, dict[int, Glyph]] = {}
    hidden_in: set[str] = set()
    joined_cuts: dict[str, dict[int, Glyph]] = {}
    pale_beside: dict[str, Glyph] = {}
    pale_loops: dict[str, Glyph] = {}
    apart: set[str] = set()
    for name in layout.data["fields"]:
        cells = [(0, i, to_px(b, size)) for i, b in enumerate(layout.comb_cells(name))]
        fx0, fy0, fx1, fy1 = to_px(layout.field_box(name), size)
        # digits written freely may overflow the box, most often sideways
        px, py = int(cell * 0.5), int(cell * 0.3)
        cut = _cut(ink, name, cells, (fx0 - px, fy0 - py, fx1 + px, fy1 + py), cell, tolerance, printed,
                   tint=tint)
        combs[name] = {c: g for (_, c), g in cut.glyphs.items()}
        doubtful |= {f"{name}:{c}" for _, c in cut.doubtful}
        if cut.marked:
            marked.add(name)
        if cut.hidden or (name == "table" and _coloured_rule_before(bgr, combs[name], cells, cell)):
            hidden_in.add(name)
        if cut.alternative is not None and len(cut.alternative) > len(cut.glyphs):
            alternatives[name] = {c: g for (_, c), g in cut.alternative.items()}
            if cut.apart:
                apart.add(name)
        if cut.joined:
            joined_cuts[name] = {c: g for (_, c), g in cut.joined.items()}
        if cut.astray and cut.glyphs:
            doubtful.add(f"{name}:recalage")
        pale_beside |= {f"{name}:{rc[1]}": replace(cut.glyphs[rc], image=image)
                        for rc, image in cut.pale_beside.items()}
        doubtful |= {f"{name}:{c}" for _, c in cut.doubted}
        pale_loops |= {f"{name}:{rc[1]}": replace(cut.glyphs[rc], image=image)
                       for rc, image in cut.pale_loops.items()}
    touching_one = _plausible_cuts(combs, alternatives, apart)
    doubtful |= _short_characters(combs) | _across_separators(combs, layout, size) | _lone_wide_table(combs)
    doubtful |= _side_by_side_in_table(combs)
    if "table" not in alternatives and "table" not in touching_one:
        doubtful |= _wide_in_table(combs)
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    area = gray[gy0:gy1, gx0:gx1]
    sharp = float(cv2.Laplacian(area, cv2.CV_32F).var())
    even = isotropy(area)
    if even < SHAKEN:  # a stroke across the shake fades: the table, unchecked, may lose one
        doubtful.add("table:bouge")
    return Fields(grid, combs, ink, paper, sharp, doubtful, marked, alternatives, hidden_in, joined_cuts,
                  pale_beside, even, touching_one, pale_loops)


#: below this :func:`isotropy` of the grid the photo is shaken: strokes across the motion
#: fade below the ink thresholds (a 7's bars: 57 read 51; its upright: 177 read 172) and
#: the table, which no game check protects, is doubtful. A weak shake across the strokes
#: smears a 7's bar into the box's top edge (177 read 117 at 0.977, isotropy 0.41), and a
#: 9's loop into a 3 (193 read 133 at 0.978, isotropy 0.461: 0.45 let it pass); a shake
#: weaker still faded a 9's thin left side by the separator (89 read 83 at 0.982, isotropy
#: 0.557: 0.48 let it pass). The bench photos (tilt ≤ 35°) stay at 0.70 and over (0.699 at
#: seed 8, 0.714 at seed 21); a strong perspective (40–50°) goes down to 0.49, its table
#: flagged under 0.6
SHAKEN = 0.6


def lean(image: np.ndarray) -> tuple[float, float]:
    """(angle of the ink's long axis from the vertical in degrees, the ink's variance along
    that axis over its variance across it): a 1 stands within 45° of upright; a straight bar
    lying lower is a dash, or an 8 or a 0 whose loops closed up in a slanted hand."""
    angle, elongation = signed_lean(image)
    return abs(angle), elongation


def signed_lean(image: np.ndarray) -> tuple[float, float]:
    """:func:`lean` with its side: negative where the ink's long axis runs from top right
    to bottom left (a right-leaning 1, a 7's stem), positive the other way."""
    ys, xs = np.nonzero(image > 0.5 * float(image.max())) if image.size else ((), ())
    if len(xs) < 5:
        return 0.0, 1.0
    values, vectors = np.linalg.eigh(np.cov(np.stack([xs, ys]).astype(np.float64)))
    x, y = vectors[:, 1]
    if y < 0:  # the axis taken downwards: its x then says which way the top leans
        x, y = -x, -y
    return float(np.degrees(np.arctan2(x, y))), float(values[1] / max(values[0], 1e-6))


def isotropy(gray: np.ndarray) -> float:
    """How evenly sharp an area is in every direction: the smaller over the larger eigenvalue
    of its gradients' structure tensor. The grid's rules run both ways, ~0.95 on a still
    photo; camera shake along them, or near, brings it down to 0.1-0.4 (a 40-50° tilt,
    rectified, to 0.45 at worst). Shake along a diagonal blurs rows and columns alike and
    is not seen here."""
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1)
    xx, yy, xy = float(np.mean(gx * gx)), float(np.mean(gy * gy)), float(np.mean(gx * gy))
    half_trace, det = (xx + yy) / 2, xx * yy - xy * xy
    root = math.sqrt(max(half_trace * half_trace - det, 0.0))
    return (half_trace - root) / (half_trace + root) if half_trace + root > 0 else 1.0


def box_px(box: Box, size: tuple[int, int]) -> tuple[int, int, int, int]:
    return to_px(box, size)
