"""Results exports: CSV (latin-1 and UTF-8) and the printable HTML sheet."""

import csv
import io
from pathlib import Path

from test_results import replay

from engine.correction import Decision, Outcome
from engine.export import results_csv, results_csv_latin1, results_csv_utf8, results_html, to_latin1
from engine.results import GameResults, Player

GAME20 = Path(__file__).parent / "data" / "arbitrage" / "game20.json"


def test_csv_has_table_name_score_in_ranking_order():
    results = replay(GAME20)
    rows = list(csv.reader(io.StringIO(results_csv(results)), delimiter=";"))
    assert rows[0] == ["table", "nom", "score"]
    assert rows[1] == ["8", "Hervé Lefèvre", "210"]
    assert len(rows) == 21
    assert [int(r[2]) for r in rows[1:]] == sorted((int(r[2]) for r in rows[1:]), reverse=True)


def test_csv_latin1_bytes_and_transliteration():
    results = replay(GAME20)
    data = results_csv_latin1(results)
    text = data.decode("latin-1")
    assert "Hervé Lefèvre" in text  # é and è exist in latin-1
    assert "Thérèse Boeuf" in text  # œ does not: transliterated
    assert "Hervé Lefèvre".encode("latin-1") in data
    assert results_csv_utf8(results).decode("utf-8") == results_csv(results)
    assert "Thérèse Bœuf" in results_csv_utf8(results).decode("utf-8")
    assert to_latin1("Ŵ€") == b"W?"


def test_csv_quotes_a_name_with_the_delimiter():
    results = GameResults()
    results.add_player(Player(1, 'Dupont; "Jo"'))
    results.add_top("MAISON", "H4", 18)
    results.record(1, 1, Decision(Outcome.OK, 18, None, ("ok",)))
    rows = list(csv.reader(io.StringIO(results_csv(results)), delimiter=";"))
    assert rows[1] == ["1", 'Dupont; "Jo"', "18"]


def test_html_sheet_lists_ranking_tops_scores_warnings_penalties_solos():
    results = replay(GAME20)
    html = results_html(results, title="Tournoi <test>")
    assert html.startswith("<!DOCTYPE html>")
    assert "Tournoi &lt;test&gt;" in html and "<test>" not in html
    assert "total des tops : 200" in html
    for top in ("MAISON", "SONT", "ZEBU", "JOKERS", "SQUAT", "AXE"):
        assert f">{top}</td>" in html
    ranking_part = html.split("<h2>Tops")[0]
    assert ranking_part.index("Hervé Lefèvre") < ranking_part.index("Anne Martin")
    assert "<td>210</td>" not in ranking_part and "<b>210</b>" in ranking_part
    assert "105,00 %" in ranking_part  # 210 / 200, French decimal comma
    solos_part = html.split("<h2>Solos</h2>")[1]
    assert "Hervé Lefèvre" in solos_part and "<td>60</td><td>10</td>" in solos_part
    faults_part = html.split("<h2>Avertissements")[1].split("<h2>Solos")[0]
    assert faults_part.count("<td>avertissement</td>") == 4 + 5 + 1 + 1 + 2 + 1
    assert faults_part.count("<td>penalite</td>") == 2
    assert "class='p'" in html and "class='z'" in html and "solo" in html


def test_html_without_solo():
    results = GameResults()
    results.add_player(Player(1, "Seul"))
    results.add_top("MAISON", "H4", 18)
    assert "Aucun solo." in results_html(results)
