"""Seeded generator of photographed, hand-filled bulletins with their ground truth.

Used to train the classifier (training styles), to benchmark (held-out
styles) and by the kiosk demo for its virtual players::

    jpeg, truth = render_bulletin(BulletinContent(table=12, word="MAISONs", ref="H4", score=70),
                                  style="test_vif", seed=3)
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache

import cv2
import numpy as np

from .comb import comb_keys
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
    #: per number (table, reference, score): written freely over the combed box, as on plain
    #: paper — digits at the writer's own spacing and size, across the separators
    free_numbers: float = 0.0
    #: per number of two digits or more starting with 1 (table, score): that 1 drawn on the
    #: box's left edge, where its thin stroke may be erased with the printed line (176 → 76)
    one_on_edge: float = 0.0


@dataclass(frozen=True)
class Ink:
    """How a pen lays its colour on the paper, beyond the writer's stroke shapes.

    ``opacity`` scales the stroke's cover (a pencil leaves 25–60 %), ``grain`` breaks it by
    the paper's tooth (graphite on the fibres' peaks), ``bleed`` spreads it (felt pen on
    absorbent paper, pixels at 10 px/mm), ``pressure`` varies it slowly along the writing."""

    name: str
    colour: tuple[int, int, int]  # BGR
    opacity: tuple[float, float] = (0.9, 1.0)
    grain: float = 0.0
    bleed: float = 0.0
    pressure: float = 0.0


INKS: dict[str, Ink] = {
    ink.name: ink
    for ink in (
        Ink("crayon", (92, 92, 98), (0.38, 0.6), grain=0.55, pressure=0.25),  # HB pencil
        Ink("crayon_dur", (120, 118, 122), (0.3, 0.45), grain=0.65, pressure=0.25),  # 2H
        Ink("violet", (140, 35, 115), (0.85, 1.0), pressure=0.1),  # purple ballpoint
        Ink("violet_clair", (195, 95, 160), (0.75, 0.95), pressure=0.2),  # washable ink
        Ink("rouge", (45, 40, 200), (0.85, 1.0), pressure=0.1),
        Ink("vert", (70, 140, 25), (0.85, 1.0), pressure=0.1),
        Ink("bleu_clair", (225, 160, 70), (0.8, 1.0), pressure=0.15),
        Ink("feutre", (120, 40, 20), (0.95, 1.0), bleed=1.2),
    )
}


def wide_letters(style: Style | FontStyle) -> Style | FontStyle:
    """The same writer with letters wider than tall, close to the cell's width."""
    lo, hi = style.width
    return replace(style, width=(max(lo, 0.95) * 1.05, max(hi, 1.1) * 1.15))


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
    light: tuple[float, float] = (0.75, 1.05)  # overall exposure (dim room: 0.2–0.4)
    #: the page is not flat: its edge lifts by up to this share of its long side (a sheet
    #: curled from its pad, or folded in two), so printed lines bend away from any homography
    curl: float = 0.0
    quarter_turn: float = 0.1  # a photo taken across the page (portrait against landscape)


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
    ink: Ink | None = None,
    printed: tuple[int, int | None] | None = None,
) -> tuple[np.ndarray, GroundTruth]:
    """The filled bulletin, flat and upright (BGR), and what is on it.

    ``digits``: scanned hand-written digit samples (e.g. MNIST) used for about half the digits.
    ``ink``: the pen's colour and cover (pencil, purple…) instead of the writer's own ink.
    ``printed``: (table, coup) of a personalised bulletin (number printed and in a code)."""
    layout = layout or Layout.load()
    mistakes = mistakes or Mistakes()
    if printed is not None:
        page = render_page(layout, px_per_mm, printed[0], printed[1])
    elif layout.name == Layout.load().name:
        page = _blank(layout.name, px_per_mm)
    else:
        page = render_page(layout, px_per_mm)
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
    paper = img
    if ink is not None:  # write on a white sheet in black, then lay it down with the pen's cover
        img = np.full_like(paper, 255)
        style = replace(style, ink=(0, 0, 0))

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
        if (mistakes.one_on_edge and name != "ref" and len(chars) > 1 and chars[0] == "1"
                and rng.random() < mistakes.one_on_edge):
            _write_freely(img, chars, to_px(layout.field_box(name), size), comb, size, name,
                          style, rng, truth, digits, where="bord")
            continue
        if mistakes.free_numbers and rng.random() < mistakes.free_numbers:
            _write_freely(img, chars, to_px(layout.field_box(name), size), comb, size, name,
                          style, rng, truth, digits)
            continue
        first = len(comb) - len(chars) if rng.random() < mistakes.align_right else 0
        for k, ch in enumerate(chars[: len(comb)]):
            box = to_px(comb[max(first, 0) + k], size)
            truth.cells[f"{name}:{max(first, 0) + k}"] = ch.upper()
            comb_px = (box[2] - box[0] + box[3] - box[1]) / 2
            _draw_char(img, ch, _cell_centre(box), comb_px, style, rng, digits)
    if ink is not None:
        paper = lay_ink(paper, img, ink, rng)
    return paper, truth


