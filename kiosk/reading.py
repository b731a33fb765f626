"""Adapter to the bulletin reader (:mod:`vision`): a photo in, a ``lecture`` event out.

The kiosk needs four fields with a confidence each, a status and a message.
If the reader cannot be imported or cannot work (no trained model yet), each
photo still gives a clear result — "illisible", with the reason — and the
arbiter types the fields: nothing stops the game.
"""

from __future__ import annotations

from pathlib import Path

from .session import Session

IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
FIELDS = ("table", "word", "ref", "score")


def list_photos(folder: str | Path) -> tuple[list[Path], list[Path]]:
    """(photos, other files) of a folder, sorted by name; hidden files are left out."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"dossier de photos introuvable : {folder}")
    files = sorted(p for p in folder.iterdir() if p.is_file() and not p.name.startswith("."))
    photos = [p for p in files if p.suffix.lower() in IMAGE_SUFFIXES]
    others = [p for p in files if p.suffix.lower() not in IMAGE_SUFFIXES]
    return photos, others


def _unavailable(photo: str, reason: str) -> dict:
    return {"photo": photo, "status": "illisible", "message": reason,
            "fields": {name: {"value": None, "confidence": 0.0} for name in FIELDS}}


def read_photo(path: str | Path, session: Session, coup: int) -> dict:
    """Read one photo for ``coup`` against the game's legal moves; the ``lecture`` event data."""
    photo = str(path)
    try:
        from vision.reader import read_bulletin
    except Exception as exc:  # noqa: BLE001 - any import failure means "no reader"
        data = _unavailable(photo, f"lecteur de bulletins indisponible ({exc}) : saisie à la main")
        data["coup"] = coup
        return data
    moves, _ = session.moves(coup)
    board = session.game.board_before(coup)
    tables = sorted(session.results.players) or None
    reading = read_bulletin(photo, candidates=moves, board=board, tables=tables)
    values = reading.bulletin()
    fields = {}
    for name in FIELDS:
        fv = getattr(reading, name)
        fields[name] = {"value": values.get(name),
                        "confidence": round(float(fv.confidence), 4) if fv else 0.0}
    data = {"coup": coup, "photo": photo, "status": reading.status, "message": reading.message,
            "fields": fields, "flagged": list(reading.flagged)}
    extra = {k: values[k] for k in ("raccord", "sens", "illisible", "blanc", "plusieurs", "ratures")
             if values.get(k)}
    if extra:
        data["extra"] = extra
    return data
