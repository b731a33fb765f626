"""Stage 3: cut the fields of a rectified bulletin into per-cell glyphs.

Ink is measured against a local paper estimate (shadows and uneven light cancel
out), with thresholds that follow the photo's noise and the pen's own contrast
(pencil: ``ink``). The printed rules are found where they really are and erased
without the pen strokes lying on or crossing them (``rules``). In the grid, each
stroke goes to the cell holding its centre — a letter written across a cell line
stays whole — and letters touching across a rule are cut on it. In the combed
boxes (table, reference, score) the characters are taken as written, whatever
the comb: strokes are grouped into characters and touching digits cut apart
(``comb``). Writing too faint to cut is found cell by cell (``faint``), and
characters cut doubtfully are named (``comb_doubts``). This module assembles
those stages and owns the checks on strokes hidden by a printed rule (a 1 on
the table's first edge, a 7's bar on its box's top).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from .comb import (
    ONE_WIDTH,
    at_gaps,
    char_centres,
    comb_pieces,
    cut_one_off,
    group_characters,
    join_pieces,
    sharing_a_cell,
    split_across_rows,
    split_at_rules,
)
from .comb_doubts import (
    across_separators,
    lone_wide_table,
    plausible_cuts,
    short_characters,
    side_by_side_in_table,
    wide_in_table,
)
from .faint import faint_written_cells
from .ink import LOW_INK, ink_map, ink_threshold, robust
from .layout import Box, Box4, Layout, to_px
from .rules import (
    FoundRule,
    RuleSet,
    bridge_crossings,
    cell_boxes,
    cell_edges,
    erase_rules,
    find_rules,
    rules_astray,
)
from .template import render_page

#: how far (in cells) a printed rule is looked for from where the layout puts it
RULE_SEARCH = 0.3
#: a pixel on a rule is the rule's unless darker than the rule by this (a pen on the rule)
RULE_MARGIN = 0.12
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
    xs, ys = cell_edges([(r, c, (a - x0, b - y0, cc - x0, d - y0)) for r, c, (a, b, cc, d) in cells])
    search = max(3, int(round(cell * max(RULE_SEARCH, 1.5 * tolerance))))
    combed = field != "grid"
    rules = find_rules(sub, xs, ys, cell, search, combed)
    band = np.zeros(sub.shape, bool)  # within a rule's width
    erased = np.zeros(sub.shape, bool)  # the rule's own pixels
    erase_rules(sub, rules.rows, RULE_MARGIN, erased, band)
    erase_rules(sub.T, rules.cols, RULE_MARGIN, erased.T, band.T)
    near_rule = cv2.dilate(band.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    away = ~near_rule & ~text
    got = ink_threshold(sub, away, erased)
    mask = got.mask
    mask[text] = 0
    if not got.faint:  # specks off (a faint pen's thin, grainy strokes would go with them)
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    clean = bridge_crossings(sub, mask, rules, cell, got.low)
    raw = sub > max(got.low, LOW_INK)  # rules included, for the thickness of a box's edge
    n, labels, stats, cents = cv2.connectedComponentsWithStats(clean, connectivity=8)
    min_area = max(6, int(cell * cell * 0.004))
    on_rule = np.bincount(labels.ravel(), weights=near_rule.ravel(), minlength=n)
    boxes = cell_boxes(rules, cells, xs, ys, (x0, y0))
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
        chars = group_characters(labels, stats, comb_labs, height, digits, cell_of, seps)
        row = order[0][0]
        centres = char_centres(chars, labels)
        pieces = comb_pieces(chars, centres, comb, row)
        if digits:  # digits touching as written freely: another cut, the recogniser decides
            shared = sharing_a_cell(centres, comb, row, cell_of)
            eager = group_characters(labels, stats, comb_labs, height, digits, cell_of, seps, True)
            if len(eager) == len(chars) and field == "table":  # a 1 merged into a digit's
                eager = cut_one_off(chars, labels)  # side? (a score has the game to check it)
            if len(eager) != len(chars):
                alt_pieces = comb_pieces(eager, char_centres(eager, labels), comb, row)
                apart = at_gaps(eager, labels)
        if field == "table":
            joined = join_pieces(chars, stats, height)
            if joined is not None:
                joined_pieces = comb_pieces(joined, char_centres(joined, labels), comb, row)
    else:
        for lab, rc in owner.items():
            for span, cell_rc in split_at_rules(stats[lab], rc, rules, boxes, cell):
                parts = split_across_rows(labels, lab, stats[lab], span, cell_rc, rules, boxes, cell)
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
    doubtful |= faint_written_cells(
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
                joined_cut, pale, loops, doubted, apart, combed and rules_astray(rules, xs, ys, search))


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


def _beside_stroked_separator(
    out: dict, pieces: dict, stats: np.ndarray, rules: RuleSet, sides: list, cell: float,
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
    out: dict, rules: RuleSet, sides: list, cell: float, offset: tuple[int, int],
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
    level, spread = robust(usual)
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
    touching_one = plausible_cuts(combs, alternatives, apart)
    doubtful |= short_characters(combs) | across_separators(combs, layout, size) | lone_wide_table(combs)
    doubtful |= side_by_side_in_table(combs)
    if "table" not in alternatives and "table" not in touching_one:
        doubtful |= wide_in_table(combs)
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
