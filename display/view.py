"""What the room screen shows, as plain data: the kiosk builds it, the renderer draws it.

The display decides nothing: every figure (bag, total, warning threshold,
rejection reason, ranking) arrives here already computed by the engine or
the kiosk.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import Enum

from engine.board import Board


class Screen(Enum):
    """The moments of a game the room sees."""

    ACCUEIL = "accueil"  # before the first coup: title and settings
    COUP = "coup"  # a coup is being played: tirage and countdown
    ANNONCE = "annonce"  # the top is announced: placed, highlighted, score large
    REJET = "rejet"  # the tirage was rejected and goes back to the bag
    FIN = "fin"  # end of the game: total of the tops, ranking if any


@dataclass(frozen=True)
class Top:
    """One top as the room reads it: ``MOT H4 32``; ``squares`` are its new tiles."""

    coup: int
    word: str
    ref: str
    score: int
    squares: tuple[tuple[int, int], ...] = ()

    @classmethod
    def from_move(cls, coup: int, move) -> Top:
        """Build from an ``engine.move.Move`` (joker letters stay lower case)."""
        squares = tuple((r, c) for r, c, _ in move.placed)
        return cls(coup, move.word, str(move.ref), move.score, squares)


@dataclass(frozen=True)
class Countdown:
    """Time left in the coup; ``warning`` is 30 s (20 s in blitz), chosen by the kiosk."""

    remaining: float
    warning: float = 30.0
    paused: bool = False

    @property
    def text(self) -> str:
        """``M:SS`` rounded up (``0:01`` until the very end), « Terminé » at zero, « Pause »."""
        if self.paused:
            return "Pause"
        if self.remaining <= 0:
            return "Terminé"
        seconds = math.ceil(self.remaining - 1e-6)
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def state(self) -> str:
        """``normal``, ``alerte``, ``termine`` or ``pause``: picks the colour."""
        if self.paused:
            return "pause"
        if self.remaining <= 0:
            return "termine"
        if math.ceil(self.remaining - 1e-6) <= self.warning:
            return "alerte"
        return "normal"


@dataclass(frozen=True)
class RankLine:
    """One line of the ranking, as computed by the kiosk."""

    rank: int
    name: str
    score: int
    percent: float | None = None  # « % du top »


def _empty_board() -> Board:
    return Board()


@dataclass(frozen=True)
class View:
    """Everything one screen shows. Equal views draw identical pixels."""

    screen: Screen
    board: Board = field(default_factory=_empty_board)
    coup: int = 0
    reliquat: str = ""
    new_letters: str = ""
    countdown: Countdown | None = None
    bag_left: int | None = None
    last_top: Top | None = None  # outlined on the grid; on ANNONCE the top being announced
    total: int = 0  # running total of the tops
    past_tops: tuple[Top, ...] = ()
    ranking: tuple[RankLine, ...] = ()
    title: str = "Scrabble Duplicate"
    settings: tuple[tuple[str, str], ...] = ()  # (label, value) shown on ACCUEIL
    message: str = ""  # e.g. why a tirage was rejected

    def __post_init__(self) -> None:
        # a snapshot: the kiosk may go on mutating game.board after handing it over
        object.__setattr__(self, "board", self.board.copy())

    @property
    def tirage(self) -> str:
        return self.reliquat + self.new_letters

    def with_countdown(self, countdown: Countdown | None) -> View:
        return replace(self, countdown=countdown)

    def same_except_countdown(self, other: View | None) -> bool:
        """True when only the countdown differs: the renderer then redraws only its box."""
        return other is not None and replace(self, countdown=None) == replace(other, countdown=None)
