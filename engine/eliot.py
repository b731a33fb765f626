"""Eliot game files (XML « format 2 »), read and written: the open peer program's saved games.

What the format holds, as Eliot's own reader and writer define it
(``game/xml_reader.cpp``, ``game/xml_writer.cpp``):

- root ``<EliotGame format="2">``; ``<Dictionary>`` (Name, Type, Letters, WordNb);
- ``<Game>``: ``<Mode>`` (``duplicate``, ``arbitration``…), ``<Variant>`` s, one
  ``<Player id>`` each (Name, Type ``human``/``computer``, Level, TableNb), ``<Turns>``;
- ``<History>``: one ``<Turn>`` a coup, a list of commands in the order they were
  done: ``<GameRack>`` (``KEPT+NEW``; a leading ``-`` when the previous tirage was
  rejected), ``<PlayerRack playerId>``, ``<PlayerMove playerId points type word coord>``,
  ``<MasterMove>``, ``<GameMove>`` (the move put on the grid), ``<Warning playerId>``,
  ``<Penalty playerId points>`` (negative), ``<Solo playerId points>``, ``<EndGame>``.
  Move types: ``valid``, ``invalid``, ``change``, ``pass``, ``none``; a joker is a
  lower-case letter of the word; coordinates ``H4`` horizontal, ``4H`` vertical;
- ``<Statistics>``: informative, never read back.

Why defusedxml: Eliot never writes a DTD, so a file with one is refused outright
(``forbid_dtd``), and with it every entity trick (billion laughs, external
entities reading local files); defusedxml is the maintained, audited way to say
so to the standard library's parser (and fpdf2 already depends on it).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import dataclass, field

from .board import BadReference, Board, Ref
from .correction import Decision, Outcome
from .game import Game
from .lexicon import Lexicon
from .movegen import generate_moves
from .placement import Placement
from .pretirage import DrawnLine, PreDrawnError, build_source, illegal_reason
from .results import GameResults, Player, ResultsSettings
from .tiles import JOKER, LETTERS

FORMAT_VERSION = "2"
MODES = ("duplicate", "arbitration")
MOVE_TYPES = ("valid", "invalid", "change", "pass", "none")
#: what an imported decision says it is
IMPORTED = "importé d'Eliot"
MAX_BYTES = 20_000_000


class EliotError(ValueError):
    """An Eliot file refused; the French message names the turn where it can."""


@dataclass(frozen=True)
class EliotMove:
    kind: str  # one of MOVE_TYPES
    points: int = 0
    word: str = ""
    coord: str = ""


@dataclass(frozen=True)
class EliotPlayer:
    id: int
    name: str
    table: int
    human: bool = True
    level: int | None = None


@dataclass
class EliotTurn:
    number: int
    racks: list[str] = field(default_factory=list)  # every GameRack, in order: the last counts
    master: EliotMove | None = None
    played: EliotMove | None = None  # the GameMove
    moves: dict[int, EliotMove] = field(default_factory=dict)  # player id -> last PlayerMove
    warnings: Counter[int] = field(default_factory=Counter)
    penalties: Counter[int] = field(default_factory=Counter)
    solos: Counter[int] = field(default_factory=Counter)

    @property
    def top(self) -> EliotMove | None:
        for move in (self.played, self.master):
            if move is not None and move.kind == "valid":
                return move
        return None


@dataclass
class EliotGame:
    mode: str = "arbitration"
    dictionary: str = ""
    letters: str = " ".join(LETTERS) + " " + JOKER
    word_count: int = 0
    players: list[EliotPlayer] = field(default_factory=list)
    turns: list[EliotTurn] = field(default_factory=list)


# -- reading -----------------------------------------------------------------------------------
def _parse_xml(data: bytes) -> ET.Element:
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import fromstring

    if len(data) > MAX_BYTES:
        raise EliotError(f"fichier trop gros pour une partie Eliot ({len(data)} octets)")
    try:
        return fromstring(data, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise EliotError("fichier refusé : il déclare une DTD ou des entités XML, ce qu'Eliot "
                         "n'écrit jamais (protection contre les fichiers piégés)") from exc
    except ET.ParseError as exc:
        line, column = exc.position
        raise EliotError(f"XML illisible, ligne {line}, colonne {column}") from exc


def _int(text: str | None, what: str) -> int:
    try:
        return int((text or "").strip())
    except ValueError:
        raise EliotError(f"{what} : nombre entier attendu, pas « {text} »") from None


def _move(el: ET.Element, where: str) -> EliotMove:
    kind = el.get("type", "")
    if kind not in MOVE_TYPES:
        raise EliotError(f"{where} : type de coup inconnu « {kind} »")
    return EliotMove(kind, _int(el.get("points", "0"), f"{where}, points"), el.get("word", ""),
                     el.get("coord", ""))


def parse_eliot(data: bytes | str) -> EliotGame:
    """The file's content as it is written (nothing checked against a bag or a word list yet)."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    root = _parse_xml(data)
    if root.tag != "EliotGame":
        raise EliotError(f"ce n'est pas une partie Eliot (élément racine « {root.tag} »)")
    version = root.get("format")
    if version != FORMAT_VERSION:
        raise EliotError(f"format de partie Eliot « {version} » non pris en charge "
                         f"(format {FORMAT_VERSION} attendu)")
    game = EliotGame()
    dictionary = root.find("Dictionary")
    if dictionary is not None:
        game.dictionary = (dictionary.findtext("Name") or "").strip()
        game.letters = (dictionary.findtext("Letters") or "").strip()
        game.word_count = _int(dictionary.findtext("WordNb") or "0", "nombre de mots du dictionnaire")
    head = root.find("Game")
    if head is None:
        raise EliotError("en-tête <Game> absent")
    game.mode = (head.findtext("Mode") or "").strip()
    if game.mode not in MODES:
        raise EliotError(f"partie Eliot en mode « {game.mode} » : seules les parties duplicate "
                         "et arbitrage sont prises en charge")
    for variant in head.findall("Variant"):
        if (variant.text or "").strip():
            raise EliotError(f"variante « {variant.text.strip()} » non prise en charge "
                             "(règles du duplicate classique seulement)")
    ids = set()
    for el in head.findall("Player"):
        pid = _int(el.get("id"), "identifiant de joueur")
        if pid in ids:
            raise EliotError(f"joueur {pid} en double")
        ids.add(pid)
        table = el.findtext("TableNb")
        level = el.findtext("Level")
        game.players.append(EliotPlayer(
            pid, (el.findtext("Name") or "").strip() or f"Joueur {pid}",
            _int(table, f"table du joueur {pid}") if table and table.strip() else 0,
            (el.findtext("Type") or "human").strip() != "computer",
            _int(level, "niveau") if level and level.strip() else None))
    history = root.find("History")
    for number, el in enumerate(history if history is not None else [], start=1):
        if el.tag != "Turn":
            continue
        game.turns.append(_turn(el, number, ids))
    while game.turns and not game.turns[-1].racks:  # the turn Eliot opens after the last one
        game.turns.pop()
    return game


