"""Adapter to the bulletin reader (:mod:`vision`): a photo in, a ``lecture`` event out.

The kiosk needs four fields with a confidence each, a status and a message.
If the reader cannot be imported or cannot work (no trained model yet), each
photo still gives a clear result — "illisible", with the reason — and the
arbiter types the fields: nothing stops the game.

A bulletin is read against the coup it is filed under (the coup being
collected, or the one a station's page showed; its legal moves exist as soon
as its tirage is out). One that fits no move of that coup but fits one of a
neighbour — the coup before, or the coup after where its tirage is out (a
photo taken as the juge-arbitre moved on) — is marked « coup précédent ? » or
« coup suivant ? » and waits for the arbiter: a photo is never filed under
another coup by the reader alone.
The correction screen shows the photo straightened (:func:`bulletin_image`).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .session import READER_HINTS, Session, neighbour_question

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
FIELDS = ("table", "word", "ref", "score")


def photo_fields(path: Path) -> dict:
    """How a photo is named in the journal: always text that SQLite and JSON accept.

    A name from a FAT USB key may hold Latin-1 bytes that are not UTF-8 (Python
    keeps them as lone surrogates, which SQLite refuses: such a photo was counted
    as read and never recorded). ``photo`` is then the name shown with those bytes
    read as Windows-1252, and ``photo_fs`` the exact bytes (hex), so that the file
    is found again (:func:`photo_path`). ``photo_size`` and ``photo_mtime`` tell
    whether the file changed since it was read.
    """
    raw = os.fsencode(path.resolve())
    try:
        text = raw.decode("utf-8")
        fields: dict = {"photo": text}
    except UnicodeDecodeError:
        fields = {"photo": raw.decode("cp1252", errors="replace"), "photo_fs": raw.hex()}
    try:
        info = path.stat()
        fields.update(photo_size=info.st_size, photo_mtime=round(info.st_mtime, 3))
    except OSError:
        pass
    return fields


def photo_path(data: dict) -> Path | None:
    """The photo file a ``lecture`` event names (exact bytes when it recorded them)."""
    if data.get("photo_fs"):
        try:
            return Path(os.fsdecode(bytes.fromhex(str(data["photo_fs"]))))
        except ValueError:
            pass
    return Path(str(data["photo"])) if data.get("photo") else None


def list_photos(folder: str | Path) -> tuple[list[Path], list[Path]]:
    """(photos, other files) of a folder, sorted by name; hidden files are left out."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"dossier de photos introuvable : {folder}")
    # regular files only: a FIFO or a device among the photos would stop the station
    files = sorted(p for p in folder.iterdir()
                   if not p.name.startswith(".") and p.is_file() and _regular(p))
    photos = [p for p in files if p.suffix.lower() in IMAGE_SUFFIXES]
    others = [p for p in files if p.suffix.lower() not in IMAGE_SUFFIXES]
    return photos, others


def _regular(path: Path) -> bool:
    import stat

    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _unavailable(photo: str, reason: str) -> dict:
    return {"photo": photo, "status": "illisible", "message": reason,
            "fields": {name: {"value": None, "confidence": 0.0} for name in FIELDS}}


#: a reading with one of these statuses found no bulletin content to match against a coup
_NO_CONTENT = {"illisible", "bulletin_non_trouve", "photo_floue", "photo_sombre",
               "bulletin_vierge", "plusieurs_bulletins", "bulletin_coupe", "cases_cachees"}
NEIGHBOUR_MESSAGE = "{question} : ce bulletin ne correspond à aucun coup du coup {coup}, mais " \
    "à un coup du coup {other}"


def collecting_coup(session: Session) -> int | None:
    """The coup whose bulletins are being handed in: the last one whose chrono has started.

    Before the next chrono starts (its tirage shown, announced) the bulletins still
    arriving are the previous coup's; None before the first chrono.
    """
    coup = session.coup
    if coup is None:
        return None
    started = session.step in ("chrono", "ramassage", "top", "correction", "fin") \
        and bool(coup.tirage)
    number = coup.number if started else coup.number - 1
    return number if number >= 1 else None


def _reader():
    """vision's reader of every bulletin of a photo, or the reason there is none (French)."""
    try:
        from vision.reader import read_all
    except Exception as exc:  # noqa: BLE001 - any import failure means "no reader"
        return f"lecteur de bulletins indisponible ({exc}) : saisie à la main"
    return read_all


