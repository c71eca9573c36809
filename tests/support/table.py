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


async def open_toys(core: Core, count: int, extra: str = "") -> list[int]:
    """``count`` toy games between p<n> and q<n>, each in its own console place, accepted."""
    ids = []
    for n in range(count):
        r = await core.handle_line(f"p{n}", f"console:#t{n}", f"/game new game:toy opponent:q{n} {extra}".strip())
        ids.append(r[0].game_id)
        await core.handle_line(f"q{n}", f"console:#t{n}", "/game accept")
    return ids


async def play_toy(core: Core, gid: int, until: int, place: str = "console:#t") -> None:
    """Play a toy game (both guess odd, the taker takes one) until it has ``until`` actions."""
    while core.live[gid].seq < until:
        g = core.live[gid]
        if g.state.step == "guess":
            for u in g.seats.values():
                await core.handle_line(u, f"dm:{u}", f"/guess parity:odd game:{gid}")
        else:
            await core.handle_line(g.user_of(g.state.taker), place, f"/take n:1 game:{gid}")
