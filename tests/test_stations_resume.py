"""The kiosk killed (kill -9 of the room, its station server and its readers) while 4 stations
upload and confirm; ``kiosk reprendre`` on the same port: nothing confirmed is lost, nothing
counted twice, the stations carry on with the same tokens, a phone page reconnects alone."""

import os
import signal
import subprocess
import sys
import threading
import time
import uuid

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from stations_support import Browser, Station, free_port, new_game, photo, to_correction, wait_for

from kiosk.journal import Journal
from kiosk.session import Session

TABLES = 8



def start_kiosk(game, port, parties):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               KIOSK_PARTIES=str(parties))
    process = subprocess.Popen(
        [sys.executable, "-m", "kiosk", "reprendre", str(game), "--fenetre", "--postes",
         "--hote", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, start_new_session=True,
        text=True)
    lines = []
    for line in process.stdout:
        lines.append(line)
        if line.startswith("postes d'arbitrage"):
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            return process
    raise AssertionError("".join(lines))


class Arbiter(threading.Thread):
    """One station: photos uploaded with fixed ids, each confirmed with the paper's fields;
    every request retried (same ids) while the kiosk is down."""

    def __init__(self, url, name, work, stop_at):
        super().__init__(daemon=True)
        self.station = Station(url, name)
        self.work = work  # [(table, move, jpeg)]
        self.stop_at = stop_at
        self.confirmed: list[tuple[int, float]] = []  # (table, when the answer came)
        self.errors: list[str] = []

    def retry(self, call, *args, **kwargs):
        while time.monotonic() < self.stop_at:
            try:
                status, data = call(*args, **kwargs)
            except OSError:
                time.sleep(0.2)
                continue
            if status >= 500:
                time.sleep(0.2)
                continue
            return status, data
        raise TimeoutError

    def read(self, envoi):
        return 200, self.station.wait_reading(envoi, 10)

    def run(self):
        try:
            status, data = self.retry(self.station.join)
            assert status == 200, data
            for table, move, jpeg in self.work:
                envoi, action = f"envoi-{table:02d}-{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
                status, data = self.retry(self.station.upload, jpeg, envoi=envoi)
                assert status in (200, 202), data
                reading = self.retry(self.read, envoi)[1]
                fields = {"table": table, "word": move.word, "ref": str(move.ref),
                          "score": move.score}
                status, data = self.retry(self.station.act, reading["seq"], "confirmer",
                                          reading["version"], fields, ident=action)
                assert status == 200, data
                self.confirmed.append((table, time.monotonic()))
        except (AssertionError, TimeoutError) as exc:
            self.errors.append(repr(exc))


def test_kill_the_kiosk_mid_uploads_and_resume(tmp_path, lexicon):
    game = tmp_path / "tournoi.partie"
    machine, clock = new_game(game, lexicon, n_players=TABLES)
    to_correction(machine, clock)
    s = machine.session
    moves, tops = s.moves(1)
    plays = {t: moves[(t * 7) % min(len(moves), 40)] for t in range(1, TABLES + 1)}
    jpegs = {t: photo(s, 1, t, plays[t], seed=31) for t in plays}
    s.journal.close()
    port = free_port()
    kiosk = start_kiosk(game, port, tmp_path)
    watcher = browser = None
    try:
        journal = Journal.open(game)
        session = Session(journal, lexicon)
        url = session.network["lien"]
        assert session.network["port"] == port
        browser = Browser(360, 800)
        browser.driver.get(url)
        wait_for(lambda: browser.css("#rejoindre").is_displayed())
        browser.css("#nom").send_keys("Observatrice")
        browser.css("#form-rejoindre button").click()
        wait_for(lambda: "0 / 8 corrigés" in browser.text("#progression"))
        stop_at = time.monotonic() + 150
        arbiters = [Arbiter(url, f"Arbitre {i}", [(t, plays[t], jpegs[t])
                                                  for t in (2 * i + 1, 2 * i + 2)], stop_at)
                    for i in range(4)]
        for arbiter in arbiters:
            arbiter.start()
        wait_for(lambda: sum(len(a.confirmed) for a in arbiters) >= 2, timeout=90)
        os.killpg(kiosk.pid, signal.SIGKILL)  # the power cut: room, server, readers
        killed_at = time.monotonic()
        kiosk.wait()
        before = {t for a in arbiters for t, when in a.confirmed if when < killed_at}
        assert before and len(before) < TABLES, "killed in the middle"
        time.sleep(1.0)
        kiosk = start_kiosk(game, port, tmp_path)  # kiosk reprendre, same port by default
        for arbiter in arbiters:
            arbiter.join(timeout=max(1.0, stop_at - time.monotonic()))
        assert not [a.errors for a in arbiters if a.errors]
        assert {t for a in arbiters for t, _ in a.confirmed} == set(range(1, TABLES + 1))
        # the phone page reconnected by itself (same token), and sees the game complete
        wait_for(lambda: "8 / 8 corrigés" in browser.text("#progression"), timeout=40)
        assert "en ligne" in browser.text("#reseau")

        session.sync()
        events = session.journal.events()
        assert not session.refused
        for table in range(1, TABLES + 1):
            entries = session.results.history(table, 1)
            assert len(entries) == 1, f"table {table} counted {len(entries)} times"
            assert entries[0].bulletin.score == plays[table].score
        uploads = [e.data["envoi"] for e in events if e.kind == "photo"]
        readings = [e.data["envoi"] for e in events if e.kind == "lecture"]
        assert len(uploads) == len(set(uploads)) == TABLES
        assert sorted(readings) == sorted(uploads), "each photo read once"
        assert len([e for e in events if e.kind == "bulletin"]) == TABLES
        assert len({e.data["id"] for e in events if e.kind == "poste"}) == 5  # no second join
        journal.close()
    finally:
        if browser is not None:
            browser.close()
        if kiosk.poll() is None:
            os.killpg(kiosk.pid, signal.SIGTERM)
            try:
                kiosk.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(kiosk.pid, signal.SIGKILL)
                kiosk.wait()
        del watcher
