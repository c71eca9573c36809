"""The focus view, the header's who-is-to-move line, the alt text, the kept palette and prewarm."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import render
from engine.core.hexes import parse_ccrr
from engine.core.protocol import CounterView, HighlightView, MarkerView, View
from render.alttext import alt_text
from render.counters import fitted_sub
from render.focus import DISPLAY_W, focus, frame
from render.panel import result_text, to_move
from tests.render import views


def test_focus_frames_the_action_and_not_the_far_corners(oneworld_map):
    v = views.oneworld_view()
    f = focus(v, oneworld_map)
    assert f.image.width <= DISPLAY_W and not f.whole
    for h in ("0606", "0711", "0908"):
        assert parse_ccrr(h) in f.hexes
    assert parse_ccrr("0120") not in f.hexes and parse_ccrr("1301") not in f.hexes


def test_focus_around_a_hex_frames_that_hex(oneworld_map):
    hexes, _, _, whole = frame(views.oneworld_view(), oneworld_map, around="1215")
    assert parse_ccrr("1215") in hexes and parse_ccrr("0606") not in hexes and not whole


def test_with_nothing_done_the_focus_shows_the_side_to_move(oneworld_map):
    v = views.oneworld_view().model_copy(update={"highlights": (), "arrows": (), "active": "BORG"})
    hexes = focus(v, oneworld_map).hexes
    assert all(parse_ccrr(c.hex) in hexes for c in v.counters if c.side == "BORG" and c.hex in ("0405", "0606"))


def test_action_spread_over_the_map_draws_the_whole_map_for_the_chat_width(oneworld_map):
    corners = ("0101", "1301", "0121", "1321")
    v = views.oneworld_view().model_copy(
        update={"arrows": (), "highlights": tuple(HighlightView(hex=h, kind="moved") for h in corners)}
    )
    f = focus(v, oneworld_map)
    assert f.whole and f.image.width <= DISPLAY_W and len(f.hexes) == len(oneworld_map.hexes)


def test_previews_and_sealed_orders_never_steer_the_frame(annihilator_map):
    v = views.annihilator_view(annihilator_map)
    extra = tuple(HighlightView(hex=h, kind="preview") for h in ("0101", "2525", "1301"))
    assert frame(v.model_copy(update={"highlights": v.highlights + extra}), annihilator_map)[0] == frame(
        v, annihilator_map
    )[0]


def test_a_gods_lives_are_a_heart_and_the_number_never_a_cut_word():
    assert fitted_sub("god, 3 lives", 30) == "\u26653"
    assert fitted_sub("god, 1 life", 30) == "\u26651"
    assert fitted_sub("god, 3 lives", 200) == "god, 3 lives"


def test_header_says_both_choosing_in_secret_and_names_the_result():
    v = View(game="x", map="", title="T", active="BORG and CHEZ", sides={"BORG": "dark", "CHEZ": "light"})
    assert to_move(v) == "Both choosing in secret"
    over = View(
        game="chitin", map="", title="T", phase="over", active="Red",
        caption=("Victory points: Red 54 (lost 3 units), Blue -47 (lost 9 units)",
                 "Game over: all Blue units destroyed; winner Red"),
    )
    assert result_text(over) == "Red wins, 54 to -47"
    assert to_move(over) == "Game over: Red wins, 54 to -47"
    ow = View(game="oneworld", map="", title="OneWorld", phase="game over",
              caption=("Game over: BORG wins (CHEZ's god has lost all its lives).",))
    assert to_move(ow).startswith("Game over: BORG wins")


def test_alt_text_is_short_and_says_turn_phase_mover_and_events():
    v = views.oneworld_view()
    alt = alt_text(v)
    assert alt.startswith("OneWorld: The War Between the Gods, turn 7, Combat. CHEZ to move.")
    assert "Movement in 0606, 0506" in alt and "0711" in alt and "losses in 0908" in alt
    assert "only you" not in alt and "aspect" not in alt and "C10" not in alt
    long = v.model_copy(update={"title": "x" * 2000})
    assert len(alt_text(long)) <= 1024


def test_boards_gives_focus_then_full_with_alt_text(chitin_map):
    post = render.boards(views.chitin_view(), game_map=chitin_map)
    focus_img = Image.open(io.BytesIO(post.focus))
    full_img = Image.open(io.BytesIO(post.full))
    assert focus_img.width <= DISPLAY_W < full_img.width
    assert "turn 3" in post.alt and post.alt == alt_text(views.chitin_view())
    assert render.boards(views.chitin_view(), game_map=chitin_map) == post  # same view, same bytes


def test_a_players_secrets_stay_out_of_the_alt_text_and_the_frame(annihilator_map):
    public = views.annihilator_view(annihilator_map).model_copy(update={"private": ()})
    own = public.model_copy(
        update={"private": ("Your sealed order: charge 3 N at 0101",),
                "highlights": public.highlights + (HighlightView(hex="0101", kind="preview"),)}
    )
    post = render.boards(own, public=public, game_map=annihilator_map)
    assert "sealed" not in post.alt and "0101" not in post.alt
    assert post.alt == alt_text(public)


def test_chitin_legend_keys_the_unit_codes_on_the_board(chitin_map):
    from render.legend import legend_items

    labels = [label for label, _, _ in legend_items(views.chitin_view(), chitin_map)]
    assert "Gantua" not in labels  # the test view writes names, not codes
    v = views.chitin_view().model_copy(update={"counters": (
        CounterView(hex="0806", side="Red", label="R4", sub="GT 12-6"),
        CounterView(hex="0807", side="Red", label="R8", sub="PX 9-6"),
    )})
    labels = [label for label, _, _ in legend_items(v, chitin_map)]
    assert "Gantua" in labels and "Phlanx" in labels and "Worker" not in labels


def test_a_board_is_reduced_to_its_maps_kept_palette(chitin_map):
    from render.palette import palette_of
    from render.terrain import static_layer

    png = render.board(views.chitin_view(), game_map=chitin_map)
    img = Image.open(io.BytesIO(png))
    assert img.mode == "P"
    assert img.getpalette()[:48] == palette_of(static_layer(chitin_map).image).getpalette()[:48]


def test_prewarm_builds_every_layer_a_board_post_needs():
    from engine.core.maps import load_map
    from render.terrain import STATS, clear_cache

    clear_cache()
    assert render.prewarm(["oneworld"]) >= 6
    before = STATS["builds"]
    v = View(game="oneworld", map="oneworld", title="OneWorld", turn=1,
             counters=(CounterView(hex="0505", side="BORG", label="Stone", sub="B1"),),
             highlights=(HighlightView(hex="0505", kind="moved"),),
             markers=(MarkerView(hex="0111", kind="tower", text="BORG Tower"),))
    render.boards(v, game_map=load_map("oneworld"))
    assert STATS["builds"] == before


def test_a_destroyed_marker_leaves_the_brain_cores_name_readable():
    """Annihilator: the DESTROYED marker on a brain core hex sits above the hex's name tag."""
    from engine.core.maps import load_map
    from render.compose import board_image
    from render.panel import TITLE_H
    from render.terrain import number_font, static_layer

    m = load_map("annihilator")
    core = next(h for n, h in m.named.items() if n == "brain core 1")
    from engine.core.hexes import format_ccrr

    base = View(game="annihilator", map="annihilator", title="A", sides={"Marines": "blue"})
    marked = base.model_copy(update={"markers": (MarkerView(hex=format_ccrr(core), kind="destroyed", text="DESTROYED"),)})
    lay = static_layer(m).layout
    x, y = lay.centre(core)
    f = number_font(lay.size)
    top = y + TITLE_H + lay.half_height - f.size - 6
    box = (round(x - 20), round(top), round(x + 20), round(top + f.size))
    before, after = board_image(base, game_map=m).crop(box), board_image(marked, game_map=m).crop(box)
    assert before.tobytes() == after.tobytes()


