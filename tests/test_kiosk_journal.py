"""The journal: real SQLite (WAL and synchronous FULL, refusals that touch nothing) and a real
PostgreSQL server; on both (``store``), the same events replayed, two stations writing at once,
the same key written once, and a resume refused with another word list."""

import multiprocessing
import sqlite3

import pytest

from engine.lexicon import Lexicon
from kiosk.journal import Journal, JournalError
from kiosk.session import Config, Session, SessionError


def new_game(path, lexicon, players=16):
    journal = Journal.create(path, {"lexicon_sha256": lexicon.sha256})
    session = Session(journal, lexicon)
    session.record("partie", Config(seed=5, players=[{"table": t, "name": f"J{t}"}
                                                     for t in range(1, players + 1)]).to_dict())
    return session


def new_stored_game(store, lexicon, players=16, name="a.partie"):
    journal = store.create(name, {"lexicon_sha256": lexicon.sha256})
    session = Session(journal, lexicon)
    session.record("partie", Config(seed=5, players=[{"table": t, "name": f"J{t}"}
                                                     for t in range(1, players + 1)]).to_dict())
    return session


def play_first_top(session):
    session.record("tirage", {"mode": "aleatoire"})
    session.record("top", {})
    return session.game.coups[0].top


def test_file_is_wal_synchronous_full_and_replays(tmp_path, lexicon):
    session = new_game(tmp_path / "a.partie", lexicon)
    conn = session.journal._conn
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    top = play_first_top(session)
    session.journal.close()
    # a second process's view: a fresh connection sees every committed event
    raw = sqlite3.connect(tmp_path / "a.partie")
    assert [k for (k,) in raw.execute("SELECT kind FROM events ORDER BY seq")] == \
        ["partie", "tirage", "top"]
    assert raw.execute("SELECT value FROM meta WHERE key='lexicon_sha256'").fetchone()[0] == \
        lexicon.sha256
    again = Session(Journal.open(tmp_path / "a.partie"), lexicon)
    assert again.game.coups[0].top == top and again.step == "top"


def test_events_committed_and_replayed_on_both_stores(store, lexicon):
    session = new_stored_game(store, lexicon)
    top = play_first_top(session)
    session.record("etape", {"step": "correction"})
    session.journal.close()
    again = Session(store.open("a.partie", station="poste-2"), lexicon)
    assert [e.kind for e in again.journal.events()] == ["partie", "tirage", "top", "etape"]
    assert [e.seq for e in again.journal.events()] == [1, 2, 3, 4]
    assert again.journal.meta["lexicon_sha256"] == lexicon.sha256
    assert again.game.coups[0].top == top and again.step == "correction"
    assert again.journal.events(after=2)[0].kind == "top"
    again.journal.close()


def test_a_key_writes_one_event_however_often_it_is_sent(store, lexicon):
    session = new_stored_game(store, lexicon)
    top = play_first_top(session)
    b = {"table": 4, "word": top.word, "ref": str(top.ref), "score": top.score}
    first = session.journal.append("bulletin", {"coup": 1, "bulletin": b}, key="poste1-act42")
    again = session.journal.append("bulletin", {"coup": 1, "bulletin": b}, key="poste1-act42")
    assert again.duplicate and again.seq == first.seq and not first.duplicate
    assert [e.kind for e in session.journal.events()].count("bulletin") == 1
    # through the session: recorded once, the retry rebuilds instead of applying twice
    session.record("bulletin", {"coup": 1, "bulletin": {**b, "table": 5}}, key="act-43")
    session.record("bulletin", {"coup": 1, "bulletin": {**b, "table": 5}}, key="act-43")
    assert [e.kind for e in session.journal.events()].count("bulletin") == 2
    assert not session.refused and len(session.results.entries) == 2
    session.journal.close()


def test_existing_file_never_overwritten(tmp_path, lexicon):
    path = tmp_path / "a.partie"
    path.write_bytes(b"mes notes")
    with pytest.raises(JournalError, match="existe déjà"):
        Journal.create(path, {})
    assert path.read_bytes() == b"mes notes"


