"""Colours of the room screen: the French board colours, chosen so every text reads at ≥ 7:1."""

from __future__ import annotations

from engine.board import Premium

Colour = tuple[int, int, int]

BACKGROUND: Colour = (10, 18, 32)  # deep navy: projectors render black as grey, navy looks intended
PANEL: Colour = (20, 33, 54)
TEXT: Colour = (245, 245, 240)
BAG_CELL: Colour = (34, 52, 82)  # the cells of the letters-left table, on the panel
TEXT_DIM: Colour = (190, 200, 215)  # secondary labels, still ≥ 7:1 on PANEL
ACCENT: Colour = (255, 214, 90)  # titles, the score being announced

GRID_LINES: Colour = (6, 26, 18)
# Muted premiums: dark, low-saturation squares so the ivory tiles and the outlined last top
# stand out; the labels (LD, MT…) are white on every one of them, ≥ 7:1.
PLAIN_SQUARE: Colour = (26, 84, 56)  # the green of the French board, darkened

PREMIUM_COLOURS: dict[Premium, Colour] = {
    Premium.NONE: PLAIN_SQUARE,
    Premium.DOUBLE_LETTER: (44, 88, 128),  # blue
    Premium.TRIPLE_LETTER: (30, 52, 110),  # dark blue
    Premium.DOUBLE_WORD: (128, 64, 84),  # pink, greyed
    Premium.TRIPLE_WORD: (120, 28, 36),  # red, greyed
}
PREMIUM_LABEL_COLOURS: dict[Premium, Colour] = {p: (255, 255, 255) for p in PREMIUM_COLOURS
                                                if p is not Premium.NONE}
#: short labels a French player knows: « mot triple », « lettre double »…
PREMIUM_LABELS: dict[Premium, str] = {
    Premium.DOUBLE_LETTER: "LD",
    Premium.TRIPLE_LETTER: "LT",
    Premium.DOUBLE_WORD: "MD",
    Premium.TRIPLE_WORD: "MT",
}
STAR = "★"

TILE: Colour = (243, 224, 178)  # ivory tile
TILE_SHADE: Colour = (190, 160, 105)
TILE_TEXT: Colour = (26, 18, 6)
JOKER_TILE: Colour = (255, 250, 236)  # whiter tile…
JOKER_TEXT: Colour = (150, 0, 24)  # …with a crimson letter and no value
JOKER_INK: Colour = (255, 140, 200)  # a joker's letter in a written word: a pink capital
NEW_TILE: Colour = (255, 236, 140)  # new letters of the tirage, warmer than the reliquat
HIGHLIGHT: Colour = (255, 210, 0)  # outline of the last top / the top being announced
ANNOUNCE_TILE: Colour = (255, 238, 120)  # tiles of the top while it is announced

COUNTDOWN: Colour = (245, 245, 240)
COUNTDOWN_WARNING: Colour = (255, 176, 0)  # amber from 30 s (20 s in blitz)
COUNTDOWN_LAST_BG: Colour = (150, 20, 32)  # the last 10 seconds: white digits on red
COUNTDOWN_OVER: Colour = (255, 140, 140)  # « Terminé »
COUNTDOWN_PAUSE: Colour = (160, 180, 220)  # the time left, greyed, beside « PAUSE »
BADGE: Colour = ACCENT  # the SCRABBLE badge: dark letters on the accent colour
BADGE_TEXT: Colour = PANEL
REJECTED: Colour = (255, 140, 140)
REJECTED_TILE: Colour = (175, 175, 175)


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: Colour) -> float:
    """WCAG relative luminance."""
    r, g, b = (_linear(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: Colour, b: Colour) -> float:
    """WCAG contrast ratio, 1 to 21; the issue asks ≥ 7 for every text."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


#: every (text, background) pair the renderer draws; tests hold them to 7:1
TEXT_PAIRS: dict[str, tuple[Colour, Colour]] = {
    "texte": (TEXT, BACKGROUND),
    "texte panneau": (TEXT, PANEL),
    "texte secondaire": (TEXT_DIM, PANEL),
    "texte secondaire fond": (TEXT_DIM, BACKGROUND),
    "accent": (ACCENT, PANEL),
    "accent fond": (ACCENT, BACKGROUND),
    "sac lettre": (TEXT, BAG_CELL),
    "sac nombre": (ACCENT, BAG_CELL),
    "lettre": (TILE_TEXT, TILE),
    "lettre nouvelle": (TILE_TEXT, NEW_TILE),
    "lettre annoncée": (TILE_TEXT, ANNOUNCE_TILE),
    "lettre rejetée": (TILE_TEXT, REJECTED_TILE),
    "joker": (JOKER_TEXT, JOKER_TILE),
    "joker écrit": (JOKER_INK, PANEL),
    "joker écrit fond": (JOKER_INK, BACKGROUND),
    "badge scrabble": (BADGE_TEXT, BADGE),
    "chrono dernières secondes": (COUNTDOWN, COUNTDOWN_LAST_BG),
    "chrono": (COUNTDOWN, PANEL),
    "chrono alerte": (COUNTDOWN_WARNING, PANEL),
    "chrono terminé": (COUNTDOWN_OVER, PANEL),
    "chrono pause": (COUNTDOWN_PAUSE, PANEL),
    "rejet": (REJECTED, PANEL),
    **{
        f"case {p.value}": (PREMIUM_LABEL_COLOURS[p], PREMIUM_COLOURS[p])
        for p in PREMIUM_LABEL_COLOURS
    },
}
