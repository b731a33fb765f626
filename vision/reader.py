"""The whole reading of one photo: load → page → fields → characters → decoding → result.

``read_bulletin`` never raises: every failure becomes a status in the
result, so the kiosk can show a clear message for each photo.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from pathlib import Path

import cv2
import numpy as np

from engine.board import Board

from .comb_doubts import ones_split_off, pieces_not_in
from .cover import BOXES, covered_boxes
from .decode import (
    DISAGREE,
    STRUCK_TRIED,
    Candidate,
    Decoded,
    FieldValue,
    decode,
    decode_word,
    group_readings,
    is_reference,
    one_character_short,
    ref_char_p,
    sens_of,
)
from .faint import open_core
from .fields import Fields, Glyph, cut_fields, lean, signed_lean
from .layout import Layout
from .load import load_image
from .page import Page, find_page, find_pages
from .recognise import CharReading, Recogniser, default_recogniser
from .status import (
    A_VERIFIER,
    CACHE,
    COUPE,
    FLOUE,
    ILLISIBLE,
    MESSAGES,
    NON_TROUVE,
    OK,
    SOMBRE,
    VIERGE,
    VisionError,
)
from .tablecode import PrintedCode, read_code

#: why a bulletin with ink was not read (shown after the status message)
UNREAD = "écriture trop pâle ou illisible : à lire sur le bulletin"
#: a field whose confidence is below this is flagged for the arbiter
FLAG_THRESHOLD = 0.95
#: the table, which nothing of the game checks (a wrong one credits another player), needs
#: this much more: DKG's slanted 8, its upper loop a mere crossing, read 0 at 0.96-0.97 in 7
#: conditions (58 read 50 at 0.958-0.964; 158 read 150 at 0.961), a 7 read 1 (107 read 101
#: at 0.959); right tables of the benches below 0.97: 5 and 8 in 300
TABLE_EXTRA = 0.02
#: pages found without markers (by their outline or their printed matter) are rectified less
#: precisely than the crops the classifier was calibrated on: their fields need a higher
#: confidence to pass unflagged. The table too, but not on top of ``TABLE_EXTRA`` (the
#: network's own doubts, below 0.97, which this covers): both together asked 1.0, more than
#: any table reads (0.982 at most), and every table of a federation bulletin (no markers)
#: went to the arbiter. Of 800 bulletins without
#: markers (stress seeds 300 to 309), 716 pages found by their outline: the 26 tables read
#: wrong were all capped at 0.5 or under (a rival table, a lost digit), 431 read right at 0.98
#: or more
CONTOUR_THRESHOLD = 0.98
#: paper darker than this (0–255) is too dark to trust the reading
DARK_PAPER = 35
#: variance of the Laplacian over the squared area below which the photo is too blurred.
#: It measures the blur against the writing (a page small in the frame is enlarged, and
#: measures less): 600 bench photos (seed 21, generic and personalised) measure 14.4 and
#: more; blurred again by 1.5 / 2.5 / 4 photo pixels, the 1 200 readings that passed at any
#: threshold had no silent error, and those measuring 11 to 15 read whole 80 % of the time
#: (8 to 11: 64 %, under 5: 3 %). At 15, two sharp bulletins small in the frame were
#: refused; at 10 the arbiter retakes only photos the reader would often get wrong
BLURRED = 10
#: paper as bright as this (0–255) or brighter is measured as it is; dimmer paper has its
#: sharpness raised in proportion (see :func:`sharpness`)
LIT_PAPER = 220


def sharpness(fields: Fields) -> float:
    """The page's sharpness for the blur test, the same in dim light as in daylight.

    The Laplacian's variance grows with the square of the ink's contrast, so a dim photo
    measures low however sharp it is; scaled by the square of the light, its noise would
    pass for detail. Scaled linearly, between the two: on 957 readings of stress photos
    (seeds 401 and 402: dim light, dark curled pencil, wooden table, pencil, thin ballpoint;
    each taken as is and blurred again by 1.5, 2.5 and 4 pixels), the dim ones refused though
    read right fall from 116 to 52, those passed though read wrong (flagged, never silent)
    rise from 19 to 33, the bright ones barely move (27 → 24, 19 → 19), and a 4-pixel blur in
    dim light is still refused every time."""
    return fields.sharpness * max(1.0, LIT_PAPER / max(fields.darkness, 1.0))


@dataclass
class BulletinReading:
    """What the kiosk gets for one photo."""

    photo: str | None
    status: str
    message: str
    table: FieldValue | None = None
    word: FieldValue | None = None
    jokers: list[int] = field(default_factory=list)
    jokers_confidence: float = 0.0
    ref: FieldValue | None = None
    score: FieldValue | None = None
    raccord: str | None = None
    sens: str | None = None
    legal: bool = False
    constrained: bool = False
    crossed: int = 0
    cell_keys: dict[str, list[str]] = field(
        default_factory=dict
    )  # field → keys of its cells, in order
    flagged: list[str] = field(default_factory=list)
    method: str | None = None
    seconds: float = 0.0
    crops: dict[str, Glyph] = field(default_factory=dict, repr=False)
    #: a personalised bulletin's printed code (its table, and coup when printed)
    printed: PrintedCode | None = None
    #: how sure the raccord letters are (each a grid letter at its place for the move)
    raccord_confidence: float = 1.0
    #: the bulletin found and straightened (``page.image``), None when none was found
    page: Page | None = field(default=None, repr=False)
    #: its rank in the photo's reading order, and how many bulletins the photo holds
    sheet: int = 1
    sheets: int = 1
    #: why each flagged field is flagged (French, ``REASONS``): what the arbiter is to check
    flag_reasons: dict[str, str] = field(default_factory=dict)

    def bulletin(self) -> dict:
        """The bulletin fields in the JSON shape of ``engine.bulletin`` (for the correction)."""
        data = {
            "table": self.table.value if self.table else None,
            "word": self.word.value if self.word else None,
            "ref": self.ref.value if self.ref else None,
            "raccord": self.raccord,
            "score": self.score.value if self.score else None,
            "sens": self.sens,
        }
        if self.status in (ILLISIBLE, NON_TROUVE, FLOUE, SOMBRE, COUPE, CACHE):
            data["illisible"] = True
        if self.status == VIERGE:
            data["blanc"] = True
        if self.status == "plusieurs_bulletins":
            data["plusieurs"] = True
        if self.crossed:
            data["ratures"] = True
        if "raccord" in self.flagged and self.raccord:
            data["raccord_douteux"] = True
        return data

    def to_dict(self) -> dict:
        """One JSON line of ``python -m vision lire --json``."""

        def fv(f: FieldValue | None) -> dict | None:
            return f.to_dict() if f else None

        return {
            "photo": self.photo,
            "status": self.status,
            "message": self.message,
            "table": fv(self.table),
            "word": fv(self.word),
            "jokers": self.jokers,
            "jokers_confidence": round(self.jokers_confidence, 4),
            "ref": fv(self.ref),
            "score": fv(self.score),
            "raccord": self.raccord,
            "sens": self.sens,
            "legal": self.legal,
            "constrained": self.constrained,
            "crossed": self.crossed,
            "flagged": self.flagged,
            "pourquoi": self.flag_reasons,
            "method": self.method,
            "seconds": round(self.seconds, 3),
            "imprime": {"table": self.printed.table, "coup": self.printed.coup}
            if self.printed
            else None,
            "feuille": self.sheet,
            "feuilles": self.sheets,
            "bulletin": self.bulletin(),
        }


def _doubtful_fields(fields: Fields, groups, word_row: int, struck_settled: bool = False) -> list[str]:
    """Fields with a doubtful cell (faint ink: a letter or digit possibly missed; a digit cut
    short or across a separator), and the word when a cell reads, not surely, as a struck
    letter (unless the game settled it: ``struck_settled``) or a box inside it holds no
    glyph; the raccord when such a cell lies just above or below the word (a raccord letter
    touching the word's, left as a faint trace: MEDUSAT read with no raccord where an A was
    written)."""
    names = []
    for key in sorted(fields.doubtful):
        name = key.split(":")[0]
        if name != "grid":
            names.append(name)
            continue
        _, row, col = key.split(":")
        cols = [r.col for r in groups.word]
        if not cols or not min(cols) - 1 <= int(col) <= max(cols) + 1:
            continue
        if int(row) == word_row:
            names.append("word")
        elif abs(int(row) - word_row) == 1:
            names.append("raccord")
    if groups.struck_unsure and not struck_settled:  # a struck letter, or a letter misread as one
        names.append("word")
    if groups.lost:  # an empty box inside the word: a letter not seen, guessed by the game
        names.append("word")
    if groups.struck_raccord:  # a raccord letter struck, or misread as struck and dropped
        names.append("raccord")
    return sorted(set(names))


def _score_unvouched(fields: Fields, flagged: list[str]) -> bool:
    """Whether the score is to be flagged: a leading 1 may hide on its box's edge and the move
    that would vouch for it is itself in doubt (word or reference flagged): 13 read 3, sure,
    its 1 in pencil on the box's edge, beside GUE misread EUE at O8, which the game finds
    worth 3."""
    return "score" in fields.hidden and ("word" in flagged or "ref" in flagged)


def _lossy_capture(fields: Fields, groups) -> list[str]:
    """The numbers read, when this capture lost ink: pen strokes found in a field where
    nothing could be cut (a word in 2H pencil too faint to trace), or a word read with no
    score, or with neither reference nor raccord (every bulletin carries them: too pale to
    be seen). A number read on the same bulletin may have lost a digit as well (46 read 6
    and 27 read 2 beside a lost word; 128 read 2 beside a lost reference and score); a
    number box with strokes where nothing was read is flagged itself (a reference in dark,
    curled pencil lost while a stray mark passed for a raccord: no reference, unflagged).
    The word too, when neither its score nor its place was read."""
    read = {"grid": groups.word or groups.raccord, "table": groups.table, "ref": groups.ref,
            "score": groups.score}
    unread = [name for name, cells in read.items() if name in fields.marked and not cells]
    missing = bool(groups.word) and (not groups.score or not (groups.ref or groups.raccord))
    if not (unread or missing):
        return []
    # a word with neither score nor place read is checked by no other field: any legal move
    # anywhere fits it, and it may have lost a letter too (NUEES in 2H pencil, its S lost
    # with the reference and the score: NUEE, legal elsewhere)
    placeless = bool(groups.word) and not groups.score and not (groups.ref or groups.raccord)
    return ([name for name in ("table", "ref", "score") if read[name] or name in unread]
            + (["word"] if placeless else []))


def _score_disowns_move(decoded: Decoded, flagged: list[str]) -> list[str]:
    """The word, when the score is in doubt and its ink does not read the retained move's
    (the value shown may be the move's, proposed where the ink hesitates), or the reference
    is in doubt as well: nothing read surely vouches for the move, the word stands on its ink
    alone, and the ink that lost a digit may have lost a letter with it (LOFS in dark,
    curled pencil, its S lost with the score's 9: LOF, legal at the same place, read at
    0.988 beside a score read 1; AHI at 10I for 28, its A lost with the table, the reference
    and the score's 2: HI at 0.988, worth 8 at G11, beside a reference read C; PENILS in 2H
    pencil, its S lost and the 2 of 21 read 7: PENIL at 0.993, the score shown as its 11)."""
    move = decoded.move
    if ("score" in flagged and "word" not in flagged and decoded.word.value and move is not None
            and (decoded.score_ink != move.score or "ref" in flagged)):
        return ["word", "jokers"]
    return []


#: why a field is flagged, by the rule that raised it first (``BulletinReading.flag_reasons``)
REASONS = {
    "own": "lecture incertaine",  # the decoder's confidence under the threshold, or nothing read
    "doubt": "case douteuse",  # faint ink, a digit cut short, two cuts read alike
    "lossy": "encre perdue ailleurs",  # a field with strokes but nothing read, a word unplaced
    "struck": "lettre barrée non confirmée",
    "rule": "autre champ en doute",  # drawn from the doubts of the other fields
    "illegal": "aucun coup légal ne l'explique",
    "miscount": "score écrit autre que celui du coup",  # read surely, for the arbiter to sanction
    "read_back": "case lue barrée, relue comme lettre du coup",
}


def _field_flags(
    decoded: Decoded, fields: Fields, groups, word_row: int, threshold: float,
    table_threshold: float | None = None, cands: Sequence[Candidate] | None = None,
) -> dict[str, str]:
    """The fields sent to the arbiter, in order, each with why (``REASONS``): the decoder's
    doubts, then the capture's, then those
    each rule draws from the others. The word's rule comes after every doubt of the score,
    whichever rule raised it (BASEE at M2 for 26 read BASE, legal at 4A for 26, beside a
    reference read 4A in doubt and a score flagged for the 1 its box may hide: the word
    stood on its ink alone, unflagged). Whether the word was in doubt already is the
    decoder's say, as before."""
    own = _flags(decoded, threshold, table_threshold)
    flagged = list(own)
    why = dict.fromkeys(own, REASONS["own"])
    if "coup_illegal" in why:
        why["coup_illegal"] = REASONS["illegal"]
    if "score" in why and _miscounted(decoded):
        why["score"] = REASONS["miscount"]
    if why.get("table") == REASONS["own"]:
        why["table"] = _table_doubt(decoded.table) or why["table"]
    sure_move = _sure_move_scored(decoded, own)
    struck_settled = (sure_move and bool(groups.struck_cells)  # not those read back in the word
                      and not _longer_word_fits(groups, decoded.move, cands or (), decoded.score.value))
    doubtful = [name for name in _doubtful_fields(fields, groups, word_row, struck_settled)
                if not (name == "score" and sure_move)]
    for rule, names in (("doubt", doubtful),
                        ("lossy", _lossy_capture(fields, groups)),
                        ("struck", _struck_unconfirmed(groups, own)),
                        ("struck", _struck_longer_word(groups, decoded, cands or ())),
                        ("read_back", _struck_read_back(groups))):
        for name in names:
            why.setdefault(name, REASONS[rule])
            if name not in flagged:
                flagged.append(name)
    if _score_unvouched(fields, flagged) and "score" not in flagged:
        flagged.append("score")
    doubts = own + [name for name in ("ref", "score") if name in flagged and name not in own]
    flagged += [name for name in _score_disowns_move(decoded, doubts) if name not in flagged]
    flagged += [name for name in _place_unvouched(decoded, doubts) if name not in flagged]
    flagged += [name for name in _score_unplaced(decoded, flagged) if name not in flagged]
    if "word" in flagged and "jokers" not in flagged:
        # whatever put the word in doubt puts its circles in doubt: HAVEEs, its circled last
        # letter too faint to be cut (a doubtful box), read HAVEE, legal for the same score
        # (a joker scores nothing), the word flagged and its jokers, none, sure at 0.98
        flagged.append("jokers")
    return {name: why.get(name, REASONS["rule"]) for name in flagged}


def _sure_move_scored(decoded: Decoded, own: list[str]) -> bool:
    """Whether the game settles a doubt of the capture: the retained move is sure on every
    field that places and counts it (word, jokers, reference or raccord, score: none in the
    decoder's own doubts ``own``) and the score read is that move's. A doubtful cell of the
    score box (faint ink beside the digits, two cuts read alike: 72 or 172) then leaves
    possible only a count off by ten or a hundred exactly where the ink hesitates, a player's
    slip far rarer than the capture's; a cell of the word row read unsurely as struck, only
    a longer word worth that score (:func:`_longer_word_fits`). A move in doubt vouches for
    nothing (13 read 3 in pencil, its 1 on the box's edge, beside GUE misread EUE, worth 3
    at O8)."""
    move = decoded.move
    return (move is not None and decoded.score.value == move.score
            and not {"score", "word", "jokers", "ref", "raccord"} & set(own))


def _longer_word_fits(groups, move: Candidate, cands: Sequence[Candidate], score: int | None) -> bool:
    """Whether cells of the word row read as struck may be letters of the word after all, for
    the ``score`` read (None: any score): a legal word spelled with letters in some of those
    cells is worth it, or a cell is seen circled (a joker scores nothing: a longer word, even
    one no move spells, would be worth the same). A letter misread as struck (DELPHINE's E,
    its bar reaching out of the curves: PLEINS read PLEIN·S) leaves the player's count, the
    longer word's, beside the shorter one; a letter struck for good leaves the shorter word's."""
    if any(cell.circled >= 0.5 for cell in groups.struck_cells):
        return True
    if len(groups.struck_cells) > STRUCK_TRIED:  # a corrected word: for the arbiter anyway
        return True
    cols = [r.col for r in groups.word]
    word = move.word.upper()
    for k in range(1, len(groups.struck_cells) + 1):
        for struck in combinations(groups.struck_cells, k):
            spelled = sorted([*cols, *(cell.col for cell in struck)])
            inserted = {spelled.index(cell.col) for cell in struck}
            if any(len(c.word) == len(word) + k and (score is None or c.score == score)
                   and "".join(ch for i, ch in enumerate(c.word) if i not in inserted).upper() == word
                   for c in cands):
                return True
    return False


def _struck_longer_word(groups, decoded: Decoded, cands: Sequence[Candidate]) -> list[str]:
    """The word, when cells of its row read surely as struck were left out and a longer legal
    word, with letters in them, is worth the score read as well (:func:`_longer_word_fits`):
    the score, which tells a letter struck for good from one misread as struck, does not here
    (DAMEE at K11 for 20 in DELPHINE's hand, both E read struck: DAM, legal at 5C for 20 too,
    beside a reference misread, at 0.9999)."""
    move = decoded.move
    if (groups.struck_cells and move is not None
            and _longer_word_fits(groups, move, cands, decoded.score.value)):
        return ["word"]
    return []


#: a flagged score differing from the retained move's is called a miscount where the ink
#: leaves the move's value at most this probability (ink and game together): the written
#: number is clear, the count is what the arbiter checks
MISCOUNT_CLEAR = 0.1


def _miscounted(decoded: Decoded) -> bool:
    """Whether the score is flagged for differing from the retained move's, its ink leaving
    that move's value no chance: a miscount (a warning under the rules), not a hesitation
    of the reader (14 read beside a move worth 24, the 1 perhaps a 2). The arbiter is told
    which, so that he checks the count, not the digits."""
    move, score = decoded.move, decoded.score
    if move is None or not isinstance(score.value, int) or score.value == move.score:
        return False
    legal = max((p for v, p in score.alternatives if v == move.score), default=0.0)
    return legal <= MISCOUNT_CLEAR


#: a table the ink fits with at least this probability is named to the arbiter beside the
#: one read
TABLE_SHOWN = 0.01


def _table_doubt(table: FieldValue | None) -> str | None:
    """What the arbiter is to look at on a table in doubt: the other table of the roster its
    ink fits (a 7 with a short bar, a 1 or a 7), or the leading 1 a pale pen, or a stroke
    along the box's edge or a separator, may have lost (53, or 153). Shown after the value
    read: « 53 (50 %) : peut-être 153 (un 1 effacé devant ?) »."""
    if table is None or table.value is None:
        return None
    rival = next((v for v, p in table.alternatives
                  if v is not None and v != table.value and p >= TABLE_SHOWN), None)
    if rival is None:
        return None
    if str(rival) == f"1{table.value}":
        return f"peut-être {rival} (un 1 effacé devant ?)"
    return f"peut-être {rival}"


def _likeliest_in_doubt(decoded: Decoded, flagged: list[str], marked: Iterable[str] = ()) -> None:
    """A reference or a score sent to the arbiter shows him its likeliest value: the retained
    move's, where ink and game together make it likelier than the ink's own reading (PERCAT
    at 8A in pale violet, the 8 read 6 at 0.9: 6A stayed the reading, flagged, beside 8A at
    0.996). Only once every flag is raised, so that each rule still sees what the ink read
    (a score read off the move keeps the word in doubt), and only in a field in doubt: the
    arbiter checks the value against the photo either way, and confirms it more often than
    he mends it. The ink's reading stays among the alternatives. A box with ink (``marked``)
    where nothing was read shows the move's value too, the only one the game gives (the 20
    of VERMEIL in 2H pencil, under the paper's grain), but for a reference beside raccord
    letters: the word placed by them, a trace in the reference box (PESAT placed by AER) is
    no reference the player wrote. Raccord letters likewise
    (``likeliest_raccord``: the grid letter the player copied, where ink and grid agree)."""
    move = decoded.move
    if move is None:
        return
    for name, legal in (("ref", move.ref), ("score", move.score)):
        f: FieldValue = getattr(decoded, name)
        if name not in flagged or f.value == legal:
            continue
        if f.value is None:
            if name in marked and not (name == "ref" and decoded.raccord):
                setattr(decoded, name, FieldValue(legal, 0.0, [(legal, 0.0)]))
                if name == "ref":
                    decoded.sens = sens_of(legal)
            continue
        p = dict(f.alternatives)
        if p.get(legal, 0.0) > p.get(f.value, 0.0) or one_character_short(f.value, legal):
            # the move's value with one character more: one the capture lost (the 3 of 32
            # read 2, too pale; "scores lose a digit"), far likelier than a player's slip
            # dropping exactly one
            p.setdefault(legal, 0.0)
            setattr(decoded, name, FieldValue(
                legal, min(p[legal], DISAGREE), sorted(p.items(), key=lambda vp: -vp[1])))
            if name == "ref":
                decoded.sens = sens_of(legal)
    if "raccord" in flagged and decoded.raccord_likeliest:
        decoded.raccord = decoded.raccord_likeliest  # the grid's letters, where ink and grid agree


def _place_unvouched(decoded: Decoded, flagged: list[str]) -> list[str]:
    """The reference, when the word is in doubt and the score, in doubt too, is not the
    retained move's: nothing read surely vouches for the move's place, which its own ink
    chose, and the reference stands on that ink alone (DOUMA at H8 for 16 in Steve Hand's
    violet ink, the 8 read 5 at 0.97 and the 1 of 16 lost: H5, where DOUMA is worth 14,
    beside a word and a score 6 both in doubt)."""
    move = decoded.move
    if ("word" in flagged and "score" in flagged and "ref" not in flagged and move is not None
            and decoded.ref.value is not None and decoded.score.value != move.score):
        return ["ref"]
    return []


def _score_unplaced(decoded: Decoded, flagged: list[str]) -> list[str]:
    """The score, when the reference is in doubt and its ink is not the retained move's
    place: the score alone chose that place among the word's, and a digit lost with the
    reference's characters leaves another place's score (USAI at 15H for 28 written over
    the boxes, the reference read I4 and the 2 of 28 lost: 12D, where USAI is worth 8, was
    retained, the 8 sure). Only on a bulletin the reference sends to the arbiter already."""
    move = decoded.move
    if ("ref" in flagged and "score" not in flagged and move is not None
            and decoded.ref.value is not None and decoded.ref.value != move.ref):
        return ["score"]
    return []


def _struck_unconfirmed(groups, flagged: list[str]) -> list[str]:
    """The word, when a letter of its row was read as struck and the game could not confirm
    the shorter word: its score is in doubt. A struck letter and a letter
    misread as one (DELPHINE's E, its bar reaching out of the curves, read struck at 0.98)
    both leave a legal word (VUE read VU, 30 points at A8 where VUE makes 33), and a letter
    read back by ``decode.decode_word`` (no move spells the word without it) may have been
    struck for good; only a score read surely, the retained move's, tells them apart."""
    if groups.struck and groups.word and "score" in flagged:
        return ["word"]
    return []


def _struck_read_back(groups) -> list[str]:
    """The word, when a cell the recogniser read as struck was read back as one of its
    letters (``decode.decode_word``: no legal move spells the word without it). A letter
    misread as struck (DELPHINE's E) and a letter struck for good, its score left as the
    longer word's, read alike: the game vouches for the longer word in both, only the
    arbiter tells which the player meant."""
    return ["word"] if any(c.crossed for c in groups.word) else []


def _cell_keys(groups) -> dict[str, list[str]]:
    return {
        "word": [r.key for r in groups.word],
        "ref": [r.key for r in groups.ref],
        "score": [r.key for r in groups.score],
        "table": [r.key for r in groups.table],
        "raccord": [r.key for _, _, r in groups.raccord],
    }


def _failure(status: str, photo: str | None, detail: str, start: float) -> BulletinReading:
    message = MESSAGES.get(status, status) + (f" ({detail})" if detail else "")
    return BulletinReading(photo, status, message, seconds=time.perf_counter() - start)


#: another cut of a number is kept when its characters are read this much more surely
#: (mean log-probability of the best reading per character)
CUT_MARGIN = 0.3
#: … and when it is read almost as surely, the number is flagged (a digit may be hidden
#: in another: 71 read 7)
CUT_DOUBT = 0.7
#: a piece joined to its neighbour (``Fields.joined``) that still reads as a digit this
#: surely: the number may have one digit fewer than the cut kept (a 1's lead-in: 13 → 113)
JOIN_SURE = 0.5


def _certainty(readings) -> float:
    return float(np.mean([np.log(max(r.confidence, 1e-6)) for r in readings])) if readings else -99.0


#: a 1 cut off a character, and what it leaves, each at least this share of the character's
#: height: a 1 is as tall as the digit it touches, while a 4's left stroke stops at its bar
#: and a 1's lead-in is short (184, 47 and 183 on bench 21, cut so, were right as read)
ONE_BESIDE_TALL = 0.85


def _one_beside_digit(kept: dict, cut: dict, ones: list[int], other: dict, readings, name: str) -> bool:
    """Whether a 1 cut off a character leaves the digit the whole character was read as, both
    as tall as the character: the 1 is then ink the reading ignored (a slanted 1 joined to a
    7's bar: 172 read 72, sure), and so is a character cut into 1s only. A 9's loop cut off
    its straight stem reads 0, not 9: the stem is the 9's own."""
    split = pieces_not_in(kept, cut.values())
    whole = {r.best for r in readings if r.key in {f"{name}:{c}" for c in split}}
    height = max((kept[c].image.shape[0] for c in split), default=0)
    pieces = pieces_not_in(cut, kept.values())
    rest = [c for c in pieces if c not in ones]
    return (all(cut[c].image.shape[0] >= ONE_BESIDE_TALL * height for c in pieces)
            and (not rest or any(other[c].best in whole for c in rest)))  # all 1s: 11 read 1


def _best_cuts(fields: Fields, glyphs: list[Glyph], readings, recogniser: Recogniser):
    """For a number written with touching digits, ``fields`` offers a second cut: keep the
    one whose characters the recogniser reads with more certainty (segmentation by
    recognition) — the digits as written, not as the comb would have them."""
    for name, alt in fields.alternatives.items():
        if not alt:
            continue
        mine = [r for r in readings if r.key.startswith(name + ":")]
        other = recogniser.read(list(alt.values()))
        gain = _certainty(other) - _certainty(mine)
        if gain > CUT_MARGIN:
            keep = [i for i, g in enumerate(glyphs) if g.field != name]
            glyphs = [glyphs[i] for i in keep] + list(alt.values())
            readings = [readings[i] for i in keep] + other
        elif gain > -CUT_DOUBT:  # both cuts read alike: how many digits were written?
            fields.doubtful.add(f"{name}:cut")
    for name, joined in fields.joined.items():
        other = recogniser.read(list(joined.values()))
        if min(r.confidence for r in other) >= JOIN_SURE:
            fields.doubtful.add(f"{name}:cut")
    for name, cut in fields.touching_one.items():
        other = dict(zip(cut, recogniser.read(list(cut.values())), strict=True))
        ones = ones_split_off(fields.combs[name].values(), cut)
        if (any(other[c].best == "1" for c in ones)
                and min(r.confidence for r in other.values()) >= JOIN_SURE
                and _one_beside_digit(fields.combs[name], cut, ones, other, readings, name)):
            fields.doubtful.add(f"{name}:cut")
    return glyphs, readings


#: digits that are another's strokes less one: a 1 is a 7 or a 4 without its bars, a 0 a 6
#: or a 9 without its stem
PART_OF_ANOTHER = frozenset("10")


def _pale_uprights(fields: Fields, readings, glyphs: dict[str, Glyph], recogniser: Recogniser) -> None:
    """A digit beside ink too pale to be cut may be part of another whose other strokes
    faded (camera shake, a light pen): a 7's bars, 57 read 51; a 6's stem in pencil, 176
    read 170. When it reads as such a part, its cell is doubtful; so is it when, seen with
    that ink, it no longer reads surely as read (a thin pale 3 cut as its lower half read
    2 at 0.97: 131 read 121). Not a digit of another cut of its number, kept instead."""
    for r in readings:
        if r.key in fields.pale_beside and r.best in PART_OF_ANOTHER:
            fields.doubtful.add(r.key)
    read = {r.key for r in readings}
    _unsure_when_seen_whole(fields, readings, {
        k: g for k, g in fields.pale_beside.items()
        if k in read and k not in fields.doubtful and glyphs[k].origin == g.origin
    }, recogniser)


#: a digit seen again with the pale ink that closes one of its loops must still read as
#: read this surely (bench: 0.96 or more, every time; the 6 cut as a 5: 0.67)
LOOP_KEEPS = 0.9


def _closed_loops(fields: Fields, readings, glyphs: dict[str, Glyph], recogniser: Recogniser) -> None:
    """A digit no longer surely read as such once its pale ink closes a loop the cut left
    open (a 6 whose stroke broke in hard pencil, cut and read 5: 163 read 153; seen whole,
    5 at 0.67, 6 at 0.32): doubtful. A digit the pale ink leaves as read is not; nor one of
    another cut of its number, kept instead (``glyphs``: the glyphs read, by key)."""
    read = {r.key for r in readings}
    _unsure_when_seen_whole(fields, readings, {
        k: g for k, g in fields.pale_loops.items() if k in read and glyphs[k].origin == g.origin
    }, recogniser)


#: a table digit (or a reference character) seen with its faded ink must still read as read
#: this surely (benches 21 and 501 generic, 8 personalised: table digits on unflagged
#: generic bulletins, 0.89 or more; misread digits the cut made sure fell to 0.3 and under,
#: the S-shaped 8 read 5 to 0.06, the pencil 8 read 6 in H8 to 0.002)
FADED_KEEPS = 0.8


def _faded_strokes(fields: Fields, readings, glyphs: dict[str, Glyph], recogniser: Recogniser) -> None:
    """A table digit or reference character no longer surely read as such once seen with
    its ink down to a quarter of its stroke level (``Fields.faded``): strokes faded under
    the cut's thresholds made it another (128 shaken, the 8 an S whose closing strokes were
    lost: 5 at 0.99; seen with its faded ink, 8 at 0.93. H8 in hard pencil: H6 at 0.97,
    the 8 at 0.49 so). A table digit is doubtful: nothing else checks the table. A
    reference character is marked ``faded_otherwise`` for the decoder, which flags the
    reference where the word is worth its score at a place differing there (the first
    coup's empty board); elsewhere the game places the move (bench 21: flagging every such
    reference sent 5 % more bulletins to the arbiter)."""
    read = {r.key for r in readings}
    faded = {k: g for k, g in fields.faded.items() if k in read and glyphs[k].origin == g.origin}
    otherwise = _not_kept(readings, faded, recogniser, FADED_KEEPS)
    in_ref = {k for k in otherwise if faded[k].field == "ref"}
    fields.doubtful |= otherwise - in_ref
    for r in readings:  # the decoder weighs them: only where the game leaves the place open
        r.faded_otherwise = r.faded_otherwise or r.key in in_ref


def _unsure_when_seen_whole(
    fields: Fields, readings, whole: dict[str, Glyph], recogniser: Recogniser,
    keeps: float = LOOP_KEEPS,
) -> None:
    """Each cell of ``whole`` (a glyph with ink the cut left out given back) doubtful where
    the digit read no longer reads ``keeps`` surely."""
    fields.doubtful |= _not_kept(readings, whole, recogniser, keeps)


def _not_kept(readings, whole: dict[str, Glyph], recogniser: Recogniser, keeps: float) -> set[str]:
    """The cells of ``whole`` where the character read no longer reads ``keeps`` surely (in a
    reference, an O and a 0, an I and a 1 count partly for each other, as the decoder has it)."""
    if not whole:
        return set()
    best = {r.key: r.best for r in readings}
    return {key for key, r in zip(whole, recogniser.read(list(whole.values())), strict=True)
            if (ref_char_p if whole[key].field == "ref" else CharReading.p)(r, best[key]) < keeps}


def _erased_tops(fields: Fields, readings, glyphs: dict[str, Glyph], recogniser: Recogniser) -> None:
    """A table or score digit touching a thickened top (or bottom) edge that no longer reads
    surely as read once the edge's ink over it is given back: part of it was drawn on the
    rule and erased with it (a 9's loop closed on the edge: 109 read 104 at 0.98; a slanted
    8's upper loop: 28 read 20; a 4's bar on the bottom edge: 143 read 113). Doubtful; the
    arbiter sees the photo."""
    read = {r.key for r in readings}
    _unsure_when_seen_whole(fields, readings, {
        k: replace(g, image=g.with_edge) for k, g in glyphs.items()
        if k in read and g.with_edge is not None and g.field in ("table", "score")
    }, recogniser)


def _halo_loops(fields: Fields, readings, glyphs: dict[str, Glyph], recogniser: Recogniser) -> None:
    """A table digit whose loop is closed only in the halo of its strokes (open in their
    dark core) and whose core reads as another digit: doubtful. A 5's curl run close to
    its stem in a thick pen under perspective closes up a loop: 55 read 56, the 6 at 0.97,
    its core read 5. A loop the core keeps, or a core read as read, is no doubt (bench: a
    closed 4 opened into a 7 once in 300; 8s, 9s, 0s, 6s otherwise as read)."""
    best = {r.key: r.best for r in readings}
    cores = {}
    for key in best:
        g = glyphs.get(key)
        if g is not None and g.field == "table":
            core = open_core(g.image)
            if core is not None:
                cores[key] = replace(g, image=core)
    if not cores:
        return
    for key, r in zip(cores, recogniser.read(list(cores.values())), strict=True):
        if r.best != best[key]:
            fields.doubtful.add(key)


#: a digit read 1 whose ink is a straight bar (its variance along its long axis this many
#: times the variance across it) …
BAR_ELONGATION = 8.0
#: … lying this far from upright (degrees) is no 1: a slanted 8 whose loops closed up (185
#: read 115, the 8 one violet bar at 52°, sure). Bench 1s that far from upright are angular
#: (a lead-in and an upright: elongation 2.5–5), bar-like only once in 395
LYING = 45.0


def _lying_ones(fields: Fields, readings, glyphs: dict[str, Glyph]) -> None:
    """A digit of a number read 1 whose ink is a bar lying nearer flat than upright: doubtful
    (``glyphs``: the glyphs read, by key, whichever cut of the number was kept)."""
    for r in readings:
        g = glyphs.get(r.key)
        if g is not None and g.field != "grid" and r.best == "1":
            angle, elongation = lean(g.image)
            if angle >= LYING and elongation >= BAR_ELONGATION:
                fields.doubtful.add(r.key)


def _with_code(
    reading: BulletinReading,
    code: PrintedCode | None,
    tables: Iterable[int] | None,
    coup: int | None,
) -> BulletinReading:
    """A personalised bulletin: the table is the printed code's, with certainty. The
    handwritten table box, if filled in and read otherwise, is flagged (which is right?);
    so is a table not in the game, and a bulletin printed for another coup."""
    if code is None:
        return reading
    reading.printed = code
    hand = reading.table
    alternatives: list[tuple[object, float]] = [(code.table, 1.0)]
    doubts: dict[str, str] = {}
    if tables is not None and code.table not in set(tables):
        doubts["table"] = "table imprimée hors de la partie"
    if hand is not None and hand.value is not None and hand.value != code.table:
        alternatives.append((hand.value, hand.confidence))
        doubts.setdefault("table", "table écrite autre que l'imprimée")
    if coup is not None and code.coup is not None and code.coup != coup:
        doubts["coup"] = "bulletin imprimé pour un autre coup"
    reading.table = FieldValue(code.table, 1.0, alternatives)
    if reading.status in (OK, A_VERIFIER):
        reading.flagged = [f for f in reading.flagged if f != "table"]
        reading.flagged += [d for d in doubts if d not in reading.flagged]
        reading.flag_reasons.pop("table", None)
        reading.flag_reasons.update(doubts)
        reading.status = A_VERIFIER if reading.flagged else OK
        reading.message = MESSAGES[reading.status] + (
            f" ({UNREAD})" if reading.message.endswith(f"({UNREAD})") else ""
        )
    return reading


#: photo pixels per millimetre of the page under which a bulletin is not called blank: a 2H
#: pencil's strokes fade into the paper's grain (a page across a third of a 1600×1200 photo,
#: 4.2 pixels per mm: 145 and its word in 2H pencil read as a bulletin with only a table);
#: at 5, a 0.3 mm pencil line still spans 1.5 pixels. The arbiter looks at such a page
BLANK_PX_PER_MM = 5.0


def _px_per_mm(page: Page, layout: Layout) -> float:
    """How many photo pixels the page's width spans per millimetre (corners TL, TR, BR, BL)."""
    c = np.asarray(page.corners, np.float64).reshape(4, 2)
    width = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2
    return float(width / layout.page_mm[0])


def _unread(photo: str | None, fields: Fields, start: float) -> BulletinReading:
    """Ink in the fields but nothing read from it (very pale pencil, only struck-out
    letters): the arbiter reads it — it is never taken for a blank bulletin."""
    reading = _failure(A_VERIFIER, photo, UNREAD, start)
    reading.flagged = ["table", "word", "jokers", "ref", "score", "raccord"]
    reading.flag_reasons = dict.fromkeys(reading.flagged, "rien de lu")
    return reading


def _why_not_found(img: np.ndarray) -> str:
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(
        gray, (640, round(640 * gray.shape[0] / gray.shape[1])), interpolation=cv2.INTER_AREA
    )
    if float(np.percentile(small, 95)) < 60:
        return SOMBRE
    if float(cv2.Laplacian(small, cv2.CV_32F).var()) < 8:
        return FLOUE
    return NON_TROUVE


def _thresholds(threshold: float, markerless: bool) -> tuple[float, float]:
    """The confidence a field and the table need to pass unflagged: the table ``TABLE_EXTRA``
    more; on a page found without markers, ``CONTOUR_THRESHOLD`` at least, for both (not on
    top of each other: 1.0, which no table reads)."""
    table = min(1.0, threshold + TABLE_EXTRA)
    if markerless:
        return max(threshold, CONTOUR_THRESHOLD), max(table, CONTOUR_THRESHOLD)
    return threshold, table


def _flags(d: Decoded, threshold: float, table_threshold: float | None = None) -> list[str]:
    """The fields whose reading is in doubt; the table passes from ``table_threshold``
    (default: ``TABLE_EXTRA`` over ``threshold``)."""
    if table_threshold is None:
        table_threshold = _thresholds(threshold, markerless=False)[1]
    flagged = []
    for name in ("table", "word", "ref", "score"):
        f: FieldValue = getattr(d, name)
        if f.value is None and name in ("table", "word", "score"):
            flagged.append(name)
        elif name == "ref" and f.value is None and not d.raccord:
            # a word placed nowhere: a reference, or raccord letters, too pale to be seen?
            flagged.extend(("ref", "raccord"))
        elif f.confidence < (table_threshold if name == "table" else threshold):
            flagged.append(name)
    if "word" in flagged or (d.word.value and d.jokers_confidence < threshold):
        flagged.append("jokers")  # an unread word's circles are unread too (EMPENNA lost whole)
    if d.word.value is None and not d.raccord and "raccord" not in flagged:
        # the word unread, its raccord letters (written beside it, as pale) may be too: the
        # arbiter reads both (PISE lost in pencil, its raccord D with it)
        flagged.append("raccord")
    if d.raccord and d.raccord_confidence < threshold:
        flagged.append("raccord")  # a raccord letter not on the grid, or not surely read
    if d.constrained and not d.legal and d.word.value:
        # no legal move explains the reading: nor can the raccord be checked against the grid
        # (one may have been missed as well as misread)
        flagged.extend(n for n in ("word", "jokers", "raccord", "coup_illegal") if n not in flagged)
    if not d.raccord and "raccord" not in flagged and d.ref.value is not None \
            and not is_reference(d.ref.value):
        # what was read in the reference box is no reference (a trace read « 1 »): the word
        # is placed nowhere, and raccord letters too pale to be seen may be where the player
        # placed it (RAZ under strong perspective, its raccord E lost, the box's trace read 1)
        flagged.append("raccord")
    if d.ref.value is None and "raccord" in flagged and "ref" not in flagged:
        # the word placed by a raccord in doubt (a stray mark read as one): a reference too
        # pale to be seen may be what the player wrote
        flagged.append("ref")
    if "coup_illegal" in flagged and "table" not in flagged:
        # no legal move explains word, reference and score: a capture that failed wherever
        # the game could check it cannot vouch for the one field it does not (22 in dark,
        # curled pencil, the first 2 too pale to be cut, read 2 beside a lost word)
        flagged.append("table")
    return flagged


#: a "1" reaching a thickened top edge of its box may be a 7 whose bar merged with the edge:
#: this share of its probability is also given to "7" (the game or the arbiter decides)
EDGE_SEVEN = 0.5


def _edge_doubt(readings, glyphs: dict[str, Glyph]) -> None:
    for r in readings:
        g = glyphs.get(r.key)
        if g is None or not g.touches_top or "7" not in r.probs or r.best != "1":
            continue
        _share_of_seven(r)


def _share_of_seven(r: CharReading) -> None:
    """Give the 7 ``EDGE_SEVEN`` of a 1's probability: the 1 stays the reading, in doubt."""
    r.probs["7"] = max(r.probs["7"], EDGE_SEVEN * r.probs["1"])
    total = sum(r.probs.values())
    for ch in r.probs:
        r.probs[ch] /= total


#: a number's digit read 1, a straight bar, leaning this many degrees further to the right
#: than another straight 1 of the same number may be a 7 whose bar the capture lost: a hand
#: writes its 1s alike, and a 7's stem slants more (117 in dark, curled pencil, Steve Hand's
#: hand: the 7's bar too faint to be seen, its stem at 22° beside 1s at -4° and 4°, read 111
#: at 0.971). On benches 21 and 8 (600 bulletins), one pair of straight 1s written by one
#: hand differed so much (DKG's 114, 34°), on a bulletin flagged already
ODD_LEAN = 20.0


def _leaning_ones(readings, glyphs: dict[str, Glyph]) -> None:
    """A 1 of a table or score leaning ``ODD_LEAN`` further than another 1 of the same
    number, both straight bars (``BAR_ELONGATION``), is given a share of 7. Not in a
    reference: its number (1–15) never holds both a 1 and a 7."""
    ones: dict[str, list] = {}
    for r in readings:
        g = glyphs.get(r.key)
        if g is None or g.field not in ("table", "score") or r.best != "1" or "7" not in r.probs:
            continue
        angle, elongation = signed_lean(g.image)
        if elongation >= BAR_ELONGATION:
            ones.setdefault(g.field, []).append((r, -angle))  # degrees leaning right
    for number in ones.values():
        for r, right in number:
            if any(right - other >= ODD_LEAN for _, other in number):
                _share_of_seven(r)


def _image(source: str | Path | bytes | np.ndarray) -> np.ndarray:
    img = source if isinstance(source, np.ndarray) else load_image(source)
    return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR) if img.ndim == 2 else img


