"""Correcting bulletins: one case per rule of RULES.md "Correcting a bulletin" (4.3, 4.4, 5).

Every expected score below is counted by hand from the premium squares
(see the comment on each grid), not by the code under test.
"""

from dataclasses import dataclass, field

import pytest

from engine.board import Board, Ref
from engine.bulletin import Bulletin
from engine.correction import CorrectionSettings, Outcome, correct, top_decision
from engine.lexicon import Lexicon
from engine.movegen import generate_moves
from engine.placement import Fit, fit_word, realise

LEX = set(
    "MAISON MAISONS RETAPER REPARER PRETE PRETES ES EN NE TE TES SAS"
    " TU TUE ETE MAMAN OS SE ET ART TI".split()
)


def grid(*words: tuple[str, str]) -> Board:
    """A grid from (reference, word) pairs."""
    board = Board()
    for ref, word in words:
        r = Ref.parse(ref)
        for (row, col), ch in zip(r.squares(len(word)), word, strict=True):
            board[(row, col)] = ch
    return board


EMPTY: tuple = ()
# MAISON at H4..H9: H4 (LD) and H8 (star) already covered.
# RETAPER at 5E: E5 (MD) R1 E1 T1 [A] P3 E1 K5 (MD) R1 = 9 × 4 = 36.
# ES at I9: E on I9 (LD) 2 + S 1 = 3, cross NE: N 1 + E 2 = 3 -> 6.
# PRETES at 7C: P on C7 (LD) 6, R 1, E 1, T 1, E on G7 (LD) 2, [S] 1 -> 12.
G1 = (("H4", "MAISON"),)
# SAS at H7..H9, symmetric: TES at 7F = T 1 + E on G7 (LD) 2 + S 1 = 4, the same at 9F.
G2A = (("H7", "SAS"),)
# SAS at H6..H8: TES at 6F = T on F6 (LT) 3 + E 1 + S 1 = 5; TES at 8F = 1 + 1 + 1 = 3.
G2B = (("H6", "SAS"),)
# A two-letter first word, then a three-letter one; ETE at 8G = 1 + 1 + 1 = 3,
# ETE at 10F (TUE grid) = E on F10 (LT) 3 + T 1 + E 1 = 5.
G_TU = (("H8", "TU"),)
G_TUE = (("H8", "TUE"),)
G_AI = (("H5", "A"), ("I7", "I"))

T2 = "EEPRRTS"


@dataclass
class Case:
    name: str
    grid: tuple
    tirage: str
    bulletin: dict
    outcome: str
    score: int
    reason: str
    ref: str | None = None
    settings: dict = field(default_factory=dict)
    told: tuple = ()


def B(word=None, ref=None, score=None, sens=None, raccord=None, **flags):
    data = {"table": 1, "word": word, "ref": ref, "score": score, "sens": sens, "raccord": raccord}
    data.update(flags)
    return data


