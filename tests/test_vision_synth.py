"""Layout, printable template and the seeded photo generator."""

import cv2
import numpy as np

from vision.glyphs import CHARS, GLYPHS, STYLES, TEST_STYLES, TRAIN_STYLES
from vision.layout import Layout, available_layouts
from vision.synth import BulletinContent, render_bulletin
from vision.template import export_assets, render_format, render_page


def test_layout_fields():
    layout = Layout.load()
    assert "fd1" in available_layouts()
    assert layout.grid_shape[1] >= 17 and layout.grid_shape[0] >= 3  # 15 letters + raccord around
    assert layout.marker_ids == {0, 1, 2, 3}
    ys = [layout.field_box(n)[1] for n in ("table", "ref", "score")]
    assert ys == sorted(ys)  # table on top, reference in the middle, score at the bottom
    gx = layout.grid_box[0] + layout.grid_box[2]
    assert all(layout.field_box(n)[0] > gx for n in ("table", "ref", "score"))  # boxes on the right
    assert layout.data["arbiter"]["box"][1] > 0.5  # grey strip at the bottom


def test_template_300_dpi_and_grey_strip():
    a6 = render_format(Layout.load(), "A6")
    assert a6.shape == (1240, 1748)
    a5 = render_format(Layout.load(), "A5")
    assert a5.shape == (1748, 2480)
    page = render_page(Layout.load(), 8.0)
    x, y, w, h = Layout.load().data["arbiter"]["box"]
    strip = page[int((y + h * 0.6) * page.shape[0]), int((x + w * 0.5) * page.shape[1])]
    assert 180 < strip < 240
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    _, ids, _ = cv2.aruco.ArucoDetector(dictionary).detectMarkers(page)
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]


def test_export_assets(tmp_path):
    files = export_assets(tmp_path)
    names = {p.name for p in files}
    assert {
        "bulletin_A6.pdf",
        "bulletin_A6.png",
        "bulletin_A5.pdf",
        "bulletin_A5_planche_A4.pdf",
    } <= names
    assert (tmp_path / "bulletin_A6.pdf").read_bytes()[:4] == b"%PDF"


def test_glyph_set_and_style_split():
    assert set(GLYPHS) == set(CHARS)
    assert not {s.name for s in TRAIN_STYLES} & {s.name for s in TEST_STYLES}
    assert {s.name for s in TRAIN_STYLES + TEST_STYLES} <= set(STYLES)


def test_writer_families_split_and_installed():
    from vision.glyphs import FAMILIES, HELD_OUT_FAMILIES, TRAIN_FAMILIES, family_of

    held = {f.name for f in HELD_OUT_FAMILIES}
    assert held and not held & {f.name for f in TRAIN_FAMILIES}
    # every held-out family can write (its fonts are installed by scripts/bootstrap.sh)
    assert all(FAMILIES[name].writers for name in held)
    held_writers = {w.name for f in HELD_OUT_FAMILIES for w in f.writers}
    train_writers = {w.name for f in TRAIN_FAMILIES for w in f.writers}
    assert not held_writers & train_writers
    # the random test writers of the generator: every held-out writer but the real hands',
    # which draw only with their data (UNIPEN, not in the repository)
    assert {s.name for s in TEST_STYLES} == {
        w.name for f in HELD_OUT_FAMILIES if f.kind != "reel" for w in f.writers}
    assert family_of("traits_fins_3") == "traits_fins"
    # the wider families use the extra shapes of confusable digits
    assert FAMILIES["traits_fins"].writers[0].extra and not STYLES["net"].extra


def test_generator_is_seeded_and_tells_the_truth():
    content = BulletinContent(12, "MAISONs", "H4", 70, ((-1, 2, "E"),))
    a, truth = render_bulletin(content, style="test_vif", seed=5)
    b, _ = render_bulletin(content, style="test_vif", seed=5)
    c, _ = render_bulletin(content, style="test_vif", seed=6)
    assert a == b and a != c
    assert a[:2] == b"\xff\xd8"
    assert truth.jokers == [6] and truth.style == "test_vif"
    row = sorted(
        (int(k.split(":")[2]), v) for k, v in truth.cells.items() if k.startswith("grid:1:")
    )
    letters = [v for _, v in row if v != "#"]
    assert "".join(letters) == "MAISONs"
    assert sorted(v for k, v in truth.cells.items() if k.startswith("table")) == ["1", "2"]
    assert "E" in [v for k, v in truth.cells.items() if k.startswith("grid:0:")]
    img = cv2.imdecode(np.frombuffer(a, np.uint8), cv2.IMREAD_COLOR)
    assert img is not None and min(img.shape[:2]) >= 1000


