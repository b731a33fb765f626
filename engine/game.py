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
        return cls(int(data.get("seconds_per_coup", 180)), bool(data.get("blitz", False)),
                   bool(data.get("auto_reject", True)))


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
        """Write atomically: a crash while saving never destroys the previous file."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(self.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(path)

    @classmethod
    def load(cls, path: str | Path) -> Game:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise GameFileError(f"fichier de partie introuvable : {path}") from exc
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise GameFileError(f"fichier de partie illisible ou endommagé : {path}") from exc
        return cls.from_dict(data, source=str(path))

    @classmethod
    def from_dict(cls, data: object, source: str = "partie") -> Game:
        """Replay a saved game, checking every coup against the bag and the grid."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise GameFileError(f"{source} : ce n'est pas un fichier de partie du kiosque")
        if data.get("version") != VERSION:
            raise GameFileError(f"{source} : version {data.get('version')} non prise en charge")
        try:
            game = cls(int(data["seed"]), GameSettings.from_dict(data.get("settings") or {}),
                       data.get("lexicon_sha256"))
            for i, raw in enumerate(data["coups"], start=1):
                game._replay_coup(i, raw)
            end = data.get("end")
        except GameFileError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise GameFileError(f"{source} : fichier de partie incohérent ({exc})") from exc
        if end is not None:
            game.end_reason = str(end)
        return game

    def _replay_coup(self, number: int, raw: dict) -> None:
        where = f"coup {number}"
        if self.coups and self.coups[-1].top is None:
            raise GameFileError(f"coup {number - 1} sans top suivi d'un autre coup")
        if raw.get("number") != number:
            raise GameFileError(f"{where} : numéro {raw.get('number')} inattendu")
        coup = Coup(number, reliquat=self.reliquat)
        self.coups.append(coup)
        for rejection in raw.get("rejections", []):
            tirage = str(rejection["tirage"])
            expected_reliquat = coup.reliquat
            if not tirage.startswith(expected_reliquat):
                raise GameFileError(f"{where} : tirage rejeté {tirage} sans le reliquat")
            try:
                take_from_bag(self.bag, tirage[len(expected_reliquat):])
            except DrawError as exc:
                raise GameFileError(f"{where} : {exc}") from exc
            coup.new_letters = tirage[len(expected_reliquat):]
            self._return(coup, str(rejection.get("reason", "")))
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
        word = str(top["word"])
        fit = fit_word(self.board, ref, word)
        if isinstance(fit, str):
            raise GameFileError(f"{where} : top {word} {ref} impossible ({fit})")
        placement = realise(self.board, fit, frozenset(i for i in fit.circled if i in fit.new))
        if "score" in top and int(top["score"]) != placement.score:
            raise GameFileError(
                f"{where} : le top {word} {ref} vaut {placement.score} points, pas {top['score']}")
        return placement.to_move()
