"""A tournament over several rooms: one game drawn by the head juge-arbitre, played in each room.

The head juge-arbitre's kiosk draws the whole game when the tournament is made
(the engine plays it from a seed, each coup's preferred top) or loads a
pre-drawn one (:mod:`engine.pretirage`, checked whole). Each room's kiosk then
plays that game in ``fichier`` mode, as a club plays a « partie pré-tirée »:
the same tirages, rejections and tops, with its own countdown, announcements,
screen, players, arbiters and stations, started by its own juge-arbitre.

Where two rooms could conflict (creating the tournament, registering a room
and its players: a table number belongs to one room of the tournament) the
writes are SERIALIZABLE transactions, retried on a serialisation conflict.
Everything lives in the PostgreSQL database the rooms share (:mod:`kiosk.pgjournal`).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

from .journal import JournalError
from .pgjournal import LOCK_NAMESPACE, Base, PgJournal, insert_game, pg_reason


@dataclass
class Tournament:
    name: str
    #: the drawn game (engine source dict, tops included), the time and the event header
    settings: dict = field(default_factory=dict)

    @property
    def source(self) -> dict:
        return self.settings["source"]

    def room_config(self, players: list[dict], event: dict | None = None):
        """A room's game settings: the tournament's game, the room's players."""
        from .session import Config

        header = dict(self.settings.get("event") or {})
        header.update({k: v for k, v in (event or {}).items() if v})
        return Config(seed=0, seconds=int(self.settings["seconds"]),
                      warning=int(self.settings["warning"]), blitz=bool(self.settings["blitz"]),
                      draw_mode="fichier", players=players, source=self.source,
                      max_coups=self.settings.get("max_coups"), event=header or None,
                      original=bool(self.settings.get("original")))


def room_game_name(tournament: str, room: str) -> str:
    return f"{tournament}/{room}"


def check_name(text: str, what: str) -> str:
    clean = (text or "").strip()
    if not clean or len(clean) > 60 or any(not ch.isprintable() for ch in clean) or "/" in clean:
        raise JournalError(f"nom de {what} non valable : « {text} » (1 à 60 caractères "
                           "visibles, sans « / »)")
    return clean


def create(url: str, name: str, settings: dict) -> Tournament:
    """A new tournament with its drawn game; refused if the name is taken."""
    name = check_name(name, "tournoi")
    base = Base(url)

    def work(conn):
        if conn.execute("SELECT 1 FROM tournaments WHERE name = %s", (name,)).fetchone():
            raise JournalError(f"le tournoi « {name} » existe déjà dans la base {base.label} "
                               "(rien n'a été changé)")
        conn.execute("INSERT INTO tournaments (name, created, settings) VALUES (%s, %s, %s)",
                     (name, time.time(), json.dumps(settings, ensure_ascii=False)))

    base.serializable(work)
    return Tournament(name, settings)


def load(url: str, name: str) -> Tournament:
    base = Base(url)
    conn = base.connect()
    try:
        row = conn.execute("SELECT settings FROM tournaments WHERE name = %s", (name,)).fetchone()
    finally:
        conn.close()
    if row is None:
        raise JournalError(f"tournoi « {name} » inconnu dans la base {base.label} "
                           "(kiosk tournoi NOM --creer d'abord)")
    try:
        settings = json.loads(row[0])
        assert isinstance(settings, dict) and isinstance(settings.get("source"), dict)
    except (ValueError, AssertionError):
        raise JournalError(f"tournoi « {name} » endommagé dans la base (réglages illisibles)"
                           ) from None
    return Tournament(name, settings)


def register_room(url: str, tournament: Tournament, room: str, config, meta: dict[str, str],
                  station: str = "kiosque") -> PgJournal:
    """The room's game (``config``: :meth:`Tournament.room_config`), with its players, in one
    SERIALIZABLE transaction: two rooms registering at the same moment never both get table 12."""
    room = check_name(room, "salle")
    base = Base(url)
    players = config.players
    name = room_game_name(tournament.name, room)
    tables = [int(p["table"]) for p in players]

    def work(conn):
        if conn.execute("SELECT 1 FROM games WHERE tournament = %s AND room = %s",
                        (tournament.name, room)).fetchone():
            raise JournalError(f"la salle « {room} » a déjà sa partie dans le tournoi "
                               f"« {tournament.name} » : kiosk reprendre --tournoi "
                               f"{tournament.name} --salle {room}")
        taken = conn.execute("SELECT table_no, room FROM players WHERE tournament = %s AND "
                             "table_no = ANY(%s) ORDER BY table_no",
                             (tournament.name, tables)).fetchall()
        if taken:
            shown = ", ".join(f"{t} (salle {r})" for t, r in taken[:8])
            raise JournalError(f"tables déjà attribuées dans une autre salle du tournoi : "
                               f"{shown}{' …' if len(taken) > 8 else ''} ; une table n'est "
                               "que dans une salle (numérotez les salles à la suite)")
        for p in players:
            conn.execute("INSERT INTO players (tournament, table_no, room, name) "
                         "VALUES (%s, %s, %s, %s)",
                         (tournament.name, int(p["table"]), room, str(p["name"])))
        insert_game(conn, base, name, meta, station, ("partie", config.to_dict()),
                    tournament.name, room)

    base.serializable(work)
    return PgJournal.open(url, name, station)


@dataclass(frozen=True)
class RoomInfo:
    room: str
    game: str
    players: int
    tops: int
    finished: bool
    holder: str | None


def rooms(url: str, name: str) -> list[RoomInfo]:
    """Every room of the tournament: its game, players, tops played, who holds it."""
    base = Base(url)
    conn = base.connect()
    try:
        rows = conn.execute(
            "SELECT g.room, g.name, "
            "(SELECT count(*) FROM players p WHERE p.tournament = g.tournament "
            " AND p.room = g.room), "
            "(SELECT count(*) FROM events e WHERE e.game = g.id AND e.kind = 'top'), "
            "EXISTS (SELECT 1 FROM events e WHERE e.game = g.id AND e.kind = 'fin'), "
            "(SELECT holder FROM room_holders h WHERE h.game = g.id AND EXISTS (SELECT 1 FROM "
            " pg_locks l WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objid = g.id "
            " AND l.objsubid = 2 AND l.granted)) "
            "FROM games g WHERE g.tournament = %s ORDER BY g.room", (LOCK_NAMESPACE, name)).fetchall()
    except Exception as exc:  # noqa: BLE001 - a psycopg error, said in French
        raise JournalError(f"base {base.label} illisible ({pg_reason(exc)})") from exc
    finally:
        conn.close()
    return [RoomInfo(*row) for row in rows]
