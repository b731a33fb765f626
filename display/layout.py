"""Where everything goes, computed from the real surface size (4:3 to 16:9, 1024×768 to 4K).

The grid takes about 90 % of the height at every ratio; the side panel gets
the rest of the width. A narrow panel (4:3, 5:4) sets the tirage on two rows
and the countdown to the panel's width; a wide one (16:9) keeps the countdown
digits at 16 % of the height and the tirage on one row. Text sizes are fixed
per role (``INK``), in fractions of the screen height: a text that is too
long is wrapped or cut, never shrunk (a top's word alone may be set smaller).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import pygame

from engine.board import SIZE

from . import fonts

COUNTDOWN_INK = 0.16  # countdown digits: 16 % of the screen height where the panel allows
HEADER_RATIO = 0.6  # row letters / column numbers band, in cells
PANEL_MIN = 0.365  # the side panel is at least this wide, in screen heights: at 4:3 the
# grid then fills 88 % of the height, at 16:9 all of it less the margins (93 %)
COUNTDOWN_SAMPLE = "0:00"
#: capital-letter height of each kind of text, as a fraction of the screen height
INK = {"title": 0.04, "body": 0.032, "label": 0.027, "table": 0.027, "small": 0.026,
       "rank": 0.037, "rank_title": 0.05}
#: the same in a narrow panel (4:3, 5:4): never under 2.5 % of the height
INK_NARROW = {**INK, "title": 0.034, "body": 0.028, "label": 0.027, "table": 0.027,
              "small": 0.027}
LINE = 1.55  # line height per capital height
BAG_CELL_INK = 0.5  # letter of a bag cell, per cell side (its count: ``BAG_COUNT_INK``)
BAG_COUNT_INK = 0.3
BAG_SUMMARY_SAMPLE = "Reste\u00a0100\u00a0: 45\u00a0voyelles, 55\u00a0consonnes, 2\u00a0jokers"
BAG_CELLS = 27  # 26 letters and the joker


@dataclass(frozen=True)
class Layout:
    """Rectangles of one screen size. ``grid`` is the 15×15 cell area."""

    width: int
    height: int
    margin: int
    pad: int
    cell: int
    header: int
    grid: pygame.Rect
    col_header: pygame.Rect
    row_header: pygame.Rect
    panel: pygame.Rect
    title_row: pygame.Rect  # the whole first line of the panel
    title: pygame.Rect  # its left part, when « PAUSE » or a badge may sit on the right
    countdown: pygame.Rect
    countdown_label: pygame.Rect  # « PAUSE », the SCRABBLE badge
    tirage: pygame.Rect
    bag: pygame.Rect  # « Reste 72 : … » and the letters left
    info: pygame.Rect
    full: pygame.Rect  # the whole screen less the margins: the ranking pages
    countdown_size: int  # font size of the countdown digits
    tirage_rows: int  # 1, or 2 in a narrow panel
    bag_columns: int
    bag_cell: int  # side of one cell of the letters-left table
    narrow: bool

    def cell_rect(self, row: int, col: int) -> pygame.Rect:
        return pygame.Rect(self.grid.x + col * self.cell, self.grid.y + row * self.cell,
                           self.cell, self.cell)

    def ink(self, role: str) -> float:
        """Capital-letter height in pixels of a text ``role`` (see ``INK``)."""
        return (INK_NARROW if self.narrow else INK)[role] * self.height

    def line(self, role: str) -> int:
        return round(self.ink(role) * LINE)

    def regions(self) -> dict[str, pygame.Rect]:
        """The named regions that must lie inside the screen and never overlap."""
        return {
            "grille": self.grid, "colonnes": self.col_header, "lignes": self.row_header,
            "titre": self.title_row, "chrono": self.countdown,
            "tirage": self.tirage, "sac": self.bag, "infos": self.info,
        }


def bag_rows(columns: int) -> int:
    return math.ceil(BAG_CELLS / max(1, columns))


@lru_cache(maxsize=16)
def compute_layout(width: int, height: int) -> Layout:
    """Lay out a ``width``×``height`` screen; pure and cached, so resizing is cheap."""
    h = height
    margin = max(6, round(0.012 * h))
    pad = max(4, round(0.01 * h))
    cell_h = (h - 2 * margin) / (SIZE + HEADER_RATIO)
    cell_w = (width - 3 * margin - PANEL_MIN * h) / (SIZE + HEADER_RATIO)
    cell = max(8, int(min(cell_h, cell_w)))
    header = round(HEADER_RATIO * cell)
    block = header + SIZE * cell
    top = (h - block) // 2
    left = margin
    grid = pygame.Rect(left + header, top + header, SIZE * cell, SIZE * cell)
    col_header = pygame.Rect(grid.x, top, grid.width, header)
    row_header = pygame.Rect(left, grid.y, header, grid.height)

    panel_x = left + block + margin
    panel = pygame.Rect(panel_x, margin, max(40, width - panel_x - margin), h - 2 * margin)
    inner = panel.inflate(-2 * pad, -2 * pad)
    narrow = inner.width < 0.6 * h

    title_row = pygame.Rect(inner.x, inner.y, inner.width, round(0.06 * h))
    # « Coup 5 » on the left; « PAUSE » or the SCRABBLE badge on the right of the same row
    title = pygame.Rect(title_row.x, title_row.y, round(title_row.width * 0.58), title_row.h)
    countdown_label = pygame.Rect(title.right + pad, title_row.y,
                                  title_row.right - title.right - pad, title_row.h)
    # countdown: 16 % of the height, or as large as the panel's width allows
    sample_w = fonts.font(200).size(COUNTDOWN_SAMPLE)[0] / 200
    countdown_size = min(fonts.size_for_ink(COUNTDOWN_INK * h, "0"),
                         max(8, int(inner.width * (0.85 if narrow else 0.96) / sample_w)))
    digits_ink = fonts.ink_ratio("0") * countdown_size
    countdown = pygame.Rect(inner.x, title.bottom + pad, inner.width, round(digits_ink * 1.2))
    y = countdown.bottom + pad
    rows = 2 if narrow else 1
    per_row = 4 if narrow else 7
    side = min(inner.width / (per_row + 0.6), (0.075 if narrow else 0.1) * h)
    tirage = pygame.Rect(inner.x, y, inner.width, round(side * (rows + 0.15 * rows)))
    y = tirage.bottom + pad

    # the letters left: small cells, the letter ≥ 2.5 % of the height, 7 to 14 on a row
    cell_side = max(0.025 * h / BAG_CELL_INK, inner.width / 14.5)
    columns = max(1, min(BAG_CELLS, int(inner.width // (cell_side * 1.02))))
    columns = 9 if 9 <= columns < 14 else columns  # three even rows where they fit
    inks = INK_NARROW if narrow else INK
    summary_lines = len(fonts.wrap(BAG_SUMMARY_SAMPLE, inner.width,
                                   fonts.size_for_ink(inks["label"] * h)))
    bag_h = summary_lines * round(inks["label"] * h * LINE) + \
        bag_rows(columns) * round(cell_side * 1.08)
    bag = pygame.Rect(inner.x, y, inner.width, bag_h)
    y = bag.bottom + pad
    info = pygame.Rect(inner.x, y, inner.width, max(1, inner.bottom - y))
    full = pygame.Rect(margin, margin, width - 2 * margin, h - 2 * margin)
    return Layout(width, height, margin, pad, cell, header, grid, col_header, row_header, panel,
                  title_row, title, countdown, countdown_label, tirage, bag, info, full, countdown_size,
                  rows, columns, int(cell_side), narrow)
