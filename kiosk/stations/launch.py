"""The kiosk starts the station server as a child process, and it ends with the kiosk.

A child process has its own interpreter (its own GIL): the requests and the
workers it starts never take a frame from the room. Its standard input is a
pipe from the kiosk: when the kiosk exits, even killed, the pipe closes and
the server stops by itself. What it has to say goes to a log beside the games.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

from ..storage import Locator

START_SECONDS = 30.0
#: the database's URL for the server process (a password stays out of the command line)
BASE_VARIABLE = "KIOSK_BASE_POSTES"


class StationsError(Exception):
    """The server could not start; French message (the game goes on without stations)."""


class StationsProcess:
    def __init__(self, process: subprocess.Popen, url: str, log: Path) -> None:
        self.process = process
        self.url = url
        self.log = log

    @classmethod
    def start(cls, game: Path | Locator, lexicon: str | None, host: str = "0.0.0.0",
              port: int | None = None, workers: int | None = None,
              log: Path | None = None, timeout: float = START_SECONDS) -> StationsProcess:
        """``game``: a game file, or where a game is (:class:`~kiosk.storage.Locator`: a
        database's game is named, its URL given through the environment, never on the
        command line where ``ps`` would show its password)."""
        where = game if isinstance(game, Locator) else Locator(path=Path(game))
        log = log or where.beside("-postes.log")
        target = str(where.path) if where.path is not None else str(where.name)
        command = [sys.executable, "-m", "kiosk.stations", target, "--hote", host,
                   "--avec-kiosque"]
        if lexicon:
            command += ["--lexique", str(lexicon)]
        if port is not None:
            command += ["--port", str(port)]
        if workers:
            command += ["--lecteurs", str(workers)]
        root = str(Path(__file__).resolve().parents[2])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH", "")) if p))
        env.pop(BASE_VARIABLE, None)
        if where.url is not None:
            env[BASE_VARIABLE] = where.url
        log.parent.mkdir(parents=True, exist_ok=True)
        with open(log, "ab") as err:
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=err, env=env)
        line = _first_line(process, timeout)
        if not line.startswith("PRET "):
            process.kill()
            process.wait()
            reason = line[len("ERREUR "):] if line.startswith("ERREUR ") else \
                f"pas de réponse (détails : {log})"
            raise StationsError(f"postes d'arbitrage non ouverts : {reason}")
        return cls(process, line[len("PRET "):], log)

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = 10.0) -> None:
        """Close its input (it finishes the request in hand), then wait; kill if it hangs."""
        if self.process.poll() is not None:
            return
        try:
            self.process.stdin.close()
        except OSError:
            pass
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _first_line(process: subprocess.Popen, timeout: float) -> str:
    deadline = time.monotonic() + timeout
    buffer = b""
    fd = process.stdout.fileno()
    while time.monotonic() < deadline and b"\n" not in buffer:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            chunk = os.read(fd, 4096)
            if not chunk:
                break
            buffer += chunk
        elif process.poll() is not None:
            break
    return buffer.split(b"\n", 1)[0].decode("utf-8", "replace").strip()
