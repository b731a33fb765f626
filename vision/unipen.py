"""Real hand-written letters and digits for training: UNIPEN's isolated characters, never shipped.

UNIPEN Train-R01/V07 (the UNIPEN foundation's benchmark of on-line handwriting, CC BY 4.0
since its 2011 release, doi:10.5281/zenodo.1195803) holds pen trajectories captured on
tablets by some 280 writers of about 20 institutions: section 1a isolated digits (15 953),
section 1b isolated capitals (28 069). A trajectory is drawn again by our own pen and ink
model (``glyphs.draw_glyph``), so the same real letter shapes come out as ballpoint,
pencil, felt or purple ink on the form, and go through the reader's capture code like every
other training glyph. Only the trained network is committed, not the data.

Give the folder of a copy of the set (its ``data/`` and ``include/`` folders) to
``python -m vision entrainer --unipen DOSSIER``. Parsing its 6 000 files takes a minute; the
strokes are then kept beside the training glyphs (``unipen-v1.npz``).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .status import VisionError

#: the sections read: isolated digits, isolated capitals
SECTIONS = ("1a", "1b")
#: the characters kept (the form's alphabet)
WANTED = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
#: a sample wider than this (× its height) is squeezed to it: a tablet gives room a box does not
MAX_ASPECT = 1.4
CACHE_NAME = "unipen-v3.npz"

_SEGMENT = re.compile(r'^\.SEGMENT\s+CHARACTER\s+(\S+)\s+(\S+)\s+"(.*)"')


@dataclass(frozen=True)
class PenSample:
    """One written character: its strokes (x right, y down, height 1, centred on 0), its
    writer (``source/id``) and the institution that collected it (UNIPEN's sub-source)."""

    label: str
    strokes: tuple[np.ndarray, ...]
    writer: str
    source: str
    key: str = ""  # data file and segment (``1b/apb/…/x.dat#12``): names a sample to leave out


class _Stream:
    """The components (pen-down strokes and pen-up moves that hold points) of a data file
    and the files it includes, numbered in order as UNIPEN's segment ranges count them."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.components: list[tuple[bool, np.ndarray, str]] = []  # (pen down, points, writer)
        self.writer = ""
        self.coord = ["X", "Y"]
        self.scale = (1.0, 1.0)

    def read(self, path: Path) -> None:
        try:
            text = path.read_text(encoding="latin-1")
        except OSError as exc:
            raise VisionError(f"fichier UNIPEN illisible : {path} ({exc.strerror})") from exc
        kind: bool | None = None
        points: list[tuple[float, float]] = []
        xppi = yppi = None

        def close() -> None:
            if kind is not None and (kind or points):
                pts = np.array(points, np.float32).reshape(-1, 2) * np.array(self.scale, np.float32)
                self.components.append((kind, pts, self.writer))

        for line in text.splitlines():
            if line.startswith("."):
                close()
                kind, points = None, []
                word, *rest = line.split(None, 1)
                arg = rest[0].strip() if rest else ""
                if word == ".INCLUDE":
                    self.read(self.root / "include" / arg)
                elif word == ".COORD":
                    self.coord = arg.split()
                elif word == ".WRITER_ID":
                    self.writer = arg
                elif word == ".X_POINTS_PER_INCH":
                    xppi = _positive(arg)
                elif word == ".Y_POINTS_PER_INCH":
                    yppi = _positive(arg)
                elif word in (".PEN_DOWN", ".PEN_UP"):
                    kind = word == ".PEN_DOWN"
                if xppi and yppi:  # a tablet with other resolutions across and down (aga)
                    self.scale = (1.0 / xppi, 1.0 / yppi)
                continue
            if kind is None:
                continue
            fields = line.split()
            try:
                points.append((float(fields[self.coord.index("X")]), float(fields[self.coord.index("Y")])))
            except (ValueError, IndexError):
                continue
        close()


def _positive(text: str) -> float | None:
    try:
        value = float(text.split()[0])
    except (ValueError, IndexError):
        return None
    return value if value > 0 else None


def _ranges(spec: str) -> list[tuple[int, int, int | None]]:
    """A segment's components: ``3``, ``3-5``, ``3:10-4:7``, ``1,3,5`` → (component, first
    point, last point or None)."""
    out = []
    for piece in spec.split(","):
        a, _, b = piece.partition("-")
        b = b or a
        ac, _, ap = a.partition(":")
        bc, _, bp = b.partition(":")
        first, last = int(ac), int(bc)
        for c in range(first, last + 1):
            out.append((c, int(ap) if c == first and ap else 0, int(bp) if c == last and bp else None))
    return out


#: a sample flatter than this (height / width) is a stroke the segmentation cut from its
#: letter, not a character of the form
MIN_HEIGHT = 0.05


def normalised(strokes: Iterable[np.ndarray]) -> tuple[np.ndarray, ...] | None:
    """Strokes as drawn on a tablet (y up) → y down, height 1, centred; very wide samples
    squeezed to ``MAX_ASPECT``; None for a flat one."""
    strokes = [s.astype(np.float32) * np.array([1, -1], np.float32) for s in strokes if len(s)]
    pts = np.concatenate(strokes)
    lo, hi = pts.min(0), pts.max(0)
    h = float(hi[1] - lo[1])
    w = float(hi[0] - lo[0])
    if h <= MIN_HEIGHT * w or h <= 0:
        return None
    sx = min(1.0, MAX_ASPECT * h / w) if w > 0 else 1.0
    centre = (lo + hi) / 2
    return tuple(((s - centre) / h * np.array([sx, 1], np.float32)).astype(np.float32) for s in strokes)


def _is_copy(root: Path) -> bool:
    return (root / "data").is_dir() and (root / "include").is_dir()


def _not_a_copy(root: Path) -> VisionError:
    return VisionError(f"{root} n'est pas une copie de UNIPEN Train-R01/V07 (dossiers data/ et include/)")


def parse(root: str | Path, sections: Iterable[str] = SECTIONS) -> list[PenSample]:
    """Every digit and capital of the given sections of a UNIPEN Train-R01/V07 copy."""
    root = Path(root)
    files = sorted(p for s in sections for p in (root / "data" / s).rglob("*") if p.is_file())
    if not files or not _is_copy(root):
        raise _not_a_copy(root)
    out: list[PenSample] = []
    seen: set[tuple] = set()
    for path in files:
        source = path.relative_to(root / "data").parts[1]
        stream = _Stream(root)
        segments = []
        includes = []
        for line in path.read_text(encoding="latin-1").splitlines():
            if line.startswith(".INCLUDE"):
                includes.append(line.split(None, 1)[1].strip())
                stream.read(root / "include" / includes[-1])
            elif line.startswith(".SEGMENT"):
                match = _SEGMENT.match(line.strip())
                if match:
                    segments.append(match.groups())
        rel = path.relative_to(root / "data").as_posix()
        for k, (spec, _quality, label) in enumerate(segments):
            if label not in WANTED:
                continue
            try:
                parts = _ranges(spec)
            except ValueError:
                continue
            key = (tuple(includes), tuple(parts))  # the same segment listed in two files
            if key in seen:
                continue
            seen.add(key)
            strokes, writer = [], ""
            for c, first, last in parts:
                if c >= len(stream.components):
                    strokes = []
                    break
                down, pts, writer = stream.components[c]
                pts = pts[first : None if last is None else last + 1]
                if down and len(pts):
                    strokes.append(pts)
            shape = normalised(strokes) if strokes else None
            if shape is not None:
                out.append(PenSample(label, shape, f"{source}/{writer or path.stem}", source, f"{rel}#{k}"))
    return out


def load(root: str | Path, cache: str | Path | None = None) -> list[PenSample]:
    """``parse``, kept in ``cache`` (a folder) after the first time, under the copy's path."""
    root = Path(root)
    if not _is_copy(root):  # before any cache: a wrong folder must not read another's parse
        raise _not_a_copy(root)
    tag = hashlib.sha256(str(root.resolve()).encode()).hexdigest()[:12]
    path = Path(cache) / f"{Path(CACHE_NAME).stem}-{tag}.npz" if cache else None
    if path is not None and path.exists():
        with np.load(path, allow_pickle=False) as d:
            points, lengths, counts = d["points"], d["lengths"], d["counts"]
            labels, writers, sources, keys = d["labels"], d["writers"], d["sources"], d["keys"]
        bounds = np.cumsum(lengths)[:-1]
        strokes = np.split(points, bounds)
        out, k = [], 0
        for label, writer, source, key, n in zip(labels, writers, sources, keys, counts, strict=True):
            out.append(PenSample(str(label), tuple(strokes[k : k + n]), str(writer), str(source), str(key)))
            k += n
        return out
    samples = parse(root)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            path,
            points=np.concatenate([s for p in samples for s in p.strokes]),
            lengths=np.array([len(s) for p in samples for s in p.strokes], np.int32),
            counts=np.array([len(p.strokes) for p in samples], np.int32),
            labels=np.array([p.label for p in samples]),
            writers=np.array([p.writer for p in samples]),
            sources=np.array([p.source for p in samples]),
            keys=np.array([p.key for p in samples]),
        )
    return samples


