"""The demo: a virtual juge-arbitre, arbiter and 16 virtual players drive a real game.

Everything the autopilot does goes through the same keys and the same
machine as a person would; each action is chosen from the game's state and
the seed only, so a demo killed at any moment and resumed (``kiosk
reprendre``) takes the same decisions and ends with the same results.

The players mostly play the top; some play a lower move, and a few make the
mistakes the rules sanction (a wrong score: avertissement, four of them: a
5-point penalty; a wrong reference: pénalité; a word not formable: zéro).
On one coup a single player finds the top: a solo. Their bulletins are drawn
as photos by :mod:`vision.synth`, read by the bulletin reader, checked by the
virtual arbiter (who fixes what was misread, as a person looking at the paper
would) and confirmed; "top à tous les restants" covers the others.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from engine.board import Ref
from engine.correction import Outcome
from engine.move import Move

from .machine import EDITABLE, Machine
from .reading import read_photo

PLAYERS = (
    "Anne Moreau", "Bruno Lefèvre", "Claire Dubois", "David Laurent", "Élise Girard",
    "François Roux", "Gisèle Fontaine", "Hugo Chevalier", "Inès Lambert", "Jacques Bonnet",
    "Karine Mercier", "Louis Faure", "Marie Blanc", "Nicolas Garnier", "Odile Perrin",
    "Pierre Rousseau",
)
#: the coup on which the juge-arbitre rejects the tirage by hand (R)
REJECT_COUP = 3
SOLO_COUP = 5
SOLO_TABLE = 7
#: (coup, table, mistake): what the rules sanction, spread over the game
MISTAKES = {
    (2, 3): "score", (3, 5): "reference", (4, 9): "non_formable",
    (6, 3): "score", (7, 3): "score", (8, 3): "score",
}
EXPECTED = {"score": Outcome.AVERTISSEMENT, "reference": Outcome.PENALITE,
            "non_formable": Outcome.ZERO}


def players() -> list[dict]:
    return [{"table": i + 1, "name": name, "club": "Club de démonstration"}
            for i, name in enumerate(PLAYERS)]


@dataclass(frozen=True)
class Written:
    """What a virtual player writes on his bulletin."""

    table: int
    word: str
    ref: str
    score: int

    def fields(self) -> dict:
        return {"table": self.table, "word": self.word, "ref": self.ref, "score": self.score}


class VirtualClock:
    """A clock the autopilot moves forward: the countdown's calls fall without waiting."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += max(0.0, seconds)


