"""Every legal move of a position, with scores (Appel–Jacobson on the DAWG).

Each line (row, then column) is searched from its anchors: empty squares next
to a tile, or H8 on an empty grid. Left parts grow only over empty squares
that are not anchors, so each move is produced exactly once per direction.
A one-tile move is produced once per direction in which its main word has two
letters or more. Every way of using a joker is its own move.

The search runs in the compiled core (``engine._core``, built by ``pip install``)
and comes back as a compact :class:`~engine.movelist.MoveList`. The same search
written in Python, :func:`python_moves`, is the reference the tests compare the
core against, move for move and in the same order, and the fallback where the
core could not be built (:func:`fallback_notice` says so, once).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

from .board import CENTER, PREMIUMS, SIZE, Board
from .dawg import Dawg, core
from .lexicon import Lexicon
from .move import Move, parse_tirage
from .movelist import REFS, MoveList, Row, expand_python, grid_bytes
from .tiles import BINGO_BONUS, JOKER, RACK_SIZE, VALUES

ALL = (1 << 26) - 1
_VALUE = [VALUES[chr(65 + i)] for i in range(26)]
_LM = [[p.letter_multiplier for p in row] for row in PREMIUMS]
_WM = [[p.word_multiplier for p in row] for row in PREMIUMS]


#: value of a grid character: a tile's value, 0 for a joker (lower case)
_TILE_VALUE = {**{chr(65 + i): v for i, v in enumerate(_VALUE)}, **{chr(97 + i): 0 for i in range(26)}}


def _tile_value(tile: str) -> int:
    return _TILE_VALUE[tile]


if core is not None:  # the rules' numbers, decided here once, handed to the compiled search
    core.set_rules(bytes(_VALUE), bytes(x for row in _LM for x in row), bytes(x for row in _WM for x in row),
                   RACK_SIZE, BINGO_BONUS, *CENTER)

_FALLBACK_NOTICE = ("générateur de coups compilé absent (module engine._core non construit) : "
                    "le générateur Python, plus lent, est utilisé ; « make bootstrap » le construit")
_notice_given = False


def compiled() -> bool:
    """Whether moves come from the compiled core."""
    return core is not None


def fallback_notice() -> str | None:
    """The French notice that the slow generator is in use: the text the first time, then ``None``."""
    global _notice_given
    if core is not None or _notice_given:
        return None
    _notice_given = True
    return _FALLBACK_NOTICE


def generate_moves(board: Board, tirage: str, lexicon: Lexicon) -> MoveList:
    """All legal moves for ``tirage`` on ``board``, best score first (ties in generation order)."""
    tirage = parse_tirage(tirage)
    grid = grid_bytes(board.cells)
    graph = lexicon.dawg.graph
    if graph is not None:
        return MoveList(grid, *graph.generate(grid, tirage.encode("ascii")))
    return MoveList.from_rows(grid, python_rows(board, tirage, lexicon))


def python_moves(board: Board, tirage: str, lexicon: Lexicon) -> list[Move]:
    """The pure-Python search, every legal move made a ``Move``, best score first."""
    grid = grid_bytes(board.cells)
    moves = []
    for score, code, word, _ in python_rows(board, tirage, lexicon):
        placed, words = expand_python(grid, code, word)
        moves.append(Move(REFS[code], word, placed, score, words))
    return moves


def python_rows(board: Board, tirage: str, lexicon: Lexicon) -> list[Row]:
    """The pure-Python search: ``(score, reference code, word, tiles | jokers << 4)`` a move,
    best score first, ties in generation order (the compiled core's order too)."""
    tirage = parse_tirage(tirage)
    counts = [0] * 27
    for ch in tirage:
        counts[26 if ch == JOKER else ord(ch) - 65] += 1
    rows: list[Row] = []
    cells = board.cells
    if board.is_empty():
        _search(lexicon, cells, counts, True, rows, first=True)
    else:
        _search(lexicon, cells, counts, True, rows, first=False)
        transposed = [list(col) for col in zip(*cells, strict=True)]
        _search(lexicon, transposed, counts, False, rows, first=False)
    rows.sort(key=itemgetter(0), reverse=True)  # stable: ties keep generation order
    return rows


def top_moves(moves: Sequence[Move], tirage_size: int = RACK_SIZE, bag_empty: bool = False) -> list[Move]:
    """The tied tops, in the rules' order of preference.

    Among moves of the best score, fewer jokers first (keeping both, then one,
    then none); among those, the moves that end the game (bag empty and the
    whole tirage placed); the juge-arbitre chooses among what remains, listed
    in generation order. On a :class:`MoveList` only the tops become ``Move``.
    """
    if isinstance(moves, MoveList):
        def compact(k: int) -> tuple[int, bool]:
            ends_game = bag_empty and moves.tiles_placed(k) == tirage_size
            return (moves.jokers_placed(k), not ends_game)

        return [moves[k] for k in sorted(range(moves.tied_count()), key=compact)]
    if not moves:
        return []
    best = max(m.score for m in moves)
    tied = [m for m in moves if m.score == best]

    def preference(move: Move) -> tuple[int, bool]:
        ends_game = bag_empty and len(move.placed) == tirage_size
        return (move.jokers_used, not ends_game)

    return sorted(tied, key=preference)


def _search(
    lexicon: Lexicon,
    grid: list[list[str | None]],
    counts: list[int],
    horizontal: bool,
    out: list[Row],
    first: bool,
) -> None:
    dawg = lexicon.dawg
    rack_mask = 0
    for code in range(26):
        if counts[code]:
            rack_mask |= 1 << code

    for r in range(SIZE):
        _search_line(dawg, grid, r, counts, rack_mask, horizontal, out, first)


def _search_line(
    dawg: Dawg,
    grid: list[list[str | None]],
    r: int,
    counts: list[int],
    rack_mask: int,
    horizontal: bool,
    out: list[Row],
    first: bool,
) -> None:
    """Every move whose main word lies on line ``r`` of ``grid`` (rows, or columns transposed)."""
    child, dmask, terminal = dawg.child, dawg.mask, dawg.terminal
    tile_value = _TILE_VALUE
    line = grid[r]
    above = grid[r - 1] if r > 0 else None
    below = grid[r + 1] if r < SIZE - 1 else None
    # premiums along this line, in board coordinates
    lm = [(_LM[r][c] if horizontal else _LM[c][r]) for c in range(SIZE)]
    wm = [(_WM[r][c] if horizontal else _WM[c][r]) for c in range(SIZE)]

    # Cross-checks: allowed letters, the fixed part's value, the cross word's text around.
    cross_mask = [ALL] * SIZE
    cross_sum = [-1] * SIZE
    anchors: list[bool] = [False] * SIZE
    if first:
        if r == CENTER[0]:
            anchors[CENTER[1]] = True
    else:
        for c in range(SIZE):
            if line[c] is not None:
                continue
            up_tile = above is not None and above[c] is not None
            down_tile = below is not None and below[c] is not None
            left_tile = c > 0 and line[c - 1] is not None
            right_tile = c < SIZE - 1 and line[c + 1] is not None
            if not (up_tile or down_tile or left_tile or right_tile):
                continue
            anchors[c] = True
            if not (up_tile or down_tile):
                continue
            rr = r - 1
            up = []
            while rr >= 0 and grid[rr][c] is not None:
                up.append(grid[rr][c])
                rr -= 1
            up.reverse()
            rr = r + 1
            down = []
            while rr < SIZE and grid[rr][c] is not None:
                down.append(grid[rr][c])
                rr += 1
            prefix, suffix = "".join(up), "".join(down)
            cross_sum[c] = sum(_tile_value(t) for t in up) + sum(_tile_value(t) for t in down)
            node = dawg.walk(prefix.upper())
            allowed = 0
            if node:
                m = dmask[node]
                upper_suffix = suffix.upper()
                while m:
                    low = m & -m
                    code = low.bit_length() - 1
                    m ^= low
                    end = dawg.walk(upper_suffix, child[node * 26 + code])
                    if end and terminal[end]:
                        allowed |= low
            cross_mask[c] = allowed

    cur: list[str | None] = list(line)
    # letter code of each grid tile on the line (-1 on an empty square)
    codes = [-1 if t is None else ord(t.upper()) - 65 for t in line] + [-1]
    free = [t is None for t in line] + [False]  # False past the edge: nothing to place there

    def record(start: int, end: int) -> None:
        main_sum = 0
        mult = 1
        cross_total = 0
        placed = jokers = 0
        for c in range(start, end):
            tile = cur[c]
            if not free[c]:
                main_sum += tile_value[tile]
                continue
            v = tile_value[tile] * lm[c]
            main_sum += v
            mult *= wm[c]
            if cross_sum[c] >= 0:
                cross_total += (cross_sum[c] + v) * wm[c]
            placed += 1
            if tile > "Z":
                jokers += 1
        score = main_sum * mult + cross_total + (BINGO_BONUS if placed == RACK_SIZE else 0)
        code = r * SIZE + start if horizontal else start * SIZE + r + SIZE * SIZE
        out.append((score, code, "".join(cur[start:end]), placed | jokers << 4))

    def extend_right(c: int, node: int, anchor: int, rmask: int, start: int) -> None:
        code = codes[c] if c < SIZE else -1
        if code >= 0:
            nxt = child[node * 26 + code]
            if nxt:
                extend_right(c + 1, nxt, anchor, rmask, start)
            return
        if c > anchor and terminal[node] and c - start >= 2:
            record(start, c)
        if c >= SIZE:
            return
        joker = counts[26] > 0
        m = dmask[node] & cross_mask[c]
        if not joker:
            m &= rmask
        base = node * 26
        after = c + 1
        after_free = free[after]
        after_mask = cross_mask[after] if after_free else 0
        while m:
            low = m & -m
            code = low.bit_length() - 1
            m ^= low
            nxt = child[base + code]
            # Skip dead ends without a call: nothing to record here and no letter to add.
            if after_free and not terminal[nxt] and not dmask[nxt] & after_mask:
                continue
            if counts[code]:
                counts[code] -= 1
                cur[c] = chr(65 + code)
                extend_right(after, nxt, anchor, rmask if counts[code] else rmask & ~low, start)
                counts[code] += 1
            if joker:
                counts[26] -= 1
                cur[c] = chr(97 + code)
                extend_right(after, nxt, anchor, rmask, start)
                counts[26] += 1
        cur[c] = None

    prefix: list[str] = []

    def left_part(node: int, anchor: int, limit: int, rmask: int) -> None:
        # Only try the anchor when some available letter can go on it from here.
        if dmask[node] & cross_mask[anchor] & (ALL if counts[26] else rmask):
            # The left part ends just before the anchor. Squares left of the
            # word may keep stale letters: record() reads only the word's span.
            start = anchor - len(prefix)
            cur[start:anchor] = prefix
            extend_right(anchor, node, anchor, rmask, start)
        if limit == 0:
            return
        joker = counts[26] > 0
        m = dmask[node] if joker else dmask[node] & rmask
        base = node * 26
        while m:
            low = m & -m
            code = low.bit_length() - 1
            m ^= low
            nxt = child[base + code]
            if counts[code]:
                counts[code] -= 1
                prefix.append(chr(65 + code))
                left_part(nxt, anchor, limit - 1, rmask if counts[code] else rmask & ~low)
                prefix.pop()
                counts[code] += 1
            if joker:
                counts[26] -= 1
                prefix.append(chr(97 + code))
                left_part(nxt, anchor, limit - 1, rmask)
                prefix.pop()
                counts[26] += 1

    for a in range(SIZE):
        if not anchors[a]:
            continue
        if a > 0 and line[a - 1] is not None:
            start = a - 1
            while start > 0 and line[start - 1] is not None:
                start -= 1
            node = dawg.walk("".join(line[start:a]).upper())
            if node:
                extend_right(a, node, a, rack_mask, start)
            continue
        limit = 0
        c = a - 1
        while c >= 0 and line[c] is None and not anchors[c] and limit < RACK_SIZE - 1:
            limit += 1
            c -= 1
        left_part(1, a, limit, rack_mask)
