"""Correcting a bulletin: what the arbiter decides (rulebook sections 4.3, 4.4 and 5).

``correct(board, tirage, lexicon, bulletin)`` returns a :class:`Decision`: the
placement retained (or none), the score credited, the outcome (ok,
avertissement, pénalité of 5 points, zéro), the reasons in French and every
candidate placement considered with its score, so the decision can be
explained to the player.

The credited ``score`` is the real score of the placement retained; the
5 points of a pénalité are *not* taken off it (``Decision.penalty``): the
rules deduct them from the total at the end of the game.

Where the rules leave a choice, :class:`CorrectionSettings` holds it with the
default of RULES.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Container, Iterable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .board import BadReference, Board, Ref
from .bulletin import Bulletin, Solution
from .placement import (
    Fit,
    Placement,
    all_fits,
    circles_fit,
    fit_word,
    formable,
    invalid_words,
    joker_options,
    realise,
)

PENALTY_POINTS = 5
#: grid letters a raccord needs to locate a word (4.3); from the 2nd coup two get a warning (5.2)
RACCORD_LETTERS = 3


class Outcome(StrEnum):
    """The four outcomes, from the mildest."""

    OK = "ok"
    AVERTISSEMENT = "avertissement"
    PENALITE = "penalite"
    ZERO = "zero"

    @property
    def severity(self) -> int:
        return list(Outcome).index(self)


@dataclass(frozen=True)
class CorrectionSettings:
    """Choices the rules leave open (RULES.md *configurable*), defaults as written there."""

    #: 5.3.2: a wrong reference that is itself a legal placement, with a claimed
    #: score matching another placement of the word: credit the claimed one (pénalité).
    claimed_score_wins_on_legal_wrong_ref: bool = True
    #: 4.4 / 5.4: a word at its written reference forming a word not admitted is a zero,
    #: even if it could be legal elsewhere.
    zero_when_written_ref_forms_invalid_word: bool = True
    #: 5.2: crossed-out letters or solutions make the bulletin hard to read (avertissement).
    warn_crossed_out: bool = True
    #: a bulletin handed in after the end of the coup gets a zero.
    late_is_zero: bool = True


DEFAULT_SETTINGS = CorrectionSettings()


@dataclass(frozen=True)
class Candidate:
    """A placement the correction looked at, for the explanation."""

    ref: str
    word: str
    score: int
    note: str

    def to_dict(self) -> dict:
        return {"ref": self.ref, "word": self.word, "score": self.score, "note": self.note}


@dataclass(frozen=True)
class Decision:
    """The arbiter's decision on one bulletin."""

    outcome: Outcome
    score: int
    placement: Placement | None
    reasons: tuple[str, ...]
    candidates: tuple[Candidate, ...] = ()
    #: the word not in the lexicon that caused a zero (for 5.7, same word replayed)
    invalid_word: str | None = None
    #: what the player's solution would earn were it valid (cap of the 5.7 average)
    cap: int | None = None
    #: 5.7: this zero repeats an invalid word the player was not yet told about
    replayed_invalid: bool = False
    #: every word formed that is not in the lexicon (main word first)
    invalid_words: tuple[str, ...] = ()

    @property
    def penalty(self) -> int:
        return PENALTY_POINTS if self.outcome is Outcome.PENALITE else 0

    @property
    def ref(self) -> str | None:
        return str(self.placement.ref) if self.placement else None

    def to_dict(self) -> dict:
        return {
            "outcome": self.outcome.value,
            "score": self.score,
            "penalty": self.penalty,
            "ref": self.ref,
            "word": self.placement.word if self.placement else None,
            "reasons": list(self.reasons),
            "candidates": [c.to_dict() for c in self.candidates],
            "invalid_word": self.invalid_word,
            "cap": self.cap,
            "replayed_invalid": self.replayed_invalid,
            "invalid_words": list(self.invalid_words),
        }


