"""Render the printable bulletin (PNG at 300 dpi, PDF) from its layout file.

Text is drawn with Pillow and DejaVu (accents); markers with ``cv2.aruco``.
Grid lines are mid-grey so that the reader can remove them without eating
the pen strokes that cross them.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .layout import Layout, to_px

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
LINE_GREY = 110
ARBITER_GREY = 215
A4_MM = (210.0, 297.0)
FORMATS_MM = {"A6": (148.0, 105.0), "A5": (210.0, 148.0)}


def _font(size_px: int, bold: bool = False) -> ImageFont.ImageFont:
    name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
    try:
        return ImageFont.truetype(str(FONT_DIR / name), max(size_px, 6))
    except OSError:
        return ImageFont.load_default()


def aruco_dictionary(name: str = "DICT_4X4_50") -> cv2.aruco.Dictionary:
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, name))


def render_page(
    layout: Layout,
    px_per_mm: float = 300 / 25.4,
    table: int | None = None,
    coup: int | None = None,
) -> np.ndarray:
    """The bulletin as a grey-level image (white paper), size from the layout in mm: blank,
    or personalised for ``table`` (and ``coup``) — the number printed and in a code."""
    page = _blank(layout, px_per_mm)
    if table is None:
        return page.copy()
    from .tablecode import draw_code

    page = page.copy()
    texts = draw_code(page, layout, px_per_mm, table, coup)
    pil = Image.fromarray(page)
    draw = ImageDraw.Draw(pil)
    for text, (x, y), height, bold in texts:
        draw.text((x, y), text, fill=20, font=_font(round(height), bold))
    return np.asarray(pil).copy()


_BLANKS: dict[tuple[str, float], np.ndarray] = {}


def _blank(layout: Layout, px_per_mm: float) -> np.ndarray:
    key = (json.dumps(layout.data, sort_keys=True), round(px_per_mm, 6))
    if key not in _BLANKS:
        if len(_BLANKS) > 8:
            _BLANKS.clear()
        _BLANKS[key] = _draw_blank(layout, px_per_mm)
    return _BLANKS[key]


def _draw_blank(layout: Layout, px_per_mm: float) -> np.ndarray:
    size = layout.canonical_size(px_per_mm)
    w, h = size
    img = np.full((h, w), 255, np.uint8)
    line = max(1, round(0.3 * px_per_mm))

    x0, y0, x1, y1 = to_px(layout.data["arbiter"]["box"], size)
    cv2.rectangle(img, (x0, y0), (x1, y1), ARBITER_GREY, -1)

    gx0, gy0, gx1, gy1 = to_px(layout.grid_box, size)
    rows, cols = layout.grid_shape
    for r in range(rows + 1):
        y = round(gy0 + (gy1 - gy0) * r / rows)
        cv2.line(img, (gx0, y), (gx1, y), LINE_GREY, line)
    for c in range(cols + 1):
        x = round(gx0 + (gx1 - gx0) * c / cols)
        cv2.line(img, (x, gy0), (x, gy1), LINE_GREY, line)
    for name in layout.data["fields"]:
        fx0, fy0, fx1, fy1 = to_px(layout.field_box(name), size)
        cv2.rectangle(img, (fx0, fy0), (fx1, fy1), LINE_GREY, line)
        n = layout.field_cells(name)
        for i in range(1, n):
            x = round(fx0 + (fx1 - fx0) * i / n)
            cv2.line(img, (x, fy0), (x, fy1), LINE_GREY, max(1, line // 2))

    dictionary = aruco_dictionary(layout.data["markers"]["dictionary"])
    for m in layout.markers:
        mx0, my0, mx1, my1 = to_px(m["box"], size)
        side = min(mx1 - mx0, my1 - my0)
        img[my0 : my0 + side, mx0 : mx0 + side] = cv2.aruco.generateImageMarker(
            dictionary, int(m["id"]), side
        )

    pil = Image.fromarray(img)
    draw = ImageDraw.Draw(pil)
    for spec in layout.data["fields"].values():
        lx0, ly0, _, ly1 = to_px(spec["label_box"], size)
        draw.text((lx0, ly0), spec["label"], fill=40, font=_font(round((ly1 - ly0) * 0.8), True))
    for spec in layout.data.get("texts", []):
        tx0, ty0, _, _ = to_px(spec["box"], size)
        draw.text(
            (tx0, ty0),
            spec["text"],
            fill=30,
            font=_font(round(spec["size_mm"] * px_per_mm), spec.get("bold", False)),
        )
    ax0, ay0, _, _ = to_px(layout.data["arbiter"]["box"], size)
    draw.text(
        (ax0 + 2 * px_per_mm, ay0 + 1.5 * px_per_mm),
        layout.data["arbiter"]["label"],
        fill=90,
        font=_font(round(2.4 * px_per_mm)),
    )
    code = layout.data["code"]
    cx0, cy0, _, _ = to_px(code["box"], size)
    draw.text(
        (cx0, cy0), code["text"], fill=60, font=_font(round(code["size_mm"] * px_per_mm), True)
    )
    return np.asarray(pil)


def render_format(
    layout: Layout, fmt: str, dpi: int = 300, table: int | None = None, coup: int | None = None
) -> np.ndarray:
    """The bulletin on a paper of format ``fmt`` (A6 or A5), scaled and centred."""
    paper_w, paper_h = FORMATS_MM[fmt]
    lw, lh = layout.page_mm
    scale = min(paper_w / lw, paper_h / lh)
    px_per_mm = dpi / 25.4
    page = render_page(layout, px_per_mm * scale, table, coup)
    out = np.full((round(paper_h * px_per_mm), round(paper_w * px_per_mm)), 255, np.uint8)
    oy, ox = (out.shape[0] - page.shape[0]) // 2, (out.shape[1] - page.shape[1]) // 2
    ph, pw = min(page.shape[0], out.shape[0]), min(page.shape[1], out.shape[1])
    out[max(oy, 0) : max(oy, 0) + ph, max(ox, 0) : max(ox, 0) + pw] = page[:ph, :pw]
    return out


#: bulletins per A4 sheet
PER_SHEET = {"A6": 4, "A5": 2}

Slot = tuple[int, int | None] | None  # (table, coup) of a personalised bulletin, None: blank


def render_sheet(
    layout: Layout, fmt: str, dpi: int = 300, bulletins: list[Slot] | None = None
) -> np.ndarray:
    """An A4 sheet holding several bulletins (4 × A6 or 2 × A5) with light cut marks:
    the blank form, or one personalised bulletin per slot (``bulletins``, a ``None`` slot
    stays empty paper)."""
    px_per_mm = dpi / 25.4
    sheet = np.full((round(A4_MM[1] * px_per_mm), round(A4_MM[0] * px_per_mm)), 255, np.uint8)
    if fmt == "A6":
        # portrait A4 = 2 columns of 2 landscape A6 would not fit: 1 column of 2 x 2 rotated
        slots = [(0, 0), (0, 1), (1, 0), (1, 1)]
        ch, cw = sheet.shape[0] // 2, sheet.shape[1] // 2
    else:
        slots = [(0, 0), (1, 0)]
        ch, cw = sheet.shape[0] // 2, sheet.shape[1]
    blank = None
    for k, (r, c) in enumerate(slots):
        if bulletins is None:
            blank = blank if blank is not None else render_format(layout, fmt, dpi)
            one = blank
        elif k < len(bulletins) and bulletins[k] is not None:
            table, coup = bulletins[k]  # type: ignore[misc]
            one = render_format(layout, fmt, dpi, table, coup)
        else:
            continue
        if fmt == "A6":
            one = cv2.rotate(one, cv2.ROTATE_90_CLOCKWISE)
        h, w = min(one.shape[0], ch), min(one.shape[1], cw)
        y, x = r * ch + (ch - h) // 2, c * cw + (cw - w) // 2
        sheet[y : y + h, x : x + w] = one[:h, :w]
    for y in range(ch, sheet.shape[0], ch)[:1]:
        sheet[y, ::12] = 150
    if fmt == "A6":
        sheet[::12, cw] = 150
    return sheet


def export_assets(out_dir: str | Path, layout: Layout | None = None, dpi: int = 300) -> list[Path]:
    """Write ``bulletin_A6.png/.pdf``, ``bulletin_A5.png/.pdf`` and the A4 sheets."""
    layout = layout or Layout.load()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for fmt in FORMATS_MM:
        single = Image.fromarray(render_format(layout, fmt, dpi))
        sheet = Image.fromarray(render_sheet(layout, fmt, dpi))
        for image, stem in ((single, f"bulletin_{fmt}"), (sheet, f"bulletin_{fmt}_planche_A4")):
            png, pdf = out / f"{stem}.png", out / f"{stem}.pdf"
            image.save(png, dpi=(dpi, dpi), optimize=True)
            image.convert("L").save(pdf, resolution=float(dpi))
            written += [png, pdf]
    return written


def pad_slots(
    tables: list[int], coups: list[int] | None, fmt: str, copies: int | None = None
) -> list[list[Slot]]:
    """The A4 sheets of personalised pads, table after table: with ``coups``, one bulletin
    per table and coup, in coup order; else ``copies`` per table (default: one sheet's
    worth). A table's pad starts on a new sheet, so pads are cut apart cleanly."""
    per = PER_SHEET[fmt]
    sheets: list[list[Slot]] = []
    for table in tables:
        if coups:
            items: list[Slot] = [(table, c) for c in coups]
        else:
            items = [(table, None)] * (copies or per)
        for i in range(0, len(items), per):
            sheets.append(items[i : i + per])
    return sheets


