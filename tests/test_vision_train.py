"""Training smoke test, the arbiters' crop store, Tesseract's second opinion, calibration."""

import json

import cv2
import numpy as np
import pytest

from vision.classifier import MLP, train_mlp
from vision.glyphs import FAMILIES
from vision.layout import Layout
from vision.learn import load_confirmed, save_confirmed
from vision.reader import read_bulletin
from vision.recognise import Recogniser
from vision.synth import BulletinContent, PhotoEffects, photograph, render_bulletin
from vision.template import render_page
from vision.tess import tesseract_char
from vision.train import CLASSES, TrainingUnavailable, collect, train


def test_tiny_training_run(tmp_path):
    fx, fy, wx, wy = collect(3, seed=42)
    assert len(fx) == len(fy) > 20 and len(wx) == len(wy) > 5
    model = train_mlp(fx, fy, CLASSES, hidden=16, epochs=3, val_share=0.0)
    p = model.predict_proba(fx[:5])
    assert p.shape == (5, len(CLASSES)) and np.allclose(p.sum(1), 1)
    model.save(tmp_path / "m.npz")
    again = MLP.load(tmp_path / "m.npz")
    assert np.allclose(again.predict_proba(fx[:5]), p, atol=1e-5)


def test_confirmed_crops_round_trip_and_retrain(tmp_path):
    data, _ = render_bulletin(BulletinContent(12, "MAISONs", "H4", 70), seed=21)
    reading = read_bulletin(data)
    store = tmp_path / "partie.vision"
    confirmed = {"word": "MAISONs", "ref": "H4", "score": 70, "table": 12}
    kept = save_confirmed(reading, confirmed, store, enabled=True)
    expected = sum(len(str(v)) for k, v in confirmed.items() if len(reading.cell_keys[k]) == len(str(v)))
    assert kept == expected >= 9
    crops = list(load_confirmed(store))
    assert len(crops) == kept
    labels = "".join(label for _, _, label in crops)
    assert "s" in labels and "H" in labels
    assert save_confirmed(reading, {"word": "MAISONs"}, tmp_path / "off", enabled=False) == 0
    # retraining needs the optional "train" extra (PyTorch); without it, a clear French message
    fams = [FAMILIES["net"], FAMILIES["police_comic"]]
    try:
        import torch  # noqa: F401
    except ImportError:
        with pytest.raises(TrainingUnavailable, match="PyTorch"):
            train(40, seed=3, out_dir=tmp_path / "model", extra=crops, epochs=1, folds=0,
                  cache=tmp_path / "cache", families=fams, log=None)
        return
    train(40, seed=3, out_dir=tmp_path / "model", extra=crops, epochs=1, folds=0,
          cache=tmp_path / "cache", families=fams, log=None, threads=1)
    assert (tmp_path / "model" / "glyphes.onnx").exists()
    recogniser = Recogniser.load(tmp_path / "model")
    assert recogniser.chars.classes == CLASSES
    assert len(recogniser.read(list(reading.crops.values()))) == len(reading.crops)
    # going on training a shipped network keeps its family-out calibration
    meta = tmp_path / "model" / "glyphes.json"
    meta.write_text(meta.read_text().replace('"temperature": 1.0', '"temperature": 1.7'))
    train(40, seed=4, out_dir=tmp_path / "more", epochs=1, folds=0, cache=tmp_path / "cache",
          families=fams, log=None, threads=1, resume=tmp_path / "model" / "glyphes.onnx")
    assert Recogniser.load(tmp_path / "more").chars.temperature == 1.7


def test_tesseract_reads_a_printed_capital():
    img = np.zeros((80, 60), np.float32)
    cv2.putText(img, "K", (8, 66), cv2.FONT_HERSHEY_SIMPLEX, 2.4, 1.0, 6)
    ys, xs = np.nonzero(img)
    ch, conf = tesseract_char(
        img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    )
    assert ch == "K" and conf > 0.5


