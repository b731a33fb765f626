"""Independent review of the arbitrage: cases checked by hand against RULES.md and 003 (4.3-5).

Each case is named after the rule it checks; the expected outcome, credited
score and reason are computed by hand in the comment above it (premium squares
from RULES.md "Material", letter values E=1 T=1 U=1 A=1 I=1 M=2 N=1 O=1 S=1
R=1 P=3). Grids are written as (reference, word) pairs.
"""

import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from engine.board import Board, Ref
from engine.bulletin import Bulletin
from engine.correction import CorrectionSettings, correct, raccord_matches
from engine.placement import Fit, fit_word

ROOT = Path(__file__).resolve().parent.parent

LEX = set(
    "MAISON MAISONS RETAPER ES EN NE TE TES ET ETE TU TUE TUES OS SE ART TI PRETE PRETES".split()
)


def grid(*words: tuple[str, str]) -> Board:
    board = Board()
    for ref, word in words:
        r = Ref.parse(ref)
        for (row, col), ch in zip(r.squares(len(word)), word, strict=True):
            board[(row, col)] = ch
    return board


# MAISON at H4..H9 (H4 M, H5 A, H6 I, H7 S, H8 O, H9 N).
# RETAPER at 5E (column 5, rows E..K): E5 is MD, K5 is MD, no letter premium
# on F5 G5 I5 J5: R1 E1 T1 [A]1 P3 E1 R1 = 9, x2 x2 = 36; six tiles, no scrabble.
G_MAISON = (("H4", "MAISON"),)
T_RETAPER = "EEPRRTS"
# TU at H8..H9. ETE at 8G (G8 E, H8 T, I8 E): G8 and I8 carry no premium: 1+1+1 = 3.
# ETE at G8 (horizontal): G8 E 1 + G9 T on LD 2 + G10 E 1 = 4; cross ET (G8 E 1 +
# H8 T 1) = 2; cross TU (G9 T on LD 2 + H9 U 1) = 3; total 9.
G_TU = (("H8", "TU"),)
# TUE at H8..H10: ETE at 8G still 3; at G8 the third cross word is EE (G10 E over
# H10 E), not a word.
G_TUE = (("H8", "TUE"),)
T_ETE = "EETRSAI"


@dataclass
class Case:
    name: str
    grid: tuple
    tirage: str
    bulletin: dict
    outcome: str
    score: int
    reason: str | None
    ref: str | None = None
    settings: dict = field(default_factory=dict)


def B(word=None, ref=None, score=None, sens=None, raccord=None, **more):
    data = {"table": 7, "word": word, "ref": ref, "score": score, "sens": sens, "raccord": raccord}
    data.update(more)
    return data


