"""Reading the stations' photos in worker processes.

A photo costs 100–250 ms of CPU: in the server's own process it would hold up
every request; in the room's it would cost frames. Each worker opens the game
journal for reading (its own connection, its own :class:`~kiosk.session.Session`,
synced before each photo so that a tirage drawn meanwhile is known) and never
writes: the server journals what it returns.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

#: width of the rectified bulletin shown on the phone
PAGE_WIDTH = 720
_session = None


def default_workers() -> int:
    """One reader per core but one (left for the room and the server), 1 to 4."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


def _init(path: str | None, url: str | None, name: str | None, lexicon: str | None) -> None:
    global _session
    from engine.lexicon import Lexicon

    from ..session import Session
    from ..storage import Locator

    _die_with_server()
    try:
        os.nice(5)  # the room's frames and the server's answers come first
    except OSError:
        pass
    where = Locator(path=Path(path) if path else None, url=url, name=name)
    _session = Session(where.open(station="lecteur"), Lexicon.load(lexicon))


def _die_with_server() -> None:
    """Linux: this worker ends when the server does, even killed (no orphan readers)."""
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() == 1:  # the server died before the line above
        os._exit(0)


def read_job(photo: str, coup: int) -> list[dict]:
    """The ``lecture`` data of every bulletin of one photo for ``coup`` (reading order), and
    each one's rectified page saved beside the photo (``.page.jpg``, ``.page2.jpg``…)."""
    from ..reading import read_photos
    from .hub import page_suffix

    _session.sync()
    pages: list = []
    readings = read_photos(photo, _session, coup, pages=pages)
    for rank, (data, page) in enumerate(zip(readings, pages, strict=True), 1):
        if page is not None and data.get("status") in ("ok", "a_verifier"):
            _save_page(Path(photo), page, page_suffix(rank))
    return readings


def _save_page(photo: Path, page, suffix: str) -> None:
    """``<photo>.page.jpg``: the bulletin found and straightened, for the arbiter to see."""
    import cv2

    h, w = page.shape[:2]
    if w > PAGE_WIDTH:
        page = cv2.resize(page, (PAGE_WIDTH, int(h * PAGE_WIDTH / w)), interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, 82])
    if ok:
        target = photo.with_name(photo.stem + suffix)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_bytes(jpeg.tobytes())
        tmp.replace(target)


def failed(photo: str, coup: int, why: str) -> list[dict]:
    """A photo the reader could not take (its worker died): the arbiter types the fields."""
    return [{"coup": coup, "photo": photo, "status": "illisible",
            "message": f"lecture impossible ({why}) : saisissez le bulletin",
            "fields": {n: {"value": None, "confidence": 0.0}
                       for n in ("table", "word", "ref", "score")}}]


def pool(game, lexicon: str | None, workers: int) -> ProcessPoolExecutor:
    """Fresh interpreters (spawn): the server's threads are not copied into the workers.
    ``game``: a :class:`~kiosk.storage.Locator` (a file, or a game of a database)."""
    where = (str(game.path) if game.path is not None else None, game.url, game.name)
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init, initargs=(*where, lexicon))
