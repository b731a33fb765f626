"""Stage 2 (page finding, rectification, rotation) on generated photos."""

import cv2
import numpy as np
import pytest

from vision.glyphs import TEST_STYLES
from vision.layout import Layout
from vision.page import find_page, find_pages, from_contour, layout_similarity
from vision.status import NON_TROUVE, PLUSIEURS, VisionError
from vision.synth import BulletinContent, PhotoEffects, photograph, render_bulletin, write_bulletin

CONTENT = BulletinContent(12, "MAISONs", "H4", 70)


@pytest.mark.parametrize("seed", [0, 1, 2, 3, 4, 5])
def test_markers_give_the_page_corners(seed):
    photo, truth = render_bulletin(CONTENT, seed=seed, jpeg=False)
    page = find_page(photo)
    assert page.method == "marqueurs" and page.markers >= 3
    assert np.abs(page.corners - np.array(truth.corners)).max() < 4.0


def test_upside_down_photo_is_turned_back():
    fx = PhotoEffects(upside_down=1.0, max_rotation_deg=5)
    photo, truth = render_bulletin(CONTENT, seed=11, effects=fx, jpeg=False)
    page = find_page(photo)
    # the top-left page corner (from the truth) must map to the canonical top-left
    assert np.abs(page.corners[0] - np.array(truth.corners[0])).max() < 4.0
    gray = cv2.cvtColor(page.image, cv2.COLOR_BGR2GRAY)
    upright = layout_similarity(gray, Layout.load())
    assert upright > 0.7
    assert layout_similarity(cv2.rotate(gray, cv2.ROTATE_180), Layout.load()) < upright - 0.3


@pytest.mark.parametrize("seed", [0, 2, 5])
def test_largest_quadrilateral_fallback(seed):
    photo, truth = render_bulletin(
        CONTENT, seed=seed, jpeg=False, effects=PhotoEffects(upside_down=0.5, shadow=0.0)
    )
    gray = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY)
    page = from_contour(photo, gray, Layout.load())
    assert page is not None and page.method == "contour"
    assert np.abs(page.corners - np.array(truth.corners)).max() < 12.0


def test_no_bulletin():
    rng = np.random.default_rng(0)
    noise = cv2.GaussianBlur(rng.integers(0, 255, (900, 1200, 3)).astype(np.uint8), (0, 0), 3)
    with pytest.raises(VisionError) as err:
        find_page(noise)
    assert err.value.status == NON_TROUVE


def test_two_bulletins_in_one_photo():
    rng = np.random.default_rng(3)
    paper, _ = write_bulletin(CONTENT, TEST_STYLES[0], rng)
    fx = PhotoEffects(
        max_tilt_deg=0, max_rotation_deg=0, upside_down=0, size=(1000, 800), fill=(0.95, 0.95)
    )
    one, _ = photograph(paper, rng, fx)
    two, _ = photograph(paper, rng, fx)
    if one.shape != two.shape:
        two = cv2.resize(two, (one.shape[1], one.shape[0]))
    both = np.hstack([one, two])
    pages = find_pages(both)  # side by side: two pages, left to right
    assert len(pages) == 2 and all(p.method == "marqueurs" and p.markers == 4 for p in pages)
    assert pages[0].corners[:, 0].max() < one.shape[1] <= pages[1].corners[:, 0].min()
    with pytest.raises(VisionError) as err:  # the one-bulletin contract: refused, in French
        find_page(both)
    assert err.value.status == PLUSIEURS and "un seul par photo" in str(err.value)


def test_a_page_whose_outline_merges_with_other_sheets_is_found_by_its_printed_matter():
    """A federation bulletin (no markers) on a wooden table, other sheets touching it
    (stress condition ``sans_marqueurs_table``, seed 292000): no outline found rectifies
    to anything like the form, and the photo was « bulletin non trouvé » (13 of 40 in
    that condition). The form's printed matter, matched to the blank layout's, places
    the page; the bulletin is read whole."""
    from vision import bench, stress
    from vision.page import FEATURE_TRY, _contour_page, quadrilaterals
    from vision.reader import read_bulletin

    case = bench.make_cases(40, 292)[0]
    photo = stress.stress_photo("sans_marqueurs_table", case.content, case.style, case.seed)
    img = photo if isinstance(photo, np.ndarray) else cv2.imdecode(np.frombuffer(photo, np.uint8), 1)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    layout = stress.markerless_layout()
    outlines = [_contour_page(img, q, layout) for q in quadrilaterals(gray)]
    assert all(o is None or o[0] < FEATURE_TRY for o in outlines)
    page = from_contour(img, gray, layout)
    assert page is not None and page.method == "motifs"
    assert layout_similarity(cv2.cvtColor(page.image, cv2.COLOR_BGR2GRAY), layout) > 0.7
    reading = read_bulletin(photo, case.candidates, case.board, tables=range(1, 201), layout=layout)
    assert reading.method == "motifs"
    assert bench._got(reading) == bench._truth(case.content)


def test_a_photo_without_the_form_is_not_found_by_printed_matter_either():
    """Another printed sheet (lines of text, no grid) on the same wooden table: its
    keypoints match nothing of the form well enough, and no page is made of it."""
    from vision import stress
    from vision.page import from_features

    rng = np.random.default_rng(5)
    sheet = np.full((840, 1184, 3), 245, np.uint8)
    for k in range(14):
        cv2.putText(sheet, f"Ligne {k} : compte rendu de la reunion du club", (40, 60 + 55 * k),
                    cv2.FONT_HERSHEY_SIMPLEX, 1.0, (30, 30, 30), 2)
    shot = stress._table(sheet, rng)
    gray = cv2.cvtColor(shot.photo, cv2.COLOR_BGR2GRAY)
    layout = stress.markerless_layout()
    found = from_features(shot.photo, gray, layout)
    assert found is None or found[0] < 0.15
    with pytest.raises(VisionError):
        find_page(shot.photo, layout)
