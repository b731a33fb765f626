"""Stage 5: decode the bulletin against the legal moves of the coup.

Classifier outputs are treated as scaled likelihoods: reading a cell as
``c`` when ``x`` was written weighs ``K·p(c)`` against 1 for "anything".
Every legal move is a hypothesis for the whole bulletin; the reference and
the score may each disagree with the move (the player miscounted or
mis-referenced: that is what the arbiter must see), and a last hypothesis
keeps the word exactly as read when it is no legal move. The posterior mass
that agrees with the chosen value is that field's confidence.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.board import BadReference, Board, Ref

from .recognise import CharReading

P_LEGAL = 0.9  # prior that the player wrote a legal move (read correctly)
P_REF_OK = 0.9  # the reference written is the move's
P_SCORE_OK = 0.85  # the score written is the move's
LEN_MISMATCH = 1e-4  # likelihood of a reading with a different number of characters
RACCORD_MISS = 0.02  # a raccord letter where the grid has none
P_TABLE_KNOWN = 0.99  # a player writes a table number of the game's roster
#: a letter the reader gives less than this, where another legal word at the same place and
#: for the same score has a different letter, is a guess: the word is flagged
OVERRULED = 0.05
DISAGREE = 0.5       # confidence cap of a field that contradicts the legal move retained
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
        return cls(str(move.ref), str(move.word), int(move.score))


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


@dataclass
class Readings:
    """The cells read on one bulletin, grouped by what they mean."""

    word: list[CharReading]
    raccord: list[tuple[int, int, CharReading]]  # (row offset, index in word, reading)
    ref: list[CharReading]
    score: list[CharReading]
    table: list[CharReading]

    @property
    def blank(self) -> bool:
        return not (self.word or self.raccord or self.ref or self.score or self.table)


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
    word = sorted((r for r in grid if r.row == word_row and not r.crossed), key=lambda r: r.col)
    cols = [r.col for r in word]
    raccord = []
    for r in grid:
        if r.row == word_row or r.crossed:
            continue
        index = sum(c < r.col for c in cols) if r.col not in cols else cols.index(r.col)
        if r.col < (cols[0] if cols else 0):
            index = -(cols[0] - r.col) if cols else 0
        raccord.append((r.row - word_row, index, r))
    return Readings(word, raccord, combs["ref"], combs["score"], combs["table"])


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
    """log-likelihood of the cells given ``word``; allows one extra or one missing cell (penalised).

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
    if m == n + 1:  # one letter of the word has no cell
        pre = [0.0]
        for j in range(n):
            pre.append(pre[-1] + logs[j].get(word[j], miss))
        suf = [0.0] * (n + 1)
        for j in range(n - 1, -1, -1):
            suf[j] = suf[j + 1] + logs[j].get(word[j + 1], miss)
        best = max(pre[k] + suf[k] for k in range(n + 1))
        return best + SEGMENT_SLIP, False
    return -1e9, False


def _log_circles(readings: Sequence[CharReading], word: str) -> float:
    total = 0.0
    for r, ch in zip(readings, word, strict=False):
        c = min(max(r.circled, 0.02), 0.98)
        total += math.log(c if ch.islower() else 1 - c)
    return total


def free_word(readings: Sequence[CharReading]) -> str:
    return "".join(r.best.lower() if r.circled > 0.5 else r.best for r in readings)


def free_text(readings: Sequence[CharReading]) -> str:
    return "".join(r.best for r in readings)


def _text_confidence(readings: Sequence[CharReading]) -> float:
    return math.prod(r.confidence for r in readings) if readings else 0.0


def _raccord_log(
    raccord: list[tuple[int, int, CharReading]], cand: Candidate, board: Board | None
) -> float:
    if not raccord or board is None:
        return 0.0
    try:
        ref = Ref.parse(cand.ref)
    except BadReference:
        return 0.0
    total = 0.0
    for dr, index, reading in raccord:
        if ref.horizontal:
            row, col = ref.row + dr, ref.col + index
        else:
            row, col = ref.row + index, ref.col + dr
        tile = board.cells[row][col] if 0 <= row < 15 and 0 <= col < 15 else None
        total += (
            math.log(LETTER_K * max(reading.p(tile.upper()), 1e-9))
            if tile
            else math.log(RACCORD_MISS)
        )
    return total