def top_decision(top: Placement, reason: str = "top joué (saisie de l'arbitre)") -> Decision:
    """The "top" shortcut: the player played the top, in one action."""
    candidate = Candidate(str(top.ref), top.word, top.score, "top")
    return Decision(Outcome.OK, top.score, top, (reason,), (candidate,))


# --------------------------------------------------------------------------- internals


@dataclass
class _Eval:
    """A written word at one place: validity, and its placements by joker position."""

    fit: Fit
    invalid: list[str]
    formable: bool
    options: list[Placement]
    joker_fault: str | None

    @property
    def legal(self) -> bool:
        return not self.invalid and self.formable and bool(self.options)

    @property
    def scores(self) -> set[int]:
        return {p.score for p in self.options}

    def pick(self, claimed: int | None) -> tuple[Placement, str | None]:
        """The placement the claimed score names, else the lowest (5.6); note when unclear."""
        named = [p for p in self.options if p.score == claimed]
        if named:
            return named[0], None
        lowest = min(self.options, key=lambda p: p.score)
        if len(self.scores) > 1:
            return (
                lowest,
                "place du joker incertaine et score non concordant : score le plus bas retenu",
            )
        return lowest, None


@dataclass
class _Verdict:
    faults: list[tuple[Outcome, str]] = field(default_factory=list)
    placement: Placement | None = None
    invalid_word: str | None = None
    invalid_words: tuple[str, ...] = ()
    cap: int | None = None

    def add(self, outcome: Outcome, reason: str) -> None:
        if reason not in [r for _, r in self.faults]:
            self.faults.append((outcome, reason))

    def warn(self, reason: str) -> None:
        self.add(Outcome.AVERTISSEMENT, reason)

    def zero(self, reason: str) -> _Verdict:
        self.add(Outcome.ZERO, reason)
        return self

    @property
    def outcome(self) -> Outcome:
        return max((o for o, _ in self.faults), key=lambda o: o.severity, default=Outcome.OK)


AMBIGUOUS = "mot jouable à plusieurs emplacements dans le même sens pour le même score (5.3.2)"
_ALWAYS_LISTED = ("référence écrite", "premier coup", "référence inversée")


