"""The room screen as a broadcast, checked by pixels at the four sizes of the issue: joker
capitals, PAUSE, the last 10 seconds, the bag, the ranking pages, the SCRABBLE badge, the
solos, the layout, muted premiums, one typeface with tabular figures, fixed text sizes."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from collections import Counter

import numpy as np
import pygame
import pytest

from display import fonts, theme
from display.layout import compute_layout
from display.render import render
from display.samples import PAST_TOPS, SAMPLE_RANKING, sample_views, scrabble_view
from display.view import NBSP, Countdown, RankLine, Screen, View, bag_counts, bag_summary
from engine.board import Premium

SIZES = [(1024, 768), (1280, 720), (1920, 1080), (3840, 2160)]
IDS = [f"{w}x{h}" for w, h in SIZES]


@pytest.fixture(scope="module", autouse=True)
def video():
    pygame.display.init()
    pygame.font.init()
    yield


def draw(view: View, size):
    surface = pygame.Surface(size)
    return surface, render(view, surface)


def count(surface, rect, colour, tolerance=30) -> int:
    pixels = pygame.surfarray.pixels3d(surface)[rect.left:rect.right, rect.top:rect.bottom]
    return int((np.abs(pixels.astype(int) - np.array(colour)).sum(axis=2) < tolerance).sum())


def text_rect(info, text):
    found = [rect for drawn, rect in info.texts if drawn == text]
    assert found, f"« {text} » not drawn; drawn: {[t for t, _ in info.texts]}"
    return found[0]


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_joker_letter_is_a_capital_in_the_joker_colour(size):
    bal = PAST_TOPS[2]  # BaL: its A is a joker
    view = View(Screen.COUP, board=sample_views()[Screen.COUP].board, coup=4,
                countdown=Countdown(100), last_top=bal, past_tops=PAST_TOPS[:3], total=51)
    surface, info = draw(view, size)
    drawn = [text for text, _ in info.texts]
    assert "BAL" in drawn and "BaL" not in drawn  # never a lower-case letter
    rect = text_rect(info, "BAL")
    assert count(surface, rect, theme.JOKER_INK) > 0.02 * rect.w * rect.h
    left_third = pygame.Rect(rect.x, rect.y, rect.w // 3, rect.h)  # the B: plain text colour
    assert count(surface, left_third, theme.JOKER_INK) == 0
    assert count(surface, left_third, theme.TEXT) > 0


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_pause_greys_the_time_and_says_pause(size):
    view = sample_views()[Screen.COUP].with_countdown(Countdown(95, paused=True))
    surface, info = draw(view, size)
    layout = info.layout
    assert count(surface, layout.countdown, theme.COUNTDOWN_PAUSE) > 0.02 * layout.countdown.w \
        * layout.countdown.h
    assert count(surface, layout.countdown, theme.COUNTDOWN) == 0
    assert "PAUSE" in [text for text, _ in info.texts]
    assert count(surface, layout.countdown_label, theme.TEXT) > 0
    running = sample_views()[Screen.COUP].with_countdown(Countdown(95))
    surface, info = draw(running, size)
    assert count(surface, layout.countdown_label, theme.TEXT) == 0  # no « PAUSE » then


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_last_ten_seconds_are_on_red(size):
    layout = compute_layout(*size)
    area = layout.countdown.w * layout.countdown.h
    for remaining, red in ((11, False), (10, True), (0.4, True), (0, False)):
        surface, _ = draw(sample_views()[Screen.COUP].with_countdown(Countdown(remaining)), size)
        reds = count(surface, layout.countdown, theme.COUNTDOWN_LAST_BG, 10)
        assert (reds > 0.4 * area) is red, remaining


def test_the_countdown_never_jumps_nor_stalls():
    """Sampled every 50 ms over a whole coup: each change is exactly one second down."""
    shown = []
    for step in range(0, 180 * 20 + 1):
        text = Countdown(180 - step * 0.05).text
        if not shown or shown[-1] != text:
            shown.append(text)
    seconds = [int(t[0]) * 60 + int(t[2:]) for t in shown[:-1]]
    assert seconds == list(range(180, 0, -1)) and shown[-1] == "Terminé"


def test_the_bag_summary_counts_vowels_consonants_and_jokers():
    bag = "A" * 9 + "E" * 12 + "IOUY" + "B" * 2 + "C" * 40 + "??"
    assert bag_counts(bag) == (25, 42, 2)
    assert bag_summary(bag).replace(NBSP, " ") == \
        "Reste 69 : 25 voyelles, 42 consonnes, 2 jokers"
    assert bag_summary("E?").replace(NBSP, " ") == "Reste 2 : 1 voyelle, 0 consonne, 1 joker"


def test_the_no_break_spaces_of_the_summary_are_drawn():
    from display.tiles import text_surface

    line = bag_summary("AE?")
    assert NBSP in line
    assert text_surface(line, 40, theme.TEXT).get_width() == \
        fonts.font(40).size(line.replace(NBSP, " "))[0]


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_bag_and_its_letters_are_shown(size):
    view = sample_views()[Screen.COUP]
    surface, info = draw(view, size)
    summary = bag_summary(view.bag)
    drawn = " ".join(text for text, _ in info.texts)
    for part in summary.split(" "):  # wrapped in a narrow panel, never cut
        assert part in drawn, part
    cells = {letter: number for letter, number, _ in info.bag_cells}
    assert cells == dict(Counter(view.bag))
    for _, _, rect in info.bag_cells:
        assert info.layout.bag.contains(rect)
        assert rect.height >= 0.045 * size[1]  # its letter ≥ 2.5 % of the height
    assert count(surface, info.layout.bag, theme.BAG_CELL, 6) > 0


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_ranking_pages_turn_and_show_the_gap_to_the_top(size):
    view = View(Screen.CLASSEMENT, coup=6, total=93, ranking=SAMPLE_RANKING)
    surface, info = draw(view, size)
    shown = info.ranking_rows
    assert len(shown) >= 10 or len(shown) == len(SAMPLE_RANKING)
    assert not info.grid_shown
    drawn = [text for text, _ in info.texts]
    assert "Classement après le coup 6" in drawn and "Écart" in drawn
    assert "−2" in drawn and "0" in drawn  # Bruno Lefèvre is 2 behind the tops
    if info.pages > 1:
        assert f"Page 1 / {info.pages}" in drawn
        _, later = draw(View(Screen.CLASSEMENT, coup=6, total=93, ranking=SAMPLE_RANKING,
                             page=1), size)
        assert later.page == 1 and not set(later.ranking_rows) & set(shown)
        assert set(shown) | set(later.ranking_rows) == {r.name for r in SAMPLE_RANKING} \
            or info.pages > 2
        _, again = draw(View(Screen.CLASSEMENT, coup=6, total=93, ranking=SAMPLE_RANKING,
                             page=info.pages), size)
        assert again.ranking_rows == shown  # round and round


def test_ten_lines_of_ranking_at_1024x768_even_with_solos():
    many = tuple(RankLine(i, f"Joueur {i}", 500 - i, None, i) for i in range(1, 41))
    solos = tuple(f"Solo : table {t} (Joueur {t}), coup {t}, 40 points" for t in range(1, 6))
    for view in (View(Screen.CLASSEMENT, coup=3, total=500, ranking=many),
                 View(Screen.FIN, coup=20, total=500, ranking=many, solos=solos)):
        _, info = draw(view, (1024, 768))
        assert len(info.ranking_rows) >= 10, view.screen


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_scrabble_gets_its_badge(size):
    surface, info = draw(scrabble_view(), size)
    rect = text_rect(info, "SCRABBLE")
    assert count(surface, rect.inflate(8, 8), theme.BADGE, 10) > 0.1 * rect.w * rect.h
    assert "RENTIES" in [text for text, _ in info.texts]
    surface, info = draw(sample_views()[Screen.ANNONCE], size)  # EPOUX: 4 letters placed
    assert "SCRABBLE" not in [text for text, _ in info.texts]


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_end_names_the_solos(size):
    _, info = draw(sample_views()[Screen.FIN], size)
    drawn = [text for text, _ in info.texts]
    assert "Solo : table 12, au coup 4 (EPOUX)" in drawn
    assert "Table 12" in info.ranking_rows


@pytest.mark.parametrize("size", SIZES + [(1600, 1200), (1280, 800)],
                         ids=IDS + ["1600x1200", "1280x800"])
def test_the_grid_fills_the_height(size):
    layout = compute_layout(*size)
    share = layout.grid.height / size[1]
    assert share >= (0.86 if size[0] / size[1] < 1.5 else 0.9), share


def test_premiums_are_muted_so_tiles_stand_out():
    for premium, colour in theme.PREMIUM_COLOURS.items():
        assert theme.luminance(colour) < 0.1, premium
        assert theme.contrast_ratio(theme.TILE, colour) >= 5, premium
    assert theme.PREMIUM_LABEL_COLOURS[Premium.DOUBLE_LETTER] == (255, 255, 255)


def test_one_typeface_with_tabular_figures():
    assert fonts.bold_path().endswith("DejaVuSans-Bold.ttf")
    for size in (20, 47, 230):
        advances = {fonts.font(size).size(digit)[0] for digit in "0123456789"}
        assert len(advances) == 1, (size, advances)


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_text_sizes_are_fixed_not_shrunk_to_fit(size):
    """Long and short names of the ranking are set at one size; the long ones are cut."""
    ranking = (RankLine(1, "Anne", 90, 100.0, 0),
               RankLine(2, "Marie-Christine de La Rochefoucauld-Montbazon-Saint-Aignan", 80,
                        88.9, 10), RankLine(3, "Luc", 70, 77.8, 20))
    surface, info = draw(View(Screen.CLASSEMENT, coup=2, total=90, ranking=ranking), size)
    names = [(text, rect) for text, rect in info.texts if text.startswith(("Anne", "Marie",
                                                                              "Luc"))]
    heights = {rect.height for text, rect in names if text != "Anne"}
    anne = text_rect(info, "Anne").height
    assert all(abs(h - anne) <= max(1, 0.05 * anne) for h in heights), (anne, heights)  # ascenders
    assert any(text.endswith("…") for text, _ in names)  # cut, not shrunk


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_the_last_top_is_not_repeated_in_the_previous_tops(size):
    _, info = draw(sample_views()[Screen.COUP], size)
    drawn = [text for text, _ in info.texts]
    assert drawn.count("EPOUX") == 1
