"""Doubts on the characters of the numbered boxes once cut.

A piece too short for a digit, a glyph as wide as two, two tall strokes side by side in
one box, a character astride a separator: each names a field cell that the reader must
not take alone, and the cuts worth reading instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import TYPE_CHECKING

import cv2
import numpy as np

from .comb import ONE_WIDTH
from .layout import Layout, to_px

if TYPE_CHECKING:
    from .fields import Glyph


#: a character of a numbered box shorter than this share of the median height of the
#: writer's other characters there is a piece, not a digit
SHORT_CHAR = 0.5
#: a character with at least this share of its width on each side of a separator of its
#: numbered box lost what of its stroke lay on the separator (183 in pencil, the 8's left
#: side along the separator: its right half and top tick, 0.2 of it left of the line, read
#: 3 at 0.98; the benches' table digits reach 0.15 to 0.17 on bulletins flagged otherwise)
ACROSS = 0.15


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


def plausible_cuts(
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


def short_characters(combs: dict[str, dict[int, Glyph]]) -> set[str]:
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


def lone_wide_table(combs: dict[str, dict[int, Glyph]]) -> set[str]:
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


def side_by_side_in_table(combs: dict[str, dict[int, Glyph]]) -> set[str]:
    """The table's cells holding two tall strokes side by side (``side_by_side``), however
    narrow: two digits in one cell that the cut left together, the second too narrow or too
    pale to widen the glyph much (88 off the boxes: 1.16 times the writer's width, read 8
    at 0.988), or a 1 beside a digit in the middle cell of a number written off the boxes
    (161: « 16 » in one cell, the 1 apart from the 6 by two columns, read 6 at 0.98: 61)."""
    return {f"table:{c}" for c, glyph in combs.get("table", {}).items() if side_by_side(glyph.image)}


#: a character of a table this many times as wide as the table's other digits (1s aside)
#: and as tall as their height times ``TALL_IN_TABLE`` is two (the 6 with a 1 glued to it:
#: 2.6 times as wide as the 5 beside it and 1.5 times as tall; on the benches' 600 photos,
#: only two other characters are both, each a misread pair)
WIDE_IN_TABLE = 2.0
TALL_IN_TABLE = 1.4


def wide_in_table(combs: dict[str, dict[int, Glyph]]) -> set[str]:
    """The cells of a table of several characters holding one much wider and taller than
    the others there, that no second cut could split: two digits touching, not one digit
    (165 written freely, the slanted 1 glued to the 6 in one cell: one character 41 px wide
    and 47 tall beside a 5 of 16 by 31, read 6 at 0.99: 65, sure). Width alone says little
    (a 0 beside a 7 is often twice as wide), nor does the writer's other boxes' width (a
    reference written wide). A lone character has its own rule (:func:`lone_wide_table`);
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


def side_by_side(image: np.ndarray) -> bool:
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


def across_separators(combs: dict[str, dict[int, Glyph]], layout: Layout, size) -> set[str]:
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