def test_calibrate_a_marker_less_bulletin(tmp_path):
    from vision.calibrate import calibrate_image

    layout = Layout.load()
    data = dict(layout.data)
    data["markers"] = {"dictionary": "DICT_4X4_50", "items": []}
    page = render_page(Layout("sans_marqueurs", data), 10)
    rng = np.random.default_rng(1)
    fx = PhotoEffects(max_tilt_deg=12, upside_down=0, max_rotation_deg=6, fill=(0.8, 0.9), shadow=0)
    photo, _ = photograph(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR), rng, fx)
    measured = calibrate_image(photo, "essai")
    assert measured["grid"]["rows"] == 3 and measured["grid"]["cols"] == 17
    assert np.allclose(measured["grid"]["box"], layout.grid_box, atol=0.015)
    for name in ("table", "ref", "score"):
        assert np.allclose(measured["fields"][name]["box"][:2], layout.field_box(name)[:2], atol=0.015)
    assert measured["fields"]["score"]["cells"] == 4
    path = tmp_path / "essai.json"
    path.write_text(json.dumps(measured))
    assert Layout.load(path).grid_shape == (3, 17)


def test_cli_calibrer_and_generer(tmp_path):
    import subprocess
    import sys

    layout = Layout.load()
    data = dict(layout.data)
    data["markers"] = {"dictionary": "DICT_4X4_50", "items": []}
    page = render_page(Layout("sans_marqueurs", data), 10)
    fx = PhotoEffects(max_tilt_deg=8, upside_down=0, max_rotation_deg=4, fill=(0.85, 0.9), shadow=0)
    photo, _ = photograph(cv2.cvtColor(page, cv2.COLOR_GRAY2BGR), np.random.default_rng(4), fx)
    blank = tmp_path / "vierge.jpg"
    cv2.imwrite(str(blank), photo)
    out = tmp_path / "federation.json"
    run = subprocess.run(
        [sys.executable, "-m", "vision", "calibrer", str(blank), "--nom", "federation", "--sortie", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    assert Layout.load(out).grid_shape == (3, 17)
    run = subprocess.run(
        [sys.executable, "-m", "vision", "generer", str(tmp_path / "photos"), "--nombre", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0
    assert len(list((tmp_path / "photos").glob("*.jpg"))) == 2
    truth = json.loads((tmp_path / "photos" / "bulletin_000.json").read_text())
    assert {"word", "ref", "score", "table"} <= set(truth)


def test_shipped_network_reads_unseen_writers_and_is_calibrated_on_unseen_families():
    """The shipped ONNX network, run by cv2.dnn, on a handful of glyphs of held-out families."""
    from vision.cnn import GlyphNet
    from vision.glyphs import HELD_OUT_FAMILIES
    from vision.models import CHAR_MODEL, DATA_DIR
    from vision.recognise import default_recogniser
    from vision.trainset import make_patch

    assert sum(p.stat().st_size for p in DATA_DIR.iterdir()) < 2_000_000
    net = GlyphNet.load(CHAR_MODEL)
    trained_on = set(net.meta["familles"])
    assert not trained_on & {f.name for f in HELD_OUT_FAMILIES}
    # calibrated on families left out of the fold networks, never on the held-out ones
    assert set(sum(net.meta["plis"], [])) <= trained_on and 0.5 < net.temperature < 6
    rng = np.random.default_rng(3)
    recogniser = default_recogniser()
    right = total = 0
    for fam in HELD_OUT_FAMILIES[:6]:
        for _ in range(3):
            glyphs = make_patch(fam, rng)
            if not glyphs:
                continue
            images = np.stack([g[0] for g in glyphs])
            fields = [g[2] for g in glyphs]
            p = recogniser.field_probs(net.logits_of_images(images), fields)
            right += int((p.argmax(1) == np.array([g[1] for g in glyphs])).sum())
            total += len(glyphs)
            assert np.allclose(p.sum(1), 1)
    assert total >= 30 and right / total >= 0.8


def test_training_pages_are_cut_by_the_reader_and_labelled_as_written():
    """Whole training bulletins (the capture side's inks, free numbers, curled photos) give
    glyphs whose labels are the characters written there: the shipped network agrees."""
    from vision.recognise import default_recogniser
    from vision.trainset import PAGE_INKS, make_page

    rng = np.random.default_rng(11)
    glyphs = []
    for fam in (FAMILIES["net"], FAMILIES["police_comic"], FAMILIES["traits_grands"]):
        for _ in range(2):
            glyphs += make_page(fam, rng)
    assert len(glyphs) >= 40
    assert {g[2] for g in glyphs} >= {"grid", "table", "score", "ref"}
    assert {g[3] for g in glyphs} <= {n or "stylo" for n, _ in PAGE_INKS}
    assert all(g[0].shape == (32, 32) and g[0].dtype == np.uint8 for g in glyphs)
    recogniser = default_recogniser()
    p = recogniser.field_probs(recogniser.chars.logits_of_images(np.stack([g[0] for g in glyphs])),
                               [g[2] for g in glyphs])
    assert (p.argmax(1) == np.array([g[1] for g in glyphs])).mean() >= 0.85


def test_each_field_has_its_own_temperature(tmp_path):
    """Digits of unseen hands are not over-confident as letters are: the JSON beside the
    network may give each field its temperature, applied to that field's glyphs only."""
    import shutil

    from vision.models import CHAR_MODEL

    shutil.copy(CHAR_MODEL, tmp_path / "glyphes.onnx")
    meta = json.loads(CHAR_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    meta["temperature"] = 1.0
    meta["temperatures"] = {"grid": 1.0, "table": 4.0}
    (tmp_path / "glyphes.json").write_text(json.dumps(meta), encoding="utf-8")
    hot = Recogniser.load_file(tmp_path / "glyphes.onnx")
    meta.pop("temperatures")
    (tmp_path / "glyphes.json").write_text(json.dumps(meta), encoding="utf-8")
    plain = Recogniser.load_file(tmp_path / "glyphes.onnx")
    rng = np.random.default_rng(2)
    logits = rng.normal(0, 4, (3, len(CLASSES))).astype(np.float32)
    fields = ["grid", "table", "score"]
    a, b = hot.field_probs(logits, fields), plain.field_probs(logits, fields)
    assert np.allclose(a[0], b[0]) and np.allclose(a[2], b[2])  # grid 1.0, score: the overall 1.0
    assert a[1].max() < b[1].max() and np.isclose(a[1].sum(), 1)  # table: 4.0, flatter


def test_glyphs_are_read_in_the_networks_views_and_their_logits_averaged(tmp_path):
    """A network whose JSON names views reads each glyph as cut and turned a little either
    way, averaging the logits; one that names none reads the glyph as cut."""
    import shutil

    from vision.cnn import PLAIN_VIEWS, GlyphNet, view
    from vision.models import CHAR_MODEL
    from vision.trainset import make_patch

    glyphs = make_patch(FAMILIES["net"], np.random.default_rng(5))
    images = np.stack([g[0] for g in glyphs])
    assert np.array_equal(view(images, "id"), images)
    turned = view(images, "r+6")
    assert turned.shape == images.shape and not np.array_equal(turned, images)
    # a turn moves ink, it does not add or lose much of it
    assert abs(float(turned.sum()) / float(images.sum()) - 1) < 0.1
    shutil.copy(CHAR_MODEL, tmp_path / "glyphes.onnx")
    meta = json.loads(CHAR_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    meta.pop("vues", None)
    (tmp_path / "glyphes.json").write_text(json.dumps(meta), encoding="utf-8")
    plain = GlyphNet.load(tmp_path / "glyphes.onnx")
    assert plain.views == PLAIN_VIEWS
    meta["vues"] = ["id", "r+6", "r-6"]
    (tmp_path / "glyphes.json").write_text(json.dumps(meta), encoding="utf-8")
    viewed = GlyphNet.load(tmp_path / "glyphes.onnx")
    each = [plain.logits_of_images(images, (v,)) for v in ("id", "r+6", "r-6")]
    assert np.allclose(viewed.logits_of_images(images), np.mean(each, axis=0), atol=1e-4)
    assert np.allclose(plain.logits_of_images(images), each[0])
    assert not np.allclose(each[0], each[1])
    # thousands at once (the calibration reads whole families) go through in batches
    from vision.cnn import BATCH

    many = np.resize(images, (BATCH + 7, 32, 32))
    got = viewed.logits_of_images(many)
    assert got.shape == (BATCH + 7, len(CLASSES))
    assert np.allclose(got[-7:], viewed.logits_of_images(many[-7:]), atol=1e-4)


def test_recalibrate_refits_the_temperatures_on_the_folds_read_in_the_views(tmp_path):
    """Reading in other views changes how sure the network is: the temperatures are refitted
    on the family-out folds read in those views, written into the network's JSON and the
    folds' (the validation reads as the kiosk reads). No PyTorch needed."""
    import shutil
    import subprocess
    import sys

    from vision.models import CHAR_MODEL
    from vision.status import VisionError
    from vision.train import recalibrate

    model = tmp_path / "modele" / "glyphes.onnx"
    model.parent.mkdir()
    shutil.copy(CHAR_MODEL, model)
    meta = json.loads(CHAR_MODEL.with_suffix(".json").read_text(encoding="utf-8"))
    meta.pop("vues", None)
    model.with_suffix(".json").write_text(json.dumps(meta), encoding="utf-8")
    folds = tmp_path / "cache" / "plis"
    with pytest.raises(VisionError, match="aucun réseau de pli"):
        recalibrate(model, folds, cache=tmp_path / "cache", n=30, log=None)
    folds.mkdir(parents=True)
    # a stand-in fold: the shipped network, said to have left out two training families
    shutil.copy(CHAR_MODEL, folds / "pli1.onnx")
    (folds / "pli1.json").write_text(json.dumps({**meta, "sans": ["net", "police_comic"]}), encoding="utf-8")
    report = recalibrate(model, folds, ("id", "r+6"), n=30, cache=tmp_path / "cache", log=None)
    assert set(report["par_famille"]) == {"net", "police_comic"}
    for path in (model.with_suffix(".json"), folds / "pli1.json"):
        written = json.loads(path.read_text(encoding="utf-8"))
        assert written["vues"] == ["id", "r+6"]
        assert written["temperatures"] == report["temperatures"]
        assert 0.5 <= written["temperature"] <= 6
    assert "exactitude_familles_exclues" in json.loads(model.with_suffix(".json").read_text())
    cli = subprocess.run(
        [sys.executable, "-m", "vision", "entrainer", "--recalibrer", "--vues", "id,tordu",
         "--sortie", str(model.parent), "--cache", str(tmp_path / "cache")],
        capture_output=True, text=True, timeout=120,
    )
    assert cli.returncode == 2 and "vue inconnue tordu" in cli.stderr


def test_two_trained_networks_combine_into_one_mean_network(tmp_path):
    """An ensemble: the mean of two networks trained with other seeds on the same glyphs, one
    ONNX graph the reader runs as any network, its folds the means of the members' folds, and
    its temperatures refitted on them. Needs PyTorch (the train extra): without it, a clear
    French message and nothing written."""
    import shutil

    from vision.cnn import GlyphNet
    from vision.status import VisionError
    from vision.train import combine, net_from_onnx

    fams = [FAMILIES["net"], FAMILIES["police_comic"], FAMILIES["traits_grands"]]
    try:
        import torch  # noqa: F401
    except ImportError:
        with pytest.raises(TrainingUnavailable, match="PyTorch"):
            combine([tmp_path / "a", tmp_path / "b"], tmp_path / "moyen", tmp_path / "cache", log=None)
        assert not (tmp_path / "moyen").exists()
        return
    cache = tmp_path / "cache"
    for name, net_seed in (("a", 1), ("b", 2)):
        train(40, seed=3, out_dir=tmp_path / name, epochs=1, folds=3, fold_epochs=1, cache=cache,
              families=fams, log=None, threads=1, net_seed=net_seed)
        shutil.copytree(cache / "plis", tmp_path / name / "plis")
    with pytest.raises(VisionError, match="pas de réseau"):
        combine([tmp_path / "a", tmp_path / "rien"], tmp_path / "moyen", cache, n=40, seed=3, log=None)
    report = combine([tmp_path / "a", tmp_path / "b"], tmp_path / "moyen", cache, n=40, seed=3, log=None)
    assert set(report["par_famille"]) == {f.name for f in fams}
    mean = GlyphNet.load(tmp_path / "moyen" / "glyphes.onnx")
    a = GlyphNet.load(tmp_path / "a" / "glyphes.onnx")
    b = GlyphNet.load(tmp_path / "b" / "glyphes.onnx")
    assert mean.meta["membres"] == 2 and mean.meta["vues"] == ["id", "r+6", "r-6"]
    images = np.random.default_rng(1).integers(0, 255, (5, 32, 32)).astype(np.uint8)
    views = ("id",)
    both = (a.logits_of_images(images, views) + b.logits_of_images(images, views)) / 2
    assert np.allclose(mean.logits_of_images(images, views), both, atol=1e-3)
    folds = sorted((cache / "plis").glob("pli*.onnx"))
    assert len(folds) == 3 and all(GlyphNet.load(f).meta["membres"] == 2 for f in folds)
    with pytest.raises(VisionError, match="moyenne de plusieurs"):
        net_from_onnx(tmp_path / "moyen" / "glyphes.onnx")


def test_a_combed_patch_glyph_keeps_its_label_only_when_it_is_what_was_drawn_in_its_box():
    """Training patches: a digit pushed into the next box is filed with it, and the box's
    label would go to the residue left behind (a straight line learnt as any digit). A glyph
    is kept only where its ink lies on its own character's strokes and holds most of them."""
    from vision.fields import Glyph
    from vision.trainset import _cut_as_drawn, make_patch

    strokes = np.zeros((80, 120), bool)
    strokes[20:60, 30:34] = True  # a "1" drawn at x 30–34
    strokes[20:24, 30:45] = True

    def glyph(x, y, image):
        return Glyph("score", 0, 0, image.astype(np.float32), np.zeros((4, 4), np.float32), 0.1, 40.0,
                     origin=(x, y))

    drawn = strokes[20:60, 30:45]
    assert _cut_as_drawn(glyph(30, 20, drawn), strokes)  # the drawing itself
    assert _cut_as_drawn(glyph(33, 22, drawn), strokes)  # moved a few pixels by the photo
    line = np.ones((40, 2))
    assert not _cut_as_drawn(glyph(90, 20, line), strokes)  # the box's line, far from the digit
    assert not _cut_as_drawn(glyph(30, 50, drawn[30:]), strokes)  # a piece of the digit only
    assert not _cut_as_drawn(glyph(30, 20, drawn), np.zeros_like(strokes))  # nothing drawn there
    # whole patches: the combed boxes' glyphs that survive are the digits written, not lines
    rng = np.random.default_rng(4)
    thin = kept = 0
    for _ in range(60):
        for img, label, field, _ in make_patch(FAMILIES["test_delphine"], rng):
            if field != "grid":
                kept += 1
                thin += (img > 80).any(0).sum() <= 4 and CLASSES[label] != "1"
    assert kept >= 40 and thin == 0
