"""Decoding against legal moves, with hand-made cell readings (no image, no model)."""

from vision.decode import Candidate, decode, group_readings
from vision.recognise import ALLOWED, CharReading


def cell(
    key: str,
    col: int,
    best: str,
    p: float = 0.9,
    second: str | None = None,
    p2: float = 0.0,
    circled: float = 0.02,
    row: int = 1,
) -> CharReading:
    field = key.split(":")[0]
    allowed = ALLOWED[field]
    rest = (1 - p - p2) / (len(allowed) - 1 - (second is not None))
    probs = {c: rest for c in allowed}
    probs[best] = p
    if second:
        probs[second] = p2
    return CharReading(key, col, row, probs, circled)


def word_cells(word: str, start: int = 2, overrides: dict | None = None) -> list[CharReading]:
    overrides = overrides or {}
    out = []
    for i, ch in enumerate(word):
        kw = overrides.get(i, {})
        out.append(
            cell(
                f"grid:1:{start + i}",
                start + i,
                ch.upper(),
                circled=0.95 if ch.islower() else 0.02,
                **kw,
            )
        )  # noqa: B026
    return out


def spread_cell(col: int, probs: dict[str, float]) -> CharReading:
    """A grid cell of row 1 read with these probabilities, the rest shared evenly (a reader
    that hesitates among several shapes)."""
    allowed = ALLOWED["grid"]
    rest = (1 - sum(probs.values())) / (len(allowed) - len(probs))
    return CharReading(f"grid:1:{col}", col, 1, {c: probs.get(c, rest) for c in allowed}, 0.02)


def comb(field: str, text: str, overrides: dict | None = None) -> list[CharReading]:
    overrides = overrides or {}
    return [cell(f"{field}:{i}", i, ch, row=0, **overrides.get(i, {})) for i, ch in enumerate(text)]


MOVES = [
    Candidate("H4", "MAISONS", 70),
    Candidate("H4", "MAISONs", 68),
    Candidate("4H", "MAISONS", 74),
    Candidate("H8", "RAISONS", 66),
    Candidate("B2", "SAISON", 30),
    Candidate("H3", "OISEAU", 20),
]


def test_legal_move_fixes_a_misread_letter():
    # the classifier hesitates on the 2nd letter: A 0.45, R 0.5 → "MRISONS" is no legal word
    cells = word_cells("MAISONS", overrides={1: {"p": 0.45, "second": "R", "p2": 0.5}})
    cells[1].probs["R"], cells[1].probs["A"] = 0.5, 0.45
    readings = group_readings(cells + comb("ref", "H4") + comb("score", "70") + comb("table", "12"))
    free = decode(readings)
    assert free.word.value == "MRISONS"
    d = decode(readings, MOVES)
    assert (d.word.value, d.ref.value, d.score.value, d.sens) == ("MAISONS", "H4", 70, "h")
    assert d.legal and d.word.confidence > 0.95 and d.ref.confidence > 0.9
    assert d.table.value == 12


def test_reference_decides_between_places_and_jokers_follow_circles():
    sure = {0: {"p": 0.98}, 1: {"p": 0.98}}  # the score checks the circles: read surely
    readings = group_readings(word_cells("MAISONs") + comb("ref", "H4") + comb("score", "68", sure))
    d = decode(readings, MOVES)
    assert d.word.value == "MAISONs" and d.jokers == [6] and d.jokers_confidence > 0.9
    assert d.ref.value == "H4" and d.score.value == 68


def test_wrong_score_stays_as_written():
    sure = {0: {"p": 0.995}, 1: {"p": 0.995}}
    readings = group_readings(word_cells("MAISONS") + comb("ref", "H4") + comb("score", "75", sure))
    d = decode(readings, MOVES)
    assert d.word.value == "MAISONS" and d.ref.value == "H4"
    assert d.score.value == 75  # the player's miscount is what the arbiter must see


def test_illegal_word_is_kept_as_read_with_low_confidence():
    sure = {i: {"p": 0.98} for i in range(7)}
    readings = group_readings(
        word_cells("ZYTHUMS", overrides=sure) + comb("ref", "H4") + comb("score", "70")
    )
    d = decode(readings, MOVES)
    assert d.word.value == "ZYTHUMS" and not d.legal
    assert d.move is None and d.word.confidence < 0.99


def test_uncertain_reading_gets_low_confidence():
    # 'O' vs 'A' truly ambiguous in the only letter that distinguishes two legal words
    moves = [Candidate("H4", "MOT", 10), Candidate("H4", "MAT", 10)]
    cells = word_cells("MOT", overrides={1: {"p": 0.5, "second": "A", "p2": 0.48}})
    sure = {0: {"p": 0.98}, 1: {"p": 0.98}}
    readings = group_readings(cells + comb("ref", "H4") + comb("score", "10", sure))
    d = decode(readings, moves)
    assert d.word.confidence < 0.7
    assert d.ref.confidence > 0.9 and d.score.confidence > 0.9


def test_crossed_letter_and_raccord_are_separated():
    cells = word_cells("MAISONS")
    struck = cell("grid:1:1", 1, "#")
    above = cell("grid:0:4", 4, "E", row=0)
    r = group_readings(cells + [struck, above])
    assert "".join(c.best for c in r.word) == "MAISONS"
    assert [(dr, i, c.best) for dr, i, c in r.raccord] == [(-1, 2, "E")]


def test_table_among_known_tables():
    cells = comb("table", "17", {1: {"p": 0.5, "second": "1", "p2": 0.45}})
    readings = group_readings(word_cells("MAISONS") + cells)
    d = decode(readings, MOVES, tables=[1, 2, 11, 12, 13])
    assert d.table.value == 11


def test_raccord_locates_the_word_without_reference():
    from engine.board import Board

    board = Board()
    for i, ch in enumerate("CHAT"):  # CHAT at H4..H7
        board.cells[7][3 + i] = ch
    # two places for the same word and score: only the raccord (letters above) tells them apart
    moves = [Candidate("I4", "RIEN", 12), Candidate("G4", "RIEN", 12)]
    cells = word_cells("RIEN", start=3)
    below_c = cell("grid:2:3", 3, "C", row=2)
    below_h = cell("grid:2:4", 4, "H", row=2)
    readings = group_readings(cells + [below_c, below_h] + comb("score", "12"))
    assert [(dr, i) for dr, i, _ in readings.raccord] == [(1, 0), (1, 1)]
    d = decode(readings, moves, board)
    assert d.move == Candidate("G4", "RIEN", 12) and d.ref.value is None and d.sens == "h"
    assert d.raccord == "CH"


def test_rival_word_decided_by_a_doubtful_letter_is_flagged():
    # the reader saw a K (0.9): neither N nor R; NAVALE and RAVALE share place and score
    moves = [Candidate("10A", "NAVALE", 27), Candidate("10A", "RAVALE", 27), Candidate("H4", "LAVE", 9)]
    cells = word_cells("KAVALE")
    cells[0].probs["N"], cells[0].probs["R"] = 0.03, 0.001
    readings = group_readings(cells + comb("ref", "10A") + comb("score", "27"))
    d = decode(readings, moves)
    assert d.word.value in ("NAVALE", "RAVALE") and d.word.confidence < 0.9
    # with a clear N, the same choice is trusted
    sure = word_cells("NAVALE")
    d = decode(group_readings(sure + comb("ref", "10A") + comb("score", "27")), moves)
    assert d.word.value == "NAVALE" and d.word.confidence > 0.9


def test_written_score_is_never_replaced_by_the_legal_one():
    # written 30, the 3 read as a 2 at 0.38: the move (OISEAU H3) makes 20
    doubt = {0: {"p": 0.6, "second": "2", "p2": 0.38}, 1: {"p": 0.99}}
    readings = group_readings(word_cells("OISEAU") + comb("ref", "H3") + comb("score", "30", doubt))
    d = decode(readings, MOVES)
    assert d.word.value == "OISEAU" and d.score.value == 30
    assert d.score.confidence < 0.95  # the arbiter must see it
    assert 20 in [v for v, _ in d.score.alternatives]
    # a lesser doubt on a score that is the move's: the game raises the confidence, once the
    # ink reads each digit at SCORE_DIGIT_SURE (0.9); under it, a 30 miscounted and misread
    # as the move's 20 would pass: the ink's own confidence stands
    doubt = {0: {"p": 0.92, "second": "3", "p2": 0.07}, 1: {"p": 0.99}}
    readings = group_readings(word_cells("OISEAU") + comb("ref", "H3") + comb("score", "20", doubt))
    d = decode(readings, MOVES)
    assert d.score.value == 20 and d.score.confidence > 0.95
    doubt = {0: {"p": 0.8, "second": "3", "p2": 0.18}, 1: {"p": 0.99}}
    readings = group_readings(word_cells("OISEAU") + comb("ref", "H3") + comb("score", "20", doubt))
    d = decode(readings, MOVES)
    assert d.score.value == 20 and d.score.confidence < 0.95
    # the 2 read 0.6 against a 3 at 0.38 on the move's score: kept as read, and the ink does
    # not prefer it clearly enough (under twice the 3) for the game to make it sure
    doubt = {0: {"p": 0.6, "second": "3", "p2": 0.38}, 1: {"p": 0.99}}
    readings = group_readings(word_cells("OISEAU") + comb("ref", "H3") + comb("score", "20", doubt))
    d = decode(readings, MOVES)
    assert d.score.value == 20 and d.score.confidence < 0.95
    # a very doubtful ink cannot be made sure by the game
    doubt = {0: {"p": 0.42, "second": "3", "p2": 0.4}, 1: {"p": 0.99}}
    readings = group_readings(word_cells("OISEAU") + comb("ref", "H3") + comb("score", "20", doubt))
    assert decode(readings, MOVES).score.confidence < 0.95


def test_written_reference_stays_as_read():
    sure = {0: {"p": 0.97}, 1: {"p": 0.97}}
    readings = group_readings(word_cells("OISEAU") + comb("ref", "H5", sure) + comb("score", "20"))
    d = decode(readings, MOVES)
    assert d.ref.value == "H5" and d.ref.confidence < 0.95


def test_a_reference_is_sure_when_its_grammar_leaves_one_reading():
    """M8's 8 read as much B as 8 (0.50 / 0.47): MB is no reference, M8 is the only reading
    the cells allow, and the game backs it — sure. M7's 7 read 0.61 against a 1 at 0.32 stays
    for the arbiter: M1 is a reference too, and the ink does not prefer M7 twice over."""
    moves = [Candidate("M8", "VU", 16), Candidate("M7", "VU", 16), Candidate("M1", "VU", 13)]
    base = word_cells("VU") + comb("score", "16", {i: {"p": 0.99} for i in range(2)})
    twin = {0: {"p": 0.99}, 1: {"p": 0.47, "second": "B", "p2": 0.5}}
    d = decode(group_readings(base + comb("ref", "M8", twin)), moves[:1])
    assert d.ref.value == "M8" and d.ref.confidence >= 0.95
    rival = {0: {"p": 0.99}, 1: {"p": 0.61, "second": "1", "p2": 0.32}}
    d = decode(group_readings(base + comb("ref", "M7", rival)), moves[1:])
    assert d.ref.value == "M7" and d.ref.confidence <= 0.5


def test_table_that_fits_two_players_is_flagged():
    cells = comb("table", "17", {0: {"p": 0.99}, 1: {"p": 0.5, "second": "1", "p2": 0.45}})
    d = decode(group_readings(word_cells("MAISONS") + cells), MOVES, tables=[11, 17, 40])
    assert d.table.value in (11, 17) and d.table.confidence < 0.95


def test_table_outside_the_set_is_read_as_written_and_flagged():
    # 17 already has a result (a photo taken twice): it is not in the set, 11 is
    cells = comb("table", "17", {0: {"p": 0.99}, 1: {"p": 0.97}})
    d = decode(group_readings(word_cells("MAISONS") + cells), MOVES, tables=[11, 12])
    assert d.table.confidence < 0.95
    cells = comb("table", "12", {0: {"p": 0.99}, 1: {"p": 0.97}})
    d = decode(group_readings(word_cells("MAISONS") + cells), MOVES, tables=[11, 12, 20])
    assert d.table.value == 12 and d.table.confidence > 0.95


def test_lost_leading_one_is_proposed_but_flagged():
    cells = comb("table", "76", {0: {"p": 0.99}, 1: {"p": 0.99}})
    d = decode(group_readings(word_cells("MAISONS") + cells), MOVES, tables=[3, 176, 180])
    assert d.table.value == 176 and d.table.confidence < 0.95


