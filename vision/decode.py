"""Stage 5: decode the bulletin against the legal moves of the coup.

Classifier outputs are treated as scaled likelihoods: reading a cell as
``c`` when ``x`` was written weighs ``K·p(c)`` against 1 for "anything".
Every legal move is a hypothesis for the whole bulletin; the reference and
the score may each disagree with the move (the player miscounted or
mis-referenced: that is what the arbiter must see), and a last hypothesis
keeps the word exactly as read when it is no legal move.

A written field is read from its ink. The game raises or lowers a confidence,
it never replaces what is written: the reference and the score are the values
their cells read (written 30 stays 30 when the move makes 20: the arbiter must
see the miscount); only when the ink hesitates is the move's value proposed,
flagged. A legal word that contradicts a letter the reader is sure of stays
the value but is flagged. The table is chosen among the tables that may still
hand in a bulletin for this coup, and flagged when two of them fit the ink.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache

from engine.board import SIZE, BadReference, Board, Ref
from engine.correction import RACCORD_LETTERS

from .recognise import CharReading

P_LEGAL = 0.9  # prior that the player wrote a legal move (read correctly)
P_REF_OK = 0.9  # the reference written is the move's
P_SCORE_OK = 0.85  # the score written is the move's
LEN_MISMATCH = 1e-4  # likelihood of a reading with a different number of characters
RACCORD_MISS = 0.02  # a raccord letter where the grid has none
P_RACCORD_OK = 0.95  # a raccord letter written where the move's grid has one is that letter
P_TABLE_KNOWN = 0.99  # a player writes a table number of the game's roster
#: a letter of the move that the reader gives less than this where it is sure (≥ 0.9) of
#: another: the move contradicts the ink, the word is flagged
OVERRULED = 0.05
#: a letter read below this, where another legal word at the same place and for the same
#: score has another letter (a joker's letter, mostly), is not enough to choose between the
#: two: on a hand never seen, the runner-up letters' order means little (a circled A read
#: O at 0.5, A nowhere: SoLIVE for SaLIVE, sure at 0.999)
GUESS_DOUBT = 0.7
#: … unless the letter is in no circle, is read at least ``GUESS_FLOOR`` (even odds: a
#: letter whose probability is spread over several shapes is not read, nor one the reader
#: ranks below two others, which leaves it under a third), and is preferred this many times
#: to the rival word's letter there: an I read 0.56 where the rival has an S at 0.01 is
#: read, not guessed; a C read fourth at 0.11 (Q 0.22, J 0.18, G 0.12) where the rival has a
#: P at 0.01 is not (CITA for PITA, both legal at the same place for the same score, was
#: sure at 0.98), nor a blurred S read N at 0.38 (M 0.16, W 0.12) where the rival has the S
#: at 0.002 (PANNEE for PANSEE, both legal at 7I for 21, was sure at 0.993)
GUESS_RATIO = 10.0
GUESS_FLOOR = 0.5
#: confidence cap of a word whose letter the game chose where the ink does not tell (a rival
#: legal word differs there, or the box's letter was not seen)
GUESSED = 0.85
DISAGREE = 0.5       # confidence cap of a field that contradicts the legal move retained
#: the game may raise the confidence of a reference or score read from ink only when the ink
#: alone gives it at least this much (a 7 read 1 as likely as 7 must not become a sure 71
#: because 71 is the move's score: that would hide a miscount). Was 0.7 before ``support``
#: (the other fields must back the move): since then the family-out validation has the same
#: one sure error at 0.3 as at 0.7 (and none of the score, with half the scores miscounted)
#: for 8 points fewer bulletins flagged
INK_MIN = 0.3
#: … and prefer each of its characters at least this many times to the cell's next one (a 2
#: read 0.42 against a 3 at 0.40 is a coin toss between 20 and 30, whatever the product says)
INK_MARGIN = 2.0


#: below this the ink says nothing: the move's value, if it fits the ink better, is proposed
#: (always flagged); above, what is written stays as read
INK_PROPOSE = 0.5
#: a table whose ink likelihood is at least this share of the best table's also fits: flagged
TABLE_RIVAL = 0.02
#: a score the ink reads under this, or one of its digits, is not made sure by the move's
#: score agreeing with it: a miscount (the player's to answer for) misread into the move's
#: value would pass unseen (KEPI written for 48, worth 45, the 8 read 5 at 0.86, 8 at 0.02:
#: 45 at 0.9997; in hard pencil the 8 read 5 at 0.905, the score 45 at 0.87)
SCORE_DIGIT_SURE = 0.9
#: likelihood of a leading "1" lost (thin stroke on the box's edge): 76 read, 176 possible
DROPPED_ONE = 0.05
#: the same where the capture saw no ink unread in the box and no stroke on a rule before
#: the first digit (``fields.Fields.hidden``): a 1 lost there would have left a trace
DROPPED_ONE_UNSEEN = 0.001
#: likelihood of any one digit of the table lost, on a bulletin whose reference or score came
#: out shorter than the move's (a faint pen, a dim photo: the capture is losing characters)
DROPPED_DIGIT = 0.02
LETTER_K = 26
REF_K = 25
DIGIT_K = 10


@dataclass(frozen=True)
class Candidate:
    """A legal move as the decoder needs it."""

    ref: str
    word: str
    score: int

    @property
    def horizontal(self) -> bool:
        return self.ref[:1].isalpha()

    @classmethod
    def of(cls, move) -> Candidate:
        if isinstance(move, tuple):  # (ref, word, score) as MoveList.candidates() gives them
            return cls(str(move[0]), str(move[1]), int(move[2]))
        return cls(str(move.ref), str(move.word), int(move.score))

    @classmethod
    def all_of(cls, moves: Iterable) -> list[Candidate]:
        """The decoder's view of a coup's moves; a compact ``MoveList`` gives its columns
        without making a ``Move`` per legal move (tens of thousands with two jokers)."""
        if hasattr(moves, "candidates"):
            return [cls(ref, word, score) for ref, word, score in moves.candidates()]
        return [m if isinstance(m, Candidate) else cls.of(m) for m in moves]


@dataclass
class FieldValue:
    value: object
    confidence: float
    alternatives: list[tuple[object, float]] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {
            "value": self.value,
            "confidence": round(float(self.confidence), 4),
            "alternatives": [[v, round(float(p), 4)] for v, p in self.alternatives],
        }


@dataclass
class Decoded:
    table: FieldValue
    word: FieldValue
    jokers: list[int]
    jokers_confidence: float
    ref: FieldValue
    score: FieldValue
    raccord: str | None
    sens: str | None
    legal: bool  # the word read is a legal move of the coup
    move: Candidate | None  # the legal move retained, if any
    constrained: bool  # decoded against the game's moves
    #: how sure the raccord letters are: each read as the grid letter at its place for the
    #: move retained (0 where the grid has no letter), or its own reading without the game
    raccord_confidence: float = 1.0
    #: the raccord letters as ink and grid together read them (``likeliest_raccord``): what
    #: the arbiter is first shown when the raccord is in doubt
    raccord_likeliest: str | None = None
    #: the score as its ink alone reads it: ``score`` shows the move's value where the ink
    #: hesitates and that value fits it better (flagged), and then only this tells whether
    #: the written score vouched for the move
    score_ink: object = None
    #: the retained move's letters lined up one to one with the word's cells
    exact: bool = True


#: a struck letter read at least this surely is struck: the word without it is not for the
#: arbiter (a letter read as surely is not either). Stricter than the flag threshold: the
#: game does not check a dropped letter (PLAIN is as legal as PLAINE)
STRUCK_SURE = 0.98
#: inside the word, a letter taken out leaves a shorter word the game checks less often by
#: chance: the bar must only be surer than a coin flip with a letter (CES, its E read struck
#: at 0.53 against E 0.45, its S misread: CE, legal at the same place). Family-out
#: validation: at STRUCK_SURE here, 5 points more bulletins flagged (seed 7), 0.5 at 0.9
STRUCK_INSIDE = 0.9


@dataclass
class Readings:
    """The cells read on one bulletin, grouped by what they mean."""

    word: list[CharReading]
    raccord: list[tuple[int, int, CharReading]]  # (row offset, index in word, reading)
    ref: list[CharReading]
    score: list[CharReading]
    table: list[CharReading]
    #: a cell of the word row was read as a struck letter, not surely (``STRUCK_SURE`` at the
    #: word's ends, ``STRUCK_INSIDE`` between its letters): a letter struck and a letter
    #: misread as struck (an E with a bar through it) change the word alike, at its end
    #: (PLAINE read PLAIN) or inside it (CES read C·S, its S misread: CE, legal at the same
    #: place), so the word is for the arbiter
    struck_unsure: bool = False
    #: columns of short runs of empty boxes between the word's letters (no struck letter there
    #: either): a letter written one per box may have been lost there (too faint to cut);
    #: ``word`` holds an unread cell in each, so that the legal moves align letter to box
    lost: tuple[int, ...] = ()
    #: a cell just above or below the word, within a box of its ends, was read as a struck
    #: letter and left out of the raccord: a raccord letter struck and one misread as struck
    #: look alike (DELPHINE's E, its bar reaching out of the curves: AET read AT, sure), and
    #: nothing of the game checks a raccord letter dropped
    struck_raccord: bool = False
    #: the word row's cells read as struck letters, left out of ``word`` (see
    #: :func:`decode_word`, which may read them as letters after all)
    struck_cells: tuple[CharReading, ...] = ()

    @property
    def blank(self) -> bool:
        return not (self.word or self.raccord or self.ref or self.score or self.table)

    @property
    def struck(self) -> bool:
        """A cell of the word row was read as a struck letter, however surely, left out of
        the word or read back into it: only a score read surely, the retained move's,
        confirms which word the player meant."""
        return bool(self.struck_cells) or any(c.crossed for c in self.word)


def group_readings(readings: Iterable[CharReading], word_row_default: int = 1) -> Readings:
    """Split cell readings: word (fullest grid row, struck letters dropped), raccord, combs."""
    grid = [r for r in readings if r.key.startswith("grid:")]
    combs: dict[str, list[CharReading]] = {"ref": [], "score": [], "table": []}
    for r in readings:
        name = r.key.split(":")[0]
        if name in combs:
            combs[name].append(r)
    for v in combs.values():
        v.sort(key=lambda r: r.col)
    counts: dict[int, int] = {}
    for r in grid:
        counts[r.row] = counts.get(r.row, 0) + 1
    word_row = (
        max(counts, key=lambda k: (counts[k], k == word_row_default))
        if counts
        else word_row_default
    )
    row = sorted((r for r in grid if r.row == word_row), key=lambda r: r.col)
    word = [r for r in row if not r.crossed]
    struck_unsure = bool(word) and any(
        r.crossed and r.confidence < (STRUCK_SURE if k in (0, len(row) - 1) else STRUCK_INSIDE)
        for k, r in enumerate(row)
    )
    lost = _lost_boxes([r.col for r in row])
    if lost:
        word = sorted(word + [CharReading.unread_cell("grid", word_row, c) for c in lost],
                      key=lambda r: r.col)
    cols = [r.col for r in word]
    raccord = []
    for r in grid:
        if r.row == word_row or r.crossed:
            continue
        index = sum(c < r.col for c in cols) if r.col not in cols else cols.index(r.col)
        if r.col < (cols[0] if cols else 0):
            index = -(cols[0] - r.col) if cols else 0
        raccord.append((r.row - word_row, index, r))
    struck_raccord = bool(cols) and any(
        r.crossed and abs(r.row - word_row) == 1 and cols[0] - 1 <= r.col <= cols[-1] + 1 for r in grid
    )
    return Readings(word, raccord, combs["ref"], combs["score"], combs["table"], struck_unsure, lost,
                    struck_raccord, tuple(r for r in row if r.crossed))


#: an empty run of boxes this long at most, between letters of the word, is a letter lost
#: (a wider one parts the word from a stray mark)
LOST_RUN = 2
#: prior that such an empty box held a letter too faint to cut (rather than nothing)
P_LOST = 0.8


def _lost_boxes(cols: list[int]) -> tuple[int, ...]:
    """Columns of the short empty runs between the written boxes of the word row."""
    lost: list[int] = []
    for a, b in zip(cols, cols[1:], strict=False):
        if 1 <= b - a - 1 <= LOST_RUN:
            lost += range(a + 1, b)
    return tuple(lost)


def _log_match(readings: Sequence[CharReading], text: str, k: int) -> float:
    """log P(readings | text written) relative to "anything of that length"."""
    if len(text) != len(readings):
        return math.log(LEN_MISMATCH)
    return sum(math.log(k * max(r.p(ch), 1e-9)) for r, ch in zip(readings, text, strict=True))


SEGMENT_SLIP = math.log(
    0.005
)  # one cell too many or too few (struck letter missed, letter split or merged)


def _cell_logs(readings: Sequence[CharReading]) -> list[dict[str, float]]:
    """Per cell, log(K·p(c)) plus the circle term, for upper (plain) and lower (joker) letters."""
    out = []
    for r in readings:
        c = min(max(r.circled, 0.02), 0.98)
        lc, ln = math.log(c), math.log(1 - c)
        d: dict[str, float] = {}
        for ch, p in r.probs.items():
            if ch.isalpha():
                base = math.log(LETTER_K * max(p, 1e-9))
                d[ch] = base + ln
                d[ch.lower()] = base + lc
        out.append(d)
    return out


def _align(logs: list[dict[str, float]], word: str) -> tuple[float, bool]:
    """log-likelihood of the cells given ``word``; allows one extra cell, or one or two missing
    (penalised).

    Returns (log-likelihood, exact) where exact means one cell per letter."""
    n, m = len(logs), len(word)
    miss = -30.0
    if m == n:
        return sum(cell.get(ch, miss) for cell, ch in zip(logs, word, strict=True)), True
    if m == n - 1:  # one read cell is not a letter of the word
        pre = [0.0]
        for j in range(m):
            pre.append(pre[-1] + logs[j].get(word[j], miss))
        suf = [0.0] * (n + 1)
        for j in range(n - 1, 0, -1):
            suf[j] = suf[j + 1] + logs[j].get(word[j - 1], miss)
        best = max(pre[i] + suf[i + 1] for i in range(n))
        return best + SEGMENT_SLIP, False
    if 1 <= m - n <= 2:  # letters of the word with no cell (wide letters across the borders)
        return _with_missing(logs, word, miss) + (m - n) * SEGMENT_SLIP, False
    return -1e9, False


def _with_missing(logs: list[dict[str, float]], word: str, miss: float) -> float:
    """Best log-likelihood of the cells, in order, reading the word's letters with
    ``len(word) - len(logs)`` of them skipped anywhere (before, between or after the cells)."""
    d = len(word) - len(logs)
    best = [0.0] + [-math.inf] * d  # best[s]: the cells so far, s letters skipped
    for i, cell in enumerate(logs):
        for s in range(1, d + 1):  # skip more letters before this cell
            best[s] = max(best[s], best[s - 1])
        best = [best[s] + cell.get(word[i + s], miss) for s in range(d + 1)]
    return max(best)


def _log_circles(readings: Sequence[CharReading], word: str) -> float:
    total = 0.0
    for r, ch in zip(readings, word, strict=False):
        c = min(max(r.circled, 0.02), 0.98)
        total += math.log(c if ch.islower() else 1 - c)
    return total


def free_word(readings: Sequence[CharReading]) -> str:
    """The letters as read (a box whose letter was not seen adds none: only the game may
    say which it was; nor does a struck one)."""
    return "".join(r.best.lower() if r.circled > 0.5 else r.best for r in readings
                   if not r.unread and not r.crossed)


def free_text(readings: Sequence[CharReading]) -> str:
    return "".join(r.best for r in readings)


def _text_confidence(readings: Sequence[CharReading]) -> float:
    return math.prod(r.confidence for r in readings) if readings else 0.0


def _under_raccord(
    raccord: list[tuple[int, int, CharReading]], cand: Candidate, board: Board
) -> list[tuple[CharReading, str | None]] | None:
    """Each raccord reading with the grid letter where it falls for ``cand`` (None: an empty
    square or off the grid); None when the move's reference does not parse."""
    try:
        ref = Ref.parse(cand.ref)
    except BadReference:
        return None
    return [(reading, _tile_at(board, ref, dr, index)) for dr, index, reading in raccord]


