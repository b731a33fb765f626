"""A move on the grid and a position (grid + tirage), with the position text format."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .board import Board, Ref
from .tiles import JOKER, LETTERS, RACK_SIZE


@dataclass(frozen=True)
class Move:
    """One legal placement.

    ``word`` is the whole main word read on the grid, joker letters in lower
    case (also jokers that were already on the grid). ``placed`` lists the new
    tiles as ``(row, col, tile)`` with ``tile`` lower case for a joker.
    ``words`` holds every word formed (main word first) with its score.

    A move taken from a :class:`~engine.movelist.MoveList` is made with
    :meth:`deferred`: ``placed`` and ``words`` are worked out from the grid
    the first time they are read, so listing thousands of moves by word,
    reference and score costs little.
    """

    ref: Ref
    word: str
    placed: tuple[tuple[int, int, str], ...]
    score: int
    # default_factory leaves no class attribute, so a deferred move's missing value reaches __getattr__
    words: tuple[tuple[str, int], ...] = field(default_factory=tuple, compare=False)

    @classmethod
    def deferred(cls, ref: Ref, word: str, score: int,
                 details: Callable[[], tuple[tuple, tuple]]) -> Move:
        """A move whose ``placed`` and ``words`` come from ``details()`` when first read."""
        move = object.__new__(cls)
        move.__dict__.update(ref=ref, word=word, score=score, _details=details)
        return move

    def __getattr__(self, name: str):
        details = self.__dict__.get("_details")
        if details is None or name not in ("placed", "words"):
            raise AttributeError(name)
        placed, words = details()
        self.__dict__.update(placed=placed, words=words)
        del self.__dict__["_details"]
        return placed if name == "placed" else words

    @property
    def jokers_used(self) -> int:
        return sum(tile.islower() for _, _, tile in self.placed)

    @property
    def tiles_used(self) -> str:
        """The tirage letters this move consumes, jokers as ``?``."""
        return "".join(JOKER if t.islower() else t for _, _, t in self.placed)

    @property
    def is_scrabble(self) -> bool:
        return len(self.placed) == RACK_SIZE

    def to_dict(self) -> dict:
        return {"ref": str(self.ref), "word": self.word, "score": self.score}

    def __str__(self) -> str:
        return f"{self.word} {self.ref} {self.score}"


def parse_tirage(text: str) -> str:
    """Normalise a tirage: upper-case letters and ``?`` for jokers, at most 7."""
    cleaned = "".join(text.split()).upper().replace("*", JOKER)
    bad = [ch for ch in cleaned if ch != JOKER and ch not in LETTERS]
    if bad:
        raise ValueError(f"tirage non valable : caractère « {bad[0]} » (lettres A à Z et ? pour un joker)")
    if len(cleaned) > RACK_SIZE:
        raise ValueError(f"tirage non valable : {len(cleaned)} lettres, 7 au plus")
    return cleaned


@dataclass
class Position:
    """The grid before a coup and the tirage to play."""

    board: Board
    tirage: str

    @classmethod
    def from_text(cls, text: str) -> Position:
        """15 grid lines, then a line ``tirage: LETTERS``; letters the bag cannot hold refused."""
        lines = [line for line in text.strip().splitlines() if line.strip()]
        if len(lines) < 16 or not lines[15].strip().lower().startswith("tirage"):
            raise ValueError("position non valable : 15 lignes de grille puis « tirage: LETTRES »")
        board = Board.from_text("\n".join(lines[:15]))
        _, _, letters = lines[15].partition(":")
        position = cls(board, parse_tirage(letters))
        position.check_letters()
        return position

    def check_letters(self) -> None:
        """Grid and tirage together hold no more of a letter (or joker) than the bag has."""
        from .draw import full_bag

        bag = full_bag()
        used: Counter[str] = Counter(JOKER if ch.islower() else ch
                                     for row in self.board.cells for ch in row if ch)
        used.update(self.tirage)
        for ch, n in sorted(used.items()):
            if n > bag[ch]:
                name = "jokers" if ch == JOKER else f"lettres {ch}"
                raise ValueError(f"position non valable : {n} {name} sur la grille et dans le "
                                 f"tirage, le sac n'en a que {bag[ch]}")

    @classmethod
    def load(cls, path: str | Path) -> Position:
        from .files import LIMITS, FileRefused, read_text

        try:
            text = read_text(path, "fichier de position", LIMITS["position"])
        except FileRefused as exc:
            raise ValueError(str(exc)) from exc
        return cls.from_text(text)

    def to_text(self) -> str:
        return f"{self.board.to_text()}\ntirage: {self.tirage}\n"
