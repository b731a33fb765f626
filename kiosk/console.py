"""The juge-arbitre's console: its own window, never projected.

:func:`console_view` turns the machine into a :class:`display.console.ConsoleView`
(what the console shows: step, tirage, countdown, every move of the coup once
the chrono runs, dialogs, help, messages in French); :class:`ConsoleWindow` is
the window on the laptop's screen, or beside the room window when there is
only one screen. During the correction its body is the correction screen
(:func:`kiosk.screens.draw_arbiter`). The arbiter stations (key Q: QR code,
address, code, stations) are shown here only: the room never sees the secret.
"""

from __future__ import annotations

import logging
import re
import time

import pygame

from display.console import ConsoleMove, ConsoleView, Overlay, draw_console
from display.view import Countdown, Screen
from display.window import SdlWindow, desktop_size, display_count
from engine.tiles import RACK_SIZE

from .machine import HELP, Machine
from .screens import _prompt, draw_arbiter
from .stations.panel import panel_overlay, stations_view, summary
from .views import room_view

log = logging.getLogger("kiosk.systeme")

CAPTION = "Scrabble Duplicate : console du juge-arbitre"
CONSOLE_SIZE = (1366, 768)
MOVES_SHOWN = 400  # the console lists this many moves at most (best first)
LOG_NAME = "kiosque.log"

#: the two screens and how to pick the projector, shown under the keys in the help (H)
SCREENS_HELP = (
    "Deux fenêtres : l'écran de salle (projecteur) ne montre que la grille, le tirage, le "
    "chrono et les classements ; cette console (l'écran du portable) montre tout le reste : "
    "aide, questions, tops à égalité, correction, messages.",
    "Le projecteur : kiosk nouvelle --ecran N (N = 1 pour le deuxième écran ; défaut : le "
    "deuxième écran s'il y en a deux). Un seul écran : la salle dans une fenêtre, la console à "
    "côté ; F met la salle en plein écran et l'en sort.",
)

ROOM_WORDS = {
    Screen.ACCUEIL: "accueil", Screen.COUP: "tirage et chrono", Screen.ANNONCE: "le top",
    Screen.REJET: "tirage rejeté", Screen.CLASSEMENT: "classement", Screen.FIN: "fin de partie",
}


def french_system_text(text: str) -> str:
    """A system message as the juge-arbitre reads it: the raw text of the sound or video layer
    (often English: ALSA, SDL) goes to the log file, never on a screen."""
    if not text:
        return ""
    cleaned = re.sub(r"\s*\([^)]*\)", "", text).strip()
    head, sep, tail = cleaned.partition(" impossible : ")
    if sep:
        cleaned = f"{head} impossible (détail dans {LOG_NAME})"
    if cleaned != text:
        log.warning("%s", text)
    return cleaned


def step_hint(machine: Machine) -> str:
    """The key for the next step, in words."""
    s = machine.session
    step = s.step
    coup = s.coup
    if step == "accueil":
        return "Espace : premier tirage" + (" (tapé)" if machine.config.draw_mode == "manuel"
                                             else "")
    if step == "tirage":
        if machine.flash_rejet is not None and coup is not None and coup.tirage:
            return "Espace : montrer le nouveau tirage"
        if coup is not None and coup.tirage and coup.top is None:
            return "Espace : annoncer le tirage · R : le rejeter"
        return "Espace : tirage suivant"
    if step == "annonce":
        return "Espace : lancer le chrono · R : rejeter le tirage"
    if step == "chrono":
        return "P : pause · à « Terminé », ramassage des bulletins"
    if step == "ramassage":
        ties = len(machine.ties())
        return "Espace : annoncer le top" + (f" · T : {ties} tops à égalité" if ties > 1 else "")
    if step == "top":
        return "Espace : correction"
    if step == "correction":
        limit = machine.config.max_coups
        last = s.game.finished or (limit and coup is not None and coup.number >= limit)
        return "Espace : fin de partie" if last else "Espace : coup suivant"
    return "Partie terminée · Échap : quitter"