def test_10_4_the_accosted_gods_hex_is_marked_while_the_accost_is_pending():
    """OneWorld: while a Child accosts a god (10.4) the god's hex carries an "accost" highlight,
    and the focus view frames it."""
    import re

    from engine.core.maps import load_map
    from tests.render.scripted import board_views_of

    pending = [p for _, p in board_views_of("oneworld_full_game") if any("accosts the god" in c for c in p.caption)]
    assert pending
    m = load_map("oneworld")
    for p in pending:
        where = next(re.search(r"accosts the god in (\d{4})", c).group(1) for c in p.caption if "accosts" in c)
        assert any(h.hex == where and h.kind == "accost" for h in p.highlights)
        assert parse_ccrr(where) in focus(p, m).hexes


@pytest.mark.parametrize("whole", [False, True])
def test_a_disrupted_d_reads_in_the_focus_view_inside_its_red_corner(chitin_map, whole):
    """8.033: a disrupted counter (out of command control too: the engine marks those disrupted)
    carries a "D" of at least 9 px shown 550 px wide, inside its red corner, even on the whole map."""
    from render.counters import _disrupted_leg
    from render.focus import COUNTER_PX

    unit = CounterView(hex="0710", side="Red", label="R4", sub="LR 6-3", facing=0, disrupted=True)
    v = View(game="chitin", map=chitin_map.id, title="Chitin", turn=2, phase="movement", active="Red",
             sides={"Red": "red", "Blue": "blue"}, counters=(unit,),
             highlights=(HighlightView(hex="0710", kind="moved"),))
    f = focus(v, chitin_map, whole=whole)
    (d,) = [t for t in f.texts if t.kind == "disrupted"]
    assert d.text == "D" and d.size * f.scale >= COUNTER_PX
    x0, y0, x1, _y1 = f.boxes[d.owner][1]
    leg = _disrupted_leg(x1 - x0, d.size)
    assert d.box[2] <= x1 and d.box[1] >= y0
    assert (x1 - d.box[0]) + (d.box[3] - y0) <= leg + 1.5  # the letter's far corner inside the triangle


