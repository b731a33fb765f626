"""A small softmax MLP in numpy for glyphs, with temperature scaling for honest probabilities.

cv2.ml's SVM gives no class probabilities; a one-hidden-layer network whose
softmax is calibrated on held-out data (temperature scaling) does, loads
instantly and weighs a few hundred kB.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np


@dataclass
class MLP:
    classes: list[str]
    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray
    temperature: float = 1.0

    def logits(self, x: np.ndarray) -> np.ndarray:
        z = (np.atleast_2d(x) - self.mean) / self.std
        h = np.maximum(z @ self.w1 + self.b1, 0)
        return h @ self.w2 + self.b2

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        return _softmax(self.logits(x) / self.temperature)

    def save(self, path: str | Path) -> None:
        np.savez_compressed(
            path,
            classes=np.array(self.classes),
            mean=self.mean,
            std=self.std,
            w1=self.w1.astype(np.float32),
            b1=self.b1,
            w2=self.w2.astype(np.float32),
            b2=self.b2,
            temperature=np.array(self.temperature),
        )

    @classmethod
    def load(cls, path: str | Path) -> MLP:
        d = np.load(path, allow_pickle=False)
        return cls(
            [str(c) for c in d["classes"]],
            d["mean"],
            d["std"],
            d["w1"],
            d["b1"],
            d["w2"],
            d["b2"],
            float(d["temperature"]),
        )


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def fit_temperature(logits: np.ndarray, y: np.ndarray) -> float:
    """The temperature minimising the validation negative log-likelihood (grid search)."""
    best, best_t = np.inf, 1.0
    for t in np.exp(np.linspace(np.log(0.3), np.log(5), 60)):
        p = _softmax(logits / t)
        nll = -np.mean(np.log(p[np.arange(len(y)), y] + 1e-12))
        if nll < best:
            best, best_t = nll, float(t)
    return best_t


def train_mlp(
    x: np.ndarray,
    y: np.ndarray,
    classes: list[str],
    hidden: int = 160,
    epochs: int = 40,
    lr: float = 2e-3,
    l2: float = 1e-4,
    seed: int = 0,
    val_share: float = 0.15,
    weights: np.ndarray | None = None,
    log=None,
) -> MLP:
    """Adam on cross-entropy; the last ``val_share`` (shuffled) calibrates the temperature."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(x))
    x, y = x[order], y[order]
    sw = np.ones(len(x), np.float32) if weights is None else weights[order].astype(np.float32)
    n_val = max(1, int(len(x) * val_share)) if len(x) > 20 else 0
    xv, yv = x[:n_val], y[:n_val]
    xt, yt, st = x[n_val:], y[n_val:], sw[n_val:]
    mean = xt.mean(0)
    std = xt.std(0) + 1e-3
    zt = (xt - mean) / std
    d, k = x.shape[1], len(classes)
    w1 = rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32)
    b1 = np.zeros(hidden, np.float32)
    w2 = rng.normal(0, np.sqrt(1 / hidden), (hidden, k)).astype(np.float32)
    b2 = np.zeros(k, np.float32)
    params = [w1, b1, w2, b2]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    batch = 128
    for epoch in range(epochs):
        perm = rng.permutation(len(zt))
        rate = lr * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))
        for i in range(0, len(perm), batch):
            idx = perm[i : i + batch]
            xb = zt[idx] + rng.normal(0, 0.05, (len(idx), d)).astype(np.float32)
            yb, wb = yt[idx], st[idx]
            h_pre = xb @ w1 + b1
            h = np.maximum(h_pre, 0)
            p = _softmax(h @ w2 + b2)
            g = p
            g[np.arange(len(idx)), yb] -= 1
            g *= (wb / wb.sum())[:, None]
            gw2 = h.T @ g + l2 * w2
            gb2 = g.sum(0)
            gh = (g @ w2.T) * (h_pre > 0)
            gw1 = xb.T @ gh + l2 * w1
            gb1 = gh.sum(0)
            step += 1
            for j, (param, grad) in enumerate(zip(params, (gw1, gb1, gw2, gb2), strict=True)):
                m[j] = 0.9 * m[j] + 0.1 * grad
                v[j] = 0.999 * v[j] + 0.001 * grad * grad
                mh = m[j] / (1 - 0.9**step)
                vh = v[j] / (1 - 0.999**step)
                param -= rate * mh / (np.sqrt(vh) + 1e-8)
        if log and (epoch % 10 == 9 or epoch == epochs - 1):
            model = MLP(classes, mean, std, w1, b1, w2, b2)
            acc = float((model.logits(xv).argmax(1) == yv).mean()) if n_val else float("nan")
            log(f"époque {epoch + 1}/{epochs} : exactitude en validation {acc:.3f}")
    model = MLP(classes, mean.astype(np.float32), std.astype(np.float32), w1, b1, w2, b2)
    if n_val:
        model.temperature = fit_temperature(model.logits(xv), yv)
    return model