class _Corrector:
    """One bulletin against one position; collects candidates as it goes."""

    def __init__(
        self,
        board: Board,
        tirage: str,
        lexicon: Container[str],
        settings: CorrectionSettings,
    ) -> None:
        self.board = board
        self.tirage = tirage
        self.lexicon = lexicon
        self.settings = settings
        self.candidates: list[Candidate] = []
        self.missing_score = "score absent"

    # -- evaluation of one place

    def evaluate(self, fit: Fit, note: str) -> _Eval:
        invalid = invalid_words(self.board, fit, self.lexicon)
        can_form = formable(fit, self.tirage)
        options: list[Placement] = []
        joker_fault = None
        if can_form:
            if circles_fit(fit, self.tirage):
                options = [realise(self.board, fit, frozenset(fit.circled & set(fit.new)))]
            else:
                circled_new = fit.circled & set(fit.new)
                joker_fault = (
                    "mauvaise lettre entourée comme joker" if circled_new else "joker non entouré"
                )
                options = [
                    realise(self.board, fit, jokers) for jokers in joker_options(fit, self.tirage)
                ]
            grid_circles = [
                i
                for i in fit.circled - set(fit.new)
                if not (self.board[fit.squares[i]] or "").islower()
            ]
            if grid_circles and joker_fault is None:
                joker_fault = "lettre de la grille entourée comme joker"
        if (can_form and not invalid) or note in _ALWAYS_LISTED:
            if invalid:
                note += f" (mot non valable : {invalid[0]})"
            elif not can_form:
                note += " (non formable avec le tirage)"
            for p in options:
                self.candidates.append(Candidate(str(p.ref), p.word, p.score, note))
            if not options:
                self.candidates.append(Candidate(str(fit.ref), fit.letters, 0, note))
        return _Eval(fit, invalid, can_form, options, joker_fault)

    def retain(self, verdict: _Verdict, ev: _Eval, claimed: int | None) -> _Verdict:
        """Credit one evaluated place: joker fault and score check."""
        placement, note = ev.pick(claimed)
        verdict.placement = placement
        if ev.joker_fault:
            verdict.warn(ev.joker_fault)
        if note:
            verdict.warn(note)
        score_fault(verdict, claimed, placement.score, self.missing_score)
        return verdict

    def zero_for_invalid(self, verdict: _Verdict, ev: _Eval, claimed: int | None) -> _Verdict:
        verdict.invalid_word = ev.invalid[0]
        verdict.invalid_words = tuple(ev.invalid)
        if ev.options:
            verdict.cap = ev.pick(claimed)[0].score
        return verdict.zero(f"mot non valable : {ev.invalid[0]}")

    # -- the first coup

    def first_coup(self, word: str, claimed: int | None) -> _Verdict:
        verdict = _Verdict()
        fits = [
            f
            for c in range(15)
            if isinstance(f := fit_word(self.board, Ref(7, c, True), word), Fit)
        ]
        if not fits:
            return verdict.zero(f"mot {word.upper()} impossible à placer au premier coup")
        evals = [self.evaluate(f, "premier coup") for f in fits]
        if evals[0].invalid:
            return self.zero_for_invalid(verdict, evals[0], claimed)
        if not evals[0].formable:
            return verdict.zero("mot non formable avec le tirage")
        # the options are the same joker positions at every place: compare place by place
        by_joker: dict[tuple, list[Placement]] = {}
        for ev in evals:
            for p in ev.options:
                key = tuple(i for i, ch in enumerate(p.word) if ch.islower())
                by_joker.setdefault(key, []).append(p)
        best = {key: max(ps, key=lambda p: p.score) for key, ps in by_joker.items()}
        settled = [k for k, ps in by_joker.items() if any(p.score == claimed for p in ps)]
        if len({p.score for p in best.values()}) == 1:
            placement = next(iter(best.values()))
        elif settled:
            placement = max((best[k] for k in settled), key=lambda p: p.score)
        else:
            placement = min(best.values(), key=lambda p: p.score)
            verdict.warn("place du joker incertaine : position la moins avantageuse retenue")
        if evals[0].joker_fault:
            verdict.warn(evals[0].joker_fault)
        verdict.placement = placement
        score_fault(verdict, claimed, placement.score, self.missing_score)
        return verdict

    # -- from the second coup

    def directions(self, sens: str | None, ref: Ref | None) -> list[bool]:
        if sens:
            return [sens == "h"]
        if ref is not None:
            return [ref.horizontal]
        return [True, False]

    def search(
        self, word: str, horizontals: Iterable[bool], *, extend: bool, note: str
    ) -> list[_Eval]:
        return [
            self.evaluate(fit, note)
            for h in horizontals
            for fit in all_fits(self.board, word, h, extend=extend)
        ]

    def last_letter_variants(self, ref: Ref, word: str) -> list[tuple[Fit, str]]:
        """5.3.1: the last letter missing or changed when it is already on the grid."""
        squares = ref.squares(len(word) + 1)
        if not all(0 <= r < 15 and 0 <= c < 15 for r, c in squares[:-1]):
            return []
        found = []
        after = squares[-1]
        if 0 <= after[0] < 15 and 0 <= after[1] < 15 and self.board[after]:
            fit = fit_word(self.board, ref, word + self.board[after].upper())
            if isinstance(fit, Fit):
                found.append((fit, "dernière lettre du mot absente (déjà sur la grille)"))
        last = self.board[squares[-2]]
        if len(word) > 1 and last and last.upper() != word[-1].upper():
            fit = fit_word(self.board, ref, word[:-1] + last.upper())
            if isinstance(fit, Fit):
                found.append((fit, "dernière lettre du mot modifiée (déjà sur la grille)"))
        return found

    def unlocated(
        self,
        verdict: _Verdict,
        word: str,
        claimed: int | None,
        horizontals: list[bool],
        why: str,
        extend: bool,
        fallback: list[bool] | None = None,
    ) -> _Verdict:
        """5.3.1 / 5.4: nothing locates the word; the claimed score must name a legal place.

        ``horizontals``: the direction the word is written in; ``fallback``: the
        other one, tried next when that direction is not known for sure (no
        ``sens`` given, only the direction of a wrong reference).
        """
        matches: list[tuple[_Eval, str]] = []
        groups = [horizontals] + ([fallback] if fallback else [])
        if claimed is not None:
            for group in groups:
                for ev in self.search(
                    word, group, extend=extend, note="même sens, score revendiqué"
                ):
                    if ev.legal and claimed in ev.scores:
                        matches.append((ev, why))
                if matches:
                    break
            for group in groups if not matches else []:
                for h in group:
                    for row in range(15):
                        for col in range(15):
                            for fit, how in self.last_letter_variants(Ref(row, col, h), word):
                                ev = self.evaluate(fit, how)
                                if ev.legal and claimed in ev.scores:
                                    matches.append((ev, how))
                if matches:
                    break
        if matches:
            ev, how = min(matches, key=lambda match: match[0].joker_fault is not None)
            verdict.placement = next(p for p in ev.options if p.score == claimed)
            verdict.add(Outcome.PENALITE, how)
            if len({str(m.fit.ref) for m, _ in matches}) > 1:
                verdict.add(
                    Outcome.PENALITE,
                    AMBIGUOUS,
                )
            if ev.joker_fault:
                verdict.warn(ev.joker_fault)
            return verdict
        anywhere = [
            fit for h in (True, False) for fit in all_fits(self.board, word, h, extend=extend)
        ]
        if word.upper() not in self.lexicon and not extend:
            verdict.invalid_word = word.upper()
            verdict.invalid_words = (word.upper(),)
            return verdict.zero(f"mot non valable : {word.upper()}")
        if not any(formable(fit, self.tirage) for fit in anywhere):
            return verdict.zero("mot non formable avec le tirage et la grille")
        if claimed is None:
            return verdict.zero(f"{why} et score absent : mot non localisable")
        return verdict.zero(
            f"{why} et score ({claimed}) ne correspondant à aucun emplacement du mot"
        )

    def later_coup(self, sol: Solution, claimed: int | None, sens: str | None) -> _Verdict:
        verdict = _Verdict()
        word = sol.word or ""
        ref: Ref | None = None
        ref_unreadable = False
        if sol.ref:
            try:
                ref = Ref.parse(sol.ref)
            except BadReference:
                ref_unreadable = True
        raccord = sol.raccord or ()
        horizontals = self.directions(sens, ref)
        ref_eval: _Eval | None = None
        ref_fault = None
        if ref is not None:
            fit = fit_word(self.board, ref, word)
            if isinstance(fit, Fit):
                ref_eval = self.evaluate(fit, "référence écrite")
                if ref_eval.invalid and self.settings.zero_when_written_ref_forms_invalid_word:
                    # 5.2 before 5.4: row and column swapped, the claimed score naming the
                    # placement at the swapped reference, the only legal one there (not
                    # when the word is written on the paper the way the reference says)
                    agrees = sens is not None and (sens == "h") == ref.horizontal
                    if not agrees and (inverted := self.inverted(verdict, ref, word, claimed)):
                        return inverted
                    return self.zero_for_invalid(verdict, ref_eval, claimed)
                if ref_eval.legal:
                    return self.at_written_ref(verdict, ref_eval, ref, word, raccord, claimed, sens)
                why = (
                    f"mot non valable : {ref_eval.invalid[0]}"
                    if ref_eval.invalid
                    else "mot non formable avec le tirage à cet emplacement"
                )
                ref_fault = f"référence erronée ({ref} : {why})"
            else:
                ref_fault = f"référence erronée ({ref} : {fit})"
                # 5.2: the word as written, at the swapped reference, for the claimed
                # score, before guessing a last letter (5.3.1)
                if inverted := self.inverted(verdict, ref, word, claimed):
                    return inverted
                # 5.3.1, last letter missing or changed at the written reference
                for vfit, how in self.last_letter_variants(ref, word):
                    ev = self.evaluate(vfit, how)
                    if ev.invalid and claimed in ev.scores:
                        return self.zero_for_invalid(verdict, ev, claimed)
                    if ev.legal and claimed in ev.scores:
                        verdict.placement = next(p for p in ev.options if p.score == claimed)
                        verdict.add(Outcome.PENALITE, how)
                        return verdict
            # 5.2, row and column swapped (direction inverted) where only that placement fits
            swapped = fit_word(self.board, ref.swapped(), word)
            if isinstance(swapped, Fit):
                ev = self.evaluate(swapped, "référence inversée")
                if ev.legal and (
                    claimed is None
                    or claimed in ev.scores
                    or not self.claimed_elsewhere(word, claimed, horizontals)
                ):
                    verdict.warn(f"référence inversée ({ref} au lieu de {ref.swapped()})")
                    return self.retain(verdict, ev, claimed)
        elif ref_unreadable:
            ref_fault = f"référence illisible ({_short(sol.ref)})"
        # raccord mode (4.3), or both modes with a wrong reference (4.4)
        if len(raccord) >= 2:
            directions = horizontals if sens else [True, False]
            located = self.by_raccord(word, raccord, directions)
            if sens and not any(ev.legal for ev in located):
                # 5.2: the word written the other way on the paper; the raccord locates it
                other = self.by_raccord(word, raccord, [not h for h in directions])
                if any(ev.legal for ev in other):
                    located = other
                    verdict.warn("mot écrit dans l'autre sens sur le bulletin, raccord correct")
            if located:
                invalid = [ev for ev in located if ev.invalid]
                legal = [ev for ev in located if ev.legal]
                if not legal and invalid:
                    return self.zero_for_invalid(verdict, invalid[0], claimed)
                if legal:
                    if len(raccord) < RACCORD_LETTERS and self.board.tile_count() > 2:
                        verdict.warn("raccord de deux lettres au lieu de trois")
                    if ref_fault:
                        verdict.warn(f"{ref_fault}, raccord correct")
                    return self.by_raccord_retain(verdict, legal, claimed)
            ref_fault = (ref_fault + " et " if ref_fault else "") + "raccord erroné"
        elif len(raccord) == 1 and not ref_fault and ref is None:
            ref_fault = "raccord insuffisant (une seule lettre)"
        if ref_fault is None:
            ref_fault = "référence absente"
        # no sens written: the direction of a wrong reference is only a hint
        fallback = [not ref.horizontal] if ref is not None and not sens else None
        return self.unlocated(
            verdict, word, claimed, horizontals, ref_fault, extend=bool(raccord), fallback=fallback
        )

    def inverted(
        self, verdict: _Verdict, ref: Ref, word: str, claimed: int | None
    ) -> _Verdict | None:
        """5.2: the word is legal at the swapped reference and the claimed score names it."""
        if claimed is None:
            return None
        swapped = fit_word(self.board, ref.swapped(), word)
        if not isinstance(swapped, Fit):
            return None
        ev = self.evaluate(swapped, "référence inversée")
        if not (ev.legal and claimed in ev.scores):
            return None
        verdict.warn(f"référence inversée ({ref} au lieu de {ref.swapped()})")
        return self.retain(verdict, ev, claimed)

    def claimed_elsewhere(self, word: str, claimed: int, horizontals: list[bool]) -> bool:
        return any(
            ev.legal and claimed in ev.scores
            for ev in self.search(
                word, horizontals, extend=False, note="même sens, score revendiqué"
            )
        )

    def at_written_ref(
        self,
        verdict: _Verdict,
        ev: _Eval,
        ref: Ref,
        word: str,
        raccord: tuple[str, ...],
        claimed: int | None,
        sens: str | None,
    ) -> _Verdict:
        """The word is legal at its written reference."""
        if raccord and claimed not in ev.scores and not raccord_matches(self.board, ev.fit, raccord):
            # 4.4: both modes used and they disagree, the raccord locating another
            # legal place: the claimed score says which mode is wrong (a warning);
            # naming neither, the place is not settled: the lowest score (4.3.3)
            others = [
                o
                for o in self.by_raccord(word, raccord, [True, False])
                if o.legal and o.fit.squares != ev.fit.squares
            ]
            named = [o for o in others if claimed in o.scores]
            if named:
                verdict.warn(f"référence erronée ({ref}), raccord correct")
                return self.retain(verdict, named[0], claimed)
            lowest = min([ev, *others], key=lambda o: min(o.scores))
            if lowest is not ev:
                verdict.warn(
                    f"référence {ref} et raccord contradictoires, "
                    "score non concordant : score le plus bas retenu"
                )
                return self.retain(verdict, lowest, claimed)
        if claimed is not None and claimed not in ev.scores:
            # 5.2: legal both ways at this square, the claimed score names the other way
            # (not when the word is written on the paper the way the reference says)
            agrees = sens is not None and (sens == "h") == ref.horizontal
            if not agrees and (inverted := self.inverted(verdict, ref, word, claimed)):
                return inverted
            # 5.3.2: the written reference is a legal placement but the claimed score names another
            if self.settings.claimed_score_wins_on_legal_wrong_ref:
                for other in self.search(
                    word, [ref.horizontal], extend=False, note="même sens, score revendiqué"
                ):
                    if other.legal and claimed in other.scores and other.fit.ref != ev.fit.ref:
                        verdict.placement = next(p for p in other.options if p.score == claimed)
                        verdict.add(
                            Outcome.PENALITE,
                            f"référence erronée ({ref}) mais placement possible : "
                            f"placement du score revendiqué retenu ({other.fit.ref})",
                        )
                        return verdict
        if sens and (sens == "h") != ref.horizontal and claimed not in ev.scores:
            # 5.2: the word written the other way on the paper; both directions may fit
            swapped = fit_word(self.board, ref.swapped(), word)
            if isinstance(swapped, Fit):
                other = self.evaluate(swapped, "référence inversée")
                if other.legal and claimed in other.scores:
                    verdict.warn(f"référence inversée ({ref} au lieu de {ref.swapped()})")
                    return self.retain(verdict, other, claimed)
                if other.legal and min(other.scores) < min(ev.scores):
                    verdict.warn(
                        f"sens d'écriture et référence {ref} contradictoires, "
                        "score non concordant : score le plus bas retenu"
                    )
                    return self.retain(verdict, other, claimed)
        if raccord and not raccord_matches(self.board, ev.fit, raccord):
            verdict.warn("raccord erroné, référence correcte")
        return self.retain(verdict, ev, claimed)

    def by_raccord(
        self, word: str, raccord: tuple[str, ...], horizontals: list[bool]
    ) -> list[_Eval]:
        return [
            self.evaluate(fit, "raccord")
            for h in horizontals
            for fit in all_fits(self.board, word, h, extend=True)
            if raccord_matches(self.board, fit, raccord)
        ]

    def by_raccord_retain(
        self, verdict: _Verdict, legal: list[_Eval], claimed: int | None
    ) -> _Verdict:
        """4.3.3: several places fit the raccord: the claimed score decides, else the lowest."""
        if len(legal) == 1:
            return self.retain(verdict, legal[0], claimed)
        # the claimed score decides; between places it names alike, the one the
        # circles fit (no joker fault) is what the player wrote
        named = sorted(
            (ev for ev in legal if claimed in ev.scores), key=lambda ev: ev.joker_fault is not None
        )
        if named:
            return self.retain(verdict, named[0], claimed)
        lowest = min(legal, key=lambda ev: min(ev.scores))
        verdict.warn("raccord compatible avec plusieurs emplacements : score le plus bas retenu")
        return self.retain(verdict, lowest, claimed)


