"""The static layer: terrain fills and textures, hexside features, megahexes, labels, numbers, the cache."""

from __future__ import annotations

import math

import pytest

from engine.core.hexes import Hex, format_ccrr, megahex_centre, neighbor, parse_ccrr
from engine.core.maps import GameMap, HexsideEntry, MapData, Style
from render import terrain
from render.geometry import Layout
from render.hexsides import HOLLOW_CORE
from render.style import MEGAHEX_LINE, luminance, parse_colour, shade
from render.terrain import build_static, clear_cache, ordered_tags, short_names, static_layer
from render.textures import PATTERNS, pattern_tile
from tests.render.conftest import near, pixel, pixels

REQUIRED_PATTERNS = ("grass", "crystal", "trees", "waves", "slope", "plate", "hatch", "dots", "grid", "core")


def _mean(img, x, y, r):
    box = img.crop((round(x - r), round(y - r), round(x + r), round(y + r)))
    px = pixels(box)
    return tuple(sum(p[i] for p in px) / len(px) for i in range(3))


def _count(img, x, y, r, colour, tol=30):
    box = img.crop((round(x - r), round(y - r), round(x + r), round(y + r)))
    return sum(1 for p in pixels(box) if near(p, colour, tol))


def small_map(**extra) -> GameMap:
    data = dict(
        id="test-small",
        title="small",
        source="reconstructed",
        columns=5,
        rows=5,
        terrain_types={
            "open": Style(label="Open", color="#e0d8b0"),
            "odd": Style(label="Odd", color="#4060a0", pattern="zigzag"),
        },
        default_terrain="open",
        terrain={"0303": ["odd"]},
        hexside_types={"wall": Style(label="Wall", color="#c01010", width=5)},
        hexsides=[HexsideEntry(a="0202", b="0203", kind="wall")],
    )
    data.update(extra)
    return GameMap(MapData(**data))


def test_every_named_pattern_draws_something_and_each_differs():
    tiles = {}
    for name in REQUIRED_PATTERNS:
        assert name in PATTERNS
        tile = pattern_tile(name, "#808080", 30)
        assert tile is not None and tile.getchannel("A").getbbox() is not None, name
        tiles[name] = tile.tobytes()
    assert len(set(tiles.values())) == len(REQUIRED_PATTERNS)


def test_unknown_pattern_is_a_plain_fill():
    m = small_map()
    layer = build_static(m, 30)
    cx, cy = layer.layout.centre(parse_ccrr("0303"))
    assert pattern_tile("zigzag", "#4060a0", 30) is None
    assert _count(layer.image, cx, cy, 8, parse_colour("#4060a0"), 2) == 16 * 16


def test_plain_terrain_fills_the_hex_centre_with_its_colour(chitin_map):
    layer = static_layer(chitin_map)
    h = parse_ccrr("0101")
    assert chitin_map.terrain(h) == {"plain"}
    assert pixel(layer.image, layer.layout.centre(h)) == parse_colour("#d8cf9a")


def test_textured_terrain_keeps_its_colour_with_the_texture_on_it(chitin_map):
    layer = static_layer(chitin_map)
    river = next(h for h in sorted(chitin_map.hexes) if chitin_map.terrain(h) == {"river"})
    x, y = layer.layout.centre(river)
    assert near(_mean(layer.image, x, y, 10), parse_colour("#6fa8d6"), 30)
    assert _count(layer.image, x, y, 12, shade(parse_colour("#6fa8d6"), 1.45), 12) > 5  # the waves


def test_two_terrains_in_one_hex_are_drawn_together(chitin_map):
    layer = static_layer(chitin_map)
    both = next(h for h in sorted(chitin_map.hexes) if chitin_map.terrain(h) == {"river", "rough"})
    assert ordered_tags(chitin_map, both) == ["river", "rough"]
    x, y = layer.layout.centre(both)
    assert _count(layer.image, x, y, 18, parse_colour("#6fa8d6"), 12) > 50
    assert _count(layer.image, x, y, 18, shade(parse_colour("#8a7a5a"), 0.82), 12) > 10  # rough's stones


