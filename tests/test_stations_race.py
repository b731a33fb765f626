"""The stations' "changed since you looked" check and its write are one transaction, on both
stores (SQLite file, PostgreSQL): the console writing between a station's check and its write
makes the station's write fail and be checked again — never an overwrite. And a bulletin filed
under the wrong coup at a coup change asks « coup suivant ? » on the phone.

The stations' side (:class:`kiosk.stations.hub.Hub`) runs in this process on its own session
and connection, as in the server's journal thread; the console is another session on the same
game. The console's write is made to land inside the window, deterministically."""

import pytest

from kiosk.journal import JournalStale
from kiosk.session import Config, Session
from kiosk.stations.hub import Hub, Refused

TOKEN = "jeton-de-test-" + "a" * 30



def game(store, lexicon, tmp_path, coups=1):
    """A console session at the correction of coup ``coups``, and the stations' hub."""
    players = [{"table": t, "name": f"Joueur {t}"} for t in (1, 2, 3)]
    journal = store.create("course.partie", {"lexicon_sha256": lexicon.sha256},
                           first=("partie", Config(seed=7, players=players).to_dict()))
    console = Session(journal, lexicon)
    for number in range(1, coups + 1):
        if number > 1:
            for table in (1, 2, 3):
                console.record("absent", {"table": table, "coup": number - 1})
        console.record("tirage", {"mode": "aleatoire"})
        console.record("top", {})
    hub = Hub(Session(store.open("course.partie", station="postes"), lexicon),
              tmp_path / "photos")
    hub.open("127.0.0.1", 8765, "127.0.0.1")
    hub.join("Anne", TOKEN, secret=hub.session.network["cle"])
    return console, hub, hub.station_for(TOKEN)


def typed_reading(console, coup, table, move, **more):
    fields = {"table": {"value": table, "confidence": 0.99},
              "word": {"value": move.word, "confidence": 0.99},
              "ref": {"value": str(move.ref), "confidence": 0.99},
              "score": {"value": move.score, "confidence": 0.99}}
    console.record("lecture", {"coup": coup, "photo": None, "status": "ok", "message": "lu",
                               "fields": fields, **more})
    return console.applied


def kinds(session, kind):
    return [e for e in session.journal.events() if e.kind == kind]


def test_a_conditional_append_refuses_when_anything_was_written_since(store, lexicon):
    journal = store.create("cond.partie", {"lexicon_sha256": lexicon.sha256},
                           first=("partie", {}))
    other = store.open("cond.partie", station="autre")
    seen = journal.last_seq()
    other.append("note", {"qui": "autre"})
    with pytest.raises(JournalStale):
        journal.append("note", {"qui": "moi"}, after=seen)
    assert [e.data for e in journal.events()][1:] == [{"qui": "autre"}]  # nothing written
    event = journal.append("note", {"qui": "moi"}, after=seen + 1)
    assert event.seq == seen + 2
    other.close()
    journal.close()


def test_the_console_editing_between_a_stations_check_and_its_write(store, lexicon, tmp_path):
    console, hub, station = game(store, lexicon, tmp_path)
    top = console.game.coups[0].top
    seq = typed_reading(console, 1, 2, top)
    hub.sync()
    version = hub.session.pending[seq].changed
    record = hub.session.record
    calls = []

    def console_first(*args, **kwargs):  # the console writes right after the station's check
        if not calls:
            console.record("edition", {"lecture": seq, "fields": {"score": top.score - 1}})
        calls.append(kwargs.get("after"))
        return record(*args, **kwargs)

    hub.session.record = console_first
    with pytest.raises(Refused) as refused:
        hub.act(station, seq, {"id": "action-anne-0001", "action": "modifier",
                               "version": version, "champs": {"score": top.score + 5}})
    assert refused.value.status == 409
    assert "vient d'être modifié par le juge-arbitre (console)" in refused.value.message
    assert calls[0] is not None  # the write named the state it was checked at
    console.sync()
    assert [e.station for e in kinds(console, "edition")] == ["kiosque"]  # only the console's
    assert console.pending[seq].fields["score"]["value"] == top.score - 1
    # looking again (the new version), the station's edit goes through
    hub.session.record = record
    answer = hub.act(station, seq, {"id": "action-anne-0002", "action": "modifier",
                                    "version": refused.value.extra["lecture"]["version"],
                                    "champs": {"score": top.score}})
    assert answer["ok"]
    console.sync()
    assert console.pending[seq].fields["score"]["value"] == top.score
    hub.session.journal.close()
    console.journal.close()


