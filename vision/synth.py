"""Seeded generator of photographed, hand-filled bulletins with their ground truth.

Used to train the classifier (training styles), to benchmark (held-out
styles) and by the kiosk demo for its virtual players::

    jpeg, truth = render_bulletin(BulletinContent(table=12, word="MAISONs", ref="H4", score=70),
                                  style="test_vif", seed=3)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from functools import lru_cache

import cv2
import numpy as np

from .glyphs import (
    STYLES,
    TEST_STYLES,
    TRAIN_STYLES,
    FontStyle,
    Style,
    draw_circle,
    draw_glyph,
    draw_sample,
    draw_strike,
)
from .layout import Layout, to_px
from .template import render_page

PX_PER_MM = 10.0


@dataclass(frozen=True)
class BulletinContent:
    """What the player writes. ``word`` has jokers in lower case; ``raccord`` lists
    ``(row_offset, index, letter)``: -1 above / +1 below the word, index from its first letter."""

    table: int | None
    word: str
    ref: str | None
    score: int | None
    raccord: tuple[tuple[int, int, str], ...] | None = None


@dataclass
class Mistakes:
    """How messy the writer is, as probabilities per bulletin or per letter."""

    across_border: float = 0.06  # per letter: written straddling a cell line
    crossed_out: float = 0.15  # per bulletin: one wrong letter crossed out, then the right one
    align_right: float = 0.5  # digits pushed to the right of their combed box


@dataclass
class PhotoEffects:
    """Capture conditions; ``None`` for a clean, flat scan."""

    max_tilt_deg: float = 30.0
    upside_down: float = 0.2
    max_rotation_deg: float = 25.0
    blur: tuple[float, float] = (0.0, 1.6)
    jpeg_quality: tuple[int, int] = (35, 90)
    noise: tuple[float, float] = (2.0, 9.0)
    shadow: float = 0.6
    size: tuple[int, int] = (1600, 1200)
    fill: tuple[float, float] = (0.55, 0.9)
    min_tilt_deg: float = 0.0


@dataclass
class GroundTruth:
    table: int | None
    word: str
    ref: str | None
    score: int | None
    raccord: tuple | None
    jokers: list[int]
    style: str
    seed: int
    corners: list[list[float]] = field(default_factory=list)  # page corners in the photo
    crossed: list[int] = field(default_factory=list)  # grid columns holding a struck letter
    word_start: int = 0
    cells: dict[str, str] = field(default_factory=dict)  # "grid:r:c" / "table:i" → char, '#' struck

    def to_dict(self) -> dict:
        return asdict(self)


@lru_cache(maxsize=4)
def _blank(name: str, px_per_mm: float) -> np.ndarray:
    page = render_page(Layout.load(name), px_per_mm)
    page.flags.writeable = False
    return page


def _style(
    style: str | Style | FontStyle | None, rng: np.random.Generator, held_out: bool
) -> Style:
    if isinstance(style, Style | FontStyle):
        return style
    if style:
        return STYLES[style]
    pool = TEST_STYLES if held_out else TRAIN_STYLES
    return pool[int(rng.integers(len(pool)))]


def _cell_centre(box: tuple[int, int, int, int]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def write_bulletin(
    content: BulletinContent,
    style: Style | FontStyle,
    rng: np.random.Generator,
    layout: Layout | None = None,
    mistakes: Mistakes | None = None,
    px_per_mm: float = PX_PER_MM,
    digits: dict[str, list[np.ndarray]] | None = None,
) -> tuple[np.ndarray, GroundTruth]:
    """The filled bulletin, flat and upright (BGR), and what is on it.

    ``digits``: scanned hand-written digit samples (e.g. MNIST) used for about half the digits."""
    layout = layout or Layout.load()
    mistakes = mistakes or Mistakes()
    page = (
        _blank(layout.name, px_per_mm)
        if layout.name == Layout.load().name
        else render_page(layout, px_per_mm)
    )
    size = (page.shape[1], page.shape[0])
    img = cv2.cvtColor(page, cv2.COLOR_GRAY2BGR)
    tint = np.array([rng.uniform(225, 250), rng.uniform(235, 252), rng.uniform(240, 255)]) / 255
    img = (img.astype(np.float32) * tint).astype(np.uint8)
    truth = GroundTruth(
        content.table,
        content.word,
        content.ref,
        content.score,
        content.raccord,
        [i for i, ch in enumerate(content.word) if ch.islower()],
        style.name,
        0,
    )

    rows, cols = layout.grid_shape
    cells = layout.grid_cells()
    n = len(content.word)
    crossed_at = -1
    if n and n < cols - 1 and rng.random() < mistakes.crossed_out:
        crossed_at = int(rng.integers(n))
    span = n + (crossed_at >= 0)
    lo = 1 if content.raccord and any(i < 0 for _, i, _ in content.raccord) else 0
    start = int(rng.integers(lo, max(lo, cols - span - 1) + 1)) if span < cols else 0
    truth.word_start = start
    col = start
    cell_px = (cells[0][0][2] * size[0] + cells[0][0][3] * size[1]) / 2
    word_row = layout.word_row
    letter_cols: list[int] = []
    for i, ch in enumerate(content.word):
        if i == crossed_at:
            box = to_px(cells[word_row][col], size)
            wrong = "ABCDEFGHIJKLMNOPRSTU"[int(rng.integers(20))]
            draw_glyph(img, wrong, _cell_centre(box), cell_px, style, rng)
            draw_strike(img, _cell_centre(box), cell_px, style, rng)
            truth.crossed.append(col)
            truth.cells[f"grid:{word_row}:{col}"] = "#"
            col += 1
        if col >= cols:
            break
        box = to_px(cells[word_row][col], size)
        cx, cy = _cell_centre(box)
        if rng.random() < mistakes.across_border:
            cx += cell_px * rng.choice([-1, 1]) * rng.uniform(0.2, 0.38)
        draw_glyph(img, ch.upper(), (cx, cy), cell_px, style, rng)
        truth.cells[f"grid:{word_row}:{col}"] = ch
        letter_cols.append(col)
        if ch.islower():
            draw_circle(img, (cx, cy), cell_px, style, rng)
        col += 1
    for dr, i, letter in content.raccord or ():
        r = word_row + dr
        c = (
            letter_cols[i]
            if 0 <= i < len(letter_cols)
            else start + i + (len(truth.crossed) if i > 0 else 0)
        )
        if 0 <= r < rows and 0 <= c < cols:
            draw_glyph(
                img, letter.upper(), _cell_centre(to_px(cells[r][c], size)), cell_px, style, rng
            )
            truth.cells[f"grid:{r}:{c}"] = letter.upper()

    for name, text in (("table", content.table), ("ref", content.ref), ("score", content.score)):
        if text is None or text == "":
            continue
        chars = str(text)
        comb = layout.comb_cells(name)
        first = len(comb) - len(chars) if rng.random() < mistakes.align_right else 0
        for k, ch in enumerate(chars[: len(comb)]):
            box = to_px(comb[max(first, 0) + k], size)
            truth.cells[f"{name}:{max(first, 0) + k}"] = ch.upper()
            comb_px = (box[2] - box[0] + box[3] - box[1]) / 2
            if digits and ch in digits and rng.random() < 0.5:
                bank = digits[ch]
                draw_sample(
                    img, bank[int(rng.integers(len(bank)))], _cell_centre(box), comb_px, style, rng
                )
            else:
                draw_glyph(img, ch.upper(), _cell_centre(box), comb_px, style, rng)
    return img, truth


def _background(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    base = np.array([rng.uniform(40, 200) for _ in range(3)], np.float32)
    small = rng.normal(0, 18, (max(2, h // 40), max(2, w // 40), 3)).astype(np.float32)
    texture = cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)
    streaks = cv2.resize(rng.normal(0, 10, (h // 4 + 1, 3, 3)).astype(np.float32), (w, h))
    return np.clip(base + texture + streaks, 0, 255).astype(np.uint8)


def _destination_quad(
    src_size: tuple[int, int], out_size: tuple[int, int], fx: PhotoEffects, rng: np.random.Generator
) -> np.ndarray:
    """Where the page corners land: 3-D tilt, in-plane rotation, scale and shift."""
    w, h = src_size
    pts = np.array(
        [[-w / 2, -h / 2, 0], [w / 2, -h / 2, 0], [w / 2, h / 2, 0], [-w / 2, h / 2, 0]], float
    )
    tilt = math.radians(rng.uniform(fx.min_tilt_deg, fx.max_tilt_deg))
    axis = rng.uniform(0, 2 * math.pi)
    ax, ay = math.cos(axis) * tilt, math.sin(axis) * tilt
    rx = np.array([[1, 0, 0], [0, math.cos(ax), -math.sin(ax)], [0, math.sin(ax), math.cos(ax)]])
    ry = np.array([[math.cos(ay), 0, math.sin(ay)], [0, 1, 0], [-math.sin(ay), 0, math.cos(ay)]])
    rot = math.radians(rng.uniform(-fx.max_rotation_deg, fx.max_rotation_deg))
    if rng.random() < fx.upside_down:
        rot += math.pi
    elif rng.random() < 0.1:
        rot += math.pi / 2 * rng.choice([-1, 1])
    rz = np.array(
        [[math.cos(rot), -math.sin(rot), 0], [math.sin(rot), math.cos(rot), 0], [0, 0, 1]]
    )
    p = pts @ (rz @ rx @ ry).T
    focal = 1.6 * max(w, h)
    p2 = p[:, :2] * focal / (focal + p[:, 2:3])
    p2 -= p2.min(0)
    ow, oh = out_size
    scale = rng.uniform(*fx.fill) * min(ow / p2[:, 0].max(), oh / p2[:, 1].max())
    p2 *= scale
    free = np.array([ow, oh]) - p2.max(0)
    return (p2 + rng.uniform(0, 1, 2) * np.maximum(free, 0)).astype(np.float32)


def photograph(
    paper: np.ndarray,
    rng: np.random.Generator,
    fx: PhotoEffects | None = None,
    background: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Put the flat page in a photo; returns the BGR photo and the page corners in it."""
    fx = fx or PhotoEffects()
    h, w = paper.shape[:2]
    ow, oh = fx.size
    if rng.random() < 0.35:
        ow, oh = oh, ow
    out = background if background is not None else _background((ow, oh), rng)
    oh, ow = out.shape[:2]
    dst = _destination_quad((w, h), (ow, oh), fx, rng)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, dst)
    warped = cv2.warpPerspective(paper, m, (ow, oh), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (ow, oh))
    base = out.copy()
    cv2.copyTo(warped, mask, base)
    photo = base.astype(np.float32)

    # lighting and shadows vary slowly: compute them at 1/8 resolution
    sw, sh = max(2, ow // 8), max(2, oh // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * 8
    angle = rng.uniform(0, 2 * math.pi)
    grad = (xx * math.cos(angle) + yy * math.sin(angle)) / max(ow, oh)
    light = rng.uniform(0.75, 1.05) + rng.uniform(0, 0.35) * (grad - grad.mean())
    if rng.random() < fx.shadow:
        poly = (rng.uniform(0, 1, (4, 2)) * [sw, sh]).astype(np.int32)
        poly[:2] = (rng.uniform(-0.2, 0.4, (2, 2)) * [sw, sh]).astype(np.int32)
        shade = np.zeros((sh, sw), np.float32)
        cv2.fillPoly(shade, [poly], 1.0)
        shade = cv2.GaussianBlur(shade, (0, 0), max(sw, sh) * 0.02 + 0.5)
        light = light * (1 - rng.uniform(0.2, 0.45) * shade)
    light_full = cv2.resize(light.astype(np.float32), (ow, oh), interpolation=cv2.INTER_LINEAR)
    photo = cv2.multiply(photo, cv2.merge([light_full] * 3))
    sigma = rng.uniform(*fx.blur)
    if sigma > 0.3:
        photo = cv2.GaussianBlur(photo, (0, 0), sigma)
    noise = rng.standard_normal((oh, ow), dtype=np.float32) * np.float32(rng.uniform(*fx.noise))
    photo = cv2.add(photo, cv2.merge([noise] * 3))
    return cv2.convertScaleAbs(photo), dst


def random_content(rng: np.random.Generator) -> BulletinContent:
    """A plausible bulletin for tests without a game: random word, reference and score."""
    from engine.board import ROWS

    n = int(rng.integers(2, 16))
    word = "".join("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[int(i)] for i in rng.integers(0, 26, n))
    if rng.random() < 0.3:
        j = int(rng.integers(n))
        word = word[:j] + word[j].lower() + word[j + 1 :]
    row, col = ROWS[int(rng.integers(15))], str(int(rng.integers(1, 16)))
    ref = row + col if rng.random() < 0.5 else col + row
    return BulletinContent(int(rng.integers(1, 200)), word, ref, int(rng.integers(2, 400)))


def render_bulletin(
    content: BulletinContent,
    style: str | Style | FontStyle | None = None,
    seed: int = 0,
    effects: PhotoEffects | None = None,
    jpeg: bool = True,
    mistakes: Mistakes | None = None,
    held_out: bool = True,
    digits: dict[str, list[np.ndarray]] | None = None,
    layout: Layout | None = None,
) -> tuple[bytes | np.ndarray, GroundTruth]:
    """A photographed bulletin: JPEG bytes (or the BGR array with ``jpeg=False``) and its truth.

    ``style=None`` draws a writer among the held-out test styles (``held_out``) or the
    training styles. The same ``seed`` always gives the same photo.
    """
    rng = np.random.default_rng(seed)
    st = _style(style, rng, held_out)
    fx = effects or PhotoEffects()
    paper, truth = write_bulletin(content, st, rng, layout=layout, mistakes=mistakes, digits=digits)
    truth.seed = seed
    photo, corners = photograph(paper, rng, fx)
    truth.corners = corners.tolist()
    if not jpeg:
        return photo, truth
    quality = int(rng.integers(fx.jpeg_quality[0], fx.jpeg_quality[1] + 1))
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return buf.tobytes(), truth
