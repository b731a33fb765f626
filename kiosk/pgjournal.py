"""The journal in a PostgreSQL database: the rooms of a tournament share one server.

The same events as the SQLite file (:mod:`kiosk.journal`), numbered per game
from 1 without gaps, replayed by the same session. What the server adds:

- appends to one game are serialised by a row lock on the game (``UPDATE games
  SET last_seq = last_seq + 1 … RETURNING``, in the event's own transaction), so
  the room kiosk, its stations and ``kiosk lire`` write in one order, as with
  SQLite's ``BEGIN IMMEDIATE``;
- every event has an idempotency key (the station's action id, or one made
  here), unique per game: an append sent again after a lost answer, or a queue
  sent again after a crash, writes nothing the second time;
- one room kiosk per game: an advisory lock held by the kiosk's connection,
  released by the server when that connection ends (kill -9, power cut).

A room that loses the server goes on: the events are kept in a local queue (a
small SQLite file beside the games, on disk before the append returns) and
sent in order, with their keys, by a background thread once the server
answers again; the juge-arbitre is told both times (:meth:`PgJournal.notice`).
If other writers got in between, the events have new numbers: ``epoch`` changes
and the session replays the game in the server's order.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import socket
import sqlite3
import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .journal import (
    FORMAT,
    VERSION,
    Event,
    JournalBase,
    JournalError,
    JournalStale,
    decode,
    encode,
    games_dir,
)

SCHEMA_VERSION = 1
#: advisory lock keys: (this namespace, game id) for rooms, (namespace + 1, 0) for the schema
LOCK_NAMESPACE = 0x4B53
CHANNEL = "kiosque_evenements"
CONNECT_SECONDS = 3
#: how often the background thread tries the server again after a cut
RETRY_SECONDS = 1.0

SCHEMA = """
CREATE TABLE IF NOT EXISTS kiosk_schema (version integer NOT NULL);
CREATE TABLE IF NOT EXISTS tournaments (
    name text PRIMARY KEY,
    created double precision NOT NULL,
    settings text NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id bigserial PRIMARY KEY,
    name text NOT NULL UNIQUE,
    tournament text REFERENCES tournaments(name),
    room text,
    meta text NOT NULL,
    last_seq bigint NOT NULL DEFAULT 0,
    created double precision NOT NULL,
    UNIQUE (tournament, room)
);
CREATE TABLE IF NOT EXISTS events (
    game bigint NOT NULL REFERENCES games(id),
    seq bigint NOT NULL,
    kind text NOT NULL,
    data text NOT NULL,
    station text NOT NULL,
    at double precision NOT NULL,
    idem_key text NOT NULL,
    PRIMARY KEY (game, seq),
    UNIQUE (game, idem_key)
);
CREATE TABLE IF NOT EXISTS players (
    tournament text NOT NULL REFERENCES tournaments(name),
    table_no integer NOT NULL,
    room text NOT NULL,
    name text NOT NULL,
    PRIMARY KEY (tournament, table_no)
);
CREATE TABLE IF NOT EXISTS room_holders (
    game bigint PRIMARY KEY REFERENCES games(id),
    holder text NOT NULL,
    token text NOT NULL,
    backend integer NOT NULL
);
"""

#: psycopg's errors that mean « the server is out of reach » (the event is then queued)
try:
    import psycopg
    from psycopg import errors as pg_errors

    LINK_ERRORS: tuple[type[BaseException], ...] = (psycopg.OperationalError,
                                                    psycopg.InterfaceError)
except ImportError:  # pragma: no cover - the lock installs it; said in French when used
    psycopg = None  # type: ignore[assignment]
    pg_errors = None  # type: ignore[assignment]
    LINK_ERRORS = ()


def is_url(text: str | None) -> bool:
    return bool(text) and str(text).startswith(("postgresql://", "postgres://"))


def pg_reason(exc: BaseException) -> str:
    """The server's or libpq's English error as a French reason a person can act on."""
    text = str(exc).lower()
    if "password" in text and ("failed" in text or "supplied" in text):
        return "mot de passe refusé par le serveur"
    if "does not exist" in text and "database" in text:
        return "base de données inconnue sur ce serveur"
    if "role" in text and "does not exist" in text:
        return "utilisateur inconnu du serveur"
    if "refused" in text or "no such file" in text or "could not connect" in text:
        return "serveur arrêté ou injoignable"
    if "timeout" in text or "timed out" in text or "canceling statement" in text:
        return "le serveur ne répond pas à temps"
    if "could not translate host" in text or "name or service" in text:
        return "nom du serveur inconnu"
    if "terminat" in text or "closed" in text or "lost" in text or "server closed" in text:
        return "connexion au serveur coupée"
    if "no space" in text or "disk full" in text:
        return "disque du serveur plein"
    if "permission denied" in text:
        return "droits insuffisants sur la base"
    if "read-only" in text:
        return "base en lecture seule"
    return "erreur du serveur de base de données"


def safe_url(url: str) -> str:
    """The URL as shown to people: never the password."""
    parts = urlsplit(url)
    if parts.password:
        host = parts.hostname or ""
        if parts.port:
            host += f":{parts.port}"
        user = f"{parts.username}@" if parts.username else ""
        parts = parts._replace(netloc=user + host)
    return urlunsplit(parts)


class Base:
    """A database given by its URL: connections with short timeouts, the schema made once."""

    def __init__(self, url: str) -> None:
        if psycopg is None:
            raise JournalError("PostgreSQL indisponible : le paquet psycopg n'est pas installé "
                               "(make bootstrap)")
        if not is_url(url):
            raise JournalError(f"adresse de base non valable : {url} (attendu "
                               "postgresql://utilisateur@serveur/base)")
        self.url = url
        self.label = safe_url(url)
        self._schema_checked = False

    def connect(self) -> psycopg.Connection:
        """A connection in autocommit (each transaction explicit), or JournalError in French."""
        try:
            conn = psycopg.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_SECONDS,
                application_name="kiosque", keepalives=1, keepalives_idle=5,
                keepalives_interval=2, keepalives_count=2, tcp_user_timeout=6000,
                # the server forgets a vanished kiosk within seconds (its room lock with it)
                options="-c statement_timeout=15000 -c lock_timeout=10000 "
                        "-c idle_in_transaction_session_timeout=30000 "
                        "-c tcp_keepalives_idle=5 -c tcp_keepalives_interval=2 "
                        "-c tcp_keepalives_count=2")
        except psycopg.Error as exc:
            raise JournalError(f"base de données {self.label} injoignable "
                               f"({pg_reason(exc)})") from exc
        if not self._schema_checked:
            self._ensure_schema(conn)
        return conn

    def _ensure_schema(self, conn) -> None:
        """Make the tables on first use; refuse a database made by another version."""
        try:
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", (LOCK_NAMESPACE + 1,))
                conn.execute(SCHEMA)
                row = conn.execute("SELECT version FROM kiosk_schema").fetchone()
                if row is None:
                    conn.execute("INSERT INTO kiosk_schema VALUES (%s)", (SCHEMA_VERSION,))
                elif row[0] != SCHEMA_VERSION:
                    raise JournalError(f"base {self.label} : version {row[0]} des tables du "
                                       "kiosque non prise en charge")
        except psycopg.Error as exc:
            conn.close()
            raise JournalError(f"base de données {self.label} inutilisable "
                               f"({pg_reason(exc)})") from exc
        self._schema_checked = True

    def serializable(self, work, attempts: int = 20):
        """Run ``work(conn)`` in a SERIALIZABLE transaction, again on a serialisation conflict
        (two rooms registering at the same moment); JournalError in French otherwise."""
        conn = self.connect()
        try:
            for attempt in range(attempts):
                try:
                    with conn.transaction():
                        conn.execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
                        return work(conn)
                except (pg_errors.SerializationFailure, pg_errors.DeadlockDetected):
                    time.sleep(0.01 * (attempt + 1))
                except psycopg.Error as exc:
                    raise JournalError(f"base de données {self.label} : écriture impossible "
                                       f"({pg_reason(exc)})") from exc
            raise JournalError(f"base de données {self.label} : trop d'écritures en même temps, "
                               "réessayez")
        finally:
            conn.close()


class Outbox:
    """Events waiting for the server, on this machine's disk (SQLite, synchronous FULL).

    One file per game and station, locked by the process using it: a second
    process for the same station does not send the same queue at the same time.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._conn: sqlite3.Connection | None = None
        self._fd: int | None = None

    def _open(self) -> sqlite3.Connection:
        if self._conn is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path.with_name(self.path.name + ".verrou"), os.O_RDWR | os.O_CREAT,
                         0o644)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                raise JournalError(f"la file d'attente locale {self.path} est déjà utilisée par "
                                   "un autre kiosque de ce poste") from None
            # used by the room's thread and the sending thread, always under the journal's mutex
            conn = sqlite3.connect(str(self.path), isolation_level=None, timeout=20,
                                   check_same_thread=False)
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("CREATE TABLE IF NOT EXISTS queue (n INTEGER PRIMARY KEY AUTOINCREMENT, "
                         "kind TEXT NOT NULL, data TEXT NOT NULL, station TEXT NOT NULL, "
                         "at REAL NOT NULL, idem_key TEXT NOT NULL, seq INTEGER NOT NULL)")
            self._conn, self._fd = conn, fd
        return self._conn

    def exists(self) -> bool:
        return self._conn is not None or self.path.exists()

    def put(self, kind: str, text: str, station: str, at: float, key: str, seq: int) -> None:
        try:
            self._open().execute("INSERT INTO queue (kind, data, station, at, idem_key, seq) "
                                 "VALUES (?, ?, ?, ?, ?, ?)", (kind, text, station, at, key, seq))
        except sqlite3.Error as exc:
            from .journal import sqlite_reason

            raise JournalError(f"base de données injoignable et file d'attente locale "
                               f"impossible à écrire ({sqlite_reason(exc)}) : cette action "
                               "n'est pas enregistrée") from exc

    def items(self) -> list[tuple]:
        """(n, kind, data, station, at, key, provisional seq), oldest first."""
        if not self.exists():
            return []
        return self._open().execute("SELECT n, kind, data, station, at, idem_key, seq FROM queue "
                                    "ORDER BY n").fetchall()

    def remove(self, n: int) -> None:
        self._open().execute("DELETE FROM queue WHERE n = ?", (n,))

    def close(self) -> None:
        if self._conn is not None:
            empty = not self._conn.execute("SELECT 1 FROM queue LIMIT 1").fetchone()
            self._conn.close()
            self._conn = None
            if empty:
                self.path.unlink(missing_ok=True)
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def outbox_path(base: Base, name: str, station: str) -> Path:
    digest = hashlib.sha256(f"{base.label}\0{name}".encode()).hexdigest()[:16]
    clean = "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in station)[:40]
    return games_dir() / "attente" / f"{digest}-{clean}.attente"