CASES = [
    # --- 5.1/5.2: right word, reference and score; score missing or miscounted
    Case("ok_word_ref_score_right", G1, T2, B("RETAPER", "5E", 36, "v"), "ok", 36, "correct", "5E"),
    Case(
        "ok_parallel_word_counts_cross_word",
        G1,
        T2,
        B("ES", "I9", 6, "h"),
        "ok",
        6,
        "correct",
        "I9",
    ),
    Case(
        "avertissement_score_miscounted_ref_right",
        G1,
        T2,
        B("RETAPER", "5E", 40, "v"),
        "avertissement",
        36,
        "score erroné (40 au lieu de 36)",
        "5E",
    ),
    Case(
        "avertissement_score_missing_ref_right",
        G1,
        T2,
        B("RETAPER", "5E", None, "v"),
        "avertissement",
        36,
        "score absent",
        "5E",
    ),
    Case(
        "avertissement_score_four_digits",
        G1,
        T2,
        B("RETAPER", "5E", 3600, "v"),
        "avertissement",
        36,
        "score erroné (3600 au lieu de 36)",
        "5E",
    ),
    Case(
        "avertissement_score_unreadable",
        G1,
        T2,
        B("RETAPER", "5E", "3G", "v"),
        "avertissement",
        36,
        "score illisible",
        "5E",
    ),
    # --- first coup: no reference needed, the most favourable placement
    Case(
        "first_coup_most_favourable_placement",
        EMPTY,
        "AIMNOSE",
        B("MAISON", None, 18),
        "ok",
        18,
        "correct",
        "H4",
    ),
    Case(
        "first_coup_reference_not_needed_even_if_other",
        EMPTY,
        "AIMNOSE",
        B("MAISON", "H8", 18),
        "ok",
        18,
        "correct",
        "H4",
    ),
    Case(
        "first_coup_wrong_score_warning",
        EMPTY,
        "AIMNOSE",
        B("MAISON", "H8", 16),
        "avertissement",
        18,
        "score erroné (16 au lieu de 18)",
        "H4",
    ),
    Case(
        "first_coup_missing_score_warning",
        EMPTY,
        "AIMNOSE",
        B("MAISON"),
        "avertissement",
        18,
        "score absent",
        "H4",
    ),
    Case(
        "first_coup_word_not_in_lexicon",
        EMPTY,
        "AIMNOSE",
        B("MAISNO", None, 18),
        "zero",
        0,
        "mot non valable : MAISNO",
    ),
    Case(
        "first_coup_not_formable",
        EMPTY,
        "AIMNOSE",
        B("MAISONS", None, 72),
        "zero",
        0,
        "mot non formable avec le tirage",
    ),
    # MAMAN, one M and a joker: mAMAN is best at H8 (12), MAmAN at H4 (14).
    Case(
        "first_coup_joker_circled",
        EMPTY,
        "AAMN?ES",
        B("MAmAN", None, 14),
        "ok",
        14,
        "correct",
        "H4",
    ),
    Case(
        "first_coup_joker_unclear_least_favourable",
        EMPTY,
        "AAMN?ES",
        B("MAMAN", None, None),
        "avertissement",
        12,
        "place du joker incertaine : position la moins avantageuse retenue",
        "H8",
    ),
    Case(
        "first_coup_joker_unclear_score_settles",
        EMPTY,
        "AAMN?ES",
        B("MAMAN", None, 14),
        "avertissement",
        14,
        "joker non entouré",
        "H4",
    ),
    # MAISONS with one S and a joker: either S a joker, best 68 at H4 both ways (+50 scrabble).
    Case(
        "first_coup_joker_not_circled_place_indifferent",
        EMPTY,
        "AIMNOS?",
        B("MAISONS", None, 68),
        "avertissement",
        68,
        "joker non entouré",
        "H4",
    ),
    # --- 5.3.1: reference wrong, unreadable or missing, score matching, same direction
    Case(
        "penalite_reference_missing_score_matches",
        G1,
        T2,
        B("RETAPER", None, 36, "v"),
        "penalite",
        36,
        "référence absente",
        "5E",
    ),
    Case(
        "penalite_reference_wrong_score_matches",
        G1,
        T2,
        B("RETAPER", "6E", 36, "v"),
        "penalite",
        36,
        "référence erronée (6E : case H6 occupée par I)",
        "5E",
    ),
    Case(
        "penalite_reference_unreadable_score_matches",
        G1,
        T2,
        B("RETAPER", "5Z", 36, "v"),
        "penalite",
        36,
        "référence illisible (5Z)",
        "5E",
    ),
    Case(
        "penalite_reference_off_grid_score_matches",
        G1,
        T2,
        B("RETAPER", "16E", 36, "v"),
        "penalite",
        36,
        "référence illisible (16E)",
        "5E",
    ),
    Case(
        "zero_reference_missing_score_matches_nothing",
        G1,
        T2,
        B("RETAPER", None, 35, "v"),
        "zero",
        0,
        "référence absente et score (35) ne correspondant à aucun emplacement du mot",
    ),
    Case(
        "zero_reference_missing_score_missing",
        G1,
        T2,
        B("RETAPER", None, None, "v"),
        "zero",
        0,
        "référence absente et score absent : mot non localisable",
    ),
    Case(
        "zero_reference_missing_other_direction_than_written",
        G1,
        T2,
        B("RETAPER", None, 36, "h"),
        "zero",
        0,
        "référence absente et score (36) ne correspondant à aucun emplacement du mot",
    ),
    Case(
        "penalite_last_letter_missing_on_grid",
        G1,
        "PRTEESA",
        B("PRETE", "7C", 12, "v"),
        "penalite",
        12,
        "dernière lettre du mot absente (déjà sur la grille)",
        "7C",
    ),
    Case(
        "penalite_last_letter_changed_on_grid",
        G1,
        "PRTEESA",
        B("PRETEE", "7C", 12, "v"),
        "penalite",
        12,
        "dernière lettre du mot modifiée (déjà sur la grille)",
        "7C",
    ),
    Case(
        "penalite_last_letter_missing_no_reference",
        G1,
        "PRTEESA",
        B("PRETE", None, 12, "v"),
        "penalite",
        12,
        "dernière lettre du mot absente (déjà sur la grille)",
        "7C",
    ),
    Case(
        "zero_last_letter_missing_score_not_of_full_word",
        G1,
        "PRTEESA",
        B("PRETE", "7C", 9, "v"),
        "zero",
        0,
        "référence erronée (7C : le mot touche la lettre S placée après lui) et score (9)"
        " ne correspondant à aucun emplacement du mot",
    ),
    # --- 5.3.2: ambiguities
    Case(
        "penalite_ambiguous_same_word_same_score_two_places",
        G2A,
        "TESAIRU",
        B("TES", None, 4, "v"),
        "penalite",
        4,
        "mot jouable à plusieurs emplacements dans le même sens pour le même score (5.3.2)",
    ),
    Case(
        "penalite_wrong_ref_itself_legal_claimed_score_wins",
        G2B,
        "TESAIRU",
        B("TES", "8F", 5, "v"),
        "penalite",
        5,
        "référence erronée (8F) mais placement possible : "
        "placement du score revendiqué retenu (6F)",
        "6F",
    ),
    Case(
        "setting_wrong_ref_itself_legal_written_ref_kept",
        G2B,
        "TESAIRU",
        B("TES", "8F", 5, "v"),
        "avertissement",
        3,
        "score erroné (5 au lieu de 3)",
        "8F",
        settings={"claimed_score_wins_on_legal_wrong_ref": False},
    ),
    # --- 5.2: row and column swapped
    Case(
        "avertissement_reference_inverted_only_one_fits",
        G1,
        T2,
        B("RETAPER", "E5", 36, "v"),
        "avertissement",
        36,
        "référence inversée (E5 au lieu de 5E)",
        "5E",
    ),
    Case(
        "avertissement_reference_inverted_score_missing",
        G1,
        T2,
        B("RETAPER", "E5", None, None),
        "avertissement",
        36,
        "référence inversée (E5 au lieu de 5E)",
        "5E",
    ),
    # A at H5, I at I7: ART at H5 = 3 + cross TI (T 1 + I 1) = 5; ART at 5H = 3.
    Case(
        "inverted_both_directions_fit_score_missing_lowest",
        G_AI,
        "RTEESAU",
        B("ART", "H5", None, "v"),
        "avertissement",
        3,
        "sens d'écriture et référence H5 contradictoires, score non concordant : "
        "score le plus bas retenu",
        "5H",
    ),
    Case(
        "inverted_both_directions_fit_score_settles",
        G_AI,
        "RTEESAU",
        B("ART", "5H", 5, "h"),
        "avertissement",
        5,
        "référence inversée (5H au lieu de H5)",
        "H5",
    ),
    Case(
        "written_ref_right_paper_direction_other",
        G_AI,
        "RTEESAU",
        B("ART", "5H", 3, "h"),
        "ok",
        3,
        "correct",
        "5H",
    ),
    # --- jokers (5.2, 5.6)
    Case("ok_joker_circled", G1, "EEPRT?S", B("RETAPEr", "5E", 32, "v"), "ok", 32, "correct", "5E"),
    Case(
        "avertissement_joker_not_circled_place_clear",
        G1,
        "EEPRT?S",
        B("RETAPER", "5E", 32, "v"),
        "avertissement",
        32,
        "joker non entouré",
        "5E",
    ),
    Case(
        "avertissement_wrong_letter_circled",
        G1,
        "EEPRT?S",
        B("REtAPER", "5E", 32, "v"),
        "avertissement",
        32,
        "mauvaise lettre entourée comme joker",
        "5E",
    ),
    Case(
        "avertissement_grid_letter_circled",
        G1,
        "EEPRT?S",
        B("RETaPEr", "5E", 32, "v"),
        "avertissement",
        32,
        "lettre de la grille entourée comme joker",
        "5E",
    ),
    # PRETES with one E and a joker: joker on E7 -> 11, on G7 (LD) -> 10.
    Case(
        "joker_unclear_score_settles",
        G1,
        "PRTE?SA",
        B("PRETES", "7C", 11, "v"),
        "avertissement",
        11,
        "joker non entouré",
        "7C",
    ),
    Case(
        "joker_unclear_score_settles_nothing_lowest",
        G1,
        "PRTE?SA",
        B("PRETES", "7C", None, "v"),
        "avertissement",
        10,
        "place du joker incertaine et score non concordant : score le plus bas retenu",
        "7C",
    ),
    # --- raccord (4.3)
    Case(
        "ok_raccord_three_letters",
        G1,
        T2,
        B("RETAPER", None, 36, "v", ["M", "A", "I"]),
        "ok",
        36,
        "correct",
        "5E",
    ),
    Case(
        "avertissement_score_miscounted_raccord_right",
        G1,
        T2,
        B("RETAPER", None, 63, "v", ["M", "A", "I"]),
        "avertissement",
        36,
        "score erroné (63 au lieu de 36)",
        "5E",
    ),
    Case(
        "avertissement_raccord_two_letters",
        G_TUE,
        "EEARSTL",
        B("ETE", None, 3, "v", ["T", "U"]),
        "avertissement",
        3,
        "raccord de deux lettres au lieu de trois",
        "8G",
    ),
    Case(
        "ok_raccord_two_letters_after_two_letter_first_word",
        G_TU,
        "EEARSTL",
        B("ETE", None, 3, "v", ["T", "U"]),
        "ok",
        3,
        "correct",
        "8G",
    ),
    Case(
        "raccord_several_places_score_decides",
        G2B,
        "TESAIRU",
        B("TES", None, 5, "v", "SAS"),
        "ok",
        5,
        "correct",
        "6F",
    ),
    Case(
        "raccord_several_places_lowest_score",
        G2B,
        "TESAIRU",
        B("TES", None, 4, "v", "SAS"),
        "avertissement",
        3,
        "raccord compatible avec plusieurs emplacements : score le plus bas retenu",
        "8F",
    ),
    Case(
        "ok_raccord_prolongation_written_in_part",
        G1,
        T2,
        B("NS", None, 8, "h", ["O", "S", "I"]),
        "ok",
        8,
        "correct",
        "H4",
    ),
    Case(
        "penalite_raccord_wrong_score_matches",
        G1,
        T2,
        B("RETAPER", None, 36, "v", ["X", "Y", "Z"]),
        "penalite",
        36,
        "raccord erroné",
        "5E",
    ),
    # --- both modes used (4.4)
    Case(
        "both_modes_raccord_wrong_reference_right",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", "XYZ"),
        "avertissement",
        36,
        "raccord erroné, référence correcte",
        "5E",
    ),
    Case(
        "both_modes_reference_wrong_raccord_right",
        G1,
        T2,
        B("RETAPER", "6E", 36, "v", "MAI"),
        "avertissement",
        36,
        "référence erronée (6E : case H6 occupée par I), raccord correct",
        "5E",
    ),
    Case(
        "both_modes_both_wrong_less_severe",
        G1,
        T2,
        B("RETAPER", "6E", 36, "v", "XYZ"),
        "penalite",
        36,
        "référence erronée (6E : case H6 occupée par I) et raccord erroné",
        "5E",
    ),
    Case(
        "both_modes_forms_word_not_admitted",
        G1,
        T2,
        B("TE", "I8", 5, "h", "ONS"),
        "zero",
        0,
        "mot non valable : OT",
    ),
    # --- 5.4: zero
    Case(
        "zero_word_not_in_lexicon",
        G1,
        T2,
        B("RETAPRE", "5E", 36, "v"),
        "zero",
        0,
        "mot non valable : RETAPRE",
    ),
    Case(
        "zero_cross_word_not_in_lexicon",
        G1,
        T2,
        B("TE", "I8", 5, "h"),
        "zero",
        0,
        "mot non valable : OT",
    ),
    Case(
        "zero_not_formable_from_tirage_and_grid",
        G1,
        T2,
        B("REPARER", "5E", 36, "v"),
        "zero",
        0,
        "mot non formable avec le tirage et la grille",
    ),
    Case(
        "zero_blank_bulletin", G1, T2, B(blanc=True), "zero", 0, "bulletin blanc : aucune solution"
    ),
    Case(
        "zero_several_bulletins",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", plusieurs=True),
        "zero",
        0,
        "remise de plusieurs bulletins non vierges",
    ),
    Case(
        "zero_late_bulletin",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", retard=True),
        "zero",
        0,
        "bulletin remis après la fin du coup",
    ),
    Case(
        "zero_illegible",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", illisible=True),
        "zero",
        0,
        "bulletin illisible",
    ),
    Case(
        "zero_grave_disciplinary",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", disciplinaire="grave"),
        "zero",
        0,
        "motif disciplinaire grave",
    ),
    Case("zero_empty_word", G1, T2, B("", "5E", 36, "v"), "zero", 0, "mot absent ou illisible"),
    # --- 5.2 other warnings
    Case(
        "avertissement_disciplinary",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", disciplinaire=True),
        "avertissement",
        36,
        "motif disciplinaire",
        "5E",
    ),
    Case(
        "avertissement_hard_to_read",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", ratures=True),
        "avertissement",
        36,
        "présentation du bulletin rendant sa lecture difficile (ratures)",
        "5E",
    ),
    # --- 5.5: several faults, the most severe applies
    Case(
        "several_faults_warnings_do_not_add",
        G1,
        "EEPRT?S",
        B("RETAPER", "5E", 30, "v", ratures=True),
        "avertissement",
        32,
        "joker non entouré",
        "5E",
    ),
    Case(
        "several_faults_warning_absorbed_by_penalty",
        G1,
        "EEPRT?S",
        B("RETAPER", None, 32, "v"),
        "penalite",
        32,
        "référence absente",
        "5E",
    ),
    Case(
        "several_faults_warning_absorbed_by_zero",
        G1,
        T2,
        B("RETAPRE", "5E", 30, "v", disciplinaire=True),
        "zero",
        0,
        "mot non valable : RETAPRE",
    ),
    # --- 5.6: several solutions, crossed-out solutions and letters
    Case(
        "several_solutions_score_names_one",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", solutions=[{"word": "ES", "ref": "I9"}]),
        "ok",
        36,
        "plusieurs solutions sur le bulletin : RETAPER retenu (5.6)",
        "5E",
    ),
    Case(
        "several_solutions_score_names_none_lowest",
        G1,
        T2,
        B("RETAPER", "5E", None, "v", solutions=[{"word": "ES", "ref": "I9"}]),
        "avertissement",
        6,
        "plusieurs solutions sur le bulletin : ES retenu (5.6)",
        "I9",
    ),
    Case(
        "several_solutions_lowest_excluding_zero",
        G1,
        T2,
        B("RETAPRE", "5E", 20, "v", solutions=[{"word": "ES", "ref": "I9"}]),
        "avertissement",
        6,
        "plusieurs solutions sur le bulletin : ES retenu (5.6)",
        "I9",
    ),
    Case(
        "crossed_out_solution_does_not_exist",
        G1,
        T2,
        B("RETAPER", "5E", 6, "v", solutions=[{"word": "ES", "ref": "I9", "barre": True}]),
        "avertissement",
        36,
        "score erroné (6 au lieu de 36)",
        "5E",
        settings={"warn_crossed_out": False},
    ),
    Case(
        "crossed_out_letter_does_not_exist",
        G1,
        T2,
        B("RETAP~XER", "5E", 36, "v"),
        "avertissement",
        36,
        "présentation du bulletin rendant sa lecture difficile (ratures)",
        "5E",
    ),
    Case(
        "crossed_out_letter_no_warning_setting",
        G1,
        T2,
        B("RETAP~XER", "5E", 36, "v"),
        "ok",
        36,
        "correct",
        "5E",
        settings={"warn_crossed_out": False},
    ),
    # --- 5.7: the same invalid word replayed before being told
    Case(
        "replayed_invalid_word_marked_for_average",
        G1,
        T2,
        B("RETAPRE", "5E", 36, "v"),
        "zero",
        0,
        "même mot non valable rejoué avant notification : moyenne des autres joueurs (5.7)",
        told=("RETAPRE",),
    ),
    Case(
        "replayed_invalid_word_formed_again_as_cross_word",
        G1,
        T2,
        B("TE", "I8", 5, "h"),
        "zero",
        0,
        "même mot non valable rejoué avant notification : moyenne des autres joueurs (5.7)",
        told=("OT",),
    ),
    # --- configurable choices
    Case(
        "setting_invalid_word_at_written_ref_relocated_by_score",
        G1,
        T2,
        B("ES", "I8", 6, "h"),
        "penalite",
        6,
        "référence erronée (I8 : mot non valable : OE)",
        settings={"zero_when_written_ref_forms_invalid_word": False},
    ),
    Case(
        "default_invalid_word_at_written_ref_is_zero",
        G1,
        T2,
        B("ES", "I8", 6, "h"),
        "zero",
        0,
        "mot non valable : OE",
    ),
    Case(
        "setting_late_bulletin_corrected",
        G1,
        T2,
        B("RETAPER", "5E", 36, "v", retard=True),
        "ok",
        36,
        "correct",
        "5E",
        settings={"late_is_zero": False},
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_correction_case(case: Case):
    board = grid(*case.grid)
    bulletin = Bulletin.from_dict(case.bulletin)
    settings = CorrectionSettings(**case.settings)
    decision = correct(
        board, case.tirage, LEX, bulletin, settings=settings, invalid_words_not_told=case.told
    )
    assert decision.outcome.value == case.outcome, decision.reasons
    assert decision.score == case.score, decision.reasons
    assert case.reason in decision.reasons, decision.reasons
    if case.ref is not None:
        assert decision.ref == case.ref
    if decision.outcome is Outcome.ZERO:
        assert decision.placement is None
    assert decision.penalty == (5 if case.outcome == "penalite" else 0)


def test_table_has_at_least_40_cases_with_unique_names():
    assert len(CASES) >= 40
    assert len({c.name for c in CASES}) == len(CASES)


def test_replayed_invalid_word_keeps_the_cap_of_its_solution():
    decision = correct(
        grid(*G1),
        T2,
        LEX,
        Bulletin.from_dict(B("RETAPRE", "5E", 36, "v")),
        invalid_words_not_told=["retapre"],
    )
    assert decision.replayed_invalid and decision.invalid_word == "RETAPRE"
    assert decision.cap == 36


def test_decision_lists_the_candidates_considered():
    decision = correct(
        grid(*G2B), "TESAIRU", LEX, Bulletin.from_dict(B("TES", None, 4, "v", "SAS"))
    )
    considered = {(c.ref, c.score) for c in decision.candidates}
    assert {("6F", 5), ("8F", 3)} <= considered
    as_json = decision.to_dict()
    assert as_json["outcome"] == "avertissement" and as_json["ref"] == "8F"
    assert {"ref": "6F", "word": "TES", "score": 5, "note": "raccord"} in as_json["candidates"]


def test_top_shortcut_decision():
    board = grid(*G1)
    fit = fit_word(board, Ref.parse("5E"), "RETAPER")
    assert isinstance(fit, Fit)
    top = realise(board, fit, frozenset())
    decision = top_decision(top)
    assert decision.outcome is Outcome.OK and decision.score == 36 and decision.ref == "5E"


def test_works_with_the_engine_lexicon():
    lexicon = Lexicon.from_words(LEX)
    decision = correct(grid(*G1), T2, lexicon, Bulletin.from_dict(B("TE", "I8", 5, "h")))
    assert decision.reasons == ("mot non valable : OT",)


def test_every_legal_move_written_right_is_ok_with_its_score():
    """Cross-check with the move generator: each legal move, written as the rules ask, is OK."""
    lexicon = Lexicon.from_words(LEX)
    for layout, tirage in ((G1, T2), (G1, "PRTE?SA"), (G2B, "TESAIRU"), (G_TUE, "EEARSTL")):
        board = grid(*layout)
        moves = generate_moves(board, tirage, lexicon)
        assert moves
        for move in moves:
            written = "".join(
                ch.lower() if (r, c, ch.lower()) in move.placed else ch.upper()
                for (r, c), ch in zip(move.ref.squares(len(move.word)), move.word, strict=True)
            )
            bulletin = Bulletin(table=1, word=written, ref=str(move.ref), score=move.score)
            decision = correct(board, tirage, LEX, bulletin)
            assert (decision.outcome, decision.score, decision.ref) == (
                Outcome.OK,
                move.score,
                str(move.ref),
            ), (move, decision.reasons)


# --- the command line: python -m engine corriger

DATA = __import__("pathlib").Path(__file__).parent / "data" / "arbitrage"


def run_cli(capsys, monkeypatch, tmp_path, *args):
    from engine.correction_cli import main

    monkeypatch.setenv("DUPLICATE_CACHE_DIR", str(tmp_path / "cache"))
    code = main([*args, "--lexicon", str(DATA / "lexique.txt")])
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_position_prints_the_decision(capsys, monkeypatch, tmp_path):
    import json

    code, out, _ = run_cli(
        capsys,
        monkeypatch,
        tmp_path,
        "--position",
        str(DATA / "maison.pos"),
        "--coup",
        "2",
        "--bulletin",
        str(DATA / "bulletin_retaper.json"),
    )
    assert code == 0
    decision = json.loads(out)
    assert decision["outcome"] == "avertissement" and decision["score"] == 36
    assert decision["ref"] == "5E" and decision["table"] == 12
    assert decision["reasons"] == ["score erroné (40 au lieu de 36)"]
    assert decision["candidates"][0] == {
        "ref": "5E",
        "word": "RETAPER",
        "score": 36,
        "note": "référence écrite",
    }


def test_cli_setting_changes_a_configurable_choice(capsys, monkeypatch, tmp_path):
    import json

    pos = tmp_path / "sas.pos"
    pos.write_text(grid(*G2B).to_text() + "\ntirage: TESAIRU\n", encoding="utf-8")
    bulletin = tmp_path / "b.json"
    bulletin.write_text(json.dumps(B("TES", "8F", 5, "v")), encoding="utf-8")
    base = ["--position", str(pos), "--coup", "3", "--bulletin", str(bulletin)]
    code, out, _ = run_cli(capsys, monkeypatch, tmp_path, *base)
    assert code == 0 and json.loads(out)["outcome"] == "penalite"
    code, out, _ = run_cli(
        capsys,
        monkeypatch,
        tmp_path,
        *base,
        "--reglage",
        "claimed_score_wins_on_legal_wrong_ref=non",
    )
    assert code == 0 and json.loads(out)["outcome"] == "avertissement"
    code, _, err = run_cli(capsys, monkeypatch, tmp_path, *base, "--reglage", "inconnu=oui")
    assert code == 2 and "réglage non valable" in err


def test_cli_game_file_and_hostile_inputs(capsys, monkeypatch, tmp_path):
    import json

    from engine.game import Game

    lexicon = Lexicon.from_words(LEX)
    game = Game(seed=1)
    game.draw_manual("AIMNOSE")
    first = [m for m in generate_moves(game.board, "AIMNOSE", lexicon) if m.word == "MAISON"]
    game.play(next(m for m in first if str(m.ref) == "H4"))
    game.draw_manual("EPRRTS")
    path = tmp_path / "partie.json"
    game.save(path)
    bulletin = DATA / "bulletin_retaper.json"
    code, out, _ = run_cli(
        capsys,
        monkeypatch,
        tmp_path,
        "--game",
        str(path),
        "--coup",
        "2",
        "--bulletin",
        str(bulletin),
    )
    assert code == 0
    decision = json.loads(out)
    assert decision["tirage"] == "EEPRRTS" and decision["score"] == 36
    # a coup not played yet
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        tmp_path,
        "--game",
        str(path),
        "--coup",
        "3",
        "--bulletin",
        str(bulletin),
    )
    assert code == 2 and out == "" and "coup 3 pas encore joué" in err
    # a bulletin that is not JSON, and one for another coup
    bad = tmp_path / "bad.json"
    bad.write_text("{table: 12", encoding="utf-8")
    code, _, err = run_cli(
        capsys, monkeypatch, tmp_path, "--game", str(path), "--coup", "2", "--bulletin", str(bad)
    )
    assert code == 2 and "bulletin illisible" in err
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"table": 3, "coup": 5, "word": "ES"}), encoding="utf-8")
    code, _, err = run_cli(
        capsys, monkeypatch, tmp_path, "--game", str(path), "--coup", "2", "--bulletin", str(other)
    )
    assert code == 2 and "le bulletin porte le coup 5" in err
    assert Game.load(path).to_dict() == game.to_dict()  # the game file is untouched


def test_self_played_game_with_the_shipped_lexicon():
    """On a real game, each of the best moves is OK written right, a pénalité without reference."""
    from engine.selfplay import self_play

    lexicon = Lexicon.load()
    game = self_play(3, lexicon)
    checked = 0
    for coup in game.played()[1:]:  # the first coup credits the best place of a word: see above
        board = game.board_before(coup.number)
        for move in generate_moves(board, coup.tirage, lexicon)[:3]:
            written = "".join(
                ch.lower() if (r, c, ch.lower()) in move.placed else ch.upper()
                for (r, c), ch in zip(move.ref.squares(len(move.word)), move.word, strict=True)
            )
            right = Bulletin(table=1, word=written, ref=str(move.ref), score=move.score)
            decision = correct(board, coup.tirage, lexicon, right)
            assert (decision.outcome, decision.score) == (Outcome.OK, move.score), decision.reasons
            sens = "h" if move.ref.horizontal else "v"
            no_ref = Bulletin(table=1, word=written, score=move.score, sens=sens)
            decision = correct(board, coup.tirage, lexicon, no_ref)
            assert (decision.outcome, decision.score) == (Outcome.PENALITE, move.score), (
                decision.reasons
            )
            checked += 1
    assert checked >= 40
