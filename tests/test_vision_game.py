"""Reading against a real saved game: legal moves from the engine, hand-off to the correction."""

import json
import subprocess
import sys

import pytest

from vision.coup import CoupContext, correct_reading
from vision.reader import read_bulletin
from vision.synth import BulletinContent, render_bulletin


@pytest.fixture(scope="module")
def game_file(tmp_path_factory):
    from engine.lexicon import Lexicon
    from engine.selfplay import self_play

    path = tmp_path_factory.mktemp("partie") / "partie.json"
    self_play(3, Lexicon.load()).save(path)
    return path


def test_top_of_a_coup_is_read_and_corrected(game_file):
    context = CoupContext.from_game(game_file, 3)
    assert len(context.candidates) > 10
    from engine.game import Game

    top = Game.load(game_file).coups[2].top
    data, _ = render_bulletin(BulletinContent(4, top.word, str(top.ref), top.score), seed=1)
    reading = read_bulletin(data, context.candidates, context.board)
    assert reading.legal
    assert (reading.word.value, reading.ref.value, reading.score.value) == (
        top.word,
        str(top.ref),
        top.score,
    )
    decision = correct_reading(reading, context)
    assert decision["outcome"] == "ok" and decision["score"] == top.score


def test_cli_with_game(game_file, tmp_path):
    from engine.game import Game

    top = Game.load(game_file).coups[4].top
    photo = tmp_path / "b.jpg"
    photo.write_bytes(
        render_bulletin(BulletinContent(8, top.word, str(top.ref), top.score + 2), seed=2)[0]
    )
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "vision",
            "lire",
            str(photo),
            "--game",
            str(game_file),
            "--coup",
            "5",
            "--json",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    d = json.loads(out.stdout.splitlines()[0])
    assert d["word"]["value"] == top.word and d["score"]["value"] == top.score + 2
    assert d["correction"]["outcome"] == "avertissement"  # score miscounted, reference right
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "vision",
            "lire",
            str(photo),
            "--game",
            str(tmp_path / "x.json"),
            "--coup",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "partie illisible" in bad.stderr
