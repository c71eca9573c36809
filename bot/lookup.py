"""Finding games that are no longer in play: a finished game's own thread still knows its game.

``/game export|status|replay|log`` in the thread of a finished game read that game without
``game:N``; a moderator may roll a finished game back (it becomes active again, on a new
branch; bot/moderation.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.answers import Refusal, visible
from bot.live import Live, load_live
from bot.replies import Command

if TYPE_CHECKING:
    from bot.core import Core

async def finished_here(core: Core, cmd: Command) -> Live | None:
    """The game of this place (its own thread) if it is finished or a declined challenge (``Core.places``)."""
    gid, ended = core.places.get(cmd.place, (0, ""))
    row = await core.store.game(gid) if ended else None
    if row is None or row.status not in ("over", "declined"):
        return None
    return await load_live(core.store, row)


async def for_rollback(core: Core, cmd: Command) -> Live:
    """The game a moderator's rollback is about: one in play, or a finished one (named, or of this thread)."""
    gid = core.game_id_arg(cmd)
    if gid is not None and gid not in core.live:
        row = await core.store.game(gid)
        if row is not None and row.status == "over" and visible(row, cmd):
            return await load_live(core.store, row)
    try:
        return core.find_game(cmd)
    except Refusal:
        g = await finished_here(core, cmd) if "game" not in cmd.args else None
        if g is None:
            raise
        return g
