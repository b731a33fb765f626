"""The game as the journal says it is: engine game, players' results, step of the coup.

Every change goes through :meth:`Session.record`: the change is tried on the
in-memory state first (so a refused action writes nothing), then appended to
the journal, and only then reported as done. Rebuilding after a crash replays
the same events through the same code, so a resumed game is the game that
was being played. All rules come from :mod:`engine`; nothing here decides a
score, a draw or a correction.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from engine.bulletin import Bulletin
from engine.correction import Decision, Outcome, correct
from engine.draw import DrawError
from engine.game import Coup, Game, GameError, GameSettings
from engine.lexicon import Lexicon
from engine.move import Move
from engine.movegen import generate_moves, top_moves
from engine.results import GameResults, Player, ResultsError, ResultsSettings, decision_from_dict

from .journal import Event, JournalBase, JournalError, JournalStale

#: The steps of a coup, in order; "accueil" before the first, "fin" after the last.
STEPS = ("accueil", "tirage", "annonce", "chrono", "ramassage", "top", "correction", "fin")
#: fields of a reading kept beside the four read ones (the correction takes them too)
EXTRA_FIELDS = ("raccord", "sens")
#: Events the juge-arbitre can undo with U (the steps of the coup).
UNDOABLE = ("tirage", "rejet", "etape", "top", "choix_top")
#: After these (a coup's top, the next tirage, the end) the WAL is copied into the .partie.
CHECKPOINT_AFTER = ("top", "tirage", "fin")


class SessionError(Exception):
    """An action refused, or a journal that does not replay; French message."""


@dataclass
class Config:
    """The game's settings, the first event of every journal."""

    seed: int
    seconds: int = 180
    warning: int = 30
    blitz: bool = False
    draw_mode: str = "aleatoire"  # "aleatoire", "manuel" or "fichier"
    players: list[dict] = field(default_factory=list)
    source: dict | None = None  # a saved game (engine JSON) whose tirages are replayed
    demo: dict | None = None  # the demo's parameters, so that "reprendre" continues it
    max_coups: int | None = None  # the demo may stop early
    #: the event header of the printed results: epreuve, date, lieu, juge_arbitre
    event: dict | None = None
    #: a « partie originale »: the warning penalty starts at the 6th, as in blitz (rule 5.7)
    original: bool = False
    #: the bulletin model the photos are read with (``vision`` layout: a name in
    #: ``vision/layouts/`` or a file): the project's form, or the federation's printed one
    #: measured by ``python -m vision calibrer``
    bulletin: str = "fd1"

    @property
    def sixth_warning(self) -> bool:
        """Blitz and « partie originale »: the 5-point warning penalty from the 6th warning."""
        return bool(self.blitz or self.original)

    def to_dict(self) -> dict:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, data: dict) -> Config:
        known = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in known})


#: what the reader may say of a photo (crossed cells, a blank page…): doubts shown to the
#: arbiter, never a fault by themselves — the decision is made from the fields (rule 5.2's
#: « présentation » warning is the arbiter's own decision)
READER_HINTS = ("illisible", "blanc", "plusieurs", "ratures", "raccord_douteux")
HINT_TEXTS = {"illisible": "le lecteur n'a pas pu lire la photo",
              "blanc": "le lecteur voit un bulletin blanc",
              "plusieurs": "le lecteur voit plusieurs bulletins sur la photo",
              "ratures": "le lecteur voit des ratures : regardez la photo",
              "raccord_douteux": "raccord lu douteux (lettre hors de la grille ou mal lue) : "
                                 "regardez la photo"}


def hint_text(hint: str, extra: dict) -> str:
    """What the arbiter reads for one of the reader's doubts (the raccord doubted, named)."""
    if hint == "raccord_douteux" and extra.get("raccord"):
        return (f"raccord « {extra['raccord']} » lu douteux (lettre hors de la grille ou mal "
                "lue) : regardez la photo")
    return HINT_TEXTS[hint]


