"""``resultats.html`` and ``feuilles-correction.html``: pages to read on screen and print (A4).

Every text that comes from a person (names, clubs, event, reasons) goes
through :func:`html.escape`; numbers are in the French form (``98,50 %``).
"""

from __future__ import annotations

from html import escape

from ..correction import Outcome
from .report import Report
from .sheets import correction_sheets, overrides
from .words import (
    JOKER_RGB,
    LEGEND,
    OUTCOME_LABEL,
    OUTCOME_MARK,
    count,
    joker_runs,
    penalty_points,
    percent,
)

_STYLE = """
@page { size: A4; margin: 12mm; }
body { font-family: "DejaVu Sans", sans-serif; font-size: 10pt; margin: 1.5em; }
h1 { font-size: 16pt; margin-bottom: 0.2em; } h2 { font-size: 13pt; margin-top: 1.5em; }
p.entete { margin: 0.1em 0; }
table { border-collapse: collapse; margin-bottom: 1em; }
th, td { border: 1px solid #888; padding: 2px 5px; text-align: right; }
th.t, td.t { text-align: left; }
td.top { font-weight: bold; }
td.a { background: #fff3c4; } td.p { background: #ffd8a8; } td.z { background: #ffc9c9; }
td.solo { outline: 2px solid #2b8a3e; }
section.feuille { page-break-after: always; }
@media print { body { margin: 0; } h2 { page-break-after: avoid; } }
"""

_STYLE += ("span.joker { color: rgb" + str(JOKER_RGB)
           + "; font-weight: bold; text-decoration: underline; }\n")

_CSS_CLASS = {Outcome.AVERTISSEMENT: "a", Outcome.PENALITE: "p", Outcome.ZERO: "z", Outcome.OK: ""}


def _e(text: object) -> str:
    return escape(str(text if text is not None else ""), quote=True)


def _w(text: object) -> str:
    """A word (or words) with each joker's letter as a marked capital, escaped."""
    return "".join(f"<span class=joker>{_e(run)}</span>" if joker else _e(run)
                   for run, joker in joker_runs(str(text if text is not None else "")))


def _page(title: str, body: list[str]) -> str:
    head = ["<!DOCTYPE html>", '<html lang="fr"><head><meta charset="utf-8">',
            f"<title>{_e(title)}</title><style>{_STYLE}</style></head><body>"]
    return "\n".join(head + body + ["</body></html>"]) + "\n"


def _title(report: Report, default: str) -> str:
    return report.header.event or default


def header_lines(report: Report) -> list[tuple[str, str]]:
    """(label, value) of the event header, in print order, empty ones left out."""
    h = report.header
    lines = [("Date", h.date), ("Lieu", h.place), ("Juge-arbitre", h.juge_arbitre)]
    if h.lexicon_name or h.lexicon_sha256:
        words = h.lexicon_name + (f" (empreinte {h.fingerprint})" if h.fingerprint else "")
        lines.append(("Liste de mots", words))
    return [(label, value) for label, value in lines if value]


def _header(report: Report, default: str) -> list[str]:
    out = [f"<h1>{_e(_title(report, default))}</h1>"]
    out += [f"<p class=entete><b>{_e(label)} :</b> {_e(value)}</p>"
            for label, value in header_lines(report)]
    return out


