"""Players and the game's results: every bulletin, correction and arbiter change, kept.

Nothing is overwritten: each (table, coup) has a history of entries, the
correction first, then the arbiter's changes; the last one counts. Refused
input (unknown table, coup not played yet, second bulletin) raises
:class:`ResultsError` with the reason in French and leaves everything as it was.

Totals follow RULES.md: sum of credited scores − 5 per pénalité − 5 per
warning from the 4th (6th in blitz or "original" games) + solo bonuses.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field, replace
from typing import Any

from .board import BadReference, Board, Ref
from .bulletin import Bulletin
from .correction import (
    DEFAULT_SETTINGS,
    PENALTY_POINTS,
    Candidate,
    CorrectionSettings,
    Decision,
    Outcome,
    correct,
    top_decision,
)
from .move import Move
from .placement import Placement

WARNING_POINTS = 5


class ResultsError(ValueError):
    """Refused input; the message is in French and says why."""


@dataclass(frozen=True)
class Player:
    table: int
    name: str
    licence: str | None = None
    club: str | None = None
    #: the arbiter (correcteur) the player depends on, for the 5.7 average
    arbiter: str | None = None
    #: the federation's série and catégorie, when the players file gives them (results files)
    serie: str | None = None
    categorie: str | None = None

    def to_dict(self) -> dict:
        return {
            "table": self.table,
            "name": self.name,
            "licence": self.licence,
            "club": self.club,
            "arbiter": self.arbiter,
            "serie": self.serie,
            "categorie": self.categorie,
        }


@dataclass(frozen=True)
class Top:
    coup: int
    word: str
    ref: str
    score: int


@dataclass(frozen=True)
class Entry:
    """One step of a player's coup: a correction, a top mark or an arbiter change."""

    decision: Decision
    source: str  # "correction", "top", "arbitre", "absence"
    bulletin: Bulletin | None = None
    note: str = ""


@dataclass(frozen=True)
class ResultsSettings:
    #: blitz and "original" games: the warning penalty starts at the 6th, not the 4th
    blitz_or_original: bool = False
    solo_bonus: int = 10
    solo_min_players: int = 16
    #: *configurable*: the solo bonus below 16 players
    solo_bonus_below_min: int = 0

    @property
    def warning_threshold(self) -> int:
        return 6 if self.blitz_or_original else 4


@dataclass(frozen=True)
class Solo:
    coup: int
    table: int
    score: int
    bonus: int


@dataclass(frozen=True)
class Standing:
    rank: int
    player: Player
    total: int
    scores: int
    warnings: int
    warning_penalty: int
    penalties: int
    solo_bonus: int
    difference: int
    percent: float


ABSENT = Decision(Outcome.ZERO, 0, None, ("absence de bulletin",))


