"""Animated GIFs of a game's boards, under an upload limit."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from render.animate import LAST_FRAME_MS, MIN_WIDTH, encode_gif
from render.compose import board_image
from tests.render import views
from tests.render.conftest import view_of


def _turns(n: int):
    v = views.oneworld_view()
    return [v.model_copy(update={"turn": t, "counters": v.counters[: 4 + 3 * t]}) for t in range(1, n + 1)]


def test_animation_of_full_boards_is_a_gif_with_a_frame_per_turn(oneworld_map):
    data = render.animate(_turns(3), game_map=oneworld_map, max_bytes=10 * 1024 * 1024, focus=False)
    assert data[:6] == b"GIF89a"
    img = Image.open(io.BytesIO(data))
    assert img.n_frames == 3
    assert img.size == board_image(_turns(1)[0], game_map=oneworld_map).size
    img.seek(2)
    assert img.info["duration"] == LAST_FRAME_MS


def test_animation_shrinks_its_frames_to_fit_max_bytes(oneworld_map):
    full = render.animate(_turns(3), game_map=oneworld_map, max_bytes=10 * 1024 * 1024)
    limit = len(full) // 3
    small = render.animate(_turns(3), game_map=oneworld_map, max_bytes=limit)
    assert len(small) <= limit
    img = Image.open(io.BytesIO(small))
    assert img.n_frames == 3
    assert img.width < Image.open(io.BytesIO(full)).width


def test_frames_of_different_heights_share_one_size(plain_map):
    short = view_of(turn=1)
    tall = view_of(turn=2, boxes={f"Box {i}": ("a", "b", "c", "d") for i in range(12)})
    data = render.animate([short, tall], game_map=plain_map, max_bytes=5_000_000, focus=False)
    img = Image.open(io.BytesIO(data))
    assert img.size == board_image(tall, game_map=plain_map).size


def test_a_tiny_limit_drops_boards_but_keeps_the_last(plain_map):
    boards = [view_of(turn=t, caption=(f"turn {t}",)) for t in range(4)]
    frames = [board_image(v, game_map=plain_map) for v in boards]
    one = len(encode_gif(frames[-1:], MIN_WIDTH / frames[0].width))
    data = render.animate(boards, game_map=plain_map, max_bytes=one, focus=False)
    assert len(data) <= one
    img = Image.open(io.BytesIO(data))
    assert img.n_frames < 4
    last = encode_gif(frames[-1:], MIN_WIDTH / frames[0].width)
    img.seek(img.n_frames - 1)
    assert img.convert("RGB").tobytes() == Image.open(io.BytesIO(last)).convert("RGB").tobytes()


def test_an_impossible_limit_is_an_error(plain_map):
    with pytest.raises(ValueError):
        render.animate([view_of()], game_map=plain_map, max_bytes=500)


def test_nothing_to_animate_is_an_error():
    with pytest.raises(ValueError):
        render.animate([], max_bytes=1000)


def test_at_most_one_frame_per_turn_showing_what_happened_in_all_its_phases(oneworld_map):
    from engine.core.protocol import ArrowView, HighlightView
    from render.animate import by_turn
    from render.focus import DISPLAY_W

    base = views.oneworld_view().model_copy(update={"highlights": (), "arrows": ()})
    moved = base.model_copy(update={"turn": 1, "phase": "movement",
                                    "highlights": (HighlightView(hex="0606", kind="moved"),),
                                    "arrows": (ArrowView(src="0506", dst="0606", kind="move"),)})
    fought = base.model_copy(update={"turn": 1, "phase": "combat",
                                     "highlights": (HighlightView(hex="0711", kind="combat"),)})
    later = base.model_copy(update={"turn": 2, "phase": "movement"})
    turns = by_turn([moved, fought, later])
    assert [t.turn for t in turns] == [1, 2]
    assert turns[0].phase == "combat"
    assert {(h.hex, h.kind) for h in turns[0].highlights} == {("0606", "moved"), ("0711", "combat")}
    assert [a.dst for a in turns[0].arrows] == ["0606"]
    data = render.animate([moved, fought, later], game_map=oneworld_map, max_bytes=10 * 1024 * 1024)
    img = Image.open(io.BytesIO(data))
    assert img.n_frames == 2
    assert img.width <= DISPLAY_W  # the whole map drawn for the chat width
