"""The coup, step by step, driven by the juge-arbitre's keys and a clock (no pygame here).

tirage → annonce → chrono → ramassage → top → correction → coup suivant.
The machine is fed key names (pygame's names: "space", "r", "escape"…) and
the time; it records every change through the session (journal first), and
leaves what must be said or done in ``effects`` for the runner. The room
view and the arbiter's screen are computed from it by :mod:`kiosk.views`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.tiles import RACK_SIZE
from speech import texts

from .chrono import Countdown
from .form import FORM_FIELDS, FORM_NAMES, Form, FormError
from .session import Reading, Session, SessionError, neighbour_question

#: What the help overlay (H) shows, key by key.
HELP = (
    ("Espace", "étape suivante"),
    ("R", "rejeter le tirage (confirmation s'il est valable)"),
    ("M", "taper un tirage à la main"),
    ("P", "pause / reprise du chrono"),
    ("T", "tops à égalité : ↑ ↓ ou le numéro, puis Entrée"),
    ("A", "répéter la dernière annonce"),
    ("U", "annuler la dernière étape (confirmation)"),
    ("F", "écran de salle : plein écran / fenêtre"),
    ("Tab", "correction : console de correction / vue du coup"),
    ("↑ ↓  Entrée", "correction : choisir un bulletin, le confirmer"),
    ("E", "correction : modifier le bulletin (Tab : champ suivant) ou décider d'un résultat"),
    ("N", "correction : taper un bulletin (sans photo)"),
    ("B  /  T", "correction, joueur sans résultat : bulletin absent (zéro) / top"),
    ("O", "correction : top à tous les joueurs restants"),
    ("I", "correction, un zéro : motif indiqué au joueur, oui / non (5.7)"),
    ("Z  /  V", "correction : agrandir la photo / photo brute"),
    ("Suppr", "correction : écarter un bulletin lu (photo en double…)"),
    ("Q", "postes d'arbitrage : code QR, code, postes (Suppr : retirer un poste)"),
    ("H", "afficher / masquer cette aide"),
    ("Échap", "quitter (confirmation ; rien n'est perdu)"),
)

#: the four fields of a bulletin shown in the correction list (the form adds the raccord)
EDITABLE = ("table", "word", "ref", "score")
#: Page ↑ / Page ↓ in the tied-tops chooser move by this many lines
TIE_PAGE = 10
#: how often the running chrono's second is journaled (what a power cut can cost)
CHECKPOINT_SECONDS = 10.0
#: the engine's outcomes as the arbiter reads them
OUTCOME_WORDS = {"ok": "OK", "avertissement": "avertissement", "penalite": "pénalité",
                 "zero": "zéro"}


def outcome_text(outcome) -> str:
    value = getattr(outcome, "value", outcome)
    return OUTCOME_WORDS.get(value, str(value))
FIELD_NAMES = dict(FORM_NAMES)
#: a field read with less confidence than this is doubtful: highlighted, outlined on the photo,
#: and where E opens the form (the reader's own threshold is 0.9 too)
LOW_CONFIDENCE = 0.9
#: the cursor jumps this many rows with Page up / Page down
PAGE_ROWS = 10


@dataclass(frozen=True)
class Effect:
    """Something for the runner: ``dire`` (announcement), ``appel`` (timing call, its text),
    ``plein_ecran``, ``quitter``."""

    kind: str
    text: str = ""


class Machine:
    def __init__(self, session: Session, clock: Callable[[], float]) -> None:
        self.session = session
        self.clock = clock
        self.effects: list[Effect] = []
        # aide, quitter, annuler, manuel, egalite, edition, modif, ecarter, rejet, voisin, postes
        self.mode: str | None = None
        self.buffer = ""
        self.message = ""
        self.last_announcement: str | None = None
        self.flash_rejet: tuple[str, str] | None = None  # rejected letters and why
        self.cursor = 0
        self.form: Form | None = None  # the bulletin form (mode "edition")
        self.zoom = False  # correction: the photo enlarged (Z)
        self.raw_photo = False  # correction: the photo as taken instead of straightened (V)
        self.arbiter_screen = True  # in correction: the arbiter's screen, Tab for the room
        self.countdown: Countdown | None = None
        self.undo_what: str | None = None  # what U is about to cancel, for its confirmation
        self.tie_cursor = 0  # the tied top under the cursor in the chooser (T)
        self._leave_warned = False  # Space pressed once in correction with work left
        self.stations_cursor = 0  # the stations panel (Q): the line chosen
        self.stations_revoking: str | None = None  # the station whose removal awaits O
        self.restore()

    # -- state from the journal ---------------------------------------------------------------
    @property
    def config(self):
        return self.session.config

    @property
    def step(self) -> str:
        return self.session.step

    def restore(self) -> None:
        """Rebuild what is not in the journal (the running countdown) after a start or an undo."""
        s = self.session
        self.countdown = None
        if s.step == "chrono":
            c = s.chrono
            resumed = "chrono" in c.calls and c.elapsed < self.config.seconds
            self.countdown = Countdown(self.config.seconds, self.config.warning, c.elapsed,
                                       paused=c.paused or resumed, calls=set(c.calls))
            self.countdown.start(self.clock())
            if resumed:
                left = int(round(self.countdown.remaining(self.clock())))
                self.message = (f"chrono en pause à {left // 60}:{left % 60:02d} à la reprise de "
                                "la partie : P pour repartir")

    def _call(self, name: str) -> None:
        """A timing call, worded with this game's warning delay (30 s, 20 s in blitz…)."""
        self.effects.append(Effect("appel", texts.call(name, int(self.config.warning))))

    def _say(self, text: str) -> None:
        self.last_announcement = text
        self.effects.append(Effect("dire", text))

    def _record(self, kind: str, data: dict | None = None) -> dict | None:
        try:
            return self.session.record(kind, data)
        except SessionError as exc:
            self.message = str(exc)
            return None

    def poll_store(self) -> str | None:
        """What the journal has to tell the juge-arbitre (a database out of reach, then back):
        shown as the message; returned for a terminal."""
        notice = self.session.journal.notice()
        if notice:
            self.message = notice
        return notice

    def take_effects(self) -> list[Effect]:
        out, self.effects = self.effects, []
        return out

    # -- time ---------------------------------------------------------------------------------
    def tick(self) -> None:
        """Make the calls that fell due; after "Terminé" the bulletins are collected."""
        if self.step != "chrono" or self.countdown is None:
            return
        now = self.clock()
        for name in self.countdown.due(now):
            elapsed = round(self.countdown.elapsed(now), 3)
            if self._record("appel", {"name": name, "elapsed": elapsed}) is None:
                return
            self.countdown.calls.add(name)
            self._call(name)
        # the second reached, every CHECKPOINT_SECONDS: a crash resumes the chrono near it
        if not self.countdown.paused and "terminé" not in self.countdown.calls:
            elapsed = self.countdown.elapsed(now)
            if elapsed - self.session.chrono.elapsed >= CHECKPOINT_SECONDS:
                self._record("chrono", {"action": "temps", "elapsed": round(elapsed, 3)})
        # also when "Terminé" was journaled just before a crash, and the step not yet changed
        if "terminé" in self.countdown.calls:
            if self._record("etape", {"step": "ramassage"}) is not None:
                self.countdown = None

    # -- keys ---------------------------------------------------------------------------------
    def key(self, name: str, text: str = "") -> None:
        """One key press; ``text`` is the character typed (manual tirage, edits)."""
        name = name.lower()
        handler = {
            "aide": self._key_help, "quitter": self._key_quit, "annuler": self._key_undo,
            "manuel": self._key_manual, "egalite": self._key_tie, "edition": self._key_edit,
            "modif": self._key_amend, "ecarter": self._key_discard,
            "rejet": self._key_reject, "voisin": self._key_neighbour,
            "postes": self._key_stations,
        }.get(self.mode or "")
        if handler is not None:
            handler(name, text)
            return
        self.message = ""
        if name not in ("space", "m"):
            self._leave_warned = False
        if name == "space":
            self.advance()
        elif name == "h":
            self.mode = "aide"
        elif name == "escape":
            self.mode = "quitter"
        elif name == "f":
            self.effects.append(Effect("plein_ecran"))
        elif name == "a":
            if self.last_announcement:
                self.effects.append(Effect("dire", self.last_announcement))
            else:
                self.message = "aucune annonce à répéter"
        elif name == "u":
            self.undo_what = self.session.undo_preview()
            if self.undo_what is None:
                self.message = "rien à annuler"
            else:
                self.mode = "annuler"
        elif name == "p":
            self.toggle_pause()
        elif name == "r":
            self.reject()
        elif name == "m":
            if self.step == "correction" and not self._may_leave_correction():
                return
            self.start_manual()
        elif name == "t" and self.step != "correction":
            self.show_ties()
        elif name == "q":
            self.mode, self.stations_cursor = "postes", 0
        elif self.step == "correction":
            self._key_correction(name)

    def _key_discard(self, name: str, text: str) -> None:
        self.mode = None
        reading = self.selected_reading()
        if name not in ("o", "return") or reading is None:
            self.message = "bulletin gardé"
            return
        if self._record("ecarte", {"lecture": reading.seq, "coup": reading.coup}) is not None:
            self.message = "bulletin écarté (il reste dans le journal de la partie)"

    def _key_help(self, name: str, text: str) -> None:
        self.mode = None

    def _key_stations(self, name: str, text: str) -> None:
        from .stations.panel import panel_key  # the network stations' panel (key Q)

        panel_key(self, name)

    def _key_quit(self, name: str, text: str) -> None:
        self.mode = None
        if name in ("o", "return"):
            self.stop_chrono()
            self.effects.append(Effect("quitter"))

    def stop_chrono(self) -> None:
        """Leaving the kiosk with the countdown running: its time is journaled as a pause, so
        that ``kiosk reprendre`` starts from the second it showed, not from the last call."""
        if self.step == "chrono" and self.countdown is not None and not self.countdown.paused:
            now = self.clock()
            if self._record("chrono", {"action": "pause",
                                       "elapsed": round(self.countdown.elapsed(now), 3)}):
                self.countdown.pause(now)

    def _key_undo(self, name: str, text: str) -> None:
        self.mode = None
        if name not in ("o", "return"):
            self.message = "annulation abandonnée"
            return
        try:
            what = self.session.undo()
        except SessionError as exc:
            self.message = str(exc)
            return
        self.flash_rejet = None
        self.restore()
        self.message = f"annulé : {what}"

    def _key_manual(self, name: str, text: str) -> None:
        if name == "escape":
            self.mode, self.buffer = None, ""
        elif name == "backspace":
            self.buffer = self.buffer[:-1]
        elif name in ("return", "enter"):
            letters, self.mode, self.buffer = self.buffer, None, ""
            self.manual_tirage(letters)
        elif text and (text.isalpha() or text in "?*"):
            if len(self.buffer) >= 7:
                self.message = "7 lettres au plus : Retour arrière pour corriger"
                return
            self.message = ""
            self.buffer += text.upper()

    def _key_tie(self, name: str, text: str) -> None:
        """Every tie selectable: ↑ ↓ (Page ↑ ↓) move, a number typed, Entrée chooses; Échap or
        another key keeps the top proposed."""
        count = len(self.ties())
        if name in ("down", "up", "page down", "page up", "home", "end"):
            step = {"down": 1, "up": -1, "page down": TIE_PAGE, "page up": -TIE_PAGE,
                    "home": -count, "end": count}[name]
            self.tie_cursor = max(0, min(count - 1, self.tie_cursor + step))
            self.buffer = ""
        elif text.isdigit():
            self.buffer = (self.buffer + text)[-4:]
            if self.buffer.isdigit() and 1 <= int(self.buffer) <= count:
                self.tie_cursor = int(self.buffer) - 1
        elif name == "backspace":
            self.buffer = self.buffer[:-1]
        elif name in ("return", "enter"):
            typed, self.mode, self.buffer = self.buffer, None, ""
            self.choose_top(int(typed) - 1 if typed.isdigit() else self.tie_cursor)
        else:
            self.mode, self.buffer = None, ""
            self.message = "choix du top inchangé"

    def _key_edit(self, name: str, text: str) -> None:
        """The bulletin form: Tab / Shift-Tab between fields, Enter saves all, Échap drops."""
        form = self.form
        if form is None:
            self.mode = None
            return
        if name == "escape":
            self.mode, self.form = None, None
            self.message = "modification abandonnée : rien n'est enregistré"
        elif name in ("shift+tab", "backtab", "up"):
            form.move(-1)
        elif name in ("tab", "down"):
            form.move(1)
        elif name == "backspace":
            form.backspace()
        elif name in ("return", "enter"):
            self.save_form()
        elif text and text.isprintable() and text != " ":
            self.message = form.type(text)

    def save_form(self) -> None:
        """Enter in the form: every field in one journal event; the form stays open on a
        value that cannot be saved (the cursor on it), nothing typed is lost."""
        form = self.form
        try:
            changed = form.changed()
            values = form.all_values()
        except FormError as exc:
            form.index, form.fresh = FORM_FIELDS.index(exc.field), False
            self.message = str(exc)
            return
        if form.reading is None:  # N: a new bulletin typed at the kiosk, one "lecture" event
            coup = self.session.coup
            extra = {"raccord": values.pop("raccord")} if values.get("raccord") else {}
            fields = {name: {"value": values[name], "confidence": None} for name in EDITABLE}
            data = {"coup": coup.number, "photo": None, "status": "saisie",
                    "message": "saisi au clavier", "fields": fields}
            if extra:
                data["extra"] = extra
            seq = self.add_reading(data)
            if seq is None:
                return
            self.mode, self.form = None, None
            self.cursor = self._row_index(("lecture", seq))
            self.message = "bulletin saisi : " + self._proposal_text(seq)
            return
        if not changed:
            self.mode, self.form = None, None
            self.message = "rien de modifié"
            return
        if self._record("edition", {"lecture": form.reading, "fields": changed}) is None:
            return
        self.mode, self.form = None, None
        names = ", ".join(FIELD_NAMES[n] for n in FORM_FIELDS if n in changed)
        self.message = f"enregistré ({names}) : " + self._proposal_text(form.reading)

    def _proposal_text(self, seq: int) -> str:
        reading = self.session.pending.get(seq)
        if reading is None:
            return ""
        try:
            decision = self.session.propose(reading.coup, reading.bulletin_dict())
        except Exception:  # noqa: BLE001 - said on the screen by the row itself
            return "Entrée pour confirmer"
        return (f"{outcome_text(decision.outcome)} {decision.score} proposé — Entrée pour "
                "confirmer")

    def open_form(self, reading: Reading | None, start: int = 0) -> None:
        current: dict[str, object] = {}
        if reading is not None:
            current = {name: self.field_value(reading, name) for name in EDITABLE}
            current["raccord"] = reading.extra.get("raccord")
        self.form = Form.open(reading.seq if reading is not None else None, current, start)
        self.mode = "edition"

    @property
    def edit_field(self) -> tuple:
        """What the open form shows (the runner redraws when it changes)."""
        return self.screen_state()

    def screen_state(self) -> tuple:
        """Everything the correction screen shows besides the journal: form, zoom, photo."""
        form = self.form
        typed = (form.index, tuple(form.values.values())) if form is not None else None
        return (typed, self.zoom, self.raw_photo, self.cursor)

    @staticmethod
    def _doubtful(reading: Reading, name: str) -> bool:
        """A field the reader flagged or read with low confidence (not one the arbiter typed)."""
        f = reading.fields.get(name) or {}
        if f.get("arbitre"):
            return False
        conf = f.get("confidence")
        return name in reading.flagged or (conf is not None and float(conf) < LOW_CONFIDENCE)

    @staticmethod
    def field_value(reading: Reading, field: str) -> object:
        return (reading.fields.get(field) or {}).get("value")

    def _key_amend(self, name: str, text: str) -> None:
        """Typed as ``SCORE motif`` or ``zero|avertissement|penalite|ok motif``."""
        if name == "escape":
            self.mode, self.buffer = None, ""
        elif name == "backspace":
            self.buffer = self.buffer[:-1]
        elif name in ("return", "enter"):
            typed, self.mode, self.buffer = self.buffer.strip(), None, ""
            table = self.selected_table()
            if table is not None:
                self.amend(table, typed)
        elif text and text.isprintable():
            self.buffer += text

    def _key_correction(self, name: str) -> None:
        rows = self.rows()
        last = max(0, len(rows) - 1)
        moves = {"down": 1, "j": 1, "up": -1, "k": -1, "page down": PAGE_ROWS,
                 "page up": -PAGE_ROWS}
        if name in moves or name in ("home", "end"):
            before = self.cursor
            if name == "home":
                self.cursor = 0
            elif name == "end":
                self.cursor = last
            else:
                self.cursor = max(0, min(last, self.cursor + moves[name]))
            if self.cursor != before:
                self.raw_photo = False  # another bulletin: its straightened photo first
            return
        kind, item = rows[self.cursor] if rows else (None, None)
        if name in ("return", "enter"):
            if kind == "lecture" and item.neighbour:
                self.mode = "voisin"  # the arbiter says which coup, first
            elif kind == "lecture":
                self.confirm(item.seq)
            elif kind == "sans":
                self.message = (f"table {item} sans résultat : T pour le top, B pour bulletin "
                                "absent (zéro), E pour taper son bulletin")
            else:
                self.message = "aucun bulletin à confirmer"
        elif name == "e":
            if kind == "lecture":  # on the first field to check: the misread one, usually
                doubtful = [n for n in EDITABLE if self._doubtful(item, n)]
                self.open_form(item, FORM_FIELDS.index(doubtful[0]) if doubtful else 0)
            elif kind == "enregistre":
                self.mode, self.buffer = "modif", ""
            elif kind == "sans":
                self.typed_bulletin(table=item)
            else:
                self.message = "aucun bulletin à modifier"
        elif name == "o":
            self.top_to_all()
        elif name == "n":
            self.typed_bulletin()
        elif name == "b":
            if kind == "sans":
                self.absent(item)
            else:
                self.message = "B : bulletin absent, pour un joueur sans résultat (bas de liste)"
        elif name == "t":
            if kind == "sans":
                self.top_to(item)
            else:
                self.message = "T : le top, pour un joueur sans résultat (bas de liste)"
        elif name == "i":
            if kind == "enregistre":
                self.toggle_told(item)
            else:
                self.message = "I : pour un zéro enregistré (motif indiqué au joueur)"
        elif name == "z":
            self.zoom = not self.zoom
        elif name == "v":
            self.raw_photo = not self.raw_photo
        elif name in ("delete", "backspace"):
            if kind == "lecture":
                self.mode = "ecarter"
            else:
                self.message = "aucun bulletin à écarter"
        elif name == "tab":
            self.arbiter_screen = not self.arbiter_screen

    def _key_neighbour(self, name: str, text: str) -> None:
        """« coup précédent ? » / « coup suivant ? »: P (précédent) or S (suivant) files the
        reading under the coup it fits, G keeps it where it was filed."""
        self.mode = None
        reading = self.selected_reading()
        if reading is None or not reading.neighbour:
            return
        other = int(reading.neighbour["coup"])
        if name == ("p" if other < reading.coup else "s"):
            if self._record("classement", {"lecture": reading.seq, "coup": other}):
                self.message = (f"bulletin classé au coup {other} : "
                                + self._proposal_text(reading.seq))
        elif name == "g":
            if self._record("classement", {"lecture": reading.seq, "coup": reading.coup}):
                self.message = (f"bulletin gardé au coup {reading.coup} : "
                                + self._proposal_text(reading.seq))
        else:
            self.message = (f"bulletin laissé en attente "
                            f"({neighbour_question(reading.coup, other)})")

    # -- the steps ------------------------------------------------------------------------------
    def advance(self) -> None:
        """Space: the next step of the coup."""
        s = self.session
        step = s.step
        coup = s.coup
        if step == "accueil":
            self.next_tirage()
        elif step == "tirage":
            if self.flash_rejet is not None and coup is not None and coup.tirage:
                self.flash_rejet = None
            elif coup is None or not coup.tirage or coup.top is not None:
                self.next_tirage()
            else:
                self.announce_tirage()
        elif step == "annonce":
            if self._record("etape", {"step": "chrono"}) is not None:
                self.countdown = Countdown(self.config.seconds, self.config.warning)
                self.countdown.start(self.clock())
                self.tick()
        elif step == "chrono":
            self.message = "le chrono tourne (P : pause) ; « Terminé » passe au ramassage"
        elif step == "ramassage":
            self.play_top()
        elif step == "top":
            self._record("etape", {"step": "correction"})
            self.cursor = 0
        elif step == "correction":
            if not self._may_leave_correction():
                return
            limit = self.config.max_coups
            if s.game.finished or (limit and coup and coup.number >= limit):
                self.finish()
            else:
                self.next_tirage()

    def _may_leave_correction(self) -> bool:
        """Space with bulletins still waiting or players without a result: say so once; a
        second Space goes on (nothing is lost: the readings stay listed for later)."""
        coup = self.session.coup
        waiting = len(self.pending())
        missing = len(self.session.missing_tables(coup.number)) if coup else 0
        if self._leave_warned or not (waiting or missing):
            self._leave_warned = False
            return True
        parts = []
        if waiting:
            parts.append(f"{waiting} bulletin(s) à confirmer (Entrée)")
        if missing:
            parts.append(f"{missing} joueur(s) sans résultat (O : top à tous les restants)")
        self.message = " · ".join(parts) + " — Espace encore pour passer au coup suivant"
        self._leave_warned = True
        return False

    def next_tirage(self) -> None:
        s = self.session
        mode = self.config.draw_mode
        if mode == "manuel":
            self.start_manual()
            return
        if mode == "fichier":
            number = len(s.game.played()) + 1
            source = (self.config.source or {}).get("coups") or []
            if number > len(source):
                self.message = f"la partie d'origine n'a pas de coup {number} : tapez le tirage (M)"
                self.start_manual()
                return
            raw = source[number - 1]
            for rejection in raw.get("rejections") or []:  # rejected as in the original game
                if not self._replay_rejection(str(rejection["tirage"]),
                                              str(rejection.get("reason") or "rejeté")):
                    return
            self.manual_tirage(str(raw.get("reliquat", "")) + str(raw.get("new_letters", "")),
                               mode="fichier")
            if raw.get("rejections") and self.flash_rejet is None:
                self.flash_rejet = (raw["rejections"][-1]["tirage"], "tirage rejeté")
            return
        coup = s.coup
        # the rejections already made on this coup (the juge-arbitre's R) are not new
        known = len(coup.rejections) if coup is not None and coup.top is None else 0
        data = self._record("tirage", {"mode": "aleatoire"})
        if data is None:
            return
        self.flash_rejet = None
        if data.get("fin"):
            self.finish()
            return
        if data.get("rejections", [])[known:]:
            letters, reason = data["rejections"][-1]
            self.flash_rejet = (letters, reason)
            self._say(texts.rejected(reason))

    def _replay_rejection(self, tirage: str, reason: str) -> bool:
        """A pre-drawn game's rejected tirage, drawn then rejected again (the bag must agree)."""
        game = self.session.game
        open_coup = game.current is not None and bool(game.current.new_letters)
        reliquat = game.current.reliquat if game.current else game.reliquat
        if tirage == reliquat and not open_coup:
            return self._record("rejet", {"reliquat_seul": True, "reason": reason}) is not None
        if self._record("tirage", {"mode": "fichier", "letters": tirage}) is None:
            return False
        return self._record("rejet", {"reason": reason}) is not None

    def source_top(self) -> dict:
        """The top a pre-drawn game imposes on the current coup ({} when it imposes none)."""
        if self.config.draw_mode != "fichier" or self.session.coup is None:
            return {}
        coups = (self.config.source or {}).get("coups") or []
        number = self.session.coup.number
        top = coups[number - 1].get("top") if number <= len(coups) else None
        return {"coup": number, "word": top["word"], "ref": top["ref"],
                "score": top["score"]} if top else {}

    def announce_tirage(self) -> None:
        coup = self.session.coup
        if self._record("etape", {"step": "annonce"}) is None:
            return
        form = texts.LetterForm.PAYS if self.config.blitz else texts.LetterForm.PAYS_LETTRE
        if coup.new_letters:
            letters = texts.draw(coup.new_letters, coup.tirage, form)
        else:  # the bag is empty: the reliquat alone is the tirage
            letters = f"Plus de lettres dans le sac. {texts.capitalize(texts.tirage(coup.tirage))}."
        self._say(f"{texts.coup(coup.number)}. {letters}")

    def start_manual(self) -> None:
        coup = self.session.coup
        if self.step not in ("accueil", "tirage", "correction") or (
                self.step == "tirage" and coup is not None and coup.tirage and coup.top is None):
            self.message = "tirage manuel : d'abord rejeter le tirage en cours (R)" \
                if self.step == "tirage" else "tirage manuel possible avant l'annonce seulement"
            return
        if self.step == "correction" and not self._may_open_next():
            return
        self.mode, self.buffer = "manuel", ""

    def manual_reliquat(self) -> str:
        """The letters the typed tirage starts from: the reliquat of the coup being drawn."""
        coup = self.session.coup
        if coup is not None and coup.top is None:
            return coup.reliquat
        return self.session.game.reliquat

    def _may_open_next(self) -> bool:
        limit = self.config.max_coups
        coup = self.session.coup
        if self.session.game.finished or (limit and coup and coup.number >= limit):
            self.message = "la partie est terminée"
            return False
        return True

    def manual_tirage(self, letters: str, mode: str = "manuel") -> None:
        data = self._record("tirage", {"mode": mode, "letters": letters})
        if data is None:
            return
        self.flash_rejet = None
        if not data.get("valid", True):
            self.message = (f"{data.get('reason')} : R pour le rejeter, "
                            "Espace pour l'annoncer quand même")

    def reject(self, reason: str = "rejeté par le juge-arbitre", confirmed: bool = False) -> None:
        """R: the letters go back to the bag. A valid tirage is rejected only once confirmed;
        then the juge-arbitre chooses: Space for a new random tirage, or M to type one."""
        coup = self.session.coup
        if self.step not in ("tirage", "annonce") or coup is None or not coup.tirage \
                or coup.top is not None:
            self.message = "aucun tirage à rejeter (R avant le chrono seulement)"
            return
        if not confirmed and self.session.game.check(coup).valid:
            self.mode = "rejet"
            return
        letters = coup.tirage
        if self._record("rejet", {"reason": reason}) is None:
            return
        self.flash_rejet = (letters, reason)
        self._say(texts.rejected(reason))
        if self.config.draw_mode == "aleatoire":
            self.message = ("tirage rejeté : Espace pour un nouveau tirage aléatoire, "
                            "M pour taper le tirage")
        else:
            self.mode, self.buffer = "manuel", ""

    def _key_reject(self, name: str, text: str) -> None:
        self.mode = None
        if name in ("o", "return", "enter"):
            self.reject(confirmed=True)
        else:
            self.message = "tirage gardé"

    def toggle_pause(self) -> None:
        if self.step != "chrono" or self.countdown is None:
            self.message = "pas de chrono en cours"
            return
        now = self.clock()
        action = "reprise" if self.countdown.paused else "pause"
        if self._record("chrono", {"action": action,
                                   "elapsed": round(self.countdown.elapsed(now), 3)}) is None:
            return
        if action == "pause":
            self.countdown.pause(now)
        else:
            self.countdown.resume(now)
        self._call(action)

    def ties(self) -> list:
        coup = self.session.coup
        if coup is None or not coup.tirage:
            return []
        return self.session.moves(coup.number)[1]

    def show_ties(self) -> None:
        if self.step != "ramassage":
            self.message = "choix du top : après le ramassage, avant l'annonce du top"
            return
        tops = self.ties()
        if len(tops) < 2:
            self.message = "un seul top pour ce coup"
            return
        self.mode, self.buffer = "egalite", ""
        self.tie_cursor = min(self.session.top_choice, len(tops) - 1)

    def choose_top(self, index: int) -> None:
        tops = self.ties()
        if not 0 <= index < len(tops):
            self.message = f"choix non valable : 1 à {len(tops)}"
            return
        if self._record("choix_top", {"index": index}) is not None:
            self.message = f"top choisi : {tops[index]}"

    def play_top(self) -> None:
        data = self._record("top", self.source_top())
        if data is None:
            if not self.ties():
                self._record("fin", {"reason": "aucun coup possible"})
                self.finish(already=True)
            return
        coup = self.session.coup
        played = coup.top if coup is not None else None
        self._say(texts.top(word=data["word"], ref=data["ref"], score=int(data["score"]),
                            scrabble=played is not None and len(played.placed) == RACK_SIZE))

    def finish(self, already: bool = False) -> None:
        game = self.session.game
        if not already and self.step != "fin":
            reason = game.end_reason or "fin de la partie décidée par le juge-arbitre"
            if self._record("fin", {"reason": reason}) is None:
                return
        solos = self.session.results.solos() if self.session.results.players else []
        text = texts.end_of_game(game.total_score)
        if self.session.results.players:
            text += " " + texts.solos((s.table, s.coup) for s in solos)
        self._say(text)

    # -- correction ----------------------------------------------------------------------------
    def pending(self) -> list[Reading]:
        """Bulletins waiting for confirmation, in reading order: the current coup's, and those
        of an earlier coup read late (a station's photos arriving after the next tirage)."""
        coup = self.session.coup
        number = coup.number if coup else 0
        return [r for r in self.session.pending.values() if r.coup <= number]

    def recorded_tables(self) -> list[int]:
        """Tables whose result for the current coup is recorded, listed after the waiting ones."""
        coup = self.session.coup
        if coup is None:
            return []
        return [t for t in sorted(self.session.results.players)
                if self.session.results.history(t, coup.number)]

    def missing_rows(self) -> list[int]:
        """Players with no result for the current coup and no bulletin waiting: at the bottom."""
        coup = self.session.coup
        if coup is None or coup.top is None:
            return []
        waiting = {self.field_value(r, "table") for r in self.pending() if r.coup == coup.number}
        return [t for t in self.session.missing_tables(coup.number) if t not in waiting]

    def rows(self) -> list[tuple[str, object]]:
        """The correction list: ("lecture", Reading), ("enregistre", table), ("sans", table)."""
        rows: list[tuple[str, object]] = [("lecture", r) for r in self.pending()]
        rows += [("enregistre", t) for t in self.recorded_tables()]
        rows += [("sans", t) for t in self.missing_rows()]
        self.cursor = max(0, min(self.cursor, len(rows) - 1))
        return rows

    def _row_index(self, key: tuple[str, object]) -> int:
        for i, (kind, item) in enumerate(self.rows()):
            if kind == key[0] and (item.seq if kind == "lecture" else item) == key[1]:
                return i
        return self.cursor

    def next_work(self, after: int = 0) -> None:
        """The cursor to what is left to do: the next waiting bulletin (from row ``after``),
        else the first one, else the first player without a result."""
        rows = self.rows()
        kinds = [kind for kind, _ in rows]
        for start, kind in ((after, "lecture"), (0, "lecture"), (0, "sans")):
            if kind in kinds[start:]:
                self.cursor = kinds.index(kind, start)
                return

    def selected(self) -> tuple[str, object] | tuple[None, None]:
        rows = self.rows()
        return rows[self.cursor] if rows else (None, None)

    def selected_reading(self) -> Reading | None:
        kind, item = self.selected()
        return item if kind == "lecture" else None

    def selected_table(self) -> int | None:
        """The recorded result under the cursor (a table), if the cursor is on one."""
        kind, item = self.selected()
        return item if kind == "enregistre" else None

    def selected_missing(self) -> int | None:
        kind, item = self.selected()
        return item if kind == "sans" else None

    def amend(self, table: int, typed: str) -> None:
        """An arbiter's decision on a recorded result: new score or outcome, with a reason."""
        head, _, reason = typed.partition(" ")
        outcomes = {"zero": "zero", "zéro": "zero", "avertissement": "avertissement",
                    "penalite": "penalite", "pénalité": "penalite", "ok": "ok"}
        data: dict = {"coup": self.session.coup.number, "table": table,
                      "reason": reason.strip()}
        if head.isdigit():
            data["score"] = int(head)
        elif head.lower() in outcomes:
            data["outcome"] = outcomes[head.lower()]
        else:
            self.message = "tapez un score ou zero/avertissement/penalite/ok, puis le motif"
            return
        if not data["reason"]:
            self.message = "une décision de l'arbitre doit être motivée"
            return
        if self._record("modif", data) is not None:
            decision = self.session.results.decision(table, data["coup"])
            self.message = f"table {table} : {outcome_text(decision.outcome)}, {decision.score} points"

    def add_reading(self, reading: dict) -> int | None:
        """A bulletin read (photo or keyboard) for the current coup: journaled, then listed."""
        data = self._record("lecture", reading)
        return self.session.applied if data is not None else None

    def typed_bulletin(self, table: int | None = None) -> None:
        """N: a bulletin typed at the kiosk (no photo): the form, written once on Enter."""
        coup = self.session.coup
        if coup is None or coup.top is None:
            self.message = "pas encore de top pour ce coup"
            return
        self.open_form(None)
        if table is not None:  # E on a player without a result: his table is already there
            self.form.values["table"] = str(table)
            self.form.index = 1

    def edit(self, reading_seq: int, field: str, value: str) -> None:
        """One field typed for a reading (the form writes all its fields at once)."""
        if field not in FORM_FIELDS:
            self.message = f"champ inconnu : {field}"
            return
        clean: object = value.strip() or None
        if field in ("table", "score") and clean is not None:
            if not str(clean).isdigit():
                self.message = f"{FIELD_NAMES[field]} : un nombre est attendu"
                return
            clean = int(str(clean))
        if self._record("edition", {"lecture": reading_seq, "fields": {field: clean}}):
            self.message = f"champ « {FIELD_NAMES[field]} » enregistré"

    def confirm(self, reading_seq: int) -> None:
        reading = self.session.pending.get(reading_seq)
        if reading is None:
            self.message = "bulletin déjà confirmé"
            return
        bulletin = reading.bulletin_dict()
        table = bulletin.get("table")
        results = self.session.results
        if table is None:
            self.message = "table non lue : tapez-la (E) avant de confirmer"
            return
        if table not in results.players:
            self.message = f"table {table} inconnue dans cette partie : corrigez-la (E)"
            return
        if results.history(table, reading.coup):
            self.message = (f"la table {table} a déjà un résultat au coup {reading.coup} : "
                            "corrigez la table (E), ou choisissez sa ligne et E pour une "
                            "décision de l'arbitre")
            return
        refused = len(self.session.refused)
        # a zero's reason is given to the player with his bulletin (5.7): I clears it
        data = self._record("bulletin", {"coup": reading.coup, "bulletin": bulletin,
                                         "lecture": reading_seq, "motif_indique": True})
        if data is None:
            return
        if len(self.session.refused) > refused:
            self.message = self.session.refused[-1]
        else:
            self.next_work(self.cursor)
            decision = self.session.results.decision(table, reading.coup)
            self.message = f"table {table} : {outcome_text(decision.outcome)}, {decision.score} points"
            if decision.outcome.value == "zero":
                self.message += " — motif indiqué au joueur (I : ne l'a pas été)"

    def top_to_all(self) -> None:
        coup = self.session.coup
        if coup is None or coup.top is None:
            self.message = "pas encore de top pour ce coup"
            return
        missing = self.session.missing_tables(coup.number)
        tables = self.missing_rows()  # a bulletin waits: it decides
        if not tables:
            self.message = ("tous les joueurs ont déjà un résultat pour ce coup" if not missing
                            else "les joueurs restants ont un bulletin à confirmer")
            return
        if self._record("top_tous", {"coup": coup.number, "tables": tables}) is not None:
            self.message = f"top attribué à {len(tables)} joueur(s)"
            if len(tables) < len(missing):
                self.message += (f" ; {len(missing) - len(tables)} joueur(s) ont un bulletin "
                                 "à confirmer")

    def top_to(self, table: int) -> None:
        """T on a player without a result: he played the top."""
        coup = self.session.coup
        if self._record("top_tous", {"coup": coup.number, "tables": [table]}) is not None:
            self.message = f"table {table} : top, {coup.top.score} points"
            self.next_work()

    def absent(self, table: int) -> None:
        """B on a player without a result: no bulletin handed in, a zero (5.4)."""
        coup = self.session.coup
        if self._record("absent", {"coup": coup.number, "table": table}) is not None:
            self.message = f"table {table} : bulletin absent, zéro"
            self.next_work()

    def toggle_told(self, table: int) -> None:
        """I on a recorded zero: was the player told why? (5.7: the average applies if not)."""
        coup = self.session.coup.number
        results = self.session.results
        if results.decision(table, coup).outcome.value != "zero":
            self.message = f"table {table} : pas de zéro au coup {coup}, rien à indiquer"
            return
        told = (table, coup) in results.told
        if self._record("motif", {"coup": coup, "table": table, "indique": not told}):
            self.message = (f"table {table} : motif indiqué au joueur" if not told else
                            f"table {table} : motif non indiqué au joueur — s'il rejoue ce mot, "
                            "moyenne des joueurs de son arbitre (5.7)")
