"""Reading and writing the files users give: one place, French messages, no surprise.

Every file named on a command line or inside another file goes through here:

- only a regular file is read: a FIFO or a device (``/dev/zero``) would hang or
  fill memory, a folder is not a file; the file is opened without blocking and
  checked again once open (a name swapped in between changes nothing);
- at most ``limit`` bytes are read, and at most ``limit`` bytes come out of a
  gzip file while it is decompressed (a 2 MB bomb never becomes 4 GB);
- text is decoded line by line: UTF-8, else Windows-1252 for that line alone
  (a list merged from two sources keeps FÊTE as FÊTE); a line that is neither
  is refused with its number;
- JSON is parsed with NaN and Infinity refused, numbers and nesting bounded and
  lone surrogates refused, so that the shape can then be checked before use;
- a file written replaces its target atomically, but never a device, a FIFO or
  a folder (``--out /dev/full`` must not replace the device with a file).

Every error is a :class:`FileRefused` (a ``ValueError``) whose text is the French
line the user reads.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

KB = 1024
MB = 1024 * KB

#: sizes above which a file is refused: far above any real one, far below harm
LIMITS = {
    "partie": 4 * MB,  # a saved game (JSON): ~30 KB for a long game
    "position": 64 * KB,
    "bulletin": 1 * MB,
    "joueurs": 4 * MB,  # a players list: ~60 bytes a player
    "lexique": 16 * MB,  # a word list, compressed or not, and once decompressed (ODS: ~5 MB)
    "photo": 64 * MB,
    "modele": 1 * MB,  # a bulletin layout (JSON)
}


class FileRefused(ValueError):
    """A file that cannot be used; ``str()`` is the French message."""


def os_reason(exc: OSError) -> str:
    """The reason of an OSError in French (the system's own text is English)."""
    reasons = {
        errno.ENOENT: "fichier introuvable",
        errno.EISDIR: "c'est un dossier, pas un fichier",
        errno.ENOTDIR: "un élément du chemin n'est pas un dossier",
        errno.EACCES: "accès refusé",
        errno.EPERM: "opération non permise",
        errno.EROFS: "support en lecture seule",
        errno.ENOSPC: "disque plein",
        errno.EDQUOT: "quota disque dépassé",
        errno.EFBIG: "fichier trop gros pour ce support",
        errno.ENAMETOOLONG: "nom de fichier trop long",
        errno.ELOOP: "trop de liens symboliques",
        errno.EIO: "erreur d'entrée-sortie (support défectueux ou retiré ?)",
        errno.ENXIO: "périphérique absent",
        errno.ENODEV: "périphérique absent",
        errno.EBUSY: "fichier occupé",
        errno.EEXIST: "le fichier existe déjà",
        errno.EMFILE: "trop de fichiers ouverts",
        errno.ENOMEM: "mémoire insuffisante",
        errno.EAGAIN: "ressource momentanément indisponible",
        errno.EINVAL: "argument non valable",
        errno.EILSEQ: "nom de fichier dans un encodage inattendu",
    }
    if isinstance(exc, FileNotFoundError):
        return reasons[errno.ENOENT]
    if isinstance(exc, IsADirectoryError):
        return reasons[errno.EISDIR]
    if isinstance(exc, PermissionError):
        return reasons.get(exc.errno, "accès refusé")
    return reasons.get(exc.errno, f"erreur système {exc.errno}")


def show(path: str | os.PathLike) -> str:
    """A path as text that can always be printed (a latin-1 name has lone surrogates)."""
    text = os.fspath(path)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _size(n: int) -> str:
    if n >= MB:
        return f"{n / MB:.1f} Mo".replace(".", ",")
    return f"{max(1, n // KB)} Ko"


def check_regular(path: str | os.PathLike, what: str) -> os.stat_result:
    """The file's status if it is a regular file; else a FileRefused saying what it is."""
    name = show(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError):
            raise FileRefused(f"{what} introuvable : {name}") from exc
        raise FileRefused(f"{what} illisible : {name} ({os_reason(exc)})") from exc
    except ValueError as exc:  # a NUL byte in the name
        raise FileRefused(f"{what} : nom de fichier non valable : {name!r}") from exc
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        raise FileRefused(f"{what} : {name} est un dossier, pas un fichier")
    if not stat.S_ISREG(mode):
        kind = "un tube (FIFO)" if stat.S_ISFIFO(mode) else \
            "un périphérique" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else \
            "une prise (socket)" if stat.S_ISSOCK(mode) else "un fichier spécial"
        raise FileRefused(f"{what} : {name} est {kind}, pas un fichier ordinaire")
    return info


def read_bytes(path: str | os.PathLike, what: str, limit: int) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes."""
    name = show(path)
    info = check_regular(path, what)
    if info.st_size > limit:
        raise FileRefused(f"{what} trop gros : {name} ({_size(info.st_size)}, "
                          f"au plus {_size(limit)})")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        raise FileRefused(f"{what} illisible : {name} ({os_reason(exc)})") from exc
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):  # swapped after the first look
            raise FileRefused(f"{what} : {name} n'est pas un fichier ordinaire")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, min(1 * MB, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                raise FileRefused(f"{what} trop gros : {name} (plus de {_size(limit)})")
    except OSError as exc:
        raise FileRefused(f"{what} illisible : {name} ({os_reason(exc)})") from exc
    finally:
        os.close(fd)
    return b"".join(chunks)


def gunzip(data: bytes, what: str, name: str, limit: int) -> bytes:
    """Decompress gzip ``data``, stopping as soon as more than ``limit`` bytes come out."""
    out, total = [], 0
    decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)
    rest = data
    try:
        while True:
            piece = decomp.decompress(rest, limit + 1 - total)
            out.append(piece)
            total += len(piece)
            if total > limit:
                raise FileRefused(f"{what} : {name} trop gros une fois décompressé "
                                  f"(plus de {_size(limit)})")
            if decomp.eof:
                rest = decomp.unused_data
                if not rest:
                    break
                decomp = zlib.decompressobj(16 + zlib.MAX_WBITS)  # another gzip member
                continue
            rest = decomp.unconsumed_tail
            if not rest and not piece:
                raise FileRefused(f"{what} : fichier compressé endommagé : {name} "
                                  "(fichier tronqué)")
    except zlib.error as exc:
        raise FileRefused(f"{what} : fichier compressé endommagé : {name}") from exc
    return b"".join(out)


def read_maybe_gzip(path: str | os.PathLike, what: str, limit: int) -> bytes:
    """A file's bytes, decompressed (capped) when it is gzip."""
    raw = read_bytes(path, what, limit)
    if raw[:2] == b"\x1f\x8b" or os.fspath(path).endswith(".gz"):
        return gunzip(raw, what, show(path), limit)
    return raw


def decode_lines(raw: bytes, what: str, name: str) -> str:
    """Text decoded line by line: UTF-8, else Windows-1252 for that line only.

    A file mostly in UTF-8 with one line saved from an old Windows tool keeps
    every letter right (« HÉLÈNE », « FÊTE »), where decoding the whole file in
    one encoding would turn the UTF-8 lines into « HÃ©LÃ¨NE » or the other into
    an error. A line neither UTF-8 nor Windows-1252 is refused with its number.
    """
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    lines = []
    for number, line in enumerate(raw.split(b"\n"), start=1):
        try:
            lines.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            try:
                lines.append(line.decode("cp1252"))
            except UnicodeDecodeError as exc:
                raise FileRefused(f"{what} illisible : {name}, ligne {number} : encodage "
                                  "inconnu (ni UTF-8 ni Windows-1252)") from exc
    return "\n".join(lines)


def read_text(path: str | os.PathLike, what: str, limit: int) -> str:
    """A regular text file, decoded line by line (see :func:`decode_lines`)."""
    raw = read_bytes(path, what, limit)
    return decode_lines(raw, what, show(path))


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"valeur « {name} » interdite")


