"""The compiled move generator against the pure-Python one, and the compact move list.

The Python search (``python_rows``) is the reference: on every position the
compiled core must give the same moves in the same order (reference, word with
jokers, score, tiles and jokers placed), and the ``Move`` made from a compact
entry must equal the one the Python side makes (new tiles, words and their scores).
"""

import gzip
import random

import pytest

import engine.movelist as movelist
from engine import dawg as dawg_module
from engine import movegen
from engine.board import Board, Ref
from engine.dawg import Dawg
from engine.game import Game
from engine.lexicon import DEFAULT_LIST, Lexicon, normalise_list
from engine.move import Move
from engine.movegen import generate_moves, python_moves, python_rows, top_moves
from engine.movelist import REF_TEXT, MoveList, expand_python, grid_bytes

POSITIONS = 2000


@pytest.fixture(scope="module")
def shipped_words() -> list[str]:
    return gzip.decompress(DEFAULT_LIST.read_bytes()).decode().split()


@pytest.fixture(scope="module")
def full():
    return Lexicon.load()


def _same(board: Board, tirage: str, lexicon: Lexicon) -> int:
    """Assert that both generators agree on this position; the number of moves."""
    compiled = generate_moves(board, tirage, lexicon)
    rows = python_rows(board, tirage, lexicon)
    expected = [(REF_TEXT[code], word, score) for score, code, word, _ in rows]
    assert compiled.candidates() == expected, f"tirage {tirage}\n{board.to_text()}"
    assert [compiled.tiles_placed(k) | compiled.jokers_placed(k) << 4 for k in range(len(rows))] == [
        row[3] for row in rows]
    return len(rows)


def test_extension_is_built_and_used(full):
    """make test builds the core (bootstrap installs the compiler): the fast path is the one tested."""
    assert movegen.compiled() and dawg_module.core is not None
    assert full.dawg.graph is not None
    assert isinstance(generate_moves(Board(), "MAISONS", full), MoveList)
    assert movegen.fallback_notice() is None


def test_same_moves_on_two_thousand_self_played_positions(shipped_words):
    """Self-played games on a 10,000-word list: each coup's tirage, and at some coups the same
    grid with one or two jokers in the tirage, until 2,000 positions are compared."""
    rng = random.Random(16)
    lexicon = Lexicon.from_words(rng.sample(shipped_words, 10_000))
    jokers = {0: 0, 1: 0, 2: 0}
    positions = moves = 0
    seed = 0
    while positions < POSITIONS:
        seed += 1
        game = Game(seed=seed, lexicon_sha256=lexicon.sha256)
        while not game.finished and positions < POSITIONS:
            coup = game.draw()
            if game.finished:
                break
            tirages = [coup.tirage]
            letters = coup.tirage.replace("?", "")
            if positions % 5 == 0 and coup.tirage.count("?") < 1:
                tirages.append(letters[: len(coup.tirage) - 1] + "?")
            if positions % 10 == 0 and coup.tirage.count("?") < 2:
                tirages.append(letters[: len(coup.tirage) - 2] + "??")
            for tirage in tirages:
                moves += _same(game.board, tirage, lexicon)
                jokers[tirage.count("?")] += 1
                positions += 1
            listed = generate_moves(game.board, coup.tirage, lexicon)
            tops = top_moves(listed, len(coup.tirage), bag_empty=game.bag_count == 0)
            if not tops:
                game.end("aucun coup possible")
            else:
                game.play(tops[0])
    assert positions == POSITIONS
    assert jokers[1] >= 150 and jokers[2] >= 100, jokers
    assert moves > 50_000  # the positions were not trivial


def test_same_moves_with_the_full_list_and_jokers(full):
    """A few positions of a real game on the shipped list, up to two jokers."""
    game = Game(seed=3, lexicon_sha256=full.sha256)
    for _ in range(4):
        coup = game.draw()
        for tirage in (coup.tirage, coup.tirage.replace("?", "")[:6] + "?",
                       coup.tirage.replace("?", "")[:5] + "??"):
            assert _same(game.board, tirage, full) > 0
        game.play(top_moves(generate_moves(game.board, coup.tirage, full), len(coup.tirage))[0])


