"""Every board of the scripted full games (tests/scripts/*.txt), as the bot would draw them: the
viewer's view and the spectator's view of each board post, collected once per script."""

from __future__ import annotations

import asyncio
import io
import tempfile
from pathlib import Path

from engine.core.protocol import View

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"
FULL_GAMES = sorted(p.stem for p in SCRIPTS.glob("*.txt") if not p.stem.startswith("resolve_"))
_SEEN: dict[str, list[tuple[View, View]]] = {}


def board_views_of(script: str) -> list[tuple[View, View]]:
    """(view, spectator's view) of every board the console posts while playing ``script``."""
    if script not in _SEEN:
        _SEEN[script] = asyncio.run(_collect(script))
    return _SEEN[script]


async def _collect(script: str) -> list[tuple[View, View]]:
    import bot.console as console
    from bot.boards import board_views

    seen: list[tuple[View, View]] = []

    async def keep(core, game_id, viewer):  # type: ignore[no-untyped-def]
        views = await board_views(core, game_id, viewer)
        if views is not None:
            seen.append(views)
        return None

    lines = (SCRIPTS / f"{script}.txt").read_text().splitlines()
    real = console.render_board_images
    console.render_board_images = keep  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as d:
            rc = await console.run_script(lines, Path(d) / "s.db", None, io.StringIO())
    finally:
        console.render_board_images = real  # type: ignore[assignment]
    assert rc == 0, script
    return seen