def _turn(el: ET.Element, number: int, ids: set[int]) -> EliotTurn:
    turn = EliotTurn(number)
    where = f"tour {number}"
    for cmd in el:
        pid = cmd.get("playerId", cmd.get("playerid"))
        if cmd.tag in ("PlayerRack", "PlayerMove", "Warning", "Penalty", "Solo", "EndGame"):
            if pid is None or _int(pid, where) not in ids:
                raise EliotError(f"{where} : {cmd.tag} pour un joueur inconnu ({pid})")
            pid = int(pid)
        if cmd.tag == "GameRack":
            turn.racks.append((cmd.text or "").strip())
        elif cmd.tag == "PlayerMove":
            turn.moves[pid] = _move(cmd, where)
        elif cmd.tag == "MasterMove":
            move = _move(cmd, where)
            if move.kind == "valid" or turn.master is None:
                turn.master = move
        elif cmd.tag == "GameMove":
            turn.played = _move(cmd, where)
        elif cmd.tag == "Warning":
            turn.warnings[pid] += 1
        elif cmd.tag == "Penalty":
            turn.penalties[pid] += _int(cmd.get("points"), f"{where}, pénalité")
        elif cmd.tag == "Solo":
            turn.solos[pid] += _int(cmd.get("points"), f"{where}, solo")
    return turn


