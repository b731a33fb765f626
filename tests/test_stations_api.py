"""The station server started for real on 127.0.0.1 (its own process, real journal, real
reader): joining, photos, corrections between two arbiters, and hostile requests — each
refused in French with nothing written."""

import http.client
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest
from stations_support import Station, photo, served_game, to_correction, wait_for

from display.console import draw_console
from display.render import render
from kiosk.console import console_view
from kiosk.stations.panel import revoke, stations_view, summary
from kiosk.views import room_view


@pytest.fixture(scope="module")
def game(tmp_path_factory, lexicon):
    """A game of 6 players at the correction of coup 1, and its station server."""
    folder = tmp_path_factory.mktemp("postes")
    with served_game(folder, lexicon) as (machine, clock, server):
        yield machine, clock, server, folder


def written(machine, folder):
    """What a refused request must not change: the journal and the photos folder."""
    photos = folder / "club-photos"
    return (machine.session.journal.last_seq(),
            sorted(p.name for p in photos.iterdir()) if photos.exists() else [])


def joined(server, name):
    station = Station(server.url, name)
    status, data = station.join()
    assert status == 200, data
    return station


def test_nothing_but_the_join_page_without_a_token(game):
    machine, clock, server, folder = game
    anyone = Station(server.url.split("?")[0])
    status, _ = anyone.request("GET", "/")
    assert status == 200
    for path in ("/api/etat", "/api/image/3"):
        status, data = anyone.request("GET", path)
        assert status == 401 and "rejoignez la partie" in data["erreur"]
    assert anyone.request("GET", "/static/app.js")[0] == 200
    status, data = anyone.request("GET", "/static/..%2f..%2fclub.partie")
    assert status == 404 and data["erreur"] == "page introuvable"
    assert anyone.request("GET", "/api/etat", headers={"X-Jeton": "x" * 40})[0] == 401


def test_photo_read_then_confirmed_once_whatever_the_retries(game):
    machine, clock, server, folder = game
    s = machine.session
    station = joined(server, "Marie")
    moves, tops = s.moves(1)
    top = tops[0]
    jpeg = photo(s, 1, 2, top, seed=1)
    status, data = station.upload(jpeg, envoi="envoi-marie-001")
    assert status == 202 and data["coup"] == 1 and "lecture en cours" in data["message"]
    before = written(machine, folder)
    status, again = station.upload(jpeg, envoi="envoi-marie-001")  # the answer was lost: retry
    assert status == 200 and again["etat"] == "deja" and "déjà reçue" in again["message"]
    assert written(machine, folder) == before
    reading = station.wait_reading("envoi-marie-001")
    values = {k: v["valeur"] for k, v in reading["champs"].items()}
    assert values["table"] == 2 and values["word"].upper() == top.word.upper()
    assert values["score"] == top.score and reading["image"]
    status, image = station.request("GET", f"/api/image/{reading['seq']}")
    assert status == 200  # the rectified bulletin (JPEG, not JSON)
    # the console sees it appear, from the journal
    s.sync()
    assert reading["seq"] in s.pending and s.pending[reading["seq"]].station == "p1"
    # a doubtful field comes with the reader's reason, the others with none
    kept = s.pending[reading["seq"]].fields
    assert all(f["pourquoi"] == ((kept.get(name) or {}).get("pourquoi") if f["doute"] else None)
               for name, f in reading["champs"].items())
    fields = {"table": 2, "word": top.word, "ref": str(top.ref), "score": top.score}
    status, done = station.act(reading["seq"], "confirmer", reading["version"], fields,
                               ident="action-marie-01")
    assert status == 200 and done["decision"]["score"] == top.score, done
    status, retry = station.act(reading["seq"], "confirmer", reading["version"], fields,
                                ident="action-marie-01")
    assert status == 200 and retry["ok"]
    status, other = station.act(reading["seq"], "confirmer", reading["version"], fields)
    assert status == 409 and "déjà été confirmé par Marie" in other["erreur"]
    s.sync()
    kinds = [(e.kind, e.data.get("envoi") or e.data.get("lecture"))
             for e in s.journal.events() if e.kind in ("photo", "lecture", "bulletin")]
    assert kinds == [("photo", "envoi-marie-001"), ("lecture", "envoi-marie-001"),
                     ("bulletin", reading["seq"])]
    assert s.results.decision(2, 1).score == top.score
    assert s.confirmed_by[(1, 2)] == "p1"


