"""Play a console script line by line, handing each line's replies (and the core) to a test."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

from bot.commands import make_core
from bot.console import Console
from bot.core import Core
from bot.replies import Reply
from bot.store import Store

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"

ONE_PER_GAME = ("chitin_basic", "oneworld_full_game", "annihilator_cores", "resolve_dice", "resolve_assault")
"""A whole scripted game of each title (and each stand-alone resolver)."""


async def play(script: str, db: Path) -> AsyncIterator[tuple[str, list[Reply], Core]]:
    """Yield ``(line, replies, core)`` for every line of ``tests/scripts/<script>.txt``."""
    store = await Store.open(db)
    try:
        core = make_core(store)
        console = Console(core, None, io.StringIO(), boards=False)
        await console.start()
        for line in (SCRIPTS / f"{script}.txt").read_text().splitlines():
            replies = await console.run_line(line)
            yield line, replies, core
    finally:
        await store.close()