def test_the_console_writing_inside_the_journal_write_itself(store, lexicon, tmp_path):
    """The narrowest window: after the session's last look, before the store's write lock.
    The store itself refuses (its write lock holds the check): the station is told."""
    console, hub, station = game(store, lexicon, tmp_path)
    top = console.game.coups[0].top
    mine = typed_reading(console, 1, 2, top)
    other = typed_reading(console, 1, 2, top, photo="t2-bis.jpg")  # the same table, twice
    hub.sync()
    version = hub.session.pending[mine].changed
    append = hub.session.journal.append
    stale = []

    def console_inside(*args, **kwargs):
        if not stale:  # the console confirms the other photo of table 2 at that very moment
            console.record("bulletin", {"coup": 1, "lecture": other, "bulletin": {
                "table": 2, "word": top.word, "ref": str(top.ref), "score": top.score}})
        try:
            return append(*args, **kwargs)
        except JournalStale:
            stale.append(True)
            raise

    hub.session.journal.append = console_inside
    with pytest.raises(Refused) as refused:
        hub.act(station, mine, {"id": "action-anne-0003", "action": "confirmer",
                                "version": version, "champs": {}})
    assert stale == [True]  # the store refused the write made on the old state
    assert refused.value.status == 409 and "la table 2 a déjà un résultat" in \
        refused.value.message
    console.sync()
    assert [e.data["lecture"] for e in kinds(console, "bulletin")] == [other]
    assert mine in console.pending  # still waiting: the arbiter sets it aside or asks
    hub.session.journal.close()
    console.journal.close()


def test_a_coup_after_on_the_phone_is_asked_never_confirmed(store, lexicon, tmp_path):
    """A bulletin of coup 2 sent as coup 1 (the page still showed coup 1): the reader found it
    fits coup 2 (``voisin``); the phone shows « coup suivant ? », refuses to confirm it as it
    is, and files it under coup 2 when the arbiter says so."""
    console, hub, station = game(store, lexicon, tmp_path, coups=2)
    second = console.game.coups[1].top
    fields = {"table": {"value": 3, "confidence": 0.99},
              "word": {"value": second.word, "confidence": 0.99},
              "ref": {"value": str(second.ref), "confidence": 0.99},
              "score": {"value": second.score, "confidence": 0.99}}
    seq = typed_reading(console, 1, 3, second, status="a_verifier",
                        voisin={"coup": 2, "fields": fields, "flagged": [], "cells": {}})
    hub.sync()
    shown = hub.reading(hub.session.pending[seq])
    assert shown["voisin"] == 2 and shown["coup"] == 1
    assert any(note.startswith("coup suivant ?") for note in shown["notes"])
    with pytest.raises(Refused) as refused:
        hub.act(station, seq, {"id": "action-anne-0004", "action": "confirmer",
                               "version": shown["version"], "champs": {}})
    assert refused.value.message.startswith("coup suivant ?")
    assert not kinds(hub.session, "bulletin")
    answer = hub.act(station, seq, {"id": "action-anne-0005", "action": "classer",
                                    "version": shown["version"], "coup": 2})
    assert answer["lecture"]["coup"] == 2 and answer["lecture"]["voisin"] is None
    done = hub.act(station, seq, {"id": "action-anne-0006", "action": "confirmer",
                                  "version": answer["lecture"]["version"], "champs": {}})
    assert done["decision"]["score"] == second.score
    console.sync()
    assert console.results.decision(3, 2).score == second.score
    hub.session.journal.close()
    console.journal.close()
