"""What a network station may do, on the game's :class:`~kiosk.session.Session`.

One thread of the server process calls this (SQLite connections stay in their
thread, and one writer at a time keeps the journal's order simple). Every
change goes through ``Session.record``: it is on disk before the answer is
sent. A request that is refused raises :class:`Refused` with an HTTP status and
a French message, and writes nothing.

Retries never count twice: a photo carries an upload id (``envoi``), an action
(edit, confirm, set aside) an action id; a station's own token is made by its
browser, so even a join can be retried. Two arbiters on the same bulletin: each
edit names the version of the reading it saw; when the reading changed in the
meantime, the second is told who changed it, and nothing is overwritten.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..machine import OUTCOME_WORDS
from ..session import (
    HINT_TEXTS,
    Reading,
    Session,
    SessionError,
    Stale,
    hint_text,
    neighbour_question,
    upload_read,
)
from . import network

FIELDS = ("table", "word", "ref", "score", "raccord")  # the console's form (kiosk.form)
LABELS = {"table": "table", "word": "mot", "ref": "référence", "score": "score",
          "raccord": "raccord"}
STATUS_WORDS = {"ok": "lu", "a_verifier": "à vérifier", "illisible": "illisible",
                "saisie": "saisi"}
STEP_WORDS = {"accueil": "avant le premier coup", "tirage": "tirage", "annonce": "annonce",
              "chrono": "chrono en cours", "ramassage": "ramassage", "top": "top annoncé",
              "correction": "correction", "fin": "partie terminée"}
#: a field read with less confidence than this is marked doubtful (as on the console)
LOW_CONFIDENCE = 0.9
MAX_NAME = 40
#: a conditional write that keeps meeting other writes is refused after this many tries
STALE_TRIES = 20
_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
_TOKEN = re.compile(r"^[A-Za-z0-9_-]{32,128}$")
_LETTERS = re.compile(r"^[A-Za-z?]*$")
_REF = re.compile(r"^[A-Za-z0-9]{0,4}$")
PHOTO_EXT = {"jpeg": ".jpg", "png": ".png", "webp": ".webp", "bmp": ".bmp", "tiff": ".tif"}


class Refused(Exception):
    """A request refused: HTTP status, French message, and what else the page may show."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = extra


def photo_kind(data: bytes) -> str | None:
    """The image format from the file's first bytes (the name and the browser's word are
    not trusted): jpeg, png, webp, bmp, tiff — or None."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    if data[:2] == b"BM":
        return "bmp"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "tiff"
    return None


def page_suffix(rank: int) -> str:
    """The name's end of a photo's straightened bulletin number ``rank`` (1: ``.page.jpg``)."""
    return ".page.jpg" if rank == 1 else f".page{rank}.jpg"


def valid_id(value: Any) -> bool:
    return isinstance(value, str) and bool(_ID.match(value))


def clean_name(value: Any) -> str:
    """An arbiter's name as typed, without control or invisible characters."""
    if not isinstance(value, str):
        raise Refused(400, "nom attendu")
    text = "".join(ch for ch in unicodedata.normalize("NFC", value)
                   if unicodedata.category(ch)[0] != "C").strip()
    if not text:
        raise Refused(400, "indiquez votre nom")
    if len(text) > MAX_NAME:
        raise Refused(400, f"nom trop long ({MAX_NAME} caractères au plus)")
    return text


