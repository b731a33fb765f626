"""The French tile set (102 tiles) and letter classes, as the federation defines them."""

from __future__ import annotations

JOKER = "?"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: letter -> (count in the bag, value)
TILE_SET: dict[str, tuple[int, int]] = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (3, 2), "E": (15, 1), "F": (2, 4),
    "G": (2, 2), "H": (2, 4), "I": (8, 1), "J": (1, 8), "K": (1, 10), "L": (5, 1),
    "M": (3, 2), "N": (6, 1), "O": (6, 1), "P": (2, 3), "Q": (1, 8), "R": (6, 1),
    "S": (6, 1), "T": (6, 1), "U": (6, 1), "V": (2, 4), "W": (1, 10), "X": (1, 10),
    "Y": (1, 10), "Z": (1, 10), JOKER: (2, 0),
}

VALUES: dict[str, int] = {letter: value for letter, (_, value) in TILE_SET.items()}
COUNTS: dict[str, int] = {letter: count for letter, (count, _) in TILE_SET.items()}
TOTAL_TILES = sum(COUNTS.values())  # 102

VOWELS = frozenset("AEIOU")
#: Y and the jokers count as vowel or consonant, as the draw rule needs.
EITHER = frozenset("Y" + JOKER)
CONSONANTS = frozenset(LETTERS) - VOWELS - EITHER

RACK_SIZE = 7
BINGO_BONUS = 50


def value(letter: str) -> int:
    """Face value of a tile; a joker (or a lower-case joker letter) is worth 0."""
    if letter == JOKER or letter.islower():
        return 0
    return VALUES[letter]


def is_vowel(letter: str) -> bool:
    return letter in VOWELS


def is_consonant(letter: str) -> bool:
    return letter in CONSONANTS