def test_two_arbiters_on_one_bulletin_the_second_is_told(game):
    machine, clock, server, folder = game
    s = machine.session
    anne, paul = joined(server, "Anne"), joined(server, "Paul")
    moves, tops = s.moves(1)
    lower = [m for m in moves if m.score < tops[0].score][0]
    status, data = anne.upload(photo(s, 1, 3, lower, seed=2), envoi="envoi-anne-003")
    assert status == 202
    reading = anne.wait_reading("envoi-anne-003")
    seen_by_paul = next(r for r in paul.state()["lectures"] if r["seq"] == reading["seq"])
    status, _ = anne.act(reading["seq"], "modifier", reading["version"],
                         {"score": lower.score + 1})
    assert status == 200
    status, late = paul.act(reading["seq"], "confirmer", seen_by_paul["version"],
                            {"score": lower.score})
    assert status == 409 and "vient d'être modifié par Anne (poste)" in late["erreur"]
    assert late["lecture"]["champs"]["score"]["valeur"] == lower.score + 1  # Anne's, kept
    s.sync()
    assert not s.results.history(3, 1)
    # two photos of the same bulletin, one by each: the first confirmed counts, the second told
    status, _ = paul.upload(photo(s, 1, 3, lower, seed=3), envoi="envoi-paul-003")
    assert status == 202
    second = paul.wait_reading("envoi-paul-003")
    fields = {"table": 3, "word": lower.word, "ref": str(lower.ref), "score": lower.score}
    current = next(r for r in anne.state()["lectures"] if r["seq"] == reading["seq"])
    assert any("une autre photo de la table 3" in n for n in current["notes"])
    assert anne.act(reading["seq"], "confirmer", current["version"], fields)[0] == 200
    before = written(machine, folder)
    status, refused = paul.act(second["seq"], "confirmer", second["version"], fields)
    assert status == 409
    assert "la table 3 a déjà un résultat au coup 1 par Anne (poste)" in refused["erreur"]
    assert "rien n'a été remplacé" in refused["erreur"]
    assert written(machine, folder) == before
    assert paul.act(second["seq"], "ecarter", second["version"])[0] == 200
    s.sync()
    assert second["seq"] not in s.pending
    assert s.results.history(3, 1)[-1].bulletin.score == lower.score  # Anne's, once