def export_pads(
    out_dir: str | Path,
    tables: list[int],
    coups: list[int] | None = None,
    fmt: str = "A6",
    copies: int | None = None,
    layout: Layout | None = None,
    dpi: int = 300,
    progress=None,
) -> Path:
    """One PDF of personalised pads (A4 sheets of A6 or A5 bulletins), e.g.
    ``bulletins_tables_1-120_A6.pdf``; ``progress(done, total)`` is told of each sheet.

    Why not one image per sheet: 120 tables × 25 coups would make 750 sheets of about
    0.5 MB each (a 400 MB file no club printer takes). The blank form is embedded once, as
    a lossless image, and placed in every slot; each bulletin adds only the small lossless
    image of what makes it personal (its number and its code), a few kB."""
    from .tablecode import marker_ids

    layout = layout or Layout.load()
    if fmt not in FORMATS_MM:
        raise ValueError(f"format inconnu : {fmt} (A6 ou A5)")
    if not tables:
        raise ValueError("aucune table demandée")
    for t in tables:  # every number checked before any drawing
        for c in coups or [None]:
            marker_ids(t, c)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    name = f"bulletins_tables_{_span(tables)}" + (f"_coups_{_span(coups)}" if coups else "")
    path = out / f"{name}_{fmt}.pdf"
    sheets = pad_slots(tables, coups, fmt, copies)
    pdf = _pads_pdf(layout, fmt, dpi, sheets, progress)
    tmp = path.with_name(path.name + ".tmp")
    pdf.output(str(tmp))
    tmp.replace(path)  # never half a PDF under the final name
    return path


