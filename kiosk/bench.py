"""make bench: the correction station driven with keys alone, key presses per bulletin.

The demo's 16 players hand in 40 bulletins over 3 coups (16, 16, 8; « O » gives the top to
the 8 others of the last coup). Each bulletin is drawn as a photo (:mod:`vision.synth`),
read by the real reader, and a scripted arbiter looks at what the screen shows: Enter when
the reading is right, otherwise E, the misread fields retyped (Tab between them), Enter to
save, Enter to confirm. The screen is drawn after every key, as the window does.

``python -m kiosk.bench --image kiosk/doc/correction.png`` also saves the correction
screen (1366×768) at a doubtful bulletin, for the README.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

COUPS = (16, 16, 8)  # bulletins per coup: 40 in all
#: (coup, table) photographed out of focus: unreadable, the arbiter types the whole bulletin
BLURRED = ((3, 7), (3, 8))
FIELDS = (("table", "table"), ("word", "mot"), ("ref", "référence"), ("score", "score"))
SIZE = (1366, 768)


class Arbiter:
    """Presses keys on the machine and counts them: commands apart from characters typed."""

    def __init__(self, machine, surface) -> None:
        self.machine = machine
        self.surface = surface
        self.commands = 0
        self.characters = 0
        self.draws: list[float] = []

    def key(self, name: str, text: str = "", command: bool = True) -> None:
        from .screens import compose

        self.machine.key(name, text)
        if command:
            self.commands += 1
        else:
            self.characters += 1
        start = time.perf_counter()
        compose(self.machine, self.surface)
        self.draws.append(time.perf_counter() - start)

    def type(self, text: str) -> None:
        for ch in text:
            if ch.islower():  # a circled letter: ? then the letter
                self.key("/", "?", command=False)
            self.key(ch.lower() if ch.isalpha() else ch, ch, command=False)


def run(out_dir: Path, image: Path | None = None) -> dict:
    import pygame

    from engine.lexicon import Lexicon

    from .demo import Autopilot, Written, players
    from .journal import Journal
    from .machine import Machine
    from .reading import read_photo
    from .session import Config, Session
    from .views import arbiter_rows

    lexicon = Lexicon.load()
    config = Config(seed=1, seconds=180, warning=30, players=players())
    journal = Journal.create(out_dir / "banc.partie", {"lexicon_sha256": lexicon.sha256},
                             first=("partie", config.to_dict()))
    session = Session(journal, lexicon)
    now = [1000.0]
    machine = Machine(session, lambda: now[0])
    pilot = Autopilot(machine, out_dir, photos=True)
    pygame.font.init()
    surface = pygame.Surface(SIZE)
    arbiter = Arbiter(machine, surface)
    per_bulletin: list[dict] = []
    reads: list[float] = []
    saved = image is None
    for number, count in enumerate(COUPS, start=1):
        for _ in range(3):  # tirage, annonce, chrono
            machine.key("space")
        now[0] += config.seconds + 1
        machine.tick()
        machine.key("space")  # the top
        machine.key("space")  # correction
        top = session.coup.top
        plan = pilot.plan(number)
        truth: dict[int, Written] = {}
        for table in range(1, count + 1):
            written = plan.get(table) or Written(table, top.word, str(top.ref), top.score)
            truth[table] = written
            path = pilot._photograph(number, written)
            if (number, table) in BLURRED:
                blur(path)
            start = time.perf_counter()
            machine.add_reading(read_photo(path, session, number))
            reads.append(time.perf_counter() - start)
        by_seq = {r.seq: pilot._table_of(r.photo) for r in machine.pending()}
        for _ in range(3 * count):
            if not machine.pending():
                break
            machine.next_work()
            row = arbiter_rows(machine)[machine.cursor]
            written = truth[by_seq[row.seq]]
            wanted = {name: str(value) for name, value in written.fields().items()}
            shown = {cell.name: cell.text for cell in row.fields}
            wrong = [n for n, label in FIELDS if shown[label] != wanted[n]]
            doubtful = wrong or any(cell.low for cell in row.fields)
            if not saved and doubtful and number == 2 and len(machine.recorded_tables()) >= 4:
                compose_and_save(machine, image)  # the README's picture: a bulletin to check
                saved = True
            before = (arbiter.commands, arbiter.characters)
            # the demo's players write no raccord: a raccord read is a stray mark, erased
            stray = str(session.pending[row.seq].extra.get("raccord") or "")
            if wrong or stray:
                arbiter.key("e")
                for name in wrong:
                    while machine.form.name != name:
                        arbiter.key("tab")
                    arbiter.type(wanted[name])
                if stray:
                    while machine.form.name != "raccord":
                        arbiter.key("tab")
                    for _ in stray:
                        arbiter.key("backspace", command=False)
                arbiter.key("return")
            arbiter.key("return")
            if machine.mode is not None or row.seq in session.pending:
                raise SystemExit(f"bulletin non confirmé : {machine.message}")
            per_bulletin.append({"wrong": len(wrong) + bool(stray), "commands": arbiter.commands - before[0],
                                 "characters": arbiter.characters - before[1],
                                 "table": written.table, "coup": number})
        if session.missing_tables(number):
            machine.key("o")
        machine.key("space")
        for table, written in truth.items():  # every result as the engine corrects the paper
            expected = session.propose(number, {**written.fields(), "coup": number})
            got = session.results.decision(table, number)
            if (got.outcome, got.score) != (expected.outcome, expected.score):
                raise SystemExit(f"coup {number} table {table} : {got.outcome} {got.score}, "
                                 f"attendu {expected.outcome} {expected.score}")
    journal.close()
    return {"bulletins": per_bulletin, "reads": reads, "draws": arbiter.draws}


def blur(path: Path) -> None:
    """The photo taken out of focus (too blurred to be read)."""
    import cv2

    image = cv2.imread(str(path))
    cv2.imwrite(str(path), cv2.GaussianBlur(image, (0, 0), 12))


def compose_and_save(machine, path: Path) -> None:
    import pygame

    from .screens import compose

    surface = pygame.Surface(SIZE)
    compose(machine, surface)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
    try:  # 256 colours: half the size, the photo still readable
        from PIL import Image

        Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)
    except ImportError:
        pass


def report(figures: dict) -> None:
    rows = figures["bulletins"]
    right = [r for r in rows if not r["wrong"]]
    fixed = [r for r in rows if r["wrong"]]
    whole = [r for r in rows if r["wrong"] == 4]
    print(f"correction au clavier : {len(rows)} bulletins photographiés, lus, confirmés "
          f"(16 joueurs de la démo, {len(COUPS)} coups, {len(BLURRED)} photos floues)")
    print(f"  lus justes : {len(right)} ({100 * len(right) / len(rows):.0f} %) — touches par "
          f"bulletin juste : {statistics.mean(r['commands'] for r in right):.2f} "
          f"(max {max(r['commands'] for r in right)} ; objectif 1)" if right else
          "  aucun bulletin lu juste")
    if fixed:
        print(f"  à corriger : {len(fixed)} — touches de commande par bulletin : "
              f"{statistics.mean(r['commands'] for r in fixed):.2f} (max "
              f"{max(r['commands'] for r in fixed)}), caractères tapés : "
              f"{statistics.mean(r['characters'] for r in fixed):.1f}")
    if whole:
        print(f"  retapés entièrement : {len(whole)} — touches de commande : max "
              f"{max(r['commands'] for r in whole)} (objectif ≤ 6)")
    else:
        print("  retapés entièrement : aucun")
    print(f"  en moyenne : {statistics.mean(r['commands'] for r in rows):.2f} touche(s) de "
          f"commande et {statistics.mean(r['characters'] for r in rows):.1f} caractère(s) "
          "par bulletin")
    reads = sorted(figures["reads"])
    draws = sorted(figures["draws"])
    print(f"  lecture d'une photo (avec le coup précédent si besoin) : médiane "
          f"{1000 * statistics.median(reads):.0f} ms")
    print(f"  écran de correction {SIZE[0]}×{SIZE[1]} redessiné après chaque touche : médiane "
          f"{1000 * statistics.median(draws):.0f} ms, 95e centile "
          f"{1000 * draws[int(0.95 * (len(draws) - 1))]:.0f} ms ({len(draws)} touches)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.bench")
    parser.add_argument("--image", type=Path, help="enregistrer l'écran de correction (PNG)")
    args = parser.parse_args(argv if argv is not None else [])
    with tempfile.TemporaryDirectory(prefix="banc-correction-") as tmp:
        report(run(Path(tmp), args.image))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
