"""The 15×15 grid, its premium squares, and references such as ``H4`` (horizontal) or ``4H``.

Coordinates are ``(row, col)`` with row 0 = A (top) and col 0 = column 1 (left).
A square holds ``None`` or one character: an upper-case letter for a tile, a
lower-case letter for a joker standing for that letter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

SIZE = 15
ROWS = "ABCDEFGHIJKLMNO"
CENTER = (7, 7)  # H8, the star


class Premium(Enum):
    NONE = ""
    DOUBLE_LETTER = "LD"
    TRIPLE_LETTER = "LT"
    DOUBLE_WORD = "MD"
    TRIPLE_WORD = "MT"

    @property
    def letter_multiplier(self) -> int:
        return {Premium.DOUBLE_LETTER: 2, Premium.TRIPLE_LETTER: 3}.get(self, 1)

    @property
    def word_multiplier(self) -> int:
        return {Premium.DOUBLE_WORD: 2, Premium.TRIPLE_WORD: 3}.get(self, 1)


_PREMIUM_SQUARES = {
    Premium.TRIPLE_WORD: "A1 A8 A15 H1 H15 O1 O8 O15",
    Premium.DOUBLE_WORD: "B2 C3 D4 E5 H8 K11 L12 M13 N14 B14 C13 D12 E11 K5 L4 M3 N2",
    Premium.TRIPLE_LETTER: "B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10",
    Premium.DOUBLE_LETTER: (
        "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12"
    ),
}

PREMIUMS: list[list[Premium]] = [[Premium.NONE] * SIZE for _ in range(SIZE)]
for _premium, _names in _PREMIUM_SQUARES.items():
    for _name in _names.split():
        PREMIUMS[ROWS.index(_name[0])][int(_name[1:]) - 1] = _premium


class BadReference(ValueError):
    """A reference that cannot be read; the message is in French and names the input."""


@dataclass(frozen=True, order=True)
class Ref:
    """Where a word starts and which way it goes. ``Ref(7, 3, True)`` is ``H4``."""

    row: int
    col: int
    horizontal: bool

    def __post_init__(self) -> None:
        if not (0 <= self.row < SIZE and 0 <= self.col < SIZE):
            raise BadReference(f"référence hors de la grille : ligne {self.row}, colonne {self.col}")

    def __str__(self) -> str:
        letter, number = ROWS[self.row], str(self.col + 1)
        return letter + number if self.horizontal else number + letter

    @property
    def step(self) -> tuple[int, int]:
        return (0, 1) if self.horizontal else (1, 0)

    def squares(self, length: int) -> list[tuple[int, int]]:
        dr, dc = self.step
        return [(self.row + dr * i, self.col + dc * i) for i in range(length)]

    def swapped(self) -> Ref:
        """The same square read the other way: ``H4`` ↔ ``4H``."""
        return Ref(self.row, self.col, not self.horizontal)

    @classmethod
    def parse(cls, text: str) -> Ref:
        """Read ``H4``/``h4``/``H 4`` (horizontal) or ``4H``/``4 h`` (vertical)."""
        if not isinstance(text, str):
            raise BadReference(f"référence illisible : {text!r}")
        cleaned = re.sub(r"[\s.\-_/]", "", text).upper()
        match = re.fullmatch(r"([A-O])(\d{1,2})|(\d{1,2})([A-O])", cleaned)
        if not match:
            raise BadReference(f"référence non valable : « {text.strip()[:40]} » (attendu H4 ou 4H)")
        if match.group(1):
            row, col, horizontal = ROWS.index(match.group(1)), int(match.group(2)) - 1, True
        else:
            row, col, horizontal = ROWS.index(match.group(4)), int(match.group(3)) - 1, False
        if not 0 <= col < SIZE:
            raise BadReference(f"référence hors de la grille : « {text.strip()[:40]} » (colonnes 1 à 15)")
        return cls(row, col, horizontal)


def square_name(row: int, col: int) -> str:
    """``(7, 7)`` → ``H8``."""
    return f"{ROWS[row]}{col + 1}"


class Board:
    """The master grid. Mutable; ``copy()`` before speculative changes."""

    __slots__ = ("cells",)

    def __init__(self, cells: list[list[str | None]] | None = None) -> None:
        self.cells: list[list[str | None]] = (
            [row[:] for row in cells] if cells else [[None] * SIZE for _ in range(SIZE)]
        )

    def copy(self) -> Board:
        return Board(self.cells)

    def __getitem__(self, square: tuple[int, int]) -> str | None:
        return self.cells[square[0]][square[1]]

    def __setitem__(self, square: tuple[int, int], tile: str | None) -> None:
        self.cells[square[0]][square[1]] = tile

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.cells == other.cells

    def is_empty(self) -> bool:
        return all(cell is None for row in self.cells for cell in row)

    def tile_count(self) -> int:
        return sum(cell is not None for row in self.cells for cell in row)

    def to_text(self) -> str:
        """15 lines of 15 characters: ``.`` empty, ``A``–``Z`` tile, ``a``–``z`` joker."""
        return "\n".join("".join(cell or "." for cell in row) for row in self.cells)

    @classmethod
    def from_text(cls, text: str) -> Board:
        lines = [line.strip() for line in text.strip().splitlines()]
        if len(lines) != SIZE or any(len(line) != SIZE for line in lines):
            raise ValueError("grille non valable : il faut 15 lignes de 15 caractères")
        cells: list[list[str | None]] = []
        for r, line in enumerate(lines):
            row: list[str | None] = []
            for c, ch in enumerate(line):
                if ch == ".":
                    row.append(None)
                elif ch.isascii() and ch.isalpha():
                    row.append(ch)
                else:
                    raise ValueError(f"grille non valable : caractère « {ch} » en {square_name(r, c)}")
            cells.append(row)
        return cls(cells)

    def __str__(self) -> str:
        return self.to_text()
