"""A hand-built game position on every screen: for the benchmark, the tests and a quick look."""

from __future__ import annotations

from collections import Counter

from engine.board import Board
from engine.tiles import COUNTS, JOKER

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


def sample_bag(board: Board, tirage: str) -> str:
    """The letters of the 102 not on ``board`` nor in ``tirage``: what the bag holds."""
    left = Counter(COUNTS)
    for line in board.cells:
        for tile in line:
            if tile is not None:
                left[JOKER if tile.islower() else tile] -= 1
    left.subtract(tirage)
    return "".join(sorted(Counter({t: n for t, n in left.items() if n > 0}).elements()))


SAMPLE_RANKING = tuple(
    RankLine(rank, name, score, round(100 * score / 93, 1), 93 - score)
    for rank, (name, score) in enumerate((
        ("Anne Moreau", 93), ("Bruno Lefèvre", 91), ("Claire Dubois", 88), ("David Laurent", 85),
        ("Élise Girard", 80), ("François Roux", 77), ("Gisèle Fontaine", 71),
        ("Hugo Chevalier", 70), ("Inès Lambert", 66), ("Jacques Bonnet", 61),
        ("Karine Mercier", 58), ("Louis Faure", 50), ("Marie Blanc", 42),
        ("Nicolas Garnier", 40), ("Odile Perrin", 33), ("Pierre Rousseau", 24),
        ("Quentin Masson", 21), ("Rose Marchand", 12)), start=1))

SCRABBLE_TOP = Top(5, "RENTIeS", "3D", 74, tuple((2, c) for c in range(3, 10)))


def sample_views() -> dict[Screen, View]:
    """One view per screen, consistent with ``SAMPLE_BOARD``."""
    board = sample_board()
    before = board.copy()
    for row, col in PAST_TOPS[-1].squares:
        before[row, col] = None
    total = sum(t.score for t in PAST_TOPS)
    bag = sample_bag(board, "ESRT?NI")
    return {
        Screen.ACCUEIL: View(Screen.ACCUEIL, settings=(
            ("Temps par coup", "3:00"), ("Lexique", "liste française libre"),
            ("Tirages", "aléatoires"), ("Partie", "graine 42"))),
        Screen.COUP: View(Screen.COUP, board=board, coup=5, reliquat="ES", new_letters="RT?NI",
                          countdown=Countdown(178.0), bag_left=len(bag), bag=bag,
                          last_top=PAST_TOPS[-1], total=total, past_tops=PAST_TOPS),
        Screen.ANNONCE: View(Screen.ANNONCE, board=board, coup=4, reliquat="E",
                             new_letters="POUXAS",
                             bag_left=len(bag), bag=bag, last_top=PAST_TOPS[-1],
                             total=total, past_tops=PAST_TOPS),
        Screen.REJET: View(Screen.REJET, board=board, coup=5, reliquat="", new_letters="BCDFGHK",
                           bag_left=69, last_top=PAST_TOPS[-1], total=total,
                           message="Moins de deux voyelles : les sept lettres retournent dans "
                                   "le sac et un nouveau tirage est fait."),
        Screen.CLASSEMENT: View(Screen.CLASSEMENT, board=board, coup=4, total=total,
                                past_tops=PAST_TOPS, ranking=SAMPLE_RANKING[:12]),
        Screen.FIN: View(Screen.FIN, board=board, coup=4, bag_left=0, last_top=None, total=total,
                         past_tops=PAST_TOPS, ranking=(
                             RankLine(1, "Table 12", 91, 97.8, 2),
                             RankLine(2, "Table 3", 85, 91.4, 8),
                             RankLine(3, "Table 7", 60, 64.5, 33)),
                         solos=("Solo : table 12, au coup 4 (EPOUX)",)),
    }


def scrabble_view() -> View:
    """The top of coup 5 is a scrabble: the badge, the joker letter in its colour."""
    board = sample_board()
    for (row, col), letter in zip(SCRABBLE_TOP.squares, SCRABBLE_TOP.word, strict=True):
        board[row, col] = letter
    bag = sample_bag(board, "")
    return View(Screen.ANNONCE, board=board, coup=5, reliquat="", new_letters="ESRT?NI",
                bag_left=len(bag), bag=bag, last_top=SCRABBLE_TOP,
                total=sum(t.score for t in PAST_TOPS) + SCRABBLE_TOP.score,
                past_tops=PAST_TOPS + (SCRABBLE_TOP,))


def console_for(board: Board, coup: int, reliquat: str, new_letters: str,
                countdown: Countdown, played=None, lexicon=None):
    """The console as the juge-arbitre sees it during the chrono of a coup: every move of the
    tirage best first (the engine's), the tops lit, ``played`` (or the first top) chosen."""
    from engine.lexicon import Lexicon
    from engine.movegen import generate_moves

    from .console import ConsoleMove, ConsoleView

    tirage = reliquat + new_letters
    moves = generate_moves(board, tirage, lexicon or Lexicon.load())
    ordered = sorted(moves, key=lambda m: (-m.score, m.word, str(m.ref)))
    best = ordered[0].score if ordered else 0
    chosen = played if played is not None else (ordered[0] if ordered else None)
    shown = tuple(ConsoleMove(m.word, str(m.ref), m.score, m.score == best,
                              (m.word, str(m.ref)) == ((chosen.word, str(chosen.ref))
                                                       if chosen else None),
                              len(m.placed) == 7) for m in ordered[:400])
    return ConsoleView(
        step="chrono", coup=coup, hint="P : pause · à « Terminé », ramassage des bulletins",
        tirage=tirage, reliquat=len(reliquat), validity="tirage valable", valid=True,
        countdown=countdown, bag=sample_bag(board, tirage), moves=shown,
        moves_total=len(moves), announcement="Coup numéro " + str(coup) + ".",
        voice="voix : en service", room="tirage et chrono")


def sample_console(lexicon=None):
    """The console beside ``sample_views()[Screen.COUP]``."""
    view = sample_views()[Screen.COUP]
    board = view.board.copy()
    return console_for(board, view.coup, view.reliquat, view.new_letters,
                       Countdown(118.0), lexicon=lexicon)
