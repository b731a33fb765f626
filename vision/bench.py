"""``make bench`` for vision: read generated photos of *held-out* writing styles.

A seeded self-played game gives real coups; each virtual player writes one
of the better legal moves of a coup (sometimes a wrong score, sometimes a
raccord instead of the reference), a test-style writer fills the bulletin,
the photo effects apply, and the reader reads it with and without the
game's legal moves. Reported: per-field accuracy, whole-bulletin accuracy,
silent errors (a wrong field not flagged), share flagged, time per bulletin.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from dataclasses import dataclass

import numpy as np

from .demo import choose_content
from .glyphs import TEST_STYLES
from .reader import FLAG_THRESHOLD, BulletinReading, read_bulletin
from .synth import BulletinContent, render_bulletin

FIELDS = ("table", "word", "jokers", "ref", "score")
#: the tables of the benchmark's tournament: the kiosk knows its players' tables
TABLES = list(range(1, 120))


@dataclass
class Case:
    content: BulletinContent
    candidates: list
    board: object
    seed: int
    style: str


def make_cases(n: int, seed: int = 7) -> list[Case]:
    """``n`` bulletins over the coups of self-played games (seeded)."""
    from engine.lexicon import Lexicon
    from engine.selfplay import self_play

    lexicon = Lexicon.load()
    coups: list[tuple[object, list]] = []

    def keep(game, moves, tops) -> None:
        if moves:
            coups.append((game.board_before(len(game.coups)), moves))

    game_seed = seed
    while len(coups) < 10:
        self_play(game_seed, lexicon, on_coup=keep)
        game_seed += 1
    rng = np.random.default_rng(seed)
    cases = []
    for i in range(n):
        board, moves = coups[i % len(coups)]
        content = choose_content(moves, board, TABLES[int(rng.integers(len(TABLES)))], rng)
        style = TEST_STYLES[i % len(TEST_STYLES)].name
        cases.append(Case(content, moves, board, seed * 1000 + i, style))
    return cases


def _truth(content: BulletinContent) -> dict:
    return {
        "table": content.table,
        "word": content.word.upper(),
        "jokers": [i for i, ch in enumerate(content.word) if ch.islower()],
        "ref": content.ref,
        "score": content.score,
    }


def _got(reading: BulletinReading) -> dict:
    return {
        "table": reading.table.value if reading.table else None,
        "word": (reading.word.value or "").upper() if reading.word else None,
        "jokers": reading.jokers,
        "ref": reading.ref.value if reading.ref else None,
        "score": reading.score.value if reading.score else None,
    }


def _flagged(reading: BulletinReading, name: str) -> bool:
    if reading.status not in ("ok", "a_verifier"):
        return True
    return name in reading.flagged


def evaluate(
    cases: list[Case],
    constrained: bool,
    threshold: float,
    tesseract: bool = False,
    photos: dict | None = None,
) -> dict:
    right = {f: 0 for f in FIELDS}
    whole = silent = flagged = 0
    by_style: dict[str, list[int]] = {}
    times: list[float] = []
    silent_examples = []
    for case in cases:
        data = photos[case.seed]
        t = time.perf_counter()
        reading = read_bulletin(
            data,
            case.candidates if constrained else None,
            case.board if constrained else None,
            tables=TABLES if constrained else None,
            threshold=threshold,
            tesseract=tesseract,
        )
        times.append(time.perf_counter() - t)
        truth, got = _truth(case.content), _got(reading)
        ok_all = True
        for f in FIELDS:
            good = truth[f] == got[f]
            right[f] += good
            ok_all &= good
            if not good and not _flagged(reading, f):
                silent += 1
                silent_examples.append(
                    {"seed": case.seed, "field": f, "truth": truth[f], "read": got[f]}
                )
        whole += ok_all
        flagged += reading.status != "ok"
        by_style.setdefault(case.style, []).append(int(ok_all))
    n = max(len(cases), 1)
    return {
        "bulletins": len(cases),
        "constrained": constrained,
        "accuracy": {f: round(right[f] / n, 4) for f in FIELDS},
        "whole_bulletin": round(whole / n, 4),
        "silent_errors": silent,
        "flagged_share": round(flagged / n, 4),
        "seconds_per_bulletin": round(statistics.mean(times), 3) if times else 0.0,
        "silent_examples": silent_examples[:10],
        "whole_by_style": {k: round(sum(v) / len(v), 3) for k, v in sorted(by_style.items())},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Banc d'essai de la lecture des bulletins.")
    parser.add_argument(
        "--n", type=int, default=100, help="nombre de photos (300 pour la mesure complète)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--seuil", type=float, default=FLAG_THRESHOLD)
    parser.add_argument("--tesseract", action="store_true")
    parser.add_argument("--json", help="écrire les chiffres dans ce fichier")
    args = parser.parse_args(argv if argv is not None else [])
    start = time.perf_counter()
    cases = make_cases(args.n, args.seed)
    photos = {c.seed: render_bulletin(c.content, style=c.style, seed=c.seed)[0] for c in cases}
    print(
        f"{len(cases)} photos générées (styles de test : {', '.join(s.name for s in TEST_STYLES)}) "
        f"en {time.perf_counter() - start:.0f} s"
    )
    results = []
    for constrained in (True, False):
        r = evaluate(cases, constrained, args.seuil, args.tesseract, photos)
        results.append(r)
        label = "avec les coups légaux" if constrained else "sans contrainte"
        acc = " ".join(f"{k}={v:.1%}" for k, v in r["accuracy"].items())
        print(
            f"[{label}] {acc} | bulletin entier {r['whole_bulletin']:.1%} | "
            f"erreurs silencieuses {r['silent_errors']} | signalés {r['flagged_share']:.1%} | "
            f"{r['seconds_per_bulletin'] * 1000:.0f} ms/bulletin"
        )
        print(
            "    bulletin entier par style : "
            + ", ".join(f"{k} {v:.0%}" for k, v in r["whole_by_style"].items())
        )
        for ex in r["silent_examples"][:5]:
            print(f"    silencieuse : {ex}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(results, fh, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