def _rack(text: str, where: str) -> tuple[bool, str | None, str]:
    """(rejected mark, kept letters or None, every letter) of ``-KEPT+NEW``."""
    rejected = text.startswith("-")
    kept, plus, new = (text[1:] if rejected else text).upper().replace("*", JOKER).partition("+")
    letters = kept + new
    bad = [c for c in letters if c != JOKER and c not in LETTERS]
    if bad:
        raise EliotError(f"{where} : tirage « {text} » : caractère « {bad[0]} » inconnu")
    return rejected, (kept if plus else None), letters


def predrawn_lines(game: EliotGame) -> list[DrawnLine]:
    """The turns as pre-drawn lines: rejected tirages, then each tirage with its top."""
    lines: list[DrawnLine] = []
    for turn in game.turns:
        where = f"tour {turn.number}"
        racks = [_rack(r, where) for r in turn.racks]
        for i, (_, kept, letters) in enumerate(racks):
            last = i == len(racks) - 1
            mark_next = not last and racks[i + 1][0]
            if not last:
                if not mark_next:
                    continue  # a tirage typed again (corrected): the next one replaces it
                lines.append(DrawnLine(where, letters, kept, rejected=True))
                continue
            top = turn.top
            rejected, kept_now, _ = racks[i]
            if rejected and i == 0:
                # the reliquat was rejected, its draw not saved: give it back to the bag
                lines.append(DrawnLine(where, "", None, rejected=True))
            lines.append(DrawnLine(where, letters, None if rejected else kept_now, False,
                                   top.word if top else None, top.coord.upper() if top else None,
                                   top.points if top else None))
    return lines


# -- the kiosk's game from an Eliot game ---------------------------------------------------------
@dataclass
class Imported:
    """An Eliot game as the kiosk keeps it: pre-drawn source, players, decisions."""

    source: dict
    players: list[dict]
    #: (table, coup, decision, bulletin): the bulletin is what the player played, as Eliot has it
    decisions: list[tuple[int, int, Decision, dict]]
    notes: list[str]  # what the juge-arbitre should know (French)


def import_eliot(data: bytes | str, lexicon: Lexicon) -> Imported:
    """Check a whole Eliot game against our bag, rules and word list, and convert it."""
    eliot = parse_eliot(data)
    try:
        source = build_source(predrawn_lines(eliot), lexicon)
    except PreDrawnError as exc:
        raise EliotError(str(exc)) from exc
    notes = []
    if eliot.word_count and eliot.word_count != len(lexicon):
        notes.append(f"la partie Eliot a été jouée avec « {eliot.dictionary} » ({eliot.word_count} "
                     f"mots), la liste chargée en a {len(lexicon)} : les coups ont été vérifiés "
                     "sur la liste chargée")
    tables = _tables(eliot)
    players = [{"table": tables[p.id], "name": p.name} for p in eliot.players]
    game = Game.from_dict(source) if not source.get("sans_solutions") else None
    decisions: list[tuple[int, int, Decision, dict]] = []
    played = game.played() if game else []
    for turn, coup in zip(eliot.turns, played, strict=False):
        board = game.board_before(coup.number)
        legal = {(m.word, str(m.ref)): m for m in generate_moves(board, coup.tirage, lexicon)}
        for p in eliot.players:
            decision = _decision(turn, p, legal, board, coup.tirage, lexicon)
            if decision is not None:
                move = turn.moves[p.id]
                bulletin = {"table": tables[p.id], "coup": coup.number, "word": move.word or None,
                            "ref": move.coord or None, "score": move.points}
                decisions.append((tables[p.id], coup.number, decision, bulletin))
    extra = [t for t in eliot.turns[len(played):]
             if any(m.kind != "none" for m in t.moves.values())]
    if extra:
        notes.append(f"tour {extra[0].number} : coups des joueurs sans top, ignorés")
    _check_solos(eliot, players, decisions, len(played), notes)
    return Imported(source, players, decisions, notes)


