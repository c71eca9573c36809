"""Hex geometry: Red Blob Games' published vectors, our direction order, printed numbers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.hexes import (
    DIRECTION_NAMES,
    DIRECTIONS,
    Hex,
    Hexside,
    _cube_round,
    direction,
    direction_between,
    distance,
    format_ccrr,
    from_offset,
    half_turn,
    line,
    megahex,
    megahex_centre,
    neighbor,
    neighbors,
    parse_ccrr,
    ray,
    ring,
    rotate_about,
    rotate_right,
    spiral,
    to_offset,
    within,
)

coord = st.integers(min_value=-60, max_value=60)
hexes = st.builds(Hex, coord, coord)


def cube(q: int, r: int, s: int) -> Hex:
    """A hex from Red Blob's cube triple, checking the triple is a real cube coordinate."""
    assert q + r + s == 0
    h = Hex(q, r)
    assert h.s == s
    return h


def rb_direction(i: int) -> int:
    """Our direction number for Red Blob's direction ``i``.

    Red Blob lists (1,0,-1), (1,-1,0), (0,-1,1), (-1,0,1), (-1,1,0), (0,1,-1):
    on a flat-topped grid that is SE, NE, N, NW, SW, S.
    """
    return (2 - i) % 6


def pixel(h: Hex) -> tuple[float, float]:
    """Centre of a flat-topped hex of size 1, y growing downwards (Red Blob's layout)."""
    return 1.5 * h.q, math.sqrt(3) * (h.r + h.q / 2)


# --- Red Blob Games' implementation test suite -----------------------------------------------


def test_redblob_hex_add() -> None:
    assert cube(1, -3, 2) + cube(3, -7, 4) == cube(4, -10, 6)


def test_redblob_hex_subtract() -> None:
    assert cube(1, -3, 2) - cube(3, -7, 4) == cube(-2, 4, -2)


def test_redblob_hex_direction() -> None:
    # hex_direction(2) == (0, -1, 1), which is our N (direction 0)
    assert rb_direction(2) == 0
    assert direction(rb_direction(2)) == cube(0, -1, 1)


def test_redblob_hex_neighbor() -> None:
    assert neighbor(cube(1, -2, 1), rb_direction(2)) == cube(1, -3, 2)


def test_redblob_direction_table_maps_onto_ours() -> None:
    redblob = [cube(1, 0, -1), cube(1, -1, 0), cube(0, -1, 1), cube(-1, 0, 1), cube(-1, 1, 0), cube(0, 1, -1)]
    for i, v in enumerate(redblob):
        assert DIRECTIONS[rb_direction(i)] == v


def test_redblob_hex_distance() -> None:
    assert distance(cube(3, -7, 4), cube(0, 0, 0)) == 7


def test_redblob_hex_rotate_right() -> None:
    assert rotate_right(cube(1, -3, 2)) == cube(3, -2, -1)


def test_redblob_hex_rotate_left() -> None:
    # a left turn is five right turns, or minus one
    assert rotate_right(cube(1, -3, 2), 5) == cube(-2, -1, 3)
    assert rotate_right(cube(1, -3, 2), -1) == cube(-2, -1, 3)


def _lerp(a: tuple[float, float, float], b: tuple[float, float, float], t: float) -> tuple[float, float, float]:
    return (a[0] * (1 - t) + b[0] * t, a[1] * (1 - t) + b[1] * t, a[2] * (1 - t) + b[2] * t)


def test_redblob_hex_round() -> None:
    a, b, c = (0.0, 0.0, 0.0), (1.0, -1.0, 0.0), (0.0, -1.0, 1.0)
    mid = _lerp((0.0, 0.0, 0.0), (10.0, -20.0, 10.0), 0.5)
    assert _cube_round(mid[0], mid[1]) == cube(5, -10, 5)
    p = _lerp(a, b, 0.499)
    assert _cube_round(p[0], p[1]) == cube(0, 0, 0)
    p = _lerp(a, b, 0.501)
    assert _cube_round(p[0], p[1]) == cube(1, -1, 0)
    p = tuple(a[i] * 0.4 + b[i] * 0.3 + c[i] * 0.3 for i in range(3))
    assert _cube_round(p[0], p[1]) == cube(0, 0, 0)
    p = tuple(a[i] * 0.3 + b[i] * 0.3 + c[i] * 0.4 for i in range(3))
    assert _cube_round(p[0], p[1]) == cube(0, -1, 1)


