"""The first board after a restart against the next one (run with `make bench`).

Goal (issue: Always answering): a game's first board after a restart costs at most 1.5 times the
next. Measured as a member waits for it: the bot is restarted on a store holding a game in play
(half of tests/scripts/chitin_small.txt played), start-up runs as the Discord client runs it
(games loaded in the background, then ``bot.boards.warm_up``), and the board post (focus view,
full map, alt text) is drawn through ``render_board_images`` from the loaded game.
Also printed, without a goal: the same for a game the warm-up did not draw (the map's layers only).
"""

from __future__ import annotations

import asyncio
import io
import statistics
import time

import pytest

from bot.boards import render_board_images, warm_up
from bot.commands import make_core
from bot.console import Console
from bot.store import Store
from render.sprites import clear_caches
from render.terrain import clear_cache
from tests.support.scripted import SCRIPTS

SCRIPT = "chitin_small"


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    path = tmp_path_factory.mktemp("first-board") / "games.db"

    async def go() -> None:
        store = await Store.open(path)
        try:
            console = Console(make_core(store), None, io.StringIO(), boards=False)
            await console.start()
            lines = (SCRIPTS / f"{SCRIPT}.txt").read_text().splitlines()
            for line in lines[: len(lines) // 2]:
                await console.run_line(line)
        finally:
            await store.close()

    asyncio.run(go())
    return path


def _restart_and_draw(path, games: int) -> tuple[float, float]:  # noqa: ANN001
    """(first board, median of the next five) in seconds, after a restart with cold caches."""
    clear_cache()
    clear_caches()

    async def go() -> tuple[float, float]:
        store = await Store.open(path)
        try:
            core = make_core(store)
            await core.start(background=True)
            await warm_up(core, ["chitin"], games=games)
            gid = max(core.live)
            t = time.perf_counter()
            first = await render_board_images(core, gid, None)
            took = time.perf_counter() - t
            assert first is not None and first.full
            nexts = []
            for _ in range(5):
                t = time.perf_counter()
                again = await render_board_images(core, gid, None)
                nexts.append(time.perf_counter() - t)
                assert again == first  # same view, same bytes
            return took, statistics.median(nexts)
        finally:
            await store.close()

    return asyncio.run(go())


def test_bench_first_board_after_a_restart(benchmark, played):
    runs = [_restart_and_draw(played, 12) for _ in range(5)]
    cold = [_restart_and_draw(played, 0) for _ in range(3)]
    benchmark.pedantic(_restart_and_draw, args=(played, 12), rounds=1, iterations=1)
    ratio = statistics.median(f / n for f, n in runs)
    plain = statistics.median(f / n for f, n in cold)
    print(f"\nfirst board after a restart / next: {ratio:.2f} (goal <= 1.5; first "
          f"{statistics.median(f for f, _ in runs) * 1000:.1f} ms, next {statistics.median(n for _, n in runs) * 1000:.1f} ms)"
          f"; a game the warm-up did not draw: {plain:.2f}")
    assert ratio <= 1.5