def test_without_unread_ink_no_leading_one_is_supposed_lost():
    """The capture saw nothing before the first digit (``Fields.hidden``): 76 is table 76,
    sure, even where a table 176 plays; with a trace there, 176 stays a doubt."""
    cells = comb("table", "76", {0: {"p": 0.99}, 1: {"p": 0.99}})
    groups = group_readings(word_cells("MAISONS") + cells)
    seen = decode(groups, MOVES, tables=range(1, 201), table_hidden=False)
    assert seen.table.value == 76 and seen.table.confidence > 0.95
    hidden = decode(groups, MOVES, tables=range(1, 201), table_hidden=True)
    assert hidden.table.value == 76 and hidden.table.confidence < 0.95


def test_a_reference_is_read_as_one_letter_and_one_number():
    """An upright read half « 1 », half « I »: a digit where a number goes, a letter where
    the letter goes; an ink that spells no reference stays doubtful."""
    from vision.decode import read_ref

    text, conf = read_ref(comb("ref", "HI1", {0: {"p": 0.98}, 1: {"p": 0.4, "second": "1",
                                                                  "p2": 0.38}, 2: {"p": 0.98}}))
    assert text == "H11" and conf > 0.95
    text, conf = read_ref(comb("ref", "11I", {0: {"p": 0.97}, 1: {"p": 0.5, "second": "I",
                                                                  "p2": 0.45}, 2: {"p": 0.9}}))
    # 1I is no reference: the middle stroke is a 1; I11 (the same strokes, an I read as a 1
    # and a 1 as an I) keeps a share
    assert text == "11I" and 0.75 < conf < 0.95
    text, conf = read_ref(comb("ref", "H16", {0: {"p": 0.98}, 1: {"p": 0.98}, 2: {"p": 0.98}}))
    assert conf < 0.5  # column 16 is off the grid: whatever H1x it is closest to, unsure
    text, conf = read_ref(comb("ref", "H7", {0: {"p": 0.98}, 1: {"p": 0.55, "second": "1",
                                                                 "p2": 0.4}}))
    assert text == "H7" and conf < 0.7  # H7 and H1 both exist: the ink alone decides
    text, conf = read_ref(comb("ref", "H111", {i: {"p": 0.97} for i in range(4)}))
    assert text == "H11" and conf < 0.95  # a 1's hook cut as a cell of its own: one too many


def test_a_reference_read_by_its_grammar_still_never_takes_the_moves_place():
    # the ink reads H1? with a sure 1 then a doubtful 1/I: H11; the move is at H12
    cells = comb("ref", "H1I", {0: {"p": 0.98}, 1: {"p": 0.98}, 2: {"p": 0.45, "second": "1",
                                                                    "p2": 0.44}})
    moves = [Candidate("H12", "MAISONS", 70)]
    d = decode(group_readings(word_cells("MAISONS") + cells), moves)
    assert d.ref.value == "H11" and d.ref.confidence < 0.95


def test_a_raccord_letter_where_the_grid_has_none_is_flagged():
    """A stray mark (a line's residue) read as a raccord letter beside a word placed by its
    reference would make the correction call it « both modes, one wrong »: a raccord letter
    that is not the grid's letter at its place is flagged; one that is, read surely, is not."""
    from engine.board import Board
    from vision.reader import FLAG_THRESHOLD, _flags

    board = Board()
    for i, ch in enumerate("CHAT"):  # CHAT at H4..H7
        board.cells[7][3 + i] = ch
    moves = [Candidate("G4", "RIEN", 12), Candidate("I4", "RIEN", 12)]
    base = word_cells("RIEN", start=3) + comb("ref", "G4") + comb("score", "12")
    c_below = cell("grid:2:3", 3, "C", p=0.999, row=2)  # the C of CHAT, under the R
    stray = cell("grid:2:14", 14, "I", p=0.999, row=2)  # far right: no letter there

    sure = decode(group_readings(base + [c_below]), moves, board)
    assert sure.raccord == "C" and sure.raccord_confidence > 0.99
    assert "raccord" not in _flags(sure, FLAG_THRESHOLD)
    wrong = decode(group_readings(base + [stray]), moves, board)
    assert wrong.raccord == "I" and wrong.raccord_confidence == 0.0
    assert "raccord" in _flags(wrong, FLAG_THRESHOLD)
    torn = decode(group_readings(base + [cell("grid:2:3", 3, "C", p=0.45, second="G", p2=0.4,
                                              row=2)]), moves, board)
    assert "raccord" in _flags(torn, FLAG_THRESHOLD)  # the grid's letter, or a G: the ink hesitates
    other = decode(group_readings(base + [cell("grid:2:3", 3, "G", p=0.6, second="C", p2=0.3,
                                               row=2)]), moves, board)
    assert "raccord" in _flags(other, FLAG_THRESHOLD)  # the ink prefers another letter


def test_a_raccord_letter_the_ink_prefers_clearly_is_the_grid_letter_copied():
    """A player copies the grid's letters: a raccord letter read first as the grid's letter at
    its place, clearly ahead of the next one, is that letter even at 0.6 (before, the product
    of the ink's own probabilities flagged the raccord of a bulletin read right); a pale
    letter the ink does not tell apart, a letter read under ``INK_MIN``, stay flagged."""
    from engine.board import Board
    from vision.reader import FLAG_THRESHOLD, _flags

    board = Board()
    for i, ch in enumerate("CHAT"):  # CHAT at H4..H7
        board.cells[7][3 + i] = ch
    moves = [Candidate("G4", "RIEN", 12), Candidate("I4", "RIEN", 12)]
    base = word_cells("RIEN", start=3) + comb("ref", "G4") + comb("score", "12")

    def raccord(*cells: CharReading):
        return decode(group_readings(base + list(cells)), moves, board)

    clear = raccord(cell("grid:2:3", 3, "C", p=0.6, second="G", p2=0.1, row=2),
                    cell("grid:2:4", 4, "H", p=0.7, row=2))
    assert clear.raccord == "CH" and clear.raccord_confidence > 0.99
    assert "raccord" not in _flags(clear, FLAG_THRESHOLD)
    faint = raccord(cell("grid:2:3", 3, "C", p=0.25, second="G", p2=0.05, row=2))
    assert "raccord" in _flags(faint, FLAG_THRESHOLD)  # first, but the ink says little
    close = raccord(cell("grid:2:3", 3, "C", p=0.5, second="G", p2=0.3, row=2))
    assert "raccord" in _flags(close, FLAG_THRESHOLD)  # not twice the next letter


def test_a_word_placed_by_a_doubtful_raccord_alone_flags_the_missing_reference():
    """No reference read, the word placed by a raccord the reader doubts (a stray mark read
    as a raccord letter while a reference in dark pencil was lost): the reference is shown
    to the arbiter too; a raccord read surely, the grid's letter at its place, places the
    word and leaves the empty reference alone."""
    from engine.board import Board
    from vision.reader import FLAG_THRESHOLD, _flags

    board = Board()
    for i, ch in enumerate("CHAT"):  # CHAT at H4..H7
        board.cells[7][3 + i] = ch
    moves = [Candidate("G4", "RIEN", 12)]
    base = word_cells("RIEN", start=3) + comb("score", "12")
    cha = [cell(f"grid:2:{3 + i}", 3 + i, ch, p=0.999, row=2) for i, ch in enumerate("CHA")]
    sure = decode(group_readings(base + cha), moves, board)
    assert sure.raccord == "CHA" and sure.ref.value is None
    assert not {"ref", "raccord"} & set(_flags(sure, FLAG_THRESHOLD))
    stray = decode(group_readings(base + [cell("grid:2:14", 14, "L", p=0.999, row=2)]), moves, board)
    flagged = _flags(stray, FLAG_THRESHOLD)
    assert stray.ref.value is None and {"raccord", "ref"} <= set(flagged)


def test_an_unread_word_sends_its_raccord_to_the_arbiter_too():
    """PISE in pencil lost whole, its raccord D with it: the word was flagged, the empty
    raccord passed as read. Raccord letters are written beside the word, in the same ink: a
    word unread leaves them unchecked too, in a reading as in a bulletin read as ink only.
    So do its circles (EMPENNA lost whole, its joker with it: no joker, unflagged)."""
    from vision.reader import FLAG_THRESHOLD, _flags, _unread

    d = decode(group_readings(comb("ref", "H4") + comb("score", "70")), MOVES)
    assert d.word.value is None and not d.raccord
    assert {"word", "jokers", "raccord"} <= set(_flags(d, FLAG_THRESHOLD))
    assert {"jokers", "raccord"} <= set(_unread(None, None, 0.0).flagged)
    nothing = _flags(decode(group_readings(comb("score", "70")), MOVES), FLAG_THRESHOLD)
    assert nothing.count("raccord") == 1  # the reference unread flags it already: once
    read = decode(group_readings(word_cells("MAISONS") + comb("ref", "H4") + comb("score", "70")),
                  MOVES)
    assert read.word.value == "MAISONS" and "raccord" not in _flags(read, FLAG_THRESHOLD)


def test_a_reading_no_legal_move_explains_leaves_its_raccord_unchecked():
    """No legal move: the raccord cannot be checked against the grid (a letter may have been
    missed as well as misread): flagged with the word, even when none was read."""
    from vision.reader import _flags

    d = decode(group_readings(word_cells("ZYTHUM") + comb("ref", "H4")), MOVES)
    assert not d.legal
    assert {"word", "raccord", "coup_illegal"} <= set(_flags(d, 0.95))
    d = decode(group_readings(word_cells("MAISONS") + comb("ref", "H4")), MOVES)
    assert d.legal and "raccord" not in _flags(d, 0.95)


def test_a_reading_no_legal_move_explains_flags_its_table_too():
    """22 in dark, curled pencil read 2 (the first 2 too pale to be cut) beside a word no
    legal move explains: a capture that failed wherever the game could check it cannot vouch
    for the table, which the game cannot check, however surely its digits read; a legal
    reading leaves a sure table alone."""
    from vision.reader import _flags

    sure = {0: {"p": 0.999}, 1: {"p": 0.999}}
    table = comb("table", "57", sure)
    lost = decode(group_readings(word_cells("ZYTHUM") + table + comb("ref", "H4", sure)
                                 + comb("score", "70", sure)),
                  MOVES, tables=range(1, 201), table_hidden=False)
    assert not lost.legal and lost.table.value == 57 and lost.table.confidence > 0.99
    assert {"coup_illegal", "table"} <= set(_flags(lost, 0.95))
    legal = decode(group_readings(word_cells("MAISONS", overrides={i: {"p": 0.999} for i in range(7)})
                                  + table + comb("ref", "H4", sure) + comb("score", "70", sure)),
                   MOVES, tables=range(1, 201), table_hidden=False)
    assert legal.legal and "table" not in _flags(legal, 0.95)


def test_a_word_two_of_whose_letters_got_no_cell_is_still_found_but_flagged():
    """Wide letters across the borders: MAISONS read on five cells (M A S O S, the I and the N
    merged into their neighbours). The legal word is proposed, never as sure."""
    cells = word_cells("MASOS")
    d = decode(group_readings(cells + comb("ref", "H4") + comb("score", "70")), MOVES)
    assert d.word.value == "MAISONS" and d.word.confidence <= 0.8


def test_a_struck_letter_read_unsurely_sends_the_word_to_the_arbiter():
    """PLAINE whose E reads as struck (a bar through it) is PLAIN to the decoder, a legal word
    read exactly: the word must still be flagged, unless the bar is read as surely as a
    letter would have to be (``STRUCK_SURE``). Inside the word alike, where the bar is less
    sure than ``STRUCK_INSIDE``: CES whose E reads as struck at 0.53 and whose S is misread
    is CE, legal at the same place (stress, felt pen)."""
    import numpy as np

    from vision.fields import Fields
    from vision.reader import _doubtful_fields

    empty = Fields({}, {}, np.zeros((1, 1), np.float32), 200.0, 100.0)
    end = word_cells("PLAIN") + [cell("grid:1:7", 7, "#", 0.97)]
    groups = group_readings(end)
    assert [r.best for r in groups.word] == list("PLAIN") and groups.struck_unsure
    assert "word" in _doubtful_fields(empty, groups, 1)
    sure = group_readings(word_cells("PLAIN") + [cell("grid:1:7", 7, "#", 0.99)])
    assert [r.best for r in sure.word] == list("PLAIN") and not sure.struck_unsure
    assert "word" not in _doubtful_fields(empty, sure, 1)
    first = group_readings([cell("grid:1:2", 2, "#", 0.95)] + word_cells("PLAIN", start=3))
    assert first.struck_unsure
    inside = word_cells("PL") + [cell("grid:1:4", 4, "#", 0.53, "E", 0.45)] + word_cells("AIN", start=5)
    groups = group_readings(inside)
    assert [r.best for r in groups.word] == list("PLAIN") and groups.struck_unsure
    assert "word" in _doubtful_fields(empty, groups, 1)
    struck = word_cells("PL") + [cell("grid:1:4", 4, "#", 0.95)] + word_cells("AIN", start=5)
    groups = group_readings(struck)
    assert not groups.struck_unsure and "word" not in _doubtful_fields(empty, groups, 1)


