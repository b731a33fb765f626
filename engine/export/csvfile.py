"""``resultats.csv``: the ranking as a tournament director's spreadsheet wants it.

``;``-separated, decimal comma, CRLF, UTF-8 with a BOM (so that a French
spreadsheet reads « Lefèvre », not « LefÃ¨vre »), and a Windows-1252 copy for
older tools. A text cell that a spreadsheet would run as a formula (it starts
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is made inert by a
leading apostrophe, as OWASP advises; numbers are written as numbers.
"""

from __future__ import annotations

import csv
import io

from ..results import GameResults
from .report import Report
from .words import decimal, penalty_points, to_cp1252

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
BOM = "\ufeff"


def inert(text: str | None) -> str:
    """A text cell no spreadsheet will run: ``=SOMME(A1)`` → ``'=SOMME(A1)``."""
    text = text or ""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def header_row(report: Report) -> list[str]:
    row = ["rang", "table", "nom", "club", "licence"]
    if report.has_serie:
        row.append("série")
    if report.has_categorie:
        row.append("catégorie")
    row += ["total", "écart", "% du top", "avertissements", "pénalités", "solos"]
    return row + [f"coup {n}" for n in range(1, report.results.coups_played + 1)]


def rows(report: Report) -> list[list[str]]:
    """Header then one row per player, in ranking order (shared ranks: 1, 2, 2, 4)."""
    results = report.results
    table_rows = [header_row(report)]
    for s in results.ranking():
        p = s.player
        row = [str(s.rank), str(p.table), inert(p.name), inert(p.club), inert(p.licence)]
        if report.has_serie:
            row.append(inert(p.serie))
        if report.has_categorie:
            row.append(inert(p.categorie))
        row += [str(s.total), str(s.difference), decimal(s.percent), str(s.warnings),
                str(penalty_points(s)), str(s.solo_bonus)]
        row += [str(results.coup_score(p.table, c)) for c in range(1, results.coups_played + 1)]
        table_rows.append(row)
    return table_rows


def _as_report(source: Report | GameResults) -> Report:
    return source if isinstance(source, Report) else Report(source)


def results_csv(source: Report | GameResults) -> str:
    """The CSV as text (no BOM): what the two encodings below write."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=";", lineterminator="\r\n")
    writer.writerows(rows(_as_report(source)))
    return out.getvalue()


def results_csv_utf8(source: Report | GameResults) -> bytes:
    """UTF-8 with a BOM: a spreadsheet opened by double-click then knows the encoding."""
    return (BOM + results_csv(source)).encode("utf-8")


def results_csv_cp1252(source: Report | GameResults) -> bytes:
    """Windows-1252, for older tools: Œillet stays Œillet; what it lacks is transliterated."""
    return to_cp1252(results_csv(source))
