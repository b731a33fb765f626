"""The shipped French word list, and the hunspell expansion that builds it."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "engine" / "data"
LIST = DATA / "fr-dicollecte.txt.gz"
PROVENANCE = DATA / "PROVENANCE.md"

COMMON = """
MAISON MAISONS CHEVAL CHEVAUX BEAU BELLE BELLES MANGER MANGEAIENT MANGEONS REMANGER
AIMER AIMASSIONS AIMERAIENT ETRE ETES SOMMES FUT FAIRE FAITES FIT ALLER IRONS VAIS
OEUVRE COEURS ELEVE ELEVES CA ZEN QI KILOMETRE KILOMETRES FINISSONS ENFANTS
""".split()


def _build_module():
    """Import scripts/build_wordlist.py (scripts/ is not a package)."""
    name = "build_wordlist"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "build_wordlist.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def _provenance(key: str) -> str:
    match = re.search(rf"^{key}: (\S+)$", PROVENANCE.read_text(encoding="utf-8"), re.M)
    assert match, f"{key} missing from PROVENANCE.md"
    return match.group(1)


@pytest.fixture(scope="module")
def shipped() -> tuple[bytes, list[str]]:
    data = gzip.decompress(LIST.read_bytes())
    return data, data.decode("ascii").splitlines()


def test_shipped_list_is_sorted_unique_and_clean(shipped):
    data, words = shipped
    assert data.endswith(b"\n")
    assert words == sorted(set(words))
    pattern = re.compile(r"[A-Z]{2,15}")
    bad = [w for w in words if not pattern.fullmatch(w)]
    assert bad == []


def test_shipped_list_matches_provenance(shipped):
    data, words = shipped
    expected = int(_provenance("word_count"))
    assert abs(len(words) - expected) <= expected // 100
    assert 400_000 < len(words) < 410_000  # the issue expects about 405,800
    assert hashlib.sha256(data).hexdigest() == _provenance("sha256")


def test_shipped_list_has_common_words_and_no_symbols(shipped):
    words = set(shipped[1])
    assert [w for w in COMMON if w not in words] == []
    # unit symbols (KEEPCASE), proper nouns and acronyms are not Scrabble words
    assert {"KG", "CM", "HZ", "KWH", "ALLEMAGNE", "SNCF", "DRACULA"}.isdisjoint(words)


def test_licence_shipped():
    text = (DATA / "LICENSE-MPL-2.0.txt").read_text(encoding="utf-8")
    assert "Mozilla Public License Version 2.0" in text and len(text) > 15_000


TINY_AFF = """\
SET UTF-8
FLAG long
NEEDAFFIX ()
KEEPCASE ||
FORBIDDENWORD {}

PFX Re Y 1
PFX Re 0 re .

PFX De N 1
PFX De 0 dé .

PFX Um Y 2
PFX Um 0 0/S. .
PFX Um 0 kilo/S.() .

PFX Uk N 1
PFX Uk 0 k .

SFX S. Y 2
SFX S. 0 0 [^sxz]
SFX S. 0 s [^sxz]

SFX Pl Y 1
SFX Pl al aux al

SFX Ve Y 4
SFX Ve 0 0 er
SFX Ve er ons er
SFX Ve er ait er
SFX Ve er eur/S. er
"""

TINY_DIC = """\
12
maison/S.()
cheval/Pl()
chanter/ReDeVe()
mètre/Um()
g/Uk||
Zorro/S.()
aujourd'hui
cerf-volant/S.
déchanter/{}
à
œuvre/S.()
anticonstitutionnel/S.()
"""


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    base = tmp_path_factory.mktemp("hunspell") / "tiny"
    base.with_suffix(".aff").write_text(TINY_AFF, encoding="utf-8")
    base.with_suffix(".dic").write_text(TINY_DIC, encoding="utf-8")
    module = _build_module()
    return module, module.load_dictionary(base)


def test_expansion_of_each_stem(tiny):
    module, dictionary = tiny
    expander = module.Expander(dictionary.aff, dictionary.dic)
    forms = {w.stem: expander.forms(w) for w in dictionary.dic.words}
    assert forms["maison"] == {"maison", "maisons"}  # NEEDAFFIX stem, null suffix
    assert forms["cheval"] == {"chevaux"}  # NEEDAFFIX stem alone is not a word
    assert forms["chanter"] == {
        "chanter", "chantons", "chantait", "chanteur", "chanteurs",  # suffix, twofold suffix
        "rechanter", "rechantons", "rechantait", "rechanteur", "rechanteurs",  # cross product
        "déchanter",  # prefix without cross product: no déchantons
    }
    # prefix carrying a suffix flag; kilo is NEEDAFFIX so it needs the (null) suffix
    assert forms["mètre"] == {"mètre", "mètres", "kilomètre", "kilomètres"}
    assert forms["g"] == {"g", "kg"}
    assert forms["déchanter"] == set()  # FORBIDDENWORD


def test_expand_dictionary_removes_forbidden_words(tiny):
    module, dictionary = tiny
    forms = module.expand_dictionary(dictionary)
    assert "déchanter" not in forms
    assert {"chanter", "kg", "Zorros", "aujourd'hui", "cerf-volants", "à"} <= forms


def test_build_words_exact_set(tiny):
    module, dictionary = tiny
    words, stats = module.build_words(dictionary)
    assert words == {
        "MAISON", "MAISONS", "CHEVAUX", "OEUVRE", "OEUVRES",
        "CHANTER", "CHANTONS", "CHANTAIT", "CHANTEUR", "CHANTEURS",
        "RECHANTER", "RECHANTONS", "RECHANTAIT", "RECHANTEUR", "RECHANTEURS",
        "METRE", "METRES", "KILOMETRE", "KILOMETRES",
    }
    assert (stats.keepcase_stems, stats.proper_stems, stats.words) == (1, 1, 19)
    assert stats.not_words == 3  # aujourd'hui, cerf-volant, cerf-volants
    assert stats.wrong_length == 3  # à, anticonstitutionnel(s)
    with_names, _ = module.build_words(dictionary, with_proper_nouns=True)
    assert with_names - words == {"ZORRO", "ZORROS"}


def test_gzip_is_deterministic(tiny, tmp_path):
    module, _ = tiny
    data = module.encode_list({"ZEN", "ABAT", "MAISON"})
    assert data == b"ABAT\nMAISON\nZEN\n"
    first, second = tmp_path / "a.gz", tmp_path / "b.gz"
    module.write_gzip(data, first)
    module.write_gzip(data, second)
    assert first.read_bytes() == second.read_bytes()
    assert gzip.decompress(first.read_bytes()) == data


def test_expansion_agrees_with_spylls_lookup(tiny):
    module, dictionary = tiny
    forms = module.expand_dictionary(dictionary)
    assert all(dictionary.lookup(form) for form in forms)
    wrongs = ("cheval", "déchantons", "déchanter", "kilo", "rechevaux", "chantaits", "maisonss")
    for wrong in wrongs:
        assert wrong not in forms
        assert not dictionary.lookup(wrong)
