"""A scripted game with both windows (room and console), checking every room frame.

Used by ``tests/test_two_screens.py`` in-process (SDL dummy) and as a script under a
real X server (Xvfb): ``python tests/two_screens.py OUT_DIR`` prints its findings as JSON.
At every frame the room window's pixels must be exactly what the room view alone draws,
while the juge-arbitre's keys (typed in the console window) open the help, dialogs, the
tied-tops chooser and the arbiter stations' panel (its QR code carries the join secret) on the
console: the console's pixels scan to the join link, the room's to nothing.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pygame

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from display.render import render  # noqa: E402
from display.window import RoomDisplay  # noqa: E402
from engine.lexicon import Lexicon  # noqa: E402
from kiosk.console import ConsoleWindow  # noqa: E402
from kiosk.demo import Autopilot, VirtualClock, players  # noqa: E402
from kiosk.journal import Journal  # noqa: E402
from kiosk.machine import Machine  # noqa: E402
from kiosk.runner import run_window  # noqa: E402
from kiosk.session import Config, Session  # noqa: E402
from kiosk.stations.hub import Hub  # noqa: E402
from kiosk.views import room_view  # noqa: E402
from kiosk.voice import FileVoice  # noqa: E402

#: keys the juge-arbitre types in the console window, at the first frame of a step
SCRIPT = {
    "accueil": ["h"],  # help (the autopilot closes it)
    "annonce": ["u"],  # « Annuler la dernière étape ? » (the autopilot says no)
    "chrono": ["p"],  # pause (the autopilot resumes)
    "ramassage": ["t"],  # tied tops, or the message that there is only one
    "top": ["q"],  # the arbiter stations' panel: QR code, address, code (the autopilot closes it)
    "correction": ["escape"],  # « Quitter ? » (the autopilot says no)
}


def scan(surface: pygame.Surface) -> str:
    """What a phone's camera reads on a window's pixels: the QR code's text, or "". Two of
    OpenCV's decoders, as a phone has its own: the classic one misses about one code in two
    hundred of the random join links (a sharp, valid code: its finder-pattern search fails),
    which the ArUco-based one reads."""
    pixels = np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2))[:, :, ::-1].copy()
    for detector in (cv2.QRCodeDetector(), cv2.QRCodeDetectorAruco()):
        text = detector.detectAndDecode(pixels)[0]
        if text:
            return text
    return ""


def scripted_game(out_dir: Path, lexicon=None, room_size=(640, 360)) -> dict:
    lexicon = lexicon or Lexicon.load()
    config = Config(seed=3, seconds=10, warning=5, players=players(), max_coups=2)
    journal = Journal.create(out_dir / "d.partie", {"lexicon_sha256": lexicon.sha256},
                             first=("partie", config.to_dict()))
    # the stations are open (as their server opens them) and one arbiter has joined
    hub = Hub(Session(Journal.open(out_dir / "d.partie", station="postes"), lexicon),
              out_dir / "photos")
    link = hub.open("127.0.0.1", 8765, "127.0.0.1")["lien"]
    hub.join("Anne", "a" * 40, secret=hub.session.network["cle"])
    hub.session.journal.close()
    clock = VirtualClock()
    machine = Machine(Session(journal, lexicon), clock)
    autopilot = Autopilot(machine, out_dir, photos=False, advance=clock.advance)
    voice = FileVoice(out_dir, cache_dir=out_dir / "cache")
    room = RoomDisplay.open(window_size=room_size, position=(0, 0))
    console = ConsoleWindow.open(window_size=(683, 384), position=(room_size[0] + 10, 0))
    found = {"frames": 0, "modes": [], "overlays": [], "console_frames": 0, "keys": 0,
             "room_screens": [], "ids": [room.id, console.id], "steps": [],
             "qr_console": None, "qr_room": None}
    posted: set[tuple[int, str]] = set()
    room_show, room_pump, console_show = room.show, room.pump_events, console.show

    def show(view):
        room_show(view)
        assert view == room_view(machine), "the room gets the room view, nothing else"
        fresh = pygame.Surface(room.size)
        render(view, fresh)
        drawn = pygame.surfarray.array3d(room.surface)
        assert np.array_equal(drawn, pygame.surfarray.array3d(fresh)), \
            f"room frame differs from its view (step {machine.step}, mode {machine.mode})"
        found["frames"] += 1
        if machine.mode == "postes" and found["qr_room"] is None:
            found["qr_room"] = scan(room.surface)
            assert found["qr_room"] == "", "the join link on the room's screen"
        if machine.mode and machine.mode not in found["modes"]:
            found["modes"].append(machine.mode)
        if view.screen.value not in found["room_screens"]:
            found["room_screens"].append(view.screen.value)

    def pump(*others):
        coup = machine.session.coup
        moment = (coup.number if coup else 0, machine.step)
        if machine.step in SCRIPT and moment not in posted and machine.mode is None:
            posted.add(moment)
            for key in SCRIPT[machine.step]:
                code = pygame.key.key_code(key)
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0,
                                                     unicode=key if len(key) == 1 else "",
                                                     window=console.window))
        events = room_pump(*others)
        found["keys"] += sum(1 for e in events if e.kind == "key"
                             and e.window == console.caption)
        if machine.step not in found["steps"]:
            found["steps"].append(machine.step)
        return events

    def show_console(*args, **kwargs):
        shown = console_show(*args, **kwargs)
        if shown:
            found["console_frames"] += 1
            overlay = console.view.overlay
            if overlay is not None and overlay.kind not in found["overlays"]:
                found["overlays"].append(overlay.kind)
            if overlay is not None and overlay.kind == "postes":
                found["qr_console"] = scan(console.surface) == link
        return shown

    act = autopilot.act
    held = {"frames": 0}

    def act_later():  # a dialog stays open a few frames, as when a person reads it
        if machine.mode is not None and held["frames"] < 3:
            held["frames"] += 1
            return True
        held["frames"] = 0
        return act()

    autopilot.act = act_later
    room.show, room.pump_events, console.show = show, pump, show_console
    try:
        run_window(machine, room, voice, autopilot, out_dir, pace=0.0, linger=0.0,
                   console=console)
    finally:
        console.close()
        room.close()
        journal.close()
    found["final_step"] = machine.step
    found["driver"] = pygame.display.get_driver() if pygame.display.get_init() else ""
    return found


if __name__ == "__main__":
    target = Path(sys.argv[1])
    target.mkdir(parents=True, exist_ok=True)
    pygame.display.init()
    result = scripted_game(target)
    result["driver"] = result["driver"] or "?"
    print(json.dumps(result))