def _short(text: str, limit: int = 12) -> str:
    """A written field as quoted in a reason, cut when absurdly long."""
    return text if len(text) <= limit else text[:limit] + "…"


def score_fault(
    verdict: _Verdict, claimed: int | None, real: int, missing: str = "score absent"
) -> None:
    """5.2: a missing or miscounted score is a warning; the real score is credited."""
    if claimed is None:
        verdict.warn(missing)
    elif claimed != real:
        verdict.warn(f"score erroné ({claimed} au lieu de {real})")


def _neighbours(board: Board, square: tuple[int, int]) -> list[tuple[int, int]]:
    r, c = square
    return [
        (r + a, c + b)
        for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if 0 <= r + a < 15 and 0 <= c + b < 15 and board.cells[r + a][c + b] is not None
    ]


def raccord_matches(board: Board, fit: Fit, raccord: Iterable[str]) -> bool:
    """4.3.1: are the raccord letters grid letters in the word, touching it or another raccord?

    The letters may be written in any order: a letter touching only another
    raccord letter is found whatever its place in the list (a chain A–R–O
    reaching the word through O is valid written ``A R O``).
    """
    need = Counter(ch.upper() for ch in raccord)
    squares = fit.squares
    in_word = {sq for i, sq in enumerate(squares) if i not in fit.new}
    start = in_word | {n for sq in squares for n in _neighbours(board, sq) if n not in squares}
    total = sum(need.values())
    failed: set[frozenset] = set()

    def search(used: frozenset, frontier: frozenset) -> bool:
        if len(used) == total:
            return True
        if used in failed:
            return False
        taken = Counter((board[sq] or "").upper() for sq in used)
        for sq in frontier - used:
            letter = (board[sq] or "").upper()
            if taken[letter] < need[letter]:
                grown = frontier | {n for n in _neighbours(board, sq) if n not in squares}
                if search(used | {sq}, frozenset(grown)):
                    return True
        failed.add(used)
        return False

    return search(frozenset(), frozenset(start))


