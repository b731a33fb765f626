"""Where a game is kept: a SQLite file (the default), or a game of a PostgreSQL database.

The commands name a game one way or the other (``--partie FICHIER``, or
``--base URL`` with a name or ``--tournoi T --salle S``); everything after
opening goes through :class:`~kiosk.journal.JournalBase`, whichever it is.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .journal import Journal, JournalBase, games_dir


@dataclass(frozen=True)
class Locator:
    path: Path | None = None
    url: str | None = None
    name: str | None = None

    @property
    def in_database(self) -> bool:
        return self.url is not None

    def open(self, station: str = "kiosque") -> JournalBase:
        if self.url is None:
            return Journal.open(self.path, station)
        from .pgjournal import PgJournal

        return PgJournal.open(self.url, self.name, station)

    def create(self, meta: dict[str, str], station: str = "kiosque",
               first: tuple[str, dict] | None = None) -> JournalBase:
        if self.url is None:
            return Journal.create(self.path, meta, station, first=first)
        from .pgjournal import PgJournal

        return PgJournal.create(self.url, self.name, meta, station, first=first)

    @property
    def label(self) -> str:
        if self.url is None:
            return str(self.path)
        from .pgjournal import safe_url

        return f"partie « {self.name} » ({safe_url(self.url)})"

    @classmethod
    def of(cls, journal: JournalBase) -> Locator:
        """Where an open journal's game is (another process opens it again from this)."""
        if isinstance(journal, Journal):
            return cls(path=journal.path)
        return cls(url=journal.base.url, name=journal.name)

    def beside(self, suffix: str) -> Path:
        """A file or folder of this machine that goes with the game (``-photos``,
        ``-postes.log``): beside the file, or in the games folder for a database's game."""
        if self.path is not None:
            return self.path.with_name(self.path.stem + suffix)
        return games_dir() / (file_name(self.name or "partie") + suffix)

    def default_out(self) -> Path:
        """Where the results go without --sortie: beside the file, or in the games folder."""
        if self.path is not None:
            return self.path.with_suffix("")
        return games_dir() / file_name(self.name or "partie")


def file_name(name: str) -> str:
    """A game's name in a database made a file name (« Open/salle B » → « Open-salle_B »)."""
    clean = "".join(ch if ch.isalnum() or ch in "-_." else ("-" if ch == "/" else "_")
                    for ch in name).strip(".")
    return clean or "partie"
