"""Characters as the person wrote them, whatever the printed cells.

In the numbered boxes (table, reference, score) strokes are grouped into characters
whatever the comb, touching digits are cut apart, a 1's lead-in is joined to its digit;
in the grid, letters touching across a rule are parted on it. The comb's own cut and an
eager one are both kept, for the recogniser to weigh.
"""

from __future__ import annotations

import cv2
import numpy as np

from .layout import Box4
from .rules import RuleSet

#: a stroke group of the grid reaching this far (cells) on both sides of a rule is two
#: letters touching there (a letter across the rule mostly lies on one side)
SPLIT_PART = 0.3


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


def group_characters(
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
    """Whether a group of ``group_characters`` and the next piece (``h`` tall) are of nearly one
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
    """The small groups of ``group_characters``, those of one cell close together made one."""
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


def at_gaps(chars: list[tuple[list[int], tuple[int, int] | None]], labels: np.ndarray) -> bool:
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


def cut_one_off(
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


def join_pieces(
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


def char_centres(chars, labels: np.ndarray) -> list[float]:
    """The column of each character's ink centre (its span's middle where it has one)."""
    return [(span[0] + span[1]) / 2 if span is not None
            else float(np.nonzero(np.isin(labels, labs_))[1].mean()) for labs_, span in chars]


def comb_pieces(chars, centres: list[float], comb: list[Box4], row: int) -> dict:
    """Cell → strokes of each character of a combed field (``centres``: their
    ``char_centres``), numbered by ``comb_keys``."""
    return {
        (row, k): [(lab, span) for lab in labs_]
        for (labs_, span), k in zip(chars, comb_keys(centres, comb), strict=True)
    }


def sharing_a_cell(centres: list[float], comb: list[Box4], row: int, cell_of) -> set[tuple[int, int]]:
    """The cells given to two neighbouring characters (``centres``: their ``char_centres``)
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


def split_at_rules(
    stat: np.ndarray, rc: tuple[int, int], rules: RuleSet, boxes: dict, cell: float
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


def split_across_rows(
    labels: np.ndarray, lab: int, stat: np.ndarray, span: tuple[int, int] | None,
    rc: tuple[int, int], rules: RuleSet, boxes: dict, cell: float,
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
#: a character narrower than this share of its height is a 1 (or an I)
ONE_WIDTH = 0.45
