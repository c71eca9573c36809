"""A game started through the bot core, as the console would: alice challenges bob, bob accepts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core import Core
from bot.live import Live
from bot.replies import Reply

Say = Callable[..., Awaitable[list[Reply]]]


async def open_table(core: Core, place: str, new_game: str) -> tuple[Live, Say]:
    """Start ``/game new <new_game>`` in ``place``; returns the live game and a ``say(user, line, mod=False)``."""

    async def say(user: str, line: str, mod: bool = False) -> list[Reply]:
        return await core.handle_line(user, place, line, is_moderator=mod)

    r = await say("alice", f"/game new opponent:bob {new_game}")
    gid = r[0].game_id
    assert gid is not None, r[0].text
    await say("bob", "/game accept")
    return core.live[gid], say
