"""Loading word lists: the shipped one, a user's ODS, bad files, and the compiled cache."""

import gzip

import pytest

from engine.dawg import Dawg
from engine.lexicon import DEFAULT_LIST, Lexicon, LexiconError, read_cache


@pytest.fixture
def cache(tmp_path):
    return tmp_path / "cache"


def test_default_list_loads_and_knows_french_words(cache):
    lex = Lexicon.load(cache_dir=cache)
    assert len(lex) > 400_000
    for word in ("MAISONS", "CHEVAUX", "ETES", "OEUVRE", "ZYTHUMS"):
        assert word in lex
    assert "QZX" not in lex and "" not in lex and "maisons" not in lex
    assert lex.contains("maisons")


def test_user_list_goes_through_the_normaliser(tmp_path, cache):
    path = tmp_path / "ods.txt"
    lines = ["\ufeffÉté", "maïs", "  Cœur ", "ANTICONSTITUTIONNELLEMENT", "porte-clé", "a", "", "12",
             "aujourd'hui", "Noël\r"]
    path.write_text("\n".join(lines), encoding="utf-8")
    lex = Lexicon.load(path, cache_dir=cache)
    assert {"ETE", "MAIS", "COEUR", "NOEL"} == set(lex.dawg.words())
    report = lex.report
    assert report.too_long == 1 and report.one_letter == 1 and report.not_words == 3
    assert "porte-clé" in " ".join(report.examples)
    assert "3 lignes qui ne sont pas des mots" in report.summary()


def test_latin1_user_list_is_read(tmp_path, cache):
    path = tmp_path / "ods-latin1.txt"
    path.write_bytes("ÉTÉ\nÇA\n".encode("cp1252"))
    assert set(Lexicon.load(path, cache_dir=cache).dawg.words()) == {"ETE", "CA"}


def test_mixed_encodings_are_decoded_line_by_line(tmp_path, cache):
    """A UTF-8 list with lines pasted from a Windows-1252 one: FÊTE stays FÊTE, not FAATE."""
    path = tmp_path / "fusion.txt"
    path.write_bytes("ÉTÉ\nMAISON\n".encode() + "FÊTE\nNOËL\n".encode("cp1252") + "ÇA\n".encode())
    words = set(Lexicon.load(path, cache_dir=cache).dawg.words())
    assert words == {"ETE", "MAISON", "FETE", "NOEL", "CA"}
    # a line neither UTF-8 nor Windows-1252 is refused with its number
    path.write_bytes(b"MAISON\nF\xc3TE\x81\n")
    with pytest.raises(LexiconError, match="ligne 2 : encodage inconnu"):
        Lexicon.load(path, cache_dir=cache)


def test_a_gzip_bomb_is_stopped_while_decompressing(tmp_path, cache):
    path = tmp_path / "bombe.txt.gz"
    with gzip.open(path, "wb", compresslevel=9) as handle:
        for _ in range(100):  # 100 MB of newlines in a 100 KB file
            handle.write(b"\n" * (1 << 20))
    assert path.stat().st_size < 200_000
    with pytest.raises(LexiconError, match="trop gros une fois décompressé"):
        Lexicon.load(path, cache_dir=cache)


def test_only_regular_files_are_read(tmp_path, cache):
    import os

    fifo = tmp_path / "tube.txt"
    os.mkfifo(fifo)  # reading it would wait forever for a writer
    with pytest.raises(LexiconError, match="tube"):
        Lexicon.load(fifo, cache_dir=cache)
    with pytest.raises(LexiconError, match="périphérique"):
        Lexicon.load("/dev/zero", cache_dir=cache)


def test_environment_variable_chooses_the_list(tmp_path, cache, monkeypatch):
    path = tmp_path / "mini.txt"
    path.write_text("ZOO\nZOOS\n")
    monkeypatch.setenv("DUPLICATE_LEXICON", str(path))
    assert len(Lexicon.load(cache_dir=cache)) == 2


@pytest.mark.parametrize(
    "content,message",
    [(None, "introuvable"), (b"", "vide"), (b"   \n\n", "vide"), (b"\x00\x01ELF\x00", "binaire"),
     (b"123\n---\n", "aucun mot valable"), (b"\x1f\x8b\x08garbage", "compressé endommagé")],
)
def test_bad_lists_give_french_errors(tmp_path, cache, content, message):
    path = tmp_path / "liste.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(LexiconError, match=message):
        Lexicon.load(path, cache_dir=cache)


def test_a_directory_is_not_a_list(tmp_path, cache):
    with pytest.raises(LexiconError, match="dossier"):
        Lexicon.load(tmp_path, cache_dir=cache)


def test_cache_is_written_once_and_reused(tmp_path, cache):
    path = tmp_path / "l.txt"
    path.write_text("MAISON\nMAISONS\nSAISON\n")
    first = Lexicon.load(path, cache_dir=cache)
    files = list(cache.iterdir())
    assert len(files) == 1 and first.sha256 in files[0].name
    mtime = files[0].stat().st_mtime_ns
    second = Lexicon.load(path, cache_dir=cache)
    assert files[0].stat().st_mtime_ns == mtime
    assert list(second.dawg.words()) == ["MAISON", "MAISONS", "SAISON"]


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "header"])
def test_corrupt_cache_is_rebuilt_not_trusted(tmp_path, cache, damage):
    path = tmp_path / "l.txt"
    path.write_text("MAISON\nMAISONS\nSAISON\n")
    Lexicon.load(path, cache_dir=cache)
    (cache_file,) = cache.iterdir()
    data = bytearray(cache_file.read_bytes())
    if damage == "truncate":
        data = data[: len(data) // 2]
    elif damage == "flip":
        data[-30] ^= 0x55
    elif damage == "empty":
        data = bytearray()
    else:
        data[:5] = b"xx,yy"
    cache_file.write_bytes(bytes(data))
    lex = Lexicon.load(path, cache_dir=cache)
    assert list(lex.dawg.words()) == ["MAISON", "MAISONS", "SAISON"]
    assert read_cache(cache_file) is not None  # rewritten sound


def test_dawg_is_minimal_and_exact():
    words = sorted({"CHANTA", "CHANTE", "CHANTER", "DANSA", "DANSE", "DANSER", "CHANTAS", "DANSAS"})
    dawg = Dawg.build(words)
    assert list(dawg.words()) == words
    # shared suffixes: CHANT- and DANS- end in the same states
    assert dawg.node_count < sum(len(w) for w in words)
    with pytest.raises(ValueError):
        Dawg.build(["B", "A"])


def test_shipped_list_is_gzip_text():
    head = gzip.decompress(DEFAULT_LIST.read_bytes())[:20].decode()
    assert head.split("\n")[0].isalpha()