def test_second_plain_terrain_shows_as_an_inner_band():
    m = small_map(
        terrain={"0303": ["open", "odd"]},
        terrain_types={
            "open": Style(label="Open", color="#e0d8b0"),
            "odd": Style(label="Odd", color="#4060a0"),
            "base": Style(label="Base", color="#a0a0a0"),
        },
        default_terrain="base",
    )
    layer = build_static(m, 30)
    h = parse_ccrr("0303")
    cx, cy = layer.layout.centre(h)
    assert pixel(layer.image, (cx, cy)) == parse_colour("#e0d8b0")
    assert pixel(layer.image, (cx + 30 * 0.86 - 2, cy)) == parse_colour("#4060a0")


def test_hollow_fault_is_a_double_line_with_a_light_core(oneworld_map):
    layer = static_layer(oneworld_map)
    a, b = parse_ccrr("0203"), parse_ccrr("0303")
    d = next(i for i in range(6) if neighbor(a, i) == b)
    mx, my = layer.layout.edge_midpoint(a, d)
    assert pixel(layer.image, (mx, my)) == HOLLOW_CORE
    (x1, y1), (x2, y2) = layer.layout.edge(a, d)
    ln = math.hypot(x2 - x1, y2 - y1)
    nx, ny = -(y2 - y1) / ln, (x2 - x1) / ln
    fault = parse_colour("#4b2a6e")
    assert near(pixel(layer.image, (mx + nx * 3, my + ny * 3)), fault, 20)
    assert near(pixel(layer.image, (mx - nx * 3, my - ny * 3)), fault, 20)


def test_runeline_is_a_dark_line_along_the_hexside(oneworld_map):
    layer = static_layer(oneworld_map)
    a, b = parse_ccrr("0509"), parse_ccrr("0510")
    d = next(i for i in range(6) if neighbor(a, i) == b)
    mx, my = layer.layout.edge_midpoint(a, d)
    assert _count(layer.image, mx, my, 4, parse_colour("#2b2118"), 25) >= 6
    cx, cy = layer.layout.centre(a)
    assert _count(layer.image, cx, cy, 4, parse_colour("#2b2118"), 25) == 0


def test_other_hexside_features_are_a_plain_line_in_their_colour():
    m = small_map()
    layer = build_static(m, 30)
    a = parse_ccrr("0202")
    assert pixel(layer.image, layer.layout.edge_midpoint(a, 3)) == parse_colour("#c01010")


@pytest.mark.parametrize("size", [30, 44, 60])
def test_the_hexsides_between_plain_hexes_are_drawn_dark_enough_to_tell_each_hex_s_number_its_own(size):
    """A hex number sits at the top of its hex, just under the hexside it shares with the hex above:
    a faint outline there made numbers read as belonging to that hex (a new user's review). The
    outline between two hexes of the same plain terrain is at most 0.65 of the fill's brightness."""
    game_map = small_map()
    layer = build_static(game_map, size)
    h = parse_ccrr("0102")
    fill = pixel(layer.image, layer.layout.centre(h))
    assert game_map.terrain(h) == {"open"} and near(fill, parse_colour("#e0d8b0"), 8)
    for d in range(6):
        n = neighbor(h, d)
        if n not in game_map.hexes or game_map.terrain(n) != {"open"}:
            continue
        x, y = layer.layout.edge_midpoint(h, d)
        box = layer.image.crop((round(x) - 1, round(y) - 1, round(x) + 2, round(y) + 2))
        darkest = min(luminance(p) for p in pixels(box))
        assert darkest <= 0.65 * luminance(fill), (d, darkest, luminance(fill))


def test_megahex_boundaries_are_outlined_and_inner_hexsides_are_not(chitin_map):
    layer = static_layer(chitin_map)
    origin = chitin_map.megahex_origin
    inner = boundary = None
    for h in sorted(chitin_map.hexes):
        for d in range(3):
            n = neighbor(h, d)
            if (
                n not in chitin_map.hexes
                or chitin_map.terrain(h) != {"plain"}
                or chitin_map.terrain(n) != {"plain"}
            ):
                continue
            same = megahex_centre(h, origin) == megahex_centre(n, origin)
            if same and inner is None:
                inner = (h, d)
            if not same and boundary is None:
                boundary = (h, d)
    assert inner and boundary
    dark = pixel(layer.image, layer.layout.edge_midpoint(*boundary))
    assert luminance(dark) < luminance(MEGAHEX_LINE) + 40
    # an inner hexside is a thin line (the grid), a megahex boundary a wide dark one: over a 5 x 5
    # box round each hexside's middle the inner one is much the lighter
    light = _mean(layer.image, *layer.layout.edge_midpoint(*inner), 2)
    wide = _mean(layer.image, *layer.layout.edge_midpoint(*boundary), 2)
    assert luminance(light) > luminance(wide) + 60


