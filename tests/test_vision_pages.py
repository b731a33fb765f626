"""Several bulletins in one photo: found, ordered, read one by one; cut or overlapping sheets
said in French. Generated table photos (``synth.render_table``), real reader."""

import json

import cv2
import numpy as np
import pytest

from vision.decode import Candidate
from vision.page import Page, find_page, find_pages
from vision.reader import read_all, read_bulletin
from vision.status import COUPE, MESSAGES, PLUSIEURS, VisionError
from vision.synth import BulletinContent, PhotoEffects, TableLayout, render_bulletin, render_table

CONTENTS = [
    BulletinContent(12, "MAISONS", "H4", 70),
    BulletinContent(7, "ZEBREs", "C3", 43),
    BulletinContent(31, "QUARTZ", "12A", 88),
    BulletinContent(5, "JOUETS", "5K", 39),
]
MOVES = [Candidate("H4", "MAISONS", 70), Candidate("C3", "ZEBREs", 43),
         Candidate("12A", "QUARTZ", 88), Candidate("5K", "JOUETS", 39),
         Candidate("H8", "RAISONS", 66)]


def _match(found, truths, tol=4.0):
    assert len(found) == len(truths)
    for page, truth in zip(found, truths, strict=True):
        assert isinstance(page, Page)
        assert np.abs(page.corners - np.array(truth.corners)).max() < tol


@pytest.mark.parametrize("n,seed", [(2, 0), (3, 1), (4, 2), (4, 3)])
def test_bulletins_side_by_side_in_reading_order(n, seed):
    photo, truths = render_table(CONTENTS[:n], seed=seed, jpeg=False)
    _match(find_pages(photo), truths)  # laid row by row, left to right: the reading order


def test_each_bulletin_is_read_on_its_own():
    photo, _ = render_table(CONTENTS[:3], seed=4)
    readings = read_all(photo, MOVES, tables=[5, 7, 12, 31])
    assert [(r.sheet, r.sheets) for r in readings] == [(1, 3), (2, 3), (3, 3)]
    assert [r.bulletin()["table"] for r in readings] == [12, 7, 31]
    assert [r.bulletin()["word"] for r in readings] == ["MAISONS", "ZEBREs", "QUARTZ"]
    assert all(r.status in ("ok", "a_verifier") for r in readings)
    pages = [r.page.image for r in readings]
    assert all(p.shape == pages[0].shape for p in pages)
    assert not np.array_equal(pages[0], pages[1])  # each its own rectified bulletin
    assert readings[0].to_dict()["feuilles"] == 3
    # the one-bulletin reader keeps its contract: several on the photo is refused, in French
    alone = read_bulletin(photo)
    assert alone.status == PLUSIEURS and alone.message.startswith(MESSAGES[PLUSIEURS])


def test_one_bulletin_photo_reads_as_before():
    photo, _ = render_bulletin(CONTENTS[0], seed=3)
    [reading] = read_all(photo, MOVES)
    single = read_bulletin(photo, MOVES)
    assert (reading.sheet, reading.sheets) == (1, 1)
    assert reading.bulletin() == single.bulletin() and reading.status == single.status


def test_rotated_photo_keeps_the_photo_reading_order():
    photo, truths = render_table(CONTENTS, seed=5, jpeg=False)  # laid A B / C D
    turned = cv2.rotate(photo, cv2.ROTATE_90_CLOCKWISE)  # as held: C A / D B
    h = photo.shape[0]
    for t in truths:  # (x, y) → (h - 1 - y, x) under a quarter turn clockwise
        t.corners = [[h - 1 - y, x] for x, y in t.corners]
    a, b, c, d = truths
    _match(find_pages(turned), [c, a, d, b])
    assert [r.bulletin()["table"] for r in read_all(turned, MOVES, tables=[5, 7, 12, 31])] \
        == [31, 12, 5, 7]


def test_a_bulletin_cut_at_the_edge_is_reported():
    photo, truths = render_table(CONTENTS[:2], seed=6, jpeg=False,
                                 table=TableLayout(max_turn_deg=0, gap_mm=(6, 8)))
    right = np.array(truths[1].corners)
    for keep in (0.5, 0.12):  # half the second sheet (two markers), then one marker's strip
        cut = int(right[:, 0].min() + keep * np.ptp(right[:, 0]))
        found = find_pages(photo[:, :cut].copy())
        assert isinstance(found[0], Page) and len(found) == 2, keep
        assert isinstance(found[1], VisionError) and found[1].status == COUPE
        readings = read_all(photo[:, :cut].copy(), MOVES, tables=[7, 12])
        assert readings[0].bulletin()["table"] == 12
        assert readings[1].status == COUPE and "coupé au bord de la photo" in readings[1].message
        assert readings[1].bulletin()["illisible"] is True
    # one marker left of it: its other one at the edge under a finger
    cut = photo[:, :int(right[:, 0].min() + 0.12 * np.ptp(right[:, 0]))].copy()
    bottom, left = int(right[:, 1].max()), int(right[:, 0].min())
    cut[bottom - int(0.2 * np.ptp(right[:, 1])):bottom + 5, left - 5:] = (60, 80, 120)
    found = find_pages(cut)
    assert isinstance(found[0], Page) and [getattr(f, "status", None) for f in found[1:]] == [
        COUPE]


def test_only_a_cut_bulletin():
    photo, truths = render_table(CONTENTS[:2], seed=6, jpeg=False,
                                 table=TableLayout(max_turn_deg=0, gap_mm=(6, 8)))
    right = np.array(truths[1].corners)
    cut = photo[:, int(right[:, 0].min() - 20):int(right[:, 0].min() + 0.4 * np.ptp(right[:, 0]))]
    with pytest.raises(VisionError) as err:
        find_page(cut.copy())
    assert err.value.status == COUPE