def test_redblob_hex_linedraw() -> None:
    expected = [cube(0, 0, 0), cube(0, -1, 1), cube(0, -2, 2), cube(1, -3, 2), cube(1, -4, 3), cube(1, -5, 4)]
    assert line(cube(0, 0, 0), cube(1, -5, 4)) == expected


def _redblob_oddq_from_cube(h: Hex) -> tuple[int, int]:
    return h.q, h.r + (h.q - (h.q & 1)) // 2


def test_redblob_offset_from_cube_odd_q() -> None:
    # qoffset_from_cube(ODD, Hex(1, 2, -3)) == OffsetCoord(1, 2); ours is 1-based
    assert to_offset(cube(1, 2, -3)) == (1 + 1, 2 + 1)


def test_redblob_offset_to_cube_odd_q() -> None:
    assert from_offset(1 + 1, 2 + 1) == cube(1, 2, -3)


def test_redblob_offset_roundtrip_odd_q() -> None:
    a = cube(3, 4, -7)
    assert from_offset(*to_offset(a)) == a
    col, row = 1 + 1, -3 + 1  # Red Blob's OffsetCoord(1, -3), 1-based
    assert to_offset(from_offset(col, row)) == (col, row)


@given(hexes)
def test_to_offset_is_redblob_odd_q_shifted_by_one(h: Hex) -> None:
    col, row = _redblob_oddq_from_cube(h)
    assert to_offset(h) == (col + 1, row + 1)
    assert from_offset(col + 1, row + 1) == h


# --- our direction order --------------------------------------------------------------------


def test_directions_are_n_ne_se_s_sw_nw() -> None:
    assert DIRECTIONS == (Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0))
    assert DIRECTION_NAMES == ("N", "NE", "SE", "S", "SW", "NW")


def test_directions_point_where_their_names_say_on_a_flat_topped_grid() -> None:
    # y grows downwards, so north is negative y; bearings clockwise from north
    expected_bearing = {"N": 0, "NE": 60, "SE": 120, "S": 180, "SW": 240, "NW": 300}
    for d, name in zip(DIRECTIONS, DIRECTION_NAMES):
        x, y = pixel(d)
        bearing = math.degrees(math.atan2(x, -y)) % 360
        assert bearing == pytest.approx(expected_bearing[name], abs=1e-9), name
        assert math.hypot(x, y) == pytest.approx(math.sqrt(3))


def test_direction_wraps_modulo_six() -> None:
    assert direction(6) == direction(0)
    assert direction(-1) == DIRECTIONS[5]
    assert direction(13) == DIRECTIONS[1]


def test_neighbors_in_direction_order() -> None:
    h = Hex(4, -2)
    assert neighbors(h) == [Hex(4, -3), Hex(5, -3), Hex(5, -2), Hex(4, -1), Hex(3, -1), Hex(3, -2)]
    assert [neighbor(h, d) for d in range(6)] == neighbors(h)


def test_direction_between() -> None:
    h = Hex(2, 3)
    for d in range(6):
        assert direction_between(h, neighbor(h, d)) == d
    assert direction_between(h, h) is None
    assert direction_between(h, Hex(4, 3)) is None


def test_opposite_directions_cancel() -> None:
    for d in range(6):
        assert direction(d) + direction(d + 3) == Hex(0, 0)


def test_hex_arithmetic_and_s() -> None:
    h = Hex(2, -5)
    assert h.s == 3
    assert h.scale(3) == Hex(6, -15)
    assert h.scale(0) == Hex(0, 0)
    with pytest.raises(TypeError):
        _ = h + (1, 1, 1)  # a plain tuple is not a hex; + must not concatenate


# --- distance ---------------------------------------------------------------------------


def test_distance_examples() -> None:
    assert distance(Hex(0, 0), Hex(0, 0)) == 0
    for d in DIRECTIONS:
        assert distance(Hex(0, 0), d) == 1
    assert distance(Hex(0, 0), Hex(2, -1)) == 2
    assert distance(Hex(-3, 1), Hex(2, 2)) == 6


@given(hexes, hexes)
def test_distance_symmetric(a: Hex, b: Hex) -> None:
    assert distance(a, b) == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@given(hexes, hexes)
