"""The kiosk's own screens on a pygame surface: the arbiter's correction screen, the help
overlay, prompts and the message line. The room screen itself is drawn by :mod:`display`."""

from __future__ import annotations

import pygame

from display import fonts, theme
from display.render import render

from .machine import EDITABLE, FIELD_NAMES, HELP, Machine
from .views import arbiter_rows, room_view

LOW = (255, 120, 90)  # a low-confidence field
SELECTED = (48, 70, 110)


def _text(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int,
          colour=theme.TEXT, max_width: int | None = None) -> int:
    """Draw one line (shrunk to fit ``max_width``); returns its height."""
    if max_width:
        size = fonts.fit_size(text, max_width, size)
    image = fonts.font(size).render(text, True, colour)
    surface.blit(image, pos)
    return image.get_height()


def draw_arbiter(machine: Machine, surface: pygame.Surface) -> None:
    """The correction screen: each bulletin with what was read, its confidence, the decision."""
    w, h = surface.get_size()
    surface.fill(theme.BACKGROUND)
    s = machine.session
    coup = s.coup
    number = coup.number if coup else 0
    top = coup.top if coup else None
    line = max(12, h // 34)
    y = line // 2
    title = f"Correction du coup {number}"
    if top is not None:
        title += f" — top {top.word} {top.ref} {top.score}"
    y += _text(surface, title, (line, y), int(line * 1.3), theme.ACCENT, w - 2 * line) + line // 2
    missing = len(s.missing_tables(number)) if number and s.results.coups_played >= number else 0
    y += _text(surface, f"{len(machine.pending())} bulletin(s) à confirmer · {missing} joueur(s) "
               "sans résultat · Entrée : confirmer · E : modifier · O : top à tous les restants",
               (line, y), int(line * 0.8), theme.TEXT_DIM, w - 2 * line) + line // 2
    columns = [0.0, 0.04, 0.13, 0.33, 0.44, 0.52, 0.69, 1.0]
    usable = w - 2 * line

    def cell(i: int, text: str, colour, size: int = line) -> None:
        left = line + int(columns[i] * usable)
        width = int((columns[i + 1] - columns[i]) * usable) - line // 2
        _text(surface, text, (left, y), size, colour, width)

    heads = ["", *[FIELD_NAMES[n] for n in EDITABLE], "décision", "motifs"]
    for i, head in enumerate(heads):
        cell(i, head, theme.TEXT_DIM)
    y += int(line * 1.4)
    for row in arbiter_rows(machine):
        if y > h - 3 * line:
            break
        if row.selected:
            pygame.draw.rect(surface, SELECTED, (line // 2, y - 2, w - line, int(line * 1.3)))
        colour = theme.ACCENT if row.label == "à confirmer" else theme.TEXT
        cell(0, "●" if row.label == "à confirmer" else "✓", colour)
        for i, field in enumerate(row.fields, start=1):
            text = field.text if field.confidence is None else \
                f"{field.text} ({field.confidence:.0%})"
            cell(i, text, LOW if field.low else theme.TEXT)
        cell(5, row.decision, colour)
        if not row.selected:  # the selected one's reasons come in full below
            cell(6, row.reasons or row.status, theme.TEXT_DIM, int(line * 0.8))
        y += int(line * 1.35)
        if row.selected and (row.reasons or row.status):
            # the selected bulletin's reasons in full, readable, under its line
            for text in _wrap(row.reasons or row.status, int(line * 0.8), usable - 2 * line):
                y += _text(surface, text, (line * 2, y), int(line * 0.8), theme.TEXT)
            y += line // 3


def _wrap(text: str, size: int, width: int) -> list[str]:
    """Lines of ``text`` (cut between words) that fit ``width`` at font ``size``."""
    font = fonts.font(size)
    lines, current = [], ""
    for word in text.split(" "):
        candidate = f"{current} {word}".strip()
        if current and font.size(candidate)[0] > width:
            lines.append(current)
            current = word
        else:
            current = candidate
    return [*lines, current] if current else lines


def draw_overlays(machine: Machine, surface: pygame.Surface) -> None:
    """Help, confirmations, typed input and the last message, over whatever is shown."""
    w, h = surface.get_size()
    line = max(12, h // 30)
    if machine.mode == "aide":
        box = pygame.Rect(w // 8, h // 10, 3 * w // 4, 8 * h // 10)
        pygame.draw.rect(surface, theme.PANEL, box)
        pygame.draw.rect(surface, theme.ACCENT, box, 3)
        y = box.y + line
        y += _text(surface, "Touches du juge-arbitre", (box.x + line, y), int(line * 1.2),
                   theme.ACCENT) + line // 2
        for key, what in HELP:
            _text(surface, key, (box.x + line, y), line, theme.ACCENT)
            _text(surface, what, (box.x + box.width // 3, y), line, theme.TEXT,
                  2 * box.width // 3 - line)
            y += int(line * 1.3)
        return
    prompt = _prompt(machine)
    if prompt:
        rows = min(len(prompt), 13)  # the tied tops come one a line
        box = pygame.Rect(w // 10, h // 2 - (rows + 1) * line // 2, 8 * w // 10,
                          (rows + 1) * line)
        pygame.draw.rect(surface, theme.PANEL, box)
        pygame.draw.rect(surface, theme.ACCENT, box, 3)
        for i, text in enumerate(prompt[:rows]):
            _text(surface, text, (box.x + line, box.y + line // 2 + i * line), int(line * 0.8),
                  theme.TEXT, box.width - 2 * line)
    if machine.message:
        bar = pygame.Rect(0, h - int(line * 1.4), w, int(line * 1.4))
        pygame.draw.rect(surface, theme.PANEL, bar)
        _text(surface, machine.message, (line // 2, bar.y + line // 5), int(line * 0.8),
              theme.ACCENT, w - line)


def _prompt(machine: Machine) -> list[str]:
    mode = machine.mode
    if mode == "quitter":
        return ["Quitter le kiosque ?", "O ou Entrée : quitter (la partie est enregistrée) · "
                "autre touche : continuer"]
    if mode == "ecarter":
        reading = machine.selected_reading()
        what = f" ({reading.photo.rsplit('/', 1)[-1]})" if reading and reading.photo else ""
        return [f"Écarter ce bulletin{what} de la liste ?",
                "O ou Entrée : écarter (il reste dans le journal) · autre touche : garder"]
    if mode == "annuler":
        return [f"Annuler la dernière étape : {machine.undo_what} ?",
                "O ou Entrée : annuler · autre touche : garder"]
    if mode == "manuel":
        reliquat = machine.manual_reliquat()
        wanted = min(7 - len(reliquat), machine.session.game.bag_count)
        head = "Tirage tapé à la main (? pour un joker)"
        if reliquat:
            head += (f" — reliquat {reliquat} : tapez les {wanted} nouvelles lettres "
                     "(ou tout le tirage)")
        return [head + " :", machine.buffer + "_", "Entrée : valider · Échap : abandonner"]
    if mode == "egalite":
        tops = machine.ties()
        lines = [f"Tops à égalité ({len(tops)}) : tapez le numéro · autre touche : garder "
                 "le top proposé"]
        lines += [f"{i + 1}.  {m.word}  {m.ref}  {m.score}" for i, m in enumerate(tops[:9])]
        if len(tops) > 9:
            lines.append(f"… et {len(tops) - 9} autres, non proposés ici")
        return lines
    if mode == "modif":
        return [f"Décision de l'arbitre pour la table {machine.selected_table()} :",
                machine.buffer + "_",
                "« 25 motif » (nouveau score) ou « zero motif », « avertissement motif »…"]
    if mode == "edition":
        field = EDITABLE[machine.edit_field]
        name = FIELD_NAMES[field]
        reading = machine.selected_reading()
        current = machine.field_value(reading, field) if reading is not None else None
        head = f"Modifier le champ « {name} » (Tab : champ suivant)"
        if current not in (None, ""):
            return [f"{head} — actuel : {current}", machine.buffer + "_",
                    "Entrée : enregistrer (vide : garder l'actuel) · Échap : abandonner"]
        return [head + " :", machine.buffer + "_", "Entrée : enregistrer · Échap : abandonner"]
    return []


def compose(machine: Machine, surface: pygame.Surface) -> str:
    """Draw the whole frame (room or arbiter screen, then overlays); returns which screen."""
    if machine.step == "correction" and machine.arbiter_screen:
        draw_arbiter(machine, surface)
        kind = "correction"
    else:
        view = room_view(machine)
        render(view, surface)
        kind = view.screen.value
    draw_overlays(machine, surface)
    return kind
