"""A Duplicate game: coups in order, each with its tirage, rejections and top.

The game is the single source of truth for the bag and the master grid. It is
saved as versioned JSON holding every letter drawn, so a saved game replays
exactly; loading replays it and refuses a file whose coups do not add up.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .board import BadReference, Board, Ref
from .draw import (
    MAX_REDRAWS,
    DrawError,
    TirageCheck,
    check_tirage,
    draw_letters,
    full_bag,
    requirement,
    split_manual,
    take_from_bag,
)
from .move import Move
from .placement import fit_word, realise
from .tiles import RACK_SIZE, VOWELS

FORMAT = "duplicate-kiosk/partie"
VERSION = 1


class GameError(ValueError):
    """An action the game refuses (a top that does not fit, a draw out of turn…), in French."""


class GameFileError(GameError):
    """A game file that cannot be trusted: unreadable, corrupt or inconsistent."""


#: a coup of at most this many seconds is played in blitz (1 minute a coup)
BLITZ_SECONDS = 60


def warning_seconds(seconds_per_coup: int, blitz: bool = False) -> int:
    """When the warning call falls: « Trente secondes », twenty in blitz (rule 3, time)."""
    return 20 if blitz or seconds_per_coup <= BLITZ_SECONDS else 30


@dataclass
class GameSettings:
    seconds_per_coup: int = 180
    blitz: bool = False
    #: a random tirage that breaks the vowel/consonant rule is rejected and redrawn
    auto_reject: bool = True

    @property
    def warning_seconds(self) -> int:
        return warning_seconds(self.seconds_per_coup, self.blitz)

    def to_dict(self) -> dict:
        return {"seconds_per_coup": self.seconds_per_coup, "blitz": self.blitz,
                "auto_reject": self.auto_reject}

    @classmethod
    def from_dict(cls, data: dict) -> GameSettings:
        """Settings from a file: types and ranges checked (GameError with the reason)."""
        if not isinstance(data, dict):
            raise GameError("réglages : un objet JSON est attendu")
        seconds = data.get("seconds_per_coup", 180)
        if not _is_int(seconds) or not 10 <= seconds <= 3600:
            raise GameError(f"réglages : temps par coup non valable ({str(seconds)[:20]})")
        blitz, auto = data.get("blitz", False), data.get("auto_reject", True)
        if not isinstance(blitz, bool) or not isinstance(auto, bool):
            raise GameError("réglages : « blitz » et « auto_reject » sont vrai ou faux")
        return cls(seconds, blitz, auto)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_text(value: object, longest: int) -> bool:
    return isinstance(value, str) and len(value) <= longest


def _shape_problem(data: dict) -> str | None:
    """What is wrong with a saved game's JSON shape, in French; None when it is sound.

    Checked before the replay, so that no value of an unexpected type (a list for
    the settings, a string for a coup, a 5,000-digit number) reaches the code.
    """
    seed = data.get("seed")
    if not _is_int(seed) or not 0 <= seed < 10**18:
        return "graine absente ou non valable"
    if not isinstance(data.get("settings", {}), dict | None):
        return "réglages : un objet JSON est attendu"
    sha = data.get("lexicon_sha256")
    if sha is not None and not _is_text(sha, 64):
        return "empreinte de liste de mots non valable"
    if data.get("end") is not None and not _is_text(data.get("end"), 500):
        return "raison de fin non valable"
    coups = data.get("coups")
    if not isinstance(coups, list) or len(coups) > 200:
        return "liste des coups absente ou non valable"
    for i, raw in enumerate(coups, start=1):
        if not isinstance(raw, dict):
            return f"coup {i} : un objet JSON est attendu"
        if not _is_int(raw.get("number")):
            return f"coup {i} : numéro absent ou non valable"
        for key in ("reliquat", "new_letters"):
            if not _is_text(raw.get(key, ""), RACK_SIZE):
                return f"coup {i} : « {key} » non valable"
        if not isinstance(raw.get("manual", False), bool):
            return f"coup {i} : « manual » non valable"
        rejections = raw.get("rejections", [])
        if not isinstance(rejections, list) or len(rejections) > 200:
            return f"coup {i} : rejets non valables"
        for rejection in rejections:
            if not isinstance(rejection, dict) or not _is_text(rejection.get("tirage"), RACK_SIZE) \
                    or not _is_text(rejection.get("reason", ""), 500):
                return f"coup {i} : rejet non valable"
        top = raw.get("top")
        if top is not None:
            if not isinstance(top, dict) or not _is_text(top.get("word"), 15) \
                    or not _is_text(top.get("ref"), 3):
                return f"coup {i} : top non valable"
            if "score" in top and (not _is_int(top["score"]) or not 0 <= top["score"] < 10_000):
                return f"coup {i} : score du top non valable"
    return None


@dataclass
class Coup:
    number: int
    reliquat: str = ""
    new_letters: str = ""
    rejections: list[str] = field(default_factory=list)
    rejection_reasons: list[str] = field(default_factory=list)
    top: Move | None = None
    bag_left: int = 0
    manual: bool = False

    @property
    def tirage(self) -> str:
        return self.reliquat + self.new_letters

    def leftover(self) -> str:
        """The letters of the tirage the top did not use: the next reliquat."""
        used = Counter(self.top.tiles_used if self.top else "")
        kept = []
        for ch in self.tirage:
            if used[ch]:
                used[ch] -= 1
            else:
                kept.append(ch)
        return "".join(kept)

    def to_dict(self) -> dict:
        data: dict = {"number": self.number, "reliquat": self.reliquat,
                      "new_letters": self.new_letters, "bag_left": self.bag_left}
        if self.rejections:
            data["rejections"] = [{"tirage": t, "reason": r}
                                  for t, r in zip(self.rejections, self.rejection_reasons, strict=True)]
        if self.manual:
            data["manual"] = True
        if self.top is not None:
            data["top"] = self.top.to_dict()
        return data


class Game:
    """The game being played. Methods raise GameError/DrawError with a French reason."""

    def __init__(self, seed: int | None = None, settings: GameSettings | None = None,
                 lexicon_sha256: str | None = None) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(10**9)
        self.settings = settings or GameSettings()
        self.lexicon_sha256 = lexicon_sha256
        self.coups: list[Coup] = []
        self.board = Board()
        self.bag: Counter[str] = full_bag()
        self.end_reason: str | None = None

    # -- state ---------------------------------------------------------------
    @property
    def current(self) -> Coup | None:
        """The coup being played (tirage drawn, no top yet), if any."""
        if self.coups and self.coups[-1].top is None and self.end_reason is None:
            return self.coups[-1]
        return None

    @property
    def finished(self) -> bool:
        return self.end_reason is not None

    @property
    def reliquat(self) -> str:
        """Letters carried to the next tirage."""
        return self.coups[-1].leftover() if self.coups and self.coups[-1].top else ""

    @property
    def bag_count(self) -> int:
        return sum(self.bag.values())

    @property
    def total_score(self) -> int:
        return sum(c.top.score for c in self.coups if c.top)

    def played(self) -> list[Coup]:
        return [c for c in self.coups if c.top is not None]

    def board_before(self, number: int) -> Board:
        """The master grid before coup ``number``'s top (1-based)."""
        board = Board()
        for coup in self.coups[: number - 1]:
            if coup.top:
                for r, c, tile in coup.top.placed:
                    board.cells[r][c] = tile
        return board

    def board_after(self, number: int) -> Board:
        return self.board_before(number + 1)

    # -- drawing ---------------------------------------------------------------
    def _open_coup(self) -> Coup:
        if self.finished:
            raise GameError(f"la partie est terminée ({self.end_reason})")
        coup = self.current
        if coup is None:
            coup = Coup(len(self.coups) + 1, reliquat=self.reliquat)
            self.coups.append(coup)
        elif coup.new_letters:
            raise GameError("le tirage de ce coup est déjà fait (rejetez-le pour retirer)")
        return coup

    def _pool(self, coup: Coup) -> str:
        return "".join(sorted(self.bag.elements())) + coup.reliquat

    def draw(self) -> Coup:
        """Complete the tirage at random; invalid tirages go back whole and 7 are drawn again."""
        coup = self._open_coup()
        if requirement(coup.number, self._pool(coup)) is None:
            self._end_for_letters(coup)
            return coup
        for _ in range(MAX_REDRAWS):
            # One stream per attempt: a redraw after a rejection gives other letters.
            rng = random.Random(f"{self.seed}/{coup.number}/{len(coup.rejections)}")
            coup.new_letters = draw_letters(self.bag, RACK_SIZE - len(coup.reliquat), rng)
            check = self.check(coup)
            if check.valid or not self.settings.auto_reject:
                break
            self._return(coup, check.reason)
        coup.bag_left = self.bag_count
        return coup

    def draw_manual(self, typed: str) -> TirageCheck:
        """Letters drawn from a real bag and typed by the juge-arbitre.

        A letter the bag no longer holds is refused (DrawError); an invalid
        tirage is kept and reported: the juge-arbitre decides to reject it.
        """
        coup = self._open_coup()
        needed = min(RACK_SIZE - len(coup.reliquat), self.bag_count)
        new = split_manual(coup.reliquat, typed, needed)
        take_from_bag(self.bag, new)
        coup.new_letters = new
        coup.manual = True
        coup.bag_left = self.bag_count
        return self.check(coup)

    def check(self, coup: Coup | None = None) -> TirageCheck:
        coup = coup or self.current
        if coup is None:
            raise GameError("aucun tirage en cours")
        return check_tirage(coup.tirage, coup.number, self._pool(coup) + coup.new_letters)

    def reject(self, reason: str = "rejeté par le juge-arbitre") -> None:
        """All letters of the current tirage, reliquat included, go back to the bag."""
        coup = self.current
        if coup is None or not coup.tirage:
            raise GameError("aucun tirage à rejeter")
        self._return(coup, reason)
        coup.bag_left = self.bag_count

    def reject_reliquat(self, reason: str) -> None:
        """Open the coup and send its reliquat back to the bag, before any draw.

        For files that say a tirage was rejected without saying its letters (Eliot
        keeps only the tirage drawn in its place): for the bag, the same as
        rejecting the reliquat with whatever was drawn beside it.
        """
        coup = self._open_coup()
        if not coup.reliquat:
            raise GameError("aucun reliquat à rejeter")
        self._return(coup, reason)
        coup.bag_left = self.bag_count

    def _return(self, coup: Coup, reason: str) -> None:
        coup.rejections.append(coup.tirage)
        coup.rejection_reasons.append(reason)
        self.bag.update(coup.tirage)
        coup.reliquat = ""
        coup.new_letters = ""

    # -- playing ---------------------------------------------------------------
    def play(self, move: Move) -> None:
        """Place the chosen top on the master grid and close the coup."""
        coup = self.current
        if coup is None or not coup.tirage:
            raise GameError("aucun tirage en cours")
        need = Counter(move.tiles_used)
        have = Counter(coup.tirage)
        if any(have[ch] < n for ch, n in need.items()):
            raise GameError(f"le top {move.word} n'est pas formable avec le tirage {coup.tirage}")
        for r, c, _ in move.placed:
            if self.board.cells[r][c] is not None:
                raise GameError(f"le top {move.word} recouvre une case occupée")
        for r, c, tile in move.placed:
            self.board.cells[r][c] = tile
        coup.top = move
        pool = "".join(sorted(self.bag.elements())) + coup.leftover()
        if not pool:
            self.end_reason = "toutes les lettres ont été jouées"
        elif requirement(coup.number + 1, pool) is None:
            self._end_for_letters(None)

    def end(self, reason: str) -> None:
        """End the game for a reason decided outside (no move possible)."""
        self.end_reason = reason
        if self.coups and self.coups[-1].top is None and not self.coups[-1].tirage:
            self.coups.pop()

    def _end_for_letters(self, coup: Coup | None) -> None:
        pool = "".join(sorted(self.bag.elements())) + (coup.reliquat if coup else self.reliquat)
        if coup is not None and coup.top is None:
            self.coups.remove(coup)
        only = "voyelles" if pool and all(ch in VOWELS or ch in "Y?" for ch in pool) else "consonnes"
        self.end_reason = f"il ne reste que des {only} : plus de tirage valable"

    # -- files -----------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": FORMAT, "version": VERSION, "seed": self.seed,
            "lexicon_sha256": self.lexicon_sha256, "settings": self.settings.to_dict(),
            "coups": [c.to_dict() for c in self.coups], "end": self.end_reason,
        }

    def save(self, path: str | Path) -> None:
        """Write atomically: a crash while saving never destroys the previous file.

        A folder, a missing folder or a device as the target is a GameFileError
        (French), and a device is never replaced by a file.
        """
        from .files import FileRefused, write_atomic

        text = json.dumps(self.to_dict(), ensure_ascii=False, indent=1)
        try:
            write_atomic(path, text.encode("utf-8"), "enregistrement de la partie")
        except FileRefused as exc:
            raise GameFileError(str(exc)) from exc

    @classmethod
    def load(cls, path: str | Path, lexicon=None) -> Game:
        """Read and replay a saved game; with ``lexicon``, every top is also checked.

        Only a regular file of a sane size is read (:mod:`engine.files`); its JSON
        shape is checked before anything is replayed.
        """
        from .files import LIMITS, FileRefused, read_json

        try:
            data = read_json(path, "fichier de partie", LIMITS["partie"])
        except FileRefused as exc:
            raise GameFileError(str(exc)) from exc
        game = cls.from_dict(data, source=str(path))
        if lexicon is not None:
            game.check_tops(lexicon, source=str(path))
        return game

    @classmethod
    def from_dict(cls, data: object, source: str = "partie") -> Game:
        """Replay a saved game, checking its shape, then every coup against the bag and grid."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GameFileError(f"{source} : ce n'est pas un fichier de partie du kiosque")
        if data.get("version") != VERSION or isinstance(data.get("version"), bool):
            raise GameFileError(f"{source} : version {str(data.get('version'))[:20]} "
                                "non prise en charge")
        problem = _shape_problem(data)
        if problem:
            raise GameFileError(f"{source} : fichier de partie incohérent ({problem})")
        try:
            game = cls(data["seed"], GameSettings.from_dict(data.get("settings") or {}),
                       data.get("lexicon_sha256"))
            for i, raw in enumerate(data["coups"], start=1):
                game._replay_coup(i, raw)
        except GameFileError as exc:
            raise GameFileError(f"{source} : {exc}") from exc
        except (DrawError, GameError) as exc:
            raise GameFileError(f"{source} : fichier de partie incohérent ({exc})") from exc
        end = data.get("end")
        if end is not None:
            game.end_reason = end
        return game

    def check_tops(self, lexicon, source: str = "partie") -> None:
        """Every top is a legal move of the lexicon and has the best score of its coup."""
        from .movegen import generate_moves

        other = self.lexicon_sha256 and self.lexicon_sha256 != lexicon.sha256
        hint = " (partie faite avec une autre liste de mots ?)" if other else ""
        for coup in self.coups:
            if coup.top is None:
                continue
            board = self.board_before(coup.number)
            moves = generate_moves(board, coup.tirage, lexicon)
            top = coup.top
            same = [m for m in moves if m.word == top.word and m.ref == top.ref]
            if not same:
                raise GameFileError(f"{source} : coup {coup.number} : le top {top.word} {top.ref} "
                                    f"n'est pas un coup valable avec cette liste de mots{hint}")
            best = max(m.score for m in moves)
            if top.score != best:
                raise GameFileError(f"{source} : coup {coup.number} : le top {top.word} {top.ref} "
                                    f"vaut {top.score} points, le meilleur coup en vaut {best}{hint}")

    def _replay_coup(self, number: int, raw: dict) -> None:
        where = f"coup {number}"
        if self.coups and self.coups[-1].top is None:
            raise GameFileError(f"coup {number - 1} sans top suivi d'un autre coup")
        if raw.get("number") != number:
            raise GameFileError(f"{where} : numéro {raw.get('number')} inattendu")
        coup = Coup(number, reliquat=self.reliquat)
        self.coups.append(coup)
        for rejection in raw.get("rejections", []):
            tirage = rejection["tirage"]
            expected_reliquat = coup.reliquat
            if not tirage.startswith(expected_reliquat):
                raise GameFileError(f"{where} : tirage rejeté {tirage} sans le reliquat")
            try:
                take_from_bag(self.bag, tirage[len(expected_reliquat):])
            except DrawError as exc:
                raise GameFileError(f"{where} : {exc}") from exc
            coup.new_letters = tirage[len(expected_reliquat):]
            self._return(coup, rejection.get("reason", ""))
        if raw.get("reliquat", "") != coup.reliquat:
            raise GameFileError(
                f"{where} : reliquat « {raw.get('reliquat')} » au lieu de « {coup.reliquat} »")
        try:
            take_from_bag(self.bag, str(raw.get("new_letters", "")))
        except DrawError as exc:
            raise GameFileError(f"{where} : {exc}") from exc
        coup.new_letters = str(raw.get("new_letters", ""))
        coup.manual = bool(raw.get("manual", False))
        coup.bag_left = self.bag_count
        if len(coup.tirage) > RACK_SIZE:
            raise GameFileError(f"{where} : tirage de plus de 7 lettres")
        top = raw.get("top")
        if top is not None:
            move = self._rebuild(top, where)
            try:
                self.play(move)
            except GameError as exc:
                raise GameFileError(f"{where} : {exc}") from exc

    def _rebuild(self, top: dict, where: str) -> Move:
        try:
            ref = Ref.parse(str(top["ref"]))
        except BadReference as exc:
            raise GameFileError(f"{where} : {exc}") from exc
        word = top["word"]
        fit = fit_word(self.board, ref, word)
        if isinstance(fit, str):
            raise GameFileError(f"{where} : top {word} {ref} impossible ({fit})")
        placement = realise(self.board, fit, frozenset(i for i in fit.circled if i in fit.new))
        if "score" in top and top["score"] != placement.score:
            raise GameFileError(
                f"{where} : le top {word} {ref} vaut {placement.score} points, pas {top['score']}")
        return placement.to_move()