def test_distance_is_fewest_steps(a: Hex, b: Hex) -> None:
    # walking greedily towards b shortens the distance by exactly one each step
    here, steps = a, 0
    while here != b:
        here = min(neighbors(here), key=lambda n: distance(n, b))
        steps += 1
    assert steps == distance(a, b)


# --- rotation ------------------------------------------------------------------------------


def test_rotate_right_turns_each_direction_into_the_next_clockwise() -> None:
    for d in range(6):
        assert rotate_right(direction(d)) == direction(d + 1)
        assert rotate_right(direction(d), 2) == direction(d + 2)


@given(hexes)
def test_rotate_six_times_is_identity(h: Hex) -> None:
    assert rotate_right(h, 6) == h
    x = h
    for _ in range(6):
        x = rotate_right(x)
    assert x == h


@given(hexes, st.integers(-12, 12))
def test_rotation_keeps_distance_from_origin(h: Hex, k: int) -> None:
    assert distance(Hex(0, 0), rotate_right(h, k)) == distance(Hex(0, 0), h)


@given(hexes, hexes, st.integers(0, 5))
def test_rotate_about(h: Hex, centre: Hex, k: int) -> None:
    image = rotate_about(h, centre, k)
    assert distance(image, centre) == distance(h, centre)
    assert rotate_about(image, centre, 6 - k) == h
    assert rotate_about(h, centre, 0) == h
    assert rotate_about(centre, centre, k) == centre


def test_rotate_about_example() -> None:
    centre = Hex(3, 3)
    north = neighbor(centre, 0)
    assert rotate_about(north, centre, 1) == neighbor(centre, 1)
    assert rotate_about(north, centre, 3) == neighbor(centre, 3)


def test_half_turn_examples() -> None:
    c = Hex(2, -1)
    assert half_turn(c, c) == c
    for d in range(6):
        assert half_turn(neighbor(c, d), c) == neighbor(c, d + 3)
    assert half_turn(Hex(5, 0), Hex(0, 0)) == Hex(-5, 0)


@given(hexes, hexes)
def test_half_turn_twice_is_identity(h: Hex, centre: Hex) -> None:
    assert half_turn(half_turn(h, centre), centre) == h
    assert half_turn(h, centre) == rotate_about(h, centre, 3)
    assert distance(half_turn(h, centre), centre) == distance(h, centre)


# --- lines and rays ----------------------------------------------------------------------------


@given(hexes, hexes)
def test_line_is_a_connected_walk_of_distance_plus_one_hexes(a: Hex, b: Hex) -> None:
    hs = line(a, b)
    assert len(hs) == distance(a, b) + 1
    assert hs[0] == a and hs[-1] == b
    for x, y in zip(hs, hs[1:]):
        assert distance(x, y) == 1
    for i, h in enumerate(hs):
        assert distance(a, h) == i


def test_line_of_one_hex() -> None:
    assert line(Hex(3, 4), Hex(3, 4)) == [Hex(3, 4)]


def test_line_along_a_direction_is_straight() -> None:
    assert line(Hex(0, 0), Hex(3, 0)) == [Hex(0, 0), Hex(1, 0), Hex(2, 0), Hex(3, 0)]
    assert line(Hex(0, 0), Hex(0, -3)) == [Hex(0, 0), Hex(0, -1), Hex(0, -2), Hex(0, -3)]


def test_ray() -> None:
    assert ray(Hex(1, 1), 3, 3) == [Hex(1, 2), Hex(1, 3), Hex(1, 4)]
    assert ray(Hex(1, 1), 1, 2) == [Hex(2, 0), Hex(3, -1)]
    assert ray(Hex(1, 1), 0, 0) == []


# --- rings, spirals, within ---------------------------------------------------------------------


def test_ring_zero_is_the_centre() -> None:
    assert ring(Hex(2, 2), 0) == [Hex(2, 2)]


def test_ring_one_is_the_neighbours() -> None:
    c = Hex(-1, 4)
    assert sorted(ring(c, 1)) == sorted(neighbors(c))


@pytest.mark.parametrize("radius", [1, 2, 3, 5, 8])
def test_ring_exact_distance_count_and_contiguity(radius: int) -> None:
    c = Hex(3, -7)
    hs = ring(c, radius)
    assert len(hs) == 6 * radius
    assert len(set(hs)) == len(hs)
    assert all(distance(c, h) == radius for h in hs)
    brute = {h for h in within(c, radius + 1) if distance(c, h) == radius}
    assert set(hs) == brute
    for x, y in zip(hs, hs[1:] + hs[:1]):
        assert distance(x, y) == 1