class Autopilot:
    def __init__(self, machine: Machine, out_dir: Path, photos: bool = True,
                 advance=None) -> None:
        self.machine = machine
        self.out_dir = Path(out_dir)
        self.photos = photos
        self.advance_clock = advance  # None: real time, the countdown runs by itself
        self.seed = machine.config.seed
        self._plans: dict[int, dict[int, Written]] = {}
        self._helped = False
        self._left_waiting: set[int] = set()  # readings confirm() refused

    # -- what the players write -----------------------------------------------------------------
    def plan(self, number: int) -> dict[int, Written]:
        """The bulletins that are not simply the top, by table (deterministic)."""
        if number in self._plans:
            return self._plans[number]
        s = self.machine.session
        moves, tops = s.moves(number)
        top = s.game.coups[number - 1].top
        lower = [m for m in moves if m.score < top.score]
        tables = sorted(s.results.players)
        rng = random.Random(f"{self.seed}/joueurs/{number}")
        plan: dict[int, Written] = {}
        if number == SOLO_COUP and lower:
            for table in tables:
                if table != SOLO_TABLE:
                    plan[table] = self._write(table, lower[min(len(lower) - 1, rng.randrange(3))])
        elif lower:
            for table in rng.sample(tables, min(3, len(tables))):
                plan[table] = self._write(table, lower[rng.randrange(min(20, len(lower)))])
        for (coup, table), mistake in MISTAKES.items():
            if coup == number and table in tables:
                wrong = self._mistake(number, table, top, moves, mistake)
                if wrong is not None:
                    plan[table] = wrong
        self._plans[number] = plan
        return plan

    @staticmethod
    def _write(table: int, move: Move) -> Written:
        return Written(table, move.word, str(move.ref), move.score)

    def _mistake(self, number: int, table: int, top: Move, moves: list[Move],
                 kind: str) -> Written | None:
        """A bulletin with the mistake, kept only if the engine sanctions it as intended."""
        s = self.machine.session
        variants: list[Written] = []
        if kind == "score":
            variants = [Written(table, top.word, str(top.ref), top.score + d) for d in (2, 3, 5)]
        elif kind == "reference":
            for dr, dc in ((0, 1), (0, -1), (1, 0), (-1, 0), (0, 2), (2, 0)):
                try:
                    ref = Ref(top.ref.row + dr, top.ref.col + dc, top.ref.horizontal)
                except ValueError:
                    continue
                variants.append(Written(table, top.word, str(ref), top.score))
        elif kind == "non_formable":
            tirage = s.game.coups[number - 1].tirage
            for letter in "ZXWKYJQ":
                if letter not in tirage and letter not in top.word.upper():
                    variants.append(Written(table, letter + top.word[1:], str(top.ref), top.score))
        for written in variants:
            decision = s.propose(number, {**written.fields(), "coup": number})
            if decision.outcome is EXPECTED[kind]:
                return written
        return None

    # -- photos -----------------------------------------------------------------------------------
    def photo_path(self, number: int, table: int) -> Path:
        return self.out_dir / "bulletins" / f"coup{number:02d}" / f"table{table:02d}.jpg"

    def _photograph(self, number: int, written: Written) -> Path:
        from vision.synth import BulletinContent, Mistakes, render_bulletin

        path = self.photo_path(number, written.table)
        if not path.exists():
            content = BulletinContent(written.table, written.word, written.ref, written.score)
            jpeg, _ = render_bulletin(content, seed=self.seed * 1000 + number * 20 + written.table,
                                      mistakes=Mistakes(crossed_out=0.05))
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_bytes(jpeg)
            tmp.replace(path)  # a demo killed while writing never leaves half a photo
        return path

    def _table_of(self, photo: str | None) -> int | None:
        name = Path(photo or "").stem
        return int(name[5:]) if name.startswith("table") and name[5:].isdigit() else None

    # -- one action at a time -------------------------------------------------------------------
    def act(self) -> bool:
        """Do the next thing a juge-arbitre would do; False once the game is over."""
        m = self.machine
        s = m.session
        if m.mode == "rejet":  # the juge-arbitre confirms rejecting a valid tirage
            m.key("o")
            return True
        if m.mode is not None:
            m.key("escape")
            return True
        step = s.step
        coup = s.coup
        if step == "fin":
            return False
        if step == "accueil" and not self._helped:  # the keys, shown once before the game
            self._helped = True
            m.key("h")
            return True
        if step == "tirage" and coup is not None and coup.number == REJECT_COUP \
                and coup.tirage and not coup.rejections and m.flash_rejet is None \
                and m.config.draw_mode != "fichier":  # a pre-drawn game's tirages are imposed
            m.key("r")
            return True
        if step == "chrono":
            if m.countdown is None:
                m.restore()
            elif m.countdown.paused:
                m.key("p")
            elif self.advance_clock is not None:
                wait = m.countdown.next_deadline(m.clock())
                self.advance_clock(wait or 0.0)
            m.tick()
            return True
        if step == "correction":
            return self._correct(coup.number)
        m.key("space")
        return True

    def _correct(self, number: int) -> bool:
        m = self.machine
        s = m.session
        plan = self.plan(number)
        waiting = {self._table_of(r.photo): r for r in m.pending() if r.coup == number}
        for table, written in sorted(plan.items()):
            if table in waiting or s.results.history(table, number):
                continue
            if self.photos:
                m.add_reading(read_photo(self._photograph(number, written), s, number))
            else:
                fields = {k: {"value": v, "confidence": None} for k, v in written.fields().items()}
                m.add_reading({"coup": number, "photo": f"saisie/table{table:02d}",
                               "status": "saisie", "message": "saisi par l'arbitre",
                               "fields": fields})
            return True
        for reading in m.pending():
            if reading.coup != number:
                continue  # an earlier coup's photo from another station: for a human arbiter
            table = self._table_of(reading.photo)
            truth = plan.get(table)
            if truth is None:  # not one of ours (another station): confirm as read
                if reading.seq in self._left_waiting:
                    continue  # refused (unknown table…): left for a human arbiter
                self._left_waiting.add(reading.seq)
                m.confirm(reading.seq)
                return True
            for name in EDITABLE:
                value = truth.fields()[name]
                if (reading.fields.get(name) or {}).get("value") != value:
                    m.edit(reading.seq, name, str(value))
                    return True
            m.confirm(reading.seq)
            return True
        if s.missing_tables(number):
            m.key("o")
            return True
        m.key("space")
        return True
