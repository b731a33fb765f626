"""The loops around the machine: the room window (pygame, real time) and the headless run.

The machine decides; these loops only carry keys in, and announcements,
frames and screenshots out. The headless loop (``--sans-ecran``) draws each
new screen on an off-screen surface and saves it as a PNG.
"""

from __future__ import annotations

import signal
import sys
import time
from pathlib import Path

import pygame

from . import exports
from .machine import Effect, Machine
from .screens import compose
from .session import STEPS
from .views import room_view

HEADLESS_SIZE = (1280, 720)
FPS = 30


def screen_key(machine: Machine) -> tuple:
    coup = machine.session.coup
    return (coup.number if coup else 0, machine.step, machine.flash_rejet is not None,
            machine.mode, machine.step == "correction" and machine.arbiter_screen)


def screenshot_name(machine: Machine, kind: str, suffix: str = "") -> str:
    coup = machine.session.coup
    number = coup.number if coup else 0
    if machine.step == "fin":
        return "fin-classement.png"
    extra = f"-{machine.mode}" if machine.mode else ""
    if machine.flash_rejet is not None:
        extra += "-rejet"
    if machine.step == "correction" and machine.pending():
        extra += "-a-confirmer"
    return f"coup{number:02d}-{STEPS.index(machine.step)}-{kind}{extra}{suffix}.png"


def write_results(machine: Machine, out_dir: Path) -> Path:
    """The demo's results files (:mod:`kiosk.exports`), written whole then renamed; returns the
    CSV. No PDF here (a second each, at every demo's end): ``kiosk export`` writes them."""
    return exports.write_results(machine.session, Path(out_dir), pdf=False)[0]


class Output:
    """Where effects go: the voice, and the window for fullscreen/quit."""

    def __init__(self, machine: Machine, voice, room=None) -> None:
        self.machine = machine
        self.voice = voice
        self.room = room
        self.quit = False

    def apply(self, effects: list[Effect]) -> None:
        coup = self.machine.session.coup
        number = coup.number if coup else 0
        for effect in effects:
            if effect.kind == "dire":
                self.voice.say(effect.text, number)
            elif effect.kind == "appel":
                self.voice.call(effect.text, number)
            elif effect.kind == "quitter":
                self.quit = True
            elif effect.kind == "plein_ecran" and self.room is not None:
                self.room.toggle_fullscreen()
                if self.room.renderer is not None:
                    self.room.renderer.view = None
                self.machine.message = "plein écran" if self.room.fullscreen else "fenêtre"


