"""The glyph network at read time: an ONNX file run by OpenCV's ``cv2.dnn`` (no new dependency).

Trained with PyTorch (``vision.train``, the optional ``train`` extra) on many writer
families; the ONNX graph outputs raw logits, and a JSON file beside it holds what the
reader must apply: the classes, the temperature fitted on writer families left out of
training, the input size, and the views each glyph is read in (``vues``). Per field only its
classes are kept (a score box holds digits) and the softmax is taken over them, as in
training.

Views: the glyph as cut, and turned a little either way; the logits are averaged. A hand
the network never saw is read more steadily when a slant of a few degrees does not change
the answer (held-out families, 18 000 glyphs: 87.7 % → 88.4 %); the temperatures are fitted
on the family-out folds read in the same views, so the confidences stay calibrated.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .features import SIDE, normalise

#: degrees each named view turns the normalised glyph (positive: anticlockwise)
VIEW_TURNS = {"id": 0.0, "r+6": 6.0, "r-6": -6.0}
#: the views of a network whose JSON names none: the glyph as cut
PLAIN_VIEWS = ("id",)
#: glyphs given to the network at once
BATCH = 2048
#: the views a network is calibrated and read in from now on
READ_VIEWS = ("id", "r+6", "r-6")


def view(images: np.ndarray, name: str) -> np.ndarray:
    """N normalised glyphs (N×32×32 uint8) seen in the named view."""
    angle = VIEW_TURNS[name]
    if not angle:
        return images
    centre = ((SIDE - 1) / 2, (SIDE - 1) / 2)
    turn = cv2.getRotationMatrix2D(centre, angle, 1.0)
    return np.stack([cv2.warpAffine(im, turn, (SIDE, SIDE), flags=cv2.INTER_LINEAR) for im in images])


@dataclass
class GlyphNet:
    """A loaded network: ``logits(images)`` on 32×32 normalised glyphs."""

    net: cv2.dnn.Net
    classes: list[str]
    temperature: float
    meta: dict

    @property
    def views(self) -> tuple[str, ...]:
        """The views the logits are averaged over (``vues`` in the JSON)."""
        return tuple(self.meta.get("vues", PLAIN_VIEWS))

    def field_temperature(self, field: str) -> float:
        """The temperature fitted for a field's glyphs (letters of the grid, digits of a
        box…), or the overall one."""
        return float(self.meta.get("temperatures", {}).get(field, self.temperature))

    @classmethod
    def load(cls, onnx: str | Path) -> GlyphNet:
        onnx = Path(onnx)
        meta = json.loads(onnx.with_suffix(".json").read_text(encoding="utf-8"))
        net = cv2.dnn.readNetFromONNX(str(onnx))
        net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        return cls(net, list(meta["classes"]), float(meta.get("temperature", 1.0)), meta)

    def logits_of_images(self, images: np.ndarray, views: tuple[str, ...] | None = None) -> np.ndarray:
        """Raw logits of N normalised glyphs (N×32×32 uint8), averaged over the views (the
        network's own, unless ``views`` names others)."""
        if len(images) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        views = views or self.views
        if len(images) > BATCH:  # OpenCV sizes a blob in 32 bits: tens of thousands at once overflow
            return np.concatenate([self.logits_of_images(images[i : i + BATCH], views)
                                   for i in range(0, len(images), BATCH)])
        x = np.concatenate([view(images, v) for v in views]).astype(np.float32)[:, None] / 255.0
        self.net.setInput(x)
        out = np.asarray(self.net.forward(), np.float32).reshape(len(views), len(images), -1)
        return out.mean(axis=0)

    def logits(self, crops: list[np.ndarray]) -> np.ndarray:
        """Raw logits of ink crops (float, 1 = ink), normalised as in training."""
        if not crops:
            return np.zeros((0, len(self.classes)), np.float32)
        return self.logits_of_images(np.stack([normalise(c) for c in crops]))


def masked_softmax(logits: np.ndarray, allowed: np.ndarray, temperature=1.0) -> np.ndarray:
    """Softmax over the allowed classes only (``allowed``: boolean N×K or K; ``temperature``:
    one, or one per glyph)."""
    t = np.asarray(temperature, np.float32)
    z = np.where(allowed, logits / (t[:, None] if t.ndim == 1 else t), -np.inf)
    z = z - z.max(axis=-1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=-1, keepdims=True)


__all__ = ["PLAIN_VIEWS", "READ_VIEWS", "SIDE", "VIEW_TURNS", "GlyphNet", "masked_softmax", "view"]
