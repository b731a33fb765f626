"""Stage 4: character recognition with alternatives and probabilities.

The main reader is a small convolutional network (``vision.cnn``: ONNX run by
``cv2.dnn``) trained on many writer families; each field restricts the classes it
accepts (digits in the score box, A–O and digits in the reference) and the softmax
is taken over them, at the temperature fitted on writer families the network never
saw. The joker circle is a second small MLP on the cell's window. Tesseract is an
optional second opinion (``vision.tess``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .classifier import MLP
from .cnn import GlyphNet, masked_softmax
from .features import window_features
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
    #: a box with no glyph inside the written word (a letter too faint to cut): every letter
    #: equally likely, so that only the game says which one it was
    unread: bool = False
    #: a grid letter reaching its box's side rule (``fields.Glyph.on_side_rule``)
    on_side_rule: bool = False
    #: seen again with its faded ink (``fields.Fields.faded``), the character no longer reads
    #: surely as read: sure as its probabilities look, the ink is in doubt
    faded_otherwise: bool = False

    @classmethod
    def unread_cell(cls, field: str, row: int, col: int) -> CharReading:
        """The reading of a box known to hold a character that was not seen."""
        allowed = ALLOWED[field]
        return cls(f"{field}:{row}:{col}", col, row, dict.fromkeys(allowed, 1 / len(allowed)), unread=True)

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

    def __init__(self, char_model: GlyphNet, circle_model: MLP | None) -> None:
        self.chars = char_model
        self.circles = circle_model
        self._index = {c: i for i, c in enumerate(char_model.classes)}
        self._allowed = {
            name: np.array([c in chars for c in char_model.classes]) for name, chars in ALLOWED.items()
        }

    @classmethod
    def load(cls, directory: str | Path | None = None) -> Recogniser:
        d = Path(directory) if directory else CHAR_MODEL.parent
        circles = d / CIRCLE_MODEL.name
        if not circles.exists():  # a retrained character model alone: the shipped circles
            circles = CIRCLE_MODEL
        return cls(GlyphNet.load(d / CHAR_MODEL.name), MLP.load(circles))

    @classmethod
    def load_file(cls, onnx: str | Path) -> Recogniser:
        """A character network by its ONNX file (e.g. a family-out fold), the shipped circles."""
        return cls(GlyphNet.load(onnx), MLP.load(CIRCLE_MODEL))

    def field_probs(self, logits: np.ndarray, fields: list[str]) -> np.ndarray:
        """Per glyph, the softmax over its field's classes (zeros elsewhere)."""
        if not fields:
            return np.zeros((0, len(self._index)), np.float32)
        mask = np.stack([self._allowed[f] for f in fields])
        temperature = np.array([self.chars.field_temperature(f) for f in fields], np.float32)
        return masked_softmax(logits, mask, temperature)

    def read(self, glyphs: list[Glyph]) -> list[CharReading]:
        if not glyphs:
            return []
        raw = self.field_probs(self.chars.logits([g.image for g in glyphs]), [g.field for g in glyphs])
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
            p = (1 - SMOOTHING) * p + SMOOTHING / len(allowed)
            out.append(
                CharReading(
                    g.key,
                    g.col,
                    g.row,
                    dict(zip(allowed, p.tolist(), strict=True)),
                    float(circled[i]),
                    on_side_rule=g.on_side_rule,
                )
            )
        return out


@lru_cache(maxsize=1)
def default_recogniser() -> Recogniser:
    return Recogniser.load()


__all__ = ["ALLOWED", "CLASSES", "CharReading", "Recogniser", "default_recogniser"]
