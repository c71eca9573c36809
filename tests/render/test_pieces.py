"""Pieces on the board: counters, facing, disrupted and face-down counters, stacks, highlights, markers, arrows."""

from __future__ import annotations

import math

import pytest

from engine.core.hexes import neighbor, parse_ccrr
from engine.core.protocol import ArrowView, CounterView, HighlightView, MarkerView
from render.compose import PANEL_W
from render.counters import (
    ARROWHEAD,
    DISRUPTED,
    FACING,
    counter_sprite,
    counter_width,
    facing_point,
    fitted_sub,
    stack_slots,
)
from render.geometry import SQRT3, bounds
from render.overlays import highlight_inset
from render.panel import TITLE_H
from render.style import ARROWS, HIGHLIGHTS, SIDE_COLOURS, fit_font, parse_colour, shade
from render.terrain import NUMBER_INK, number_font
from tests.render.conftest import board_layout, near, pixel, pixels, render, view_of

OPEN = parse_colour("#e6e0c8")
HEX = "0505"


def _counter(**kw) -> CounterView:
    base = dict(hex=HEX, side="A", label="Gantua", sub="12-6")
    base.update(kw)
    return CounterView(**base)


def _lone_counter_box(plain_map):
    lay = board_layout(plain_map)
    ((dx, dy, w),) = stack_slots(1, lay.size)
    cx, cy = lay.centre(parse_ccrr(HEX))
    return cx + dx, cy + dy, w


