"""What changes turn by turn besides counters: highlights, markers and arrows."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from engine.core.hexes import Hex
from engine.core.protocol import ArrowView, HighlightView, MarkerView
from render.geometry import Box, Layout, Point, overlap
from render.sprites import PIECES, drawn_around, mark
from render.style import (
    ARROWS,
    HIGHLIGHTS,
    INK,
    OTHER_ARROW,
    OTHER_HIGHLIGHT,
    RGB,
    ZOC,
    charge_colour,
    fit_font,
    font,
    shade,
    text_on,
)

MARKERS: dict[str, RGB] = {
    "chit": (226, 178, 40),
    "charge": (48, 44, 44),
    "clear": (222, 244, 222),
    "obstructed": (150, 140, 120),
    "tower": (206, 200, 186),
    "impact": (250, 150, 30),
    "god": (112, 52, 160),
}
OTHER_MARKER: RGB = (236, 236, 236)
MARKER_NAMES: dict[str, str] = {
    "charge": "Charge placed",
    "charges": "Charges carried",
    "cache": "Charge cache",
    "chit-carried": "Chit carried",
    "obpas": "Obstructed passable",
}
"""Legend names of marker kinds whose own name says too little."""
TAG_FONT = 8
"""The smallest text of a marker: a text that does not fit its disc at this size goes on a tag."""


def marker_name(kind: str) -> str:
    """The legend name of a marker kind: one name per kind, capitalised."""
    name = MARKER_NAMES.get(kind) or kind.replace("_", " ").replace("-", " ").strip()
    return name[:1].upper() + name[1:] if name else "Marker"


def highlight_style(kind: str) -> tuple[RGB, int, str]:
    """(outline colour, fill alpha, outline style) of a highlight kind (each charge of a preview its own colour)."""
    charge = charge_colour(kind)
    if charge is not None:
        return charge, 70, "dotted"
    if kind == "zoc":
        return ZOC
    return HIGHLIGHTS.get(kind, OTHER_HIGHLIGHT)


def highlight_inset(size: float) -> float:
    """How far inside the hex edge a highlight's outline runs (px to the middle of the line)."""
    return max(3.0, size * 0.1)


def _place_on_hex(img: Image.Image, lay: Layout, h: Hex, key: tuple, draw) -> None:
    """Paste a picture drawn by ``draw(d, layout, hex)`` on hex ``h``, kept per hex size and the
    fraction of a pixel the hex centre falls at, so it lines up with the hex edges as drawing in
    place does."""
    cx, cy = lay.centre(h)
    ix, iy = math.floor(cx), math.floor(cy)
    fx, fy = cx - ix, cy - iy

    def make():
        return drawn_around(lay.size, lambda d, x, y: draw(d, Layout(lay.size, x, y), Hex(0, 0)), fx, fy)

    PIECES.get(key + (lay.size, fx, fy), make).paste(img, ix, iy)


def place_tint(img: Image.Image, lay: Layout, h: Hex, hv: HighlightView) -> None:
    """``tint_highlight`` from a kept picture."""
    colour, alpha, _ = highlight_style(hv.kind)
    _place_on_hex(img, lay, h, ("tint", colour, alpha), lambda d, ll, hh: tint_highlight(d, ll, hh, hv))


def place_outline(img: Image.Image, lay: Layout, h: Hex, hv: HighlightView, level: int = 0) -> None:
    """``outline_highlight`` from a kept picture."""
    colour, _, style = highlight_style(hv.kind)
    _place_on_hex(
        img,
        lay,
        h,
        ("outline", colour, style, level),
        lambda d, ll, hh: outline_highlight(d, ll, hh, hv, level),
    )


def tint_highlight(d: ImageDraw.ImageDraw, lay: Layout, h: Hex, hv: HighlightView) -> None:
    """Tint a highlighted hex in its kind's colour (drawn before any outline)."""
    colour, alpha, _ = highlight_style(hv.kind)
    d.polygon(lay.corners(h, 1), fill=colour + (alpha,))