def test_alt_text_names_no_counter_it_cannot_tell_moved():
    """Outlined hexes of a move are its start and its end; without arrows the view does not say which
    counter moved, so the alt text names none (it used to name every counter in those hexes,
    bystanders and the hexes left behind included)."""
    from engine.core.protocol import ArrowView

    c = CounterView
    v = View(game="annihilator", map="m", title="Annihilator", turn=2, phase="human movement", active="Marines",
             counters=(c(hex="2310", side="Marines", label="A1"), c(hex="2510", side="Marines", label="A2"),
                       c(hex="2410", side="Marines", label="D1")),
             highlights=tuple(HighlightView(hex=h, kind="moved") for h in ("2510", "2410", "2310")))
    alt = alt_text(v)
    assert "Movement in 2510, 2410, 2310" in alt
    assert "A2" not in alt and "D1" not in alt and "A1" not in alt
    # with arrows, each move is named with what stands at its end, in the moves' order
    v = v.model_copy(update={"arrows": (ArrowView(src="2510", dst="2410", kind="move"),
                                        ArrowView(src="2210", dst="2310", kind="move"))})
    alt = alt_text(v)
    assert "Moved D1 2510-2410, A1 2210-2310" in alt, alt


def test_alt_text_names_movers_only_where_the_arrows_account_for_the_whole_stack():
    """Two Children ran 0813-0809 into a hex where two others stood: the alt text read "Moved Stone B1
    and Fog B2 and Blade C1 and Blade C2 0813-0809" twice, naming two that never moved. Each move is
    said once; where the arrows do not account for everything at their end, only how many moved."""
    from engine.core.protocol import ArrowView

    c = CounterView
    stack = tuple(c(hex="0809", side=s, label=n, sub=i) for s, n, i in
                  (("BORG", "Stone", "B1"), ("BORG", "Fog", "B2"), ("CHEZ", "Blade", "C1"), ("CHEZ", "Blade", "C2")))
    run = ArrowView(src="0813", dst="0809", kind="move")
    v = View(game="oneworld", map="m", title="OneWorld", turn=3, phase="movement", active="CHEZ",
             counters=stack + (c(hex="0211", side="BORG", label="Stone", sub="B7"),
                               c(hex="0211", side="CHEZ", label="Fog", sub="C5")),
             arrows=(run, run, ArrowView(src="0210", dst="0211", kind="move")))
    alt = alt_text(v)
    assert "Moved 2 units 0813-0809, a unit 0210-0211." in alt, alt
    assert "B1" not in alt and "B7" not in alt
    alone = v.model_copy(update={"counters": stack[2:], "arrows": (run, run)})
    assert "Moved Blade C1 and Blade C2 0813-0809." in alt_text(alone), alt_text(alone)