def _tile_at(board: Board, ref: Ref, dr: int, index: int) -> str | None:
    """The grid letter ``dr`` rows off the word (above −1, below +1, as the bulletin shows it)
    at the word's letter ``index``, for a move placed at ``ref`` (None: empty or off the grid)."""
    row, col = (ref.row + dr, ref.col + index) if ref.horizontal else (ref.row + index, ref.col + dr)
    return board.cells[row][col] if 0 <= row < SIZE and 0 <= col < SIZE else None


def _raccord_log(
    raccord: list[tuple[int, int, CharReading]], cand: Candidate, board: Board | None
) -> float:
    pairs = _under_raccord(raccord, cand, board) if raccord and board is not None else None
    return sum(
        math.log(LETTER_K * max(reading.p(tile.upper()), 1e-9)) if tile else math.log(RACCORD_MISS)
        for reading, tile in pairs or ()
    )


def raccord_confidence(
    raccord: list[tuple[int, int, CharReading]], cand: Candidate | None, board: Board | None,
    locates: bool = False,
) -> float:
    """How sure the raccord letters read are. With the move retained and the grid: each must
    be a grid letter at its place (a stray mark or a line's residue read as a raccord letter
    would otherwise turn a right bulletin into « both modes, one wrong »); without them: the
    letters' own confidence. ``locates``: no reference was read, the raccord alone places the
    word (its length then decides a sanction)."""
    if not raccord:
        return 1.0
    if cand is None or board is None:
        return math.prod(x.confidence for _, _, x in raccord)
    pairs = _under_raccord(raccord, cand, board)
    if pairs is None:
        return 0.0
    conf = math.prod(_raccord_letter_sure(reading, tile) for reading, tile in pairs)
    # a raccord read shorter than the rule wants is sanctioned by the correction (warning, or
    # no location at all): where the grid beside the move has a letter the reading lacks, the
    # capture may have lost it (AS read A), and a sanction nobody looked at must not follow
    if locates and len(raccord) < RACCORD_LETTERS and _more_raccord(raccord, cand, board):
        conf = min(conf, DISAGREE)
    return conf


