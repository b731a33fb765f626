"""Draw a ``View`` on a surface: a full redraw on a state change, only the countdown otherwise.

``render(view, surface)`` is pure (tests, snapshots); ``Renderer`` keeps the
last view so the window can update just the rectangles that changed.
Text sizes are fixed by role (``layout.INK``): a name too long for its column
is cut with « … », a sentence is wrapped; only a top's word may be set
smaller, because it is never cut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from . import fonts, theme
from .layout import Layout, compute_layout
from .tiles import (
    TileKind,
    bag_cell_surface,
    board_surface,
    ink_box,
    text_surface,
    tile_surface,
    word_surface,
)
from .view import Countdown, RankLine, Screen, Top, View, bag_letters, bag_summary

WORD_SHRINK = 0.3  # a top's word is never cut: 15 letters always fit at 30 %

COUNTDOWN_COLOURS = {
    "normal": theme.COUNTDOWN,
    "alerte": theme.COUNTDOWN_WARNING,
    "dernieres": theme.COUNTDOWN,
    "termine": theme.COUNTDOWN_OVER,
    "pause": theme.COUNTDOWN_PAUSE,
}


@dataclass
class RenderInfo:
    """What was drawn where: the layout and every text's rectangle (for tests and debugging)."""

    layout: Layout
    texts: list[tuple[str, pygame.Rect]] = field(default_factory=list)
    tiles: list[tuple[str, TileKind, pygame.Rect]] = field(default_factory=list)  # the tirage
    bag_cells: list[tuple[str, int, pygame.Rect]] = field(default_factory=list)  # letters left
    areas: list[pygame.Rect] = field(default_factory=list)  # where texts may be written
    grid_shown: bool = True
    pages: int = 1  # pages of the ranking
    page: int = 0  # the page shown (0-based)
    ranking_rows: list[str] = field(default_factory=list)  # names on the page shown


def _gap_text(gap: int | None) -> str:
    if gap is None:
        return ""
    return "0" if gap == 0 else f"−{gap}" if gap > 0 else f"+{-gap}"


def _percent_text(percent: float | None) -> str:
    return "" if percent is None else f"{percent:.1f} %".replace(".", ",")