def test_virtual_players_bulletins_for_the_demo():
    from engine.board import Ref
    from engine.move import Move
    from vision.demo import player_bulletins
    from vision.reader import read_bulletin

    moves = [Move(Ref.parse("H4"), "MAISONS", (), 70), Move(Ref.parse("H8"), "RAISONs", (), 66)]
    photos = player_bulletins(moves, None, tables=range(1, 5), coup=3, seed=1)
    assert sorted(photos) == [1, 2, 3, 4]
    again = player_bulletins(moves, None, tables=[2], coup=3, seed=1)
    assert again[2][0] == photos[2][0]  # the same player's photo, whatever the others
    jpeg, truth = photos[3]
    assert truth.table == 3 and truth.word in ("MAISONS", "RAISONs")
    reading = read_bulletin(jpeg, moves)
    assert reading.status in ("ok", "a_verifier") and reading.word.value == truth.word


def test_glyph_measure_reads_held_out_families_only(tmp_path):
    """`vision.bench --glyphes`: the shipped network on glyphs cut from the held-out families'
    bulletins, per family. A network that reads nothing right must score near zero, so the
    measure really compares networks."""
    import json

    from vision.bench import glyph_accuracy
    from vision.glyphs import HELD_OUT_FAMILIES, usable
    from vision.models import CHAR_MODEL

    g = glyph_accuracy(None, per_family=12, cache=tmp_path)
    held = {f.name for f in HELD_OUT_FAMILIES if usable(f)}  # real hands: only with their data
    assert set(g["familles"]) == held and g["glyphes"] >= 12 * len(held)
    assert 0.6 < g["exactitude"] <= 1.0 and 0 <= g["fausses_sures"] < 0.1
    # the same network told the wrong classes (each output named after the next class):
    # every glyph read as another
    import shutil

    bad = tmp_path / "decale.onnx"
    shutil.copy(CHAR_MODEL, bad)
    meta = json.loads(CHAR_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    meta["classes"] = meta["classes"][1:] + meta["classes"][:1]
    bad.with_suffix(".json").write_text(json.dumps(meta), encoding="utf-8")
    assert glyph_accuracy(str(bad), per_family=12, cache=tmp_path)["exactitude"] < 0.3


def test_miscounts_are_the_ones_players_make():
    """The bench's miscounted scores: never the right score, never negative, and among them
    the tens digit changed (a 10-point letter), the word's double and the bonus."""
    from vision.demo import miscount

    rng = np.random.default_rng(3)
    wrong = [(s, miscount(s, rng)) for s in [24, 7, 60, 31] * 100]
    assert all(w != s and w >= 0 for s, w in wrong)
    deltas = {w - s for s, w in wrong}
    assert {10, -10, 24, 50, -30} <= deltas  # 24→34/14, 24→48, 7→57, 60→30
    assert sum(abs(w - s) < 10 for s, w in wrong) > len(wrong) / 3  # most: a letter's value


def test_the_bench_counts_a_written_bulletin_read_blank_as_silent():
    """The correction gives a blank bulletin a zero without showing it: for the bench and
    the family-out validation, a written one read blank is a silent error, never a flag."""
    from vision.bench import _flagged, field_confidences
    from vision.reader import BulletinReading
    from vision.status import FLOUE, VIERGE

    blank = BulletinReading(None, VIERGE, "bulletin vierge")
    assert not _flagged(blank, "word") and not _flagged(blank, "table")
    assert all(conf == 1.0 and not hard for conf, hard in field_confidences(blank).values())
    blurred = BulletinReading(None, FLOUE, "photo trop floue")
    assert _flagged(blurred, "word")
    assert all(conf == 0.0 and hard for conf, hard in field_confidences(blurred).values())


def test_the_bench_reads_personalised_bulletins_against_their_printed_table():
    """``--personnalises``: each bulletin carries its table printed and coded, the coup on
    every other one; the player fills the table box one time in three. The truth is the
    printed table, which the reader takes from the code even where the box is empty."""
    from vision.bench import evaluate, make_cases, personalised

    plain = make_cases(3, 5)
    cases = [personalised(c, k) for k, c in enumerate(plain)]
    coups = [None, 2, None]
    assert [c.printed for c in cases] == [(c.content.table, coups[k]) for k, c in enumerate(plain)]
    assert cases[0].content.table == plain[0].content.table
    assert cases[1].content.table is None and cases[2].content.table is None
    result = evaluate(cases, True, 0.95)
    assert result["accuracy"]["table"] == 1.0
