"""Layout maths: hex centres, neighbours, corners and the odd-q printed grid."""

from __future__ import annotations

import math

import pytest

from engine.core.hexes import Hex, from_offset, neighbor, parse_ccrr
from render.geometry import SQRT3, Layout, bounds, hex_size_for
from render.terrain import map_size

LAY = Layout(30.0, 100.0, 100.0)


def test_neighbours_are_one_hex_height_apart_in_their_direction():
    h = Hex(3, -1)
    cx, cy = LAY.centre(h)
    for d, angle in enumerate((270, 330, 30, 90, 150, 210)):
        nx, ny = LAY.centre(neighbor(h, d))
        assert math.hypot(nx - cx, ny - cy) == pytest.approx(SQRT3 * 30)
        assert math.degrees(math.atan2(ny - cy, nx - cx)) % 360 == pytest.approx(angle)


def test_north_is_straight_up_the_column():
    x0, y0 = LAY.centre(parse_ccrr("0507"))
    x1, y1 = LAY.centre(parse_ccrr("0506"))
    assert x1 == pytest.approx(x0) and y1 < y0


def test_odd_columns_sit_half_a_hex_higher():
    _, y_odd = LAY.centre(from_offset(1, 1))
    _, y_even = LAY.centre(from_offset(2, 1))
    _, y_odd3 = LAY.centre(from_offset(3, 1))
    assert y_even - y_odd == pytest.approx(SQRT3 * 30 / 2)
    assert y_odd3 == pytest.approx(y_odd)


def test_shared_hexside_has_the_same_two_corners_from_both_hexes():
    h = Hex(2, 2)
    for d in range(6):
        a, b = LAY.edge(h, d)
        c, e = LAY.edge(neighbor(h, d), (d + 3) % 6)
        assert a == pytest.approx(e) and b == pytest.approx(c)


def test_edge_midpoint_is_halfway_to_the_neighbour():
    h = Hex(0, 0)
    for d in range(6):
        mx, my = LAY.edge_midpoint(h, d)
        (x0, y0), (x1, y1) = LAY.centre(h), LAY.centre(neighbor(h, d))
        assert (mx, my) == pytest.approx(((x0 + x1) / 2, (y0 + y1) / 2))


def test_bounds_cover_every_corner():
    hexes = [from_offset(c, r) for c in range(1, 6) for r in range(1, 5)]
    x0, y0, x1, y1 = bounds(20, hexes)
    lay = Layout(20, 0, 0)
    xs = [x for h in hexes for x, _ in lay.corners(h)]
    ys = [y for h in hexes for _, y in lay.corners(h)]
    assert (x0, x1) == pytest.approx((min(xs), max(xs)))
    assert (y0, y1) == pytest.approx((min(ys), max(ys)))


def test_hex_size_keeps_a_15_by_22_map_near_1300_px(chitin_map):
    size = map_size(chitin_map)
    assert 30 <= size <= 36
    _, y0, _, y1 = bounds(size, chitin_map.hexes)
    assert y1 - y0 <= 1320
    assert hex_size_for(0) == 36
