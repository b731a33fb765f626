"""Learning from the arbiters: keep the crop of every field they confirm or correct.

Crops go to a folder in the game's data (``<partie>.vision/`` by default) as
PNG files plus a ``labels.jsonl`` index; ``python -m vision entrainer`` adds
them to the synthetic training set, so a club's reader learns its players'
handwriting. ``KIOSK_VISION_LEARN=0`` (or ``enabled=False``) turns it off.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from .reader import BulletinReading

INDEX = "labels.jsonl"


def learning_enabled() -> bool:
    return os.environ.get("KIOSK_VISION_LEARN", "1").strip().lower() not in (
        "0",
        "non",
        "false",
        "off",
    )


def crops_dir_for_game(game_path: str | Path) -> Path:
    path = Path(game_path)
    return path.with_name(path.stem + ".vision")


def _labels_for(reading: BulletinReading, confirmed: dict) -> list[tuple[str, str]]:
    """(cell key, label) pairs for the confirmed fields whose length matches the cells read."""
    pairs: list[tuple[str, str]] = []
    for name in ("word", "ref", "score", "table"):
        value = confirmed.get(name)
        keys = reading.cell_keys.get(name, [])
        if value is None or not keys:
            continue
        text = str(value)
        if len(text) == len(keys):
            pairs += list(zip(keys, text, strict=True))
    return pairs


def save_confirmed(
    reading: BulletinReading, confirmed: dict, directory: str | Path, enabled: bool | None = None
) -> int:
    """Store the crops of the fields the arbiter confirmed; returns how many were kept."""
    if not (learning_enabled() if enabled is None else enabled):
        return 0
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d%H%M%S")
    lines = []
    for n, (key, label) in enumerate(_labels_for(reading, confirmed)):
        glyph = reading.crops.get(key)
        if glyph is None:
            continue
        stem = f"{stamp}_{os.getpid()}_{abs(hash((key, n, time.time()))) % 10**8}"
        cv2.imwrite(str(out / f"{stem}.png"), np.clip(glyph.image * 255, 0, 255).astype(np.uint8))
        entry = {"file": f"{stem}.png", "label": label, "field": glyph.field}
        if glyph.field == "grid":
            cv2.imwrite(
                str(out / f"{stem}_w.png"), np.clip(glyph.window * 255, 0, 255).astype(np.uint8)
            )
            entry["window"] = f"{stem}_w.png"
        lines.append(json.dumps(entry, ensure_ascii=False))
    if lines:
        with open(out / INDEX, "a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
    return len(lines)


def load_confirmed(directory: str | Path) -> Iterator[tuple[np.ndarray, np.ndarray | None, str]]:
    """Yield (crop, window or None, label) of every stored crop; bad lines are skipped."""
    folder = Path(directory)
    index = folder / INDEX
    if not index.exists():
        return
    for line in index.read_text(encoding="utf-8").splitlines():
        try:
            entry = json.loads(line)
            crop = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_GRAYSCALE)
            label = str(entry["label"])
        except (ValueError, KeyError, TypeError):
            continue
        if crop is None or len(label) != 1:
            continue
        window = None
        if entry.get("window"):
            w = cv2.imread(str(folder / entry["window"]), cv2.IMREAD_GRAYSCALE)
            window = None if w is None else w.astype(np.float32) / 255
        yield crop.astype(np.float32) / 255, window, label