def _raccord_letter_sure(reading: CharReading, tile: str | None) -> float:
    """How sure a raccord letter is the grid letter ``tile`` under it for the move retained.
    A player copies the grid's letters (``P_RACCORD_OK``): where the ink reads that letter
    first, at ``INK_MIN`` at least and ``INK_MARGIN`` times its next letter, the copy is the
    likelier explanation and the letter is sure (an L read 0.62 against an I at 0.2 is the L
    of the grid, not a slip landing on an I); where the ink hesitates or prefers another
    letter, its own probability of the grid letter stays the confidence (a stray mark read
    as a letter must not be made sure by the grid). No grid letter there: nothing copied."""
    if not tile:
        return 0.0
    grid = tile.upper()
    p = reading.p(grid)
    if reading.best != grid or p < INK_MIN or _ink_margin([reading]) < INK_MARGIN:
        return p
    slip = (1 - P_RACCORD_OK) / (LETTER_K - 1)
    return P_RACCORD_OK * p / (P_RACCORD_OK * p + slip * (1 - p))


def likeliest_raccord(
    raccord: list[tuple[int, int, CharReading]], cand: Candidate, board: Board
) -> str | None:
    """The raccord letters as ink and grid together read them: where the move retained has a
    grid letter under a raccord letter, the player copied it but for a rare slip
    (``P_RACCORD_OK``), so that letter is taken wherever that prior makes it likelier than
    the ink's own letter (the L of EL read Z at 0.57, L at 0.40; the D of DEN read Z at 0.80,
    D at 0.005). In the order ``decode_free`` gives them; None when the reference does not
    parse."""
    pairs = _under_raccord(raccord, cand, board)
    if pairs is None:
        return None
    slip = (1 - P_RACCORD_OK) / (LETTER_K - 1)
    placed = sorted(zip(raccord, pairs, strict=True), key=lambda t: (t[0][1], t[0][0]))
    letters = []
    for _, (reading, tile) in placed:
        grid = tile.upper() if tile else None
        take = grid is not None and P_RACCORD_OK * reading.p(grid) > slip * reading.p(reading.best)
        letters.append(grid if take else reading.best)
    return "".join(letters) or None


def _more_raccord(raccord: list[tuple[int, int, CharReading]], cand: Candidate, board: Board) -> bool:
    """Whether the grid has, beside the move's letters, a letter the raccord read does not
    hold (one the player may have written and the capture lost)."""
    ref = Ref.parse(cand.ref)
    read = {(dr, index) for dr, index, _ in raccord}
    return any(_tile_at(board, ref, dr, index) and (dr, index) not in read
               for index in range(len(cand.word)) for dr in (-1, 1))


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _ref_value(text: str) -> str | None:
    try:
        return str(Ref.parse(text))
    except BadReference:
        return text or None


#: share of bulletins whose reference cells hold something that is no reference at all
REF_INVALID = 0.02
#: confidence cap of a reference read with one cell dropped (four cells read)
EXTRA_CELL = 0.8


