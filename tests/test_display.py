"""The room screen, checked by pixels at the four sizes the issue names."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import numpy as np
import pygame
import pytest

from display import fonts, theme
from display.layout import compute_layout
from display.render import Renderer, render
from display.samples import sample_views
from display.view import Countdown, Screen, View
from engine.board import PREMIUMS, Premium, Ref

SIZES = [(1024, 768), (1280, 720), (1920, 1080), (3840, 2160)]


@pytest.fixture(scope="module", autouse=True)
def video():
    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode((64, 64))
    yield


def draw(view: View, size):
    surface = pygame.Surface(size)
    info = render(view, surface)
    return surface, info


@pytest.fixture(scope="module", params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def coup_screen(request):
    return draw(sample_views()[Screen.COUP], request.param)


def pixel(surface, layout, square: str, fx: float, fy: float):
    ref = Ref.parse(square)
    cell = layout.cell_rect(ref.row, ref.col)
    return tuple(surface.get_at((cell.x + int(fx * cell.w), cell.y + int(fy * cell.h))))[:3]


def mask(surface, rect, colour, tolerance=40):
    """Boolean array (x, y) of the pixels of ``rect`` close to ``colour``."""
    pixels = pygame.surfarray.pixels3d(surface)[rect.left:rect.right, rect.top:rect.bottom]
    distance = np.abs(pixels.astype(int) - np.array(colour)).sum(axis=2)
    return distance < tolerance


def ink_height(surface, rect, colour, tolerance=40) -> int:
    rows = np.nonzero(mask(surface, rect, colour, tolerance).any(axis=0))[0]
    return int(rows[-1] - rows[0] + 1) if len(rows) else 0


def test_every_text_colour_pair_reaches_7_to_1():
    weak = {name: round(theme.contrast_ratio(*pair), 2) for name, pair in theme.TEXT_PAIRS.items()
            if theme.contrast_ratio(*pair) < 7}
    assert not weak


def test_contrast_ratio_matches_wcag_extremes():
    assert theme.contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert theme.contrast_ratio((120, 120, 120), (120, 120, 120)) == pytest.approx(1)


@pytest.mark.parametrize("square,premium", [
    ("A1", Premium.TRIPLE_WORD), ("O15", Premium.TRIPLE_WORD), ("B2", Premium.DOUBLE_WORD),
    ("N14", Premium.DOUBLE_WORD), ("B6", Premium.TRIPLE_LETTER), ("J14", Premium.TRIPLE_LETTER),
    ("A4", Premium.DOUBLE_LETTER), ("O12", Premium.DOUBLE_LETTER), ("A2", Premium.NONE),
    ("H8", Premium.DOUBLE_WORD),
])
def test_premium_colours_at_known_squares(coup_screen, square, premium):
    surface, info = coup_screen
    ref = Ref.parse(square)
    assert PREMIUMS[ref.row][ref.col] is premium
    view = sample_views()[Screen.COUP]
    if view.board[ref.row, ref.col] is None:
        assert pixel(surface, info.layout, square, 0.12, 0.12) == theme.PREMIUM_COLOURS[premium]


def test_the_star_is_drawn_on_an_empty_h8():
    surface, info = draw(sample_views()[Screen.ACCUEIL], (1280, 720))
    cell = info.layout.cell_rect(7, 7)
    star = mask(surface, cell, theme.PREMIUM_LABEL_COLOURS[Premium.DOUBLE_WORD], 30)
    assert star.sum() > 0.08 * cell.w * cell.h
    assert pixel(surface, info.layout, "H8", 0.1, 0.1) == theme.PREMIUM_COLOURS[Premium.DOUBLE_WORD]


def test_placed_tile_and_joker_colours(coup_screen):
    surface, info = coup_screen
    layout = info.layout
    assert pixel(surface, layout, "H4", 0.88, 0.3) == theme.TILE  # C of CHEVAL on a LD square
    assert pixel(surface, layout, "G9", 0.88, 0.3) == theme.JOKER_TILE  # the joker A of BaL
    joker_ink = mask(surface, layout.cell_rect(6, 8), theme.JOKER_TEXT, 30).sum()
    plain_ink = mask(surface, layout.cell_rect(5, 8), theme.JOKER_TEXT, 30).sum()
    assert joker_ink > 0.05 * layout.cell ** 2 and plain_ink == 0
    # no value on the joker: nothing inked in its bottom-right corner
    cell = layout.cell_rect(6, 8)
    corner = pygame.Rect(cell.x + int(0.72 * cell.w), cell.y + int(0.77 * cell.h),
                         int(0.2 * cell.w), int(0.15 * cell.h))
    assert mask(surface, corner, theme.JOKER_TEXT, 120).sum() == 0
    # a normal tile does show its value there
    cell = layout.cell_rect(5, 8)
    corner = pygame.Rect(cell.x + int(0.72 * cell.w), cell.y + int(0.77 * cell.h),
                         int(0.2 * cell.w), int(0.15 * cell.h))
    assert mask(surface, corner, theme.TILE_TEXT, 60).sum() > 0


def test_last_top_is_outlined(coup_screen):
    surface, info = coup_screen
    assert pixel(surface, info.layout, "K7", 0.02, 0.5) == theme.HIGHLIGHT
    assert pixel(surface, info.layout, "H4", 0.02, 0.5) != theme.HIGHLIGHT


def test_grid_letters_are_at_least_2_5_percent_of_the_height(coup_screen):
    surface, info = coup_screen
    height = surface.get_height()
    for square in ("H6", "H7", "K10"):  # E, V and X (X is narrowed: widest glyph)
        cell = info.layout.cell_rect(Ref.parse(square).row, Ref.parse(square).col)
        letter = pygame.Rect(cell.x + int(0.05 * cell.w), cell.y, int(0.66 * cell.w),
                             int(0.74 * cell.h))
        assert ink_height(surface, letter, theme.TILE_TEXT) >= 0.025 * height


def test_countdown_is_at_least_15_percent_of_the_height(coup_screen):
    """At 16:9; at 4:3 the grid takes 88 % of the height and the panel beside it is narrower
    than 15 % digits: the countdown then fills the panel's width (and stays over 9 %)."""
    surface, info = coup_screen
    height = surface.get_height()
    layout = info.layout
    ink = ink_height(surface, layout.countdown, theme.COUNTDOWN)
    if layout.narrow:
        columns = np.nonzero(mask(surface, layout.countdown, theme.COUNTDOWN).any(axis=1))[0]
        assert columns[-1] - columns[0] >= 0.75 * layout.countdown.width
        assert ink >= 0.09 * height
    else:
        assert ink >= 0.15 * height


