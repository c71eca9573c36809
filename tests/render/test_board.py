"""Whole boards: PNG bytes, determinism, size limits, the map-less card, the frame around the map."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from engine.core.maps import DATA_DIR, load_map
from engine.core.protocol import View
from render import compose as board_module
from render.compose import CARD_W, PANEL_W
from render.panel import TITLE_H, box_blocks, stack_height
from render.style import TITLE_BG
from render.terrain import static_layer
from tests.render import views
from tests.render.conftest import decode, near, view_of
from tests.render.views import sixty_counters

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BOARD_BYTES = 400 * 1024


def test_board_is_a_valid_png(chitin_map):
    png = render.board(views.chitin_view(), game_map=chitin_map)
    assert png.startswith(PNG_SIGNATURE)
    img = Image.open(io.BytesIO(png))
    img.verify()
    layer = static_layer(chitin_map)
    assert img.size[0] == layer.image.width + PANEL_W
    assert img.size[1] >= layer.image.height + TITLE_H


def test_same_view_gives_the_same_bytes(oneworld_map):
    v = views.oneworld_view()
    first = render.board(v, game_map=oneworld_map)
    assert render.board(v, game_map=oneworld_map) == first
    from render.terrain import clear_cache

    clear_cache()
    assert render.board(v, game_map=oneworld_map) == first


def test_different_views_give_different_boards(oneworld_map):
    v = views.oneworld_view()
    moved = v.model_copy(update={"counters": v.counters[1:]})
    assert render.board(v, game_map=oneworld_map) != render.board(moved, game_map=oneworld_map)


def test_largest_map_with_sixty_counters_stays_under_400_kb(annihilator_map):
    v = sixty_counters(annihilator_map, views.annihilator_view(annihilator_map))
    assert len(v.counters) == 60
    png = render.board(v, game_map=annihilator_map)
    assert len(png) <= MAX_BOARD_BYTES
    assert decode(png).size[1] <= 1600


def test_a_15_by_22_map_is_at_most_about_1500_px_tall(chitin_map):
    img = decode(render.board(views.chitin_view(), game_map=chitin_map))
    assert img.size[1] <= 1500


def test_palette_png_keeps_the_colours_that_matter(chitin_map):
    v = views.chitin_view()
    rgb = render.board_image(v, game_map=chitin_map)
    back = decode(render.board(v, game_map=chitin_map))
    assert back.size == rgb.size
    # Flat fills survive the palette: the title bar and the panel keep their exact colours.
    assert back.getpixel((5, 5)) == TITLE_BG
    assert near(back.getpixel((rgb.width - 5, TITLE_H + 5)), rgb.getpixel((rgb.width - 5, TITLE_H + 5)), 3)


def test_the_map_is_loaded_by_its_id_when_not_given(monkeypatch, chitin_map):
    asked = []

    def fake_load(map_id):
        asked.append(map_id)
        return chitin_map

    monkeypatch.setattr(board_module, "load_map", fake_load)
    v = views.chitin_view()
    assert render.board(v) == render.board(v, game_map=chitin_map)
    assert asked == ["test-chitin"]


def test_a_map_less_view_is_a_tidy_card(monkeypatch):
    def no_map(map_id):
        raise AssertionError("a map-less game loads no map")

    monkeypatch.setattr(board_module, "load_map", no_map)
    png = render.board(views.combat_card_view())
    img = decode(png)
    assert img.width == CARD_W
    assert 200 < img.height < 900
    assert img.getpixel((3, 3)) == TITLE_BG
    assert len(png) < 60_000


def test_card_shows_each_sides_counters(monkeypatch):
    v = views.combat_card_view()
    img = decode(render.board(v))
    fewer = decode(render.board(v.model_copy(update={"counters": v.counters[:1]})))
    assert img.height > fewer.height


def test_title_bar_and_caption_frame_the_map(plain_map):
    bare = decode(render.board(view_of(), game_map=plain_map))
    captioned = decode(render.board(view_of(caption=("one line", "two lines")), game_map=plain_map))
    assert captioned.height > bare.height
    assert captioned.getpixel((captioned.width // 2, 10)) == TITLE_BG


def test_boxes_take_room_in_the_panel():
    empty = box_blocks(view_of(), 280)
    two = box_blocks(view_of(boxes={"BORG Tower": ("Stone", "Fog"), "CHEZ Tower": ()}), 280)
    assert empty == []
    assert stack_height(two) > 4 * 19


def test_many_boxes_make_the_board_taller_than_the_map(plain_map):
    boxes = {f"Box {i}": tuple(f"item {k}" for k in range(4)) for i in range(12)}
    img = render.board_image(view_of(boxes=boxes), game_map=plain_map)
    assert img.height > static_layer(plain_map).image.height + TITLE_H


REAL_MAPS = ["oneworld", "chitin", "annihilator"]


@pytest.mark.parametrize("name", REAL_MAPS)
def test_the_games_maps_render_within_limits(name):
    if not (DATA_DIR / "maps" / f"{name}.json").exists():
        pytest.skip(f"data/maps/{name}.json is not in this tree")
    game_map = load_map(name)
    base = View(game=name, map=name, title=name, turn=1, phase="Movement", active="A", sides={"A": "red"})
    png = render.board(sixty_counters(game_map, base))
    assert png.startswith(PNG_SIGNATURE)
    assert len(png) <= MAX_BOARD_BYTES
    assert decode(png).height <= 1600


def test_card_draws_each_sides_counters_in_its_colour():
    from render.style import SIDE_COLOURS

    v = views.combat_card_view()
    img = decode(render.board(v))
    bare = decode(render.board(v.model_copy(update={"counters": ()})))

    def count(im, colour):
        return sum(1 for p in im.convert("RGB").get_flattened_data() if near(p, colour, 12))

    # Two red counters and one blue one at full size, beside the chips of the sides list.
    assert count(img, SIDE_COLOURS["red"]) - count(bare, SIDE_COLOURS["red"]) > 2 * 1500
    assert count(img, SIDE_COLOURS["blue"]) - count(bare, SIDE_COLOURS["blue"]) > 1500
