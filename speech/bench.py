"""``make bench`` figures for speech: call latency, fresh announcement latency, synthesis
time, and what speaking does to a 30 fps display loop.

"First audio sample" is measured as the moment ``Channel.play()`` returns plus
the mixer buffer (512 samples at 22 050 Hz, 23 ms): SDL starts the sound at the
next buffer it mixes.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine.tiles import COUNTS

from . import texts
from .announcer import Announcer
from .settings import SpeechSettings


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def random_tirage(rng: random.Random) -> str:
    bag = [t for t, n in COUNTS.items() for _ in range(n)]
    return "".join(rng.sample(bag, 7))


def frame_loop(seconds: float | None, fps: int = 30, announcer: Announcer | None = None,
               requests: list[tuple[float, str]] | None = None,
               until_idle: bool = False, limit: float = 120.0) -> dict:
    """Run a display-like pygame loop at ``fps``; send ``requests`` (time, text) on the way.

    Returns frame times in ms. The loop draws a grid-sized scene each frame so
    the measure includes real work, as the room display does.
    """
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.display.init()
    screen = pygame.display.set_mode((960, 540))
    clock = pygame.time.Clock()
    pending = sorted(requests or [])
    frames: list[float] = []
    start = last = time.perf_counter()
    colours = [(0, 90, 50), (200, 40, 40), (240, 180, 190), (40, 70, 160), (150, 190, 230)]
    n = 0
    while True:
        now = time.perf_counter()
        elapsed = now - start
        while pending and pending[0][0] <= elapsed:
            _, text = pending.pop(0)
            if text.startswith("appel:"):
                announcer.call(text.split(":", 1)[1])
            else:
                announcer.announce(text)
        for _ in pygame.event.get():
            pass
        screen.fill((20, 20, 20))
        for r in range(15):
            for c in range(15):
                colour = colours[(r * 7 + c * 3 + n) % len(colours)]
                pygame.draw.rect(screen, colour, (20 + c * 34, 20 + r * 34, 32, 32))
        pygame.display.flip()
        clock.tick(fps)
        now = time.perf_counter()
        frames.append((now - last) * 1000)
        last = now
        n += 1
        if seconds is not None and now - start >= seconds and not pending:
            if not until_idle or not announcer.busy:
                break
        if now - start > limit:
            break
    pygame.display.quit()
    return {"frames_ms": frames, "seconds": time.perf_counter() - start}


def frame_summary(frames: list[float]) -> dict:
    body = frames[1:]  # the first frame includes window creation
    return {
        "frames": len(body),
        "fps": 1000 / statistics.mean(body) if body else 0.0,
        "median_ms": statistics.median(body) if body else 0.0,
        "p95_ms": percentile(body, 95),
        "max_ms": max(body) if body else 0.0,
        "over_50ms": sum(f > 50 for f in body),
    }


def loop_with_speech(count: int = 10, rate: int = 220, cache_dir: str | None = None,
                     out_dir: str | None = None) -> dict:
    """``count`` fresh announcements (and one call) spoken while a 30 fps loop runs."""
    cache_dir = cache_dir or tempfile.mkdtemp(prefix="speech-loop-")
    rng = random.Random(7)
    settings = SpeechSettings(rate=rate)
    with Announcer(settings, cache_dir, out_dir=out_dir, prerender=False) as announcer:
        warm = announcer.announce(texts.pause())  # start the worker before the clock runs
        announcer.wait_idle(30)
        requests = [(0.3 + i * 0.4, texts.new_letters(random_tirage(rng)[:2]))
                    for i in range(count)]
        requests.append((1.0, "appel:chrono"))
        result = frame_loop(1.0, 30, announcer, requests, until_idle=True)
        entries = [e for e in announcer.history if e is not warm]
        result["entries"] = [
            {"text": e.text, "state": e.state, "engine": e.engine, "lane": e.lane,
             "ready_ms": 1000 * (e.ready - e.requested) if e.ready else None,
             "start_ms": 1000 * (e.started - e.requested) if e.started else None,
             "attempts": e.attempts, "ended": e.ended, "started": e.started,
             "output": e.output, "path": e.path}
            for e in entries]
        result["audio"] = announcer.audio
        result["engine"] = announcer.engine
        result["last_error"] = announcer.last_error
    return result


def first_sample_latency(disk_file: str, count: int = 10, cache_dir: str | None = None) -> dict:
    """Request → first loud sample written by SDL's *disk* audio driver (run under it).

    The driver writes one 512-sample buffer at a time, paced in real time, so
    a byte offset in the file is a moment: ``start + offset / bytes_per_second``.
    The file is written through a stdio buffer (4 KB, 93 ms), so its size seen
    from outside lags; a thread notes the size every 2 ms and ``start`` is
    taken from the marks right after a flush (``min(t - size / rate)`` over the
    second before the request), which also follows the driver's slow drift.
    """
    import threading

    import numpy as np

    cache_dir = cache_dir or tempfile.mkdtemp(prefix="speech-latency-")
    marks: list[tuple[float, int]] = []
    done = threading.Event()

    def watch() -> None:
        while not done.is_set():
            try:
                marks.append((time.perf_counter(), os.path.getsize(disk_file)))
            except OSError:
                pass
            time.sleep(0.002)

    results: dict[str, list[float]] = {"appel": [], "tirage": []}
    rng = random.Random(11)
    with Announcer(SpeechSettings(), cache_dir) as announcer:
        frequency, size, channels = __import__("pygame").mixer.get_init()
        bytes_per_second = frequency * channels * abs(size) // 8
        announcer.prerendered.wait(120)
        threading.Thread(target=watch, daemon=True).start()
        for i in range(2 * count):
            time.sleep(0.3)
            size_before = os.path.getsize(disk_file)
            if i % 2 == 0:
                kind, entry = "appel", announcer.call(["chrono", "terminé"][i % 4 // 2])
            else:
                tirage = random_tirage(rng)
                kind, entry = "tirage", announcer.draw(tirage[:3], tirage)
            while entry.started is None and entry.state not in ("erreur", "muette"):
                time.sleep(0.001)
            time.sleep(0.35)
            data = open(disk_file, "rb").read()[size_before:]
            samples = np.frombuffer(data[: len(data) // 2 * 2], dtype="<i2")
            loud = np.flatnonzero(np.abs(samples.astype(np.int32)) > 200)
            if loud.size:
                offset = size_before + 2 * int(loud[0])
                near = [t - size / bytes_per_second for t, size in marks
                        if entry.requested - 1.0 <= t <= entry.requested + 0.3]
                if near:
                    when = min(near) + offset / bytes_per_second
                    results[kind].append(1000 * (when - entry.requested))
            announcer.stop()
            announcer.wait_idle(5)
        done.set()
    return results


def _subprocess_json(code: str, env: dict) -> dict:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=300, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def frame_impact(disk_file: str | None = None) -> tuple[dict, dict]:
    """Baseline loop and loop with speech, each in a fresh process with SDL dummy video."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", PYGAME_HIDE_SUPPORT_PROMPT="1")
    if disk_file:
        env.update(SDL_AUDIODRIVER="disk", SDL_DISKAUDIOFILE=disk_file)
    else:
        env.setdefault("SDL_AUDIODRIVER", "dummy")
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    base = _subprocess_json(
        "import json; from speech.bench import frame_loop as f; "
        "print(json.dumps(f(5.0)))", env)
    speech = _subprocess_json(
        "import json; from speech.bench import loop_with_speech as f; "
        "print(json.dumps(f()))", env)
    return base, speech


