"""Stage 3: cut the fields of a rectified bulletin into per-cell glyphs.

Ink is measured against a local paper estimate (shadows and uneven light cancel
out), with thresholds that follow the photo's noise and the pen's own contrast
(pencil: ``ink``). The printed rules are found where they really are and erased
without the pen strokes lying on or crossing them (``rules``). In the grid, each
stroke goes to the cell holding its centre — a letter written across a cell line
stays whole — and letters touching across a rule are cut on it. In the combed
boxes (table, reference, score) the characters are taken as written, whatever
the comb: strokes are grouped into characters and touching digits cut apart
(``comb``). Writing too faint to cut is found cell by cell (``faint``), strokes
lying on a printed rule are given back or reported (``on_rules``), and
characters cut doubtfully are named (``comb_doubts``). This module assembles
those stages into ``Fields``: the glyphs of each cell, their alternatives, and
the cells the reader must doubt.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from typing import NamedTuple

import cv2
import numpy as np

from .comb import (
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
from .faint import faint_written_cells, pale_closed_loops, pale_ink_beside, with_faded_ink
from .ink import LOW_INK, ink_map, ink_threshold
from .layout import Box, Box4, Layout, to_px
from .on_rules import (
    EDGE_ERASED,
    HIDDEN_RUN,
    EdgeInk,
    along_rules,
    beside_stroked_separator,
    coloured_rule_before,
    glyph_with_edge,
    run_sides,
    stroke_on_rule_before,
    strokes_on_separators,
    thick_edge_above,
    thick_edge_below,
    tinted_edge_above,
)
from .rules import (
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
    #: table digits and reference characters (by key) seen with their ink down to
    #: ``faint.PALE_DEEP`` of their stroke level: an 8 written as an S whose closing strokes
    #: faded under shake was cut as a 5; a pencil 8 whose upper right stroke faded, as a 6
    faded: dict[str, Glyph] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not self.grid and not any(self.combs.values())

    def all(self) -> list[Glyph]:
        return list(self.grid.values()) + [g for comb in self.combs.values() for g in comb.values()]


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
        edge = thick_edge_above(raw, span, xs_, ys_, cell, rows.get(rc[0]), EDGE_ERASED if number else 1,
                                 bar=number, underside=field == "table")
        # what erasing the edges may have taken: a stroke drawn across the top edge, one
        # lying on the bottom edge the glyph reaches
        lost = [edge] if number and edge is not None and edge.across else []
        if number and not lost and tint is not None:
            tinted = tinted_edge_above(tint, raw, span, xs_, ys_, cell, rows.get(rc[0]), EDGE_ERASED)
            lost += [tinted] if tinted is not None else []
        if number:
            low = thick_edge_below(raw, (span[0], by1, span[2]), xs_, ys_, cell, rows.get(rc[0]))
            lost += [low] if low is not None and low.reaches else []
        given_back = None
        if lost:
            ink = EdgeInk(np.concatenate([e.ys for e in lost]), np.concatenate([e.xs for e in lost]),
                          True, True)
            given_back = glyph_with_edge(crop, xs_, ys_, ink)
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
    faded: dict[tuple[int, int], np.ndarray]  # table, reference: with their ink down to PALE_DEEP
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
    pale = pale_ink_beside(out, boxes, sub, clean, away, labels, pieces, cell) if field == "table" else {}
    doubted = set()
    if field == "table" and out:  # the score has the game to check it
        sides = [run_sides(raw, rule) for rule in rules.cols]  # walked once for both rules
        for rc, image in strokes_on_separators(out, rules, sides, cell, (x0, y0)).items():
            out[rc] = replace(out[rc], with_edge=image)
        doubted = beside_stroked_separator(out, pieces, stats, rules, sides, cell)
    if field in ("table", "score"):
        doubted |= along_rules(out, pieces, stats, on_rule) | (shared & set(out))
    loops = {}
    if field in ("table", "score"):
        loops = pale_closed_loops(out, sub, away, labels, pieces, wide=field == "score")
    # what the game may not check: the table, and a reference where the word is worth its
    # score at more than one place (the first coup's empty board)
    faded = with_faded_ink(out, sub, away, labels, pieces) if field in ("table", "ref") else {}
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
        or stroke_on_rule_before(out, pieces, stats, raw, sub, on_rule, rules, cell, min_area)
    )
    return _Cut(out, doubtful - set(out), marked or bool(out) or bool(doubtful), alternative, hidden,
                joined_cut, pale, loops, faded, doubted, apart,
                combed and rules_astray(rules, xs, ys, search))


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
#: a digit whose centre lies within this share of its cell's width from the cell's centre
#: is written in the cell, not freely over the comb
CENTRED = 0.25
#: a stroke left out of every glyph this long (share of a cell) may be what is left of a
#: faint digit: a thin pale 1 shows as a few specks
UNREAD_PART = 0.1


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
    faded: dict[str, Glyph] = {}
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
        if cut.hidden or (name == "table" and coloured_rule_before(bgr, combs[name], cells, cell)):
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
        faded |= {f"{name}:{rc[1]}": replace(cut.glyphs[rc], image=image)
                  for rc, image in cut.faded.items()}
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
                  pale_beside, even, touching_one, pale_loops, faded)


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