class Renderer:
    """Draws views on one surface; re-reads the surface size at every full redraw."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.view: View | None = None
        self.info: RenderInfo | None = None
        self._countdown_key: tuple | None = None
        self._full_draw = False  # texts drawn by a full redraw are recorded; tick()'s are not

    # -- public -----------------------------------------------------------------------------
    def info_size(self) -> tuple[int, int] | None:
        """The size the last full redraw was laid out for."""
        return (self.info.layout.width, self.info.layout.height) if self.info else None

    def draw(self, view: View, force: bool = False) -> list[pygame.Rect]:
        """Draw ``view``; returns the dirty rectangles (empty when nothing changed)."""
        size = self.surface.get_size()
        if (not force and self.info is not None and (self.info.layout.width,
                                                     self.info.layout.height) == size
                and view.same_except_countdown(self.view)):
            self.view = view
            return self.tick(view.countdown)
        self.view = view
        self.info = RenderInfo(compute_layout(*size))
        self._countdown_key = None
        self._full_draw = True
        try:
            self._draw_all(view)
        finally:
            self._full_draw = False
        return [self.surface.get_rect()]

    def clock_rects(self) -> list[pygame.Rect]:
        """What a countdown tick redraws: the digits, and « PAUSE » beside the title."""
        layout = self.info.layout
        return [layout.countdown, layout.countdown_label]

    def tick(self, countdown: Countdown | None) -> list[pygame.Rect]:
        """Redraw the countdown box only, and only when its text or colour changes."""
        if self.info is None or self.view is None or self.view.screen is not Screen.COUP:
            return []
        key = ("", "", "") if countdown is None else (countdown.text, countdown.state,
                                                       countdown.label)
        if key == self._countdown_key:
            return []
        self._countdown_key = key
        rects = self.clock_rects()
        for rect in rects:
            self.surface.fill(theme.PANEL, rect)
        if countdown is not None and countdown.state == "dernieres":  # the last 10 s: red
            pygame.draw.rect(self.surface, theme.COUNTDOWN_LAST_BG, rects[0],
                             border_radius=self.info.layout.margin)
        if countdown is not None:
            self._draw_countdown(countdown, self.info.layout.countdown)
        return rects

    # -- drawing ----------------------------------------------------------------------------
    def _full_screen(self, view: View) -> bool:
        return view.screen is Screen.CLASSEMENT or (view.screen is Screen.FIN
                                                    and bool(view.ranking))

    def _draw_all(self, view: View) -> None:
        layout = self.info.layout
        surface = self.surface
        if self._full_screen(view):
            surface.fill(theme.BACKGROUND)
            self.info.grid_shown = False
            self.info.areas = [layout.full]
            self._ranking_page(view)
            return
        self.info.areas = [layout.panel]
        board = surface.blit(board_surface(layout.width, layout.height),
                             (layout.row_header.x, layout.col_header.y))
        # the background around the board only: at 4K a whole-screen fill costs as much again
        width, height = surface.get_size()
        for rect in (pygame.Rect(0, 0, width, board.top), pygame.Rect(0, board.bottom, width,
                                                                      height - board.bottom),
                     pygame.Rect(0, board.top, board.left, board.height),
                     pygame.Rect(board.right, board.top, width - board.right, board.height)):
            if rect.width > 0 and rect.height > 0:
                surface.fill(theme.BACKGROUND, rect)
        self._draw_board(view)
        pygame.draw.rect(surface, theme.PANEL, layout.panel, border_radius=layout.margin)
        {
            Screen.ACCUEIL: self._panel_accueil,
            Screen.COUP: self._panel_coup,
            Screen.ANNONCE: self._panel_annonce,
            Screen.REJET: self._panel_rejet,
            Screen.FIN: self._panel_fin,
        }[view.screen](view)

    def _draw_board(self, view: View) -> None:
        layout = self.info.layout
        cell = layout.cell
        announced = view.screen is Screen.ANNONCE and view.last_top is not None
        highlight = set(view.last_top.squares) if view.last_top else set()
        for row, line in enumerate(view.board.cells):
            for col, tile in enumerate(line):
                if tile is None:
                    continue
                lit = announced and (row, col) in highlight
                kind = TileKind.ANNOUNCED if lit else TileKind.PLACED
                self.surface.blit(tile_surface(tile, cell, kind), layout.cell_rect(row, col))
        if view.screen in (Screen.COUP, Screen.ANNONCE) and highlight:
            width = max(3, cell // 10)
            for row, col in highlight:
                pygame.draw.rect(self.surface, theme.HIGHLIGHT,
                                 layout.cell_rect(row, col).inflate(width // 2, width // 2),
                                 width, border_radius=max(2, cell // 9))

    def _place(self, box: pygame.Rect, rect: pygame.Rect, align: str, valign: str) -> None:
        if align == "center":
            box.centerx = rect.centerx
        elif align == "right":
            box.right = rect.right
        else:
            box.left = rect.left
        if valign == "top":
            box.top = rect.top
        elif valign == "bottom":
            box.bottom = rect.bottom
        else:
            box.centery = rect.centery

    def _text(self, text: str, rect: pygame.Rect, ink: float, colour: theme.Colour,
              align: str = "left", valign: str = "center",
              min_shrink: float = 1.0) -> pygame.Rect:
        """Draw ``text`` with capitals ``ink`` px tall in ``rect``; record its inked box.

        The size is fixed: too wide, the text is cut with « … » (``min_shrink`` < 1 lets it
        shrink that far first: the big one-line titles)."""
        if not text:
            return pygame.Rect(rect.x, rect.y, 0, 0)
        wanted = fonts.size_for_ink(ink)
        size = fonts.fit_size(text, rect.width, wanted) if min_shrink < 1 else wanted
        floor = max(4, round(wanted * min_shrink))
        if size < floor or fonts.font(size).size(text)[0] > rect.width:
            size = max(size, floor)
            text = fonts.ellipsize(text, rect.width, size)
            if not text:
                return pygame.Rect(rect.x, rect.y, 0, 0)
        while size > 4 and fonts.font(size).get_height() > rect.height:
            size -= max(1, size // 20)  # never for the fixed sizes: their lines are tall enough
        glyphs = text_surface(text, size, colour)
        box = glyphs.get_rect()
        self._place(box, rect, align, valign)
        self.surface.blit(glyphs, box)
        inked = ink_box(text, size, colour).move(box.topleft)
        self.info.texts.append((text, inked))
        return box

    def _word(self, word: str, rect: pygame.Rect, ink: float, colour: theme.Colour,
              align: str = "left") -> pygame.Rect:
        """A top's word in capitals, joker letters in the joker colour; never cut: set smaller
        when it does not fit (down to ``WORD_SHRINK``)."""
        if not word:
            return pygame.Rect(rect.x, rect.y, 0, 0)
        upper = word.upper()
        wanted = fonts.size_for_ink(ink)
        size = max(4, min(wanted, fonts.fit_size(upper, rect.width, wanted)))
        while size > 4 and fonts.font(size).get_height() > rect.height:
            size -= max(1, size // 20)
        glyphs = word_surface(word, size, colour)
        box = glyphs.get_rect()
        self._place(box, rect, align, "center")
        self.surface.blit(glyphs, box)
        inked = ink_box(upper, size, colour).move(box.topleft)
        self.info.texts.append((upper, inked))
        return box

    def _lines(self, rect: pygame.Rect, lines: list[tuple[str, theme.Colour]], ink: float,
               keep_last: bool = False) -> int:
        """Wrapped lines, as many as fit (the first ones or the most recent); returns the
        height used."""
        if not lines or rect.height <= 0:
            return 0
        line_h = round(ink * 1.55)
        size = fonts.size_for_ink(ink)
        lines = [(part, colour) for text, colour in lines
                 for part in fonts.wrap(text, rect.width, size)]
        count = max(0, rect.height // line_h)
        shown = lines[-count:] if keep_last else lines[:count]
        for i, (text, colour) in enumerate(shown):
            self._text(text, pygame.Rect(rect.x, rect.y + i * line_h, rect.width, line_h),
                       ink, colour)
        return len(shown) * line_h

    def _header(self, text: str, beside: bool = False) -> None:
        """The panel's first line; ``beside``: its right part is kept for « PAUSE » or the
        SCRABBLE badge."""
        layout = self.info.layout
        self._text(text, layout.title if beside else layout.title_row, layout.ink("title"),
                   theme.TEXT)

    def _draw_countdown(self, countdown: Countdown, rect: pygame.Rect) -> None:
        layout = self.info.layout
        colour = COUNTDOWN_COLOURS[countdown.state]
        text = countdown.text
        if countdown.label:
            self._text(countdown.label, layout.countdown_label, layout.ink("title"),
                       theme.TEXT, align="right", min_shrink=0.5)
            if not self._full_draw:  # a tick: not a lasting text
                self.info.texts.pop()
        if countdown.state == "termine":
            self._big(text, rect, colour, 0.12 * layout.height, record=self._full_draw)
            return
        size = layout.countdown_size
        # composed from cached glyphs: a new second costs a few blits, not a 4K text render
        font = fonts.font(size)
        advances = [font.size(ch)[0] for ch in text]
        x = rect.centerx - sum(advances) // 2
        digits_h = fonts.ink_ratio("0") * size
        y = round(rect.centery - digits_h / 2) - fonts.ink_top(size)
        for ch, advance in zip(text, advances, strict=True):
            self.surface.blit(text_surface(ch, size, colour), (x, y))
            x += advance

    def _big(self, text: str, rect: pygame.Rect, colour: theme.Colour, ink: float,
             record: bool = True) -> None:
        self._text(text, rect, ink, colour, align="center", min_shrink=WORD_SHRINK)
        if not record:  # the countdown box is redrawn by tick(): not a lasting text
            self.info.texts.pop()

    def _badge(self, rect: pygame.Rect, ink: float, align: str = "center") -> pygame.Rect:
        """« SCRABBLE » on a rounded plate of the accent colour (as large as ``rect`` allows,
        up to capitals ``ink`` tall)."""
        size = fonts.size_for_ink(ink)
        while size > 8 and ink_box("SCRABBLE", size, theme.BADGE_TEXT).width + \
                size * 0.9 > rect.width:
            size -= 1
        ink = fonts.ink_ratio("H") * size
        glyphs = text_surface("SCRABBLE", size, theme.BADGE_TEXT)
        inked = ink_box("SCRABBLE", size, theme.BADGE_TEXT)
        plate = pygame.Rect(0, 0, inked.width + round(ink * 1.2), round(ink * 1.8))
        self._place(plate, rect, align, "center")
        pygame.draw.rect(self.surface, theme.BADGE, plate, border_radius=max(2, plate.h // 4))
        at = (plate.centerx - inked.centerx, plate.centery - inked.centery)
        self.surface.blit(glyphs, at)
        self.info.texts.append(("SCRABBLE", inked.move(at)))
        return plate

    def _tirage(self, letters: str, reliquat_len: int, kinds: tuple[TileKind, TileKind]) -> None:
        """Seven tiles, the reliquat first then a gap; in a narrow panel 4 on a row, then 3."""
        layout = self.info.layout
        rect = layout.tirage
        if not letters:
            return
        rows = [letters[:4], letters[4:]] if layout.tirage_rows == 2 and len(letters) > 4 \
            else [letters]
        per_row = max(len(r) for r in rows)
        if layout.tirage_rows == 2:
            per_row = max(per_row, 4)
        gap_ratio = 0.35 if 0 < reliquat_len < len(letters) else 0.0
        spacing = 0.12
        side = int(min(rect.width / (per_row + (per_row - 1) * spacing + gap_ratio),
                       rect.height / (len(rows) * 1.15) if len(rows) > 1 else rect.height * 0.87))
        row_h = side * 1.15
        top = rect.centery - (len(rows) * row_h - side * 0.15) / 2
        index = 0
        for r, row in enumerate(rows):
            has_gap = gap_ratio and index < reliquat_len < index + len(row)
            total = len(row) * side + (len(row) - 1) * side * spacing + \
                (gap_ratio * side if has_gap else 0)
            x = rect.centerx - total / 2
            y = top + r * row_h
            for letter in row:
                kind = kinds[0] if index < reliquat_len else kinds[1]
                if index == reliquat_len and has_gap:
                    x += gap_ratio * side
                box = self.surface.blit(tile_surface(letter, side, kind), (round(x), round(y)))
                self.info.tiles.append((letter, kind, box))
                x += side * (1 + spacing)
                index += 1

    def _bag_block(self, view: View) -> None:
        """« Reste 72 : 28 voyelles, 42 consonnes, 2 jokers » and the letters left, in a table."""
        layout = self.info.layout
        rect = layout.bag
        if view.bag is None:
            if view.bag_left is not None:
                self._text(f"Reste {view.bag_left}", pygame.Rect(rect.x, rect.y, rect.width,
                                                                 layout.line("label")),
                           layout.ink("label"), theme.TEXT_DIM)
            return
        used = self._lines(rect, [(bag_summary(view.bag), theme.TEXT_DIM)], layout.ink("label"))
        side = layout.bag_cell
        step = rect.width / layout.bag_columns
        for i, (letter, count) in enumerate(bag_letters(view.bag)):
            row, col = divmod(i, layout.bag_columns)
            y = rect.y + used + round(row * side * 1.08)
            if y + side > rect.bottom:
                break
            box = self.surface.blit(bag_cell_surface(letter, count, side),
                                    (round(rect.x + col * step), y))
            self.info.bag_cells.append((letter, count, box))

    def _top_line(self, top: Top, rect: pygame.Rect, ink: float, colour: theme.Colour) -> None:
        """``MOT  H4  32`` in three aligned columns; the word never cut."""
        self._word(top.word, pygame.Rect(rect.x, rect.y, round(rect.width * 0.56), rect.height),
                   ink, colour)
        self._row(rect, ((top.ref, 0.58, 0.2, "left"), (str(top.score), 0.78, 0.22, "right")),
                  ink, colour)

    def _top_block(self, top: Top | None, total: int, rect: pygame.Rect) -> pygame.Rect:
        """« Dernier top » (with its SCRABBLE badge) and « Total des tops »; returns the space
        left below."""
        layout = self.info.layout
        y = rect.y
        if top is not None and rect.h >= layout.line("label") + layout.line("body"):
            label_h = layout.line("label")
            label = pygame.Rect(rect.x, y, rect.width, label_h)
            box = self._text("Dernier top", label, layout.ink("label"), theme.TEXT_DIM)
            if top.scrabble:
                self._badge(pygame.Rect(box.right + layout.pad, y, rect.right - box.right
                                        - layout.pad, label_h), layout.ink("small"),
                            align="left")
            y += label_h
            line = pygame.Rect(rect.x, y, rect.width, layout.line("body"))
            self._top_line(top, line, layout.ink("body"), theme.TEXT)
            y += line.height + layout.pad
        line = pygame.Rect(rect.x, y, rect.width, layout.line("body"))
        value_w = fonts.font(fonts.size_for_ink(layout.ink("body"))).size(f"{total}")[0]
        label = fonts.font(fonts.size_for_ink(layout.ink("body"))).size("Total des tops")[0]
        two_lines = label + value_w + layout.pad > line.width
        if line.bottom + (line.h if two_lines else 0) > rect.bottom:
            return pygame.Rect(rect.x, y, rect.width, 0)
        if two_lines:  # narrow panel: the total on its own line
            self._text("Total des tops", line, layout.ink("body"), theme.ACCENT)
            y += line.height
            line = pygame.Rect(rect.x, y, rect.width, layout.line("body"))
        self._text(f"{total}", line, layout.ink("body"), theme.ACCENT, align="right")
        if label + value_w + layout.pad <= line.width:
            self._text("Total des tops", line, layout.ink("body"), theme.ACCENT)
        y += line.height + layout.pad
        return pygame.Rect(rect.x, y, rect.width, max(0, rect.bottom - y))

    def _row(self, rect: pygame.Rect, cells: tuple[tuple[str, float, float, str], ...],
             ink: float, colour: theme.Colour) -> None:
        """One line in columns (text, start, width as fractions of ``rect``, alignment):
        each cell fits on its own, so a long name never pushes the score off screen."""
        for text, start, width, align in cells:
            box = pygame.Rect(rect.x + round(start * rect.width), rect.y,
                              round(width * rect.width), rect.height)
            self._text(text, box, ink, colour, align=align)

    def _announced_word(self, top: Top, rect: pygame.Rect, ink: float) -> None:
        """« MOT  H4 » centred, the word on its own line when both do not fit side by side."""
        size = fonts.size_for_ink(ink)
        face = fonts.font(size)
        whole_w = face.size(f"{top.word.upper()}  {top.ref}")[0]
        if whole_w <= rect.width:
            word_w = face.size(top.word.upper() + "  ")[0]
            left = rect.centerx - whole_w // 2
            self._word(top.word, pygame.Rect(left, rect.y, word_w, rect.height), ink, theme.TEXT)
            self._text(top.ref, pygame.Rect(left + word_w, rect.y, whole_w - word_w,
                                            rect.height), ink, theme.TEXT)
        else:
            half = rect.height // 2
            self._word(top.word, pygame.Rect(rect.x, rect.y, rect.width, half), ink,
                       theme.TEXT, align="center")
            self._text(top.ref, pygame.Rect(rect.x, rect.y + half, rect.width,
                                            rect.height - half), ink, theme.TEXT,
                       align="center")

    def _past_tops(self, view: View, rect: pygame.Rect, title: str = "Tops précédents",
                   skip: Top | None = None) -> None:
        """The tops of the game, the most recent last; ``skip`` (the one shown above) left out."""
        layout = self.info.layout
        tops = [t for t in view.past_tops if t != skip]
        title_h = layout.line("label")
        line_h = layout.line("table")
        count = (rect.height - title_h) // line_h
        if not tops or count <= 0:
            return
        self._text(title, pygame.Rect(rect.x, rect.y, rect.width, title_h), layout.ink("label"),
                   theme.TEXT_DIM)
        ink = layout.ink("table")
        for i, top in enumerate(tops[-count:]):
            line = pygame.Rect(rect.x, rect.y + title_h + i * line_h, rect.width, line_h)
            self._text(f"{top.coup}", pygame.Rect(line.x, line.y, round(0.1 * line.w), line_h),
                       ink, theme.TEXT_DIM, align="right")
            word = pygame.Rect(line.x + round(0.14 * line.w), line.y, round(0.5 * line.w),
                               line_h)
            self._word(top.word, word, ink, theme.TEXT)
            self._row(line, ((top.ref, 0.66, 0.16, "left"), (f"{top.score}", 0.84, 0.16,
                                                             "right")), ink, theme.TEXT)

    # -- the screens --------------------------------------------------------------------------
    def _panel_accueil(self, view: View) -> None:
        layout = self.info.layout
        self._header("Bienvenue")
        self._big(view.title, layout.countdown, theme.ACCENT, 0.07 * layout.height)
        self._lines(layout.tirage, [("Premier tirage dans un instant", theme.TEXT)],
                    layout.ink("body"))
        self._settings(layout.bag.union(layout.info), view.settings)

    def _settings(self, rect: pygame.Rect, settings: tuple[tuple[str, str], ...]) -> None:
        """Each setting as a small grey label over its value, as long as they fit."""
        layout = self.info.layout
        label_h, value_h = layout.line("label"), layout.line("body")
        size = fonts.size_for_ink(layout.ink("body"))
        y = rect.y
        for label, value in settings:
            values = fonts.wrap(value, rect.width, size)
            if y + label_h + value_h * len(values) > rect.bottom:
                break
            self._text(label, pygame.Rect(rect.x, y, rect.width, label_h), layout.ink("label"),
                       theme.TEXT_DIM)
            y += label_h
            for line in values:
                self._text(line, pygame.Rect(rect.x, y, rect.width, value_h), layout.ink("body"),
                           theme.TEXT)
                y += value_h
            y += layout.pad

    def _panel_coup(self, view: View) -> None:
        layout = self.info.layout
        self._header(f"Coup {view.coup}", beside=True)
        self._countdown_key = None
        self.tick(view.countdown)
        self._tirage(view.tirage, len(view.reliquat), (TileKind.PLACED, TileKind.NEW))
        self._bag_block(view)
        rest = self._top_block(view.last_top, view.total, layout.info)
        self._past_tops(view, rest, skip=view.last_top)

    def _panel_annonce(self, view: View) -> None:
        layout = self.info.layout
        h = layout.height
        top = view.last_top
        self._header(f"Coup {view.coup}")
        if top is not None:
            box = layout.countdown
            if top.scrabble:  # the score, and the badge under it
                score_h = round(box.h * 0.62)
                self._big(f"{top.score} points", pygame.Rect(box.x, box.y, box.w, score_h),
                          theme.ACCENT, 0.07 * h)
                self._badge(pygame.Rect(box.x, box.y + score_h, box.w, box.h - score_h),
                            min(0.04 * h, (box.h - score_h) / 1.9))
            else:
                self._big(f"{top.score} points", box, theme.ACCENT, 0.1 * h)
            self._announced_word(top, layout.tirage, 0.05 * h)
        self._bag_block(view)
        rest = self._top_block(None, view.total, layout.info)
        self._past_tops(view, rest, skip=top)

    def _panel_rejet(self, view: View) -> None:
        layout = self.info.layout
        self._header(f"Coup {view.coup}")
        self._big("Tirage rejeté", layout.countdown, theme.REJECTED, 0.07 * layout.height)
        self._tirage(view.tirage, len(view.tirage), (TileKind.REJECTED, TileKind.REJECTED))
        message = view.message or "Les lettres retournent dans le sac."
        self._lines(layout.bag.union(layout.info), [(message, theme.TEXT)], layout.ink("body"))

    def _panel_fin(self, view: View) -> None:
        """The end without players: the final grid, the total and every top."""
        layout = self.info.layout
        self._header("Fin de partie", beside=True)
        box = layout.countdown
        self._big(f"{view.total} points", box, theme.ACCENT, 0.09 * layout.height)
        played = f" en {view.coup} coups" if view.coup > 1 else ""
        self._text(f"Total des tops{played}", layout.countdown_label, layout.ink("label"),
                   theme.TEXT, align="right")
        self._past_tops(view, layout.bag.union(layout.info), "Tops de la partie")

    # -- the ranking, full screen ---------------------------------------------------------------
    RANK_COLUMNS = ((0.0, 0.09, "right"), (0.12, 0.4, "left"), (0.53, 0.12, "right"),
                    (0.67, 0.12, "right"), (0.8, 0.2, "right"))

    def _solo_lines(self, view: View) -> tuple[str, ...]:
        """The solos as one paragraph of at most two lines."""
        if view.screen is not Screen.FIN or not view.solos:
            return ()
        layout = self.info.layout
        lines = fonts.wrap(" · ".join(view.solos), layout.full.width - 2 * layout.pad,
                           fonts.size_for_ink(layout.ink("rank")))
        if len(lines) > 2:
            lines = (lines[0], lines[1] + " …")
        return lines

    def rank_lines_per_page(self, view: View) -> int:
        area = self._ranking_area(view)
        return max(1, area.height // self.info.layout.line("rank"))

    def _ranking_area(self, view: View) -> pygame.Rect:
        layout = self.info.layout
        full = layout.full
        top = full.y + layout.line("rank_title") + layout.line("rank")
        top += layout.line("rank") * len(self._solo_lines(view))
        top += layout.line("label") + layout.pad  # column heads
        bottom = full.bottom - layout.line("label")  # page number
        return pygame.Rect(full.x, top, full.width, max(0, bottom - top))

    def _ranking_page(self, view: View) -> None:
        layout = self.info.layout
        full = layout.full
        inner = full.inflate(-2 * layout.pad, 0)
        y = full.y
        if view.screen is Screen.FIN:
            title = "Fin de partie — classement"
        else:
            title = f"Classement après le coup {view.coup}"
        self._text(title, pygame.Rect(inner.x, y, inner.width, layout.line("rank_title")),
                   layout.ink("rank_title"), theme.TEXT)
        y += layout.line("rank_title")
        played = f" en {view.coup} coups" if view.screen is Screen.FIN and view.coup > 1 else ""
        self._text(f"Total des tops{played} : {view.total}",
                   pygame.Rect(inner.x, y, inner.width, layout.line("rank")), layout.ink("rank"),
                   theme.ACCENT)
        y += layout.line("rank")
        for solo in self._solo_lines(view):
            self._text(solo, pygame.Rect(inner.x, y, inner.width, layout.line("rank")),
                       layout.ink("rank"), theme.TEXT)
            y += layout.line("rank")
        area = self._ranking_area(view)
        area = pygame.Rect(inner.x, area.y, inner.width, area.height)
        heads = ("Rang", "Joueur", "Points", "Écart", "% du top")
        head_rect = pygame.Rect(inner.x, area.y - layout.line("label") - layout.pad,
                                inner.width, layout.line("label"))
        self._row(head_rect, tuple((text, *column) for text, column in
                                   zip(heads, self.RANK_COLUMNS, strict=True)),
                  layout.ink("label"), theme.TEXT_DIM)
        per_page = self.rank_lines_per_page(view)
        pages = max(1, math.ceil(len(view.ranking) / per_page))
        if view.ranking:  # pages about even, but never under ten lines where ten fit
            per_page = max(min(per_page, 10), math.ceil(len(view.ranking) / pages))
        page = view.page % pages
        self.info.pages, self.info.page = pages, page
        shown = view.ranking[page * per_page:(page + 1) * per_page]
        line_h = layout.line("rank")
        for i, line in enumerate(shown):
            self._rank_row(line, pygame.Rect(inner.x, area.y + i * line_h, inner.width, line_h))
        if pages > 1:
            self._text(f"Page {page + 1} / {pages}",
                       pygame.Rect(inner.x, full.bottom - layout.line("label"), inner.width,
                                   layout.line("label")),
                       layout.ink("label"), theme.TEXT_DIM, align="right")

    def _rank_row(self, line: RankLine, rect: pygame.Rect) -> None:
        cells = (f"{line.rank}", line.name, f"{line.score}", _gap_text(line.gap),
                 _percent_text(line.percent))
        colour = theme.ACCENT if line.rank == 1 else theme.TEXT
        self._row(rect, tuple((text, *column) for text, column in
                              zip(cells, self.RANK_COLUMNS, strict=True)),
                  self.info.layout.ink("rank"), colour)
        self.info.ranking_rows.append(line.name)


def render(view: View, surface: pygame.Surface) -> RenderInfo:
    """Draw ``view`` entirely on ``surface`` (any size) and say where things went."""
    renderer = Renderer(surface)
    renderer.draw(view, force=True)
    return renderer.info
