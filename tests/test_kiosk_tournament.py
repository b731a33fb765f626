"""Several rooms, one tournament, one real PostgreSQL server: the same scripted game on SQLite
and on PostgreSQL gives the same results, rooms follow the head juge-arbitre's game, two rooms
never get the same table, a second kiosk for a room is refused, and the results desk ranks
everybody with the usual exports."""

from __future__ import annotations

import csv
import io
import os
import signal
import subprocess
import sys
import threading
import uuid
from pathlib import Path

import pytest

from kiosk import tournament as tour
from kiosk.cli import main
from kiosk.desk import Desk
from kiosk.journal import JournalError
from kiosk.pgjournal import PgJournal

ROOT = Path(__file__).resolve().parent.parent
DEMO = ["--rapide", "--sans-ecran", "--sans-photos", "--coups", "3"]



@pytest.fixture
def env(tmp_path, monkeypatch, pg_url):
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path / "parties"))
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    return tmp_path


def name() -> str:
    return f"T{uuid.uuid4().hex[:8]}"


def players_file(path: Path, tables: range) -> Path:
    path.write_text("table;nom;club\n" + "".join(f"{t};Joueur {t};Club {t % 3}\n"
                                                 for t in tables), encoding="utf-8")
    return path


def rows(csv_path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8-sig")), delimiter=";"))


def test_the_same_scripted_game_gives_the_same_results_on_sqlite_and_postgresql(env, pg_url,
                                                                                 capsys):
    assert main(["demo", "--seed", "6", *DEMO, "--sortie", str(env / "f"),
                 "--fichier", str(env / "f.partie")]) == 0
    game = f"demo-{uuid.uuid4().hex[:6]}"
    assert main(["demo", "--seed", "6", *DEMO, "--sortie", str(env / "p"), "--base", pg_url,
                 "--fichier", game]) == 0
    assert (env / "f" / "resultats.csv").read_text(encoding="utf-8") == \
        (env / "p" / "resultats.csv").read_text(encoding="utf-8")
    sqlite_events = [(e.kind, e.data) for e in
                     __import__("kiosk.journal").journal.Journal.open(env / "f.partie").events()]
    pg_events = [(e.kind, e.data) for e in PgJournal.open(pg_url, game, "test").events()]
    strip = {"out_dir", "token"}  # the demo's own folder differs, nothing else

    def clean(events):
        return [(k, {**d, "demo": {x: y for x, y in d["demo"].items() if x not in strip}}
                 if k == "partie" else d) for k, d in events]

    assert clean(sqlite_events) == clean(pg_events)
    # and the game of the base is exported, copied to a file and resumed from it like any other
    capsys.readouterr()
    assert main(["export", "--base", pg_url, "--partie", game, "--sortie", str(env / "x")]) == 0
    assert rows(env / "x" / "resultats.csv") == rows(env / "f" / "resultats.csv")
    assert main(["sauvegarder", str(env), "--base", pg_url, "--partie", game]) == 0
    copy = env / f"{game}.partie"
    assert main(["export", "--partie", str(copy), "--sortie", str(env / "y")]) == 0
    assert rows(env / "y" / "resultats.csv") == rows(env / "f" / "resultats.csv")


def test_rooms_follow_the_tournament_and_the_desk_ranks_everybody(env, pg_url, lexicon, capsys):
    t = name()
    assert main(["tournoi", "--creer", t, "--base", pg_url, "--graine", "11", "--coups", "3",
                 "--epreuve", "Festival d'été"]) == 0
    assert "3 coups" in capsys.readouterr().out
    for room, tables in (("A", range(1, 17)), ("B", range(101, 106))):
        players = players_file(env / f"{room}.csv", tables)
        assert main(["demo", "--base", pg_url, "--tournoi", t, "--salle", room, "--seed", "2",
                     *DEMO, "--joueurs", str(players), "--sortie", str(env / room)]) == 0
    source = tour.load(pg_url, t).source
    desk = Desk(pg_url, t, lexicon)
    try:
        # every room played the head juge-arbitre's game: same tirages, same tops
        for room, session in desk.sessions.items():
            played = [(c.tirage, c.top.word, str(c.top.ref)) for c in session.game.played()]
            expected = [(c["reliquat"] + c["new_letters"], c["top"]["word"], c["top"]["ref"])
                        for c in source["coups"][:3]]
            assert played == expected, room
        assert desk.common_coups() == 3
        overall = desk.overall()
        assert len(overall.results.players) == 21
        by_table = {s.player.table: s for s in overall.results.ranking()}
        for room in ("A", "B"):  # a room's own totals are those of the overall ranking
            for standing in desk.room(room).results.ranking():
                assert by_table[standing.player.table].total == standing.total
        page = desk.page()
        assert "Joueur 103" in page and "Joueur 16" in page and "Festival d" in page
    finally:
        desk.close()
    capsys.readouterr()
    assert main(["classement", "--base", pg_url, "--tournoi", t, "--sortie", str(env / "r")]) == 0
    out = capsys.readouterr().out
    assert "salle A : 16 joueurs, 3 top(s), terminée" in out
    assert "classement général après le coup 3" in out and "21 joueurs" in out
    general = rows(env / "r" / "general" / "resultats.csv")
    assert len(general) == 22  # header + 21 players
    assert rows(env / "r" / "salle-B" / "resultats.csv")[1:] and \
        len(rows(env / "r" / "salle-B" / "resultats.csv")) == 6
    assert (env / "r" / "general" / "resultats.pdf").read_bytes()[:5] == b"%PDF-"
    assert main(["tournoi", t, "--base", pg_url]) == 0
    assert "salle B : 5 joueur(s), terminée, aucun kiosque ouvert" in capsys.readouterr().out


def test_a_table_belongs_to_one_room_even_when_two_rooms_register_at_once(env, pg_url,
                                                                          lexicon, capsys):
    t = name()
    assert main(["tournoi", "--creer", t, "--base", pg_url, "--graine", "3", "--coups", "2"]) == 0
    tournament = tour.load(pg_url, t)
    meta = {"lexicon_sha256": lexicon.sha256}
    outcomes: dict[str, str] = {}

    def register(room: str, tables: range) -> None:
        config = tournament.room_config([{"table": n, "name": f"J{n}"} for n in tables])
        try:
            tour.register_room(pg_url, tournament, room, config, meta).close()
            outcomes[room] = "ok"
        except JournalError as exc:
            outcomes[room] = str(exc)

    threads = [threading.Thread(target=register, args=(room, range(start, start + 40)))
               for room, start in (("Nord", 1), ("Sud", 30))]  # tables 30-40 in both
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes.values()).count("ok") == 1, outcomes
    refused = next(v for v in outcomes.values() if v != "ok")
    assert "tables déjà attribuées dans une autre salle" in refused and "30 (salle" in refused
    assert len(tour.rooms(pg_url, t)) == 1
    # the same room twice: its game exists, kiosk reprendre is the way
    (env / "e.csv").write_text("table;nom\n500;Zoé\n", encoding="utf-8")
    ok_room = next(room for room, v in outcomes.items() if v == "ok")
    capsys.readouterr()
    assert main(["nouvelle", "--base", pg_url, "--tournoi", t, "--salle", ok_room,
                 "--joueurs", str(env / "e.csv")]) == 2
    assert "a déjà sa partie" in capsys.readouterr().err
    assert main(["nouvelle", "--base", pg_url, "--tournoi", t, "--salle", "Est", "--graine", "4",
                 "--joueurs", str(env / "e.csv")]) == 2
    assert "ceux du tournoi" in capsys.readouterr().err
    assert main(["nouvelle", "--base", pg_url, "--tournoi", t, "--salle", "Est", "--modele",
                 "absent", "--joueurs", str(env / "e.csv")]) == 2  # refused before the room exists
    assert "modèle de bulletin inutilisable" in capsys.readouterr().err
    assert len(tour.rooms(pg_url, t)) == 1
    assert main(["tournoi", "--creer", t, "--base", pg_url, "--graine", "5"]) == 2
    assert "existe déjà" in capsys.readouterr().err
    assert main(["classement", "--base", pg_url, "--tournoi", "inconnu"]) == 2
    assert "inconnu" in capsys.readouterr().err


