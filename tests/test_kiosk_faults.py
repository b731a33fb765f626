"""Faults of a room on a PostgreSQL server (its own real server here, killed and restarted):
the room goes on from its local queue and catches up, nothing lost, nothing doubled, the
juge-arbitre told; and a loop that kills the server and the room kiosk at random points.

The loop runs ``KIOSK_FAULT_POINTS`` rounds: 2 in ``make test``, 12 in ``make test-long``.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from pgserver import PgServer

from kiosk import tournament as tour
from kiosk.pgjournal import PgJournal
from kiosk.session import Config, Session

ROOT = Path(__file__).resolve().parent.parent
FAULT_POINTS = int(os.environ.get("KIOSK_FAULT_POINTS", "2"))



@pytest.fixture
def server(tmp_path, monkeypatch):
    """A server of this test's own: it is killed."""
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path / "parties"))
    pg = PgServer()
    pg.start()
    pg.test_url = pg.create_database("fautes")
    yield pg
    pg.cleanup()


def kinds(journal) -> list[str]:
    return [e.kind for e in journal.events()]


def test_a_room_that_loses_the_server_goes_on_and_catches_up(server, lexicon):
    url = server.test_url
    game = f"g-{uuid.uuid4().hex[:6]}"
    journal = PgJournal.create(url, game, {"lexicon_sha256": lexicon.sha256}, first=(
        "partie", Config(seed=5, players=[{"table": t, "name": f"J{t}"} for t in range(1, 9)]
                         ).to_dict()))
    journal.lock_room()
    session = Session(journal, lexicon)
    session.record("tirage", {"mode": "aleatoire"})
    session.record("etape", {"step": "annonce"})
    server.kill()  # mid-coup: the database is gone
    session.record("etape", {"step": "chrono"})  # the room does not stop
    session.record("appel", {"name": "trente", "elapsed": 150.0})
    session.record("etape", {"step": "ramassage"})
    session.record("top", {})
    top = session.game.coups[0].top
    for table in (1, 2, 3):
        b = {"table": table, "word": top.word, "ref": str(top.ref), "score": top.score}
        session.record("bulletin", {"coup": 1, "bulletin": b}, key=f"poste-a-{table}")
    session.record("bulletin", {"coup": 1, "bulletin": {**b, "table": 3}}, key="poste-a-3")
    assert not journal.online and journal.waiting == 8
    told = journal.notice()
    assert told and "base de données injoignable" in told and "gardée sur ce poste" in told
    assert session.step == "top" and len(session.results.entries) == 3
    server.start()  # the server is back: the queue goes in order, with its keys
    assert journal.flush(30)
    back = journal.notice()
    assert back and "base de données revenue" in back and "rien de perdu" in back
    session.sync()
    assert session.step == "top" and len(session.results.entries) == 3
    fresh = PgJournal.open(url, game, "verif")
    assert kinds(fresh) == ["partie", "tirage", "etape", "etape", "appel", "etape", "top",
                            "bulletin", "bulletin", "bulletin"]
    assert Session(fresh, lexicon).results.to_dict() == session.results.to_dict()
    fresh.close()
    # the room is still this kiosk's: a second one is refused
    other = PgJournal.open(url, game, "kiosque-2")
    with pytest.raises(Exception, match="déjà ouverte dans une autre salle"):
        other.lock_room()
    other.close()
    journal.close()


