"""The arbiter's correction screen, drawn on a surface of any size (1920×1080, 1366×768…).

Top: the selected bulletin straightened (the reader's page stage) with its
doubtful boxes outlined, and beside it its fields, the decision proposed and
why — or the bulletin form while the arbiter types. Below: the list of the
coup's bulletins (waiting, recorded, then the players without a result),
text at fixed sizes, long reasons wrapped, a scroll bar and « 12 / 40 ».
Z enlarges the photo (the list gives way to the fields), V shows the photo
as taken. The content comes from :mod:`kiosk.views`; nothing is decided here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pygame

from display import fonts, theme, tiles

from .form import FORM_FIELDS, FORM_NAMES
from .machine import Machine
from .reading import BulletinImage, bulletin_image
from .views import ArbiterRow, arbiter_rows, doubtful_boxes, propose_values

LOW = (255, 120, 90)  # a doubtful field, its boxes on the photo
JOKER = (255, 60, 200)  # a circled letter read as a joker, on the photo
SELECTED = (48, 70, 110)
FORM_ACTIVE = (70, 100, 150)
SCROLL_TRACK = (40, 55, 80)
#: the written part of the bulletin (fractions of the page), around the boxes
CROP_PAD = (0.02, 0.06)
KEYS = ("Entrée confirmer · E modifier · N taper · B absent · T top · O top à tous · I motif "
        "· Z agrandir · V photo brute · Suppr écarter · Tab salle")


@dataclass
class PhotoPlacement:
    """Where the page was drawn: its top-left corner and size on the surface (a box at
    fractions (x, y, w, h) of the page lies at left + x·width…), and what is shown."""

    left: float
    top: float
    width: float
    height: float
    shown: pygame.Rect
    raw: bool

    def box(self, box: tuple[float, float, float, float]) -> pygame.Rect:
        return pygame.Rect(int(self.left + box[0] * self.width), int(self.top + box[1] * self.height),
                           int(box[2] * self.width), int(box[3] * self.height))


@dataclass
class ScreenInfo:
    """What was drawn, for the tests and the console: counter, rows shown, sizes, photo."""

    counter: str = ""
    first: int = 0
    end: int = 0
    total: int = 0
    text_size: int = 0
    photo: PhotoPlacement | None = None
    thumb: pygame.Rect | None = None
    outlined: list[pygame.Rect] = field(default_factory=list)


class Metrics:
    """Fixed text sizes for a surface: chosen from its height once, never shrunk to fit."""

    def __init__(self, size: tuple[int, int]) -> None:
        self.w, self.h = size
        self.line = max(14, self.h // 42)  # list text
        self.small = max(12, int(self.line * 0.85))
        self.title = int(self.line * 1.35)
        self.big = int(self.line * 1.2)  # the selected bulletin's fields
        self.margin = max(8, self.line // 2)
        self.row_gap = max(2, self.line // 5)
        self.message_bar = int(max(12, self.h // 30) * 1.4)  # kept free for the message


def _text(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int,
          colour=theme.TEXT, width: int | None = None) -> int:
    """One line at a fixed size, cut with « … » past ``width``; returns its height."""
    if width is not None:
        text = fonts.ellipsize(text, max(1, width), size)
    image = fonts.font(size).render(text, True, colour)
    surface.blit(image, pos)
    return image.get_height()


def wrap(text: str, size: int, width: int) -> list[str]:
    """Lines of ``text`` (cut between words, a word longer than a line cut with « … »)."""
    return [fonts.ellipsize(line, width, size) for line in fonts.wrap(" ".join(text.split()),
                                                                        width, size)]


def _word(surface: pygame.Surface, word: str, pos: tuple[int, int], size: int,
          colour=theme.TEXT) -> int:
    """A bulletin's word: letters in capitals, a circled one (joker, lower case) in a circle."""
    font = fonts.font(size)
    x, y = pos
    for ch in word:
        image = font.render(ch.upper(), True, colour)
        surface.blit(image, (x, y))
        if ch.islower():
            r = max(image.get_width(), image.get_height()) // 2 + 1
            pygame.draw.circle(surface, JOKER, (x + image.get_width() // 2,
                                                y + image.get_height() // 2), r, 2)
        x += image.get_width() + (3 if ch.islower() else 0)
    return x - pos[0]


# -- the photo -----------------------------------------------------------------------------------
def _surface_of(image: BulletinImage, raw: bool) -> pygame.Surface:
    """The photo as a pygame surface, kept with the image (both leave the cache together)."""
    found = image.drawn.get(raw)
    if found is None:
        array = image.raw if raw or image.rgb is None else image.rgb
        array = array.copy(order="C")
        found = pygame.image.frombuffer(array.tobytes(), (array.shape[1], array.shape[0]),
                                        "RGB").copy()
        image.drawn[raw] = found
    return found


def _crop(boxes: dict) -> tuple[float, float, float, float]:
    """The written part of the page: every box, padded (fractions x0, y0, x1, y1)."""
    if not boxes:
        return 0.0, 0.0, 1.0, 1.0
    x0 = min(b[0] for b in boxes.values()) - CROP_PAD[0]
    y0 = min(b[1] for b in boxes.values()) - CROP_PAD[1]
    x1 = max(b[0] + b[2] for b in boxes.values()) + CROP_PAD[0]
    y1 = max(b[1] + b[3] for b in boxes.values()) + CROP_PAD[1]
    return max(0.0, x0), max(0.0, y0), min(1.0, x1), min(1.0, y1)


def draw_photo(surface: pygame.Surface, area: pygame.Rect, machine: Machine, m: Metrics,
               info: ScreenInfo | None = None) -> PhotoPlacement | None:
    """The selected bulletin's photo fitted in ``area``; returns where the page was drawn."""
    info = info or ScreenInfo()
    pygame.draw.rect(surface, theme.PANEL, area)
    reading = machine.selected_reading()
    if reading is None:
        what = "résultat enregistré" if machine.selected_table() is not None else \
            "joueur sans résultat" if machine.selected_missing() is not None else "aucun bulletin"
        _text(surface, f"{what} : pas de photo", (area.x + m.margin, area.y + m.margin),
              m.small, theme.TEXT_DIM, area.width - 2 * m.margin)
        return None
    config = machine.session.config
    image = bulletin_image(reading.photo, reading.sheet[0] if reading.sheet else None,
                           config.bulletin if config is not None else "fd1")
    if isinstance(image, str):
        y = area.y + m.margin
        for line in wrap(image, m.small, area.width - 2 * m.margin):
            y += _text(surface, line, (area.x + m.margin, y), m.small, theme.TEXT_DIM)
        return None
    raw = machine.raw_photo or image.rgb is None
    photo = _surface_of(image, raw)
    pw, ph = photo.get_size()
    if raw:
        crop = pygame.Rect(0, 0, pw, ph)
    else:
        x0, y0, x1, y1 = _crop(image.boxes)
        crop = pygame.Rect(int(x0 * pw), int(y0 * ph), int((x1 - x0) * pw), int((y1 - y0) * ph))
    label_h = m.small + m.row_gap
    room = pygame.Rect(area.x, area.y, area.width, area.height - label_h)
    scale = min(room.width / crop.width, room.height / crop.height)
    size = (max(1, int(crop.width * scale)), max(1, int(crop.height * scale)))
    shown = pygame.transform.smoothscale(photo.subsurface(crop), size)
    at = (room.x + (room.width - size[0]) // 2, room.y + (room.height - size[1]) // 2)
    surface.blit(shown, at)
    placement = PhotoPlacement(at[0] - crop.x * scale, at[1] - crop.y * scale, pw * scale,
                               ph * scale, pygame.Rect(at, size), raw)
    if raw:
        caption = "photo brute (V : photo redressée)" if image.rgb is not None else \
            f"photo brute : {image.problem}"
    else:
        caption = ("photo redressée, cases à vérifier entourées · Z : "
                   + ("réduire" if machine.zoom else "agrandir") + " · V : photo brute")
        thick = max(2, m.line // 8)
        for key, strong in doubtful_boxes(reading):
            box = image.boxes.get(key)
            if box is None:
                continue
            rect = placement.box(box).inflate(2, 2)
            pygame.draw.rect(surface, JOKER if strong else LOW, rect, thick + (1 if strong else 0))
            info.outlined.append(rect)
    _text(surface, caption, (area.x + m.margin, area.bottom - label_h), m.small,
          theme.TEXT_DIM, area.width - 2 * m.margin)
    info.photo = placement
    return placement


# -- the selected bulletin: fields, decision, or the form ------------------------------------------
def draw_detail(surface: pygame.Surface, area: pygame.Rect, machine: Machine, row: ArbiterRow | None,
                m: Metrics) -> None:
    x, y, width = area.x + m.margin, area.y, area.width - 2 * m.margin
    if machine.mode == "edition" and machine.form is not None:
        draw_form(surface, area, machine, m)
        return
    if row is None:
        _text(surface, "aucun bulletin pour ce coup : N pour en taper un", (x, y), m.line,
              theme.TEXT_DIM, width)
        return
    who = f"table {row.table}" if row.table is not None else "table non lue"
    if row.name:
        who += f" · {row.name}"
    state = {"lecture": "à confirmer", "sans": "sans résultat"}.get(row.kind, "enregistré")
    y += _text(surface, f"{who} — {state}", (x, y), m.big, theme.ACCENT, width) + m.row_gap
    label_w = fonts.font(m.line).size("référence ")[0]
    for cell in row.fields:
        colour = LOW if cell.low else theme.TEXT
        _text(surface, cell.name, (x, y + (m.big - m.line) // 2), m.line, theme.TEXT_DIM)
        if cell.name == FORM_NAMES["word"] and cell.text != "—":
            end = x + label_w + _word(surface, cell.text, (x + label_w, y), m.big, colour)
        else:
            end = x + label_w + fonts.font(m.big).size(cell.text)[0]
            _text(surface, cell.text, (x + label_w, y), m.big, colour, width - label_w)
        if cell.confidence is not None:
            doubt = f"{cell.confidence:.0%}" + (" à vérifier" if cell.low else "") + (
                f" : {cell.why}" if cell.why else "")
            _text(surface, doubt, (end + m.margin, y + (m.big - m.small) // 2), m.small, colour,
                  x + width - end - m.margin)  # a long reason is cut, never drawn off the pane
        y += m.big + m.row_gap
    if row.decision:
        head = "proposé : " if row.kind == "lecture" else "décision : "
        y += _text(surface, head + row.decision, (x, y), m.big, theme.ACCENT, width) + m.row_gap
    for text, colour in [(row.reasons, theme.TEXT), *[(n, LOW) for n in row.notes]]:
        for line in wrap(text, m.small, width) if text else []:
            if y + m.small > area.bottom:
                return
            y += _text(surface, line, (x, y), m.small, colour)


def draw_form(surface: pygame.Surface, area: pygame.Rect, machine: Machine, m: Metrics) -> None:
    """The bulletin form: five fields, the active one framed, the decision they would get."""
    form = machine.form
    x, y, width = area.x + m.margin, area.y, area.width - 2 * m.margin
    head = "Nouveau bulletin (sans photo)" if form.reading is None else "Modifier le bulletin"
    y += _text(surface, head, (x, y), m.big, theme.ACCENT, width) + m.row_gap
    label_w = fonts.font(m.line).size("référence ")[0]
    box_h = m.big + m.row_gap * 2
    for i, name in enumerate(FORM_FIELDS):
        active = i == form.index
        box = pygame.Rect(x + label_w, y, width - label_w, box_h)
        pygame.draw.rect(surface, FORM_ACTIVE if active else theme.PANEL, box)
        if active:
            pygame.draw.rect(surface, theme.ACCENT, box, 2)
        _text(surface, FORM_NAMES[name], (x, y + (box_h - m.line) // 2), m.line,
              theme.ACCENT if active else theme.TEXT_DIM)
        text = form.values[name]
        tx = box.x + m.margin
        if name == "word":
            tx += _word(surface, text, (tx, y + m.row_gap), m.big)
        else:
            _text(surface, text, (tx, y + m.row_gap), m.big, theme.TEXT, box.width - m.margin)
            tx += fonts.font(m.big).size(text)[0]
        if active:
            cursor = pygame.Rect(tx + 2, y + m.row_gap, max(2, m.line // 8), m.big)
            pygame.draw.rect(surface, theme.ACCENT if not form.fresh else theme.TEXT_DIM, cursor)
        y += box_h + m.row_gap
    try:
        values = form.all_values(lenient=True)
        proposal = propose_values(machine, machine.session.pending.get(form.reading or -1),
                                  values)
    except ValueError as exc:
        proposal = str(exc)
    lines = [("si enregistré : " + proposal, theme.ACCENT),
             ("Tab / Maj+Tab : champ suivant / précédent · Entrée : tout enregistrer · "
              "Échap : abandonner · ? puis une lettre : joker entouré", theme.TEXT_DIM)]
    for text, colour in lines:
        for line in wrap(text, m.small, width):
            if y + m.small > area.bottom:
                return
            y += _text(surface, line, (x, y), m.small, colour)


# -- the list ------------------------------------------------------------------------------------
#: column starts, fractions of the list's width: state, table, name, mot, réf, score, décision,
#: motifs
COLUMNS = (0.0, 0.025, 0.07, 0.22, 0.37, 0.425, 0.475, 0.635, 1.0)
HEADS = ("", "table", "nom", "mot", "réf.", "score", "décision", "motifs")


def _row_lines(row: ArbiterRow, m: Metrics, width: int) -> list[tuple[str, tuple]]:
    """The reasons column's lines for one row, wrapped (the notes after the reasons)."""
    col = int((COLUMNS[8] - COLUMNS[7]) * width) - m.margin
    out: list[tuple[str, tuple]] = []
    reasons = row.reasons or row.status
    if row.kind == "sans" and not row.selected:
        reasons = ""  # the keys for a player without a result: on his line once selected
    for text, colour in [(reasons, theme.TEXT_DIM), *[(n, LOW) for n in row.notes]]:
        out += [(line, colour) for line in wrap(text, m.small, col)] if text else []
    return out or [("", theme.TEXT_DIM)]


def first_visible(heights: list[int], selected: int, room: int) -> int:
    """The first row drawn so that the selected one is on screen, scrolling as little as can."""
    start = 0
    while start < selected and sum(heights[start:selected + 1]) > room:
        start += 1
    return start


def draw_list(surface: pygame.Surface, area: pygame.Rect, rows: list[ArbiterRow],
              cursor: int, m: Metrics, info: ScreenInfo | None = None) -> tuple[int, int]:
    """The rows that fit from the one that keeps the cursor visible; returns (first, last+1)."""
    info = info or ScreenInfo()
    bar_w = max(6, m.line // 3)
    width = area.width - bar_w - m.margin
    x0 = area.x

    def cell(i: int, text: str, y: int, colour, size: int = m.line, word: bool = False) -> None:
        left = x0 + int(COLUMNS[i] * width)
        room = int((COLUMNS[i + 1] - COLUMNS[i]) * width) - m.margin // 2
        if word and text not in ("", "—"):  # cut or not, a joker is a circled capital
            _word(surface, fonts.ellipsize(text, room, size), (left, y), size, colour)
        else:
            _text(surface, text, (left, y), size, colour, room)

    y = area.y
    for i, head in enumerate(HEADS):
        cell(i, head, y, theme.TEXT_DIM, m.small)
    y += m.small + m.row_gap
    top = y
    room = area.bottom - top
    layouts = [_row_lines(row, m, width) for row in rows]
    heights = [max(m.line, len(lines) * m.small) + m.row_gap * 2 for lines in layouts]
    start = first_visible(heights, cursor, room)
    end = start
    for index in range(start, len(rows)):
        row, lines, height = rows[index], layouts[index], heights[index]
        if y + height > area.bottom and index > start:
            break
        if row.selected:
            pygame.draw.rect(surface, SELECTED, (x0, y, width, height))
        mark = {"lecture": "●", "sans": "○"}.get(row.kind, "✓")
        colour = theme.ACCENT if row.kind == "lecture" else LOW if row.kind == "sans" \
            else theme.TEXT
        ty = y + m.row_gap
        cell(0, mark, ty, colour)
        f = {c.name: c for c in row.fields}
        cell(1, str(row.table) if row.table is not None else f["table"].text, ty,
             LOW if f["table"].low else theme.TEXT)
        cell(2, row.name or ("sans résultat" if row.kind == "sans" else ""), ty, theme.TEXT)
        for i, name in ((3, "mot"), (4, "référence"), (5, "score")):
            c = f[name]
            cell(i, c.text, ty, LOW if c.low else theme.TEXT, word=i == 3)
        cell(6, row.decision, ty, colour)
        left = x0 + int(COLUMNS[7] * width)
        for n, (line, tint) in enumerate(lines):
            _text(surface, line, (left, ty + n * m.small), m.small, tint)
        y += height
        end = index + 1
    # the scroll bar: where the rows shown lie in the whole list
    track = pygame.Rect(area.right - bar_w, top, bar_w, room)
    pygame.draw.rect(surface, SCROLL_TRACK, track)
    if rows:
        total = sum(heights)
        above = sum(heights[:start])
        shown = max(sum(heights[start:end]), 1)
        thumb_h = max(bar_w * 2, int(room * min(1.0, shown / max(total, 1))))
        thumb_y = top + int((room - thumb_h) * (above / max(total - shown, 1)
                                                if total > shown else 0))
        info.thumb = pygame.Rect(track.x, thumb_y, bar_w, thumb_h)
        pygame.draw.rect(surface, theme.TEXT_DIM, info.thumb)
    info.first, info.end = start, end
    return start, end


# -- the screen ----------------------------------------------------------------------------------
def draw_arbiter(machine: Machine, surface: pygame.Surface) -> ScreenInfo:
    """The correction screen: photo and fields of the selected bulletin, then the list."""
    m = Metrics(surface.get_size())
    info = ScreenInfo(text_size=m.line)
    surface.fill(theme.BACKGROUND)
    s = machine.session
    coup = s.coup
    number = coup.number if coup else 0
    rows = arbiter_rows(machine)
    cursor = machine.cursor if rows else -1
    x, width = m.margin, m.w - 2 * m.margin
    y = m.margin // 2
    counter = f"{cursor + 1} / {len(rows)}" if rows else "0 / 0"
    info.counter, info.total = counter, len(rows)
    counter_w = fonts.font(m.title).size(counter)[0]
    title = f"Correction du coup {number}"
    if coup is not None and coup.top is not None:  # the top's joker: a capital in its colour
        title += " — top "
        tx = x + fonts.font(m.title).size(title)[0]
        word = tiles.word_surface(coup.top.word, m.title, theme.ACCENT)
        surface.blit(word, (tx, y))
        _text(surface, f" {coup.top.ref} {coup.top.score}", (tx + word.get_width(), y), m.title,
              theme.ACCENT)
    _text(surface, title, (x, y), m.title, theme.ACCENT, width - counter_w - m.margin)
    _text(surface, counter, (m.w - m.margin - counter_w, y), m.title, theme.ACCENT)
    y += m.title + m.row_gap
    waiting = sum(r.kind == "lecture" for r in rows)
    missing = sum(r.kind == "sans" for r in rows)
    done = sum(r.kind == "enregistre" for r in rows)
    threshold = s.results.settings.warning_threshold
    status = (f"{waiting} à confirmer · {missing} sans résultat · {done} enregistré(s) · "
              f"avertissements : 5 points dès le {threshold}e")
    _text(surface, status, (x, y), m.small, theme.TEXT_DIM, width)
    y += m.small + m.row_gap * 2
    bottom = m.h - m.message_bar - m.small - m.row_gap
    _text(surface, KEYS, (x, bottom), m.small, theme.TEXT_DIM, width)
    selected = rows[cursor] if rows else None
    if machine.zoom:  # the photo across the screen, the fields (or the form) under it
        band = pygame.Rect(x, y, width, int((bottom - y) * 0.62))
        draw_photo(surface, band, machine, m, info)
        draw_detail(surface, pygame.Rect(x, band.bottom + m.row_gap, width,
                                         bottom - band.bottom - 2 * m.row_gap),
                    machine, selected, m)
        return info
    band = pygame.Rect(x, y, width, int((bottom - y) * 0.45))
    photo_w = int(width * 0.58)
    draw_photo(surface, pygame.Rect(band.x, band.y, photo_w, band.height), machine, m, info)
    draw_detail(surface, pygame.Rect(band.x + photo_w + m.margin, band.y,
                                     width - photo_w - m.margin, band.height), machine, selected, m)
    top = band.bottom + m.row_gap * 2
    draw_list(surface, pygame.Rect(x, top, width, bottom - top - m.row_gap), rows,
              max(cursor, 0), m, info)
    return info