def countdown_colours(countdown: Countdown, size=(1280, 720)):
    view = sample_views()[Screen.COUP].with_countdown(countdown)
    surface, info = draw(view, size)
    rect = info.layout.countdown
    return {name: int(mask(surface, rect, colour, 30).sum()) for name, colour in
            [("normal", theme.COUNTDOWN), ("alerte", theme.COUNTDOWN_WARNING),
             ("termine", theme.COUNTDOWN_OVER), ("pause", theme.COUNTDOWN_PAUSE)]}


@pytest.mark.parametrize("remaining,warning,expected", [
    (31, 30, "normal"), (30, 30, "alerte"), (12.5, 30, "alerte"), (21, 20, "normal"),
    (20, 20, "alerte"), (0, 30, "termine"),
])
def test_countdown_colour_changes_at_the_warning(remaining, warning, expected):
    counts = countdown_colours(Countdown(remaining, warning))
    assert counts[expected] > 1000
    assert all(count < 50 for name, count in counts.items() if name != expected)


def test_pause_has_its_own_colour():
    counts = countdown_colours(Countdown(95, paused=True))
    assert counts["pause"] > 1000 and counts["normal"] < 50


@pytest.mark.parametrize("remaining,text", [
    (180, "3:00"), (178.2, "2:59"), (60, "1:00"), (59.9, "1:00"), (0.3, "0:01"), (0, "Terminé"),
    (-2, "Terminé"),
])
def test_countdown_text(remaining, text):
    assert Countdown(remaining).text == text
    paused = Countdown(remaining, paused=True)  # the time left stays, « PAUSE » beside it
    assert paused.label == "PAUSE" and paused.state == "pause"
    assert paused.text == (text if remaining > 0 else "0:00")


def inside(inner: pygame.Rect, outer: pygame.Rect) -> bool:
    return outer.contains(inner)


