"""Rendered phrases kept on disk, keyed by the exact voice text, voice and rate.

Fixed phrases (calls, Pays-Lettre letters, numbers) are rendered once and
found again at the next start, so a call never waits for the synthesiser.
"""

from __future__ import annotations

import hashlib
import tempfile
from pathlib import Path

from . import wavcheck

#: Bumped when renderings change (v2: leading silence cut), so old files are not reused.
VERSION = 2


class PhraseCache:
    def __init__(self, directory: str | Path) -> None:
        from engine.files import writable_dir

        self.directory = Path(directory)
        if not writable_dir(self.directory):  # read-only or blocked: a cache of this run only
            self.directory = Path(tempfile.mkdtemp(prefix="duplicate-kiosk-voix-"))
        self._checked: set[Path] = set()

    def path_for(self, voice_text: str, voice: str, rate: int) -> Path:
        key = hashlib.sha1(f"v{VERSION}|{voice}|{int(rate)}|{voice_text}".encode()).hexdigest()[:20]
        return self.directory / f"{key}.wav"

    def lookup(self, voice_text: str, voice: str, rate: int) -> Path | None:
        """The cached file if it is there and sound; a damaged file is removed."""
        path = self.path_for(voice_text, voice, rate)
        if path in self._checked:
            return path
        if not path.exists():
            return None
        if wavcheck.problem(path, voice_text, rate) is not None:
            path.unlink(missing_ok=True)
            return None
        self._checked.add(path)
        return path

    def prune(self, max_bytes: int = 200_000_000) -> int:
        """Delete the least recently used renderings beyond ``max_bytes``; return how many.

        Every announcement is kept (a top said twice is free the second time),
        so without a limit a club's cache would grow by ~15 MB a game.
        """
        files = []
        for wav in self.directory.glob("*.wav"):
            try:
                stat = wav.stat()
            except OSError:
                continue
            files.append((max(stat.st_atime, stat.st_mtime), stat.st_size, wav))
        total = sum(size for _, size, _ in files)
        removed = 0
        for _, size, wav in sorted(files):
            if total <= max_bytes:
                break
            wav.unlink(missing_ok=True)
            wav.with_suffix(".txt").unlink(missing_ok=True)
            self._checked.discard(wav)
            total -= size
            removed += 1
        return removed

    def touch(self, path: Path) -> None:
        """Mark a rendering as used now (atime is often not updated by the system)."""
        try:
            Path(path).touch()
        except OSError:
            pass

    def remember(self, path: Path, voice_text: str) -> None:
        """Record a freshly rendered file (and its text beside it, for people)."""
        self._checked.add(Path(path))
        Path(path).with_suffix(".txt").write_text(voice_text + "\n", encoding="utf-8")
