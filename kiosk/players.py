"""The players list (``--joueurs``): checked line by line before the game starts.

Columns ``table;nom;club;licence`` (``,`` or a tab also accepted), with an optional
header line; with a header, columns are found by name and may also include
``arbitre``, ``serie`` and ``categorie`` (accents and case do not matter). Each
player becomes a dict with the keys ``table``, ``name``, ``club``, ``licence``,
``arbiter``, ``serie`` and ``categorie`` (None when empty).

Every line is read on its own, so one bad line cannot swallow the next ones (an
unbalanced quote once merged every following player into one name), and each
problem is named with its line: invisible or control characters (a NUL or a
zero-width space in a name stopped the final ranking), an unclosed quote, a table
outside 1–9999 (the bulletin's table box has 4 cells), a table given twice. The
file is decoded line by line (UTF-8, else Windows-1252), so « Hélène » stays
« Hélène » in a UTF-8 file with one line saved by an old Windows tool.
"""

from __future__ import annotations

import csv
import unicodedata
from pathlib import Path

from engine.files import LIMITS, FileRefused, decode_lines, read_bytes, show

MAX_TABLE = 9999
MAX_NAME = 80
MAX_ERRORS_SHOWN = 8
COLUMNS = ("table", "nom", "club", "licence", "arbitre", "serie", "categorie")
#: column name in the file -> key in the player dict
KEYS = {"table": "table", "nom": "name", "club": "club", "licence": "licence",
        "arbitre": "arbiter", "serie": "serie", "categorie": "categorie"}
ALIASES = {"license": "licence", "joueur": "nom", "name": "nom", "arbiter": "arbitre",
           "series": "serie", "category": "categorie", "no": "table", "numero": "table"}


class PlayersError(ValueError):
    """The players list cannot be used; the message lists the lines and why, in French."""