@lru_cache(maxsize=4)
def _references(length: int) -> tuple[str, ...]:
    """Every reference of the board written with ``length`` characters (the engine says
    what a reference is: H4 or 4H, columns and rows of the grid)."""
    refs = (str(Ref(row, col, horizontal)) for row in range(SIZE) for col in range(SIZE)
            for horizontal in (True, False))
    return tuple(r for r in refs if len(r) == length)

#: letters and digits written alike: where the grammar wants one, part of the other's share
#: is its own (the recogniser's choice between O and 0, I and 1 is often arbitrary)
_TWINS = {"O": "0", "0": "O", "I": "1", "1": "I"}
TWIN_SHARE = 0.3


def ref_char_p(cell: CharReading, ch: str) -> float:
    """How well a reference's cell fits ``ch``: an O and a 0, an I and a 1 count partly for
    each other (one shape, its position decides)."""
    twin = _TWINS.get(ch)
    return cell.p(ch) + (TWIN_SHARE * cell.p(twin) if twin else 0.0)


def _ref_likelihoods(readings: Sequence[CharReading]) -> list[tuple[str, float]]:
    """Each reference of the cells' length (two or three) and how well the cells fit it."""
    return [(ref, math.prod(ref_char_p(r, ch) for r, ch in zip(readings, ref, strict=True)))
            for ref in _references(len(readings))]


def read_ref(readings: Sequence[CharReading]) -> tuple[str, float]:
    """The reference the cells most probably hold, and how sure the ink alone is of it.

    A reference is a letter A–O and a number 1–15, in either order: a cell between a letter
    and the end of a number can only be a digit, so an upright stroke read half « 1 », half
    « I » is a 1 there and an I nowhere else (« H11 », « 1I »: one is a reference, the
    other not). The confidence is the reading's share among the references the cells could
    be, next to « something else » written (``REF_INVALID``, spread over every string); an
    O and a 0, an I and a 1 are near-identical shapes whose meaning the position gives
    (``TWIN_SHARE``); an ink that clearly spells no reference stays doubtful."""
    n = len(readings)
    text = free_text(readings)
    if n == 4:  # one cell too many (a stroke split in two, a stray mark): the best of the
        # references left by dropping one cell, never sure (the arbiter sees which)
        best = max((read_ref([r for j, r in enumerate(readings) if j != i]) for i in range(n)),
                   key=lambda t: t[1])
        return best[0], min(best[1], EXTRA_CELL)
    if n not in (2, 3):
        return text, _text_confidence(readings) if is_reference(text) else 0.0
    best, best_lik, total = text, -1.0, 0.0
    liks = _ref_likelihoods(readings)
    for ref, lik in liks:
        total += lik
        if lik > best_lik:
            best, best_lik = ref, lik
    count = len(liks)
    valid = (1 - REF_INVALID) / count
    other = REF_INVALID / float(REF_K) ** n  # the cells' likelihood summed over all strings
    return best, valid * best_lik / (valid * total + other)


def is_reference(ref: object) -> bool:
    """Whether ``ref`` is a reference at all (H8, 8H), right or wrong."""
    try:
        Ref.parse(ref)  # type: ignore[arg-type]
    except BadReference:
        return False
    return True


def sens_of(ref: str | None) -> str | None:
    """The direction a reference writes: a row letter first is horizontal (H8), a column
    number first vertical (8H)."""
    if not ref:
        return None
    return "h" if ref[:1].isalpha() else "v"


def decode_free(r: Readings) -> Decoded:
    """Reading without the game: each field as read, confidence = product of cell confidences."""
    word = free_word(r.word)
    ref_text, ref_ink = read_ref(r.ref) if r.ref else ("", 1.0)
    score_text = free_text(r.score)
    table_text = free_text(r.table)
    jokers = [i for i, ch in enumerate(word) if ch.islower()]
    jconf = math.prod(max(x.circled, 1 - x.circled) for x in r.word) if r.word else 1.0
    raccord = "".join(x.best for _, _, x in sorted(r.raccord, key=lambda t: (t[1], t[0]))) or None
    ref = _ref_value(ref_text)
    ref_conf = ref_ink
    if ref_text and not is_reference(ref):
        ref_conf = 0.0
    return Decoded(
        table=FieldValue(_number(table_text), _text_confidence(r.table)),
        word=FieldValue(word or None, _text_confidence(r.word)),
        jokers=jokers,
        jokers_confidence=jconf,
        ref=FieldValue(ref, ref_conf),
        score=FieldValue(_number(score_text), _text_confidence(r.score) if score_text else 1.0),
        raccord=raccord,
        sens=sens_of(ref),
        score_ink=_number(score_text),
        legal=False,
        move=None,
        constrained=False,
        raccord_confidence=raccord_confidence(r.raccord, None, None),
    )