def test_counter_body_is_in_its_side_colour(plain_map):
    img = render(view_of(counters=(_counter(), _counter(hex="0303", side="B"))), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    assert pixel(img, (x - w / 2 + 3, y + 1)) == SIDE_COLOURS["red"]
    lay = board_layout(plain_map)
    bx, by = lay.centre(parse_ccrr("0303"))
    dy = stack_slots(1, lay.size)[0][1]
    assert pixel(img, (bx - w / 2 + 3, by + dy + 1)) == SIDE_COLOURS["blue"]


def test_a_hex_colour_names_a_side(plain_map):
    img = render(view_of(sides={"A": "#123456"}, counters=(_counter(),)), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    assert pixel(img, (x - w / 2 + 3, y + 1)) == (0x12, 0x34, 0x56)


def test_counter_label_is_drawn_in_contrasting_ink(plain_map):
    img = render(view_of(counters=(_counter(),)), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    box = img.crop((round(x - w * 0.4), round(y - w * 0.3), round(x + w * 0.4), round(y + w * 0.4)))
    light = sum(1 for p in pixels(box) if min(p) > 200)
    assert light > 30


@pytest.mark.parametrize("facing", range(6))
def test_facing_notch_sits_on_the_side_the_counter_faces(plain_map, facing):
    img = render(view_of(counters=(_counter(facing=facing),)), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    angle = math.radians((270, 330, 30, 90, 150, 210)[facing])
    px, py = facing_point(x, y, w, facing)
    out = (px + math.cos(angle) * w * 0.08, py + math.sin(angle) * w * 0.08)
    assert near(pixel(img, out), FACING, 30)
    back = facing_point(x, y, w, facing + 3)
    back_out = (back[0] - math.cos(angle) * w * 0.08, back[1] - math.sin(angle) * w * 0.08)
    assert not near(pixel(img, back_out), FACING, 60)


@pytest.mark.parametrize("facing", range(6))
def test_a_facing_head_reads_as_its_own_direction_and_no_other(plain_map, facing):
    """The head of the facing arrow was an equilateral triangle: one pointing NE is the same shape as one
    pointing S (turned by 60 degrees), so a stack facing NE looked as if it faced S, and SE as N. Seen
    from the head's middle, it must reach furthest towards its own direction, clearly further than
    towards any other of the six."""
    img = render(view_of(counters=(_counter(facing=facing),)), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    r = int(w)
    head = [(i, j) for i in range(int(x) - r, int(x) + r) for j in range(int(y) - r, int(y) + r)
            if near(img.getpixel((i, j))[:3], FACING, 30)]
    assert len(head) > 10
    cx, cy = sum(p[0] for p in head) / len(head), sum(p[1] for p in head) / len(head)

    def reach(f: int) -> float:
        a = math.radians((270, 330, 30, 90, 150, 210)[f])
        return max((i - cx) * math.cos(a) + (j - cy) * math.sin(a) for i, j in head)

    others = max(reach(f) for f in range(6) if f != facing)
    assert reach(facing) > 1.15 * others, (reach(facing), others)


def test_facing_north_points_up_and_south_east_points_right_and_down():
    x, y = facing_point(0, 0, 40, 0)
    assert (x, y) == pytest.approx((0, -20))
    x, y = facing_point(0, 0, 40, 2)
    assert x > 0 and y > 0


def test_disrupted_counter_carries_a_red_corner_and_stripe(plain_map):
    img = render(view_of(counters=(_counter(disrupted=True),)), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    corner = (x + w / 2 - w * 0.03, y - w / 2 + w * 0.36)
    assert near(pixel(img, corner), DISRUPTED, 10)
    assert near(pixel(img, (x - w * 0.3, y + w / 2 - 2)), DISRUPTED, 10)
    plain = render(view_of(counters=(_counter(),)), plain_map)
    assert pixel(plain, corner) == SIDE_COLOURS["red"]


def test_face_down_counter_reveals_nothing_of_itself(plain_map):
    a = render(view_of(counters=(_counter(hidden=True, label="Gantua", sub="12-6"),)), plain_map)
    b = render(view_of(counters=(_counter(hidden=True, label="Basic", sub="1-1"),)), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    box = (round(x - w), round(y - w), round(x + w), round(y + w))
    assert a.crop(box).tobytes() == b.crop(box).tobytes()
    assert pixel(a, (x - w / 2 + 3, y + w * 0.3)) == shade(SIDE_COLOURS["red"], 0.7)


def _inside_hex(x: float, y: float, size: float) -> bool:
    return abs(y) <= SQRT3 / 2 * size + 1e-6 and abs(x) + abs(y) / SQRT3 <= size + 1e-6


@pytest.mark.parametrize("n", range(3, 9))
@pytest.mark.parametrize("size", [30, 34, 36])
def test_a_stack_of_three_or_more_fits_inside_its_hex_under_the_number(n, size):
    slots = stack_slots(n, size)
    assert len(slots) == n
    # The number's ink and its 2 px halo, from 2 px under the hex's top edge.
    number_bottom = -SQRT3 / 2 * size + 2 + number_font(size).getbbox("1313", anchor="mt")[3] + 2
    for x, y, w in slots:
        assert y - w / 2 >= number_bottom, (n, y, w)
        for cx in (x - w / 2, x + w / 2):
            for cy in (y - w / 2, y + w / 2):
                assert _inside_hex(cx, cy, size), (n, x, y, w)


@pytest.mark.parametrize("n", range(2, 9))
def test_stacked_counters_do_not_overlap(n):
    slots = stack_slots(n, 34)
    for i, (x1, y1, w1) in enumerate(slots):
        for x2, y2, w2 in slots[i + 1 :]:
            assert abs(x1 - x2) >= (w1 + w2) / 2 or abs(y1 - y2) >= (w1 + w2) / 2


def test_small_stacks_keep_counters_big_enough_to_read():
    assert all(w >= 0.65 * 34 for _, _, w in stack_slots(2, 34))
    assert all(w >= 18 for _, _, w in stack_slots(3, 30))  # still labelled
    assert stack_slots(1, 34)[0][2] == counter_width(34)


def test_eight_counters_in_a_hex_draw_the_top_one_and_a_badge(plain_map):
    from render.compose import full_drawn

    cvs = tuple(_counter(side="AB"[i % 2], label=f"U{i}", sub="") for i in range(8))
    img = render(view_of(counters=cvs), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    assert near(pixel(img, (x - w / 2 + 3, y + 1)), SIDE_COLOURS["red"], 25)  # U0, at full size
    drawn = full_drawn(view_of(counters=cvs), plain_map)
    assert [t.text for t in drawn.texts if t.kind == "counter"] == ["U0"]
    assert [t.text for t in drawn.texts if t.kind == "badge"] == ["+7"]
    # The close-up repeats the four blue counters in the panel, each at full size.
    assert (
        _panel_count(img, SIDE_COLOURS["blue"])
        - _panel_count(render(view_of(), plain_map), SIDE_COLOURS["blue"])
        > 4 * 900
    )


def _panel_count(img, colour) -> int:
    panel = img.crop((img.width - PANEL_W, 60, img.width, img.height))
    return sum(1 for p in pixels(panel) if p == colour)


def test_stacks_of_three_are_repeated_in_the_panel_and_pairs_are_not(plain_map):
    blue = SIDE_COLOURS["blue"]
    base = _panel_count(render(view_of(), plain_map), blue)
    two = render(view_of(counters=tuple(_counter(side="B", label=f"U{i}") for i in range(2))), plain_map)
    three = render(view_of(counters=tuple(_counter(side="B", label=f"U{i}") for i in range(3))), plain_map)
    assert _panel_count(two, blue) == base
    assert _panel_count(three, blue) - base > 3 * 900


@pytest.mark.parametrize("kind", sorted(HIGHLIGHTS))
def test_highlight_outlines_the_hex_in_its_kind_colour(plain_map, kind):
    img = render(view_of(highlights=(HighlightView(hex=HEX, kind=kind),)), plain_map)
    lay = board_layout(plain_map)
    h = parse_ccrr(HEX)
    pts = lay.corners(h, highlight_inset(lay.size))
    mid = ((pts[1][0] + pts[2][0]) / 2, (pts[1][1] + pts[2][1]) / 2)
    assert near(pixel(img, mid), HIGHLIGHTS[kind][0], 12)
    assert pixel(img, lay.centre(h)) != OPEN  # tinted


def test_highlight_kinds_have_distinct_colours():
    assert len({c for c, _, _ in HIGHLIGHTS.values()}) == len(HIGHLIGHTS) >= 6


def test_a_zone_of_control_is_a_light_hatch_alone_under_the_other_highlights(plain_map):
    """6.04, ``/game board zoc:on``: the hex is hatched, not tinted or outlined, and a moved
    highlight on the same hex keeps its place at the hex edge."""
    lay = board_layout(plain_map)
    h = parse_ccrr(HEX)
    x, y = lay.centre(h)
    box = (round(x - lay.size * 0.5), round(y - lay.size * 0.5), round(x + lay.size * 0.5), round(y + lay.size * 0.5))
    bare = render(view_of(), plain_map)
    zoc = render(view_of(highlights=(HighlightView(hex=HEX, kind="zoc"),)), plain_map)
    changed = sum(1 for a, b in zip(pixels(bare.crop(box)), pixels(zoc.crop(box))) if a != b)
    area = (box[2] - box[0]) * (box[3] - box[1])
    assert 0.05 * area < changed < 0.5 * area  # lines across the hex, not a tint over all of it
    far = lay.centre(parse_ccrr("0909"))
    assert pixel(zoc, far) == pixel(bare, far)
    moved = HighlightView(hex=HEX, kind="moved")
    both = render(view_of(highlights=(moved, HighlightView(hex=HEX, kind="zoc"))), plain_map)
    alone = render(view_of(highlights=(moved,)), plain_map)
    pts = lay.corners(h, highlight_inset(lay.size))
    mid = ((pts[1][0] + pts[2][0]) / 2, (pts[1][1] + pts[2][1]) / 2)
    assert pixel(both, mid) == pixel(alone, mid) and near(pixel(both, mid), HIGHLIGHTS["moved"][0], 12)


def test_a_zone_of_control_never_steers_the_focus_view(oneworld_map):
    from render.focus import frame
    from tests.render import views

    base = views.oneworld_view()
    hatched = base.model_copy(update={"highlights": base.highlights + (HighlightView(hex="0503", kind="zoc"),)})
    assert parse_ccrr("0503") not in frame(base, oneworld_map)[0]
    assert frame(hatched, oneworld_map)[0] == frame(base, oneworld_map)[0]


def test_two_highlights_on_one_hex_both_show(plain_map):
    img = render(
        view_of(highlights=(HighlightView(hex=HEX, kind="moved"), HighlightView(hex=HEX, kind="loss"))),
        plain_map,
    )
    lay = board_layout(plain_map)
    h = parse_ccrr(HEX)
    found = {k: 0 for k in ("moved", "loss")}
    x, y = lay.centre(h)
    for p in pixels(
        img.crop((round(x - lay.size), round(y - lay.size), round(x + lay.size), round(y + lay.size)))
    ):
        for k in found:
            if near(p, HIGHLIGHTS[k][0], 12):
                found[k] += 1
    assert all(v > 20 for v in found.values()), found


@pytest.mark.parametrize(
    "kind", ["chit", "charge", "clear", "obstructed", "tower", "impact", "god", "beacon"]
)
def test_each_marker_kind_is_drawn_and_differs_from_the_others(plain_map, kind):
    img = render(view_of(markers=(MarkerView(hex=HEX, kind=kind, text="7"),)), plain_map)
    empty = render(view_of(), plain_map)
    lay = board_layout(plain_map)
    x, y = lay.centre(parse_ccrr(HEX))
    box = (round(x - 15), round(y - 12), round(x + 15), round(y + 18))
    assert img.crop(box).tobytes() != empty.crop(box).tobytes()
    other = render(
        view_of(markers=(MarkerView(hex=HEX, kind="chit" if kind != "chit" else "god", text="7"),)), plain_map
    )
    assert img.crop(box).tobytes() != other.crop(box).tobytes()


def test_markers_move_aside_for_counters(plain_map):
    from render.stacks import BESIDE

    img = render(view_of(markers=(MarkerView(hex=HEX, kind="charge"),), counters=(_counter(),)), plain_map)
    x, y, w = _lone_counter_box(plain_map)
    assert pixel(img, (x - w / 2 + 3, y + 1)) == SIDE_COLOURS["red"]
    lay = board_layout(plain_map)
    cx, cy = lay.centre(parse_ccrr(HEX))
    mx, my = cx + BESIDE[0][0] * lay.size, cy + BESIDE[0][1] * lay.size
    assert mx < x - w / 2  # left of the counter, in the hex edge's slot
    slot = img.crop((round(mx - 6), round(my - 6), round(mx + 6), round(my + 6)))
    assert sum(1 for p in pixels(slot) if near(p, (48, 44, 44), 15)) > 10


def test_attack_arrow_runs_from_source_to_target_with_its_odds(plain_map):
    src, dst = parse_ccrr("0303"), parse_ccrr("0306")
    img = render(view_of(arrows=(ArrowView(src="0303", dst="0306", label="3-1"),)), plain_map)
    lay = board_layout(plain_map)
    (x1, y1), (x2, y2) = lay.centre(src), lay.centre(dst)
    for t in (0.3, 0.5, 0.65):
        assert near(pixel(img, (x1 + (x2 - x1) * t, y1 + (y2 - y1) * t)), ARROWS["attack"], 10), t
    assert pixel(img, (x1, y1 - lay.size * 0.3)) == OPEN  # nothing drawn behind the tail
    # the odds pill sits outside the defender's hex, on the side away from the attacker
    mx, my = x2, y2 + lay.size * 1.2
    pill = img.crop((round(mx - 12), round(my - 6), round(mx + 12), round(my + 6)))
    assert sum(1 for p in pixels(pill) if p == (255, 255, 255)) > 20
    assert sum(1 for p in pixels(pill) if near(p, ARROWS["attack"], 30)) > 5


def test_pieces_off_the_map_are_not_drawn_on_it(plain_map):
    v = view_of(
        counters=(_counter(hex="9999"), _counter(hex="")),
        markers=(MarkerView(hex="0000", kind="chit"),),
        arrows=(ArrowView(src="0101", dst="9999"),),
        highlights=(HighlightView(hex="xx", kind="loss"),),
    )
    lay = board_layout(plain_map)
    x0, y0, x1, y1 = bounds(lay.size, plain_map.hexes)
    area = (round(x0 + lay.ox), round(y0 + lay.oy), round(x1 + lay.ox), round(y1 + lay.oy))
    assert render(v, plain_map).crop(area).tobytes() == render(view_of(), plain_map).crop(area).tobytes()


def test_counters_off_the_map_are_listed_in_the_panel(plain_map):
    img = render(view_of(counters=(_counter(hex=""), _counter(hex="", side="B"))), plain_map)
    empty = render(view_of(), plain_map)
    for colour in (SIDE_COLOURS["blue"], SIDE_COLOURS["red"]):
        assert _panel_count(img, colour) - _panel_count(empty, colour) > 900


def test_neighbouring_hex_stays_clear_of_a_lone_counter(plain_map):
    img = render(view_of(counters=(_counter(),)), plain_map)
    lay = board_layout(plain_map)
    for d in range(6):
        assert pixel(img, lay.centre(neighbor(parse_ccrr(HEX), d))) == OPEN


def test_a_crowd_of_twenty_is_drawn_without_spilling_and_counted(plain_map):
    cvs = tuple(_counter(label=f"U{i}", sub="") for i in range(20))
    slots = stack_slots(20, 34)
    assert len(slots) == 12
    for x, y, w in slots:
        assert _inside_hex(x - w / 2, y - w / 2, 34) and _inside_hex(x + w / 2, y + w / 2, 34)
    img = render(view_of(counters=cvs), plain_map)
    lay = board_layout(plain_map)
    for d in range(6):
        assert pixel(img, lay.centre(neighbor(parse_ccrr(HEX), d))) == OPEN


def test_a_kind_with_a_known_prefix_is_drawn_in_that_style(plain_map):
    carried = render(view_of(markers=(MarkerView(hex=HEX, kind="chit-carried", text="A 20"),)), plain_map)
    chit = render(view_of(markers=(MarkerView(hex=HEX, kind="chit", text="A 20"),)), plain_map)
    lay = board_layout(plain_map)
    x, y = lay.centre(parse_ccrr(HEX))
    box = (round(x - 20), round(y - 20), round(x + 20), round(y + 25))
    assert carried.crop(box).tobytes() == chit.crop(box).tobytes()


def test_a_crowded_board_keeps_its_panel_beside_the_map(chitin_map):
    from engine.core.hexes import format_ccrr
    from render.terrain import static_layer

    hexes = sorted(chitin_map.hexes)[::9][:30]
    cvs = tuple(
        _counter(hex=format_ccrr(h), side="AB"[k % 2], label=f"U{k}") for h in hexes for k in range(3)
    )
    img = render(view_of(map="test-chitin", counters=cvs), chitin_map)
    assert img.height == static_layer(chitin_map).image.height + TITLE_H


def test_move_and_attack_arrows_pass_under_counters_so_no_text_is_covered(plain_map):
    lay = board_layout(plain_map)
    x, y, w = _lone_counter_box(plain_map)
    on_counter = (x, y + w * 0.4)
    for kind, over in (("move", False), ("attack", False)):
        arrow = ArrowView(src="0503", dst="0507", kind=kind)
        img = render(
            view_of(counters=(_counter(side="C"),), arrows=(arrow,), sides={"C": "green"}), plain_map
        )
        assert near(pixel(img, on_counter), ARROWS[kind], 10) is over, kind
        assert (pixel(img, on_counter) == SIDE_COLOURS["green"]) is not over, kind
    assert lay.centre(parse_ccrr("0503"))[0] == pytest.approx(x)


@pytest.mark.parametrize("w", [18, 20, 24, 27, 37])
def test_a_sub_label_is_never_cut_off(w):
    sub = fitted_sub("SR 3-2-4", w)
    assert sub in ("SR 3-2-4", "3-2-4", "")
    if sub:
        assert fit_font(sub, w * 0.94, round(w * 0.27), "condensed").getlength(sub) <= w * 0.94
    assert fitted_sub("SR 3-2-4", 24) == "3-2-4"  # the figures rather than nothing
    assert fitted_sub("W 1d+A", counter_width(34)) == "W 1d+A"  # a lone Chitin counter
    assert fitted_sub("SR 3-2-4", 40) == "SR 3-2-4"


def test_a_pair_of_counters_keeps_its_sub_labels_inside_the_counters():
    w = stack_slots(2, 30)[0][2]
    plain = counter_sprite(w, _counter(label="R2", sub=""), SIDE_COLOURS["blue"])
    long_sub = counter_sprite(w, _counter(label="R2", sub="SR 3-2-4"), SIDE_COLOURS["blue"])
    # Text reaching past the counter would widen its picture.
    assert long_sub.image.size == plain.image.size and (long_sub.ax, long_sub.ay) == (plain.ax, plain.ay)


def _number_box(game_map, hx: str):
    lay = board_layout(game_map)
    cx, cy = lay.centre(parse_ccrr(hx))
    f = number_font(lay.size)
    x0, y0, x1, y1 = f.getbbox(hx, anchor="mt")
    top = cy - lay.half_height + 2
    return (round(cx + x0), round(top + y0), round(cx + x1), round(top + y1))


@pytest.mark.parametrize(
    "what",
    [
        dict(highlights=(HighlightView(hex=HEX, kind="loss"),)),
        dict(counters=tuple(_counter(label=f"U{i}") for i in range(4))),
        dict(markers=(MarkerView(hex=HEX, kind="impact", text="Assault ship"),)),
    ],
)
def test_the_hex_number_stays_readable_over_pieces(plain_map, what):
    img = render(view_of(**what), plain_map)
    box = _number_box(plain_map, HEX)
    inks = pixels(img.crop(box))
    # The number is drawn on top in solid dark ink on a light halo, whatever lies under it.
    assert sum(1 for p in inks if p == NUMBER_INK) >= 20
    assert sum(1 for p in inks if min(p) >= 225) >= 20
    # A hex with nothing on it keeps the number of the map's layer, with no halo.
    other = _number_box(plain_map, "0909")
    assert not any(min(p) >= 225 for p in pixels(img.crop(other)))


def test_a_marker_text_too_long_for_its_disc_is_on_a_tag_not_cut_off():
    from render.overlays import TAG_FONT, draw_marker
    from render.sprites import drawn_around
    from render.style import fit_font

    r = 0.24 * 30  # a marker beside the counters of a hex on the Annihilator map
    mv = MarkerView(hex=HEX, kind="charges", text="A3: 2")
    sprite = drawn_around(4 * r, lambda d, x, y: draw_marker(d, x, y, r, mv))
    tl = fit_font(mv.text, r * 1.7, TAG_FONT, "condensed", TAG_FONT).getlength(mv.text)
    assert tl > 2 * r
    # The tag reaches past both ends of the text, opaque at the text's height.
    for dx in (-tl / 2 - 1, tl / 2 + 1):
        assert sprite.image.getpixel((round(sprite.ax + dx), sprite.ay))[3] == 255


def test_the_legend_names_each_marker_kind_once_and_capitalised(plain_map):
    from render.legend import legend_items

    kinds = ["charge", "charges", "cache", "destroyed", "charge"]
    view = view_of(markers=tuple(MarkerView(hex=HEX, kind=k, text="x") for k in kinds))
    labels = [label for label, key, _ in legend_items(view, plain_map) if key[0] == "marker"]
    assert labels == ["Charge placed", "Charges carried", "Charge cache", "Destroyed"]


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("size", [30, 34, 36])
def test_a_north_facing_arrowhead_ends_under_the_hex_number(n, size):
    number_bottom = -SQRT3 / 2 * size + 2 + number_font(size).getbbox("1313", anchor="mt")[3] + 2
    for x, y, w in stack_slots(n, size):
        _, tip_y = facing_point(x, y, w, 0)
        assert tip_y - w * ARROWHEAD >= number_bottom - 0.5, (n, size)


def test_a_chitin_air_unit_sits_in_a_corner_slot_off_the_chit(plain_map):
    """RULINGS Chitin 10 (8.011): an air unit (no facing) is drawn off the centre, so the chit
    there stays in view; a ground unit in the same place keeps the centre."""
    from render.compose import full_drawn
    from tests.render.test_legibility import overlap_faults

    lay = board_layout(plain_map)
    cx, cy = lay.centre(parse_ccrr(HEX))
    chit = MarkerView(hex=HEX, kind="chit", text="A 20")
    plunge = CounterView(hex=HEX, side="A", label="R7", sub="PL 4")
    drawn = full_drawn(view_of(game="chitin", counters=(plunge,), markers=(chit,)), plain_map)
    ((_, unit),) = [(k, b) for k, b in drawn.boxes if k == "counter"]
    ((_, disc),) = [(k, b) for k, b in drawn.boxes if k == "marker"]
    assert not (unit[0] <= cx <= unit[2] and unit[1] <= cy <= unit[3])  # the centre is clear
    assert unit[0] > cx and unit[1] >= cy - lay.size * 0.1  # in the lower right
    assert disc[2] <= unit[0] and not overlap_faults(drawn)
    assert any(t.text == "R7" for t in drawn.texts)
    walker = plunge.model_copy(update={"facing": 0})
    ground = full_drawn(view_of(game="chitin", counters=(walker,), markers=(chit,)), plain_map)
    ((_, box),) = [(k, b) for k, b in ground.boxes if k == "counter"]
    assert box[0] < cx < box[2]


def test_markers_beside_a_big_stack_keep_off_its_counter_text(plain_map):
    """Charge tags and an impact star beside a stack of nine: in the hex edge's slots, none over the
    top counter's text; a tag too wide for its slot keeps its text only where that covers nothing."""
    from render.compose import full_drawn
    from tests.render.test_legibility import overlap_faults

    cvs = tuple(_counter(side="B", label=f"U{i}", sub="SR 3-2-4") for i in range(9))
    mvs = (MarkerView(hex=HEX, kind="charges", text="A5: 1"), MarkerView(hex=HEX, kind="impact"),
           MarkerView(hex=HEX, kind="charge"), MarkerView(hex=HEX, kind="charges", text="A6: 2"))
    drawn = full_drawn(view_of(counters=cvs, markers=mvs), plain_map)
    assert [t.text for t in drawn.texts if t.kind == "counter"] == ["U0", "SR 3-2-4"]
    assert len([b for k, b in drawn.boxes if k == "marker"]) == 4
    assert [t.text for t in drawn.texts if t.kind == "badge"] == ["+8"]
    assert overlap_faults(drawn) == []


def test_one_result_label_per_combat_outside_the_defenders_hex(plain_map):
    """Three stacks attacking one hex give one label, not three, and it covers none of the counters."""
    from PIL import Image, ImageDraw

    from render.overlays import result_labels

    lay = board_layout(plain_map)
    dst = parse_ccrr("0505")
    arrows = [
        (parse_ccrr(s), dst, ArrowView(src=s, dst="0505", label="3-1, rolled 1: DR")) for s in ("0404", "0504", "0604")
    ]
    img = Image.new("RGB", (900, 900), (255, 255, 255))
    cx, cy = lay.centre(dst)
    counters = [(lay.centre(a)[0] - 15, lay.centre(a)[1] - 10, lay.centre(a)[0] + 15, lay.centre(a)[1] + 20)
                for a, _, _ in arrows] + [(cx - 15, cy - 10, cx + 15, cy + 20)]
    labels = result_labels(ImageDraw.Draw(img), lay, arrows, counters, 10)
    assert [t for t, _ in labels] == ["3-1, rolled 1: DR"]
    (_, (x0, y0, x1, y1)), = labels
    lx, ly = (x0 + x1) / 2, (y0 + y1) / 2
    assert ((lx - cx) ** 2 + (ly - cy) ** 2) ** 0.5 > lay.half_height  # outside the defender's hex
    assert not any(min(x1, b[2]) > max(x0, b[0]) and min(y1, b[3]) > max(y0, b[1]) for b in counters)


def test_a_badge_takes_a_corner_of_its_counter_rather_than_cover_the_next_hexs_number():
    """A "+N" badge goes beside its counter's right edge; where the next hex's number is there (a
    small focus view), it goes off a corner clear of every number, and where no place is clear (a
    crowded view), beside the right edge over the number, never left out."""
    from PIL import Image

    from render.stacks import Drawn, meets, place_badges

    def badge(numbers):
        d = Drawn(Image.new("RGB", (200, 200)))
        d.boxes = [("counter", (90.0, 90.0, 110.0, 110.0))]
        d.pending = [(100.0, 100.0, 20.0, "+2", 9)]
        place_badges(d, numbers)
        return [b for k, b in d.boxes if k == "badge"]

    (free,) = badge([])
    assert free[0] > 110 and free[1] < 100 < free[3]  # right of the counter, level with its middle
    numbers = [(112.0, 95.0, 141.0, 108.0), (59.0, 95.0, 88.0, 108.0)]  # the next hexes', either side
    (moved,) = badge(numbers)
    assert not any(meets(moved, n) for n in numbers)
    assert moved[0] > 110 and (moved[1] >= 110 or moved[3] <= 90)  # off a right corner of the counter
    everywhere = [(0.0, 0.0, 200.0, 89.0), (0.0, 111.0, 200.0, 200.0), (0.0, 0.0, 89.0, 200.0), (111.0, 0.0, 200.0, 200.0)]
    assert badge(everywhere) == [free]
