"""``make bench``: full-redraw time, countdown-tick time and CPU while counting down at 30 fps.

Targets from the issues: full redraw ≤ 15 ms and tick ≤ 2 ms at 1080p and 4K, CPU ≤ 10 % of a
core for the room; the room and the console windows together hold 30 frames a second on one
core. Run under ``SDL_VIDEODRIVER=dummy`` (make bench) or on a real screen / Xvfb.
"""

from __future__ import annotations

import os
import statistics
import time

import pygame

from .console import draw_console
from .replay import moments
from .samples import sample_console, sample_views
from .view import Countdown, Screen
from .window import RoomDisplay, SdlWindow, pump_events

SIZES = [(1920, 1080), (3840, 2160)]
FPS = 30
CPU_SECONDS = 3.0


#: each redraw is timed in CPU time of this thread: on a machine shared with other work, wall
#: time counts the waits for a core too
_now = time.thread_time


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:.2f} ms (max {max(samples) * 1000:.2f})"


def real_game():
    """A self-played game, so the redraws meet new words and scores as in a real room."""
    from engine.lexicon import Lexicon
    from engine.selfplay import self_play

    return self_play(4, Lexicon.load())


def measure(size: tuple[int, int], game=None) -> dict[str, float]:
    """Figures for one window size; returns medians in seconds and CPU as a fraction."""
    room = RoomDisplay.open(window_size=size)
    views = sample_views()
    coup, annonce = views[Screen.COUP], views[Screen.ANNONCE]
    ranking = views[Screen.CLASSEMENT]
    room.show(coup)  # warm the caches (board, tiles, glyphs) as the kiosk does at start
    room.show(annonce)
    room.show(ranking)

    full = []
    for i in range(30):
        start = _now()
        room.show((coup, annonce, ranking)[i % 3])
        full.append(_now() - start)

    fresh = []
    if game is not None:  # every moment of a game: new texts, so caches help less
        for view in moments(game):
            start = _now()
            room.show(view)
            fresh.append(_now() - start)

    room.show(coup)
    ticks = []
    for second in range(170, 110, -1):
        start = _now()
        room.tick(Countdown(second))
        ticks.append(_now() - start)

    clock = pygame.time.Clock()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    remaining = 95.0
    while time.perf_counter() - wall0 < CPU_SECONDS:
        room.pump_events()
        room.tick(remaining - (time.perf_counter() - wall0))
        clock.tick(FPS)
    cpu = (time.process_time() - cpu0) / (time.perf_counter() - wall0)
    room.close()
    print(f"{size[0]}×{size[1]}  redessin complet : {_ms(full)} (temps CPU)")
    if fresh:
        print(f"{size[0]}×{size[1]}  redessins d'une partie ({len(fresh)} moments) : "
              f"{_ms(fresh[1:])}")
    print(f"{size[0]}×{size[1]}  tic du chrono    : {_ms(ticks)}")
    print(f"{size[0]}×{size[1]}  CPU à {FPS} i/s    : {cpu * 100:.1f} % d'un cœur")
    return {"full": statistics.median(full), "tick": statistics.median(ticks), "cpu": cpu}


class _ConsoleBench(SdlWindow):
    caption = "console (banc d'essai)"


def two_windows(room_size=(1920, 1080), console_size=(1366, 768), seconds=CPU_SECONDS) -> dict:
    """The room (1080p) and the console (1366×768) together, as the kiosk runs them: at
    30 frames a second, the room's countdown ticks and the console redrawn each second."""
    pinned = None
    if hasattr(os, "sched_setaffinity"):  # one core, as the issue asks
        pinned = os.sched_getaffinity(0)
        os.sched_setaffinity(0, {min(pinned)})
    room = RoomDisplay.open(window_size=room_size, position=(0, 0))
    console = _ConsoleBench(window_size=console_size, position=(room_size[0], 0))
    console._open()
    view = sample_views()[Screen.COUP]
    base = sample_console()
    room.show(view)
    clock = pygame.time.Clock()
    frames, redraws, shown = 0, [], None
    wall0, cpu0 = time.perf_counter(), time.process_time()
    while time.perf_counter() - wall0 < seconds:
        pump_events(room, console)
        remaining = 100.0 - (time.perf_counter() - wall0)
        room.tick(remaining)
        countdown = Countdown(remaining)
        if countdown.text != shown:  # the console changes once a second
            shown = countdown.text
            start = _now()
            draw_console(base.__class__(**{**base.__dict__, "countdown": countdown}),
                         console.surface)
            console.flip()
            redraws.append(_now() - start)
        frames += 1
        clock.tick(FPS)
    wall = time.perf_counter() - wall0
    cpu = (time.process_time() - cpu0) / wall
    console.close()
    room.close()
    if pinned is not None:
        os.sched_setaffinity(0, pinned)
    fps = frames / wall
    print(f"deux fenêtres (salle {room_size[0]}×{room_size[1]}, console "
          f"{console_size[0]}×{console_size[1]}, sur un cœur) : {fps:.1f} i/s, "
          f"{cpu * 100:.1f} % de ce cœur ; "
          f"redessin de la console {_ms(redraws)}")
    return {"fps": fps, "cpu": cpu, "console": statistics.median(redraws)}


def main() -> int:
    driver = os.environ.get("SDL_VIDEODRIVER", "(défaut)")
    print(f"pilote SDL : {driver} ; objectifs à 1080p et 4K : redessin ≤ 15 ms, tic ≤ 2 ms ; "
          "CPU ≤ 10 % ; deux fenêtres à 30 i/s sur un cœur")
    try:
        game = real_game()
    except Exception as exc:  # the figures on the sample views still stand
        print(f"partie réelle indisponible ({exc}) : vues d'exemple seulement")
        game = None
    results = {size: measure(size, game) for size in SIZES}
    both = two_windows()
    ok = all(r["full"] <= 0.015 and r["tick"] <= 0.002 for r in results.values())
    ok = ok and results[(1920, 1080)]["cpu"] <= 0.10 and both["fps"] >= 29 and both["cpu"] < 1
    print("objectifs atteints" if ok else "objectifs NON atteints")
    return 0
