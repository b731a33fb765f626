"""Where the shipped models live and which classes they know."""

from __future__ import annotations

from pathlib import Path

from .glyphs import CHARS

DATA_DIR = Path(__file__).parent / "data"
CHAR_MODEL = DATA_DIR / "glyphes.onnx"  # + glyphes.json (classes, temperature)
CIRCLE_MODEL = DATA_DIR / "cercles.npz"
CROSSED = "#"
CLASSES = list(CHARS) + [CROSSED]
