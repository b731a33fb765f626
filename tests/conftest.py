"""Shared fixtures: the real lexicon, a real PostgreSQL server for the session, and ``store``,
which runs a test on both journals (the SQLite file and the PostgreSQL database) with the same
code."""

from __future__ import annotations

import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from pgserver import PgServer  # noqa: E402

from engine.lexicon import Lexicon  # noqa: E402


@pytest.fixture(scope="session")
def lexicon() -> Lexicon:
    """The shipped word list, loaded once (a lexicon is read-only)."""
    return Lexicon.load()


@pytest.fixture(scope="session")
def pg_server():
    """One server for the whole run (started only when a test asks for it)."""
    server = PgServer()
    server.start()
    yield server
    server.cleanup()


@pytest.fixture(scope="session")
def pg_url(pg_server) -> str:
    return pg_server.create_database("kiosque_tests")


class Store:
    """Makes and opens games the same way on both stores; ``name`` is the game's file name
    (SQLite) or its name in the database (PostgreSQL, made unique per test)."""

    def __init__(self, kind: str, folder: Path, url: str | None) -> None:
        self.kind = kind
        self.folder = folder
        self.url = url
        self.prefix = uuid.uuid4().hex[:8]

    def target(self, name: str) -> str:
        return str(self.folder / name) if self.kind == "sqlite" else f"{self.prefix}-{name}"

    def create(self, name: str, meta: dict, station: str = "kiosque", first=None):
        from kiosk.journal import Journal
        from kiosk.pgjournal import PgJournal

        if self.kind == "sqlite":
            return Journal.create(self.target(name), meta, station, first=first)
        return PgJournal.create(self.url, self.target(name), meta, station, first=first)

    def open(self, name: str, station: str = "kiosque"):
        from kiosk.journal import Journal
        from kiosk.pgjournal import PgJournal

        if self.kind == "sqlite":
            return Journal.open(self.target(name), station)
        return PgJournal.open(self.url, self.target(name), station)

    def cli(self, name: str) -> list[str]:
        """The options naming this game on the command line."""
        if self.kind == "sqlite":
            return ["--partie", self.target(name)]
        return ["--base", self.url, "--partie", self.target(name)]


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path, monkeypatch) -> Store:
    monkeypatch.setenv("KIOSK_PARTIES", str(tmp_path / "parties"))
    url = request.getfixturevalue("pg_url") if request.param == "postgresql" else None
    return Store(request.param, tmp_path, url)