def _guarded(photo: str | None, start: float, read):
    """``read()``, or the failed reading its exception means (a status, never a traceback)."""
    try:
        return read()
    except VisionError as exc:
        return _failure(exc.status, photo, exc.detail, start)
    except MemoryError:
        return _failure(ILLISIBLE, photo, "image trop grande pour la mémoire", start)
    except Exception as exc:  # noqa: BLE001 - the kiosk must get a status, never a traceback
        # the text of an OpenCV assertion is English and long: the type is enough here
        return _failure(ILLISIBLE, photo, f"erreur inattendue du lecteur ({type(exc).__name__})",
                        start)


def read_bulletin(
    source: str | Path | bytes | np.ndarray,
    candidates: Iterable | None = None,
    board: Board | None = None,
    tables: Iterable[int] | None = None,
    layout: Layout | None = None,
    recogniser: Recogniser | None = None,
    photo: str | None = None,
    threshold: float = FLAG_THRESHOLD,
    tesseract: bool = False,
    coup: int | None = None,
) -> BulletinReading:
    """Read one photo of one bulletin (several on it: ``plusieurs_bulletins``, see
    :func:`read_all`). ``candidates``: the coup's legal moves (anything with
    ref/word/score); ``coup``: the coup being read (a personalised bulletin printed for
    another is flagged)."""
    start = time.perf_counter()
    if photo is None and isinstance(source, str | Path):
        photo = str(source)

    def read() -> BulletinReading:
        nonlocal layout
        layout = layout or Layout.load()
        img = _image(source)
        try:
            page = find_page(img, layout)
        except VisionError as exc:
            if exc.status == NON_TROUVE:
                raise VisionError(_why_not_found(img)) from exc
            raise
        return read_page(page, candidates, board, tables, layout, recogniser, photo, threshold,
                         tesseract, coup, start)

    return _guarded(photo, start, read)


