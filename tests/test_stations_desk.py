"""The station server on a PostgreSQL game (``--base``): a tournament room's server, its photo
readers on the database, and the results desk of the whole tournament mounted on it
(``/classement``, behind its own read-only key), read in Debian's chromium."""

from __future__ import annotations

import os
import uuid

import pytest
from stations_support import Browser, Station, chromium_env, render, wait_for

from engine.lexicon import Lexicon
from kiosk.cli import main
from kiosk.pgjournal import PgJournal
from kiosk.session import Session
from kiosk.stations.launch import StationsProcess
from kiosk.storage import Locator, file_name

DEMO = ["--rapide", "--sans-ecran", "--sans-photos", "--coups", "2"]
ROOMS = {"A": range(1, 7), "B": range(101, 104)}



@pytest.fixture(scope="module")
def tournament(tmp_path_factory, pg_url):
    """A tournament of 2 coups played in two rooms (6 and 3 players), and room A's station
    server on the database."""
    folder = tmp_path_factory.mktemp("festival")
    saved = {k: os.environ.get(k) for k in ("KIOSK_PARTIES", "SDL_VIDEODRIVER",
                                             "SDL_AUDIODRIVER")}
    os.environ.update(KIOSK_PARTIES=str(folder / "parties"), SDL_VIDEODRIVER="dummy",
                      SDL_AUDIODRIVER="dummy")
    name = f"F{uuid.uuid4().hex[:8]}"
    assert main(["tournoi", "--creer", name, "--base", pg_url, "--graine", "4", "--coups", "2",
                 "--epreuve", "Festival"]) == 0
    for room, tables in ROOMS.items():
        players = folder / f"{room}.csv"
        players.write_text("table;nom\n" + "".join(f"{t};Joueur {t}\n" for t in tables),
                           encoding="utf-8")
        assert main(["demo", "--base", pg_url, "--tournoi", name, "--salle", room, "--seed",
                     "3", *DEMO, "--joueurs", str(players), "--sortie",
                     str(folder / room)]) == 0
    game = PgJournal.find_room(pg_url, name, "A")
    lexicon = Lexicon.load()
    session = Session(PgJournal.open(pg_url, game, station="test"), lexicon)
    where = Locator.of(session.journal)  # as kiosk nouvelle/reprendre --base start it
    assert (where.url, where.name) == (pg_url, game)
    server = StationsProcess.start(where, str(lexicon.source), "127.0.0.1", 0)
    yield server, session, name, folder
    server.stop()
    session.journal.close()
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value


def test_a_rooms_stations_on_the_database_read_photos(tournament):
    server, session, name, folder = tournament
    # the database's URL (its password, if any) is never on the server's command line
    assert "cle=" in server.url and "postgresql://" not in " ".join(server.process.args)
    station = Station(server.url, "Anne")
    status, data = station.join()
    assert status == 200, data
    top = session.game.coups[1].top  # a late bulletin of the last coup, read on the base
    status, data = station.upload(render(4, top.word, str(top.ref), top.score, 2),
                                  envoi="envoi-base-0001", coup=2)
    assert status == 202, data
    reading = station.wait_reading("envoi-base-0001", timeout=90)
    assert {k: v["valeur"] for k, v in reading["champs"].items()}["table"] == 4
    session.sync()
    assert reading["seq"] in session.pending  # journaled in PostgreSQL, seen by the room
    assert (folder / "parties" / f"{file_name(session.journal.name)}-photos").is_dir()


def test_the_results_desk_page_in_chromium(tournament):
    server, session, name, folder = tournament
    session.sync()
    results = session.network["classement"]
    key = results.split("cle=")[1]
    assert key != session.network["cle"]  # not the stations' secret
    base = server.url.split("?")[0]
    chromium_env()
    browser = Browser(1280, 900)
    try:
        browser.driver.get(results)
        wait_for(lambda: "Classement" in browser.driver.page_source)
        names = {cell.text for cell in browser.all("table:first-of-type td.t")}
        everybody = {f"Joueur {t}" for tables in ROOMS.values() for t in tables}
        assert everybody <= names  # both rooms, one overall ranking
        assert browser.driver.execute_script(
            "return document.querySelector('meta[http-equiv=refresh]').content") == "10"

        def total(table: int) -> int:
            for row in browser.all("table:first-of-type tr"):
                cells = [c.text for c in row.find_elements("css selector", "td")]
                if cells and cells[1] == str(table):
                    return int(cells[-3])
            raise AssertionError(table)

        before = total(101)
        # room B's juge-arbitre gives table 101 a zero on coup 2: the page shows it at its
        # next reload (it reloads itself every 10 s; here at once)
        room_b = Session(PgJournal.open(session.journal.base.url,
                                        PgJournal.find_room(session.journal.base.url, name,
                                                            "B"), station="kiosque"),
                         session.lexicon)
        room_b.record("modif", {"coup": 2, "table": 101, "outcome": "zero",
                                "reason": "bulletin remis après le ramassage"})
        room_b.journal.close()
        browser.driver.refresh()
        wait_for(lambda: total(101) < before, timeout=20)
        browser.driver.get(results + "&salle=B")  # one room
        names = {cell.text for cell in browser.all("table:first-of-type td.t")}
        assert {f"Joueur {t}" for t in ROOMS["B"]} <= names
        assert not {f"Joueur {t}" for t in ROOMS["A"]} & names
        for wrong in (f"{base}classement", f"{base}classement?cle={session.network['cle']}"):
            browser.driver.get(wrong)  # no key, or the stations' secret: refused, in French
            assert "Adresse du classement incomplète" in browser.css("body").text
        assert "Joueur 1" not in browser.driver.page_source
    finally:
        browser.close()
    # the read-only key lets nobody in as an arbiter
    intruder = Station(f"{base}?cle={key}", "Intrus")
    status, data = intruder.join()
    assert status == 403 and "code non valable" in data["erreur"]