def test_a_cell_read_unsurely_struck_is_settled_by_a_sure_score_the_longer_word_lacks():
    """PLAIN at 8H for 24, a cell after the N read struck at 0.9 (a letter struck, or an E
    with a bar through it misread as struck). The player who wrote PLAINE counted PLAINE; the
    score read surely is PLAIN's and no legal word spelled with a letter in that cell is worth
    it: the word is not flagged. It still is where PLAINE is worth 24 too, where the score is
    PLAINE's, where the cell is circled (a joker scores nothing), or where the score is in
    doubt."""
    from types import SimpleNamespace

    from vision.reader import REASONS, _field_flags

    sure = {i: {"p": 0.995} for i in range(5)}
    capture = SimpleNamespace(hidden=set(), doubtful=set(), marked={"grid", "ref", "score"})

    def flags(moves: list[Candidate], score: str, circled: float = 0.02,
              score_cells: dict | None = None) -> dict[str, str]:
        struck = cell("grid:1:7", 7, "#", 0.9, circled=circled)
        groups = group_readings(word_cells("PLAIN", overrides=sure) + [struck]
                                + comb("ref", "8H", {0: {"p": 0.995}, 1: {"p": 0.995}})
                                + comb("score", score, score_cells or {0: {"p": 0.995}, 1: {"p": 0.995}}))
        assert groups.struck_unsure
        d = decode(groups, moves)
        assert d.move.ref == "8H"
        return _field_flags(d, capture, groups, 1, 0.95, cands=moves)

    plain = [Candidate("8H", "PLAIN", 24), Candidate("8H", "PLAINE", 26), Candidate("H8", "PLAIN", 20)]
    assert "word" not in flags(plain, "24")
    same = [Candidate("8H", "PLAIN", 24), Candidate("8H", "PLAINS", 24)]
    assert flags(same, "24")["word"] == REASONS["doubt"]  # PLAINS as likely, for the same 24
    assert "word" in flags(plain, "26")  # the longer word's count: the struck cell its E?
    assert flags(plain, "24", circled=0.8)["word"] == REASONS["doubt"]
    doubtful = {0: {"p": 0.6, "second": "7", "p2": 0.3}, 1: {"p": 0.995}}
    assert "word" in flags(plain, "24", score_cells=doubtful)


def test_letters_read_surely_struck_flag_the_word_when_the_longer_word_is_worth_the_score_too():
    """DAMEE at K11 for 20 in DELPHINE's hand (stress seed 411, thin ballpoint), both E read
    struck surely and left out: DAM is legal at 5C for 20 as well, and was read at 0.9999
    beside a reference misread. A longer legal word with letters in the struck cells, worth
    the score read, sends the word to the arbiter; where the score read is the shorter
    word's only, the score tells a letter struck for good, and the word stays as read."""
    from types import SimpleNamespace

    from vision.reader import REASONS, _field_flags

    sure = {i: {"p": 0.995} for i in range(3)}
    capture = SimpleNamespace(hidden=set(), doubtful=set(), marked={"grid", "ref", "score"})

    def flags(moves: list[Candidate], score: str) -> dict[str, str]:
        struck = [cell("grid:1:5", 5, "#", 0.99), cell("grid:1:6", 6, "#", 0.99)]
        groups = group_readings(word_cells("DAM", overrides=sure) + struck
                                + comb("ref", "5C", {0: {"p": 0.995}, 1: {"p": 0.995}})
                                + comb("score", score, {0: {"p": 0.995}, 1: {"p": 0.995}}))
        assert [r.best for r in groups.word] == list("DAM") and not groups.struck_unsure
        d = decode(groups, moves)
        assert d.word.value == "DAM" and d.move.ref == "5C"
        return _field_flags(d, capture, groups, 1, 0.95, cands=moves)

    both = [Candidate("5C", "DAM", 20), Candidate("K11", "DAMEE", 20), Candidate("K11", "DAME", 18)]
    assert flags(both, "20")["word"] == REASONS["struck"]
    apart = [Candidate("5C", "DAM", 20), Candidate("K11", "DAMEE", 22), Candidate("K11", "DAME", 18)]
    assert "word" not in flags(apart, "20")
    one = [Candidate("5C", "DAM", 20), Candidate("K11", "DAMEE", 22), Candidate("K11", "DAME", 20)]
    assert flags(one, "20")["word"] == REASONS["struck"]  # one E struck for good, one misread
    # more struck cells than the decoder tries as letters: a corrected word, the arbiter's
    from vision.reader import _longer_word_fits

    three = group_readings(word_cells("DAM", overrides=sure)
                           + [cell(f"grid:1:{c}", c, "#", 0.99) for c in (5, 6, 7)])
    assert len(three.struck_cells) == 3
    assert _longer_word_fits(three, Candidate("5C", "DAM", 20), apart, 20)
    assert not _longer_word_fits(group_readings(word_cells("DAM", overrides=sure)
                                                + [cell("grid:1:5", 5, "#", 0.99)]),
                                 Candidate("5C", "DAM", 20), apart, 20)


def test_a_faint_cell_beside_the_word_sends_the_raccord_to_the_arbiter():
    """MEDUSAT with an A written above its S, touching it, under two fingers: the A left as
    a faint trace (a doubtful cell), no raccord read. A doubtful cell just above or below the
    word's letters flags the raccord; one in the word's row flags the word; one two rows away,
    or far beside the word, neither."""
    import numpy as np

    from vision.fields import Fields
    from vision.reader import _doubtful_fields

    groups = group_readings(word_cells("MEDUSAT", start=8))

    def flags(*doubtful: str) -> list[str]:
        fields = Fields({}, {}, np.zeros((1, 1), np.float32), 200.0, 100.0, set(doubtful))
        return _doubtful_fields(fields, groups, 1)

    assert flags("grid:0:12") == ["raccord"]
    assert flags("grid:2:8") == ["raccord"]
    assert flags("grid:1:15") == ["word"]
    assert flags("grid:3:12") == [] and flags("grid:0:3") == []


def test_a_score_whose_box_may_hide_a_1_is_flagged_when_its_move_is_in_doubt():
    """13 with its 1 in pencil on the box's edge, read 3, beside GUE misread EUE at O8, which
    the game finds worth 3: the move cannot vouch for the score. A score box that may hide a
    1 is flagged where the word or the reference is; beside a move read surely, or in a box
    that hides nothing, it is not."""
    from types import SimpleNamespace

    from vision.reader import _score_unvouched

    edge = SimpleNamespace(hidden={"score"})
    assert _score_unvouched(edge, ["word", "jokers"]) and _score_unvouched(edge, ["ref"])
    assert not _score_unvouched(edge, ["table"])
    assert not _score_unvouched(SimpleNamespace(hidden={"table"}), ["word", "ref"])


def test_a_struck_letter_is_confirmed_only_by_a_score_read_surely():
    """VUE in DELPHINE's hand, its E (the bar reaching out of the curves) read struck at 0.98:
    VU is legal at A8 too (30 points, VUE makes 33). With the score read surely the game
    confirms the shorter word; with the score in doubt the word goes to the arbiter as well."""
    from vision.reader import _struck_unconfirmed

    groups = group_readings(word_cells("VU") + [cell("grid:1:4", 4, "#", 0.983)])
    assert [r.best for r in groups.word] == list("VU") and not groups.struck_unsure
    assert groups.struck
    assert _struck_unconfirmed(groups, ["score"]) == ["word"]
    assert _struck_unconfirmed(groups, ["ref", "table"]) == []  # the score, sure, confirms it
    assert _struck_unconfirmed(groups, ["table"]) == []
    plain = group_readings(word_cells("VUE"))
    assert not plain.struck and _struck_unconfirmed(plain, ["score"]) == []


def test_a_raccord_letter_read_as_struck_sends_the_raccord_to_the_arbiter():
    """BADE placed by the raccord AET written above it in DELPHINE's hand (stress seed 300):
    the E's bar reaching out of its curves read as a struck letter, left out of the raccord:
    AT, sure. A raccord letter struck and one misread as struck look alike, and the game
    does not check a raccord letter dropped: the raccord goes to the arbiter. A struck cell
    far from the word, or none, leaves it alone."""
    import numpy as np

    from vision.fields import Fields
    from vision.reader import _doubtful_fields

    empty = Fields({}, {}, np.zeros((1, 1), np.float32), 200.0, 100.0)
    above = [cell("grid:0:2", 2, "A", 0.99, row=0), cell("grid:0:3", 3, "T", 0.99, row=0)]
    struck = cell("grid:0:5", 5, "#", 0.99, row=0)
    groups = group_readings(word_cells("BADE") + above + [struck])
    assert [r.best for _, _, r in groups.raccord] == ["A", "T"] and groups.struck_raccord
    assert "raccord" in _doubtful_fields(empty, groups, 1)
    assert not groups.struck_unsure and not groups.struck  # the word itself is whole
    plain = group_readings(word_cells("BADE") + above)
    assert not plain.struck_raccord and "raccord" not in _doubtful_fields(empty, plain, 1)
    far = group_readings(word_cells("BADE") + above + [cell("grid:0:12", 12, "#", 0.99, row=0)])
    assert not far.struck_raccord


def test_a_score_in_doubt_that_is_not_the_moves_sends_the_word_to_the_arbiter():
    """LOFS in dark, curled pencil, its S lost with the score's 9: LOF, legal at the same
    place, read surely beside a score read 1. A score in doubt that is not the retained
    move's leaves the word on its ink alone, and so does one in doubt beside a reference in
    doubt; a score read surely (the player's miscount), or in doubt but the move's own
    beside a sure reference, does not."""
    from vision.reader import _flags, _score_disowns_move

    moves = [Candidate("H8", "LOFS", 19), Candidate("H8", "LOF", 18)]
    sure = {i: {"p": 0.995} for i in range(3)}
    lost = group_readings(word_cells("LOF", start=8, overrides=sure) + comb("ref", "H8", {
        0: {"p": 0.995}, 1: {"p": 0.995}}) + comb("score", "1", {0: {"p": 0.7}}))
    d = decode(lost, moves)
    assert (d.word.value, d.score.value) == ("LOF", 1) and d.move.score == 18
    flagged = _flags(d, 0.95)
    assert "score" in flagged and "word" not in flagged  # the word passes on its ink
    assert _score_disowns_move(d, flagged) == ["word", "jokers"]
    assert _score_disowns_move(d, ["table"]) == []  # the score sure: a miscount, written so
    own = decode(group_readings(word_cells("LOF", start=8, overrides=sure) + comb("ref", "H8")
                                + comb("score", "18", {0: {"p": 0.7}})), moves)
    assert own.score.value == 18 and _score_disowns_move(own, ["score"]) == []
    # AHI read HI, worth 8 at G11, beside a score read 8 and a reference read C, both in
    # doubt: the move's own score, but no sure reference places the word
    assert _score_disowns_move(own, ["score", "ref"]) == ["word", "jokers"]
    assert _score_disowns_move(own, ["ref"]) == []  # the score sure and the move's
    # PENILS in 2H pencil, its S lost (PENIL, 11 at M8) and its 21 read 71, the 7 at 0.5:
    # the score shows the move's 11, proposed in doubt; its ink did not vouch for the move
    pen = [Candidate("M8", "PENILS", 21), Candidate("M8", "PENIL", 11)]
    proposed = decode(group_readings(word_cells("PENIL", start=8, overrides=sure) + comb("ref", "M8")
                                     + comb("score", "71", {0: {"p": 0.45, "second": "1", "p2": 0.3}})),
                      pen)
    assert (proposed.word.value, proposed.score.value, proposed.score_ink) == ("PENIL", 11, 71)
    assert "score" in _flags(proposed, 0.95)
    assert _score_disowns_move(proposed, ["score"]) == ["word", "jokers"]


