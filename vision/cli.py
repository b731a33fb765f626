"""``python -m vision``: lire, calibrer, entrainer (retrain), gabarit (print), generer (photos)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.cliparse import CommandError, FrenchParser, run_command


def parse_tables(text: str) -> list[int]:
    """``"1-16,20"`` → ``[1, …, 16, 20]``."""
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if "-" in part:
            a, b = part.split("-", 1)
            out += list(range(int(a), int(b) + 1))
        elif part:
            out.append(int(part))
    return out


def _lire(args: argparse.Namespace) -> int:
    from .coup import CoupContext
    from .reader import read_all

    context = None
    if args.game:
        if not args.coup:
            print("erreur : --coup N est nécessaire avec --game", file=sys.stderr)
            return 2
        try:
            context = CoupContext.from_game(args.game, args.coup)
        except Exception as exc:  # noqa: BLE001 - a clear message rather than a traceback
            print(f"erreur : partie illisible : {exc}", file=sys.stderr)
            return 2
    photos = list(args.photos)
    from .layout import Layout

    try:
        layout = Layout.load(args.modele)
    except (OSError, ValueError, KeyError) as exc:
        print(f"erreur : modèle de bulletin illisible : {args.modele} ({exc})", file=sys.stderr)
        return 2
    from engine.files import LIMITS, FileRefused, check_regular

    for photo in photos:  # a missing photo, a folder, a FIFO: said before reading any
        try:
            if check_regular(photo, "photo").st_size > LIMITS["photo"]:
                raise CommandError(f"photo trop grosse : {photo}")
        except FileRefused as exc:
            raise CommandError(str(exc)) from exc
    try:
        tables = parse_tables(args.tables) if args.tables else None
    except ValueError:
        print(f"erreur : liste de tables illisible : {args.tables} (ex. 1-16,20)", file=sys.stderr)
        return 2
    progress = None
    if len(photos) > 3 and sys.stderr.isatty() or (len(photos) > 3 and args.progress):
        from rich.progress import Progress

        progress = Progress(
            transient=True, console=__import__("rich.console").console.Console(stderr=True)
        )
    task = None
    if progress:
        progress.start()
        task = progress.add_task("lecture des bulletins", total=len(photos))
    worst = 0
    try:
        for photo in photos:  # every bulletin of the photo, in its reading order
            for reading in read_all(
                photo,
                context.candidates if context else None,
                context.board if context else None,
                tables=tables,
                layout=layout,
                tesseract=args.tesseract,
            ):
                worst = max(worst, _show(reading, photo, context, args.json))
            if progress:
                progress.advance(task)
    finally:
        if progress:
            progress.stop()
    return worst


def _show(reading, photo: str, context, as_json: bool) -> int:
    """One reading printed (a JSON line, or a French line); 1 when it was not read."""
    from .coup import correct_reading

    data = reading.to_dict()
    if context is not None and reading.word and reading.word.value:
        try:
            data["correction"] = correct_reading(reading, context)
        except Exception as exc:  # noqa: BLE001
            data["correction"] = {"erreur": f"correction impossible ({type(exc).__name__})"}
    if as_json:
        print(json.dumps(data, ensure_ascii=False), flush=True)
    else:
        b = {k: ("?" if v in (None, "") else v) for k, v in data["bulletin"].items()}
        where = f"{photo} (bulletin {reading.sheet}/{reading.sheets})" if reading.sheets > 1 \
            else photo
        print(
            f"{where} : {reading.message} — table {b.get('table', '?')}, mot "
            f"{b.get('word', '?')}, réf. {b.get('ref', '?')}, points {b.get('score', '?')}"
            + (f" ; à vérifier : {', '.join(reading.flagged)}" if reading.flagged else "")
        )
    return 0 if reading.status in ("ok", "a_verifier") else 1


def _calibrer(args: argparse.Namespace) -> int:
    from .calibrate import calibrate
    from .status import VisionError

    try:
        path = calibrate(args.photo, args.nom, Path(args.sortie) if args.sortie else None)
    except (ValueError, VisionError) as exc:
        print(f"erreur : calibrage impossible : {exc}", file=sys.stderr)
        return 2
    print(f"modèle de bulletin écrit : {path}")
    return 0


def _entrainer(args: argparse.Namespace) -> int:
    from .learn import load_confirmed
    from .train import run

    for folder in [*(args.dossier or []), *(f for f in (args.mnist, args.unipen) if f)]:
        if not Path(folder).is_dir():  # a file, a device, a typo: said before training
            raise CommandError(f"dossier introuvable ou qui n'est pas un dossier : {folder}")
    extra = []
    for folder in args.dossier or []:
        extra += list(load_confirmed(folder))
    print(f"{len(extra)} glyphes confirmés par les arbitres")
    code = run(args, extra)
    if code == 0:
        print("modèle enregistré")
    return code


def _gabarit(args: argparse.Namespace) -> int:
    from .template import PER_SHEET, export_assets, export_pads, pad_slots

    if not args.tables:
        if args.coups:
            print("erreur : --coups va avec --tables (bulletins personnalisés)", file=sys.stderr)
            return 2
        for path in export_assets(args.sortie):
            print(path)
        return 0
    try:
        tables = parse_tables(args.tables)
        coups = parse_tables(args.coups) if args.coups else None
    except ValueError:
        print("erreur : liste illisible (ex. --tables 1-120, --coups 1-25)", file=sys.stderr)
        return 2
    if args.exemplaires is not None and args.exemplaires < 1:
        print("erreur : --exemplaires doit être au moins 1", file=sys.stderr)
        return 2
    sheets = len(pad_slots(tables, coups, args.format, args.exemplaires))
    try:
        path = export_pads(
            args.sortie,
            tables,
            coups,
            args.format,
            args.exemplaires,
            progress=(lambda k, n: print(f"\r{k}/{n} planches", end="", file=sys.stderr))
            if sys.stderr.isatty()
            else None,
        )
    except ValueError as exc:
        print(f"erreur : {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"erreur : écriture impossible dans {args.sortie} ({exc})", file=sys.stderr)
        return 1
    if sys.stderr.isatty():
        print(file=sys.stderr)
    per = PER_SHEET[args.format]
    print(
        f"{path} : {sheets} planches A4 de {per} bulletins {args.format}, "
        f"{len(tables)} tables" + (f", coups {args.coups}" if coups else "")
    )
    return 0


def _generer(args: argparse.Namespace) -> int:
    import numpy as np

    from .synth import random_content, render_bulletin

    out = Path(args.sortie)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(args.nombre):
        content = random_content(np.random.default_rng(args.graine + i))
        data, truth = render_bulletin(content, style=args.style, seed=args.graine + i)
        (out / f"bulletin_{i:03d}.jpg").write_bytes(data)
        (out / f"bulletin_{i:03d}.json").write_text(json.dumps(truth.to_dict(), ensure_ascii=False))
    print(f"{args.nombre} photos écrites dans {out}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = FrenchParser(
        prog="python -m vision", description="Lecture des bulletins photographiés."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE")

    p = sub.add_parser("lire", help="lire des photos de bulletins")
    p.add_argument("photos", nargs="+", metavar="PHOTO", help="photos des bulletins")
    p.add_argument("--game", "--partie", dest="game", metavar="PARTIE.json",
                   help="fichier de partie (JSON) pour contrôler avec les coups légaux")
    p.add_argument("--coup", type=int, metavar="N", help="numéro du coup")
    p.add_argument("--json", action="store_true", help="une ligne JSON par photo")
    p.add_argument("--modele", default="fd1", metavar="MODELE",
                   help="modèle de bulletin (nom ou fichier JSON, cf. calibrer)")
    p.add_argument("--tables", help="numéros de table en jeu, ex. 1-16,20 (aide à lire le numéro)")
    p.add_argument(
        "--tesseract", action="store_true", help="second avis de Tesseract sur les cases douteuses"
    )
    p.add_argument(
        "--progress", action="store_true", help="barre de progression même hors terminal"
    )
    p.set_defaults(func=_lire)

    p = sub.add_parser(
        "calibrer", help="créer un modèle de bulletin depuis la photo d'un bulletin vierge"
    )
    p.add_argument("photo", metavar="PHOTO", help="photo d'un bulletin vierge")
    p.add_argument("--nom", default="calibre",
                   help="nom du modèle (lettres, chiffres, - et _ ; défaut calibre)")
    p.add_argument("--sortie", help="fichier JSON à écrire (défaut : vision/layouts/NOM.json)")
    p.set_defaults(func=_calibrer)

    p = sub.add_parser("entrainer", help="réentraîner le lecteur (synthétique + cases confirmées)")
    p.add_argument("--dossier", action="append", help="dossier de cases confirmées (répétable)")
    from .train import add_arguments

    add_arguments(p)
    p.set_defaults(func=_entrainer)

    p = sub.add_parser(
        "gabarit",
        help="écrire les bulletins imprimables (PNG, PDF), ou des blocs personnalisés par table",
    )
    p.add_argument("--sortie", default="assets", help="dossier de sortie (défaut assets)")
    p.add_argument(
        "--tables",
        help="blocs personnalisés : numéro de table imprimé en clair et en code, ex. 1-120",
    )
    p.add_argument("--coups", help="un bulletin par coup, numéro de coup imprimé, ex. 1-25")
    p.add_argument("--format", choices=("A6", "A5"), default="A6",
                   help="format des bulletins personnalisés (défaut A6, 4 par planche A4)")
    p.add_argument(
        "--exemplaires", type=int, help="bulletins par table sans --coups (défaut : une planche)"
    )
    p.set_defaults(func=_gabarit)

    p = sub.add_parser("generer", help="générer des photos de bulletins synthétiques")
    p.add_argument("sortie", metavar="DOSSIER", help="dossier où écrire les photos")
    p.add_argument("--nombre", type=int, default=16, metavar="N",
                   help="nombre de photos (défaut 16)")
    p.add_argument("--graine", type=int, default=0, help="graine (défaut 0)")
    p.add_argument("--style", help="style d'écriture")
    p.set_defaults(func=_generer)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()

    def run() -> int:
        args = parser.parse_args(argv)
        return int(args.func(args) or 0)

    return run_command(run, "python -m vision")
