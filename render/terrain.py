"""The static terrain layer of a map: fills, textures, hexsides, megahexes, labels, numbers.

It depends only on the map and the hex size, so it is built once per (map id, size)
and every later board copies it and draws the pieces on top.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass, field
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine.core.hexes import Hex, format_ccrr, megahex_centre, neighbor
from engine.core.maps import GameMap, MapData
from render.geometry import Box, Layout, bounds, fit, hex_size_for, overlap
from render.hexsides import boundary_edges, draw_features
from render.sprites import PIECES, Sprite, drawn_around
from render.style import BACKGROUND, INK, MAP_BORDER, MEGAHEX_LINE, RGB, font, luminance, parse_colour
from render.textures import band_tile, pattern_tile, tile_size

GRID_LINE = (0, 0, 0, 110)
"""The hexsides between hexes: dark enough that a hex number, at the top of its hex, reads as that
hex's and not the one above's (0.57 of the fill's brightness)."""
SHADOW: RGB = (196, 189, 172)


@dataclass
class StaticLayer:
    """A map drawn without pieces, and where each hex landed on it."""

    image: Image.Image
    layout: Layout
    data: MapData
    fills: dict[Hex, RGB] = field(default_factory=dict)
    """The base fill colour of each hex (for contrast of what is drawn on it)."""


_CACHE: dict[tuple[str, int], StaticLayer] = {}
_CACHE_LIMIT = 24
"""Terrain layers kept: a map's full-board layer and its focus views' few sizes, for several maps."""
_LOCK = threading.Lock()
"""Boards are drawn in worker threads: one builds a map's layer while the others wait for it."""
STATS = {"builds": 0, "hits": 0}
"""How often the static layer was built and reused (tests read it)."""


_SIZES: dict[int, tuple[frozenset[Hex], int]] = {}


def map_size(game_map: GameMap) -> int:
    """The hex size used for a map: about 1300 px of map height."""
    hexes = game_map.hexes
    hit = _SIZES.get(id(hexes))
    if hit is not None and hit[0] is hexes:
        return hit[1]
    x0, y0, x1, y1 = bounds(1.0, hexes)
    size = hex_size_for((y1 - y0) / math.sqrt(3))
    if len(_SIZES) >= 4 * _CACHE_LIMIT:
        _SIZES.clear()
    _SIZES[id(hexes)] = (hexes, size)  # the set is kept with its id, so the id cannot be reused meanwhile
    return size


def static_layer(game_map: GameMap, size: int | None = None) -> StaticLayer:
    """The cached terrain layer of ``game_map`` at ``size`` (built on first use)."""
    size = size or map_size(game_map)
    key = (game_map.id, size)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None and (hit.data is game_map.data or hit.data == game_map.data):
            STATS["hits"] += 1
            return hit
        layer = build_static(game_map, size)
        STATS["builds"] += 1
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = layer
        return layer


def clear_cache() -> None:
    """Forget every cached terrain layer."""
    with _LOCK:
        _CACHE.clear()
    with _TAGS_LOCK:
        _TAGS.clear()


def ordered_tags(game_map: GameMap, h: Hex) -> list[str]:
    """A hex's terrain tags in the map's declared order, the default dropped when others are present."""
    tags = game_map.terrain(h)
    order = list(game_map.data.terrain_types)
    out = [t for t in order if t in tags]
    if len(out) > 1 and game_map.data.default_terrain in out:
        out.remove(game_map.data.default_terrain)
    return out


@dataclass(frozen=True)
class LayerShape:
    """Where hexes fall on a map's terrain layer at a hex size, and its size, without drawing it."""

    layout: Layout
    width: int
    height: int


_SHAPES: dict[tuple[str, int, int], LayerShape] = {}


def layer_shape(game_map: GameMap, size: int) -> LayerShape:
    """The shape ``build_static(game_map, size)`` gives its layer (kept; cheap to ask before drawing)."""
    key = (game_map.id, size, len(game_map.hexes))
    hit = _SHAPES.get(key)
    if hit is None:
        margin = round(size * 0.7)
        x0, y0, x1, y1 = bounds(size, game_map.hexes)
        hit = LayerShape(fit(size, game_map.hexes, margin), int(x1 - x0 + 2 * margin), int(y1 - y0 + 2 * margin))
        if len(_SHAPES) >= 256:
            _SHAPES.clear()
        _SHAPES[key] = hit
    return hit


def build_static(game_map: GameMap, size: int) -> StaticLayer:
    """Draw the terrain layer of a map at hex size ``size``."""
    margin = round(size * 0.7)
    shape = layer_shape(game_map, size)
    w, h, lay = shape.width, shape.height, shape.layout
    img = Image.new("RGB", (w, h), BACKGROUND)
    draw = ImageDraw.Draw(img, "RGBA")
    hexes = sorted(game_map.hexes)
    for hx in hexes:
        draw.polygon([(x + 4, y + 4) for x, y in lay.corners(hx)], fill=SHADOW)
    layer = StaticLayer(img, lay, game_map.data)
    _fill_terrain(img, draw, game_map, lay, hexes, layer.fills)
    _grid(draw, game_map, lay, hexes)
    if game_map.megahex_origin is not None:
        _megahexes(draw, game_map, lay, hexes)
    draw_features(draw, lay, game_map.hexside_features(), game_map.data.hexside_types)
    for hx, d in boundary_edges(game_map.hexes):
        p, q = lay.edge(hx, d)
        draw.line([p, q], fill=MAP_BORDER, width=3)
        for x, y in (p, q):
            draw.ellipse([x - 1, y - 1, x + 1, y + 1], fill=MAP_BORDER)
    _numbers(draw, lay, hexes, layer.fills)
    _regions(draw, game_map, lay)
    _named(draw, game_map, lay)
    _edges(img, game_map, lay, margin)
    return layer


def _fill_terrain(img, draw, game_map: GameMap, lay: Layout, hexes: list[Hex], fills: dict[Hex, RGB]) -> None:
    types = game_map.data.terrain_types
    tw, th = tile_size(lay.size)
    for hx in hexes:
        tags = ordered_tags(game_map, hx)
        base = types[tags[0]]
        fills[hx] = parse_colour(base.color)
        draw.polygon(lay.corners(hx), fill=fills[hx])
        cx, cy = lay.centre(hx)
        pos = (round(cx - tw / 2), round(cy - th / 2))
        variant = (hx.q * 7 + hx.r * 3) % 2
        for i, tag in enumerate(tags):
            style = types[tag]
            tile = pattern_tile(style.pattern, style.color, lay.size, variant)
            if tile is None and i > 0:
                tile = band_tile(style.color, lay.size)
            if tile is not None:
                img.paste(tile, pos, tile)


def _grid(draw, game_map: GameMap, lay: Layout, hexes: list[Hex]) -> None:
    for hx in hexes:
        for d in range(3):
            if neighbor(hx, d) in game_map.hexes:
                draw.line(lay.edge(hx, d), fill=GRID_LINE, width=1)


def _megahexes(draw, game_map: GameMap, lay: Layout, hexes: list[Hex]) -> None:
    origin = game_map.megahex_origin
    assert origin is not None
    centre = {hx: megahex_centre(hx, origin) for hx in hexes}
    width = max(2, round(lay.size / 12))
    for hx in hexes:
        for d in range(3):
            n = neighbor(hx, d)
            if n in centre and centre[n] != centre[hx]:
                p, q = lay.edge(hx, d)
                draw.line([p, q], fill=MEGAHEX_LINE + (200,), width=width)
                for x, y in (p, q):
                    draw.ellipse(
                        [x - width / 2, y - width / 2, x + width / 2, y + width / 2],
                        fill=MEGAHEX_LINE + (200,),
                    )


def number_font(size: float):
    """The font of hex numbers: a third of the hex size, never under 10 px."""
    return font(max(10, round(size * 0.3)), "condensed")


def _numbers(draw, lay: Layout, hexes: list[Hex], fills: dict[Hex, RGB]) -> None:
    f = number_font(lay.size)
    top = lay.half_height - 2
    for hx in hexes:
        cx, cy = lay.centre(hx)
        ink = (20, 20, 24, 190) if luminance(fills[hx]) > 110 else (255, 255, 255, 220)
        draw.text((cx, cy - top), format_ccrr(hx), font=f, fill=ink, anchor="mt")


NUMBER_HALO = (255, 255, 255, 230)
NUMBER_INK = (20, 20, 24)


def place_number(img: Image.Image, x: float, y: float, size: float, text: str) -> None:
    """A hex number drawn over the pieces of its hex: dark on a light halo, its top middle on the
    pixel nearest (x, y)."""

    def make() -> Sprite:
        f = number_font(size)
        return drawn_around(
            size,
            lambda d, xx, yy: d.text(
                (xx, yy), text, font=f, fill=NUMBER_INK, anchor="mt", stroke_width=2, stroke_fill=NUMBER_HALO
            ),
        )

    PIECES.get(("number", text, size), make).paste(img, x, y)


def _label_hex(game_map: GameMap, hexes: frozenset[Hex], lay: Layout) -> Hex:
    pts = [lay.centre(h) for h in hexes]
    mx, my = sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts)
    best = min(sorted(hexes), key=lambda h: (lay.centre(h)[0] - mx) ** 2 + (lay.centre(h)[1] - my) ** 2)
    nw = neighbor(best, 5)
    return nw if nw in hexes else best


