"""Normalising dictionary entries and users' word lists into Scrabble words."""

from __future__ import annotations

import pytest

from engine.normalize import NormalizeReport, NotAWord, normalize_lines, normalize_word


@pytest.mark.parametrize(
    "raw,expected",
    [
        ("maison", "MAISON"),
        ("MaIsOn", "MAISON"),
        ("élève", "ELEVE"),
        ("ÉLÈVE", "ELEVE"),
        ("êtes", "ETES"),
        ("Noël", "NOEL"),
        ("à", "A"),
        ("châtaigne", "CHATAIGNE"),
        ("maïs", "MAIS"),
        ("île", "ILE"),
        ("Ôter", "OTER"),
        ("où", "OU"),
        ("flûte", "FLUTE"),
        ("capharnaüm", "CAPHARNAUM"),
        ("L'HAŸ", None),  # apostrophe: refused (see below)
        ("ÿ", "Y"),
        ("Ÿ", "Y"),
        ("garçon", "GARCON"),
        ("ÇA", "CA"),
        ("cœur", "COEUR"),
        ("ŒUVRE", "OEUVRE"),
        ("nævus", "NAEVUS"),
        ("ÆGOSOME", "AEGOSOME"),
        ("señor", "SENOR"),  # other Latin letters with a diacritic
        ("smörgåsbord", "SMORGASBORD"),
        ("Dvořák", "DVORAK"),
        ("ﬁnal", "FINAL"),  # compatibility ligature
        ("Ｍａｉｓｏｎ", "MAISON"),  # full-width letters
        ("e\u0301le\u0300ve", "ELEVE"),  # already decomposed accents
        ("x\u0301y", "XY"),  # an accent with no precomposed letter
    ],
)
def test_normalize_word(raw, expected):
    if expected is None:
        with pytest.raises(NotAWord):
            normalize_word(raw)
    else:
        assert normalize_word(raw) == expected


@pytest.mark.parametrize(
    "raw,reason",
    [
        ("", "vide"),
        ("week-end", "trait d'union"),
        ("aujourd'hui", "apostrophe"),
        ("aujourd’hui", "apostrophe"),
        ("pomme de terre", "espace"),
        (" maison", "espace"),
        ("maison\t", "espace"),
        ("1er", "chiffre"),
        ("x²", "chiffre"),
        ("ABC!", "« ! »"),
        ("a.b", "« . »"),
        ("a_b", "« _ »"),
        ("µm", "pas latine"),
        ("ωmega", "pas latine"),
        ("чай", "pas latine"),
        ("a\x00b", "« \x00 »"),
        ("\ufeffmot", "« \ufeff »"),
        ("mot\u200b", "« \u200b »"),
        ("\u0301e", "COMBINING ACUTE ACCENT"),  # an accent on nothing
        ("e\u0301", None),  # decomposed é alone is fine (checked below)
    ],
)
def test_not_a_word_reason_in_french(raw, reason):
    if reason is None:
        assert normalize_word(raw) == "E"
        return
    with pytest.raises(NotAWord) as caught:
        normalize_word(raw)
    assert reason in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_output_is_always_plain_ascii_capitals():
    sample = "àâäéèêëîïôöùûüÿçœæÀÂÄÉÈÊËÎÏÔÖÙÛÜŸÇŒÆ"
    out = normalize_word(sample)
    assert out.isascii() and out.isalpha() and out.isupper()
    assert out == "AAAEEEEIIOOUUUYCOEAEAAAEEEEIIOOUUUYCOEAE"


def test_normalize_lines_report():
    lines = [
        "\ufeffmaison\r\n",  # BOM and CRLF
        "Élève\n",
        "eleve\n",  # same word once normalised
        "\n",
        "   \n",
        "# un commentaire\n",
        "  # indenté aussi\n",
        "a\n",  # one letter
        "à\n",
        "anticonstitutionnellement\n",  # 25 letters
        "week-end\n",
        "aujourd'hui\n",
        "  zen  \n",  # surrounding blanks are tolerated
        "1er\n",
        "pomme de terre\n",
        "chat!\n",
        "#\n",
        "Œuf",  # no final newline
        "quinze-lettres\n",
        "abcdefghijklmno\n",  # exactly 15
        "abcdefghijklmnop\n",  # 16
    ]
    report = normalize_lines(lines)
    assert isinstance(report, NormalizeReport)
    assert report.words == {"MAISON", "ELEVE", "ZEN", "OEUF", "ABCDEFGHIJKLMNO"}
    assert report.one_letter == 2
    assert report.too_long == 2
    assert report.invalid == 6
    assert report.invalid_examples == [
        (11, "week-end"), (12, "aujourd'hui"), (14, "1er"), (15, "pomme de terre"), (16, "chat!"),
    ]
    assert report.lines == len(lines)


def test_ligature_can_push_a_word_over_15_letters():
    # 15 characters, 16 letters once Œ becomes OE
    report = normalize_lines(["œabcdefghijklmn"])
    assert report.words == set() and report.too_long == 1


def test_normalize_lines_empty_and_only_comments():
    assert normalize_lines([]) == NormalizeReport()
    report = normalize_lines(["# rien\n", "\n"])
    assert report.words == set() and report.invalid == 0 and report.lines == 2


def test_bom_only_tolerated_on_first_line():
    report = normalize_lines(["zen\n", "\ufeffmaison\n"])
    assert report.words == {"ZEN"} and report.invalid == 1


def test_hostile_lines_are_counted_not_kept():
    lines = ["\x00\x01\x02", "MZ\x90\x00", "<html>", "DROP TABLE;", "é" * 100, "🙂", "ok"]
    report = normalize_lines(lines)
    assert report.words == {"OK"}
    assert report.invalid == 5 and report.too_long == 1
    assert len(report.invalid_examples) == 5


def test_accepts_a_generator():
    report = normalize_lines(f"mot{letter}\n" for letter in "abc")
    assert report.words == {"MOTA", "MOTB", "MOTC"}
