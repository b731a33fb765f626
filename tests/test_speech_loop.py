"""A pygame loop goes on while ten announcements are synthesised and played.

Its frame rate is a figure for ``make bench`` (``speech.bench``), not a test: on a shared
2-core machine a test can only check that the loop was never held up by the voice (every
frame drawn while the announcements played). Runs in a fresh process with SDL dummy video
and the SDL *disk* audio driver, so what the mixer really played can be read back from the
file it wrote.
"""

import json
import os
import subprocess
import sys

import numpy as np

from speech import wavcheck
from speech.bench import frame_summary


def test_thirty_fps_loop_while_ten_announcements_play(tmp_path):
    disk = tmp_path / "sortie-son.raw"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="disk",
               SDL_DISKAUDIOFILE=str(disk), PYGAME_HIDE_SUPPORT_PROMPT="1")
    code = ("import json; from speech.bench import loop_with_speech as f; "
            f"print(json.dumps(f(10, cache_dir={str(tmp_path / 'cache')!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, timeout=120, check=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])

    assert result["audio"] is True
    entries = result["entries"]
    assert len(entries) == 11  # ten announcements and one "Chrono"
    assert all(e["state"] == "jouée" for e in entries), entries
    assert sum(e["engine"] == "pyttsx3" for e in entries) >= 10  # fresh renderings
    call = next(e for e in entries if e["lane"] == "appel")
    # the call is not queued behind the announcements asked before it: it starts while they
    # still play (queued, it would start after the last of them ended)
    asked = call["started"] - call["start_ms"] / 1000
    before = [e for e in entries if e["lane"] != "appel"
              and e["started"] - e["start_ms"] / 1000 < asked]
    assert before and call["started"] < max(e["ended"] for e in before), (call, before)

    stats = frame_summary(result["frames_ms"])
    # the loop kept drawing during the whole speech: a synthesis done in the loop would hold
    # one frame per announcement (ten); a loaded machine may delay a frame or two
    assert stats["frames"] > 100, stats
    assert sum(f > 150 for f in result["frames_ms"][1:]) <= 3, stats

    # the mixer really played the speech: read back what SDL wrote
    samples = np.frombuffer(disk.read_bytes(), dtype="<i2")
    windows = samples[: samples.size // 1102 * 1102].reshape(-1, 1102).astype(np.float64)
    loud_seconds = np.count_nonzero(np.sqrt((windows ** 2).mean(axis=1)) > 300) * 1102 / 22050
    spoken = sum(wavcheck.read_info(e["path"]).voiced for e in entries)
    assert loud_seconds > 0.5 * spoken, (loud_seconds, spoken)