@pytest.mark.parametrize("damage", ["texte", "tronque", "pages"])
def test_corrupt_file_refused_untouched(tmp_path, lexicon, damage):
    path = tmp_path / "a.partie"
    session = new_game(path, lexicon)
    play_first_top(session)
    session.journal._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    session.journal.close()
    data = path.read_bytes()
    if damage == "texte":
        data = b"ceci n'est pas une partie" * 100
    elif damage == "tronque":
        data = data[: len(data) // 3]
    else:
        data = data[:4096] + bytes(b ^ 0x5A for b in data[4096:])
    path.write_bytes(data)
    with pytest.raises(JournalError) as info:
        Session(Journal.open(path), lexicon)
    assert "endommagé" in str(info.value) or "pas un fichier de partie" in str(info.value)
    assert path.read_bytes() == data


def test_other_sqlite_file_refused(tmp_path):
    path = tmp_path / "autre.partie"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    with pytest.raises(JournalError, match="endommagé|pas un fichier"):
        Journal.open(path)


def test_resume_with_another_lexicon_refused(store, lexicon):
    session = new_stored_game(store, lexicon)
    session.journal.close()
    other = Lexicon.from_words(["MAISON", "RATES", "TARES"])
    with pytest.raises(SessionError, match="autre liste de mots"):
        Session(store.open("a.partie"), other)


def _station(store, tables: list[int], sha: str, barrier) -> None:
    """One arbiter station: confirms bulletins for its tables, one transaction each, at an
    arbiter's pace (a short pause between two, so the other station gets the lock too)."""
    import time

    lexicon = Lexicon.load()
    assert lexicon.sha256 == sha
    session = Session(store.open("a.partie", station=f"poste-{tables[0]}"), lexicon)
    top = session.game.coups[0].top
    barrier.wait()
    for table in tables:
        bulletin = {"table": table, "word": top.word, "ref": str(top.ref),
                    "score": top.score + (table % 3 == 0)}
        session.record("bulletin", {"coup": 1, "bulletin": bulletin})
        time.sleep(0.03)
    session.journal.close()


def test_two_stations_write_at_once(store, lexicon):
    session = new_stored_game(store, lexicon, players=40)
    play_first_top(session)
    ctx = multiprocessing.get_context("spawn")
    barrier = ctx.Barrier(2)
    odd, even = list(range(1, 41, 2)), list(range(2, 41, 2))
    procs = [ctx.Process(target=_station, args=(store, tables, lexicon.sha256, barrier))
             for tables in (odd, even)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
    assert [p.exitcode for p in procs] == [0, 0]
    events = session.journal.events()
    bulletins = [e for e in events if e.kind == "bulletin"]
    assert len(bulletins) == 40
    assert {e.station for e in bulletins} == {"poste-1", "poste-2"}
    stations = [e.station for e in bulletins]
    switches = sum(a != b for a, b in zip(stations, stations[1:], strict=False))
    assert switches >= 3, f"the two stations' writes should interleave: {stations}"
    assert session.sync()  # the kiosk picks up what the stations wrote
    results = session.results
    assert sorted(t for (t, c) in results.entries) == list(range(1, 41))
    warned = {t for t in range(1, 41) if results.decision(t, 1).outcome.value == "avertissement"}
    assert warned == {t for t in range(1, 41) if t % 3 == 0}
    assert [e.seq for e in events] == list(range(1, len(events) + 1))  # one order, no gap
    if store.kind == "sqlite":
        assert session.journal._conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_same_bulletin_from_two_stations_first_counts(store, lexicon):
    session = new_stored_game(store, lexicon)
    top = play_first_top(session)
    other = Session(store.open("a.partie", station="poste-2"), lexicon)
    b = {"table": 4, "word": top.word, "ref": str(top.ref), "score": top.score}
    other.record("bulletin", {"coup": 1, "bulletin": b})
    session.record("bulletin", {"coup": 1, "bulletin": {**b, "score": top.score + 1}})
    assert session.results.decision(4, 1).outcome.value == "ok"
    assert any("déjà enregistré" in r for r in session.refused)
    rebuilt = Session(store.open("a.partie", station="poste-3"), lexicon)
    assert rebuilt.results.to_dict() == session.results.to_dict()


@pytest.mark.parametrize("damage", ["{mauvais", "[1, 2]", '{"step": "zzz"}', "pages"])
def test_damaged_game_said_in_french_without_traceback(tmp_path, lexicon, capsys, damage):
    from kiosk.cli import main

    path = tmp_path / "a.partie"
    session = new_game(path, lexicon)
    play_first_top(session)
    session.record("etape", {"step": "correction"})
    session.journal._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    session.journal.close()
    if damage == "pages":
        data = path.read_bytes()
        path.write_bytes(data[:4096] + bytes(b ^ 0x5A for b in data[4096:]))
    else:
        raw = sqlite3.connect(path)
        raw.execute("UPDATE events SET data = ? WHERE kind = 'etape'", (damage,))
        raw.commit()
        raw.close()
    before = path.read_bytes()
    if damage == "pages":  # the file itself: refused, untouched
        assert main(["export", "--partie", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.startswith("erreur : ") and err.count("\n") == 1, err
        assert "endommagé" in err
    else:  # one event: set aside and said, the rest of the game is still there
        assert main(["export", "--partie", str(path), "--sortie", str(tmp_path / "r")]) == 0
        err = capsys.readouterr().err
        assert err.startswith("attention : événement ") and "mis de côté" in err, err
        assert (tmp_path / "r" / "resultats.csv").exists()
    assert "malformed" not in err and "database" not in err and "page" not in err.lower()
    assert path.read_bytes() == before


def test_game_file_that_cannot_be_created_is_said_in_french(tmp_path, monkeypatch):
    blocked = tmp_path / "fichier"
    blocked.write_text("pas un dossier")
    with pytest.raises(JournalError, match="impossible de créer le fichier de partie"):
        Journal.create(blocked / "a.partie", {})

    def no_links(src, dst):
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr("kiosk.journal.os.link", no_links)  # a FAT USB key has no hard links
    journal = Journal.create(tmp_path / "b.partie", {}, first=("partie", {"seed": 1}))
    assert [e.kind for e in journal.events()] == ["partie"]
    journal.close()
    assert not (tmp_path / "b.partie.creation").exists()


def test_a_sync_with_a_time_budget_catches_up_over_several_calls(tmp_path, lexicon):
    """The room applies a burst of the stations' corrections a few milliseconds a frame:
    each call applies at least one event, and the state reached is the full sync's."""
    room = new_game(tmp_path / "a.partie", lexicon, players=6)
    stations = Session(Journal.open(tmp_path / "a.partie", station="postes"), lexicon)
    top = play_first_top(stations)
    for table in range(1, 7):
        stations.record("bulletin", {"coup": 1, "bulletin": {
            "table": table, "word": top.word, "ref": str(top.ref), "score": top.score - table % 2}})
    calls = 0
    while True:
        room.sync(budget=0.0)
        calls += 1
        if not room.behind:
            break
    assert calls == len(stations.journal.events()) - 1  # one event a call with no time at all
    full = Session(Journal.open(tmp_path / "a.partie", station="t"), lexicon)
    assert room.applied == full.applied and room.results.entries == full.results.entries
    assert not room.sync(budget=0.0) and not room.behind