@pytest.mark.parametrize("fight", ["loss", "combat"])
def test_alt_text_names_no_mover_where_a_fight_followed_the_move(fight: str):
    """BORG's Fog B7 moved 1012-1010 and died there; CHEZ's Blade C11, which held the hex, still stands
    in it, and the alt text read "Moved Blade C11 1012-1010". After a fight at a move's end, what stands
    there need not be what moved: only that a unit moved is said."""
    from engine.core.protocol import ArrowView

    v = View(game="oneworld", map="m", title="OneWorld", turn=5, phase="movement", active="BORG",
             counters=(CounterView(hex="1010", side="CHEZ", label="Blade", sub="C11"),
                       CounterView(hex="0805", side="BORG", label="Stone", sub="B2")),
             arrows=(ArrowView(src="1012", dst="1010", kind="move"), ArrowView(src="0806", dst="0805", kind="move")),
             highlights=(HighlightView(hex="1010", kind=fight),))
    alt = alt_text(v)
    assert "Moved a unit 1012-1010, Stone B2 0806-0805" in alt, alt
    assert "C11" not in alt


def test_a_long_phase_in_the_focus_header_drops_its_rule_number_before_it_is_cut():
    """The header read "human advance after demolitio..." at the focus view's width."""
    from render.focus import fit_phase
    from render.style import font

    small = font(13, "regular")
    phase = "human advance after demolition (step 3, 8.3)"
    assert fit_phase(phase, small, DISPLAY_W * 0.45) == "human advance after demolition"
    assert fit_phase("movement", small, DISPLAY_W * 0.45) == "movement"
    assert fit_phase(phase, small, 60).endswith("\u2026")


def test_alt_text_does_not_call_the_last_turns_moves_this_phases():
    """The board of a new phase still marks the last turn's moves (until the next order; OneWorld's and
    Chitin's ``previous`` changes): its alt text read "turn 2, movement. BORG to move. Moved Fog C12
    0318-0616", CHEZ's move of turn 1, as if it were BORG's of this phase. The marked events are said to
    be the latest, which holds of both."""
    from engine.core.protocol import ArrowView

    v = View(game="oneworld", map="m", title="OneWorld", turn=2, phase="movement", active="BORG",
             counters=(CounterView(hex="0616", side="CHEZ", label="Fog", sub="C12"),),
             arrows=(ArrowView(src="0318", dst="0616", kind="move"),))
    alt = alt_text(v)
    assert alt == "OneWorld, turn 2, movement. BORG to move. Latest changes: Moved Fog C12 0318-0616.", alt
    assert alt_text(v.model_copy(update={"arrows": ()})).endswith(" Nothing has happened yet this phase.")
