"""``resultats.pdf`` and ``feuilles-correction.pdf``: A4 pages the juge-arbitre prints as they are.

Why fpdf2: a pure-Python, actively kept library (no browser, no system
service at the tournament), that embeds a TrueType font, so every accent and
Œ prints right; DejaVu Sans comes with Debian's ``fonts-dejavu-core``.
The pages carry the same rows as the HTML (:mod:`.html`, :mod:`.sheets`).
"""

from __future__ import annotations

from pathlib import Path

from ..correction import Outcome
from .html import _tirage, header_lines
from .report import Report
from .sheets import correction_sheets, overrides
from .words import (
    JOKER_RGB,
    LEGEND,
    OUTCOME_LABEL,
    OUTCOME_MARK,
    Word,
    count,
    joker_runs,
    penalty_points,
    percent,
)

FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"), Path("/usr/share/fonts/TTF"))
FONT = "DejaVuSans.ttf"
FONT_BOLD = "DejaVuSans-Bold.ttf"
_FILL = {Outcome.AVERTISSEMENT: (255, 243, 196), Outcome.PENALITE: (255, 216, 168),
         Outcome.ZERO: (255, 201, 201)}


class PdfError(RuntimeError):
    """The PDF cannot be made (no font); French message."""


def _font_dir() -> Path:
    for folder in FONT_DIRS:
        if (folder / FONT).is_file() and (folder / FONT_BOLD).is_file():
            return folder
    raise PdfError("police DejaVu Sans introuvable (paquet Debian fonts-dejavu-core) : "
                   "PDF non écrit")


def _document(title: str, landscape: bool = False):
    from fpdf import FPDF

    pdf = FPDF(orientation="L" if landscape else "P", unit="mm", format="A4")
    folder = _font_dir()
    pdf.add_font("DejaVu", "", str(folder / FONT))
    pdf.add_font("DejaVu", "B", str(folder / FONT_BOLD))
    pdf.set_title(title)
    pdf.set_creator("duplicate-kiosk")
    pdf.set_auto_page_break(True, margin=12)  # the tables break their own pages (see _table)
    pdf.set_margins(12, 12, 12)
    return pdf


def _heading(pdf, report: Report, title: str) -> None:
    pdf.set_font("DejaVu", "B", 15)
    pdf.multi_cell(0, 8, title, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 9)
    for label, value in header_lines(report):
        pdf.multi_cell(0, 5, f"{label} : {value}", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)


def _section(pdf, text: str) -> None:
    pdf.ln(3)
    pdf.set_font("DejaVu", "B", 11)
    pdf.cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", "", 8)


def _fit(pdf, text: str, width: float) -> str:
    """The text cut to its cell (ending with « … »): a table row stays one line high."""
    if pdf.get_string_width(text) <= width - 1.2:
        return text
    while text and pdf.get_string_width(text + "…") > width - 1.2:
        text = text[:-1]
    return text + "…"


ROW_HEIGHT = 4.6


def _table(pdf, head: list[str], rows: list[list[str]], widths: list[float],
           fills: list[list[tuple[int, int, int] | None]] | None = None,
           align: list[str] | None = None) -> None:
    """A ruled table, its heading repeated on every page it runs over (plain cells: fast)."""
    align = align or ["R"] * len(head)

    def heading() -> None:
        pdf.set_font("DejaVu", "B", 7.5)
        pdf.set_fill_color(230, 230, 230)
        for text, width in zip(head, widths, strict=True):
            pdf.cell(width, ROW_HEIGHT, _fit(pdf, text, width), border=1, align="C", fill=True)
        pdf.ln(ROW_HEIGHT)
        pdf.set_font("DejaVu", "", 7.5)

    heading()
    for i, cells in enumerate(rows):
        if pdf.get_y() + ROW_HEIGHT > pdf.page_break_trigger:
            pdf.add_page()
            heading()
        for j, (text, width) in enumerate(zip(cells, widths, strict=True)):
            fill = fills[i][j] if fills else None
            if fill:
                pdf.set_fill_color(*fill)
            if isinstance(text, Word):
                _word_cell(pdf, text, width, fill)
            else:
                pdf.cell(width, ROW_HEIGHT, _fit(pdf, text, width), border=1, align=align[j],
                         fill=bool(fill))
        pdf.ln(ROW_HEIGHT)