def decode(
    r: Readings,
    candidates: Iterable[Candidate] | None = None,
    board: Board | None = None,
    tables: Iterable[int] | None = None,
    table_hidden: bool = True,
) -> Decoded:
    """The most probable reading given the legal moves (``None``: no game, read freely);
    ``table_hidden``: whether a digit may hide unread in the table box (see
    ``DROPPED_ONE_UNSEEN``)."""
    free = decode_free(r)
    ink_table = free.table
    dropped_one = DROPPED_ONE if table_hidden else DROPPED_ONE_UNSEEN
    if tables is not None and r.table:
        free.table = _decode_table(r.table, tables, ink_table, dropped_one)
    if candidates is None or not r.word:
        return free
    cands = Candidate.all_of(candidates)
    n = len(r.word)
    seen_n = n - len(r.lost)
    cands = [c for c in cands if seen_n - 1 <= len(c.word) <= n + 2]
    logs = _cell_logs(r.word)
    # an empty box inside the word held a letter too faint to cut, or nothing (a speck beside
    # the word): each move is scored on the likelier of the two, equally probable a priori
    seen_logs = _cell_logs([c for c in r.word if not c.unread]) if r.lost else None
    exact: dict[str, bool] = {}
    ref_text, score_text = (read_ref(r.ref)[0] if r.ref else ""), free_text(r.score)
    has_ref, has_score = bool(r.ref), bool(r.score)
    free_ref = _ref_value(ref_text)
    free_score = _number(score_text)

    hyps: list[tuple[float, str, Candidate | None]] = []
    terms: list[tuple[float, float]] = []  # each hypothesis's reference and score evidence
    log_prior = math.log(P_LEGAL / max(len(cands), 1))
    word_cache: dict[str, float] = {}
    ref_cache: dict[str, float] = {}
    score_cache: dict[int, float] = {}
    for c in cands:
        lw = word_cache.get(c.word)
        if lw is None:
            lw, exact[c.word] = _align(logs, c.word)
            if seen_logs is not None:
                lw += math.log(P_LOST)
                lw_seen, exact_seen = _align(seen_logs, c.word)
                if lw_seen + math.log(1 - P_LOST) > lw:
                    lw, exact[c.word] = lw_seen + math.log(1 - P_LOST), exact_seen
            word_cache[c.word] = lw
        base = log_prior + lw + _raccord_log(r.raccord, c, board)
        ref_term = score_term = 0.0
        if has_ref:
            if c.ref not in ref_cache:
                ref_cache[c.ref] = _log_evidence(r.ref, c.ref, REF_K, P_REF_OK)
            ref_term = ref_cache[c.ref]
        if has_score:
            if c.score not in score_cache:
                score_cache[c.score] = _log_evidence(r.score, str(c.score), DIGIT_K, P_SCORE_OK)
            score_term = score_cache[c.score]
        hyps.append((base + ref_term + score_term, c.word, c))
        terms.append((ref_term, score_term))
    # the word as read, legal or not
    hyps.append((math.log(1 - P_LEGAL), free.word.value, None))
    terms.append((0.0, 0.0))
    top = max(h[0] for h in hyps)
    weights = [math.exp(h[0] - top) for h in hyps]
    total = sum(weights)
    post = [w / total for w in weights]

    def marginal(index: int, key=lambda v: v) -> list[tuple[object, float]]:
        acc: dict[object, float] = {}
        for h, p in zip(hyps, post, strict=True):
            acc[key(h[index])] = acc.get(key(h[index]), 0.0) + p
        return sorted(acc.items(), key=lambda kv: -kv[1])

    best = max(range(len(hyps)), key=lambda i: post[i])
    _, bword, bmove = hyps[best]
    words = marginal(1, lambda w: w.upper() if w else w)
    posterior = dict(words)
    word_conf = posterior.get(bword.upper() if bword else bword, 0.0)

    def support(field: int, value_of) -> float:
        """How sure the game is of the retained move's reference or score *without* that
        field's own ink (which must not vouch for itself): the posterior, on the other
        fields, of the moves that share the value."""
        if bmove is None:
            return 0.0
        w = _weights_without(hyps, terms, field)
        want = value_of(bmove)
        same = sum(x for x, h in zip(w, hyps, strict=True) if h[2] is not None and value_of(h[2]) == want)
        return same / sum(w)

    joker_pattern = marginal(1)
    jconf = dict(joker_pattern).get(bword, 0.0) / max(word_conf, 1e-12)
    if bmove is not None and _circles_overruled(r.word, bword):
        jconf = min(jconf, DISAGREE)
    raccord = free.raccord
    sens = sens_of(free_ref) or (("h" if bmove.horizontal else "v") if bmove else None)
    score_chose = bmove is not None and _chosen_by_score(hyps, terms, bword)
    if bmove is None:  # not a legal move: kept as read, never trusted without the arbiter
        word_conf = min(word_conf, 0.5 * free.word.confidence, DISAGREE)
    elif _overruled(r.word, bmove.word):  # the move contradicts a letter the reader is sure of
        word_conf = min(word_conf, DISAGREE)
    elif not exact.get(bmove.word, True):  # cells and letters did not line up one to one
        word_conf = min(word_conf, 0.8)
    elif (r.lost or score_chose or _rival_fits(posterior, bmove, cands)
          or _guessed(r.word, bmove, cands,  # a score the ink alone reads surely may settle it
                      free.score.value if free.score.confidence >= SCORE_DIGIT_SURE else None)):
        word_conf = min(word_conf, GUESSED)  # a letter the ink does not tell
    ref_field = (
        _written_field(r.ref, free_ref, free.ref.confidence, bmove.ref if bmove else None,
                       REF_K, P_REF_OK, ref_text, support(0, lambda m: m.ref), _ref_margin(r.ref))
        if has_ref
        else FieldValue(None, 1.0)
    )
    if has_ref and not is_reference(ref_field.value):  # not even a reference: always for the arbiter
        ref_field.confidence = 0.0
    score_field = (
        _written_field(r.score, free_score, free.score.confidence,
                       bmove.score if bmove else None, DIGIT_K, P_SCORE_OK, score_text,
                       support(1, lambda m: m.score), digit_sure=SCORE_DIGIT_SURE)
        if has_score
        else FieldValue(None, 1.0)
    )
    for written, legal in ((ref_field, bmove.ref if bmove else None),
                           (score_field, bmove.score if bmove else None)):
        if one_character_short(written.value, legal):
            written.confidence = min(written.confidence, DISAGREE)
    if (bmove is not None and has_score and ref_field.value != bmove.ref
            and any(one_character_short(ref_field.value, c.ref) for c in cands
                    if c.word.upper() == bmove.word.upper())):
        # the reference lost a character (O12 read O2): the score, from the same pen, may have
        # too, and then fit another place of the word (16 read 6: SE is worth 6 at 13J)
        score_field.confidence = min(score_field.confidence, DISAGREE)
    if score_chose and has_score:
        # the score picked the word against the ink: a digit misread there picks the wrong
        # word and leaves a score that fits it (BUT at 15F for 39 under a shake, its 9 read
        # 3 at 0.99: EUT, worth 33 there); the arbiter who mends the word must see the score
        score_field.confidence = min(score_field.confidence, DISAGREE)
    if _score_fits_a_rival(bmove, free_score if has_score else None, cands):
        word_conf = min(word_conf, GUESSED)
    if has_ref and _score_fits_another_place(bmove, score_field.value if has_score else None, cands):
        ref_field.confidence = min(ref_field.confidence, DISAGREE)
    if has_ref and _place_rests_on_doubtful_ink(r.ref, ref_field.value, bmove, cands):
        ref_field.confidence = min(ref_field.confidence, DISAGREE)
    if bmove is not None and any(c.word != bmove.word and c.word.upper() == bword.upper() for c in cands):
        # the score is what checks the circles (a joker scores nothing): where the legal moves
        # leave the jokers open, they are no surer than the score read (a big round O taken
        # for a circle gives a joker no one wrote, and only the score would tell)
        jconf = min(jconf, score_field.confidence if has_score else DISAGREE)
        if _joker_uncircled(r.word, bword):
            jconf = min(jconf, DISAGREE)
    table = free.table
    if tables is not None and r.table and bmove is not None and (
        (has_ref and len(r.ref) < len(bmove.ref)) or (has_score and len(r.score) < len(str(bmove.score)))
    ):  # this capture lost characters elsewhere (83 read 8 when M2 read 7 and 25 read 1)
        table = _decode_table(r.table, tables, ink_table, dropped_one, DROPPED_DIGIT)
    if bmove is not None and table.value is not None and r.table:
        # the same hand wrote every field: a digit the game shows misread in the reference or
        # the score (M8 read M1) may be misread in the table as well (18 read 11)
        misread = _misread_digits(ref_text, bmove.ref) | _misread_digits(score_text, str(bmove.score))
        if misread & {c.best for c in r.table}:
            table = FieldValue(table.value, min(table.confidence, DISAGREE), table.alternatives)
    return Decoded(
        table=table,
        word=FieldValue(bword, word_conf, [(w, p) for w, p in words[:3]]),
        jokers=[i for i, ch in enumerate(bword or "") if ch.islower()],
        jokers_confidence=min(jconf, 1.0),
        ref=ref_field,
        score=score_field,
        raccord=raccord,
        sens=sens,
        legal=bmove is not None,
        move=bmove,
        constrained=True,
        exact=bmove is not None and exact.get(bmove.word, True),
        raccord_confidence=raccord_confidence(r.raccord, bmove, board, not has_ref),
        raccord_likeliest=(likeliest_raccord(r.raccord, bmove, board)
                           if r.raccord and bmove is not None and board is not None else None),
        score_ink=free_score if has_score else None,
    )


