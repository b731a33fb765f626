"""Bulletin layouts: where each field lies, in coordinates relative to the page.

A layout is a JSON file under ``vision/layouts/`` so that another bulletin
model (e.g. the federation's printed one, measured by ``python -m vision
calibrer``) can be read without code changes. Boxes are ``[x, y, w, h]`` as
fractions of the page width and height.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

LAYOUT_DIR = Path(__file__).parent / "layouts"
DEFAULT_LAYOUT = "fd1"

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Layout:
    """A parsed layout file; ``data`` keeps the raw JSON for the renderer."""

    name: str
    data: dict

    @property
    def page_mm(self) -> tuple[float, float]:
        w, h = self.data["page_mm"]
        return float(w), float(h)

    @property
    def aspect(self) -> float:
        w, h = self.page_mm
        return w / h

    @property
    def markers(self) -> list[dict]:
        return list(self.data.get("markers", {}).get("items", []))

    @property
    def marker_ids(self) -> set[int]:
        return {int(m["id"]) for m in self.markers}

    @property
    def grid_box(self) -> Box:
        return tuple(self.data["grid"]["box"])  # type: ignore[return-value]

    @property
    def grid_shape(self) -> tuple[int, int]:
        return int(self.data["grid"]["rows"]), int(self.data["grid"]["cols"])

    @property
    def word_row(self) -> int:
        return int(self.data["grid"].get("word_row", 1))

    def field_box(self, name: str) -> Box:
        return tuple(self.data["fields"][name]["box"])  # type: ignore[return-value]

    def field_cells(self, name: str) -> int:
        return int(self.data["fields"][name]["cells"])

    def grid_cells(self) -> list[list[Box]]:
        """Relative box of every grid cell, ``[row][col]``."""
        x, y, w, h = self.grid_box
        rows, cols = self.grid_shape
        return [
            [(x + w * c / cols, y + h * r / rows, w / cols, h / rows) for c in range(cols)]
            for r in range(rows)
        ]

    def comb_cells(self, name: str) -> list[Box]:
        """Relative box of every character cell of a combed field (table, ref, score)."""
        x, y, w, h = self.field_box(name)
        n = self.field_cells(name)
        return [(x + w * i / n, y, w / n, h) for i in range(n)]

    def canonical_size(self, px_per_mm: float) -> tuple[int, int]:
        w, h = self.page_mm
        return round(w * px_per_mm), round(h * px_per_mm)

    @classmethod
    def load(cls, name_or_path: str | Path = DEFAULT_LAYOUT) -> Layout:
        path = Path(name_or_path)
        if not path.suffix:
            path = LAYOUT_DIR / f"{name_or_path}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(str(data.get("name", path.stem)), data)


def to_px(box: Box, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """Relative box → integer pixel box ``(x0, y0, x1, y1)`` in an image of ``size`` (w, h)."""
    w, h = size
    x, y, bw, bh = box
    return round(x * w), round(y * h), round((x + bw) * w), round((y + bh) * h)


def available_layouts() -> list[str]:
    return sorted(p.stem for p in LAYOUT_DIR.glob("*.json"))
