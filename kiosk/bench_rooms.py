"""make bench: 3 rooms × 150 players × 15 coups on one PostgreSQL server (fsync on).

Each room is a process running its kiosk as the room does: the machine, the room
screen drawn at 30 frames a second (SDL's dummy driver), the journal read every half
second. Beside each room, its station server (:mod:`kiosk.stations`, its own process on
the room's game in the database, as ``kiosk nouvelle --base`` starts it) and 8 phones
speaking its HTTP from their own addresses: when the room's top is out, each phone types
its tables' bulletins (``/api/saisie``, the page's « Taper un bulletin ») and confirms
them (``/api/lecture/N``), each with its id — through the whole web layer, the server's
checks and its one-transaction writes. Typed, not photographed: 6,750 photos would be
hours of reading on two cores; the photo reader's own load is ``kiosk.stations.bench``.
A results desk process follows the three rooms (:class:`kiosk.desk.Desk`, woken by
LISTEN).

Printed: corrections per second sustained (all rooms), the latency from a phone sending
its confirmation to its answer and to the desk having applied it (p50, p95), each room's
frame rate and its slowest frames, with the core count. The chrono runs five times faster
than the clock (10 s a coup, seen as 2 s) so that the bench takes a few minutes.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

ROOMS, PLAYERS, COUPS, STATIONS = 3, 150, 15, 8
FPS = 30
SPEED = 5.0  # the chrono's seconds per real second
TOURNAMENT = "banc"


def _lexicon():
    from engine.lexicon import Lexicon

    return Lexicon.load()


class _Arbiter:
    """The room's juge-arbitre, as the kiosk's autopilot: Space at each step, and out of the
    correction once the stations have corrected every table."""

    def __init__(self, machine) -> None:
        self.machine = machine

    def act(self) -> bool:
        m = self.machine
        s = m.session
        if m.step == "fin":
            return False
        if m.step in ("accueil", "tirage", "annonce", "ramassage", "top") or (
                m.step == "correction" and not s.missing_tables(s.coup.number)):
            m.key("space")
        return True


def room(url: str, index: int, out, ready) -> None:
    """One room kiosk in the kiosk's own loop (:func:`kiosk.runner.run_window`): the room
    window and the juge-arbitre's console (its correction screen follows the stations'
    bulletins), the journal read every half second; each frame's work timed by phase."""
    from display.window import RoomDisplay

    from . import tournament as tour
    from .console import ConsoleWindow
    from .frames import FrameTimer, SilentVoice
    from .machine import Machine
    from .runner import run_window
    from .session import Session

    lexicon = _lexicon()
    t = tour.load(url, TOURNAMENT)
    first = index * 1000 + 1
    players = [{"table": n, "name": f"Joueur {n}", "club": f"Club {n % 7}"}
               for n in range(first, first + PLAYERS)]
    config = t.room_config(players)
    journal = tour.register_room(url, t, f"S{index + 1}", config,
                                 {"lexicon_sha256": lexicon.sha256}, station="kiosque")
    journal.lock_room()
    session = Session(journal, lexicon)
    start = time.monotonic()
    machine = Machine(session, lambda: start + (time.monotonic() - start) * SPEED)
    display = RoomDisplay.open(window_size=(1280, 720))
    console = ConsoleWindow.open(window_size=(1366, 768))
    timer = FrameTimer(machine, display, console)
    ready.wait()
    try:
        run_window(machine, display, SilentVoice(), _Arbiter(machine), pace=0.05, linger=0.0,
                   console=console)
    finally:
        console.close()
        display.close()
        journal.close()
    out.put(("salle", index, timer.fps(), timer.lines(f"salle S{index + 1}")))


