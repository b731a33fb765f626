"""The kiosk's voice: the speech package's Announcer, or WAV files written at once.

In the room the :class:`speech.announcer.Announcer` speaks (calls jump the
queue). The fast demo and the tests have no one to listen and no time to
wait: :class:`FileVoice` renders each announcement with the same speech
package (same texts, same voice rewrites, same cache) straight into a folder,
named after the coup and what was said, so a resumed demo writes the same files.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from speech.cache import PhraseCache
from speech.settings import SpeechSettings
from speech.voice import for_voice


def _slug(text: str) -> str:
    keep = "".join(ch if ch.isalnum() else "-" for ch in text.lower())
    return "-".join(part for part in keep.split("-") if part)[:40]


class FileVoice:
    """Every announcement becomes ``<dossier>/coupNN-<texte>.wav``; nothing is played."""

    def __init__(self, out_dir: str | Path, settings: SpeechSettings | None = None,
                 cache_dir: str | Path | None = None) -> None:
        from speech.announcer import default_cache_dir
        from speech.synth import Renderer

        self.out_dir = Path(out_dir)
        self.settings = settings or SpeechSettings(use_pyttsx3=False)
        self.cache = PhraseCache(cache_dir or default_cache_dir())
        self._renderer = Renderer(use_pyttsx3=False)  # espeak-ng: the same output every run
        self.written: list[Path] = []
        self.spoken: list[str] = []
        self.error: str | None = None

    def say(self, text: str, coup: int = 0) -> Path | None:
        """Render ``text`` (from the cache when already made) and copy it into the folder."""
        self.spoken.append(text)
        voice_text = for_voice(text)
        s = self.settings
        source = self.cache.lookup(voice_text, s.voice, s.rate)
        try:
            if source is None:
                source = self.cache.path_for(voice_text, s.voice, s.rate)
                self._renderer.render(voice_text, source, s.voice, s.rate)
                self.cache.remember(source, voice_text)
            self.out_dir.mkdir(parents=True, exist_ok=True)
            target = self.out_dir / f"coup{coup:02d}-{_slug(text)}.wav"
            tmp = target.with_name(target.name + ".tmp")
            shutil.copyfile(source, tmp)
            tmp.replace(target)
        except (OSError, RuntimeError) as exc:
            from engine.files import os_reason

            reason = os_reason(exc) if isinstance(exc, OSError) else str(exc)
            self.error = f"synthèse vocale impossible : {reason}"
            return None
        self.written.append(target)
        return target

    def call(self, text: str, coup: int = 0) -> Path | None:
        return self.say(text, coup)

    @property
    def busy(self) -> bool:
        return False

    def close(self) -> None:
        pass


class RoomVoice:
    """The Announcer, with the same small interface as :class:`FileVoice`."""

    def __init__(self, settings: SpeechSettings, out_dir: str | Path | None = None) -> None:
        from speech.announcer import Announcer

        self.announcer = Announcer(settings, out_dir=out_dir)
        self.spoken: list[str] = []

    def say(self, text: str, coup: int = 0) -> None:
        self.spoken.append(text)
        self.announcer.announce(text)

    def call(self, text: str, coup: int = 0) -> None:
        """A timing call: its own lane, ahead of any announcement."""
        from speech.announcer import Priority

        self.spoken.append(text)
        self.announcer.announce(text, Priority.CALL)

    @property
    def busy(self) -> bool:
        return self.announcer.busy

    @property
    def error(self) -> str | None:
        return self.announcer.last_error

    def close(self) -> None:
        self.announcer.close()
