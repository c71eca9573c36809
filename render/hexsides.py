"""Hexside features drawn along the shared edge: Faults (hollow), Runelines (runes), plain lines."""

from __future__ import annotations

import math

from PIL import ImageDraw

from engine.core.hexes import Hex, Hexside, direction_between, neighbor
from render.geometry import Layout, Point
from render.style import RGB, parse_colour

HOLLOW_CORE: RGB = (250, 246, 236)


def side_segment(lay: Layout, side: Hexside) -> tuple[Point, Point]:
    """The two pixel ends of a hexside."""
    d = direction_between(side.a, side.b)
    assert d is not None
    return lay.edge(side.a, d)


def _round_line(d: ImageDraw.ImageDraw, p: Point, q: Point, colour: tuple, width: int) -> None:
    d.line([p, q], fill=colour, width=width)
    r = width / 2 - 0.5
    if r >= 1:
        for x, y in (p, q):
            d.ellipse([x - r, y - r, x + r, y + r], fill=colour)


def draw_hollow(d: ImageDraw.ImageDraw, segs: list[tuple[Point, Point]], colour: RGB, width: int) -> None:
    """A double line with a light core: the Faults of Chaos."""
    outer = max(6, width + 3)
    for p, q in segs:
        _round_line(d, p, q, colour, outer)
    core = max(2, outer - 2 * max(2, outer // 3))
    for p, q in segs:
        _round_line(d, p, q, HOLLOW_CORE, core)


def draw_runes(d: ImageDraw.ImageDraw, segs: list[tuple[Point, Point]], colour: RGB, width: int) -> None:
    """A dark wavy line with short tick marks across it: the Runelines."""
    w = max(2, width - 2)
    amp = max(2.0, width * 0.5)
    for (x1, y1), (x2, y2) in segs:
        length = math.hypot(x2 - x1, y2 - y1)
        nx, ny = -(y2 - y1) / length, (x2 - x1) / length
        pts = []
        for i in range(13):
            t = i / 12
            o = math.sin(t * 2 * math.pi) * amp
            pts.append((x1 + (x2 - x1) * t + nx * o, y1 + (y2 - y1) * t + ny * o))
        d.line(pts, fill=colour, width=w, joint="curve")
        for t in (0.0, 0.5):
            mx, my = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
            k = amp + 3
            d.line([(mx - nx * k, my - ny * k), (mx + nx * k, my + ny * k)], fill=colour, width=max(2, w - 1))


def draw_plain(d: ImageDraw.ImageDraw, segs: list[tuple[Point, Point]], colour: RGB, width: int) -> None:
    """A plain coloured line along each hexside."""
    for p, q in segs:
        _round_line(d, p, q, colour, max(1, width))


DRAWERS = {"hollow": draw_hollow, "runes": draw_runes}


def draw_features(
    d: ImageDraw.ImageDraw, lay: Layout, sides: dict[Hexside, frozenset[str]], types: dict
) -> None:
    """Draw every hexside feature, kind by kind in the map's declared order."""
    for kind, style in types.items():
        segs = [side_segment(lay, s) for s, kinds in sorted(sides.items()) if kind in kinds]
        if not segs:
            continue
        colour = parse_colour(style.color, (60, 60, 60))
        DRAWERS.get(style.pattern, draw_plain)(d, segs, colour, style.width)


def boundary_edges(hexes: frozenset[Hex]) -> list[tuple[Hex, int]]:
    """Each (hex, direction) whose neighbour is off the map: the map's outline."""
    return [(h, d) for h in sorted(hexes) for d in range(6) if neighbor(h, d) not in hexes]
