"""Move generation and scoring: hand-computed cases and a brute-force comparison."""

import gzip
import random

import pytest
from bruteforce import brute_moves

from engine.board import Board, Ref
from engine.lexicon import DEFAULT_LIST, Lexicon
from engine.move import Move
from engine.movegen import generate_moves, python_moves, top_moves
from engine.tiles import COUNTS

WORDS = "MAISON MAISONS AISON AS SA ON NO OS SI IS MA MAIS AMI AMIS SAISON ZONE ZONES KA".split()


@pytest.fixture(scope="module")
def lex():
    return Lexicon.from_words(WORDS)


def put(board: Board, ref: str, word: str) -> Board:
    r = Ref.parse(ref)
    for (row, col), ch in zip(r.squares(len(word)), word, strict=True):
        board.cells[row][col] = ch
    return board


def find(moves, ref, word):
    hits = [m for m in moves if str(m.ref) == ref and m.word == word]
    assert len(hits) == 1, f"{word} {ref} absent ou en double: {hits}"
    return hits[0]


def test_first_coup_scrabble_with_letter_and_word_premiums(lex):
    moves = generate_moves(Board(), "MAISONS", lex)
    # M on H4 (letter ×2): 4; A I S O N S: 6; word ×2 (star): 20; +50
    assert find(moves, "H4", "MAISONS").score == 70
    assert moves[0].score == 70 and str(moves[0].ref) == "H4"
    assert all(m.ref.horizontal for m in moves), "le premier coup est horizontal"
    assert all(any((r, c) == (7, 7) for r, c, _ in m.placed) for m in moves)


def test_two_double_word_squares_multiply_by_four(lex):
    board = put(Board(), "E9", "O")
    moves = generate_moves(board, "MAISNS", lex)
    # E5 and E11 are both mot double: (2+1+1+1+1+1+1) × 4
    assert find(moves, "E5", "MAISONS").score == 32


def test_two_triple_word_squares_multiply_by_nine():
    lex = Lexicon.from_words(["ZONAIENT", "ZO"])
    board = put(Board(), "A3", "N")
    moves = generate_moves(board, "ZOAIENT", lex)
    # A1 and A8 are mot triple. Z(10) O N(1, on board) A I E N T on A1..A8,
    # new tiles on A1 (MT) and A8 (MT);
    # A4 is lettre double under A: 10+1+1+2+1+1+1+1 = 18, × 9 = 162, 7 tiles: +50
    assert find(moves, "A1", "ZONAIENT").score == 162 + 50


def test_cross_word_counts_the_premium_twice(lex):
    board = put(Board(), "H8", "MAISON")
    moves = generate_moves(board, "S", lex)
    # S on H14 (no premium): MAISONS = 2+1+1+1+1+1+1 = 8
    assert find(moves, "H8", "MAISONS").score == 8
    board = put(Board(), "G2", "ZONE")  # Z on G2, O G3 (lettre double) …
    moves = generate_moves(board, "AS", lex)
    # S at G6 extends ZONE→ZONES (S on G6: no premium) = 10+1+1+1+1 = 14
    assert find(moves, "G2", "ZONES").score == 14


def test_joker_on_word_premium_scores_zero_but_multiplies(lex):
    moves = generate_moves(Board(), "MAISON?", lex)
    # joker as the final S on H10: M(4 on H4 ×2) A I S O N = 9, s = 0, ×2 (H8), +50
    assert find(moves, "H4", "MAISONs").score == (4 + 5) * 2 + 50
    # joker M on H4 (lettre double) scores 0: (0 + 6) × 2 + 50
    moves = generate_moves(Board(), "AISONS?", lex)
    assert find(moves, "H4", "mAISONS").score == 6 * 2 + 50


def test_jokers_listed_even_where_a_real_tile_could_stand(lex):
    moves = generate_moves(Board(), "SA?", lex)
    words = {(str(m.ref), m.word) for m in moves}
    assert {("H7", "SA"), ("H7", "sA"), ("H7", "Sa"), ("H8", "SA"), ("H8", "sA")} <= words


def test_extension_at_both_ends(lex):
    board = put(Board(), "H5", "AISON")
    moves = generate_moves(board, "MS", lex)
    m = find(moves, "H4", "MAISONS")
    # M on H4 (lettre double): 4, AISON: 5, S on H10: 1 → 10
    assert m.score == 10 and len(m.placed) == 2


def test_one_tile_move_listed_once_per_direction(lex):
    board = put(Board(), "H8", "MA")
    moves = generate_moves(board, "S", lex)
    single = [m for m in moves if m.placed == ((6, 8, "S"),)]
    # S on G9 forms SA vertically only (nothing beside it horizontally)
    assert [str(m.ref) for m in single] == ["9G"]
    board = put(Board(), "H8", "M")
    board = put(board, "G9", "S")
    moves = generate_moves(board, "A", lex)
    both = sorted(str(m.ref) for m in moves if m.placed == ((7, 8, "A"),))
    assert both == ["9G", "H8"]  # MA horizontally, SA vertically


def test_cross_words_must_be_in_the_lexicon(lex):
    board = put(Board(), "H8", "ZONE")
    moves = generate_moves(board, "KA", lex)
    for m in moves:
        for word, _ in m.words:
            assert word.upper() in lex


def test_top_prefers_no_joker_then_end_of_game():
    a = Move(Ref(7, 7, True), "AS", ((7, 7, "A"), (7, 8, "S")), 10)
    b = Move(Ref(7, 6, True), "aS", ((7, 6, "a"), (7, 7, "S")), 10)
    c = Move(Ref(7, 5, True), "SAS", ((7, 5, "S"), (7, 6, "A"), (7, 7, "S")), 10)
    d = Move(Ref(7, 5, True), "SA", ((7, 5, "S"), (7, 6, "A")), 4)
    assert top_moves([b, a, d]) == [a, b]
    assert top_moves([b, a, c], tirage_size=3, bag_empty=True)[0] == c
    assert top_moves([]) == []


def _small_lexicon(seed: int) -> set[str]:
    words = gzip.decompress(DEFAULT_LIST.read_bytes()).decode().split()
    rng = random.Random(seed)
    short = [w for w in words if len(w) <= 7]
    return set(rng.sample(short, 1500)) | {w for w in words if len(w) <= 3}


@pytest.mark.parametrize("seed", range(1, 7))
def test_generator_matches_brute_force_on_random_positions(seed):
    words = _small_lexicon(seed)
    lex = Lexicon.from_words(words)
    rng = random.Random(seed)
    tiles = [letter for letter, count in COUNTS.items() if letter != "?" for _ in range(count)]
    board = Board()
    compared = 0
    for step in range(14):
        jokers = rng.choice([0, 0, 1, 2])
        rack = "".join(rng.sample(tiles, 7 - jokers)) + "?" * jokers
        moves = generate_moves(board, rack, lex)
        listed = [(str(m.ref), m.word, m.score) for m in moves]
        assert len(listed) == len(set(listed)), "un coup listé deux fois"
        assert set(listed) == brute_moves(board, rack, words), f"position {step}, tirage {rack}"
        assert list(moves) == python_moves(board, rack, lex), "compiled and Python generators differ"
        compared += len(listed)
        if moves:
            for r, c, tile in rng.choice(moves[:10]).placed:
                board.cells[r][c] = tile
    assert compared > 100  # the positions were not trivial
