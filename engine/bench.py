"""Engine benchmark: word list compile/load, and move generation on self-played positions.

Positions come from seeded self-played games (each coup's tirage, plus a
two-joker variant of every 4th coup). The compiled generator is timed on all
of them over several rounds, the pure-Python one on the positions of the first
games, interleaved position by position with the compiled one (the machine is
shared: pairs keep the ratio honest), and, with ``--eliot CMD``, Eliot (the
open C++ peer) through a driver of the caller's: ``CMD FILE`` reads positions
in the ``Position`` text format, separated by blank lines, and prints one line
``MOVES MILLISECONDS`` a position. Each figure is the median over rounds for a
position, then median / p95 / max over positions.
"""

from __future__ import annotations

import argparse
import random
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from .board import Board
from .game import Game
from .lexicon import Lexicon
from .move import Position
from .movegen import compiled, generate_moves, python_rows, top_moves

Sample = tuple[Board, str]


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _ms(fn, *args) -> float:
    start = time.perf_counter()
    fn(*args)
    return (time.perf_counter() - start) * 1000


def positions(lexicon: Lexicon, games: int) -> list[tuple[int, Sample]]:
    """(game number, (grid, tirage)) for every coup of ``games`` self-played games and variants."""
    out: list[tuple[int, Sample]] = []
    coups = 0
    for seed in range(1, games + 1):
        game = Game(seed=seed, lexicon_sha256=lexicon.sha256)
        while not game.finished:
            coup = game.draw()
            if game.finished:
                break
            out.append((seed, (game.board.copy(), coup.tirage)))
            coups += 1
            if coups % 4 == 0 and coup.tirage.count("?") < 2:
                # Two-joker tirages are rare in play: time a variant of this position too.
                variant = coup.tirage.replace("?", "")[: len(coup.tirage) - 2] + "??"
                out.append((seed, (game.board.copy(), variant)))
            moves = generate_moves(game.board, coup.tirage, lexicon)
            tops = top_moves(moves, len(coup.tirage), game.bag_count == 0)
            if not tops:
                game.end("aucun coup possible")
            else:
                game.play(tops[0])
    return out


def _row(label: str, values: list[float]) -> str:
    if not values:
        return f"{label:>8s} {0:6d} {'-':>9s} {'-':>9s} {'-':>9s}"
    return (f"{label:>8s} {len(values):6d} {statistics.median(values):9.2f} {_pct(values, 0.95):9.2f} "
            f"{max(values):9.2f}")


def _groups(samples: list[Sample], times: list[float]) -> list[tuple[str, list[float]]]:
    by = {k: [t for (_, tirage), t in zip(samples, times, strict=True) if tirage.count("?") == k]
          for k in (0, 1, 2)}
    return [("tous", by[0] + by[1]), *((str(k), v) for k, v in by.items())]


def _table(title: str, samples: list[Sample], times: list[float]) -> None:
    print(f"{title}\n{'jokers':>8s} {'coups':>6s} {'médiane':>9s} {'p95':>9s} {'max':>9s}  (ms)")
    for label, group in _groups(samples, times):
        print(_row(label, group))


def _eliot(command: str, samples: list[Sample], rounds: int) -> tuple[list[float], list[int]] | None:
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n".join(Position(board, tirage).to_text() for board, tirage in samples))
    runs: list[list[float]] = []
    counts: list[int] = []
    for _ in range(rounds):
        try:
            done = subprocess.run([*shlex.split(command), handle.name], capture_output=True, text=True,
                                  timeout=600, check=True)
            lines = [line.split() for line in done.stdout.splitlines() if line.strip()]
            counts = [int(parts[0]) for parts in lines]
            runs.append([float(parts[1]) for parts in lines])
        except (OSError, subprocess.SubprocessError, ValueError, IndexError) as exc:
            print(f"Eliot : mesure impossible ({exc})")
            return None
        if len(runs[-1]) != len(samples):
            print(f"Eliot : {len(runs[-1])} résultats pour {len(samples)} positions, mesure écartée")
            return None
    Path(handle.name).unlink()
    return [statistics.median(column) for column in zip(*runs, strict=True)], counts


