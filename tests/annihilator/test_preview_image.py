"""RULINGS Annihilator 4 and 11: the private answer to a sealed /charge carries the player's own board with
each charge's pattern drawn in its own colour; nobody else's board shows it."""

from __future__ import annotations

from bot.boards import render_board_images
from render.overlays import highlight_style
from tests.bot.test_trust import HOME, THREAD, drive, say


async def test_8_1_a_sealed_charge_is_answered_with_the_players_board(core):
    r = await say(core, "alice", "/game new game:annihilator opponent:bob")
    gid = r[0].game_id
    await say(core, "bob", "/game accept")
    await drive(core, gid, lambda g: g.state.step == "h_demo"
                and any(a.verb == "charge" for a in g.rules.legal_now(g.state, "Marines")))
    g = core.live[gid]
    marines = g.user_of("Marines")
    charge = next(a for a in g.rules.legal_now(g.state, "Marines") if a.verb == "charge")
    r = await say(core, marines, f"{charge.text()} game:{gid}", place=f"dm:{marines}", community="")
    ack = next(x for x in r if x.to == "private" and "sealed" in x.text)
    assert ack.board and ack.viewer == "Marines" and ack.game_id == gid
    assert not any(x.board and x.viewer == "Marines" for x in r if x.to != "private")
    own = core.live[gid].rules.view(core.live[gid].state, "Marines")
    public = core.live[gid].rules.view(core.live[gid].state, None)
    assert any(h.kind == "preview-1" for h in own.highlights)
    assert not any(h.kind.startswith("preview") for h in public.highlights)
    drawn = await render_board_images(core, gid, "Marines")
    assert drawn is not None and drawn.full.startswith(b"\x89PNG")
    assert HOME and THREAD


def test_each_charge_of_a_preview_has_its_own_colour():
    colours = [highlight_style(f"preview-{n}")[0] for n in range(1, 5)]
    assert len(set(colours)) == 4


def _marines_charging_the_cores():
    """The Marines' own view with two sealed charges from 1316 whose patterns reach both brain cores."""
    from engine.games.annihilator import RULES
    from tests.annihilator.helpers import M, play, position

    s = position(step="h_demo", units={"D1": "1316", "A1": "1316", "A2": "1316"})
    s, _ = play(s, M, "charge", unit="A1", pattern="A", at="1316", facing="N")
    s, _ = play(s, M, "charge", unit="D1", pattern="B", at="1316", facing="N")
    return RULES.view(s, M)


def test_8_2_a_brain_cores_tag_stays_readable_over_a_charges_outline_and_no_label_covers_it():
    """RULINGS Annihilator 11: the charge's outline and fill were drawn over the cores' "brain core"
    tags and the "A N" label of a charge's arrow was put on one; the tags now keep their pixels."""
    from PIL import ImageChops, ImageStat

    from engine.core.maps import load_map
    from render.compose import full_drawn
    from render.terrain import name_tags
    from tests.render.conftest import board_layout

    view = _marines_charging_the_cores()
    game_map = load_map(view.map)
    bare = full_drawn(view.model_copy(update={"highlights": (), "arrows": (), "markers": ()}), game_map)
    drawn = full_drawn(view, game_map)
    tags = name_tags(game_map, board_layout(game_map))
    cores = [h for h, (text, _) in tags.items() if text.startswith("brain core")]
    assert len(cores) == 2
    lit = {hv.hex for hv in view.highlights}
    assert {"1313", "1314"} <= lit  # pattern A from 1316 facing N reaches both cores
    for h in cores:
        x0, y0, x1, y1 = tags[h][1]
        box = (round(x0) + 3, round(y0) + 2, round(x1) - 3, round(y1) - 2)  # within its rounded corners
        diff = ImageChops.difference(drawn.image.crop(box).convert("RGB"), bare.image.crop(box).convert("RGB"))
        # only what shows through the tag's nearly opaque box (drawn over the outline: mean 31, max 246)
        assert max(ImageStat.Stat(diff).mean) < 12 and max(hi for _, hi in diff.getextrema()) < 40, h
    labels = [t for t in drawn.texts if t.kind == "label"]
    assert {t.text for t in labels} >= {"A N", "B N"}
    for t in labels:
        for h in cores:
            x0, y0, x1, y1 = tags[h][1]
            assert t.box[2] <= x0 or t.box[0] >= x1 or t.box[3] <= y0 or t.box[1] >= y1, (t.text, h)


def test_8_2_a_sealed_charges_odds_stay_in_view_where_its_full_label_has_no_room(monkeypatch):
    """On a brain core the marker "4: 2-1" has no room for its tag: it shows "2-1", not an empty disc."""
    import render.stacks as stacks
    from engine.core.maps import load_map
    from render.compose import full_drawn

    placed: dict[str, list[str]] = {}
    real = stacks.place_marker

    def spy(img, x, y, r, mv):
        placed.setdefault(mv.hex, []).append(mv.text)
        return real(img, x, y, r, mv)

    monkeypatch.setattr(stacks, "place_marker", spy)
    view = _marines_charging_the_cores()
    full_drawn(view, load_map(view.map))
    assert placed["1313"] == ["2-1"] and placed["1314"] == ["2-1"]
    assert "2: 3-1" in placed["1215"]  # where the tag has room, the whole label is kept
