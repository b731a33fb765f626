"""What the station tests share: a game at its correction step, a station client over real
HTTP, generated bulletin photos, and Debian's chromium driven by Selenium (no download)."""

from __future__ import annotations

import http.client
import json
import os
import secrets
import shutil
import socket
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

from kiosk.journal import Journal
from kiosk.machine import Machine
from kiosk.session import Config, Session

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
#: the machine has no internet: without these chromium floods refused connections
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                  "--hide-scrollbars")


class Clock:
    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


def players(n: int) -> list[dict]:
    names = ["Anne", "Bruno", "Claire", "David", "Élise", "François", "Gisèle", "Hugo",
             "Inès", "Jacques", "Karine", "Louis", "Marie", "Nicolas", "Odile", "Pierre"]
    return [{"table": i + 1, "name": names[i % len(names)]} for i in range(n)]


def new_game(path: Path, lexicon, n_players: int = 6, seed: int = 11, **config):
    journal = Journal.create(path, {"lexicon_sha256": lexicon.sha256,
                                    "lexicon_path": str(lexicon.source)})
    session = Session(journal, lexicon)
    session.record("partie", Config(**{"seed": seed, "seconds": 180, "warning": 30,
                                       "players": players(n_players), **config}).to_dict())
    clock = Clock()
    return Machine(session, clock), clock


def to_correction(machine: Machine, clock: Clock) -> None:
    """From a tirage (or the welcome screen) to the correction of that coup."""
    if machine.step in ("accueil", "correction"):
        machine.key("space")  # tirage
    while machine.step != "chrono":
        machine.key("space")
    clock.now += machine.config.seconds + 1
    machine.tick()
    machine.key("space")  # top
    machine.key("space")  # correction
    assert machine.step == "correction", machine.message


@contextmanager
def served_game(folder: Path, lexicon):
    """A game of 6 players at the correction of coup 1 in ``folder``, and its station server
    on 127.0.0.1: (machine, clock, server); the server stopped and the journal closed after."""
    from kiosk.stations.launch import StationsProcess

    machine, clock = new_game(folder / "club.partie", lexicon)
    to_correction(machine, clock)
    server = StationsProcess.start(folder / "club.partie", str(lexicon.source), "127.0.0.1", 0)
    machine.session.sync()
    try:
        yield machine, clock, server
    finally:
        server.stop()
        machine.session.journal.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def photo(session: Session, coup: int, table: int, move, seed: int = 0) -> bytes:
    """A photographed bulletin (vision's generator) of ``table`` playing ``move``."""
    return render(table, move.word, str(move.ref), move.score, seed)


def render(table: int, word: str, ref: str, score: int, seed: int) -> bytes:
    """A photo by its content alone (for a process pool: several rendered at once)."""
    from vision import BulletinContent, render_bulletin

    jpeg, _ = render_bulletin(BulletinContent(table=table, word=word, ref=ref, score=score),
                              seed=seed * 100 + table)
    return jpeg


def table_photo(plays: list[tuple[int, object]], seed: int = 0) -> bytes:
    """One photo of several bulletins side by side (vision's table generator): ``plays`` are
    (table, move), laid left to right (two rows from four on)."""
    from vision import BulletinContent
    from vision.synth import render_table

    jpeg, _ = render_table([BulletinContent(table=t, word=m.word, ref=str(m.ref), score=m.score)
                            for t, m in plays], seed=seed)
    return jpeg


