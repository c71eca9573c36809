"""Terrain textures: each pattern name draws strokes into a transparent hex-shaped tile.

A tile is centred on its hex; the terrain layer fills the hex with the terrain colour
and pastes the tile over it, so every forest hex shows the same small trees, as on a
printed map. Unknown pattern names draw nothing (a plain fill).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from render.geometry import SQRT3
from render.style import RGB, parse_colour, shade

Drawer = Callable[[ImageDraw.ImageDraw, float, float, float, RGB, int], None]

# Fixed scatter points in unit-hex coordinates (x in -1..1 of size, y in -1..1 of half height).
_SCATTER = ((-0.45, -0.45), (0.15, -0.55), (0.55, -0.1), (-0.6, 0.2), (-0.05, 0.05), (0.4, 0.5), (-0.3, 0.6))


def _lw(s: float) -> int:
    return max(1, round(s / 18))


def _grass(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    hh = SQRT3 * s / 2
    t = s * 0.11
    c = shade(c, 0.68)
    for i, (ux, uy) in enumerate(_SCATTER):
        if (i + v) % 3 == 2:
            continue
        x, y = cx + ux * s * 0.85, cy + uy * hh * 0.85 + t
        for dx in (-0.7, 0.0, 0.7):
            d.line(
                [(x + dx * t * 0.4, y), (x + dx * t, y - t * (1.6 - abs(dx) * 0.5))],
                fill=c + (200,),
                width=_lw(s),
            )


def _crystal(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    # Faceted shards: a lit left face, a shaded right face, a dark outline; spots between them.
    lit, shaded, dark = shade(c, 1.6), shade(c, 0.82), shade(c, 0.42)
    shards: tuple[tuple[float, float, float, float], ...] = (
        (-0.36, 0.34, 0.62, 0.13),
        (0.06, 0.46, 0.92, 0.16),
        (0.42, 0.3, 0.5, 0.12),
    )
    if v:
        shards = tuple((-x, b, h, w) for x, b, h, w in reversed(shards))
    for ux, base, height, half in shards:
        x, yb, w = cx + ux * s, cy + base * s, half * s
        top, shoulder = yb - height * s, yb - height * s + w * 1.3
        d.polygon([(x - w, yb), (x - w, shoulder), (x, top), (x, yb + w * 0.5)], fill=lit + (245,))
        d.polygon([(x, top), (x + w, shoulder), (x + w, yb), (x, yb + w * 0.5)], fill=shaded + (245,))
        outline = [
            (x - w, yb),
            (x - w, shoulder),
            (x, top),
            (x + w, shoulder),
            (x + w, yb),
            (x, yb + w * 0.5),
            (x - w, yb),
        ]
        d.line(outline, fill=dark + (255,), width=_lw(s), joint="curve")
    for ux, uy in ((-0.62, -0.42), (0.55, -0.5), (-0.15, -0.66), (0.68, 0.1)):
        r = s * 0.05
        x, y = cx + ux * s * 0.9, cy + uy * s * 0.8
        d.ellipse([x - r, y - r, x + r, y + r], fill=dark + (210,))


def _trees(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    crown, edge, trunk = shade(c, 0.78), shade(c, 0.45), (92, 64, 40)
    spots = (
        (-0.42, -0.28),
        (0.18, -0.42),
        (0.5, 0.12),
        (-0.2, 0.28),
        (-0.62, 0.42 - 0.2 * v),
        (0.1 + 0.1 * v, 0.62),
    )
    r = s * 0.17
    for ux, uy in spots:
        x, y = cx + ux * s * 0.8, cy + uy * s * 0.7
        d.line([(x, y), (x, y + r * 1.5)], fill=trunk + (255,), width=_lw(s))
        d.ellipse([x - r, y - r, x + r, y + r], fill=crown + (255,), outline=edge + (255,), width=1)
        d.ellipse([x - r * 0.5, y - r * 0.6, x - r * 0.05, y - r * 0.15], fill=shade(c, 1.25) + (170,))


def _waves(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    hh = SQRT3 * s / 2
    ink = shade(c, 1.45)
    for k, fy in enumerate((-0.45, 0.0, 0.45)):
        y0 = cy + fy * hh
        pts = []
        for i in range(25):
            x = cx - s + i * (2 * s / 24)
            pts.append((x, y0 + math.sin((i + 3 * k + 2 * v) * math.pi / 4) * s * 0.07))
        d.line(pts, fill=ink + (230,), width=_lw(s), joint="curve")


def _slope(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    ink = shade(c, 0.55)
    for fy in (-0.45, 0.05, 0.55):
        y = cy + fy * s * 0.8
        w = s * (0.75 - abs(fy) * 0.5)
        d.arc([cx - w, y - w * 0.35, cx + w, y + w * 0.35], 180, 360, fill=ink + (230,), width=_lw(s))
        for i in range(-2, 3):
            x = cx + i * w * 0.38
            yy = y - w * 0.35 * math.sqrt(max(0.0, 1 - (i * 0.38) ** 2))
            d.line([(x, yy), (x, yy + s * 0.14)], fill=ink + (200,), width=1)


def _plate(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    hi, lo = shade(c, 1.35), shade(c, 0.6)
    r = s * 0.68
    pts = [
        (cx + r * math.cos(math.radians(60 * i)), cy + r * math.sin(math.radians(60 * i))) for i in range(6)
    ]
    d.line(pts[3:] + pts[:1], fill=hi + (230,), width=_lw(s) + 1)
    d.line(pts[:4], fill=lo + (230,), width=_lw(s) + 1)
    rr = s * 0.06
    for x, y in pts:
        d.ellipse([x - rr, y - rr, x + rr, y + rr], fill=lo + (255,), outline=hi + (255,))


def _hatch(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    ink = shade(c, 0.6)
    step = s * 0.36
    for i in range(-7, 8):
        x = cx + i * step
        d.line([(x - s, cy + s), (x + s, cy - s)], fill=ink + (130,), width=_lw(s))


def _dots(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    ink = shade(c, 0.55)
    step, r = s * 0.32, max(1.2, s * 0.055)
    for j in range(-4, 5):
        for i in range(-4, 5):
            x = cx + (i + (0.5 if j % 2 else 0)) * step
            y = cy + j * step * 0.87
            d.ellipse([x - r, y - r, x + r, y + r], fill=ink + (220,))


def _grid(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    ink = shade(c, 0.6)
    step = s * 0.32
    for i in range(-4, 5):
        d.line([(cx + i * step, cy - s), (cx + i * step, cy + s)], fill=ink + (170,), width=1)
        d.line([(cx - s, cy + i * step), (cx + s, cy + i * step)], fill=ink + (170,), width=1)


def _core(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    for k, (f, col) in enumerate(
        ((0.72, shade(c, 0.55)), (0.5, shade(c, 1.3)), (0.3, shade(c, 0.7)), (0.14, shade(c, 1.7)))
    ):
        r = s * f
        d.ellipse(
            [cx - r, cy - r, cx + r, cy + r],
            fill=col + (255,) if k else None,
            outline=col + (255,),
            width=_lw(s) + 1,
        )


def _crosses(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    ink = shade(c, 0.5)
    t = s * 0.08
    for ux, uy in _SCATTER:
        x, y = cx + ux * s * 0.85, cy + uy * s * 0.7
        d.line([(x - t, y - t), (x + t, y + t)], fill=ink + (220,), width=_lw(s))
        d.line([(x - t, y + t), (x + t, y - t)], fill=ink + (220,), width=_lw(s))


def _rough(d: ImageDraw.ImageDraw, cx: float, cy: float, s: float, c: RGB, v: int) -> None:
    fill, edge = shade(c, 0.82), shade(c, 0.45)
    for i, (ux, uy) in enumerate(_SCATTER):
        if (i + v) % 2:
            continue
        x, y = cx + ux * s * 0.8, cy + uy * s * 0.7
        r = s * (0.1 + 0.03 * (i % 3))
        pts = [
            (x - r, y + r * 0.5),
            (x - r * 0.6, y - r * 0.6),
            (x + r * 0.3, y - r),
            (x + r, y - r * 0.1),
            (x + r * 0.7, y + r * 0.6),
        ]
        d.polygon(pts, fill=fill + (255,), outline=edge + (255,), width=1)


PATTERNS: dict[str, Drawer] = {
    "grass": _grass,
    "crystal": _crystal,
    "trees": _trees,
    "waves": _waves,
    "slope": _slope,
    "plate": _plate,
    "hatch": _hatch,
    "dots": _dots,
    "grid": _grid,
    "core": _core,
    "crosses": _crosses,
    "rough": _rough,
}
"""Pattern names the renderer knows; anything else is a plain fill."""


def tile_size(size: float) -> tuple[int, int]:
    """Width and height of a hex tile."""
    return int(math.ceil(2 * size)) + 2, int(math.ceil(SQRT3 * size)) + 2


@lru_cache(maxsize=256)
def hex_mask(size: float, inset: float = 0.5) -> Image.Image:
    """An 'L' mask of the hex, centred in a tile."""
    w, h = tile_size(size)
    m = Image.new("L", (w, h), 0)
    r = size - inset
    pts = [
        (w / 2 + r * math.cos(math.radians(60 * i)), h / 2 + r * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]
    ImageDraw.Draw(m).polygon(pts, fill=255)
    return m


@lru_cache(maxsize=256)
def pattern_tile(pattern: str, colour: str, size: float, variant: int = 0) -> Image.Image | None:
    """The transparent tile of ``pattern`` drawn for terrain colour ``colour``; None when unknown."""
    drawer = PATTERNS.get(pattern)
    if drawer is None:
        return None
    w, h = tile_size(size)
    tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    drawer(ImageDraw.Draw(tile), w / 2, h / 2, size, parse_colour(colour), variant)
    alpha = ImageChops.multiply(tile.getchannel("A"), hex_mask(size, 1.0))
    tile.putalpha(alpha)
    return tile


@lru_cache(maxsize=128)
def band_tile(colour: str, size: float) -> Image.Image:
    """An inner band in a terrain colour: how a second plain terrain shows in a hex."""
    w, h = tile_size(size)
    tile = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    r = size * 0.86
    pts = [
        (w / 2 + r * math.cos(math.radians(60 * i)), h / 2 + r * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]
    ImageDraw.Draw(tile).polygon(pts, outline=parse_colour(colour) + (255,), width=max(3, round(size * 0.16)))
    return tile


def swatch(pattern: str, colour: str, size: int) -> Image.Image:
    """A small hex of a terrain, for the legend."""
    w, h = tile_size(size)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    fill = Image.new("RGBA", (w, h), parse_colour(colour) + (255,))
    img.paste(fill, (0, 0), hex_mask(size))
    tile = pattern_tile(pattern, colour, size)
    if tile is not None:
        img.alpha_composite(tile)
    return img