def test_compact_moves_become_the_same_moves(full):
    """Every Move made from the compact list equals the Python one, words and their scores included."""
    game = Game(seed=5, lexicon_sha256=full.sha256)
    checked = 0
    for _ in range(5):
        coup = game.draw()
        compiled = generate_moves(game.board, coup.tirage, full)
        reference = python_moves(game.board, coup.tirage, full)
        assert list(compiled) == reference
        assert [m.words for m in compiled] == [m.words for m in reference]
        for m in reference:
            bonus = 50 if len(m.placed) == 7 else 0
            assert sum(score for _, score in m.words) + bonus == m.score
        checked += len(reference)
        game.play(reference[0])
    assert checked > 1000


def test_move_list_behaves_like_the_list_of_moves(full):
    board = Board()
    compiled = generate_moves(board, "MAISON?", full)
    reference = python_moves(board, "MAISON?", full)
    assert len(compiled) == len(reference) > 1000
    assert compiled == reference and reference == list(compiled)
    assert compiled[0] == reference[0] and compiled[-1] == reference[-1]
    assert compiled[10:20] == reference[10:20] and compiled[::500] == reference[::500]
    assert compiled[3] is compiled[3]  # made once
    assert reference[42] in compiled
    assert Move(Ref(0, 0, True), "ZZ", ((0, 0, "Z"), (0, 1, "Z")), 1) not in compiled
    by_word = lambda m: (m.score, m.word)  # noqa: E731
    assert sorted(compiled, key=by_word) == sorted(reference, key=by_word)
    assert compiled.scores() == [m.score for m in reference]
    assert compiled.refs() == [str(m.ref) for m in reference]
    assert compiled.words() == [m.word for m in reference]
    target = reference[777]
    assert compiled.find(target.word, str(target.ref)) == target
    assert compiled.find(target.word, target.ref.swapped()) is None
    with pytest.raises(IndexError):
        compiled[len(reference)]
    assert generate_moves(board, "MAISON?", full) == compiled


def test_top_moves_on_the_compact_list_makes_only_the_tops(full):
    moves = generate_moves(Board(), "EAINST?", full)
    tops = top_moves(moves)
    assert sum(m is not None for m in moves._built) == len(tops)
    assert tops == top_moves(list(moves))


@pytest.mark.parametrize("small", [True, False])
def test_tied_tops_fewer_jokers_first_then_the_end_of_the_game(full, small):
    """nAVAJa (two jokers) and JAFfA (one) both score 44 on a first coup: JAFfA is offered first."""
    lexicon = Lexicon.from_words(["NAVAJA", "JAFFA"]) if small else full
    moves = generate_moves(Board(), "AAJV?F?", lexicon)
    assert moves[0].word == "nAVAJa" and moves.score(0) == 44  # generated first
    tied = {(m.word, m.jokers_used) for m in moves if m.score == 44}
    tops = top_moves(moves)
    assert {j for _, j in tied} == {1, 2} and ("JAFfA", 1) in tied
    assert [m.jokers_used for m in tops] == sorted(m.jokers_used for m in tops)
    assert tops[0].jokers_used == 1 and tops[0].word.upper().startswith("JAFFA")
    assert top_moves(list(moves)) == tops
    # with the bag empty, the game-ending move (whole tirage placed) comes first among equal jokers
    a = Move(Ref(7, 7, True), "AS", ((7, 7, "A"), (7, 8, "S")), 10)
    b = Move(Ref(7, 6, True), "aS", ((7, 6, "a"), (7, 7, "S")), 10)
    c = Move(Ref(7, 5, True), "SAS", ((7, 5, "S"), (7, 6, "A"), (7, 7, "S")), 10)
    e = Move(Ref(7, 5, True), "sAs", ((7, 5, "s"), (7, 6, "A"), (7, 7, "s")), 10)
    assert top_moves([e, b, a, c], tirage_size=3, bag_empty=True) == [c, a, b, e]


def test_compiled_and_python_dawg_are_the_same_bytes(shipped_words):
    rng = random.Random(7)
    words = sorted(rng.sample(shipped_words, 20_000))
    compiled, python = Dawg.build(words), Dawg.build_python(words)
    assert compiled.to_bytes() == python.to_bytes()
    assert compiled.word_count == 20_000 and list(compiled.words()) == words
    assert Dawg.from_text("\n".join(words) + "\n").to_bytes() == python.to_bytes()