def results_html(report: Report) -> str:
    """The ranking, the tops coup by coup, every player's coups, sanctions, arbiter changes, solos."""
    results = report.results
    standings = results.ranking()
    solos = results.solos()
    solo_keys = {(s.table, s.coup) for s in solos}
    coups = range(1, results.coups_played + 1)
    h = _header(report, "Résultats de la partie")
    h.append(f"<p>{count(len(results.players), 'joueur')}, {count(results.coups_played, 'coup')}, "
             f"total des tops : {results.tops_total}</p>")
    h.append("<h2>Classement</h2>")
    extra = (["Série"] if report.has_serie else []) + (["Catégorie"] if report.has_categorie else [])
    h.append("<table><tr><th>Rang</th><th>Table</th><th class=t>Nom</th><th class=t>Club</th>"
             "<th class=t>Licence</th>" + "".join(f"<th class=t>{x}</th>" for x in extra)
             + "<th>Points</th><th>Avert.</th><th>Pénalités</th><th>Solos</th>"
             "<th>Total</th><th>Écart</th><th>% du top</th></tr>")
    for s in standings:
        p = s.player
        cells = [p.serie] * report.has_serie + [p.categorie] * report.has_categorie
        h.append(
            f"<tr><td>{s.rank}</td><td>{p.table}</td><td class=t>{_e(p.name)}</td>"
            f"<td class=t>{_e(p.club)}</td><td class=t>{_e(p.licence)}</td>"
            + "".join(f"<td class=t>{_e(c)}</td>" for c in cells)
            + f"<td>{s.scores}</td><td>{s.warnings or ''}</td><td>{penalty_points(s) or ''}</td>"
            f"<td>{s.solo_bonus or ''}</td><td><b>{s.total}</b></td><td>{s.difference}</td>"
            f"<td>{percent(s.percent)}</td></tr>")
    h.append("</table>")
    h.append("<h2>Tops coup par coup</h2>")
    h.append("<table><tr><th>Coup</th><th class=t>Tirage</th><th class=t>Solution</th>"
             "<th>Réf.</th><th>Points</th><th>Cumul</th><th class=t>Autres tops</th></tr>")
    cumul = 0
    for sheet in report.coups:
        cumul += sheet.top_score
        tirage = _tirage(sheet.reliquat, sheet.tirage)
        rejected = "".join(f"<br><s>{_e(r)}</s> rejeté" for r in sheet.rejections)
        h.append(f"<tr><td>{sheet.number}</td><td class=t>{_e(tirage)}{rejected}</td>"
                 f"<td class='t top'>{_w(sheet.top_word)}</td><td>{_e(sheet.top_ref)}</td>"
                 f"<td class=top>{sheet.top_score}</td><td>{cumul}</td>"
                 f"<td class=t>{_w(', '.join(sheet.others))}</td></tr>")
    h.append("</table>")
    h.append("<h2>Coups de chaque joueur</h2>")
    h.append("<table><tr><th>Rang</th><th class=t>Nom</th>"
             + "".join(f"<th>{c}</th>" for c in coups) + "<th>Total</th></tr>")
    h.append("<tr><td></td><td class=t><i>top</i></td>"
             + "".join(f"<td class=top>{t.score}</td>" for t in results.tops)
             + f"<td class=top>{results.tops_total}</td></tr>")
    for s in standings:
        table = s.player.table
        row = [f"<tr><td>{s.rank}</td><td class=t>{_e(s.player.name)} ({table})</td>"]
        for coup in coups:
            decision = results.decision(table, coup)
            css = _CSS_CLASS[decision.outcome] + (" solo" if (table, coup) in solo_keys else "")
            mark = OUTCOME_MARK[decision.outcome]
            row.append(f"<td class='{css.strip()}' title=\"{_e('; '.join(decision.reasons))}\">"
                       f"{results.coup_score(table, coup)}{(' ' + mark) if mark else ''}</td>")
        row.append(f"<td><b>{s.total}</b></td></tr>")
        h.append("".join(row))
    h.append("</table>")
    h.append(f"<p>{_e(LEGEND)} · encadré vert : solo</p>")
    h.append("<h2>Avertissements, pénalités et zéros</h2>")
    h.append("<table><tr><th>Table</th><th class=t>Nom</th><th>Coup</th><th class=t>Décision</th>"
             "<th class=t>Motif</th></tr>")
    for s in standings:
        for coup in coups:
            decision = results.decision(s.player.table, coup)
            if decision.outcome is Outcome.OK:
                continue
            h.append(f"<tr><td>{s.player.table}</td><td class=t>{_e(s.player.name)}</td>"
                     f"<td>{coup}</td><td class=t>{OUTCOME_LABEL[decision.outcome]}</td>"
                     f"<td class=t>{_e('; '.join(decision.reasons))}</td></tr>")
    h.append("</table>")
    h.append("<h2>Décisions de l'arbitre</h2>")
    changes = overrides(results)
    if changes:
        h.append("<table><tr><th>Table</th><th class=t>Nom</th><th>Coup</th><th class=t>Avant</th>"
                 "<th class=t>Après</th><th class=t>Motif</th></tr>")
        for o in changes:
            h.append(f"<tr><td>{o.table}</td><td class=t>{_e(o.name)}</td><td>{o.coup}</td>"
                     f"<td class=t>{_e(o.before)}</td><td class=t>{_e(o.after)}</td>"
                     f"<td class=t>{_e(o.reason)}</td></tr>")
        h.append("</table>")
    else:
        h.append("<p>Aucune décision de l'arbitre.</p>")
    h.append("<h2>Solos</h2>")
    if solos:
        h.append("<table><tr><th>Coup</th><th>Table</th><th class=t>Nom</th>"
                 "<th>Score</th><th>Bonus</th></tr>")
        for solo in solos:
            name = results.players[solo.table].name
            h.append(f"<tr><td>{solo.coup}</td><td>{solo.table}</td><td class=t>{_e(name)}</td>"
                     f"<td>{solo.score}</td><td>{solo.bonus}</td></tr>")
        h.append("</table>")
    else:
        h.append("<p>Aucun solo.</p>")
    return _page(_title(report, "Résultats de la partie"), h)


def _tirage(reliquat: str, tirage: str) -> str:
    """``EA+RSTUV``: the reliquat, then the new letters."""
    if reliquat and tirage.startswith(reliquat) and len(tirage) > len(reliquat):
        return f"{reliquat}+{tirage[len(reliquat):]}"
    return tirage


def correction_sheets_html(report: Report) -> str:
    """One printed page per coup and arbiter block: table, word, ref, score, decision, reason."""
    h: list[str] = []
    title = _title(report, "Feuilles de correction")
    for sheet in correction_sheets(report.results):
        h.append("<section class=feuille>")
        h.append(f"<h1>{_e(title)}</h1>")
        h.append(f"<h2>Feuille de correction — coup {sheet.coup} — arbitre : {_e(sheet.arbiter)}</h2>")
        h.append(f"<p>Top : {_w(sheet.top)}</p>")
        h.append("<table><tr><th>Table</th><th class=t>Nom</th><th class=t>Mot</th>"
                 "<th class=t>Réf.</th><th>Score annoncé</th><th>Score retenu</th>"
                 "<th class=t>Décision</th><th class=t>Motif</th></tr>")
        for r in sheet.rows:
            h.append(f"<tr><td>{r.table}</td><td class=t>{_e(r.name)}</td><td class=t>{_w(r.word)}</td>"
                     f"<td class=t>{_e(r.ref)}</td><td>{_e(r.claimed)}</td>"
                     f"<td class='{_CSS_CLASS[r.outcome]}'>{r.score}</td>"
                     f"<td class=t>{_e(r.decision)}</td><td class=t>{_e(r.reason)}</td></tr>")
        h.append("</table></section>")
    if not h:
        h.append("<p>Aucun coup joué : pas de feuille de correction.</p>")
    return _page(title, h)
