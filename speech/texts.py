"""What the juge-arbitre says, as written French (pure functions, no sound).

These strings are the announcements as a person would write them
("Roumanie R, Joker, Algérie A"); :func:`speech.voice.for_voice` turns them
into the text the synthesiser must read so that every letter sounds right.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from enum import Enum

from engine.board import Ref
from engine.move import Move
from engine.tiles import CONSONANTS, JOKER, LETTERS, RACK_SIZE, VOWELS

from .numbers import number_words

PAYS_LETTRE: dict[str, str] = {
    "A": "Algérie", "B": "Belgique", "C": "Canada", "D": "Danemark", "E": "Égypte",
    "F": "France", "G": "Grèce", "H": "Hongrie", "I": "Italie", "J": "Jordanie",
    "K": "Kenya", "L": "Luxembourg", "M": "Maroc", "N": "Norvège", "O": "Océanie",
    "P": "Portugal", "Q": "Québec", "R": "Roumanie", "S": "Suisse", "T": "Tunisie",
    "U": "Uruguay", "V": "Venezuela", "W": "Wallonie", "X": "Xénophon",
    "Y": "Yougoslavie", "Z": "Zambie",
}
JOKER_WORD = "Joker"


class LetterForm(Enum):
    """How a new letter is announced: full Pays-Lettre, or the blitz short forms."""

    PAYS_LETTRE = "pays-lettre"  # "Roumanie R"
    PAYS = "pays"  # "Roumanie" (blitz)
    LETTRE = "lettre"  # "R" (blitz)


def _check_tile(tile: str) -> str:
    if tile == JOKER:
        return tile
    if len(tile) == 1 and tile.upper() in LETTERS:
        return tile.upper()
    raise ValueError(f"lettre non valable : « {tile} » (A à Z, ou ? pour un joker)")


def capitalize(text: str) -> str:
    return text[:1].upper() + text[1:]


def new_letter(tile: str, form: LetterForm = LetterForm.PAYS_LETTRE) -> str:
    """One drawn letter: ``R`` → "Roumanie R"; a joker is always "Joker"."""
    tile = _check_tile(tile)
    if tile == JOKER:
        return JOKER_WORD
    if form is LetterForm.PAYS:
        return PAYS_LETTRE[tile]
    if form is LetterForm.LETTRE:
        return tile
    return f"{PAYS_LETTRE[tile]} {tile}"


def new_letters(tiles: Iterable[str], form: LetterForm = LetterForm.PAYS_LETTRE) -> str:
    """The new letters in draw order: "Roumanie R, Joker, Algérie A, Tunisie T"."""
    parts = [new_letter(t, form) for t in tiles if not t.isspace()]
    if not parts:
        raise ValueError("aucune nouvelle lettre à annoncer")
    return ", ".join(parts)


def tirage(tiles: Iterable[str]) -> str:
    """The whole tirage, identical letters grouped, alphabetical, jokers last.

    ``EESR?AT`` → "A, deux E, R, S, T, Joker".
    """
    counts = Counter(_check_tile(t) for t in tiles if not t.isspace())
    if not counts:
        raise ValueError("tirage vide : rien à annoncer")
    parts = []
    for tile in sorted(counts, key=lambda t: (t == JOKER, t)):
        n = counts[tile]
        name = JOKER_WORD if tile == JOKER else tile
        if n == 1:
            parts.append(name)
        else:
            plural = "s" if tile == JOKER else ""
            parts.append(f"{number_words(n)} {name}{plural}")
    return ", ".join(parts)


def draw(new: Iterable[str], whole: Iterable[str],
         form: LetterForm = LetterForm.PAYS_LETTRE) -> str:
    """New letters then the whole tirage, as said at the start of a coup."""
    return f"{new_letters(new, form)}. {capitalize(tirage(whole))}."


def reference(ref: Ref | str) -> str:
    """``H4`` → "H 4", ``4H`` → "4 H": letter and number apart so each is read aloud."""
    ref = ref if isinstance(ref, Ref) else Ref.parse(ref)
    text = str(ref)
    letter = text[0] if ref.horizontal else text[-1]
    number = text[1:] if ref.horizontal else text[:-1]
    return f"{letter} {number}" if ref.horizontal else f"{number} {letter}"


def points(score: int) -> str:
    """``70`` → "soixante-dix points"; 0 and 1 take the singular; past 999, in digits."""
    if score < 0:
        raise ValueError(f"score négatif : {score}")
    said = number_words(score) if score <= 999 else str(score)
    return f"{said} point{'s' if score > 1 else ''}"


def spell(word: str) -> str:
    """Letter by letter, a joker's letter named: ``MAIsONS`` → "M, A, I, joker S, O, N, S"."""
    if not word or not all(c.upper() in LETTERS for c in word):
        raise ValueError(f"mot non valable : « {word} »")
    return ", ".join(f"{JOKER_WORD.lower()} {c.upper()}" if c.islower() else c for c in word)