@pytest.mark.parametrize("size", SIZES + [(1280, 800), (1600, 1200), (1440, 900)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_layout_regions_inside_and_disjoint(size):
    layout = compute_layout(*size)
    screen = pygame.Rect((0, 0), size)
    regions = layout.regions()
    for name, rect in regions.items():
        assert inside(rect, screen), name
        assert rect.width > 0 and rect.height > 0, name
    names = list(regions)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            assert not regions[a].colliderect(regions[b]), (a, b)
    for name in ("titre", "chrono", "infos"):
        assert inside(regions[name], layout.panel)
    assert not layout.panel.colliderect(layout.grid.union(layout.col_header))


@pytest.mark.parametrize("screen", list(Screen), ids=lambda s: s.value)
@pytest.mark.parametrize("size", SIZES + [(1280, 800), (1600, 1200)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_texts_inside_the_screen_and_never_overlapping(screen, size):
    surface, info = draw(sample_views()[screen], size)
    bounds = surface.get_rect()
    layout = info.layout
    assert info.texts, "nothing written"
    for text, rect in info.texts:
        assert inside(rect, bounds), text
        assert not (info.grid_shown and rect.colliderect(layout.grid)), text
        assert any(inside(rect, area) for area in info.areas), text
    for i, (a, ra) in enumerate(info.texts):
        for b, rb in info.texts[i + 1:]:
            assert not ra.colliderect(rb), (a, b)


@pytest.mark.parametrize("screen", list(Screen), ids=lambda s: s.value)
@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_panel_texts_are_readable_from_the_back(screen, size):
    surface, info = draw(sample_views()[screen], size)
    for text, rect in info.texts:
        assert rect.height >= 0.025 * size[1], text


def test_renderer_redraws_only_the_countdown_rectangle():
    surface = pygame.Surface((1920, 1080))
    renderer = Renderer(surface)
    view = sample_views()[Screen.COUP]
    assert renderer.draw(view) == [surface.get_rect()]
    before = pygame.surfarray.array3d(surface)
    assert renderer.draw(view.with_countdown(Countdown(177.5))) == []  # still 2:58
    dirty = renderer.draw(view.with_countdown(Countdown(176.5)))
    assert dirty == [renderer.info.layout.countdown, renderer.info.layout.countdown_label]
    after = pygame.surfarray.array3d(surface)
    changed = np.argwhere((before != after).any(axis=2))
    assert len(changed) > 0
    box = renderer.info.layout.countdown
    assert changed[:, 0].min() >= box.left and changed[:, 0].max() < box.right
    assert changed[:, 1].min() >= box.top and changed[:, 1].max() < box.bottom
    moved = View(Screen.COUP, board=view.board, coup=6, countdown=Countdown(170))
    assert renderer.draw(moved) == [surface.get_rect()]


def test_renderer_follows_a_new_surface_size():
    surface = pygame.Surface((1280, 720))
    renderer = Renderer(surface)
    view = sample_views()[Screen.COUP]
    renderer.draw(view)
    renderer.surface = pygame.Surface((1024, 768))
    assert renderer.draw(view) == [pygame.Rect(0, 0, 1024, 768)]
    assert renderer.info.layout.width == 1024


def test_explicit_bold_font_and_fallback(monkeypatch):
    path = fonts.bold_path()
    assert path is not None and path.endswith("DejaVuSans-Bold.ttf")
    monkeypatch.setattr(fonts, "FONT_DIRS", ())
    fonts.bold_path.cache_clear()
    fonts.font.cache_clear()
    try:
        assert fonts.bold_path() is None
        assert fonts.font(40).size("Coup")[0] > 0
    finally:
        monkeypatch.undo()
        fonts.bold_path.cache_clear()
        fonts.font.cache_clear()
    assert fonts.bold_path() == path


@pytest.mark.parametrize("size", [(320, 240), (800, 1280), (5000, 1000)],
                         ids=lambda s: f"{s[0]}x{s[1]}")
def test_odd_window_sizes_still_draw(size):
    """A window dragged to a silly size must not take the kiosk down."""
    for view in sample_views().values():
        surface, info = draw(view, size)
        assert inside(info.layout.grid, surface.get_rect())


def dominant_colours(surface, rect, count=2):
    pixels = pygame.surfarray.pixels3d(surface)[rect.left:rect.right, rect.top:rect.bottom]
    colours, counts = np.unique(pixels.reshape(-1, 3), axis=0, return_counts=True)
    return [tuple(int(v) for v in colours[i]) for i in np.argsort(counts)[::-1][:count]]


@pytest.mark.parametrize("screen", list(Screen), ids=lambda s: s.value)
def test_rendered_texts_contrast_with_their_background(screen):
    """Measured on the pixels: each text's own colour against what lies around it."""
    surface, info = draw(sample_views()[screen], (1920, 1080))
    for text, rect in info.texts:
        background, ink = dominant_colours(surface, rect.inflate(6, 6))
        assert theme.contrast_ratio(background, ink) >= 7, (text, background, ink)


def test_tirage_shows_reliquat_and_new_letters_apart(coup_screen):
    surface, info = coup_screen
    tiles = info.tiles
    assert "".join(letter for letter, _, _ in tiles) == "ESRT?NI"
    faces = [tuple(surface.get_at((r.x + int(0.9 * r.w), r.y + int(0.3 * r.h))))[:3]
             for _, _, r in tiles]
    assert faces[:2] == [theme.TILE] * 2
    assert faces[2:4] + faces[5:] == [theme.NEW_TILE] * 4 and faces[4] == theme.JOKER_TILE
    gaps = [b.left - a.right for (_, _, a), (_, _, b) in zip(tiles, tiles[1:], strict=False)]
    assert gaps[1] > 2 * gaps[0]  # a wider gap after the reliquat
    height = surface.get_height()
    for _, _, rect in tiles:
        assert rect.height >= 0.06 * height and inside(rect, info.layout.tirage)


def test_a_view_keeps_its_own_copy_of_the_board():
    board = sample_views()[Screen.COUP].board
    view = View(Screen.COUP, board=board, coup=5)
    board[0, 0] = "Z"  # the kiosk goes on playing on its board
    assert view.board[0, 0] is None
    renderer = Renderer(pygame.Surface((1024, 768)))
    renderer.draw(view)
    later = View(Screen.COUP, board=board, coup=5)
    assert renderer.draw(later) == [pygame.Rect(0, 0, 1024, 768)]  # the change is seen


def crowded_views():
    """Long words, big numbers, a long history, long names: everything must still fit."""
    from display.view import RankLine, Top

    column_15 = tuple((r, 14) for r in range(15))
    long_top = Top(25, "ANTICONSTITUTIONNELLEMENT"[:15], "15A", 1778, column_15)
    tops = tuple(Top(i, "WAGONNETTES", "O1" if i % 2 else "1A", 100 + i) for i in range(1, 25))
    ranking = tuple(RankLine(i, "Marie-Christine de La Rochefoucauld-Montbazon", 1234 - i, 99.9)
                    for i in range(1, 60))
    board = sample_views()[Screen.COUP].board
    common = dict(board=board, coup=25, bag_left=100, total=12345, past_tops=tops + (long_top,),
                  last_top=long_top)
    return [
        View(Screen.COUP, reliquat="ABCDEF", new_letters="?", countdown=Countdown(599), **common),
        View(Screen.ANNONCE, reliquat="WWWWWWW", **common),
        View(Screen.REJET, new_letters="WMWMWMW", message="x" * 300 + " " + "mot " * 80,
             **common),
        View(Screen.FIN, ranking=ranking, **common),
        View(Screen.ACCUEIL, title="Championnat de France de Scrabble Duplicate 2027",
             settings=(("Lexique", "L'Officiel du Scrabble, huitième édition " * 3),) * 6),
    ]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_crowded_screens_still_fit(size):
    for view in crowded_views():
        surface, info = draw(view, size)
        for text, rect in info.texts:
            assert inside(rect, surface.get_rect()), text
            assert not (info.grid_shown and rect.colliderect(info.layout.grid)), text
        for i, (a, ra) in enumerate(info.texts):
            for b, rb in info.texts[i + 1:]:
                assert not ra.colliderect(rb), (view.screen, a, b)
        for _, _, rect in info.tiles:
            assert inside(rect, info.layout.tirage)
        if view.screen in (Screen.COUP, Screen.ANNONCE):  # a top's word is never cut
            assert "ANTICONSTITUTIO" in [text for text, _ in info.texts]


def test_final_ranking_draws_names_with_invisible_characters():
    """A NUL or zero-width name (an old journal) once stopped the final ranking for good."""
    from display.view import RankLine

    names = ["\u200b", "Anne\x00Moreau", "\u200d\u200b", "Hélène\u200bDupont", ""]
    ranking = tuple(RankLine(i, name, 500 - i, 90.0) for i, name in enumerate(names, start=1))
    surface, info = draw(View(Screen.FIN, ranking=ranking), (1280, 720))
    shown = [text for text, _ in info.texts]
    assert "Anne\x00Moreau" in shown and "Hélène\u200bDupont" in shown  # drawn, not fatal