def test_hostile_requests_are_refused_in_french_and_write_nothing(game):
    machine, clock, server, folder = game
    s = machine.session
    station = joined(server, "Hostile")
    stranger = Station(server.url.split("?")[0], "Intrus")
    jpeg = photo(s, 1, 4, s.moves(1)[1][0], seed=4)
    before = written(machine, folder)
    cases = {
        "sans secret": stranger.join(),
        "mauvais secret": stranger.join(cle="pas-le-bon-secret"),
        "mauvais code": stranger.join(code="000000" if s.network["code"] != "000000"
                                      else "111111"),
        "photo sans poste": stranger.upload(jpeg),
        "pas une image": station.upload(b"%PDF-1.4 un document, pas une photo " * 50),
        "chemin dans le nom": station.upload(jpeg, filename="../../club.partie"),
        "chemin absolu": station.upload(jpeg, filename="/etc/passwd"),
        "JSON malformé": station.request("POST", "/api/bloc", b'{"de": 1,',
                                         {"Content-Type": "application/json"}),
        "JSON non objet": station.request("POST", "/api/lecture/5", b"[1, 2]"),
        "action inconnue": station.post("/api/lecture/5", {"id": "abcdefgh1", "action": "rm"}),
        "sans identifiant": station.upload(jpeg, envoi="../x"),
        "coup inexistant": station.upload(jpeg, coup=9),
        "score non numérique": station.post("/api/lecture/5", {
            "id": "abcdefgh2", "action": "modifier", "version": 0, "champs": {"score": "dix"}}),
    }
    status, data = station.upload(jpeg, envoi="envoi-rejoue-01")
    assert status == 202
    after_first = written(machine, folder)
    cases["envoi rejoué, autre photo"] = station.upload(jpeg[:-10] + b"0123456789",
                                                        envoi="envoi-rejoue-01")
    cases["même photo, nouvel envoi"] = station.upload(jpeg, envoi="envoi-rejoue-02")
    for why, (status, data) in cases.items():
        assert 400 <= status < 500, (why, status, data)
        message = data.get("erreur", "")
        assert message, (why, data)
        assert not any(w in message.lower() for w in ("error", "invalid", "traceback")), why
    assert cases["pas une image"][0] == 415 and "pas une photo" in cases["pas une image"][1][
        "erreur"]
    assert "chemin" in cases["chemin dans le nom"][1]["erreur"]
    assert "JSON attendu" in cases["JSON malformé"][1]["erreur"]
    assert cases["mauvais secret"][0] == 403 and "code non valable" in cases["mauvais secret"][1][
        "erreur"]
    assert "autre photo" in cases["envoi rejoué, autre photo"][1]["erreur"]
    assert "déjà été envoyée" in cases["même photo, nouvel envoi"][1]["erreur"]
    assert "un nombre est attendu" in cases["score non numérique"][1]["erreur"] or \
        cases["score non numérique"][0] in (404, 409)
    station.wait_reading("envoi-rejoue-01")
    s.sync()
    events = s.journal.events(after=before[0])
    assert [e.kind for e in events] == ["photo", "lecture"], "only the one good photo"
    assert len(written(machine, folder)[1]) - len(before[1]) == 2  # its photo and its page
    del after_first


def test_a_200_mb_upload_is_cut_at_once(game):
    machine, clock, server, folder = game
    station = joined(server, "Gros envoi")
    before = written(machine, folder)
    conn = http.client.HTTPConnection(station.host, int(station.port), timeout=20)
    conn.putrequest("POST", "/api/photo")
    conn.putheader("X-Jeton", station.token)
    conn.putheader("Content-Type", "multipart/form-data; boundary=xyz")
    conn.putheader("Content-Length", str(200 * 1024 * 1024))
    conn.endheaders()
    try:
        for _ in range(8):
            conn.send(b"\xff" * (1024 * 1024))
    except OSError:
        pass  # the server closed: it did not wait for 200 MB
    response = conn.getresponse()
    assert response.status == 413
    assert "photo trop grande (20 Mo au plus)" in response.read().decode()
    conn.close()
    # without a length (chunked), the stream is cut after 20 MB
    from stations_support import multipart

    body, kind = multipart({"envoi": "envoi-geant-0001"}, ("photo", "p.jpg",
                                                           b"\xff\xd8\xff" + bytes(21 * 2**20)))
    conn = http.client.HTTPConnection(station.host, int(station.port), timeout=20)
    conn.request("POST", "/api/photo", body=iter([body[i:i + 2**20]
                                                   for i in range(0, len(body), 2**20)]),
                 headers={"X-Jeton": station.token, "Content-Type": kind},
                 encode_chunked=True)
    response = conn.getresponse()
    assert response.status == 413 and "20 Mo" in response.read().decode()
    conn.close()
    assert written(machine, folder) == before


def test_revoked_station_is_refused_and_told(game):
    machine, clock, server, folder = game
    s = machine.session
    station = joined(server, "Parti")
    s.sync()
    ident = next(k for k, v in s.stations.items() if v["nom"] == "Parti")
    assert revoke(s, ident).startswith("poste de Parti retiré")
    before = written(machine, folder)
    status, data = wait_for(lambda: (lambda r: r if r[0] == 403 else None)(
        station.request("GET", "/api/etat")), timeout=5)
    assert "retiré par le juge-arbitre" in data["erreur"] and data["retire"]
    status, data = station.upload(photo(s, 1, 5, s.moves(1)[1][0], seed=5))
    assert status == 403 and written(machine, folder) == before
    status, data = station.join()
    assert status == 403 and "retiré" in data["erreur"]  # the same token cannot come back


