"""``python -m speech tirage|top|say|appel …``: speak now, write a WAV, or show the text."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.cliparse import CommandError, FrenchParser, run_command

from . import texts
from .settings import SpeechSettings
from .voice import for_voice


def _parser() -> argparse.ArgumentParser:
    parser = FrenchParser(
        prog="python -m speech",
        description="Annonces du juge-arbitre en français (Pays-Lettre, tops, appels).")
    common = FrenchParser(add_help=False)
    common.add_argument("--out", "--sortie", dest="out", metavar="FICHIER.wav",
                        help="écrire le WAV au lieu de parler")
    common.add_argument("--text", "--texte", dest="text", action="store_true",
                        help="afficher le texte exact envoyé à la voix, sans parler")
    common.add_argument("--rate", "--debit", dest="rate", type=int, default=SpeechSettings.rate,
                        metavar="MOTS_MIN",
                        help="débit en mots par minute (défaut %(default)s)")
    common.add_argument("--voice", "--voix", dest="voice", default=SpeechSettings.voice,
                        metavar="VOIX", help="voix espeak-ng (défaut %(default)s)")
    common.add_argument("--volume", type=float, default=1.0, metavar="0..1",
                        help="volume de 0 à 1")
    common.add_argument("--espeak", action="store_true",
                        help="espeak-ng en ligne de commande seulement (sans pyttsx3)")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMANDE")

    p = sub.add_parser("tirage", parents=[common], help="annoncer un tirage")
    p.add_argument("letters", metavar="TIRAGE", help="le tirage complet, ? pour un joker (ex. EESR?AT)")
    p.add_argument("--new", "--nouvelles", dest="new", metavar="LETTRES",
                   help="les nouvelles lettres dans l'ordre du tirage (défaut : toutes)")
    p.add_argument("--blitz", choices=["pays", "lettre"],
                   help="forme courte des nouvelles lettres (partie blitz)")

    p = sub.add_parser("top", parents=[common], help="annoncer le top")
    p.add_argument("--word", "--mot", dest="word", required=True, metavar="MOT",
                   help="le mot, lettre du joker en minuscule (MAIsONS)")
    p.add_argument("--ref", required=True, metavar="RÉF",
                   help="la référence, H4 (horizontal) ou 4H (vertical)")
    p.add_argument("--score", "--points", dest="score", required=True, type=int,
                   metavar="POINTS", help="les points")

    p = sub.add_parser("say", parents=[common], help="dire un texte libre")
    p.add_argument("words", nargs="+", metavar="MOT", help="le texte à dire")

    p = sub.add_parser("appel", parents=[common], help="un appel : chrono, avertissement, "
                       "terminé, pause, reprise")
    p.add_argument("name", metavar="APPEL",
                   help="chrono, avertissement, termine, pause ou reprise")
    p.add_argument("--delay", "--delai", dest="delay", type=int, default=30, metavar="SECONDES",
                   help="délai de l'avertissement en secondes")
    return parser


def build_text(args: argparse.Namespace) -> str:
    """The written announcement the arguments ask for."""
    if args.command == "tirage":
        from engine.move import parse_tirage

        whole = parse_tirage(args.letters)
        new = parse_tirage(args.new) if args.new else whole
        form = texts.LetterForm(args.blitz) if args.blitz else texts.LetterForm.PAYS_LETTRE
        return texts.draw(new, whole, form)
    if args.command == "top":
        return texts.top(word=args.word, ref=args.ref, score=args.score)
    if args.command == "appel":
        return texts.call(args.name, args.delay)
    return " ".join(args.words)


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    return run_command(lambda: _main(parser.parse_args(argv)), "python -m speech")


def _main(args: argparse.Namespace) -> int:
    if args.out:
        from engine.files import FileRefused, check_writable_target

        try:
            check_writable_target(args.out, "fichier WAV")
        except FileRefused as exc:
            raise CommandError(str(exc)) from exc
    try:
        text = build_text(args)
        settings = SpeechSettings(voice=args.voice, rate=args.rate, volume=args.volume,
                                  use_pyttsx3=not args.espeak)
    except ValueError as exc:
        print(f"erreur : {exc}", file=sys.stderr)
        return 2
    voice_text = for_voice(text)
    if args.text:
        print(voice_text)
        return 0
    if args.out:
        from .quiet import stdout_silenced
        from .synth import Renderer

        try:
            with stdout_silenced():  # this command writes nothing on standard output
                renderer = Renderer(use_pyttsx3=settings.use_pyttsx3)
                result = renderer.render(voice_text, Path(args.out), settings.voice,
                                         settings.rate)
        except (OSError, RuntimeError) as exc:
            print(f"erreur : {exc}", file=sys.stderr)
            return 1
        if result.error:
            print(f"attention : {result.error}", file=sys.stderr)
        print(f"écrit : {result.path} ({result.duration:.1f} s, {result.engine})", file=sys.stderr)
        return 0
    from .announcer import Announcer

    with Announcer(settings, prerender=False) as announcer:
        entry = announcer.announce(text)
        announcer.wait_idle(timeout=120)
        if announcer.last_error:
            print(f"attention : {announcer.last_error}", file=sys.stderr)
        if entry.state == "erreur":
            print(f"erreur : {entry.error}", file=sys.stderr)
            return 1
        if entry.output:
            print(f"écrit : {entry.output}", file=sys.stderr)
    return 0
