"""The French words and number forms every results file shares (one place, so they agree)."""

from __future__ import annotations

import unicodedata

from ..correction import Outcome
from ..results import GameResults, Standing

#: what a decision is called on paper, accents included
OUTCOME_LABEL = {Outcome.OK: "bon", Outcome.AVERTISSEMENT: "avertissement",
                 Outcome.PENALITE: "pénalité", Outcome.ZERO: "zéro"}
#: the one-letter mark beside a score in the score grid; a zéro is shown by its 0 alone
OUTCOME_MARK = {Outcome.OK: "", Outcome.AVERTISSEMENT: "A", Outcome.PENALITE: "P", Outcome.ZERO: ""}
LEGEND = "A : avertissement · P : pénalité de 5 points · 0 sur fond rouge : zéro"

#: characters Windows-1252 lacks, written the way a French reader expects
_TRANSLIT = {"Ŵ": "W", "ŵ": "w", "Ŷ": "Y", "ŷ": "y", "‐": "-", "‑": "-", "−": "-", "⁄": "/"}


def decimal(value: float, places: int = 2) -> str:
    """French decimal comma: ``98,50``."""
    return f"{value:.{places}f}".replace(".", ",")


def percent(value: float) -> str:
    return f"{decimal(value)} %"


def count(n: int, noun: str) -> str:
    """``1 coup``, ``20 coups``."""
    return f"{n} {noun}{'s' if n > 1 else ''}"


def penalty_points(standing: Standing) -> int:
    """Every point a player lost to sanctions: 5.3's pénalités and the warnings from the 4th."""
    return standing.penalties + standing.warning_penalty


def reasons(results: GameResults, table: int, coup: int) -> str:
    return "; ".join(results.decision(table, coup).reasons)


def to_cp1252(text: str) -> bytes:
    """Windows-1252 (Œ, œ, €, « » are there, unlike latin-1); what it lacks is transliterated."""
    out = []
    for ch in text:
        try:
            out.append(ch.encode("cp1252"))
            continue
        except UnicodeEncodeError:
            pass
        if ch in _TRANSLIT:
            out.append(_TRANSLIT[ch].encode("cp1252"))
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        try:
            out.append(base.encode("cp1252") if base else b"?")
        except UnicodeEncodeError:
            out.append(b"?")
    return b"".join(out)
