"""Writing too faint for the ink threshold.

A grid cell, or a stretch of the word's row, whose ink stays under the stroke threshold
but stands out of the paper around it is not empty: it is returned as doubtful, so that
the reader flags it instead of reading a blank (a written bulletin is never called blank).
In the numbered boxes, pale ink beside a digit (a 1 too pale to cut) and pale ink closing
a digit's open loop are found too, for the reader to read the digit again or doubt it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import groupby

import cv2
import numpy as np

from engine.board import SIZE

from .ink import robust
from .layout import Box4

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


def faint_written_cells(
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
    spread = robust(level)[1] if level.size else 0.0
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
        med, spread_c = robust(np.array(list(inner_ink.values())))
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
            found |= pale_row(sub, near, cells, origin, m, word_row)
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
    med, spread_c = robust(np.array(list(share.values())))
    floor = max(PALE_SHARE, med + 6 * spread_c)
    found: set[tuple[int, int]] = set()
    # lit cells in reading order; a run is a row's columns that follow one another
    lit = sorted(rc for rc, v in share.items() if v >= floor)
    for _, run in groupby(enumerate(lit), key=lambda t: (t[1][0], t[1][1] - t[0])):
        cells_run = [rc for _, rc in run]
        if PALE_RUN <= len(cells_run) <= SIZE:
            found.update(cells_run)
    return found


def pale_row(
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
        spread = robust(around[0] - around[1])[1] * np.sqrt(0.75)
    else:  # one row beside it: the light may differ from row to row, the row's median is paper
        level, spread = robust(excess)
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


#: ink beside a table digit, off its strokes, this share of their own ink level …
PALE_BESIDE = 0.35
#: … in one stretch at least this share of a cell long: a stroke of the digit too pale to
#: be cut (a 7's bars faded by camera shake: the upright alone reads 1, 57 → 51)
PALE_BESIDE_RUN = 0.2
#: strokes' own blur and JPEG rims: this share of a cell around the cut strokes is theirs
PALE_RIM = 0.06


def pale_ink_beside(
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
#: a table digit is seen again with its ink down to this share of its stroke level: the
#: strokes that close an 8 written as an S can fade below every level that showed a loop
#: (128 shaken at 1200×900: seen with the ink above 0.4, still 5 at 0.99; above 0.25, 8 at
#: 0.93)
PALE_DEEP = 0.25


def _loops(mask: np.ndarray, least: float) -> int:
    """How many holes of at least ``least`` pixels ``mask`` encloses."""
    contours, hierarchy = cv2.findContours(np.pad(mask.astype(np.uint8), 1), cv2.RETR_CCOMP,
                                           cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return 0
    return sum(1 for c, h in zip(contours, hierarchy[0], strict=True)
               if h[3] >= 0 and cv2.contourArea(c) >= least)


def pale_closed_loops(
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
    for rc, mine, height, box in _own_digits(out, labels, pieces, LOOP_PAD if wide else 0.0):
        cut = mine[box]
        least = ((PALE_LOOP_SIZE if wide else LOOP_SIZE) * height) ** 2
        loops = _loops(cut, least)
        stroke = float(np.median(sub[mine]))
        for level in PALE_LOOP:
            pale = (sub[box] > level * stroke) & away[box]
            whole = _touching(pale | cut, cut) if wide else pale | cut
            if _loops(whole, least) > loops:
                found[rc] = np.where(whole, sub[box], 0).astype(np.float32)
                break
    return found


def with_faded_ink(
    digits: dict, sub: np.ndarray, away: np.ndarray, labels: np.ndarray, pieces: dict,
) -> dict[tuple[int, int], np.ndarray]:
    """Each digit of ``digits`` (by cell) with its ink down to ``PALE_DEEP`` of its stroke
    level inside its box, off the rules, as a glyph's image: strokes that shake or a light
    pen faded under the cut's thresholds come back (an 8 written as an S, shaken: its
    strokes alone, and with the pale ink that closed one loop, read 5, sure). The reader
    reads the table's and the reference's so again: nothing else checks the table, and
    the game does not tell a reference from another where the word is worth its score at
    both (H8 in hard pencil, the 8's upper right stroke faded: H6, OUIRENT worth 66 at
    either on the first coup)."""
    seen = {}
    for rc, mine, _, box in _own_digits(digits, labels, pieces):
        level = PALE_DEEP * float(np.median(sub[mine]))
        whole = ((sub[box] > level) & away[box]) | mine[box]
        seen[rc] = np.where(whole, sub[box], 0).astype(np.float32)
    return seen


def _own_digits(
    digits: dict, labels: np.ndarray, pieces: dict, pad: float = 0.0,
) -> Iterator[tuple[tuple[int, int], np.ndarray, int, tuple[slice, slice]]]:
    """Each digit of ``digits`` that has strokes: its cell, the mask of the pieces cut as
    it, its height, and its box widened by ``pad`` of that height (within the field)."""
    for rc in digits:
        mine = np.isin(labels, [lab for lab, _ in pieces.get(rc, [])])
        ys, xs = np.nonzero(mine)
        if len(ys) == 0:
            continue
        height = int(ys.max() + 1 - ys.min())
        grow = int(pad * height)
        y0, y1 = max(ys.min() - grow, 0), min(ys.max() + 1 + grow, labels.shape[0])
        x0, x1 = max(xs.min() - grow, 0), min(xs.max() + 1 + grow, labels.shape[1])
        yield rc, mine, height, (slice(y0, y1), slice(x0, x1))


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
