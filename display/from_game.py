"""Build views from the engine's saved game (``engine.game.Game``) and the results' ranking.

Only reads attributes the engine documents (``game.coups``, ``coup.number``,
``coup.reliquat``, ``coup.new_letters``, ``coup.top``, ``coup.bag_left``,
``coup.rejections``, ``game.board_before(n)``, ``game.board_after(n)``), so
the display stays a reader: it computes sums of tops and nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable

from .view import Countdown, RankLine, Screen, Top, View

DEFAULT_SECONDS = 180.0


def _coup(game, number: int):
    for coup in game.coups:
        if coup.number == number:
            return coup
    raise ValueError(f"coup {number} absent de la partie (1 à {len(game.coups)})")


def tops_until(game, number: int) -> tuple[Top, ...]:
    """The tops of coups 1..``number`` (coups without a top are skipped)."""
    return tuple(Top.from_move(c.number, c.top) for c in game.coups
                 if c.number <= number and c.top is not None)


def _common(game, number: int, tops: tuple[Top, ...]) -> dict:
    coup = _coup(game, number)
    return {"coup": number, "bag_left": getattr(coup, "bag_left", None),
            "past_tops": tops, "total": sum(t.score for t in tops),
            "last_top": tops[-1] if tops else None}


def coup_view(game, number: int, countdown: Countdown | None = None) -> View:
    """Coup ``number`` in play: the grid before it, its tirage, the time left."""
    coup = _coup(game, number)
    tops = tops_until(game, number - 1)
    return View(Screen.COUP, board=game.board_before(number), reliquat=coup.reliquat,
                new_letters=coup.new_letters,
                countdown=countdown or Countdown(DEFAULT_SECONDS), **_common(game, number, tops))


def annonce_view(game, number: int) -> View:
    """The top of coup ``number`` placed and highlighted, its score large."""
    coup = _coup(game, number)
    tops = tops_until(game, number)
    return View(Screen.ANNONCE, board=game.board_after(number), reliquat=coup.reliquat,
                new_letters=coup.new_letters, **_common(game, number, tops))


def sentence(text: str) -> str:
    """``tirage non valable : …`` → ``Tirage non valable : ….`` for the room."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def rejet_view(game, number: int, message: str = "") -> View:
    """The last rejected tirage of coup ``number``, with the engine's reason."""
    coup = _coup(game, number)
    rejections = list(coup.rejections)
    if not rejections:
        raise ValueError(f"aucun tirage rejeté au coup {number}")
    letters = rejections[-1]
    reasons = list(getattr(coup, "rejection_reasons", ()) or ())
    if not message and reasons:
        message = sentence(reasons[-1]) + " Les lettres retournent dans le sac."
    tops = tops_until(game, number - 1)
    return View(Screen.REJET, board=game.board_before(number), new_letters=letters,
                message=message, **_common(game, number, tops))


def fin_view(game, ranking: Iterable = ()) -> View:
    """The final grid, the total of the tops and the ranking when there is one."""
    last = game.coups[-1].number if game.coups else 0
    tops = tops_until(game, last)
    board = game.board_after(last) if last else game.board_before(1)
    return View(Screen.FIN, board=board, coup=last, bag_left=0, past_tops=tops,
                total=sum(t.score for t in tops), ranking=rank_lines(ranking))


def rank_lines(standings: Iterable) -> tuple[RankLine, ...]:
    """``engine.results.Standing`` (rank, player.name, total, percent) or ``RankLine`` → lines."""
    lines = []
    for s in standings:
        if isinstance(s, RankLine):
            lines.append(s)
            continue
        player = getattr(s, "player", None)
        name = getattr(player, "name", None) or f"Table {getattr(player, 'table', '?')}"
        lines.append(RankLine(s.rank, name, s.total, getattr(s, "percent", None)))
    return tuple(lines)


def accueil_view(settings: Iterable[tuple[str, str]] = (),
                 title: str = "Scrabble Duplicate") -> View:
    return View(Screen.ACCUEIL, title=title, settings=tuple(settings))


def clock(seconds: float) -> str:
    seconds = int(seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


def game_settings(game) -> tuple[tuple[str, str], ...]:
    """The settings shown before the first coup, read from the game."""
    settings = game.settings
    return (
        ("Temps par coup", clock(settings.seconds_per_coup)),
        ("Formule", "blitz" if settings.blitz else "normale"),
        ("Partie n°", str(game.seed)),
    )


def warning_seconds(game) -> float:
    """« Trente secondes », or twenty in blitz (the engine's settings say which)."""
    return float(game.settings.warning_seconds)


def view_for(game, number: int, screen: Screen, remaining: float | None = None) -> View:
    """Any moment of a saved game, for snapshots and the docs."""
    if screen is Screen.ACCUEIL:
        return accueil_view(game_settings(game))
    if screen is Screen.FIN:
        return fin_view(game)
    if screen is Screen.ANNONCE:
        return annonce_view(game, number)
    if screen is Screen.REJET:
        return rejet_view(game, number)
    seconds = game.settings.seconds_per_coup if remaining is None else remaining
    return coup_view(game, number, Countdown(seconds, warning_seconds(game)))
