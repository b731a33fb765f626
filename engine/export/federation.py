"""Results files for the federation's programs, one pluggable exporter per layout.

Only one layout is public today: the file a peer program writes for the FFSc's
SIGLES — one line per table number from 1 to the highest, ``"table","nom","score"``
all quoted, Windows-1252, CRLF, an empty table written ``"N","--table vide--","-1"``.
When the official layout is documented, add an exporter and :func:`register` it:
nothing else changes (``kiosk export --federation NOM`` lists what is registered).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from .report import Report
from .words import to_cp1252


class FederationExporter(Protocol):
    #: the name given to ``kiosk export --federation``
    name: str
    #: the file written in the export folder
    filename: str
    #: one French line for the help
    description: str

    def render(self, report: Report) -> bytes: ...


def _quoted(*cells: object) -> str:
    return ",".join('"' + str(c).replace('"', '""') + '"' for c in cells)


@dataclass(frozen=True)
class SiglesExporter:
    name: str = "sigles"
    filename: str = "resultats-sigles.txt"
    description: str = "SIGLES (FFSc) : \"table\",\"nom\",\"score\", tables vides comprises, Windows-1252"
    empty_name: str = "--table vide--"
    empty_score: int = -1

    def render(self, report: Report) -> bytes:
        results = report.results
        totals = {s.player.table: s.total for s in results.ranking()}
        last = max(results.players, default=0)
        lines = []
        for table in range(1, last + 1):
            player = results.players.get(table)
            if player is None:
                lines.append(_quoted(table, self.empty_name, self.empty_score))
            else:
                name = " ".join(player.name.replace('"', "'").split())
                lines.append(_quoted(table, name, totals[table]))
        return to_cp1252("".join(line + "\r\n" for line in lines))


EXPORTERS: dict[str, FederationExporter] = {}


def register(exporter: FederationExporter) -> None:
    """Make a layout available to ``kiosk export --federation``."""
    EXPORTERS[exporter.name] = exporter


def exporter(name: str) -> FederationExporter:
    try:
        return EXPORTERS[name]
    except KeyError:
        known = ", ".join(sorted(EXPORTERS))
        raise ValueError(f"format fédéral inconnu : « {name} » (connus : {known})") from None


register(SiglesExporter())