def read_all(
    source: str | Path | bytes | np.ndarray,
    candidates: Iterable | None = None,
    board: Board | None = None,
    tables: Iterable[int] | None = None,
    layout: Layout | None = None,
    recogniser: Recogniser | None = None,
    photo: str | None = None,
    threshold: float = FLAG_THRESHOLD,
    tesseract: bool = False,
    coup: int | None = None,
) -> list[BulletinReading]:
    """Read every bulletin of one photo, in reading order (:func:`vision.page.find_pages`):
    one independent reading each (fields, confidences, status, rectified page), and one
    ``bulletin_coupe`` reading for each sheet cut at the photo's edge. Never empty: a photo
    with no bulletin gives one failed reading, as :func:`read_bulletin` does."""
    start = time.perf_counter()
    if photo is None and isinstance(source, str | Path):
        photo = str(source)
    if candidates is not None:
        candidates = list(candidates)  # read once per bulletin

    def locate() -> list:
        nonlocal layout
        layout = layout or Layout.load()
        img = _image(source)
        found = find_pages(img, layout)
        if not found:
            raise VisionError(_why_not_found(img))
        return found

    found = _guarded(photo, start, locate)
    if isinstance(found, BulletinReading):
        return [found]
    out = []
    for k, item in enumerate(found, 1):
        if isinstance(item, VisionError):
            reading = _failure(item.status, photo, item.detail, start)
        else:
            one = time.perf_counter()
            reading = _guarded(photo, one, lambda p=item, t=one: read_page(
                p, candidates, board, tables, layout, recogniser, photo, threshold, tesseract,
                coup, t))
        reading.sheet, reading.sheets = k, len(found)
        out.append(reading)
    return out