_LISTS: dict[tuple, tuple[ConsoleMove, ...]] = {}  # the sorted list of a coup, made once


def _listed(moves: list, chosen) -> tuple[ConsoleMove, ...]:
    """The console's list of ``moves``, best first; cached (the console asks 30 times a
    second, and a tirage with jokers has thousands of moves)."""
    key = (id(moves), len(moves), None if chosen is None else (chosen.word, str(chosen.ref)))
    if key not in _LISTS:
        if len(_LISTS) > 8:
            _LISTS.clear()
        best = max(m.score for m in moves)
        ordered = sorted(moves, key=lambda m: (-m.score, m.word, str(m.ref)))[:MOVES_SHOWN]
        _LISTS[key] = tuple(ConsoleMove(m.word, str(m.ref), m.score, m.score == best,
                                        m == chosen, len(m.placed) == RACK_SIZE)
                            for m in ordered)
    return _LISTS[key]


def _moves(machine: Machine) -> tuple[tuple[ConsoleMove, ...], int, str]:
    s = machine.session
    coup = s.coup
    if coup is None or not coup.tirage or s.step in ("accueil", "tirage", "annonce"):
        return (), 0, "La liste de tous les coups du tirage s'affiche ici au lancement du chrono."
    moves, tops = s.moves(coup.number)
    if not moves:
        return (), 0, "Aucun coup possible avec ce tirage."
    chosen = coup.top if coup.top is not None else \
        (tops[min(s.top_choice, len(tops) - 1)] if tops else None)
    return _listed(moves, chosen), len(moves), ""


def _validity(machine: Machine) -> tuple[str, bool | None]:
    s = machine.session
    coup = s.coup
    if machine.flash_rejet is not None:
        letters, reason = machine.flash_rejet
        return f"tirage {letters} rejeté : {reason}", False
    if coup is None or not coup.tirage or coup.top is not None or s.step not in ("tirage",
                                                                                "annonce"):
        return "", None
    try:
        check = s.game.check(coup)
    except Exception:  # noqa: BLE001 - no verdict rather than no console
        return "", None
    if check.valid:
        return "tirage valable", True
    return f"tirage non valable : {check.reason} (R : le rejeter)", False


def _overlay(machine: Machine) -> Overlay | None:
    mode = machine.mode
    if mode is None:
        return None
    if mode == "aide":
        return Overlay("aide", "Touches du juge-arbitre", lines=SCREENS_HELP, pairs=HELP)
    if mode == "egalite":
        ties = machine.ties()
        chosen = machine.session.top_choice
        moves = tuple(ConsoleMove(m.word, str(m.ref), m.score, True, i == chosen)
                      for i, m in enumerate(ties))
        lines = ["↑ ↓ (Page ↑ ↓) ou le numéro, puis Entrée : choisir · Échap : garder "
                 "le top proposé"]
        if machine.buffer:
            lines.append(f"numéro tapé : {machine.buffer}")
        return Overlay("egalite", f"Tops à égalité ({len(ties)})", tuple(lines),
                       moves=moves, cursor=machine.tie_cursor, typed=machine.buffer)
    prompt = _prompt(machine)
    if mode == "postes" and not prompt:  # the panel, unless a removal awaits its O
        return panel_overlay(stations_view(machine.session), machine.stations_cursor)
    if not prompt:
        return None
    return Overlay("dialogue", prompt[0], tuple(prompt[1:]))


