"""Nothing a user gives or does loses data: each case reproduced as it was found, then held.

- ``kiosk demo --sortie DIR`` emptied the user's own folder;
- two rooms on one game committed a top twice, and the game could never be opened again;
- a copy of the ``.partie`` alone, taken during play, silently lacked the last events;
- a full disk was reported as « cannot rollback », a read-only game opened a room whose
  every key then failed, no home folder stopped the kiosk (and its error handler);
- a photo with a Latin-1 name was counted as read but never recorded, and an
  « illisible » photo was skipped for ever.
"""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.cli import main
from kiosk.journal import Journal, JournalError
from kiosk.session import Config, Session

ROOT = Path(__file__).resolve().parent.parent



@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path / "parties"))
    return tmp_path


def kiosk(*args, env_extra=None, prefix=(), **kwargs) -> subprocess.CompletedProcess:
    environ = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYGAME_HIDE_SUPPORT_PROMPT="1", **(env_extra or {}))
    return subprocess.run([*prefix, sys.executable, "-m", "kiosk", *map(str, args)], cwd=ROOT,
                          env=environ, capture_output=True, text=True, timeout=300, **kwargs)


DEMO = ("demo", "--seed", 3, "--rapide", "--sans-ecran", "--sans-photos", "--coups", 1)


def new_game(path: Path, lexicon, players=4) -> Session:
    journal = Journal.create(path, {"lexicon_sha256": lexicon.sha256},
                             first=("partie", Config(seed=5, players=[
                                 {"table": t, "name": f"J{t}"} for t in range(1, players + 1)]
                             ).to_dict()))
    return Session(journal, lexicon)


# -- the demo's output folder --------------------------------------------------------------
def test_demo_never_deletes_the_users_files(env):
    folder = env / "mes-fichiers"
    folder.mkdir()
    (folder / "vacances.png").write_bytes(b"\x89PNG photo de vacances")
    (folder / "resultats-2023-championnat.xlsx").write_bytes(b"PK tableur")
    (folder / "son").mkdir()
    (folder / "son" / "chanson.wav").write_bytes(b"RIFF")
    done = kiosk(*DEMO, "--sortie", folder, "--fichier", env / "a.partie")
    assert done.returncode == 2 and "ne viennent pas du kiosque" in done.stderr, done.stderr
    assert sorted(p.name for p in folder.rglob("*")) == [
        "chanson.wav", "resultats-2023-championnat.xlsx", "son", "vacances.png"]
    assert not (env / "a.partie").exists()  # refused before anything was made


def test_a_demo_folder_is_reused_and_only_the_demos_files_go(env):
    folder = env / "demo"
    first = kiosk(*DEMO, "--sortie", folder, "--fichier", env / "a.partie")
    assert first.returncode == 0, first.stderr
    made = {p.name for p in folder.iterdir()}
    assert "resultats.csv" in made and any(n.endswith(".png") for n in made)
    (folder / "vacances.png").write_bytes(b"copied here later by the user")
    (folder / "coup99-vieux.png").write_bytes(b"an earlier demo's screen")
    again = kiosk(*DEMO, "--sortie", folder, "--fichier", env / "b.partie")
    assert again.returncode == 0, again.stderr
    assert (folder / "vacances.png").read_bytes() == b"copied here later by the user"
    assert not (folder / "coup99-vieux.png").exists()  # the kiosk's name: its own file
    assert (folder / "resultats.csv").exists()


def test_the_journals_demo_folder_is_not_trusted(env, lexicon, capsys):
    """A journal saying « demo.out_dir: /anywhere » once made reprendre write there."""
    target = env / "ailleurs" / "profond"
    path = env / "p.partie"
    Journal.create(path, {"lexicon_sha256": lexicon.sha256}, first=("partie", Config(
        seed=1, demo={"out_dir": str(target), "photos": False, "accelere": True,
                      "token": "abc"}).to_dict())).close()
    assert main(["reprendre", str(path), "--sans-ecran"]) == 2
    assert "reprise refusée" in capsys.readouterr().err
    assert not target.exists() and not target.parent.exists()


# -- one room per game ------------------------------------------------------------------------
def test_a_second_room_is_refused_and_a_crashed_rooms_lock_is_taken_again(env):
    game = env / "g.partie"
    made = kiosk(*DEMO, "--sortie", env / "demo", "--fichier", game)
    assert made.returncode == 0, made.stderr
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from kiosk.journal import Journal; "
         f"j = Journal.open({str(game)!r}); j.lock_room(); print('pris', flush=True); "
         "time.sleep(120)"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "pris"
        second = kiosk("reprendre", game, "--sans-ecran")
        assert second.returncode == 2, second.stderr
        assert "déjà ouverte dans une autre salle" in second.stderr
        assert f"processus {holder.pid}" in second.stderr
        events_before = Journal.open(game).last_seq()
        holder.send_signal(signal.SIGKILL)  # the first room crashes, its lock file stays
        holder.wait()
        assert (game.parent / "g.partie.salle").exists()
        third = kiosk("reprendre", game, "--sans-ecran")
        assert third.returncode == 0, third.stderr
        assert Journal.open(game).last_seq() >= events_before
    finally:
        holder.kill()
        holder.wait()


