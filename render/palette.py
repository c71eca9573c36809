"""A kept, deterministic 256-colour palette per map: the board is reduced to it instead of to a
palette searched anew on every board (Pillow's octree costs most of a board's encoding).

The palette holds the style's colours (page, ink, panel, sides, highlights, arrows, markers, greys
for anti-aliased text) and fills the rest with the colours of the map's terrain layer. It depends
only on the map's terrain layer and the style, so the same view still gives the same bytes.
"""

from __future__ import annotations

import threading
import weakref

from PIL import Image

from render.counters import DISRUPTED, FACING
from render.overlays import MARKERS
from render.style import (
    ARROWS,
    BACKGROUND,
    HIGHLIGHTS,
    INK,
    MAP_BORDER,
    MEGAHEX_LINE,
    MUTED,
    PANEL_BG,
    RGB,
    RULE,
    SIDE_COLOURS,
    TITLE_BG,
    TITLE_FG,
    shade,
)

_LOCK = threading.Lock()
_KEPT: dict[int, tuple[weakref.ref[Image.Image], Image.Image]] = {}
_LIMIT = 32


def style_colours() -> list[RGB]:
    """The colours every board may draw, whatever its map, in a fixed order."""
    base: list[RGB] = [BACKGROUND, INK, MUTED, TITLE_BG, TITLE_FG, PANEL_BG, RULE, MAP_BORDER, MEGAHEX_LINE]
    base += [(255, 255, 255), (0, 0, 0), FACING, DISRUPTED, (200, 204, 214), (120, 60, 130)]
    for c in SIDE_COLOURS.values():
        base += [c, shade(c, 0.5), shade(c, 1.3), shade(c, 1.6)]
    for colour, _alpha, _style in HIGHLIGHTS.values():
        base += [colour, shade(colour, 1.5)]
    base += list(ARROWS.values()) + list(MARKERS.values())
    # Greys between ink and white, for the anti-aliased edges of text and lines.
    base += [tuple(round(INK[i] + (250 - INK[i]) * k / 11) for i in range(3)) for k in range(1, 11)]  # type: ignore[misc]
    out: list[RGB] = []
    for c in base:
        if c not in out:
            out.append(c)
    return out


def palette_of(source: Image.Image) -> Image.Image:
    """The palette image (mode "P") for boards drawn on ``source`` (a map's terrain layer), kept."""
    key = id(source)
    with _LOCK:
        hit = _KEPT.get(key)
        if hit is not None and hit[0]() is source:
            return hit[1]
    pal = build_palette(source)
    with _LOCK:
        if len(_KEPT) >= _LIMIT:
            _KEPT.pop(next(iter(_KEPT)))
        # A weak reference: a layer dropped from its cache is not kept alive here, and an id reused
        # by another image is told apart because the reference no longer gives this one.
        _KEPT[key] = (weakref.ref(source), pal)
    return pal


def build_palette(source: Image.Image | None) -> Image.Image:
    """Style colours first, then the most used colours of ``source`` up to 256."""
    colours = style_colours()
    if source is not None:
        room = 256 - len(colours)
        small = source.convert("RGB").reduce(2)  # the same colours, a quarter of the work
        terrain = small.quantize(room, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
        raw = terrain.getpalette() or []
        used: list[int] = sorted({int(i) for i in terrain.get_flattened_data()})  # type: ignore[arg-type]
        for i in used:
            c = (raw[3 * i], raw[3 * i + 1], raw[3 * i + 2])
            if c not in colours and len(colours) < 256:
                colours.append(c)
    flat: list[int] = []
    for c in colours[:256]:
        flat += list(c)
    flat += [0] * (768 - len(flat))
    pal = Image.new("P", (1, 1))
    pal.putpalette(flat)
    return pal


def reduce(img: Image.Image, source: Image.Image | None) -> Image.Image:
    """``img`` reduced, without dithering, to the kept palette of its map's terrain layer; without
    one (a map-less card, small and rare), to a palette searched for it (Pillow's fast octree)."""
    if source is None:
        return img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return img.quantize(palette=palette_of(source), dither=Image.Dither.NONE)
