"""A crash after any event: the demo's journal cut after each of its events in turn, resumed,
must end with the results of the uninterrupted game (every step boundary of three coups,
the rejected tirage included)."""

import os
import shutil
import sqlite3

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


from engine.export import results_csv
from kiosk.demo import Autopilot, VirtualClock, players
from kiosk.journal import Journal
from kiosk.machine import Machine
from kiosk.runner import run_headless
from kiosk.session import Config, Session
from kiosk.voice import FileVoice


def play(path, out_dir, lexicon, cache):
    clock = VirtualClock()
    machine = Machine(Session(Journal.open(path), lexicon), clock)
    autopilot = Autopilot(machine, out_dir, photos=False, advance=clock.advance)
    run_headless(machine, autopilot, FileVoice(out_dir, cache_dir=cache), out_dir,
                 screenshots=False)
    machine.session.journal.close()
    return results_csv(machine.session.results)


def test_cut_after_every_event_resumes_to_the_same_results(tmp_path, lexicon):
    config = Config(seed=12, seconds=10, warning=5, players=players(), max_coups=3)
    full = tmp_path / "full.partie"
    Journal.create(full, {"lexicon_sha256": lexicon.sha256},
                   first=("partie", config.to_dict())).close()
    reference = play(full, tmp_path / "ref", lexicon, tmp_path / "cache")
    conn = sqlite3.connect(full)
    last = conn.execute("SELECT MAX(seq) FROM events").fetchone()[0]
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert last > 50
    for cut in range(1, last):
        path = tmp_path / f"cut{cut}.partie"
        shutil.copyfile(full, path)
        with sqlite3.connect(path) as c:
            c.execute("DELETE FROM events WHERE seq > ?", (cut,))
        assert play(path, tmp_path / f"d{cut}", lexicon, tmp_path / "cache") == reference, cut