def _number(text: str) -> int | None:
    return int(text) if text.isdigit() else None


def _ref_value(text: str) -> str | None:
    try:
        return str(Ref.parse(text))
    except BadReference:
        return text or None


def _parses(ref: object) -> bool:
    try:
        Ref.parse(ref)  # type: ignore[arg-type]
    except BadReference:
        return False
    return True


def _sens(ref: str | None) -> str | None:
    if not ref:
        return None
    return "h" if ref[:1].isalpha() else "v"


def decode_free(r: Readings) -> Decoded:
    """Reading without the game: each field as read, confidence = product of cell confidences."""
    word = free_word(r.word)
    ref_text = free_text(r.ref)
    score_text = free_text(r.score)
    table_text = free_text(r.table)
    jokers = [i for i, ch in enumerate(word) if ch.islower()]
    jconf = math.prod(max(x.circled, 1 - x.circled) for x in r.word) if r.word else 1.0
    raccord = "".join(x.best for _, _, x in sorted(r.raccord, key=lambda t: (t[1], t[0]))) or None
    ref = _ref_value(ref_text)
    ref_conf = _text_confidence(r.ref) if ref_text else 1.0
    if ref_text and not _parses(ref):
        ref_conf = 0.0
    return Decoded(
        table=FieldValue(_number(table_text), _text_confidence(r.table)),
        word=FieldValue(word or None, _text_confidence(r.word)),
        jokers=jokers,
        jokers_confidence=jconf,
        ref=FieldValue(ref, ref_conf),
        score=FieldValue(_number(score_text), _text_confidence(r.score) if score_text else 1.0),
        raccord=raccord,
        sens=_sens(ref),
        legal=False,
        move=None,
        constrained=False,
    )