def test_a_score_flagged_for_a_hidden_1_beside_a_reference_in_doubt_sends_the_word_too():
    """BASEE written at M2 for 26 in Delphine's hand, read BASE (legal at 4A for 26) beside a
    reference read 4A in doubt and a score read 26 surely, but in a box that may hide a 1:
    the score is flagged, and with it nothing read surely places the word, which stands on
    its ink alone. The word's rule sees the score's doubt whichever rule raised it; with no
    1 possibly hidden, the score sure and the move's, the word passes as before."""
    from types import SimpleNamespace

    from vision.reader import _field_flags

    moves = [Candidate("M2", "BASEE", 26), Candidate("4A", "BASE", 26), Candidate("M2", "BASE", 24)]
    sure = {i: {"p": 0.995} for i in range(4)}
    unsure = {0: {"p": 0.3}, 1: {"p": 0.3}}
    groups = group_readings(word_cells("BASE", overrides=sure) + comb("ref", "4A", unsure)
                            + comb("score", "26", sure))
    d = decode(groups, moves)
    assert (d.word.value, d.ref.value, d.score.value) == ("BASE", "4A", 26)

    def capture(hidden: set[str]):
        return SimpleNamespace(hidden=hidden, doubtful=set(), marked={"grid", "ref", "score"})

    edge = _field_flags(d, capture({"score"}), groups, 1, 0.95)
    assert {"ref", "score", "word"} <= set(edge)
    plain = _field_flags(d, capture(set()), groups, 1, 0.95)
    assert "ref" in plain and "score" not in plain and "word" not in plain


def test_the_jokers_of_a_word_in_doubt_are_in_doubt_too():
    """HAVEEs written at 2D for 31 under a reflection (stress seed 252, Yusei): the circled
    last S too faint to be cut, its box doubtful; read HAVEE, legal at 2D for the same 31 (a
    joker scores nothing). The word went to the arbiter for its doubtful box, its jokers
    (none, sure at 0.98) did not: whatever puts the word in doubt puts its circles in doubt."""
    from types import SimpleNamespace

    from vision.reader import _field_flags

    moves = [Candidate("2D", "HAVEEs", 31), Candidate("2D", "HAVEE", 31), Candidate("H2", "HAVEE", 24)]
    sure = {i: {"p": 0.995} for i in range(5)}
    groups = group_readings(word_cells("HAVEE", overrides=sure) + comb("ref", "2D", sure)
                            + comb("score", "31", sure))
    d = decode(groups, moves)
    assert d.word.value == "HAVEE" and d.jokers == []

    def capture(doubtful: set[str]):
        return SimpleNamespace(hidden=set(), doubtful=doubtful, marked={"grid", "ref", "score"})

    faint = _field_flags(d, capture({"grid:1:7"}), groups, 1, 0.95)  # the box after the E
    assert "word" in faint and "jokers" in faint
    plain = _field_flags(d, capture(set()), groups, 1, 0.95)
    assert "word" not in plain and "jokers" not in plain


def test_a_doubtful_score_box_is_settled_by_a_sure_move_whose_score_it_reads():
    """TENDE at 8H for 24, every field read surely, the score box doubtful (faint ink after
    the 4, or two cuts read alike: 24 or 124). The score read is the move's, and word and
    reference place and count that move surely: what the doubt leaves possible is a count
    off by a digit exactly where the ink hesitates — the score is not flagged. A score that
    is not the move's, or a move in doubt, leaves the doubt to the arbiter as before."""
    from types import SimpleNamespace

    from vision.reader import REASONS, _field_flags

    moves = [Candidate("8H", "TENDE", 24), Candidate("H8", "TENDE", 20), Candidate("8H", "TENUE", 24)]
    sure = {i: {"p": 0.995} for i in range(5)}

    def flags(score: str, word: dict, doubt: str = "score:cut") -> dict[str, str]:
        groups = group_readings(word_cells("TENDE", overrides=word) + comb("ref", "8H", sure)
                                + comb("score", score, sure))
        d = decode(groups, moves)
        assert (d.word.value, d.ref.value) == ("TENDE", "8H")
        capture = SimpleNamespace(hidden=set(), doubtful={doubt}, marked={"grid", "ref", "score"})
        return _field_flags(d, capture, groups, 1, 0.95)

    assert "score" not in flags("24", sure)
    assert "score" not in flags("24", sure, doubt="score:3")
    assert flags("25", sure)["score"]  # a miscount: the arbiter sees it, doubt or not
    doubtful_d = {**sure, 3: {"p": 0.5, "second": "U", "p2": 0.45}}  # TENUE as likely
    assert flags("24", doubtful_d)["score"] == REASONS["doubt"]


def test_a_reference_no_surely_read_field_vouches_for_is_flagged():
    """DOUMA written at H8 for 16 in Steve Hand's violet ink, the 8 read 5 at 0.97 and the 1
    of 16 lost: H5 (DOUMA is worth 14 there), beside a word in doubt and a score 6 that fits
    no move. The reference chose the place by its own ink and nothing else vouches for it:
    it goes to the arbiter. A word read surely, or the move's score, vouches for it as before."""
    from types import SimpleNamespace

    from vision.reader import _field_flags

    moves = [Candidate("H8", "DOUMA", 16), Candidate("H5", "DOUMA", 14), Candidate("H4", "DOUMA", 18),
             Candidate("H5", "DOUME", 14)]
    sure = {i: {"p": 0.99} for i in range(3)}
    capture = SimpleNamespace(hidden=set(), doubtful=set(), marked={"grid", "ref", "score"})

    def flags(last_letter: float, score: str) -> list[str]:
        cells = word_cells("DOUMA", overrides={4: {"p": last_letter, "second": "E", "p2": 0.98 - last_letter},
                                               **{i: {"p": 0.99} for i in range(4)}})
        groups = group_readings(cells + comb("ref", "H5", sure) + comb("score", score, sure))
        d = decode(groups, moves)
        assert (d.word.value, d.ref.value, d.move.ref) == ("DOUMA", "H5", "H5")
        assert d.ref.confidence >= 0.95  # the ink alone is sure
        return _field_flags(d, capture, groups, 1, 0.95)

    assert {"word", "score", "ref"} <= set(flags(0.55, "6"))
    assert "ref" not in flags(0.99, "6")  # the word read surely places the move
    assert "ref" not in flags(0.55, "14")  # the move's score


def test_a_reference_or_score_one_character_short_of_the_moves_is_flagged():
    """SE at O12 for 16, written off the boxes in a hand whose 1s are hair-thin: O2 and 6.
    SE is worth 6 at 13J, so the score read surely fits a legal move and passed. A reference
    or score that is a legal one less one character lost it to the capture; a reference one
    character short of another place of the word sends the score to the arbiter as well."""
    from vision.decode import DISAGREE, one_character_short

    assert one_character_short(6, 16) and one_character_short("O2", "O12")
    assert one_character_short(14, 142) and not one_character_short(61, 16)
    assert not one_character_short(16, 16) and not one_character_short(None, 16)
    moves = [Candidate("O12", "SE", 16), Candidate("13J", "SE", 6), Candidate("G12", "SE", 12)]
    sure = {0: {"p": 0.995}, 1: {"p": 0.995}}
    lost = group_readings(word_cells("SE", start=14, overrides=sure) + comb("ref", "O2", sure)
                          + comb("score", "6", {0: {"p": 0.995}}))
    d = decode(lost, moves)
    assert d.word.value == "SE" and d.score.value == 6 and d.ref.value == "O2"
    assert d.score.confidence <= DISAGREE and d.ref.confidence <= DISAGREE
    whole = group_readings(word_cells("SE", start=14, overrides=sure) + comb("ref", "13J", {
        0: {"p": 0.995}, 1: {"p": 0.995}, 2: {"p": 0.995}}) + comb("score", "6", {0: {"p": 0.995}}))
    d = decode(whole, moves)
    assert d.ref.value == "13J" and d.score.value == 6 and d.score.confidence > 0.95


def test_a_round_glyph_in_a_references_number_is_a_zero():
    """C10 with its 0 read « O » (the recogniser's choice between two identical shapes): the
    grammar wants a digit there, and the O's share is the 0's — never the next digit (C11)."""
    from vision.decode import read_ref

    cells = comb("ref", "C1O", {0: {"p": 0.97}, 1: {"p": 0.97}, 2: {"p": 0.9, "second": "1",
                                                                    "p2": 0.04}})
    assert read_ref(cells)[0] == "C10"


def test_a_reference_the_capture_read_short_is_matched_with_a_slip():
    """L1 whose L was lost (one cell read « 1 »): between two places of the same word and
    score (L1 and L2), the ink's 1 chooses L1 — proposed, flagged (the ink alone is no
    reference)."""
    moves = [Candidate("L2", "VINS", 28), Candidate("L1", "VINS", 28)]
    cells = comb("ref", "1", {0: {"p": 0.45, "second": "A", "p2": 0.3}})
    d = decode(group_readings(word_cells("VINS") + cells + comb("score", "28")), moves)
    assert d.ref.value == "L1" and d.ref.confidence < 0.95


def test_the_game_vouches_for_a_reference_only_as_far_as_it_is_sure_of_the_move():
    """BAIS H12 for 27 written; the 2 of H12 reads 1 (0.92), the word's cells are mostly
    unreadable and the score's 7 hesitates. BIAIS has a move at H11: the word alone points
    there, the score's ink to BAIS. The game must not make the misread H11 sure by a move
    its other fields do not back; a clear BIAIS for 24 backs the same ink as before."""
    from vision.reader import FLAG_THRESHOLD, _flags

    moves = [Candidate("H11", "BIAIS", 24), Candidate("H12", "BAIS", 27)]
    ref = comb("ref", "H11", {1: {"p": 0.955}, 2: {"p": 0.92, "second": "2", "p2": 0.067}})
    smudged = {0: {"p": 0.56}, 1: {"p": 0.16, "second": "O", "p2": 0.11}, 2: {"p": 0.99},
               3: {"p": 0.28}, 4: {"p": 0.31}, 5: {"p": 0.21}}
    score = comb("score", "27", {0: {"p": 0.79}, 1: {"p": 0.576, "second": "1", "p2": 0.35}})
    d = decode(group_readings(word_cells("ZHAVCT", overrides=smudged) + ref + score), moves)
    assert d.move == Candidate("H11", "BIAIS", 24) and d.ref.value == "H11"
    assert d.ref.confidence < FLAG_THRESHOLD and "ref" in _flags(d, FLAG_THRESHOLD)
    clear = decode(group_readings(word_cells("BIAIS") + ref + comb("score", "24")), moves)
    assert clear.ref.value == "H11" and clear.ref.confidence >= FLAG_THRESHOLD


def test_a_jokers_letter_read_unsurely_between_two_legal_words_is_flagged():
    """SaLIVE written, its circled A read O at 0.5 (A nowhere): SoLIVE is as legal, at the
    same place for the same score. The reader's runner-up letters mean little on a hand never
    seen: the word goes to the arbiter. An O read at ``JOKER_LETTER_SURE`` is trusted."""
    from vision.decode import JOKER_LETTER_SURE
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("1H", "SoLIVE", 24), Candidate("1H", "SaLIVE", 24), Candidate("1H", "SOLIVE", 27)]
    unsure = word_cells("SoLIVE", overrides={1: {"p": 0.5, "second": "U", "p2": 0.14}})
    unsure[1].probs["A"] = 0.002
    d = decode(group_readings(unsure + comb("ref", "1H") + comb("score", "24")), moves)
    assert d.word.value == "SoLIVE" and d.word.confidence < FLAG_THRESHOLD
    sure = word_cells("SoLIVE", overrides={1: {"p": JOKER_LETTER_SURE + 0.005}})
    d = decode(group_readings(sure + comb("ref", "1H") + comb("score", "24")), moves)
    assert d.word.value == "SoLIVE" and d.word.confidence >= FLAG_THRESHOLD


def test_a_plain_letter_read_unsurely_is_guessed_only_if_the_rival_letter_is_near():
    """PLUMAI written, its I read 0.56 (no circle): PLUMAS is as legal at the same place for
    the same score. Where the S gets 0.01, the reader still prefers the I fifty times over:
    read, not guessed. Where the S gets 0.2, the word hangs on that cell: flagged."""
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("H4", "PLUMAI", 22), Candidate("H4", "PLUMAS", 22)]
    tail = comb("ref", "H4") + comb("score", "22", {i: {"p": 0.99} for i in range(2)})
    far = decode(group_readings(word_cells("PLUMAI", overrides={5: {"p": 0.56, "second": "S", "p2": 0.01}})
                                + tail), moves)
    assert far.word.value == "PLUMAI" and far.word.confidence >= FLAG_THRESHOLD
    near = decode(group_readings(word_cells("PLUMAI", overrides={5: {"p": 0.56, "second": "S", "p2": 0.2}})
                                 + tail), moves)
    assert near.word.value == "PLUMAI" and near.word.confidence < FLAG_THRESHOLD


