"""Bulletins of virtual players for the kiosk demo: one photographed bulletin per player.

Each player writes one of the better legal moves of the coup (sometimes a wrong score,
sometimes a raccord instead of the reference) in a writer's style of his own::

    photos = player_bulletins(moves, board, tables=range(1, 17), coup=5, seed=42)
    for table, (jpeg, truth) in photos.items(): ...
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from .glyphs import STYLES
from .synth import BulletinContent, GroundTruth, render_bulletin


def _raccord(board, move, rng: np.random.Generator) -> tuple | None:
    ref = move.ref
    found = []
    for i in range(len(move.word)):
        r, c = (ref.row, ref.col + i) if ref.horizontal else (ref.row + i, ref.col)
        for side in (-1, 1):
            rr, cc = (r + side, c) if ref.horizontal else (r, c + side)
            if 0 <= rr < 15 and 0 <= cc < 15 and board.cells[rr][cc]:
                found.append((side, i, board.cells[rr][cc].upper()))
    if not found:
        return None
    rng.shuffle(found)
    return tuple(sorted(found[:3], key=lambda t: (t[1], t[0])))


def miscount(score: int, rng: np.random.Generator) -> int:
    """A score as a player gets it wrong: a letter's value or a letter premium forgotten or
    added (±1–9, most often), a 10-point letter (±10: the tens digit, the one a reader may
    confuse), the word's double forgotten or applied twice (½, ×2), the 50-point bonus."""
    kind = rng.random()
    if kind < 0.55:
        wrong = score + int(rng.choice([-1, 1]) * rng.integers(1, 10))
    elif kind < 0.8:
        wrong = score + (10 if score < 10 or rng.random() < 0.5 else -10)
    elif kind < 0.92:
        wrong = score // 2 if score % 2 == 0 and rng.random() < 0.5 else score * 2
    else:
        wrong = score - 50 if score > 50 else score + 50
    return max(0, wrong) if wrong != score else score + 1


def choose_content(moves: Sequence, board, table: int, rng: np.random.Generator,
                   wrong_score: float = 0.05, raccord: float = 0.08) -> BulletinContent | None:
    """What a virtual player writes: a good legal move, now and then with a mistake."""
    if not moves:
        return None
    pool = list(moves[:40])
    weights = np.exp(-np.arange(len(pool)) / 8)
    move = pool[int(rng.choice(len(pool), p=weights / weights.sum()))]
    score = move.score
    if rng.random() < wrong_score:
        score = miscount(score, rng)
    ref: str | None = str(move.ref)
    letters = None
    if board is not None and not board.is_empty() and rng.random() < raccord:
        letters = _raccord(board, move, rng)
        if letters:
            ref = None
    return BulletinContent(int(table), move.word, ref, score, letters)


def player_bulletins(moves: Sequence, board, tables: Iterable[int], coup: int = 1, seed: int = 0,
                     styles: Sequence[str] | None = None) -> dict[int, tuple[bytes, GroundTruth]]:
    """Table → (JPEG bytes, ground truth) for every virtual player; deterministic per seed and coup.

    Each table keeps the same writer all game long (``styles`` cycled over the tables)."""
    names = list(styles or sorted(STYLES))
    out: dict[int, tuple[bytes, GroundTruth]] = {}
    for k, table in enumerate(tables):
        rng = np.random.default_rng([seed, coup, int(table)])
        content = choose_content(moves, board, int(table), rng)
        if content is None:
            continue
        style = names[int(table) % len(names)] if styles is None else names[k % len(names)]
        data, truth = render_bulletin(content, style=style, seed=int(rng.integers(1 << 31)))
        out[int(table)] = (data, truth)  # type: ignore[assignment]
    return out
