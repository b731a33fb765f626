"""The juge-arbitre's console, drawn from plain data (``ConsoleView``) like the room screen.

The kiosk builds the view from its machine; this module only draws it: the
step bar with the key for the next step, the tirage and its validity, the
countdown, every move of the coup best first (once the chrono has started),
the last announcement and the voice's state, messages, the arbiter stations'
line, and over all of it the help, a dialog, the tied-tops chooser or the stations
panel (a QR code to scan, the address and code to type, the stations). The correction screen is the kiosk's:
``draw_console`` hands it the body rectangle through ``body``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pygame

from . import fonts, theme
from .tiles import TileKind, text_surface, tile_surface, word_surface
from .view import Countdown, bag_summary

STEP_NAMES = ("tirage", "annonce", "chrono", "ramassage", "top", "correction", "coup suivant")
SELECTED = (48, 70, 110)
DIM_PANEL = (26, 40, 64)
VALID = (150, 230, 160)
INVALID = theme.REJECTED


@dataclass(frozen=True)
class ConsoleMove:
    word: str  # joker letters in lower case
    ref: str
    score: int
    top: bool = False  # one of the tops (tied or not)
    chosen: bool = False  # the top that will be (or was) played
    scrabble: bool = False  # the seven letters placed


@dataclass(frozen=True)
class Overlay:
    """Drawn over the console: ``aide``, ``dialogue``, ``egalite`` (the tied-tops chooser) or
    ``postes`` (the arbiter stations: ``qr`` to scan, ``side`` under it, one line a station
    in ``lines``, ``cursor`` the one chosen, ``note`` the keys)."""

    kind: str
    title: str
    lines: tuple[str, ...] = ()
    pairs: tuple[tuple[str, str], ...] = ()  # help: (key, what it does)
    moves: tuple[ConsoleMove, ...] = ()  # egalite: every tie
    cursor: int = 0
    typed: str = ""
    qr: tuple[tuple[bool, ...], ...] = ()  # postes: the QR code's modules (dark = True)
    side: tuple[str, ...] = ()  # postes: the address and the code, under the QR code
    head: str = ""  # postes: the columns of ``lines``
    note: str = ""  # postes: the keys


@dataclass(frozen=True)
class ConsoleView:
    """Everything the console shows; equal views draw identical pixels."""

    step: str  # the session's step: accueil, tirage, annonce, chrono, ramassage, top…
    coup: int = 0
    hint: str = ""  # « Espace : lancer le chrono »
    tirage: str = ""
    reliquat: int = 0  # how many letters of the tirage are the reliquat
    validity: str = ""  # « tirage valable » or why not
    valid: bool | None = None
    countdown: Countdown | None = None
    bag: str | None = None
    moves: tuple[ConsoleMove, ...] = ()
    moves_total: int = 0
    moves_note: str = ""  # why no list (before the chrono)
    announcement: str = ""  # the last announcement, as said
    voice: str = ""  # French: the voice's state
    message: str = ""
    system: tuple[str, ...] = ()  # French system messages, newest last
    room: str = ""  # what the room shows now, in words
    stations: str = ""  # the arbiter stations in one line (« postes : 3 · coup 2 : 87 / 120 … »)
    overlay: Overlay | None = None
    correction: bool = False  # the body is the correction screen (drawn by the kiosk)
    extra: tuple = field(default=(), compare=True)  # anything that must force a redraw


@dataclass
class ConsoleLayout:
    bar: pygame.Rect
    body: pygame.Rect
    footer: pygame.Rect
    line: int


def console_layout(width: int, height: int) -> ConsoleLayout:
    line = max(14, height // 36)
    bar = pygame.Rect(0, 0, width, round(line * 3.4))
    footer_h = round(line * 4.2)
    footer = pygame.Rect(0, height - footer_h, width, footer_h)
    body = pygame.Rect(0, bar.bottom, width, footer.top - bar.bottom)
    return ConsoleLayout(bar, body, footer, line)


class _Painter:
    def __init__(self, surface: pygame.Surface, line: int) -> None:
        self.surface = surface
        self.line = line
        self.texts: list[str] = []

    def text(self, text: str, pos: tuple[int, int], size: int, colour=theme.TEXT,
             max_width: int | None = None, align: str = "left") -> pygame.Rect:
        """One line at a fixed size, cut with « … » when too long."""
        if not text:
            return pygame.Rect(pos, (0, 0))
        if max_width is not None:
            text = fonts.ellipsize(text, max_width, size)
        image = text_surface(text, size, colour)
        rect = image.get_rect(topleft=pos)
        if align == "right":
            rect.topright = pos
        self.surface.blit(image, rect)
        self.texts.append(text)
        return rect

    def word(self, word: str, pos: tuple[int, int], size: int, colour=theme.TEXT) -> pygame.Rect:
        image = word_surface(word, size, colour)
        self.texts.append(word.upper())
        return self.surface.blit(image, pos)

    def wrapped(self, text: str, rect: pygame.Rect, size: int, colour=theme.TEXT,
                max_lines: int = 3) -> int:
        """Wrapped lines (at most ``max_lines``); returns the height used."""
        y = rect.y
        step = fonts.font(size).get_linesize()
        for i, part in enumerate(fonts.wrap(text, rect.width, size)):
            if i >= max_lines or y + step > rect.bottom:
                break
            self.text(part, (rect.x, y), size, colour, rect.width)
            y += step
        return y - rect.y


def _step_bar(p: _Painter, view: ConsoleView, rect: pygame.Rect) -> None:
    line = p.line
    pygame.draw.rect(p.surface, theme.PANEL, rect)
    boxes_h = round(line * 1.7)
    gap = max(2, line // 5)
    width = (rect.width - gap * (len(STEP_NAMES) + 1)) / len(STEP_NAMES)
    current = "coup suivant" if view.step == "fin" else view.step
    # one size for every label: the widest that lets the longest fit its box (a narrow
    # console: down to 70 % of the usual size), cut with « … » only below that
    size = fonts.size_for_ink(line * 0.62)
    room = round(width) - line // 2
    longest = max(STEP_NAMES, key=lambda n: fonts.font(size).size(n)[0])
    size = max(fonts.fit_size(longest, room, size), round(size * 0.7))
    for i, name in enumerate(STEP_NAMES):
        box = pygame.Rect(round(rect.x + gap + i * (width + gap)), rect.y + gap,
                          round(width), boxes_h)
        lit = name == current
        pygame.draw.rect(p.surface, theme.ACCENT if lit else DIM_PANEL, box,
                         border_radius=line // 3)
        label = fonts.ellipsize(name, box.width - line // 2, size)
        image = text_surface(label, size, theme.PANEL if lit else theme.TEXT_DIM)
        p.surface.blit(image, image.get_rect(center=box.center))
        p.texts.append(label)
    y = rect.y + gap + boxes_h + gap
    hint_size = fonts.size_for_ink(line * 0.7)
    left = p.text(view.hint, (rect.x + line // 2, y), hint_size, theme.ACCENT,
                  rect.width * 2 // 3)
    if view.room:
        p.text(f"Salle : {view.room}", (rect.right - line // 2, y), hint_size, theme.TEXT_DIM,
               rect.right - left.right - 2 * line, align="right")


def _left_column(p: _Painter, view: ConsoleView, rect: pygame.Rect) -> None:
    line = p.line
    x, y = rect.x + line, rect.y + line // 2
    width = rect.width - 2 * line
    title = f"Coup {view.coup}" if view.coup else "Avant le premier coup"
    y += p.text(title, (x, y), fonts.size_for_ink(line * 0.9), theme.TEXT, width).height + \
        line // 2
    if view.tirage:
        side = min(round(line * 2.6), width // 8)
        tx = x
        for i, letter in enumerate(view.tirage):
            kind = TileKind.PLACED if i < view.reliquat else TileKind.NEW
            if i == view.reliquat and 0 < view.reliquat < len(view.tirage):
                tx += side // 3
            p.surface.blit(tile_surface(letter, side, kind), (tx, y))
            tx += round(side * 1.1)
        p.texts.append(view.tirage)
        y += side + line // 3
    if view.validity:
        colour = VALID if view.valid else INVALID if view.valid is False else theme.TEXT_DIM
        y += p.wrapped(view.validity, pygame.Rect(x, y, width, line * 3),
                       fonts.size_for_ink(line * 0.62), colour, 2) + line // 3
    if view.countdown is not None:
        c = view.countdown
        colour = {"alerte": theme.COUNTDOWN_WARNING, "termine": theme.COUNTDOWN_OVER,
                  "pause": theme.COUNTDOWN_PAUSE}.get(c.state, theme.COUNTDOWN)
        size = fonts.size_for_ink(line * 2.6, "0")
        box = pygame.Rect(x - line // 3, y, width + 2 * (line // 3),
                          fonts.font(size).get_height())
        if c.state == "dernieres":
            pygame.draw.rect(p.surface, theme.COUNTDOWN_LAST_BG, box, border_radius=line // 3)
        shown = p.text(c.text, (x, y), size, colour, width)
        if c.label:
            p.text(c.label, (shown.right + line, y + shown.height // 3),
                   fonts.size_for_ink(line * 0.9), theme.TEXT, width - shown.width - line)
        y += shown.height + line // 3
    if view.bag is not None:
        y += p.wrapped(bag_summary(view.bag), pygame.Rect(x, y, width, line * 3),
                       fonts.size_for_ink(line * 0.6), theme.TEXT_DIM, 2) + line // 3
    if view.announcement:
        y += p.text("Dernière annonce :", (x, y), fonts.size_for_ink(line * 0.55),
                    theme.TEXT_DIM, width).height
        p.wrapped(view.announcement, pygame.Rect(x, y, width, rect.bottom - y),
                  fonts.size_for_ink(line * 0.6), theme.TEXT, 6)


def _moves(p: _Painter, view: ConsoleView, rect: pygame.Rect) -> None:
    line = p.line
    pygame.draw.rect(p.surface, theme.PANEL, rect, border_radius=line // 2)
    x, y = rect.x + line, rect.y + line // 2
    width = rect.width - 2 * line
    head = fonts.size_for_ink(line * 0.7)
    if not view.moves:
        p.text("Coups possibles", (x, y), head, theme.TEXT_DIM, width)
        p.wrapped(view.moves_note, pygame.Rect(x, y + line * 2, width, line * 4),
                  fonts.size_for_ink(line * 0.6), theme.TEXT_DIM, 3)
        return
    tops = sum(1 for m in view.moves if m.top)
    y += p.text(f"Coups possibles : {view.moves_total}, meilleurs d'abord "
                f"({tops} top{'s' if tops > 1 else ''})", (x, y), head, theme.TEXT_DIM,
                width).height + line // 3
    size = fonts.size_for_ink(line * 0.62)
    step = round(line * 1.2)
    rows = max(0, (rect.bottom - y - line) // step)
    shown = view.moves[:rows]
    for i, move in enumerate(shown):
        colour = theme.ACCENT if move.top else theme.TEXT
        if move.chosen:
            pygame.draw.rect(p.surface, SELECTED, (rect.x + line // 3, y - 2,
                                                   rect.width - 2 * (line // 3), step))
        p.text(f"{i + 1}", (x + line * 2, y), size, theme.TEXT_DIM, align="right")
        p.word(move.word, (x + round(line * 2.6), y), size, colour)
        p.text(move.ref, (x + round(width * 0.66), y), size, colour)
        if move.scrabble:
            p.text("scrabble", (x + round(width * 0.52), y), size, theme.TEXT_DIM)
        p.text(f"{move.score}", (x + width, y), size, colour, align="right")
        y += step
    if view.moves_total > len(shown):
        p.text(f"… et {view.moves_total - len(shown)} autres", (x, y), size, theme.TEXT_DIM)


def _footer(p: _Painter, view: ConsoleView, rect: pygame.Rect) -> None:
    line = p.line
    pygame.draw.rect(p.surface, theme.PANEL, rect)
    x, width = rect.x + line // 2, rect.width - line
    y = rect.y + line // 4
    size = fonts.size_for_ink(line * 0.62)
    if view.message:
        y += p.text(view.message, (x, y), size, theme.ACCENT, width).height
    else:
        y += fonts.font(size).get_linesize()
    for text in (view.stations, view.voice, *view.system[-2:]):
        if text and y + fonts.font(size).get_linesize() <= rect.bottom:
            y += p.text(text, (x, y), size, theme.TEXT_DIM, width).height


def _box(p: _Painter, rect: pygame.Rect) -> None:
    pygame.draw.rect(p.surface, theme.PANEL, rect, border_radius=p.line // 2)
    pygame.draw.rect(p.surface, theme.ACCENT, rect, 3, border_radius=p.line // 2)


def draw_qr(surface: pygame.Surface, matrix, rect: pygame.Rect) -> pygame.Rect:
    """A QR code, black on white, as large as fits ``rect`` in whole pixels per module (a
    phone's camera reads sharp modules best); returns where it went."""
    n = len(matrix)
    module = max(1, min(rect.width, rect.height) // max(1, n))
    side = module * n
    placed = pygame.Rect(rect.x + (rect.width - side) // 2, rect.y, side, side)
    surface.fill((255, 255, 255), placed)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                surface.fill((0, 0, 0), (placed.x + x * module, placed.y + y * module,
                                         module, module))
    return placed


def _stations(p: _Painter, overlay: Overlay, area: pygame.Rect) -> None:
    line = p.line
    w, h = area.size
    size = fonts.size_for_ink(line * 0.62)
    box = pygame.Rect(area.x + w // 24, area.y + line // 2, w - w // 12, h - line)
    _box(p, box)
    x, y = box.x + line, box.y + line // 2
    y += p.text(overlay.title, (x, y), fonts.size_for_ink(line * 0.7), theme.ACCENT,
                box.width - 2 * line).height + line // 2
    bottom = box.bottom - round(line * 2.2)
    qr_side = max(0, min(box.width * 2 // 5, bottom - y - round(line * 2.6)))
    left_w = max(qr_side, box.width // 4)
    if overlay.qr and qr_side:
        placed = draw_qr(p.surface, overlay.qr, pygame.Rect(x, y, left_w, qr_side))
        below = placed.bottom + line // 3
    else:
        below = y
    for i, text in enumerate(overlay.side):
        big = fonts.size_for_ink(line * (0.9 if i else 0.62))
        below += p.text(text, (x, below), big, theme.ACCENT if i else theme.TEXT,
                        left_w).height + line // 4
    left = x + left_w + line
    width = box.right - line - left
    if overlay.head:
        y += p.text(overlay.head, (left, y), fonts.size_for_ink(line * 0.55), theme.TEXT_DIM,
                    width).height + line // 3
    step = round(line * 1.2)
    rows = max(1, (bottom - y) // step)
    first = max(0, min(overlay.cursor - rows // 2, len(overlay.lines) - rows))
    for i in range(first, min(len(overlay.lines), first + rows)):
        if i == overlay.cursor:
            pygame.draw.rect(p.surface, SELECTED, (left - line // 3, y - 2,
                                                   width + 2 * (line // 3), step))
        p.text(overlay.lines[i], (left, y), size, theme.TEXT, width)
        y += step
    p.wrapped(overlay.note, pygame.Rect(x, bottom + line // 4, box.width - 2 * line,
                                        box.bottom - bottom - line // 4),
              fonts.size_for_ink(line * 0.55), theme.TEXT_DIM, 2)


def _overlay(p: _Painter, overlay: Overlay, area: pygame.Rect) -> None:
    line = p.line
    w, h = area.size
    size = fonts.size_for_ink(line * 0.62)
    if overlay.kind == "postes":
        _stations(p, overlay, area)
        return
    if overlay.kind == "aide":
        box = pygame.Rect(area.x + w // 12, area.y + line, w - w // 6, h - 2 * line)
        _box(p, box)
        x, y = box.x + line, box.y + line // 2
        y += p.text(overlay.title, (x, y), fonts.size_for_ink(line * 0.8), theme.ACCENT,
                    box.width - 2 * line).height + line // 3
        step = round(line * 1.15)
        for key, what in overlay.pairs:
            if y + step > box.bottom - line * (len(overlay.lines) + 1):
                break
            p.text(key, (x, y), size, theme.ACCENT, box.width // 4)
            p.text(what, (x + box.width // 4, y), size, theme.TEXT,
                   box.width * 3 // 4 - 2 * line)
            y += step
        y += line // 2
        for text in overlay.lines:
            y += p.wrapped(text, pygame.Rect(x, y, box.width - 2 * line, box.bottom - y),
                           size, theme.TEXT_DIM, 3)
        return
    if overlay.kind == "egalite":
        box = pygame.Rect(area.x + w // 10, area.y + line, w - w // 5, h - 2 * line)
        _box(p, box)
        x, y = box.x + line, box.y + line // 2
        y += p.text(overlay.title, (x, y), fonts.size_for_ink(line * 0.7), theme.ACCENT,
                    box.width - 2 * line).height
        for text in overlay.lines:
            y += p.text(text, (x, y), size, theme.TEXT_DIM, box.width - 2 * line).height
        y += line // 3
        step = round(line * 1.2)
        rows = max(1, (box.bottom - y - line // 2) // step)
        count = len(overlay.moves)
        first = max(0, min(overlay.cursor - rows // 2, count - rows))
        for i in range(first, min(count, first + rows)):
            move = overlay.moves[i]
            if i == overlay.cursor:
                pygame.draw.rect(p.surface, SELECTED, (box.x + line // 3, y - 2,
                                                       box.width - 2 * (line // 3), step))
            p.text(f"{i + 1}.", (x + line * 2, y), size, theme.TEXT_DIM, align="right")
            p.word(move.word, (x + round(line * 2.5), y), size,
                   theme.ACCENT if move.chosen else theme.TEXT)
            p.text(move.ref, (x + round(box.width * 0.6), y), size, theme.TEXT)
            p.text(f"{move.score}", (box.right - line, y), size, theme.TEXT, align="right")
            y += step
        if count > rows:  # where the window is in the list
            bar = pygame.Rect(box.right - line // 2, box.y + line * 3, line // 4,
                              box.height - line * 4)
            pygame.draw.rect(p.surface, DIM_PANEL, bar)
            thumb_h = max(line // 2, bar.height * rows // count)
            thumb_y = bar.y + (bar.height - thumb_h) * first // max(1, count - rows)
            pygame.draw.rect(p.surface, theme.ACCENT, (bar.x, thumb_y, bar.width, thumb_h))
        return
    rows = len(overlay.lines) + 1
    step = round(line * 1.25)
    box = pygame.Rect(area.x + w // 10, area.centery - (rows * step) // 2 - line,
                      w - w // 5, rows * step + 2 * line)
    _box(p, box)
    y = box.y + line
    y += p.text(overlay.title, (box.x + line, y), fonts.size_for_ink(line * 0.7), theme.ACCENT,
                box.width - 2 * line).height + line // 3
    for text in overlay.lines:
        y += p.text(text, (box.x + line, y), size, theme.TEXT, box.width - 2 * line).height


def draw_console(view: ConsoleView, surface: pygame.Surface,
                 body: Callable[[pygame.Surface], None] | None = None) -> list[str]:
    """Draw the console; ``body`` draws the correction screen on the body's subsurface.

    Returns the texts written (for tests: what the console says)."""
    width, height = surface.get_size()
    layout = console_layout(width, height)
    p = _Painter(surface, layout.line)
    surface.fill(theme.BACKGROUND)
    _step_bar(p, view, layout.bar)
    if view.correction and body is not None:
        body(surface.subsurface(layout.body))
    else:
        split = layout.body.x + layout.body.width * 9 // 20
        _left_column(p, view, pygame.Rect(layout.body.x, layout.body.y, split,
                                          layout.body.height))
        _moves(p, view, pygame.Rect(split, layout.body.y + layout.line // 2,
                                    layout.body.right - split - layout.line // 2,
                                    layout.body.height - layout.line))
    _footer(p, view, layout.footer)
    if view.overlay is not None:
        _overlay(p, view.overlay, pygame.Rect(0, layout.bar.bottom, width,
                                              layout.footer.top - layout.bar.bottom))
    return p.texts
