"""The legend: terrain, hexside features, highlights, markers and counter states on this board."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable

from PIL import Image, ImageDraw

from engine.core.hexes import Hex
from engine.core.maps import GameMap
from engine.core.protocol import CounterView, HighlightView, MarkerView, View
from render.counters import place_counter
from render.geometry import Layout
from render.hexsides import DRAWERS, draw_plain
from render.overlays import highlight_style, marker_name, outline_highlight, place_marker
from render.panel import Block, heading
from render.sprites import BLOCKS, on_paper
from render.style import ARROWS, INK, OTHER_ARROW, PANEL_BG, font, parse_colour, text_width
from render.textures import swatch, tile_size

ROW = 28
SAMPLE_W = 40
LEGEND_MARGIN = 8
"""Room around the legend's picture for samples that reach past their row."""

SampleDraw = Callable[[ImageDraw.ImageDraw, Image.Image, int, int], None]
Sample = tuple[str, Hashable, SampleDraw]
"""A legend line: its label, what its sample shows (everything that changes its pixels), the sample."""


def terrain_used(game_map: GameMap) -> list[str]:
    """Terrain tags that some hex of the map carries, in the map's declared order."""
    used: set[str] = set()
    for tags in game_map.data.terrain.values():
        used.update(tags)
    if len(game_map.data.terrain) < len(game_map.hexes):
        used.add(game_map.data.default_terrain)
    return [t for t in game_map.data.terrain_types if t in used]


def features_used(game_map: GameMap) -> list[str]:
    """Hexside feature kinds present on the map, in declared order."""
    used = {k for kinds in game_map.hexside_features().values() for k in kinds}
    return [t for t in game_map.data.hexside_types if t in used]


def _terrain_sample(style) -> SampleDraw:
    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int) -> None:
        sw = swatch(style.pattern, style.color, 13)
        w, h = tile_size(13)
        img.paste(sw, (x + (SAMPLE_W - w) // 2, y + (ROW - h) // 2), sw)

    return draw


def _feature_sample(style) -> SampleDraw:
    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int) -> None:
        colour = parse_colour(style.color, (60, 60, 60))
        seg = [((x + 4.0, y + ROW / 2), (x + SAMPLE_W - 4.0, y + ROW / 2))]
        DRAWERS.get(style.pattern, draw_plain)(d, seg, colour, style.width)

    return draw


HIGHLIGHT_NAMES = {"zoc": "Enemy zone of control"}
"""Legend names of highlight kinds whose own name says too little."""


def _highlight_sample(kind: str) -> SampleDraw:
    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int) -> None:
        colour, alpha, _style = highlight_style(kind)
        lay = Layout(13, x + SAMPLE_W / 2, y + ROW / 2)
        if kind != "zoc":  # a zone of control is a hatch alone
            d.polygon(lay.corners(Hex(0, 0)), fill=colour + (max(alpha, 60),))
        outline_highlight(d, lay, Hex(0, 0), HighlightView(hex="", kind=kind))

    return draw


def _marker_sample(kind: str) -> SampleDraw:
    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int) -> None:
        place_marker(img, x + SAMPLE_W / 2, y + ROW / 2, 11, MarkerView(hex="", kind=kind))

    return draw


def _arrow_sample(kind: str) -> SampleDraw:
    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int) -> None:
        colour = ARROWS.get(kind, OTHER_ARROW)
        yy = y + ROW / 2
        d.line([(x + 4, yy), (x + SAMPLE_W - 12, yy)], fill=colour, width=4)
        d.polygon(
            [(x + SAMPLE_W - 2, yy), (x + SAMPLE_W - 14, yy - 7), (x + SAMPLE_W - 14, yy + 7)], fill=colour
        )

    return draw


def _counter_sample(cv: CounterView) -> SampleDraw:
    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int) -> None:
        place_counter(img, x + SAMPLE_W / 2, y + ROW / 2, 24, cv, (150, 150, 150), detail=False)

    return draw