_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"nombre hors limites : {text[:20]}")
    return value


def parse_json(text: str, what: str, name: str) -> Any:
    """JSON with NaN and Infinity refused, integers and nesting bounded, no lone surrogate."""
    try:
        value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    except json.JSONDecodeError as exc:
        raise FileRefused(f"{what} illisible : {name} n'est pas du JSON valable (ligne "
                          f"{exc.lineno}, colonne {exc.colno})") from exc
    except RecursionError as exc:
        raise FileRefused(f"{what} illisible : {name} (imbrication trop profonde)") from exc
    except ValueError as exc:
        reason = "nombre trop long" if "digits" in str(exc) else str(exc)
        raise FileRefused(f"{what} illisible : {name} ({reason})") from exc
    if _SURROGATE_ESCAPE.search(text):  # only an escape can make a lone surrogate
        _check_strings(value, what, name)
    return value


def _check_strings(value: Any, what: str, name: str) -> None:
    """Refuse a string holding a lone UTF-16 surrogate (« \\ud800 »): it cannot be printed."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise FileRefused(f"{what} illisible : {name} (caractère non valable : "
                                  "demi-paire UTF-16 isolée)") from exc
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


def read_json(path: str | os.PathLike, what: str, limit: int) -> Any:
    """A regular JSON file (UTF-8), parsed with :func:`parse_json`."""
    raw = read_bytes(path, what, limit)
    name = show(path)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileRefused(f"{what} illisible : {name} n'est pas un texte UTF-8") from exc
    return parse_json(text, what, name)


def read_stdin_text(what: str, limit: int) -> str:
    """Standard input (``-``), at most ``limit`` bytes."""
    data = sys.stdin.buffer.read(limit + 1)
    if len(data) > limit:
        raise FileRefused(f"{what} trop gros sur l'entrée standard (au plus {_size(limit)})")
    return decode_lines(data, what, "entrée standard")


def check_writable_target(path: str | os.PathLike, what: str) -> Path:
    """Where a command may write ``path``: a new or regular file in an existing folder."""
    target = Path(path)
    name = show(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise FileRefused(f"{what} : impossible d'écrire {name} ({os_reason(exc)})") from exc
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise FileRefused(f"{what} : {name} est un dossier ; donnez un nom de fichier")
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise FileRefused(f"{what} : {name} n'est pas un fichier ordinaire (périphérique, "
                          "tube…) : rien n'a été écrit")
    parent = target.parent
    if not parent.is_dir():
        raise FileRefused(f"{what} : le dossier {show(parent)} n'existe pas : rien n'a été écrit")
    return target


def write_atomic(path: str | os.PathLike, data: bytes, what: str) -> Path:
    """Write ``data`` under a temporary name, then rename it over ``path``.

    A crash or a full disk leaves the previous file whole; the target is checked
    first (:func:`check_writable_target`).
    """
    target = check_writable_target(path, what)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except OSError as exc:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise FileRefused(f"{what} : impossible d'écrire {show(target)} "
                          f"({os_reason(exc)}) ; rien n'a été écrit") from exc
    return target


def home() -> Path | None:
    """The user's home folder, or None (HOME unset and a uid without a passwd entry)."""
    try:
        found = Path.home()
    except (RuntimeError, KeyError, OSError):
        return None
    return found if found.is_absolute() else None