def test_clean_list_is_compiled_as_the_normaliser_would(shipped_words):
    """The shipped list (sorted, upper case) skips the normaliser: same DAWG, same report."""
    text = gzip.decompress(DEFAULT_LIST.read_bytes()).decode()
    direct = Dawg.from_text(text)
    words, report = normalise_list(text.splitlines())
    assert direct.to_bytes() == Dawg.build(words).to_bytes()
    assert (report.too_long, report.one_letter, report.not_words) == (0, 0, 0)
    for odd in ("AB\nA\n", "BA\nAB\n", "AB\r\nCD\n", "AB\n\nCD\n", "ab\ncd\n", "ÉTÉ\n", "AB\nAB\n"):
        assert Dawg.from_text(odd) is None, odd  # left to the normaliser


def test_damaged_dawg_is_refused_by_the_core():
    dawg = Dawg.build(["MAISON", "MAISONS"])
    payload = bytearray(dawg.payload())
    payload[-4:] = (10**6).to_bytes(4, "little")  # an edge to a node that does not exist
    with pytest.raises(ValueError, match="incohérent"):
        Dawg(bytes(payload), dawg.node_count, dawg.edge_count, 2).graph  # noqa: B018


def test_python_fallback_says_so_once_and_gives_the_same_list(full, monkeypatch):
    board = Board()
    expected = generate_moves(board, "ZEBRAS?", full)
    monkeypatch.setattr(movegen, "core", None)
    monkeypatch.setattr(movegen, "_notice_given", False)
    monkeypatch.setattr(movelist, "_expand", expand_python)
    lexicon = Lexicon(Dawg.from_bytes(full.dawg.to_bytes()), full.sha256, "copie")
    monkeypatch.setattr(dawg_module, "core", None)
    lexicon.dawg._graph = None
    fallback = generate_moves(board, "ZEBRAS?", lexicon)
    assert fallback == expected and list(fallback) == list(expected)
    assert fallback.candidates() == expected.candidates()
    notice = movegen.fallback_notice()
    assert notice and "générateur Python" in notice and "plus lent" in notice
    assert movegen.fallback_notice() is None


def test_expand_in_c_and_in_python_agree(full):
    game = Game(seed=9, lexicon_sha256=full.sha256)
    for _ in range(4):
        coup = game.draw()
        moves = generate_moves(game.board, coup.tirage, full)
        grid = grid_bytes(game.board.cells)
        for k in range(0, len(moves), 7):
            code, word = movelist.ref_code(moves.ref(k)), moves.word(k)
            assert dawg_module.core.expand(grid, code, word) == expand_python(grid, code, word)
        game.play(top_moves(moves, len(coup.tirage))[0])


def test_kiosk_says_once_that_the_slow_generator_is_used(monkeypatch, capsys, tmp_path):
    from kiosk import cli

    words = tmp_path / "mots.txt"
    words.write_text("MAISON\nMAISONS\n")
    monkeypatch.setenv("DUPLICATE_CACHE_DIR", str(tmp_path / "cache"))
    cli._lexicon(str(words))
    assert capsys.readouterr().err == ""  # the core is there: nothing to say
    monkeypatch.setattr(movegen, "core", None)
    monkeypatch.setattr(movegen, "_notice_given", False)
    cli._lexicon(str(words))
    cli._lexicon(str(words))
    err = capsys.readouterr().err
    assert err.count("générateur de coups compilé absent") == 1 and err.startswith("attention : ")


def test_core_refuses_bad_input(full):
    core, graph = dawg_module.core, full.dawg.graph
    empty = grid_bytes(Board().cells)
    for grid, tirage in ((b"." * 224, b"AB"), (b"." * 224 + b"1", b"AB"), (empty, b"AB1"), (empty, b"A" * 8)):
        with pytest.raises(ValueError):
            graph.generate(grid, tirage)
    for code, word in ((0, "A.B"), (14, "AB"), (450, "AB"), (0, "")):
        with pytest.raises(ValueError):
            core.expand(empty, code, word)