def legend_items(view: View, game_map: GameMap | None) -> list[Sample]:
    """(label, sample drawer) for each thing on this board worth a legend line."""
    items: list[Sample] = []
    if game_map is not None:
        types = game_map.data.terrain_types
        for t in terrain_used(game_map):
            st = types[t]
            items.append((st.label, ("terrain", st.pattern, st.color), _terrain_sample(st)))
        sides = game_map.data.hexside_types
        for k in features_used(game_map):
            st = sides[k]
            items.append((st.label, ("feature", st.pattern, st.color, st.width), _feature_sample(st)))
    for kind in dict.fromkeys(h.kind for h in view.highlights):
        items.append((HIGHLIGHT_NAMES.get(kind, kind.capitalize()), ("highlight", kind), _highlight_sample(kind)))
    taken = {label for label, _, _ in items}
    for kind in dict.fromkeys(m.kind for m in view.markers):
        label = marker_name(kind)
        label = f"{label} marker" if label in taken else label
        taken.add(label)
        items.append((label, ("marker", kind), _marker_sample(kind)))
    for kind in dict.fromkeys(a.kind for a in view.arrows):
        items.append((kind.capitalize(), ("arrow", kind), _arrow_sample(kind)))
    states = (
        (
            "Disrupted",
            any(c.disrupted for c in view.counters),
            CounterView(hex="", side="", label="", disrupted=True),
        ),
        (
            "Face down",
            any(c.hidden for c in view.counters),
            CounterView(hex="", side="", label="", hidden=True),
        ),
        (
            "Facing",
            any(c.facing is not None for c in view.counters),
            CounterView(hex="", side="", label="", facing=0),
        ),
    )
    for label, present, cv in states:
        if present:
            items.append((label, ("counter", label), _counter_sample(cv)))
    codes = UNIT_CODES.get(view.game, {})
    used = {c.sub.split()[0] for c in view.counters if c.sub.split() and not c.hidden}
    for code, name in codes.items():
        if code in used:
            sample = CounterView(hex="", side="", label=code)
            items.append((name, ("unit code", code), _counter_sample(sample)))
    return items


UNIT_CODES: dict[str, dict[str, str]] = {
    "chitin": {
        "GT": "Gantua",
        "PX": "Phlanx",
        "LR": "Low Render",
        "TR": "Termagant",
        "PL": "Plunge",
        "B": "Basic",
        "W": "Worker",
    },
}
"""The unit codes a game writes first in its counters' sub-labels, named in the legend (Chitin 2.02)."""


def legend_blocks(view: View, game_map: GameMap | None, width: int) -> list[Block]:
    """The legend as panel blocks, two columns when the panel is wide enough."""
    items = legend_items(view, game_map)
    if not items:
        return []
    f = font(13, "regular")
    fits = all(text_width(f, label) <= width // 2 - SAMPLE_W - 10 for label, _, _ in items)
    cols = 2 if fits and len(items) > 3 else 1
    rows = math.ceil(len(items) / cols)
    height = rows * ROW + 6
    what = tuple((label, key) for label, key, _ in items)

    def paint(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, w: int) -> None:
        colw = w // cols
        for i, (label, _, sample) in enumerate(items):
            c, r = divmod(i, rows)
            xx, yy = x + c * colw, y + r * ROW
            sample(d, img, xx, yy)
            text = label
            while text_width(f, text) > colw - SAMPLE_W - 10 and len(text) > 3:
                text = text[:-2] + "\u2026"
            d.text((xx + SAMPLE_W + 6, yy + ROW / 2), text, font=f, fill=INK, anchor="lm")

    def draw(d: ImageDraw.ImageDraw, img: Image.Image, x: int, y: int, w: int) -> None:
        # The legend changes only when the board shows a new kind of thing: kept as one picture.
        m = LEGEND_MARGIN
        sprite = BLOCKS.get(
            ("legend", what, cols, w),
            lambda: on_paper(w, height, m, PANEL_BG, lambda dd, im: paint(dd, im, m, m, w)),
        )
        sprite.paste(img, x, y)

    return [heading("Legend"), Block(height, draw)]
