"""A player's bulletin as written on paper, read tolerantly.

A bulletin comes from a photo reader or from an arbiter's keyboard: any field
may be missing or badly written. Parsing never raises on bad content; what
could not be read is kept in ``problems`` (French) and the field is ``None``,
so the correction can apply the rule for a missing reference, score or word.

JSON shape::

    {"table": 12, "coup": 3, "word": "MAISONs", "ref": "H4", "raccord": null,
     "score": 70, "sens": "h"}

- ``word``: lower-case letters are circled (jokers); a letter preceded by ``~``
  is crossed out and does not exist (5.6); accents are dropped (É is E).
- ``raccord``: grid letters written with the word (list or string).
- ``sens``: the direction the word is written on the paper, ``h`` or ``v``.
- optional ``solutions``: further solutions written on the same bulletin,
  each ``{"word", "ref", "raccord", "barre"}`` (``barre``: crossed out).
- arbiter flags: ``blanc``, ``plusieurs``, ``retard``, ``illisible``,
  ``ratures`` (hard to read), ``disciplinaire`` (``true`` or ``"grave"``);
  English names (``blank``, ``several``, ``late``, ``unreadable``,
  ``hard_to_read``, ``disciplinary``) are accepted too.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any

MAX_SCORE = 9999
MAX_WORD = 15
#: more raccord letters than this is not a raccord (three are needed; bounds the search)
MAX_RACCORD = 15


def fold(text: str) -> str:
    """Drop accents, keep case: ``é`` → ``e``, ``Œ`` → ``OE``."""
    text = text.replace("Œ", "OE").replace("œ", "oe").replace("Æ", "AE").replace("æ", "ae")
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Solution:
    """One solution written on the bulletin: word (lower case = circled), reference, raccord."""

    word: str | None
    ref: str | None = None
    raccord: tuple[str, ...] | None = None
    crossed_out: bool = False
    crossed_letters: int = 0

    @property
    def word_upper(self) -> str:
        return (self.word or "").upper()


@dataclass(frozen=True)
class Bulletin:
    """What a player handed in for one coup, with the arbiter's flags."""

    table: int | None = None
    coup: int | None = None
    word: str | None = None
    ref: str | None = None
    raccord: tuple[str, ...] | None = None
    score: int | None = None
    sens: str | None = None
    extra: tuple[Solution, ...] = ()
    blank: bool = False
    several: bool = False
    late: bool = False
    unreadable: bool = False
    hard_to_read: bool = False
    disciplinary: str | None = None  # None, "avertissement" or "grave"
    crossed_letters: int = 0
    problems: tuple[str, ...] = field(default=())

    def solutions(self) -> list[Solution]:
        """The solutions that count: the main one and the extra ones, crossed-out ones removed."""
        main = Solution(self.word, self.ref, self.raccord, False, self.crossed_letters)
        found = [main] if (self.word or self.ref or self.raccord) else []
        return found + [s for s in self.extra if not s.crossed_out]

    def with_flags(self, **flags: Any) -> Bulletin:
        return replace(self, **flags)

    @classmethod
    def from_dict(cls, data: Any) -> Bulletin:
        """Read the JSON shape above; bad fields become ``None`` with a problem noted."""
        if not isinstance(data, dict):
            return cls(unreadable=True, problems=("bulletin illisible : données non reconnues",))
        problems: list[str] = []
        table = _int_field(data.get("table"), "numéro de table", problems, upper=9999)
        coup = _int_field(data.get("coup"), "numéro de coup", problems, upper=999)
        score = _int_field(data.get("score"), "score", problems, upper=MAX_SCORE)
        word, crossed = parse_word(data.get("word"), problems)
        ref = _text_field(data.get("ref"))
        raccord = parse_raccord(data.get("raccord"), problems)
        sens = parse_sens(data.get("sens"), problems)
        extra = []
        written = data.get("solutions")
        if written is not None and not isinstance(written, (list, tuple)):
            problems.append("solutions supplémentaires illisibles")
            written = None
        for item in written or []:
            if not isinstance(item, dict):
                problems.append("solution supplémentaire illisible")
                continue
            w, c = parse_word(item.get("word"), problems)
            extra.append(
                Solution(
                    w,
                    _text_field(item.get("ref")),
                    parse_raccord(item.get("raccord"), problems),
                    bool(item.get("barre") or item.get("crossed_out")),
                    c,
                )
            )
        disciplinary = data.get("disciplinaire", data.get("disciplinary"))
        if disciplinary in (True, "avertissement", "oui", 1):
            disciplinary = "avertissement"
        elif disciplinary not in ("grave",):
            disciplinary = None
        return cls(
            table=table,
            coup=coup,
            word=word,
            ref=ref,
            raccord=raccord,
            score=score,
            sens=sens,
            extra=tuple(extra),
            blank=_flag(data, "blanc", "blank"),
            several=_flag(data, "plusieurs", "several"),
            late=_flag(data, "retard", "late"),
            unreadable=_flag(data, "illisible", "unreadable"),
            hard_to_read=_flag(data, "ratures", "hard_to_read"),
            disciplinary=disciplinary,
            crossed_letters=crossed,
            problems=tuple(problems),
        )

    def to_dict(self) -> dict:
        data: dict[str, Any] = {
            "table": self.table,
            "coup": self.coup,
            "word": self.word,
            "ref": self.ref,
            "raccord": list(self.raccord) if self.raccord is not None else None,
            "score": self.score,
            "sens": self.sens,
        }
        for name in ("blank", "several", "late", "unreadable", "hard_to_read"):
            if getattr(self, name):
                data[name] = True
        if self.disciplinary:
            data["disciplinary"] = self.disciplinary
        if self.extra:
            data["solutions"] = [
                {
                    "word": s.word,
                    "ref": s.ref,
                    "raccord": list(s.raccord) if s.raccord else None,
                    "barre": s.crossed_out,
                }
                for s in self.extra
            ]
        return data


