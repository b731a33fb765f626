"""The program's windows (pygame-ce ``pygame.Window``): the room's, and any other the kiosk opens.

Each window is fullscreen on a chosen display or a plain window, and it
survives: a close request, a resize or an unplugged display never raises; the
window reopens (or falls back to a plain window), records a French notice for
the kiosk, and redraws. One event queue serves every window: ``pump_events``
hands keys from any of them to the kiosk and keeps each window's own business
(resize, expose) to itself. It never blocks and never decides.

Why ``pygame.Window`` (pygame-ce) rather than pygame 2's ``_sdl2.video``: each
window has a software surface (``get_surface``/``flip``), so the same drawing
code serves both windows and tests read the pixels back; the window toggles
fullscreen without destroying the video system (the other window stays); it is
public, documented API of a maintained project.
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from dataclasses import dataclass
from pathlib import Path

import pygame

from .render import Renderer
from .view import Countdown, View

log = logging.getLogger(__name__)

FALLBACK_WINDOW = (1280, 720)
CAPTION = "Scrabble Duplicate : écran de salle"
DISPLAY_CHECK_SECONDS = 2.0
_CENTRED_ON = 0x2FFF0000  # SDL_WINDOWPOS_CENTERED_DISPLAY(n) = this | n


def parse_size(text: str) -> tuple[int, int]:
    """``--window 1280x720`` (or ``1280×720``) → (1280, 720); usable as an argparse type."""
    try:
        width, height = (int(part) for part in text.lower().replace("×", "x").split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"taille non valable : « {text} » (ex. 1280x720)") from None
    if not (320 <= width <= 8192 and 240 <= height <= 8192):
        raise argparse.ArgumentTypeError(f"taille hors limites : {width}×{height}")
    return width, height


@dataclass(frozen=True)
class DisplayEvent:
    """``kind`` is ``key``, ``quit`` (window close asked) or ``resized``; ``window`` is the
    caption of the window it came from ("" when SDL did not say)."""

    kind: str
    key: str = ""  # pygame key name: "space", "escape", "p", "f11"…
    text: str = ""  # the character typed, if any
    window: str = ""


def prepare_sdl() -> None:
    """Environment SDL reads at init. Software framebuffer: under Xvfb SDL would otherwise
    draw through software OpenGL, ~30× dearer per update; a kiosk that wants GL sets it."""
    os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
    os.environ.setdefault("SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS", "0")


def video_init() -> None:
    prepare_sdl()
    if not pygame.display.get_init():
        pygame.display.init()
    pygame.font.init()


def display_count() -> int:
    video_init()
    return pygame.display.get_num_displays()


def desktop_size(index: int = 0) -> tuple[int, int]:
    """The size of display ``index`` (of the first one if there is no such display)."""
    video_init()
    sizes = pygame.display.get_desktop_sizes()
    return tuple(sizes[index if index < len(sizes) else 0]) if sizes else FALLBACK_WINDOW


class SdlWindow:
    """One ``pygame.Window`` that survives mishaps; subclasses draw on ``surface``."""

    caption = "Scrabble Duplicate"

    def __init__(self, display_index: int | None = None,
                 window_size: tuple[int, int] | None = None,
                 position: tuple[int, int] | None = None) -> None:
        self.display_index = display_index
        self.window_size = window_size
        self.position = position
        self.notices: list[str] = []  # French, newest last: what went wrong and what we did
        self.window: pygame.Window | None = None
        self.surface: pygame.Surface | None = None
        self.fullscreen = False
        self._last_window: tuple[int, int] | None = None
        self._size_told: tuple[int, int] = (0, 0)
        self._next_display_check = 0.0
        self._retry_at = 0.0

    # -- opening ----------------------------------------------------------------------------
    def _notice(self, message: str) -> None:
        self.notices.append(message)
        log.warning(message)

    def _new_window(self, size: tuple[int, int], position, fullscreen: bool) -> pygame.Window:
        """Where the window is made (tests replace it to simulate a broken video system)."""
        return pygame.Window(self.caption, size, position, fullscreen_desktop=fullscreen,
                             resizable=not fullscreen)

    def _open(self) -> None:
        video_init()
        window = None
        if self.window_size is None:
            window = self._open_fullscreen(self.display_index or 0)
        if window is None:
            size = self.window_size or FALLBACK_WINDOW
            where = self.position or (_CENTRED_ON | (self.display_index or 0),) * 2
            if (self.display_index or 0) >= pygame.display.get_num_displays():
                where = pygame.WINDOWPOS_CENTERED
            window = self._new_window(size, where, False)
            self.fullscreen = False
        self.window = window
        self.surface = window.get_surface()
        self._size_told = self.surface.get_size()  # the size the kiosk last heard of
        self._next_display_check = time.monotonic() + DISPLAY_CHECK_SECONDS
        self.opened()

    def opened(self) -> None:
        """Called after every (re)opening: a new surface to draw on."""

    def _open_fullscreen(self, index: int) -> pygame.Window | None:
        count = pygame.display.get_num_displays()
        if index >= count:
            self._notice(f"Écran {index} introuvable ({count} écran(s) branché(s)) : "
                         f"affichage dans une fenêtre {FALLBACK_WINDOW[0]}×{FALLBACK_WINDOW[1]}.")
            return None
        try:
            window = self._new_window(desktop_size(index), (_CENTRED_ON | index,) * 2, True)
        except pygame.error as exc:
            self._notice(f"Plein écran impossible sur l'écran {index} ({exc}) : "
                         "affichage dans une fenêtre.")
            return None
        self.fullscreen = True
        return window

    def set_fullscreen(self, on: bool) -> None:
        """Fullscreen on the chosen display, or back to the window; the other windows stay."""
        if on == self.fullscreen or self.window is None:
            return
        try:
            if on:
                self._last_window = self.window_size or tuple(self.window.size)
                self.window_size = None
                self.window.position = (_CENTRED_ON | (self.display_index or 0),) * 2
                self.window.set_fullscreen(desktop=True)
            else:
                self.window_size = self._last_window or FALLBACK_WINDOW
                self.window.set_windowed()
                self.window.size = self.window_size
            self.fullscreen = on
            pygame.event.pump()
            self.surface = self.window.get_surface()
            self.opened()
            self.redraw()
        except pygame.error as exc:
            self._reopen(f"Bascule plein écran impossible ({exc})")

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def _reopen(self, reason: str) -> None:
        """Make the window again and redraw; if even that fails, stay dark and retry later
        rather than take the kiosk down."""
        now = time.monotonic()
        if now < self._retry_at:
            return
        self._notice(f"{reason} : réouverture de la fenêtre « {self.caption} ».")
        try:
            self._destroy()
            self._open()
            self.redraw()
        except pygame.error as exc:
            self.surface = None
            self.window = None
            self._retry_at = now + DISPLAY_CHECK_SECONDS
            self._notice(f"Fenêtre « {self.caption} » indisponible ({exc}) : nouvel essai dans "
                         f"{DISPLAY_CHECK_SECONDS:.0f} s.")

    def _destroy(self) -> None:
        if self.window is not None:
            try:
                self.window.destroy()
            except pygame.error:
                pass
        self.window = None
        self.surface = None

    # -- state ------------------------------------------------------------------------------
    @property
    def id(self) -> int | None:
        try:
            return self.window.id if self.window is not None else None
        except pygame.error:
            return None

    @property
    def size(self) -> tuple[int, int]:
        """The real surface size (a fullscreen request may not give what was asked)."""
        return self.surface.get_size() if self.surface else (0, 0)

    def alive(self) -> bool:
        if self.window is None or not pygame.display.get_init():
            return False
        try:
            current = self.window.get_surface()
        except pygame.error:
            return False
        if current is not self.surface:  # SDL gave a new surface (resize): draw on it
            self.surface = current
            self.opened()
        return True

    def ensure(self) -> bool:
        """True when the window can be drawn on, after reopening it if it was lost."""
        if self.alive():
            return True
        self._reopen("Fenêtre perdue")
        return self.alive()

    def flip(self) -> None:
        try:
            self.window.flip()
        except (pygame.error, AttributeError) as exc:
            self._reopen(f"Erreur d'affichage ({exc})")

    def redraw(self) -> None:
        """Draw everything again (after a reopen, a resize, an expose)."""

    def screenshot(self, path: str | Path) -> Path:
        """Save what the window shows now as a PNG."""
        if self.surface is None:
            raise RuntimeError(f"fenêtre « {self.caption} » fermée : pas de capture possible")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))
        return path

    # -- events -----------------------------------------------------------------------------
    def handle(self, event: pygame.event.Event) -> DisplayEvent | None:
        """This window's part of an event: keys and close requests go to the kiosk."""
        if event.type in (pygame.QUIT, pygame.WINDOWCLOSE):
            return DisplayEvent("quit", window=self.caption)
        if event.type == pygame.KEYDOWN:
            name = pygame.key.name(event.key)
            if name == "tab" and event.mod & pygame.KMOD_SHIFT:
                name = "shift+tab"  # the correction form goes back a field
            return DisplayEvent("key", name, event.unicode, window=self.caption)
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED, pygame.WINDOWEXPOSED,
                          pygame.WINDOWRESTORED, pygame.WINDOWDISPLAYCHANGED):
            if self.alive():
                self.redraw()
                if self.size != self._size_told:
                    self._size_told = self.size
                    return DisplayEvent("resized", window=self.caption)
        return None

    def check_display(self) -> None:
        """A fullscreen display that disappeared (projector unplugged): fall back to a window."""
        if time.monotonic() < self._next_display_check:
            return
        self._next_display_check = time.monotonic() + DISPLAY_CHECK_SECONDS
        if not self.fullscreen:
            return
        index = self.display_index or 0
        if index >= pygame.display.get_num_displays():
            self.window_size = FALLBACK_WINDOW
            self._reopen(f"Écran {index} débranché")

    def close(self) -> None:
        self._destroy()