def banks(samples: Iterable[PenSample], left_out: set[str] | None = None) -> dict[str, dict[str, list]]:
    """The samples as the real families' banks (``glyphs.REAL_SOURCES``: a family per group of
    sub-sources), character by character, without those ``left_out`` (their keys)."""
    from .glyphs import REAL_SOURCES

    family = {src: name for name, sources in REAL_SOURCES.items() for src in sources}
    left_out = left_out or set()
    out: dict[str, dict[str, list]] = {}
    for s in samples:
        name = family.get(s.source)
        if name is None or s.key in left_out:
            continue
        out.setdefault(name, {}).setdefault(s.label, []).append(s.strokes)
    return out


#: a sample the network gives its label this little is left out of training and benches:
#: a stroke lost by UNIPEN's segmentation (an E of one stroke), a lower-case shape, a wrong label
SUSPECT = 0.01
#: the keys left out (``suspects`` with the network shipped before UNIPEN was used, stop 23)
LEFT_OUT = Path(__file__).parent / "data" / "unipen-ecartes.txt"


def suspects(samples: list[PenSample], model: str | Path, level: float = SUSPECT) -> list[str]:
    """Keys of the samples a network trained without them reads as something else at
    ``level`` or less for their label (the softmax over letters or digits)."""
    from .cnn import GlyphNet, masked_softmax
    from .features import normalise

    net = GlyphNet.load(model)
    images = np.stack([normalise(render(s, 64, 0.08)) for s in samples])
    letters = np.array([c.isalpha() and c.isupper() for c in net.classes])
    digits = np.array([c.isdigit() for c in net.classes])
    is_letter = np.array([s.label.isalpha() for s in samples])
    p = masked_softmax(net.logits_of_images(images), np.where(is_letter[:, None], letters, digits))
    own = p[np.arange(len(samples)), [net.classes.index(s.label) for s in samples]]
    return [s.key for s, q in zip(samples, own, strict=True) if q <= level]