def _slot_placement(fmt: str) -> tuple[list[tuple[int, int]], float, float]:
    """The sheet's slots (row, column) and a slot's height and width in mm."""
    if fmt == "A6":
        return [(0, 0), (0, 1), (1, 0), (1, 1)], A4_MM[1] / 2, A4_MM[0] / 2
    return [(0, 0), (1, 0)], A4_MM[1] / 2, A4_MM[0]


def _oriented(image: np.ndarray, fmt: str) -> np.ndarray:
    return cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE) if fmt == "A6" else image


def _pads_pdf(layout: Layout, fmt: str, dpi: int, sheets: list[list[Slot]], progress=None):
    """The fpdf2 document of :func:`export_pads` (see there why it is built this way)."""
    from fpdf import FPDF

    mm_per_px = 25.4 / dpi
    blank = _oriented(render_format(layout, fmt, dpi), fmt)
    blank_image = Image.fromarray(blank)
    bh, bw = blank.shape[0] * mm_per_px, blank.shape[1] * mm_per_px
    slots, ch, cw = _slot_placement(fmt)
    pdf = FPDF(unit="mm", format="A4")
    pdf.set_auto_page_break(False)
    pdf.set_creator("duplicate-kiosk")
    pdf.set_title("Bulletins personnalisés")
    for k, sheet in enumerate(sheets, 1):
        pdf.add_page()
        for (r, c), slot in zip(slots, sheet, strict=False):
            if slot is None:
                continue
            x, y = c * cw + (cw - bw) / 2, r * ch + (ch - bh) / 2
            pdf.image(blank_image, x=x, y=y, w=bw, h=bh)  # the same image object: embedded once
            table, coup = slot
            mine = _oriented(render_format(layout, fmt, dpi, table, coup), fmt)
            rows, cols = np.nonzero(mine != blank)
            if rows.size:
                y0, y1, x0, x1 = rows.min(), rows.max() + 1, cols.min(), cols.max() + 1
                pdf.image(Image.fromarray(mine[y0:y1, x0:x1]), x=x + x0 * mm_per_px,
                          y=y + y0 * mm_per_px, w=(x1 - x0) * mm_per_px, h=(y1 - y0) * mm_per_px)
        _cut_marks(pdf, fmt, ch, cw)
        if progress:
            progress(k, len(sheets))
    return pdf


def _cut_marks(pdf, fmt: str, ch: float, cw: float) -> None:
    """Light dashed lines where the sheet is cut into bulletins."""
    pdf.set_draw_color(150)
    pdf.set_line_width(0.2)
    pdf.set_dash_pattern(dash=1, gap=1)
    pdf.line(0, ch, A4_MM[0], ch)
    if fmt == "A6":
        pdf.line(cw, 0, cw, A4_MM[1])
    pdf.set_dash_pattern()


def _span(numbers: list[int]) -> str:
    a, b = min(numbers), max(numbers)
    return str(a) if a == b else f"{a}-{b}"