def _write_words(pdf, label: str, text: Word) -> None:
    """A line of running text whose joker letters print as coloured, underlined capitals."""
    size = pdf.font_size_pt
    pdf.write(5, label)
    for run, joker in joker_runs(text):
        if joker:
            pdf.set_font("DejaVu", "BU", size)
            pdf.set_text_color(*JOKER_RGB)
        pdf.write(5, run)
        if joker:
            pdf.set_font("DejaVu", "", size)
            pdf.set_text_color(0, 0, 0)
    pdf.ln(5)


def _word_cell(pdf, text: Word, width: float, fill) -> None:
    """A left-aligned cell whose joker letters print as coloured, underlined capitals."""
    x, y = pdf.get_x(), pdf.get_y()
    pdf.cell(width, ROW_HEIGHT, "", border=1, fill=bool(fill))
    shown = _fit(pdf, "".join(run for run, _ in joker_runs(text)), width)
    pdf.set_xy(x + pdf.c_margin, y)
    size, done = pdf.font_size_pt, 0
    for run, joker in joker_runs(text):
        run = shown[done:done + len(run)]
        done += len(run)
        if not run:
            break
        if joker:
            pdf.set_font("DejaVu", "BU", size)
            pdf.set_text_color(*JOKER_RGB)
        pdf.cell(pdf.get_string_width(run), ROW_HEIGHT, run)
        if joker:
            pdf.set_font("DejaVu", "", size)
            pdf.set_text_color(0, 0, 0)
    if done < len(shown):  # the « … » of a cut cell
        pdf.cell(pdf.get_string_width(shown[done:]), ROW_HEIGHT, shown[done:])
    pdf.set_xy(x + width, y)


def results_pdf(report: Report) -> bytes:
    """The ranking, the tops with their tirages, every player's coups, sanctions and changes."""
    results = report.results
    title = report.header.event or "Résultats de la partie"
    pdf = _document(title)
    pdf.add_page()
    _heading(pdf, report, title)
    pdf.set_font("DejaVu", "", 9)
    pdf.cell(0, 5, f"{count(len(results.players), 'joueur')}, {count(results.coups_played, 'coup')}, "
             f"total des tops : {results.tops_total}", new_x="LMARGIN", new_y="NEXT")
    standings = results.ranking()
    _section(pdf, "Classement")
    extra = (["Série"] if report.has_serie else []) + (["Catégorie"] if report.has_categorie else [])
    head = ["Rang", "Table", "Nom", "Club", *extra, "Avert.", "Pén.", "Solos", "Total", "Écart",
            "% du top"]
    name_width = 52 - 12 * len(extra)
    widths = [11, 11, name_width, 30, *([12] * len(extra)), 12, 11, 11, 13, 13, 17]
    rows = []
    for s in standings:
        p = s.player
        cells = [p.serie or ""] * report.has_serie + [p.categorie or ""] * report.has_categorie
        rows.append([str(s.rank), str(p.table), p.name, p.club or "", *cells, str(s.warnings or ""),
                     str(penalty_points(s) or ""), str(s.solo_bonus or ""), str(s.total),
                     str(s.difference), percent(s.percent)])
    _table(pdf, head, rows, widths, align=["R", "R", "L", "L", *(["L"] * len(extra))] + ["R"] * 6)
    _section(pdf, "Tops coup par coup")
    rows, cumul = [], 0
    for sheet in report.coups:
        cumul += sheet.top_score
        tirage = _tirage(sheet.reliquat, sheet.tirage)
        if sheet.rejections:
            tirage += " (rejeté : " + ", ".join(sheet.rejections) + ")"
        rows.append([str(sheet.number), tirage, Word(sheet.top_word), sheet.top_ref,
                     str(sheet.top_score), str(cumul), Word(", ".join(sheet.others))])
    _table(pdf, ["Coup", "Tirage", "Solution", "Réf.", "Points", "Cumul", "Autres tops"], rows,
           [11, 38, 32, 12, 13, 13, 67], align=["R", "L", "L", "L", "R", "R", "L"])
    _player_grid(pdf, report, standings)
    _sanctions(pdf, report, standings)
    return bytes(pdf.output())


