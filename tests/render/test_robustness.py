"""Any view a game may build renders: odd colours, long texts, crowded hexes, pieces off the map."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import render
from engine.core.protocol import ArrowView, CounterView, HighlightView, MarkerView, View
from tests.render.conftest import decode

HEXES = st.sampled_from(["0101", "0505", "0909", "0305", "0000", "", "1234"])
TEXT = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=0x2FF), max_size=30)

counters = st.builds(
    CounterView,
    hex=HEXES,
    side=st.sampled_from(["A", "B", "C"]),
    label=TEXT,
    sub=TEXT,
    facing=st.one_of(st.none(), st.integers(-7, 12)),
    disrupted=st.booleans(),
    hidden=st.booleans(),
)
views = st.builds(
    View,
    game=st.just("test"),
    map=st.just("test-plain"),
    title=TEXT,
    turn=st.integers(0, 999),
    phase=TEXT,
    active=st.sampled_from(["", "A", "B", "Z"]),
    sides=st.dictionaries(
        st.sampled_from(["A", "B"]), st.sampled_from(["dark", "light", "#ff00ff", "mauve?", ""])
    ),
    counters=st.lists(counters, max_size=25).map(tuple),
    markers=st.lists(
        st.builds(MarkerView, hex=HEXES, kind=st.sampled_from(["chit", "god", "tower", "x" * 12]), text=TEXT),
        max_size=6,
    ).map(tuple),
    arrows=st.lists(
        st.builds(ArrowView, src=HEXES, dst=HEXES, label=TEXT, kind=st.sampled_from(["attack", "odd"])),
        max_size=4,
    ).map(tuple),
    highlights=st.lists(
        st.builds(HighlightView, hex=HEXES, kind=st.sampled_from(["moved", "loss", "new"])), max_size=6
    ).map(tuple),
    boxes=st.dictionaries(TEXT, st.lists(TEXT, max_size=4).map(tuple), max_size=3),
    caption=st.lists(st.text(max_size=200), max_size=3).map(tuple),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(view=views)
def test_any_view_renders_the_same_png_twice(plain_map, view):
    png = render.board(view, game_map=plain_map)
    assert render.board(view, game_map=plain_map) == png
    assert decode(png).width > 0


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(first=views, then=views)
def test_a_board_drawn_where_another_was_keeps_nothing_of_it(chitin_map, first, then):
    # board() draws on a kept canvas of the same size and wipes it only where the last board drew
    # its pieces: the frame stays, the pieces change.
    from render.compose import board_image, encode_png
    from render.terrain import static_layer

    pieces = ("counters", "markers", "arrows", "highlights", "title", "phase", "turn", "active")
    then = first.model_copy(update={k: getattr(then, k) for k in pieces})
    expected = board_image(then, game_map=chitin_map)
    assume(board_image(first, game_map=chitin_map).size == expected.size)
    render.board(first, game_map=chitin_map)
    assert render.board(then, game_map=chitin_map) == encode_png(expected, static_layer(chitin_map).image)


@settings(max_examples=10, deadline=None)
@given(view=views)
def test_any_map_less_view_renders_as_a_card(view):
    png = render.board(view.model_copy(update={"map": ""}))
    assert decode(png).width > 0


def test_control_characters_are_dropped_before_drawing():
    from render.style import printable

    assert printable("Fog\x85 C1\tB") == "Fog C1 B"
    assert printable("0507") == "0507"


def test_a_very_long_title_is_shortened_to_fit_the_bar(plain_map):
    from render.compose import board_image

    long = View(game="t", map="test-plain", title="War " * 80, turn=3, phase="Movement", active="A")
    img = board_image(long, game_map=plain_map)
    short = board_image(long.model_copy(update={"title": "War"}), game_map=plain_map)
    assert img.size == short.size
