"""The « feuille de correction »: per coup and per arbiter block, what each table wrote and got.

Shared by the HTML and the PDF so that both print the same rows. A player with
no arbiter named in the players file is in the block « sans arbitre désigné ».
Arbiter overrides are listed with what the correction had decided before them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..correction import Outcome
from ..results import GameResults
from .words import OUTCOME_LABEL

NO_ARBITER = "sans arbitre désigné"


@dataclass(frozen=True)
class SheetRow:
    table: int
    name: str
    word: str
    ref: str
    claimed: str  # the score written on the bulletin ("" when none)
    score: int  # the score credited
    decision: str
    reason: str
    outcome: Outcome


@dataclass(frozen=True)
class Sheet:
    coup: int
    arbiter: str
    top: str  # "WORD REF score"
    rows: tuple[SheetRow, ...]


@dataclass(frozen=True)
class Override:
    """An arbiter's change: what the correction said, what the arbiter decided and why."""

    table: int
    name: str
    coup: int
    before: str
    after: str
    reason: str


def _row(results: GameResults, table: int, coup: int) -> SheetRow:
    history = results.history(table, coup)
    decision = results.decision(table, coup)
    player = results.players[table]
    bulletin = next((e.bulletin for e in history if e.bulletin is not None), None)
    top = results.tops[coup - 1]
    if bulletin is not None:
        word, ref = bulletin.word or "", bulletin.ref or ""
        claimed = "" if bulletin.score is None else str(bulletin.score)
    elif history and history[0].source == "top":
        word, ref, claimed = top.word, top.ref, str(top.score)
    elif decision.placement is not None:
        word, ref, claimed = decision.placement.word, str(decision.placement.ref), ""
    else:
        word, ref, claimed = "", "", ""
    label = OUTCOME_LABEL[decision.outcome]
    if history and history[-1].source == "top":
        label = "top"
    elif history and history[-1].source == "arbitre":
        label += " (arbitre)"
    return SheetRow(table, player.name, word, ref, claimed, results.coup_score(table, coup),
                    label, "; ".join(decision.reasons), decision.outcome)


def correction_sheets(results: GameResults) -> list[Sheet]:
    """Coup by coup, one sheet per arbiter block, tables in order."""
    blocks: dict[str, list[int]] = {}
    for table in sorted(results.players):
        blocks.setdefault(results.players[table].arbiter or NO_ARBITER, []).append(table)
    order = sorted(blocks, key=lambda a: (a == NO_ARBITER, a.casefold()))
    sheets = []
    for top in results.tops:
        for arbiter in order:
            rows = tuple(_row(results, t, top.coup) for t in blocks[arbiter])
            sheets.append(Sheet(top.coup, arbiter, f"{top.word} {top.ref} {top.score}", rows))
    return sheets


def overrides(results: GameResults) -> list[Override]:
    """Every arbiter change, in table then coup order."""
    found = []
    for (table, coup), history in sorted(results.entries.items()):
        for i, entry in enumerate(history):
            if entry.source != "arbitre":
                continue
            before = history[i - 1].decision if i else None
            was = (f"{OUTCOME_LABEL[before.outcome]} {before.score}" if before else "aucun bulletin")
            found.append(Override(table, results.players[table].name, coup, was,
                                  f"{OUTCOME_LABEL[entry.decision.outcome]} {entry.decision.score}",
                                  entry.note))
    return found
