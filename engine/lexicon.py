"""The word list: loading (default French list or a user's ODS), normalising, compiling, caching.

The compiled DAWG is cached on disk, named by the SHA-256 of the list's text and
by the list file's identity (path, size, modification time, inode), so that a
later load finds it from one ``stat`` without reading or hashing the list, then
maps it and uses it in place (no parsing). Only the first load of a list pays
for compilation. A cache file that fails its checksum is rebuilt, never trusted.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import struct
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .dawg import CorruptDawg, Dawg

DEFAULT_LIST = Path(__file__).parent / "data" / "fr-dicollecte.txt.gz"
ENV_LEXICON = "DUPLICATE_LEXICON"
ENV_CACHE = "DUPLICATE_CACHE_DIR"
#: cache files of this format end so; older ones (``.v1.dawg``) are left alone, never read
_CACHE_SUFFIX = ".v3.dawg"
_CACHE_MAGIC = b"DUPLEX\x03\x00"
_CACHE_HEADER = struct.Struct("<8sIII4x")  # magic, then the report's too_long, one_letter, not_words


class LexiconError(ValueError):
    """The word list cannot be used; the message says why, in French."""


@dataclass
class LoadReport:
    """What loading a list found: kept words and the lines that were not kept, counted."""

    words: int = 0
    too_long: int = 0
    one_letter: int = 0
    not_words: int = 0
    examples: list[str] = field(default_factory=list)

    def summary(self) -> str:
        parts = [f"{self.words} mots"]
        if self.too_long:
            parts.append(f"{self.too_long} mots de plus de 15 lettres ignorés")
        if self.one_letter:
            parts.append(f"{self.one_letter} lignes d'une lettre ignorées")
        if self.not_words:
            shown = "; ".join(self.examples[:3])
            parts.append(f"{self.not_words} lignes qui ne sont pas des mots ignorées ({shown})")
        return ", ".join(parts)


def default_cache_dir() -> Path:
    """``$DUPLICATE_CACHE_DIR``, else the user's cache folder (a temporary one without it)."""
    if os.environ.get(ENV_CACHE):
        return Path(os.environ[ENV_CACHE])
    from .files import cache_dir

    return cache_dir("")


def _read_text(path: Path) -> str:
    """Read a word list file as text, with French errors for every way it can be unusable.

    A regular file only, at most 64 MB, and at most 64 MB once decompressed (a
    small .gz of newlines is not allowed to become gigabytes). Each line is
    decoded alone, UTF-8 else Windows-1252, so a list merged from a UTF-8 file
    and a Windows one keeps FÊTE as FÊTE (decoding the whole file as
    Windows-1252 would give FÃŠTE, read as FAATE).
    """
    from .files import LIMITS, FileRefused, decode_lines, read_maybe_gzip, show

    what = "liste de mots"
    try:
        raw = read_maybe_gzip(path, what, LIMITS["lexique"])
        if not raw.strip():
            raise LexiconError(f"liste de mots vide : {show(path)}")
        if b"\x00" in raw[:65536]:
            raise LexiconError(f"liste de mots non valable : {show(path)} est un fichier "
                               "binaire, pas du texte")
        return decode_lines(raw, what, show(path))
    except FileRefused as exc:
        raise LexiconError(str(exc)) from exc


def normalise_list(lines: Iterable[str]) -> tuple[list[str], LoadReport]:
    """Normalise a list's lines into sorted unique words, counting what is not kept."""
    from .normalize import normalize_lines

    result = normalize_lines(lines)
    words = sorted(result.in_order)  # nearly sorted already: fast
    report = LoadReport(
        words=len(words),
        too_long=result.too_long,
        one_letter=result.one_letter,
        not_words=result.invalid,
        examples=[f"ligne {number} : « {text[:30]} »" for number, text in result.invalid_examples],
    )
    return words, report


