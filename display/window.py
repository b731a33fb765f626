"""The room screen's window: fullscreen on a chosen display or a window, and it survives.

A window close, a resize or an unplugged display never raises: the screen
reopens (or falls back to a window), records a French notice for the kiosk
to show or log, and redraws the last view. It never blocks and never decides:
keys and close requests are handed to the kiosk by ``pump_events``.
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
    """``kind`` is ``key``, ``quit`` (window close asked) or ``resized``."""

    kind: str
    key: str = ""  # pygame key name: "space", "escape", "p", "f11"…
    text: str = ""  # the character typed, if any


def prepare_sdl() -> None:
    """Environment SDL reads at init. Software framebuffer: under Xvfb SDL would otherwise
    draw through software OpenGL, ~30× dearer per update; a kiosk that wants GL sets it."""
    os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
    os.environ.setdefault("SDL_VIDEO_MINIMIZE_ON_FOCUS_LOSS", "0")


class RoomDisplay:
    """Owns the pygame window: ``open(...)``, then ``show``, ``tick`` and ``pump_events``."""

    def __init__(self, display_index: int | None = None,
                 window_size: tuple[int, int] | None = None) -> None:
        self.display_index = display_index
        self.window_size = window_size
        self.notices: list[str] = []  # French, newest last: what went wrong and what we did
        self.surface: pygame.Surface | None = None
        self.renderer: Renderer | None = None
        self.view: View | None = None
        self.fullscreen = False
        self._next_display_check = 0.0
        self._retry_at = 0.0

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def open(cls, display_index: int | None = None,
             window_size: tuple[int, int] | None = None) -> RoomDisplay:
        """Fullscreen on ``display_index`` (0 if both are None), or a window of ``window_size``."""
        room = cls(display_index, window_size)
        room._open()
        return room

    def _notice(self, message: str) -> None:
        self.notices.append(message)
        log.warning(message)

    def _open(self) -> None:
        prepare_sdl()
        if not pygame.display.get_init():
            pygame.display.init()
        pygame.font.init()
        pygame.display.set_caption(CAPTION)
        surface = None
        if self.window_size is None:
            surface = self._open_fullscreen(self.display_index or 0)
        if surface is None:
            size = self.window_size or FALLBACK_WINDOW
            surface = pygame.display.set_mode(size, pygame.RESIZABLE)
            self.fullscreen = False
            pygame.mouse.set_visible(True)
        self.surface = surface
        self.renderer = Renderer(surface)
        self._next_display_check = time.monotonic() + DISPLAY_CHECK_SECONDS

    def _open_fullscreen(self, index: int) -> pygame.Surface | None:
        count = pygame.display.get_num_displays()
        if index >= count:
            self._notice(f"Écran {index} introuvable ({count} écran(s) branché(s)) : "
                         f"affichage dans une fenêtre {FALLBACK_WINDOW[0]}×{FALLBACK_WINDOW[1]}.")
            return None
        try:
            surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN, display=index)
        except pygame.error as exc:
            self._notice(f"Plein écran impossible sur l'écran {index} ({exc}) : "
                         "affichage dans une fenêtre.")
            return None
        self.fullscreen = True
        pygame.mouse.set_visible(False)
        return surface

    def set_fullscreen(self, on: bool) -> None:
        """Fullscreen on the chosen display, or back to the window; redraws the last view."""
        if on == self.fullscreen:
            return
        if on:
            self._last_window = self.window_size or FALLBACK_WINDOW
            self.window_size = None
        else:
            self.window_size = getattr(self, "_last_window", None) or FALLBACK_WINDOW
        try:
            pygame.display.quit()  # a new window: SDL may keep the old one's fullscreen size
            self._open()
            if self.view is not None:
                self._draw(self.view, force=True)
        except pygame.error as exc:
            self._reopen(f"Bascule plein écran impossible ({exc})")

    def toggle_fullscreen(self) -> None:
        self.set_fullscreen(not self.fullscreen)

    def _reopen(self, reason: str) -> None:
        """Start the video system again and redraw the last view; if even that fails,
        stay dark and retry later rather than take the kiosk down."""
        now = time.monotonic()
        if now < self._retry_at:
            return
        self._notice(f"{reason} : réouverture de l'écran de salle.")
        try:
            pygame.display.quit()
            self._open()
            if self.view is not None:
                self._draw(self.view, force=True)
        except pygame.error as exc:
            self.surface = None
            self._retry_at = now + DISPLAY_CHECK_SECONDS
            self._notice(f"Écran de salle indisponible ({exc}) : nouvel essai dans "
                         f"{DISPLAY_CHECK_SECONDS:.0f} s.")

    # -- drawing ----------------------------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        """The real surface size (a fullscreen request may not give what was asked)."""
        return self.surface.get_size() if self.surface else (0, 0)

    def _surface_alive(self) -> bool:
        return (self.surface is not None and pygame.display.get_init()
                and pygame.display.get_surface() is not None)

    def _draw(self, view: View, force: bool = False) -> None:
        current = pygame.display.get_surface()
        if current is not self.surface or current.get_size() != self.renderer.info_size():
            self.surface = current
            self.renderer = Renderer(current)
            force = True
        rects = self.renderer.draw(view, force=force)
        if rects:
            pygame.display.update(rects)

    def show(self, view: View) -> None:
        """Show ``view``: full redraw on a state change, only the countdown box otherwise."""
        self.view = view
        try:
            if not self._surface_alive():
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

    def screenshot(self, path: str | Path) -> Path:
        """Save what the room sees now as a PNG."""
        if self.surface is None:
            raise RuntimeError("écran de salle fermé : pas de capture possible")
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.surface, str(path))
        return path

    # -- events -----------------------------------------------------------------------------
    def pump_events(self) -> list[DisplayEvent]:
        """Drain pygame's queue (never waits); handle resizes and lost displays here."""
        events: list[DisplayEvent] = []
        try:
            if not self._surface_alive():
                self._reopen("Écran de salle perdu")
            raw = pygame.event.get()
        except pygame.error as exc:
            self._reopen(f"Erreur d'affichage ({exc})")
            return events
        redraw = False
        for event in raw:
            if event.type in (pygame.QUIT, pygame.WINDOWCLOSE):
                if not any(e.kind == "quit" for e in events):
                    events.append(DisplayEvent("quit"))
            elif event.type == pygame.KEYDOWN:
                name = pygame.key.name(event.key)
                if name == "tab" and event.mod & pygame.KMOD_SHIFT:
                    name = "shift+tab"  # the correction form goes back a field
                events.append(DisplayEvent("key", name, event.unicode))
            elif event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED):
                redraw = True
            elif event.type in (pygame.WINDOWEXPOSED, pygame.WINDOWRESTORED,
                                pygame.WINDOWDISPLAYCHANGED):
                redraw = True
        if time.monotonic() >= self._next_display_check:
            self._next_display_check = time.monotonic() + DISPLAY_CHECK_SECONDS
            self._check_display()
        if redraw and self.view is not None and self._surface_alive() and self.renderer:
            old = self.renderer.info_size()
            self._draw(self.view, force=True)
            if self.renderer.info_size() != old:
                events.append(DisplayEvent("resized"))
        return events

    def _check_display(self) -> None:
        """A fullscreen display that disappeared (projector unplugged): fall back to a window."""
        if not self.fullscreen:
            return
        index = self.display_index or 0
        if index >= pygame.display.get_num_displays():
            self.window_size = FALLBACK_WINDOW
            self._reopen(f"Écran {index} débranché")

    def close(self) -> None:
        pygame.display.quit()
        self.surface = None