def outline_highlight(d: ImageDraw.ImageDraw, lay: Layout, h: Hex, hv: HighlightView, level: int = 0) -> None:
    """Outline a hex just inside its edge in its kind's style; a second highlight of the same hex
    runs further inside."""
    colour, _, style = highlight_style(hv.kind)
    width = max(3, round(lay.size / 9))
    inset = highlight_inset(lay.size) + level * (width + 1)
    pts = lay.corners(h, inset)
    ring = pts + [pts[0]]
    if style == "solid":
        d.line(ring, fill=colour, width=width, joint="curve")
    elif style == "double":
        # Two thin lines: the outer one where a solid outline runs, the other inside it.
        thin = max(3, width - 1)
        d.line(ring, fill=colour, width=thin, joint="curve")
        inner = lay.corners(h, inset + thin + 2)
        d.line(inner + [inner[0]], fill=colour, width=thin, joint="curve")
    elif style == "hatched":
        d.line(ring, fill=colour, width=max(2, width - 1), joint="curve")
        _hatch(d, pts, colour, max(5.0, lay.size / 4))
    elif style == "light-hatch":
        # Thin, faint and the other way from ``hatched``, across the whole hex: the terrain, the
        # counters and any other highlight read through it.
        _hatch(d, lay.corners(h, 1), colour, max(5.0, lay.size / 5), alpha=70, width=1, rising=True)
    elif style == "dotted":
        r = width * 0.62
        for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
            for t in (0.0, 0.25, 0.5, 0.75):
                x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                d.ellipse([x - r, y - r, x + r, y + r], fill=colour)
    else:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
            for t0 in (0.0, 0.4, 0.8):
                t1 = min(1.0, t0 + 0.26) if t0 < 0.8 else 1.0
                a = (x1 + (x2 - x1) * t0, y1 + (y2 - y1) * t0)
                b = (x1 + (x2 - x1) * t1, y1 + (y2 - y1) * t1)
                d.line([a, b], fill=colour, width=width)
            d.ellipse([x1 - width / 2, y1 - width / 2, x1 + width / 2, y1 + width / 2], fill=colour)


def _hatch(
    d: ImageDraw.ImageDraw,
    poly: list[Point],
    colour: RGB,
    step: float,
    alpha: int = 170,
    width: int = 2,
    rising: bool = False,
) -> None:
    """Diagonal lines across a convex polygon, clipped to it (``rising``: lower left to upper right)."""
    k = -1 if rising else 1  # a rising hatch is the falling one of the mirrored polygon, mirrored back
    for (x1, y1), (x2, y2) in _hatch_lines([(k * x, y) for x, y in poly], step):
        d.line([(k * x1, y1), (k * x2, y2)], fill=colour + (alpha,), width=width)


def _hatch_lines(poly: list[Point], step: float) -> list[tuple[Point, Point]]:
    """The lines x + y = c, ``step`` apart, clipped to a convex polygon."""
    n = len(poly)
    out: list[tuple[Point, Point]] = []
    c = min(x + y for x, y in poly) + step / 2
    while c < max(x + y for x, y in poly):
        hits: list[float] = []
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            s1, s2 = x1 + y1 - c, x2 + y2 - c
            if s1 == s2 or s1 * s2 > 0:
                continue
            t = s1 / (s1 - s2)
            hits.append(x1 + (x2 - x1) * t)
        if len(hits) >= 2:
            a, b = min(hits), max(hits)
            out.append(((a, c - a), (b, c - b)))
        c += step
    return out


def _disc(d: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: RGB, edge: RGB, text: str) -> None:
    f = fit_font(text, r * 1.7, max(TAG_FONT, round(r * 0.85)), "condensed", TAG_FONT)
    if text and f.getlength(text) > r * 1.7:
        # Too long for the disc: a tag as wide as the text, so none of it is cut off.
        half = f.getlength(text) / 2 + 3
        hh = max(r * 0.7, f.size * 0.5 + 2)
        box = [x - half, y - hh, x + half, y + hh]
        d.rounded_rectangle(
            [box[0] + 1, box[1] + 2, box[2] + 1, box[3] + 2], radius=round(hh), fill=(0, 0, 0, 80)
        )
        d.rounded_rectangle(box, radius=round(hh), fill=fill, outline=edge, width=1)
        d.text((x, y), text, font=f, fill=text_on(fill), anchor="mm")
        return
    d.ellipse([x - r + 1, y - r + 2, x + r + 1, y + r + 2], fill=(0, 0, 0, 80))
    d.ellipse([x - r, y - r, x + r, y + r], fill=fill, outline=edge, width=max(1, round(r / 7)))
    if text:
        d.text((x, y), text, font=f, fill=text_on(fill), anchor="mm")