#: at most this many cells of the word row read as struck are tried as letters (each one is
#: a second decoding; a row with more is a corrected word, for the arbiter anyway)
STRUCK_TRIED = 2


def decode_word(
    r: Readings,
    candidates: Iterable[Candidate] | None = None,
    board: Board | None = None,
    tables: Iterable[int] | None = None,
    table_hidden: bool = True,
) -> tuple[Readings, Decoded]:
    """:func:`decode`, and the readings it rests on. A cell of the word row read as a struck
    letter is left out of the word; where no legal move then spells the word letter for
    letter, the cell is read as the letter it also resembles: a hand whose letters carry
    a stroke reaching out of their curves looks struck to a recogniser that never saw it
    (DELPHINE's E read struck at 0.98: OE read O, OE kept only at the price of a letter
    with no cell). The longer word is kept only where its legal move lines up one to one
    with the cells; the word is still the arbiter's (``reader._struck_read_back``): a
    letter struck for good whose score was left as the longer word's reads the same."""
    decoded = decode(r, candidates, board, tables, table_hidden)
    if (candidates is None or not r.struck_cells or len(r.struck_cells) > STRUCK_TRIED
            or (decoded.legal and decoded.exact)):
        return r, decoded
    kept = replace(r, word=sorted([*r.word, *r.struck_cells], key=lambda c: c.col), struck_cells=())
    again = decode(kept, candidates, board, tables, table_hidden)
    if again.legal and again.exact:
        return kept, again
    return r, decoded


def _lik_written(readings: Sequence[CharReading], text: str, k: int, split: bool = False) -> float:
    """P(cells | ``text`` written), relative to "anything of that length"; a text one
    character longer than the cells read may have lost one to the capture (a digit too
    faint, two merged), at the price of a slip. ``split``: a text one character shorter
    may likewise have had a digit cut in two (21 read 211), one of the cells read being
    anything."""
    lik = math.exp(min(_log_match(readings, text, k), 200.0))
    if len(text) == len(readings) + 1 and readings:
        lik = max(
            lik,
            *(math.exp(min(_log_match(readings, text[:i] + text[i + 1:], k) + SEGMENT_SLIP, 200.0))
              for i in range(len(text))),
        )
    if split and len(text) == len(readings) - 1 and text:
        lik = max(
            lik,
            *(math.exp(min(_log_match([*readings[:i], *readings[i + 1:]], text, k) + SEGMENT_SLIP, 200.0))
              for i in range(len(readings))),
        )
    return lik


def _log_evidence(readings: Sequence[CharReading], legal: str, k: int, p_ok: float) -> float:
    """log P(cells | the move's value is ``legal``), relative to "anything": the player wrote
    the move's value (``p_ok``) or any other one (uniform)."""
    lik = _lik_written(readings, legal, k)
    space = float(k) ** len(readings)
    return math.log(p_ok * lik + (1 - p_ok) * max(1 - lik / space, 0.0) + 1e-300)


def _ink_margin(readings: Sequence[CharReading]) -> float:
    """How many times the reading as read beats its likeliest other reading (one cell changed)."""
    ratios = []
    for r in readings:
        top = r.alternatives(2)
        ratios.append(top[0][1] / max(top[1][1], 1e-12) if len(top) > 1 else math.inf)
    return min(ratios, default=math.inf)


def _ref_margin(readings: Sequence[CharReading]) -> float:
    """How many times the likeliest reference beats the next one: a reference is read by its
    grammar (``read_ref``), so an 8 read as much B as 8 in M8 is no coin toss (MB is no
    reference), while a 7 read 0.61 against a 1 at 0.32 in M7 is (M1 is one)."""
    if len(readings) not in (2, 3):
        return _ink_margin(readings)
    liks = sorted((lik for _, lik in _ref_likelihoods(readings)), reverse=True)
    return liks[0] / max(liks[1], 1e-300) if liks[0] > 0 else 0.0


def _written_field(
    readings: Sequence[CharReading],
    value: object,
    ink_conf: float,
    legal: object,
    k: int,
    p_ok: float,
    text: str | None = None,
    support: float = 1.0,
    margin: float | None = None,
    digit_sure: float = 0.0,
) -> FieldValue:
    """A reference or score: ``value`` as its ink reads; the move's ``legal`` value only changes
    how sure that reading is. Only when the ink hesitates (under ``INK_PROPOSE``) and the move's
    value fits it better is that value proposed instead, flagged. No move: the ink alone,
    capped (nothing corroborates it). ``support``: how sure the game is of the move's value
    on the other fields; the game raises a reading no higher than that, or than the ink
    alone (a 2 read 1 at 0.92 must not become a sure H11 because a doubtful word has a move
    at H11). ``margin``: how clearly the ink prefers its reading to the next one (``_ink_margin``
    by default: cell by cell). ``digit_sure``: where the ink reads the field, or one of its
    characters, under this, the move's value agreeing with it does not raise it above the
    ink's own confidence (a score: a miscount misread into the move's value, 48 read 45, the
    8 read 5 at 0.86, or at 0.90 with the field read at 0.87)."""
    if legal is None:
        return FieldValue(value, min(ink_conf, DISAGREE), [(value, ink_conf)])
    text = str(value) if text is None else text
    if len(text) > 1 and text[0] == "0":  # nobody writes 06: a digit misread, the ink hesitates
        ink_conf = 0.0
    lik_legal = _lik_written(readings, str(legal), k)
    space = float(k) ** len(readings)
    others = (1 - p_ok) * max(1 - lik_legal / space, 0.0)
    norm = p_ok * lik_legal + others
    if value == legal:
        conf = min(p_ok * lik_legal / max(norm, 1e-300), max(support, ink_conf))
        if ink_conf < digit_sure or (readings and min(r.p(r.best) for r in readings) < digit_sure):
            conf = min(conf, ink_conf)
        alternatives = [(value, conf)]
    else:
        lik = math.exp(min(_log_match(readings, text, k), 200.0)) if value is not None else 0.0
        p_value = (1 - p_ok) * lik / space / max(norm, 1e-300)
        p_legal = p_ok * lik_legal / max(norm, 1e-300)
        if ink_conf < INK_PROPOSE and p_legal > p_value:
            # the ink hesitates and the move's value fits it: proposed, but for the arbiter
            return FieldValue(legal, min(p_legal, DISAGREE), [(legal, p_legal), (value, p_value)])
        conf = min(p_value, DISAGREE)
        # shown to the arbiter (``reader._likeliest_in_doubt``), never deciding the reading:
        # the move's value also where the capture cut one of its digits in two (20 read 291),
        # weighed against the ink's reading with that explanation counted in (28 read 128,
        # the stray 1 a piece of the 2: 28 likelier than 128, not capped under it)
        lik_split = _lik_written(readings, str(legal), k, split=True)
        shown = conf
        if lik_split > lik_legal and lik > 0:
            norm_split = p_ok * lik_split + others
            p_legal = p_ok * lik_split / norm_split
            shown = min(conf, (1 - p_ok) * lik / space / norm_split)
        alternatives = [(value, shown), (legal, p_legal)]
    margin = _ink_margin(readings) if margin is None else margin
    if ink_conf < INK_MIN or margin < INK_MARGIN:  # the game cannot make a doubtful reading
        # sure: the ink must at least prefer it clearly to its next reading (a reference's
        # next reading is the next reference)
        conf = min(conf, DISAGREE)
    return FieldValue(value, conf, alternatives)