def test_a_letter_low_in_the_readers_choices_does_not_choose_between_two_legal_words():
    """PITA written, its P unreadable to this hand's reader (Q 0.22, J 0.18, G 0.12, C 0.11,
    P 0.01): CITA is as legal at the same place for the same score, and C is ten times P, but
    fourth of the reader's choices; its order there means nothing: the word is a guess,
    flagged (it was CITA, sure at 0.98). Where C is the reader's second choice (Z 0.6, C 0.3)
    and P is left sixty times behind it, it is still read at less than even odds
    (``GUESS_FLOOR``): a guess, flagged; read first at 0.55 with P as far, it is read."""
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("G3", "CITA", 9), Candidate("G3", "PITA", 9)]
    tail = word_cells("ITA", start=3) + comb("ref", "G3") + comb("score", "9", {0: {"p": 0.99}})
    fourth = decode(group_readings([spread_cell(2, {"Q": 0.22, "J": 0.18, "G": 0.12, "C": 0.11, "P": 0.01})]
                                   + tail), moves)
    assert fourth.word.value == "CITA" and fourth.word.confidence < FLAG_THRESHOLD
    second = decode(group_readings([spread_cell(2, {"Z": 0.6, "C": 0.3, "P": 0.005})] + tail), moves)
    assert second.word.value == "CITA" and second.word.confidence < FLAG_THRESHOLD
    read = decode(group_readings([spread_cell(2, {"C": 0.55, "Z": 0.35, "P": 0.005})] + tail), moves)
    assert read.word.value == "CITA" and read.word.confidence >= FLAG_THRESHOLD
    near = decode(group_readings([spread_cell(2, {"Z": 0.6, "C": 0.3, "P": 0.01})] + tail), moves)
    assert near.word.value == "CITA" and near.word.confidence < FLAG_THRESHOLD


def test_a_letter_read_at_less_than_even_odds_does_not_choose_between_two_legal_words():
    """PANSEE written under a camera shake (stress seed 420, `bouge`, DKG's hand): the S
    blurred, read N 0.38, M 0.16, W 0.12, the S at 0.002. PANNEE is as legal at 7I for the
    same 21 points, and N was 166 times S: PANNEE passed at 0.993, the player's word changed
    unseen. A letter the reader gives less than even odds is not read, whatever the ratio:
    the word is a guess, flagged. The same N read at 0.6 chooses."""
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("7I", "PANNEE", 21), Candidate("7I", "PANSEE", 21),
             Candidate("B5", "PANNEE", 12), Candidate("B5", "PANSEE", 12)]
    tail = comb("ref", "7I") + comb("score", "21", {i: {"p": 0.99} for i in range(2)})
    head, end = word_cells("PAN", start=2), word_cells("EE", start=6)

    def read(probs: dict[str, float]):
        return decode(group_readings(head + [spread_cell(5, probs)] + end + tail), moves)

    blurred = read({"N": 0.38, "M": 0.16, "W": 0.12, "V": 0.05, "S": 0.002})
    assert blurred.word.value == "PANNEE" and blurred.word.confidence < FLAG_THRESHOLD
    clear = read({"N": 0.6, "M": 0.16, "W": 0.12, "S": 0.002})
    assert clear.word.value == "PANNEE" and clear.word.confidence >= FLAG_THRESHOLD


def test_a_letter_on_its_boxs_side_rule_does_not_choose_between_two_legal_words():
    """MORES written wide in DKG's hand (stress seed 268, `lettres_larges`), the O's left side
    on the rule on its left, erased with it: U at 0.954, O next at 0.012, and MURES is as legal
    at the same place for the same score: it passed at 0.988. A letter reaching its box's side
    rule is not read surely enough to choose, where the rival's letter is the reader's next;
    away from the rules, or with the rival's letter far behind, it is read."""
    from dataclasses import replace

    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("9K", "MURES", 19), Candidate("9K", "MORES", 19)]
    tail = comb("ref", "9K") + comb("score", "19", {i: {"p": 0.99} for i in range(2)})
    letters = word_cells("MURES", overrides={1: {"p": 0.954, "second": "O", "p2": 0.012}})
    away = decode(group_readings(letters + tail), moves)
    assert away.word.value == "MURES" and away.word.confidence >= FLAG_THRESHOLD
    letters[1] = replace(letters[1], on_side_rule=True)
    on_rule = decode(group_readings(letters + tail), moves)
    assert on_rule.word.value == "MURES" and on_rule.word.confidence < FLAG_THRESHOLD
    far = word_cells("MURES", overrides={1: {"p": 0.954, "second": "D", "p2": 0.012}})
    far[1] = replace(far[1], on_side_rule=True)
    far[1].probs["O"] = 0.0005
    behind = decode(group_readings(far + tail), moves)
    assert behind.word.value == "MURES" and behind.word.confidence >= FLAG_THRESHOLD


def test_a_raccord_read_short_where_the_grid_has_more_letters_is_flagged():
    """No reference, a raccord of two letters A S written under VAGUEZ; the capture lost the
    S. One letter is a sanctioned raccord: where the grid beside the move has a letter the
    reading lacks, the arbiter confirms. Where it has none, the short raccord is as written;
    with a reference read, the raccord's length decides nothing."""
    from engine.board import Board
    from vision.reader import FLAG_THRESHOLD, _flags

    board = Board()
    for i, ch in enumerate("AS"):  # A S at H4..H5, under the word placed at G4
        board.cells[7][3 + i] = ch
    moves = [Candidate("G4", "VAGUEZ", 36), Candidate("I4", "VAGUEZ", 36)]
    base = word_cells("VAGUEZ", start=3) + comb("score", "36")
    a_below = cell("grid:2:3", 3, "A", p=0.99, row=2)
    s_below = cell("grid:2:4", 4, "S", p=0.99, row=2)
    lost = decode(group_readings(base + [a_below]), moves, board)
    assert lost.move == Candidate("G4", "VAGUEZ", 36) and lost.raccord == "A"
    assert "raccord" in _flags(lost, FLAG_THRESHOLD)
    both = decode(group_readings(base + [a_below, s_below]), moves, board)
    assert both.raccord == "AS" and "raccord" not in _flags(both, FLAG_THRESHOLD)
    board.cells[7][4] = None  # only the A beside the word: nothing else could be written
    alone = decode(group_readings(base + [a_below]), moves, board)
    assert alone.raccord == "A" and "raccord" not in _flags(alone, FLAG_THRESHOLD)
    board.cells[7][4] = "S"
    with_ref = decode(group_readings(base + [a_below] + comb("ref", "G4")), moves, board)
    assert "raccord" not in _flags(with_ref, FLAG_THRESHOLD)


ASSOL = [Candidate("M7", "ASSOLEE", 16), Candidate("M8", "ASSOLE", 12), Candidate("M8", "ASSOLEE", 14)]


def test_an_empty_box_inside_the_word_is_a_letter_lost_and_the_word_is_guessed():
    # ASSOLEE in pencil, its sixth E too faint to cut: the cells read A S S O L · E; aligning
    # them as they come made ASSOLE sure. The empty box is a letter the ink does not tell.
    cells = [c for c in word_cells("ASSOLEE") if c.col != 7]
    readings = group_readings(cells + comb("ref", "M7") + comb("score", "16"))
    assert readings.lost == (7,)
    assert [c.col for c in readings.word] == [2, 3, 4, 5, 6, 7, 8]
    assert readings.word[5].unread and not readings.word[4].unread
    d = decode(readings, ASSOL)
    assert d.word.value == "ASSOLEE" and d.ref.value == "M7" and d.score.value == 16
    assert d.word.confidence <= 0.85  # one letter is the game's guess: for the arbiter
    # without the game the letters are those seen (the lost one is not made up)
    assert decode(readings).word.value == "ASSOLE"


def test_a_mark_far_from_the_word_is_no_lost_letter():
    # a speck read S three boxes before PUE: no letters lost in between, the word is PUE
    cells = [cell("grid:1:2", 2, "S", 0.45)] + word_cells("PUE", start=7)
    readings = group_readings(cells + comb("ref", "M1") + comb("score", "20"))
    assert readings.lost == ()
    d = decode(readings, [Candidate("M1", "PUE", 20), Candidate("M2", "PUES", 22)])
    assert d.word.value == "PUE"


def test_a_mark_one_box_from_the_word_may_be_a_speck():
    # S · P U E: a lost letter (S?PUE, no such move) or a speck beside PUE: PUE, flagged
    cells = [cell("grid:1:2", 2, "S", 0.45)] + word_cells("PUE", start=4)
    readings = group_readings(cells + comb("ref", "M1") + comb("score", "20"))
    assert readings.lost == (3,)
    d = decode(readings, [Candidate("M1", "PUE", 20)])
    assert d.word.value == "PUE" and d.word.confidence <= 0.85


def test_a_digit_the_whole_game_backs_is_sure_only_where_the_ink_reads_it_surely():
    # MAISONS H4 read surely; the score's 7 of 70 read at 0.97 (1 at 0.02): the word and the
    # reference back the move, the ink favours its score: sure. Read at 0.45 (1 at 0.2), the
    # ink's own confidence stands (10 written, a miscount read as the move's 70, would pass);
    # a 7 read as likely as a 1 (0.28 / 0.27) stays for the arbiter as well.
    moves = MOVES + [Candidate("H4", "MAISONs", 10)]
    base = word_cells("MAISONS") + comb("ref", "H4")
    clear = {0: {"p": 0.97, "second": "1", "p2": 0.02}, 1: {"p": 0.98}}
    d = decode(group_readings(base + comb("score", "70", clear)), moves)
    assert d.score.value == 70 and d.score.confidence >= 0.95
    hesitant = {0: {"p": 0.45, "second": "1", "p2": 0.2}}
    d = decode(group_readings(base + comb("score", "70", hesitant)), moves)
    assert d.score.value == 70 and d.score.confidence < 0.95
    even = {0: {"p": 0.28, "second": "1", "p2": 0.27}}
    d = decode(group_readings(base + comb("score", "70", even)), moves)
    assert d.score.value == 70 and d.score.confidence <= 0.5


def test_a_word_placed_nowhere_flags_its_reference_and_its_raccord():
    """Neither a reference nor a raccord letter read: either may be what the capture lost
    (a raccord I too pale), so both are for the arbiter."""
    from vision.reader import _flags

    d = decode(group_readings(word_cells("MAISONS") + comb("score", "70")), MOVES)
    assert {"ref", "raccord"} <= set(_flags(d, 0.95))


def test_a_doubtful_last_cell_that_makes_another_legal_word_is_a_guess():
    """MER in wide strokes, the R's leg spilling into the next box, read M E R J (J at 0.21):
    MERS at the same place fits the four cells; the written score fits neither move. The
    word hangs on that last cell: flagged, not sure."""
    moves = [Candidate("2E", "MER", 19), Candidate("2E", "MERS", 20)]
    cells = word_cells("MERS", overrides={3: {"p": 0.21, "second": "S", "p2": 0.1}})
    cells[3].probs["J"], cells[3].probs["S"] = cells[3].probs["S"], cells[3].probs["J"]
    d = decode(group_readings(cells + comb("ref", "2E") + comb("score", "9")), moves)
    assert d.word.value == "MERS" and d.word.confidence <= 0.85
    # the S read surely: MERS is what is written
    d = decode(group_readings(word_cells("MERS") + comb("ref", "2E") + comb("score", "9")), moves)
    assert d.word.value == "MERS" and d.word.confidence > 0.95


def test_a_doubtful_last_cell_counted_in_a_sure_score_is_a_letter():
    """PLEINS in a hand never seen, its S read at 0.49: PLEIN is legal on the same squares,
    but the score, read surely, is PLEINS's 20 and not PLEIN's 19 — the player counted the
    letter, which a speck or half a letter is not. The word is not a guess; the same score
    read in doubt, or one that fits neither move, leaves it one."""
    moves = [Candidate("2E", "PLEIN", 19), Candidate("2E", "PLEINS", 20)]
    doubtful_s = {5: {"p": 0.49, "second": "B", "p2": 0.2}}
    sure = {0: {"p": 0.99}, 1: {"p": 0.99}}

    def read(score: str, digits: dict) -> float:
        cells = word_cells("PLEINS", overrides=doubtful_s) + comb("ref", "2E", overrides=sure)
        d = decode(group_readings(cells + comb("score", score, overrides=digits)), moves)
        assert d.word.value == "PLEINS"
        return d.word.confidence

    assert read("20", sure) > 0.95
    assert read("20", {0: {"p": 0.99}, 1: {"p": 0.8, "second": "6", "p2": 0.15}}) <= 0.85
    assert read("21", sure) <= 0.85  # a miscount: the score settles nothing
    assert read("19", sure) <= 0.85  # PLEIN's own score: the S may be a speck


