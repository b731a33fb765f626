"""Pre-drawn games (« parties pré-tirées », simultanés): read them, check them whole, before play.

A club types the text format; Eliot games and our own saved games come as files too.
Every reader gives :class:`DrawnLine` s, and :func:`build_source` checks them all
against the bag and the draw rules before the game starts, naming the line (or
Eliot turn) that is wrong. The result is the ``source`` of a game in ``fichier``
mode: the engine's game dictionary (``coups`` with reliquat, new letters,
rejections and, when the file gives them, the tops the kiosk then imposes).

The text format, one tirage a line (``#`` starts a comment; a coup number may lead)::

    RJO?TOT   pROJO H8 24     the tirage, then optionally the top: word, reference, points
    -TT+YMAUB                 a rejected tirage (reliquat before ``+``): all back to the bag
    EAIRSNL   LANIERS 13B     the tirage drawn in its place

The solution and reference may be given on every line (then the whole game is
checked, tops included, and played as written) or on none (the tops are then
found at the table, and each line must write its reliquat with ``+``).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from .board import BadReference, Board, Ref
from .draw import DrawError, check_tirage, full_bag, parse_letters, take_from_bag
from .game import FORMAT, VERSION, Game, GameError
from .lexicon import Lexicon
from .movegen import generate_moves
from .tiles import RACK_SIZE

REJECTED_BY_FILE = "tirage rejeté (partie pré-tirée)"
MAX_FILE_BYTES = 5_000_000


class PreDrawnError(ValueError):
    """A pre-drawn game refused; the French message names the line or the turn."""


@dataclass(frozen=True)
class DrawnLine:
    label: str  # "ligne 4", "tour 3": how the error names it
    letters: str  # the whole tirage (reliquat included), ``?`` for a joker
    kept: str | None = None  # the reliquat written before ``+``, when written
    rejected: bool = False
    word: str | None = None  # the top, when the file gives it (joker in lower case)
    ref: str | None = None
    score: int | None = None


# -- the text format -------------------------------------------------------------------------
def parse_text(text: str) -> list[DrawnLine]:
    lines = []
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        label = f"ligne {n}"
        parts = line.split()
        if parts[0].rstrip(".:").isdigit() and len(parts) > 1:  # an optional coup number
            parts = parts[1:]
        rack = parts[0]
        rejected = rack.startswith("-")
        rack = rack.lstrip("-")
        kept, plus, new = rack.partition("+")
        try:
            letters = parse_letters(kept + new)
            kept_letters = parse_letters(kept) if plus else None
        except DrawError as exc:
            raise PreDrawnError(f"{label} : {exc}") from exc
        if not letters:
            raise PreDrawnError(f"{label} : tirage vide")
        if len(letters) > RACK_SIZE:
            raise PreDrawnError(f"{label} : {len(letters)} lettres, 7 au plus")
        word = ref = score = None
        rest = parts[1:]
        if rest:
            if rejected:
                raise PreDrawnError(f"{label} : un tirage rejeté n'a pas de solution")
            if len(rest) < 2 or len(rest) > 3:
                raise PreDrawnError(f"{label} : après le tirage, écrivez « MOT RÉFÉRENCE [POINTS] »"
                                    f" (lu : « {' '.join(rest)} »)")
            word, ref = rest[0], rest[1].upper()
            if not word.isalpha():
                raise PreDrawnError(f"{label} : solution « {word} » : lettres seulement "
                                    "(un joker en minuscule)")
            if len(rest) == 3:
                if not rest[2].isdigit():
                    raise PreDrawnError(f"{label} : points « {rest[2]} » : nombre attendu")
                score = int(rest[2])
        lines.append(DrawnLine(label, letters, kept_letters, rejected, word, ref, score))
    if not lines:
        raise PreDrawnError("aucun tirage dans le fichier")
    return lines


# -- checking ---------------------------------------------------------------------------------
def build_source(lines: list[DrawnLine], lexicon: Lexicon | None) -> dict:
    """Check every tirage (bag, vowels and consonants, reliquat, tops) and return the source."""
    accepted = [line for line in lines if not line.rejected]
    with_top = [line for line in accepted if line.word]
    missing = next((line for line in accepted[:-1] if not line.word), None)
    if with_top and missing is not None:
        raise PreDrawnError(f"{missing.label} : solution absente ; donnez la solution à chaque "
                            "ligne ou à aucune")
    if with_top:
        if lexicon is None:
            raise PreDrawnError("une liste de mots est nécessaire pour vérifier les solutions")
        return _with_tops(lines, lexicon).to_dict()
    return _without_tops(lines)


def _with_tops(lines: list[DrawnLine], lexicon: Lexicon) -> Game:
    """Replay the game as written: each top must be legal on our list and score what is written."""
    game = Game(seed=0)
    for line in lines:
        where = line.label
        if game.finished:
            raise PreDrawnError(f"{where} : la partie est déjà finie ({game.end_reason})")
        if line.rejected and not line.letters:  # the reliquat rejected, its draw unknown
            if game.reliquat:
                game.reject_reliquat(REJECTED_BY_FILE)
            continue
        if line.kept is not None and Counter(line.kept) != Counter(game.reliquat):
            raise PreDrawnError(f"{where} : reliquat « {line.kept} » écrit, mais le top précédent "
                                f"laisse « {game.reliquat or 'aucun'} »")
        try:
            check = game.draw_manual(line.letters)
        except (DrawError, GameError) as exc:
            raise PreDrawnError(f"{where} : tirage {line.letters} : {exc}") from exc
        if line.rejected:
            game.reject(REJECTED_BY_FILE)
            continue
        if not check.valid:
            raise PreDrawnError(f"{where} : tirage {line.letters} : {check.reason} "
                                "(marquez-le rejeté avec « - » s'il l'a été)")
        if not line.word:
            break  # the last tirage, its top to be found at the table
        coup = game.current
        try:
            ref = Ref.parse(line.ref or "")
        except BadReference as exc:
            raise PreDrawnError(f"{where} : {exc}") from exc
        if coup.number == 1 and not ref.horizontal:
            raise PreDrawnError(f"{where} : le premier top est toujours horizontal ({line.ref})")
        moves = generate_moves(game.board, coup.tirage, lexicon)
        move = next((m for m in moves if m.word == line.word and m.ref == ref), None)
        if move is None:
            raise PreDrawnError(f"{where} : "
                                f"{illegal_reason(game.board, coup.tirage, line.word, ref, lexicon)}")
        if line.score is not None and line.score != move.score:
            raise PreDrawnError(f"{where} : {move.word} {ref} vaut {move.score} points, "
                                f"pas {line.score}")
        best = max(m.score for m in moves)
        if move.score < best:  # the top is the best score: a player could beat it otherwise
            raise PreDrawnError(f"{where} : le top {move.word} {ref} vaut {move.score} points, "
                                f"le meilleur coup en vaut {best}")
        game.play(move)
    return game


def illegal_reason(board: Board, tirage: str, word: str, ref: Ref, lexicon: Lexicon) -> str:
    """Why a written move is not a legal move here, in French."""
    from .placement import fit_word

    if word.upper() not in lexicon:
        return f"le mot {word.upper()} n'est pas dans la liste de mots utilisée"
    fit = fit_word(board, ref, word)
    if isinstance(fit, str):
        return f"{word} {ref} impossible : {fit}"
    return (f"{word} {ref} n'est pas un coup légal avec le tirage {tirage} "
            "(lettres absentes du tirage ou mot formé hors de la liste)")


def _without_tops(lines: list[DrawnLine]) -> dict:
    """Tirages alone: the reliquat written with ``+`` says what each top left."""
    bag = full_bag()
    previous: str | None = None  # the last accepted tirage: its top is played before this line
    coups: list[dict] = []
    rejections: list[dict] = []
    for line in lines:
        where = line.label
        if previous is not None:
            if line.kept is None:
                raise PreDrawnError(f"{where} : écrivez le reliquat avec « + » (par exemple "
                                    "EA+BCDFG), ou donnez la solution de chaque coup")
            kept = line.kept
            if +(Counter(kept) - Counter(previous)):
                raise PreDrawnError(f"{where} : reliquat « {kept} » : ces lettres ne sont pas "
                                    f"toutes dans le tirage précédent {previous}")
            if len(kept) >= len(previous):
                raise PreDrawnError(f"{where} : reliquat « {kept} » : le top précédent doit "
                                    "poser au moins une lettre")
            previous = None  # that top is played: its letters leave the game
        else:
            kept = line.kept or ""
            if kept:
                what = "après un tirage rejeté, toutes les lettres sont nouvelles" if rejections \
                    else "pas de reliquat au premier coup"
                raise PreDrawnError(f"{where} : reliquat « {kept} » : {what}")
        new = _in_order(line.letters, kept)
        try:
            take_from_bag(bag, new)
        except DrawError as exc:
            raise PreDrawnError(f"{where} : tirage {line.letters} : {exc}") from exc
        pool = "".join(sorted(bag.elements())) + line.letters
        check = check_tirage(line.letters, len(coups) + 1, pool)
        if line.rejected:
            bag.update(line.letters)  # the reliquat goes back with the rest
            rejections.append({"tirage": line.letters, "reason": REJECTED_BY_FILE})
            continue
        if not check.valid:
            raise PreDrawnError(f"{where} : tirage {line.letters} : {check.reason} "
                                "(marquez-le rejeté avec « - » s'il l'a été)")
        coup = {"number": len(coups) + 1, "reliquat": kept, "new_letters": new,
                "bag_left": sum(bag.values())}
        if rejections:
            coup["rejections"] = rejections
        coups.append(coup)
        rejections = []
        previous = line.letters
    return {"format": FORMAT, "version": VERSION, "seed": 0, "coups": coups, "end": None,
            "sans_solutions": True}


def _in_order(letters: str, kept: str) -> str:
    """``letters`` less one of each letter of ``kept``, order kept."""
    left = Counter(kept)
    out = []
    for ch in letters:
        if left[ch]:
            left[ch] -= 1
        else:
            out.append(ch)
    return "".join(out)


# -- files --------------------------------------------------------------------------------------
def read_predrawn(path: str | Path, lexicon: Lexicon | None) -> dict:
    """A pre-drawn game from a file, whatever its kind: Eliot XML, our JSON, or the text format."""
    from .files import FileRefused, decode_lines, parse_json, read_bytes

    path = Path(path)
    try:  # a regular file only, read at most MAX_FILE_BYTES (a FIFO or /dev/zero never hang)
        data = read_bytes(path, "partie pré-tirée", MAX_FILE_BYTES)
    except FileRefused as exc:
        raise PreDrawnError(str(exc)) from exc
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")[:200]
    if head.startswith(b"<"):
        from .eliot import EliotError, parse_eliot, predrawn_lines

        try:
            return build_source(predrawn_lines(parse_eliot(data)), lexicon)
        except (EliotError, PreDrawnError) as exc:
            raise PreDrawnError(f"{path.name} : {exc}") from exc
    if head.startswith(b"{"):
        try:  # bounded JSON (no NaN, no 5,000-digit number, no 100,000 brackets), then shape
            text = data.decode("utf-8-sig")
            game = Game.from_dict(parse_json(text, "partie pré-tirée", path.name),
                                  source=path.name)
        except UnicodeDecodeError as exc:
            raise PreDrawnError(f"{path.name} : fichier JSON illisible (pas de l'UTF-8)") from exc
        except (FileRefused, GameError) as exc:
            raise PreDrawnError(str(exc)) from exc
        return build_source(_with_rejections(game), lexicon) if lexicon else game.to_dict()
    try:  # line by line: UTF-8, else Windows-1252 for that line (engine.files)
        text = decode_lines(data, "partie pré-tirée", path.name)
    except FileRefused as exc:
        raise PreDrawnError(str(exc)) from exc
    try:
        return build_source(parse_text(text), lexicon)
    except PreDrawnError as exc:
        raise PreDrawnError(f"{path.name}, {exc}") from exc


def source_of_game(game: Game, lexicon: Lexicon) -> dict:
    """A game played (by the engine from a seed: a tournament drawn once) as a pre-drawn
    source, through the same checks as a file."""
    return build_source(_with_rejections(game), lexicon)


def _with_rejections(game: Game) -> list[DrawnLine]:
    """Our saved game as lines, rejected tirages included, so the same checks run."""
    lines = []
    for c in game.coups:
        for tirage in c.rejections:
            lines.append(DrawnLine(f"coup {c.number}", tirage, None, True))
        lines.append(DrawnLine(f"coup {c.number}", c.tirage, None, False,
                               c.top.word if c.top else None, str(c.top.ref) if c.top else None,
                               c.top.score if c.top else None))
    return lines