def _tables(eliot: EliotGame) -> dict[int, int]:
    """Player id -> table: Eliot's TableNb, or the next free number when it has none."""
    tables, used = {}, {p.table for p in eliot.players if p.table > 0}
    free = (n for n in range(1, 10**6) if n not in used)
    seen = set()
    for p in eliot.players:
        table = p.table if p.table > 0 and p.table not in seen else next(free)
        seen.add(table)
        tables[p.id] = table
    return tables


def _decision(turn: EliotTurn, player: EliotPlayer, legal: dict, board: Board, tirage: str,
              lexicon: Lexicon) -> Decision | None:
    where = f"tour {turn.number}"
    move = turn.moves.get(player.id)
    penalty = turn.penalties.get(player.id, 0)
    if penalty not in (0, -5):
        raise EliotError(f"{where} : pénalité de {-penalty} points pour {player.name} : le "
                         "kiosque n'applique que la pénalité de 5 points du règlement")
    if move is None or move.kind == "none":
        if turn.warnings.get(player.id) or penalty:
            raise EliotError(f"{where} : sanction pour {player.name}, qui n'a pas joué")
        return None  # no bulletin: the kiosk's absence
    placement = None
    if move.kind == "valid":
        try:
            ref = Ref.parse(move.coord)
        except BadReference as exc:
            raise EliotError(f"{where} : coup de {player.name} : {exc}") from exc
        found = legal.get((move.word, str(ref)))
        if found is None:
            raise EliotError(f"{where} : coup de {player.name} refusé : "
                             f"{illegal_reason(board, tirage, move.word, ref, lexicon)}")
        if move.points > found.score:
            raise EliotError(f"{where} : {player.name} crédité de {move.points} points pour "
                             f"{move.word} {ref}, qui en vaut {found.score}")
        placement = Placement(found.ref, found.word, found.placed, found.score, found.words)
    if penalty:
        outcome = Outcome.PENALITE
    elif turn.warnings.get(player.id):
        outcome = Outcome.AVERTISSEMENT
    elif move.kind == "valid" or move.points > 0:
        outcome = Outcome.OK
    else:
        outcome = Outcome.ZERO
    what = {"invalid": f"coup non valable ({move.word} {move.coord})".replace(" )", ")"),
            "change": "échange de lettres", "pass": "passe"}.get(move.kind, "")
    reasons = (IMPORTED,) + ((what,) if what else ())
    return Decision(outcome, move.points, placement, reasons)


def _check_solos(eliot: EliotGame, players: list[dict], decisions, coups: int,
                 notes: list[str]) -> None:
    results = GameResults(ResultsSettings())
    for p in players:
        results.add_player(Player(p["table"], p["name"]))
    for _ in range(coups):
        results.add_top("", "H8", 0)
    for table, coup, decision, _ in decisions:
        results.record(table, coup, decision)
    ours = {(s.coup, s.table) for s in results.solos() if s.bonus}
    tables = _tables(eliot)
    theirs = {(t.number, tables[pid]) for t in eliot.turns for pid, pts in t.solos.items() if pts}
    if ours != theirs:
        notes.append("les solos du fichier Eliot diffèrent de ceux du règlement appliqué par le "
                     "kiosque : le kiosque recalcule les siens")


# -- writing -------------------------------------------------------------------------------------
def _move_el(parent: ET.Element, tag: str, points: int, kind: str, word: str = "", coord: str = "",
             player: int | None = None) -> None:
    attrs = {} if player is None else {"playerId": str(player)}
    attrs.update({"points": str(points), "type": kind})
    if kind in ("valid", "invalid"):
        attrs.update({"word": word, "coord": coord})
    ET.SubElement(parent, tag, attrs)


def _text(parent: ET.Element, tag: str, text: object) -> ET.Element:
    el = ET.SubElement(parent, tag)
    el.text = str(text)
    return el


def _rack_text(reliquat: str, tirage: str, rejected_before: bool) -> str:
    new = tirage[len(reliquat):] if tirage.startswith(reliquat) else tirage
    body = f"{reliquat}+{new}" if reliquat and new else (reliquat or new)
    return ("-" if rejected_before else "") + body


