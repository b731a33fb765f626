"""What every command line of the project shares: French argparse, and no traceback ever.

:class:`FrenchParser` is argparse with all of its own words in French (« utilisation : »,
« arguments positionnels », « valeur non valable »…): argparse looks its texts up through
the module's ``_`` and ``ngettext`` when it builds a parser, formats a help or reports an
error, so those calls run with a French table in place, then the English one is put back.

:func:`run_command` wraps a command's ``main``: a :class:`~engine.files.FileRefused` or a
``CommandError`` is one French line and exit 2; output piped into ``head`` that closes
early ends quietly; Ctrl-C says it was interrupted; anything unexpected is one French
line too (exit 3), never a traceback on the terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable, Iterator

from .files import FileRefused

FRENCH = {
    "usage: ": "utilisation : ",
    # argparse writes "TITLE:"; the space makes it French typography, « arguments : »
    "positional arguments": "arguments ",
    "options": "options ",
    "optional arguments": "options ",
    "show this help message and exit": "afficher cette aide et quitter",
    "subcommands": "commandes",
    "argument %(argument_name)s: %(message)s": "argument %(argument_name)s : %(message)s",
    "%(prog)s: error: %(message)s\n": "%(prog)s : erreur : %(message)s\n",
    "the following arguments are required: %s": "arguments obligatoires manquants : %s",
    "unrecognized arguments: %s": "arguments inconnus : %s",
    "not allowed with argument %s": "incompatible avec l'argument %s",
    "ignored explicit argument %r": "valeur %r ignorée : cette option n'en prend pas",
    "one of the arguments %s is required": "un des arguments %s est obligatoire",
    "expected one argument": "une valeur est attendue",
    "expected at most one argument": "au plus une valeur est attendue",
    "expected at least one argument": "au moins une valeur est attendue",
    "ambiguous option: %(option)s could match %(matches)s":
        "option ambiguë : %(option)s peut être %(matches)s",
    "invalid %(type)s value: %(value)r": "valeur non valable : %(value)r",
    "invalid choice: %(value)r (choose from %(choices)s)":
        "choix non valable : %(value)r (parmi %(choices)s)",
    "unknown parser %(parser_name)r (choices: %(choices)s)":
        "commande inconnue %(parser_name)r (parmi %(choices)s)",
    "can't open '%(filename)s': %(error)s": "impossible d'ouvrir « %(filename)s » : %(error)s",
    "unexpected option string: %s": "option inattendue : %s",
    "cannot have multiple subparser arguments": "une seule liste de commandes possible",
}
TYPE_WORDS = {int: "nombre entier", float: "nombre"}
FRENCH_PLURAL = {
    "expected %s argument": ("%s valeur attendue", "%s valeurs attendues"),
}


def _french(message: str) -> str:
    return FRENCH.get(message, message)


def _french_plural(singular: str, plural: str, n: int) -> str:
    one, many = FRENCH_PLURAL.get(singular, (singular, plural))
    return one if n == 1 else many


@contextlib.contextmanager
def _in_french() -> Iterator[None]:
    saved = argparse._, argparse.ngettext
    argparse._, argparse.ngettext = _french, _french_plural
    try:
        yield
    finally:
        argparse._, argparse.ngettext = saved


class FrenchParser(argparse.ArgumentParser):
    """argparse speaking French: help, usage and errors (exit code 2, as argparse)."""

    def __init__(self, *args, **kwargs) -> None:
        with _in_french():
            super().__init__(*args, **kwargs)

    def add_subparsers(self, **kwargs):
        kwargs.setdefault("parser_class", FrenchParser)
        with _in_french():
            return super().add_subparsers(**kwargs)

    def parse_known_args(self, args=None, namespace=None):
        with _in_french():
            return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        with _in_french():
            return super().format_usage()

    def format_help(self) -> str:
        with _in_french():
            return super().format_help()

    def error(self, message: str):  # type: ignore[override]
        with _in_french():
            super().error(message)

    def _get_value(self, action, arg_string):
        """« nombre entier attendu, pas 'deux' » rather than « invalid int value »."""
        try:
            return super()._get_value(action, arg_string)
        except argparse.ArgumentError as exc:
            kind = TYPE_WORDS.get(action.type)
            if kind is None or isinstance(exc.__context__, argparse.ArgumentTypeError):
                raise
            raise argparse.ArgumentError(action, f"{kind} attendu, pas {arg_string!r}") from None


class CommandError(Exception):
    """A French message for the user; the command exits with status 2."""


def quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the final flush says nothing."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def printable_streams() -> None:
    """A name or a text that the terminal's encoding cannot show is escaped, not fatal."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(AttributeError, ValueError, OSError):
            stream.reconfigure(errors="backslashreplace")


def run_command(main: Callable[[], int | None], name: str) -> int:
    """Run ``main`` the way every command of the project ends: a status, never a traceback."""
    printable_streams()
    try:
        return int(main() or 0)
    except (FileRefused, CommandError) as exc:
        _say(f"erreur : {exc}")
        return 2
    except BrokenPipeError:
        quiet_stdout()
        return 141
    except KeyboardInterrupt:
        _say("interrompu")
        return 130
    except MemoryError:
        _say("erreur : mémoire insuffisante")
        return 3
    except RecursionError:
        _say("erreur : données imbriquées trop profondément")
        return 2
    except OSError as exc:
        from .files import os_reason

        where = f" : {exc.filename}" if getattr(exc, "filename", None) else ""
        _say(f"erreur : {os_reason(exc)}{where}")
        return 2
    except Exception as exc:  # noqa: BLE001 - never a traceback on a user's terminal
        _say(f"erreur inattendue de {name} ({type(exc).__name__}) : rien n'a été modifié")
        return 3


def _say(line: str) -> None:
    try:
        print(line, file=sys.stderr)
    except (OSError, ValueError):
        pass
