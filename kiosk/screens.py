"""The kiosk's own screens on a pygame surface: the arbiter's correction screen, the help
overlay, prompts and the message line. The room screen itself is drawn by :mod:`display`."""

from __future__ import annotations

import pygame

from display import fonts, theme
from display.render import render

from .correction_screen import draw_arbiter, wrap
from .machine import HELP, Machine
from .views import room_view

__all__ = ["compose", "draw_arbiter", "draw_overlays"]
_wrap = wrap  # the correction screen's wrapping, for the prompts


def _text(surface: pygame.Surface, text: str, pos: tuple[int, int], size: int,
          colour=theme.TEXT, max_width: int | None = None) -> int:
    """Draw one line (shrunk to fit ``max_width``); returns its height."""
    if max_width:
        size = fonts.fit_size(text, max_width, size)
    image = fonts.font(size).render(text, True, colour)
    surface.blit(image, pos)
    return image.get_height()


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
        step = min(int(line * 1.3), (box.bottom - line // 2 - y) // len(HELP))
        size = min(line, int(step / 1.15))
        for key, what in HELP:
            _text(surface, key, (box.x + line, y), size, theme.ACCENT)
            _text(surface, what, (box.x + box.width // 3, y), size, theme.TEXT,
                  2 * box.width // 3 - line)
            y += step
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
    if mode == "rejet":
        coup = machine.session.coup
        letters = coup.tirage if coup is not None else ""
        return [f"Rejeter le tirage {letters} ? Il est valable.",
                "O ou Entrée : rejeter (toutes les lettres retournent au sac) · "
                "autre touche : le garder",
                "Après le rejet : Espace pour un nouveau tirage aléatoire, M pour le taper"]
    if mode == "precedent":
        reading = machine.selected_reading()
        if reading is None or not reading.precedent:
            return []
        before = reading.precedent
        values = {k: (v or {}).get("value") for k, v in (before.get("fields") or {}).items()}
        read = " ".join(str(values.get(k) or "—") for k in ("table", "word", "ref", "score"))
        return [f"Coup précédent ? Ce bulletin ne correspond à aucun coup du coup {reading.coup}, "
                f"mais à un coup du coup {before['coup']} : {read}",
                f"P : le classer au coup {before['coup']} · G : le garder au coup {reading.coup} "
                "· autre touche : décider plus tard"]
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
