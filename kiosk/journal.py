"""The game's journal: events appended, never rewritten; here the SQLite file, one per game.

Two stores keep the same events behind one interface (:class:`JournalBase`):
this SQLite file (the default, embedded: a club needs nothing else) and a
PostgreSQL database shared by the rooms of a tournament (:mod:`kiosk.pgjournal`).
:mod:`kiosk.session` replays either the same way.

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
from collections.abc import Callable
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


class JournalStale(Exception):
    """A conditional append (``after``) found other events written since: nothing written."""


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
    at: float = 0.0  # when it was written (seconds since the epoch)
    #: the same idempotency key was already journaled: this is that event, nothing was written
    duplicate: bool = False


def encode(data: dict[str, Any] | None) -> str:
    """An event's data as stored: JSON text (a lone surrogate, from a Latin-1 file name, escaped)."""
    text = json.dumps(data or {}, ensure_ascii=False, sort_keys=True)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data or {}, ensure_ascii=True, sort_keys=True)
    return text


def decode(seq: int, kind: str, data: Any, station: str, at: float = 0.0) -> Event:
    """A stored row as an event; data that does not read is kept as a damaged event."""
    try:
        value = json.loads(data)
    except (json.JSONDecodeError, TypeError, ValueError, RecursionError):
        return Event(int(seq), str(kind), {}, str(station), "données illisibles", float(at or 0))
    if not isinstance(value, dict):
        return Event(int(seq), str(kind), {}, str(station), "données sans forme", float(at or 0))
    return Event(int(seq), str(kind), value, str(station), None, float(at or 0))


class JournalBase:
    """What the session, the machine and the commands use of a journal, whatever the store.

    Every ``append`` is committed when it returns (or, for a database out of reach,
    kept on this machine until it is: see :attr:`waiting`). ``key`` makes an append
    idempotent: the same key twice writes one event (a station retrying a
    confirmation, a queue sent again after a crash).
    """

    station: str
    #: bumped when events this journal returned changed their numbers (a queue sent after
    #: a cut, with other writers in between): the session then replays the whole game
    epoch: int = 0

    @property
    def label(self) -> str:
        """The game as a person names it (a file, or a game in a database)."""
        raise NotImplementedError

    @property
    def meta(self) -> dict[str, str]:
        raise NotImplementedError

    def append(self, kind: str, data: dict[str, Any] | None = None, station: str | None = None,
               key: str | None = None, after: int | None = None) -> Event:
        """``after``: write only if the game's last event is still ``after``, checked under
        the store's write lock (else :class:`JournalStale`, nothing written): a check made
        on the state at ``after`` and its write are then one transaction."""
        raise NotImplementedError

    def events(self, after: int = 0) -> list[Event]:
        raise NotImplementedError

    def last_seq(self) -> int:
        raise NotImplementedError

    def checkpoint(self) -> None:
        """Make the stored game complete by itself (SQLite: the WAL copied in); may do nothing."""

    def lock_room(self) -> None:
        raise NotImplementedError

    def unlock_room(self) -> None:
        raise NotImplementedError

    def backup(self, dest: str | Path) -> Path:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    @property
    def waiting(self) -> int:
        """Events kept on this machine, not yet in the store (a database out of reach)."""
        return 0

    def notice(self) -> str | None:
        """What the juge-arbitre must be told about the store now (French), once; else None."""
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Journal(JournalBase):
    """An open game file. Every ``append`` is committed and on disk when it returns."""

    def __init__(self, path: Path, conn: sqlite3.Connection, station: str) -> None:
        self.path = path
        self._conn = conn
        self.station = station
        self._room_fd: int | None = None

    @property
    def label(self) -> str:
        return str(self.path)

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
        dest = backup_target(dest, self.path.name)
        if dest.exists() and dest.resolve() == self.path.resolve():
            raise JournalError("la copie de sauvegarde doit aller ailleurs que la partie")

        def fill(tmp: Path) -> None:
            target = sqlite3.connect(str(tmp))
            try:
                self._conn.backup(target)
                target.execute("PRAGMA journal_mode=DELETE")  # one self-contained file
            finally:
                target.close()

        return publish_copy(dest, fill)

    # -- reading and writing -------------------------------------------------------------
    @property
    def meta(self) -> dict[str, str]:
        return dict(self._conn.execute("SELECT key, value FROM meta"))

    def append(self, kind: str, data: dict[str, Any] | None = None, station: str | None = None,
               key: str | None = None, after: int | None = None) -> Event:
        """Commit one event; when this returns it is on disk (synchronous FULL).

        ``station`` names who did it when one process writes for several; ``key``: an
        event already journaled with this key is returned (``duplicate``), nothing written;
        ``after``: see :meth:`JournalBase.append` (checked inside ``BEGIN IMMEDIATE``).
        """
        text = encode(data)
        station = station or self.station
        at = time.time()
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if key is not None:
                    # made on the first keyed event: older files stay as they are
                    conn.execute("CREATE TABLE IF NOT EXISTS event_keys "
                                 "(key TEXT PRIMARY KEY, seq INTEGER NOT NULL)")
                    known = conn.execute("SELECT seq FROM event_keys WHERE key = ?",
                                         (key,)).fetchone()
                    if known is not None:
                        conn.execute("COMMIT")
                        event = self._event(int(known[0]))
                        return Event(event.seq, event.kind, event.data, event.station,
                                     event.damaged, event.at, duplicate=True)
                if after is not None and conn.execute(
                        "SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()[0] != after:
                    conn.execute("ROLLBACK")
                    raise JournalStale(after)
                cursor = conn.execute(
                    "INSERT INTO events (kind, data, station, at) VALUES (?, ?, ?, ?)",
                    (kind, text, station, at))
                if key is not None:
                    conn.execute("INSERT INTO event_keys VALUES (?, ?)", (key, cursor.lastrowid))
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
        return Event(int(cursor.lastrowid), kind, json.loads(text), station, None, at)

    def _event(self, seq: int) -> Event:
        row = self._conn.execute("SELECT seq, kind, data, station, at FROM events WHERE seq = ?",
                                 (seq,)).fetchone()
        return decode(*row)

    def events(self, after: int = 0) -> list[Event]:
        rows = self._conn.execute(
            "SELECT seq, kind, data, station, at FROM events WHERE seq > ? ORDER BY seq",
            (after,))
        try:
            return [decode(*row) for row in rows]
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"fichier de partie endommagé : {self.path} "
                               f"({sqlite_reason(exc)}) ; il n'a pas été modifié") from exc

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


