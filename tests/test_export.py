"""Results files: CSV (UTF-8 with BOM, Windows-1252, formula injection), HTML in a real headless
chromium, PDF through pdftoppm/pdftotext, correction sheets, the SIGLES federation file."""

import csv
import io
import subprocess
from pathlib import Path

import numpy as np
import pygame
import pytest
from exportgame import EVENT, play_game
from test_results import replay

from engine.correction import Decision, Outcome
from engine.export import (
    EXPORTERS,
    EventHeader,
    Report,
    SiglesExporter,
    build_report,
    correction_sheets,
    correction_sheets_html,
    exporter,
    inert,
    overrides,
    register,
    results_csv,
    results_csv_cp1252,
    results_csv_utf8,
    results_html,
    to_cp1252,
)
from engine.export.pdf import correction_sheets_pdf, results_pdf
from engine.lexicon import Lexicon
from engine.results import GameResults, Player
from kiosk.exports import report_of

GAME20 = Path(__file__).parent / "data" / "arbitrage" / "game20.json"
HEADER = EventHeader("Open de Vichy", "12 mai 2025", "Vichy", "Jeanne Œillet", "ods9.txt", "ab" * 32)


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A generated 8-coup game of 18 players (hostile names included) and its report."""
    lexicon = Lexicon.load()
    session = play_game(tmp_path_factory.mktemp("g") / "g.partie", lexicon)
    report = report_of(session)
    session.journal.close()
    return report


def parse(data: bytes, encoding: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode(encoding)), delimiter=";"))


# -- CSV -----------------------------------------------------------------------------------------
def test_csv_columns_ranks_gap_percent_and_coups():
    report = build_report(replay(GAME20), HEADER)
    rows = parse(results_csv_utf8(report), "utf-8-sig")
    assert rows[0][:13] == ["rang", "table", "nom", "club", "licence", "total", "écart", "% du top",
                            "avertissements", "pénalités", "solos", "coup 1", "coup 2"]
    assert rows[1][:11] == ["1", "8", "Hervé Lefèvre", "Nantes", "100259", "210", "10", "105,00",
                            "0", "0", "10"]
    assert [r[0] for r in rows[2:4]] == ["2", "2"]  # equal totals share a rank…
    assert rows[4][0] == "4"  # …and the next rank is skipped
    for row in rows[1:]:  # total = coups − pénalités + solos, whatever the player
        coups = sum(int(c) for c in row[11:])
        assert coups - int(row[9]) + int(row[10]) == int(row[5])
        assert int(row[6]) == int(row[5]) - 200


def test_csv_bom_windows1252_and_series(generated):
    data = results_csv_utf8(generated)
    assert data.startswith(b"\xef\xbb\xbf")  # a French spreadsheet then reads UTF-8
    rows = parse(data, "utf-8-sig")
    assert "série" in rows[0] and "catégorie" in rows[0]
    cp = results_csv_cp1252(generated)
    assert "Œillet Marie".encode("cp1252") in cp and b"\x8cillet" in cp  # Œ kept, not « OE »
    assert parse(cp, "cp1252") == rows
    assert to_cp1252("Ŵ€") == b"W\x80" and to_cp1252("漢") == b"?"
    assert "Thérèse Bœuf" in data.decode("utf-8-sig") and b"\r\n" in data


def test_csv_formula_injection_made_inert(generated):
    rows = parse(results_csv_utf8(generated), "utf-8-sig")
    names = {r[1]: r[2] for r in rows[1:]}
    assert names["4"] == "'=HYPERLINK(\"http://x\";\"y\")" and names["6"] == "'-2+3"
    assert names["7"] == "'@SOMME"
    clubs = {r[3] for r in rows[1:]}
    assert "'+Lyon" in clubs and "+Lyon" not in clubs
    assert all(not cell.startswith(("=", "+", "@", "\t", "\r")) for r in rows for cell in r)
    gap = rows[0].index("écart")
    assert any(r[gap].startswith("-") and r[gap][1:].isdigit() for r in rows[1:])  # numbers stay
    assert inert("\tx") == "'\tx" and inert("\rx") == "'\rx" and inert("Anne") == "Anne"


def test_csv_of_bare_results_and_quoting():
    results = GameResults()
    results.add_player(Player(1, 'Dupont; "Jo"'))
    results.add_top("MAISON", "H4", 18)
    results.record(1, 1, Decision(Outcome.OK, 18, None, ("ok",)))
    rows = list(csv.reader(io.StringIO(results_csv(results)), delimiter=";"))
    assert rows[1][:3] == ["1", "1", 'Dupont; "Jo"'] and rows[1][-1] == "18"


# -- HTML ----------------------------------------------------------------------------------------
def test_html_header_accents_zero_once_and_escaping(generated):
    html = results_html(generated)
    assert "<h1>Open de Vichy « Œ »</h1>" in html
    assert "Jeanne Œillet" in html and "12 mai 2025" in html and "Liste de mots" in html
    assert generated.header.fingerprint in html
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; Cie" in html
    assert ">pénalité<" in html or ">avertissement<" in html
    assert "zéro" in html and ">zero<" not in html and "penalite" not in html
    assert "0 0" not in html.replace("0 0,", "")  # a zéro cell reads « 0 », once
    assert "class='z'" in html and ">0</td>" in html
    assert "Décisions de l'arbitre" in html and "bulletin relu : « 7 » mal lu" in html
    tops = html.split("<h2>Tops coup par coup</h2>")[1].split("<h2>")[0]
    assert tops.count("<tr>") == 1 + generated.results.coups_played


def test_overrides_and_correction_sheets(generated):
    changes = overrides(generated.results)
    assert [(o.table, o.coup, o.after) for o in changes] == [(3, 2, "bon 7")]
    sheets = correction_sheets(generated.results)
    assert len(sheets) == 2 * generated.results.coups_played
    assert [s.arbiter for s in sheets[:2]] == ["Arbitre A", "Arbitre B"]
    assert [r.table for r in sheets[0].rows] == list(range(1, 10))
    row = next(r for r in sheets[2].rows if r.table == 3)
    assert row.decision == "bon (arbitre)" and row.score == 7
    assert any(r.decision == "zéro" and r.word == "ZQXWK" for s in sheets for r in s.rows)
    html = correction_sheets_html(generated)
    assert html.count("<section class=feuille>") == len(sheets)
    assert "coup 1 — arbitre : Arbitre A" in html


def chromium(*args: str, cwd: Path) -> None:
    subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                    "--no-pdf-header-footer", *args], cwd=cwd, check=True, timeout=120,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def test_html_in_a_real_headless_browser(generated, tmp_path):
    """What chromium shows: the accents printed right, the header, no markup leaking."""
    page = tmp_path / "resultats.html"
    page.write_text(results_html(generated), encoding="utf-8")
    chromium(f"--print-to-pdf={tmp_path / 'vu.pdf'}", page.as_uri(), cwd=tmp_path)
    text = subprocess.run(["pdftotext", "-layout", str(tmp_path / "vu.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    for words in ("Open de Vichy « Œ »", "Jeanne Œillet", "Thérèse Bœuf", "Classement",
                  "Tops coup par coup", "Avertissements, pénalités et zéros",
                  "<script>alert(1)</script> & Cie"):
        assert words in text, words
    assert "Ã" not in text and "zéro" in text
    chromium(f"--screenshot={tmp_path / 'vu.png'}", "--window-size=1000,700", page.as_uri(),
             cwd=tmp_path)
    pixels = pygame.surfarray.array3d(pygame.image.load(str(tmp_path / "vu.png")))
    assert (pixels < 100).all(axis=2).mean() > 0.01  # dark text drawn on the page


# -- PDF -----------------------------------------------------------------------------------------
def pdf_pages(data: bytes, tmp_path: Path, name: str) -> list[np.ndarray]:
    (tmp_path / f"{name}.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "50", "-png", str(tmp_path / f"{name}.pdf"),
                    str(tmp_path / name)], check=True, timeout=60)
    return [pygame.surfarray.array3d(pygame.image.load(str(p)))
            for p in sorted(tmp_path.glob(f"{name}-*.png"))]


def test_results_pdf_is_a4_with_header_and_every_section(generated, tmp_path):
    data = results_pdf(generated)
    assert data.startswith(b"%PDF")
    pages = pdf_pages(data, tmp_path, "r")
    assert len(pages) >= 2
    width, height = pages[0].shape[:2]
    assert abs(height / width - 297 / 210) < 0.02  # A4 portrait
    assert all((p < 100).all(axis=2).mean() > 0.005 for p in pages)  # every page has text
    red = [(p[:, :, 0] > 240) & (p[:, :, 1] < 215) & (p[:, :, 2] < 215) for p in pages]
    assert any(r.any() for r in red)  # the zéro cells are filled
    text = subprocess.run(["pdftotext", str(tmp_path / "r.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    for words in (EVENT["epreuve"], "Juge-arbitre : Jeanne Œillet", "Liste de mots",
                  generated.header.fingerprint, "Classement", "Tops coup par coup",
                  "Coups de chaque joueur", "Décisions de l'arbitre", "Thérèse Bœuf"):
        assert words in text, words


def test_correction_sheets_pdf_one_page_per_coup_and_block(generated, tmp_path):
    pages = pdf_pages(correction_sheets_pdf(generated), tmp_path, "f")
    assert len(pages) == 2 * generated.results.coups_played
    text = subprocess.run(["pdftotext", str(tmp_path / "f.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "Feuille de correction — coup 3 — arbitre : Arbitre B" in text and "ZQXWK" in text


# -- federation ----------------------------------------------------------------------------------
def test_sigles_file_quoted_cp1252_with_empty_tables():
    results = GameResults()
    for table, name in ((1, "Anne Œillet"), (2, 'Jo "le" Gall'), (5, "Zoé")):
        results.add_player(Player(table, name))
    results.add_top("MAISON", "H4", 18)
    results.record(1, 1, Decision(Outcome.OK, 18, None, ("ok",)))
    data = SiglesExporter().render(Report(results))
    assert data.decode("cp1252").split("\r\n") == [
        '"1","Anne Œillet","18"', '"2","Jo \'le\' Gall","0"', '"3","--table vide--","-1"',
        '"4","--table vide--","-1"', '"5","Zoé","0"', ""]


def test_federation_exporters_are_pluggable():
    class Official:
        name, filename, description = "essai", "essai.txt", "essai"

        def render(self, report):
            return str(len(report.results.players)).encode()

    register(Official())
    try:
        assert exporter("essai").render(Report(replay(GAME20))) == b"20"
    finally:
        EXPORTERS.pop("essai")
    with pytest.raises(ValueError, match="format fédéral inconnu : « fisf » \\(connus : sigles\\)"):
        exporter("fisf")


# -- jokers on paper (rule 2.2: a capital, marked, never a lower-case letter) ------------------
def _joker_report() -> Report:
    results = GameResults()
    results.add_player(Player(1, "Anne"))
    results.add_top("BECTaI", "H4", 24)
    results.record_top(1, 1)
    return build_report(results, HEADER)


def test_joker_letters_print_as_marked_capitals_in_html():
    html = results_html(_joker_report())
    tops = html.split("<h2>Tops coup par coup</h2>")[1].split("<h2>")[0]
    assert "BECT<span class=joker>A</span>I" in tops
    assert "BECTaI" not in html and "span.joker" in html


def test_joker_letters_print_as_marked_capitals_in_pdf(tmp_path):
    data = results_pdf(_joker_report())
    (tmp_path / "j.pdf").write_bytes(data)
    text = subprocess.run(["pdftotext", str(tmp_path / "j.pdf"), "-"], check=True,
                          capture_output=True, text=True).stdout
    assert "BECTAI" in text.replace("\n", "").replace(" ", "") and "BECTaI" not in text
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", "1", "-l", "1", str(tmp_path / "j.pdf"),
                    str(tmp_path / "j")], check=True, timeout=60)
    page = pygame.surfarray.array3d(pygame.image.load(str(next(tmp_path.glob("j-*.png")))))
    joker = (np.abs(page.astype(int) - np.array((190, 0, 90))).sum(axis=2) < 90)
    assert joker.sum() > 20  # the joker's letter is drawn in its colour
