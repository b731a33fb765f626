"""The loops around the machine: the two windows (room and console, real time) and the headless
run.

The machine decides; these loops only carry keys in, and announcements,
frames and screenshots out. The room window gets :func:`kiosk.views.room_view`
and nothing else; everything for the juge-arbitre goes to the console. The
headless loop (``--sans-ecran``) draws both on off-screen surfaces and saves
each new screen as PNG files.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
import time
from pathlib import Path

import pygame

from display.render import render

from . import exports
from .console import CONSOLE_SIZE, ConsoleWindow, french_system_text
from .console import draw as draw_console
from .machine import Effect, Machine
from .session import STEPS
from .views import room_view

HEADLESS_SIZE = (1280, 720)
FPS = 30
#: the journal's new events applied per frame at most this long (the rest the next frames)
SYNC_BUDGET = 0.008
#: a frame whose work already took this long leaves the console's redraw to the next one…
CONSOLE_AFTER = 0.012
#: …but never for longer than this
CONSOLE_LATEST = 0.25
#: the correction screen follows the phones' corrections at most this often (a key: at once)
CORRECTION_REDRAW = 0.5
log = logging.getLogger("kiosk.systeme")


def screen_key(machine: Machine) -> tuple:
    coup = machine.session.coup
    return (coup.number if coup else 0, machine.step, machine.flash_rejet is not None,
            machine.mode, machine.step == "correction" and machine.arbiter_screen,
            room_view(machine).screen)


def screenshot_name(machine: Machine, kind: str, suffix: str = "",
                    console: bool = False) -> str:
    """``coup03-6-annonce.png``; the console's frames also name its dialog (``-aide``…)."""
    coup = machine.session.coup
    number = coup.number if coup else 0
    if machine.step == "fin":
        return f"{'console-' if console else ''}fin-{kind}{suffix}.png"
    extra = f"-{machine.mode}" if machine.mode and console else ""
    if machine.flash_rejet is not None:
        extra += "-rejet"
    if kind == "correction" and machine.pending():
        extra += "-a-confirmer"
    prefix = "console-" if console else ""
    return f"{prefix}coup{number:02d}-{STEPS.index(machine.step)}-{kind}{extra}{suffix}.png"


def write_results(machine: Machine, out_dir: Path) -> Path:
    """The demo's results files (:mod:`kiosk.exports`), written whole then renamed; returns the
    CSV. No PDF here (a second each, at every demo's end): ``kiosk export`` writes them."""
    return exports.write_results(machine.session, Path(out_dir), pdf=False)[0]


class Output:
    """Where effects go: the voice, and the room window for fullscreen/quit."""

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
                self.machine.message = ("écran de salle en plein écran" if self.room.fullscreen
                                        else "écran de salle dans une fenêtre")


class Snapshots:
    """Which frames of a demo are kept as PNG: each new screen of the room
    (``coupNN-E-<écran>.png``) and of the console (``console-coupNN-E-….png``), the
    correction when the most bulletins wait, and once more when everything is confirmed."""

    def __init__(self, out_dir: Path) -> None:
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.last: tuple | None = None
        self.most_waiting = 0
        self.done: tuple | None = None
        self.saved: set[str] = set()

    def suffixes(self, machine: Machine) -> list[str]:
        """Which frames to keep now: "" for a new screen, "-fin" when the correction is done."""
        key = screen_key(machine)
        correcting = machine.step == "correction"
        waiting = len(machine.pending()) if correcting else 0
        kept = []
        if key != self.last or waiting > self.most_waiting:
            kept.append("")
            self.most_waiting = waiting if key == self.last else 0
            self.last = key
        if correcting and not waiting and self.done != key and \
                not machine.session.missing_tables(machine.session.coup.number):
            kept.append("-fin")
            self.done = key
        return kept

    def save(self, machine: Machine, room: pygame.Surface, console: pygame.Surface | None,
             draw: bool = True) -> None:
        """Save the frames to keep; ``draw`` composes them first (headless)."""
        kept = self.suffixes(machine)
        if not kept:
            return
        if draw:
            render(room_view(machine), room)
            if console is not None:
                draw_console(machine, console)
        room_kind = room_view(machine).screen.value
        kind = frame_kind(machine)
        for suffix in kept:
            name = screenshot_name(machine, room_kind, suffix)
            if name not in self.saved:  # a dialog on the console leaves the room as it was
                self.saved.add(name)
                pygame.image.save(room, str(self.out_dir / name))
            if console is not None and console_worth_keeping(machine, kind):
                name = screenshot_name(machine, kind, suffix, console=True)
                pygame.image.save(console, str(self.out_dir / name))