def _overruled(cells: Sequence[CharReading], word: str) -> bool:
    """Whether ``word`` (one letter per cell) puts a letter where the reader is sure of another.
    A cell read as struck holds no letter to contradict: it is in the word only where
    :func:`decode_word` found nothing else that spells it."""
    if len(cells) != len(word):
        return False
    return any(cell.p(ch.upper()) < OVERRULED and cell.confidence >= 0.9 and not cell.crossed
               for cell, ch in zip(cells, word, strict=True))


#: a circle (or its absence) the joker reader is this sure of is ink the game may not overrule
CIRCLE_SURE = 0.1


def _circles_overruled(cells: Sequence[CharReading], word: str) -> bool:
    """Whether the retained word (one letter per cell) puts a joker where the reader sees no
    circle, or a plain letter in a circle, both surely: the other fields chose that move (a
    miscounted score that fits another move with a blank), the ink did not."""
    if len(cells) != len(word):
        return False
    return any(
        not cell.unread and (cell.circled < CIRCLE_SURE if ch.islower() else cell.circled > 1 - CIRCLE_SURE)
        for cell, ch in zip(cells, word, strict=True)
    )


#: a joker the circles place on a cell read circled less surely than this …
JOKER_CIRCLED = 0.5


def _joker_uncircled(cells: Sequence[CharReading], word: str) -> bool:
    """… where the legal moves leave the jokers open, was placed by a circle the reader does
    not believe in, only less doubted than elsewhere (GUEZE whose circled last E, pale in
    colour ink, read circled at 0.001: the joker put on the other E, circled at 0.36)."""
    return len(cells) == len(word) and any(
        ch.islower() and not cell.unread and cell.circled < JOKER_CIRCLED
        for cell, ch in zip(cells, word, strict=True)
    )


def _guessed(cells: Sequence[CharReading], move: Candidate, cands: Sequence[Candidate],
             score: int | None = None) -> bool:
    """Whether a rival legal word differs from ours only where the reader doubted ours: same
    place and score, another letter; or our word less a doubtful first or last letter that
    the score read surely (``score``: its ink alone at ``SCORE_DIGIT_SURE`` at least) does not
    rule out."""
    if _edge_guessed(cells, move, cands, score):
        return True
    word = move.word.upper()
    for rival in _rivals(move, move.score, cands):
        if len(rival.word) != len(word):
            continue
        for cell, a, b, ja, jb in zip(cells, word, rival.word.upper(), move.word, rival.word, strict=True):
            if a != b and (_doubted(cell, a, b)
                           or (ja.islower() and jb.islower() and cell.p(a) < JOKER_LETTER_SURE)):
                return True
    return False


#: a joker's letter, which the score does not check (a joker scores nothing), against a rival
#: joker's at the same place and score, must be read this surely: the circle's ink muddles
#: it (BEtES, the T inside its circle read D at 0.977: BEdES, legal for the same 28 points)
JOKER_LETTER_SURE = 0.99


def _score_fits_a_rival(move: Candidate | None, score: object, cands: Sequence[Candidate]) -> bool:
    """Whether the score read is not the retained move's but exactly another word's at the
    same place: the word, not the count, may be what is misread (DOSEE written for its 20
    points, its E's read as struck letters: DOS, worth 16, beside a score that fits DOSEE).
    The score alone flagged, the arbiter would correct it to 16."""
    if move is None or not isinstance(score, int) or score == move.score:
        return False
    return any(_rivals(move, score, cands))


def _score_fits_another_place(move: Candidate | None, score: object, cands: Sequence[Candidate]) -> bool:
    """Whether the score read is not the retained move's but exactly the same word's at
    another place: the reference, not the count, may be what is misread (DURERA at H8 for
    16 under a camera shake, its 8 cut as a 5 and read so at 0.98: DURERA is worth 14 at
    H5, and the 16 passed for the player's miscount). The score alone flagged, the arbiter
    would sanction a count that was right, at a place that was wrong."""
    if move is None or not isinstance(score, int) or score == move.score:
        return False
    word = move.word.upper()
    return any(c.word.upper() == word and c.score == score and c.ref != move.ref for c in cands)


#: a reference's character the reader gives less than this, where the retained word is worth
#: the same score at a place differing in that character, leaves the place to the arbiter
REF_CELL_SURE = 0.9


def _place_rests_on_doubtful_ink(
    cells: Sequence[CharReading], ref: object, move: Candidate | None, cands: Sequence[Candidate]
) -> bool:
    """Whether the retained word is worth the same score at another place whose reference
    differs from the one read only in characters the ink is unsure of: neither word nor score
    tells the places apart, the ink alone does, and its share among references (a letter
    cannot stand there) hides a hesitating cell (ADOREE at H7 for 16 under a camera shake,
    its barred 7 read 4 at 0.85: ADOREE is worth 16 at H4 too, and H4 passed at 0.97). A
    cell read otherwise once seen with its faded ink is unsure however sure it reads (H8 in
    hard pencil, the 8's upper right stroke faded: H6 at 0.97, OUIRENT worth 66 at both)."""
    if move is None or not isinstance(ref, str) or len(cells) != len(ref):
        return False
    word = move.word.upper()
    for c in cands:
        if c.word.upper() != word or c.score != move.score or c.ref == ref or len(c.ref) != len(ref):
            continue
        differ = [(cell, mine) for cell, mine, theirs in zip(cells, ref, c.ref, strict=True)
                  if mine != theirs]
        if all(ref_char_p(cell, mine) < REF_CELL_SURE or cell.faded_otherwise
               for cell, mine in differ):
            return True
    return False


def _rivals(move: Candidate, score: int, cands: Sequence[Candidate]) -> Iterator[Candidate]:
    """The legal moves at ``move``'s place worth ``score`` with another word (jokers aside)."""
    word = move.word.upper()
    return (c for c in cands if c.ref == move.ref and c.score == score and c.word.upper() != word)


#: a rival legal word at the retained move's place and for its score that keeps this share
#: of the retained word's posterior also fits: neither place nor score tells them apart, the
#: ink alone does, and on a hand never seen the reader can be wrong and sure (FEU written at
#: E10 for 23 in pencil, its U read E: FEE, worth 23 there too, at 0.97 against 0.03)
WORD_RIVAL = 0.02


def _rival_fits(words: dict, move: Candidate, cands: Sequence[Candidate]) -> bool:
    """Whether another legal word at the move's place, for its score, keeps ``WORD_RIVAL``
    of its posterior (``words``: the posterior of each word, upper case)."""
    ours = words.get(move.word.upper(), 0.0)
    return any(words.get(c.word.upper(), 0.0) >= WORD_RIVAL * ours for c in _rivals(move, move.score, cands))