def _regions(draw, game_map: GameMap, lay: Layout) -> None:
    for name, hexes in sorted(game_map.regions.items()):
        own = {h for n, h in game_map.named.items() if n.startswith(name + " ")}
        if not hexes or hexes <= own:  # each hex tagged with the region's name ("brain core 1", "2")
            continue
        xy, f, big = region_label(name, lay, _label_hex(game_map, hexes, lay))
        draw.text(
            xy,
            name,
            font=f,
            fill=INK + (150,),
            anchor="mm",
            stroke_width=2 if big else 1,
            stroke_fill=(255, 255, 255, 170),
        )


def region_label(name: str, lay: Layout, hx: Hex):
    """Where a region's name is written on hex ``hx``, its font, and whether it is a big letter.

    A long name sits in the upper half of its hex, between its own number and the numbers of the
    hexes beside it (half a hex lower), so it hides none of them."""
    cx, cy = lay.centre(hx)
    big = len(name) <= 2
    f = font(round(lay.size * (1.1 if big else 0.42)), "bold")
    return (cx, cy + lay.size * (0.08 if big else -0.28)), f, big


def short_names(names: list[str]) -> dict[str, str]:
    """Labels for named hexes: a first word shared by four or more names is dropped ("impact 1-10" -> "1-10")."""
    firsts: dict[str, int] = {}
    for n in names:
        words = n.split()
        if len(words) > 1:
            firsts[words[0]] = firsts.get(words[0], 0) + 1
    out = {}
    for n in names:
        words = n.split()
        out[n] = " ".join(words[1:]) if len(words) > 1 and firsts[words[0]] >= 4 else n
    return out