def _flag_faults(bulletin: Bulletin, settings: CorrectionSettings) -> list[tuple[Outcome, str]]:
    faults = []
    if bulletin.blank:
        faults.append((Outcome.ZERO, "bulletin blanc : aucune solution"))
    if bulletin.several:
        faults.append((Outcome.ZERO, "remise de plusieurs bulletins non vierges"))
    if bulletin.late and settings.late_is_zero:
        faults.append((Outcome.ZERO, "bulletin remis après la fin du coup"))
    if bulletin.unreadable:
        faults.append((Outcome.ZERO, "bulletin illisible"))
    if bulletin.disciplinary == "grave":
        faults.append((Outcome.ZERO, "motif disciplinaire grave"))
    elif bulletin.disciplinary:
        faults.append((Outcome.AVERTISSEMENT, "motif disciplinaire"))
    crossed = bulletin.crossed_letters or any(
        s.crossed_out or s.crossed_letters for s in bulletin.extra
    )
    if bulletin.hard_to_read or (crossed and settings.warn_crossed_out):
        faults.append(
            (
                Outcome.AVERTISSEMENT,
                "présentation du bulletin rendant sa lecture difficile (ratures)",
            )
        )
    return faults


def _decision(verdict: _Verdict, candidates: list[Candidate], replayed: bool = False) -> Decision:
    outcome = verdict.outcome
    placement = verdict.placement if outcome is not Outcome.ZERO else None
    score = placement.score if placement else 0
    seen: dict[tuple, Candidate] = {}
    for c in candidates:
        seen.setdefault((c.ref, c.word, c.score), c)
    return Decision(
        outcome,
        score,
        placement,
        tuple(r for _, r in verdict.faults) or ("correct",),
        tuple(seen.values()),
        verdict.invalid_word,
        verdict.cap,
        replayed,
        verdict.invalid_words,
    )