def bulletin_layout(name: str):
    """The bulletin model ``name`` (a ``vision`` layout), or the reason it cannot be used
    (French): photos read with another model's boxes would be read wrong, not at all is
    better (the arbiter types the fields)."""
    try:
        from vision.layout import Layout

        return Layout.load(name)
    except ImportError as exc:
        return f"lecteur de bulletins indisponible ({exc}) : saisie à la main"
    except ValueError as exc:
        return f"modèle de bulletin « {name} » inutilisable ({exc}) : saisie à la main"


def _layout(session: Session):
    """The game's bulletin model (``Config.bulletin``), or why it cannot be used (French)."""
    return bulletin_layout(session.config.bulletin if session.config is not None else "fd1")


def _context(session: Session, coup: int, layout) -> dict:
    """What a bulletin of ``coup`` is read against: its legal moves, its board, the tables
    that may still hand in a bulletin for it (registered, no result yet), the game's model."""
    moves, _ = session.moves(coup)
    return {"candidates": moves, "board": session.game.board_before(coup),
            "tables": session.missing_tables(coup) if session.results.players else None,
            "coup": coup, "layout": layout}


def _read_again(reading, session: Session, coup: int, layout):
    """The same bulletin (its page already found) read against the moves of ``coup``."""
    from vision.reader import read_page

    return read_page(reading.page, photo=reading.photo, **_context(session, coup, layout))


def _fields(reading) -> dict:
    values = reading.bulletin()
    fields = {}
    for name in FIELDS:
        fv = getattr(reading, name)
        fields[name] = {"value": values.get(name),
                        "confidence": round(float(fv.confidence), 4) if fv else 0.0}
        # why the reader sends it to the arbiter; the word's doubt may be its circles alone
        why = reading.flag_reasons.get(name) or (
            reading.flag_reasons.get("jokers") if name == "word" else None)
        if why:
            fields[name]["pourquoi"] = why
    return fields


def neighbours(session: Session, coup: int) -> list[int]:
    """The coups next to ``coup`` a bulletin may belong to: the one before, and the one
    after once its tirage is out (its legal moves are known)."""
    out = [coup - 1] if coup > 1 else []
    game = session.game
    if game is not None and coup < len(game.coups) and game.coups[coup].tirage:
        out.append(coup + 1)
    return out


def read_photos(path: str | Path, session: Session, coup: int, previous: bool = True,
                pages: list | None = None) -> list[dict]:
    """Read every bulletin of one photo for ``coup``: one ``lecture`` event data each, in
    the photo's reading order (one photo, one bulletin: a list of one).

    A photo of several bulletins gives ``feuille`` (rank, from 1) and ``feuilles`` (how
    many) in each; a sheet cut at the photo's edge is a reading of its own
    (``bulletin_coupe``), so the arbiter knows one bulletin is to be taken again.
    ``previous``: a bulletin that fits no move of ``coup`` is read again against the moves
    of each neighbour (:func:`neighbours`); if it fits one, the event says so (``voisin``:
    « coup précédent ? » or « coup suivant ? »), for the arbiter to decide. ``pages``: a
    list that receives each bulletin's straightened image (BGR, or None), in the same order.
    """
    path = Path(path)
    named = photo_fields(path)
    photo = str(path)
    reader = _reader()
    layout = _layout(session) if not isinstance(reader, str) else reader
    if isinstance(layout, str):  # no reader installed, or no usable model: typed by hand
        data = _unavailable(photo, layout)
        data.update(named, coup=coup)
        if pages is not None:
            pages.append(None)
        return [data]
    out = []
    for reading in reader(photo, **_context(session, coup, layout)):
        data = _lecture(reading, session, coup, named, previous, layout)
        if reading.sheets > 1:
            data.update(feuille=reading.sheet, feuilles=reading.sheets)
        if pages is not None:
            pages.append(reading.page.image if reading.page is not None else None)
        out.append(data)
    return out


def read_photo(path: str | Path, session: Session, coup: int, previous: bool = True) -> dict:
    """Read a photo of one bulletin (:func:`read_photos`' first reading)."""
    return read_photos(path, session, coup, previous)[0]


