"""Replay a saved game on the room screen: a demo of the kiosk-facing API and a manual check.

Keys: espace / → next moment, p pause, Échap or q quit. Time is compressed:
each coup lasts ``seconds`` and the warning comes at the same fraction.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pygame

from .from_game import (
    accueil_view,
    annonce_view,
    coup_view,
    fin_view,
    game_settings,
    rejet_view,
    warning_seconds,
)
from .view import Countdown, Screen, View
from .window import RoomDisplay

FPS = 30
PAUSE_BETWEEN = 4.0  # seconds on the other screens before moving on


def moments(game) -> Iterator[View]:
    """Every moment of the game in order: welcome, rejections, coups, tops, end."""
    yield accueil_view(game_settings(game))
    for coup in game.coups:
        if coup.rejections:
            yield rejet_view(game, coup.number)
        yield coup_view(game, coup.number)
        if coup.top is not None:
            yield annonce_view(game, coup.number)
    yield fin_view(game)


def replay(game, display_index: int | None = None, window_size: tuple[int, int] | None = None,
           seconds: float = 10.0, log: list[View] | None = None) -> int:
    """Show every moment; returns 0. ``log`` (if given) receives the views shown, in order."""
    room = RoomDisplay.open(display_index, window_size)
    for notice in room.notices:
        print(notice)
    shown: list[View] = log if log is not None else []
    warning = warning_seconds(game) * seconds / game.settings.seconds_per_coup
    clock = pygame.time.Clock()
    try:
        for view in moments(game):
            if view.screen is Screen.COUP:
                view = view.with_countdown(Countdown(seconds, warning))
            room.show(view)
            shown.append(view)
            elapsed, paused, last = 0.0, False, time.monotonic()
            hold = min(PAUSE_BETWEEN, seconds)  # « Terminé » and the other screens
            limit = seconds + hold / 2 if view.screen is Screen.COUP else hold
            while elapsed < limit:
                events = room.pump_events()
                keys = {e.key for e in events if e.kind == "key"}
                if any(e.kind == "quit" for e in events) or keys & {"escape", "q"}:
                    return 0
                if keys & {"space", "right", "return"}:
                    break
                if "p" in keys:
                    paused = not paused
                now = time.monotonic()
                if not paused:
                    elapsed += now - last
                last = now
                if view.screen is Screen.COUP:
                    room.tick(seconds - elapsed, paused=paused)
                clock.tick(FPS)
    finally:
        room.close()
    return 0
