"""Fixtures: the test maps, built once, and functions to find pixels on a rendered board."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.core.protocol import View
from render.compose import board_image
from render.geometry import Layout
from render.panel import TITLE_H
from render.terrain import static_layer
from tests.render import maps


@pytest.fixture(scope="session")
def oneworld_map():
    return maps.oneworld_like()


@pytest.fixture(scope="session")
def chitin_map():
    return maps.chitin_like()


@pytest.fixture(scope="session")
def annihilator_map():
    return maps.annihilator_like()


def board_layout(game_map) -> Layout:
    """Where hexes land on a full board image (the map sits under the title bar)."""
    lay = static_layer(game_map).layout
    return Layout(lay.size, lay.ox, lay.oy + TITLE_H)


def render(view: View, game_map) -> Image.Image:
    """A board as an RGB image."""
    return board_image(view, game_map=game_map)


def decode(png: bytes) -> Image.Image:
    """PNG bytes back to an RGB image."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def near(a, b, tol: int = 40) -> bool:
    """Two colours within ``tol`` on every channel."""
    return all(abs(int(x) - int(y)) <= tol for x, y in zip(a, b))


def pixel(img: Image.Image, xy) -> tuple[int, int, int]:
    """The colour at a float position."""
    return img.getpixel((round(xy[0]), round(xy[1])))[:3]


def pixels(img: Image.Image) -> list:
    """Every pixel of an image, row by row."""
    return list(img.get_flattened_data())


@pytest.fixture(scope="session")
def plain_map():
    """A 9 x 9 map of one plain terrain: pieces on it are easy to find by colour."""
    from engine.core.maps import GameMap, MapData, Style

    data = MapData(
        id="test-plain",
        title="plain",
        source="reconstructed",
        columns=9,
        rows=9,
        terrain_types={"open": Style(label="Open", color="#e6e0c8")},
        default_terrain="open",
    )
    return GameMap(data)


def view_of(**kw) -> View:
    """A view on the plain test map."""
    base = dict(game="test", map="test-plain", title="Test", sides={"A": "red", "B": "blue"})
    base.update(kw)
    return View(**base)