def _user_list_compile(lexicon: Lexicon, rounds: int) -> float:
    """Cold compile of a list as a user gives it (his ODS: lower case, accents, CRLF), which
    goes through the whole normaliser rather than the compiler's fast path."""
    rng = random.Random(3)
    lines = []
    for word in lexicon.dawg.words():
        word = word.lower() if rng.random() < 0.5 else word
        if rng.random() < 0.3:
            word = word.replace("e", "é", 1).replace("E", "É", 1)
        lines.append(word)
    times = []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "liste.txt"
        path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
        for round_ in range(rounds):
            times.append(_ms(Lexicon.load, str(path), Path(tmp) / f"cache{round_}"))
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bench")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--python-games", type=int, default=5,
                        help="parties dont les positions sont aussi jouées par le générateur Python")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--lexicon")
    parser.add_argument("--eliot", help="commande pilote d'Eliot (voir la doc du module)")
    args = parser.parse_args(argv or [])

    cold: list[float] = []
    warm: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        for round_ in range(args.rounds):  # interleaved: compile in a fresh folder, then load its cache
            folder = Path(tmp) / str(round_)
            cold.append(_ms(Lexicon.load, args.lexicon, folder))
            warm.append(_ms(Lexicon.load, args.lexicon, folder))
        lexicon = Lexicon.load(args.lexicon, cache_dir=Path(tmp) / "0")
    print(f"lexique : {len(lexicon)} mots, {lexicon.dawg.node_count} nœuds, {lexicon.dawg.edge_count} arcs"
          f" ; générateur {'compilé' if compiled() else 'Python (module compilé absent)'}")
    print(f"compilation (à froid) : médiane {statistics.median(cold):.0f} ms ; "
          f"chargement (cache) : médiane {statistics.median(warm):.2f} ms  ({args.rounds} essais alternés)")
    print(f"liste d'un utilisateur à normaliser (minuscules, accents, {len(lexicon)} mots) : "
          f"compilation à froid, médiane {_user_list_compile(lexicon, args.rounds):.0f} ms")

    listed = positions(lexicon, args.games)
    samples = [sample for _, sample in listed]
    runs = [[_ms(generate_moves, board, tirage, lexicon) for board, tirage in samples]
            for _ in range(args.rounds)]
    fast = [statistics.median(column) for column in zip(*runs, strict=True)]
    counts = [len(generate_moves(board, tirage, lexicon)) for board, tirage in samples]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n{args.games} parties, {len(samples)} positions (avec les variantes à deux jokers), "
          f"{args.rounds} passes ; coups légaux par position : médiane {statistics.median(counts):.0f}, "
          f"max {max(counts)}")
    _table("générateur compilé, liste complète des coups :", samples, fast)
    print(f"mémoire maximale du processus (liste chargée, tous les coups générés) : {peak:.0f} Mo")

    subset = [i for i, (game, _) in enumerate(listed) if game <= args.python_games]
    paired_fast: list[float] = []
    paired_slow: list[float] = []
    for i in subset:  # interleaved, position by position
        board, tirage = samples[i]
        paired_fast.append(_ms(generate_moves, board, tirage, lexicon))
        paired_slow.append(_ms(python_rows, board, tirage, lexicon))
    chosen = [samples[i] for i in subset]
    print()
    _table(f"générateur Python (référence), positions des {args.python_games} premières parties :",
           chosen, paired_slow)
    ratios = [s / f for s, f in zip(paired_slow, paired_fast, strict=True) if f > 0]
    print(f"rapport Python / compilé, position par position : médiane {statistics.median(ratios):.0f}×, "
          f"p5 {_pct(ratios, 0.05):.0f}×")

    if args.eliot:
        measured = _eliot(args.eliot, samples, args.rounds)
        if measured is not None:
            eliot, eliot_counts = measured
            print()
            _table("Eliot (même positions, pilote externe) :", samples, eliot)
            same = sum(a == b for a, b in zip(counts, eliot_counts, strict=True))
            print(f"nombre de coups identique sur {same}/{len(samples)} positions")
            ratios = [f / e for f, e in zip(fast, eliot, strict=True) if e > 0]
            print(f"rapport compilé / Eliot, position par position : médiane {statistics.median(ratios):.2f}")
    else:
        print("\nEliot : non mesuré (--eliot COMMANDE pour le comparer)")
    print("cibles : médiane ≤ 1 ms, p95 ≤ 30 ms, deux jokers p95 ≤ 60 ms ; "
          "chargement ≤ 5 ms ; compilation ≤ 1 s ; ≤ 60 Mo")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
