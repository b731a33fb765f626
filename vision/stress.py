"""Photo conditions unlike the generator's usual ones, to check the reader fails *safely*.

Each condition changes the capture (table, light, camera, scanner) or the pen of a
held-out writer; the training/test style split is untouched (pens are variations of
the held-out writers only). For every photo the reading with the game's legal moves
must be right, flagged, or a clear failure status — never a confident wrong field::

    python -m vision.stress --n 12          # every condition, 12 bulletins each
    python -m vision.stress --only doigt    # one condition
"""

from __future__ import annotations

import argparse
import copy
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .glyphs import STYLES, TEST_STYLES
from .layout import Layout
from .status import VIERGE
from .synth import INKS, Mistakes, PhotoEffects, photograph, wide_letters, write_bulletin

PX_PER_MM = 10.0


@dataclass
class Shot:
    """One generated photo with its capture recipe."""

    photo: np.ndarray
    corners: np.ndarray  # page corners in the photo (TL, TR, BR, BL of the upright page)


def _wood(size: tuple[int, int], rng: np.random.Generator, dark: bool = False) -> np.ndarray:
    """A wooden (or dark) table with clutter: grain, a pen, a cup, a sheet of paper, a phone."""
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, math.pi)
    u = xx * math.cos(angle) + yy * math.sin(angle)
    v = -xx * math.sin(angle) + yy * math.cos(angle)
    grain = np.sin(u / rng.uniform(6, 14) + 3 * np.sin(v / rng.uniform(80, 200)))
    base = np.array([40, 45, 55] if dark else [45, 90, 140], np.float32)  # BGR
    img = base + grain[..., None] * (8 if dark else 22) + rng.normal(0, 4, (h, w, 1))
    img = np.clip(img, 0, 255).astype(np.uint8)
    for _ in range(int(rng.integers(3, 7))):
        kind = rng.integers(4)
        cx, cy = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        if kind == 0:  # a pen
            a = rng.uniform(0, math.pi)
            d = np.array([math.cos(a), math.sin(a)]) * rng.uniform(80, 200)
            p0, p1 = (int(cx - d[0]), int(cy - d[1])), (int(cx + d[0]), int(cy + d[1]))
            cv2.line(img, p0, p1, tuple(int(c) for c in rng.integers(0, 255, 3)), int(rng.integers(8, 16)))
        elif kind == 1:  # a cup seen from above
            r = int(rng.uniform(40, 90))
            cv2.circle(img, (cx, cy), r, (230, 230, 235), -1)
            cv2.circle(img, (cx, cy), int(r * 0.8), (30, 50, 70), -1)
        elif kind == 2:  # another sheet (white, with text lines), partly out of frame
            quad = np.array(
                [[cx, cy], [cx + 220, cy + 30], [cx + 180, cy + 300], [cx - 40, cy + 270]], np.int32
            )
            cv2.fillPoly(img, [quad], (235, 238, 240))
            for k in range(6):
                y = cy + 60 + 30 * k
                cv2.line(img, (cx + 10, y), (cx + 150, y + 20), (80, 80, 80), 3)
        else:  # a phone
            cv2.rectangle(img, (cx, cy), (cx + 90, cy + 170), (20, 20, 20), -1)
    return img


def _fx(**kw) -> PhotoEffects:
    base = dict(max_tilt_deg=20.0, upside_down=0.0, max_rotation_deg=10.0, shadow=0.0)
    base.update(kw)
    return PhotoEffects(**base)


def _marker_centre(corners: np.ndarray, which: int) -> tuple[int, int, float]:
    """Where the page's corner marker ``which`` (0 TL … 3 BL) lies in the photo, and its size."""
    c = np.asarray(corners, np.float32)
    centre = c.mean(0)
    p = c[which] + (centre - c[which]) * 0.09
    side = float(np.linalg.norm(c[1] - c[0]))
    return int(p[0]), int(p[1]), side


def _shoot(paper: np.ndarray, rng: np.random.Generator, fx: PhotoEffects, bg=None) -> Shot:
    photo, corners = photograph(paper, rng, fx, bg)
    return Shot(photo, corners)