def console_worth_keeping(machine: Machine, kind: str) -> bool:
    """The console frames a demo keeps: those that show what the room does not (a dialog or
    the help, every move of the coup, the correction, the end)."""
    return bool(machine.mode) or kind == "correction" or machine.step in ("chrono", "fin")


def countdown_text(machine: Machine) -> str:
    c = machine.countdown
    return "" if c is None else f"{c.remaining(machine.clock()):.0f}{c.paused}"


def frame_kind(machine: Machine) -> str:
    """What the console's body shows: the correction screen, or the room's screen."""
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
    room = pygame.Surface(size)
    console = pygame.Surface(CONSOLE_SIZE)
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
            snapshots.save(machine, room, console)
        if not autopilot.act():
            break
        output.apply(machine.take_effects())
    else:
        raise RuntimeError(f"la démonstration n'avance plus (étape « {machine.step} ») : "
                           "résultats non écrits")
    output.apply(machine.take_effects())
    render(room_view(machine), room)
    pygame.image.save(room, str(Path(out_dir) / "fin-classement.png"))
    draw_console(machine, console)
    pygame.image.save(console, str(Path(out_dir) / "console-fin-classement.png"))
    return write_results(machine, Path(out_dir))


class SystemLines:
    """Voice and window problems, in French for the console; the raw text goes to the log."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.voice = ""
        self._voice_raw: str | None = None
        self._seen: dict[int, int] = {}

    def update(self, voice, *windows) -> None:
        error = getattr(voice, "error", None)
        if error != self._voice_raw:
            self._voice_raw = error
            self.voice = f"voix : {french_system_text(error)}" if error else ""
        for window in windows:
            if window is None:
                continue
            seen = self._seen.get(id(window), 0)
            for notice in window.notices[seen:]:
                self.lines.append(french_system_text(notice))
            self._seen[id(window)] = len(window.notices)
        del self.lines[:-5]


@contextlib.contextmanager
def native_stderr_to(path: Path | None):
    """While the windows are open, what C libraries write on the terminal (ALSA, SDL: English,
    raw) goes to the log file instead."""
    if path is None:
        yield
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        saved = os.dup(2)
    except OSError:
        yield
        return
    sys.stderr.flush()
    os.dup2(target, 2)
    try:
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(target)


def run_window(machine: Machine, room, voice, autopilot=None, out_dir: Path | None = None,
               pace: float = 0.5, poll_other_stations: float = 0.5,
               linger: float | None = None, progress: bool = False,
               console: ConsoleWindow | None = None) -> None:
    """The kiosk in the room: keys in from both windows, frames out, until the juge-arbitre
    quits (Échap). The room window shows the room view only; the console (opened beside the
    room when not given) shows everything else.

    With an autopilot (the demo) and ``linger`` set, the windows close by themselves
    ``linger`` seconds after the end of the game, once the voice is silent.
    """
    own_console = console is None
    if console is None:
        console = ConsoleWindow.beside(room)
    companions = list(getattr(room, "companions", []))
    room.companions = [*companions, console]  # one event queue: keys from both windows
    output = Output(machine, voice, room)
    snapshots = Snapshots(out_dir) if out_dir is not None else None
    system = SystemLines()
    close_at: float | None = None
    next_action = time.monotonic() + pace
    next_sync = 0.0
    deferred: float | None = None  # since when the console's frame waits for a lighter one
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
            began = time.perf_counter()
            keys = False
            for event in room.pump_events():
                if event.kind == "quit":
                    machine.key("escape")
                elif event.kind == "key":
                    keys = True
                    machine.key(event.key, event.text)
            now = time.monotonic()
            if now >= next_sync:
                next_sync = now + poll_other_stations
                try:
                    machine.session.sync(SYNC_BUDGET)
                    if machine.session.behind:  # a burst of the stations' writes: the rest
                        next_sync = now  # next frame, a few milliseconds a frame
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
            system.update(voice, room, console)
            seen = room_view(machine)
            room.show(seen)
            # the console waits a frame when this one is already full (journal work), unless
            # the juge-arbitre just pressed a key there: the room's frame comes first
            full = time.perf_counter() - began >= CONSOLE_AFTER
            if keys or not full or (deferred is not None
                                    and time.monotonic() - deferred > CONSOLE_LATEST):
                console.show(machine, system.voice, tuple(system.lines), room=seen,
                             wait=0.0 if keys or machine.step != "correction" else
                             CORRECTION_REDRAW)
                deferred = None
            elif deferred is None:
                deferred = time.monotonic()
            if snapshots is not None and room.surface is not None:
                snapshots.save(machine, room.surface, console.surface, draw=False)
            clock.tick(FPS)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        room.companions = companions
        if own_console:
            console.close()