def writable_dir(folder: Path) -> bool:
    """True when ``folder`` exists (made if needed) and a file can really be created there.

    A probe file rather than ``os.access``: root is told « yes » on a read-only
    mount or for a folder that is in fact a file.
    """
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=folder, prefix=".essai-")
        os.close(fd)
        os.unlink(probe)
        return True
    except OSError:
        return False


def cache_dir(sub: str) -> Path:
    """A writable cache folder ``duplicate-kiosk/SUB``: the user's, else a temporary one.

    A cache only saves time, so a read-only or blocked ``~/.cache``, an unset HOME
    or a uid without a passwd entry never stop a command: the cache moves to the
    system's temporary folder.
    """
    base = os.environ.get("XDG_CACHE_HOME")
    user = home()
    candidates = [Path(base)] if base else []
    if user is not None:
        candidates.append(user / ".cache")
    for root in candidates:
        folder = root / "duplicate-kiosk" / sub
        if writable_dir(folder):
            return folder
    return Path(tempfile.gettempdir()) / f"duplicate-kiosk-{os.getuid()}" / sub


__all__ = ["FileRefused", "LIMITS", "cache_dir", "check_regular", "check_writable_target", "decode_lines",
           "gunzip", "home", "os_reason", "parse_json", "read_bytes", "read_json", "read_maybe_gzip",
           "read_stdin_text", "read_text", "show", "writable_dir", "write_atomic"]

