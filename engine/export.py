"""Exports of a game's results, as pure functions returning text or bytes.

- ``results_csv``: ``table;name;score`` lines, the shape results software reads;
  ``results_csv_latin1`` encodes it in latin-1 as the federation's software
  expects (characters outside latin-1 are transliterated, never dropped silently).
- ``results_html``: a printable results sheet (ranking, tops and every
  player's coups, warnings, pénalités, solos).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from html import escape

from .correction import Outcome
from .results import GameResults

_TRANSLIT = {
    "Œ": "OE",
    "œ": "oe",
    "Ž": "Z",
    "ž": "z",
    "Š": "S",
    "š": "s",
    "Ÿ": "Y",
    "’": "'",
    "‘": "'",
    "“": '"',
    "”": '"',
    "–": "-",
    "—": "-",
    "…": "...",
}


def results_rows(results: GameResults) -> list[tuple[int, str, int]]:
    """(table, name, total) in ranking order."""
    return [(s.player.table, s.player.name, s.total) for s in results.ranking()]


def results_csv(results: GameResults, *, delimiter: str = ";", header: bool = True) -> str:
    """The results as CSV text, one player a line, ranking order, CRLF line ends."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    if header:
        writer.writerow(["table", "nom", "score"])
    for table, name, total in results_rows(results):
        writer.writerow([table, name, total])
    return out.getvalue()


def to_latin1(text: str) -> bytes:
    """Encode in latin-1, transliterating what latin-1 lacks (Œ → OE); é, è… are kept."""
    chars = []
    for ch in text:
        try:
            ch.encode("latin-1")
            chars.append(ch)
        except UnicodeEncodeError:
            if ch in _TRANSLIT:
                chars.append(_TRANSLIT[ch])
            else:
                base = "".join(
                    c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
                )
                chars.append(base if base and base.isascii() else "?")
    return "".join(chars).encode("latin-1")


def results_csv_latin1(results: GameResults, *, delimiter: str = ";", header: bool = True) -> bytes:
    return to_latin1(results_csv(results, delimiter=delimiter, header=header))


def results_csv_utf8(results: GameResults, *, delimiter: str = ";", header: bool = True) -> bytes:
    return results_csv(results, delimiter=delimiter, header=header).encode("utf-8")


_MARK = {Outcome.OK: "", Outcome.AVERTISSEMENT: "A", Outcome.PENALITE: "P", Outcome.ZERO: "0"}

_STYLE = """
body { font-family: sans-serif; font-size: 11pt; margin: 1.5em; }
h1 { font-size: 16pt; } h2 { font-size: 13pt; margin-top: 1.5em; }
table { border-collapse: collapse; margin-bottom: 1em; }
th, td { border: 1px solid #888; padding: 2px 6px; text-align: right; }
th.name, td.name { text-align: left; }
td.top { font-weight: bold; }
td.a { background: #fff3c4; } td.p { background: #ffd8a8; } td.z { background: #ffc9c9; }
td.solo { outline: 2px solid #2b8a3e; }
@media print { body { margin: 0; } h2 { page-break-after: avoid; } }
"""


def _count(n: int, noun: str) -> str:
    """``1 coup``, ``20 coups``."""
    return f"{n} {noun}{'s' if n > 1 else ''}"


def _decimal(value: float) -> str:
    """French decimal comma: ``98,50``."""
    return f"{value:.2f}".replace(".", ",")


def results_html(results: GameResults, title: str = "Résultats de la partie") -> str:
    """A printable HTML results sheet."""
    standings = results.ranking()
    solos = results.solos()
    solo_keys = {(s.table, s.coup) for s in solos}
    coups = range(1, results.coups_played + 1)
    h: list[str] = [
        "<!DOCTYPE html>",
        '<html lang="fr"><head><meta charset="utf-8">',
        f"<title>{escape(title)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(title)}</h1>",
        f"<p>{_count(len(results.players), 'joueur')}, {_count(results.coups_played, 'coup')}, "
        f"total des tops : {results.tops_total}</p>",
        "<h2>Classement</h2>",
        "<table><tr><th>Rang</th><th>Table</th><th class=name>Nom</th><th class=name>Club</th>"
        "<th>Points</th><th>Pénalités</th><th>Avert.</th><th>Pén. avert.</th><th>Solos</th>"
        "<th>Total</th><th>Écart</th><th>% du top</th></tr>",
    ]
    for s in standings:
        h.append(
            f"<tr><td>{s.rank}</td><td>{s.player.table}</td>"
            f"<td class=name>{escape(s.player.name)}</td>"
            f"<td class=name>{escape(s.player.club or '')}</td><td>{s.scores}</td>"
            f"<td>{s.penalties or ''}</td><td>{s.warnings or ''}</td>"
            f"<td>{s.warning_penalty or ''}</td>"
            f"<td>{s.solo_bonus or ''}</td><td><b>{s.total}</b></td><td>{s.difference}</td>"
            f"<td>{_decimal(s.percent)} %</td></tr>"
        )
    h.append("</table>")
    h.append("<h2>Tops et scores par coup</h2>")
    h.append("<table><tr><th>Coup</th><th class=name>Top</th><th>Réf.</th><th>Points</th>")
    for s in standings:
        h.append(f"<th>{s.player.table}</th>")
    h.append("</tr>")
    for coup in coups:
        top = results.tops[coup - 1]
        h.append(
            f"<tr><td>{coup}</td><td class='name top'>{escape(top.word)}</td>"
            f"<td>{escape(top.ref)}</td><td class=top>{top.score}</td>"
        )
        for s in standings:
            table = s.player.table
            decision = results.decision(table, coup)
            css = {Outcome.AVERTISSEMENT: "a", Outcome.PENALITE: "p", Outcome.ZERO: "z"}.get(
                decision.outcome, ""
            )
            if (table, coup) in solo_keys:
                css += " solo"
            mark = _MARK[decision.outcome]
            title_attr = escape("; ".join(decision.reasons), quote=True)
            h.append(
                f"<td class='{css.strip()}' title=\"{title_attr}\">"
                f"{results.coup_score(table, coup)}{(' ' + mark) if mark else ''}</td>"
            )
        h.append("</tr>")
    h.append("</table>")
    h.append("<p>A : avertissement · P : pénalité de 5 points · 0 : zéro</p>")
    h.append(
        "<h2>Avertissements, pénalités et zéros</h2><table>"
        "<tr><th>Table</th><th class=name>Nom</th><th>Coup</th><th>Décision</th>"
        "<th class=name>Motif</th></tr>"
    )
    for s in standings:
        for coup in coups:
            decision = results.decision(s.player.table, coup)
            if decision.outcome is Outcome.OK:
                continue
            h.append(
                f"<tr><td>{s.player.table}</td><td class=name>{escape(s.player.name)}</td>"
                f"<td>{coup}</td><td>{decision.outcome.value}</td>"
                f"<td class=name>{escape('; '.join(decision.reasons))}</td></tr>"
            )
    h.append("</table>")
    h.append("<h2>Solos</h2>")
    if solos:
        h.append(
            "<table><tr><th>Coup</th><th>Table</th><th class=name>Nom</th>"
            "<th>Score</th><th>Bonus</th></tr>"
        )
        for solo in solos:
            name = results.players[solo.table].name
            h.append(
                f"<tr><td>{solo.coup}</td><td>{solo.table}</td>"
                f"<td class=name>{escape(name)}</td><td>{solo.score}</td><td>{solo.bonus}</td></tr>"
            )
        h.append("</table>")
    else:
        h.append("<p>Aucun solo.</p>")
    h.append("</body></html>")
    return "\n".join(h) + "\n"
