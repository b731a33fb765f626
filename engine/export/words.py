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

#: a joker's letter on paper: a capital, coloured and underlined (rule 2.2; the underline
#: survives black-and-white printing), never a lower-case letter
JOKER_RGB = (190, 0, 90)


class Word(str):
    """A text holding words as the engine writes them (a joker's letter in lower case):
    printed with each joker letter as a marked capital."""


def joker_runs(text: str) -> list[tuple[str, bool]]:
    """``"BECTaI"`` → ``[("BECT", False), ("A", True), ("I", False)]``: runs to print, a
    joker's letter (lower case a–z) upper-cased and flagged."""
    runs: list[tuple[str, bool]] = []
    for ch in text:
        joker = "a" <= ch <= "z"
        ch = ch.upper() if joker else ch
        if runs and runs[-1][1] == joker:
            runs[-1] = (runs[-1][0] + ch, joker)
        else:
            runs.append((ch, joker))
    return runs


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
