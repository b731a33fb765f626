"""``make bench``: 8 stations upload 200 bulletin photos at once while the room loop runs.

Figures: photos and bulletins read per second, time from the start of an upload to its
reading(s) shown on the station (median, p95), the room's frame rate during the load (must
stay at 30 fps), and what reached the journal (nothing lost, nothing twice). The photos come
from the project's generator (:func:`vision.render_bulletin`; ``--plusieurs P``: P % of them
hold 2 or 3 bulletins side by side, :func:`vision.synth.render_table`), rendered once and kept
in ``out/bench-postes``.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import statistics
import tempfile
import threading
import time
import uuid
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

STATIONS = 8
PHOTOS = 200
PLAYERS = 16
SEED = 41
CACHE = Path("out/bench-postes")


def _render(plays: tuple, seed: int) -> bytes:
    """One photo of the bulletins ``plays`` ((table, word, ref, score)…): one, or several on
    a table."""
    from vision import BulletinContent, render_bulletin
    from vision.synth import render_table

    contents = [BulletinContent(table=t, word=w, ref=r, score=s) for t, w, r, s in plays]
    if len(contents) == 1:
        jpeg, _ = render_bulletin(contents[0], seed=seed)
    else:
        jpeg, _ = render_table(contents, seed=seed)
    return jpeg


def _game(folder: Path):
    """A club game of 16 players at the correction of its first coup."""
    from engine.lexicon import Lexicon

    from ..journal import Journal
    from ..machine import Machine
    from ..session import Config, Session

    lexicon = Lexicon.load()
    path = folder / "bench.partie"
    journal = Journal.create(path, {"lexicon_sha256": lexicon.sha256,
                                    "lexicon_path": str(lexicon.source)})
    session = Session(journal, lexicon)
    players = [{"table": t, "name": f"Joueur {t}"} for t in range(1, PLAYERS + 1)]
    session.record("partie", Config(seed=SEED, players=players).to_dict())
    clock = [1000.0]
    machine = Machine(session, lambda: clock[0])
    for _ in range(3):
        machine.key("space")
    clock[0] += 181
    machine.tick()
    machine.key("space")
    machine.key("space")
    assert machine.step == "correction", machine.message
    return machine, path, lexicon


def _photos(machine, count: int = PHOTOS, several: float = 0.0) -> list[tuple[int, str, int]]:
    """``count`` different photos of the first coup's bulletins (rendered once, then cached):
    (first table, file, bulletins on it). A share ``several`` of them, spread evenly, hold 2
    or 3 bulletins of consecutive tables."""
    moves, _ = machine.session.moves(1)
    jobs = []
    for i in range(count):
        table = i % PLAYERS + 1
        many = int((i + 1) * several) > int(i * several)
        n = (2 + i % 2) if many else 1
        plays = []
        for k in range(n):
            move = moves[(i * 7 + k * 3) % min(len(moves), 60)]
            plays.append(((table + k - 1) % PLAYERS + 1, move.word, str(move.ref), move.score))
        jobs.append((tuple(plays), SEED * 1000 + i))
    CACHE.mkdir(parents=True, exist_ok=True)

    def name(job) -> Path:
        plays, seed = job
        return CACHE / f"p{seed}-t{'-'.join(str(p[0]) for p in plays)}.jpg"

    missing = [j for j in jobs if not name(j).exists()]
    if missing:
        print(f"génération de {len(missing)} photos de bulletins (une fois, gardées dans "
              f"{CACHE})…", flush=True)
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool:
            for job, jpeg in zip(missing, pool.map(_render, *zip(*missing, strict=True)),
                                 strict=True):
                name(job).write_bytes(jpeg)
    return [(j[0][0][0], str(name(j)), len(j[0])) for j in jobs]


async def _station(url: str, index: int, work: list[tuple[int, bytes]], delays: list[float],
                   errors: list[str]) -> None:
    """One phone: join, its block of tables, its photos one after the other; a long poll
    notes when each photo's readings (one per bulletin found on it) have all shown up."""
    import aiohttp

    base, secret = url.split("?")[0], url.split("cle=")[1]
    token = uuid.uuid4().hex + uuid.uuid4().hex
    headers = {"X-Jeton": token}
    started: dict[str, float] = {}
    seen: set[str] = set()
    async with aiohttp.ClientSession(base_url=base, headers=headers) as http:
        async with http.post("api/rejoindre", json={"nom": f"Poste {index}", "jeton": token,
                                                    "cle": secret}) as r:
            assert r.status == 200, await r.text()
        first, last = work[0][0], work[-1][0]
        async with http.post("api/bloc", json={"de": min(first, last), "a": max(first, last)}):
            pass

        async def follow() -> None:
            since = -1
            while len(seen) < len(work):
                async with http.get("api/etat", params={"depuis": since}) as r:
                    state = await r.json()
                if r.status == 429:
                    await asyncio.sleep(0.5)
                    continue
                since = state["seq"]
                now = time.monotonic()
                shown: dict[str, list[dict]] = {}
                for reading in state["lectures"]:
                    shown.setdefault(reading.get("envoi"), []).append(reading)
                for envoi, readings in shown.items():
                    whole = (readings[0].get("feuille") or {}).get("sur", 1)
                    if envoi in started and envoi not in seen and len(readings) >= whole:
                        seen.add(envoi)
                        delays.append(now - started[envoi])

        watcher = asyncio.create_task(follow())
        for _, jpeg in work:
            envoi = uuid.uuid4().hex
            started[envoi] = time.monotonic()
            while True:  # as the phone page: retried with the same id when asked to wait
                form = aiohttp.FormData()
                form.add_field("envoi", envoi)
                form.add_field("photo", jpeg, filename="photo.jpg", content_type="image/jpeg")
                async with http.post("api/photo", data=form) as r:
                    if r.status == 429:
                        await asyncio.sleep(0.5)
                        continue
                    if r.status not in (200, 202):
                        errors.append(f"{r.status} {await r.text()}")
                    break
        try:
            await asyncio.wait_for(watcher, 600)
        except TimeoutError:
            errors.append(f"poste {index} : {len(work) - len(seen)} lecture(s) jamais vue(s)")


