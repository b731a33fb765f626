"""Personalised bulletins: table (and coup) printed and coded, decoded exactly from photos."""

import re
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.decode import Candidate
from vision.glyphs import STYLES
from vision.layout import Layout, to_px
from vision.reader import read_bulletin
from vision.synth import BulletinContent, PhotoEffects, photograph, render_bulletin, write_bulletin
from vision.tablecode import check, marker_ids, read_code
from vision.template import export_pads, pad_slots, render_page, render_sheet

MOVES = [Candidate("H4", "MAISONS", 70), Candidate("B2", "SAISON", 30)]


def test_code_ids_and_check():
    assert marker_ids(42) == {"table": 42, "check": check(42, None)}
    assert marker_ids(42, 7)["coup"] == 7
    # one coup: every table its own check; one table: every coup of a game its own check
    assert len({check(t, 7) for t in range(1, 1000)}) == 999
    assert len({check(42, c) for c in [None, *range(1, 60)]}) == 60
    with pytest.raises(ValueError, match="table hors limites"):
        marker_ids(0)
    with pytest.raises(ValueError, match="coup hors limites"):
        marker_ids(5, 1000)


def test_printed_page_decodes_and_blank_page_has_no_code():
    layout = Layout.load()
    page = render_page(layout, 8.0, 117, 12)
    code = read_code(page, layout)
    assert (code.table, code.coup) == (117, 12)
    assert read_code(render_page(layout, 8.0, 5), layout).coup is None
    assert read_code(render_page(layout, 8.0), layout) is None
    # the generic form's corner markers are still the four of the page, never the code's
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    _, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(page)
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]


def test_a_misread_marker_is_no_code():
    layout = Layout.load()
    page = render_page(layout, 8.0, 42, 3)
    spec = layout.data["personal"]
    x0, y0, x1, y1 = to_px(spec["markers"]["check"], (page.shape[1], page.shape[0]))
    side = min(x1 - x0, y1 - y0)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_1000)
    wrong = (check(42, 3) + 1) % 1000
    page[y0 : y0 + side, x0 : x0 + side] = cv2.aruco.generateImageMarker(dictionary, wrong, side)
    assert read_code(page, layout) is None


@pytest.mark.parametrize("seed", range(6))
def test_photos_of_personalised_bulletins_give_the_exact_table(seed):
    rng = np.random.default_rng(seed)
    table, coup = int(rng.integers(1, 1000)), (int(rng.integers(1, 30)) if seed % 2 else None)
    written = table if seed % 3 == 0 else None  # the box filled in by habit, or left empty
    data, _ = render_bulletin(BulletinContent(written, "MAISONS", "H4", 70), seed=seed,
                              printed=(table, coup))
    reading = read_bulletin(data, MOVES, coup=coup)
    assert reading.printed is not None and (reading.printed.table, reading.printed.coup) == (
        table, coup)
    assert reading.table.value == table and reading.table.confidence == 1.0
    assert reading.bulletin()["table"] == table
    if "table" in reading.flagged:  # only when the box is filled in and read otherwise
        assert written is not None and reading.table.alternatives[1][0] != table
    assert reading.to_dict()["imprime"] == {"table": table, "coup": coup}


def test_handwritten_box_disagreeing_or_another_coup_is_flagged():
    data, _ = render_bulletin(BulletinContent(58, "MAISONS", "H4", 70), seed=3, style="test_vif",
                              printed=(12, 4))
    reading = read_bulletin(data, MOVES, coup=5)
    assert reading.table.value == 12 and reading.table.confidence == 1.0
    assert {"table", "coup"} <= set(reading.flagged) and reading.status == "a_verifier"
    assert reading.flag_reasons["table"] == "table écrite autre que l'imprimée"
    assert reading.flag_reasons["coup"] == "bulletin imprimé pour un autre coup"
    assert reading.table.alternatives[0] == (12, 1.0) and len(reading.table.alternatives) == 2
    elsewhere = read_bulletin(data, MOVES, tables=range(20, 40))  # not in the game
    assert elsewhere.flag_reasons["table"] == "table imprimée hors de la partie"


def test_blank_personalised_bulletin_says_whose_it_is():
    data, _ = render_bulletin(BulletinContent(None, "", None, None), seed=4, printed=(33, None))
    reading = read_bulletin(data)
    assert reading.status == "bulletin_vierge" and reading.bulletin()["table"] == 33


