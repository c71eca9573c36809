"""``hexhive db backup`` and ``hexhive db check``."""

from __future__ import annotations

import json
from pathlib import Path

from bot.live import config_of
from bot.records import Folder, load_state, rules_for
from bot.store import GameRow, Store
from engine.core.dice import RecordedDice, Roll
from engine.core.protocol import Action


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


async def check(db: Path) -> int:
    """SQLite's integrity check, then every game replayed from its log and compared with its snapshots."""
    if not db.exists():
        print(f"hexhive: no database at {db}")
        return 2
    store = await Store.open(db)
    try:
        problems = await check_store(store)
    finally:
        await store.close()
    for p in problems:
        print(p)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 0 if not problems else 1


async def check_store(store: Store) -> list[str]:
    """Every difference between the log and the snapshots, and any integrity problem.

    Each branch is replayed once from the start with every action's legality checked
    again, and the state after each snapshotted action is compared with its snapshot.
    """
    problems = [f"integrity: {r}" for r in await store.integrity_check() if r != "ok"]
    for row in await store.games("status NOT IN ('invited', 'declined')"):
        for b in await store.branches(row.id):
            snaps = dict(await store.snapshots(row.id, b["branch"]))
            try:
                states = await _states_at(store, row, b["branch"], set(snaps))
            except Exception as exc:  # a log that no longer replays is exactly what we report
                problems.append(f"game #{row.id} branch {b['branch']}: replay fails: {exc}")
                continue
            rules = rules_for(config_of(row))
            for seq, text in sorted(snaps.items()):
                if states.get(seq) != load_state(rules, text).model_dump_json():
                    problems.append(f"game #{row.id} branch {b['branch']}: snapshot at action {seq} differs from replay")
    return problems


async def _states_at(store: Store, row: GameRow, branch: int, wanted: set[int]) -> dict[int, str]:
    config = config_of(row)
    rules = rules_for(config)
    state = rules.setup(config, RecordedDice([Roll.model_validate(r) for r in json.loads(row.setup_rolls)]))
    out = {0: state.model_dump_json()} if 0 in wanted else {}
    actions = await store.actions(row.id, branch)
    folder = Folder(rules, state, [Action.model_validate_json(a.action) for a in actions])
    for a in actions:
        dice = RecordedDice([Roll.model_validate(r) for r in json.loads(a.rolls)])
        folder.step(a.seat, Action.model_validate_json(a.action), dice)  # a take-back restores a state
        if a.seq in wanted:
            out[a.seq] = folder.state.model_dump_json()
    return out