@pytest.mark.parametrize("radius", [0, 1, 2, 4, 7])
def test_spiral_is_rings_in_order(radius: int) -> None:
    c = Hex(5, 1)
    hs = spiral(c, radius)
    assert len(hs) == 1 + 3 * radius * (radius + 1)
    assert len(set(hs)) == len(hs)
    assert hs[0] == c
    assert [distance(c, h) for h in hs] == sorted(distance(c, h) for h in hs)
    assert set(hs) == {h for h in within(c, radius)}


@pytest.mark.parametrize("radius", [0, 1, 3, 6])
def test_within_matches_brute_force(radius: int) -> None:
    c = Hex(-2, 3)
    got = list(within(c, radius))
    assert len(got) == len(set(got)) == 1 + 3 * radius * (radius + 1)
    box = range(-radius - 1, radius + 2)
    brute = {Hex(c.q + dq, c.r + dr) for dq in box for dr in box if distance(c, Hex(c.q + dq, c.r + dr)) <= radius}
    assert set(got) == brute


# --- hexsides -------------------------------------------------------------------------------------


def test_hexside_is_an_unordered_pair() -> None:
    a, b = Hex(2, 2), Hex(3, 1)
    assert Hexside.of(a, b) == Hexside.of(b, a)
    assert hash(Hexside.of(a, b)) == hash(Hexside.of(b, a))
    assert {Hexside.of(a, b), Hexside.of(b, a)} == {Hexside.of(a, b)}
    assert set(Hexside.of(a, b)) == {a, b}


def test_hexsides_of_one_hex_are_six_distinct_sides() -> None:
    c = Hex(0, 0)
    sides = {Hexside.of(c, n) for n in neighbors(c)}
    assert len(sides) == 6


@pytest.mark.parametrize("other", [Hex(0, 0), Hex(2, 0), Hex(1, 1), Hex(0, 5)])
def test_hexside_of_non_adjacent_hexes_is_refused(other: Hex) -> None:
    with pytest.raises(ValueError, match="not adjacent"):
        Hexside.of(Hex(0, 0), other)


# --- megahexes ----------------------------------------------------------------------------------


def test_megahex_has_nineteen_hexes_around_its_centre() -> None:
    c = Hex(4, -1)
    m = megahex(c)
    assert len(m) == len(set(m)) == 19
    assert set(m) == set(within(c, 2))


@pytest.mark.parametrize("origin", [Hex(0, 0), Hex(7, -3), Hex(-5, 11)])
def test_megahexes_tile_the_plane(origin: Hex) -> None:
    area = list(within(origin + Hex(2, 1), 16))
    # Every hex in the area lies in exactly one megahex of the lattice through origin.
    centres = {megahex_centre(h, origin) for h in area}
    count: dict[Hex, int] = {}
    for c in centres:
        for h in megahex(c):
            count[h] = count.get(h, 0) + 1
    for h in area:
        assert count[h] == 1, h
        c = megahex_centre(h, origin)
        assert h in megahex(c)
        assert megahex_centre(c, origin) == c
    assert megahex_centre(origin, origin) == origin


@given(hexes, hexes)
def test_megahex_centre_is_within_two_and_on_the_lattice(h: Hex, origin: Hex) -> None:
    c = megahex_centre(h, origin)
    assert distance(c, h) <= 2
    rel = c - origin
    # the lattice is a*(3, 2) + b*(-2, 5): solve with integers
    a_num = rel.q * 5 + rel.r * 2
    b_num = 3 * rel.r - 2 * rel.q
    assert a_num % 19 == 0 and b_num % 19 == 0
    # every hex of its megahex names the same centre
    assert all(megahex_centre(x, origin) == c for x in megahex(c))


def test_megahex_lattice_neighbours_are_five_apart() -> None:
    c = Hex(0, 0)
    near = sorted({megahex_centre(h) for h in within(c, 7)} - {c}, key=lambda x: distance(c, x))
    assert [distance(c, x) for x in near[:6]] == [5] * 6


# --- printed numbers ----------------------------------------------------------------------------


def test_printed_0101_is_the_axial_origin() -> None:
    assert parse_ccrr("0101") == Hex(0, 0)
    assert format_ccrr(Hex(0, 0)) == "0101"


