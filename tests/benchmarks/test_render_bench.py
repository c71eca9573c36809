"""Renderer benchmarks (run with `make bench`): static layer, a busy board, PNG encoding alone.

The pieces, panel and frame drawn on the cached static layer should cost well under a third of
encoding the board (the bot's budget: a command with its board <= 1.3 x encoding alone).
"""

from __future__ import annotations

import pytest

import render
from render import sprites
from render.compose import board_image, encode_png
from render.terrain import build_static, map_size
from tests.render import maps, views
from tests.render.views import sixty_counters


@pytest.fixture(scope="module")
def big_map():
    return maps.annihilator_like()


@pytest.fixture(scope="module")
def busy_view(big_map):
    return sixty_counters(big_map, views.annihilator_view(big_map))


def test_bench_static_layer(benchmark, big_map):
    size = map_size(big_map)
    layer = benchmark(build_static, big_map, size)
    assert layer.image.width > 1000


def test_bench_board_sixty_counters(benchmark, big_map, busy_view):
    render.board(busy_view, game_map=big_map)  # the static layer is cached from here on
    png = benchmark(render.board, busy_view, game_map=big_map)
    assert len(png) <= 400 * 1024


def test_bench_board_image_without_encoding(benchmark, big_map, busy_view):
    board_image(busy_view, game_map=big_map)
    img = benchmark(board_image, busy_view, game_map=big_map)
    assert img.width > 1000


def test_bench_png_encode(benchmark, big_map, busy_view):
    img = board_image(busy_view, game_map=big_map)
    png = benchmark(encode_png, img)
    assert png[:4] == b"\x89PNG"


def test_bench_board_image_with_nothing_kept(benchmark, big_map, busy_view):
    """The worst case: every counter, marker, text and the legend drawn anew (a board of a new game)."""
    board_image(busy_view, game_map=big_map)

    def setup():
        sprites.clear_caches()
        return (busy_view,), {"game_map": big_map}

    img = benchmark.pedantic(board_image, setup=setup, rounds=20, iterations=1)
    assert img.width > 1000


@pytest.mark.parametrize("script", ["oneworld_full_game", "chitin_small", "annihilator_cores"])
def test_bench_focus_view_adds_at_most_a_quarter_to_the_board(benchmark, script):
    """A board post (focus view, full map, alt text) against the full map alone, on boards of a
    scripted game: the focus view may add at most 25% (issue 14). Medians of interleaved runs."""
    import statistics
    import time

    from tests.render.scripted import board_views_of

    posts = board_views_of(script)[::6]
    for v, p in posts:
        render.boards(v, public=p)  # terrain layers and palettes built, as after render.prewarm()

    def full() -> None:
        for v, _ in posts:
            render.board(v)

    def both() -> None:
        for v, p in posts:
            render.boards(v, public=p)

    alone: list[float] = []
    post: list[float] = []
    for _ in range(7):
        for fn, out in ((full, alone), (both, post)):
            t = time.perf_counter()
            fn()
            out.append(time.perf_counter() - t)
    benchmark.pedantic(both, rounds=3, iterations=1)
    ratio = statistics.median(post) / statistics.median(alone)
    print(f"{script}: board {statistics.median(alone) / len(posts) * 1000:.1f} ms, "
          f"with the focus view {statistics.median(post) / len(posts) * 1000:.1f} ms, ratio {ratio:.2f}")
    assert ratio <= 1.25
