#!/usr/bin/env python3
"""Build the default French word list (engine/data/fr-dicollecte.txt.gz) from hunspell.

Source: Debian's ``hunspell-fr-comprehensive`` (Dicollecte 7.0, MPL-2.0).  Every stem of
the .dic file is expanded with all the affixes hunspell would accept on it — single
suffixes, two-fold suffixes (a suffix allowed by another suffix's continuation flags),
prefixes, and prefix + suffix cross products, including prefixes allowed by a suffix's
continuation flags and suffixes allowed by a prefix's.  The validity rules mirror
hunspell's lookup as implemented by ``spylls`` (NEEDAFFIX, ONLYINCOMPOUND, FORBIDDENWORD,
CIRCUMFIX, cross-product marks, conditions), so that every generated form is one
hunspell accepts.  ``unmunch`` cannot be used: it mishandles the two-character flags
(``FLAG long``) of this dictionary.

The forms are then normalised with :func:`engine.normalize.normalize_word` (upper case
A–Z, no accents, Œ → OE, Æ → AE); forms with a hyphen, apostrophe, space or digit are
dropped, as are the forms of KEEPCASE entries (unit symbols such as kg, cm, Hz), and
only words of 2 to 15 letters are kept.  Entries whose stem starts with a capital
(proper nouns such as Allemagne or Dracula, acronyms such as SNCF, Roman numerals) are
not Scrabble words and are skipped unless ``--with-proper-nouns`` is given; a word that
is also a common noun (paris, the plural of pari) stays through its lower-case entry.

Usage: ``.venv/bin/python scripts/build_wordlist.py [--source /usr/share/hunspell/fr_FR]
[--out engine/data/fr-dicollecte.txt.gz]``
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine.normalize import MAX_LENGTH, MIN_LENGTH, NotAWord, normalize_word  # noqa: E402

DEFAULT_SOURCE = "/usr/share/hunspell/fr_FR"
DEFAULT_OUT = ROOT / "engine" / "data" / "fr-dicollecte.txt.gz"

Affix = Any  # spylls.hunspell.data.aff.Prefix | Suffix
Word = Any  # spylls.hunspell.data.dic.Word


def load_dictionary(source: str | Path) -> Any:
    """Read ``source``.aff / ``source``.dic with spylls (which handles ``FLAG long``)."""
    from spylls.hunspell import Dictionary

    return Dictionary.from_files(str(source))


class Expander:
    """Generates every word form hunspell accepts for one dictionary stem.

    A form is ``prefix? + stem + suffix? + suffix2?`` where ``suffix`` is attached to the
    stem and ``suffix2`` is only allowed by ``suffix``'s continuation flags.  The checks
    are those of ``spylls.hunspell.algo.lookup.Lookup.is_good_form`` / ``desuffix`` /
    ``deprefix``, read backwards.  Candidates are a suffix or prefix allowed by the stem's
    flags, a prefix allowed by the suffix's continuation flags and a suffix allowed by the
    prefix's; the degenerate case of a prefix and a suffix allowing each other without
    the stem naming either is not enumerated (no such pair in the French dictionary).
    """

    def __init__(self, aff: Any, dic: Any | None = None) -> None:
        self.aff = aff
        self.suffixes: dict[str, list[Affix]] = dict(aff.SFX)
        self.prefixes: dict[str, list[Affix]] = dict(aff.PFX)
        self.forbidden_stems: set[str] = set()
        if dic is not None and aff.FORBIDDENWORD:
            self.forbidden_stems = {w.stem for w in dic.words if aff.FORBIDDENWORD in w.flags}

    # -- applying one affix to a text -----------------------------------------------------
    @staticmethod
    def _add_suffix(text: str, suffix: Affix) -> str | None:
        if not text.endswith(suffix.strip) or not suffix.cond_regexp.search(text):
            return None
        return text[: len(text) - len(suffix.strip)] + suffix.add

    @staticmethod
    def _add_prefix(text: str, prefix: Affix) -> str | None:
        if not text.startswith(prefix.strip) or not prefix.cond_regexp.search(text):
            return None
        return prefix.add + text[len(prefix.strip):]

    # -- the validity rules (hunspell / spylls is_good_form) ----------------------------
    def is_good(self, root_flags: set[str], prefix: Affix | None, suffix: Affix | None,
                suffix2: Affix | None) -> bool:
        """True when hunspell would accept stem + these affixes (conditions aside)."""
        aff = self.aff
        affixes = [a for a in (prefix, suffix, suffix2) if a is not None]
        if aff.NEEDAFFIX:
            if not affixes and aff.NEEDAFFIX in root_flags:
                return False
            if affixes and all(aff.NEEDAFFIX in a.flags for a in affixes):
                return False
        all_flags = set(root_flags)
        if prefix is not None:
            all_flags |= prefix.flags
        if suffix is not None:
            all_flags |= suffix.flags
        if prefix is not None and prefix.flag not in all_flags:
            return False
        if suffix is not None and suffix.flag not in all_flags:
            return False
        if suffix2 is not None and (suffix is None or suffix2.flag not in suffix.flags):
            return False
        if prefix is not None and suffix is not None:
            if not (prefix.crossproduct and suffix.crossproduct):
                return False
            if suffix2 is not None and not suffix2.crossproduct:
                return False
        if aff.CIRCUMFIX:
            has_p = prefix is not None and aff.CIRCUMFIX in prefix.flags
            has_s = suffix is not None and aff.CIRCUMFIX in suffix.flags
            if has_p != has_s:
                return False
        return not (aff.ONLYINCOMPOUND and aff.ONLYINCOMPOUND in all_flags)

    # -- enumeration ------------------------------------------------------------------
    def _suffix_chains(self, stem: str, flags: Iterable[str]
                       ) -> Iterator[tuple[str, Affix, Affix | None]]:
        """(text, suffix, suffix2) for every suffix whose flag is in ``flags``, then its twofold."""
        for flag in flags:
            for suffix in self.suffixes.get(flag, ()):
                text1 = self._add_suffix(stem, suffix)
                if text1 is None:
                    continue
                yield text1, suffix, None
                for flag2 in suffix.flags:
                    for suffix2 in self.suffixes.get(flag2, ()):
                        text2 = self._add_suffix(text1, suffix2)
                        if text2 is not None:
                            yield text2, suffix, suffix2

    def forms(self, word: Word) -> set[str]:
        """All forms hunspell accepts for the dictionary entry ``word`` (stem + flags)."""
        stem, root = word.stem, set(word.flags)
        aff = self.aff
        if aff.FORBIDDENWORD and aff.FORBIDDENWORD in root:
            return set()
        out: set[str] = set()
        if self.is_good(root, None, None, None):
            out.add(stem)
        # Affixed forms of a stem that has a forbidden homonym are not accepted.
        if stem in self.forbidden_stems:
            return out

        # 1. Suffixes allowed by the stem, with a prefix allowed by the stem or the suffix.
        for text, suffix, suffix2 in self._suffix_chains(stem, root):
            if self.is_good(root, None, suffix, suffix2):
                out.add(text)
            if not suffix.crossproduct or (suffix2 is not None and not suffix2.crossproduct):
                continue
            for pflag in root | suffix.flags:
                for prefix in self.prefixes.get(pflag, ()):
                    full = self._add_prefix(text, prefix)
                    if full is not None and self.is_good(root, prefix, suffix, suffix2):
                        out.add(full)

        # 2. Prefixes allowed by the stem, alone or with a suffix the prefix allows.
        for pflag in root:
            for prefix in self.prefixes.get(pflag, ()):
                full = self._add_prefix(stem, prefix)
                if full is not None and self.is_good(root, prefix, None, None):
                    out.add(full)
                if not prefix.crossproduct:
                    continue
                extra = prefix.flags - root  # suffix flags already tried in step 1
                for text, suffix, suffix2 in self._suffix_chains(stem, extra):
                    full = self._add_prefix(text, prefix)
                    if full is not None and self.is_good(root, prefix, suffix, suffix2):
                        out.add(full)
        return out


@dataclass
class BuildStats:
    """Counts shown at the end of a build and written to PROVENANCE.md."""

    stems: int = 0
    keepcase_stems: int = 0
    proper_stems: int = 0
    raw_forms: int = 0
    not_words: int = 0
    wrong_length: int = 0
    words: int = 0


def is_proper(stem: str) -> bool:
    """A stem written with a leading capital: proper noun, acronym or Roman numeral."""
    return stem[:1].isupper()


def expand_dictionary(dictionary: Any, skip: Callable[[Word], bool] = lambda word: False,
                      advance: Callable[[int], None] | None = None) -> set[str]:
    """Every form hunspell accepts from the entries not ``skip``-ped, as written (not normalised).

    A word that is in the dictionary only with the FORBIDDENWORD flag is not accepted by
    hunspell even if another stem generates it, so it is taken out.
    """
    aff, dic = dictionary.aff, dictionary.dic
    expander = Expander(aff, dic)
    forms: set[str] = set()
    for index, word in enumerate(dic.words, start=1):
        if not skip(word):
            forms |= expander.forms(word)
        if advance is not None and index % 1000 == 0:
            advance(1000)
    if advance is not None:
        advance(len(dic.words) % 1000)
    if aff.FORBIDDENWORD:
        forms = {f for f in forms
                 if not (f in expander.forbidden_stems
                         and dic.has_flag(f, aff.FORBIDDENWORD, for_all=True))}
    return forms


def build_words(dictionary: Any, advance: Callable[[int], None] | None = None,
                with_proper_nouns: bool = False) -> tuple[set[str], BuildStats]:
    """Expand, normalise and filter the whole dictionary; ``advance(n)`` reports progress."""
    aff = dictionary.aff
    stats = BuildStats(stems=len(dictionary.dic.words))

    def skip(word: Word) -> bool:
        if aff.KEEPCASE and aff.KEEPCASE in word.flags:
            stats.keepcase_stems += 1  # unit symbols (kg, cm, Hz…): not Scrabble words
            return True
        if not with_proper_nouns and is_proper(word.stem):
            stats.proper_stems += 1
            return True
        return False

    raw = expand_dictionary(dictionary, skip, advance)
    stats.raw_forms = len(raw)
    words: set[str] = set()
    for form in raw:
        try:
            normal = normalize_word(form)
        except NotAWord:
            stats.not_words += 1
            continue
        if MIN_LENGTH <= len(normal) <= MAX_LENGTH:
            words.add(normal)
        else:
            stats.wrong_length += 1
    stats.words = len(words)
    return words, stats


def encode_list(words: Iterable[str]) -> bytes:
    """The sorted list, one word a line, as ASCII bytes (what the sha256 is taken on)."""
    return "".join(f"{w}\n" for w in sorted(words)).encode("ascii")


def write_gzip(data: bytes, path: Path) -> None:
    """gzip -9 with mtime 0 and no file name, so that reruns give identical bytes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw,
                                                compresslevel=9, mtime=0) as gz:
        gz.write(data)


