"""The kiosk's voice: queue announcements, render them off-thread, play them in order.

Nothing here blocks the caller: ``announce()`` and ``call()`` only enqueue.
A synthesis thread renders (through the worker process, or from the disk
cache) and a playback thread starts sounds. Timing calls have their own lane:
a call starts at once, pausing an announcement that is playing and jumping
ahead of those waiting; the announcement resumes when the call ends.
"""

from __future__ import annotations

import itertools
import queue
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from enum import IntEnum
from pathlib import Path

from . import texts
from .cache import PhraseCache
from .player import Player
from .settings import SpeechSettings
from .synth import PYTTSX3
from .voice import for_voice
from .worker import WorkerClient


class Priority(IntEnum):
    CALL = 0  # "Chrono", "Trente secondes", "Terminé", "Pause", "Reprise"
    ANNOUNCEMENT = 1  # tirage, top, solos…
    PRERENDER = 2  # filling the cache at start-up, never played


@dataclass
class Entry:
    """One request and what became of it (times from ``time.perf_counter()``)."""

    id: int
    text: str
    voice_text: str
    priority: Priority
    requested: float
    ready: float | None = None  # WAV available
    started: float | None = None  # playback started (play() returned)
    ended: float | None = None
    path: str | None = None
    engine: str | None = None  # "cache", "pyttsx3" or "espeak-ng"
    output: str | None = None  # file written when there is no sound device
    state: str = "en attente"  # en attente, prête, en cours, jouée, muette, annulée, erreur
    error: str | None = None
    generation: int = 0  # stop() count when asked; an older entry is dropped
    synth_seconds: float = 0.0  # time the synthesiser took (0 for a cached phrase)
    attempts: int = 0  # pyttsx3 attempts (more than 1: a bad WAV was thrown away)

    @property
    def lane(self) -> str:
        return "appel" if self.priority is Priority.CALL else "annonce"


def default_cache_dir() -> Path:
    """The user's ``duplicate-kiosk/voix`` cache, or a temporary one (read-only home…)."""
    from engine.files import cache_dir

    return cache_dir("voix")


