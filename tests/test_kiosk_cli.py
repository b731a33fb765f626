"""The ``kiosk`` command as a user runs it: French help and errors, reading a photo folder,
export, and the demo killed with SIGKILL at random moments then resumed.

The crash test runs ``KIOSK_CRASH_POINTS`` kill points: 6 in ``make test`` (about 20 s),
the issue's 50 in ``make test-long`` (about three minutes), which CI runs too.
"""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.lexicon import Lexicon
from kiosk.cli import main, read_players
from kiosk.journal import Journal
from kiosk.session import Config, Session

ROOT = Path(__file__).resolve().parent.parent
CRASH_POINTS = int(os.environ.get("KIOSK_CRASH_POINTS", "6"))


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path / "parties"))
    return tmp_path


def kiosk(*args, env_extra=None, **kwargs):
    environ = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   **(env_extra or {}))
    return subprocess.Popen([sys.executable, "-m", "kiosk", *map(str, args)], cwd=ROOT,
                            env=environ, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, **kwargs)


def run(*args, **kwargs):
    proc = kiosk(*args, **kwargs)
    out, err = proc.communicate(timeout=300)
    return proc.returncode, out, err


def test_help_is_french(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "utilisation : kiosk" in out and "nouvelle" in out and "reprendre" in out
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert "10 secondes par coup" in capsys.readouterr().out


def test_bad_option_and_missing_lexicon_in_french(env, capsys):
    with pytest.raises(SystemExit) as info:
        main(["nouvelle", "--temps", "4:00"])
    assert info.value.code == 2
    assert "choix non valable" in capsys.readouterr().err
    assert main(["nouvelle", "--lexique", str(env / "absente.txt")]) == 2
    assert "erreur : liste de mots introuvable" in capsys.readouterr().err
    assert main(["nouvelle", "--modele", "federation-absente"]) == 2  # before any game starts
    assert "--modele : modèle de bulletin inutilisable" in capsys.readouterr().err
    assert main(["reprendre"]) == 2
    assert "aucune partie" in capsys.readouterr().err


def test_players_csv(tmp_path):
    path = tmp_path / "joueurs.csv"
    path.write_text("table;nom;club\n1;Anne Moreau;Paris\n2;Bruno;\n", encoding="utf-8")
    assert read_players(path)[0] == {"table": 1, "name": "Anne Moreau", "club": "Paris",
                                     "licence": None, "arbiter": None, "serie": None,
                                     "categorie": None}
    path.write_text("1;A\n1;B\n", encoding="utf-8")
    with pytest.raises(Exception, match="en double"):
        read_players(path)
    path.write_text("table;nom\n1;\n2;Bruno\n", encoding="utf-8")
    warnings = []
    assert read_players(path, warnings)[0]["name"] == "Table 1"
    assert warnings == ["liste des joueurs, ligne 2 : nom vide, le joueur de la table 1 "
                        "s'appellera « Table 1 »"]
    with pytest.raises(Exception, match=r"absents\.csv \(fichier introuvable\)"):
        read_players(tmp_path / "absents.csv")  # not the system's English text
    with pytest.raises(Exception, match="c'est un dossier"):
        read_players(tmp_path)


def test_no_english_pygame_greeting_on_the_terminal(env):
    code, out, err = run("export", "--partie", env / "nulle.partie")
    assert code == 2 and "introuvable" in err
    code, out, err = run("demo", "--seed", "2", "--rapide", "--sans-ecran", "--sans-photos",
                         "--coups", "1", "--sortie", env / "demo", "--fichier", env / "d.partie")
    assert code == 0, err
    assert "Hello from the pygame community" not in out + err


def test_lire_folder_with_non_images_and_export(env, capsys):
    lexicon = Lexicon.load()
    path = env / "parties" / "p.partie"
    players = [{"table": t, "name": f"Joueur {t}"} for t in (1, 2, 3)]
    journal = Journal.create(path, {"lexicon_sha256": lexicon.sha256},
                             first=("partie", Config(seed=8, players=players).to_dict()))
    session = Session(journal, lexicon)
    session.record("tirage", {"mode": "aleatoire"})
    folder = env / "photos"
    folder.mkdir()
    assert main(["lire", str(folder), "--partie", str(path)]) == 2
    assert "aucun chrono encore lancé dans cette partie" in capsys.readouterr().err  # not « coup 0 »
    session.record("top", {})
    top = session.game.coups[0].top
    journal.close()
    assert main(["lire", str(folder), "--partie", str(path), "--coup", "4"]) == 2
    assert "pas de coup 4 à lire : le coup en cours de ramassage est le coup 1" in \
        capsys.readouterr().err
    (folder / "notes.txt").write_text("pas une photo")
    (folder / "vide.jpg").write_bytes(b"")
    (folder / "faux.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 40)
    (folder / ".cache").write_bytes(b"x")
    from vision.synth import BulletinContent, render_bulletin

    jpeg, _ = render_bulletin(BulletinContent(2, top.word, str(top.ref), top.score), seed=1)
    (folder / "table2.jpg").write_bytes(jpeg)
    assert main(["lire", str(folder), "--partie", str(path)]) == 0
    out = capsys.readouterr().out
    assert "notes.txt : ignoré (pas une photo)" in out
    assert "vide.jpg : illisible" in out and "faux.png : illisible" in out
    assert "3 photo(s) lue(s) pour le coup 1, 1 fichier(s) ignoré(s)" in out
    assert "None" not in out and "a_verifier" not in out  # what the arbiter reads is French
    assert "vide.jpg : illisible" in out and "mot non lu" in out
    # the same folder read again (a photo added): only the new photo is read
    jpeg, _ = render_bulletin(BulletinContent(3, top.word, str(top.ref), top.score), seed=2)
    (folder / "table3.jpg").write_bytes(jpeg)
    assert main(["lire", str(folder), "--partie", str(path)]) == 0
    out = capsys.readouterr().out
    assert "table2.jpg : déjà lue pour le coup 1" in out
    assert "1 photo(s) lue(s) pour le coup 1, 4 fichier(s) ignoré(s)" in out
    session = Session(Journal.open(path), lexicon)
    readings = list(session.pending.values())
    assert [Path(r.photo).name for r in readings] == ["faux.png", "table2.jpg", "vide.jpg",
                                                      "table3.jpg"]
    assert all(r.status == "illisible" for r in readings if r.photo.endswith(("vide.jpg",
                                                                                "faux.png")))
    assert all(0.0 <= f["confidence"] <= 1.0 for r in readings for f in r.fields.values())
    session.journal.close()
    out_dir = env / "export"
    assert main(["export", "--partie", str(path), "--sortie", str(out_dir)]) == 0
    lines = (out_dir / "resultats.csv").read_text(encoding="utf-8-sig").splitlines()
    assert lines[0].startswith("rang;table;nom;club;licence;total;") and len(lines) == 4
    assert "<table>" in (out_dir / "resultats.html").read_text(encoding="utf-8")
    for name in ("resultats-windows1252.csv", "resultats.pdf", "feuilles-correction.pdf",
                 "feuilles-correction.html", "resultats-sigles.txt"):
        assert (out_dir / name).stat().st_size > 0, name
    assert main(["export", "--partie", str(path), "--sortie", str(out_dir), "--epreuve",
                 "Simultané de printemps", "--juge-arbitre", "Marc Noël"]) == 0
    assert "Simultané de printemps" in (out_dir / "resultats.html").read_text(encoding="utf-8")
    assert "Juge-arbitre :</b> Marc Noël" in (out_dir / "resultats.html").read_text(encoding="utf-8")


@pytest.mark.long
def test_demo_killed_anywhere_resumes_to_the_same_results(env):
    """SIGKILL at random moments of a scripted demo; each resume ends with the same CSV."""
    common = ["--seed", 4, "--rapide", "--sans-ecran", "--sans-photos", "--coups", 3]
    start = time.monotonic()
    code, out, err = run("demo", *common, "--sortie", env / "ref", "--fichier", env / "ref.partie")
    duration = time.monotonic() - start
    assert code == 0, err
    reference = (env / "ref" / "resultats.csv").read_text(encoding="utf-8")
    assert len(reference.splitlines()) == 17
    rng = random.Random(2024)
    interrupted = 0
    for point in range(CRASH_POINTS):
        game = env / f"p{point}.partie"
        out_dir = env / f"d{point}"
        proc = kiosk("demo", *common, "--sortie", out_dir, "--fichier", game)
        while not game.exists() and proc.poll() is None:
            time.sleep(0.01)
        time.sleep(rng.uniform(0, duration * 0.8))
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        if proc.returncode == -signal.SIGKILL and not (out_dir / "resultats.csv").exists():
            interrupted += 1
        code, out, err = run("reprendre", game, "--sans-ecran")
        assert code == 0, err
        assert (out_dir / "resultats.csv").read_text(encoding="utf-8") == reference, point
        events = Journal.open(game).events()
        assert events[-1].kind == "fin"
    assert interrupted >= max(1, CRASH_POINTS // 3)  # most kills land before the end


def test_resume_refuses_another_word_list_and_pauses_a_running_chrono(env, capsys):
    lexicon = Lexicon.load()
    path = env / "parties" / "p.partie"
    journal = Journal.create(path, {"lexicon_sha256": lexicon.sha256},
                             first=("partie", Config(seed=3, seconds=120).to_dict()))
    session = Session(journal, lexicon)
    session.record("tirage", {"mode": "aleatoire"})
    session.record("etape", {"step": "annonce"})
    session.record("etape", {"step": "chrono"})
    session.record("appel", {"name": "chrono", "elapsed": 0.0})
    session.record("chrono", {"action": "pause", "elapsed": 40.0})
    session.record("chrono", {"action": "reprise", "elapsed": 40.0})
    journal.close()
    words = env / "mots.txt"
    words.write_text("MAISON\nRATES\nTARES\n", encoding="utf-8")
    before = path.read_bytes()
    assert main(["reprendre", str(path), "--lexique", str(words)]) == 2
    err = capsys.readouterr().err
    assert "autre liste de mots" in err and "reprise refusée" in err
    assert path.read_bytes() == before
    # the right list: same step, the countdown stopped where the journal left it
    from kiosk.machine import Machine
    from kiosk.views import room_view

    again = Session(Journal.open(path), lexicon)
    machine = Machine(again, lambda: 0.0)
    assert again.step == "chrono" and machine.countdown.paused
    paused = room_view(machine).countdown  # the time left, greyed, « PAUSE » beside it
    assert (paused.text, paused.label) == ("1:20", "PAUSE")
    assert "P pour repartir" in machine.message
    machine.key("p")
    assert room_view(machine).countdown.text == "1:20"


def test_an_unexpected_error_is_said_in_french_and_logged(env, capsys, monkeypatch):
    import kiosk.cli

    def broken(args):
        raise RuntimeError("panne simulée")

    monkeypatch.setattr(kiosk.cli, "cmd_export", broken)
    assert main(["export"]) == 3
    err = capsys.readouterr().err
    assert err.startswith("erreur inattendue du kiosque (RuntimeError)") and "Traceback" not in err
    log = (env / "parties" / "erreurs.log").read_text(encoding="utf-8")
    assert "Traceback" in log and "panne simulée" in log


def test_resume_when_the_word_list_moved_says_what_to_do(env, capsys):
    words = env / "liste.txt"
    words.write_text("MAISON\nRATES\nTARES\n", encoding="utf-8")
    lexicon = Lexicon.load(words)
    path = env / "parties" / "p.partie"
    Journal.create(path, {"lexicon_sha256": lexicon.sha256, "lexicon_path": str(words)},
                   first=("partie", Config(seed=1).to_dict())).close()
    words.rename(env / "ailleurs.txt")
    assert main(["export", "--partie", str(path)]) == 2
    err = capsys.readouterr().err
    assert "liste de mots introuvable" in err and "donnez son chemin avec --lexique" in err