def test_console_panel_shows_stations_progress_and_a_qr_code_that_scans(game):
    machine, clock, server, folder = game
    s = machine.session
    s.sync()
    view = stations_view(s)
    assert view.code == s.network["code"] and len(view.code) == 6
    names = [line.name for line in view.lines if not line.revoked]
    assert "Marie" in names and "Parti" not in names
    assert view.progress == f"{sum(1 for t in s.results.players if s.results.history(t, 1))}" \
        " / 6 corrigés"
    assert summary(view).startswith("postes : ") and "Q : postes" in summary(view)
    pygame.init()
    machine.key("q")
    assert machine.mode == "postes"
    console, room = pygame.Surface((1366, 768)), pygame.Surface((1280, 720))
    texts = draw_console(console_view(machine), console)  # the juge-arbitre's window
    assert any(t.startswith("Marie · toutes · il y a ") for t in texts)
    render(room_view(machine), room)  # the projector's, at the same moment

    from two_screens import scan  # what a phone's camera reads

    assert scan(console) == server.url  # the phone's camera gets the join link with the secret
    assert scan(room) == ""
    machine.key("escape")
    assert machine.mode is None


def test_late_bulletin_of_an_earlier_coup_only_when_chosen(game):
    machine, clock, server, folder = game
    s = machine.session
    station = joined(server, "Tardif")
    machine.key("space")  # Space twice with players left: on to coup 2
    machine.key("space")
    to_correction(machine, clock)
    state = station.state()
    assert state["coup_defaut"] == 2 and state["coups"] == [2, 1]
    old = s.moves(1)[1][0]
    status, data = station.upload(photo(s, 1, 6, old, seed=6), envoi="envoi-tardif-1", coup=1)
    assert status == 202 and data["coup"] == 1
    reading = station.wait_reading("envoi-tardif-1")
    assert reading["coup"] == 1
    status, data = station.upload(photo(s, 1, 6, old, seed=7), coup=3)
    assert status == 409 and "pas de coup 3" in data["erreur"]


def test_a_bulletin_typed_on_a_station_is_written_once(game):
    machine, clock, server, folder = game
    s = machine.session
    station = joined(server, "Typhaine")
    top = s.moves(s.coup.number)[1][0]
    body = {"id": "saisie-typhaine-01", "champs": {"table": "5", "word": top.word,
                                                    "ref": str(top.ref), "score": top.score}}
    status, data = station.post("/api/saisie", body)
    assert status == 200 and "à confirmer" in data["message"], data
    assert data["lecture"]["statut"] == "saisi" and data["lecture"]["poste"] == "Typhaine"
    before = written(machine, folder)
    status, again = station.post("/api/saisie", body)  # the answer was lost: sent again
    assert status == 200 and again["deja"] and again["seq"] == data["seq"]
    assert written(machine, folder) == before
    for wrong, said in (({"id": "court", "champs": {"table": 5}}, "identifiant de saisie"),
                        ({"id": "saisie-typhaine-02", "champs": {"word": "MOT"}}, "table"),
                        ({"id": "saisie-typhaine-03", "champs": {"table": "x"}}, "un nombre"),
                        ({"id": "saisie-typhaine-04", "champs": {"nom": "?"}}, "champs inconnus")):
        status, refused = station.post("/api/saisie", wrong)
        assert status == 400 and said in refused["erreur"], refused
    assert written(machine, folder) == before


def test_wrong_codes_lock_the_address_out(game):
    machine, clock, server, folder = game
    s = machine.session
    wrong = "000000" if s.network["code"] != "000000" else "111111"
    stranger = Station(server.url.split("?")[0], "Devin")
    answers = [stranger.join(code=wrong)[0] for _ in range(12)]
    assert 429 in answers and answers[0] == 403
    status, data = stranger.join(code=s.network["code"])  # even the right code, for a while
    assert status == 429 and "trop de codes faux" in data["erreur"]

