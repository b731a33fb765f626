"""The glyph network at read time: an ONNX file run by OpenCV's ``cv2.dnn`` (no new dependency).

Trained with PyTorch (``vision.train``, the optional ``train`` extra) on many writer
families; the ONNX graph outputs raw logits, and a JSON file beside it holds what the
reader must apply: the classes, the temperature fitted on writer families left out of
training, and the input size. Per field only its classes are kept (a score box holds
digits) and the softmax is taken over them, as in training.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .features import SIDE, normalise


@dataclass
class GlyphNet:
    """A loaded network: ``logits(images)`` on 32×32 normalised glyphs."""

    net: cv2.dnn.Net
    classes: list[str]
    temperature: float
    meta: dict

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

    def logits_of_images(self, images: np.ndarray) -> np.ndarray:
        """Raw logits of N normalised glyphs (N×32×32 uint8)."""
        if len(images) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        x = images.astype(np.float32)[:, None] / 255.0
        self.net.setInput(x)
        return np.asarray(self.net.forward(), np.float32).reshape(len(images), -1)

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


__all__ = ["SIDE", "GlyphNet", "masked_softmax"]