def test_a_second_kiosk_for_a_room_is_refused_and_a_crashed_ones_room_is_free_again(env,
                                                                                   pg_url):
    t = name()
    assert main(["tournoi", "--creer", t, "--base", pg_url, "--graine", "8", "--coups", "1"]) == 0
    assert main(["demo", "--base", pg_url, "--tournoi", t, "--salle", "A", "--seed", "1",
                 "--rapide", "--sans-ecran", "--sans-photos", "--coups", "1",
                 "--sortie", str(env / "d")]) == 0
    game = tour.room_game_name(t, "A")
    holder = subprocess.Popen(
        [sys.executable, "-c", "import time; from kiosk.pgjournal import PgJournal; "
         f"j = PgJournal.open({pg_url!r}, {game!r}); j.lock_room(); print('pris', flush=True); "
         "time.sleep(120)"], cwd=ROOT, stdout=subprocess.PIPE, text=True,
        env=dict(os.environ, KIOSK_PARTIES=str(env / "autre")))
    try:
        assert holder.stdout.readline().strip() == "pris"
        environ = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
        second = subprocess.run([sys.executable, "-m", "kiosk", "reprendre", "--base", pg_url,
                                 "--tournoi", t, "--salle", "A", "--sans-ecran"], cwd=ROOT,
                                capture_output=True, text=True, env=environ, timeout=120)
        assert second.returncode == 2, second.stderr
        assert "déjà ouverte dans une autre salle" in second.stderr
        assert f"processus {holder.pid}" in second.stderr
        assert "Traceback" not in second.stderr
        holder.send_signal(signal.SIGKILL)  # the first kiosk crashes: the server frees the room
        holder.wait()
        third = subprocess.run([sys.executable, "-m", "kiosk", "reprendre", "--base", pg_url,
                                "--tournoi", t, "--salle", "A", "--sans-ecran"], cwd=ROOT,
                               capture_output=True, text=True, env=environ, timeout=120)
        assert third.returncode == 0, third.stderr
    finally:
        holder.kill()
        holder.wait()


def test_base_errors_are_french_lines(env, capsys):
    assert main(["reprendre", "--base", "mysql://x/y"]) == 2
    assert "adresse non valable" in capsys.readouterr().err
    assert main(["classement", "--base", "postgresql://kiosque@127.0.0.1:1/rien",
                 "--tournoi", "T"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("erreur : ") and "injoignable" in err and err.count("\n") == 1, err
    assert main(["reprendre", "--tournoi", "T", "--salle", "A"]) == 2
    assert "demandent la base du tournoi" in capsys.readouterr().err
