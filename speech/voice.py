"""Turn written announcements into the text the French voice must read.

espeak-ng reads some of our words the English way ("Joker", "Danemark",
"Wallonie"), reads a lone ``A`` as the weak preposition, and may spell an
all-capital word as an acronym. These rewrites were checked against
``espeak-ng -q -x -v fr`` (see the tests).
"""

from __future__ import annotations

import re

from .numbers import number_words

_WORDS = {
    "joker": "jokère",
    "jokers": "jokères",
    "danemark": "Danemarque",
    "wallonie": "Ouallonie",
    "scrabble": "scrabeule",
}


def _word(match: re.Match[str]) -> str:
    token = match.group(0)
    low = token.lower()
    if low in _WORDS:
        return _WORDS[low]
    if token == "A":
        return "ah"  # stressed letter name, not the preposition "a"
    if len(token) > 1 and token.isupper():
        return low  # a word on the grid, read as a word rather than spelled
    return token


def _number(match: re.Match[str]) -> str:
    value = int(match.group(0))
    return number_words(value) if value <= 999 else match.group(0)


def for_voice(text: str) -> str:
    """Written French → the exact text sent to the synthesiser."""
    text = re.sub(r"\d+", _number, text)
    return re.sub(r"[^\W\d_]+", _word, text)