def _ms(values: list[float]) -> str:
    return f"médiane {statistics.median(values):6.1f} ms, p95 {percentile(values, 95):6.1f} ms"


def main() -> int:
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    rng = random.Random(2024)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="speech-bench-") as tmp:
        settings = SpeechSettings()
        t0 = time.perf_counter()
        announcer = Announcer(settings, Path(tmp) / "cache", out_dir=Path(tmp) / "out")
        announcer.prerendered.wait(120)
        n_fixed = len(texts.fixed_phrases())
        print(f"phrases fixes rendues au démarrage : {n_fixed} en "
              f"{time.perf_counter() - t0:.2f} s (moteur {announcer.engine}, "
              f"son {'oui' if announcer.audio else 'non, fichiers'})")
        latency = announcer.player.buffer_latency * 1000

        call_ms = []
        for i in range(20):
            entry = announcer.call(["chrono", "avertissement", "terminé", "pause"][i % 4])
            while entry.started is None and entry.state not in ("erreur", "muette"):
                time.sleep(0.001)
            call_ms.append(1000 * (entry.started - entry.requested) + latency)
            announcer.stop()
            announcer.wait_idle(5)
        print(f"appel en cache, demande → premier échantillon : {_ms(call_ms)} "
              f"(objectif ≤ 100 ms)")
        failed |= percentile(call_ms, 95) > 100

        for label, make in (("tirage", lambda: texts.draw(*(lambda t: (t[:4], t))(
                random_tirage(rng)))),
                            ("top", lambda: texts.top(word="".join(rng.sample("MAISONSTRE", 7)),
                                                      ref=f"H{rng.randint(1, 9)}",
                                                      score=rng.randint(20, 150)))):
            ready_ms, start_ms, synth_ms = [], [], []
            for _ in range(15):
                entry = announcer.announce(make())
                while entry.started is None and entry.state not in ("erreur", "muette"):
                    time.sleep(0.001)
                ready_ms.append(1000 * (entry.ready - entry.requested))
                synth_ms.append(1000 * entry.synth_seconds)
                start_ms.append(1000 * (entry.started - entry.requested) + latency)
                announcer.stop()
                announcer.wait_idle(5)
            print(f"synthèse d'une annonce {label} (pyttsx3, contrôle compris) : {_ms(synth_ms)}")
            print(f"annonce {label} nouvelle, demande → prête : {_ms(ready_ms)}; "
                  f"→ premier échantillon : {_ms(start_ms)} (objectif ≤ 300 ms)")
            failed |= label == "tirage" and percentile(start_ms, 95) > 300
        print(f"moteur de synthèse : {announcer.engine}"
              + (f" — {announcer.last_error}" if announcer.last_error else ""))
        announcer.close()

    with tempfile.TemporaryDirectory(prefix="speech-disk-") as tmp:
        env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="disk",
                   SDL_DISKAUDIOFILE=str(Path(tmp) / "son.raw"), PYGAME_HIDE_SUPPORT_PROMPT="1")
        root = str(Path(__file__).resolve().parent.parent)
        env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
        measured = _subprocess_json(
            "import json; from speech.bench import first_sample_latency as f; "
            f"print(json.dumps(f({str(Path(tmp) / 'son.raw')!r})))", env)
    for kind, goal in (("appel", 100), ("tirage", 300)):
        values = measured[kind]
        if values:
            label = "appel en cache" if kind == "appel" else "tirage nouveau"
            print(f"{label}, mesuré sur la sortie son (pilote disk) : {_ms(values)} "
                  f"[{len(values)} mesures] (objectif ≤ {goal} ms)")
            failed |= percentile(values, 95) > goal

    base, speech = frame_impact()
    b, s = frame_summary(base["frames_ms"]), frame_summary(speech["frames_ms"])
    played = sum(e["state"] == "jouée" for e in speech["entries"])
    print(f"boucle 30 i/s sans voix : {b['fps']:.1f} i/s, médiane {b['median_ms']:.1f} ms, "
          f"p95 {b['p95_ms']:.1f} ms, max {b['max_ms']:.1f} ms, > 50 ms : {b['over_50ms']}")
    print(f"boucle 30 i/s avec {played} annonces synthétisées et jouées : {s['fps']:.1f} i/s, "
          f"médiane {s['median_ms']:.1f} ms, p95 {s['p95_ms']:.1f} ms, max {s['max_ms']:.1f} ms, "
          f"> 50 ms : {s['over_50ms']} (objectif 0)")
    fresh = [e["ready_ms"] for e in speech["entries"] if e["ready_ms"] is not None]
    if fresh:
        retried = sum(e["attempts"] > 1 for e in speech["entries"])
        print(f"pendant la boucle, demande → annonce prête : {_ms(fresh)} "
              f"({retried} rendu(s) pyttsx3 rejeté(s) puis refait(s))")
    failed |= s["over_50ms"] > b["over_50ms"]
    return int(bool(failed))


if __name__ == "__main__":
    sys.exit(main())
