"""Boards for transports: the view a person may see, drawn off the event loop."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from engine.core.protocol import View

if TYPE_CHECKING:
    from bot.core import Core


async def board_view(core: Core, game_id: int, viewer: str | None) -> View | None:
    """The view of a game for a seat (or a spectator), from memory or rebuilt from the log."""
    g = core.live.get(game_id)
    if g is not None and g.state is not None:
        return g.rules.view(g.state, viewer)
    row = await core.store.game(game_id)
    if row is None or row.status in ("invited", "declined"):
        return None
    from bot.live import config_of, full_replay
    from bot.records import rules_for

    state, _ = await full_replay(core.store, row)
    return rules_for(config_of(row)).view(state, viewer)


async def render_board_png(core: Core, game_id: int, viewer: str | None) -> bytes | None:
    """PNG bytes of a game's board, rendered in a worker thread (Pillow releases the GIL)."""
    view = await board_view(core, game_id, viewer)
    if view is None:
        return None
    from render import board

    return await asyncio.to_thread(board, view)
