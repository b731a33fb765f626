"""The room window loop under SDL's dummy driver: the demo's autopilot plays through the real
RoomDisplay, keys typed in the window reach the machine, and quitting asks first."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from display.window import DisplayEvent, RoomDisplay
from kiosk.cli import main
from kiosk.demo import Autopilot, VirtualClock, players
from kiosk.journal import Journal, last_game
from kiosk.machine import Machine
from kiosk.runner import run_window
from kiosk.session import Config, Session
from kiosk.voice import FileVoice


def test_demo_in_the_window_with_screenshots(tmp_path, lexicon):
    config = Config(seed=3, seconds=10, warning=5, players=players(), max_coups=2)
    journal = Journal.create(tmp_path / "d.partie", {"lexicon_sha256": lexicon.sha256},
                             first=("partie", config.to_dict()))
    clock = VirtualClock()
    machine = Machine(Session(journal, lexicon), clock)
    autopilot = Autopilot(machine, tmp_path, photos=False, advance=clock.advance)
    voice = FileVoice(tmp_path, cache_dir=tmp_path / "cache")
    room = RoomDisplay.open(window_size=(640, 360))
    try:
        run_window(machine, room, voice, autopilot, tmp_path, pace=0.0, linger=0.0)
    finally:
        room.close()
    assert machine.step == "fin"
    shots = sorted(p.name for p in tmp_path.glob("*.png"))
    # the room: its own screens only; the console: the correction, the help…
    for expected in ("coup01-1-coup.png", "coup01-3-coup.png", "coup01-5-annonce.png",
                     "coup01-6-annonce.png", "coup01-6-classement-fin.png",
                     "coup02-5-annonce.png", "fin-fin.png", "console-coup00-0-accueil-aide.png",
                     "console-coup01-6-correction-a-confirmer.png",
                     "console-coup01-6-correction-fin.png"):
        assert expected in shots
    assert not [name for name in shots if "correction" in name or "aide" in name
                if not name.startswith("console-")]
    assert pygame.image.load(str(tmp_path / "fin-fin.png")).get_size() == (640, 360)
    assert (tmp_path / "resultats.csv").read_text(encoding="utf-8").count("\n") == 17
    assert voice.spoken[1:4] == ["Chrono", "Cinq secondes", "Terminé"]


def test_nouvelle_keys_from_the_window_and_quit_confirmation(tmp_path, lexicon, monkeypatch):
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path))
    (tmp_path / "joueurs.csv").write_text("table;nom\n1;Anne\n2;Bruno\n", encoding="utf-8")
    script = [[DisplayEvent("key", "h", "h")], [DisplayEvent("key", "h", "h")],
              [DisplayEvent("key", "f", "f")],
              [DisplayEvent("key", "space", " ")], [DisplayEvent("key", "space", " ")],
              [DisplayEvent("quit")], [DisplayEvent("key", "n", "n")],
              [DisplayEvent("key", "escape")], [DisplayEvent("key", "o", "o")]]
    seen = []

    def pump(self, *others):
        seen.append(self.size)
        return script.pop(0) if script else [DisplayEvent("key", "escape"),
                                             DisplayEvent("key", "o", "o")]

    monkeypatch.setattr(RoomDisplay, "pump_events", pump)
    code = main(["nouvelle", "--fenetre", "--sans-postes", "--temps", "2:00", "--graine", "9",
                 "--joueurs", str(tmp_path / "joueurs.csv")])
    assert code == 0 and not script
    assert seen[0] == (1280, 720)
    assert seen[3] != (1280, 720), "F: the window became fullscreen"

    session = Session(Journal.open(last_game()), lexicon)
    assert session.config.seconds == 120 and session.config.seed == 9
    assert sorted(session.results.players) == [1, 2]
    assert session.step == "annonce"  # two spaces: tirage, then its announcement
    assert [e.kind for e in session.journal.events()] == ["partie", "tirage", "etape"]


def test_a_voice_problem_is_told_to_the_juge_arbitre(tmp_path, lexicon, monkeypatch):
    config = Config(seed=3, seconds=10, warning=5)
    journal = Journal.create(tmp_path / "v.partie", {"lexicon_sha256": lexicon.sha256},
                             first=("partie", config.to_dict()))
    machine = Machine(Session(journal, lexicon), VirtualClock())

    class SilentVoice:
        error = "aucune carte son : annonces écrites dans des fichiers"
        busy = False

        def say(self, text, coup=0):
            pass

        call = say

    frames = []

    def pump(self, *others):
        console = self.companions[0]
        frames.append(console.view.voice if console.view else "")
        if len(frames) < 3:
            return []
        return [DisplayEvent("key", "escape"), DisplayEvent("key", "o", "o")]

    monkeypatch.setattr(RoomDisplay, "pump_events", pump)
    room = RoomDisplay.open(window_size=(640, 360))
    try:
        run_window(machine, room, SilentVoice())
    finally:
        room.close()
        journal.close()
    # on the console's voice line, not in the room
    assert frames[1] == "voix : aucune carte son : annonces écrites dans des fichiers"


def test_sigterm_quits_at_once_and_keeps_the_chrono_second(tmp_path, lexicon, monkeypatch):
    import signal

    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path))
    frames = []

    def pump(self, *others):
        frames.append(1)
        if len(frames) <= 3:
            return [DisplayEvent("key", "space", " ")]  # tirage, annonce, chrono
        if len(frames) == 5:
            os.kill(os.getpid(), signal.SIGTERM)  # the machine shuts down
        if len(frames) > 60:  # not stopped: leave the test anyway
            return [DisplayEvent("key", "escape"), DisplayEvent("key", "o", "o")]
        return []

    monkeypatch.setattr(RoomDisplay, "pump_events", pump)
    assert main(["nouvelle", "--fenetre", "--sans-postes", "--graine", "9"]) == 0
    assert len(frames) < 10, "SIGTERM: quit without a question"
    session = Session(Journal.open(last_game()), lexicon)
    assert session.step == "chrono" and session.chrono.paused
    session.journal.close()
