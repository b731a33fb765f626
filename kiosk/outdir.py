"""The demo's output folder: the kiosk writes only in a folder it made, and deletes only its own.

``kiosk demo --sortie DOSSIER`` once emptied a folder of the user's own ``*.png`` and
``resultats*`` files. Now:

- a new or empty folder is taken, and marked as the kiosk's (a small ``.kiosque-demo``
  file naming the demo);
- a folder already marked (an earlier demo), or holding nothing but the kiosk's own
  file names, is reused: the earlier demo's files are removed, and only those, by
  their exact names (``coup03-2-salle.png``, ``resultats.csv``…); anything else in
  it stays;
- any other folder is refused, with the reason, before anything is written.

``kiosk reprendre`` of a demo writes where the journal says only if that folder
carries the marker of that same demo: a path read from a file is never trusted.
"""

from __future__ import annotations

import json
import os
import re
import secrets
from pathlib import Path

MARKER = ".kiosque-demo"
#: the names the demo writes, relative to its folder (temporary ``.tmp`` twins included)
OWN_NAMES = re.compile(
    r"(coup\d{2}-[\w.-]+\.(png|wav)"
    r"|fin-classement\.png"
    r"|bulletins(/coup\d{2}(/table\d{2}\.jpg)?)?"
    r"|son(/[\w.-]+\.wav)?"
    r")(\.tmp)?"
)
#: the results files, by their exact names (a user's « resultats-2023.csv » is not one)
RESULT_NAMES = {"resultats.csv", "resultats-windows1252.csv", "resultats-latin1.csv",
                "resultats.html", "resultats.pdf", "feuilles-correction.html",
                "feuilles-correction.pdf", "partie-eliot.xml"}


def _result_names() -> set[str]:
    names = set(RESULT_NAMES)
    try:
        from engine.export import EXPORTERS

        names |= {exporter.filename for exporter in EXPORTERS.values()}
    except ImportError:
        pass
    return names | {f"{name}.tmp" for name in names}


class OutDirError(ValueError):
    """The folder cannot be used for the demo; French message."""


def _own(folder: Path, path: Path) -> bool:
    relative = path.relative_to(folder).as_posix()
    return relative == MARKER or relative in _result_names() or \
        bool(OWN_NAMES.fullmatch(relative))


def _entries(folder: Path) -> list[Path]:
    """Every file and folder below ``folder`` (symbolic links not followed)."""
    found = []
    for root, dirs, files in os.walk(folder):
        base = Path(root)
        found += [base / d for d in dirs] + [base / f for f in files]
    return found


def new_token() -> str:
    """What ties a demo's journal to its folder."""
    return secrets.token_hex(8)


def claim(folder: Path, token: str) -> None:
    """Make ``folder`` the output of the demo ``token``, or say why it cannot be."""
    if folder.exists() and not folder.is_dir():
        raise OutDirError(f"--sortie {folder} : ce n'est pas un dossier")
    if folder.is_dir():
        entries = _entries(folder)
        marked = (folder / MARKER).is_file()
        foreign = [p for p in entries if not _own(folder, p)]
        if foreign and not marked:
            shown = ", ".join(p.relative_to(folder).as_posix() for p in foreign[:3])
            raise OutDirError(f"--sortie {folder} : ce dossier contient déjà des fichiers qui ne "
                              f"viennent pas du kiosque ({shown}{'…' if len(foreign) > 3 else ''})"
                              " : rien n'a été écrit ni effacé ; choisissez un dossier vide ou "
                              "nouveau")
        _remove_own(folder, entries)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / MARKER).write_text(json.dumps({"demo": token}) + "\n", encoding="utf-8")
    except OSError as exc:
        from engine.files import os_reason

        raise OutDirError(f"--sortie {folder} : dossier impossible à créer ou à écrire "
                          f"({os_reason(exc)})") from exc


def _remove_own(folder: Path, entries: list[Path]) -> None:
    """Delete the earlier demo's files (exact names only); folders only when left empty."""
    for path in sorted(entries, key=lambda p: len(p.parts), reverse=True):
        if not _own(folder, path) or path.name == MARKER:
            continue
        try:
            if path.is_symlink() or path.is_file():
                path.unlink()
            elif path.is_dir() and not any(path.iterdir()):
                path.rmdir()
        except OSError:
            pass


def check(folder: Path, token: str | None) -> None:
    """For a resumed demo: ``folder`` (read from the journal) must be that demo's own."""
    marker = folder / MARKER
    try:
        recorded = json.loads(marker.read_text(encoding="utf-8")).get("demo")
    except (OSError, ValueError, AttributeError):
        recorded = None
    if recorded is None or (token is not None and recorded != token):
        raise OutDirError(f"le dossier de sortie noté dans la partie ({folder}) n'est pas celui "
                          "de cette démonstration (dossier absent, déplacé ou d'une autre "
                          "partie) : reprise refusée, rien n'a été écrit")