def main(argv: list[str] | None = None) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", default=DEFAULT_SOURCE,
                        help="chemin des fichiers hunspell sans extension (.aff/.dic)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--with-proper-nouns", action="store_true",
                        help="garder aussi les noms propres et sigles (pas des mots de Scrabble)")
    args = parser.parse_args(argv)
    console = Console()
    start = time.perf_counter()
    dictionary = load_dictionary(args.source)
    loaded = time.perf_counter()
    stems = len(dictionary.dic.words)
    console.print(f"Dictionnaire lu en {loaded - start:.1f} s : {stems} radicaux")
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task("Expansion des affixes", total=len(dictionary.dic.words))
        words, stats = build_words(dictionary, lambda n: progress.advance(task, n),
                                   with_proper_nouns=args.with_proper_nouns)
    data = encode_list(words)
    write_gzip(data, args.out)
    elapsed = time.perf_counter() - start
    console.print(
        f"{stats.words} mots écrits dans {args.out} ({args.out.stat().st_size} octets) "
        f"en {elapsed:.1f} s\n"
        f"  radicaux : {stats.stems} (écartés : {stats.keepcase_stems} KEEPCASE, "
        f"{stats.proper_stems} noms propres et sigles)\n"
        f"  formes brutes : {stats.raw_forms}, non-mots écartés : {stats.not_words}, "
        f"hors 2–15 lettres : {stats.wrong_length}\n"
        f"  sha256 de la liste décompressée : {hashlib.sha256(data).hexdigest()}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
