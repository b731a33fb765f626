"""Pre-rendered tiles and the static board (premium squares, labels, row/column headers).

Everything here is cached by size: a full redraw only blits finished surfaces.
"""

from __future__ import annotations

from enum import Enum
from functools import lru_cache

import pygame

from engine.board import PREMIUMS, ROWS, SIZE, Premium
from engine.tiles import JOKER, value

from . import fonts, theme
from .layout import compute_layout


class TileKind(Enum):
    PLACED = "posée"  # on the grid, or the reliquat in the tirage
    NEW = "nouvelle"  # a new letter of the tirage
    ANNOUNCED = "annoncée"  # a tile of the top being announced
    REJECTED = "rejetée"  # a letter of a rejected tirage


_FACE = {
    TileKind.PLACED: theme.TILE,
    TileKind.NEW: theme.NEW_TILE,
    TileKind.ANNOUNCED: theme.ANNOUNCE_TILE,
    TileKind.REJECTED: theme.REJECTED_TILE,
}

LETTER_INK = 0.64  # letter glyph height per tile side (≥ 2.5 % of the screen on the grid)
VALUE_INK = 0.18
LETTER_MAX_WIDTH = 0.64  # wide letters (M, W) are narrowed so they never touch the value


@lru_cache(maxsize=512)
def text_surface(text: str, size: int, colour: theme.Colour) -> pygame.Surface:
    """Anti-aliased text, cached: the same strings come back at every redraw.

    Characters that draw nothing (NUL, controls, zero-width spaces: a player's
    name pasted from elsewhere) are left out, and a text with nothing visible
    left is an empty surface, never an error that would stop the screen.
    """
    font = fonts.font(size)
    visible = "".join(ch for ch in text if ch.isprintable() or ch == "\u00a0")  # no-break space
    try:
        return font.render(visible, True, colour)
    except (pygame.error, ValueError):  # « Text has zero width »
        return pygame.Surface((1, font.get_linesize()), pygame.SRCALPHA)


@lru_cache(maxsize=512)
def ink_box(text: str, size: int, colour: theme.Colour) -> pygame.Rect:
    """The inked part of ``text_surface(...)``, cached (measuring costs as much as drawing)."""
    return text_surface(text, size, colour).get_bounding_rect()


@lru_cache(maxsize=512)
def word_surface(word: str, size: int, colour: theme.Colour,
                 joker_colour: theme.Colour = theme.JOKER_INK) -> pygame.Surface:
    """A word in capitals; the letters a joker stands for (lower case in the engine's words)
    in ``joker_colour``, so « LARaIRES » reads LARAIRES with its joker A apart (rule 2.2)."""
    face = fonts.font(size)
    runs: list[tuple[str, theme.Colour]] = []
    for ch in word:
        ink = joker_colour if ch.islower() else colour
        if runs and runs[-1][1] == ink:
            runs[-1] = (runs[-1][0] + ch.upper(), ink)
        else:
            runs.append((ch.upper(), ink))
    if len(runs) <= 1:
        return text_surface(word.upper(), size, runs[0][1] if runs else colour)
    width = sum(face.size(text)[0] for text, _ in runs)
    surface = pygame.Surface((width, face.get_height()), pygame.SRCALPHA)
    x = 0
    for text, ink in runs:
        surface.blit(text_surface(text, size, ink), (x, 0))
        x += face.size(text)[0]
    return surface


def _ink(surface: pygame.Surface) -> pygame.Surface:
    """The inked part of a glyph surface, so glyphs can be placed by their visible box."""
    return surface.subsurface(surface.get_bounding_rect()).copy()


