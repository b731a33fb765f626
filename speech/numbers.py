"""French number words 0–999, written the traditional way (``quatre-vingts``, ``soixante et onze``).

The juge-arbitre says scores aloud; writing them out ourselves keeps the
spoken form independent of the voice's own number reading.
"""

from __future__ import annotations

_UNITS = [
    "zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf",
    "dix", "onze", "douze", "treize", "quatorze", "quinze", "seize",
    "dix-sept", "dix-huit", "dix-neuf",
]
_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}


def _below_100(n: int) -> str:
    if n < 20:
        return _UNITS[n]
    tens, unit = divmod(n, 10)
    if tens in (7, 9):  # soixante-dix…, quatre-vingt-dix…
        base = "soixante" if tens == 7 else "quatre-vingt"
        rest = 10 + unit
        if tens == 7 and unit == 1:
            return "soixante et onze"
        return f"{base}-{_UNITS[rest]}"
    if tens == 8:
        return "quatre-vingts" if unit == 0 else f"quatre-vingt-{_UNITS[unit]}"
    word = _TENS[tens]
    if unit == 0:
        return word
    if unit == 1:
        return f"{word} et un"
    return f"{word}-{_UNITS[unit]}"


def number_words(n: int) -> str:
    """``71`` → ``soixante et onze``; ``200`` → ``deux cents``; ``201`` → ``deux cent un``."""
    if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 999:
        raise ValueError(f"nombre hors des limites (0 à 999) : {n!r}")
    hundreds, rest = divmod(n, 100)
    if hundreds == 0:
        return _below_100(rest)
    if hundreds == 1:
        head = "cent"
    else:
        head = f"{_UNITS[hundreds]} cent" + ("s" if rest == 0 else "")
    return head if rest == 0 else f"{head} {_below_100(rest)}"
