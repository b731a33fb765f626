"""A written word put at a reference: does it fit the grid, which words it forms, what it scores.

The arbiter needs this for words that are *not* legal moves (to name the
invalid word, to find every place a word written without reference could go),
so it works from the word as the player wrote it, not from a move generator.
Written words use lower case for a circled letter (a joker).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterator
from dataclasses import dataclass
from itertools import combinations, product

from .board import CENTER, PREMIUMS, SIZE, Board, Ref, square_name
from .move import Move
from .tiles import BINGO_BONUS, JOKER, RACK_SIZE, value

Square = tuple[int, int]


@dataclass(frozen=True)
class Fit:
    """A written word laid on the grid, geometry only (no lexicon, no tirage).

    ``letters`` is the whole main word (upper case) read on the grid, which may
    be longer than what was written when a prolongation is allowed; ``new``
    are the indices in it of the squares the move fills; ``circled`` the
    indices the player circled.
    """

    ref: Ref
    letters: str
    new: tuple[int, ...]
    circled: frozenset[int]

    @property
    def squares(self) -> list[Square]:
        return self.ref.squares(len(self.letters))

    @property
    def new_letters(self) -> str:
        return "".join(self.letters[i] for i in self.new)


@dataclass(frozen=True)
class Placement:
    """A complete placement: new tiles (lower case = joker), words formed and score."""

    ref: Ref
    word: str
    placed: tuple[tuple[int, int, str], ...]
    score: int
    words: tuple[tuple[str, int], ...]

    def to_move(self) -> Move:
        return Move(self.ref, self.word, self.placed, self.score, self.words)

    def to_dict(self) -> dict:
        return {"ref": str(self.ref), "word": self.word, "score": self.score}


def _inside(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def _run(board: Board, square: Square, horizontal: bool, new: dict[Square, str]) -> list[Square]:
    """The maximal line of filled squares through ``square`` (grid tiles and new tiles)."""
    dr, dc = (0, 1) if horizontal else (1, 0)
    row, col = square

    def filled(r: int, c: int) -> bool:
        return _inside(r, c) and (board.cells[r][c] is not None or (r, c) in new)

    while filled(row - dr, col - dc):
        row, col = row - dr, col - dc
    squares = []
    while filled(row, col):
        squares.append((row, col))
        row, col = row + dr, col + dc
    return squares


def fit_word(board: Board, ref: Ref, written: str, *, extend: bool = False) -> Fit | str:
    """Lay ``written`` at ``ref``; return the Fit or a French reason why it cannot go there.

    With ``extend`` (raccord mode, prolongation written in part) grid letters
    touching either end become part of the word, provided the written end
    touching them is itself a grid letter (the adjacent letter must be written).
    """
    if not written or not written.isalpha():
        return "mot absent ou illisible"
    squares = ref.squares(len(written))
    if not all(_inside(r, c) for r, c in squares):
        return f"le mot {written.upper()} dépasse de la grille en {ref}"
    letters = list(written.upper())
    circled = {i for i, ch in enumerate(written) if ch.islower()}
    new = []
    for i, (r, c) in enumerate(squares):
        cell = board.cells[r][c]
        if cell is None:
            new.append(i)
        elif cell.upper() != letters[i]:
            return f"case {square_name(r, c)} occupée par {cell.upper()}"
    dr, dc = ref.step
    before = (ref.row - dr, ref.col - dc)
    after = (squares[-1][0] + dr, squares[-1][1] + dc)
    start = ref
    if _inside(*before) and board[before] is not None:
        if not extend or 0 in new:
            return f"le mot touche la lettre {board[before].upper()} placée avant lui"
        prefix = []
        r, c = before
        while _inside(r, c) and board.cells[r][c] is not None:
            prefix.insert(0, board.cells[r][c].upper())
            r, c = r - dr, c - dc
        start = Ref(r + dr, c + dc, ref.horizontal)
        letters = prefix + letters
        new = [i + len(prefix) for i in new]
        circled = {i + len(prefix) for i in circled}
    if _inside(*after) and board[after] is not None:
        if not extend or len(letters) - 1 in new:
            return f"le mot touche la lettre {board[after].upper()} placée après lui"
        r, c = after
        while _inside(r, c) and board.cells[r][c] is not None:
            letters.append(board.cells[r][c].upper())
            r, c = r + dr, c + dc
    if not new:
        return "aucune lettre posée"
    fit = Fit(start, "".join(letters), tuple(new), frozenset(circled))
    fit_squares = fit.squares
    if board.is_empty():
        if CENTER not in fit_squares:
            return "le premier mot doit recouvrir la case centrale H8"
    elif len(new) == len(letters) and not any(
        _inside(r + a, c + b) and board.cells[r + a][c + b] is not None
        for r, c in fit_squares
        for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ):
        return "mot non relié aux lettres de la grille"
    return fit


def word_squares(board: Board, fit: Fit) -> list[list[Square]]:
    """Every word the move forms as square lists: the main word first, then cross words."""
    squares = fit.squares
    new = {squares[i]: fit.letters[i] for i in fit.new}
    words = [squares]
    for i in fit.new:
        cross = _run(board, squares[i], not fit.ref.horizontal, new)
        if len(cross) >= 2:
            words.append(cross)
    return words


def _read(board: Board, squares: list[Square], new: dict[Square, str]) -> str:
    return "".join(new.get(sq) or board[sq] for sq in squares)


def formed_words(board: Board, fit: Fit) -> list[str]:
    """The words formed, upper case, main word first."""
    squares = fit.squares
    new = {squares[i]: fit.letters[i] for i in fit.new}
    return [_read(board, ws, new).upper() for ws in word_squares(board, fit)]


def invalid_words(board: Board, fit: Fit, lexicon: Container[str]) -> list[str]:
    """The words formed that are not in the lexicon, main word first."""
    return [w for w in formed_words(board, fit) if w not in lexicon]


def _score_word(board: Board, squares: list[Square], new: dict[Square, str]) -> int:
    total, multiplier = 0, 1
    for sq in squares:
        if sq in new:
            premium = PREMIUMS[sq[0]][sq[1]]
            total += value(new[sq]) * premium.letter_multiplier
            multiplier *= premium.word_multiplier
        else:
            total += value(board[sq])
    return total * multiplier


def realise(board: Board, fit: Fit, jokers: frozenset[int]) -> Placement:
    """The placement with jokers at the given word indices (new squares only), scored."""
    squares = fit.squares
    new = {squares[i]: (fit.letters[i].lower() if i in jokers else fit.letters[i]) for i in fit.new}
    words = []
    for ws in word_squares(board, fit):
        words.append((_read(board, ws, new), _score_word(board, ws, new)))
    score = sum(s for _, s in words) + (BINGO_BONUS if len(fit.new) == RACK_SIZE else 0)
    placed = tuple((r, c, new[(r, c)]) for r, c in squares if (r, c) in new)
    return Placement(fit.ref, words[0][0], placed, score, tuple(words))


def _uses(letters: str, jokers: int, tirage: Counter) -> bool:
    need = Counter(letters)
    return jokers <= tirage[JOKER] and all(tirage[ch] >= n for ch, n in need.items())


def circles_fit(fit: Fit, tirage: str) -> bool:
    """True when the letters as circled can be taken from the tirage."""
    counts = Counter(tirage)
    jokers = [i for i in fit.new if i in fit.circled]
    plain = "".join(fit.letters[i] for i in fit.new if i not in fit.circled)
    return _uses(plain, len(jokers), counts)


def formable(fit: Fit, tirage: str) -> bool:
    """True when the new letters can come from the tirage, jokers standing in for missing ones."""
    counts = Counter(tirage)
    need = Counter(fit.new_letters)
    missing = sum(max(0, n - counts[ch]) for ch, n in need.items())
    return missing <= counts[JOKER]


def joker_options(fit: Fit, tirage: str) -> list[frozenset[int]]:
    """Every way to put the fewest jokers needed among the new squares (empty when not formable)."""
    if not formable(fit, tirage):
        return []
    counts = Counter(tirage)
    by_letter: dict[str, list[int]] = {}
    for i in fit.new:
        by_letter.setdefault(fit.letters[i], []).append(i)
    choices = []
    for letter, indices in by_letter.items():
        missing = max(0, len(indices) - counts[letter])
        choices.append(list(combinations(indices, missing)))
    return [frozenset(i for part in combo for i in part) for combo in product(*choices)]


def all_fits(
    board: Board, written: str, horizontal: bool, *, extend: bool = False
) -> Iterator[Fit]:
    """Every place on the grid where ``written`` fits in the given direction."""
    length = len(written)
    for row in range(SIZE):
        for col in range(SIZE):
            if horizontal and col + length > SIZE or not horizontal and row + length > SIZE:
                continue
            fit = fit_word(board, Ref(row, col, horizontal), written, extend=extend)
            if isinstance(fit, Fit):
                yield fit
