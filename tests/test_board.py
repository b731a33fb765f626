import pytest

from engine.board import PREMIUMS, BadReference, Board, Premium, Ref
from engine.tiles import COUNTS, TOTAL_TILES, VALUES


def test_tile_set_has_102_tiles():
    assert TOTAL_TILES == 102
    assert COUNTS["E"] == 15 and COUNTS["?"] == 2 and VALUES["K"] == 10


@pytest.mark.parametrize(
    "name,premium",
    [("A1", Premium.TRIPLE_WORD), ("H8", Premium.DOUBLE_WORD), ("B6", Premium.TRIPLE_LETTER),
     ("O12", Premium.DOUBLE_LETTER), ("H2", Premium.NONE), ("N14", Premium.DOUBLE_WORD)],
)
def test_premium_squares(name, premium):
    ref = Ref.parse(name)
    assert PREMIUMS[ref.row][ref.col] is premium


def test_premium_counts():
    flat = [p for row in PREMIUMS for p in row]
    assert flat.count(Premium.TRIPLE_WORD) == 8
    assert flat.count(Premium.DOUBLE_WORD) == 17
    assert flat.count(Premium.TRIPLE_LETTER) == 12
    assert flat.count(Premium.DOUBLE_LETTER) == 24


@pytest.mark.parametrize(
    "text,canonical,horizontal",
    [("H4", "H4", True), ("h4", "H4", True), ("H 4", "H4", True), ("4H", "4H", False),
     ("4 h", "4H", False), ("15a", "15A", False), ("O15", "O15", True), (" a1 ", "A1", True)],
)
def test_reference_parsing(text, canonical, horizontal):
    ref = Ref.parse(text)
    assert str(ref) == canonical and ref.horizontal is horizontal


@pytest.mark.parametrize("text", ["", "P1", "H16", "H0", "0H", "HH", "44", "H4H", "H-", "Ω4", "H" * 500])
def test_bad_references_name_the_input(text):
    with pytest.raises(BadReference) as info:
        Ref.parse(text)
    assert "référence" in str(info.value)


def test_board_text_roundtrip():
    board = Board()
    board[(7, 7)] = "A"
    board[(7, 8)] = "s"
    again = Board.from_text(board.to_text())
    assert again == board and again[(7, 8)] == "s"
