"""A deliberately naive move lister, written only to check the real generator.

It tries every word of the lexicon at every square in both directions and
every way of giving the jokers a place, and scores by re-reading the grid.
Slow, simple, independent of engine.movegen.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from engine.board import PREMIUMS, SIZE, Board, Ref
from engine.tiles import VALUES


def _in(r: int, c: int) -> bool:
    return 0 <= r < SIZE and 0 <= c < SIZE


def _read(board: Board, r: int, c: int, dr: int, dc: int) -> tuple[int, int, str]:
    """The whole run of tiles through (r, c) along (dr, dc): start square and text."""
    while _in(r - dr, c - dc) and board.cells[r - dr][c - dc]:
        r, c = r - dr, c - dc
    sr, sc = r, c
    text = ""
    while _in(r, c) and board.cells[r][c]:
        text += board.cells[r][c]
        r, c = r + dr, c + dc
    return sr, sc, text


def _word_score(board: Board, squares: list[tuple[int, int]], new: set[tuple[int, int]]) -> int:
    total, mult = 0, 1
    for r, c in squares:
        tile = board.cells[r][c]
        v = 0 if tile.islower() else VALUES[tile]
        if (r, c) in new:
            v *= PREMIUMS[r][c].letter_multiplier
            mult *= PREMIUMS[r][c].word_multiplier
        total += v
    return total * mult


def _touches(board: Board, squares: list[tuple[int, int]]) -> bool:
    for r, c in squares:
        if board.cells[r][c]:
            return True
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if _in(nr, nc) and board.cells[nr][nc]:
                return True
    return False


def brute_moves(board: Board, tirage: str, words: set[str]) -> set[tuple[str, str, int]]:
    """Every legal move as (reference, word with jokers lower case, score).

    Tries every span of the grid that is connected to the tiles (or covers H8
    on an empty grid), every word of that length, every place of the jokers.
    """
    first = all(cell is None for row in board.cells for cell in row)
    rack = Counter(tirage)
    by_length: dict[int, list[str]] = {}
    for word in words:
        by_length.setdefault(len(word), []).append(word)
    found: set[tuple[str, str, int]] = set()
    for horizontal in (True, False) if not first else (True,):
        dr, dc = (0, 1) if horizontal else (1, 0)
        for r in range(SIZE):
            for c in range(SIZE):
                if _in(r - dr, c - dc) and board.cells[r - dr][c - dc]:
                    continue
                for n, candidates in by_length.items():
                    er, ec = r + dr * (n - 1), c + dc * (n - 1)
                    if not _in(er, ec) or (_in(er + dr, ec + dc) and board.cells[er + dr][ec + dc]):
                        continue
                    squares = [(r + dr * i, c + dc * i) for i in range(n)]
                    if first and (7, 7) not in squares:
                        continue
                    if not first and not _touches(board, squares):
                        continue
                    pattern = [board.cells[rr][cc] for rr, cc in squares]
                    new_idx = [i for i, cell in enumerate(pattern) if cell is None]
                    if not new_idx or len(new_idx) > len(tirage):
                        continue
                    for word in candidates:
                        if any(cell and cell.upper() != word[i] for i, cell in enumerate(pattern)):
                            continue
                        needed = Counter(word[i] for i in new_idx)
                        short = sum(max(0, k - rack[ch]) for ch, k in needed.items())
                        if short > rack["?"]:
                            continue
                        for joker_count in range(short, min(rack["?"], len(new_idx)) + 1):
                            for joker_pos in combinations(new_idx, joker_count):
                                real = needed.copy()
                                for i in joker_pos:
                                    real[word[i]] -= 1
                                if any(rack[ch] < k for ch, k in real.items() if k > 0):
                                    continue
                                move = _try(board, squares, word, new_idx, set(joker_pos), words, first)
                                if move is not None:
                                    found.add((str(Ref(r, c, horizontal)), move[0], move[1]))
    return found


def _try(board, squares, word, new_idx, joker_pos, words, first):
    b = board.copy()
    new = set()
    for i in new_idx:
        rr, cc = squares[i]
        b.cells[rr][cc] = word[i].lower() if i in joker_pos else word[i]
        new.add((rr, cc))
    if first:
        if (7, 7) not in new:
            return None
    else:
        touches = False
        for rr, cc in new:
            for nr, nc in ((rr - 1, cc), (rr + 1, cc), (rr, cc - 1), (rr, cc + 1)):
                if _in(nr, nc) and board.cells[nr][nc]:
                    touches = True
        if not touches:
            return None
    horizontal = squares[0][0] == squares[-1][0] and len(squares) > 1
    dr, dc = (0, 1) if horizontal else (1, 0)
    score = _word_score(b, squares, new)
    for rr, cc in new:
        sr, sc, text = _read(b, rr, cc, dc, dr)
        if len(text) < 2:
            continue
        if text.upper() not in words:
            return None
        cross = [(sr + dc * i, sc + dr * i) for i in range(len(text))]
        score += _word_score(b, cross, {(rr, cc)})
    if len(new) == 7:
        score += 50
    main = "".join(b.cells[r][c] for r, c in squares)
    return main, score
