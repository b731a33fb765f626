"""What the screens show, computed from the machine: the room's View and the arbiter's rows.

The room screen's content is :class:`display.view.View` (the display package
draws it); the arbiter's correction screen and the help overlay are kiosk
screens (:mod:`kiosk.screens`) fed by :class:`ArbiterRow` here.
"""

from __future__ import annotations

from dataclasses import dataclass

from display.view import PAGE_SECONDS, Countdown, RankLine, Screen, Top, View

from .machine import EDITABLE, FIELD_NAMES, Machine, outcome_text
from .session import READER_HINTS, Reading, hint_text, neighbour_question

#: « Tirages aléatoires » on the welcome screen: label and value read as one phrase
_DRAW_MODES = {"aleatoire": "aléatoires", "manuel": "tapés à la main (sac réel)",
               "fichier": "repris d'une partie"}


def clock_text(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def ranking_lines(machine: Machine) -> tuple[RankLine, ...]:
    """The ranking as the room shows it, with each player's gap to the total of the tops."""
    results = machine.session.results
    if not results.players:
        return ()
    return tuple(RankLine(st.rank, st.player.name, st.total, st.percent, -st.difference)
                 for st in results.ranking())


def solo_lines(machine: Machine) -> tuple[str, ...]:
    """« Solo : table 7 (Hugo Chevalier), coup 5, 34 points » for each solo of the game."""
    results = machine.session.results
    lines = []
    for solo in results.solos():
        player = results.players.get(solo.table)
        name = f" ({player.name})" if player is not None and player.name else ""
        lines.append(f"Solo : table {solo.table}{name}, coup {solo.coup}, {solo.score} points")
    return tuple(lines)


def correction_done(machine: Machine) -> bool:
    """Every player of the coup has a result and no bulletin of it waits: the ranking may show."""
    s = machine.session
    coup = s.coup
    if s.step != "correction" or coup is None or coup.top is None or not s.results.players:
        return False
    if any(r.coup == coup.number for r in machine.pending()):
        return False
    return not s.missing_tables(coup.number)


def room_view(machine: Machine) -> View:
    """What the room sees: nothing of the console (dialogs, help, messages, the correction)."""
    s = machine.session
    game = s.game
    config = machine.config
    step = s.step
    past = tuple(Top.from_move(c.number, c.top) for c in game.coups if c.top)
    coup = s.coup
    page = int(machine.clock() // PAGE_SECONDS)
    common = dict(board=game.board.copy(), total=game.total_score, past_tops=past)
    bag = "".join(sorted(game.bag.elements()))
    if step == "accueil":
        return View(Screen.ACCUEIL, settings=(
            ("Temps par coup", clock_text(config.seconds)),
            ("Tirages", _DRAW_MODES.get(config.draw_mode, config.draw_mode)),
            ("Joueurs", str(len(s.results.players) or "—")),
            ("Liste de mots", s.lexicon.source.rsplit("/", 1)[-1]),
            ("Partie", f"graine {config.seed}"),
        ), **common)
    if step == "fin":
        ranking = ranking_lines(machine)
        number = len(game.played())
        return View(Screen.FIN, coup=number, bag_left=game.bag_count, ranking=ranking,
                    message=game.end_reason or "", solos=solo_lines(machine) if ranking else (),
                    page=page, **common)
    number = coup.number if coup else 0
    left = coup.bag_left if coup else game.bag_count
    if correction_done(machine):
        return View(Screen.CLASSEMENT, coup=number, ranking=ranking_lines(machine), page=page,
                    **common)
    if step in ("top", "correction") and coup is not None and coup.top is not None:
        return View(Screen.ANNONCE, coup=number, reliquat=coup.reliquat,
                    new_letters=coup.new_letters, bag_left=left, bag=bag,
                    last_top=Top.from_move(number, coup.top), **common)
    last = past[-1] if past else None
    if machine.flash_rejet is not None or (coup is not None and not coup.tirage):
        letters, reason = machine.flash_rejet or ("", "")
        message = f"{reason[:1].upper()}{reason[1:]}. Toutes les lettres retournent dans le sac."
        return View(Screen.REJET, coup=number, new_letters=letters, bag_left=left, last_top=last,
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
                bag_left=len(bag), bag=bag, last_top=last, **common)


@dataclass(frozen=True)
class FieldCell:
    name: str
    text: str
    confidence: float | None  # None: not read (typed by the arbiter, or a confirmed entry)
    low: bool
    why: str = ""  # a doubtful field: why the reader flagged it (« case douteuse »…)


@dataclass(frozen=True)
class ArbiterRow:
    """One line of the correction screen: a bulletin waiting, a result recorded, or a player
    without a result (``kind``: "lecture", "enregistre", "sans")."""

    label: str  # "à confirmer", the entry's source ("correction", "top"…), "sans résultat"
    fields: tuple[FieldCell, ...]
    decision: str  # outcome and score, proposed or recorded
    reasons: str
    selected: bool = False
    status: str = ""
    kind: str = "lecture"
    table: int | None = None
    name: str = ""  # the player's name, when the table is known
    #: what the arbiter should know besides the rules' reasons: the reader's doubts,
    #: « coup précédent ? » / « coup suivant ? », whether a zero's reason was told to the player
    notes: tuple[str, ...] = ()
    told: bool | None = None  # a recorded zero: motif indiqué au joueur (5.7)
    seq: int | None = None  # the reading's event, for a waiting bulletin
    previous: int | None = None  # « coup précédent/suivant ? »: the other coup the bulletin fits


def _field_text(name: str, value: object) -> str:
    return "—" if value in (None, "") else str(value)


def doubtful_fields(reading: Reading) -> list[str]:
    """The fields the arbiter must look at: flagged by the reader or read with low confidence."""
    out = [name for name in EDITABLE if Machine._doubtful(reading, name)]
    word = reading.fields.get("word") or {}
    if not word.get("arbitre") and ("jokers" in reading.flagged or "coup_illegal"
                                    in reading.flagged) and "word" not in out:
        out.append("word")
    if "raccord_douteux" in reading.hints:  # its cells outlined on the photo
        out.append("raccord")
    return out


def doubtful_boxes(reading: Reading, word_row: int = 1) -> list[tuple[str, bool]]:
    """The boxes to outline on the photo, as (box key, strong): each cell the reader used for
    a doubtful field, or the field's whole box when it read none; a circled joker strong."""
    boxes: list[tuple[str, bool]] = []
    for name in doubtful_fields(reading):
        cells = list(reading.cells.get(name) or [])
        if name == "word":
            value = str((reading.fields.get("word") or {}).get("value") or "")
            jokers = {i for i, ch in enumerate(value) if ch.islower()}
            if cells:
                boxes += [(key, i in jokers) for i, key in enumerate(cells)]
            else:
                boxes.append((f"row:{word_row}", False))
        elif cells:
            boxes += [(key, False) for key in cells]
        else:
            boxes.append((f"field:{name}", False))
    return boxes


_PROPOSALS: dict[tuple, tuple[str, str, tuple]] = {}


def _proposal(s, reading: Reading) -> tuple[str, str, tuple]:
    """Outcome text, reasons and the decision's candidates, for one waiting bulletin.

    Cached: the screen is redrawn at every key. A proposal depends only on the bulletin,
    its coup (board and tirage fixed once the coup is open) and, for rule 5.7, the words
    the player was not told about; the cache key holds exactly these.
    """
    bulletin = reading.bulletin_dict()
    table = bulletin.get("table")
    told = ()
    if table in s.results.players:
        told = tuple(sorted(s.results.invalid_words_not_told(table, before=reading.coup)))
    coup = s.game.coups[reading.coup - 1] if reading.coup <= len(s.game.coups) else None
    before = tuple(str(c.top) for c in s.game.coups[:reading.coup - 1])  # the board
    key = (s.lexicon.sha256, reading.coup, before, coup.tirage if coup else "",
           repr(sorted(bulletin.items(), key=str)), told)
    found = _PROPOSALS.get(key)
    if found is not None:
        return found
    try:
        decision = s.propose(reading.coup, bulletin)
        found = (f"{outcome_text(decision.outcome)} {decision.score}",
                 "; ".join(decision.reasons), decision.candidates)
    except Exception as exc:  # noqa: BLE001 - a reading the engine cannot take: show why
        found = ("?", str(exc), ())
    if len(_PROPOSALS) > 512:
        _PROPOSALS.clear()
    _PROPOSALS[key] = found
    return found


def propose_values(machine: Machine, reading: Reading | None, values: dict) -> str:
    """The decision the form's values would get, live, while the arbiter types."""
    s = machine.session
    coup = reading.coup if reading is not None else s.coup.number
    extra = reading.extra if reading is not None else {}
    bulletin = {k: v for k, v in extra.items() if k not in READER_HINTS}
    bulletin.update(values)
    bulletin["coup"] = coup
    try:
        decision = s.propose(coup, bulletin)
    except Exception as exc:  # noqa: BLE001 - said, not raised: the arbiter is typing
        return f"? ({exc})"
    return f"{outcome_text(decision.outcome)} {decision.score} — {'; '.join(decision.reasons)}"


def arbiter_rows(machine: Machine) -> list[ArbiterRow]:
    """Waiting bulletins first (what was read and how sure), then the coup's results, then
    the players without a result (table and name)."""
    s = machine.session
    coup = s.coup
    if coup is None:
        return []
    rows = []
    kind_selected, item_selected = machine.selected()
    players = s.results.players
    first_of: dict[tuple, int] = {}  # (coup, table) → the first waiting reading's seq
    for reading in machine.pending():
        first_of.setdefault((reading.coup, machine.field_value(reading, "table")), reading.seq)
    for reading in machine.pending():
        cells = []
        doubtful = doubtful_fields(reading)
        for name in EDITABLE:
            f = reading.fields.get(name) or {}
            conf = f.get("confidence")
            conf = None if f.get("arbitre") or conf is None else float(conf)
            low = name in doubtful
            cells.append(FieldCell(FIELD_NAMES[name], _field_text(name, f.get("value")), conf,
                                   low, f.get("pourquoi") or "" if low else ""))
        proposed, reasons, _ = _proposal(s, reading)
        status = reading.message or reading.status
        notes = [hint_text(h, reading.extra) for h in reading.hints]
        previous = int(reading.neighbour["coup"]) if reading.neighbour else None
        if previous is not None:
            notes.insert(0, f"{neighbour_question(reading.coup, previous)} il correspond à un "
                         f"coup du coup {previous} : Entrée pour décider")
        if reading.coup != coup.number:
            status = f"coup {reading.coup} : {status}"
            reasons = f"bulletin du coup {reading.coup}" + (f" ; {reasons}" if reasons else "")
        table = machine.field_value(reading, "table")
        if reading.sheet:
            notes.append(f"bulletin {reading.sheet[0]} sur {reading.sheet[1]} de la même photo")
        if isinstance(table, int) and first_of.get((reading.coup, table)) != reading.seq:
            notes.append(f"un autre bulletin de la table {table} attend : en double ?")
        player = players.get(table) if isinstance(table, int) else None
        rows.append(ArbiterRow("à confirmer", tuple(cells), proposed, reasons,
                               kind_selected == "lecture" and item_selected is reading, status,
                               "lecture", table if isinstance(table, int) else None,
                               player.name if player else "", tuple(notes), None, reading.seq,
                               previous))
    for table in machine.recorded_tables():
        entry = s.results.history(table, coup.number)[-1]
        b = entry.bulletin
        d = entry.decision
        values = {"table": table, "word": b.word if b else (d.placement.word
                                                            if d.placement else ""),
                  "ref": b.ref if b else d.ref,
                  "score": b.score if b else d.score}
        cells = tuple(FieldCell(FIELD_NAMES[n], _field_text(n, values[n]), None, False)
                      for n in EDITABLE)
        told = None
        notes = []
        if d.outcome.value == "zero":
            told = (table, coup.number) in s.results.told
            notes.append("motif indiqué au joueur" if told else
                         "motif NON indiqué au joueur (5.7)")
        score = s.results.coup_score(table, coup.number)
        decision = f"{outcome_text(d.outcome)} {d.score}"
        if s.results.replayed_invalid(table, coup.number):
            group = len(s.results.arbiter_group(table))
            decision = f"{outcome_text(d.outcome)} → {score}"
            notes.append(f"même mot non valable rejoué : moyenne de {group} joueur(s) "
                         "du même arbitre (5.7)")
        rows.append(ArbiterRow(entry.source, cells, decision, "; ".join(d.reasons),
                               kind_selected == "enregistre" and item_selected == table,
                               "", "enregistre", table, players[table].name, tuple(notes), told))
    for table in machine.missing_rows():
        cells = (FieldCell(FIELD_NAMES["table"], str(table), None, False),
                 *(FieldCell(FIELD_NAMES[n], "", None, False) for n in EDITABLE[1:]))
        rows.append(ArbiterRow("sans résultat", cells, "", "T : top · B : bulletin absent · "
                               "E : taper son bulletin",
                               kind_selected == "sans" and item_selected == table, "", "sans",
                               table, players[table].name))
    return rows
