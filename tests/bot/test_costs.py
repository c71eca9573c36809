"""Costs that do not grow with a game: loading reads the newest snapshot and what follows it, long logs go
to a file with their newest lines, posted replies are pruned."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from bot.clocks import ClockKeeper
from bot.commands import make_core
from bot.core import Core
from bot.live import SNAPSHOT_EVERY, load_live
from bot.store import Store
from tests.support.table import open_toys, play_toy


async def _long_game(core: Core, actions: int) -> int:
    r = await core.handle_line("alice", "console:#t", "/game new game:toy opponent:bob pile:20")
    gid = r[0].game_id
    await core.handle_line("bob", "console:#t", "/game accept")
    await play_toy(core, gid, actions)
    return gid


async def test_load_live_reads_only_the_last_snapshot_and_the_actions_after_it(core, store, monkeypatch):
    gid = await _long_game(core, SNAPSHOT_EVERY + 4)
    read: list[int] = []
    original = store.actions

    async def counting(game_id, branch, upto=None, after=None):  # noqa: ANN001, ANN202
        rows = await original(game_id, branch, upto=upto, after=after)
        read.extend(r.seq for r in rows)
        return rows

    monkeypatch.setattr(store, "actions", counting)
    again = await load_live(store, await store.game(gid))
    assert again.state.model_dump_json() == core.live[gid].state.model_dump_json()
    assert again.seq == core.live[gid].seq
    assert read and min(read) > SNAPSHOT_EVERY


async def test_a_long_log_is_attached_with_its_newest_lines(core):
    gid = await _long_game(core, 56)
    r = await core.handle_line("carol", "console:#t", f"/game log last:500 game:{gid}")
    assert r[0].file_name and "attached" in r[0].text
    lines = r[0].file_text.splitlines()
    assert lines[-1].startswith("    ") or lines[-1].startswith(f"#{core.live[gid].seq} ")
    assert any(line.startswith(f"#{core.live[gid].seq} ") for line in lines)
    r = await core.handle_line("carol", "console:#t", f"/game log last:2 game:{gid}")
    assert not r[0].file_name and f"#{core.live[gid].seq} " in r[0].text


async def test_posted_replies_are_pruned_after_a_day(tmp_path):
    store = await Store.open(tmp_path / "o.db")
    try:
        now = [datetime(2026, 12, 1, tzinfo=UTC)]
        core = make_core(store, clock=lambda: now[0])
        replies = await core.handle_line("alice", "console:#t", "/game new game:toy opponent:bob")
        await core.posted(replies)
        r = await core.handle_line("bob", "console:#t", "/game accept")  # posted later: still unposted
        keeper = ClockKeeper(core, now=lambda: now[0])
        now[0] += timedelta(days=2)
        await keeper.tick()
        async with store.db.execute("SELECT posted, payload FROM outbox") as cur:
            rows = await cur.fetchall()
        assert rows and all(p == 0 for p, _ in rows), "only posted rows go"
        assert not any("challenges you" in json.loads(t)["text"] for _, t in rows)
        await core.posted(r)
    finally:
        await store.close()


async def test_start_up_answers_before_every_game_is_loaded(tmp_path):
    """Start-up loads the games in the background; a command about one not loaded yet loads it first."""
    store = await Store.open(tmp_path / "many.db")
    try:
        core = make_core(store)
        ids = await open_toys(core, 12)
        again = make_core(store)
        await again.start(background=True)
        assert len(again.live) < 12 and again.game_ids() == sorted(ids), "start returns before the games are loaded"
        r = await again.handle_line("carol", "console:#t7", "/game status")
        assert f"Game #{ids[7]}" in r[0].text
        r = await again.handle_line("p3", "dm:p3", "/guess parity:odd", community="")
        assert any("sealed" in x.text for x in r), r
        await again.loader
        assert sorted(again.live) == sorted(ids) and not again.unloaded
        for gid in ids:
            assert again.live[gid].state.model_dump_json() == core.live[gid].state.model_dump_json() or gid == ids[3]
    finally:
        await store.close()


async def test_db_check_works_through_many_games_in_worker_processes_with_progress(tmp_path):
    import sqlite3

    from bot.dbtools import check_store

    store = await Store.open(tmp_path / "check.db")
    try:
        core = make_core(store)
        await open_toys(core, 31, "pile:20")
        gid = await _long_game(core, SNAPSHOT_EVERY + 2)
        c = sqlite3.connect(tmp_path / "check.db")
        c.execute("UPDATE snapshots SET state = replace(state, '\"pile\":', '\"pile\":1') WHERE game_id = ?", (gid,))
        c.commit()
        c.close()
        seen: list[tuple[int, int]] = []
        problems = await check_store(store, workers=2, progress=lambda d, t: seen.append((d, t)))
        assert problems == [f"game #{gid} branch 1: snapshot at action {SNAPSHOT_EVERY} differs from replay"]
        assert seen and seen[-1] == (32, 32)
    finally:
        await store.close()


async def test_the_replay_animation_is_capped_cached_and_refused_while_drawn(core, monkeypatch):
    from PIL import Image

    from bot import boards

    gid = await _long_game(core, 40)
    gif = await boards.render_replay_gif(core, gid, 10 * 1024 * 1024, max_frames=5)
    frames = Image.open(__import__("io").BytesIO(gif)).n_frames
    assert 2 <= frames <= 5
    calls = []
    monkeypatch.setattr(boards, "_pool", lambda *_: calls.append(1) or None)  # a second drawing would fail
    assert await boards.render_replay_gif(core, gid, 10 * 1024 * 1024, max_frames=5) == gif
    assert calls == []
    boards._DRAWING.add(gid)
    try:
        r = await core.handle_line("alice", "console:#t", f"/game replay game:{gid}")
        assert r[0].to == "private" and "being drawn" in r[0].text
    finally:
        boards._DRAWING.discard(gid)


async def test_replays_asked_while_the_members_worker_draws_several_wait_for_it(core):
    """Replays of many games, asked one after another, each queued a drawing on the one worker that
    also works out members' hints: every hint and replay on every server waited behind them."""
    from bot import boards

    gid = await _long_game(core, 12)
    others = [10_001 + n for n in range(boards.REPLAYS_AT_ONCE)]
    boards._DRAWING.update(others[:-1])
    try:
        r = await core.handle_line("alice", "console:#t", f"/game replay game:{gid}")
        assert "being drawn" not in r[0].text and r[0].animation, r[0].text  # room for one more
        boards._DRAWING.add(others[-1])
        r = await core.handle_line("alice", "console:#t", f"/game replay game:{gid}")
        assert r[0].to == "private" and not r[0].animation and "ask again in a minute" in r[0].text, r[0].text
        # asked all at once, several pass that check before any is drawn: the drawing itself takes no more
        with pytest.raises(boards.ReplaysBusy):
            await boards.render_replay_gif(core, gid, 10 * 1024 * 1024, max_frames=3)
        boards._DRAWING.difference_update(others)
        gif = await boards.render_replay_gif(core, gid, 10 * 1024 * 1024, max_frames=3)
        boards._DRAWING.update(others)
        assert await boards.render_replay_gif(core, gid, 10 * 1024 * 1024, max_frames=3) == gif  # kept: no drawing
    finally:
        boards._DRAWING.difference_update(others)