def test_generic_and_personalised_pads_together():
    photo, _ = render_table(CONTENTS[:3], seed=7, printed=[None, (7, 2), None])
    readings = read_all(photo, MOVES, tables=[5, 7, 12, 31], coup=2)
    assert [r.printed.table if r.printed else None for r in readings] == [None, 7, None]
    assert [r.bulletin()["table"] for r in readings] == [12, 7, 31]


def test_overlapping_sheets_are_refused_in_french():
    photo, _ = render_table(CONTENTS[:2], seed=8, jpeg=False,
                            table=TableLayout(max_turn_deg=1, gap_mm=(0, 0), overlap_mm=45))
    with pytest.raises(VisionError) as err:
        find_pages(photo)
    assert err.value.status == PLUSIEURS and "chevauchent" in str(err.value)
    [reading] = read_all(photo)
    assert reading.status == PLUSIEURS and "côte à côte" in reading.message


def test_a_stack_photographed_on_its_top_bulletin_reads_that_one():
    """Arbiters photograph a stack: the next bulletin (another player's, same move) shows past
    the top one's edges, markers and table box included. The top one, every marker seen, is
    read; the one beneath, whose missing markers its top hides, is not, and the photo is
    not refused. Two sheets laid less over each other stay refused (the test above)."""
    from vision.glyphs import STYLES
    from vision.synth import photograph, write_bulletin

    top, below = CONTENTS[0], BulletinContent(99, "MAISONS", "H4", 70)
    for seed in range(4):
        rng = np.random.default_rng(seed)
        paper, _ = write_bulletin(top, STYLES["test_serre"], rng)
        under, _ = write_bulletin(below, STYLES["test_vif"], rng)
        photo, corners = photograph(paper, rng, PhotoEffects(max_tilt_deg=15, upside_down=0, shadow=0,
                                                             blur=(0, 0.5), fill=(0.45, 0.6)), under=under)
        [page] = find_pages(photo)
        assert np.abs(page.corners - corners).max() < 4.0, seed
        reading = read_bulletin(photo, MOVES, tables=[12, 99])
        assert reading.bulletin()["table"] == 12 and reading.bulletin()["word"] == "MAISONS", seed


def test_margins_laid_over_each_other_are_allowed():
    photo, truths = render_table(CONTENTS[:2], seed=9, jpeg=False,
                                 table=TableLayout(max_turn_deg=1, gap_mm=(0, 0), overlap_mm=2))
    _match(find_pages(photo), truths)


def test_tilted_photo_taken_from_the_other_side():
    fx = PhotoEffects(max_tilt_deg=28, min_tilt_deg=18, max_rotation_deg=8, upside_down=1.0,
                      fill=(0.88, 0.96), quarter_turn=0.0)
    photo, truths = render_table(CONTENTS[:3], seed=10, effects=fx, jpeg=False)
    _match(find_pages(photo), truths[::-1], tol=6.0)  # laid A B C, seen C B A


def test_vision_lire_prints_every_bulletin_of_a_photo(tmp_path, capsys):
    from vision.cli import main

    photo, _ = render_table(CONTENTS[:2], seed=11)
    path = tmp_path / "deux.jpg"
    path.write_bytes(photo)
    assert main(["lire", str(path), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(d["feuille"], d["feuilles"], d["bulletin"]["table"]) for d in lines] == [
        (1, 2, 12), (2, 2, 7)]
    assert main(["lire", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path} (bulletin 1/2) : " in out and f"{path} (bulletin 2/2) : " in out


def test_too_many_bulletins_on_one_photo_are_refused():
    photo, _ = render_table(CONTENTS, seed=1, jpeg=False)
    sixteen = np.tile(cv2.resize(photo, None, fx=0.6, fy=0.6), (2, 2, 1))
    with pytest.raises(VisionError) as err:
        find_pages(sixteen)
    assert err.value.status == PLUSIEURS and "plus de 8 bulletins" in str(err.value)


@pytest.mark.parametrize("n,seed", [(2, 0), (3, 1), (4, 2)])
def test_bulletins_without_markers_side_by_side_are_found_by_their_printed_matter(n, seed):
    """The federation's bulletins (no markers) photographed together: no outline is one
    page, the printed matter shows each; every sheet is found once, in reading order, and
    read on its own."""
    from vision.stress import markerless_layout

    layout = markerless_layout()
    photo, truths = render_table(CONTENTS[:n], seed=seed, jpeg=False, layout=layout)
    found = find_pages(photo, layout)
    assert len(found) == n and all(isinstance(p, Page) and p.method == "motifs" for p in found)
    for page, truth in zip(found, truths, strict=True):  # corners within 1.5 % of the photo
        assert np.abs(page.corners - np.array(truth.corners)).max() < 0.015 * max(photo.shape)
    readings = read_all(photo, MOVES, layout=layout)
    assert [r.bulletin()["table"] for r in readings] == [c.table for c in CONTENTS[:n]]
    assert [r.bulletin()["word"] for r in readings] == [c.word for c in CONTENTS[:n]]


def test_bulletins_without_markers_laid_over_each_other_are_refused_in_french():
    """Two of the federation's bulletins overlapping by 45 mm: which one was meant? Refused,
    as with markers, the arbiter asked to lay them side by side."""
    from vision.stress import markerless_layout

    layout = markerless_layout()
    photo, _ = render_table(CONTENTS[:2], seed=8, jpeg=False, layout=layout,
                            table=TableLayout(max_turn_deg=1, gap_mm=(0, 0), overlap_mm=45))
    with pytest.raises(VisionError) as err:
        find_pages(photo, layout)
    assert err.value.status == PLUSIEURS and "chevauchent" in str(err.value)
