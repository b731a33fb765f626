"""Bulletin layouts: where each field lies, in coordinates relative to the page.

A layout is a JSON file under ``vision/layouts/`` so that another bulletin
model (e.g. the federation's printed one, measured by ``python -m vision
calibrer``) can be read without code changes. Boxes are ``[x, y, w, h]`` as
fractions of the page width and height.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

LAYOUT_DIR = Path(__file__).parent / "layouts"
DEFAULT_LAYOUT = "fd1"

Box = tuple[float, float, float, float]
#: a box in image pixels: x0, y0, x1, y1
Box4 = tuple[int, int, int, int]


@dataclass(frozen=True)
class Layout:
    """A parsed layout file; ``data`` keeps the raw JSON for the renderer; ``folder``: where
    the file lies (its blank form's image, ``data["vierge"]``, lies beside it)."""

    name: str
    data: dict
    folder: Path | None = None

    @property
    def blank_image(self) -> Path | None:
        """The photo of the blank form the layout was measured on (``python -m vision
        calibrer`` writes it), rectified: its printed matter locates a page without
        markers. None for a layout drawn by the project (its rendering is the form)."""
        name = self.data.get("vierge")
        if not name or self.folder is None:
            return None
        path = self.folder / name
        return path if path.is_file() else None

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
        """A layout by name (``vision/layouts/NAME.json``) or by file; ValueError (French).

        The file is read through :mod:`engine.files` (regular file, size bounded) and
        its shape checked here, so that the reader never meets a list where it
        expects a box.
        """
        from engine.files import LIMITS, FileRefused, read_json

        path = Path(name_or_path)
        if not path.suffix:
            if not valid_name(str(name_or_path)):
                raise ValueError(f"nom de modèle non valable : « {name_or_path} » (lettres, "
                                 "chiffres, - et _ seulement)")
            path = LAYOUT_DIR / f"{name_or_path}.json"
        try:
            data = read_json(path, "modèle de bulletin", LIMITS["modele"])
        except FileRefused as exc:
            raise ValueError(str(exc)) from exc
        problem = layout_problem(data)
        if problem:
            raise ValueError(f"modèle de bulletin non valable : {path} ({problem})")
        return cls(str(data.get("name", path.stem)), data, path.parent)


_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")


def valid_name(name: str) -> bool:
    """A layout name usable as a file name in ``vision/layouts/``: no folder, no dots."""
    return bool(_NAME.fullmatch(name))


def _is_box(value: object) -> bool:
    return (isinstance(value, list) and len(value) == 4
            and all(isinstance(v, int | float) and not isinstance(v, bool) and -0.01 <= v <= 1.01
                    for v in value))


def _is_count(value: object, top: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= top


def layout_problem(data: object) -> str | None:
    """What makes ``data`` unusable as a layout, in French; None when it is sound."""
    if not isinstance(data, dict):
        return "un objet JSON est attendu"
    page = data.get("page_mm")
    if not (isinstance(page, list) and len(page) == 2
            and all(isinstance(v, int | float) and not isinstance(v, bool) and 10 <= v <= 1000
                    for v in page)):
        return "« page_mm » : deux dimensions en millimètres attendues"
    markers = data.get("markers", {})
    if not isinstance(markers, dict) or not isinstance(markers.get("items", []), list):
        return "« markers » non valable"
    if "dictionary" in markers and not (isinstance(markers["dictionary"], str)
                                        and re.fullmatch(r"DICT_[A-Z0-9_]{1,30}",
                                                         markers["dictionary"])):
        return "« markers.dictionary » non valable"
    for item in markers.get("items", []):
        if not isinstance(item, dict) or not _is_box(item.get("box")) \
                or not isinstance(item.get("id"), int) or not 0 <= item["id"] < 1000:
            return "repère (« markers.items ») non valable"
    grid = data.get("grid")
    if not isinstance(grid, dict) or not _is_box(grid.get("box")) \
            or not _is_count(grid.get("rows"), 20) or not _is_count(grid.get("cols"), 40):
        return "« grid » : box, rows et cols attendus"
    if not isinstance(grid.get("word_row", 1), int) or not 0 <= grid.get("word_row", 1) < grid["rows"]:
        return "« grid.word_row » non valable"
    fields = data.get("fields")
    if not isinstance(fields, dict) or not fields:
        return "« fields » : les cases table, ref et score attendues"
    for name, spec in fields.items():
        if not isinstance(spec, dict) or not _is_box(spec.get("box")) \
                or not _is_count(spec.get("cells"), 40):
            return f"case « {str(name)[:20]} » : box et cells attendus"
    for key in ("arbiter", "code"):
        if key in data and (not isinstance(data[key], dict) or not _is_box(data[key].get("box"))):
            return f"« {key} » non valable"
    if not isinstance(data.get("texts", []), list):
        return "« texts » non valable"
    blank = data.get("vierge")
    if blank is not None and not (isinstance(blank, str) and blank.endswith(".png")
                                  and valid_name(blank[:-4])):
        return "« vierge » : le nom d'une image PNG à côté du modèle attendu"
    return None


def to_px(box: Box, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """Relative box → integer pixel box ``(x0, y0, x1, y1)`` in an image of ``size`` (w, h)."""
    w, h = size
    x, y, bw, bh = box
    return round(x * w), round(y * h), round((x + bw) * w), round((y + bh) * h)


def available_layouts() -> list[str]:
    return sorted(p.stem for p in LAYOUT_DIR.glob("*.json"))