def _plain(text: str) -> str:
    """Lower case without accents: « Catégorie » → « categorie »."""
    decomposed = unicodedata.normalize("NFKD", text.strip().lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _bad_character(text: str) -> str | None:
    """The first character that would not show (control, zero-width, private), named."""
    for ch in text:
        if ch == "\t":
            continue
        category = unicodedata.category(ch)
        if category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            if ch == "\x00":
                return "caractère nul (NUL)"
            if category == "Cf":
                return f"caractère invisible (U+{ord(ch):04X}, {unicodedata.name(ch, 'sans nom')})"
            return f"caractère de contrôle (U+{ord(ch):04X})"
    return None


def _delimiter(lines: list[str]) -> str:
    sample = "\n".join(lines[:20])
    counts = {d: sample.count(d) for d in (";", ",", "\t")}
    return max(counts, key=lambda d: (counts[d], d == ";"))


def read_players(path: str | Path, warnings: list[str] | None = None) -> list[dict]:
    """Every player of the list, or a PlayersError naming each bad line and its reason.

    What was taken on trust (a player without a name, a column not known) is
    added to ``warnings``.
    """
    name = show(path)
    try:
        raw = read_bytes(path, "liste des joueurs", LIMITS["joueurs"])
    except FileRefused as exc:
        raise PlayersError(_reason_only(str(exc), name)) from exc
    try:
        text = decode_lines(raw.replace(b"\r\n", b"\n"), "liste des joueurs", name)
    except FileRefused as exc:
        raise PlayersError(str(exc)) from exc
    lines = text.split("\n")
    delimiter = _delimiter(lines)
    errors: list[str] = []
    players: list[dict] = []
    seen: dict[int, int] = {}
    columns: dict[str, int] | None = None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue

        def refuse(reason: str, number: int = number) -> None:
            errors.append(f"ligne {number} : {reason}")

        bad = _bad_character(line)
        if bad:
            refuse(bad)
            continue
        if line.count('"') % 2:
            refuse("guillemet non fermé (\") : cette ligne mangerait les suivantes")
            continue
        try:
            cells = [c.strip() for c in next(csv.reader([line], delimiter=delimiter,
                                                        strict=True))]
        except (csv.Error, StopIteration):
            refuse("ligne CSV mal formée (guillemets)")
            continue
        if columns is None and not players and not cells[0].isdigit() \
                and not cells[0].lstrip("-").isdigit():
            columns = _header(cells, number, errors, warnings)
            continue
        player = _player(cells, columns, number, refuse, warnings)
        if player is None:
            continue
        table = player["table"]
        if table in seen:
            refuse(f"table {table} en double (déjà à la ligne {seen[table]})")
            continue
        seen[table] = number
        players.append(player)
    if errors:
        shown = "\n  ".join(errors[:MAX_ERRORS_SHOWN])
        more = f"\n  … et {len(errors) - MAX_ERRORS_SHOWN} autre(s)" \
            if len(errors) > MAX_ERRORS_SHOWN else ""
        raise PlayersError(f"liste des joueurs refusée : {name} ({len(errors)} ligne(s) à "
                           f"corriger, rien n'a été commencé)\n  {shown}{more}")
    if not players:
        raise PlayersError(f"liste des joueurs vide : {name}")
    return players


def _reason_only(message: str, name: str) -> str:
    """« liste des joueurs illisible : x (fichier introuvable) », the wording kept."""
    if "introuvable" in message:
        return f"liste des joueurs illisible : {name} (fichier introuvable)"
    if "dossier" in message:
        return f"liste des joueurs illisible : {name} (c'est un dossier, pas un fichier)"
    return message


def _header(cells: list[str], number: int, errors: list[str],
            warnings: list[str] | None) -> dict[str, int]:
    """Column name -> index, from a header line."""
    columns: dict[str, int] = {}
    for index, cell in enumerate(cells):
        key = _plain(cell)
        key = ALIASES.get(key, key)
        if key in KEYS and key not in columns:
            columns[key] = index
        elif cell and warnings is not None:
            warnings.append(f"liste des joueurs, ligne {number} : colonne « {cell} » inconnue, "
                            f"ignorée (colonnes : {';'.join(COLUMNS)})")
    if "table" not in columns:
        errors.append(f"ligne {number} : en-tête sans colonne « table » "
                      f"(colonnes : {';'.join(COLUMNS)})")
        columns.setdefault("table", 0)
        columns.setdefault("nom", 1)
    return columns


def _player(cells: list[str], columns: dict[str, int] | None, number: int, refuse,
            warnings: list[str] | None) -> dict | None:
    """One player from one line's cells, or None after ``refuse(reason)``."""
    if columns is None:  # no header: table;nom;club;licence
        columns = {key: i for i, key in enumerate(COLUMNS[:4])}
        if len(cells) > 4 and any(cells[4:]) and warnings is not None:
            warnings.append(f"liste des joueurs, ligne {number} : colonnes au-delà de la "
                            "licence ignorées (ajoutez une ligne d'en-tête "
                            f"{';'.join(COLUMNS)} pour les utiliser)")

    def cell(key: str) -> str:
        index = columns.get(key)
        return cells[index] if index is not None and index < len(cells) else ""

    text = cell("table")
    if not text.lstrip("-").isdigit() or not text.isascii():
        refuse(f"numéro de table attendu, pas « {text[:20]} »")
        return None
    table = int(text)
    if not 1 <= table <= MAX_TABLE:
        refuse(f"table {table} hors limites (de 1 à {MAX_TABLE} : la case table du bulletin "
               "a 4 chiffres)")
        return None
    values = {key: cell(key) for key in KEYS}
    for key, value in values.items():
        if len(value) > MAX_NAME:
            refuse(f"{key} trop long ({len(value)} caractères, {MAX_NAME} au plus)")
            return None
    name = values["nom"]
    if not name:
        name = f"Table {table}"
        if warnings is not None:
            warnings.append(f"liste des joueurs, ligne {number} : nom vide, le joueur de la "
                            f"table {table} s'appellera « {name} »")
    player = {"table": table, "name": name}
    for key in ("club", "licence", "arbitre", "serie", "categorie"):
        player[KEYS[key]] = values[key] or None
    return player