def _star(x: float, y: float, r_out: float, r_in: float, points: int, turn: float = -90) -> list[Point]:
    pts = []
    for i in range(points * 2):
        r = r_out if i % 2 == 0 else r_in
        a = math.radians(turn + i * 180 / points)
        pts.append((x + r * math.cos(a), y + r * math.sin(a)))
    return pts


def _tower(d: ImageDraw.ImageDraw, x: float, y: float, r: float, text: str) -> None:
    fill, edge = MARKERS["tower"], (60, 56, 50)
    w, top, bot = r * 0.75, y - r * 0.95, y + r * 0.85
    m = w * 2 / 5
    pts = [(x - w, bot), (x - w, top)]
    for i in range(5):
        xa, xb = x - w + i * m, x - w + (i + 1) * m
        yy = top if i % 2 == 0 else top + m
        pts += [(xa, yy), (xb, yy)]
    pts += [(x + w, top), (x + w, bot)]
    d.polygon([(px + 1, py + 2) for px, py in pts], fill=(0, 0, 0, 80))
    d.polygon(pts, fill=fill, outline=edge, width=max(1, round(r / 8)))
    d.rounded_rectangle(
        [x - w * 0.3, bot - r * 0.55, x + w * 0.3, bot], radius=max(1, round(w * 0.3)), fill=edge
    )
    if text:
        f = fit_font(text, r * 1.4, round(r * 0.6), "condensed")
        d.text((x, y - r * 0.15), text, font=f, fill=INK, anchor="mm")


def place_marker(img: Image.Image, x: float, y: float, r: float, mv: MarkerView) -> None:
    """One marker centred on the pixel nearest (x, y) with radius ``r``, pasted from its sprite."""
    kind, text = mv.kind, mv.text

    def make():
        return drawn_around(r * 1.2 + 2, lambda d, x, y: draw_marker(d, x, y, r, mv))

    PIECES.get(("marker", kind, text, r), make).paste(img, x, y)


def draw_marker(d: ImageDraw.ImageDraw, x: float, y: float, r: float, mv: MarkerView) -> None:
    """One marker centred at (x, y) with radius ``r``; ``chit-carried`` is drawn as a ``chit``."""
    kind, text = marker_kind(mv.kind), mv.text
    if kind == "tower":
        _tower(d, x, y, r, text)
    elif kind == "impact":
        d.polygon(_star(x, y, r * 1.1, r * 0.55, 9), fill=MARKERS["impact"], outline=(190, 30, 20), width=2)
        if text:
            d.text(
                (x, y), text, font=fit_font(text, r * 1.1, round(r * 0.7), "condensed"), fill=INK, anchor="mm"
            )
    elif kind == "god":
        _disc(d, x, y, r, MARKERS["god"], (240, 200, 60), "")
        d.polygon(_star(x, y - (r * 0.2 if text else 0), r * 0.62, r * 0.26, 5), fill=(250, 210, 70))
        if text:
            f = fit_font(text, r * 1.5, round(r * 0.5), "condensed")
            d.text((x, y + r * 0.52), text, font=f, fill=(255, 255, 255), anchor="mm")
    elif kind == "charge":
        _disc(d, x, y, r, MARKERS["charge"], (230, 40, 30), text or "C")
        d.line([(x + r * 0.55, y - r * 0.55), (x + r * 0.95, y - r * 1.0)], fill=(230, 40, 30), width=2)
    elif kind == "clear":
        _disc(d, x, y, r, MARKERS["clear"], (40, 150, 60), text)
        if not text:
            tick = [(x - r * 0.45, y), (x - r * 0.1, y + r * 0.38), (x + r * 0.5, y - r * 0.4)]
            d.line(tick, fill=(40, 150, 60), width=max(2, round(r / 4)), joint="curve")
    elif kind == "obstructed":
        _disc(d, x, y, r, MARKERS["obstructed"], (70, 60, 50), "")
        for k in (-0.4, 0.0, 0.4):
            d.line(
                [(x - r * 0.5 + k * r, y + r * 0.5), (x + r * 0.5 + k * r, y - r * 0.5)],
                fill=(70, 60, 50),
                width=2,
            )
        if text:
            d.text(
                (x, y),
                text,
                font=fit_font(text, r * 1.6, round(r * 0.7), "condensed"),
                fill=INK,
                anchor="mm",
                stroke_width=2,
                stroke_fill=MARKERS["obstructed"],
            )
    else:
        colour = charge_colour(kind) or MARKERS.get(kind, OTHER_MARKER)
        _disc(d, x, y, r, colour, shade(colour, 0.45), text or marker_name(kind)[:1])


