"""Pronunciation, checked with espeak-ng's phoneme output (``espeak-ng -q -x -v fr``).

Each letter must come out as its French name, the joker as "jokère", and no
word may switch espeak-ng to its English rules (shown as ``(en)``).
"""

import re

import pytest

from engine.board import ROWS
from engine.tiles import LETTERS
from speech import espeak, texts
from speech.voice import for_voice

#: espeak-ng's French phonemes for each letter name (stress mark included).
LETTER_PHONEMES = {
    "A": "'a", "B": "b'e", "C": "s'e", "D": "d'e", "E": "'@", "F": "'Ef", "G": "Z'e",
    "H": "'aS", "I": "'i", "J": "Z'i", "K": "k'a", "L": "'El", "M": "'Em", "N": "'En",
    "O": "'o", "P": "p'e", "Q": "k'y", "R": "'Er", "S": "'Es", "T": "t'e", "U": "'y",
    "V": "v'e", "W": "dubl@v'e", "X": "'iks", "Y": "igr'Ek", "Z": "z'Ed", "?": "Zok'Er",
}


def tokens(text: str) -> list[str]:
    """Phoneme words of ``text`` as spoken, pause/emphasis marks removed."""
    raw = espeak.phonemes(for_voice(text))
    assert "(en)" not in raw, f"English rules used for {text!r}: {raw}"
    return [re.sub(r"^(_[!|:]+)+|[;,]$", "", t) for t in raw.split()]


def contains_in_order(found: list[str], wanted: list[str]) -> bool:
    position = 0
    for token in found:
        if position < len(wanted) and token == wanted[position]:
            position += 1
    return position == len(wanted)


def test_espeak_is_installed():
    assert espeak.available()


@pytest.mark.parametrize("letter", list(LETTERS) + ["?"])
def test_new_letter_ends_with_the_french_letter_name(letter):
    found = tokens(texts.new_letter(letter))
    assert found[-1] == LETTER_PHONEMES[letter], found


def test_every_letter_in_a_spelled_word():
    word = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    found = tokens(texts.spell(word) + ", joker Y")
    assert found == [LETTER_PHONEMES[c] for c in word] + ["Zok'Er", "igr'Ek"]


def test_tirage_letters_and_joker():
    found = tokens(texts.tirage("EESR?AT"))
    assert found == ["'a", "d'Y", "'@", "'Er", "'Es", "t'e", "Zok'Er"]


@pytest.mark.parametrize("row", list(ROWS))
def test_row_letter_in_a_reference_is_its_name(row):
    horizontal = tokens(f"En {row} 4. Je répète : MOT, {row} 4, 12 points.")
    vertical = tokens(f"En 4 {row}.")
    name = LETTER_PHONEMES[row]
    assert contains_in_order(horizontal, [name, "k'atr", name, "k'atr"]), horizontal
    assert contains_in_order(vertical, ["k'atr", name]), vertical


def test_joker_is_said_the_french_way_in_a_top():
    found = tokens(texts.top(word="MAIsONS", ref="H4", score=70))
    assert contains_in_order(found, ["'Em", "'a", "'i", "Zok'Er", "'Es", "'o", "'En", "'Es"])
    assert "swas'A~td'i" in found  # soixante-dix said in words
    assert found.count("'aS") == 2  # H, twice


def test_danemark_and_wallonie_sound_french():
    assert tokens(texts.new_letter("D"))[0] == "danm'ark"
    assert tokens(texts.new_letter("W"))[0] == "walon'i"


def test_numbers_are_written_out_for_the_voice():
    assert for_voice("Je répète : MOT, H 4, 171 points.") == (
        "Je répète : mot, H quatre, cent soixante et onze points."
    )


@pytest.mark.parametrize("text", texts.fixed_phrases() + [
    texts.rejected("voyelles"), texts.end_of_game(950), texts.solos([(12, 7)]),
    texts.coup(23), texts.draw("WXYZK??", "WXYZK??"),
])
def test_no_phrase_falls_into_english(text):
    tokens(text)