class PgJournal(JournalBase):
    """One game of a PostgreSQL database, open for one station."""

    def __init__(self, base: Base, conn, game_id: int, name: str, meta: dict[str, str],
                 station: str, room: tuple[str | None, str | None] = (None, None)) -> None:
        self.base = base
        self.game_id = game_id
        self.name = name
        self.tournament, self.room = room
        self._meta = meta
        self.station = station
        self.epoch = 0
        self._conn = conn
        self._mutex = threading.RLock()
        self._cache: list[Event] = []  # the server's events, 1, 2, … without gaps
        self._sent: list[Event] = []  # sent from the queue, not yet read back
        self._queued_seq = 0  # the last provisional number given to a queued event
        self._outbox = Outbox(outbox_path(base, name, station))
        self._online = True
        self._room_token: str | None = None
        self._room_lost = False
        self._moved = False  # a queued event got another number than the one it was given
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._notices: list[str] = []
        self._closed = False

    # -- opening -------------------------------------------------------------------------------
    @classmethod
    def create(cls, url: str, name: str, meta: dict[str, str], station: str = "kiosque",
               first: tuple[str, dict] | None = None, tournament: str | None = None,
               room: str | None = None) -> PgJournal:
        """A new game in the database, with its first event; never over an existing one."""
        base = Base(url)
        base.serializable(lambda conn: insert_game(conn, base, name, meta, station, first,
                                                   tournament, room))
        return cls.open(url, name, station)

    @classmethod
    def open(cls, url: str, name: str, station: str = "kiosque") -> PgJournal:
        """An existing game of the database, checked like a file (format, version)."""
        base = Base(url)
        conn = base.connect()
        try:
            row = conn.execute("SELECT id, meta, tournament, room FROM games WHERE name = %s",
                               (name,)).fetchone()
        except psycopg.Error as exc:
            conn.close()
            raise JournalError(f"base de données {base.label} illisible ({pg_reason(exc)})"
                               ) from exc
        if row is None:
            conn.close()
            raise JournalError(f"partie « {name} » introuvable dans la base {base.label}")
        game_id, meta_text, tournament, room = row
        try:
            meta = json.loads(meta_text)
            assert isinstance(meta, dict)
        except (ValueError, AssertionError):
            conn.close()
            raise JournalError(f"partie « {name} » de la base {base.label} endommagée "
                               "(réglages illisibles) ; elle n'a pas été modifiée") from None
        if meta.get("format") != FORMAT:
            conn.close()
            raise JournalError(f"« {name} » n'est pas une partie du kiosque")
        if meta.get("version") != str(VERSION):
            conn.close()
            raise JournalError(f"« {name} » : version {meta.get('version')} du journal "
                               "non prise en charge")
        journal = cls(base, conn, int(game_id), name, {str(k): str(v) for k, v in meta.items()},
                      station, (tournament, room))
        try:
            with journal._mutex:
                if journal._outbox.path.exists():  # a previous run ended with events not sent
                    journal._online, journal._conn = False, None
                    journal._drain(conn)
                    for line in journal._notices:
                        import sys

                        print(f"attention : {line}", file=sys.stderr)
                    journal._notices.clear()
                journal._fetch()
        except LINK_ERRORS as exc:
            conn.close()
            raise JournalError(f"base de données {base.label} injoignable ({pg_reason(exc)})"
                               ) from exc
        except psycopg.Error as exc:
            conn.close()
            raise JournalError(f"base de données {base.label} illisible ({pg_reason(exc)})"
                               ) from exc
        return journal

    @classmethod
    def find_room(cls, url: str, tournament: str, room: str) -> str:
        """The name of a tournament room's game, or JournalError in French."""
        base = Base(url)
        conn = base.connect()
        try:
            found = conn.execute("SELECT 1 FROM tournaments WHERE name = %s",
                                 (tournament,)).fetchone()
            row = conn.execute("SELECT name FROM games WHERE tournament = %s AND room = %s",
                               (tournament, room)).fetchone()
        finally:
            conn.close()
        if not found:
            raise JournalError(f"tournoi « {tournament} » inconnu dans la base {base.label}")
        if row is None:
            raise JournalError(f"la salle « {room} » n'a pas encore de partie dans le tournoi "
                               f"« {tournament} » : kiosk nouvelle --tournoi {tournament} "
                               f"--salle {room}")
        return str(row[0])

    # -- what people see -------------------------------------------------------------------------
    @property
    def label(self) -> str:
        if self.tournament:
            return f"salle « {self.room} » du tournoi « {self.tournament} » ({self.base.label})"
        return f"partie « {self.name} » ({self.base.label})"

    @property
    def meta(self) -> dict[str, str]:
        return dict(self._meta)

    @property
    def online(self) -> bool:
        return self._online

    @property
    def waiting(self) -> int:
        with self._mutex:
            return len(self._outbox.items()) + len(self._sent) if not self._online else 0

    def _tell(self, text: str) -> None:
        """A line for the juge-arbitre, once (a retry loop does not repeat it)."""
        with self._mutex:
            if text not in self._notices:
                self._notices.append(text)

    def notice(self) -> str | None:
        with self._mutex:
            return self._notices.pop(0) if self._notices else None

    # -- writing -----------------------------------------------------------------------------------
    def _insert(self, conn, kind: str, text: str, station: str, at: float, key: str,
                after: int | None = None) -> Event:
        """One event in its own transaction; the event already there when the key is known.
        ``after``: only if the game's last event is still that one (the row lock holds it)."""
        with conn.transaction():
            seq = conn.execute("UPDATE games SET last_seq = last_seq + 1 WHERE id = %s "
                               "RETURNING last_seq", (self.game_id,)).fetchone()[0]
            if after is not None and seq != after + 1:
                raise _Stale()  # leaves the transaction: the number is given back
            known = conn.execute("SELECT seq, kind, data, station, at FROM events "
                                 "WHERE game = %s AND idem_key = %s", (self.game_id, key)
                                 ).fetchone()
            if known is not None:
                raise _Known(decode(*known))  # leaves the transaction: the number is given back
            conn.execute("INSERT INTO events (game, seq, kind, data, station, at, idem_key) "
                         "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                         (self.game_id, seq, kind, text, station, at, key))
            conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{self.game_id}:{seq}"))
        return decode(seq, kind, text, station, at)

    def _send(self, conn, kind: str, text: str, station: str, at: float, key: str,
              after: int | None = None) -> Event:
        try:
            return self._insert(conn, kind, text, station, at, key, after)
        except _Known as known:
            return replace(known.event, duplicate=True)
        except _Stale:
            raise JournalStale(after) from None

    def append(self, kind: str, data: dict[str, Any] | None = None, station: str | None = None,
               key: str | None = None, after: int | None = None) -> Event:
        """Commit one event on the server, or, out of reach, keep it in the local queue.

        ``after`` (a check and its write as one transaction) needs the server: out of
        reach, such an append is refused (JournalError), never queued unchecked."""
        text = encode(data)
        station = station or self.station
        key = key or uuid.uuid4().hex  # every event has one: a resend is never doubled
        at = time.time()
        with self._mutex:
            if self._closed:
                raise JournalError("journal fermé")
            if not self._online and after is not None:
                raise JournalError("base de données injoignable : cette modification doit être "
                                   "vérifiée par le serveur, rien n'est enregistré ; réessayez "
                                   "dans un instant")
            if self._online:
                try:
                    event = self._send(self._conn, kind, text, station, at, key, after)
                except LINK_ERRORS as exc:
                    self._go_offline(exc)  # committed or not, the key decides when resent
                    if after is not None:
                        raise JournalError("base de données injoignable : cette modification "
                                           "n'est peut-être pas enregistrée ; réessayez dans un "
                                           "instant (un nouvel essai ne compte jamais deux "
                                           "fois)") from exc
                except psycopg.Error as exc:
                    raise JournalError(f"écriture dans la base impossible ({pg_reason(exc)}) : "
                                       "cette action n'est pas enregistrée, ce qui l'était "
                                       "avant est intact") from exc
                else:
                    if not event.duplicate and event.seq == self._last_cached() + 1:
                        self._cache.append(event)
                    return event
            self._queued_seq = max(self._queued_seq, self._last_cached(), *(
                e.seq for e in self._sent)) + 1
            self._outbox.put(kind, text, station, at, key, self._queued_seq)
            return decode(self._queued_seq, kind, text, station, at)

    # -- reading -------------------------------------------------------------------------------------
    def _last_cached(self) -> int:
        return self._cache[-1].seq if self._cache else 0

    def _fetch(self) -> None:
        """Read what the server has beyond the cache (the caller holds the mutex, online)."""
        rows = self._conn.execute("SELECT seq, kind, data, station, at FROM events "
                                  "WHERE game = %s AND seq > %s ORDER BY seq",
                                  (self.game_id, self._last_cached())).fetchall()
        for row in rows:
            event = decode(*row)
            if event.seq != self._last_cached() + 1:
                break  # not yet visible in order: read again next time
            self._cache.append(event)

    def events(self, after: int = 0) -> list[Event]:
        with self._mutex:
            if self._online:
                try:
                    self._fetch()
                except LINK_ERRORS as exc:
                    self._go_offline(exc)
                except psycopg.Error as exc:
                    raise JournalError(f"lecture de la base impossible ({pg_reason(exc)})"
                                       ) from exc
            found = self._cache[after:] if after >= 0 else list(self._cache)
            if not self._online:
                local = [*self._sent, *(decode(seq, kind, text, station, at) for
                                        _, kind, text, station, at, _, seq in self._outbox.items())]
                found = found + [e for e in local if e.seq > max(after, self._last_cached())]
            return found

    def last_seq(self) -> int:
        events = self.events(max(0, self._last_cached() - 1))
        return events[-1].seq if events else self._last_cached()

    # -- the link to the server ---------------------------------------------------------------------
    def _go_offline(self, exc: BaseException | None) -> None:
        """The server is out of reach (the caller holds the mutex): queue, and retry aside."""
        if self._online:
            self._online = False
            try:
                self._conn.close()
            except Exception:  # noqa: BLE001 - a dead connection may fail to close
                pass
            self._conn = None
            if exc is not None:
                self._notices.append(f"base de données injoignable ({pg_reason(exc)}) : la partie "
                                     "continue, chaque action est gardée sur ce poste et sera "
                                     "envoyée au retour du serveur")
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._link, name="kiosque-base", daemon=True)
            self._thread.start()

    def _link(self) -> None:
        """Reconnect, take the room again, send the queue in order, then go back online."""
        while not self._stop.is_set():
            try:
                conn = self.base.connect()
            except JournalError:
                self._stop.wait(RETRY_SECONDS)
                continue
            try:
                if self._room_token is not None and not self._relock(conn):
                    conn.close()
                    self._stop.wait(RETRY_SECONDS * 3)
                    continue
                if self._drain(conn):
                    return
            except LINK_ERRORS:
                pass
            except Exception as exc:  # noqa: BLE001 - the thread must never die silently
                self._tell(f"envoi de la file d'attente interrompu ({type(exc).__name__}) : "
                           "nouvel essai dans un instant")
            try:
                conn.close()
            except Exception:  # noqa: BLE001
                pass
            self._stop.wait(RETRY_SECONDS)

    def _drain(self, conn) -> bool:
        """Send every queued event; True once online again (the connection is then ours)."""
        while not self._stop.is_set():
            with self._mutex:
                items = self._outbox.items()
                if not items:
                    sent, self._sent = self._sent, []
                    self._conn, self._online, self._queued_seq = conn, True, 0
                    self._fetch()
                    if self._moved:  # other writers got in between: the server's order wins
                        self.epoch += 1
                    self._moved = False
                    if sent:
                        self._notices.append(f"base de données revenue : {len(sent)} action(s) "
                                             "gardée(s) sur ce poste envoyée(s), rien de perdu")
                    return True
                n, kind, text, station, at, key, seq = items[0]
            event = self._send(conn, kind, text, station, at, key)
            with self._mutex:
                self._outbox.remove(n)
                self._moved = self._moved or event.seq != seq
                self._sent.append(decode(seq, kind, text, station, at))
        return False

    # -- one room per game ---------------------------------------------------------------------------
    def _holder_text(self) -> str:
        return (f"processus {os.getpid()} sur {socket.gethostname()} depuis "
                f"{time.strftime('%d/%m %H:%M')}")

    def lock_room(self) -> None:
        """Take the game for this room kiosk, or say in French who has it."""
        if self._room_token is not None:
            return
        with self._mutex:
            if not self._online:
                raise JournalError(f"base de données {self.base.label} injoignable : la salle ne "
                                   "peut pas être réservée ; relancez quand le serveur répond")
            token = uuid.uuid4().hex
            try:
                if not self._take_room(self._conn, token):
                    row = self._conn.execute("SELECT holder FROM room_holders WHERE game = %s",
                                             (self.game_id,)).fetchone()
                    holder = row[0] if row else "un autre kiosque"
                    raise JournalError(f"cette partie est déjà ouverte dans une autre salle "
                                       f"({holder}) : une seule salle par partie ; fermez "
                                       "l'autre kiosque d'abord (les postes « kiosk lire » "
                                       "restent permis)")
            except psycopg.Error as exc:
                raise JournalError(f"réservation de la salle impossible ({pg_reason(exc)})"
                                   ) from exc
            self._room_token = token

    def _take_room(self, conn, token: str) -> bool:
        got = conn.execute("SELECT pg_try_advisory_lock(%s, %s)",
                           (LOCK_NAMESPACE, self.game_id)).fetchone()[0]
        if got:
            conn.execute("INSERT INTO room_holders (game, holder, token, backend) "
                         "VALUES (%s, %s, %s, pg_backend_pid()) ON CONFLICT (game) DO UPDATE "
                         "SET holder = EXCLUDED.holder, token = EXCLUDED.token, "
                         "backend = EXCLUDED.backend", (self.game_id, self._holder_text(), token))
        return bool(got)

    def _relock(self, conn) -> bool:
        """After a cut: the room again. Our own old connection may still hold it on the
        server (not yet noticed as dead): it is ended; another kiosk's lock is never taken."""
        if self._take_room(conn, self._room_token):
            if self._room_lost:
                self._room_lost = False
                with self._mutex:
                    self._notices.append("salle de nouveau réservée pour ce kiosque")
            return True
        row = conn.execute("SELECT token, backend FROM room_holders WHERE game = %s",
                           (self.game_id,)).fetchone()
        if row is not None and row[0] == self._room_token:
            conn.execute("SELECT pg_terminate_backend(%s)", (row[1],))
            time.sleep(0.2)
            if self._take_room(conn, self._room_token):
                return True
        if not self._room_lost:
            self._room_lost = True
            with self._mutex:
                self._notices.append("un autre kiosque a pris cette salle pendant la coupure : "
                                     "les actions de ce poste restent gardées ici, non envoyées ; "
                                     "fermez l'un des deux kiosques")
        return False

    def unlock_room(self) -> None:
        with self._mutex:
            if self._room_token is None:
                return
            token, self._room_token = self._room_token, None
            if self._online:
                try:
                    self._conn.execute("DELETE FROM room_holders WHERE game = %s AND token = %s",
                                       (self.game_id, token))
                    self._conn.execute("SELECT pg_advisory_unlock(%s, %s)",
                                       (LOCK_NAMESPACE, self.game_id))
                except LINK_ERRORS:
                    pass  # the connection is gone: so is the lock

    # -- copies, closing ----------------------------------------------------------------------------
    def backup(self, dest: str | Path) -> Path:
        """The game copied from the server into one SQLite game file (same events, same meta):
        a club takes it home, ``kiosk reprendre FICHIER`` replays it."""
        from .journal import write_copy

        return write_copy(Path(dest), f"{self.name}.partie", self.meta, self.events())

    def flush(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds) for the queue to be sent; True when nothing waits."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._mutex:
                if self._online:
                    return True
            time.sleep(0.05)
        return self._online

    def close(self) -> None:
        """Send what waits if the server answers within a few seconds, release, close."""
        if self._closed:
            return
        if not self._online:
            self.flush(5.0)
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        self.unlock_room()
        with self._mutex:
            self._closed = True
            left = len(self._outbox.items()) if not self._online else 0
            self._outbox.close()
            if self._conn is not None:
                self._conn.close()
                self._conn = None
        if left:
            import sys

            print(f"attention : {left} action(s) gardée(s) sur ce poste ({self._outbox.path}) "
                  "faute de base de données : elles seront envoyées à la prochaine ouverture "
                  "de la partie", file=sys.stderr)