def stations(url: str, index: int, out, ready) -> None:
    """The room's station server (its own process, as the kiosk starts it) and its 8 phones:
    once the room's top is out, each phone types its tables' bulletins (« Taper un
    bulletin ») and confirms them, over HTTP, as the phone page does."""
    from .pgjournal import PgJournal
    from .stations.launch import StationsProcess
    from .storage import Locator
    from .tournament import room_game_name

    lexicon = _lexicon()
    name = room_game_name(TOURNAMENT, f"S{index + 1}")
    while True:
        try:
            PgJournal.open(url, name, station="banc").close()
            break
        except Exception:  # noqa: BLE001 - the room registers itself first
            time.sleep(0.2)
    server = StationsProcess.start(Locator(url=url, name=name), str(lexicon.source),
                                   "127.0.0.1", 0, workers=1)
    first = index * 1000 + 1
    tables = list(range(first, first + PLAYERS))
    blocks = [tables[i::STATIONS] for i in range(STATIONS)]
    sent: dict[tuple[int, int], float] = {}  # (coup, table) → when its confirmation was sent
    answered: list[float] = []  # confirmation sent → answered (the journal written)
    errors: list[str] = []
    os.nice(10)  # phones are other machines: here they must not take the rooms' share
    ready.wait()
    try:
        asyncio.run(_phones(server.url, index, blocks, sent, answered, errors))
    finally:
        server.stop()
    out.put(("postes", index, sent, answered, errors))


async def _phones(url: str, index: int, blocks, sent, answered, errors) -> None:
    await asyncio.gather(*(_phone(url, index, k, block, sent, answered, errors)
                           for k, block in enumerate(blocks)))


async def _phone(url: str, index: int, k: int, block: list[int], sent, answered,
                 errors) -> None:
    """One arbiter's phone, from its own address (127.0.0.x: the server limits requests per
    address, and phones on the club's Wi-Fi each have theirs)."""
    import uuid

    import aiohttp

    base, secret = url.split("?")[0], url.split("cle=")[1]
    token = uuid.uuid4().hex + uuid.uuid4().hex
    connector = aiohttp.TCPConnector(local_addr=(f"127.0.{index + 1}.{k + 2}", 0))
    async with aiohttp.ClientSession(base_url=base, headers={"X-Jeton": token},
                                     connector=connector) as http:

        async def call(method: str, path: str, **kw) -> dict:
            while True:
                async with http.request(method, path, **kw) as r:
                    data = await r.json()
                    if r.status in (429, 503):  # as the page: wait, send the same again
                        await asyncio.sleep(0.3)
                        continue
                    if r.status != 200:
                        errors.append(f"{path} {r.status} {data.get('erreur')}")
                    return data

        await call("POST", "api/rejoindre", json={"nom": f"Poste {k + 1}", "jeton": token,
                                                  "cle": secret})
        await call("POST", "api/bloc", json={"de": min(block), "a": max(block)})
        done, since = 0, -1
        while done < COUPS:
            state = await call("GET", "api/etat", params={"depuis": since})
            since = state.get("seq", since)
            number = state.get("coup_defaut") or 0
            if not state.get("top") or number <= done or state.get("coup") != number:
                continue  # the long poll answers at the next change
            word, ref, score = state["top"].split(" ")
            for table in block:
                wrong = int(score) - (table % 11 == 0)  # some wrong scores: warnings
                typed = await call("POST", "api/saisie", json={
                    "id": uuid.uuid4().hex, "coup": number, "champs": {
                        "table": str(table), "word": word, "ref": ref, "score": str(wrong)}})
                if "lecture" not in typed:
                    continue
                reading = typed["lecture"]
                sent[(number, table)] = time.time()
                t0 = time.perf_counter()
                await call("POST", f"api/lecture/{reading['seq']}", json={
                    "id": uuid.uuid4().hex, "action": "confirmer", "version": reading["version"]})
                answered.append(time.perf_counter() - t0)
            done = number


def desk(url: str, out, ready, stop) -> None:
    """The results desk: every bulletin's delay from its commit to the desk's view."""
    from .desk import Desk

    lexicon = _lexicon()
    while True:
        try:
            results = Desk(url, TOURNAMENT, lexicon)
            if len(results.sessions) == ROOMS:
                break
            results.close()
        except Exception:  # noqa: BLE001 - the rooms register first
            pass
        time.sleep(0.2)
    ready.wait()
    seen = {room: 0 for room in results.sessions}
    shown: dict[tuple[int, int], float] = {}  # (coup, table) → when the desk had it applied
    while not stop.is_set():
        results.wait(0.5)
        results.refresh()
        now = time.time()
        for room_name, session in results.sessions.items():
            for event in session.journal.events(after=seen[room_name]):
                if event.kind == "bulletin":
                    shown[(int(event.data["coup"]), int(event.data["bulletin"]["table"]))] = now
                seen[room_name] = event.seq
    ranking = results.overall().results.ranking()
    results.close()
    out.put(("bureau", 0, shown, len(ranking)))


