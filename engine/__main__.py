"""Command line of the engine: ``moves``, ``play``, ``corriger``."""

from __future__ import annotations

import argparse
import json
import sys
import time

from .cliparse import CommandError, FrenchParser, run_command
from .game import Game, GameError
from .lexicon import Lexicon, LexiconError
from .move import Position
from .movegen import generate_moves


def _lexicon(path: str | None) -> Lexicon:
    try:
        lexicon = Lexicon.load(path)
    except LexiconError as exc:
        raise CommandError(str(exc)) from exc
    report = lexicon.report
    if report.too_long or report.not_words or report.one_letter:
        print(f"liste de mots {lexicon.source} : {report.summary()}", file=sys.stderr)
    return lexicon


def cmd_moves(args: argparse.Namespace) -> int:
    lexicon = _lexicon(args.lexicon)
    status = 0
    for name in args.files:
        try:
            position = Position.load(name)
        except ValueError as exc:  # said, and the other positions are still listed
            if args.json:
                print(json.dumps({"position": name, "erreur": str(exc)}, ensure_ascii=False))
            print(f"erreur : {exc}", file=sys.stderr)
            status = 2
            continue
        start = time.perf_counter()
        moves = generate_moves(position.board, position.tirage, lexicon)
        ms = (time.perf_counter() - start) * 1000
        line = {"position": name, "ms": round(ms, 2), "moves": [m.to_dict() for m in moves]}
        print(json.dumps(line, ensure_ascii=False) if args.json else _table(name, ms, moves))
    return status


def _table(name: str, ms: float, moves: list) -> str:
    rows = [f"{name} : {len(moves)} coups en {ms:.1f} ms"]
    rows += [f"  {m.score:4d}  {str(m.ref):4s} {m.word}" for m in moves[:20]]
    return "\n".join(rows)


def cmd_play(args: argparse.Namespace) -> int:
    from .files import FileRefused, check_writable_target
    from .selfplay import self_play

    if args.out:
        try:  # before the game is played: a wrong --out is said at once
            check_writable_target(args.out, "enregistrement de la partie")
        except FileRefused as exc:
            raise CommandError(str(exc)) from exc
    lexicon = _lexicon(args.lexicon)

    def show(game: Game, moves: list, tops: list) -> None:
        coup = game.coups[-1] if game.coups else None
        if coup is None or coup.top is None:
            return
        rejected = f"  (rejetés : {', '.join(coup.rejections)})" if coup.rejections else ""
        print(f"coup {coup.number:2d}  {coup.reliquat or '-':>7s}+{coup.new_letters:<7s}"
              f"  {coup.top.word:15s} {str(coup.top.ref):4s} {coup.top.score:4d}"
              f"  ({len(moves)} coups, {len(tops)} top{'s' if len(tops) > 1 else ''}){rejected}")

    game = self_play(args.seed, lexicon, on_coup=show)
    print(f"fin de partie : {game.end_reason} — total des tops {game.total_score}")
    if args.out:
        try:
            game.save(args.out)
        except GameError as exc:
            raise CommandError(str(exc)) from exc
        print(f"partie enregistrée dans {args.out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = FrenchParser(prog="python -m engine", description="Moteur de Scrabble Duplicate")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE")
    p = sub.add_parser("moves", help="tous les coups possibles de positions")
    p.add_argument("--lexicon", "--lexique", dest="lexicon", metavar="LISTE",
                   help="liste de mots (un mot par ligne)")
    p.add_argument("--json", action="store_true", help="une ligne JSON par position")
    p.add_argument("files", nargs="+", metavar="POSITION",
                   help="fichiers de position (15 lignes de grille puis « tirage: LETTRES »)")
    p.set_defaults(func=cmd_moves)
    p = sub.add_parser("play", help="joue une partie seule, tirages aléatoires")
    p.add_argument("--seed", "--graine", dest="seed", type=int, default=1,
                   help="graine des tirages (défaut 1)")
    p.add_argument("--lexicon", "--lexique", dest="lexicon", metavar="LISTE",
                   help="liste de mots (un mot par ligne)")
    p.add_argument("--out", metavar="PARTIE.json", help="enregistre la partie (JSON)")
    p.set_defaults(func=cmd_play)
    sub.add_parser("corriger", help="corrige un bulletin (voir python -m engine corriger --help)",
                   add_help=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    raw = sys.argv[1:] if argv is None else argv
    if raw and raw[0] == "corriger":
        from .correction_cli import main as corriger

        return corriger(raw[1:])
    parser = build_parser()

    def run() -> int:
        args = parser.parse_args(raw)
        return args.func(args)

    return run_command(run, "python -m engine")


if __name__ == "__main__":
    sys.exit(main())
