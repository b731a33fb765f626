"""Draw a ``View`` on a surface: a full redraw on a state change, only the countdown otherwise.

``render(view, surface)`` is pure (tests, snapshots); ``Renderer`` keeps the
last view so the window can update just the rectangles that changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from . import fonts, theme
from .layout import Layout, compute_layout
from .tiles import TileKind, board_surface, ink_box, text_surface, tile_surface
from .view import Countdown, Screen, Top, View

MIN_SHRINK = 0.6  # a text may shrink to 60 % of its size to fit, then it is cut with « … »
WORD_SHRINK = 0.3  # a top's word is never cut: 15 letters always fit at 30 %

COUNTDOWN_COLOURS = {
    "normal": theme.COUNTDOWN,
    "alerte": theme.COUNTDOWN_WARNING,
    "termine": theme.COUNTDOWN_OVER,
    "pause": theme.COUNTDOWN_PAUSE,
}


@dataclass
class RenderInfo:
    """What was drawn where: the layout and every text's rectangle (for tests and debugging)."""

    layout: Layout
    texts: list[tuple[str, pygame.Rect]] = field(default_factory=list)
    tiles: list[tuple[str, TileKind, pygame.Rect]] = field(default_factory=list)  # the tirage


class Renderer:
    """Draws views on one surface; re-reads the surface size at every full redraw."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.view: View | None = None
        self.info: RenderInfo | None = None
        self._countdown_key: tuple | None = None

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
        self._draw_all(view)
        return [self.surface.get_rect()]

    def tick(self, countdown: Countdown | None) -> list[pygame.Rect]:
        """Redraw the countdown box only, and only when its text or colour changes."""
        if self.info is None or self.view is None or self.view.screen is not Screen.COUP:
            return []
        if countdown is None:
            key = ("", "")
        else:
            key = (countdown.text, countdown.state)
        if key == self._countdown_key:
            return []
        self._countdown_key = key
        rect = self.info.layout.countdown
        self.surface.fill(theme.PANEL, rect)
        if countdown is not None:
            self._draw_countdown(countdown, rect)
        return [rect]

    # -- drawing ----------------------------------------------------------------------------
    def _draw_all(self, view: View) -> None:
        layout = self.info.layout
        surface = self.surface
        surface.fill(theme.BACKGROUND)
        surface.blit(board_surface(layout.width, layout.height),
                     (layout.row_header.x, layout.col_header.y))
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

    def _text(self, text: str, rect: pygame.Rect, ink: float, colour: theme.Colour,
              align: str = "left", valign: str = "center",
              min_shrink: float = MIN_SHRINK) -> pygame.Rect:
        """Draw ``text`` with capitals ``ink`` px tall, shrunk to fit ``rect``; record its box."""
        if not text:
            return pygame.Rect(rect.x, rect.y, 0, 0)
        wanted = fonts.size_for_ink(ink)
        size = fonts.fit_size(text, rect.width, wanted)
        floor = max(4, round(wanted * min_shrink))
        if size < floor:  # too long to stay readable: cut it rather than shrink it to dust
            size = floor
            text = fonts.ellipsize(text, rect.width, size)
            if not text:
                return pygame.Rect(rect.x, rect.y, 0, 0)
        while size > 4 and fonts.font(size).get_height() > rect.height:
            size -= max(1, size // 20)
        glyphs = text_surface(text, size, colour)
        box = glyphs.get_rect()
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
        self.surface.blit(glyphs, box)
        inked = ink_box(text, size, colour).move(box.topleft)
        self.info.texts.append((text, inked))
        return box

    def _lines(self, rect: pygame.Rect, lines: list[tuple[str, theme.Colour]], ink: float,
               keep_last: bool = False) -> None:
        """A list that shows as many lines as fit, the first ones or the most recent ones."""
        if not lines or rect.height <= 0:
            return
        line_h = round(ink * 1.7)
        lines = [(part, colour) for text, colour in lines
                 for part in self._wrap(text, rect.width, ink)]  # wrap rather than shrink
        count = max(0, rect.height // line_h)
        shown = lines[-count:] if keep_last else lines[:count]
        if count == 0:
            return
        for i, (text, colour) in enumerate(shown):
            self._text(text, pygame.Rect(rect.x, rect.y + i * line_h, rect.width, line_h),
                       ink, colour)

    def _header(self, left: str, right: str = "") -> None:
        layout = self.info.layout
        h = layout.height
        title = layout.title
        if right:
            right_w = round(title.width * 0.42)
            self._text(right, pygame.Rect(title.right - right_w, title.y, right_w, title.height),
                       0.04 * h, theme.TEXT_DIM, align="right")
            title = pygame.Rect(title.x, title.y, title.width - right_w - layout.margin,
                                title.height)
        self._text(left, title, 0.055 * h, theme.TEXT)

    def _draw_countdown(self, countdown: Countdown, rect: pygame.Rect) -> None:
        colour = COUNTDOWN_COLOURS[countdown.state]
        text = countdown.text
        if countdown.state in ("termine", "pause"):
            self._big(text, rect, colour, 0.15 * self.info.layout.height, record=False)
            return
        size = self.info.layout.countdown_size
        size = min(size, fonts.fit_size(text, rect.width, size))
        # composed from cached glyphs: a new second costs a few blits, not a 4K text render
        font = fonts.font(size)
        advances = [font.size(ch)[0] for ch in text]
        x = rect.centerx - sum(advances) // 2
        y = rect.centery - font.get_height() // 2
        for ch, advance in zip(text, advances, strict=True):
            self.surface.blit(text_surface(ch, size, colour), (x, y))
            x += advance

    def _big(self, text: str, rect: pygame.Rect, colour: theme.Colour, ink: float,
             record: bool = True) -> None:
        self._text(text, rect, ink, colour, align="center", min_shrink=WORD_SHRINK)
        if not record:  # the countdown box is redrawn by tick(): not a lasting text
            self.info.texts.pop()

    def _tirage(self, letters: str, reliquat_len: int, kinds: tuple[TileKind, TileKind]) -> None:
        """Seven tiles; the reliquat first, then a gap, then the new letters."""
        rect = self.info.layout.tirage
        if not letters:
            return
        gap_ratio = 0.35 if 0 < reliquat_len < len(letters) else 0.0
        spacing = 0.12
        side = int(min(rect.width / (7 + 6 * spacing + gap_ratio), rect.height * 0.87))
        step = side * (1 + spacing)
        total = len(letters) * side + (len(letters) - 1) * side * spacing + gap_ratio * side
        x = rect.centerx - total / 2
        y = rect.centery - side / 2
        for i, letter in enumerate(letters):
            kind = kinds[0] if i < reliquat_len else kinds[1]
            if i == reliquat_len and gap_ratio:
                x += gap_ratio * side
            box = self.surface.blit(tile_surface(letter, side, kind), (round(x), round(y)))
            self.info.tiles.append((letter, kind, box))
            x += step

    def _top_block(self, top: Top | None, total: int, rect: pygame.Rect) -> pygame.Rect:
        """« Dernier top » and « Total des tops »; returns the space left below."""
        h = self.info.layout.height
        y = rect.y
        if top is not None:
            self._text("Dernier top", pygame.Rect(rect.x, y, rect.width, round(0.05 * h)),
                       0.03 * h, theme.TEXT_DIM)
            y += round(0.05 * h)
            line = pygame.Rect(rect.x, y, rect.width, round(0.07 * h))
            self._row(line, ((top.word, 0.0, 0.6, "left"), (top.ref, 0.63, 0.15, "left"),
                             (str(top.score), 0.8, 0.2, "right")), 0.045 * h, theme.TEXT,
                      min_shrink=WORD_SHRINK)
            y += round(0.08 * h)
        self._text(f"Total des tops : {total}",
                   pygame.Rect(rect.x, y, rect.width, round(0.06 * h)), 0.04 * h, theme.ACCENT)
        y += round(0.08 * h)
        return pygame.Rect(rect.x, y, rect.width, max(0, rect.bottom - y))

    def _table(self, rect: pygame.Rect, title: str, rows: list[tuple[str, ...]],
               columns: tuple[tuple[float, float, str], ...], ink: float,
               keep_last: bool = False, min_shrink: float = MIN_SHRINK) -> None:
        """A titled table; ``columns`` are (start, width) fractions of ``rect`` and alignment."""
        h = self.info.layout.height
        title_h = round(0.05 * h)
        line_h = round(ink * 1.75)
        count = (rect.height - title_h) // line_h
        if not rows or count <= 0:
            return
        self._text(title, pygame.Rect(rect.x, rect.y, rect.width, title_h), 0.03 * h,
                   theme.TEXT_DIM)
        shown = rows[-count:] if keep_last else rows[:count]
        for i, cells in enumerate(shown):
            line = pygame.Rect(rect.x, rect.y + title_h + i * line_h, rect.width, line_h)
            self._row(line, tuple((text, *column) for text, column in
                                  zip(cells, columns, strict=True)), ink, theme.TEXT,
                      min_shrink)

    def _row(self, rect: pygame.Rect, cells: tuple[tuple[str, float, float, str], ...],
             ink: float, colour: theme.Colour, min_shrink: float = MIN_SHRINK) -> None:
        """One line in columns (text, start, width as fractions of ``rect``, alignment):
        each cell fits on its own, so a long word never pushes the score off screen."""
        for text, start, width, align in cells:
            box = pygame.Rect(rect.x + round(start * rect.width), rect.y,
                              round(width * rect.width), rect.height)
            self._text(text, box, ink, colour, align=align, min_shrink=min_shrink)

    def _announced_word(self, top: Top, rect: pygame.Rect, ink: float) -> None:
        """« MOT  H4 » centred when it fits; otherwise the word and the reference side by side."""
        whole = f"{top.word}  {top.ref}"
        size = fonts.size_for_ink(ink)
        if fonts.font(size).size(whole)[0] <= rect.width:
            self._text(whole, rect, ink, theme.TEXT, align="center")
        else:
            self._row(rect, ((top.word, 0.0, 0.78, "left"), (top.ref, 0.8, 0.2, "right")),
                      ink, theme.TEXT, min_shrink=WORD_SHRINK)

    def _past_tops(self, view: View, rect: pygame.Rect, title: str = "Tops précédents") -> None:
        rows = [(f"{t.coup}", t.word, t.ref, f"{t.score}") for t in view.past_tops]
        columns = ((0.0, 0.1, "right"), (0.15, 0.5, "left"), (0.67, 0.15, "left"),
                   (0.84, 0.16, "right"))
        self._table(rect, title, rows, columns, 0.03 * self.info.layout.height,
                    keep_last=True, min_shrink=WORD_SHRINK)

    # -- the five screens -------------------------------------------------------------------
    def _panel_accueil(self, view: View) -> None:
        layout = self.info.layout
        h = layout.height
        self._header("Bienvenue")
        self._big(view.title, layout.countdown, theme.ACCENT, 0.09 * h)
        self._text("La partie va commencer", layout.tirage, 0.04 * h, theme.TEXT, align="center")
        self._settings(layout.info, view.settings)

    def _settings(self, rect: pygame.Rect, settings: tuple[tuple[str, str], ...]) -> None:
        """Each setting as a small grey label over its value, as long as they fit."""
        h = self.info.layout.height
        label_h, value_h = round(0.045 * h), round(0.06 * h)
        y = rect.y
        for label, value in settings:
            values = self._wrap(value, rect.width, 0.04 * h)
            if y + label_h + value_h * len(values) > rect.bottom:
                break
            self._text(label, pygame.Rect(rect.x, y, rect.width, label_h), 0.028 * h,
                       theme.TEXT_DIM)
            y += label_h
            for line in values:
                self._text(line, pygame.Rect(rect.x, y, rect.width, value_h), 0.04 * h,
                           theme.TEXT)
                y += value_h
            y += round(0.015 * h)

    def _panel_coup(self, view: View) -> None:
        layout = self.info.layout
        self._header(f"Coup {view.coup}", self._bag(view))
        self._countdown_key = None
        self.tick(view.countdown)
        self._tirage(view.tirage, len(view.reliquat), (TileKind.PLACED, TileKind.NEW))
        rest = self._top_block(view.last_top, view.total, layout.info)
        self._past_tops(view, rest)

    def _panel_annonce(self, view: View) -> None:
        layout = self.info.layout
        h = layout.height
        self._header(f"Coup {view.coup}", self._bag(view))
        top = view.last_top
        if top is not None:
            self._big(f"{top.score} points", layout.countdown, theme.ACCENT, 0.12 * h)
            self._announced_word(top, layout.tirage, 0.06 * h)
        rest = self._top_block(None, view.total, layout.info)
        self._past_tops(view, rest)

    def _panel_rejet(self, view: View) -> None:
        layout = self.info.layout
        h = layout.height
        self._header(f"Coup {view.coup}", self._bag(view))
        self._big("Tirage rejeté", layout.countdown, theme.REJECTED, 0.08 * h)
        self._tirage(view.tirage, len(view.tirage), (TileKind.REJECTED, TileKind.REJECTED))
        message = view.message or "Les lettres retournent dans le sac."
        self._lines(layout.info, [(message, theme.TEXT)], 0.035 * h)

    def _panel_fin(self, view: View) -> None:
        layout = self.info.layout
        h = layout.height
        self._header("Fin de partie")
        box = layout.countdown
        label_h = round(box.height * 0.3)
        self._big(f"{view.total} points", pygame.Rect(box.x, box.y, box.width,
                                                      box.height - label_h),
                  theme.ACCENT, 0.1 * h)
        played = f" en {view.coup} coups" if view.coup > 1 else ""
        self._text(f"Total des tops{played}", pygame.Rect(box.x, box.bottom - label_h,
                                                          box.width, label_h),
                   0.035 * h, theme.TEXT, align="center")
        if view.ranking:
            rows = [(f"{line.rank}", line.name, f"{line.score}",
                     "" if line.percent is None else f"{line.percent:.1f} %".replace(".", ","))
                    for line in view.ranking]
            columns = ((0.0, 0.08, "right"), (0.12, 0.4, "left"), (0.52, 0.16, "right"),
                       (0.72, 0.28, "right"))
            self._table(layout.info, "Classement", rows, columns, 0.032 * h)
        else:
            self._past_tops(view, layout.info, "Tops de la partie")

    # -- helpers ----------------------------------------------------------------------------
    @staticmethod
    def _bag(view: View) -> str:
        if view.bag_left is None:
            return ""
        return f"Sac : {view.bag_left}"

    @staticmethod
    def _wrap(text: str, width: int, ink: float) -> list[str]:
        font = fonts.font(fonts.size_for_ink(ink))
        lines: list[str] = []
        current = ""
        for word in text.split():
            candidate = f"{current} {word}".strip()
            if current and font.size(candidate)[0] > width:
                lines.append(current)
                current = word
            else:
                current = candidate
        if current:
            lines.append(current)
        return lines


def render(view: View, surface: pygame.Surface) -> RenderInfo:
    """Draw ``view`` entirely on ``surface`` (any size) and say where things went."""
    renderer = Renderer(surface)
    renderer.draw(view, force=True)
    return renderer.info
