"""Explicit font files, cached by size, so every machine draws the same glyphs.

``pygame.font.match_font("dejavusans", bold=True)`` may return the condensed
face; we name the file instead and fall back to pygame's bundled font.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

import pygame

log = logging.getLogger(__name__)

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/TTF"))
BOLD_FILE = "DejaVuSans-Bold.ttf"


@lru_cache(maxsize=1)
def bold_path() -> str | None:
    """Path of DejaVu Sans Bold, or None for pygame's bundled font."""
    for folder in FONT_DIRS:
        candidate = folder / BOLD_FILE
        if candidate.is_file():
            return str(candidate)
    log.warning("police %s introuvable : police intégrée de pygame utilisée", BOLD_FILE)
    return None


@lru_cache(maxsize=256)
def font(size: int) -> pygame.font.Font:
    """The bold face at ``size`` pixels (cached: opening a font costs ~1 ms)."""
    if not pygame.font.get_init():
        pygame.font.init()
    size = max(4, int(size))
    path = bold_path()
    try:
        return pygame.font.Font(path, size)
    except (OSError, pygame.error):
        return pygame.font.Font(None, size)


@lru_cache(maxsize=8)
def ink_ratio(sample: str) -> float:
    """Height of the inked part of ``sample`` per pixel of font size."""
    probe = 200
    surface = font(probe).render(sample, True, (255, 255, 255))
    return surface.get_bounding_rect().height / probe


@lru_cache(maxsize=64)
def ink_top(size: int, sample: str = "0") -> int:
    """Pixels from the top of a rendered line to the top of ``sample``'s ink."""
    return font(size).render(sample, True, (255, 255, 255)).get_bounding_rect().top


def size_for_ink(height: float, sample: str = "H") -> int:
    """Font size whose ``sample`` glyphs are at least ``height`` pixels tall."""
    return max(4, int(height / ink_ratio(sample)) + 1)


@lru_cache(maxsize=1024)
def wrap(text: str, max_width: float, size: int) -> tuple[str, ...]:
    """``text`` cut between words into lines at most ``max_width`` wide (a single word
    longer than the line stays whole on its own line); a no-break space (U+00A0) binds."""
    face = font(size)
    lines: list[str] = []
    current = ""
    for word in text.split(" "):
        if not word:
            continue
        candidate = f"{current} {word}".strip()
        if current and face.size(candidate)[0] > max_width:
            lines.append(current)
            current = word
        else:
            current = candidate
    if current:
        lines.append(current)
    return tuple(lines)


@lru_cache(maxsize=2048)
def fit_size(text: str, max_width: float, max_size: int) -> int:
    """The largest size ≤ ``max_size`` at which ``text`` is at most ``max_width`` wide."""
    size = max(4, int(max_size))
    width = font(size).size(text)[0]
    if width <= max_width:
        return size
    size = max(4, int(size * max_width / max(width, 1)))
    while size > 4 and font(size).size(text)[0] > max_width:
        size -= 1
    return size


@lru_cache(maxsize=512)
def ellipsize(text: str, max_width: float, size: int) -> str:
    """``text`` cut with « … » so it is at most ``max_width`` wide at ``size``."""
    face = font(size)
    if face.size(text)[0] <= max_width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest prefix that fits with the ellipsis
        mid = (low + high + 1) // 2
        if face.size(text[:mid].rstrip() + "…")[0] <= max_width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…" if low else ""