def test_hex_numbers_are_printed_at_the_top_of_every_hex(chitin_map):
    layer = static_layer(chitin_map)
    lay = layer.layout
    for h in (parse_ccrr("0101"), parse_ccrr("1522"), parse_ccrr("0811")):
        cx, cy = lay.centre(h)
        top = cy - lay.half_height + 8
        box = layer.image.crop((round(cx - 14), round(top - 5), round(cx + 14), round(top + 5)))
        ink = sum(1 for p in pixels(box) if luminance(p) < 90)
        assert ink > 15, h


def test_lettered_regions_are_labelled(chitin_map):
    layer = static_layer(chitin_map)
    lay = layer.layout
    a_hexes = chitin_map.regions["A"]
    label_hex = terrain._label_hex(chitin_map, a_hexes, lay)
    assert label_hex in a_hexes
    x, y = lay.centre(label_hex)
    box = layer.image.crop((round(x - 10), round(y - 8), round(x + 10), round(y + 14)))
    dark = sum(1 for p in pixels(box) if luminance(p) < 120)
    assert dark > 40


def test_named_hexes_are_ringed(oneworld_map):
    layer = static_layer(oneworld_map)
    x, y = layer.layout.centre(oneworld_map.named["Tower of Balance (W)"])
    s = layer.layout.size
    assert _count(layer.image, x + s * 0.78, y, 2, (150, 110, 20), 40) > 0


def test_many_names_sharing_a_first_word_are_shortened():
    names = [f"impact 1-{i}" for i in range(2, 7)] + ["brain core 1", "west tower"]
    short = short_names(names)
    assert short["impact 1-5"] == "1-5"
    assert short["brain core 1"] == "brain core 1"
    assert short["west tower"] == "west tower"


def test_the_static_layer_is_built_once_per_map_and_size(chitin_map):
    clear_cache()
    before = dict(terrain.STATS)
    first = static_layer(chitin_map)
    second = static_layer(chitin_map)
    assert first is second
    assert terrain.STATS["builds"] == before["builds"] + 1
    assert terrain.STATS["hits"] == before["hits"] + 1
    assert static_layer(chitin_map, 20) is not first
    assert terrain.STATS["builds"] == before["builds"] + 2


def test_a_different_map_under_the_same_id_is_not_served_from_the_cache():
    clear_cache()
    one = static_layer(small_map(), 30)
    other = static_layer(small_map(terrain={"0303": ["open"]}), 30)
    assert other is not one
    again = static_layer(small_map(terrain={"0303": ["open"]}), 30)
    assert again is other


def test_map_edge_is_drawn(oneworld_map):
    layer = static_layer(oneworld_map)
    h = Hex(0, 0)
    assert near(pixel(layer.image, layer.layout.edge_midpoint(h, 5)), (40, 40, 46), 25)


def test_named_map_edges_are_labelled_in_the_margin_on_their_side():
    m = small_map(
        edges={
            "north end": ["0101", "0201", "0301", "0401", "0501"],
            "west side": ["0101", "0102", "0103", "0104", "0105"],
        }
    )
    layer = build_static(m, 30)
    assert terrain.edge_side(m, m.edges["north end"], layer.layout) == "top"
    assert terrain.edge_side(m, m.edges["west side"], layer.layout) == "left"
    bare = build_static(small_map(), 30)
    w, h = layer.image.size
    top = (0, 0, w, 12)
    left = (0, 0, 12, h)
    for box in (top, left):
        assert layer.image.crop(box).tobytes() != bare.image.crop(box).tobytes()
        assert sum(1 for p in pixels(layer.image.crop(box)) if luminance(p) < 150) > 20


def test_boards_drawn_in_threads_share_one_layer_build(oneworld_map):
    from concurrent.futures import ThreadPoolExecutor

    import render
    from tests.render import views

    clear_cache()
    before = terrain.STATS["builds"]
    v = views.oneworld_view()
    with ThreadPoolExecutor(4) as pool:
        pngs = list(pool.map(lambda _: render.board(v, game_map=oneworld_map), range(4)))
    assert terrain.STATS["builds"] == before + 1
    assert len(set(pngs)) == 1