@dataclass
class Reading:
    """A bulletin read (photo or keyboard) waiting for the arbiter's confirmation."""

    seq: int
    coup: int
    fields: dict[str, dict]  # name -> {"value": …, "confidence": 0..1}
    status: str
    message: str = ""
    photo: str | None = None
    extra: dict = field(default_factory=dict)  # raccord, sens
    flagged: tuple[str, ...] = ()  # fields the reader asks the arbiter to check
    cells: dict[str, list[str]] = field(default_factory=dict)  # field -> the reader's cell keys
    hints: tuple[str, ...] = ()  # the reader's doubts (READER_HINTS), not faults
    #: {"coup": n, "fields", "cells", "flagged"}: fits no move of its coup but one of coup n,
    #: the coup before or the coup after (« coup précédent ? », « coup suivant ? »)
    neighbour: dict | None = None
    changed: int = 0  # seq of its last change (read, edited): stations compare it, never overwrite
    station: str | None = None  # the network station that sent the photo (kiosk.stations)
    #: (rank, count) of this bulletin in a photo of several (reading order), else None
    sheet: tuple[int, int] | None = None

    def bulletin_dict(self) -> dict:
        """What goes to the correction: the fields as read or typed, never the reader's doubts."""
        data = {k: v for k, v in self.extra.items() if k not in READER_HINTS}
        data.update({name: f.get("value") for name, f in self.fields.items()})
        data["coup"] = self.coup
        return data


def neighbour_question(coup: int, other: int) -> str:
    """« coup précédent ? » or « coup suivant ? »: a bulletin filed under ``coup`` that fits
    coup ``other`` instead."""
    return "coup précédent ?" if other < coup else "coup suivant ?"


def upload_read(upload: dict) -> bool:
    """Every bulletin of a station's photo has its « lecture » (a restart reads the others)."""
    return upload["feuilles"] is not None and len(upload["lectures"]) >= upload["feuilles"]


class Stale(Exception):
    """Something was written since the state a conditional :meth:`Session.record` was checked
    at: nothing written; sync, check again."""


@dataclass
class Chrono:
    """What the journal knows of the countdown: elapsed seconds at the last event, calls made."""

    elapsed: float = 0.0
    paused: bool = False
    calls: set[str] = field(default_factory=set)


