"""``python -m display``: snapshots of a saved game, and a replay on a real screen.

    python -m display snapshot --game PARTIE.json --coup 5 --size 1920x1080 --out coup5.png
    python -m display rejouer --game PARTIE.json --window 1280x720
"""

from __future__ import annotations

import argparse
import os
import sys

from engine.cliparse import CommandError, FrenchParser, run_command

from .view import Screen
from .window import parse_size

SCREENS = {screen.value: screen for screen in Screen}


def _load(path: str):
    from engine.game import Game, GameFileError

    try:
        return Game.load(path)
    except GameFileError as exc:
        raise CommandError(str(exc)) from None


def cmd_snapshot(args: argparse.Namespace) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from engine.files import FileRefused, check_writable_target

    try:  # said before any drawing: a folder, a missing folder, a device
        out = check_writable_target(args.out, "image à écrire")
    except FileRefused as exc:
        raise CommandError(str(exc)) from None
    import pygame

    from .from_game import view_for
    from .render import render

    game = _load(args.game)
    screen = SCREENS[args.ecran]
    try:
        view = view_for(game, args.coup, screen, args.chrono)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    pygame.display.init()
    pygame.font.init()
    surface = pygame.Surface(args.size)
    render(view, surface)
    tmp = out.with_name(f".{out.name}.{os.getpid()}.png")  # pygame picks the format by suffix
    try:
        pygame.image.save(surface, str(tmp))
        os.replace(tmp, out)
    except (OSError, pygame.error) as exc:
        tmp.unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) else "écriture impossible"
        raise CommandError(f"image à écrire : {out} ({reason}) ; rien n'a été écrit") from None
    moment = screen.value
    if screen not in (Screen.ACCUEIL, Screen.FIN):
        moment += f", coup {args.coup}"
    print(f"{out} : {moment}, {args.size[0]}×{args.size[1]}")
    return 0


def cmd_rejouer(args: argparse.Namespace) -> int:
    from .replay import replay

    game = _load(args.game)
    return replay(game, display_index=args.display, window_size=args.window,
                  seconds=args.secondes)


def build_parser() -> argparse.ArgumentParser:
    parser = FrenchParser(prog="python -m display", description="Écran de salle.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE")

    p = sub.add_parser("snapshot", help="image PNG d'un moment d'une partie enregistrée")
    p.add_argument("--game", "--partie", dest="game", required=True, metavar="PARTIE.json",
                   help="fichier de partie (python -m engine play --out)")
    p.add_argument("--coup", type=int, default=1, metavar="N",
                   help="numéro du coup (1 = premier)")
    p.add_argument("--size", "--taille", dest="size", type=parse_size, default=(1920, 1080),
                   metavar="LxH", help="taille de l'image, ex. 1920x1080")
    p.add_argument("--ecran", choices=sorted(SCREENS), default="coup",
                   help="moment montré (défaut : coup en cours)")
    p.add_argument("--chrono", type=float, default=None, metavar="SECONDES",
                   help="secondes restantes affichées (défaut : le temps du coup)")
    p.add_argument("--out", "--sortie", dest="out", required=True, metavar="IMAGE.png",
                   help="image PNG à écrire")
    p.set_defaults(run=cmd_snapshot)

    p = sub.add_parser("rejouer", help="rejoue une partie à l'écran (espace : suite, p : pause)")
    p.add_argument("--game", "--partie", dest="game", required=True, metavar="PARTIE.json",
                   help="fichier de partie")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--display", "--ecran", dest="display", type=int, default=None,
                       metavar="N", help="plein écran sur l'écran N")
    where.add_argument("--window", "--fenetre", dest="window", type=parse_size, default=None,
                       metavar="LxH", help="fenêtre, ex. 1280x720")
    p.add_argument("--secondes", type=float, default=10.0, help="durée de chaque coup")
    p.set_defaults(run=cmd_rejouer)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()

    def run() -> int:
        args = parser.parse_args(argv)
        return args.run(args)

    return run_command(run, "python -m display")


if __name__ == "__main__":
    sys.exit(main())
