"""SIGKILL at random points of a long scripted run, then restart: nothing committed is lost,
nothing is applied or posted twice, and every game equals a replay of its log."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

from bot.commands import make_core
from bot.dbtools import check_store
from bot.live import full_replay
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]


def run_until_killed(db: Path, seed: int, kill_after_acks: int | None, commands: int = 20000) -> list[str]:
    """Run the driver; SIGKILL it as soon as it has committed ``kill_after_acks`` more actions."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "tests.support.crash_driver", str(db), str(commands), str(seed)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    lines: list[str] = []
    acks = 0
    for line in proc.stdout:
        lines.append(line.strip())
        acks += line.startswith("ack")
        if kill_after_acks is not None and acks >= kill_after_acks:
            proc.send_signal(signal.SIGKILL)
            break
    rest, stderr = proc.communicate(timeout=300)
    lines += rest.splitlines()
    if kill_after_acks is None:
        assert proc.returncode == 0, stderr[-2000:]
    else:
        assert proc.returncode == -signal.SIGKILL, stderr[-2000:]
    return lines


async def test_sigkill_at_random_points_loses_nothing_and_repeats_nothing(tmp_path):
    db = tmp_path / "crash.db"
    rng = random.Random(7)
    acked: set[tuple[int, int]] = set()
    posted: set[int] = set()
    reposted_total = 0
    lines_total = 0
    killed_mid_run = 0
    for round_no in range(12):
        kill_after = None if round_no == 11 else rng.randint(100, 250)
        lines = run_until_killed(db, round_no, kill_after, commands=300 if kill_after is None else 20000)
        killed_mid_run += kill_after is not None
        lines_total += len(lines)
        for line in lines:
            kind, *rest = line.split()
            if kind == "ack":
                acked.add((int(rest[0]), int(rest[1])))
            elif kind == "posted":
                posted.add(int(rest[0]))
            elif kind == "reposted":
                # a reply already marked posted must never come back
                assert int(rest[0]) not in posted
                reposted_total += 1
    assert len(acked) > 1000, f"only {len(acked)} actions ran; the test did not exercise enough"
    assert killed_mid_run == 11

    store = await Store.open(db)
    try:
        core = make_core(store)
        await core.start()
        for gid, seq in acked:
            row = await store.game(gid)
            assert any(a.seq == seq for a in await store.actions(gid, row.branch)), f"lost action {gid}/{seq}"
        for g in core.live.values():
            if g.state is not None:
                replayed, _ = await full_replay(store, g.row)
                assert replayed.model_dump_json() == g.state.model_dump_json()
        assert await check_store(store) == []
    finally:
        await store.close()
