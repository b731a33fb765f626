"""What every results file is made from: the event header, the coups as played, the results.

The exporters (CSV, HTML, PDF, federation files) read a :class:`Report` and
nothing else, so a new layout never needs the journal, the session or the
word list: the kiosk builds the report once (:func:`build_report`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..game import Game
from ..move import Move
from ..results import GameResults


@dataclass(frozen=True)
class EventHeader:
    """The head of the printed results (the juge-arbitre gives it at ``kiosk nouvelle``)."""

    event: str = ""  # épreuve
    date: str = ""
    place: str = ""  # lieu
    juge_arbitre: str = ""
    lexicon_name: str = ""
    lexicon_sha256: str = ""

    @property
    def fingerprint(self) -> str:
        """The word list's short fingerprint, as printed (16 hex digits of its SHA-256)."""
        return self.lexicon_sha256[:16]

    def to_dict(self) -> dict:
        return {"epreuve": self.event, "date": self.date, "lieu": self.place,
                "juge_arbitre": self.juge_arbitre}

    @classmethod
    def from_dict(cls, data: dict | None, lexicon_name: str = "", lexicon_sha256: str = "") -> EventHeader:
        data = data or {}
        return cls(str(data.get("epreuve") or ""), str(data.get("date") or ""),
                   str(data.get("lieu") or ""), str(data.get("juge_arbitre") or ""),
                   lexicon_name, lexicon_sha256)


@dataclass(frozen=True)
class CoupSheet:
    """One coup as the tops table prints it: tirage, rejected tirages, top and its equals."""

    number: int
    tirage: str
    top_word: str
    top_ref: str
    top_score: int
    rejections: tuple[str, ...] = ()
    #: the other tops of the same score ("word ref"), when the kiosk knows them
    others: tuple[str, ...] = ()
    #: the tirage written reliquat+new, as Eliot and the players' sheets show it
    reliquat: str = ""


@dataclass
class Report:
    results: GameResults
    header: EventHeader = field(default_factory=EventHeader)
    coups: list[CoupSheet] = field(default_factory=list)

    @property
    def has_serie(self) -> bool:
        return any(p.serie for p in self.results.players.values())

    @property
    def has_categorie(self) -> bool:
        return any(p.categorie for p in self.results.players.values())


def build_report(results: GameResults, header: EventHeader | None = None,
                 game: Game | None = None,
                 ties: dict[int, list[Move]] | None = None) -> Report:
    """The report of a game: its coups (from ``game``, when there is one) and its results.

    ``ties``: for each coup number, the tied tops the kiosk found (the top played among them).
    """
    coups: list[CoupSheet] = []
    for top in results.tops:
        coup = game.coups[top.coup - 1] if game is not None and top.coup <= len(game.coups) else None
        others = tuple(f"{m.word} {m.ref}" for m in (ties or {}).get(top.coup, ())
                       if (m.word, str(m.ref)) != (top.word, top.ref))
        coups.append(CoupSheet(top.coup, coup.tirage if coup else "", top.word, top.ref,
                               top.score, tuple(coup.rejections) if coup else (), others,
                               coup.reliquat if coup else ""))
    return Report(results, header or EventHeader(), coups)
