"""Stage 4: character recognition with alternatives and probabilities.

The main reader is our MLP on HOG features (trained on synthetic hand-printed
glyphs); each field restricts the classes it accepts (digits in the score
box, A–O and digits in the reference) and the probabilities are renormalised
over them. Tesseract is an optional second opinion (``vision.tess``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .classifier import MLP
from .features import glyph_features, window_features
from .fields import Glyph
from .models import CHAR_MODEL, CIRCLE_MODEL, CLASSES, CROSSED

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
DIGITS = "0123456789"
ALLOWED = {
    "grid": LETTERS + CROSSED,
    "table": DIGITS,
    "score": DIGITS,
    "ref": "ABCDEFGHIJKLMNO" + DIGITS,
}
SMOOTHING = 0.01  # floor so that no alternative is ever impossible


@dataclass
class CharReading:
    """One cell: probabilities over the field's characters, and the circle (joker) probability."""

    key: str
    col: int
    row: int
    probs: dict[str, float]
    circled: float = 0.0

    @property
    def best(self) -> str:
        return max(self.probs, key=self.probs.__getitem__)

    @property
    def confidence(self) -> float:
        return self.probs[self.best]

    def p(self, ch: str) -> float:
        return self.probs.get(ch, 0.0)

    def alternatives(self, k: int = 3) -> list[tuple[str, float]]:
        return sorted(self.probs.items(), key=lambda kv: -kv[1])[:k]

    @property
    def crossed(self) -> bool:
        return self.best == CROSSED


class Recogniser:
    """Both models, loaded once."""

    def __init__(self, char_model: MLP, circle_model: MLP | None) -> None:
        self.chars = char_model
        self.circles = circle_model
        self._index = {c: i for i, c in enumerate(char_model.classes)}

    @classmethod
    def load(cls, directory: str | Path | None = None) -> Recogniser:
        d = Path(directory) if directory else CHAR_MODEL.parent
        return cls(MLP.load(d / CHAR_MODEL.name), MLP.load(d / CIRCLE_MODEL.name))

    def read(self, glyphs: list[Glyph]) -> list[CharReading]:
        if not glyphs:
            return []
        raw = self.chars.predict_proba(np.stack([glyph_features(g.image) for g in glyphs]))
        grid = [i for i, g in enumerate(glyphs) if g.field == "grid"]
        circled = np.zeros(len(glyphs))
        if grid and self.circles is not None:
            pc = self.circles.predict_proba(
                np.stack([window_features(glyphs[i].window) for i in grid])
            )
            circled[grid] = pc[:, 1]
        out = []
        for i, g in enumerate(glyphs):
            allowed = ALLOWED[g.field]
            p = np.array([raw[i, self._index[c]] for c in allowed])
            p = p / max(p.sum(), 1e-12)
            p = (1 - SMOOTHING) * p + SMOOTHING / len(allowed)
            out.append(
                CharReading(
                    g.key,
                    g.col,
                    g.row,
                    dict(zip(allowed, p.tolist(), strict=True)),
                    float(circled[i]),
                )
            )
        return out


@lru_cache(maxsize=1)
def default_recogniser() -> Recogniser:
    return Recogniser.load()


__all__ = ["ALLOWED", "CLASSES", "CharReading", "Recogniser", "default_recogniser"]
