"""The results files of a game, each layout in its own module, all made from one :class:`Report`.

- :mod:`.csvfile`: ``resultats.csv`` (UTF-8 with BOM) and its Windows-1252 copy;
- :mod:`.html`: ``resultats.html`` and the « feuilles de correction »;
- :mod:`.pdf`: the same, as A4 PDF pages;
- :mod:`.federation`: the federation's files, one pluggable exporter per layout (SIGLES).
"""

from .csvfile import inert, results_csv, results_csv_cp1252, results_csv_utf8
from .federation import EXPORTERS, FederationExporter, SiglesExporter, exporter, register
from .html import correction_sheets_html, results_html
from .report import CoupSheet, EventHeader, Report, build_report
from .sheets import correction_sheets, overrides
from .words import to_cp1252

__all__ = [
    "EXPORTERS", "CoupSheet", "EventHeader", "FederationExporter", "Report", "SiglesExporter",
    "build_report", "correction_sheets", "correction_sheets_html", "exporter", "inert",
    "overrides", "register", "results_csv", "results_csv_cp1252", "results_csv_utf8",
    "results_html", "to_cp1252",
]
