"""Two windows in one program: the room sees only the room, the juge-arbitre has a console.

A scripted game runs with both windows under SDL's dummy driver and under a real X server
(Xvfb, started here on a free display number); every room frame is checked, pixel for pixel,
against what the room view alone draws. Then: where each window goes, system texts in French.
"""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from display.console import ConsoleView, draw_console
from display.window import RoomDisplay
from kiosk.cli import room_place
from kiosk.console import ConsoleWindow, console_place, console_view, french_system_text

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))

from two_screens import scripted_game  # noqa: E402


def check(found: dict) -> None:
    assert found["final_step"] == "fin"
    assert found["frames"] > 30 and found["console_frames"] > 10
    assert found["keys"] >= len({"h", "u", "p", "t", "q", "escape"})  # typed in the console
    assert {"aide", "annuler", "quitter"} <= set(found["modes"])
    assert {"aide", "dialogue", "postes"} <= set(found["overlays"])  # …and shown there
    assert "postes" in found["modes"] and found["qr_room"] == ""  # no QR code on the room
    assert found["qr_console"]  # the console's QR code scans to the join link
    assert {"accueil", "coup", "annonce", "classement", "fin"} <= set(found["room_screens"])
    assert found["ids"][0] != found["ids"][1]


def test_a_scripted_game_with_both_windows_under_sdl_dummy(tmp_path, lexicon):
    check(scripted_game(tmp_path, lexicon))
    assert (tmp_path / "resultats.csv").exists()
    room_shots = [p.name for p in tmp_path.glob("coup*.png")]
    console_shots = [p.name for p in tmp_path.glob("console-*.png")]
    assert room_shots and console_shots
    assert not [n for n in room_shots if "correction" in n or "aide" in n]
    assert pygame.image.load(str(tmp_path / "console-coup00-0-accueil-aide.png")).get_size() \
        == (683, 384)


def free_display() -> int:
    for number in range(91, 200):
        if not Path(f"/tmp/.X{number}-lock").exists() and \
                not Path(f"/tmp/.X11-unix/X{number}").exists():
            return number
    raise RuntimeError("aucun numéro d'écran X libre")