def _chosen_by_score(hyps: Sequence[tuple[float, str | None, Candidate | None]],
                     terms: Sequence[tuple[float, float]], word: str | None) -> bool:
    """Whether the ink and the reference, without the score, would choose another word: the
    score picked the word, and a miscount would make it pick the wrong one, unseen (MUEE
    written for 21, worth 20, its M read Y, V or M, the P at 0.008: PUEE, worth 21)."""
    acc: dict[str, float] = {}
    for w, h in zip(_weights_without(hyps, terms, 1), hyps, strict=True):
        if h[2] is not None:
            acc[h[2].word.upper()] = acc.get(h[2].word.upper(), 0.0) + w
    return word is not None and bool(acc) and max(acc, key=acc.__getitem__) != word.upper()


def _weights_without(hyps: Sequence[tuple[float, str | None, Candidate | None]],
                     terms: Sequence[tuple[float, float]], field: int) -> list[float]:
    """Each hypothesis's weight (unnormalised) without the evidence of one field's ink (0:
    the reference, 1: the score), which must not vouch for itself."""
    logs = [h[0] - t[field] for h, t in zip(hyps, terms, strict=True)]
    top = max(logs)
    return [math.exp(v - top) for v in logs]


#: a letter reaching its box's side rule, whose erasing took what of it lay there, must be
#: read this surely to choose between two legal words (MORES written wide, the O's left side
#: on the rule on its left: U at 0.954, MURES, at the same place for the same score)
SIDE_RULE_SURE = 0.99


def _doubted(cell: CharReading, ours: str, rival: str) -> bool:
    """Whether the reader leaves the cell between our letter and a rival word's: reaching
    its box's side rule, read under ``SIDE_RULE_SURE`` with the rival's letter next; or read
    under ``GUESS_DOUBT``, and either circled (a joker's letter: the circle's ink muddles it), or
    under ``GUESS_FLOOR`` (on a hand never seen, a letter given less than even odds, let alone
    one the reader ranks below others, is not read), or not preferred ``GUESS_RATIO`` times
    to the rival's letter."""
    p = cell.p(ours)
    if cell.on_side_rule and p < SIDE_RULE_SURE and sum(q > cell.p(rival) for q in cell.probs.values()) <= 1:
        return True  # the rival's letter next after ours: what the rule took may tell them apart
    if p >= GUESS_DOUBT:
        return False
    return cell.circled >= 0.5 or p < GUESS_FLOOR or p < GUESS_RATIO * cell.p(rival)


def one_character_short(read: object, legal: object) -> bool:
    """Whether a reference or score read is the retained move's with one character less: a
    character the capture lost (16 read 6 and O12 read O2 off the boxes, in Steve Hand's
    hand: the 1s too thin), far likelier than a player's slip that drops exactly one. Kept
    as read, never passed unseen."""
    if read is None or legal is None:
        return False
    text, full = str(read), str(legal)
    return len(full) == len(text) + 1 and any(full[:i] + full[i + 1:] == text for i in range(len(full)))


def _misread_digits(read: str, legal: str) -> set[str]:
    """The digits read where the move's value, of the same length, has another one."""
    if len(read) != len(legal):
        return set()
    return {a for a, b in zip(read, legal, strict=True) if a != b and a.isdigit()}


def _edge_guessed(cells: Sequence[CharReading], move: Candidate, cands: Sequence[Candidate],
                  score: int | None = None) -> bool:
    """Whether the word's first or last letter is read under ``GUESS_DOUBT`` and the word
    without it is a legal move on the same squares: that cell may be no letter at all (half
    of a wide letter across a border, a speck), and MER becomes MERS on its say-so. Unless
    the score, read surely, is our move's and not the shorter word's: the player counted
    the letter (MERS written for its 20 points, MER worth 19), which a speck beside the word
    or half of a letter is not (a miscount landing exactly on the longer word's value, with
    a speck read as exactly its letter, is the remaining coincidence)."""
    word = move.word.upper()
    if len(cells) != len(word) or len(word) < 3:
        return False
    try:
        ref = Ref.parse(move.ref)
    except BadReference:
        return False
    shorter: set[tuple[str, str]] = set()
    if cells[-1].p(word[-1]) < GUESS_DOUBT:
        shorter.add((word[:-1], str(ref)))
    if cells[0].p(word[0]) < GUESS_DOUBT:
        row, col = ref.squares(2)[1]  # the shorter word starts one square on
        if row < SIZE and col < SIZE:
            shorter.add((word[1:], str(Ref(row, col, ref.horizontal))))
    return any((c.word.upper(), c.ref) in shorter and not (score == move.score != c.score)
               for c in cands)


def _decode_table(
    readings: Sequence[CharReading], tables: Iterable[int], free: FieldValue,
    dropped_one: float = DROPPED_ONE, dropped_digit: float = 0.0,
) -> FieldValue:
    """The table among those that may hand in this bulletin (``tables``: the caller's set, e.g.
    registered players with no result yet for this coup), or as read when none fits.

    Flagged (confidence capped) when two tables of the set fit the ink, when the value read
    is in no table of the set, when it needs a lost digit (a leading 1 on the box's edge;
    any digit, at ``dropped_digit``, where the capture lost characters of other fields), or
    when it contradicts a digit the reader is sure of (a photo of a table already recorded
    must not be credited to the one expected table that looks a bit like it)."""
    tables = sorted(set(tables))
    n = len(readings)
    prior = math.log(P_TABLE_KNOWN / max(len(tables), 1))
    scored: list[tuple[float, object, bool]] = []
    for t in tables:
        text = str(t)
        if len(text) == n + 1 and (text[0] == "1" or dropped_digit):
            # a leading 1 lost on the box's edge, or any digit lost by a lossy capture
            logs = [math.log(dropped_one) + _log_match(readings, text[1:], DIGIT_K)] if text[0] == "1" else []
            if dropped_digit:
                logs += [math.log(dropped_digit) + _log_match(readings, text[:i] + text[i + 1:], DIGIT_K)
                         for i in range(len(text))]
            scored.append((prior + max(logs), t, True))
        else:
            scored.append((prior + _log_match(readings, text, DIGIT_K), t, False))
    scored.append((math.log(1 - P_TABLE_KNOWN), free.value, False))
    top = max(s for s, _, _ in scored)
    acc: dict[object, float] = {}
    for s, v, _ in scored:
        acc[v] = acc.get(v, 0.0) + math.exp(s - top)
    total = sum(acc.values())
    best = max(acc, key=acc.__getitem__)
    conf = acc[best] / total
    known = sorted(((math.exp(s - top), v, d) for s, v, d in scored[:-1]), key=lambda t: -t[0])
    if best not in tables:
        conf = min(conf, DISAGREE)
    elif len(known) > 1 and known[1][0] >= TABLE_RIVAL * known[0][0]:  # two players fit
        conf = min(conf, DISAGREE)
    elif any(v == best and d for _, v, d in known[:1]):
        conf = min(conf, DISAGREE)
    elif _overruled(readings, str(best)):  # the set contradicts a digit the reader is sure of
        conf = min(conf, DISAGREE)
    return FieldValue(
        best,
        conf,
        sorted(((v, p / total) for v, p in acc.items()), key=lambda t: -t[1])[:3],
    )
