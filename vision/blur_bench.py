"""What the blur test refuses, and what the reader would have made of it.

Each stress photo is read as it is, then blurred again by a few photo pixels; every version
is read with the blur test off, so that each reading can be set beside the sharpness the
test measures. The threshold (``reader.BLURRED``) and the light scaling
(``reader.sharpness``) were chosen on this measure::

    python -m vision.blur_bench --n 40 --seed 401 --only lumiere_faible crayon_sombre_courbe table_bois
    python -m vision.blur_bench --n 40 --seed 402 --taille 1200x900 --only lumiere_faible crayon bille_fine
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass

import cv2
import numpy as np

from . import reader
from .layout import Layout
from .load import load_image
from .page import find_page
from .stress import CONDITIONS, MARKERLESS, _size, stress_photo

#: the extra blurs (Gaussian sigma, photo pixels) each photo is read under, after itself
EXTRA_BLURS = (0.0, 1.5, 2.5, 4.0)
#: paper darker than this (0–255) counts as a dim photo in the report
DIM_PAPER = 120


@dataclass
class BlurReading:
    condition: str
    blur: float
    raw: float  # the Laplacian's variance as measured
    paper: float  # the paper's median brightness
    scaled: float  # what the blur test compares (``reader.sharpness``)
    right: bool  # every field read right
    silent: bool  # a field read wrong and not flagged


def measure(n: int, seed: int, conditions: list[str], size: tuple[int, int] | None = None,
            blurs: tuple[float, ...] = EXTRA_BLURS) -> list[BlurReading]:
    """Every photo of ``conditions`` (``n`` bulletins each) under every extra blur, read
    with the game's legal moves and no blur test."""
    from .bench import make_cases

    layout = Layout.load()
    cases = make_cases(n, seed)
    out: list[BlurReading] = []
    kept, reader.BLURRED = reader.BLURRED, 0.0
    try:
        for name in conditions:
            for case in cases:
                photo = stress_photo(name, case.content, case.style, case.seed, size)
                image = photo if isinstance(photo, np.ndarray) else load_image(photo)
                for sigma in blurs:
                    reading = _read_blurred(name, image, sigma, case, layout)
                    if reading is not None:
                        out.append(reading)
    finally:
        reader.BLURRED = kept
    return out


def _read_blurred(name: str, image: np.ndarray, sigma: float, case, layout: Layout) -> BlurReading | None:
    """The photo blurred by ``sigma`` and saved as a phone would, read; ``None`` where the
    page is not found (nothing for the blur test to decide)."""
    from .bench import FIELDS, TABLES, _flagged, _got, _truth

    blurred = cv2.GaussianBlur(image, (0, 0), sigma) if sigma else image
    _, jpeg = cv2.imencode(".jpg", blurred, [cv2.IMWRITE_JPEG_QUALITY, 85])
    try:
        page = find_page(cv2.imdecode(jpeg, cv2.IMREAD_COLOR), layout)
    except reader.VisionError:
        return None
    fields = reader.page_fields(page, layout)
    r = reader.read_page(page, case.candidates, case.board, TABLES, layout)
    truth, got = _truth(case.content), _got(r)
    wrong = [f for f in FIELDS if truth[f] != got[f]]
    return BlurReading(name, sigma, fields.sharpness, fields.darkness, reader.sharpness(fields),
                       not wrong, any(not _flagged(r, f) for f in wrong))


def report(readings: list[BlurReading], threshold: float) -> dict[str, dict[str, int]]:
    """For dim and bright photos: how many the test at ``threshold`` refuses though they read
    right, and lets through though they read wrong (flagged, or silent)."""
    rows = {}
    for label, dim in (("sombres", True), ("claires", False)):
        group = [r for r in readings if (r.paper < DIM_PAPER) == dim]
        rows[label] = {
            "lectures": len(group),
            "refusées mais justes": sum(r.right for r in group if r.scaled < threshold),
            "passées mais fausses": sum(not r.right for r in group if r.scaled >= threshold),
            "silencieuses": sum(r.silent for r in group),
        }
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Ce que le test de flou refuse, et ce que le "
                                                 "lecteur en aurait lu.")
    parser.add_argument("--n", type=int, default=10)
    parser.add_argument("--seed", type=int, default=401)
    parser.add_argument("--only", nargs="*", default=["lumiere_faible", "table_bois"])
    parser.add_argument("--taille", type=_size, help="définition des photos, ex. 1200x900")
    args = parser.parse_args(argv)
    unknown = [c for c in args.only if c not in CONDITIONS or c in MARKERLESS]
    if unknown:
        print(f"condition inconnue ou sans marqueurs : {', '.join(unknown)}", file=sys.stderr)
        return 2
    readings = measure(args.n, args.seed, args.only, args.taille)
    edges = (0, 5, 8, 10, 12, 15, 30, float("inf"))
    print(f"{len(readings)} lectures, seuil {reader.BLURRED:g} sur la netteté mesurée contre la "
          f"lumière ({reader.LIT_PAPER} / papier)")
    for lo, hi in zip(edges, edges[1:], strict=False):
        group = [r for r in readings if lo <= r.scaled < hi]
        if group:
            print(f"    netteté {lo:>3g} à {hi:<4g} {len(group):5d} lectures, entières "
                  f"{sum(r.right for r in group) / len(group):6.1%}, "
                  f"silencieuses {sum(r.silent for r in group)}")
    for label, row in report(readings, reader.BLURRED).items():
        print(f"    photos {label:8s} " + ", ".join(f"{k} {v}" for k, v in row.items()))
    return 1 if any(r.silent for r in readings) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