def console_view(machine: Machine, voice: str = "", system: tuple[str, ...] = (),
                 room=None) -> ConsoleView:
    """What the console shows now (``room``: the room's view, when already made)."""
    s = machine.session
    coup = s.coup
    countdown = None
    if s.step == "chrono" and machine.countdown is not None:
        countdown = Countdown(machine.countdown.remaining(machine.clock()),
                              float(machine.config.warning), machine.countdown.paused)
    elif s.step == "ramassage":
        countdown = Countdown(0.0)
    moves, total, note = _moves(machine)
    validity, valid = _validity(machine)
    tirage = machine.flash_rejet[0] if machine.flash_rejet else (coup.tirage if coup else "")
    reliquat = 0 if machine.flash_rejet else (len(coup.reliquat) if coup else 0)
    correction = s.step == "correction" and machine.arbiter_screen
    return ConsoleView(
        step=s.step, coup=coup.number if coup else 0, hint=step_hint(machine), tirage=tirage,
        reliquat=reliquat, validity=validity, valid=valid, countdown=countdown,
        bag="".join(sorted(s.game.bag.elements())), moves=moves, moves_total=total,
        moves_note=note, announcement=machine.last_announcement or "", voice=voice,
        message=machine.message, system=system,
        room=ROOM_WORDS[(room or room_view(machine)).screen],
        stations=summary(stations_view(s)), overlay=_overlay(machine), correction=correction,
        extra=(s.applied, machine.cursor, machine.edit_field, machine.buffer, machine.mode)
        if correction else ())


def draw(machine: Machine, surface: pygame.Surface, voice: str = "",
         system: tuple[str, ...] = ()) -> str:
    """The console frame on ``surface``; returns what its body shows (« correction » or the
    room's screen)."""
    view = console_view(machine, voice, system)
    draw_console(view, surface, body=lambda sub: draw_arbiter(machine, sub))
    return "correction" if view.correction else room_view(machine).screen.value


def console_place(room_display: int | None, room_window: tuple[int, int] | None
                  ) -> tuple[int, tuple[int, int] | None, tuple[int, int]]:
    """Where the console goes: (display, position, size). With two screens or more, on a
    screen the room does not use, centred; with one, beside the room window."""
    count = display_count()
    room_index = room_display or 0
    if count > 1 and (room_window is None or room_display is not None):
        index = 0 if room_index != 0 else 1
        width, height = desktop_size(index)
        size = (min(CONSOLE_SIZE[0], width), min(CONSOLE_SIZE[1], height - 60))
        return index, None, size
    width, height = desktop_size(0)
    room_w = room_window[0] if room_window else width // 2
    size = (max(480, min(CONSOLE_SIZE[0], width - room_w)), max(360, min(CONSOLE_SIZE[1],
                                                                         height - 60)))
    return 0, (min(room_w, max(0, width - size[0])), 30), size


class ConsoleWindow(SdlWindow):
    """The console's window: ``show(machine)`` redraws it when what it shows has changed."""

    caption = CAPTION

    def __init__(self, display_index=None, window_size=None, position=None) -> None:
        super().__init__(display_index, window_size or CONSOLE_SIZE, position)
        self.view: ConsoleView | None = None
        self._machine: Machine | None = None
        self._drawn_at = 0.0

    @classmethod
    def open(cls, display_index: int | None = None, window_size: tuple[int, int] | None = None,
             position: tuple[int, int] | None = None) -> ConsoleWindow:
        console = cls(display_index, window_size, position)
        console._open()
        return console

    @classmethod
    def beside(cls, room) -> ConsoleWindow:
        """The console for ``room`` (a :class:`display.window.RoomDisplay`)."""
        room_window = None if room.fullscreen else room.size
        index, position, size = console_place(room.display_index, room_window)
        return cls.open(index, size, position)

    def show(self, machine: Machine, voice: str = "", system: tuple[str, ...] = (),
             force: bool = False, room=None, wait: float = 0.0) -> bool:
        """Draw the console if it changed; True when a new frame was shown. ``wait``: not
        again within that many seconds of the last frame (the correction screen, redrawn
        for every correction a phone sends, would take the room's frames)."""
        self._machine = machine
        view = console_view(machine, voice, system, room)
        if not force and view == self.view:
            return False
        if not force and wait and time.monotonic() - self._drawn_at < wait:
            return False
        if not self.ensure():
            return False
        self._drawn_at = time.monotonic()
        self.view = view
        draw_console(view, self.surface, body=lambda sub: draw_arbiter(machine, sub))
        self.flip()
        return True

    def redraw(self) -> None:
        if self._machine is not None and self.view is not None and self.surface is not None:
            draw_console(self.view, self.surface,
                         body=lambda sub: draw_arbiter(self._machine, sub))
            self.flip()