_TAGS: dict[tuple[str, float], tuple[MapData, dict[Hex, tuple[str, Box]]]] = {}
_TAGS_LOCK = threading.Lock()


def name_tags(game_map: GameMap, lay: Layout) -> dict[Hex, tuple[str, Box]]:
    """The tag of each named hex ("brain core 1", "6-2"): its text and box, at the foot of the hex.
    A tag that would cover a neighbour's hex number drops its first word, once ("core 1"), where
    that still tells it from the others ("west tower" and "east tower" stay whole). Kept per map
    and size, placed for ``lay``'s origin."""
    key = (game_map.id, lay.size)
    hit = _TAGS.get(key)
    if hit is None or hit[0] is not game_map.data:
        at_origin = _name_tags(game_map, Layout(lay.size, 0.0, 0.0))
        with _TAGS_LOCK:  # not _LOCK: a layer being built under it asks for its tags
            if len(_TAGS) >= 64:
                _TAGS.pop(next(iter(_TAGS)))
            _TAGS[key] = (game_map.data, at_origin)
    else:
        at_origin = hit[1]
    dx, dy = lay.ox, lay.oy
    return {h: (text, (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)) for h, (text, b) in at_origin.items()}


def _name_tags(game_map: GameMap, lay: Layout) -> dict[Hex, tuple[str, Box]]:
    labels = short_names(list(game_map.named))
    # The shorter form drops the first word; it is used only where it still tells the hex from the
    # others ("core 1" and "core 2", but not "tower" for both towers).
    short = {n: t.split(" ", 1)[1] for n, t in labels.items() if " " in t}
    forms = list(short.values())
    f = _tag_font(lay.size)
    nf = number_font(lay.size)
    out: dict[Hex, tuple[str, Box]] = {}
    for name, hx in sorted(game_map.named.items(), key=lambda kv: kv[1]):
        cx, cy = lay.centre(hx)
        text = labels[name]
        box = _tag_box(f, text, cx, cy, lay)
        if name in short and forms.count(short[name]) == 1:
            numbers = [number_box(lay, n, nf) for d in range(6) if (n := neighbor(hx, d)) in game_map.hexes]
            if any(overlap(box, b) > 0 for b in numbers):
                text = short[name]
                box = _tag_box(f, text, cx, cy, lay)
        out[hx] = (text, box)
    return out