def marker_box(x: float, y: float, r: float, mv: MarkerView) -> tuple[float, float, float, float]:
    """The box a marker drawn at (x, y) with radius ``r`` covers: its disc, or the tag as wide as
    its text that a text too long for the disc goes on."""
    kind = marker_kind(mv.kind)
    text = (mv.text or "C") if kind == "charge" else mv.text
    if text and kind not in ("tower", "impact", "god", "obstructed"):
        f = fit_font(text, r * 1.7, max(TAG_FONT, round(r * 0.85)), "condensed", TAG_FONT)
        if f.getlength(text) > r * 1.7:
            half = f.getlength(text) / 2 + 3
            hh = max(r * 0.7, f.size * 0.5 + 2)
            return (x - half, y - hh, x + half + 1, y + hh + 2)
    return (x - r * 1.15, y - r * 1.15, x + r * 1.15, y + r * 1.15)


def marker_kind(kind: str) -> str:
    """The drawn style of a marker kind: a known kind, or a known kind before a dash."""
    base = kind.split("-", 1)[0]
    return kind if kind in MARKERS or base not in MARKERS else base


def draw_arrow(d: ImageDraw.ImageDraw, lay: Layout, src: Hex, dst: Hex, av: ArrowView) -> None:
    """A thick arrow from one hex towards another, its label in a pill halfway."""
    colour = charge_colour(av.kind) or ARROWS.get(av.kind, OTHER_ARROW)
    (x1, y1), (x2, y2) = lay.centre(src), lay.centre(dst)
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    s = lay.size
    a = (x1 + ux * s * 0.5, y1 + uy * s * 0.5)
    tip = (x2 - ux * s * 0.5, y2 - uy * s * 0.5)
    head = s * 0.36
    neck = (tip[0] - ux * head, tip[1] - uy * head)
    width = max(4, round(s / 7))
    nx, ny = -uy, ux
    wing = head * 0.55
    poly = [tip, (neck[0] + nx * wing, neck[1] + ny * wing), (neck[0] - nx * wing, neck[1] - ny * wing)]
    d.line([a, neck], fill=(255, 255, 255, 210), width=width + 4)
    d.polygon(poly, fill=(255, 255, 255, 210), outline=(255, 255, 255, 210), width=3)
    d.line([a, neck], fill=colour, width=width)
    d.polygon(poly, fill=colour)
    xs = [p[0] for p in (a, neck, *poly)]
    ys = [p[1] for p in (a, neck, *poly)]
    if av.label:
        # The label sits beside the shaft, not on it, so short arrows between neighbours stay visible.
        mx, my = (x1 + x2) / 2 + nx * s * 0.55, (y1 + y2) / 2 + ny * s * 0.55
        f = font(round(s * 0.34), "bold")
        tw = f.getlength(av.label)
        pad = 4
        d.rounded_rectangle(
            [mx - tw / 2 - pad, my - f.size * 0.65, mx + tw / 2 + pad, my + f.size * 0.65],
            radius=round(f.size * 0.5),
            fill=(255, 255, 255),
            outline=colour,
            width=2,
        )
        d.text((mx, my), av.label, font=f, fill=colour, anchor="mm")
        tx0, ty0, tx1, ty1 = f.getbbox(av.label, anchor="mm")
        xs += [mx - tw / 2 - pad, mx + tw / 2 + pad, mx + tx0, mx + tx1]
        ys += [my - f.size * 0.65, my + f.size * 0.65, my + ty0, my + ty1]
    # Where the arrow drew, with room for line widths and rounding (a kept canvas is wiped there).
    m = width + 8
    mark((math.floor(min(xs)) - m, math.floor(min(ys)) - m, math.ceil(max(xs)) + m, math.ceil(max(ys)) + m))


