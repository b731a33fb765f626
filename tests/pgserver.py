"""A real PostgreSQL server from Debian's packages, started in a temporary folder on a local port.

``initdb`` refuses to run as root (the tests run as root on the project's machines): the
server then runs as ``nobody`` through ``setpriv``, its data folder owned by it. As any
other user it runs as that user. The server listens on 127.0.0.1 only, with ``trust``
authentication, and a socket in its own folder (nothing in /var/run is needed).

Used by the tests (a session fixture in ``conftest.py``), the fault tests (which kill and
restart it) and ``make bench``.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

USER = "kiosque"


def bindir() -> Path:
    """The newest installed server's programs (postgresql-15 on Debian 12)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                   key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0)
    if not found:
        raise RuntimeError("PostgreSQL absent : apt-get install postgresql (make bootstrap le fait)")
    return Path(found[-1]).parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PgServer:
    def __init__(self, fsync: bool = False) -> None:
        self.bin = bindir()
        self.root = Path(tempfile.mkdtemp(prefix="kiosk-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "serveur.log"
        self.sockets = self.root / "sockets"
        self.port = free_port()
        self.fsync = fsync
        self._as: list[str] = []
        if os.geteuid() == 0:  # initdb refuses root: run the server as nobody
            self._as = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                        "--inh-caps=-all"]
        os.chmod(self.root, 0o755)
        self.data.mkdir(mode=0o700)
        self.log.touch()
        self.sockets.mkdir()
        if self._as:
            for path in (self.data, self.log, self.sockets):
                os.chown(path, 65534, 65534)
        self._run("initdb", "-D", str(self.data), "-U", USER, "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "--no-sync")

    def _run(self, program: str, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        result = subprocess.run([*self._as, str(self.bin / program), *args], cwd=self.root,
                                capture_output=True, text=True, timeout=120)
        if check and result.returncode != 0:
            raise RuntimeError(f"{program} : {result.stderr.strip() or result.stdout.strip()}")
        return result

    @property
    def url(self) -> str:
        return self.url_for("postgres")

    def url_for(self, database: str) -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def start(self, timeout: float = 60.0) -> None:
        """Start the server as our child (so that a kill is reaped at once), wait until it
        accepts connections."""
        args = ["-D", str(self.data), "-p", str(self.port), "-k", str(self.sockets),
                "-c", "listen_addresses=127.0.0.1", "-c", f"fsync={'on' if self.fsync else 'off'}",
                "-c", "max_connections=200", "-c", "shared_buffers=32MB"]
        if not self.fsync:  # the tests kill processes, never the machine: the cache survives
            args += ["-c", "full_page_writes=off"]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen([*self._as, str(self.bin / "postgres"), *args],
                                            cwd=self.root, stdout=log, stderr=log,
                                            stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"PostgreSQL ne démarre pas : {self.log_tail()}")
            ready = self._run("pg_isready", "-h", "127.0.0.1", "-p", str(self.port), "-t", "1",
                              check=False)
            if ready.returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError(f"PostgreSQL ne répond pas : {self.log_tail()}")

    def log_tail(self) -> str:
        return " / ".join(self.log.read_text(errors="replace").splitlines()[-5:])

    def stop(self) -> None:
        """A fast shutdown (SIGINT): sessions cut, committed data kept."""
        process = getattr(self, "process", None)
        if process is None or process.poll() is not None:
            return
        process.send_signal(2)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            self.kill()

    def kill(self) -> None:
        """The server dies at once: SIGKILL to the postmaster and every backend."""
        process = getattr(self, "process", None)
        if process is None or process.poll() is not None:
            return
        found = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True)
        children = [int(p) for p in found.stdout.split()]
        if self._as:  # setpriv exec()s postgres: the same pid
            pass
        process.kill()
        process.wait()
        for each in children:
            try:
                os.kill(each, 9)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(_alive(p) for p in children):
            time.sleep(0.02)

    def running(self) -> bool:
        process = getattr(self, "process", None)
        return process is not None and process.poll() is None

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url_for(name)

    def cleanup(self) -> None:
        self.kill()
        shutil.rmtree(self.root, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie no one reaped yet is dead for our purpose
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False

