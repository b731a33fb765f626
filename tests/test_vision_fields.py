"""Stage 3 (cell occupancy, struck and across-border letters) on generated photos."""

import numpy as np

from vision.fields import cut_fields
from vision.layout import Layout
from vision.page import find_page
from vision.synth import BulletinContent, Mistakes, random_content, render_bulletin


def test_written_cells_are_found():
    layout = Layout.load()
    total = wrong = 0
    for seed in range(8):
        content = random_content(np.random.default_rng(seed))
        style = ("test_vif", "test_serre", "test_gros", "test_humor")[seed % 4]
        photo, truth = render_bulletin(content, style=style, seed=seed, jpeg=False)
        fields = cut_fields(find_page(photo, layout).image, layout)
        got = {g.key for g in fields.all()}
        total += len(truth.cells)
        wrong += len(got ^ set(truth.cells))
    assert total > 100
    assert wrong / total < 0.02


def test_faint_thin_writing_is_reported():
    layout = Layout.load()
    content = random_content(np.random.default_rng(0))
    photo, truth = render_bulletin(content, style="test_breip", seed=0, jpeg=False)  # blurred, thin pen
    fields = cut_fields(find_page(photo, layout).image, layout)
    got = {g.key for g in fields.all()}
    missed = set(truth.cells) - got
    assert len(missed) <= 0.25 * len(truth.cells)
    assert missed <= fields.doubtful and got <= set(truth.cells)


def test_letters_across_borders_are_found_or_reported():
    layout = Layout.load()
    mistakes = Mistakes(across_border=1.0, crossed_out=0.0)  # every letter straddles a cell line
    found = total = 0
    widths = []
    for seed in range(1, 7):
        photo, truth = render_bulletin(
            BulletinContent(3, "CHEVAL", "8D", 22),
            style="test_vif",
            seed=seed,
            jpeg=False,
            mistakes=mistakes,
        )
        fields = cut_fields(find_page(photo, layout).image, layout)
        want = {k for k in truth.cells if k.startswith("grid:")}
        got = {f"grid:{r}:{c}" for r, c in fields.grid}
        assert got <= want  # no letter counted twice or in a wrong cell
        found += len(got)
        total += len(want)
        widths += [g.image.shape[1] / g.cell_px for g in fields.grid.values()]
    assert found / total >= 0.85
    assert np.median(widths) > 0.4  # letters are not cut in half by the cell lines


def test_blank_bulletin_is_empty():
    layout = Layout.load()
    photo, _ = render_bulletin(BulletinContent(None, "", None, None), seed=2, jpeg=False)
    fields = cut_fields(find_page(photo, layout).image, layout)
    assert fields.empty
