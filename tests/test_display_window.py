"""The room screen's window under SDL's dummy driver: sizes, events, and surviving mishaps."""

import argparse
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from display import theme
from display.samples import sample_views
from display.view import Countdown, Screen
from display.window import FALLBACK_WINDOW, RoomDisplay, parse_size
from engine.board import Premium


@pytest.fixture
def room():
    opened = []

    def make(**kwargs):
        display = RoomDisplay.open(**kwargs)
        opened.append(display)
        return display

    yield make
    for display in opened:
        display.close()


def countdown_pixels(display, colour):
    rect = display.renderer.info.layout.countdown
    count = 0
    for x in range(rect.left, rect.right, 3):
        for y in range(rect.top, rect.bottom, 3):
            if tuple(display.surface.get_at((x, y)))[:3] == colour:
                count += 1
    return count


def test_window_of_the_asked_size(room, tmp_path):
    display = room(window_size=(1280, 720))
    assert display.size == (1280, 720) and not display.fullscreen
    display.show(sample_views()[Screen.COUP])
    path = display.screenshot(tmp_path / "salle.png")
    image = pygame.image.load(str(path))
    assert image.get_size() == (1280, 720)
    cell = display.renderer.info.layout.cell_rect(0, 0)  # A1, mot triple
    triple = theme.PREMIUM_COLOURS[Premium.TRIPLE_WORD]
    assert tuple(image.get_at((cell.x + 4, cell.y + 4)))[:3] == triple


def test_fullscreen_reads_the_real_surface_size(room):
    display = room()  # dummy driver: FULLSCREEN gives 1024×768 whatever is asked
    display.show(sample_views()[Screen.ACCUEIL])
    real = display.window.get_surface().get_size()
    assert real == pygame.display.get_desktop_sizes()[0]
    assert display.size == real
    layout = display.renderer.info.layout
    assert (layout.width, layout.height) == real


def test_missing_display_falls_back_to_a_window_and_says_so(room):
    display = room(display_index=7)
    assert not display.fullscreen and display.size == FALLBACK_WINDOW
    assert any("Écran 7 introuvable" in notice for notice in display.notices)


def test_tick_changes_the_countdown_colour_at_the_warning(room):
    display = room(window_size=(1280, 720))
    display.show(sample_views()[Screen.COUP].with_countdown(Countdown(45, warning=20)))
    assert countdown_pixels(display, theme.COUNTDOWN) > 50
    display.tick(21)
    assert countdown_pixels(display, theme.COUNTDOWN_WARNING) == 0
    display.tick(20)
    assert countdown_pixels(display, theme.COUNTDOWN_WARNING) > 50
    assert countdown_pixels(display, theme.COUNTDOWN) == 0
    display.tick(0)
    assert countdown_pixels(display, theme.COUNTDOWN_OVER) > 50
    display.tick(12, paused=True)
    assert countdown_pixels(display, theme.COUNTDOWN_PAUSE) > 50


def test_keys_and_close_requests_are_handed_to_the_kiosk(room):
    display = room(window_size=(1024, 768))
    display.show(sample_views()[Screen.COUP])
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, unicode=" ", mod=0))
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    events = display.pump_events()
    assert [(e.kind, e.key) for e in events] == [("key", "space"), ("quit", "")]
    # the window is still there: closing is the kiosk's decision
    assert display.alive() and display.window.get_surface() is not None
    display.show(sample_views()[Screen.ANNONCE])
    assert display.pump_events() == []


def test_resize_redraws_at_the_new_size(room):
    display = room(window_size=(1280, 720))
    display.show(sample_views()[Screen.COUP])
    display.window.size = (1024, 768)  # what the window manager does
    pygame.event.post(pygame.event.Event(pygame.WINDOWSIZECHANGED, x=1024, y=768,
                                         window=display.window))
    events = display.pump_events()
    assert [e.kind for e in events] == ["resized"]
    assert display.size == (1024, 768)
    assert display.renderer.info.layout.width == 1024
    cell = display.renderer.info.layout.cell_rect(14, 14)  # O15, mot triple
    assert tuple(display.surface.get_at(cell.center))[:3] != theme.BACKGROUND


def test_a_lost_video_system_is_reopened(room):
    display = room(window_size=(1280, 720))
    display.show(sample_views()[Screen.COUP])
    pygame.display.quit()  # what an unplugged display or a dead X server leaves behind
    display.show(sample_views()[Screen.ANNONCE])
    assert display.alive() and display.window.get_surface() is not None
    assert display.size == (1280, 720)
    assert any("réouverture" in notice for notice in display.notices)
    assert display.pump_events() == []


def test_an_unplugged_fullscreen_display_falls_back_to_a_window(room, monkeypatch):
    display = room(display_index=0)
    assert display.fullscreen
    display.show(sample_views()[Screen.COUP])
    monkeypatch.setattr(pygame.display, "get_num_displays", lambda: 0)
    display._next_display_check = 0
    display.pump_events()
    monkeypatch.undo()
    assert not display.fullscreen and display.size == FALLBACK_WINDOW
    assert any("débranché" in notice for notice in display.notices)


def test_a_display_that_cannot_reopen_stays_dark_without_raising(room, monkeypatch):
    display = room(window_size=(1280, 720))
    display.show(sample_views()[Screen.COUP])

    def broken(*args, **kwargs):
        raise pygame.error("no video device")

    pygame.display.quit()
    monkeypatch.setattr(RoomDisplay, "_new_window", broken)
    display.show(sample_views()[Screen.ANNONCE])
    display.tick(12)
    assert display.pump_events() == []
    assert any("indisponible" in notice for notice in display.notices)
    monkeypatch.undo()
    display._retry_at = 0
    display.show(sample_views()[Screen.FIN])
    assert display.size == (1280, 720) and display.renderer.view.screen is Screen.FIN


def test_window_size_argument():
    assert parse_size("1280x720") == (1280, 720) and parse_size("1024×768") == (1024, 768)
    for bad in ("grand", "12x7", "1280"):
        with pytest.raises(argparse.ArgumentTypeError, match="taille"):
            parse_size(bad)


def test_toggle_fullscreen_and_back(room):
    display = room(window_size=(1280, 720))
    display.show(sample_views()[Screen.COUP])
    display.toggle_fullscreen()
    assert display.fullscreen
    real = display.window.get_surface().get_size()
    assert display.size == real and display.renderer.info.layout.width == real[0]
    display.toggle_fullscreen()
    assert not display.fullscreen and display.size == (1280, 720)
    assert display.renderer.info.layout.width == 1280
    assert display.notices == []