def correct(
    board: Board,
    tirage: str,
    lexicon: Container[str],
    bulletin: Bulletin,
    *,
    settings: CorrectionSettings = DEFAULT_SETTINGS,
    invalid_words_not_told: Iterable[str] = (),
) -> Decision:
    """Correct one bulletin against the grid before the coup and its tirage.

    ``lexicon`` is anything answering ``word in lexicon`` for upper-case words.
    ``invalid_words_not_told``: words for which this player already got a zero
    and was not yet told why (5.7); replaying one marks the decision
    ``replayed_invalid`` so the results credit the average of the others.
    """
    tirage = tirage.upper()
    flags = _flag_faults(bulletin, settings)
    if any(o is Outcome.ZERO for o, _ in flags):
        verdict = _Verdict(faults=list(flags))
        return _decision(verdict, [])
    corrector = _Corrector(board, tirage, lexicon, settings)
    if bulletin.score is None and any(p.startswith("score") for p in bulletin.problems):
        corrector.missing_score = "score illisible"
    solutions = bulletin.solutions()
    if not solutions or not any(s.word for s in solutions):
        reason = "mot absent ou illisible"
        if bulletin.problems:
            reason += " (" + "; ".join(bulletin.problems) + ")"
        return _decision(_Verdict(faults=[(Outcome.ZERO, reason)] + flags), [])
    verdicts = [
        _correct_solution(corrector, s, bulletin.score, bulletin.sens) for s in solutions if s.word
    ]
    verdict = _choose_solution(verdicts, bulletin.score)
    for outcome, reason in flags:
        verdict.add(outcome, reason)
    if bulletin.problems and verdict.outcome is not Outcome.ZERO:
        verdict.faults.append((Outcome.OK, "lecture : " + "; ".join(bulletin.problems)))
    told = {w.upper() for w in invalid_words_not_told}
    replayed = verdict.outcome is Outcome.ZERO and bool(told & set(verdict.invalid_words))
    if replayed:
        verdict.faults.append(
            (
                Outcome.ZERO,
                "même mot non valable rejoué avant notification : moyenne des autres joueurs (5.7)",
            )
        )
    return _decision(verdict, corrector.candidates, replayed)


