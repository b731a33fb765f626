"""``python -m speech``: the text sent to the voice, a WAV written, errors in French."""

import os
import subprocess
import sys

from speech import espeak, texts, wavcheck
from speech.cli import main
from speech.voice import for_voice


def test_tirage_text(capsys):
    assert main(["tirage", "EESR?AT", "--new", "R?AT", "--text"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Roumanie R, jokère, Algérie ah, Tunisie T. ah, deux E, R, S, T, jokère."
    )


def test_tirage_blitz_text(capsys):
    assert main(["tirage", "eesr*at", "--new", "r*at", "--blitz", "lettre", "--text"]) == 0
    assert capsys.readouterr().out.startswith("R, jokère, ah, T. ah, deux E,")


def test_top_text(capsys):
    assert main(["top", "--word", "MAISONS", "--ref", "H4", "--score", "70", "--text"]) == 0
    assert capsys.readouterr().out.strip() == (
        "Soixante-dix points. Horizontal. En H quatre. maisons : M, ah, I, S, O, N, S. "
        "Je répète : maisons, H quatre, soixante-dix points."
    )


def test_call_and_say_text(capsys):
    assert main(["appel", "avertissement", "--delay", "20", "--text"]) == 0
    assert main(["say", "Bonne", "partie", "--text"]) == 0
    assert capsys.readouterr().out.splitlines() == ["Vingt secondes", "Bonne partie"]


def test_errors_are_french_and_exit_2(capsys):
    assert main(["top", "--word", "MAISONS", "--ref", "Z4", "--score", "70", "--text"]) == 2
    assert "référence non valable" in capsys.readouterr().err
    assert main(["tirage", "AB3", "--text"]) == 2
    assert "non valable" in capsys.readouterr().err


def test_module_writes_a_wav(tmp_path):
    out = tmp_path / "top.wav"
    for _ in range(2):  # the driver's late « Audio saved to » leaked about one run in three
        quick = subprocess.run([sys.executable, "-m", "speech", "say", "Chrono", "--out",
                                str(tmp_path / "q.wav")], capture_output=True, text=True,
                               timeout=60, check=True)
        assert quick.stdout == ""
    result = subprocess.run(
        [sys.executable, "-m", "speech", "top", "--word", "MAIsONS", "--ref", "8D",
         "--score", "83", "--out", str(out)],
        capture_output=True, text=True, timeout=60, check=True,
        env=dict(os.environ, PYGAME_HIDE_SUPPORT_PROMPT="1"))
    # pyttsx3 normally; on a loaded machine the worker may time out and the
    # espeak-ng fallback write it: either way the engine used is named.
    assert "écrit" in result.stderr
    assert "pyttsx3" in result.stderr or "espeak" in result.stderr
    assert result.stdout == ""  # pyttsx3's own prints do not leak
    info = wavcheck.read_info(out)
    assert info.rms > 1000 and 8 < info.duration < 20
    text = for_voice(texts.top(word="MAIsONS", ref="8D", score=83))
    assert wavcheck.problem(out, text, 150, espeak.reference_span(text, "fr", 150)) is None