@dataclass
class GameResults:
    """The game's players, tops and every player's coups."""

    settings: ResultsSettings = field(default_factory=ResultsSettings)
    players: dict[int, Player] = field(default_factory=dict)
    tops: list[Top] = field(default_factory=list)
    entries: dict[tuple[int, int], list[Entry]] = field(default_factory=dict)
    #: (table, coup) whose zero for an invalid word the player has been told about
    told: set[tuple[int, int]] = field(default_factory=set)

    # -- players and coups

    def add_player(self, player: Player) -> None:
        if not isinstance(player.table, int) or player.table <= 0:
            raise ResultsError(f"numéro de table non valable : {player.table!r}")
        if player.table in self.players:
            raise ResultsError(
                f"table {player.table} déjà attribuée à {self.players[player.table].name}"
            )
        self.players[player.table] = player

    def player(self, table: int | None) -> Player:
        if table is None:
            raise ResultsError("numéro de table absent ou illisible")
        if table not in self.players:
            raise ResultsError(f"table {table} inconnue dans cette partie")
        return self.players[table]

    @property
    def coups_played(self) -> int:
        return len(self.tops)

    def add_top(self, word: str, ref: str, score: int) -> int:
        """Record the top of the next coup; returns its number."""
        top = Top(self.coups_played + 1, word, ref, score)
        self.tops.append(top)
        return top.coup

    def add_top_move(self, move: Move) -> int:
        """Record the top of the next coup from the engine's move."""
        return self.add_top(move.word, str(move.ref), move.score)

    def _check(self, table: int | None, coup: int | None) -> tuple[int, int]:
        self.player(table)
        if coup is None:
            raise ResultsError("numéro de coup absent")
        if not 1 <= coup <= self.coups_played:
            raise ResultsError(
                f"coup {coup} pas encore joué ({self.coups_played} coup(s) joué(s))"
                if coup > self.coups_played
                else f"numéro de coup non valable : {coup}"
            )
        return table, coup  # type: ignore[return-value]

    def _check_new(self, table: int | None, coup: int | None) -> tuple[int, int]:
        """As _check, and refuse a second bulletin for the same player and coup."""
        key = self._check(table, coup)
        if self.entries.get(key):
            raise ResultsError(
                f"bulletin déjà enregistré pour la table {table} au coup {coup} : "
                "passer par une décision de l'arbitre"
            )
        return key

    # -- recording

    def record(
        self,
        table: int | None,
        coup: int | None,
        decision: Decision,
        bulletin: Bulletin | None = None,
        source: str = "correction",
    ) -> Entry:
        """Record the correction of a bulletin; a second one for the same coup is refused.

        ``source`` says where the decision comes from ("import": a file from another program).
        """
        key = self._check_new(table, coup)
        entry = Entry(decision, source, bulletin)
        self.entries[key] = [entry]
        return entry

    def record_bulletin(
        self, bulletin: Bulletin, decision: Decision, coup: int | None = None
    ) -> Entry:
        """Record using the table (and coup, unless given) written on the bulletin."""
        return self.record(
            bulletin.table, coup if coup is not None else bulletin.coup, decision, bulletin
        )

    def record_top(self, table: int, coup: int) -> Entry:
        """The "top" shortcut: the player played the top of this coup."""
        key = self._check(table, coup)
        top = self.tops[coup - 1]
        try:
            ref = Ref.parse(top.ref)
        except BadReference:
            ref = Ref(7, 7, True)
        decision = top_decision(Placement(ref, top.word, (), top.score, ()))
        entry = Entry(decision, "top")
        self.entries.setdefault(key, []).append(entry)
        return entry

    def amend(
        self,
        table: int,
        coup: int,
        *,
        reason: str,
        score: int | None = None,
        outcome: Outcome | str | None = None,
    ) -> Entry:
        """An arbiter's change: appended after the original, which stays."""
        key = self._check(table, coup)
        if not reason.strip():
            raise ResultsError("une décision de l'arbitre doit être motivée")
        if score is not None and not 0 <= score <= 9999:
            raise ResultsError(f"score non valable : {score}")
        base = self.decision(table, coup)
        new_outcome = Outcome(outcome) if outcome is not None else base.outcome
        new_score = (
            score if score is not None else (0 if new_outcome is Outcome.ZERO else base.score)
        )
        decision = replace(
            base,
            outcome=new_outcome,
            score=new_score,
            reasons=(f"décision de l'arbitre : {reason}",),
            replayed_invalid=False,
        )
        entry = Entry(decision, "arbitre", note=reason)
        self.entries.setdefault(key, []).append(entry)
        return entry

    def record_absent(self, table: int, coup: int) -> Entry:
        """No bulletin handed in for this coup: a zero (5.4), recorded as such."""
        key = self._check_new(table, coup)
        entry = Entry(ABSENT, "absence")
        self.entries[key] = [entry]
        return entry

    def notify(self, table: int, coup: int, told: bool = True) -> None:
        """The player has been told why this coup got a zero (ends 5.7's protection).

        ``told=False``: the arbiter says the reason was *not* given to the player after all.
        """
        key = self._check(table, coup)
        if told:
            self.told.add(key)
        else:
            self.told.discard(key)

    def arbiter_group(self, table: int) -> list[int]:
        """The other tables of this player's arbiter: whose scores make 5.7's average."""
        arbiter = self.player(table).arbiter
        return [t for t, p in sorted(self.players.items()) if t != table and p.arbiter == arbiter]

    # -- reading

    def history(self, table: int, coup: int) -> list[Entry]:
        return list(self.entries.get((table, coup), []))

    def decision(self, table: int, coup: int) -> Decision:
        history = self.entries.get((table, coup))
        return history[-1].decision if history else ABSENT

    def invalid_words_not_told(self, table: int, before: int | None = None) -> set[str]:
        """Words that gave this player a zero (before coup ``before``) not yet explained (5.7)."""
        return self._invalid_words(table, before, only_not_told=True)

    def _invalid_words(self, table: int, before: int | None, only_not_told: bool) -> set[str]:
        last = self.coups_played if before is None else min(before - 1, self.coups_played)
        words: set[str] = set()
        for coup in range(1, last + 1):
            d = self.decision(table, coup)
            if d.outcome is Outcome.ZERO and not (only_not_told and (table, coup) in self.told):
                words.update(_words_of(d))
        return words

    def replayed_invalid(self, table: int, coup: int) -> bool:
        """5.7: this coup's zero replays a word of an earlier zero the player was not told about.

        Decided from what is recorded now, so that « motif indiqué » changed after a later
        coup was corrected still counts; an arbiter's decision settles the coup itself. Data
        without the earlier zero (written by hand) keeps the correction's own mark.
        """
        history = self.entries.get((table, coup))
        if not history or history[-1].source == "arbitre":
            return False
        d = history[-1].decision
        if d.outcome is not Outcome.ZERO:
            return False
        words = _words_of(d)
        if words & self._invalid_words(table, coup, only_not_told=False):
            return bool(words & self.invalid_words_not_told(table, before=coup))
        return d.replayed_invalid

    def submit(
        self,
        bulletin: Bulletin,
        board: Board,
        tirage: str,
        lexicon: Container[str],
        *,
        coup: int | None = None,
        settings: CorrectionSettings = DEFAULT_SETTINGS,
    ) -> Entry:
        """Check table and coup, correct the bulletin (remembering 5.7's words), record it.

        Refused input raises ResultsError before anything is corrected or recorded.
        """
        coup = coup if coup is not None else bulletin.coup
        table, coup = self._check_new(bulletin.table, coup)
        decision = correct(
            board,
            tirage,
            lexicon,
            bulletin,
            settings=settings,
            invalid_words_not_told=self.invalid_words_not_told(table, before=coup),
        )
        return self.record(table, coup, decision, bulletin)

    def _raw_score(self, table: int, coup: int) -> int:
        return self.decision(table, coup).score

    def coup_score(self, table: int, coup: int) -> int:
        """Credited score of the coup (before pénalités), with 5.7's average where due."""
        decision = self.decision(table, coup)
        if not self.replayed_invalid(table, coup):
            return decision.score
        others = self.arbiter_group(table)
        if not others:
            return 0
        average = sum(self._raw_score(t, coup) for t in others) / len(others)
        credited = int(average + 0.5)
        return min(credited, decision.cap) if decision.cap is not None else credited

    def net_coup_score(self, table: int, coup: int) -> int:
        return self.coup_score(table, coup) - self.decision(table, coup).penalty

    def warnings(self, table: int) -> int:
        return sum(
            self.decision(table, c).outcome is Outcome.AVERTISSEMENT
            for c in range(1, self.coups_played + 1)
        )

    def warning_penalty(self, table: int) -> int:
        excess = self.warnings(table) - self.settings.warning_threshold + 1
        return WARNING_POINTS * max(0, excess)

    def penalties(self, table: int) -> int:
        """Points of the 5-point pénalités (5.3)."""
        return sum(self.decision(table, c).penalty for c in range(1, self.coups_played + 1))

    def solo_bonus_value(self) -> int:
        if len(self.players) >= self.settings.solo_min_players:
            return self.settings.solo_bonus
        return self.settings.solo_bonus_below_min

    def solos(self) -> list[Solo]:
        """Per coup, a player alone to score more than every other player (net of pénalités)."""
        found = []
        bonus = self.solo_bonus_value()
        if len(self.players) < 2:
            return found
        for coup in range(1, self.coups_played + 1):
            scores = {t: self.net_coup_score(t, coup) for t in self.players}
            best = max(scores.values())
            leaders = [t for t, s in scores.items() if s == best]
            if best > 0 and len(leaders) == 1:
                found.append(Solo(coup, leaders[0], best, bonus))
        return found

    def total(self, table: int) -> int:
        return self.standing_parts(table)["total"]

    def standing_parts(self, table: int) -> dict[str, int]:
        self.player(table)
        scores = sum(self.coup_score(table, c) for c in range(1, self.coups_played + 1))
        penalties = self.penalties(table)
        warning_penalty = self.warning_penalty(table)
        solo = sum(s.bonus for s in self.solos() if s.table == table)
        return {
            "scores": scores,
            "penalties": penalties,
            "warning_penalty": warning_penalty,
            "solo_bonus": solo,
            "total": scores - penalties - warning_penalty + solo,
        }

    @property
    def tops_total(self) -> int:
        return sum(t.score for t in self.tops)

    def ranking(self) -> list[Standing]:
        """Decreasing totals; equal totals share a rank (1, 2, 2, 4); then by table."""
        solos = self.solos()
        rows = []
        for table, player in self.players.items():
            scores = sum(self.coup_score(table, c) for c in range(1, self.coups_played + 1))
            penalties = self.penalties(table)
            warning_penalty = self.warning_penalty(table)
            solo = sum(s.bonus for s in solos if s.table == table)
            total = scores - penalties - warning_penalty + solo
            rows.append((player, total, scores, penalties, warning_penalty, solo))
        rows.sort(key=lambda row: (-row[1], row[0].table))
        tops = self.tops_total
        standings = []
        for player, total, scores, penalties, warning_penalty, solo in rows:
            rank = 1 + sum(other[1] > total for other in rows)
            standings.append(
                Standing(
                    rank,
                    player,
                    total,
                    scores,
                    self.warnings(player.table),
                    warning_penalty,
                    penalties,
                    solo,
                    total - tops,
                    round(100.0 * total / tops, 2) if tops else 0.0,
                )
            )
        return standings

    # -- saving and replaying

    def to_dict(self) -> dict:
        return {
            "settings": {
                "blitz_or_original": self.settings.blitz_or_original,
                "solo_bonus": self.settings.solo_bonus,
                "solo_min_players": self.settings.solo_min_players,
                "solo_bonus_below_min": self.settings.solo_bonus_below_min,
            },
            "players": [p.to_dict() for p in self.players.values()],
            "tops": [{"word": t.word, "ref": t.ref, "score": t.score} for t in self.tops],
            "entries": [
                {"table": table, "coup": coup, "history": [_entry_to_dict(e) for e in history]}
                for (table, coup), history in sorted(self.entries.items())
            ],
            "told": sorted([list(k) for k in self.told]),
        }

    @classmethod
    def from_dict(cls, data: dict) -> GameResults:
        """Rebuild a game, or replay one written by hand (see tests/data/arbitrage)."""
        results = cls(ResultsSettings(**(data.get("settings") or {})))
        for p in data.get("players", []):
            results.add_player(
                Player(
                    int(p["table"]), p["name"], p.get("licence"), p.get("club"), p.get("arbiter"),
                    p.get("serie"), p.get("categorie"),
                )
            )
        for t in data.get("tops", []):
            results.add_top(t["word"], t["ref"], int(t["score"]))
        for item in data.get("entries", []):
            table, coup = int(item["table"]), int(item["coup"])
            results._check(table, coup)
            results.entries[(table, coup)] = [_entry_from_dict(e) for e in item["history"]]
        results.told = {(int(a), int(b)) for a, b in data.get("told", [])}
        return results


