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
from engine.tiles import JOKER, RACK_SIZE, VOWELS

#: the last seconds of a coup, shown in red
LAST_SECONDS = 10.0
#: a page of the ranking stays this long before the next one (the kiosk turns them)
PAGE_SECONDS = 8.0


class Screen(Enum):
    """The moments of a game the room sees."""

    ACCUEIL = "accueil"  # before the first coup: title and settings
    COUP = "coup"  # a coup is being played: tirage and countdown
    ANNONCE = "annonce"  # the top is announced: placed, highlighted, score large
    REJET = "rejet"  # the tirage was rejected and goes back to the bag
    CLASSEMENT = "classement"  # between coups, once the correction is done: the ranking
    FIN = "fin"  # end of the game: total of the tops, ranking and solos if any


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
        """Build from an ``engine.move.Move``: joker letters stay lower case in ``word`` (the
        renderer writes them as capitals in the joker colour)."""
        squares = tuple((r, c) for r, c, _ in move.placed)
        return cls(coup, move.word, str(move.ref), move.score, squares)

    @property
    def scrabble(self) -> bool:
        """All seven letters of the tirage placed (the 50-point bonus)."""
        return len(self.squares) == RACK_SIZE


@dataclass(frozen=True)
class Countdown:
    """Time left in the coup; ``warning`` is 30 s (20 s in blitz), chosen by the kiosk."""

    remaining: float
    warning: float = 30.0
    paused: bool = False

    @property
    def seconds(self) -> int:
        """Whole seconds shown: rounded up, so ``0:01`` stays until the very end."""
        return max(0, math.ceil(self.remaining - 1e-6))

    @property
    def text(self) -> str:
        """``M:SS``, also while paused (greyed, « PAUSE » written apart); « Terminé » at zero."""
        if self.remaining <= 0 and not self.paused:
            return "Terminé"
        seconds = self.seconds
        return f"{seconds // 60}:{seconds % 60:02d}"

    @property
    def label(self) -> str:
        """What is written under the time: « PAUSE » while paused, nothing otherwise."""
        return "PAUSE" if self.paused else ""

    @property
    def state(self) -> str:
        """``normal``, ``alerte``, ``dernieres`` (last 10 s), ``termine`` or ``pause``."""
        if self.paused:
            return "pause"
        if self.remaining <= 0:
            return "termine"
        if self.seconds <= LAST_SECONDS:
            return "dernieres"
        if self.seconds <= self.warning:
            return "alerte"
        return "normal"


@dataclass(frozen=True)
class RankLine:
    """One line of the ranking, as computed by the kiosk."""

    rank: int
    name: str
    score: int
    percent: float | None = None  # « % du top »
    gap: int | None = None  # points behind the total of the tops (0: as many as the tops)


def _empty_board() -> Board:
    return Board()


NBSP = "\u00a0"  # binds a number to its word when the line is wrapped


def _plural(count: int, word: str) -> str:
    return f"{count}{NBSP}{word}{'s' if count > 1 else ''}"


def bag_counts(bag: str) -> tuple[int, int, int]:
    """Vowels (Y among them, as the room's boards count it), consonants and jokers."""
    jokers = bag.count(JOKER)
    vowels = sum(1 for t in bag if t in VOWELS or t == "Y")
    return vowels, len(bag) - vowels - jokers, jokers


def bag_summary(bag: str) -> str:
    """« Reste 72 : 28 voyelles, 42 consonnes, 2 jokers » (no-break spaces inside each part,
    so a narrow panel wraps it between the parts)."""
    vowels, consonants, jokers = bag_counts(bag)
    return (f"Reste{NBSP}{len(bag)}{NBSP}: {_plural(vowels, 'voyelle')}, "
            f"{_plural(consonants, 'consonne')}, {_plural(jokers, 'joker')}")


def bag_letters(bag: str) -> tuple[tuple[str, int], ...]:
    """(letter, count) of the letters still in the bag, A to Z then the joker."""
    order = sorted(set(bag), key=lambda t: (t == JOKER, t))
    return tuple((t, bag.count(t)) for t in order)


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
    bag: str | None = None  # the letters still in the bag (None: not known, count only)
    last_top: Top | None = None  # outlined on the grid; on ANNONCE the top being announced
    total: int = 0  # running total of the tops
    past_tops: tuple[Top, ...] = ()
    ranking: tuple[RankLine, ...] = ()
    title: str = "Scrabble Duplicate"
    settings: tuple[tuple[str, str], ...] = ()  # (label, value) shown on ACCUEIL
    message: str = ""  # e.g. why a tirage was rejected
    solos: tuple[str, ...] = ()  # at the end: « Table 7, Hugo Chevalier : coup 5 »
    page: int = 0  # which page of a long ranking (taken modulo the number of pages)

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
