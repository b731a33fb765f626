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


def _fields_error(page, shot_corners, layout) -> float:
    """How far (canonical pixels) the rectified page puts the grid's and the boxes' corners
    from their places on the form, the sheet being flat in the photo."""
    from vision.layout import to_px
    from vision.page import canonical_size

    w, h = canonical_size(layout)
    canon = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    truth = cv2.getPerspectiveTransform(canon, np.asarray(shot_corners, np.float32))
    points = []
    for box in [layout.grid_box] + [layout.field_box(name) for name in layout.data["fields"]]:
        x0, y0, x1, y1 = to_px(box, (w, h))
        points += [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
    points = np.array(points, np.float32).reshape(-1, 1, 2)
    got = cv2.perspectiveTransform(points, page.homography @ truth)
    return float(np.abs(got - points).max())


@pytest.mark.parametrize("seed", [2, 6, 10])
def test_a_page_pinned_by_two_markers_is_refit_on_its_printed_form(seed):
    """Two fingers on two markers, the sheet tilted 20–35°: the other two markers' eight
    corners, at one edge of the sheet, put the grid and the boxes 38 to 49 px off at the
    far side (seed 516: a row off, the word's F cut across, its foot read as a raccord).
    Aligned on the form's printed matter, each is within 4 px (0.1 cell) of its place."""
    from vision.stress import _finger_on, _fx, _shoot

    layout = Layout.load()
    rng = np.random.default_rng(seed)
    paper, _ = write_bulletin(CONTENT, TEST_STYLES[seed % len(TEST_STYLES)], rng)
    shot = _finger_on(paper, rng, 2, _shoot(paper, rng, _fx(max_tilt_deg=35.0, min_tilt_deg=20.0)))
    page = find_page(shot.photo, layout)
    assert page.method == "marqueurs" and page.markers == 2
    assert _fields_error(page, shot.corners, layout) < 4.0


@pytest.mark.parametrize("seed, overlap", [(12, 12), (14, 12)])
def test_a_sheet_partly_under_another_is_refit_on_its_own_printed_matter(seed, overlap):
    """Two bulletins laid over each other by 12 mm, the one beneath pinned by two markers:
    the other sheet's form, printed alike, lies over part of its frame. Aligned on the whole
    frame, the page was pulled onto its neighbour's grid (12 and 13 px off, its right-hand
    boxes cut); the other sheet's outline left out, each box is within 4 px of its place."""
    from vision.synth import TableLayout, render_table

    layout = Layout.load()
    contents = [BulletinContent(12, "MAISONS", "H4", 70), BulletinContent(7, "ZEBREs", "C3", 43)]
    photo, truths = render_table(contents, seed=seed, jpeg=False, table=TableLayout(
        max_turn_deg=2, gap_mm=(0, 0), overlap_mm=overlap))
    pinned = [(p, t) for p, t in zip(find_pages(photo), truths, strict=True) if p.markers < 4]
    assert pinned
    for page, truth in pinned:
        assert _fields_error(page, truth.corners, layout) < 4.0


def test_a_refit_that_does_not_improve_the_alignment_is_not_made():
    """The form exactly in place gives no offset (its printed matter already matches), nor
    does a sheet with no printed matter to align on: the page is left as the markers put it."""
    from vision.page import canonical_size, render_page
    from vision.refit import form_offset

    layout = Layout.load()
    blank = render_page(layout, 8.0)
    assert blank.shape[::-1] == canonical_size(layout)
    assert form_offset(blank, layout) is None
    paper = np.full_like(blank, 235)
    assert form_offset(paper, layout) is None
    shifted = np.full_like(blank, 255)
    shifted[12:, 9:] = blank[:-12, :-9]  # 12 px down, 9 right: found, and measured
    offset = form_offset(shifted, layout)
    assert offset is not None
    moved = cv2.perspectiveTransform(np.array([[[400.0, 300.0]]], np.float32), offset)[0, 0]
    assert abs(moved[0] - 409) < 1.5 and abs(moved[1] - 312) < 1.5


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
    outlines = [_contour_page(gray, q, layout) for q in quadrilaterals(gray)]
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


def _federation_like_form(px_per_mm: float = 10.0) -> np.ndarray:
    """A blank form without markers whose printed matter the layout does not draw: a
    title, a club line and a logo of its own (like the federation's printed bulletins)."""
    data = dict(Layout.load().data)
    data["markers"] = {"dictionary": "DICT_4X4_50", "items": []}
    data["texts"] = []
    from vision.template import render_page

    form = cv2.cvtColor(render_page(Layout("federation", data), px_per_mm), cv2.COLOR_GRAY2BGR)
    h, w = form.shape[:2]
    cv2.putText(form, "FEDERATION FRANCAISE DE SCRABBLE", (int(0.05 * w), int(0.09 * h)),
                cv2.FONT_HERSHEY_DUPLEX, 1.6, (40, 40, 40), 3)
    cv2.putText(form, "Tournoi homologue - bulletin de jeu", (int(0.05 * w), int(0.16 * h)),
                cv2.FONT_HERSHEY_SIMPLEX, 0.9, (60, 60, 60), 2)
    cv2.circle(form, (int(0.9 * w), int(0.9 * h)), int(0.05 * h), (50, 50, 50), 6)
    cv2.rectangle(form, (int(0.87 * w), int(0.87 * h)), (int(0.93 * w), int(0.93 * h)), (50, 50, 50), -1)
    return form


def test_a_calibrated_form_is_found_by_the_printed_matter_of_its_blank(tmp_path):
    """« calibrer » keeps the blank form's photo beside the layout it measured
    (``vierge``): a page of that form whose outline is lost on a patterned table, other
    sheets touching it, is located by all its printed matter (title, club line, logo: none
    of it drawn by the layout), its corners where the page lies. A layout naming an image
    outside its folder is refused; one whose image is gone still finds pages by its own
    rendering."""
    import json

    from vision import stress
    from vision.calibrate import calibrate
    from vision.page import from_features
    from vision.synth import PhotoEffects, photograph

    form = _federation_like_form()
    fx = PhotoEffects(max_tilt_deg=8, upside_down=0, max_rotation_deg=4, fill=(0.85, 0.9), shadow=0)
    blank, _ = photograph(form, np.random.default_rng(4), fx)
    cv2.imwrite(str(tmp_path / "vierge.jpg"), blank)
    out = calibrate(tmp_path / "vierge.jpg", "federation", tmp_path / "federation.json")
    layout = Layout.load(out)
    assert layout.data["vierge"] == "federation.png" and layout.blank_image == tmp_path / "federation.png"

    written = form.copy()
    h, w = written.shape[:2]
    for text, (x, y) in (("MAISON", (0.30, 0.56)), ("12", (0.83, 0.39)), ("H4", (0.83, 0.62))):
        cv2.putText(written, text, (int(x * w), int(y * h)), cv2.FONT_HERSHEY_SCRIPT_SIMPLEX, 1.8,
                    (140, 60, 20), 3)
    shot = stress._table(written, np.random.default_rng(7))
    gray = cv2.cvtColor(shot.photo, cv2.COLOR_BGR2GRAY)
    found = from_features(shot.photo, gray, layout)
    # rectified onto the blank as calibrated (the frame the layout's boxes were measured
    # in): the page's edges are the blank photo's, which the similarity now compares with
    assert found is not None and found[0] > 0.8
    page = find_page(shot.photo, layout)
    assert page.method == "motifs" and layout_similarity(
        cv2.cvtColor(page.image, cv2.COLOR_BGR2GRAY), layout) > 0.8
    drawn = Layout(layout.name, {k: v for k, v in layout.data.items() if k != "vierge"}, layout.folder)
    assert from_features(shot.photo, gray, drawn) is None  # the layout's boxes alone: not found

    data = json.loads(out.read_text())
    data["vierge"] = "../federation.png"
    (tmp_path / "ailleurs.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="vierge"):
        Layout.load(tmp_path / "ailleurs.json")
    (tmp_path / "federation.png").unlink()
    assert Layout.load(out).blank_image is None
