"""Hostile files given to every command: a French line, exit 2, no traceback, in time, in memory.

Each file argument of each command (kiosk, engine, display, vision, speech) gets the
files that used to hang (a FIFO, /dev/zero), to fill memory (a 200 MB file, a .gz of
newlines, a 30000×30000 PNG), or to crash the code behind the parser (JSON of the
wrong shape, Infinity, a 5,000-digit number, 100,000 nested brackets, a lone
surrogate…). The cases of one command run in one child process (its real ``main``,
see tests/hostile_driver.py) whose address space is capped at 1 GB: any case that
needed more fails. A few cases also go through ``python -m …`` itself.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import resource
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MEMORY_CAP = 1 << 30
ENGLISH = re.compile(r"Traceback|Errno|No such file|Permission denied|[Ii]nvalid|[Ee]rror:|"
                     r"usage:|positional arguments|not allowed|required:")


def _cap_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))


def _env(tmp: Path) -> dict:
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                PYGAME_HIDE_SUPPORT_PROMPT="1", KIOSK_PARTIES=str(tmp / "parties"))


def _png_header(width: int, height: int) -> bytes:
    """A small PNG that declares ``width``×``height`` pixels (a decompression bomb)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(
            ">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    rows = zlib.compress(b"\x00" * (width + 1) * 64, 9)  # a few rows; the rest is missing
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", rows) + chunk(b"IEND", b"")


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """Every hostile file, by name, plus sound files the commands need beside them."""
    from engine.game import Game
    from engine.lexicon import Lexicon
    from engine.movegen import generate_moves, top_moves

    d = tmp_path_factory.mktemp("hostile")
    f: dict[str, Path] = {}

    def put(name: str, data: bytes | str) -> Path:
        path = d / name
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        f[name] = path
        return path

    f["absent"] = d / "absent.json"
    f["dossier"] = d / "un-dossier"
    f["dossier"].mkdir()
    f["fifo"] = d / "tube"
    os.mkfifo(f["fifo"])
    f["zero"] = Path("/dev/zero")
    put("vide", b"")
    put("binaire", bytes(range(256)) * 16)
    f["enorme"] = d / "enorme"
    with open(f["enorme"], "wb") as handle:
        handle.truncate(200 * 1024 * 1024)  # sparse: 200 MB that take no disk
    # a sound game of two coups, and its broken twins
    lexicon = Lexicon.load()
    game = Game(seed=2, lexicon_sha256=lexicon.sha256)
    for _ in range(2):
        coup = game.draw()
        moves = generate_moves(game.board, coup.tirage, lexicon)
        game.play(top_moves(moves, len(coup.tirage))[0])
    sound = game.to_dict()
    put("partie.json", json.dumps(sound))
    put("coups-chaines.json", json.dumps({**sound, "coups": ["a", 3]}))
    put("coups-nombres.json", json.dumps({**sound, "coups": [1, 2]}))
    put("reglages-liste.json", json.dumps({**sound, "settings": [1, 2]}))
    put("graine-infinie.json", json.dumps(sound).replace('"seed": 2', '"seed": Infinity'))
    put("graine-5000-chiffres.json", json.dumps(sound).replace('"seed": 2', '"seed": 1' + "0" * 5000))
    put("imbrique.json", '{"format": "duplicate-kiosk/partie", "x": ' + "[" * 100_000)
    bad_word = json.loads(json.dumps(sound))
    bad_word["coups"][0]["top"]["word"] = "\ud800"
    put("surrogate.json", json.dumps(bad_word))
    second = Game(seed=2, lexicon_sha256=lexicon.sha256)
    coup = second.draw()
    moves = generate_moves(second.board, coup.tirage, lexicon)
    best = moves[0].score
    second.play(next(m for m in moves if m.score < best))
    put("pas-le-meilleur.json", json.dumps(second.to_dict()))
    put("liste-sans-le-top.txt", "ZYTHUM\nZYTHUMS\n")  # the game's tops are not words of it
    # positions
    empty = "\n".join(["." * 15] * 15)
    put("position.pos", empty + "\ntirage: MAISONS\n")
    put("bingo.pos", empty + "\ntirage: ?AEIRST\n")
    put("trois-jokers.pos", empty + "\ntirage: ???AB\n")
    put("sept-jokers.pos", empty + "\ntirage: ???????\n")
    k_row = "KKK............"
    put("trop-de-k.pos", "\n".join([k_row] + ["." * 15] * 14) + "\ntirage: K\n")
    # bulletins
    put("bulletin.json", json.dumps({"table": 1, "word": "MAISONS", "ref": "H4", "score": 70}))
    put("bulletin-surrogate.json", '{"table": 1, "word": "\\udc80", "ref": "H4", "score": 7}')
    put("bulletin-nan.json", '{"table": 1, "word": "MAIS", "ref": "H4", "score": NaN}')
    # word lists
    with gzip.open(d / "bombe.txt.gz", "wb", compresslevel=9) as handle:
        for _ in range(100):
            handle.write(b"\n" * (1 << 20))  # 100 MB of newlines in ~100 KB
    f["bombe.txt.gz"] = d / "bombe.txt.gz"
    put("mots-encodage-inconnu.txt", b"MAISON\nF\xc3TE\x81\n")
    # photos and layouts
    put("bombe.png", _png_header(30000, 30000))
    put("photo.jpg", _png_header(400, 300))  # readable header: a regular photo argument
    put("modele-liste.json", "[1, 2, 3]")
    put("modele-champs.json", json.dumps({"page_mm": [148, 105], "grid": {"box": "x"}}))
    # players lists
    put("joueurs-nul.csv", "table;nom\n1;Anne\x00Moreau\n")
    put("joueurs-guillemet.csv", 'table;nom\n1;"Anne\n2;Bruno\n')
    put("joueurs-table.csv", "table;nom\n10000;Anne\n")
    # kiosk journals
    put("texte.partie", "pas une base SQLite\n")
    from kiosk.journal import Journal
    from kiosk.session import Config

    elsewhere = d / "ailleurs"
    journal = Journal.create(d / "demo-ailleurs.partie", {"lexicon_sha256": lexicon.sha256},
                             first=("partie", Config(seed=1, demo={
                                 "out_dir": str(elsewhere), "photos": False,
                                 "accelere": True}).to_dict()))
    journal.close()
    f["demo-ailleurs.partie"] = d / "demo-ailleurs.partie"
    Journal.create(d / "jeu.partie", {"lexicon_sha256": lexicon.sha256},
                   first=("partie", Config(seed=1, players=[{"table": 1, "name": "Anne"}])
                          .to_dict())).close()
    f["jeu.partie"] = d / "jeu.partie"
    f["ailleurs"] = elsewhere
    return f


GENERIC = ("absent", "dossier", "fifo", "zero", "enorme")
GAME_JSON = ("vide", "binaire", "coups-chaines", "coups-nombres", "reglages-liste",
             "graine-infinie", "graine-5000-chiffres", "imbrique", "surrogate", "pas-le-meilleur")


def cases(f: dict[str, Path], tmp: Path) -> list[tuple[str, str, list[str], str]]:
    """(id, command, argv, words the French message must hold)."""
    out: list[tuple[str, str, list[str], str]] = []
    game_files = {k: f[k] for k in GENERIC} | {k: f[f"{k}.json"] if f"{k}.json" in f else f[k]
                                               for k in GAME_JSON}
    position_files = {k: f[k] for k in GENERIC} | {
        k: f[f"{k}.pos"] for k in ("trois-jokers", "sept-jokers", "trop-de-k")}
    for name, path in game_files.items():
        out.append((f"corriger --game {name}", "engine",
                    ["corriger", "--game", str(path), "--coup", "1", "--bulletin",
                     str(f["bulletin.json"])], "erreur"))
        if name != "pas-le-meilleur":  # the room display shows a game, it does not judge it
            out.append((f"snapshot --game {name}", "display",
                        ["snapshot", "--game", str(path), "--out", str(tmp / "x.png")],
                        "erreur"))
        out.append((f"vision lire --game {name}", "vision",
                    ["lire", str(f["photo.jpg"]), "--game", str(path), "--coup", "1"], "erreur"))
        out.append((f"kiosk nouvelle --partie-source {name}", "kiosk",
                    ["nouvelle", "--tirage", "fichier", "--partie-source", str(path)], "erreur"))
    for name, path in position_files.items():
        out.append((f"moves {name}", "engine", ["moves", str(path)], "erreur"))
        out.append((f"corriger --position {name}", "engine",
                    ["corriger", "--position", str(path), "--coup", "1", "--bulletin",
                     str(f["bulletin.json"])], "erreur"))
    for name in (*GENERIC, "bulletin-surrogate.json", "bulletin-nan.json", "binaire"):
        out.append((f"corriger --bulletin {name}", "engine",
                    ["corriger", "--position", str(f["position.pos"]), "--coup", "1",
                     "--bulletin", str(f[name])], "erreur"))
    for name in (*GENERIC, "bombe.txt.gz", "mots-encodage-inconnu.txt", "binaire", "vide"):
        out.append((f"moves --lexicon {name}", "engine",
                    ["moves", "--lexicon", str(f[name]), str(f["position.pos"])], "liste de mots"))
        out.append((f"kiosk nouvelle --lexique {name}", "kiosk",
                    ["nouvelle", "--lexique", str(f[name])], "liste de mots"))
    out.append(("corriger: top absent de la liste", "engine",
                ["corriger", "--game", str(f["partie.json"]), "--coup", "1", "--bulletin",
                 str(f["bulletin.json"]), "--lexicon", str(f["liste-sans-le-top.txt"])],
                "n'est pas un coup valable"))
    for name in (*GENERIC, "bombe.png", "binaire"):
        out.append((f"vision calibrer {name}", "vision", ["calibrer", str(f[name])], "erreur"))
    for name in GENERIC:
        out.append((f"vision lire {name}", "vision", ["lire", str(f[name])], "erreur"))
    for name in (*GENERIC, "modele-liste.json", "modele-champs.json"):
        out.append((f"vision lire --modele {name}", "vision",
                    ["lire", str(f["photo.jpg"]), "--modele", str(f[name])], "modèle"))
    for name in ("zero", "fifo", "absent", "vide"):
        out.append((f"vision entrainer --dossier {name}", "vision",
                    ["entrainer", "--dossier", str(f[name]), "--photos", "1"], "dossier"))
    out.append(("vision entrainer --mnist /dev/zero", "vision",
                ["entrainer", "--mnist", "/dev/zero", "--photos", "1"], "dossier"))
    out.append(("vision entrainer --unipen /dev/zero", "vision",
                ["entrainer", "--unipen", "/dev/zero", "--photos", "1"], "dossier"))
    out.append(("vision entrainer --canaux x", "vision",
                ["entrainer", "--canaux", "16,x,64", "--photos", "1"], "--canaux"))
    out.append(("vision calibrer --nom ../../x", "vision",
                ["calibrer", str(f["photo.jpg"]), "--nom", "../../evasion"], "nom de modèle"))
    for name in (*GENERIC, "joueurs-nul.csv", "joueurs-guillemet.csv", "joueurs-table.csv",
                 "binaire"):
        out.append((f"kiosk nouvelle --joueurs {name}", "kiosk",
                    ["nouvelle", "--joueurs", str(f[name])], "joueurs"))
    for name in (*GENERIC, "texte.partie", "binaire", "vide"):
        for sub in (["reprendre", str(f[name])], ["export", "--partie", str(f[name])],
                    ["lire", str(f["dossier"]), "--partie", str(f[name])],
                    ["sauvegarder", str(tmp / "copie.partie"), "--partie", str(f[name])]):
            out.append((f"kiosk {sub[0]} {name}", "kiosk", sub, "partie"))
    out.append(("kiosk reprendre: demo.out_dir d'un autre dossier", "kiosk",
                ["reprendre", str(f["demo-ailleurs.partie"]), "--sans-ecran"], "reprise refusée"))
    for target in (str(f["dossier"]), str(tmp / "absent" / "p.json"), "/dev/full"):
        out.append((f"play --out {target}", "engine", ["play", "--out", target],
                    "enregistrement de la partie"))
        out.append((f"snapshot --out {target}", "display",
                    ["snapshot", "--game", str(f["partie.json"]), "--out", target], "image"))
        out.append((f"speech --out {target}", "speech",
                    ["say", "Chrono", "--out", target], "fichier WAV"))
    out.append(("kiosk nouvelle --fichier /dev/null", "kiosk",
                ["nouvelle", "--fichier", "/dev/null"], "existe déjà"))
    out.append(("kiosk export --sortie fichier", "kiosk",
                ["export", "--partie", str(f["jeu.partie"]), "--sortie", str(f["vide"])],
                "pas un dossier"))
    return out


def _run_batches(f: dict[str, Path], tmp: Path) -> dict[str, dict]:
    table = cases(f, tmp)
    results: dict[str, dict] = {}
    for command in sorted({c[1] for c in table}):
        request = {"command": command, "cases": [[i, argv] for i, c, argv, _ in table
                                                 if c == command]}
        proc = subprocess.run([sys.executable, str(ROOT / "tests" / "hostile_driver.py")],
                              input=json.dumps(request), capture_output=True, text=True,
                              cwd=ROOT, env=_env(tmp), preexec_fn=_cap_memory, timeout=600)
        assert proc.returncode == 0, (command, proc.stderr[-3000:])
        results.update(json.loads(proc.stdout.strip().splitlines()[-1]))
    return results


@pytest.fixture(scope="module")
def outcomes(hostile, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("sorties")
    return _run_batches(hostile, tmp), {c[0]: c for c in cases(hostile, tmp)}


def test_every_hostile_file_is_a_french_error_with_status_2(outcomes):
    results, table = outcomes
    problems = []
    for case_id, (_, _command, _argv, words) in table.items():
        r = results[case_id]
        err = r["err"]
        why = []
        if r["escaped"]:
            why.append("exception sortie de main : " + r["escaped"][-300:])
        if r["code"] != 2:
            why.append(f"code {r['code']}")
        if not err.strip().splitlines() or words not in err:
            why.append(f"message sans « {words} »")
        if ENGLISH.search(err + r["out"]):
            why.append("texte anglais")
        if r["seconds"] > 10:
            why.append(f"{r['seconds']} s")
        if why:
            problems.append(f"{case_id} : {', '.join(why)} — {err.strip()[:200]!r}")
    assert not problems, "\n".join(problems)
    assert len(table) >= 150


def test_paths_read_from_files_are_not_followed(outcomes, hostile):
    assert not hostile["ailleurs"].exists()  # the journal's demo.out_dir was not created
    assert not (ROOT / "vision" / "layouts").parent.joinpath("..", "evasion.json").exists()
    assert not (ROOT.parent / "evasion.json").exists()


@pytest.mark.parametrize("command,argv", [
    ("engine", ["moves", "{fifo}"]),
    ("kiosk", ["reprendre", "{fifo}"]),
    ("vision", ["lire", "{fifo}"]),
    ("display", ["snapshot", "--game", "{zero}", "--out", "{tmp}/x.png"]),
    ("speech", ["top", "--word", "MAISONS", "--ref", "H4", "--score", "70", "--out", "/dev/full"]),
])
def test_the_real_entry_points(hostile, tmp_path, command, argv):
    argv = [a.format(fifo=hostile["fifo"], zero=hostile["zero"], tmp=tmp_path) for a in argv]
    proc = subprocess.run([sys.executable, "-m", command, *argv], capture_output=True,
                          text=True, cwd=ROOT, env=_env(tmp_path), preexec_fn=_cap_memory,
                          timeout=10)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("erreur") and not ENGLISH.search(proc.stderr), proc.stderr
    assert Path("/dev/full").is_char_device()  # never replaced by a file


def test_output_piped_into_head_ends_quietly(hostile, tmp_path):
    """« … | head -n 1 »: the reader closes early; no BrokenPipeError traceback."""
    many = [str(hostile["bingo.pos"])] * 12  # far more than a pipe holds
    proc = subprocess.Popen([sys.executable, "-m", "engine", "moves", "--json", *many],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT,
                            env=_env(tmp_path))
    proc.stdout.readline()
    proc.stdout.close()  # what head does after its line
    err = proc.stderr.read().decode()
    proc.wait(timeout=60)
    assert "Traceback" not in err and "BrokenPipe" not in err and "Exception" not in err, err
    assert proc.returncode == 141
