"""The words of the juge-arbitre: Pays-Lettre, grouped tirage, calls, the top, numbers."""

import pytest

from engine.board import Ref
from engine.move import Move
from engine.tiles import LETTERS
from speech import texts
from speech.numbers import number_words
from speech.texts import LetterForm


def test_new_letters_in_draw_order_pays_lettre():
    assert texts.new_letters("R?AT") == "Roumanie R, Joker, Algérie A, Tunisie T"


@pytest.mark.parametrize("letter", list(LETTERS))
def test_every_letter_has_its_country(letter):
    phrase = texts.new_letter(letter)
    country, spoken = phrase.rsplit(" ", 1)
    assert spoken == letter
    assert country == texts.PAYS_LETTRE[letter]
    assert country[0] in (letter, "É")  # Égypte for E
    assert texts.new_letter(letter.lower()) == phrase


def test_pays_lettre_table_is_the_federations():
    assert len(texts.PAYS_LETTRE) == 26
    assert texts.PAYS_LETTRE["W"] == "Wallonie"
    assert texts.PAYS_LETTRE["X"] == "Xénophon"
    assert texts.PAYS_LETTRE["Y"] == "Yougoslavie"
    assert texts.new_letter("?") == "Joker"


def test_blitz_forms():
    assert texts.new_letters("R?AT", LetterForm.PAYS) == "Roumanie, Joker, Algérie, Tunisie"
    assert texts.new_letters("R?AT", LetterForm.LETTRE) == "R, Joker, A, T"


def test_tirage_grouped_alphabetical_jokers_last():
    assert texts.tirage("EESR?AT") == "A, deux E, R, S, T, Joker"
    assert texts.tirage("??EEEAA") == "deux A, trois E, deux Jokers"
    assert texts.tirage("ZYXWVUT") == "T, U, V, W, X, Y, Z"
    assert texts.tirage("EEEEEEE") == "sept E"


def test_draw_joins_new_letters_and_whole_tirage():
    assert texts.draw("R?AT", "EESR?AT") == (
        "Roumanie R, Joker, Algérie A, Tunisie T. A, deux E, R, S, T, Joker."
    )


@pytest.mark.parametrize("bad", ["", "   "])
def test_nothing_to_announce_is_an_error(bad):
    with pytest.raises(ValueError, match="annoncer|vide"):
        texts.new_letters(bad)
    with pytest.raises(ValueError):
        texts.tirage(bad)


def test_bad_letter_is_refused_in_french():
    with pytest.raises(ValueError, match="lettre non valable"):
        texts.tirage("AB3")


def test_calls():
    assert texts.call("chrono") == "Chrono"
    assert texts.call("avertissement") == "Trente secondes"
    assert texts.call("avertissement", warning_seconds=20) == "Vingt secondes"
    assert texts.call("terminé") == texts.call("termine") == "Terminé"
    assert texts.call("pause") == "Pause"
    assert texts.call("reprise") == "Reprise"
    assert texts.warning(1) == "Une seconde"
    assert texts.warning(21) == "Vingt et une secondes"
    assert texts.warning(60) == "Une minute"
    assert texts.warning(90) == "Une minute trente secondes"
    with pytest.raises(ValueError, match="annonce inconnue"):
        texts.call("sonnerie")


def test_rejected_tirage():
    text = texts.rejected("voyelles")
    assert text.startswith("Tirage rejeté : il n'y a pas assez de voyelles.")
    assert "retournent dans le sac" in text
    assert text.endswith("Nouveau tirage de sept lettres.")
    assert texts.rejected().startswith("Tirage rejeté.")
    assert "consonnes" in texts.rejected("consonnes")


def test_rejected_reason_from_the_tirage():
    assert "voyelles" in texts.rejected_for("BCDFGHA", 3)
    assert "consonnes" in texts.rejected_for("AEIOUEB", 3)
    assert "consonnes" in texts.rejected_for("AEIOUEE", 16)
    assert texts.rejected_for("AEIOUBC", 3) == texts.rejected()  # valid: JA's decision
    assert texts.rejected_for("AEIOU?B", 3) == texts.rejected()  # joker as consonant
    assert texts.rejected_for("BCDFGHA", 16) == texts.rejected()  # one of each after 15


def test_top_example_shape():
    assert texts.top(word="MAISONS", ref="H4", score=70) == (
        "Soixante-dix points. Horizontal. En H 4. MAISONS : M, A, I, S, O, N, S. "
        "Je répète : MAISONS, H 4, 70 points."
    )


def test_top_from_a_move_names_the_joker_letter():
    move = Move(Ref.parse("8D"), "ExERCER", ((3, 7, "E"), (4, 7, "x")), 12)
    text = texts.top(move)
    assert text.startswith("Douze points. Vertical. En 8 D. EXERCER : E, joker X, E, R,")
    assert text.endswith("Je répète : EXERCER, 8 D, 12 points.")


