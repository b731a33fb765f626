"""The game side of the reading: the legal moves of a coup, and the hand-off to the correction.

Only ``engine`` is used. Loading the lexicon is the slow part, so a
``CoupContext`` is built once per coup and shared by all its bulletins.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from engine.board import Board

from .decode import Candidate


@dataclass
class CoupContext:
    """Everything needed to decode and correct the bulletins of one coup."""

    number: int
    board: Board
    tirage: str
    candidates: list[Candidate]
    lexicon: object | None = None
    #: the tables that may still hand in a bulletin for this coup (registered players with no
    #: result yet): the table number is read among them; ``None`` reads it freely
    tables: list[int] | None = None

    def read(self, source, **kwargs):
        """``reader.read_bulletin`` against this coup's moves, board and expected tables."""
        from .reader import read_bulletin

        kwargs.setdefault("tables", self.tables)
        return read_bulletin(source, self.candidates, self.board, **kwargs)

    @classmethod
    def from_game(
        cls, game_path: str | Path, number: int, lexicon=None, tables: list[int] | None = None
    ) -> CoupContext:
        from engine.game import Game
        from engine.lexicon import Lexicon
        from engine.movegen import generate_moves

        lexicon = lexicon or Lexicon.load()
        game = Game.load(game_path, lexicon)  # tops checked: words of the list, best scores
        if not 1 <= number <= len(game.coups):
            raise ValueError(f"coup {number} absent de la partie ({len(game.coups)} coups)")
        board = game.board_before(number)
        tirage = game.coups[number - 1].tirage
        moves = generate_moves(board, tirage, lexicon)
        return cls(number, board, tirage, Candidate.all_of(moves), lexicon, tables)


def correct_reading(reading, context: CoupContext) -> dict | None:
    """The arbitrage decision for a read bulletin (``engine.correction``), or ``None``.

    Returns ``Decision.to_dict()``; ``None`` when the correction module is not
    available or the lexicon is unknown.
    """
    try:
        from engine.bulletin import Bulletin
        from engine.correction import correct
    except ImportError:
        return None
    if context.lexicon is None:
        return None
    bulletin = Bulletin.from_dict(reading.bulletin())
    decision = correct(context.board, context.tirage, context.lexicon, bulletin)
    return decision.to_dict()