def left_out() -> set[str]:
    """The keys of ``LEFT_OUT``."""
    if not LEFT_OUT.exists():
        return set()
    return {line.strip() for line in LEFT_OUT.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")}


def use(root: str | Path, cache: str | Path | None = None, log=None) -> dict[str, dict[str, list]]:
    """The real families' samples of a UNIPEN copy (``load``, less ``LEFT_OUT``), made
    available to their writers (``glyphs.use_banks``); returns the banks."""
    from .glyphs import use_banks

    samples = load(root, cache)
    made = banks(samples, left_out())
    use_banks(made)
    if log:
        log(f"UNIPEN : {sum(len(v) for b in made.values() for v in b.values())} caractères réels "
            f"de {len({s.writer for s in samples})} écrivains ({len(made)} familles)")
    return made


def render(sample: PenSample, side: int = 64, pen: float = 0.07) -> np.ndarray:
    """A sample drawn white on black (``side``², 1 = ink), for looking at the data."""
    import cv2

    img = np.zeros((side, side), np.float32)
    h = side * 0.8
    for s in sample.strokes:
        pts = np.round((s * h + side / 2) * 16).astype(np.int32)
        cv2.polylines(img, [pts], False, 1.0, max(1, round(pen * h)), cv2.LINE_AA, shift=4)
    return img


__all__ = ["PenSample", "banks", "left_out", "load", "normalised", "parse", "render", "suspects", "use"]
