"""The game's journal: one SQLite file per game, events appended, never rewritten.

Why SQLite: a committed transaction survives ``kill -9`` and a power cut
(WAL + ``synchronous=FULL``), and several arbiter stations on one machine can
append to the same file (SQLite's locking, ``BEGIN IMMEDIATE``, a busy
timeout). The state of the game is never stored: it is rebuilt from the
events (:mod:`kiosk.session`). A file that is not one of our journals, or that
fails SQLite's integrity check, is refused and left untouched.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
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


def sqlite_reason(exc: BaseException) -> str:
    """SQLite's English error as the French reason a user can act on."""
    text = str(exc).lower()
    if "disk is full" in text or "database or disk is full" in text:
        return "disque plein"
    if "readonly" in text or "read-only" in text:
        return "fichier ou dossier en lecture seule"
    if "locked" in text or "busy" in text:
        return "fichier verrouillé par un autre programme"
    if "disk i/o" in text:
        return "erreur d'entrée-sortie sur le disque (support retiré ou défectueux ?)"
    if "unable to open" in text:
        return "fichier impossible à ouvrir (dossier non accessible en écriture ?)"
    if "malformed" in text or "not a database" in text:
        return "base de données endommagée"
    return "erreur de la base de données"


#: the lock file beside a game that a room process holds (see :meth:`Journal.lock_room`)
ROOM_SUFFIX = ".salle"


@dataclass(frozen=True)
class Event:
    seq: int
    kind: str
    data: dict[str, Any]
    station: str
    #: why the stored data could not be read (then ``data`` is empty); None when sound
    damaged: str | None = None


