"""A hand-built game position on every screen: for the benchmark, the tests and a quick look."""

from __future__ import annotations

from engine.board import Board

from .view import Countdown, RankLine, Screen, Top, View

SAMPLE_BOARD = """
...............
...............
...............
...............
...............
........B......
.....M..a......
...CHEVAL......
.....R.........
.....L.........
.....EPOUX.....
...............
...............
...............
...............
"""

PAST_TOPS = (
    Top(1, "CHEVAL", "H4", 24, tuple((7, c) for c in range(3, 9))),
    Top(2, "MERLE", "6G", 18, ((6, 5), (8, 5), (9, 5), (10, 5))),
    Top(3, "BaL", "9F", 9, ((5, 8), (6, 8))),
    Top(4, "EPOUX", "K6", 42, tuple((10, c) for c in range(6, 10))),
)


def sample_board() -> Board:
    return Board.from_text(SAMPLE_BOARD)


def sample_views() -> dict[Screen, View]:
    """One view per screen, consistent with ``SAMPLE_BOARD``."""
    board = sample_board()
    before = board.copy()
    for row, col in PAST_TOPS[-1].squares:
        before[row, col] = None
    total = sum(t.score for t in PAST_TOPS)
    return {
        Screen.ACCUEIL: View(Screen.ACCUEIL, settings=(
            ("Temps par coup", "3:00"), ("Lexique", "liste française libre"),
            ("Tirages", "2 voyelles et 2 consonnes jusqu'au coup 15"), ("Partie", "graine 42"))),
        Screen.COUP: View(Screen.COUP, board=board, coup=5, reliquat="ES", new_letters="RT?NI",
                          countdown=Countdown(178.0), bag_left=69, last_top=PAST_TOPS[-1],
                          total=total, past_tops=PAST_TOPS),
        Screen.ANNONCE: View(Screen.ANNONCE, board=board, coup=4, reliquat="E",
                             new_letters="POUXAS",
                             bag_left=76, last_top=PAST_TOPS[-1], total=total,
                             past_tops=PAST_TOPS),
        Screen.REJET: View(Screen.REJET, board=board, coup=5, reliquat="", new_letters="BCDFGHK",
                           bag_left=69, last_top=PAST_TOPS[-1], total=total,
                           message="Moins de deux voyelles : les sept lettres retournent dans "
                                   "le sac et un nouveau tirage est fait."),
        Screen.FIN: View(Screen.FIN, board=board, coup=4, bag_left=0, last_top=None, total=total,
                         past_tops=PAST_TOPS, ranking=(
                             RankLine(1, "Table 12", 91, 97.8), RankLine(2, "Table 3", 85, 91.4),
                             RankLine(3, "Table 7", 60, 64.5))),
    }