def decode(
    r: Readings,
    candidates: Iterable[Candidate] | None = None,
    board: Board | None = None,
    tables: Iterable[int] | None = None,
) -> Decoded:
    """The most probable reading given the legal moves (``None``: no game, read freely)."""
    free = decode_free(r)
    if tables is not None and r.table:
        free.table = _decode_table(r.table, tables, free.table)
    if candidates is None or not r.word:
        return free
    cands = [c if isinstance(c, Candidate) else Candidate.of(c) for c in candidates]
    n = len(r.word)
    cands = [c for c in cands if abs(len(c.word) - n) <= 1]
    logs = _cell_logs(r.word)
    exact: dict[str, bool] = {}
    ref_text, score_text = free_text(r.ref), free_text(r.score)
    has_ref, has_score = bool(r.ref), bool(r.score)
    free_ref = _ref_value(ref_text)
    free_score = _number(score_text)

    hyps: list[tuple[float, str, str | None, int | None, Candidate | None]] = []
    log_prior = math.log(P_LEGAL / max(len(cands), 1))
    word_cache: dict[str, float] = {}
    for c in cands:
        lw = word_cache.get(c.word)
        if lw is None:
            lw, exact[c.word] = _align(logs, c.word)
            word_cache[c.word] = lw
        base = log_prior + lw + _raccord_log(r.raccord, c, board)
        ref_opts = (
            [(math.log(P_REF_OK) + _log_match(r.ref, c.ref, REF_K), c.ref)]
            if has_ref
            else [(0.0, None)]
        )
        if has_ref and free_ref != c.ref:
            ref_opts.append((math.log(1 - P_REF_OK), free_ref))
        score_opts = (
            [(math.log(P_SCORE_OK) + _log_match(r.score, str(c.score), DIGIT_K), c.score)]
            if has_score
            else [(0.0, None)]
        )
        if has_score and free_score != c.score:
            score_opts.append((math.log(1 - P_SCORE_OK), free_score))
        for lr, rv in ref_opts:
            for ls, sv in score_opts:
                hyps.append((base + lr + ls, c.word, rv, sv, c))
    # the word as read, legal or not
    hyps.append(
        (
            math.log(1 - P_LEGAL),
            free.word.value,
            free_ref if has_ref else None,
            free_score if has_score else None,
            None,
        )
    )
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
    _, bword, bref, bscore, bmove = hyps[best]
    words = marginal(1, lambda w: w.upper() if w else w)
    word_conf = dict(words).get(bword.upper() if bword else bword, 0.0)
    joker_pattern = marginal(1)
    jconf = dict(joker_pattern).get(bword, 0.0) / max(word_conf, 1e-12)
    refs = marginal(2)
    scores = marginal(3)
    raccord = free.raccord
    ref_field = (
        FieldValue(bref, dict(refs).get(bref, 0.0), refs[:3]) if has_ref else FieldValue(None, 1.0)
    )
    if not has_ref and bmove is not None:
        ref_field = FieldValue(None, 1.0)
    if has_ref and not _parses(ref_field.value):  # not even a reference: always for the arbiter
        ref_field.confidence = 0.0
    sens = _sens(bref) or (("h" if bmove.horizontal else "v") if bmove else None)
    if bmove is None:  # not a legal move: kept as read, never trusted without the arbiter
        word_conf = min(word_conf, 0.5 * free.word.confidence)
    elif not exact.get(bmove.word, True):  # cells and letters did not line up one to one
        word_conf = min(word_conf, 0.8)
    elif _guessed(r.word, bmove, cands):
        word_conf = min(word_conf, 0.85)
    score_field = (
        FieldValue(bscore, dict(scores).get(bscore, 0.0), scores[:3]) if has_score else FieldValue(None, 1.0)
    )
    # a reference or score that differs from the legal move read would cost the player a
    # sanction: never without the arbiter's look, however sure the reading
    if bmove is None:  # nothing corroborates the reference or the score either
        ref_field.confidence = min(ref_field.confidence, DISAGREE)
        score_field.confidence = min(score_field.confidence, DISAGREE) if has_score else 1.0
    else:
        if has_ref and ref_field.value != bmove.ref:
            ref_field.confidence = min(ref_field.confidence, DISAGREE)
        if has_score and score_field.value != bmove.score:
            score_field.confidence = min(score_field.confidence, DISAGREE)
    return Decoded(
        table=free.table,
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
    )


def _guessed(cells: Sequence[CharReading], move: Candidate, cands: Sequence[Candidate]) -> bool:
    """Whether a rival legal word (same place, same score) differs where the reader doubted ours."""
    word = move.word.upper()
    for rival in cands:
        if rival.ref != move.ref or rival.score != move.score or len(rival.word) != len(word):
            continue
        other = rival.word.upper()
        if other == word:
            continue
        for cell, a, b in zip(cells, word, other, strict=True):
            if a != b and cell.p(a) < OVERRULED:
                return True
    return False


def _decode_table(
    readings: Sequence[CharReading], tables: Iterable[int], free: FieldValue
) -> FieldValue:
    """Table number among the tables of the game (or as read, with low confidence)."""
    tables = list(tables)
    scored = [
        (_log_match(readings, str(t), DIGIT_K) + math.log(P_TABLE_KNOWN / max(len(tables), 1)), t)
        for t in tables
    ]
    scored.append((math.log(1 - P_TABLE_KNOWN), free.value))
    top = max(s for s, _ in scored)
    acc: dict[object, float] = {}
    for s, v in scored:
        acc[v] = acc.get(v, 0.0) + math.exp(s - top)
    total = sum(acc.values())
    best = max(acc, key=acc.__getitem__)
    return FieldValue(
        best,
        acc[best] / total,
        sorted(((v, p / total) for v, p in acc.items()), key=lambda t: -t[1])[:3],
    )
