"""Where everything goes, computed from the real surface size (4:3 to 16:9, 1024×768 to 4K).

The countdown's width fixes the side panel; the grid takes all the rest.
When the grid leaves a band below it (4:3), the tirage moves there, larger.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import pygame

from engine.board import SIZE

from . import fonts

COUNTDOWN_INK = 0.16  # countdown digits: 16 % of the screen height (issue: ≥ 15 %)
HEADER_RATIO = 0.8  # row letters / column numbers band, in cells
COUNTDOWN_SAMPLE = "0:00"


@dataclass(frozen=True)
class Layout:
    """Rectangles of one screen size. ``grid`` is the 15×15 cell area."""

    width: int
    height: int
    margin: int
    cell: int
    header: int
    grid: pygame.Rect
    col_header: pygame.Rect
    row_header: pygame.Rect
    panel: pygame.Rect
    title: pygame.Rect
    countdown: pygame.Rect
    tirage: pygame.Rect
    info: pygame.Rect
    countdown_size: int  # font size of the countdown digits
    tirage_below: bool

    def cell_rect(self, row: int, col: int) -> pygame.Rect:
        return pygame.Rect(self.grid.x + col * self.cell, self.grid.y + row * self.cell,
                           self.cell, self.cell)

    def regions(self) -> dict[str, pygame.Rect]:
        """The named regions that must lie inside the screen and never overlap."""
        return {
            "grille": self.grid, "colonnes": self.col_header, "lignes": self.row_header,
            "titre": self.title, "chrono": self.countdown, "tirage": self.tirage,
            "infos": self.info,
        }


@lru_cache(maxsize=16)
def compute_layout(width: int, height: int) -> Layout:
    """Lay out a ``width``×``height`` screen; pure and cached, so resizing is cheap."""
    h = height
    margin = max(6, round(0.02 * h))
    pad = max(4, round(0.015 * h))
    countdown_size = fonts.size_for_ink(COUNTDOWN_INK * h, "0")
    countdown_font = fonts.font(countdown_size)
    countdown_w = countdown_font.size(COUNTDOWN_SAMPLE)[0]
    panel_min = countdown_w + 2 * pad + 2 * margin

    side = min(h - 2 * margin, width - 3 * margin - panel_min)
    cell = max(8, int(side / (SIZE + HEADER_RATIO)))
    header = round(HEADER_RATIO * cell)
    block = header + SIZE * cell

    band = h - 3 * margin - block
    tirage_below = band >= 0.12 * h
    if tirage_below:  # 4:3 and 5:4: tiles under the grid, the pair centred vertically
        band = min(band, round(SIZE * cell / 7.6 * 1.3))
        top = (h - block - margin - band) // 2
    else:
        top = (h - block) // 2
    left = margin
    grid = pygame.Rect(left + header, top + header, SIZE * cell, SIZE * cell)
    col_header = pygame.Rect(grid.x, top, grid.width, header)
    row_header = pygame.Rect(left, grid.y, header, grid.height)

    panel_x = left + block + margin
    panel = pygame.Rect(panel_x, margin, width - panel_x - margin, h - 2 * margin)
    inner = panel.inflate(-2 * pad, -2 * pad)

    title = pygame.Rect(inner.x, inner.y, inner.width, round(0.085 * h))
    countdown_h = countdown_font.get_height()
    countdown = pygame.Rect(inner.x, title.bottom + pad, inner.width, countdown_h)
    y = countdown.bottom + pad
    if tirage_below:
        tirage = pygame.Rect(grid.x, grid.bottom + margin, grid.width, band)
    else:
        tile = min(inner.width / 7.6, 0.11 * h)
        tirage = pygame.Rect(inner.x, y, inner.width, round(tile * 1.15))
        y = tirage.bottom + pad
    info = pygame.Rect(inner.x, y, inner.width, inner.bottom - y)
    return Layout(width, height, margin, cell, header, grid, col_header, row_header, panel,
                  title, countdown, tirage, info, countdown_size, tirage_below)