def _draw_char(img, ch: str, centre, size: float, style, rng, digits) -> None:
    if digits and ch in digits and rng.random() < 0.5:
        bank = digits[ch]
        draw_sample(img, bank[int(rng.integers(len(bank)))], centre, size, style, rng)
    else:
        draw_glyph(img, ch.upper(), centre, size, style, rng)


def _write_freely(img, chars: str, box, comb, size, name: str, style, rng, truth, digits,
                  where: str | None = None) -> None:
    """A number written as on plain paper over a combed box: the writer's own digit size
    (up to a little taller than the box) and spacing, centred or to one side, digits
    crossing the separators; ``where="bord"``: its first digit on the box's left edge."""
    x0, y0, x1, y1 = box
    bh = y1 - y0
    h = bh * rng.uniform(0.85, 1.25)  # glyph cell size: the glyph is ~0.7 of it
    advance = h * rng.uniform(0.5, 0.85)
    total = advance * (len(chars) - 1)
    span = x1 - x0
    where = where or str(rng.choice(["centre", "left", "right"]))
    if where == "bord":
        start = x0 + rng.normal(0, 0.03 * h)
    else:
        start = {
            "centre": x0 + (span - total) / 2,
            "left": x0 + h * 0.4,
            "right": x1 - h * 0.4 - total,
        }[where] + rng.normal(0, 0.08 * span)
    cy = (y0 + y1) / 2 + rng.normal(0, 0.08 * bh)
    xs = [start + k * advance + rng.normal(0, 0.04 * h) for k in range(len(chars))]
    comb_px = [to_px(b, size) for b in comb]
    # the cells are numbered as the reader numbers the characters it finds
    for k, ch, x in zip(comb_keys(xs, comb_px), chars, xs, strict=True):
        truth.cells[f"{name}:{k}"] = ch.upper()
        _draw_char(img, ch, (x, cy + rng.normal(0, 0.03 * h)), h, style, rng, digits)