class Snapshots:
    """Which frames of a demo are kept as PNG: each new screen, the correction screen when the
    most bulletins wait, and once more when everything is confirmed."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.last: tuple | None = None
        self.most_waiting = 0
        self.done: tuple | None = None

    def names(self, machine: Machine, kind: str) -> list[str]:
        """The files the current frame must be saved as (usually none)."""
        key = screen_key(machine)
        correcting = machine.step == "correction"
        waiting = len(machine.pending()) if correcting else 0
        names = []
        if key != self.last or waiting > self.most_waiting:
            names.append(screenshot_name(machine, kind))
            self.most_waiting = waiting if key == self.last else 0
            self.last = key
        if correcting and not waiting and self.done != key and \
                not machine.session.missing_tables(machine.session.coup.number):
            names.append(screenshot_name(machine, kind, "-fin"))
            self.done = key
        return names

    def save(self, machine: Machine, surface: pygame.Surface, draw: bool = True) -> None:
        """Save the frame if it is one to keep; ``draw`` composes it first (headless)."""
        names = self.names(machine, frame_kind(machine))
        if names and draw:
            compose(machine, surface)
        for name in names:
            pygame.image.save(surface, str(self.out_dir / name))


def countdown_text(machine: Machine) -> str:
    c = machine.countdown
    return "" if c is None else f"{c.remaining(machine.clock()):.0f}{c.paused}"


def frame_kind(machine: Machine) -> str:
    """What :func:`kiosk.screens.compose` would draw, without drawing it."""
    if machine.step == "correction" and machine.arbiter_screen:
        return "correction"
    return room_view(machine).screen.value


class Progress:
    """One line per coup played, for a demo nobody watches (no window, or a virtual one)."""

    def __init__(self, machine: Machine) -> None:
        self.machine = machine
        self.seen = len(self._played())  # a resumed demo does not repeat its first coups

    def _played(self):
        game = self.machine.session.game
        return game.played() if game else []

    def update(self) -> None:
        played = self._played()
        while self.seen < len(played):
            coup = played[self.seen]
            self.seen += 1
            top = coup.top
            print(f"coup {coup.number:2d} : {coup.reliquat or '-'}+{coup.new_letters} → top "
                  f"{top.word} {top.ref}, {top.score} points", flush=True)


def run_headless(machine: Machine, autopilot, voice, out_dir: Path,
                 size: tuple[int, int] = HEADLESS_SIZE, max_actions: int = 100_000,
                 screenshots: bool = True, progress: bool = False) -> Path:
    """Play the demo to its end without a window; every new screen is saved as a PNG."""
    pygame.font.init()
    surface = pygame.Surface(size)
    output = Output(machine, voice)
    snapshots = Snapshots(out_dir)
    lines = Progress(machine) if progress else None
    for _ in range(max_actions):
        notice = machine.poll_store()
        if notice:
            print(f"attention : {notice}", file=sys.stderr, flush=True)
        if lines is not None:
            lines.update()
        if screenshots:
            snapshots.save(machine, surface)
        if not autopilot.act():
            break
        output.apply(machine.take_effects())
    else:
        raise RuntimeError(f"la démonstration n'avance plus (étape « {machine.step} ») : "
                           "résultats non écrits")
    output.apply(machine.take_effects())
    compose(machine, surface)
    pygame.image.save(surface, str(Path(out_dir) / screenshot_name(machine, "fin")))
    return write_results(machine, Path(out_dir))


def run_window(machine: Machine, room, voice, autopilot=None, out_dir: Path | None = None,
               pace: float = 0.5, poll_other_stations: float = 0.5,
               linger: float | None = None, progress: bool = False) -> None:
    """The kiosk in the room: keys in, frames out, until the juge-arbitre quits (Échap).

    With an autopilot (the demo) and ``linger`` set, the window closes by itself
    ``linger`` seconds after the end of the game, once the voice is silent.
    """
    output = Output(machine, voice, room)
    snapshots = Snapshots(out_dir) if out_dir is not None else None
    close_at: float | None = None
    next_action = time.monotonic() + pace
    next_sync = 0.0
    drawn = None  # what the last composed frame showed: unchanged frames are not redrawn
    voice_error: str | None = None  # the last voice problem told to the juge-arbitre
    clock = pygame.time.Clock()
    lines = Progress(machine) if progress else None

    def _terminate(signum, frame) -> None:
        output.quit = True  # the system asks us to stop (shutdown, kill): no question asked

    try:
        previous = signal.signal(signal.SIGTERM, _terminate)  # SDL would turn it into « quit ? »
    except ValueError:  # not the main thread
        previous = None
    try:
        while not output.quit:
            for event in room.pump_events():
                if event.kind == "quit":
                    machine.key("escape")
                elif event.kind == "key":
                    machine.key(event.key, event.text)
            now = time.monotonic()
            if now >= next_sync:
                next_sync = now + poll_other_stations
                try:
                    machine.session.sync()
                except Exception as exc:  # noqa: BLE001 - keep the room going, say why
                    from .journal import JournalError, sqlite_reason

                    reason = str(exc) if isinstance(exc, JournalError) else sqlite_reason(exc)
                    machine.message = f"lecture du journal impossible : {reason}"
                machine.poll_store()
            machine.tick()
            if lines is not None:
                lines.update()
            if autopilot is not None and now >= next_action and not voice.busy:
                if not autopilot.act():
                    autopilot = None
                    if out_dir is not None:
                        write_results(machine, out_dir)
                    if linger is not None:
                        close_at = now + linger
                next_action = now + pace
            if close_at is not None and now >= close_at and not voice.busy:
                output.quit = True
            output.apply(machine.take_effects())
            error = getattr(voice, "error", None)
            if error and error != voice_error:  # no sound, no synthesiser: the JA must know
                voice_error = error
                machine.message = f"voix : {error}"
            overlay = machine.mode or machine.message or (machine.step == "correction"
                                                          and machine.arbiter_screen)
            if overlay:
                signature = (screen_key(machine), machine.message, machine.buffer, machine.cursor,
                             machine.edit_field, machine.session.applied, countdown_text(machine))
                if room.surface is not None and signature != drawn:
                    drawn = signature
                    compose(machine, room.surface)
                    pygame.display.flip()
                    if room.renderer is not None:
                        room.renderer.view = None  # the next room frame is a full redraw
            else:
                drawn = None
                room.show(room_view(machine))
            if snapshots is not None and room.surface is not None:
                snapshots.save(machine, room.surface, draw=False)
            clock.tick(FPS)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
