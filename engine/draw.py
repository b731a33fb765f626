"""Drawing tirages: the bag, the vowel/consonant rule, random and manual draws.

The rule (règlement FISF): a tirage holds at least 2 vowels and 2 consonants
for coups 1–15 and 1 + 1 from coup 16, or earlier when the letters left
cannot give 2 + 2. Y and jokers count on whichever side helps, except when
the letters left without them are all vowels or all consonants: then no valid
tirage can be made and the game is over.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from .tiles import CONSONANTS, COUNTS, JOKER, LETTERS, RACK_SIZE, VOWELS

#: coups 1..LAST_STRICT_COUP need 2 vowels + 2 consonants
LAST_STRICT_COUP = 15
MAX_REDRAWS = 1000


class DrawError(ValueError):
    """A draw that cannot be made (a letter not in the bag, too many letters…), in French."""


def full_bag() -> Counter[str]:
    return Counter(COUNTS)


def classify(letters: str) -> tuple[int, int, int]:
    """(vowels, consonants, either) in ``letters``: Y and jokers are 'either'."""
    v = sum(ch in VOWELS for ch in letters)
    c = sum(ch in CONSONANTS for ch in letters)
    return v, c, len(letters) - v - c


def satisfies(letters: str, vowels: int, consonants: int) -> bool:
    """Can ``letters`` count as ``vowels`` vowels and ``consonants`` consonants (Y/jokers flexible)?"""
    v, c, e = classify(letters)
    return max(0, vowels - v) + max(0, consonants - c) <= e


def pool_is_exhausted(pool: str) -> bool:
    """True when the letters left, Y and jokers excepted, are all vowels or all consonants."""
    v, c, _ = classify(pool)
    return v == 0 or c == 0


@dataclass(frozen=True)
class Requirement:
    vowels: int
    consonants: int

    def __str__(self) -> str:
        return f"{self.vowels} voyelle{'s' if self.vowels > 1 else ''} et " \
               f"{self.consonants} consonne{'s' if self.consonants > 1 else ''}"


def requirement(coup: int, pool: str) -> Requirement | None:
    """What a valid tirage must hold at ``coup``, given every letter left (bag + reliquat).

    ``None`` when no valid tirage can be made any more (end of the game).
    """
    if not pool or pool_is_exhausted(pool):
        return None
    base = 2 if coup <= LAST_STRICT_COUP else 1
    size = min(RACK_SIZE, len(pool))
    for need in range(base, 0, -1):
        if 2 * need <= size and satisfies(pool, need, need):
            return Requirement(need, need)
    return None


@dataclass(frozen=True)
class TirageCheck:
    valid: bool
    reason: str  # French, empty when valid


def check_tirage(tirage: str, coup: int, pool: str) -> TirageCheck:
    """Is ``tirage`` valid at ``coup``, ``pool`` being every letter left including the tirage?"""
    need = requirement(coup, pool)
    if need is None:
        return TirageCheck(False, "plus aucun tirage valable possible : fin de partie")
    if satisfies(tirage, need.vowels, need.consonants):
        return TirageCheck(True, "")
    v, c, e = classify(tirage)
    detail = f"{v} voyelle(s), {c} consonne(s)" + (f", {e} joker(s)/Y" if e else "")
    return TirageCheck(False, f"tirage non valable : il faut au moins {need} ({detail})")


def draw_letters(bag: Counter[str], count: int, rng: random.Random) -> str:
    """Take ``count`` random tiles out of ``bag`` (as a physical bag would)."""
    tiles = sorted(bag.elements())
    if count > len(tiles):
        count = len(tiles)
    picked = rng.sample(tiles, count)
    bag.subtract(picked)
    bag += Counter()  # drop zero counts
    return "".join(picked)


def parse_letters(text: str) -> str:
    """Normalise typed letters (case, spaces, ``*`` for a joker); refuse anything else."""
    cleaned = "".join(text.split()).upper().replace("*", JOKER)
    for ch in cleaned:
        if ch != JOKER and ch not in LETTERS:
            raise DrawError(f"caractère non valable : « {ch} » (lettres A à Z, ? pour un joker)")
    return cleaned


def take_from_bag(bag: Counter[str], letters: str) -> None:
    """Remove typed letters from ``bag``, refusing any letter it no longer holds."""
    wanted = Counter(letters)
    for ch, n in sorted(wanted.items()):
        if bag[ch] < n:
            name = "joker" if ch == JOKER else f"lettre {ch}"
            if bag[ch] == 0:
                absent = "joker absent" if ch == JOKER else f"lettre {ch} absente"
                raise DrawError(f"{absent} du sac : il en reste 0, {n} demandé(s)")
            raise DrawError(f"pas assez de {name} dans le sac : il en reste {bag[ch]}, {n} demandé(s)")
    bag.subtract(wanted)
    bag += Counter()


def _without(letters: str, reliquat: str) -> str | None:
    """``letters`` less the reliquat's letters (typed order kept), or None if it lacks one."""
    kept = Counter(reliquat)
    new = []
    for ch in letters:
        if kept[ch]:
            kept[ch] -= 1
        else:
            new.append(ch)
    return None if +kept else "".join(new)


def split_manual(reliquat: str, typed: str, needed: int | None = None) -> str:
    """The new letters of a typed tirage: either the new letters alone, or all 7 with the reliquat.

    ``needed`` is how many new letters the draw takes (fewer than 7 − reliquat
    near the end of the bag); with it, typing the whole tirage is recognised
    even when it has fewer than 7 letters.
    """
    letters = parse_letters(typed)
    if not letters:
        raise DrawError("aucune lettre tapée")
    if needed is not None:
        if len(letters) == needed:
            return letters
        if reliquat and len(letters) == len(reliquat) + needed:
            new = _without(letters, reliquat)
            if new is not None:
                return new
            raise DrawError(f"le tirage tapé « {letters} » ne contient pas le reliquat « {reliquat} »")
        what = "il manque des lettres" if len(letters) < needed else "trop de lettres"
        whole = f", ou les {len(reliquat) + needed} du tirage avec le reliquat « {reliquat} »"
        raise DrawError(
            f"{what} : {len(letters)} tapée(s), il faut {needed} nouvelle(s) lettre(s)"
            + (whole if reliquat else "")
        )
    if len(reliquat) + len(letters) <= RACK_SIZE:
        return letters
    if len(letters) <= RACK_SIZE:
        new = _without(letters, reliquat)
        if new is not None:
            return new
        raise DrawError(
            f"le tirage tapé « {letters} » ne contient pas le reliquat « {reliquat} »"
        )
    raise DrawError(f"tirage trop long : {len(reliquat) + len(letters)} lettres, 7 au plus")
