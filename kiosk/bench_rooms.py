"""make bench: 3 rooms × 150 players × 15 coups on one PostgreSQL server (fsync on).

Each room is a process running its kiosk as the room does: the machine, the room
screen drawn at 30 frames a second (SDL's dummy driver), the journal read every half
second. Beside each room, a stations process plays its 8 arbiter stations: when the
room's top is out, each station uploads its tables' readings (« lecture ») and
confirms them (« bulletin »), each with its idempotency key, through one session (the
station server's single writer, :mod:`kiosk.stations` once it lands; here the
stations' requests go straight to the session layer, without HTTP). A results desk
process follows the three rooms (:class:`kiosk.desk.Desk`, woken by LISTEN).

Printed: corrections per second sustained (all rooms), the latency from a station's
confirmation (its commit) to the desk having applied it (p50, p95), each room's frame
rate and its slowest frames, with the core count. The chrono runs five times faster
than the clock (10 s a coup, seen as 2 s) so that the bench takes a few minutes.
"""

from __future__ import annotations

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


def room(url: str, index: int, out, ready) -> None:
    """One room kiosk: keys pressed by a scripted juge-arbitre, frames drawn at 30 fps."""
    import pygame

    from display.window import RoomDisplay

    from . import tournament as tour
    from .machine import Machine
    from .session import Session
    from .views import room_view

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
    ready.wait()
    frames: list[float] = []
    next_sync = 0.0
    clock = pygame.time.Clock()
    began = time.monotonic()
    while machine.step != "fin":
        t0 = time.perf_counter()
        display.pump_events()
        now = time.monotonic()
        if now >= next_sync:
            next_sync = now + 0.5
            session.sync()
        machine.tick()
        step, coup = machine.step, session.coup
        if step in ("accueil", "tirage", "annonce", "ramassage", "top"):
            machine.key("space")
        elif step == "correction" and not session.missing_tables(coup.number):
            machine.key("space")
        machine.take_effects()
        display.show(room_view(machine))
        frames.append(time.perf_counter() - t0)
        clock.tick(FPS)
    elapsed = time.monotonic() - began
    display.close()
    journal.close()
    out.put(("salle", index, len(frames) / elapsed, frames, elapsed))


def stations(url: str, index: int, out, ready) -> None:
    """The room's 8 stations: readings then confirmations for their tables, once the top is out."""
    from .pgjournal import PgJournal
    from .session import Session
    from .tournament import room_game_name

    lexicon = _lexicon()
    name = room_game_name(TOURNAMENT, f"S{index + 1}")
    while True:
        try:
            journal = PgJournal.open(url, name, station="postes")
            break
        except Exception:  # noqa: BLE001 - the room registers itself first
            time.sleep(0.2)
    session = Session(journal, lexicon)
    ready.wait()
    confirms: list[tuple[int, float]] = []
    tables = sorted(session.results.players)
    blocks = [tables[i::STATIONS] for i in range(STATIONS)]
    done = 0
    while done < COUPS:
        session.sync()
        coup = session.coup
        if coup is None or coup.top is None or coup.number <= done:
            time.sleep(0.05)
            continue
        number, top = coup.number, coup.top
        for rank in range(max(len(b) for b in blocks)):
            for station, block in enumerate(blocks):  # the 8 stations take turns
                if rank >= len(block):
                    continue
                table = block[rank]
                score = top.score - (table % 11 == 0)  # some wrong scores: warnings
                fields = {"table": {"value": table, "confidence": 0.97},
                          "word": {"value": top.word, "confidence": 0.95},
                          "ref": {"value": str(top.ref), "confidence": 0.99},
                          "score": {"value": score, "confidence": 0.98}}
                who = f"poste:p{station + 1}"
                key = f"p{station + 1}-{number}-{table}"
                session.record("lecture", {"coup": number, "photo": None, "status": "ok",
                                           "message": "lu", "fields": fields},
                               station=who, key=key + "-envoi")
                reading = max(session.pending)
                bulletin = {"table": table, "word": top.word, "ref": str(top.ref), "score": score}
                session.record("bulletin", {"coup": number, "bulletin": bulletin,
                                            "lecture": reading}, station=who, key=key + "-ok")
                confirms.append((number, time.time()))
        done = number
    journal.close()
    out.put(("postes", index, confirms))


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
    delays: list[float] = []
    while not stop.is_set():
        results.wait(0.5)
        results.refresh()
        now = time.time()
        for room_name, session in results.sessions.items():
            for event in session.journal.events(after=seen[room_name]):
                if event.kind == "bulletin":
                    delays.append(now - event.at)
                seen[room_name] = event.seq
    ranking = results.overall().results.ranking()
    results.close()
    out.put(("bureau", 0, delays, len(ranking)))


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


def report(got: list, elapsed: float) -> None:
    print(f"{ROOMS} salles × {PLAYERS} joueurs × {COUPS} coups, {STATIONS} postes par salle, "
          f"PostgreSQL (fsync) ; {os.cpu_count()} cœur(s) ; {elapsed:.0f} s")
    confirms = sorted(at for kind, _, *rest in got if kind == "postes" for _, at in rest[0])
    if confirms:
        span = confirms[-1] - confirms[0]
        print(f"corrections : {len(confirms)} confirmées, {len(confirms) / max(span, 1e-9):.1f} "
              "par seconde en moyenne sur la durée des corrections")
    for kind, index, *rest in sorted(got, key=lambda g: (g[0], g[1])):
        if kind == "salle":
            fps, frames, room_elapsed = rest
            slow = sum(f > 1 / FPS for f in frames)
            worst = sorted(frames)[int(len(frames) * 0.99)] if frames else 0
            print(f"salle S{index + 1} : {fps:.1f} images/s ({len(frames)} images en "
                  f"{room_elapsed:.0f} s), {slow} image(s) de plus de 33 ms, 99e centile "
                  f"{worst * 1000:.0f} ms")
        elif kind == "bureau":
            delays, ranked = rest
            if delays:
                delays.sort()
                p95 = delays[int(len(delays) * 0.95)]
                print(f"bureau des résultats : {len(delays)} bulletins suivis, confirmation → "
                      f"bureau médiane {statistics.median(delays) * 1000:.0f} ms, p95 "
                      f"{p95 * 1000:.0f} ms ; classement général de {ranked} joueurs")


if __name__ == "__main__":
    sys.exit(main())