def _player_grid(pdf, report: Report, standings) -> None:
    """Every player's score coup by coup, ten coups a band so the page stays readable."""
    results = report.results
    solos = {(s.table, s.coup) for s in results.solos()}
    _section(pdf, "Coups de chaque joueur")
    coups = list(range(1, results.coups_played + 1))
    for start in range(0, len(coups), 10):
        band = coups[start:start + 10]
        head = ["Nom (table)", *[str(c) for c in band]] + (["Total"] if start + 10 >= len(coups) else [])
        rows = [["top", *[str(results.tops[c - 1].score) for c in band]]
                + ([str(results.tops_total)] if len(head) > len(band) + 1 else [])]
        fills: list[list] = [[None] * len(head)]
        for s in standings:
            table = s.player.table
            row, fill = [f"{s.player.name} ({table})"], [None]
            for c in band:
                d = results.decision(table, c)
                mark = OUTCOME_MARK[d.outcome]
                row.append(f"{results.coup_score(table, c)}{' ' + mark if mark else ''}"
                           + (" S" if (table, c) in solos else ""))
                fill.append(_FILL.get(d.outcome))
            if len(head) > len(band) + 1:
                row.append(str(s.total))
                fill.append(None)
            rows.append(row)
            fills.append(fill)
        _table(pdf, head, rows, [50] + [12.5] * (len(head) - 1), fills,
               align=["L"] + ["R"] * (len(head) - 1))
    pdf.set_font("DejaVu", "", 7)
    pdf.multi_cell(0, 4, LEGEND + " · S : solo", new_x="LMARGIN", new_y="NEXT")


def _sanctions(pdf, report: Report, standings) -> None:
    results = report.results
    rows = []
    for s in standings:
        for coup in range(1, results.coups_played + 1):
            d = results.decision(s.player.table, coup)
            if d.outcome is not Outcome.OK:
                rows.append([str(s.player.table), s.player.name, str(coup), OUTCOME_LABEL[d.outcome],
                             "; ".join(d.reasons)])
    _section(pdf, "Avertissements, pénalités et zéros")
    if rows:
        _table(pdf, ["Table", "Nom", "Coup", "Décision", "Motif"], rows, [12, 45, 11, 25, 93],
               align=["R", "L", "R", "L", "L"])
    changes = overrides(results)
    _section(pdf, "Décisions de l'arbitre")
    if changes:
        _table(pdf, ["Table", "Nom", "Coup", "Avant", "Après", "Motif"],
               [[str(o.table), o.name, str(o.coup), o.before, o.after, o.reason] for o in changes],
               [12, 40, 11, 28, 28, 67], align=["R", "L", "R", "L", "L", "L"])
    else:
        pdf.cell(0, 5, "Aucune décision de l'arbitre.", new_x="LMARGIN", new_y="NEXT")
    solos = results.solos()
    _section(pdf, "Solos")
    if solos:
        _table(pdf, ["Coup", "Table", "Nom", "Score", "Bonus"],
               [[str(s.coup), str(s.table), results.players[s.table].name, str(s.score),
                 str(s.bonus)] for s in solos], [12, 12, 60, 15, 15], align=["R", "R", "L", "R", "R"])
    else:
        pdf.cell(0, 5, "Aucun solo.", new_x="LMARGIN", new_y="NEXT")


def correction_sheets_pdf(report: Report) -> bytes:
    """One page per coup and arbiter block, in the order the arbiters collect them."""
    title = report.header.event or "Feuilles de correction"
    pdf = _document(title)
    sheets = correction_sheets(report.results)
    if not sheets:
        pdf.add_page()
        _heading(pdf, report, title)
        pdf.cell(0, 5, "Aucun coup joué : pas de feuille de correction.")
    for sheet in sheets:
        pdf.add_page()
        _heading(pdf, report, title)
        _section(pdf, f"Feuille de correction — coup {sheet.coup} — arbitre : {sheet.arbiter}")
        _write_words(pdf, "Top : ", Word(sheet.top))
        pdf.ln(1)
        rows = [[str(r.table), r.name, Word(r.word or ""), r.ref, r.claimed, str(r.score),
                 r.decision, r.reason] for r in sheet.rows]
        fills = [[None] * 5 + [_FILL.get(r.outcome)] + [None] * 2 for r in sheet.rows]
        _table(pdf, ["Table", "Nom", "Mot", "Réf.", "Annoncé", "Retenu", "Décision", "Motif"], rows,
               [11, 36, 26, 11, 15, 14, 24, 49], fills, align=["R", "L", "L", "L", "R", "R", "L", "L"])
    return bytes(pdf.output())
