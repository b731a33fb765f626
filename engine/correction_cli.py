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
from pathlib import Path

from .board import Board
from .bulletin import Bulletin
from .correction import CorrectionSettings, correct


class CliError(Exception):
    """A French message for the user; exit code 2."""


_ARGPARSE_FR = (
    ("the following arguments are required: ", "arguments obligatoires manquants : "),
    ("one of the arguments ", "un des arguments "),
    (" is required", " est obligatoire"),
    ("not allowed with argument ", "incompatible avec l'argument "),
    ("unrecognized arguments: ", "arguments inconnus : "),
    ("expected one argument", "valeur attendue"),
    ("invalid int value: ", "nombre entier attendu, lu : "),
    ("ambiguous option: ", "option ambiguë : "),
    ("argument ", "argument "),
)


class _FrenchParser(argparse.ArgumentParser):
    """argparse with its error messages in French (exit code 2, as argparse)."""

    def error(self, message: str):  # type: ignore[override]
        for english, french in _ARGPARSE_FR:
            message = message.replace(english, french)
        self.print_usage(sys.stderr)
        self.exit(2, f"erreur : {message}\n")

    def format_usage(self) -> str:
        return super().format_usage().replace("usage:", "usage :", 1)

    def format_help(self) -> str:
        text = super().format_help().replace("usage:", "usage :", 1)
        text = text.replace("show this help message and exit", "affiche cette aide")
        return text.replace("options:", "options :").replace("optional arguments:", "options :")


def _parser() -> argparse.ArgumentParser:
    parser = _FrenchParser(
        prog="python -m engine corriger",
        description="Corrige un bulletin selon le règlement et affiche la décision (JSON).",
        epilog=(
            "score : score réel du placement retenu ; penalty : 5 pour une pénalité ; "
            "score_net = score - penalty."
        ),
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


def _read_text(name: str, what: str) -> str:
    """A UTF-8 text file (``-``: standard input), or a French CliError."""
    try:
        if name == "-":
            return sys.stdin.read()
        return Path(name).read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise CliError(f"{what} introuvable : {name}") from exc
    except IsADirectoryError as exc:
        raise CliError(f"{what} illisible : {name} est un dossier") from exc
    except PermissionError as exc:
        raise CliError(f"{what} illisible : {name} (accès refusé)") from exc
    except UnicodeDecodeError as exc:
        raise CliError(f"{what} illisible : {name} n'est pas un texte UTF-8") from exc
    except OSError as exc:
        raise CliError(f"{what} illisible : {name} ({exc.strerror or exc})") from exc


def _read_bulletin(name: str) -> Bulletin:
    text = _read_text(name, "bulletin")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CliError(
            f"bulletin illisible : {name} n'est pas du JSON ({exc.msg}, ligne {exc.lineno})"
        ) from exc
    except (ValueError, RecursionError) as exc:
        raise CliError(
            f"bulletin illisible : {name} (nombre trop long ou imbrication trop profonde)"
        ) from exc
    return Bulletin.from_dict(data)


def _position(args: argparse.Namespace) -> tuple[Board, str, dict | None]:
    if args.coup < 1:
        raise CliError(f"numéro de coup non valable : {args.coup}")
    if args.position:
        from .move import Position

        try:
            position = Position.from_text(_read_text(args.position, "fichier de position"))
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
    output["score_net"] = decision.score - decision.penalty
    if top is not None:
        output["top"] = top
    print(json.dumps(output, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
