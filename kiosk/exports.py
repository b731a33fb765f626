"""The game's files for the world: results (CSV, HTML, PDF, federation), correction sheets, Eliot.

Built from the session (journal + word list) into one :class:`engine.export.Report`;
each file is written whole under a temporary name, then renamed: a crash never
leaves half a file where the previous one was.
"""

from __future__ import annotations

from pathlib import Path

from engine.eliot import write_eliot
from engine.export import (
    EventHeader,
    Report,
    build_report,
    correction_sheets_html,
    exporter,
    results_csv_cp1252,
    results_csv_utf8,
    results_html,
)
from engine.export.pdf import correction_sheets_pdf, results_pdf

from .session import Session

CSV_NAME = "resultats.csv"
ELIOT_NAME = "partie-eliot.xml"


def lexicon_name(session: Session) -> str:
    return Path(str(session.lexicon.source)).name


def report_of(session: Session, event: dict | None = None) -> Report:
    """The report of the session's game; ``event`` fields, when given, replace the recorded ones."""
    recorded = dict((session.config.event if session.config else None) or {})
    recorded.update({k: v for k, v in (event or {}).items() if v})
    header = EventHeader.from_dict(recorded, lexicon_name(session), session.lexicon.sha256)
    ties = {}
    for coup in session.game.played() if session.game else []:
        ties[coup.number] = session.moves(coup.number)[1]
    return build_report(session.results, header, session.game, ties)


def _write(path: Path, data: bytes) -> Path:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    tmp.replace(path)
    return path


def write_results(session: Session, out_dir: Path, *, event: dict | None = None,
                  federation: tuple[str, ...] = ("sigles",), pdf: bool = True,
                  eliot: bool = False) -> list[Path]:
    """Every results file in ``out_dir``; returns their paths, resultats.csv first."""
    written = write_report(report_of(session, event), out_dir, federation=federation, pdf=pdf)
    if eliot:
        text = write_eliot(session.game, session.results, dictionary=lexicon_name(session),
                           word_count=len(session.lexicon))
        written.append(_write(out_dir / ELIOT_NAME, text.encode("utf-8")))
    return written


def write_report(report: Report, out_dir: Path, *, federation: tuple[str, ...] = ("sigles",),
                 pdf: bool = True) -> list[Path]:
    """A report's files (one game, or a tournament's rooms merged); resultats.csv first."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = [_write(out_dir / CSV_NAME, results_csv_utf8(report)),
               _write(out_dir / "resultats-windows1252.csv", results_csv_cp1252(report)),
               _write(out_dir / "resultats.html", results_html(report).encode("utf-8")),
               _write(out_dir / "feuilles-correction.html",
                      correction_sheets_html(report).encode("utf-8"))]
    for name in federation:
        layout = exporter(name)
        written.append(_write(out_dir / layout.filename, layout.render(report)))
    if pdf:
        written.append(_write(out_dir / "resultats.pdf", results_pdf(report)))
        written.append(_write(out_dir / "feuilles-correction.pdf", correction_sheets_pdf(report)))
    return written
