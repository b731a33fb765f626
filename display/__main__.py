"""``python -m display``: snapshots of a saved game, and a replay on a real screen.

    python -m display snapshot            # the room at 4 sizes, the console at 2: out/snapshots
    python -m display snapshot --game PARTIE.json --coup 5 --dossier images/
    python -m display snapshot --game PARTIE.json --coup 5 --size 1920x1080 --out coup5.png
    python -m display rejouer --game PARTIE.json --window 1280x720
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from engine.cliparse import CommandError, FrenchParser, run_command

from .view import Screen
from .window import parse_size

SCREENS = {screen.value: screen for screen in Screen}
ROOM_SIZES = ((1024, 768), (1280, 720), (1920, 1080), (3840, 2160))
CONSOLE_SIZES = ((1920, 1080), (1366, 768))


def _load(path: str):
    from engine.game import Game, GameFileError

    try:
        return Game.load(path)
    except GameFileError as exc:
        raise CommandError(str(exc)) from None


def _save(surface, out: Path) -> None:
    """The PNG under a temporary name, then renamed: never half an image."""
    import pygame

    tmp = out.with_name(f".{out.name}.{os.getpid()}.png")  # pygame picks the format by suffix
    try:
        pygame.image.save(surface, str(tmp))
        os.replace(tmp, out)
    except (OSError, pygame.error) as exc:
        tmp.unlink(missing_ok=True)
        reason = exc.strerror if isinstance(exc, OSError) else "écriture impossible"
        raise CommandError(f"image à écrire : {out} ({reason}) ; rien n'a été écrit") from None


def _console_of(game, number: int, remaining: float | None):
    from .from_game import warning_seconds
    from .samples import console_for
    from .view import Countdown

    coup = next((c for c in game.coups if c.number == number), None)
    if coup is None:
        raise CommandError(f"coup {number} absent de la partie (1 à {len(game.coups)})")
    seconds = game.settings.seconds_per_coup if remaining is None else remaining
    return console_for(game.board_before(number), number, coup.reliquat, coup.new_letters,
                       Countdown(seconds * 0.65, warning_seconds(game)), played=coup.top)


def _folder(path: str) -> Path:
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise CommandError(f"dossier des images : {folder} n'est pas un dossier ; rien n'a été "
                           "écrit")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"dossier des images : {folder} ({exc.strerror}) ; rien n'a été "
                           "écrit") from None
    return folder


def cmd_snapshot(args: argparse.Namespace) -> int:
    """``--out IMAGE.png``: one picture of the room; otherwise the room at four sizes and the
    console at two, in ``--dossier``."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from engine.files import FileRefused, check_writable_target

    single = args.out is not None
    if args.size is not None and not single:
        raise CommandError("--size va avec --out (une seule image) ; sans --out, les quatre "
                           "tailles de la salle et les deux de la console sont écrites")
    try:  # said before any drawing: a folder, a missing folder, a device
        out = check_writable_target(args.out, "image à écrire") if single else None
    except FileRefused as exc:
        raise CommandError(str(exc)) from None
    folder = None if single else _folder(args.dossier)
    import pygame

    from .console import draw_console
    from .from_game import view_for
    from .render import render
    from .samples import sample_console, sample_views

    game = _load(args.game) if args.game else None
    screen = SCREENS[args.ecran]
    try:
        view = view_for(game, args.coup, screen, args.chrono) if game else sample_views()[screen]
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    pygame.display.init()
    pygame.font.init()
    moment = screen.value
    if game is not None and screen not in (Screen.ACCUEIL, Screen.FIN):
        moment += f", coup {args.coup}"
    if single:
        size = args.size or (1920, 1080)
        surface = pygame.Surface(size)
        render(view, surface)
        _save(surface, out)
        print(f"{out} : {moment}, {size[0]}×{size[1]}")
        return 0
    for size in ROOM_SIZES:
        surface = pygame.Surface(size)
        render(view, surface)
        path = folder / f"salle-{screen.value}-{size[0]}x{size[1]}.png"
        _save(surface, path)
        print(f"{path} : salle, {moment}, {size[0]}×{size[1]}")
    console = _console_of(game, args.coup, args.chrono) if game else sample_console()
    for size in CONSOLE_SIZES:
        surface = pygame.Surface(size)
        draw_console(console, surface)
        path = folder / f"console-{size[0]}x{size[1]}.png"
        _save(surface, path)
        print(f"{path} : console du juge-arbitre, chrono du coup {console.coup}, "
              f"{size[0]}×{size[1]}")
    return 0


def cmd_rejouer(args: argparse.Namespace) -> int:
    from .replay import replay

    game = _load(args.game)
    return replay(game, display_index=args.display, window_size=args.window,
                  seconds=args.secondes)


def build_parser() -> argparse.ArgumentParser:
    parser = FrenchParser(prog="python -m display", description="Écran de salle.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE")

    p = sub.add_parser("snapshot", help="images PNG de l'écran de salle (4 tailles) et de la "
                       "console (1920×1080, 1366×768) ; une seule image avec --out")
    p.add_argument("--game", "--partie", dest="game", default=None, metavar="PARTIE.json",
                   help="fichier de partie (python -m engine play --out) ; défaut : la "
                   "position d'exemple")
    p.add_argument("--coup", type=int, default=1, metavar="N",
                   help="numéro du coup (1 = premier)")
    p.add_argument("--size", "--taille", dest="size", type=parse_size, default=None,
                   metavar="LxH", help="avec --out : taille de l'image (défaut 1920x1080)")
    p.add_argument("--ecran", choices=sorted(SCREENS), default="coup",
                   help="moment montré (défaut : coup en cours)")
    p.add_argument("--chrono", type=float, default=None, metavar="SECONDES",
                   help="secondes restantes affichées (défaut : le temps du coup)")
    p.add_argument("--out", "--sortie", dest="out", default=None, metavar="IMAGE.png",
                   help="une seule image PNG de la salle, à écrire")
    p.add_argument("--dossier", default="out/snapshots", metavar="DOSSIER",
                   help="sans --out : dossier des six images (défaut out/snapshots)")
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