def test_sheets_hold_one_pad_per_table():
    sheets = pad_slots([1, 2, 3], [1, 2, 3, 4, 5], "A6")
    assert len(sheets) == 6  # 5 coups = 2 sheets per table, a new sheet for each table
    assert sheets[0] == [(1, 1), (1, 2), (1, 3), (1, 4)] and sheets[1] == [(1, 5)]
    assert pad_slots([7], None, "A5") == [[(7, None), (7, None)]]
    layout = Layout.load()
    sheet = render_sheet(layout, "A5", 150, [(41, 2), None])
    top = sheet[: sheet.shape[0] // 2]
    paper = np.full((top.shape[0] + 200, top.shape[1] + 200), 90, np.uint8)  # on a table
    paper[100:-100, 100:-100] = top
    reading = read_bulletin(cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR))
    assert reading.printed is not None and (reading.printed.table, reading.printed.coup) == (41, 2)
    assert reading.status == "bulletin_vierge"
    bottom = sheet[sheet.shape[0] // 2 :]
    assert bottom.min() > 140  # the empty slot stays blank paper (only the cut marks)


def test_printed_pads_read_back_and_stay_small(tmp_path):
    """The PDF as a printer gets it: each slot decodes to its own table and coup, an empty
    slot stays paper, and a tournament's pads stay a file a printer takes."""
    path = export_pads(tmp_path, [7, 8], [3, 4, 5], "A6")  # table 7: 3 bulletins, then table 8
    subprocess.run(["pdftoppm", "-r", "200", "-gray", "-f", "1", "-l", "1", str(path),
                    str(tmp_path / "p")], check=True, timeout=60)
    page = cv2.imread(str(next(tmp_path.glob("p-*.pgm"))), cv2.IMREAD_GRAYSCALE)
    h, w = page.shape[0] // 2, page.shape[1] // 2
    found = []
    for r, c in ((0, 0), (0, 1), (1, 0)):
        slot = page[r * h:(r + 1) * h, c * w:(c + 1) * w]
        paper = np.full((slot.shape[0] + 200, slot.shape[1] + 200), 90, np.uint8)  # on a table
        paper[100:-100, 100:-100] = slot
        printed = read_bulletin(cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR)).printed
        found.append(None if printed is None else (printed.table, printed.coup))
    assert found == [(7, 3), (7, 4), (7, 5)]
    assert page[h + 20:, w + 20:].min() > 140  # the fourth slot: paper only
    many = export_pads(tmp_path / "tournoi", list(range(1, 31)), [1, 2, 3, 4], "A6")
    assert many.stat().st_size < 30 * 40_000  # one JPEG page a sheet was ~520 kB each


def test_cli_gabarit_prints_pads(tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "vision", "gabarit", "--tables", "3-4", "--coups", "1-2",
         "--format", "A5", "--sortie", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )
    assert out.returncode == 0, out.stderr
    pdf = tmp_path / "bulletins_tables_3-4_coups_1-2_A5.pdf"
    assert str(pdf) in out.stdout and "2 planches A4" in out.stdout
    assert len(re.findall(rb"/Type\s*/Page\b", pdf.read_bytes())) == 2
    bad = subprocess.run([sys.executable, "-m", "vision", "gabarit", "--tables", "0-2",
                          "--sortie", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "table hors limites" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_code_survives_a_tilted_blurred_photo():
    layout = Layout.load()
    found = 0
    for seed in range(4):
        rng = np.random.default_rng(seed)
        paper, _ = write_bulletin(BulletinContent(None, "CHAT", "H8", 10), STYLES["test_gros"],
                                  rng, printed=(200 + seed, 9))
        photo, _ = photograph(paper, rng, PhotoEffects(max_tilt_deg=35, min_tilt_deg=25,
                                                       blur=(1.0, 1.4)))
        reading = read_bulletin(photo, layout=layout, coup=9)
        if reading.printed is not None:
            assert reading.printed.table == 200 + seed and reading.table.value == 200 + seed
            found += 1
    assert found >= 3


@pytest.mark.parametrize("table", [7, 42, 174, 999])
def test_a_code_blurred_past_the_first_reading_is_read_from_its_bits_middles(table):
    """A tilted, blurred photo (seed 516, ``cumul``) smears the code's bits into their
    neighbours: OpenCV's reading rejects the table's marker and the code is lost (the table
    then rests on the handwriting). Read again from each bit's middle, it is found, and
    the check marker still guards it: a wrong check, as blurred, is no code."""
    from vision import tablecode

    layout = Layout.load()
    page = cv2.GaussianBlur(render_page(layout, 8.0, table, 3), (0, 0), 4.0)
    band = tablecode._Band.of(page, layout.data["personal"])
    first = tablecode._code_of(tablecode._markers_found(
        tablecode._detector("DICT_5X5_1000", tablecode.BIT_MARGINS[0]), band))
    assert first is None  # what the first reading alone gave
    code = read_code(page, layout)
    assert code is not None and (code.table, code.coup) == (table, 3)
    spec = layout.data["personal"]
    x0, y0, x1, y1 = to_px(spec["markers"]["check"], (page.shape[1], page.shape[0]))
    side = min(x1 - x0, y1 - y0)
    wrong = render_page(layout, 8.0, table, 3).copy()
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_5X5_1000)
    wrong[y0 : y0 + side, x0 : x0 + side] = cv2.aruco.generateImageMarker(
        dictionary, (check(table, 3) + 1) % 1000, side)
    assert read_code(cv2.GaussianBlur(wrong, (0, 0), 4.0), layout) is None

