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