def _correct_solution(
    corrector: _Corrector, sol: Solution, claimed: int | None, sens: str | None
) -> _Verdict:
    word = sol.word or ""
    jokers = corrector.tirage.count("?") + sum(
        1 for row in corrector.board.cells for cell in row if cell and cell.islower()
    )
    if word.islower() and len(word) > jokers:
        # more circled letters than jokers in the tirage and on the grid (two in a
        # game): a word written all in lower case is not circled, its case says nothing
        sol = replace(sol, word=word.upper())
    if corrector.board.is_empty():
        return corrector.first_coup(sol.word or "", claimed)
    return corrector.later_coup(sol, claimed, sens)


def _choose_solution(verdicts: list[_Verdict], claimed: int | None) -> _Verdict:
    """5.6: several solutions: the one the score names, else the lowest excluding a zero."""
    if len(verdicts) == 1:
        return verdicts[0]
    scored = [v for v in verdicts if v.outcome is not Outcome.ZERO and v.placement]
    named = [v for v in scored if v.placement.score == claimed]
    if named:
        chosen = named[0]
    elif scored:
        chosen = min(scored, key=lambda v: v.placement.score)
    else:
        return verdicts[0]
    chosen.faults.append(
        (Outcome.OK, f"plusieurs solutions sur le bulletin : {chosen.placement.word} retenu (5.6)")
    )
    return chosen


def credited_total(decision: Decision) -> int:
    """Points the coup adds to the total: score minus the pénalité."""
    return decision.score - decision.penalty


__all__ = [
    "Candidate",
    "CorrectionSettings",
    "Decision",
    "Outcome",
    "PENALTY_POINTS",
    "correct",
    "credited_total",
    "raccord_matches",
    "top_decision",
]
