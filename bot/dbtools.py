"""``hexhive db backup`` and ``hexhive db check``."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import sqlite3
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bot.records import Folder, load_state, rules_for
from bot.store import Store
from engine.core.dice import RecordedDice, Roll
from engine.core.protocol import Action, GameConfig, GameRules


async def backup(db: Path, dest: Path) -> int:
    """Copy the database consistently, even while the bot writes to it."""
    if not db.exists():
        print(f"hexhive: no database at {db}")
        return 2
    if not dest.parent.is_dir():
        print(f"hexhive: the folder {dest.parent} does not exist")
        return 2
    store = await Store.open(db)
    try:
        await store.backup(dest)
    finally:
        await store.close()
    print(f"backed up {db} to {dest}")
    return 0


async def check(db: Path, workers: int | None = None, *, full: bool = False) -> int:
    """SQLite's integrity check, then every game replayed from its log and compared with its snapshots
    (``full``: every action's legality checked again too)."""
    if not db.exists():
        print(f"hexhive: no database at {db}")
        return 2
    store = await Store.open(db)
    try:
        problems = await check_store(store, workers=workers, progress=_print_progress, full=full)
    finally:
        await store.close()
    for p in problems:
        print(p)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 0 if not problems else 1


def _print_progress(done: int, total: int) -> None:
    print(f"checked {done} of {total} games", file=sys.stderr, flush=True)


Progress = Callable[[int, int], None]


async def check_store(store: Store, *, workers: int | None = None, progress: Progress | None = None,
                      full: bool = False) -> list[str]:
    """Every difference between the log and the snapshots, and any integrity problem.

    Each branch is replayed once from the start and the state after each snapshotted action
    is compared with its snapshot. The snapshots vouch for the actions before the last of them
    (each was checked when it was committed, and a changed one changes the states after it), so
    only the actions after the last snapshot have their legality checked again; with ``full``,
    every action's is (three to four times slower).
    Games are checked in worker processes (one a core by default), each reading the
    database on its own, so a large store is checked in parallel; ``progress`` hears
    how far the check is every ``PROGRESS_EVERY`` games.
    """
    problems = [f"integrity: {r}" for r in await store.integrity_check() if r != "ok"]
    ids = [row.id for row in await store.games("status NOT IN ('invited', 'declined')")]
    if not ids:
        return problems
    workers = workers or os.cpu_count() or 1
    chunks = [ids[i:i + CHUNK] for i in range(0, len(ids), CHUNK)]
    loop = asyncio.get_running_loop()
    done = 0
    if workers <= 1 or len(ids) <= CHUNK:
        for chunk in chunks:
            problems += await asyncio.to_thread(check_games, store.path, chunk, full)
            done += len(chunk)
            if progress is not None:
                progress(done, len(ids))
        return problems
    # fork where there is one: the workers inherit the games registered in this process.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method)) as pool:
        futures = [loop.run_in_executor(pool, check_games, store.path, chunk, full) for chunk in chunks]
        for fut in asyncio.as_completed(futures):
            found = await fut
            problems += found
            done += CHUNK
            if progress is not None and (done // PROGRESS_EVERY != (done - CHUNK) // PROGRESS_EVERY or done >= len(ids)):
                progress(min(done, len(ids)), len(ids))
    return sorted(problems, key=_game_order)


CHUNK = 25
PROGRESS_EVERY = 100


def _game_order(problem: str) -> tuple[int, str]:
    head = problem.split(" ", 2)
    return (int(head[1].lstrip("#")), problem) if len(head) > 1 and head[1].lstrip("#").isdigit() else (0, problem)


def check_games(path: str, game_ids: list[int], full: bool = False) -> list[str]:
    """Check some games in this process, with a read-only connection of its own (a worker's job)."""
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        problems: list[str] = []
        for gid in game_ids:
            problems += _check_game(con, gid, full)
        return problems
    finally:
        con.close()


def _check_game(con: sqlite3.Connection, gid: int, full: bool = False) -> list[str]:
    row = con.execute("SELECT * FROM games WHERE id = ?", (gid,)).fetchone()
    config = GameConfig.model_validate_json(row["config"])
    rules = rules_for(config)
    problems = []
    for (branch,) in con.execute("SELECT branch FROM branches WHERE game_id = ? ORDER BY branch", (gid,)).fetchall():
        snaps = dict(con.execute("SELECT seq, state FROM snapshots WHERE game_id = ? AND branch = ?",
                                 (gid, branch)).fetchall())
        actions = con.execute("SELECT seq, seat, action, rolls FROM actions WHERE game_id = ? AND branch = ?"
                              " ORDER BY seq", (gid, branch)).fetchall()
        try:
            checked_from = 0 if full else max(snaps, default=0)  # legality checked after this action
            states = _states_at(rules, config, row["setup_rolls"], actions, set(snaps), checked_from)
        except Exception as exc:  # a log that no longer replays is exactly what we report
            problems.append(f"game #{gid} branch {branch}: replay fails: {exc}")
            continue
        for seq, text in sorted(snaps.items()):
            if states.get(seq) != load_state(rules, text).model_dump_json():
                problems.append(f"game #{gid} branch {branch}: snapshot at action {seq} differs from replay")
    return problems


def _states_at(rules: GameRules, config: GameConfig, setup_rolls: str, actions: list, wanted: set[int],
               checked_from: int = 0) -> dict[int, str]:
    """The states after the ``wanted`` actions, replayed; the legality of each action after the
    ``checked_from``-th is checked again, of those before it not (a snapshot vouches for them)."""
    state = rules.setup(config, RecordedDice([Roll.model_validate(r) for r in json.loads(setup_rolls)]))
    out = {0: state.model_dump_json()} if 0 in wanted else {}
    logged = [Action.model_validate_json(a["action"]) for a in actions]
    folder = Folder(rules, state, logged, trusted=checked_from > 0, in_place=True)  # each state is read, then dropped
    for a, action in zip(actions, logged, strict=True):
        if folder.trusted and a["seq"] > checked_from:
            folder.trusted = False
        dice = RecordedDice([Roll.model_validate(r) for r in json.loads(a["rolls"])])
        folder.step(a["seat"], action, dice)  # a take-back restores a state
        if a["seq"] in wanted:
            out[a["seq"]] = folder.state.model_dump_json()
    return out