def test_a_joker_the_circle_reader_surely_did_not_see_is_the_arbiters():
    """ELIS with no circle (circled 0.001 on every cell), the score 21 written: the move ELIs
    (21) explains the score better than ELIS (24), but the ink shows no circle — the game may
    not draw one: the jokers are flagged."""
    moves = [Candidate("M1", "ELIS", 24), Candidate("M1", "ELIs", 21)]
    cells = word_cells("ELIS")
    for c in cells:
        c.circled = 0.001
    d = decode(group_readings(cells + comb("ref", "M1") + comb("score", "21")), moves)
    assert d.word.value == "ELIs" and d.jokers_confidence <= 0.5


def test_jokers_read_beside_an_unread_score_are_the_arbiters():
    """GOBE written, its O large and round: the circle reader sees a circle (0.999), the score
    42 is lost in the capture (one digit read, unsurely). Nothing checks the circle — GoBE (20)
    and GOBE (21) differ only by it — so the jokers are no surer than the score; with the score
    read, the same circle passes on its own. Without circles to choose (no joker in the tirage:
    no legal move with one), an unread score leaves the jokers alone."""
    from vision.reader import FLAG_THRESHOLD, _flags

    moves = [Candidate("D6", "GOBE", 21), Candidate("D6", "GoBE", 20)]
    cells = word_cells("GoBE")
    cells[1].circled = 0.999
    lost = decode(group_readings(cells + comb("ref", "D6") + comb("score", "8", {0: {"p": 0.35}})), moves)
    assert lost.word.value == "GoBE" and lost.jokers_confidence <= lost.score.confidence < FLAG_THRESHOLD
    assert {"score", "jokers"} <= set(_flags(lost, FLAG_THRESHOLD))
    sure = {i: {"p": 0.99} for i in range(2)}
    read = decode(group_readings(cells + comb("ref", "D6") + comb("score", "20", sure)), moves)
    assert read.word.value == "GoBE" and read.score.confidence >= FLAG_THRESHOLD
    assert "jokers" not in _flags(read, FLAG_THRESHOLD)
    unsure = comb("score", "8", {0: {"p": 0.35}})
    only_plain = [Candidate("D6", "GOBE", 21)]
    plain = decode(group_readings(word_cells("GOBE") + comb("ref", "D6") + unsure), only_plain)
    assert plain.word.value == "GOBE" and plain.jokers_confidence >= FLAG_THRESHOLD
    assert "jokers" not in _flags(plain, FLAG_THRESHOLD)


def _table_conf(word, ref, score, table, moves, tables=range(1, 201)):
    return decode(group_readings(word_cells(word) + comb("ref", ref) + comb("score", score)
                                 + comb("table", table, {i: {"p": 0.99} for i in range(3)})),
                  moves, tables=list(tables), table_hidden=False).table


def test_a_capture_that_lost_characters_elsewhere_may_have_lost_a_table_digit():
    """Table 83 in pencil read 8, while the reference M2 came out as one character and the
    score 25 as one digit: this capture is losing characters, 83 (or 80–89) fits as well."""
    moves = [Candidate("M2", "SADD", 25)]
    lossy = _table_conf("SADD", "7", "1", "8", moves)
    assert lossy.value == 8 and lossy.confidence <= 0.5
    whole = _table_conf("SADD", "M2", "25", "8", moves)
    assert whole.value == 8 and whole.confidence > 0.95


def test_a_digit_the_game_shows_misread_elsewhere_makes_the_table_doubtful():
    """The same hand's 8 read 1 in the reference (M8 read M1, the move is at M8): the table
    read 11 may be 18."""
    moves = [Candidate("M8", "VU", 16)]
    assert _table_conf("VU", "M1", "16", "11", moves).confidence <= 0.5
    assert _table_conf("VU", "M8", "16", "11", moves).confidence > 0.95


def test_a_joker_placed_by_a_circle_the_reader_doubts_is_the_arbiters():
    """GUEZE with a joker, its last E circled in pale colour ink the circle reader missed
    (0.001), the other E read circled at 0.36: both placements are legal for the same score,
    and the circles put the joker where the reader more likely sees none. The jokers are
    flagged; a circle read at 0.9 passes."""
    from vision.reader import FLAG_THRESHOLD, _flags

    moves = [Candidate("N1", "GUeZE", 28), Candidate("N1", "GUEZe", 28)]
    sure = {i: {"p": 0.99} for i in range(2)}

    def read(circled: float):
        cells = word_cells("GUEZE")
        cells[2].circled, cells[4].circled = circled, 0.001
        return decode(group_readings(cells + comb("ref", "N1") + comb("score", "28", sure)), moves)

    doubted = read(0.36)
    assert doubted.word.value == "GUeZE" and "jokers" in _flags(doubted, FLAG_THRESHOLD)
    seen = read(0.9)
    assert seen.word.value == "GUeZE" and "jokers" not in _flags(seen, FLAG_THRESHOLD)


def test_a_jokers_letter_unchecked_by_the_score_must_be_read_surely():
    """BEtES, the T inside its circle read D at 0.977: BEdES is legal at the same place for
    the same 28 points (a joker scores nothing), so only the ink tells the letter, muddled by
    the circle's. The word is flagged unless that letter is read at ``JOKER_LETTER_SURE``;
    with no rival joker letter legal there, it passes."""
    from vision.reader import FLAG_THRESHOLD, _flags

    sure = {i: {"p": 0.99} for i in range(2)}

    def read(p: float, moves):
        cells = word_cells("BEDES", overrides={2: {"p": p, "second": "T", "p2": 0.005}})
        cells[2].circled = 0.9
        return decode(group_readings(cells + comb("ref", "11D") + comb("score", "28", sure)), moves)

    rivals = [Candidate("11D", "BEdES", 28), Candidate("11D", "BEtES", 28)]
    muddled = read(0.977, rivals)
    assert muddled.word.value == "BEdES" and "word" in _flags(muddled, FLAG_THRESHOLD)
    clear = read(0.995, rivals)
    assert clear.word.value == "BEdES" and "word" not in _flags(clear, FLAG_THRESHOLD)
    alone = read(0.977, [Candidate("11D", "BEdES", 28)])
    assert alone.word.value == "BEdES" and "word" not in _flags(alone, FLAG_THRESHOLD)


def test_a_rival_word_the_place_and_score_cannot_tell_apart_needs_a_surer_reading():
    """FEU written at E10 for 23 in pencil, its U read E at 0.97, U 0.029: FEE is worth 23
    at E10 too, so only the ink tells the two words apart, and a hand never seen can be
    read wrong and sure. The word is flagged while the rival keeps ``WORD_RIVAL`` of its
    posterior; read fifty times likelier than the rival, or with no rival there, it passes."""
    from vision.reader import FLAG_THRESHOLD, _flags

    sure = {i: {"p": 0.99} for i in range(3)}

    def read(p2: float, moves):
        cells = word_cells("FEE", overrides={2: {"p": 0.97, "second": "U", "p2": p2}})
        return decode(group_readings(cells + comb("ref", "E10", sure) + comb("score", "23", sure)), moves)

    rivals = [Candidate("E10", "FEE", 23), Candidate("E10", "FEU", 23), Candidate("B8", "FEU", 8)]
    close = read(0.029, rivals)
    assert close.word.value == "FEE" and "word" in _flags(close, FLAG_THRESHOLD)
    clear = read(0.005, rivals)
    assert clear.word.value == "FEE" and "word" not in _flags(clear, FLAG_THRESHOLD)
    alone = read(0.029, [Candidate("E10", "FEE", 23), Candidate("B8", "FEU", 8)])
    assert alone.word.value == "FEE" and "word" not in _flags(alone, FLAG_THRESHOLD)


def test_a_word_the_score_chose_against_the_ink_is_flagged():
    """MUEE written at N7 for 21 (it is worth 20: a miscount), its M read Y 0.62, V 0.25,
    M 0.05, P 0.008. PUEE at N7 is worth 21: the score, not the ink, picks PUEE, and a
    miscount would make it pick wrong, unseen. The word goes to the arbiter. Where the ink
    and the score agree (a P read P), the word is trusted."""
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("N7", "PUEE", 21), Candidate("N7", "MUEE", 20), Candidate("N6", "PUEE", 21)]
    first = {"p": 0.62, "second": "V", "p2": 0.25}
    sure = {0: {"p": 0.97}, 1: {"p": 0.97}}
    cells = word_cells("YUEE", overrides={0: first, 1: {"p": 0.97}, 2: {"p": 0.97}, 3: {"p": 0.97}})
    cells[0].probs["M"], cells[0].probs["P"] = 0.05, 0.008
    d = decode(group_readings(cells + comb("ref", "N7", sure) + comb("score", "21", sure)), moves)
    assert d.word.value == "PUEE" and d.word.confidence < FLAG_THRESHOLD
    clear = word_cells("PUEE", overrides={i: {"p": 0.97} for i in range(4)})
    d = decode(group_readings(clear + comb("ref", "N7", sure) + comb("score", "21", sure)), moves)
    assert d.word.value == "PUEE" and d.word.confidence >= FLAG_THRESHOLD


def test_a_score_that_chose_the_word_against_the_ink_is_flagged_with_it():
    """BUT written at 15F for 39 under a camera shake, its 9 read 3 at 0.99: EUT is worth 33
    there, so the score chose EUT against the ink's B. The word was flagged, the score not:
    the arbiter mending the word to BUT would keep 33, a miscount no one made. Where the
    score and the ink agree, the score stays as sure as it reads."""
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("15F", "BUT", 39), Candidate("15F", "EUT", 33), Candidate("G6", "BUT", 8)]
    sure = {i: {"p": 0.99} for i in range(3)}
    cells = word_cells("BUT", overrides={0: {"p": 0.55, "second": "E", "p2": 0.4}, 1: {"p": 0.99},
                                          2: {"p": 0.99}})

    def read(score: str):
        return decode(group_readings(cells + comb("ref", "15F", sure) + comb("score", score, sure)), moves)

    shaken = read("33")
    assert shaken.word.value == "EUT" and shaken.word.confidence < FLAG_THRESHOLD
    assert shaken.score.value == 33 and shaken.score.confidence < FLAG_THRESHOLD
    agreed = read("39")
    assert agreed.word.value == "BUT" and agreed.score.confidence >= FLAG_THRESHOLD


def test_a_score_that_fits_another_word_at_the_same_place_flags_the_word():
    """DOSEE written at 10F for its 20 points, its two E's read as struck letters: DOS,
    worth 16 there, beside a score of 20 read surely. The score alone flagged, the arbiter
    would put 16 and lose the player his top: the word goes to him too. A score that fits
    no other word there flags the score only."""
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("10F", "DOSEE", 20), Candidate("10F", "DOS", 16), Candidate("10F", "DOSE", 17),
             Candidate("I3", "DOSEE", 19)]
    sure = {0: {"p": 0.98}, 1: {"p": 0.98}, 2: {"p": 0.98}}
    word = word_cells("DOS", overrides=sure)

    def read(score: str):
        return decode(group_readings(word + comb("ref", "10F", sure) + comb("score", score, sure)), moves)

    d = read("20")
    assert d.word.value == "DOS" and d.word.confidence < FLAG_THRESHOLD
    assert d.score.value == 20 and d.score.confidence < FLAG_THRESHOLD
    assert read("16").word.confidence >= FLAG_THRESHOLD
    other = read("21")
    assert other.word.confidence >= FLAG_THRESHOLD and other.score.confidence < FLAG_THRESHOLD


def test_a_score_that_fits_the_same_word_at_another_place_flags_the_reference():
    """DURERA written at H8 for its 16 points under a camera shake, the 8 cut as a 5 and read
    so at 0.98: DURERA is worth 14 at H5, so the 16 reads as the player's miscount and H5
    passed, sure. Both stories fit (a place misread, or a count missed): the reference goes
    to the arbiter with the score. A score that fits the word at no other place leaves the
    reference as read."""
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("H8", "DURERA", 16), Candidate("H5", "DURERA", 14), Candidate("H4", "DURERA", 18),
             Candidate("H8", "DURER", 14)]
    sure = {i: {"p": 0.98} for i in range(6)}
    word = word_cells("DURERA", overrides=sure)

    def read(score: str):
        return decode(group_readings(word + comb("ref", "H5", sure) + comb("score", score, sure)), moves)

    d = read("16")
    assert d.ref.value == "H5" and d.ref.confidence < FLAG_THRESHOLD
    assert d.score.value == 16 and d.score.confidence < FLAG_THRESHOLD
    assert read("14").ref.confidence >= FLAG_THRESHOLD
    other = read("17")
    assert other.ref.confidence >= FLAG_THRESHOLD and other.score.confidence < FLAG_THRESHOLD


