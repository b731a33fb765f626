"""``python -m engine corriger``: correct one bulletin and print the decision as JSON.

::

    python -m engine corriger (--game GAME.json | --position FILE.pos) --coup N \\
        --bulletin BULLETIN.json [--lexicon PATH] [--reglage NOM=VALEUR]

The position file holds the grid before the coup and its tirage; with a game
file the grid is rebuilt from the tops of the coups before ``N``. Errors
(unreadable file, coup not played yet) go to stderr in French, exit code 2.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields
from pathlib import Path

from .board import Board
from .bulletin import Bulletin
from .correction import CorrectionSettings, correct


class CliError(Exception):
    """A French message for the user; exit code 2."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m engine corriger",
        description="Corrige un bulletin selon le règlement et affiche la décision (JSON).",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--game", help="partie enregistrée (JSON)")
    where.add_argument("--position", help="position : grille avant le coup et tirage")
    parser.add_argument("--coup", type=int, required=True, help="numéro du coup")
    parser.add_argument(
        "--bulletin", required=True, help="bulletin (JSON), - pour l'entrée standard"
    )
    parser.add_argument("--lexicon", help="liste de mots (un mot par ligne)")
    parser.add_argument(
        "--reglage",
        action="append",
        default=[],
        metavar="NOM=VALEUR",
        help="choix d'arbitrage : " + ", ".join(f.name for f in fields(CorrectionSettings)),
    )
    return parser


def _settings(items: list[str]) -> CorrectionSettings:
    known = {f.name for f in fields(CorrectionSettings)}
    values: dict[str, bool] = {}
    for item in items:
        name, _, raw = item.partition("=")
        if name not in known or raw.lower() not in ("oui", "non", "true", "false", "1", "0"):
            raise CliError(
                f"réglage non valable : {item} "
                f"(attendu NOM=oui|non parmi {', '.join(sorted(known))})"
            )
        values[name] = raw.lower() in ("oui", "true", "1")
    return CorrectionSettings(**values)


def _read_bulletin(name: str) -> Bulletin:
    try:
        text = sys.stdin.read() if name == "-" else Path(name).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise CliError(f"bulletin illisible : {name} ({exc})") from exc
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(
            f"bulletin illisible : {name} n'est pas du JSON ({exc.msg}, ligne {exc.lineno})"
        ) from exc
    return Bulletin.from_dict(data)


def _position(args: argparse.Namespace) -> tuple[Board, str, dict | None]:
    if args.coup < 1:
        raise CliError(f"numéro de coup non valable : {args.coup}")
    if args.position:
        from .move import Position

        try:
            position = Position.load(args.position)
        except ValueError as exc:
            raise CliError(str(exc)) from exc
        return position.board, position.tirage, None
    from .game import Game, GameError

    try:
        game = Game.load(args.game)
    except (GameError, ValueError, OSError) as exc:
        raise CliError(f"partie illisible : {args.game} ({exc})") from exc
    if args.coup > len(game.coups):
        raise CliError(
            f"coup {args.coup} pas encore joué ({len(game.coups)} coup(s) dans la partie)"
        )
    coup = game.coups[args.coup - 1]
    top = coup.top.to_dict() if coup.top else None
    return game.board_before(args.coup), coup.tirage, top


def _lexicon(path: str | None):
    from .lexicon import Lexicon, LexiconError

    try:
        return Lexicon.load(path)
    except (LexiconError, OSError) as exc:
        raise CliError(f"liste de mots illisible : {exc}") from exc


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = _settings(args.reglage)
        bulletin = _read_bulletin(args.bulletin)
        if bulletin.coup is not None and bulletin.coup != args.coup:
            raise CliError(f"le bulletin porte le coup {bulletin.coup}, pas le coup {args.coup}")
        board, tirage, top = _position(args)
        lexicon = _lexicon(args.lexicon)
    except CliError as exc:
        print(f"erreur : {exc}", file=sys.stderr)
        return 2
    decision = correct(board, tirage, lexicon, bulletin, settings=settings)
    output = {"coup": args.coup, "table": bulletin.table, "tirage": tirage, **decision.to_dict()}
    if top is not None:
        output["top"] = top
    print(json.dumps(output, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