@pytest.fixture
def xvfb():
    binary = shutil.which("Xvfb")
    assert binary, "Xvfb manque : apt-get install xvfb (scripts/bootstrap.sh l'installe)"
    number = free_display()
    server = subprocess.Popen([binary, f":{number}", "-screen", "0", "1920x1080x24",
                               "-nolisten", "tcp"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    socket = Path(f"/tmp/.X11-unix/X{number}")
    deadline = time.monotonic() + 20
    while not socket.exists() and time.monotonic() < deadline and server.poll() is None:
        time.sleep(0.05)
    assert socket.exists(), "Xvfb n'a pas démarré"
    yield f":{number}"
    server.terminate()
    server.wait(timeout=10)


def test_a_scripted_game_with_both_windows_under_xvfb(tmp_path, xvfb):
    env = dict(os.environ, DISPLAY=xvfb, SDL_VIDEODRIVER="x11", SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, str(ROOT / "tests" / "two_screens.py"),
                           str(tmp_path)], env=env, capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["driver"] == "x11"
    check(found)


def test_where_the_windows_go():
    # --ecran N: the projector, fullscreen; the console on another screen
    assert room_place(2, False, 3, (1920, 1080)) == {"display_index": 2}
    # two screens and no choice: the second one is the projector
    assert room_place(None, False, 2, (1920, 1080)) == {"display_index": 1}
    # one screen: the room in a window on the left, the console beside it
    one = room_place(None, False, 1, (1920, 1080))
    assert one["window_size"][0] <= 1920 * 0.6 and one["position"] == (0, 30)
    assert room_place(None, True, 2, (1920, 1080))["window_size"] == (1280, 720)
    index, position, size = console_place(None, (560, 315))  # dummy: one 1024×768 screen
    assert index == 0 and 500 <= position[0] and position[0] + size[0] <= 1024


def test_the_console_beside_a_room_window_and_f_keeps_it(tmp_path):
    room = RoomDisplay.open(window_size=(560, 315), position=(0, 0))
    console = ConsoleWindow.beside(room)
    try:
        assert console.id != room.id and console.alive()
        assert console.window.position[0] >= 0
        room.toggle_fullscreen()  # F: the room fullscreen, the console still there
        assert room.fullscreen and console.alive()
        room.toggle_fullscreen()
        assert not room.fullscreen and room.size == (560, 315) and console.alive()
    finally:
        console.close()
        room.close()


def test_system_texts_are_french_and_the_raw_text_goes_to_the_log(caplog):
    raw = ("pas de sortie son (ALSA: Couldn't open audio device: No such file or directory) : "
           "annonces écrites dans des fichiers")
    with caplog.at_level("WARNING", logger="kiosk.systeme"):
        said = french_system_text(raw)
    assert said == "pas de sortie son : annonces écrites dans des fichiers"
    assert "ALSA" in caplog.text and "ALSA" not in said
    said = french_system_text("synthèse impossible : [Errno 2] No such file: 'espeak-ng'")
    assert said == "synthèse impossible (détail dans kiosque.log)"


def test_the_console_lists_every_move_once_the_chrono_runs(tmp_path, lexicon):
    from kiosk.journal import Journal
    from kiosk.machine import Machine
    from kiosk.session import Config, Session

    journal = Journal.create(tmp_path / "p.partie", {"lexicon_sha256": lexicon.sha256},
                             first=("partie", Config(seed=5, seconds=60).to_dict()))
    now = [100.0]
    machine = Machine(Session(journal, lexicon), lambda: now[0])
    machine.key("space")
    view = console_view(machine)
    assert view.step == "tirage" and not view.moves  # the room must not learn the top early
    assert view.hint.startswith("Espace : annoncer le tirage") and view.validity
    machine.key("space")
    machine.key("space")  # chrono
    view = console_view(machine)
    moves, tops = machine.session.moves(1)
    assert view.moves_total == len(moves) and view.moves[0].top and view.moves[0].chosen
    assert [m.score for m in view.moves] == sorted((m.score for m in view.moves), reverse=True)
    assert view.countdown.text == "1:00" and view.step == "chrono"
    pygame.font.init()
    for size in ((1920, 1080), (1366, 768), (683, 384)):
        texts = draw_console(view, pygame.Surface(size))
        assert "chrono" in texts and view.moves[0].word.upper() in texts
    assert draw_console(ConsoleView(step="accueil"), pygame.Surface((640, 360)))
    journal.close()


def test_the_step_bar_names_every_step_whole_on_a_narrow_console():
    """A console squeezed beside the room (864 px wide) still reads « ramassage » and
    « coup suivant » whole: the labels shrink together before any is cut."""
    from display.console import STEP_NAMES, ConsoleView, draw_console

    pygame.font.init()
    for size in ((864, 768), (1024, 600), (1366, 768)):
        texts = draw_console(ConsoleView(step="ramassage"), pygame.Surface(size))
        assert all(name in texts for name in STEP_NAMES), (size, texts[:7])


def test_the_welcome_screen_reads_tirages_aleatoires(tmp_path, lexicon):
    from display.render import render
    from kiosk.journal import Journal
    from kiosk.machine import Machine
    from kiosk.session import Config, Session
    from kiosk.views import room_view

    journal = Journal.create(tmp_path / "p.partie", {"lexicon_sha256": lexicon.sha256},
                             first=("partie", Config(seed=5, seconds=60).to_dict()))
    machine = Machine(Session(journal, lexicon), lambda: 0.0)
    view = room_view(machine)
    assert ("Tirages", "aléatoires") in view.settings  # « Tirages aléatoires »
    pygame.font.init()
    drawn = [text for text, _ in render(view, pygame.Surface((1280, 720))).texts]
    assert drawn.index("aléatoires") == drawn.index("Tirages") + 1
    journal.close()