def test_printed_even_columns_sit_half_a_hex_lower() -> None:
    for row in range(1, 6):
        for col in (1, 3, 5):
            odd_y = pixel(parse_ccrr(f"{col:02d}{row:02d}"))[1]
            even_y = pixel(parse_ccrr(f"{col + 1:02d}{row:02d}"))[1]
            assert even_y - odd_y == pytest.approx(math.sqrt(3) / 2)


def test_printed_numbers_step_through_neighbours() -> None:
    # 0507 (odd column): its north is 0506, south 0508, NE 0606, SE 0607
    h = parse_ccrr("0507")
    assert format_ccrr(neighbor(h, 0)) == "0506"
    assert format_ccrr(neighbor(h, 3)) == "0508"
    assert format_ccrr(neighbor(h, 1)) == "0606"
    assert format_ccrr(neighbor(h, 2)) == "0607"
    assert format_ccrr(neighbor(h, 4)) == "0407"
    assert format_ccrr(neighbor(h, 5)) == "0406"
    # 0607 (even column, shoved down): NE is 0707, SE 0708
    g = parse_ccrr("0607")
    assert format_ccrr(neighbor(g, 1)) == "0707"
    assert format_ccrr(neighbor(g, 2)) == "0708"
    assert format_ccrr(neighbor(g, 4)) == "0508"
    assert format_ccrr(neighbor(g, 5)) == "0507"


def test_parse_known_numbers() -> None:
    assert parse_ccrr("0507") == from_offset(5, 7)
    assert parse_ccrr("0507") == Hex(4, 4)
    assert parse_ccrr("0203") == Hex(1, 2)
    assert parse_ccrr(" 0507 ") == parse_ccrr("0507")
    assert parse_ccrr("9999") == from_offset(99, 99)


@given(st.integers(1, 99), st.integers(1, 99))
def test_parse_format_round_trip(col: int, row: int) -> None:
    text = f"{col:02d}{row:02d}"
    h = parse_ccrr(text)
    assert format_ccrr(h) == text
    assert parse_ccrr(format_ccrr(h)) == h
    assert to_offset(h) == (col, row)


@given(hexes)
def test_format_parse_round_trip_on_printable_hexes(h: Hex) -> None:
    col, row = to_offset(h)
    if 1 <= col <= 99 and 1 <= row <= 99:
        assert parse_ccrr(format_ccrr(h)) == h
    else:
        assert format_ccrr(h) == f"({h.q},{h.r})"


def test_format_off_the_printable_range() -> None:
    assert format_ccrr(Hex(-1, 0)) == "(-1,0)"
    assert format_ccrr(from_offset(100, 1)) == f"({from_offset(100, 1).q},{from_offset(100, 1).r})"


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("05x7", "four digits"),
        ("0000", "start at 01"),
        ("0500", "start at 01"),
        ("0005", "start at 01"),
        ("", "four digits"),
        ("12345", "four digits"),
        ("507", "four digits"),
        ("05 07", "four digits"),
        ("-507", "four digits"),
    ],
)
def test_parse_bad_numbers_read_well(text: str, says: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_ccrr(text)
    msg = str(err.value)
    assert says in msg
    assert f"'{text}'" in msg
    assert "0507" in msg or "01" in msg


@given(st.integers(1, 98), st.integers(2, 98))
def test_printed_neighbours_follow_the_odd_q_layout(col: int, row: int) -> None:
    # N and S keep the column; to the east, an odd column's NE shares the row above,
    # an even column (shoved down) shares its own row
    h = from_offset(col, row)
    assert to_offset(neighbor(h, 0)) == (col, row - 1)
    assert to_offset(neighbor(h, 3)) == (col, row + 1)
    if col % 2 == 1:
        assert to_offset(neighbor(h, 1)) == (col + 1, row - 1)
        assert to_offset(neighbor(h, 2)) == (col + 1, row)
    else:
        assert to_offset(neighbor(h, 1)) == (col + 1, row)
        assert to_offset(neighbor(h, 2)) == (col + 1, row + 1)
    if col > 1:
        west = {to_offset(neighbor(h, 4)), to_offset(neighbor(h, 5))}
        assert west == ({(col - 1, row), (col - 1, row - 1)} if col % 2 == 1 else {(col - 1, row), (col - 1, row + 1)})