def _words_of(decision: Decision) -> set[str]:
    """The invalid words a zero was given for."""
    return set(decision.invalid_words or ((decision.invalid_word,) if decision.invalid_word else ()))


def _entry_to_dict(entry: Entry) -> dict:
    data: dict[str, Any] = {"source": entry.source, "decision": entry.decision.to_dict()}
    if entry.bulletin is not None:
        data["bulletin"] = entry.bulletin.to_dict()
    if entry.note:
        data["note"] = entry.note
    return data


def _entry_from_dict(data: dict) -> Entry:
    decision = decision_from_dict(data["decision"])
    bulletin = Bulletin.from_dict(data["bulletin"]) if data.get("bulletin") else None
    return Entry(decision, data.get("source", "correction"), bulletin, data.get("note", ""))


def decision_from_dict(d: dict) -> Decision:
    """A decision as :meth:`Decision.to_dict` wrote it (journal, imported games)."""
    placement = None
    if d.get("ref") and d.get("word"):
        try:
            placement = Placement(Ref.parse(d["ref"]), d["word"], (), int(d["score"]), ())
        except BadReference:
            placement = None
    return Decision(
        Outcome(d["outcome"]),
        int(d["score"]),
        placement,
        tuple(d.get("reasons", ())),
        tuple(
            Candidate(c["ref"], c["word"], int(c["score"]), c.get("note", ""))
            for c in d.get("candidates", ())
        ),
        d.get("invalid_word"),
        d.get("cap"),
        bool(d.get("replayed_invalid")),
        tuple(d.get("invalid_words", ())),
    )


__all__ = [
    "ABSENT",
    "Entry",
    "GameResults",
    "PENALTY_POINTS",
    "Player",
    "ResultsError",
    "ResultsSettings",
    "Solo",
    "decision_from_dict",
    "Standing",
    "Top",
    "WARNING_POINTS",
]
