"""Engine benchmark: lexicon compile/load and move generation over 20 seeded self-played games."""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from pathlib import Path

from .game import Game
from .lexicon import Lexicon
from .movegen import generate_moves, top_moves


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bench")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--lexicon")
    args = parser.parse_args(argv or [])

    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        Lexicon.load(args.lexicon, cache_dir=Path(tmp))
        cold = time.perf_counter() - start
        start = time.perf_counter()
        lexicon = Lexicon.load(args.lexicon, cache_dir=Path(tmp))
        warm = time.perf_counter() - start
    print(f"lexique : {len(lexicon)} mots, {lexicon.dawg.node_count} nœuds")
    print(f"compilation (à froid) : {cold:.2f} s ; chargement (cache) : {warm * 1000:.0f} ms")

    times: dict[int, list[float]] = {0: [], 1: [], 2: []}
    counts: list[int] = []
    coups = 0
    for seed in range(1, args.games + 1):
        game = Game(seed=seed, lexicon_sha256=lexicon.sha256)
        while not game.finished:
            coup = game.draw()
            if game.finished:
                break
            start = time.perf_counter()
            moves = generate_moves(game.board, coup.tirage, lexicon)
            elapsed = (time.perf_counter() - start) * 1000
            times[coup.tirage.count("?")].append(elapsed)
            counts.append(len(moves))
            coups += 1
            if coups % 4 == 0 and coup.tirage.count("?") < 2:
                # Two-joker tirages are rare in play: time a variant of this position too.
                variant = coup.tirage.replace("?", "")[: len(coup.tirage) - 2] + "??"
                start = time.perf_counter()
                generate_moves(game.board, variant, lexicon)
                times[2].append((time.perf_counter() - start) * 1000)
            tops = top_moves(moves, len(coup.tirage), game.bag_count == 0)
            if not tops:
                game.end("aucun coup possible")
            else:
                game.play(tops[0])
    every = times[0] + times[1]
    print(f"{args.games} parties, {coups} coups")
    print(f"{'jokers':>8s} {'coups':>6s} {'médiane':>9s} {'p95':>9s} {'max':>9s}  (ms, liste complète)")
    print("(la ligne « 2 » compte aussi des variantes à deux jokers des positions jouées)")
    for label, group in [("tous", every), *((str(k), v) for k, v in times.items())]:
        if group:
            print(f"{label:>8s} {len(group):6d} {statistics.median(group):9.1f} "
                  f"{_pct(group, 0.95):9.1f} {max(group):9.1f}")
    print(f"coups légaux par coup : médiane {statistics.median(counts):.0f}, max {max(counts)}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"mémoire maximale du processus : {peak:.0f} Mo")
    print("cibles : médiane ≤ 15 ms, p95 ≤ 80 ms, deux jokers ≤ 400 ms ; "
          "cache ≤ 1 s ; compilation ≤ 60 s ; ≤ 300 Mo")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