class Session:
    """Rebuilt from a journal; ``record`` applies then appends one event."""

    def __init__(self, journal: JournalBase, lexicon: Lexicon) -> None:
        self.journal = journal
        self.lexicon = lexicon
        sha = journal.meta.get("lexicon_sha256")
        if sha and sha != lexicon.sha256:
            raise SessionError(
                "cette partie a été commencée avec une autre liste de mots "
                f"(empreinte {sha[:12]}…, liste chargée {lexicon.sha256[:12]}… : "
                f"{lexicon.source}) ; "
                "reprise refusée : relancez avec la même liste (--lexique)")
        self.rebuild()

    # -- state -----------------------------------------------------------------------------
    def _reset(self) -> None:
        self.config: Config | None = None
        self.game: Game | None = None
        self.results = GameResults()
        self.step = "accueil"
        self.chrono = Chrono()
        self.top_choice = 0
        self.pending: dict[int, Reading] = {}
        self.refused: list[str] = []
        self.set_aside: list[str] = getattr(self, "set_aside", [])
        self.applied = 0
        self.last_undoable: list[int] = []  # seqs of live undoable events, oldest first
        self._moves: dict[int, tuple[list[Move], list[Move]]] = {}
        # arbiter stations over the network (kiosk.stations): joining, blocks, photos received
        self.network: dict | None = None  # the last « postes » event: join secret, code, address
        self.stations: dict[str, dict] = {}  # station id → its « poste » event, block, revoked
        #: upload id → its « photo » event, + "lecture" (first reading's seq), "lectures" (rank
        #: in the photo → seq) and "feuilles" (how many bulletins the photo holds, once read)
        self.uploads: dict[str, dict] = {}
        self.confirmed_by: dict[tuple[int, int], str | None] = {}  # (coup, table) → station
        self.activity: dict[str, float] = {}  # who wrote (event's station) → when, last
        self.behind = False  # sync(budget) stopped before the journal's end

    def rebuild(self) -> None:
        """Replay the whole journal (start, resume, undo, another station's write).

        An event that does not fit the game replayed so far (a top committed twice
        by two rooms, a bulletin for a coup that is not there) is set aside: the
        replay starts again without it, it is listed in :attr:`set_aside` with the
        reason, and the game goes on. It stays in the journal, never deleted.
        """
        self._epoch = self.journal.epoch
        events = self.journal.events()
        aside: dict[int, str] = {}
        while True:
            self._reset()
            failed = self._replay_all(events, aside)
            if failed is None:
                break
            event, reason = failed
            aside[event.seq] = (f"événement {event.seq} ({event.kind}, poste "
                                f"{event.station}) mis de côté : {reason}")
        self.set_aside = [aside[seq] for seq in sorted(aside)]

    def _replay_all(self, events: list[Event], aside: dict[int, str]):
        """Replay ``events`` but those set aside; the first that fails and why, or None."""
        cancelled = set()
        for e in events:
            if e.kind == "annule" and e.seq not in aside:
                try:
                    cancelled.add(int(e.data["seq"]))
                except (KeyError, TypeError, ValueError):
                    return e, "annulation sans numéro d'événement"
        for event in events:
            if event.damaged and event.seq not in aside:
                return event, event.damaged
            if event.seq not in cancelled and event.seq not in aside and event.kind != "annule":
                try:
                    self._apply(event.kind, event.data, event.seq)
                except (GameError, DrawError, ResultsError, SessionError, KeyError, TypeError,
                        ValueError, AttributeError, IndexError) as exc:
                    return event, _reason(exc)
            self.applied = event.seq
            self.activity[event.station] = event.at
        return None

    def sync(self, budget: float | None = None) -> bool:
        """Apply what other stations appended; True when something changed.

        ``budget`` (seconds): stop once that much time is spent, the rest left for the next
        call (:attr:`behind` says so). The room's loop applies a burst of the stations'
        corrections over a few frames instead of dropping frames for it; the state is always
        the game after some prefix of the journal."""
        self.behind = False
        new = self.journal.events(after=self.applied)
        if self.journal.epoch != self._epoch:  # events renumbered (a queue sent after a cut)
            self.rebuild()
            return True
        if not new:
            return False
        if any(e.kind == "annule" for e in new):
            self.rebuild()
            return True
        deadline = None if budget is None else time.perf_counter() + budget
        for i, event in enumerate(new):
            if deadline is not None and i and time.perf_counter() > deadline:
                self.behind = True  # one event at least each time: it always catches up
                break
            try:
                if event.damaged:
                    raise SessionError(event.damaged)
                self._apply(event.kind, event.data, event.seq)
            except (GameError, DrawError, ResultsError, SessionError, KeyError, TypeError,
                    ValueError, AttributeError, IndexError):
                self.rebuild()  # the state may be half changed: replay, setting it aside
                return True
            self.applied = event.seq
            self.activity[event.station] = event.at
        return True

    def record(self, kind: str, data: dict[str, Any] | None = None, station: str | None = None,
               key: str | None = None, after: int | None = None) -> dict:
        """Apply an event, then commit it to the journal; returns the data as recorded.

        A refused action (GameError, DrawError, ResultsError) raises SessionError
        and writes nothing. ``station``: who did it, when not this journal's station;
        ``key``: the action's idempotency key (a retry with the same key writes nothing);
        ``after``: the event the caller's checks were made at (:attr:`applied` then): if
        anything was written since, :class:`Stale` is raised and nothing is written (the
        store checks it under its write lock, so the check and the write are one).
        """
        data = dict(data or {})
        self.sync()
        if after is not None and self.applied != after:
            raise Stale(after)
        try:
            self._apply(kind, data, self.applied + 1)
        except (GameError, DrawError, ResultsError, SessionError, KeyError, TypeError,
                ValueError, AttributeError, IndexError) as exc:
            self.rebuild()  # the engine may have changed part of its state before refusing
            raise SessionError(_reason(exc)) from exc
        try:
            event = self.journal.append(kind, data, station, key, after=after)
        except JournalStale as exc:
            self.rebuild()  # our event was applied here first: replay without it
            raise Stale(after) from exc
        except JournalError as exc:
            self.rebuild()
            raise SessionError(str(exc)) from exc
        except Exception as exc:
            self.rebuild()
            raise SessionError(f"écriture du journal impossible ({type(exc).__name__}) : "
                               "cette action n'est pas enregistrée") from exc
        if event.duplicate or event.seq != self.applied + 1 or self.journal.epoch != self._epoch:
            self.rebuild()  # another station wrote in between: replay in the journal's order
        else:
            self.applied = event.seq
            self.activity[event.station] = event.at
        if kind in CHECKPOINT_AFTER:
            self.journal.checkpoint()
        return data

    def undo_preview(self) -> str | None:
        """What U would cancel, in French (None: nothing to undo)."""
        if not self.last_undoable:
            return None
        seq = self.last_undoable[-1]
        event = next((e for e in self.journal.events(after=seq - 1) if e.seq == seq), None)
        return describe(event) if event is not None else None

    def undo(self) -> str:
        """Cancel the last step of the coup (an ``annule`` event); returns what was undone."""
        if not self.last_undoable:
            raise SessionError("rien à annuler")
        seq = self.last_undoable[-1]
        event = next(e for e in self.journal.events(after=seq - 1) if e.seq == seq)
        if event.kind == "top":
            coup = int(event.data["coup"])
            if any(c == coup for (_, c) in self.results.entries):
                raise SessionError(f"des bulletins du coup {coup} sont déjà enregistrés : "
                                   "le top ne peut plus être annulé")
        self.journal.append("annule", {"seq": seq, "kind": event.kind})
        self.rebuild()
        return describe(event)

    # -- reading -----------------------------------------------------------------------------
    @property
    def coup(self) -> Coup | None:
        """The coup of the current step (the last one opened)."""
        return self.game.coups[-1] if self.game and self.game.coups else None

    def moves(self, number: int) -> tuple[list[Move], list[Move]]:
        """Every move and the tied tops of coup ``number`` (cached: the grid before it is fixed)."""
        if number not in self._moves:
            coup = self.game.coups[number - 1]
            board = self.game.board_before(number)
            moves = generate_moves(board, coup.tirage, self.lexicon)
            pool_left = self.game.bag_count if coup.top is None else coup.bag_left
            tops = top_moves(moves, len(coup.tirage), bag_empty=pool_left == 0)
            self._moves[number] = (moves, tops)
        return self._moves[number]

    def propose(self, coup: int, bulletin: dict) -> Decision:
        """The correction the engine proposes for a bulletin of ``coup`` (nothing recorded)."""
        b = Bulletin.from_dict(bulletin)
        c = self.game.coups[coup - 1]
        known = b.table in self.results.players
        told = self.results.invalid_words_not_told(b.table, before=coup) if known else ()
        return correct(self.game.board_before(coup), c.tirage, self.lexicon, b,
                       invalid_words_not_told=told)

    def missing_tables(self, coup: int) -> list[int]:
        """Tables with no entry yet for ``coup``: what "top à tous les autres" fills."""
        return [t for t in sorted(self.results.players) if not self.results.history(t, coup)]

    # -- applying ------------------------------------------------------------------------------
    def _apply(self, kind: str, data: dict, seq: int) -> None:
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            raise SessionError(f"événement inconnu : {kind}")
        if kind != "partie" and self.game is None:
            raise SessionError("journal sans réglages de partie")
        handler(data, seq)
        if kind in UNDOABLE:
            self.last_undoable.append(seq)

    def _on_partie(self, data: dict, seq: int) -> None:
        if self.game is not None:
            raise SessionError("réglages de partie en double")
        self.config = Config.from_dict(data)
        settings = GameSettings(self.config.seconds, self.config.blitz, auto_reject=True)
        self.game = Game(self.config.seed, settings, self.lexicon.sha256)
        self.results = GameResults(ResultsSettings(blitz_or_original=self.config.sixth_warning))
        for p in self.config.players:
            self.results.add_player(Player(int(p["table"]), str(p["name"]), p.get("licence"),
                                           p.get("club"), p.get("arbiter"), p.get("serie"),
                                           p.get("categorie")))

    def _on_tirage(self, data: dict, seq: int) -> None:
        game = self.game
        expected = data.get("coup")
        if data.get("mode", "aleatoire") == "aleatoire":
            coup = game.draw()
            if game.finished:
                data.setdefault("fin", game.end_reason)
                self.step = "fin"
                return
            data.setdefault("letters", coup.new_letters)
            data.setdefault("rejections", list(zip(coup.rejections, coup.rejection_reasons,
                                                   strict=True)))
            if data["letters"] != coup.new_letters:
                raise SessionError(f"tirage {data['letters']} du journal différent du tirage "
                                   f"rejoué {coup.new_letters}")
        else:
            check = game.draw_manual(str(data["letters"]))
            coup = game.coups[-1]
            data["valid"], data["reason"] = check.valid, check.reason
        data.setdefault("coup", coup.number)
        if expected is not None and expected != coup.number:
            raise SessionError(f"tirage du coup {expected} rejoué au coup {coup.number}")
        data.setdefault("reliquat", coup.reliquat)
        self.step = "tirage"
        self.top_choice = 0
        self._moves.pop(coup.number, None)

    def _on_rejet(self, data: dict, seq: int) -> None:
        reason = str(data.get("reason") or "rejeté par le juge-arbitre")
        if data.get("reliquat_seul"):  # a pre-drawn game: the reliquat rejected, draw unknown
            self.game.reject_reliquat(reason)
        else:
            self.game.reject(reason)
        self.step = "tirage"
        self._moves.pop(self.game.coups[-1].number, None)

    def _on_etape(self, data: dict, seq: int) -> None:
        step = data["step"]
        if step not in STEPS:
            raise SessionError(f"étape inconnue : {step}")
        self.step = step
        if step == "chrono":
            self.chrono = Chrono()

    def _on_chrono(self, data: dict, seq: int) -> None:
        self.chrono.paused = data["action"] == "pause"
        self.chrono.elapsed = float(data["elapsed"])

    def _on_appel(self, data: dict, seq: int) -> None:
        self.chrono.calls.add(str(data["name"]))
        self.chrono.elapsed = max(self.chrono.elapsed, float(data.get("elapsed", 0.0)))

    def _on_choix_top(self, data: dict, seq: int) -> None:
        self.top_choice = int(data["index"])

    def _on_top(self, data: dict, seq: int) -> None:
        number = self.game.coups[-1].number
        if int(data.get("coup", number)) != number:
            raise SessionError(f"top du coup {data.get('coup')} au coup {number}")
        moves, tops = self.moves(number)
        if "word" not in data:
            if not tops:
                raise GameError("aucun coup possible avec ce tirage")
            move = tops[min(self.top_choice, len(tops) - 1)]
            data.update(coup=number, word=move.word, ref=str(move.ref), score=move.score)
        move = moves.find(str(data["word"]), str(data["ref"]))  # no Move built for the others
        if move is None:
            raise SessionError(f"top {data['word']} {data['ref']} introuvable "
                               "parmi les coups légaux")
        self.game.play(move)
        self.results.add_top(move.word, str(move.ref), move.score)
        self.step = "top"

    def _on_lecture(self, data: dict, seq: int) -> None:
        coup = int(data["coup"])
        if not 1 <= coup <= len(self.game.coups):
            raise ResultsError(f"coup {coup} pas encore commencé")
        extra = dict(data.get("extra") or {})
        hints = tuple(k for k in READER_HINTS if extra.pop(k, None))
        self.pending[seq] = Reading(seq, coup, dict(data.get("fields") or {}),
                                    str(data.get("status", "ok")), str(data.get("message", "")),
                                    data.get("photo"), extra, tuple(data.get("flagged") or ()),
                                    dict(data.get("cells") or {}), hints,
                                    data.get("voisin") or data.get("precedent") or None,
                                    changed=seq, station=data.get("poste"),
                                    sheet=(int(data["feuille"]), int(data["feuilles"]))
                                    if data.get("feuilles") else None)
        upload = self.uploads.get(data.get("envoi"))
        if upload is not None:  # a network station's photo, now read (one bulletin of it)
            upload["lectures"][int(data.get("feuille") or 1)] = seq
            upload["feuilles"] = int(data.get("feuilles") or 1)
            if upload["lecture"] is None:
                upload["lecture"] = seq

    def _on_edition(self, data: dict, seq: int) -> None:
        """The arbiter's values for a reading: every field of the form in one event (older
        journals: one ``field``/``value`` per event)."""
        reading = self.pending.get(int(data["lecture"]))
        if reading is None:
            raise ResultsError("bulletin déjà confirmé ou inconnu")
        values = data.get("fields")
        if values is None:
            values = {str(data["field"]): data["value"]}
        for name, value in dict(values).items():
            if name in EXTRA_FIELDS:
                if value in (None, ""):
                    reading.extra.pop(name, None)
                else:
                    reading.extra[name] = value
            else:
                reading.fields[str(name)] = {"value": value, "confidence": 1.0, "arbitre": True}
        reading.hints = ()  # the arbiter has looked at the bulletin: the reader's doubts are moot
        reading.changed = seq

    def _on_classement(self, data: dict, seq: int) -> None:
        """The arbiter files a reading under a coup (« coup précédent ? », « coup suivant ? »
        answered)."""
        reading = self.pending.get(int(data["lecture"]))
        if reading is None:
            raise ResultsError("bulletin déjà confirmé ou inconnu")
        coup = int(data["coup"])
        if not 1 <= coup <= len(self.game.coups):
            raise ResultsError(f"coup {coup} pas encore commencé")
        before = reading.neighbour or {}
        # read again against that coup's moves: its fields, but what the arbiter typed stays
        if before.get("coup") == coup:
            typed = {n: f for n, f in reading.fields.items() if f.get("arbitre")}
            reading.fields = {**dict(before.get("fields") or reading.fields), **typed}
            reading.cells = dict(before.get("cells") or reading.cells)
            reading.flagged = tuple(n for n in before.get("flagged") or () if n not in typed)
        reading.coup = coup
        reading.neighbour = None
        reading.changed = seq

    def _on_absent(self, data: dict, seq: int) -> None:
        """No bulletin from this player for this coup: a zero (5.4)."""
        self.results.record_absent(int(data["table"]), int(data["coup"]))

    def _on_motif(self, data: dict, seq: int) -> None:
        """Whether the player was told why his zero (5.7: the average applies only if not)."""
        self.results.notify(int(data["table"]), int(data["coup"]), bool(data["indique"]))

    def _on_ecarte(self, data: dict, seq: int) -> None:
        """A reading set aside by the arbiter (a photo taken twice…): kept in the journal."""
        if self.pending.pop(int(data["lecture"]), None) is None:
            raise ResultsError("bulletin déjà confirmé ou écarté")

    def _on_bulletin(self, data: dict, seq: int) -> None:
        coup = int(data["coup"])
        bulletin = dict(data["bulletin"])
        bulletin["coup"] = coup
        self.pending.pop(int(data.get("lecture") or 0), None)
        c = self.game.coups[coup - 1]
        try:
            entry = self.results.submit(Bulletin.from_dict(bulletin), self.game.board_before(coup),
                                        c.tirage, self.lexicon, coup=coup)
        except ResultsError as exc:
            # Two stations confirming the same table: the journal's first one counts.
            self.refused.append(f"bulletin refusé (événement {seq}) : {exc}")
            return
        self.confirmed_by[(coup, bulletin.get("table"))] = data.get("poste")
        if data.get("motif_indique") and entry.decision.outcome is Outcome.ZERO:
            self.results.notify(int(bulletin["table"]), coup)

    def _on_resultats(self, data: dict, seq: int) -> None:
        """Decisions taken by another program (a game imported from Eliot), kept as they were."""
        coup = int(data["coup"])
        for item in data["decisions"]:
            bulletin = Bulletin.from_dict(item["bulletin"]) if item.get("bulletin") else None
            self.results.record(int(item["table"]), coup, decision_from_dict(item["decision"]),
                                bulletin, source=str(data.get("source") or "import"))

    def _on_top_tous(self, data: dict, seq: int) -> None:
        coup = int(data["coup"])
        for table in data["tables"]:
            if not self.results.history(int(table), coup):  # another station was quicker
                self.results.record_top(int(table), coup)

    # -- arbiter stations over the network (kiosk.stations) -------------------------------------
    def _on_postes(self, data: dict, seq: int) -> None:
        """The station server opened: where it listens, its join secret and code."""
        self.network = dict(data)

    def _on_poste(self, data: dict, seq: int) -> None:
        """A station joined (its name, the hash of its token; never the token itself)."""
        self.stations[str(data["id"])] = {**data, "bloc": None, "retire": False, "seq": seq}

    def _on_poste_bloc(self, data: dict, seq: int) -> None:
        station = self.stations[str(data["poste"])]
        block = data.get("bloc")
        station["bloc"] = [int(block[0]), int(block[1])] if block else None

    def _on_poste_retire(self, data: dict, seq: int) -> None:
        """The juge-arbitre revoked a station: its token is refused from now on."""
        self.stations[str(data["poste"])]["retire"] = True

    def _on_photo(self, data: dict, seq: int) -> None:
        """A station's photo received and saved, to be read (its ``lecture`` follows)."""
        self.uploads[str(data["envoi"])] = {**data, "seq": seq, "lecture": None, "lectures": {},
                                            "feuilles": None}

    def _on_modif(self, data: dict, seq: int) -> None:
        outcome = data.get("outcome")
        self.results.amend(int(data["table"]), int(data["coup"]), reason=str(data["reason"]),
                           score=data.get("score"),
                           outcome=Outcome(outcome) if outcome else None)

    def _on_fin(self, data: dict, seq: int) -> None:
        if not self.game.finished:
            self.game.end(str(data.get("reason") or "fin de partie décidée par le juge-arbitre"))
        self.step = "fin"


def describe(event: Event) -> str:
    """A French line for an event (undo messages, logs)."""
    d = event.data
    if event.kind == "tirage":
        return f"tirage {d.get('reliquat', '')}+{d.get('letters', '')} du coup {d.get('coup')}"
    if event.kind == "rejet":
        return f"rejet du tirage ({d.get('reason', '')})"
    if event.kind == "etape":
        return f"étape « {d.get('step')} »"
    if event.kind == "top":
        return f"top {d.get('word')} {d.get('ref')} {d.get('score')}"
    if event.kind == "choix_top":
        return "choix du top"
    return event.kind


def _reason(exc: BaseException) -> str:
    """Why an event did not fit, in French: the engine's own messages are French already."""
    if isinstance(exc, GameError | DrawError | ResultsError | SessionError):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"donnée « {exc.args[0] if exc.args else '?'} » absente"
    if isinstance(exc, IndexError):
        return "coup absent de la partie"
    return "données de l'événement non valables"
