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
        if bad.startswith("view"):  # the refusal named focus and full, not both, the default
            assert all(w in r[0].text for w in ("both", "focus", "full")), r[0].text


async def test_start_up_warm_up_draws_the_recent_games_so_their_first_board_makes_no_new_sprite(store, tmp_path):
    """Issue 11: the first board after a restart is not slower than the next. After ``warm_up`` the
    first board of a recently active game is drawn from kept pieces only; a game beyond the
    ``games`` most recent ones still has its own pieces to draw."""
    from bot.boards import render_board_images, warm_up
    from bot.commands import make_core
    from render.sprites import PIECES, clear_caches
    from render.terrain import clear_cache
    from tests.support.table import open_table

    first = make_core(store, new_seed=lambda: "warm")
    old, _ = await open_table(first, "console:#old", "game:oneworld")
    new, say = await open_table(first, "console:#new", "game:chitin scenario:small")
    await say("alice", "/game status")
    clear_cache()
    clear_caches()
    again = make_core(store)
    await again.start(background=True)
    drawn = await warm_up(again, ["chitin", "oneworld"], games=1)
    assert drawn == 1
    made = PIECES.stats["made"]
    assert await render_board_images(again, new.id, None) is not None
    assert PIECES.stats["made"] == made, "the recent game's first board drew pieces the warm-up had not kept"
    assert await render_board_images(again, old.id, None) is not None
    assert PIECES.stats["made"] > made, "the older game was not warmed, so it should have drawn its own pieces"

async def _chitin_first_turn(core):
    """The Learning Scenario to Blue's first movement (tests/scripts/chitin_learning.txt): both
    sides placed, Blue to move, Red's counters within reach."""
    from pathlib import Path

    lines = (Path(__file__).resolve().parents[1] / "scripts" / "chitin_learning.txt").read_text().splitlines()
    plays = [ln for ln in lines if ln and not ln.startswith("#")]
    g, say = await open_table(core, "console:#t", plays[0].split(": ", 1)[1].replace("/game new ", "").replace(
        "opponent:bob ", ""))
    for line in plays[2:]:
        user, text = line.split(": ", 1)
        r = await say(user, text)
        assert not r[0].text.startswith("Sorry"), (line, r[0].text)
        if user == "alice" and text == "/done":
            break
    return g, say


async def test_6_04_zoc_on_hatches_exactly_the_engines_enemy_zones_of_control(core):
    from engine.core.hexes import format_ccrr
    from engine.games.chitin.board import Index

    g, say = await _chitin_first_turn(core)
    state = core.live[g.id].state
    assert state.active == "Blue"
    r = await say("bob", f"/game board zoc:on game:{g.id}")
    assert r[0].board and r[0].zoc, r[0].text
    from bot.boards import board_views

    views = await board_views(core, g.id, "Blue", zoc=True)
    assert views is not None
    red_zoc = {format_ccrr(h) for h in Index(state).zoc("Red")}
    assert "0805" in red_zoc and "0904" in red_zoc  # beside Red's R1 in 0804, R5 in 0904's neighbours
    for view in views:
        assert {h.hex for h in view.highlights if h.kind == "zoc"} == red_zoc
    plain = await board_views(core, g.id, "Blue")
    assert plain is not None and not any(h.kind == "zoc" for h in plain[0].highlights)
    drawn = await render_board_images(core, g.id, "Blue", zoc=True)
    bare = await render_board_images(core, g.id, "Blue")
    assert drawn is not None and bare is not None and drawn.full != bare.full
    assert drawn.alt == bare.alt  # the hatch is no event


async def test_zoc_is_refused_politely_outside_chitin(core):
    g, say = await open_table(core, "console:#t", "game:oneworld")
    r = await say("alice", f"/game board zoc:on game:{g.id}")
    assert r[0].text.startswith("Sorry") and "Chitin" in r[0].text and not r[0].board
    r = await say("alice", f"/game board zoc:maybe game:{g.id}")
    assert r[0].text.startswith("Sorry") and "on or off" in r[0].text and not r[0].board
    r = await say("alice", f"/game board zoc:off game:{g.id}")
    assert r[0].board and not r[0].zoc