def main() -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from pgserver import PgServer

    from engine.game import GameSettings
    from engine.pretirage import source_of_game
    from engine.selfplay import self_play

    from . import tournament as tour

    server = PgServer(fsync=True)
    try:
        server.start()
        url = server.create_database("banc")
        lexicon = _lexicon()
        game = self_play(31, lexicon, GameSettings(10, False, auto_reject=True))
        tour.create(url, TOURNAMENT, {"source": source_of_game(game, lexicon), "seconds": 10,
                                      "warning": 5, "blitz": False, "max_coups": COUPS,
                                      "event": {"epreuve": "Banc d'essai"},
                                      "lexicon_sha256": lexicon.sha256,
                                      "lexicon_path": str(lexicon.source)})
        ctx = mp.get_context("spawn")
        out, ready, stop = ctx.Queue(), ctx.Barrier(2 * ROOMS + 2), ctx.Event()
        procs = [ctx.Process(target=room, args=(url, i, out, ready)) for i in range(ROOMS)]
        procs += [ctx.Process(target=stations, args=(url, i, out, ready)) for i in range(ROOMS)]
        watcher = ctx.Process(target=desk, args=(url, out, ready, stop))
        for p in [*procs, watcher]:
            p.start()
        ready.wait()
        began = time.monotonic()
        got = [out.get(timeout=1200) for _ in range(2 * ROOMS)]
        elapsed = time.monotonic() - began
        time.sleep(1.0)
        stop.set()
        got.append(out.get(timeout=300))
        for p in [*procs, watcher]:
            p.join(60)
        report(got, elapsed)
    finally:
        server.cleanup()
    return 0


def _pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


def report(got: list, elapsed: float) -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{ROOMS} salles × {PLAYERS} joueurs × {COUPS} coups, {STATIONS} postes par salle "
          f"par HTTP, PostgreSQL (fsync) ; {os.cpu_count()} cœur(s), charge {load:.1f} ; "
          f"{elapsed:.0f} s")
    sent = {k: at for kind, _, *rest in got if kind == "postes" for k, at in rest[0].items()}
    answered = [d for kind, _, *rest in got if kind == "postes" for d in rest[1]]
    errors = [e for kind, _, *rest in got if kind == "postes" for e in rest[2]]
    if sent:
        times = sorted(sent.values())
        span = times[-1] - times[0]
        print(f"corrections : {len(sent)} confirmées sur {ROOMS * PLAYERS * COUPS}, "
              f"{len(sent) / max(span, 1e-9):.1f} par seconde en moyenne sur la durée des "
              "corrections")
        print(f"confirmation envoyée → réponse du serveur : médiane "
              f"{statistics.median(answered) * 1000:.0f} ms, p95 {_pct(answered, .95) * 1000:.0f} "
              "ms")
    for kind, _index, *rest in sorted(got, key=lambda g: (g[0], g[1])):
        if kind == "salle":
            print("\n".join(rest[1]))
        elif kind == "bureau":
            shown, ranked = rest
            delays = [shown[k] - at for k, at in sent.items() if k in shown]
            if delays:
                print(f"bureau des résultats : {len(delays)} bulletins suivis, confirmation "
                      f"envoyée → bureau médiane {statistics.median(delays) * 1000:.0f} ms, "
                      f"p95 {_pct(delays, .95) * 1000:.0f} ms ; classement général de "
                      f"{ranked} joueurs")
            missing = len(sent) - len(delays)
            if missing:
                print(f"{missing} correction(s) jamais vue(s) au bureau")
    for error in errors[:5]:
        print(f"erreur : {error}")
    if errors:
        print(f"{len(errors)} refus en tout")


if __name__ == "__main__":
    sys.exit(main())