def number_box(lay: Layout, h: Hex, nf: ImageFont.FreeTypeFont | None = None, halo: bool = True) -> Box:
    """The box of hex ``h``'s number, at the top of the hex, with its halo (else its digits only)."""
    cx, cy = lay.centre(h)
    top = cy - lay.half_height + 2
    x0, y0, x1, y1 = _number_bbox(nf or number_font(lay.size), format_ccrr(h), 2 if halo else 0)
    return (cx + x0, top + y0, cx + x1, top + y1)


@lru_cache(maxsize=4096)
def _number_bbox(f: ImageFont.FreeTypeFont, text: str, stroke: int) -> tuple[float, float, float, float]:
    return f.getbbox(text, anchor="mt", stroke_width=stroke)


def _tag_box(f, text: str, cx: float, cy: float, lay: Layout) -> tuple[float, float, float, float]:
    tw = f.getlength(text)
    y = cy + lay.half_height - f.size - 6
    return (cx - tw / 2 - 3, y - 1, cx + tw / 2 + 3, y + f.size + 2)


def _tag_font(size: float):
    return font(max(8, round(size * 0.26)), "condensed")


def draw_name_tag(draw, lay: Layout, text: str, box: tuple[float, float, float, float]) -> None:
    """A named hex's tag: dark text on a light rounded box with a gold rim."""
    draw.rounded_rectangle(list(box), radius=3, fill=(255, 250, 232, 225), outline=(150, 110, 20, 255))
    draw.text(((box[0] + box[2]) / 2, box[1] + 1), text, font=_tag_font(lay.size), fill=INK, anchor="mt")


def _named(draw, game_map: GameMap, lay: Layout) -> None:
    for hx, (text, box) in name_tags(game_map, lay).items():
        cx, cy = lay.centre(hx)
        r = lay.size * 0.78
        draw.ellipse([cx - r, cy - r, cx + r, cy + r], outline=(150, 110, 20, 230), width=2)
        draw_name_tag(draw, lay, text, box)


def edge_side(game_map: GameMap, hexes: frozenset[Hex], lay: Layout) -> str:
    """Which side of the map (top, bottom, left, right) a named edge runs along."""
    xs = [lay.centre(h)[0] for h in game_map.hexes]
    ys = [lay.centre(h)[1] for h in game_map.hexes]
    ex = sum(lay.centre(h)[0] for h in hexes) / len(hexes)
    ey = sum(lay.centre(h)[1] for h in hexes) / len(hexes)
    # Compare the edge's centre with the map's, each axis scaled to the map's half extent.
    mx, my = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
    fx = (ex - mx) / max(1.0, (max(xs) - min(xs)) / 2)
    fy = (ey - my) / max(1.0, (max(ys) - min(ys)) / 2)
    if abs(fy) >= abs(fx):
        return "top" if fy < 0 else "bottom"
    return "left" if fx < 0 else "right"


def _edges(img: Image.Image, game_map: GameMap, lay: Layout, margin: int) -> None:
    f = font(max(9, round(margin * 0.5)), "bold")
    w, h = img.size
    for name, hexes in sorted(game_map.edges.items()):
        if not hexes:
            continue
        side = edge_side(game_map, hexes, lay)
        pts = [lay.centre(x) for x in hexes]
        text = name.upper()
        tw = int(f.getlength(text)) + 4
        strip = Image.new("RGBA", (tw, int(f.size) + 6), (0, 0, 0, 0))
        ImageDraw.Draw(strip).text(
            (tw / 2, (f.size + 6) / 2), text, font=f, fill=(90, 84, 70, 255), anchor="mm"
        )
        if side in ("top", "bottom"):
            cx = sum(p[0] for p in pts) / len(pts)
            cy = margin * 0.35 if side == "top" else h - margin * 0.35
        else:
            strip = strip.rotate(90 if side == "left" else -90, expand=True)
            cx = margin * 0.3 if side == "left" else w - margin * 0.3
            cy = sum(p[1] for p in pts) / len(pts)
        img.paste(strip, (round(cx - strip.width / 2), round(cy - strip.height / 2)), strip)
