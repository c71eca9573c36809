"""Pixel layout of a flat-topped hex grid: hex centres, corners, hexside endpoints.

Axial ``Hex(q, r)`` maps to pixels as in Red Blob Games' guide (flat-topped):
``x = 1.5 * size * q``, ``y = sqrt(3) * size * (r + q / 2)``. With odd-q printed
numbers this puts column 01 (q = 0) half a hex higher than column 02, as printed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from engine.core.hexes import Hex

SQRT3 = math.sqrt(3.0)

# Corner i sits at angle 60*i degrees, y pointing down: 0 E, 1 lower right, 2 lower left,
# 3 W, 4 upper left, 5 upper right. Direction d (0 N .. 5 NW) crosses the edge between
# corners (d + 4) % 6 and (d + 5) % 6.
EDGE_CORNERS: tuple[tuple[int, int], ...] = tuple(((d + 4) % 6, (d + 5) % 6) for d in range(6))

# Screen angle (degrees, y down, 0 = east) of each direction's hexside midpoint.
DIRECTION_ANGLES: tuple[float, ...] = (270.0, 330.0, 30.0, 90.0, 150.0, 210.0)

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""(left, top, right, bottom) in pixels."""


def overlap(a: Box, b: Box) -> float:
    """The area two boxes share (0 when they do not meet)."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def hex_size_for(rows_extent: float) -> int:
    """A hex size (centre to corner, px) that keeps a map about 1300 px tall, within 30..36."""
    if rows_extent <= 0:
        return 36
    return max(30, min(36, int(1300 / (SQRT3 * rows_extent))))


@dataclass(frozen=True)
class Layout:
    """Where hexes fall on an image: hex size and the pixel of hex (0, 0)."""

    size: float
    ox: float
    oy: float

    @property
    def half_height(self) -> float:
        """Half the flat-to-flat height of a hex."""
        return SQRT3 * self.size / 2

    def centre(self, h: Hex) -> Point:
        """Pixel centre of a hex."""
        return (self.ox + 1.5 * self.size * h.q, self.oy + SQRT3 * self.size * (h.r + h.q / 2))

    def corner(self, h: Hex, i: int, inset: float = 0.0) -> Point:
        """Corner ``i`` (0 E, then clockwise) of a hex, pulled ``inset`` px towards its centre."""
        cx, cy = self.centre(h)
        a = math.radians(60 * i)
        r = self.size - inset
        return (cx + r * math.cos(a), cy + r * math.sin(a))

    def corners(self, h: Hex, inset: float = 0.0) -> list[Point]:
        """The six corners of a hex."""
        return [self.corner(h, i, inset) for i in range(6)]

    def edge(self, h: Hex, d: int, inset: float = 0.0) -> tuple[Point, Point]:
        """The two ends of the hexside of ``h`` in direction ``d``."""
        i, j = EDGE_CORNERS[d % 6]
        return self.corner(h, i, inset), self.corner(h, j, inset)

    def edge_midpoint(self, h: Hex, d: int) -> Point:
        """The middle of the hexside of ``h`` in direction ``d``."""
        (x1, y1), (x2, y2) = self.edge(h, d)
        return ((x1 + x2) / 2, (y1 + y2) / 2)


def bounds(size: float, hexes: Iterable[Hex]) -> tuple[float, float, float, float]:
    """Pixel bounding box (x0, y0, x1, y1) of hexes laid out with origin (0, 0)."""
    lay = Layout(size, 0.0, 0.0)
    xs: list[float] = []
    ys: list[float] = []
    for h in hexes:
        cx, cy = lay.centre(h)
        xs.append(cx)
        ys.append(cy)
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    hh = SQRT3 * size / 2
    return (min(xs) - size, min(ys) - hh, max(xs) + size, max(ys) + hh)


def fit(size: float, hexes: Iterable[Hex], margin: float, left: float = 0.0, top: float = 0.0) -> Layout:
    """A layout that puts ``hexes`` ``margin`` px inside the image corner (left, top)."""
    x0, y0, _x1, _y1 = bounds(size, hexes)
    return Layout(size, left + margin - x0, top + margin - y0)
