"""Tirage validity, random and manual draws, end of game by the letters left."""

import pytest

from engine.draw import DrawError, check_tirage, requirement, satisfies, split_manual
from engine.game import Coup, Game


@pytest.mark.parametrize(
    "tirage,coup,valid",
    [
        ("AEBCDFG", 1, True),     # 2 vowels, 5 consonants
        ("AEIOUBC", 1, True),
        ("ABCDFGH", 1, False),    # one vowel
        ("AEIOUYB", 1, True),     # Y counts as consonant
        ("AEIOU?B", 1, True),     # joker counts as consonant
        ("BCDFG?Y", 1, True),     # joker and Y both as vowels
        ("BCDFGH?", 1, False),    # one joker cannot be two vowels
        ("ABCDFGH", 16, True),    # 1 + 1 from coup 16
        ("BCDFGHJ", 16, False),
        ("AEIOUAE", 16, False),
        ("AEIOUAY", 16, True),
    ],
)
def test_tirage_validity_with_a_full_bag(tirage, coup, valid):
    pool = tirage + "AEIBCDLMNRST" * 3
    assert check_tirage(tirage, coup, pool).valid is valid


def test_invalid_tirage_reason_is_french():
    check = check_tirage("BCDFGHJ", 3, "BCDFGHJ" + "AEIOU" * 3)
    assert not check.valid and "2 voyelles et 2 consonnes" in check.reason


def test_rule_relaxes_to_one_and_one_when_the_letters_left_cannot_give_two():
    pool = "ABCDFGHJKLM"  # a single vowel left
    assert requirement(5, pool).vowels == 1
    assert check_tirage("ABCDFGH", 5, pool).valid


def test_y_and_jokers_do_not_help_when_only_consonants_are_left():
    assert requirement(10, "BCDFGY?") is None
    assert requirement(10, "AEIOUY") is None
    assert requirement(10, "") is None
    assert requirement(10, "BCDFGYA") is not None


def test_flexible_letters_are_counted_on_the_helpful_side():
    assert satisfies("BC?Y", 2, 2)
    assert not satisfies("BCD?", 2, 2)


def test_random_draw_rejects_invalid_tirages_and_records_them():
    rejected = 0
    for seed in range(40):
        game = Game(seed=seed)
        coup = game.draw()
        assert len(coup.tirage) == 7
        assert check_tirage(coup.tirage, 1, coup.tirage + "".join(game.bag.elements())).valid
        assert game.bag_count == 95 == coup.bag_left
        rejected += len(coup.rejections)
        for tirage, reason in zip(coup.rejections, coup.rejection_reasons, strict=True):
            assert len(tirage) == 7 and "non valable" in reason
    assert rejected > 0, "sur 40 parties, au moins un premier tirage est rejeté"


def test_draw_is_deterministic_for_a_seed():
    assert Game(seed=7).draw().tirage == Game(seed=7).draw().tirage


def test_manual_draw_new_letters_or_full_tirage():
    assert split_manual("EES", "R?AT") == "R?AT"
    assert split_manual("EES", "eesr?at") == "R?AT"
    with pytest.raises(DrawError, match="reliquat"):
        split_manual("EES", "ABCDEFG")
    with pytest.raises(DrawError, match="trop long"):
        split_manual("EES", "ABCDEFGH")
    with pytest.raises(DrawError, match="caractère"):
        split_manual("", "AB3")


def test_manual_draw_refuses_a_letter_no_longer_in_the_bag():
    game = Game(seed=1)
    assert game.draw_manual("KWXYZAE").valid
    game.play(_move_using(game, "K"))
    bag = dict(game.bag)
    with pytest.raises(DrawError, match="lettre K absente du sac : il en reste 0"):
        game.draw_manual("KA")
    assert dict(game.bag) == bag, "un tirage refusé ne prend rien dans le sac"
    with pytest.raises(DrawError, match="pas assez de joker dans le sac : il en reste 2, 3"):
        Game(seed=2).draw_manual("???AEIB")


def _move_using(game, letter):
    """The first word KA at H8 (the K is then on the grid, no longer in the bag)."""
    from engine.board import Ref
    from engine.move import Move

    return Move(Ref(7, 7, True), letter + "A", ((7, 7, letter), (7, 8, "A")), 22)


def test_manual_invalid_tirage_is_reported_not_rejected():
    game = Game(seed=1)
    check = game.draw_manual("BCDFGHA")
    assert not check.valid and "voyelles" in check.reason
    assert game.current.tirage == "BCDFGHA"  # the juge-arbitre decides
    game.reject()
    assert game.current.tirage == "" and game.current.rejections == ["BCDFGHA"]
    assert game.bag_count == 102


def test_manual_draw_needs_the_full_seven_letters():
    game = Game(seed=1)
    with pytest.raises(DrawError, match=r"il manque des lettres : 3 tapée\(s\), il faut 7 nouvelle"):
        game.draw_manual("ABC")


def test_whole_tirage_typed_near_the_end_of_the_bag():
    """Reliquat YS, three letters left in the bag: « YSABC » is the whole tirage, not 5 new."""
    game = Game(seed=1)
    game.bag.clear()
    game.bag.update("ABC")
    game.coups.append(Coup(1, reliquat="YS"))
    game.draw_manual("ysabc")
    assert game.current.new_letters == "ABC" and game.current.tirage == "YSABC"
    assert game.bag_count == 0
    with pytest.raises(DrawError, match="trop de lettres : 4 tapée.*il faut 3 nouvelle"):
        split_manual("YS", "ABCD", 3)
    assert split_manual("YS", "CAB", 3) == "CAB"