def write_eliot(game: Game, results: GameResults, *, dictionary: str = "", word_count: int = 0) -> str:
    """An Eliot « arbitration » game: tirages, tops, every player's moves and sanctions."""
    root = ET.Element("EliotGame", {"format": FORMAT_VERSION})
    d = ET.SubElement(root, "Dictionary")
    _text(d, "Name", dictionary or "liste du kiosque")
    _text(d, "Type", "dawg")
    _text(d, "Letters", " ".join(LETTERS) + " " + JOKER)
    _text(d, "WordNb", word_count)
    head = ET.SubElement(root, "Game")
    _text(head, "Mode", "arbitration")
    tables = sorted(results.players)
    ids = {table: i for i, table in enumerate(tables)}
    for table in tables:
        p = ET.SubElement(head, "Player", {"id": str(ids[table])})
        _text(p, "Name", results.players[table].name)
        _text(p, "Type", "human")
        _text(p, "TableNb", table)
    played = [c for c in game.coups if c.top is not None]
    _text(head, "Turns", len(played))
    history = ET.SubElement(root, "History")
    solos = {(s.coup, s.table): s.bonus for s in results.solos() if s.bonus}
    previous_left = ""
    for coup in played:
        turn = ET.SubElement(history, "Turn")
        if coup.number > 1:
            for table in tables:
                _text(turn, "PlayerRack", previous_left).set("playerId", str(ids[table]))
        reliquat = previous_left
        rejected_before = False
        for tirage in coup.rejections:
            _text(turn, "GameRack", _rack_text(reliquat, tirage, rejected_before))
            reliquat, rejected_before = "", True
        rack = _rack_text(coup.reliquat, coup.tirage, rejected_before)
        _text(turn, "GameRack", rack)
        for table in tables:
            _text(turn, "PlayerRack", rack).set("playerId", str(ids[table]))
        for table in tables:
            _player_move(turn, results, table, ids[table], coup.number)
        top = coup.top
        _move_el(turn, "MasterMove", top.score, "valid", top.word, str(top.ref))
        for table in tables:
            outcome = results.decision(table, coup.number).outcome
            if outcome is Outcome.AVERTISSEMENT:
                ET.SubElement(turn, "Warning", {"playerId": str(ids[table])})
            elif outcome is Outcome.PENALITE:
                ET.SubElement(turn, "Penalty", {"playerId": str(ids[table]), "points": "-5"})
            if (coup.number, table) in solos:
                ET.SubElement(turn, "Solo", {"playerId": str(ids[table]),
                                             "points": str(solos[(coup.number, table)])})
        _move_el(turn, "GameMove", top.score, "valid", top.word, str(top.ref))
        previous_left = coup.leftover()
    root.append(ET.Comment(" These statistics are simply informative, they are not used when "
                           "loading a game. "))
    stats = ET.SubElement(root, "Statistics")
    ET.SubElement(stats, "GameStats", {"totalScore": str(results.tops_total)})
    for s in results.ranking():
        ET.SubElement(stats, "PlayerStats", {
            "playerId": str(ids[s.player.table]), "rawScore": str(s.scores),
            "warningsNb": str(s.warnings), "penaltiesPoints": str(-s.penalties - s.warning_penalty),
            "solosPoints": str(s.solo_bonus), "totalScore": str(s.total),
            "diffWithTop": str(s.difference), "percentTop": f"{round(s.percent)}%",
            "rank": str(s.rank)})
    ET.indent(root, space="    ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _player_move(turn: ET.Element, results: GameResults, table: int, pid: int, coup: int) -> None:
    history = results.history(table, coup)
    if not history:
        _move_el(turn, "PlayerMove", 0, "none", player=pid)
        return
    decision = results.decision(table, coup)
    points = results.coup_score(table, coup)
    placement = decision.placement
    if decision.outcome is not Outcome.ZERO and placement is not None:
        _move_el(turn, "PlayerMove", points, "valid", placement.word, str(placement.ref), pid)
        return
    bulletin = next((e.bulletin for e in history if e.bulletin is not None), None)
    word = (bulletin.word if bulletin else None) or (placement.word if placement else "")
    ref = (bulletin.ref if bulletin else None) or (str(placement.ref) if placement else "")
    _move_el(turn, "PlayerMove", points, "invalid", word or "", ref or "", pid)