def pump_events(*windows: SdlWindow) -> list[DisplayEvent]:
    """Drain pygame's one queue (never waits) for all ``windows``: each event goes to the
    window it names (to the first window when it names none); keys from any window come back,
    so a one-screen setup works whichever window has the focus."""
    events: list[DisplayEvent] = []
    for window in windows:
        if not window.alive():
            window._reopen("Fenêtre perdue")
    try:
        raw = pygame.event.get()
    except pygame.error as exc:
        windows[0]._reopen(f"Erreur d'affichage ({exc})")
        return events
    by_id = {w.id: w for w in windows if w.id is not None}
    for event in raw:
        target = getattr(event, "window", None)
        owner = by_id.get(getattr(target, "id", None), windows[0]) if target is not None \
            else windows[0]
        if event.type == pygame.QUIT and len(windows) > 1:  # every window closed at once
            owner = windows[0]
        result = owner.handle(event)
        if result is None:
            continue
        if result.kind == "quit" and any(e.kind == "quit" for e in events):
            continue
        events.append(result)
    for window in windows:
        window.check_display()
    return events


class RoomDisplay(SdlWindow):
    """The room's window: ``open(...)``, then ``show``, ``tick`` and ``pump_events``."""

    caption = CAPTION

    def __init__(self, display_index: int | None = None,
                 window_size: tuple[int, int] | None = None,
                 position: tuple[int, int] | None = None) -> None:
        super().__init__(display_index, window_size, position)
        self.renderer: Renderer | None = None
        self.view: View | None = None
        self.companions: list[SdlWindow] = []  # the other windows (the console): one queue

    @classmethod
    def open(cls, display_index: int | None = None,
             window_size: tuple[int, int] | None = None,
             position: tuple[int, int] | None = None) -> RoomDisplay:
        """Fullscreen on ``display_index`` (0 if both are None), or a window of ``window_size``
        (at ``position``, or centred on ``display_index``)."""
        room = cls(display_index, window_size, position)
        room._open()
        return room

    def opened(self) -> None:
        self.renderer = Renderer(self.surface)

    def redraw(self) -> None:
        if self.view is not None and self.surface is not None:
            self._draw(self.view, force=True)

    # -- drawing ----------------------------------------------------------------------------
    def _draw(self, view: View, force: bool = False) -> None:
        if self.renderer is None or self.renderer.surface is not self.surface:
            self.renderer = Renderer(self.surface)
            force = True
        if self.surface.get_size() != self.renderer.info_size():
            force = True
        rects = self.renderer.draw(view, force=force)
        if rects:
            self.flip()

    def show(self, view: View) -> None:
        """Show ``view``: full redraw on a state change, only the countdown box otherwise."""
        self.view = view
        try:
            if not self.alive():
                self._reopen("Écran de salle perdu")
                return
            self._draw(view)
        except pygame.error as exc:
            self._reopen(f"Erreur d'affichage ({exc})")

    def tick(self, remaining_seconds: float | Countdown | None, paused: bool = False) -> None:
        """Update the countdown: cheap, and a no-op while its text and colour stay the same."""
        if self.view is None:
            return
        if isinstance(remaining_seconds, Countdown) or remaining_seconds is None:
            countdown = remaining_seconds
        else:
            warning = self.view.countdown.warning if self.view.countdown else 30.0
            countdown = Countdown(float(remaining_seconds), warning, paused)
        self.show(self.view.with_countdown(countdown))

    def pump_events(self, *others: SdlWindow) -> list[DisplayEvent]:
        """Drain the queue for the room, its ``companions`` and ``others``: see
        :func:`pump_events`."""
        return pump_events(self, *self.companions, *others)