def insert_game(conn, base: Base, name: str, meta: dict[str, str], station: str,
                first: tuple[str, dict] | None, tournament: str | None = None,
                room: str | None = None) -> int:
    """A new game row and its first event, inside the caller's transaction."""
    rows = {"format": FORMAT, "version": str(VERSION), "created": str(time.time()), **meta}
    if conn.execute("SELECT 1 FROM games WHERE name = %s", (name,)).fetchone():
        raise JournalError(f"la partie « {name} » existe déjà dans la base {base.label} "
                           "(rien n'a été écrasé)")
    game_id = conn.execute(
        "INSERT INTO games (name, tournament, room, meta, last_seq, created) "
        "VALUES (%s, %s, %s, %s, %s, %s) RETURNING id",
        (name, tournament, room, json.dumps(rows, ensure_ascii=False, sort_keys=True),
         1 if first else 0, time.time())).fetchone()[0]
    if first is not None:
        conn.execute("INSERT INTO events (game, seq, kind, data, station, at, idem_key) "
                     "VALUES (%s, 1, %s, %s, %s, %s, %s)",
                     (game_id, first[0], encode(first[1]), station, time.time(),
                      uuid.uuid4().hex))
    return int(game_id)


def latest_game(url: str) -> str | None:
    """The name of the game created last in the database (``kiosk reprendre`` without a name)."""
    base = Base(url)
    conn = base.connect()
    try:
        row = conn.execute("SELECT name FROM games ORDER BY created DESC LIMIT 1").fetchone()
    finally:
        conn.close()
    return str(row[0]) if row else None


class _Stale(Exception):
    """Another event was written since the one a conditional append names (rolls back)."""


class _Known(Exception):
    """The idempotency key is already journaled (leaves the transaction, rolling it back)."""

    def __init__(self, event: Event) -> None:
        super().__init__("known")
        self.event = event
