"""A store of 1,000 real games of 300+ actions each (run with `make bench`).

Prints on one line each: `hexhive db check` of the store with 2 workers (goal: under a minute on a
2-core machine), and the store's size per 100 actions once posted replies are pruned.
The games are one scripted Chitin game (tests/scripts/chitin_small.txt, played through the console)
copied 1,000 times row by row, so every copy is a real log with its dice, snapshots and secrets.
"""

from __future__ import annotations

import asyncio
import io
import os
import sqlite3
import time

import pytest

from bot.commands import make_core
from bot.console import Console
from bot.dbtools import check_store
from bot.store import Store
from tests.support.scripted import SCRIPTS

COPIES = 1000
SCRIPT = "chitin_small"


def _copy_games(path, copies: int) -> int:  # noqa: ANN001
    """Copy the one game in ``path`` ``copies`` - 1 more times; returns its number of actions."""
    con = sqlite3.connect(path)
    try:
        (gid,) = con.execute("SELECT id FROM games").fetchone()
        cols = {t: [r[1] for r in con.execute(f"PRAGMA table_info({t})")] for t in
                ("games", "branches", "actions", "secrets", "snapshots")}
        for n in range(1, copies):
            new = gid + n
            g = [c for c in cols["games"] if c != "id"]
            con.execute(f"INSERT INTO games(id, {', '.join(g)}) SELECT ?, {', '.join(g)} FROM games WHERE id = ?",
                        (new, gid))
            for t in ("branches", "actions", "secrets", "snapshots"):
                rest = [c for c in cols[t] if c != "game_id"]
                con.execute(f"INSERT INTO {t}(game_id, {', '.join(rest)}) SELECT ?, {', '.join(rest)} "
                            f"FROM {t} WHERE game_id = ?", (new, gid))
        con.commit()
        (actions,) = con.execute("SELECT COUNT(*) FROM actions WHERE game_id = ?", (gid,)).fetchone()
        con.execute("VACUUM")
        return actions
    finally:
        con.close()


@pytest.fixture(scope="module")
def big_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("store") / "games.db"

    async def go() -> None:
        store = await Store.open(path)
        try:
            console = Console(make_core(store), None, io.StringIO(), boards=False)
            await console.start()
            for line in (SCRIPTS / f"{SCRIPT}.txt").read_text().splitlines():
                await console.run_line(line)
            await store.prune_outbox("9999")  # every posted reply is older than that
        finally:
            await store.close()

    asyncio.run(go())
    actions = _copy_games(path, COPIES)
    return path, actions


def test_bench_db_check_of_1000_games(benchmark, big_store):
    path, actions = big_store

    async def go() -> tuple[float, list[str]]:
        store = await Store.open(path)
        try:
            t = time.perf_counter()
            problems = await check_store(store, workers=2)
            return time.perf_counter() - t, problems
        finally:
            await store.close()

    took, problems = benchmark.pedantic(lambda: asyncio.run(go()), rounds=1, iterations=1)
    assert problems == []
    size = os.path.getsize(path)
    print(f"\nhexhive db check of {COPIES:,} games of {actions} actions, 2 workers: {took:.1f} s (goal < 60 s); "
          f"store {size / 2**20:.0f} MiB, {size / (COPIES * actions) * 100 / 1024:.1f} KiB per 100 actions")
