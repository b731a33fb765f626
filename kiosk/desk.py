"""The results desk: the live ranking of every room of a tournament, per room and overall.

Each room's game is replayed from the database by the same session code as the
room's kiosk, then kept up to date incrementally (``Session.sync``), woken by the
server's notifications (``LISTEN``) when a room writes. The overall ranking merges
the rooms over the coups every room has played (the same tirages, the same tops):
a solo is a solo over the whole tournament, and the 5.7 average is taken per
room and arbiter. Files come from the exports (:mod:`engine.export`), unchanged.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from engine.export import EventHeader, Report, build_report, results_html
from engine.results import GameResults, ResultsSettings

from . import tournament as tour
from .exports import report_of, write_report, write_results
from .pgjournal import CHANNEL, Base, PgJournal, psycopg
from .session import Session


class Desk:
    def __init__(self, url: str, name: str, lexicon) -> None:
        self.url = url
        self.lexicon = lexicon
        self.tournament = tour.load(url, name)
        self.sessions: dict[str, Session] = {}
        self._games: dict[int, str] = {}  # game id -> room
        self._listen = None
        self.refresh()

    # -- keeping up ---------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Open the rooms that appeared, apply what every room wrote; True when anything moved."""
        changed = False
        known = set(self.sessions)
        for info in tour.rooms(self.url, self.tournament.name):
            if info.room in known:
                continue
            journal = PgJournal.open(self.url, info.game, station="classement")
            self.sessions[info.room] = Session(journal, self.lexicon)
            self._games[journal.game_id] = info.room
            changed = True
        for session in self.sessions.values():
            changed = session.sync() or changed
        return changed

    def wait(self, timeout: float) -> bool:
        """Sleep until a room writes (a server notification) or ``timeout``; True if notified."""
        if psycopg is None:
            time.sleep(timeout)
            return False
        try:
            if self._listen is None:
                self._listen = Base(self.url).connect()
                self._listen.execute(f"LISTEN {CHANNEL}")
            for _ in self._listen.notifies(timeout=timeout, stop_after=1):
                return True
            return False
        except psycopg.Error:
            if self._listen is not None:
                self._listen.close()
            self._listen = None
            time.sleep(min(timeout, 1.0))
            return False

    def close(self) -> None:
        for session in self.sessions.values():
            session.journal.close()
        if self._listen is not None:
            self._listen.close()
            self._listen = None

    # -- what it shows ----------------------------------------------------------------------------
    def common_coups(self) -> int:
        """The coups corrected everywhere: the top played in every room (the overall ranking
        compares everybody on the same coups)."""
        played = [len(s.results.tops) for s in self.sessions.values() if s.results.players]
        return min(played) if played else 0

    def header(self, room: str | None = None) -> EventHeader:
        event = dict(self.tournament.settings.get("event") or {})
        if not event.get("epreuve"):
            event["epreuve"] = self.tournament.name
        if room:
            event["epreuve"] = f"{event['epreuve']} — salle {room}"
        return EventHeader.from_dict(event, Path(str(self.lexicon.source)).name,
                                     self.lexicon.sha256)

    def overall(self) -> Report:
        """Every player of every room, ranked over the coups all rooms have played."""
        upto = self.common_coups()
        sessions = [s for _, s in sorted(self.sessions.items()) if s.results.players]
        first = sessions[0] if sessions else None
        settings = first.results.settings if first else ResultsSettings()
        merged = GameResults(settings)
        for room, session in sorted(self.sessions.items()):
            for player in session.results.players.values():
                group = f"salle {room}" + (f" · {player.arbiter}" if player.arbiter else "")
                merged.add_player(replace(player, arbiter=group))
        if first is not None:
            for top in first.results.tops[:upto]:
                merged.add_top(top.word, top.ref, top.score)
        for session in sessions:
            for (table, coup), history in session.results.entries.items():
                if coup <= upto:
                    merged.entries[(table, coup)] = list(history)
            merged.told |= {(t, c) for (t, c) in session.results.told if c <= upto}
        ties = {n: first.moves(n)[1] for n in range(1, upto + 1)} if first else {}
        return build_report(merged, self.header(), first.game if first else None, ties)

    def room(self, room: str) -> Report:
        session = self.sessions[room]
        return replace(report_of(session), header=self.header(room))

    def lines(self, limit: int = 20) -> list[str]:
        """The terminal's view: each room's progress, then the head of the overall ranking."""
        out = []
        for room, session in sorted(self.sessions.items()):
            number = session.coup.number if session.coup else 0
            step = "terminée" if session.step == "fin" else f"coup {number}, {session.step}"
            done = sum(1 for (t, c) in session.results.entries if c == len(session.results.tops))
            out.append(f"salle {room} : {len(session.results.players)} joueurs, "
                       f"{len(session.results.tops)} top(s), {step}"
                       + (f", {done} bulletin(s) du dernier coup" if session.results.tops else "")
                       + (f" ; {session.journal.waiting} en attente" if session.journal.waiting
                          else ""))
        upto = self.common_coups()
        report = self.overall()
        out.append(f"classement général après le coup {upto} (joué dans toutes les salles), "
                   f"{len(report.results.players)} joueurs :")
        room_of = {t: room for room, s in self.sessions.items() for t in s.results.players}
        for standing in report.results.ranking()[:limit]:
            p = standing.player
            out.append(f"{standing.rank:4d}. {p.name} (table {p.table}, salle {room_of[p.table]})"
                       f" {standing.total} ({standing.difference:+d})")
        return out

    def write(self, out: Path) -> list[Path]:
        """The overall results and one folder per room, each with every export."""
        written = write_report(self.overall(), out / "general")
        for room in sorted(self.sessions):
            from .storage import file_name

            written += write_results(self.sessions[room], out / f"salle-{file_name(room)}",
                                     event=self.header(room).to_dict(), pdf=True)
        return written

    def page(self) -> str:
        """The overall ranking as one HTML page (the station server's « classement » page)."""
        return results_html(self.overall())