def test_huge_scores_and_totals_stay_readable():
    assert texts.points(1200) == "1200 points"
    assert texts.top(word="AS", ref="A1", score=1200).startswith("1200 points.")
    from speech.voice import for_voice

    assert "1200" in for_voice(texts.end_of_game(1200))  # espeak-ng reads it in French
    with pytest.raises(ValueError):
        texts.points(-1)


def test_top_singular_point():
    assert texts.top(word="AS", ref="A1", score=1).startswith("Un point. Horizontal. En A 1.")


@pytest.mark.parametrize("ref,said", [("H4", "H 4"), ("4H", "4 H"), ("A1", "A 1"),
                                      ("O15", "O 15"), ("15O", "15 O"), ("1A", "1 A"),
                                      ("h 12", "H 12"), ("12 h", "12 H")])
def test_references_of_every_shape(ref, said):
    assert texts.reference(ref) == said
    assert texts.reference(Ref.parse(ref)) == said


def test_every_square_reference_round_trips():
    for row in range(15):
        for col in range(15):
            for horizontal in (True, False):
                ref = Ref(row, col, horizontal)
                said = texts.reference(ref)
                assert Ref.parse(said.replace(" ", "")) == ref


def test_end_and_solos():
    assert texts.end_of_game() == "Fin de la partie."
    assert texts.end_of_game(987) == "Fin de la partie. Total des tops : 987 points."
    assert texts.solo(12, 7) == "Solo de la table 12 au coup 7"
    assert texts.solos([(12, 7), (3, 15)]) == (
        "Solo de la table 12 au coup 7. Solo de la table 3 au coup 15."
    )
    assert texts.solos([]) == "Aucun solo."


NUMBERS = {
    0: "zéro", 1: "un", 7: "sept", 10: "dix", 11: "onze", 16: "seize", 17: "dix-sept",
    20: "vingt", 21: "vingt et un", 22: "vingt-deux", 30: "trente", 31: "trente et un",
    41: "quarante et un", 59: "cinquante-neuf", 61: "soixante et un", 70: "soixante-dix",
    71: "soixante et onze", 72: "soixante-douze", 77: "soixante-dix-sept",
    79: "soixante-dix-neuf", 80: "quatre-vingts", 81: "quatre-vingt-un",
    88: "quatre-vingt-huit", 90: "quatre-vingt-dix", 91: "quatre-vingt-onze",
    99: "quatre-vingt-dix-neuf", 100: "cent", 101: "cent un", 111: "cent onze",
    171: "cent soixante et onze", 180: "cent quatre-vingts", 200: "deux cents",
    201: "deux cent un", 280: "deux cent quatre-vingts", 300: "trois cents",
    999: "neuf cent quatre-vingt-dix-neuf",
}


@pytest.mark.parametrize("n,words", sorted(NUMBERS.items()))
def test_numbers_in_french_words(n, words):
    assert number_words(n) == words


def test_all_numbers_0_to_999_are_distinct_words():
    seen = {number_words(n) for n in range(1000)}
    assert len(seen) == 1000
    assert all(w and w == w.strip() and "  " not in w for w in seen)


@pytest.mark.parametrize("bad", [-1, 1000, 2.5, True])
def test_numbers_out_of_range(bad):
    with pytest.raises(ValueError, match="hors des limites"):
        number_words(bad)


def test_fixed_phrases_cover_calls_and_letters():
    phrases = texts.fixed_phrases()
    for phrase in ("Chrono", "Trente secondes", "Vingt secondes", "Terminé", "Pause",
                   "Reprise", "Roumanie R", "Zambie Z", "Joker"):
        assert phrase in phrases
    assert len(phrases) == len(set(phrases))


def test_top_of_a_generated_move_names_the_joker():
    from engine.board import Board
    from engine.lexicon import Lexicon
    from engine.movegen import generate_moves

    moves = generate_moves(Board(), "MAISO?S", Lexicon.from_words(["MAISONS", "AIMONS"]))
    with_joker = next(m for m in moves if m.word.upper() == "MAISONS" and m.jokers_used)
    joker = next(c for c in with_joker.word if c.islower()).upper()
    text = texts.top(with_joker)
    assert f"joker {joker}" in text
    # seven letters placed: the top is a scrabble, and the announcement says so
    assert text.startswith(texts.capitalize(texts.points(with_joker.score))
                           + ". Scrabble. Horizontal.")
    assert text.endswith(f"{with_joker.score} points.")
    short = next(m for m in moves if len(m.placed) < 7)
    assert "Scrabble" not in texts.top(short)
    assert "Scrabble" not in texts.top(word="AIMONS", ref="H4", score=20)
    assert ". Scrabble. " in texts.top(word="MAISOnS", ref="H4", score=68, scrabble=True)


def test_draw_of_a_game_coup_names_every_new_letter():
    from engine.game import Game

    game = Game(seed=3)
    coup = game.draw()
    text = texts.draw(coup.new_letters, coup.tirage)
    said, whole = text.split(". ", 1)
    assert len(said.split(", ")) == len(coup.new_letters) == 7
    for tile in coup.new_letters:
        assert texts.new_letter(tile) in said
    assert whole == texts.capitalize(texts.tirage(coup.tirage)) + "."