def _table(paper, rng):
    ow, oh = 1600, 1200
    return _shoot(paper, rng, _fx(fill=(0.45, 0.7)), _wood((ow, oh), rng, dark=rng.random() < 0.5))


def _perspective(paper, rng):
    return _shoot(paper, rng, _fx(max_tilt_deg=50.0, min_tilt_deg=40.0, fill=(0.7, 0.95)))


def _white_balance(paper, rng):
    shot = _shoot(paper, rng, _fx())
    warm = rng.random() < 0.5
    gains = np.array([0.7, 0.95, 1.15] if warm else [1.15, 1.0, 0.75], np.float32)  # BGR
    shot.photo = np.clip(shot.photo.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    return shot


def _motion(paper, rng):
    shot = _shoot(paper, rng, _fx(blur=(0.0, 0.3)))
    length = int(rng.integers(5, 9))
    k = np.zeros((length, length), np.float32)
    k[length // 2, :] = 1
    rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
    k = cv2.warpAffine(k, rot, (length, length))
    shot.photo = cv2.filter2D(shot.photo, -1, k / k.sum())
    return shot


def _scan150(paper, rng):
    """A flat scan at 150 dpi: white bed, slight skew, no perspective."""
    k = 150 / 25.4 / PX_PER_MM
    small = cv2.resize(paper, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    h, w = small.shape[:2]
    pad = 40
    bed = np.full((h + 2 * pad, w + 2 * pad, 3), 250, np.uint8)
    bed[pad : pad + h, pad : pad + w] = small
    rot = cv2.getRotationMatrix2D((bed.shape[1] / 2, bed.shape[0] / 2), rng.uniform(-2, 2), 1)
    bed = cv2.warpAffine(bed, rot, (bed.shape[1], bed.shape[0]), borderValue=(250, 250, 250))
    corners = np.array([[pad, pad], [pad + w, pad], [pad + w, pad + h], [pad, pad + h]], np.float32)
    return Shot(bed, corners)


def _shadow_marker(paper, rng):
    shot = _shoot(paper, rng, _fx())
    x, y, side = _marker_centre(shot.corners, int(rng.integers(4)))
    h, w = shot.photo.shape[:2]
    shade = np.zeros((h, w), np.float32)
    cv2.circle(shade, (x, y), int(side * 0.18), 1.0, -1)
    shade = cv2.GaussianBlur(shade, (0, 0), side * 0.03 + 1)
    factor = 1 - rng.uniform(0.55, 0.7) * shade
    shot.photo = (shot.photo.astype(np.float32) * factor[..., None]).astype(np.uint8)
    return shot


def _finger(paper, rng):
    return _finger_on(paper, rng, 1)


def _finger_on(paper, rng, fingers: int, shot: Shot | None = None) -> Shot:
    shot = shot or _shoot(paper, rng, _fx())
    for which in rng.permutation(4)[:fingers]:
        _one_finger(shot, int(which), rng)
    return shot


def _combined(paper, rng):
    """Wooden table, strong tilt, warm light, a finger on a marker, slight shake."""
    bg = _wood((1600, 1200), rng)
    shot = _shoot(paper, rng, _fx(max_tilt_deg=40.0, min_tilt_deg=30.0, fill=(0.55, 0.8)), bg)
    shot = _finger_on(paper, rng, 1, shot)
    gains = np.array([0.8, 0.95, 1.1], np.float32)
    shot.photo = np.clip(shot.photo.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    shot.photo = cv2.GaussianBlur(shot.photo, (0, 0), 0.8)
    return shot


def _skin(rng) -> tuple[int, int, int]:
    """A fair skin's colour (BGR), as fingers on the page show it."""
    return int(rng.uniform(120, 160)), int(rng.uniform(150, 180)), int(rng.uniform(200, 230))


def _one_finger(shot: Shot, which: int, rng) -> None:
    x, y, side = _marker_centre(shot.corners, which)
    c = np.asarray(shot.corners)
    out = c[which] - (c.mean(0) - c[which]) * 0.3  # the finger comes from outside the page
    skin = _skin(rng)
    width = int(side * 0.09)
    cv2.line(shot.photo, (int(out[0]), int(out[1])), (x, y), skin, width)
    cv2.circle(shot.photo, (x, y), width // 2 + 4, skin, -1)


def _thumb(paper, rng):
    """The bulletin held up by its right edge: a thumb over the page, its tip across the
    number boxes' right end (a digit hidden under it must not leave a shorter number
    read surely)."""
    shot = _shoot(paper, rng, _fx())
    c = np.asarray(shot.corners, np.float32)
    v = rng.uniform(0.12, 0.6)  # the table, the reference or the score's height
    edge = (1 - v) * c[1] + v * c[2]
    inward = (1 - v) * c[0] + v * c[3] - edge
    width = float(np.linalg.norm(c[1] - c[0]))
    tip = edge + inward * rng.uniform(0.06, 0.14)
    out = edge - inward * 0.25
    skin = _skin(rng)
    thick = int(width * rng.uniform(0.07, 0.1))
    cv2.line(shot.photo, (int(out[0]), int(out[1])), (int(tip[0]), int(tip[1])), skin, thick)
    cv2.circle(shot.photo, (int(tip[0]), int(tip[1])), thick // 2, skin, -1)
    return shot


def _pen_across(paper, rng):
    """A black or dark pen (or a dark sleeve) lying across the page over the number boxes,
    as the arbiter left it: no colour to tell it from the paper, only its darkness. Its
    body crosses one box's middle at any angle; a glossy streak runs along it."""
    shot = _shoot(paper, rng, _fx())
    c = np.asarray(shot.corners, np.float32)
    layout = Layout.load()
    x, y, bw, bh = layout.field_box(("table", "ref", "score")[int(rng.integers(3))])
    u, v = rng.uniform(x, x + bw), y + bh / 2  # page fractions, across the box's middle
    point = (1 - v) * ((1 - u) * c[0] + u * c[1]) + v * ((1 - u) * c[3] + u * c[2])
    width = float(np.linalg.norm(c[1] - c[0]))
    angle = rng.uniform(0, math.pi)
    half = np.array([math.cos(angle), math.sin(angle)], np.float32) * width * 0.4
    a, b = point - half, point + half
    thick = int(width * rng.uniform(0.06, 0.1))
    body = int(rng.uniform(15, 70))
    tint = int(rng.integers(0, 25)) if rng.random() < 0.5 else 0
    colour = (body + tint, body, body)  # black or dark grey, sometimes a little blue
    cv2.line(shot.photo, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), colour, thick)
    shine = min(body + 60, 255)
    side = np.array([-half[1], half[0]]) / max(float(np.linalg.norm(half)), 1.0) * thick * 0.2
    cv2.line(shot.photo, (int(a[0] + side[0]), int(a[1] + side[1])),
             (int(b[0] + side[0]), int(b[1] + side[1])), (shine,) * 3, max(thick // 8, 1))
    return shot


def _rot90(paper, rng):
    shot = _shoot(paper, rng, _fx())
    shot.photo = np.ascontiguousarray(np.rot90(shot.photo, 1 if rng.random() < 0.5 else -1))
    return shot


def _glare(paper, rng):
    """A ceiling light's reflection on the page: a bright, soft-edged patch where the ink
    fades (partly erased strokes are what can turn an 8 into a 3)."""
    shot = _shoot(paper, rng, _fx())
    c = np.asarray(shot.corners, np.float32)
    u, v = rng.uniform(0.1, 0.95), rng.uniform(0.1, 0.6)  # over the fields, mostly
    x, y = (1 - v) * ((1 - u) * c[0] + u * c[1]) + v * ((1 - u) * c[3] + u * c[2])
    side = float(np.linalg.norm(c[1] - c[0]))
    axes = (int(side * rng.uniform(0.08, 0.2)), int(side * rng.uniform(0.05, 0.12)))
    patch = np.zeros(shot.photo.shape[:2], np.float32)
    cv2.ellipse(patch, (int(x), int(y)), axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    patch = cv2.GaussianBlur(patch, (0, 0), max(axes) * 0.4 + 1)
    patch *= rng.uniform(0.45, 0.85) / max(float(patch.max()), 1e-6)
    photo = shot.photo.astype(np.float32)
    shot.photo = np.clip(photo + (255 - photo) * patch[..., None], 0, 255).astype(np.uint8)
    return shot


def _plain(paper, rng):
    return _shoot(paper, rng, _fx())


def _stacked(paper, rng, under):
    """The bulletin photographed on its stack: the next one, another player's, shows past
    its edges (its markers, its table box), turned and shifted a little."""
    photo, corners = photograph(paper, rng, _fx(fill=(0.45, 0.7)), under=under)
    return Shot(photo, corners)


def _dim(paper, rng):
    """A dim room: the phone raises its gain (noise), then smooths it (its noise reduction)."""
    shot = _shoot(paper, rng, _fx(light=(0.22, 0.4), noise=(5.0, 10.0)))
    if rng.random() < 0.5:
        shot.photo = cv2.GaussianBlur(shot.photo, (0, 0), 0.7)
    return shot


def _curled(paper, rng):
    return _shoot(paper, rng, _fx(curl=float(rng.uniform(0.03, 0.07))))


def _pencil_dim_curled(paper, rng):
    return _shoot(paper, rng, _fx(curl=float(rng.uniform(0.02, 0.05)), light=(0.3, 0.5),
                                  noise=(4.0, 8.0)))


@dataclass(frozen=True)
class Condition:
    """A photo recipe, and what changes in the held-out writer's hand: the pen (``pen``:
    bille / feutre), the ink laid (names of ``synth.INKS``, one drawn per bulletin), the
    letters' width, how the numbers are placed."""

    recipe: Callable
    pen: str | None = None
    inks: tuple[str, ...] = ()
    wide: bool = False
    free_numbers: float = 0.0
    #: tables (and scores) of 100–199, their leading 1 written on the box's left edge
    one_on_edge: float = 0.0
    #: the recipe also gets the page beneath: the same move, another table, another hand
    stacked: bool = False


CONDITIONS: dict[str, Condition] = {
    "table_bois": Condition(_table),
    "perspective_forte": Condition(_perspective),
    "bille_fine": Condition(_plain, "bille"),
    "feutre_epais": Condition(_plain, "feutre"),
    "feutre_qui_bave": Condition(_plain, "feutre", ("feutre",)),
    "balance_blancs": Condition(_white_balance),
    "bouge": Condition(_motion),
    "reflet": Condition(_glare),
    "scan_150dpi": Condition(_scan150),
    "ombre_marqueur": Condition(_shadow_marker),
    "doigt_marqueur": Condition(_finger),
    "pouce_sur_les_cases": Condition(_thumb),
    "stylo_sur_les_cases": Condition(_pen_across),
    "rotation_90": Condition(_rot90),
    "deux_doigts": Condition(lambda p, r: _finger_on(p, r, 2)),
    "cumul": Condition(lambda p, r: _combined(p, r), "bille"),
    "sans_marqueurs": Condition(_plain),
    "sans_marqueurs_table": Condition(_table),
    "crayon": Condition(_plain, None, ("crayon",)),
    "crayon_dur": Condition(_plain, None, ("crayon_dur",)),
    "encre_violette": Condition(_plain, None, ("violet", "violet_clair")),
    "encres_couleur": Condition(_plain, None, ("rouge", "vert", "bleu_clair")),
    "lumiere_faible": Condition(_dim),
    "papier_courbe": Condition(_curled),
    "hors_cases": Condition(_plain, free_numbers=1.0),
    "un_sur_le_bord": Condition(_plain, one_on_edge=1.0),
    "crayon_sur_le_bord": Condition(_plain, None, ("crayon", "crayon_dur"), one_on_edge=1.0),
    "violet_sur_le_bord": Condition(_plain, None, ("violet", "violet_clair"), one_on_edge=1.0),
    "lettres_larges": Condition(_plain, wide=True),
    "pile": Condition(_stacked, stacked=True),
    "crayon_sombre_courbe": Condition(_pencil_dim_curled, None, ("crayon",)),
}

#: conditions photographing a bulletin model without markers (read by its page contour)
MARKERLESS = ("sans_marqueurs", "sans_marqueurs_table")


def markerless_layout() -> Layout:
    """The shipped layout without its ArUco markers (like the federation's printed bulletins)."""
    base = Layout.load()
    data = copy.deepcopy(base.data)
    data["markers"]["items"] = []
    return Layout(base.name + "_sans_marqueurs", data)


def _pen(style, pen: str | None, rng: np.random.Generator):
    if pen is None:
        return style
    if pen == "bille":
        ink = (150, 40, 10) if rng.random() < 0.5 else (35, 30, 30)  # blue or black ballpoint
        return replace(style, pen=(0.03, 0.045), ink=ink)
    return replace(style, pen=(0.16, 0.2))  # thick felt pen


def stress_photo(
    condition: str,
    content,
    style: str,
    seed: int,
    size: tuple[int, int] | None = None,
    printed: tuple[int, int | None] | None = None,
) -> np.ndarray | bytes:
    """One photo of ``content`` under ``condition`` (deterministic per seed); ``size``: the
    camera's frame (e.g. 4000×3000, a 12-megapixel phone), the page filling it as usual;
    ``printed``: (table, coup) of a personalised bulletin."""
    cond = CONDITIONS[condition]
    rng = np.random.default_rng([seed, 991])
    st = _pen(STYLES[style], cond.pen, rng)
    if cond.wide:
        st = wide_letters(st)
    ink = INKS[cond.inks[int(rng.integers(len(cond.inks)))]] if cond.inks else None
    mistakes = (Mistakes(free_numbers=cond.free_numbers, one_on_edge=cond.one_on_edge)
                if cond.free_numbers or cond.one_on_edge else None)
    layout = markerless_layout() if condition in MARKERLESS else None
    paper, _ = write_bulletin(
        content, st, rng, layout=layout, mistakes=mistakes, ink=ink, printed=printed
    )
    if cond.stacked:
        other = TEST_STYLES[int(rng.integers(len(TEST_STYLES)))].name
        table = ((content.table or 0) + int(rng.integers(1, 199)) - 1) % 200 + 1  # another one
        under, _ = write_bulletin(replace(content, table=table), STYLES[other], rng, layout=layout)
        photo = cond.recipe(paper, rng, under).photo
    else:
        photo = cond.recipe(paper, rng).photo
    if size is not None:
        photo = _reframe(photo, size)
    return photo


def _reframe(photo: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The same shot taken by a camera of another resolution (long side to long side)."""
    h, w = photo.shape[:2]
    big, small = max(size), min(size)
    target = (big, small) if w >= h else (small, big)
    k = target[0] / w
    out = cv2.resize(photo, (target[0], round(h * k)), interpolation=cv2.INTER_CUBIC)
    canvas = np.full((target[1], target[0], 3), 128, np.uint8)
    hh = min(out.shape[0], target[1])
    canvas[:hh] = out[:hh]
    # a sensor's own noise at full resolution, and the phone's JPEG
    noise = np.random.default_rng(h * w).normal(0, 2.0, canvas.shape[:2]).astype(np.float32)
    canvas = cv2.add(canvas.astype(np.float32), cv2.merge([noise] * 3))
    ok, buf = cv2.imencode(".jpg", np.clip(canvas, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, 88])
    return buf.tobytes()


def run(
    n: int,
    only: list[str] | None = None,
    seed: int = 11,
    verbose: bool = False,
    size: tuple[int, int] | None = None,
    personal: bool = False,
    clock=time.perf_counter,
) -> dict:
    """Read ``n`` bulletins under each condition; ``personal``: personalised bulletins (the
    table printed and in a code; the player writes it in the box one time in three)."""
    from .bench import TABLES, _got, _truth, field_confidences, make_cases, personalised
    from .reader import read_bulletin

    cases = make_cases(n, seed)
    report = {}
    for name in only or list(CONDITIONS):
        right = flagged_wrong = silent = failed = shown = coded = 0
        times = []
        for k, case in enumerate(cases):
            if CONDITIONS[name].one_on_edge:  # numbers that start with a 1
                case = replace(case, content=replace(case.content, table=100 + case.content.table % 100))
            if personal and name not in MARKERLESS:
                case = personalised(case, k)
            content, printed = case.content, case.printed
            coup = printed[1] if printed else None
            photo = stress_photo(name, content, case.style, case.seed, size, printed)
            layout = markerless_layout() if name in MARKERLESS else None
            t = clock()
            r = read_bulletin(photo, case.candidates, case.board, tables=TABLES, layout=layout,
                              coup=coup)
            times.append(clock() - t)
            coded += r.printed is not None
            truth, got = _truth(case.content, case.printed), _got(r)
            shown += r.status != "ok"
            wrong = [f for f in truth if truth[f] != got[f]]
            if r.status == VIERGE:  # a written bulletin called blank: the correction gives 0
                silent += 1
            elif r.status not in ("ok", "a_verifier"):
                failed += 1
            elif not wrong:
                right += 1
            elif all(f in r.flagged for f in wrong):
                flagged_wrong += 1
            else:
                silent += 1
            if verbose and (wrong or r.status not in ("ok", "a_verifier")):
                conf = field_confidences(r)  # how near the threshold a field read wrong was
                print(f"  {name} seed={case.seed} {case.style} status={r.status} {r.message} "
                      f"wrong={wrong} flagged={r.flagged} "
                      + " ".join(f"{f}:{truth[f]}→{got[f]} ({conf[f][0]:.3f})" for f in wrong))
        report[name] = {
            "right": right,
            "flagged_wrong": flagged_wrong,
            "failure_status": failed,
            "silent": silent,
            "flagged_share": round(shown / max(len(cases), 1), 3),
            "median_ms": round(1000 * statistics.median(times), 1) if times else 0.0,
            "p95_ms": round(1000 * float(np.percentile(times, 95)), 1) if times else 0.0,
            "code_read": coded,
        }
        row = report[name]
        print(f"{name:20s} juste {row['right']:3d}  faux signalé {row['flagged_wrong']:3d}  "
              f"statut d'échec {row['failure_status']:3d}  SILENCIEUX {row['silent']:3d}  "
              f"signalés {row['flagged_share']:.0%}  "
              + (f"code lu {coded}/{len(cases)}  " if personal else "")
              + f"(lecture {row['median_ms']:.0f} ms médiane, p95 {row['p95_ms']:.0f})",
              flush=True)
    return report


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.lower().partition("x")
    return int(w), int(h)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Conditions de prise de vue inhabituelles.")
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--taille", type=_size, help="définition des photos, ex. 4000x3000 (12 Mpx)")
    parser.add_argument("--un-coeur", action="store_true",
                        help="lecture sur un seul cœur, temps processeur mesuré")
    parser.add_argument("--personnalises", action="store_true",
                        help="bulletins personnalisés (numéro de table imprimé et codé)")
    args = parser.parse_args(argv)
    if args.only:
        unknown = [c for c in args.only if c not in CONDITIONS]
        if unknown:
            print(f"condition inconnue : {', '.join(unknown)} (au choix : {', '.join(CONDITIONS)})")
            return 2
    if args.un_coeur:
        one_core()
    report = run(args.n, args.only, args.seed, args.verbose, args.taille, args.personnalises,
                 time.process_time if args.un_coeur else time.perf_counter)
    return 1 if any(r["silent"] for r in report.values()) else 0


def one_core() -> None:
    """Run this process (and OpenCV) on a single CPU core, as a small kiosk machine would."""
    import os

    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    cv2.setNumThreads(1)


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))


__all__ = ["CONDITIONS", "TEST_STYLES", "run", "stress_photo"]
