"""Number boxes hidden by something lying on the page (a thumb holding the bulletin up, a
pen, a sticky note): a digit under it cannot be read, so the photo is to be taken again.

What hides a box is wider than any pen stroke, so the local paper light
(:func:`vision.fields.paper_light`, strokes and rules closed away) keeps it, and it is
rarely the paper's colour: its chromaticity stands apart from the page's (a thumb's skin
by 0.06 to 0.10, while shadows, reflections and a warm or cold light leave the paper light
within 0.04 of it in every number box of the stress conditions). What has no colour (a
black pen, a dark sleeve) is told by its darkness and its edge instead: under 0.45 of the
page's light, and bounded by a step (its light falls by 0.05 to 0.06 of the page's per
pixel), where a shadow as dark fades over its blur (0.013 at most: a shadow cast on a
marker by the phone, reaching the table box at 0.33 of the page's light). Only ink blotted
wider than the closing (a felt pen's 8, its loops filled) is as coloured or as dark; it
stays inside its box, while what lies on the page comes in across the box's edge."""

from __future__ import annotations

import cv2
import numpy as np

from .ink import paper_light
from .layout import Layout, to_px

#: chromaticity (share of each channel in the sum) this far from the page's median: not paper
OFF_PAPER = 0.04
#: paper light under this share of the page's median light (its grey): something dark lies there
DARK_SHARE = 0.45
#: … with an edge where the light falls this much (share of the page's) per pixel: an object's
STEEP_EDGE = 0.03
#: a box is hidden when this much of it (in cells' areas) is not paper; a thumb's tip barely
#: entering a box covers 0.05–0.15 of a cell, and those are flagged by the reading itself
HIDDEN_CELLS = 0.25
#: … and reaches this much (in cells' areas) out of the box
OUTSIDE_CELLS = 0.1
#: the number boxes, and how the arbiter calls them
BOXES = {"table": "la table", "ref": "la référence", "score": "les points"}


def covered_boxes(page: np.ndarray, layout: Layout) -> list[str]:
    """The number boxes of the rectified page (BGR, canonical size) hidden in part by
    something that is not paper: off the paper's colour, or far darker than it. A grey
    page (no colour) tells nothing: none."""
    if page.ndim != 3:
        return []
    h, w = page.shape[:2]
    # the page is mostly paper: its median colour and light are the paper's
    sample = page[::8, ::8].astype(np.float32)
    median = np.median(_chroma(sample).reshape(-1, 3), axis=0)
    grey = float(np.median(sample.sum(axis=2)))
    boxes = {name: to_px(layout.field_box(name), (w, h)) for name in BOXES}
    margin = max(w // 40, 8)  # room for the closing that takes the strokes away
    left = max(min(b[0] for b in boxes.values()) - margin, 0)
    top = max(min(b[1] for b in boxes.values()) - margin, 0)
    right = min(max(b[2] for b in boxes.values()) + margin, w)
    bottom = min(max(b[3] for b in boxes.values()) + margin, h)
    light = paper_light(page[top:bottom, left:right])
    off = ((np.abs(_chroma(light) - median).max(axis=2) > OFF_PAPER)
           | _dark_objects(light.sum(axis=2) / max(grey, 1.0))).astype(np.uint8)
    count, labels = cv2.connectedComponents(off, connectivity=8)
    sizes = np.bincount(labels.ravel(), minlength=count)
    hidden = []
    for name, (x0, y0, x1, y1) in boxes.items():
        cx0, cy0, cx1, cy1 = to_px(layout.comb_cells(name)[0], (w, h))
        cell = max((cx1 - cx0) * (cy1 - cy0), 1)
        inside = np.bincount(labels[y0 - top:y1 - top, x0 - left:x1 - left].ravel(), minlength=count)
        if any(inside[k] >= HIDDEN_CELLS * cell and sizes[k] - inside[k] >= OUTSIDE_CELLS * cell
               for k in range(1, count)):
            hidden.append(name)
    return hidden


def _dark_objects(light: np.ndarray) -> np.ndarray:
    """Where ``light`` (paper light, as a share of the page's) is dark behind a steep edge:
    something lying on the page, not a shadow, whose edge is blurred."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(
        (light < DARK_SHARE).astype(np.uint8), connectivity=8)
    out = np.zeros(light.shape, bool)
    if count < 2:
        return out
    gx = cv2.Sobel(light, cv2.CV_32F, 1, 0, ksize=3) / 8  # per pixel
    gy = cv2.Sobel(light, cv2.CV_32F, 0, 1, ksize=3) / 8
    slope = np.hypot(gx, gy)
    h, w = light.shape
    pad = 4  # the ring round each dark patch where its edge is measured
    ring = np.ones((2 * pad + 1, 2 * pad + 1), np.uint8)
    for k in range(1, count):
        x, y, bw, bh = (int(v) for v in stats[k, :4])
        x0, y0, x1, y1 = max(x - pad, 0), max(y - pad, 0), min(x + bw + pad, w), min(y + bh + pad, h)
        dark = (labels[y0:y1, x0:x1] == k).astype(np.uint8)
        if float(slope[y0:y1, x0:x1][cv2.dilate(dark, ring) > 0].max()) >= STEEP_EDGE:
            out[y0:y1, x0:x1] |= dark > 0
    return out


def _chroma(light: np.ndarray) -> np.ndarray:
    """Each pixel's share of light in each channel (its colour, whatever its brightness)."""
    return light / (light.sum(axis=2, keepdims=True) + 1.0)
