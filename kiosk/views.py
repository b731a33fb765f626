"""What the screens show, computed from the machine: the room's View and the arbiter's rows.

The room screen's content is :class:`display.view.View` (the display package
draws it); the arbiter's correction screen and the help overlay are kiosk
screens (:mod:`kiosk.screens`) fed by :class:`ArbiterRow` here.
"""

from __future__ import annotations

from dataclasses import dataclass

from display.view import Countdown, RankLine, Screen, Top, View

from .machine import EDITABLE, FIELD_NAMES, Machine, outcome_text

#: a field read with less confidence than this is highlighted for the arbiter, as are the
#: fields the reader itself flags (the reader's own threshold is 0.9 too)
LOW_CONFIDENCE = 0.9

_DRAW_MODES = {"aleatoire": "aléatoire", "manuel": "manuel (sac réel)", "fichier": "d'une partie"}


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def room_view(machine: Machine) -> View:
    s = machine.session
    game = s.game
    config = machine.config
    step = s.step
    past = tuple(Top.from_move(c.number, c.top) for c in game.coups if c.top)
    coup = s.coup
    common = dict(board=game.board.copy(), total=game.total_score, past_tops=past)
    if step == "accueil":
        return View(Screen.ACCUEIL, settings=(
            ("Temps par coup", clock_text(config.seconds)),
            ("Tirages", _DRAW_MODES.get(config.draw_mode, config.draw_mode)),
            ("Joueurs", str(len(s.results.players) or "—")),
            ("Liste de mots", s.lexicon.source.rsplit("/", 1)[-1]),
            ("Partie", f"graine {config.seed}"),
        ), **common)
    if step == "fin":
        ranking = tuple(RankLine(st.rank, st.player.name, st.total, st.percent)
                        for st in s.results.ranking()) if s.results.players else ()
        number = len(game.played())
        return View(Screen.FIN, coup=number, bag_left=game.bag_count, ranking=ranking,
                    message=game.end_reason or "", **common)
    number = coup.number if coup else 0
    bag = coup.bag_left if coup else game.bag_count
    if step in ("top", "correction") and coup is not None and coup.top is not None:
        return View(Screen.ANNONCE, coup=number, reliquat=coup.reliquat,
                    new_letters=coup.new_letters, bag_left=bag,
                    last_top=Top.from_move(number, coup.top), **common)
    last = past[-1] if past else None
    if machine.flash_rejet is not None or (coup is not None and not coup.tirage):
        letters, reason = machine.flash_rejet or ("", "")
        message = f"{reason[:1].upper()}{reason[1:]}. Toutes les lettres retournent dans le sac."
        return View(Screen.REJET, coup=number, new_letters=letters, bag_left=bag, last_top=last,
                    message=message if reason else "Les lettres retournent dans le sac.",
                    **common)
    warning = float(config.warning)
    if step == "chrono" and machine.countdown is not None:
        now = machine.clock()
        countdown = Countdown(machine.countdown.remaining(now), warning, machine.countdown.paused)
    elif step == "ramassage":
        countdown = Countdown(0.0, warning)
    else:
        countdown = Countdown(float(config.seconds), warning)
    return View(Screen.COUP, coup=number, reliquat=coup.reliquat if coup else "",
                new_letters=coup.new_letters if coup else "", countdown=countdown,
                bag_left=bag, last_top=last, **common)


@dataclass(frozen=True)
class FieldCell:
    name: str
    text: str
    confidence: float | None  # None: not read (typed by the arbiter, or a confirmed entry)
    low: bool


@dataclass(frozen=True)
class ArbiterRow:
    """One line of the correction screen: a bulletin waiting, or a result recorded."""

    label: str  # "à confirmer" / "enregistré"
    fields: tuple[FieldCell, ...]
    decision: str  # outcome and score, proposed or recorded
    reasons: str
    selected: bool = False
    status: str = ""


def _field_text(name: str, value: object) -> str:
    return "—" if value in (None, "") else str(value)


def arbiter_rows(machine: Machine) -> list[ArbiterRow]:
    """Waiting bulletins first (with what was read and how sure), then the coup's results."""
    s = machine.session
    coup = s.coup
    if coup is None:
        return []
    rows = []
    selected = machine.selected_reading()
    for reading in machine.pending():
        cells = []
        for name in EDITABLE:
            f = reading.fields.get(name) or {}
            conf = f.get("confidence")
            conf = None if f.get("arbitre") or conf is None else float(conf)
            low = conf is not None and (conf < LOW_CONFIDENCE or name in reading.flagged)
            cells.append(FieldCell(FIELD_NAMES[name], _field_text(name, f.get("value")), conf,
                                   low))
        try:
            decision = s.propose(reading.coup, reading.bulletin_dict())
            proposed = f"{outcome_text(decision.outcome)} {decision.score}"
            reasons = "; ".join(decision.reasons)
        except Exception as exc:  # a reading the engine cannot take: show why, decide nothing
            proposed, reasons = "?", str(exc)
        status = reading.message or reading.status
        if reading.coup != coup.number:
            status = f"coup {reading.coup} : {status}"
            reasons = f"bulletin du coup {reading.coup}" + (f" ; {reasons}" if reasons else "")
        rows.append(ArbiterRow("à confirmer", tuple(cells), proposed, reasons,
                               selected is reading, status))
    chosen = machine.selected_table()
    for table in machine.recorded_tables():
        entry = s.results.history(table, coup.number)[-1]
        b = entry.bulletin
        values = {"table": table, "word": b.word if b else (entry.decision.placement.word
                                                            if entry.decision.placement else ""),
                  "ref": b.ref if b else entry.decision.ref,
                  "score": b.score if b else entry.decision.score}
        cells = tuple(FieldCell(FIELD_NAMES[n], _field_text(n, values[n]), None, False)
                      for n in EDITABLE)
        rows.append(ArbiterRow(entry.source, cells,
                               f"{outcome_text(entry.decision.outcome)} {entry.decision.score}",
                               "; ".join(entry.decision.reasons), table == chosen))
    return rows