def lay_ink(paper: np.ndarray, written: np.ndarray, ink: Ink, rng: np.random.Generator) -> np.ndarray:
    """Lay the writing (black on white, ``written``) on ``paper`` with the pen's cover."""
    h, w = paper.shape[:2]
    cover = 1.0 - cv2.cvtColor(written, cv2.COLOR_BGR2GRAY).astype(np.float32) / 255.0
    if ink.bleed > 0:
        cover = np.maximum(cover, 0.8 * cv2.GaussianBlur(cover, (0, 0), ink.bleed))
    cover *= np.float32(rng.uniform(*ink.opacity))
    if ink.pressure > 0:  # slow changes of pressure along the writing
        slow = rng.normal(0, 1, (max(2, h // 60), max(2, w // 60))).astype(np.float32)
        slow = cv2.resize(slow, (w, h), interpolation=cv2.INTER_CUBIC)
        cover *= np.clip(1 + ink.pressure * slow, 0.3, 1.3)
    if ink.grain > 0:  # the paper's tooth: graphite only on the fibres' peaks
        tooth = rng.normal(0, 1, (h, w)).astype(np.float32)
        tooth = cv2.GaussianBlur(tooth, (0, 0), 0.7)
        tooth /= tooth.std() + 1e-6
        cover *= np.clip(1 + ink.grain * tooth, 0, 1.6)
    cover = np.clip(cover, 0, 1)[..., None]
    colour = np.array(ink.colour, np.float32)
    out = paper.astype(np.float32) * (1 - cover) + colour * cover
    return np.clip(out, 0, 255).astype(np.uint8)


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
    elif rng.random() < fx.quarter_turn:
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


def curl_page(
    paper: np.ndarray, rng: np.random.Generator, amount: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """The flat page as a camera above it sees it when the sheet is not flat.

    The sheet bends along one axis (chosen at random): curled up at both edges or at one,
    or folded in two (a ridge or a valley). A lifted part is nearer the camera (seen
    larger), a sloping part is foreshortened and lit differently. Returns the bent page on
    a canvas with a margin, the sheet's mask on it, where the page corners went (TL, TR,
    BR, BL, canvas pixels) and the canvas position of the flat page's origin."""
    h, w = paper.shape[:2]
    along_x = rng.random() < 0.6
    length, across = (w, h) if along_x else (h, w)
    t = np.linspace(0.0, 1.0, 801)
    kind = str(rng.choice(["cuvette", "bord", "pli"]))
    if kind == "cuvette":  # both edges up (a sheet torn from a pad)
        lift = (2 * t - 1) ** 2
    elif kind == "bord":  # one edge up
        lift = np.clip((t - 0.4) / 0.6, 0, 1) ** 2
    else:  # folded in two: a ridge along the middle
        lift = 1 - np.abs(2 * t - 1) ** 1.5
    if rng.random() < 0.5:
        lift = lift[::-1] if kind == "bord" else 1 - lift
    z = lift * amount * max(h, w) * rng.uniform(0.5, 1.0)
    # arc length along the sheet → position across the camera's view: slopes are shortened
    s_len = t * length
    dz = np.gradient(z, s_len)
    pos = np.concatenate([[0.0], np.cumsum(np.diff(s_len) / np.sqrt(1 + dz[1:] ** 2))])
    pos -= pos[-1] / 2
    focal = 1.6 * max(h, w)
    k = focal / (focal - (z - z.mean()))  # nearer parts look larger, about the page centre
    seen = pos * k + length / 2  # where the sheet's point t lands along the bend axis
    pad_a, pad_b = int(0.1 * length), int(0.1 * across)
    out_a = np.arange(-pad_a, length + pad_a, dtype=np.float64)
    t_at = np.interp(out_a, seen, t, left=np.nan, right=np.nan)
    inside = ~np.isnan(t_at)
    k_at = np.where(inside, np.interp(np.nan_to_num(t_at), t, k), 1.0)
    slope = np.where(inside, np.interp(np.nan_to_num(t_at), t, dz), 0.0)
    src_a = np.where(inside, t_at * length, -10.0).astype(np.float32)
    out_b = np.arange(-pad_b, across + pad_b, dtype=np.float64)[:, None]
    src_b = (across / 2 + (out_b - across / 2) / k_at[None, :]).astype(np.float32)
    src_a = np.broadcast_to(src_a[None, :], src_b.shape)
    map_x, map_y = (src_a, src_b) if along_x else (src_b.T, src_a.T)
    map_x, map_y = np.ascontiguousarray(map_x), np.ascontiguousarray(map_y)
    bent = cv2.remap(paper, map_x, map_y, cv2.INTER_LINEAR, borderValue=(0, 0, 0))
    sheet = cv2.remap(np.full((h, w), 255, np.uint8), map_x, map_y, cv2.INTER_LINEAR,
                      borderValue=0)
    # light from one side: slopes facing it brighter, the others darker
    side = float(rng.choice([-1.0, 1.0]))
    shade = np.clip(1 + side * rng.uniform(0.8, 1.6) * slope, 0.6, 1.15).astype(np.float32)
    shade = shade[None, :, None] if along_x else shade[:, None, None]
    bent = np.clip(bent.astype(np.float32) * shade, 0, 255).astype(np.uint8)
    ends, kk = np.interp([0.0, 1.0], t, seen), np.interp([0.0, 1.0], t, k)

    def corner(end: int, b: float) -> list[float]:
        a = ends[end] + pad_a
        bb = across / 2 + (b - across / 2) * kk[end] + pad_b
        return [a, bb] if along_x else [bb, a]

    if along_x:
        corners = [corner(0, 0), corner(1, 0), corner(1, across), corner(0, across)]
    else:
        corners = [corner(0, 0), corner(0, across), corner(1, across), corner(1, 0)]
    origin = (pad_a, pad_b) if along_x else (pad_b, pad_a)
    return bent, sheet, np.array(corners, np.float32), origin


def photograph(
    paper: np.ndarray,
    rng: np.random.Generator,
    fx: PhotoEffects | None = None,
    background: np.ndarray | None = None,
    under: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Put the flat page in a photo; returns the BGR photo and the page corners in it.
    ``under``: another page of the same size lying beneath it (the next bulletin of a
    stack), turned and shifted so that a strip of it shows past one or two of its edges."""
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
    sheet = np.full((h, w), 255, np.uint8)
    # the page beneath lies flat, placed from the top page's flat frame (before any curl)
    below = m @ _stack_offset((w, h), rng) if under is not None else None
    if fx.curl > 0:  # the bent page's canvas has a margin: shift it onto the flat page's frame
        paper, sheet, bent, (ox, oy) = curl_page(paper, rng, fx.curl)
        m = m @ np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]], np.float64)
        dst = cv2.perspectiveTransform(bent.reshape(-1, 1, 2), m).reshape(4, 2)
    warped = cv2.warpPerspective(paper, m, (ow, oh), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(sheet, m, (ow, oh))
    base = out.copy()
    if under is not None:
        cv2.copyTo(cv2.warpPerspective(under, below, (ow, oh), flags=cv2.INTER_AREA),
                   cv2.warpPerspective(np.full((h, w), 255, np.uint8), below, (ow, oh)), base)
    cv2.copyTo(warped, mask, base)
    photo = base.astype(np.float32)

    # lighting and shadows vary slowly: compute them at 1/8 resolution
    sw, sh = max(2, ow // 8), max(2, oh // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32) * 8
    angle = rng.uniform(0, 2 * math.pi)
    grad = (xx * math.cos(angle) + yy * math.sin(angle)) / max(ow, oh)
    level = rng.uniform(*fx.light)
    light = level + rng.uniform(0, 0.35) * level * (grad - grad.mean())
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


def _stack_offset(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """Where a page beneath lies in the top page's own coordinates: turned by up to 12°
    about the centre and shifted by 6–30 % of the page's size, in any direction."""
    w, h = size
    angle = math.radians(rng.uniform(-12, 12))
    direction = rng.uniform(0, 2 * math.pi)
    shift = rng.uniform(0.06, 0.3)
    dx, dy = shift * w * math.cos(direction), shift * h * math.sin(direction)
    c, s = math.cos(angle), math.sin(angle)
    cx, cy = w / 2, h / 2
    return np.array([[c, -s, cx - c * cx + s * cy + dx],
                     [s, c, cy - s * cx - c * cy + dy],
                     [0, 0, 1]], np.float64)


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
    printed: tuple[int, int | None] | None = None,
    ink: Ink | None = None,
) -> tuple[bytes | np.ndarray, GroundTruth]:
    """A photographed bulletin: JPEG bytes (or the BGR array with ``jpeg=False``) and its truth.

    ``style=None`` draws a writer among the held-out test styles (``held_out``) or the
    training styles. The same ``seed`` always gives the same photo.
    """
    rng = np.random.default_rng(seed)
    st = _style(style, rng, held_out)
    fx = effects or PhotoEffects()
    paper, truth = write_bulletin(
        content, st, rng, layout=layout, mistakes=mistakes, digits=digits, printed=printed, ink=ink
    )
    truth.seed = seed
    photo, corners = photograph(paper, rng, fx)
    truth.corners = corners.tolist()
    if not jpeg:
        return photo, truth
    quality = int(rng.integers(fx.jpeg_quality[0], fx.jpeg_quality[1] + 1))
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return buf.tobytes(), truth


@dataclass
class TableLayout:
    """How bulletins lie side by side on the table for one photo of them all."""

    columns: int | None = None  # None: all in one row up to 3, else two per row
    gap_mm: tuple[float, float] = (0.5, 8.0)  # between neighbours (before their turn)
    max_turn_deg: float = 3.0  # each sheet's own turn on the table
    #: neighbours laid over each other's margin by up to this (markers stay uncovered)
    overlap_mm: float = 0.0
    px_per_photo_px: float = 0.8  # photo resolution against the flat sheets' (10 px/mm)


def _table_top(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """The table under the sheets: a background drawn at a quarter of the size (it varies
    slowly; a full-size one costs half of a photo of four bulletins)."""
    w, h = size
    return cv2.resize(_background((max(2, w // 4), max(2, h // 4)), rng), (w, h),
                      interpolation=cv2.INTER_LINEAR)


def render_table(
    contents: list[BulletinContent],
    seed: int = 0,
    printed: list[tuple[int, int | None] | None] | None = None,
    effects: PhotoEffects | None = None,
    table: TableLayout | None = None,
    jpeg: bool = True,
    layout: Layout | None = None,
    style: str | Style | FontStyle | None = None,
) -> tuple[bytes | np.ndarray, list[GroundTruth]]:
    """One photo of 2–4 bulletins side by side on a table (each its own writer, its own small
    turn, touching or nearly), and their truths in the order they were laid: row by row,
    left to right. ``printed``: per bulletin, (table, coup) of a personalised one or None."""
    rng = np.random.default_rng(seed)
    tl = table or TableLayout()
    papers, truths = [], []
    for k, content in enumerate(contents):
        own = printed[k] if printed else None
        paper, truth = write_bulletin(content, _style(style, rng, True), rng, layout=layout,
                                      printed=own)
        truth.seed = seed
        papers.append(paper)
        truths.append(truth)
    h, w = papers[0].shape[:2]
    n = len(papers)
    cols = tl.columns or (n if n <= 3 else 2)
    rows = -(-n // cols)
    pad = int(0.15 * w)
    pitch_x = w + PX_PER_MM * (tl.gap_mm[1] - tl.overlap_mm)
    pitch_y = h + PX_PER_MM * (tl.gap_mm[1] - tl.overlap_mm)
    cw, ch = int(2 * pad + (cols - 1) * pitch_x + w), int(2 * pad + (rows - 1) * pitch_y + h)
    canvas = _table_top((cw, ch), rng)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    for k, paper in enumerate(papers):
        r, c = divmod(k, cols)
        gap = PX_PER_MM * (rng.uniform(*tl.gap_mm) - tl.overlap_mm)
        x = pad + c * (w + gap) + rng.uniform(-0.5, 0.5) * PX_PER_MM
        y = pad + r * (h + gap) + rng.uniform(-0.5, 0.5) * PX_PER_MM
        turn = math.radians(rng.uniform(-tl.max_turn_deg, tl.max_turn_deg))
        rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
        centre = np.array([x + w / 2, y + h / 2])
        dst = ((src - [w / 2, h / 2]) @ rot.T + centre).astype(np.float32)
        m = cv2.getPerspectiveTransform(src, dst)
        warped = cv2.warpPerspective(paper, m, (cw, ch), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), m, (cw, ch))
        cv2.copyTo(warped, mask, canvas)
        truths[k].corners = dst.tolist()
    fx = effects or PhotoEffects(max_tilt_deg=12, max_rotation_deg=6, upside_down=0.0,
                                 fill=(0.9, 0.97), shadow=0.3, quarter_turn=0.0)
    size = (round(cw * tl.px_per_photo_px), round(ch * tl.px_per_photo_px))
    photo, corners = photograph(canvas, rng, fx, background=_table_top(size, rng))
    m = cv2.getPerspectiveTransform(
        np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float32), corners.astype(np.float32))
    for truth in truths:
        truth.corners = cv2.perspectiveTransform(
            np.array(truth.corners, np.float32).reshape(-1, 1, 2), m).reshape(4, 2).tolist()
    if not jpeg:
        return photo, truths
    ok, buf = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 88])
    return buf.tobytes(), truths