def read_page(
    page: Page,
    candidates: Iterable | None = None,
    board: Board | None = None,
    tables: Iterable[int] | None = None,
    layout: Layout | None = None,
    recogniser: Recogniser | None = None,
    photo: str | None = None,
    threshold: float = FLAG_THRESHOLD,
    tesseract: bool = False,
    coup: int | None = None,
    start: float | None = None,
) -> BulletinReading:
    """Read one bulletin already found and rectified (stages 3–6): a page too dark or too
    blurred is a status, like the photo's other failures."""
    start = time.perf_counter() if start is None else start
    reading = _read_page(page, candidates, board, tables, layout or Layout.load(), recogniser,
                         photo, threshold, tesseract, coup, start)
    reading.page = page
    return reading


def page_fields(page: Page, layout: Layout) -> Fields:
    """The page's fields, cut with the slack its finding allows: four markers pin the page;
    with fewer (a finger on one) or none the rules may be off."""
    exact = page.method == "marqueurs" and page.markers >= 4
    return cut_fields(page.image, layout, 0.09 if exact else 0.2)


def _read_page(page, candidates, board, tables, layout, recogniser, photo, threshold,
               tesseract, coup, start) -> BulletinReading:
    printed = None
    try:
        fields = page_fields(page, layout)
        code = read_code(page.image, layout)  # a personalised bulletin: its table, exactly
        printed = code
        if fields.darkness < DARK_PAPER:
            raise VisionError(SOMBRE, f"papier à {fields.darkness:.0f}/255")
        sharp = sharpness(fields)
        if sharp < BLURRED:
            raise VisionError(FLOUE, f"netteté {sharp:.0f}")
        # a page found by its outline may take in the table it lies on (wood is skin's
        # colour): only the markers pin it well enough to tell a thumb on a box
        covered = covered_boxes(page.image, layout) if page.method == "marqueurs" else []
        if covered:
            raise VisionError(CACHE, ", ".join(BOXES[name] for name in covered))
        # a page taken from too far for a faint pen to show is never called blank
        unsure_blank = _px_per_mm(page, layout) < BLANK_PX_PER_MM
        if fields.empty:
            if fields.marked - {"table"} or unsure_blank:  # ink too faint to read: never blank
                return _with_code(_unread(photo, fields, start), code, tables, coup)
            return _with_code(_failure(VIERGE, photo, "", start), code, tables, coup)
        recogniser = recogniser or default_recogniser()
        glyphs = fields.all()
        readings = recogniser.read(glyphs)
        glyphs, readings = _best_cuts(fields, glyphs, readings, recogniser)
        by_key = {g.key: g for g in glyphs}
        _pale_uprights(fields, readings, by_key, recogniser)
        _lying_ones(fields, readings, by_key)
        _closed_loops(fields, readings, by_key, recogniser)
        _faded_strokes(fields, readings, by_key, recogniser)
        _halo_loops(fields, readings, by_key, recogniser)
        _erased_tops(fields, readings, by_key, recogniser)
        _edge_doubt(readings, by_key)
        _leaning_ones(readings, by_key)
        if tesseract:
            from .tess import second_opinion

            second_opinion(readings, {g.key: g for g in glyphs})
        groups = group_readings(readings, layout.word_row)
        if not (groups.word or groups.ref or groups.score or groups.raccord):
            table = (decode(groups, None, None, tables, "table" in fields.hidden).table
                     if groups.table else None)
            if fields.marked - {"table"} or unsure_blank:  # struck-out letters, faint strokes
                reading = _unread(photo, fields, start)
            else:
                reading = _failure(
                    VIERGE, photo, "seul le numéro de table est écrit" if groups.table else "",
                    start,
                )
            reading.table = table
            return _with_code(reading, code, tables, coup)
        cands = Candidate.all_of(candidates) if candidates is not None else None
        groups, decoded = decode_word(groups, cands, board, tables, "table" in fields.hidden)
        threshold, table_threshold = _thresholds(threshold, page.method != "marqueurs")
        reasons = _field_flags(decoded, fields, groups, layout.word_row, threshold, table_threshold,
                               cands)
        flagged = list(reasons)
        _likeliest_in_doubt(decoded, flagged, fields.marked)
        status = A_VERIFIER if flagged else OK
        crossed = sum(r.crossed for r in readings if r.key.startswith("grid:"))
        reading = BulletinReading(
            photo,
            status,
            MESSAGES[status],
            decoded.table,
            decoded.word,
            decoded.jokers,
            decoded.jokers_confidence,
            decoded.ref,
            decoded.score,
            decoded.raccord,
            decoded.sens,
            decoded.legal,
            decoded.constrained,
            crossed,
            _cell_keys(groups),
            flagged,
            page.method,
            time.perf_counter() - start,
            {g.key: g for g in glyphs},
            raccord_confidence=decoded.raccord_confidence,
            flag_reasons=reasons,
        )
        return _with_code(reading, code, tables, coup)
    except VisionError as exc:
        reading = _failure(exc.status, photo, exc.detail, start)
        reading.printed = printed  # which table's photo is to be taken again
        return reading
