"""A long run of commands against a database, printing what is committed; the SIGKILL test kills it.

Usage: python -m tests.support.crash_driver DB COMMANDS SEED
Prints ``ack GAME SEQ`` after each committed action, ``posted ID`` after each reply is
marked delivered and ``reposted ID`` for replies found unposted at start-up.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.commands import make_core
from bot.core import Core
from bot.store import Store
from engine.core import registry
from tests.support.toygame import ToyGame

JUNK = ["/take n:9", "/guess parity:maybe", "/nosuch", "/game accept", "/take", "/mod pause", "/guess"]


def out(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(db: str, total: int, seed: int) -> None:
    registry.register(ToyGame())
    store = await Store.open(db)
    core = make_core(store)
    unposted = await core.start()
    for r in unposted:
        out(f"reposted {r.outbox_id}")
    await deliver(core, unposted)
    rng = random.Random(seed)
    for _ in range(total):
        games = [g for g in core.live.values() if g.row.status == "active"]
        invited = [g for g in core.live.values() if g.row.status == "invited"]
        if invited:
            replies = await core.handle_line("bob", invited[0].row.place, "/game accept")
        elif len(games) < 3:
            replies = await core.handle_line("alice", f"room{rng.randrange(3)}",
                                             f"/game new game:toy opponent:bob pile:{rng.randint(2, 9)}")
        else:
            g = rng.choice(games)
            prompts = g.pending()
            if rng.random() < 0.1 or not prompts:
                user, line = rng.choice(["alice", "bob", "eve"]), rng.choice(JUNK) + f" game:{g.id}"
            else:
                p = rng.choice(prompts)
                a = rng.choice(g.rules.legal_actions(g.state, p.seat))
                user, line = g.user_of(p.seat), a.text() + f" game:{g.id}"
            before = g.seq
            replies = await core.handle_line(user, g.row.place, line)
            if g.seq != before:
                out(f"ack {g.id} {g.seq}")
        await deliver(core, replies)


async def deliver(core: Core, replies: list) -> None:
    await core.posted(replies)
    for r in replies:
        if r.outbox_id is not None:
            out(f"posted {r.outbox_id}")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
