"""The synthesis worker: a child process that owns pyttsx3, and the client the kiosk uses.

A separate process keeps espeak's callbacks and any pyttsx3 hang away from the
display loop: a request that takes too long kills the worker, the text is
rendered with the espeak-ng command line instead, and the client reports it.
Protocol: one JSON object per line, requests on stdin, replies on the
original stdout (pyttsx3's own prints go to stderr).
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from dataclasses import asdict
from pathlib import Path

from . import espeak
from .synth import ESPEAK_CLI, RenderResult

#: Worker restarts tolerated before the client renders everything itself.
MAX_RESTARTS = 3


def main() -> int:
    """Worker side: read requests, render, reply."""
    reply = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    from .synth import Renderer

    renderer = Renderer(use_pyttsx3="--no-pyttsx3" not in sys.argv)
    reply.write(json.dumps({"ready": True, "engine": renderer.engine_name,
                            "error": renderer.disabled_reason}) + "\n")
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            result = renderer.render(request["text"], request["path"], request["voice"],
                                     request["rate"])
            answer = {"id": request["id"], "ok": True, **asdict(result)}
        except Exception as exc:
            answer = {"id": request["id"], "ok": False, "error": str(exc)}
        reply.write(json.dumps(answer) + "\n")
    return 0


class WorkerClient:
    """Kiosk side: send texts to the worker process, one at a time, with a timeout."""

    def __init__(self, use_pyttsx3: bool = True, timeout: float = 3.0) -> None:
        self.use_pyttsx3 = use_pyttsx3
        self.timeout = timeout
        self.restarts = 0
        self.last_error: str | None = None
        self.engine = ESPEAK_CLI
        self._proc: subprocess.Popen | None = None
        self._replies: queue.Queue = queue.Queue()
        self._lock = threading.Lock()
        self._next_id = 0
        if use_pyttsx3:
            self._start()

    def _start(self) -> None:
        args = [sys.executable, "-m", "speech.worker"]
        if not self.use_pyttsx3:
            args.append("--no-pyttsx3")
        root = str(Path(__file__).resolve().parent.parent)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            p for p in (root, os.environ.get("PYTHONPATH", "")) if p))
        self._proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
                                      bufsize=1, env=env)
        self._replies = queue.Queue()
        threading.Thread(target=self._read, args=(self._proc, self._replies),
                         name="speech-worker-reader", daemon=True).start()
        try:
            hello = self._replies.get(timeout=max(self.timeout, 15.0))
        except queue.Empty:
            self._kill("le processus de synthèse ne démarre pas")
            return
        if hello is None:
            self._kill("le processus de synthèse s'est arrêté au démarrage")
            return
        self.engine = hello.get("engine", ESPEAK_CLI)
        if hello.get("error"):
            self.last_error = hello["error"]

    @staticmethod
    def _read(proc: subprocess.Popen, replies: queue.Queue) -> None:
        for line in proc.stdout:
            try:
                replies.put(json.loads(line))
            except json.JSONDecodeError:
                continue
        replies.put(None)  # the worker ended

    def _kill(self, why: str) -> None:
        self.last_error = why
        self.engine = ESPEAK_CLI
        if self._proc is not None:
            self._proc.kill()
            self._proc.wait(timeout=5)
            self._proc = None
        self.restarts += 1

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def render(self, text: str, path: str | Path, voice: str, rate: int) -> RenderResult:
        """Render through the worker; if it fails or hangs, with the command line here."""
        with self._lock:
            if not self.alive and self.use_pyttsx3 and self.restarts < MAX_RESTARTS:
                if self._proc is not None:  # it died on its own
                    self._kill("le processus de synthèse s'est arrêté")
                self._start()
            if self.alive:
                self._next_id += 1
                request = {"id": self._next_id, "text": text, "path": str(path),
                           "voice": voice, "rate": int(rate)}
                try:
                    self._proc.stdin.write(json.dumps(request) + "\n")
                    self._proc.stdin.flush()
                    answer = self._wait(self._next_id)
                except (OSError, TimeoutError) as exc:
                    self._kill(f"processus de synthèse arrêté : {exc}")
                    answer = None
                if answer is not None and answer.get("ok"):
                    fields = {k: answer[k] for k in ("path", "engine", "attempts", "seconds",
                                                     "duration", "error")}
                    result = RenderResult(**fields)
                    self.engine = result.engine
                    if result.error:
                        self.last_error = result.error
                    return result
                if answer is not None:
                    self.last_error = answer.get("error")
            return self._render_here(text, path, voice, rate)

    def _wait(self, request_id: int) -> dict | None:
        deadline = time.monotonic() + self.timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"pas de réponse en {self.timeout:.0f} s")
            try:
                answer = self._replies.get(timeout=left)
            except queue.Empty as exc:
                raise TimeoutError(f"pas de réponse en {self.timeout:.0f} s") from exc
            if answer is None:
                raise OSError("le processus de synthèse s'est arrêté")
            if answer.get("id") == request_id:
                return answer

    def _render_here(self, text: str, path: str | Path, voice: str, rate: int) -> RenderResult:
        start = time.perf_counter()
        from . import wavcheck

        espeak.render(text, path, voice, rate)
        problem = wavcheck.problem(path, text, rate)
        if problem is not None:
            raise RuntimeError(f"synthèse impossible : {problem}")
        wavcheck.trim_leading_silence(path)
        self.engine = ESPEAK_CLI
        why = self.last_error or "pyttsx3 non utilisé"
        return RenderResult(str(path), ESPEAK_CLI, 0, time.perf_counter() - start,
                            wavcheck.read_info(path).duration, why)

    def close(self) -> None:
        with self._lock:
            if self._proc is not None:
                try:
                    self._proc.stdin.close()
                    self._proc.wait(timeout=3)
                except (OSError, subprocess.TimeoutExpired):
                    self._proc.kill()
                    self._proc.wait(timeout=3)
                self._proc = None


if __name__ == "__main__":
    sys.exit(main())
