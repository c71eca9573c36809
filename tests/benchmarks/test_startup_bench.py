"""Start-up with 1,000 games in play, and sealed orders in a long game (run with `make bench`).

Goals (issue: Always answering): the first interaction is answered within 2 s of start-up,
whatever the number of games; a sealed order at 5,000 actions costs at most 1.2 x one at 100.
Each figure is printed on one line as well as kept by pytest-benchmark.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import time

import pytest

from bot.commands import make_core
from bot.core import Limits
from bot.store import Store

GAMES = 1000


def _build(path) -> None:  # noqa: ANN001
    async def go() -> None:
        store = await Store.open(path)
        core = make_core(store, new_seed=lambda: "bench", limits=Limits(invites_per_member=10**6,
                                                                  invites_per_community=10**6))
        for n in range(GAMES):
            game = ("oneworld", "chitin", "annihilator")[n % 3]
            r = await core.handle_line(f"a{n}", f"console:#g{n}", f"/game new game:{game} opponent:b{n}")
            await core.handle_line(f"b{n}", r[0].place, "/game accept")
        await store.close()

    asyncio.run(go())


@pytest.fixture(scope="module")
def big_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("startup") / "games.db"
    _build(path)
    return path


def test_start_up_to_the_first_answer_with_1000_games(benchmark, big_store, tmp_path):
    def once() -> float:
        copy = tmp_path / f"copy-{time.perf_counter_ns()}.db"
        shutil.copy(big_store, copy)

        async def go() -> float:
            t0 = time.perf_counter()
            store = await Store.open(copy)
            core = make_core(store)
            await core.start(background=True)
            r = await core.handle_line("a500", "console:#g500", "/game status")
            took = time.perf_counter() - t0
            assert "Game #" in r[0].text
            if core.loader is not None:
                core.loader.cancel()
            await store.close()
            return took

        return asyncio.run(go())

    times = benchmark.pedantic(once, rounds=3, iterations=1)
    print(f"\nstart-up to first answer with {GAMES} games: {times:.3f} s (goal <= 2 s)")


def test_loading_every_game_after_start_up(benchmark, big_store, tmp_path):
    def once() -> float:
        copy = tmp_path / f"all-{time.perf_counter_ns()}.db"
        shutil.copy(big_store, copy)

        async def go() -> float:
            store = await Store.open(copy)
            core = make_core(store)
            t0 = time.perf_counter()
            await core.start()
            took = time.perf_counter() - t0
            assert len(core.live) == GAMES
            await store.close()
            return took

        return asyncio.run(go())

    took = benchmark.pedantic(once, rounds=1, iterations=1)
    print(f"\nloading all {GAMES} games (in the background after start-up): {took:.2f} s")


def _median_sealed(actions: int) -> float:
    async def go() -> float:
        store = await Store.open(":memory:")
        core = make_core(store)
        r = await core.handle_line("alice", "console:#t", "/game new game:toy opponent:bob pile:20")
        gid = r[0].game_id
        await core.handle_line("bob", "console:#t", "/game accept")
        g = core.live[gid]
        async with store.transaction():  # a long log: filler actions appended directly
            for seq in range(1, actions + 1):
                await store.append_action(gid, 1, seq, seat="A", user="alice", action='{"verb":"x","args":{}}',
                                          rolls="[]", dice_key="main", dice_seq=seq, secret=False, now="t")
        g.seq = actions
        before = g.state
        times = []
        for _ in range(30):
            t0 = time.perf_counter()
            r = await core.handle_line("alice", "dm:alice", f"/guess parity:odd game:{gid}")
            times.append(time.perf_counter() - t0)
            assert any("sealed" in x.text for x in r if x.to == "private"), r
            async with store.transaction():  # take the choice out again, to make it once more
                await store.db.execute("DELETE FROM secrets WHERE seq > ?", (actions,))
                await store.db.execute("DELETE FROM actions WHERE seq > ?", (actions,))
            g.state, g.seq = before, actions
        await store.close()
        return statistics.median(times)

    return asyncio.run(go())


def test_sealed_order_cost_does_not_grow_with_the_game(benchmark):
    short = _median_sealed(100)
    long = benchmark.pedantic(_median_sealed, args=(5000,), rounds=1, iterations=1)
    print(f"\nsealed order median: {short * 1000:.1f} ms at 100 actions, {long * 1000:.1f} ms at 5,000 "
          f"(ratio {long / short:.2f}, goal <= 1.2)")


def test_a_full_collection_with_1000_games_loaded(benchmark, big_store, tmp_path):
    """How long the collector's full pass holds the event loop once 1,000 games are loaded, and after
    start-up's objects are frozen out of its way (bot/discord_app.py, once the warm-up is done)."""
    import gc

    def once() -> tuple[float, float]:
        copy = tmp_path / f"gc-{time.perf_counter_ns()}.db"
        shutil.copy(big_store, copy)

        async def go() -> tuple[float, float]:
            store = await Store.open(copy)
            core = make_core(store)
            await core.start()
            assert len(core.live) == GAMES
            gc.collect()
            t0 = time.perf_counter()
            gc.collect()
            before = time.perf_counter() - t0
            gc.freeze()
            try:
                t0 = time.perf_counter()
                gc.collect()
                after = time.perf_counter() - t0
            finally:
                gc.unfreeze()
            await store.close()
            return before, after

        return asyncio.run(go())

    before, after = benchmark.pedantic(once, rounds=1, iterations=1)
    print(f"\na full collection with {GAMES} games loaded: {before * 1000:.0f} ms; "
          f"after start-up's objects are frozen: {after * 1000:.1f} ms")