def _lecture(reading, session: Session, coup: int, named: dict, previous: bool, layout) -> dict:
    values = reading.bulletin()
    data = {"coup": coup, **named, "status": reading.status, "message": reading.message,
            "fields": _fields(reading), "flagged": list(reading.flagged),
            "cells": {k: list(v) for k, v in reading.cell_keys.items() if v}}
    extra = {k: values[k] for k in ("raccord", "sens", *READER_HINTS) if values.get(k)}
    if extra:
        data["extra"] = extra
    if previous and reading.status not in _NO_CONTENT and reading.word is not None \
            and reading.word.value and (not reading.legal or reading.flagged) \
            and reading.page is not None:
        best = None
        for other in neighbours(session, coup):
            there = _read_again(reading, session, other, layout)
            # it fits that coup, and better than this one (a move there, read without doubt)
            if there.legal and (not reading.legal or not there.flagged) and (
                    best is None or (best[1].flagged and not there.flagged)):
                best = (other, there)
        if best is not None:
            other, there = best
            data["voisin"] = {"coup": other, "fields": _fields(there),
                              "flagged": list(there.flagged),
                              "cells": {k: list(v) for k, v in there.cell_keys.items() if v}}
            data["status"] = "a_verifier"
            data["message"] = NEIGHBOUR_MESSAGE.format(
                question=neighbour_question(coup, other), coup=coup, other=other)
    return data


# -- the photo on the correction screen ----------------------------------------------------------
@dataclass
class BulletinImage:
    """A photo straightened by the reader's page stage, with its boxes (fractions of it)."""

    rgb: Any  # rows × columns × 3 (RGB), straightened; None when no page was found
    boxes: dict
    method: str
    raw: Any  # the photo as taken (RGB, reduced to RAW_SIDE pixels), shown on demand
    problem: str = ""  # why there is no straightened page
    drawn: dict = field(default_factory=dict, repr=False)  # the screen's surfaces of it


#: the raw photo is kept at most this many pixels on its long side (a phone's 12 Mpx photo
#: would cost 36 MB a copy)
RAW_SIDE = 1600

_IMAGES: OrderedDict[tuple, BulletinImage | str] = OrderedDict()
IMAGE_CACHE = 8


def bulletin_image(photo: str | None, sheet: int | None = None, model: str = "fd1") -> BulletinImage | str:
    """The straightened bulletin of a photo (``sheet``: which one, from 1, of a photo of
    several; ``model``: the game's bulletin model, ``Config.bulletin``), or why it cannot be
    shown (French).

    Kept in a small cache by path, modification time and sheet: the arbiter goes up and
    down the list and each bulletin is straightened once.
    """
    if not photo:
        return "bulletin saisi au clavier : pas de photo"
    path = Path(photo)
    try:
        key = (str(path.resolve()), path.stat().st_mtime_ns, sheet, model)
    except OSError:
        return f"photo introuvable sur ce poste : {photo}"
    cached = _IMAGES.get(key)
    if cached is not None:
        _IMAGES.move_to_end(key)
        return cached
    _IMAGES[key] = result = _straighten(path, sheet, model)
    while len(_IMAGES) > IMAGE_CACHE:
        _IMAGES.popitem(last=False)
    return result


def _straighten(path: Path, sheet: int | None = None, model: str = "fd1") -> BulletinImage | str:
    try:
        import cv2

        from vision.load import load_image
        from vision.rectified import rectify
        from vision.status import VisionError
    except ImportError as exc:
        return f"lecteur de bulletins indisponible ({exc}) : photo non affichable"
    try:
        raw = load_image(path)
    except VisionError as exc:
        return f"photo non affichable : {exc}"
    except Exception as exc:  # noqa: BLE001 - a photo must never stop the correction
        return f"photo non affichable ({type(exc).__name__}: {exc})"
    scale = RAW_SIDE / max(raw.shape[:2])
    small = cv2.resize(raw, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) \
        if scale < 1 else raw
    raw_rgb = cv2.cvtColor(small, cv2.COLOR_BGR2RGB)
    layout = bulletin_layout(model)
    if isinstance(layout, str):  # the model is gone: the photo as taken, and why
        return BulletinImage(None, {}, "", raw_rgb, layout)
    try:
        page = rectify(raw, layout=layout, sheet=sheet)
    except VisionError as exc:  # no page found: the photo as taken, and why
        return BulletinImage(None, {}, "", raw_rgb, str(exc))
    except Exception as exc:  # noqa: BLE001
        return BulletinImage(None, {}, "", raw_rgb, f"{type(exc).__name__}: {exc}")
    return BulletinImage(cv2.cvtColor(page.image, cv2.COLOR_BGR2RGB), page.boxes, page.method,
                         raw_rgb)
