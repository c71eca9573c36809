"""``hexhive db backup`` and ``hexhive db check``."""

from __future__ import annotations

from pathlib import Path

from bot.live import config_of, full_replay
from bot.records import load_state, rules_for
from bot.store import Store


async def backup(db: Path, dest: Path) -> int:
    """Copy the database consistently, even while the bot writes to it."""
    if not db.exists():
        print(f"hexhive: no database at {db}")
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
    """Every difference between the log and the snapshots, and any integrity problem."""
    problems = [f"integrity: {r}" for r in await store.integrity_check() if r != "ok"]
    for row in await store.games("status NOT IN ('invited', 'declined')"):
        rules = rules_for(config_of(row))
        for b in await store.branches(row.id):
            snaps = dict(await store.snapshots(row.id, b["branch"]))
            if not snaps and b["branch"] != row.branch:
                continue
            try:
                _, _ = await full_replay(store, row, b["branch"])
            except Exception as exc:  # a log that no longer replays is exactly what we report
                problems.append(f"game #{row.id} branch {b['branch']}: replay fails: {exc}")
                continue
            for seq, text in snaps.items():
                expected = load_state(rules, text).model_dump_json()
                got = await _state_at(store, row, b["branch"], seq)
                if got != expected:
                    problems.append(f"game #{row.id} branch {b['branch']}: snapshot at action {seq} differs from replay")
    return problems


async def _state_at(store: Store, row, branch: int, seq: int) -> str:  # type: ignore[no-untyped-def]
    import json

    from bot.records import replay
    from engine.core.dice import Roll
    from engine.core.protocol import Action

    config = config_of(row)
    rules = rules_for(config)
    actions = await store.actions(row.id, branch, upto=seq)
    steps = [(a.seat, Action.model_validate_json(a.action), [Roll.model_validate(r) for r in json.loads(a.rolls)])
             for a in actions]
    state, _ = replay(rules, config, [Roll.model_validate(r) for r in json.loads(row.setup_rolls)], steps)
    return state.model_dump_json()