class Station:
    """A simulated station speaking the phone page's HTTP, with http.client."""

    def __init__(self, url: str, name: str = "Arbitre", token: str | None = None) -> None:
        rest = url.split("//", 1)[1]
        self.host, self.port = rest.split("/", 1)[0].split(":")
        self.secret = url.split("cle=", 1)[1] if "cle=" in url else None
        self.name = name
        self.token = token or secrets.token_urlsafe(32)

    def request(self, method: str, path: str, body: bytes | None = None,
                headers: dict | None = None, timeout: float = 30.0) -> tuple[int, dict]:
        conn = http.client.HTTPConnection(self.host, int(self.port), timeout=timeout)
        try:
            conn.request(method, path, body=body, headers={"X-Jeton": self.token,
                                                           **(headers or {})})
            response = conn.getresponse()
            raw = response.read()
        finally:
            conn.close()
        try:
            return response.status, json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError):
            return response.status, {"brut": raw[:200]}

    def post(self, path: str, data: dict) -> tuple[int, dict]:
        return self.request("POST", path, json.dumps(data).encode(),
                            {"Content-Type": "application/json"})

    def join(self, **how) -> tuple[int, dict]:
        how = how or {"cle": self.secret}
        return self.post("/api/rejoindre", {"nom": self.name, "jeton": self.token, **how})

    def state(self, since: int = -1) -> dict:
        status, data = self.request("GET", f"/api/etat?depuis={since}")
        assert status == 200, data
        return data

    def upload(self, data: bytes, envoi: str | None = None, coup: int | None = None,
               filename: str = "photo.jpg") -> tuple[int, dict]:
        envoi = envoi or uuid.uuid4().hex
        body, kind = multipart({"envoi": envoi, **({"coup": str(coup)} if coup else {})},
                               ("photo", filename, data))
        return self.request("POST", "/api/photo", body, {"Content-Type": kind})

    def act(self, seq: int, action: str, version: int, fields: dict | None = None,
            ident: str | None = None) -> tuple[int, dict]:
        body = {"id": ident or uuid.uuid4().hex, "action": action, "version": version}
        if fields is not None:
            body["champs"] = fields
        return self.post(f"/api/lecture/{seq}", body)

    def wait_readings(self, envoi: str, count: int, timeout: float = 60.0) -> list[dict]:
        """Long-poll until the ``count`` bulletins of photo ``envoi`` are read; in their order."""
        deadline = time.monotonic() + timeout
        since = -1
        while time.monotonic() < deadline:
            state = self.state(since)
            since = state["seq"]
            found = [r for r in state["lectures"] if r["envoi"] == envoi]
            if len(found) >= count:
                return sorted(found, key=lambda r: r["id"])
        raise AssertionError(f"photo {envoi} jamais lue en entier")

    def wait_reading(self, envoi: str, timeout: float = 60.0) -> dict:
        """Long-poll until the photo ``envoi`` is read; its reading as the page shows it."""
        deadline = time.monotonic() + timeout
        since = -1
        while time.monotonic() < deadline:
            state = self.state(since)
            since = state["seq"]
            for reading in state["lectures"]:
                if reading["envoi"] == envoi:
                    return reading
        raise AssertionError(f"photo {envoi} jamais lue")


def multipart(fields: dict[str, str], file: tuple[str, str, bytes]) -> tuple[bytes, str]:
    boundary = "----kiosque" + secrets.token_hex(8)
    out = bytearray()
    for name, value in fields.items():
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n"
                f"{value}\r\n").encode()
    name, filename, data = file
    out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; "
            f"filename=\"{filename}\"\r\nContent-Type: image/jpeg\r\n\r\n").encode()
    out += data + f"\r\n--{boundary}--\r\n".encode()
    return bytes(out), f"multipart/form-data; boundary={boundary}"


def wait_for(predicate, timeout: float = 30.0, every: float = 0.1):
    """The predicate's first true value; an element the page replaced while the predicate
    looked at it (the page redraws its cards when news comes) counts as « not yet »."""
    from selenium.common.exceptions import StaleElementReferenceException

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = predicate()
        except StaleElementReferenceException:
            value = None
        if value:
            return value
        time.sleep(every)
    raise AssertionError("attente trop longue")


class Browser:
    """Debian's chromium, headless, with a fresh profile; closed with its profile."""

    def __init__(self, width: int = 360, height: int = 800) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self.profile = tempfile.mkdtemp(prefix="kiosk-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = CHROMIUM
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self.profile}")
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {
            "width": width, "height": height, "pixelRatio": 2.0}})
        self.driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
        self.driver.set_script_timeout(20)

    def css(self, selector: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_element(By.CSS_SELECTOR, selector)

    def all(self, selector: str):
        from selenium.webdriver.common.by import By

        return self.driver.find_elements(By.CSS_SELECTOR, selector)

    def text(self, selector: str) -> str:
        return self.driver.execute_script(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
            selector)

    def message(self) -> str:
        return self.driver.execute_script(
            "const m = document.getElementById('message'); return m.hidden ? '' : m.textContent;")

    def offline(self, yes: bool) -> None:
        self.driver.set_network_conditions(offline=yes, latency=0, download_throughput=-1,
                                           upload_throughput=-1)

    def close(self) -> None:
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)


def chromium_env() -> None:
    """Chromium must not look for a display or a keyring."""
    os.environ.pop("DISPLAY", None)