def test_hex_numbers_fit_the_top_edge_at_every_size_and_stay_legible():
    for size in (30, 33, 36):
        f = terrain.number_font(size)
        assert f.size >= 10
        assert f.getlength("2525") < size


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("size", [30, 34, 36])
def test_a_long_region_name_hides_no_hex_number(size):
    lay = Layout(size, 500, 500)
    hx = parse_ccrr("1313")
    (x, y), f, big = terrain.region_label("brain core", lay, hx)
    assert not big
    bx0, by0, bx1, by1 = f.getbbox("brain core", anchor="mm", stroke_width=1)
    label = (x + bx0, y + by0, x + bx1, y + by1)
    nf = terrain.number_font(size)
    for h in [hx] + [neighbor(hx, d) for d in range(6)]:
        cx, cy = lay.centre(h)
        top = cy - lay.half_height + 2
        nx0, ny0, nx1, ny1 = nf.getbbox(format_ccrr(h), anchor="mt")
        assert not _overlap(label, (cx + nx0, top + ny0, cx + nx1, top + ny1)), format_ccrr(h)


def _board_sizes(game_map) -> list[int]:
    from render.focus import FOCUS_SIZES, whole_size

    return [terrain.map_size(game_map), *FOCUS_SIZES, whole_size(game_map)]


@pytest.mark.parametrize("game", ["annihilator", "oneworld"])
def test_a_named_hexs_tag_keeps_off_its_neighbours_numbers_where_a_shorter_name_can(game):
    """On a focus view drawn small, "brain core 1" spread over the numbers (and their halos) of the
    hexes beside it: at every size a board is drawn, a tag that would drops its first word, once
    ("core 1", never a bare "1"), and only where the shorter name still tells it from the others
    (both OneWorld towers would read "tower": they stay whole)."""
    from engine.core.maps import load_map
    from render.stacks import number_box

    game_map = load_map(game)
    by_hex = {h: n for n, h in game_map.named.items()}
    for size in _board_sizes(game_map):
        lay = Layout(size, 500, 500)
        tags = terrain.name_tags(game_map, lay)
        texts = [text for text, _ in tags.values()]
        assert len(set(texts)) == len(texts), size  # every tag still tells its hex from the others
        for h, (text, box) in tags.items():
            full = terrain.short_names(list(game_map.named))[by_hex[h]]
            neighbours = [number_box(lay, n) for d in range(6) if (n := neighbor(h, d)) in game_map.hexes]
            full_box = terrain._tag_box(terrain._tag_font(size), full, *lay.centre(h), lay)
            if text == full:
                if game == "annihilator" and full.startswith("brain core"):
                    assert not any(_overlap(box, b) for b in neighbours), (size, full)
            else:
                assert text == full.split(" ", 1)[1], (size, full, text)
                assert any(_overlap(full_box, b) for b in neighbours), (size, full)  # only where needed
    if game == "annihilator":
        small = terrain.name_tags(game_map, Layout(27, 0, 0))
        assert {small[h][0] for n, h in game_map.named.items() if n.startswith("brain core")} == {"core 1", "core 2"}
    else:
        for size in _board_sizes(game_map):
            assert sorted(t for t, _ in terrain.name_tags(game_map, Layout(size, 0, 0)).values()) == [
                "east tower", "west tower"]


def test_a_region_whose_every_hex_carries_its_own_name_gets_no_second_label():
    """The Annihilator's "brain core" region is its two hexes named "brain core 1" and "2": "brain
    core" written over 1313 as well hid that hex's number on a small board, and said again what the
    tags say. A side of the hull keeps its label: its hexes are named for the impact rolls."""
    from engine.core.maps import load_map

    written: list[str] = []

    class Recorder:
        def text(self, xy, text, **kw):
            written.append(text)

    game_map = load_map("annihilator")
    assert game_map.regions["brain core"] <= set(game_map.named.values())
    terrain._regions(Recorder(), game_map, Layout(30, 500, 500))
    assert "brain core" not in written
    assert {f"side {n}" for n in range(1, 7)} <= set(written)  # named "impact 1-2" ...: not the side's name
    terrain._regions(Recorder(), load_map("chitin"), Layout(30, 500, 500))
    assert {"A", "G"} <= set(written)  # regions of unnamed hexes keep their labels