def result_labels(
    d: ImageDraw.ImageDraw,
    lay: Layout,
    arrows: list[tuple[Hex, Hex, ArrowView]],
    avoid: list[Box],
    size: int,
    bounds: Box | None = None,
    skip_covering: bool = False,
    keep_clear: list[Box] | None = None,
) -> list[tuple[str, Box]]:
    """One label per combat (attacks on one hex with one label), drawn outside the defender's hex
    where it covers the least of ``avoid`` (counter texts, markers, other labels), with a leader
    line to the hex. With ``skip_covering`` a label that finds no free place is left out (the
    caption names every combat); a place that would cover any of ``keep_clear`` (counter texts)
    is never taken, and when every place would, further ones are tried, then the label is left
    out. Returns each label drawn: its text and box."""
    groups: dict[tuple[Hex, str], list[Hex]] = {}
    kinds: dict[tuple[Hex, str], str] = {}
    for a, b, av in arrows:
        if av.label:
            groups.setdefault((b, av.label), []).append(a)
            kinds[(b, av.label)] = av.kind
    if bounds is None:
        w, h = d.im.size
        bounds = (0.0, 0.0, float(w), float(h))
    s = lay.size
    f = font(max(size, round(s * 0.3)), "bold")
    taken = list(avoid)
    out: list[tuple[str, Box]] = []
    for (dst, text), srcs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        colour = ARROWS.get(kinds[(dst, text)], OTHER_ARROW)
        cx, cy = lay.centre(dst)
        ax = sum(lay.centre(a)[0] for a in srcs) / len(srcs) - cx
        ay = sum(lay.centre(a)[1] for a in srcs) / len(srcs) - cy
        away = math.atan2(-ay, -ax) if (ax or ay) else math.pi / 2
        tw = f.getlength(text)
        hw, hh = tw / 2 + 5, f.size * 0.65 + 1
        best: tuple[float, float, Box, Point] | None = None
        for k in (1.2, 1.7, 2.3, 2.9) + ((3.6, 4.4) if keep_clear is not None else ()):
            if best is not None and k > 2.9 and best[0] == 0:
                break  # the further places only when every nearer one covers something
            for i in range(24):
                ang = away + math.radians(15 * ((i + 1) // 2) * (1 if i % 2 else -1))
                px, py = cx + math.cos(ang) * s * k, cy + math.sin(ang) * s * k
                box = (px - hw, py - hh, px + hw, py + hh)
                if keep_clear and any(overlap(box, o) > 1.0 for o in keep_clear):
                    continue
                cost = sum(overlap(box, o) for o in taken)
                cost += 1e6 * (box[0] < bounds[0] or box[1] < bounds[1] or box[2] > bounds[2] or box[3] > bounds[3])
                rank = (cost, k + 0.01 * i)
                if best is None or rank < best[:2]:
                    best = (cost, k + 0.01 * i, box, (px, py))
        if best is None or (skip_covering and best[0] > 0) or (keep_clear is not None and best[0] >= 1e6):
            continue
        _, _, box, (px, py) = best
        ex, ey = cx + (px - cx) * 0.55 / max(1e-6, math.hypot(px - cx, py - cy) / s), cy + (py - cy) * 0.55 / max(
            1e-6, math.hypot(px - cx, py - cy) / s
        )
        d.line([(ex, ey), (px, py)], fill=colour, width=2)
        d.ellipse([ex - 3, ey - 3, ex + 3, ey + 3], fill=colour)
        d.rounded_rectangle(box, radius=round(hh), fill=(255, 255, 255), outline=colour, width=2)
        d.text((px, py), text, font=f, fill=colour, anchor="mm")
        mark((math.floor(min(box[0], ex)) - 4, math.floor(min(box[1], ey)) - 4,
              math.ceil(max(box[2], ex)) + 4, math.ceil(max(box[3], ey)) + 4))
        taken.append(box)
        out.append((text, box))
    return out
