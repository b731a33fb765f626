"""The announcer: order, call priority, mute, files without a sound device, cache, fallback."""

import os
import subprocess
import sys
import time

import pytest

from speech import texts, wavcheck
from speech.announcer import Announcer, Priority
from speech.settings import SpeechSettings
from speech.texts import LetterForm
from speech.worker import WorkerClient

FAST = SpeechSettings(rate=260)


def wait_started(entry, timeout=10.0):
    deadline = time.monotonic() + timeout
    while entry.started is None and time.monotonic() < deadline:
        time.sleep(0.002)
    assert entry.started is not None, entry


@pytest.fixture
def files_announcer(tmp_path):
    """No sound device: announcements are written to files and take their real time."""
    announcer = Announcer(FAST, tmp_path / "cache", out_dir=tmp_path / "out", use_mixer=False)
    assert announcer.prerendered.wait(60)
    yield announcer
    announcer.close()


def test_without_device_announcements_go_to_loud_files(files_announcer, tmp_path):
    a = files_announcer
    assert not a.audio
    assert "fichiers" in a.last_error
    entry = a.announce(texts.tirage("EESR?AT"))
    assert a.busy
    assert a.wait_idle(20)
    assert entry.state == "jouée"
    assert entry.output and os.path.dirname(entry.output) == str(tmp_path / "out")
    info = wavcheck.read_info(entry.output)
    assert info.rms > 1000 and 1.0 < info.duration < 4.0
    # the lane stayed busy for the sound's length, as a real device would
    assert entry.ended - entry.started == pytest.approx(info.duration, abs=0.15)


def test_announcements_play_in_order_and_a_call_pauses_them(files_announcer):
    a = files_announcer
    first = a.announce(texts.new_letters("R?AT"))
    second = a.announce(texts.new_letters("Z"))
    third = a.announce(texts.coup(7))
    wait_started(first)
    time.sleep(0.2)
    call = a.call("chrono")
    wait_started(call, timeout=1)
    assert call.started - call.requested < 0.1  # cached, on its own lane
    assert call.engine == "cache"
    assert a.wait_idle(30)
    assert [e.state for e in (first, second, third, call)] == ["jouée"] * 4
    assert first.ended > call.ended  # the announcement resumed after the call
    assert first.ended <= second.started <= second.ended <= third.started


def test_a_call_is_not_delayed_by_long_announcements_waiting(files_announcer):
    a = files_announcer
    long_ones = [a.announce(texts.top(word=w, ref="H4", score=50 + i))
                 for i, w in enumerate(["MAISONS", "TOMATES", "RAIERONT"])]
    call = a.call("terminé")
    wait_started(call, timeout=1)
    assert call.started - call.requested < 0.1
    started_before = [e for e in long_ones if e.started is not None and e.started < call.started]
    assert len(started_before) <= 1  # at most the one already rendered, which it paused
    a.stop()
    assert a.wait_idle(5)
    assert {e.state for e in long_ones} <= {"annulée"}
    assert not a.busy


def test_warning_call_uses_the_configured_delay(tmp_path):
    with Announcer(SpeechSettings(rate=260, warning_seconds=20), tmp_path / "c",
                   use_mixer=False, prerender=False) as a:
        entry = a.call("avertissement")
        assert entry.text == "Vingt secondes"
        assert entry.priority is Priority.CALL
        assert a.wait_idle(20) and entry.state == "jouée"


def test_mute_plays_nothing(tmp_path):
    settings = FAST.with_changes(mute=True)
    with Announcer(settings, tmp_path / "c", out_dir=tmp_path / "out", use_mixer=False,
                   prerender=False) as a:
        entry = a.announce("Pause")
        assert a.wait_idle(20)
        assert entry.state == "muette"
        assert not (tmp_path / "out").exists()