def test_two_rooms_pressing_keys_never_brick_the_game(env, lexicon, capsys):
    """The duplicate top two rooms committed: set aside and said, the game goes on."""
    path = env / "parties" / "p.partie"
    room_a = new_game(path, lexicon)
    room_a.record("tirage", {"mode": "aleatoire"})
    room_b = Session(Journal.open(path), lexicon)  # the second room, same moment
    room_a.record("top", {})
    top = dict(next(e for e in room_a.journal.events() if e.kind == "top").data)
    room_b.journal.append("top", top)  # what room B committed between its sync and write
    room_a.journal.close()
    room_b.journal.close()
    assert main(["export", "--partie", str(path), "--sortie", str(env / "r")]) == 0
    err = capsys.readouterr().err
    assert "attention : événement 4 (top" in err and "mis de côté" in err
    assert "aucun tirage en cours" in err
    again = Session(Journal.open(path), lexicon)
    assert again.step == "top" and len(again.game.played()) == 1
    again.record("etape", {"step": "correction"})
    again.record("tirage", {"mode": "aleatoire"})  # the arbiter goes on
    assert again.game.coups[-1].number == 2
    assert len(again.set_aside) == 1
    again.journal.close()
    photos = env / "photos"
    photos.mkdir()
    assert main(["lire", str(photos), "--partie", str(path), "--coup", "1"]) == 0


def test_replay_sets_aside_a_bulletin_for_a_coup_that_is_not_there(env, lexicon):
    path = env / "q.partie"
    session = new_game(path, lexicon)
    session.record("tirage", {"mode": "aleatoire"})
    session.journal.append("bulletin", {"coup": 7, "bulletin": {"table": 1}})
    session.journal.append("annule", {"kind": "tirage"})  # no « seq »: unusable too
    rebuilt = Session(Journal.open(path), lexicon)
    assert [line.split(" (")[0] for line in rebuilt.set_aside] == ["événement 3",
                                                                   "événement 4"]
    assert rebuilt.step == "tirage" and rebuilt.game.coups[0].new_letters


# -- the game is one file ---------------------------------------------------------------------
def test_a_copy_of_the_partie_alone_holds_every_coup(env, lexicon):
    """Copying the .partie without its -wal during play gave 28 of 62 events, silently."""
    path = env / "p.partie"
    session = new_game(path, lexicon)
    for _ in range(3):
        session.record("tirage", {"mode": "aleatoire"})
        session.record("etape", {"step": "chrono"})
        session.record("top", {})
    assert (env / "p.partie-wal").exists()  # the game is running
    shutil.copyfile(path, env / "copie.partie")  # the .partie alone
    copy = Journal.open(env / "copie.partie")
    assert copy.last_seq() == session.journal.last_seq()  # every coup up to its top
    assert [e.kind for e in copy.events()][-1] == "top"
    copy.close()
    session.journal.close()


def test_sauvegarder_copies_a_running_game_into_one_file(env, lexicon, capsys):
    path = env / "parties" / "p.partie"
    session = new_game(path, lexicon)
    session.record("tirage", {"mode": "aleatoire"})
    session.record("etape", {"step": "annonce"})  # not checkpointed yet: in the WAL only
    usb = env / "cle-usb"
    usb.mkdir()
    (usb / "notes.txt").write_text("à moi")
    assert main(["sauvegarder", str(usb), "--partie", str(path)]) == 0
    assert "copie de sauvegarde" in capsys.readouterr().out
    copy = usb / "p.partie"
    assert not (usb / "p.partie-wal").exists()
    raw = sqlite3.connect(f"file:{copy}?mode=ro", uri=True)
    assert raw.execute("SELECT COUNT(*) FROM events").fetchone()[0] == session.journal.last_seq()
    raw.close()
    session.record("etape", {"step": "chrono"})
    assert main(["sauvegarder", str(copy), "--partie", str(path)]) == 0  # the copy replaced
    assert Journal.open(copy).last_seq() == session.journal.last_seq()
    assert main(["sauvegarder", str(usb / "notes.txt"), "--partie", str(path)]) == 2
    assert "n'est pas une partie du kiosque" in capsys.readouterr().err
    assert (usb / "notes.txt").read_text() == "à moi"
    session.journal.close()


# -- disks, permissions, homes ------------------------------------------------------------------
def test_a_full_disk_says_so_and_loses_nothing(env, lexicon):
    """The ROLLBACK after SQLITE_FULL failed and hid « disk is full » (then « endommagé »)."""
    path = env / "p.partie"
    session = new_game(path, lexicon)
    session.record("tirage", {"mode": "aleatoire"})
    before = session.journal.last_seq()
    conn = session.journal._conn
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count={pages + 1}")  # the disk is full now
    with pytest.raises(JournalError) as info:
        for _ in range(20):
            session.journal.append("etape", {"step": "annonce", "note": "x" * 5000})
    assert "disque plein" in str(info.value) and "rollback" not in str(info.value)
    written = session.journal.last_seq()
    session.journal.close()
    again = Journal.open(path)  # not « endommagé »
    assert again.last_seq() == written >= before
    again.close()


