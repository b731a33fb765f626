"""The wording of the kiosk's questions (``_prompt``) and the console's frame (``compose``);
the correction screen is :mod:`kiosk.correction_screen`. All of it goes to the juge-arbitre's
console (:mod:`kiosk.console`); the room screen is drawn by :mod:`display` from the room
view alone."""

from __future__ import annotations

import pygame

from .correction_screen import draw_arbiter, wrap
from .machine import Machine
from .session import neighbour_question
from .stations.panel import panel_prompt

__all__ = ["compose", "draw_arbiter"]
_wrap = wrap  # the correction screen's wrapping, for the prompts


def _prompt(machine: Machine) -> list[str]:
    mode = machine.mode
    if mode == "postes":
        return panel_prompt(machine)
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
    if mode == "egalite":  # the console draws the chooser itself, with every tie
        tops = machine.ties()
        lines = [f"Tops à égalité ({len(tops)}) : ↑ ↓ ou le numéro, puis Entrée · Échap : "
                 "garder le top proposé"]
        lines += [f"{i + 1}.  {m.word}  {m.ref}  {m.score}" for i, m in enumerate(tops)]
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
    if mode == "voisin":
        reading = machine.selected_reading()
        if reading is None or not reading.neighbour:
            return []
        other = reading.neighbour
        values = {k: (v or {}).get("value") for k, v in (other.get("fields") or {}).items()}
        read = " ".join(str(values.get(k) or "—") for k in ("table", "word", "ref", "score"))
        question = neighbour_question(reading.coup, int(other["coup"]))
        key = "P" if int(other["coup"]) < reading.coup else "S"
        return [f"{question.capitalize()} Ce bulletin ne correspond à aucun coup du coup "
                f"{reading.coup}, mais à un coup du coup {other['coup']} : {read}",
                f"{key} : le classer au coup {other['coup']} · G : le garder au coup "
                f"{reading.coup} · autre touche : décider plus tard"]
    return []


def compose(machine: Machine, surface: pygame.Surface) -> str:
    """The console's frame (the juge-arbitre's window); returns what its body shows. The room
    window is drawn from :func:`kiosk.views.room_view` alone."""
    from .console import draw

    return draw(machine, surface)