def test_a_place_only_the_ink_tells_needs_each_differing_character_read_surely():
    """ADOREE written at H7 for 16 under a camera shake, its barred 7 read 4 at 0.85 (H 0.11,
    7 0.006): ADOREE is worth 16 at H4, H7 and H8, so word and score cannot tell the places
    apart, and H4's share among references (no letter stands there) was 0.97, unflagged. A
    differing character read under ``REF_CELL_SURE`` flags the reference; read surely, or
    where the word is worth the same at no other place, it passes."""
    from vision.decode import REF_CELL_SURE
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("H4", "ADOREE", 16), Candidate("H7", "ADOREE", 16), Candidate("H8", "ADOREE", 16),
             Candidate("H3", "ADOREE", 18), Candidate("H4", "ADORE", 14)]
    sure = {i: {"p": 0.98} for i in range(6)}
    word = word_cells("ADOREE", overrides=sure) + comb("score", "16", sure)

    def read(p: float, moves=moves):
        ref = comb("ref", "H4", {0: {"p": 0.99}, 1: {"p": p, "second": "H", "p2": 0.106}})
        return decode(group_readings(word + ref), moves)

    assert 0.85 < REF_CELL_SURE
    shaken = read(0.847)
    assert shaken.ref.value == "H4" and shaken.ref.confidence < FLAG_THRESHOLD
    assert read(0.93).ref.confidence >= FLAG_THRESHOLD
    alone = read(0.847, [m for m in moves if m.ref not in ("H7", "H8")])
    assert alone.ref.value == "H4" and alone.ref.confidence >= FLAG_THRESHOLD


def test_a_reference_character_read_otherwise_with_its_faded_ink_leaves_a_twin_place_open():
    """H8 in hard pencil (stress seed 504), the 8's upper right stroke faded: H6 at 0.97,
    and OUIRENT is worth 66 at H8, H6 and H4 on the first coup's empty board. Seen with its
    faded ink the 6 read 8 (``faded_otherwise``): the place rests on that cell alone, so the
    reference is flagged. Where the word is worth its score at no place differing in that
    cell, the game places it and the reference passes; so does it when only a cell the
    places share was read otherwise; with no legal move to vouch for it, it is flagged as
    every field then is."""
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("H8", "OUIRENT", 66), Candidate("H6", "OUIRENT", 66),
             Candidate("H4", "OUIRENT", 66), Candidate("H5", "OUIRENT", 64),
             Candidate("8H", "ROUTINE", 70)]
    sure = {i: {"p": 0.98} for i in range(7)}
    word = word_cells("OUIRENT", overrides=sure) + comb("score", "66", sure)

    def read(faded: set[int], moves=moves):
        ref = comb("ref", "H6", {0: {"p": 0.99}, 1: {"p": 0.97}})
        for i in faded:
            ref[i].faded_otherwise = True
        return decode(group_readings(word + ref), moves)

    assert read(set()).ref.value == "H6" and read(set()).ref.confidence >= FLAG_THRESHOLD
    pencil = read({1})
    assert pencil.ref.value == "H6" and pencil.ref.confidence < FLAG_THRESHOLD
    settled = read({1}, [m for m in moves if m.ref in ("H6", "H5", "8H")])
    assert settled.ref.value == "H6" and settled.ref.confidence >= FLAG_THRESHOLD
    assert read({0}).ref.confidence >= FLAG_THRESHOLD  # the H: H8 and H4 share it
    unplaced = read({1}, [m for m in moves if m.word == "ROUTINE"])
    assert unplaced.move is None or unplaced.move.word != "OUIRENT"
    assert unplaced.ref.confidence < FLAG_THRESHOLD


def test_a_score_digit_read_unsurely_is_not_made_sure_by_the_move():
    """KEPI written at 15G for 48 (it is worth 45: a miscount, which the player answers for),
    the 8 read 5 at 0.86, 8 at 0.02: the move's 45 agreed with the ink and made it sure at
    0.9997, the miscount gone unseen. A digit read under ``SCORE_DIGIT_SURE`` is left at the
    ink's own confidence; a 5 read surely is still confirmed by the move."""
    from vision.decode import SCORE_DIGIT_SURE
    from vision.reader import FLAG_THRESHOLD

    moves = [Candidate("15G", "KEPI", 45), Candidate("15G", "KIR", 36)]
    sure = {i: {"p": 0.98} for i in range(4)}
    word = word_cells("KEPI", overrides=sure) + comb("ref", "15G", sure)
    unsure = comb("score", "45", {0: {"p": 0.977}, 1: {"p": 0.86, "second": "3", "p2": 0.074}})
    d = decode(group_readings(word + unsure), moves)
    assert d.score.value == 45 and d.score.confidence < FLAG_THRESHOLD
    # in hard pencil the 8 read 5 at 0.905 (3 at 0.04), the 4 at 0.96: each digit over
    # 0.9, but the score read as a whole under it
    pencil = comb("score", "45", {0: {"p": 0.96}, 1: {"p": 0.905, "second": "3", "p2": 0.04}})
    d = decode(group_readings(word + pencil), moves)
    assert d.score.value == 45 and d.score.confidence < FLAG_THRESHOLD
    clear = comb("score", "45", {0: {"p": 0.98}, 1: {"p": SCORE_DIGIT_SURE + 0.05}})
    d = decode(group_readings(word + clear), moves)
    assert d.score.value == 45 and d.score.confidence >= FLAG_THRESHOLD


def test_the_table_which_the_game_does_not_check_needs_a_surer_reading():
    """58 in DKG's hand, the 8 slanted, its upper loop a mere crossing: read 50 at 0.958 in
    seven conditions. Nothing of the game checks a table (a wrong one credits another
    player): it passes from ``FLAG_THRESHOLD + TABLE_EXTRA``; the other fields, which the
    game checks, from the threshold."""
    from dataclasses import replace

    from vision.decode import FieldValue
    from vision.reader import FLAG_THRESHOLD, TABLE_EXTRA, _flags

    d = decode(group_readings(word_cells("MAISONS") + comb("ref", "H4") + comb("score", "70")
                              + comb("table", "50")), MOVES)
    between = FLAG_THRESHOLD + TABLE_EXTRA / 2
    d = replace(d, table=FieldValue(50, between), word=FieldValue("MAISONS", between),
                ref=FieldValue("H4", 1.0), score=FieldValue(70, 1.0), jokers_confidence=1.0)
    assert _flags(d, FLAG_THRESHOLD) == ["table"]  # the word as sure passes
    sure = replace(d, table=FieldValue(50, FLAG_THRESHOLD + TABLE_EXTRA))
    assert _flags(sure, FLAG_THRESHOLD) == []


def test_a_reference_or_score_in_doubt_shows_the_arbiter_its_likeliest_value():
    """PERCAT written at 8A for 30 in pale violet, the 8 read 6 at 0.9: 6A stayed the reading,
    flagged, while ink and game together put 8A at 0.996. A field in doubt shows the
    arbiter its likeliest value, the ink's reading kept among the alternatives; a miscount
    the ink reads surely (45 written for 48) stays as written, and a field not in doubt is
    left alone."""
    from vision.reader import _likeliest_in_doubt

    moves = [Candidate("8A", "PERCAT", 30), Candidate("H4", "PERCAT", 26), Candidate("B2", "CAPTER", 24)]
    sure = {i: {"p": 0.995} for i in range(6)}
    word = word_cells("PERCAT", overrides=sure)
    six = {0: {"p": 0.9, "second": "8", "p2": 0.08}, 1: {"p": 0.995}}
    d = decode(group_readings(word + comb("ref", "6A", six) + comb("score", "30", sure)), moves)
    assert (d.ref.value, d.move.ref) == ("6A", "8A") and d.ref.confidence < 0.95
    _likeliest_in_doubt(d, ["ref"])
    assert (d.ref.value, d.sens) == ("8A", "v") and d.ref.confidence <= 0.5
    assert "6A" in dict(d.ref.alternatives)
    left = decode(group_readings(word + comb("ref", "6A", six) + comb("score", "30", sure)), moves)
    _likeliest_in_doubt(left, ["score"])
    assert left.ref.value == "6A"  # not in doubt: as decoded

    five = {0: {"p": 0.995}, 1: {"p": 0.9, "second": "0", "p2": 0.08}}
    d = decode(group_readings(word + comb("ref", "8A", sure) + comb("score", "35", five)), moves)
    assert d.score.value == 35 and d.score.confidence < 0.95
    _likeliest_in_doubt(d, ["score"])
    assert d.score.value == 30 and 35 in dict(d.score.alternatives)

    miscount = decode(group_readings(word + comb("ref", "8A", sure) + comb("score", "34", sure)), moves)
    assert miscount.score.value == 34 and miscount.score.confidence < 0.95
    _likeliest_in_doubt(miscount, ["score"])
    assert miscount.score.value == 34  # read surely: the player's miscount, as written


def test_raccord_letters_in_doubt_show_the_arbiter_the_grid_letters_ink_and_grid_agree_on():
    """LOCH in DKG's pencil (bench bulletin 21016), its raccord E and L: the L read Z at 0.57,
    L at 0.40, and the raccord flagged showed EZ. The player copies the grid's letters:
    where the move's grid has one under a raccord letter and the ink gives it a fair share,
    the arbiter is first shown it; a letter the ink surely reads otherwise, a stray mark
    where the grid has none, and a raccord not in doubt stay as read."""
    from engine.board import Board
    from vision.decode import likeliest_raccord
    from vision.reader import _likeliest_in_doubt

    board = Board()
    for i, ch in enumerate("CHAT"):  # CHAT at H4..H7
        board.cells[7][3 + i] = ch
    moves = [Candidate("G4", "RIEN", 12), Candidate("I4", "RIEN", 12)]
    base = word_cells("RIEN", start=3) + comb("ref", "G4") + comb("score", "12")
    c_below = cell("grid:2:3", 3, "C", p=0.97, row=2)
    h_as_z = cell("grid:2:4", 4, "Z", p=0.57, second="H", p2=0.4, row=2)
    d = decode(group_readings(base + [c_below, h_as_z]), moves, board)
    assert d.move.ref == "G4" and d.raccord == "CZ" and d.raccord_likeliest == "CH"
    _likeliest_in_doubt(d, ["raccord"])
    assert d.raccord == "CH"
    kept = decode(group_readings(base + [c_below, h_as_z]), moves, board)
    _likeliest_in_doubt(kept, ["score"])
    assert kept.raccord == "CZ"  # not in doubt: as read

    sure_z = cell("grid:2:4", 4, "Z", p=0.999, row=2)  # H at 3e-5: not the H
    stray = cell("grid:2:14", 14, "I", p=0.6, second="E", p2=0.3, row=2)  # no grid letter
    readings = group_readings(base + [c_below, sure_z, stray])
    assert likeliest_raccord(readings.raccord, moves[0], board) == "CZI"


def test_a_score_whose_digit_was_cut_in_two_shows_the_moves_score_to_the_arbiter():
    """PETAGES at 4F for 20 in Breip's hand: the 0 cut in two, read 9 (0.28) and 1 (0.80),
    the score read 291, flagged; the move's 20 only fitted a reading of as many cells. The
    arbiter is shown 20, the likelier once a cell may be a piece of a digit; the reading
    itself, and its doubt, are unchanged."""
    from vision.reader import _likeliest_in_doubt

    moves = [Candidate("4F", "PETAGES", 20), Candidate("H4", "PETAGES", 18)]
    sure = {i: {"p": 0.995} for i in range(7)}
    split = {0: {"p": 0.98}, 1: {"p": 0.28, "second": "1", "p2": 0.25},
             2: {"p": 0.8, "second": "0", "p2": 0.17}}
    place = comb("ref", "4F", {0: {"p": 0.995}, 1: {"p": 0.995}})
    groups = group_readings(word_cells("PETAGES", overrides=sure) + place + comb("score", "291", split))
    d = decode(groups, moves)
    assert d.score.value == 291 and d.score.confidence <= 0.5
    alternatives = dict(d.score.alternatives)
    assert alternatives[20] > alternatives[291] and sum(alternatives.values()) <= 1.0
    _likeliest_in_doubt(d, ["score"])
    assert d.score.value == 20


