"""A photo of several bulletins sent by a station: one reading per bulletin, each confirmed on
its own; the same upload sent again, or the server killed between two of its readings, never
doubles one. Real server on 127.0.0.1, real reader, real journal."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pytest
from stations_support import Station, new_game, served_game, table_photo, to_correction

from kiosk.journal import Journal
from kiosk.reading import read_photos
from kiosk.session import Session
from kiosk.stations.hub import Hub


@pytest.fixture(scope="module")
def game(tmp_path_factory, lexicon):
    folder = tmp_path_factory.mktemp("feuilles")
    with served_game(folder, lexicon) as (machine, _, server):
        yield machine, server, folder


def kinds(session, *names):
    session.sync()
    return [e for e in session.journal.events() if e.kind in names]


def test_one_upload_two_bulletins_each_read_and_confirmed_once(game):
    machine, server, folder = game
    s = machine.session
    station = Station(server.url, "Sacha")
    assert station.join()[0] == 200
    moves, tops = s.moves(1)
    lower = [m for m in moves if m.score < tops[0].score][0]
    jpeg = table_photo([(1, tops[0]), (2, lower)], seed=1)
    status, data = station.upload(jpeg, envoi="envoi-deux-0001")
    assert status == 202, data
    status, again = station.upload(jpeg, envoi="envoi-deux-0001")  # the answer was lost
    assert status == 200 and again["etat"] == "deja"
    first, second = station.wait_readings("envoi-deux-0001", 2)
    assert [first["id"], second["id"]] == ["envoi-deux-0001#1", "envoi-deux-0001#2"]
    assert first["feuille"]["texte"] == "2 bulletins sur la photo (n° 1)"
    assert [first["champs"]["table"]["valeur"], second["champs"]["table"]["valeur"]] == [1, 2]
    assert second["champs"]["score"]["valeur"] == lower.score
    images = [station.request("GET", f"/api/image/{r['seq']}") for r in (first, second)]
    assert [status for status, _ in images] == [200, 200]
    pages = sorted(p.name for p in (folder / "club-photos").iterdir())
    assert "envoi-deux-0001.page.jpg" in pages and "envoi-deux-0001.page2.jpg" in pages
    for reading, move, table in ((first, tops[0], 1), (second, lower, 2)):
        fields = {"table": table, "word": move.word, "ref": str(move.ref), "score": move.score}
        status, done = station.act(reading["seq"], "confirmer", reading["version"], fields)
        assert status == 200 and done["ok"] and f"table {table} :" in done["message"], done
    status, again = station.upload(jpeg, envoi="envoi-deux-0001")  # once more, after all
    assert status == 200 and again["etat"] == "deja"
    lectures = kinds(s, "lecture")
    assert [(e.data["envoi"], e.data["feuille"], e.data["feuilles"]) for e in lectures] == [
        ("envoi-deux-0001", 1, 2), ("envoi-deux-0001", 2, 2)]
    assert len(kinds(s, "photo")) == 1 and len(kinds(s, "bulletin")) == 2
    assert s.results.decision(1, 1).score == tops[0].score
    assert s.results.history(2, 1)[-1].bulletin.score == lower.score


def test_two_bulletins_of_one_table_on_one_photo_the_second_is_flagged(game):
    machine, server, folder = game
    s = machine.session
    station = Station(server.url, "Yann")
    assert station.join()[0] == 200
    top = s.moves(1)[1][0]
    status, _ = station.upload(table_photo([(3, top), (3, top)], seed=2), envoi="envoi-double-03")
    assert status == 202
    first, second = station.wait_readings("envoi-double-03", 2)
    assert not any("même photo" in n for n in first["notes"])
    assert any("un autre bulletin de la table 3 sur la même photo" in n for n in second["notes"])
    fields = {"table": 3, "word": top.word, "ref": str(top.ref), "score": top.score}
    assert station.act(first["seq"], "confirmer", first["version"], fields)[0] == 200
    before = s.journal.last_seq()
    status, refused = station.act(second["seq"], "confirmer", second["version"], fields)
    assert status == 409 and "la table 3 a déjà un résultat au coup 1" in refused["erreur"]
    s.sync()
    assert s.journal.last_seq() == before and len(s.results.history(3, 1)) == 1


def test_killed_between_two_readings_of_a_photo_restart_writes_only_the_missing_one(
        tmp_path, lexicon):
    path = tmp_path / "salle.partie"
    machine, clock = new_game(path, lexicon)
    to_correction(machine, clock)
    s = machine.session
    hub = Hub(s, tmp_path / "salle-photos")
    net = hub.open("127.0.0.1", 8080, "127.0.0.1")
    token = "t" * 40
    hub.join("Iris", token, net["cle"])
    station = hub.station_for(token)
    top = s.moves(1)[1][0]
    hub.accept_photo(station, "envoi-coupure-1", None, table_photo([(4, top), (5, top)], seed=3))
    [(envoi, photo, coup)] = hub.unread()
    readings = read_photos(photo, s, coup)
    assert [r["status"] in ("ok", "a_verifier") for r in readings] == [True, True]

    class Killed(Exception):
        pass

    real, calls = hub._record, []

    def dies_after_one(*args, **kwargs):
        if calls:
            raise Killed
        calls.append(args)
        return real(*args, **kwargs)

    hub._record = dies_after_one
    with pytest.raises(Killed):
        hub.record_readings(envoi, readings)
    s.journal.close()
    # « kiosk reprendre »: the journal replayed, the photo still to read, its first bulletin kept
    again = Session(Journal.open(path), lexicon)
    hub = Hub(again, tmp_path / "salle-photos")
    assert [e for e, _, _ in hub.unread()] == ["envoi-coupure-1"]
    assert [r.sheet for r in again.pending.values()] == [(1, 2)]
    new = hub.record_readings(envoi, read_photos(photo, again, coup))
    assert len(new) == 1 and again.pending[new[0]].sheet == (2, 2)
    assert hub.record_readings(envoi, read_photos(photo, again, coup)) == []  # a retry: nothing
    assert hub.unread() == []
    tables = sorted(r.fields["table"]["value"] for r in again.pending.values())
    assert tables == [4, 5]
    state = hub.state(hub.station_for(token))
    assert [r["id"] for r in state["lectures"]] == ["envoi-coupure-1#1", "envoi-coupure-1#2"]
    assert state["envois"] == []
    again.journal.close()