class Announcer:
    """Speak announcements for the kiosk. Thread-safe; every method returns at once."""

    def __init__(self, settings: SpeechSettings | None = None,
                 cache_dir: str | Path | None = None, *, out_dir: str | Path | None = None,
                 prerender: bool = True, use_mixer: bool = True,
                 client: WorkerClient | None = None,
                 cache_limit: int = 200_000_000) -> None:
        self.settings = settings or SpeechSettings()
        self.cache = PhraseCache(cache_dir or default_cache_dir())
        self.cache_limit = cache_limit
        out = out_dir or Path(tempfile.gettempdir()) / "duplicate-kiosk-annonces"
        self.player = Player(self.settings.output_device, out, use_mixer=use_mixer)
        self._client = client
        self._own_client = client is None
        self._queue: queue.PriorityQueue = queue.PriorityQueue()
        self._seq = itertools.count()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._ready: dict[str, deque[Entry]] = {"appel": deque(), "annonce": deque()}
        self._current: dict[str, Entry | None] = {"appel": None, "annonce": None}
        self._paused = False
        self._pending = 0
        self._closed = False
        self._error: str | None = None
        self._stop_requested = False
        self._generation = 0
        self._call_phrases = {texts.call(name) for name in texts.CALLS}
        self._call_phrases.add(texts.warning(self.settings.warning_seconds))
        self.history: deque[Entry] = deque(maxlen=500)
        self.prerendered = threading.Event()
        self._synth_thread = threading.Thread(target=self._synth_loop, name="speech-synth",
                                              daemon=True)
        self._play_thread = threading.Thread(target=self._play_loop, name="speech-play",
                                             daemon=True)
        self._synth_thread.start()
        self._play_thread.start()
        if prerender:
            self._prerender()
        else:
            self.prerendered.set()

    def _prerender(self) -> None:
        """Queue the fixed phrases behind everything else; ``prerendered`` is set when done."""
        self.prerendered.clear()
        for phrase in texts.fixed_phrases((self.settings.warning_seconds, 30, 20)):
            self._put(phrase, Priority.PRERENDER)
        self._queue.put((Priority.PRERENDER, next(self._seq), "prerender-done"))

    # ----- what the kiosk calls -------------------------------------------------
    def announce(self, text: str, priority: Priority = Priority.ANNOUNCEMENT) -> Entry:
        """Queue ``text`` (written French, e.g. from :mod:`speech.texts`); returns its entry."""
        if not isinstance(text, str) or not text.strip():
            raise ValueError("annonce vide")
        if priority is Priority.PRERENDER:
            raise ValueError("priorité réservée au préchargement")
        with self._lock:
            self._pending += 1
        return self._put(text, Priority(priority))

    def draw(self, new: str, whole: str) -> Entry:
        """New letters (Pays-Lettre, or the blitz form of the settings) then the whole tirage."""
        return self.announce(texts.draw(new, whole, self.settings.letter_form))

    def top(self, move) -> Entry:
        """The top of the coup (an :class:`engine.move.Move`)."""
        return self.announce(texts.top(move))

    def call(self, name: str) -> Entry:
        """A timing call by name: "chrono", "avertissement", "terminé", "pause", "reprise"."""
        return self.announce(texts.call(name, self.settings.warning_seconds), Priority.CALL)

    @property
    def busy(self) -> bool:
        """True while something asked for is still waiting, rendering or playing."""
        with self._lock:
            return self._pending > 0

    @property
    def engine(self) -> str:
        """The synthesiser in use now: "pyttsx3", or "espeak-ng" after a fallback."""
        return self._client.engine if self._client else "démarrage"

    @property
    def fallback(self) -> bool:
        """True when pyttsx3 was wanted but the espeak-ng command line is doing the work."""
        return self.settings.use_pyttsx3 and self._client is not None \
            and self._client.engine != PYTTSX3

    @property
    def last_error(self) -> str | None:
        """The latest problem, in French (a fallback, a failed rendering, no sound device)."""
        client_error = self._client.last_error if self._client else None
        return self._error or client_error or self.player.reason

    @property
    def audio(self) -> bool:
        """False when there is no sound device and announcements go to files."""
        return self.player.audio

    def update_settings(self, settings: SpeechSettings) -> None:
        """Apply new settings at once.

        Mute stops what is playing and drops what waits; a new voice or rate
        renders the fixed phrases again in the background; a new output device
        reopens the mixer when this announcer opened it.
        """
        old, self.settings = self.settings, settings
        self._call_phrases.add(texts.warning(settings.warning_seconds))
        if settings.mute:
            self.stop()
        if (old.voice, old.rate, old.warning_seconds) != (
                settings.voice, settings.rate, settings.warning_seconds):
            self._prerender()
        if old.output_device != settings.output_device and self.player.owns_mixer:
            with self._lock:
                self.player.close()
                self.player = Player(settings.output_device, self.player.out_dir)

    def stop(self) -> None:
        """Silence now and drop every waiting announcement (the JA's "stop" key)."""
        dropped = []
        with self._lock:
            while True:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if isinstance(item[2], Entry) and item[2].priority is not Priority.PRERENDER:
                    dropped.append(item[2])
                else:
                    self._queue.put(item)
                    break  # only pre-render jobs remain: keep them
            for lane in self._ready:
                dropped.extend(self._ready[lane])
                self._ready[lane].clear()
        self._wake.set()
        with self._lock:
            for entry in dropped:
                entry.state = "annulée"
                self._pending -= 1
            self._stop_requested = True
            self._generation += 1  # the entry being rendered now is dropped when done

    def wait_idle(self, timeout: float = 30.0) -> bool:
        """Block until nothing is pending (for the command line and tests, not the display)."""
        deadline = time.monotonic() + timeout
        while self.busy:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.01)
        return True

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self._queue.put((-1, -1, None))
        self._wake.set()
        self._synth_thread.join(timeout=10)
        self._play_thread.join(timeout=5)
        if self._own_client and self._client is not None:
            self._client.close()
        self.player.close()

    def __enter__(self) -> Announcer:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ----- synthesis thread -------------------------------------------------------
    def _put(self, text: str, priority: Priority) -> Entry:
        entry = Entry(next(self._ids), text, for_voice(text), priority, time.perf_counter(),
                      generation=self._generation)
        if priority is not Priority.PRERENDER:
            self.history.append(entry)
        self._queue.put((priority, next(self._seq), entry))
        return entry

    def _synth_loop(self) -> None:
        self.cache.prune(self.cache_limit)
        if self._client is None:
            self._client = WorkerClient(self.settings.use_pyttsx3)
        while True:
            _, _, entry = self._queue.get()
            if entry is None:
                return
            if entry == "prerender-done":
                self.prerendered.set()
                continue
            try:
                self._render(entry)
            except Exception as exc:
                entry.state, entry.error = "erreur", f"synthèse impossible : {exc}"
                self._error = entry.error
                if entry.priority is not Priority.PRERENDER:
                    with self._lock:
                        self._pending -= 1
                continue
            if entry.priority is Priority.PRERENDER:
                if entry.text in self._call_phrases:
                    self._preload(entry.path)
                continue
            with self._lock:
                if entry.generation != self._generation:
                    entry.state = "annulée"
                    self._pending -= 1
                    continue
                entry.state = "prête"
                self._ready[entry.lane].append(entry)
            self._wake.set()

    def _preload(self, path: str | None) -> None:
        # Decoding on the playback side would race with it; a small lock-free cost here.
        if path and self.player.audio:
            with self._lock:
                self.player.preload(path)

    def _render(self, entry: Entry) -> None:
        voice, rate = self.settings.voice, self.settings.rate
        cached = self.cache.lookup(entry.voice_text, voice, rate)
        if cached is not None:
            entry.path, entry.engine = str(cached), "cache"
            self.cache.touch(cached)
        else:
            path = self.cache.path_for(entry.voice_text, voice, rate)
            result = self._client.render(entry.voice_text, path, voice, rate)
            self.cache.remember(path, entry.voice_text)
            entry.path, entry.engine = result.path, result.engine
            entry.synth_seconds = result.seconds
            entry.attempts = result.attempts
            if result.error:
                self._error = result.error
        entry.ready = time.perf_counter()

    # ----- playback thread ------------------------------------------------------------
    def _play_loop(self) -> None:
        while not self._closed:
            self._wake.wait(0.005)
            self._wake.clear()
            with self._lock:
                if self._stop_requested:
                    self._stop_requested = False
                    self.player.stop()
                    self._paused = False
                    for lane, entry in self._current.items():
                        if entry is not None:
                            entry.state, entry.ended = "annulée", time.perf_counter()
                            self._current[lane] = None
                            self._pending -= 1
                self._step()

    def _finish_done(self) -> None:
        for lane, entry in self._current.items():
            if entry is not None and not self.player.busy(lane) and not (
                    lane == "annonce" and self._paused):
                entry.state, entry.ended = "jouée", time.perf_counter()
                self._current[lane] = None
                self._pending -= 1

    def _start(self, entry: Entry) -> None:
        if self.settings.mute:
            entry.state, entry.ended = "muette", time.perf_counter()
            self._pending -= 1
            return
        try:
            entry.output = self.player.play(entry.lane, entry.path, self.settings.volume)
        except Exception as exc:
            entry.state, entry.error = "erreur", f"lecture impossible : {exc}"
            self._error = entry.error
            self._pending -= 1
            return
        entry.started = time.perf_counter()
        entry.state = "en cours"
        self._current[entry.lane] = entry

    def _step(self) -> None:
        self._finish_done()
        calls, announcements = self._ready["appel"], self._ready["annonce"]
        if self._current["appel"] is None:
            if calls:
                if self._current["annonce"] is not None and not self._paused:
                    self.player.pause("annonce")
                    self._paused = True
                self._start(calls.popleft())
            elif self._paused:
                self.player.unpause("annonce")
                self._paused = False
        if self._current["appel"] is None and self._current["annonce"] is None and announcements:
            self._start(announcements.popleft())
