"""How dark the pen is: ink strength against the local paper, and thresholds that follow
the photo and the pen.

Every later stage of the cut works on the ink map made here (1 = ink). Ink is measured
against a local paper estimate, so that shadows and uneven light cancel out; the
thresholds follow the photo's noise and the pen's own contrast, so that a faint pen
(pencil, thin ballpoint, purple ink) keeps its strokes whole by hysteresis.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

INK_THRESHOLD = 0.28
#: hysteresis for faint strokes (thin ballpoint, light or blurred writing): a stroke whose
#: pixels are mostly under ``INK_THRESHOLD`` is kept whole down to ``LOW_INK`` when it
#: holds a few pixels above ``SEED_INK``
LOW_INK = 0.13
SEED_INK = 0.2
HYSTERESIS = True
#: weight of the most contrasted colour channel in the ink map (0: grey only)
COLOUR_INK = 1.0
#: ink noise (robust spread off the rules) above which the ink is smoothed before thresholds
NOISY = 0.03
#: a pen whose strokes (90th percentile) are lighter than this is faint (pencil, light
#: ink): the thresholds come down with it, never below the paper's noise
FAINT_PEN = 0.5


def paper_light(image: np.ndarray) -> np.ndarray:
    """The local paper brightness (float32, per channel): the image without anything thinner
    than ~2.5 mm (pen strokes, printed rules), smoothed. Estimated at a quarter of the
    resolution — the paper's light varies slowly — which makes it cheap."""
    h, w = image.shape[:2]
    small = cv2.resize(image, (max(w // 4, 1), max(h // 4, 1)), interpolation=cv2.INTER_AREA)
    small = cv2.morphologyEx(
        small, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7))
    )
    small = cv2.GaussianBlur(small.astype(np.float32), (0, 0), 1.5)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def ink_map(bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """Ink strength in [0, 1] per pixel, relative to the local paper brightness, and the
    paper's median brightness (0–255).

    Measured on the colour channel where the pen stands out most (a blue ballpoint under
    warm light is pale in grey but dark in red); the grey image's ink is never stronger
    than the strongest channel's, so the channels suffice."""
    image = bgr if (bgr.ndim == 3 and COLOUR_INK) else (
        bgr if bgr.ndim == 2 else cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)
    )
    paper = paper_light(image)
    np.maximum(paper, 1.0, out=paper)
    ratio = cv2.divide(image.astype(np.float32), paper)
    if ratio.ndim == 3:
        b, g, r = cv2.split(ratio)
        ratio = cv2.min(cv2.min(b, g), r)
        grey = paper[::8, ::8] @ np.array([0.114, 0.587, 0.299], np.float32)
    else:
        grey = paper[::8, ::8]
    ink = np.subtract(np.float32(1.0), ratio, out=ratio)
    return np.clip(ink, 0.0, 1.0, out=ink), float(np.median(grey))


def ink_mask(
    sub: np.ndarray,
    threshold: float = INK_THRESHOLD,
    low_ink: float = LOW_INK,
    seed_ink: float = SEED_INK,
    exclude: np.ndarray | None = None,
) -> np.ndarray:
    """Binary ink (255) of an ink-strength crop: clear strokes above ``threshold``, plus
    whole faint strokes (mostly under it) traced down to ``low_ink`` from clearer seeds.
    ``exclude`` (the printed rules) is no ink: a faint stroke touching a rule is not
    taken for part of the rule."""
    strong = sub > threshold
    if exclude is not None:
        strong &= ~exclude
    if not HYSTERESIS:
        return (strong * 255).astype(np.uint8)
    low = sub > low_ink
    if exclude is not None:
        low &= ~exclude
    low = low.astype(np.uint8)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(low, connectivity=8)
    seeds = np.bincount(labels.ravel(), weights=(sub > seed_ink).ravel(), minlength=n)
    strong_n = np.bincount(labels.ravel(), weights=strong.ravel(), minlength=n)
    area = stats[:, cv2.CC_STAT_AREA]
    faint = (seeds >= 4) & (strong_n < 0.3 * area)
    faint[0] = False
    out = strong | faint[labels]
    out |= _faint_beyond_halo(sub, strong, low.astype(bool) & ~faint[labels], seed_ink)
    return (out * 255).astype(np.uint8)


#: how far (pixels) a clear stroke's blurred fringe reaches: fainter ink beyond it is a stroke
STROKE_HALO = 2


def _faint_beyond_halo(sub: np.ndarray, strong: np.ndarray, low: np.ndarray, seed_ink: float) -> np.ndarray:
    """The faint strokes of a partly clear one, kept like whole faint strokes: a light thin 2
    whose foot alone was pressed dark (24 in light violet beside a dark 4, read 4: the 2's
    curve, one stroke with its dark foot, was cut to the foot). Within ``STROKE_HALO`` of the
    clear strokes' core (their pixels that survive a 2×2 opening: not the odd clear pixel
    along a faint line) lies their fringe, not a stroke; faint ink beyond it holding a few
    ``seed_ink`` pixels is one, given back with the fringe that joins it to the rest."""
    core = cv2.morphologyEx(strong.astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    reach = np.ones((2 * STROKE_HALO + 1, 2 * STROKE_HALO + 1), np.uint8)
    beyond = (low & ~(cv2.dilate(core, reach) > 0)).astype(np.uint8)
    if not beyond.any():
        return np.zeros(sub.shape, bool)
    n, labels = cv2.connectedComponents(beyond, connectivity=8)
    seeds = np.bincount(labels.ravel(), weights=(sub > seed_ink).ravel(), minlength=n)
    stroke = seeds >= 4
    stroke[0] = False
    if not stroke.any():
        return np.zeros(sub.shape, bool)
    return (cv2.dilate(stroke[labels].astype(np.uint8), reach) > 0) & low


def robust(values: np.ndarray) -> tuple[float, float]:
    """Median and robust spread (scaled median absolute deviation) of some values."""
    med = float(np.median(values))
    return med, 1.4826 * float(np.median(np.abs(values - med)))


@dataclass
class Ink:
    """A field's binary ink, the paper's noise (ink units) and whether the pen is faint."""

    mask: np.ndarray  # printed rules already left out
    noise: float
    faint: bool
    low: float  # the faintest ink kept
    strokes: np.ndarray | None = None  # what glyphs are cut from (a faint pen: smoothed)


def _level(work: np.ndarray, away: np.ndarray) -> tuple[float, float, np.ndarray]:
    """Median and robust spread of the ink off the rules (every other pixel is plenty)."""
    level = work[::2, ::2][away[::2, ::2]]
    if level.size < 100:
        return 0.0, 0.02, level
    med, spread = robust(level)
    return med, spread + 1e-3, level


#: pixels off the rules well above the paper (8 noise spreads) needed to measure the pen:
#: counted on a quarter of them first, then, when too few, on all (a lone small digit in
#: light pencil has about a hundred; on a quarter its box was taken for a dark pen's)
PEN_PIXELS = 40


def _pen(px: np.ndarray, med: float, noise: float) -> float:
    """The pen's ink level: the 90th percentile of the pixels ``px`` (off the rules) well
    above the paper, 0 when fewer than ``PEN_PIXELS`` stand out to say."""
    strong = px[px > med + 8 * noise]
    return float(np.percentile(strong, 90)) if strong.size >= PEN_PIXELS else 0.0


def ink_threshold(sub: np.ndarray, away: np.ndarray, rules: np.ndarray) -> Ink:
    """Binary ink of a field's crop: clear strokes, whole faint strokes by hysteresis
    (``ink_mask``), the printed ``rules``' own pixels left out.

    The thresholds follow the photo: never within the paper's noise (measured off the
    rules, ``away``: a dim, noisy photo), and brought down to the pen's own contrast when
    the pen is faint (pencil, light ink: a light stroke on clean paper is as visible as a
    dark one). Noisy or grainy ink is lightly smoothed first (strokes are wider than the
    grain and the noise), and so is a photo where no pen stands out of the paper at all: a
    2H pencil's broken line is lost in the grain pixel by pixel, not once smoothed."""
    med, noise, _ = _level(sub, away)
    work = sub
    if noise > NOISY:
        work = cv2.GaussianBlur(sub, (0, 0), 1.0)
        med, noise, _ = _level(work, away)
    _, _, level = _level(work, away)
    pen = _pen(level, med, noise)
    smooth = None
    if pen == 0.0 and work is sub:  # a pen under the paper's grain: smoothed, its strokes show
        smooth = cv2.GaussianBlur(sub, (0, 0), 1.0)
        med_s, noise_s, level_s = _level(smooth, away)
        pen = _pen(level_s, med_s, noise_s)
        if pen > 0.0:
            work, med, noise = smooth, med_s, noise_s
    if pen == 0.0:  # too few on a quarter of the pixels: a lone small digit in light pencil
        pen = _pen(work[away], med, noise)  # (88 above the paper), counted on all of them
    if pen == 0.0 and smooth is not None:  # and a few thin 2H strokes under the grain, smoothed
        pen = _pen(smooth[away], med_s, noise_s)
        if pen > 0.0:
            work, med, noise = smooth, med_s, noise_s
    faint = 0 < pen < FAINT_PEN
    if faint and work is sub:  # a grainy pencil line is continuous once lightly smoothed
        work = cv2.GaussianBlur(sub, (0, 0), 0.8)
        med, noise, _ = _level(work, away)
    base = (0.45 * pen, 0.1 * pen, 0.25 * pen) if faint else (INK_THRESHOLD, LOW_INK, SEED_INK)
    strong = max(base[0], med + 7 * noise)
    low = max(base[1], med + 4 * noise)
    seed = max(base[2], med + 6 * noise)
    return Ink(
        ink_mask(work, strong, low, seed, rules),
        noise,
        faint,
        low,
        work if faint else None,  # a pencil's grain smoothed; a noisy photo's ink as it is
    )
