"""Play WAV files on two lanes (calls, announcements) with pygame.mixer, or into files.

With no sound device (a CI machine) the same calls write each played file to
a folder and keep the lane busy for the sound's length, so the kiosk behaves
the same either way. Only the announcer's playback thread calls this.
"""

from __future__ import annotations

import shutil
import time
from collections import OrderedDict
from pathlib import Path

from . import wavcheck

LANES = ("appel", "annonce")  # a timing call, an announcement


class _FileLane:
    """A lane with no device: busy for the sound's length, pausable."""

    def __init__(self) -> None:
        self.end = 0.0
        self.paused_left: float | None = None

    def play(self, seconds: float) -> None:
        self.end, self.paused_left = time.monotonic() + seconds, None

    def busy(self) -> bool:
        return self.paused_left is not None or time.monotonic() < self.end

    def pause(self) -> None:
        if self.paused_left is None and self.busy():
            self.paused_left = self.end - time.monotonic()

    def unpause(self) -> None:
        if self.paused_left is not None:
            self.play(self.paused_left)

    def stop(self) -> None:
        self.end, self.paused_left = 0.0, None


class Player:
    def __init__(self, device: str | None = None, out_dir: str | Path | None = None,
                 use_mixer: bool = True) -> None:
        self.out_dir = Path(out_dir) if out_dir else None
        self.audio = False
        self.reason: str | None = None
        self._owns_mixer = False
        self._channels: dict[str, object] = {}
        self._sounds: OrderedDict[str, object] = OrderedDict()
        self._files = {lane: _FileLane() for lane in LANES}
        self._written = 0
        self._session = time.strftime("%Y%m%d-%H%M%S")  # earlier runs are not overwritten
        #: latency of the mixer buffer, to add to "play() called" for the first sample
        self.buffer_latency = 0.0
        if use_mixer:
            self._open(device)
        else:
            self.reason = "lecture sonore désactivée : annonces écrites dans des fichiers"

    def _open(self, device: str | None) -> None:
        try:
            import pygame

            if not pygame.mixer.get_init():
                kwargs = {"frequency": 22050, "size": -16, "channels": 1, "buffer": 512}
                if device:
                    kwargs["devicename"] = device
                pygame.mixer.init(**kwargs)
                self._owns_mixer = True
            frequency, _, _ = pygame.mixer.get_init()
            if pygame.mixer.get_num_channels() < len(LANES):
                pygame.mixer.set_num_channels(8)
            pygame.mixer.set_reserved(len(LANES))
            self._channels = {lane: pygame.mixer.Channel(i) for i, lane in enumerate(LANES)}
            self.buffer_latency = 512 / frequency
            self.audio = True
        except Exception as exc:  # no device, no driver: files only
            self.reason = f"pas de sortie son ({exc}) : annonces écrites dans des fichiers"
            self.audio = False

    @property
    def owns_mixer(self) -> bool:
        """True when this player opened pygame.mixer (and may reopen it on another device)."""
        return self._owns_mixer

    def _sound(self, path: str):
        import pygame

        sound = self._sounds.pop(path, None) or pygame.mixer.Sound(path)
        self._sounds[path] = sound
        while len(self._sounds) > 64:
            self._sounds.popitem(last=False)
        return sound

    def preload(self, path: str | Path) -> None:
        """Decode a file now so that playing it later costs nothing (the calls)."""
        if self.audio:
            self._sound(str(path))

    def play(self, lane: str, path: str | Path, volume: float = 1.0) -> str | None:
        """Start ``path`` on ``lane``; return the file written when there is no device."""
        path = str(path)
        if self.audio:
            channel = self._channels[lane]
            channel.set_volume(volume)
            channel.play(self._sound(path))
            return None
        self._files[lane].play(wavcheck.read_info(path).duration)
        if self.out_dir is None:
            return path
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self._written += 1
        target = self.out_dir / f"{self._session}-{self._written:04d}-{lane}.wav"
        shutil.copyfile(path, target)
        return str(target)

    def busy(self, lane: str) -> bool:
        if self.audio:
            return bool(self._channels[lane].get_busy())
        return self._files[lane].busy()

    def pause(self, lane: str) -> None:
        if self.audio:
            self._channels[lane].pause()
        else:
            self._files[lane].pause()

    def unpause(self, lane: str) -> None:
        if self.audio:
            self._channels[lane].unpause()
        else:
            self._files[lane].unpause()

    def stop(self) -> None:
        for lane in LANES:
            if self.audio:
                self._channels[lane].stop()
            else:
                self._files[lane].stop()

    def close(self) -> None:
        self.stop()
        self._sounds.clear()
        if self._owns_mixer:
            import pygame

            pygame.mixer.quit()
            self._owns_mixer = False
        self.audio = False

    @staticmethod
    def output_devices() -> list[str]:
        """Names of the playback devices SDL sees (empty when there are none)."""
        try:
            from pygame._sdl2 import audio

            return list(audio.get_audio_device_names(False))
        except Exception:
            return []