async def _very_long_game(core: Core, actions: int) -> int:
    """A toy game kept going past its pile by a moderator's edits, to ``actions`` actions."""
    gid = await _long_game(core, 10)
    while core.live[gid].seq < actions:
        g = core.live[gid]
        if g.state.pile <= 3:
            await core.handle_line("mo", "console:#t", f"/mod edit op:pile n:20 reason:more game:{gid}",
                                   is_moderator=True)
        elif g.state.step == "guess":
            for u in ("alice", "bob"):
                await core.handle_line(u, f"dm:{u}", f"/guess parity:odd game:{gid}")
        else:
            await core.handle_line(g.user_of(g.state.taker), "console:#t", f"/take n:1 game:{gid}")
    return gid


def _replay_threads(monkeypatch) -> list[str]:  # noqa: ANN001
    """The names of the threads every whole-log replay (``bot.live.replay``) runs on from now on."""
    import threading

    import bot.live

    where: list[str] = []
    original = bot.live.replay

    def recording(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        where.append(threading.current_thread().name)
        return original(*args, **kwargs)

    monkeypatch.setattr(bot.live, "replay", recording)
    return where


async def test_whole_log_work_of_a_long_game_runs_off_the_event_loop(core, monkeypatch):
    """/game log and /game export of a long game fold its log in a worker thread, and /game replay
    draws in a worker process: the event loop's thread only routes."""
    import os
    import threading

    from bot import boards

    gid = await _very_long_game(core, 400)
    where = _replay_threads(monkeypatch)
    main = threading.current_thread().name
    log = await core.handle_line("carol", "console:#t", f"/game log last:500 game:{gid}")
    await core.handle_line("carol", "console:#t", f"/game export game:{gid}")
    assert where == []  # each action's lines were kept when it was committed: the log is a query
    async with core.store.transaction():  # a log written before the lines were kept
        await core.store.db.execute("UPDATE actions SET events = NULL WHERE game_id = ?", (gid,))
    again = await core.handle_line("carol", "console:#t", f"/game log last:500 game:{gid}")
    await core.handle_line("carol", "console:#t", f"/game export game:{gid}")
    assert again[0].file_text == log[0].file_text  # the same lines, replayed
    assert len(where) == 2 and main not in where
    monkeypatch.setattr(boards, "_POOLS", {})
    monkeypatch.setattr(boards, "_GIFS", type(boards._GIFS)())
    gif = await boards.render_replay_gif(core, gid, 10 * 1024 * 1024)
    assert gif and list(boards._POOLS) == [False], "a replay is drawn in the members' worker, not the bot's"
    workers = set(boards._POOLS[False]._processes)  # the pool's own processes drew it
    assert workers and os.getpid() not in workers
    boards._POOLS[False].shutdown()


async def test_serving_a_long_game_leaves_no_cyclic_garbage(core):
    """Commands, the log, the export, the replay and the board of a finished long game free what they
    make as they go (reference counting), so the collector's full passes stay short in a running bot
    (tests/benchmarks/conftest.py): a reference cycle made per command would pile up between them."""
    import gc

    from bot import boards

    gid = await _very_long_game(core, 120)
    await core.handle_line("alice", "console:#t", f"/game resign confirm:yes game:{gid}")
    other = await _long_game(core, 6)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        for line in (f"/game export game:{gid}", f"/game log last:50 game:{gid}", f"/game status game:{other}",
                     "/game list", f"/game board game:{gid}"):
            await core.handle_line("dave", "console:#t", line)
        await boards.render_replay_gif(core, gid, 10 * 1024 * 1024)
        await boards.render_board_images(core, gid, None)
        await play_toy(core, other, 16)
        gc.collect()
        kinds = sorted({type(o).__qualname__ for o in gc.garbage})
        assert gc.garbage == [], f"{len(gc.garbage)} objects in reference cycles: {kinds[:12]}"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()


async def test_a_rollback_of_a_long_game_keeps_its_snapshots_so_loading_it_reads_no_whole_log(core, monkeypatch):
    """A rollback puts the game on a new branch holding the first actions of the old; their snapshots are
    the same positions, so they are kept for it: loading the game after the rollback (and after every
    restart until the branch makes its own) reads only the actions after the newest one, instead of
    folding the whole log on the event loop."""
    import bot.live

    gid = await _very_long_game(core, 400)
    to = core.live[gid].seq - 3
    r = await core.handle_line("mo", "console:#t", f"/mod rollback to:{to} game:{gid} confirm:yes reason:x",
                               is_moderator=True)
    assert "rolled game" in " ".join(x.text for x in r), r[0].text
    row = await core.store.game(gid)
    assert row.branch == 2
    snaps = [seq for seq, _ in await core.store.snapshots(gid, 2)]
    assert snaps and max(snaps) == to - to % SNAPSHOT_EVERY, snaps
    folded: list[int] = []
    original_fold, original_replay = bot.live.fold, bot.live.replay

    def counting_fold(rules, state, steps, **kwargs):  # noqa: ANN001, ANN003, ANN202
        folded.append(len(steps))
        return original_fold(rules, state, steps, **kwargs)

    def counting_replay(rules, config, setup, steps, **kwargs):  # noqa: ANN001, ANN003, ANN202
        folded.append(len(steps))
        return original_replay(rules, config, setup, steps, **kwargs)

    monkeypatch.setattr(bot.live, "fold", counting_fold)
    monkeypatch.setattr(bot.live, "replay", counting_replay)
    again = await load_live(core.store, row)
    assert again.state.model_dump_json() == core.live[gid].state.model_dump_json()
    assert folded and max(folded) < SNAPSHOT_EVERY, folded


async def test_loading_a_long_game_without_a_near_snapshot_folds_it_off_the_event_loop(core, monkeypatch):
    """A game whose log must be folded from far back (a database from before snapshots, a take-back behind
    the newest one) is loaded in a worker thread: a rollback or a start-up does not stall every member."""
    import threading


    gid = await _very_long_game(core, 400)
    async with core.store.transaction():
        await core.store.db.execute("DELETE FROM snapshots WHERE game_id = ?", (gid,))
    where = _replay_threads(monkeypatch)
    again = await load_live(core.store, await core.store.game(gid))
    assert again.state.model_dump_json() == core.live[gid].state.model_dump_json()
    assert where and threading.current_thread().name not in where, where