class Journal:
    """An open game file. Every ``append`` is committed and on disk when it returns."""

    def __init__(self, path: Path, conn: sqlite3.Connection, station: str) -> None:
        self.path = path
        self._conn = conn
        self.station = station
        self._room_fd: int | None = None

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
        try:
            with open(path, "rb") as handle:
                head = handle.read(16)
        except OSError as exc:
            raise JournalError(f"fichier de partie illisible : {path} (lecture non autorisée "
                               "ou support défectueux) ; il n'a pas été modifié") from exc
        cls._check_writable(path)
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
            reason = sqlite_reason(exc)
            if reason == "erreur de la base de données":
                reason = "base de données illisible"
            raise JournalError(f"fichier de partie endommagé ou illisible : {path} ({reason}) ; "
                               "il n'a pas été modifié") from exc
        if meta.get("format") != FORMAT:
            conn.close()
            raise JournalError(f"{path} n'est pas un fichier de partie du kiosque")
        if meta.get("version") != str(VERSION):
            conn.close()
            raise JournalError(f"{path} : version {meta.get('version')} du journal "
                               "non prise en charge")
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
        except sqlite3.Error as exc:
            conn.close()
            raise JournalError(f"fichier de partie impossible à ouvrir en écriture : {path} "
                               f"({sqlite_reason(exc)}) ; il n'a pas été modifié") from exc
        return cls(path, conn, station)

    @staticmethod
    def _check_writable(path: Path) -> None:
        """Refuse up front a game that could be read but not written (every key would fail).

        The file itself and its folder (SQLite creates PARTIE-wal and PARTIE-shm
        beside it) must be writable: tried for real, since root is always told
        « yes » by ``os.access``.
        """
        from engine.files import writable_dir

        try:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND)
            os.close(fd)
        except OSError as exc:
            raise JournalError(f"fichier de partie en lecture seule : {path} ; il n'a pas été "
                               "modifié (copiez-le dans un dossier modifiable, ou rendez-le "
                               "modifiable)") from exc
        if not writable_dir(path.parent):
            raise JournalError(f"le dossier de la partie n'est pas modifiable : {path.parent} "
                               "(le kiosque doit pouvoir y écrire à côté du fichier) ; la partie "
                               "n'a pas été modifiée")

    def close(self) -> None:
        """Checkpoint (the .partie file alone is then the whole game), release, close."""
        self.checkpoint()
        self.unlock_room()
        self._conn.close()

    def checkpoint(self) -> None:
        """Copy the WAL into the main file, so that a copy of the .partie alone is complete.

        Done at the end of each coup and on quit: between two, a copy taken without its
        -wal file would lack the last events. Never fatal (another station may be reading).
        """
        try:
            self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            pass

    # -- one room per game -----------------------------------------------------------------
    def lock_room(self) -> None:
        """Take the game for this room process, or say in French who has it.

        An exclusive ``flock`` on ``PARTIE.salle``: the system releases it when the
        process ends in any way (kill -9, power cut), so a lock left by a crash is
        simply taken again. Stations reading bulletins (``kiosk lire``) do not take it.
        """
        if self._room_fd is not None:
            return
        lock = self.path.with_name(self.path.name + ROOM_SUFFIX)
        for _ in range(5):
            try:
                fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                raise JournalError(f"impossible de réserver la partie pour cette salle : {lock} "
                                   "(dossier non modifiable ?)") from exc
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = _read_holder(fd)
                os.close(fd)
                raise JournalError(f"cette partie est déjà ouverte dans une autre salle "
                                   f"({holder}) : une seule salle par partie ; fermez l'autre "
                                   "kiosque d'abord (les postes « kiosk lire » restent permis)"
                                   ) from None
            try:
                same = os.fstat(fd).st_ino == os.stat(lock).st_ino
            except OSError:
                same = False
            if same:  # not a file the previous holder removed meanwhile
                break
            os.close(fd)
        else:
            raise JournalError(f"impossible de réserver la partie pour cette salle : {lock}")
        info = f"processus {os.getpid()} sur {socket.gethostname()} depuis " \
            f"{time.strftime('%d/%m %H:%M')}"
        try:
            os.ftruncate(fd, 0)
            os.write(fd, info.encode("utf-8"))
        except OSError:
            pass  # the lock is what matters, the text only helps the message
        self._room_fd = fd

    def unlock_room(self) -> None:
        if self._room_fd is None:
            return
        lock = self.path.with_name(self.path.name + ROOM_SUFFIX)
        try:
            lock.unlink()  # while still locked: the next room makes a new file
        except OSError:
            pass
        os.close(self._room_fd)
        self._room_fd = None

    # -- copies ------------------------------------------------------------------------------
    def backup(self, dest: str | Path) -> Path:
        """A complete, consistent copy of the game in one file, made with SQLite's backup API.

        Safe while the room plays (events committed meanwhile are in the copy or
        not, never half); ``dest`` a folder means the same name in it. A file that
        is not a game is never replaced.
        """
        dest = Path(dest)
        if dest.is_dir():
            dest = dest / self.path.name
        if dest.exists() or dest.is_symlink():
            if not dest.is_file() or not _is_journal(dest):
                raise JournalError(f"{dest} existe et n'est pas une partie du kiosque : rien n'a "
                                   "été écrit (choisissez un autre nom)")
            if dest.resolve() == self.path.resolve():
                raise JournalError("la copie de sauvegarde doit aller ailleurs que la partie")
        if not dest.parent.is_dir():
            raise JournalError(f"dossier de sauvegarde introuvable : {dest.parent}")
        tmp = dest.with_name(f".{dest.name}.{os.getpid()}.copie")
        try:
            target = sqlite3.connect(str(tmp))
            try:
                self._conn.backup(target)
                target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                target.close()
            with open(tmp, "rb+") as handle:
                os.fsync(handle.fileno())
            os.replace(tmp, dest)
        except (OSError, sqlite3.Error) as exc:
            tmp.unlink(missing_ok=True)
            reason = sqlite_reason(exc) if isinstance(exc, sqlite3.Error) else _os_text(exc)
            raise JournalError(f"copie de sauvegarde impossible : {dest} ({reason}) ; "
                               "rien n'a été écrit") from exc
        return dest

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
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate (a Latin-1 file name): kept, escaped
            text = json.dumps(data or {}, ensure_ascii=True, sort_keys=True)
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                cursor = conn.execute(
                    "INSERT INTO events (kind, data, station, at) VALUES (?, ?, ?, ?)",
                    (kind, text, self.station, time.time()))
                conn.execute("COMMIT")
            except BaseException:
                # SQLite may already have rolled back by itself (disk full): a ROLLBACK
                # then fails with « no transaction is active » and would hide the reason.
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                raise
        except sqlite3.Error as exc:
            raise JournalError(f"écriture du journal impossible ({sqlite_reason(exc)}) : "
                               "cette action n'est pas enregistrée, ce qui l'était avant est "
                               "intact") from exc
        return Event(int(cursor.lastrowid), kind, json.loads(text), self.station)

    def events(self, after: int = 0) -> list[Event]:
        rows = self._conn.execute(
            "SELECT seq, kind, data, station FROM events WHERE seq > ? ORDER BY seq", (after,))
        events = []
        try:
            for seq, kind, data, station in rows:
                try:
                    value = json.loads(data)
                except (json.JSONDecodeError, TypeError, ValueError, RecursionError):
                    events.append(Event(seq, str(kind), {}, str(station), "données illisibles"))
                    continue
                if not isinstance(value, dict):
                    events.append(Event(seq, str(kind), {}, str(station), "données sans forme"))
                    continue
                events.append(Event(seq, str(kind), value, str(station)))
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"fichier de partie endommagé : {self.path} "
                               f"({sqlite_reason(exc)}) ; il n'a pas été modifié") from exc
        return events

    def last_seq(self) -> int:
        return int(self._conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0])


def games_dir() -> Path:
    """Where game files live: ``$KIOSK_PARTIES``, else the user's data folder."""
    if os.environ.get("KIOSK_PARTIES"):
        return Path(os.environ["KIOSK_PARTIES"])
    if os.environ.get("XDG_DATA_HOME"):
        return Path(os.environ["XDG_DATA_HOME"]) / "duplicate-kiosk" / "parties"
    from engine.files import home

    user = home()
    if user is None:
        raise JournalError("dossier des parties inconnu : pas de dossier personnel (HOME non "
                           "défini, utilisateur sans compte) ; définissez KIOSK_PARTIES ou "
                           "donnez le fichier de la partie")
    return user / ".local" / "share" / "duplicate-kiosk" / "parties"


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


def _read_holder(fd: int) -> str:
    """What the lock file says about the room holding it."""
    try:
        text = os.pread(fd, 200, 0).decode("utf-8", "replace").strip()
    except OSError:
        text = ""
    return text or "un autre processus"


def _is_journal(path: Path) -> bool:
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == b"SQLite format 3\x00"
    except OSError:
        return False


def _os_text(exc: OSError) -> str:
    from engine.files import os_reason

    return os_reason(exc)