class Lexicon:
    """A compiled word list. ``word in lexicon`` for upper-case A–Z words."""

    def __init__(self, dawg: Dawg, sha256: str, source: str, report: LoadReport | None = None):
        self.dawg = dawg
        self.sha256 = sha256
        self.source = source
        self.report = report or LoadReport(words=dawg.word_count)

    def __contains__(self, word: object) -> bool:
        return word in self.dawg

    def contains(self, word: str) -> bool:
        return word.upper() in self.dawg

    def __len__(self) -> int:
        return self.dawg.word_count

    def __repr__(self) -> str:
        return f"<Lexicon {self.source} {len(self)} mots {self.sha256[:12]}>"

    @classmethod
    def from_words(cls, words: Iterable[str], source: str = "mémoire") -> Lexicon:
        """A lexicon from words in memory (tests, tools), through the same normaliser."""
        sorted_words, report = normalise_list(words)
        if not sorted_words:
            raise LexiconError("liste de mots vide")
        digest = hashlib.sha256("\n".join(sorted_words).encode()).hexdigest()
        return cls(Dawg.build(sorted_words), digest, source, report)

    @classmethod
    def load(cls, path: str | os.PathLike | None = None, cache_dir: Path | None = None) -> Lexicon:
        """Load ``path``, else ``$DUPLICATE_LEXICON``, else the shipped French list."""
        chosen = Path(path or os.environ.get(ENV_LEXICON) or DEFAULT_LIST)
        folder = cache_dir or default_cache_dir()
        key = _source_key(chosen)
        if key is not None:
            found = _find_cache(folder, key)
            if found is not None:
                digest, dawg, report = found
                return cls(dawg, digest, str(chosen), report)
        text = _read_text(chosen)
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        dawg = Dawg.from_text(text)  # already one sorted word a line: compiled as it is
        if dawg is not None:
            report = LoadReport(words=dawg.word_count)
        else:
            words, report = normalise_list(text.splitlines())
            if not words:
                raise LexiconError(f"liste de mots sans aucun mot valable : {chosen} ({report.summary()})")
            dawg = Dawg.build(words)
        if key is not None:
            _write_cache(folder / f"{digest}.{key}{_CACHE_SUFFIX}", dawg, report)
        return cls(dawg, digest, str(chosen), report)


def _source_key(path: Path) -> str | None:
    """What identifies the list file without reading it; ``None`` if it cannot be looked at."""
    try:
        st = os.stat(path)
        real = os.path.realpath(path)
    except (OSError, ValueError):
        return None
    identity = f"{real}\0{st.st_size}\0{st.st_mtime_ns}\0{st.st_ino}\0{st.st_dev}"
    return hashlib.sha256(identity.encode("utf-8", "surrogateescape")).hexdigest()[:20]


def _find_cache(folder: Path, key: str) -> tuple[str, Dawg, LoadReport] | None:
    """The digest, DAWG and report cached for the list file ``key``, if a sound cache file exists."""
    ending = f".{key}{_CACHE_SUFFIX}"
    try:
        names = [entry.name for entry in os.scandir(folder) if entry.name.endswith(ending)]
    except OSError:
        return None
    for name in names:
        found = read_cache(folder / name)
        if found is not None:
            return (name[: -len(ending)], *found)
    return None


def read_cache(cache: Path) -> tuple[Dawg, LoadReport] | None:
    """A cache file mapped and checked (``None`` when missing or damaged: the caller rebuilds it)."""
    try:
        with open(cache, "rb") as handle:
            mapped = mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)
    except (OSError, ValueError):
        return None  # missing, unreadable or empty
    try:
        if len(mapped) < _CACHE_HEADER.size:
            raise CorruptDawg("en-tête")
        magic, *numbers = _CACHE_HEADER.unpack_from(mapped)
        if magic != _CACHE_MAGIC:
            raise CorruptDawg("en-tête")
        dawg = Dawg.from_buffer(mapped, _CACHE_HEADER.size)
    except (ValueError, CorruptDawg):
        return None  # damaged: rebuilt by the caller and overwritten (the map goes with its views)
    return dawg, LoadReport(dawg.word_count, *numbers)


def _write_cache(cache: Path, dawg: Dawg, report: LoadReport) -> None:
    """Write atomically so that a crash never leaves a half-written cache behind."""
    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        head = _CACHE_HEADER.pack(_CACHE_MAGIC, report.too_long, report.one_letter, report.not_words)
        with tempfile.NamedTemporaryFile(dir=cache.parent, delete=False) as tmp:
            tmp.write(head + dawg.to_bytes())
        os.replace(tmp.name, cache)
    except OSError:
        pass  # no writable cache: the next load compiles again, nothing is lost