def test_a_kiosk_killed_while_the_server_is_away_sends_its_queue_when_reopened(server, lexicon,
                                                                              tmp_path):
    url = server.test_url
    game = f"g-{uuid.uuid4().hex[:6]}"
    PgJournal.create(url, game, {"lexicon_sha256": lexicon.sha256}, first=(
        "partie", Config(seed=9, players=[{"table": 1, "name": "Anne"}]).to_dict())).close()
    script = ("import os, sys; from engine.lexicon import Lexicon; from kiosk.pgjournal import "
              "PgJournal; from kiosk.session import Session; "
              f"j = PgJournal.open({url!r}, {game!r}); s = Session(j, Lexicon.load()); "
              "s.record('tirage', {'mode': 'aleatoire'}); print('tire', flush=True); "
              "sys.stdin.readline(); s.record('etape', {'step': 'annonce'}); "
              "s.record('etape', {'step': 'chrono'}); print('garde', j.waiting, flush=True); "
              "sys.stdin.readline()")
    room = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, KIOSK_PARTIES=str(tmp_path / "parties")))
    try:
        assert room.stdout.readline().strip() == "tire"
        server.kill()
        room.stdin.write("\n")
        room.stdin.flush()
        assert room.stdout.readline().strip() == "garde 2"
        room.send_signal(signal.SIGKILL)  # the kiosk dies too, its two events on its disk
        room.wait()
    finally:
        room.kill()
        room.wait()
    server.start()
    reopened = PgJournal.open(url, game)  # the queue left behind goes first
    assert kinds(reopened) == ["partie", "tirage", "etape", "etape"]
    assert reopened.waiting == 0
    reopened.close()
    again = PgJournal.open(url, game)  # and only once
    assert kinds(again) == ["partie", "tirage", "etape", "etape"]
    assert Session(again, lexicon).step == "chrono"
    again.close()


def _run(args, env, timeout=300):
    return subprocess.run([sys.executable, "-m", "kiosk", *map(str, args)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


@pytest.mark.long
def test_server_and_room_killed_at_random_points_lose_nothing(server, tmp_path):
    """A room kiosk (the demo, on a tournament) while the server and the kiosk are killed at
    random moments: after each round the game ends with the results of an undisturbed run."""
    url = server.test_url
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               KIOSK_PARTIES=str(tmp_path / "parties"))
    demo = ["--seed", 4, "--rapide", "--sans-ecran", "--sans-photos", "--coups", 3]
    def new_tournament(name):  # the same drawn game each time (same seed)
        made = _run(["tournoi", "--creer", name, "--base", url, "--graine", 21, "--coups", 3], env)
        assert made.returncode == 0, made.stderr

    new_tournament("ref")
    start = time.monotonic()
    ref = _run(["demo", *demo, "--base", url, "--tournoi", "ref", "--salle", "ref",
                "--sortie", tmp_path / "ref"], env)
    duration = time.monotonic() - start
    assert ref.returncode == 0, ref.stderr
    reference = (tmp_path / "ref" / "resultats.csv").read_text(encoding="utf-8")
    rng = random.Random(17)
    for point in range(FAULT_POINTS):
        room, out, tournament = "salle", tmp_path / f"d{point}", f"F{point}"
        new_tournament(tournament)
        proc = subprocess.Popen([sys.executable, "-m", "kiosk", "demo", *map(str, demo), "--base",
                                 url, "--tournoi", tournament, "--salle", room, "--sortie",
                                 out], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        while proc.poll() is None and not any(r.room == room for r in tour.rooms(url, tournament)):
            time.sleep(0.05)  # the room's game exists: from here on, any point of the game
        time.sleep(rng.uniform(0, duration * 0.5))
        server.kill()  # the database goes away mid-game…
        time.sleep(rng.uniform(0.2, 2.0))
        if rng.random() < 0.6:  # …and the room kiosk, before or after it comes back
            proc.send_signal(signal.SIGKILL)
        server.start()
        if proc.poll() is None and rng.random() < 0.5:
            time.sleep(rng.uniform(0, 1.5))
            proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=300)
        assert "Traceback" not in err, err
        if not (out / "resultats.csv").exists():
            resumed = _run(["reprendre", "--base", url, "--tournoi", tournament, "--salle", room,
                            "--sans-ecran"], env)
            assert resumed.returncode == 0, (resumed.stderr, err)
        assert (out / "resultats.csv").read_text(encoding="utf-8") == reference, point
        # opened as the room's kiosk does: what it still kept on its disk (killed after its
        # last results, before the server answered) is sent first, once
        journal = PgJournal.open(url, f"{tournament}/{room}", "kiosque")
        events = journal.events()
        assert [e.seq for e in events] == list(range(1, len(events) + 1))
        assert events[-1].kind == "fin"
        assert sum(e.kind == "top" for e in events) == 3  # never a top twice
        journal.close()