def test_fixed_phrases_are_cached_on_disk_for_the_next_start(tmp_path):
    with Announcer(FAST, tmp_path / "cache", use_mixer=False) as a:
        assert a.prerendered.wait(60)
    wavs = list((tmp_path / "cache").glob("*.wav"))
    assert len(wavs) >= len(texts.fixed_phrases())
    start = time.perf_counter()
    with Announcer(FAST, tmp_path / "cache", use_mixer=False) as b:
        assert b.prerendered.wait(30)
        elapsed = time.perf_counter() - start
        entry = b.announce(texts.new_letter("Q"))
        assert b.wait_idle(10)
        assert entry.engine == "cache"
    assert elapsed < 5.0  # nothing rendered again


def test_fallback_to_the_command_line_is_reported(tmp_path):
    client = WorkerClient(timeout=0.001)
    with Announcer(FAST, tmp_path / "c", use_mixer=False, prerender=False, client=client) as a:
        entry = a.announce(texts.new_letters("R?AT", LetterForm.LETTRE))
        assert a.wait_idle(20)
        assert entry.state == "jouée"
        assert entry.engine == "espeak-ng"
        assert a.engine == "espeak-ng" and a.fallback
        assert "pas de réponse" in a.last_error
    client.close()


def test_plays_through_the_mixer_with_a_dummy_device(tmp_path, monkeypatch):
    import pygame

    if not pygame.mixer.get_init():
        monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    with Announcer(FAST, tmp_path / "c", prerender=False) as a:
        assert a.audio
        entry = a.announce(texts.new_letters("KY"))
        assert a.wait_idle(20)
        assert entry.state == "jouée" and entry.output is None
        assert entry.ended - entry.started > 0.5  # the channel really played it


def test_no_audio_driver_falls_back_to_files_without_failing(tmp_path):
    code = (
        "from speech.announcer import Announcer; from speech.settings import SpeechSettings;"
        f"a = Announcer(SpeechSettings(rate=260), {str(tmp_path / 'c')!r}, "
        f"out_dir={str(tmp_path / 'o')!r}, prerender=False);"
        "e = a.announce('Reprise'); a.wait_idle(20); print(a.audio, e.state, e.output);"
        "a.close()"
    )
    env = dict(os.environ, SDL_AUDIODRIVER="nosuchdriver", PYGAME_HIDE_SUPPORT_PROMPT="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=60, check=True).stdout.split()
    assert out[:2] == ["False", "jouée"]
    assert wavcheck.read_info(out[2]).rms > 1000


def test_new_rate_renders_the_fixed_phrases_again(tmp_path):
    with Announcer(FAST, tmp_path / "c", use_mixer=False) as a:
        assert a.prerendered.wait(60)
        before = len(list((tmp_path / "c").glob("*.wav")))
        a.update_settings(FAST.with_changes(rate=200, letter_form=LetterForm.PAYS))
        assert a.prerendered.wait(60)
        assert len(list((tmp_path / "c").glob("*.wav"))) >= 2 * before - 2
        entry = a.draw("K", "AEIK")
        assert entry.text == "Kenya. A, E, I, K."
        call = a.call("pause")
        assert a.wait_idle(20)
        assert call.engine == "cache"  # already rendered at the new rate


def test_settings_round_trip_and_limits():
    s = SpeechSettings(rate=180, volume=0.5, letter_form=LetterForm.PAYS, output_device="x")
    assert SpeechSettings.from_dict(s.to_dict()) == s
    with pytest.raises(ValueError, match="débit"):
        SpeechSettings(rate=10)
    with pytest.raises(ValueError, match="volume"):
        SpeechSettings(volume=2)


def test_empty_announcement_is_refused(tmp_path):
    with Announcer(FAST, tmp_path / "c", use_mixer=False, prerender=False) as a:
        with pytest.raises(ValueError, match="vide"):
            a.announce("  ")


def test_cache_keeps_the_recent_renderings_within_its_limit(tmp_path):
    import os as _os

    from speech.cache import PhraseCache

    cache = PhraseCache(tmp_path / "c")
    paths = []
    for i in range(5):
        path = cache.path_for(f"phrase {i}", "roa/fr", 150)
        path.write_bytes(b"x" * 1000)
        _os.utime(path, (1000 + i, 1000 + i))
        paths.append(path)
    cache.touch(paths[0])  # used just now
    assert cache.prune(max_bytes=2500) == 3
    assert [p.exists() for p in paths] == [True, False, False, False, True]