def _flag(data: dict, *names: str) -> bool:
    return any(data.get(name) in (True, 1, "oui", "yes", "true") for name in names)


def _text_field(raw: Any) -> str | None:
    if raw is None or isinstance(raw, bool):
        return None
    text = str(raw).strip()
    return text or None


def _int_field(raw: Any, what: str, problems: list[str], *, upper: int) -> int | None:
    """An integer as written: ``70``, ``"70"``, ``" 70 pts"``; anything else is unreadable."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    if isinstance(raw, bool):
        problems.append(f"{what} illisible")
        return None
    if isinstance(raw, float) and raw.is_integer():
        raw = int(raw)
    if isinstance(raw, int):
        number = raw
    else:
        text = re.sub(r"\s|pts?\.?$|points?$", "", str(raw)[:40].strip().lower())
        if not (text.isascii() and text.isdigit()) or len(text) > 9:
            problems.append(f"{what} illisible : « {str(raw)[:20]} »")
            return None
        number = int(text)
    if not 0 <= number <= upper:
        shown = str(number) if abs(number) < 10**12 else "nombre trop grand"
        problems.append(f"{what} hors limites : {shown}")
        return None
    return number


def parse_word(raw: Any, problems: list[str]) -> tuple[str | None, int]:
    """The word as letters (lower case = circled) and the number of crossed-out letters.

    ``~X`` is a crossed-out letter; spaces and dashes are ignored; any other
    character makes the word unreadable (``None``).
    """
    if raw is None or isinstance(raw, bool):
        return None, 0
    text = fold(str(raw)).strip()
    crossed = len(re.findall(r"~[A-Za-z]", text))
    text = re.sub(r"~[A-Za-z]", "", text)
    text = re.sub(r"[\s\-'.]", "", text)
    if not text:
        return None, crossed
    if not (text.isascii() and text.isalpha()):
        problems.append(f"mot illisible : « {str(raw)[:30]} »")
        return None, crossed
    if len(text) > MAX_WORD:
        problems.append(f"mot trop long : {len(text)} lettres, la grille en a 15")
        return None, crossed
    return text, crossed


def parse_raccord(raw: Any, problems: list[str]) -> tuple[str, ...] | None:
    """Raccord letters as a tuple of upper-case letters, or ``None`` when none are written."""
    if raw is None or isinstance(raw, bool):
        return None
    items = list(raw)[:1000] if isinstance(raw, (list, tuple)) else list(str(raw)[:1000])
    letters = []
    unreadable: list[str] = []
    for item in items:
        text = fold(str(item)[:100]).strip().upper()
        for ch in text:
            if ch.isascii() and ch.isalpha():
                letters.append(ch)
            elif not ch.isspace() and ch not in ",;-" and ch not in unreadable:
                unreadable.append(ch)
    if unreadable:
        shown = " ".join(unreadable[:5]) + (" …" if len(unreadable) > 5 else "")
        problems.append(f"lettre de raccord illisible : « {shown} »")
    if len(letters) > MAX_RACCORD:
        problems.append(f"raccord trop long : {len(letters)} lettres")
        return None
    return tuple(letters) or None


def parse_sens(raw: Any, problems: list[str]) -> str | None:
    if raw is None:
        return None
    text = fold(str(raw)[:40]).strip().lower()
    if text in ("-", "→", "—") or text.startswith(("h", "across")):
        return "h"
    if text in ("|", "↓") or text.startswith(("v", "down")):
        return "v"
    if text:
        problems.append(f"sens illisible : « {text[:10]} »")
    return None
