"""Every legal move of a position in compact form; a :class:`Move` is made only for what is looked at.

A two-joker tirage can have 50,000 legal moves; as ``Move`` objects they cost
tens of megabytes and most of the generation time, while callers look at a
few (the tops, a page of the arbiter's list) or need only the columns (the
bulletin decoder: references, words, scores). A :class:`MoveList` keeps four
arrays (reference code, score, word slot, tiles/jokers placed) and the grid
it was generated on, and behaves as the list of ``Move`` it stands for: len,
index, slices, iteration, ``in``, equality with a list of moves. It is sorted
best score first, ties in generation order, like the generator's list.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from typing import overload

from .board import PREMIUMS, SIZE, Ref
from .dawg import core
from .move import Move
from .tiles import VALUES

SQUARES = SIZE * SIZE
SLOT = 16  # bytes a word: the main word, padded with spaces (15 letters at most)

#: one move as the pure-Python search records it: (score, reference code, word, tiles | jokers << 4)
Row = tuple[int, int, str, int]

#: reference code → Ref: (row * 15 + col), plus 225 for a vertical word
REFS = [Ref(i // SIZE, i % SIZE, True) for i in range(SQUARES)] + [
    Ref(i // SIZE, i % SIZE, False) for i in range(SQUARES)]
REF_TEXT = [str(ref) for ref in REFS]


def ref_code(ref: Ref) -> int:
    return ref.row * SIZE + ref.col + (0 if ref.horizontal else SQUARES)


def grid_bytes(cells: list[list[str | None]]) -> bytes:
    """The grid as 225 characters, row by row: ``.`` empty, the tile otherwise."""
    return "".join(cell or "." for row in cells for cell in row).encode("ascii")


class MoveList(Sequence[Move]):
    """The legal moves of one position, best first, kept as arrays (see the module's docstring)."""

    __slots__ = ("_grid", "_refs", "_scores", "_words", "_info", "_built")

    def __init__(self, grid: bytes, refs: bytes, scores: bytes, words: bytes, info: bytes,
                 built: list[Move | None] | None = None) -> None:
        self._grid = grid
        self._refs = memoryview(refs).cast("H")
        self._scores = memoryview(scores).cast("i")
        self._words = words
        self._info = info
        self._built = built

    @classmethod
    def from_rows(cls, grid: bytes, rows: list[Row]) -> MoveList:
        """The compact form of the pure-Python search's rows (already sorted)."""
        refs = array("H", [row[1] for row in rows]).tobytes()
        scores = array("i", [row[0] for row in rows]).tobytes()
        words = "".join(row[2].ljust(SLOT) for row in rows).encode("ascii")
        info = bytes(row[3] for row in rows)
        return cls(grid, refs, scores, words, info)

    # -- the compact columns (no Move made) ----------------------------------------------------
    def scores(self) -> list[int]:
        """Each move's score, best first."""
        return self._scores.tolist()

    def refs(self) -> list[str]:
        """Each move's reference as written (``H4``, ``4H``)."""
        text = REF_TEXT
        return [text[code] for code in self._refs]

    def words(self) -> list[str]:
        """Each move's main word, whole as read on the grid, jokers in lower case."""
        return self._words.decode("ascii").split()

    def candidates(self) -> list[tuple[str, str, int]]:
        """``(reference, word, score)`` for every move: what a bulletin is decoded against."""
        return list(zip(self.refs(), self.words(), self.scores(), strict=True))

    def score(self, index: int) -> int:
        return self._scores[index]

    def word(self, index: int) -> str:
        return self._words[index * SLOT:(index + 1) * SLOT].decode("ascii").rstrip(" ")

    def ref(self, index: int) -> Ref:
        return REFS[self._refs[index]]

    def tiles_placed(self, index: int) -> int:
        return self._info[index] & 15

    def jokers_placed(self, index: int) -> int:
        return self._info[index] >> 4

    def tied_count(self) -> int:
        """How many moves share the best score (they come first)."""
        scores = self._scores
        if not scores:
            return 0
        best, k = scores[0], 1
        while k < len(scores) and scores[k] == best:
            k += 1
        return k

    def find(self, word: str, ref: str | Ref) -> Move | None:
        """The move writing ``word`` at ``ref`` (jokers in lower case), without making the others."""
        code = ref_code(ref if isinstance(ref, Ref) else Ref.parse(ref))
        slot = word.ljust(SLOT).encode("ascii", "replace")
        if len(slot) != SLOT:
            return None
        words, refs = self._words, self._refs
        at = words.find(slot)
        while at >= 0:
            if at % SLOT == 0 and refs[at // SLOT] == code:
                return self._move(at // SLOT)
            at = words.find(slot, at + 1)
        return None

    # -- the list of Move it stands for ----------------------------------------------------------
    def _move(self, index: int) -> Move:
        built = self._built
        if built is None:
            built = self._built = [None] * len(self._scores)
        move = built[index]
        if move is None:
            code = self._refs[index]
            word = self.word(index)
            grid = self._grid
            move = built[index] = Move.deferred(REFS[code], word, self._scores[index],
                                                lambda: _expand(grid, code, word))
        return move

    def __len__(self) -> int:
        return len(self._scores)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._move(k) for k in range(*index.indices(len(self)))]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("indice de coup hors de la liste")
        return self._move(index)

    def __iter__(self) -> Iterator[Move]:
        for k in range(len(self)):
            yield self._move(k)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, Move) and self.find(item.word, item.ref) == item

    def __eq__(self, other: object) -> bool:
        if isinstance(other, MoveList):
            return (self._grid == other._grid and self._refs == other._refs
                    and self._scores == other._scores and self._words == other._words)
        if isinstance(other, Sequence) and not isinstance(other, str | bytes):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable-looking like a list: not hashable

    def __repr__(self) -> str:
        head = ", ".join(f"{w} {r} {s}" for r, w, s in self.candidates()[:3])
        return f"<MoveList {len(self)} coups{': ' + head if head else ''}{', …' if len(self) > 3 else ''}>"


def expand_python(grid: bytes, code: int, word: str) -> tuple[tuple, tuple]:
    """A compact move's new tiles ``(row, col, tile)`` and the words it forms with their scores
    (main word first, without the bingo bonus), read from the grid it was generated on."""
    horizontal = code < SQUARES
    row, col = divmod(code % SQUARES, SIZE)
    dr, dc = (0, 1) if horizontal else (1, 0)
    placed: list[tuple[int, int, str]] = []
    crosses: list[tuple[str, int]] = []
    main_sum, mult = 0, 1
    for i, tile in enumerate(word):
        r, c = row + dr * i, col + dc * i
        v = 0 if tile.islower() else VALUES[tile]
        if grid[r * SIZE + c] != 46:  # a tile already there ('.' is empty)
            main_sum += v
            continue
        premium = PREMIUMS[r][c]
        v *= premium.letter_multiplier
        main_sum += v
        mult *= premium.word_multiplier
        rr, cc = r, c
        while rr - dc >= 0 and cc - dr >= 0 and grid[(rr - dc) * SIZE + cc - dr] != 46:
            rr, cc = rr - dc, cc - dr
        text, fixed = [], 0
        while rr < SIZE and cc < SIZE:
            if (rr, cc) == (r, c):
                text.append(tile)
            elif grid[rr * SIZE + cc] != 46:
                other = chr(grid[rr * SIZE + cc])
                text.append(other)
                fixed += 0 if other.islower() else VALUES[other]
            else:
                break
            rr, cc = rr + dc, cc + dr
        if len(text) >= 2:
            crosses.append(("".join(text), (fixed + v) * premium.word_multiplier))
        placed.append((r, c, tile))
    return tuple(placed), ((word, main_sum * mult), *crosses)


_expand = core.expand if core is not None else expand_python