def backup_target(dest: str | Path, name: str) -> Path:
    """Where a copy goes (``dest`` a folder: ``name`` in it), refused when that is a file that
    is not a game or a folder that does not exist."""
    dest = Path(dest)
    if dest.is_dir():
        dest = dest / name
    if dest.exists() or dest.is_symlink():
        if not dest.is_file() or not _is_journal(dest):
            raise JournalError(f"{dest} existe et n'est pas une partie du kiosque : rien n'a "
                               "été écrit (choisissez un autre nom)")
    if not dest.parent.is_dir():
        raise JournalError(f"dossier de sauvegarde introuvable : {dest.parent}")
    return dest


def publish_copy(dest: Path, fill: Callable[[Path], None]) -> Path:
    """``fill`` writes the copy into a temporary file beside ``dest``; it is made durable then
    put in place at once (a copy is whole or absent, never half)."""
    tmp = dest.with_name(f".{dest.name}.{os.getpid()}.copie")
    try:
        tmp.unlink(missing_ok=True)
        fill(tmp)
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, dest)
    except (OSError, sqlite3.Error) as exc:
        tmp.unlink(missing_ok=True)
        reason = sqlite_reason(exc) if isinstance(exc, sqlite3.Error) else _os_text(exc)
        raise JournalError(f"copie de sauvegarde impossible : {dest} ({reason}) ; "
                           "rien n'a été écrit") from exc
    return dest


def write_copy(dest: Path, name: str, meta: dict[str, str], events: list[Event]) -> Path:
    """A game file made from events read elsewhere (a game of a database): same meta, same
    numbers, one self-contained file. ``dest`` a folder means ``name`` in it; a file that is
    not a game is never replaced."""

    def fill(tmp: Path) -> None:
        conn = sqlite3.connect(str(tmp), isolation_level=None)
        try:
            conn.executescript(_SCHEMA)
            conn.execute("BEGIN")
            conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
            conn.executemany("INSERT INTO events (seq, kind, data, station, at) "
                             "VALUES (?, ?, ?, ?, ?)",
                             [(e.seq, e.kind, encode(e.data), e.station, e.at) for e in events])
            conn.execute("COMMIT")
        finally:
            conn.close()

    return publish_copy(backup_target(dest, name), fill)
