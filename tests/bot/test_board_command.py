"""`/game board view:focus|full around:HEX` (boards you can read in the chat)."""

from __future__ import annotations

import io

from bot.boards import board_attachments, render_board_images
from bot.console import Console
from tests.support.table import open_table


async def test_game_board_view_and_around_choose_the_images(core, tmp_path):
    g, say = await open_table(core, "console:#t", "game:oneworld")
    r = await say("alice", f"/game board view:focus around:0507 game:{g.id}")
    assert r[0].board and r[0].board_view == "focus" and r[0].around == "0507"
    drawn = await render_board_images(core, g.id, None, "0507")
    plain = await render_board_images(core, g.id, None)
    assert drawn is not None and plain is not None
    assert [n for n, _, _ in board_attachments(drawn, "focus")] in (["focus.png"], ["board.png"])
    assert [n for n, _, _ in board_attachments(drawn, "full")] in (["board.png"],)
    assert drawn.full == plain.full  # around frames the focus view only
    out = io.StringIO()
    console = Console(core, tmp_path, out)
    await console.deliver(r)
    assert out.getvalue().count("(board:") + out.getvalue().count("(focus view:") == 1


async def test_game_board_refuses_an_unknown_view_or_hex(core, store):
    g, say = await open_table(core, "console:#t", "game:oneworld")
    for bad in ("view:sideways", "around:9999", "around:hello"):
        r = await say("alice", f"/game board {bad} game:{g.id}")
        assert r[0].to == "private" and r[0].text.startswith("Sorry") and not r[0].board, (bad, r[0].text)