CASES = [
    # 4.3.1: a raccord letter may touch only another raccord letter, whatever the
    # order the letters are written in. O (H8) touches S (H7), S touches I (H6), I
    # touches A (H5), in RETAPER at 5E: O S I is a valid raccord of three letters.
    # Expected: ok, 36, correct (before the review: "raccord erroné", pénalité).
    Case(
        "raccord_chain_written_in_any_order",
        G_MAISON,
        T_RETAPER,
        B("RETAPER", None, 36, "v", ["O", "S", "I"]),
        "ok",
        36,
        "correct",
        "5E",
    ),
    # 4.3.1: S touches neither the word nor another raccord letter (O is missing):
    # the raccord I S M... here M A S: M touches A, A in the word, S (H7) touches
    # only I and O, not written: raccord wrong; the score 36 names 5E, the only
    # vertical place: pénalité (5.3.1), 36 credited, 5 deducted at the end.
    Case(
        "raccord_letter_touching_nothing_is_wrong_penalite",
        G_MAISON,
        T_RETAPER,
        B("RETAPER", None, 36, "v", ["M", "A", "S"]),
        "penalite",
        36,
        "raccord erroné",
        "5E",
    ),
    # 5.2: the word written the other way on the paper while the raccord M A I
    # locates it (vertical RETAPER through A): warning, real score 36.
    Case(
        "avertissement_raccord_right_word_written_other_way",
        G_MAISON,
        T_RETAPER,
        B("RETAPER", None, 36, "h", ["M", "A", "I"]),
        "avertissement",
        36,
        "mot écrit dans l'autre sens sur le bulletin, raccord correct",
        "5E",
    ),
    # Lower case means circled; a word written all in lower case (7 letters, no
    # joker in the tirage) cannot be all circled: read as written in capitals.
    # Reference "5e" is 5E. Expected ok, 36.
    Case(
        "all_lower_case_word_is_not_all_circled",
        G_MAISON,
        T_RETAPER,
        B("retaper", "5e", 36),
        "ok",
        36,
        "correct",
        "5E",
    ),
    # Same for a two-letter word: no joker in the tirage nor on the grid, "es"
    # cannot be two circled letters. ES at I9: E on LD 2 + S 1 = 3, cross NE
    # (N 1 + E on LD 2) = 3: 6. Expected ok, 6.
    Case(
        "two_letter_lower_case_word_without_any_joker_is_not_circled",
        G_MAISON,
        T_RETAPER,
        B("es", "i9", 6),
        "ok",
        6,
        "correct",
        "I9",
    ),
    # Messy but readable: reference "5 - e", score "36 pts", accents dropped.
    Case(
        "messy_reference_and_score_are_read",
        G_MAISON,
        T_RETAPER,
        B("RÉTAPER", "5 - e", " 36 pts"),
        "ok",
        36,
        "correct",
        "5E",
    ),
    # 4.4, both modes used and they disagree. TES at 7F: F7 T 1 + G7 E on LD 2 +
    # H7 S (grid) 1 = 4, no cross word. TES at 10F: F10 T on LT 3 + G10 E 1 + H10 S 1
    # = 5, cross MAISONS 2+1+1+1+1+1+1 = 8: 13. The raccord I A M (I touches H7,
    # A and M chain from I) fits 7F only (at 10F only N touches the word).
    # Reference 10F (legal) and score 4: the score says the reference is the wrong
    # mode: warning, 4 at 7F. (Before the review: pénalité, as 5.3.2.)
    Case(
        "both_modes_legal_wrong_reference_raccord_right_score_names_raccord",
        G_MAISON,
        T_RETAPER,
        B("TES", "10F", 4, None, ["I", "A", "M"]),
        "avertissement",
        4,
        "référence erronée (10F), raccord correct",
        "7F",
    ),
    # Same, score 13: the reference is right, the raccord wrong: warning, 13.
    Case(
        "both_modes_legal_reference_right_raccord_elsewhere_score_names_reference",
        G_MAISON,
        T_RETAPER,
        B("TES", "10F", 13, None, ["I", "A", "M"]),
        "avertissement",
        13,
        "raccord erroné, référence correcte",
        "10F",
    ),
    # Same, no score: the place is not settled: the lowest, 4 at 7F, warning (4.3.3).
    Case(
        "both_modes_disagree_no_score_lowest",
        G_MAISON,
        T_RETAPER,
        B("TES", "10F", None, None, ["I", "A", "M"]),
        "avertissement",
        4,
        "référence 10F et raccord contradictoires, score non concordant : score le plus bas retenu",
        "7F",
    ),
    # 5.2: row and column swapped. At G8 (horizontal) ETE forms the cross word EE
    # (not a word); at 8G it is legal for 3, the score claimed: warning, 3.
    # (Before the review: zero for EE, the inverted reference never looked at.)
    Case(
        "avertissement_reference_inverted_written_ref_forms_invalid_word",
        G_TUE,
        T_ETE,
        B("ETE", "G8", 3),
        "avertissement",
        3,
        "référence inversée (G8 au lieu de 8G)",
        "8G",
    ),
    # Same bulletin, score 5 naming no placement: the written reference forms EE:
    # zero (5.4, mot non valable), the 4.4/5.4 choice of CorrectionSettings.
    Case(
        "zero_written_ref_forms_invalid_word_score_names_nothing",
        G_TUE,
        T_ETE,
        B("ETE", "G8", 5),
        "zero",
        0,
        "mot non valable : EE",
    ),
    # 5.2: the word is legal both ways at G8 (9 across, 3 down at 8G); the claimed
    # score 3 names the vertical placement: reference inverted, warning, 3.
    # (Before the review: score erroné and 9 credited, more than claimed.)
    Case(
        "avertissement_reference_inverted_both_ways_legal_score_names_other",
        G_TU,
        T_ETE,
        B("ETE", "G8", 3),
        "avertissement",
        3,
        "référence inversée (G8 au lieu de 8G)",
        "8G",
    ),
    # Same grid, the score names the written reference: ok, 9.
    Case(
        "ok_both_ways_legal_score_names_written_ref",
        G_TU,
        T_ETE,
        B("ETE", "G8", 9),
        "ok",
        9,
        "correct",
        "G8",
    ),
    # 5.3.1: reference wrong (A1: across, far from the grid letters) and no sens
    # written: the direction of a wrong reference is only a hint; the score 36
    # names RETAPER down at 5E (no across placement: the only A is in MAISON's
    # row): pénalité, 36 credited. (Before the review: zero, only across searched.)
    Case(
        "penalite_wrong_reference_other_direction_no_sens_written",
        G_MAISON,
        T_RETAPER,
        B("RETAPER", "A1", 36),
        "penalite",
        36,
        "référence erronée (A1 : mot non relié aux lettres de la grille)",
        "5E",
    ),
    # Same, but the word written across on the paper (sens h): 5.3.1 asks for a
    # placement in the direction written: none: zero (5.4).
    Case(
        "zero_wrong_reference_score_names_only_the_other_direction_than_written",
        G_MAISON,
        T_RETAPER,
        B("RETAPER", "A1", 36, "h"),
        "zero",
        0,
        "référence erronée (A1 : mot non relié aux lettres de la grille) et score (36) "
        "ne correspondant à aucun emplacement du mot",
    ),
    # Same bulletin with the word written across on the paper (sens h): paper and
    # reference agree, only the score points down: the written reference is
    # right, the score miscounted: warning, real score 9 at G8.
    Case(
        "avertissement_paper_and_reference_agree_score_names_other_way",
        G_TU,
        T_ETE,
        B("ETE", "G8", 3, "h"),
        "avertissement",
        9,
        "score erroné (3 au lieu de 9)",
        "G8",
    ),
    # Word written across on the paper and at an across reference where it forms
    # EE: zero even though the score names the vertical placement (5.4).
    Case(
        "zero_paper_and_reference_agree_written_ref_forms_invalid_word",
        G_TUE,
        T_ETE,
        B("ETE", "G8", 3, "h"),
        "zero",
        0,
        "mot non valable : EE",
    ),
    # TU grid again, ETE at G8, score 4 names neither way: the written reference is right and
    # legal: score miscounted, warning, real score 9 (5.2).
    Case(
        "avertissement_both_ways_legal_score_names_neither",
        G_TU,
        T_ETE,
        B("ETE", "G8", 4),
        "avertissement",
        9,
        "score erroné (4 au lieu de 9)",
        "G8",
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_review_case(case: Case) -> None:
    bulletin = Bulletin.from_dict(case.bulletin)
    settings = CorrectionSettings(**case.settings)
    decision = correct(grid(*case.grid), case.tirage, LEX, bulletin, settings=settings)
    assert decision.outcome.value == case.outcome, decision.reasons
    assert decision.score == case.score, decision.reasons
    if case.reason is not None:
        assert case.reason in decision.reasons, decision.reasons
    if case.ref is not None:
        assert decision.ref == case.ref


def test_review_case_names_are_unique() -> None:
    assert len({c.name for c in CASES}) == len(CASES)


def test_raccord_matches_whatever_the_order_of_the_letters() -> None:
    board = grid(*G_MAISON)
    fit = fit_word(board, Ref.parse("5E"), "RETAPER")
    assert isinstance(fit, Fit)
    for order in (["O", "S", "I"], ["I", "S", "O"], ["S", "O", "I"], ["A", "M", "I"]):
        assert raccord_matches(board, fit, order), order
    for wrong in (["M", "A", "S"], ["O", "S", "N"], ["A", "A", "I"], ["O", "S", "I", "I"]):
        assert not raccord_matches(board, fit, wrong), wrong


# --------------------------------------------------------------- hostile bulletins


@pytest.mark.parametrize(
    "data",
    [
        {"word": "RETAPER", "ref": "5E", "score": 36, "solutions": 5},
        {"word": "RETAPER", "ref": "5E", "score": 36, "solutions": "abc"},
        {"word": "RETAPER", "ref": "5E", "score": 36, "solutions": {"word": "ES"}},
        {"word": "RETAPER", "ref": "5E", "score": "9" * 100_000},
        {"word": "RETAPER", "ref": "5E", "score": 10**40},
        {"word": "RETAPER", "ref": "5E" * 50_000, "score": 36},
        {"word": "RETAPER", "ref": "5E", "score": 36, "raccord": "A" * 100_000},
        {"word": "RETAPER", "ref": "5E", "score": 36, "raccord": [["A"], {"b": 1}, 3]},
        {"word": "RETAPER", "ref": "5E", "score": 36, "disciplinaire": [1]},
        {"word": ["RETAPER"], "ref": {"a": 1}, "score": [36], "sens": 3, "table": "douze"},
    ],
)
def test_hostile_bulletin_fields_never_raise(data: dict) -> None:
    bulletin = Bulletin.from_dict(data)
    decision = correct(grid(*G_MAISON), T_RETAPER, LEX, bulletin)
    assert decision.outcome.value in ("ok", "avertissement", "penalite", "zero")
    assert all(len(reason) < 400 for reason in decision.reasons)
    json.dumps(decision.to_dict())


def test_hostile_huge_score_string_is_an_unreadable_score_warning() -> None:
    # 5.2: the score cannot be read, the reference is right: warning, real score 36.
    bulletin = Bulletin.from_dict({"word": "RETAPER", "ref": "5E", "score": "9" * 100_000})
    decision = correct(grid(*G_MAISON), T_RETAPER, LEX, bulletin)
    assert (decision.outcome.value, decision.score) == ("avertissement", 36)
    assert "score illisible" in decision.reasons


def _cli(tmp_path: Path, bulletin_text: str, *extra: str) -> subprocess.CompletedProcess:
    position = tmp_path / "p.pos"
    position.write_text(grid(*G_MAISON).to_text() + "\ntirage: " + T_RETAPER + "\n")
    path = tmp_path / "b.json"
    path.write_text(bulletin_text, encoding="utf-8")
    args = ["--position", str(position), "--coup", "2", "--bulletin", str(path), *extra]
    return subprocess.run(
        [sys.executable, "-m", "engine", "corriger", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("pas du json", "n'est pas du JSON"),
        ("1" * 5000, "nombre trop long"),
        ("[" * 100_000, "imbrication trop profonde"),
    ],
)
def test_cli_unreadable_bulletin_file_is_a_french_error(tmp_path, text, message) -> None:
    result = _cli(tmp_path, text)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("erreur : bulletin illisible") and message in result.stderr


def test_cli_option_errors_are_french(tmp_path) -> None:
    result = _cli(tmp_path, "{}", "--coup", "deux")
    assert result.returncode == 2
    assert "erreur : argument --coup : nombre entier attendu" in result.stderr
    assert "invalid" not in result.stderr


def test_cli_missing_position_file_is_french(tmp_path) -> None:
    path = tmp_path / "b.json"
    path.write_text("{}")
    result = subprocess.run(
        [sys.executable, "-m", "engine", "corriger", "--position", str(tmp_path / "nope.pos")]
        + ["--coup", "2", "--bulletin", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert result.returncode == 2
    assert "fichier de position introuvable" in result.stderr
    assert "No such file" not in result.stderr


@pytest.mark.parametrize("text", ["[1, 2]", '"RETAPER"', "42", "null"])
def test_cli_json_that_is_not_a_bulletin_is_an_unreadable_bulletin(tmp_path, text) -> None:
    # 5.4: illisible: zero, exit code 0 (it is a decision, not a failure).
    result = _cli(tmp_path, text)
    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)
    assert (decision["outcome"], decision["score"]) == ("zero", 0)


def test_cli_penalite_json_score_is_the_real_score_and_the_penalty_is_separate(tmp_path) -> None:
    # 5.3.1: reference missing, word in full, score 36 names 5E: pénalité.
    # score = 36 (real score of the placement, as RULES.md credits it),
    # penalty = 5, score_net = 31 (what the coup adds to the total).
    result = _cli(tmp_path, json.dumps({"table": 3, "word": "RETAPER", "score": 36, "sens": "v"}))
    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)
    assert decision["outcome"] == "penalite"
    assert (decision["score"], decision["penalty"], decision["score_net"]) == (36, 5, 31)
    assert decision["ref"] == "5E"


# ------------------------------------------------- real positions (self-played game, seed 1)

# Before coup 15 of `python -m engine play --seed 1`; L6 holds a joker (i).
BOARD_15 = """\
...............
...........D.S.
........FADENT.
...EMOTTAI.L.EX
...........A.AE
........B..T.K.
........A..I..E
.......pROJO.OP
........Y.UN.RE
........U.R..DE
........M.EH.I.
..OBViAIS.NEWS.
..........T.A..
............L..
.........NUCLEE"""

# Before coup 17 of the same game.
BOARD_17 = """\
...............
...........D.S.
........FADENT.
...EMOTTAI.L.EX
...........A.AE
........B..T.K.
........A..I..E
.......pROJO.OP
..V.....Y.UN.RE
..I.....U.R..DE
..R.....M.EH.I.
..OBViAIS.NEWS.
..L.......T.A..
.GEISHA.....L..
.........NUCLEE"""


def test_raccord_two_places_same_score_the_one_the_circles_fit_is_retained() -> None:
    # 4.3.3 / 5.6. Tirage VRGLIIE. LIGIE fits down at 6K (K6 L 1, L6 grid joker 0,
    # M6 G 2, N6 I on LT 3, O6 E 1 = 7) and at 6I (I6 L 1, J6 I on LT 3, K6 G 2,
    # L6 grid joker 0, M6 E 1 = 7), no cross word either way. The raccord I A V
    # (L6 in the word, A L7 and V L5 touching it) fits both; the score 7 names both.
    # The player circled the second letter: at 6K it is the grid joker (no fault),
    # at 6I a plain I of the tirage (wrong circle). Expected: ok, 7, 6K.
    # (Before the review: 6I, avertissement "mauvaise lettre entourée comme joker".)
    bulletin = Bulletin.from_dict({"word": "LiGIE", "raccord": "IAV", "score": 7})
    decision = correct(Board.from_text(BOARD_15), "VRGLIIE", {"LIGIE"}, bulletin)
    assert (decision.outcome.value, decision.score, decision.ref) == ("ok", 7, "6K")


def test_reference_inverted_wins_over_a_guessed_last_letter() -> None:
    # 5.2 before 5.3.1. Tirage GPUQRNI. NIA down at 7J: J7 N 1, K7 I 1, L7 A (grid) 1
    # = 3, no cross word. Written J7 (across): J7 N, J8 I, then J9 holds U, not A.
    # Read as "last letter changed" it would be NIU (3 points, not a word) and a
    # zero; but the word as written, at the swapped reference, is legal for the
    # claimed 3: reference inverted, warning, 3 at 7J.
    bulletin = Bulletin.from_dict({"word": "NIA", "ref": "J7", "score": 3, "sens": "v"})
    decision = correct(Board.from_text(BOARD_17), "GPUQRNI", {"NIA"}, bulletin)
    assert (decision.outcome.value, decision.score, decision.ref) == ("avertissement", 3, "7J")
    assert "référence inversée (J7 au lieu de 7J)" in decision.reasons


# ------------------------------------------------------------------ a game's results


def _decision(score: int, outcome: str = "ok"):
    from engine.correction import Decision, Outcome

    return Decision(Outcome(outcome), score, None, (outcome,))


@pytest.mark.parametrize(("players", "solo_total"), [(15, 0), (16, 20)])
def test_results_warnings_penalty_solos_ties_by_hand(players: int, solo_total: int) -> None:
    from engine.results import GameResults, Player

    # Tops 30, 40, 50, 10: total 130.
    # Table 1: 30 ok, 40 avertissement (alone above 20), 50 pénalité (net 45, alone
    # above 20), 10 ok: 130 - 5 (pénalité) + 2 solos x 10 (>= 16 players, else 0).
    # Others: 30, 20, 20, 10 = 80, all tied second.
    # Table 2: four warnings on the same 80, the 4th warning costs 5: 75, last.
    results = GameResults()
    for table in range(1, players + 1):
        results.add_player(Player(table, f"Joueur {table}"))
    for score in (30, 40, 50, 10):
        results.add_top("MOT", "H8", score)
    others = (30, 20, 20, 10)
    for table in range(1, players + 1):
        for coup, score in enumerate(others, start=1):
            if table == 1:
                score, outcome = [(30, "ok"), (40, "avertissement"), (50, "penalite"), (10, "ok")][
                    coup - 1
                ]
            else:
                outcome = "avertissement" if table == 2 else "ok"
            results.record(table, coup, _decision(score, outcome))
    ranking = {s.player.table: s for s in results.ranking()}
    assert ranking[1].total == 125 + solo_total and ranking[1].rank == 1
    assert (ranking[1].penalties, ranking[1].warnings, ranking[1].warning_penalty) == (5, 1, 0)
    assert ranking[2].total == 75 and ranking[2].rank == players
    assert (ranking[2].warnings, ranking[2].warning_penalty) == (4, 5)
    assert {ranking[t].rank for t in range(3, players + 1)} == {2}
    assert ranking[3].total == 80 and ranking[3].difference == 80 - 130
    assert ranking[3].percent == round(100 * 80 / 130, 2)
    solos = [(s.coup, s.table) for s in results.solos()]
    assert solos == [(2, 1), (3, 1)]
    assert sum(s.bonus for s in results.solos()) == solo_total


def test_hostile_raccord_longer_than_fifteen_letters_is_not_a_raccord() -> None:
    # 16 raccord letters is not a raccord (three are needed): read as none, with a
    # reading note; the word is then located by its score like a missing
    # reference: RETAPER 36 at 5E, pénalité (5.3.1).
    bulletin = Bulletin.from_dict({"word": "RETAPER", "raccord": "MAISON" * 3, "score": 36})
    assert bulletin.raccord is None and any("raccord trop long" in p for p in bulletin.problems)
    decision = correct(grid(*G_MAISON), T_RETAPER, LEX, bulletin)
    assert (decision.outcome.value, decision.score, decision.ref) == ("penalite", 36, "5E")


@pytest.mark.parametrize(
    ("written", "read"),
    [("h", "h"), ("H", "h"), ("horizontale", "h"), ("V", "v"), ("verticalement", "v")]
    + [("|", "v"), ("-", "h"), ("x", None), ("", None), (None, None), (5, None)],
)
def test_sens_as_written_on_paper(written, read) -> None:
    assert Bulletin.from_dict({"word": "ES", "sens": written}).sens == read
