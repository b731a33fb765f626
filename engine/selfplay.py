"""Self-play: the juge-arbitre's loop with random draws and the preferred top each coup."""

from __future__ import annotations

from collections.abc import Callable

from .game import Game, GameSettings
from .lexicon import Lexicon
from .move import Move
from .movegen import generate_moves, top_moves


def play_coup(game: Game, lexicon: Lexicon) -> tuple[list[Move], list[Move]]:
    """Draw, list every move, play the preferred top. Returns (moves, tied tops)."""
    coup = game.draw()
    if game.finished:
        return [], []
    moves = generate_moves(game.board, coup.tirage, lexicon)
    tops = top_moves(moves, len(coup.tirage), bag_empty=game.bag_count == 0)
    if not tops:
        game.end("aucun coup possible")
        return moves, tops
    game.play(tops[0])
    return moves, tops


def self_play(seed: int, lexicon: Lexicon, settings: GameSettings | None = None,
              on_coup: Callable[[Game, list[Move], list[Move]], None] | None = None) -> Game:
    """A whole seeded game, deterministic for a given seed and word list."""
    game = Game(seed=seed, settings=settings, lexicon_sha256=lexicon.sha256)
    while not game.finished:
        moves, tops = play_coup(game, lexicon)
        if on_coup is not None:
            on_coup(game, moves, tops)
    return game
