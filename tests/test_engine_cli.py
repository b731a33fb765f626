"""``python -m engine moves`` and ``play``: the output other programs and tools read."""

import json
import subprocess
import sys

from engine.game import Game

EMPTY = "\n".join(["." * 15] * 15)


def run(*args, **kw):
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True,
                          timeout=120, **kw)


def test_moves_json_one_line_per_position(tmp_path):
    first = tmp_path / "a.pos"
    first.write_text(EMPTY + "\ntirage: MAISONS\n")
    rows = EMPTY.splitlines()
    rows[7] = "...MAISONs....."
    second = tmp_path / "b.pos"
    second.write_text("\n".join(rows) + "\ntirage: ?E\n")
    out = run("moves", "--json", str(first), str(second))
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["position"] for line in lines] == [str(first), str(second)]
    best = lines[0]["moves"][0]
    assert best == {"ref": "H4", "word": "MAISONS", "score": 70}
    assert lines[0]["ms"] >= 0
    scores = [m["score"] for m in lines[1]["moves"]]
    assert scores == sorted(scores, reverse=True)
    # the joker already on the grid stays lower case in words that use it
    through_joker = [m for m in lines[1]["moves"] if m["ref"].startswith("10")]
    assert through_joker and all("s" in m["word"] for m in through_joker)


def test_moves_reports_a_bad_position_and_goes_on(tmp_path):
    bad = tmp_path / "bad.pos"
    bad.write_text("n'importe quoi\n")
    good = tmp_path / "good.pos"
    good.write_text(EMPTY + "\ntirage: AS\n")
    out = run("moves", "--json", str(bad), str(good))
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert "position non valable" in lines[0]["erreur"]
    assert lines[1]["moves"][0]["word"] in ("AS", "SA")
    assert out.returncode == 2 and out.stderr.startswith("erreur : position non valable")


def test_missing_lexicon_is_a_french_error(tmp_path):
    pos = tmp_path / "a.pos"
    pos.write_text(EMPTY + "\ntirage: AS\n")
    out = run("moves", "--lexicon", str(tmp_path / "absent.txt"), str(pos))
    assert out.returncode == 2 and "liste de mots introuvable" in out.stderr


def test_play_saves_a_game_the_tools_can_read(tmp_path):
    path = tmp_path / "g.json"
    out = run("play", "--seed", "4", "--out", str(path))
    assert out.returncode == 0, out.stderr
    assert "coup  1" in out.stdout and "fin de partie" in out.stdout
    game = Game.load(path)
    assert game.finished and str(game.total_score) in out.stdout