def top(move: Move | None = None, *, word: str | None = None, ref: Ref | str | None = None,
        score: int | None = None, scrabble: bool = False) -> str:
    """The top: points (« Scrabble » when the seven letters are placed), direction, position,
    the word spelled, then the short recap.

    Give a :class:`engine.move.Move`, or ``word``/``ref``/``score`` and ``scrabble``
    (joker letters in lower case in ``word``).
    """
    if move is not None:
        word, ref, score = move.word, move.ref, move.score
        scrabble = len(move.placed) == RACK_SIZE
    if word is None or ref is None or score is None:
        raise ValueError("top incomplet : il faut le mot, la référence et le score")
    ref = ref if isinstance(ref, Ref) else Ref.parse(ref)
    direction = "Horizontal" if ref.horizontal else "Vertical"
    place = reference(ref)
    upper = word.upper()
    bonus = " Scrabble." if scrabble else ""
    return (
        f"{capitalize(points(score))}.{bonus} {direction}. En {place}. "
        f"{upper} : {spell(word)}. "
        f"Je répète : {upper}, {place}, {score} point{'s' if score > 1 else ''}."
    )


def chrono() -> str:
    return "Chrono"


def _feminine(n: int) -> str:
    """Number before a feminine noun: "une seconde", "vingt et une secondes"."""
    words = number_words(n)
    return words[:-2] + "une" if words == "un" or words.endswith(" et un") else words


def warning(seconds: int = 30) -> str:
    """The warning before the end: "Trente secondes" (twenty in blitz: ``warning(20)``)."""
    if seconds <= 0:
        raise ValueError("le délai d'avertissement doit être positif")
    minutes, rest = divmod(seconds, 60)
    parts = []
    if minutes:
        parts.append(f"{_feminine(minutes)} minute{'s' if minutes > 1 else ''}")
    if rest:
        parts.append(f"{_feminine(rest)} seconde{'s' if rest > 1 else ''}")
    return capitalize(" ".join(parts))


def finished() -> str:
    return "Terminé"


def pause() -> str:
    return "Pause"


def resume() -> str:
    return "Reprise"


#: The timing calls by name, as the kiosk asks for them.
CALLS = {"chrono": chrono, "terminé": finished, "pause": pause, "reprise": resume}


def call(name: str, warning_seconds: int = 30) -> str:
    """A timing call by name: chrono, avertissement, terminé, pause, reprise."""
    key = name.strip().lower().replace("termine", "terminé")
    if key in ("avertissement", "warning"):
        return warning(warning_seconds)
    aliases = {"end": "terminé", "resume": "reprise", "start": "chrono"}
    key = aliases.get(key, key)
    if key not in CALLS:
        raise ValueError(f"annonce inconnue : « {name} » (chrono, avertissement, terminé, "
                         "pause, reprise)")
    return CALLS[key]()


def coup(number: int) -> str:
    return f"Coup numéro {number_words(number)}"


_REJECT_REASONS = {
    "voyelles": "il n'y a pas assez de voyelles",
    "consonnes": "il n'y a pas assez de consonnes",
}


def rejected(reason: str | None = None) -> str:
    """A rejected tirage: every letter, reliquat included, goes back; seven are drawn again.

    ``reason`` is "voyelles", "consonnes", or a free French phrase.
    """
    why = ""
    if reason:
        why = f" : {_REJECT_REASONS.get(reason.strip().lower(), reason.strip())}"
    return (f"Tirage rejeté{why}. Toutes les lettres retournent dans le sac. "
            "Nouveau tirage de sept lettres.")


def rejected_for(tirage_letters: str, coup_number: int) -> str:
    """The rejection announcement with its reason worked out from the tirage.

    Two vowels and two consonants are needed up to the 15th coup, one of each
    after; Y and jokers may stand for either. A tirage that meets that was
    rejected by the juge-arbitre's decision: no reason is said.
    """
    need = 2 if coup_number <= 15 else 1
    vowels = sum(t in VOWELS for t in tirage_letters)
    consonants = sum(t in CONSONANTS for t in tirage_letters)
    either = len(tirage_letters) - vowels - consonants
    short_v, short_c = max(0, need - vowels), max(0, need - consonants)
    if short_v + short_c <= either:
        return rejected()
    return rejected("voyelles" if short_v >= short_c else "consonnes")


def end_of_game(total: int | None = None) -> str:
    """End of the game, with the sum of the tops when known."""
    if total is None:
        return "Fin de la partie."
    return f"Fin de la partie. Total des tops : {total} point{'s' if total > 1 else ''}."


def solo(table: int, coup_number: int) -> str:
    return f"Solo de la table {table} au coup {coup_number}"


def solos(items: Iterable[tuple[int, int]]) -> str:
    """Solos announced at the end: "Solo de la table 12 au coup 7. Solo de …", or none."""
    parts = [solo(t, c) for t, c in items]
    if not parts:
        return "Aucun solo."
    return ". ".join(parts) + "."


def fixed_phrases(warning_seconds: tuple[int, ...] = (30, 20)) -> list[str]:
    """Phrases rendered once at start-up: the calls, 27 Pays-Lettre letters, small numbers."""
    phrases = [chrono(), finished(), pause(), resume()]
    phrases += [warning(s) for s in warning_seconds]
    phrases += [new_letter(t) for t in LETTERS] + [JOKER_WORD]
    phrases += [capitalize(number_words(n)) for n in range(0, 21)]
    return phrases
