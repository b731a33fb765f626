"""The game's journal: one SQLite file per game, events appended, never rewritten.

Why SQLite: a committed transaction survives ``kill -9`` and a power cut
(WAL + ``synchronous=FULL``), and several arbiter stations on one machine can
append to the same file (SQLite's locking, ``BEGIN IMMEDIATE``, a busy
timeout). The state of the game is never stored: it is rebuilt from the
events (:mod:`kiosk.session`). A file that is not one of our journals, or that
fails SQLite's integrity check, is refused and left untouched.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

FORMAT = "duplicate-kiosk/journal"
VERSION = 1
SUFFIX = ".partie"
BUSY_TIMEOUT_MS = 20_000

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL,
    data TEXT NOT NULL,
    station TEXT NOT NULL,
    at REAL NOT NULL
);
"""


class JournalError(Exception):
    """A journal that cannot be used; the message says why, in French."""


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    data: dict[str, Any]
    station: str


class Journal:
    """An open game file. Every ``append`` is committed and on disk when it returns."""

    def __init__(self, path: Path, conn: sqlite3.Connection, station: str) -> None:
        self.path = path
        self._conn = conn
        self.station = station

    # -- opening -------------------------------------------------------------------------
    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        return conn

    @classmethod
    def create(cls, path: str | Path, meta: dict[str, str], station: str = "kiosque",
               first: tuple[str, dict] | None = None) -> Journal:
        """A new game file, with its ``first`` event (the settings); never over an existing file.

        The file is built under a temporary name and linked into place complete,
        so a crash while creating leaves no half-made game behind.
        """
        path = Path(path)
        if path.exists():
            raise JournalError(f"le fichier de partie existe déjà : {path} (rien n'a été écrasé)")
        try:
            cls._build(path, meta, station, first)
        except (OSError, sqlite3.Error) as exc:
            raise JournalError(f"impossible de créer le fichier de partie {path} (dossier absent "
                               "ou non accessible en écriture, disque plein ?)") from exc
        return cls.open(path, station)

    @classmethod
    def _build(cls, path: Path, meta: dict[str, str], station: str,
               first: tuple[str, dict] | None) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".creation")
        tmp.unlink(missing_ok=True)
        conn = cls._connect(tmp)
        try:
            conn.execute("PRAGMA journal_mode=DELETE")
            conn.executescript(_SCHEMA)
            rows = {"format": FORMAT, "version": str(VERSION), "created": str(time.time()), **meta}
            conn.execute("BEGIN")
            conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(rows.items()))
            if first is not None:
                conn.execute("INSERT INTO events (kind, data, station, at) VALUES (?, ?, ?, ?)",
                             (first[0], json.dumps(first[1], ensure_ascii=False, sort_keys=True),
                              station, time.time()))
            conn.execute("COMMIT")
        finally:
            conn.close()
        # Only a complete, valid file ever gets the final name.
        try:
            os.link(tmp, path)  # fails if the name appeared meanwhile: never overwrite
        except FileExistsError as exc:
            raise JournalError(f"le fichier de partie existe déjà : {path}") from exc
        except OSError:  # no hard links here (a FAT USB key…): rename, after a last check
            if path.exists():
                raise JournalError(f"le fichier de partie existe déjà : {path}") from None
            tmp.replace(path)
        finally:
            tmp.unlink(missing_ok=True)

    @classmethod
    def open(cls, path: str | Path, station: str = "kiosque") -> Journal:
        """Open an existing game file, checking it is one of ours and sound."""
        path = Path(path)
        if not path.is_file():
            raise JournalError(f"fichier de partie introuvable : {path}")
        with open(path, "rb") as handle:
            head = handle.read(16)
        if head != b"SQLite format 3\x00":
            raise JournalError(f"{path} n'est pas un fichier de partie du kiosque "
                               "(fichier endommagé ou d'un autre type) : il n'a pas été modifié")
        try:
            conn = sqlite3.connect(f"file:{path}?mode=rw", uri=True,
                                   timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            check = conn.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                conn.close()
                raise JournalError(f"fichier de partie endommagé : {path} (contrôle "
                                   "d'intégrité en échec) ; il n'a pas été modifié")
            meta = dict(conn.execute("SELECT key, value FROM meta"))
            conn.execute("SELECT seq, kind, data FROM events LIMIT 1").fetchall()
        except sqlite3.DatabaseError as exc:  # SQLite's own words are English: not shown
            reason = "fichier verrouillé par un autre programme" if "locked" in str(exc) \
                else "base de données illisible"
            raise JournalError(f"fichier de partie endommagé ou illisible : {path} ({reason}) ; "
                               "il n'a pas été modifié") from exc
        if meta.get("format") != FORMAT:
            conn.close()
            raise JournalError(f"{path} n'est pas un fichier de partie du kiosque")
        if meta.get("version") != str(VERSION):
            conn.close()
            raise JournalError(f"{path} : version {meta.get('version')} du journal "
                               "non prise en charge")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        return cls(path, conn, station)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading and writing -------------------------------------------------------------
    @property
    def meta(self) -> dict[str, str]:
        return dict(self._conn.execute("SELECT key, value FROM meta"))

    def append(self, kind: str, data: dict[str, Any] | None = None) -> Event:
        """Commit one event; when this returns it is on disk (synchronous FULL)."""
        text = json.dumps(data or {}, ensure_ascii=False, sort_keys=True)
        conn = self._conn
        conn.execute("BEGIN IMMEDIATE")
        try:
            cursor = conn.execute(
                "INSERT INTO events (kind, data, station, at) VALUES (?, ?, ?, ?)",
                (kind, text, self.station, time.time()))
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        return Event(int(cursor.lastrowid), kind, json.loads(text), self.station)

    def events(self, after: int = 0) -> list[Event]:
        rows = self._conn.execute(
            "SELECT seq, kind, data, station FROM events WHERE seq > ? ORDER BY seq", (after,))
        events = []
        for seq, kind, data, station in rows:
            try:
                value = json.loads(data)
            except (json.JSONDecodeError, TypeError) as exc:
                raise JournalError(f"fichier de partie endommagé : {self.path} (événement {seq} "
                                   "illisible) ; il n'a pas été modifié") from exc
            if not isinstance(value, dict):
                raise JournalError(f"fichier de partie endommagé : {self.path} (événement {seq} "
                                   "sans données) ; il n'a pas été modifié")
            events.append(Event(seq, kind, value, station))
        return events

    def last_seq(self) -> int:
        return int(self._conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])


def games_dir() -> Path:
    """Where game files live: ``$KIOSK_PARTIES``, else the user's data folder."""
    if os.environ.get("KIOSK_PARTIES"):
        return Path(os.environ["KIOSK_PARTIES"])
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "duplicate-kiosk" / "parties"


def new_game_path(prefix: str = "partie") -> Path:
    """A fresh file name in :func:`games_dir`, dated so that the list sorts by time."""
    folder = games_dir()
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{prefix}-{stamp}{SUFFIX}"
    n = 2
    while path.exists():
        path = folder / f"{prefix}-{stamp}-{n}{SUFFIX}"
        n += 1
    return path


def last_game() -> Path | None:
    """The most recently written game file, for ``kiosk reprendre`` without a name."""
    folder = games_dir()
    if not folder.is_dir():
        return None
    files = [p for p in folder.glob(f"*{SUFFIX}") if p.is_file()]
    return max(files, key=lambda p: (_written_at(p), p.name)) if files else None


def _written_at(path: Path) -> float:
    """Last write, the WAL file included (the main file changes only at checkpoints)."""
    wal = path.with_name(path.name + "-wal")
    return max(path.stat().st_mtime, wal.stat().st_mtime if wal.exists() else 0.0)