def test_a_box_with_ink_where_nothing_was_read_shows_the_moves_value():
    """VERMEIL at 6B for 20 in 2H pencil (bench bulletin 8199): ink seen in the score box,
    nothing cut from it, the score unread and flagged. The arbiter is shown the move's 20,
    the only value the game gives, at no confidence; a box with no ink at all (a
    reference left out for a raccord, a score not written) stays empty."""
    from vision.decode import FieldValue
    from vision.reader import _likeliest_in_doubt

    moves = [Candidate("6B", "VERMEIL", 20), Candidate("H4", "VERMEIL", 22)]
    sure = {i: {"p": 0.995} for i in range(7)}
    groups = group_readings(word_cells("VERMEIL", overrides=sure) + comb("ref", "6B"))
    d = decode(groups, moves)
    assert d.score.value is None and d.move.score == 20
    _likeliest_in_doubt(d, ["score"], {"grid", "ref", "score"})
    assert d.score.value == 20 and d.score.confidence == 0.0
    blank = decode(groups, moves)
    _likeliest_in_doubt(blank, ["score"], {"grid", "ref"})
    assert blank.score.value is None

    placed = decode(group_readings(word_cells("VERMEIL", overrides=sure) + comb("score", "20")), moves)
    assert placed.ref.value is None and placed.move.ref == "6B"
    _likeliest_in_doubt(placed, ["ref"], {"grid", "ref", "score"})
    assert (placed.ref.value, placed.sens) == ("6B", "v")
    placed.ref, placed.raccord = FieldValue(None, 1.0), "AER"
    _likeliest_in_doubt(placed, ["ref"], {"grid", "ref", "score"})
    assert placed.ref.value is None  # placed by its raccord: a trace in the box is no reference


def test_a_stray_piece_of_a_digit_read_surely_still_leaves_the_moves_score_likelier():
    """HABLEZ at D1 for 28 in 2H pencil (Delphine, bench bulletin 8195): a piece of the 2
    cut off and read 1, the score read 128 with every cell sure. Read as three digits, 128
    is likelier than any other three-digit score; but 28 with one cell a piece of a digit
    explains the ink better still, and is what the arbiter is shown (the ink's 128 was
    capped under it before, however well 28 fitted)."""
    from vision.reader import _likeliest_in_doubt

    moves = [Candidate("D1", "HABLEZ", 28), Candidate("H4", "HABLEZ", 30)]
    sure = {i: {"p": 0.995} for i in range(6)}
    place = comb("ref", "D1", {0: {"p": 0.995}, 1: {"p": 0.995}})
    pieces = {0: {"p": 0.9}, 1: {"p": 0.99}, 2: {"p": 0.99}}
    cells = word_cells("HABLEZ", overrides=sure) + place + comb("score", "128", pieces)
    d = decode(group_readings(cells), moves)
    assert d.score.value == 128 and d.score.confidence <= 0.5
    alternatives = dict(d.score.alternatives)
    assert alternatives[28] > alternatives[128] and sum(alternatives.values()) <= 1.0
    _likeliest_in_doubt(d, ["score"])
    assert d.score.value == 28


def test_a_score_or_reference_that_lost_a_character_shows_the_moves_value():
    """LIKE placed by its raccord for 32 in Delphine's hand (bench bulletin 8265): the 3 lost
    by the capture, the score read 2, surely, flagged (one character short of the move's).
    The ink alone made 2 likelier than 32, and the arbiter was shown 2; a capture losing a
    digit is far likelier than a player writing exactly one digit less than his move's
    score, so he is shown 32, the ink's 2 among the alternatives. The same for a reference
    (O2 for O12). A score read surely as another number of the same length stays as
    written (a miscount)."""
    from vision.reader import _likeliest_in_doubt

    moves = [Candidate("O12", "LIKE", 32), Candidate("H4", "LIKE", 18)]
    sure = {i: {"p": 0.995} for i in range(4)}
    word = word_cells("LIKE", overrides=sure)
    d = decode(group_readings(word + comb("ref", "O2", sure) + comb("score", "2", sure)), moves)
    assert (d.ref.value, d.score.value, d.move.ref) == ("O2", 2, "O12")
    assert d.score.confidence <= 0.5 and d.ref.confidence <= 0.5
    assert dict(d.score.alternatives).get(32, 0.0) < dict(d.score.alternatives)[2]
    _likeliest_in_doubt(d, ["ref", "score"])
    assert (d.ref.value, d.sens, d.score.value) == ("O12", "h", 32)
    assert d.score.confidence <= 0.5 and 2 in dict(d.score.alternatives)
    assert "O2" in dict(d.ref.alternatives)

    miscount = decode(group_readings(word + comb("ref", "O12", sure) + comb("score", "23", sure)), moves)
    _likeliest_in_doubt(miscount, ["score"])
    assert miscount.score.value == 23


def test_a_reference_in_doubt_that_is_not_the_moves_sends_the_score_to_the_arbiter():
    """USAI at 15H for 28, written over the boxes (stress seed 323, `hors_cases`): the
    reference read I4 and the 2 of 28 lost. The 8 alone chose 12D, where USAI is worth 8:
    the reference went to the arbiter, the 8 passed, sure. A reference in doubt whose ink is
    not the retained move's place leaves the score vouched by nothing but its own ink: it is
    flagged too. Not when the reference in doubt reads the move's place, nor when it is sure."""
    from vision.reader import _flags, _score_unplaced

    moves = [Candidate("15H", "USAI", 28), Candidate("10D", "USAI", 10), Candidate("12D", "USAI", 8)]
    sure = {i: {"p": 0.995} for i in range(4)}
    lost = decode(group_readings(word_cells("USAI", overrides=sure) + comb("ref", "I4", {
        0: {"p": 0.6}, 1: {"p": 0.6}}) + comb("score", "8", {0: {"p": 0.995}})), moves)
    assert (lost.word.value, lost.score.value, lost.move.ref) == ("USAI", 8, "12D")
    flagged = _flags(lost, 0.95)
    assert "ref" in flagged and "score" not in flagged and lost.ref.value == "I4"
    assert _score_unplaced(lost, flagged) == ["score"]
    assert _score_unplaced(lost, ["table"]) == []  # the reference not in doubt
    placed = decode(group_readings(word_cells("USAI", overrides=sure) + comb("ref", "12D", {
        0: {"p": 0.6}}) + comb("score", "8", {0: {"p": 0.995}})), moves)
    assert placed.ref.value == "12D" and _score_unplaced(placed, ["ref"]) == []


def _struck_looking(col: int, letter: str, p_struck: float = 0.98, p_letter: float = 0.015) -> CharReading:
    """A cell the recogniser reads as a struck letter, the letter itself its second reading
    (a hand whose E carries a bar reaching out of its curves)."""
    return cell(f"grid:1:{col}", col, "#", p_struck, letter, p_letter)


def test_a_letter_read_as_struck_is_read_as_a_letter_when_no_move_spells_the_word_without_it():
    from vision.decode import decode_word

    moves = [Candidate("D5", "OE", 4), Candidate("H8", "OSE", 6)]
    cells = word_cells("O", start=11) + [_struck_looking(12, "E")]
    readings = group_readings(cells + comb("ref", "D5") + comb("score", "4"))
    assert "".join(c.best for c in readings.word) == "O"  # the struck cell is out of the word
    plain = decode(readings, moves)
    assert plain.word.value == "OE" and not plain.exact  # a letter with no cell: flagged
    kept, d = decode_word(readings, moves)
    assert d.word.value == "OE" and d.exact and d.legal
    assert [c.col for c in kept.word] == [11, 12] and kept.struck  # still known as struck
    # the word is still the arbiter's: a letter struck for good, its score left as the
    # longer word's, reads the same
    from vision.reader import _struck_read_back

    assert _struck_read_back(kept) == ["word"]
    assert _struck_read_back(readings) == []


def test_a_letter_struck_for_good_leaves_the_shorter_legal_word():
    from vision.decode import decode_word

    moves = [Candidate("H4", "PLAIN", 16), Candidate("H4", "PLAINE", 17)]
    cells = word_cells("PLAIN", start=3) + [_struck_looking(8, "E", 0.999, 0.0005)]
    readings = group_readings(cells + comb("ref", "H4") + comb("score", "16"))
    kept, d = decode_word(readings, moves)
    assert d.word.value == "PLAIN" and d.exact
    assert [c.col for c in kept.word] == [3, 4, 5, 6, 7]


def test_a_struck_letter_is_not_read_back_for_a_move_that_does_not_line_up():
    from vision.decode import decode_word

    # no legal move spells the row with or without the struck cell one letter per cell:
    # the first decoding stands (a letter with no cell, flagged by the reader)
    moves = [Candidate("H4", "PLAINES", 18)]
    cells = word_cells("PLAIN", start=3) + [_struck_looking(8, "E")]
    readings = group_readings(cells + comb("ref", "H4") + comb("score", "18"))
    kept, d = decode_word(readings, moves)
    assert not d.exact
    assert [c.col for c in kept.word] == [3, 4, 5, 6, 7]


def test_a_letter_struck_for_good_read_back_leaves_the_word_to_the_arbiter_by_its_score():
    from vision.decode import decode_word
    from vision.reader import FLAG_THRESHOLD, _flags, _struck_unconfirmed

    # PLAIN is no move here: the struck E is read back (PLAINE, one letter per cell), but the
    # player's score is PLAIN's, not PLAINE's: the score, then the word, go to the arbiter
    moves = [Candidate("H4", "PLAINE", 17), Candidate("H4", "PLAINS", 17)]
    cells = word_cells("PLAIN", start=3) + [_struck_looking(8, "E")]
    readings = group_readings(cells + comb("ref", "H4") + comb("score", "16"))
    kept, d = decode_word(readings, moves)
    assert d.word.value == "PLAINE" and d.exact
    flagged = _flags(d, FLAG_THRESHOLD)
    assert "score" in flagged
    assert _struck_unconfirmed(kept, flagged) == ["word"]


def test_a_score_read_surely_but_not_the_moves_is_flagged_as_a_miscount():
    from vision.reader import FLAG_THRESHOLD, _miscounted

    moves = [Candidate("H4", "MAISONS", 70), Candidate("H8", "RAISONS", 66)]
    sure = {0: {"p": 0.999}, 1: {"p": 0.999}}
    miscounted = decode(group_readings(word_cells("MAISONS") + comb("ref", "H4") + comb("score", "74", sure)),
                        moves)
    assert miscounted.score.value == 74 and miscounted.score.confidence < FLAG_THRESHOLD
    assert _miscounted(miscounted)
    # a 7 the reader hesitates on, the move's 70 as likely: a reading in doubt, not a miscount
    unsure = {0: {"p": 0.55, "second": "1", "p2": 0.44}, 1: {"p": 0.999}}
    hesitant = decode(group_readings(word_cells("MAISONS") + comb("ref", "H4") + comb("score", "70", unsure)),
                      [Candidate("H4", "MAISONS", 10), Candidate("H8", "RAISONS", 66)])
    assert hesitant.score.confidence < FLAG_THRESHOLD
    assert not _miscounted(hesitant)
    right = decode(group_readings(word_cells("MAISONS") + comb("ref", "H4") + comb("score", "70", sure)),
                   moves)
    assert not _miscounted(right)


def test_a_table_in_doubt_names_the_other_table_its_ink_fits():
    from vision.reader import _table_doubt

    sure = {0: {"p": 0.99}, 1: {"p": 0.99}}
    word = word_cells("MAISONS") + comb("ref", "H4") + comb("score", "70")
    pale = decode(group_readings(word + comb("table", "53", sure)), MOVES, tables=range(1, 201),
                  table_hidden=True)  # a pale pen: a leading 1 may have vanished
    assert pale.table.value == 53 and pale.table.confidence < 0.95
    assert _table_doubt(pale.table) == "peut-être 153 (un 1 effacé devant ?)"
    torn = {0: {"p": 0.55, "second": "7", "p2": 0.44}, 1: {"p": 0.99}}
    hesitant = decode(group_readings(word + comb("table", "13", torn)), MOVES, tables=range(1, 201),
                      table_hidden=False)
    assert _table_doubt(hesitant.table) == "peut-être 73"
    clear = decode(group_readings(word + comb("table", "53", sure)), MOVES, tables=range(1, 201),
                   table_hidden=False)
    assert _table_doubt(clear.table) is None