def no_dac(*command: str) -> list[str]:
    """Run as root without the right to ignore file permissions (as a normal user would)."""
    return ["setpriv", "--inh-caps=-dac_override,-dac_read_search",
            "--bounding-set=-dac_override,-dac_read_search", *command]


def test_a_read_only_game_is_refused_before_the_room_opens(env, lexicon):
    path = env / "ro" / "p.partie"
    new_game(path, lexicon).journal.close()
    before = path.read_bytes()
    path.chmod(0o444)
    done = kiosk("reprendre", path, prefix=no_dac())
    assert done.returncode == 2 and "en lecture seule" in done.stderr, done.stderr
    path.chmod(0o644)
    path.parent.chmod(0o555)  # the folder: no room for PARTIE-wal
    try:
        done = kiosk("export", "--partie", path, "--sortie", env / "r", prefix=no_dac())
        assert done.returncode == 2 and "dossier de la partie n'est pas modifiable" in \
            done.stderr, done.stderr
    finally:
        path.parent.chmod(0o755)
    assert path.read_bytes() == before and "Traceback" not in done.stderr


def test_a_blocked_cache_does_not_stop_the_demo(env):
    home = env / "maison"
    home.mkdir()
    (home / ".cache").write_text("un fichier là où le cache devrait être")
    readonly = env / "cache-ro"
    readonly.mkdir()
    readonly.chmod(0o555)
    try:
        for extra in ({"HOME": str(home)}, {"HOME": str(home), "XDG_CACHE_HOME": str(readonly)}):
            done = kiosk(*DEMO, "--sortie", env / f"d{len(extra)}", "--fichier",
                         env / f"d{len(extra)}.partie", env_extra=extra, prefix=no_dac())
            assert done.returncode == 0, done.stderr
            assert (env / f"d{len(extra)}" / "resultats.csv").exists()
    finally:
        readonly.chmod(0o755)


def test_no_home_folder_is_a_french_message(env, monkeypatch, capsys):
    import pwd

    def no_entry(uid):
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    for name in ("HOME", "KIOSK_PARTIES", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    assert main(["reprendre"]) == 2
    assert "pas de dossier personnel" in capsys.readouterr().err
    from engine.files import cache_dir

    assert str(cache_dir("voix")).startswith(os.path.realpath("/tmp")) or "duplicate-kiosk-" in \
        str(cache_dir("voix"))


# -- photos -----------------------------------------------------------------------------------
def test_latin1_photo_names_are_recorded_and_found_again(env, lexicon):
    from kiosk.reading import photo_path
    from vision.synth import BulletinContent, render_bulletin

    path = env / "parties" / "p.partie"
    session = new_game(path, lexicon)
    session.record("tirage", {"mode": "aleatoire"})
    session.record("top", {})
    top = session.game.coups[0].top
    session.journal.close()
    folder = env / "cle-fat"
    folder.mkdir()
    jpeg, _ = render_bulletin(BulletinContent(2, top.word, str(top.ref), top.score), seed=1)
    raw_name = os.fsencode(folder) + b"/table2-\xe9t\xe9.jpg"  # Latin-1 « été »
    with open(raw_name, "wb") as handle:
        handle.write(jpeg)
    done = kiosk("lire", folder, "--partie", path)
    assert done.returncode == 0, done.stderr
    assert "1 photo(s) lue(s)" in done.stdout and "Traceback" not in done.stderr
    again = Session(Journal.open(path), lexicon)
    (reading,) = again.pending.values()
    event = next(e for e in again.journal.events() if e.kind == "lecture")
    assert os.fsencode(photo_path(event.data)) == raw_name
    assert "été" in reading.photo  # readable for the arbiter
    again.journal.close()
    done = kiosk("lire", folder, "--partie", path)
    assert "déjà lue" in done.stdout  # found again by its exact bytes


def test_an_unreadable_photo_is_read_again_once_it_changed(env, lexicon, capsys):
    from vision.synth import BulletinContent, render_bulletin

    path = env / "parties" / "p.partie"
    session = new_game(path, lexicon)
    session.record("tirage", {"mode": "aleatoire"})
    session.record("top", {})
    top = session.game.coups[0].top
    session.journal.close()
    folder = env / "photos"
    folder.mkdir()
    photo = folder / "table3.jpg"
    photo.write_bytes(b"\xff\xd8\xff\xe0 copie interrompue")  # half copied from the phone
    assert main(["lire", str(folder), "--partie", str(path)]) == 0
    assert "table3.jpg : illisible" in capsys.readouterr().out
    assert main(["lire", str(folder), "--partie", str(path)]) == 0
    assert "inchangée depuis" in capsys.readouterr().out
    jpeg, _ = render_bulletin(BulletinContent(3, top.word, str(top.ref), top.score), seed=4)
    photo.write_bytes(jpeg)
    os.utime(photo, (time.time() + 5, time.time() + 5))
    assert main(["lire", str(folder), "--partie", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 photo(s) lue(s)" in out and "table3.jpg : illisible" not in out
