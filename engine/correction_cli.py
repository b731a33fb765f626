"""``python -m engine corriger``: correct one bulletin and print the decision as JSON.

::

    python -m engine corriger (--game GAME.json | --position FILE.pos) --coup N \\
        --bulletin BULLETIN.json [--lexicon PATH] [--reglage NOM=VALEUR]

The position file holds the grid before the coup and its tirage; with a game
file the grid is rebuilt from the tops of the coups before ``N``. Errors
(unreadable file, coup not played yet, bad option) go to stderr in French,
exit code 2. A bulletin that is JSON but not a bulletin (a list, a number) is
not an error: it is corrected as an unreadable bulletin (zéro).

The decision printed: ``outcome`` (``ok``, ``avertissement``, ``penalite``,
``zero``), ``score`` (the real score of the placement retained, 0 for a zéro),
``penalty`` (5 for a pénalité, else 0: the rules deduct it from the total),
``score_net`` (``score`` − ``penalty``, what the coup adds to the total before
the warnings counted over the game), ``ref``, ``word``, ``reasons`` (French),
and the ``candidates`` considered with their scores.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import fields

from .board import Board
from .bulletin import Bulletin
from .cliparse import CommandError as CliError
from .cliparse import FrenchParser, run_command
from .correction import CorrectionSettings, correct
from .files import LIMITS, FileRefused, read_stdin_text, read_text


def _parser() -> argparse.ArgumentParser:
    parser = FrenchParser(
        prog="python -m engine corriger",
        description="Corrige un bulletin selon le règlement et affiche la décision (JSON).",
        epilog=(
            "score : score réel du placement retenu ; penalty : 5 pour une pénalité ; "
            "score_net = score - penalty."
        ),
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--game", "--partie", dest="game", metavar="PARTIE.json",
                       help="partie enregistrée (JSON)")
    where.add_argument("--position", metavar="POSITION",
                       help="position : grille avant le coup et tirage")
    parser.add_argument("--coup", type=int, required=True, metavar="N", help="numéro du coup")
    parser.add_argument(
        "--bulletin", required=True, metavar="BULLETIN.json",
        help="bulletin (JSON), - pour l'entrée standard"
    )
    parser.add_argument("--lexicon", "--lexique", dest="lexicon", metavar="LISTE",
                        help="liste de mots (un mot par ligne)")
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


def _read_text(name: str, what: str, limit: int) -> str:
    """A text file (``-``: standard input): regular file, size bounded, French errors."""
    try:
        if name == "-":
            return read_stdin_text(what, limit)
        return read_text(name, what, limit)
    except FileRefused as exc:
        raise CliError(str(exc)) from exc


def _read_bulletin(name: str) -> Bulletin:
    from .files import parse_json

    text = _read_text(name, "bulletin", LIMITS["bulletin"])
    try:
        data = parse_json(text, "bulletin", "entrée standard" if name == "-" else name)
    except FileRefused as exc:
        raise CliError(str(exc)) from exc
    return Bulletin.from_dict(data)


def _position(args: argparse.Namespace, lexicon) -> tuple[Board, str, dict | None]:
    if args.coup < 1:
        raise CliError(f"numéro de coup non valable : {args.coup}")
    if args.position:
        from .move import Position

        text = _read_text(args.position, "fichier de position", LIMITS["position"])
        try:
            position = Position.from_text(text)
        except ValueError as exc:
            raise CliError(str(exc)) from exc
        return position.board, position.tirage, None
    from .game import Game, GameError

    try:
        game = Game.load(args.game, lexicon)
    except GameError as exc:
        raise CliError(f"partie illisible : {exc}") from exc
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
    except LexiconError as exc:
        raise CliError(str(exc)) from exc


def main(argv: list[str] | None = None) -> int:
    parser = _parser()

    def run() -> int:
        args = parser.parse_args(argv)
        settings = _settings(args.reglage)
        bulletin = _read_bulletin(args.bulletin)
        if bulletin.coup is not None and bulletin.coup != args.coup:
            raise CliError(f"le bulletin porte le coup {bulletin.coup}, pas le coup {args.coup}")
        lexicon = _lexicon(args.lexicon)
        board, tirage, top = _position(args, lexicon)
        decision = correct(board, tirage, lexicon, bulletin, settings=settings)
        output = {"coup": args.coup, "table": bulletin.table, "tirage": tirage,
                  **decision.to_dict()}
        output["score_net"] = decision.score - decision.penalty
        if top is not None:
            output["top"] = top
        print(json.dumps(output, ensure_ascii=False, indent=1))
        return 0

    return run_command(run, "python -m engine corriger")


if __name__ == "__main__":
    sys.exit(main())
