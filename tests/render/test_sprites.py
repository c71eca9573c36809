"""Kept pictures (sprites): pasting one gives what drawing in place gives, and keeping them never
changes a board."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops, ImageDraw

import render
from engine.core.protocol import CounterView, HighlightView, MarkerView
from render import sprites
from render.compose import PANEL_W
from render.counters import draw_badge, draw_counter, place_badge, place_counter
from render.geometry import Layout
from render.overlays import (
    draw_marker,
    outline_highlight,
    place_marker,
    place_outline,
    place_tint,
    tint_highlight,
)
from render.panel import TITLE_H
from render.sprites import BLOCKS, PIECES, SpriteCache, on_paper, put_text
from render.style import font
from tests.render import views
from tests.render.conftest import view_of

GROUND = (120, 160, 90)


def _same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a, b).getbbox() is None


def _alike(a: Image.Image, b: Image.Image, stray: int = 24) -> bool:
    """The same picture but for at most ``stray`` pixels: a shape drawn a few hundred pixels away
    works its corners out in slightly different floating point, which may move an edge pixel."""
    diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v else 0)
    return sum(1 for p in diff.get_flattened_data() if p) <= stray


def _pair(draw_in_place, paste) -> tuple[Image.Image, Image.Image]:
    a = Image.new("RGB", (160, 120), GROUND)
    draw_in_place(ImageDraw.Draw(a, "RGBA"))
    b = Image.new("RGB", (160, 120), GROUND)
    paste(b)
    return a, b


COUNTERS = [
    CounterView(hex="", side="A", label="Gantua", sub="12-6"),
    CounterView(hex="", side="A", label="W", sub="1d", facing=2),
    CounterView(hex="", side="A", label="LR", sub="6-3", facing=5, disrupted=True),
    CounterView(hex="", side="A", label="Secret", sub="9-9", hidden=True, facing=0),
]


@pytest.mark.parametrize("cv", COUNTERS, ids=["plain", "facing", "disrupted", "face-down"])
@pytest.mark.parametrize("w", [37, 24, 14.6])
def test_a_pasted_counter_is_the_counter_drawn_in_place(cv, w):
    body = (178, 38, 36)
    a, b = _pair(
        lambda d: draw_counter(d, 80, 60, w, cv, body, detail=w > 20),
        lambda img: place_counter(img, 80, 60, w, cv, body, detail=w > 20),
    )
    assert _alike(a, b)


@pytest.mark.parametrize("kind", ["chit", "charge", "clear", "obstructed", "tower", "impact", "god", "odd"])
def test_a_pasted_marker_is_the_marker_drawn_in_place(kind):
    mv = MarkerView(hex="", kind=kind, text="A 20")
    a, b = _pair(lambda d: draw_marker(d, 80, 60, 14.0, mv), lambda img: place_marker(img, 80, 60, 14.0, mv))
    assert _same(a, b)


def test_a_pasted_badge_is_the_badge_drawn_in_place():
    a, b = _pair(lambda d: draw_badge(d, 80, 60, 6.8, 7), lambda img: place_badge(img, 80, 60, 6.8, 7))
    assert _same(a, b)


@pytest.mark.parametrize("kind", ["moved", "legal"])
def test_a_pasted_highlight_lines_up_with_its_hex_as_drawn_in_place(kind):
    # A hex centre at a fraction of a pixel, as on a real board.
    lay = Layout(34, 80.25, 60.7320508)
    hv = HighlightView(hex="", kind=kind)
    from engine.core.hexes import Hex

    h = Hex(0, 0)
    a, b = _pair(
        lambda d: (tint_highlight(d, lay, h, hv), outline_highlight(d, lay, h, hv, 1)),
        lambda img: (place_tint(img, lay, h, hv), place_outline(img, lay, h, hv, 1)),
    )
    assert _same(a, b)


@pytest.mark.parametrize("anchor", ["la", "lm", "rm", "mm"])
def test_text_drawn_straight_on_then_pasted_is_the_text_drawn_in_place(anchor):
    sprites.clear_caches()
    f = font(17, "regular")
    key_count = len(PIECES)
    a, first = _pair(
        lambda d: d.text((80, 60), "Turn 7 \u00b7 Combat", font=f, fill=(30, 30, 30), anchor=anchor),
        lambda img: put_text(img, (80, 60), "Turn 7 \u00b7 Combat", f, (30, 30, 30), anchor),
    )
    assert len(PIECES) == key_count, "a text seen once is drawn straight on"
    _, second = _pair(
        lambda d: None,
        lambda img: put_text(img, (80.4, 59.6), "Turn 7 \u00b7 Combat", f, (30, 30, 30), anchor),
    )
    assert len(PIECES) == key_count + 1, "the second time, a picture of it is kept"
    assert _same(a, first)
    assert _same(a, second)


def test_a_block_on_paper_pastes_only_what_it_drew():
    paper = (247, 244, 236)

    def paint(d, img):
        d.text((10, 10), "Legend", font=font(13, "bold"), fill=(34, 36, 44))

    sprite = on_paper(100, 30, 4, paper, paint)
    img = Image.new("RGB", (160, 120), (0, 0, 255))
    sprite.paste(img, 20, 20)
    # Paper the block left blank does not cover what was under it.
    assert img.getpixel((22, 22)) == (0, 0, 255)
    assert img.getpixel((150, 110)) == (0, 0, 255)
    assert any(img.getpixel((x, y)) != (0, 0, 255) for x in range(30, 80) for y in range(30, 45))


def test_the_cache_keeps_at_most_its_limit_and_forgets_the_oldest():
    cache = SpriteCache(3)
    made = []

    def maker(k):
        def make():
            made.append(k)
            return sprites.drawn(2, 2, 0, 0, lambda d: d.point((0, 0), fill=(1, 2, 3)))

        return make

    for k in ("a", "b", "c", "a", "d", "a", "b"):
        cache.get(k, maker(k))
    assert len(cache) == 3
    assert made == ["a", "b", "c", "d", "b"]


def test_kept_sprites_never_change_a_board(chitin_map, monkeypatch):
    v = views.chitin_view()
    other = v.model_copy(update={"counters": v.counters[::-1][:5], "title": "Other"})
    sprites.clear_caches()
    first = render.board(v, game_map=chitin_map)
    render.board(other, game_map=chitin_map)
    assert render.board(v, game_map=chitin_map) == first
    # A cache too small to hold one board's sprites draws the same board.
    monkeypatch.setattr(PIECES, "limit", 2)
    monkeypatch.setattr(BLOCKS, "limit", 1)
    sprites.clear_caches()
    assert render.board(other, game_map=chitin_map) != first
    assert render.board(v, game_map=chitin_map) == first


def test_two_maps_with_the_same_legend_labels_keep_their_own_colours(plain_map):
    from engine.core.maps import GameMap, Style

    data = plain_map.data.model_copy(
        update={"id": "test-plain-red", "terrain_types": {"open": Style(label="Open", color="#c83232")}}
    )
    red = GameMap(data)
    a = render.board_image(view_of(), game_map=plain_map)
    b = render.board_image(view_of(map="test-plain-red"), game_map=red)
    panel = (a.width - PANEL_W, TITLE_H, a.width, a.height)
    assert not _same(a.crop(panel), b.crop(panel))


def test_a_reused_canvas_keeps_nothing_of_the_board_before(chitin_map, monkeypatch):
    from render.compose import CANVASES, board_image, encode_png
    from render.terrain import static_layer

    v = views.chitin_view()
    busy = v.model_copy(
        update={"highlights": v.highlights * 2, "counters": v.counters[::-1], "title": "Busy"}
    )
    assert board_image(busy, game_map=chitin_map).size == board_image(v, game_map=chitin_map).size
    alone = encode_png(board_image(v, game_map=chitin_map), static_layer(chitin_map).image)
    given, borrowed = [], []
    give_back, borrow = CANVASES.give_back, CANVASES.borrow
    monkeypatch.setattr(
        CANVASES, "give_back", lambda layer, img, dirt: (given.append(img), give_back(layer, img, dirt))
    )
    monkeypatch.setattr(CANVASES, "borrow", lambda *a: borrowed.append(borrow(*a)) or borrowed[-1])
    render.board(busy, game_map=chitin_map)
    assert render.board(v, game_map=chitin_map) == alone
    assert borrowed[-1] is given[0], "the second board was drawn on the first one's canvas"


def test_a_label_reaching_from_the_panel_over_the_map_is_wiped_too(plain_map):
    from render.compose import board_image, encode_png
    from render.terrain import static_layer

    # An off-map counter is drawn in the panel; a label far too long for it reaches back over the map.
    long = view_of(counters=(CounterView(hex="", side="A", label="W" * 40),))
    short = view_of(counters=(CounterView(hex="", side="A", label="W"),))
    a, b = board_image(long, game_map=plain_map), board_image(short, game_map=plain_map)
    assert a.size == b.size
    mw = a.width - PANEL_W
    assert not _same(a.crop((0, 0, mw - 2, a.height)), b.crop((0, 0, mw - 2, b.height)))
    render.board(long, game_map=plain_map)
    assert render.board(short, game_map=plain_map) == encode_png(b, static_layer(plain_map).image)