def _load(url: str, files: list[tuple[int, str, int]], results) -> None:
    """The 8 stations, in a process of their own (as phones are): the room's process only
    runs the room."""
    os.nice(10)  # phones are other machines: here they must not take the room's share
    photos = [(table, Path(name).read_bytes()) for table, name, _ in files]
    delays: list[float] = []
    errors: list[str] = []

    async def run() -> None:
        by_station = [[p for p in photos if (p[0] - 1) // (PLAYERS // STATIONS) == i]
                      for i in range(STATIONS)]
        await asyncio.gather(*(_station(url, i, work, delays, errors)
                               for i, work in enumerate(by_station)))

    try:
        asyncio.run(run())
    except Exception as exc:  # noqa: BLE001 - reported with the figures
        errors.append(repr(exc))
    results.put((delays, errors))


def main(argv: list[str] | None = None) -> int:
    """``argv``: the options (none from ``make bench``, which calls ``main()`` alone)."""
    from engine.cliparse import FrenchParser

    parser = FrenchParser(
        prog="python -m kiosk.stations.bench",
        description="8 postes simulés envoient des photos de bulletins pendant que la salle "
                    "tourne : photos et bulletins lus par seconde, délai envoi → lecture, "
                    "images/s de la salle, journal sans perte ni doublon")
    parser.add_argument("--photos", type=int, default=PHOTOS,
                        help=f"nombre de photos envoyées (défaut {PHOTOS})")
    parser.add_argument("--plusieurs", type=float, default=0.0, metavar="P",
                        help="pourcentage des photos qui montrent 2 ou 3 bulletins côte à côte "
                             "(défaut 0 : un bulletin par photo)")
    args = parser.parse_args(argv or [])
    if not 1 <= args.photos <= 2000 or not 0 <= args.plusieurs <= 100:
        parser.error("--photos de 1 à 2000, --plusieurs de 0 à 100")
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from display.window import RoomDisplay

    from ..console import ConsoleWindow
    from ..frames import FrameTimer, SilentVoice
    from ..runner import run_window
    from .launch import StationsProcess

    with tempfile.TemporaryDirectory() as tmp:
        machine, path, lexicon = _game(Path(tmp))
        photos = _photos(machine, args.photos, args.plusieurs / 100)
        machine.arbiter_screen = False  # the projector shows the room screen
        server = StationsProcess.start(path, str(lexicon.source), "127.0.0.1", 0)
        room = RoomDisplay.open(window_size=(1280, 720))
        frames: list[float] = []
        context = multiprocessing.get_context("spawn")
        results = context.Queue()
        outcome: list = []

        def collect() -> None:
            outcome.append(results.get())
            done.set()

        done = threading.Event()
        original = RoomDisplay.pump_events

        def pump(self):
            frames.append(time.monotonic())
            if done.is_set():
                from display.window import DisplayEvent

                return [DisplayEvent("key", "escape"), DisplayEvent("key", "o", "o")]
            return original(self)

        RoomDisplay.pump_events = pump
        syncs: list[float] = []
        session_sync = machine.session.sync

        def timed_sync(*args):
            t = time.perf_counter()
            try:
                return session_sync(*args)
            finally:
                syncs.append(time.perf_counter() - t)

        machine.session.sync = timed_sync
        start = time.monotonic()
        loader = context.Process(target=_load, args=(server.url, photos, results))
        loader.start()
        collector = threading.Thread(target=collect, daemon=True)
        collector.start()
        console = ConsoleWindow.beside(room)
        timer = FrameTimer(machine, room, console)
        try:
            run_window(machine, room, SilentVoice(), console=console)
        finally:
            RoomDisplay.pump_events = original
            collector.join(timeout=5)
            loader.join(timeout=5)
            if loader.is_alive():
                loader.kill()
            elapsed = time.monotonic() - start
            server.stop()
            console.close()
            room.close()
        machine.session.sync()
        events = machine.session.journal.events()
        uploads = [e.data["envoi"] for e in events if e.kind == "photo"]
        readings = [(e.data["envoi"], e.data.get("feuille", 1)) for e in events
                    if e.kind == "lecture"]
        machine.session.journal.close()

    delays, errors = outcome[0] if outcome else ([], ["les postes simulés n'ont rien rendu"])
    fps = (len(frames) - 1) / (frames[-1] - frames[0]) if len(frames) > 1 else 0.0
    gaps = [b - a for a, b in zip(frames, frames[1:], strict=False)]
    windows = [sum(1 for f in frames if s <= f < s + 1.0)
               for s in [frames[0] + k for k in range(int(frames[-1] - frames[0]))]]
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))] if delays else float("nan")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    laid = sum(n for _, _, n in photos)
    read_photos = len({envoi for envoi, _ in readings})
    print(f"{STATIONS} postes, {len(photos)} photos ({laid} bulletins, "
          f"{sum(1 for p in photos if p[2] > 1)} photos de 2 ou 3), {os.cpu_count()} cœurs, "
          f"charge moyenne de la machine {load:.1f}")
    print(f"photos lues par seconde       : {read_photos / elapsed:.2f} "
          f"({read_photos} en {elapsed:.1f} s)")
    print(f"bulletins lus par seconde     : {len(readings) / elapsed:.2f} "
          f"({len(readings)} lectures, {laid} bulletins posés)")
    print(f"envoi → lecture affichée       : médiane {statistics.median(delays or [0]):.1f} s,"
          f" p95 {p95:.1f} s, max {max(delays or [0]):.1f} s")
    print(f"salle pendant la charge        : {fps:.1f} images/s (pire seconde "
          f"{min(windows or [0])} images, plus longue image {max(gaps or [0]) * 1000:.0f} ms)")
    for line in timer.lines("  boucle du kiosque (salle et console)"):
        print(line)
    lost = len(uploads) != len(photos) or {e for e, _ in readings} != set(uploads) \
        or len(set(uploads)) != len(uploads) or len(set(readings)) != len(readings)
    print(f"journal                        : {len(uploads)} photos reçues, {len(readings)} "
          f"lues, {'PERTE OU DOUBLON' if lost else 'rien de perdu, rien en double'}")
    print(f"journal relu par la salle      : {len(syncs)} fois, max "
          f"{max(syncs or [0]) * 1000:.1f} ms")
    for error in errors[:5]:
        print(f"erreur : {error}")
    if fps < 29.0:
        print(f"objectif 30 images/s non tenu pendant la charge ({fps:.1f}) : machine partagée "
              f"(charge {load:.1f} pour {os.cpu_count()} cœurs) ?")
    return int(lost or bool(errors))


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