def clean_field(name: str, value: Any) -> Any:
    """A field typed on a station, checked (None: left empty)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if name in ("table", "score"):
        text = str(value).strip()
        if isinstance(value, bool) or not text.isdigit() or len(text) > 4:
            raise Refused(400, f"{LABELS[name]} : un nombre est attendu (4 chiffres au plus)")
        return int(text)
    if not isinstance(value, str):
        raise Refused(400, f"{LABELS[name]} : texte attendu")
    text = value.strip().replace(" ", "")
    if name == "ref":
        if not _REF.match(text):
            raise Refused(400, "référence : une lettre et un nombre (H4, 8D)")
        return text.upper()
    if len(text) > 15 or not _LETTERS.match(text):
        raise Refused(400, f"{LABELS[name]} : des lettres seulement (15 au plus)")
    return text if name == "word" else text.upper()


class Hub:
    """The stations' side of the game; one instance, one thread."""

    def __init__(self, session: Session, photos: Path) -> None:
        self.session = session
        self.photos = Path(photos)
        self._proposals: dict[tuple[int, int], dict] = {}
        self._done: dict[str, dict] = {}  # action id → the answer given (a retry gets it again)
        self._action_seqs: dict[str, set[int]] = {}  # action id → seqs it wrote
        self._scanned = 0
        self._scan()

    # -- the journal's past ------------------------------------------------------------------
    def _scan(self) -> None:
        """Remember the action ids already journaled (also those of other runs of the server)."""
        for event in self.session.journal.events(after=self._scanned):
            self._note(event.seq, event.kind, event.data)
            self._scanned = event.seq

    def _note(self, seq: int, kind: str, data: dict) -> None:
        action = data.get("action")
        if not isinstance(action, str):
            return
        self._action_seqs.setdefault(action, set()).add(seq)
        if kind in ("bulletin", "ecarte"):
            self._done[action] = {"ok": True, "deja": True,
                                  "message": "déjà enregistré (rien de nouveau)"}

    def sync(self) -> bool:
        """Apply what the console (or anyone) wrote; True when something changed."""
        changed = self.session.sync()
        if changed:
            self._scan()
        return changed

    def _record(self, kind: str, data: dict, station: dict | None,
                check: Callable[[], Any] | None = None) -> dict:
        """Journal one event for ``station``. ``check`` (raises :class:`Refused`) is run on the
        state the event is written at: the check and the write are one transaction (the
        journal refuses the write if anything was written since the check, under its write
        lock; then the state is synced and checked again)."""
        name = f"poste:{station['id']}" if station else None
        for _ in range(STALE_TRIES):
            if check is not None:
                check()
            try:
                recorded = self.session.record(
                    kind, data, station=name, after=self.session.applied if check else None)
            except Stale:
                self.sync()
                continue
            except SessionError as exc:
                raise Refused(409, str(exc)) from exc
            self._scan()
            return recorded
        raise Refused(503, "trop d'écritures en même temps sur la partie : réessayez dans un "
                           "instant (rien n'a été enregistré)")

    @property
    def seq(self) -> int:
        return self.session.applied

    # -- opening, joining ---------------------------------------------------------------------
    def open(self, host: str, port: int, bind: str) -> dict:
        """The server is listening: journal where, keeping the game's secret and code if it
        has them (phones that joined before a restart keep working)."""
        self.sync()
        old = self.session.network or {}
        secret, code = old.get("cle") or network.new_secret(), old.get("code") or network.new_code()
        results = old.get("cle_classement") or network.new_secret()
        data = {"hote": host, "port": port, "ecoute": bind, "cle": secret, "code": code,
                "adresse": network.join_url(host, port), "lien": network.join_url(host, port, secret),
                "cle_classement": results,
                "classement": network.results_url(host, port, results)}
        if {k: old.get(k) for k in data} != data:
            self._record("postes", data, None)
        return data

    def _by_token(self, token: str) -> dict | None:
        digest = network.token_hash(token)
        return next((st for st in self.session.stations.values() if st.get("jeton") == digest),
                    None)

    def station_for(self, token: Any) -> dict:
        """The station a request comes from; refused (401/403) for anyone else."""
        if not isinstance(token, str) or not _TOKEN.match(token):
            raise Refused(401, "poste non reconnu : rejoignez la partie avec le code du "
                               "juge-arbitre")
        self.sync()
        station = self._by_token(token)
        if station is None:
            raise Refused(401, "poste non reconnu : rejoignez la partie avec le code du "
                               "juge-arbitre")
        if station["retire"]:
            raise Refused(403, "ce poste a été retiré par le juge-arbitre : demandez-lui le code "
                               "pour revenir", retire=True)
        return station

    def check_join_secret(self, secret: Any, code: Any) -> None:
        net = self.session.network
        if not net:
            raise Refused(503, "les postes d'arbitrage ne sont pas ouverts")
        if isinstance(secret, str) and secret:
            if network.same_secret(secret, str(net["cle"])):
                return
        elif isinstance(code, str) and code.strip():
            if network.same_secret(code.strip().replace(" ", ""), str(net["code"])):
                return
        else:
            raise Refused(401, "tapez le code à 6 chiffres affiché sur la console du juge-arbitre")
        raise Refused(403, "code non valable : vérifiez le code affiché sur la console du "
                           "juge-arbitre")

    def join(self, name: Any, token: Any, secret: Any = None, code: Any = None) -> dict:
        """A new station (or the same one again, when its browser retries the same token)."""
        self.sync()
        self.check_join_secret(secret, code)
        name = clean_name(name)
        if not isinstance(token, str) or not _TOKEN.match(token):
            raise Refused(400, "jeton du poste non valable (page à recharger)")
        station = self._by_token(token)
        if station is not None:
            if station["retire"]:
                raise Refused(403, "ce poste a été retiré par le juge-arbitre", retire=True)
            return {"poste": station["id"], "nom": station["nom"]}
        ident = f"p{len(self.session.stations) + 1}"
        self._record("poste", {"id": ident, "nom": name, "jeton": network.token_hash(token)},
                     {"id": ident})
        return {"poste": ident, "nom": name}

    def set_block(self, station: dict, body: Any) -> dict:
        """The arbiter picks the tables he corrects (« de 1 à 10 »), or none (all tables)."""
        if not isinstance(body, dict):
            raise Refused(400, "requête illisible")
        first, last = body.get("de"), body.get("a")
        if first in (None, "") and last in (None, ""):
            block = None
        else:
            try:
                first, last = int(first), int(last)
            except (TypeError, ValueError):
                raise Refused(400, "bloc : deux numéros de table (de … à …)") from None
            if not 1 <= first <= last <= 9999:
                raise Refused(400, "bloc : de la plus petite à la plus grande table (1 à 9999)")
            block = [first, last]
        if block != station.get("bloc"):
            self._record("poste_bloc", {"poste": station["id"], "bloc": block}, station)
        return {"ok": True, "message": "bloc enregistré" if block else "toutes les tables"}

    # -- which coup ---------------------------------------------------------------------------
    def coup_choices(self) -> tuple[int | None, list[int]]:
        """(default coup, every coup a photo may be for): the coup being corrected by default;
        the coup being collected too once its chrono runs; earlier ones for late bulletins."""
        s = self.session
        if s.game is None:
            return None, []
        played = len(s.game.played())
        coup = s.coup
        collecting = coup.number if (coup is not None and coup.top is None and coup.tirage
                                     and s.step in ("chrono", "ramassage")) else 0
        highest = max(played, collecting)
        if not highest:
            return None, []
        default = collecting if (s.step == "ramassage" or not played) and collecting else played
        return default, list(range(highest, 0, -1))

    def check_coup(self, value: Any) -> int:
        default, allowed = self.coup_choices()
        if default is None:
            raise Refused(409, "aucun coup à corriger encore : photographiez les bulletins "
                               "après le début du chrono")
        try:
            number = int(value) if value not in (None, "") else default
        except (TypeError, ValueError):
            raise Refused(400, "numéro de coup non valable") from None
        if number not in allowed:
            raise Refused(409, f"pas de coup {number} à corriger (coups 1 à {allowed[0]})")
        return number

    # -- photos -------------------------------------------------------------------------------
    def photo_path(self, name: str) -> Path:
        return self.photos / Path(name).name

    def accept_photo(self, station: dict, envoi: Any, coup: Any, data: bytes) -> dict:
        """A photo received whole: saved, journaled (« photo »), to be read. A retry of the same
        upload is answered again without writing anything."""
        if not valid_id(envoi):
            raise Refused(400, "identifiant d'envoi manquant ou non valable")
        self.sync()
        digest = hashlib.sha256(data).hexdigest()
        known = self.session.uploads.get(envoi)
        if known is not None:
            if known["sha256"] != digest or known["poste"] != station["id"]:
                raise Refused(409, "cet envoi a déjà été reçu avec une autre photo : rien n'a "
                                   "été enregistré")
            return {"etat": "deja", "envoi": envoi, "coup": known["coup"],
                    "message": "photo déjà reçue (rien de nouveau)"}
        number = self.check_coup(coup)
        kind = photo_kind(data)
        if kind is None:
            raise Refused(415, "ce fichier n'est pas une photo (JPEG, PNG ou WebP attendu)")
        twin = next((u for u in self.session.uploads.values()
                     if u["sha256"] == digest and u["coup"] == number), None)
        if twin is not None:
            raise Refused(409, f"cette photo a déjà été envoyée pour le coup {number} : rien "
                               "n'a été enregistré")
        name = f"{envoi}{PHOTO_EXT[kind]}"
        self._write(self.photo_path(name), data)
        self._record("photo", {"envoi": envoi, "poste": station["id"], "coup": number,
                               "fichier": name, "sha256": digest, "octets": len(data)}, station)
        return {"etat": "recue", "envoi": envoi, "coup": number,
                "message": f"photo reçue pour le coup {number} : lecture en cours"}

    def _write(self, path: Path, data: bytes) -> None:
        """Whole file or nothing (a crash never leaves half a photo under its name)."""
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(path)

    def unread(self) -> list[tuple[str, Path, int]]:
        """Photos journaled but not yet wholly read (a restart reads them): (envoi, path, coup).
        A photo of several bulletins killed between two of its readings is read again; only
        the bulletins still missing are journaled (:meth:`record_readings`)."""
        return [(envoi, self.photo_path(u["fichier"]), int(u["coup"]))
                for envoi, u in self.session.uploads.items() if not upload_read(u)]

    def record_readings(self, envoi: str, readings: list[dict]) -> list[int]:
        """The reader's results for an upload, one « lecture » per bulletin of the photo, in
        reading order. Each is known by its rank (``envoi#1``, ``envoi#2``…): one already
        journaled is never written again (a retry, a restart). Returns the new seqs."""
        self.sync()
        upload = self.session.uploads.get(envoi)
        if upload is None:
            return []
        station = self.session.stations.get(upload["poste"])
        count = len(readings)
        seqs = []
        for rank, data in enumerate(readings, 1):
            if rank in upload["lectures"] or (upload["feuilles"] and rank > upload["feuilles"]):
                continue
            data = {**data, "envoi": envoi, "poste": upload["poste"], "coup": upload["coup"]}
            if count > 1:
                data.update(feuille=rank, feuilles=count)
            else:
                data.pop("feuille", None)
                data.pop("feuilles", None)
            self._record("lecture", data, station)
            seqs.append(self.session.uploads[envoi]["lectures"][rank])
        return seqs

    def typed(self, station: dict, body: Any) -> dict:
        """A bulletin typed on the station, without a photo (the console's N): one « lecture »
        event, then listed like a photo's reading for the arbiter to confirm. ``id`` makes a
        retry write nothing."""
        if not isinstance(body, dict):
            raise Refused(400, "requête illisible")
        action = body.get("id")
        if not valid_id(action):
            raise Refused(400, "identifiant de saisie manquant ou non valable")
        self.sync()
        known = sorted(self._action_seqs.get(action, ()))
        if known:
            return {"ok": True, "deja": True, "seq": known[0],
                    "message": "bulletin déjà reçu (rien de nouveau)"}
        number = self.check_coup(body.get("coup"))
        fields = body.get("champs") or {}
        if not isinstance(fields, dict) or set(fields) - set(FIELDS):
            raise Refused(400, "champs inconnus (table, mot, référence, score, raccord)")
        clean = {name: clean_field(name, fields.get(name)) for name in FIELDS}
        if clean["table"] is None:
            raise Refused(400, "table : un nombre est attendu (4 chiffres au plus)")
        data = {"coup": number, "photo": None, "status": "saisie",
                "message": f"tapé sur le poste de {station['nom']}",
                "fields": {name: {"value": clean[name], "confidence": None}
                           for name in FIELDS if name != "raccord"},
                "poste": station["id"], "action": action}
        if clean["raccord"]:
            data["extra"] = {"raccord": clean["raccord"]}
        self._record("lecture", data, station)
        seq = min(self._action_seqs[action])
        return {"ok": True, "seq": seq, "message": f"bulletin de la table {clean['table']} "
                f"saisi pour le coup {number} : à confirmer",
                "lecture": self.reading(self.session.pending[seq])}

    def image_of(self, seq: int) -> Path | None:
        """The rectified bulletin of a reading (else the photo itself), if a station sent it."""
        reading = self.session.pending.get(seq)
        if reading is None or not reading.photo:
            return None
        photo = Path(reading.photo)
        if photo.parent.resolve() != self.photos.resolve():
            return None  # only the stations' own photos are served
        page = photo.with_name(photo.stem + page_suffix(reading.sheet[0] if reading.sheet else 1))
        return page if page.exists() else (photo if photo.exists() else None)

    # -- corrections --------------------------------------------------------------------------
    def _who(self, seq: int) -> str:
        """Who wrote event ``seq``, as the arbiters call each other."""
        event = next(iter(self.session.journal.events(after=seq - 1)), None)
        if event is None:
            return "un autre arbitre"
        ident = event.data.get("poste")
        station = self.session.stations.get(str(ident)) if ident else None
        if station is not None:
            return f"{station['nom']} (poste)"
        return "le juge-arbitre (console)" if event.station == "kiosque" else event.station

    def _closed(self, seq: int) -> Refused:
        """Why reading ``seq`` is no longer waiting: confirmed or set aside, and by whom."""
        for event in self.session.journal.events(after=seq):
            if event.kind in ("bulletin", "ecarte") and int(event.data.get("lecture") or 0) == seq:
                who = self._who(event.seq)
                what = "confirmé" if event.kind == "bulletin" else "écarté"
                return Refused(409, f"ce bulletin a déjà été {what} par {who}", ferme=True)
        return Refused(404, "bulletin inconnu", ferme=True)

    def act(self, station: dict, seq: int, body: Any) -> dict:
        """``modifier`` (fields), ``confirmer`` (fields, then the result) or ``ecarter``."""
        if not isinstance(body, dict):
            raise Refused(400, "requête illisible")
        action, what = body.get("id"), body.get("action")
        if not valid_id(action):
            raise Refused(400, "identifiant d'action manquant ou non valable")
        if what not in ("modifier", "confirmer", "ecarter", "classer"):
            raise Refused(400, "action inconnue (modifier, confirmer, ecarter ou classer)")
        self.sync()
        if action in self._done:
            return self._done[action]
        version = body.get("version")
        reading = self._unchanged(seq, version, action)
        if what == "classer":  # « coup précédent ? » / « coup suivant ? » answered
            try:
                coup = int(body.get("coup"))
            except (TypeError, ValueError):
                raise Refused(400, "numéro de coup attendu") from None

            def may_file() -> None:
                reading = self._unchanged(seq, version, action)
                if not reading.neighbour:
                    raise Refused(409, "ce bulletin n'attend pas de choix de coup")
                other = int(reading.neighbour["coup"])
                if coup not in (reading.coup, other):
                    raise Refused(400, f"coup {coup} : ni le coup {reading.coup} ni le coup "
                                       f"{other}")

            self._record("classement", {"lecture": seq, "coup": coup, "poste": station["id"],
                                        "action": action}, station, may_file)
            reading = self.session.pending[seq]
            return {"ok": True, "message": f"bulletin classé au coup {coup}",
                    "lecture": self.reading(reading)}
        if what == "ecarter":
            self._record("ecarte", {"lecture": seq, "coup": reading.coup, "poste": station["id"],
                                    "action": action}, station,
                         lambda: self._unchanged(seq, version, action))
            answer = {"ok": True, "message": "bulletin écarté (il reste dans le journal)"}
            self._done[action] = answer
            return answer
        fields = body.get("champs") or {}
        if not isinstance(fields, dict) or set(fields) - set(FIELDS):
            raise Refused(400, "champs inconnus (table, mot, référence, score, raccord)")
        clean = {name: clean_field(name, value) for name, value in fields.items()}
        current = self._values(reading)
        changed = {name: value for name, value in clean.items() if value != current.get(name)}

        def may_edit() -> None:
            reading = self._unchanged(seq, version, action)
            if what == "confirmer":
                self._confirmable(reading, {**self._values(reading), **clean})

        if changed:  # one event for the whole form, as the console writes it
            self._record("edition", {"lecture": seq, "fields": changed, "poste": station["id"],
                                     "action": action}, station, may_edit)
        else:
            may_edit()
        reading = self.session.pending[seq]
        if what == "modifier":
            return {"ok": True, "message": "modifications enregistrées",
                    "lecture": self.reading(reading)}
        return self._confirm(station, seq, version, action)

    def _unchanged(self, seq: int, version: Any, action: str) -> Reading:
        """Reading ``seq`` as the arbiter saw it (version ``version``), or why not: confirmed,
        set aside or changed by someone else since (never overwritten silently). A change
        this same action made (a confirmation after its edit) is the arbiter's own."""
        reading = self.session.pending.get(seq)
        if reading is None:
            raise self._closed(seq)
        if version != reading.changed and reading.changed not in self._action_seqs.get(action, ()):
            raise Refused(409, f"ce bulletin vient d'être modifié par {self._who(reading.changed)}"
                               " : vérifiez la nouvelle lecture", lecture=self.reading(reading))
        return reading

    @staticmethod
    def _values(reading: Reading) -> dict:
        values = {name: (reading.fields.get(name) or {}).get("value") for name in FIELDS}
        if values.get("raccord") is None and reading.extra.get("raccord"):
            raccord = reading.extra["raccord"]  # what the reader saw, or the arbiter typed
            values["raccord"] = "".join(raccord) if isinstance(raccord, list) else raccord
        return values

    def _confirmable(self, reading: Reading, values: dict) -> None:
        """A reading may be confirmed with ``values``: its coup is settled (not « coup
        précédent ? » / « coup suivant ? »), its top known, its table known and free."""
        if reading.neighbour:
            other = int(reading.neighbour["coup"])
            raise Refused(409, f"{neighbour_question(reading.coup, other)} Ce bulletin "
                               f"correspond au coup {other} : dites d'abord à quel coup il "
                               "appartient")
        s = self.session
        coup = s.game.coups[reading.coup - 1]
        if coup.top is None:
            raise Refused(409, f"le top du coup {reading.coup} n'est pas encore annoncé : "
                               "confirmez après l'annonce du top")
        table = values.get("table")
        if table is None:
            raise Refused(409, "table non lue : tapez-la (Modifier) avant de confirmer")
        if table not in s.results.players:
            raise Refused(409, f"table {table} inconnue dans cette partie : corrigez-la")
        if s.results.history(table, reading.coup):
            who = s.confirmed_by.get((reading.coup, table))
            name = (s.stations.get(who) or {}).get("nom") if who else None
            by = f" par {name} (poste)" if name else ""
            raise Refused(409, f"la table {table} a déjà un résultat au coup {reading.coup}"
                               f"{by} : rien n'a été remplacé ; écartez ce bulletin s'il est en "
                               "double, ou voyez le juge-arbitre")

    def _confirm(self, station: dict, seq: int, version: Any, action: str) -> dict:
        s = self.session

        def may_confirm() -> None:
            reading = self._unchanged(seq, version, action)
            self._confirmable(reading, self._values(reading))

        may_confirm()
        reading = s.pending[seq]
        refused = len(s.refused)
        # a zero's reason is given with the bulletin (5.7), as at the console
        self._record("bulletin", {"coup": reading.coup, "bulletin": reading.bulletin_dict(),
                                  "lecture": seq, "poste": station["id"],
                                  "action": action, "motif_indique": True}, station, may_confirm)
        if len(s.refused) > refused:  # the journal refused it on replay (never silently)
            raise Refused(409, s.refused[-1])
        table = reading.bulletin_dict()["table"]
        decision = s.results.decision(table, reading.coup)
        answer = {"ok": True, "message": f"table {table} : "
                  f"{OUTCOME_WORDS.get(decision.outcome.value)}, {decision.score} points",
                  "decision": self._decision(decision)}
        self._done[action] = answer
        return answer

    # -- what a station sees ------------------------------------------------------------------
    @staticmethod
    def _decision(decision) -> dict:
        return {"resultat": OUTCOME_WORDS.get(decision.outcome.value, decision.outcome.value),
                "code": decision.outcome.value, "score": decision.score,
                "motifs": list(decision.reasons)}

    def _proposal(self, reading: Reading) -> dict:
        key = (reading.seq, reading.changed)
        if key not in self._proposals:
            try:
                self._proposals[key] = self._decision(
                    self.session.propose(reading.coup, reading.bulletin_dict()))
            except Exception as exc:  # noqa: BLE001 - a reading the engine cannot take
                self._proposals[key] = {"resultat": "?", "code": "", "score": None,
                                        "motifs": [f"correction impossible : {exc}"]}
        return self._proposals[key]

    def reading(self, reading: Reading, index: dict | None = None) -> dict:
        """A reading as the page shows it; ``index`` (from :meth:`_index`) saves the lookups
        when many are shown at once."""
        s = self.session
        index = index or self._index()
        values = self._values(reading)
        fields = {}
        for name in FIELDS:
            f = reading.fields.get(name) or {}
            conf = None if f.get("arbitre") or f.get("confidence") is None \
                else float(f["confidence"])
            doubt = conf is not None and (conf < LOW_CONFIDENCE or name in reading.flagged)
            fields[name] = {"valeur": values.get(name), "confiance": conf, "arbitre":
                            bool(f.get("arbitre")), "doute": doubt,
                            "pourquoi": f.get("pourquoi") if doubt else None}
        table = values.get("table")
        notes = []
        if table is not None and s.results.history(table, reading.coup):
            who = s.confirmed_by.get((reading.coup, table))
            name = (s.stations.get(who) or {}).get("nom") if who else None
            notes.append(f"la table {table} a déjà un résultat au coup {reading.coup}"
                         + (f" (confirmé par {name})" if name else ""))
        envoi = index["envoi"].get(reading.seq)
        for other in index["by_table"].get((reading.coup, table), ()):
            if other.seq == reading.seq or table is None:
                continue
            if envoi is not None and index["envoi"].get(other.seq) == envoi:
                if other.seq < reading.seq:  # the photo's later one is the doubtful one
                    notes.append(f"un autre bulletin de la table {table} sur la même photo : "
                                 "en double ?")
                continue
            sender = (s.stations.get(other.station or "") or {}).get("nom")
            notes.append(f"une autre photo de la table {table} attend"
                         + (f" (poste de {sender})" if sender else " (console)"))
        notes += [hint_text(h, reading.extra) for h in reading.hints if h in HINT_TEXTS]
        if reading.neighbour:
            other = int(reading.neighbour["coup"])
            notes.append(f"{neighbour_question(reading.coup, other)} Ce bulletin correspond au "
                         f"coup {other} : à quel coup est-il ?")
        sender = s.stations.get(reading.station or "")
        return {"seq": reading.seq, "coup": reading.coup, "version": reading.changed,
                "envoi": envoi,
                "statut": STATUS_WORDS.get(reading.status, reading.status.replace("_", " ")),
                "message": reading.message, "champs": fields,
                "decision": self._proposal(reading), "notes": notes,
                "poste": sender["nom"] if sender else "console",
                "voisin": int(reading.neighbour["coup"]) if reading.neighbour else None,
                "image": self.image_of(reading.seq) is not None,
                "id": f"{envoi}#{reading.sheet[0] if reading.sheet else 1}" if envoi else None,
                "feuille": {"rang": reading.sheet[0], "sur": reading.sheet[1],
                            "texte": f"{reading.sheet[1]} bulletins sur la photo (n° "
                                     f"{reading.sheet[0]})"} if reading.sheet else None}

    def _index(self) -> dict:
        s = self.session
        by_table: dict[tuple, list[Reading]] = {}
        for r in s.pending.values():
            by_table.setdefault((r.coup, (r.fields.get("table") or {}).get("value")), []).append(r)
        return {"by_table": by_table,
                "envoi": {seq: e for e, u in s.uploads.items() for seq in u["lectures"].values()}}

    def _in_block(self, station: dict, table: Any) -> bool:
        block = station.get("bloc")
        return block is None or (isinstance(table, int) and block[0] <= table <= block[1])

    def state(self, station: dict) -> dict:
        """Everything the phone page shows, in one JSON object."""
        s = self.session
        default, choices = self.coup_choices()
        coup = s.coup
        top = coup.top if coup is not None else None
        target = default or 0
        waiting_tables = {(r.coup, (r.fields.get("table") or {}).get("value"))
                          for r in s.pending.values()}
        tables = []
        for number, player in sorted(s.results.players.items()):
            if not self._in_block(station, number):
                continue
            row = {"table": number, "nom": player.name, "etat": "manque", "resultat": ""}
            if target and s.results.history(number, target):
                d = s.results.decision(number, target)
                row.update(etat="fait", resultat=f"{OUTCOME_WORDS.get(d.outcome.value)} {d.score}")
            elif (target, number) in waiting_tables:
                row["etat"] = "attente"
            tables.append(row)
        highest = choices[0] if choices else 0
        index = self._index()
        readings = [self.reading(r, index) for r in sorted(s.pending.values(), key=lambda r: r.seq)
                    if r.coup <= highest and (r.station == station["id"] or self._in_block(
                        station, (r.fields.get("table") or {}).get("value")))]
        uploads = [{"envoi": e, "coup": u["coup"]} for e, u in s.uploads.items()
                   if u["poste"] == station["id"] and not upload_read(u)]
        players = len(s.results.players)
        done = sum(1 for t in s.results.players if target and s.results.history(t, target))
        return {
            "seq": s.applied,
            "poste": {"id": station["id"], "nom": station["nom"], "bloc": station.get("bloc")},
            "coup": coup.number if coup else 0,
            "etape": STEP_WORDS.get(s.step, s.step),
            "top": f"{top.word} {top.ref} {top.score}" if top is not None else None,
            "coup_defaut": default, "coups": choices,
            "progression": {"coup": target, "fait": done, "total": players,
                            "texte": f"{done} / {players} corrigés" if target else ""},
            "tables": tables, "lectures": readings, "envois": uploads,
            "heure": time.time(),
        }