@lru_cache(maxsize=512)
def tile_surface(tile: str, side: int, kind: TileKind = TileKind.PLACED) -> pygame.Surface:
    """A tile ``side`` pixels wide: ``A``–``Z`` with its value, ``a``–``z`` or ``?`` a joker."""
    joker = tile == JOKER or tile.islower()
    face = theme.JOKER_TILE if joker and kind is not TileKind.REJECTED else _FACE[kind]
    ink_colour = theme.JOKER_TEXT if joker and kind is not TileKind.REJECTED else theme.TILE_TEXT
    surface = pygame.Surface((side, side), pygame.SRCALPHA)
    radius = max(2, side // 9)
    edge = max(1, side // 16)
    pygame.draw.rect(surface, theme.TILE_SHADE, surface.get_rect(), border_radius=radius)
    pygame.draw.rect(surface, face, (0, 0, side, side - edge), border_radius=radius)

    letter = tile.upper()
    glyph = _ink(text_surface(letter, fonts.size_for_ink(LETTER_INK * side), ink_colour))
    max_w = round(LETTER_MAX_WIDTH * side)
    if glyph.get_width() > max_w:
        glyph = pygame.transform.smoothscale(glyph, (max_w, glyph.get_height()))
    centre_x = side * (0.5 if joker else 0.43)
    top = round(0.1 * side) if letter != JOKER else (side - edge - glyph.get_height()) // 2
    surface.blit(glyph, (round(centre_x - glyph.get_width() / 2), top))
    if not joker:
        digits = _ink(text_surface(str(value(tile)), fonts.size_for_ink(VALUE_INK * side, "0"),
                                   ink_colour))
        surface.blit(digits, (round(0.93 * side) - digits.get_width(),
                              round(0.92 * side) - digits.get_height()))
    return surface


@lru_cache(maxsize=256)
def bag_cell_surface(letter: str, count: int, side: int) -> pygame.Surface:
    """One cell of the letters-left table: the letter, and how many are left in the corner
    (accent colour, so it never reads as a tile's value)."""
    from .layout import BAG_CELL_INK, BAG_COUNT_INK

    surface = pygame.Surface((side, side), pygame.SRCALPHA)
    pygame.draw.rect(surface, theme.BAG_CELL, surface.get_rect(), border_radius=max(2, side // 8))
    glyph = _ink(text_surface(letter, fonts.size_for_ink(BAG_CELL_INK * side), theme.TEXT))
    centre = 0.32 if count >= 10 else 0.38  # two digits: the letter steps aside
    surface.blit(glyph, (round(centre * side - glyph.get_width() / 2),
                         round(0.5 * side - glyph.get_height() / 2)))
    digits = _ink(text_surface(str(count), fonts.size_for_ink(BAG_COUNT_INK * side, "0"),
                               theme.ACCENT))
    surface.blit(digits, (round(0.95 * side) - digits.get_width(),
                          round(0.92 * side) - digits.get_height()))
    return surface


def _square_label(premium: Premium, row: int, col: int) -> str:
    return theme.STAR if (row, col) == (SIZE // 2, SIZE // 2) else theme.PREMIUM_LABELS[premium]


@lru_cache(maxsize=4)
def board_surface(width: int, height: int) -> pygame.Surface:
    """The empty grid with premiums and headers, drawn once per screen size."""
    layout = compute_layout(width, height)
    side = layout.header + layout.grid.width
    surface = pygame.Surface((side, side))
    surface.fill(theme.BACKGROUND)
    origin = (layout.row_header.x, layout.col_header.y)
    grid = layout.grid.move(-origin[0], -origin[1])
    cell = layout.cell
    pygame.draw.rect(surface, theme.GRID_LINES, grid)
    gap = max(1, cell // 28)
    label_size = fonts.size_for_ink(0.3 * cell)
    star_size = fonts.size_for_ink(0.6 * cell)
    for row in range(SIZE):
        for col in range(SIZE):
            premium = PREMIUMS[row][col]
            square = pygame.Rect(grid.x + col * cell + gap, grid.y + row * cell + gap,
                                 cell - 2 * gap, cell - 2 * gap)
            pygame.draw.rect(surface, theme.PREMIUM_COLOURS[premium], square)
            if premium is Premium.NONE:
                continue
            label = _square_label(premium, row, col)
            size = star_size if label == theme.STAR else label_size
            glyph = _ink(text_surface(label, size, theme.PREMIUM_LABEL_COLOURS[premium]))
            surface.blit(glyph, glyph.get_rect(center=square.center))

    header_size = min(fonts.size_for_ink(0.5 * cell), fonts.fit_size("15", 0.9 * cell, 400))
    for i in range(SIZE):
        number = _ink(text_surface(str(i + 1), header_size, theme.TEXT_DIM))
        centre = (grid.x + i * cell + cell // 2, grid.y - layout.header // 2 - 2)
        surface.blit(number, number.get_rect(center=centre))
        letter = _ink(text_surface(ROWS[i], header_size, theme.TEXT_DIM))
        centre = (grid.x - layout.header // 2 - 2, grid.y + i * cell + cell // 2)
        surface.blit(letter, letter.get_rect(center=centre))
    return surface.convert() if pygame.display.get_surface() else surface
